"""`orrery analyze`'s table figures: every seat's advantage, stalemates (games ended by
a bound the rules mark, or by the action cap) and the shape of a game (lead changes,
when the winner led for good, forced decisions, branching factor). The figures are
checked on outcomes written by hand, and once on games played."""

from __future__ import annotations

import pathlib

import attrs
import pytest
from conftest import write_toy

from interpreter import load_game
from interpreter.play.analyze import analyze
from interpreter.play.balance import game_shape, seat_advantage, shape, stalemate_ends, stalemates
from interpreter.play.report import render_text
from interpreter.play.simulate import Outcome, SimulationSpec, outcomes

SPEC = SimulationSpec("examples/tic-tac-toe", (), (), 2, ("random", "random"))


def test_every_seat_is_tested_against_the_mean() -> None:
    games = [Outcome(i, winners=(2,) if i < 60 else (i % 2,)) for i in range(100)]
    rows = seat_advantage(games, 3, ("a", "b", "c"))
    assert [r["rate"] for r in rows] == [0.2, 0.2, 0.6] and all(r["expected"] == pytest.approx(1 / 3, abs=1e-4)
                                                                 for r in rows)
    assert [r["significant"] for r in rows] == [True, True, True]
    assert rows[2]["advantage"] == pytest.approx(0.6 - 1 / 3, abs=1e-4) and rows[2]["low"] > 1 / 3
    even = seat_advantage([Outcome(i, winners=(i % 3,)) for i in range(99)], 3, ("a", "b", "c"))
    assert not any(r["significant"] for r in even) and all(r["p_value"] == 1.0 for r in even)
    assert seat_advantage(games, 1, ("a",)) == []


def test_stalemates_count_marked_bounds_and_the_action_cap() -> None:
    games = [Outcome(i, reason="goal") for i in range(90)] + [Outcome(i, reason="round-cap") for i in range(6)]
    games += [Outcome(99, error="the game did not end within 50 actions (an endless game?)"),
              Outcome(98, error="internal error: boom")]
    found = stalemates(games, ["round-cap"])
    assert found["games"] == 7 and found["by_reason"] == {"round-cap": 6} and found["action_cap"] == 1
    assert found["problem"] and "7 of 98 games" in found["message"]
    assert not stalemates(games[:94], ["round-cap"])["problem"]  # 4 of 94: under the threshold
    assert stalemates(games, [])["games"] == 1  # unmarked, a round cap is an ordinary end


def test_the_rules_mark_their_bounds_and_the_report_names_the_problem() -> None:
    assert stalemate_ends(load_game("examples/star-market")) == ["round-cap"]
    assert stalemate_ends(load_game("kuhn-poker")) == []
    report = analyze(SimulationSpec("examples/star-market", (), (), 2, ("random", "random")), 4, 1)
    assert report["stalemates"]["problem"] and report["stalemates"]["games"] == report["end_reasons"]["round-cap"]
    assert "STALEMATES, a design problem" in render_text(report, "Star Market")


def test_a_games_shape_from_its_recorded_scores() -> None:
    path = ((1, (0.0, 0.0)), (2, (1.0, 0.0)), (3, (1.0, 2.0)), (4, (3.0, 2.0)), (5, (4.0, 2.0)))
    game = Outcome(1, winners=(0,), score_history=path, decisions=10, forced=4, branching=30)
    assert game_shape(game) == {"lead_changes": 2, "decided_at": 0.75}  # led for good from turn 4 of 1..5
    assert game_shape(Outcome(2, winners=(0, 1), score_history=path))["decided_at"] is None  # a shared win
    summary = shape([game, Outcome(3, winners=(1,), score_history=((1, (0.0, 1.0)), (2, (0.0, 5.0))), decisions=2,
                                   forced=0, branching=2)])
    assert summary["decisions"] == 12 and summary["forced_share"] == pytest.approx(4 / 12, abs=1e-4)
    assert summary["branching"] == pytest.approx(32 / 12, abs=1e-3)
    assert summary["decided_at"]["games"] == 2 and summary["decided_at"]["mean"] == pytest.approx(0.375)
    assert summary["score_histories"][0]["scores"][1] == {"turn": 2, "scores": [1.0, 0.0]}


def test_shape_is_recorded_while_games_are_played() -> None:
    report = analyze(SPEC, 10, 1)
    shaped = report["shape"]
    # every decision is a move on the board: 9 empty squares at first, one fewer each move,
    # so k moves offer 9 + 8 + ... + (10 - k) choices, and only a ninth move is forced
    actions = [o.actions for o in outcomes(attrs.evolve(SPEC, record=True), 10, 1)]
    assert shaped["decisions"] == sum(actions)
    assert shaped["branching"] == pytest.approx(sum(sum(range(10 - k, 10)) for k in actions) / sum(actions), abs=1e-3)
    assert shaped["forced"] == sum(k == 9 for k in actions)
    assert shaped["games"] == 10 and len(shaped["score_histories"]) == 10


IN_CIRCLES = """
counters:
  vp: {scope: player}
actions:
  wait: {during: main, ends: turn}
  score: {during: main, effect: "gain 1 vp", ends: turn}
flow: |
  repeat 4:
    for each p in players:
      turn p:
        take actions main
scoring:
  score: "vp(p)"
"""


def test_a_position_that_keeps_coming_back_is_noticed(tmp_path: pathlib.Path) -> None:
    spec = SimulationSpec(str(write_toy(tmp_path, IN_CIRCLES)), (), (), 2, ("first", "first"))
    looping = analyze(spec, 3, 1)  # `first` always waits: the same position every turn
    assert looping["stalemates"]["repeated_positions"] == 3
    assert "3 games came back to the same position" in render_text(looping, "Toy")
    scoring = analyze(attrs.evolve(spec, seats=("random", "random")), 20, 1)
    plain = analyze(SPEC, 5, 1)  # every move fills a square: no position comes back
    assert plain["stalemates"]["repeated_positions"] == 0
    assert scoring["stalemates"]["repeated_positions"] < 20
