"""`python -m tests.fuzz`: the long fuzzing run (see docs/fuzzing.md).

    python -m tests.fuzz --mutants 5000 --seed 1 [--workers 2] [--out fuzz-failures]
    python -m tests.fuzz --seed 1 --only 1234      # one mutant again, in this process
    python -m tests.fuzz --compiler --mutants 2000 --seed 1   # hostile text aimed at the compiler

Prints the counts (mutants, accepted, refused by diagnostic code, rule errors at run
time, failures by kind: CODE RAN, exceptions, Hang); writes each failing mutant under
--out; exits 1 if any failed.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys

from . import check, corpus, make, run_fuzz, write_failure
from .pool import TIME_LIMIT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mutants", type=int, default=1000, help="how many mutants (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="the seed (default 1)")
    parser.add_argument("--start", type=int, default=0, help="the first mutant's number (default 0)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="worker processes")
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("fuzz-failures"),
                        help="folder for failing mutants (default fuzz-failures)")
    parser.add_argument("--only", type=int, metavar="N", help="check mutant N alone, here, and show it")
    parser.add_argument("--compiler", action="store_true",
                        help="the compiler mode: hostile names and texts, payloads that must never run")
    parser.add_argument("--cpu-limit", type=float, default=TIME_LIMIT,
                        help=f"CPU seconds per mutant before it is a hang (default {TIME_LIMIT:g})")
    args = parser.parse_args(argv)
    mode = "compiler" if args.compiler else "rules"
    if args.only is not None:
        mutant = make(mode, corpus(), args.seed, args.only)
        print(f"{mutant.label}: {mutant.unit.name}, file {mutant.file}:", *mutant.changes, sep="\n  - ")
        result = check(mutant)
        print(f"outcome: {result.outcome} {', '.join(result.codes)} {' '.join(result.playouts)}")
        if result.error:
            print(result.error)
            print(f"written to {write_failure(mutant, result, args.out)}")
        return 1 if result.outcome == "failure" else 0
    report = run_fuzz(args.mutants, args.seed, args.workers, args.out, args.start, time_limit=args.cpu_limit,
                      mode=mode)
    print(report.render())
    if report.failures:
        print(f"failing mutants written under {args.out}/", file=sys.stderr)
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
