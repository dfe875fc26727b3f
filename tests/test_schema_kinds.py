"""Schema kinds: game, overlay and include files each have a schema, every bundled file
validates against its kind when a generic YAML 1.1 tool reads it (PyYAML +
jsonschema, what editors' plugins and CI scripts use), and `orrery schema --kind`
prints each one.
"""

from __future__ import annotations

import json
import pathlib

import pytest
import yaml
from conftest import write_toy
from jsonschema import Draft202012Validator

from interpreter import RuleFileError, load_game
from interpreter.cli import main
from interpreter.rules import schema

ROOT = pathlib.Path(__file__).resolve().parent.parent


def bundled_files() -> list[tuple[pathlib.Path, str]]:
    """Every bundled rule file and its kind: overlays name their base, included files
    are named by a game's `include:`, the rest are games."""
    files = sorted(p for p in [*ROOT.glob("games/**/*.yaml"), *ROOT.glob("examples/**/*.yaml")]
                   if "scenarios" not in p.parent.parts)  # scenario files (`orrery test`) are no rule files
    included = set()
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict):
            included |= {(path.parent / name).resolve() for name in data.get("include") or ()}
    kinds = []
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        kind = "overlay" if "overlay" in data else "include" if path.resolve() in included else "game"
        kinds.append((path, kind))
    return kinds


def test_every_kind_appears_among_the_bundled_files():
    assert {kind for _, kind in bundled_files()} == {"game", "overlay", "include"}


@pytest.mark.parametrize(("path", "kind"), bundled_files(), ids=lambda v: str(v).split("orrery")[-1])
def test_every_bundled_file_validates_when_read_as_yaml_1_1(path: pathlib.Path, kind: str):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))        # plain PyYAML: `on` would be true
    with (ROOT / "schema" / f"{kind}.schema.json").open(encoding="utf-8") as handle:
        validator = Draft202012Validator(json.load(handle))
    problems = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
    assert problems == []


def test_a_bare_on_read_as_yaml_1_1_fails_the_schema_so_bundled_files_quote_it():
    data = yaml.safe_load("trigger: {on: turn_start, effect: 'gain 1 vp'}")
    assert True in data["trigger"]                               # why the bundled files write "on"
    trigger = schema.load_schema("game")["definitions"]["trigger"]
    assert "on" in trigger["required"]


def test_the_include_schema_has_sections_only():
    include = schema.load_schema("include")
    assert "required" not in include
    assert not {"orrery", "id", "name", "include"} & set(include["properties"])
    assert {"cards", "actions", "triggers", "setup"} <= set(include["properties"])


def test_an_included_file_with_a_header_or_an_include_is_reported(tmp_path):
    game = write_toy(tmp_path, """
orrery: 1
id: toy
name: Toy
include: [more.yaml]
counters: {vp: {scope: player}}
flow: "turn 0:\\n  gain 1 vp"
""")
    (game.parent / "more.yaml").write_text("id: other\ninclude: [x.yaml]\ncards: {}\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load_game(str(game))
    found = [(d.path, d.line, d.code) for d in err.value.diagnostics]
    assert (str(game.parent / "more.yaml"), 1, "schema") in found
    assert (str(game.parent / "more.yaml"), 2, "schema") in found


def test_an_included_file_of_sections_loads(tmp_path):
    game = write_toy(tmp_path, """
orrery: 1
id: toy
name: Toy
players: {min: 1, max: 1}
include: [more.yaml]
flow: "turn 0:\\n  gain 1 vp"
""")
    (game.parent / "more.yaml").write_text("counters: {vp: {scope: player}}\n", encoding="utf-8")
    assert [c.name for c in load_game(str(game)).definition.counters] == ["vp"]


@pytest.mark.parametrize(("argv", "kind"), [
    ([], "game"), (["--kind", "game"], "game"), (["--kind", "overlay"], "overlay"),
    (["--overlay"], "overlay"), (["--kind", "include"], "include"), (["--overlay", "--kind", "overlay"], "overlay"),
])
def test_schema_kind_flag(capsys, argv, kind):
    assert main(["schema", *argv]) == 0
    assert json.loads(capsys.readouterr().out) == schema.load_schema(kind)


def test_schema_kind_flag_bad_input(capsys):
    assert main(["schema", "--kind", "mod"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert main(["schema", "--overlay", "--kind", "include"]) == 2
    assert "name different kinds" in capsys.readouterr().err


def test_the_bundled_example_mod_carries_the_editor_modeline():
    first = (ROOT / "examples/rocketmen-setup-mission/overlay.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../schema/overlay.schema.json"
    assert (ROOT / "examples/rocketmen-setup-mission" / "../../schema/overlay.schema.json").resolve().is_file()
