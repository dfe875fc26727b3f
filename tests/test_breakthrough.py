"""Breakthrough on a `boards:` grid (examples/breakthrough): the moves, captures and
both ways to win, and the same game as OpenSpiel's `breakthrough` move for move."""

from __future__ import annotations

import random

import pytest
from conftest import counter, play, texts

from interpreter import load_game

GAME = "examples/breakthrough"


def _square(cell: int) -> str:
    """OpenSpiel's name of a cell: column a-h, row 8 at the top."""
    return "abcdefgh"[cell % 8] + str(8 - cell // 8)


def _moves(state) -> set[str]:
    found = set()
    for text in texts(state):
        _, src, dst = text.split()
        found.add(_square(int(src)) + _square(int(dst)))
    return found


def _board(state, pieces: dict[int, int]) -> None:
    """Clear the board and put pieces {cell: player+1} on it."""
    board = state.counters[next(c.index for c in state.gd.counters if c.name == "piece")]
    board[:] = [0] * 64
    for cell, who in pieces.items():
        board[cell] = who
    state.legal_cache = None  # the legal moves were listed for the board before


def test_the_first_player_has_22_moves_on_a_full_board():
    state = load_game(GAME).new_initial_state(seed=1)
    assert len(texts(state)) == 22
    assert sum(1 for v in counter(state, "piece") if v == 1) == 16


def test_straight_moves_need_an_empty_cell_and_diagonal_moves_capture():
    state = load_game(GAME).new_initial_state(seed=1)
    _board(state, {19: 1, 27: 2, 26: 2, 28: 1, 60: 2})  # P1 on d6 faces P2 on d5; P2 on c5; P1 on e5
    moves = texts(state)
    assert "move 19 27" not in moves  # straight onto a piece: blocked
    assert "move 19 26" in moves      # diagonally onto the opponent: a capture
    assert "move 19 28" not in moves  # diagonally onto one's own piece: no
    play(state, "move 19 26")
    assert counter(state, "piece")[26] == 1 and counter(state, "piece")[19] == 0
    assert not state.is_terminal()


def test_reaching_the_far_row_wins():
    state = load_game(GAME).new_initial_state(seed=1)
    _board(state, {50: 1, 5: 2})
    play(state, "move 50 58")
    assert state.is_terminal() and state.returns() == [1, -1]


def test_capturing_the_last_piece_wins():
    state = load_game(GAME).new_initial_state(seed=1)
    _board(state, {9: 1, 18: 2})
    play(state, "move 9 18")
    assert state.is_terminal() and state.returns() == [1, -1]


def test_a_move_off_the_rules_is_refused():
    state = load_game(GAME).new_initial_state(seed=1)
    with pytest.raises(Exception, match="not a legal action"):
        play(state, "move 8 24")  # two rows at once


def test_the_same_game_as_openspiel_move_for_move():
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the optional extra 'openspiel'")
    game = load_game(GAME)
    theirs_game = pyspiel.load_game("breakthrough")
    rng = random.Random(7)
    for _ in range(6):
        ours, theirs = game.new_initial_state(seed=1), theirs_game.new_initial_state()
        while not theirs.is_terminal():
            by_name = {theirs.action_to_string(a).rstrip("*"): a for a in theirs.legal_actions()}
            assert _moves(ours) == set(by_name)
            name = rng.choice(sorted(by_name))
            theirs.apply_action(by_name[name])
            src, dst = name[:2], name[2:]
            cell = {_square(c): c for c in range(64)}
            play(ours, f"move {cell[src]} {cell[dst]}")
        assert ours.is_terminal() and list(ours.returns()) == list(theirs.returns())
