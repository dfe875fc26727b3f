"""Counters and values: changing counters within their bounds, and declared values
after the modifiers that apply now (continuous effects, card powers, grants).

Counters hold whole numbers only, unless one declares `fractions: true`: anything else
is a rule error where it happens. A change fires `changed` for games that listen.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_INT
from interpreter.numbers import normal, show
from interpreter.runtime.cards import card_owners, in_play
from interpreter.runtime.events import fire
from interpreter.runtime.work import charge_call

if TYPE_CHECKING:
    from interpreter.model import Cost
    from interpreter.runtime.state import State

_NOBODY: dict[Any, Any] = {}  # (card_reaching)


def _whole(cdef: Any, value: Any) -> int:
    """`value` as a counter's number: whole, or a fraction where the counter declares
    `fractions: true` (a fraction is never whole: numbers.py keeps them so)."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return int(value)
    if type(value) is Fraction and cdef.fractions:
        return value  # type: ignore[return-value]
    raise RuleRuntimeError(f"counter {cdef.name} holds whole numbers, not {show(value)} (round it down with "
                           "x // 1; a local or a score may hold a fraction)", code="type")


def change_counter(st: State, ci: int, slot: int, delta: int, verb: str) -> None:
    cdef = st.gd.counters[ci]
    values = st.counters[ci]
    old = values[slot]
    if type(delta) is int:  # (the usual case needs no call)
        new = old + delta
    else:  # a fraction, into a counter that may hold them: 1/2 + 1/2 is 1
        delta = _whole(cdef, delta)
        new = normal(old + delta)
    if verb == "pay" and new < (cdef.min if cdef.min is not None else 0):
        raise RuleRuntimeError(f"cannot pay {-delta} {cdef.name}: only {old} available", code="overdraft")
    if cdef.min is not None and new < cdef.min:
        new = cdef.min
    if cdef.max is not None and new > cdef.max:
        new = cdef.max
    if not -MAX_INT <= new <= MAX_INT:
        raise RuleRuntimeError(f"counter {cdef.name}: a number too large to keep ({float(new):.3e})", code="limit")
    if new == old:
        return
    values[slot] = new
    if st.gd_listens and ("changed", ci) in st.gd_listens:
        player, key = divmod(slot, cdef.width) if cdef.scope == "player" else (-1, slot)
        fire(st, "changed", ci, {"player": player, "key": _key_name(cdef, key), "old": old, "new": new})


def affordable(st: State, cost: tuple[Cost, ...], player: int, env: dict[str, Any]) -> bool:
    """Whether `player` can pay every counter of a cost (an action's or a card effect's)."""
    for ci, offset, amount in cost:
        cdef = st.gd.counters[ci]
        slot = player * cdef.width + offset if cdef.scope == "player" else offset
        floor = cdef.min if cdef.min is not None else 0
        if st.counters[ci][slot] - amount(st, env) < floor:
            return False
    return True


def pay(st: State, cost: tuple[Cost, ...], player: int, env: dict[str, Any]) -> None:
    """`player` pays a cost; the triggers of the payment are queued."""
    for ci, offset, amount in cost:
        cdef = st.gd.counters[ci]
        slot = player * cdef.width + offset if cdef.scope == "player" else offset
        change_counter(st, ci, slot, -amount(st, env), "pay")


def set_counter(st: State, ci: int, slot: int, value: int) -> None:
    cdef = st.gd.counters[ci]
    if type(value) is not int:  # (the usual case needs no call)
        value = _whole(cdef, value)
    if cdef.min is not None and value < cdef.min:
        value = cdef.min
    if cdef.max is not None and value > cdef.max:
        value = cdef.max
    if not -MAX_INT <= value <= MAX_INT:
        raise RuleRuntimeError(f"counter {cdef.name}: a number too large to keep ({float(value):.3e})", code="limit")
    old = st.counters[ci][slot]
    if old == value:
        return
    st.counters[ci][slot] = value
    if st.gd_listens and ("changed", ci) in st.gd_listens:
        player, key = divmod(slot, cdef.width) if cdef.scope == "player" else (-1, slot)
        fire(st, "changed", ci, {"player": player, "key": _key_name(cdef, key), "old": old, "new": value})


def _key_name(cdef: Any, key: int) -> Any:
    return cdef.keys[key] if cdef.keys else key


def value_of(st: State, vi: int, player: int) -> Any:
    """A declared value for a player, after every modifier that applies now. While
    legal actions are listed (the state cannot change), each (value, player) is
    worked out once: `st.memo` holds them then, and is None otherwise."""
    memo = st.memo
    if memo is None:
        return _value_of(st, vi, player)
    key = (vi, player)
    if key in memo:
        return memo[key]
    result = memo[key] = _value_of(st, vi, player)
    return result


def _value_of(st: State, vi: int, player: int) -> Any:
    vdef = st.gd.values[vi]
    if vdef.calls_others:  # charged as its generated function is (compile/values.py)
        charge_call(st)
    env: dict[str, Any] = {"p": player, "me": player}
    result = vdef.base(st, env)
    for mod in vdef.modifiers:
        if mod.card is not None:
            copy = card_reaching(st, mod.card, player)
            if copy is None:
                continue
            env["this"], env["owner"] = copy
        if mod.granted and not any(g.modifier == mod.index and g.player == player for g in st.grants):
            continue
        if mod.when is not None and not mod.when(st, env):
            continue
        amount = mod.amount(st, env)
        if mod.op == "add":
            result = result + amount
        elif mod.op == "set":
            result = amount
        elif mod.op == "max":
            result = max(result, amount)
        else:
            result = min(result, amount)
    return result


def card_reaching(st: State, def_index: int, player: int) -> tuple[int, int] | None:
    """(copy, its holder) of the card whose modifiers apply to `player` now, or None.

    By default a card's modifiers apply to the holder of a copy in one of its active_in
    zones. A card with `applies_to` reaches every player for whom that expression holds
    (over `p`, `this` and `owner`), e.g. opponents, or whoever may borrow its power."""
    reach = st.gd.cards[def_index].applies_to
    if reach is None:
        if not in_play(st, def_index):  # the usual case: no copy in play
            _NOBODY.get(player)  # a player no dict can hold fails here as it does below
            return None
        holders = card_owners(st, def_index)
        return (holders[player], player) if player in holders else None
    holders = card_owners(st, def_index)
    for owner, copy in holders.items():
        if reach(st, {"p": player, "me": player, "this": copy, "owner": owner}):
            return copy, owner
    return None
