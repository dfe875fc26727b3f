"""A card's modifier works for the player holding a copy in one of its `active_in`
zones; a copy in a shared zone (a face-up card on the table, such as a public scoring
card) works for every player. On a toy game: a held card helps only its holder, a
card on the table helps everyone, and nobody once it leaves."""

from __future__ import annotations

from conftest import play, texts, toy

from interpreter.runtime.counters import value_of

TABLE = """
counters:
  vp: {scope: player}
values:
  bonus: {of: player, base: "vp(p)"}
zones:
  deck: {scope: global, visible: all}
  table: {scope: global, visible: all}
  hand: {scope: player, visible: all}
cards:
  crown:
    name: Crown
    in: deck
    text: "While you hold it, or while it lies on the table for everyone: +2 bonus."
    active_in: [hand, table]
    modifiers:
      shine: {value: bonus, op: add, amount: "2 + this.extra", when: "vp(p) < 5"}
    properties: {extra: 1}
actions:
  hold:
    during: main
    params: {c: "deck"}
    effect: "move c to hand(me)"
  show:
    during: main
    params: {c: "deck + hand(me)"}
    effect: "move c to table"
  drop:
    during: main
    params: {c: "table"}
    effect: "move c to deck"
  score: {during: main, effect: "gain 9 vp(me)"}
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _bonus(st, p: int) -> int:
    vdef = next(v for v in st.gd.values if v.name == "bonus")
    return value_of(st, vdef.index, p)


def test_a_shared_zone_card_modifies_every_player_and_a_held_one_only_its_holder(tmp_path):
    st = toy(tmp_path, TABLE).new_initial_state(2, seed=1)
    crown = next(t for t in texts(st) if t.startswith("hold")).split(" ", 1)[1]
    assert (_bonus(st, 0), _bonus(st, 1)) == (0, 0)            # in the deck: works for no one
    play(st, f"hold {crown}")
    assert (_bonus(st, 0), _bonus(st, 1)) == (3, 0)            # held by P1: P1 only, this.extra read
    play(st, f"show {crown}")
    assert (_bonus(st, 0), _bonus(st, 1)) == (3, 3)            # on the table: everyone
    play(st, "score")
    assert (_bonus(st, 0), _bonus(st, 1)) == (9, 3)            # its `when` is asked per player
    play(st, f"drop {crown}")
    assert (_bonus(st, 0), _bonus(st, 1)) == (9, 0)            # back in the deck: no one
