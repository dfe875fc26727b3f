"""Rocketmen (games/rocketmen) and its Target: Jupiter overlay (games/target-jupiter).

Scenario tests set a situation up directly on a fresh state (cards created in zones,
counters set), then play the actions a person would and check the rule's outcome. The
two worked examples of the Target: Jupiter rulebook (the R&D action of the red player;
the Mission Success tokens at Earth's orbit) and the end-game table are among them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conformance import check_conformance

from interpreter import load_game
from interpreter.runtime.cards import create_cards, remove_card
from interpreter.runtime.counters import set_counter, value_of
from interpreter.runtime.ending import score_winners

ROOT = Path(__file__).resolve().parent.parent
BASE = str(ROOT / "games" / "rocketmen")
JUPITER = str(ROOT / "games" / "target-jupiter")


@pytest.fixture(scope="module")
def base() -> Any:
    return load_game(BASE)


@pytest.fixture(scope="module")
def jupiter() -> Any:
    return load_game(BASE, overlays=[JUPITER])


@pytest.fixture(scope="module")
def jupiter_solo() -> Any:
    return load_game(BASE, overlays=[JUPITER], variants=["solitaire"])


# ---- helpers ---------------------------------------------------------------------------------


def slot_of(s: Any, zone: str, p: int | None = None) -> int:
    z = next(z for z in s.gd.zones if z.name == zone)
    return s.layout.zbase[z.index] + (p if z.scope == "player" else 0)


def cards(s: Any, zone: str, p: int | None = None) -> list[str]:
    return [s.card_text(c).split("#")[0] for c in s.zones[slot_of(s, zone, p)]]


def _counter(s: Any, name: str) -> Any:
    return next(c for c in s.gd.counters if c.name == name)


def _slot(s: Any, name: str, p: int | None, key: str | None) -> tuple[int, int]:
    c = _counter(s, name)
    k = 0 if key is None else list(c.keys).index(key)
    return c.index, (p * c.width if c.scope == "player" else 0) + k


def get(s: Any, name: str, p: int | None = None, key: str | None = None) -> int:
    ci, slot = _slot(s, name, p, key)
    return s.counters[ci][slot]


def put(s: Any, name: str, value: int, p: int | None = None, key: str | None = None) -> None:
    ci, slot = _slot(s, name, p, key)
    set_counter(s, ci, slot, value)
    s.legal_cache = None


def value(s: Any, name: str, p: int = 0) -> Any:
    vdef = next(v for v in s.gd.values if v.name == name)
    return value_of(s, vdef.index, p)


def give(s: Any, ids: list[str], zone: str, p: int | None = None) -> None:
    """Create cards on top of a zone, in order (the last one ends on top)."""
    for card in ids:
        create_cards(s, s.gd.card_index[card], 1, slot_of(s, zone, p))
    s.legal_cache = None


def clear(s: Any, zone: str, p: int | None = None) -> None:
    for iid in list(s.zones[slot_of(s, zone, p)]):
        remove_card(s, iid)
    s.legal_cache = None


def legal(s: Any) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def act(s: Any, text: str) -> None:
    """Apply the legal action whose text, without card copy numbers and quotes, is
    `text` (or starts with `text` and a space). A choice the state took at once (a
    `choose` with a single option) is skipped: the next step is checked instead."""
    options = legal(s)
    if text in options:
        s.apply_action(text)
        return
    plain: dict[str, str] = {}
    for option in options:
        plain.setdefault(re.sub(r"#\d+", "", option).strip('"'), option)
    if text in plain:
        s.apply_action(plain[text])
        return
    found = [o for k, o in plain.items() if k.startswith(text + " ")]
    if found:
        s.apply_action(found[0])
        return
    if text.split(" ")[0] not in {a.id for a in s.gd.actions}:
        return
    raise AssertionError(f"{text!r} is not legal; legal: {options}")


def fresh(game: Any, players: int = 2, seed: int = 1, hand: list[str] | None = None) -> Any:
    s = game.new_initial_state(players, seed=seed)
    if hand is not None:
        clear(s, "hand", 0)
        give(s, hand, "hand", 0)
    return s


# ---- loading, conformance, whole games -----------------------------------------------------------


def test_base_and_expansion_load(base: Any, jupiter: Any) -> None:
    s = fresh(base)
    assert len(s.gd.constants["location_ids"]) == 12
    assert s.gd.constants["cash_token_value"] == 20
    assert len(cards(s, "display")) == 6
    assert len(cards(s, "hand", 0)) == 6 and len(cards(s, "hq", 0)) == 6
    assert sorted(set(cards(s, "hand", 0) + cards(s, "hq", 0))) == sorted(
        ["m-satellite", "m-spaceship", "m-space-hotel", "m-orbital-shipyard", "m-space-station",
         "m-base", "m-asteroid-mining"])
    j = fresh(jupiter)
    consts = j.gd.constants
    assert len(consts["location_ids"]) == 17
    assert consts["dest_distance"]["jupiter"] == 17 and consts["dest_draws"]["jupiter"] == 6
    jup = [loc for loc in consts["location_ids"] if consts["locations"][loc]["dst"] == "jupiter"]
    assert len(jup) == 5
    assert {consts["locations"][loc]["mtype"]: consts["locations"][loc]["match"] for loc in jup} == {
        "satellite": "computers", "spaceship": "composite", "space_hotel": "biotech",
        "asteroid_mining": "biotech", "base": "biotech"}
    assert all(consts["locations"][loc]["slots"] == 1 and consts["locations"][loc]["reward"] == "none" for loc in jup)
    best = max(consts["locations"][loc]["vp_first"] for loc in consts["location_ids"])
    assert consts["locations"]["jupiter_base"]["vp_first"] == best  # "no Location awards more VPs"
    assert consts["cash_token_value"] == 10


def test_expansion_setup(jupiter: Any) -> None:
    for n in (2, 3, 4):
        s = fresh(jupiter, players=n, seed=n)
        assert len(cards(s, "advisor_pool")) == n + 1
        benefits = [c for c in cards(s, "asset_deck") + cards(s, "display")
                    if s.gd.cards[s.gd.card_index[c]].type == "benefit"]
        assert len(benefits) == 4 * n
        assert all(get(s, "ms_one", p) == 1 for p in range(n))
        assert get(s, "rd_supply", key="computers") == n and get(s, "rd_supply", key="insight") == n
        assert all(get(s, "rd_pos", p, t) == 0 for p in range(n) for t in ("earth", "moon", "mars", "jupiter"))
        assert get(s, "jupiter_token") == 0


def test_solitaire_expansion_setup(jupiter_solo: Any) -> None:
    s = fresh(jupiter_solo, players=1, seed=4)
    assert len(cards(s, "advisor_pool")) == 2
    benefits = [c for c in cards(s, "asset_deck") + cards(s, "display")
                if s.gd.cards[s.gd.card_index[c]].type == "benefit"]
    assert len(benefits) == 8
    assert not {"mutual-agreement", "with-a-little-help", "black-market"} & set(benefits)
    assert get(s, "rd_supply", key="biotech") == 2 and get(s, "rd_supply", key="jsuccess") == 2
    assert get(s, "rd_supply", key="insight") == 1
    assert get(s, "ms_one", 0) == 1 and get(s, "ai_ms") == 1
    assert len(cards(s, "solo_deck")) == 12


@pytest.mark.parametrize("variants", [[], ["solitaire"]])
def test_expansion_conformance(variants: list[str]) -> None:
    check_conformance(BASE, overlays=[JUPITER], variants=variants, games=2)


@pytest.mark.parametrize("overlays", [[], [JUPITER]])
def test_bot_games_end_by_the_threshold(overlays: list[str]) -> None:
    game = load_game(BASE, overlays=overlays)
    reasons = []
    for seed in range(6):
        s = game.new_initial_state(2, seed=seed, seats=["rocket-bot", "rocket-bot"])
        assert s.is_terminal()
        reasons.append(s.end_reason)
        assert s.winners
    assert "threshold" in reasons


# ---- base game rules --------------------------------------------------------------------------


def test_buying_discards_cards_whose_money_adds_up(base: Any) -> None:
    s = fresh(base, hand=["m-satellite", "m-space-hotel", "m-spaceship"])
    put(s, "cash_tokens", 0, 0)
    act(s, "buy small-rocket-boosters")          # $20
    act(s, "play a card")
    act(s, "m-satellite")
    act(s, "play a card")
    act(s, "m-space-hotel")
    assert sorted(cards(s, "discard", 0)) == ["m-satellite", "m-space-hotel", "small-rocket-boosters"]
    assert cards(s, "hand", 0) == ["m-spaceship"]


def test_launch_pad_costs_10_and_never_two_of_a_name(base: Any) -> None:
    s = fresh(base, hand=["small-rocket-boosters", "small-rocket-boosters", "m-satellite"])
    put(s, "cash_tokens", 0, 0)
    act(s, "to_pad small-rocket-boosters")
    act(s, "play a card")
    act(s, "m-satellite")
    assert cards(s, "launch_pad", 0) == ["small-rocket-boosters"]
    assert not any(a.startswith("to_pad") for a in legal(s))


def _launch_ready(game: Any, mission: str, pad: list[str], deck_top: list[str]) -> Any:
    s = fresh(game, hand=[mission])
    give(s, pad, "launch_pad", 0)
    clear(s, "ms_deck")
    give(s, ["ms-0"] * 3 + list(reversed(deck_top)), "ms_deck")
    return s


def test_launch_success_scores_first_and_gives_the_achievement(base: Any) -> None:
    s = _launch_ready(base, "m-satellite", ["small-rocket-boosters"], ["ms-4", "ms-4"])
    act(s, "launch m-satellite")       # only Earth's orbit Satellite needs 2 rocket points
    act(s, "draw")
    act(s, "draw")
    assert get(s, "completed", 0, "earth_satellite") == 1 and get(s, "vp", 0) == 2
    assert get(s, "boost_tokens", 0) == 1
    assert cards(s, "discard", 0) == ["small-rocket-boosters"] and cards(s, "flight", 0) == []
    assert "launch" not in " ".join(legal(s))   # one launch per turn


def test_abort_loses_one_pad_card_and_failure_discards_the_pad(base: Any) -> None:
    s = _launch_ready(base, "m-satellite", ["small-rocket-boosters", "solid-fuel-booster"], ["ms-1"])
    act(s, "launch m-satellite")
    act(s, "draw")
    act(s, "stop")
    act(s, "small-rocket-boosters")
    assert cards(s, "launch_pad", 0) == ["solid-fuel-booster"] and cards(s, "hand", 0) == ["m-satellite"]
    s = _launch_ready(base, "m-satellite", ["small-rocket-boosters", "solid-fuel-booster"], ["ms-0", "ms-1", "ms-1"])
    act(s, "launch m-satellite")
    for _ in range(3):
        act(s, "draw")
    assert get(s, "completed", 0, "earth_satellite") == 0
    assert cards(s, "launch_pad", 0) == [] and len(cards(s, "discard", 0)) == 3


def test_matching_items_advance_the_rocket_before_drawing(base: Any) -> None:
    s = _launch_ready(base, "m-satellite", ["small-rocket-boosters", "computer-lab"], ["ms-2", "ms-2", "ms-2"])
    put(s, "item_tokens", 1, 0, "computers")
    put(s, "boost_tokens", 1, 0)
    act(s, "launch m-satellite")
    assert get(s, "rocket_pos") == 3        # Computer Lab + Computers token + Rocket token


def test_base_end_triggers_and_tie_breaks(base: Any) -> None:
    ids = [e.id for e in base.definition.ends]
    assert {"threshold", "board-full", "last-mission-token"} <= set(ids)


# ---- Mission cards' own rewards, linked cards ------------------------------------------------


def test_each_mission_card_names_its_own_reward(base: Any) -> None:
    s = fresh(base)
    by_kind = s.gd.constants["mission_reward"]
    missions = [c for c in s.gd.cards if c.type == "mission"]
    assert len(missions) == 7
    for c in missions:
        assert c.properties["reward"] in {"boost", "hand", "cash", "computers", "composite", "biotech", "science"}
        assert by_kind[c.properties["kind"]] == c.properties["reward"]      # the track view's table agrees
        assert "Reward: " in c.text
    assert all(loc["reward"] == "card" for loc in s.gd.constants["locations"].values())


def test_mission_success_gives_the_mission_cards_reward(base: Any) -> None:
    # The Moon's Spaceship: the card's reward (a Computers token), not the Location's.
    s = _launch_ready(base, "m-spaceship", ["small-rocket-boosters", "large-rocket-boosters"], ["ms-4", "ms-4", "ms-4"])
    act(s, "launch m-spaceship moon_spaceship")
    for _ in range(3):
        act(s, "draw")
    assert get(s, "completed", 0, "moon_spaceship") == 1 and get(s, "vp", 0) == 5   # Location VP as before
    assert get(s, "item_tokens", 0, "computers") == 1 and get(s, "item_tokens", 0, "composite") == 0
    assert get(s, "tally", 0, "achievements") == 1
    # Space Station: a larger hand.
    s = _launch_ready(base, "m-space-station", ["ion-drive"], ["ms-4", "ms-4"])
    act(s, "launch m-space-station")
    act(s, "draw")
    act(s, "draw")
    assert get(s, "hand_bonus", 0) == 1 and value(s, "hand_size", 0) == 7
    assert cards(s, "flight", 0) == [] and "m-space-station" not in cards(s, "discard", 0)


def test_jupiter_gives_no_mission_card_reward(jupiter: Any) -> None:
    s = _launch_ready(jupiter, "m-space-hotel", ["ion-drive", "nuclear-thermal-rocket"], ["ms-4"] * 5)
    put(s, "cash_tokens", 0, 0)
    act(s, "launch m-space-hotel jupiter_space_hotel")
    while get(s, "completed", 0, "jupiter_space_hotel") == 0 and "draw" in legal(s):
        act(s, "draw")
    assert get(s, "completed", 0, "jupiter_space_hotel") == 1
    assert get(s, "cash_tokens", 0) == 0 and get(s, "tally", 0, "achievements") == 0
    assert get(s, "vp", 0) == 10 + 1                       # Location VP and the Jupiter token


def test_a_linked_card_solves_a_threat(base: Any) -> None:
    s = fresh(base, hand=["genome-lab", "computer-lab", "m-satellite"])
    clear(s, "display")
    clear(s, "asset_deck")
    give(s, ["pandemic", "asteroid-impact", "research-grant"], "display")
    options = [a for a in legal(s) if a.startswith("solve_linked")]
    assert len(options) == 1 and "genome-lab" in options[0] and "pandemic" in options[0]  # nothing for Computer Lab
    act(s, "solve_linked genome-lab pandemic")
    assert get(s, "vp", 0) == 2 and get(s, "tally", 0, "threats") == 1
    assert get(s, "actions_used", 0) == 1
    assert cards(s, "solved") == ["pandemic"]
    assert "genome-lab" not in cards(s, "hand", 0) + cards(s, "discard", 0) + cards(s, "solved")
    assert cards(s, "display") == ["asteroid-impact", "research-grant"]
    assert not any(a.startswith("solve_linked") for a in legal(s))


def test_rocket_bot_uses_linked_cards(base: Any) -> None:
    used = 0
    for seed in range(6):
        s = base.new_initial_state(2, seed=seed, seats=["rocket-bot", "rocket-bot"])
        assert s.is_terminal()
        used += sum("(linked card)" in line for line in s.log)
    assert used > 0


# ---- Target: Jupiter: Variant cards ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_variant_cards_are_revealed_at_setup(jupiter: Any, players: int) -> None:
    s = fresh(jupiter, players=players, seed=players)
    shown = cards(s, "variant_cards")
    assert len(shown) == 2 and all(c.startswith("variant-") for c in shown)
    assert cards(s, "variant_deck") == []
    for p in range(players):
        assert value(s, "variant_points", p) == 0
        assert s.gd.cards[s.gd.card_index[shown[0]]].name in _views(s, p)["variants"]


def test_variant_cards_in_solitaire(jupiter_solo: Any) -> None:
    s = fresh(jupiter_solo, players=1, seed=2)
    assert len(cards(s, "variant_cards")) == 2


def test_variant_cards_score_at_the_end(jupiter: Any) -> None:
    s = fresh(jupiter)
    clear(s, "variant_cards")
    give(s, ["variant-red-colony", "variant-grand-tour", "variant-frequent-flyer"], "variant_cards")
    put(s, "tally", 1, 0, "mars")
    assert value(s, "variant_points", 0) == 0
    put(s, "tally", 2, 0, "mars")
    assert value(s, "variant_points", 0) == 3               # Red Colony
    for d in ("earth", "moon", "jupiter"):
        put(s, "tally", 1, 0, d)
    assert value(s, "variant_points", 0) == 3 + 4           # and Grand Tour
    put(s, "missions_done", 5, 0)
    assert value(s, "variant_points", 0) == 3 + 4 + 3       # and Frequent Flyer
    assert value(s, "variant_points", 1) == 0               # every player for themselves
    # added at the end only (rule change 4), with the Personal Goal and the MS tokens
    assert get(s, "vp", 0) == 0
    assert value(s, "end_bonus", 0) == value(s, "goal_points", 0) + 10 + 1   # + the starting MS token (1 VP)
    assert value(s, "total", 0) == get(s, "vp", 0) + value(s, "end_bonus", 0)
    view = _views(s, 1)["variants"]
    assert "Red Colony" in view and "P1 2/2 ok" in view and "P2(you) 0/2" in view


# ---- Target: Jupiter: the worked examples ----------------------------------------------------------


def test_rd_worked_example_red_player(jupiter: Any) -> None:
    """Bottom track: $10 and any item -> a Mission Success token. Second track, two
    spaces at once: $20 and 1 item in cards, the second item paid by flipping an
    achievement token -> a Rocket token, then an Item (green) token."""
    s = fresh(jupiter, hand=["m-satellite", "m-spaceship", "m-space-hotel", "computer-lab"])
    put(s, "cash_tokens", 0, 0)
    put(s, "item_tokens", 1, 0, "computers")
    act(s, "research earth")
    act(s, "1")                                 # one space
    act(s, "play a card")
    act(s, "m-satellite")                       # $10
    act(s, "play a card")
    act(s, "m-spaceship")                       # an item
    assert get(s, "rd_pos", 0, "earth") == 1 and get(s, "ms_one", 0) == 2
    act(s, "Moon")                              # the same action: the second track
    act(s, "2")                                 # two spaces: $20 and 2 items
    act(s, "play a card")
    act(s, "m-space-hotel")                     # $10
    act(s, "play a card")
    act(s, "computer-lab")                      # $10 and an item
    act(s, "flip an item token")                # the remaining item
    assert get(s, "rd_pos", 0, "moon") == 2
    assert get(s, "boost_tokens", 0) == 1       # space 1: an achievement (Rocket) token
    assert get(s, "rd_items", 0, "composite") == 1 and get(s, "rd_supply", key="composite") == 1
    assert get(s, "item_tokens", 0, "computers") == 0
    act(s, "done")
    assert get(s, "actions_used", 0) == 1       # one action for all of it
    assert cards(s, "hand", 0) == []


def test_mission_success_tokens_worked_example(jupiter: Any) -> None:
    """A Spaceship to Earth's orbit: 2 of 3 draws made, 2 spaces short; two tokens are
    played instead of the third draw and the mission succeeds."""
    s = _launch_ready(jupiter, "m-spaceship", ["large-rocket-boosters"], ["ms-3", "ms-3"])
    put(s, "ms_one", 2, 0)
    act(s, "launch m-spaceship")
    act(s, "draw")
    act(s, "draw")
    assert get(s, "rocket_pos") == 6 and get(s, "draws_left") == 1
    act(s, "play Mission Success tokens")
    act(s, "play a 1 token")
    act(s, "play a 1 token")
    assert get(s, "completed", 0, "earth_spaceship") == 1
    assert get(s, "ms_one", 0) == 0 and get(s, "vp", 0) == 3


@pytest.mark.parametrize(("ones", "twos", "bonus"), [
    (0, 0, 0), (1, 0, 1), (0, 1, 1), (1, 1, 2), (0, 2, 2), (1, 2, 3), (0, 3, 3), (1, 3, 5), (3, 2, 5)])
def test_end_game_mission_success_table(jupiter: Any, ones: int, twos: int, bonus: int) -> None:
    s = fresh(jupiter)
    put(s, "ms_one", ones, 0)
    put(s, "ms_two", twos, 0)
    assert value(s, "end_bonus", 0) - value(s, "goal_points", 0) == bonus
    assert value(s, "total", 0) == get(s, "vp", 0) + value(s, "end_bonus", 0)


# ---- Target: Jupiter: other rules ------------------------------------------------------------------


def test_jupiter_single_slot_and_the_jupiter_token(jupiter: Any) -> None:
    s = _launch_ready(jupiter, "m-satellite", ["ion-drive", "large-rocket-boosters", "small-rocket-boosters"],
                      ["ms-4", "ms-4", "ms-4", "ms-4", "ms-4"])
    act(s, "launch m-satellite jupiter_satellite")
    while get(s, "launch_state") == 1:
        act(s, "draw")
    assert get(s, "completed", 0, "jupiter_satellite") == 1
    assert get(s, "vp", 0) == 9 + 1 and get(s, "jupiter_token") == 1
    assert get(s, "boost_tokens", 0) == 0 and sum(get(s, "item_tokens", 0, k) for k in
                                                  ("computers", "composite", "biotech", "science")) == 0
    # nobody else can go there; the Jupiter token is gone
    act(s, "end_turn")
    clear(s, "hand", 1)
    give(s, ["m-satellite"], "hand", 1)
    give(s, ["ion-drive", "large-rocket-boosters", "small-rocket-boosters"], "launch_pad", 1)
    assert not any(a.endswith("jupiter_satellite") for a in legal(s))


def test_rd_top_space_is_exclusive(jupiter: Any) -> None:
    s = fresh(jupiter, hand=["research-grant"] * 3 + ["computer-lab"] * 3)
    put(s, "rd_pos", 3, 0, "earth")
    put(s, "rd_top_taken", 2, key="earth")    # P2 holds the top space
    assert not any(a == "research earth" for a in legal(s))
    put(s, "rd_top_taken", 0, key="earth")
    act(s, "research earth")
    act(s, "1")
    while "done" not in [a.strip('"') for a in legal(s)]:
        act(s, legal(s)[0].strip('"'))
    assert get(s, "rd_pos", 0, "earth") == 4 and get(s, "vp", 0) == 1 and get(s, "rd_top_taken", key="earth") == 1


def test_display_discard_once_per_turn_not_a_card_placed_this_turn(jupiter: Any) -> None:
    s = fresh(jupiter)
    before = s.zones[slot_of(s, "display")][:]
    act(s, "display_swap " + s.card_text(before[0]))
    after = s.zones[slot_of(s, "display")]
    assert len(after) == 6 and before[0] not in after
    assert cards(s, "display_discards") == [s.card_text(before[0]).split("#")[0]]
    assert not any(a.startswith("display_swap") for a in legal(s))   # once per turn
    s = fresh(jupiter, seed=2)
    act(s, "display_swap")
    # the card that came in this turn cannot be discarded (next turn it can)
    new = s.zones[slot_of(s, "display")][-1]
    assert s.attrs.get((new, "placed")) == s.turn_no


def test_rule_changes_end_and_mission_limit(jupiter: Any) -> None:
    ids = [e.id for e in jupiter.definition.ends]
    assert "board-full" not in ids and "last-mission-token" not in ids and "threshold" in ids
    s = fresh(jupiter)
    assert value(s, "mission_limit", 0) >= 1000
    assert s.gd.constants["threshold"][2:] == [30, 28, 25]


def test_space_hotel_gives_a_10_dollar_token(jupiter: Any) -> None:
    s = _launch_ready(jupiter, "m-space-hotel", ["large-rocket-boosters"], ["ms-4", "ms-4"])
    put(s, "cash_tokens", 0, 0)
    act(s, "launch m-space-hotel earth_space_hotel")
    act(s, "draw")
    act(s, "draw")
    assert get(s, "cash_tokens", 0) == 1 and value(s, "money_avail", 0) == 10


def test_insight_token_chooses_the_first_draw(jupiter: Any) -> None:
    s = _launch_ready(jupiter, "m-satellite", ["small-rocket-boosters"], ["ms-0", "ms-4", "ms-4"])
    put(s, "insight", 1, 0)
    act(s, "launch m-satellite")
    act(s, "use Insight")
    act(s, "ms-4")                       # keep the 4, discard the 0
    assert cards(s, "ms_next") == ["ms-4"]
    act(s, "draw")
    assert get(s, "rocket_pos") == 4 and get(s, "insight", 0) == 1   # an achievement token: it stays


def test_benefit_card_one_effect_per_turn(jupiter: Any) -> None:
    s = fresh(jupiter, hand=["correct-calculation"])
    give(s, ["m-base"] * 8, "hq", 0)
    act(s, "benefit correct-calculation")
    act(s, "second effect")             # remove it from the game, draw up to 7
    act(s, "3")
    assert "correct-calculation" not in cards(s, "hand", 0) and len(cards(s, "hand", 0)) == 3
    s = fresh(jupiter, hand=[])
    give(s, ["correct-calculation"], "launch_pad", 0)
    act(s, "benefit correct-calculation")
    act(s, "first effect")
    assert len(cards(s, "hand", 0)) == 1
    assert not any(a.startswith("benefit") for a in legal(s))


def test_advisor_once_per_turn_and_refresh(jupiter: Any) -> None:
    s = fresh(jupiter)
    give(s, ["talent-scout"], "advisors", 0)
    act(s, "advise talent-scout")
    assert not any(a.startswith("advise") for a in legal(s))
    act(s, "end_turn")
    act(s, "end_turn")                   # P2
    assert any(a.startswith("advise talent-scout") for a in legal(s))


def test_tie_breaks(jupiter: Any) -> None:
    """Tied: the farthest Destination / most VP for one mission, then most missions, then shared."""
    s = fresh(jupiter)
    for p in (0, 1):
        put(s, "vp", 20, p)
        put(s, "ms_one", 0, p)
        clear(s, "goals", p)
    put(s, "farthest", 4, 1)
    put(s, "farthest", 3, 0)
    assert score_winners(s) == [1]
    put(s, "farthest", 4, 0)
    put(s, "best_mission", 12, 0)
    put(s, "best_mission", 10, 1)
    assert score_winners(s) == [0]
    put(s, "best_mission", 10, 0)
    put(s, "missions_done", 3, 1)
    assert score_winners(s) == [1]
    put(s, "missions_done", 3, 0)
    assert score_winners(s) == [0, 1]


# ---- solitaire -----------------------------------------------------------------------------------


def test_solitaire_ai_moves_and_scores(base: Any) -> None:
    game = load_game(BASE, variants=["solitaire"])
    s = game.new_initial_state(1, seed=5)
    act(s, "end_turn")
    assert get(s, "ai_target") >= 0 or len(cards(s, "solo_discard")) > 0
    vps = []
    while not s.is_terminal():
        act(s, "end_turn")
        vps.append(get(s, "ai_vp"))
    assert s.end_reason in ("display-empty", "threshold", "round-cap")
    assert s.returns()[0] in (-1, 1)


def test_solitaire_ai_rd_tokens(jupiter_solo: Any) -> None:
    """An AI R&D token on Earth's orbit (placed when the AI headed there or farther: see
    test_rocketmen_fidelity) moves the AI up the bottom R&D track when its Rocket gets
    there; that space's Mission Success token (1) goes to the AI."""
    s = fresh(jupiter_solo, players=1, seed=3)
    loc = s.gd.constants["location_ids"].index("mars_spaceship")
    put(s, "ai_target", loc)
    put(s, "ai_pos", 7)
    put(s, "ai_marker", 1, key="earth")
    put(s, "ai_marker", 1, key="mars")
    act(s, "end_turn")                    # reaches Earth's orbit: its R&D token moves the AI up
    assert get(s, "ai_marker", key="earth") == 0 and get(s, "ai_rd", key="earth") == 1
    assert get(s, "ai_marker", key="mars") == 1 and get(s, "ai_rd", key="mars") == 0
    assert get(s, "ai_ms") == 2           # space 1 of the bottom track: a Mission Success token (1)
    put(s, "ai_pos", 12)
    act(s, "end_turn")                    # reaches Mars: its mission token, and the Mars R&D token
    assert get(s, "ai_vp") >= 5 and get(s, "taken", key="mars_spaceship") == 1
    assert get(s, "ai_marker", key="mars") == 0 and get(s, "ai_rd", key="mars") == 1


# ---- terminal views --------------------------------------------------------------------------------

VIEW_IDS = {
    "base": {"table", "display", "you", "track"},
    "jupiter": {"table", "display", "you", "track", "rd", "expansion", "variants"},
}


# Zones others may not see, and two cards to fill them with in turn.
HIDDEN_SWAPS = (("hand", "research-grant", "venture-capital"), ("goals", "goal-engineer", "goal-settler"))


def _views(s: Any, p: int) -> dict[str, str]:
    return s.observation(p)["views"]


def _with_cards(s: Any, q: int, zone: str, card: str) -> Any:
    """A copy of the state in which player q's `zone` holds as many copies of `card` as it had cards."""
    t = s.clone()
    size = len(s.zones[slot_of(s, zone, q)])
    clear(t, zone, q)
    give(t, [card] * size, zone, q)
    return t


def _check_views(s: Any, kind: str) -> None:
    for p in range(s.n):
        views = _views(s, p)
        assert set(views) == VIEW_IDS[kind]
        assert all(text.strip() for text in views.values())
        lines = sum(len(text.rstrip("\n").split("\n")) for text in views.values())
        assert lines <= 40, f"views of P{p + 1} take {lines} lines"
        # Another player's hand (and Personal Goals) never show: changing what they hold,
        # not how many, leaves every view of p unchanged, and a card seen nowhere else
        # does not appear.
        for q in range(s.n):
            if q == p:
                continue
            for zone, one, other in HIDDEN_SWAPS:
                seen = _views(_with_cards(s, q, zone, one), p)
                assert seen == _views(_with_cards(s, q, zone, other), p), f"P{p + 1}'s views show P{q + 1}'s {zone}"
            if len(s.zones[slot_of(s, "hand", q)]) and not any(
                s.card_text(c).startswith("pandemic#") for slot in range(len(s.zones)) for c in s.zones[slot]
            ):  # a Threat is never in a hand otherwise
                assert "Pandemic" not in "\n".join(_views(_with_cards(s, q, "hand", "pandemic"), p).values())
        # Your own hand and goals do show.
        for c in s.zones[slot_of(s, "hand", p)] + s.zones[slot_of(s, "goals", p)]:
            assert s.gd.cards[s.card_def[c]].name in views["you"]


@pytest.mark.parametrize(("overlays", "variants", "players"), [
    ([], [], 2), ([], [], 4), ([], ["solitaire"], 1),
    ([JUPITER], [], 3), ([JUPITER], [], 4), ([JUPITER], ["solitaire"], 1)])
def test_views_render_for_every_player_and_hide_other_hands(
    overlays: list[str], variants: list[str], players: int
) -> None:
    import random

    game = load_game(BASE, overlays=overlays, variants=variants)
    kind = "jupiter" if overlays else "base"
    for seed in range(2):
        s = game.new_initial_state(players, seed=seed)
        rng = random.Random(seed)
        step, launches = 0, 0
        _check_views(s, kind)
        while not s.is_terminal() and step < 400:
            prompt = s.prompt() or ""
            if prompt.startswith("Rocket at") and launches < 3:
                launches += 1
                _check_views(s, kind)          # during a launch: the Rocket on the track
                for p in range(s.n):
                    assert "LAUNCH by" in _views(s, p)["track"]
            elif step % 60 == 0:
                _check_views(s, kind)
            s.apply_action(rng.choice(s.legal_actions()))
            step += 1
        _check_views(s, kind)


def test_launch_prompt_and_track_show_the_rocket(base: Any) -> None:
    s = _launch_ready(base, "m-satellite", ["small-rocket-boosters"], ["ms-1"])
    act(s, "launch")
    assert s.prompt().startswith("Rocket at 0 of 8 (Earth's orbit), 8 to go, 3 draw(s) left")
    act(s, "draw")
    track = _views(s, 0)["track"]
    assert "LAUNCH by P1: Satellite at Earth's orbit  [#.......] Rocket at 1 of 8, 2 draw(s) left" in track
    assert "LAUNCH" in _views(s, 1)["track"]
