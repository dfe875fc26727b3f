"""Game log files: written only as regular files over a new file or a log of the same
game, read only as bounded regular files, naming only bundled ids or rule files of the
right kind, signed on request; and diagnostics that quote only files that look like
rule files.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest
from conftest import write_toy

from interpreter import GameError, load_game
from interpreter.diagnostics import Diagnostic
from interpreter.play import logs
from interpreter.play.logs import (
    GameLog,
    check_log_target,
    load_log_game,
    new_log,
    parse_log,
    read_log,
    shown_diagnostics,
    write_log,
)

KEY = b"a key of sixteen bytes or more"
SECRET = "SECRET-LINE: do not print me ["


def a_log(game: str = "tic-tac-toe") -> GameLog:
    return new_log(load_game(game), game, [], 2, ["first", "first"], 7)


def secret_file(tmp_path: pathlib.Path, name: str = "private.txt") -> pathlib.Path:
    path = tmp_path / name
    path.write_text(SECRET + "\nmore: secrets\n", encoding="utf-8")
    return path


# ---- writing -----------------------------------------------------------------------------------


def test_write_log_writes_a_new_file_and_over_a_log_of_the_same_game(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.json"
    log = a_log()
    write_log(path, log)
    log.actions = ["place 4"]
    write_log(path, log)
    assert read_log(path).actions == ["place 4"]
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # the temporary file is gone


@pytest.mark.parametrize("content", ["precious notes\n", "{}", '{"format": "orrery-state/1", "game": "tic-tac-toe"}',
                                     "\xff not even text"])
def test_write_log_never_overwrites_a_file_that_is_not_a_log(tmp_path: pathlib.Path, content: str) -> None:
    path = tmp_path / "mine.txt"
    path.write_text(content, encoding="latin-1")
    before = path.read_bytes()
    with pytest.raises(GameError, match="exists and is not an orrery log; orrery does not overwrite it"):
        write_log(path, a_log())
    assert path.read_bytes() == before


def test_write_log_never_overwrites_the_log_of_another_game(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "kuhn.json"
    write_log(path, a_log("kuhn-poker"))
    before = path.read_bytes()
    with pytest.raises(GameError, match=r"an orrery log of another game \('kuhn-poker', not 'tic-tac-toe'\)"):
        write_log(path, a_log())
    assert path.read_bytes() == before


def test_write_log_refuses_folders_missing_folders_and_devices(tmp_path: pathlib.Path) -> None:
    with pytest.raises(GameError, match=r"cannot write the log .*: it is a folder; give a file name"):
        write_log(tmp_path, a_log())
    with pytest.raises(GameError, match=r"cannot write the log .*: the folder .*no[/\\]such does not exist"):
        write_log(tmp_path / "no" / "such" / "log.json", a_log())
    if os.path.exists("/dev/null"):
        with pytest.raises(GameError, match=r"not a regular file .*orrery writes only regular files"):
            write_log("/dev/null", a_log())
    check_log_target(tmp_path / "new.json", "tic-tac-toe")  # a new file in a folder: fine
    assert not (tmp_path / "new.json").exists()


def test_a_log_with_a_key_is_written_signed() -> None:
    log = a_log()
    log.sign_key = KEY
    data = json.loads(log.to_json())
    assert data["signature"].startswith("hmac-sha256:")
    assert KEY.decode() not in log.to_json() and "sign_key" not in data
    assert parse_log(log.to_json(), key=KEY) == log
    with pytest.raises(GameError, match="this log was changed after it was signed"):
        parse_log(json.dumps(dict(data, seed=8)), key=KEY)
    with pytest.raises(GameError, match="this log is not signed"):
        parse_log(a_log().to_json(), key=KEY)
    assert parse_log(json.dumps(dict(data, seed=8))).seed == 8  # no key: not looked at


# ---- reading -----------------------------------------------------------------------------------


def test_read_log_is_bounded(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.json"
    write_log(path, a_log())
    monkeypatch.setattr(logs, "MAX_LOG_BYTES", path.stat().st_size - 1)
    with pytest.raises(GameError, match="too large for an orrery log"):
        read_log(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_read_log_refuses_pipes_and_folders(tmp_path: pathlib.Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(GameError, match="pipe: not a regular file"):
        read_log(fifo)
    with pytest.raises(GameError, match="a folder, not an orrery log"):
        read_log(tmp_path)


def test_deeply_nested_json_is_not_a_log() -> None:
    with pytest.raises(GameError, match="not an orrery log"):
        parse_log("[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize(("key", "value"), [
    ("game", "../../etc"), ("game", "Tic Tac Toe"), ("source", "tic tac toe"), ("source", "bad\x1b[2Jname"),
    ("source", ""), ("overlays", ["two words"]), ("overlays", ["/ok/path\n"]),
])
def test_a_log_names_games_and_overlays_by_id_or_path_only(key: str, value: object) -> None:
    data = json.loads(a_log().to_json())
    data[key] = value
    with pytest.raises(GameError, match=f"corrupt log: '{key}' must be"):
        parse_log(json.dumps(data))


def test_a_log_naming_a_file_that_is_not_rules_is_refused_without_quoting_it(tmp_path: pathlib.Path) -> None:
    private = secret_file(tmp_path)
    private_yaml = secret_file(tmp_path, "private.yaml")
    game_file = write_toy(tmp_path, "flow: |\n  end game winners []\n")
    for change, what in (
        ({"source": str(private)}, "as its game"),
        ({"source": str(private_yaml)}, "as its game"),
        ({"source": str(tmp_path)}, "as its game"),  # a folder without game.yaml
        ({"overlays": [str(private)]}, "as its expansion or mod"),
        ({"overlays": [str(game_file)]}, "as its expansion or mod"),  # a game is not an overlay
    ):
        log = parse_log(json.dumps(dict(json.loads(a_log().to_json()), **change)))
        with pytest.raises(GameError) as caught:
            load_log_game(log)
        message = str(caught.value)
        assert what in message and "but that is not an orrery" in message
        assert "SECRET" not in message


def test_ids_in_a_log_are_bundled_ids_never_files_of_the_current_folder(
        tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = a_log().to_json()
    assert json.loads(text)["source"] == "tic-tac-toe"
    monkeypatch.chdir(tmp_path)
    secret_file(tmp_path, "tic-tac-toe")  # a file named like the game, where the log is read
    game = load_log_game(parse_log(text))
    assert game.definition.id == "tic-tac-toe" and game.definition.source_files[0].endswith("game.yaml")
    data = dict(json.loads(text), source="no-such-game", game="no-such-game")
    with pytest.raises(GameError, match="the log names the game 'no-such-game', which is not a bundled game"):
        load_log_game(parse_log(json.dumps(data)))
    data = dict(json.loads(text), overlays=["no-such-mod"])
    with pytest.raises(GameError, match="'no-such-mod', which is not a bundled expansion or mod"):
        load_log_game(parse_log(json.dumps(data)))


def test_a_log_naming_rule_folders_and_files_loads(tmp_path: pathlib.Path) -> None:
    root = pathlib.Path(__file__).resolve().parents[1] / "examples"
    for source in (root / "star-market", root / "star-market" / "game.yaml"):
        for overlay in (root / "star-market-overcharge", root / "star-market-overcharge" / "overlay.yaml"):
            log = new_log(load_game("star-market"), str(source), [str(overlay)], 2, ["random", "random"], 1)
            game = load_log_game(parse_log(log.to_json()))
            assert list(game.definition.overlays) == ["star-market-overcharge"]


# ---- what diagnostics quote --------------------------------------------------------------------


def test_diagnostics_of_a_file_that_is_not_rules_quote_nothing(tmp_path: pathlib.Path) -> None:
    private = secret_file(tmp_path)
    found = [Diagnostic(str(private), 1, 1, "schema", f"the file must be a map, not '{SECRET}'", source_line=SECRET),
             Diagnostic(str(private), 2, 1, "schema", "more: secrets")]
    shown = shown_diagnostics(found)
    assert len(shown) == 1 and shown[0].code == "not-rule-file" and "SECRET" not in shown[0].format()
    assert "secrets" not in json.dumps([d.to_json() for d in shown])


def test_diagnostics_of_rule_files_and_missing_files_are_kept(tmp_path: pathlib.Path) -> None:
    rules = tmp_path / "game.yaml"
    rules.write_text("orrery: 1\nid: [\n", encoding="utf-8")
    cards = tmp_path / "cards.yaml"  # an included file: sections only
    cards.write_text("cards:\n  x: {name: [}\n", encoding="utf-8")
    found = [Diagnostic(str(rules), 2, 5, "yaml-syntax", "bad", source_line="id: ["),
             Diagnostic(str(cards), 2, 5, "yaml-syntax", "bad", source_line="  x: {name: [}"),
             Diagnostic("no-such-game", 1, 1, "not-found", "no bundled game 'no-such-game'")]
    assert shown_diagnostics(found) == found


@pytest.mark.parametrize("section", ["card_types", "boards"])
def test_an_included_file_of_any_section_is_a_rule_file(tmp_path: pathlib.Path, section: str) -> None:
    included = tmp_path / "part.yaml"  # newer sections count: the keys come from the schemas
    included.write_text(f"{section}:\n  x: {{in: [}}\n", encoding="utf-8")
    found = [Diagnostic(str(included), 2, 5, "yaml-syntax", "bad", source_line="  x: {in: [}")]
    assert shown_diagnostics(found) == found
