"""A setup that never waits runs as one direct function when chance is seeded
(compile/direct.py, `seeded`): shuffles, draws and random numbers cannot stop there.

The same rules loaded twice, one with its direct setup taken away (the setup's frame
then runs, as it always does with explicit chance), must start every game in the very
same state, and fail with the very same error.
"""

from __future__ import annotations

import pathlib
import random

import pytest
from conftest import code_listing, find_line, loading_mutants, toy

from interpreter.diagnostics import RuleRuntimeError

GAME = """
counters:
  score: {scope: player, initial: 0}
  bonus: {scope: global, initial: 0}
zones:
  deck: {scope: global, visible: none, refill: {from: discard, shuffle: true}}
  discard: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
cards:
  gem: {name: Gem, count: 3, in: deck, properties: {worth: 2}}
  rock: {name: Rock, count: 2, in: discard, properties: {worth: 1}}
actions:
  pass:
    during: main
    effect: "set bonus to bonus + 1"
    ends: turn
setup: |
  shuffle deck
  for each p in players:
    draw 2 from deck to hand(p)
    set score(p) to sum([c.worth for c in hand(p)]) + random(0, 5)
  if score(0) > score(1):
    log "P1 leads"
  else:
    set bonus to random(1, 3)
end:
  - id: done
    when: "bonus >= 6"
    check: turn
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _frame_setup(game):
    """The game with its setup run by its frame."""
    object.__setattr__(game.definition, "setup_direct", None)
    return game


def test_a_seeded_setup_that_never_waits_is_one_direct_function(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    assert game.definition.setup_direct is not None
    source = dict(code_listing(game.definition))["setup (direct: no frame, locals as names)"]
    # the draw written without explicit chance's bookkeeping; a refill goes through deal
    assert "_shuffle_in_place" in source and "for _l_p in _charge" in source and "st.unordered" not in source
    assert "fr" not in source.replace("from", "")


@pytest.mark.parametrize("players", [2, 3])
def test_a_direct_setup_starts_the_very_game_its_frame_starts(tmp_path, players: int) -> None:
    text = GAME.replace("players: {min: 2, max: 2}", "") + "players: {min: 2, max: 3}\n"
    fast, slow = toy(tmp_path, text), _frame_setup(toy(tmp_path, text))
    for seed in range(40):
        a = fast.new_initial_state(players, seed=seed)
        b = slow.new_initial_state(players, seed=seed)
        assert a == b and a.to_json() == b.to_json() and list(a.log) == list(b.log)
        # two hands of two from the deck of three, the discard shuffled in for the fourth;
        # three hands: the five cards there are, then nothing more to draw
        assert sum(len(a.zones[2 + p]) for p in range(players)) == (4 if players == 2 else 5)
        rng = random.Random(seed)
        while not a.is_terminal():
            chosen = rng.choice(a.legal_actions())
            a.apply_action(chosen)
            b.apply_action(chosen.text)
        assert a == b


def test_explicit_chance_runs_the_setup_by_its_frame(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    state = game.new_initial_state(2, seed=1, chance="explicit")
    assert state.is_chance_node()  # the shuffled deck waits for its first deal


def test_a_setup_that_may_wait_or_fire_keeps_its_frame(tmp_path) -> None:
    heard = toy(tmp_path, GAME + """
triggers:
  kept:
    on: entered hand
    effect: "set bonus to bonus + 1"
""")
    assert heard.definition.setup_direct is None
    state = heard.new_initial_state(2, seed=3)
    assert state.counters[1] == [4]  # four cards entered hands
    asking = toy(tmp_path, GAME.replace("setup: |\n", "setup: |\n  choose x from [1, 2] by 0\n"))
    assert asking.definition.setup_direct is None


def test_a_rule_error_in_a_direct_setup_is_placed_at_its_statement_as_the_frame_places_it(tmp_path) -> None:
    text = GAME.replace("    log \"P1 leads\"", "    set bonus to 1 / (bonus - bonus)")
    fast, slow = toy(tmp_path, text), _frame_setup(toy(tmp_path, text))
    seed = next(s for s in range(50) if _leads(slow, s))
    errors = []
    for game in (fast, slow):
        with pytest.raises(RuleRuntimeError) as caught:
            game.new_initial_state(2, seed=seed)
        errors.append(caught.value)
    assert str(errors[0]).split("game.yaml")[1] == str(errors[1]).split("game.yaml")[1]
    assert errors[0].line == find_line(pathlib.Path(errors[0].path), "set bonus to 1 / (bonus - bonus)")
    assert errors[0].what == "setup" and errors[0].message == "division by zero"


def _leads(game, seed: int) -> bool:
    try:
        game.new_initial_state(2, seed=seed)
    except RuleRuntimeError:
        return True
    return False


def test_mutated_games_start_the_same_with_a_direct_setup_and_with_its_frame(tmp_path) -> None:
    """The fuzzer's mutants of the small games whose setup is direct (tests/fuzz):
    each that loads starts, for a few seeds, in the same state both ways, or fails with
    the same rule error."""
    from interpreter import load_game
    compared = 0
    games = ("examples/kuhn-poker", "examples/leduc-poker", "examples/breakthrough")
    for mutant, folder, fast_game in loading_mutants(games, 13, 170, tmp_path):
        if fast_game.definition.setup_direct is None:
            continue
        slow_game = _frame_setup(load_game(str(folder)))
        for seed in range(3):
            try:
                fast = fast_game.new_initial_state(seed=seed)
            except RuleRuntimeError as err:
                with pytest.raises(RuleRuntimeError) as caught:
                    slow_game.new_initial_state(seed=seed)
                assert str(caught.value) == str(err), mutant.changes
                continue
            slow = slow_game.new_initial_state(seed=seed)
            assert fast == slow and fast.to_json() == slow.to_json(), mutant.changes
        compared += 1
    assert compared >= 30, compared
