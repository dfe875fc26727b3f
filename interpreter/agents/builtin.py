"""The built-in agents: `random` and `first`.

Agents never touch the game's own random generator (that lives inside the state and
belongs to the rules): a random agent draws from its own `random.Random`, seeded from
the game's seed and its seat, so a seeded game with agent seats is reproducible and one
seat's choices do not shift another's. Each of its decisions draws exactly one number,
so when it is informed of its own past move (a resumed game) it draws that number
and goes on exactly where it would have been.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING

from interpreter.agents.protocol import BaseAgent
from interpreter.diagnostics import GameError

if TYPE_CHECKING:
    from interpreter.runtime.actions import Action
    from interpreter.runtime.state import State


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in a game seeded `game_seed` (stable everywhere:
    no Python hash randomisation, same in every process)."""
    digest = hashlib.sha256(f"orrery-agent:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def legal_or_fail(state: State, player: int | None = None) -> list[Action]:
    """The legal actions of `player` (default: the one asked now; in a simultaneous
    step, the first seat still to pick)."""
    legal = state.legal_actions(player)
    if not legal:
        who = player if player is not None else state.player_asked()
        raise GameError(f"P{who + 1} has to act but has no legal action")
    return legal


class RandomAgent(BaseAgent):
    """Picks uniformly among the legal actions, with its own seeded generator."""

    def __init__(self, seed: int, seat: int | None = None):
        self.seed = seed
        self.seat = seat
        self._rng = random.Random(seed)

    def step(self, state: State) -> Action:
        legal = legal_or_fail(state)
        return legal[self._rng.randrange(len(legal))]

    def inform_action(self, state: State, player: int, action: Action | str) -> None:
        # Its own move made without asking it (a resumed game): draw as it would have.
        if player == self.seat:
            self._rng.randrange(len(legal_or_fail(state, player)))

    def restart(self) -> None:
        self._rng = random.Random(self.seed)


class FirstAgent(BaseAgent):
    """Always plays the first legal action (legal actions come in a stable order)."""

    def step(self, state: State) -> Action:
        return legal_or_fail(state)[0]
