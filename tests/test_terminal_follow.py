"""The terminal a person can follow: moves in words (game bots included), "Since your
last turn:", cards by name and `show CARD`, the end of a game (scores, winners, why,
a showdown), lines within the terminal's width, actions out of reach with reasons,
answers typed ahead and `auto` for many small payments, and saving on quit.

Every test drives `orrery play` through piped standard input, as a person would.
"""

from __future__ import annotations

import io
import json
import pathlib
import re
import sys
from typing import Any

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.play.narrate import table_changes
from interpreter.play.terminal_text import card_lines, distinct, end_reason, fit, wrap

ROOT = pathlib.Path(__file__).resolve().parents[1]
KUHN = str(ROOT / "examples" / "kuhn-poker")
CANONICAL_CARD = re.compile(r"[a-z0-9_-]#\d")


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str],
         *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


def hand_names(seed: int) -> list[str]:
    state = load_game(KUHN).new_initial_state(2, seed=seed)
    names = {c.id: c.name for c in state.gd.cards}
    return [names[state.observation(p)["zones"]["hand"][p]["cards"][0].split("#")[0]] for p in range(2)]


# ---- 1. every seat's moves in words, and "Since your last turn:" ----------------------------


def test_an_agents_move_is_told_by_its_label_and_summed_up_before_the_next_decision(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["pass", "quit"], KUHN, "--seats", "human,first", "--seed", "3")
    assert code == 0
    # `first` passes too: the game is over after two passes; the label, not `pass`, is told.
    assert "P2: pass (fold when facing a bet)" in out
    code, out = play(capsys, monkeypatch, ["pass", "quit"], KUHN, "--seats", "human,random", "--seed", "3")
    assert code == 0 and "P2: bet 1 (call when facing a bet)" in out
    summary = out.split("Since your last turn:")[1].split("===")[0]
    assert "P2: bet 1 (call when facing a bet)" in summary and "chips in the pot 1 -> 2" in summary


def test_game_bots_that_play_inside_the_state_are_told_by_what_changed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["1"] * 8 + ["quit"], "race-to-mars", "--players", "3",
                     "--seats", "human,pilot,pilot", "--seed", "3")
    assert code == 0
    summaries = out.split("Since your last turn:")[1:]
    assert summaries, "no summary before the human's decisions"
    told = "".join(s.split("===")[0] for s in summaries)
    assert re.search(r"P2 \(pilot\): .*rocket modules \+", told) and re.search(r"P3 \(pilot\): ", told)
    assert "Table: " in told and not CANONICAL_CARD.search(told)


def test_what_changed_names_cards_and_counters_per_player() -> None:
    gd = load_game(KUHN).definition
    before = {"counters": {"put": [1, 1]}, "zones": {"hand": [{"cards": ["jack#0"], "count": 1}, {"count": 1}]}}
    after = {"counters": {"put": [1, 2]}, "zones": {"hand": [{"cards": [], "count": 0}, {"count": 1}]}}
    lines = table_changes(before, after, gd, 0, ["human", "random"])
    assert lines == ["P1 (you): hand -Jack", "P2: chips in the pot 1 -> 2"]  # the label up to its bracket
    assert table_changes(after, after, gd, 0) == []


HIDDEN_MOVE = """
zones:
  hand: {scope: player, visible: owner}
  pile: {scope: global, visible: none}
  table: {scope: global, visible: all}
cards:
  gem: {name: Secret Gem}
  rock: {name: Plain Rock}
setup: |
  create 1 "gem" in hand(1)
  create 1 "rock" in hand(1)
actions:
  bury: {during: main, params: {c: "hand(me)"}, effect: "move c to pile", ends: turn, label: "bury {c}"}
  show_off: {during: main, params: {c: "hand(me)"}, effect: "move c to table", ends: turn, label: "show {c}"}
  wait: {during: main, ends: turn, label: "wait a moment"}
flow: |
  turn 1:
    take actions main
  turn 1:
    take actions main
  turn 0:
    take actions main
"""


def test_a_move_with_a_card_the_humans_may_not_see_names_no_card(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    from conftest import write_toy

    path = write_toy(tmp_path, HIDDEN_MOVE)
    for seed in range(12):
        code, out = play(capsys, monkeypatch, ["1"], str(path.parent), "--seats", "human,random", "--seed", str(seed))
        assert code == 0
        for line in out.splitlines():
            if line.startswith("P2: bury"):
                assert line == "P2: bury a hidden card"
            if line.startswith("P2: show "):
                assert line in ("P2: show Secret Gem", "P2: show Plain Rock")  # on the table now: public


# ---- 2. cards by name, copies told apart, `show CARD` ----------------------------------------


def test_no_canonical_card_text_anywhere_and_copies_told_apart(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["11", "1", "quit"], "rocketmen", "--seed", "3")
    assert code == 0 and not CANONICAL_CARD.search(out)
    # Two Research Grants in the display: two options, told apart by a suffix.
    assert "buy Research Grant (1) for $30: Gives $20" in out and "buy Research Grant (2) for $30" in out
    assert distinct(["Fuel Cell", "Rocket", "Fuel Cell"]) == ["Fuel Cell (1)", "Rocket", "Fuel Cell (2)"]
    assert distinct(["buy Cell: x", "buy Cell: x"], ["Cell", "Cell"]) == ["buy Cell (1): x", "buy Cell (2): x"]


def test_show_card_by_name_or_prefix_and_unknown_card(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["show KI", "show zeppelin", "card queen", "quit"], KUHN, "--seed", "3")
    assert code == 0
    assert "King (card)" in out and "rank: 3" in out and "Queen (card)" in out
    assert "No card 'zeppelin' in Kuhn poker" in out and "Stopped." in out  # the game went on to the quit
    gd = load_game("rocketmen").definition
    shown = card_lines(gd, "research g")
    assert shown[0].startswith("Research Grant (") and "Gives $20 toward a payment." in shown[1]
    assert "cost: 30" in "\n".join(shown)
    assert card_lines(gd, "m")[0].startswith("'m' could be:")


# ---- 3 and 4. the end: scores, winners, why; a showdown ---------------------------------------


def test_the_end_says_why_scores_winners_and_shows_both_hands(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = play(capsys, monkeypatch, [], KUHN, "--seats", "first,first", "--seed", "5")
    assert code == 0
    end = out.split("Game over")[1]
    assert end.startswith(": the rules ended the game.")
    assert re.search(r"^Final scores: P1 -?\d+, P2 -?\d+$", end, re.M) and re.search(r"^Winner: P[12]", end, re.M)
    mine, theirs = hand_names(5)
    showdown = end.split("Showdown (the cards the rules compared at the end):")[1].split("\n")[1]
    assert showdown.strip() == f"hand: P1 {mine} | P2 {theirs}"  # pass, pass: the hands decide


def test_a_fold_shows_no_hand_and_other_private_cards_read_at_the_end_are_shown(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.play.runner import play_game
    from interpreter.play.showdown import shown_at_end

    code, out = play(capsys, monkeypatch, ["bet"], KUHN, "--seats", "human,first", "--seed", "5")
    assert code == 0 and "P2: pass (fold when facing a bet)" in out  # `first` passes: a fold
    assert "Showdown" not in out and hand_names(5)[1] not in out.split("Game over")[1]
    # Rocketmen's final scoring reads each player's Personal Goals: they are laid down.
    state = play_game(load_game("rocketmen"), 2, ["random", "random"], seed=3)
    assert {("goals", 0), ("goals", 1)} <= shown_at_end(state)
    assert shown_at_end(load_game(KUHN).new_initial_state(2, seed=1)) == set()  # not over: nothing


def test_end_reason_in_words_and_scores_of_those_who_could_not_win(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert end_reason("three-in-a-row") == "three in a row" and end_reason(None) == "the game is over"
    code, out = play(capsys, monkeypatch, [], "race-to-mars", "--players", "3", "--seats", "random,pilot,pilot",
                     "--seed", "3")
    # the end condition's label says why; each final score says what it is made of and why
    # a player could not win (the scoring's `parts` and `ineligible`)
    assert code == 0 and "Game over: a rocket reached Mars and the final turn was taken" in out
    scores = out.split("Final scores:")[1].split("Winner")[0]
    assert "= Experience " in scores and "(did not reach Mars: could not win)" in scores


# ---- 5. within the terminal's width -----------------------------------------------------------


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("argv", [
    ["race-to-mars", "--players", "3", "--seats", "human,pilot,pilot"],
    ["rocketmen"],
    ["for-all-mankind"],
])
def test_no_line_is_wider_than_the_terminal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: pathlib.Path, width: int, argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", str(width))
    code, out = play(capsys, monkeypatch, ["1", "1", "1", "all", "log", "help", "quit"], *argv, "--seed", "3")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) > 50
    too_long = [line for line in lines if len(line) > width]
    assert not too_long, too_long[:3]


def test_tables_are_laid_out_again_not_cut() -> None:
    table = ["  mission            Earth's orbit            Moon                  Mars",
             "  Satellite +Rocket  2rp 2/1VP (a long note)  4rp 4/3VP (and more)  6rp 6/4VP (the end of it)"]
    fitted = fit(table, 60)
    assert all(len(line) <= 60 for line in fitted)
    words = " ".join(" ".join(table).split())
    assert sorted(" ".join(fitted).split()) == sorted(words.split())  # nothing lost
    assert wrap("short", 60) == ["short"] and all(len(x) <= 20 for x in wrap("word " * 30, 20))


# ---- 6. actions out of reach ------------------------------------------------------------------


def test_actions_out_of_reach_say_what_they_need(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["1", "quit"], "star-market", "--seed", "2")
    assert code == 0
    first = out.split("P1> ")[0]
    legal, blocked = first.split("Not yet: ")
    # grouped by reason, the counter by its label
    assert re.search(r"buy Fusion Reactor(, [^-]*)? - needs 6 credits to spend +this turn \(you have 0\)",
                     blocked.replace("\n", " "))
    assert "buy Fusion Reactor" not in legal.split("Choose (")[1]  # listed after the legal ones only
    assert "needs 6 credits to spend this turn (you have 1)" in out.split("P1> ")[1].replace("\n      ", " ")


OUT_OF_REACH = """
counters:
  credits: {scope: player, initial: 2}
actions:
  buy: {during: main, params: {n: "[1, 5]"}, cost: {credits: "n"}, effect: "", label: "buy {n} widgets"}
  spin: {during: main, limit: {per_turn: 1}, effect: "", label: "spin the wheel"}
  rest: {during: main, condition: "credits(me) > 10", effect: "", label: "rest a while"}
  stop: {during: main, ends: turn, effect: "", label: "stop"}
flow: |
  turn 0:
    take actions main
"""


def test_each_reason_an_action_is_out_of_reach_and_reading_them_changes_nothing(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    from conftest import toy, write_toy

    from interpreter.play.blocked import blocked_actions

    path = write_toy(tmp_path, OUT_OF_REACH)
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["spin the wheel", "quit"], str(path.parent), "--seats", "human,random")
    assert code == 0
    first, second = (part.replace("\n      ", " ") for part in out.split("P1> ")[:2])  # unwrapped
    assert "Not yet: buy 5 widgets - needs 5 credits (you have 2); rest a while - not now" in first
    assert "spin the wheel - once per turn" in second and "spin" not in second.split("Choose (")[1].split("Not yet")[0]
    state = toy(tmp_path, OUT_OF_REACH).new_initial_state(2, seed=1)
    before = state.clone()
    found = blocked_actions(state, {a.text for a in state.legal_actions()})
    assert [(b.text, b.reason) for b in found] == [("buy 5 widgets", "needs 5 credits (you have 2)"),
                                                   ("rest a while", "not now")]
    assert state == before


# ---- 7. many small payments at once -------------------------------------------------------------


def test_auto_pays_card_by_card_and_stops_at_the_next_action(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["1", "auto", "quit"], "rocketmen", "--seed", "3")
    assert code == 0
    assert out.count("P1 (auto): ") >= 3
    after = out.split("P1 (auto): ")[-1]
    assert "Choose (main):" in after  # the payment is over: the next action is asked for
    saved = json.loads(next(tmp_path.glob("*.orrery-log.json")).read_text(encoding="utf-8"))
    assert saved["actions"][0].startswith("buy ") and len(saved["actions"]) == 1 + out.count("P1 (auto): ")


def test_answers_typed_ahead_are_used_in_turn_and_a_wrong_one_stops_them(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["1", "1, 1, 99, 1", "quit"], "rocketmen", "--seed", "3")
    assert code == 0
    assert out.count("P1 (typed ahead): ") == 2  # 1 now, then 1; 99 answers nothing
    assert "There is no action 99" in out and "typed ahead are dropped" in out
    saved: dict[str, Any] = json.loads(next(tmp_path.glob("*.orrery-log.json")).read_text(encoding="utf-8"))
    assert len(saved["actions"]) == 3


def test_auto_outside_a_choice_explains_itself(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = play(capsys, monkeypatch, ["auto", "quit"], KUHN, "--seed", "3")
    assert code == 0 and "'auto' answers the choices inside an action" in out


# ---- 8. an unknown name is a usage error (exit 2), with a did-you-mean ------------------------


_UNKNOWN_NAMES = [
    (["kuhn-pokr"], "did you mean 'kuhn-poker'?"),
    (["rocketmen", "--variant", "solitair"], "did you mean 'solitaire'?"),
    (["rocketmen", "--with", "target-jupitr"], "did you mean 'target-jupiter'?"),
    (["kuhn-poker", "--seats", "human,randm"], "did you mean 'random'?"),
]
# validate takes no --variant, and neither describe nor validate takes --seats
_TAKES_NO = {"validate": ("--variant", "--seats"), "describe": ("--seats",)}


@pytest.mark.parametrize(("command", "argv", "hint"), [
    (command, argv, hint)
    for command in ("play", "simulate", "analyze", "serve", "describe", "validate")
    for argv, hint in _UNKNOWN_NAMES
    if not any(flag in argv for flag in _TAKES_NO.get(command, ()))
])
def test_unknown_names_exit_2_with_a_suggestion(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                               command: str, argv: list[str], hint: str) -> None:
    if command in ("simulate", "analyze") and "--seats" in argv:
        argv = ["kuhn-poker", "--seats", "first,randm"]
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    extra = ["--games", "2"] if command in ("simulate", "analyze") else []
    code = main([command, *argv, *extra])
    out, err = capsys.readouterr()
    assert code == 2, (command, argv, out, err)
    assert hint in out + err and "Traceback" not in out + err


def test_an_overlay_to_compare_with_that_is_not_there_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["analyze", "star-market", "--games", "2", "--compare-with", "star-market-overcharg"])
    assert code == 2 and "did you mean 'star-market-overcharge'?" in capsys.readouterr().err


# ---- 9 and 10. the solitaire hint; quitting saves ------------------------------------------------


def test_one_player_is_pointed_to_the_solitaire_variant(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("play", "simulate"):
        code = main([command, "rocketmen", "--players", "1"])
        _, err = capsys.readouterr()
        assert code == 2 and "for one player, add --variant solitaire" in err
    code = main(["play", KUHN, "--players", "1"])
    assert code == 2 and "--variant" not in capsys.readouterr().err  # Kuhn poker has no solitaire variant


def test_quitting_saves_the_game_and_it_resumes(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["11", "quit"], "rocketmen", "--seed", "3")
    saved = list(tmp_path.glob("*.orrery-log.json"))
    assert code == 0 and len(saved) == 1 and f"saved to {saved[0].name}" in out.replace("\n    ", " ")
    actions = json.loads(saved[0].read_text(encoding="utf-8"))["actions"]
    assert actions and actions[0] == "end_turn"
    code, out = play(capsys, monkeypatch, ["quit"], "--resume", str(saved[0]))
    assert code == 0 and f"resumed after {len(actions)} actions" in out


def test_a_player_count_outside_the_game_names_a_variant_that_takes_it(tmp_path, capsys) -> None:
    """The hint comes from the variants' own player counts, whatever they are called."""
    from conftest import write_toy

    from interpreter.cli import main
    path = write_toy(tmp_path, """
players: {min: 2, max: 2}
variants:
  big-table:
    description: six at the table
    set:
      players: {min: 3, max: 6}
actions:
  pass: {during: turn, effect: "", ends: turn}
flow: |
  turn 0:
    take actions turn
""")
    assert main(["simulate", str(path), "--players", "5", "--games", "1"]) == 2
    assert "for 5 players, add --variant big-table" in capsys.readouterr().err
    assert main(["simulate", str(path), "--players", "7", "--games", "1"]) == 2
    assert "add --variant" not in capsys.readouterr().err


MANY_WAYS = """
counters:
  credits: {scope: player, initial: 2}
actions:
  swap:
    during: main
    params: {a: "[1, 2, 3]", b: "[4, 5, 6]"}
    condition: "credits(me) > 10"
    effect: ""
    label: "swap {a} for {b}"
  buy: {during: main, params: {n: "[3, 4, 1]"}, cost: {credits: "n"}, effect: "", label: "buy {n} widgets"}
  stop: {during: main, ends: turn, effect: "", label: "stop"}
flow: |
  turn 0:
    take actions main
"""


def test_choices_out_of_reach_for_one_reason_are_one_line(tmp_path: pathlib.Path) -> None:
    """Nine combinations blocked by one condition are one line, counted; choices blocked
    for different reasons (costs that differ) keep a line each."""
    from conftest import toy

    from interpreter.play.blocked import blocked_actions

    state = toy(tmp_path, MANY_WAYS).new_initial_state(2, seed=1)
    found = blocked_actions(state, {a.text for a in state.legal_actions()})
    assert [(b.text, b.reason) for b in found] == [("swap (9 ways)", "not now"),
                                                   ("buy 3 widgets", "needs 3 credits (you have 2)"),
                                                   ("buy 4 widgets", "needs 4 credits (you have 2)")]


WHY_NOT = """
counters:
  credits: {scope: player, initial: 2}
  power: {scope: player, initial: 0}
actions:
  rest: {during: main, condition: "credits(me) > 10", effect: "", label: "rest a while",
         why_not: [{when: "credits(me) < 5", say: "needs more than 10 credits ({credits(me)} now)"}]}
  sing: {during: main, condition: "power(me) > 0", effect: "", label: "sing (a special power)",
         why_not: [{when: "power(me) == 0", hide: true}]}
  stop: {during: main, ends: turn, effect: "", label: "stop"}
flow: |
  turn 0:
    take actions main
"""


def test_a_condition_out_of_reach_says_the_games_reason_and_anothers_power_is_not_listed(
        tmp_path: pathlib.Path) -> None:
    from conftest import toy

    from interpreter.play.blocked import blocked_actions, blocked_summary

    state = toy(tmp_path, WHY_NOT).new_initial_state(2, seed=1)
    found = blocked_actions(state, {a.text for a in state.legal_actions()})
    assert blocked_summary(found) == "rest a while - needs more than 10 credits (2 now)"


def test_race_to_mars_says_why_launch_waits_and_hides_headquarters_powers_one_lacks(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = play(capsys, monkeypatch, ["1"] * 6 + ["quit"], "race-to-mars", "--seats", "human,pilot",
                     "--seed", "4")
    assert code == 0
    blocked = out.split("Not yet: ")[1].split("P1> ")[0].replace("\n      ", " ")
    assert "launch your rocket - all 12 Space cards must be on the trajectories first" in blocked
    assert "Headquarters" not in blocked and "not now" not in blocked
