"""examples/goofspiel against OpenSpiel's C++ `goofspiel`, in lockstep: random games
where both get the same joint actions must offer each player the same legal actions
(orrery's integer ids are OpenSpiel's: bid card n is id n-1) and end with the same
returns, at the same moment.

The point cards' order is a chance event in OpenSpiel. Here orrery draws it from the
game's seed (its default, seeded chance), so in the random-order games OpenSpiel's
chance node is answered with the card orrery turned up (with explicit chance, both
answer the same chance nodes: tests/test_openspiel_chance.py); the
`descending` and `ascending` variants are compared with the same settings of
OpenSpiel's `points_order`, which need no chance at all. Skipped without OpenSpiel.
"""

from __future__ import annotations

import itertools
import pathlib
import random

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'orrery[openspiel]'")

from interpreter import SIMULTANEOUS, Game, State, load_game, openspiel  # noqa: E402

GOOFSPIEL = pathlib.Path(__file__).resolve().parent.parent / "examples" / "goofspiel"


def _game(*variants: str) -> Game:
    return load_game(str(GOOFSPIEL), variants=list(variants))


def _point_card(state: State) -> int:
    """The value of the point card bid for now (public: the `prize` zone is visible)."""
    (card,) = state.observation(-1)["zones"]["prize"]["cards"]
    iid = int(card.rsplit("#", 1)[1])
    return int(state.gd.cards[state.card_def[iid]].properties["value"])


def _lockstep(ours: State, theirs: object, rng: random.Random) -> None:
    """Play one game in both with the same random joint actions, checking every step."""
    n = ours.n
    while not theirs.is_terminal():  # type: ignore[attr-defined]
        if theirs.is_chance_node():  # type: ignore[attr-defined]
            dealt = _point_card(ours) - 1
            assert dealt in [a for a, _ in theirs.chance_outcomes()]  # type: ignore[attr-defined]
            theirs.apply_action(dealt)  # type: ignore[attr-defined]
            continue
        assert theirs.current_player() == pyspiel.PlayerId.SIMULTANEOUS  # type: ignore[attr-defined]
        assert ours.current_player() == SIMULTANEOUS and not ours.is_terminal()
        legal = [theirs.legal_actions(p) for p in range(n)]  # type: ignore[attr-defined]
        assert [ours.legal_action_ids(p) for p in range(n)] == legal
        ours.apply_action_ids(joint := [rng.choice(actions) for actions in legal])
        theirs.apply_actions(joint)  # type: ignore[attr-defined]
    assert ours.is_terminal()
    assert ours.returns() == pytest.approx(theirs.returns())  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(12))
def test_random_games_match_openspiel_goofspiel(seed: int) -> None:
    theirs = pyspiel.load_game("goofspiel")  # its defaults: 13 cards, 2 players, random order, win_loss
    assert theirs.get_parameters()["num_cards"] == 13 and theirs.get_parameters()["points_order"] == "random"
    _lockstep(_game().new_initial_state(2, seed=seed), theirs.new_initial_state(), random.Random(seed))


@pytest.mark.parametrize("order", ["descending", "ascending"])
def test_fixed_orders_match_openspiel_without_chance(order: str) -> None:
    theirs = pyspiel.load_game(f"goofspiel(points_order={order})")
    for seed in range(6):
        ours = _game(order).new_initial_state(2, seed=seed)
        assert _point_card(ours) == (13 if order == "descending" else 1)
        state = theirs.new_initial_state()
        assert not state.is_chance_node()
        _lockstep(ours, state, random.Random(100 + seed))


def test_every_four_card_game_matches_openspiel() -> None:
    """Every joint action of every step of the 4-card game, descending order: 576
    games, each with the same legal actions and returns."""
    theirs = pyspiel.load_game("goofspiel(num_cards=4,points_order=descending)")
    game = _game("four-cards", "descending")
    leaves = 0

    def walk(ours: State, state: object) -> None:
        nonlocal leaves
        if state.is_terminal():  # type: ignore[attr-defined]
            assert ours.is_terminal() and ours.returns() == pytest.approx(state.returns())  # type: ignore[attr-defined]
            leaves += 1
            return
        legal = [state.legal_actions(p) for p in range(2)]  # type: ignore[attr-defined]
        assert [ours.legal_action_ids(p) for p in range(2)] == legal
        for joint in itertools.product(*legal):
            mine, other = ours.clone(), state.clone()  # type: ignore[attr-defined]
            mine.apply_action_ids(list(joint))
            other.apply_actions(list(joint))
            walk(mine, other)

    walk(game.new_initial_state(2, seed=0), theirs.new_initial_state())
    assert leaves == (4 * 3 * 2) ** 2


def test_the_four_card_game_tree_is_openspiels() -> None:
    """OpenSpiel's own tree walk finds the same states, by history, in both."""
    from open_spiel.python.algorithms import get_all_states

    def histories(game: object) -> set[str]:
        found = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True,
                                              include_chance_states=False, to_string=lambda s: s.history_str())
        return set(found)

    ours = histories(openspiel.load(str(GOOFSPIEL), variants=["four-cards", "descending"]))
    assert ours == histories(pyspiel.load_game("goofspiel(num_cards=4,points_order=descending)"))
    assert len(ours) == 737


def test_the_adapter_is_a_simultaneous_game_in_lockstep_with_openspiel() -> None:
    """Through pyspiel: dynamics SIMULTANEOUS, per-player legal actions, apply_actions,
    and flat joint actions numbered as OpenSpiel's own (apply_action at a
    simultaneous node)."""
    ours = openspiel.load(str(GOOFSPIEL), variants=["descending"])
    theirs = pyspiel.load_game("goofspiel(points_order=descending)")
    assert ours.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert openspiel.load("tic-tac-toe").get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    rng = random.Random(3)
    for _ in range(3):
        mine, other = ours.new_initial_state(), theirs.new_initial_state()
        turn = 0
        while not other.is_terminal():
            assert mine.current_player() == pyspiel.PlayerId.SIMULTANEOUS and mine.is_simultaneous_node()
            assert [mine.legal_actions(p) for p in range(2)] == [other.legal_actions(p) for p in range(2)]
            assert mine.legal_actions() == other.legal_actions()  # flat joint actions
            if turn % 2:
                flat = rng.choice(other.legal_actions())
                assert mine.action_to_string(pyspiel.PlayerId.SIMULTANEOUS, flat).count("bid") == 2
                mine.apply_action(flat)
                other.apply_action(flat)
            else:
                joint = [rng.choice(other.legal_actions(p)) for p in range(2)]
                mine.apply_actions(joint)
                other.apply_actions(joint)
            turn += 1
        assert mine.is_terminal() and mine.returns() == other.returns()


def test_bad_joint_actions_through_pyspiel_change_nothing() -> None:
    state = openspiel.load(str(GOOFSPIEL)).new_initial_state()
    while state.is_chance_node():  # the first point card is turned up
        state.apply_action(state.legal_actions()[0])
    before = state.core.state.to_json()
    for joint in ([0], [0, 0, 0], [0, 99], [13, 0]):
        with pytest.raises(Exception, match=r"one action per seat|not legal|outside"):
            state.apply_actions(joint)
    assert state.core.state.to_json() == before


def test_information_states_show_a_bid_only_when_all_have_bid() -> None:
    """Played one seat at a time (as the AEC environment does): P2's information state
    never holds P1's bid before P2 has bid; afterwards both see both bids."""
    state = _game("descending").new_initial_state(2, seed=1)
    before = state.information_state_string(1)
    king = state.legal_actions(0)[-1]
    assert king.text.startswith("bid king#")
    state.apply_action(king, player=0)  # P1 bids 13
    assert state.information_state_string(1) == before
    assert "P1: bid king" in state.information_state_string(0)
    assert state.string_to_action(1, state.legal_actions(1)[0].text) == 0
    state.apply_action_id(0, player=1)  # P2 bids 1
    for p in range(2):
        lines = state.information_state_string(p).split("\n")[1:]
        events = [line for line in lines if not line.startswith(("  = ", "  ~ "))]  # (the views)
        assert events == ["P1: bid king", "P2: bid ace"]
        assert lines[0].startswith("  = ") and lines[-1].startswith("  ~ ")  # the first view, what the bids changed
