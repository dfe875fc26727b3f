"""The rule-file fuzzer: hostile variations of every bundled rule file must never
make the engine fail other than by its rules.

`run_fuzz(mutants, seed)` makes mutants 0..mutants-1 of `seed` (`mutate`), checks each
in worker processes with a memory cap and a CPU-time limit (`pool`) as `orrery validate`
does, playing the accepted ones a little (`check`), and sums up the outcomes in a
`Report`. Every failure is written to a folder with its files and how to reproduce it.
`python -m tests.fuzz --mutants 5000 --seed 1` is the long run; `tests/test_fuzz.py`
runs a few hundred in the test suite.

`run_fuzz(..., mode="compiler")` (`python -m tests.fuzz --compiler`) makes its mutants
with `hostile` instead: hostile text in every name-like and text-like place of the
rules, aimed at the compiler; a mutant whose text ran as Python is the failure
"CODE RAN". See docs/fuzzing.md.
"""

from __future__ import annotations

import pathlib
import time
from collections import Counter

import attrs

from .check import CODE_RAN, KNOWN, Result, check, write_unit
from .hostile import make_compiler_mutant
from .mutate import Mutant, Unit, corpus, make_mutant
from .pool import MEMORY_LIMIT, TIME_LIMIT, Maker, Pool

__all__ = ["CODE_RAN", "KNOWN", "MODES", "Mutant", "Report", "Result", "check", "corpus", "make_compiler_mutant",
           "make_mutant", "run_fuzz", "write_failure"]

# The mutators, by mode: the rule-file fuzzer's, and the compiler mode's hostile text.
MODES: dict[str, Maker] = {"rules": make_mutant, "compiler": make_compiler_mutant}


def make(mode: str, units: list[Unit], seed: int, index: int) -> Mutant:
    """Mutant `index` of `seed` made by the `mode` mutator."""
    return MODES[mode](units, seed, index)


@attrs.define
class Report:
    """The outcomes of a fuzzing run, summed up."""

    seed: int
    mode: str = "rules"
    mutants: int = 0
    accepted: int = 0
    refused: int = 0
    refused_codes: Counter[str] = attrs.Factory(Counter)  # mutants refused with a diagnostic of each code
    rule_errors: Counter[str] = attrs.Factory(Counter)  # located rule errors in play, by code
    playouts: Counter[str] = attrs.Factory(Counter)  # ended, capped, rule-error, variant-refused
    failures: list[Result] = attrs.Factory(list)
    known: list[Result] = attrs.Factory(list)
    warned: list[Result] = attrs.Factory(list)  # mutants that made Python warnings (not failures)
    stalled: list[Result] = attrs.Factory(list)  # past the wall-clock guard twice: machine busy? (not failures)
    slow: list[Result] = attrs.Factory(list)  # past the CPU limit once, then finished when checked again
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of all checks
    slowest: tuple[float, int] = (0.0, -1)  # the most CPU seconds one check took, and its mutant

    def add(self, result: Result) -> None:
        self.mutants += 1
        self.cpu += result.cpu
        self.slowest = max(self.slowest, (result.cpu, result.index))
        if result.warnings:
            self.warned.append(result)
        if result.slow:
            self.slow.append(result)
        if result.outcome == "accepted":
            self.accepted += 1
            self.rule_errors.update(result.codes)
            self.playouts.update(p.split(":")[0] for p in result.playouts)
        elif result.outcome == "refused":
            self.refused += 1
            self.refused_codes.update(result.codes)
        elif result.outcome == "known":
            self.known.append(result)
        elif result.outcome == "stalled":
            self.stalled.append(result)
        else:
            self.failures.append(result)

    def render(self) -> str:
        def table(counts: Counter[str]) -> str:
            return ", ".join(f"{code} {n}" for code, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))

        kinds = Counter(r.codes[0] for r in self.failures)
        lines = [
            f"fuzz{' --compiler' if self.mode == 'compiler' else ''}: seed {self.seed}, {self.mutants} mutants in "
            f"{self.seconds:.1f} s (CPU of the checks {self.cpu:.1f} s; the most for one, "
            f"{self.slowest[0]:.1f} s, mutant {self.slowest[1]})",
            f"  accepted  {self.accepted:6}   playouts: {table(self.playouts) or 'none'}",
            f"  refused   {self.refused:6}   by diagnostic code: {table(self.refused_codes) or 'none'}",
            f"  rule errors at run time {sum(self.rule_errors.values())}: {table(self.rule_errors) or 'none'}",
            f"  known failures {len(self.known)}"
            + (f": {table(Counter(f'{r.codes[0]} at {r.where}' for r in self.known))}" if self.known else ""),
            f"  warnings  {len(self.warned)}"
            + "".join(f"\n    mutant {r.index}: {r.warnings[0][:160]}" for r in sorted(self.warned,
                                                                               key=lambda r: r.index)[:10]),
            f"  stalled   {len(self.stalled)}"
            + (" (machine busy? past the wall-clock guard twice; not failures: check them with --only)"
               + "".join(f"\n    mutant {r.index}" for r in sorted(self.stalled, key=lambda r: r.index))
               if self.stalled else ""),
            f"  slow once {len(self.slow)}"
            + "".join(f"\n    mutant {r.index}: {r.slow}" for r in sorted(self.slow, key=lambda r: r.index)),
            f"  failures  {len(self.failures)}" + (f": {table(kinds)}" if kinds else ""),
        ]
        for result in sorted(self.failures, key=lambda r: r.index):
            first = result.error.strip().splitlines()[-1] if result.error.strip() else result.codes[0]
            lines.append(f"    mutant {result.index}: {first[:160]}" + (f" [{result.where}]" if result.where else ""))
        return "\n".join(lines)


def run_fuzz(mutants: int, seed: int, workers: int = 2, out: pathlib.Path | None = None, start: int = 0,
             time_limit: float = TIME_LIMIT, memory: int = MEMORY_LIMIT, mode: str = "rules") -> Report:
    """Check mutants start..start+mutants-1 of `seed` made by the `mode` mutator
    ("rules" or "compiler"); failures are written under `out`. `time_limit` is CPU
    seconds per mutant."""
    began = time.monotonic()  # for the report only: no limit depends on it
    report = Report(seed, mode)
    units = corpus()
    pool = Pool(seed, check, workers, time_limit, memory, make=MODES[mode])
    for result in pool.results(range(start, start + mutants)):
        report.add(result)
        if result.outcome == "failure" and out is not None:
            write_failure(make(mode, units, seed, result.index), result, out)
    report.seconds = time.monotonic() - began
    return report


def write_failure(mutant: Mutant, result: Result, out: pathlib.Path) -> pathlib.Path:
    """The mutant's files and FAILURE.txt (what happened, how to see it again)."""
    compiler = mutant.mode == "compiler"
    folder = out / f"{'compiler-' if compiler else ''}seed{mutant.seed}-mutant{mutant.index}"
    target = write_unit(mutant, folder)
    note = [
        f"{mutant.label}: {mutant.unit.name}, file {mutant.file} changed:",
        *(f"  - {change}" for change in mutant.changes),
        "",
        "Reproduce:",
        f"  python -m tests.fuzz {'--compiler ' if compiler else ''}--seed {mutant.seed} --only {mutant.index}",
        f"  python -m interpreter validate {target}",
        *([f"  (its payloads create {folder.resolve()}/CODE-RAN, or ./ORRERY-FUZZ-MARKER from a file name)"]
          if compiler else []),
        "",
        f"Outcome: {result.outcome} ({', '.join(result.codes)})" + (f" at {result.where}" if result.where else ""),
        result.error,
    ]
    (folder / "FAILURE.txt").write_text("\n".join(note) + "\n", encoding="utf-8")
    return folder
