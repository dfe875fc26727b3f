"""The drafting pattern of docs/patterns.md (simultaneous pick-and-pass, as in Sushi
Go!), played from tests/fixtures/patterns/drafting.yaml: picks are sealed until every
player has picked, then revealed together; hands pass to the next player; no seat's
observation shows another's hand; the game ends when the hands are empty."""

from __future__ import annotations

import pathlib
import random

from conformance import check_conformance

from interpreter import SIMULTANEOUS, State, load_game

DRAFTING = pathlib.Path(__file__).parent / "fixtures" / "patterns" / "drafting.yaml"


def _cards(state: State, zone: str, player: int) -> list[int]:
    """The cards (copy numbers) of a player's zone, straight from the state."""
    zdef = next(z for z in state.gd.zones if z.name == zone)
    return list(state.zones[state.layout.zbase[zdef.index] + player])


def _no_one_sees_another_hand(state: State) -> None:
    for seat in range(state.n):
        zones = state.observation(seat)["zones"]
        for other in range(state.n):
            assert ("cards" in zones["hand"][other]) == (other == seat)
            assert "cards" not in zones["passing"][other]


def test_picks_are_sealed_then_revealed_and_hands_pass_to_the_next_player() -> None:
    game = load_game(str(DRAFTING))
    state = game.new_initial_state(3, seed=1)
    rng = random.Random(0)
    rounds = 0
    while not state.is_terminal():
        assert state.current_player() == SIMULTANEOUS and state.players_to_act() == [0, 1, 2]
        _no_one_sees_another_hand(state)
        hands = [_cards(state, "hand", p) for p in range(3)]
        picks = {}
        for turn, seat in enumerate((2, 0, 1)):  # picks may come in any order
            others = {p: state.observation_string(p) for p in range(3) if p != seat}
            log = list(state.log)
            action = rng.choice(state.legal_actions(seat))
            picks[seat] = action.payload[1][0]
            state.apply_action(action, player=seat)
            if turn < 2:  # sealed until the last pick: nobody else sees anything change
                assert {p: state.observation_string(p) for p in others} == others
                assert list(state.log) == log and _cards(state, "tray", seat)[-1:] != [picks[seat]]
        rounds += 1
        # revealed together: each pick is on top of its player's tray, seen by everyone
        for seat in range(3):
            assert _cards(state, "tray", seat)[-1] == picks[seat]
            assert state.observation(1 - seat if seat < 2 else 0)["zones"]["tray"][seat]["count"] == rounds
        assert list(state.log)[-1].startswith("Revealed: P1 ")
        # every hand, less its pick, is now the next player's
        for seat in range(3):
            left = [c for c in hands[seat] if c != picks[seat]]
            assert sorted(_cards(state, "hand", (seat + 1) % 3)) == sorted(left)
    assert rounds == 4 and all(not _cards(state, "hand", p) for p in range(3))
    assert all(len(_cards(state, "tray", p)) == 4 for p in range(3))
    points = [sum(state.gd.cards[state.card_def[c]].properties["value"] for c in _cards(state, "tray", p))
              for p in range(3)]
    best = max(points)
    assert [p for p in range(3) if points[p] == best] == [p for p in range(3) if state.returns()[p] > 0]


def test_a_draft_plays_through_joint_integer_actions_and_a_save() -> None:
    game = load_game(str(DRAFTING))
    state = game.new_initial_state(4, seed=7)
    rng = random.Random(3)
    while not state.is_terminal():
        joint = [rng.choice(state.legal_action_ids(p)) for p in range(4)]
        state.apply_action_ids(joint)
        again = game.state_from_json(state.to_json())
        assert again.to_json() == state.to_json()
    assert len(list(state.log)) == 4  # hand_size rounds, one reveal each


def test_the_draft_passes_the_conformance_checks() -> None:
    """Picks given one by one, at once and in reverse order end alike; no observation
    changes while picks come in; saves and clones resume the same game."""
    summary = check_conformance(str(DRAFTING), games=3)
    assert {n: s["mean_actions"] for n, s in summary.items()} == {2: 8.0, 3: 12.0, 4: 16.0}


def _faces(state: State, player: int) -> list[str]:
    return sorted(state.gd.cards[state.card_def[c]].id for c in _cards(state, "hand", player))


def test_a_seat_remembers_the_hands_it_passed_and_no_other() -> None:
    """Search seats deal from what a seat knows (resample_from_infostate): the hand it
    passed goes whole to the next player (`move ZONE to ZONE`), and the picks from it
    land face up, so the seat knows what that hand holds; a hand it never saw it does not."""
    state = load_game(str(DRAFTING)).new_initial_state(3, seed=1)
    rng = random.Random(0)

    def pick_all() -> None:
        for seat in range(3):
            state.apply_action(rng.choice(state.legal_actions(seat)), player=seat)

    def dealt(seat: int, holder: int) -> set[tuple[str, ...]]:
        return {tuple(_faces(state.resample_from_infostate(seat, random.Random(k)), holder)) for k in range(12)}

    pick_all()  # P1's first hand is now P2's
    assert dealt(0, 1) == {tuple(_faces(state, 1))} and len(dealt(0, 2)) > 1  # P3's came from P2: unseen
    pick_all()  # P2 picked from it, face up, and passed it on to P3
    assert dealt(0, 2) == {tuple(_faces(state, 2))} and dealt(0, 1) == {tuple(_faces(state, 1))}
