"""The values the native lowering passes around while it writes C: what a name or an
expression means (`Bound`), and the refusal (`NotNative`) that sends a game to the
Python path with the reason. Shared by every part of the lowering, so kept apart.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.lang import ast


class NotNative(Exception):
    """The rules use something the native backend does not lower (the reason)."""


@attrs.frozen
class Bound:
    """What a name means while its code is written: C code of a type, a static value
    (a word, a number known now), a row of a constant table (`l` in `for l in lines`),
    or a list: a local's C array, or a list that sits in memory (`seq`: a card's list
    property or attribute, from a pointer, with its length)."""

    kind: str  # "c" | "static" | "row" | "list" (a local's array) | "seq" (a list in memory) | "text"
    code: str = ""
    # "int" | "bool" | "card" | "opt" (a cell or nothing: -1) | "word" | "any" (of a list:
    # its elements' type)
    type: str = "int"
    # static: the value; row: the constant table; seq: (its length's C code, the width
    # of its rows, 0 when its elements are values)
    value: Any = None
    # seq: the C type of a pointer to its elements (a list set on cards sits in pool
    # items of four bytes: card_data.py)
    pointer: str = "int64_t*"


Env = dict[str, Bound]
Body = Callable[[Bound], None]

def static_int(value: Any) -> bool:
    return type(value) is int or type(value) is bool


def _where(node: ast.Node) -> str:
    return f"line {node.line}, column {node.column}"


def narrow_type(count: int) -> str:
    """The C type of numbers below `count`: two bytes where they fit."""
    return "int16_t" if count < 32000 else "int32_t"


def byte_type(count: int, signed: bool = True) -> str:
    """The C type of numbers below `count` (and -1 if `signed`): one byte where they fit."""
    if count < (127 if signed else 255):
        return "int8_t" if signed else "uint8_t"
    return narrow_type(count)


def int_literal(value: Any, node: ast.Node | None = None) -> str:
    """A whole number of the rules as a C literal of 64 bits (Cython would make a larger
    bare literal a Python object); one beyond 64 bits is refused (the Python path)."""
    number = int(value)
    if not -(1 << 63) < number < (1 << 63):
        raise NotNative(f"{_where(node) + ': ' if node is not None else ''}the number {number} does not fit 64 bits")
    return str(number) if -(1 << 31) < number < (1 << 31) else f"{number}LL"


def zone_card(slot: str, place: str) -> str:
    """C for the card at `place` (0: the bottom) of zone slot `slot`: the zones' cards lie
    in one array, each zone from its start (support.py's zone_cut and zone_open)."""
    return f"g.zc[g.zs[{slot}] + {place}]"
