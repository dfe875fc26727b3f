"""Leduc poker (examples/leduc-poker) against OpenSpiel's C++ `leduc_poker`: random games
in explicit chance mode run in lockstep - the same card forced on both at every chance
node, the same actions offered at every decision, the same returns at the end. Also the
rule file on its own: it validates, its deck is dealt lazily, and showdowns, folds and
the raise cap come out as the rules say. The OpenSpiel tests are skipped when OpenSpiel
is not installed.
"""

from __future__ import annotations

import pathlib
import random

import pytest

from interpreter import CHANCE, IllegalActionError, load_game
from interpreter.cli import validate_target

GAME = pathlib.Path(__file__).resolve().parent.parent / "examples" / "leduc-poker"
RANKS = ["jack", "queen", "king"]
# OpenSpiel's action ids of Leduc's moves
ACTION_IDS = {"fold": 0, "call": 1, "raise": 2}


def card_text(card: int) -> str:
    """OpenSpiel's card c (0..5) is rank c // 2 (J, Q, K) and suit c % 2."""
    return f"deal {RANKS[card // 2]}-{card % 2 + 1}"


def new_state():
    return load_game(str(GAME)).new_initial_state(2, seed=0, chance="explicit")


def play(state, moves: list[str]) -> None:
    for move in moves:
        state.apply_action(move)


def test_the_rules_validate_and_deal_the_deck_lazily() -> None:
    game = load_game(str(GAME), strict=True)  # warnings are errors here
    problems, summary = validate_target(str(GAME), [], strict=True)
    assert problems == [] and summary == "Leduc poker: 6 cards, 3 actions"
    deck = next(z.index for z in game.definition.zones if z.name == "deck")
    assert deck not in game.eager_zones()  # one chance node per card dealt, as OpenSpiel's
    state = new_state()
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [str(a) for a, _ in outcomes] == [card_text(c) for c in range(6)]
    assert [p for _, p in outcomes] == pytest.approx([1 / 6] * 6)
    play(state, ["deal king-1", "deal jack-2"])
    assert state.current_player() == 0 and [str(a) for a in state.legal_actions()] == ["call", "raise"]


def test_a_pair_with_the_public_card_beats_a_higher_card() -> None:
    state = new_state()
    # P1 jack, P2 king; check-check; the public jack pairs P1; raise, call: 1 + 2 + 4 each
    play(state, ["deal jack-1", "deal king-1", "call", "call", "deal jack-2", "raise", "call"])
    assert state.is_terminal() and state.returns() == [5, -5]


def test_the_higher_card_wins_without_a_pair_and_equal_ranks_split() -> None:
    state = new_state()
    play(state, ["deal queen-1", "deal king-2", "raise", "call", "deal jack-1", "call", "call"])
    assert state.returns() == [-3, 3]
    state = new_state()
    play(state, ["deal queen-1", "deal queen-2", "raise", "raise", "call", "deal king-1", "call", "call"])
    assert state.returns() == [0, 0]


def test_a_fold_ends_the_game_at_once_and_only_faces_a_bet() -> None:
    state = new_state()
    play(state, ["deal king-1", "deal jack-1", "call", "raise"])
    assert [str(a) for a in state.legal_actions()] == ["fold", "call", "raise"]
    play(state, ["fold"])
    assert state.is_terminal() and state.returns() == [-1, 1]


def test_at_most_two_raises_a_round() -> None:
    state = new_state()
    play(state, ["deal king-1", "deal jack-1", "raise", "raise"])
    assert [str(a) for a in state.legal_actions()] == ["fold", "call"]
    with pytest.raises(IllegalActionError):
        state.apply_action("raise")
    play(state, ["call", "deal queen-1", "raise", "raise", "call"])
    # 1 + 2 + 2 in the first round, 4 + 4 in the second: the king wins 13
    assert state.returns() == [13, -13]


def test_a_dealt_card_is_not_offered_again() -> None:
    state = new_state()
    play(state, ["deal king-1"])
    assert card_text(4) not in [str(a) for a, _ in state.chance_outcomes()]
    with pytest.raises(IllegalActionError):
        state.apply_action("deal king-1")


pyspiel_reason = "OpenSpiel is not installed: pip install 'orrery[openspiel]'"


def test_openspiel_cards_are_rank_and_suit_as_mapped() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason=pyspiel_reason)
    game = pyspiel.load_game("leduc_poker")
    # cards 0 and 1 are both jacks (a split pot), card 2 is a queen (beats a jack)
    for theirs, expected in ((1, [0.0, 0.0]), (2, [-1.0, 1.0])):
        state = game.new_initial_state()
        for action in (0, theirs, 1, 1, 4, 1, 1):
            state.apply_action(action)
        assert state.is_terminal() and state.returns() == expected


@pytest.mark.parametrize("seed", range(40))
def test_random_games_run_in_lockstep_with_openspiels_leduc_poker(seed: int) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason=pyspiel_reason)
    other = pyspiel.load_game("leduc_poker").new_initial_state()
    mine = new_state()
    rng = random.Random(seed)
    while not other.is_terminal():
        assert not mine.is_terminal() and mine.current_player() == other.current_player()
        if other.is_chance_node():
            theirs = sorted(card_text(c) for c, _ in other.chance_outcomes())
            assert sorted(str(a) for a, _ in mine.chance_outcomes()) == theirs
            outcomes, odds = zip(*other.chance_outcomes(), strict=True)
            card = rng.choices(outcomes, weights=odds)[0]
            mine.apply_action(card_text(card))  # forced on both: the same card
            other.apply_action(card)
        else:
            offered = sorted(ACTION_IDS[str(a)] for a in mine.legal_actions())
            assert offered == sorted(other.legal_actions())
            action = rng.choice(offered)
            mine.apply_action(next(a for a in mine.legal_actions() if ACTION_IDS[str(a)] == action))
            other.apply_action(action)
    assert mine.is_terminal() and mine.returns() == other.returns()
