"""For All Mankind (games/for-all-mankind): the rulebook's rules, notes and examples.

Scenarios are set up with data, not Python: a test overlay adds `rig_*` actions whose
effect text puts the table in the situation under test (resources, colonies, nukes,
positions), then the test plays the real actions and checks the rule's outcome. Earth
locations are chosen in the real set-up (Player 4 first), every seat is `human` unless
a test is about bots, so every decision surfaces to the test.
"""

from __future__ import annotations

import pathlib
import random
import textwrap
from typing import Any

import pytest
from conftest import counter, zone

from interpreter import TERMINAL, load_game
from interpreter.runtime import counters

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAME = str(ROOT / "games" / "for-all-mankind")
RESOURCES = ("iron", "fuel", "water", "oxygen")
# P1..P4's Earth locations in most tests.
EARTHS = ("earth-oxygen", "earth-iron", "earth-water", "earth-fuel")


@pytest.fixture(scope="module")
def game() -> Any:
    return load_game(GAME)


def rigged(tmp_path: pathlib.Path, **effects: str) -> Any:
    """The game plus one `rig_NAME` action per keyword, whose effect is the given text, and
    `rig_bot(p, "card-id")`: player p does what a bot makes of that Espionage card (its
    `bot` effect), wherever a copy is."""
    lines = ["orrery: 1", "overlay: rig", "base: for-all-mankind", "name: test rig", "add:",
             "  procedures:", "    rig_bot:", "      params: [me, kind]",
             "      effect: 'use top(cards_named(kind, used(0) + used(1) + used(2) + used(3) + spies(0) + spies(1)"
             " + spies(2) + spies(3) + spy_deck)) \"bot\"'",
             "  actions:"]
    for name, text in effects.items():
        lines.append(f"    rig_{name}:")
        lines.append("      during: main")
        lines.append("      effect: |")
        lines.extend("        " + line for line in textwrap.dedent(text).strip("\n").splitlines())
    path = tmp_path / f"rig{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_game(GAME, overlays=[str(path)])


def start(game: Any, earths: tuple[str, ...] = EARTHS, seats: list[str] | None = None, seed: int = 1,
          variants: Any = None) -> Any:
    """A new game where P1..P4 take `earths` (chosen 4, 3, 2, 1), waiting for P1's actions."""
    s = game.new_initial_state(4, seed=seed, seats=seats or ["human"] * 4)
    for p in (3, 2, 1, 0):
        if s.current_player() != p or not any(t.startswith("earth-") for t in legal(s)):
            break
        pick = next(a.text for a in s.legal_actions() if a.text.startswith(earths[p] + "#"))
        s.apply_action(pick)
    return s


def legal(s: Any) -> list[str]:
    return [a.text for a in s.legal_actions()]


def act(s: Any, prefix: str) -> None:
    """Apply the one legal action whose text starts with `prefix`."""
    found = [t for t in legal(s) if t == prefix or t.startswith(prefix + " ") or t.startswith(prefix + "#")]
    assert len(found) >= 1, f"no legal action '{prefix}' in {legal(s)}"
    s.apply_action(found[0])


def res(s: Any, p: int) -> dict[str, int]:
    return counter(s, "res", p)  # type: ignore[return-value]


def value(s: Any, name: str, p: int) -> Any:
    vdef = next(v for v in s.gd.values if v.name == name)
    return counters.value_of(s, vdef.index, p)


def ships(s: Any, p: int) -> int:
    return value(s, "ships_on_board", p)


def end_turns(s: Any, until: int = 0) -> None:
    """End turns (answering nothing else) until it is `until`'s turn again."""
    s.apply_action("end_turn")
    while not s.is_terminal() and (s.current_player() != until or "end_turn" not in legal(s)):
        s.apply_action("end_turn")


def total_resources(s: Any) -> dict[str, int]:
    bank = counter(s, "bank")
    return {r: bank[r] + sum(res(s, p)[r] for p in range(4)) for r in RESOURCES}  # type: ignore[index]


# ---- components and set-up ---------------------------------------------------------------------


def test_components_and_their_counts(game):
    s = start(game)
    gd = s.gd
    count = {c.id: c.count for c in gd.cards}
    kinds: dict[str, int] = {}
    for c in gd.cards:
        kinds[c.type] = kinds.get(c.type, 0) + c.count
    assert kinds == {"earth": 4, "colony": 21, "research": 9, "bonus": 3, "espionage": 44}
    assert [count[k] for k in ("double-agents", "reverse-engineering", "hack-the-planet", "stowaway-drones",
                               "insider-trading", "misplaced-shipments", "secret-nuclear-facilities")] == \
        [3, 4, 5, 5, 6, 7, 14]
    assert total_resources(s) == {r: 25 for r in RESOURCES}       # 100 resource cards
    assert counter(s, "nuke_bank") == 12
    assert len(zone(s, "spy_deck")) == 40 and all(zone(s, "spies", p) == ["secret-nuclear-facilities"]
                                                   for p in range(4))
    assert all(value(s, "ships_left", p) == 9 for p in range(4))   # 10 ships each, 1 on Earth


def test_earth_locations_are_chosen_in_reverse_order_with_their_resources(game):
    s = game.new_initial_state(4, seed=3, seats=["human"] * 4)
    order = []
    while s.current_player() in (3, 2, 1) and any(t.startswith("earth-") for t in legal(s)):
        order.append(s.current_player())
        s.apply_action(legal(s)[0])
    assert order == [3, 2, 1]          # Player 4 first; Player 1 takes the one left
    for p in range(4):
        spec = zone(s, "earth", p)[0].split("-")[1]
        assert res(s, p) == {r: 2 if r == spec else 1 for r in RESOURCES}
        assert ships(s, p) == 1


def test_bots_choose_their_earth_location_at_random(game):
    seen = set()
    for seed in range(12):
        s = game.new_initial_state(4, seed=seed, seats=["human", "bot", "bot", "bot"])
        seen.add(zone(s, "earth", 3)[0])
    assert len(seen) >= 3


def test_starting_secret_nuclear_facilities_is_unactivated_until_a_full_round_passed(game):
    s = start(game)
    assert not any(t.startswith("activate") for t in legal(s))
    end_turns(s)                       # round 2: a full round in hand
    assert "activate secret-nuclear-facilities" in " ".join(legal(s))


# ---- the solar system and FUEL ---------------------------------------------------------------------


def test_fuel_examples_mars_to_venus_and_mars_to_jupiter(tmp_path):
    # Earth is turned away (pip 4 = the far side) so the costs are measured from Mars.
    game = rigged(tmp_path, mars='move top(cards_named("mars-iron", colony_bank)) to colonies(0)',
                  away='set pip["earth"] to 4\nrefresh_fuel()')
    s = start(game)
    act(s, "rig_away")
    act(s, "rig_mars")
    fuel = counter(s, "fuel", 0)
    assert fuel["venus"] == 3 * 1      # Mars to Venus: 3 x 1 FUEL
    assert fuel["jupiter"] == 5 * 2    # Mars to Jupiter: 5 x 2 FUEL
    assert fuel["mars"] == 0           # a Colony there already: no flying, no FUEL


def test_ruler_table_gives_the_examples_at_the_new_player_positions(game):
    c = game.definition.constants
    angle = {x: c["start_pip"][x] * c["step"][x] for x in c["planet_names"]}
    assert c["ruler"]["mars"]["venus"][(angle["mars"] - angle["venus"]) % 24] == 3
    assert c["ruler"]["mars"]["jupiter"][(angle["mars"] - angle["jupiter"]) % 24] == 5
    assert c["outer"]["jupiter"] == 1 and c["outer"]["venus"] == 0


def test_outer_planets_cost_twice_the_ruler_distance(game):
    s = start(game)
    c = game.definition.constants
    fuel = counter(s, "fuel", 0)
    angle = {x: counter(s, "pip")[x] * c["step"][x] for x in c["planet_names"]}
    for planet in c["outer_planets"]:
        assert fuel[planet] == 2 * c["ruler"]["earth"][planet][(angle["earth"] - angle[planet]) % 24]
    assert fuel["mars"] == c["ruler"]["earth"]["mars"][(angle["earth"] - angle["mars"]) % 24]


def test_most_players_cannot_build_a_colony_on_turn_one(game):
    able = {}
    for spec in RESOURCES:
        earths = tuple(f"earth-{r}" for r in [spec] + [r for r in RESOURCES if r != spec])
        s = start(game, earths=earths)
        texts = legal(s)
        able[spec] = any(t.startswith("build_colony") for t in texts)
        # always Espionage and every Tier 1 Research; Tier 3 never
        assert "buy_espionage" in texts
        for tier1 in ("x-large-hadron-collider", "silver-shield-initiative", "international-friendship-station"):
            assert any(t.startswith(f"buy_research {tier1}") for t in texts)
        for tier3 in ("executive-privilege", "ganymede-station", "optimized-shipping-lanes"):
            assert not any(t.startswith(f"buy_research {tier3}") for t in texts)
        assert any(t.startswith(f"buy_research {t2}") for t2 in ("yeti-institute", "lunar-outpost", "superspy-academy")
                   for t in texts) == (spec != "iron")   # "sometimes Tier 2"
    assert sum(able.values()) == 1     # most cannot: only the OXYGEN Earth can
    assert "end_turn" in legal(start(game))   # doing nothing is a valid move


def test_planets_rotate_one_pip_counter_clockwise_after_each_round(game):
    s = start(game)
    c = game.definition.constants
    before = dict(counter(s, "pip"))
    end_turns(s)
    after = counter(s, "pip")
    assert all(after[x] == (before[x] + 1) % c["pips"][x] for x in before)


# ---- colonies ---------------------------------------------------------------------------------------


def test_a_colony_costs_the_base_plus_fuel_paid_to_the_bank(tmp_path):
    game = rigged(tmp_path, rich='for each r in resource_names:\n  receive(0, r, 5)')
    s = start(game)
    act(s, "rig_rich")
    before, bank = res(s, 0), dict(counter(s, "bank"))
    fuel = counter(s, "fuel", 0)["venus"]
    act(s, "build_colony venus-iron")
    after = res(s, 0)
    assert before["iron"] - after["iron"] == 1 and before["water"] - after["water"] == 1
    assert before["oxygen"] - after["oxygen"] == 2 and before["fuel"] - after["fuel"] == fuel == 3
    assert counter(s, "bank")["fuel"] == bank["fuel"] + 3
    assert zone(s, "colonies", 0) == ["venus-iron"] and ships(s, 0) == 2
    assert counter(s, "fuel", 0)["venus"] == 0     # the second Venus colony: no FUEL


def test_gathering_includes_new_colonies_and_doubles_monopolies(tmp_path):
    game = rigged(tmp_path, mars='move [c for c in colony_bank if c.planet == "mars"] to colonies(0)',
                  venus='move cards_named("venus-iron", colony_bank) to colonies(0)')
    s = start(game)                    # P1: Earth OXYGEN
    act(s, "rig_mars")
    act(s, "rig_venus")
    before = res(s, 0)
    s.apply_action("end_turn")
    got = {r: res(s, 0)[r] - before[r] for r in RESOURCES}
    # Earth: 2 OXYGEN + 1 each; Mars monopoly: 2 IRON + 2 WATER; Venus IRON: 1
    assert got == {"iron": 1 + 2 + 1, "fuel": 1, "water": 1 + 2, "oxygen": 2}


def test_bank_runs_dry_you_draw_what_is_left(tmp_path):
    game = rigged(tmp_path, drain='set bank["water"] to 1')
    s = start(game)
    act(s, "rig_drain")
    before = res(s, 0)["water"]
    s.apply_action("end_turn")
    assert res(s, 0)["water"] == before + 1 and counter(s, "bank")["water"] == 0


# ---- research ---------------------------------------------------------------------------------------


def test_research_in_any_order_if_unowned(tmp_path):
    game = rigged(tmp_path, rich='for each r in resource_names:\n  receive(0, r, 6)',
                  take='move cards_named("ganymede-station", research_bank) to research(1)')
    s = start(game)
    act(s, "rig_rich")
    act(s, "rig_take")
    assert not any("ganymede-station" in t for t in legal(s))
    act(s, "buy_research executive-privilege")       # Tier 3 first is fine
    assert zone(s, "research", 0) == ["executive-privilege"] and ships(s, 0) == 2


def test_research_powers(tmp_path):
    game = rigged(tmp_path, rich='for each r in resource_names:\n  receive(0, r, 6)',
                  own='for each x in ["x-large-hadron-collider", "yeti-institute", "lunar-outpost",'
                      ' "ganymede-station", "optimized-shipping-lanes"]:\n'
                      '  move cards_named(x, research_bank) to research(0)')
    s = start(game)
    act(s, "rig_rich")
    fuel_before = dict(counter(s, "fuel", 0))
    act(s, "rig_own")
    fuel = counter(s, "fuel", 0)
    assert value(s, "trade_rate", 0) == 2                                   # X-Large Hadron Collider
    assert fuel["jupiter"] == 0                                             # Ganymede Station
    assert fuel["saturn"] < fuel_before["saturn"]                           # Optimized Shipping Lanes
    assert fuel["mars"] == max(0, fuel_before["mars"] - 1)                  # Lunar Outpost
    assert not value(s, "spy_at_once", 0) and not value(s, "shielded", 0) and not value(s, "shoots_down", 0)
    before = res(s, 0)["oxygen"]
    s.apply_action("end_turn")
    assert res(s, 0)["oxygen"] == before + 3                                # Y.E.T.I.: +1 specialty


def test_executive_privilege_activates_espionage_the_turn_it_is_acquired(tmp_path):
    game = rigged(tmp_path, rich='for each r in resource_names:\n  receive(0, r, 6)',
                  ep='move cards_named("executive-privilege", research_bank) to research(0)')
    s = start(game)
    act(s, "rig_rich")
    assert not any(t.startswith("activate") for t in legal(s))
    act(s, "rig_ep")
    assert any(t.startswith("activate secret-nuclear-facilities") for t in legal(s))


def test_superspy_academy_activates_for_free(tmp_path):
    game = rigged(tmp_path, spy='move cards_named("superspy-academy", research_bank) to research(0)\n'
                                'move cards_named("executive-privilege", research_bank) to research(0)')
    s = start(game)
    act(s, "rig_spy")
    before = res(s, 0)
    act(s, "activate secret-nuclear-facilities")
    assert res(s, 0) == before and counter(s, "nukes", 0) == 1


# ---- espionage ---------------------------------------------------------------------------------------


def test_buying_espionage_draws_from_the_deck_and_waits_a_full_round(game):
    s = start(game)
    act(s, "buy_espionage")
    assert len(zone(s, "spies", 0)) == 2 and len(zone(s, "spy_deck")) == 39
    assert res(s, 0)["fuel"] == 0 and res(s, 0)["water"] == 0
    assert not any(t.startswith("activate") for t in legal(s))


def test_an_espionage_card_is_used_once_and_goes_to_the_own_discard_pile(tmp_path):
    game = rigged(tmp_path, rich='for each r in resource_names:\n  receive(0, r, 6)')
    s = start(game)
    end_turns(s)
    act(s, "rig_rich")
    before = res(s, 0)
    act(s, "activate secret-nuclear-facilities")
    assert zone(s, "used", 0) == ["secret-nuclear-facilities"] and zone(s, "spies", 0) == []
    assert counter(s, "nukes", 0) == 1 and counter(s, "nuke_bank") == 11
    assert before["iron"] - res(s, 0)["iron"] == 1 and before["fuel"] - res(s, 0)["fuel"] == 1
    assert counter(s, "spied", 0) == 1


def espionage_game(tmp_path: pathlib.Path, card: str, extra: str = "") -> Any:
    """P1 holds `card`, ready to activate, and plenty of resources."""
    return rigged(tmp_path, card=textwrap.dedent(f"""\
        for each r in resource_names:
          receive(0, r, 6)
        move top(cards_named("{card}", spy_deck)) to spies(0)
        for each c in spies(0):
          set c.got to 0
        """) + extra)


def test_misplaced_shipments_steals_one_random_resource_from_each_opponent(tmp_path):
    s = start(espionage_game(tmp_path, "misplaced-shipments"))
    end_turns(s)
    act(s, "rig_card")
    others = [sum(res(s, p).values()) for p in (1, 2, 3)]
    mine = sum(res(s, 0).values())
    act(s, "activate misplaced-shipments")
    assert [sum(res(s, p).values()) for p in (1, 2, 3)] == [n - 1 for n in others]
    assert sum(res(s, 0).values()) == mine - 1 + 3      # paid 1 FUEL, stole 3


def test_silver_shield_protects_resources_and_espionage_cards(tmp_path):
    s = start(espionage_game(tmp_path, "misplaced-shipments",
                             'move cards_named("silver-shield-initiative", research_bank) to research(1)'))
    end_turns(s)
    act(s, "rig_card")
    p2 = res(s, 1)
    act(s, "activate misplaced-shipments")
    assert res(s, 1) == p2


def test_hack_the_planet_lends_every_owned_research_power_for_the_turn(tmp_path):
    s = start(espionage_game(tmp_path, "hack-the-planet",
                             'move cards_named("ganymede-station", research_bank) to research(2)'))
    end_turns(s)
    act(s, "rig_card")
    assert counter(s, "fuel", 0)["jupiter"] > 0
    act(s, "activate hack-the-planet")
    assert counter(s, "fuel", 0)["jupiter"] == 0 and value(s, "fuel_from", 0) == ["jupiter"]
    assert value(s, "trade_rate", 0) == 3                # unowned Research lends nothing
    end_turns(s)
    assert value(s, "fuel_from", 0) == [] and counter(s, "fuel", 0)["jupiter"] > 0


def test_insider_trading_gives_the_secondary_resources(tmp_path):
    s = start(espionage_game(tmp_path, "insider-trading"))
    end_turns(s)
    act(s, "rig_card")
    before = res(s, 0)
    act(s, "activate insider-trading")
    got = {r: res(s, 0)[r] - before[r] for r in RESOURCES}
    assert got == {"iron": 1, "fuel": 1, "water": 1 - 1, "oxygen": 0}   # paid 1 WATER


def test_stowaway_drones_builds_free_on_an_occupied_planet(tmp_path):
    s = start(espionage_game(tmp_path, "stowaway-drones",
                             'move cards_named("saturn-iron", colony_bank) to colonies(1)'))
    end_turns(s)
    act(s, "rig_card")
    act(s, "activate stowaway-drones")
    s.apply_action(legal(s)[0])
    assert zone(s, "colonies", 0) in (["saturn-oxygen"], ["saturn-water"])


def test_double_agents_steals_a_random_espionage_card(tmp_path):
    s = start(espionage_game(tmp_path, "double-agents"))
    end_turns(s)
    act(s, "rig_card")
    act(s, "activate double-agents")
    if s.current_player() == 0 and any(t.startswith("P") for t in legal(s)):
        s.apply_action("P2")
    assert len(zone(s, "spies", 0)) == 2 and sum(len(zone(s, "spies", p)) for p in (1, 2, 3)) == 2


def test_reverse_engineering_copies_a_used_card(tmp_path):
    s = start(espionage_game(tmp_path, "reverse-engineering",
                             'move top(cards_named("insider-trading", spy_deck)) to used(2)'))
    end_turns(s)
    act(s, "rig_card")
    before = res(s, 0)
    act(s, "activate reverse-engineering")
    got = {r: res(s, 0)[r] - before[r] for r in RESOURCES}
    assert got == {"iron": 1 - 1, "fuel": 1, "water": 1 - 1, "oxygen": 0}   # Insider Trading, paid IRON+WATER
    assert zone(s, "used", 2) == ["insider-trading"]


# ---- nukes ----------------------------------------------------------------------------------------------


def nuke_game(tmp_path: pathlib.Path, extra: str = "") -> Any:
    return rigged(tmp_path, arm=textwrap.dedent("""\
        gain 1 nukes(0)
        lose 1 nuke_bank
        move cards_named("mars-iron", colony_bank) to colonies(1)
        move cards_named("lunar-outpost", research_bank) to research(1)
        """) + extra)


def test_a_nuke_destroys_a_colony_which_returns_to_the_bank(tmp_path):
    s = start(nuke_game(tmp_path))
    act(s, "rig_arm")
    targets = [t for t in legal(s) if t.startswith("nuke")]
    assert targets == ["nuke P2 mars-iron#8", "nuke P2 lunar-outpost#29"] or len(targets) == 2
    assert not any("earth" in t or "bonus" in t for t in targets)     # Earth bases are immune
    assert ships(s, 1) == 3
    act(s, "nuke P2 mars-iron")
    assert zone(s, "colonies", 1) == [] and "mars-iron" in zone(s, "colony_bank")
    assert ships(s, 1) == 2 and counter(s, "nukes", 0) == 0 and counter(s, "nuke_bank") == 12
    assert not any(t.startswith("nuke") for t in legal(s))


def test_international_friendship_station_shoots_a_nuke_down(tmp_path):
    game = nuke_game(tmp_path, 'move cards_named("international-friendship-station", research_bank) to research(1)\n'
                               'gain 1 nukes(1)\nlose 1 nuke_bank')
    s = start(game)
    act(s, "rig_arm")
    act(s, "nuke P2 mars-iron")
    assert s.current_player() == 1 and set(legal(s)) == {'"shoot it down"', '"let it hit"'}
    s.apply_action('"shoot it down"')
    assert zone(s, "colonies", 1) == ["mars-iron"]
    assert counter(s, "nukes", 0) == 0 and counter(s, "nukes", 1) == 0 and counter(s, "nuke_bank") == 12


def test_a_bot_with_the_station_always_defends(tmp_path):
    game = nuke_game(tmp_path, 'move cards_named("international-friendship-station", research_bank) to research(1)\n'
                               'gain 1 nukes(1)\nlose 1 nuke_bank')
    s = start(game, seats=["human", "bot", "bot", "bot"])
    act(s, "rig_arm")
    act(s, "nuke P2 mars-iron")
    assert zone(s, "colonies", 1) == ["mars-iron"] and s.current_player() == 0


# ---- trading -------------------------------------------------------------------------------------------------


def test_bank_trade_three_for_one(tmp_path):
    game = rigged(tmp_path, iron='receive(0, "iron", 2)')
    s = start(game)
    assert not any(t.startswith("bank_trade") for t in legal(s))
    act(s, "rig_iron")
    act(s, "bank_trade iron fuel")
    assert res(s, 0)["iron"] == 0 and res(s, 0)["fuel"] == 2


def test_trading_between_players_accept_and_decline(tmp_path):
    game = rigged(tmp_path, mars='move cards_named("mars-iron", colony_bank) to colonies(1)')
    s = start(game)
    act(s, "rig_mars")
    for answer in ("decline", "accept"):
        before = (res(s, 0)["oxygen"], res(s, 1)["oxygen"])
        act(s, "trade P2")
        s.apply_action('"give a resource"')
        s.apply_action("oxygen")
        s.apply_action('"ask for a colony or research"')       # the only one: taken at once
        s.apply_action("propose")
        assert s.current_player() == 1
        assert "accept" in legal(s) and "decline" in legal(s)
        s.apply_action(answer)
        assert "trade P2" in legal(s)        # more than one offer per partner per turn
        if answer == "decline":
            assert zone(s, "colonies", 1) == ["mars-iron"]
            end_turns(s)
    assert zone(s, "colonies", 0) == ["mars-iron"] and zone(s, "colonies", 1) == []
    assert (res(s, 0)["oxygen"], res(s, 1)["oxygen"]) == (before[0] - 1, before[1] + 1)
    assert ships(s, 0) == 2 and ships(s, 1) == 1


def test_earth_bases_and_bonus_tokens_are_never_traded(tmp_path):
    game = rigged(tmp_path, bonus='move cards_named("farthest-out", bonus_bank) to bonuses(0)')
    s = start(game)
    act(s, "rig_bonus")
    act(s, "trade P2")
    s.apply_action('"give a colony, research or espionage card"')
    assert not any("earth" in t or "farthest" in t for t in legal(s))


def test_trades_are_not_offered_to_bots(game):
    s = start(game, seats=["human", "bot", "bot", "bot"])
    assert not any(t.startswith("trade") for t in legal(s))


# ---- bonus tokens ---------------------------------------------------------------------------------------------


def test_farthest_out_goes_first_then_passes_to_a_farther_colony(tmp_path):
    game = rigged(tmp_path, j1='move cards_named("jupiter-water", colony_bank) to colonies(1)',
                  j0='move cards_named("jupiter-oxygen", colony_bank) to colonies(0)',
                  s2='move cards_named("saturn-iron", colony_bank) to colonies(2)')
    s = start(game)
    act(s, "rig_j1")
    assert zone(s, "bonuses", 1) == ["farthest-out"] and ships(s, 1) == 3   # a ship on the token
    act(s, "rig_j0")                    # a tie stays with whoever got there first
    assert zone(s, "bonuses", 1) == ["farthest-out"]
    act(s, "rig_s2")
    assert zone(s, "bonuses", 2) == ["farthest-out"] and zone(s, "bonuses", 1) == []


def test_prestigious_universities_at_two_research_and_transfer(tmp_path):
    game = rigged(tmp_path, a='move cards_named("lunar-outpost", research_bank) to research(1)',
                  b='move cards_named("yeti-institute", research_bank) to research(1)',
                  c='move research_bank to research(3)')
    s = start(game)
    act(s, "rig_a")
    assert zone(s, "bonuses", 1) == []
    act(s, "rig_b")
    assert zone(s, "bonuses", 1) == ["prestigious-universities"]
    act(s, "rig_c")
    assert zone(s, "bonuses", 3) == ["prestigious-universities"]


def test_central_intelligence_at_three_activations(tmp_path):
    game = rigged(tmp_path, a='gain 2 spied(2)', b='gain 1 spied(2)', c='gain 3 spied(1)', d='gain 1 spied(1)')
    s = start(game)
    act(s, "rig_a")
    assert zone(s, "bonuses", 2) == []
    act(s, "rig_b")
    assert zone(s, "bonuses", 2) == ["central-intelligence"]
    act(s, "rig_c")                      # 3 vs 3: a tie stays
    assert zone(s, "bonuses", 2) == ["central-intelligence"]
    act(s, "rig_d")
    assert zone(s, "bonuses", 1) == ["central-intelligence"]


def test_bonus_tokens_cannot_be_nuked(tmp_path):
    game = rigged(tmp_path, arm='gain 1 nukes(0)\nlose 1 nuke_bank\n'
                                'move cards_named("farthest-out", bonus_bank) to bonuses(1)')
    s = start(game)
    act(s, "rig_arm")
    assert not any(t.startswith("nuke") for t in legal(s))


# ---- winning ----------------------------------------------------------------------------------------------------


def test_the_tenth_ship_wins_immediately(tmp_path):
    game = rigged(tmp_path, eight=textwrap.dedent("""\
        for each c in [c for c in colony_bank if c.planet in ["mars", "venus", "mercury"]]:
          move c to colonies(0)
        move cards_named("saturn-iron", colony_bank) + cards_named("saturn-water", colony_bank) to colonies(0)
        """))
    s = start(game)
    act(s, "rig_eight")                 # Earth + 8 colonies + Farthest Out = 10
    assert s.is_terminal() and s.winners == [0] and s.current_player() == TERMINAL


def test_the_tenth_ship_by_research_ends_the_game_at_once(tmp_path):
    game = rigged(tmp_path, seven=textwrap.dedent("""\
        for each c in [c for c in colony_bank if c.planet in ["mars", "venus", "mercury"]]:
          move c to colonies(1)
        move cards_named("neptune-iron", colony_bank) to colonies(1)
        receive(0, "fuel", 3)
        """))
    s = start(game)
    act(s, "rig_seven")                 # P2: Earth + 7 colonies + Farthest Out = 9
    assert ships(s, 1) == 9 and not s.is_terminal()
    act(s, "buy_research international-friendship-station")
    assert not s.is_terminal()
    s.apply_action("end_turn")
    assert s.current_player() == 1
    game_state_texts = legal(s)
    assert any(t.startswith("buy_research") for t in game_state_texts)
    act(s, "buy_research x-large-hadron-collider")
    assert s.is_terminal() and s.winners == [1]


# ---- bots ----------------------------------------------------------------------------------------------------------


def bot_game(tmp_path: pathlib.Path, **extra: str) -> Any:
    """`rig_face{N}` makes P2 act out die face N; more rigs can be added."""
    effects = {f"face{n}": f"bot_act(1, {n})" for n in range(1, 7)}
    effects.update(extra)
    return rigged(tmp_path, **effects)


def test_bot_face_1_draws_an_espionage_card_when_none_is_ready(tmp_path):
    s = start(bot_game(tmp_path))
    before = res(s, 1)
    act(s, "rig_face1")
    assert len(zone(s, "spies", 1)) == 2 and res(s, 1) == before     # drawn, left unactivated


def test_bot_face_1_activates_a_ready_card(tmp_path):
    s = start(bot_game(tmp_path))
    end_turns(s)
    act(s, "rig_face1")                # its Secret Nuclear Facilities, free
    assert zone(s, "used", 1) == ["secret-nuclear-facilities"] and counter(s, "nukes", 1) == 1
    assert counter(s, "spied", 1) == 1


def test_bot_face_2_takes_research_from_the_top_of_the_list_for_free(tmp_path):
    s = start(bot_game(tmp_path, gone='move cards_named("x-large-hadron-collider", research_bank) to research(2)'))
    act(s, "rig_gone")
    before = res(s, 1)
    act(s, "rig_face2")
    assert zone(s, "research", 1) == ["silver-shield-initiative"] and res(s, 1) == before


def test_bot_face_2_without_research_builds_a_colony(tmp_path):
    s = start(bot_game(tmp_path, gone='for each c in research_bank:\n'
                                      '  move c to research((c.list_order - 1) % 3 + 1)'))
    act(s, "rig_gone")
    act(s, "rig_face2")
    assert len(zone(s, "colonies", 1)) == 1


def test_bot_face_3_colony_by_primary_then_secondary_inner_first(tmp_path):
    # P2 is Earth IRON: secondary FUEL, WATER, OXYGEN.
    s = start(bot_game(tmp_path, take='move [c for c in colony_bank if c.resource == "iron"'
                                      ' and c.planet in inner_planets] to colonies(3)'))
    before = res(s, 1)
    act(s, "rig_face3")
    assert zone(s, "colonies", 1) == ["mercury-iron"]
    assert res(s, 1)["iron"] == before["iron"] + 1          # a resource of that type
    act(s, "rig_take")
    act(s, "rig_face3")                # no inner IRON left: first secondary, FUEL (Mercury)
    assert zone(s, "colonies", 1) == ["mercury-iron", "mercury-fuel"]


def test_bot_face_3_outer_planets_once_inner_are_full(tmp_path):
    s = start(bot_game(tmp_path, full='for each c in [c for c in colony_bank if c.planet in inner_planets]:\n'
                                      '  move c to colonies(3)'))
    act(s, "rig_full")
    act(s, "rig_face3")
    assert zone(s, "colonies", 1) == ["saturn-iron"]       # IRON first: Jupiter has none
    assert zone(s, "bonuses", 1) == ["farthest-out"]        # bots compete for Bonus tokens


def test_bot_face_3_with_no_colony_takes_research(tmp_path):
    s = start(bot_game(tmp_path, full=textwrap.dedent("""\
        let i = 0
        for each c in colony_bank:
          move c to colonies([0, 2, 3][i % 3])
          set i to i + 1
        """)))
    act(s, "rig_full")
    assert not s.is_terminal() and zone(s, "colony_bank") == []
    act(s, "rig_face3")
    assert zone(s, "research", 1) == ["x-large-hadron-collider"]


def test_bot_with_nothing_to_build_does_espionage(tmp_path):
    s = start(bot_game(tmp_path, empty='move colony_bank to earth_bank\nmove research_bank to earth_bank'))
    act(s, "rig_empty")                # (a test-only way to empty both markets)
    act(s, "rig_face3")
    assert len(zone(s, "spies", 1)) == 2
    act(s, "rig_face2")
    assert len(zone(s, "spies", 1)) == 3


def test_bot_faces_4_and_5_do_espionage_then_research_or_colony(tmp_path):
    s = start(bot_game(tmp_path))
    act(s, "rig_face4")
    assert len(zone(s, "spies", 1)) == 2 and zone(s, "research", 1) == ["x-large-hadron-collider"]
    act(s, "rig_face5")
    assert len(zone(s, "spies", 1)) == 3 and zone(s, "colonies", 1) == ["mercury-iron"]


def test_bot_face_6_rolls_again(game):
    again = 0
    for seed in range(10):
        s = start(game, seats=["human", "bot", "bot", "bot"], seed=seed)
        for _ in range(6):
            if s.is_terminal():
                break
            end_turns(s)
        lines = s.log
        for i, line in enumerate(lines[:-1]):
            if "(bot) rolls 6" in line:
                nxt = next((x for x in lines[i + 1:] if "rolls" in x or x.startswith("P1")), "")
                assert "(bot) rolls" in nxt and nxt.split()[0] == line.split()[0]
                again += 1
    assert again > 0


def test_bot_secret_nuclear_facilities_keeps_one_and_nukes_the_leader(tmp_path):
    s = start(bot_game(tmp_path, setup=textwrap.dedent("""\
        move top(cards_named("secret-nuclear-facilities", spy_deck)) to spies(1)
        for each c in spies(1):
          set c.got to 0
        move cards_named("mars-iron", colony_bank) to colonies(3)
        move cards_named("mars-water", colony_bank) to colonies(3)
        """)))
    act(s, "rig_setup")
    act(s, "rig_face1")
    assert counter(s, "nukes", 1) == 1
    act(s, "rig_face1")                # a second: used at once on the leading opponent (P4)
    assert counter(s, "nukes", 1) == 1 and len(zone(s, "colonies", 3)) == 1
    assert counter(s, "nuke_bank") == 11


def test_bot_espionage_meanings(tmp_path):
    game = rigged(tmp_path, **{
        "ms": 'rig_bot(1, "misplaced-shipments")', "it": 'rig_bot(1, "insider-trading")',
        "re": 'rig_bot(1, "reverse-engineering")', "ht": 'rig_bot(1, "hack-the-planet")',
        "sd": 'rig_bot(1, "stowaway-drones")', "da": 'rig_bot(1, "double-agents")',
        "occupy": 'move cards_named("uranus-oxygen", colony_bank) to colonies(2)',
        "discard": 'move top(cards_named("insider-trading", spy_deck)) to used(2)',
    })
    s = start(game)
    theirs = [sum(res(s, p).values()) for p in (0, 2, 3)]
    mine = sum(res(s, 1).values())
    act(s, "rig_ms")                   # one from each opponent
    assert [sum(res(s, p).values()) for p in (0, 2, 3)] == [n - 1 for n in theirs]
    assert sum(res(s, 1).values()) == mine + 3
    before = res(s, 1)
    act(s, "rig_it")                   # Earth IRON: secondary FUEL, WATER, OXYGEN
    assert {r: res(s, 1)[r] - before[r] for r in RESOURCES} == {"iron": 0, "fuel": 1, "water": 1, "oxygen": 1}
    act(s, "rig_re")                   # nothing discarded yet: draws
    assert len(zone(s, "spies", 1)) == 2
    act(s, "rig_discard")
    before = res(s, 1)
    act(s, "rig_re")                   # replicates Insider Trading
    assert res(s, 1)["fuel"] == before["fuel"] + 1
    hand = len(zone(s, "spies", 1))
    used = len(zone(s, "used", 1))
    act(s, "rig_ht")                   # draws 2, activates the second
    assert len(zone(s, "spies", 1)) + len(zone(s, "used", 1)) - hand - used == 2
    assert len(zone(s, "used", 1)) >= used + 1
    act(s, "rig_sd")                   # no occupied planet with room? Uranus now has room
    act(s, "rig_occupy")
    colonies = len(zone(s, "colonies", 1))
    act(s, "rig_sd")
    assert len(zone(s, "colonies", 1)) == colonies + 1 and "uranus" in zone(s, "colonies", 1)[-1]
    hand = len(zone(s, "spies", 1))
    act(s, "rig_da")                   # steals an Espionage Card
    assert len(zone(s, "spies", 1)) == hand + 1


def test_bot_with_executive_privilege_activates_what_it_draws(tmp_path):
    s = start(bot_game(tmp_path, ep='move cards_named("executive-privilege", research_bank) to research(1)'))
    act(s, "rig_ep")
    spied = counter(s, "spied", 1)
    act(s, "rig_face1")                # the ready starting card, or a draw activated at once
    assert counter(s, "spied", 1) >= spied + 1


def test_bots_never_pay(tmp_path):
    s = start(bot_game(tmp_path))
    for face in (2, 2, 2, 3, 3):
        before = res(s, 1)
        act(s, f"rig_face{face}")
        after = res(s, 1)
        assert all(after[r] >= before[r] for r in RESOURCES)


def test_human_and_bots_play_to_the_end(game):
    for seed in range(3):
        s = game.new_initial_state(4, seed=seed, seats=["human", "bot", "bot", "bot"])
        rng = random.Random(seed)
        steps = 0
        while not s.is_terminal():
            assert s.current_player() == 0
            texts = legal(s)
            s.apply_action(rng.choice(texts) if rng.random() < 0.5 else ("end_turn" if "end_turn" in texts
                                                                         else texts[0]))
            steps += 1
            assert steps < 3000
        assert len(s.winners) == 1 and max(ships(s, p) for p in range(4)) == 10
        assert total_resources(s) == {r: 25 for r in RESOURCES}


# ---- the experienced set-up ---------------------------------------------------------------------------------


def test_experienced_players_take_turns_placing_planets():
    game = load_game(GAME, variants=["experienced"])
    s = game.new_initial_state(4, seed=2, seats=["human"] * 4)
    for _ in range(3):
        s.apply_action(legal(s)[0])             # Earth locations
    placers: list[int] = []
    placed: list[str] = []
    for _ in range(9):
        placers.append(s.current_player())
        if legal(s)[-1].isdigit():      # the last planet is placed without asking
            planet = next(x for x in game.definition.constants["planet_names"]
                          if x not in placed)
        else:
            planet = legal(s)[-1]
            s.apply_action(planet)
        placed.append(planet)
        pips = game.definition.constants["pips"][planet]
        assert legal(s) == [str(i) for i in range(pips)] or len(legal(s)) == pips
        s.apply_action(legal(s)[-1])
        assert counter(s, "pip")[planet] == pips - 1
    assert placers == [0, 1, 2, 3, 0, 1, 2, 3, 0]
    assert "end_turn" in legal(s)


def test_resources_are_conserved_in_random_games(game):
    for seed in range(3):
        s = game.new_initial_state(4, seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
        assert total_resources(s) == {r: 25 for r in RESOURCES}
        assert counter(s, "nuke_bank") + sum(counter(s, "nukes", p) for p in range(4)) == 12
        assert s.winners and max(ships(s, p) for p in range(4)) == 10


def test_farthest_out_passes_when_the_holders_outer_colony_is_nuked(tmp_path):
    game = rigged(tmp_path, setup=textwrap.dedent("""\
        move cards_named("saturn-iron", colony_bank) to colonies(1)
        move cards_named("jupiter-water", colony_bank) to colonies(2)
        gain 1 nukes(0)
        lose 1 nuke_bank
        """))
    s = start(game)
    act(s, "rig_setup")
    assert zone(s, "bonuses", 1) == ["farthest-out"]
    act(s, "nuke P2 saturn-iron")
    assert zone(s, "bonuses", 2) == ["farthest-out"] and ships(s, 1) == 1


def test_always_taking_the_first_legal_action_ends(game):
    s = game.new_initial_state(4, seed=4, seats=["human"] * 4)
    steps = 0
    while not s.is_terminal():
        s.apply_action(s.legal_actions()[0])
        steps += 1
        assert steps < 5000
    assert len(s.winners) == 1


def test_an_empty_espionage_deck_is_rebuilt_from_the_discard_piles(tmp_path):
    game = rigged(tmp_path, empty='move spy_deck to used(2)')
    s = start(game)
    act(s, "rig_empty")
    assert zone(s, "spy_deck") == [] and len(zone(s, "used", 2)) == 40
    act(s, "buy_espionage")
    assert len(zone(s, "spy_deck")) == 39 and zone(s, "used", 2) == [] and len(zone(s, "spies", 0)) == 2


def test_bot_stowaway_drones_and_double_agents_fall_back_to_a_draw(tmp_path):
    game = rigged(tmp_path, sd='rig_bot(1, "stowaway-drones")', da='rig_bot(1, "double-agents")',
                  shield='for each q in [0, 2, 3]:\n  move spies(q) to used(q)')
    s = start(game)
    act(s, "rig_sd")                   # no planet is occupied yet: a draw instead
    assert zone(s, "colonies", 1) == [] and len(zone(s, "spies", 1)) == 2
    act(s, "rig_shield")               # nobody has a card to steal
    act(s, "rig_da")
    assert len(zone(s, "spies", 1)) == 3


def test_silver_shield_stops_a_bots_double_agents(tmp_path):
    game = rigged(tmp_path, da='rig_bot(1, "double-agents")',
                  shield='move cards_named("silver-shield-initiative", research_bank) to research(0)\n'
                         'for each q in [2, 3]:\n  move spies(q) to used(q)')
    s = start(game)
    act(s, "rig_shield")
    act(s, "rig_da")                   # P1 is shielded, P3 and P4 have nothing: a draw
    assert len(zone(s, "spies", 0)) == 1 and len(zone(s, "spies", 1)) == 2
