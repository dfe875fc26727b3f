"""Setting an attribute of no card is a rule error at its statement.

`top(market)` of an empty market is none; setting one of its attributes once stored an
attribute of no card, a state whose own save was then refused as corrupt. Every state
the rules can reach must save and load, so the statement itself is the error.
"""

from __future__ import annotations

import pytest
from conftest import TICK_TURNS, find_line, toy, write_toy

from interpreter import load_game
from interpreter.diagnostics import RuleRuntimeError

GAME = """
counters:
  score: {scope: player, initial: 0}
cards:
  gem: {name: Gem, count: 2, properties: {shiny: 0}, in: STOCK}
zones:
  market: {scope: global, visible: all}
  stock: {scope: global, visible: all}
setup: |
  set top(market).shiny to 1
""" + TICK_TURNS


def test_an_attribute_of_no_card_is_a_rule_error_at_its_statement(tmp_path):
    path = write_toy(tmp_path, GAME.replace("STOCK", "stock"))
    game = load_game(str(path))
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_initial_state(2, seed=1)
    assert "there is no card" in str(caught.value)
    assert f":{find_line(path, 'set top(market)')}:" in str(caught.value)


def test_an_attribute_of_a_card_saves_and_loads(tmp_path):
    game = toy(tmp_path, GAME.replace("STOCK", "market"))
    state = game.new_initial_state(2, seed=1)
    again = game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
    state.apply_action("tick")
    again.apply_action("tick")
    assert again.to_json() == state.to_json()
