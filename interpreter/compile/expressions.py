"""Compile expression nodes into Python expression trees, checking names, arity and
types on the way.

Each expression becomes one Python expression tree over `st` (the state) and `env`
(the running effect's locals), built from the compiler's own templates (compile/pyast.py)
and made into a function once (pysource.Emitter). Compiling once at load keeps the hot
path (legal actions, apply) free of parsing and name look-ups: the generated code reads
the state's lists by precomputed indexes, and comprehension variables are Python
locals, not dictionary entries. Runtime values are plain: ints, bools, strings, lists;
players are seat numbers, cards instance numbers. A zone read as a value is a fresh
list (zones change under a running loop).

`gen(node, ctx)` gives (tree, type); `compile_expr` gives (function, type) for the
statement compiler and the builder, which call the functions directly.
"""

from __future__ import annotations

import ast as py
import contextlib
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import attrs

from interpreter.compile.bounds import bounded_arithmetic, charged_already, scanned, small_source, uncharged
from interpreter.compile.bounds import yields_seats as yields_seats  # (where other modules find it)
from interpreter.compile.builtin_registry import BUILTINS
from interpreter.compile.card_defs import field_reader, static_field
from interpreter.compile.hoisting import hoisted, hoisting_root, with_hoists
from interpreter.compile.numeric import divided, normalised
from interpreter.compile.pyast import E, env_key, lit, name, with_ctx
from interpreter.compile.pysource import Emitter
from interpreter.compile.values import value_name
from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError, Symbols, elem_of, is_list, list_of
from interpreter.model import Expr
from interpreter.runtime.work import charge

Gen = tuple[py.expr, str]  # (Python tree of the value, its type)
Compiled = tuple[Expr, str]

NUMERIC = ("int", "any", "player", "bool")
ME = E("env.get('me', st.active)")  # the acting player: bound in every effect, else the active one


@attrs.define
class Context:
    """What an expression may see: the game's symbols, the locals in scope and their
    types, and whether it must be pure (no random numbers: legal-action conditions)."""

    symbols: Symbols
    locals: dict[str, str]
    pure: bool = False
    # Locals known to hold a seat (loop variables over `players`): no range check needed.
    seats: frozenset[str] = frozenset()
    emitter: Emitter = attrs.field(factory=Emitter)
    # Locals that live in generated Python code (comprehension variables): name -> identifier.
    pylocals: dict[str, str] = attrs.field(factory=dict)
    # Inside the list a comprehension goes through, where Python allows no `:=`.
    in_iterable: bool = False
    # Inside a comprehension: the calls worked out once for the whole comprehension
    # (pyast.key of the call -> the names holding the result and its work), see `hoisted`.
    hoists: dict[str, tuple[py.Name, py.Name]] | None = None

    def with_local(self, name: str, type_: str, seat: bool = False, pyname: str | None = None) -> Context:
        seats = self.seats | {name} if seat else self.seats - {name}
        pylocals = dict(self.pylocals)
        if pyname is None:
            pylocals.pop(name, None)
        else:
            pylocals[name] = pyname
        return Context(self.symbols, {**self.locals, name: type_}, self.pure, seats, self.emitter, pylocals,
                       self.in_iterable, self.hoists)

    def const(self, value: Any, stem: str = "k") -> py.expr:
        return self.emitter.const(value, stem)

    @contextlib.contextmanager
    def block(self) -> Iterator[None]:
        """A block of statements: the locals it declares end with it (the checker stays
        honest about scope)."""
        saved = dict(self.locals)
        yield
        self.locals.clear()
        self.locals.update(saved)


def local_src(local: str, ctx: Context) -> py.expr:
    """A local of the effect language: a Python local in a comprehension, else a key of env."""
    pyname = ctx.pylocals.get(local)
    return name(pyname) if pyname else E("env[{k}]", k=lit(local))


# ---- checks the generated code calls -------------------------------------------------


def unpacked_type(node: ast.Node, item_type: str, count: int) -> str:
    """The type of each name of `for a, b in L` (items of L are lists)."""
    if item_type == "any":
        return "any"
    if not is_list(item_type):
        raise CompileError(node, "type", f"cannot unpack {describe(item_type)} into {count} names: "
                           "each item must be a list")
    return elem_of(item_type)


def unpacked(items: Any, count: int) -> list[Any]:
    """The items of a list, each checked to be a list of `count` values (the values
    `for a, b in L` binds; lists, as a save holds them)."""
    out = []
    for item in items:
        if not isinstance(item, list | tuple) or len(item) != count:
            raise RuleRuntimeError(f"cannot unpack {item!r} into {count} names: "
                                   f"each item must be a list of {count}")
        out.append(item if type(item) is list else list(item))
    return out


def check_index(k: Any, width: int, name: str) -> int:
    """An index into a sized counter, refused when out of range (it would read the next
    player's part of the counter, or wrap around from the end)."""
    if type(k) is not int or not 0 <= k < width:
        raise RuleRuntimeError(f"{name}[{k!r}] is out of range (0 to {width - 1})")
    return k


class _Indexes(dict[Any, int]):
    """The valid indexes of a sized counter, each mapped to itself; any other key is
    refused as check_index refuses it (reading it costs one dictionary look-up)."""

    def __init__(self, width: int, name: str):
        super().__init__((i, i) for i in range(width))
        self.width, self.name = width, name

    def __missing__(self, key: Any) -> int:
        return check_index(key, self.width, self.name)


# ---- helpers for zone and counter references -----------------------------------------


def gen_player_arg(node: ast.Node, ctx: Context) -> py.expr:
    """A player argument, range-checked unless it is a seat by construction (`me`,
    `active`, `next_player(...)`, the literal 0): most reads are of those, on the hot path."""
    src = gen_expect(node, ctx, "player")
    if isinstance(node, ast.Name) and node.name in ("me", "active") and node.name not in ctx.locals:
        return src
    if isinstance(node, ast.Name) and node.name in ctx.seats:
        return src
    if isinstance(node, ast.Call) and node.name == "next_player":
        return src
    if isinstance(node, ast.Literal) and type(node.value) is int and 0 <= node.value < ctx.symbols.min_players:
        return src
    return E("st.layout.seat[{p}]", p=src)  # layout.SeatIndex: refuses what is not a seat


def gen_zone_slot(node: ast.Node, ctx: Context) -> py.expr | None:
    """A zone reference (`deck`, `hand`, `hand(p)`) as code giving its slot, or None."""
    sym = ctx.symbols
    if not isinstance(node, ast.Name | ast.Call) or node.name not in sym.zones or node.name in ctx.locals:
        return None
    zdef = sym.zones[node.name]
    base = E("st.layout.zbase[{i}]", i=zdef.index)
    if isinstance(node, ast.Name):
        return base if zdef.scope == "global" else E("{base} + {me}", base=base, me=ME)
    if zdef.scope == "global":
        if node.args:
            raise CompileError(node, "arity", f"zone '{node.name}' is shared: it takes no player")
        return base
    if len(node.args) != 1:
        raise CompileError(node, "arity", f"zone '{node.name}' takes one player: {node.name}(p)")
    return E("{base} + {p}", base=base, p=gen_player_arg(node.args[0], ctx))


def zone_slot(node: ast.Node, ctx: Context) -> Expr | None:
    src = gen_zone_slot(node, ctx)
    return None if src is None else ctx.emitter.function(src)


def gen_counter_ref(node: ast.Node, ctx: Context) -> tuple[int, py.expr] | None:
    """A counter reference as (counter index, code giving the slot in its list)."""
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
        player = gen_player_arg(base.args[0], ctx)
    else:
        return None
    width = cdef.width
    key: py.expr
    if key_node is None:
        if width != 1:
            return None  # the whole array: not a single counter
        key = py.Constant(0)
    elif cdef.keys:
        keys = {k: i for i, k in enumerate(cdef.keys)}
        if isinstance(key_node, ast.Literal) and isinstance(key_node.value, str):
            if key_node.value not in keys:
                raise CompileError(
                    key_node, "unknown-key", f"counter '{cdef.name}' has no key '{key_node.value}'",
                    hint_for(key_node.value, keys),
                )
            key = py.Constant(keys[key_node.value])
        else:
            key = E("{keys}[{k}]", keys=ctx.const(keys, "keys"), k=gen_expect(key_node, ctx, "str"))
    elif width > 1:
        index = gen_expect(key_node, ctx, "int")
        if isinstance(key_node, ast.Literal) and type(key_node.value) is int and 0 <= key_node.value < width:
            key = index
        else:  # checked by a dict look-up: a call per read would cost more than the read
            memo = ctx.emitter.memo
            if ("slots", cdef.name) not in memo:
                memo[("slots", cdef.name)] = ctx.const(_Indexes(width, cdef.name), "indexes")
            key = E("{slots}[{i}]", slots=memo[("slots", cdef.name)], i=index)
    else:
        raise CompileError(key_node, "type", f"counter '{cdef.name}' is not an array")
    if cdef.scope == "global":
        return cdef.index, key
    who = ME if player is None else player
    if width == 1:
        return cdef.index, who
    return cdef.index, E("{who} * {width} + {key}", who=who, width=width, key=key)


# ---- the compiler ----------------------------------------------------------------------


def gen(node: ast.Node, ctx: Context) -> Gen:
    method = _DISPATCH.get(type(node))
    if method is None:
        raise CompileError(node, "syntax", "this is a statement, not a value")
    return method(node, ctx)


def gen_expect(node: ast.Node, ctx: Context, want: str) -> py.expr:
    """Code of the value, its type checked to be `want` (any matches anything)."""
    src, got = gen(node, ctx)
    if not compatible(got, want):
        raise CompileError(node, "type", f"expected {describe(want)}, got {describe(got)}")
    return src


def compile_expr(node: ast.Node, ctx: Context) -> Compiled:
    src, type_ = gen(node, ctx)
    return ctx.emitter.function(src), type_


def expect(node: ast.Node, ctx: Context, want: str) -> Expr:
    """Compile and check the type is `want` (any matches anything)."""
    return ctx.emitter.function(gen_expect(node, ctx, want))


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


def _literal(node: ast.Literal, ctx: Context) -> Gen:
    value = node.value
    type_ = {bool: "bool", int: "int", str: "str", Fraction: "int"}.get(type(value), "none")  # (int: a number)
    return ctx.const(value), type_


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


_BUILTIN_NAMES: dict[str, Gen] = {
    "players": (E("st.players"), "list:player"),
    "player_count": (E("st.n"), "int"),
    "me": (ME, "player"),
    "active": (E("st.active"), "player"),
    "round_number": (E("st.round_no"), "int"),
    "turn_number": (E("st.turn_no"), "int"),
}
# Names bound by the engine in some contexts (trigger and card effects).
CONTEXT_NAMES = {"this": "card", "owner": "player", "card": "card", "player": "player",
                 "old": "int", "new": "int", "key": "any", "p": "player"}


def _name(node: ast.Name, ctx: Context) -> Gen:
    word, sym = node.name, ctx.symbols
    if word in ctx.locals:
        return local_src(word, ctx), ctx.locals[word]
    if word in _BUILTIN_NAMES:
        return _BUILTIN_NAMES[word]
    if word in sym.constants:
        value = sym.constants[word]
        return ctx.const(value), _type_of_constant(value)
    if word in sym.counters:
        cdef = sym.counters[word]
        ci, width = cdef.index, cdef.width
        if width == 1:
            ref = gen_counter_ref(node, ctx)
            assert ref is not None
            return E("st.counters[{ci}][{slot}]", ci=ci, slot=ref[1]), "int"
        if cdef.scope == "global":
            return E("st.counters[{ci}][:]", ci=ci), list_of("int")
        return (E("{part}(st.counters[{ci}], {me}, {width})", part=ctx.const(_player_part, "part"), ci=ci, me=ME,
                  width=width), list_of("int"))
    if word in sym.zones:
        slot = gen_zone_slot(node, ctx)
        assert slot is not None
        return E("st.zones[{slot}][:]", slot=slot), "list:card"
    if word in sym.values:
        vi, of_player, type_ = sym.values[word]
        if of_player:
            return E("{value}(st, {me})", value=value_name(ctx.emitter, vi), me=ME), type_
        return E("{value}(st, -1)", value=value_name(ctx.emitter, vi)), type_
    known = list(ctx.locals) + list(_BUILTIN_NAMES) + sym.all_names()
    raise CompileError(node, "unknown-name", f"unknown name '{word}'", hint_for(word, known), len(word))


def _player_part(values: list[int], player: int, width: int) -> list[int]:
    return values[player * width:(player + 1) * width]


def _list(node: ast.ListExpr, ctx: Context) -> Gen:
    parts = [gen(item, ctx) for item in node.items]
    types = {p[1] for p in parts}
    elem = types.pop() if len(types) == 1 else "any"
    return py.List([p[0] for p in parts], py.Load()), list_of(elem)


def iteration_source(node: ast.Node, ctx: Context) -> Gen:
    """A list to go through: a zone is read in place (expressions never move cards, so
    no copy is needed while it is gone through)."""
    slot = gen_zone_slot(node, ctx)
    if slot is not None:
        return E("st.zones[{slot}]", slot=slot), "list:card"
    return gen(node, ctx)


def comprehension_parts(node: ast.Comprehension, ctx: Context) -> tuple[py.expr, py.expr, Gen, py.expr | None]:
    """The loop variable, source, element (with its type) and condition of
    `[e for x in L if c]`, with `x` a Python local of the generated code (for
    `for a, b in L`, a tuple of locals over the checked items)."""
    src, src_type = iteration_source(node.source, attrs.evolve(ctx, in_iterable=True))
    if not is_list(src_type):
        raise CompileError(node.source, "type", f"expected a list to go through, got {describe(src_type)}")
    if not small_source(node.source, ctx) and not charged_already(node.source, src, ctx):
        # runtime/work.py: bounded work per step
        src = E("{charge}(st, {src})", charge=ctx.const(charge, "charge"), src=src)
    if node.unpack:
        part = unpacked_type(node.source, elem_of(src_type), len(node.unpack))
        inner = ctx
        pynames: list[py.expr] = []
        for local in node.unpack:
            pyname = ctx.emitter.fresh()
            pynames.append(pyname)
            inner = inner.with_local(local, part, False, pyname.id)
        src = E("{unpacked}({src}, {count})", unpacked=ctx.const(unpacked, "unpacked"), src=src,
                count=len(node.unpack))
        tuple_var = py.Tuple(pynames, py.Load())
        cond = gen_expect(node.condition, inner, "bool") if node.condition is not None else None
        return tuple_var, src, gen(node.element, inner), cond
    var = ctx.emitter.fresh()
    inner = ctx.with_local(node.var, elem_of(src_type), yields_seats(node.source), var.id)
    cond = gen_expect(node.condition, inner, "bool") if node.condition is not None else None
    return var, src, gen(node.element, inner), cond


def _comprehension(node: ast.Comprehension, ctx: Context) -> Gen:
    ctx, hoists = hoisting_root(ctx)
    var, src, (elem, elem_type), cond = comprehension_parts(node, ctx)
    return with_hoists(py.ListComp(elem, [_for(var, src, cond)]), hoists, ctx), list_of(elem_type)


def _for(var: py.expr, src: py.expr, cond: py.expr | None) -> py.comprehension:
    """`for VAR in SRC if COND` of a comprehension (no condition: no `if`)."""
    return py.comprehension(with_ctx(var, py.Store()), src, [] if cond is None else [cond], 0)


def early_exit(node: ast.Node, ctx: Context, wanted: bool) -> py.expr | None:
    """`any([e for x in L if c])` / `all(...)` as a scan that stops at the first answer
    (end conditions run this at every decision), or None for other arguments."""
    if not isinstance(node, ast.Comprehension):
        return None
    ctx, hoists = hoisting_root(ctx)
    var, src, (elem, _), cond = comprehension_parts(node, ctx)
    scan = py.GeneratorExp(elem, [_for(var, src, cond)])
    return with_hoists(E("any({scan})", scan=scan) if wanted else E("all({scan})", scan=scan), hoists, ctx)


# Every card has these, read-only: its definition id, name, type and printed text.
CARD_CORE_FIELDS = ("id", "name", "type", "text")


def _attr(node: ast.Attr, ctx: Context) -> Gen:
    target, ttype = gen(node.target, ctx)
    field = node.name
    if ttype == "map" or (ttype == "any" and field not in ctx.symbols.card_fields
                          and field not in CARD_CORE_FIELDS):
        return E("{t}[{f}]", t=target, f=lit(field)), "any"
    if ttype not in ("card", "any"):
        raise CompileError(node, "type", f"'.{field}' needs a card or a table, got {describe(ttype)}")
    reader, rtype, table = card_field(node, ctx)
    if isinstance(node.target, ast.Literal):
        target = ctx.emitter.bound(node.target.value)
    if ttype == "any":
        # a value of unknown type (a table from a constant, or a card): a table whose key
        # is also a card field's name must still read as a table, so decide at run time
        read_any = ctx.const(_read_any, "read_any")
        simple = simple_source(target)
        if not simple and table is not None and not ctx.in_iterable:  # (no `:=` where Python allows none)
            # a card read inline as below, the target worked out once into a fresh name
            held = ctx.emitter.fresh("t")
            return E("{table}[st.card_def[{h}]] if type({h} := {target}) is int "
                     "else {read_any}(st, {h}, {f}, {reader})", table=table, h=held, target=target,
                     read_any=read_any, f=lit(field), reader=reader), "any"
        general = E("{read_any}(st, {target}, {f}, {reader})", read_any=read_any, target=target, f=lit(field),
                    reader=reader)
        if not simple:
            return general, "any"
        # a card (a whole number) read inline, as _read_any would read it (the target is
        # a local: reading it twice costs little and changes nothing)
        card = (E("{table}[st.card_def[{target}]]", table=table, target=target) if table is not None
                else _attribute_read(target, field, ctx))
        return E("{card} if type({target}) is int else {general}", card=card, target=target, general=general), "any"
    if table is not None:
        return E("{table}[st.card_def[{target}]]", table=table, target=target), rtype
    if ctx.in_iterable and simple_source(target):  # where Python allows no `:=`
        return _attribute_read(target, field, ctx), rtype
    if not ctx.in_iterable:  # an attribute some rule sets, over the property: read inline
        props = ctx.emitter.memo.get(("props", field))
        if props is None:
            props = [static_field(cid, spec, field) for cid, spec in ctx.symbols.card_specs]
            props = ctx.emitter.memo[("props", field)] = ctx.const(props, "card_table")
        card, value = ctx.emitter.fresh("c"), ctx.emitter.fresh("a")
        # as field_reader: an attribute set to none reads the property
        return E("{a} if ({a} := st.attrs.get((({c} := {target}), {f}))) is not None else {props}[st.card_def[{c}]]",
                 a=value, c=card, target=target, f=lit(field), props=props), rtype
    return E("{reader}(st, {target})", reader=reader, target=target), rtype


_KEY_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_#")


def simple_source(src: py.expr) -> bool:
    """Whether `src` reads a local (a Python name, or a key of env): safe to read twice.
    `True`, `False` and `None` are as simple (a constant: reading it twice changes nothing)."""
    if type(src) is py.Name:
        return True
    if type(src) is py.Constant:
        return src.value is None or type(src.value) is bool
    key = env_key(src)
    return key is not None and _KEY_CHARACTERS.issuperset(key)


def _attribute_read(card: py.expr, field: str, ctx: Context) -> py.expr:
    """An attribute some rule sets, else the card's property, as `field_reader` reads
    it (an attribute set to none reads the property), with no call and no `:=`; `card`
    is simple (read more than once)."""
    props = ctx.emitter.memo.get(("props", field))
    if props is None:
        props = [static_field(cid, spec, field) for cid, spec in ctx.symbols.card_specs]
        props = ctx.emitter.memo[("props", field)] = ctx.const(props, "card_table")
    return E("st.attrs[({c}, {f})] if st.attrs.get(({c}, {f})) is not None else {props}[st.card_def[{c}]]",
             c=card, f=lit(field), props=props)


def _read_any(st: Any, value: Any, field: str, reader: Callable[[Any, Any], Any]) -> Any:
    return value[field] if isinstance(value, dict) else reader(st, value)


def card_field(node: ast.Attr, ctx: Context) -> tuple[py.expr, str, py.expr | None]:
    """Code naming a reader `fn(st, card)` of one field of a card, its type, and for a
    field no rule ever sets (every `id`, `name`, `type`, and most properties) a table
    by card definition, read with no look-up of attributes first (else None)."""
    field = node.name
    sym = ctx.symbols
    type_ = "str" if field in CARD_CORE_FIELDS else "any"
    if type_ == "any" and field not in sym.card_fields:
        raise CompileError(
            node, "unknown-field", f"no card has a property or attribute '{field}'",
            hint_for(field, sym.card_fields), len(field),
        )
    if field in sym.written_fields:
        return ctx.const(field_reader(field), "card_field"), type_, None
    memo = ctx.emitter.memo
    if ("table", field) not in memo:
        table = [static_field(cid, spec, field) for cid, spec in sym.card_specs]
        memo[("table", field)] = (ctx.const(table, "card_table"), ctx.const(_TableReader(table), "card_field"))
    table_name, reader_name = memo[("table", field)]
    return reader_name, type_, table_name


class _TableReader:
    """Reads a field that no rule changes: one list index by card definition."""

    __slots__ = ("table",)

    def __init__(self, table: list[Any]):
        self.table = table

    def __call__(self, st: Any, iid: int) -> Any:
        return self.table[st.card_def[iid]]

    def __repr__(self) -> str:  # (what `describe --code` lists: no address)
        return f"_TableReader({self.table!r})"


def _index(node: ast.Index, ctx: Context) -> Gen:
    ref = gen_counter_ref(node, ctx)
    if ref is not None:
        ci, slot = ref
        return E("st.counters[{ci}][{slot}]", ci=ci, slot=slot), "int"
    target, ttype = gen(node.target, ctx)
    if isinstance(node.target, ast.Literal):  # `3[0]` would be a SyntaxWarning when compiled
        target = ctx.emitter.bound(node.target.value)
    index, itype = gen(node.index, ctx)
    if ttype.startswith("list:") and itype not in ("int", "any", "player"):
        raise CompileError(node.index, "type", f"a list index must be a number, got {describe(itype)}")
    result = elem_of(ttype) if ttype.startswith("list:") else "any"
    return E("{target}[{index}]", target=target, index=index), result


def _unary(node: ast.Unary, ctx: Context) -> Gen:
    if node.op == "not":
        return E("not {x}", x=gen_expect(node.operand, ctx, "bool")), "bool"
    return E("-{x}", x=gen_expect(node.operand, ctx, "int")), "int"


def _binary(node: ast.Binary, ctx: Context) -> Gen:
    op = node.op
    left, ltype = gen(node.left, ctx)
    right, rtype = gen(node.right, ctx)
    if op == "and":
        return E("{left} and {right}", left=left, right=right), "bool"
    if op == "or":
        return E("{left} or {right}", left=left, right=right), "any" if ltype != rtype else ltype
    if op in ("in", "not in"):
        if not is_list(rtype) and rtype not in ("map", "str"):
            raise CompileError(node.right, "type", f"'{op}' needs a list on its right, got {describe(rtype)}")
        if rtype != "map":  # (a table's look-up goes through nothing)
            # gone through whole: charged when long, and a zone read in place, not copied
            slot = gen_zone_slot(node.right, ctx)
            right = scanned(node.right, right if slot is None else E("st.zones[{slot}]", slot=slot), ctx)
        return _compare(left, op, right), "bool"
    if op in ("==", "!="):
        return _compare(left, op, right), "bool"
    if op == "+" and "str" in (ltype, rtype) and {ltype, rtype} <= {"str", "any"}:
        # a text made is charged its length (runtime/work.py), a list made its items:
        # doubling one inside a comprehension or a function stops at the work limit
        left, right = uncharged(node.left, left, ctx), uncharged(node.right, right, ctx)
        return E("{charge}(st, str({left}) + str({right}))", charge=ctx.const(charge, "charge"), left=left,
                 right=right), "str"
    if op == "+" and (ltype.startswith("list:") or rtype.startswith("list:")):
        left, right = uncharged(node.left, left, ctx), uncharged(node.right, right, ctx)
        return E("{charge}(st, list({left}) + list({right}))", charge=ctx.const(charge, "charge"), left=left,
                 right=right), ltype
    for side, t in ((node.left, ltype), (node.right, rtype)):
        if t not in NUMERIC and not (op in ("<", "<=", ">", ">=") and t in ("str", "player")):
            if t != "bool":
                raise CompileError(side, "type", f"'{op}' needs numbers, got {describe(t)}")
    if op in ("/", "//"):
        return divided(op, left, right, ctx), "int"
    if op in ("<", "<=", ">", ">="):
        return _compare(left, op, right), "bool"
    bounded = bounded_arithmetic(node, op, (left, ltype), (right, rtype), ctx) if op != "-" else None
    return normalised(bounded or py.BinOp(left, _ARITHMETIC[op](), right), ctx), "int"


_COMPARISONS: dict[str, type[py.cmpop]] = {
    "==": py.Eq, "!=": py.NotEq, "<": py.Lt, "<=": py.LtE, ">": py.Gt, ">=": py.GtE, "in": py.In, "not in": py.NotIn,
}
_ARITHMETIC: dict[str, type[py.operator]] = {"+": py.Add, "-": py.Sub, "*": py.Mult, "%": py.Mod}


def _compare(left: py.expr, op: str, right: py.expr) -> py.expr:
    """`left OP right`, one comparison (never chained with another: each is its own node)."""
    return py.Compare(left, [_COMPARISONS[op]()], [right])


def _call(node: ast.Call, ctx: Context) -> Gen:
    sym, name = ctx.symbols, node.name
    if name in ctx.locals and (name in sym.counters or name in sym.zones or name in sym.values):
        raise CompileError(node, "shadowed-name", f"'{name}' is a local here, not a function: it cannot be called",
                           f"rename the local that hides {name}()", len(name))
    if name in sym.counters:
        ref = gen_counter_ref(node, ctx)
        if ref is not None:
            ci, slot = ref
            return E("st.counters[{ci}][{slot}]", ci=ci, slot=slot), "int"
        cdef = sym.counters[name]
        if cdef.scope == "global" or len(node.args) != 1:
            raise CompileError(node, "arity", f"counter '{name}' takes one player: {name}(p)")
        player = gen_player_arg(node.args[0], ctx)
        return (E("{part}(st.counters[{ci}], {p}, {width})", part=ctx.const(_player_part, "part"), ci=cdef.index,
                  p=player, width=cdef.width), list_of("int"))
    if name in sym.zones:
        zone = gen_zone_slot(node, ctx)
        assert zone is not None
        return E("st.zones[{slot}][:]", slot=zone), "list:card"
    if name in sym.values:
        vi, of_player, type_ = sym.values[name]
        if not of_player:
            if node.args:
                raise CompileError(node, "arity", f"value '{name}' takes no player")
            return hoisted(node, ctx, E("{value}(st, -1)", value=value_name(ctx.emitter, vi)), True), type_
        if len(node.args) != 1:
            raise CompileError(node, "arity", f"value '{name}' takes one player: {name}(p)")
        player = gen_expect(node.args[0], ctx, "player")
        return hoisted(node, ctx, E("{value}(st, {p})", value=value_name(ctx.emitter, vi), p=player), True), type_
    function = sym.functions.get(name)
    if function is not None and name not in ctx.locals:
        return _call_function(node, ctx, function.params, function.code, function.types)
    builtin = BUILTINS.get(name)
    if builtin is None:
        if name in sym.procedures:
            raise CompileError(node, "type", f"procedure '{name}' is a statement; it gives no value")
        known = list(BUILTINS) + sym.all_names()
        raise CompileError(node, "unknown-name", f"unknown function '{name}'", hint_for(name, known), len(name))
    return builtin(node, ctx)


def _call_function(node: ast.Call, ctx: Context, params: tuple[str, ...], index: int, types: tuple[str, ...]) -> Gen:
    """A game-defined function: its parameters bound in a fresh env (plus `me`). The
    table is read at run time: functions may call each other in any order."""
    if len(node.args) != len(params):
        raise CompileError(node, "arity", f"{node.name}() takes {len(params)} argument(s), got {len(node.args)}",
                           width=len(node.name))
    seen = ctx.symbols.function_call_types.setdefault(node.name, [set() for _ in params])
    args = [src for src, _ in call_args(node, ctx, params, types, seen)]
    result = ctx.symbols.function_types.get(node.name, "any")
    positional = ctx.symbols.function_positional.get(index)
    if positional is not None:  # its locals as arguments, in the order the dict below has them
        call = E("{f}(st, {args})", f=name(positional), args=[ME, *args])
        return hoisted(node, ctx, call, False), result
    local = py.Dict([lit("me"), *(lit(p) for p in params)], [ME, *args])
    table = ctx.const(ctx.symbols.function_table, "functions")
    return hoisted(node, ctx, E("{table}[{i}](st, {env})", table=table, i=index, env=local), False), result


def call_args(node: ast.Call | ast.CallStmt, ctx: Context, params: tuple[str, ...], types: tuple[str, ...],
              seen: list[set[str]]) -> list[Gen]:
    """The arguments of a call of one of the game's functions or procedures: each
    compiled, checked against the type its rule declares for it (`params: {hand: cards}`),
    and its type noted in `seen` (per parameter: what the calls pass)."""
    args = [gen(a, ctx) for a in node.args]
    for i, (arg, (_, got)) in enumerate(zip(node.args, args, strict=True)):
        want = types[i] if i < len(types) else "any"
        if not compatible(got, want):
            raise CompileError(arg, "type", f"{node.name}() takes {describe(want)} as '{params[i]}', "
                                            f"got {describe(got)}")
        seen[i].add(got)
    return args


_DISPATCH: dict[type, Callable[[Any, Context], Gen]] = {
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
