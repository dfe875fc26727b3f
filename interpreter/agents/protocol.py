"""The agent protocol: what every seat that decides outside the state implements.

Shaped after OpenSpiel's Bot: `step(state)` returns the action for the player to move;
`inform_action(state, player, action)` tells the agent about a move made at a decision
it was not asked about (another seat's move, or its own move when a game is resumed
from a log, so a resumed agent continues exactly as if it had never stopped);
`restart()` resets it for a new game. `state` is always the state *before* the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from interpreter.runtime.actions import Action
    from interpreter.runtime.state import State


class Agent(Protocol):
    """Anything that picks an action for the player to act in a state."""

    def step(self, state: State) -> Action: ...

    def inform_action(self, state: State, player: int, action: Action | str) -> None: ...

    def restart(self) -> None: ...


class BaseAgent:
    """An agent that ignores what it is told and keeps nothing between games."""

    def step(self, state: State) -> Action:  # pragma: no cover - every agent defines it
        raise TypeError(f"{type(self).__name__} does not define step()")

    def inform_action(self, state: State, player: int, action: Action | str) -> None:
        return None

    def restart(self) -> None:
        return None
