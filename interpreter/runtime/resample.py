"""Resampling from an information state: a whole state one player could not tell from
the true one, drawn from what that player has observed only.

`resample(st, player, rng)` (OpenSpiel's `resample_from_infostate`) is what search
seats (`ismcts`) and conformance tests build their worlds with. Its result depends
only on the player's information state and `rng`, never on where hidden cards truly
are, so a search seat's decision is a function of what its seat knows and its seed.
The rule, in full:

* **Cards.** A card copy stays what it is where the player sees it (its zone is open
  to them, or it is revealed to them), where the player knows it is (they saw it go
  there: `State.known`, kept by cards.py, in the zone it went to), and out of the
  game. Every other copy is a hidden *position*: the identities (definition and
  attributes) of all of them are pooled, sorted, shuffled by `rng` and dealt back over
  the positions, in the order of their places (zone slot, then depth). Card types are
  no boundary: a hand may get any unseen card. Backs are: a game whose cards declare a
  `back` shows how many of each back a hidden zone holds (observation.py), so each back
  is dealt among the positions of its own back only. Then the cards of each hidden
  zone, known ones included, are shuffled among its hidden positions (a player who saw
  cards go into a pile does not know their order in it). The copies themselves do not
  move (a running effect that holds one keeps holding the card at that place; only
  what it is changes), so the result is a state the rules can go on from.
* **Counters.** The cells of a counter the player may not see take its declared
  initial value: nothing the player saw says more. A per-player counter that declares
  its public `total` over the players (per key) has that total, less the cells the
  player sees, split among its hidden cells at random unit by unit (within its `min`
  and `max`); a total that cannot be read or does not fit resets them too.
* **Decisions under way.** In a simultaneous step, the picks other seats made already
  are forgotten (they have still to pick).
* **Future chance.** The random generator is reseeded from `rng`.

What is not resampled, and so can still tell a seat something the rules never showed
it: values of a running effect (a frame's variables), notes shown to other seats, and
which cards are out of the game. A card a seat saw go out of play and one destroyed
face down are both kept; games put cards out of play by public rules (setup by player
count), and a game that destroys secret cards keeps them in a zone hidden from all.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, TypeVar

from interpreter.diagnostics import GameError
from interpreter.model.definitions import CounterDef
from interpreter.runtime.errors import RULE_SLIPS
from interpreter.runtime.records import TURN, PendingSimultaneous
from interpreter.runtime.work import own_budget

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def check_player(st: State, player: Any) -> None:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < st.n:
        raise GameError(f"no player {player!r} to resample for: players are 0..{st.n - 1}")


def hidden_places(st: State, player: int) -> dict[int, list[int]]:
    """Per zone slot hidden from `player`, the copies in it the player cannot see
    (not revealed to them), bottom first: the places resampling deals over."""
    layout = st.layout
    bit = 1 << player
    revealed, shown = st.revealed, st.shown
    places = {}
    for slot, cards in enumerate(st.zones):
        if layout.seers[slot] & bit or not cards:
            continue
        unseen = [iid for iid in cards if iid not in revealed and not shown.get(iid, 0) & bit]
        if unseen:
            places[slot] = unseen
    return places


def hidden_positions(st: State, player: int) -> list[int]:
    """The card copies whose identity `player` does not know (unseen, and not seen
    going where they are), in the order of their places: where unseen cards are dealt."""
    bit = 1 << player
    known = st.known
    return [iid for cards in hidden_places(st, player).values() for iid in cards if not known.get(iid, 0) & bit]


def resample(st: State, player: int, rng: random.Random) -> State:
    """A state drawn from what `player` has observed (see the module docstring). A
    terminal state is returned as a copy; a player who is not in the game is an error."""
    check_player(st, player)
    copy = st.clone()
    copy.rng = rng.getrandbits(64)
    copy.legal_cache = None
    copy.memo = None
    if st.terminal:
        return copy
    _deal_identities(copy, player, rng)
    _redraw_hidden_counters(copy, player, rng)
    forget_sealed_picks(copy, player)
    return copy


Identity = tuple[int, list[tuple[str, Any]]]  # a card definition and the copy's attributes
T = TypeVar("T")


def _deal_identities(copy: State, player: int, rng: random.Random) -> None:
    places = hidden_places(copy, player)
    if not places:
        return
    bit = 1 << player
    known = copy.known
    every = [iid for cards in places.values() for iid in cards]
    own: dict[int, list[tuple[str, Any]]] = {}
    if copy.attrs:
        dealt = set(every)
        for (iid, name), value in copy.attrs.items():
            if iid in dealt:
                own.setdefault(iid, []).append((name, value))
    identity: dict[int, Identity] = {iid: (copy.card_def[iid], sorted(own.get(iid, ()), key=repr)) for iid in every}
    # 1. Every unseen card is dealt over the places of unknown cards, back by back: how
    # many unknown cards of each back each place holds is all that is read of them.
    cards = copy.gd.cards
    held: dict[int, list[tuple[Identity, bool]]] = {slot: [] for slot in places}  # what each place will hold
    wanted: dict[str, list[tuple[int, int]]] = {}  # back -> (place, how many unknown cards of it)
    pools: dict[str, list[Identity]] = {}
    for slot in sorted(places):
        counts: dict[str, int] = {}
        for iid in places[slot]:
            if known.get(iid, 0) & bit:
                held[slot].append((identity[iid], True))
            else:
                back = cards[copy.card_def[iid]].back
                counts[back] = counts.get(back, 0) + 1
                pools.setdefault(back, []).append(identity[iid])
        for back, count in counts.items():
            wanted.setdefault(back, []).append((slot, count))
    for back in sorted(pools):
        pool = _shuffled(pools[back], rng)
        at = 0
        for slot, count in wanted[back]:
            held[slot] += [(item, False) for item in pool[at:at + count]]
            at += count
    # 2. In each hidden place, the cards the player knows are there and those dealt to it
    # lie in an order the player cannot know (the copies that now hold known cards are
    # the ones the player knows of).
    for slot in sorted(places):
        for iid, (item, is_known) in zip(places[slot], _shuffled(held[slot], rng), strict=True):
            identity[iid] = item
            mask = known.get(iid, 0) & ~bit | (bit if is_known else 0)
            if mask:
                known[iid] = mask
            else:
                known.pop(iid, None)
    card_def = copy.card_def[:]  # a new list: indexes of copies by definition see the change (cards.py)
    attrs = copy.attrs
    for iid, values in own.items():
        for name, _ in values:
            del attrs[(iid, name)]
    for iid, (definition, values) in identity.items():
        card_def[iid] = definition
        for name, value in values:
            attrs[(iid, name)] = value
    copy.card_def = card_def


def _shuffled(items: list[T], rng: random.Random) -> list[T]:
    """`items` in a random order (sorted first, so the result does not depend on the
    order they came in: which copy held which)."""
    pool = sorted(items, key=repr)
    if len(pool) > 1:
        rng.shuffle(pool)
    return pool


def _redraw_hidden_counters(copy: State, player: int, rng: random.Random) -> None:
    for cdef, values in zip(copy.gd.counters, copy.counters, strict=True):
        if cdef.visible == "all":
            continue
        owners = list(range(copy.n)) if cdef.scope == "player" else [-1]
        hidden = [i for i, owner in enumerate(owners) if not (cdef.visible == "owner" and owner == player)]
        if not hidden:
            continue
        for k in range(cdef.width):
            cells = [i * cdef.width + k for i in hidden]
            if cdef.total is None or not _split_total(copy, cdef, values, k, cells, rng):
                for cell in cells:
                    values[cell] = cdef.initial[k]


def _split_total(copy: State, cdef: CounterDef, values: list[int], k: int, cells: list[int],
                 rng: random.Random) -> bool:
    """Split what `cells` hold together, by the counter's public `total`, among them at
    random unit by unit (within `max`); False when the total cannot be read or does not
    fit (the cells are then reset)."""
    assert cdef.total is not None
    try:
        total = own_budget(copy, cdef.total, copy, {"key": cdef.keys[k] if cdef.keys else k})
    except RULE_SLIPS:
        return False
    if type(total) is not int:
        return False
    seen = sum(values[i] for i in range(k, len(values), cdef.width) if i not in cells)
    floor = cdef.min if cdef.min is not None else 0
    left = total - seen - floor * len(cells)
    if left < 0 or (cdef.max is not None and left > (cdef.max - floor) * len(cells)):
        return False
    amounts = [floor] * len(cells)
    open_cells = list(range(len(cells)))
    for _ in range(left):
        at = open_cells[rng.randrange(len(open_cells))]
        amounts[at] += 1
        if cdef.max is not None and amounts[at] == cdef.max:
            open_cells.remove(at)
    for cell, amount in zip(cells, amounts, strict=True):
        values[cell] = amount
    return True


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
