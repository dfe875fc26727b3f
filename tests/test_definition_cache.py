"""A game loaded again in one process shares its frozen definition (game/factory.py):
only when every file read has the same bytes and the same variants, overlays and
constants are chosen; anything else is compiled anew."""

from __future__ import annotations

import pathlib

from conftest import generated_ns

from interpreter import load_game
from interpreter.resources import data_path


def same_build(a: object, b: object) -> bool:
    """Whether two definitions come of one build: one namespace of generated code. (A
    definition with declared utility or move bound is a copy made on top of it.)"""
    return generated_ns(a) is generated_ns(b)


def copy_of(name: str, where: pathlib.Path) -> pathlib.Path:
    path = where / "game.yaml"
    path.write_text((data_path("examples") / name / "game.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    return path


def test_the_same_files_share_one_definition_and_play_alike(tmp_path: pathlib.Path) -> None:
    path = copy_of("tic-tac-toe", tmp_path)
    first, again = load_game(str(path)), load_game(str(path))
    assert first is not again and same_build(first.definition, again.definition)
    a, b = first.new_initial_state(seed=3), again.new_initial_state(seed=3)
    for move in ("place 4", "place 0", "place 8"):
        a.apply_action(move)
        b.apply_action(move)
    assert a == b and a.to_json() == b.to_json()


def test_a_changed_byte_or_another_choice_compiles_anew(tmp_path: pathlib.Path) -> None:
    path = copy_of("goofspiel", tmp_path)
    first = load_game(str(path))
    path.write_text(path.read_text(encoding="utf-8") + "\n# a comment moves nothing but the bytes\n", encoding="utf-8")
    edited = load_game(str(path))
    assert not same_build(edited.definition, first.definition)
    assert edited.definition.data_hash == first.definition.data_hash  # (same rules: only the file differs)
    assert first.definition.constants["num_cards"] == 13
    assert not same_build(load_game(str(path), constants={"num_cards": 5}).definition, edited.definition)
    assert same_build(load_game(str(path)).definition, edited.definition)
