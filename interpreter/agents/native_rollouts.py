"""Search rollouts on the native backend: the same rollouts, in C.

A rollout starts from a world the search made (a state sampled at the decision, then
the tree's moves). The native module cannot be handed a Python state's place in the
flow, but it can reach it: it replays the game from its seed with the decisions that
led to the searched state (their index in each listing, worked out once per decision
by replaying the history in Python), takes over the sampled world's data (counters,
zones, cards, the rules' generator) at the decision the search stands at, replays
the tree's moves, then plays on with the search's own `random.Random` (its state
passed in and handed back), every seat picking as `_rollout` would. So the values and
the generator afterwards are the Python rollout's, and a search decides the same with
or without it (tests/test_native.py).

Used when the rollout policy is `random`, with no depth or horizon cap, no
simultaneous step, no game bot seated, seeded chance, and the game native here
(ORRERY_NATIVE=off turns it off). A rollout the module cannot finish is done in Python.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import TYPE_CHECKING, Any

from interpreter.native.status import native_mode, native_status
from interpreter.runtime.records import PendingActions

if TYPE_CHECKING:
    from interpreter.runtime.state import State

MAX_ROLLOUT_ACTIONS = 10_000_000  # (the Python rollout has no cap: only an endless game reaches this)
_SEED_MASK = (1 << 64) - 1


class NativeRollouts:
    """Rollouts for the decisions of one search step."""

    def __init__(self, module: ModuleType, seed: int, prefix: list[int]):
        self.module, self.seed, self.prefix = module, seed & _SEED_MASK, prefix
        self.path: list[int] = []
        self.ready = False

    @classmethod
    def for_root(cls, state: State, rollout: str, depth: int, horizon: int) -> NativeRollouts | None:
        gd = state.gd
        if rollout != "random" or depth or horizon or state.explicit or gd.facts.uses_simultaneous \
                or any(bot is not None for bot in state.seat_bots) or native_mode() == "off" \
                or not isinstance(state.pending, PendingActions):  # (the data is taken over at a `take actions`)
            return None
        status = native_status(state.game, state.n)
        if status.module is None:
            return None
        prefix = _prefix(state)
        return None if prefix is None else cls(status.module, state.seed, prefix)

    def begin(self, world: State) -> None:
        """A sampled world at the decision: its data, for the rollouts to take over."""
        self.ready = not world.grants and bool(  # (the struct takes no grants over: Python rolls those out)
            self.module.set_root(world.counters, world.zones, world.loc, world.card_def, world.rng, world.attrs))
        self.path = []

    def moved(self, index: int) -> None:
        """The tree's move in this world: the index of the action in its listing."""
        self.path.append(index)

    def rollout(self, rng: random.Random) -> tuple[list[float], list[float]] | None:
        """(returns, scores) of the finished game, `rng` advanced as the Python rollout
        would have; None (rng untouched) where the Python path must roll out."""
        if not self.ready:
            return None
        version, words, gauss = rng.getstate()
        out: Any = self.module.rollout(self.seed, self.prefix + self.path, len(self.prefix), words,
                                       MAX_ROLLOUT_ACTIONS)
        if out is None:
            return None
        returns, scores, after = out
        rng.setstate((version, after, gauss))
        return list(returns), list(scores)


def _prefix(state: State) -> list[int] | None:
    """The index of each decision of the state's history in its listing, found by
    replaying the history from the seed (None when the history does not replay so)."""
    game: Any = state.game  # (the Game that made the state: the runtime knows it as its Rules only)
    replay = game.new_initial_state(state.n, state.seed, list(state.seat_specs))
    found = []
    for text in state.history:
        if replay.terminal:
            return None
        legal = replay.legal_actions()
        index = next((i for i, action in enumerate(legal) if action.text == text), None)
        if index is None:
            return None
        found.append(index)
        replay.apply_action(legal[index])
    return found
