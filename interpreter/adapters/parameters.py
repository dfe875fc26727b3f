"""A rule set's game parameters for learning frameworks: its constants that hold a
number, a word (letters, digits, `_.+-`: a longer text is no parameter) or a flag, each
with the rules' value as default, and one flag per
variant not already chosen (`four-cards` is `four_cards=False`). So OpenSpiel's
`pyspiel.load_game("orrery_goofspiel(num_cards=4)")` or
`"orrery_goofspiel(four_cards=True)"` is the game those rules make.

A game is loaded again (`load_game(..., constants=...)`) for other values, once per set
of values: the source of the rules (an id or a path, with variants and overlays) is
kept for that. A bad value is refused by the loader with what can be set.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.game import Game, load_game


@attrs.frozen
class Source:
    """Where a rule set comes from, to load it again with other parameters."""

    target: str
    variants: tuple[str, ...]
    overlays: tuple[str, ...]


def source_of(game: str | Game, variants: tuple[str, ...], overlays: tuple[str, ...]) -> Source | None:
    """The source of a game given by id or path, or of a loaded Game without overlays
    (its first file and variants); None when it cannot be told."""
    if isinstance(game, str):
        return Source(game, tuple(variants), tuple(overlays))
    gd = game.definition
    if gd.overlays or not gd.source_files:
        return None
    return Source(gd.source_files[0], tuple(gd.variants), ())


def parameters_of(rules: Game, taken: set[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The parameters with their defaults (constants, then variant flags), and each
    variant flag's variant; names in `taken` (the adapter's own options) are left out."""
    gd = rules.definition
    constants = (rules.raw.get("constants") or {}) if rules.raw else {}
    params = {k: v for k, v in constants.items()
              if (type(v) in (bool, int) or (type(v) is str and WORD.fullmatch(v))) and k not in taken}
    flags: dict[str, str] = {}
    for variant in gd.available_variants:
        flag = variant.replace("-", "_")
        if variant not in gd.variants and flag not in params and flag not in taken:
            params[flag] = False
            flags[flag] = variant
    return params, flags


_loaded: dict[tuple[Any, ...], Game] = {}
# A word a game's text can hold (`orrery_x(name=word)`): pyspiel's parser splits on
# `(`, `)`, `,` and `=`, so a constant holding other text is no parameter.
WORD = re.compile(r"[A-Za-z0-9_.+-]*")


def rules_with(source: Source | None, rules: Game, defaults: dict[str, Any], flags: dict[str, str],
               values: dict[str, Any]) -> Game:
    """The rules with these parameter values: `rules` itself when every value is its
    default, else the source loaded with the variants flagged and the constants set."""
    changed = {k: values[k] for k in defaults if values.get(k, defaults[k]) != defaults[k]}
    if not changed:
        return rules
    if source is None:
        raise GameError(f"parameters {', '.join(sorted(changed))} need the game loaded by id or path "
                        "(a loaded Game with overlays cannot be loaded again)")
    variants = source.variants + tuple(flags[k] for k in sorted(changed) if k in flags and changed[k] is True)
    constants = {k: v for k, v in changed.items() if k not in flags}
    for flag in (k for k in changed if k in flags):
        if type(changed[flag]) is not bool:
            raise GameError(f"parameter {flag} (variant '{flags[flag]}') is true or false, not {changed[flag]!r}")
    key = (source, variants, tuple(sorted(constants.items())))
    if key not in _loaded:
        _loaded[key] = load_game(source.target, variants=list(variants), overlays=list(source.overlays),
                                 constants=constants)
    return _loaded[key]
