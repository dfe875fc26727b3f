"""Templates: text with `{expression}` parts (log lines, labels, prompts, views).

A template compiles to a list of strings and `TemplatePart`s (compiled expression,
type, and the names it reads); the
runtime renders it for people (`present.render_template`). Statements that write one
on every run (log, show, a choice's prompt) use `template_source` instead: the same
text as one generated Python expression (a tree), with numbers, texts and players
written out inline and other values rendered by `present.people_text`.
"""

from __future__ import annotations

import ast as py
import functools
from typing import Any

from interpreter.compile.expressions import Context, compile_expr
from interpreter.compile.pyast import E, lit
from interpreter.compile.pysource import Emitter
from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, parse_expression
from interpreter.lang.symbols import CompileError
from interpreter.model.definitions import TemplatePart
from interpreter.runtime.present import people_text

# The types whose values are written inline (see _inline), the same text as people_text gives.
_INLINE = ("int", "str", "any", "player")


def compile_template(text: str, ctx: Context) -> list[Any]:
    """Split "text {expr} text" into strings and TemplateParts.
    Errors are CompileErrors at their line and column within `text`."""
    parts: list[Any] = []
    at = 0
    while True:
        opening = text.find("{", at)
        if opening < 0:
            break
        closing = text.find("}", opening)
        line = text.count("\n", 0, opening) + 1
        column = opening - (text.rfind("\n", 0, opening) + 1) + 1
        if closing < 0:
            raise CompileError(_At(line, column), "syntax", "a '{' in the text is not closed with '}'")
        parts.append(text[at:opening])
        inner = text[opening + 1:closing]
        try:
            node = parse_expression(inner)
            fn, type_ = compile_expr(node, ctx)
            names = frozenset(n.name for n in ast.walk([node]) if isinstance(n, ast.Name | ast.Call))
            parts.append(TemplatePart(fn, type_, node.name if isinstance(node, ast.Name) else None, names))
        except EffectSyntaxError as err:
            raise CompileError(_At(line, column + err.column), "syntax", err.message, err.hint) from None
        except CompileError as err:
            err.line, err.column = line, column + err.column
            raise
        at = closing + 1
    parts.append(text[at:])
    return parts


class _At:
    """A position for a CompileError that has no node."""

    def __init__(self, line: int, column: int):
        self.line, self.column = line, column


def template_source(parts: list[Any], em: Emitter) -> py.expr:
    """A Python expression over `st` and `env` giving the text `render_template` would."""
    out = []
    for part in parts:
        if isinstance(part, str):
            if part:
                out.append(lit(part))
            continue
        fn, type_ = part.fn, part.type
        value = em.inline(fn, "template")
        if type_ not in _INLINE:
            out.append(E("{people_text}(st, {x}, {type})", people_text=em.const(people_text, "people_text"), x=value,
                         type=lit(type_)))
            continue
        t = em.fresh("t")
        slow = E("{people_text}(st, {t}, {type})", people_text=em.const(people_text, "people_text"), t=t,
                 type=lit(type_))
        out.append(_inline(type_, t, value, slow))
    if not out:
        return lit("")
    return functools.reduce(lambda left, right: py.BinOp(left, py.Add(), right), out)


def _inline(type_: str, t: py.Name, x: py.expr, slow: py.expr) -> py.expr:
    """The value `x` of a type written inline (`t` the value, computed once; `slow` the
    general rendering)."""
    if type_ == "int":
        return E("str({t}) if type({t} := {x}) is int else {slow}", t=t, x=x, slow=slow)
    if type_ == "player":
        return E("'P' + str({t} + 1) if type({t} := {x}) is int else {slow}", t=t, x=x, slow=slow)
    return E("{t} if type({t} := {x}) is str else {slow}", t=t, x=x, slow=slow)  # (a text, or any value)
