"""The fast paths of the last Rocketmen + Target: Jupiter round give what the general code gives.

A `choose` or `choose up to` keeps its listing when it waits: the Actions are made from
the texts `unique_choices` rendered to drop repeats, instead of rendering every option
again at the first `legal_actions`. The kept listing must be the one the general code
(`decisions._choice_actions`, what a state without a kept listing makes) gives: same
texts, same payloads, same order, `done` last; and a text that is not legal is refused
as before.
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import counter, play, texts, toy, write_toy
from test_cli import run

from interpreter import load_game
from interpreter.compile import builtin_functions
from interpreter.diagnostics import IllegalActionError
from interpreter.runtime import decisions
from interpreter.runtime.actions import DONE, Action
from interpreter.runtime.records import PendingChoice

CARDS = """
players: {min: 2, max: 2}
counters:
  pool: {scope: global, initial: 0}
zones:
  deck: {scope: global, visible: all}
  hand: {scope: player, visible: all}
card_types:
  plain: {in: deck}
cards:
  ace: {name: Ace, type: plain, properties: {rank: 1}, count: 2}
  bee: {name: Bee, type: plain, properties: {rank: 2}}
  cat: {name: Cat, type: plain, properties: {rank: 3}}
setup: |
  for each c in deck:
    move c to hand(0)
flow: |
  let h = hand(0)
  choose c from h + h + [h[0]]
  set pool to c.rank
  choose up to 2 cs from h + h
  set pool to pool + 10 * len(cs)
  choose w from ["plain", "two words", "plain", "{x}"]
  choose p from players + players
  choose n from [3, 3, 4]
"""


def general(st) -> list[Action]:
    """The listing the general code makes for the pending choice."""
    pending = st.pending
    assert isinstance(pending, PendingChoice)
    result = decisions._choice_actions(st, pending.options, pending.type)
    if pending.allow_done:
        result.append(Action("done", DONE))
    return result


def same(kept: list[Action], made: list[Action]) -> bool:
    return [(a.text, a.payload) for a in kept] == [(a.text, a.payload) for a in made]


def test_kept_choice_listing_is_the_general_one(tmp_path):
    game = toy(tmp_path, CARDS)
    st = game.new_initial_state(2, seed=1)
    seen = []
    while not st.is_terminal():
        assert isinstance(st.pending, PendingChoice)
        kept = st.legal_cache
        assert kept is not None  # every choice here has two options or more: kept at once
        assert same(kept, general(st))
        assert len({a.text for a in kept}) == len(kept)  # repeats dropped
        seen.append([a.text for a in kept])
        st.apply_action(kept[-1] if kept[-1].text != "done" else kept[0])
    assert seen[0][:3] == ["ace#0", "ace#1", "bee#2"] and len(seen[0]) == 4  # each copy once
    assert seen[1][-1] == "done"
    assert seen[3] == ["plain", '"two words"', '"{x}"']  # texts that need it quoted
    assert seen[4] == ["P1", "P2"] and seen[5] == ["3", "4"]


def test_a_state_without_the_kept_listing_lists_the_same(tmp_path):
    game = toy(tmp_path, CARDS)
    st = game.new_initial_state(2, seed=1)
    kept = st.legal_actions()
    st.legal_cache = None  # as after a load: the general code lists
    assert same(kept, st.legal_actions())
    play(st, "bee#2")
    assert texts(st)[-1] == "done"


def test_illegal_answers_are_refused_as_before(tmp_path):
    game = toy(tmp_path, CARDS)
    st = game.new_initial_state(2, seed=1)
    with pytest.raises(IllegalActionError, match="'ace#9' is not a legal action now; legal: ace#0, ace#1"):
        st.apply_action("ace#9")
    play(st, "ace#1", "ace#1")  # the choice of c, then the first pick of cs
    with pytest.raises(IllegalActionError, match="'ace#1' is not a legal action now"):
        st.apply_action("ace#1")  # picked: not offered again
    play(st, "done")
    assert st.legal_cache is not None and texts(st)[0] == "plain"


def test_rocketmen_target_jupiter_choices_match_the_general_listing():
    game = load_game("rocketmen", overlays=["target-jupiter"])
    choices = 0
    for seed in range(3):
        rng = random.Random(seed)
        st = game.new_initial_state(num_players=2, seed=seed)
        while not st.is_terminal():
            if isinstance(st.pending, PendingChoice) and st.legal_cache is not None:
                assert same(st.legal_cache, general(st))
                choices += 1
            legal = st.legal_actions()
            st.apply_action(legal[rng.randrange(len(legal))])
    assert choices > 100


# ---- top(ZONE, n) in one slice ---------------------------------------------------------


def test_top_n_is_the_reversed_end():
    for length in range(6):
        z = list(range(length))
        for n in range(-2, 9):
            assert builtin_functions._top_n(z, n) == (list(reversed(z[-n:])) if n > 0 else [])
            assert builtin_functions._top_n(z, n) is not z  # a new list: the zone is never handed out


TOPS = """
players: {min: 2, max: 2}
counters:
  mark: {scope: global, size: 7, initial: 0}
zones:
  deck: {scope: global, visible: all}
card_types:
  plain: {in: deck}
cards:
  ace: {name: Ace, type: plain, properties: {rank: 1}}
  bee: {name: Bee, type: plain, properties: {rank: 2}}
  cat: {name: Cat, type: plain, properties: {rank: 3}}
flow: |
  set mark[0] to len(top(deck, 0))
  set mark[1] to len(top(deck, 0 - 2))
  set mark[2] to top(deck, 2)[0].rank + 10 * top(deck, 2)[1].rank
  set mark[3] to len(top(deck, 7))
  let t = top(deck, 3)
  move t[0] to deck
  set mark[4] to len(deck) + 10 * top(deck).rank
  set mark[5] to t[0].rank
  let k = 3
  if top(deck, 3) == top(deck, k) and top(deck, 1) == top(deck, k - 2) and top(deck, 9) == top(deck, k * 3):
    set mark[6] to 1
"""


def test_top_of_a_zone_in_rules(tmp_path):
    st = toy(tmp_path, TOPS).new_initial_state(2, seed=3)
    assert st.is_terminal()
    decks = [z for z in st.zones if len(z) == 3]
    assert len(decks) == 1
    order = [st.gd.cards[st.card_def[i]].id for i in decks[0]]  # bottom first
    rank = {"ace": 1, "bee": 2, "cat": 3}
    top_two = [rank[order[-1]], rank[order[-2]]]
    mark = counter(st, "mark")
    assert isinstance(mark, list)
    assert mark[:2] == [0, 0] and mark[3] == 3
    assert mark[2] == top_two[0] + 10 * top_two[1]
    assert mark[4] == 3 + 10 * mark[5]  # the kept list was a copy: moving its card changed no list
    assert mark[6] == 1  # a count written in the rules (the slice written out) as a computed one (the helper)


def test_top_of_a_literal_count_is_written_out(tmp_path, capsys):
    path = write_toy(tmp_path, TOPS)
    code, out, _ = run(capsys, "describe", str(path), "--code")
    assert code == 0
    # top(deck, 3): the slice, with the helper for explicit chance beside it
    assert "if st.unordered else st.zones[st.layout.zbase[0]][:-4:-1])" in out
    # a computed count (and 0, and 0 - 2) goes through the helper, as before
    assert re.search(r"_zone_top_n\d+\(st, st\.layout\.zbase\[0\], env\['k'\]\)", out)
    assert re.search(r"len\(_zone_top_n\d+\(st, st\.layout\.zbase\[0\], 0\)\)", out)
