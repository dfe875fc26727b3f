"""For All Mankind: the deviations found by the second fidelity audit (issue #13).

Each test sets up the situation with a `rig_*` overlay action (see test_for_all_mankind),
plays the real actions and checks the outcome; its docstring quotes the line of the For
All Mankind rulebook it enforces.
"""

from __future__ import annotations

import textwrap

from conftest import counter, zone
from test_for_all_mankind import GAME, RESOURCES, act, end_turns, legal, res, rigged, ships, start  # noqa: F401

from interpreter import load_game


# ---- the `ships` counter on the winning move ----------------------------------------------------


def test_the_ships_counter_shows_the_tenth_ship_on_the_winning_move(tmp_path):
    """"As soon as any Player's 10th Ship is validly placed on the board, the game is over
    and that Player wins the game!" (Victory Conditions): the counter people read shows
    that 10th Ship, whether it lands on a Colony, a Research or a Bonus token."""
    game = rigged(tmp_path, nine=textwrap.dedent("""\
        for each c in [c for c in colony_bank if c.planet in ["mars", "venus", "mercury"]]:
          move c to colonies(0)
        move cards_named("saturn-iron", colony_bank) to colonies(0)
        receive(0, "iron", 3)
        """), eight=textwrap.dedent("""\
        for each c in [c for c in colony_bank if c.planet in ["mars", "venus", "mercury"]]:
          move c to colonies(0)
        move cards_named("lunar-outpost", research_bank) to research(0)
        """))
    # a Research as the 10th Ship: Earth + 6 inner + Saturn + Farthest Out = 9, then buy
    s = start(game)
    act(s, "rig_nine")
    assert ships(s, 0) == 9 and counter(s, "ships", 0) == 9 and not s.is_terminal()
    act(s, "buy_research x-large-hadron-collider")
    assert s.is_terminal() and s.winners == [0]
    assert counter(s, "ships", 0) == 10
    # a Bonus token as the 10th Ship: Earth + 6 inner + 1 Research = 8; a 2nd Research
    # is the 9th Ship and earns Prestigious Universities, the 10th
    s = start(game)
    act(s, "rig_eight")
    assert counter(s, "ships", 0) == 8
    act(s, "buy_research x-large-hadron-collider")
    assert s.is_terminal() and s.winners == [0] and zone(s, "bonuses", 0) == ["prestigious-universities"]
    assert counter(s, "ships", 0) == 10
