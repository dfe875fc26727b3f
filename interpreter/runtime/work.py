"""Run-time bounds on what rules compute: the work of expressions between two
decisions, and the size of the values a game keeps (limits.py has the figures).

The step budget (loop.py) counts operations; one operation can still ask for a great
deal inside one expression (comprehensions nested over long lists, shuffling a huge
deck again and again). Generated code charges each list a comprehension goes through
(`charge`), once per list, to a counter kept in the state (`st.work`, never saved)
that the run loop and each legal-action listing start afresh; stores of values (`checked`) refuse integers, lists
and strings past their limits. Both end in a rule error placed at the statement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_INT, MAX_LENGTH, MAX_WORK

if TYPE_CHECKING:
    from interpreter.runtime.state import State

T = TypeVar("T")


def charge(st: State, items: T) -> T:
    """Count going through `items` (any sized value) and give it back. The counter is
    the state's own (a slot: cheaper than a per-thread one, and a state is run by one
    thread at a time)."""
    used = st.work + len(items)  # type: ignore[arg-type]
    st.work = used
    if used > MAX_WORK:
        raise RuleRuntimeError(f"more than {MAX_WORK:,} items gone through by expressions without a decision "
                               "(comprehensions over long lists, nested?)", code="limit")
    return items


def charge_again(st: State, work: int, value: T) -> T:
    """Count `work` items again and give `value` back: a value worked out once in a
    comprehension and kept (compile/expressions.py) is charged what working it out
    again would have charged, so the meter reads as if it had been."""
    used = st.work + work
    st.work = used
    if used > MAX_WORK:
        raise RuleRuntimeError(f"more than {MAX_WORK:,} items gone through by expressions without a decision "
                               "(comprehensions over long lists, nested?)", code="limit")
    return value


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
