"""Explicit chance gives the games the seeded mode gives, in distribution.

Three checks, on games whose chance events use every mechanism (a lazily dealt deck
with identical copies, dice, picks, shuffled lists, a zone dealt whole because its order
is shown, a refill that shuffles after its own trigger, triggers queued across chance
nodes, rules that tell identical copies apart by their copy number):

* exact: the chance tree of explicit mode, walked with its probabilities as fractions,
  gives exactly the distribution counted by hand over every order of the deck;
* against the seeded mode: thousands of seeded games (the engine drawing for itself)
  fit the exact distribution of explicit mode (a chi-square bound far in the tail: the
  seeds are fixed, so the test is deterministic, and a wrong weight misses it by far);
* a bundled game: Star Market's opening hands follow the hypergeometric law in both
  modes.
Players decide by a fixed policy (the first legal action), so only chance varies.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from conftest import counter, toy, zone

from interpreter import Game, State, load_game
from interpreter.runtime import chance

Signature = Callable[[State], Any]


def exact(game: Game, signature: Signature, players: int = 2) -> dict[Any, Fraction]:
    """The distribution of `signature` at the end of explicit-mode games, walked over
    the whole chance tree (players take their first legal action)."""
    found: dict[Any, Fraction] = {}
    todo = [(game.new_initial_state(players, seed=0, chance="explicit"), Fraction(1))]
    while todo:
        state, p = todo.pop()
        if state.is_terminal():
            key = signature(state)
            found[key] = found.get(key, Fraction(0)) + p
        elif state.is_chance_node():
            for action, q in state.chance_outcomes(exact=True):
                child = state.clone()
                child.apply_action(action.text)
                todo.append((child, p * q))
        else:
            state.apply_action(state.legal_actions()[0])
            todo.append((state, p))
    assert sum(found.values()) == 1
    return found


def play(game: Game, signature: Signature, seed: int, mode: str, players: int = 2) -> Any:
    """One game to the end: the seeded mode draws for itself; in explicit mode the
    outcomes are drawn at their probabilities."""
    state = game.new_initial_state(players, seed=seed, chance=mode)
    draw = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(chance.sample(state, draw) if state.is_chance_node() else state.legal_actions()[0])
    return signature(state)


def assert_fits(counts: Counter[Any], expected: dict[Any, Fraction]) -> None:
    """`counts` (of len(counts) samples) fit `expected`: nothing outside it, and a
    chi-square statistic below a bound in the far tail (about 1e-7)."""
    n = sum(counts.values())
    assert set(counts) <= set(expected), f"outcomes that cannot happen: {set(counts) - set(expected)}"
    stat = sum((counts.get(k, 0) - n * float(p)) ** 2 / (n * float(p)) for k, p in expected.items())
    df = max(len(expected) - 1, 1)
    assert stat < df + 6 * math.sqrt(2 * df) + 12, (stat, df, counts, expected)


# ---- a deck with copies, dice, picks and a shuffled list ---------------------------------------

MIXED = """
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
  row: {scope: global, visible: all}
counters:
  roll: {scope: global, initial: 0}
  pick: {scope: global, initial: 0}
  order: {scope: global, initial: 0}
cards:
  a: {name: A, count: 2, in: deck}
  b: {name: B, count: 1, in: deck}
  c: {name: C, count: 1, in: deck}
flow: |
  shuffle deck
  draw 2 from deck to hand(0)
  draw 1 from deck to hand(1)
  set roll to random(1, 3)
  set pick to pick_random([1, 1, 2])
  let s = shuffled([1, 2, 3])
  set order to s[0] * 100 + s[1] * 10 + s[2]
  move top(deck) to row
"""


def mixed_signature(state: State) -> Any:
    return (tuple(zone(state, "hand", 0)), tuple(zone(state, "hand", 1)), tuple(zone(state, "row")),
            counter(state, "roll"), counter(state, "pick"), counter(state, "order"))


def mixed_by_hand() -> dict[Any, Fraction]:
    """Every order of the four cards (as copies), roll, pick and shuffle, equally likely."""
    found: Counter[Any] = Counter()
    for deck in itertools.permutations(["a", "a2", "b", "c"]):  # bottom first; the top is dealt first
        cards = [name[0] for name in deck]
        for roll, pick, order in itertools.product((1, 2, 3), (1, 1, 2), itertools.permutations((1, 2, 3))):
            found[((cards[3], cards[2]), (cards[1],), (cards[0],), roll, pick,
                   order[0] * 100 + order[1] * 10 + order[2])] += 1
    total = sum(found.values())
    return {k: Fraction(v, total) for k, v in found.items()}


def test_the_chance_tree_is_exactly_the_odds_counted_by_hand(tmp_path):
    assert exact(toy(tmp_path, MIXED), mixed_signature) == mixed_by_hand()


def test_seeded_games_fit_the_explicit_odds(tmp_path):
    game = toy(tmp_path, MIXED)
    expected = exact(game, mixed_signature)
    assert_fits(Counter(play(game, mixed_signature, seed, "seeded") for seed in range(4000)), expected)


# ---- a refill that shuffles, its trigger, a zone dealt whole, triggers across deals ------------

REFILL = """
zones:
  pile: {scope: global, visible: none, refill: {from: used, shuffle: true}}
  used: {scope: global, visible: all}
  row: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
counters:
  seen: {scope: global, initial: 0}
cards:
  a: {name: A, count: 2, in: pile, properties: {rank: 1}}
  e: {name: E, count: 1, in: pile, properties: {rank: 6}}
  b: {name: B, count: 1, in: used, properties: {rank: 2}}
  c: {name: C, count: 1, in: row, properties: {rank: 3}}
  d: {name: D, count: 2, in: row, properties: {rank: 4}}
  x: {name: X, count: 0, properties: {rank: 5}}
triggers:
  add-before-shuffle:
    on: refilled pile
    effect: |
      create 1 "x" in used
  count:
    on: entered hand
    effect: |
      set seen to seen * 100 + card.rank * 10 + len(hand(player))
flow: |
  shuffle pile
  shuffle row
  draw 4 from pile to hand(0)
  move top(row) to hand(1)
  draw 1 from pile to hand(1)
"""


def refill_signature(state: State) -> Any:
    return (tuple(zone(state, "hand", 0)), tuple(zone(state, "hand", 1)), tuple(zone(state, "row")),
            tuple(zone(state, "used")), tuple(zone(state, "pile")), counter(state, "seen"))


def test_refills_and_zones_dealt_whole_keep_the_seeded_odds(tmp_path):
    game = toy(tmp_path, REFILL)
    assert {z.name for z in game.definition.zones if z.index in game.eager_zones()} >= {"row"}
    expected = exact(game, refill_signature)
    assert len(expected) == 3 * 2 * 3  # where e comes among the first three; b or x next; where c is in the row
    assert_fits(Counter(play(game, refill_signature, seed, "seeded") for seed in range(3000)), expected)


# ---- rules that tell identical copies apart -----------------------------------------------------

COPIES = """
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
counters:
  low: {scope: global, initial: -1}
cards:
  a: {name: A, count: 2, in: deck}
  b: {name: B, count: 1, in: deck}
flow: |
  shuffle deck
  draw 1 from deck to hand(0)
  draw 1 from deck to hand(1)
  set low to owner(sorted(hand(0) + hand(1))[0])
"""


def copies_signature(state: State) -> Any:
    return tuple(zone(state, "hand", 0)), tuple(zone(state, "hand", 1)), counter(state, "low")


def test_which_identical_copy_is_dealt_keeps_the_odds_of_rules_that_tell_them_apart(tmp_path):
    # `sorted` orders cards by copy number: whoever got the lower copy is `low`. Dealing
    # always the first copy would give P1 every a-a deal; the copy is drawn instead.
    found: Counter[Any] = Counter()
    for deck in itertools.permutations([0, 1, 2]):  # copies a#0, a#1, b#2, bottom first
        first, second = deck[2], deck[1]
        found[(("a" if first < 2 else "b",), ("a" if second < 2 else "b",), 0 if first < second else 1)] += 1
    expected = {k: Fraction(v, 6) for k, v in found.items()}
    game = toy(tmp_path, COPIES)
    for mode in ("explicit", "seeded"):
        assert_fits(Counter(play(game, copies_signature, seed, mode) for seed in range(3000)), expected)


# ---- Kuhn poker and Star Market --------------------------------------------------------------------


def test_kuhn_poker_deals_each_pair_once_in_six():
    game = load_game("kuhn-poker")
    deals = exact(game, lambda s: (tuple(zone(s, "hand", 0)), tuple(zone(s, "hand", 1))))
    assert deals == {((a,), (b,)): Fraction(1, 6) for a in ("jack", "queen", "king")
                     for b in ("jack", "queen", "king") if a != b}


def test_star_market_opening_hands_follow_the_hypergeometric_law():
    """Each player's draw pile is 7 Credit Chips and 3 Outpost Claims, shuffled; the
    opening hand is its top 5: k chips with odds C(7,k) C(3,5-k) / C(10,5)."""
    game = load_game("star-market")
    law = {k: Fraction(math.comb(7, k) * math.comb(3, 5 - k), math.comb(10, 5)) for k in range(2, 6)}

    def chips(state: State) -> int:
        return zone(state, "hand", 0).count("credit-chip")

    for mode in ("explicit", "seeded"):
        counts: Counter[int] = Counter()
        for seed in range(1500):
            state = game.new_initial_state(2, seed=seed, chance=mode)
            draw = random.Random(seed)
            while state.is_chance_node():
                state.apply_action(chance.sample(state, draw))
            counts[chips(state)] += 1
        assert_fits(counts, law)
