"""Calls worked out once per comprehension (compile/expressions.py calls these).

A value or function call inside a comprehension whose arguments read none of the
comprehension's variables gives the same result for every item: the state and the
effect's locals do not change while an expression runs, and values and functions are
pure (no random numbers). It is worked out where it is first needed, as before (so it
raises what it raised, where it did, and not at all when no item needs it), and kept in
a Python local for the other items. The work meter is charged as if it were worked out
again (but for the charge of the call itself, runtime/work.py: reading the kept value
is no call): the same amount outside listings; inside one, nothing for a value (its
result is memoised then, so reading it again costs nothing) while a function, whose own
comprehensions would be charged again, is not kept. An `any`/`all` scan that reads no
comprehension variable and calls no value or function (`kept_scan`) is kept the same
way, in listings too: its work is the same every time it runs.
"""

from __future__ import annotations

import ast as py
from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from interpreter.compile.pyast import E, key
from interpreter.lang import ast
from interpreter.lang.builtins import named
from interpreter.limits import CALL_WORK
from interpreter.runtime.work import charge_again

if TYPE_CHECKING:
    from interpreter.compile.expressions import Context


class _Unset:
    """The mark of a kept call not worked out yet (one object; listed by name)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<not worked out yet>"


_UNSET = _Unset()  # a kept call not worked out yet


Hoists = dict[str, tuple[py.Name, py.Name]]  # pyast.key of a kept call -> (its value's name, its work's)


def hoisting_root(ctx: Context) -> tuple[Context, Hoists | None]:
    """The outermost comprehension where Python allows `:=` keeps the calls made inside it."""
    if ctx.hoists is not None or ctx.in_iterable:
        return ctx, None
    hoists: Hoists = {}
    return attrs.evolve(ctx, hoists=hoists), hoists


def with_hoists(src: py.expr, hoists: Hoists | None, ctx: Context) -> py.expr:
    """`src` after setting the comprehension's kept calls to not worked out yet."""
    if not hoists:
        return src
    unset = ctx.const(_UNSET, "unset")
    resets = [E("({h} := {unset})", h=h, unset=unset) for h, _ in hoists.values()]
    return E("{parts}[-1]", parts=py.Tuple([*resets, src], py.Load()))


def _invariant(node: ast.Node, ctx: Context) -> bool:
    """Whether `node` reads no comprehension variable and calls nothing."""
    if isinstance(node, ast.Literal):
        return True
    if isinstance(node, ast.Name):
        return node.name not in ctx.pylocals
    if isinstance(node, ast.Attr):
        return _invariant(node.target, ctx)
    if isinstance(node, ast.Index):
        return _invariant(node.target, ctx) and _invariant(node.index, ctx)
    if isinstance(node, ast.Unary):
        return _invariant(node.operand, ctx)
    if isinstance(node, ast.Binary):
        return _invariant(node.left, ctx) and _invariant(node.right, ctx)
    if isinstance(node, ast.ListExpr):
        return all(_invariant(item, ctx) for item in node.items)
    return False  # calls (random numbers), comprehensions (their own variables)


def hoisted(node: ast.Call, ctx: Context, src: py.expr, memoised: bool) -> py.expr:
    """`src`, a call of a value (`memoised`) or a function, kept for the whole
    comprehension it is in when its arguments are the same for every item."""
    if ctx.hoists is None or ctx.in_iterable or not ctx.pylocals or not all(_invariant(a, ctx) for a in node.args):
        return src
    if memoised:  # inside a listing a value read again is a memo hit: no work
        return _kept(src, ctx, lambda h, w, unset: E("({w} := st.work - {w} if st.memo is None else 0)", w=w))
    # inside a listing a function is worked out again each time: not kept
    return _kept(src, ctx, lambda h, w, unset: E("(({w} := st.work - {w}) if st.memo is None else ({h} := {unset}))",
                                                 w=w, h=h, unset=unset))


def scan_kept(scanned: ast.Node, ctx: Context) -> bool:
    """Whether `kept_scan` will keep an `any`/`all` scan of `scanned` here (worked out
    once per comprehension, not per item)."""
    return ctx.hoists is not None and not ctx.in_iterable and bool(ctx.pylocals) and reads_no_item(scanned, ctx)


def scan_context(scanned: ast.Node, ctx: Context) -> Context:
    """The context to compile an `any`/`all` scan in: a scan that will be kept is worked
    out once per comprehension, as if it were in none (it reads none of the
    comprehensions' variables), so its list is charged as at the top of an expression
    (runtime/work.py: a short constant list there is not)."""
    return attrs.evolve(ctx, pylocals={}) if scan_kept(scanned, ctx) else ctx


def kept_scan(scanned: ast.Node, src: py.expr, ctx: Context) -> py.expr:
    """`src`, an `any`/`all` scan of `scanned` (builtin_functions) inside a
    comprehension, kept for the whole comprehension when it gives the same answer for
    every item (`all([res(me)[r] >= price[r] for r in kinds])` in a list of cards): it
    reads no comprehension variable and calls no value or function (reads_no_item), so
    its work is the same every time (the same lists, no memo hits) and is charged
    again exactly, in listings too."""
    if not scan_kept(scanned, ctx):
        return src
    return _kept(src, ctx, lambda h, w, unset: E("({w} := st.work - {w})", w=w))


# Built-ins that only read what they are given (no random numbers, no values).
_PURE_BUILTINS = named("pure")


def reads_no_item(node: ast.Node, ctx: Context) -> bool:
    """Whether `node` reads no variable of the comprehensions around it (`ctx.pylocals`)
    and calls nothing but counters, zones and pure built-ins: no value or function
    (whose memo in a listing would make working it out again cost less), no random
    numbers. A name the enclosing comprehensions use is refused even where an inner
    comprehension's own variable hides it."""
    sym = ctx.symbols
    for item in ast.walk((node,)):
        if isinstance(item, ast.Name):
            if item.name in ctx.pylocals or (item.name in sym.values and item.name not in ctx.locals):
                return False
        elif isinstance(item, ast.Call):
            name = item.name
            if name in ctx.pylocals or name in ctx.locals or name in sym.values or name in sym.functions:
                return False
            if name not in sym.counters and name not in sym.zones and name not in _PURE_BUILTINS:
                return False
        elif isinstance(item, ast.Comprehension):
            if any(var in ctx.pylocals for var in (item.var, *(item.unpack or ()))):
                return False
        elif not isinstance(item, ast.Literal | ast.Attr | ast.Index | ast.Unary | ast.Binary | ast.ListExpr):
            return False
    return True


def _kept(src: py.expr, ctx: Context, work: Callable[[py.Name, py.Name, py.expr], py.expr]) -> py.expr:
    """`src` worked out at its first use in the comprehension and kept in a local `h`,
    with the work it charged kept in `w` (`work(h, w, unset)` writes how; it may also
    drop the kept value): each later use charges that work again (charge_again), so the
    meter reads as if it had been worked out every time, all but the charge of the call
    itself (CALL_WORK: a kept value read again is no call), so a call that went through
    no list is read again with no call of charge_again."""
    hoists = ctx.hoists
    assert hoists is not None
    kept = hoists.get(key(src))
    if kept is None:
        kept = hoists[key(src)] = (ctx.emitter.fresh("h"), ctx.emitter.fresh("w"))
    h, w = kept
    unset, again = ctx.const(_UNSET, "unset"), ctx.const(charge_again, "charge_again")
    return E("(({h} if {w} <= {call_work} else {again}(st, {w}, {h})) if {h} is not {unset} "
             "else (({w} := st.work), ({h} := {src}), {work})[1])",
             h=h, w=w, call_work=CALL_WORK, again=again, unset=unset, src=src, work=work(h, w, unset))
