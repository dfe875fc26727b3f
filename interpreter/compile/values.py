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
locals then).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from interpreter.compile.pysource import Emitter, env_free
from interpreter.model import ValueDef
from interpreter.runtime.cards import holders, live_cards
from interpreter.runtime.counters import value_of
from interpreter.runtime.work import charge_call_lines, over_budget

_NOBODY: dict[Any, Any] = {}  # never filled: its look-ups only hash the key
# `this` and `owner` for the modifiers (each on its own line: dropped when nothing reads them)
_SET_HELD = "env['this'], env['owner'] = copy, player"
_SET_HOLDER = "env['this'], env['owner'] = copy, holder"
# ... or, when only the modifiers that set them read them, as Python locals
_HELD_LOCALS = {_SET_HELD: "_this, _owner = copy, player", _SET_HOLDER: "_this, _owner = copy, holder"}
_AS_LOCALS = {"p": "player", "me": "player", "this": "_this", "owner": "_owner"}
_APPLY = {"add": "result + {a}", "set": "{a}", "max": "max(result, {a})", "min": "min(result, {a})"}
# A call, in generated source, of code made of rules (another value, a function, a card's
# condition through `usable`, an expression not written inline): a value making one is
# charged per computation; one that makes none costs what its expressions cost.
_CALLS = re.compile(r"\b_(?:value_of_|fn|functions|usable|reach|value|modifier)\d+\b")


def value_name(em: Emitter, vi: int) -> str:
    """The name generated code calls value `vi` by: `NAME(st, player)`."""
    name = f"_value_of_{vi}"
    if name not in em.ns:
        em.ns[name] = _walk(vi)  # until define_values replaces it
    return name


def _walk(vi: int) -> Callable[[Any, int], Any]:
    def walk(st: Any, player: int) -> Any:
        return value_of(st, vi, player)
    return walk


def define_values(em: Emitter, values: tuple[ValueDef, ...],
                  reaches: Mapping[int, Callable[[Any, Any], Any]] | None = None) -> tuple[ValueDef, ...]:
    """Bind each value's name to its generated function. `reaches`: the cards whose
    modifiers reach whom an expression says (`applies_to`), not their holder, each
    with that expression (written out inline where it reads only its four locals).
    Gives the values back, each saying whether it calls others (`calls_others`)."""
    reaches = reaches or {}
    calling: set[int] = set()
    for vdef in values:
        name = f"_value_of_{vdef.index}"
        em.ns.setdefault(name, None)
        head = [f"def {name}(st, player):",
                "    memo = st.memo",
                "    if memo is not None:",
                f"        key = ({vdef.index}, player)",
                "        if key in memo:",
                "            return memo[key]"]
        lines = ["    env = {'p': player, 'me': player}",
                 f"    result = {em.inline(vdef.base, 'value')}"]
        cards = tuple(dict.fromkeys(mod.card for mod in vdef.modifiers if mod.card is not None))
        if len(cards) > 1:  # which of the cards have a copy in play, asked once
            lines.append(f"    live = {em.const(live_cards, 'live_cards')}(st, {cards!r})")
        hashed = False
        for mod in vdef.modifiers:
            indent = "    "
            lines.append(f"{indent}# the modifier numbered {mod.index}")  # (comments carry no rule text)
            last = None  # the indent of a loop over holders, ended by `break` once one is reached
            if mod.card is not None:  # the copy whose power reaches the player, and its holder
                reach = reaches.get(mod.card)
                if reach is None and not hashed:
                    # card_reaching looks the player up in a dict of holders, so a player
                    # no dict can hold fails here, whether or not a copy is in play
                    lines.append(f"{indent}{em.const(_NOBODY, 'nobody')}.get(player)")
                    hashed = True
                if len(cards) > 1:
                    lines.append(f"{indent}if {mod.card} in live:")
                    indent += "    "
                # The first holder (card_owners' order) it reaches: its holder is the
                # player (`owner` the player as given, as card_reaching says), or one
                # the card's `applies_to` says it reaches.
                lines.append(f"{indent}for holder, copy in {em.const(holders, 'holders')}(st, {mod.card}):")
                indent += "    "
                lines.append(f"{indent}if {'holder == player' if reach is None else _reaches_source(em, reach)}:")
                indent += "    "
                last = indent
                lines.append(f"{indent}{_SET_HELD if reach is None else _SET_HOLDER}")
            tests = []
            if mod.granted:
                tests.append(f"st.grants and any(g.modifier == {mod.index} and g.player == player for g in st.grants)")
            if mod.when is not None:
                tests.append(em.inline(mod.when, "modifier"))
            if tests:
                lines.append(f"{indent}if {' and '.join(tests)}:")
                indent += "    "
            apply = _APPLY.get(mod.op, _APPLY["min"])  # as counters._value_of: any other op is min
            lines.append(f"{indent}result = {apply.format(a=em.inline(mod.amount, 'modifier'))}")
            if last is not None:
                lines.append(f"{last}break")
        lines += ["    if memo is not None:", "        memo[key] = result", "    return result"]
        # A value that reads no local but its player (most) needs no locals dict, nor
        # `this` and `owner` when no modifier reads them (a block never holds only the
        # line dropped: the modifier's line follows); else they are Python locals: only
        # a card's modifier may read them (build.modifiers gives no other modifier those
        # names), after its lines set them.
        body = _player_only("\n".join(line for line in lines[1:] if line.strip() not in _HELD_LOCALS))
        if body is None:
            body = env_free("\n".join(_held_as_locals(line) for line in lines[1:]), _AS_LOCALS)
        lines = lines if body is None else body.split("\n")
        if _CALLS.search("\n".join(lines)):  # worked out (no memo hit), a value that calls others is
            # charged as a call (runtime/work.py): values reading each other twice per level stop
            head += [f"    {line}" for line in charge_call_lines(em.const(over_budget, "over_budget"))]
            calling.add(vdef.index)
        em.define("\n".join([*head, *lines]) + "\n", name, f"values.{vdef.name}")
    return tuple(attrs.evolve(v, calls_others=True) if v.index in calling else v for v in values)


def _reaches_source(em: Emitter, reach: Callable[[Any, Any], Any]) -> str:
    """Whether a card's `applies_to` holds for `player`, the `copy` and its `holder`:
    the expression over those locals, or (reading anything else) a call with its env."""
    body = em.inline(reach, "reach")
    inline = env_free(body, {"p": "player", "me": "player", "this": "copy", "owner": "holder"})
    if inline is not None:
        return inline
    return f"{em.const(reach, 'reach')}(st, {{'p': player, 'me': player, 'this': copy, 'owner': holder}})"


def _held_as_locals(line: str) -> str:
    """A line setting `this` and `owner` in env, made to set them as Python locals."""
    written = _HELD_LOCALS.get(line.strip())
    return line if written is None else line[:len(line) - len(line.lstrip())] + written


def _player_only(source: str) -> str | None:
    """`source` with its reads of env['p'] and env['me'] made reads of `player`, or None
    when it uses `env` otherwise."""
    return env_free(source, {"p": "player", "me": "player"})

