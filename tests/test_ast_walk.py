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


@pytest.mark.parametrize("target", ["race-to-mars", "rocketmen"])
def test_statements_are_the_statement_nodes_of_the_walk(target: str) -> None:
    """`ast.statements` gives exactly the statements `walk` meets, in the same order, and
    never an expression: every node kind is one or the other (or a part, `Option`)."""
    for text in all_effect_texts(load_raw(target).data):
        body = parse_program(text)
        nodes = ast.walk(body)
        assert ast.statements(body) == [n for n in nodes if isinstance(n, ast.Statement)]
        assert all(isinstance(n, ast.Expression | ast.Statement | ast.Option) for n in nodes)


def test_statements_reach_every_kind_of_body() -> None:
    body = parse_program(
        'if 1 > 0:\n  let y = 2\nelif 2 > 1:\n  log "a"\nelse:\n  choose one:\n    "a":\n      log "b"\n'
        'repeat 2:\n  turn me:\n    log "c"\nwhile 1 > 2:\n  log "d"\nround:\n  log "e"\n')
    assert [type(n).__name__ for n in ast.statements(body)] == [
        "If", "Let", "Log", "ChooseOne", "Log", "Repeat", "Turn", "Log", "While", "Log", "Round", "Log"]
