"""Templates: text with `{expression}` parts (log lines, labels, prompts, views).

A template compiles to a list of strings and (compiled expression, type) pairs; the
runtime renders it for people (`present.render_template`).
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.expressions import Context, compile_expr
from interpreter.lang.parser import EffectSyntaxError, parse_expression
from interpreter.lang.symbols import CompileError


def compile_template(text: str, ctx: Context) -> list[Any]:
    """Split "text {expr} text" into strings and (compiled expression, type) pairs.
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
            parts.append(compile_expr(parse_expression(inner), ctx))
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
