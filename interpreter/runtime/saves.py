"""Saving and loading states as JSON, and refusing corrupt saves with a clear message;
the safe file handling and the optional signature that saves and game logs share.

The save format (`orrery-state/1`, documented in docs/saves.md) is a JSON object: a
header (format, game id, rule data hash, engine id, variants, overlays, players, seats,
seed) and one key per saved field of the state (fields.py). Every field is checked for
shape, range and consistency with the fields before it; then the state as a whole:
the decision it waits for must list its legal actions, and the state must be the one
its own seed, seats and actions lead to (replayed and compared), so a damaged or edited
file gives a GameError with the reason, never a traceback or a state that fails later
(an engine's hidden local missing from a frame only shows when that frame goes on, so
only the replay finds it).

A save points into compiled code (frames hold operation numbers), so it is resumed
directly only by an engine that compiles the rules to the same code shape. A save from
an engine with another shape is migrated: the game is replayed from its seed and
recorded actions (the save holds both), and the result must match the save's table
(counters, zones, cards, random state) or the save is refused.

Files (saves here, logs in play/logs.py): read only when they are regular files, and
never more than a bound (a device or a pipe would be read forever); written to a
temporary file in the same folder then renamed over the target (`os.replace`), and
only over a file that is already an orrery document of the same kind and game.
Signing: with a key, a document carries `signature`, an HMAC-SHA256 of its canonical
JSON (sorted keys, no spaces, the signature left out); read with a key, a missing or
wrong signature is refused; read without one, the signature is not looked at.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import stat
import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

from interpreter.diagnostics import GameError, RuleRuntimeError
from interpreter.numbers import decode, encode
from interpreter.runtime.actions import render
from interpreter.runtime.decisions import legal_actions
from interpreter.runtime.errors import RULE_SLIPS
from interpreter.runtime.fields import SAVED, card_name, need, zone_name
from interpreter.runtime.records import PendingActions, PendingChance

if TYPE_CHECKING:
    from interpreter.runtime.state import State

STATE_FORMAT = "orrery-state/1"
MAX_SAVE_BYTES = 64 * 1024 * 1024  # a save is plain data of one game: bigger is not ours
MAX_KEY_BYTES = 64 * 1024  # a signing key file
MIN_KEY_BYTES = 16  # shorter keys are guessable
SIGNATURE = "signature"
SIGNATURE_SCHEME = "hmac-sha256:"
# Compared after a migration: the table a save shows, which a replay must reproduce.
_MIGRATION_CHECKED = ("counters", "zones", "card_def", "loc", "rng", "chance", "unordered", "active", "round", "turn",
                      "terminal", "winners", "history")


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
        value = field.dump(getattr(st, field.attr))
        if field.default is None or value != field.default():  # fields added since: left out at their default
            data[field.key] = value  # type: ignore[index]
    return data


def dump_state(st: State, key: bytes | None = None) -> str:
    """The save of `st` as JSON text; signed when a key is given."""
    data = state_to_dict(st)
    return json.dumps(sign(data, key) if key is not None else data, separators=(",", ":"), default=encode)


def code_shape(engine_id: str) -> str:
    """The part of an engine id that says how rules compile (`VERSION/SHAPE`)."""
    return engine_id.rpartition("/")[2]


def parse_save(text: str, gd: Any) -> dict[str, Any]:
    """The save's JSON object, its header checked against the loaded rules `gd`."""
    if not isinstance(text, str | bytes | bytearray):
        raise GameError(f"corrupt save: a save is JSON text, not {type(text).__name__}")
    if len(text) > MAX_SAVE_BYTES:
        raise GameError(f"corrupt save: larger than {MAX_SAVE_BYTES // (1024 * 1024)} MB")
    try:
        data = json.loads(text, object_hook=decode)  # (a fraction is {"$fraction": "7/2"})
    except (json.JSONDecodeError, TypeError, ValueError, RecursionError, ArithmeticError, RuleRuntimeError) as err:
        raise GameError(f"corrupt save: not JSON ({err})") from None
    need(isinstance(data, dict), "not a JSON object")
    fmt = data.get("format")
    ours = isinstance(fmt, str) and fmt.startswith("orrery-") and len(fmt) < 40
    need(fmt == STATE_FORMAT, f"unknown format {fmt!r} (expected {STATE_FORMAT})" if ours
         else f"unknown format (not an orrery save; expected {STATE_FORMAT})")
    if data.get("game") != gd.id:
        raise GameError(f"this save is of game {_short(data.get('game'))}, not '{gd.id}'")
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


def _short(value: Any) -> str:
    """A value read from a file, quoted and cut short (it may be anything)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
    return (f"this save was made with other rule data (hash {_short(data.get('data_hash'))}, now {gd.data_hash}): "
            "the rule files changed since; replay the game's log or load the rules it was made with")


def _names(items: Any) -> str:
    return "[" + ", ".join(map(str, items)) + "]" if items else "none"


def fill_state(st: State, data: dict[str, Any]) -> None:
    """Set every saved field of the blank state `st` (whose static fields are set) from
    `data`, checking each against the fields before it, then the state as a whole."""
    _load_fields(st, data)
    check_decision(st)
    _check_replay(st)
    # not saved: who saw which hidden card go where follows from the actions (the replay is cached)
    st.known = replay_of(st).known.copy()


def _load_fields(st: State, data: dict[str, Any]) -> None:
    for field in SAVED:
        key = field.key
        assert key is not None and field.load is not None  # SAVED fields have both
        need(key in data or field.default is not None, f"the field '{key}' is missing")
        try:
            setattr(st, field.attr, field.load(st, data[key] if key in data else field.default()))  # type: ignore[misc]
        except GameError:
            raise
        except (TypeError, ValueError, IndexError, AttributeError, KeyError) as err:
            raise GameError(f"corrupt save: field '{key}': {type(err).__name__}: {err}") from None


def check_fields(st: State) -> None:
    """Check every saved field of `st` as a save's are checked when it loads (each
    card in exactly one zone, counters within their bounds, ...), without the replay:
    for a position arranged as data (runtime/arrange.py), which no history leads to."""
    data = state_to_dict(st)
    _load_fields(st.clone(), data)


def check_decision(st: State) -> None:
    """The decision waited for lists its legal actions, and there is one at least (the
    rules never wait for a decision that offers nothing)."""
    if st.pending is None:
        return
    try:
        legal = legal_actions(st)
    except RULE_SLIPS as err:
        raise GameError(f"corrupt save: the decision it waits for cannot be listed ({err})") from None
    need(bool(legal), "the decision it waits for offers no legal action")


class _MakesStates(Protocol):
    """The game a state belongs to makes new states (the Game does)."""

    def new_initial_state(self, num_players: int | None = None, seed: int = 0,
                          seats: list[str] | None = None, chance: str = "seeded") -> State: ...


# The last replays, by (game, players, seats, seed, chance mode): saves taken along one game (as a
# test harness or a server takes them) replay only the actions after the last one
# replayed, not the whole game each time. A cached state keeps its game alive, so the
# game's id names it while cached (and `is` is checked anyway).
_REPLAYS: OrderedDict[tuple[int, int, tuple[str, ...], int, str], tuple[tuple[str, ...], State]] = OrderedDict()
_REPLAYS_KEPT = 4


def replay_of(st: State) -> State:
    """The state the seed, seats and actions of `st` lead to, played from the start (or
    from a replay of the same game that its actions continue)."""
    history = st.history
    mode = "explicit" if st.explicit else "seeded"
    key = (id(st.game), st.n, tuple(st.seats), st.seed, mode)
    hit = _REPLAYS.get(key)
    if hit is not None and hit[1].game is st.game and list(hit[0]) == history[:len(hit[0])]:
        fresh, done = hit[1].clone(), len(hit[0])
    else:
        game = cast(_MakesStates, st.game)
        fresh, done = game.new_initial_state(st.n, st.seed, list(st.seats), chance=mode), 0
    for number, text in enumerate(history[done:], done + 1):
        try:
            fresh.apply_action(text)
        except GameError as err:
            raise GameError(f"action {number} of {len(history)}: {err}") from None
    _REPLAYS[key] = (tuple(history), fresh.clone())
    _REPLAYS.move_to_end(key)
    while len(_REPLAYS) > _REPLAYS_KEPT:
        _REPLAYS.popitem(last=False)
    return fresh


def _check_replay(st: State) -> None:
    """The loaded state must be the one its own actions lead to: a frame without a local
    the engine put there, a card put in a hand, a decision given to another player all
    load field by field but are not what the game could reach."""
    try:
        replayed = replay_of(st)
    except GameError as err:
        raise GameError(f"corrupt save: its actions do not replay ({err})") from None
    for field in SAVED:
        saved, real = field.dump(getattr(st, field.attr)), field.dump(getattr(replayed, field.attr))
        if saved != real:
            raise GameError(f"corrupt save: it is not the game its actions lead to: "
                            f"{_difference(st, field.key or field.attr, saved, real)}")


def _difference(st: State, key: str, saved: Any, real: Any) -> str:
    """The first difference between a saved field and the replayed one, in words."""
    if key == "stack":
        return _stack_difference(st, saved, real)
    if key == "pending":
        return f"it waits for {_decision(st, saved)}, where the game waits for {_decision(st, real)}"
    if key == "loc" and len(saved) == len(real):
        iid = next(i for i, (a, b) in enumerate(zip(saved, real, strict=True)) if a != b)
        return f"card {card_name(st, iid)} is {_place(st, saved[iid])}, where its actions leave it " \
               f"{_place(st, real[iid])}"
    if key == "zones" and len(saved) == len(real):
        slot = next(i for i, (a, b) in enumerate(zip(saved, real, strict=True)) if a != b)
        return f"the cards of {zone_name(st, slot)} are not in the order its actions give"
    if key == "counters" and len(saved) == len(real):
        name = next(c.name for c, a, b in zip(st.gd.counters, saved, real, strict=True) if a != b)
        return f"counter {name} is not what its actions give"
    return f"its '{key}' is not what its actions give"


def _place(st: State, slot: int) -> str:
    return "out of the game" if slot == -1 else f"in {zone_name(st, slot)}"


def _stack_difference(st: State, saved: list[list[Any]], real: list[list[Any]]) -> str:
    if len(saved) != len(real):
        return f"it runs {len(saved)} effects, where the game runs {len(real)}"
    codes = st.gd.codes
    for depth, (mine, theirs) in enumerate(zip(saved, real, strict=True)):
        what = f"effect {depth + 1} ({codes[theirs[0]].name})"
        if mine[0] != theirs[0] or mine[1] != theirs[1]:
            return f"{what} is at another place of the rules"
        lacks = sorted(set(theirs[2]) - set(mine[2]))
        if lacks:
            return f"{what} lacks its local '{lacks[0]}'"
        extra = sorted(set(mine[2]) - set(theirs[2]))
        if extra:
            return f"{what} has a local '{extra[0]}' it does not have in the game"
        changed = sorted(k for k in mine[2] if mine[2][k] != theirs[2][k])
        if changed:
            return f"{what} has another value of its local '{changed[0]}'"
    return "its effects differ"


def _decision(st: State, pending: list[Any] | None) -> str:
    if pending is None:
        return "no decision"
    if pending[0] == PendingChance.kind:
        return f"the chance event '{pending[3]}'"
    who = f"P{pending[1] + 1}"
    if pending[0] == PendingActions.kind:
        return f"{who} to pick a '{pending[2]}' action"
    if pending[0] == "simultaneous":
        return f"a simultaneous '{pending[2]}' step waiting for {who}"
    options = ", ".join(render(st, o, pending[3]) for o in pending[2][:4])
    return f"{who} to choose from {options}{', ...' if len(pending[2]) > 4 else ''}"


def migration_mismatch(replayed: dict[str, Any], saved: dict[str, Any]) -> str | None:
    """What differs between a save and the replay of its actions, or None."""
    for key in _MIGRATION_CHECKED:
        if replayed.get(key) != saved.get(key):
            return f"the replayed game differs in '{key}'"
    return None


# ---- signatures ----------------------------------------------------------------------------


def canonical_json(data: dict[str, Any]) -> bytes:
    """What a signature covers: the document without its signature, as JSON with sorted
    keys and no spaces (the same bytes however the file was indented)."""
    body = {k: v for k, v in data.items() if k != SIGNATURE}
    try:
        return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                          allow_nan=False, default=encode).encode("ascii")
    except (ValueError, TypeError, RecursionError):
        raise GameError("this file holds values JSON cannot sign (NaN or infinity)") from None


def signature_of(data: dict[str, Any], key: bytes) -> str:
    return SIGNATURE_SCHEME + hmac.new(key, canonical_json(data), hashlib.sha256).hexdigest()


def sign(data: dict[str, Any], key: bytes) -> dict[str, Any]:
    """`data` with its signature (any old one replaced)."""
    return {**{k: v for k, v in data.items() if k != SIGNATURE}, SIGNATURE: signature_of(data, key)}


def check_signature(data: dict[str, Any], key: bytes | None, what: str) -> None:
    """With a key, refuse a document that is not signed, or whose signature does not
    match (changed after signing, or signed with another key). Without one, the
    signature is not looked at."""
    if key is None:
        return
    found = data.get(SIGNATURE)
    if found is None:
        raise GameError(f"this {what} is not signed; with a signing key only signed {what}s are accepted")
    expected = signature_of(data, key)
    if not (isinstance(found, str) and found.isascii() and hmac.compare_digest(found, expected)):
        raise GameError(f"this {what} was changed after it was signed (or it was signed with another key)")


def read_key(path: str | Path) -> bytes:
    """A signing key from a file: its bytes, without a final line break."""
    key = read_bounded(path, MAX_KEY_BYTES, "signing key").rstrip(b"\r\n")
    return checked_key(key, f"the signing key file {path}")


def checked_key(key: bytes, where: str) -> bytes:
    if len(key) < MIN_KEY_BYTES:
        raise GameError(f"{where} holds {len(key)} bytes; a signing key needs {MIN_KEY_BYTES} at least")
    return key


# ---- files ---------------------------------------------------------------------------------


def read_bounded(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file `path`, refused when it is not one (a folder, a
    device, a pipe: checked before reading, and again on the open file) or when it is
    over `limit` bytes (at most limit+1 bytes are read)."""
    path = Path(path)
    try:
        info = os.stat(path)
        _need_regular(path, info.st_mode, what)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise GameError(f"{path}: cannot read the {what}: {_reason(err)}") from None
    with os.fdopen(fd, "rb") as handle:
        _need_regular(path, os.fstat(fd).st_mode, what)  # the file opened is the one checked
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise GameError(f"{path}: larger than {_size(limit)}, too large for an orrery {what}")
    return data


def _need_regular(path: Path, mode: int, what: str) -> None:
    if stat.S_ISDIR(mode):
        raise GameError(f"{path}: a folder, not an orrery {what}")
    if not stat.S_ISREG(mode):
        raise GameError(f"{path}: not a regular file (a device, pipe or socket), so not an orrery {what}")


def _reason(err: OSError) -> str:
    if isinstance(err, FileNotFoundError):
        return "no such file"
    return err.strerror or type(err).__name__


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit} bytes"


def check_target(path: str | Path, what: str, fmt: str, game: str, limit: int) -> None:
    """Refuse to write the document `what` (of format `fmt`, for game `game`) to `path`
    unless `path` is a new file in an existing folder, or a regular file that already
    is an orrery document of that format and game (the file is left untouched)."""
    path = Path(path)
    cannot = f"cannot write the {what} {path}"
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.lexists(path):
            raise GameError(f"{cannot}: it is a link to nothing; give another file name") from None
        if not path.parent.is_dir():
            raise GameError(f"{cannot}: the folder {path.parent} does not exist") from None
        return
    except OSError as err:
        raise GameError(f"{cannot}: {_reason(err)}") from None
    if stat.S_ISDIR(mode):
        raise GameError(f"{cannot}: it is a folder; give a file name (for example {path / ('game.json')})")
    if not stat.S_ISREG(mode):
        raise GameError(f"{cannot}: it is not a regular file (a device, pipe or socket); orrery writes "
                        f"only regular files")
    refuse = f"{cannot}: the file exists and is not an orrery {what}; orrery does not overwrite it (remove it " \
             f"or give another file name)"
    try:
        data = json.loads(read_bounded(path, limit, what).decode("utf-8"))
    except (GameError, UnicodeDecodeError, ValueError, RecursionError):
        raise GameError(refuse) from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise GameError(refuse)
    if data.get("game") != game:
        raise GameError(f"{cannot}: the file is an orrery {what} of another game ({_short(data.get('game'))}, "
                        f"not '{game}'); orrery does not overwrite it (give another file name)")


def write_atomically(path: str | Path, text: str, what: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder and
    `os.replace`, so a crash never leaves half a file (the caller checked the target)."""
    path = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as err:
        raise GameError(f"cannot write the {what} {path}: {_reason(err)}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException as err:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(err, OSError):
            raise GameError(f"cannot write the {what} {path}: {_reason(err)}") from None
        raise


# ---- save files ----------------------------------------------------------------------------


def write_save(path: str | Path, st: State, key: bytes | None = None) -> None:
    """Write the save of `st` to `path` (atomically; signed with `key`), only over a
    new file or a save of the same game."""
    check_target(path, "save", STATE_FORMAT, st.gd.id, MAX_SAVE_BYTES)
    write_atomically(path, dump_state(st, key) + "\n", "save")


def read_save(path: str | Path, key: bytes | None = None) -> str:
    """The text of a save file, for `Game.state_from_json`: a regular file within the
    size bound, and with a key, signed with it."""
    data = read_bounded(path, MAX_SAVE_BYTES, "save")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"{path}: not an orrery save (not UTF-8 text)") from None
    check_save_signature(text, key, str(path))
    return text


def check_save_signature(text: str, key: bytes | None, where: str = "save") -> None:
    """With a key, refuse save text that is not signed with it (see check_signature)."""
    if key is None:
        return
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise GameError(f"{where}: corrupt save: not JSON") from None
    if not isinstance(data, dict):
        raise GameError(f"{where}: corrupt save: not a JSON object")
    try:
        check_signature(data, key, "save")
    except GameError as err:
        raise GameError(f"{where}: {err}") from None
