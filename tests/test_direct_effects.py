"""Action effects that can never wait run as one function, without a frame
(compile/direct.py).

An action applied as a listed Action goes through `decisions.take`, which calls the
direct function; the same action applied by its text goes through `_perform`, which
pushes the effect's frame. So playing one game both ways, step by step, compares the
two forms: every state must be the same, and so must every error.
"""

from __future__ import annotations

import pathlib
import random

import pytest
from conftest import code_listing, find_line, loading_mutants, play, played_both_ways, toy

from interpreter.diagnostics import RuleRuntimeError

GAME = """
counters:
  score: {scope: player, initial: 0}
  pot: {scope: global, initial: 0, max: 9}
  fails: {scope: global, initial: 0}
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: all}
cards:
  gem: {name: Gem, count: 2, in: deck, properties: {worth: 2}}
  rock: {name: Rock, count: 2, in: deck, properties: {worth: 0}}
actions:
  add:
    during: main
    params: {n: "[1, 2, 3]"}
    effect: |
      let twice = n * 2
      if twice > 4:
        gain twice score(me)
      elif n == 2:
        set score(me) to score(me) + 1
        log "{me} took two"
      else:
        set pot to pot + 1
        let left = 9 - pot
        if left < 5:
          set score(next_player(me)) to score(next_player(me)) + left
    ends: turn
  grab:
    during: main
    condition: "len(deck) > 0"
    effect: "move top(deck) to hand(me)"
    ends: turn
  roll:
    during: main
    effect: "set pot to random(0, 2)"
    ends: turn
  spread:
    during: main
    condition: "pot == 100"
    effect: |
      for each p in players:
        gain 1 score(p)
  ask:
    during: main
    condition: "pot == 100"
    effect: |
      choose x from [1, 2] by me
      set pot to x
  win:
    during: main
    condition: "score(me) >= 12"
    effect: |
      set pot to 0
      end game winners [me]
  crash:
    during: main
    condition: "fails == 0 and pot >= 3"
    effect: |
      set pot to pot - 1
      set fails to 1 / (pot - pot)
setup: "shuffle deck"
end:
  - id: full
    when: "pot >= 7"
    check: action
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _direct_ids(game) -> set[str]:
    return {a.id for a in game.definition.actions if a.direct is not None}


def test_effects_that_never_wait_get_a_direct_function_and_the_rest_keep_their_frame(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    # roll draws a random number (with explicit chance it may stop for an outcome),
    # ask waits for a choice; spread's loop is a Python loop, its list charged to the
    # work meter
    assert _direct_ids(game) == {"add", "grab", "win", "crash", "spread"}
    listing = dict(code_listing(game.definition))
    source = listing["actions.add.effect (direct: no frame, locals as names)"]
    assert source.startswith("def _direct") and "(st, _l_me, _l_n):" in source
    assert "_l_twice = " in source and "env" not in source and "fr." not in source


def _both_ways(game, seed: int, chance: str = "seeded") -> int:
    """Play a random game twice, by listed Actions and by texts; compare each step."""
    rng = random.Random(seed)
    fast = game.new_initial_state(2, seed=seed, chance=chance)
    slow = game.new_initial_state(2, seed=seed, chance=chance)
    steps = 0
    while not fast.is_terminal() and steps < 200:
        if fast.is_chance_node():
            outcome = rng.choice(fast.chance_outcomes())[0]
            fast.apply_action(outcome)
            slow.apply_action(outcome.text)
        else:
            options = [a for a in fast.legal_actions() if a.text != "crash"]
            chosen = rng.choice(options)
            fast.apply_action(chosen)  # the listed Action itself: decisions.take, the direct call
            slow.apply_action(chosen.text)  # its text: _perform, the effect's frame
        assert fast == slow and fast.to_json() == slow.to_json()
        steps += 1
    assert slow.is_terminal() == fast.is_terminal() and list(fast.log) == list(slow.log)
    return steps


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_a_direct_effect_leaves_the_very_state_its_frame_would(tmp_path, chance: str) -> None:
    game = toy(tmp_path, GAME)
    assert sum(_both_ways(game, seed, chance) for seed in range(12)) > 100


def _counted(game) -> list[int]:
    """Each call of an action's direct function, counted in the list returned."""
    calls: list[int] = []
    for act in game.definition.actions:
        if act.direct is not None:
            def run(st, *args, _real=act.direct) -> None:
                calls.append(1)
                _real(st, *args)
            object.__setattr__(act, "direct", run)
    return calls


def test_the_direct_path_is_the_one_taken_for_a_listed_action(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    calls = _counted(game)
    state = game.new_initial_state(2, seed=1)
    state.apply_action(next(a for a in state.legal_actions() if a.text == "add 3"))
    assert len(calls) == 1 and state.counters[0] == [6, 0]  # gain 6 score(P1)
    state.apply_action("add 3")  # by text: the frame
    assert len(calls) == 1 and state.counters[0] == [6, 6]
    # With explicit chance, while the shuffled deck waits to be dealt, an effect reading
    # its top would stop for the deal: no direct call then (none of these reads it, but
    # the engine does not look inside).
    state = game.new_initial_state(2, seed=1, chance="explicit")
    assert state.unordered
    state.apply_action(next(a for a in state.legal_actions() if a.text == "add 3"))
    assert len(calls) == 1 and state.counters[0] == [6, 0]


def test_an_end_checked_after_each_action_ends_the_game_after_a_direct_effect(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    state = game.new_initial_state(2, seed=1)
    for _ in range(7):  # pot +1 each time: the seventh makes it 7, and `full` ends the game
        assert not state.is_terminal()
        state.apply_action(next(a for a in state.legal_actions() if a.text == "add 1"))
    assert state.is_terminal() and state.end_reason == "full"


def test_end_game_inside_a_direct_effect_ends_it_at_once(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    state = game.new_initial_state(2, seed=1)
    for _ in range(4):  # P1 and P2 gain 6 twice each
        state.apply_action(next(a for a in state.legal_actions() if a.text == "add 3"))
    win = next(a for a in state.legal_actions() if a.text == "win")
    state.apply_action(win)
    assert state.is_terminal() and state.winners == [0] and state.stack == [] and state.returns() == [1.0, -1.0]
    assert state.counters[1] == [0]


def _error_of(state, action) -> str:
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action(action)
    return str(caught.value)


def test_a_rule_error_in_a_direct_effect_is_placed_at_its_statement_as_the_frame_places_it(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    fast = play(game.new_initial_state(2, seed=1), "add 1", "add 1", "add 1")
    slow = fast.clone()
    crash = next(a for a in fast.legal_actions() if a.text == "crash")
    by_direct, by_frame = _error_of(fast, crash), _error_of(slow, "crash")
    assert by_direct == by_frame
    path = pathlib.Path(by_direct.split(":")[0])
    assert path.parent.parent == tmp_path  # the toy's own file, at the line of the failing statement
    assert by_direct.startswith(f"{path}:{find_line(path, 'set fails to 1 / (pot - pot)')}:")
    assert "(actions.crash.effect): division by zero" in by_direct


def test_with_triggers_only_effects_that_fire_no_event_heard_are_direct(tmp_path) -> None:
    # a statement that may fire an event some trigger listens to (score changed, a card
    # entering a hand) could queue the trigger's effect, which runs before the next
    # statement: that needs the frame. Setting `pot` or `fails`, which no trigger
    # names, fires nothing.
    game = toy(tmp_path, GAME.replace("actions:\n", """actions:
  note:
    during: main
    condition: "pot == 100"
    effect: |
      let x = pot * 2
      if x > 3:
        log "noted {x}"
""", 1) + """
triggers:
  noticed:
    on: changed score
    effect: "set fails to fails"
  kept:
    on: entered hand
    effect: "log \\"kept\\""
""")
    assert _direct_ids(game) == {"note", "win", "crash"}
    assert _both_ways(game, 3) > 0
    # a trigger on turn_end hears no counter or card: every effect that qualifies is direct
    game = toy(tmp_path, GAME + """
triggers:
  noticed:
    on: turn_end
    effect: "set fails to fails"
""")
    assert _direct_ids(game) == {"add", "grab", "win", "crash", "spread"}
    assert _both_ways(game, 3) > 0


def test_what_follows_a_direct_effect_may_stop_for_chance_or_fail_as_after_a_frame(tmp_path) -> None:
    # The flow goes on from the decision in the same call (loop.run_on): a random draw
    # there is a chance node with explicit chance, and an error is placed in the flow.
    rolling = GAME.replace("        take actions main\n", "        take actions main\n"
                           "        set fails to fails + random(0, 1)\n")
    game = toy(tmp_path, rolling)
    assert _direct_ids(game) == {"add", "grab", "win", "crash", "spread"}
    for chance in ("seeded", "explicit"):
        assert sum(_both_ways(game, seed, chance) for seed in range(6)) > 50
    state = game.new_initial_state(2, seed=3, chance="explicit")
    state.apply_action(next(a for a in state.legal_actions() if a.text == "add 1"))
    assert state.is_chance_node() and len(state.chance_outcomes()) == 2  # random(0, 1), in the flow
    failing = toy(tmp_path, GAME.replace("        take actions main\n", "        take actions main\n"
                                         "        set fails to 1 / (pot - 1)\n"))
    fast = failing.new_initial_state(2, seed=1)
    slow = fast.clone()
    by_direct = _error_of(fast, next(a for a in fast.legal_actions() if a.text == "add 1"))
    assert by_direct == _error_of(slow, "add 1")
    assert "(flow): division by zero" in by_direct


@pytest.mark.parametrize("name", ["examples/kuhn-poker", "examples/tic-tac-toe", "examples/leduc-poker",
                                  "examples/breakthrough", "race-to-mars", "rocketmen", "rocketmen+target-jupiter",
                                  "for-all-mankind", "examples/star-market"])
def test_bundled_games_play_the_same_by_actions_and_by_texts(name: str) -> None:
    """Every bundled game with direct effects taken in play (Goofspiel's bid is direct,
    but a simultaneous pick never goes through `take`), played both ways: listed
    Actions (the direct calls) and their texts (the frames), compared at every step."""
    from interpreter import load_game
    base, _, overlay = name.partition("+")
    game = load_game(base, overlays=[overlay] if overlay else [])
    calls = _counted(game)
    for seed in range(5):
        rng = random.Random(seed)
        fast, slow = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
        for _ in range(100):
            if fast.is_terminal():
                break
            chosen = rng.choice(fast.legal_actions())
            fast.apply_action(chosen)
            slow.apply_action(chosen.text)
            assert fast == slow
        assert fast.to_json() == slow.to_json() and list(fast.log) == list(slow.log)
    assert len(calls) >= 8


def test_mutated_small_games_play_the_same_by_actions_and_by_texts(tmp_path) -> None:
    """The fuzzer's mutants of the small games (tests/fuzz: changed numbers, names,
    operators, statements): those that load and have a direct effect are played both
    ways, and must reach the same states, or fail with the same rule error."""
    games = ("examples/kuhn-poker", "examples/tic-tac-toe", "examples/leduc-poker", "examples/breakthrough")
    compared = errors = 0
    for index, (mutant, _, game) in enumerate(loading_mutants(games, 7, 150, tmp_path)):
        if not any(a.direct is not None for a in game.definition.actions):
            continue
        rng = random.Random(index)
        try:
            fast, slow = game.new_initial_state(seed=index), game.new_initial_state(seed=index)
        except RuleRuntimeError:  # (broken before any action: nothing to compare)
            continue
        errors += played_both_ways(fast, slow, rng, 40, mutant.changes)
        compared += 1
    assert compared >= 30, (compared, errors)  # (errors: those met both ways, compared above)
