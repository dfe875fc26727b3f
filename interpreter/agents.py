"""Built-in agents: the `random` and `first` seats of play, simulate and replay.

An agent picks one of the legal actions of a state. Agents never touch the game's own
random generator (that lives inside the state and belongs to the rules): a random
agent draws from its own `random.Random`, seeded from the game's seed and its seat, so
a seeded game with agent seats is reproducible and one seat's choices do not shift
another's. Each decision draws exactly one number (`randrange(len(legal))`), which lets
a resumed game fast-forward an agent by asking it again at every replayed decision.
Game-defined bots are not agents: they act inside the state (see decisions.py).
"""

from __future__ import annotations

import hashlib
import random
from typing import Protocol

from .decisions import Action
from .diagnostics import GameError
from .state import State

AGENT_KINDS = ("random", "first")


class Agent(Protocol):
    """Anything that picks an action for the player to act in a state."""

    def act(self, state: State) -> Action: ...


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in a game seeded `game_seed` (stable everywhere:
    no Python hash randomisation, same in every process)."""
    digest = hashlib.sha256(f"orrery-agent:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _legal(state: State) -> list[Action]:
    legal = state.legal_actions()
    if not legal:
        raise GameError(f"P{state.current_player() + 1} has to act but has no legal action")
    return legal


class RandomAgent:
    """Picks uniformly among the legal actions, with its own seeded generator."""

    def __init__(self, seed: int):
        self.seed = seed
        self._rng = random.Random(seed)

    def act(self, state: State) -> Action:
        legal = _legal(state)
        return legal[self._rng.randrange(len(legal))]


class FirstAgent:
    """Always plays the first legal action (legal actions come in a stable order)."""

    def act(self, state: State) -> Action:
        return _legal(state)[0]


def make_agent(kind: str, seed: int, seat: int) -> Agent:
    """The agent of kind `random` or `first` for `seat` in a game seeded `seed`."""
    if kind == "random":
        return RandomAgent(agent_seed(seed, seat))
    if kind == "first":
        return FirstAgent()
    raise ValueError(f"unknown agent kind {kind!r}; expected one of {', '.join(AGENT_KINDS)}")
