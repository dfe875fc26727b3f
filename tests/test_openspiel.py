"""The OpenSpiel adapter (interpreter/adapters/openspiel.py): game types from the
rules, OpenSpiel's own algorithms on orrery games (a full tree walk of tic-tac-toe,
MCTS), information states of Kuhn poker, clones, seeds and bad input (explicit
chance against OpenSpiel's own Kuhn poker: tests/test_openspiel_chance.py). Skipped when
OpenSpiel is not installed (`pip install 'orrery[openspiel]'`); the check that the
engine needs none of it runs always."""

from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap

import pytest
from conftest import write_toy
from test_conformance import GAMES, _id

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_the_engine_needs_no_learning_framework() -> None:
    """With numpy, pyspiel, pettingzoo and gymnasium unimportable, the engine and its
    learning API work, and the adapters say what to install."""
    script = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("numpy", "pyspiel", "open_spiel", "pettingzoo", "gymnasium"):
                    raise ImportError(f"blocked: {name}")
        sys.meta_path.insert(0, Block())
        from interpreter import load_game
        state = load_game("kuhn-poker").new_initial_state(2, seed=1)
        state.apply_action_id(state.legal_action_ids()[0])
        print(len(state.observation_tensor(0)), state.information_state_string(1).count("P1:"))
        for name in ("openspiel", "pettingzoo"):
            try:
                __import__("interpreter." + name)
            except ImportError as err:
                print(err)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""}, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == [str(len(_kuhn_tensor())), "1"]
    assert "pip install 'orrery[openspiel]'" in lines[1]
    assert "pip install 'orrery[pettingzoo]'" in lines[2]


def _kuhn_tensor() -> list[float]:
    from interpreter import load_game

    return load_game("kuhn-poker").new_initial_state(2).observation_tensor(0)


pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import get_all_states, mcts  # noqa: E402

from interpreter import IllegalActionError, load_game, openspiel  # noqa: E402


def test_tic_tac_toe_has_openspiels_5478_states() -> None:
    ours = openspiel.load("tic-tac-toe")
    theirs = pyspiel.load_game("tic_tac_toe")
    found = get_all_states.get_all_states(ours, depth_limit=-1, include_terminals=True,
                                          include_chance_states=False, to_string=str)
    reference = get_all_states.get_all_states(theirs, depth_limit=-1, include_terminals=True,
                                              include_chance_states=False, to_string=str)
    assert len(found) == len(reference) == 5478
    assert sum(s.is_terminal() for s in found.values()) == sum(s.is_terminal() for s in reference.values())


def test_game_types_come_from_the_rules() -> None:
    ttt = openspiel.load("tic-tac-toe")
    kinds = pyspiel.GameType
    assert (ttt.get_type().chance_mode, ttt.get_type().information, ttt.get_type().utility) == (
        kinds.ChanceMode.DETERMINISTIC, kinds.Information.PERFECT_INFORMATION, kinds.Utility.ZERO_SUM)
    assert (ttt.num_players(), ttt.num_distinct_actions(), ttt.max_utility(), ttt.min_utility()) == (2, 9, 1.0, -1.0)
    assert ttt.get_type().dynamics == kinds.Dynamics.SEQUENTIAL
    assert ttt.get_type().reward_model == kinds.RewardModel.TERMINAL
    kuhn = openspiel.load("kuhn-poker")  # its rules declare zero-sum returns in -2..2
    assert (kuhn.get_type().chance_mode, kuhn.get_type().information, kuhn.get_type().utility) == (
        kinds.ChanceMode.EXPLICIT_STOCHASTIC, kinds.Information.IMPERFECT_INFORMATION, kinds.Utility.ZERO_SUM)
    assert (kuhn.min_utility(), kuhn.max_utility(), kuhn.max_chance_outcomes()) == (-2.0, 2.0, 3)
    assert kuhn.max_game_length() == 3 and kuhn.utility_sum() == 0
    wide = openspiel.load("kuhn-poker", min_utility=-5, max_utility=5, max_game_length=7)  # options override
    assert (wide.min_utility(), wide.max_utility(), wide.max_game_length()) == (-5.0, 5.0, 7)
    sampled = openspiel.load("kuhn-poker", chance="sampled")
    assert sampled.get_type().chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC
    assert sampled.get_type().short_name.endswith("_sampled") and sampled.max_chance_outcomes() == 0
    general = openspiel.load("kuhn-poker", utility="general_sum")
    assert general.get_type().utility == kinds.Utility.GENERAL_SUM
    assert general.get_type().short_name.endswith("_general_sum") and general.utility_sum() is None
    market = openspiel.load("star-market", players=3)
    assert market.num_players() == 3 and market.get_type().utility == kinds.Utility.GENERAL_SUM
    assert market.num_distinct_actions() == load_game("star-market").num_distinct_actions(3)
    assert market.observation_tensor_shape() == load_game("star-market").observation_tensor_shape(3)


def test_a_registered_game_loads_by_name() -> None:
    openspiel.load("tic-tac-toe")
    again = pyspiel.load_game("orrery_tic_tac_toe")
    state = again.new_initial_state()
    state.apply_action(4)
    assert state.history() == [4] and state.current_player() == 1


def test_another_rule_set_with_the_same_id_gets_its_own_name(tmp_path) -> None:
    text = (ROOT / "examples/tic-tac-toe/game.yaml").read_text(encoding="utf-8")
    changed = write_toy(tmp_path, text.replace('description: Two players', 'description: Also two players'))
    bundled = openspiel.load("tic-tac-toe")  # first (the test may run alone): it keeps the plain name
    mine = openspiel.load(str(changed))
    assert bundled.get_type().short_name == "orrery_tic_tac_toe"
    assert mine.get_type().short_name.startswith("orrery_tic_tac_toe_")


def test_mcts_plays_tic_tac_toe_to_the_end() -> None:
    game = openspiel.load("tic-tac-toe")
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=60,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert 5 <= len(state.history()) <= 9


def test_mcts_plays_a_card_game_with_hidden_cards() -> None:
    game = openspiel.load("kuhn-poker", utility="zero_sum", min_utility=-2, max_utility=2)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=20,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(3)),
                       random_state=np.random.RandomState(4))
    state = game.new_initial_state()
    chance = np.random.RandomState(5)
    while not state.is_terminal():
        if state.is_chance_node():  # the deal: drawn at its odds, as OpenSpiel's examples do
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=odds)))
        else:
            state.apply_action(bot.step(state))
    assert sum(state.returns()) == 0 and abs(state.returns()[0]) in (1.0, 2.0)
    assert len(state.history()) >= 4 and state.action_to_string(-1, state.history()[0]).startswith("deal ")


def _information_sets(game, player: int) -> set[str]:
    """Every information-state string `player` has where they decide, over many games."""
    found: set[str] = set()

    def walk(state) -> None:
        if state.is_terminal():
            return
        if state.current_player() == player:
            found.add(state.information_state_string(player))
        for action in state.legal_actions():
            walk(state.child(action))

    walk(game.new_initial_state())  # chance nodes too: every deal comes up
    return found


def test_kuhn_information_states_match_openspiels() -> None:
    ours = openspiel.load("kuhn-poker", utility="zero_sum")
    theirs = pyspiel.load_game("kuhn_poker")
    reference: dict[int, set[str]] = {0: set(), 1: set()}
    for state in get_all_states.get_all_states(theirs, include_terminals=False).values():
        reference[state.current_player()].add(state.information_state_string())
    for player in (0, 1):
        assert len(_information_sets(ours, player)) == len(reference[player]) == 6


def test_information_states_hide_the_other_card_and_keep_the_betting() -> None:
    game = openspiel.load("kuhn-poker")
    state = game.new_initial_state()
    state.apply_action(2)  # the deal: a king to P1,
    state.apply_action(0)  # a jack to P2
    state.apply_action(1)  # P1 bets
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    core = state.core.state
    events = [[line for line in text.split("\n")[1:] if not line.startswith(("  = ", "  ~ "))]
              for text in (mine, theirs)]
    assert events == [["chance: deal king", "chance: deal ?", "P1: bet"],
                      ["chance: deal ?", "chance: deal jack", "P1: bet"]]
    own = [core.card_text(z[0]).split("#")[0] for z in core.zones[core.layout.zbase[1]:][:2]]
    assert own[0] in mine and own[1] not in mine and own[1] in theirs and own[0] not in theirs
    assert mine == core.information_state_string(0)  # the steps recorded = the game replayed
    assert state.observation_string(0) == core.observation_string(0)
    assert list(state.observation_tensor(0)) == core.observation_tensor(0)


def test_clones_are_independent_and_use_no_seed() -> None:
    game = openspiel.load("star-market", seed=40, chance="sampled")  # a seed decides the shuffles
    first = game.new_initial_state()
    assert first.core.state.seed == 40
    twin = first.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert first.history() == [] and len(twin.history()) == 1
    assert twin.information_state_string(0).count("\nP1: ") == 1
    first.observation_tensor(0)  # pyspiel makes a throwaway state for the tensor's shape
    game.observation_tensor_shape()
    assert game.new_initial_state().core.state.seed == 41  # neither it nor the clone took a seed


def test_bad_actions_raise_and_change_nothing() -> None:
    game = openspiel.load("tic-tac-toe")
    state = game.new_initial_state()
    state.apply_action(4)
    before = str(state)
    with pytest.raises(IllegalActionError, match="outside Tic-tac-toe's action space"):
        state.apply_action(9)
    with pytest.raises(IllegalActionError, match=r"action 4 \(place 4\) is not legal now"):
        state.apply_action(4)
    assert str(state) == before and state.history() == [4]
    assert state.action_to_string(1, 0) == "place 0" and state.string_to_action("place 8") == 8


def test_bad_options_are_refused() -> None:
    from interpreter import GameError

    with pytest.raises(GameError, match="utility 'fair' is not one of"):
        openspiel.load("tic-tac-toe", utility="fair")
    with pytest.raises(GameError, match="for 2-2 players, not 3"):
        openspiel.load("tic-tac-toe", players=3)


@pytest.mark.parametrize("path", GAMES, ids=_id)
def test_every_game_plays_through_pyspiel(path: pathlib.Path) -> None:
    game = openspiel.load(str(path))
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    shape = game.observation_tensor_shape()
    for _ in range(300):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            assert abs(sum(odds) - 1) < 1e-9 and list(outcomes) == state.legal_actions()
            state.apply_action(int(rng.choice(outcomes, p=odds)))
            continue
        player = state.current_player()
        for p in range(game.num_players()) if player == pyspiel.PlayerId.SIMULTANEOUS else [player]:
            assert len(state.observation_tensor(p)) == shape[0]
        state.apply_action(int(rng.choice(state.legal_actions())))  # a flat joint action in a simultaneous step
    assert state.is_terminal() or len(state.history()) >= 300


def test_a_player_count_whose_default_chance_differs_is_registered_under_its_own_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's default chance mode may depend on the player count (outcome ids exist for
    some counts only): each mode gets a name of its own, never one shared by two modes."""
    from interpreter.adapters import openspiel as adapter

    real = adapter.default_chance
    monkeypatch.setattr(adapter, "default_chance",
                        lambda rules, players: "sampled" if players == 3 else real(rules, players))
    default = adapter.load("star-market", players=2)
    three = adapter.load("star-market", players=3)
    kinds = pyspiel.GameType
    assert default.get_type().chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC
    assert three.get_type().chance_mode == kinds.ChanceMode.SAMPLED_STOCHASTIC
    assert three.get_type().short_name == default.get_type().short_name + "_sampled"


def test_fractional_returns_reach_openspiel_as_floats(tmp_path) -> None:
    """A split pot (tests/test_fractions.py): exact thirds in the rules, floats here,
    and the declared constant sum holds."""
    from test_fractions import SPLIT_POT
    game = openspiel.load(str(write_toy(tmp_path, SPLIT_POT)))
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])  # everyone bets 1, then 0: a three-way tie
    assert state.returns() == [1 / 3] * 3 and all(type(r) is float for r in state.returns())
