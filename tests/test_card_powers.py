"""A card carries its whole power: named effects with conditions and costs, the text a
person reads, and per-type defaults (card templates) that a card extends or overrides.
Each on a toy game, bad input included.
"""

from __future__ import annotations

import json

import pytest
from conftest import counter, find_column, play, texts, toy, write_toy

from interpreter import RuleFileError, load_game

GADGETS = """
counters:
  coins: {scope: player, initial: 3}
  vp: {scope: player}
zones:
  shelf: {scope: global, visible: all}
  kit: {scope: player, visible: all}
card_types:
  gadget:
    in: shelf
    text: "Activate: gain 1 VP."
    effects:
      activate: "gain 1 vp"
      polish: "gain 10 vp"
cards:
  lamp:
    name: Lamp
    type: gadget                      # the type's power as it is
  drill:
    name: Drill
    type: gadget
    text: "Activate (pay 2 coins, while you have no VP yet): gain 5 VP."
    effects:
      activate: {condition: "vp(me) == 0", cost: {coins: "2"}, effect: "gain 5 vp"}
      polish: null                    # drops the type's effect
  rock:
    name: Rock
    in: shelf
    properties: {text: "An old file's text, kept as a property."}
actions:
  take:
    during: main
    params: {c: "[c for c in shelf if has_effect(c, \\"activate\\")]"}
    effect: "move c to kit(me)"
  activate:
    during: main
    params: {c: "[c for c in kit(me) if can_use(c, \\"activate\\")]"}
    effect: 'use c "activate"'
  polish:
    during: main
    params: {c: "kit(me)"}
    effect: 'use c "polish"'
  pass: {during: main, ends: turn}
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions main
"""


def _state(tmp_path, text=GADGETS):
    return toy(tmp_path, text).new_initial_state(2, seed=1)


def test_a_card_type_gives_its_power_and_a_card_extends_overrides_or_drops_it(tmp_path):
    gd = toy(tmp_path, GADGETS).definition
    cards = {c.id: c for c in gd.cards}
    assert set(cards["lamp"].effects) == {"activate", "polish"}
    assert set(cards["drill"].effects) == {"activate"}  # polish dropped by null
    assert cards["lamp"].text == "Activate: gain 1 VP."  # inherited text
    assert cards["drill"].text.startswith("Activate (pay 2 coins")
    assert cards["rock"].text == "An old file's text, kept as a property."  # the old place still reads
    assert "lamp" not in cards["lamp"].uses and "activate" in cards["drill"].uses


def test_has_effect_lists_only_cards_with_that_effect(tmp_path):
    st = _state(tmp_path)
    assert sorted(t.split("#")[0] for t in texts(st) if t.startswith("take")) == ["take drill", "take lamp"]


def test_a_card_effect_with_a_cost_and_condition_runs_only_when_both_hold(tmp_path):
    st = _state(tmp_path)
    play(st, "take drill#1", "pass", "pass")  # P1 owns the drill; back to P1
    assert "activate drill#1" in texts(st)
    play(st, "activate drill#1")
    assert counter(st, "coins", 0) == 1 and counter(st, "vp", 0) == 5  # paid 2, gained 5
    # its condition (no VP yet) fails now: can_use leaves it out of the choices
    assert "activate drill#1" not in texts(st)


def test_can_use_refuses_what_cannot_be_paid_and_use_then_does_nothing(tmp_path):
    poor = GADGETS.replace("coins: {scope: player, initial: 3}", "coins: {scope: player, initial: 1}")
    st = _state(tmp_path, poor)
    play(st, "take drill#1", "pass", "pass")
    assert "activate drill#1" not in texts(st)  # 1 coin, the cost is 2
    play(st, "polish drill#1")  # the drill has no polish: nothing happens
    assert counter(st, "vp", 0) == 0 and counter(st, "coins", 0) == 1


def test_an_effect_without_condition_or_cost_runs_for_whoever_uses_it(tmp_path):
    st = _state(tmp_path)
    play(st, "take lamp#0", "pass", "pass", "polish lamp#0")
    assert counter(st, "vp", 0) == 10


def test_card_text_reads_as_a_field(tmp_path):
    text = GADGETS.replace('effect: "move c to kit(me)"', 'effect: "move c to kit(me)\\nlog \\"{c.text}\\""')
    st = _state(tmp_path, text)
    play(st, "take lamp#0")
    assert any("Activate: gain 1 VP." in line for line in st.log)


@pytest.mark.parametrize(("needle", "replacement", "code"), [
    ('has_effect(c, \\"activate\\")', 'has_effect(c, \\"activat\\")', "unknown-effect"),
    ('can_use(c, \\"activate\\")', "can_use(c, 3)", "type"),
    ('cost: {coins: "2"}', 'cost: {coin: "2"}', "unknown-name"),
    ('condition: "vp(me) == 0"', 'condition: "vp(me) + 1"', "type"),
])
def test_bad_card_powers_are_diagnostics_with_a_place(tmp_path, needle, replacement, code):
    assert needle in GADGETS
    path = write_toy(tmp_path, GADGETS.replace(needle, replacement))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    found = [d for d in caught.value.diagnostics if d.code == code]
    assert found, caught.value.diagnostics
    assert found[0].path.endswith("game.yaml") and found[0].line > 0


def test_an_unknown_key_in_a_card_effect_is_a_schema_error(tmp_path):
    path = write_toy(tmp_path, GADGETS.replace('cost: {coins: "2"}, effect:', 'cots: {coins: "2"}, effect:'))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    line, column = find_column(path, "cots")
    assert f"game.yaml:{line}:{column}" in str(caught.value)


def _warnings(tmp_path, text):
    return [(w.code, w.line) for w in toy(tmp_path, text).warnings]


def test_text_without_power_is_a_warning_only_among_powered_cards_of_a_type(tmp_path):
    text = GADGETS.replace("  rock:\n    name: Rock\n", "  stone:\n    name: Stone\n    type: gadget\n"
                           "    text: \"Does something, says its text.\"\n    effects: {activate: null, polish: null}\n"
                           "  rock:\n    name: Rock\n")
    path = write_toy(tmp_path, text)
    warnings = load_game(str(path)).warnings
    assert [w.code for w in warnings] == ["card-text-without-power"]
    assert "stone" in warnings[0].message
    assert warnings[0].line == find_column(path, "Does something")[0]
    # the rock has text and no power, but no card of its type has one: data, not a slip
    assert not any("rock" in w.message for w in warnings)


def test_power_without_text_is_a_warning_and_strict_makes_it_an_error(tmp_path):
    text = GADGETS.replace("    text: \"Activate: gain 1 VP.\"\n", "")
    path = write_toy(tmp_path, text)
    warnings = load_game(str(path)).warnings
    assert [w.code for w in warnings] == ["card-power-without-text"] and "lamp" in warnings[0].message
    with pytest.raises(RuleFileError):
        load_game(str(path), strict=True)


def test_the_bundled_games_have_no_card_text_warnings():
    for name, overlays in [("for-all-mankind", []), ("race-to-mars", []), ("rocketmen", []),
                           ("rocketmen", ["target-jupiter"]), ("star-market", [])]:
        game = load_game(name, overlays=overlays)
        assert [w for w in game.warnings if w.code.startswith("card-")] == [], name


def test_describe_cards_puts_each_cards_text_beside_its_power(tmp_path, capsys):
    from interpreter.cli import main

    path = write_toy(tmp_path, GADGETS)
    assert main(["describe", str(path), "--cards"]) == 0
    out = capsys.readouterr().out
    assert "Drill (drill, gadget, x1)" in out
    assert 'effect activate [condition vp(me) == 0] [cost {\'coins\': \'2\'}]: gain 5 vp' in out
    assert "Rock (rock, card, x1)\n  text: An old file's text, kept as a property.\n  power: none on the card" in out
    assert main(["describe", str(path), "--cards", "--json"]) == 0
    cards = {c["id"]: c for c in json.loads(capsys.readouterr().out)}
    assert cards["lamp"]["effects"] == {"activate": {"effect": "gain 1 vp"}, "polish": {"effect": "gain 10 vp"}}
    assert cards["drill"]["effects"]["activate"]["cost"] == {"coins": "2"}
    assert cards["lamp"]["text"] == "Activate: gain 1 VP."


TEMPLATES = GADGETS.replace('''  rock:
    name: Rock''', '''  torch:
    name: Torch
    type: gadget
    extends: [bright, hot]
    effects: {polish: null}
  rock:
    name: Rock''').replace('''cards:
  lamp:''', '''  bright:                             # templates: any card may extend them
    text: "Shines: gain 3 VP."
    effects: {activate: "gain 3 vp", shine: "gain 1 coins"}
  hot:
    effects: {activate: "gain 9 vp", burn: "lose 1 coins"}
    properties: {heat: 2}
cards:
  lamp:''')


def test_a_card_extends_templates_before_its_type_and_drops_with_null(tmp_path):
    gd = toy(tmp_path, TEMPLATES).definition
    torch = next(c for c in gd.cards if c.id == "torch")
    # the first template wins over the second, both over the type; polish (the type's) dropped
    assert set(torch.effects) == {"activate", "shine", "burn"}
    assert torch.text == "Shines: gain 3 VP." and torch.properties == {"heat": 2}
    st = toy(tmp_path, TEMPLATES).new_initial_state(2, seed=1)
    torch_copy = next(t for t in texts(st) if t.startswith("take torch")).split()[1]
    play(st, f"take {torch_copy}", "pass", "pass", f"activate {torch_copy}")
    assert counter(st, "vp", 0) == 3  # bright's activate, not hot's 9 nor the type's 1


def test_extending_a_template_that_does_not_exist_is_an_error_at_its_name(tmp_path):
    path = write_toy(tmp_path, TEMPLATES.replace("extends: [bright, hot]", "extends: [bright, hott]"))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    [found] = [d for d in caught.value.diagnostics if d.code == "unknown-name"]
    assert "'hott'" in found.message and found.hint == "did you mean 'hot'?"
    assert (found.line, found.column) == find_column(path, "hott")


def test_templates_mean_the_same_rules_as_the_cards_written_out(tmp_path):
    written = TEMPLATES.replace('''    extends: [bright, hot]
    effects: {polish: null}''', '''    text: "Shines: gain 3 VP."
    properties: {heat: 2}
    effects: {activate: "gain 3 vp", shine: "gain 1 coins", burn: "lose 1 coins", polish: null}''')
    assert toy(tmp_path, TEMPLATES).definition.data_hash == toy(tmp_path, written).definition.data_hash
