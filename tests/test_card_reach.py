"""A card's modifiers may reach players other than its holder (`applies_to`): a card in
play that shrinks every opponent's hand, or a power a player may borrow for a turn. On a
toy game, bad input included.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import find_column, play, toy, write_toy

from interpreter import RuleFileError, load_game
from interpreter.runtime import counters

BANNERS = """
players: {min: 3, max: 3}
counters:
  vp: {scope: player}
values:
  hand_size: {of: player, base: "5"}
  borrowing: {of: player, base: "false"}
modifiers:
  borrow: {value: borrowing, op: set, amount: "true", granted: true}
zones:
  shelf: {scope: global, visible: all}
  tableau: {scope: player, visible: all}
card_types:
  banner:
    in: shelf
    active_in: [tableau]
cards:
  war-banner:
    name: War Banner
    type: banner
    text: "While in your tableau, each opponent's hand size is 1 less."
    applies_to: "p != owner"
    modifiers:
      shrink: {value: hand_size, op: add, amount: "-1"}
  royal-banner:
    name: Royal Banner
    type: banner
    text: "While in your tableau, your hand size is 2 more (and whoever borrows it this turn's)."
    applies_to: "p == owner or borrowing(p)"
    modifiers:
      grow: {value: hand_size, op: add, amount: "2 + len(tableau(owner)) - 1"}
  plain-banner:
    name: Plain Banner
    type: banner
    text: "While in your tableau, your hand size is 10."
    modifiers:
      fixed: {value: hand_size, op: set, amount: "10", when: "owner == p"}
actions:
  take:
    during: main
    params: {c: "shelf"}
    effect: "move c to tableau(me)"
  drop:
    during: main
    params: {c: "tableau(me)"}
    effect: "move c to shelf"
  borrow:
    during: main
    effect: "grant borrow to me until end of turn"
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _hand(st: Any, p: int) -> int:
    vdef = next(v for v in st.gd.values if v.name == "hand_size")
    return counters.value_of(st, vdef.index, p)


def _state(tmp_path: Any) -> Any:
    return toy(tmp_path, BANNERS).new_initial_state(3, seed=1)


def test_a_card_reaching_opponents_changes_their_value_not_its_holders(tmp_path):
    st = _state(tmp_path)
    play(st, "take war-banner#0")
    assert [_hand(st, p) for p in range(3)] == [5, 4, 4]
    play(st, "drop war-banner#0")  # out of its active zone: it reaches nobody
    assert [_hand(st, p) for p in range(3)] == [5, 5, 5]


def test_a_borrowed_power_reaches_the_borrower_for_the_turn_only(tmp_path):
    st = _state(tmp_path)
    play(st, "take royal-banner#1", "pass")  # P1 holds it; P2's turn
    assert [_hand(st, p) for p in range(3)] == [7, 5, 5]
    play(st, "borrow")  # P2 may use it this turn; `owner` is still its holder
    assert [_hand(st, p) for p in range(3)] == [7, 7, 5]
    play(st, "pass")
    assert [_hand(st, p) for p in range(3)] == [7, 5, 5]


def test_without_applies_to_a_cards_modifiers_reach_its_holder_and_read_owner(tmp_path):
    st = _state(tmp_path)
    play(st, "take plain-banner#2")
    assert [_hand(st, p) for p in range(3)] == [10, 5, 5]


@pytest.mark.parametrize(("needle", "replacement", "code"), [
    ('applies_to: "p != owner"', 'applies_to: "p + owner"', "type"),
    ('applies_to: "p != owner"', 'applies_to: "p != ownr"', "unknown-name"),
    ('applies_to: "p != owner"', 'applies_to: "hand_size(p) > 3"', "recursion"),
])
def test_a_bad_reach_is_a_diagnostic(tmp_path, needle, replacement, code):
    path = write_toy(tmp_path, BANNERS.replace(needle, replacement))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    found = [d for d in caught.value.diagnostics if d.code == code]
    assert found, caught.value.diagnostics
    if code != "recursion":  # a cycle is reported at the value it makes unworkable
        assert found[0].line == find_column(path, replacement.split(": ", 1)[1])[0]


def test_describe_cards_shows_whom_a_cards_modifiers_reach(tmp_path, capsys):
    from interpreter.cli import main

    path = write_toy(tmp_path, BANNERS)
    assert main(["describe", str(path), "--cards"]) == 0
    out = capsys.readouterr().out
    assert "modifier shrink (while in tableau, for p where p != owner): hand_size add -1" in out
