"""Listers keep no set of the texts they made when no two candidates can share a text
(compile/distinct.py): each domain never repeats an item, each value has a text of its
own. The listing is the generic walk's either way."""

from __future__ import annotations

import ast
import random

import attrs
import pytest
from conftest import generated, toy

from interpreter.compile.builtin_functions import bounded_range
from interpreter.compile.distinct import distinct
from interpreter.compile.pysource import Emitter
from interpreter.runtime import decisions
from interpreter.runtime.work import charge


@pytest.fixture
def em() -> Emitter:
    emitter = Emitter()
    emitter.ns.update({"_charge1": charge, "_bounded_range0": bounded_range, "_k2": [3, 1, 2],
                       "_k3": ("a", "b", "a"), "_k4": [[1], [2]]})
    return emitter


HAND = "st.zones[(st.layout.zbase[1] + me)]"
DISCARD = "st.zones[st.layout.zbase[2]]"


# (the domains' code as text, parsed here: the generator builds such trees)
@pytest.mark.parametrize("source", [
    HAND, f"list({HAND}[:])", f"list({HAND}[:]) + list({DISCARD}[:])", f"_charge1(st, {HAND} + {DISCARD})",
    f"[c for c in _charge1(st, {HAND}) if c > 2]", "_bounded_range0(0, 9)", "list(st.players)", "_k2",
    "[1, 2, 3]", f"((_h1 := 0), [c for c in {HAND} if c > _h1])[-1]", "st.zones[_slot(st, me)]",
])
def test_domains_that_never_repeat_an_item(em: Emitter, source: str) -> None:
    assert distinct(em, ast.parse(source, mode="eval").body)


@pytest.mark.parametrize("source", [
    f"{HAND} + {HAND}",  # the same zone twice
    f"{HAND} + st.zones[(st.layout.zbase[1] + 1)]",  # two hands: maybe the same one
    f"[c + 1 for c in {HAND}]",  # a value made from each item: may repeat
    "_k3", "[1, 1]", "_k4",  # repeats, unhashable items
    "[x for x in _k2 for y in _k2]",  # two loops
    "_unknown(st)", "st.counters[0]", "[1, True]",
])
def test_domains_that_may_repeat_an_item(em: Emitter, source: str) -> None:
    assert not distinct(em, ast.parse(source, mode="eval").body)


GAME = """
counters:
  n: {scope: player, initial: 0}
zones:
  deck: {scope: global, visible: all}
  hand: {scope: player, visible: all}
  pile: {scope: global, visible: all}
cards:
  gem: {name: Gem, count: 6, in: deck}
actions:
  take:
    during: main
    params: {c: "[x for x in deck if x.name == \\"Gem\\"]"}
    effect: "move c to hand(me)"
    ends: turn
  both:
    during: main
    params: {c: "hand(me) + pile", k: "range(2)"}
    effect: "move c to pile"
    ends: turn
  twice:
    during: main
    params: {c: "hand(me) + hand(me)"}
    effect: "gain 1 n(me)"
    ends: turn
  seat:
    during: main
    params: {p: "[q for q in players if q != me]"}
    effect: "gain 1 n(p)"
    ends: turn
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def test_listers_without_the_set_list_what_the_generic_walk_lists(tmp_path) -> None:
    game = toy(tmp_path, GAME)
    for action in ("take", "both", "seat"):
        assert "seen" not in generated(game, f"actions.{action} (legal list"), action
    # the same hand twice: its cards would be listed twice
    assert "seen = set()" in generated(game, "actions.twice (legal list")
    state = game.new_initial_state(2, seed=1)
    rng = random.Random(1)
    twice = 0
    for _ in range(40):
        walked: list = []
        for action in game.definition.actions:
            decisions._enumerate(state, attrs.evolve(action, lister=None), state.current_player(), walked)
        texts = [a.text for a in state.legal_actions()]
        assert texts == [a.text for a in walked] and len(set(texts)) == len(texts)
        twice += sum(t.startswith("twice ") for t in texts)
        state.apply_action(rng.choice(state.legal_actions()))
    assert twice  # (the lister that keeps its set dropped the hand's second listing of each card)
