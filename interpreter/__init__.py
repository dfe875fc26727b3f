"""orrery: a declarative rules-as-data interpreter for modern board games.

    from interpreter import load_game
    game = load_game("tic-tac-toe")
    state = game.new_initial_state(num_players=2, seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])

The engine is generic: games are YAML data plus a small effect language (see
docs/format.md); nothing here knows any particular game. Learning code gets integer
actions and fixed-shape observations from every game (docs/learning.md), and the
optional `interpreter.openspiel` and `interpreter.pettingzoo` adapters. With
`new_initial_state(..., chance="explicit")` random events are chance nodes, where
`current_player()` is CHANCE (docs/chance.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from interpreter.version import __version__

if TYPE_CHECKING:
    from interpreter.agents import Agent
    from interpreter.diagnostics import (
        Diagnostic,
        GameError,
        IllegalActionError,
        OrreryError,
        RuleFileError,
        RuleRuntimeError,
    )
    from interpreter.game import Game, load_game
    from interpreter.runtime.action_space import ActionSpaceError
    from interpreter.runtime.actions import Action
    from interpreter.runtime.state import CHANCE, SIMULTANEOUS, TERMINAL, State

# Importing the package imports none of the engine: each name is imported when first
# used (PEP 562). So the command line (`python -m interpreter`, the `orrery` script)
# imports the engine inside its own code, where a Ctrl-C can be caught.
_WHERE = {
    "Agent": "interpreter.agents",
    **dict.fromkeys(("Diagnostic", "GameError", "IllegalActionError", "OrreryError", "RuleFileError",
                     "RuleRuntimeError"), "interpreter.diagnostics"),
    "Game": "interpreter.game", "load_game": "interpreter.game",
    "ActionSpaceError": "interpreter.runtime.action_space",
    "Action": "interpreter.runtime.actions",
    **dict.fromkeys(("CHANCE", "SIMULTANEOUS", "TERMINAL", "State"), "interpreter.runtime.state"),
}


def __getattr__(name: str) -> Any:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def create_agent(spec: str, game: Game, seed: int = 0, seat: int = 0) -> Agent:
    """The agent for a seat spec (`random`, `mcts:iterations=200`, `ismcts:seconds=0.5`,
    ...) in `game`; its `step(state)` gives an action for the player to move."""
    from interpreter.agents import create_agent as create_seat_agent

    return create_seat_agent(spec, game.definition, seed, seat)


__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "ActionSpaceError",
    "Agent",
    "Diagnostic",
    "Game",
    "GameError",
    "IllegalActionError",
    "OrreryError",
    "RuleFileError",
    "RuleRuntimeError",
    "State",
    "__version__",
    "create_agent",
    "load_game",
]
