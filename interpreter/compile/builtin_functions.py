"""The built-in functions of the effect language, each registered with `@builtin`.

Each one checks its arguments at compile time and returns the Python expression tree
of its value (and the value's type), like every compiled expression (compile/pyast.py:
rule text only as constants); work too big to write inline calls a helper defined
here, bound as a constant of the game's namespace.
Importing this module fills the table `builtin_registry.BUILTINS`; `build.py` imports it
before compiling any rule.
"""

from __future__ import annotations

import ast as py
from collections.abc import Callable
from typing import Any

import attrs

from interpreter.compile.builtin_registry import BUILTINS, Builtin, builtin
from interpreter.compile.expressions import (
    ME,
    Context,
    Gen,
    describe,
    early_exit,
    gen,
    gen_expect,
    gen_player_arg,
    gen_zone_slot,
    iteration_source,
    scanned,
    simple_source,
)
from interpreter.compile.hoisting import kept_scan, scan_context
from interpreter.compile.numeric import normalised
from interpreter.compile.pyast import E, lit, name
from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError, elem_of, is_list
from interpreter.limits import MAX_LENGTH
from interpreter.numbers import whole_count
from interpreter.runtime import chance
from interpreter.runtime.card_powers import usable
from interpreter.runtime.cards import copies_in_zone
from interpreter.runtime.present import joined_text, people_text
from interpreter.runtime.rng import randbelow, shuffle_in_place
from interpreter.runtime.work import charge


def _list_arg(node: ast.Call, ctx: Context, i: int = 0) -> Gen:
    src, type_ = gen(node.args[i], ctx)
    if not is_list(type_) and type_ != "map":
        raise CompileError(node.args[i], "type", f"{node.name}() needs a list, got {describe(type_)}")
    return src, type_


def _read_arg(node: ast.Call, ctx: Context, i: int = 0) -> Gen:
    """A list argument only read, never kept: a zone is passed without a copy."""
    src, type_ = iteration_source(node.args[i], ctx)
    if not is_list(type_) and type_ != "map":
        raise CompileError(node.args[i], "type", f"{node.name}() needs a list, got {describe(type_)}")
    return src, type_


def _scan_arg(node: ast.Call, ctx: Context, i: int = 0) -> Gen:
    """A list argument gone through whole (sum, sorted, index_of...), charged to the work
    meter when long (expressions.scanned); a zone is passed without a copy."""
    src, type_ = _read_arg(node, ctx, i)
    return scanned(node.args[i], src, ctx), type_


def _helper(ctx: Context, fn: Callable[..., Any]) -> py.expr:
    return ctx.const(fn, fn.__name__.strip("_"))


@builtin("len")
def _len(node: ast.Call, ctx: Context) -> Gen:
    return E("len({items})", items=_read_arg(node, ctx)[0]), "int"  # (a length is known: nothing gone through)


BUILTINS["count"] = BUILTINS["len"]
BUILTINS["size"] = BUILTINS["len"]


@builtin("sum")
def _sum(node: ast.Call, ctx: Context) -> Gen:
    return normalised(E("sum({items})", items=_scan_arg(node, ctx)[0]), ctx), "int"


def _minmax(pick: str) -> Builtin:
    def compile_(node: ast.Call, ctx: Context) -> Gen:
        if len(node.args) == 1:
            src, type_ = _scan_arg(node, ctx)
            return E("{pick}({items}, default=None)", pick=name(pick), items=src), elem_of(type_)
        args = [gen_expect(a, ctx, "any") for a in node.args]
        return E("{pick}({args})", pick=name(pick), args=args), "int"
    return compile_


builtin("min")(_minmax("min"))
builtin("max")(_minmax("max"))


@builtin("any")
def _any(node: ast.Call, ctx: Context) -> Gen:
    scan = early_exit(node.args[0], scan_context(node.args[0], ctx), True)
    if scan is not None:
        return kept_scan(node.args[0], scan, ctx), "bool"
    return E("any({items})", items=_scan_arg(node, ctx)[0]), "bool"


@builtin("all")
def _all(node: ast.Call, ctx: Context) -> Gen:
    scan = early_exit(node.args[0], scan_context(node.args[0], ctx), False)
    if scan is not None:
        return kept_scan(node.args[0], scan, ctx), "bool"
    return E("all({items})", items=_scan_arg(node, ctx)[0]), "bool"


MAX_RANGE = 100_000  # one list built by one expression: beyond it, a rule error, not a hang


def bounded_range(lo: int, hi: int) -> list[int]:
    if hi - lo > MAX_RANGE:
        raise RuleRuntimeError(f"range({lo}, {hi}) is too long (more than {MAX_RANGE} numbers)")
    return list(range(lo, hi))


@builtin("range")
def _range(node: ast.Call, ctx: Context) -> Gen:
    args = [gen_expect(a, ctx, "int") for a in node.args]
    if ctx.symbols.fractions:  # (a whole-number game's code stays as it was)
        args = [E("{whole}({a}, 'range()')", whole=ctx.const(whole_count, "whole"), a=a) for a in args]
    if len(args) == 1:
        args.insert(0, E("0"))
    return E("{f}({lo}, {hi})", f=_helper(ctx, bounded_range), lo=args[0], hi=args[1]), "list:int"


def _impure(node: ast.Call, ctx: Context) -> None:
    if ctx.pure:
        raise CompileError(node, "impure", f"{node.name}() draws a random number; not allowed here",
                           "conditions, parameter choices and values must not change the game; "
                           "roll in the effect instead")


def _roll(st: Any, a: int, b: int) -> int:
    if st.explicit:  # a chance node (runtime/chance.py)
        return chance.roll(st, a, b)
    return int(a + randbelow(st, b - a + 1))


@builtin("random")
def _random(node: ast.Call, ctx: Context) -> Gen:
    _impure(node, ctx)
    lo, hi = gen_expect(node.args[0], ctx, "int"), gen_expect(node.args[1], ctx, "int")
    return E("{f}(st, {lo}, {hi})", f=_helper(ctx, _roll), lo=lo, hi=hi), "int"


def _pick(st: Any, items: list[Any], elem: str = "any") -> Any:
    if st.explicit:
        return chance.pick(st, items, elem)
    return items[randbelow(st, len(items))] if items else None


@builtin("pick_random")
def _pick_random(node: ast.Call, ctx: Context) -> Gen:
    _impure(node, ctx)
    src, type_ = _read_arg(node, ctx)  # (one item picked: nothing gone through)
    return E("{f}(st, {items}, {elem})", f=_helper(ctx, _pick), items=src, elem=lit(elem_of(type_))), elem_of(type_)


def _shuffled_copy(st: Any, items: Any, elem: str = "any") -> list[Any]:
    if st.explicit:
        return chance.shuffled(st, items, elem)
    copy = list(items)
    shuffle_in_place(st, copy)
    return copy


@builtin("shuffled")
def _shuffled(node: ast.Call, ctx: Context) -> Gen:
    _impure(node, ctx)
    src, type_ = _read_arg(node, ctx)  # (the shuffle charges its list: rng.shuffle_in_place)
    return E("{f}(st, {items}, {elem})", f=_helper(ctx, _shuffled_copy), items=src, elem=lit(elem_of(type_))), type_


def _top_one(z: list[Any]) -> Any:
    return z[-1] if z else None


def _bottom_one(z: list[Any]) -> Any:
    return z[0] if z else None


def _top_n(z: list[Any], n: int) -> list[Any]:
    return z[:~n:-1] if n > 0 else []  # the last n, top first, in one slice (~n is -n-1)


def _bottom_n(z: list[Any], n: int) -> list[Any]:
    return z[:max(0, n)]


# The ends of a zone given by its slot: with explicit chance, the end of a shuffled
# zone is dealt first (runtime/chance.py); `st.unordered` is empty otherwise.


def _zone_top(st: Any, slot: int) -> Any:
    if st.unordered:
        chance.make_known(st, slot, 1, True)
    z = st.zones[slot]
    return z[-1] if z else None


def _zone_bottom(st: Any, slot: int) -> Any:
    if st.unordered:
        chance.make_known(st, slot, 1, False)
    z = st.zones[slot]
    return z[0] if z else None


def _zone_top_n(st: Any, slot: int, n: int) -> list[Any]:
    if st.unordered:
        chance.make_known(st, slot, n, True)
    return _top_n(st.zones[slot], n)  # (a count written in the rules is sliced inline: _zone_end)


def _zone_bottom_n(st: Any, slot: int, n: int) -> list[Any]:
    if st.unordered:
        chance.make_known(st, slot, n, False)
    return _bottom_n(st.zones[slot], n)


def _zone_end(top: bool) -> Builtin:
    def compile_(node: ast.Call, ctx: Context) -> Gen:
        slot = gen_zone_slot(node.args[0], ctx)
        one, many = (_top_one, _top_n) if top else (_bottom_one, _bottom_n)
        if slot is not None:
            if len(node.args) == 1:
                return E("{f}(st, {slot})", f=_helper(ctx, _zone_top if top else _zone_bottom), slot=slot), "card"
            count = gen_expect(node.args[1], ctx, "int")
            helper = _helper(ctx, _zone_top_n if top else _zone_bottom_n)
            number = node.args[1]
            if top and isinstance(number, ast.Literal) and type(number.value) is int and number.value > 0:
                # top(ZONE, 1) of a pile at every listing: the slice written out; with explicit
                # chance (a shuffled zone's top is dealt first) the helper as before. (The
                # slice stops at ~n, written -(n + 1).)
                return E("({f}(st, {slot}, {count}) if st.unordered else st.zones[{slot}][:-{stop}:-1])",
                         f=helper, slot=slot, count=count, stop=number.value + 1), "list:card"
            return E("{f}(st, {slot}, {count})", f=helper, slot=slot, count=count), "list:card"
        getter = _list_arg(node, ctx)[0]
        if len(node.args) == 1:
            return E("{f}({zone})", f=_helper(ctx, one), zone=getter), "card"
        count = gen_expect(node.args[1], ctx, "int")
        return E("{f}({zone}, {count})", f=_helper(ctx, many), zone=getter, count=count), "list:card"
    return compile_


builtin("top")(_zone_end(True))
builtin("bottom")(_zone_end(False))


def _owner_of(st: Any, card: int) -> Any:
    slot = st.loc[card]
    return None if slot < 0 or st.layout.zowner[slot] < 0 else st.layout.zowner[slot]


@builtin("owner")
def _owner(node: ast.Call, ctx: Context) -> Gen:
    return E("{f}(st, {card})", f=_helper(ctx, _owner_of), card=gen_expect(node.args[0], ctx, "card")), "player"


def _zone_name(st: Any, card: int) -> Any:
    slot = st.loc[card]
    return None if slot < 0 else st.gd.zones[st.layout.zdef[slot]].name


@builtin("zone_of")
def _zone_of(node: ast.Call, ctx: Context) -> Gen:
    return E("{f}(st, {card})", f=_helper(ctx, _zone_name), card=gen_expect(node.args[0], ctx, "card")), "str"


def _checked_direction(value: Any) -> str:
    if value not in ("clockwise", "counterclockwise"):  # anything else would silently mean counterclockwise
        raise RuleRuntimeError(f'direction must be "clockwise" or "counterclockwise", not {value!r}')
    return str(value)


def _step(node: ast.Call, ctx: Context, i: int) -> py.expr:
    """Code of +1 (clockwise, the default) or -1 for the direction argument `i`."""
    if len(node.args) <= i:
        return E("1")
    arg = node.args[i]
    if isinstance(arg, ast.Literal):
        if arg.value not in ("clockwise", "counterclockwise"):
            raise CompileError(arg, "bad-value", 'direction must be "clockwise" or "counterclockwise"')
        return E("1") if arg.value == "clockwise" else E("-1")
    value = gen_expect(arg, ctx, "str")
    return E("(1 if {f}({value}) == 'clockwise' else -1)", f=_helper(ctx, _checked_direction), value=value)


@builtin("next_player")
def _next_player(node: ast.Call, ctx: Context) -> Gen:
    player, step = gen_expect(node.args[0], ctx, "player"), _step(node, ctx, 1)
    return E("(({player} + {step}) % st.n)", player=player, step=step), "player"


def _order(st: Any, start: int, step: int) -> list[int]:
    return [(start + i * step) % st.n for i in range(st.n)]


@builtin("players_from")
def _players_from(node: ast.Call, ctx: Context) -> Gen:
    player, step = gen_expect(node.args[0], ctx, "player"), _step(node, ctx, 1)
    return E("{f}(st, {player}, {step})", f=_helper(ctx, _order), player=player, step=step), "list:player"


@builtin("seat")
def _seat(node: ast.Call, ctx: Context) -> Gen:
    return E("st.seats[{player}]", player=gen_player_arg(node.args[0], ctx)), "str"


@builtin("is_bot")
def _is_bot(node: ast.Call, ctx: Context) -> Gen:
    return E("(st.seats[{player}] in st.gd.bots)", player=gen_player_arg(node.args[0], ctx)), "bool"


@builtin("sorted")
def _sorted(node: ast.Call, ctx: Context) -> Gen:
    src, type_ = _scan_arg(node, ctx)
    return E("sorted({items})", items=src), type_


@builtin("reversed")
def _reversed(node: ast.Call, ctx: Context) -> Gen:
    src, type_ = _scan_arg(node, ctx)
    return E("list(reversed({items}))", items=src), type_


def _position(items: Any, value: Any) -> int:
    return items.index(value) if value in items else -1


@builtin("index_of")
def _index_of(node: ast.Call, ctx: Context) -> Gen:
    items = _scan_arg(node, ctx)[0]
    return E("{f}({items}, {value})", f=_helper(ctx, _position), items=items,
             value=gen_expect(node.args[1], ctx, "any")), "int"


@builtin("abs")
def _abs(node: ast.Call, ctx: Context) -> Gen:
    return E("abs({x})", x=gen_expect(node.args[0], ctx, "int")), "int"


@builtin("exists")
def _exists(node: ast.Call, ctx: Context) -> Gen:
    return E("({x} is not None)", x=gen(node.args[0], ctx)[0]), "bool"


def _named(st: Any, card_id: Any, cards: Any) -> list[int]:
    """cards_named(id, L) of an id worked out at run time (-1, no definition, for an unknown one)."""
    return _def_of(st, st.gd.card_index.get(card_id, -1), cards)


def _named_in(st: Any, card_id: Any, slot: int) -> list[int]:
    """cards_named(id, zone): `_named` of the zone's cards."""
    return copies_in_zone(st, st.gd.card_index.get(card_id, -1), slot)


def _def_of(st: Any, index: int, cards: Any) -> list[int]:
    """The cards of definition `index` in a list (cards_named of a known definition)."""
    card_def = st.card_def
    return [c for c in cards if card_def[c] == index]


@builtin("cards_named")
def _cards_named(node: ast.Call, ctx: Context) -> Gen:
    """The cards of one definition id in a list: cards_named("boost", hand). In a zone,
    they are found from the definition's copies (`cards.copies_in_zone`); for `c.id` of a card, the
    definition is the card's own (no look-up of the id)."""
    arg = node.args[0]
    if isinstance(arg, ast.Literal) and isinstance(arg.value, str) and arg.value not in ctx.symbols.cards:
        raise CompileError(arg, "unknown-card", f"no card '{arg.value}'", hint_for(arg.value, ctx.symbols.cards))
    index: py.expr | None = None  # the definition's index, when known without its id
    card_id: py.expr | None = None
    if isinstance(arg, ast.Literal) and isinstance(arg.value, str):  # the usual case: a known id
        index = lit(ctx.symbols.cards[arg.value])
    elif (isinstance(arg, ast.Attr) and arg.name == "id" and not isinstance(arg.target, ast.Literal)
          and "id" not in ctx.symbols.written_fields):
        target, ttype = gen(arg.target, ctx)
        if ttype == "card":  # (its id is its definition's: ids are unique)
            index = E("st.card_def[{card}]", card=target)
        else:
            card_id = gen_expect(arg, ctx, "str")
    else:
        card_id = gen_expect(arg, ctx, "str")
    slot = gen_zone_slot(node.args[1], ctx)
    if slot is not None:  # a zone: its copies of the definition
        if index is not None:
            return E("{f}(st, {index}, {slot})", f=_helper(ctx, copies_in_zone), index=index, slot=slot), "list:card"
        return E("{f}(st, {card_id}, {slot})", f=_helper(ctx, _named_in), card_id=card_id, slot=slot), "list:card"
    # (written as a comprehension's list for a written id: where Python allows no `:=`)
    cards = _scan_arg(node, attrs.evolve(ctx, in_iterable=True) if isinstance(arg, ast.Literal) else ctx, 1)[0]
    if isinstance(arg, ast.Literal):
        var = ctx.emitter.fresh("c")
        return E("[{c} for {c} in {cards} if st.card_def[{c}] == {index}]", c=var, cards=cards,
                 index=index), "list:card"
    if index is not None:
        return E("{f}(st, {index}, {cards})", f=_helper(ctx, _def_of), index=index, cards=cards), "list:card"
    return E("{f}(st, {card_id}, {cards})", f=_helper(ctx, _named), card_id=card_id, cards=cards), "list:card"


def _granted(st: Any, modifier: int, player: Any) -> bool:
    return any(g.modifier == modifier and g.player == player for g in st.grants)


@builtin("has_grant")
def _has_grant(node: ast.Call, ctx: Context) -> Gen:
    arg = node.args[0]
    if not (isinstance(arg, ast.Literal) and arg.value in ctx.symbols.modifiers):
        raise CompileError(arg, "unknown-modifier", "has_grant() needs a modifier id as a string",
                           hint_for(str(getattr(arg, "value", "")), ctx.symbols.modifiers))
    mi = ctx.symbols.modifiers[str(arg.value)]
    player = gen_expect(node.args[1], ctx, "player")
    return E("{f}(st, {mi}, {player})", f=_helper(ctx, _granted), mi=mi, player=player), "bool"


@builtin("uses")
def _uses(node: ast.Call, ctx: Context) -> Gen:
    """How often an action was taken this turn by the acting player: uses("buy")."""
    arg = node.args[0]
    if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)):
        raise CompileError(arg, "type", "uses() needs an action id as a string")
    prefix = ctx.const(f"{arg.value}:")
    return E("st.uses['turn'].get({prefix} + str({me}), 0)", prefix=prefix, me=ME), "int"


def _effect_name(node: ast.Call, ctx: Context, fn: str) -> str:
    """The effect name a card built-in asks about: a literal some card has."""
    arg = node.args[1]
    if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)):
        raise CompileError(arg, "type", f"{fn}() needs an effect name as a string, e.g. {fn}(c, \"play\")")
    if arg.value not in ctx.symbols.card_effects:
        raise CompileError(arg, "unknown-effect", f"no card has an effect named '{arg.value}'",
                           hint_for(arg.value, ctx.symbols.card_effects))
    return arg.value


def _has_effect_of(st: Any, card: Any, name: str) -> bool:
    return card is not None and name in st.gd.cards[st.card_def[card]].effects


@builtin("has_effect")
def _has_effect(node: ast.Call, ctx: Context) -> Gen:
    """has_effect(c, "activate"): whether the card has that named effect."""
    name = _effect_name(node, ctx, "has_effect")
    card = gen_expect(node.args[0], ctx, "card")
    if not simple_source(card):  # worked out once, into a local (where Python allows `:=`)
        if ctx.in_iterable:
            return E("{f}(st, {card}, {effect})", f=_helper(ctx, _has_effect_of), card=card, effect=lit(name)), "bool"
        local = ctx.emitter.fresh("e")
        return E("(({e} := {card}) is not None and {effect} in st.gd.cards[st.card_def[{e}]].effects)",
                 e=local, card=card, effect=lit(name)), "bool"
    return E("({card} is not None and {effect} in st.gd.cards[st.card_def[{card}]].effects)",
             card=card, effect=lit(name)), "bool"


@builtin("can_use")
def _can_use(node: ast.Call, ctx: Context) -> Gen:
    """can_use(c, "activate"): whether `me` may use the card's effect now: the card has
    it, its condition holds and `me` can pay its cost (what `use` checks first)."""
    name = _effect_name(node, ctx, "can_use")
    card = gen_expect(node.args[0], ctx, "card")
    return E("{f}(st, {card}, {effect}, {me})", f=_helper(ctx, usable), card=card, effect=lit(name), me=ME), "bool"


# ---- text for people (views and log lines) -------------------------------------------------


@builtin("text")
def _text(node: ast.Call, ctx: Context) -> Gen:
    """A value as people read it: text(c) is the card's name, text(p) is P1.."""
    src, type_ = gen(node.args[0], ctx)
    return E("{f}(st, {value}, {type})", f=_helper(ctx, people_text), value=src, type=lit(type_)), "str"


def _joined(st: Any, sep: str, items: Any, type_: str) -> str:
    # bounded before it is made, and charged what it made (runtime/work.py)
    return charge(st, joined_text(sep, [people_text(st, v, type_) for v in items]))


@builtin("join")
def _join(node: ast.Call, ctx: Context) -> Gen:
    """join(L[, sep]): the items of a list as text, separated (default ", ")."""
    src, type_ = _scan_arg(node, ctx)
    sep = gen_expect(node.args[1], ctx, "str") if len(node.args) == 2 else lit(", ")
    return E("{f}(st, {sep}, {items}, {type})", f=_helper(ctx, _joined), sep=sep, items=src,
             type=lit(elem_of(type_))), "str"


@builtin("select")
def _select(node: ast.Call, ctx: Context) -> Gen:
    """select(cond, a, b): a when cond holds, else b (only the one chosen is evaluated)."""
    cond = gen_expect(node.args[0], ctx, "bool")
    yes, ytype = gen(node.args[1], ctx)
    no, ntype = gen(node.args[2], ctx)
    return E("({yes} if {cond} else {no})", yes=yes, cond=cond, no=no), ytype if ytype == ntype else "any"


def _padded(st: Any, value: Any, type_: str, n: int) -> str:
    if type(n) is int and abs(n) > MAX_LENGTH:  # (a width of 10**18 would be made, space by space)
        raise RuleRuntimeError(f"pad() to {n:,} characters: a text too long to make (at most {MAX_LENGTH:,})",
                               code="limit")
    text = people_text(st, value, type_)
    return charge(st, text.rjust(n) if n >= 0 else text.ljust(-n))  # (what it made: runtime/work.py)


@builtin("pad")
def _pad(node: ast.Call, ctx: Context) -> Gen:
    """pad(x, n): x as text, right-aligned to n characters (negative n: left-aligned)."""
    src, type_ = gen(node.args[0], ctx)
    width = gen_expect(node.args[1], ctx, "int")
    return E("{f}(st, {value}, {type}, {width})", f=_helper(ctx, _padded), value=src, type=lit(type_),
             width=width), "str"
