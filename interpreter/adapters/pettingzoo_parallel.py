"""Any orrery game as a PettingZoo parallel environment:
`interpreter.pettingzoo.parallel_env("goofspiel", seed=7)`. See docs/pettingzoo.md.

Made for games with simultaneous steps (`take actions GROUP simultaneously`), where
every seat to pick gives its action in one `step`, and the step is carried out when all
are given; a game may mix them with ordinary decisions, where `step` needs the action of
the one agent to act. The action of an agent with nothing to pick now (its mask is all
0) is ignored, whatever it is, and may be left out; the action of an agent that must
pick is required, and an illegal one raises IllegalActionError before anything is
applied. Spaces, seeds and rewards are the AEC environment's (adapters/pettingzoo.py):
observations are NumPy arrays with the masks in `infos[agent]["action_mask"]`, or with
`observation_type="dict"` a Dict of `observation` and `action_mask`. Random events are
drawn by the engine from the game's seed. When the game ends every agent gets its return
as reward and is terminated, and `agents` is emptied.
"""

from __future__ import annotations

import operator
from typing import Any

try:
    import gymnasium
    from pettingzoo import ParallelEnv
except ImportError as err:  # pragma: no cover - depends on what is installed
    raise ImportError(f"the PettingZoo adapter needs pettingzoo, gymnasium and numpy ({err}); "
                      "install them with: pip install 'orrery[pettingzoo]'") from None

from interpreter.adapters.pettingzoo import mask_of, observation_of, observation_spaces
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


def parallel_env(game: str | Game, num_players: int | None = None, seed: int | None = None,
                 variants: list[str] | tuple[str, ...] = (), overlays: list[str] | tuple[str, ...] = (),
                 render_mode: str | None = None, observation_type: str = "array") -> OrreryParallelEnv:
    """A parallel environment of an orrery game (an id, a path, or a loaded Game)."""
    rules = game if isinstance(game, Game) else load_game(game, variants=list(variants), overlays=list(overlays))
    return OrreryParallelEnv(rules, num_players, seed, render_mode, observation_type)


class OrreryParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A PettingZoo parallel environment over orrery states (`.state` is the orrery State)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "orrery_v0",  # noqa: RUF012 - PettingZoo's shape
                "is_parallelizable": True}

    def __init__(self, rules: Game, num_players: int | None = None, seed: int | None = None,
                 render_mode: str | None = None, observation_type: str = "array"):
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
        self.observation_spaces = observation_spaces(rules, self.num_players, self.possible_agents, observation_type)
        self._next_seed = 0 if seed is None else int(seed)
        self.state: State = self._new_game(None)
        self.steps: Steps = open_steps(self.state, rules.action_space(self.num_players))

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None) -> State:
        if seed is None:
            seed = self._next_seed
        self._next_seed = int(seed) + 1
        return self.rules.new_initial_state(self.num_players, seed=int(seed))

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, Any],
                                                                                               dict[str, Any]]:
        self.state = self._new_game(seed)
        self.steps = open_steps(self.state, self.rules.action_space(self.num_players))
        self.agents = self.possible_agents[:]
        observations, infos = self._observe(), self._infos()
        if self.state.is_terminal():  # a game over before anyone acts
            self.agents = []
        return observations, infos

    def to_act(self) -> list[str]:
        """The agents whose action the next `step` needs."""
        return [a for a in self.agents if self.state.pending_for(self._seat[a])]

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], dict[str, float], dict[str, bool],
                                                      dict[str, bool], dict[str, Any]]:
        st = self.state
        if st.is_terminal():
            raise IllegalActionError("the game is over: reset() starts the next one")
        space = self.rules.action_space(self.num_players)
        picks = []
        for agent in self.to_act():  # all checked before any is applied
            if actions.get(agent) is None:
                raise IllegalActionError(f"{agent} is to act: its action is missing")
            try:
                a = operator.index(actions[agent])
            except TypeError:
                raise IllegalActionError(f"an action is an integer in 0..{space.size - 1}, "
                                         f"not {actions[agent]!r}") from None
            picks.append((self._seat[agent], action_of_id(st, space, a, self._seat[agent])))
        for player, chosen in picks:
            pending = begin_step(st, chosen, space, player)
            st.apply_action(chosen, player)
            record_step(self.steps, pending, st)
        observations, infos = self._observe(), self._infos()
        over = st.is_terminal()
        values = st.returns() if over else [0.0] * self.num_players
        rewards = {a: float(values[self._seat[a]]) for a in self.agents}
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observe(self) -> dict[str, Any]:
        return {a: observation_of(self.state, self._seat[a], self.observation_type) for a in self.agents}

    def _infos(self) -> dict[str, Any]:
        return {a: {"action_mask": mask_of(self.state, self._seat[a])} for a in self.agents}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode ('human' or 'ansi')")
            return None
        if self.render_mode == "ansi":
            return str(self.state)
        print(self.state)
        return None

    def close(self) -> None:
        pass

    def information_state_string(self, agent: str) -> str:
        """The agent's view and its history of the game (docs/learning.md)."""
        return information_state_string(self.state, self._seat[agent], self.steps,
                                        self.rules.action_space(self.num_players))
