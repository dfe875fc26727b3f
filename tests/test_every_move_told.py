"""Every move told (#31): game bots' picks (setup included) in words, a table of bots
alone narrated, a sealed pick told by its label once revealed, what a move loses named,
and the end screen saying why the game ended and how each final score is made up.

Each test drives `orrery play` through piped standard input, or reads a state's game log.
"""

from __future__ import annotations

import io
import pathlib
import re
import sys

import pytest

from interpreter import load_game
from interpreter.cli import main

SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
CANONICAL_CARD = re.compile(r"[a-z0-9_-]#\d")


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str],
         *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


def test_a_game_bots_setup_picks_are_told_before_the_first_decision_and_hidden_cards_stay_hidden(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["1", "1", "quit"], "race-to-mars", "--seats", "human,pilot", "--seed", "3")
    assert code == 0
    first_decision = out.index("=== Your decision")
    assert "P2 (pilot): choose your launch pad: 0" in out[:first_decision]
    # the bot keeps a Headquarters card from its own hidden hand: told, but not which
    assert "P2 (pilot): keep one Headquarters: a hidden card" in out
    assert not CANONICAL_CARD.search(out)


def test_a_table_of_game_bots_alone_is_narrated_and_its_scores_are_explained(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = play(capsys, monkeypatch, [], "rocketmen", "--seats", "rocket-bot,rocket-bot", "--seed", "3")
    assert code == 0
    course = out.split("Game over")[0]
    assert "| P1 buys Ion Drive" in course and "which card do you discard as payment: " in course
    assert "launch fails: " in course and "go to the discard pile" in course  # what a failed launch loses
    assert "Game over: a player reached the VP threshold" in out
    # each score is the VP track (as the table shows it) plus the goal laid down at the end
    scores = re.findall(r"  P(\d) (\d+) = VP track (\d+) \+ best Personal Goal, laid down at the end (\d+)", out)
    assert len(scores) == 2
    track = re.search(r"\n  VP \(victory track\): P1 (\d+) \| P2 (\d+)", out)
    assert track is not None
    for (_, total, vp, goal), shown in zip(scores, track.groups(), strict=True):
        assert int(total) == int(vp) + int(goal) and vp == shown
    assert "0 actions" not in out
    assert not CANONICAL_CARD.search(course)


def test_a_jettison_names_the_module_it_removes() -> None:
    state = load_game("race-to-mars").new_initial_state(2, 3, ["pilot", "pilot"])
    jettisons = [line for line in state.log if "jettisons" in line]
    assert jettisons and not any(re.search(r"jettisons module \d+$", line) for line in jettisons)
    assert any("jettisons the module " in line and "from the rocket" in line for line in jettisons)


TOY = """
orrery: 1
id: sealed-toy
name: Sealed toy
players: {min: 2, max: 2}
counters:
  bid: {scope: player, initial: 0, min: 0, max: 3}
actions:
  hold_back:
    label: "hold back and watch"
    during: throw
    effect: "set bid(me) to 0"
  raise_the_bid:
    label: "raise the bid by {n}"
    params: {n: "[1, 2]"}
    during: throw
    effect: "set bid(me) to n"
flow: |
  round:
    take actions throw simultaneously
    end game
scoring:
  score: "bid(p)"
"""


def test_sealed_picks_are_told_by_their_labels_once_revealed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.yaml").write_text(TOY)
    code, out = play(capsys, monkeypatch, ["hold back and watch", "log"], str(tmp_path / "game.yaml"),
                     "--seats", "human,first", "--seed", "1")
    assert code == 0, out
    revealed = out.split("All have chosen. ")[1].split("\n")[0]
    assert revealed == "P1 (you): hold back and watch; P2: hold back and watch"
    assert "hold_back" not in out and "[hold_back]" not in out


# ---- taking back a slip (undo) --------------------------------------------------------------------


def test_undo_takes_back_ones_own_decisions_and_the_log_records_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    import json

    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["1", "1", "undo", "undo", "undo", "quit"], "rocketmen", "--seed", "3",
                     "--log", "game.json")
    assert code == 0
    first = out.split("P1> ")[0]
    assert "(undo: take back" not in first  # nothing to take back at the start
    assert out.count(" takes back: ") == 2 and "Nothing to take back now" in out
    # after taking both back, the first decision is offered again, the same
    options = first.split("Choose (")[1]
    assert options in out.split("Nothing to take back now")[0].split(" takes back: ")[-1]
    saved = json.loads((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert saved["actions"] == [] and [u["after"] for u in saved["undone"]] == [1, 0]
    assert saved["undone"][1]["action"].startswith("buy ")
    code, out = play(capsys, monkeypatch, ["quit"], "--resume", "game.json")  # the record reads back
    assert code == 0 and "resumed after 0 actions" in out
    assert '"undone"' in (tmp_path / "game.json").read_text(encoding="utf-8")


def test_undo_stops_where_something_new_was_seen(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    # choosing a lane deals P1 two Headquarters cards: taking the lane back would let P1 choose again knowing them
    code, out = play(capsys, monkeypatch, ["1", "undo", "quit"], "race-to-mars", "--seats", "human,pilot",
                     "--seed", "3")
    assert code == 0 and "Nothing to take back now" in out and " takes back: " not in out
