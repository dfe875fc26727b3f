"""`orrery analyze`: balance figures with intervals, per-card statistics, overlays
compared on the same seeds, the HTML report, and the command line around them."""

from __future__ import annotations

import json
import math

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.play.analyze import analyze
from interpreter.play.simulate import SimulationSpec, outcomes
from interpreter.play.stats import mean_interval, paired_p, rate_vs_p, two_rates_p, wilson

KUHN = SimulationSpec("kuhn-poker", (), (), 2, ("random", "random"))


def test_wilson_interval_matches_known_values() -> None:
    iv = wilson(8, 10)  # the textbook example: 0.8 in [0.490, 0.943]
    assert iv.value == 0.8 and math.isclose(iv.low, 0.4902, abs_tol=1e-3) and math.isclose(iv.high, 0.9433,
                                                                                            abs_tol=1e-3)
    assert wilson(0, 20).low == 0.0 and wilson(20, 20).high == 1.0
    assert wilson(0, 0).low == 0.0 and wilson(0, 0).high == 1.0


def test_tests_of_differences() -> None:
    assert two_rates_p(50, 100, 50, 100) == 1.0
    assert two_rates_p(80, 100, 50, 100) < 0.001
    assert rate_vs_p(50, 100, 0.5) == 1.0 and rate_vs_p(70, 100, 0.5) < 0.001
    assert paired_p([1.0, 1.0, 1.0]) == 0.0 and paired_p([0.0, 0.0]) == 1.0
    assert mean_interval([1.0, 2.0, 3.0]).value == 2.0


def test_report_figures_agree_with_the_games() -> None:
    report = analyze(KUHN, 60, 3)
    games = [o for o in outcomes(KUHN, 60, 3) if o.error is None]
    assert report["games"] == report["completed"] == 60
    for row in report["win_rates"]:
        wins = sum(1 for o in games if o.winners == (row["seat"],))
        assert row["wins"] == wins and row["rate"] == round(wins / 60, 4)
        assert row["low"] <= row["rate"] <= row["high"]
    assert report["first_player_advantage"]["expected"] == pytest.approx(
        sum(r["wins"] for r in report["win_rates"]) / 120, abs=1e-4)
    assert report["length"]["actions"]["min"] >= 2 and sum(b["games"] for b in report["length"]["histogram"]) == 60
    assert sum(report["end_reasons"].values()) == 60
    rows = {(r["kind"], r["id"]): r for r in report["cards"]}
    assert {("action", "bet"), ("action", "pass")} <= set(rows)
    bet = rows[("action", "bet")]
    assert bet["games"] <= 60 and bet["plays"] >= bet["games"]
    assert bet["lift"] == pytest.approx(bet["win_rate"]["rate"] - bet["base_rate"], abs=1e-3)


def test_cards_in_action_texts_are_counted() -> None:
    spec = SimulationSpec("star-market", (), (), 2, ("random", "random"))
    report = analyze(spec, 10, 1)
    kinds = {r["kind"] for r in report["cards"]}
    assert kinds == {"card", "action"}
    for row in report["cards"]:
        assert 0 < row["games"] <= 10 and 0 <= row["win_rate"]["low"] <= row["win_rate"]["high"] <= 1


def test_workers_do_not_change_the_report() -> None:
    one = analyze(KUHN, 30, 5, workers=1)
    two = analyze(KUHN, 30, 5, workers=2)
    for report in (one, two):
        del report["seconds"], report["workers"]
    assert one == two


def test_compare_with_an_overlay_pairs_the_same_seeds() -> None:
    spec = SimulationSpec("star-market", (), (), 2, ("market-bot", "market-bot"))
    report = analyze(spec, 30, 1, compare_with="examples/star-market-overcharge")
    cmp = report["compare"]
    assert cmp["paired_games"] == 30 and report["with_overlay"]["overlays"] == ["examples/star-market-overcharge"]
    assert [r["seat"] for r in cmp["win_rates"]] == [0, 1]
    assert {r["reason"] for r in cmp["end_reasons"]} == set(report["end_reasons"]) | set(
        report["with_overlay"]["end_reasons"])
    turns = cmp["length"]["turns"]
    assert turns["without"] == report["length"]["turns"]["mean"]
    assert 0.0 <= turns["p_value"] <= 1.0 and turns["significant"] == (turns["p_value"] < 0.05)


def test_a_game_bot_s_card_plays_count_and_the_changed_card_comes_first() -> None:
    spec = SimulationSpec("star-market", (), (), 2, ("market-bot", "market-bot"))
    report = analyze(spec, 40, 1, compare_with="examples/star-market-overcharge")
    # market-bot plays its ships inside its turn effect: counted through the cards it uses
    played = {r["id"]: r for r in report["cards"] if r["kind"] == "card"}
    assert "fusion-reactor" in played and played["credit-chip"]["games"] == 40
    assert report["length"]["histogram_of"] == "turns"  # no actions: bots in every seat
    rows = report["compare"]["cards"]
    assert rows[0]["id"] == "fusion-reactor" and rows[0]["changed"]
    assert [r["id"] for r in rows if r["changed"]] == ["fusion-reactor"]  # the overlay touches one card
    side = rows[0]["without"]
    assert side["lift"] == played["fusion-reactor"]["lift"]
    assert side["plays_per_game"] == round(played["fusion-reactor"]["plays"] / 40, 3)
    from interpreter.play.report import render_text
    from interpreter.play.report_html import render_html
    page, text = render_html(report, "Star Market"), render_text(report, "Star Market")
    assert "<td>actions</td>" not in page and "Length in actions" not in text  # no actions to speak of
    assert "fusion-reactor (changed)" in page and "card fusion-reactor (changed)" in text
    # the answer first: what the overlay changes, then what it did, charted; the details last
    order = ["What stands out", "What examples/star-market-overcharge changes", "What it did",
             "Win rate per seat", "<h2>Cards and actions"]
    assert [page.index(heading) for heading in order] == sorted(page.index(heading) for heading in order)
    assert "effects.play: extended by" in page
    chart = page[page.index("<h2>Cards and actions"):]
    chart = chart[chart.index("<svg"):chart.index("</svg>")]
    charted = {r["id"] for r in report["cards"] if f"{r['kind']} {r['id']}:" in chart}
    assert charted and charted == {r["id"] for r in report["cards"] if r["games"] >= 10}
    assert "credit-chip" in charted


def test_the_lift_chart_skips_rows_too_rare_to_say_anything() -> None:
    from interpreter.play.charts import lift_chart as _lift_chart
    row = {"kind": "card", "id": "rare", "games": 3, "plays": 3, "lift": 0.5,
           "win_rate": {"rate": 1.0, "low": 0.4, "high": 1.0}}
    assert "<svg" not in _lift_chart([row]) and "10 games or more" in _lift_chart([row])
    common = dict(row, id="common", games=40, lift=-0.2, win_rate={"rate": 0.3, "low": 0.2, "high": 0.45})
    drawn = _lift_chart([row, common])
    assert "card common: lift -20.0 pts" in drawn and "rare" not in drawn and 'fill="#d98c6a"' in drawn


def test_cli_json_report_and_progress(tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "report.html"  # type: ignore[operator]
    assert main(["analyze", "kuhn-poker", "--games", "20", "--json", "--report", str(page)]) == 0
    out = capsys.readouterr()
    data = json.loads(out.out)  # nothing but the JSON on stdout
    assert set(data) >= {"win_rates", "first_player_advantage", "length", "margins", "end_reasons", "cards"}
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "<svg" in text and "<script" not in text
    assert "src=" not in text and "href=" not in text  # nothing to fetch: readable from disk


def test_cli_text_shows_a_progress_bar_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "tic-tac-toe", "--games", "10", "--seats", "first,random"]) == 0
    out = capsys.readouterr()
    assert "Win rate per seat" in out.out and "First player" in out.out
    assert "analyze [" in out.err and "10/10 games" in out.err


@pytest.mark.parametrize(("args", "code", "message"), [
    (["analyze", "kuhn-poker", "--compare-with", "no-such-overlay"], 2, "no-such-overlay"),
    (["analyze", "kuhn-poker", "--seats", "human,random"], 2, "human"),
    (["analyze", "kuhn-poker", "--games", "0"], 2, "games"),
    (["analyze", "no-such-game"], 2, "no-such-game"),  # an unknown name is a usage error
    # a seat's option values are checked with the seat, before any game: usage errors too
    (["analyze", "kuhn-poker", "--seats", "mcts,random"], 2, "use 'ismcts'"),
    (["analyze", "kuhn-poker", "--seats", "ismcts:c=-1,random"], 2, "c=-1 must be at least 0"),
    (["analyze", "kuhn-poker", "--seats", "ismcts:iterations=20000000,random"], 2, "must be at most 10,000,000"),
])
def test_cli_bad_input_is_a_clear_error(args: list[str], code: int, message: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == code
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_search_seats_look_ahead_does_not_count_as_a_bots_card_plays() -> None:
    """A search seat plays game bots in its clones of the state; only the cards the bot
    used in the game itself count (the same game replayed, with no search, is the reference)."""
    from collections import Counter

    from interpreter.play.runner import play_game, replay_actions
    from interpreter.play.simulate import play_one
    from interpreter.runtime.card_powers import watching_uses

    seats = ("ismcts:iterations=6,rollout=market-bot", "market-bot")
    outcome = play_one(SimulationSpec("star-market", (), (), 2, seats, record=True), 3)
    counted = {key: n for seat, key, n in outcome.plays if seat == 1 and key.startswith("card ")}
    game = load_game("star-market")
    history = list(play_game(game, 2, list(seats), 3).history)
    used: Counter[str] = Counter()
    replayed = game.new_initial_state(2, 3, list(seats))
    with watching_uses(lambda st, player, card: used.update(
            ["card " + st.gd.cards[st.card_def[card]].id] if player == 1 else [])):
        replay_actions(replayed, history)
    assert counted and counted == dict(used)
