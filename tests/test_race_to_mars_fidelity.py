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
