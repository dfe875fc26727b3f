"""The `orrery` command line: every command, its exit codes, and never a traceback.

Most tests call `main([...])` in-process and read the output with capsys; a few run
`python -m interpreter` in a subprocess, as a user would. Terminal play is driven by
replacing stdin with a text of answers.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
from typing import Any

import pytest
from conftest import answers, run, write_toy

from interpreter import load_game
from interpreter.agents import create_agent
from interpreter.agents.builtin import FirstAgent, RandomAgent
from interpreter.diagnostics import GameError
from interpreter.play.logs import parse_log, read_log
from interpreter.play.runner import play_game
from interpreter.play.simulate import SimulationSpec, simulate

ROOT = pathlib.Path(__file__).resolve().parents[1]
KUHN = str(ROOT / "examples" / "kuhn-poker")
TTT = str(ROOT / "examples" / "tic-tac-toe")
DIAGNOSTIC = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[a-z-]+)\]: .+$", re.M)

DIVIDE_BY_ZERO = """
counters:
  zero: {scope: global, initial: 0}
  score: {scope: player, initial: 0}
actions:
  safe: {during: turn, effect: "gain 1 score(me)", ends: turn}
  boom: {during: turn, effect: "gain 10 / zero score(me)", ends: turn}
flow: |
  turn 0:
    take actions turn
  end game winners [0]
"""


def log_data(path: pathlib.Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


# ---- help and usage errors ------------------------------------------------------------------


def test_help_documents_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for command in ("list", "validate", "describe", "play", "simulate", "replay", "schema"):
        assert command in out
        sub_code, sub_out, _ = run(capsys, command, "--help")
        assert sub_code == 0 and "usage: orrery " + command in sub_out
    assert "exit codes" in out


@pytest.mark.parametrize("argv", [
    [],
    ["frobnicate"],
    ["play"],
    ["simulate"],
    ["simulate", "tic-tac-toe", "--games", "zero"],
    ["simulate", "tic-tac-toe", "--games", "0"],
    ["simulate", "tic-tac-toe", "--seats", "human,random"],
    ["play", "tic-tac-toe", "--players", "3"],
    ["play", "tic-tac-toe", "--seats", "human,robot"],
    ["play", "tic-tac-toe", "--players", "2", "--seats", "human"],
    ["play", "--resume", "x.json", "--seats", "random,random"],
])
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert err.strip()


@pytest.mark.parametrize(("seat", "says"), [
    ("mcts:iterations=0", "seat option iterations=0 must be at least 1"),
    ("mcts:iterations=99999999999", "seat option iterations=99999999999 must be at most 10,000,000"),
    ("ismcts:seconds=5000", "seat option seconds=5000 must be at most 3,600"),
    ("mcts:rollout=nobody", "seat option rollout='nobody'"),
])
def test_a_seats_option_values_are_checked_before_any_game(capsys: pytest.CaptureFixture[str], seat: str,
                                                           says: str) -> None:
    code, out, err = run(capsys, "simulate", "tic-tac-toe", "--games", "3", "--seats", f"{seat},random")
    assert code == 2 and says in err and "games/s" not in out  # refused up front: no game was played


def test_unknown_seat_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "tic-tac-toe", "--seats", "human,randm")
    assert code == 2 and "did you mean 'random'" in err


@pytest.mark.parametrize(("argv", "exit_code", "code", "says", "hint"), [
    (["describe", "examples/rtm-new-ability"], 1, "not-a-game",
     "this is an overlay ('rtm-new-ability', on 'race-to-mars'), not a game",
     "race-to-mars --with examples/rtm-new-ability"),
    (["play", "target-jupiter"], 2, "not-found", "'target-jupiter' is an expansion of 'rocketmen', not a game",
     "rocketmen --with target-jupiter"),
    (["describe", "race-to-mars", "--with", "games/rocketmen"], 1, "not-an-overlay",
     "this is a game ('rocketmen'), not an overlay", "load it as the game: games/rocketmen"),
    (["simulate", "race-to-mars", "--with", "kuhn-poker"], 2, "not-found",
     "'kuhn-poker' is a bundled example, not an expansion or mod", "load it as the game: kuhn-poker"),
])
def test_an_overlay_given_as_a_game_or_a_game_as_an_overlay_says_how_to_load_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], exit_code: int,
        code: str, says: str, hint: str) -> None:
    monkeypatch.chdir(pathlib.Path(__file__).resolve().parent.parent)  # (paths as a user in the project types them)
    got, out, err = run(capsys, *argv)
    assert got == exit_code, (out, err)  # (a name not found is a usage error: 2)
    assert f"error[{code}]: {says}" in err and hint in err.split("hint: ", 1)[1]
    assert err.count("error[") == 1  # one error, not the other kind's keys one by one


# ---- list, describe, schema -----------------------------------------------------------------


def test_list_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0 and "kuhn-poker" in out and "tic-tac-toe" in out and "Examples:" in out
    code, out, _ = run(capsys, "list", "--json")
    entries = json.loads(out)
    assert code == 0
    by_id = {e["id"]: e for e in entries}
    assert by_id["kuhn-poker"]["kind"] == "example" and by_id["kuhn-poker"]["name"] == "Kuhn poker"
    assert all(set(e) == {"id", "kind", "name", "base", "path"} for e in entries)


def test_describe_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "describe", "kuhn-poker")
    assert code == 0
    for text in ("Kuhn poker", "Players: 2", "hand (player, cards visible to owner", "king: King x1 in deck",
                 "bet (during bet; ends the turn)", "Assumptions (0)", "random:"):
        assert text in out, text
    code, out, _ = run(capsys, "describe", TTT, "--json")
    info = json.loads(out)
    assert code == 0 and info["id"] == "tic-tac-toe"
    assert [a["id"] for a in info["actions"]] == ["place"]
    assert [e["id"] for e in info["end"]] == ["three-in-a-row", "full-grid"]
    assert "when" in info["end"][0] and info["assumptions"] == []
    assert {s["id"] for s in info["seats"]} >= {"human", "random", "first"}


def test_describe_lists_assumptions(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, """
        assumptions:
          - {id: board, text: "The rulebook shows no board."}
        counters:
          score: {scope: player, initial: 0, assumed: "start value not given"}
        actions:
          go: {during: turn, effect: "gain 1 score(me)", ends: turn}
        flow: |
          turn 0:
            take actions turn
    """)
    code, out, _ = run(capsys, "describe", str(path))
    assert code == 0
    assert "Assumptions (2)" in out and "assumptions.board: The rulebook shows no board." in out
    assert "counters.score: start value not given" in out


def test_schema_is_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0 and json.loads(out)["type"] == "object"
    code, out, _ = run(capsys, "schema", "--overlay")
    assert code == 0 and isinstance(json.loads(out), dict)


# ---- validate -------------------------------------------------------------------------------


def test_validate_ok(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", KUHN, "tic-tac-toe")
    assert code == 0
    assert f"ok: {KUHN} (Kuhn poker: 3 cards, 2 actions)" in out
    assert "ok: tic-tac-toe (Tic-tac-toe: 0 cards, 1 action)" in out


def test_validate_broken_file(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, """
        counters:
          score: {scope: player, initial: 0, colour: red}
        actions:
          go: {during: turn, effect: "gain 1 scor(me)", ends: turn}
        flow: |
          turn 0:
            take actions turn
    """)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    found = list(DIAGNOSTIC.finditer(out))
    assert found, out
    assert all(m["path"] == str(path) and int(m["line"]) > 0 and int(m["col"]) > 0 for m in found)
    assert "ok:" not in out
    code, out, _ = run(capsys, "validate", str(path), "--json")
    items = json.loads(out)
    assert code == 1 and items
    assert all({"path", "line", "column", "severity", "code", "message"} <= set(d) for d in items)
    assert items[0]["severity"] == "error" and items[0]["path"] == str(path)


def test_validate_bad_yaml(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("orrery: 1\nid: broken\nname: [unclosed\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and DIAGNOSTIC.search(out)


def test_validate_reports_runtime_error_in_setup(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, DIVIDE_BY_ZERO.replace("flow: |", 'setup: "set zero to 1 / zero"\nflow: |'))
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1 and "error[runtime-error]" in out and "division by zero" in out


def test_validate_unknown_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "validate", "kuhn-pokr")
    assert code == 2  # an unknown name is a usage error
    assert "error[not-found]" in out and "did you mean 'kuhn-poker'" in out


def test_validate_overlay_applies_to_base(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    overlay = tmp_path / "mod.yaml"
    overlay.write_text("orrery: 1\noverlay: tiny-mod\nbase: tic-tac-toe\nname: Tiny\n"
                       "patch: {actions: {place: {label: \"X marks {cell}\"}}}\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(overlay))
    assert code == 0 and "overlay tiny-mod on Tic-tac-toe" in out
    overlay.write_text("orrery: 1\noverlay: tiny-mod\nbase: tic-tac-toe\nname: Tiny\n"
                       "patch: {actions: {plase: {label: x}}}\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(overlay))
    assert code == 1 and "overlay-missing" in out and "did you mean 'place'" in out


# ---- play -----------------------------------------------------------------------------------


def test_play_all_agents_to_the_end(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    log = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seats", "random,first", "--seed", "3", "--log", str(log))
    assert code == 0
    assert "Game over" in out and "Returns:" in out and re.search(r"^P[12]: mark cell \d$", out, re.M)
    data = log_data(log)
    assert data["format"] == "orrery-log/1" and data["seed"] == 3 and data["seats"] == ["random", "first"]
    assert data["result"] is not None and data["result"]["actions"] == len(data["actions"])


def test_play_human_numbers_text_bad_entry_quit(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: pathlib.Path) -> None:
    log = tmp_path / "ttt.json"
    answers(monkeypatch, "place 4", "12", "xyz", "", "help", "log", "1", "quit")
    code, out, _ = run(capsys, "play", TTT, "--seats", "human,first", "--seed", "1", "--log", str(log))
    assert code == 0
    assert "There is no action 12" in out
    assert "'xyz' is not a legal action now" in out
    assert "Commands:" in out and "P1: mark cell 4" in out  # help, then log shows the first move
    assert "P2: mark cell 0" in out
    assert "saved to" in out and "--resume" in out
    assert log_data(log)["actions"] == ["place 4", "place 0", "place 1", "place 2"]
    assert log_data(log)["result"] is None


def test_play_end_of_input_is_clean(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                    tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    answers(monkeypatch, "1")
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--seats", "human,first", "--seed", "1")
    assert code == 0 and "No more input" in out
    saved = list(tmp_path.glob("*.orrery-log.json"))
    assert len(saved) == 1 and log_data(saved[0])["actions"] == ["place 0", "place 1"]


def test_play_interrupted_saves_and_exits_130(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    replies = iter(["1"])

    def read(_console: object, _prompt: str) -> str:
        for reply in replies:
            return reply
        raise KeyboardInterrupt

    monkeypatch.setattr("interpreter.play.terminal.Console.read", read)
    code, out, err = run(capsys, "play", "tic-tac-toe", "--seats", "human,first", "--seed", "1")
    assert code == 130 and "interrupted" in err and "--resume" in out
    saved = list(tmp_path.glob("*.orrery-log.json"))
    assert len(saved) == 1 and log_data(saved[0])["actions"] == ["place 0", "place 1"]


def test_play_shows_only_the_humans_view(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    state = load_game(KUHN).new_initial_state(2, seed=11, seats=["human", "random"])
    names = {c.id: c.name for c in state.gd.cards}  # people read cards by name
    mine = names[state.observation(0)["zones"]["hand"][0]["cards"][0].split("#")[0]]
    theirs = names[state.observation(1)["zones"]["hand"][1]["cards"][0].split("#")[0]]
    answers(monkeypatch, "quit")
    code, out, _ = run(capsys, "play", KUHN, "--seed", "11")
    assert code == 0
    assert mine in out and theirs not in out and "#" not in out
    assert "P2 1 card (hidden)" in out
    assert "1. pass" in out and "2. bet" in out


def test_log_resume_and_replay_verify(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                      tmp_path: pathlib.Path) -> None:
    log = tmp_path / "ttt.json"
    answers(monkeypatch, "place 4", "1", "quit")
    assert run(capsys, "play", TTT, "--seats", "human,first", "--seed", "1", "--log", str(log))[0] == 0
    answers(monkeypatch, "place 7")
    code, out, _ = run(capsys, "play", "--resume", str(log))
    assert code == 0 and "resumed after 4 actions" in out and "Winner: P1 (human)" in out
    data = log_data(log)
    assert data["actions"] == ["place 4", "place 0", "place 1", "place 2", "place 7"]
    assert data["result"]["winners"] == [0]

    code, out, _ = run(capsys, "replay", str(log), "--verify")
    assert code == 0 and "verified" in out and "   2. P2: mark cell 0" in out  # in words: the action's label

    tampered = tmp_path / "tampered.json"
    bad = dict(data, actions=["place 4", "place 4", *data["actions"][2:]])
    tampered.write_text(json.dumps(bad), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(tampered), "--verify")
    assert code == 1 and "action 2 of 5 ('place 4')" in err and "not legal" in err

    bad = dict(data, result=dict(data["result"], winners=[1]))
    tampered.write_text(json.dumps(bad), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(tampered), "--verify")
    assert code == 1 and "winners: log [1], replay [0]" in err

    bad = dict(data, data_hash="0123456789abcdef")
    tampered.write_text(json.dumps(bad), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(tampered), "--verify")
    assert code == 1 and "0123456789abcdef" in err and data["data_hash"] in err


def test_resume_continues_as_if_never_stopped(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: pathlib.Path) -> None:
    whole, parts = tmp_path / "whole.json", tmp_path / "parts.json"
    answers(monkeypatch, *["1"] * 5)
    assert run(capsys, "play", TTT, "--seats", "human,random", "--seed", "8", "--log", str(whole))[0] == 0
    answers(monkeypatch, "1", "quit")
    assert run(capsys, "play", TTT, "--seats", "human,random", "--seed", "8", "--log", str(parts))[0] == 0
    answers(monkeypatch, *["1"] * 4)
    assert run(capsys, "play", "--resume", str(parts))[0] == 0
    assert log_data(parts)["actions"] == log_data(whole)["actions"]
    assert log_data(parts)["result"] == log_data(whole)["result"] is not None


def test_play_rule_error_keeps_the_log(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, DIVIDE_BY_ZERO)
    log = tmp_path / "boom.json"
    # Seed 1 makes P1's random agent pick `boom` (see test_simulate_counts_errors).
    code, _, err = run(capsys, "play", str(path), "--seats", "random,random", "--seed", "1", "--log", str(log))
    assert code == 1 and "division by zero" in err and "game.yaml:" in err
    assert log_data(log)["actions"] == [] and log_data(log)["result"] is None


def test_log_into_missing_folder(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    code, _, err = run(capsys, "play", "tic-tac-toe", "--seats", "first,first", "--log",
                       str(tmp_path / "no" / "such" / "log.json"))
    assert code == 1 and "cannot write the log" in err


def test_replay_of_a_moved_game(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, DIVIDE_BY_ZERO.replace("boom:", "later:").replace("10 / zero", "2"))
    log = tmp_path / "toy.json"
    assert run(capsys, "play", str(path), "--seats", "first,first", "--log", str(log))[0] == 0
    moved = tmp_path / "moved"
    path.parent.rename(moved)
    code, _, err = run(capsys, "replay", str(log))
    assert code == 1 and "which is gone" in err
    code, out, _ = run(capsys, "replay", str(log), "--game", str(moved), "--verify")
    assert code == 0 and "verified" in out


def test_corrupt_log_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    for argv in (["replay", str(path)], ["play", "--resume", str(path)]):
        code, _, err = run(capsys, *argv)
        assert code == 1 and "not an orrery log" in err and str(path) in err
    path.write_text(json.dumps({"format": "orrery-log/1", "game": "tic-tac-toe"}), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(path))
    assert code == 1 and "corrupt log" in err
    code, _, err = run(capsys, "replay", str(tmp_path / "missing.json"))
    assert code == 1 and "missing.json" in err


def test_log_round_trip() -> None:
    state = play_game(load_game("tic-tac-toe"), 2, ["first", "first"], seed=2)
    from interpreter.play.logs import new_log

    log = new_log(state.game, "tic-tac-toe", [], 2, ["first", "first"], 2)
    log.record(state)
    again = parse_log(log.to_json())
    assert again == log and again.result is not None and again.result["winners"] == [0]
    with pytest.raises(Exception, match="seats"):
        parse_log(json.dumps(dict(log.to_dict(), seats=["first"])))


# ---- simulate -------------------------------------------------------------------------------


def test_simulate_json_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "kuhn-poker", "--games", "40", "--seed", "5", "--json")
    summary = json.loads(out)
    assert code == 0
    for key in ("game", "games", "seed", "players", "seats", "wins", "mean_length", "errors", "error_samples",
                "seconds", "mean_returns", "draws"):
        assert key in summary, key
    assert summary["game"] == "kuhn-poker" and summary["games"] == 40 and summary["seed"] == 5
    assert summary["seats"] == ["random", "random"] and sum(summary["wins"]) == 40
    assert set(summary["mean_length"]) >= {"actions", "rounds"}
    assert abs(sum(summary["mean_returns"])) < 1e-9  # chips are zero-sum


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "tic-tac-toe", "--games", "10", "--seats", "first,random")
    assert code == 0 and "Tic-tac-toe: 10 games" in out and "P1 (first)" in out and "Errors: 0" in out


def test_simulate_same_results_for_any_workers(capsys: pytest.CaptureFixture[str]) -> None:
    results = []
    for workers in ("1", "2"):
        code, out, _ = run(capsys, "simulate", "tic-tac-toe", "--games", "30", "--seed", "100",
                           "--workers", workers, "--json")
        assert code == 0
        summary = json.loads(out)
        for key in ("seconds", "games_per_second", "workers"):
            summary.pop(key)
        results.append(summary)
    assert results[0] == results[1]


def test_simulate_counts_errors(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, DIVIDE_BY_ZERO)
    code, out, _ = run(capsys, "simulate", str(path), "--games", "20", "--json")
    summary = json.loads(out)
    assert code == 1
    assert 0 < summary["errors"] < 20 and summary["completed"] == 20 - summary["errors"]
    assert len(summary["error_samples"]) == min(5, summary["errors"])
    sample = summary["error_samples"][0]
    assert isinstance(sample["seed"], int) and "division by zero" in sample["message"]


def test_simulate_caps_endless_games(tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, """
        actions:
          wait: {during: turn, effect: "stop", ends: turn}
        flow: |
          repeat forever:
            turn 0:
              take actions turn
    """)
    spec = SimulationSpec(str(path), (), (), 2, ("random", "random"), max_actions=50)
    summary = simulate(spec, games=3, seed=1)
    assert summary["errors"] == 3 and "within 50 actions" in summary["error_samples"][0]["message"]


# ---- agents and runner ------------------------------------------------------------------------


def test_agents_are_seeded_by_game_seed_and_seat() -> None:
    game = load_game("tic-tac-toe")
    a = play_game(game, 2, ["random", "random"], seed=4).history
    b = play_game(game, 2, ["random", "random"], seed=4).history
    assert a == b
    assert len({tuple(play_game(game, 2, ["random", "random"], seed=s).history) for s in range(10)}) > 1
    gd = game.definition
    assert isinstance(create_agent("random", gd, 1, 0), RandomAgent)
    assert isinstance(create_agent("first", gd, 1, 0), FirstAgent)
    with pytest.raises(GameError, match="played by a person"):
        create_agent("human", gd, 1, 0)


def test_play_game_reports_each_action() -> None:
    seen: list[tuple[int, str]] = []
    state = play_game(load_game(KUHN), 2, ["first", "first"], seed=3,
                      on_action=lambda _s, player, text: seen.append((player, text)))
    assert state.is_terminal() and [t for _, t in seen] == state.history and seen[0][0] == 0


def test_read_log_checks_the_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(Exception, match="not an orrery log"):
        read_log(path)


# ---- as a user runs it ------------------------------------------------------------------------


def _python_m(cwd: pathlib.Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "interpreter", *argv], input=stdin, capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=120, check=False)


def test_python_m_runs_commands(tmp_path: pathlib.Path) -> None:
    done = _python_m(tmp_path, "list")
    assert done.returncode == 0 and "tic-tac-toe" in done.stdout
    done = _python_m(tmp_path, "play", "tic-tac-toe", "--seats", "human,first", "--seed", "1", stdin="1\n2\nquit\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert len(list(tmp_path.glob("*.orrery-log.json"))) == 1  # quitting without --log still keeps the game


def test_python_m_errors_without_traceback(tmp_path: pathlib.Path) -> None:
    broken = tmp_path / "game.yaml"
    broken.write_text("orrery: 1\nid: x\nname: X\nid: again\n", encoding="utf-8")
    for argv, code in ((["validate", str(broken)], 1), (["simulate", "tic-tac-toe", "--workers", "-1"], 2),
                       (["replay", str(tmp_path / "nope.json")], 1), (["describe", "no-such-game"], 2)):
        done = _python_m(tmp_path, *argv)
        assert done.returncode == code, (argv, done.stderr)
        assert "Traceback" not in done.stdout + done.stderr


def test_play_shows_the_games_views_and_all_on_request(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: pathlib.Path) -> None:
    answers(monkeypatch, "all", "quit")
    code, out, _ = run(capsys, "play", TTT, "--seed", "5", "--log", str(tmp_path / "log.json"))
    assert code == 0
    first, _, rest = out.partition("P1> ")
    # The game defines a board view: it stands for the table; the generic listing waits.
    assert "Board" in first and "0 | 1 | 2" in first and "Counters:" not in first
    assert "type 'all'" in first
    assert "Counters:" in rest and "mark" in rest


def test_simulate_alone_counts_wins_not_draws() -> None:
    from interpreter.play.simulate import Outcome, SimulationSpec, summarize

    spec = SimulationSpec("x", (), (), 1, ("random",))
    summary = summarize(spec, [Outcome(1, (0,), (1.0,)), Outcome(2, (), (-1.0,))], 1)
    assert summary["wins"] == [1] and summary["draws"] == 0


CHOICE_OF_CARDS = """
zones:
  hand: {scope: player, visible: owner}
  table: {scope: global, visible: all}
cards:
  mission: {name: Spaceship Mission, properties: {text: "Gives $2 and 1 rocket"}}
  probe: {name: Deep Probe}
setup: |
  create 1 "mission" in hand(0)
  create 1 "probe" in hand(0)
flow: |
  choose c from hand(0) by 0 prompt "which card goes to the table?"
  move c to table
"""


def test_a_choice_of_cards_shows_names_and_texts_not_copy_numbers(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    from conftest import write_toy

    path = write_toy(tmp_path, CHOICE_OF_CARDS)
    answers(monkeypatch, "deep probe")  # what the person was shown, not `probe#1`
    code, out, _ = run(capsys, "play", str(path.parent), "--seats", "human,random")
    assert code == 0, out
    assert "1. Spaceship Mission: Gives $2 and 1 rocket" in out and "2. Deep Probe" in out
    assert "#0" not in out.split("Choose (")[1].split("\n\n")[0]
    assert "table: Deep Probe" in out  # the typed name picked the Deep Probe


SEAT_RULES = """
players:
  min: 2
  max: 3
  seats:
    - {default: human, accepts: [human]}
    - {default: first}
flow: |
  take actions main for 0
actions:
  stop: {during: main, ends: turn}
"""


def test_play_follows_the_seat_rules_of_the_data_and_simulate_does_not(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    from conftest import write_toy

    folder = str(write_toy(tmp_path, SEAT_RULES).parent)
    answers(monkeypatch, "quit")
    code, out, _ = run(capsys, "play", folder, "--players", "3")
    assert code == 0 and "Seats: P1 human, P2 first, P3 first" in out
    code, _, err = run(capsys, "play", folder, "--seats", "random,first")
    assert code == 2 and "seat 1 of Toy takes human in play, not 'random'" in err
    code, out, _ = run(capsys, "simulate", folder, "--seats", "random,random", "--games", "2")
    assert code == 0
    code, out, _ = run(capsys, "describe", folder)
    assert "Seat 1 in play: human by default, accepts human" in out and "Seat 2 and later in play: first" in out


def test_seat_rules_naming_unknown_kinds_are_diagnostics(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: pathlib.Path) -> None:
    from conftest import write_toy

    bad = SEAT_RULES.replace("accepts: [human]}", "accepts: [humna]}").replace("{default: first}",
                                                                             "{default: bot, accepts: [random]}")
    path = write_toy(tmp_path, bad)
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    assert f"{path}:8:34: error[unknown-name]: no kind of seat 'humna'" in out and "did you mean 'human'?" in out
    assert f"{path}:9:17: error[unknown-name]: no kind of seat 'bot'" in out
    assert "2 errors" in out  # no follow-on error about the default that the typo explains


# ---- files: what --log overwrites, what is read, what is quoted, signed logs ------------------

SIGN_KEY = "a key of sixteen bytes or more"
SECRET = "SECRET-LINE: do not print me ["


def _secret(tmp_path: pathlib.Path, name: str) -> pathlib.Path:
    path = tmp_path / name
    path.write_text(f"{SECRET}\nmore: secrets\n", encoding="utf-8")
    return path


def test_log_writes_only_a_new_file_or_a_log_of_the_same_game(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: pathlib.Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("precious\n", encoding="utf-8")
    kuhn = tmp_path / "kuhn.json"
    assert run(capsys, "play", "kuhn-poker", "--seats", "first,first", "--log", str(kuhn))[0] == 0
    kuhn_before = kuhn.read_bytes()
    for target, words in ((notes, "exists and is not an orrery log; orrery does not overwrite it"),
                          (kuhn, "an orrery log of another game ('kuhn-poker', not 'tic-tac-toe')"),
                          (tmp_path, "it is a folder; give a file name"),
                          (tmp_path / "no" / "log.json", "does not exist")):
        code, out, err = run(capsys, "play", "tic-tac-toe", "--seats", "first,first", "--log", str(target))
        assert code == 1 and f"cannot write the log {target}" in err and words in err, err
        assert "Seats:" not in out  # refused before the game starts
    assert notes.read_text(encoding="utf-8") == "precious\n" and kuhn.read_bytes() == kuhn_before
    # The same game's log is overwritten (a new game) and extended by --resume.
    assert run(capsys, "play", "kuhn-poker", "--seats", "first,first", "--log", str(kuhn), "--seed", "2")[0] == 0
    assert log_data(kuhn)["seed"] == 2


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null here")
def test_log_never_replaces_a_device(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "play", "tic-tac-toe", "--seats", "first,first", "--log", "/dev/null")
    assert code == 1 and "not a regular file" in err
    assert pathlib.Path("/dev/null").is_char_device()


def test_resume_writes_only_over_a_log_of_the_game(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: pathlib.Path) -> None:
    log, notes = tmp_path / "ttt.json", tmp_path / "notes.txt"
    notes.write_text("precious\n", encoding="utf-8")
    answers(monkeypatch, "1", "quit")
    assert run(capsys, "play", TTT, "--seats", "human,first", "--seed", "1", "--log", str(log))[0] == 0
    code, _, err = run(capsys, "play", "--resume", str(log), "--log", str(notes))
    assert code == 1 and "is not an orrery log" in err and notes.read_text(encoding="utf-8") == "precious\n"


def test_replay_refuses_devices_pipes_and_huge_files(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: pathlib.Path) -> None:
    huge = tmp_path / "huge.json"
    with huge.open("wb") as handle:
        handle.truncate(2 * 1024 ** 3)  # 2 GB, sparse: it once ended in MemoryError
    code, _, err = run(capsys, "replay", str(huge))
    assert code == 1 and "larger than 64 MB, too large for an orrery log" in err
    if os.path.exists("/dev/zero"):  # it was read forever
        code, _, err = run(capsys, "replay", "/dev/zero")
        assert code == 1 and "/dev/zero: not a regular file" in err
    if hasattr(os, "mkfifo"):  # it waited for a writer forever
        os.mkfifo(tmp_path / "pipe")
        code, _, err = run(capsys, "play", "--resume", str(tmp_path / "pipe"))
        assert code == 1 and "not a regular file" in err
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 1 and "a folder, not an orrery log" in err


def test_files_that_are_not_rules_are_not_quoted(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    for name in ("passwd", "notes.yaml"):
        secret = _secret(tmp_path, name)
        for argv in (["play", "tic-tac-toe", "--seats", "first,first", "--with", str(secret)],
                     ["play", str(secret)], ["describe", str(secret)], ["validate", str(secret)],
                     ["validate", str(secret), "--json"], ["simulate", "tic-tac-toe", "--with", str(secret)]):
            code, out, err = run(capsys, *argv)
            assert code == 1 and "SECRET" not in out + err and "secrets" not in out + err, argv
            assert "not-rule-file" in out + err and "not an orrery rule file" in out + err, argv
    broken = tmp_path / "game.yaml"  # a rule file is quoted as before
    broken.write_text("orrery: 1\nid: x\nname: X\nbogus_key: 1\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(broken))
    assert code == 1 and "\n    bogus_key: 1\n" in out and "not-rule-file" not in out


def test_a_log_naming_files_that_are_not_rules_is_refused(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: pathlib.Path) -> None:
    log = tmp_path / "game.json"
    assert run(capsys, "play", "tic-tac-toe", "--seats", "first,first", "--log", str(log))[0] == 0
    secret = _secret(tmp_path, "private.yaml")
    for change, words in (({"source": str(secret)}, "as its game"),
                          ({"overlays": [str(secret)]}, "as its expansion or mod"),
                          ({"source": "../../etc/x y\x07"}, "corrupt log: 'source' must be")):
        evil = tmp_path / "evil.json"
        evil.write_text(json.dumps(dict(log_data(log), **change)), encoding="utf-8")
        for argv in (["replay", str(evil)], ["play", "--resume", str(evil)]):
            code, out, err = run(capsys, *argv)
            assert code == 1 and words in err and "SECRET" not in out + err, (argv, err)


def test_signed_logs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                     tmp_path: pathlib.Path) -> None:
    key = tmp_path / "key"
    key.write_text(SIGN_KEY + "\n", encoding="utf-8")
    log = tmp_path / "game.json"
    answers(monkeypatch, "1", "quit")
    assert run(capsys, "play", TTT, "--seats", "human,first", "--log", str(log), "--sign-key-file", str(key))[0] == 0
    assert log_data(log)["signature"].startswith("hmac-sha256:")
    answers(monkeypatch, "1", "1", "1")
    assert run(capsys, "play", "--resume", str(log), "--sign-key-file", str(key))[0] == 0  # checked, signed again
    assert run(capsys, "replay", str(log), "--verify", "--sign-key-file", str(key))[0] == 0
    monkeypatch.setenv("ORRERY_SIGN_KEY", SIGN_KEY)  # the key from the environment
    assert run(capsys, "replay", str(log), "--verify")[0] == 0

    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(dict(log_data(log), seed=log_data(log)["seed"] + 1), indent=4), encoding="utf-8")
    code, _, err = run(capsys, "replay", str(changed))
    assert code == 1 and "this log was changed after it was signed" in err
    unsigned = tmp_path / "unsigned.json"
    unsigned.write_text(json.dumps({k: v for k, v in log_data(log).items() if k != "signature"}), encoding="utf-8")
    code, _, err = run(capsys, "play", "--resume", str(unsigned))
    assert code == 1 and "this log is not signed" in err

    monkeypatch.delenv("ORRERY_SIGN_KEY")  # no key: signatures are not looked at
    assert run(capsys, "replay", str(unsigned), "--verify")[0] == 0
    assert run(capsys, "replay", str(changed))[0] == 0
    short = tmp_path / "short"
    short.write_text("tiny\n", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(log), "--sign-key-file", str(short))
    assert code == 1 and "a signing key needs 16 at least" in err
