"""The gate every piece of generated Python passes before it is compiled: its syntax
tree is checked against what the code generator is known to write.

Rule files are downloaded from strangers, so rule text must never become code. The
generator is written so that it cannot: names of the effect language reach generated
source only as mangled identifiers (`_l_NAME`, checked by `pysource.local_name`) or as
`env['NAME']` keys written with `repr`, every other rule text only as a `repr`'d
literal, and comments carry none. This module makes that a property checked on every
source rather than a promise kept at each of the generator's call sites: a source is
refused (`UnsafeSource`, an internal error of the compiler) unless

- its shape is what the emitter asked for: one `lambda st, env: ...` expression, or one
  module-level `def NAME(...)` and nothing else (text smuggled past a line break would
  be a statement of its own);
- every node is of a kind the generator writes (no import, class, global, yield,
  await, f-string, ...);
- every name is a plain identifier that never starts with two underscores; and
- every attribute read or written is one of the state's and its records' fields that
  generated code uses (`GENERATED_ATTRIBUTES`). No dunder (`__class__`, `__globals__`,
  `__subclasses__`) and no introspection attribute (`gi_frame`, `f_globals`,
  `format`) is among them, so none of the known escapes from a restricted namespace
  (`().__class__.__base__.__subclasses__()`, a function's `__globals__`, a generator's
  frame) can be written, whatever the namespace holds.

Why a check of the tree and not of the text: a tree has no comments, no string
escapes and no line continuations to hide behind; what is checked is what runs.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

# The fields of the state, its frames and records that generated code reads or writes
# (compile/*.py writes every one of them; rule text never names an attribute). A new
# template that reads another field adds it here; nothing that reaches the interpreter
# (dunders, frames, code objects, str.format) may ever be added.
GENERATED_ATTRIBUTES = frozenset({
    "_orrery_op",  # runtime.loop.ERROR_AT: which fused operation raised
    # compile/board_functions.py: a board's methods, called on a bound Board
    "cell", "cells", "column", "directions", "lines", "neighbors", "ray", "row", "step",
    "active", "add", "append", "attrs", "bots", "card_def", "cards",
    "counters", "effects", "ending", "ending_reason", "env", "explicit", "gd", "get", "grants",
    "layout", "log", "memo", "modifier", "n", "pc", "player", "players", "pop", "queue",
    "revealed", "round_no", "seat", "seats", "setdefault", "stack", "stop_turn",
    "terminal", "text", "turn_no", "unordered", "until", "update", "uses", "work", "zbase", "zones",
})

# The kinds of node the generator writes. Absent on purpose: Import, ImportFrom, Global,
# Nonlocal, ClassDef, the async forms, Await, Yield, YieldFrom, JoinedStr (an f-string's
# format spec is another language), With, Match, decorators, annotations.
_ALLOWED_NODES: frozenset[type[ast.AST]] = frozenset({
    ast.Module, ast.Expression, ast.FunctionDef, ast.Lambda, ast.arguments, ast.arg, ast.keyword,
    ast.Assign, ast.AugAssign, ast.Delete, ast.Expr, ast.Return, ast.Pass, ast.Break, ast.Continue,
    ast.If, ast.For, ast.While, ast.Try, ast.ExceptHandler, ast.Raise, ast.Assert,
    ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.NamedExpr, ast.Call,
    ast.Attribute, ast.Subscript, ast.Slice, ast.Starred, ast.Name, ast.Constant,
    ast.List, ast.Tuple, ast.Dict, ast.Set,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.comprehension,
    ast.Load, ast.Store, ast.Del,
    ast.And, ast.Or, ast.Not, ast.USub, ast.UAdd, ast.Invert,
    ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Div, ast.Mod, ast.Pow,
    ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
})

# A name generated code may use: a generated one (`_k12`, `_l_cell`, `_check_end_turn`),
# a parameter (`st`, `env`, `fr`, `me`) or an allowed built-in; never two underscores first.
_NAME = re.compile(r"\A_?[A-Za-z][A-Za-z0-9_]*\Z")
_CONSTANT_TYPES = (str, int, float, bool, type(None))


# Python's own parser gives up at 200 nested brackets ("too many nested parentheses")
# and its compiler at some depth of recursion; generated source nests a few brackets per
# level of the rule text, so deep text is refused here, as the rule's error, first.
MAX_BRACKETS = 150


class UnsafeSource(Exception):
    """Generated source that the generator should never have written (a compiler bug,
    or rule text that got past it): it is not compiled."""


class SourceTooDeep(Exception):
    """Generated source nested too deeply for Python to compile: the rule text it was
    made of must be split (a rule's error, not the compiler's)."""


def check_depth(source: str) -> None:
    """Refuse source whose brackets nest deeper than MAX_BRACKETS (outside its text
    literals, which generated code writes with `repr`: quoted, backslash escapes)."""
    depth = deepest = 0
    quote = ""
    escaped = False
    for char in source:
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in ")]}":
            depth -= 1
    if deepest > MAX_BRACKETS:
        raise SourceTooDeep(f"the code made of it nests {deepest} brackets deep (at most {MAX_BRACKETS})")


def check_expression(source: str) -> ast.Expression:
    """Refuse `source` unless it is `lambda st, env: EXPR` written only of allowed parts;
    its syntax tree, checked (what is compiled: the source is not parsed twice)."""
    tree = _parse(source, "eval")
    assert isinstance(tree, ast.Expression)
    fn = tree.body
    if not isinstance(fn, ast.Lambda) or [a.arg for a in fn.args.args] != ["st", "env"] or _has_extras(fn.args):
        raise UnsafeSource("an expression's source is not one `lambda st, env:`")
    _check_nodes(tree)
    return tree


def check_definition(source: str, name: str) -> ast.Module:
    """Refuse `source` unless it is one `def name(...)` written only of allowed parts;
    its syntax tree, checked."""
    tree = _parse(source, "exec")
    assert isinstance(tree, ast.Module)
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef) or tree.body[0].name != name:
        raise UnsafeSource(f"generated source for {name!r} is not one function definition")
    _check_nodes(tree)
    return tree


def _parse(source: str, mode: str) -> ast.AST:
    check_depth(source)
    try:
        return ast.parse(source, "<orrery generated>", mode)
    except (RecursionError, MemoryError):
        raise SourceTooDeep("the code made of it nests too deeply for Python") from None
    except (SyntaxError, ValueError) as err:
        raise UnsafeSource(f"generated source does not parse: {err}") from None


def _has_extras(args: ast.arguments) -> bool:
    return bool(args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults)


def _check_nodes(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        kind = type(node)
        if kind not in _ALLOWED_NODES:
            raise UnsafeSource(f"generated source holds a {kind.__name__} node")
        check = _NODE_CHECKS.get(kind)  # (most kinds have nothing more to check: one look-up)
        if check is not None:
            check(node)


def _attribute(node: ast.Attribute) -> None:
    if node.attr not in GENERATED_ATTRIBUTES:
        raise UnsafeSource(f"generated source reads attribute {node.attr!r}")


def _name(node: ast.Name) -> None:
    _check_name(node.id)


def _arg(node: ast.arg) -> None:
    _check_name(node.arg)
    if node.annotation is not None:
        raise UnsafeSource("generated source annotates an argument")


def _function(node: ast.FunctionDef) -> None:
    _check_name(node.name)
    if node.decorator_list or node.returns is not None or _has_extras(node.args):
        raise UnsafeSource("generated source decorates or annotates a function")


def _keyword(node: ast.keyword) -> None:
    if node.arg is None:
        raise UnsafeSource("generated source passes **keywords")
    _check_name(node.arg)


def _handler(node: ast.ExceptHandler) -> None:
    if node.name is not None:
        _check_name(node.name)


def _constant(node: ast.Constant) -> None:
    if type(node.value) not in _CONSTANT_TYPES:
        raise UnsafeSource(f"generated source holds a {type(node.value).__name__} literal")


_NODE_CHECKS: dict[type[ast.AST], Callable[[Any], None]] = {
    ast.Attribute: _attribute, ast.Name: _name, ast.arg: _arg, ast.FunctionDef: _function,
    ast.keyword: _keyword, ast.ExceptHandler: _handler, ast.Constant: _constant,
}


def _check_name(name: str) -> None:
    if not _NAME.match(name):
        raise UnsafeSource(f"generated source uses the name {name!r}")
