"""The JSON Schemas of rule files and the diagnostics `interpreter.schema.check` gives."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from jsonschema import Draft7Validator, Draft202012Validator

from interpreter.rules import schema, yamlload

# Keywords that mean the same in draft-07 and draft 2020-12 (editors' YAML plugins).
PORTABLE = {
    "$schema",
    "$ref",
    "definitions",
    "title",
    "description",
    "examples",
    "type",
    "properties",
    "additionalProperties",
    "required",
    "enum",
    "const",
    "items",
    "patternProperties",
    "propertyNames",
    "pattern",
    "minimum",
    "minItems",
    "oneOf",
    "anyOf",
}

FULL_GAME = """\
orrery: 1
id: star-market
name: Star Market
version: "1.2"
description: A small deck-builder covering every section of the format.
players: {min: 2, max: 4, default: 3}
include: [cards.yaml]
assumptions:
  - {id: board-geometry, text: "The rulebook shows no distances; chosen so that ..."}
constants:
  lines: [[0, 1, 2], [3, 4, 5]]
  earth: {water: {primary: water, secondary: [iron, fuel, oxygen]}}
  start_hand: 5
counters:
  chips: {scope: player, initial: 2, min: 0, max: 99, visible: all, label: Chips}
  mark: {scope: global, size: 9, initial: 0}
  resource: {scope: player, keys: [iron, fuel], initial: {iron: 1, fuel: 0}, visible: owner}
  vp: {scope: player, initial: 0, assumed: "starting score not printed"}
zones:
  deck: {scope: global, visible: none, order: hidden}
  hand: {scope: player, visible: owner, label: Hand}
  discard: {scope: player, visible: all, order: visible}
  draw:
    scope: player
    visible: none
    refill: {from: discard, shuffle: true}
    assumed: "the rulebook does not say"
  play_area: {scope: player, visible: all}
cards:
  jack: {name: Jack, type: card, count: 1, in: deck, properties: {rank: 1, suit: [a, b]}}
  boost:
    name: Boost
    type: card
    count: 0
    properties: {resource: any}
    effects:
      play: "gain 1 vp"
      scrap-it: "destroy this"
    triggers:
      boost-on-draw: {on: entered hand, when: "true", effect: "gain 1 chips"}
    modifiers:
      boost-hand: {value: hand_size, op: add, amount: "1"}
    active_in: [play_area]
    tags: [starter, blue]
    assumed: "cost not printed; chosen to ..."
values:
  hand_size: {of: player, base: "3", label: Hand size}
  protected: {of: player, base: "false"}
  round_bonus: {of: none, base: "round_number", assumed: guess}
modifiers:
  big-hand: {value: hand_size, op: add, amount: "1", when: "count(hand(p)) > 0"}
  shielded: {value: protected, op: set, amount: "true", granted: true, label: Shielded}
  capped: {value: hand_size, op: min, amount: "7", assumed: "no cap printed"}
procedures:
  deal: {params: [p, n], effect: "draw n from draw(p) to hand(p)"}
actions:
  place:
    during: turn
    params: {cell: "[i for i in range(9) if mark[i] == 0]"}
    condition: "true"
    cost: {chips: "1", vp: 0}
    effect: "set mark[cell] to me + 1"
    limit: {per_turn: 1, per_round: 2, per_game: 5}
    ends: turn
    label: "mark cell {cell}"
    assumed: "limit guessed"
  pass: {during: turn, ends: turn}
triggers:
  asteroid-on-reshuffle:
    on: refilled draw
    when: "true"
    effect: "create 1 \\"boost\\" in discard(player)"
    assumed: "timing unclear"
events:
  scored: {params: [player, amount]}
  reset: {params: [], assumed: "no such event in the rulebook"}
setup: |
  for each p in players:
    deal(p, 5)
flow: |
  round:
    for each p in players_from(players[0], "clockwise"):
      turn p:
        take actions turn
end:
  - {id: three-in-a-row, when: "any([true])", check: action, winners: "[me]"}
  - {id: threshold, when: "max([vp(p) for p in players]) >= 25", check: round, then: finish_round}
  - {id: timeout, when: "round_number > 20", check: turn, then: finish_turn}
scoring:
  eligible: "true"
  score: "vp(p)"
  tie_breaks: ["chips(p)", "count(hand(p))"]
  returns: "chips(p) - 2"
variants:
  first-game:
    description: "Without the boost cards."
    players: {min: 2, max: 3}
    add: {cards: {queen: {name: Queen, count: 1, in: deck}}}
    replace: {values: {hand_size: {of: player, base: "4"}}}
    patch: {cards: {jack: {properties: {rank: 2}}}, zones: {draw: {refill: {shuffle: false}}}}
    remove: {cards: [boost], modifiers: [capped]}
    set: {setup: "log \\"short game\\"", players: {min: 2, max: 2}}
    assumed: "suggested by the designer"
bots:
  dice-bot:
    description: "Rolls a die and does what it says."
    turn: "if random(1, 6) <= 3: pass_turn()"
    choose: random
    assumed: "behaviour invented"
  first-bot: {choose: first}
"""

FULL_OVERLAY = """\
orrery: 1
overlay: stronger-boost
base: star-market
name: Stronger boost
description: Boost gains more.
version: "0.1"
assumptions:
  - {id: balance, text: "Guessed numbers."}
add:
  cards:
    ember: {name: Ember, count: 2, in: deck, effects: {play: "gain 2 vp"}}
  constants: {ember_power: 2}
  variants:
    hard: {description: Harder, remove: {cards: [jack]}}
replace:
  cards: {boost: {name: Boost, effects: {play: "gain 3 vp"}}}
patch:
  cards:
    boost:
      effects: {play: "gain 3 vp"}
      triggers: {boost-on-draw: {effect: "gain 2 chips"}}
  actions: {place: {limit: {per_turn: 2}}}
  counters: {chips: {initial: 3}}
remove:
  cards: [jack]
  bots: [first-bot]
set:
  flow: "repeat forever:\\n  stop"
  players: {min: 1, max: 4}
  end: [{id: quick, when: "true", check: action}]
  scoring: {score: "vp(p)"}
  name: Star Market Plus
  description: With embers.
"""


def diagnose(text: str, kind: str = "game") -> list[Any]:
    data, positions = yamlload.load_yaml_text(textwrap.dedent(text), f"{kind}.yaml")
    return schema.check(data, positions, kind)


# --- the schemas themselves -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["game", "overlay"])
def test_schema_is_valid_in_both_drafts(kind: str) -> None:
    document = schema.load_schema(kind)
    Draft202012Validator.check_schema(document)
    Draft7Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("kind", ["game", "overlay"])
def test_schema_uses_only_portable_keywords(kind: str) -> None:
    used: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                used.add(key)
                if key in ("properties", "definitions", "patternProperties"):
                    for sub in value.values():
                        walk(sub)
                elif key not in ("examples", "enum", "const", "required"):
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(schema.load_schema(kind))
    assert used <= PORTABLE, used - PORTABLE


@pytest.mark.parametrize("kind", ["game", "overlay"])
def test_every_object_rejects_unknown_keys(kind: str) -> None:
    free = {"properties", "constants", "initial"}  # free-form by the format

    def walk(node: object, name: str) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                assert node.get("additionalProperties") is False, name
            if (
                node.get("type") == "object"
                and "properties" not in node
                and name not in free
            ):
                assert "additionalProperties" in node or "propertyNames" in node, name
            for key, value in node.items():
                if key in ("properties", "definitions"):
                    for sub_name, sub in value.items():
                        walk(sub, sub_name)
                elif key not in ("examples", "enum", "const"):
                    walk(value, name)
        elif isinstance(node, list):
            for item in node:
                walk(item, name)

    walk(schema.load_schema(kind), "")


def test_schema_path_finds_repo_schemas() -> None:
    path = schema.schema_path("game")
    assert path.name == "game.schema.json"
    assert path.is_file()
    with pytest.raises(ValueError):
        schema.schema_path("deck")


def test_load_schema_is_cached() -> None:
    assert schema.load_schema("overlay") is schema.load_schema("overlay")


# --- valid documents ------------------------------------------------------------------------


def test_full_game_passes() -> None:
    assert diagnose(FULL_GAME) == []


def test_full_overlay_passes() -> None:
    assert diagnose(FULL_OVERLAY, "overlay") == []


def test_minimal_documents_pass() -> None:
    assert diagnose("orrery: 1\nid: x\nname: X\n") == []
    assert diagnose("orrery: 1\noverlay: m\nbase: x\n", "overlay") == []


# --- broken documents -----------------------------------------------------------------------

BROKEN = [
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        cards:
          jack:
            name: Jack
            cuont: 2
        """,
        7,
        5,
        ["unknown key 'cuont' in cards.jack"],
        "did you mean 'count'?",
        id="unknown-key-card",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        zone:
          hand: {scope: player}
        """,
        4,
        1,
        ["unknown key 'zone' at the top level"],
        "did you mean 'zones'?",
        id="unknown-key-top",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        zones:
          hand: {scope: player, flavour: x}
        """,
        5,
        25,
        ["unknown key 'flavour' in zones.hand"],
        "allowed keys: scope, visible",
        id="unknown-key-no-close-match",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        cards:
          jack:
            name: Jack
            count: two
        """,
        7,
        12,
        ["cards.jack.count must be an integer, not 'two'"],
        None,
        id="wrong-type",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        values:
          hand_size: {of: player, base: 3}
        """,
        5,
        33,
        ["values.hand_size.base must be a string, not 3"],
        'put the value in quotes: "3"',
        id="wrong-type-quote-hint",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        modifiers:
          m: {value: v, op: add, amount: "1", granted: yes}
        """,
        5,
        48,
        ["modifiers.m.granted must be true or false, not 'yes'"],
        "only true and false are booleans",
        id="wrong-type-yes",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        counters:
          resource: {scope: player, initial: lots}
        """,
        5,
        38,
        ["counters.resource.initial must be an integer or a list or a map, not 'lots'"],
        None,
        id="wrong-type-any-of",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        counters:
          resource: {scope: player, initial: {iron: many}}
        """,
        5,
        45,
        ["counters.resource.initial.iron must be an integer, not 'many'"],
        None,
        id="wrong-type-inside-any-of",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        zones:
          hand: {scope: player, visible: owners}
        """,
        5,
        34,
        ["zones.hand.visible must be one of: all, owner, none"],
        "did you mean 'owner'?",
        id="bad-enum",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        end:
          - {id: done, when: "true", check: game}
        """,
        5,
        37,
        ["end[0].check must be one of: action, turn, round"],
        "got 'game'",
        id="bad-enum-in-list",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        """,
        1,
        1,
        ["missing required key 'name'"],
        None,
        id="missing-required-top",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        procedures:
          deal: {params: [p]}
        """,
        5,
        3,
        ["missing required key 'effect' in procedures.deal"],
        None,
        id="missing-required-nested",
    ),
    pytest.param(
        "game",
        """\
        orrery: 3
        id: g
        name: G
        """,
        1,
        9,
        ["orrery must be one of: 1, 2"],
        None,
        id="bad-format-version",
    ),
    pytest.param(
        "overlay",
        """\
        orrery: 1
        overlay: m
        base: g
        add:
          cards:
            ember: {name: Ember, cost: 3}
        """,
        6,
        26,
        ["unknown key 'cost' in add.cards.ember"],
        "did you mean 'count'?",
        id="overlay-unknown-key-in-add",
    ),
    pytest.param(
        "overlay",
        """\
        orrery: 1
        overlay: m
        base: g
        patch:
          card: {jack: {count: 2}}
        """,
        5,
        3,
        ["unknown key 'card' in patch"],
        "did you mean 'cards'?",
        id="overlay-unknown-section",
    ),
    pytest.param(
        "overlay",
        """\
        orrery: 1
        overlay: m
        base: g
        patch:
          cards: {jack: {conut: 2}}
        """,
        5,
        18,
        ["unknown key 'conut' in patch.cards.jack"],
        "did you mean 'count'?",
        id="overlay-unknown-key-in-patch",
    ),
    pytest.param(
        "overlay",
        """\
        orrery: 1
        overlay: m
        base: g
        set:
          flow: "stop"
          counters: {}
        """,
        6,
        3,
        ["unknown key 'counters' in set"],
        None,
        id="overlay-set-only-top-level-entries",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        cards:
          Big Jack: {name: Jack}
        """,
        5,
        3,
        ["name 'Big Jack' in cards is not a valid name", "lowercase"],
        "did you mean 'big-jack'?",
        id="bad-id-pattern",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: Tic Tac
        name: G
        """,
        2,
        5,
        ["id 'Tic Tac' is not a valid name"],
        "did you mean 'tic-tac'?",
        id="bad-id-value",
    ),
    pytest.param(
        "game",
        """\
        orrery: 1
        id: g
        name: G
        procedures:
          deal: {params: [p, hand-size], effect: "stop"}
        """,
        5,
        22,
        ["procedures.deal.params[1] 'hand-size' is not a valid name", "'_'"],
        "did you mean 'hand_size'?",
        id="bad-param-name",
    ),
]


@pytest.mark.parametrize(("kind", "text", "line", "column", "words", "hint"), BROKEN)
def test_broken_document(
    kind: str, text: str, line: int, column: int, words: list[str], hint: str | None
) -> None:
    found = diagnose(text, kind)
    assert len(found) == 1, [d.format() for d in found]
    (diagnostic,) = found
    assert diagnostic.code == "schema"
    assert diagnostic.path == f"{kind}.yaml"
    assert (diagnostic.line, diagnostic.column) == (line, column), diagnostic.format()
    for word in words:
        assert word in diagnostic.message, diagnostic.message
    if hint is None:
        assert diagnostic.hint is None or "did you mean" not in diagnostic.hint
    else:
        assert diagnostic.hint is not None and hint in diagnostic.hint, diagnostic.hint
    assert "{" not in diagnostic.message  # no raw jsonschema dumps


def test_all_errors_are_reported_sorted() -> None:
    found = diagnose(
        """\
        orrery: 1
        name: G
        zones:
          hand: {scope: everyone, visble: all}
        cards:
          jack: {name: Jack, count: -1}
        """
    )
    assert [(d.line, d.message) for d in found] == [
        (1, "missing required key 'id'"),
        (4, "zones.hand.scope must be one of: player, global"),
        (4, "unknown key 'visble' in zones.hand"),
        (6, "cards.jack.count must be at least 0, not -1"),
    ]
    assert found[2].hint == "did you mean 'visible'?"
    assert [d.column for d in found[1:3]] == [17, 27]


def test_unknown_key_diagnostic_points_a_caret_at_the_key() -> None:
    (diagnostic,) = diagnose("orrery: 1\nid: g\nname: G\ncolour: red\n")
    text = diagnostic.format()
    assert text.startswith(
        "game.yaml:4:1: error[schema]: unknown key 'colour' at the top level"
    )
    assert "colour: red\n    ^^^^^^" in text


def test_the_shipped_schemas_are_what_schema_generate_writes() -> None:
    """The JSON files are generated (schema/generate.py is their source): a change made
    to the JSON alone would be lost at the next generation, so it is refused here."""
    import importlib.util
    import json
    import pathlib
    folder = pathlib.Path(__file__).parent.parent / "schema"
    spec = importlib.util.spec_from_file_location("schema_generate", folder / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    for kind, make in generate.KINDS:
        shipped = (folder / f"{kind}.schema.json").read_text(encoding="utf-8")
        assert shipped == json.dumps(make(), indent=2) + "\n", f"{kind}: run python schema/generate.py schema"
