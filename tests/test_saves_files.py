"""Save files and the file handling saves and logs share: reads bounded and of regular
files only, atomic writes only over a document of the same kind and game, and the
optional HMAC-SHA256 signature (refused when missing or wrong with a key, not looked at
without one).
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest

from interpreter import Game, GameError, State, load_game
from interpreter.runtime import saves
from interpreter.runtime.saves import (
    canonical_json,
    check_save_signature,
    check_signature,
    dump_state,
    read_bounded,
    read_key,
    read_save,
    sign,
    write_save,
)

KEY = b"a key of sixteen bytes or more"
OTHER_KEY = b"another key, also long enough"
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


@pytest.fixture(scope="module")
def kuhn() -> Game:
    return load_game("kuhn-poker")


@pytest.fixture()
def state(kuhn: Game) -> State:
    return kuhn.new_initial_state(2, seed=3)


# ---- reading -----------------------------------------------------------------------------------


def test_read_bounded_reads_a_regular_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"12345")
    assert read_bounded(path, 5, "log") == b"12345"


def test_read_bounded_refuses_a_file_over_the_bound(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"123456")
    with pytest.raises(GameError, match=r"x\.json: larger than 5 bytes, too large for an orrery log"):
        read_bounded(path, 5, "log")


def test_read_bounded_refuses_a_folder_and_a_missing_file(tmp_path: pathlib.Path) -> None:
    with pytest.raises(GameError, match="a folder, not an orrery save"):
        read_bounded(tmp_path, 100, "save")
    with pytest.raises(GameError, match="cannot read the save: no such file"):
        read_bounded(tmp_path / "nope.json", 100, "save")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_read_bounded_refuses_a_device_before_reading() -> None:
    with pytest.raises(GameError, match="not a regular file"):
        read_bounded("/dev/zero", 100, "log")


@needs_fifo
def test_read_bounded_refuses_a_pipe_without_waiting_for_a_writer(tmp_path: pathlib.Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(GameError, match="not a regular file"):
        read_bounded(fifo, 100, "log")


def test_a_save_file_over_the_bound_is_refused(tmp_path: pathlib.Path, state: State,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.json"
    write_save(path, state)
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", path.stat().st_size - 1)
    with pytest.raises(GameError, match="too large for an orrery save"):
        read_save(path)


# ---- writing -----------------------------------------------------------------------------------


def test_write_save_and_read_it_back(tmp_path: pathlib.Path, kuhn: Game, state: State) -> None:
    path = tmp_path / "s.json"
    write_save(path, state)
    assert kuhn.state_from_json(read_save(path)).to_json() == state.to_json()
    state.apply_action(state.legal_actions()[0])
    write_save(path, state)  # over a save of the same game
    assert kuhn.state_from_json(read_save(path)).history == state.history
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]  # no temporary file left


def test_write_save_refuses_what_is_not_a_save_of_the_game(tmp_path: pathlib.Path, state: State) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me\n", encoding="utf-8")
    with pytest.raises(GameError, match="exists and is not an orrery save; orrery does not overwrite it"):
        write_save(notes, state)
    assert notes.read_text(encoding="utf-8") == "keep me\n"

    other = tmp_path / "other.json"
    other.write_text(load_game("tic-tac-toe").new_initial_state(2).to_json(), encoding="utf-8")
    before = other.read_bytes()
    with pytest.raises(GameError, match=r"an orrery save of another game \('tic-tac-toe', not 'kuhn-poker'\)"):
        write_save(other, state)
    assert other.read_bytes() == before

    with pytest.raises(GameError, match="it is a folder; give a file name"):
        write_save(tmp_path, state)
    with pytest.raises(GameError, match=r"the folder .*missing does not exist"):
        write_save(tmp_path / "missing" / "s.json", state)
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "nowhere.json")
    with pytest.raises(GameError, match="a link to nothing"):
        write_save(link, state)


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null here")
def test_write_save_never_replaces_a_device(state: State) -> None:
    with pytest.raises(GameError, match="not a regular file"):
        write_save("/dev/null", state)
    assert pathlib.Path("/dev/null").is_char_device()


def test_a_failed_write_leaves_no_temporary_file(tmp_path: pathlib.Path, state: State,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(src: object, dst: object) -> None:
        raise PermissionError(13, "Permission denied")
    monkeypatch.setattr(saves.os, "replace", fail)
    with pytest.raises(GameError, match=r"cannot write the save .*Permission denied"):
        write_save(tmp_path / "s.json", state)
    assert list(tmp_path.iterdir()) == []


# ---- signatures --------------------------------------------------------------------------------


def test_canonical_json_ignores_layout_and_the_signature() -> None:
    data = {"b": [1, 2.5], "a": "é", "signature": "x"}
    assert canonical_json(data) == b'{"a":"\\u00e9","b":[1,2.5]}'
    assert canonical_json(json.loads(json.dumps(data, indent=3))) == canonical_json(data)


def test_a_signed_document_checks_with_its_key_only() -> None:
    signed = sign({"format": "x", "n": 1}, KEY)
    assert signed["signature"].startswith("hmac-sha256:") and len(signed["signature"]) == 12 + 64
    check_signature(signed, KEY, "log")
    check_signature(signed, None, "log")  # no key: not looked at
    with pytest.raises(GameError, match="this log was changed after it was signed"):
        check_signature(dict(signed, n=2), KEY, "log")
    with pytest.raises(GameError, match=r"this log was changed after it was signed \(or it was signed with another"):
        check_signature(signed, OTHER_KEY, "log")
    with pytest.raises(GameError, match="this log is not signed; with a signing key only signed logs are accepted"):
        check_signature({"format": "x", "n": 1}, KEY, "log")
    for bad in (12, "hmac-sha256:é", None):
        with pytest.raises(GameError):
            check_signature(dict(signed, signature=bad), KEY, "log")


def test_a_signed_save_round_trips_and_a_changed_one_is_refused(tmp_path: pathlib.Path, kuhn: Game,
                                                                state: State) -> None:
    path = tmp_path / "s.json"
    write_save(path, state, KEY)
    text = read_save(path, KEY)
    assert "signature" in json.loads(text)
    assert kuhn.state_from_json(text).to_json() == state.to_json()  # the signature is not a field
    assert read_save(path) == text  # without a key it is not looked at

    changed = json.loads(text)
    changed["seed"] += 1
    path.write_text(json.dumps(changed), encoding="utf-8")
    with pytest.raises(GameError, match=r"s\.json: this save was changed after it was signed"):
        read_save(path, KEY)
    read_save(path)  # without a key: read as any save (the loader's checks still apply)

    with pytest.raises(GameError, match="this save is not signed"):
        check_save_signature(state.to_json(), KEY)
    check_save_signature(dump_state(state, KEY), KEY)
    with pytest.raises(GameError, match="not JSON"):
        check_save_signature("{oops", KEY)


def test_keys_come_from_regular_files_of_sixteen_bytes_or_more(tmp_path: pathlib.Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_bytes(KEY + b"\n")
    assert read_key(key_file) == KEY  # the final line break is not part of the key
    key_file.write_bytes(b"short\n")
    with pytest.raises(GameError, match="holds 5 bytes; a signing key needs 16 at least"):
        read_key(key_file)
    with pytest.raises(GameError, match="a folder, not an orrery signing key"):
        read_key(tmp_path)
