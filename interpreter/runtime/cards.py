"""Cards and zones: moving, removing and creating card copies, and who holds a card.

A card copy is an index (`iid`) into `state.card_def` (its definition) and
`state.loc` (the zone slot it is in, -1 when out of the game); a zone slot is a list
of iids, bottom first. Moving a card fires `left` and `entered` for games that listen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

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
    if st.layout.hides and old != slot:
        follow(st, iid, old, slot)
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


def move_zone(st: State, old: int, new: int, top: bool = True) -> None:
    """Move every card of zone slot `old` into `new`, bottom first (`move ZONE to
    ZONE`), as moving each in turn would; but a seat that knew a card there (saw the
    zone, or knew it was there) knows where it went, since all of them went there
    (moved one by one, each move would make it forget the others: `follow`)."""
    cards = list(st.zones[old])
    layout = st.layout
    if not layout.hides or old == new or not cards:
        for iid in cards:
            place_card(st, iid, new, top)
        return
    everyone = (1 << st.n) - 1
    known, revealed, shown = st.known, st.revealed, st.shown
    saw = [everyone if iid in revealed else layout.seers[old] | shown.get(iid, 0) | known.get(iid, 0)
           for iid in cards]
    for iid in cards:
        place_card(st, iid, new, top)
    unseen = everyone & ~layout.seers[new]
    for iid, seats in zip(cards, saw, strict=True):
        if st.loc[iid] != new:
            continue  # (moved on by nothing here: triggers run after the statement; a guard)
        keep = seats & unseen
        if keep:
            known[iid] = keep
        else:
            known.pop(iid, None)


def remove_card(st: State, iid: int) -> None:
    """Take a card out of the game."""
    old = st.loc[iid]
    if old < 0:
        return
    if st.layout.hides:
        follow(st, iid, old, -1)
    st.zones[old].remove(iid)
    if st.unordered and old in st.unordered:
        leave_run(st, old, iid)
    st.loc[iid] = -1
    st.revealed.discard(iid)
    st.shown.pop(iid, None)
    if st.gd_listens and ("left", st.layout.zdef[old]) in st.gd_listens:
        fire(st, "left", st.layout.zdef[old], {"card": iid, "player": st.layout.zowner[old]})


def follow(st: State, iid: int, old: int, new: int) -> None:
    """Who knows which card `iid` is once it moves from slot `old` to `new` (-1: none),
    for the seats that will not see it there (`st.known`). A seat that saw it leave
    (its place was open to them, or it was revealed to them) knows where it went. A
    seat that did not cannot tell which card left `old`: it forgets the card, and
    every card of `old` it knew of (one of them left, it cannot tell which).
    Resampling (resample.py) keeps the cards a seat knows where they are."""
    layout = st.layout
    everyone = (1 << st.n) - 1
    if old < 0:
        saw = 0  # a card made now: its maker's rule is public, its place may not be
    elif iid in st.revealed:
        saw = everyone
    else:
        saw = layout.seers[old] | st.shown.get(iid, 0)
    known = st.known
    if known and old >= 0 and saw != everyone:
        tells = saw
        if new >= 0 and layout.seers[new] & ~saw:
            tells |= _told_by_sight(st, iid, old, layout.seers[new] & ~saw)
        for other in st.zones[old]:
            if other in known:
                if known[other] & tells:
                    known[other] &= tells
                else:
                    del known[other]
    keep = saw & ~layout.seers[new] if new >= 0 else 0  # (a card out of the game: see resample.py)
    if keep:
        known[iid] = keep
    else:
        known.pop(iid, None)


def _told_by_sight(st: State, iid: int, old: int, seeing: int) -> int:
    """Of the seats `seeing` card `iid` arrive where it goes, those that can tell which
    card left zone slot `old` as far as the cards of `old` they know of go: they knew
    it was there, or they know no other card there of its definition (one that looks
    like it: then they could not tell that one stayed)."""
    known, card_def = st.known, st.card_def
    alike = 0
    kind = card_def[iid]
    for other in st.zones[old]:
        if other != iid and card_def[other] == kind:
            alike |= known.get(other, 0)
    return seeing & (known.get(iid, 0) | ~alike)


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
    return dict(holders(st, def_index))


def in_play(st: State, def_index: int) -> bool:
    """Whether a copy of the card is in one of its active zones: the question a card's
    modifier asks for every value read, answered by the card's few copies (most often
    none in play) rather than a walk of its zones."""
    index = _last[0]  # (_copy_index's test, written out: this is asked very often)
    if index is None or index.cards is not st.card_def or index.known != len(st.card_def) \
            or index.layout is not st.layout:
        index = _copy_index(st)
    slots = index.active[def_index]
    if slots:
        if index.private[def_index] and _watched(st, index.private[def_index]):
            return bool(_scan_owners(st, def_index))
        loc = st.loc
        for iid in index.copies[def_index]:
            if loc[iid] in slots:
                return True
    return False


def copies_in_zone(st: State, def_index: int, slot: int) -> list[int]:
    """The copies of card definition `def_index` in zone slot `slot`, in the zone's
    order (what `cards_named` gives for a zone): found from the definition's few
    copies and where each is (`st.loc`, kept with the zones) rather than by going
    through the zone, which for `cards_named(c.id, zone)` read for every card of the
    zone would be quadratic. A watched zone (play/showdown.py) is gone through, as its
    reads are what it notes; so is a zone asked for no definition (-1)."""
    zone = st.zones[slot]
    if type(zone) is not list or def_index < 0:
        card_def = st.card_def
        return [c for c in zone if card_def[c] == def_index]
    index = _last[0]  # (_copy_index's test, written out, as in in_play)
    if index is None or index.cards is not st.card_def or index.known != len(st.card_def) \
            or index.layout is not st.layout:
        index = _copy_index(st)
    copies = index.copies[def_index]
    loc = st.loc
    if len(copies) == 1:  # (most cards: one copy)
        return [copies[0]] if loc[copies[0]] == slot else []
    found = [iid for iid in copies if loc[iid] == slot]
    if len(found) > 1:
        found.sort(key=zone.index)
    return found


def holders(st: State, def_index: int) -> tuple[tuple[int, int], ...]:
    """(holder, copy) of each player holding a copy of the card in one of its active
    zones (`card_owners`, as pairs): what a generated value goes through for each of
    its card modifiers, most often of a card with no copy in play or one, so no dict
    is made for those answers, and the index is looked at without a call."""
    index = _last[0]  # (_copy_index's test, written out, as in in_play)
    if index is None or index.cards is not st.card_def or index.known != len(st.card_def) \
            or index.layout is not st.layout:
        index = _copy_index(st)
    slots = index.active[def_index]
    if not slots:
        return ()
    if index.private[def_index] and _watched(st, index.private[def_index]):
        return tuple(_scan_owners(st, def_index).items())
    loc = st.loc
    found = -1
    for iid in index.copies[def_index]:
        if loc[iid] in slots:
            if found >= 0:  # two copies in play: zone order decides, as the scan does
                return tuple(_scan_owners(st, def_index).items())
            found = iid
    if found < 0:
        return ()
    owner = st.layout.zowner[loc[found]]
    return ((owner, found),) if owner >= 0 else tuple((p, found) for p in range(st.n))


def live_cards(st: State, defs: tuple[int, ...]) -> frozenset[int]:
    """Those of `defs` in play (`in_play`): a value with many card modifiers asks once,
    then goes through the holders (`holders`) only of these."""
    index = _copy_index(st)
    active, copies, loc, private = index.active, index.copies, st.loc, index.private
    live = []
    for d in defs:  # (in_play's loop written out: a call per card costs more than its few copies)
        slots = active[d]
        if not slots:
            continue
        if private[d]:  # (a zone play/showdown.py watches is gone through: in_play's to decide)
            if in_play(st, d):
                live.append(d)
            continue
        for iid in copies[d]:
            if loc[iid] in slots:
                live.append(d)
                break
    return frozenset(live) if live else _NONE


_NONE: frozenset[int] = frozenset()


def _watched(st: State, slots: tuple[int, ...]) -> bool:
    """Whether one of these zone slots is watched (play/showdown.py puts a list that
    notes reads in owner-only zones, to tell which private cards the end looked at):
    then the zones are walked, as the rules' reads are what it watches."""
    zones = st.zones
    return any(type(zones[slot]) is not list for slot in slots)


def _scan_owners(st: State, def_index: int) -> dict[int, int]:
    """card_owners by going through the card's active zones in order (the definition)."""
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


@attrs.frozen
class CopyIndex:
    """Where to look for a card definition's copies in one state: `copies[d]`, the
    copies of definition d (in card order), and `active[d]`, the zone slots where its
    modifiers work (empty for most cards). Made for one `card_def` list (`cards`, by
    identity) when it held `known` cards: the list is only ever appended to, so the
    index stays right for its first `known` cards, and is extended when cards are created."""

    cards: list[int]
    known: int
    layout: Any
    copies: tuple[tuple[int, ...], ...]
    active: tuple[frozenset[int], ...]
    private: tuple[tuple[int, ...], ...]  # the active slots of zones only their owner sees


# The index of the state last asked (one entry: a playout asks of one state at a time;
# a tuple swapped whole, so threads at worst rebuild it).
_last: list[CopyIndex | None] = [None]
# Per start template (by identity, kept alive with it): the copies of its cards, so a
# new or cloned state whose cards begin as the template's needs no walk of its cards.
_by_template: dict[int, tuple[Any, CopyIndex]] = {}


def _copy_index(st: State) -> CopyIndex:
    index = _last[0]
    cards = st.card_def
    if index is not None and index.cards is cards and index.known == len(cards) and index.layout is st.layout:
        return index
    index = _build_index(st)
    _last[0] = index
    return index


def _build_index(st: State) -> CopyIndex:
    cards = st.card_def
    layout = st.layout
    old = _last[0]
    if old is not None and old.cards is cards and old.layout is layout and old.known < len(cards):
        base: CopyIndex | None = old  # cards were created since: extend
    else:
        base = _template_index(st)
        if base is not None and cards[:base.known] != base.cards[:base.known]:
            base = None  # a state whose cards do not begin as the template's (a save): walk them all
    if base is None:
        copies: list[list[int]] = [[] for _ in st.gd.cards]
        start = 0
        active, private = _active_slots(st)
    else:
        copies = [list(c) for c in base.copies]
        start = base.known
        active, private = base.active, base.private
    for iid in range(start, len(cards)):
        copies[cards[iid]].append(iid)
    return CopyIndex(cards, len(cards), layout, tuple(tuple(c) for c in copies), active, private)


def _template_index(st: State) -> CopyIndex | None:
    template = st.game.start_template(st.n)
    kept = _by_template.get(id(template))
    if kept is not None and kept[0] is template:
        return kept[1]
    cards = template.card_def
    copies: list[list[int]] = [[] for _ in st.gd.cards]
    for iid, d in enumerate(cards):
        copies[d].append(iid)
    index = CopyIndex(cards, len(cards), st.layout, tuple(tuple(c) for c in copies), *_active_slots(st))
    if len(_by_template) > 64:
        _by_template.clear()
    _by_template[id(template)] = (template, index)
    return index


def _active_slots(st: State) -> tuple[tuple[frozenset[int], ...], tuple[tuple[int, ...], ...]]:
    """Each card definition's active slots, and those of them only their owner sees."""
    layout = st.layout
    active, private = [], []
    for card in st.gd.cards:
        slots: set[int] = set()
        hidden: list[int] = []
        for zi in card.active_in:
            base = layout.zbase[zi]
            zone = st.gd.zones[zi]
            span = range(base, base + (st.n if zone.scope == "player" else 1))
            slots.update(span)
            if zone.visible == "owner":
                hidden.extend(span)
        active.append(frozenset(slots))
        private.append(tuple(hidden))
    return tuple(active), tuple(private)
