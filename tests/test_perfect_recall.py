"""Perfect recall: an information state remembers everything its player has seen, also
what was seen only for a while. OpenSpiel's algorithms (CFR, best responses) assume it.

examples/goofspiel-drawn is Goofspiel with each round's point value drawn with
`pick_random` into the public counter `prize`, which the next draw overwrites: the
value drawn is written `chance: chance ?` in the history, so only a record of what the
player saw after each event tells the prize orders 1, 2, 3 and 2, 1, 3 apart once both
rounds were tied (the state at the end is the same). As a game it is OpenSpiel's
`goofspiel` with points_order=random (imp_info=False, returns_type=win_loss, the same
num_cards), as examples/goofspiel is, which turns up point cards from a shuffled pile.

Compared with OpenSpiel's native game: random games in lockstep; two histories that
differ only in the order of the prizes (core API and adapter); the number of distinct
information states per player over the whole tree (3 cards: OpenSpiel's own count; 4
cards: one per decision node, since everything is public once a round is over and a
perfect-recall player tells any two decision histories apart - OpenSpiel's own
strings give fewer there, 3028 of 3652, as they show the hands but not the order the
bids came in); CFR's exploitability after the same iterations on the turn-based form
of both. Work budgets are iteration and game counts. Skipped without OpenSpiel.
"""

from __future__ import annotations

import pathlib
import random
from collections.abc import Sequence

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")

from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability, get_all_states  # noqa: E402

from interpreter import CHANCE, SIMULTANEOUS, State, load_game, openspiel  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOOFSPIEL = str(ROOT / "examples" / "goofspiel")
DRAWN = str(ROOT / "examples" / "goofspiel-drawn")
CFR_ITERATIONS = 20

THREE_CARDS = """\
orrery: 1
overlay: three-cards
base: goofspiel
name: Three cards
description: "Cards 1 to 3 only (OpenSpiel's num_cards=3)"
patch: {constants: {num_cards: 3}}
"""


def native(num_cards: int):
    return pyspiel.load_game("goofspiel", {"num_cards": num_cards, "points_order": "random", "imp_info": False,
                                           "returns_type": "win_loss", "players": 2})


@pytest.fixture(scope="module")
def three_card_deck(tmp_path_factory: pytest.TempPathFactory) -> str:
    """An overlay making examples/goofspiel a 3-card game (it has a 4-card variant only)."""
    path = tmp_path_factory.mktemp("three") / "overlay.yaml"
    path.write_text(THREE_CARDS, encoding="utf-8")
    return str(path)


def ours(kind: str, num_cards: int, three_card_deck: str):
    """The adapter's game: `deck` (examples/goofspiel) or `drawn` (examples/goofspiel-drawn)."""
    if kind == "drawn":
        return openspiel.load(DRAWN, variants=["three-cards" if num_cards == 3 else "four-cards"])
    if num_cards == 3:
        return openspiel.load(GOOFSPIEL, overlays=[three_card_deck])
    return openspiel.load(GOOFSPIEL, variants=["four-cards"])


# ---- the drawn-prize game is OpenSpiel's goofspiel -----------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_drawn_prizes_run_in_lockstep_with_openspiels_goofspiel(seed: int) -> None:
    """13 cards: the same chance outcomes (the value drawn, id value - 1) at the same
    odds, the same legal bids at every step, the same returns."""
    mine, other = openspiel.load(DRAWN).new_initial_state(), native(13).new_initial_state()
    rng = random.Random(seed)
    draws = 0
    while not other.is_terminal():
        assert not mine.is_terminal() and mine.current_player() == other.current_player()
        if other.is_chance_node():
            assert [a for a, _ in mine.chance_outcomes()] == [a for a, _ in other.chance_outcomes()]
            assert [p for _, p in mine.chance_outcomes()] == pytest.approx([p for _, p in other.chance_outcomes()])
            value = rng.choice(other.legal_actions())
            assert mine.action_to_string(CHANCE, value) == f"chance {value + 1}"
            mine.apply_action(value)
            other.apply_action(value)
            draws += 1
            continue
        legal = [other.legal_actions(p) for p in range(2)]
        assert [mine.legal_actions(p) for p in range(2)] == legal
        joint = [rng.choice(actions) for actions in legal]
        mine.apply_actions(joint)
        other.apply_actions(joint)
    assert mine.is_terminal() and mine.returns() == pytest.approx(other.returns())
    assert draws == 12  # the last value is what is left: no chance node in either


# ---- two prize orders, the same bids ---------------------------------------------------------------

# Both players bid alike (ace, then two), so every round is tied: no points tell the
# values apart, and the counter `prize` is overwritten by the next draw.
TIED_BIDS = ([0, 0], [1, 1])


def core_after(draws: Sequence[int], bids: Sequence[list[int]] = TIED_BIDS) -> State:
    """The 3-card drawn game, explicit chance, after each value of `draws` was drawn,
    each followed by the round's `bids` when there are any left. After two rounds the
    game is over: the last value, the one left, is no chance node, and the last round
    plays itself."""
    state = load_game(DRAWN, variants=["three-cards"]).new_initial_state(2, seed=0, chance="explicit")
    for i, value in enumerate(draws):
        assert state.current_player() == CHANCE
        state.apply_action(f"chance {value}")
        assert state.current_player() == SIMULTANEOUS
        if i < len(bids):
            state.apply_action_ids(bids[i])
    return state


def adapter_after(draws: Sequence[int], bids: Sequence[list[int]] = TIED_BIDS):
    """The same through the OpenSpiel adapter (chance ids are OpenSpiel's: value - 1)."""
    state = openspiel.load(DRAWN, variants=["three-cards"]).new_initial_state()
    for i, value in enumerate(draws):
        assert state.is_chance_node()
        state.apply_action(value - 1)
        assert state.is_simultaneous_node()
        if i < len(bids):
            state.apply_actions(bids[i])
    return state


@pytest.mark.parametrize("player", [0, 1])
def test_the_order_of_the_prizes_is_remembered_to_the_end(player: int) -> None:
    """1, 2, 3 and 2, 1, 3 end in the same state, seen by no one as different; the
    information states differ, through the core API and through the adapter."""
    first, second = core_after([1, 2]), core_after([2, 1])  # then 3 in both
    assert first.is_terminal() and second.is_terminal() and first.returns() == second.returns() == [0.0, 0.0]
    assert first.observation(player)["counters"]["prize"] == second.observation(player)["counters"]["prize"] == 3
    assert first.observation_string(player) == second.observation_string(player)  # the same table
    assert first.information_state_string(player) != second.information_state_string(player)

    first, second = adapter_after([1, 2]), adapter_after([2, 1])
    assert first.is_terminal() and second.is_terminal()
    assert first.history() != second.history()
    assert first.observation_string(player) == second.observation_string(player)
    assert first.information_state_string(player) != second.information_state_string(player)


@pytest.mark.parametrize("player", [0, 1])
def test_the_first_prize_is_remembered_at_the_second_bid(player: int) -> None:
    """1 then 2 and 3 then 2, the first round tied: the same table at the second
    bid (prize 2, no points), two information sets."""
    first, second = core_after([1, 2], TIED_BIDS[:1]), core_after([3, 2], TIED_BIDS[:1])
    assert first.current_player() == second.current_player() == SIMULTANEOUS
    assert first.observation_string(player) == second.observation_string(player)
    assert first.information_state_string(player) != second.information_state_string(player)

    first, second = adapter_after([1, 2], TIED_BIDS[:1]), adapter_after([3, 2], TIED_BIDS[:1])
    assert first.is_simultaneous_node() and second.is_simultaneous_node()
    assert first.information_state_string(player) != second.information_state_string(player)


# ---- the whole tree: information states per player ----------------------------------------------


def decision_states(game) -> dict[str, object]:
    """Every decision node (not terminal, not chance), by history."""
    return get_all_states.get_all_states(game, depth_limit=-1, include_terminals=False,
                                         include_chance_states=False, to_string=lambda s: s.history_str())


def information_state_counts(game, states: dict[str, object]) -> list[int]:
    """Per player: the distinct information-state strings of the nodes where the player
    acts (its turn, or a simultaneous node where it has a legal action)."""
    return [len({s.information_state_string(p) for s in states.values()  # type: ignore[attr-defined]
                 if s.current_player() in (p, pyspiel.PlayerId.SIMULTANEOUS) and s.legal_actions(p)})  # type: ignore[attr-defined]
            for p in range(game.num_players())]


@pytest.mark.parametrize("kind", ["deck", "drawn"])
def test_three_cards_have_openspiels_information_states(kind: str, three_card_deck: str) -> None:
    theirs = native(3)
    reference = information_state_counts(theirs, decision_states(theirs))
    assert reference == [57, 57]
    game = ours(kind, 3, three_card_deck)
    states = decision_states(game)
    assert set(states) == set(decision_states(theirs))  # the same tree: ids are OpenSpiel's
    assert information_state_counts(game, states) == reference


@pytest.mark.parametrize("kind", ["deck", "drawn"])
def test_four_cards_have_one_information_state_per_decision(kind: str, three_card_deck: str) -> None:
    """Everything is public once a round is over, so with perfect recall each decision
    node is an information set of its own: 4! orders of the values, 3652 nodes.
    (OpenSpiel's own strings show the hands, not the order the bids came in: it
    counts fewer, so they are not the reference here.)"""
    theirs = decision_states(native(4))
    assert len(theirs) == 3652
    game = ours(kind, 4, three_card_deck)
    states = decision_states(game)
    assert set(states) == set(theirs)
    assert information_state_counts(game, states) == [3652, 3652]


def test_openspiels_own_strings_forget_the_order_of_the_bids() -> None:
    """Why the 4-card reference is the decision nodes: OpenSpiel's goofspiel
    (imp_info=False) shows the point cards, the hands, who won each round and the
    points, not which card was bid when. Player 0 bidding 1 then 2 against 3 then 4, or 2
    then 1 against 4 then 3, gets one string: 3028 strings for 3652 nodes. Should
    OpenSpiel start telling them apart, its count becomes the reference here."""
    game = native(4)
    assert information_state_counts(game, decision_states(game)) == [3028, 3028]
    fixed = pyspiel.load_game("goofspiel", {"num_cards": 4, "points_order": "descending", "imp_info": False})
    strings = []
    for bids in ([[0, 2], [1, 3]], [[1, 3], [0, 2]]):
        state = fixed.new_initial_state()
        for joint in bids:
            state.apply_actions(joint)
        strings.append(state.information_state_string(0))
    assert strings[0] == strings[1]


# ---- CFR and best responses on the turn-based forms -----------------------------------------------


def cfr_result(game) -> tuple[float, int]:
    """NashConv of CFR's average policy after CFR_ITERATIONS, and how many information
    states it has, on OpenSpiel's turn-based form of the simultaneous game (CFR and
    best responses need a sequential one; the same conversion for both)."""
    turn_based = pyspiel.convert_to_turn_based(game)
    solver = cfr.CFRSolver(turn_based)
    for _ in range(CFR_ITERATIONS):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    return float(exploitability.nash_conv(turn_based, average)), len(average.state_lookup)


@pytest.fixture(scope="module")
def native_cfr() -> tuple[float, int]:
    return cfr_result(native(3))


@pytest.mark.parametrize("kind", ["deck", "drawn"])
def test_cfr_reaches_openspiels_exploitability(kind: str, three_card_deck: str,
                                               native_cfr: tuple[float, int]) -> None:
    assert native_cfr[1] == 114 and 0 < native_cfr[0] < 0.5
    assert cfr_result(ours(kind, 3, three_card_deck)) == (pytest.approx(native_cfr[0], abs=1e-9), native_cfr[1])


@pytest.mark.parametrize("kind", ["deck", "drawn"])
def test_a_uniform_policy_is_as_exploitable_as_in_openspiel(kind: str, three_card_deck: str) -> None:
    """A best response sees what its information sets tell apart: merged ones lower it."""
    values = []
    for game in (ours(kind, 3, three_card_deck), native(3)):
        turn_based = pyspiel.convert_to_turn_based(game)
        values.append(exploitability.nash_conv(turn_based, policy.UniformRandomPolicy(turn_based)))
    assert values[0] == pytest.approx(values[1], abs=1e-9) and values[1] > 0.5
