"""Calls worked out once per comprehension (compile/expressions.py calls these).

A value or function call inside a comprehension whose arguments read none of the
comprehension's variables gives the same result for every item: the state and the
effect's locals do not change while an expression runs, and values and functions are
pure (no random numbers). It is worked out where it is first needed, as before (so it
raises what it raised, where it did, and not at all when no item needs it), and kept in
a Python local for the other items. The work meter is charged as if it were worked out
again: the same amount outside listings; inside one, nothing for a value (its result
is memoised then, so reading it again costs nothing) while a function, whose own
comprehensions would be charged again, is not kept. An `any`/`all` scan that reads no
comprehension variable and calls no value or function (`kept_scan`) is kept the same
way, in listings too: its work is the same every time it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import attrs

from interpreter.lang import ast
from interpreter.runtime.work import charge_again

if TYPE_CHECKING:
    from interpreter.compile.expressions import Context

_UNSET = object()  # a kept call not worked out yet


def hoisting_root(ctx: Context) -> tuple[Context, dict[str, tuple[str, str]] | None]:
    """The outermost comprehension where Python allows `:=` keeps the calls made inside it."""
    if ctx.hoists is not None or ctx.in_iterable:
        return ctx, None
    hoists: dict[str, tuple[str, str]] = {}
    return attrs.evolve(ctx, hoists=hoists), hoists


def with_hoists(src: str, hoists: dict[str, tuple[str, str]] | None, ctx: Context) -> str:
    """`src` after setting the comprehension's kept calls to not worked out yet."""
    if not hoists:
        return src
    unset = ctx.const(_UNSET, "unset")
    resets = "".join(f"({name} := {unset}), " for name, _ in hoists.values())
    return f"({resets}{src})[-1]"


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


def hoisted(node: ast.Call, ctx: Context, src: str, memoised: bool) -> str:
    """`src`, a call of a value (`memoised`) or a function, kept for the whole
    comprehension it is in when its arguments are the same for every item."""
    if ctx.hoists is None or ctx.in_iterable or not ctx.pylocals or not all(_invariant(a, ctx) for a in node.args):
        return src
    if memoised:  # inside a listing a value read again is a memo hit: no work
        return _kept(src, ctx, lambda h, w, unset: f"({w} := st.work - {w} if st.memo is None else 0)")
    # inside a listing a function is worked out again each time: not kept
    return _kept(src, ctx, lambda h, w, unset: f"(({w} := st.work - {w}) if st.memo is None else ({h} := {unset}))")


def kept_scan(src: str, ctx: Context) -> str:
    """`src`, an `any`/`all` scan (builtin_functions) that reads no comprehension
    variable and calls no value or function, kept for the whole comprehension it is in:
    its work is the same every time it runs (the same lists, no memo hits), so it is
    charged again exactly, in listings too (`builtin_functions.reads_no_item` decides)."""
    if ctx.hoists is None or ctx.in_iterable or not ctx.pylocals:
        return src
    return _kept(src, ctx, lambda h, w, unset: f"({w} := st.work - {w})")


def _kept(src: str, ctx: Context, work: Callable[[str, str, str], str]) -> str:
    """`src` worked out at its first use in the comprehension and kept in a local `h`,
    with the work it charged kept in `w` (`work(h, w, unset)` writes how; it may also
    drop the kept value): each later use charges that work again (charge_again), so the
    meter reads as if it had been worked out every time."""
    hoists = ctx.hoists
    assert hoists is not None
    kept = hoists.get(src)
    if kept is None:
        kept = hoists[src] = (ctx.emitter.fresh("h"), ctx.emitter.fresh("w"))
    h, w = kept
    unset, again = ctx.const(_UNSET, "unset"), ctx.const(charge_again, "charge_again")
    return (f"(({h} if {w} == 0 else {again}(st, {w}, {h})) if {h} is not {unset} "
            f"else (({w} := st.work), ({h} := {src}), {work(h, w, unset)})[1])")
