"""Parallel simulation: how games are cut into tasks, and that the summary is the same
for any number of workers, whichever way the workers are started (fork or spawn)."""

from __future__ import annotations

import multiprocessing
import os
import pathlib
import time
from typing import Any

import pytest
from conftest import SOMETIMES_BOOM, write_toy

from interpreter.diagnostics import GameError
from interpreter.play import simulate as sim
from interpreter.play.simulate import SimulationSpec, chunk_plan, outcomes, render_summary, simulate

ROOT = pathlib.Path(__file__).resolve().parents[1]
TTT = str(ROOT / "examples" / "tic-tac-toe")



def _timeless(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "games_per_second", "workers")}


@pytest.mark.parametrize(("games", "workers"), [(1, 2), (7, 2), (100, 2), (1000, 3), (20000, 2), (5, 8)])
def test_chunk_plan_covers_every_game_once_in_order(games: int, workers: int) -> None:
    plan = chunk_plan(games, workers)
    seeds = [first + k for first, count in plan for k in range(count)]
    assert seeds == list(range(games))
    sizes = [count for _, count in plan]
    assert all(1 <= size <= sim.MAX_CHUNK for size in sizes)
    assert sizes == sorted(sizes, reverse=True)  # large first, small last: no long tail
    assert sizes[-1] == 1


def test_chunk_plan_of_a_big_run_makes_few_tasks() -> None:
    plan = chunk_plan(20000, 2)
    assert plan[0][1] == sim.MAX_CHUNK
    assert len(plan) < 200  # about a hundred round trips for 20000 games, not 20000


def test_chunk_plan_of_nothing_is_empty() -> None:
    assert chunk_plan(0, 2) == []


def test_same_summary_for_any_worker_count_with_errors(tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, SOMETIMES_BOOM)
    spec = SimulationSpec(str(path), (), (), 2, ("random", "random"))
    summaries = [_timeless(simulate(spec, games=60, seed=5, workers=w)) for w in (1, 2, 3)]
    assert 0 < summaries[0]["errors"] < 60  # the run really has both kinds of outcome
    assert summaries[0]["error_samples"][0]["message"].count("division by zero") == 1
    assert summaries[1] == summaries[0] and summaries[2] == summaries[0]


def test_parallel_outcomes_come_in_seed_order() -> None:
    spec = SimulationSpec(TTT, (), (), 2, ("random", "random"))
    serial = list(outcomes(spec, 40, 100, workers=1))
    parallel = list(outcomes(spec, 40, 100, workers=2))
    assert [o.seed for o in parallel] == list(range(100, 140))
    assert parallel == serial


def test_spawned_workers_give_the_same_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where fork is not used (other platforms, a threaded caller), workers are spawned
    and load the game themselves."""
    monkeypatch.setattr(sim, "pool_context", lambda: multiprocessing.get_context("spawn"))
    spec = SimulationSpec(TTT, (), (), 2, ("random", "first"))
    one = _timeless(simulate(spec, games=30, seed=3, workers=1))
    two = _timeless(simulate(spec, games=30, seed=3, workers=2))
    assert one["completed"] == 30 and two == one


def test_fork_is_used_only_without_other_threads() -> None:
    import threading

    assert sim.pool_context().get_start_method() in ("fork", "spawn")
    started = threading.Event()
    done = threading.Event()
    helper = threading.Thread(target=lambda: (started.set(), done.wait(5)))
    helper.start()
    try:
        started.wait(5)
        assert sim.pool_context().get_start_method() == "spawn"
    finally:
        done.set()
        helper.join()


def test_a_helper_that_dies_is_an_error_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    if sim.pool_context().get_start_method() != "fork":
        pytest.skip("the failure is planted through fork")
    parent = os.getpid()
    real = sim._play_chunk

    def chunk(spec: SimulationSpec, first: int, count: int) -> list[sim.Outcome]:
        if os.getpid() != parent:
            os._exit(3)  # the helper dies holding a chunk it claimed
        time.sleep(0.02)  # this process is slow, so the helper surely claims a chunk
        return real(spec, first, count)

    monkeypatch.setattr(sim, "_play_chunk", chunk)
    spec = SimulationSpec(TTT, (), (), 2, ("random", "random"))
    with pytest.raises(GameError, match="exit code 3"):
        simulate(spec, games=40, seed=1, workers=2)


def test_parallel_runs_use_this_process_as_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """--workers 3 starts two helpers: this process plays too (3 busy processes on 3 cores),
    and every helper ends with the run."""
    context = sim.pool_context()
    started: list[Any] = []

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(context, name)

        def Process(self, *args: Any, **kwargs: Any) -> Any:
            process = context.Process(*args, **kwargs)
            started.append(process)
            return process

    monkeypatch.setattr(sim, "pool_context", Counting)
    spec = SimulationSpec(TTT, (), (), 2, ("random", "random"))
    assert len(list(outcomes(spec, 60, 1, workers=3))) == 60
    assert len(started) == 2
    assert all(p.exitcode == 0 for p in started)


def test_a_caller_that_stops_reading_leaves_no_helper_behind() -> None:
    spec = SimulationSpec(TTT, (), (), 2, ("random", "random"))
    before = set(multiprocessing.active_children())
    stream = outcomes(spec, 500, 1, workers=3)
    first = next(stream)
    assert first.seed == 1
    stream.close()
    assert [p for p in multiprocessing.active_children() if p not in before] == []


def test_errors_cross_process_boundaries_whole() -> None:
    """Workers send their errors to the parent by pickle: every field arrives."""
    import pickle

    from interpreter.diagnostics import Diagnostic, RuleFileError, RuleRuntimeError

    found = RuleFileError([Diagnostic("g.yaml", 3, 5, "unknown-name", "no counter 'x'", hint="did you mean 'y'?")])
    back = pickle.loads(pickle.dumps(found))
    assert back.diagnostics == found.diagnostics and str(back) == str(found)
    slip = RuleRuntimeError("cannot pay 3", code="overdraft", path="g.yaml", line=9, column=2, what="actions.buy",
                            context=("card 'c'",))
    back_slip = pickle.loads(pickle.dumps(slip))
    assert (back_slip.message, back_slip.code, back_slip.path, back_slip.line, back_slip.column, back_slip.what,
            back_slip.context) == ("cannot pay 3", "overdraft", "g.yaml", 9, 2, "actions.buy", ("card 'c'",))
    assert str(back_slip) == str(slip)


@pytest.mark.parametrize(("seconds", "says"), [(0.0, "Time: 0.0 s (too quick to time)"),
                                                (2.0, "Time: 2.0 s (5.0 games/s)"),
                                                (400.0, "Time: 400.0 s (40 s/game)")])
def test_the_summary_gives_a_rate_only_for_a_run_long_enough_to_time(seconds: float, says: str) -> None:
    summary = simulate(SimulationSpec(TTT, (), (), 2, ("random", "random")), games=10, seed=1, workers=1)
    summary["seconds"] = seconds
    assert says in render_summary(summary, "tic-tac-toe")
