"""What a rule file declares about whole games (interpreter/rules/utility.py): `utility:`
(kind, sum, bounds), checked by the engine at every end of a game, and `max_moves:`.
Bad declarations are refused at load with the key's place; a game that breaks its
declaration is a rule error when it ends, never returns learning code would trust."""

from __future__ import annotations

import re

import pytest
from conftest import toy, toy_errors

from interpreter import load_game
from interpreter.diagnostics import RuleRuntimeError

# One action each: `take` gains 1 point, `give` gives the other 2; returns are the
# difference of points (P1 moves first).
GAME = """
constants:
  bonus: 0
  longest: 2
counters:
  points: {scope: player, initial: 0}
actions:
  take: {during: main, effect: "set points(me) to points(me) + 1 + bonus", ends: turn}
  give: {during: main, effect: "set points(next_player(me)) to points(next_player(me)) + 2", ends: turn}
flow: |
  for each p in players:
    turn p:
      take actions main
scoring:
  score: "points(p)"
  returns: "points(p) - points(next_player(p))"
"""


def _play(game, picks: list[str]) -> list[float]:
    st = game.new_initial_state(2)
    for word in picks:
        st.apply_action(next(a for a in st.legal_actions() if str(a).startswith(word)))
    assert st.is_terminal()
    return st.returns()


def test_a_kept_declaration_is_read_and_passes(tmp_path) -> None:
    game = toy(tmp_path, GAME + "utility: {kind: zero-sum, min: -3, max: 3}\nmax_moves: longest\n")
    spec = game.definition.utility
    assert (spec.kind, spec.total, spec.low, spec.high, game.definition.max_moves) == ("zero-sum", 0.0, -3.0, 3.0, 2)
    assert _play(game, ["take", "give"]) == [3.0, -3.0]


def test_a_broken_sum_is_a_rule_error_when_the_game_ends(tmp_path) -> None:
    game = toy(tmp_path, GAME.replace('returns: "points(p) - points(next_player(p))"', 'returns: "points(p)"')
               + "utility: {kind: zero-sum}\n")
    with pytest.raises(RuleRuntimeError, match=r"returns \(1, 1\) add up to 2, but utility declares zero-sum 0"):
        _play(game, ["take", "take"])
    constant = toy(tmp_path, GAME.replace('returns: "points(p) - points(next_player(p))"', 'returns: "points(p)"')
                   + "utility: {kind: constant-sum, sum: 2}\n")
    assert _play(constant, ["take", "take"]) == [1.0, 1.0]
    with pytest.raises(RuleRuntimeError, match="add up to 3, but utility declares constant-sum 2"):
        _play(constant, ["take", "give"])


def test_a_broken_bound_is_a_rule_error(tmp_path) -> None:
    game = toy(tmp_path, GAME + "utility: {kind: zero-sum, min: -1, max: 1}\n")
    assert _play(game, ["take", "take"]) == [0.0, 0.0]
    with pytest.raises(RuleRuntimeError, match="P1's return 3 is above utility's max 1"):
        _play(game, ["take", "give"])


@pytest.mark.parametrize(("declared", "message"), [
    ("utility: {kind: constant-sum}", "a constant-sum game says what the returns add up to"),
    ("utility: {kind: zero-sum, sum: 3}", "the returns of a zero-sum game add up to 0, not 3"),
    ("utility: {kind: general-sum, sum: 3}", "a general-sum game has no sum"),
    ("utility: {kind: zero-sum, min: 2, max: -2}", r"min \(2\) is more than max \(-2\)"),
    ("max_moves: shortest", "max_moves: no constant 'shortest'"),
    ("max_moves: bonus", "constant 'bonus' is 0, not a whole number of at least 1"),
])
def test_bad_declarations_are_refused_at_load(tmp_path, declared: str, message: str) -> None:
    errors = toy_errors(tmp_path, GAME + declared + "\n")
    assert any(re.search(message, d.message) for d in errors), [d.format() for d in errors]
    assert all(d.line > 1 for d in errors)  # placed at the key


def test_the_schema_refuses_a_kind_it_does_not_know(tmp_path) -> None:
    errors = toy_errors(tmp_path, GAME + "utility: {kind: fair}\n")
    assert any("utility.kind must be one of: zero-sum, constant-sum, general-sum" in d.message for d in errors)


def test_bundled_declarations() -> None:
    kuhn, leduc = load_game("kuhn-poker").definition, load_game("leduc-poker").definition
    assert (kuhn.utility.kind, kuhn.utility.low, kuhn.utility.high, kuhn.max_moves) == ("zero-sum", -2, 2, 3)
    assert (leduc.utility.kind, leduc.utility.low, leduc.utility.high, leduc.max_moves) == ("zero-sum", -13, 13, 8)
    assert load_game("goofspiel", variants=["four-cards"]).definition.max_moves == 4  # the constant num_cards


def test_an_overlay_sets_both(tmp_path) -> None:
    overlay = tmp_path / "wide.yaml"
    overlay.write_text("orrery: 1\noverlay: wide\nbase: kuhn-poker\n"
                       "set:\n  utility: {kind: zero-sum, min: -5, max: 5}\n  max_moves: 4\n", encoding="utf-8")
    gd = load_game("kuhn-poker", overlays=[str(overlay)]).definition
    assert (gd.utility.low, gd.utility.high, gd.max_moves) == (-5.0, 5.0, 4)
