"""Overlays (expansions, mods) and variants: add, replace, patch, remove and set change
the base game as data; mistakes inside an overlay are reported at the overlay's own
file, line and column; variants are chosen by name.
"""

from __future__ import annotations

import pathlib
import textwrap

import pytest
from conftest import counter, find_column, play, texts, write_toy, zone

from interpreter import GameError, RuleFileError, load_game

BASE = """
orrery: 1
id: forge
name: Forge
players: {min: 2, max: 3}
counters:
  vp: {scope: player, initial: 0}
zones:
  deck: {scope: global, visible: none}
  hand: {scope: player, visible: owner}
cards:
  ember: {name: Ember, count: 2, in: deck, text: "Play: gain 1 VP.", properties: {heat: 1},
          effects: {play: "gain 1 vp"}}
  fireball:
    name: Fireball
    count: 1
    in: deck
    text: "Play: gain 2 VP."
    properties: {heat: 3}
    effects:
      play: "gain 2 vp"
actions:
  play:
    during: main
    params: {c: "hand(me)"}
    effect: |
      use c "play"
      move c to deck bottom
    ends: turn
variants:
  cold:
    description: No fireballs.
    remove: {cards: [fireball]}
    set: {setup: 'create 1 "ember" in hand(0)'}
  hot:
    description: Fireballs burn brighter.
    patch:
      cards:
        fireball: {effects: {play: "gain 5 vp"}}
setup: |
  for each p in players:
    create 1 "fireball" in hand(p)
flow: |
  turn 0:
    take actions main
scoring: {score: "vp(p)"}
"""


@pytest.fixture()
def base(tmp_path) -> pathlib.Path:
    return write_toy(tmp_path, BASE)


def overlay(tmp_path: pathlib.Path, text: str, name: str = "mod.yaml") -> pathlib.Path:
    path = tmp_path / name
    header = "orrery: 1\noverlay: my-mod\nbase: forge\nname: My mod\n"
    path.write_text(header + textwrap.dedent(text).strip("\n") + "\n", encoding="utf-8")
    return path


def play_fireball(game) -> int:
    """P1 plays the fireball the setup gave it; returns P1's vp."""
    state = game.new_initial_state(2, seed=1)
    fireball = next(t for t in texts(state) if "fireball" in t)
    play(state, fireball)
    return counter(state, "vp", 0)


def test_the_base_game(base):
    game = load_game(str(base))
    assert play_fireball(game) == 2
    assert game.definition.overlays == () and game.definition.variants == ()


def test_patching_one_cards_effect_changes_behaviour(tmp_path, base):
    mod = overlay(tmp_path, """
patch:
  cards:
    fireball: {effects: {play: "gain 7 vp"}}
""")
    game = load_game(str(base), overlays=[str(mod)])
    assert play_fireball(game) == 7
    card = game.definition.cards[game.definition.card_index["fireball"]]
    assert card.name == "Fireball" and card.count == 1 and card.properties == {"heat": 3}  # the rest stays
    assert game.definition.overlays == ("my-mod",)
    assert game.definition.data_hash != load_game(str(base)).definition.data_hash


def test_patch_merges_deeply(tmp_path, base):
    mod = overlay(tmp_path, """
patch:
  cards:
    ember: {properties: {heat: 2}, count: 4}
add:
  cards:
    ember: {properties: {color: red}}
""")
    gd = load_game(str(base), overlays=[str(mod)]).definition
    ember = gd.cards[gd.card_index["ember"]]
    assert ember.properties == {"heat": 2, "color": "red"}
    assert ember.count == 4
    assert "play" in ember.effects


def test_add(tmp_path, base):
    mod = overlay(tmp_path, """
add:
  cards:
    frost: {name: Frost, count: 3, in: deck, effects: {play: "gain 1 vp"}}
  actions:
    meditate: {during: main, effect: "gain 1 vp", ends: turn}
""")
    game = load_game(str(base), overlays=[str(mod)])
    state = game.new_initial_state(2)
    assert zone(state, "deck").count("frost") == 3
    assert "meditate" in texts(state)


def test_replace_drops_the_old_definition(tmp_path, base):
    mod = overlay(tmp_path, """
replace:
  cards:
    fireball: {name: Damp squib, count: 1, in: deck}
""")
    game = load_game(str(base), overlays=[str(mod)])
    card = game.definition.cards[game.definition.card_index["fireball"]]
    assert card.name == "Damp squib" and card.properties == {} and card.effects == {}
    assert play_fireball(game) == 0  # a card without that effect does nothing


def test_remove(tmp_path, base):
    mod = overlay(tmp_path, """
remove:
  cards: [ember]
""")
    game = load_game(str(base), overlays=[str(mod)])
    assert "ember" not in game.definition.card_index
    assert zone(game.new_initial_state(2), "deck") == ["fireball"]


def test_removing_what_is_still_used_is_reported_where_it_is_used(tmp_path, base):
    mod = overlay(tmp_path, "remove:\n  cards: [fireball]\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(base), overlays=[str(mod)])
    (d,) = caught.value.diagnostics
    assert d.code == "unknown-card" and d.path == str(base)
    assert (d.line, d.column) == find_column(base, 'create 1 "fireball"')


def test_set_replaces_top_level_entries(tmp_path, base):
    mod = overlay(tmp_path, """
set:
  players: {min: 3, max: 3}
  flow: |
    turn 1:
      take actions main
""")
    game = load_game(str(base), overlays=[str(mod)])
    assert (game.definition.min_players, game.definition.max_players) == (3, 3)
    state = game.new_initial_state(3)
    assert state.current_player() == 1


def test_two_overlays_apply_in_order(tmp_path, base):
    first = overlay(tmp_path, "patch:\n  cards:\n    fireball: {effects: {play: \"gain 7 vp\"}}\n", "a.yaml")
    second = overlay(tmp_path, "patch:\n  cards:\n    fireball: {effects: {play: \"gain 9 vp\"}}\n", "b.yaml")
    assert play_fireball(load_game(str(base), overlays=[str(first), str(second)])) == 9
    assert play_fireball(load_game(str(base), overlays=[str(second), str(first)])) == 7


def test_overlay_as_a_folder(tmp_path, base):
    folder = tmp_path / "mod-folder"
    folder.mkdir()
    overlay(folder, "patch:\n  cards:\n    fireball: {effects: {play: \"gain 4 vp\"}}\n", "overlay.yaml")
    assert play_fireball(load_game(str(base), overlays=[str(folder)])) == 4


# ---- positions of mistakes inside overlays ---------------------------------------------------------


def diagnostics(base: pathlib.Path, overlays=(), variants=()):
    with pytest.raises(RuleFileError) as caught:
        load_game(str(base), overlays=[str(o) for o in overlays], variants=list(variants))
    return caught.value.diagnostics


def test_error_in_a_patched_effect_points_into_the_overlay(tmp_path, base):
    mod = overlay(tmp_path, """
patch:
  cards:
    fireball:
      effects:
        play: |
          gain 3 vp
          gain 1 vpp
""")
    (d,) = diagnostics(base, [mod])
    assert d.code == "bad-target" and d.hint == "did you mean 'vp'?"
    assert (d.path, d.line, d.column) == (str(mod), *find_column(mod, "vpp"))
    assert d.source_line.strip() == "gain 1 vpp"


def test_syntax_error_in_an_added_action_points_into_the_overlay(tmp_path, base):
    mod = overlay(tmp_path, """
add:
  actions:
    chant:
      during: main
      condition: "vp(me) >"
      effect: |
        if vp(me) > 1
          gain 1 vp
""")
    found = diagnostics(base, [mod])
    assert [(d.code, d.path, d.line) for d in found] == [
        ("syntax", str(mod), find_column(mod, "condition")[0]),
        ("syntax", str(mod), find_column(mod, "if vp(me) > 1")[0]),
    ]
    assert found[1].column == find_column(mod, "if vp(me) > 1")[1] + len("if vp(me) > 1")


def test_patched_field_points_into_the_overlay_and_the_rest_into_the_base(tmp_path, base):
    mod = overlay(tmp_path, """
patch:
  cards:
    ember: {in: hnad}
  actions:
    play: {effect: "use c \\"ply\\""}
""")
    found = diagnostics(base, [mod])
    got = sorted((d.code, d.path, d.line, d.column) for d in found)
    ply_line = find_column(mod, '\\"ply\\"')[0]
    assert got == sorted([
        ("unknown-name", str(mod), *find_column(mod, "hnad")),
        ("unknown-effect", str(mod), ply_line, find_column(mod, "use c")[1]),
    ]), [d.format() for d in found]


def test_error_in_a_replaced_definition_points_into_the_overlay(tmp_path, base):
    mod = overlay(tmp_path, """
replace:
  actions:
    play:
      during: main
      effect: "gain 1 pv"
""")
    (d,) = diagnostics(base, [mod])
    assert (d.path, d.line, d.column) == (str(mod), *find_column(mod, "pv\""))


def test_set_flow_errors_point_into_the_overlay(tmp_path, base):
    mod = overlay(tmp_path, """
set:
  flow: |
    turn 0:
      take actions mian
""")
    (d,) = diagnostics(base, [mod])
    assert (d.code, d.path, d.line, d.column) == ("unknown-group", str(mod), *find_column(mod, "take actions"))


def test_schema_errors_in_an_overlay(tmp_path, base):
    mod = overlay(tmp_path, """
patch:
  cards:
    ember: {count: many}
""")
    (d,) = diagnostics(base, [mod])
    assert (d.code, d.path, d.line, d.column) == ("schema", str(mod), *find_column(mod, "many"))


def test_overlay_on_the_wrong_base(tmp_path, base):
    mod = tmp_path / "other.yaml"
    mod.write_text("orrery: 1\noverlay: other\nbase: tic-tac-toe\npatch:\n  cards:\n    ember: {count: 1}\n")
    (d,) = diagnostics(base, [mod])
    assert (d.code, d.line, d.column) == ("overlay-base", 3, 7)


# ---- variants ---------------------------------------------------------------------------------


def test_variants_chosen_by_name(base):
    assert play_fireball(load_game(str(base), variants=["hot"])) == 5
    cold = load_game(str(base), variants=["cold"])
    assert "fireball" not in cold.definition.card_index
    assert cold.definition.variants == ("cold",)
    assert set(cold.definition.available_variants) == {"cold", "hot"}
    assert cold.definition.available_variants["hot"] == "Fireballs burn brighter."


def test_variant_and_overlay_together(tmp_path, base):
    mod = overlay(tmp_path, "patch:\n  cards:\n    ember: {count: 5}\n")
    game = load_game(str(base), variants=["hot"], overlays=[str(mod)])
    assert play_fireball(game) == 5
    assert zone(game.new_initial_state(2), "deck").count("ember") == 5


def test_variant_removing_a_used_card_is_reported(tmp_path):
    path = write_toy(tmp_path, BASE.replace("""    set: {setup: 'create 1 "ember" in hand(0)'}\n""", ""))
    found = diagnostics(path, variants=["cold"])
    assert [(d.code, d.line) for d in found] == [("unknown-card", find_column(path, "create 1")[0])]


def test_error_inside_a_variant_points_into_the_game_file(tmp_path):
    path = write_toy(tmp_path, BASE.replace('fireball: {effects: {play: "gain 5 vp"}}',
                                            'fireball: {effects: {play: "gain 5 pv"}}'))
    found = diagnostics(path, variants=["hot"])
    assert [(d.code, d.path, d.line, d.column) for d in found] == [
        ("bad-target", str(path), *find_column(path, "pv\""))]


def test_variant_conflicts_are_reported(tmp_path):
    path = write_toy(tmp_path, BASE.replace("remove: {cards: [fireball]}", "remove: {cards: [firebal]}"))
    (d,) = diagnostics(path, variants=["cold"])
    assert d.code == "overlay-missing" and d.hint == "did you mean 'fireball'?"
    assert (d.path, d.line) == (str(path), find_column(path, "firebal]")[0])


def test_unknown_variant_did_you_mean(base):
    (d,) = diagnostics(base, variants=["hto"])
    assert d.code == "unknown-variant" and d.hint == "did you mean 'hot'?"


# ---- the bundled example mod ----------------------------------------------------------------------


def test_example_mod_by_path_and_by_name():
    root = pathlib.Path(__file__).resolve().parent.parent
    by_path = load_game(str(root / "examples" / "star-market"),
                        overlays=[str(root / "examples" / "star-market-overcharge")])
    by_name = load_game("star-market", overlays=["star-market-overcharge"])
    assert by_path.definition.data_hash == by_name.definition.data_hash
    assert by_name.definition.overlays == ("star-market-overcharge",)


def test_runtime_error_in_a_patched_effect_names_the_overlay(tmp_path, base):
    mod = overlay(tmp_path, """
patch:
  cards:
    fireball:
      effects:
        play: |
          gain 1 vp
          pay 5 vp
""")
    game = load_game(str(base), overlays=[str(mod)])
    state = game.new_initial_state(2, seed=1)
    fireball = next(t for t in texts(state) if "fireball" in t)
    with pytest.raises(GameError) as caught:
        state.apply_action(fireball)
    line, column = find_column(mod, "pay 5 vp")
    assert str(caught.value).startswith(f"{mod}:{line}:{column} (cards.fireball.effects.play): cannot pay 5 vp")
