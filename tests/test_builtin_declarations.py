"""Each built-in function is declared once (interpreter/lang/builtins.py) and every stage
reads its facts from there: the compiler's arity check, the analyses' tables."""

from __future__ import annotations

import pytest
from conftest import TICK_TURNS, toy_errors

import interpreter.compile.build  # noqa: F401 - registers every lowering
from interpreter.analysis.chance_zones import _ORDER_FREE
from interpreter.analysis.hidden_offers import _NO_CARD, _OF_ARG
from interpreter.analysis.programs import RANDOM_CALLS
from interpreter.compile.builtin_registry import BUILTINS, builtin
from interpreter.compile.hoisting import _PURE_BUILTINS
from interpreter.lang.builtins import BUILTIN_FACTS


def test_every_lowering_is_declared_and_every_declaration_lowered() -> None:
    assert set(BUILTINS) == set(BUILTIN_FACTS)


def test_a_lowering_of_an_undeclared_name_is_refused() -> None:
    with pytest.raises(ValueError, match="not declared"):
        builtin("frobnicate")


def test_the_analyses_tables_come_from_the_declarations() -> None:
    assert RANDOM_CALLS == {"random", "pick_random", "shuffled"}
    assert {"len", "count", "size", "pick_random"} <= _ORDER_FREE and "sorted" not in _ORDER_FREE
    assert "sum" in _PURE_BUILTINS and "random" not in _PURE_BUILTINS
    assert "size" in _NO_CARD and "top" not in _NO_CARD and _OF_ARG["cards_named"] == 1


def test_the_declared_arity_is_checked_when_rules_compile(tmp_path) -> None:
    toy = "counters:\n  score: {scope: player}\n" + TICK_TURNS.replace('"score(me) >= 3"', '"abs(1, 2) >= 3"')
    errors = toy_errors(tmp_path, toy)
    assert [(e.code, e.message) for e in errors] == [("arity", "abs() takes 1 argument(s), got 2")]
