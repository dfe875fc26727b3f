"""`draw N from ZONE to ZONE`: the closure that runs it as an operation of its own,
and the statements (syntax trees) that write it out inside a fused run.

A draw takes cards one by one from the top of its source; an empty source refills
from the zone its `refill` names (the `refill` triggers first: the draw then stops,
its count kept in a hidden local, and runs again after them). With explicit chance
the card on top of a shuffled pile is asked for as it is dealt (runtime/chance.py),
so there the draw runs as its own operation (fusion.py's guard). Without it, in a
run, a draw from a pile that holds enough cards is written out: no closure, no
expression calls; a shorter pile, or a draw running again, goes through `deal`.
"""

from __future__ import annotations

import ast as py
from typing import Any

from interpreter.compile.pyast import S, Stmts, lit, name
from interpreter.diagnostics import RuleRuntimeError
from interpreter.model import Expr
from interpreter.runtime import chance
from interpreter.runtime.cards import place_card
from interpreter.runtime.events import fire
from interpreter.runtime.records import Frame
from interpreter.runtime.rng import shuffle_in_place


def draw_op(count: Expr, src: Expr, dst: Expr, left: str) -> Any:
    """The draw as an operation: `left` is its hidden local (the count still to deal
    when it runs again)."""
    def draw(st: Any, fr: Frame) -> bool:
        env = fr.env
        remaining = env.pop(left, None)
        source = src(st, env)
        if remaining is None:
            remaining = count(st, env)
            check_count(remaining)
        elif remaining >= 0:  # explicit chance, a card dealt: go on (count's chance answers are read again)
            count(st, env)
        else:  # (negative) the refill's triggers have run: now refill, then go on
            remaining = -remaining
            refill(st, source)
            if not st.zones[source]:  # nothing to draw even after the refill
                return False
        return deal(st, fr, left, source, remaining, dst(st, env))
    return draw


def written_lines(at: int, left: str, guarded: Stmts, source: py.expr, count: py.expr, dest: py.expr,
                  names: dict[str, py.expr]) -> Stmts:
    """The draw at operation `at` written out for a run: `guarded` is the closure's call
    (running again, explicit chance's bookkeeping); `names` binds place_card, deal
    and check_count in the game's namespace."""
    # (only `deal` may move fr.pc: the run stops after it when it did)
    stop = S("if fr.pc != {after}:\n    return False", after=at + 1)
    return S("""
        fr.pc = {after}
        if {left} in env or st.unordered:
            {guarded}
        else:
            {plain}
        """, after=at + 1, left=lit(left), guarded=guarded,
        plain=_plain(source, count, dest, names, [name("fr"), lit(left)], stop))


def plain_lines(source: py.expr, count: py.expr, dest: py.expr, names: dict[str, py.expr],
                frame: list[py.expr] | None = None) -> Stmts:
    """The draw's own lines, with no shuffled pile waiting to be dealt: `frame` is what
    `deal` gets for the refill's triggers (none for a direct function, whose draw no
    trigger hears: compile/direct.py)."""
    return _plain(source, count, dest, names, [lit(None), lit("")] if frame is None else frame, [])


def _plain(source: py.expr, count: py.expr, dest: py.expr, names: dict[str, py.expr], frame: list[py.expr],
           after_deal: Stmts) -> Stmts:
    return S("""
        _source = {source}
        _count = {count}
        if type(_count) is not int or _count < 0:
            {check_count}(_count)
        _dest = {dest}
        _pile = st.zones[_source]
        if len(_pile) >= _count:
            while _count:
                {place_card}(st, _pile[-1], _dest)
                _count -= 1
        else:
            {deal}(st, {frame}, _source, _count, _dest)
            {after_deal}
        """, source=source, count=count, dest=dest, check_count=names["check_count"], place_card=names["place_card"],
        deal=names["deal"], frame=frame, after_deal=after_deal)


def check_count(count: Any) -> None:
    if type(count) is not int or count < 0:
        raise RuleRuntimeError(f"cannot draw {count!r} cards (a whole number, 0 or more)", code="bad-value")


def deal(st: Any, fr: Frame | None, left: str, source: int, remaining: int, dest: int) -> bool:
    """The cards of a draw, one by one from the top of `source` to `dest`, refilling an
    empty pile as its zone says (the refill's triggers first: the draw then stops and
    runs again, its count kept in the local `left`). No frame: a direct function's
    draw, which neither waits for a deal nor has a refill any trigger hears."""
    zones = st.zones
    while remaining > 0:
        pile = zones[source]
        if pile:
            if st.unordered:  # explicit chance: which card is on top of a shuffled pile?
                assert fr is not None
                chance.before_deal(st, source, fr.env, left, remaining)
            place_card(st, pile[-1], dest)
            remaining -= 1
            continue
        zdef = st.gd.zones[st.layout.zdef[source]]
        if zdef.refill_from is None:
            break
        # Let triggers on the refill run first (e.g. "add a card before shuffling"),
        # even when the refill source is empty: they may put the card there.
        if ("refill", zdef.index) in st.gd_listens:
            assert fr is not None
            fire(st, "refill", zdef.index, {"player": st.layout.zowner[source]})
            fr.env[left] = -remaining
            fr.pc -= 1
            return False
        if not zones[refill_slot(st, source)]:
            break
        refill(st, source)
    return False


def refill_slot(st: Any, source: int) -> int:
    zdef = st.gd.zones[st.layout.zdef[source]]
    owner = st.layout.zowner[source]
    assert zdef.refill_from is not None
    base = st.layout.zbase[zdef.refill_from]
    return base + owner if owner >= 0 and st.gd.zones[zdef.refill_from].scope == "player" else base


def refill(st: Any, source: int) -> None:
    zdef = st.gd.zones[st.layout.zdef[source]]
    from_slot = refill_slot(st, source)
    for iid in list(st.zones[from_slot]):
        place_card(st, iid, source)
    if zdef.refill_shuffle:
        if st.explicit:
            chance.mark(st, source)
        else:
            shuffle_in_place(st, st.zones[source])
