"""The measured loops and state costs, written against the OpenSpiel-like API only.

Nothing here imports orrery: the same code measures today's engine in the bench's own
process, the 0.1 engine in a worker process (bench_worker.py, whose `interpreter` is
the old one) and OpenSpiel's games, so every engine is timed by the same loop.
"""

from __future__ import annotations

import gc
import random
import sys
import time
import timeit
import tracemalloc
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MAX_DECISIONS = 100_000  # a playout longer than this is cut short and reported
BASE_SEED = 20240601
GROWTH_MOVES = (10, 500)  # where "state cost by move" looks: early, and deep into a long game

# What the loops time by. "cpu" (default): this process's CPU time, so time the machine
# gives to other processes is not counted (a shared machine's load barely moves the
# rates); "wall": elapsed time.
CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
clock: Callable[[], float] = time.process_time


def set_clock(name: str) -> None:
    global clock
    clock = CLOCKS[name]


@dataclass
class Counts:
    """What one run of a playout loop did."""

    playouts: int = 0
    decisions: int = 0
    chance: int = 0
    truncated: int = 0
    seconds: float = 0.0
    best_playouts_per_s: float = 0.0  # the fastest slice: the least disturbed by other load
    best_decisions_per_s: float = 0.0
    slices: list[float] = field(default_factory=list)  # decisions/s of each slice

    def add(self, other: Counts) -> None:
        self.playouts += other.playouts
        self.decisions += other.decisions
        self.chance += other.chance
        self.truncated += other.truncated
        self.seconds += other.seconds
        if other.seconds > 0:
            self.best_playouts_per_s = max(self.best_playouts_per_s, other.playouts / other.seconds)
            self.best_decisions_per_s = max(self.best_decisions_per_s, other.decisions / other.seconds)
            self.slices.append(other.decisions / other.seconds)

    def to_json(self) -> dict[str, Any]:
        return {"playouts": self.playouts, "decisions": self.decisions, "chance": self.chance,
                "truncated": self.truncated, "seconds": self.seconds}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Counts:
        return Counts(data["playouts"], data["decisions"], data["chance"], data["truncated"], data["seconds"])


Loop = Callable[[float], Counts]


class OrreryLoop:
    """Random playouts of an orrery game (either engine); successive calls continue one
    seeded sequence, so two engines given the same seed play the same games."""

    def __init__(self, game: Any, players: int | None, seed: int = BASE_SEED):
        self.game, self.players, self.rng = game, players, random.Random(seed)

    def __call__(self, seconds: float) -> Counts:
        rng = self.rng
        choice = rng.choice
        getrandbits = rng.getrandbits
        new_state = self.game.new_initial_state
        players = self.players
        now_ = clock
        playouts = decisions = truncated = 0
        start = now_()
        deadline = start + seconds
        while True:
            state = new_state(num_players=players, seed=getrandbits(32))
            steps = 0
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                steps += 1
                if steps >= MAX_DECISIONS:
                    truncated += 1
                    break
            playouts += 1
            decisions += steps
            now = now_()
            if now >= deadline:
                return Counts(playouts, decisions, 0, truncated, now - start)


class OpenSpielLoop:
    """The same loop over an OpenSpiel game; chance nodes are sampled from chance_outcomes()
    and counted apart from decisions."""

    def __init__(self, game: Any, seed: int = BASE_SEED):
        self.game, self.rng = game, random.Random(seed)

    def __call__(self, seconds: float) -> Counts:
        rng = self.rng
        choice = rng.choice
        choices = rng.choices
        new_state = self.game.new_initial_state
        now_ = clock
        playouts = decisions = chance = truncated = 0
        start = now_()
        deadline = start + seconds
        while True:
            state = new_state()
            steps = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(choices([o[0] for o in outcomes], [o[1] for o in outcomes])[0])
                    chance += 1
                    continue
                state.apply_action(choice(state.legal_actions()))
                steps += 1
                if steps >= MAX_DECISIONS:
                    truncated += 1
                    break
            playouts += 1
            decisions += steps
            now = now_()
            if now >= deadline:
                return Counts(playouts, decisions, chance, truncated, now - start)


def measure(loops: list[Loop], seconds: float, rounds: int) -> list[Counts]:
    """Run each loop for `seconds` in all, in `rounds` slices interleaved in ABBA order,
    so a drift in machine load touches every loop alike and the ratios stay fair."""
    totals = [Counts() for _ in loops]
    chunk = seconds / rounds
    for r in range(rounds):
        order = list(range(len(loops)))
        if r % 2:
            order.reverse()
        for i in order:
            gc.collect()
            totals[i].add(loops[i](chunk))
    return totals


# ---- states deep into a game --------------------------------------------------------------


def play_to(make: Callable[[], Any], target: int, seed: int = BASE_SEED) -> tuple[Any, int]:
    """A state `target` decisions into a random game (or its last state before the end,
    if it ends sooner), chance nodes sampled as they come: (state, decisions made)."""
    rng = random.Random(seed + 1)
    state = make()
    done = 0
    while done < target and not state.is_terminal():
        after = state.clone()
        is_chance = getattr(state, "is_chance_node", None)
        chance = is_chance is not None and is_chance()
        if chance:
            outcomes = state.chance_outcomes()
            after.apply_action(rng.choices([o[0] for o in outcomes], [o[1] for o in outcomes])[0])
        else:
            after.apply_action(rng.choice(state.legal_actions()))
        if after.is_terminal():
            break
        state = after
        done += 0 if chance else 1
    return state, done


def long_game_state(make: Callable[[int], Any], target: int, tries: int = 20) -> tuple[Any, int]:
    """A state `target` decisions deep: the first of `tries` seeds whose game lasts that
    long, else the deepest one found. `make(seed)` is a new state."""
    best: tuple[Any, int] | None = None
    for k in range(tries):
        state, done = play_to(lambda k=k: make(BASE_SEED + k), target, BASE_SEED + k)
        if done >= target:
            return state, done
        if best is None or done > best[1]:
            best = state, done
    assert best is not None
    return best


def clones_for(state: Any, seconds: float) -> tuple[int, float]:
    """clone() the state repeatedly for `seconds`: (clones, elapsed)."""
    clone = state.clone
    now_ = clock
    count = 0
    start = now_()
    deadline = start + seconds
    while True:
        for _ in range(100):
            clone()
        count += 100
        now = now_()
        if now >= deadline:
            return count, now - start


def best_microseconds(fn: Callable[[], Any], budget: float = 0.1) -> float:
    """The fastest of 10 timed batches of `fn()` filling about `budget` seconds, in
    microseconds per call (the fastest batch is the least disturbed)."""
    timer = timeit.Timer(fn, timer=clock)
    per = max(timer.timeit(number=10) / 10, 1e-9)
    batch = max(1, int(budget / 10 / per))
    return min(timer.repeat(repeat=10, number=batch)) / batch * 1e6


# ---- memory --------------------------------------------------------------------------------

_OPAQUE = (types.ModuleType, type, types.FunctionType, types.CodeType, types.BuiltinFunctionType)


def _reachable(roots: list[Any], stop: set[int]) -> dict[int, Any]:
    """Objects reachable from `roots` through gc referents, not entering `stop` ids nor
    modules, classes, functions and code (program, not data)."""
    seen: dict[int, Any] = {}
    todo = list(roots)
    while todo:
        obj = todo.pop()
        key = id(obj)
        if key in seen or key in stop:
            continue
        seen[key] = obj
        if isinstance(obj, _OPAQUE) and not isinstance(obj, types.BuiltinMethodType):
            continue
        todo.extend(gc.get_referents(obj))
    return seen


def state_bytes(state: Any, game: Any, other: Any) -> int:
    """Bytes of the objects only `state` holds: reachable from it (sys.getsizeof summed
    over the gc referents walk), less those reachable from its game or from `other`, an
    independent state of the same game (what states share: rules, layouts, constants)."""
    shared = _reachable([game, other], set())
    own = _reachable([state], set(shared))
    return sum(sys.getsizeof(obj) for obj in own.values())


def clone_bytes(state: Any, count: int = 200) -> float:
    """Bytes a clone allocates, by tracemalloc: `count` clones kept alive, divided."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        keep = [state.clone() for _ in range(count)]
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del keep
    return (after - before) / count


def state_costs(game: Any, players: int | None, mean_length: float, clone_seconds: float) -> dict[str, Any]:
    """Clone rate, own bytes and clone bytes of a state about halfway through a game."""
    def make() -> Any:
        return game.new_initial_state(num_players=players, seed=BASE_SEED)
    state, at = play_to(make, max(0, int(mean_length // 2)))
    other = game.new_initial_state(num_players=players, seed=BASE_SEED + 99)
    gc.collect()
    clones, took = clones_for(state, clone_seconds)
    return {"clone_at_decision": at, "clones": clones, "clone_seconds": took, "clones_per_s": clones / took,
            "state_bytes": state_bytes(state, game, other), "clone_bytes": clone_bytes(state)}


def growth_costs(game: Any, players: int | None, moves: tuple[int, ...] = GROWTH_MOVES,
                 budget: float = 0.1) -> list[dict[str, Any]]:
    """Clone and save time and own bytes of a state at each of `moves` decisions into a
    long random game: what grows with the game's past shows here."""
    def make(seed: int) -> Any:
        return game.new_initial_state(num_players=players, seed=seed)
    other = make(BASE_SEED + 99)
    out = []
    for target in moves:
        state, at = long_game_state(make, target)
        own = state_bytes(state, game, other)  # before any save: what a state holds as played
        out.append({
            "target": target, "at": at,
            "clone_us": best_microseconds(state.clone, budget),
            "to_json_us": best_microseconds(state.to_json, budget),
            "save_bytes": len(state.to_json()),
            "state_bytes": own,
        })
    return out

