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
the rule text is read once per game (`read_rules`) for the card parameters and
choices that could ever offer a card from a zone hidden from their chooser; only those
are checked while listing. In every bundled game there is none, and a listing costs
one look-up more. The same reading gives the zones whose places have integer ids
(action_space.py).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from interpreter.lang import ast
from interpreter.lang.parser import parse_expression
from interpreter.model import GameDef
from interpreter.runtime.actions import Action, BlindAction, HiddenCard, hidden_token, renderer
from interpreter.runtime.domains import Analyzer, Assign, Ints, Values, locals_of
from interpreter.runtime.observation import card_seen_by
from interpreter.runtime.programs import programs, walk_statements

if TYPE_CHECKING:
    from interpreter.runtime.state import State

Zones = frozenset[int]  # zone indices a list's cards may come from while hidden from the chooser
NONE: Zones = frozenset()

# Built-ins whose result is never a card (numbers, players, truth values, texts).
_NO_CARD = frozenset({"len", "count", "sum", "any", "all", "exists", "has_effect", "can_use", "has_grant", "owner",
                      "seat", "next_player", "players_from", "range", "random", "index_of", "abs", "text", "join",
                      "pad", "uses", "is_bot", "zone_of", "cells", "neighbors", "ray"})
# Built-ins whose result holds only cards of one argument (by its index), or of several.
_OF_ARG = {"top": 0, "bottom": 0, "sorted": 0, "reversed": 0, "shuffled": 0, "pick_random": 0, "cards_named": 1}
_OF_ARGS = frozenset({"select", "min", "max"})
_NO_CARD_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in", "notin"})


# ---- reading the rules: which choices may offer hidden cards ------------------------------------


class _Reader:
    """The zones hidden from the chooser that the cards of an expression may come from.
    Never too small: anything it cannot follow may hold a card of any zone that is
    hidden from someone (`hidable`). Player expressions are compared by name: the
    chooser (`me`, or the name after `by`) owns the zone `hand(NAME)` when NAME names
    the same player here (`aliases`: a function's parameters name what its caller
    passed; a comprehension's variable names nothing known)."""

    def __init__(self, gd: GameDef, raw: dict[str, Any], scope: dict[str, list[Assign]]):
        self.gd = gd
        self.zones = {z.name: z for z in gd.zones}
        self.counters = {c.name for c in gd.counters}
        functions = raw.get("functions")
        self.functions: dict[str, Any] = functions if isinstance(functions, dict) else {}
        self.hidable: Zones = frozenset(z.index for z in gd.zones if z.visible != "all")
        self.chooser: str | None = "me"
        self.scope = scope
        self.bound: dict[str, Zones] = {}
        self.aliases: dict[str, str | None] = {}  # a name -> the player name it stands for (None: unknown)
        self.in_function = False  # names not in `aliases` are then the function's own
        self._busy: set[str] = set()
        self._calls: frozenset[str] = frozenset()

    def _inner(self, bound: dict[str, Zones], aliases: dict[str, str | None]) -> _Reader:
        inner = _Reader.__new__(_Reader)
        inner.__dict__.update(self.__dict__)
        inner.bound, inner.aliases = {**self.bound, **bound}, {**self.aliases, **aliases}
        return inner

    def of(self, node: ast.Node) -> Zones:
        if isinstance(node, ast.Literal):
            return NONE
        if isinstance(node, ast.Name):
            return self._name(node.name)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Comprehension):
            names = (node.var, *node.unpack)
            source = self.of(node.source)
            bound = {name: source if name == node.var and not node.unpack else self.hidable for name in names}
            return self._inner(bound, dict.fromkeys(names)).of(node.element)
        if isinstance(node, ast.ListExpr):
            return self._union(node.items)
        if isinstance(node, ast.Binary):
            return NONE if node.op in _NO_CARD_OPS else self.of(node.left) | self.of(node.right)
        if isinstance(node, ast.Unary):
            return NONE
        if isinstance(node, ast.Index):
            return self.of(node.target)
        if isinstance(node, ast.Attr) and _root(node) in self.gd.constants and not self._local(_root(node)):
            return NONE  # a part of a constant: static data holds no card
        return self.hidable  # a card's attribute may hold any card

    def _local(self, name: str) -> bool:
        return name in self.bound or name in self.scope or name in self.aliases

    def _union(self, nodes: Iterable[ast.Node]) -> Zones:
        found = NONE
        for node in nodes:
            found |= self.of(node)
        return found

    def _name(self, name: str) -> Zones:
        if name in self.bound:
            return self.bound[name]
        if name in self.scope:
            if name in self._busy:
                return NONE  # its other assignments say what it holds
            self._busy.add(name)
            try:
                return self._union(assign.node for assign in self.scope[name])
            finally:
                self._busy.discard(name)
        if name in self.zones:
            return self._zone(name, None)
        if name in self.gd.constants or name == "players" or name in self.counters:
            return NONE
        return self.hidable

    def _call(self, node: ast.Call) -> Zones:
        name, args = node.name, node.args
        if name in self.zones and not self._local(name):
            return self._zone(name, args[0] if args else None)
        if name in _NO_CARD or name in self.counters:
            return NONE
        if name in _OF_ARG and len(args) > _OF_ARG[name]:
            return self.of(args[_OF_ARG[name]])
        if name in _OF_ARGS:
            return self._union(args[1:] if name == "select" else args)
        if name in self.functions and name not in self._calls:
            return self._function(name, args)
        return self.hidable  # a value of the game, or what cannot be followed

    def _function(self, name: str, args: tuple[ast.Node, ...]) -> Zones:
        """A call of a game function: its value read with its parameters bound to what
        the caller passed (its `let:` names as they are bound)."""
        spec = self.functions[name]
        if not isinstance(spec, dict):
            return self.hidable
        params = [str(p) for p in spec.get("params") or ()]
        inner = self._inner({p: self.of(a) for p, a in zip(params, args, strict=False)},
                            {p: self._player(a) for p, a in zip(params, args, strict=False)})
        if "me" not in params:
            inner.aliases["me"] = self._player(None)  # in a function, `me` is the caller's
        inner.in_function, inner.scope, inner._calls = True, {}, self._calls | {name}
        lets = spec.get("let")
        for let, text in (lets.items() if isinstance(lets, dict) else ()):
            inner.bound[str(let)] = inner._text(text)
            inner.aliases[str(let)] = None
        return inner._text(spec.get("value"))

    def _text(self, text: Any) -> Zones:
        if not isinstance(text, str):
            return NONE if isinstance(text, int | float | bool) or text is None else self.hidable
        try:
            return self.of(parse_expression(text))
        except Exception:  # checked at load: a text that does not parse is not ours
            return self.hidable

    def _player(self, node: ast.Node | None) -> str | None:
        """The name a player expression stands for at the top of the reading (None:
        not a name, or one not known there)."""
        if node is None:
            node = ast.Name(0, 0, "me")
        if not isinstance(node, ast.Name):
            return None
        if node.name in self.aliases:
            return self.aliases[node.name]
        return None if self.in_function else node.name

    def _zone(self, name: str, player: ast.Node | None) -> Zones:
        """A zone read whole: hidden from the chooser unless all see it, or it is the
        chooser's own zone of `owner` visibility."""
        zone = self.zones[name]
        if zone.visible == "all":
            return NONE
        mine = self.chooser is not None and self._player(player) == self.chooser
        if zone.visible == "owner" and zone.scope == "player" and mine:
            return NONE
        return frozenset({zone.index})


def _root(node: ast.Node) -> str:
    while isinstance(node, ast.Attr | ast.Index):
        node = node.target
    return node.name if isinstance(node, ast.Name) else ""


@attrs.frozen
class Reading:
    """What the rules let hide: per group, per action index, the card parameters
    (by position) to check while listing; per (action index, parameter) the zones
    whose places they may offer; whether some `choose` of cards may offer hidden cards,
    and from which zones."""

    groups: dict[str, dict[int, tuple[int, ...]]]
    params: dict[tuple[int, int], Zones]
    choices: Zones


def read_rules(gd: GameDef, raw: dict[str, Any]) -> Reading:
    """Read the rule text once (see the module's docstring)."""
    groups: dict[str, dict[int, tuple[int, ...]]] = {}
    params: dict[tuple[int, int], Zones] = {}
    for action in gd.actions:
        reader = _Reader(gd, raw, {})
        checked = []
        for i, param in enumerate(action.params):
            zones = _read(reader, _domain(raw, action.id, param.name))
            reader.bound[param.name] = zones  # a later parameter may read this one's card
            if param.type == "card" and zones:
                params[(action.index, i)] = zones
                checked.append(i)
        if checked:
            groups.setdefault(action.group, {})[action.index] = tuple(checked)
    return Reading(groups, params, _chosen_zones(gd, raw))


def _domain(raw: dict[str, Any], action_id: str, param: str) -> ast.Node | None:
    """The parsed choices of an action's parameter (None: not found in the rules)."""
    spec = ((raw.get("actions") or {}).get(action_id) or {}).get("params", {}).get(param)
    if isinstance(spec, dict):
        spec = spec.get("in")
    if not isinstance(spec, str):
        return None
    try:
        return parse_expression(spec)
    except Exception:  # checked at load: a text that does not parse is not a domain of ours
        return None


def _chosen_zones(gd: GameDef, raw: dict[str, Any]) -> Zones:
    """The zones whose cards some `choose` may offer its chooser while hidden (without
    the rule text, any zone that hides from someone)."""
    if not raw:
        return _Reader(gd, raw, {}).hidable
    found = NONE
    procedures: dict[str, Any] = raw.get("procedures") or {}
    analyzer = Analyzer(gd, raw)
    for name, body in programs(gd, raw):
        spec = procedures.get(name.removeprefix("procedures.")) if name.startswith("procedures.") else None
        params = [str(p) for p in (spec.get("params") or ())] if isinstance(spec, dict) else []
        scope = locals_of(body)
        reader, values = _Reader(gd, raw, scope), analyzer.in_program(scope, tuple(params))
        for param in params:
            reader.bound[param] = reader.hidable  # a procedure's arguments: any card
        for node in walk_statements(body):
            if isinstance(node, ast.Choose) and not _no_cards(values, node.options):
                reader.chooser = reader._player(node.by)
                found |= _read(reader, node.options)
    return found


def _no_cards(values: Analyzer, options: ast.Node) -> bool:
    """Whether a choice's options are surely no cards (numbers, words, seats)."""
    try:
        found = values.element(options)
    except RecursionError:
        return False
    return isinstance(found, Ints) or (isinstance(found, Values) and bool(found.items))


def _read(reader: _Reader, node: ast.Node | None) -> Zones:
    """What `reader` finds of an expression; any hidable zone when it has none, or when
    it nests too deeply to be read (the runtime then checks every card it offers)."""
    if node is None:
        return reader.hidable
    try:
        return reader.of(node)
    except RecursionError:
        return reader.hidable


_READINGS: dict[int, Reading] = {}  # GameDef id -> its reading (dropped with the GameDef)


def reading_of(st: State) -> Reading:
    """The reading of the state's rules (the Game's `raw` rules; without them every card
    parameter and choice is checked)."""
    gd = st.gd
    found = _READINGS.get(id(gd))
    if found is None:
        raw = getattr(st.game, "raw", None)
        found = _READINGS[id(gd)] = read_rules(gd, raw if isinstance(raw, dict) else {})
        weakref.finalize(gd, _READINGS.pop, id(gd), None)
    return found


def listing_checks(st: State, group: str) -> dict[int, tuple[int, ...]] | None:
    """The card parameters to check in a listing of `group` (None: nothing can hide)."""
    found = _READINGS.get(id(st.gd))
    return (found if found is not None else reading_of(st)).groups.get(group)


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
    return bool(reading_of(st).choices)


def hides_card(st: State, player: int, types: Iterable[str], values: Iterable[Any]) -> bool:
    """Whether any card among `values` (of the given types) is one `player` may not see."""
    return any(t == "card" and _hidden(st, player, v) for t, v in zip(types, values, strict=False))
