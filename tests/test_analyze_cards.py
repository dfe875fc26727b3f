"""`orrery analyze`'s card statistics: per card and per power how often it ran, held
against played, a minimum of games before a lift is tested, p- and Benjamini-Hochberg
q-values, and each changed power's runs before and after an overlay. On a toy game with
one strong card among eleven alike: only the strong one may be flagged."""

from __future__ import annotations

import pathlib

import pytest
from conftest import write_toy

from interpreter.play.analyze import analyze
from interpreter.play.card_stats import MIN_GAMES_FOR_LIFT
from interpreter.play.report import render_text
from interpreter.play.simulate import SimulationSpec
from interpreter.play.stats import bh_q_values

NEUTRAL = "\n".join(f"  n{i:02d}: {{name: N{i}, type: plain}}" for i in range(1, 12))
ONE_STRONG = f"""
counters:
  vp: {{scope: player}}
zones:
  shelf: {{scope: global, visible: all}}
card_types:
  plain:
    in: shelf
    effects:
      play: "gain 1 vp"
cards:
  strong: {{name: Strong, in: shelf, effects: {{play: "gain 3 vp"}}}}
{NEUTRAL}
  rare: {{name: Rare, in: shelf, effects: {{play: "gain 1 vp"}}}}
actions:
  play:
    during: main
    params: {{c: "[c for c in shelf if c.id != \\"rare\\" or vp(me) == 4]"}}
    effect: 'use c "play"'
    ends: turn
flow: |
  repeat 3:
    for each p in players:
      turn p:
        take actions main
scoring:
  score: "vp(p)"
"""

NEW_POWER = """orrery: 1
overlay: echo
base: toy
name: Echo
patch:
  cards:
    n01:
      active_in: [shelf]
      triggers:
        echo: {"on": "changed vp", when: "vp(me) == 3", effect: "gain 1 vp"}
"""


def _spec(tmp_path: pathlib.Path) -> SimulationSpec:
    return SimulationSpec(str(write_toy(tmp_path, ONE_STRONG).parent), (), (), 2, ("random", "random"))


def test_bh_q_values() -> None:
    # sorted 0.01, 0.03, 0.04, 0.5: p*m/rank = 0.04, 0.06, 0.0533, 0.5, then the running minimum from the top
    assert bh_q_values([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5])
    assert bh_q_values([]) == []


def test_only_the_strong_card_is_flagged(tmp_path: pathlib.Path) -> None:
    report = analyze(_spec(tmp_path), 200, 201)
    cards = {r["id"]: r for r in report["cards"] if r["kind"] == "card"}
    assert [cid for cid, r in cards.items() if r["significant"]] == ["strong"]
    assert cards["strong"]["lift"] > 0.3 and cards["strong"]["q_value"] < 0.001
    for cid in (f"n{i:02d}" for i in range(1, 12)):
        row = cards[cid]
        assert row["tested"] and row["q_value"] >= row["p_value"] and not row["significant"]
        # each neutral card was held (in nobody's zone: the shelf is shared) but never "held unplayed"
        assert row["held_unplayed"] == 0
    rare = cards["rare"]  # playable only at exactly 4 VP: too rare to test
    assert rare["seat_games"] < MIN_GAMES_FOR_LIFT
    assert not rare["tested"] and rare["p_value"] is None and rare["q_value"] is None and not rare["significant"]
    powers = {r["id"]: r for r in report["powers"]}
    assert [pid for pid, r in powers.items() if r["significant"]] == ["strong.play"]
    assert powers["strong.play"]["kind"] == "effect" and powers["strong.play"]["card"] == "strong"
    # each power's runs are its card's plays here (every play uses the effect once)
    assert powers["n03.play"]["runs"] == cards["n03"]["plays"]
    text = render_text(report, "Toy")
    assert "1 of 12 tested differ from the typical one" in text and "too rare to test" in text


def test_a_new_power_says_how_often_it_ran(tmp_path: pathlib.Path) -> None:
    spec = _spec(tmp_path)
    overlay = tmp_path / "echo"
    overlay.mkdir()
    (overlay / "overlay.yaml").write_text(NEW_POWER, encoding="utf-8")
    report = analyze(spec, 40, 1, compare_with=str(overlay))
    rows = {(r["kind"], r["id"]): r for r in report["compare"]["powers"]}
    echo = rows[("trigger", "n01.echo")]
    after = {r["id"]: r for r in report["with_overlay"]["powers"]}["n01.echo"]
    assert echo["without"]["runs"] == 0 and echo["with"]["runs"] == after["runs"] > 0
    assert echo["with"]["games"] == after["games"] and echo["with"]["of_games"] == 40
    assert ("effect", "n01.play") in rows and ("effect", "n02.play") not in rows  # only the changed card's powers
    text = render_text(report, "Toy")
    assert f"trigger n01.echo (changed): never ran -> ran {after['runs']} times in {after['games']} of 40 games" in text


def test_a_pick_in_a_simultaneous_step_counts_as_its_action() -> None:
    # the history writes a pick `P2: bid king#5`: it is a play of `bid`, not of `P2:`
    spec = SimulationSpec("goofspiel", ("four-cards",), (), 2, ("random", "random"))
    texts = render_text(analyze(spec, 20, 1), "Goofspiel")
    assert "action bid:" in texts and "action P1:" not in texts and "action P2:" not in texts
