"""The fast paths of declared values and choices give what the general code gives.

A generated value goes through `cards.holders` (to the player, or with the card's
`applies_to` written out inline) instead of `counters.card_reaching`: the same value,
the same error, the same work charged. A
choice's text options (`choose one` labels) get Actions kept from one listing to the next.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import code_listing, generated_ns, play, toy

from interpreter import load_game
from interpreter.limits import CALL_WORK
from interpreter.runtime import cards, counters, decisions
from interpreter.runtime.actions import Action, renderer

BANNERS = """
players: {min: 3, max: 3}
counters:
  vp: {scope: player, initial: 1}
values:
  hand_size: {of: player, base: "5"}
  reach: {of: player, base: "0"}
zones:
  shelf: {scope: global, visible: all}
  table: {scope: global, visible: all}
  tableau: {scope: player, visible: all}
  vault: {scope: player, visible: owner}
card_types:
  banner:
    in: shelf
    active_in: [tableau, table, vault]
cards:
  war-banner:
    name: War Banner
    type: banner
    # a comprehension (charged to the work meter) and a card field of `this`
    applies_to: "p != owner and len([c for c in tableau(p) if c != this]) >= this.power - 2"
    properties: {power: 2}
    modifiers:
      shrink: {value: hand_size, op: add, amount: "0 - this.power - vp(owner) + vp(p)"}
  odd-banner:
    name: Odd Banner
    type: banner
    applies_to: "vp(p) / (vp(owner) - 1) > 0"
    modifiers:
      bump: {value: reach, op: add, amount: "1"}
  plain-banner:
    name: Plain Banner
    type: banner
    modifiers:
      grow: {value: hand_size, op: add, amount: "2"}
      mark: {value: reach, op: max, amount: "vp(owner) + 10", when: "vp(p) > 1"}
actions:
  take:
    during: main
    params: {c: "shelf"}
    effect: "move c to tableau(me)"
  hide:
    during: main
    params: {c: "tableau(me)"}
    effect: "move c to vault(me)"
  share:
    during: main
    params: {c: "tableau(me)"}
    effect: "move c to table"
  make:
    during: main
    effect: 'create 1 "plain-banner" in tableau(me)'
  score: {during: main, effect: "gain 1 vp(me)"}
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""

PLAYERS = (0, 1, 2, -1, 7, True, "x", None, [0])  # odd players fail or not as the walk does


def _outcome(fn: Any, st: Any, player: Any) -> tuple[Any, ...]:
    """What a value read gives (or raises), and the work it charged."""
    st.work = 0
    try:
        return ("value", fn(st, player), st.work)
    except Exception as err:  # compared, not hidden
        return ("error", type(err).__name__, str(err))


def _same_values(st: Any, players: Any = PLAYERS) -> None:
    ns = generated_ns(st.gd)
    for vdef in st.gd.values:
        generated = ns[f"_value_of_{vdef.index}"]
        for player in players:
            walked = _outcome(lambda s, p, vi=vdef.index: counters.value_of(s, vi, p), st, player)
            assert _outcome(generated, st, player) == walked, (vdef.name, player, walked)


def _same_holders(st: Any) -> None:
    for d, card in enumerate(st.gd.cards):
        assert cards.holders(st, d) == tuple(cards._scan_owners(st, d).items()), card.id  # the walk, in order


def test_values_with_card_modifiers_give_the_walks_value_error_and_work(tmp_path):
    game = toy(tmp_path, BANNERS)
    st = game.new_initial_state(3, seed=1)
    moves = ["take plain-banner#2", "pass", "take war-banner#0", "score", "make", "pass",
             "take odd-banner#1", "score", "pass", "make", "pass",
             "share war-banner#0", "hide plain-banner#3", "score", "pass", "share odd-banner#1", "pass", "pass"]
    seen = set()
    for move in [None, *moves]:
        if move is not None:
            play(st, move)
        _same_holders(st)
        _same_values(st)
        for state in (st.clone(), game.state_from_json(st.to_json())):
            _same_values(state, (0, 1, 2))
        ns = generated_ns(st.gd)
        seen.update(_outcome(ns[f"_value_of_{v.index}"], st, p)[0] for v in st.gd.values for p in (0, 1, 2))
        if move == "take war-banner#0":  # P2's war banner: -2 for P1 and P3; P1's plain banner: +2
            assert [counters.value_of(st, 0, p) for p in range(3)] == [5, 5, 3]
    assert seen == {"value", "error"}  # the odd banner's division by zero is met, as in the walk


def test_a_watched_vault_and_two_copies_go_through_the_general_answers(tmp_path):
    game = toy(tmp_path, BANNERS)
    st = game.new_initial_state(3, seed=1)
    play(st, "make", "make", "take plain-banner#2", "hide plain-banner#3")  # P1: copies 4, 2; 3 hidden
    _same_holders(st)
    assert cards.holders(st, 2) == ((0, 4),)  # the first in zone order, as the walk says; P2 holds none
    vault = st.layout.zbase[next(z.index for z in st.gd.zones if z.name == "vault")]
    seen: list[int] = []
    st.zones[vault] = _Noting(st.zones[vault], seen)
    play(st, "hide plain-banner#4", "hide plain-banner#2")
    _same_holders(st)
    assert seen  # the owner-only zone was gone through, as a showdown watching it needs
    _same_values(st)


class _Noting(list):
    """A zone's list that notes being gone through (as play/showdown.py watches hands)."""

    def __init__(self, items: list[int], seen: list[int]):
        super().__init__(items)
        self.seen = seen

    def __iter__(self):
        self.seen.append(1)
        return super().__iter__()


def test_a_shared_copy_reaches_every_seat_and_no_one_else(tmp_path):
    st = toy(tmp_path, BANNERS).new_initial_state(3, seed=1)
    play(st, "take plain-banner#2", "share plain-banner#2")
    everyone = [(2, 0), (2, 1), (2, 2), None, None, (2, True)]
    assert [counters.card_reaching(st, 2, p) for p in (0, 1, 2, 3, -1, True)] == everyone
    assert cards.holders(st, 2) == ((0, 2), (1, 2), (2, 2))


@pytest.mark.parametrize("target", ["for-all-mankind", "race-to-mars", "rocketmen"])
def test_values_and_holders_equal_the_walk_through_random_playouts(target):
    game = load_game(target)
    rng = random.Random(11)
    st = game.new_initial_state(seed=11)
    for step in range(300):
        if st.is_terminal():
            break
        if step % 3 == 0:
            _same_holders(st)
            _same_values(st, range(st.n))
        st.apply_action(rng.choice(st.legal_actions()))


# ---- choices --------------------------------------------------------------------------


def test_text_options_are_listed_as_the_renderer_writes_them_and_kept():
    st: Any = None  # a text's canonical text does not read the state
    options = ["land", "two words", "land", 'quote"d', 3, None, True, ["a", 1]]
    for type_ in ("str", "any"):
        first = decisions._choice_actions(st, options, type_)
        show = renderer(type_)
        assert [(a.text, a.payload) for a in first] == [(show(st, v), v) for v in options]
        again = decisions._choice_actions(st, options, type_)
        assert again[0] is first[0] and again[2] is first[0]  # the same kept Action
        assert again[4] is not first[4]  # other values are made each time


def test_a_choose_one_listing_gives_the_same_texts_and_answers(tmp_path):
    game = toy(tmp_path, """
counters:
  vp: {scope: player}
actions:
  go:
    during: main
    effect: |
      choose one:
        "fast lane": gain 2 vp(me)
        "slow": gain 1 vp(me)
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
""")
    st = game.new_initial_state(2, seed=1)
    play(st, "go")
    first = st.legal_actions()
    assert [a.text for a in first] == ['"fast lane"', "slow"]
    assert all(isinstance(a, Action) for a in first)
    play(st, '"fast lane"', "go")
    again = st.legal_actions()
    assert [a.text for a in again] == ['"fast lane"', "slow"] and again[1] is first[1]
    play(st, again[1])
    assert st.counters[0][:2] == [3, 0]  # P1 went twice (go does not end the turn)


# ---- cards_named in a zone, and of a card's own id (compile/builtin_functions.py) -----

NAMED = """
values:
  firsts: {of: player, base: "[c for c in shelf if cards_named(c.id, shelf)[0] == c]"}
  kinds: {of: player, base: "[cards_named(c.id, shelf) for c in shelf]"}
  by_text: {of: player, base: '[cards_named(k, hand(p)) for k in ["a", "b", "zz"]]'}
  literal: {of: player, base: 'cards_named("a", hand(p)) + cards_named("b", shelf)'}
  in_list: {of: player, base: "[cards_named(c.id, shelf + hand(p)) for c in hand(p)]"}
zones:
  shelf: {scope: global, visible: all}
  hand: {scope: player, visible: owner}
card_types:
  thing: {in: shelf}
cards:
  a: {name: A, type: thing, count: 3}
  b: {name: B, type: thing, count: 2}
  c: {name: C, type: thing}
actions:
  take:
    during: main
    params: {c: "shelf"}
    effect: "move c to hand(me)"
  back:
    during: main
    params: {c: "hand(me)"}
    effect: "move c to shelf"
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _named_reference(st: Any, player: int) -> dict[str, Any]:
    """The values of NAMED worked out by going through the lists, as the general code does."""
    slot = {z.name: st.layout.zbase[z.index] for z in st.gd.zones}
    shelf, hand = list(st.zones[slot["shelf"]]), list(st.zones[slot["hand"] + player])
    ids = {card.id: card.index for card in st.gd.cards}

    def named(d: int, cards_: list[int]) -> list[int]:
        return [c for c in cards_ if st.card_def[c] == d]
    return {"firsts": [c for c in shelf if named(st.card_def[c], shelf)[0] == c],
            "kinds": [named(st.card_def[c], shelf) for c in shelf],
            "by_text": [named(ids.get(k, -1), hand) for k in ["a", "b", "zz"]],
            "literal": named(ids["a"], hand) + named(ids["b"], shelf),
            "in_list": [named(st.card_def[c], shelf + hand) for c in hand]}


def test_cards_named_in_a_zone_gives_the_zones_cards_in_its_order(tmp_path):
    game = toy(tmp_path, NAMED)
    rng = random.Random(5)
    st = game.new_initial_state(2, seed=5)
    generated = generated_ns(st.gd)
    names = _names(generated["_value_of_0"].__code__)
    assert any(n.startswith("_copies_in_zone") for n in names) and not any(n.startswith("_named") for n in names)
    for _ in range(80):  # cards go to hands and come back on top: the shelf's order changes
        for player in (0, 1):
            want = _named_reference(st, player)
            got = {v.name: generated[f"_value_of_{v.index}"](st, player) for v in st.gd.values}
            assert got == want
        st.apply_action(rng.choice(st.legal_actions()))
    bad = _outcome(generated["_value_of_2"], st, 7)
    assert bad[0] == "error"  # hand(7): no such seat, as before


def _names(code: Any) -> set[str]:
    """The global names a code object and those inside it read."""
    found = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            found |= _names(const)
    return found


def test_cards_named_in_a_watched_zone_goes_through_it(tmp_path):
    game = toy(tmp_path, NAMED)
    st = game.new_initial_state(2, seed=5)
    play(st, "take a#0", "take a#2", "take c#5")
    hand = st.layout.zbase[next(z.index for z in st.gd.zones if z.name == "hand")]
    seen: list[int] = []
    st.zones[hand] = _Noting(st.zones[hand], seen)
    by_text = next(v.index for v in st.gd.values if v.name == "by_text")
    generated = generated_ns(st.gd)[f"_value_of_{by_text}"]
    assert generated(st, 0) == [[0, 2], [], []]
    assert seen  # the owner-only zone was read, as the end's showdown needs to know


# ---- any/all scans that read no item, kept for the comprehension (builtin_functions) --

SCANS = """
counters:
  vp: {scope: player, initial: 1}
constants:
  kinds: [1, 2, 3]
values:
  weight: {of: player, base: "len([c for c in hand(p)]) + vp(p)"}
  calls: {of: player, base: "len(rich(p) + walks(p) + held(p) + heavy(p) + broken(p, 0))"}
functions:
  rich: {params: [p], value: "[c for c in deck if all([vp(p) >= k for k in kinds])]"}
  walks: {params: [p], value: "[c for c in deck if not any([x == 99 for x in hand(p)])]"}
  held: {params: [p], value: "[c for c in deck if any([x == c for x in hand(p)])]"}
  heavy: {params: [p], value: "[c for c in deck if all([weight(p) > k for k in kinds])]"}
  broken: {params: [p, n], value: "[c for c in range(n) if all([k / (vp(p) - 1) > 0 for k in kinds])]"}
zones:
  deck: {scope: global}
  hand: {scope: player}
card_types:
  coin: {in: deck}
cards:
  a: {name: A, type: coin, count: 4}
actions:
  deal:
    during: main
    params: {c: "[c for c in deck if all([vp(me) >= k for k in [1]])]"}
    effect: "move c to hand(me)"
  score: {during: main, effect: "gain 1 vp(me)"}
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _scans(tmp_path: Any) -> tuple[Any, dict[str, Any], Any]:
    game = toy(tmp_path, SCANS)
    st = game.new_initial_state(2, seed=1)
    play(st, "deal a#0", "deal a#1")  # P1 holds two coins, the deck two
    ns = generated_ns(st.gd)
    table = next(v for k, v in ns.items() if k.startswith("_functions"))
    functions = {name: table[i] for i, name in enumerate(["rich", "walks", "held", "heavy", "broken"])}
    return st, functions, ns


def test_a_scan_that_reads_no_item_is_worked_out_once_and_charged_as_before(tmp_path):
    st, fn, _ = _scans(tmp_path)
    hand = st.layout.zbase[next(z.index for z in st.gd.zones if z.name == "hand")]
    seen: list[int] = []
    st.zones[hand] = _Noting(st.zones[hand], seen)
    for memo in (None, {}):  # outside a listing, and inside one
        st.memo = memo
        seen.clear()
        st.work = 0
        assert fn["walks"](st, {"p": 0}) == [2, 3]
        assert len(seen) == 1  # P1's hand gone through once for the two coins of the deck
        # the deck, then the hand for each coin: as if gone through twice (each list
        # charged CALL_WORK for starting too)
        assert st.work == (2 + CALL_WORK) + 2 * (2 + CALL_WORK)
        seen.clear()
        assert fn["held"](st, {"p": 0}) == []  # reads the item: gone through for each coin
        assert len(seen) == 2
    st.memo = None
    assert fn["rich"](st, {"p": 0}) == []  # vp(0) is 1: not >= 2
    play(st, "score", "score")
    assert fn["rich"](st, {"p": 0}) == [2, 3]
    assert fn["heavy"](st, {"p": 0}) == [2, 3]  # weight(0) = 2 + 3 > 3


def test_a_kept_scan_raises_where_it_did_and_not_when_no_item_needs_it(tmp_path):
    st, fn, _ = _scans(tmp_path)
    assert fn["broken"](st, {"p": 0, "n": 0}) == []  # never worked out: no item
    with pytest.raises(Exception) as caught:
        fn["broken"](st, {"p": 0, "n": 2})  # vp(0) - 1 is 0
    with pytest.raises(type(caught.value)):  # as the scan itself raises, worked out alone
        fn["broken"](st, {"p": 0, "n": 1})
    play(st, "score")
    assert fn["broken"](st, {"p": 0, "n": 2}) == [0, 1]


def test_only_scans_that_read_no_item_and_call_no_value_are_kept(tmp_path):
    st, fn, _ = _scans(tmp_path)
    sources = {what.split(".")[1]: src for what, src in code_listing(st.gd) if what.startswith("functions.")}
    kept = {name: ":= all(" in sources[name] or ":= any(" in sources[name] for name in fn}
    # heavy keeps weight(p), a value call (hoisting.hoisted), not the scan around it
    assert kept == {"rich": True, "walks": True, "held": False, "heavy": False, "broken": True}
    assert [a.text for a in st.legal_actions()] == ["deal a#2", "deal a#3", "score", "pass"]
