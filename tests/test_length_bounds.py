"""How long a game can be, read from its rules (analysis/length.py): random numbers
drawn by the flow count as events, and a round cap bounds a loop of rounds. Each
reading errs one way only: a bound found holds in every game, checked here by playing."""

from __future__ import annotations

import random

import pytest
from conftest import write_toy

from interpreter import load_game, openspiel

_DRAWS_TOY = """
players: {min: 2, max: 3}
counters:
  n: {scope: global, initial: 0}
actions:
  go: {during: main, effect: "%s", ends: turn}
procedures:
  roll:
    effect: "set n to n + random(1, 6)"
setup: |
  %s
flow: |
  repeat 2:
    round:
      %s
      for each p in players:
        turn p:
          take actions main
scoring: {score: "n"}
"""


def _draws_toy(tmp_path, action: str = "set n to n + 1", setup: str = "set n to 0", flow: str = "set n to n"):
    return str(write_toy(tmp_path, _DRAWS_TOY % (action, setup, flow)))


def _longest(game, players: int, games: int = 20) -> int:
    """The most events (decisions and chance outcomes) seen in random explicit-chance games."""
    most = 0
    for seed in range(games):
        st, rng, events = game.new_initial_state(players, seed=seed, chance="explicit"), random.Random(seed), 0
        while not st.is_terminal():
            if st.is_chance_node():
                outcomes = st.chance_outcomes()
                st.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = st.legal_actions()
                st.apply_action(legal[rng.randrange(len(legal))])
            events += 1
        most = max(most, events)
    return most


def test_numbers_the_flow_draws_are_events(tmp_path) -> None:
    """Two rounds of one turn a seat: 4 decisions (2 players); a draw in the setup, one a
    round in the flow and one through a procedure the flow calls: 1 + 2 + 2."""
    plain = load_game(_draws_toy(tmp_path))
    assert (plain.max_decisions(2), plain.max_events(2)) == (4, 4)
    drawing = load_game(_draws_toy(tmp_path, setup="set n to random(1, 3)",
                                   flow="roll()\n      set n to n + random(0, 1)"))
    assert drawing.max_decisions(2) == 4
    assert drawing.max_events(2) == 4 + 1 + 2 * 2
    assert drawing.max_events(3) == 6 + 1 + 2 * 2
    assert _longest(drawing, 2) == drawing.max_events(2)  # each draw a chance node: the bound is met
    # pick_random is one event too
    picked = load_game(_draws_toy(tmp_path, flow="set n to pick_random([1, 2, 3])"))
    assert picked.max_events(2) == 4 + 2


@pytest.mark.parametrize(("where", "text"), [
    ("action", "set n to n + random(1, 6)"),  # when it runs, the flow does not say
    ("action", "roll()"),  # a procedure that draws, called by an action
    ("flow", "set n to sum([random(1, 6) for p in players])"),  # once an item
    ("flow", "if random(1, 2) == 1:\n        set n to 1"),  # a branch's test
    ("flow", "set n to len(shuffled([1, 2, 3]))"),  # a list drawn item by item
])
def test_draws_the_flow_cannot_count_bound_nothing(tmp_path, where: str, text: str) -> None:
    path = _draws_toy(tmp_path, action=text) if where == "action" else _draws_toy(tmp_path, flow=text)
    game = load_game(path)
    assert game.max_decisions(2) == 4  # the decisions are still bounded
    assert game.max_events(2) is None
    assert openspiel.load(path).get_type().provides_information_state_tensor is False


_CAP_TOY = """
players: {min: 2, max: 3}
constants:
  cap: 3
counters:
  n: {scope: global, initial: 0}
actions:
  go: {during: main, effect: "set n to n + 1", ends: turn}
flow: |
  repeat forever:
    round:
      for each p in players:
        turn p:
          take actions main
end:
  - id: cap
    check: %s
    when: "%s"
scoring: {score: "n"}
"""


@pytest.mark.parametrize(("check", "when", "rounds"), [
    ("round", "round_number >= cap", 3),
    ("round", "round_number >= 3", 3),
    ("round", "round_number > cap", 4),
    ("round", "n > 100 or round_number >= cap", 3),
    ("round", "n > 4 and round_number >= cap", None),  # may never hold: no cap
    ("turn", "round_number >= cap", None),  # (read only for a check each round)
    ("round", "n >= cap", None),
])
def test_a_round_cap_bounds_a_loop_of_rounds(tmp_path, check: str, when: str, rounds: int | None) -> None:
    path = str(write_toy(tmp_path, _CAP_TOY % (check, when)))
    game = load_game(path)
    for players in (2, 3):
        expected = None if rounds is None else rounds * players
        assert game.max_decisions(players) == expected
        if expected is not None:
            assert _longest(game, players, 3) <= expected
            assert openspiel.load(path, players=players).max_game_length() == expected


def test_the_drawn_goofspiel_has_an_information_state_tensor_of_its_own() -> None:
    """Its prize is drawn with `pick_random` once a round: 13 rounds, each a draw and (but
    the last) one bid per seat, so 13 * 2 + 13 events bound a 2-player game."""
    rules = load_game("goofspiel-drawn")
    assert rules.max_events(2) == 13 * 2 + 13
    assert rules.max_events(3) == 13 * 3 + 13
    assert load_game("goofspiel-drawn", variants=["three-cards"]).max_events(2) == 3 * 2 + 3
    game = openspiel.load("goofspiel-drawn", variants=["three-cards"])
    assert game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    while not state.is_terminal():
        assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_actions([state.legal_actions(p)[0] for p in range(2)])
