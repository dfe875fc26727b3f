"""Saving and loading states as JSON, and refusing corrupt saves with a clear message.

The save format (`orrery-state/1`, documented in docs/saves.md) is a JSON object: a
header (format, game id, rule data hash, engine id, variants, overlays, players, seats,
seed) and one key per saved field of the state (fields.py). Every field is checked for
shape, range and consistency with the fields before it, so a damaged file gives a
GameError, never a traceback or a state that fails later.

A save points into compiled code (frames hold operation numbers), so it is resumed
directly only by an engine that compiles the rules to the same code shape. A save from
an engine with another shape is migrated: the game is replayed from its seed and
recorded actions (the save holds both), and the result must match the save's table
(counters, zones, cards, random state) or the save is refused.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import GameError
from interpreter.runtime.fields import SAVED, need

if TYPE_CHECKING:
    from interpreter.runtime.state import State

STATE_FORMAT = "orrery-state/1"
MAX_SAVE_BYTES = 64 * 1024 * 1024  # a save is plain data of one game: bigger is not ours
# Compared after a migration: the table a save shows, which a replay must reproduce.
_MIGRATION_CHECKED = ("counters", "zones", "card_def", "loc", "rng", "active", "round", "turn", "terminal",
                      "winners", "history")


def state_to_dict(st: State) -> dict[str, Any]:
    gd = st.gd
    data: dict[str, Any] = {
        "format": STATE_FORMAT,
        "game": gd.id,
        "data_hash": gd.data_hash,
        "engine": st.game.engine_id,
        "variants": list(gd.variants),
        "overlays": list(gd.overlays),
        "players": st.n,
        "seats": list(st.seats),
        "seed": st.seed,
    }
    for field in SAVED:
        data[field.key] = field.dump(getattr(st, field.attr))  # type: ignore[index]
    return data


def dump_state(st: State) -> str:
    return json.dumps(state_to_dict(st), separators=(",", ":"))


def code_shape(engine_id: str) -> str:
    """The part of an engine id that says how rules compile (`VERSION/SHAPE`)."""
    return engine_id.rpartition("/")[2]


def parse_save(text: str, gd: Any) -> dict[str, Any]:
    """The save's JSON object, its header checked against the loaded rules `gd`."""
    if len(text) > MAX_SAVE_BYTES:
        raise GameError(f"corrupt save: larger than {MAX_SAVE_BYTES // (1024 * 1024)} MB")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, TypeError, ValueError, RecursionError) as err:
        raise GameError(f"corrupt save: not JSON ({err})") from None
    need(isinstance(data, dict), "not a JSON object")
    need(data.get("format") == STATE_FORMAT, f"unknown format {data.get('format')!r} (expected {STATE_FORMAT})")
    if data.get("game") != gd.id:
        raise GameError(f"this save is of game '{data.get('game')}', not '{gd.id}'")
    if data.get("data_hash") != gd.data_hash:
        raise GameError(_rules_differ(data, gd))
    need(isinstance(data.get("engine"), str), "the engine that made it is not named")
    n = data.get("players")
    need(isinstance(n, int) and not isinstance(n, bool) and gd.min_players <= n <= gd.max_players,
         "bad player count")
    seats = data.get("seats")
    need(isinstance(seats, list) and len(seats) == n and all(isinstance(s, str) for s in seats), "bad seats")
    need(isinstance(data.get("seed"), int) and not isinstance(data.get("seed"), bool), "bad seed")
    return data


def _rules_differ(data: dict[str, Any], gd: Any) -> str:
    """Why a save's rule data is not the loaded one, in words: which variants or
    overlays differ, or that the rule files themselves changed."""
    saved_v, saved_o = data.get("variants"), data.get("overlays")
    parts = []
    if isinstance(saved_v, list) and sorted(map(str, saved_v)) != sorted(gd.variants):
        parts.append(f"variants {_names(saved_v)} (loaded: {_names(gd.variants)})")
    if isinstance(saved_o, list) and list(map(str, saved_o)) != list(gd.overlays):
        parts.append(f"overlays {_names(saved_o)} (loaded: {_names(gd.overlays)})")
    if parts:
        return "this save was made with " + " and ".join(parts) + "; load the game with the same ones"
    return (f"this save was made with other rule data (hash {data.get('data_hash')}, now {gd.data_hash}): the "
            "rule files changed since; replay the game's log or load the rules it was made with")


def _names(items: Any) -> str:
    return "[" + ", ".join(map(str, items)) + "]" if items else "none"


def fill_state(st: State, data: dict[str, Any]) -> None:
    """Set every saved field of the blank state `st` (whose static fields are set) from
    `data`, checking each against the fields before it."""
    for field in SAVED:
        key = field.key
        assert key is not None and field.load is not None  # SAVED fields have both
        need(key in data, f"the field '{key}' is missing")
        try:
            setattr(st, field.attr, field.load(st, data[key]))
        except GameError:
            raise
        except (TypeError, ValueError, IndexError, AttributeError, KeyError) as err:
            raise GameError(f"corrupt save: field '{key}': {type(err).__name__}: {err}") from None


def migration_mismatch(replayed: dict[str, Any], saved: dict[str, Any]) -> str | None:
    """What differs between a save and the replay of its actions, or None."""
    for key in _MIGRATION_CHECKED:
        if replayed.get(key) != saved.get(key):
            return f"the replayed game differs in '{key}'"
    return None
