"""Explicit chance through the OpenSpiel adapter: orrery's Kuhn poker against
OpenSpiel's own C++ `kuhn_poker`. CFR reaches the same exploitability after the same
iterations; random games run in lockstep (the same deal forced on both, the same
legal actions in the same order at every step, the same returns). Goofspiel, whose
point cards are turned up from a shuffled pile between simultaneous bids, runs in
lockstep with OpenSpiel's `goofspiel` chance node for chance node. Skipped when
OpenSpiel is not installed.
"""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")
np = pytest.importorskip("numpy")

import pathlib  # noqa: E402
import random  # noqa: E402

from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from interpreter import GameError, IllegalActionError, load_game, openspiel  # noqa: E402
from interpreter.adapters.openspiel import default_chance  # noqa: E402

# OpenSpiel's texts of Kuhn poker's moves -> orrery's
KUHN_TEXTS = {"Deal:0": "deal jack", "Deal:1": "deal queen", "Deal:2": "deal king", "Pass": "pass", "Bet": "bet"}


def ours_and_theirs():
    return openspiel.load("kuhn-poker", utility="zero_sum", min_utility=-2, max_utility=2), pyspiel.load_game(
        "kuhn_poker")


def test_kuhn_poker_is_explicitly_stochastic_like_openspiels():
    ours, theirs = ours_and_theirs()
    explicit = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert ours.get_type().chance_mode == theirs.get_type().chance_mode == explicit
    assert ours.max_chance_outcomes() == theirs.max_chance_outcomes() == 3
    assert ours.num_distinct_actions() == theirs.num_distinct_actions() == 2


def test_cfr_reaches_openspiels_exploitability():
    found = []
    for game in ours_and_theirs():
        solver = cfr.CFRSolver(game)
        for _ in range(100):
            solver.evaluate_and_update_policy()
        found.append(exploitability.exploitability(game, solver.average_policy()))
    assert found[0] == pytest.approx(found[1], abs=1e-12) and 0 < found[0] < 0.02


def test_a_uniform_policy_is_as_exploitable_as_in_openspiel():
    values = [exploitability.exploitability(game, policy.UniformRandomPolicy(game)) for game in ours_and_theirs()]
    assert values[0] == pytest.approx(values[1], abs=1e-12) and values[0] > 0.4


def test_random_games_run_in_lockstep_with_openspiels_kuhn_poker():
    ours, theirs = ours_and_theirs()
    rng = np.random.RandomState(11)
    deals = set()
    for _ in range(60):
        mine, other = ours.new_initial_state(), theirs.new_initial_state()
        while not other.is_terminal():
            assert not mine.is_terminal() and mine.current_player() == other.current_player()
            player = other.current_player()
            legal = other.legal_actions()
            assert [mine.action_to_string(player, a) for a in mine.legal_actions()] == [
                KUHN_TEXTS[other.action_to_string(player, a)] for a in legal]
            if other.is_chance_node():
                assert [a for a, _ in mine.chance_outcomes()] == [a for a, _ in other.chance_outcomes()]
                assert [p for _, p in mine.chance_outcomes()] == pytest.approx([p for _, p in other.chance_outcomes()])
                outcomes, odds = zip(*other.chance_outcomes(), strict=True)
                action = int(rng.choice(outcomes, p=odds))  # forced on both: the same deal
            else:
                action = int(rng.choice(legal))
            text = KUHN_TEXTS[other.action_to_string(player, action)]
            mine.apply_action(next(a for a in mine.legal_actions() if mine.action_to_string(player, a) == text))
            other.apply_action(action)
        assert mine.is_terminal() and mine.returns() == other.returns()
        deals.add(tuple(mine.history()[:2]))
    assert len(deals) == 6  # every deal came up


def test_a_chance_id_not_offered_is_refused_and_changes_nothing():
    ours, _ = ours_and_theirs()
    state = ours.new_initial_state()
    state.apply_action(1)  # the queen to P1
    before = str(state)
    with pytest.raises(IllegalActionError, match=r"chance id 1 \(deal queen\) is not an outcome now"):
        state.apply_action(1)
    assert str(state) == before and state.history() == [1]


def test_chance_can_still_be_sampled_by_the_engine():
    game = openspiel.load("kuhn-poker", chance="sampled")
    state = game.new_initial_state()
    assert state.current_player() == 0 and game.max_chance_outcomes() == 0
    with pytest.raises(GameError, match="chance 'often' is not one of explicit, sampled"):
        openspiel.load("kuhn-poker", chance="often")


_RANDOM_TOY = """
constants:
  kinds: [a, b]
counters:
  n: {scope: global, initial: 2}
  hand: {scope: player, keys: [a, b], initial: 1, min: 0, max: 5}
  got: {scope: global, initial: 0}
actions:
  go: {during: main, effect: "set got to random(1, %s)", ends: turn}
flow: |
  turn 0:
    take actions main
scoring: {score: "got"}
"""


def test_a_game_whose_outcomes_cannot_all_be_numbered_is_sampled(tmp_path):
    from conftest import write_toy

    # random(1, n): n is counted in play, with no bound the rules give
    rules = load_game(str(write_toy(tmp_path, _RANDOM_TOY % "n + 1")))
    assert not rules.action_space(2).chance_complete and default_chance(rules, 2) == "sampled"
    game = openspiel.load(rules)
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert game.new_initial_state().current_player() >= 0


def test_a_random_bounded_by_a_sum_of_bounded_counters_is_numbered(tmp_path):
    from conftest import write_toy

    # a sum over a constant list of counters that declare max 5: 1..10 (For All Mankind
    # steals a random Resource Card this way: its chance ids are numbered, not sampled)
    rules = load_game(str(write_toy(tmp_path, _RANDOM_TOY % "sum([hand(0)[k] for k in kinds])")))
    assert rules.action_space(2).chance_complete and rules.max_chance_outcomes(2) == 10
    game = openspiel.load(rules)
    state = game.new_initial_state()
    state.apply_action(0)
    assert state.is_chance_node() and [a for a, _ in state.chance_outcomes()] == [0, 1]  # random(1, 2)
    fam = load_game("for-all-mankind")
    assert default_chance(fam, 4) == "explicit"


def test_goofspiel_point_cards_are_openspiels_chance_nodes():
    ours = openspiel.load(str(pathlib.Path(__file__).resolve().parent.parent / "examples" / "goofspiel"))
    theirs = pyspiel.load_game("goofspiel")  # 13 cards, random order of the point cards
    assert ours.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    rng = random.Random(4)
    for _ in range(4):
        mine, other = ours.new_initial_state(), theirs.new_initial_state()
        deals = 0
        while not other.is_terminal():
            assert mine.current_player() == other.current_player()
            if other.is_chance_node():  # which point card is turned up: ids are its value - 1 in both
                assert [a for a, _ in mine.chance_outcomes()] == [a for a, _ in other.chance_outcomes()]
                assert [p for _, p in mine.chance_outcomes()] == pytest.approx([p for _, p in other.chance_outcomes()])
                card = rng.choice(other.legal_actions())
                mine.apply_action(card)
                other.apply_action(card)
                deals += 1
                continue
            legal = [other.legal_actions(p) for p in range(2)]
            assert [mine.legal_actions(p) for p in range(2)] == legal
            joint = [rng.choice(actions) for actions in legal]
            mine.apply_actions(joint)
            other.apply_actions(joint)
        assert mine.is_terminal() and mine.returns() == pytest.approx(other.returns())
        assert deals == 12  # the last point card is what is left: no chance node in either
