"""Modding one For All Mankind card touches that card only: its patch names nothing but
`cards: {that-card: ...}`, and the game, people and the dice bots all play the new
power, because the rules and the bots read each card's power from the card.

The shipped example mod (examples/fam-research-change) gives the X-Large Hadron Collider
a FUEL refinery; a second overlay here changes an Espionage card's effect, which the bots
follow too.
"""

from __future__ import annotations

import pathlib
import textwrap
from typing import Any

from conftest import zone
from test_for_all_mankind import GAME, act, res, start, value

from interpreter import load_game
from interpreter.rules.yamlload import load_yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "fam-research-change" / "overlay.yaml"
INSIDER_X2 = """\
orrery: 1
overlay: insider-x2
base: for-all-mankind
name: Insider Trading x2
patch:
  cards:
    insider-trading:
      text: "Take 2 of each of your Earth location's secondary Resources from The Bank."
      effects:
        spy: |
          for each r in top(earth(me)).secondary:
            receive(me, r, 2)
"""


def _with(tmp_path: pathlib.Path, overlays: list[str], **rigs: str) -> Any:
    """The game with `overlays`, plus one `rig_NAME` action per keyword (its effect)."""
    lines = ["orrery: 1", "overlay: rig", "base: for-all-mankind", "name: test rig", "add:", "  actions:"]
    for name, text in rigs.items():
        lines += [f"    rig_{name}:", "      during: main", "      effect: |"]
        lines += ["        " + line for line in textwrap.dedent(text).strip("\n").splitlines()]
    path = tmp_path / f"rig{len(list(tmp_path.iterdir()))}.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_game(GAME, overlays=[*overlays, str(path)])


def _patch_of(data: dict[str, Any]) -> dict[str, Any]:
    sections = {k for k in data if k not in ("orrery", "overlay", "base", "name", "description", "version")}
    assert sections == {"patch"}, sections
    return data["patch"]


def test_each_mod_names_only_the_card_it_changes(tmp_path):
    example = _patch_of(load_yaml(EXAMPLE)[0])
    assert list(example) == ["cards"] and list(example["cards"]) == ["x-large-hadron-collider"]
    path = tmp_path / "insider-x2.yaml"
    path.write_text(INSIDER_X2, encoding="utf-8")
    mod = _patch_of(load_yaml(path)[0])
    assert list(mod) == ["cards"] and list(mod["cards"]) == ["insider-trading"]
    for overlays in (["fam-research-change"], [str(path)]):
        assert load_game(GAME, overlays=overlays).warnings == []


def test_the_refinery_gives_its_owner_one_fuel_at_the_start_of_each_turn(tmp_path):
    own = 'move cards_named("x-large-hadron-collider", research_bank) to research(0)'
    base = start(_with(tmp_path, [], own=own))
    modded = start(_with(tmp_path, ["fam-research-change"], own=own))
    for s in (base, modded):
        act(s, "rig_own")
        for _ in range(4):                 # round 1 ends; P1's second turn starts
            s.apply_action("end_turn")
    assert res(modded, 0)["fuel"] == res(base, 0)["fuel"] + 1
    assert [res(modded, p) for p in (1, 2, 3)] == [res(base, p) for p in (1, 2, 3)]
    assert "X-Large Hadron Collider: P1 refines 1 FUEL" in modded.log
    assert value(modded, "trade_rate", 0) == 2 and value(modded, "trade_rate", 1) == 3  # its modifier stays


def test_a_dice_bot_that_takes_the_refinery_gets_its_fuel(tmp_path):
    game = _with(tmp_path, ["fam-research-change"], face2="bot_act(1, 2)")
    s = start(game, seats=["human", "bot", "bot", "bot"])
    act(s, "rig_face2")                    # P2 rolls a 2: the top Research of the list
    assert zone(s, "research", 1) == ["x-large-hadron-collider"]
    s.apply_action("end_turn")             # the bots play their turns; back to P1
    assert s.current_player() == 0
    refined = [line for line in s.log if "refines" in line]
    assert refined == ["X-Large Hadron Collider: P2 refines 1 FUEL"]


def test_a_modded_espionage_card_is_played_by_people_and_bots_alike(tmp_path):
    path = tmp_path / "insider-x2.yaml"
    path.write_text(INSIDER_X2, encoding="utf-8")
    game = _with(tmp_path, [str(path)],
                 mine='let c = top(cards_named("insider-trading", spy_deck))\nmove c to spies(0)\nset c.got to 0',
                 bot='bot_activate(1, top(cards_named("insider-trading", spy_deck)))')
    s = start(game, seats=["human", "bot", "bot", "bot"])
    cards = {c.id: c for c in game.definition.cards}

    def twice_the_secondary(p: int) -> dict[str, int]:
        secondary = cards[zone(s, "earth", p)[0]].properties["secondary"]
        return {r: 2 if r in secondary else 0 for r in ("iron", "fuel", "water", "oxygen")}

    act(s, "rig_mine")
    before = res(s, 0)
    act(s, "activate insider-trading")
    paid = {"iron": 0, "fuel": 0, "water": 1, "oxygen": 0}
    assert {r: res(s, 0)[r] - before[r] + paid[r] for r in before} == twice_the_secondary(0)
    before = res(s, 1)
    act(s, "rig_bot")                      # P2 is a bot: its meaning of the card is "do what it says"
    assert {r: res(s, 1)[r] - before[r] for r in before} == twice_the_secondary(1)
    assert "P2 (bot) activates Insider Trading" in s.log


ORBITAL_BANK = """\
orrery: 1
overlay: orbital-bank
base: for-all-mankind
name: a tenth Research
add:
  cards:
    orbital-bank:
      name: Orbital Bank
      type: research
      text: "Trade with The Bank at 1:1."
      properties: {tier: 3, cost: {iron: 2, fuel: 2, water: 2, oxygen: 2}}
      modifiers:
        power: {value: trade_rate, op: set, amount: "1"}
"""


def test_a_research_a_mod_adds_is_taken_last_by_bots_and_lent_by_hacking(tmp_path):
    path = tmp_path / "orbital-bank.yaml"
    path.write_text(ORBITAL_BANK, encoding="utf-8")
    game = _with(tmp_path, [str(path)], face2="bot_act(1, 2)",
                 park="move [c for c in research_bank if c.list_order > 2 and c.list_order < 10] to earth_bank",
                 hack='let c = top(cards_named("hack-the-planet", spy_deck))\nmove c to spies(0)\nset c.got to 0\n'
                      'for each r in resource_names:\n  receive(0, r, 2)')
    s = start(game, seats=["human", "bot", "bot", "bot"])
    act(s, "rig_park")                     # seven of the rulebook's nine out of the way
    for _ in range(3):                     # the rulebook's Research come first (list_order), the new one last
        act(s, "rig_face2")
    assert zone(s, "research", 1) == ["x-large-hadron-collider", "silver-shield-initiative", "orbital-bank"]
    assert value(s, "trade_rate", 1) == 1  # its own power, set after the Collider's 2:1
    assert value(s, "trade_rate", 0) == 3
    act(s, "rig_hack")
    act(s, "activate hack-the-planet")     # the type's applies_to lends the new card's power too
    assert value(s, "trade_rate", 0) == 1
