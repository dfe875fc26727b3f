"""`orrery validate`: a target's findings, from its files to the start of every game.

A target is a game or an overlay (checked applied to its base game), by path or by
bundled name. Its findings are the diagnostics of loading it (YAML, schema, meaning),
the overlays' warnings, and a rule error starting a game at each player count; then
the same for each of its variants alone, so that a mistake only a variant makes (a
misspelt counter in its patch) is found by validate rather than by play, and for the
game with each bundled expansion or mod made for it (a change to the base that breaks
one is found where the change is made). With
`--variant`, the game is checked with those variants together instead, as play would
run it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import attrs

from interpreter.diagnostics import Diagnostic, GameError, RuleFileError, RuleRuntimeError, hint_for
from interpreter.game import Game, load_game
from interpreter.rules.loader import bundled_entries, resolve
from interpreter.rules.yamlload import load_yaml


def validate_target(target: str, overlays: list[str], strict: bool = False,
                    variants: Sequence[str] = ()) -> tuple[list[Diagnostic], str]:
    """The diagnostics of one target (empty when fine) and a one-line summary: the game
    as it is and with each of its variants alone, or with `variants` together."""
    try:
        path = _locate(target)
        data, _ = load_yaml(path)
        if isinstance(data, dict) and "overlay" in data:
            base = data.get("base")
            if not isinstance(base, str) or not base:
                return [Diagnostic(str(path), 1, 1, "overlay-base", "this overlay does not name its base game",
                                   hint="add `base: GAME-ID`")], ""
            game_of = partial(load_game, base, overlays=[str(path), *overlays], strict=strict)
            what = f"overlay {data.get('overlay')}"
        else:
            game_of = partial(load_game, str(path), overlays=overlays, strict=strict)
            what = ""
        game = game_of(variants=list(variants))
    except RuleFileError as err:
        return list(err.diagnostics), ""
    gd = game.definition
    problems = [*game.warnings, *smoke_test(game)]
    checked = list(variants) if variants else list(gd.available_variants)
    if not variants:  # each variant on its own: a mistake only a variant makes is still found
        for variant in gd.available_variants:
            problems += _variant_problems(game_of, variant, problems)
    # and with each bundled expansion or mod made for this game, when it is checked alone
    extras = [] if what or variants or overlays else [e for e in bundled_entries() if e["base"] == gd.id]
    for entry in extras:
        problems += _overlay_problems(partial(game_of, overlays=[entry["path"]]), entry["id"], problems)
    cards, actions = len(gd.cards), len(gd.actions)
    with_variants = f" with variant{'s' if len(checked) != 1 else ''} {', '.join(checked)}" if checked else ""
    with_overlays = "; with " + ", ".join(e["id"] for e in extras) if extras else ""
    named = f"{what} on {gd.name}" if what else gd.name
    return problems, (f"{named}: {cards} card{'s' if cards != 1 else ''}, {actions} action"
                      f"{'s' if actions != 1 else ''}{'; checked' + with_variants if checked else ''}{with_overlays}")


def _overlay_problems(game_of: Callable[..., Game], overlay: str, known: list[Diagnostic]) -> list[Diagnostic]:
    """What the game with the bundled `overlay` adds to the `known` findings, each saying so."""
    try:
        game = game_of(variants=[])
        found = [*game.warnings, *smoke_test(game)]
    except RuleFileError as err:
        found = list(err.diagnostics)
    seen = {(d.path, d.line, d.column, d.code, d.message) for d in known}
    return [attrs.evolve(d, message=f"{d.message} (with '{overlay}')") for d in found
            if (d.path, d.line, d.column, d.code, d.message) not in seen]


def _variant_problems(game_of: Callable[..., Game], variant: str, known: list[Diagnostic]) -> list[Diagnostic]:
    """What the game with `variant` adds to the `known` findings, each saying so."""
    try:
        game = game_of(variants=[variant])
        found = [*game.warnings, *smoke_test(game)]
    except RuleFileError as err:
        found = list(err.diagnostics)
    seen = {(d.path, d.line, d.column, d.code, d.message) for d in known}
    return [attrs.evolve(d, message=f"{d.message} (with variant '{variant}')") for d in found
            if (d.path, d.line, d.column, d.code, d.message) not in seen]


def _locate(target: str) -> Path:
    """The file of a validate target: a game or an overlay, by path or bundled name."""
    try:
        return resolve(target, "game")
    except RuleFileError as first:
        if Path(target).exists():
            raise
        try:
            return resolve(target, "overlay")
        except RuleFileError:
            names = [e["id"] for e in bundled_entries()]
            hint = hint_for(target, names) or first.diagnostics[0].hint
            raise RuleFileError([Diagnostic(target, 1, 1, "not-found",
                                            f"no bundled game, expansion or mod '{target}' and no such file",
                                            hint=hint)]) from None


def smoke_test(game: Game) -> list[Diagnostic]:
    """Start a game for each player count: a rule error in setup is a finding too."""
    gd = game.definition
    for players in range(gd.min_players, gd.max_players + 1):
        try:
            game.new_initial_state(players, seed=0)
        except RuleRuntimeError as err:
            fallback = gd.source_files[0] if gd.source_files else gd.id
            return [err.to_diagnostic(fallback, f"starting a {players}-player game (seed 0): ")]
        except GameError as err:
            path = gd.source_files[0] if gd.source_files else gd.id
            return [Diagnostic(path, 1, 1, "runtime-error", f"starting a {players}-player game (seed 0): {err}")]
    return []
