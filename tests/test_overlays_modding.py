"""Modding power: overlays that extend effect text (append/prepend) and add fields, the
game_start event, conflicts between overlays, removals other overlays rely on, and
patches of fields no definition has. Each behaviour is checked on a game it changes,
and each mistake at the overlay's own file, line and column.
"""

from __future__ import annotations

import json
import pathlib

import pytest
from conftest import counter, find_column, play, texts, write_toy, zone
from test_overlays import BASE, overlay, play_fireball

from interpreter import RuleFileError, load_game
from interpreter.cli import main


@pytest.fixture()
def base(tmp_path) -> pathlib.Path:
    return write_toy(tmp_path, BASE)


def errors_of(base_path, *mods) -> list:
    with pytest.raises(RuleFileError) as err:
        load_game(str(base_path), overlays=[str(m) for m in mods])
    return list(err.value.diagnostics)


# ---- append and prepend --------------------------------------------------------------------


def test_append_to_a_cards_effect_keeps_the_old_text(tmp_path, base):
    mod = overlay(tmp_path, """
append:
  cards:
    fireball: {effects: {play: "gain 4 vp"}}
""")
    assert play_fireball(load_game(str(base), overlays=[str(mod)])) == 2 + 4


def test_prepend_and_append_to_setup_run_in_order(tmp_path, base):
    mod = overlay(tmp_path, """
prepend:
  setup: "set vp(0) to 9"
append:
  setup: |
    set vp(0) to vp(0) * 2
    create 1 "ember" in hand(0)
""")
    state = load_game(str(base), overlays=[str(mod)]).new_initial_state(2, seed=1)
    assert counter(state, "vp", 0) == 18               # prepended first, appended after
    assert any("ember" in t for t in texts(state))  # the appended create ran


def test_append_to_an_action_and_a_procedure(tmp_path, base):
    mod = overlay(tmp_path, """
add:
  procedures:
    bonus: {params: [p], effect: "gain 1 vp(p)"}
append:
  actions:
    play: {effect: "bonus(me)"}
""")
    mod2 = overlay(tmp_path, """
append:
  procedures:
    bonus: {effect: "gain 10 vp(p)"}
""", name="mod2.yaml")
    assert play_fireball(load_game(str(base), overlays=[str(mod)])) == 2 + 1
    assert play_fireball(load_game(str(base), overlays=[str(mod), str(mod2)])) == 2 + 1 + 10


def test_a_mistake_in_appended_text_points_into_the_overlay(tmp_path, base):
    mod = overlay(tmp_path, """
append:
  setup: |
    gain 1 vp(0)
    gian 2 vp(0)
""")
    found = errors_of(base, mod)
    assert len(found) == 1
    assert found[0].path == str(mod)
    assert (found[0].line, found[0].column) == find_column(mod, "gian")


def test_a_mistake_in_the_base_after_a_prepend_still_points_into_the_base(tmp_path):
    game = write_toy(tmp_path, BASE.replace('    create 1 "fireball" in hand(p)',
                                            '    create 1 "fireball" in hand(p)\n  gain 1 nope'))
    mod = overlay(tmp_path, """
prepend:
  setup: |
    gain 1 vp(0)
    gain 1 vp(0)
""")
    found = errors_of(game, mod)
    assert [(d.path, d.line) for d in found] == [(str(game), find_column(game, "nope")[0])]


def test_append_to_what_does_not_exist_or_is_not_text(tmp_path, base):
    mod = overlay(tmp_path, """
append:
  cards:
    fireball: {effects: {ploy: "gain 1 vp"}, count: "2"}
  procedures:
    nothing: {effect: "gain 1 vp"}
""")
    found = errors_of(base, mod)
    assert sorted(d.code for d in found) == ["overlay-missing", "overlay-missing", "overlay-missing"]
    ploy = next(d for d in found if "ploy" in d.message)
    assert ploy.hint == "did you mean 'play'?"
    assert (ploy.line, ploy.column) == find_column(mod, "ploy")
    nothing = next(d for d in found if "nothing" in d.message)
    assert "does not exist" in nothing.message and nothing.path == str(mod)
    count = next(d for d in found if "count" in d.message)
    assert "is not effect text" in count.message and count.path == str(mod)


def test_append_to_a_text_that_is_not_effect_text_is_an_error(tmp_path, base):
    mod = overlay(tmp_path, """
append:
  cards:
    fireball: {name: " the Great", text: " Twice."}
  actions:
    play: {during: "2"}
""")
    found = errors_of(base, mod)
    assert sorted(d.code for d in found) == ["overlay-missing"] * 3
    assert all("is not effect text" in d.message and d.path == str(mod) for d in found)
    assert {d.line for d in found} == {find_column(mod, "the Great")[0], find_column(mod, "during")[0]}


def test_append_of_a_non_text_is_an_error(tmp_path, base):
    mod = overlay(tmp_path, """
append:
  setup: [1, 2]
""")
    found = errors_of(base, mod)
    assert found and all(d.path == str(mod) for d in found)


# ---- game_start ----------------------------------------------------------------------------


def test_game_start_fires_once_after_setup_before_the_first_decision(tmp_path, base):
    mod = overlay(tmp_path, """
add:
  triggers:
    opening:
      on: game_start
      when: "len(hand(0)) == 1"          # setup has run: P1 holds its fireball
      effect: |
        gain 3 vp(0)
        log "the game starts"
""")
    game = load_game(str(base), overlays=[str(mod)])
    state = game.new_initial_state(2, seed=1)
    assert counter(state, "vp", 0) == 3
    fireball = next(t for t in texts(state) if "fireball" in t)
    play(state, fireball)
    assert counter(state, "vp", 0) == 3 + 2                  # it never fires again


def test_game_start_takes_no_subject(tmp_path, base):
    mod = overlay(tmp_path, """
add:
  triggers:
    opening: {on: game_start deck, effect: "gain 3 vp(0)"}
""")
    found = errors_of(base, mod)
    assert [d.code for d in found] == ["bad-event"] and "takes no subject" in found[0].message


def test_a_game_without_game_start_triggers_compiles_as_before(base):
    assert load_game(str(base)).definition.start is None


# ---- conflicts between overlays ------------------------------------------------------------

PATCH_FIREBALL = """
patch:
  cards:
    fireball: {effects: {play: "gain %d vp"}}
"""


def test_two_overlays_patching_one_value_warn_and_the_last_wins(tmp_path, base):
    one = overlay(tmp_path, PATCH_FIREBALL % 5, name="one.yaml")
    two = overlay(tmp_path, PATCH_FIREBALL % 8, name="two.yaml")
    game = load_game(str(base), overlays=[str(one), str(two)])
    assert play_fireball(game) == 8
    [warning] = game.warnings
    assert warning.severity == "warning" and warning.code == "overlay-conflict"
    assert warning.path == str(two) and (warning.line, warning.column) == find_column(two, "play")
    line, column = find_column(one, "play")
    assert f"{one}:{line}:{column}" in warning.message and "this one wins" in warning.message


def test_strict_makes_a_conflict_an_error(tmp_path, base, capsys):
    one = overlay(tmp_path, PATCH_FIREBALL % 5, name="one.yaml")
    two = overlay(tmp_path, PATCH_FIREBALL % 8, name="two.yaml")
    found = []
    with pytest.raises(RuleFileError) as err:
        load_game(str(base), overlays=[str(one), str(two)], strict=True)
    found = err.value.diagnostics
    assert [(d.code, d.severity) for d in found] == [("overlay-conflict", "error")]
    assert main(["validate", str(base), "--with", str(one), "--with", str(two)]) == 0
    assert "warning[overlay-conflict]" in capsys.readouterr().out
    assert main(["validate", str(base), "--with", str(one), "--with", str(two), "--strict"]) == 1
    assert "error[overlay-conflict]" in capsys.readouterr().out
    assert main(["describe", str(base), "--with", str(one), "--with", str(two), "--strict"]) == 1
    assert main(["describe", str(base), "--with", str(one), "--with", str(two)]) == 0
    assert "warning[overlay-conflict]" in capsys.readouterr().err


def test_overlays_changing_different_fields_or_appending_do_not_conflict(tmp_path, base):
    one = overlay(tmp_path, PATCH_FIREBALL % 5, name="one.yaml")
    two = overlay(tmp_path, "patch: {cards: {fireball: {count: 2}}}", name="two.yaml")
    three = overlay(tmp_path, "append: {cards: {fireball: {effects: {play: 'gain 1 vp'}}}}", name="three.yaml")
    game = load_game(str(base), overlays=[str(one), str(two), str(three)])
    assert game.warnings == [] and play_fireball(game) == 6


def test_patching_over_appended_text_warns(tmp_path, base):
    one = overlay(tmp_path, "append: {cards: {fireball: {effects: {play: 'gain 1 vp'}}}}", name="one.yaml")
    two = overlay(tmp_path, PATCH_FIREBALL % 5, name="two.yaml")
    [warning] = load_game(str(base), overlays=[str(one), str(two)]).warnings
    assert "appended text is" in warning.message and str(one) in warning.message


def test_patching_a_card_another_overlay_added_builds_on_it(tmp_path, base):
    """A mod of an expansion's card: the expansion added it (nothing of another overlay's
    is lost), so the mod's patch warns of no conflict; two mods patching it still do."""
    from interpreter.rules.loader import load_raw

    expansion = overlay(tmp_path, "add: {cards: {blaze: {name: Blaze, count: 1, in: deck, text: 'Play: gain 4 VP.', "
                                  "effects: {play: 'gain 4 vp'}}}}", name="expansion.yaml")
    mod = overlay(tmp_path, "patch: {cards: {blaze: {text: 'Play: gain 6 VP.', effects: {play: 'gain 6 vp'}}}}",
                  name="mod.yaml")
    game = load_game(str(base), overlays=[str(expansion), str(mod)])
    assert game.warnings == []
    blaze = load_raw(str(base), [], [str(expansion), str(mod)]).data["cards"]["blaze"]
    assert blaze["effects"]["play"] == "gain 6 vp" and blaze["text"] == "Play: gain 6 VP." and blaze["count"] == 1
    other = overlay(tmp_path, "patch: {cards: {blaze: {effects: {play: 'gain 8 vp'}}}}", name="other.yaml")
    [warning] = load_game(str(base), overlays=[str(expansion), str(mod), str(other)]).warnings
    assert warning.code == "overlay-conflict" and str(mod) in warning.message and warning.path == str(other)


def test_patching_what_another_overlay_removed_names_that_overlay(tmp_path, base):
    one = overlay(tmp_path, "remove: {cards: [ember]}", name="one.yaml")
    two = overlay(tmp_path, "patch: {cards: {ember: {count: 3}}}", name="two.yaml")
    [found] = errors_of(base, one, two)
    assert found.code == "overlay-missing" and found.path == str(two)
    assert f"{one} removed it" in found.message
    line, column = find_column(one, "ember")
    assert found.hint is not None and f"{one}:{line}:{column}" in found.hint


def test_the_base_using_a_removed_card_names_the_overlay(tmp_path, base):
    gone = overlay(tmp_path, "remove: {cards: [fireball]}")
    found = errors_of(base, gone)
    assert found and all(d.path == str(base) for d in found)
    assert any(d.hint and str(gone) in d.hint and "cards.fireball was removed" in d.hint for d in found)


# ---- patch typos and new fields ------------------------------------------------------------


def test_patching_a_property_no_card_has_is_a_typo(tmp_path, base):
    mod = overlay(tmp_path, "patch: {cards: {ember: {properties: {haet: 2}}}}")
    [found] = errors_of(base, mod)
    assert found.code == "patch-unknown" and found.hint == "did you mean 'heat'?"
    assert (found.path, found.line, found.column) == (str(mod), *find_column(mod, "haet"))


def test_a_property_another_card_has_may_be_patched_in(tmp_path):
    game = write_toy(tmp_path, BASE.replace("properties: {heat: 3}", "properties: {heat: 3, glow: 1}"))
    mod = overlay(tmp_path, "patch: {cards: {ember: {properties: {glow: 5}}}}")
    gd = load_game(str(game), overlays=[str(mod)]).definition
    assert gd.cards[gd.card_index["ember"]].properties == {"heat": 1, "glow": 5}


def test_a_genuinely_new_property_is_added_with_add(tmp_path, base):
    mod = overlay(tmp_path, "patch: {cards: {ember: {properties: {shine: 2}}}}")
    [found] = errors_of(base, mod)
    assert found.hint is not None and "add: {cards: {ember: {properties: {shine: ...}}}}" in found.hint
    fixed = overlay(tmp_path, "add: {cards: {ember: {properties: {shine: 2}}}}", name="fixed.yaml")
    gd = load_game(str(base), overlays=[str(fixed)]).definition
    assert gd.cards[gd.card_index["ember"]].properties == {"heat": 1, "shine": 2}


def test_adding_a_field_that_exists_is_an_error(tmp_path, base):
    mod = overlay(tmp_path, "add: {cards: {ember: {properties: {heat: 2}}}}")
    [found] = errors_of(base, mod)
    assert found.code == "overlay-exists" and "properties.heat" in found.message
    assert "use replace or patch" in found.message


def test_a_new_definition_must_be_complete(tmp_path, base):
    mod = overlay(tmp_path, "add: {cards: {frost: {count: 2}}}")
    found = errors_of(base, mod)
    assert [(d.code, d.path) for d in found] == [("schema", str(mod))]
    assert "missing required key 'name' in add.cards.frost" in found[0].message


# ---- the example mod -----------------------------------------------------------------------


def test_the_example_mod_extends_rocketmens_setup_and_uses_game_start():
    base_state = load_game("rocketmen").new_initial_state(3, seed=4)
    modded = load_game("rocketmen", overlays=["rocketmen-setup-mission"])
    assert modded.warnings == [] and modded.definition.overlays == ("rocketmen-setup-mission",)
    state = modded.new_initial_state(3, seed=4)
    for p in range(3):
        before, after = zone(base_state, "hand", p), zone(state, "hand", p)
        assert after.count("m-satellite") == before.count("m-satellite") + 1
        extra = 1 if p == 2 else 0
        assert counter(state, "cash_tokens", p) == counter(base_state, "cash_tokens", p) + extra
    assert any("Mission control" in line for line in state.log)


# ---- describe: what a game has, what a mod changes -----------------------------------------


def test_describe_lists_triggers_modifiers_and_card_ids(tmp_path, base, capsys):
    mod = overlay(tmp_path, """
add:
  triggers:
    opening: {"on": game_start, when: "player_count > 1", effect: "gain 3 vp(0)"}
  values:
    reach: {of: player, base: "1"}
  modifiers:
    long_arm: {value: reach, op: add, amount: "2", granted: true}
""")
    assert main(["describe", str(base), "--with", str(mod)]) == 0
    out = capsys.readouterr().out
    assert "Triggers:\n  opening: on game_start if player_count > 1: gain 3 vp(0)" in out
    assert "Modifiers:\n  long_arm: reach add 2, when granted" in out
    assert "  fireball: Fireball x1 in deck" in out
    assert main(["describe", str(base), "--with", str(mod), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["triggers"] == [{"id": "opening", "card": None, "on": "game_start", "effect": "gain 3 vp(0)",
                                 "when": "player_count > 1"}]
    assert info["modifiers"][0]["id"] == "long_arm" and info["modifiers"][0]["granted"] is True


DIFF_MOD = """
add:
  cards:
    frost: {name: Frost, count: 1, in: deck}
remove: {cards: [ember]}
patch:
  cards:
    fireball: {count: 2, properties: {heat: 4}}
append:
  setup: 'gain 1 vp(0)'
"""


def test_describe_diff_lists_what_an_overlay_changes(tmp_path, base, capsys):
    mod = overlay(tmp_path, DIFF_MOD)
    assert main(["describe", str(base), "--with", str(mod), "--diff"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"What {mod} changes:"
    assert "  changed cards.fireball" in out and "    count: 1 -> 2" in out and "    properties.heat: 3 -> 4" in out
    assert "  added cards.frost" in out and "  removed cards.ember" in out
    assert "    value: extended by 'gain 1 vp(0)'" in out


def test_describe_diff_as_json(tmp_path, base, capsys):
    mod = overlay(tmp_path, DIFF_MOD)
    assert main(["describe", str(base), "--with", str(mod), "--diff", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {(c["section"], c["id"]): c for c in data["changes"]}
    assert by_name[("cards", "fireball")]["fields"] == [
        {"field": "count", "old": 1, "new": 2}, {"field": "properties.heat", "old": 3, "new": 4}]
    assert by_name[("cards", "frost")]["kind"] == "added" and by_name[("cards", "ember")]["kind"] == "removed"
    assert by_name[("setup", None)]["kind"] == "changed"


def test_describe_diff_bad_input(tmp_path, base, capsys):
    assert main(["describe", str(base), "--diff"]) == 2
    assert "name one with --with" in capsys.readouterr().err
    broken = overlay(tmp_path, "patch: {cards: {embr: {count: 2}}}")
    assert main(["describe", str(base), "--with", str(broken), "--diff"]) == 1
    assert "did you mean 'ember'?" in capsys.readouterr().err
