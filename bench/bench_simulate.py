"""The `simulate-workers` measurement: does `orrery simulate --workers 2` scale?

The command line itself is run (`python -m interpreter simulate GAME --games N
--workers W --json`, today's tree), one worker and two in turn (1, 2, 2, 1, ...), so a
change in machine load touches both alike. The figure compared is the games per second
`simulate` reports (its own clock: the games, the worker processes and the results,
not the interpreter's start and the first load of the rules, which are the same for
any worker count); the wall-clock time of the whole command is kept too. The summaries
of every run must be the same apart from their timings: same seeds, same games.

On a machine other processes also use, two workers cannot reach twice the speed of
one, whatever the code does; so the CPU time of each run (the command and its workers)
is measured too: `cpu ratio`, the CPU time of the 2-worker runs over the 1-worker runs,
is the parallel overhead (1.00: none), which the machine's load does not hide, and
`cores used` (CPU seconds per elapsed second) shows whether two cores were there to use.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TIMING_KEYS = ("seconds", "games_per_second", "workers")


def simulate_once(root: Path, target: str, variants: tuple[str, ...], overlays: tuple[str, ...], games: int,
                  workers: int, seed: int = 1) -> dict[str, Any]:
    """One `orrery simulate ... --json` run: its summary, plus `wall` seconds."""
    argv = [sys.executable, "-m", "interpreter", "simulate", target, "--games", str(games),
            "--workers", str(workers), "--seed", str(seed), "--json"]
    argv += [f"--variant={v}" for v in variants] + [f"--with={o}" for o in overlays]
    env = dict(os.environ, PYTHONPATH=str(root))
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=str(root), timeout=3600)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the command and its (joined) workers
    cpu = after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime
    if done.returncode not in (0, 1):  # 1: some games raised, which the summary counts
        raise RuntimeError((done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1])
    summary: dict[str, Any] = json.loads(done.stdout)
    summary["wall"], summary["cpu"] = wall, cpu
    return summary


def measure_workers(root: Path, target: str, variants: tuple[str, ...], overlays: tuple[str, ...], games: int,
                    rounds: int, workers: int = 2) -> dict[str, Any]:
    """1 worker and `workers` workers, `rounds` runs each in ABBA order: rates and speedup."""
    seconds = {1: 0.0, workers: 0.0}
    wall = {1: 0.0, workers: 0.0}
    cpu = {1: 0.0, workers: 0.0}
    summaries: list[dict[str, Any]] = []
    for r in range(rounds):
        for w in ((1, workers) if r % 2 == 0 else (workers, 1)):
            summary = simulate_once(root, target, variants, overlays, games, w)
            seconds[w] += summary["seconds"]
            wall[w] += summary["wall"]
            cpu[w] += summary["cpu"]
            summaries.append({k: v for k, v in summary.items() if k not in (*TIMING_KEYS, "wall", "cpu")})
    one = games * rounds / max(seconds[1], 1e-9)
    many = games * rounds / max(seconds[workers], 1e-9)
    return {
        "games": games, "rounds": rounds, "workers": workers, "cpu_count": os.cpu_count(),
        "one_worker_games_per_s": one, "workers_games_per_s": many, "speedup": many / one,
        "wall_speedup": wall[1] / max(wall[workers], 1e-9),
        "one_worker_wall": wall[1] / rounds, "workers_wall": wall[workers] / rounds,
        "cpu_ratio": cpu[workers] / max(cpu[1], 1e-9),
        # Cores used: CPU seconds per second of wall time. One worker should use ~1 and two
        # ~2; less, and other processes were using this machine and capped the speedup.
        "one_worker_cores": cpu[1] / max(wall[1], 1e-9),
        "workers_cores": cpu[workers] / max(wall[workers], 1e-9),
        "same_results": all(s == summaries[0] for s in summaries),
        "errors": summaries[0].get("errors", 0),
    }
