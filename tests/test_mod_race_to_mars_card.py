"""Modding one Race to Mars card touches only that card.

A card's power lives on the card (its `crew` effect, its module's `each_turn` effect,
...), and the rules run those powers by name; so an overlay that changes a card's power,
or adds a card with a power the game has never seen, names only that card, and both the
game and its pilot bot play it. Each scenario runs the real game with a scripted setup
(the helpers of test_race_to_mars.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from test_race_to_mars import BASE_SETUP, GAME, ROOT, TEST_CARDS, act, attach, both_launched, cards, counter, kinds, put

from interpreter import RuleFileError, load_game
from interpreter.rules.loader import load_raw

MOD = ROOT / "examples" / "rtm-new-ability" / "overlay.yaml"
NEW = "s101-veteran-training"
# "091 +2 Experience / Yellow shield", changed to gain five Experience instead of two.
PATCH = {"orrery": 1, "overlay": "richer-091", "base": "race-to-mars",
         "patch": {"cards": {"s091-xp2-yelshield": {
             "text": "Crew ability: Gain five Experience. Rocket module: protection from yellow hazards.",
             "properties": {"crew_text": "Gain five Experience."},
             "effects": {"crew": "gain 5 xp(me)"}}}}}


def _state(tmp_path: Path, setup: str, mods: list[str], seats: list[str] | None = None) -> Any:
    scene = {"orrery": 1, "overlay": "scenario", "base": "race-to-mars", "add": {"cards": TEST_CARDS},
             "set": {"setup": BASE_SETUP.format(start=0) + setup}}
    path = tmp_path / "scenario.yaml"
    path.write_text(json.dumps(scene))
    return load_game(GAME, overlays=[*mods, str(path)]).new_initial_state(2, seed=1, seats=seats)


def _patch(tmp_path: Path) -> str:
    path = tmp_path / "richer.yaml"
    path.write_text(json.dumps(PATCH))
    return str(path)


def _from_box(card: str, zone: str) -> str:
    return f'move cards_named("{card}", space_deck) to {zone}\n'


def test_the_mods_name_only_their_card_and_leave_the_rules_as_they_were(tmp_path):
    mod = yaml.safe_load(MOD.read_text(encoding="utf-8"))
    assert set(mod) - {"orrery", "overlay", "base", "name", "description", "version"} == {"add"}
    assert list(mod["add"]) == ["cards"] and list(mod["add"]["cards"]) == [NEW]
    assert list(PATCH["patch"]) == ["cards"] and list(PATCH["patch"]["cards"]) == ["s091-xp2-yelshield"]
    base = load_raw("race-to-mars", [], []).data
    for overlays in ([str(MOD)], [_patch(tmp_path)]):
        modded = load_raw("race-to-mars", [], overlays).data
        assert {k: v for k, v in modded.items() if k != "cards"} == {k: v for k, v in base.items() if k != "cards"}
    game = load_game(GAME, overlays=[str(MOD)], strict=True)          # no warnings: text and power agree
    card = next(c for c in game.definition.cards if c.id == NEW)
    assert set(card.effects) == {"crew", "each_turn"} and card.text.startswith("Crew ability: ")


def test_the_new_crew_ability_is_played_like_any_other(tmp_path):
    s = _state(tmp_path, both_launched(_from_box(NEW, "hand(0)") + attach("t-fuel", 0) + attach("t-hull-mod", 0)),
               [str(MOD)])
    assert f"play {cards(s, 'hand', 0)[0]}" in [a.text for a in s.legal_actions()]
    act(s, "play s101-veteran-training#")
    assert counter(s, "xp", 0) == 2                                    # two modules
    assert kinds(s, "play_area", 0) == [NEW]


def test_the_new_module_power_works_each_turn_and_a_copy_module_copies_it(tmp_path):
    setup = both_launched('attach(0, cards_named("' + NEW + '", space_deck)[0])\n' + attach("t-copy-mod", 0))
    s = _state(tmp_path, setup, [str(MOD)])
    assert counter(s, "xp", 0) == 2                # its own power, and the copy's (its only neighbour)
    s = _state(tmp_path, both_launched('attach(0, cards_named("' + NEW + '", space_deck)[0])\n'), [str(MOD)])
    assert counter(s, "xp", 0) == 1


def test_the_pilot_bot_attaches_and_plays_the_new_card(tmp_path):
    # Pre-launch: the pilot takes the first revealed card with a module worth attaching.
    s = _state(tmp_path, "set placed to 5\n" + put("t-fuel", "crew(0)", 3) + _from_box(NEW, "space_deck top"),
               [str(MOD)], seats=["pilot", "random"])
    assert NEW in kinds(s, "rocket", 0)
    # Post-launch: it plays every Crew card in its hand, the new one too.
    s = _state(tmp_path, both_launched(_from_box(NEW, "hand(0)") + attach("t-fuel", 0) + attach("t-hull-mod", 0)),
               [str(MOD)], seats=["pilot", "random"])
    assert s.current_player() == 1 and kinds(s, "play_area", 0) == [NEW]    # phase 2.1: P2 plays next
    assert counter(s, "xp", 0) == 2                                    # played, not exchanged (that gives 1)
    act(s, "done_playing")                                             # P1's turn (the pilot), then P2's
    assert s.current_player() == 1 and NEW in kinds(s, "discard", 0) and counter(s, "xp", 0) == 2


def test_a_patched_card_power_is_what_the_game_and_the_pilot_play(tmp_path):
    setup = both_launched(_from_box("s091-xp2-yelshield", "hand(0)"))
    before = _state(tmp_path, setup, [])
    act(before, "play s091-xp2-yelshield#")
    assert counter(before, "xp", 0) == 2
    after = _state(tmp_path, setup, [_patch(tmp_path)])
    act(after, "play s091-xp2-yelshield#")
    assert counter(after, "xp", 0) == 5
    # The pilot plays it too, then buys a Boost with 3 of the 5 Experience (phase 2.4).
    bot = _state(tmp_path, setup, [_patch(tmp_path)], seats=["pilot", "random"])
    assert counter(bot, "xp", 0) == 5
    act(bot, "done_playing")
    assert s_boosts(bot) == 1 and counter(bot, "xp", 0) == 2


def s_boosts(s: Any) -> int:
    return (kinds(s, "discard", 0) + kinds(s, "draw_pile", 0) + kinds(s, "hand", 0)).count("boost")


def test_a_mistake_in_a_modded_card_power_is_reported_at_its_place(tmp_path):
    bad = json.loads(json.dumps(PATCH))
    bad["patch"]["cards"]["s091-xp2-yelshield"]["effects"]["crew"] = "gain 5 experience(me)"
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(bad))
    with pytest.raises(RuleFileError) as caught:
        load_game(GAME, overlays=[str(path)])
    found = [d for d in caught.value.diagnostics if d.code == "bad-target"]
    assert found and found[0].path == str(path) and found[0].line > 0 and "needs a counter" in found[0].message
