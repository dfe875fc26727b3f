"""The OpenSpiel adapter over native states (`openspiel.load(..., native="on")`): the
same game to OpenSpiel's tools, each decision in C.

OpenSpiel's own checks pass (random_sim_test, with serialization), MCTSBot makes the
same moves as over the Python states, and what only the Python state answers (an
information state, a save) hands the state over without changing the game.
"""

from __future__ import annotations

import pytest

from interpreter import openspiel
from interpreter.diagnostics import GameError

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")
np = pytest.importorskip("numpy")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")


@pytest.mark.parametrize(("name", "options"), [("tic-tac-toe", {}), ("breakthrough", {}),
                                               ("goofspiel", {"chance": "sampled"}),
                                               ("kuhn-poker", {"chance": "sampled"})])
def test_openspiels_own_checks_pass_on_native_states(name, options):
    game = openspiel.load(name, native="on", **options)
    # (a game whose chance the engine draws has no RNG state for pyspiel to save: no serialize)
    pyspiel.random_sim_test(game, num_sims=3 if name == "breakthrough" else 10, serialize=not options, verbose=False)


def _mcts_game(name: str, native: str, moves: int) -> list[int]:
    game = openspiel.load(name, native=native)
    rng = np.random.RandomState(5)
    bots = [mcts.MCTSBot(game, 2, 40, mcts.RandomRolloutEvaluator(1, rng), random_state=rng) for _ in range(2)]
    state, played = game.new_initial_state(), []
    while not state.is_terminal() and len(played) < moves:
        action = bots[state.current_player()].step(state)
        played.append(action)
        state.apply_action(action)
    played.append(state.returns())
    return played


@pytest.mark.parametrize(("name", "moves"), [("tic-tac-toe", 9), ("breakthrough", 6)])
def test_mcts_makes_the_same_moves_over_native_states(name, moves):
    assert _mcts_game(name, "on", moves) == _mcts_game(name, "off", moves)


def test_a_question_only_the_python_state_answers_leaves_the_game_as_it_was():
    native, python = openspiel.load("tic-tac-toe", native="on"), openspiel.load("tic-tac-toe")
    a, b = native.new_initial_state(), python.new_initial_state()
    for action in (4, 0, 8):
        a.apply_action(action)
        b.apply_action(action)
    assert a.core.state.native
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_tensor(1) == b.observation_tensor(1)
    for action in (2, 6):
        a.apply_action(action)
        b.apply_action(action)
    assert a.legal_actions() == b.legal_actions() and a.history() == b.history()
    assert str(a) == str(b) and a.returns() == b.returns()
    with pytest.raises(Exception, match=r"not (a )?legal"):
        a.apply_action(4)


def test_native_options_are_checked():
    with pytest.raises(GameError, match="native mode must be one of"):
        openspiel.load("tic-tac-toe", native="sometimes")
    with pytest.raises(GameError, match="explicit chance"):
        openspiel.load("kuhn-poker", native="on")  # (its chance nodes are the Python state's)
    assert openspiel.load("kuhn-poker", native="auto").new_initial_state().is_chance_node()
