"""Whole games of `random` and `first` seats and game bots, many at once (`Game.playouts`): on
the native backend when the rules and the machine allow it, else on the Python path,
with the same outcomes either way.

Game i is seeded `seed + i` and its seats' generators from (that seed, seat), as
`orrery simulate` seeds them, so a playout here is the game `simulate` plays for that
seed. The native module reproduces the Python path bit for bit (the engine's splitmix64
for the rules' chance, CPython's Mersenne Twister for the seats' picks); a game the
native code cannot finish (a rule error, the action cap) is played again on the Python
path, which reports it as it always has.

The mode is `auto` (native when it can be built, else Python, and `native_status` says
why in one line), `on` (native or a GameError saying why not) or `off`; the
`ORRERY_NATIVE` environment variable sets the default.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import attrs

from interpreter.agents.builtin import agent_seed
from interpreter.agents.registry import create_agent
from interpreter.diagnostics import GameError
from interpreter.native.seat_policies import seat_policies
from interpreter.native.status import MODES, NativeStatus, native_mode, native_status

__all__ = ["MAX_ACTIONS", "MODES", "NativeStatus", "Playout", "native_mode", "native_rows", "native_status",
           "playouts", "python_playout", "uses_native"]

if TYPE_CHECKING:
    from interpreter.game.factory import Game

MAX_ACTIONS = 10_000  # (play/runner.py's cap: a game that has not ended by then is an error)
_SEED_MASK = (1 << 64) - 1


class Playout(NamedTuple):
    """How one game went (or the error it raised). A named tuple, not an attrs class: a
    batch makes one per game, and a frozen attrs record cost a microsecond each, as
    much as a whole native game of Kuhn poker."""

    seed: int
    winners: tuple[int, ...] = ()
    returns: tuple[float, ...] = ()
    actions: int = 0
    rounds: int = 0
    turns: int = 0
    scores: tuple[float, ...] = ()
    reason: str = ""
    error: str | None = None


@attrs.frozen
class NativeSeating:
    """How the native module plays a seating: its module, and each seat's policy."""

    module: Any
    policies: list[int]
    turns: list[int]
    firsts: list[int]  # per seat: 1 when its game bot answers choices with the first option


def uses_native(game: Game, num_players: int, seats: Sequence[str], mode: str) -> NativeSeating | None:
    """The native module and seat policies to play these seats with, None for the
    Python path (with mode `on`, a GameError saying why native play is impossible)."""
    if mode == "off":
        return None
    status = native_status(game, num_players)
    if status.module is None:
        if mode == "on":
            raise GameError(f"no native backend for {game.id}: {status.reason}")
        return None
    seated = seat_policies(game._seating(num_players, list(seats)), status.module)
    if isinstance(seated, str):
        if mode == "on":
            raise GameError(f"no native playouts for these seats: {seated} (use --native auto)")
        return None
    return NativeSeating(status.module, *seated)


def playouts(game: Game, count: int, seed: int = 0, seats: Sequence[str] | None = None,
             num_players: int | None = None, max_actions: int = MAX_ACTIONS,
             native: str | None = None) -> list[Playout]:
    """`count` games seeded seed, seed+1, ...: see the module's docstring."""
    gd = game.definition
    n = num_players if num_players is not None else (len(seats) if seats else gd.default_players)
    if type(n) is not int or not gd.min_players <= n <= gd.max_players:
        raise GameError(f"{gd.name} is for {gd.min_players}-{gd.max_players} players, not {n!r}")
    seats = list(seats) if seats else ["random"] * n
    if len(seats) != n:
        raise GameError(f"{len(seats)} seats given for {n} players")
    if count < 0:
        raise GameError(f"the number of games must be 0 or more, not {count}")
    rows = native_rows(game, n, seats, seed, count, max_actions, native_mode(native))
    if rows is None:
        return [python_playout(game, n, s, seats, max_actions) for s in range(seed, seed + count)]
    return [python_playout(game, n, s, seats, max_actions) if row is None else _record(Playout, (s, *row, None))
            for s, row in zip(range(seed, seed + count), rows, strict=True)]


_record = tuple.__new__  # a Playout from its fields' tuple, without a Python call per game


def native_rows(game: Game, n: int, seats: Sequence[str], seed: int, count: int, max_actions: int,
                mode: str) -> list[tuple[Any, ...] | None] | None:
    """Games seed..seed+count-1 played natively, each a tuple of Playout's fields after
    the seed, or None where the Python path must play it; None for them all when they
    do not run natively (mode `on`: a GameError instead)."""
    seated = uses_native(game, n, seats, mode)
    if seated is None:
        return None
    rows: list[tuple[Any, ...] | None]
    if 0 <= seed and seed + count < 1 << 63:  # the seats' seeds worked out in the module
        rows = seated.module.playouts_from(seed, count, max_actions, seated.policies, seated.turns, seated.firsts)
        return rows
    seeds = range(seed, seed + count)
    rows = seated.module.playouts([s & _SEED_MASK for s in seeds], [[agent_seed(s, p) for p in range(n)]
                                                                      for s in seeds], max_actions,
                                  seated.policies, seated.turns, seated.firsts)
    return rows


def python_playout(game: Game, n: int, seed: int, seats: Sequence[str], max_actions: int) -> Playout:
    """One game on the Python path, played as play/runner.py plays it for these seats."""
    try:
        state = played_state(game, n, seed, seats, max_actions)
    except GameError as err:
        return Playout(seed, error=str(err))
    result = state.result()
    return Playout(seed, tuple(result["winners"]), tuple(float(r) for r in result["returns"]), result["actions"],
                   result["rounds"], result["turns"], tuple(float(s) for s in state.scores()), str(result["reason"]))


def played_state(game: Game, n: int, seed: int, seats: Sequence[str], max_actions: int) -> Any:
    """The final state of the game seeded `seed` on the Python path (written here, not
    taken from play/runner.py, because the game layer sits below play/: agents that pick
    from the legal actions and listen to nothing need none of the runner's telling)."""
    state = game.new_initial_state(n, seed, list(seats))
    agents: dict[int, Any] = {p: create_agent(spec, game.definition, seed, p)
                              for p, spec in enumerate(state.seat_specs) if state.seat_bots[p] is None}
    while not state.is_terminal():
        if len(state.history) >= max_actions:
            raise GameError(f"the game did not end within {max_actions} actions (an endless game?)")
        waiting = state.players_to_act()
        if not waiting:
            raise GameError("the game waits for no one but is not over (a rule error in the flow?)")
        player = waiting[0]
        action = agents[player].step(state)
        if state.is_simultaneous_node():
            state.apply_action(action, player)
        else:
            state.apply_action(action)
    return state


def native_final_state(game: Game, n: int, seed: int, seats: Sequence[str],
                       max_actions: int = MAX_ACTIONS) -> dict[str, Any] | None:
    """What the native module's game seeded `seed` ends with (counters, zones, each
    card's definition, the rules' generator), or None: for comparing with
    `played_state` field by field (tests)."""
    seated = uses_native(game, n, seats, "on")
    assert seated is not None
    found: dict[str, Any] | None = seated.module.final_state(
        seed & _SEED_MASK, [agent_seed(seed, p) for p in range(n)], max_actions, seated.policies, seated.turns,
        seated.firsts)
    return found
