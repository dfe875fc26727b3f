"""Declared values as generated functions: the base and every modifier written out.

A declared value (`values:`) is its base after the modifiers that apply now, in order:
a card's modifier while its power reaches the player (its holder, or whoever its
`applies_to` says), a granted one while the grant
lasts, each under its `when`. `runtime.counters.value_of` works this out by walking
the modifier records; games whose rules read values often (every condition, every
listing) spend much of their time in that walk. Here each value becomes one generated
function `(st, player)` doing the same steps in the same order over the same locals
(`this` and `owner` set by a card's modifier stay set for the modifiers after it), and memoised
the same way during a listing (`st.memo`). Expressions call it by a name bound
in the game's namespace (`value_name`) as soon as they are compiled; the name is bound
to the generic walk until the values are built, then to the generated function.
A card's modifier asks who holds it in one call (`cards.holders`) and goes through
them to the player, or for a card with `applies_to` to the first holder that
expression, written out inline, says it reaches. No dict of locals is made where the
locals read are the player and the `this` and `owner` a card's modifier sets (Python
locals then). The function is built as a syntax tree (compile/pyast.py).
"""

from __future__ import annotations

import ast as py
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from interpreter.compile.bounds import charge_call_code
from interpreter.compile.pyast import E, S, Stmts, lit, name, names_in
from interpreter.compile.pysource import Emitter, env_free
from interpreter.model import ValueDef
from interpreter.runtime.cards import holders, live_cards
from interpreter.runtime.counters import value_of

_NOBODY: dict[Any, Any] = {}  # never filled: its look-ups only hash the key
# How a card's modifier sets `this` and `owner`: in env, as Python locals (when only the
# modifiers that set them read them), or not at all (when nothing reads them).
_IN_ENV, _AS_PYTHON_LOCALS, _NOT_SET = "env", "locals", "not set"
_AS_LOCALS = {"p": "player", "me": "player", "this": "_this", "owner": "_owner"}
# Calls, in generated code, of code made of rules (another value, a function, a card's
# condition through `usable`, an expression not written inline): the stems of the names
# they are bound under. A value making one is charged per computation; one that makes
# none costs what its expressions cost.
_CALL_STEMS = ("_value_of_", "_fn", "_functions", "_usable", "_reach", "_value", "_modifier")


def value_name(em: Emitter, vi: int) -> py.Name:
    """The name generated code calls value `vi` by: `NAME(st, player)`."""
    identifier = f"_value_of_{vi}"
    if identifier not in em.ns:
        em.ns[identifier] = _walk(vi)  # until define_values replaces it
    return name(identifier)


def _walk(vi: int) -> Callable[[Any, int], Any]:
    def walk(st: Any, player: int) -> Any:
        return value_of(st, vi, player)
    return walk


@attrs.frozen
class _Modifier:
    """The parts of one modifier's statements, each worked out once (the names they
    bind are bound in the order the statements use them)."""

    nobody: py.expr | None  # a look-up of the player in a dict (see define_values), or None
    live: bool  # whether its card is looked up among those with a copy in play
    card: int | None
    holders: py.expr | None
    reach: py.expr | None  # the test of a holder the card's power reaches
    held: bool  # whether `owner` is the player (else the holder the card reaches)
    test: py.expr | None
    result: py.expr


def define_values(em: Emitter, values: tuple[ValueDef, ...],
                  reaches: Mapping[int, Callable[[Any, Any], Any]] | None = None) -> tuple[ValueDef, ...]:
    """Bind each value's name to its generated function. `reaches`: the cards whose
    modifiers reach whom an expression says (`applies_to`), not their holder, each
    with that expression (written out inline where it reads only its four locals).
    Gives the values back, each saying whether it calls others (`calls_others`)."""
    reaches = reaches or {}
    calling: set[int] = set()
    for vdef in values:
        fname = name(f"_value_of_{vdef.index}")
        em.ns.setdefault(fname.id, None)
        base = em.inline(vdef.base, "value")
        cards = tuple(dict.fromkeys(mod.card for mod in vdef.modifiers if mod.card is not None))
        live = em.const(live_cards, "live_cards") if len(cards) > 1 else None  # which cards have a copy in play
        mods = []
        hashed = False
        for mod in vdef.modifiers:
            nobody = reach = holders_fn = None
            if mod.card is not None:  # the copy whose power reaches the player, and its holder
                reach_fn = reaches.get(mod.card)
                if reach_fn is None and not hashed:
                    # card_reaching looks the player up in a dict of holders, so a player
                    # no dict can hold fails here, whether or not a copy is in play
                    nobody = E("{nobody}.get(player)", nobody=em.const(_NOBODY, "nobody"))
                    hashed = True
                # The first holder (card_owners' order) it reaches: its holder is the
                # player (`owner` the player as given, as card_reaching says), or one
                # the card's `applies_to` says it reaches.
                holders_fn = em.const(holders, "holders")
                reach = E("holder == player") if reach_fn is None else _reaches_source(em, reach_fn)
            tests = []
            if mod.granted:
                tests += [E("st.grants"), E("any(g.modifier == {i} and g.player == player for g in st.grants)",
                                             i=mod.index)]
            if mod.when is not None:
                tests.append(em.inline(mod.when, "modifier"))
            test = None if not tests else tests[0] if len(tests) == 1 else py.BoolOp(py.And(), tests)
            result = _applied(mod.op, em.inline(mod.amount, "modifier"))
            held = mod.card is None or reaches.get(mod.card) is None
            mods.append(_Modifier(nobody, len(cards) > 1, mod.card, holders_fn, reach, held, test, result))
        tail = S("""
            if memo is not None:
                memo[key] = result
            return result
            """)
        # A value that reads no local but its player (most) needs no locals dict, nor
        # `this` and `owner` when no modifier reads them; else they are Python locals:
        # only a card's modifier may read them (build.modifiers gives no other modifier
        # those names), after its statements set them.
        body = env_free(_statements(base, live, cards, mods, _NOT_SET) + tail, {"p": "player", "me": "player"})
        if body is None:
            body = env_free(_statements(base, live, cards, mods, _AS_PYTHON_LOCALS) + tail, _AS_LOCALS)
        if body is None:
            body = S("env = {{'p': player, 'me': player}}") + _statements(base, live, cards, mods, _IN_ENV) + tail
        charged: Stmts = []
        if _calls_rules(body):  # worked out (no memo hit), a value that calls others is
            # charged as a call (runtime/work.py): values reading each other twice per level stop
            charged = charge_call_code(em)
            calling.add(vdef.index)
        em.define(S("""
            def {f}(st, player):
                memo = st.memo
                if memo is not None:
                    key = ({vi}, player)
                    if key in memo:
                        return memo[key]
                {charged}
                {body}
            """, f=fname, vi=vdef.index, charged=charged, body=body), f"values.{vdef.name}")
    return tuple(attrs.evolve(v, calls_others=True) if v.index in calling else v for v in values)


def _statements(base: py.expr, live: py.expr | None, cards: tuple[int, ...], mods: list[_Modifier],
                setting: str) -> Stmts:
    """A value's statements after its memo's look-up, up to the result (`setting`: how
    a card's modifier sets `this` and `owner`)."""
    out = S("result = {base}", base=base)
    if live is not None:
        out += S("live = {live_cards}(st, {cards})", live_cards=live, cards=lit(cards))
    for mod in mods:
        block = S("result = {value}", value=mod.result)
        if mod.test is not None:
            block = S("""
                if {test}:
                    {block}
                """, test=mod.test, block=block)
        if mod.card is None:
            out += block
            continue
        if mod.nobody is not None:
            out += S("{look_up}", look_up=mod.nobody)
        sets: Stmts = []
        if setting == _IN_ENV:
            sets = (S("env['this'], env['owner'] = copy, player") if mod.held
                    else S("env['this'], env['owner'] = copy, holder"))
        elif setting == _AS_PYTHON_LOCALS:
            sets = S("_this, _owner = copy, player") if mod.held else S("_this, _owner = copy, holder")
        loop = S("""
            for holder, copy in {holders}(st, {card}):
                if {reach}:
                    {sets}
                    {block}
                    break
            """, holders=mod.holders, card=mod.card, reach=mod.reach, sets=sets, block=block)
        if mod.live:
            loop = S("""
                if {card} in live:
                    {loop}
                """, card=mod.card, loop=loop)
        out += loop
    return out


def _applied(op: str, amount: py.expr) -> py.expr:
    """The result after a modifier of `op` by `amount` (as counters._value_of: any op
    but add, set and max is min)."""
    if op == "add":
        return E("result + {a}", a=amount)
    if op == "set":
        return amount
    if op == "max":
        return E("max(result, {a})", a=amount)
    return E("min(result, {a})", a=amount)


def _calls_rules(body: Stmts) -> bool:
    """Whether code calls code made of rules (a name of one of _CALL_STEMS and a number)."""
    for identifier in names_in(body):
        for stem in _CALL_STEMS:
            number = identifier[len(stem):]
            if identifier.startswith(stem) and number.isascii() and number.isdigit():
                return True
    return False


def _reaches_source(em: Emitter, reach: Callable[[Any, Any], Any]) -> py.expr:
    """Whether a card's `applies_to` holds for `player`, the `copy` and its `holder`:
    the expression over those locals, or (reading anything else) a call with its env."""
    body = em.inline(reach, "reach")
    inline = env_free(body, {"p": "player", "me": "player", "this": "copy", "owner": "holder"})
    if inline is not None:
        return inline
    return E("{reach}(st, {{'p': player, 'me': player, 'this': copy, 'owner': holder}})",
             reach=em.const(reach, "reach"))
