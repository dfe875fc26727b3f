"""The patterns of docs/patterns.md, each a game in tests/fixtures/patterns played to
check what the page says it does: reactions out of turn, asked in turn order from the
acting player (no seat favoured by its number), or sealed and simultaneous with the
first in that order winning."""

from __future__ import annotations

import pathlib
import random
from collections import Counter

from interpreter import SIMULTANEOUS, load_game

PATTERNS = pathlib.Path(__file__).parent / "fixtures" / "patterns"


def _first_responders(games: int = 40) -> Counter[int]:
    """How often each seat is the first asked to respond to a claim, in random games."""
    game = load_game(str(PATTERNS / "reactions-in-turn.yaml"))
    found: Counter[int] = Counter()
    for seed in range(games):
        state, rng = game.new_initial_state(4, seed=seed), random.Random(seed)
        while not state.is_terminal():
            chosen = rng.choice(state.legal_actions())
            claimed = str(chosen) == "claim"
            state.apply_action(chosen)
            if claimed and not state.is_terminal():
                found[state.current_player()] += 1
    return found


def test_reactions_are_asked_in_turn_order_from_the_acting_player() -> None:
    state = load_game(str(PATTERNS / "reactions-in-turn.yaml")).new_initial_state(4, seed=0)
    state.apply_action("claim")
    assert state.current_player() == 1
    state.apply_action("let_stand")
    assert state.current_player() == 2
    state.apply_action("challenge")  # the first challenge settles it: P4 is not asked
    assert list(state.log)[-1] == "P3 challenges P1" and state.current_player() == 1


def test_no_seat_is_asked_first_more_often_for_its_number() -> None:
    """Each seat is asked first after its right-hand neighbour's claims: about a quarter
    each (asking `for each q in players` would ask P1 first after 3 claims in 4)."""
    found = _first_responders()
    total = sum(found.values())
    assert total > 100 and all(0.18 < found[seat] / total < 0.32 for seat in range(4)), found


def test_sealed_reactions_are_picked_unseen_and_the_first_in_turn_order_wins() -> None:
    state = load_game(str(PATTERNS / "reactions-sealed.yaml")).new_initial_state(4, seed=0)
    state.apply_action("claim")
    assert state.current_player() == SIMULTANEOUS and state.players_to_act() == [1, 2, 3]
    state.apply_action("challenge", player=3)  # picks may come in any order
    state.apply_action("challenge", player=2)
    state.apply_action("let_stand", player=1)
    assert list(state.log)[-1] == "P3 challenges P1"  # P3 comes before P4 from P1's left
