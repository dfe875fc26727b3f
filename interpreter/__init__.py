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
from interpreter.version import __version__

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "Action",
    "ActionSpaceError",
    "Diagnostic",
    "Game",
    "GameError",
    "IllegalActionError",
    "OrreryError",
    "RuleFileError",
    "RuleRuntimeError",
    "State",
    "__version__",
    "load_game",
]
