"""The rule-file fuzzer (tests/fuzz): a few hundred seeded mutants of the bundled rule
files never make the engine fail other than by its rules, and the harness itself
catches what it must (exceptions, hangs, memory) and says how to reproduce a failure.

The long run is `python -m tests.fuzz --mutants 5000 --seed N` (docs/fuzzing.md).
"""

from __future__ import annotations

import functools
import pathlib
import signal
import sys
import time

import pytest
from fuzz import KNOWN, Result, check, corpus, make_mutant, run_fuzz, write_failure
from fuzz.pool import Pool

from interpreter.diagnostics import RuleRuntimeError
from interpreter.resources import data_path

MUTANTS = 300
SEED = 20240601


def test_a_few_hundred_mutants_never_fail_the_engine(tmp_path: pathlib.Path) -> None:
    report = run_fuzz(MUTANTS, SEED, workers=2, out=tmp_path)
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
               for folder in ("games", "examples") for path in data_path(folder).rglob("*.yaml")}
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


# ---- the worker pool: time and memory ---------------------------------------------------------


def _hangs(path: str, overlays: list[str]) -> tuple[list, str]:
    while True:
        pass


def _hangs_deaf(path: str, overlays: list[str]) -> tuple[list, str]:
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})  # as if stuck in C code
    while True:
        time.sleep(0.05)


def _greedy(path: str, overlays: list[str]) -> tuple[list, str]:
    hoard = bytearray(2 << 30)  # 2 GB, past the workers' cap
    return [], str(len(hoard))


def _outcomes(job, time_limit: float = 30.0) -> list[Result]:
    pool = Pool(SEED, functools.partial(check, validate=job), workers=1, time_limit=time_limit, grace=0.5)
    return list(pool.results([0, 1]))


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs POSIX timers")
def test_a_hang_is_stopped_and_said_where() -> None:
    results = _outcomes(_hangs, time_limit=0.5)
    assert [(r.outcome, r.codes) for r in results] == [("failure", ("Hang",))] * 2
    assert "_hangs" in results[0].error


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="needs POSIX signals")
def test_a_hang_deaf_to_the_alarm_has_its_worker_killed() -> None:
    results = _outcomes(_hangs_deaf, time_limit=0.5)
    assert [(r.outcome, r.codes) for r in results] == [("failure", ("Hang",))] * 2
    assert "killed" in results[0].error


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS is enforced on Linux")
def test_memory_past_the_cap_is_a_failure_not_a_dead_machine() -> None:
    results = _outcomes(_greedy)
    assert [(r.outcome, r.codes) for r in results] == [("failure", ("MemoryError",))] * 2
