"""Compile expression nodes into closures `fn(state, env) -> value`, checking names,
arity and types on the way.

Compiling once at load keeps the hot path (legal actions, apply) free of parsing and
name look-ups: a closure reads the state's lists by precomputed indexes. Runtime values
are plain: ints, bools, strings, lists; players are seat numbers, cards instance numbers.
A zone read as a value is a fresh list (zones change under a running loop).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError, Symbols, elem_of, is_list, list_of
from interpreter.model import Expr
from interpreter.runtime.counters import value_of

Compiled = tuple[Expr, str]

NUMERIC = ("int", "any", "player", "bool")


@attrs.define
class Context:
    """What an expression may see: the game's symbols, the locals in scope and their
    types, and whether it must be pure (no random numbers: legal-action conditions)."""

    symbols: Symbols
    locals: dict[str, str]
    pure: bool = False
    # Locals known to hold a seat (loop variables over `players`): no range check needed.
    seats: frozenset[str] = frozenset()

    def with_local(self, name: str, type_: str, seat: bool = False) -> Context:
        seats = self.seats | {name} if seat else self.seats - {name}
        return Context(self.symbols, {**self.locals, name: type_}, self.pure, seats)


def yields_seats(node: ast.Node) -> bool:
    """Whether a list expression gives only seats of the game (`players`, `players_from`)."""
    return (isinstance(node, ast.Name) and node.name == "players") or (
        isinstance(node, ast.Call) and node.name == "players_from")


# ---- helpers for zone and counter references -----------------------------------------


def checked_player(pfn: Expr) -> Expr:
    """A player expression that refuses what is not a seat of this game: slots are
    computed from the seat number, so -1 or a seat too high would silently read another
    player's (or another zone's) data."""
    def player(st: Any, env: dict[str, Any]) -> int:
        p = pfn(st, env)
        if type(p) is not int or not 0 <= p < st.n:
            raise RuleRuntimeError(f"there is no player {p!r} (players are 0 to {st.n - 1})")
        return p
    return player


def player_arg(node: ast.Node, ctx: Context) -> Expr:
    """A player argument, range-checked unless it is a seat by construction (`me`,
    `active`, `next_player(...)`, the literal 0): most reads are of those, on the hot path."""
    fn = expect(node, ctx, "player")
    if isinstance(node, ast.Name) and node.name in ("me", "active") and node.name not in ctx.locals:
        return fn
    if isinstance(node, ast.Name) and node.name in ctx.seats:
        return fn
    if isinstance(node, ast.Call) and node.name == "next_player":
        return fn
    if isinstance(node, ast.Literal) and type(node.value) is int and 0 <= node.value < ctx.symbols.min_players:
        return fn
    return checked_player(fn)


def checked_index(kfn: Expr, width: int, name: str) -> Expr:
    """An index into a sized counter, refused when out of range (it would read the next
    player's part of the counter, or wrap around from the end)."""
    def index(st: Any, env: dict[str, Any]) -> int:
        k = kfn(st, env)
        if type(k) is not int or not 0 <= k < width:
            raise RuleRuntimeError(f"{name}[{k!r}] is out of range (0 to {width - 1})")
        return k
    return index


def zone_slot(node: ast.Node, ctx: Context) -> Expr | None:
    """A zone reference (`deck`, `hand`, `hand(p)`) as a closure giving its slot, or None."""
    sym = ctx.symbols
    if isinstance(node, ast.Name) and node.name in sym.zones and node.name not in ctx.locals:
        zdef = sym.zones[node.name]
        zi = zdef.index
        if zdef.scope == "global":
            return lambda st, env: st.layout.zbase[zi]
        return lambda st, env: st.layout.zbase[zi] + env.get("me", st.active)
    if isinstance(node, ast.Call) and node.name in sym.zones and node.name not in ctx.locals:
        zdef = sym.zones[node.name]
        zi = zdef.index
        if zdef.scope == "global":
            if node.args:
                raise CompileError(node, "arity", f"zone '{node.name}' is shared: it takes no player")
            return lambda st, env: st.layout.zbase[zi]
        if len(node.args) != 1:
            raise CompileError(node, "arity", f"zone '{node.name}' takes one player: {node.name}(p)")
        pfn = player_arg(node.args[0], ctx)
        return lambda st, env: st.layout.zbase[zi] + pfn(st, env)
    return None


def counter_ref(node: ast.Node, ctx: Context) -> tuple[int, Expr] | None:
    """A counter reference as (counter index, closure giving the slot in its list)."""
    sym = ctx.symbols
    key_node: ast.Node | None = None
    base = node
    if isinstance(node, ast.Index):
        key_node, base = node.index, node.target
    if isinstance(base, ast.Name) and base.name in sym.counters and base.name not in ctx.locals:
        cdef, player = sym.counters[base.name], None
    elif isinstance(base, ast.Call) and base.name in sym.counters and base.name not in ctx.locals:
        cdef = sym.counters[base.name]
        if cdef.scope == "global":
            raise CompileError(base, "arity", f"counter '{cdef.name}' is shared: it takes no player")
        if len(base.args) != 1:
            raise CompileError(base, "arity", f"counter '{cdef.name}' takes one player: {cdef.name}(p)")
        player = player_arg(base.args[0], ctx)
    else:
        return None
    width = cdef.width
    if key_node is None:
        if width != 1:
            return None  # the whole array: not a single counter
        keyfn: Expr = lambda st, env: 0
    elif cdef.keys:
        keys = {k: i for i, k in enumerate(cdef.keys)}
        if isinstance(key_node, ast.Literal) and isinstance(key_node.value, str):
            if key_node.value not in keys:
                raise CompileError(
                    key_node, "unknown-key", f"counter '{cdef.name}' has no key '{key_node.value}'",
                    hint_for(key_node.value, keys),
                )
            k = keys[key_node.value]
            keyfn = lambda st, env: k
        else:
            kfn = expect(key_node, ctx, "str")
            keyfn = lambda st, env: keys[kfn(st, env)]
    elif width > 1:
        keyfn = checked_index(expect(key_node, ctx, "int"), width, cdef.name)
    else:
        raise CompileError(key_node, "type", f"counter '{cdef.name}' is not an array")
    if cdef.scope == "global":
        return cdef.index, keyfn
    if player is None:
        if width == 1:
            return cdef.index, lambda st, env: env.get("me", st.active)
        return cdef.index, lambda st, env: env.get("me", st.active) * width + keyfn(st, env)
    if width == 1:
        return cdef.index, player
    pl = player
    return cdef.index, lambda st, env: pl(st, env) * width + keyfn(st, env)


# ---- the compiler ----------------------------------------------------------------------


def compile_expr(node: ast.Node, ctx: Context) -> Compiled:
    method = _DISPATCH.get(type(node))
    if method is None:
        raise CompileError(node, "syntax", "this is a statement, not a value")
    return method(node, ctx)


def expect(node: ast.Node, ctx: Context, want: str) -> Expr:
    """Compile and check the type is `want` (any matches anything)."""
    fn, got = compile_expr(node, ctx)
    if not compatible(got, want):
        raise CompileError(node, "type", f"expected {describe(want)}, got {describe(got)}")
    return fn


def compatible(got: str, want: str) -> bool:
    if got == want or "any" in (got, want) or got == "none":
        return True
    if got.startswith("list:") and want.startswith("list:"):
        return compatible(elem_of(got), elem_of(want))
    # Players are seat numbers: a number may name one, and seats compare and add.
    return (want, got) in (("int", "bool"), ("player", "int"), ("int", "player"))


def describe(type_: str) -> str:
    if type_.startswith("list:"):
        return f"a list of {describe(elem_of(type_))}"
    return {
        "int": "a number", "bool": "true/false", "str": "a string", "player": "a player",
        "card": "a card", "none": "none", "any": "a value", "map": "a table",
    }.get(type_, type_)


def _literal(node: ast.Literal, ctx: Context) -> Compiled:
    value = node.value
    type_ = {bool: "bool", int: "int", str: "str"}.get(type(value), "none")
    return (lambda st, env: value), type_


def _type_of_constant(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        elems = {_type_of_constant(v) for v in value}
        return list_of(elems.pop() if len(elems) == 1 else "any")
    if isinstance(value, dict):
        return "map"
    return "any"


_BUILTIN_NAMES: dict[str, tuple[Expr, str]] = {
    "players": (lambda st, env: st.players, "list:player"),
    "player_count": (lambda st, env: st.n, "int"),
    "me": (lambda st, env: env.get("me", st.active), "player"),
    "active": (lambda st, env: st.active, "player"),
    "round_number": (lambda st, env: st.round_no, "int"),
    "turn_number": (lambda st, env: st.turn_no, "int"),
}
# Names bound by the engine in some contexts (trigger and card effects).
CONTEXT_NAMES = {"this": "card", "owner": "player", "card": "card", "player": "player",
                 "old": "int", "new": "int", "key": "any", "p": "player"}


def _name(node: ast.Name, ctx: Context) -> Compiled:
    name, sym = node.name, ctx.symbols
    if name in ctx.locals:
        return (lambda st, env: env[name]), ctx.locals[name]
    if name in _BUILTIN_NAMES:
        return _BUILTIN_NAMES[name]
    if name in sym.constants:
        value = sym.constants[name]
        return (lambda st, env: value), _type_of_constant(value)
    if name in sym.counters:
        cdef = sym.counters[name]
        ci, width = cdef.index, cdef.width
        if width == 1:
            ref = counter_ref(node, ctx)
            assert ref is not None
            slot = ref[1]
            return (lambda st, env: st.counters[ci][slot(st, env)]), "int"
        if cdef.scope == "global":
            return (lambda st, env: st.counters[ci][:]), list_of("int")
        return (lambda st, env: st.counters[ci][env.get("me", st.active) * width:
                                                (env.get("me", st.active) + 1) * width]), list_of("int")
    if name in sym.zones:
        slotfn = zone_slot(node, ctx)
        assert slotfn is not None
        return (lambda st, env: st.zones[slotfn(st, env)][:]), "list:card"
    if name in sym.values:
        vi, of_player, type_ = sym.values[name]
        if of_player:
            return (lambda st, env: value_of(st, vi, env.get("me", st.active))), type_
        return (lambda st, env: value_of(st, vi, -1)), type_
    known = list(ctx.locals) + list(_BUILTIN_NAMES) + sym.all_names()
    raise CompileError(node, "unknown-name", f"unknown name '{name}'", hint_for(name, known), len(name))


def _list(node: ast.ListExpr, ctx: Context) -> Compiled:
    parts = [compile_expr(item, ctx) for item in node.items]
    fns = [p[0] for p in parts]
    types = {p[1] for p in parts}
    elem = types.pop() if len(types) == 1 else "any"
    return (lambda st, env: [f(st, env) for f in fns]), list_of(elem)


def _comprehension_parts(node: ast.Comprehension, ctx: Context) -> tuple[Expr, Compiled, Expr | None]:
    """The source, element (with its type) and condition of `[e for x in L if c]`,
    compiled with `x` in scope."""
    src, src_type = compile_expr(node.source, ctx)
    if not is_list(src_type):
        raise CompileError(node.source, "type", f"expected a list to go through, got {describe(src_type)}")
    inner = ctx.with_local(node.var, elem_of(src_type), yields_seats(node.source))
    cond = expect(node.condition, inner, "bool") if node.condition is not None else None
    return src, compile_expr(node.element, inner), cond


def _comprehension(node: ast.Comprehension, ctx: Context) -> Compiled:
    src, (elem, elem_type), cond = _comprehension_parts(node, ctx)
    var = node.var

    def comp(st: Any, env: dict[str, Any]) -> list[Any]:
        # The loop variable lives in the frame's locals while the list is built; a local
        # of the same name outside is put back afterwards (the variable is scoped).
        outer = env.get(var, _UNSET)
        out = []
        if cond is None:
            for item in src(st, env):
                env[var] = item
                out.append(elem(st, env))
        else:
            for item in src(st, env):
                env[var] = item
                if cond(st, env):
                    out.append(elem(st, env))
        if outer is _UNSET:
            env.pop(var, None)
        else:
            env[var] = outer
        return out
    return comp, list_of(elem_type)


_UNSET = object()


def early_exit(node: ast.Node, ctx: Context, wanted: bool) -> Expr | None:
    """`any([e for x in L if c])` / `all(...)` as a loop that stops at the first answer
    (end conditions run this at every decision), or None for other arguments."""
    if not isinstance(node, ast.Comprehension):
        return None
    src, (elem, _), cond = _comprehension_parts(node, ctx)
    var = node.var

    def scan(st: Any, env: dict[str, Any]) -> bool:
        outer = env.get(var, _UNSET)
        found = not wanted
        for item in src(st, env):
            env[var] = item
            if (cond is None or cond(st, env)) and bool(elem(st, env)) is wanted:
                found = wanted
                break
        if outer is _UNSET:
            env.pop(var, None)
        else:
            env[var] = outer
        return found
    return scan


def _attr(node: ast.Attr, ctx: Context) -> Compiled:
    target, ttype = compile_expr(node.target, ctx)
    field = node.name
    if ttype == "map" or (ttype == "any" and field not in ctx.symbols.card_fields
                          and field not in ("id", "name", "type")):
        return (lambda st, env: target(st, env)[field]), "any"
    if ttype not in ("card", "any"):
        raise CompileError(node, "type", f"'.{field}' needs a card or a table, got {describe(ttype)}")
    of_card, rtype = _card_field(node, ctx)
    if ttype == "any":
        # a value of unknown type (a table from a constant, or a card): a table whose key
        # is also a card field's name must still read as a table, so decide at run time
        def read_any(st: Any, env: dict[str, Any]) -> Any:
            value = target(st, env)
            return value[field] if isinstance(value, dict) else of_card(st, value)
        return read_any, "any"
    return (lambda st, env: of_card(st, target(st, env))), rtype


def _card_field(node: ast.Attr, ctx: Context) -> tuple[Callable[[Any, int], Any], str]:
    """A reader of one field of a card (given its instance id), and its type."""
    field = node.name
    if field == "id":
        return (lambda st, iid: st.gd.cards[st.card_def[iid]].id), "str"
    if field == "name":
        return (lambda st, iid: st.gd.cards[st.card_def[iid]].name), "str"
    if field == "type":
        return (lambda st, iid: st.gd.cards[st.card_def[iid]].type), "str"
    if field not in ctx.symbols.card_fields:
        raise CompileError(
            node, "unknown-field", f"no card has a property or attribute '{field}'",
            hint_for(field, ctx.symbols.card_fields), len(field),
        )
    missing = None

    def read(st: Any, iid: int) -> Any:
        value = st.attrs.get((iid, field), missing)
        if value is missing:
            return st.gd.cards[st.card_def[iid]].properties.get(field)
        return value
    return read, "any"


def _index(node: ast.Index, ctx: Context) -> Compiled:
    ref = counter_ref(node, ctx)
    if ref is not None:
        ci, slot = ref
        return (lambda st, env: st.counters[ci][slot(st, env)]), "int"
    target, ttype = compile_expr(node.target, ctx)
    index, itype = compile_expr(node.index, ctx)
    if ttype.startswith("list:") and itype not in ("int", "any", "player"):
        raise CompileError(node.index, "type", f"a list index must be a number, got {describe(itype)}")
    result = elem_of(ttype) if ttype.startswith("list:") else "any"
    return (lambda st, env: target(st, env)[index(st, env)]), result


def _unary(node: ast.Unary, ctx: Context) -> Compiled:
    if node.op == "not":
        fn = expect(node.operand, ctx, "bool")
        return (lambda st, env: not fn(st, env)), "bool"
    fn = expect(node.operand, ctx, "int")
    return (lambda st, env: -fn(st, env)), "int"


def _binary(node: ast.Binary, ctx: Context) -> Compiled:
    op = node.op
    left, ltype = compile_expr(node.left, ctx)
    right, rtype = compile_expr(node.right, ctx)
    if op == "and":
        return (lambda st, env: left(st, env) and right(st, env)), "bool"
    if op == "or":
        return (lambda st, env: left(st, env) or right(st, env)), "any" if ltype != rtype else ltype
    if op in ("in", "not in"):
        if not is_list(rtype) and rtype not in ("map", "str"):
            raise CompileError(node.right, "type", f"'{op}' needs a list on its right, got {describe(rtype)}")
        if op == "in":
            return (lambda st, env: left(st, env) in right(st, env)), "bool"
        return (lambda st, env: left(st, env) not in right(st, env)), "bool"
    if op in ("==", "!="):
        if op == "==":
            return (lambda st, env: left(st, env) == right(st, env)), "bool"
        return (lambda st, env: left(st, env) != right(st, env)), "bool"
    if op == "+" and "str" in (ltype, rtype) and {ltype, rtype} <= {"str", "any"}:
        return (lambda st, env: str(left(st, env)) + str(right(st, env))), "str"
    if op == "+" and (ltype.startswith("list:") or rtype.startswith("list:")):
        return (lambda st, env: list(left(st, env)) + list(right(st, env))), ltype
    for side, t in ((node.left, ltype), (node.right, rtype)):
        if t not in NUMERIC and not (op in ("<", "<=", ">", ">=") and t in ("str", "player")):
            if t != "bool":
                raise CompileError(side, "type", f"'{op}' needs numbers, got {describe(t)}")
    fn = _ARITH[op](left, right)
    return fn, "bool" if op in ("<", "<=", ">", ">=") else "int"


def _div(a: int, b: int) -> int:
    # Integer division that rounds toward zero, as people expect from "half, rounded down".
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_ARITH: dict[str, Callable[[Expr, Expr], Expr]] = {
    "+": lambda a, b: lambda st, env: a(st, env) + b(st, env),
    "-": lambda a, b: lambda st, env: a(st, env) - b(st, env),
    "*": lambda a, b: lambda st, env: a(st, env) * b(st, env),
    "/": lambda a, b: lambda st, env: _div(a(st, env), b(st, env)),
    "%": lambda a, b: lambda st, env: a(st, env) % b(st, env),
    "<": lambda a, b: lambda st, env: a(st, env) < b(st, env),
    "<=": lambda a, b: lambda st, env: a(st, env) <= b(st, env),
    ">": lambda a, b: lambda st, env: a(st, env) > b(st, env),
    ">=": lambda a, b: lambda st, env: a(st, env) >= b(st, env),
}


def _call(node: ast.Call, ctx: Context) -> Compiled:
    sym, name = ctx.symbols, node.name
    if name in sym.counters:
        ref = counter_ref(node, ctx)
        if ref is not None:
            ci, slot = ref
            return (lambda st, env: st.counters[ci][slot(st, env)]), "int"
        cdef = sym.counters[name]
        if cdef.scope == "global" or len(node.args) != 1:
            raise CompileError(node, "arity", f"counter '{name}' takes one player: {name}(p)")
        pfn, width, ci = player_arg(node.args[0], ctx), cdef.width, cdef.index
        return (lambda st, env: st.counters[ci][pfn(st, env) * width:(pfn(st, env) + 1) * width]), list_of("int")
    if name in sym.zones:
        slotfn = zone_slot(node, ctx)
        assert slotfn is not None
        return (lambda st, env: st.zones[slotfn(st, env)][:]), "list:card"
    if name in sym.values:
        vi, of_player, type_ = sym.values[name]
        if not of_player:
            if node.args:
                raise CompileError(node, "arity", f"value '{name}' takes no player")
            return (lambda st, env: value_of(st, vi, -1)), type_
        if len(node.args) != 1:
            raise CompileError(node, "arity", f"value '{name}' takes one player: {name}(p)")
        pfn = expect(node.args[0], ctx, "player")
        return (lambda st, env: value_of(st, vi, pfn(st, env))), type_
    function = sym.functions.get(name)
    if function is not None and name not in ctx.locals:
        return _call_function(node, ctx, function.params, function.code)
    builtin = BUILTINS.get(name)
    if builtin is None:
        if name in sym.procedures:
            raise CompileError(node, "type", f"procedure '{name}' is a statement; it gives no value")
        known = list(BUILTINS) + sym.all_names()
        raise CompileError(node, "unknown-name", f"unknown function '{name}'", hint_for(name, known), len(name))
    return builtin(node, ctx)


def _call_function(node: ast.Call, ctx: Context, params: tuple[str, ...], index: int) -> Compiled:
    """A game-defined function: its parameters bound in a fresh env (plus `me`)."""
    if len(node.args) != len(params):
        raise CompileError(node, "arity", f"{node.name}() takes {len(params)} argument(s), got {len(node.args)}",
                           width=len(node.name))
    args = [compile_expr(a, ctx)[0] for a in node.args]
    table, named = ctx.symbols.function_table, tuple(zip(params, args, strict=True))

    def call(st: Any, env: dict[str, Any]) -> Any:
        local = {"me": env.get("me", st.active)}
        for name, arg in named:
            local[name] = arg(st, env)
        return table[index](st, local)
    return call, "any"


_DISPATCH: dict[type, Callable[[Any, Context], Compiled]] = {
    ast.Literal: _literal,
    ast.Name: _name,
    ast.ListExpr: _list,
    ast.Comprehension: _comprehension,
    ast.Attr: _attr,
    ast.Index: _index,
    ast.Unary: _unary,
    ast.Binary: _binary,
    ast.Call: _call,
}

# ---- built-in functions ----------------------------------------------------------------

Builtin = Callable[[ast.Call, Context], Compiled]
BUILTINS: dict[str, Builtin] = {}


def builtin(name: str, arity: tuple[int, ...]) -> Callable[[Builtin], Builtin]:
    def register(fn: Builtin) -> Builtin:
        def checked(node: ast.Call, ctx: Context) -> Compiled:
            if len(node.args) not in arity:
                want = " or ".join(str(a) for a in arity)
                raise CompileError(node, "arity", f"{name}() takes {want} argument(s), got {len(node.args)}",
                                   width=len(name))
            return fn(node, ctx)
        BUILTINS[name] = checked
        return fn
    return register
