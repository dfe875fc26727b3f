"""Game logs: the record of one game, enough to rebuild, resume, replay and verify it.

A log is one JSON object (format "orrery-log/1"): which rules (game id, data version
and hash, variants, overlays, and where the game was loaded from), the table (players,
seats, seed), every action in its canonical text, and the result once the game is over
(null while it is not). States are deterministic, so these few facts
rebuild every state of the game exactly. `orrery play --log` rewrites the log after
every action through a temporary file and `os.replace`, so a crash never leaves half a
file. Reading a log checks every field's shape, so a damaged or foreign file gives a
GameError that says what is wrong, never a traceback.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import attrs

from interpreter.diagnostics import GameError, RuleFileError
from interpreter.game import Game, load_game
from interpreter.rules.loader import resolve
from interpreter.runtime.state import State

LOG_FORMAT = "orrery-log/1"
RESULT_KEYS = ("winners", "returns", "reason", "rounds", "turns", "actions")


@attrs.define
class GameLog:
    """One game's record; `source` is the game target it was loaded from (an id, or an
    absolute path for a game outside the bundle)."""

    game: str
    version: str
    data_hash: str
    variants: list[str]
    overlays: list[str]
    players: int
    seats: list[str]
    seed: int
    actions: list[str] = attrs.field(factory=list)
    result: dict[str, Any] | None = None
    orrery_version: str = ""
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": LOG_FORMAT,
            "game": self.game,
            "version": self.version,
            "data_hash": self.data_hash,
            "variants": list(self.variants),
            "overlays": list(self.overlays),
            "players": self.players,
            "seats": list(self.seats),
            "seed": self.seed,
            "actions": list(self.actions),
            "result": self.result,
            "orrery_version": self.orrery_version,
            "source": self.source,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def record(self, state: State) -> None:
        """Take the actions so far, and the result if the game is over, from `state`."""
        self.actions = list(state.history)
        self.result = result_of(state) if state.is_terminal() else None


def result_of(state: State) -> dict[str, Any]:
    """The result fields a log keeps of a finished game."""
    result = state.result()
    return {key: result[key] for key in RESULT_KEYS}


def target_for_log(target: str) -> str:
    """How a log names a game or overlay target: a path made absolute (so the log works
    from any folder), a bundled name as it is."""
    path = Path(target)
    return str(path.resolve()) if path.exists() else target


def new_log(game: Game, target: str, overlays: list[str], players: int, seats: list[str], seed: int) -> GameLog:
    """An empty log for a game about to start."""
    from interpreter.version import __version__

    gd = game.definition
    return GameLog(game=gd.id, version=gd.version, data_hash=gd.data_hash, variants=list(gd.variants),
                   overlays=[target_for_log(o) for o in overlays], players=players, seats=list(seats),
                   seed=seed, orrery_version=__version__, source=target_for_log(target))


# ---- files -----------------------------------------------------------------------------


def write_log(path: str | Path, log: GameLog) -> None:
    """Write the log atomically: a temporary file beside it, then `os.replace`."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise GameError(f"cannot write the log {path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(log.to_json())
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_log(path: str | Path) -> GameLog:
    """Read and check a log file; a GameError names the file and what is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise GameError(f"{path}: not an orrery log (not UTF-8 text)") from None
    return parse_log(text, str(path))


def parse_log(text: str, where: str = "log") -> GameLog:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, ValueError) as err:
        raise GameError(f"{where}: not an orrery log (corrupt JSON: {err})") from None
    if not isinstance(data, dict):
        raise GameError(f"{where}: not an orrery log (expected a JSON object)")
    if data.get("format") != LOG_FORMAT:
        raise GameError(f"{where}: not an orrery log (format {data.get('format')!r}, expected {LOG_FORMAT!r})")
    return GameLog(
        game=_field(data, "game", str, where),
        version=_field(data, "version", str, where),
        data_hash=_field(data, "data_hash", str, where),
        variants=_str_list(data, "variants", where),
        overlays=_str_list(data, "overlays", where),
        players=_players(data, where),
        seats=_seats(data, where),
        seed=_field(data, "seed", int, where),
        actions=_str_list(data, "actions", where),
        result=_result(data, where),
        orrery_version=str(data.get("orrery_version", "")),
        source=_optional_str(data, "source", where),
    )


def _bad(where: str, key: str, what: str) -> GameError:
    return GameError(f"{where}: corrupt log: '{key}' must be {what}")


def _field(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise _bad(where, key, "a number" if kind is int else "a string")
    return value


def _optional_str(data: dict[str, Any], key: str, where: str) -> str | None:
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise _bad(where, key, "a string")
    return value


def _str_list(data: dict[str, Any], key: str, where: str) -> list[str]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise _bad(where, key, "a list of strings")
    return list(value)


def _players(data: dict[str, Any], where: str) -> int:
    players = _field(data, "players", int, where)
    if players < 1:
        raise _bad(where, "players", "at least 1")
    return int(players)


def _seats(data: dict[str, Any], where: str) -> list[str]:
    seats = _str_list(data, "seats", where)
    if len(seats) != data["players"]:
        raise _bad(where, "seats", f"a list of {data['players']} seats (one per player)")
    return seats


def _result(data: dict[str, Any], where: str) -> dict[str, Any] | None:
    result = data.get("result")
    if result is None:
        return None
    if not isinstance(result, dict) or any(key not in result for key in RESULT_KEYS):
        raise _bad(where, "result", f"null or an object with {', '.join(RESULT_KEYS)}")
    return {key: result[key] for key in RESULT_KEYS}


# ---- rebuilding ------------------------------------------------------------------------


def load_log_game(log: GameLog, target: str | None = None) -> Game:
    """The game a log was played with: from `target` when given, else from the log's
    source (if that path still exists) or its game id; with the log's variants and
    overlays. The data hash is not checked here (see `check_hash`)."""
    if target is None:
        source = log.source
        target = source if source and (not _looks_like_path(source) or Path(source).exists()) else log.game
        if source and target != source:
            try:
                resolve(target)
            except RuleFileError:
                raise GameError(f"the log's game '{log.game}' was loaded from {source}, which is gone, and no "
                                f"bundled game has that id; say where the game is (--game for replay, "
                                f"GAME for play --resume)") from None
    game = load_game(target, variants=log.variants, overlays=log.overlays)
    if game.definition.id != log.game:
        raise GameError(f"the log is of game '{log.game}', but '{target}' is '{game.definition.id}'")
    return game


def _looks_like_path(text: str) -> bool:
    return os.sep in text or "/" in text or text.endswith((".yaml", ".yml"))


def hash_mismatch(log: GameLog, game: Game) -> str | None:
    """A sentence saying the rules differ from those the log was written with, or None."""
    now = game.definition.data_hash
    if log.data_hash == now:
        return None
    return (f"the rule data differ from those the log was written with: log data hash {log.data_hash} "
            f"(version {log.version or '?'}), data hash now {now} (version {game.definition.version or '?'})")


def result_differences(expected: dict[str, Any] | None, state: State) -> list[str]:
    """What differs between a log's result and a replayed state's (empty: the same)."""
    if expected is None:
        return ["the log says the game is unfinished, but the replay ended"] if state.is_terminal() else []
    if not state.is_terminal():
        return [f"the log says the game ended ({expected.get('reason')}), but after its actions it is not over"]
    actual = result_of(state)
    return [f"{key}: log {expected[key]!r}, replay {actual[key]!r}"
            for key in RESULT_KEYS if not _same(expected[key], actual[key])]


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return bool(a == b)
