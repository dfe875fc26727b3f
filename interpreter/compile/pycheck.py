"""The gate every piece of generated Python passes before it is compiled: its syntax
tree is checked against what the code generator is known to build.

Rule files are downloaded from strangers, so rule text must never become code. The
generator is built so that it cannot: it writes no text at all, only syntax trees
filled from its own templates (compile/pyast.py), where names of the effect language
are mangled identifiers (`_l_NAME`, checked by `pysource.local_name`) or `env['NAME']`
keys held as constants, and every other rule text is a constant node. This module
makes that a property checked on every tree rather than a promise kept at each of the
generator's call sites: a tree is refused (`UnsafeSource`, an internal error of the
compiler) unless

- its shape is what the emitter asked for: one `lambda st, env: ...` expression, or one
  module-level `def NAME(...)` and nothing else;
- every node is of a kind the generator builds (no import, class, global, yield,
  await, f-string, ...);
- every name is a plain identifier that never starts with two underscores; and
- every attribute read or written is one of the state's and its records' fields that
  generated code uses (`GENERATED_ATTRIBUTES`). No dunder (`__class__`, `__globals__`,
  `__subclasses__`) and no introspection attribute (`gi_frame`, `f_globals`,
  `format`) is among them, so none of the known escapes from a restricted namespace
  (`().__class__.__base__.__subclasses__()`, a function's `__globals__`, a generator's
  frame) can be written, whatever the namespace holds.

It also refuses a tree nested deeper than Python compiles (`SourceTooDeep`: the rule
text must be split). What is checked is the very tree that is compiled.
"""

from __future__ import annotations

import ast
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

# The kinds of node that have a position in the source (statements, expressions, ...).
_PLACED = frozenset(kind for kind in _ALLOWED_NODES if "lineno" in kind._attributes)

# A name generated code may use: a generated one (`_k12`, `_l_cell`, `_check_end_turn`),
# a parameter (`st`, `env`, `fr`, `me`) or an allowed built-in; never two underscores first.
_CONSTANT_TYPES = (str, int, float, bool, type(None))


# Python's compiler gives up at some depth of recursion; generated code nests a few
# nodes per level of the rule text, so a tree nested deeper is refused here, as the
# rule's error, first.
MAX_DEPTH = 400


class UnsafeSource(Exception):
    """Generated code that the generator should never have built (a compiler bug, or
    rule text that got past it): it is not compiled."""


class SourceTooDeep(Exception):
    """Generated code nested too deeply for Python to compile: the rule text it was
    made of must be split (a rule's error, not the compiler's)."""


# Subtrees checked already, by id, with their height (and the node, which keeps the
# id its own): generated trees share subtrees (an expression inlined in several
# functions, an operation's statements in each run fused with it), and a tree is never
# changed once built, so a subtree checked once is checked. One per emitter (a game).
Checked = dict[int, tuple[ast.AST, int]]


def check_lambda(tree: ast.Expression, checked: Checked | None = None) -> ast.Expression:
    """Refuse `tree` unless it is `lambda st, env: EXPR` built only of allowed parts."""
    fn = tree.body
    if not isinstance(fn, ast.Lambda) or [a.arg for a in fn.args.args] != ["st", "env"] or _has_extras(fn.args):
        raise UnsafeSource("an expression's code is not one `lambda st, env:`")
    _check(tree, 0, {} if checked is None else checked)
    return tree


def check_definition(tree: ast.Module, name: str, checked: Checked | None = None) -> ast.Module:
    """Refuse `tree` unless it is one `def name(...)` built only of allowed parts."""
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef) or tree.body[0].name != name:
        raise UnsafeSource(f"generated code for {name!r} is not one function definition")
    _check(tree, 0, {} if checked is None else checked)
    return tree


def _has_extras(args: ast.arguments) -> bool:
    return bool(args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg or args.defaults)


def _check(node: ast.AST, depth: int, checked: Checked) -> int:
    """Check `node` and what it holds, and give each node the position `compile`
    needs (trees are built without positions: generated code has no lines of its own
    to point at); the height of the subtree."""
    known = checked.get(id(node))
    if known is not None:
        height = known[1]
    else:
        kind = type(node)
        if kind not in _ALLOWED_NODES:
            raise UnsafeSource(f"generated code holds a {kind.__name__} node")
        check = _NODE_CHECKS.get(kind)  # (most kinds have nothing more to check: one look-up)
        if check is not None:
            check(node)
        if kind in _PLACED:
            node.lineno = node.end_lineno = 1  # type: ignore[attr-defined]
            node.col_offset = node.end_col_offset = 0  # type: ignore[attr-defined]
        if depth >= MAX_DEPTH:  # (before going deeper: Python's own stack is not endless either)
            raise SourceTooDeep(f"the code made of it nests more than {MAX_DEPTH} deep")
        below = 0
        for field in kind._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        below = max(below, _check(item, depth + 1, checked))
            elif isinstance(value, ast.AST):
                below = max(below, _check(value, depth + 1, checked))
        height = below + 1
        checked[id(node)] = (node, height)
    if depth + height > MAX_DEPTH:
        raise SourceTooDeep(f"the code made of it nests more than {MAX_DEPTH} deep")
    return height


def _attribute(node: ast.Attribute) -> None:
    if node.attr not in GENERATED_ATTRIBUTES:
        raise UnsafeSource(f"generated code reads attribute {node.attr!r}")


def _name(node: ast.Name) -> None:
    _check_name(node.id)


def _arg(node: ast.arg) -> None:
    _check_name(node.arg)
    if node.annotation is not None:
        raise UnsafeSource("generated code annotates an argument")


def _function(node: ast.FunctionDef) -> None:
    _check_name(node.name)
    if node.decorator_list or node.returns is not None or _has_extras(node.args):
        raise UnsafeSource("generated code decorates or annotates a function")


def _keyword(node: ast.keyword) -> None:
    if node.arg is None:
        raise UnsafeSource("generated code passes **keywords")
    _check_name(node.arg)


def _handler(node: ast.ExceptHandler) -> None:
    if node.name is not None:
        _check_name(node.name)


def _constant(node: ast.Constant) -> None:
    if type(node.value) not in _CONSTANT_TYPES:
        raise UnsafeSource(f"generated code holds a {type(node.value).__name__} literal")


_NODE_CHECKS: dict[type[ast.AST], Callable[[Any], None]] = {
    ast.Attribute: _attribute, ast.Name: _name, ast.arg: _arg, ast.FunctionDef: _function,
    ast.keyword: _keyword, ast.ExceptHandler: _handler, ast.Constant: _constant,
}


def name_ok(name: str) -> bool:
    """Whether `name` may be a name in generated code: ASCII letters, digits and `_`,
    at most one `_` first, then a letter."""
    body = name[1:] if name[:1] == "_" else name
    return body[:1].isalpha() and body.isascii() and body.replace("_", "a").isalnum()


_NAMES_OK: set[str] = set()  # names checked already (the same few thousand recur)


def _check_name(name: str) -> None:
    if name in _NAMES_OK:
        return
    if not name_ok(name):
        raise UnsafeSource(f"generated code uses the name {name!r}")
    _NAMES_OK.add(name)
