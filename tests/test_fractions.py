"""Exact fractions in effect text: decimals and `/` make exact numbers (an int again
when whole), `//` divides whole, `%` is the remainder; fractions live in locals, scores
and returns, print as 7/2 everywhere, survive a save, and a whole-number game compiles
and plays as it always did. `/` in a file of format 1 still rounds toward zero."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from conftest import code_listing, find_column, toy, write_toy

from interpreter import RuleRuntimeError, load_game
from interpreter.play.terminal_text import final_scores

# Three players bet; the pot is split between those with the most chips (a third each
# when all three tie), and each score is an average with a quarter point added.
SPLIT_POT = """
orrery: 2
id: split-pot
name: Split pot
players: {min: 2, max: 3, default: 3}
utility: {kind: constant-sum, sum: 1}
counters:
  chips: {scope: player, initial: 0}
actions:
  bet:
    during: main
    params: {n: "[1, 2]"}
    effect: |
      let share = n / 3
      choose k from [0, 1] prompt "and then?"
      gain n + k chips(me)
      log "{me} bets {n}: a share of {share}, {share + 0.5} with a half"
    ends: turn
flow: |
  for each p in players:
    turn p:
      take actions main
  end game
scoring:
  score: "(chips(p) + 0.5) / 2"
  returns: >-
    select(chips(p) == max([chips(q) for q in players]),
           1 / count(q for q in players if chips(q) == max([chips(r) for r in players])), 0)
"""


def _play(game, actions: list[str], n: int = 3):
    state = game.new_initial_state(n, 1)
    for text in actions:
        state.apply_action(text)
    return state


def test_a_split_pot_pays_exact_thirds_and_averages_score_exactly(tmp_path) -> None:
    game = toy(tmp_path, SPLIT_POT)
    state = _play(game, ["bet 1", "0", "bet 1", "0", "bet 1", "0"])
    assert state.is_terminal() and state.winners == [0, 1, 2]
    assert state.returns() == [1 / 3] * 3  # floats for learning code; the sum is checked as declared
    assert state.scores() == [0.75, 0.75, 0.75]
    assert next(iter(state.log)) == "P1 bets 1: a share of 1/3, 5/6 with a half"
    state = _play(game, ["bet 2", "1", "bet 1", "0", "bet 2", "1"])
    assert state.returns() == [0.5, 0.0, 0.5]


def test_a_fraction_in_a_paused_effect_survives_a_save_exactly(tmp_path) -> None:
    game = toy(tmp_path, SPLIT_POT)
    state = _play(game, ["bet 2"])
    text = state.to_json()
    assert '"share":{"$fraction":"2/3"}' in text
    loaded = game.state_from_json(text)
    assert loaded.to_json() == text
    loaded.apply_action("1")
    assert next(iter(loaded.log)) == "P1 bets 2: a share of 2/3, 7/6 with a half"


@pytest.mark.parametrize(("orrery", "checks"), [
    (2, ["7 / 2 == 3.5", "-7 / 2 == -3.5", "6 / 3 == 2", "7 // 2 == 3", "-7 // 2 == -4", "7 % 3 == 1",
         "0.5 + 0.5 == 1", "[10, 20, 30][0.5 + 0.5] == 20", "sum([0.25, 0.75]) == 1", "max([1/3, 0.3]) == 1 / 3",
         "1 / 3 + 1 / 3 + 1 / 3 == 1", "2.50 == 5 / 2", "3.5 // 1 == 3", "3.5 % 1 == 0.5", "1 / 3 < 0.34",
         'text(7 / 2) == "7/2"', 'text(-1 / 2) == "-1/2"', 'text(2 / 1) == "2"']),
    (1, ["7 / 2 == 3", "-7 / 2 == -3", "7 // 2 == 3", "-7 // 2 == -4", "0.5 * 4 == 2", "1.5 / 3 == 0.5",
         "rate * 4 == 1", 'text(rate) == "1/4"', "table[1] == 2", "[7, 8, 9][table[1]] == 9", "table[0] * 2 == 1"]),
])
def test_numbers_divide_by_the_file_format(tmp_path, orrery: int, checks: list[str]) -> None:
    ends = "\n".join(f"  - {{id: c{i}, check: action, when: 'not ({c})', winners: '[]'}}"
                     for i, c in enumerate(checks))
    game = toy(tmp_path, f"""
orrery: {orrery}
id: sums
name: Sums
players: {{min: 2, max: 2}}
constants: {{rate: 0.25, table: [0.5, 2.0]}}
actions:
  go: {{during: main, effect: 'log "go"', ends: turn}}
flow: |
  turn 0:
    take actions main
  end game winners [0]
end:
{ends}
""")
    state = _play(game, ["go"], 2)
    assert state.end_reason == "end-game" and state.winners == [0]


def test_a_whole_counter_refuses_a_fraction_and_a_division_by_zero_is_located(tmp_path) -> None:
    text = SPLIT_POT.replace("gain n + k chips(me)", "gain n / 2 + k chips(me)")
    game = toy(tmp_path, text)
    with pytest.raises(RuleRuntimeError) as caught:
        _play(game, ["bet 1", "0"])
    assert "counter chips holds whole numbers, not 1/2" in caught.value.message
    path = write_toy(tmp_path, SPLIT_POT.replace("let share = n / 3", "let share = n / (n - n)"))
    with pytest.raises(RuleRuntimeError) as caught:
        _play(load_game(str(path)), ["bet 1"])
    assert "division by zero" in caught.value.message
    line, _ = find_column(path, "let share")
    assert (caught.value.path, caught.value.line) == (str(path), line)


def test_a_fraction_that_keeps_growing_is_a_rule_error(tmp_path) -> None:
    game = toy(tmp_path, SPLIT_POT.replace("let share = n / 3", "let share = n\n      repeat 200:\n"
                                                                  "        let share = share / 3 + 1 / 7"))
    with pytest.raises(RuleRuntimeError) as caught:
        _play(game, ["bet 1"])
    assert caught.value.code == "limit" and "digits" in caught.value.message


def test_a_whole_number_game_compiles_as_it_always_did() -> None:
    """No fraction can arise in a game of format 1 without a decimal: its arithmetic is
    the plain Python it always was (no call, no test per operation)."""
    game = load_game("tic-tac-toe")
    code = "\n".join(source for _, source in code_listing(game.definition))
    assert "Fraction" not in code and "_normal" not in code
    state = game.new_initial_state(2, 3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert all(type(v) is float for v in state.returns())
    assert "$fraction" not in state.to_json()


POT = """
orrery: 2
id: pot
name: Pot
players: {min: 2, max: 2}
counters:
  pot: {scope: global, fractions: true}
  chips: {scope: player, initial: 3}
actions:
  ante:
    during: main
    effect: |
      gain 1 / 3 pot
      choose k from [0, 1]
      gain k / 6 pot
    ends: turn
flow: |
  for each p in players:
    turn p:
      take actions main
  end game
scoring:
  score: "pot / 2 + chips(p)"
"""


def test_a_counter_that_declares_fractions_holds_them_shows_them_and_saves_them(tmp_path) -> None:
    game = toy(tmp_path, POT)
    state = _play(game, ["ante", "1"], 2)
    assert state.counters[0] == [Fraction(1, 2)]
    assert state.observation(0)["counters"]["pot"] == "1/2"
    assert 0.5 in state.observation_tensor(0)
    text = state.to_json()
    assert '"counters":[[{"$fraction":"1/2"}]' in text
    assert game.state_from_json(text).to_json() == text
    state.apply_action("ante")
    state.apply_action("1")
    assert state.counters[0] == [1] and type(state.counters[0][0]) is int  # 1/2 + 1/3 + 1/6: whole again
    assert state.scores() == [3.5, 3.5] and state.scores(exact=True) == [Fraction(7, 2)] * 2
    assert final_scores(state) == "Final scores: P1 7/2, P2 7/2"


def test_fractions_as_choices_number_as_integer_actions_and_save_while_waiting(tmp_path) -> None:
    game = toy(tmp_path, """
orrery: 2
id: bids
name: Bids
players: {min: 2, max: 2}
actions:
  bid:
    during: main
    params: {x: "[0.5, 1, 3 / 2]"}
    effect: |
      choose y from [1 / 4, 1 / 2, 3 / 4]
      log "{me} bids {x} then {y}"
    ends: turn
flow: |
  turn 0:
    take actions main
  end game winners [0]
""")
    state = game.new_initial_state(2, 1)
    assert [str(a) for a in state.legal_actions()] == ["bid 1/2", "bid 1", "bid 3/2"]
    assert state.legal_action_ids() == [0, 1, 2]
    state.apply_action("bid 3/2")
    assert [str(a) for a in state.legal_actions()] == ["1/4", "1/2", "3/4"]
    assert len(state.legal_action_ids()) == 3
    loaded = game.state_from_json(state.to_json())
    loaded.apply_action("3/4")
    assert next(iter(loaded.log)) == "P1 bids 3/2 then 3/4"


@pytest.mark.parametrize(("effect", "what"), [
    ("for each i in range(n / 2):\n        gain 1 chips(me)", "range()"),
    ("repeat n / 2:\n        gain 1 chips(me)", "repeat"),
])
def test_a_count_that_is_a_fraction_is_a_rule_error_saying_so(tmp_path, effect: str, what: str) -> None:
    """`repeat` and `range` count in whole numbers: 3/2 there is a located rule error in
    words, never Python's TypeError nor a count rounded without a word."""
    path = write_toy(tmp_path, SPLIT_POT.replace("let share = n / 3", f"let share = n / 3\n      {effect}"))
    game = load_game(str(path))
    _play(game, ["bet 2", "0"])  # 2 / 2 is whole: counts as 1
    with pytest.raises(RuleRuntimeError) as caught:
        _play(game, ["bet 1"])
    assert caught.value.message == f"{what} takes a whole number, not 1/2 (round it down with x // 1)"
    assert caught.value.code == "type" and caught.value.line == find_column(path, effect.split("\n")[0])[0]
