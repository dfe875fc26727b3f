"""`orrery test`: scenarios as data (play/scenarios.py, scenario_run.py, runtime/arrange.py).

The bundled games' scenarios (their rulebooks' worked examples) must pass; a failed
expectation is reported at its file:line:col with expected and found; bad scenario
files get diagnostics with codes and hints, never a traceback; an arranged position
is checked as a save is (a card in one place, counters within their bounds).
Toy scenarios run on the Kuhn poker and tic-tac-toe examples.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.diagnostics import GameError
from interpreter.model.seats import parse_seat, seating_of
from interpreter.runtime import arrange
from interpreter.runtime.saves import check_fields

ROOT = Path(__file__).resolve().parent.parent
KUHN = str(ROOT / "examples" / "kuhn-poker")
TIC = str(ROOT / "examples" / "tic-tac-toe")


def run(capsys: Any, *args: str) -> tuple[int, str, str]:
    code = main(["test", *args])
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


# ---- the bundled games carry their rulebooks' examples, and they pass --------------------------


@pytest.mark.parametrize(("game", "least"), [("race-to-mars", 7), ("rocketmen", 6), ("for-all-mankind", 5)])
def test_every_bundled_game_passes_the_scenarios_it_carries(capsys: Any, game: str, least: int) -> None:
    code, out, err = run(capsys, game, "--json")
    data = json.loads(out)
    assert code == 0, out + err
    assert len(data["scenarios"]) >= least and data["passed"] == len(data["scenarios"])
    assert data["failed"] == data["errors"] == 0 and data["diagnostics"] == []
    # a bundled expansion's scenarios run with the expansion applied
    for scenario in data["scenarios"]:
        assert scenario["overlays"] == (["target-jupiter"] if "target-jupiter" in scenario["file"] else [])
    assert game != "rocketmen" or any(s["overlays"] for s in data["scenarios"])


# ---- a whole toy game, and what a failure prints -----------------------------------------------

KUHN_SHOWDOWN = """\
scenarios:
  - name: the King beats the Queen at a showdown after bet, bet
    position:
      zones:
        hand(P1): [King]
        hand(P2): [queen]
      spare: deck
    actions:
      - expect:
          to_act: P1
          legal: {contains: [bet], excludes: [fold]}
      - bet
      - bet
    expect:
      over: true
      winners: [P1]
      returns: [2, -2]
      counters: {put: {P1: 2, P2: 2}}
      zones:
        deck: [jack]
"""


def test_a_scenario_arranges_the_cards_plays_and_checks_the_result(tmp_path: Path, capsys: Any) -> None:
    code, out, _ = run(capsys, KUHN, write(tmp_path, KUHN_SHOWDOWN))
    assert code == 0 and out.startswith("ok     the King beats the Queen") and "1 scenario: 1 ok" in out
    # the example game carries it (docs/scenarios.md shows it)
    code, out, _ = run(capsys, "kuhn-poker")
    assert code == 0 and "kuhn-poker/scenarios/showdown.yaml:4)" in out


def test_a_failed_expectation_prints_its_place_with_expected_and_found(tmp_path: Path, capsys: Any) -> None:
    text = KUHN_SHOWDOWN.replace("winners: [P1]", "winners: [P2]").replace("returns: [2, -2]", "returns: [1, -1]")
    path = write(tmp_path, text)
    code, out, _ = run(capsys, KUHN, path)
    assert code == 1
    assert out.splitlines()[0].startswith(f"FAILED the King beats the Queen at a showdown after bet, bet ({path}:2)")
    assert f"{path}:16:16: expected winners [P2], found winners [P1]" in out
    assert f"{path}:17:16: expected returns [1, -1], found [2, -2]" in out
    assert "1 scenario: 0 ok, 1 failed" in out


def test_an_expect_between_actions_is_checked_where_it_stands(tmp_path: Path, capsys: Any) -> None:
    text = KUHN_SHOWDOWN.replace("to_act: P1", "to_act: P2")
    path = write(tmp_path, text)
    code, out, _ = run(capsys, KUHN, path)
    assert code == 1 and f"{path}:10:19: expected P2 to act, found P1 to act" in out


def test_counters_zones_log_and_json(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: X completes the top row
            position:
              counters:
                mark: [1, 1, 0, 2, 2, 0, 0, 0, 0]
            actions: [place 2]
            expect:
              over: true
              winners: [P1]
              counters: {mark: [1, 1, 1, 2, 2, 0, 0, 0, 0]}
              log: {excludes: [draw]}
          - name: a wrong count
            expect:
              counters: {mark: [0, 0, 0, 0, 0, 0, 0, 0, 5]}
        """)
    code, out, _ = run(capsys, TIC, path, "--json")
    data = json.loads(out)
    assert code == 1 and (data["passed"], data["failed"], data["errors"]) == (1, 1, 0)
    failed = data["scenarios"][1]
    assert failed["status"] == "failed" and failed["line"] == 12
    assert failed["problems"][0]["message"] == "expected mark[8] = 5, found 0"
    assert (failed["problems"][0]["line"], failed["problems"][0]["column"]) == (14, 49)


# ---- bad scenario files: diagnostics with codes and hints, never a traceback --------------------


@pytest.mark.parametrize(("body", "code", "place", "words"), [
    ("    position: {zones: {hand(P1): [Kong]}, spare: deck}\n", "scenario-unknown-card", "3:35",
     "did you mean 'King'?"),
    ("    position: {counters: {putt: {P1: 2}}}\n", "scenario-unknown-counter", "3:27", "did you mean 'put'?"),
    ("    position: {zones: {hands(P1): [king]}}\n", "scenario-unknown-zone", "3:24", "did you mean 'hand'?"),
    ("    position: {zones: {hand: [king]}}\n", "scenario-zone-owner", "3:24", "for example hand(P1)"),
    ("    actions: [raise]\n", "scenario-illegal-action", "3:15", "legal now: pass, bet"),
    ("    expect: {winners: [P3]}\n", "scenario-unknown-player", "3:24", "players are P1..P2"),
    ("    players: 3\n", "scenario-players", "3:14", "for 2-2 players"),
    ("    expekt: {over: true}\n", "scenario-key", "3:5", "did you mean 'expect'?"),
    ("    position: {calls: [\"settel()\"]}\n", "scenario-unknown-procedure", "3:24", "did you mean 'settle'?"),
    ("    position: {calls: [\"settle(P1)\"]}\n", "scenario-call", "3:24", "settle takes 0 arguments (), not 1"),
    ("    position: {calls: [settle(P1, P2)]}\n", "scenario-shape", "3:24", "put each call in quotes"),
    ("    expect: {log: [P1: bets]}\n", "scenario-shape", "3:20", "put the text in quotes"),
])
def test_bad_scenarios_get_a_diagnostic_at_their_place(tmp_path: Path, capsys: Any, body: str, code: str,
                                                        place: str, words: str) -> None:
    path = write(tmp_path, "scenarios:\n  - name: bad\n" + body)
    status, out, err = run(capsys, KUHN, path)
    assert status == 1 and "Traceback" not in out + err
    assert f"{path}:{place}: error[{code}]" in out and words in out


def test_a_repeat_that_never_reaches_its_point_is_refused(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: passing never makes P2 win
            position: {zones: {hand(P1): [king], hand(P2): [jack]}, spare: deck}
            actions:
              - repeat: pass
                until: {winners: [P2]}
        """)
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and f"{path}:5:9: error[scenario-repeat]: 'pass' repeated until the game ended, and still " \
                           "expected winners [P2], found winners [P1]" in out


def test_a_file_for_another_game_is_refused(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, "game: tic-tac-toe\nscenarios:\n  - name: a\n")
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and f"{path}:1:7: error[scenario-game]: these scenarios are for the game 'tic-tac-toe', " \
                           "not 'kuhn-poker'" in out


def test_yaml_errors_are_diagnostics(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, "scenarios:\n  - name: a\n    name: b\n")
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and f"{path}:3:5: error[duplicate-key]" in out
    path = write(tmp_path, "scenarios: [\n", "broken.yaml")
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and "error[yaml-syntax]" in out and "1 problem in scenario files" in out


def test_the_setup_must_be_answered(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: pads not answered
            players: 2
            variants: [first-game]
        """)
    status, out, _ = run(capsys, "race-to-mars", path)
    assert status == 1 and "error[scenario-setup]: the setup waits for P" in out
    assert "choose your launch pad (lane)" in out and "setup_choices: first" in out


def test_a_game_without_scenarios_says_where_to_put_them(capsys: Any) -> None:
    status, out, err = run(capsys, TIC)
    assert status == 1 and "0 scenarios" in out and "scenarios/` folder" in err


# ---- the arrangement is checked as a save is ---------------------------------------------------


def test_a_card_put_in_two_places_is_refused(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: the King twice
            position:
              zones:
                hand(P1): [king#2]
                hand(P2): [king#2]
              spare: deck
        """)
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and f"{path}:6:20: error[scenario-card-twice]: card king#2 is put in two places: here and at " \
                           "line 5, column 20" in out


def test_more_copies_than_the_game_has_are_refused(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: two Kings
            position: {zones: {hand(P1): [king], hand(P2): [king]}, spare: deck}
        """)
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and "error[scenario-card-count]: no copy of king is left for this place" in out
    assert "a position moves the game's cards; it makes none" in out


def test_a_counter_past_its_range_is_refused(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, "scenarios:\n  - name: folded twice\n    position: {counters: {folded(P1): 2}}\n")
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and f"{path}:3:39: error[scenario-counter-range]: counter folded is out of its bounds " \
                           "(2, not within 0..1)" in out


def test_cards_taken_out_of_an_exact_zone_need_a_spare(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, "scenarios:\n  - name: no spare\n    position: {zones: {hand(P1): []}}\n")
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and "error[scenario-spare]" in out and "spare: ZONE" in out


def test_the_position_goes_through_the_checks_of_a_loaded_save() -> None:
    game = load_game(KUHN)
    st = arrange.start_setup(game, 2, 1, seating_of([parse_seat("human")] * 2, game.definition.bots))
    assert arrange.setup_over(st) and st.stack == [] and len(st.zones[1]) == 1
    king = st.card_def.index(game.definition.card_index["king"])
    deck = 0
    arrange.place_cards(st, [arrange.Placing(1, (king,), "exact")], deck)
    check_fields(st)                                   # a permutation of the game's cards: fine
    st.zones[2].append(king)                           # the King in two hands, by hand
    with pytest.raises(GameError, match="card king#2 is in the wrong place"):
        check_fields(st)
    st.zones[2].remove(king)
    with pytest.raises(GameError, match="out of its bounds"):
        arrange.set_counter(st, 1, 0, 5)
    arrange.begin_flow(st, game)
    assert st.current_player() == 0 and [a.text for a in st.legal_actions()] == ["pass", "bet"]


def test_skipping_the_setup_starts_from_where_the_rules_place_the_components(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: no setup, the cards still in the deck
            setup: skip
            expect:
              zones:
                deck: {count: 3, any_order: [jack, queen, king]}
                hand(P1): []
        """)
    status, out, _ = run(capsys, KUHN, path)
    assert status == 0, out


def test_a_call_runs_a_procedure_of_the_game_on_the_position(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: settled before anyone bets
            position:
              zones: {hand(P1): [jack], hand(P2): [king]}
              spare: deck
              calls: ["settle()"]
        """)
    status, out, _ = run(capsys, KUHN, path)
    assert status == 1 and "error[scenario-call]: settle(): it ended the game" in out


# ---- chance, simultaneous steps, mods ---------------------------------------------------------


def test_explicit_chance_lets_a_scenario_give_the_deal(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: the setup deals P1 the Jack and P2 the King; P1 bets, P2 calls and wins
            chance: explicit
            setup_choices: [deal jack, deal king]
            actions: [bet, bet]
            expect:
              zones: {hand(P1): [jack], hand(P2): [king]}
              winners: [P2]
        """)
    status, out, _ = run(capsys, KUHN, path)
    assert status == 0, out


def test_setup_choices_first_answers_every_setup_decision(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: the pads by their first option
            players: 2
            variants: [first-game]
            setup_choices: first
            expect:
              counters: {lane: {P1: 1, P2: 0}}   # with seed 1 the Start Player is P2: it picks first
              decision: pre_launch
        """)
    status, out, _ = run(capsys, "race-to-mars", path)
    assert status == 0, out


def test_a_simultaneous_pick_names_its_seat(tmp_path: Path, capsys: Any) -> None:
    path = write(tmp_path, """\
        scenarios:
          - name: paper beats rock
            actions:
              - expect: {to_act: P2}
              - "P2: paper"
              - "P1: rock"
            expect:
              counters: {won: {P1: 0, P2: 1}}
              log: [P1 shows rock, P2 shows paper]
        """)
    status, out, _ = run(capsys, str(ROOT / "examples" / "rock-paper-scissors"), path)
    assert status == 0, out


def test_a_mod_carries_scenarios_for_its_cards(tmp_path: Path, capsys: Any) -> None:
    mod = tmp_path / "overcharge"
    (mod / "scenarios").mkdir(parents=True)
    (mod / "overlay.yaml").write_text((ROOT / "examples" / "star-market-overcharge" / "overlay.yaml").read_text())
    write(mod / "scenarios", """\
        scenarios:
          - name: an overcharged reactor earns fame
            expect: {over: false}
        """, "reactor.yaml")
    status, out, _ = run(capsys, "star-market", "--with", str(mod), "--json")
    data = json.loads(out)
    assert status == 0 and [s["name"] for s in data["scenarios"]] == ["an overcharged reactor earns fame"]
