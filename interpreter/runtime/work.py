"""Run-time bounds on what rules compute: the work of expressions between two
decisions, and the size of the values a game keeps (limits.py has the figures).

The step budget (loop.py) counts operations; one operation can still ask for a great
deal inside one expression (comprehensions nested over long lists, shuffling a huge
deck again and again). Generated code charges each list a comprehension goes through
(`charge`), once per list, to a per-thread counter that the run loop and each
legal-action listing start afresh; stores of values (`checked`) refuse integers, lists
and strings past their limits. Both end in a rule error placed at the statement.
"""

from __future__ import annotations

import threading
from typing import Any, TypeVar

from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_INT, MAX_LENGTH, MAX_WORK

T = TypeVar("T")


class WorkMeter(threading.local):
    """Items gone through since the meter was last reset (per thread)."""

    used = 0


METER = WorkMeter()


def reset() -> None:
    METER.used = 0


def charge(items: T) -> T:
    """Count going through `items` (any sized value) and give it back."""
    used = METER.used + len(items)  # type: ignore[arg-type]
    METER.used = used
    if used > MAX_WORK:
        raise RuleRuntimeError(f"more than {MAX_WORK:,} items gone through by expressions without a decision "
                               "(comprehensions over long lists, nested?)", code="limit")
    return items


def checked(value: Any) -> Any:
    """A value the game keeps, refused past the size limits."""
    kind = type(value)
    if kind is int:
        if -MAX_INT <= value <= MAX_INT:
            return value
        raise RuleRuntimeError(f"a number too large to keep (more than {MAX_INT:,} in size)", code="limit")
    if (kind is list or kind is str) and len(value) > MAX_LENGTH:
        what = "list" if kind is list else "text"
        raise RuleRuntimeError(f"a {what} too long to keep ({len(value):,} > {MAX_LENGTH:,})", code="limit")
    return value
