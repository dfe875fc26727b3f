"""The fast paths of the big games give what the general code gives: who holds a card
in play found from the card's copies (runtime/cards.py) equals the walk of its zones,
in new, cloned, resumed and card-creating states.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import code_listing, counter, generated_ns, play, toy

from interpreter import load_game
from interpreter.diagnostics import RuleFileError
from interpreter.limits import CALL_WORK
from interpreter.runtime import cards, counters

BANNERS = """
players: {min: 3, max: 3}
values:
  hand_size: {of: player, base: "5"}
zones:
  shelf: {scope: global, visible: all}
  table: {scope: global, visible: all}
  tableau: {scope: player, visible: all}
card_types:
  banner:
    in: shelf
    active_in: [tableau, table]
cards:
  war-banner:
    name: War Banner
    type: banner
    applies_to: "p != owner"
    modifiers:
      shrink: {value: hand_size, op: add, amount: "-1"}
  plain-banner:
    name: Plain Banner
    type: banner
    modifiers:
      grow: {value: hand_size, op: add, amount: "2"}
actions:
  take:
    during: main
    params: {c: "shelf"}
    effect: "move c to tableau(me)"
  share:
    during: main
    params: {c: "tableau(me)"}
    effect: "move c to table"
  make:
    during: main
    effect: 'create 1 "plain-banner" in tableau(me)'
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _same_as_the_walk(st: Any) -> None:
    for d in range(len(st.gd.cards)):
        walked = cards._scan_owners(st, d)
        assert cards.card_owners(st, d) == walked
        assert list(cards.card_owners(st, d).items()) == list(walked.items())  # order too
        assert cards.in_play(st, d) == bool(walked)


def _hands(st: Any) -> list[int]:
    vdef = next(v for v in st.gd.values if v.name == "hand_size")
    return [counters.value_of(st, vdef.index, p) for p in range(st.n)]


def test_holders_follow_moves_creations_clones_and_resumes(tmp_path):
    game = toy(tmp_path, BANNERS)
    st = game.new_initial_state(3, seed=1)
    _same_as_the_walk(st)
    assert _hands(st) == [5, 5, 5]
    play(st, "take plain-banner#1")
    _same_as_the_walk(st)
    assert _hands(st) == [7, 5, 5]
    play(st, "pass", "make")  # P2 makes a copy: a card the start did not have
    assert len(st.card_def) == 3
    _same_as_the_walk(st)
    assert _hands(st) == [7, 7, 5]
    play(st, "take war-banner#0")  # P2 holds the war banner: the others shrink
    _same_as_the_walk(st)
    assert _hands(st) == [6, 7, 4]
    copy = st.clone()
    play(copy, "share war-banner#0")  # on the shared table it is everyone's: all shrink
    _same_as_the_walk(copy)
    assert _hands(copy) == [6, 6, 4]
    _same_as_the_walk(st)  # the original is untouched by its clone's moves
    assert _hands(st) == [6, 7, 4]
    resumed = game.state_from_json(st.to_json())
    _same_as_the_walk(resumed)
    assert _hands(resumed) == [6, 7, 4]
    play(resumed, "pass", "make")  # P3 makes one after the resume
    _same_as_the_walk(resumed)
    assert _hands(resumed) == [6, 7, 6]
    assert _hands(st) == [6, 7, 4]


def test_two_copies_in_play_go_by_zone_order(tmp_path):
    st = toy(tmp_path, BANNERS).new_initial_state(3, seed=1)
    play(st, "make", "make", "take plain-banner#1")  # P1 holds three copies: 2, 3, 1
    _same_as_the_walk(st)
    assert cards.card_owners(st, 1) == {0: 2}  # the first in its tableau (bottom first)
    play(st, "share plain-banner#2")  # one on the table: the table's copy for the others
    _same_as_the_walk(st)
    assert list(cards.card_owners(st, 1).items()) == [(0, 3), (1, 2), (2, 2)]
    assert _hands(st) == [7, 7, 7]


def test_cards_that_do_not_begin_as_the_start_are_indexed_from_their_own_list(tmp_path):
    # Saves are checked by replaying their actions, so a state's first cards are always
    # the start's; the index still does not count on it.
    game = toy(tmp_path, BANNERS)
    st = game.new_initial_state(3, seed=1)
    play(st, "make", "pass", "take plain-banner#1")
    resumed = game.state_from_json(st.to_json())
    assert resumed.card_def == [0, 1, 1]
    resumed.card_def = [1, 0, 1]  # the war banner is the one P2 took
    _same_as_the_walk(resumed)
    assert _hands(resumed) == [6, 5, 4]  # P1 made a plain banner, P2 holds the war banner


def test_a_player_that_cannot_be_a_key_fails_as_before(tmp_path):
    st = toy(tmp_path, BANNERS).new_initial_state(3, seed=1)
    with pytest.raises(TypeError):
        counters.card_reaching(st, 1, [0])  # type: ignore[arg-type]


@pytest.mark.parametrize("target", ["race-to-mars", "for-all-mankind", "rocketmen"])
def test_holders_equal_the_walk_through_random_playouts(target):
    game = load_game(target)
    rng = random.Random(3)
    st = game.new_initial_state(seed=3)
    for step in range(400):
        if st.is_terminal():
            break
        _same_as_the_walk(st)
        if step % 50 == 0:
            _same_as_the_walk(st.clone())
            _same_as_the_walk(game.state_from_json(st.to_json()))
        st.apply_action(rng.choice(st.legal_actions()))


def _outcome(fn: Any, st: Any, player: Any) -> tuple[Any, ...]:
    try:
        return ("value", fn(st, player))
    except Exception as err:  # compared, not hidden
        return ("error", type(err).__name__)


def test_a_value_asks_once_which_cards_are_in_play_and_gives_the_walks_value(tmp_path):
    game = toy(tmp_path, BANNERS)
    generated = generated_ns(game.definition)["_value_of_0"]
    st = game.new_initial_state(3, seed=1)
    states = [st.clone()]
    for move in ("take plain-banner#1", "pass", "make", "take war-banner#0", "share war-banner#0"):
        play(st, move)
        states.append(st.clone())
    for state in states:
        for player in (0, 1, 2, -1, 7, True, "x", None, [0]):  # odd players fail or not as the walk does
            walked = _outcome(lambda s, p: counters.value_of(s, 0, p), state, player)
            assert _outcome(generated, state, player) == walked, (player, walked)
    assert _outcome(generated, states[-1], [0])[0] == "error"
    assert _outcome(generated, states[-1], 1) == ("value", 6)


HELD = BANNERS.replace(
    'grow: {value: hand_size, op: add, amount: "2"}',
    'grow: {value: hand_size, op: add, amount: "2 + len(tableau(owner)) + select(this == this, 1, 0)"}')
LOOSE = HELD.replace(
    "zones:\n", 'modifiers:\n  extra: {value: hand_size, op: add, amount: "select(exists(this), 1, 0)"}\nzones:\n', 1)


def test_this_and_owner_are_python_locals_set_by_their_cards_modifier(tmp_path):
    """A value's card modifiers set `this` and `owner` before reading them, and no other
    modifier may read them (a load error): they are Python locals, with no dict of
    locals, and the value is the walk's."""
    with pytest.raises(RuleFileError, match="unknown name 'this'"):
        toy(tmp_path, LOOSE)
    game = toy(tmp_path, HELD)
    source = dict(code_listing(game.definition))["values.hand_size"]
    assert "env" not in source and "_this, _owner = (copy, player)" in source and "_owner" in source.split("=", 2)[-1]
    generated = generated_ns(game.definition)["_value_of_0"]
    st = game.new_initial_state(3, seed=1)
    checked = 0
    for move in ("take plain-banner#1", "pass", "make", "take war-banner#0", "share war-banner#0", "pass"):
        for player in (0, 1, 2):
            walked = _outcome(lambda s, p: counters.value_of(s, 0, p), st, player)
            assert _outcome(generated, st, player) == walked, (move, player)
            checked += walked[0] == "value"
        play(st, move)
    assert checked > 10


# ---- calls kept for a whole comprehension (compile/hoisting.py) ---------------------

KEPT = """
counters:
  vp: {scope: player, initial: 1}
values:
  weight: {of: player, base: "len([c for c in hand(p)]) + vp(p)"}
  broken: {of: player, base: "vp(p) / (vp(p) - 1)"}
functions:
  weighed: {params: [p], value: "[weight(p) + x for x in [1, 2, 3, 4]]"}
  helper: {params: [p], value: "len([c for c in hand(p)])"}
  helped: {params: [p], value: "[helper(p) + x for x in [1, 2, 3, 4]]"}
  risky: {params: [p, n], value: "[broken(p) for x in range(n)]"}
zones:
  deck: {scope: global}
  hand: {scope: player}
card_types:
  coin: {in: deck}
cards:
  a: {name: A, type: coin, count: 3}
actions:
  deal:
    during: main
    params: {c: deck}
    condition: "len([x for x in [1, 2, 3] if weight(me) + x > 0]) == 3"
    effect: "move c to hand(me)"
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _kept_game(tmp_path: Any) -> tuple[dict[str, Any], Any, list[Any]]:
    """The game's namespace of generated code, a state, and its functions' table."""
    game = toy(tmp_path, KEPT)
    ns = generated_ns(game.definition)
    table = next(v for k, v in ns.items() if k.startswith("_functions"))
    st = game.new_initial_state(2, seed=1)
    play(st, "deal a#0", "deal a#1")  # P1 holds two cards: weight(0) = 2 + 1
    return ns, st, table


def _counting(ns: dict[str, Any], name: str, calls: list[Any]) -> None:
    inner = ns[name]

    def counted(st: Any, player: Any) -> Any:
        calls.append(player)
        return inner(st, player)
    ns[name] = counted


def test_a_value_read_for_every_item_is_worked_out_once_and_charged_as_before(tmp_path):
    ns, st, table = _kept_game(tmp_path)
    weighed = table[0]
    st.work = 0
    assert weighed(st, {"p": 0}) == [4, 5, 6, 7]
    # outside a listing every read of weight(0) goes through P1's hand again (2 items,
    # and CALL_WORK for starting a list), and `weighed` is charged a call: it reads a value
    assert st.work == 4 * (2 + CALL_WORK) + CALL_WORK
    st.work, st.memo = 0, {}
    assert weighed(st, {"p": 0}) == [4, 5, 6, 7]
    assert st.work == (2 + CALL_WORK) + CALL_WORK  # in a listing the value is memoised: one walk
    st.memo = None
    calls: list[Any] = []
    _counting(ns, "_value_of_0", calls)
    assert weighed(st, {"p": 1}) == [2, 3, 4, 5]
    assert calls == [1]  # once for the four items, and again at the next evaluation
    assert weighed(st, {"p": 0}) == [4, 5, 6, 7]
    assert calls == [1, 0]


def test_a_function_read_for_every_item_is_kept_outside_listings_only(tmp_path):
    _, st, table = _kept_game(tmp_path)
    helped = table[2]
    st.work = 0
    assert helped(st, {"p": 0}) == [3, 4, 5, 6]
    assert st.work == 4 * (2 + CALL_WORK) + CALL_WORK  # (helper calls nothing: only `helped` is a call)
    st.work, st.memo = 0, {}
    assert helped(st, {"p": 0}) == [3, 4, 5, 6]
    assert st.work == 4 * (2 + CALL_WORK) + CALL_WORK  # a function's own walks are charged at every read
    st.memo = None


def test_a_kept_call_raises_where_it_did_and_not_when_no_item_needs_it(tmp_path):
    _, st, table = _kept_game(tmp_path)
    risky = table[3]
    assert risky(st, {"p": 0, "n": 0}) == []  # broken(0) divides by zero: never read here
    with pytest.raises(Exception) as caught:
        risky(st, {"p": 0, "n": 3})
    with pytest.raises(type(caught.value)):
        counters.value_of(st, next(v.index for v in st.gd.values if v.name == "broken"), 0)


def test_a_listing_with_a_kept_value_gives_the_same_actions(tmp_path):
    ns, st, _ = _kept_game(tmp_path)
    calls: list[Any] = []
    _counting(ns, "_value_of_0", calls)
    st.legal_cache = None
    assert [a.text for a in st.legal_actions()] == ["deal a#2", "pass"]
    assert calls == [0]  # the condition's three items read weight(me) once


# ---- card fields and has_effect read inline (no call) -------------------------------

FIELDS = """
zones:
  box: {scope: global}
  hand: {scope: player}
card_types:
  gem: {in: box}
cards:
  ruby: {name: Ruby, type: gem, properties: {power: 3}, effects: {shine: "log \\"shine\\""}}
  opal: {name: Opal, type: gem, properties: {power: 5}}
functions:
  power_of: {params: [t], value: "t.power"}
  id_of: {params: [t], value: "t.id"}
  shines: {params: [t], value: "has_effect(t, \\"shine\\")"}
  powers: {params: [p], value: "[y for y in [x.power for x in hand(p)]]"}
  ids: {params: [p], value: "[y for y in [x.id for x in hand(p)]]"}
  top_shines: {params: [p], value: "has_effect(top(hand(p)), \\"shine\\")"}
  listed_shines: {params: [p], value: "[y for y in [x for x in hand(p) if has_effect(top(hand(p)), \\"shine\\")]]"}
actions:
  boost:
    during: main
    params: {c: "hand(0)"}
    effect: "set c.power to c.power + 10"
  clear:
    during: main
    params: {c: "hand(0)"}
    effect: "set c.power to none"
  look:  # calls every function, so the table of functions is bound for the test
    during: main
    condition: "len(powers(0)) + len(ids(0)) + len(listed_shines(0)) >= 0 and (shines(0) or top_shines(0)
      or power_of(0) == id_of(0) or true)"
    effect: 'log "look"'
  pass: {during: main, ends: turn}
setup: |
  move top(box) to hand(0)
  move top(box) to hand(0)
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _reference_read(st: Any, value: Any, field: str) -> Any:
    """A field read as the general readers do it (expressions._read_any, _field_reader)."""
    if isinstance(value, dict):
        return value[field]
    if field == "id":
        return st.gd.cards[st.card_def[value]].id
    got = st.attrs.get((value, field))  # an attribute set to none reads the property
    return st.gd.cards[st.card_def[value]].properties.get(field) if got is None else got


def test_fields_read_inline_give_what_the_general_readers_give(tmp_path):
    game = toy(tmp_path, FIELDS)
    ns = generated_ns(game.definition)
    table = next(v for k, v in ns.items() if k.startswith("_functions"))
    power_of, id_of, shines, powers, ids, top_shines, listed_shines = table
    st = game.new_initial_state(2, seed=1)
    constant = {"power": 7, "id": "a-table"}  # a table (a constant's value): read by key
    states = [st.clone()]
    play(st, "boost ruby#0")
    states.append(st.clone())
    play(st, "clear opal#1")  # an attribute set to none reads the property
    states.append(st)
    for state in states:
        for value in (0, 1, True, constant):
            for fn, field in ((power_of, "power"), (id_of, "id")):
                assert fn(state, {"t": value}) == _reference_read(state, value, field), (value, field)
        hand = state.zones[state.layout.zbase[next(z.index for z in state.gd.zones if z.name == "hand")]]
        assert powers(state, {"p": 0}) == [_reference_read(state, c, "power") for c in hand]
        assert ids(state, {"p": 0}) == ["opal", "ruby"]
    assert powers(states[0], {"p": 0}) == [5, 3]
    assert powers(states[2], {"p": 0}) == [5, 13]
    assert shines(st, {"t": 0}) is True and shines(st, {"t": 1}) is False and shines(st, {"t": None}) is False
    assert top_shines(st, {"p": 0}) is True and top_shines(st, {"p": 1}) is False  # ruby on top; P2: none
    assert listed_shines(st, {"p": 0}) == [1, 0] and listed_shines(st, {"p": 1}) == []
    for bad in (7, "x"):  # not a card: the errors the general readers raise
        for fn in (power_of, shines):
            with pytest.raises((IndexError, TypeError)):
                fn(st, {"t": bad})


TEXTS = """
zones:
  box: {scope: global}
card_types:
  gem: {in: box}
cards:
  ruby: {name: Ruby, type: gem}
actions:
  pick:
    during: main
    params: {kind: '["fuel", "ore", "two words"]'}
    effect: 'log "{kind}"'
  tag:
    during: main
    params: {c: box, kind: '["fuel", "ore"]'}
    effect: 'log "{kind}"'
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def test_listers_keep_the_actions_of_text_parameters_too(tmp_path):
    game = toy(tmp_path, TEXTS)
    first, second = game.new_initial_state(2, seed=1), game.new_initial_state(2, seed=2)
    one, two = first.legal_actions(), second.legal_actions()
    assert [a.text for a in one] == ['pick fuel', 'pick ore', 'pick "two words"', "tag ruby#0 fuel",
                                    "tag ruby#0 ore", "pass"]
    assert all(a is b for a, b in zip(one, two, strict=True))  # made once, shared
    play(first, 'pick "two words"')
    assert first.log[-1] == "two words"
    assert [a.text for a in first.legal_actions()] == [a.text for a in one]


HIDDEN = """
values:
  reach: {of: player, base: "1"}
zones:
  box: {scope: global}
  hand: {scope: player, visible: owner}
card_types:
  charm: {in: box, active_in: [hand]}
cards:
  lucky: {name: Lucky, type: charm, modifiers: {plus: {value: reach, op: add, amount: "1"}}}
actions:
  take: {during: main, params: {c: box}, effect: "move c to hand(me)"}
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


class _Noting(list):
    """A zone's list that notes being gone through (as play/showdown.py watches hands)."""

    def __init__(self, cards: list[int], seen: list[int]):
        super().__init__(cards)
        self.seen = seen

    def __iter__(self):
        self.seen.append(1)
        return super().__iter__()


def test_a_watched_private_zone_is_still_gone_through(tmp_path):
    game = toy(tmp_path, HIDDEN)
    st = game.new_initial_state(2, seed=1)
    play(st, "take lucky#0")
    value = next(v.index for v in st.gd.values if v.name == "reach")
    assert [counters.value_of(st, value, p) for p in (0, 1)] == [2, 1]  # from the index: no walk
    seen: list[int] = []
    hand = st.layout.zbase[next(z.index for z in st.gd.zones if z.name == "hand")]
    st.zones[hand] = _Noting(st.zones[hand], seen)
    assert [counters.value_of(st, value, p) for p in (0, 1)] == [2, 1]
    assert seen  # the owner-only zone was read, as the end's showdown needs to know


LINKED = """
constants:
  rows: [{id: "row-a", cost: 4}]
counters:
  seen: {scope: global}
  cost: {scope: global}
  none_seen: {scope: global}
zones:
  pile: {scope: global, visible: all}
cards:
  anchor: {name: Anchor, count: 1, in: pile, properties: {cost: 1}}
  other: {name: Other, count: 1, in: pile, properties: {cost: 2}}
actions:
  link:
    during: main
    effect: |
      set top(pile).link to bottom(pile)
      set seen to len([c for c in pile if exists(c.link) and c.link.id == "anchor"])
      set cost to rows[0].cost + [c.link for c in pile][1].cost
      set none_seen to len([c for c in pile if not exists(c.link)])
    ends: turn
flow: |
  turn 0:
    take actions main
"""


def test_a_field_of_a_worked_out_card_or_table_reads_as_the_general_reader_does(tmp_path) -> None:
    """`c.link.id` (an attribute holding a card, then its field) and `rows[0].cost` (a
    table from a constant whose key is also a card field) read inline when the target is
    a card and through the general reader otherwise: the same values either way."""
    game = toy(tmp_path, LINKED)
    code = "\n".join(source for _, source in code_listing(game.definition))
    assert "is int else _read_any" in code and ":= " in code  # the inline form is the one generated
    state = play(game.new_initial_state(2, seed=0), "link")
    assert counter(state, "seen") == 1  # the top card (`other`) links to `anchor`, the bottom one
    assert counter(state, "cost") == 4 + 1  # the table's cost, then the linked card's property
    assert counter(state, "none_seen") == 1  # `anchor` links to nothing
