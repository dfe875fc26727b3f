"""Cards and zones: moving, removing and creating card copies, and who holds a card.

A card copy is an index (`iid`) into `state.card_def` (its definition) and
`state.loc` (the zone slot it is in, -1 when out of the game); a zone slot is a list
of iids, bottom first. Moving a card fires `left` and `entered` for games that listen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_CARDS
from interpreter.runtime.chance import leave_run
from interpreter.runtime.events import fire

if TYPE_CHECKING:
    from interpreter.runtime.state import State

MAX_CREATE = 10_000  # copies made by one statement (one operation: outside the step budget)


def place_card(st: State, iid: int, slot: int, top: bool = True) -> None:
    """Move one card into a zone slot (top = end of the list)."""
    old = st.loc[iid]
    if old >= 0:
        st.zones[old].remove(iid)
        if st.unordered and old in st.unordered:  # explicit chance: taken out of a shuffled zone
            leave_run(st, old, iid)
    if top:
        st.zones[slot].append(iid)
    else:
        st.zones[slot].insert(0, iid)
    st.loc[iid] = slot
    if st.revealed and iid in st.revealed:
        st.revealed.discard(iid)
    if st.shown and iid in st.shown:
        del st.shown[iid]
    listens = st.gd_listens
    if listens:
        layout = st.layout
        if old >= 0 and ("left", layout.zdef[old]) in listens:
            fire(st, "left", layout.zdef[old], {"card": iid, "player": layout.zowner[old]})
        if ("entered", layout.zdef[slot]) in listens:
            fire(st, "entered", layout.zdef[slot], {"card": iid, "player": layout.zowner[slot]})


def remove_card(st: State, iid: int) -> None:
    """Take a card out of the game."""
    old = st.loc[iid]
    if old < 0:
        return
    st.zones[old].remove(iid)
    if st.unordered and old in st.unordered:
        leave_run(st, old, iid)
    st.loc[iid] = -1
    st.revealed.discard(iid)
    st.shown.pop(iid, None)
    if st.gd_listens and ("left", st.layout.zdef[old]) in st.gd_listens:
        fire(st, "left", st.layout.zdef[old], {"card": iid, "player": st.layout.zowner[old]})


def create_cards(st: State, def_index: int, count: int, slot: int) -> None:
    if type(count) is not int or count < 0:
        raise RuleRuntimeError(f"cannot create {count!r} cards (a whole number, 0 or more)", code="bad-value")
    if count > MAX_CREATE:
        raise RuleRuntimeError(f"cannot create {count} cards at once (at most {MAX_CREATE})", code="limit")
    if len(st.card_def) + count > MAX_CARDS:
        raise RuleRuntimeError(f"cannot create {count} more cards: a game holds at most {MAX_CARDS:,} cards in all",
                               code="limit")
    for _ in range(count):
        iid = len(st.card_def)
        st.card_def.append(def_index)
        st.loc.append(-1)
        place_card(st, iid, slot)


def as_cards(value: Any) -> list[int]:
    """A card, a list of cards or none, as a list (a fresh one: zones change under us)."""
    if value is None:
        return []
    if isinstance(value, list):
        return [v for v in value if v is not None]
    return [value]


def card_owners(st: State, def_index: int) -> dict[int, int]:
    """Players who hold a copy of the card in one of its active zones -> that copy. A
    copy in a shared zone (a face-up card on the table) works for every player."""
    card = st.gd.cards[def_index]
    layout = st.layout
    owners: dict[int, int] = {}
    for zi in card.active_in:
        base = layout.zbase[zi]
        count = st.n if st.gd.zones[zi].scope == "player" else 1
        for slot in range(base, base + count):
            for iid in st.zones[slot]:
                if st.card_def[iid] == def_index:
                    owner = layout.zowner[slot]
                    for p in (owner,) if owner >= 0 else range(st.n):
                        owners.setdefault(p, iid)
    return owners
