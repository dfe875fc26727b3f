"""`end turn`: a statement that ends the turn's actions once the action being taken is
done, under any condition, in an action's effect or a procedure or trigger it runs; the
same as an action that `ends: turn`, decided while it runs."""

from __future__ import annotations

import pytest
from conftest import find_line, toy, write_toy

from interpreter import load_game
from interpreter.diagnostics import RuleRuntimeError

PAIRS = """
counters:
  score: {scope: player}
  bell: {scope: global, initial: 0}
procedures:
  maybe_end:
    params: {p: player}
    effect: |
      if score(p) % 2 == 0:
        end turn
actions:
  tick:
    during: turn
    effect: |
      gain 1 score(me)
      maybe_end(me)
  ring:
    during: turn
    effect: gain 1 bell
triggers:
  rung:
    on: changed bell
    when: "bell == 3"
    effect: end turn
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions turn
end:
  - id: done
    check: turn
    when: "score(me) >= 4"
    winners: "[me]"
"""


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_a_turn_ends_when_a_procedure_says_so_and_goes_on_otherwise(tmp_path, chance: str) -> None:
    game = toy(tmp_path, PAIRS)
    state = game.new_initial_state(2, seed=0, chance=chance)
    players = []
    for _ in range(4):
        players.append(state.current_player())
        state.apply_action("tick")
    # every second tick of a player's ends their turn (score 2, then 4: the game)
    assert players == [0, 0, 1, 1]
    assert state.current_player() == 0 and not state.is_terminal()


def test_a_trigger_may_end_the_turn_of_the_action_that_fired_it(tmp_path) -> None:
    state = toy(tmp_path, PAIRS).new_initial_state(2, seed=0)
    for _ in range(3):
        assert state.current_player() == 0
        state.apply_action("ring")
    assert state.current_player() == 1  # the third ring fired `rung`, which ended P1's turn


def test_a_state_saved_after_an_end_turn_resumes_identically(tmp_path) -> None:
    game = toy(tmp_path, PAIRS)
    state = game.new_initial_state(2, seed=0)
    state.apply_action("tick")
    state.apply_action("tick")
    again = game.state_from_json(state.to_json())
    assert again.current_player() == state.current_player() == 1
    assert again.to_json() == state.to_json()


def test_end_turn_where_no_actions_are_taken_is_a_rule_error_at_the_statement(tmp_path) -> None:
    path = write_toy(tmp_path, PAIRS + "setup: |\n  end turn\n")
    with pytest.raises(RuleRuntimeError, match="'end turn' where no `take actions` waits") as caught:
        load_game(str(path)).new_initial_state(2, seed=0)
    assert (caught.value.line, caught.value.column) == (find_line(path, "  end turn", nth=1), 3)
