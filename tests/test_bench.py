"""The benchmark still runs: its quickest mode on one tiny game, checked for the shape of
what it prints and writes (never for speed: no figure here is compared with a bar), and
the parts it is built from, on tiny inputs."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from typing import Any

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import bench_engines  # noqa: E402
import bench_loops  # noqa: E402
import bench_report  # noqa: E402

from interpreter import load_game  # noqa: E402


def _bench(tmp_path: pathlib.Path, *argv: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    out = tmp_path / "bench.json"
    done = subprocess.run([sys.executable, str(BENCH / "bench.py"), *argv, "--json", str(out)],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    return done, json.loads(out.read_text(encoding="utf-8"))


def test_quick_run_on_tic_tac_toe_has_every_part(tmp_path: pathlib.Path) -> None:
    done, data = _bench(tmp_path, "--quick", "--only", "tic-tac-toe", "--seconds", "0.2")
    assert set(data) >= {"machine", "settings", "rows", "openspiel_comparisons", "baseline_comparisons",
                         "growth", "simulate", "bars", "baseline", "openspiel"}
    assert data["settings"]["quick"] and data["settings"]["rounds"] == 4
    ours = [r for r in data["rows"] if r["engine"] == "orrery"]
    # (and today's engine on the old engine's own tic-tac-toe file, when that file differs)
    assert [r["name"] for r in ours] in (["tic-tac-toe"], ["tic-tac-toe", "tic-tac-toe [old rules]"])
    row = ours[0]
    assert row["error"] is None and row["players"] == 2
    assert row["playouts"] > 0 and row["decisions"] >= 5 * row["playouts"]  # a game takes 5 to 9 moves
    assert row["cold_ms"] > 0 and row["load_ms"] > 0 and row["clones"] > 0
    assert row["state_bytes"] > 0 and row["clone_bytes"] > 0
    assert "engine" in done.stdout and "decisions/s" in done.stdout and "bars:" in done.stdout

    if data["baseline"]["status"] == "measured":  # git and the 0.1 commit are here
        old = next(r for r in data["rows"] if r["engine"] == "0.1")
        assert old["error"] is None and old["playouts"] > 0
        # the old engine plays today's file, or its own beside today's engine on it too
        assert old["rules"] == "same" or ours[-1]["name"] == "tic-tac-toe [old rules]"
        comparison = data["baseline_comparisons"][0]
        assert comparison["game"] == "tic-tac-toe" and comparison["decisions_ratio"] > 0
        assert comparison["actions_per_game"][0] > 0 and comparison["actions_per_game"][1] > 0
        assert "orrery / 0.1 engine" in done.stdout
    else:
        assert data["baseline"]["status"].startswith("not measured")

    if data["openspiel"] == "measured":
        engines = {r["engine"]: r for r in data["rows"] if r["engine"].startswith("openspiel")}
        assert set(engines) == {"openspiel-py", "openspiel-c++"}
        assert {c["implementation"] for c in data["openspiel_comparisons"]} == {"python", "c++"}
        assert any(b["bar"].startswith("orrery/OpenSpiel-Python") for b in data["bars"])

    [simulate] = data["simulate"]
    assert simulate["game"] == "tic-tac-toe" and simulate["same_results"] and simulate["speedup"] > 0
    assert all(isinstance(b["pass"], bool) for b in data["bars"])
    assert any(b["bar"].startswith("cold load") for b in data["bars"])


def test_unknown_target_is_refused_with_the_known_ones(tmp_path: pathlib.Path) -> None:
    done = subprocess.run([sys.executable, str(BENCH / "bench.py"), "--only", "chess", "--no-baseline"],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=120)
    assert done.returncode == 2
    assert "no target matches chess" in done.stdout and "rocketmen+target-jupiter" in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("argv", "says"), [
    (["--seconds", "-1"], "--seconds: must be more than 0, not -1"),
    (["--seconds", "nan"], "--seconds: must be more than 0, not nan"),
    (["--rounds", "0"], "--rounds: must be more than 0, not 0"),
    (["--cold-runs", "two"], "--cold-runs: not a number: 'two'"),
])
def test_budgets_and_counts_must_be_more_than_zero(tmp_path: pathlib.Path, argv: list[str], says: str) -> None:
    done = subprocess.run([sys.executable, str(BENCH / "bench.py"), *argv],
                          capture_output=True, text=True, cwd=str(tmp_path), timeout=120)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr


def test_growth_and_state_costs_on_a_tiny_game() -> None:
    game = load_game("tic-tac-toe")
    points = bench_loops.growth_costs(game, 2, moves=(1, 4))
    assert [p["target"] for p in points] == [1, 4] and [p["at"] for p in points] == [1, 4]
    for p in points:
        assert p["clone_us"] > 0 and p["to_json_us"] > 0 and p["save_bytes"] > 0 and p["state_bytes"] > 0
    assert points[1]["save_bytes"] > points[0]["save_bytes"]  # three more moves are saved
    costs = bench_loops.state_costs(game, 2, mean_length=8, clone_seconds=0.01)
    assert costs["clone_at_decision"] == 4 and costs["clones"] > 0 and costs["clone_bytes"] > 0


def test_play_to_stops_before_the_end() -> None:
    game = load_game("tic-tac-toe")
    state, done = bench_loops.play_to(lambda: game.new_initial_state(seed=3), 50)
    assert not state.is_terminal() and 4 <= done <= 8  # the last state before the game ended


def test_state_bytes_counts_what_the_state_alone_holds() -> None:
    game = load_game("race-to-mars")
    early, _ = bench_loops.play_to(lambda: game.new_initial_state(seed=1), 5)
    late, _ = bench_loops.play_to(lambda: game.new_initial_state(seed=1), 200)
    other = game.new_initial_state(seed=2)
    small, big = bench_loops.state_bytes(early, game, other), bench_loops.state_bytes(late, game, other)
    assert 0 < small < big  # 195 more actions in the history and log, cards with attributes


def test_rules_newer_than_the_old_engine_are_offered_without_the_new_keys(tmp_path: pathlib.Path) -> None:
    extracted = bench_engines.Extracted("0" * 40, tmp_path)  # no tree: no own copy to offer
    entry = ROOT / "games" / "for-all-mankind" / "game.yaml"
    choices = bench_engines.rule_choices(extracted, "for-all-mankind", entry, (), (), ())
    assert [c.label for c in choices] == ["same", "same less players.seats"]
    stripped = load_game(choices[1].target)
    assert stripped.definition.default_players == 4
    assert "seats" not in json.loads((pathlib.Path(choices[1].target) / "game.yaml").read_text())["players"]
    # a game without newer keys is offered as it is
    ttt = ROOT / "examples" / "tic-tac-toe" / "game.yaml"
    assert [c.label for c in bench_engines.rule_choices(extracted, "tic-tac-toe", ttt, (), (), ())] == ["same"]


def test_missing_commit_is_a_reason_not_a_crash(tmp_path: pathlib.Path) -> None:
    extracted, why = bench_engines.extract(ROOT, "f" * 40)
    assert extracted is None and why is not None and "not in" in why


def test_bars_pass_and_fail_by_their_thresholds() -> None:
    ours = bench_report.Row("orrery", "tic-tac-toe", 2, cold_ms=600.0, playouts=10, playouts_per_s=100.0)
    found = bench_report.bars(
        [ours],
        [{"game": "tic-tac-toe", "implementation": "python", "playouts_ratio": 1.0}],
        [{"game": "race-to-mars", "decisions_ratio": 3.5}, {"game": "star-market", "decisions_ratio": 1.0}],
        [{"game": "race-to-mars", "speedup": 1.7, "same_results": True}],
    )
    verdicts = {(b["bar"], b["subject"]): b["pass"] for b in found}
    assert verdicts == {
        ("orrery/OpenSpiel-Python playouts/s (required)", "tic-tac-toe"): True,
        ("orrery/OpenSpiel-Python playouts/s (target)", "tic-tac-toe"): False,
        ("orrery/0.1 decisions/s (target)", "race-to-mars"): True,  # star-market has no bar
        ("cold load ms (target)", "tic-tac-toe"): False,
        ("simulate 2 workers / 1 worker (target)", "race-to-mars"): False,
    }


def test_today_on_the_old_rules_is_compared_with_the_old_engine_on_them() -> None:
    """Where the old engine plays its own rule files, today's engine plays them too: a
    second comparison, against the same old row, with a bar of its own."""
    def row(engine: str, name: str, rate: float, rules: str | None = None) -> bench_report.Row:
        return bench_report.Row(engine, name, 3, rules=rules, playouts=10, playouts_per_s=rate / 100,
                                decisions_per_s=rate, decisions=1000, actions_per_game=100.0)
    same = "race-to-mars" + bench_report.SAME_RULES
    rows = [row("orrery", "race-to-mars", 30_000.0), row("0.1", "race-to-mars", 20_000.0, "9a45214's own"),
            row("orrery", same, 50_000.0, "9a45214's own")]
    comps = {c["game"]: c for c in bench_report.baseline_comparisons(rows, "0.1")}
    assert comps["race-to-mars"]["decisions_ratio"] == pytest.approx(1.5)
    assert not comps["race-to-mars"]["same_rules"]
    assert comps[same]["decisions_ratio"] == pytest.approx(2.5) and comps[same]["same_rules"]
    assert comps[same]["clones_ratio"] is None  # not measured for that row: "-", not x0.00
    found = bench_report.bars(rows, [], list(comps.values()), [])
    verdicts = {(b["bar"], b["subject"]): (b["value"], b["pass"]) for b in found}
    assert verdicts[("orrery/0.1 decisions/s (target)", "race-to-mars")] == (pytest.approx(1.5), False)
    assert verdicts[("orrery/0.1 decisions/s, same rules (target)", same)] == (pytest.approx(2.5), False)


@pytest.mark.parametrize("name", ["python_kuhn_poker", "kuhn_poker", "openspiel:tic-tac-toe"])
def test_openspiel_names(name: str) -> None:
    sys.path.insert(0, str(BENCH))
    import bench

    assert bench.openspiel_name(name) in ("python_kuhn_poker", "kuhn_poker", "python_tic_tac_toe")
    assert bench.openspiel_name("tic-tac-toe") is None


def test_the_hand_written_kuhn_floor_plays_the_rule_file_s_game(tmp_path: pathlib.Path) -> None:
    """bench/kuhn_by_hand.py is a fair floor only if it is the same game: same seed,
    same deal; same moves, same end and chips."""
    import random

    import kuhn_by_hand
    engine = load_game(str(ROOT / "examples" / "kuhn-poker"))
    hand = kuhn_by_hand.HandGame()
    rng = random.Random(5)
    ends = set()
    for seed in range(60):
        ours, theirs = engine.new_initial_state(2, seed=seed), hand.new_initial_state(2, seed=seed)
        assert [z[:] for z in ours.zones] == theirs.zones
        while not ours.is_terminal():
            assert [a.text for a in ours.legal_actions()] == [m.text for m in theirs.legal_actions()]
            text = rng.choice(["pass", "bet"])
            ours.apply_action(text)
            theirs.apply_action(kuhn_by_hand.PASS if text == "pass" else kuhn_by_hand.BET)
        assert theirs.is_terminal() and ours.winners == theirs.winners and ours.counters == theirs.counters
        assert list(ours.history) == list(theirs.history)
        ends.add(tuple(ours.counters[2]))
    assert len(ends) >= 4  # folds and showdowns, both ways
    with pytest.raises(ValueError):
        theirs.apply_action(kuhn_by_hand.BET)  # over: nothing is legal
    done = subprocess.run([sys.executable, str(BENCH / "kuhn_by_hand.py"), "--seconds", "0.2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "by hand" in done.stdout and "the engine takes x" in done.stdout


def test_the_native_bench_replays_only_games_whose_seats_take_turns() -> None:
    # bench_native's same-games loops replay random-id games by Action and by id; a game
    # whose steps are simultaneous (goofspiel) has none to replay: no games, never a wait
    # (the recorder once looped for ever there)
    pytest.importorskip("Cython")
    import bench_native
    assert bench_native.SameGamesLoop.record(load_game("goofspiel"), 3) == []
    games = bench_native.SameGamesLoop.record(load_game("tic-tac-toe"), 3)
    assert len(games) == 3 and all(len(picks) == len(ids) >= 5 for _, picks, ids in games)
