"""What the rules show to some players only: cards revealed to chosen seats, and lines
of text only those seats read.

`reveal CARDS to PLAYERS` (a Priest looking at a hand) records, per card copy, the seats
that may now see it (`st.shown`, card -> bit mask of seats). Like a reveal to all, it
lasts until the card moves (cards.py forgets both when a card changes place), because a
card that moves into a hidden zone is no longer told apart from the others there.

`show "TEXT" to PLAYERS` (a Baron's comparison, a peek at a number) adds a `Note` to
`st.notes`: the rendered text and the seats that read it. The public log never holds
it; observation.py gives each player their own notes, so a bot, a learning
observation and the terminal see exactly what the rules showed that player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from interpreter.diagnostics import RuleRuntimeError

if TYPE_CHECKING:
    from interpreter.runtime.state import State


@attrs.frozen(slots=True)
class Note:
    """A line of text only some players read: `seats` is a bit mask (bit p: seat p)."""

    seats: int
    text: str

    def to_json(self) -> list[Any]:
        return [seats_of(self.seats), self.text]

    def read_by(self, player: int) -> bool:
        return player >= 0 and bool(self.seats >> player & 1)


def seats_of(mask: int) -> list[int]:
    return [p for p in range(mask.bit_length()) if mask >> p & 1]


def seat_mask(st: State, players: Any) -> int:
    """The bit mask of a player or a list of players, each checked to be a seat."""
    items = players if isinstance(players, list) else [players]
    mask = 0
    for p in items:
        if type(p) is not int or not 0 <= p < st.n:
            raise RuleRuntimeError(f"cannot show to {p!r}: not a player of this game (players are 0..{st.n - 1})")
        mask |= 1 << p
    return mask


def reveal_to(st: State, cards: list[int], players: Any) -> None:
    """`reveal CARDS to PLAYERS`: each card (in the game) becomes visible to those players."""
    mask = seat_mask(st, players)
    shown = st.shown
    for iid in cards:
        if st.loc[iid] >= 0:
            shown[iid] = shown.get(iid, 0) | mask


def show_to(st: State, text: str, players: Any) -> None:
    """`show "TEXT" to PLAYERS`: a note only those players read."""
    mask = seat_mask(st, players)
    if mask:
        st.notes.append(Note(mask, text))


def sees_shown(st: State, iid: int, player: int) -> bool:
    """Whether the rules revealed card `iid` to `player` (and it has not moved since)."""
    return player >= 0 and bool(st.shown.get(iid, 0) >> player & 1)


def notes_for(st: State, player: int) -> list[str]:
    """The texts shown to `player` so far, oldest first."""
    return [note.text for note in st.notes if note.read_by(player)]
