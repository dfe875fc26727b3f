"""Explicit chance (interpreter/runtime/chance.py, docs/chance.md): a state made with
`chance="explicit"` stops at every random event - dice, picks, shuffled lists, the
cards of a shuffled pile as they are taken - as a node of the chance player, whose
outcomes can be listed with their odds and forced. Each test sets up the situation on a
small game, forces outcomes and checks what the game did with them; bad input is
refused and changes nothing. The odds themselves are checked against the seeded mode in
tests/test_chance_odds.py.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import counter, events, toy, zone

from interpreter import CHANCE, GameError, IllegalActionError, load_game
from interpreter.diagnostics import RuleRuntimeError
from interpreter.runtime import chance

DICE = """
counters:
  a: {scope: global, initial: 0}
  b: {scope: global, initial: 0}
flow: |
  set a to random(1, 6)
  set b to random(1, 6) * 10 + random(0, 1)
"""

DECK = """
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
  row: {scope: global, visible: all}
cards:
  ace: {name: Ace, count: 3, in: deck, properties: {rank: 1}}
  bee: {name: Bee, count: 1, in: deck, properties: {rank: 2}}
  cat: {name: Cat, count: 1, in: deck, properties: {rank: 3}}
"""


def odds(state) -> dict[str, Fraction]:
    return {a.text: p for a, p in state.chance_outcomes(exact=True)}


# ---- dice, picks, shuffled lists ------------------------------------------------------------


def test_a_die_roll_is_a_chance_node_whose_outcome_can_be_forced(tmp_path):
    game = toy(tmp_path, DICE)
    state = game.new_initial_state(seed=4, chance="explicit")
    assert state.current_player() == CHANCE == -1 and state.is_chance_node()
    assert odds(state) == {f"chance {k}": Fraction(1, 6) for k in range(1, 7)}
    assert [p for _, p in state.chance_outcomes()] == [1 / 6] * 6  # floats by default
    state.apply_action("chance 6")
    assert counter(state, "a") == 6
    # two rolls in one statement: asked in order, then the statement runs with both
    assert list(odds(state)) == [f"chance {k}" for k in range(1, 7)]
    state.apply_action("chance 4")
    assert odds(state) == {"chance 0": Fraction(1, 2), "chance 1": Fraction(1, 2)}
    state.apply_action("chance 1")
    assert state.is_terminal() and counter(state, "b") == 41
    assert list(state.history) == ["chance 6", "chance 4", "chance 1"]


def test_the_seeded_mode_is_the_default_and_draws_by_itself(tmp_path):
    game = toy(tmp_path, DICE)
    state = game.new_initial_state(seed=4)
    assert state.chance_mode == "seeded" and state.is_terminal() and state.chance_outcomes() == []
    again = game.new_initial_state(seed=4)
    assert (counter(state, "a"), counter(state, "b")) == (counter(again, "a"), counter(again, "b"))
    saved = json.loads(state.to_json())
    assert not {"chance", "unordered", "queue", "chance_answers"} & set(saved)  # saves are what they were


def test_pick_random_weighs_equal_items_and_merges_identical_copies(tmp_path):
    game = toy(tmp_path, DECK + """
counters:
  got: {scope: global, initial: 0}
flow: |
  set got to pick_random([2, 7, 2, 2])
  move pick_random(deck) to row
""")
    state = game.new_initial_state(chance="explicit")
    assert odds(state) == {"chance 2": Fraction(3, 4), "chance 7": Fraction(1, 4)}
    state.apply_action("chance 7")
    assert counter(state, "got") == 7
    # the three aces in the deck are one outcome, three times as likely as the others
    assert odds(state) == {"chance ace": Fraction(3, 5), "chance bee": Fraction(1, 5), "chance cat": Fraction(1, 5)}
    state.apply_action("chance ace")
    assert zone(state, "row") == ["ace"] and sorted(zone(state, "deck")) == ["ace", "ace", "bee", "cat"]


def test_shuffled_asks_for_the_order_item_by_item(tmp_path):
    game = toy(tmp_path, """
counters:
  order: {scope: global, initial: 0}
flow: |
  let s = shuffled([1, 2, 3, 3])
  set order to s[0] * 1000 + s[1] * 100 + s[2] * 10 + s[3]
""")
    state = game.new_initial_state(chance="explicit")
    assert odds(state) == {"chance 1": Fraction(1, 4), "chance 2": Fraction(1, 4), "chance 3": Fraction(1, 2)}
    state.apply_action("chance 3")
    assert odds(state) == {"chance 1": Fraction(1, 3), "chance 2": Fraction(1, 3), "chance 3": Fraction(1, 3)}
    state.apply_action("chance 1")
    state.apply_action("chance 3")  # only 2 is left: no more questions
    assert state.is_terminal() and counter(state, "order") == 3132


# ---- shuffled zones, dealt as they are taken --------------------------------------------------


def test_a_shuffled_deck_is_dealt_card_by_card_as_it_is_drawn(tmp_path):
    game = toy(tmp_path, DECK + """
flow: |
  shuffle deck
  draw 2 from deck to hand(0)
  draw 1 from deck to hand(1)
""")
    state = game.new_initial_state(chance="explicit")
    assert state.prompt() == "the next card of deck"
    assert odds(state) == {"deal ace": Fraction(3, 5), "deal bee": Fraction(1, 5), "deal cat": Fraction(1, 5)}
    state.apply_action("deal cat")
    assert odds(state) == {"deal ace": Fraction(3, 4), "deal bee": Fraction(1, 4)}
    state.apply_action("deal ace")
    assert odds(state) == {"deal ace": Fraction(2, 3), "deal bee": Fraction(1, 3)}
    state.apply_action("deal bee")
    assert state.is_terminal()
    assert zone(state, "hand", 0) == ["cat", "ace"] and zone(state, "hand", 1) == ["bee"]
    assert zone(state, "deck") == ["ace", "ace"]  # what is left was never dealt: copies of one card


def test_a_deck_of_copies_of_one_card_needs_no_chance_node(tmp_path):
    game = toy(tmp_path, DECK.replace("Bee, count: 1", "Bee, count: 0").replace("Cat, count: 1", "Cat, count: 0")
               + "flow: |\n  shuffle deck\n  draw 2 from deck to hand(0)\n")
    state = game.new_initial_state(chance="explicit")
    assert state.is_terminal() and zone(state, "hand", 0) == ["ace", "ace"]


def test_top_and_bottom_of_a_shuffled_deck_are_dealt_when_read(tmp_path):
    game = toy(tmp_path, DECK + """
counters:
  peek: {scope: global, initial: 0}
flow: |
  shuffle deck
  set peek to top(deck).rank * 10 + bottom(deck).rank
  move top(deck, 2) to row
""")
    state = game.new_initial_state(chance="explicit")
    assert state.prompt() == "the next card of deck"
    state.apply_action("deal bee")
    assert state.prompt() == "the bottom card of deck"
    assert odds(state) == {"deal ace": Fraction(3, 4), "deal cat": Fraction(1, 4)}
    state.apply_action("deal cat")
    # top(deck, 2): the top card is known, and the one under it is an ace (all that is left between)
    assert counter(state, "peek") == 23 and state.is_terminal()
    assert zone(state, "row") == ["bee", "ace"] and zone(state, "deck") == ["cat", "ace", "ace"]


def test_a_zone_whose_order_is_seen_is_dealt_whole_when_shuffled(tmp_path):
    game = toy(tmp_path, DECK.replace("in: deck", "in: row") + "flow: |\n  shuffle row\n")
    assert [z.name for z in game.definition.zones if z.index in game.eager_zones()] == ["row"]
    state = game.new_initial_state(chance="explicit")
    dealt = []
    while not state.is_terminal():  # the row shows its order: every place is dealt, top first
        pick = state.legal_actions()[-1]
        dealt.append(pick.text)
        state.apply_action(pick)
    assert dealt == ["deal cat", "deal bee"]  # then only aces are left
    assert zone(state, "row") == ["ace", "ace", "ace", "bee", "cat"]


def test_a_card_taken_by_name_leaves_the_rest_shuffled(tmp_path):
    game = toy(tmp_path, DECK.replace("Cat, count: 1, in: deck", "Cat, count: 1, in: row") + """
flow: |
  let c = top(row)
  move c to deck
  shuffle deck
  move c to row
  draw 1 from deck to hand(0)
""")
    state = game.new_initial_state(chance="explicit")
    assert zone(state, "row") == ["cat"] and game.definition.zones[0].index not in game.eager_zones()
    assert odds(state) == {"deal ace": Fraction(3, 4), "deal bee": Fraction(1, 4)}


def test_a_refill_that_shuffles_is_dealt_lazily_after_its_triggers(tmp_path):
    game = toy(tmp_path, """
zones:
  pile: {scope: global, visible: none, refill: {from: used, shuffle: true}}
  used: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
counters:
  seen: {scope: global, initial: 0}
cards:
  a: {name: A, count: 1, in: pile}
  b: {name: B, count: 1, in: used}
  c: {name: C, count: 1, in: used}
  x: {name: X, count: 0}
triggers:
  add-before-shuffle:
    on: refilled pile
    effect: |
      create 1 "x" in used
  count:
    on: entered hand
    effect: |
      set seen to seen + 1
flow: |
  draw 3 from pile to hand(0)
""")
    state = game.new_initial_state(chance="explicit")
    # a was drawn; the refill's trigger put x in used; the new pile is b, c, x unordered
    assert odds(state) == {"deal b": Fraction(1, 3), "deal c": Fraction(1, 3), "deal x": Fraction(1, 3)}
    saved = state.to_json()
    assert json.loads(saved)["unordered"] and counter(state, "seen") == 1
    state.apply_action("deal x")
    assert odds(state) == {"deal b": Fraction(1, 2), "deal c": Fraction(1, 2)}
    state.apply_action("deal b")
    assert state.is_terminal() and zone(state, "hand", 0) == ["a", "x", "b"] and counter(state, "seen") == 3
    again = game.state_from_json(saved)  # the save at the chance node goes on the same way
    again.apply_action("deal x")
    again.apply_action("deal b")
    assert again == state


def test_triggers_queued_before_a_deal_wait_for_it_and_survive_a_save(tmp_path):
    game = toy(tmp_path, DECK + """
counters:
  seen: {scope: global, initial: 0}
triggers:
  count:
    on: entered hand
    effect: |
      set seen to seen * 100 + card.rank * 10 + len(hand(player))
flow: |
  shuffle deck
  draw 2 from deck to hand(0)
""")
    state = game.new_initial_state(chance="explicit")
    state.apply_action("deal cat")
    # the first card is in the hand, its trigger waits for the end of the draw, as in the seeded mode
    assert zone(state, "hand", 0) == ["cat"] and counter(state, "seen") == 0 and len(state.queue) == 1
    copy = game.state_from_json(state.to_json())
    twin = state.clone()
    for each in (state, copy, twin):
        each.apply_action("deal bee")
    assert counter(state, "seen") == 3222 and state == copy == twin  # both triggers saw both cards


def test_a_draw_whose_count_and_target_are_random_keeps_its_answers(tmp_path):
    game = toy(tmp_path, DECK + """
flow: |
  shuffle deck
  draw random(2, 3) from deck to hand(pick_random([0, 1]))
""")
    state = game.new_initial_state(chance="explicit")
    state.apply_action("chance 3")
    state.apply_action("chance 1")
    for card in ("bee", "ace", "cat"):
        state.apply_action(f"deal {card}")
    assert state.is_terminal() and zone(state, "hand", 1) == ["bee", "ace", "cat"] and zone(state, "hand", 0) == []


# ---- bad input ------------------------------------------------------------------------------


def test_an_outcome_not_offered_is_refused_and_changes_nothing(tmp_path):
    game = toy(tmp_path, DICE + "  take actions main\nactions:\n  pass: {during: main, ends: turn}\n")
    state = game.new_initial_state(chance="explicit")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=r"'chance 7' is not an outcome of the chance event now "
                                                 r"\(random\(1, 6\)\); outcomes: chance 1, chance 2"):
        state.apply_action("chance 7")
    with pytest.raises(IllegalActionError, match="'pass' is not an outcome"):
        state.apply_action("pass")
    with pytest.raises(IllegalActionError, match=r"a chance id is an int in 0\.\.6, not 9"):
        state.apply_action_id(9)  # the chance ids of this game: its dice's numbers, 0 to 6
    with pytest.raises(IllegalActionError, match=r"chance id 0 \(chance 0\) is not an outcome now"):
        state.apply_action_id(0)
    assert state.to_json() == before
    for text in ("chance 1", "chance 1", "chance 0"):
        state.apply_action(text)
    with pytest.raises(IllegalActionError, match="'chance 1' is not a legal action now; legal: pass"):
        state.apply_action("chance 1")


def test_a_bad_chance_mode_is_refused(tmp_path):
    with pytest.raises(GameError, match="chance must be one of seeded, explicit, not 'sometimes'"):
        toy(tmp_path, DICE).new_initial_state(chance="sometimes")


def test_an_empty_range_is_a_rule_error(tmp_path):
    game = toy(tmp_path, "counters:\n  a: {scope: global, initial: 0}\nflow: |\n  set a to random(3, 2)\n")
    with pytest.raises(RuleRuntimeError, match=r"random\(3, 2\): there is no number from 3 to 2"):
        game.new_initial_state(chance="explicit")


# ---- the state API at a chance node -----------------------------------------------------------


def test_kuhn_poker_deals_by_chance_nodes_with_integer_ids():
    game = load_game("kuhn-poker")
    state = game.new_initial_state(seed=1, chance="explicit")
    assert game.max_chance_outcomes(2) == 3
    assert state.legal_action_ids() == [0, 1, 2] and state.legal_action_ids(CHANCE) == [0, 1, 2]
    assert state.legal_action_ids(0) == [] and state.legal_actions(0) == []
    assert [state.action_to_string(CHANCE, a) for a in range(3)] == ["deal jack", "deal queen", "deal king"]
    assert state.string_to_action(CHANCE, "deal king") == 2 and state.legal_actions_mask() == [1, 1, 1]
    with pytest.raises(IllegalActionError, match="'deal ace' is not a chance outcome of Kuhn poker"):
        state.string_to_action(CHANCE, "deal ace")
    state.apply_action_id(2)
    assert state.legal_action_ids() == [0, 1]
    with pytest.raises(IllegalActionError, match=r"chance id 2 \(deal king\) is not an outcome now"):
        state.apply_action_id(2)
    state.apply_action_id(0)
    assert state.current_player() == 0 and state.legal_action_ids() == [0, 1]
    assert events(state.information_state_string(0)) == ["chance: deal king", "chance: deal ?"]
    assert events(state.information_state_string(1)) == ["chance: deal ?", "chance: deal jack"]
    assert "decision" not in state.observation(-1) and state.observation(-1)["current_player"] == 0


def test_a_chance_node_clones_saves_and_loads(tmp_path):
    game = load_game("star-market")
    state = game.new_initial_state(2, seed=3, chance="explicit")
    assert state.is_chance_node() and json.loads(state.to_json())["pending"][0] == "chance"
    loaded = game.state_from_json(state.to_json())
    twin = state.clone()
    assert loaded == state == twin and loaded.chance_outcomes() == state.chance_outcomes()
    first = state.legal_actions()[0].text
    twin.apply_action(first)
    assert state.legal_actions()[0].text == first and twin != state  # the clone went its own way
    loaded.apply_action(first)
    assert loaded.to_json() == twin.to_json()


def test_a_save_with_a_broken_chance_node_is_refused():
    game = load_game("kuhn-poker")
    state = game.new_initial_state(chance="explicit")
    good = json.loads(state.to_json())

    def refused(change, message: str) -> None:
        data = json.loads(json.dumps(good))
        change(data)
        with pytest.raises(GameError, match=message):
            game.state_from_json(json.dumps(data))

    refused(lambda d: d["pending"][6].__setitem__(0, 0), "each with a weight")
    refused(lambda d: d["pending"].__setitem__(7, 5), "a deal that is not from an unordered zone")
    refused(lambda d: d.__delitem__("chance"), "in a game without explicit chance")
    refused(lambda d: d.__setitem__("chance", "maybe"), "bad chance mode")
    refused(lambda d: d.__setitem__("unordered", [[0, [0, 2]]]), "the unordered cards of deck are apart")
    refused(lambda d: d.__setitem__("unordered", [[1, [0, 1]]]), r"an unordered card is not in hand\(P1\)")
    refused(lambda d: d.__setitem__("chance_answers", [3]) or d.__setitem__("pending", None) or
            d.__setitem__("stack", []), "chance answers with no chance event")


def test_a_save_of_another_engine_is_migrated_with_its_chance_outcomes():
    game = load_game("kuhn-poker")
    state = game.new_initial_state(seed=2, chance="explicit")
    state.apply_action("deal queen")
    data = json.loads(state.to_json())
    data["engine"] = "0.0.1/000000000000"  # another code shape: replayed from seed and actions
    again = game.state_from_json(json.dumps(data))
    assert again == state and again.chance_mode == "explicit"


def test_game_bots_pick_from_the_seeded_generator_while_their_dice_are_chance_nodes(tmp_path):
    game = toy(tmp_path, """
counters:
  roll: {scope: player, initial: 0}
actions:
  a: {during: main, ends: turn, effect: "set roll(me) to 100"}
  b: {during: main, ends: turn, effect: "set roll(me) to 200"}
bots:
  dicer:
    description: rolls a die on its turn
    turn: |
      set roll(me) to random(1, 6)
  picker:
    description: picks an action at random
    choose: random
flow: |
  turn 0:
    take actions main
  turn 1:
    take actions main
""")
    state = game.new_initial_state(seats=["dicer", "picker"], chance="explicit")
    assert state.prompt() == "random(1, 6)"
    state.apply_action("chance 5")
    assert state.is_terminal() and counter(state, "roll", 0) == 5 and counter(state, "roll", 1) in (100, 200)
    assert list(state.history) == ["chance 5"]  # the picker's move is the bot's, in the log only
    picked = set()
    for seed in range(12):  # the picker's choice comes from the seed, not from a chance node
        other = game.new_initial_state(seats=["dicer", "picker"], seed=seed, chance="explicit")
        other.apply_action("chance 5")
        picked.add(counter(other, "roll", 1))
    assert picked == {100, 200}


def test_sample_draws_an_outcome_at_its_odds():
    import random

    game = load_game("kuhn-poker")
    state = game.new_initial_state(chance="explicit")
    seen = {chance.sample(state, random.Random(k)).text for k in range(40)}
    assert seen == {"deal jack", "deal queen", "deal king"}


# ---- which zones are dealt whole --------------------------------------------------------------


def test_zones_whose_order_the_rules_may_read_are_dealt_whole(tmp_path):
    game = toy(tmp_path, """
zones:
  lazy: {scope: global, visible: none}
  listed: {scope: global, visible: none}
  peeked: {scope: global, visible: none}
  counted: {scope: global, visible: none}
  shown: {scope: global, visible: all}
  hidden_order: {scope: global, visible: all, order: hidden}
  hand: {scope: player, visible: owner}
  stock: {scope: global, visible: none, refill: {from: source, shuffle: false}}
  source: {scope: global, visible: none}
cards:
  a: {name: A, count: 2, in: lazy}
counters:
  n: {scope: global, initial: 0}
values:
  peek: {base: "len(top(peeked, 1))"}
actions:
  look:
    during: main
    condition: "len(counted) + sum([1 for c in counted + lazy if c in hand(me)]) > 0"
    effect: |
      draw 1 from lazy to hand(me)
      let c = top(lazy)
      for each x in listed:
        gain 1 n
      set n to len(shuffled(counted)) + len(hidden_order)
flow: |
  take actions main
""")
    eager = {z.name for z in game.definition.zones if z.index in game.eager_zones()}
    # a hand's order is hidden, and only searched here; `stock` refills from `source` in its order
    assert eager == {"listed", "peeked", "shown", "source"}


def test_copies_that_differ_only_in_play_are_outcomes_of_their_own_that_share_a_chance_id(tmp_path):
    # `worn` is set in play, never in setup: it is no part of the game's faces
    # (runtime/faces.py), so both aces have the ace's id; copies that setup marks apart
    # have ids of their own (tests/test_distinct_ids.py)
    game = toy(tmp_path, """
zones:
  deck: {scope: global, visible: none}
  row: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
cards:
  ace: {name: Ace, count: 2, in: row}
  bee: {name: Bee, count: 1, in: deck}
actions:
  wear:
    during: main
    effect: |
      set top(row).worn to 1
      move row to deck
      shuffle deck
      draw 1 from deck to hand(0)
flow: |
  take actions main
""")
    taken = set()
    for seed in range(16):
        state = game.new_initial_state(seed=seed, chance="explicit")
        state.apply_action("wear")
        assert odds(state) == {"deal ace#0": Fraction(1, 3), "deal ace#1": Fraction(1, 3), "deal bee": Fraction(1, 3)}
        space = game.action_space(2)
        assert space.chance_groups(state) == {0: [0, 1], 1: [2]} and state.legal_action_ids() == [0, 1]
        state.apply_action_id(0)  # "an ace": one of the two, drawn at their odds
        taken.add(state.history[-1])
        assert zone(state, "hand", 0) == ["ace"]
        assert game.state_from_json(state.to_json()) == state  # its history replays to it
    assert taken == {"deal ace#0", "deal ace#1"}


def test_a_deal_asked_in_the_middle_of_straight_line_statements_does_not_run_them_twice(tmp_path):
    game = toy(tmp_path, DECK + """
counters:
  n: {scope: global, initial: 0}
flow: |
  shuffle deck
  gain 1 n
  set n to n * 10 + top(deck).rank
  gain 1 n
""")
    state = game.new_initial_state(chance="explicit")
    assert counter(state, "n") == 1  # the statements before the deal are done, once
    state.apply_action("deal bee")
    assert state.is_terminal() and counter(state, "n") == 13


def test_branches_the_constants_rule_out_and_destroyed_lists_do_not_make_a_zone_eager(tmp_path):
    text = """
constants:
  order: {order}
zones:
  deck: {{scope: global, visible: none}}
  hand: {{scope: player, visible: owner}}
cards:
  a: {{name: A, count: 3, in: deck, properties: {{rank: 1}}}}
counters:
  n: {{scope: global, initial: 0}}
{triggers}
flow: |
  destroy [c for c in deck if c.rank > 5]
  if order == "random":
    shuffle deck
  elif order == "up":
    for each c in deck:
      move c to deck bottom
  draw 1 from deck to hand(0)
"""
    def eager(order: str, triggers: str = "") -> bool:
        game = toy(tmp_path, text.format(order=order, triggers=triggers))
        return game.definition.zones[0].index in game.eager_zones()

    assert not eager("random")  # the `for each` cannot run, and destroy takes cards by name
    assert eager("up")
    assert eager("random", "triggers:\n  gone:\n    on: left deck\n    effect: |\n      gain 1 n\n")
