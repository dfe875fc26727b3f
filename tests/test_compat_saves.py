"""Saves and logs written by orrery 0.1.0 and 0.2 still load, resume and replay identically.

The fixtures (tests/fixtures/v0_1, see its README) were recorded with the 0.1.0 engine
on the 0.1.0 rule data of every bundled game and example; those in tests/fixtures/v0_2
(see its README) with the 0.2 engine (commit 4fbc140) on the 0.2 rule data. Each log
must replay to the very state its engine reached (same digest), each save must load to
the very state that engine saved and, resumed with the log's remaining actions, reach
the same end; and `orrery replay --verify` must pass on every log.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
VERSIONS = ("v0_1", "v0_2")  # a folder each: index.json, NAME.log.json, NAME.save.json, rules/
CASES = [pytest.param(version, entry, id=f"{version}-{entry['name']}") for version in VERSIONS
         for entry in json.loads((FIXTURES / version / "index.json").read_text())]


def _rules_path(version: str, target: str) -> Path:
    """A game, example or overlay in the version's copy of the rule data."""
    folder = FIXTURES / version / "rules" / "games" / target
    return folder if folder.is_dir() else FIXTURES / version / "rules" / "examples" / target


def _game(version: str, entry: dict[str, Any]) -> Any:
    return load_game(str(_rules_path(version, entry["target"])), variants=entry["variants"],
                     overlays=[str(_rules_path(version, o)) for o in entry["overlays"]])


def _digest(state: Any, engine: str) -> str:
    data = state.to_dict()
    data["engine"] = engine  # the digest was taken with the saving engine's id stamped
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _saved_engine(version: str, entry: dict[str, Any]) -> str:
    return str(json.loads((FIXTURES / version / f"{entry['name']}.save.json").read_text())["engine"])


@pytest.mark.parametrize(("version", "entry"), CASES)
def test_an_old_log_replays_to_the_same_state(version: str, entry: dict[str, Any]) -> None:
    log = json.loads((FIXTURES / version / f"{entry['name']}.log.json").read_text())
    game = _game(version, entry)
    assert game.definition.data_hash == log["data_hash"]
    state = game.new_initial_state(entry["players"], entry["seed"], entry["seats"])
    for text in log["actions"]:
        state.apply_action(text)
    assert state.is_terminal()
    assert _digest(state, _saved_engine(version, entry)) == entry["final_digest"]


@pytest.mark.parametrize(("version", "entry"), CASES)
def test_an_old_save_loads_and_resumes_to_the_same_end(version: str, entry: dict[str, Any]) -> None:
    game = _game(version, entry)
    text = (FIXTURES / version / f"{entry['name']}.save.json").read_text()
    state = game.state_from_json(text)
    engine = _saved_engine(version, entry)
    assert _digest(state, engine) == entry["save_digest"]
    if entry["save_mid_effect"]:
        assert len(state.stack) > 2 and state.pending is not None and state.pending.kind == "choice"
    log = json.loads((FIXTURES / version / f"{entry['name']}.log.json").read_text())
    for action in log["actions"][entry["save_at"]:]:
        state.apply_action(action)
    assert _digest(state, engine) == entry["final_digest"]


@pytest.mark.parametrize(("version", "entry"), CASES)
def test_orrery_replay_verify_passes_on_an_old_log(version: str, entry: dict[str, Any], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    log = json.loads((FIXTURES / version / f"{entry['name']}.log.json").read_text())
    log["overlays"] = [str(_rules_path(version, o)) for o in log["overlays"]]  # the old expansion data
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    code = main(["replay", str(path), "--verify", "--game", str(_rules_path(version, entry["target"]))])
    assert code == 0, capsys.readouterr()
    assert "verified" in capsys.readouterr().out
