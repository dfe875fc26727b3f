"""Where things sit in a state for a number of players: zone slots, and the components
placed before setup. Both are the same for every game of one player count, so the
Game builds them once per count and every new state copies them.
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.diagnostics import RuleRuntimeError
from interpreter.model import GameDef


class SeatIndex(dict[Any, int]):
    """The seats of a game, each mapped to itself; anything else (-1, a seat too high,
    none, a card) is refused with a rule error. Generated code checks a player value
    with one look-up, `st.layout.seat[p]`, instead of a call: slots are computed from
    the seat number, so an unchecked -1 would silently read another player's data."""

    def __init__(self, n: int):
        super().__init__((p, p) for p in range(n))
        self.n = n

    def __missing__(self, p: Any) -> int:
        raise RuleRuntimeError(f"there is no player {p!r} (players are 0 to {self.n - 1})")


@attrs.frozen
class Layout:
    """Where each zone's lists sit in `State.zones` for a number of players (derived)."""

    zbase: tuple[int, ...]  # zone index -> first slot
    zowner: tuple[int, ...]  # slot -> owner seat, -1 when shared
    zdef: tuple[int, ...]  # slot -> zone index
    slots: int
    seat: SeatIndex
    # slot -> bit mask of the seats that see which cards it holds (bit p: seat p), and
    # whether some slot is hidden from some seat (cards.py then follows who knows what)
    seers: tuple[int, ...] = ()
    hides: bool = False

    @classmethod
    def build(cls, gd: GameDef, n: int) -> Layout:
        zbase: list[int] = []
        zowner: list[int] = []
        zdef: list[int] = []
        for zone in gd.zones:
            zbase.append(len(zowner))
            owners = range(n) if zone.scope == "player" else [-1]
            for owner in owners:
                zowner.append(owner)
                zdef.append(zone.index)
        everyone = (1 << n) - 1
        seers = tuple(everyone if gd.zones[z].visible == "all" else
                      1 << owner if gd.zones[z].visible == "owner" and owner >= 0 else 0
                      for z, owner in zip(zdef, zowner, strict=True))
        return cls(tuple(zbase), tuple(zowner), tuple(zdef), len(zowner), SeatIndex(n), seers,
                   any(mask != everyone for mask in seers))


@attrs.frozen
class StartTemplate:
    """Counters at their initial values and the cards of `in:` placed, before setup.
    `players` is shared by the states made from it (no state changes it)."""

    counters: list[list[int]]
    zones: list[list[int]]
    card_def: list[int]
    loc: list[int]
    players: list[int] = attrs.field(factory=list)


def start_template(gd: GameDef, layout: Layout, num_players: int) -> StartTemplate:
    """The components of a game of `num_players` before setup runs: each card's
    `count` copies in its `in` zone (in each player's, for a zone per player)."""
    counters = [list(cdef.initial) * (num_players if cdef.scope == "player" else 1) for cdef in gd.counters]
    zones: list[list[int]] = [[] for _ in range(layout.slots)]
    card_def: list[int] = []
    loc: list[int] = []
    for card in gd.cards:
        if card.zone is not None and card.count:
            base = layout.zbase[card.zone]
            for slot in range(base, base + (num_players if gd.zones[card.zone].scope == "player" else 1)):
                for _ in range(card.count):
                    iid = len(card_def)
                    card_def.append(card.index)
                    loc.append(slot)
                    zones[slot].append(iid)
    return StartTemplate(counters, zones, card_def, loc, list(range(num_players)))
