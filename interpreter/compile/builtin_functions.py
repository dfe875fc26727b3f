"""The built-in functions of the effect language, each registered with `@builtin`.

Each one checks its arguments at compile time and returns a closure `fn(state, env)`
(and its result type), like every compiled expression. Importing this module fills the
table `expressions.BUILTINS`; `build.py` imports it before compiling any rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compile.expressions import (
    BUILTINS,
    Builtin,
    Compiled,
    Context,
    builtin,
    compile_expr,
    describe,
    early_exit,
    expect,
    player_arg,
    zone_slot,
)
from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError, elem_of, is_list
from interpreter.model import Expr
from interpreter.runtime.present import people_text
from interpreter.runtime.rng import randbelow, shuffle_in_place


def _list_arg(node: ast.Call, ctx: Context, i: int = 0) -> Compiled:
    fn, type_ = compile_expr(node.args[i], ctx)
    if not is_list(type_) and type_ != "map":
        raise CompileError(node.args[i], "type", f"{node.name}() needs a list, got {describe(type_)}")
    return fn, type_


@builtin("len", (1,))
def _len(node: ast.Call, ctx: Context) -> Compiled:
    slot = zone_slot(node.args[0], ctx)
    if slot is not None:  # no copy of the zone just to count it
        return (lambda st, env: len(st.zones[slot(st, env)])), "int"
    fn, _ = _list_arg(node, ctx)
    return (lambda st, env: len(fn(st, env))), "int"


BUILTINS["count"] = BUILTINS["len"]
BUILTINS["size"] = BUILTINS["len"]


@builtin("sum", (1,))
def _sum(node: ast.Call, ctx: Context) -> Compiled:
    fn, _ = _list_arg(node, ctx)
    return (lambda st, env: sum(fn(st, env))), "int"


def _minmax(pick: Callable[..., Any]) -> Builtin:
    def compile_(node: ast.Call, ctx: Context) -> Compiled:
        if len(node.args) == 1:
            fn, type_ = _list_arg(node, ctx)
            return (lambda st, env: pick(fn(st, env), default=None)), elem_of(type_)
        fns = [expect(a, ctx, "any") for a in node.args]
        return (lambda st, env: pick(f(st, env) for f in fns)), "int"
    return compile_


builtin("min", (1, 2, 3, 4))(_minmax(min))
builtin("max", (1, 2, 3, 4))(_minmax(max))


@builtin("any", (1,))
def _any(node: ast.Call, ctx: Context) -> Compiled:
    scan = early_exit(node.args[0], ctx, True)
    if scan is not None:
        return scan, "bool"
    fn, _ = _list_arg(node, ctx)
    return (lambda st, env: any(fn(st, env))), "bool"


@builtin("all", (1,))
def _all(node: ast.Call, ctx: Context) -> Compiled:
    scan = early_exit(node.args[0], ctx, False)
    if scan is not None:
        return scan, "bool"
    fn, _ = _list_arg(node, ctx)
    return (lambda st, env: all(fn(st, env))), "bool"


@builtin("range", (1, 2))
def _range(node: ast.Call, ctx: Context) -> Compiled:
    fns = [expect(a, ctx, "int") for a in node.args]
    if len(fns) == 1:
        return (lambda st, env: _bounded_range(0, fns[0](st, env))), "list:int"
    return (lambda st, env: _bounded_range(fns[0](st, env), fns[1](st, env))), "list:int"


MAX_RANGE = 100_000  # one list built by one expression: beyond it, a rule error, not a hang


def _bounded_range(lo: int, hi: int) -> list[int]:
    if hi - lo > MAX_RANGE:
        raise RuleRuntimeError(f"range({lo}, {hi}) is too long (more than {MAX_RANGE} numbers)")
    return list(range(lo, hi))


def _impure(node: ast.Call, ctx: Context) -> None:
    if ctx.pure:
        raise CompileError(node, "impure", f"{node.name}() draws a random number; not allowed here",
                           "conditions, parameter choices and values must not change the game; "
                           "roll in the effect instead")


@builtin("random", (2,))
def _random(node: ast.Call, ctx: Context) -> Compiled:
    _impure(node, ctx)
    lo, hi = expect(node.args[0], ctx, "int"), expect(node.args[1], ctx, "int")

    def roll(st: Any, env: dict[str, Any]) -> int:
        a, b = lo(st, env), hi(st, env)
        return int(a + randbelow(st, b - a + 1))
    return roll, "int"


@builtin("pick_random", (1,))
def _pick_random(node: ast.Call, ctx: Context) -> Compiled:
    _impure(node, ctx)
    fn, type_ = _list_arg(node, ctx)

    def pick(st: Any, env: dict[str, Any]) -> Any:
        items = fn(st, env)
        return items[randbelow(st, len(items))] if items else None
    return pick, elem_of(type_)


@builtin("shuffled", (1,))
def _shuffled(node: ast.Call, ctx: Context) -> Compiled:
    _impure(node, ctx)
    fn, type_ = _list_arg(node, ctx)

    def shuffled(st: Any, env: dict[str, Any]) -> list[Any]:
        items = list(fn(st, env))
        shuffle_in_place(st, items)
        return items
    return shuffled, type_


def _zone_end(top: bool) -> Builtin:
    def compile_(node: ast.Call, ctx: Context) -> Compiled:
        slot = zone_slot(node.args[0], ctx)
        if slot is None:
            fn, _ = _list_arg(node, ctx)
            getter: Expr = fn
        else:
            s = slot
            getter = lambda st, env: st.zones[s(st, env)]
        if len(node.args) == 1:
            if top:
                return (lambda st, env: (lambda z: z[-1] if z else None)(getter(st, env))), "card"
            return (lambda st, env: (lambda z: z[0] if z else None)(getter(st, env))), "card"
        count = expect(node.args[1], ctx, "int")
        if top:
            return (lambda st, env: list(reversed(getter(st, env)[-count(st, env):])) if count(st, env) > 0
                    else []), "list:card"
        return (lambda st, env: getter(st, env)[:max(0, count(st, env))]), "list:card"
    return compile_


builtin("top", (1, 2))(_zone_end(True))
builtin("bottom", (1, 2))(_zone_end(False))


@builtin("owner", (1,))
def _owner(node: ast.Call, ctx: Context) -> Compiled:
    card = expect(node.args[0], ctx, "card")

    def owner(st: Any, env: dict[str, Any]) -> Any:
        slot = st.loc[card(st, env)]
        return None if slot < 0 or st.layout.zowner[slot] < 0 else st.layout.zowner[slot]
    return owner, "player"


@builtin("zone_of", (1,))
def _zone_of(node: ast.Call, ctx: Context) -> Compiled:
    card = expect(node.args[0], ctx, "card")

    def zone_of(st: Any, env: dict[str, Any]) -> Any:
        slot = st.loc[card(st, env)]
        return None if slot < 0 else st.gd.zones[st.layout.zdef[slot]].name
    return zone_of, "str"


def _direction(node: ast.Call, ctx: Context, i: int) -> Expr:
    if len(node.args) <= i:
        return lambda st, env: "clockwise"
    arg = node.args[i]
    if isinstance(arg, ast.Literal):
        if arg.value not in ("clockwise", "counterclockwise"):
            raise CompileError(arg, "bad-value", 'direction must be "clockwise" or "counterclockwise"')
        return expect(arg, ctx, "str")
    fn = expect(arg, ctx, "str")

    def direction(st: Any, env: dict[str, Any]) -> str:
        value = fn(st, env)
        if value not in ("clockwise", "counterclockwise"):  # anything else would silently mean counterclockwise
            raise RuleRuntimeError(f'direction must be "clockwise" or "counterclockwise", not {value!r}')
        return str(value)
    return direction


@builtin("next_player", (1, 2))
def _next_player(node: ast.Call, ctx: Context) -> Compiled:
    pfn, dfn = expect(node.args[0], ctx, "player"), _direction(node, ctx, 1)
    return (lambda st, env: (pfn(st, env) + (1 if dfn(st, env) == "clockwise" else -1)) % st.n), "player"


@builtin("players_from", (1, 2))
def _players_from(node: ast.Call, ctx: Context) -> Compiled:
    pfn, dfn = expect(node.args[0], ctx, "player"), _direction(node, ctx, 1)

    def order(st: Any, env: dict[str, Any]) -> list[int]:
        start, step = pfn(st, env), 1 if dfn(st, env) == "clockwise" else -1
        return [(start + i * step) % st.n for i in range(st.n)]
    return order, "list:player"


@builtin("seat", (1,))
def _seat(node: ast.Call, ctx: Context) -> Compiled:
    pfn = player_arg(node.args[0], ctx)
    return (lambda st, env: st.seats[pfn(st, env)]), "str"


@builtin("is_bot", (1,))
def _is_bot(node: ast.Call, ctx: Context) -> Compiled:
    pfn = player_arg(node.args[0], ctx)
    return (lambda st, env: st.seats[pfn(st, env)] in st.gd.bots), "bool"


@builtin("sorted", (1,))
def _sorted(node: ast.Call, ctx: Context) -> Compiled:
    fn, type_ = _list_arg(node, ctx)
    return (lambda st, env: sorted(fn(st, env))), type_


@builtin("reversed", (1,))
def _reversed(node: ast.Call, ctx: Context) -> Compiled:
    fn, type_ = _list_arg(node, ctx)
    return (lambda st, env: list(reversed(fn(st, env)))), type_


@builtin("index_of", (2,))
def _index_of(node: ast.Call, ctx: Context) -> Compiled:
    fn, _ = _list_arg(node, ctx)
    item = expect(node.args[1], ctx, "any")

    def index_of(st: Any, env: dict[str, Any]) -> int:
        items = fn(st, env)
        value = item(st, env)
        return items.index(value) if value in items else -1
    return index_of, "int"


@builtin("abs", (1,))
def _abs(node: ast.Call, ctx: Context) -> Compiled:
    fn = expect(node.args[0], ctx, "int")
    return (lambda st, env: abs(fn(st, env))), "int"


@builtin("exists", (1,))
def _exists(node: ast.Call, ctx: Context) -> Compiled:
    fn, _ = compile_expr(node.args[0], ctx)
    return (lambda st, env: fn(st, env) is not None), "bool"


@builtin("cards_named", (2,))
def _cards_named(node: ast.Call, ctx: Context) -> Compiled:
    """The cards of one definition id in a list: cards_named("boost", hand)."""
    arg = node.args[0]
    if isinstance(arg, ast.Literal) and isinstance(arg.value, str) and arg.value not in ctx.symbols.cards:
        raise CompileError(arg, "unknown-card", f"no card '{arg.value}'", hint_for(arg.value, ctx.symbols.cards))
    idfn = expect(arg, ctx, "str")
    fn, _ = _list_arg(node, ctx, 1)

    def named(st: Any, env: dict[str, Any]) -> list[int]:
        index = st.gd.card_index.get(idfn(st, env), -1)
        return [c for c in fn(st, env) if st.card_def[c] == index]
    return named, "list:card"


@builtin("has_grant", (2,))
def _has_grant(node: ast.Call, ctx: Context) -> Compiled:
    arg = node.args[0]
    if not (isinstance(arg, ast.Literal) and arg.value in ctx.symbols.modifiers):
        raise CompileError(arg, "unknown-modifier", "has_grant() needs a modifier id as a string",
                           hint_for(str(getattr(arg, "value", "")), ctx.symbols.modifiers))
    mi = ctx.symbols.modifiers[str(arg.value)]
    pfn = expect(node.args[1], ctx, "player")
    return (lambda st, env: any(g.modifier == mi and g.player == pfn(st, env) for g in st.grants)), "bool"


@builtin("uses", (1,))
def _uses(node: ast.Call, ctx: Context) -> Compiled:
    """How often an action was taken this turn by the acting player: uses("buy")."""
    arg = node.args[0]
    if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)):
        raise CompileError(arg, "type", "uses() needs an action id as a string")
    action = arg.value
    return (lambda st, env: st.uses["turn"].get(f"{action}:{env.get('me', st.active)}", 0)), "int"


# ---- text for people (views and log lines) -------------------------------------------------


@builtin("text", (1,))
def _text(node: ast.Call, ctx: Context) -> Compiled:
    """A value as people read it: text(c) is the card's name, text(p) is P1.."""
    fn, type_ = compile_expr(node.args[0], ctx)
    return (lambda st, env: people_text(st, fn(st, env), type_)), "str"


@builtin("join", (1, 2))
def _join(node: ast.Call, ctx: Context) -> Compiled:
    """join(L[, sep]): the items of a list as text, separated (default ", ")."""
    fn, type_ = _list_arg(node, ctx)
    sep = expect(node.args[1], ctx, "str") if len(node.args) == 2 else (lambda st, env: ", ")
    inner = elem_of(type_)
    return (lambda st, env: sep(st, env).join(people_text(st, v, inner) for v in fn(st, env))), "str"


@builtin("select", (3,))
def _select(node: ast.Call, ctx: Context) -> Compiled:
    """select(cond, a, b): a when cond holds, else b (only the one chosen is evaluated)."""
    cond = expect(node.args[0], ctx, "bool")
    yes, ytype = compile_expr(node.args[1], ctx)
    no, ntype = compile_expr(node.args[2], ctx)
    return (lambda st, env: yes(st, env) if cond(st, env) else no(st, env)), ytype if ytype == ntype else "any"


@builtin("pad", (2,))
def _pad(node: ast.Call, ctx: Context) -> Compiled:
    """pad(x, n): x as text, right-aligned to n characters (negative n: left-aligned)."""
    fn, type_ = compile_expr(node.args[0], ctx)
    width = expect(node.args[1], ctx, "int")

    def pad(st: Any, env: dict[str, Any]) -> str:
        value, n = people_text(st, fn(st, env), type_), width(st, env)
        return value.rjust(n) if n >= 0 else value.ljust(-n)
    return pad, "str"
