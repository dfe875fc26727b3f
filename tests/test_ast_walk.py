"""`lang.ast.walk` and `children`: the one walk of the effect language's trees that the
compiler, the lint and the runtime's analyses share."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from interpreter.compile.scan import all_effect_texts
from interpreter.lang import ast
from interpreter.lang.parser import parse_program
from interpreter.rules.loader import load_raw


def _reference(item: Any) -> list[ast.Node]:
    """Pre-order by recursion, fields in declared order: what the walk must give."""
    if isinstance(item, ast.Node):
        out = [item]
        for field in attrs.fields(type(item)):
            out += _reference(getattr(item, field.name))
        return out
    if isinstance(item, tuple | list):
        return [node for part in item for node in _reference(part)]
    return []


@pytest.mark.parametrize("target", ["race-to-mars", "for-all-mankind", "rocketmen", "kuhn-poker"])
def test_walk_gives_every_node_in_the_order_written(target: str) -> None:
    texts = all_effect_texts(load_raw(target).data)
    assert texts
    for text in texts:
        body = parse_program(text)
        assert ast.walk(body) == _reference(body)
        for node in ast.walk(body):
            assert ast.children(node) == _direct(node)


def _direct(node: ast.Node) -> list[ast.Node]:
    found: list[ast.Node] = []

    def collect(item: Any) -> None:
        if isinstance(item, ast.Node):
            found.append(item)
        elif isinstance(item, tuple | list):
            for part in item:
                collect(part)
    for field in attrs.fields(type(node)):
        collect(getattr(node, field.name))
    return found


def test_walk_reaches_a_deeply_nested_text_without_recursion() -> None:
    depth = 3000
    node: ast.Node = ast.Literal(1, 1, 0)
    for _ in range(depth):
        node = ast.Unary(1, 1, "-", node)
    assert len(ast.walk([node])) == depth + 1
