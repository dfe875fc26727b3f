"""The code generator builds Python syntax trees from its own templates (compile/pyast.py).

What holds by construction is checked here: every template is a literal of the
compiler's source (no rule text can be spliced into one), holes take nodes (text is
refused), rewrites never change a shared tree, and the trees of a game with hostile
text in every literal place hold that text only as constants.
"""

from __future__ import annotations

import ast
import pathlib

import pytest
from conftest import TICK_TURNS, toy

from interpreter.compile.pyast import (
    E,
    S,
    TemplateError,
    as_names,
    env_free,
    int_value,
    lit,
    name,
    transform,
    unparse,
    uses_env,
)
from interpreter.play.describe import tree_of

COMPILE = pathlib.Path(__file__).resolve().parent.parent / "interpreter" / "compile"
TEMPLATE_CALLS = ("E", "S")


def non_literal_templates(source: str, where: str) -> list[str]:
    """Calls of E or S whose template is not one literal string written in the call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in TEMPLATE_CALLS:
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                found.append(f"{where}:{node.lineno}")
    return found


def test_every_template_is_a_literal_of_the_compiler() -> None:
    found = [hit for path in sorted(COMPILE.glob("*.py"))
             for hit in non_literal_templates(path.read_text(encoding="utf-8"), path.name)]
    assert found == []
    calls = sum(path.read_text(encoding="utf-8").count("E(\"") + path.read_text(encoding="utf-8").count("S(\"")
                for path in COMPILE.glob("*.py"))
    assert calls > 100  # (the generator does write its code through templates)


@pytest.mark.parametrize("planted", ['E(f"{x} + 1", x=y)', 'S("x = " + text)', 'E(template)', "E()"])
def test_the_template_check_fails_on_a_built_template(planted: str) -> None:
    assert non_literal_templates(planted, "planted") == ["planted:1"]


def test_holes_take_nodes_and_splice_lists() -> None:
    call = E("{f}(st, {args})", f=name("_k1"), args=[lit("a"), E("env['x']"), 3])
    assert unparse(call) == "_k1(st, 'a', env['x'], 3)"
    body = S("""
        def {fn}(st, {params}):
            {v} = [{items}]
            for {a}, {b} in {v}:
                {lines}
            return {{'k': {v}}}
        """, fn=name("_op1"), params=[name("_l_me"), name("_l_x")], v=name("_v2"), items=[1, None, True],
             a=name("_a"), b=name("_b"), lines=[])
    assert unparse(body) == ("def _op1(st, _l_me, _l_x):\n    _v2 = [1, None, True]\n    for _a, _b in _v2:\n"
                             "        pass\n    return {'k': _v2}")
    (stored,) = S("{t} = 1", t=E("env['x']"))
    assert isinstance(stored, ast.Assign) and isinstance(stored.targets[0].ctx, ast.Store)


def test_an_expression_alone_on_a_line_is_a_statement() -> None:
    assert unparse(S("if {c}:\n    {call}", c=True, call=E("f(st)"))) == "if True:\n    f(st)"


@pytest.mark.parametrize("bad", ["env['x']", "os.system('ls')", "_k1"])
def test_text_is_never_taken_for_code(bad: str) -> None:
    with pytest.raises(TemplateError, match="lit"):
        E("1 + {x}", x=bad)
    assert unparse(E("1 + {x}", x=lit(bad))) == f"1 + {bad!r}"


@pytest.mark.parametrize("bad", ["__class__", "a b", "x\n", "", "1x", "ｆｏｒ"])
def test_a_generated_name_is_a_plain_identifier(bad: str) -> None:
    with pytest.raises(TemplateError):
        name(bad)


def test_a_template_hole_is_a_plain_name() -> None:
    with pytest.raises(TemplateError):
        E("{x!r} + 1", x=1)
    with pytest.raises(TemplateError):
        E("{x} + {y}", x=1)  # no value for y


def test_rewrites_copy_and_never_change_a_shared_tree() -> None:
    shared = E("env['c'] + env.get('me', st.active) + env['d']")
    before = ast.dump(shared)
    named = as_names(shared, {"c": "_l_c", "me": "_l_me"})
    assert unparse(named) == "_l_c + _l_me + env['d']"
    assert ast.dump(shared) == before
    assert env_free(shared, {"c": "_l_c", "me": "_l_me"}) is None  # env['d'] stays
    assert unparse(env_free(shared, {"c": "_l_c", "me": "_l_me", "d": "_l_d"})) == "_l_c + _l_me + _l_d"
    # a text that spells a read is a constant: nothing to rewrite, nothing that uses env
    spelled = E("{t} + env['c']", t=lit("env['c']"))
    assert unparse(as_names(spelled, {"c": "_l_c"})) == "\"env['c']\" + _l_c"
    assert not uses_env(E("{t}", t=lit("env")))
    assert uses_env(E("g(st, env)"))
    assert transform(shared, lambda n: None) is shared


def test_a_written_local_becomes_a_name_too() -> None:
    (line,) = as_names(S("env['x'] = env['x'] + 1"), {"x": "_l_x"})
    assert unparse(line) == "_l_x = _l_x + 1"
    assert isinstance(line.targets[0].ctx, ast.Store)


def test_int_value_reads_written_numbers_only() -> None:
    assert [int_value(E(t)) for t in ("3", "-3", "x", "'3'", "True", "1 + 2")] == [3, -3, None, None, None, None]


HOSTILE = "'); import os; os.system('x'); ('"

GAME = """
counters:
  score: {scope: player, initial: 0}
""" + TICK_TURNS.replace('effect: "gain 1 score"', f'effect: "gain 1 score\\nlog \\"{HOSTILE}\\""')


def test_rule_text_reaches_the_trees_only_as_constants(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, GAME)
    trees = [tree_of(code) for _, code in game.definition.generated_code]
    constants = [n.value for tree in trees for n in ast.walk(tree)
                 if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    assert any(HOSTILE in c for c in constants)
    names = {n.id for tree in trees for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "os" not in names
