"""Arithmetic on exact numbers: `/`, `//`, and keeping fractions normal.

Numbers are whole (int) or exact fractions (interpreter/numbers.py). A game can only
have fractions if its text makes one: a decimal literal that is not whole (`0.5`), or
`/` in a rule file of format 2, where it divides exactly (in format 1 it divides whole
numbers rounding toward zero, as those files were written for). `fractions_used` finds
that out before anything compiles, from every text of the rules that can hold such a
number. A game without fractions gets the very code it always had. In one with them,
the results of `+`, `-`, `*`, `%` and `sum` are made normal as they are made (a whole
fraction becomes an int, a long one is a rule error), so that a value that is whole is
always an int: it indexes a list, counts a loop and fills a counter like any other.
"""

from __future__ import annotations

import ast as py
import contextlib
import functools
from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from interpreter.compile.pyast import E
from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, parse_expression, parse_program
from interpreter.numbers import divide, exact, exact_division, normal, truncating_divide, whole_divide

if TYPE_CHECKING:
    from interpreter.compile.expressions import Context

_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")
_DIGITS = frozenset("0123456789")


def fractions_used(data: dict[str, Any]) -> bool:
    """Whether some text of the rules may make a fraction: a non-whole decimal literal
    (or constant), or in format 2 a `/`. Only texts that show one are parsed (labels and names that
    show a decimal but are no rule text parse to nothing, or to text that is none)."""
    exact_div = exact_division(data)
    if isinstance(data.get("constants"), dict) and _has_decimal(data["constants"]):
        return True
    for text in _strings(data):
        if not (_has_decimal_text(text) or (exact_div and "/" in text.replace("//", ""))):
            continue
        for part in (text, *_template_parts(text)):
            if _makes_fraction(part, exact_div):
                return True
    return False


def _has_decimal_text(text: str) -> bool:
    """Whether `text` shows a decimal with a digit other than 0 after its point (`0.5`,
    not `2.0`): digits, not right after a letter, digit, `_` or `.`, then a point, then
    digits of which one is not 0."""
    at = text.find(".")
    while at >= 0:
        start = at
        while start > 0 and text[start - 1] in _DIGITS:
            start -= 1
        if start < at and (start == 0 or text[start - 1] not in _WORD):
            end = at + 1
            while end < len(text) and text[end] in _DIGITS:
                end += 1
            if text[at + 1:end].strip("0"):
                return True
        at = text.find(".", at + 1)
    return False


def _template_parts(text: str) -> list[str]:
    """The text inside each `{...}` of `text` that holds no other brace."""
    parts = []
    closing = text.find("}")
    while closing >= 0:
        opening = text.rfind("{", 0, closing)
        if opening >= 0 and "}" not in text[opening + 1:closing]:
            parts.append(text[opening + 1:closing])
        closing = text.find("}", closing + 1)
    return parts


def exact_constants(constants: dict[str, Any]) -> dict[str, Any]:
    """The game's constants with every decimal (a YAML float: `rate: 0.25`) as the exact
    number it is written as (1/4; `2.0` is 2), as a decimal in effect text is."""
    def exact_value(value: Any) -> Any:
        if type(value) is float:
            return exact(Fraction(repr(value)))
        if isinstance(value, list):
            return [exact_value(v) for v in value]
        if isinstance(value, dict):
            return {k: exact_value(v) for k, v in value.items()}
        return value
    return {name: exact_value(value) for name, value in constants.items()}


def _has_decimal(value: Any) -> bool:
    """Whether a constant holds a decimal that is not whole (`0.25`)."""
    if type(value) is float:
        return not value.is_integer()
    if isinstance(value, list | dict):
        return any(_has_decimal(v) for v in (value.values() if isinstance(value, dict) else value))
    return False


def _strings(value: Any) -> Iterator[str]:
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            todo.extend(v for k, v in item.items() if k not in ("version", "description"))
        elif isinstance(item, list):
            todo.extend(item)


@functools.lru_cache(maxsize=4096)
def _makes_fraction(text: str, exact_div: bool) -> bool:
    """Whether the text parses to rule text that makes a fraction (cached: a label that
    parses to nothing would be parsed again at every load)."""
    roots: tuple[ast.Node, ...] | None = None
    try:
        roots = (parse_expression(text),)
    except EffectSyntaxError:
        with contextlib.suppress(EffectSyntaxError):
            roots = parse_program(text)
    for node in ast.walk(roots or ()):
        if isinstance(node, ast.Literal) and type(node.value) is Fraction:
            return True
        if exact_div and isinstance(node, ast.Binary) and node.op == "/":
            return True
    return False


def divided(op: str, left: py.expr, right: py.expr, ctx: Context) -> py.expr:
    """The code of `left / right` or `left // right`."""
    if op == "//":
        return E("{wdiv}({a}, {b})", wdiv=ctx.const(whole_divide, "wdiv"), a=left, b=right)
    how = divide if ctx.symbols.exact_division else truncating_divide
    return E("{div}({a}, {b})", div=ctx.const(how, "div"), a=left, b=right)


def normalised(src: py.expr, ctx: Context) -> py.expr:
    """`src`, a number made by arithmetic, made normal in a game with fractions; as it
    is in one without (the hot path of whole-number games pays nothing)."""
    if not ctx.symbols.fractions:
        return src
    if ctx.in_iterable:  # (where Python allows no `:=`)
        return E("{normal}({src})", normal=ctx.const(normal, "normal"), src=src)
    t = ctx.emitter.fresh("q")
    return E("{t} if type({t} := {src}) is not {fraction} else {exact}({t})", t=t, src=src,
             fraction=ctx.const(Fraction, "Fraction"), exact=ctx.const(exact, "exact"))
