"""Hostile shapes that once reached the compiler as internal errors end as diagnostics
at file:line:col: ids with line breaks, a template of a template name that is no name,
text nested deeper than Python compiles, and YAML floats where integers are due.
"""

from __future__ import annotations

import ast

import pytest
from conftest import TICK_TURNS, cpu_budget, find_line, toy, toy_errors, write_toy

from interpreter import RuleFileError, load_game
from interpreter.compile import build as build_module
from interpreter.compile import pycheck
from interpreter.compile.pycheck import SourceTooDeep, check_lambda

GAME = """
counters:
  score: {scope: player, initial: 0}
values:
  bonus: {base: "0"}
cards:
  CARD:
    name: Gem
    count: 1
    modifiers:
      shine: {value: bonus, op: add, amount: "1"}
    active_in: [table]
zones:
  table: {scope: global, visible: all}
""" + TICK_TURNS.replace("ends: turn", 'ends: turn\n    label: "tick {1 + (2 + (3 + 4))}"')


def test_a_card_id_with_a_line_break_and_a_modifier_is_a_schema_error(tmp_path):
    errors = toy_errors(tmp_path, GAME.replace("CARD:", '"gem\\n":'))
    assert [d.code for d in errors] == ["schema"]
    assert "not a valid name" in errors[0].message


def test_extends_of_a_list_in_a_list_is_a_schema_error_not_a_crash(tmp_path):
    text = "card_types:\n  gadget: {count: 1}\n" + GAME.replace("CARD:", "gem:\n    extends: [[gadget]]")
    errors = toy_errors(tmp_path, text)
    assert {d.code for d in errors} == {"schema"}
    assert any("extends" in d.message for d in errors)


def test_text_whose_code_nests_too_deep_is_the_rule_s_error(tmp_path, monkeypatch):
    monkeypatch.setattr(pycheck, "MAX_DEPTH", 6)
    path = write_toy(tmp_path, GAME.replace("CARD:", "gem:"))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    deep = [d for d in caught.value.diagnostics if d.code == "too-deep"]
    assert deep and "Traceback" not in str(caught.value)
    assert deep[0].path.endswith("game.yaml") and deep[0].line >= 1


def test_recursion_while_compiling_is_the_rule_s_error(tmp_path, monkeypatch):
    real = build_module.parse_expression

    def deep_when(text):
        if text == "score(me) >= 3":
            raise RecursionError
        return real(text)
    path = write_toy(tmp_path, GAME.replace("CARD:", "gem:"))
    monkeypatch.setattr(build_module, "parse_expression", deep_when)
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    (deep,) = [d for d in caught.value.diagnostics if d.code == "too-deep"]
    assert deep.line == find_line(path, "score(me) >= 3")


def test_a_tree_nested_past_the_limit_is_too_deep():
    check_lambda(ast.parse("lambda st, env: " + repr("(" * 500), mode="eval"))  # (a literal does not nest)
    check_lambda(ast.parse("lambda st, env: " + "[" * 90 + "]" * 90, mode="eval"))
    deep = ast.parse("lambda st, env: 1", mode="eval")
    for _ in range(450):  # (more than Python's own parser would read from text)
        deep.body.body = ast.List([deep.body.body], ast.Load())
    with pytest.raises(SourceTooDeep):
        check_lambda(deep)


@pytest.mark.parametrize("number", ["1.0e300", "1.0", "2.5", "-0.0"])
def test_a_float_is_no_integer(tmp_path, number):
    errors = toy_errors(tmp_path, GAME.replace("CARD:", "gem:").replace("initial: 0", f"initial: {number}"))
    assert [d.code for d in errors] == ["schema"]
    assert "must be an integer" in errors[0].message


def test_true_is_no_integer_either(tmp_path):
    errors = toy_errors(tmp_path, GAME.replace("CARD:", "gem:").replace("count: 1", "count: true"))
    assert [d.code for d in errors] == ["schema"]


def test_the_plain_toy_loads(tmp_path):
    assert toy(tmp_path, GAME.replace("CARD:", "gem:")).name == "Toy"


def test_text_nested_thousands_deep_is_refused_before_it_is_parsed(tmp_path):
    # (found by the compiler fuzzer: 5,000 nested max( took 13 s of CPU to refuse)
    deep = "max(" * 5000 + "1" + ", 2)" * 5000
    with cpu_budget(2.0):
        errors = toy_errors(tmp_path, GAME.replace("CARD:", "gem:").replace('when: "score(me) >= 3"',
                                                                            f'when: "{deep} >= 3"'))
    assert [d.code for d in errors] == ["too-deep"]


def test_a_counter_past_the_size_limit_is_refused_before_anything_is_built(tmp_path) -> None:
    """A counter of 10^8 entries (a mutant the fuzzer made) is told at its `size` at once:
    building it first took a minute of CPU and gigabytes before the error was shown."""
    from interpreter.resources import data_path
    text = (data_path("examples") / "breakthrough" / "game.yaml").read_text(encoding="utf-8")
    assert "size: 64," in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace("size: 64,", "size: 100000000,"), encoding="utf-8")
    with cpu_budget(10), pytest.raises(RuleFileError) as caught:  # (the refusal takes well under a second)
        load_game(str(path))
    [problem] = caught.value.diagnostics
    assert (problem.code, problem.line) == ("limit", find_line(path, "size: 100000000"))
    assert problem.message == "counter 'piece' has size 100000000; the limit is 10000 entries"
