"""Run-time bounds on what rules compute: the work of expressions between two
decisions, and the size of the values a game keeps (limits.py has the figures).

The step budget (loop.py) counts operations; one operation can still ask for a great
deal inside one expression (comprehensions nested over long lists, shuffling a huge
deck again and again, functions calling functions twice per level, a number squared
again and again). Generated code charges each list a comprehension goes through
(`charge`), once per list, to a counter kept in the state (`st.work`, never saved)
that the run loop, each legal-action listing, each observation's views and each
label start afresh (`own_budget`); a long list gone through whole by `in`, `sum` and
the like is charged too (`charge_long`). A call of a function or value that calls
others and a procedure called from a direct effect charge CALL_WORK (`charge_call`, or
the same statements written inline: compile/bounds.py's `charge_call_code`); `+` and `*` on lists and texts
charge what they make (`sized`, `times`), and a product of numbers past
MAX_INT_ARITHMETIC is refused where it is made (`too_big`). compile/bounds.py writes
where each is needed. Stores of values (`checked`) refuse integers, lists and strings
past their limits. All end in a rule error placed at the statement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import CALL_WORK, MAX_INT, MAX_INT_ARITHMETIC, MAX_LENGTH, MAX_WORK, SMALL_LIST

if TYPE_CHECKING:
    from interpreter.runtime.state import State

T = TypeVar("T")


def _too_much() -> RuleRuntimeError:
    return RuleRuntimeError(f"more than {MAX_WORK:,} items gone through by expressions without a decision "
                            "(comprehensions over long lists, nested? functions calling functions again "
                            "and again?)", code="limit")


def charge(st: State, items: T) -> T:
    """Count going through `items` (any sized value) and give it back: its length, and
    CALL_WORK for starting at all (a comprehension over three items costs about what a
    call does, so tiny lists nested deep are not nearly free). The counter is the
    state's own (a slot: cheaper than a per-thread one, and a state is run by one
    thread at a time)."""
    used = st.work + len(items) + CALL_WORK  # type: ignore[arg-type]
    st.work = used
    if used > MAX_WORK:
        raise _too_much()
    return items


def charge_long(st: State, items: T) -> T:
    """`charge` of a list an operation goes through whole (`in`, `sum`...) when it is
    long (SMALL_LIST items or more); a short one goes uncharged, as generated code
    that can hold it in a name tests inline."""
    if len(items) >= SMALL_LIST:  # type: ignore[arg-type]
        charge(st, items)
    return items


def charge_again(st: State, work: int, value: T) -> T:
    """Count `work` items again and give `value` back: a value worked out once in a
    comprehension and kept (compile/hoisting.py) is charged what working it out
    again would have charged, so the meter reads as if it had been."""
    used = st.work + work
    st.work = used
    if used > MAX_WORK:
        raise _too_much()
    return value


def charge_call(st: State) -> None:
    """Count one call (CALL_WORK): generated functions write the same statements
    inline (no call), this is for code that calls rather than writes them."""
    used = st.work + CALL_WORK
    st.work = used
    if used > MAX_WORK:
        raise _too_much()


def over_budget() -> None:
    """Raise the work limit's error: what a generated function's inline charge of its
    call calls once the meter has passed MAX_WORK."""
    raise _too_much()


def sized(st: State, value: T) -> T:
    """`value`, the result of `+` on values of unknown type: a list or a text is
    charged its length (what making it cost), a number nothing."""
    if type(value) is list or type(value) is str:
        charge(st, value)
    return value


def too_big(value: Any) -> Any:
    """A number made by `*`, refused past MAX_INT_ARITHMETIC (anything else is given back:
    only numbers are checked here)."""
    if type(value) is int and not -MAX_INT_ARITHMETIC <= value <= MAX_INT_ARITHMETIC:
        bits = MAX_INT_ARITHMETIC.bit_length() - 1
        raise RuleRuntimeError(f"a number too large to work with (a product past 2**{bits}: a number "
                               "multiplied by itself again and again?)", code="limit")
    return value


def times(st: State, a: Any, b: Any) -> Any:
    """`a * b` of values whose type is known only at run time: a product of numbers
    refused past MAX_INT_ARITHMETIC, a list or text repeated refused past MAX_LENGTH
    before it is made, and charged its length."""
    if type(a) is int and type(b) is int:
        return too_big(a * b)
    seq, count = (a, b) if isinstance(a, list | str) else (b, a)
    if isinstance(seq, list | str) and type(count) is int and len(seq) * count > MAX_LENGTH:
        what = "list" if isinstance(seq, list) else "text"
        raise RuleRuntimeError(f"a {what} too long to make ({len(seq):,} x {count:,} > {MAX_LENGTH:,})", code="limit")
    return sized(st, too_big(a * b))


def plus(st: State, a: Any, b: Any) -> Any:
    """`a + b` of values whose type is known only at run time, a list or text made
    charged its length (where generated code may not hold it in a name: `sized`)."""
    return sized(st, a + b)


def modulo(a: Any, b: Any) -> Any:
    """`a % b` of values whose type is known only at run time: numbers only (`%` of a
    text would format it, making a text of any width)."""
    if type(a) is str:
        raise RuleRuntimeError(f"'%' needs numbers, got a text ({a[:20]!r})")
    return a % b


def own_budget(st: State, render: Callable[..., T], *args: Any) -> T:
    """`render(*args)` with a work budget of its own (what a listing has): text shown
    to people (views, labels) is worked out between decisions, and neither draws on
    the last resolution's budget nor leaves its work to the next reading. Declared
    values are memoised meanwhile (the state cannot change while text is made)."""
    work, memo = st.work, st.memo
    st.work = 0
    if memo is None and st.gd.values:
        st.memo = {}
    try:
        return render(*args)
    finally:
        st.work, st.memo = work, memo


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
