"""The rule-file fuzzer (tests/fuzz): a hundred and fifty seeded mutants of the bundled rule
files never make the engine fail other than by its rules; compiler mutants (hostile
names and texts in every place, payloads that would run Python) never run as code; and
the harness itself catches what it must (exceptions, code that ran, hangs measured in
CPU time, memory) and says how to reproduce a failure. No test here depends on how fast
the machine is: limits are CPU time, and the only wall-clock guard (a stall) is retried.

The long runs are `python -m tests.fuzz [--compiler] --mutants 5000 --seed N` (docs/fuzzing.md).
"""

from __future__ import annotations

import builtins
import functools
import os
import pathlib
import re
import signal
import sys
import tempfile
import textwrap
import time
from typing import Any

import pytest
import yaml
from fuzz import (
    CODE_RAN,
    KNOWN,
    Report,
    Result,
    check,
    corpus,
    hostile,
    make_compiler_mutant,
    make_mutant,
    run_fuzz,
    write_failure,
)
from fuzz.check import MARKER_FILE
from fuzz.mutate import is_scenario_file
from fuzz.pool import Pool

from interpreter.diagnostics import Diagnostic, RuleRuntimeError
from interpreter.resources import data_path
from interpreter.rules.yamlload import load_yaml_text

MUTANTS = 150  # (300 until the suite neared its time budget on busy cores; long runs are for depth)
SEED = 20240601
COMPILER_MUTANTS = 80
COMPILER_SEED = 20250101
INJECTION_SEED = 3


def test_seeded_mutants_never_fail_the_engine(tmp_path: pathlib.Path) -> None:
    report = run_fuzz(MUTANTS, SEED, workers=2, out=tmp_path)
    print(report.render())  # (shown with -rP: the figures, CPU seconds included)
    assert not report.failures, report.render() + "\n(failing mutants written under the test's tmp_path)"
    assert report.mutants == MUTANTS
    # The mutants reach every stage: refused by the reader, the schema and the compiler,
    # and accepted ones played until they end, reach their cap or meet a rule error.
    assert report.accepted > MUTANTS // 10 and report.refused > MUTANTS // 2
    assert {"schema", "syntax", "yaml-syntax"} <= set(report.refused_codes)
    assert report.playouts["ended"] and report.playouts["capped"]


def test_every_bundled_rule_file_is_mutated() -> None:
    units = corpus()
    files = {f"{unit.name}/{name}" for unit in units for name in unit.files}
    bundled = {f"{folder}/{path.relative_to(data_path(folder)).as_posix()}"
               for folder in ("games", "examples") for path in data_path(folder).rglob("*.yaml")
               if not is_scenario_file(path)}
    assert files == bundled
    assert {unit.kind for unit in units} == {"game", "overlay"}
    mutated = {(m.unit.name, m.file) for m in (make_mutant(units, SEED, i) for i in range(600))}
    assert mutated == {(unit.name, name) for unit in units for name in unit.files}


def test_a_mutant_is_made_again_from_its_seed_and_number() -> None:
    units = corpus()
    first = [make_mutant(units, 7, i) for i in range(40)]
    assert first == [make_mutant(units, 7, i) for i in range(40)]
    assert first != [make_mutant(units, 8, i) for i in range(40)]
    for mutant in first:
        original = next(u for u in units if u.name == mutant.unit.name).files[mutant.file]
        assert mutant.changes and mutant.unit.files[mutant.file] != original, mutant.changes


def _fails_inside(path: str, overlays: list[str]) -> tuple[list, str]:
    return {}["no such key"]  # an internal error, as the engine might make one


# ---- the compiler mode: rule text never runs as code --------------------------------------------


def test_compiler_mutants_never_run_as_code_nor_fail_the_engine(tmp_path: pathlib.Path) -> None:
    report = run_fuzz(COMPILER_MUTANTS, COMPILER_SEED, workers=2, out=tmp_path, mode="compiler")
    print(report.render())
    assert not report.failures, report.render() + "\n(failing mutants written under the test's tmp_path)"
    assert report.mutants == COMPILER_MUTANTS
    # Hostile text reaches both sides: refused (the schema, the effect language) and
    # accepted (labels, names, log lines) and then played.
    assert report.refused > COMPILER_MUTANTS // 8 and report.accepted > COMPILER_MUTANTS // 8
    assert "schema" in report.refused_codes and report.playouts["ended"] + report.playouts["capped"]


def test_compiler_mutants_reach_every_kind_of_place_in_every_unit() -> None:
    units = corpus()
    mutants = [make_compiler_mutant(units, COMPILER_SEED, i) for i in range(500)]
    kinds = {m.group(1) for mutant in mutants for change in mutant.changes if (m := re.match(r"\[([a-z-]+)\]", change))}
    assert kinds == set(hostile.KINDS)
    assert {m.unit.name for m in mutants} == {u.name for u in units}
    assert all(m.mode == "compiler" and m.changes for m in mutants)
    text = "\n".join(change for m in mutants for change in m.changes)
    for place in ("end[", "set.end", "cards.", "modifiers", "add.modifiers", "patch.cards", "params[", "local ",
                  "label", "include[", "views.", "variants.", "procedures.", "functions.", "nested"):
        assert place in text, place
    assert mutants[:40] == [make_compiler_mutant(units, COMPILER_SEED, i) for i in range(40)]


def test_compiler_mutants_write_the_text_they_mean(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every hostile string reaches the engine as written: the YAML of a changed file
    reads back, with the engine's own reader, as the data the mutator made."""
    dump = hostile.dump

    def dump_and_read_back(data: Any) -> str:
        text = dump(data)
        assert load_yaml_text(text, "mutant.yaml")[0] == data
        return text

    monkeypatch.setattr(hostile, "dump", dump_and_read_back)
    units = corpus()
    for i in range(150):
        make_compiler_mutant(units, COMPILER_SEED, i)


def _namespace(real_builtins: bool = False) -> dict[str, Any]:
    """A namespace like the generated code's: a few built-ins, and a function bound
    under a generated name."""
    allowed = {name: getattr(builtins, name) for name in ("len", "list", "next", "range", "str", "type", "dict")}
    return {"__builtins__": vars(builtins) if real_builtins else allowed, "_k0": textwrap.dedent}


@pytest.mark.parametrize("name", sorted(hostile.PAYLOADS))
def test_every_payload_creates_its_marker_when_it_runs(name: str, tmp_path: pathlib.Path) -> None:
    """The oracle is live: each payload, placed as the mutator places it in source that
    writes text raw, creates the marker (so a mutant that runs code cannot go unseen)."""
    marker = tmp_path / "marker"
    payload = hostile.PAYLOADS[name].replace(hostile.MARKER, str(marker))
    ns = _namespace(real_builtins=name == "import")
    hosts = [  # (text, the generated source it lands in raw)
        (f"x\n    pass\n{payload}\ndef _f(*a):", "def f(st):\n    # end {}\n    return 1\n"),
        (f"x\r\n    {payload}", "def f(st):\n    # end {}\n    return 1\n"),
        (f"x' + str({payload}) + '", "def f(st):\n    return '{}'\n"),
        (f'x""" + str({payload}) + """', 'def f(st):\n    return """{}"""\n'),
    ]
    for text, source in hosts:
        exec(source.replace("{}", text), ns)
        ns["f"](None)
        assert marker.exists(), (name, text[:40])
        marker.unlink()


def _unsafe_validate(path: str, overlays: list[str]) -> tuple[list, str]:
    """A compiler with the bug the review found: end ids written raw into a comment of
    generated source, exec'd in a namespace like the engine's."""
    data = yaml.safe_load(pathlib.Path(path, "game.yaml").read_text(encoding="utf-8"))
    for end in data.get("end") or ():
        exec(f"def check(st):\n    # end {end['id']}\n    return 1\n", _namespace())
    return [Diagnostic(path, 1, 1, "schema", "refused anyway")], ""


def test_code_that_ran_is_a_failure_written_with_its_reproducer(tmp_path: pathlib.Path) -> None:
    units = corpus()
    # INJECTION_SEED: a seed whose first mutants include the change wanted (with the
    # bundled games of today; their data picks the mutants, so a change to it may move it)
    mutant = next(m for m in (make_compiler_mutant(units, INJECTION_SEED, i) for i in range(2000))
                  if m.unit.kind == "game" and len(m.changes) == 1 and m.changes[0].startswith("[end-id] end[0].id")
                  and re.search(r"-> ['\"]x\\n    pass\\n(\[c|\[f|next)", m.changes[0]))
    result = check(mutant, validate=_unsafe_validate)
    assert (result.outcome, result.codes) == ("failure", (CODE_RAN,)), result
    assert "refused schema" in result.error  # what the check said otherwise
    folder = write_failure(mutant, result, tmp_path)
    note = (folder / "FAILURE.txt").read_text(encoding="utf-8")
    assert f"python -m tests.fuzz --compiler --seed {INJECTION_SEED} --only {mutant.index}" in note
    saved = (folder / mutant.file).read_text(encoding="utf-8")
    assert hostile.MARKER not in saved and str((folder / MARKER_FILE).resolve()) in saved
    _unsafe_validate(str(folder), [])  # the saved mutant shows it again
    assert (folder / MARKER_FILE).exists()


def test_an_exception_is_a_failure_written_with_its_reproducer(tmp_path: pathlib.Path) -> None:
    mutant = make_mutant(corpus(), SEED, 3)
    result = check(mutant, validate=_fails_inside)
    assert (result.outcome, result.codes) == ("failure", ("KeyError",))
    assert "_fails_inside" in result.error
    folder = write_failure(mutant, result, tmp_path)
    note = (folder / "FAILURE.txt").read_text(encoding="utf-8")
    assert f"python -m tests.fuzz --seed {SEED} --only 3" in note and "KeyError" in note
    assert (folder / mutant.file).read_text(encoding="utf-8") == mutant.unit.files[mutant.file]


def _unplaced_rule_error(path: str, overlays: list[str]) -> tuple[list, str]:
    raise RuleRuntimeError("a rule error nobody placed")


def test_a_rule_error_must_be_placed_in_a_rule_file() -> None:
    result = check(make_mutant(corpus(), SEED, 3), validate=_unplaced_rule_error)
    assert (result.outcome, result.codes) == ("failure", ("RuleRuntimeError",))


def test_known_failures_are_only_for_code_the_fuzzer_may_not_change() -> None:
    for known in KNOWN:
        assert known.where.split(":")[0] in ("interpreter/compile/expressions.py", "interpreter/compile/statements.py",
                                             "interpreter/compile/builtin_functions.py",
                                             "interpreter/compile/templates.py", "interpreter/runtime/loop.py")
        assert known.why


# ---- the worker pool: CPU time and memory -----------------------------------------------------


def _hangs(path: str, overlays: list[str]) -> tuple[list, str]:
    while True:
        pass


def _hangs_deaf(path: str, overlays: list[str]) -> tuple[list, str]:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGPROF})  # as if stuck in C code
    while True:
        pass


def _blocked(path: str, overlays: list[str]) -> tuple[list, str]:
    while True:  # waiting forever without using CPU, as a deadlock would
        time.sleep(0.05)


def _slow_but_idle(path: str, overlays: list[str]) -> tuple[list, str]:
    time.sleep(1.5)  # wall-clock time, as on a machine busy with other jobs: not CPU time of the check
    return [Diagnostic(path, 1, 1, "schema", "refused")], ""


def _hangs_once(path: str, overlays: list[str]) -> tuple[list, str]:
    """Spins the first time it is called under a pool (a mutant that a loaded machine
    pushed past the limit), and returns at once the next time."""
    first = pathlib.Path(tempfile.gettempdir(), f"orrery-fuzz-hung-once-{os.getppid()}")
    if not first.exists():
        first.touch()
        while True:
            pass
    first.unlink()
    return [Diagnostic(path, 1, 1, "schema", "refused")], ""


def _greedy(path: str, overlays: list[str]) -> tuple[list, str]:
    hoard = bytearray(2 << 30)  # 2 GB, past the workers' cap
    return [], str(len(hoard))


def _pool(job, time_limit: float = 30.0, stall: float | None = None) -> Pool:
    return Pool(SEED, functools.partial(check, validate=job), workers=1, time_limit=time_limit, grace=0.5,
                stall=stall)


def _outcomes(job, time_limit: float = 30.0, indexes: tuple[int, ...] = (0, 1)) -> list[Result]:
    return list(_pool(job, time_limit).results(indexes))


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers")
def test_a_hang_is_stopped_at_the_cpu_limit_and_said_where() -> None:
    results = _outcomes(_hangs, time_limit=0.5, indexes=(0,))  # (each hang is checked twice: one mutant)
    assert [(r.outcome, r.codes) for r in results] == [("failure", ("Hang",))]
    assert "_hangs" in results[0].error and "CPU-time limit" in results[0].error
    assert all(r.cpu > 0.4 for r in results)  # (the kernel's CPU timer counts in ticks: a little coarser)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers")
def test_a_hang_must_happen_twice_to_be_a_failure() -> None:
    """A mutant past the CPU limit is checked again in a fresh worker: one that then
    finishes counts as what it did and is listed as slow once, not as a hang (shared
    cores and caches can swell the CPU seconds of the same work on a loaded machine)."""
    pool = _pool(_hangs_once, time_limit=0.5)
    results = list(pool.results([0]))
    assert [(r.outcome, r.codes) for r in results] == [("refused", ("schema",))]
    assert "past the CPU limit (0.5 s) once" in results[0].slow and "CPU-time limit" in results[0].slow
    report = Report(SEED)
    report.add(results[0])
    assert not report.failures and report.refused == 1 and "slow once 1" in report.render()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask") or sys.platform == "win32", reason="needs RLIMIT_CPU")
def test_a_hang_deaf_to_the_timer_has_its_worker_killed_by_the_kernel() -> None:
    results = _outcomes(_hangs_deaf, time_limit=0.5, indexes=(0,))
    assert [(r.outcome, r.codes) for r in results] == [("failure", ("Hang",))]
    assert "killed" in results[0].error and "CPU time" in results[0].error


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers")
def test_the_limit_is_cpu_time_so_a_slow_machine_is_no_hang() -> None:
    """A check that takes three times the limit in wall-clock time but little CPU (what
    a busy machine does to it) is not a hang."""
    results = _outcomes(_slow_but_idle, time_limit=0.5)
    assert [(r.outcome, r.codes) for r in results] == [("refused", ("schema",))] * 2


def test_a_worker_that_stalls_is_retried_then_reported_stalled_not_as_a_hang() -> None:
    """The wall-clock guard is the last resort: its mutant is tried again in a fresh
    worker, and a second stall is `stalled` (machine busy?), which is not a failure."""
    pool = _pool(_blocked, time_limit=0.5, stall=1.0)
    results = list(pool.results([0]))
    assert [(r.outcome, r.codes) for r in results] == [("stalled", ("Stalled",))]
    assert pool.stalls == {0: 2} and "machine busy?" in results[0].error
    report = Report(SEED)
    report.add(results[0])
    assert not report.failures and report.stalled == results and "stalled   1" in report.render()


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
def test_memory_past_the_cap_is_a_failure_not_a_dead_machine() -> None:
    results = _outcomes(_greedy)
    assert [(r.outcome, r.codes) for r in results] == [("failure", ("MemoryError",))] * 2
