"""Simultaneous steps (`take actions GROUP simultaneously [for LIST]`,
runtime/simultaneous.py): the rules (order, costs, who sits out, game bots), the State
API (SIMULTANEOUS, per-player legal actions, picks one at a time or at once, bad
input), secrecy (observations, tensors, the terminal, agents), saves and logs, and the
PettingZoo environment. Goofspiel against OpenSpiel is in test_goofspiel.py."""

from __future__ import annotations

import io
import json
import pathlib
import sys
from typing import Any

import pytest
from conftest import toy, toy_errors

from interpreter import SIMULTANEOUS, GameError, IllegalActionError, RuleRuntimeError, load_game
from interpreter.agents import BaseAgent
from interpreter.cli import main
from interpreter.play.runner import play_game, replay_actions, seat_agents

ROOT = pathlib.Path(__file__).resolve().parent.parent
RPS = str(ROOT / "examples" / "rock-paper-scissors")
GOOFSPIEL = str(ROOT / "examples" / "goofspiel")

OFFERS = """
players: {min: 3, max: 3}
counters:
  coins: {scope: player, initial: 3, min: 0, visible: owner}
  order: {scope: global, size: 3, initial: 0}
  done: {scope: global, initial: 0}
  seen: {scope: player, initial: -1}
actions:
  offer:
    during: bid
    params: {amount: "range(0, 3)"}
    condition: "me != sitter"
    cost: {coins: "amount"}
    effect: |
      set order[done % 3] to me + 1
      set done to done + 1
      set seen(me) to sum([coins(p) for p in players])
constants:
  sitter: 9
flow: |
  take actions bid simultaneously for [2, 0, 1]
  take actions bid simultaneously
bots:
  lowball: {description: "offers the least", choose: first}
  grabber: {description: "takes a coin instead", turn: "set order[2] to 7"}
"""


def offers(tmp_path: pathlib.Path, seats: list[str] | None = None, sitter: int = 9) -> Any:
    game = toy(tmp_path, OFFERS.replace("sitter: 9", f"sitter: {sitter}"))
    return game, game.new_initial_state(3, seed=1, seats=seats)


# ---- the rules ---------------------------------------------------------------------------------


def test_picks_wait_then_costs_are_paid_then_effects_run_in_the_lists_order(tmp_path: pathlib.Path) -> None:
    _, state = offers(tmp_path)
    assert state.current_player() == SIMULTANEOUS and state.is_simultaneous_node()
    assert state.players_to_act() == [2, 0, 1]  # the list's order
    state.apply_action("offer 1", player=0)
    state.apply_action("offer 2", player=1)
    assert state.observation(-1)["counters"]["order"] == [0, 0, 0]  # nothing happens before the last pick
    state.apply_action("offer 0", player=2)
    counters = state.to_dict()["counters"]
    assert state.observation(-1)["counters"]["order"] == [3, 1, 2]  # P3, P1, P2: the `for` list
    # Every cost was paid before the first effect ran: each effect saw 9 - 3 coins.
    assert state.observation(-1)["counters"]["seen"] == [6, 6, 6]
    assert counters[0] == [2, 1, 3]
    assert state.history == ["P1: offer 1", "P2: offer 2", "P3: offer 0"]
    assert state.players_to_act() == [0, 1, 2]  # the next step: every seat, in seat order


def test_a_player_without_legal_action_sits_the_step_out(tmp_path: pathlib.Path) -> None:
    _, state = offers(tmp_path, sitter=1)
    assert state.players_to_act() == [2, 0] and state.legal_actions(1) == []
    with pytest.raises(IllegalActionError, match="P2 does not pick in this simultaneous step"):
        state.apply_action("offer 0", player=1)
    with pytest.raises(IllegalActionError, match="P2 does not pick now"):
        state.apply_actions(["offer 0", "offer 0", "offer 0"])
    state.apply_actions(["offer 1", None, "offer 2"])
    assert state.observation(-1)["counters"]["order"] == [3, 1, 0]


def test_game_bots_pick_inside_the_state_and_their_picks_show_only_at_the_reveal(tmp_path: pathlib.Path) -> None:
    _, state = offers(tmp_path, seats=["random", "lowball", "grabber"])
    assert state.players_to_act() == [0]  # the bots have picked already, unseen
    assert list(state.log) == [] and state.observation(1).get("decision") is None
    state.apply_action("offer 2")
    assert list(state.log) == ["P2 (lowball): offer 0"]
    # P3's turn effect ran at its place (first), before P1's and P2's actions wrote the order.
    assert state.observation(-1)["counters"]["order"] == [1, 2, 7]
    assert state.history == ["P1: offer 2"]


def test_a_step_of_bots_only_needs_no_decision(tmp_path: pathlib.Path) -> None:
    _, state = offers(tmp_path, seats=["lowball", "lowball", "lowball"])
    assert state.is_terminal() and len(state.log) == 6 and state.history == []


def test_rule_errors_in_the_players_list(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, OFFERS.replace("for [2, 0, 1]", "for [0, 0]"))
    with pytest.raises(RuleRuntimeError, match="names P1 twice"):
        game.new_initial_state(3, seed=1)
    errors = toy_errors(tmp_path, OFFERS.replace("for [2, 0, 1]", "for 2"))
    assert [e.code for e in errors] == ["type"]
    errors = toy_errors(tmp_path, OFFERS.replace("bid simultaneously\n", "bids simultaneously\n"))
    assert [e.code for e in errors] == ["unknown-group"] and "bid" in (errors[0].hint or "")


def test_the_statement_is_found_in_the_rules(tmp_path: pathlib.Path) -> None:
    assert load_game(RPS).definition.facts.uses_simultaneous
    assert not load_game("tic-tac-toe").definition.facts.uses_simultaneous


# ---- the State API -------------------------------------------------------------------------------


def test_picks_in_any_order_and_at_once_give_the_same_state(tmp_path: pathlib.Path) -> None:
    _, state = offers(tmp_path)
    ordered, reverse, joint = state.clone(), state.clone(), state.clone()
    for p, text in ((0, "offer 1"), (1, "offer 0"), (2, "offer 2")):
        ordered.apply_action(text, player=p)
    for text in ("P3: offer 2", "P2: offer 0", "P1: offer 1"):  # the history's form names the player
        reverse.apply_action(text)
    joint.apply_actions(["offer 1", "offer 0", "offer 2"])
    assert ordered.to_dict()["counters"] == reverse.to_dict()["counters"] == joint.to_dict()["counters"]
    assert reverse.history == ["P3: offer 2", "P2: offer 0", "P1: offer 1"]
    # Without a player, the pick is the first seat's still to pick (turn-based code works).
    state.apply_action("offer 1")
    assert state.players_to_act() == [0, 1] and state.legal_actions() == state.legal_actions(0)


def test_bad_picks_are_refused_and_change_nothing(tmp_path: pathlib.Path) -> None:
    _, state = offers(tmp_path)
    state.apply_action("offer 1", player=2)
    before = state.to_json()
    cases = [
        (lambda: state.apply_action("offer 1", player=2), "P3 has picked already"),
        (lambda: state.apply_action("offer 7", player=0), "'offer 7' is not a legal action of P1"),
        (lambda: state.apply_action("P1: offer 1", player=1), "is a pick of P1, not of P2"),
        (lambda: state.apply_action("offer 1", player=5), "no player 5"),
        (lambda: state.apply_actions(["offer 1", "offer 1"]), "one entry per seat \\(3\\), got 2"),
        (lambda: state.apply_actions(["offer 1", "offer 1", "offer 1"]), "P3 does not pick now"),
        (lambda: state.apply_actions(["offer 1", None, None]), "P2 has to pick in this step"),
        (lambda: state.apply_actions(["offer 1", "offer 9", None]), "'offer 9' is not a legal action of P2"),
        (lambda: state.apply_action_ids([0, 99, None]), "outside"),
        (lambda: state.apply_action_id(0, player=2), "not legal now for P3"),
    ]
    for attempt, message in cases:
        with pytest.raises(IllegalActionError, match=message):
            attempt()
        assert state.to_json() == before
    state.apply_action_ids([2, 0, None])
    assert state.history[-2:] == ["P1: offer 2", "P2: offer 0"]


def test_apply_actions_outside_a_step_is_refused() -> None:
    state = load_game("tic-tac-toe").new_initial_state(2, seed=1)
    with pytest.raises(IllegalActionError, match="P1 alone \\(use apply_action\\)"):
        state.apply_actions(["place 0", None])
    with pytest.raises(IllegalActionError, match="P2 is not to act now"):
        state.apply_action("place 0", player=1)
    state.apply_action("place 0", player=0)
    assert state.players_to_act() == [1]


# ---- secrecy -----------------------------------------------------------------------------------------


def test_observations_and_tensors_show_only_ones_own_decision(tmp_path: pathlib.Path) -> None:
    _, state = offers(tmp_path)
    views = {p: state.observation(p) for p in range(3)}
    tensors = {p: state.observation_tensor(p) for p in range(3)}
    assert all("decision" in views[p] for p in range(3))
    state.apply_action("offer 2", player=0)
    assert "decision" not in state.observation(0)
    for p in (1, 2):  # the others see exactly what they saw before P1 picked
        assert state.observation(p) == views[p]
        assert state.observation_tensor(p) == tensors[p]
        assert state.observation_string(p) == state.clone().observation_string(p)
    assert state.observation_tensor(0) != tensors[0]  # P1's own decision is made


class Recorder(BaseAgent):
    """Picks the first legal action; remembers what it was told, and when."""

    def __init__(self, seat: int, told: list[tuple[int, int, str]]):
        self.seat, self.told = seat, told

    def step(self, state: Any) -> Any:
        return state.legal_actions(self.seat)[0]

    def inform_action(self, state: Any, player: int, action: Any) -> None:
        self.told.append((self.seat, player, str(action)))


def test_agents_are_told_the_picks_only_when_the_step_is_over() -> None:
    game = load_game(RPS)
    told: list[tuple[int, int, str]] = []
    agents = {p: Recorder(p, told) for p in range(2)}
    asked: list[int] = []
    state = game.new_initial_state(2, seed=1)

    def on_action(st: Any, player: int, text: str) -> None:
        asked.append(len(told))  # how much had been told when each pick was applied

    from interpreter.play.runner import run
    run(state, agents, on_action)
    assert state.history == ["P1: rock", "P2: rock"]
    assert asked == [0, 2]  # nothing was told after P1's pick; both picks after P2's
    assert told == [(1, 0, "rock"), (0, 1, "rock")]


def test_a_replay_tells_the_picks_when_the_step_is_over_and_each_agent_once() -> None:
    """Replaying is telling: every agent hears every recorded move (its own too), a
    step's picks once the step is over, as in play; one agent playing both seats
    hears each move once."""
    game = load_game(RPS)
    told: list[tuple[int, int, str]] = []
    heard: list[int] = []
    state = game.new_initial_state(2, seed=1)
    replay_actions(state, ["P1: rock", "P2: paper"], {p: Recorder(p, told) for p in range(2)},
                   lambda st, player, text: heard.append(len(told)))
    assert heard == [0, 4]  # nothing told after P1's pick; both picks, to both agents, after P2's
    assert sorted(told) == [(0, 0, "P1: rock"), (0, 1, "P2: paper"), (1, 0, "P1: rock"), (1, 1, "P2: paper")]
    one = Recorder(0, told)
    told.clear()
    replay_actions(game.new_initial_state(2, seed=1), ["P1: rock", "P2: paper"], {0: one, 1: one})
    assert told == [(0, 0, "P1: rock"), (0, 1, "P2: paper")]


def test_the_runner_plays_every_seat_kind(tmp_path: pathlib.Path) -> None:
    for seats in (["random", "first"], ["matcher", "gambler"], ["first", "matcher"]):
        state = play_game(load_game(GOOFSPIEL), 2, seats, seed=4)
        assert state.is_terminal() and state.round_no == 13
    # A recorded game replays, with every agent informed, to the same end.
    state = play_game(load_game(GOOFSPIEL), 2, ["random", "random"], seed=4)
    again = load_game(GOOFSPIEL).new_initial_state(2, seed=4, seats=["random", "random"])
    replay_actions(again, list(state.history), seat_agents(load_game(GOOFSPIEL), ["random", "random"], 4))
    assert again.to_json() == state.to_json()


# ---- saves, logs, the command line --------------------------------------------------------------


def test_a_save_in_the_middle_of_a_step_resumes_with_the_picks_made(tmp_path: pathlib.Path) -> None:
    game, state = offers(tmp_path)
    state.apply_action("offer 2", player=1)
    saved = state.to_json()
    loaded = game.state_from_json(saved)
    assert loaded == state and loaded.players_to_act() == [2, 0]
    loaded.apply_actions(["offer 0", None, "offer 1"])
    state.apply_actions(["offer 0", None, "offer 1"])
    assert loaded.to_json() == state.to_json()


@pytest.mark.parametrize(("change", "message"), [
    (lambda p: p.__setitem__(slice(4, 6), [[1, 2, 0], ["offer 9", None, None]]), "the pick of P2 is not legal there"),
    (lambda p: p.__setitem__(1, 1), "waits for the wrong player"),
    (lambda p: p.__setitem__(4, [2, 2, 1]), "names a player twice"),
    (lambda p: p.__setitem__(2, "nope"), "unknown action group"),
    (lambda p: p.__setitem__(5, ["offer 0", "offer 0", "offer 0"]), "wrong player"),
    (lambda p: p.pop(), "bad simultaneous step"),
])
def test_a_tampered_step_in_a_save_is_refused(tmp_path: pathlib.Path, change: Any, message: str) -> None:
    game, state = offers(tmp_path)
    data = json.loads(state.to_json())
    assert data["pending"][0] == "simultaneous"
    change(data["pending"])
    with pytest.raises(GameError, match=message):
        game.state_from_json(json.dumps(data))


def _cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str],
         *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def test_two_humans_at_one_terminal_never_see_each_others_pick(capsys: pytest.CaptureFixture[str],
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: pathlib.Path) -> None:
    log = tmp_path / "rps.json"
    code, out = _cli(capsys, monkeypatch, ["scissors", "log", "paper"], "play", RPS, "--seats", "human,human",
                     "--seed", "2", "--log", str(log))
    assert code == 0
    before_reveal, after = out.split("All have chosen.")
    assert "P1 has chosen." in before_reveal
    assert "P1: scissors" not in before_reveal  # P2's screen, its log command included
    assert "(secret until everyone has chosen)" in before_reveal
    assert "P1: scissors; P2: paper" in after and "Winner: P1" in after
    assert json.loads(log.read_text())["actions"] == ["P1: scissors", "P2: paper"]
    code, out = _cli(capsys, monkeypatch, [], "replay", str(log), "--verify")
    assert code == 0 and "verified" in out and "   1. P1: scissors" in out


def test_a_game_quit_in_the_middle_of_a_step_resumes_there(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           tmp_path: pathlib.Path) -> None:
    log = tmp_path / "goof.json"
    code, out = _cli(capsys, monkeypatch, ["bid 13", "quit"], "play", GOOFSPIEL, "--seats", "random,human",
                     "--seed", "5", "--log", str(log))
    assert code == 0
    actions = json.loads(log.read_text())["actions"]
    # P1 (random) had picked in round 2; P2 had not when the human quit.
    assert len(actions) == 3 and actions[0].startswith("P1: bid ") and actions[1] == "P2: bid king#38"
    code, out = _cli(capsys, monkeypatch, ["1"] * 12, "play", "--resume", str(log))
    assert code == 0 and "resumed after 3 actions" in out and "Game over" in out
    code, out = _cli(capsys, monkeypatch, [], "replay", str(log), "--verify")
    assert code == 0 and "verified: 24 actions" in out


def test_simulate_plays_the_examples(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out = _cli(capsys, monkeypatch, [], "simulate", GOOFSPIEL, "--games", "20", "--seats", "matcher,random",
                     "--json")
    summary = json.loads(out)
    assert code == 0 and summary["completed"] == 20 and summary["wins"][0] > summary["wins"][1]
    code, out = _cli(capsys, monkeypatch, [], "simulate", RPS, "--games", "30")
    assert code == 0 and "Errors: 0" in out


# ---- the PettingZoo environment -------------------------------------------------------------------


def test_the_aec_environment_asks_each_seat_in_turn_and_applies_the_step_at_the_end() -> None:
    pettingzoo = pytest.importorskip("interpreter.pettingzoo")
    env = pettingzoo.env(GOOFSPIEL, variants=["descending"], seed=1)
    env.reset(seed=1)
    selected = []
    for agent in env.agent_iter():
        _, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        selected.append(agent)
        legal = [a for a, on in enumerate(info["action_mask"]) if on]
        # The other seat's mask is empty until its own turn in the step.
        other = f"player_{1 - int(agent[-1])}"
        if agent == "player_1":
            assert not any(env.infos[other]["action_mask"])
        env.step(legal[-1])  # always the highest card: every bid ties, every point card is discarded
    assert selected == ["player_0", "player_1"] * 12
    assert env.state.returns() == [0.0, 0.0]


def test_rock_paper_scissors_pays_as_openspiels_matrix_game() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    theirs = pyspiel.load_game("matrix_rps")
    ours = load_game(RPS)
    for a in range(3):
        for b in range(3):
            state = ours.new_initial_state(2, seed=0)
            state.apply_action_ids([a, b])
            other = theirs.new_initial_state()
            other.apply_actions([a, b])
            assert state.returns() == other.returns(), (a, b)


def test_an_effect_may_ask_its_player_a_question_after_the_reveal(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, """
        counters:
          got: {scope: player, initial: 0}
        actions:
          ask:
            during: go
            effect: |
              choose one prompt "how many?":
                "one":
                  gain 1 got(me)
                "two":
                  gain 2 got(me)
          skip: {during: go}
        flow: |
          take actions go simultaneously
          take actions go simultaneously
        scoring: {score: "got(p)"}
    """)
    state = game.new_initial_state(2, seed=1)
    state.apply_actions(["ask", "ask"])
    # The picks are revealed; P1's effect asks P1 (an ordinary decision), then P2's asks P2.
    assert state.current_player() == 0 and state.legal_actions() == ["one", "two"]
    state.apply_action("two")
    assert state.current_player() == 1 and state.observation(-1)["counters"]["got"] == [2, 0]
    state.apply_action("one")
    assert state.is_simultaneous_node() and state.history == ["P1: ask", "P2: ask", "two", "one"]
    saved = game.state_from_json(state.to_json())
    saved.apply_actions(["skip", "skip"])
    assert saved.is_terminal() and saved.winners == [0]
