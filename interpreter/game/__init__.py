"""The Game: a loaded, validated, compiled rule set, the factory of its states, and its
rules summary. `load_game` is the one entry of the pipeline."""

from interpreter.game.factory import Game, load_game

__all__ = ["Game", "load_game"]
