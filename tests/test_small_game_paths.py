"""The fast paths a small game's playout takes give what the general paths give: an
action just listed taken without looking it up again, a `take actions` statement
heading the fused run that follows its decision, forward jumps of a run calling their
target, counters set in place, draws and shuffles written out, always-legal groups
listed from a kept tuple, new states built from the per-count template."""

from __future__ import annotations

import json
import random

import pytest
from conftest import code_listing, counter, find_line, play, texts, toy, write_toy

from interpreter import IllegalActionError, load_game
from interpreter.diagnostics import RuleRuntimeError
from interpreter.runtime import decisions
from interpreter.runtime.rng import randbelow

SMALL = ["kuhn-poker", "leduc-poker", "tic-tac-toe", "goofspiel"]


def _walk(game, seed: int, how: str) -> tuple[list[str], list[float]]:
    """A random game's saves after every move and its returns, each move applied as
    the Action listed ("object": the fast path), as its text, or as its text on the
    state read back from its save ("resumed")."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    saves = [state.to_json()]
    while not state.is_terminal():
        assert len(saves) < 200, "a small game that does not end"
        pick = rng.choice(state.legal_actions())
        if how == "resumed":
            state = game.state_from_json(state.to_json())
        state.apply_action(pick if how == "object" else pick.text)
        saves.append(state.to_json())
    return saves, state.returns()


@pytest.mark.parametrize("name", SMALL)
def test_an_action_just_listed_is_taken_as_its_text_or_a_resumed_save_would_take_it(name, monkeypatch) -> None:
    game = load_game(name)
    taken = []
    real = decisions.take

    def counted(st, action, pending) -> None:
        taken.append(action)
        real(st, action, pending)

    monkeypatch.setattr(decisions, "take", counted)
    for seed in range(25):
        fast = _walk(game, seed, "object")
        assert len(fast[0]) > 1
        assert fast == _walk(game, seed, "text") == _walk(game, seed, "resumed")
    assert taken if name != "goofspiel" else not taken  # simultaneous steps take the general path


def test_an_action_of_another_listing_or_state_goes_the_general_way() -> None:
    game = load_game("kuhn-poker")
    state, other = game.new_initial_state(seed=1), game.new_initial_state(seed=2)
    bet = other.legal_actions()[1]
    other.apply_action(bet)
    state.apply_action(bet)  # the same Action object: equal texts, so the same move
    assert state.history[:] == ["bet"]
    with pytest.raises(IllegalActionError, match="P1 is not to act now"):
        state.apply_action(state.legal_actions()[0], player=0)  # P2 is to act: checked as before


def test_a_listing_handed_out_is_the_callers_own() -> None:
    state = load_game("kuhn-poker").new_initial_state(seed=4)
    listed = state.legal_actions()
    listed.clear()
    assert texts(state) == ["pass", "bet"]
    assert state.legal_actions() is not state.legal_actions()


def test_a_take_actions_statement_with_nothing_legal_goes_on_inside_its_run(tmp_path) -> None:
    game = toy(tmp_path, """
counters:
  n: {scope: global, initial: 0}
actions:
  up: {during: main, condition: "n < 1", effect: "gain 1 n", ends: turn}
flow: |
  turn 0:
    take actions main
  turn 1:
    take actions main
  log "on {n}"
  end game winners [0]
""")
    state = game.new_initial_state(2, seed=0)
    assert texts(state) == ["up"] and state.current_player() == 0
    play(state, "up")
    assert state.is_terminal() and "on 1" in state.log and state.turn_no == 2
    code = "\n".join(source for _, source in code_listing(game.definition))
    assert "if env.pop('#done" in code  # the statement is inside a run, at its head


def test_a_save_made_while_waiting_inside_a_run_resumes_there(tmp_path) -> None:
    game = load_game("kuhn-poker")
    state = play(game.new_initial_state(seed=9), "pass")
    saved = json.loads(state.to_json())
    flow = saved["stack"][0]
    assert flow[1] == 5  # the second `take actions`: where the run that follows it starts
    resumed = game.state_from_json(state.to_json())
    for one in (state, resumed):
        play(one, "bet", "bet")
    assert resumed.to_json() == state.to_json() and state.is_terminal()


BRANCHES = """
counters:
  n: {scope: global, initial: 0}
  hits: {scope: global, initial: 0}
flow: |
BODY
  end game winners [0]
"""


def _branches(tmp_path, body: str):
    text = BRANCHES.replace("BODY", "".join(f"  {line}\n" for line in body.strip("\n").splitlines()).rstrip("\n"))
    return write_toy(tmp_path, text)


@pytest.mark.parametrize("start", [0, 100])
def test_runs_that_jump_forward_again_and_again_give_what_the_loop_gives(tmp_path, start) -> None:
    # Twenty ifs in a row: taken one after another (n counts up), or all skipped: each
    # skip is a forward jump, more of them than one call may chain (MAX_CHAIN).
    body = f"set n to {start}\n" + "".join(f"if n == {k}:\n  gain 1 n\n  gain 1 hits\n" for k in range(20))
    game = load_game(str(_branches(tmp_path, body)))
    state = game.new_initial_state(2, seed=0)
    assert state.is_terminal()
    assert (counter(state, "n"), counter(state, "hits")) == ((20, 20) if start == 0 else (100, 0))
    code = "\n".join(source for _, source in code_listing(game.definition))
    assert "return _goto" in code


def test_an_error_after_a_forward_jump_is_placed_at_its_own_statement(tmp_path) -> None:
    path = _branches(tmp_path, "if n > 5:\n  set n to 1\nlog \"n is {n}\"\nset hits to [1][n + 3]")
    with pytest.raises(RuleRuntimeError) as caught:
        load_game(str(path)).new_initial_state(2, seed=0)
    assert "index out of range" in str(caught.value)
    assert caught.value.line == find_line(path, "set hits to [1][n + 3]")


SETS = """
counters:
  vp: {scope: player, initial: 0, min: 0, max: 5}
  pool: {scope: global, initial: 0}
  seen: {scope: global, initial: 0}
triggers:
  saw:
    on: changed pool
    effect: "gain 1 seen"
flow: |
  set vp(0) to 9
  set vp(1) to 0 - 4
  set pool to 3
  set pool to 3
  set pool to 7
  end game winners [0]
"""


def test_a_counter_set_keeps_its_bounds_and_its_triggers(tmp_path) -> None:
    state = toy(tmp_path, SETS).new_initial_state(2, seed=0)
    assert counter(state, "vp", 0) == 5 and counter(state, "vp", 1) == 0  # clamped by set_counter
    assert counter(state, "pool") == 7 and counter(state, "seen") == 2  # a set to the same value fires nothing


def test_a_counter_set_too_large_or_not_a_number_is_a_rule_error(tmp_path) -> None:
    with pytest.raises(RuleRuntimeError, match="too large"):
        toy(tmp_path, SETS.replace("set pool to 7", "set pool to 4611686018427387904 * 4")).new_initial_state(2)


DRAWS = """
zones:
  deck: {scope: global, visible: none, refill: {from: pile}}
  pile: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
cards:
  a: {name: Ace, count: 2, in: deck}
  b: {name: Bee, count: 2, in: pile}
flow: |
  shuffle deck
  for each p in players:
    draw COUNT from deck to hand(p)
  end game winners [0]
"""


def test_a_draw_longer_than_its_pile_refills_as_its_zone_says(tmp_path) -> None:
    state = toy(tmp_path, DRAWS.replace("COUNT", "2")).new_initial_state(2, seed=5)
    hands = [state.zones[state.layout.zbase[2] + p] for p in (0, 1)]
    assert [len(h) for h in hands] == [2, 2]
    assert sorted(state.card_text(c).split("#")[0] for h in hands for c in h) == ["a", "a", "b", "b"]


def test_a_draw_of_a_negative_count_is_a_placed_rule_error(tmp_path) -> None:
    path = write_toy(tmp_path, DRAWS.replace("COUNT", "0 - 1"))
    with pytest.raises(RuleRuntimeError, match="cannot draw -1 cards") as caught:
        load_game(str(path)).new_initial_state(2, seed=0)
    assert caught.value.line == find_line(path, "draw 0 - 1")


def test_a_shuffle_written_out_orders_the_deck_as_the_generator_draws(tmp_path) -> None:
    game = toy(tmp_path, """
zones:
  deck: {scope: global, visible: none}
cards:
  c: {name: Card, count: 12, in: deck}
flow: |
  shuffle deck
  end game winners [0]
""")
    state = game.new_initial_state(2, seed=77)
    reference = game.new_initial_state(2, seed=77)
    reference.rng = 77  # the generator as the game began
    order = list(range(12))
    for i in range(11, 0, -1):
        j = randbelow(reference, i + 1)
        order[i], order[j] = order[j], order[i]
    assert state.zones[0] == order and state.rng == reference.rng


def test_an_always_legal_group_is_listed_as_its_listers_list_it(tmp_path) -> None:
    kuhn = load_game("kuhn-poker")
    state = kuhn.new_initial_state(seed=3)
    listed: list = []
    for action in kuhn.definition.groups["bet"]:
        action.lister(state, 0, listed)
    fixed = kuhn.definition.fixed_listings.get("bet")
    assert fixed is not None
    assert [(a.text, a.payload) for a in fixed] == [(a.text, a.payload) for a in listed]
    conditional = toy(tmp_path, """
counters:
  n: {scope: global, initial: 0}
actions:
  up: {during: main, condition: "n < 1", effect: "gain 1 n", ends: turn}
  wait: {during: main, ends: turn}
flow: |
  turn 0:
    take actions main
""")
    assert "main" not in conditional.definition.fixed_listings
    assert decisions.fixed_listing(conditional.definition.groups["main"]) is None
    assert texts(conditional.new_initial_state(2, seed=0)) == ["up", "wait"]


def test_states_waiting_at_one_statement_share_its_record_and_saves_keep_it() -> None:
    game = load_game("kuhn-poker")
    one, two = game.new_initial_state(seed=1), game.new_initial_state(seed=9)
    assert one.pending is two.pending  # the statement's record of P1's wait, made once
    play(one, "pass")
    play(two, "bet")
    assert one.pending is two.pending and one.pending.player == 1
    back = game.state_from_json(one.to_json())
    assert back.pending == one.pending and back.pending is not one.pending  # read back: equal, not shared
    play(back, "bet")  # the record read back waits like the statement's own
    assert back.pending.player == 0 and back.pending.group == "bet"
    assert [a.text for a in back.legal_actions()] == ["pass", "bet"]


def test_new_states_share_nothing_that_changes() -> None:
    game = load_game("kuhn-poker")
    one, two = game.new_initial_state(seed=1), game.new_initial_state(seed=1)
    assert one == two and one.players is two.players  # the seats' list is shared: never changed
    play(one, "bet")
    assert one.counters != two.counters and one.stack[0].env != two.stack[0].env
    assert game.new_initial_state(seed=1).to_json() == two.to_json()
    assert game.start_template(2).counters == [[1, 1], [0, 0], [0, 0]]


def test_the_kept_listing_is_handed_out_as_a_copy_and_only_to_the_player_to_act() -> None:
    game = load_game("kuhn-poker")
    state = game.new_initial_state(seed=2)
    first = state.legal_actions()
    first.clear()  # the caller's own list: the state's listing is untouched
    again = state.legal_actions()
    assert [a.text for a in again] == ["pass", "bet"] and again is not state.legal_cache
    assert state.legal_actions(1) == [] and [a.text for a in state.legal_actions(0)] == ["pass", "bet"]
    state.apply_action(again[1])
    assert [a.text for a in state.legal_actions()] == ["pass", "bet"] and state.current_player() == 1
    state.apply_action("pass")
    assert state.is_terminal() and state.legal_actions() == [] and state.returns() == [1.0, -1.0]


def test_a_simultaneous_step_lists_each_seats_actions_the_general_way() -> None:
    game = load_game("goofspiel")
    state = game.new_initial_state(seed=3)
    assert state.is_simultaneous_node()
    mine, theirs = state.legal_actions(0), state.legal_actions(1)
    assert mine and theirs and [a.text for a in state.legal_actions()] == [a.text for a in mine]
