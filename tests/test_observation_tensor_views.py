"""Observations for learning on a small game whose every card is known: what each
player's observation string, information state and tensor show and hide."""

from __future__ import annotations

import json

import pytest
from conftest import events, toy

from interpreter import GameError, State

# No shuffle: the deal is known. Cards are drawn from the top (the end) of the deck:
# P1 gets the three Twos, P2 the three Aces.
TABLE = """
    counters:
      secret: {scope: player, initial: 5, visible: owner}
      shown: {scope: global, initial: 1}
    zones:
      deck: {scope: global, visible: none}
      hand: {scope: player, visible: owner}
      table: {scope: global, visible: all}
      pit: {scope: global, visible: none}
    cards:
      ace: {name: Ace, count: 3, in: deck}
      two: {name: Two, count: 3, in: deck}
    actions:
      show: {during: main, params: {c: "hand(me)"}, effect: "move c to table", ends: turn}
      bury:
        during: main
        params: {c: "hand(me)"}
        effect: |
          move c to pit
          choose k from hand(me) prompt "keep which card?"
        ends: turn
    setup: |
      for each p in players:
        draw 3 from deck to hand(p)
    flow: |
      repeat 2:
        for each p in players:
          turn p:
            take actions main
"""


@pytest.fixture
def state(tmp_path) -> State:
    return toy(tmp_path, TABLE).new_initial_state(2)


def test_the_observation_string_shows_what_the_player_may_see(state: State) -> None:
    mine = json.loads(state.observation_string(0))
    assert mine["zones"]["hand"] == [{"count": 3, "cards": ["two", "two", "two"]}, {"count": 3}]
    assert mine["zones"]["deck"] == {"count": 0} and mine["counters"]["secret"] == [5, None]
    assert mine["decision"]["legal"] == ["show two", "bury two"]
    theirs = json.loads(state.observation_string(1))
    assert theirs["zones"]["hand"] == [{"count": 3}, {"count": 3, "cards": ["ace", "ace", "ace"]}]
    assert "decision" not in theirs and "ace" not in state.observation_string(0)


def test_decisions_show_the_cards_others_may_see(state: State) -> None:
    space = state.game.action_space(2)
    state.apply_action_id(space.from_string("show two"))   # P1: face up on the table
    state.apply_action_id(space.from_string("bury ace"))   # P2: face down into the pit...
    state.apply_action_id(space.from_string("choice ace"))  # ...and keeps a card in hand
    p1 = events(state.information_state_string(0))
    p2 = events(state.information_state_string(1))
    assert p1 == ["P1: show two", "P2: bury ?", "P2: choice ?"]
    assert p2 == ["P1: show two", "P2: bury ace", "P2: choice ace"]


def test_the_tensor_fills_only_what_the_player_may_see(state: State) -> None:
    layout = state.game.tensor_layout(2)
    assert [(p.name, p.size) for p in layout.pieces] == [
        ("player", 2), ("current", 2), ("active", 2), ("progress", 3), ("decision", 2),
        ("counters", 3), ("zones", 5 * 3 + 1 * 2)]  # deck, hand x2, pit: 1 + 2; table: 1 + 2 + 2

    def part(p: int, name: str) -> list[float]:
        piece = next(x for x in layout.pieces if x.name == name)
        return state.observation_tensor(p)[piece.offset:piece.offset + piece.size]

    assert part(0, "player") == [1, 0] and part(1, "player") == [0, 1]
    assert part(0, "decision") == [1, 0] and part(1, "decision") == [0, 0]  # group `main`, P1 decides
    assert part(0, "counters") == [5, 0, 1] and part(1, "counters") == [0, 5, 1]
    # zones: deck (count, ace, two), P1's hand, P2's hand, table (+ top one-hot), pit
    assert part(0, "zones")[:9] == [0, 0, 0, 3, 0, 3, 3, 0, 0]
    assert part(1, "zones")[:9] == [0, 0, 0, 3, 0, 0, 3, 3, 0]
    state.apply_action(state.legal_actions()[0])  # P1 shows a Two
    assert part(1, "zones")[9:14] == [1, 0, 1, 0, 1]  # the table: one card, a Two, on top


def test_players_outside_the_table_are_refused(state: State) -> None:
    for call in (state.observation_string, state.observation_tensor, state.information_state_string):
        with pytest.raises(GameError, match=r"no player 2: players are 0\.\.1"):
            call(2)
        with pytest.raises(GameError, match="no player -1"):
            call(-1)
