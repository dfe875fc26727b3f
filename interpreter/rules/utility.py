"""The rule file's declarations about whole games, read after the schema has checked
their shape: `utility:` (the kind of returns, what they add up to, their bounds) and
`max_moves:` (the most decisions any game takes).

Learning code needs both (docs/openspiel.md): an algorithm that needs a zero-sum game
asks the game's type, buffers are sized by the longest game. Both are declarations a
rule author makes, so each is checked: the sum and bounds at every end of a game
(runtime/ending.py), the length by the adapters as moves are made. Here only what can
be told from the file alone: a constant sum needs its constant, zero-sum adds up to 0,
bounds in order, a length naming a constant that is a positive whole number.
"""

from __future__ import annotations

from typing import Any

from interpreter.diagnostics import Diagnostic, RuleFileError
from interpreter.model import UtilityDef
from interpreter.rules.loader import RawGame

KINDS = ("zero-sum", "constant-sum", "general-sum")


def read_declarations(raw: RawGame, constants: dict[str, Any]) -> tuple[UtilityDef | None, int | None]:
    """The declared utility and longest game (none when not declared), or RuleFileError
    with every finding, placed at its key."""
    found: list[Diagnostic] = []

    def bad(where: tuple[Any, ...], message: str, hint: str | None = None) -> None:
        path, line, col = raw.origins.locate_key(where)
        found.append(Diagnostic(path, line, col, "bad-value", message, hint=hint))

    utility = _utility(raw.data.get("utility"), bad)
    moves = _max_moves(raw.data.get("max_moves"), constants, bad)
    if found:
        raise RuleFileError(found)
    return utility, moves


def _utility(spec: Any, bad: Any) -> UtilityDef | None:
    if spec is None:
        return None
    kind = spec["kind"]
    total = spec.get("sum")
    low, high = spec.get("min"), spec.get("max")
    if kind == "constant-sum" and total is None:
        bad(("utility",), "utility: a constant-sum game says what the returns add up to",
            "add sum: N (zero-sum is sum 0)")
    elif kind == "zero-sum" and total not in (None, 0):
        bad(("utility", "sum"), f"utility: the returns of a zero-sum game add up to 0, not {total}",
            "write kind: constant-sum to declare another sum")
    elif kind == "general-sum" and total is not None:
        bad(("utility", "sum"), "utility: a general-sum game has no sum", "write kind: constant-sum")
    if low is not None and high is not None and low > high:
        bad(("utility", "min"), f"utility: min ({low}) is more than max ({high})")
    if kind == "zero-sum":
        total = 0
    return UtilityDef(kind, None if total is None else float(total),
                      None if low is None else float(low), None if high is None else float(high))


def _max_moves(spec: Any, constants: dict[str, Any], bad: Any) -> int | None:
    if spec is None:
        return None
    if isinstance(spec, str):
        if spec not in constants:
            bad(("max_moves",), f"max_moves: no constant '{spec}'",
                "give a whole number or the name of a constant that holds one")
            return None
        value = constants[spec]
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            bad(("max_moves",), f"max_moves: constant '{spec}' is {value!r}, not a whole number of at least 1")
            return None
        return value
    return int(spec)
