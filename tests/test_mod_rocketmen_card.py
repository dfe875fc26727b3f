"""Modding one Rocketmen card: an overlay that changes a card's power names only that
card, and the game - a person's actions and the rocket-bot alike - plays the new power.

Two mods: one on the base game (the Satellite Mission's reward becomes 3 VP instead of
a Rocket token) and one on Target: Jupiter over the base game (Fuel Reserve, an
expansion Benefit card, pushes every launch from its owner's Launch Pad one space
further, with no action). Each scenario is played with and without the mod, so the
difference is the card's new power.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from test_rocketmen import act, cards, clear, get, give, put

from interpreter import load_game

ROOT = Path(__file__).resolve().parent.parent
BASE = str(ROOT / "games" / "rocketmen")
JUPITER = str(ROOT / "games" / "target-jupiter")
SETUP_MISSION = str(ROOT / "examples" / "rocketmen-setup-mission")

SATELLITE_MOD = """\
orrery: 1
overlay: satellite-prize
base: rocketmen
name: Satellite prize
description: "The Satellite Mission's reward is 3 VP instead of a Rocket token."
version: "1.0"
patch:
  cards:
    m-satellite:
      text: "Mission: Satellite (any destination). Reward: 3 VP. Else: $10."
      effects:
        reward: |
          gain 3 vp(me)
          log "P{me + 1} gains 3 VP for the Satellite Mission"
"""

FUEL_RESERVE_MOD = """\
orrery: 1
overlay: steady-fuel
base: rocketmen
name: Steady fuel
description: "Fuel Reserve works by itself: every launch from its Launch Pad starts 1 space further."
version: "1.0"
patch:
  cards:
    fuel-reserve:
      text: "2 rocket points. Launch Pad: each of your launches starts 1 space further (no action needed)."
      effects: {first: null}
add:
  cards:
    fuel-reserve:
      active_in: [launch_pad]
      triggers:
        push:
          "on": changed launch_state
          when: "new == 1 and len(flight(owner)) > 0"
          effect: |
            gain 1 rocket_pos
            log "Fuel Reserve pushes P{owner + 1}'s Rocket 1 space"
"""


def _mod(tmp_path: Path, text: str, name: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def _touched(text: str) -> set[tuple[str, str]]:
    """(section, id) of every definition the overlay's operations name."""
    data = yaml.safe_load(text)
    return {(section, key) for op in ("add", "replace", "patch", "remove", "set", "append", "prepend")
            for section, body in (data.get(op) or {}).items() for key in body}


@pytest.mark.parametrize(("text", "card"), [(SATELLITE_MOD, "m-satellite"), (FUEL_RESERVE_MOD, "fuel-reserve")])
def test_each_mod_names_only_its_card(text: str, card: str) -> None:
    assert _touched(text) == {("cards", card)}


# ---- the base game: the Satellite Mission's reward ------------------------------------------------


def _satellite_ready(game: Any, p: int, seats: list[str] | None = None) -> Any:
    """Player p holds a Satellite Mission and 2 rocket points on the Launch Pad; the two
    next Mission Success cards are 4s (Earth's orbit: 8 spaces)."""
    s = game.new_initial_state(2, seed=1, seats=seats)
    clear(s, "hand", p)
    give(s, ["m-satellite"], "hand", p)
    give(s, ["small-rocket-boosters"], "launch_pad", p)
    clear(s, "ms_deck")
    give(s, ["ms-0", "ms-0", "ms-0", "ms-4", "ms-4"], "ms_deck")
    return s


def _launch_satellite(s: Any) -> None:
    act(s, "launch m-satellite")
    act(s, "draw")
    act(s, "draw")


def test_a_person_launching_the_modded_satellite_gets_its_new_reward(tmp_path: Path) -> None:
    plain = _satellite_ready(load_game(BASE), 0)
    _launch_satellite(plain)
    assert get(plain, "vp", 0) == 2 and get(plain, "boost_tokens", 0) == 1      # the printed card
    modded = load_game(BASE, overlays=[_mod(tmp_path, SATELLITE_MOD, "satellite")])
    assert modded.warnings == []
    s = _satellite_ready(modded, 0)
    _launch_satellite(s)
    assert get(s, "completed", 0, "earth_satellite") == 1
    assert get(s, "vp", 0) == 2 + 3 and get(s, "boost_tokens", 0) == 0          # the Location's 2 VP + the card's 3
    assert get(s, "tally", 0, "achievements") == 0
    assert "P1 gains 3 VP for the Satellite Mission" in s.log
    assert cards(s, "flight", 0) == []


def test_the_rocket_bot_plays_the_modded_satellite(tmp_path: Path) -> None:
    """P2 is the rocket-bot: when P1 ends the turn, it launches the Satellite itself."""
    outcome = {}
    for name, overlays in (("plain", []), ("modded", [_mod(tmp_path, SATELLITE_MOD, "satellite")])):
        s = _satellite_ready(load_game(BASE, overlays=overlays), 1, seats=["human", "rocket-bot"])
        act(s, "end_turn")
        assert get(s, "completed", 1, "earth_satellite") == 1, s.log[-10:]
        outcome[name] = (get(s, "vp", 1), get(s, "boost_tokens", 1))
    assert outcome == {"plain": (2, 1), "modded": (5, 0)}


def test_the_example_mods_dealt_mission_has_the_cards_power(tmp_path: Path) -> None:
    """The example mod deals a Satellite Mission at setup: its reward is the card's own,
    so a card mod on top changes what the dealt Mission gives too."""
    game = load_game(BASE, overlays=[SETUP_MISSION, _mod(tmp_path, SATELLITE_MOD, "satellite")])
    s = game.new_initial_state(2, seed=3)
    assert "m-satellite" in cards(s, "hand", 0)
    give(s, ["small-rocket-boosters"], "launch_pad", 0)
    clear(s, "ms_deck")
    give(s, ["ms-0", "ms-0", "ms-0", "ms-4", "ms-4"], "ms_deck")
    act(s, "launch m-satellite earth_satellite")
    act(s, "draw")
    act(s, "draw")
    assert get(s, "vp", 0) == 2 + 3 and get(s, "boost_tokens", 0) == 0


# ---- Target: Jupiter over the base game: Fuel Reserve -----------------------------------------------


def _fuel_ready(game: Any, seats: list[str] | None = None, pad: tuple[str, ...] = ()) -> Any:
    """P2 holds Fuel Reserve and a Spaceship Mission, with Small Rocket Boosters on the
    Launch Pad and one $10 token; the next Mission Success cards are 4, 3, 0 (Earth's
    orbit: 8 spaces in 3 draws, so 7 alone falls one short)."""
    s = game.new_initial_state(2, seed=1, seats=seats)
    clear(s, "hand", 1)
    give(s, ["m-spaceship", "fuel-reserve"], "hand", 1)
    give(s, ["small-rocket-boosters", *pad], "launch_pad", 1)
    put(s, "cash_tokens", 1, 1)
    clear(s, "ms_deck")
    give(s, ["ms-0", "ms-0", "ms-0", "ms-0", "ms-3", "ms-4"], "ms_deck")
    return s


def test_the_rocket_bot_plays_the_modded_fuel_reserve(tmp_path: Path) -> None:
    """The bot puts Fuel Reserve on its Launch Pad (2 rocket points: the Spaceship's 3 are
    reached) and launches: with the mod the Rocket starts a space further and arrives."""
    done = {}
    for name, overlays in (("plain", [JUPITER]), ("modded", [JUPITER, _mod(tmp_path, FUEL_RESERVE_MOD, "fuel")])):
        game = load_game(BASE, overlays=overlays)
        assert game.warnings == []
        s = _fuel_ready(game, seats=["human", "rocket-bot"])
        act(s, "end_turn")
        assert any("launches a Spaceship mission" in line for line in s.log), s.log[-12:]
        done[name] = get(s, "completed", 1, "earth_spaceship")
        pushed = [line for line in s.log if "Fuel Reserve pushes P2" in line]
        assert len(pushed) == (1 if name == "modded" else 0)
    assert done == {"plain": 0, "modded": 1}


def test_the_modded_fuel_reserve_needs_no_action_and_works_only_from_the_launch_pad(tmp_path: Path) -> None:
    game = load_game(BASE, overlays=[JUPITER, _mod(tmp_path, FUEL_RESERVE_MOD, "fuel")])
    fuel = game.new_initial_state(2, seed=1).gd.cards[game.new_initial_state(2, seed=1).gd.card_index["fuel-reserve"]]
    assert "first" not in fuel.effects and fuel.text.startswith("2 rocket points. Launch Pad: each")
    # In P1's hand it offers no Benefit action and pushes nothing.
    s = _fuel_ready(game)
    clear(s, "hand", 0)
    give(s, ["fuel-reserve", "m-satellite"], "hand", 0)
    give(s, ["small-rocket-boosters"], "launch_pad", 0)
    assert not any(str(a).startswith("benefit") for a in s.legal_actions())
    act(s, "launch m-satellite earth_satellite")
    assert get(s, "rocket_pos") == 0
    # On the Launch Pad it pushes its owner's launch (and the unmodded card would not).
    s = _fuel_ready(game)
    clear(s, "hand", 0)
    give(s, ["m-satellite"], "hand", 0)
    give(s, ["small-rocket-boosters", "fuel-reserve"], "launch_pad", 0)
    act(s, "launch m-satellite earth_satellite")
    assert get(s, "rocket_pos") == 1
    plain = _fuel_ready(load_game(BASE, overlays=[JUPITER]))
    clear(plain, "hand", 0)
    give(plain, ["m-satellite"], "hand", 0)
    give(plain, ["small-rocket-boosters", "fuel-reserve"], "launch_pad", 0)
    act(plain, "launch m-satellite earth_satellite")
    assert get(plain, "rocket_pos") == 0


def test_a_card_mod_naming_an_unknown_card_is_an_error(tmp_path: Path) -> None:
    from interpreter import RuleFileError

    bad = SATELLITE_MOD.replace("    m-satellite:", "    m-satelite:")
    with pytest.raises(RuleFileError) as err:
        load_game(BASE, overlays=[_mod(tmp_path, bad, "bad")])
    assert any("m-satelite" in d.message for d in err.value.diagnostics)


# ---- the cards carry their powers ---------------------------------------------------------------


@pytest.mark.parametrize(("overlays", "variants"), [([], []), ([JUPITER], []), ([JUPITER], ["solitaire"])])
def test_every_card_with_a_power_has_text_and_the_families_carry_theirs(overlays: list[str],
                                                                        variants: list[str]) -> None:
    game = load_game(BASE, overlays=overlays, variants=variants)
    assert game.warnings == []          # no card-power-without-text, no card-text-without-power
    gd = game.new_initial_state(1 if variants else 2, seed=1).gd
    by_type: dict[str, list[Any]] = {}
    for c in gd.cards:
        by_type.setdefault(c.type, []).append(c)
    assert all("reward" in c.effects for c in by_type["mission"])
    assert all("solve" in c.effects for c in by_type["threat"])
    goals = {z.index for z in gd.zones if z.name == "goals"}
    assert all(set(c.active_in) == goals for c in by_type["goal"])
    if overlays:
        assert all("first" in c.effects for c in by_type["benefit"])
        assert all("power" in c.effects for c in by_type["advisor"])
        shown = {z.index for z in gd.zones if z.name == "variant_cards"}
        assert all(set(c.active_in) == shown for c in by_type["variant"])
