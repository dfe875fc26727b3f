"""OpenSpiel's own information-set algorithms on orrery games: the adapter's
`resample_from_infostate` (what `ISMCTSBot` samples worlds with) keeps the player's
information state, and `ISMCTSBot` plays Kuhn and Leduc poker through it."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interpreter import openspiel  # noqa: E402


def _random_states(game, count: int, seed: int) -> list:
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        st = game.new_initial_state()
        while not st.is_terminal():
            if not st.is_chance_node() and rng.random() < 0.5:
                states.append(st.clone())
            if st.is_chance_node():
                outcomes, odds = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(rng.choices(outcomes, odds)[0])
            else:
                st.apply_action(rng.choice(st.legal_actions()))
    return states


@pytest.mark.parametrize("name", ["kuhn-poker", "leduc-poker", "goofspiel-drawn"])
def test_a_resampled_state_keeps_the_information_state(name: str) -> None:
    game = openspiel.load(name, variants=["three-cards"] if name == "goofspiel-drawn" else [])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = 0
    for st in _random_states(game, 12, 3):
        for p in range(game.num_players()):
            world = st.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == st.information_state_string(p)
            assert world.observation_string(p) == st.observation_string(p)
            assert world.legal_actions(p) == st.legal_actions(p)
            differed += str(world) != str(st)
            while not world.is_terminal():  # play goes on from it
                if world.is_chance_node():
                    world.apply_action(world.chance_outcomes()[0][0])
                elif world.is_simultaneous_node():
                    world.apply_actions([world.legal_actions(q)[0] for q in range(game.num_players())])
                else:
                    world.apply_action(world.legal_actions()[0])
    if name != "goofspiel-drawn":  # (its only hidden thing is the future)
        assert differed > 0


def test_bad_players_are_refused() -> None:
    state = openspiel.load("kuhn-poker").new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    for bad in (2, -1, "0"):
        with pytest.raises(ValueError, match="no player"):
            state.resample_from_infostate(bad, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def _bot(game, seed: int, simulations: int):
    rng = np.random.RandomState(seed)
    return ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(2, rng), uct_c=2.0,
                            max_simulations=simulations, random_state=rng)


def test_openspiel_ismcts_bot_calls_with_the_king_and_folds_the_jack() -> None:
    """Kuhn poker, P1 bets: P2 holding the King calls, holding the Jack folds, whatever P1
    holds (it cannot know) — OpenSpiel's ISMCTSBot deciding over our resampled worlds."""
    game = openspiel.load("kuhn-poker")
    for mine, answer in ((2, "bet"), (0, "pass")):
        for theirs in {0, 1, 2} - {mine}:
            for seed in range(2):
                st = game.new_initial_state()
                st.apply_action(theirs)  # P1's card
                st.apply_action(mine)  # P2's card
                st.apply_action(1)  # P1 bets
                assert st.action_to_string(_bot(game, seed, 200).step(st)) == answer


@pytest.mark.parametrize("name", ["kuhn-poker", "leduc-poker"])
def test_openspiel_ismcts_bot_plays_whole_games(name: str) -> None:
    game = openspiel.load(name)
    rng = np.random.RandomState(7)
    bot = _bot(game, 7, 40)
    for g in range(8):
        seat = g % 2
        st = game.new_initial_state()
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes, odds = zip(*st.chance_outcomes(), strict=True)
                st.apply_action(int(rng.choice(outcomes, p=odds)))
            elif st.current_player() == seat:
                action = bot.step(st)
                assert action in st.legal_actions()
                st.apply_action(action)
            else:
                st.apply_action(int(rng.choice(st.legal_actions())))
        assert sum(st.returns()) == 0
