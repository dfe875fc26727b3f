"""Determinizations: a state one seat could not tell apart from the true one.

Searching agents for games with hidden information (and conformance tests) need worlds
consistent with what a seat has seen, built from declared visibility only:
* every card in a place the seat may not see into (a zone hidden from it, and not
  revealed) is dealt again among those places, each place keeping its count, and
  only among cards of its own `type` (a card's back shows its kind: a card of one
  type is never dealt into a pile of another type);
* the order of a zone the seat sees but whose order is hidden is shuffled;
* the state's random generator is reseeded, so future chance is unknown too.
In a simultaneous step, the picks other seats have made already are forgotten: in the
copy they have still to pick. Cards that a running effect or a pending choice refers to stay where they are, so the
copy is still a state the rules could reach.

The deal depends only on the set of cards in hidden places (sorted by copy before the
shuffle), never on where they truly are: two states the seat cannot tell apart give
the same worlds for the same generator. Counters hidden from the seat keep their
values (nothing declares how they could have been reached); a game that hides counters
gives a searching agent that knowledge.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from interpreter.runtime.observation import _may_see
from interpreter.runtime.records import TURN, PendingSimultaneous

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def pinned_cards(st: State) -> set[int]:
    """Card copies a running effect or a pending choice may refer to: any number in
    a card's range held by a name of the rules (values carry no type, so a player
    number counts too: pinning too much keeps the world reachable, never wrong)."""
    pinned: set[int] = set()
    count = len(st.card_def)

    def visit(value: object) -> None:
        if type(value) is int and 0 <= value < count:
            pinned.add(value)
        elif isinstance(value, list | tuple):
            for item in value:
                visit(item)
        elif isinstance(value, dict):
            for item in value.values():
                visit(item)

    for frame in [*st.stack, *st.queue]:
        for name, value in frame.env.items():
            if not name.startswith("#"):  # the flow's own bookkeeping (counters, markers)
                visit(value)
    if st.pending is not None:
        visit(getattr(st.pending, "options", []))
    return pinned


def hidden_slots(st: State, player: int) -> list[int]:
    """The zone slots `player` may not see into."""
    layout, zones = st.layout, st.gd.zones
    return [slot for slot in range(layout.slots)
            if not _may_see(zones[layout.zdef[slot]].visible, layout.zowner[slot], player)]


def redeal(st: State, player: int, rng: random.Random) -> State:
    """A copy of `st` whose cards hidden from `player` are dealt again (same generator
    state as `st`: see `determinize` for one with unknown future chance too)."""
    copy = st.clone()
    layout, gd = copy.layout, copy.gd
    pinned = pinned_cards(copy)
    hidden = hidden_slots(copy, player)
    places = [(slot, i) for slot in hidden for i, iid in enumerate(copy.zones[slot])
              if iid not in copy.revealed and iid not in pinned]
    kinds: dict[str, list[tuple[int, int]]] = {}
    for slot, i in places:
        kinds.setdefault(gd.cards[copy.card_def[copy.zones[slot][i]]].type, []).append((slot, i))
    for kind in sorted(kinds):
        where = kinds[kind]
        pool = sorted(copy.zones[slot][i] for slot, i in where)  # not the true order: no peeking
        rng.shuffle(pool)
        for (slot, i), iid in zip(where, pool, strict=True):
            copy.zones[slot][i] = iid
            copy.loc[iid] = slot
    hidden_set = set(hidden)
    for slot in range(layout.slots):
        if slot in hidden_set or gd.zones[layout.zdef[slot]].order_visible:
            continue
        cards = copy.zones[slot]
        free = [i for i, iid in enumerate(cards) if iid not in pinned]
        if len(free) > 1:
            moved = sorted(cards[i] for i in free)
            rng.shuffle(moved)
            for i, iid in zip(free, moved, strict=True):
                cards[i] = iid
    forget_sealed_picks(copy, player)
    copy.legal_cache = None
    return copy


def forget_sealed_picks(copy: State, player: int) -> None:
    """In a simultaneous step, the picks other seats made already are secret: the copy
    has them still to pick (a game bot's own `turn` stays, it is no secret)."""
    pending = copy.pending
    if not isinstance(pending, PendingSimultaneous):
        return
    chosen = [c if p == player or c is None or c == TURN else None
              for p, c in zip(pending.players, pending.chosen, strict=True)]
    waiting = [p for p, c in zip(pending.players, chosen, strict=True) if c is None]
    copy.pending = PendingSimultaneous(waiting[0] if waiting else -1, pending.group, pending.done_key,
                                       list(pending.players), chosen)
    copy.legal_cache = None


def determinize(st: State, player: int, rng: random.Random) -> State:
    """A world `player` cannot tell from `st`: hidden cards dealt again and the
    generator reseeded from `rng`."""
    copy = redeal(st, player, rng)
    copy.rng = rng.getrandbits(64)
    return copy
