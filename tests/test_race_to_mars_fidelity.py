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


# ---- the end ----------------------------------------------------------------------------------------


def reach_mars_setup(closer_crew: int) -> str:
    """3 players, Start Player P2 (seat 1): P1 (seat 0) sits to its right and is still in
    Pre-launch; P2 is one space from Mars with a Boost in hand."""
    setup = "".join(launched(p) + put("t-fuel", f"draw_pile({p})", 8) for p in (1, 2))
    return setup + put("t-fuel", "crew(0)", closer_crew) + "set pos(1) to 23\n" + boost("hand(1)")


def play_round_one_to_mars(s: Any) -> None:
    act(s, "recruit " + cards(s, "offer")[0])          # P1's pre-launch turn
    act(s, "play boost#")                              # P2 plays its Boost
    act(s, "done_playing")
    act(s, "done_playing")                             # P3
    act(s, "advance boost#")
    assert value(s, "at_mars", 1)
    finish_turn(s)                                     # P2 ends its turn at Mars
    finish_turn(s)                                     # P3


def test_player_right_of_start_still_in_pre_launch_gets_a_final_turn(tmp_path):
    """Race to Mars rulebook, 'The Game Ends': "If this player sits directly to the right of
    the Start Player, the game ends after that player's turn. Otherwise, play continues
    until the player to the right of the Start Player has taken a final turn."
    """
    s = scenario(tmp_path, reach_mars_setup(closer_crew=0), players=3, start=1)
    assert value(s, "closer", 0) == 0
    play_round_one_to_mars(s)
    assert not s.is_terminal()                                        # P1 has not had its final turn
    assert phase(s) == "pre_launch" and s.current_player() == 0 and s.round_no == 2
    pos = [counter(s, "pos", p) for p in range(3)]
    act(s, "recruit " + cards(s, "offer")[0])                         # P1's final turn
    assert s.is_terminal() and s.winners == [1] and s.result()["reason"] == "reached-mars"
    assert [counter(s, "pos", p) for p in range(3)] == pos            # nobody else moved meanwhile


def test_final_turn_of_a_launching_player_runs_through_post_launch(tmp_path):
    """Race to Mars rulebook, 'The Game Ends': "play continues until the player to the right
    of the Start Player has taken a final turn"; 'Launching the Rocket': "You are now in
    Post-launch mode and will also be performing all the Post-launch steps this turn."
    That turn ends last in the round (post-launch turns go clockwise from the Start Player).
    """
    s = scenario(tmp_path, reach_mars_setup(closer_crew=4), players=3, start=1)
    play_round_one_to_mars(s)
    assert not s.is_terminal() and s.current_player() == 0
    act(s, "launch")                                                  # P1's final turn: it launches
    assert not s.is_terminal() and phase(s) == "play"
    order = []
    while not s.is_terminal():
        order.append((s.current_player(), phase(s)))
        if phase(s) == "play":
            act(s, "done_playing")
        else:
            finish_turn(s)
    assert [p for p, w in order if w == "fly"] == [1, 2, 0]           # P1's turn is the last one
    assert s.winners == [1]


def test_player_right_of_start_reaching_mars_ends_the_game_after_its_turn(tmp_path):
    """Race to Mars rulebook, 'The Game Ends': "If this player sits directly to the right of
    the Start Player, the game ends after that player's turn."
    """
    setup = "".join(launched(p) + put("t-fuel", f"draw_pile({p})", 6) for p in range(3))
    setup += "set pos(0) to 23\n" + boost("hand(0)") + put("t-fuel", "hand(0)")
    s = scenario(tmp_path, setup, players=3, start=1)
    while phase(s) == "play":
        if s.current_player() == 0:
            act(s, "play boost#")
        act(s, "done_playing")
    finish_turn(s)                                                    # P2 (Start Player)
    finish_turn(s)                                                    # P3
    act(s, "advance boost#")
    assert value(s, "at_mars", 0) and not s.is_terminal()             # its turn is not over yet
    act(s, "done_flying")
    act(s, "exchange t-fuel#")                                        # Experience still counts
    finish_turn(s)
    assert s.is_terminal() and s.winners == [0] and counter(s, "xp", 0) == 1


# ---- no round cap: a safety bound only for a race that has stopped -----------------------------------


def stuck_setup() -> str:
    """Both players launched with nothing but Asteroids: nobody can ever advance."""
    return launched(0) + launched(1) + "".join(f'create 4 "asteroid" in draw_pile({p})\n' for p in (0, 1))


def play_on(s: Any, rounds: int) -> None:
    start = s.round_no
    while not s.is_terminal() and s.round_no < start + rounds:
        if phase(s) == "play":
            act(s, "done_playing")
        else:
            finish_turn(s)


def test_no_round_cap_only_a_stalled_race_is_stopped_and_scored_by_the_rulebook(tmp_path):
    """Race to Mars rulebook, 'The Game Ends': the game ends only when "a player reaches the
    final space on their trajectory" — there is no round limit. "If only one player
    reaches Mars, they win. If multiple players do, the one with the most Experience
    tokens wins." The safety bound (assumption safety-bound) stops only a race in which no
    pawn has advanced for 100 rounds, and scores it by that rule: nobody reached Mars,
    nobody wins.
    """
    gd = load_game(GAME).definition
    assert [e.id for e in gd.ends] == ["reached-mars", "safety-bound"]
    s = scenario(tmp_path, stuck_setup() + "set xp(0) to 2\n")
    play_on(s, 99)
    assert not s.is_terminal() and counter(s, "stall") == 99
    play_on(s, 5)
    assert s.is_terminal() and s.round_no == 100
    assert s.result()["reason"] == "safety-bound" and s.winners == []
    assert "nobody reached Mars, so nobody wins" in s.log[-1]
    assert "P1 2 (launched, still on Earth)" in s.log[-1]


def test_the_safety_bound_counts_only_rounds_without_any_advance(tmp_path):
    """Race to Mars rulebook, 'The Game Ends': no round limit; a race where a pawn still
    advances goes on (assumption safety-bound)."""
    s = scenario(tmp_path, stuck_setup() + "set stall to 99\n" + boost("hand(0)"))
    act(s, "play boost#")
    to_fly(s, 0)
    act(s, "advance boost#")                                  # one advance in this round
    play_on(s, 1)
    assert not s.is_terminal() and counter(s, "stall") == 0
    play_on(s, 3)
    assert not s.is_terminal() and counter(s, "stall") == 3


# ---- choices show what is chosen -----------------------------------------------------------------


def test_every_card_offered_as_a_choice_says_its_ability():
    """Race to Mars rulebook, 'Headquarters': "Your Headquarters provide you with a unique
    special ability"; 'Starting Cards': each "has a Crew ability, a Rocket module and an
    Insight". To choose knowingly a player sees each option's name and ability."""
    gd = load_game(GAME).definition
    offered = [c for c in gd.cards if c.type in ("space", "starting", "headquarters", "boost", "asteroid", "insight")]
    assert len(offered) == 100 + 8 + 10 + 3
    for c in offered:
        text = c.text
        assert c.name and c.name != c.id and len(text) > 10, c.id
    for c in gd.cards:
        if c.type == "space":
            text = c.text
            assert text.startswith("Crew ability: ") and " Rocket module: " in text
        if c.type == "starting":
            text = c.text
            assert "Crew ability: " in text and "Rocket module: " in text and "Insight" in text
            assert f"spend {c.properties['cost']} Experience" in text                  # the Insight's price


def test_setup_choices_show_each_option_and_what_is_chosen():
    """Race to Mars rulebook, 'Headquarters': "each player must decide on one Headquarters
    card and return the other to the box"; 'Starting Cards': "pick one Starting card each
    ... Decide whether to recruit it to your Crew deck as a Crew ability or attach it to
    your rocket as a module"; "The leftover card is placed next to the Insight card"."""
    game = load_game(GAME)
    s = game.new_initial_state(3, seed=4)
    gd = game.definition
    texts = {c.id: c.text for c in gd.cards}
    names = {c.id: c.name for c in gd.cards}
    saw_hq = saw_start = saw_place = False
    while phase(s) != "pre_launch":
        p, prompt = s.current_player(), s.prompt()
        view = s.observation(p)["views"]["cards"]
        options = [t.split("#")[0] for t in legal(s)]
        if "Headquarters" in prompt and "keep" in prompt:
            saw_hq = True
            assert "only to you" in prompt
            assert all(names[o] in view and texts[o] in view for o in options)
        if "pick a Starting card" in prompt:
            saw_start = True
            assert "Crew ability" in prompt and "Rocket module" in prompt and "Insight" in prompt
            assert all(names[o] in view and texts[o] in view for o in options if o.startswith("start-"))
        if "recruit it to your Crew deck" in prompt:
            saw_place = True
            assert "Crew ability: " in prompt and "Rocket module: " in prompt and "Starting: " in prompt
        act(s, legal(s)[0])
    assert saw_hq and saw_start and saw_place
    view = s.observation(0)["views"]["cards"]
    assert all(names[kinds(s, "hq", p)[0]] in view for p in range(3))          # everyone's, once revealed


# ---- the end summary -----------------------------------------------------------------------------


@pytest.mark.parametrize(("xp", "outcome"), [((3, 1), "the winner is P1"),
                                             ((2, 2), "the victory is shared by P1 and P2")])
def test_end_summary_names_every_final_experience_and_the_winners(tmp_path, xp, outcome):
    """Race to Mars rulebook, 'The Game Ends': "If only one player reaches Mars, they win. If
    multiple players do, the one with the most Experience tokens wins. In case of a tie, the
    tied players share the victory." The last log line and the table at the end say so."""
    setup = (both_launched() + "set pos(0) to 24\nset pos(1) to 24\n"
             + f"set xp(0) to {xp[0]}\nset xp(1) to {xp[1]}\n")
    s = scenario(tmp_path, setup)
    play_on(s, 3)
    assert s.is_terminal()
    assert s.log[-1] == (f"Final Experience: P1 {xp[0]} (reached Mars), P2 {xp[1]} (reached Mars); {outcome}.")
    assert "has taken a final turn" in s.log[-2]
    for p in range(2):
        race = s.observation(p)["views"]["race"]
        assert f"P1 reached Mars, {xp[0]} Experience; P2 reached Mars, {xp[1]} Experience" in race
        assert f"The race is over: {outcome}." in race


def test_end_summary_with_one_player_at_mars(tmp_path):
    """Race to Mars rulebook, 'The Game Ends': "If only one player reaches Mars, they win" —
    even with less Experience than the others."""
    setup = both_launched() + "set pos(1) to 24\nset xp(0) to 5\nset pos(0) to 3\n"
    s = scenario(tmp_path, setup)
    play_on(s, 3)
    assert s.is_terminal() and s.winners == [1]
    assert s.log[-1] == "Final Experience: P1 5 (at space 4 of 25), P2 0 (reached Mars); the winner is P2."


def test_pilot_games_end_with_the_summary():
    """The end summary is written in real games too (Race to Mars rulebook, 'The Game Ends')."""
    game = load_game(GAME)
    for n in (2, 3, 4):
        s = game.new_initial_state(n, seed=n, seats=["pilot"] * n)
        assert s.is_terminal() and s.result()["reason"] == "reached-mars"
        assert s.log[-1].startswith("Final Experience: P1 ") and f"P{n} " in s.log[-1]
        assert ("the winner is P" in s.log[-1]) == (len(s.winners) == 1)
