"""For All Mankind: the deviations found by the second fidelity audit (issue #13).

Each test sets up the situation with a `rig_*` overlay action (see test_for_all_mankind),
plays the real actions and checks the outcome; its docstring quotes the line of the For
All Mankind rulebook it enforces.
"""

from __future__ import annotations

import textwrap

import pytest
from conftest import counter, zone
from test_for_all_mankind import GAME, RESOURCES, act, end_turns, legal, res, rigged, ships, start

from interpreter import load_game
from interpreter.runtime.present import action_label


@pytest.fixture(scope="module")
def game():
    return load_game(GAME)


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


# ---- bots hold only what the Bot Rules give them -------------------------------------------------


def test_bots_draw_no_resources_at_the_end_of_their_turn(tmp_path):
    """"IMPORTANT NOTE | A bot will never use Resources. It does not have to pay for
    Espionage, Colonies, or Research. It has Resources so you can steal from it when the
    right Espionage Cards are played." (Bot Rules): a bot's turn ends without drawing from
    its Earth location, while a human still draws theirs."""
    # Nothing is left for the bots to build, draw or activate (a test-only way to empty
    # the markets and hands), so their turns change nothing but what they would gather.
    game = rigged(tmp_path, still='move colony_bank to earth_bank\nmove research_bank to earth_bank\n'
                                  'move spy_deck to earth_bank\nfor each q in players:\n  move spies(q) to earth_bank')
    s = start(game, seats=["human", "bot", "bot", "bot"])
    act(s, "rig_still")
    bots_before = [res(s, p) for p in (1, 2, 3)]
    mine = res(s, 0)
    bank = sum(counter(s, "bank").values())
    end_turns(s)                      # P1 gathers, then the three bots play their turns
    assert s.current_player() == 0 and not s.is_terminal()
    assert [res(s, p) for p in (1, 2, 3)] == bots_before
    spec = zone(s, "earth", 0)[0].split("-")[1].split("#")[0]     # P1's Earth location
    assert {r: res(s, 0)[r] - mine[r] for r in RESOURCES} == {r: 2 if r == spec else 1 for r in RESOURCES}
    assert sum(counter(s, "bank").values()) == bank - 5
    assert sum("(bot) draws no Resources" in line for line in s.log) == 3


def test_a_bot_gains_one_resource_of_the_type_of_each_colony_it_builds(tmp_path):
    """"IMPORTANT NOTE | Whenever a bot builds a Colony, add a Resource of that type to the
    bot's hand." (Bot Rules, 3 | Colony): this, the starting hand, Insider Trading and
    thefts are the only Resources a bot ever holds."""
    game = rigged(tmp_path, face3="bot_act(1, 3)", face5="bot_act(1, 5)",
                  nodeck='move spy_deck to earth_bank\nfor each q in players:\n  move spies(q) to earth_bank')
    s = start(game)
    act(s, "rig_nodeck")              # face 5's Espionage part finds nothing to do
    start_hand = res(s, 1)             # P2 is Earth IRON: 2 IRON, 1 of each other
    assert start_hand == {"iron": 2, "fuel": 1, "water": 1, "oxygen": 1}
    act(s, "rig_face3")
    act(s, "rig_face5")
    assert zone(s, "colonies", 1) == ["mercury-iron", "venus-iron"]
    assert res(s, 1) == {"iron": 4, "fuel": 1, "water": 1, "oxygen": 1}


def test_with_bots_the_bank_keeps_resources_for_the_human(game):
    """"When you draw Resource Cards, you draw them from The Bank." (The Bank) and "A bot
    will never use Resources" (Bot Rules): since bots neither gather nor pay, The Bank is
    not drained by them; a human who only passes still draws from it for rounds."""
    for seed in range(5):
        s = start(game, seats=["human", "bot", "bot", "bot"], seed=seed)
        for _ in range(5):
            if s.is_terminal():
                break
            end_turns(s)
        if s.is_terminal():
            continue
        bank = counter(s, "bank")
        assert min(bank.values()) > 0, (seed, bank)
        # the bots together hold far less than the 25 x 4 cards less the human's hand
        assert sum(sum(res(s, p).values()) for p in (1, 2, 3)) < 45


# ---- a bot's Reverse Engineering ------------------------------------------------------------------


def test_a_bots_reverse_engineering_can_replicate_reverse_engineering(tmp_path):
    """"Reverse Engineering: Choose the opponent's discard pile with the most used
    Espionage Cards. Replicate a random card in that pile, using this list to see what it
    does." (Bot Espionage Cards): any card, Reverse Engineering included; a replicated
    Reverse Engineering does the same again, here ending on the Insider Trading."""
    game = rigged(tmp_path, piles=textwrap.dedent("""\
        move top(cards_named("reverse-engineering", spy_deck)) to used(2)
        move top(cards_named("insider-trading", spy_deck)) to used(3)
        set chain to 0
        """), re='rig_bot(1, "reverse-engineering")')
    chained = 0
    for seed in range(12):
        s = start(game, seed=seed)
        act(s, "rig_piles")                # P3 and P4 tie for the most used cards
        before = res(s, 1)                 # P2: Earth IRON, secondary FUEL, WATER, OXYGEN
        act(s, "rig_re")
        lines = [line for line in s.log if "(bot) replicates" in line]
        assert lines[-1] == 'P2 (bot) replicates Insider Trading from P4\'s discard pile'
        assert all(line == "P2 (bot) replicates Reverse Engineering from P3's discard pile" for line in lines[:-1])
        assert {r: res(s, 1)[r] - before[r] for r in RESOURCES} == {"iron": 0, "fuel": 1, "water": 1, "oxygen": 1}
        assert len(zone(s, "spies", 1)) == 1               # nothing drawn
        chained += len(lines) > 1
    assert chained > 0                     # some seeds replicated the Reverse Engineering first


def test_a_bots_reverse_engineering_of_a_pile_of_reverse_engineering_ends_in_a_draw(tmp_path):
    """"If no opponents have any discarded Espionage Cards to replicate, the bot draws an
    Espionage Card." (Bot Espionage Cards): a pile holding only Reverse Engineering would
    replicate forever; after the bound (max_chain) it counts as nothing to replicate."""
    game = rigged(tmp_path, pile='move top(cards_named("reverse-engineering", spy_deck)) to used(2)\nset chain to 0',
                  re='rig_bot(1, "reverse-engineering")')
    s = start(game)
    act(s, "rig_pile")
    act(s, "rig_re")
    lines = [line for line in s.log if "(bot) replicates" in line]
    assert len(lines) == game.definition.constants["max_chain"]
    assert all("Reverse Engineering" in line for line in lines)
    assert len(zone(s, "spies", 1)) == 2 and len(zone(s, "used", 2)) == 1


# ---- Bonus tokens when the holder no longer qualifies ----------------------------------------------


def bonus_game(tmp_path):
    return rigged(tmp_path, setup=textwrap.dedent("""\
        gain 3 nukes(0)
        lose 3 nuke_bank
        move cards_named("saturn-iron", colony_bank) to colonies(1)
        move cards_named("lunar-outpost", research_bank) to research(1)
        move cards_named("yeti-institute", research_bank) to research(1)
        """), jupiter='move cards_named("jupiter-water", colony_bank) to colonies(2)',
        one='move cards_named("superspy-academy", research_bank) to research(2)',
        two='move cards_named("ganymede-station", research_bank) to research(2)')


def test_farthest_out_stays_with_a_holder_nuked_off_every_outer_planet_until_earned(tmp_path):
    """"IMPORTANT NOTE | Bonus Tokens cannot be nuked and cannot be traded. They must be
    earned." and "If someone else earns the same Bonus Token by surpassing your
    achievement, take your ship off the spot and pass them the token." (Bonus Tokens):
    losing the last Outer Colony keeps Farthest Out and its Ship; the next Outer Colony
    anyone builds ("currently has a Colony on the planet furthest from the sun") takes it."""
    s = start(bonus_game(tmp_path))
    act(s, "rig_setup")
    assert zone(s, "bonuses", 1) == ["farthest-out", "prestigious-universities"]
    act(s, "nuke P2 saturn-iron")
    assert zone(s, "colonies", 1) == [] and "farthest-out" in zone(s, "bonuses", 1)
    assert ships(s, 1) == 1 + 2 + 2 and counter(s, "ships", 1) == 5     # Earth, 2 Research, 2 Bonuses
    act(s, "rig_jupiter")
    assert zone(s, "bonuses", 2) == ["farthest-out"] and zone(s, "bonuses", 1) == ["prestigious-universities"]


def test_prestigious_universities_needs_two_research_even_from_a_holder_with_none(tmp_path):
    """"Prestigious Universities: For having the most RESEARCH PROJECTS (Two or More).
    This Bonus Token goes to the first player to build 2 Research, and transfers to
    whoever currently has the most Research." (Bonus Tokens): a holder nuked down to no
    Research keeps it against a player with one; two take it."""
    s = start(bonus_game(tmp_path))
    act(s, "rig_setup")
    act(s, "nuke P2 lunar-outpost")
    act(s, "nuke P2 yeti-institute")
    assert zone(s, "research", 1) == [] and "prestigious-universities" in zone(s, "bonuses", 1)
    act(s, "rig_one")                  # 1 Research beats 0 but is not "Two or More"
    assert "prestigious-universities" in zone(s, "bonuses", 1) and zone(s, "bonuses", 2) == []
    act(s, "rig_two")
    assert zone(s, "bonuses", 2) == ["prestigious-universities"]
    assert "prestigious-universities" not in zone(s, "bonuses", 1)


# ---- trading: counter-offers, several offers, bounded ------------------------------------------------


def offer(s, *steps: str) -> None:
    """Build an offer with the given options (and their follow-up choices), then propose it."""
    for step in steps:
        act(s, step)
    s.apply_action("propose")


def test_a_trade_partner_may_answer_with_a_counter_offer(tmp_path):
    """"In For All Mankind, everything is for sale! You can trade literally anything with
    other players ... That and what they'll agree to, of course." (Trading): the partner
    may answer an offer with a counter-offer, which the offering player accepts."""
    game = rigged(tmp_path, mars='move cards_named("mars-iron", colony_bank) to colonies(1)')
    s = start(game)                    # P1 Earth OXYGEN (2 OXYGEN), P2 Earth IRON
    act(s, "rig_mars")
    act(s, "trade P2")
    offer(s, '"give a resource"', "oxygen", '"ask for a colony or research"')
    assert s.current_player() == 1 and set(legal(s)) == {"accept", "decline", "counter-offer"}
    assert "P1 offers you 1 OXYGEN for Mars IRON colony" in s.prompt()
    s.apply_action("counter-offer")    # P2: the colony for 2 OXYGEN and 1 FUEL
    assert s.current_player() == 1
    offer(s, '"give a colony, research or espionage card"', "mars-iron", '"ask for a resource"', "oxygen",
          '"ask for a resource"', "oxygen", '"ask for a resource"', "fuel")
    assert s.current_player() == 0 and "accept" in legal(s)
    assert "P2 offers you Mars IRON colony for 1 FUEL, 2 OXYGEN" in s.prompt()
    p1, p2 = res(s, 0), res(s, 1)
    s.apply_action("accept")
    assert zone(s, "colonies", 0) == ["mars-iron"] and zone(s, "colonies", 1) == []
    assert res(s, 0)["oxygen"] == p1["oxygen"] - 2 and res(s, 0)["fuel"] == p1["fuel"] - 1
    assert res(s, 1)["oxygen"] == p2["oxygen"] + 2 and res(s, 1)["fuel"] == p2["fuel"] + 1
    assert ships(s, 0) == 2 and ships(s, 1) == 1
    assert s.log[-1] == "P1 accepts P2's trade"


def test_offers_and_counter_offers_with_one_partner_are_capped_per_turn(tmp_path):
    """"IMPORTANT NOTE | Players can only initiate trades during their own turn" (Trading):
    the active player may offer the same partner again after a refusal; offers and
    counter-offers between two players are bounded (max_offers a turn, an assumption so
    automated seats cannot trade back and forth forever), and the count starts afresh on
    the next turn."""
    s = start(load_game(GAME))
    assert load_game(GAME).definition.constants["max_offers"] == 3
    act(s, "trade P2")                                   # 1: P1's offer
    offer(s, '"give a resource"', "oxygen")
    s.apply_action("counter-offer")                      # 2: P2's counter-offer
    offer(s, '"ask for a resource"', "fuel")
    assert "counter-offer" in legal(s)
    s.apply_action("counter-offer")                      # 3: P1's counter to the counter
    offer(s, '"give a resource"', "oxygen", '"ask for a resource"', "iron")
    assert s.current_player() == 1 and set(legal(s)) == {"accept", "decline"}   # no 4th
    s.apply_action("decline")
    assert "trade P2" not in legal(s) and "trade P3" in legal(s)
    # a second, separate offer to another partner, declined, then offered again
    act(s, "trade P3")
    offer(s, '"give a resource"', "iron")
    s.apply_action("decline")
    assert "trade P3" in legal(s)
    act(s, "trade P3")
    offer(s, '"give a resource"', "iron")
    s.apply_action("accept")
    assert "trade P3" in legal(s)                        # 2 of 3 used with P3
    end_turns(s)
    assert "trade P2" in legal(s)                        # a new turn: the count starts again


def test_the_description_says_why_bots_do_not_trade(game):
    """"You can trade literally anything with other players" (Trading) while the Bot Rules
    give a bot only a die to roll: the game's description (shown by `describe`) says that
    bots never trade and why, and trades are never offered to them."""
    description = game.definition.description
    assert "Bots never trade" in description and "no way to weigh an offer" in description
    s = game.new_initial_state(4, seed=1, seats=["human", "bot", "human", "bot"])
    while any(t.startswith("earth-") for t in legal(s)):
        s.apply_action(legal(s)[0])
    assert s.current_player() == 0
    assert [t for t in legal(s) if t.startswith("trade")] == ["trade P3"]


# ---- costs and prices shown to people --------------------------------------------------------------


def labels(s) -> dict[str, str]:
    return {a.text.split("#")[0]: action_label(s, a) for a in s.legal_actions()}


def view(s, name: str, p: int = 0) -> str:
    return s.observation(p)["views"][name]


def test_research_prices_and_powers_are_shown_and_what_was_paid_is_logged(tmp_path):
    """"Research comes in three Tiers, which are more or less expensive depending on how
    powerful they are. Consult your Field Guide for full details on the specific cost and
    unique powers for each Research." (Research): each Research for sale shows its Tier,
    price and power (action label and the prices view); the log says what was paid."""
    s = start(load_game(GAME))                      # P1: Earth OXYGEN (1, 1, 1, 2)
    shown = labels(s)["buy_research x-large-hadron-collider"]
    assert shown == ("buy Research: X-Large Hadron Collider (Tier 1) for 1 IRON, 1 FUEL, 1 OXYGEN; "
                     "power: Trade with The Bank at 2:1 instead of 3:1.")
    prices = view(s, "prices")
    assert "Executive Privilege (Tier 3): 2 IRON, 2 FUEL, 2 WATER, 2 OXYGEN. You may activate" in prices
    assert "Espionage Card: 1 FUEL, 1 WATER" in prices and "Colony: 1 IRON, 1 WATER, 2 OXYGEN" in prices
    before = res(s, 0)
    act(s, "buy_research x-large-hadron-collider")
    assert s.log[-1] == "P1 buys X-Large Hadron Collider for 1 IRON, 1 FUEL, 1 OXYGEN"
    assert {r: before[r] - res(s, 0)[r] for r in RESOURCES} == {"iron": 1, "fuel": 1, "water": 0, "oxygen": 1}
    assert "X-Large Hadron Collider" not in view(s, "prices")       # no longer for sale
    assert "2 of one Resource for 1" in view(s, "prices")           # its power, in the prices


def test_colony_espionage_and_bank_prices_are_shown_and_logged(tmp_path):
    """"When you purchase a Colony, pay the base cost plus the FUEL cost" (Colonies), "When
    you want to buy an Espionage Card, pay the cost in your Field Guide" (Espionage Cards),
    "The rate of trading with The Bank is 3:1" (Trading): each action says its price and
    the log says what was paid."""
    game = rigged(tmp_path, rich='for each r in resource_names:\n  receive(0, r, 5)')
    s = start(game)
    act(s, "rig_rich")
    shown = labels(s)
    assert shown["build_colony venus-iron"] == \
        "build a Colony: Venus IRON colony for 1 IRON, 1 WATER, 2 OXYGEN and 3 FUEL"
    assert shown["buy_espionage"] == "buy an Espionage Card for 1 FUEL, 1 WATER (usable from next round)"
    assert shown["bank_trade iron fuel"] == "trade with The Bank: 3 IRON for 1 FUEL"
    act(s, "build_colony venus-iron")
    assert "P1 pays 1 IRON, 1 WATER, 2 OXYGEN and 3 FUEL" in s.log[-3:]
    act(s, "buy_espionage")
    assert "P1 buys an Espionage Card for 1 FUEL, 1 WATER" in s.log[-2:]
    act(s, "bank_trade iron fuel")
    assert s.log[-1] == "P1 trades 3 IRON with The Bank for 1 FUEL"


def test_activation_costs_and_why_a_card_cannot_be_activated_yet_are_shown(tmp_path):
    """"Espionage Cards can only be used during your own turn, and can only be activated
    after they have been in your hand for at least 1 full round. When you want to use an
    Espionage Card, pay the activation cost (noted in its upper left hand corner)"
    (Espionage Cards): the hand shows each card's activation cost and why it cannot be
    activated yet; the action says the cost and the card's text; the log what was paid."""
    game = rigged(tmp_path, broke='for each r in resource_names:\n  spend(0, r, res(0)[r])',
                  rich='for each r in resource_names:\n  receive(0, r, 3)',
                  spy='move cards_named("superspy-academy", research_bank) to research(0)',
                  snf='move top(cards_named("secret-nuclear-facilities", spy_deck)) to spies(0)\n'
                      'for each c in spies(0):\n  set c.got to 0')
    s = start(game)
    hand = view(s, "you")
    assert ("Secret Nuclear Facilities [activation: 1 IRON, 1 FUEL] (came into your hand this round: it must "
            "be in your hand a full round, so it can be activated from round 2)") in hand
    assert not any(t.startswith("activate") for t in legal(s))
    end_turns(s)                                     # round 2
    act(s, "rig_broke")
    assert "Secret Nuclear Facilities [activation: 1 IRON, 1 FUEL] (ready, but you lack 1 IRON, 1 FUEL)" \
        in view(s, "you")
    assert not any(t.startswith("activate") for t in legal(s))
    act(s, "rig_rich")
    assert "Secret Nuclear Facilities [activation: 1 IRON, 1 FUEL] (ready)" in view(s, "you")
    assert labels(s)["activate secret-nuclear-facilities"] == \
        "activate Secret Nuclear Facilities for 1 IRON, 1 FUEL: Add one TACTICAL NUKE to your stockpile."
    act(s, "buy_espionage")                          # a new card: not before round 3
    assert "(came into your hand this round: it must be in your hand a full round, so it can be activated " \
           "from round 3)" in view(s, "you")
    act(s, "activate secret-nuclear-facilities")
    assert "P1 activates Secret Nuclear Facilities, paying 1 IRON, 1 FUEL" in s.log
    end_turns(s)                                     # round 3: Superspy Academy waives the cost
    act(s, "rig_spy")
    assert "[activation: free with Superspy Academy] (ready)" in view(s, "you")
    act(s, "rig_snf")
    assert labels(s)["activate secret-nuclear-facilities"] == \
        "activate Secret Nuclear Facilities for nothing (Superspy Academy): Add one TACTICAL NUKE to your stockpile."
    before = res(s, 0)
    act(s, "activate secret-nuclear-facilities")
    assert res(s, 0) == before and counter(s, "nukes", 0) == 2
    assert "P1 activates Secret Nuclear Facilities for nothing (Superspy Academy)" in s.log


def test_every_card_offered_as_a_choice_has_a_name_and_a_text(game):
    """Earth locations, Colonies, Research, Espionage Cards (chosen when setting up,
    building, buying, activating, trading and stealing) and Bonus tokens each carry a name
    and a `text` saying what they do, for showing choices to people."""
    texts = {c.id: (c.name, c.text) for c in game.definition.cards}
    assert all(name and len(text) > 20 for name, text in texts.values()), texts
    assert texts["earth-water"][1].startswith("Produces 2 WATER and 1 each of IRON, FUEL, OXYGEN")
    assert texts["jupiter-fuel"][1] == \
        "Produces 1 FUEL at the end of each of your turns (2 while you own every Colony on Jupiter)."


def test_player_1_is_a_human_in_play_and_bots_fill_the_other_seats(capsys, monkeypatch):
    """Bot rules: "A human player will always be Player 1"; bots fill "wherever there
    is an empty seat". Play defaults to that and refuses another kind in seat 1;
    simulations may still seat anything."""
    import io
    import sys

    from interpreter.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "for-all-mankind", "--seed", "3"]) == 0
    assert "Seats: P1 human, P2 bot, P3 bot, P4 bot" in capsys.readouterr().out
    assert main(["play", "for-all-mankind", "--seats", "bot,bot,bot,bot"]) == 2
    assert "seat 1 of For All Mankind takes human in play, not 'bot'" in capsys.readouterr().err
    assert main(["simulate", "for-all-mankind", "--seats", "bot,bot,bot,bot", "--games", "1"]) == 0
