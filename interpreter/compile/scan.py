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

from collections.abc import Iterable
from typing import Any

from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, parse_expression


def all_effect_texts(data: dict[str, Any]) -> list[str]:
    """The effect texts (statements, not expressions) of merged raw rules."""
    texts: list[str] = []
    for key in ("setup", "flow"):
        if isinstance(data.get(key), str):
            texts.append(data[key])
    for section in ("procedures", "actions", "triggers"):
        for spec in _entries(data.get(section)):
            if isinstance(spec.get("effect"), str):
                texts.append(spec["effect"])
    for spec in _entries(data.get("cards")):
        for entry in _values(spec.get("effects")):  # "text", or {effect: "text", condition, cost}
            text = entry.get("effect") if isinstance(entry, dict) else entry
            if isinstance(text, str):
                texts.append(text)
        texts.extend(t["effect"] for t in _entries(spec.get("triggers")) if isinstance(t.get("effect"), str))
    for spec in _entries(data.get("bots")):
        if isinstance(spec.get("turn"), str):
            texts.append(spec["turn"])
    return texts


def walk(nodes: Iterable[ast.Node]) -> list[ast.Node]:
    """Every node of the trees (iterative: effect text may nest deeply)."""
    out: list[ast.Node] = []
    todo: list[Any] = list(nodes)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Node):
            out.append(node)
            for field in node.__attrs_attrs__:  # type: ignore[attr-defined]
                todo.append(getattr(node, field.name))
        elif isinstance(node, tuple):
            todo.extend(node)
    return out


def names_read(texts: Iterable[Any]) -> set[str]:
    """The names the expressions read or call (texts that do not parse read none)."""
    found: set[str] = set()
    for text in texts:
        if not isinstance(text, str):
            continue
        try:
            nodes = walk((parse_expression(text),))
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


def _entries(section: Any) -> list[dict[str, Any]]:
    return [spec for spec in _values(section) if isinstance(spec, dict)]


def _values(section: Any) -> list[Any]:
    return list(section.values()) if isinstance(section, dict) else []
