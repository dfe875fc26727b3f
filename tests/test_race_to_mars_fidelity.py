"""Race to Mars: the rules fixed in the second fidelity round (issue #13), one scenario each.

Each test sets up the situation with the scenario helpers of test_race_to_mars.py (a
scripted setup over the real game, test cards with known abilities), checks the outcome,
and quotes the rulebook line it enforces.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_race_to_mars import (
    GAME,
    act,
    attach,
    boost,
    both_launched,
    cards,
    counter,
    finish_turn,
    kinds,
    launched,
    legal,
    phase,
    put,
    scenario,
    to_fly,
    value,
)

from interpreter import load_game


def hq(name: str, p: int = 0) -> str:
    return f'move cards_named("hq-{name}", hq_box) to hq({p})\n'


# ---- copy module and Double module: one choice per turn, also on the launch turn ---------------


def test_launch_turn_asks_the_copy_and_double_module_choices_once(tmp_path):
    """Race to Mars rulebook, 'The Rocket' (Copy): "You decide each turn which and it does
    not have to be the same as on a previous turn." Headquarters: "You may use one of your
    Rocket modules twice each turn." And 'Launching the Rocket': "If you use effects that
    copy or duplicate card-drawing Rocket modules, they'll apply to both draws."
    """
    setup = (hq("double-module") + put("t-fuel", "crew(0)", 10)
             + attach("t-draw-mod", 0) + attach("t-copy-mod", 0) + attach("t-hull-mod", 0)
             + launched(1) + put("t-fuel", "draw_pile(1)", 6))
    s = scenario(tmp_path, setup)
    act(s, "launch")
    assert "copy module" in s.prompt()
    act(s, "t-draw-mod#")                                  # the copy copies the extra draw
    assert "Headquarters" in s.prompt() and "twice" in s.prompt()
    act(s, "t-draw-mod#")                                  # and the extra draw works twice
    assert value(s, "draws", 0) == 5                       # rocket 2 + draw module x2 + copy 1
    assert len(cards(s, "hand", 0)) == 5                   # the launch draw
    # The launching player's turn goes on to phase 2.1 with no second copy/HQ choice.
    assert phase(s) == "play" and s.current_player() == 0
    act(s, "done_playing")
    act(s, "done_playing")                                 # P2's card play
    assert phase(s) == "fly" and s.current_player() == 0
    finish_turn(s)
    assert len(cards(s, "hand", 0)) == 5                   # the end-of-turn draw used the same choice
    finish_turn(s)                                         # P2's turn; next round
    assert "copy module" in s.prompt() and s.current_player() == 0   # a new turn: a new choice
    act(s, "t-hull-mod#")
    assert "Headquarters" in s.prompt()
    act(s, "t-hull-mod#")
    assert value(s, "draws", 0) == 3 and phase(s) == "play"


# ---- storage: "You may at anytime jettison" ---------------------------------------------------------


def storage_actions(s: Any) -> list[str]:
    return [t for t in legal(s) if t.startswith("store_jettison")]


def test_storage_jettison_is_offered_at_every_post_launch_decision_point(tmp_path):
    """Race to Mars rulebook, 'The Rocket' (Storage): "You may at anytime jettison (remove
    from the game) this to jettison up to three cards from your hand and/or personal
    discard pile." Offered in phases 2.1 to 2.4 and at the end of 2.5 (assumption
    storage-anytime); not before launch ('You build your rocket in Pre-launch mode and use
    added modules during the Mars flight in Post-launch mode').
    """
    setup = (attach("t-storage", 0) + put("t-fuel", "crew(0)", 4)
             + launched(1) + put("t-fuel", "draw_pile(1)", 6))
    s = scenario(tmp_path, setup)
    assert phase(s) == "pre_launch" and s.current_player() == 0
    assert legal(s) and storage_actions(s) == []                               # not in Pre-launch
    act(s, "launch")
    assert phase(s) == "play" and s.current_player() == 0
    assert storage_actions(s) == [f"store_jettison_play {cards(s, 'rocket', 0)[0]}"]   # 2.1
    act(s, "done_playing")
    act(s, "done_playing")                                                     # P2's card play
    for where, done in (("fly", "done_flying"), ("exchange", "done_exchanging"), ("insights", "done_insights")):
        assert phase(s) == where and s.current_player() == 0
        assert len(storage_actions(s)) == 1                                    # 2.2, 2.3, 2.4
        act(s, done)
    assert "storage: keep" in s.prompt()                                       # 2.5 step 3
    act(s, "done")
    assert phase(s) == "discarded" and s.current_player() == 0
    assert storage_actions(s) == [f"store_jettison_discarded {cards(s, 'rocket', 0)[0]}"]   # end of 2.5
    act(s, "done_discarding")
    assert len(cards(s, "hand", 0)) == 2 and s.current_player() == 1           # 2.6, then P2's turn


def test_storage_jettison_after_discarding_removes_played_cards_before_the_draw(tmp_path):
    """Race to Mars rulebook, 'The Rocket' (Storage): "You may at anytime jettison (remove
    from the game) this to jettison up to three cards from your hand and/or personal
    discard pile." At the end of phase 2.5 the played cards are in the discard pile, and
    jettisoning them there keeps them out of the reshuffle of phase 2.6.
    """
    setup = both_launched(attach("t-storage", 0) + put("t-wild", "hand(0)") + put("t-fuel", "hand(0)"))
    setup += "move draw_pile(0) to box\n"                 # phase 2.6 will reshuffle the discard pile
    s = scenario(tmp_path, setup)
    act(s, "play t-wild#")
    to_fly(s, 0)
    for done in ("done_flying", "done_exchanging", "done_insights"):
        act(s, done)
    act(s, "done")                                         # storage: keep nothing
    assert phase(s) == "discarded"
    gone = cards(s, "discard", 0)
    assert sorted(kinds(s, "discard", 0)) == ["t-fuel", "t-wild"]              # hand and play area
    act(s, "store_jettison_discarded t-storage#")
    for c in gone:
        act(s, c)
    assert s.current_player() == 1                         # no more cards to pick: the choice ends
    assert cards(s, "rocket", 0) == []                                         # the module is gone
    everywhere = [c for z in ("hand", "discard", "draw_pile", "play_area") for c in cards(s, z, 0)]
    assert not set(gone) & set(everywhere)                                     # out of the game
    assert set(kinds(s, "hand", 0)) == {"asteroid"}                            # 2.6 reshuffled only Asteroids
