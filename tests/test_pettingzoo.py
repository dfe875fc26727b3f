"""The PettingZoo adapter (interpreter/adapters/pettingzoo.py): PettingZoo's own API
test on every example, bundled game and overlay, whole games played by action masks,
seeds, and bad input. Skipped when PettingZoo is not installed
(`pip install 'orrery[pettingzoo]'`)."""

from __future__ import annotations

import pathlib
import warnings

import pytest
from conftest import events
from test_conformance import GAMES, OVERLAYS, _base_of, _id, _variants

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install 'orrery[pettingzoo]'")
np = pytest.importorskip("numpy")

from pettingzoo.test import api_test  # noqa: E402

from interpreter import IllegalActionError, load_game, pettingzoo  # noqa: E402


def _api_test(environment: pettingzoo.OrreryEnv) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about the tensor's unbounded values (counters have no bound)
        warnings.simplefilter("ignore")
        api_test(environment, num_cycles=60)


@pytest.mark.parametrize("path", GAMES, ids=_id)
def test_every_game_passes_the_api_test(path: pathlib.Path) -> None:
    game = load_game(str(path))
    for n in sorted({game.definition.min_players, game.definition.max_players}):
        _api_test(pettingzoo.env(game, num_players=n, seed=3))


@pytest.mark.parametrize("overlay", OVERLAYS, ids=_id)
def test_every_overlay_passes_the_api_test(overlay: pathlib.Path) -> None:
    _api_test(pettingzoo.env(str(_base_of(overlay)), overlays=[str(overlay)], seed=3))


@pytest.mark.parametrize(("path", "variant"), _variants(), ids=lambda v: v if isinstance(v, str) else _id(v))
def test_every_variant_passes_the_api_test(path: pathlib.Path, variant: str) -> None:
    _api_test(pettingzoo.env(str(path), variants=[variant], seed=3))


def _play(environment: pettingzoo.OrreryEnv, rng: np.random.RandomState) -> dict[str, float]:
    """A whole game by the masks; returns each agent's reward at its end."""
    final: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        if terminated or truncated:
            final[agent] = reward
            environment.step(None)
            continue
        assert agent == f"player_{environment.state.current_player()}" and isinstance(observation, np.ndarray)
        legal = np.flatnonzero(info["action_mask"])
        environment.step(int(rng.choice(legal)))
    return final


def test_a_whole_game_ends_with_the_returns_as_rewards() -> None:
    environment = pettingzoo.env("kuhn-poker", seed=11)
    rng = np.random.RandomState(0)
    for _ in range(5):
        environment.reset()
        final = _play(environment, rng)
        returns = environment.state.returns()
        assert final == {"player_0": returns[0], "player_1": returns[1]}
        assert environment.agents == [] and sum(returns) == 0


def test_spaces_are_the_games_integer_actions_and_tensor() -> None:
    environment = pettingzoo.env("star-market", num_players=3)
    game = environment.rules
    assert environment.possible_agents == ["player_0", "player_1", "player_2"]
    assert environment.action_space("player_1").n == game.num_distinct_actions(3)
    assert environment.observation_space("player_2").shape == tuple(game.observation_tensor_shape(3))
    seen = environment.observe("player_1")
    assert isinstance(seen, np.ndarray) and seen.dtype == np.float32
    assert environment.infos["player_1"]["action_mask"].sum() == 0  # P1 is to act, not P2
    assert list(np.flatnonzero(environment.infos["player_0"]["action_mask"])) == environment.state.legal_action_ids()
    boxed = pettingzoo.env("star-market", num_players=3, observation_type="dict")
    space = boxed.observation_space("player_2")
    assert space["observation"].shape == tuple(game.observation_tensor_shape(3))
    seen = boxed.observe("player_1")
    assert seen["observation"].dtype == np.float32 and seen["action_mask"].dtype == np.int8
    assert seen["action_mask"].sum() == 0
    mine = boxed.observe("player_0")
    assert list(np.flatnonzero(mine["action_mask"])) == boxed.state.legal_action_ids()
    with pytest.raises(ValueError, match="observation_type 'tuple' is not one of array, dict"):
        pettingzoo.env("star-market", observation_type="tuple")


def test_seeds_start_the_same_game_again() -> None:
    environment = pettingzoo.env("star-market", seed=5)
    assert environment.state.seed == 5
    environment.reset()
    assert environment.state.seed == 6
    environment.reset(seed=5)
    first = environment.state.to_json()
    environment.step(np.int64(environment.state.legal_action_ids()[0]))  # numpy integers are actions too
    environment.reset(seed=5)
    assert environment.state.to_json() == first


def test_bad_actions_raise_and_change_nothing() -> None:
    environment = pettingzoo.env("tic-tac-toe")
    environment.step(4)
    before = environment.state.to_json()
    for wrong, message in ((4, r"action 4 \(place 4\) is not legal now"),
                           (9, "outside Tic-tac-toe's action space"),
                           (None, "None is an action only once the game is over"),
                           ("place 0", "an action is an integer"), (2.5, "an action is an integer")):
        with pytest.raises(IllegalActionError, match=message):
            environment.step(wrong)
    assert environment.state.to_json() == before and environment.agent_selection == "player_1"
    assert environment.rewards == {"player_0": 0.0, "player_1": 0.0}


def test_information_states_and_rendering() -> None:
    environment = pettingzoo.env("kuhn-poker", seed=2, render_mode="ansi")
    environment.step(1)  # P1 bets
    assert events(environment.information_state_string("player_1"))[-1] == "P1: bet"
    assert environment.information_state_string("player_1") == environment.state.information_state_string(1)
    assert environment.render().startswith("Kuhn poker")
    with pytest.raises(ValueError, match="render_mode 'rgb_array' is not one of"):
        pettingzoo.env("kuhn-poker", render_mode="rgb_array")
