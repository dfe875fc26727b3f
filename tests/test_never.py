"""What the rules settle before any state exists (compile/never.py), and the generated
code that uses it: turns and rounds leave out the tests of what never happens (no
trigger names the event, no end condition is checked there or finishes the turn first;
the operations stay, empty, so positions in saves do not move), each `take actions`
record knows the game's end checks, bots and fixed listing, and end conditions read `me`
as the active player.
"""

from __future__ import annotations

import json

import pytest
from conftest import code_listing, generated, generated_ns, texts, toy

from interpreter.compile.never import fill_never
from interpreter.diagnostics import GameError
from interpreter.lang.symbols import Symbols
from interpreter.runtime.decisions import ActionWait

GAME = """
counters:
  pot: {scope: global, initial: 0}
  starts: {scope: global, initial: 0}
actions:
  add:
    during: main
    effect: "set pot to pot + 1"
    ends: turn
end:
  - id: full
    when: "pot >= 5"
    check: action
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def test_turns_leave_out_the_tests_of_events_no_trigger_names(tmp_path) -> None:
    quiet = toy(tmp_path, GAME)
    code = generated(quiet, "flow")
    assert "'turn_start', -1" not in code and "'turn_end', -1" not in code and "_check_end_turn(st)" not in code
    heard = toy(tmp_path, GAME + """
triggers:
  starts:
    on: turn_start
    effect: "set starts to starts + 1"
""")
    code = generated(heard, "flow")
    assert "(st, 'turn_start', -1, {'player': _p})" in code and "'turn_end', -1" not in code
    state = heard.new_initial_state(2, seed=2)
    assert state.counters[1] == [1]  # the first turn's start was heard
    state.apply_action("add")
    assert state.counters[1] == [2]
    # the operations left empty keep every position: saves of both games have the same shape
    assert [len(c.ops) for c in quiet.definition.codes if c.name == "flow"] == \
        [len(c.ops) for c in heard.definition.codes if c.name == "flow"]


def test_never_facts_read_from_the_raw_rules(tmp_path) -> None:
    turn_events = ("turn_start", "turn_end", "round_start", "round_end")

    def facts(data):
        sym = Symbols()
        fill_never(sym, data, lambda name: data.get(name) or {})
        return {e for e in turn_events if not sym.may_hear(e)}, sym.heard, sym.unchecked, sym.nothing_deferred

    assert facts({}) == (set(turn_events), frozenset(), frozenset({"action", "turn", "round"}), True)
    data = {"triggers": {"a": {"on": "refilled deck"}, "b": {"on": "round_end"}},
            "cards": {"x": {"triggers": {"c": {"on": "turn_start"}}}},
            "end": [{"when": "true", "check": "turn", "then": "finish_round"}]}
    assert facts(data) == ({"turn_end", "round_start"}, frozenset({("refill", "deck"), ("round_end", ""),
                                                                   ("turn_start", "")}),
                           frozenset({"action", "round"}), False)
    # a trigger without a readable event may be anything: every test stays
    assert facts({"triggers": {"a": {"on": ""}}})[:2] == (set(), None)
    assert facts({"end": "not a list"})[2:] == (frozenset(), False)


def test_counter_and_card_events_no_trigger_names_are_never_fired(tmp_path) -> None:
    def heard(data):
        sym = Symbols()
        fill_never(sym, data, lambda name: data.get(name) or {})
        return sym
    sym = heard({"triggers": {"a": {"on": "changed vp"}}, "cards": {"x": {"triggers": {"c": {"on": "entered hand"}}}}})
    assert sym.may_hear("changed", "vp") and not sym.may_hear("changed", "coins")
    assert sym.may_hear("entered") and not sym.may_hear("left") and not sym.may_hear("refill")
    assert heard({"triggers": {"a": {"on": "refilled deck"}}}).may_hear("refill")  # (the format's spelling)
    unreadable = heard({"triggers": {"a": {"on": ""}, "b": {"on": "changed vp"}}})
    assert unreadable.may_hear("changed", "coins") and unreadable.may_hear("left")
    assert Symbols().may_hear("left")  # (the defaults claim nothing)
    # A set of a counter no trigger names is not followed by a test of the queue; a
    # heard one is (its trigger's effect runs before the next statement).
    game = toy(tmp_path, GAME.replace("effect: \"set pot to pot + 1\"",
                                      "effect: |\n      set starts to 1\n      set pot to pot + 1") + """
triggers:
  counted:
    on: changed pot
    effect: "set starts to starts + 10"
""")
    source = dict(code_listing(game.definition))["actions.add.effect (operations 0-1)"]
    assert source.count("if st.queue:") == 1 and source.index("if st.queue:") > source.index("st.counters[0]")
    state = game.new_initial_state(2, seed=1)
    state.apply_action("add")
    assert state.counters[1] == [11]  # starts: set to 1, then the trigger on pot added 10


def test_a_save_finishing_a_turn_in_a_game_that_never_does_is_refused(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    data = json.loads(game.new_initial_state(2, seed=1).to_json())
    data["ending"], data["ending_reason"] = "turn", "full"  # (only `then: finish_turn` sets it)
    with pytest.raises(GameError, match="no end condition of this game does that"):
        game.state_from_json(json.dumps(data))
    assert texts(game.state_from_json(game.new_initial_state(2, seed=1).to_json()))


ROUNDS = """
counters:
  pot: {scope: global, initial: 0}
actions:
  add:
    during: main
    effect: "set pot to pot + 1"
    ends: turn
end:
  - id: ENDING
    when: "pot >= 3"
    check: CHECK
    then: THEN
flow: |
  repeat forever:
    round:
      for each p in players:
        turn p:
          take actions main
"""


@pytest.mark.parametrize(("check", "then", "turns"), [
    ("action", "end", 3),  # at once
    ("round", "end", 4),  # at the end of the round it happened in (2 players: turns 3 and 4)
    ("action", "finish_round", 4),  # noticed at once, the round played out
    ("action", "finish_turn", 3),
    ("turn", "end", 3),
])
def test_end_conditions_are_checked_where_they_say_and_nowhere_else(tmp_path, check, then, turns) -> None:
    game = toy(tmp_path, ROUNDS.replace("ENDING", f"{check}-{then}").replace("CHECK", check).replace("THEN", then))
    code = generated(game, "flow")
    assert ("_check_end_round(st)" in code) == (check == "round")
    assert ("st.ending" in code) == (then != "end")
    state = game.new_initial_state(2, seed=1)
    played = 0
    while not state.is_terminal():
        state.apply_action("add")
        played += 1
    assert played == turns and state.end_reason == f"{check}-{then}"


def _waits(game) -> list:
    """The wait records the generated code holds: bound names, and in a game with bots
    the closure that asks the seat's bot first (take_now)."""
    found: list = []
    for value in generated_ns(game.definition).values():
        cells = [cell.cell_contents for cell in getattr(value, "__closure__", None) or ()]
        found += [v for v in (value, *cells) if isinstance(v, ActionWait) and all(v is not f for f in found)]
    return found


def test_each_wait_knows_what_the_rules_settle_before_any_state(tmp_path) -> None:
    game = toy(tmp_path, GAME)  # an end checked after each action; no bots; `add` always legal
    (wait,) = _waits(game)
    assert wait.checks_action and not wait.bots
    assert wait.fixed is game.definition.fixed_listings["main"]
    assert [a.text for a in wait.fixed] == ["add"]
    other = toy(tmp_path, GAME.replace("check: action", "check: turn").replace(
        'effect: "set pot to pot + 1"', 'condition: "pot < 9"\n    effect: "set pot to pot + 1"') + """
bots:
  adder: {choose: first}
""")
    (wait,) = _waits(other)
    assert not wait.checks_action and wait.bots and wait.fixed is None
    state = other.new_initial_state(2, seed=1, seats=["adder", "random"])  # the bot adds at once
    assert state.counters[0] == [1] and texts(state) == ["add"]


def test_an_end_condition_reads_me_as_the_active_player_without_a_dictionary(tmp_path) -> None:
    game = toy(tmp_path, """
counters:
  score: {scope: player, initial: 0}
actions:
  add:
    during: main
    params: {n: "[1, 2]"}
    effect: "gain n score(me)"
    ends: turn
end:
  - id: reached
    when: "score(me) >= 3"
    check: turn
    winners: "[me]"
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
""")
    check = next(src for what, src in code_listing(game.definition) if what == "end (turn)")
    assert "env" not in check and "st.active" in check
    state = game.new_initial_state(2, seed=1)
    for text in ("add 2", "add 2", "add 1"):  # P1 2, P2 2, P1 3: P1's turn ends the game
        state.apply_action(text)
    assert state.is_terminal() and state.winners == [0] and state.end_reason == "reached"


def test_turns_empty_the_use_counts_only_of_scopes_some_action_limits(tmp_path) -> None:
    assert "st.uses['turn'] = {}" not in generated(toy(tmp_path, GAME), "flow")  # no limit: the counts stay empty
    limited = toy(tmp_path, GAME.replace("    ends: turn\n", "    limit: {per_turn: 2}\n", 1).replace(
        "actions:\n", "actions:\n  done:\n    during: main\n    ends: turn\n", 1))
    assert "st.uses['turn'] = {}" in generated(limited, "flow")
    state = limited.new_initial_state(2, seed=1)
    assert texts(state) == ["done", "add"]
    state.apply_action("add")
    state.apply_action("add")
    assert texts(state) == ["done"]  # two adds this turn
    state.apply_action("done")
    assert texts(state) == ["done", "add"]  # the next player's turn: counted afresh
    assert state.uses["turn"] == {}
