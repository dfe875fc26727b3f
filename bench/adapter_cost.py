"""What the OpenSpiel adapter costs on top of the engine, and CFR through it beside
OpenSpiel's own games. A benchmark script, not a test (nothing here is timed under
pytest); times are CPU time (`time.process_time`), as the machine may be shared.

1. Random playouts through the pyspiel state wrapper (`current_player`, `legal_actions`,
   `chance_outcomes`, `apply_action`, `is_terminal`, `returns`) beside the same
   playouts over the engine's public API (`State.current_player`, `legal_action_ids`,
   `chance_outcomes`, `apply_action_id`...): the wrapper's share on top.
2. Clones: `state.clone()` of the wrapper beside `State.clone()`.
3. CFR iterations (`open_spiel.python.algorithms.cfr`) on orrery's Kuhn poker beside
   OpenSpiel's pure-Python `python_kuhn_poker` (the same game tree), and on orrery's
   Leduc beside OpenSpiel's C++ `leduc_poker` (OpenSpiel has no pure-Python Leduc: the
   per-node figure compares it with the Python Kuhn's), then `exploitability` of each.

    python bench/adapter_cost.py                  # about a minute
    python bench/adapter_cost.py --seconds 1 --cfr 2
    python bench/adapter_cost.py --profile leduc  # cProfile of CFR through the adapter
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from interpreter import load_game, openspiel
from interpreter.adapters.openspiel import OrreryState

GAMES = [("kuhn-poker", {}), ("leduc-poker", {}), ("goofspiel", {"variants": ["four-cards"]})]


def paired(first: Callable[[], int], second: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Units of work per CPU second of each, measured in alternating slices (a shared
    machine slows both alike) until each has spent its budget."""
    done, spent = [0, 0], [0.0, 0.0]
    while min(spent) < seconds:
        for i, run in enumerate((first, second)):
            start = time.process_time()
            while time.process_time() - start < 0.05:
                done[i] += run()
            spent[i] += time.process_time() - start
    return done[0] / spent[0], done[1] / spent[1]


def wrapper_playout(game: Any, rng: random.Random) -> int:
    state, steps = game.new_initial_state(), 0
    while not state.is_terminal():
        player = state.current_player()
        if player == pyspiel.PlayerId.CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif player == pyspiel.PlayerId.SIMULTANEOUS:
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    state.returns()
    return steps


def engine_playout(rules: Any, n: int, seed: int, rng: random.Random) -> int:
    st, steps = rules.new_initial_state(n, seed=seed, chance="explicit"), 0
    space = rules.action_space(n)
    while not st.is_terminal():
        if st.is_chance_node():
            groups = space.chance_groups(st)
            odds = [p for _, p in st.chance_outcomes()]
            ids = list(groups)
            st.apply_action_id(rng.choices(ids, [sum(odds[i] for i in groups[a]) for a in ids])[0])
        elif st.is_simultaneous_node():
            st.apply_action_ids([rng.choice(st.legal_action_ids(p)) for p in range(n)])
        else:
            st.apply_action_id(rng.choice(st.legal_action_ids()))
        steps += 1
    st.returns()
    return steps


def playouts(seconds: float) -> None:
    print("1. random playouts, steps per CPU second (wrapper over the engine's public API)")
    for name, options in GAMES:
        game = openspiel.load(name, **options)
        rules = load_game(name, **options)
        n = game.num_players()
        rng_a, rng_b = random.Random(1), random.Random(1)
        seeds = iter(range(10**9))
        engine, wrapped = paired(lambda: engine_playout(rules, n, next(seeds), rng_a),  # noqa: B023
                                 lambda: wrapper_playout(game, rng_b), seconds)  # noqa: B023
        print(f"   {name:12} engine {engine:9.0f}  wrapper {wrapped:9.0f}  wrapper's share {engine / wrapped - 1:+.0%}")


def clones(seconds: float) -> None:
    print("2. clones per CPU second, mid-game")
    for name, options in GAMES:
        game = openspiel.load(name, **options)
        state = game.new_initial_state()
        rng = random.Random(3)
        for _ in range(3):
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            elif not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        core = state.core.state

        def engine_clone() -> int:
            for _ in range(100):
                core.clone()  # noqa: B023
            return 100

        def wrapper_clone() -> int:
            for _ in range(100):
                state.clone()  # noqa: B023
            return 100

        def pyspiel_state() -> int:  # what pyspiel itself costs each Python state it wraps
            for _ in range(100):
                pyspiel.State.__init__(OrreryState.__new__(OrreryState), game)  # noqa: B023
            return 100

        engine, wrapped = paired(engine_clone, wrapper_clone, seconds)
        made, _ = paired(pyspiel_state, engine_clone, seconds / 2)
        fixed = (1 / made) / (1 / engine)
        print(f"   {name:12} engine {engine:9.0f}  wrapper {wrapped:9.0f}  wrapper's share {engine / wrapped - 1:+.0%}"
              f" (pyspiel's own making of a state: {fixed:+.0%})")


def cfr_time(game: Any, iterations: int) -> tuple[float, float]:
    """CPU seconds per CFR iteration, and of exploitability once."""
    solver = cfr.CFRSolver(game)
    start = time.process_time()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    per_iteration = (time.process_time() - start) / iterations
    start = time.process_time()
    exploitability.exploitability(game, solver.average_policy())
    return per_iteration, time.process_time() - start


def nodes(game: Any) -> int:
    count, stack = 0, [game.new_initial_state()]
    while stack:
        state = stack.pop()
        count += 1
        if not state.is_terminal():
            stack.extend(state.child(a) for a in state.legal_actions())
    return count


def cfrs(iterations: int) -> None:
    print(f"3. CFR, CPU seconds per iteration ({iterations} iterations), and one exploitability")
    pairs = [("orrery kuhn-poker", openspiel.load("kuhn-poker"),
              "python_kuhn_poker", pyspiel.load_game("python_kuhn_poker")),
             ("orrery leduc-poker", openspiel.load("leduc-poker"),
              "leduc_poker (C++)", pyspiel.load_game("leduc_poker"))]
    python_kuhn = pyspiel.load_game("python_kuhn_poker")
    kuhn_per_node = cfr_time(python_kuhn, iterations)[0] / nodes(python_kuhn)
    for ours_name, ours, theirs_name, theirs in pairs:
        mine, theirs_t = cfr_time(ours, iterations), cfr_time(theirs, iterations)
        size = nodes(ours)
        print(f"   {ours_name:20} {mine[0]:.4f} s/it, exploitability {mine[1]:.3f} s ({size} nodes, "
              f"{mine[0] / size * 1e6:.1f} us/node)")
        print(f"   {theirs_name:20} {theirs_t[0]:.4f} s/it, exploitability {theirs_t[1]:.3f} s "
              f"-> ours {mine[0] / theirs_t[0]:.1f}x, exploitability {mine[1] / theirs_t[1]:.1f}x")
        print(f"   {'':20} per node beside python_kuhn_poker ({kuhn_per_node * 1e6:.1f} us/node): "
              f"{mine[0] / size / kuhn_per_node:.1f}x")


def profile(name: str, iterations: int) -> None:
    game = openspiel.load({"kuhn": "kuhn-poker", "leduc": "leduc-poker"}.get(name, name))
    solver = cfr.CFRSolver(game)
    profiler = cProfile.Profile(time.process_time)
    profiler.enable()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU budget of each playout or clone figure")
    parser.add_argument("--cfr", type=int, default=5, help="CFR iterations per game")
    parser.add_argument("--profile", help="profile CFR on this game through the adapter (kuhn, leduc)")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.cfr)
        return
    playouts(args.seconds)
    clones(args.seconds / 3)
    cfrs(args.cfr)


if __name__ == "__main__":
    main()
