"""Which choices of a game may offer cards their chooser cannot see, read from its rules.

An action parameter or a `choose` whose value is a card its chooser may not see is
offered by the card's place, not its name (runtime/blind.py). Listing actions is the
hot path of every decision, so the rule text is read once, here, when the rules load:
for each action, the card parameters that could ever offer a card from a zone hidden
from their chooser, and from which zones; and which zones some `choose` may offer
hidden cards from. Only those are checked while listing (in every bundled game there
is none); the same zones get integer ids for their places (runtime/action_space.py).
The reading is never too small: what it cannot follow may hold a card of any zone
that hides from someone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from interpreter.analysis.domains import Analyzer, Assign, Ints, Values, locals_of
from interpreter.analysis.programs import programs
from interpreter.lang import ast
from interpreter.lang.builtins import BUILTIN_FACTS
from interpreter.lang.parser import parse_expression
from interpreter.model import GameDef
from interpreter.model.facts import HiddenOffers, Zones

NONE: Zones = frozenset()

# Built-ins whose result is never a card (numbers, players, truth values, texts); whose
# result holds only cards of one argument (by its index), or of any (lang/builtins.py).
_NO_CARD = frozenset(b.name for b in BUILTIN_FACTS.values() if b.cards == "none")
_OF_ARG = {b.name: b.card_arg for b in BUILTIN_FACTS.values() if b.cards == "arg"}
_OF_ARGS = frozenset(b.name for b in BUILTIN_FACTS.values() if b.cards == "args")
_NO_CARD_OPS = frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in", "notin"})


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


def read_rules(gd: GameDef, raw: dict[str, Any]) -> HiddenOffers:
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
    return HiddenOffers(groups, params, _chosen_zones(gd, raw))


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
        for node in ast.statements(body):
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
