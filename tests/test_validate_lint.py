"""What type-checks but can hardly be meant: an action group no effect takes, a
per-player counter where there is no current player, a `choose one` that can never
offer anything. Each is a warning at its file, line and column with a hint (an error
with `--strict`), from `orrery validate` and `Game.warnings`; the right way to write
each gives none. A wrong-type parameter is one error, without follow-on errors.
"""

from __future__ import annotations

import pytest
from conftest import counter, find_column, texts, toy, toy_errors, write_toy

from interpreter import RuleFileError, load_game
from interpreter.cli import main


def warnings_of(tmp_path, text: str) -> list:
    """The warnings of a toy game; with strict, the same are its errors."""
    found = toy(tmp_path, text).warnings
    assert all(d.severity == "warning" for d in found)
    with pytest.raises(RuleFileError) as err:
        load_game(str(write_toy(tmp_path, text)), strict=True)
    assert [(d.code, d.line, d.column, d.severity) for d in err.value.diagnostics] == [
        (d.code, d.line, d.column, "error") for d in found]
    return found

GAME = """
counters:
  vp: {scope: player, initial: 0}
  pot: {scope: global, initial: 0}
actions:
  score: {during: main, effect: "gain 1 vp", ends: turn}
setup: |
  SETUP
flow: |
  repeat 2:
    round:
      for each p in players:
        turn p:
          take actions main
scoring: {score: "vp(p)"}
"""


def game(setup: str = "set pot to 1", extra: str = "") -> str:
    return GAME.replace("SETUP", setup) + extra


def test_the_right_way_loads(tmp_path):
    ok = toy(tmp_path, game("for each p in players:\n    set vp(p) to 2\n  set pot to 1"))
    assert ok.warnings == []
    state = ok.new_initial_state(2)
    assert counter(state, "vp", 0) == 2 and counter(state, "vp", 1) == 2


def test_a_per_player_counter_without_a_player_in_setup(tmp_path, capsys):
    path = write_toy(tmp_path, game("set vp to 2"))
    assert main(["validate", str(path)]) == 0
    assert "warning[no-player]" in capsys.readouterr().out
    assert main(["validate", str(path), "--strict"]) == 1
    assert "error[no-player]" in capsys.readouterr().out
    [found] = warnings_of(tmp_path, game("set vp to 2"))
    assert found.code == "no-player" and "setup runs before any turn" in found.message
    assert (found.line, found.column) == find_column(path, "vp to")
    assert found.hint is not None and "vp(p)" in found.hint


def test_a_per_player_counter_inside_a_loop_of_setup_is_still_without_a_player(tmp_path):
    found = warnings_of(tmp_path, game("for each p in players:\n    gain 1 vp\n    gain 1 vp(p)"))
    assert [d.code for d in found] == ["no-player"]


def test_a_per_player_counter_in_the_flow_outside_turns(tmp_path):
    text = game().replace("          take actions main", "          take actions main\n      gain 1 vp")
    found = warnings_of(tmp_path, text)
    assert [d.code for d in found] == ["no-player"] and "outside `turn` blocks" in found[0].message


def test_a_local_of_the_same_name_is_not_a_counter(tmp_path):
    text = game("for each q in players:\n    let pot_share = 1\n    set vp(q) to pot_share")
    assert toy(tmp_path, text).warnings == []


def test_an_end_condition_checked_per_round_needs_a_player(tmp_path):
    bad = game(extra='end:\n  - {id: rich, check: round, when: "vp >= 3"}\n')
    path = write_toy(tmp_path, bad)
    [found] = warnings_of(tmp_path, bad)
    assert found.code == "no-player" and "end of a round" in found.message
    assert found.path.endswith("game.yaml") and found.line == find_column(path, "vp >= 3")[0]
    good = game(extra='end:\n  - {id: rich, check: turn, when: "vp >= 3"}\n'
                      '  - {id: richest, check: round, when: "max([vp(p) for p in players]) >= 3"}\n')
    assert toy(tmp_path, good).warnings == []


def test_an_action_group_no_flow_takes(tmp_path):
    text = game(extra='  \n').replace('actions:\n', 'actions:\n  bonus: {during: extra, effect: "gain 1 pot"}\n')
    path = write_toy(tmp_path, text)
    [found] = warnings_of(tmp_path, text)
    assert found.code == "unused-group" and "'extra'" in found.message and "'bonus'" in found.message
    assert found.path.endswith("game.yaml") and (found.line, found.column) == find_column(path, "extra")
    assert found.hint == "add `take actions extra` to the flow (or a turn)"


def test_a_group_taken_by_a_procedure_is_used(tmp_path):
    text = game(extra='procedures:\n  bonus_phase: {effect: "take actions extra"}\n').replace(
        'actions:\n', 'actions:\n  bonus: {during: extra, effect: "gain 1 pot", ends: turn}\n').replace(
        "          take actions main", "          take actions main\n          bonus_phase()")
    assert toy(tmp_path, text).warnings == []


def test_a_choose_one_whose_options_are_all_false(tmp_path):
    setup = 'choose one:\n    "a" when false:\n      set pot to 1\n    "b" when false:\n      set pot to 2'
    path = write_toy(tmp_path, game(setup))
    [found] = warnings_of(tmp_path, game(setup))
    assert found.code == "choice-never-open"
    assert (found.line, found.column) == find_column(path, "choose one")


def test_a_choose_one_with_no_open_option_at_run_time_does_nothing(tmp_path):
    setup = ('choose one by 0:\n    "a" when pot > 5:\n      set pot to 1\n    "b" when false:\n      set pot to 2\n'
             '  set pot to 7')
    loaded = toy(tmp_path, game(setup))
    assert loaded.warnings == []                            # not surely a mistake: no warning
    state = loaded.new_initial_state(2)
    assert counter(state, "pot") == 7                       # skipped, and the effect went on
    assert texts(state) == ["score"]                        # the flow's first decision


PARAMS = """
counters:
  vp: {scope: player}
zones:
  deck: {scope: global}
cards:
  a: {name: A, count: 2, in: deck, properties: {cost: 1}}
actions:
  buy:
    during: main
    params: {card: CHOICES}
    condition: "card.cost > 0"
    effect: |
      gain card.cost vp
      move card to deck
    ends: turn
flow: |
  turn 0:
    take actions main
scoring: {score: "vp(p)"}
"""


def test_a_wrong_type_parameter_is_one_error_without_follow_ons(tmp_path):
    text = PARAMS.replace("CHOICES", '"3"')
    path = write_toy(tmp_path, text)
    found = toy_errors(tmp_path, text)
    assert [(d.code, d.line, d.column) for d in found] == [("type", *find_column(path, '"3"'))]
    assert "needs a list of choices, got a number" in found[0].message


def test_a_parameter_whose_choices_do_not_compile_is_one_error(tmp_path):
    found = toy_errors(tmp_path, PARAMS.replace("CHOICES", '"[c for c in dekc]"'))
    assert [d.code for d in found] == ["unknown-name"] and "dekc" in found[0].message


def test_the_parameter_written_right_loads(tmp_path):
    state = toy(tmp_path, PARAMS.replace("CHOICES", '"[c for c in deck]"')).new_initial_state(2)
    assert len(texts(state)) == 2 and all(t.startswith("buy a") for t in texts(state))


def test_serve_prints_the_rules_warnings_and_strict_refuses_them(tmp_path, capsys, monkeypatch):
    served: list[object] = []
    monkeypatch.setattr("interpreter.cli.serve", lambda session, *rest: served.append(session))
    path = write_toy(tmp_path, game("set vp to 2"))
    assert main(["serve", str(path), "--seats", "random,random", "--no-browser"]) == 0
    assert len(served) == 1 and "warning[no-player]" in capsys.readouterr().err
    assert main(["serve", str(path), "--seats", "random,random", "--no-browser", "--strict"]) == 1
    assert len(served) == 1 and "error[no-player]" in capsys.readouterr().err


def test_analyze_prints_the_rules_warnings_and_strict_refuses_them(tmp_path, capsys):
    path = write_toy(tmp_path, game("set vp to 2"))
    assert main(["analyze", str(path), "--games", "2", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "warning[no-player]" in err and '"games"' in out
    assert main(["analyze", str(path), "--games", "2", "--json", "--strict"]) == 1
    out, err = capsys.readouterr()
    assert "error[no-player]" in err and out == ""
