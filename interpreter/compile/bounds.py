"""What expressions make and go through, bounded (runtime/work.py has the meter,
limits.py the figures); compile/expressions.py calls these as it builds its code.

The work meter counts lists gone through by comprehensions, once per list. Some work
inside one expression is not a comprehension: a product that squares a number again
and again, `+` and `*` that double a list or a text, `in` and `sum` going through a
whole list once per item of a comprehension. Each is written here so that what it
makes stays bounded: a product of two numbers neither of which is surely small is
refused past MAX_INT_ARITHMETIC, a list or text made is charged its length, a list
gone through whole is charged its length when it is long. What can only grow by a
bounded factor per operation of the rule text (a sum, a product by a written number or
a counter, a list of a few items) is left as it was: the text bounds it, and the hot
path pays nothing for it. Where Python allows no `:=` (the list a comprehension goes
through) a helper call does what the inline code does.
"""

from __future__ import annotations

import ast as py
from typing import TYPE_CHECKING, Any

from interpreter.compile.pyast import E, S, Stmts, is_name
from interpreter.lang import ast
from interpreter.limits import CALL_WORK, MAX_INT_ARITHMETIC, MAX_WORK, SMALL_LIST
from interpreter.runtime.work import charge, charge_long, modulo, over_budget, plus, sized, times, too_big

if TYPE_CHECKING:
    from interpreter.compile.expressions import Context, Gen
    from interpreter.compile.pysource import Emitter


def yields_seats(node: ast.Node) -> bool:
    """Whether a list expression gives only seats of the game (`players`, `players_from`)."""
    return (isinstance(node, ast.Name) and node.name == "players") or (
        isinstance(node, ast.Call) and node.name == "players_from")


def scanned(node: ast.Node, src: py.expr, ctx: Context) -> py.expr:
    """`src`, the list (or text) of `node` that an operation goes through whole (`in`,
    `sum`, `sorted`, `index_of`...), charged its length when it has SMALL_LIST items or
    more: inside a comprehension over a long list such an operation would otherwise
    cost the square of it, uncharged. A comprehension's result (its source was
    charged), a `+` charged already, a written list, the seats and a short constant go
    as they are; a short list is left uncharged by a test of its length, with no call."""
    if isinstance(node, ast.Comprehension | ast.ListExpr) or yields_seats(node) or charged_already(node, src, ctx):
        return src
    if short_constant(node, ctx):
        return src
    if ctx.in_iterable:  # (where Python allows no `:=`)
        return E("{charge_long}(st, {src})", charge_long=ctx.const(charge_long, "charge_long"), src=src)
    t = ctx.emitter.fresh("g")
    return E("{t} if len({t} := {src}) < {small} else {charge}(st, {t})", t=t, src=src, small=SMALL_LIST,
             charge=ctx.const(charge, "charge"))


def short_constant(node: ast.Node, ctx: Context) -> bool:
    """A constant of at most SMALL_LIST items (or a scalar), read by its name."""
    if not isinstance(node, ast.Name) or node.name not in ctx.symbols.constants or node.name in ctx.locals:
        return False
    value = ctx.symbols.constants[node.name]
    return not isinstance(value, list | dict | str) or len(value) <= SMALL_LIST


def uncharged(node: ast.Node, src: py.expr, ctx: Context) -> py.expr:
    """`src`, a part of a `+` of lists or texts, without its own charge when it is one
    too (`a + b + c`): the whole is charged its length once, and the parts made on the
    way are at most as many times longer as the text has `+`s."""
    made = _charged(src, ctx)
    if isinstance(node, ast.Binary) and node.op == "+" and made is not None:
        return made
    return src


def charged_already(node: ast.Node, src: py.expr, ctx: Context) -> bool:
    """Whether `src`, the code of `node`, is a `+` of lists or texts already charged
    its length (a comprehension going through it need not charge it again)."""
    return isinstance(node, ast.Binary) and _charged(src, ctx) is not None


def _charged(src: py.expr, ctx: Context) -> py.expr | None:
    """What `src` charges, when it is `charge(st, WHAT)`: else None."""
    charger = ctx.const(charge, "charge")
    if (type(src) is py.Call and isinstance(charger, py.Name) and is_name(src.func, charger.id)
            and len(src.args) == 2 and not src.keywords and is_name(src.args[0], "st")):
        return src.args[1]
    return None


def bounded_arithmetic(node: ast.Binary, op: str, left: Gen, right: Gen, ctx: Context) -> py.expr | None:
    """`+`, `*` or `%` written so that what it makes stays bounded (runtime/work.py),
    or None where nothing can grow: a product of two numbers neither of which is
    surely small (`small_int`) is refused past MAX_INT_ARITHMETIC (squaring again and
    again would make numbers of millions of digits); values of unknown type may be
    lists or texts at run time, so `+` and `*` of them charge what they make and `%` of
    a text (formatting, of any width) is refused. Sums of numbers, products by a small
    number: a bit or a factor per operation of the text, left as they are."""
    (lsrc, ltype), (rsrc, rtype) = left, right
    lsmall, rsmall = small_int(node.left, ctx), small_int(node.right, ctx)
    unknown = (ltype == "any" and not lsmall) or (rtype == "any" and not rsmall)
    if op == "%":
        if ltype == "any" and not lsmall:
            return E("{modulo}({a}, {b})", modulo=ctx.const(modulo, "modulo"), a=lsrc, b=rsrc)
        return None
    if op == "+":
        if ltype != "any" or rtype != "any" or lsmall or rsmall:
            return None  # a number and anything else: a number or a TypeError
        if ctx.in_iterable:  # (where Python allows no `:=`)
            return E("{plus}(st, {a}, {b})", plus=ctx.const(plus, "plus"), a=lsrc, b=rsrc)
        t = ctx.emitter.fresh("s")
        return E("{t} if type({t} := ({a} + {b})) is int else {sized}(st, {t})", t=t, a=lsrc, b=rsrc,
                 sized=ctx.const(sized, "sized"))
    if not unknown and (lsmall or rsmall):
        return None  # a number times one at most 2**63: a factor per `*` of the text
    if ctx.in_iterable:  # (where Python allows no `:=`)
        return E("{times}(st, {a}, {b})", times=ctx.const(times, "times"), a=lsrc, b=rsrc)
    t, bound = ctx.emitter.fresh("m"), MAX_INT_ARITHMETIC
    if unknown:  # two numbers multiplied inline, anything else (a list or text repeated) by `times`
        a, b = ctx.emitter.fresh("a"), ctx.emitter.fresh("b")
        return E("{t} if type({a} := {x}) is type({b} := {y}) is int and -{bound} <= ({t} := {a} * {b}) <= {bound} "
                 "else {times}(st, {a}, {b})", t=t, a=a, b=b, x=lsrc, y=rsrc, bound=bound,
                 times=ctx.const(times, "times"))
    return E("{t} if -{bound} <= ({t} := {x} * {y}) <= {bound} else {too_big}({t})", t=t, x=lsrc, y=rsrc, bound=bound,
             too_big=ctx.const(too_big, "too_big"))


def small_int(node: ast.Node, ctx: Context) -> bool:
    """Whether `node` surely gives a whole number of at most 2**63 in size, whatever
    its type says: a number written in the rules, a counter, a count (`len`), the
    player count, a constant (or an entry of a constant table) all of whose entries
    there are numbers, a `min`/`max` or negation of those. A product by one grows by
    a bounded factor, and it cannot repeat a list or a text."""
    sym = ctx.symbols
    if isinstance(node, ast.Literal):
        return type(node.value) is int
    if isinstance(node, ast.Unary):
        return node.op == "-" and small_int(node.operand, ctx)
    if isinstance(node, ast.Call) and node.name not in ctx.locals and node.name not in sym.functions:
        if node.name in ("len", "count", "size") and node.name not in sym.counters and node.name not in sym.values:
            return True
        if node.name in ("min", "max") and len(node.args) > 1:
            return all(small_int(arg, ctx) for arg in node.args)
    depth, base = 0, node
    while isinstance(base, ast.Index):  # an entry of a table: `costs[a][b][i]`
        depth, base = depth + 1, base.target
    if not isinstance(base, ast.Name | ast.Call) or base.name in ctx.locals:
        return False
    if base.name in sym.counters:  # an entry (a counter's are numbers within MAX_INT), not the whole array
        return depth == (1 if sym.counters[base.name].width > 1 else 0)
    if isinstance(base, ast.Name) and base.name in sym.constants:
        memo = ctx.emitter.memo
        key = ("whole numbers", base.name, depth)
        if key not in memo:
            memo[key] = _numbers_at(sym.constants[base.name], depth)
        return bool(memo[key])
    return isinstance(base, ast.Name) and depth == 0 and base.name == "player_count"


def _numbers_at(value: Any, depth: int) -> bool:
    """Whether every entry `depth` levels into a constant is a whole number (YAML
    numbers are at most 2**63 in size, rules/yamlload.py)."""
    if depth == 0:
        return type(value) is int or type(value) is bool
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
    return items is not None and all(_numbers_at(item, depth - 1) for item in items)


def small_source(node: ast.Node, ctx: Context) -> bool:
    """Lists a comprehension may go through with no charge on the work meter: the
    seats, a written list, or a constant list of at most SMALL_LIST items, and only
    where the comprehension is in no other comprehension (`ctx.pylocals` is empty), so
    its work is bounded by the rule text as arithmetic's is. Nested, a comprehension
    over three items is charged like any other: nesting multiplies (3**100 items for
    100 levels), and a constant may hold a hundred thousand items."""
    if ctx.pylocals:
        return False
    if yields_seats(node) or isinstance(node, ast.ListExpr):
        return True
    return short_constant(node, ctx)


def charge_call_code(em: Emitter) -> Stmts:
    """The first statements of a generated function whose calls are charged as calls
    (CALL_WORK): what runtime/work.py's `charge_call` does, written inline (no call)."""
    return S("""
        st.work = _work = st.work + {call_work}
        if _work > {max_work}:
            {over}()
        """, call_work=CALL_WORK, max_work=MAX_WORK, over=em.const(over_budget, "over_budget"))
