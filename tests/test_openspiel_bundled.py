"""OpenSpiel's own checks on every bundled game (#33): `pyspiel.random_sim_test` with
serialization (clone, serialize and deserialize, information states and tensors, the
utility bounds, `max_game_length`) and the RL environment (`rl_environment.Environment`,
with the serialized state on each step), each for one random game.

The big games are long when played at random (a game of Race to Mars or For All
Mankind through `random_sim_test` costs 15-50 CPU seconds, most of it writing
information states), so each is played with the game parameters that make it short
(the round cap, fewer ships, fewer Space cards): the same rules and code paths, less
play. Their full-length games pass too (docs/openspiel.md)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")

from open_spiel.python import rl_environment  # noqa: E402
from test_conformance import GAMES, _id  # noqa: E402

from interpreter import openspiel  # noqa: E402
from interpreter.adapters.openspiel import MAX_GAME_LENGTH  # noqa: E402
from interpreter.diagnostics import GameError  # noqa: E402
from interpreter.rules.yamlload import load_yaml  # noqa: E402

# Game parameters (constants) that make a random game short, by game id.
SHORT = {
    "goofspiel": {"num_cards": 4},
    "race-to-mars": {"trajectory_cards": 4, "stall_bound": 3},
    "rocketmen": {"round_cap": 3},
    "for-all-mankind": {"ships_per_player": 2},
}
RL_STEPS = 40  # steps of the RL environment: a small game's whole, a big one's start


def _game_id(path) -> str:
    return load_yaml(path)[0]["id"]


@pytest.mark.parametrize("path", GAMES, ids=_id)
def test_openspiel_checks_and_rl_environment_on_every_bundled_game(path) -> None:
    game = openspiel.load(str(path), parameters=SHORT.get(_game_id(path), {}))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    env = rl_environment.Environment(game, include_full_state=True)
    rng = random.Random(1)
    step = env.reset()
    for _ in range(RL_STEPS):
        if step.last():
            break
        player = step.observations["current_player"]
        legal = step.observations["legal_actions"]
        if player == pyspiel.PlayerId.SIMULTANEOUS:
            step = env.step([rng.choice(legal[p]) if legal[p] else 0 for p in range(env.num_players)])
        else:
            step = env.step([rng.choice(legal[player])])
    assert step.observations["serialized_state"]
    if step.last():
        assert all(game.min_utility() <= r <= game.max_utility() for r in step.rewards)


def test_the_expansion_overlay_passes_too() -> None:
    game = openspiel.load("rocketmen", overlays=["target-jupiter"], parameters=SHORT["rocketmen"])
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_a_game_whose_rules_bound_no_length_has_no_information_state_tensor() -> None:
    """Its events are not bounded, so no tensor size is honest: the GameType says it
    provides none (pyspiel's checks and the RL environment then use the observation
    tensor), a Python caller asking is told why, and `max_events` gives one."""
    game = openspiel.load("star-market")
    assert game.max_game_length() == MAX_GAME_LENGTH  # a cap only: the rules bound none
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    assert state.information_state_string(0)  # the string is there
    with pytest.raises(GameError, match=r"the rules bound no number of events.*max_events=N"):
        state.information_state_tensor(0)
    capped = openspiel.load("star-market", max_events=3)
    assert capped.get_type().provides_information_state_tensor
    assert len(capped.new_initial_state().information_state_tensor(0)) == capped.information_state_tensor_size()
