"""Per-step states on the native backend (`Game.new_initial_state(..., native=...)`):
whether this game, player count and seating can be played a decision at a time in C,
and the NativeState if so (native/native_state.py).

A seat played by a game bot plays inside the state, as on the Python path; every other
seat is played from outside (the caller answers each of its decisions), so only the bots
decide whether the seating runs natively. The mode is that of `Game.playouts`: `auto`
(native when it can be, else the Python state), `on` (native or a GameError saying why
not), `off`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.native.native_state import NativeState, new_native_state
from interpreter.native.seat_policies import seat_policies
from interpreter.native.status import native_mode, native_status

if TYPE_CHECKING:
    from interpreter.game.factory import Game


def native_state(game: Game, n: int, seed: int, seats: list[Any], chance: str, mode: str | None) -> NativeState | None:
    """The game's NativeState, or None for the Python state (mode `on`: a GameError
    saying why it cannot be native)."""
    mode = native_mode(mode)
    if mode == "off":
        return None
    plans: dict[Any, _Plan | str] = game.__dict__.setdefault("_native_plans", {})
    key = (n, tuple(str(s) for s in seats), chance)
    plan = plans.get(key)
    if plan is None:
        plan = plans[key] = _plan(game, n, seats, chance)
    if isinstance(plan, str):
        if mode == "on":
            raise GameError(f"no native states for {game.id}: {plan}")
        return None
    found: NativeState = new_native_state(plan.module, game, n, seed, seats, plan.policies)
    return found


@attrs.frozen
class _Plan:
    """How states of one player count and seating are made natively."""

    module: Any
    policies: tuple[list[int], list[int], list[int]]


def _plan(game: Game, n: int, seats: list[Any], chance: str) -> _Plan | str:
    """The plan, or why there is none."""
    if chance != "seeded":
        return "explicit chance is played in Python"
    status = native_status(game, n, step=True)
    if status.module is None:
        return status.reason
    policies = seat_policies(game._seating(n, seats), status.module, outside=True)
    if isinstance(policies, str):
        return policies
    return _Plan(status.module, policies)
