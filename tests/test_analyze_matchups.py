"""`orrery analyze --duplicate / --tournament / --ladder`: seats rotated over the same
seeds, agents set against each other, and a skill ladder flagged when more search does
not win more. The arithmetic is checked with games written by hand; the command once
on tic-tac-toe, where search beats random play and the first seat has the edge."""

from __future__ import annotations

import json
import pathlib

import pytest

from interpreter.cli import main
from interpreter.play.analyze import analyze
from interpreter.play.matchups import FLAT_LADDER, parse_kinds, parse_ladder, rotated, skill_ladder, tournament
from interpreter.play.seating import UsageError
from interpreter.play.simulate import Outcome, SimulationSpec, outcomes
from interpreter.play.stats import binomial_p

TTT = SimulationSpec("examples/tic-tac-toe", (), (), 2, ("random", "first"))


def test_kinds_and_ladders_are_read_as_written() -> None:
    assert parse_kinds("ismcts,random") == ["ismcts", "random"]
    assert parse_kinds("ismcts:iterations=50,c=1.4,rocket-bot") == ["ismcts:iterations=50,c=1.4", "rocket-bot"]
    assert parse_ladder("ismcts:iterations=25,50,100") == [f"ismcts:iterations={n}" for n in (25, 50, 100)]
    assert parse_ladder("mcts:iterations=1,2,c=2") == ["mcts:iterations=1,c=2", "mcts:iterations=2,c=2"]
    for bad in ("ismcts", "ismcts:iterations=25", "ismcts:iterations=1,2,c=1,3", "x:,"):
        with pytest.raises(UsageError):
            parse_ladder(bad)
    with pytest.raises(UsageError):
        parse_kinds("a,,b")
    assert rotated(("a", "b", "c"), 1) == ("c", "a", "b")


def _fake(winner_of: dict[str, float]) -> object:
    """Plays nothing: in game i the seat of the kind named wins when i's share is under its rate."""
    def play(spec: SimulationSpec, games: int, seed: int) -> list[Outcome]:
        result = []
        for i in range(games):
            strong = [p for p, kind in enumerate(spec.seats) if (i % 100) / 100 < winner_of.get(kind, 0.0)]
            result.append(Outcome(seed + i, winners=(strong[0],) if strong else ((i + seed) % 2,)))
        return result
    return play


def test_a_ladder_that_does_not_climb_is_flagged() -> None:
    spec = SimulationSpec("g", (), (), 2, ("x", "x"))
    kinds = ["k:n=1", "k:n=2", "k:n=4"]
    climbing = skill_ladder(spec, "k:n=1,2,4", kinds, 200, 1, _fake({"k:n=2": 0.3, "k:n=4": 0.9}))
    assert [s["verdict"] for s in climbing["steps"]] == ["gains", "gains"] and not climbing["flat"]
    flat = skill_ladder(spec, "k:n=1,2,4", kinds, 200, 1, _fake({}))  # a coin decides every game
    assert [s["verdict"] for s in flat["steps"]] == ["flat", "flat"] and flat["flat"]
    assert flat["message"] == FLAT_LADDER
    step = flat["steps"][0]
    assert step["games"] == 200 and step["low"] < 0.5 < step["high"] and step["a"] == "k:n=2"
    few = skill_ladder(spec, "k:n=1,2,4", kinds, 6, 1, _fake({}))  # a few games: the intervals say nothing
    assert [s["verdict"] for s in few["steps"]] == ["unclear", "unclear"] and not few["flat"]
    assert few["message"].startswith("too few games")


def test_a_tournament_of_two_seats_mirrors_its_cells() -> None:
    spec = SimulationSpec("g", (), (), 2, ("x", "x"))
    result = tournament(spec, ["a", "b", "c"], 100, 1, _fake({"a": 0.8, "b": 0.4}))
    cells = {(c["a"], c["b"]): c for c in result["cells"]}
    assert len(cells) == 6 and cells[("a", "b")]["score"] + cells[("b", "a")]["score"] == pytest.approx(1.0)
    assert cells[("a", "c")]["low"] > 0.5 and cells[("a", "c")]["significant"]
    assert [r["kind"] for r in result["standings"]] == ["a", "b", "c"]


def test_duplicate_deals_rotate_the_seats_over_the_same_seeds() -> None:
    report = analyze(TTT, 30, 1, duplicate_deals=True)
    dup = report["duplicate"]
    assert dup["rotations"] == 2 and dup["paired_seeds"] == 30
    swapped = list(outcomes(SimulationSpec("examples/tic-tac-toe", (), (), 2, ("first", "random")), 30, 1))
    straight = list(outcomes(TTT, 30, 1))
    first_wins = sum(o.winners == (1,) for o in straight) + sum(o.winners == (0,) for o in swapped)
    agents = {r["kind"]: r for r in dup["agents"]}
    assert agents["first"]["rate"] == pytest.approx(first_wins / 60, abs=1e-4)
    seat_one = sum(o.winners == (0,) for o in straight + swapped)
    assert dup["positions"][0]["rate"] == pytest.approx(seat_one / 60, abs=1e-4)
    assert dup["positions"][0]["significant"]  # the first move wins tic-tac-toe between weak players


def test_the_command_line_plays_a_tournament_and_a_ladder(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: pathlib.Path) -> None:
    page = tmp_path / "r.html"
    argv = ["analyze", "examples/tic-tac-toe", "--games", "20", "--tournament", "random,mcts:iterations=30",
            "--ladder", "mcts:iterations=1,30", "--duplicate", "--json", "--report", str(page)]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    html = page.read_text(encoding="utf-8")
    order = ["What stands out", "Skill ladder", "Tournament", "Duplicate deals", "Win rate per seat", "Game length"]
    assert [html.index(h) for h in order] == sorted(html.index(h) for h in order)
    assert ">30 vs 1<" in html and "<script" not in html  # a ladder step is named by its budgets
    assert report["tournament"]["standings"][0]["kind"] == "mcts:iterations=30"
    assert report["skill_ladder"]["steps"][0]["verdict"] == "gains" and not report["skill_ladder"]["flat"]
    assert main(["analyze", "examples/tic-tac-toe", "--tournament", "random,nobody"]) == 2
    assert "unknown seat 'nobody'" in capsys.readouterr().err
    assert main(["analyze", "examples/tic-tac-toe", "--tournament", "random"]) == 2
    assert main(["analyze", "examples/tic-tac-toe", "--ladder", "mcts:iterations=5"]) == 2


def test_a_handful_of_games_is_not_called_significant() -> None:
    assert binomial_p(4, 4, 0.5) == 0.125 and binomial_p(2, 4, 0.5) == 1.0
    assert binomial_p(60, 100, 0.5) == pytest.approx(0.0569, abs=1e-4)  # exact, where a z test says 0.0455
    spec = SimulationSpec("g", (), (), 2, ("x", "x"))
    four = tournament(spec, ["a", "b"], 4, 1, _fake({"a": 1.0}))["cells"][0]  # a wins all 4
    assert four["score"] == 1.0 and not four["significant"] and 0.4 < four["low"] < 0.6 and four["high"] == 1.0
    many = tournament(spec, ["a", "b"], 40, 1, _fake({"a": 1.0}))["cells"][0]
    assert many["significant"] and many["low"] > 0.9
