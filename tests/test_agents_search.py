"""The search seats `mcts` and `ismcts`: registered like every seat kind, options
checked, sensible moves, reproducible, and no peeking at hidden cards."""

from __future__ import annotations

import pathlib
import random

import pytest
from conftest import HARVEST, counter, toy

from interpreter import GameError, State, create_agent, load_game
from interpreter.agents import describe_kinds
from interpreter.play.runner import play_game


def _other_world(st: State, player: int) -> State:
    """A state `player` cannot tell from `st` whose hidden cards differ."""
    for seed in range(50):
        other = st.resample_from_infostate(player, random.Random(seed))
        if other.card_def != st.card_def:
            return other
    raise AssertionError("no other deal of the hidden cards found")


def test_seat_kinds_are_registered_with_their_options() -> None:
    kinds = {k["id"]: k for k in describe_kinds(load_game("kuhn-poker").definition)}
    for name in ("mcts", "ismcts"):
        assert kinds[name]["kind"] == "agent"
        assert kinds[name]["options"] == ["iterations", "seconds", "c", "rollout", "depth", "horizon", "paired",
                                          "margin", "solver", "widen"]


def test_indistinguishable_states_get_the_same_decision() -> None:
    game = load_game("kuhn-poker")
    decisions = 0
    for seed in range(12):
        st = game.new_initial_state(2, seed)
        me = st.current_player()
        other = _other_world(st, me)
        assert other.observation(me) == st.observation(me)
        assert [a.text for a in other.legal_actions()] == [a.text for a in st.legal_actions()]
        assert other.card_def != st.card_def  # the opponent's card really differs
        a = create_agent("ismcts:iterations=60", game, seed=3).step(st)
        b = create_agent("ismcts:iterations=60", game, seed=3).step(other)
        assert a.text == b.text
        decisions += 1
    assert decisions == 12


def test_worlds_depend_only_on_what_the_seat_has_seen() -> None:
    game = load_game("race-to-mars")
    st = game.new_initial_state(3, 5)
    for _ in range(25):
        st.apply_action(st.legal_actions()[0])
    me = st.current_player()
    other = _other_world(st, me)
    assert other.observation(me) == st.observation(me)
    a = st.resample_from_infostate(me, random.Random(9))
    b = other.resample_from_infostate(me, random.Random(9))
    assert a.card_def == b.card_def and a.rng == b.rng
    assert a.observation(me) == st.observation(me)  # still a world the seat cannot tell apart
    # every card keeps its back: a Headquarters card is never dealt into the Space deck
    for slot, cards in enumerate(a.zones):
        backs = sorted(a.gd.cards[a.card_def[c]].back for c in cards)
        assert backs == sorted(st.gd.cards[st.card_def[c]].back for c in st.zones[slot])


def test_ismcts_decisions_differ_with_what_the_seat_sees() -> None:
    """Not a constant agent: facing a bet in Kuhn poker, it calls with the King and
    folds the Jack."""
    game = load_game("kuhn-poker")
    seen: dict[str, set[str]] = {}
    for seed in range(30):
        st = game.new_initial_state(2, seed)
        st.apply_action("bet")
        me = st.current_player()
        card = st.observation(me)["zones"]["hand"][me]["cards"][0]
        seen.setdefault(card, set()).add(create_agent("ismcts:iterations=200", game, seed=1).step(st).text)
    assert seen["jack#0"] == {"pass"} and seen["king#2"] == {"bet"}, seen


def test_mcts_takes_a_win_and_blocks_a_loss_at_tic_tac_toe() -> None:
    game = load_game("tic-tac-toe")
    st = game.new_initial_state(2, 0)
    for text in ("place 0", "place 3", "place 1"):  # X threatens 0-1-2; O must block at 2
        st.apply_action(text)
    assert create_agent("mcts:iterations=300", game, seed=1).step(st).text == "place 2"
    st.apply_action("place 4")  # O blocks... no: O played 4, X wins at 2
    assert create_agent("mcts:iterations=300", game, seed=1).step(st).text == "place 2"


def test_mcts_never_loses_a_few_games_to_random() -> None:
    game = load_game("tic-tac-toe")
    for seed in range(4):
        seats = ["mcts:iterations=300", "random"] if seed % 2 == 0 else ["random", "mcts:iterations=300"]
        st = play_game(game, 2, seats, seed)
        me = seed % 2
        assert st.returns()[me] >= 0


def test_seeded_agents_are_reproducible() -> None:
    game = load_game("kuhn-poker")
    a = play_game(game, 2, ["ismcts:iterations=50", "random"], 11)
    b = play_game(game, 2, ["ismcts:iterations=50", "random"], 11)
    assert list(a.history) == list(b.history)


def test_rollout_by_a_game_bot_and_depth_cap() -> None:
    game = load_game("race-to-mars")
    st = game.new_initial_state(3, 2)
    agent = create_agent("ismcts:iterations=4,rollout=pilot,depth=6", game, seed=1)
    action = agent.step(st)
    assert action in st.legal_actions()
    assert st.seats == ["random", "random", "random"] or st.seats  # the true state is untouched
    assert not st.terminal and st.history == game.new_initial_state(3, 2).history


def test_seconds_budget() -> None:
    game = load_game("tic-tac-toe")
    st = game.new_initial_state(2, 0)
    agent = create_agent("mcts:seconds=0.05", game, seed=1)
    assert agent.step(st) in st.legal_actions()


def test_mcts_refuses_a_game_with_hidden_information() -> None:
    with pytest.raises(GameError, match="ismcts"):
        create_agent("mcts", load_game("kuhn-poker"))


@pytest.mark.parametrize(("spec", "message"), [
    ("ismcts:iterations=zero", "not a number"),
    ("ismcts:iterations=0", "at least 1"),
    ("ismcts:c=-1", "at least 0"),
    ("ismcts:seconds=0", "more than 0"),
    ("ismcts:rollout=nobody", "use random, first or a bot"),
    ("ismcts:depth=-2", "at least 0"),
    ("ismcts:horizon=-1", "at least 0"),
    ("ismcts:horizon=two", "not a number"),
    ("ismcts:width=3", "no option 'width'"),
    ("ismcts:paired=2", "must be 0 or 1"),
    ("ismcts:margin=-0.5", "at least 0"),
    ("ismcts:margin=1.5", "at most 1"),
    ("ismcts:solver=2", "must be 0 or 1"),
    ("ismcts:solver=1", "for 'mcts' only"),
    ("ismcts:widen=1", "less than 1"),
])
def test_bad_options_are_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(GameError, match=message):
        create_agent(spec, load_game("kuhn-poker"))


def test_cli_plays_with_search_seats(capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main
    assert main(["simulate", "tic-tac-toe", "--seats", "mcts:iterations=50,c=1,rollout=first,random",
                 "--games", "2"]) == 0
    assert "Wins" in capsys.readouterr().out
    assert main(["simulate", "kuhn-poker", "--seats", "mcts,random", "--games", "1"]) != 0


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_a_sealed_pick_of_a_simultaneous_step_is_not_seen(kind: str) -> None:
    """Rock-paper-scissors: whatever P1 picked (sealed), P2's search decides the same;
    had it seen the pick it would always answer with the winning shape."""
    game = load_game("rock-paper-scissors")
    answers = set()
    for pick in ("rock", "paper", "scissors"):
        st = game.new_initial_state(2, 0)
        st.apply_action(pick, 0)
        assert st.players_to_act() == [1]
        answers.add(create_agent(f"{kind}:iterations=200", game, seed=4, seat=1).step(st).text)
    assert len(answers) == 1


def test_search_plays_a_simultaneous_game_to_its_end() -> None:
    st = play_game(load_game("goofspiel"), 2, ["ismcts:iterations=30", "random"], 3)
    assert st.terminal


# One decision, then the game ends: `lose` comes first in the declared order, so a pick
# by visits alone (each action visited once) would take it.
ONE_DECISION = """
actions:
  lose: {during: turn, effect: "end game winners [1]"}
  win: {during: turn, effect: "end game winners [0]"}
flow: |
  turn 0:
    take actions turn
"""


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_equal_visits_are_decided_by_the_better_mean(kind: str, tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, ONE_DECISION)
    st = game.new_initial_state(2, seed=1)
    assert [a.text for a in st.legal_actions()] == ["lose", "win"]
    assert create_agent(f"{kind}:iterations=2", game, seed=1).step(st).text == "win"


def test_paired_worlds_serve_each_root_action_and_stay_reproducible() -> None:
    game = load_game("kuhn-poker")
    st = game.new_initial_state(2, 5)
    agent = create_agent("ismcts:iterations=40,paired=1,margin=0.5", game, seed=2)
    sampled = []
    sample = agent._sample  # type: ignore[attr-defined]
    agent._sample = lambda *args: sampled.append(1) or sample(*args)  # type: ignore[attr-defined]
    first = agent.step(st)
    legal = st.legal_actions()
    assert first in legal and agent.iterations_done == 40
    assert len(sampled) == -(-40 // len(legal))  # one world per round of the root's actions
    unpaired = create_agent("ismcts:iterations=40", game, seed=2)
    sample_unpaired = unpaired._sample  # type: ignore[attr-defined]
    unpaired._sample = lambda *args: sampled.append(1) or sample_unpaired(*args)  # type: ignore[attr-defined]
    sampled.clear()
    unpaired.step(st)
    assert len(sampled) == 40
    assert create_agent("ismcts:iterations=40,paired=1,margin=0.5", game, seed=2).step(st) == first
    a = play_game(game, 2, ["ismcts:iterations=30,paired=1", "random"], 11)
    b = play_game(game, 2, ["ismcts:iterations=30,paired=1", "random"], 11)
    assert list(a.history) == list(b.history) and a.terminal


def test_margin_blends_the_final_lead_into_a_finished_rollout(tmp_path: pathlib.Path) -> None:
    """A finished game is worth its returns, moved toward each seat's final lead in
    `scoring.score` by the margin weight."""
    from interpreter.agents.search import SearchAgent, SearchOptions

    game = toy(tmp_path, """
        counters:
          vp: {scope: player, initial: 0}
        scoring:
          score: "vp(p)"
        flow: |
          gain 3 vp(0)
          end game winners [0]
        """)
    st = game.new_initial_state(2, seed=1)
    assert st.terminal and st.returns() == [1.0, -1.0]
    lead = (3 - 0) / (3 + 0 + 1)
    plain = SearchAgent(SearchOptions(), 1, determinizing=False)._rollout(st.clone(), random.Random(0), 0)
    blended = SearchAgent(SearchOptions(margin=0.5), 1, determinizing=False)._rollout(st.clone(), random.Random(0), 0)
    assert plain == [1.0, -1.0]
    assert blended == pytest.approx([0.5 + 0.5 * lead, -0.5 - 0.5 * lead])


@pytest.mark.parametrize("kind", ["mcts", "ismcts"])
def test_horizon_values_the_game_a_few_turns_on(kind: str, tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, HARVEST)
    st = game.new_initial_state(2, seed=3)
    assert [a.text for a in st.legal_actions()] == ["grab", "sow"]
    assert create_agent(f"{kind}:iterations=200,margin=1", game, seed=1).step(st).text == "sow"
    assert create_agent(f"{kind}:iterations=200,horizon=1", game, seed=1).step(st).text == "grab"
    # A game bot's rollout plays inside the state: the horizon stops it all the same.
    assert create_agent(f"{kind}:iterations=50,horizon=1,rollout=grabber", game, seed=1).step(st).text == "grab"
    assert st.stop_turn is None and st.turn_no == 1 and not st.history  # the true state untouched


def test_the_engine_stops_where_the_horizon_turn_would_begin(tmp_path: pathlib.Path) -> None:
    from interpreter.model.seats import SeatSpec, seating_of
    from interpreter.runtime.errors import HorizonReached
    from interpreter.runtime.state import seat

    game = toy(tmp_path, HARVEST)
    st = game.new_initial_state(2, seed=3)
    saved = st.to_json()
    world = st.clone()
    world.stop_turn = 4  # turns 1 to 3 are played, turn 4 does not begin
    assert world.clone().stop_turn is None  # clones and saves never carry it
    seat(world, seating_of([SeatSpec("grabber")] * 2, world.gd.bots))  # game bots play the rest inside the state
    with pytest.raises(HorizonReached):
        world.apply_action("sow")
    assert world.turn_no == 3 and [counter(world, "vp", p) for p in (0, 1)] == [1, 1]
    assert st.to_json() == saved


def test_the_solver_proves_a_won_position_and_stops_searching() -> None:
    game = load_game("tic-tac-toe")
    st = game.new_initial_state(2, 0)
    for text in ("place 0", "place 3", "place 1", "place 4"):  # X to move wins at 2
        st.apply_action(text)
    agent = create_agent("mcts:iterations=500,solver=1", game, seed=1)
    assert agent.step(st).text == "place 2"
    assert agent.last_root.proven == [1.0, -1.0] and agent.iterations_done < 20  # proven, not searched on
    st = game.new_initial_state(2, 0)
    for text in ("place 0", "place 3", "place 1"):  # O must block at 2: the solver sees it with a small budget
        st.apply_action(text)
    assert create_agent("mcts:iterations=20,solver=1", game, seed=1).step(st).text == "place 2"
    st = game.new_initial_state(2, 0)
    for text in ("place 4", "place 0"):
        st.apply_action(text)
    agent = create_agent("mcts:iterations=5000,solver=1", game, seed=1)
    agent.step(st)
    assert agent.last_root.proven == [0.0, 0.0] and agent.iterations_done < 5000  # a draw with best play


DICE_OR_SAFE = """
counters:
  pts: {scope: player}
actions:
  safe: {during: main, effect: "gain 3 pts", ends: turn}
  dice: {during: main, effect: "gain ROLL pts", ends: turn}
flow: |
  for each p in players:
    turn p:
      take actions main
scoring:
  score: "pts(p)"
"""


def test_the_solver_proves_nothing_that_chance_decides(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, DICE_OR_SAFE.replace("ROLL", "random(1, 6)"))
    agent = create_agent("mcts:iterations=300,solver=1", game, seed=1)
    agent.step(game.new_initial_state(2, 0))
    assert agent.last_root.proven is None and agent.iterations_done == 300
    assert agent.last_root.children["safe"].proven is None  # the other seat may still roll
    fixed = toy(tmp_path, DICE_OR_SAFE.replace("ROLL", "4"))  # the same game without the dice
    agent = create_agent("mcts:iterations=300,solver=1", fixed, seed=1)
    assert agent.step(fixed.new_initial_state(2, 0)).text == "dice"
    assert agent.last_root.proven == [0.0, 0.0] and agent.iterations_done < 300


def test_progressive_widening_keeps_a_node_to_the_children_its_visits_allow() -> None:
    game = load_game("tic-tac-toe")
    agent = create_agent("mcts:iterations=30,widen=0.5", game, seed=1)
    agent.step(game.new_initial_state(2, 0))
    assert agent.last_root.visits == 30 and len(agent.last_root.children) == 6  # ceil(31 ** 0.5), not 9
    wide = create_agent("mcts:iterations=30", game, seed=1)
    wide.step(game.new_initial_state(2, 0))
    assert len(wide.last_root.children) == 9
