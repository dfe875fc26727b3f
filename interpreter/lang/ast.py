"""The typed syntax tree of the effect language, with positions.

The parser (parser.py) turns effect text into these nodes; the compiler (compiler.py)
type-checks them and turns them into executable operations. Every node keeps the line
and column of its first character *within the effect text*, so diagnostics can be
mapped to the YAML file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs


def walk(roots: Iterable[Any]) -> list[Node]:
    """Every node of the trees under `roots` (nodes, or tuples of them), each before the
    nodes under it, in the order written. Iterative: effect text may nest deeply."""
    out: list[Node] = []
    todo: list[Any] = list(roots)[::-1]
    while todo:
        item = todo.pop()
        if isinstance(item, Node):
            out.append(item)
            todo.extend(getattr(item, field.name) for field in reversed(item.__attrs_attrs__))  # type: ignore[attr-defined]
        elif isinstance(item, tuple | list):
            todo.extend(reversed(item))
    return out


def statements(body: Iterable[Any]) -> list[Statement]:
    """Every statement of a program, nested bodies included, each before the statements
    under it, in the order written; expressions are never looked into (none holds a
    statement). The one walk over statements: a new statement kind with a body needs
    nothing here."""
    out: list[Statement] = []
    todo: list[Any] = list(body)[::-1]
    while todo:
        item = todo.pop()
        if isinstance(item, Expression):
            continue
        if isinstance(item, Node):
            if isinstance(item, Statement):
                out.append(item)
            todo.extend(getattr(item, field.name) for field in reversed(item.__attrs_attrs__))  # type: ignore[attr-defined]
        elif isinstance(item, tuple | list):
            todo.extend(reversed(item))
    return out


def children(node: Node) -> list[Node]:
    """The nodes directly under `node`, in the order written."""
    out: list[Node] = []
    todo: list[Any] = [getattr(node, field.name) for field in reversed(node.__attrs_attrs__)]  # type: ignore[attr-defined]
    while todo:
        item = todo.pop()
        if isinstance(item, Node):
            out.append(item)
        elif isinstance(item, tuple | list):
            todo.extend(reversed(item))
    return out


@attrs.frozen
class Node:
    line: int
    column: int


@attrs.frozen
class Expression(Node):
    """A node that gives a value (holds no statement)."""


@attrs.frozen
class Statement(Node):
    """A node that does something; some hold bodies of statements (`if`, loops,
    `choose one`'s options)."""


# ---- expressions -------------------------------------------------------------------


@attrs.frozen
class Literal(Expression):
    value: object


@attrs.frozen
class Name(Expression):
    name: str


@attrs.frozen
class ListExpr(Expression):
    items: tuple[Node, ...]


@attrs.frozen
class Comprehension(Expression):
    element: Node
    var: str
    source: Node
    condition: Node | None
    # `for a, b in L`: each item is unpacked into these names (`var` is then a name no
    # rule can write, holding the whole item)
    unpack: tuple[str, ...] = ()


@attrs.frozen
class Attr(Expression):
    target: Node
    name: str


@attrs.frozen
class Index(Expression):
    target: Node
    index: Node


@attrs.frozen
class Call(Expression):
    name: str
    args: tuple[Node, ...]


@attrs.frozen
class Unary(Expression):
    op: str  # "not" or "-"
    operand: Node


@attrs.frozen
class Binary(Expression):
    op: str  # + - * / % == != < <= > >= in notin and or
    left: Node
    right: Node


# ---- statements ----------------------------------------------------------------------


@attrs.frozen
class Let(Statement):
    name: str
    value: Node


@attrs.frozen
class Set(Statement):
    target: Node
    value: Node


@attrs.frozen
class Change(Statement):
    verb: str  # gain, lose, pay
    amount: Node
    target: Node


@attrs.frozen
class Move(Statement):
    cards: Node
    zone: Node
    place: str  # "top" or "bottom"


@attrs.frozen
class Draw(Statement):
    count: Node
    source: Node
    dest: Node


@attrs.frozen
class ZoneStmt(Statement):
    verb: str  # shuffle
    zone: Node


@attrs.frozen
class CardsStmt(Statement):
    verb: str  # destroy, reveal
    cards: Node


@attrs.frozen
class RevealTo(Statement):
    """`reveal CARDS to PLAYERS`: the cards become visible to those players only."""

    cards: Node
    players: Node


@attrs.frozen
class Show(Statement):
    """`show "TEXT" to PLAYERS`: a line (a template, like log's) only those players read."""

    text: str
    players: Node


@attrs.frozen
class Create(Statement):
    count: Node
    card_id: str
    zone: Node


@attrs.frozen
class Choose(Statement):
    var: str
    options: Node
    by: Node | None
    prompt: str | None
    up_to: Node | None  # None: exactly one; else pick up to this many, one at a time


@attrs.frozen
class Option(Node):
    label: str
    condition: Node | None
    body: tuple[Node, ...]


@attrs.frozen
class ChooseOne(Statement):
    by: Node | None
    prompt: str | None
    options: tuple[Option, ...]


@attrs.frozen
class TakeActions(Statement):
    group: str
    player: Node | None  # `for P`; with `simultaneously`, `for LIST` (a list of players)
    simultaneous: bool = False


@attrs.frozen
class CallStmt(Statement):
    name: str
    args: tuple[Node, ...]


@attrs.frozen
class Use(Statement):
    card: Node
    effect: str


@attrs.frozen
class Emit(Statement):
    event: str
    args: tuple[Node, ...]


@attrs.frozen
class Grant(Statement):
    modifier: str
    player: Node
    duration: str


@attrs.frozen
class EndGame(Statement):
    winners: Node | None


@attrs.frozen
class EndTurn(Statement):
    """`end turn`: the turn's actions end once this action is done (as `ends: turn`)."""


@attrs.frozen
class Log(Statement):
    text: str


@attrs.frozen
class Stop(Statement):
    pass


@attrs.frozen
class If(Statement):
    branches: tuple[tuple[Node, tuple[Node, ...]], ...]  # (condition, body)
    orelse: tuple[Node, ...]


@attrs.frozen
class ForEach(Statement):
    var: str
    source: Node
    body: tuple[Node, ...]
    unpack: tuple[str, ...] = ()  # as in Comprehension


@attrs.frozen
class Repeat(Statement):
    count: Node | None  # None: forever
    body: tuple[Node, ...]


@attrs.frozen
class While(Statement):
    condition: Node
    body: tuple[Node, ...]


@attrs.frozen
class Turn(Statement):
    player: Node
    body: tuple[Node, ...]


@attrs.frozen
class Round(Statement):
    body: tuple[Node, ...]
