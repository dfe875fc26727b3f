"""Taking back a slip (undo): which of a player's decisions may be taken back, and the
game rebuilt without the last one.

A player may take back their own decisions since the last point where they learned
something new or someone else acted: a decision may be taken back only if, while it
was carried out, no random number was drawn (a die, a shuffle), no card became visible
to the player that they could not see before (a card drawn), nothing was shown to them
alone (a note), no game bot decided and no new turn began; what the decision showed the
others of the player's own cards (a card paid face up) is the player's to take back, as
at a table; and only a run of such decisions at the end of
the game's history, all by the player asking, with that player to decide now. Taking
back reveals nothing: the game is rebuilt from its seed and the recorded actions but
the last (states are deterministic), so it is exactly the state before that decision.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from interpreter.diagnostics import GameError
from interpreter.game import Game
from interpreter.play.narrate import visible_cards
from interpreter.play.runner import replay_actions
from interpreter.runtime.state import State


@attrs.define
class Before:
    """What a decision is compared with, read just before it is carried out."""

    player: int
    rng: int
    turn: int
    seen: frozenset[str]  # the cards the player could see
    notes: int  # how many notes the rules had shown the player alone
    picks: int
    simultaneous: bool


def before_move(state: State, player: int) -> Before:
    """Read `state` just before `player`'s decision is applied."""
    obs = state.observation(player)
    return Before(player, state.rng, state.turn_no, frozenset(visible_cards(obs)), len(obs.get("notes") or ()),
                  len(state.picks or ()), state.is_simultaneous_node())


def may_take_back(before: Before, after: State) -> bool:
    """Whether the decision that led from `before` to `after` may be taken back: it told
    its player nothing new, drew no random number, and nobody else decided meanwhile."""
    if before.simultaneous or after.is_terminal() or after.rng != before.rng or after.turn_no != before.turn:
        return False
    if len(after.picks or ()) != before.picks:  # a game bot decided
        return False
    obs = after.observation(before.player)
    return len(obs.get("notes") or ()) == before.notes and visible_cards(obs) <= before.seen


def undo_count(players: Sequence[int], takeable: Sequence[bool], player: int) -> int:
    """How many decisions at the end of the history `player` may take back: the run of
    their own decisions, each takeable, that ends it."""
    count = 0
    for who, ok in zip(reversed(players), reversed(takeable), strict=True):
        if who != player or not ok:
            break
        count += 1
    return count


def rebuild(state: State, actions: Sequence[str]) -> State:
    """The game of `state` from its start with `actions` played (its history but the
    decisions taken back): the very state it was before them."""
    game = state.game
    if not isinstance(game, Game):
        raise GameError("this game cannot be rebuilt (no rules to replay it with)")
    fresh = game.new_initial_state(state.n, state.seed, list(state.seats))
    return replay_actions(fresh, actions)
