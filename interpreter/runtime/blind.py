"""Choices among cards the chooser may not see: offered by their place, never by name.

An action parameter or a `choose` whose value is a card its chooser may not see
(`params: {card: "hand(next_player(me))"}` over a hand visible to its owner only) must
not name it: its canonical text, its integer id, its label, the narration and the web
page would all tell what the card is, and typing a card's text would test whether it
is there. Such a value is offered as a `HiddenCard` (actions.py) instead: the card's
place among the hidden cards the choice offers from its zone, counted in the zone's
order (`steal hand(P2):1`, read "a hidden card (1 of 3 in P2's hand)"), so two deals
with different cards there offer the same options. Numbering among the cards offered,
not among all the zone's cards, keeps a choice whose rules filter the hidden cards
from telling which places passed the filter (only how many did). The card a place
stands for is the one there when the choice is listed, which is when it is made (a
waiting state does not change); the effect runs with that card, and it shows only
where visibility lets it (in the chooser's hand, to the chooser).

Whether the chooser sees a card is decided where observations decide it
(`observation.card_seen_by`). Listing actions is the hot path of every decision, so
the rule text is read once, when the rules load (analysis/hidden_offers.py), for the
card parameters and choices that could ever offer a card from a zone hidden from their
chooser (`GameDef.facts.hidden`); only those are checked while listing. In every
bundled game there is none, and a listing costs one look-up more. The same reading
gives the zones whose places have integer ids (action_space.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from interpreter.runtime.actions import Action, BlindAction, HiddenCard, hidden_token, renderer
from interpreter.runtime.observation import card_seen_by

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def listing_checks(st: State, group: str) -> dict[int, tuple[int, ...]] | None:
    """The card parameters to check in a listing of `group` (None: nothing can hide)."""
    return st.gd.facts.hidden.groups.get(group)


# ---- listing: hidden cards as places ------------------------------------------------------------


def _places(st: State, found: dict[Any, list[int]]) -> dict[tuple[Any, int], HiddenCard]:
    """For each key (a choice's parameter and a zone slot) and hidden card found there,
    its place: its rank among those cards in the zone's order, from 1."""
    places: dict[tuple[Any, int], HiddenCard] = {}
    for key, cards in found.items():
        slot = key[-1]
        order = st.zones[slot]
        ranked = sorted(set(cards), key=order.index)
        for rank, card in enumerate(ranked, 1):
            places[(key, card)] = HiddenCard(slot, rank, len(ranked), card)
    return places


def _hidden(st: State, player: int, value: Any) -> bool:
    """Whether `value` is a card in a zone that `player` may not see (a card out of the
    game has no place: it is offered as before)."""
    return type(value) is int and st.loc[value] >= 0 and not card_seen_by(st, value, player)


def hide_listed(st: State, player: int, listed: list[Action], checks: dict[int, tuple[int, ...]]) -> list[Action]:
    """A listing of actions with every card `player` may not see offered by its place
    (the same list when there is none)."""
    found: dict[Any, list[int]] = {}
    for action in listed:
        index, values = action.payload
        for i in checks.get(index, ()):
            if _hidden(st, player, values[i]):
                found.setdefault((index, i, st.loc[values[i]]), []).append(values[i])
    if not found:
        return listed
    places = _places(st, found)
    loc = st.loc
    out: list[Action] = []
    for action in listed:
        index, values = action.payload
        shown = list(values)
        for i in checks.get(index, ()):
            v = values[i]
            if type(v) is int:
                shown[i] = places.get(((index, i, loc[v]), v), v)
        if all(a is b for a, b in zip(shown, values, strict=True)):  # no hidden card here: unchanged
            out.append(action)
            continue
        adef = st.gd.actions[index]
        text = " ".join([adef.id, *(renderer(p.type)(st, v) for p, v in zip(adef.params, shown, strict=True))])
        out.append(BlindAction(text, (index, tuple(shown)), action.payload))
    return _in_order(out)


def _in_order(listed: list[Action]) -> list[Action]:
    """The listing with each action's instances in an order that tells nothing of its
    hidden cards (the rules' order may: `sorted(...)` orders cards by their copy
    numbers): by each value, a visible one where it first came and the places after
    them, in order. An action without hidden cards keeps its order; an action's
    instances are listed together (each lister appends its own)."""
    out: list[Action] = []
    at = 0
    while at < len(listed):
        end = at
        index = listed[at].payload[0]
        while end < len(listed) and listed[end].payload[0] == index:
            end += 1
        run = listed[at:end]
        if any(type(action) is BlindAction for action in run):
            firsts: list[dict[str, int]] = [{} for _ in run[0].payload[1]]
            keys = [[_order_key(v, first) for v, first in zip(a.payload[1], firsts, strict=True)] for a in run]
            run = [a for _, a in sorted(zip(keys, run, strict=True), key=lambda pair: pair[0])]
        out += run
        at = end
    return out


def _order_key(value: Any, first: dict[str, int]) -> tuple[int, ...]:
    """A value's rank in an order blind to hidden cards: a visible value by where it
    first came (`first` fills as the listing is gone through), a place after them."""
    if type(value) is HiddenCard:
        return (1, value.slot, value.position)
    return (0, first.setdefault(repr(value), len(first)))


def hide_options(st: State, player: int, listed: list[Action]) -> list[Action]:
    """The options of a choice of cards with every card `player` may not see offered by
    its place, after the others and in order (the rules' order may tell them apart:
    see `_in_order`); the same list when there is none."""
    found: dict[Any, list[int]] = {}
    for action in listed:
        if _hidden(st, player, action.payload):
            found.setdefault((st.loc[action.payload],), []).append(action.payload)
    if not found:
        return listed
    places = _places(st, found)
    seen: list[Action] = []
    blind: list[HiddenCard] = []
    for action in listed:
        place = places.get(((st.loc[action.payload],), action.payload)) if type(action.payload) is int else None
        if place is None:
            seen.append(action)
        else:
            blind.append(place)
    blind.sort(key=lambda place: (place.slot, place.position))
    return seen + [BlindAction(hidden_token(st, place), place, place.card) for place in blind]


def choices_hide(st: State) -> bool:
    """Whether some `choose` of the game may offer cards hidden from its chooser."""
    return bool(st.gd.facts.hidden.choices)


def hides_card(st: State, player: int, types: Iterable[str], values: Iterable[Any]) -> bool:
    """Whether any card among `values` (of the given types) is one `player` may not see."""
    return any(t == "card" and _hidden(st, player, v) for t, v in zip(types, values, strict=False))
