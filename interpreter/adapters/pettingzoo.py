"""Any orrery game as a PettingZoo AEC environment:
`interpreter.pettingzoo.env("star-market", num_players=3, seed=7)`. See
docs/pettingzoo.md.

Agents are `player_0` .. `player_{N-1}` (seat P1 is `player_0`). The agent to act is
the seat the game waits for, so one agent may act several times in a row. In a
simultaneous step the seats still to pick act in turn, as PettingZoo's own
parallel-to-AEC wrapper has them: each sees only its own decision (the others' picks
stay secret), and the step is carried out once the last has acted. Spaces:

* action space: `Discrete(num_distinct_actions)`, the game's integer actions
  (docs/learning.md); an action that is not legal raises IllegalActionError and
  changes nothing;
* observation space: a NumPy array, the observation tensor (float32, of the game's
  fixed shape); the action mask (int8, 1 for each legal action of that agent, all 0
  when another agent is to act) is `infos[agent]["action_mask"]`. With
  `observation_type="dict"`, a `Dict` of `observation` and `action_mask` instead, as
  PettingZoo's classic games have (tools that read masks from observations only, as
  PettingZoo's `parallel_api_test`, want it).

Rewards come at the end: each agent gets its `returns()`; every agent is then
terminated. Seeds: `reset(seed=s)` starts game `s`; `reset()` starts the next game
after the last one (the first is the `seed` given to `env`, default 0).
"""

from __future__ import annotations

import operator
from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as err:  # pragma: no cover - depends on what is installed
    raise ImportError(f"the PettingZoo adapter needs pettingzoo, gymnasium and numpy ({err}); "
                      "install them with: pip install 'orrery[pettingzoo]'") from None

from interpreter.diagnostics import IllegalActionError
from interpreter.game import Game, load_game
from interpreter.runtime.learning import (
    Steps,
    action_of_id,
    begin_step,
    information_state_string,
    open_steps,
    record_step,
)
from interpreter.runtime.state import State

OBSERVATION_TYPES = ("array", "dict")


def env(game: str | Game, num_players: int | None = None, seed: int | None = None,
        variants: list[str] | tuple[str, ...] = (), overlays: list[str] | tuple[str, ...] = (),
        render_mode: str | None = None, observation_type: str = "array") -> OrreryEnv:
    """An AEC environment of an orrery game (an id, a path, or a loaded Game)."""
    rules = game if isinstance(game, Game) else load_game(game, variants=list(variants), overlays=list(overlays))
    return OrreryEnv(rules, num_players, seed, render_mode, observation_type)


def observation_spaces(rules: Game, num_players: int, agents: list[str], observation_type: str) -> dict[str, Any]:
    """Each agent's observation space: the tensor's Box, or a Dict of it and the mask."""
    if observation_type not in OBSERVATION_TYPES:
        raise ValueError(f"observation_type '{observation_type}' is not one of {', '.join(OBSERVATION_TYPES)}")
    size = rules.num_distinct_actions(num_players)
    shape = tuple(rules.observation_tensor_shape(num_players))

    def one() -> Any:
        box = gymnasium.spaces.Box(low=-np.inf, high=np.inf, shape=shape, dtype=np.float32)
        if observation_type == "array":
            return box
        return gymnasium.spaces.Dict({
            "observation": box, "action_mask": gymnasium.spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8)})

    return {a: one() for a in agents}


def observation_of(st: State, player: int, observation_type: str) -> Any:
    """The agent's observation: the tensor, or with "dict" the tensor and the mask."""
    tensor = np.asarray(st.observation_tensor(player), dtype=np.float32)
    if observation_type == "array":
        return tensor
    return {"observation": tensor, "action_mask": mask_of(st, player)}


def mask_of(st: State, player: int) -> Any:
    return np.asarray(st.legal_actions_mask(player), dtype=np.int8)


class OrreryEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment over orrery states (`.state` is the orrery State)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "orrery_v0",  # noqa: RUF012 - PettingZoo's shape
                "is_parallelizable": False}

    def __init__(self, rules: Game, num_players: int | None = None, seed: int | None = None,
                 render_mode: str | None = None, observation_type: str = "array"):
        super().__init__()
        modes = ("human", "ansi")
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode '{render_mode}' is not one of {', '.join(modes)}")
        self.rules = rules
        self.num_players = rules.definition.default_players if num_players is None else num_players
        size = rules.num_distinct_actions(self.num_players)  # checks the count and the numbering
        self.observation_type = observation_type
        self.metadata = {**self.metadata, "name": f"orrery_{rules.id}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.num_players)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = observation_spaces(rules, self.num_players, self.possible_agents,
                                                     observation_type)
        self._next_seed = 0 if seed is None else int(seed)
        self.state: State = self._new_game(None)
        self.steps: Steps = open_steps(self.state, rules.action_space(self.num_players))
        self._reset_bookkeeping()

    # ---- spaces -------------------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # ---- the AEC loop -------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state = self._new_game(seed)
        self.steps = open_steps(self.state, self.rules.action_space(self.num_players))
        self._reset_bookkeeping()

    def _new_game(self, seed: int | None) -> State:
        if seed is None:
            seed = self._next_seed
        self._next_seed = int(seed) + 1
        return self.rules.new_initial_state(self.num_players, seed=int(seed))

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select_current()
        if self.state.is_terminal():  # a game over before anyone acts
            self._finish()
        self._refresh_masks()

    def _select_current(self) -> None:
        player = self.state.player_asked()  # a simultaneous step: the first seat still to pick
        if 0 <= player < self.num_players:
            self.agent_selection = self.possible_agents[player]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0] if self.agents else self.possible_agents[0]

    def observe(self, agent: str) -> Any:
        return observation_of(self.state, self._seat[agent], self.observation_type)

    def _refresh_masks(self) -> None:
        """Each agent's action mask in its info (all 0 once the game is over)."""
        for agent in self.agents:
            self.infos[agent]["action_mask"] = mask_of(self.state, self._seat[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to act: None is an action only once the game is over")
        try:
            a = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"an action is an integer in 0..{self.action_spaces[agent].n - 1}, "
                                     f"not {action!r}") from None
        st = self.state
        space = self.rules.action_space(self.num_players)
        player = self._seat[agent]
        chosen = action_of_id(st, space, a, player)  # raises, changing nothing, when not legal
        pending = begin_step(st, chosen, space, player)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        st.apply_action(chosen, player)
        record_step(self.steps, pending, st)
        if st.is_terminal():
            self._finish()
        else:
            self._select_current()
        self._refresh_masks()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        for agent, value in zip(self.possible_agents, self.state.returns(), strict=True):
            if agent in self.rewards:
                self.rewards[agent] = float(value)
        self.terminations = dict.fromkeys(self.agents, True)

    # ---- for people and for learning code -------------------------------------------------

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode ('human' or 'ansi')")
            return None
        text = str(self.state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass

    def information_state_string(self, agent: str) -> str:
        """The agent's view and its history of the game (docs/learning.md)."""
        return information_state_string(self.state, self._seat[agent], self.steps,
                                        self.rules.action_space(self.num_players))
