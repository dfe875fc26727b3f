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
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Callable
from typing import Any

from interpreter.compile.pysource import Emitter
from interpreter.model import ValueDef
from interpreter.runtime.cards import in_play, live_cards
from interpreter.runtime.counters import card_reaching, value_of

_NOBODY: dict[Any, Any] = {}  # never filled: its look-ups only hash the key
_APPLY = {"add": "result + {a}", "set": "{a}", "max": "max(result, {a})", "min": "min(result, {a})"}


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


def define_values(em: Emitter, values: tuple[ValueDef, ...], reach_set: frozenset[int] = frozenset()) -> None:
    """Bind each value's name to its generated function. `reach_set`: the cards whose
    modifiers reach whom an expression says (`applies_to`), not their holder."""
    reaching = em.const(card_reaching, "card_reaching")
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
            lines.append(f"{indent}# modifier {mod.id}")
            if mod.card is not None:  # the copy whose power reaches the player, and its holder
                if not hashed and mod.card not in reach_set:
                    # card_reaching looks the player up in a dict of holders, so a player
                    # no dict can hold fails here, whether or not a copy is in play
                    lines.append(f"{indent}{em.const(_NOBODY, 'nobody')}.get(player)")
                    hashed = True
                if len(cards) > 1:
                    lines.append(f"{indent}if {mod.card} in live:")
                else:
                    lines.append(f"{indent}if {em.const(in_play, 'in_play')}(st, {mod.card}):")
                indent += "    "
                lines.append(f"{indent}reach = {reaching}(st, {mod.card}, player)")
                lines.append(f"{indent}if reach is not None:")
                indent += "    "
                lines.append(f"{indent}env['this'], env['owner'] = reach")
            tests = []
            if mod.granted:
                tests.append(f"any(g.modifier == {mod.index} and g.player == player for g in st.grants)")
            if mod.when is not None:
                tests.append(em.inline(mod.when, "modifier"))
            if tests:
                lines.append(f"{indent}if {' and '.join(tests)}:")
                indent += "    "
            apply = _APPLY.get(mod.op, _APPLY["min"])  # as counters._value_of: any other op is min
            lines.append(f"{indent}result = {apply.format(a=em.inline(mod.amount, 'modifier'))}")
        lines += ["    if memo is not None:", "        memo[key] = result", "    return result"]
        # A value that reads no local but its player (most) needs no locals dict.
        body = _player_only("\n".join(lines[1:]))
        lines = lines if body is None else body.split("\n")
        em.define("\n".join([*head, *lines]) + "\n", name, f"values.{vdef.name}")


def _player_only(source: str) -> str | None:
    """`source` with its reads of env['p'] and env['me'] made reads of `player`, or None
    when it uses `env` otherwise (found by Python's tokenizer: text inside a string
    literal is never taken for code)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):  # not expected of generated code: keep env then
        return None
    starts = [0]
    for line in source.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    spans = []
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or tok.string != "env":
            continue
        window = [t.string for t in tokens[i + 1:i + 4]]
        if window not in (["[", "'p'", "]"], ["[", "'me'", "]"]):
            return None
        (first_row, first_col), (last_row, last_col) = tok.start, tokens[i + 3].end
        spans.append((starts[first_row - 1] + first_col, starts[last_row - 1] + last_col))
    for begin, stop in reversed(spans):
        source = source[:begin] + "player" + source[stop:]
    return source
