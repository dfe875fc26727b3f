"""The effect texts of a game's data and the nodes in them, for checks over the whole game
(which card attributes some effect sets, which functions call which) made before any
text is compiled.
"""

from __future__ import annotations

from typing import Any

from interpreter.lang import ast


def all_effect_texts(data: dict[str, Any]) -> list[str]:
    """Every effect text of a game's merged data (setup, flow, procedures, actions,
    triggers, cards' effects and triggers, bots' turns), for whole-game checks."""
    texts: list[str] = []
    for key in ("setup", "flow"):
        if isinstance(data.get(key), str):
            texts.append(data[key])
    for section in ("procedures", "actions", "triggers"):
        for spec in (data.get(section) or {}).values():
            if isinstance(spec, dict) and isinstance(spec.get("effect"), str):
                texts.append(spec["effect"])
    for spec in (data.get("cards") or {}).values():
        if isinstance(spec, dict):
            texts.extend(t for t in (spec.get("effects") or {}).values() if isinstance(t, str))
            texts.extend(t["effect"] for t in (spec.get("triggers") or {}).values()
                         if isinstance(t, dict) and isinstance(t.get("effect"), str))
    for spec in (data.get("bots") or {}).values():
        if isinstance(spec, dict) and isinstance(spec.get("turn"), str):
            texts.append(spec["turn"])
    return texts


def walk_nodes(nodes: tuple[ast.Node, ...]) -> list[ast.Node]:
    """Every node under `nodes`, in no particular order."""
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
