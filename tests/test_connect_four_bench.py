"""bench/games/connect-four.yaml, the connect four bench_native.py measures beside
OpenSpiel's C++ game: it plays OpenSpiel's game move for move, and natively the games
the Python engine plays."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_native_state import play_beside

from interpreter import load_game

GAME = Path(__file__).resolve().parent.parent / "bench" / "games" / "connect-four.yaml"


def test_it_is_openspiels_connect_four_move_for_move():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")
    game, theirs = load_game(str(GAME)), pyspiel.load_game("connect_four")
    rng = random.Random(4)
    ends = set()
    for seed in range(60):
        mine, state = game.new_initial_state(2, seed), theirs.new_initial_state()
        while not state.is_terminal():
            assert mine.legal_action_ids() == state.legal_actions()
            assert mine.current_player() == state.current_player()
            column = rng.choice(state.legal_actions())
            mine.apply_action_id(column)
            state.apply_action(column)
            assert mine.is_terminal() == state.is_terminal()
        assert mine.returns() == state.returns()
        ends.add(tuple(state.returns()))
    assert len(ends) >= 2


def test_natively_it_plays_the_python_engines_games():
    game = load_game(str(GAME))
    assert game.playouts(200, seed=5, native="on") == game.playouts(200, seed=5, native="off")
    rng = random.Random(2)
    for seed in range(6):
        play_beside(game, 2, seed, rng)
