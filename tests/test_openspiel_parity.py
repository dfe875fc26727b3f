"""The OpenSpiel adapter at parity with OpenSpiel's own games (#33): what its tools
call runs with nothing but the game's name. Utility and bounds from the rules, CFR and
exploitability, `random_sim_test` with serialization, serialize/deserialize round
trips, undo, game parameters from the rule file's constants and variants, an honest
`max_game_length`, and OpenSpiel's RL environment. Runs are short: each game a few
random games, CFR a few iterations."""

from __future__ import annotations

import copy

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from interpreter import openspiel  # noqa: E402
from interpreter.diagnostics import GameError, IllegalActionError, RuleFileError, RuleRuntimeError  # noqa: E402

# The bundled games OpenSpiel's tools apply to at a cost a test can pay, with options.
SMALL = [("kuhn-poker", {}), ("leduc-poker", {}), ("goofspiel", {"variants": ["four-cards"]}),
         ("tic-tac-toe", {}), ("rock-paper-scissors", {})]


@pytest.mark.parametrize(("name", "options"), SMALL, ids=[n for n, _ in SMALL])
def test_random_sim_test_with_serialization(name: str, options: dict) -> None:
    game = openspiel.load(name, **options)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_cfr_and_exploitability_need_only_the_name() -> None:
    game = openspiel.load("kuhn-poker")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    solver = cfr.CFRSolver(game)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    ours = exploitability.exploitability(game, solver.average_policy())
    theirs_game = pyspiel.load_game("kuhn_poker")
    theirs = cfr.CFRSolver(theirs_game)
    for _ in range(10):
        theirs.evaluate_and_update_policy()
    assert ours == pytest.approx(exploitability.exploitability(theirs_game, theirs.average_policy()), abs=1e-9)


def test_cfr_and_exploitability_on_leduc_equal_openspiels_own_leduc() -> None:
    """Two CFR iterations and the exploitability of their average policy, through the
    adapter with nothing but the name, equal OpenSpiel's C++ Leduc poker (9,457 nodes:
    the tree walks of CFR and of pyspiel's C++ best response both go through the
    wrapper's clones and moves)."""
    game = openspiel.load("leduc-poker")
    solver, theirs_game = cfr.CFRSolver(game), pyspiel.load_game("leduc_poker")
    theirs = cfr.CFRSolver(theirs_game)
    for _ in range(2):  # (after one, the average policy is still the uniform one)
        solver.evaluate_and_update_policy()
        theirs.evaluate_and_update_policy()
    ours = exploitability.exploitability(game, solver.average_policy())
    assert ours == pytest.approx(exploitability.exploitability(theirs_game, theirs.average_policy()), abs=1e-9)
    assert ours < 2.3  # the uniform policy's is 2.3736: CFR moved it


def test_a_deep_copy_of_a_state_is_a_clone() -> None:
    game = openspiel.load("leduc-poker")
    state = game.new_initial_state()
    for action in (0, 3, 1):  # deal, deal, call
        state.apply_action(action)
    twin = copy.deepcopy(state)
    assert type(twin) is type(state) and twin.history() == state.history() and str(twin) == str(state)
    twin.apply_action(twin.legal_actions()[0])
    assert state.history() == [0, 3, 1] and len(twin.history()) == 4


def test_a_game_without_returns_is_zero_sum_at_two_players_only() -> None:
    two = openspiel.load("goofspiel", variants=["four-cards"])
    three = openspiel.load("goofspiel", variants=["four-cards"], players=3)
    kinds = pyspiel.GameType.Utility
    assert (two.get_type().utility, two.utility_sum()) == (kinds.ZERO_SUM, 0.0)
    assert (three.get_type().utility, three.utility_sum()) == (kinds.GENERAL_SUM, None)
    assert (two.min_utility(), two.max_utility()) == (-1.0, 1.0)


def test_serialize_round_trip_keeps_the_state_and_its_information_states() -> None:
    game = openspiel.load("leduc-poker")
    state = game.new_initial_state()
    for action in (0, 3, 1, 2, 1):  # deal, deal, call, raise, call
        state.apply_action(action)
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again_game) == str(game) and again.history() == state.history()
    assert str(again) == str(state) and again.core.state == state.core.state
    for p in (0, 1):
        assert again.information_state_string(p) == state.information_state_string(p)
    assert again.legal_actions() == state.legal_actions()
    same = game.deserialize_state(state.serialize())
    assert same.history() == state.history() and str(same) == str(state)


def test_a_serialization_whose_moves_and_save_disagree_is_refused() -> None:
    from interpreter.adapters.openspiel_core import restored_core

    game = openspiel.load("kuhn-poker")
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(2)
    function, (game_text, save, moves) = state.core.__reduce__()
    assert function is restored_core and function(game_text, save, moves).state == state.core.state
    with pytest.raises(GameError, match="not the one its moves lead to"):
        function(game_text, save, [(-1, 1, False), (-1, 2, False)])  # another deal
    with pytest.raises(GameError, match="corrupt save"):
        function(game_text, save.replace('"seed"', '"sed"'), moves)


def test_undo_takes_back_the_last_move() -> None:
    game = openspiel.load("kuhn-poker")
    state = game.new_initial_state()
    for action in (0, 2, 1):  # jack, king, bet
        state.apply_action(action)
    before = str(state), state.information_state_string(1)
    state.apply_action(1)  # call: the game ends
    assert state.is_terminal()
    state.undo_action(1, 1)
    assert not state.is_terminal() and state.history() == [0, 2, 1] and state.move_number() == 3
    assert (str(state), state.information_state_string(1)) == before
    with pytest.raises(IllegalActionError, match=r"the last move is \(0, 1\)"):
        state.undo_action(1, 0)
    state.apply_action(0)  # fold instead
    assert state.returns() == [1.0, -1.0] and state.history() == [0, 2, 1, 0]


def test_undo_a_simultaneous_step() -> None:
    game = openspiel.load("goofspiel", variants=["four-cards"])
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])  # the point card
    start = str(state)
    state.apply_actions([0, 1])
    state.undo_action(1, 1)  # a joint action given seat by seat is taken back whole
    assert str(state) == start and state.is_simultaneous_node()
    flat = state.legal_actions()[5]
    state.apply_action(flat)
    state.undo_action(pyspiel.PlayerId.SIMULTANEOUS, flat)
    assert str(state) == start


@pytest.mark.parametrize(("name", "options"), SMALL[:3], ids=[n for n, _ in SMALL[:3]])
def test_the_rl_environment_runs_a_game(name: str, options: dict) -> None:
    env = rl_environment.Environment(openspiel.load(name, **options), include_full_state=True)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"]
        if player == pyspiel.PlayerId.SIMULTANEOUS:  # goofspiel: one action per seat
            step = env.step([legal[p][-1] for p in range(env.num_players)])
        else:
            step = env.step([legal[player][0]])
    assert sum(step.rewards) == 0 and step.observations["serialized_state"]


def test_max_game_length_is_the_rules_own() -> None:
    assert openspiel.load("kuhn-poker").max_game_length() == 3
    assert openspiel.load("leduc-poker").max_game_length() == 8
    assert openspiel.load("goofspiel", variants=["four-cards"]).max_game_length() == 4
    assert openspiel.load("tic-tac-toe").max_game_length() == 9


def test_a_game_longer_than_its_max_moves_is_a_rule_error(tmp_path) -> None:
    from conftest import write_toy

    path = write_toy(tmp_path, """
counters:
  n: {scope: global, initial: 0}
actions:
  go: {during: main, effect: "set n to n + 1", ends: turn}
flow: |
  repeat 3:
    turn 0:
      take actions main
scoring: {score: "0"}
max_moves: 2
""")
    state = openspiel.load(str(path)).new_initial_state()
    state.apply_action(0)
    state.apply_action(0)
    with pytest.raises(RuleRuntimeError, match=r"3 decisions, more than the rules' max_moves \(2\)"):
        state.apply_action(0)


def test_bad_options_say_what_is_wrong() -> None:
    with pytest.raises(GameError, match="chance 'maybe' is not one of"):
        openspiel.load("kuhn-poker", chance="maybe")


def test_constants_and_variants_are_game_parameters() -> None:
    openspiel.load("goofspiel")  # registers orrery_goofspiel
    game = pyspiel.load_game("orrery_goofspiel(num_cards=4)")
    params = game.get_parameters()
    assert (params["num_cards"], params["points_order"], params["four_cards"]) == (4, "random", False)
    assert game.max_game_length() == 4 and game.rules.definition.constants["num_cards"] == 4
    theirs = pyspiel.load_game("goofspiel(num_cards=4)")  # the action space is OpenSpiel's own
    assert (game.num_distinct_actions(), game.max_chance_outcomes()) == (theirs.num_distinct_actions(), 4)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    flagged = pyspiel.load_game("orrery_goofspiel(four_cards=True,points_order=descending)")
    assert flagged.rules.definition.variants == ("four-cards",) and flagged.max_game_length() == 4
    assert "prize: 4" in str(flagged.new_initial_state())  # descending: no chance, the highest card first
    again = openspiel.load("goofspiel", parameters={"num_cards": 3})
    assert again.max_game_length() == 3 and again.get_parameters()["num_cards"] == 3


def test_bad_parameters_are_refused_with_what_can_be_set() -> None:
    openspiel.load("goofspiel")
    with pytest.raises(pyspiel.SpielError, match=r"Unknown parameter 'num_card'.*num_cards"):
        pyspiel.load_game("orrery_goofspiel(num_card=4)")
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter num_cards"):
        pyspiel.load_game("orrery_goofspiel(num_cards=many)")
    with pytest.raises(GameError, match="for 2-4 players, not 7"):
        pyspiel.load_game("orrery_goofspiel(players=7)")
    with pytest.raises(GameError, match="no parameter num_card; its parameters: num_cards, points_order"):
        openspiel.load("goofspiel", parameters={"num_card": 4})
    with pytest.raises(RuleFileError, match=r"constant 'num_cards' is a whole number \(the rules give 13\), not '4'"):
        openspiel.load("goofspiel", parameters={"num_cards": "4"})


def test_information_states_through_clones_and_undo_are_the_engines() -> None:
    """The wrapper writes information states from where the last ask ended, reuses the
    last step's view, and records only once asked: every way of reaching a state gives
    the string the engine writes from scratch."""
    import random

    game = openspiel.load("leduc-poker")
    rng = random.Random(4)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if rng.random() < 0.5:
                for p in (0, 1):
                    assert state.information_state_string(p) == state.core.state.information_state_string(p)
            child = state.child(rng.choice(state.legal_actions()))
            if rng.random() < 0.3 and not child.is_terminal():
                last = child.full_history()[-1]
                child.undo_action(last.player, last.action)
                child.apply_action(last.action)
            state = child
        for p in (0, 1):
            assert state.information_state_string(p) == state.core.state.information_state_string(p)


def test_a_constant_holding_text_is_no_parameter_and_the_game_text_loads_again(tmp_path) -> None:
    from conftest import write_toy

    path = write_toy(tmp_path, """
constants:
  note: "ends (or not), when x=1"
  mode: fast
actions:
  go: {during: main, ends: turn}
flow: |
  turn 0:
    take actions main
scoring: {score: "0"}
""")
    game = openspiel.load(str(path))
    assert "note" not in game.get_parameters() and game.get_parameters()["mode"] == "fast"
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    state = game.new_initial_state()
    state.apply_action(0)
    assert pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1].is_terminal()


_ROUNDS_TOY = """
players: {min: 2, max: 3}
constants:
  rounds: 3
counters:
  n: {scope: global, initial: 0}
actions:
  go: {during: main, effect: "set n to n + 1", ends: turn}
  look: {during: peek, effect: "set n to n + 1"}
  ask:
    during: pick
    effect: |
      choose x from [1, 2] by me
      set n to n + x
    ends: turn
flow: |
  repeat rounds:
    for each p in players:
      turn p:
        take actions main
  %s
scoring: {score: "n"}
"""


def test_max_game_length_is_derived_where_the_rules_bound_it(tmp_path) -> None:
    """Without `max_moves`, the flow bounds the decisions: `repeat` a constant, one turn
    per seat, a step whose every action ends the turn; a step whose actions do not end
    the turn (or whose effect asks a choice) bounds nothing, and 10000 is a cap only."""
    from conftest import write_toy

    from interpreter import load_game
    from interpreter.adapters.openspiel import MAX_GAME_LENGTH
    from interpreter.analysis.length import length_bounds

    bounded = str(write_toy(tmp_path, _ROUNDS_TOY % ""))
    assert openspiel.load(bounded).max_game_length() == 6
    assert openspiel.load(bounded, players=3).max_game_length() == 9  # the player count's own
    assert pyspiel.load_game(f"{openspiel.load(bounded)}".replace(")", ",rounds=5)")).max_game_length() == 10
    for step in ("turn 0:\n    take actions peek", "turn 0:\n    take actions pick"):
        assert openspiel.load(str(write_toy(tmp_path, _ROUNDS_TOY % step))).max_game_length() == MAX_GAME_LENGTH
    # the flows of the small games agree with what they declare
    for name, players, declared in (("kuhn-poker", 2, 3), ("rock-paper-scissors", 2, 1), ("goofspiel", 4, 13)):
        rules = load_game(name)
        assert rules.definition.max_moves == declared
        assert rules.max_decisions(players) == declared
        assert length_bounds(rules.definition, rules.raw, players).decisions == declared
    assert openspiel.load("race-to-mars").max_game_length() == MAX_GAME_LENGTH  # no bound: a cap


def test_the_information_state_tensor_is_sized_by_the_rules_bound() -> None:
    """Kuhn poker: at most 3 decisions and 3 cards dealt once (one shuffle): 6 events of
    42 numbers after the 29 of the view now; `max_events` sets another size."""
    game = openspiel.load("kuhn-poker")
    assert game.information_state_tensor_size() == 29 + 6 * 42
    assert openspiel.load("kuhn-poker", max_events=5).information_state_tensor_size() == 29 + 5 * 42
    assert game.get_parameters()["max_events"] == -1  # from the rules


def test_cards_the_constants_leave_out_have_no_ids(tmp_path) -> None:
    """A card no copy of which can exist (setup places none, and its `create` is in a
    branch the constants rule out) is no action id nor tensor slot: the action space
    follows the parameters."""
    from conftest import write_toy

    path = write_toy(tmp_path, """
constants:
  size: 3
zones:
  hand: {scope: player, visible: owner}
  pile: {scope: global, visible: all}
cards:
  a: {name: "a", count: 0}
  b: {name: "b", count: 0}
  c: {name: "c", count: 0}
  d: {name: "d", count: 0}
actions:
  play: {during: main, params: {card: "hand(me)"}, effect: "move card to pile", ends: turn}
setup: |
  for each p in players:
    create 1 "a" in hand(p)
    create 1 "b" in hand(p)
    if size >= 3:
      create 1 "c" in hand(p)
    if size > 3 and size != 0:
      create 1 "d" in hand(p)
flow: |
  turn 0:
    take actions main
scoring: {score: "0"}
""")
    game = openspiel.load(str(path))
    assert game.num_distinct_actions() == 3
    four = pyspiel.load_game(str(game).replace(")", ",size=4)"))
    assert four.num_distinct_actions() == 4 and four.observation_tensor_size() > game.observation_tensor_size()
    assert openspiel.load(str(path), parameters={"size": 2}).num_distinct_actions() == 2


@pytest.mark.parametrize(("name", "options"), [("kuhn-poker", {}), ("goofspiel-drawn", {"variants": ["three-cards"]})])
def test_states_walked_before_any_information_state_is_asked_tell_the_same(name: str, options: dict) -> None:
    """A tree walked first and asked after (`get_all_states`, then a tabular policy) is
    replayed from the states asked before (a kept replay of the longest prefix): every
    information state, asked in any order, is the one recorded as the game went."""
    import random

    from open_spiel.python.algorithms import get_all_states

    def walk(game):
        return get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                             include_chance_states=False, to_string=lambda s: s.history_str())

    late_game = openspiel.load(name, **options)
    late = walk(late_game)
    order = sorted(late)
    random.Random(1).shuffle(order)  # children before parents, too
    players = range(late_game.num_players())
    asked_late = {(h, p): late[h].information_state_string(p) for h in order for p in players}
    early_game = openspiel.load(name, **options)
    early_game.new_initial_state().information_state_string(0)  # from now on its states record as they go
    early = walk(early_game)
    assert set(early) == set(late)
    assert asked_late == {(h, p): early[h].information_state_string(p) for h in order for p in players}
    assert len(set(asked_late.values())) > len(order) // 4  # (they tell states apart)
