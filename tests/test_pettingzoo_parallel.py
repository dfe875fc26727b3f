"""The PettingZoo parallel environment (interpreter/adapters/pettingzoo_parallel.py):
PettingZoo's `parallel_api_test` on the bundled games with simultaneous steps (and on
one without, where one agent acts per step), whole games with every seat's pick in one
step, and bad input refused before anything is applied. Skipped without PettingZoo."""

from __future__ import annotations

import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'orrery[pettingzoo]'")

from pettingzoo.test import parallel_api_test  # noqa: E402

from interpreter import IllegalActionError, pettingzoo  # noqa: E402

GAMES = [("goofspiel", {"variants": ["four-cards"]}), ("goofspiel-drawn", {"variants": ["four-cards"]}),
         ("rock-paper-scissors", {}), ("kuhn-poker", {})]  # every bundled game with simultaneous steps, and one without


@pytest.mark.parametrize(("name", "options"), GAMES, ids=[n for n, _ in GAMES])
def test_parallel_api_test(name: str, options: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the tensor's unbounded values
        parallel_api_test(pettingzoo.parallel_env(name, seed=1, observation_type="dict", **options), num_cycles=60)


def test_a_whole_simultaneous_game_one_step_per_round() -> None:
    environment = pettingzoo.parallel_env("goofspiel", variants=["four-cards"], seed=4)
    observations, infos = environment.reset()
    assert isinstance(observations["player_0"], np.ndarray) and environment.metadata["is_parallelizable"]
    rng = np.random.RandomState(0)
    steps = 0
    while environment.agents:
        assert environment.to_act() == ["player_0", "player_1"]  # every step is both seats at once
        actions = {a: int(rng.choice(np.flatnonzero(infos[a]["action_mask"]))) for a in environment.agents}
        observations, rewards, terminations, truncations, infos = environment.step(actions)
        steps += 1
    returns = environment.state.returns()
    assert steps == 3 and all(terminations.values()) and not any(truncations.values())
    assert rewards == {"player_0": returns[0], "player_1": returns[1]} and sum(returns) == 0
    assert environment.information_state_string("player_0") == environment.state.information_state_string(0)


def test_bad_actions_are_refused_before_any_is_applied() -> None:
    environment = pettingzoo.parallel_env("rock-paper-scissors", seed=2)
    environment.reset()
    before = environment.state.to_json()
    for actions, message in (({"player_0": 0}, "player_1 is to act: its action is missing"),
                             ({"player_0": 0, "player_1": 99}, "outside"),
                             ({"player_0": 0, "player_1": "rock"}, "an action is an integer")):
        with pytest.raises(IllegalActionError, match=message):
            environment.step(actions)
        assert environment.state.to_json() == before
    environment.step({"player_0": 0, "player_1": 0})
    assert environment.agents == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        environment.step({})
