"""Tic-tac-toe (examples/tic-tac-toe) against OpenSpiel's C++ `tic_tac_toe`, move for move:
random games where both offer the same cells at every step (orrery's `place N` is
OpenSpiel's action N, the cell row * 3 + column), the same player moves, and both end
at the same time with the same returns. Skipped when OpenSpiel is not installed.
"""

from __future__ import annotations

import pathlib
import random

import pytest

from interpreter import IllegalActionError, load_game

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")

GAME = pathlib.Path(__file__).resolve().parent.parent / "examples" / "tic-tac-toe"


def cell(text: str) -> int:
    verb, number = text.split()
    assert verb == "place"
    return int(number)


@pytest.mark.parametrize("seed", range(30))
def test_random_games_run_in_lockstep_with_openspiels_tic_tac_toe(seed: int) -> None:
    mine = load_game(str(GAME)).new_initial_state(2, seed=seed)
    other = pyspiel.load_game("tic_tac_toe").new_initial_state()
    rng = random.Random(seed)
    while not other.is_terminal():
        assert not mine.is_terminal() and mine.current_player() == other.current_player()
        offered = sorted(cell(str(a)) for a in mine.legal_actions())
        assert offered == other.legal_actions()
        move = rng.choice(offered)
        mine.apply_action(f"place {move}")
        other.apply_action(move)
    assert mine.is_terminal() and mine.returns() == other.returns()


def test_the_lockstep_sees_wins_for_both_sides_and_draws() -> None:
    # the same random games as above: they must reach every kind of ending to test much
    endings = set()
    for seed in range(30):
        other = pyspiel.load_game("tic_tac_toe").new_initial_state()
        rng = random.Random(seed)
        while not other.is_terminal():
            other.apply_action(rng.choice(other.legal_actions()))
        endings.add(tuple(other.returns()))
    assert endings == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}


def test_a_taken_cell_is_refused_on_both_sides() -> None:
    mine = load_game(str(GAME)).new_initial_state(2, seed=0)
    other = pyspiel.load_game("tic_tac_toe").new_initial_state()
    mine.apply_action("place 4")
    other.apply_action(4)
    assert 4 not in other.legal_actions()
    with pytest.raises(IllegalActionError):
        mine.apply_action("place 4")
    assert len(mine.history) == 1 and mine.current_player() == other.current_player() == 1
