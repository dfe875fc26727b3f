"""OpenSpiel: any orrery game as a `pyspiel.Game` (docs/openspiel.md).

    from interpreter import openspiel
    game = openspiel.load("tic-tac-toe")

Needs `pip install 'orrery[openspiel]'`; importing this module without OpenSpiel
raises an ImportError that says so.
"""

from interpreter.adapters.openspiel import OrreryGame, OrreryState, full_text, load, short_name

__all__ = ["OrreryGame", "OrreryState", "full_text", "load", "short_name"]
