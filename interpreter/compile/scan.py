"""Reading effect text without compiling it: every text of a game, every node of a
parsed text, and values that depend on themselves.

The builder's whole-game checks need to know what the texts say before (or besides)
compiling them: which scopes some flow opens, which attributes some effect sets, and
which values and functions an expression reads. A value read while it is worked out
(`a` with `base: "b(p) + 1"` and `b` with `base: "a(p)"`, or a modifier of `a` whose
amount reads `a`) would recurse until Python gives up, so such a cycle is an error at
load time, like a function that calls itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import attrs

from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, parse_expression


@attrs.frozen
class EffectText:
    """One effect text of the rules and its logical place (for Origins.locate_text)."""

    logical: tuple[Any, ...]
    text: str


def effect_texts(data: dict[str, Any]) -> Iterator[EffectText]:
    """The effect texts (statements, not expressions) of merged raw rules, in the order
    of the rule data, each with its logical place."""
    for key in ("setup", "flow"):
        if isinstance(data.get(key), str):
            yield EffectText((key,), data[key])
    for section, field in (("procedures", "effect"), ("actions", "effect"), ("triggers", "effect"),
                           ("bots", "turn")):
        for item_id, spec in _items(data.get(section)):
            if isinstance(spec, dict) and isinstance(spec.get(field), str):
                yield EffectText((section, item_id, field), spec[field])
    for cid, card in _items(data.get("cards")):
        if not isinstance(card, dict):
            continue
        for name, entry in _items(card.get("effects")):  # "text", or {effect: "text", condition, cost}
            if isinstance(entry, str):
                yield EffectText(("cards", cid, "effects", name), entry)
            elif isinstance(entry, dict) and isinstance(entry.get("effect"), str):
                yield EffectText(("cards", cid, "effects", name, "effect"), entry["effect"])
        for tid, spec in _items(card.get("triggers")):
            if isinstance(spec, dict) and isinstance(spec.get("effect"), str):
                yield EffectText(("cards", cid, "triggers", tid, "effect"), spec["effect"])


def all_effect_texts(data: dict[str, Any]) -> list[str]:
    """The effect texts (statements, not expressions) of merged raw rules."""
    return [t.text for t in effect_texts(data)]


def names_read(texts: Iterable[Any]) -> set[str]:
    """The names the expressions read or call (texts that do not parse read none)."""
    found: set[str] = set()
    for text in texts:
        if not isinstance(text, str):
            continue
        try:
            nodes = ast.walk((parse_expression(text),))
        except EffectSyntaxError:
            continue  # reported where the text is compiled
        found.update(n.name for n in nodes if isinstance(n, (ast.Name, ast.Call)))
    return found


def self_dependent(reads: dict[str, set[str]]) -> dict[str, list[str]]:
    """For each name that reads itself through `reads` (name -> names it reads), one
    cycle through it, from it back to it."""
    cycles: dict[str, list[str]] = {}
    for start in reads:
        # Breadth first from what `start` reads, remembering the way back.
        came_from: dict[str, str] = {}
        todo = [start]
        while todo and start not in came_from:
            here = todo.pop(0)
            for name in sorted(reads.get(here, ())):
                if name in reads and name not in came_from:
                    came_from[name] = here
                    todo.append(name)
        if start in came_from:
            way = [start]
            while len(way) == 1 or way[-1] != start:
                way.append(came_from[way[-1]])
            cycles[start] = way[::-1]
    return cycles


def _items(section: Any) -> list[tuple[Any, Any]]:
    return list(section.items()) if isinstance(section, dict) else []
