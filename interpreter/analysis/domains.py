"""What values an action parameter or a choice may take, read from the rule text
without running it.

An integer action space (see action_space.py) needs, for every parameter of every
action and for every `choose`, a fixed and finite list of the values it can offer,
the same in every state and every run. Cards and players have one by their type (the
card definitions, the seats); other values (numbers, words) are found here by a small
abstract interpretation of the effect language: each expression is given an
*abstract value* - a finite set of scalars (`Values`), a range of integers (`Ints`,
possibly open at either end), "cards" (`CARDS`), or unknown (`None`) - from
literals, constants, counter bounds (`min`/`max`), card properties, `range(...)`,
arithmetic on ranges, and the comparisons of comprehension conditions
(`[x for x in L if x >= 0 and x < lanes]`). Locals (`let`, `set`, `for each`,
`choose`) are followed through their program, functions and values through their
definitions. It never has to be exact, only never too small: a value it misses is
reported when it is met (a clear error), and a game can always declare a parameter's
values in its rules (`params: {x: {in: ..., max: 10}}`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import attrs

from interpreter.diagnostics import RuleRuntimeError
from interpreter.lang import ast
from interpreter.lang.builtins import facts_of
from interpreter.lang.parser import parse_expression
from interpreter.model import GameDef
from interpreter.model.facts import sort_key
from interpreter.numbers import arithmetic as worked_out
from interpreter.numbers import exact_division

MAX_VALUES = 4096  # a space per parameter longer than this is refused (declare a bound)
_EXACT = 256  # sets of scalars are kept exact up to this size, then become ranges


@attrs.frozen
class Ints:
    """Every integer from `lo` to `hi` (inclusive); None is an open end."""

    lo: int | None
    hi: int | None


@attrs.frozen
class Seats(Ints):
    """The seats themselves (`players`, `me`): numbers, but a choice among them is a
    choice of a player, numbered as one."""


@attrs.frozen
class Values:
    """A finite set of scalars (str, int, bool, None)."""

    items: frozenset[Any]


class _Cards:
    def __repr__(self) -> str:
        return "CARDS"


CARDS = _Cards()  # cards: their space is the card definitions
Abstract = Ints | Values | _Cards | None  # None: unknown
EMPTY = Values(frozenset())
BOOLS = Values(frozenset({True, False}))
ANY_INT = Ints(None, None)


def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_number(v: Any) -> bool:
    return type(v) is int or type(v) is Fraction


_ARITHMETIC = ("+", "-", "*", "/", "//", "%")


def _is_scalar(v: Any) -> bool:
    return v is None or isinstance(v, str | int | bool | Fraction)


def _hull(a: Abstract) -> Ints | None:
    """An int set as a range (None when it holds anything but ints)."""
    if isinstance(a, Ints):
        return a
    if isinstance(a, Values) and a.items and all(_is_int(v) for v in a.items):
        return Ints(min(a.items), max(a.items))
    return None


def join(a: Abstract, b: Abstract) -> Abstract:
    """What either may be."""
    if a is None or b is None:
        return None
    if a == EMPTY:
        return b
    if b == EMPTY:
        return a
    if a is CARDS or b is CARDS:
        return CARDS if a is b else None
    if isinstance(a, Seats) and a == b:
        return a
    if isinstance(a, Values) and isinstance(b, Values):
        both = a.items | b.items
        if len(both) <= _EXACT or not all(_is_int(v) for v in both):
            return Values(both)
    ha, hb = _hull(a), _hull(b)
    if ha is None or hb is None:
        return None
    lo = None if ha.lo is None or hb.lo is None else min(ha.lo, hb.lo)
    hi = None if ha.hi is None or hb.hi is None else max(ha.hi, hb.hi)
    return Ints(lo, hi)


def meet(a: Abstract, b: Abstract) -> Abstract:
    """What both may be (a condition that must hold narrows a value)."""
    if a is None:
        return b
    if b is None:
        return a
    if isinstance(a, Values) and isinstance(b, Values):
        return Values(a.items & b.items)
    if isinstance(a, Values) and isinstance(b, Ints):
        return Values(frozenset(v for v in a.items if _is_int(v) and _within(v, b)))
    if isinstance(a, Ints) and isinstance(b, Values):
        return meet(b, a)
    if isinstance(a, Ints) and isinstance(b, Ints):
        lo = b.lo if a.lo is None else a.lo if b.lo is None else max(a.lo, b.lo)
        hi = b.hi if a.hi is None else a.hi if b.hi is None else min(a.hi, b.hi)
        return Ints(lo, hi)
    return a


def _within(v: int, r: Ints) -> bool:
    return (r.lo is None or v >= r.lo) and (r.hi is None or v <= r.hi)


def finite(a: Abstract, limit: int = MAX_VALUES) -> tuple[Any, ...] | None:
    """The values in a stable order (ints ascending, words in order), or None when
    there are too many or they are not known."""
    if isinstance(a, Values):
        return tuple(sorted(a.items, key=sort_key)) if len(a.items) <= limit else None
    if isinstance(a, Ints) and a.lo is not None and a.hi is not None and a.hi - a.lo < limit:
        return tuple(range(a.lo, a.hi + 1))
    return None


# ---- arithmetic on abstract values ------------------------------------------------------------


def _corners(a: Ints, b: Ints, op: Callable[[int, int], int]) -> Ints:
    if None in (a.lo, a.hi, b.lo, b.hi):
        return ANY_INT
    assert a.lo is not None and a.hi is not None and b.lo is not None and b.hi is not None
    points = [op(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return Ints(min(points), max(points))


def _add(a: Ints, b: Ints, sign: int) -> Ints:
    lo_b, hi_b = (b.lo, b.hi) if sign > 0 else (None if b.hi is None else -b.hi, None if b.lo is None else -b.lo)
    lo = None if a.lo is None or lo_b is None else a.lo + lo_b
    hi = None if a.hi is None or hi_b is None else a.hi + hi_b
    return Ints(lo, hi)


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y >= 0) else -q


def arithmetic(op: str, a: Abstract, b: Abstract, exact_div: bool = False) -> Abstract:
    """What `a op b` may be; `exact_div`: `/` divides exactly (format 2), else it rounds
    whole numbers toward zero. A range divided exactly is unknown (it holds fractions)."""
    if a == EMPTY or b == EMPTY:
        return EMPTY  # nothing yet (a local's first guess): nothing comes of it
    if isinstance(a, Values) and isinstance(b, Values) and len(a.items) * len(b.items) <= _EXACT:
        if op == "+" and all(isinstance(v, str) for v in a.items | b.items):
            return Values(frozenset(x + y for x in a.items for y in b.items))
        if all(_is_number(v) for v in a.items | b.items) and a.items and b.items and op in _ARITHMETIC and \
                not (op in ("/", "//", "%") and 0 in b.items):
            try:
                return Values(frozenset(worked_out(op, x, y, exact_div) for x in a.items for y in b.items))
            except RuleRuntimeError:
                return None  # (a fraction too long to keep: a rule error when it runs)
    ha, hb = _hull(a), _hull(b)
    if ha is None or hb is None:
        return None
    if op in ("+", "-"):
        return _add(ha, hb, 1 if op == "+" else -1)
    if op == "*":
        return _corners(ha, hb, lambda x, y: x * y)
    if op == "/" and exact_div:
        return None
    if op in ("/", "//") and hb.lo is not None and hb.lo > 0:
        return _corners(ha, hb, _trunc_div if op == "/" else (lambda x, y: x // y))
    if op == "%" and hb.lo is not None and hb.lo > 0 and hb.hi is not None:
        return Ints(0, hb.hi - 1) if ha.lo is not None and ha.lo >= 0 else Ints(1 - hb.hi, hb.hi - 1)
    return ANY_INT


# ---- the analysis -----------------------------------------------------------------------------


@attrs.frozen
class Assign:
    """One way a local gets its value: `value` itself, or an element of it."""

    node: ast.Node
    element: bool


def locals_of(body: tuple[ast.Node, ...]) -> dict[str, list[Assign]]:
    """Every assignment of every local name in a program, wherever it is."""
    found: dict[str, list[Assign]] = {}
    for node in ast.statements(body):
        if isinstance(node, ast.Let):
            found.setdefault(node.name, []).append(Assign(node.value, False))
        elif isinstance(node, ast.Set) and isinstance(node.target, ast.Name):
            found.setdefault(node.target.name, []).append(Assign(node.value, False))
        elif isinstance(node, ast.ForEach) and node.unpack:
            for name in node.unpack:  # a part of an item: not followed (any value)
                found.setdefault(name, []).append(Assign(ast.Literal(node.line, node.column, ()), False))
        elif isinstance(node, ast.ForEach):
            found.setdefault(node.var, []).append(Assign(node.source, True))
        elif isinstance(node, ast.Choose) and node.up_to is None:
            found.setdefault(node.var, []).append(Assign(node.options, True))
    return found


_PLAYER_NAMES = ("me", "active", "owner", "player", "p")


class Analyzer:
    """Abstract values of expressions of one game; `scope` is one program's locals."""

    def __init__(self, gd: GameDef, raw: dict[str, Any]):
        self.gd = gd
        self.exact_div = exact_division(raw)
        self.counters = {c.name: c for c in gd.counters}
        self.zones = {z.name for z in gd.zones}
        self.functions = {name: spec for name, spec in _section(raw, "functions").items() if isinstance(spec, dict)}
        self.values = {name: spec for name, spec in _section(raw, "values").items() if isinstance(spec, dict)}
        self.boards = {name: spec for name, spec in _section(raw, "boards").items() if isinstance(spec, dict)}
        self.players = Seats(0, gd.max_players - 1)
        self.scope: dict[str, list[Assign]] = {}
        self.bound: dict[str, Abstract] = {}
        self._busy: dict[str, Abstract] = {}  # locals being worked out: their guess so far
        self._calls: set[str] = set()

    def in_program(self, scope: dict[str, list[Assign]], params: tuple[str, ...] = ()) -> Analyzer:
        """An analyzer of one program: its locals, and its parameters (unknown)."""
        inner = Analyzer.__new__(Analyzer)
        inner.__dict__.update(self.__dict__)
        inner.scope, inner.bound, inner._busy, inner._calls = scope, dict.fromkeys(params), {}, set()
        return inner

    def _with(self, name: str, value: Abstract) -> Analyzer:
        inner = Analyzer.__new__(Analyzer)
        inner.__dict__.update(self.__dict__)
        inner.bound = {**self.bound, name: value}
        return inner

    # -- scalars: what one expression's value may be

    def scalar(self, node: ast.Node) -> Abstract:
        if isinstance(node, ast.Literal):
            return Values(frozenset({node.value})) if _is_scalar(node.value) else None
        if isinstance(node, ast.Name):
            return self._scalar_name(node.name)
        if isinstance(node, ast.Call):
            return self._scalar_call(node)
        if isinstance(node, ast.Index):
            if isinstance(node.index, ast.Literal):
                found = self.concrete(node)
                if found is not None:
                    return _scalars_of(found)
            counter = self._counter_of(node.target)
            if counter is not None:
                return Ints(counter.min, counter.max)
            found = self.concrete(node.target)
            if found is not None:
                return _scalars_of([v for item in found for v in _members(item)])
            return self.element(node.target)
        if isinstance(node, ast.Attr):
            return self._scalar_attr(node)
        if isinstance(node, ast.Unary):
            if node.op == "not":
                return BOOLS
            return arithmetic("-", Values(frozenset({0})), self.scalar(node.operand))
        if isinstance(node, ast.Binary):
            if node.op in ("==", "!=", "<", "<=", ">", ">=", "in", "not in", "and"):
                return BOOLS
            if node.op == "or":
                return join(self.scalar(node.left), self.scalar(node.right))
            return arithmetic(node.op, self.scalar(node.left), self.scalar(node.right), self.exact_div)
        return None

    def _scalar_name(self, name: str) -> Abstract:
        if name in self.bound:
            return self.bound[name]
        if name in self.scope:
            return self._local(name)
        if name == "player_count":
            return Ints(self.gd.min_players, self.gd.max_players)
        if name in _PLAYER_NAMES:
            return self.players
        if name in ("round_number", "turn_number"):
            return Ints(0, None)
        if name == "this" or name == "card":
            return CARDS
        if name in self.gd.constants:
            value = self.gd.constants[name]
            return Values(frozenset({value})) if _is_scalar(value) else None
        counter = self.counters.get(name)
        if counter is not None and counter.width == 1:
            return Ints(counter.min, counter.max)
        if name in self.values:
            return self._expr_text(self.values[name].get("base"), element=False)
        return None

    def _local(self, name: str, element: bool = False) -> Abstract:
        """A local's value (or its items, for a list): every assignment joined; a local
        assigned from itself (`set room to room - 1`) is guessed, worked out again,
        then widened."""
        key = ("element:" if element else "scalar:") + name
        if key in self._busy:
            return self._busy[key]
        guess: Abstract = EMPTY
        for _ in range(3):
            self._busy[key] = guess
            value: Abstract = EMPTY
            for assign in self.scope[name]:
                if element:
                    # the items of a local assigned an item of a list (of lists): not followed
                    part = None if assign.element else self.element(assign.node)
                else:
                    part = self.element(assign.node) if assign.element else self.scalar(assign.node)
                value = join(value, part)
            del self._busy[key]
            if value == guess:
                break
            guess = _widen(guess, value)
        else:
            guess = None
        return guess

    def _scalar_call(self, node: ast.Call) -> Abstract:
        name, args = node.name, node.args
        counter = self.counters.get(name)
        if counter is not None:
            return Ints(counter.min, counter.max) if counter.width == 1 else None
        if name in self.functions:
            return self._call_function(node, element=False)
        if name in self.values:
            return self._expr_text(self.values[name].get("base"), element=False)
        return self._builtin(name, args, element=False)

    def _scalar_attr(self, node: ast.Attr) -> Abstract:
        found = self.concrete(node)
        if found is not None:
            return _scalars_of(found)
        if self.scalar(node.target) is CARDS:
            return self._card_field(node.name, element=False)
        return None

    def _card_field(self, field: str, element: bool) -> Abstract:
        cards = self.gd.cards
        if field in ("id", "name", "type", "text"):
            return None if element else Values(frozenset(str(getattr(c, field)) for c in cards))
        found = [c.properties[field] for c in cards if field in c.properties]
        if not found:
            return None
        if element:
            return _scalars_of([v for item in found if isinstance(item, list) for v in item])
        return _scalars_of(found)

    # -- elements: what the items of a list expression may be

    def element(self, node: ast.Node) -> Abstract:
        if isinstance(node, ast.ListExpr):
            result: Abstract = EMPTY
            for item in node.items:
                result = join(result, self.scalar(item))
            return result
        if isinstance(node, ast.Comprehension) and node.unpack:
            inner = self
            for name in node.unpack:
                inner = inner._with(name, None)
            return inner.scalar(node.element)
        if isinstance(node, ast.Comprehension):
            source = self.element(node.source)
            if node.condition is not None:
                source = self._narrow(node.var, source, node.condition)
            return self._with(node.var, source).scalar(node.element)
        if isinstance(node, ast.Name):
            return self._element_name(node.name)
        if isinstance(node, ast.Call):
            return self._element_call(node)
        if isinstance(node, ast.Binary) and node.op == "+":
            return join(self.element(node.left), self.element(node.right))
        if isinstance(node, ast.Binary) and node.op == "or":
            return join(self.element(node.left), self.element(node.right))
        if isinstance(node, ast.Index | ast.Attr):
            found = self.concrete(node)
            if found is not None:
                return _scalars_of([v for item in found if isinstance(item, list) for v in item])
            counter = self._counter_of(node)
            if counter is not None and counter.width > 1:
                return Ints(counter.min, counter.max)
            if isinstance(node, ast.Attr) and self.scalar(node.target) is CARDS:
                return self._card_field(node.name, element=True)
        return None

    def _element_name(self, name: str) -> Abstract:
        if name in self.bound:
            return None
        if name in self.scope:
            return self._local(name, element=True)
        if name == "players":
            return self.players
        if name in self.zones:
            return CARDS
        if name in self.gd.constants:
            value_ = self.gd.constants[name]
            return _scalars_of(value_) if isinstance(value_, list) else None
        counter = self.counters.get(name)
        if counter is not None and counter.width > 1:
            return Ints(counter.min, counter.max)
        if name in self.values:
            return self._expr_text(self.values[name].get("base"), element=True)
        return None

    def _element_call(self, node: ast.Call) -> Abstract:
        name, args = node.name, node.args
        if name in self.zones:
            return CARDS
        if name in self.functions:
            return self._call_function(node, element=True)
        if name in self.values:
            return self._expr_text(self.values[name].get("base"), element=True)
        counter = self.counters.get(name)
        if counter is not None and counter.width > 1:
            return Ints(counter.min, counter.max)
        return self._builtin(name, args, element=True)

    def _builtin(self, name: str, args: tuple[ast.Node, ...], element: bool) -> Abstract:
        """A built-in's result, one value or a list's element, by the rule its declaration
        names (lang/builtins.py)."""
        facts = facts_of(name)
        kind = None if facts is None else facts.element if element else facts.scalar
        rule = (_ELEMENT_RULES if element else _SCALAR_RULES).get(kind) if kind is not None else None
        return rule(self, args) if rule is not None else None

    def _extreme(self, args: tuple[ast.Node, ...]) -> Abstract:
        if len(args) == 1:
            return self.element(args[0])
        result: Abstract = EMPTY
        for arg in args:
            result = join(result, self.scalar(arg))
        return result

    def _abs(self, args: tuple[ast.Node, ...]) -> Abstract:
        hull = _hull(self.scalar(args[0]))
        if hull is None or hull.lo is None or hull.hi is None:
            return Ints(0, None)
        low = 0 if hull.lo <= 0 <= hull.hi else min(abs(hull.lo), abs(hull.hi))
        return Ints(low, max(abs(hull.lo), abs(hull.hi)))

    def _between(self, args: tuple[ast.Node, ...]) -> Abstract:
        lo, hi = _hull(self.scalar(args[0])), _hull(self.scalar(args[1]))
        return Ints(lo.lo if lo else None, hi.hi if hi else None)

    def _sum(self, args: tuple[ast.Node, ...]) -> Abstract:
        """A sum of bounded whole numbers over a list whose length the rules fix (a list
        written out, or a comprehension over a constant list): each bound times the
        length (a comprehension's condition may leave items out, so 0 is in too)."""
        items = args[0] if args else None
        count, filtered = None, False
        if isinstance(items, ast.ListExpr):
            count = len(items.items)
        elif isinstance(items, ast.Comprehension):
            source = self.concrete(items.source)
            if source is not None and len(source) == 1 and isinstance(source[0], list | tuple | dict):
                count, filtered = len(source[0]), items.condition is not None
        hull = _hull(self.element(items)) if count is not None and items is not None else None
        if count is None or hull is None or hull.lo is None or hull.hi is None:
            return None
        if filtered:
            return Ints(count * min(hull.lo, 0), count * max(hull.hi, 0))
        return Ints(count * hull.lo, count * hull.hi)

    def _range(self, args: tuple[ast.Node, ...]) -> Abstract:
        if len(args) == 1:
            hi = _hull(self.scalar(args[0]))
            return Ints(0, None if hi is None or hi.hi is None else hi.hi - 1)
        lo, hi = _hull(self.scalar(args[0])), _hull(self.scalar(args[1]))
        return Ints(None if lo is None else lo.lo, None if hi is None or hi.hi is None else hi.hi - 1)

    def _cells(self, args: tuple[ast.Node, ...]) -> Abstract:
        if args and isinstance(args[0], ast.Name):
            board = self.boards.get(args[0].name)
            if board is not None and isinstance(board.get("width"), int) and isinstance(board.get("height"), int):
                return Ints(0, board["width"] * board["height"] - 1)  # the board's cells
        return None

    # -- constants as concrete data: `locations[l].mtype`, `rd_cost[t].cash`

    def concrete(self, node: ast.Node) -> list[Any] | None:
        """Every value a constant-derived expression may be, as data (None: not one)."""
        if isinstance(node, ast.Name):
            if node.name in self.bound or node.name in self.scope or node.name not in self.gd.constants:
                if node.name in self.scope:
                    found: list[Any] = []
                    for assign in self.scope[node.name]:
                        inner = self.concrete(assign.node)
                        if inner is None:
                            return None
                        found += [v for item in inner for v in _members(item)] if assign.element else inner
                    return found
                return None
            return [self.gd.constants[node.name]]
        if isinstance(node, ast.Index):
            base = self.concrete(node.target)
            if base is None:
                return None
            key: Any = node.index.value if isinstance(node.index, ast.Literal) else None
            out: list[Any] = []
            for item in base:
                if isinstance(item, dict):
                    out += [item[key]] if key in item else list(item.values())
                elif isinstance(item, list):
                    out += [item[key]] if _is_int(key) and 0 <= key < len(item) else item
            return out
        if isinstance(node, ast.Attr):
            base = self.concrete(node.target)
            if base is None:
                return None
            return [item[node.name] for item in base if isinstance(item, dict) and node.name in item]
        return None

    # -- helpers

    def _narrow(self, var: str, source: Abstract, condition: ast.Node) -> Abstract:
        """The items of a comprehension that can pass its condition (its `and`ed
        comparisons of the loop variable)."""
        for test in _conjuncts(condition):
            if not isinstance(test, ast.Binary):
                continue
            left, right, op = test.left, test.right, test.op
            if isinstance(right, ast.Name) and right.name == var and not (
                    isinstance(left, ast.Name) and left.name == var):
                left, right = right, left
                op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
            if not (isinstance(left, ast.Name) and left.name == var):
                continue
            if op == "in":
                source = meet(source, self.element(right))
                continue
            other = self.scalar(right)
            if op == "==":
                source = meet(source, other)
                continue
            hull = _hull(other)
            if hull is None:
                continue
            if op == "<" and hull.hi is not None:
                source = meet(source, Ints(None, hull.hi - 1))
            elif op == "<=" and hull.hi is not None:
                source = meet(source, Ints(None, hull.hi))
            elif op == ">" and hull.lo is not None:
                source = meet(source, Ints(hull.lo + 1, None))
            elif op == ">=" and hull.lo is not None:
                source = meet(source, Ints(hull.lo, None))
        return source

    def _counter_of(self, node: ast.Node) -> Any:
        name = node.name if isinstance(node, ast.Name | ast.Call) else None
        if isinstance(node, ast.Index):
            return self._counter_of(node.target)
        return self.counters.get(name) if name is not None and name not in self.scope else None

    def _call_function(self, node: ast.Call, element: bool) -> Abstract:
        spec = self.functions[node.name]
        if node.name in self._calls:
            return None  # recursion is refused at load; never loop here
        params = [str(p) for p in spec.get("params") or ()]
        inner = self.in_program({})
        inner._calls = self._calls | {node.name}
        inner.bound = {p: self.scalar(a) for p, a in zip(params, node.args, strict=False)}
        return inner._expr_text(spec.get("value"), element)

    def _expr_text(self, text: Any, element: bool) -> Abstract:
        """A value or function body given as text (or a bare YAML scalar)."""
        if not isinstance(text, str):
            return Values(frozenset({text})) if _is_scalar(text) and not element else None
        try:
            node = parse_expression(text)
        except Exception:  # the game was checked at load; a text that fails here is not ours
            return None
        return self.element(node) if element else self.scalar(node)


# The abstract value of a built-in's result by the kind its declaration names
# (lang/builtins.py): read as one value, and as a list's element.
_Rule = Callable[[Analyzer, tuple[ast.Node, ...]], Abstract]
_SCALAR_RULES: dict[str, _Rule] = {
    "nat": lambda a, args: Ints(0, None),
    "index": lambda a, args: Ints(-1, None),
    "bool": lambda a, args: BOOLS,
    "players": lambda a, args: a.players,
    "cards": lambda a, args: CARDS if len(args) == 1 else None,  # top(deck, 2) is a list
    "extreme": Analyzer._extreme,
    "abs": Analyzer._abs,
    "select": lambda a, args: join(a.scalar(args[1]), a.scalar(args[2])),
    "between": Analyzer._between,
    "sum": Analyzer._sum,
    "of_arg": lambda a, args: a.element(args[0]),
}
_ELEMENT_RULES: dict[str, _Rule] = {
    "players": lambda a, args: a.players,
    "cards": lambda a, args: CARDS,
    "select": lambda a, args: join(a.element(args[1]), a.element(args[2])),
    "of_arg": lambda a, args: a.element(args[0]) if args else None,
    "range": Analyzer._range,
    "cells": Analyzer._cells,
}


def _conjuncts(node: ast.Node) -> Iterator[ast.Node]:
    if isinstance(node, ast.Binary) and node.op == "and":
        yield from _conjuncts(node.left)
        yield from _conjuncts(node.right)
    else:
        yield node


def _members(item: Any) -> list[Any]:
    if isinstance(item, dict):
        return list(item.values())
    if isinstance(item, list):
        return item
    return [item]


def _scalars_of(found: list[Any]) -> Abstract:
    if not all(_is_scalar(v) for v in found):
        return None
    return Values(frozenset(found))


def _widen(old: Abstract, new: Abstract) -> Abstract:
    """A guess that grew is let go to the end it grew towards."""
    if old == EMPTY or old is None or new is None:
        return new
    ho, hn = _hull(old), _hull(new)
    if ho is None or hn is None:
        return None
    lo = hn.lo if ho.lo is not None and hn.lo is not None and hn.lo >= ho.lo else None
    hi = hn.hi if ho.hi is not None and hn.hi is not None and hn.hi <= ho.hi else None
    return Ints(lo, hi)


def _section(raw: dict[str, Any], name: str) -> dict[str, Any]:
    value = raw.get(name)
    return value if isinstance(value, dict) else {}
