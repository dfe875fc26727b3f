"""orrery: a declarative rules-as-data interpreter for modern board games.

    from interpreter import load_game
    game = load_game("tic-tac-toe")
    state = game.new_initial_state(num_players=2, seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])

The engine is generic: games are YAML data plus a small effect language (see
docs/format.md); nothing here knows any particular game.
"""

__version__ = "0.1.0"  # before the imports: game.py reads it

from .decisions import Action
from .diagnostics import Diagnostic, GameError, IllegalActionError, OrreryError, RuleFileError, RuleRuntimeError
from .game import Game, load_game
from .state import TERMINAL, State

__all__ = [
    "TERMINAL",
    "Action",
    "Diagnostic",
    "Game",
    "GameError",
    "IllegalActionError",
    "OrreryError",
    "RuleFileError",
    "RuleRuntimeError",
    "State",
    "load_game",
]
