"""The showdown: which private cards the rules looked at to end the game.

A game's data says when hidden cards are laid down in two ways. `reveal` makes cards
public (they are in every observation, and shown as they lie). And the end itself:
when the rules that finish the game read the cards of a zone only its owner sees
(a poker-like game compares the hands when nobody folded), those cards decided the result
and are shown to everyone. A fold ends the game without reading the hands: nothing is
shown. Which zones were read is found by playing the game's last action again, from
the state before it (replayed from the seed and the history), with the owner-only
zones watched; anything that does not replay the same way shows nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, SupportsIndex

from interpreter.diagnostics import OrreryError
from interpreter.runtime.errors import RULE_SLIPS
from interpreter.runtime.state import State, new_state


class _Watched(list[int]):
    """A zone's cards that note when something looks at which cards they are (not at
    how many: a count of cards in a hand is public)."""

    def __init__(self, cards: list[int], seen: Callable[[], None]):
        super().__init__(cards)
        self._seen = seen

    def __iter__(self) -> Iterator[int]:
        self._seen()
        return super().__iter__()

    def __getitem__(self, index: Any) -> Any:
        self._seen()
        return super().__getitem__(index)

    def __contains__(self, item: object) -> bool:
        self._seen()
        return super().__contains__(item)

    def __reversed__(self) -> Iterator[int]:
        self._seen()
        return super().__reversed__()

    def index(self, value: int, start: SupportsIndex = 0, stop: SupportsIndex = 2 ** 63 - 1) -> int:
        self._seen()
        return super().index(value, start, stop)


def _noting(read: set[tuple[str, int]], key: tuple[str, int]) -> Callable[[], None]:
    return lambda: read.add(key)


def shown_at_end(state: State) -> set[tuple[str, int]]:
    """The (zone, player) pairs of owner-only zones whose cards the game's last action
    read while ending the game; empty when none, or when it cannot be told."""
    gd = state.gd
    private = [z for z in gd.zones if z.scope == "player" and z.visible == "owner"]
    if not state.is_terminal() or not private or not state.history:
        return set()
    try:
        before = new_state(state.game, state.n, state.seed, state.seating, state.chance_mode)
        for text in state.history[:-1]:
            before.apply_action(text)
        before.legal_actions()  # listed now, unwatched: what may be played is no showdown
        read: set[tuple[str, int]] = set()
        for zdef in private:
            for p in range(state.n):
                slot = before.layout.zbase[zdef.index] + p
                before.zones[slot] = _Watched(before.zones[slot], _noting(read, (zdef.name, p)))
        before.apply_action(state.history[-1])
    except (OrreryError, *RULE_SLIPS, RecursionError):
        return set()
    if not before.is_terminal() or before.winners != state.winners:
        return set()
    return read
