"""Which zones a shuffle must deal whole in explicit chance mode (see chance.py).

A shuffled zone is dealt lazily only where the engine sees every look at its order:
the top or bottom card taken by `draw`, `top()` or `bottom()` inside an effect (an
operation of the run loop, which can stop at a chance node). Everything else that could
see the order makes the zone *eager* - dealt whole, top first, by the operation that
shuffles it:

* the zone read as a list anywhere (`for each c in deck`, `cards_named("x", deck)`,
  `choose c from deck`, a comprehension), `top`/`bottom` of it outside an effect (a
  condition, a value, a view, scoring: they are evaluated where no chance node can
  be), or a word of a template the reader cannot parse;
* its order visible to someone (`visible` other than `none` and `order` not hidden);
* a card's `active_in` zone (triggers fire, and modifiers apply, in the zone's order);
* the zone a refill that does not shuffle moves cards from (they keep their order).

Reading a zone without its order is fine anywhere: naming it as where `draw`, `move`,
`create` or `shuffle` put or take cards, and using it where the order cannot matter:
`x in zone`, and `len`, `sum`, `any`, `all`, `min`, `max`, `pick_random`, `shuffled`,
`reveal` (and `destroy`, in a game where no trigger listens to cards leaving) of the
zone - or of lists made from it by `+`, comprehensions or `cards_named`. A branch of an
`if` that the game's constants rule out is not read (`if points_order == "random"`). The
reading errs one way only: a zone found eager that did not need to be costs more
chance nodes, never a wrong game.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from interpreter.analysis.domains import locals_of
from interpreter.analysis.programs import UNKNOWN, fixed
from interpreter.lang import ast
from interpreter.lang.builtins import named
from interpreter.lang.parser import parse_expression, parse_program
from interpreter.model import GameDef

# Rule data that holds names or prose, not expressions: not read.
_SKIP_SECTIONS = frozenset({"zones", "counters", "constants", "events", "variants", "assumptions", "players",
                            "seats", "orrery", "version", "base", "overlay"})
_SKIP_KEYS = frozenset({"description", "name", "id", "assumed", "tags", "during", "on", "check", "then", "choose",
                        "of", "op", "type", "active_in", "properties"})
_EFFECT_KEYS = frozenset({"effect", "setup", "flow", "turn"})  # and every entry of a card's `effects`
_TEMPLATE_KEYS = frozenset({"label", "text"})
# Built-ins whose result does not depend on the order of their one list argument.
_ORDER_FREE = named("order_free")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def eager_zones(gd: GameDef, raw: dict[str, Any]) -> frozenset[int]:
    """The indexes of the zone definitions a shuffle deals whole."""
    eager = {z.index for z in gd.zones if z.visible != "none" and z.order_visible}
    # a refill that does not shuffle moves the source's cards over in their order
    eager.update(z.refill_from for z in gd.zones if z.refill_from is not None and not z.refill_shuffle)
    for card in gd.cards:
        eager.update(card.active_in)
    # Names that may hide a constant somewhere (parameters): never read as the constant.
    params = {str(p) for section in ("procedures", "functions", "events", "actions")
              for spec in (raw.get(section) or {}).values() if isinstance(spec, dict)
              for p in (spec.get("params") or ())}
    constants = {k: v for k, v in gd.constants.items() if k not in params}
    # Destroying a list of cards fires `left` in the list's order, for games that listen.
    ordered_destroy = any(event == "left" for event, _ in gd.triggers)
    scan = _Scan({z.name: z.index for z in gd.zones}, constants, ordered_destroy)
    scan.walk(raw, ())
    return frozenset(eager | scan.read)


class _Scan:
    """Finds the zones whose order some rule may read (`read`). A branch of an `if`
    whose condition the game's constants decide (`if points_order == "random"`) is
    read only if it can be taken."""

    def __init__(self, zones: dict[str, int], constants: dict[str, Any], ordered_destroy: bool):
        self.zones = zones
        self.constants = constants
        self.ordered_destroy = ordered_destroy
        self.shadowed: set[str] = set()  # locals of the program being read
        self.read: set[int] = set()

    # -- the rule data

    def walk(self, value: Any, path: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                key = str(key)
                if (not path and key in _SKIP_SECTIONS) or key in _SKIP_KEYS:
                    continue
                if len(path) == 2 and path[0] == "cards" and key in ("in", "count", "text"):
                    continue  # where copies start (a zone's name, not a look at it), and prose
                self.walk(inner, (*path, key))
        elif isinstance(value, list):
            for item in value:
                self.walk(item, path)
        elif isinstance(value, str):
            key = path[-1] if path else ""
            if key in _EFFECT_KEYS or (len(path) >= 2 and path[-2] == "effects"):
                self.program(value)
            elif key in _TEMPLATE_KEYS:
                self.template(value, effect=False)
            else:
                self.pure(value)

    def program(self, text: str) -> None:
        try:
            body = parse_program(text)
        except Exception:  # checked at load: a text that does not parse is read word by word
            self.words(text)
            return
        self.shadowed = set(locals_of(body))
        for stmt in body:
            self.node(stmt, effect=True)
        self.shadowed = set()

    def fixed(self, node: Any) -> Any:
        """The value of a condition made of literals and constants, else UNKNOWN."""
        constants = self.constants if not self.shadowed else {
            k: v for k, v in self.constants.items() if k not in self.shadowed}
        return fixed(node, constants)

    def branches(self, node: ast.If, effect: bool) -> None:
        """The branches of an `if` that can be taken."""
        for condition, body in node.branches:
            value = self.fixed(condition)
            if value is UNKNOWN:
                self.node(condition, effect)
            elif not value:
                continue
            self.node(body, effect)
            if value is not UNKNOWN:
                return  # taken: the branches after it never are
        self.node(node.orelse, effect)

    def pure(self, text: str) -> None:
        try:
            node = parse_expression(text)
        except Exception:  # not an expression: prose, or a template
            self.template(text, effect=False)
            return
        self.node(node, effect=False)

    def template(self, text: str, effect: bool) -> None:
        for part in re.findall(r"\{([^{}]*)\}", text):
            try:
                node = parse_expression(part)
            except Exception:  # unreadable: every zone it names counts
                self.words(part)
                continue
            self.node(node, effect)

    def words(self, text: str) -> None:
        self.read.update(self.zones[w] for w in _WORD.findall(text) if w in self.zones)

    # -- the syntax tree

    def zone_of(self, node: Any) -> int | None:
        if isinstance(node, ast.Name | ast.Call) and node.name in self.zones:
            return self.zones[node.name]
        return None

    def place(self, node: ast.Node, effect: bool) -> None:
        """A zone named as a place (cards go in or out, its size is read): not a look
        at its order. Anything else there is read as usual."""
        if self.zone_of(node) is None:
            self.node(node, effect)
        elif isinstance(node, ast.Call):
            for arg in node.args:
                self.node(arg, effect)

    def node(self, node: Any, effect: bool, free: bool = False) -> None:
        """Read `node`; `free`: its value is used without its order (a list counted,
        summed, searched), so a zone in it is not a look at the zone's order."""
        if isinstance(node, tuple | list):
            for item in node:
                self.node(item, effect)
            return
        if not isinstance(node, ast.Node):
            return
        zone = self.zone_of(node)
        if zone is not None:
            if not free:  # the zone as a list, in its order
                self.read.add(zone)
            self.place(node, effect)
            return
        if isinstance(node, ast.Draw):
            self.place(node.source, effect)
            self.place(node.dest, effect)
            self.node(node.count, effect)
        elif isinstance(node, ast.ZoneStmt):
            self.place(node.zone, effect)
        elif isinstance(node, ast.Move):
            self.node(node.cards, effect)
            self.place(node.zone, effect)
        elif isinstance(node, ast.Create):
            self.node(node.count, effect)
            self.place(node.zone, effect)
        elif isinstance(node, ast.If):
            self.branches(node, effect)
        elif isinstance(node, ast.CardsStmt):  # revealing or destroying cards: which, not in what order
            self.node(node.cards, effect, free=node.verb == "reveal" or not self.ordered_destroy)
        elif isinstance(node, ast.Call) and len(node.args) == 1 and node.name in _ORDER_FREE:
            self.node(node.args[0], effect, free=True)
        elif isinstance(node, ast.Call) and node.name in ("top", "bottom") and effect and node.args \
                and self.zone_of(node.args[0]) is not None:
            self.place(node.args[0], effect)
            self.node(node.args[1:], effect)
        elif isinstance(node, ast.Call) and node.name == "cards_named" and free and len(node.args) == 2:
            self.node(node.args[0], effect)
            self.node(node.args[1], effect, free=True)  # a filter: what it keeps is used without order too
        elif isinstance(node, ast.Binary) and node.op in ("in", "notin", "not in"):
            self.node(node.left, effect)
            self.node(node.right, effect, free=True)
        elif isinstance(node, ast.Binary) and node.op == "+" and free:
            self.node(node.left, effect, free=True)
            self.node(node.right, effect, free=True)
        elif isinstance(node, ast.Comprehension) and free:
            self.node(node.source, effect, free=True)
            self.node((node.element, node.condition), effect)
        else:
            if isinstance(node, ast.Log):
                self.template(node.text, effect)
            elif isinstance(node, ast.Choose | ast.ChooseOne) and node.prompt:
                self.template(node.prompt, effect)
            for field in attrs.fields(type(node)):
                self.node(getattr(node, field.name), effect)
