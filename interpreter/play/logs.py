"""Game logs: the record of one game, enough to rebuild, resume, replay and verify it.

A log is one JSON object (format "orrery-log/1"): which rules (game id, data version
and hash, variants, overlays, and where the game was loaded from), the table (players,
seats, seed), every action in its canonical text, and the result once the game is over
(null while it is not). States are deterministic, so these few facts
rebuild every state of the game exactly. `orrery play --log` rewrites the log after
every action through a temporary file and `os.replace`, so a crash never leaves half a
file, and only ever over a new file or a log of the same game (never over a device,
a folder or a file of something else). Reading a log reads a regular file of at most
MAX_LOG_BYTES and checks every field's shape, so a damaged or foreign file gives a
GameError that says what is wrong, never a traceback. A log names its game and
overlays by bundled id or by the path of a rule file or folder of that kind; it is
never a way to make orrery read (and quote) any other file.
With a signing key a log carries an HMAC-SHA256 signature (see runtime/saves.py).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter.diagnostics import Diagnostic, GameError, RuleFileError
from interpreter.game import Game, load_game
from interpreter.rules.loader import bundled_entries
from interpreter.rules.schema import load_schema
from interpreter.rules.yamlload import MAX_FILE_BYTES, load_yaml
from interpreter.runtime.saves import check_signature, check_target, read_bounded, sign, write_atomically
from interpreter.runtime.state import State

LOG_FORMAT = "orrery-log/1"
MAX_LOG_BYTES = 64 * 1024 * 1024  # 100 000 actions take about 3 MB: bigger is not a log of ours
MAX_NAME = 4096  # a game or overlay named in a log: an id or a path
ID = re.compile(r"[a-z][a-z0-9_-]*")  # the rule files' id pattern
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
    # Decisions a player took back (undo), each {"by": seat, "after": actions kept,
    # "action": the canonical text taken back}: a record for people; not replayed.
    undone: list[dict[str, Any]] = attrs.field(factory=list)
    # With a key, the log is written signed (never written into the log itself).
    sign_key: bytes | None = attrs.field(default=None, repr=False, eq=False)
    # Whether the players chose the seed (`--seed`), so that it may be shown during the
    # game; a drawn seed tells the cards to come and is shown only at the end. Not
    # written into the log (the log always holds the seed).
    seed_known: bool = attrs.field(default=False, repr=False, eq=False)

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
            **({"undone": [dict(u) for u in self.undone]} if self.undone else {}),
        }

    def to_json(self) -> str:
        data = self.to_dict()
        return json.dumps(sign(data, self.sign_key) if self.sign_key is not None else data, indent=1)

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


def check_log_target(path: str | Path, game: str) -> None:
    """Refuse, with the reason, a log path orrery must not write: a folder, a device or
    pipe, a path in a missing folder, or an existing file that is not a log of `game`."""
    check_target(path, "log", LOG_FORMAT, game, MAX_LOG_BYTES)


def write_log(path: str | Path, log: GameLog) -> None:
    """Write the log atomically (a temporary file beside it, then `os.replace`), only
    over a new file or a log of the same game; signed when the log has a key."""
    check_log_target(path, log.game)
    write_atomically(path, log.to_json() + "\n", "log")


def read_log(path: str | Path, key: bytes | None = None) -> GameLog:
    """Read and check a log file (a regular file of at most MAX_LOG_BYTES); with a key,
    its signature too. A GameError names the file and what is wrong."""
    data = read_bounded(path, MAX_LOG_BYTES, "log")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"{path}: not an orrery log (not UTF-8 text)") from None
    return parse_log(text, str(path), key)


def parse_log(text: str, where: str = "log", key: bytes | None = None) -> GameLog:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, ValueError, RecursionError) as err:
        raise GameError(f"{where}: not an orrery log (corrupt JSON: {err})") from None
    if not isinstance(data, dict):
        raise GameError(f"{where}: not an orrery log (expected a JSON object)")
    if data.get("format") != LOG_FORMAT:
        raise GameError(f"{where}: not an orrery log (its 'format' is not {LOG_FORMAT!r})")
    try:
        check_signature(data, key, "log")
    except GameError as err:
        raise GameError(f"{where}: {err}") from None
    game = _field(data, "game", str, where)
    if not ID.fullmatch(game):
        raise _bad(where, "game", "a game id (lowercase words joined by '-' or '_')")
    return GameLog(
        game=game,
        version=_field(data, "version", str, where),
        data_hash=_field(data, "data_hash", str, where),
        variants=_str_list(data, "variants", where),
        overlays=[_target(o, "overlays", where) for o in _str_list(data, "overlays", where)],
        players=_players(data, where),
        seats=_seats(data, where),
        seed=_field(data, "seed", int, where),
        actions=_str_list(data, "actions", where),
        result=_result(data, where),
        orrery_version=str(data.get("orrery_version", "")),
        source=_optional_target(data, where),
        undone=_undone(data, where),
    )


def _undone(data: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """The decisions taken back (optional; logs without undo have none)."""
    value = data.get("undone", [])
    if not isinstance(value, list) or not all(
            isinstance(u, dict) and set(u) == {"by", "after", "action"} and isinstance(u["action"], str)
            and all(isinstance(u[k], int) and not isinstance(u[k], bool) and u[k] >= 0 for k in ("by", "after"))
            for u in value):
        raise _bad(where, "undone", "a list of {by, after, action} records")
    return [dict(u) for u in value]


def _target(value: str, key: str, where: str) -> str:
    """A game or overlay as a log names it: a bundled id or a path (what it points to is
    checked when the game is loaded)."""
    if ID.fullmatch(value) or (_looks_like_path(value) and len(value) <= MAX_NAME
                               and value.isprintable()):
        return value
    raise _bad(where, key, "a bundled id or the path of a rule file" if key == "source"
               else "bundled ids or paths of rule files")


def _optional_target(data: dict[str, Any], where: str) -> str | None:
    value = _optional_str(data, "source", where)
    return None if value is None else _target(value, "source", where)


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
    """The game a log was played with: from `target` when given (the user's choice),
    else from the log's source (if that path still exists) or its game id; with the
    log's variants and overlays. What the log names must be a bundled game or overlay,
    or a rule file or folder of that kind: a log never makes orrery read another file.
    The data hash is not checked here (see `hash_mismatch`)."""
    where = target if target is not None else _log_game(log)
    overlays = [_log_rules(name, "overlay") for name in log.overlays]
    game = load_game(where, variants=log.variants, overlays=overlays)
    if game.definition.id != log.game:
        raise GameError(f"the log is of game '{log.game}', but '{target or log.source}' is "
                        f"'{game.definition.id}'")
    return game


def _log_game(log: GameLog) -> str:
    source = log.source
    if source and _looks_like_path(source):
        if os.path.lexists(source):
            return _log_rules(source, "game")
        bundled = _bundled(log.game, "game")
        if bundled is None:
            raise GameError(f"the log's game '{log.game}' was loaded from {source}, which is gone, and no "
                            f"bundled game has that id; say where the game is (--game for replay, "
                            f"GAME for play --resume)")
        return bundled
    return _log_rules(source or log.game, "game")


def _log_rules(name: str, kind: str) -> str:
    """The rule file a log's game or overlay name stands for, checked to be one."""
    what = "game" if kind == "game" else "expansion or mod"
    if not _looks_like_path(name):
        bundled = _bundled(name, kind)
        if bundled is None:
            raise GameError(f"the log names the {what} '{name}', which is not a bundled {what}; say where the "
                            f"game is (--game for replay, GAME for play --resume)" if kind == "game" else
                            f"the log names the {what} '{name}', which is not a bundled {what}")
        return bundled
    path = Path(name)
    if path.is_dir():
        path = path / f"{kind}.yaml"
    refused = f"the log names {name} as its {what}, but that is not an orrery {kind} file or folder"
    if not path.is_file():
        raise GameError(refused)
    try:
        data, _ = load_yaml(path)
    except RuleFileError:  # not even YAML: say so, and quote nothing of it
        raise GameError(refused) from None
    if not isinstance(data, dict) or ("overlay" in data) != (kind == "overlay") or \
            (kind == "game" and "orrery" not in data):
        raise GameError(refused)
    return str(path)


def _bundled(name: str, kind: str) -> str | None:
    """The file of a bundled game (kind "game") or overlay by id, or None."""
    kinds = ("game", "example") if kind == "game" else ("expansion", "mod")
    for entry in bundled_entries():
        if entry["id"] == name and entry["kind"] in kinds:
            return str(entry["path"])
    return None


def _looks_like_path(text: str) -> bool:
    return os.sep in text or "/" in text or text.endswith((".yaml", ".yml"))


# ---- quoting files ---------------------------------------------------------------------

# A top-level key of rule files (games have `orrery:`, overlays `overlay:`, included
# files sections only): only a file with one is quoted in diagnostics. Taken from the
# schemas, so a new section counts; keys any YAML file may have (name, id, set...) do not.
_GENERIC_KEYS = {"id", "name", "version", "description", "players", "end",
                 "add", "patch", "remove", "replace", "set", "append", "prepend"}
_RULE_KEYS = sorted({key for kind in ("game", "overlay", "include")
                     for key in load_schema(kind).get("properties", {})} - _GENERIC_KEYS)
RULE_FILE_KEY = re.compile(rb"^(?:\xef\xbb\xbf)?(" + "|".join(_RULE_KEYS).encode() + rb")[ \t]*:", re.M)


def shown_diagnostics(diagnostics: Sequence[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics to show: those of a file that does not look like a rule file
    become one line that quotes nothing of it (`--with` or a game path may name any
    readable file, and its content is not for the screen)."""
    quotable: dict[str, bool] = {}
    shown: list[Diagnostic] = []
    for d in diagnostics:
        if d.path not in quotable:
            quotable[d.path] = _looks_like_rule_file(d.path)
            if not quotable[d.path]:
                shown.append(Diagnostic(d.path, 1, 1, "not-rule-file", "not an orrery rule file (its content is "
                                        "not shown)", hint="a game file is YAML with an 'orrery:' key, an overlay "
                                                           "YAML with an 'overlay:' key"))
        if quotable[d.path]:
            shown.append(d)
    return shown


def _looks_like_rule_file(path: str) -> bool:
    """True for a file with a top-level key of rule files, and for what is no readable
    file (a name not found, a folder, a file too large: nothing of it was quoted)."""
    if not os.path.lexists(path):
        return True
    try:
        data = read_bounded(path, MAX_FILE_BYTES, "rule file")
    except GameError:
        return True
    return RULE_FILE_KEY.search(data) is not None


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


def fresh_log_path(game: str, seed: int | None) -> Path:
    """A new file name in this folder for an unfinished game's log: `GAME-seedN.orrery-log.json`
    for a seed the players chose, else `GAME-YYYYMMDD-HHMMSS.orrery-log.json` (`seed`
    None): the name is printed during the game, and a drawn seed must not be."""
    stem = f"{game}-seed{seed}" if seed is not None else f"{game}-{time.strftime('%Y%m%d-%H%M%S')}"
    path = Path(f"{stem}.orrery-log.json")
    number = 2
    while path.exists():
        path = Path(f"{stem}-{number}.orrery-log.json")
        number += 1
    return path

