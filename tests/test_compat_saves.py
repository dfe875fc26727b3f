"""Saves and logs written by orrery 0.1.0 still load, resume and replay identically.

The fixtures (tests/fixtures/v0_1, see its README) were recorded with the 0.1.0 engine
on the 0.1.0 rule data of every bundled game and example. Each log must replay to the
very state 0.1.0 reached (same digest), each save must load to the very state 0.1.0
saved and, resumed with the log's remaining actions, reach the same end; and
`orrery replay --verify` must pass on every log.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.cli import main

HERE = Path(__file__).parent / "fixtures" / "v0_1"
RULES = HERE / "rules"
INDEX = json.loads((HERE / "index.json").read_text())
BUNDLED = {"target-jupiter": RULES / "games" / "target-jupiter",
           "star-market-overcharge": RULES / "examples" / "star-market-overcharge"}


def _rules_path(target: str) -> Path:
    folder = RULES / "games" / target
    return folder if folder.is_dir() else RULES / "examples" / target


def _game(entry: dict[str, Any]) -> Any:
    return load_game(str(_rules_path(entry["target"])), variants=entry["variants"],
                     overlays=[str(BUNDLED[o]) for o in entry["overlays"]])


def _digest(state: Any, engine: str) -> str:
    data = state.to_dict()
    data["engine"] = engine  # the digest was taken with the id 0.1.0 stamped
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def _saved_engine(entry: dict[str, Any]) -> str:
    return str(json.loads((HERE / f"{entry['name']}.save.json").read_text())["engine"])


@pytest.mark.parametrize("entry", INDEX, ids=[e["name"] for e in INDEX])
def test_a_0_1_log_replays_to_the_same_state(entry: dict[str, Any]) -> None:
    log = json.loads((HERE / f"{entry['name']}.log.json").read_text())
    game = _game(entry)
    assert game.definition.data_hash == log["data_hash"]
    state = game.new_initial_state(entry["players"], entry["seed"], entry["seats"])
    for text in log["actions"]:
        state.apply_action(text)
    assert state.is_terminal()
    assert _digest(state, _saved_engine(entry)) == entry["final_digest"]


@pytest.mark.parametrize("entry", INDEX, ids=[e["name"] for e in INDEX])
def test_a_0_1_save_loads_and_resumes_to_the_same_end(entry: dict[str, Any]) -> None:
    game = _game(entry)
    text = (HERE / f"{entry['name']}.save.json").read_text()
    state = game.state_from_json(text)
    engine = _saved_engine(entry)
    assert _digest(state, engine) == entry["save_digest"]
    if entry["save_mid_effect"]:
        assert len(state.stack) > 2 and state.pending is not None and state.pending.kind == "choice"
    log = json.loads((HERE / f"{entry['name']}.log.json").read_text())
    for action in log["actions"][entry["save_at"]:]:
        state.apply_action(action)
    assert _digest(state, engine) == entry["final_digest"]


@pytest.mark.parametrize("entry", INDEX, ids=[e["name"] for e in INDEX])
def test_orrery_replay_verify_passes_on_a_0_1_log(entry: dict[str, Any], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    log = json.loads((HERE / f"{entry['name']}.log.json").read_text())
    log["overlays"] = [str(BUNDLED[o]) for o in log["overlays"]]  # the 0.1.0 expansion data
    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    code = main(["replay", str(path), "--verify", "--game", str(_rules_path(entry["target"]))])
    assert code == 0, capsys.readouterr()
    assert "verified" in capsys.readouterr().out
