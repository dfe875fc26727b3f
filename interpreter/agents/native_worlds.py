"""Search worlds on native states: `mcts` walking its tree and rolling out in C.

The worlds `mcts` samples at a decision are copies of the searched state with a fresh
generator for the rules' chance. When the state's game has native states (docs/native.md)
the search makes a native state of the same game and history once per decision, and
each world is a clone of it (one memcpy): the tree's moves are applied in C, and a
random rollout to the end runs in C from the world as it stands (`Stepper._rollout`),
its picks drawn from the search's own `random.Random`, whose state goes in and comes
back. Legal actions are the Python state's Actions and the generators are the engine's,
so the search makes the same moves with the same trees as over Python worlds
(tests/test_native_state.py).

An `ismcts` world is resampled from the seat's information by the Python state, then
its data (counters, zones, cards, the rules' generator) is put in a clone of the root
(at a `take actions` decision, where the flow holds no card of its own).

A rollout by a game bot (`rollout=NAME`) seats that bot at every seat of the struct's
copy, as the Python rollout seats it: the decision the world stands at is picked at
random, the bot's turn effect takes the rest of that turn and every later one over
(or its `choose` rule, for a bot without one), all in C.

Used with `random` or game-bot rollouts the module plays, no depth or horizon cap, in
games without simultaneous steps, with seeded chance; ORRERY_NATIVE=off turns it off. A
rollout the module cannot finish is rolled out by the Python code on the world, which
hands itself to the Python state.
"""

from __future__ import annotations

import random
from typing import Any

import attrs

from interpreter.model.seats import SeatSpec, seating_of
from interpreter.native.seat_policies import Policies, seat_policies
from interpreter.native.status import native_mode, native_status
from interpreter.runtime.records import PendingActions
from interpreter.runtime.state import State

MAX_ROLLOUT_ACTIONS = 10_000_000  # (the Python rollout has no cap: only an endless game reaches this)


@attrs.frozen
class NativeRoot:
    """A decision's native state, the worlds' origin, and the policies its rollouts
    seat (None: every seat picks at random)."""

    state: Any
    policies: Policies | None


def native_root(state: State, rollout: str, depth: int, horizon: int, resampled: bool = False) -> NativeRoot | None:
    """A native state of `state`'s game and history, or None (the search's worlds are
    then Python states). `resampled`: the worlds are resampled from the seat's
    information (ismcts), so a world takes the sampled data over at the root, which it
    does at a `take actions` decision only (the flow's own values there are the turn's
    player and loop places, not cards). A rollout by a game bot is the bot seated at
    every seat, as the Python rollout seats it, where the module plays that bot."""
    if depth or horizon or state.explicit or state.gd.facts.uses_simultaneous \
            or native_mode() == "off" or (resampled and not isinstance(state.pending, PendingActions)):
        return None
    policies = None
    if rollout != "random":
        policies = _bot_policies(state, rollout)
        if policies is None:
            return None
    if not resampled and state.gd.facts.uses_chance:
        # (an `mcts` world is the root with a fresh generator: its chance differs from the
        # true game's, whose replay names the options a native state meets first)
        return None
    game: Any = state.game  # (the Game that made the state: the runtime knows it as its Rules only)
    root = game.new_initial_state(state.n, state.seed, list(state.seat_specs), native="auto")
    if type(root) is State:
        return None
    for text in state.history:
        root.apply_action(text)
        if not root.native:
            return None
    if [a.text for a in root.legal_actions()] != [a.text for a in state.legal_actions()]:
        return None  # (a state changed by hand since its history: searched in Python)
    return NativeRoot(root, policies)


def _bot_policies(state: State, rollout: str) -> Policies | None:
    """The native policies of the game bot `rollout` at every seat, or None where its
    rollouts stay Python (`first`, a bot the module does not play)."""
    if rollout not in state.gd.bots:
        return None
    game: Any = state.game
    status = native_status(game, state.n, step=True)
    if status.module is None:
        return None
    policies = seat_policies(seating_of([SeatSpec(rollout)] * state.n, state.gd.bots), status.module)
    return None if isinstance(policies, str) else policies


def native_world(root: NativeRoot, sampled: State) -> Any:
    """A clone of the native `root` holding the data of `sampled`, a world resampled at
    the same decision (its counters, zones, cards and the rules' generator); `sampled`
    itself where the struct cannot hold it."""
    world = root.state.clone()
    if world.take_world(sampled):
        return world
    return sampled


def native_rollout(world: Any, root: NativeRoot, rng: random.Random) -> tuple[list[float], list[float]] | None:
    """(returns, scores) of a rollout of the native `world` to the end (by the root's
    policies), `rng` advanced as the Python rollout would have; None (rng untouched)
    where it cannot."""
    if type(world) is State or not world.native or world.terminal:
        return None
    version, words, gauss = rng.getstate()
    done = world._rollout(words, MAX_ROLLOUT_ACTIONS, root.policies)
    if done is None:
        return None
    returns, scores, after = done
    rng.setstate((version, after, gauss))
    return returns, scores
