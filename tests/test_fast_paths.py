"""The engine's fast paths give what the general ones give: declared values and end
checks written out as generated functions, loops that go round inside one generated
function, random statements inside fused runs (with explicit chance too), Actions kept
by the listers, log templates written inline, the work meter kept in the state, and
saves made while an action that ends the turn is under way."""

from __future__ import annotations

import json
import random

import pytest
from conftest import code_listing, counter, generated_ns, play, texts, toy

from interpreter import load_game
from interpreter.compile import enumerators
from interpreter.diagnostics import RuleRuntimeError
from interpreter.resources import data_path
from interpreter.runtime.counters import value_of
from interpreter.runtime.ending import check_end


def _random_states(game, seeds: int, moves: int):
    rng = random.Random(7)
    for seed in range(seeds):
        state = game.new_initial_state(seed=seed)
        for _ in range(moves):
            if state.is_terminal():
                break
            yield state
            state.apply_action(rng.choice(state.legal_actions()))


def _outcome(fn, state, player) -> tuple:
    """A value, or the kind of error it raises (a value read where it is not defined)."""
    try:
        return ("value", fn(state, player))
    except Exception as err:  # compared, not hidden
        return ("error", type(err).__name__, str(err))


@pytest.mark.parametrize(("target", "overlays"), [("for-all-mankind", []), ("race-to-mars", []),
                                                  ("rocketmen", ["target-jupiter"])], ids=str)
def test_generated_values_give_the_generic_walks_values(target: str, overlays: list[str]) -> None:
    game = load_game(target, overlays=overlays)
    ns, gd = generated_ns(game.definition), game.definition
    assert gd.values
    compared = 0
    for state in _random_states(game, 3, 150):
        for vdef in gd.values:
            for player in range(state.n) if vdef.of_player else (-1,):
                mine = _outcome(ns[f"_value_of_{vdef.index}"], state, player)
                assert mine == _outcome(lambda st, p, vi=vdef.index: value_of(st, vi, p), state, player), vdef.name
                compared += 1
    assert compared > 1000


ENDS = """
counters:
  n: {scope: global, initial: 0}
actions:
  up: {during: main, effect: "gain 1 n", ends: turn}
  stay: {during: main, ends: turn}
end:
  - {id: soon, check: turn, when: "n >= 2", then: finish_round}
  - {id: now, check: turn, when: "n >= 3", then: finish_turn}
  - {id: over, check: round, when: "n >= 5", winners: "[0]"}
flow: |
  repeat forever:
    round:
      for each p in players:
        turn p:
          take actions main
"""


def test_generated_end_checks_do_what_the_generic_walk_does(tmp_path) -> None:
    game = toy(tmp_path, ENDS)
    ns = generated_ns(game.definition)
    state = game.new_initial_state(2, seed=0)
    seen = set()
    for action in ["up", "up", "stay", "up", "up", "up"]:
        for check in ("turn", "round"):
            mine, theirs = state.clone(), state.clone()
            assert ns[f"_check_end_{check}"](mine) == check_end(theirs, check)
            assert (mine.ending, mine.ending_reason, mine.terminal, mine.winners) == \
                (theirs.ending, theirs.ending_reason, theirs.terminal, theirs.winners)
            seen.add((check, mine.ending, mine.terminal))
        if state.is_terminal():
            break
        play(state, action)
    assert any(ending is not None for _, ending, _ in seen) and any(over for _, _, over in seen)
    assert state.is_terminal()


def test_an_end_condition_that_fails_is_a_placed_rule_error(tmp_path) -> None:
    game = toy(tmp_path, ENDS.replace('when: "n >= 3"', 'when: "[1][n] > 0"'))
    state = game.new_initial_state(2, seed=0)
    with pytest.raises(RuleRuntimeError, match=r"end condition 'now'.*index out of range"):
        play(state, "up", "up")


def test_a_loop_goes_round_inside_its_run_and_stops_where_a_trigger_fires(tmp_path) -> None:
    game = toy(tmp_path, """
counters:
  total: {scope: global, initial: 0}
  big: {scope: global, initial: 0}
  echoes: {scope: global, initial: 0}
triggers:
  echo:
    on: changed big
    effect: "gain 1 echoes"
flow: |
  for each i in range(30):
    gain i total
    log "step {i}"
    if i % 7 == 0:
      set big to i
  end game winners [0]
""")
    state = game.new_initial_state(2, seed=0)
    assert counter(state, "total") == sum(range(30))
    assert counter(state, "big") == 28
    assert counter(state, "echoes") == 4  # 7, 14, 21, 28 changed it (0 did not): each trigger ran
    assert [line for line in state.log if line.startswith("step")] == [f"step {i}" for i in range(30)]
    code = "\n".join(source for _, source in code_listing(game.definition))
    assert "while True:" in code  # the loop went round inside a generated function


def test_a_draw_in_a_fused_run_still_stops_for_its_outcome_with_explicit_chance(tmp_path) -> None:
    game = toy(tmp_path, """
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
cards:
  a: {name: Ace, count: 1, in: deck}
  b: {name: Bee, count: 1, in: deck}
  c: {name: Cat, count: 1, in: deck}
actions:
  pass: {during: main, ends: turn}
setup: |
  shuffle deck
  for each p in players:
    draw 1 from deck to hand(p)
flow: |
  turn 0:
    take actions main
""")
    seeded = game.new_initial_state(2, seed=3)
    assert not seeded.is_chance_node() and [len(seeded.zones[s]) for s in (1, 2)] == [1, 1]
    explicit = game.new_initial_state(2, seed=3, chance="explicit")
    assert explicit.is_chance_node()  # the run stopped at the draw: the deal is asked for
    explicit.apply_action("deal c")
    assert explicit.is_chance_node()
    explicit.apply_action("deal a")
    assert not explicit.is_chance_node() and texts(explicit) == ["pass"]
    hands = [explicit.layout.zbase[1] + p for p in (0, 1)]
    assert [explicit.gd.cards[explicit.card_def[explicit.zones[s][0]]].id for s in hands] == ["c", "a"]


def test_listers_keep_one_action_per_value_within_their_bound(tmp_path, monkeypatch) -> None:
    game = load_game("tic-tac-toe")
    first, second = game.new_initial_state(seed=1), game.new_initial_state(seed=2)
    one, two = first.legal_actions(), second.legal_actions()
    assert [a.text for a in one] == [f"place {i}" for i in range(9)]
    assert all(a is b for a, b in zip(one, two, strict=True))  # shared, not made again
    # Past the bound, Actions are still right, only not kept.
    caches = [v for k, v in generated_ns(game.definition).items() if k.startswith("_actions") and isinstance(v, dict)]
    assert caches and all(len(c) <= enumerators.KEPT_ACTIONS for c in caches)
    # (a copy of the rules elsewhere: a load of the same files shares the definition, caches and all)
    copy = tmp_path / "game.yaml"
    copy.write_text((data_path("examples") / "tic-tac-toe" / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    fresh = load_game(str(copy))
    assert fresh.definition is not game.definition
    monkeypatch.setattr(enumerators, "KEPT_ACTIONS", 2)
    state = fresh.new_initial_state(seed=1)
    assert [a.text for a in state.legal_actions()] == [f"place {i}" for i in range(9)]
    kept = [v for k, v in generated_ns(fresh.definition).items() if k.startswith("_actions") and isinstance(v, dict)]
    assert [len(c) for c in kept] == [2]
    play(state, "place 4")
    assert "place 4" not in [a.text for a in state.legal_actions()]


def test_log_lines_written_inline_read_as_the_template_says(tmp_path) -> None:
    game = toy(tmp_path, """
zones:
  table: {scope: global, visible: all}
cards:
  a: {name: Ace, count: 1, in: table}
flow: |
  let n = 3
  let s = "two words"
  let t = true
  let xs = [1, 2]
  log "n={n} s={s} p={next_player(0)} t={t} none={top([])} xs={xs} card={top(table)} sum={n + 4}"
  end game winners [0]
""")
    state = game.new_initial_state(2, seed=0)
    assert "n=3 s=two words p=P2 t=true none=none xs=1, 2 card=Ace sum=7" in state.log


def test_the_work_meter_and_value_memo_are_the_states_own_and_never_saved() -> None:
    game = load_game("race-to-mars")
    state = game.new_initial_state(seed=4)
    state.legal_actions()
    assert state.memo is None  # only set while actions are listed
    assert isinstance(state.work, int)
    clone = state.clone()
    assert clone.work == 0 and clone.memo is None
    saved = json.loads(state.to_json())
    assert "work" not in saved and "memo" not in saved
    assert game.state_from_json(state.to_json()).work == 0


CHOOSY = """
counters:
  n: {scope: player, initial: 0}
actions:
  go:
    during: main
    ends: turn
    effect: |
      choose k from [1, 2, 3] prompt "how many?"
      gain k n(me)
  wait: {during: main, ends: turn}
flow: |
  repeat 3:
    for each p in players:
      turn p:
        take actions main
"""


def test_a_save_in_the_middle_of_an_action_that_ends_the_turn_resumes_identically(tmp_path) -> None:
    game = toy(tmp_path, CHOOSY)
    state = play(game.new_initial_state(2, seed=0), "go")
    assert texts(state) == ["1", "2", "3"]
    saved = state.to_json()
    resumed = game.state_from_json(saved)
    for one in (state, resumed):
        play(one, "2", "wait", "go", "3")
    assert resumed.to_json() == state.to_json()
    assert counter(state, "n", 0) == 5 and state.current_player() == 1
    # The save is what earlier engines of the same code shape write (they load it, and
    # this one loads theirs): the flow waits at its `take actions` statement, marked
    # done in its locals ("#done" and the statement's index).
    flow = json.loads(saved)["stack"][0]
    assert flow[2].get(f"#done{flow[1]}") is True


def test_a_generated_value_follows_a_card_power_that_reaches_other_players(tmp_path) -> None:
    game = toy(tmp_path, """
players: {min: 3, max: 3}
counters:
  bonus: {scope: player, initial: 0}
zones:
  table: {scope: player, visible: all}
  box: {scope: global, visible: all}
cards:
  jammer:
    name: Jammer
    count: 1
    in: box
    active_in: [table]
    applies_to: "p != owner"
    modifiers:
      power: {value: reach, op: add, amount: "10 + owner + bonus(p)"}
  lamp:
    name: Lamp
    count: 1
    in: box
    active_in: [table]
    modifiers:
      power: {value: reach, op: max, amount: "owner * 100"}
values:
  reach: {of: player, base: "1"}
actions:
  pass: {during: main, ends: turn}
setup: |
  set bonus(2) to 5
  move cards_named("jammer", box) to table(1)
  move cards_named("lamp", box) to table(2)
flow: |
  turn 0:
    take actions main
""")
    state = game.new_initial_state(3, seed=0)
    generated = generated_ns(game.definition)["_value_of_0"]
    mine = [generated(state, p) for p in range(3)]
    assert mine == [value_of(state, 0, p) for p in range(3)]
    assert mine == [1 + 11, 1, max(1 + 11 + 5, 200)]  # the jammer reaches P1 and P3, the lamp its holder
