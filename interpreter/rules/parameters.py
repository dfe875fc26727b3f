"""Constants set from outside the rule file: a game's numbers, words and flags are
its parameters (OpenSpiel's game parameters: `orrery_goofspiel(num_cards=4)`), set
after variants and overlays by `load_game(..., constants=...)`. Only what the rules
define can be set, and only to a value of the same kind: a misspelt name or a word
for a number is refused at load with what can be set, never a game that fails later.
"""

from __future__ import annotations

from typing import Any

from interpreter.diagnostics import hint_for


def constant_problem(defined: dict[str, Any], name: str, value: Any) -> tuple[str, str | None] | None:
    """What is wrong with setting constant `name` to `value` (message, hint), or None: it
    must be a constant of the rules holding a number, a word or a flag, and the value of
    the same kind."""
    if name not in defined:
        scalars = [k for k, v in defined.items() if isinstance(v, (bool, int, str))]
        return (f"the game has no constant '{name}'",
                hint_for(name, scalars) or f"constants that can be set: {', '.join(scalars) or 'none'}")
    old = defined[name]
    kinds = {bool: "flag (true or false)", int: "whole number", str: "word"}
    if type(old) not in kinds:
        return f"constant '{name}' is {_described(old)}: only numbers, words and flags can be set", None
    if type(value) is not type(old):
        return f"constant '{name}' is a {kinds[type(old)]} (the rules give {old!r}), not {value!r}", None
    return None


def _described(value: Any) -> str:
    return "a map" if isinstance(value, dict) else "a list" if isinstance(value, list) else repr(value)
