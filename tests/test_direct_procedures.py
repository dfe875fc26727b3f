"""Procedures that can never wait run as one function, called where they are called,
without a frame (compile/direct.py).

A call site calls the procedure's direct function through a name the game's generated
code reads when it runs (`statements.procedure_alias`); bound to None, every call
pushes the procedure's frame instead. So the same rules loaded twice, once with those
names set to None and played by action texts (frames everywhere), and once as they
load, played by listed Actions (direct calls), must reach the same states and the
same errors.
"""

from __future__ import annotations

import pathlib
import random

import pytest
from conftest import code_listing, find_line, generated, load_unshared, loading_mutants, played_both_ways, toy

from interpreter.compile.statements import procedure_alias
from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_WORK

GAME = """
counters:
  score: {scope: player, initial: 0}
  pot: {scope: global, initial: 0}
  rounds: {scope: global, initial: 0}
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: all}
cards:
  gem: {name: Gem, count: 3, in: deck, properties: {worth: 2}}
  rock: {name: Rock, count: 3, in: deck, properties: {worth: 1}}
procedures:
  tally:
    effect: |
      for each p in players:
        award(p, len(hand(p)))
      gain 1 rounds
      if rounds >= 6:
        end game winners [p for p in players if score(p) == max([score(q) for q in players])]
  award:
    params: [p, n]
    effect: |
      let worth = sum([c.worth for c in hand(p)])
      for each c in hand(p):
        if c.worth > 1:
          set worth to worth + 1
      gain worth + n score(p)
      log "{p} scores {worth + n}"
  deal_one:
    params: [p]
    effect: "draw 1 from deck to hand(p)"
  countdown:
    params: [n]
    effect: |
      if n > 0:
        set pot to pot + 1
        countdown(n - 1)
  ask:
    effect: |
      choose x from [1, 2] by me
      set pot to pot + x
  broken:
    effect: |
      set pot to pot + 1
      set pot to 10 / (pot - pot)
actions:
  take:
    during: main
    condition: "len(deck) > 0"
    effect: "deal_one(me)"
    ends: turn
  count:
    during: main
    effect: |
      tally()
      set pot to pot + 1
    ends: turn
  pick:
    during: main
    effect: "ask()"
    ends: turn
  recurse:
    during: main
    condition: "pot < 40"
    effect: "countdown(3)"
    ends: turn
  crash:
    during: main
    condition: "rounds >= 2"
    effect: "broken()"
setup: "shuffle deck"
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
    tally()
"""


def _direct_procedures(game) -> set[str]:
    return {what.split(".")[1] for what, _ in game.definition.generated_code
            if what.startswith("procedures.") and "(direct:" in what}


def _namespace(game) -> dict:
    """The game's generated code's namespace (a generated operation's globals)."""
    for code in game.definition.codes:
        for op in code.ops:
            names = getattr(op, "__globals__", {})
            if any(name.startswith("_procedure") for name in names):
                return names
    raise AssertionError("no generated code calls a procedure")


def _frames_only(game):
    """The game with every call of a procedure pushing its frame (its generated code
    changed in place: a game of its own, `load_unshared` or a toy of its own folder)."""
    names = _namespace(game)
    for name in list(names):
        if name.startswith("_procedure") and name.endswith("_direct"):
            names[name] = None
    return game


def test_procedures_that_never_wait_get_a_direct_function_and_the_rest_keep_their_frame(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    # deal_one draws (with explicit chance a draw from a shuffled pile may stop for the
    # deal), countdown calls itself (its frames count how deep it goes), ask waits
    assert _direct_procedures(game) == {"tally", "award", "broken"}
    listing = dict(code_listing(game.definition))
    tally = listing["procedures.tally.effect (direct: no frame, locals as names)"]
    # a loop as a Python loop, its list charged to the work meter; a direct call inside
    assert "for _l_p in _charge" in tally and "_direct = " not in tally
    award_alias = procedure_alias(next(c.index for c in game.definition.codes if c.name == "procedures.award"))
    assert f"{award_alias}(st, _l_me, _l_p, len(" in tally and "env" not in tally and "fr." not in tally
    # the actions calling tally and broken are direct too; the one calling ask is not
    assert {a.id for a in game.definition.actions if a.direct is not None} == {"count", "crash"}
    # a call site: the direct function when there is one, else the frame
    flow = generated(game, "flow")
    assert "if _direct is None or st.unordered:" in flow


def _both_ways(fast_game, slow_game, seed: int, chance: str = "seeded") -> int:
    """A random game played by listed Actions with direct calls, and by texts with
    frames only, compared at each step."""
    rng = random.Random(seed)
    fast = fast_game.new_initial_state(2, seed=seed, chance=chance)
    slow = slow_game.new_initial_state(2, seed=seed, chance=chance)
    assert fast == slow
    steps = 0
    while not fast.is_terminal() and steps < 300:
        if fast.is_chance_node():
            outcome = rng.choice(fast.chance_outcomes())[0]
            fast.apply_action(outcome)
            slow.apply_action(outcome.text)
        else:
            chosen = rng.choice([a for a in fast.legal_actions() if a.text != "crash"])
            fast.apply_action(chosen)
            slow.apply_action(chosen.text)
        assert fast == slow and fast.to_json() == slow.to_json()
        steps += 1
    assert fast.is_terminal() and slow.is_terminal() and list(fast.log) == list(slow.log)
    return steps


@pytest.mark.parametrize("chance", ["seeded", "explicit"])
def test_a_direct_procedure_leaves_the_very_state_its_frame_would(tmp_path, chance: str) -> None:
    fast_game, slow_game = toy(tmp_path, GAME), _frames_only(toy(tmp_path, GAME))
    assert sum(_both_ways(fast_game, slow_game, seed, chance) for seed in range(10)) > 100


def test_a_procedure_with_player_parameters_is_run_as_retyped(tmp_path) -> None:
    # award(p, n) is only ever called with a player: recompiled so `{p}` reads "P1", in
    # its direct function too (the call sites read the name when they run)
    game = toy(tmp_path, GAME)
    state = game.new_initial_state(2, seed=4)
    state.apply_action(next(a for a in state.legal_actions() if a.text == "count"))
    assert any(line.startswith("P1 scores") for line in state.log)


def test_a_rule_error_in_a_direct_procedure_is_placed_at_its_statement_as_the_frame_places_it(tmp_path) -> None:
    fast_game, slow_game = toy(tmp_path, GAME), _frames_only(toy(tmp_path, GAME))
    fast = fast_game.new_initial_state(2, seed=1)
    slow = slow_game.new_initial_state(2, seed=1)
    while fast.counters[2] < [2]:  # rounds: crash is legal from the second
        fast.apply_action(next(a for a in fast.legal_actions() if a.text == "count"))
        slow.apply_action("count")
    errors = []
    for state, action in ((fast, next(a for a in fast.legal_actions() if a.text == "crash")), (slow, "crash")):
        with pytest.raises(RuleRuntimeError) as caught:
            state.apply_action(action)
        errors.append(str(caught.value))
    assert errors[0].split("game.yaml")[1] == errors[1].split("game.yaml")[1]  # (two toys: two folders)
    path = pathlib.Path(errors[0].split(":")[0])
    assert errors[0].startswith(f"{path}:{find_line(path, 'set pot to 10 / (pot - pot)')}:")
    assert "(procedures.broken.effect): division by zero" in errors[0]


def test_a_procedure_that_calls_itself_keeps_its_frames_and_their_depth_limit(tmp_path) -> None:
    game = toy(tmp_path, GAME.replace('effect: "countdown(3)"', 'effect: "countdown(500)"')
               .replace('condition: "pot < 40"', 'condition: "true"'))
    state = game.new_initial_state(2, seed=1)
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action(next(a for a in state.legal_actions() if a.text == "recurse"))
    assert caught.value.code == "depth"


def test_a_loop_in_a_direct_procedure_is_charged_to_the_work_meter(tmp_path) -> None:
    # No step budget counts a direct function's laps: each list it goes through is
    # charged, as a comprehension's is, so a runaway loop still ends in a rule error.
    game = toy(tmp_path, GAME)
    state = game.new_initial_state(2, seed=1)
    tally = _namespace(game)[procedure_alias(next(c.index for c in game.definition.codes
                                                  if c.name == "procedures.tally"))]
    state.work = MAX_WORK - 1  # (as if the resolution had gone through that many items)
    with pytest.raises(RuleRuntimeError) as caught:
        tally(state, 0)
    assert caught.value.code == "limit" and caught.value.located
    path = pathlib.Path(caught.value.path)
    assert caught.value.line == find_line(path, "for each p in players:")


@pytest.mark.parametrize("name,chance", [("examples/kuhn-poker", "seeded"), ("race-to-mars", "seeded"),
                                         ("rocketmen", "seeded"), ("rocketmen+target-jupiter", "seeded"),
                                         ("for-all-mankind", "seeded"), ("race-to-mars", "explicit"),
                                         ("examples/kuhn-poker", "explicit")])
def test_bundled_games_play_the_same_with_direct_procedures_and_with_frames(name: str, chance: str) -> None:
    from interpreter import load_game
    base, _, overlay = name.partition("+")
    fast_game = load_game(base, overlays=[overlay] if overlay else [])
    slow_game = _frames_only(load_unshared(base, overlays=[overlay] if overlay else []))
    assert _namespace(slow_game) is not _namespace(fast_game)  # (else both would play by frames)
    assert _direct_procedures(fast_game)
    for seed in range(4):
        rng = random.Random(seed)
        fast = fast_game.new_initial_state(seed=seed, chance=chance)
        slow = slow_game.new_initial_state(seed=seed, chance=chance)
        for _ in range(150):
            if fast.is_terminal():
                break
            if fast.is_chance_node():
                outcome = rng.choice(fast.chance_outcomes())[0]
                fast.apply_action(outcome)
                slow.apply_action(outcome.text)
            else:
                chosen = rng.choice(fast.legal_actions())
                fast.apply_action(chosen)
                slow.apply_action(chosen.text)
            assert fast == slow
        assert fast.to_json() == slow.to_json() and list(fast.log) == list(slow.log)


def test_mutated_games_play_the_same_with_direct_procedures_and_with_frames(tmp_path) -> None:
    """The fuzzer's mutants of the small games with procedures (tests/fuzz: changed
    numbers, names, operators, statements): those that load with a direct procedure
    are played with it and with frames only, and must reach the same states, or fail
    with the same rule error."""
    games = ("examples/kuhn-poker", "examples/leduc-poker", "examples/star-market", "examples/goofspiel")
    compared = 0
    for index, (mutant, folder, fast_game) in enumerate(loading_mutants(games, 11, 240, tmp_path)):
        if not _direct_procedures(fast_game):
            continue
        slow_game = _frames_only(load_unshared(str(folder)))
        assert _namespace(slow_game) is not _namespace(fast_game)
        rng = random.Random(index)
        try:
            fast = fast_game.new_initial_state(seed=index)
        except RuleRuntimeError as err:
            with pytest.raises(RuleRuntimeError) as caught:
                slow_game.new_initial_state(seed=index)
            assert str(caught.value) == str(err), mutant.changes
            compared += 1
            continue
        played_both_ways(fast, slow_game.new_initial_state(seed=index), rng, 60, mutant.changes)
        compared += 1
    assert compared >= 30, compared  # (of 240 mutants, 37 load with a direct procedure)
