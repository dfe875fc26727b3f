"""`choose one` option labels are templates like every other label (`"take {pot} points"`
is filled in when the choice is made; the filled-in text is the option a player types
and the log keeps); a broken template is refused at its place; two options that read
the same once filled in are a rule error, never a silent pick."""

from __future__ import annotations

import pytest
from conftest import find_column, play, toy, write_toy

from interpreter import IllegalActionError, RuleFileError, load_game
from interpreter.diagnostics import RuleRuntimeError

POT = """
counters:
  vp: {scope: player}
  pot: {scope: global, initial: 3}
actions:
  go:
    during: main
    effect: |
      choose one prompt "take {pot} or pass?":
        "take {pot} points" when pot > 0:
          gain pot vp(me)
          lose 1 pot
        "pass":
          gain 0 vp(me)
    ends: turn
flow: |
  repeat 2:
    for each p in players:
      turn p:
        take actions main
"""


def test_option_labels_are_filled_in_when_the_choice_is_made(tmp_path) -> None:
    state = toy(tmp_path, POT).new_initial_state(2, 1)
    play(state, "go")
    assert [a.text for a in state.legal_actions()] == ['"take 3 points"', "pass"]
    assert state.prompt() == "take 3 or pass?"
    play(state, '"take 3 points"', "go")
    assert [a.text for a in state.legal_actions()] == ['"take 2 points"', "pass"]  # filled in again
    play(state, '"take 2 points"')
    assert state.counters[0] == [3, 2] and list(state.history)[-1] == '"take 2 points"'
    with pytest.raises(IllegalActionError, match="take 3 points"):
        play(state, "go", '"take 3 points"')  # the text of another moment is no option now


def test_a_broken_option_template_is_refused_where_it_is(tmp_path) -> None:
    path = write_toy(tmp_path, POT.replace('"take {pot} points"', '"take {pott} points"'))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    diagnostic = caught.value.diagnostics[0]
    assert "pott" in diagnostic.message
    assert diagnostic.line == find_column(path, "take {pott} points")[0]


def test_options_that_read_the_same_once_filled_in_are_a_rule_error(tmp_path) -> None:
    game = toy(tmp_path, POT.replace('"pass":', '"take {pot} points!" when false:\n          gain 0 vp(me)\n'
                                               '        "take {3} points":'))
    state = game.new_initial_state(2, 1)
    with pytest.raises(RuleRuntimeError, match="read the same now: 'take 3 points'"):
        play(state, "go")
