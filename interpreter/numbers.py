"""Exact numbers of the effect language: whole numbers (int) and exact fractions.

A rule's number is an `int`, or a `fractions.Fraction` when it is not whole: every
operation that can make a fraction (`/`, a decimal written in the rules) gives an int
back when the result is whole, so whole-number games see only ints, as fast as before,
and a fraction is never a Fraction equal to an int. A fraction prints as `7/2` (`-1/2`),
exactly as it may be written in the rules; saves keep it as `{"$fraction": "7/2"}` and
read it back exactly. Numerators and denominators are bounded (MAX_FRACTION_DIGITS):
dividing again and again would otherwise grow them without end.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_FRACTION_DIGITS

FRACTION_KEY = "$fraction"  # a fraction in a save: {"$fraction": "7/2"}
_BOUND = 10 ** MAX_FRACTION_DIGITS


def exact_division(data: dict[str, Any]) -> bool:
    """Whether `/` divides exactly in rules whose merged data is `data`: in files of
    format 2 (`orrery: 2`) and later; in format 1, `/` of whole numbers rounds toward zero."""
    version = data.get("orrery")
    return not (isinstance(version, int) and version < 2)


def exact(value: Fraction) -> int | Fraction:
    """A fraction as the language keeps it: an int when whole, else bounded."""
    if value.denominator == 1:
        return value.numerator
    if not -_BOUND < value.numerator < _BOUND or value.denominator >= _BOUND:
        raise RuleRuntimeError(f"a fraction with more than {MAX_FRACTION_DIGITS} digits above or below "
                               "the line (dividing again and again?)", code="limit")
    return value


def normal(value: Any) -> Any:
    """A value made by arithmetic, a fraction made normal (anything else as it is)."""
    return exact(value) if type(value) is Fraction else value


def divide(a: Any, b: Any) -> int | Fraction:
    """`a / b`, exact: 7 / 2 is 7/2, 6 / 3 is 2. Division by zero raises ZeroDivisionError
    (the caller's rule error names the place)."""
    if type(a) is int and type(b) is int:
        if b and a % b == 0:
            return a // b
        return exact(Fraction(a, b))
    return exact(Fraction(_number(a)) / _number(b))


def whole_count(value: Any, what: str) -> Any:
    """`value` where a whole number is needed (`repeat N`, `range`): a fraction there is
    a rule error saying so, never a Python TypeError nor a count silently rounded."""
    if type(value) is Fraction:
        raise RuleRuntimeError(f"{what} takes a whole number, not {value} (round it down with x // 1)",
                               code="type")
    return value


def whole_divide(a: Any, b: Any) -> int:
    """`a // b`: the quotient rounded down (toward minus infinity, as `%` is its
    remainder: 7 // 2 is 3, -7 // 2 is -4)."""
    return int(_number(a) // _number(b))


def truncating_divide(a: Any, b: Any) -> int | Fraction:
    """`/` in rule files of format 1: whole numbers divided and rounded toward zero (7 / 2
    is 3, -7 / 2 is -3), as those files were written for; a fraction divides exactly."""
    if type(a) is int and type(b) is int:
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q
    return divide(a, b)


def arithmetic(op: str, a: Any, b: Any, exact_div: bool) -> int | Fraction:
    """`a op b` of two numbers as the rules work it out (+ - * / // %), normal."""
    if op == "/":
        return divide(a, b) if exact_div else truncating_divide(a, b)
    if op == "//":
        return whole_divide(a, b)
    if op == "+":
        return normal(a + b)
    if op == "-":
        return normal(a - b)
    if op == "*":
        return normal(a * b)
    if op == "%":
        return normal(a % b)
    raise ValueError(f"not an arithmetic operator: {op}")


def _number(value: Any) -> int | Fraction:
    if type(value) is int or type(value) is Fraction:
        return value
    if type(value) is bool:
        return int(value)
    raise TypeError(f"'/' needs numbers, got {show(value)}")


def show(value: Any) -> str:
    """A value as people read it: a fraction as 7/2, anything else as Python shows it."""
    return str(value) if type(value) is Fraction else repr(value)


def encode(value: Any) -> Any:
    """`json.dumps`'s `default`: a fraction as {"$fraction": "7/2"}; called for nothing else."""
    if type(value) is Fraction:
        return {FRACTION_KEY: str(value)}
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def decode(obj: dict[str, Any]) -> Any:
    """`json.loads`'s `object_hook`: {"$fraction": "7/2"} back to the fraction (checked:
    not whole, bounded), any other object as it is."""
    if len(obj) != 1 or FRACTION_KEY not in obj:
        return obj
    text = obj[FRACTION_KEY]
    if not isinstance(text, str) or len(text) > 2 * MAX_FRACTION_DIGITS + 3:
        raise ValueError("a bad fraction")
    value = Fraction(text)
    if value.denominator == 1:
        raise ValueError(f"the fraction {text} is whole (saved as a number)")
    return exact(value)
