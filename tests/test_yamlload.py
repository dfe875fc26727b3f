"""Tests of the safe YAML reader: each safety rule with its code, line and column, and
the positions later stages use to point into rule files (effect texts included)."""

from __future__ import annotations

import pathlib
import textwrap
from typing import Any

import pytest
import yaml

from interpreter.diagnostics import Diagnostic, RuleFileError
from interpreter.rules import yamlload
from interpreter.rules.positions import Located
from interpreter.rules.yamlload import MAX_FILE_BYTES, load_yaml, load_yaml_text


def load(text: str) -> Any:
    return load_yaml_text(textwrap.dedent(text), "game.yaml")[0]


def positions(text: str) -> yamlload.PositionMap:
    return load_yaml_text(textwrap.dedent(text), "game.yaml")[1]


def problems(text: str) -> list[Diagnostic]:
    with pytest.raises(RuleFileError) as caught:
        load_yaml_text(textwrap.dedent(text), "game.yaml")
    return caught.value.diagnostics


def where(found: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.column) for d in found]


def only(text: str, code: str) -> Diagnostic:
    found = problems(text)
    assert [d.code for d in found] == [code], found
    return found[0]


@pytest.fixture(params=["libyaml", "python"])
def either_parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a test with the C parser and with PyYAML's pure-Python fallback."""
    if request.param == "python":
        monkeypatch.setattr(yamlload, "_LOADER", yaml.SafeLoader)


# -- scalars ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("FALSE", False),
        ("null", None),
        ("~", None),
        ("", None),
        ("12", 12),
        ("-3", -3),
        ("+4", 4),
        ("1.5", 1.5),
        ("-0.25", -0.25),
        ("no", "no"),
        ("yes", "yes"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("n", "n"),
        ("1_000", "1_000"),
        ("2024-01-02", "2024-01-02"),
        ("0o7", "0o7"),
        ("0x1F", "0x1F"),
        (".inf", ".inf"),
        (".nan", ".nan"),
        ("1e3", "1e3"),
        ("12:30", "12:30"),
        ("'true'", "true"),
        ('"12"', "12"),
        ("'null'", "null"),
        ("''", ""),
    ],
)
def test_scalars_resolve_narrowly(written: str, expected: object) -> None:
    value = load(f"value: {written}\n")["value"]
    assert value == expected
    assert type(value) is type(expected)


def test_standard_tags_are_allowed() -> None:
    data = load("""\
        a: !!str 12
        b: !!int "5"
        c: !!float 2
        d: !!bool "true"
        e: !!null ""
        f: ! 7
        g: !!map {x: 1}
        h: !!seq [1]
        """)
    assert data == {
        "a": "12",
        "b": 5,
        "c": 2.0,
        "d": True,
        "e": None,
        "f": "7",
        "g": {"x": 1},
        "h": [1],
    }


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a: !!python/object/apply:os.system [echo hi]\n", 1, 4),
        ("a: !!python/name:os.system ''\n", 1, 4),
        ("a:\n  b: !custom x\n", 2, 6),
        ("a: !!binary aGVsbG8=\n", 1, 4),
        ("a: !!set {x}\n", 1, 4),
        ("a: !!timestamp 2001-12-14\n", 1, 4),
        ("- !!str [1]\n", 1, 3),
    ],
)
def test_other_tags_are_refused(text: str, line: int, column: int) -> None:
    found = only(text, "yaml-tag")
    assert (found.line, found.column) == (line, column)


def test_a_tag_is_never_executed(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    def refuse(*args: object) -> int:
        raise AssertionError("constructed a Python object")

    monkeypatch.setattr(os, "system", refuse)
    only("a: !!python/object/apply:os.system [echo hi]\n", "yaml-tag")


def test_a_tagged_value_must_fit_its_tag() -> None:
    found = only("a: 1\nb: !!bool yes\n", "yaml-tag")
    assert (found.line, found.column) == (2, 11)
    assert "'yes' is not a valid !!bool" in found.message


def test_numbers_too_large_are_reported() -> None:
    found = problems("a: " + "9" * 5000 + "\nb: 1.0e999\n")
    assert where(found) == [("yaml-number", 1, 4), ("yaml-number", 2, 4)]


# -- keys -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("1: a\n", 1, 1, "integer 1"),
        ("a: 1\ntrue: b\n", 2, 1, "boolean True"),
        ("a:\n  ~: b\n", 2, 3, "an empty key"),
        ("a:\n  1.5: b\n", 2, 3, "number 1.5"),
        ("? [x, y]\n: c\n", 1, 3, "a list"),
        ("? {x: 1}\n: c\n", 1, 3, "a map"),
    ],
)
def test_keys_must_be_strings(text: str, line: int, column: int, words: str) -> None:
    found = only(text, "yaml-key")
    assert (found.line, found.column) == (line, column)
    assert words in found.message


def test_a_non_string_key_hints_at_quotes() -> None:
    assert only("TRUE: 1\n", "yaml-key").hint == 'write it in quotes: "TRUE"'


def test_quoted_number_keys_are_fine() -> None:
    assert load("'1': a\n\"2\": b\n") == {"1": "a", "2": "b"}


def test_duplicate_key_is_reported_at_the_second_occurrence(
    either_parser: None,
) -> None:
    found = only(
        """\
        cards:
          queen: {}
          jack: {rank: 1}
          king: {}
          jack: {rank: 2}
        """,
        "duplicate-key",
    )
    assert (found.line, found.column) == (5, 3)
    assert found.message == "duplicate key 'jack' (first defined at line 3)"


def test_every_duplicate_key_is_reported() -> None:
    found = problems("""\
        a: 1
        b: {x: 1, y: 2, x: 3}
        a: 2
        c: [{k: 1}, {k: 2, k: 3}]
        """)
    assert where(found) == [
        ("duplicate-key", 2, 17),
        ("duplicate-key", 3, 1),
        ("duplicate-key", 4, 20),
    ]


def test_same_key_in_different_maps_is_fine() -> None:
    assert load("a: {x: 1}\nb: {x: 2}\n") == {"a": {"x": 1}, "b": {"x": 2}}


# -- merge keys -------------------------------------------------------------------------


def test_merge_keys_written_keys_win_wherever_they_are() -> None:
    data = load("""\
        base: &base {cost: 1, kind: card, tags: [a]}
        before:
          cost: 3
          <<: *base
        after:
          <<: *base
          cost: 2
        """)
    assert data["before"] == {"cost": 3, "kind": "card", "tags": ["a"]}
    assert data["after"] == {"cost": 2, "kind": "card", "tags": ["a"]}


def test_merge_key_list_earlier_maps_win() -> None:
    data = load("""\
        one: &one {a: 1, b: 1}
        two: &two {b: 2, c: 2}
        both:
          <<: [*one, *two, {d: 4}]
          c: 3
        """)
    assert data["both"] == {"a": 1, "b": 1, "c": 3, "d": 4}


def test_merged_values_are_located_where_they_are_written() -> None:
    where_ = positions("""\
        base: &base
          cost: 1
          effects: {play: "gain 1 x"}
        cards:
          jack:
            <<: *base
        """)
    assert where_.value(("cards", "jack", "cost")) == Located(2, 9, None)
    assert where_.key(("cards", "jack", "cost")) == Located(2, 3, None)
    assert where_.value(("cards", "jack", "effects", "play")) == Located(3, 19, '"')


def test_merge_inside_an_anchor_carries_through_an_alias() -> None:
    data = load("""\
        a: &a {x: 1}
        b: &b {<<: *a, y: 2}
        c: {<<: *b, z: 3}
        """)
    assert data["c"] == {"x": 1, "y": 2, "z": 3}


@pytest.mark.parametrize("value", ["1", "[1, 2]", "[{a: 1}, x]"])
def test_merge_value_must_be_maps(value: str) -> None:
    found = only(f"a:\n  <<: {value}\n", "yaml-merge")
    assert (found.line, found.column) == (2, 7)


def test_quoted_merge_key_is_an_ordinary_key() -> None:
    assert load("a: {'<<': 1}\n") == {"a": {"<<": 1}}


def test_two_merge_keys_are_duplicates() -> None:
    found = only("a: &a {x: 1}\nb:\n  <<: *a\n  <<: *a\n", "duplicate-key")
    assert (found.line, found.column) == (4, 3)


# -- aliases ----------------------------------------------------------------------------


def test_aliases_copy_their_anchor() -> None:
    data = load("a: &a {x: [1]}\nb: *a\n")
    assert data["b"] == {"x": [1]}
    data["b"]["x"].append(2)  # later stages may change one use without touching others
    assert data["a"] == {"x": [1]}


def test_an_alias_is_located_at_its_anchor() -> None:
    where_ = positions("a: &a\n  x: 1\nb:\n  c: *a\n")
    assert where_.key(("b", "c")) == Located(4, 3, None)
    assert where_.value(("b", "c", "x")) == Located(2, 6, None)


def test_latest_anchor_of_a_name_wins() -> None:
    assert load("a: &x 1\nb: &x 2\nc: *x\n")["c"] == 2


def test_billion_laughs_fails_fast() -> None:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for level in range(1, 10):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * 9) + "]")
    text = "\n".join(lines) + "\n"
    assert len(text) < 1000
    found = problems(text)  # stops at the node limit: never builds the 9**10 nodes (no timing needed)
    assert [d.code for d in found] == ["yaml-too-large"]
    assert "too many nodes after expanding aliases" in found[0].message
    assert found[0].line == 6  # l5 is where the expansion passes the limit


def test_nodes_are_counted_without_aliases_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(yamlload, "MAX_NODES", 10)
    found = only("[" + ", ".join(["1"] * 20) + "]\n", "yaml-too-large")
    assert (found.line, found.column) == (
        1,
        29,
    )  # the 11th node: the list and ten items


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("a: &a [*a]\n", 1, 8),
        ("a: &a {b: *a}\n", 1, 11),
        ("a: &a\n  b:\n    - *a\n", 3, 7),
    ],
)
def test_recursive_alias_is_reported(text: str, line: int, column: int) -> None:
    found = only(text, "yaml-alias")
    assert (found.line, found.column) == (line, column)
    assert "recursive" in found.message


def test_undefined_alias_is_reported() -> None:
    found = only("a: 1\nb: *nope\n", "yaml-alias")
    assert (found.line, found.column) == (2, 4)
    assert "'*nope' is undefined" in found.message


def test_an_alias_may_not_nest_too_deep() -> None:
    deep = "[" * 60 + "]" * 60
    found = only(f"a: &deep {deep}\nb: " + "[" * 50 + "*deep" + "]" * 50 + "\n", "yaml-too-deep")
    assert (found.line, found.column) == (2, 54)


# -- nesting ----------------------------------------------------------------------------


def test_nesting_up_to_the_limit_is_fine() -> None:
    data = load("[" * 100 + "]" * 100 + "\n")
    for _ in range(99):
        data = data[0]
    assert data == []


def test_nesting_too_deep_is_reported() -> None:
    found = only("a: " + "[" * 101 + "]" * 101 + "\n", "yaml-too-deep")
    assert (found.line, found.column) == (1, 103)


def test_block_nesting_too_deep_is_reported() -> None:
    text = "".join("  " * level + f"k{level}:\n" for level in range(101)) + "  " * 101 + "x: 1\n"
    found = only(text, "yaml-too-deep")
    assert found.line == 101


def test_very_deep_nesting_does_not_recurse() -> None:
    only("[" * 200_000, "yaml-too-deep")  # no RecursionError, no crash of the C parser


# -- files and text ---------------------------------------------------------------------


def test_load_yaml_reads_a_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("id: game\n", encoding="utf-8")
    data, where_ = load_yaml(path)
    assert data == {"id": "game"}
    assert where_.path == str(path)
    assert load_yaml(str(path), display_path="games/x/game.yaml")[1].path == "games/x/game.yaml"


def test_diagnostics_use_the_display_path(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("a: 1\na: 2\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        load_yaml(path, display_path="mods/m.yaml")
    assert str(caught.value).startswith("mods/m.yaml:2:1: error[duplicate-key]")


def file_problem(path: pathlib.Path) -> Diagnostic:
    with pytest.raises(RuleFileError) as caught:
        load_yaml(path)
    [found] = caught.value.diagnostics
    return found


def test_missing_file(tmp_path: pathlib.Path) -> None:
    found = file_problem(tmp_path / "none.yaml")
    assert (found.code, found.line, found.column) == ("file-not-found", 1, 1)


def test_unreadable_file(tmp_path: pathlib.Path) -> None:
    found = file_problem(tmp_path)  # a folder cannot be read as a file
    assert (found.code, found.line, found.column) == ("file-unreadable", 1, 1)


def test_too_large_file_is_not_parsed(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"[" * (MAX_FILE_BYTES + 1))
    found = file_problem(path)
    assert (found.code, found.line, found.column) == ("yaml-too-large", 1, 1)


def test_file_at_the_limit_is_read(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: 1\n" + b"#" * (MAX_FILE_BYTES - 6) + b"\n")
    assert load_yaml(path)[0] == {"a": 1}


def test_too_large_text() -> None:
    found = only("é" * (MAX_FILE_BYTES // 2 + 1), "yaml-too-large")
    assert (found.line, found.column) == (1, 1)


def test_not_utf8(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes(b"a: 1\nname: Caf\xe9\n")
    found = file_problem(path)
    assert (found.code, found.line, found.column) == ("yaml-encoding", 2, 10)


def test_utf16_gets_a_hint(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes("a: 1\n".encode("utf-16"))
    found = file_problem(path)
    assert found.code == "yaml-encoding"
    assert found.hint == "save the file as UTF-8"


def test_byte_order_mark_is_accepted(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\nb: 2\n")
    data, where_ = load_yaml(path)
    assert data == {"a": 1, "b": 2}
    assert where_.value(("b",)) == Located(2, 4, None)


def test_control_characters_are_refused() -> None:
    found = only("a: 1\nb: x\x07y\n", "yaml-encoding")
    assert (found.line, found.column) == (2, 5)


def test_syntax_error_at_the_problem(either_parser: None) -> None:
    found = only("a: [1, 2\nb: 3\n", "yaml-syntax")
    assert found.line == 2
    assert "flow sequence" in found.message


def test_syntax_error_message() -> None:
    found = only("a: 1\n b: 2\n", "yaml-syntax")
    assert (found.line, found.column) == (2, 3)
    assert found.message == "mapping values are not allowed in this context"
    assert found.source_line == " b: 2"


def test_tab_indentation_gets_a_hint() -> None:
    found = only("a:\n\tb: 2\n", "yaml-syntax")
    assert found.line == 2
    assert found.hint is not None and "tabs" in found.hint


def test_problems_before_a_syntax_error_are_kept() -> None:
    found = problems("a: 1\na: 2\nb: [\n")
    assert [d.code for d in found] == ["duplicate-key", "yaml-syntax"]


def test_parser_crash_becomes_a_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    class Exploding(yaml.SafeLoader):
        def get_event(self) -> Any:
            raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(yamlload, "_LOADER", Exploding)
    found = only("a: 1\n", "yaml-syntax")
    assert (found.line, found.column) == (1, 1)
    assert "RecursionError" in found.message


def test_multiple_documents() -> None:
    found = only("a: 1\n---\nb: 2\n", "yaml-multiple-documents")
    assert (found.line, found.column) == (2, 1)


def test_one_explicit_document_is_fine() -> None:
    assert load("---\na: 1\n...\n") == {"a": 1}


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "---\n"])
def test_empty_file_is_none(text: str) -> None:
    assert load(text) is None


def test_every_problem_is_listed() -> None:
    found = problems("""\
        a: !foo 1
        1: x
        b: *missing
        c: {d: 1, d: 2}
        """)
    assert where(found) == [
        ("yaml-tag", 1, 4),
        ("yaml-key", 2, 1),
        ("yaml-alias", 3, 4),
        ("duplicate-key", 4, 11),
    ]


def test_large_ordinary_file_loads() -> None:
    # Speed is measured in bench/, never in a timed test; this checks a big file loads whole.
    cards = "".join(
        f"  card-{i}:\n    name: Card {i}\n    count: {i % 4}\n    properties: {{rank: {i}, suit: hearts}}\n"
        f"    effects:\n      play: |\n        gain 1 power\n        draw 1 from deck to hand\n"
        for i in range(1700)
    )
    text = "orrery: 1\nid: big\ncards:\n" + cards
    assert 250_000 < len(text) < 350_000
    data, _ = load_yaml_text(text, "big.yaml")
    assert len(data["cards"]) == 1700


# -- positions --------------------------------------------------------------------------

GAME = """\
id: demo
cards:
  jack:
    name: Jack
    effects:
      play: "gain 1 power"
end:
  - {id: win, when: "vp(p) >= 3"}
  - id: other
    when: 'true'
"""


def test_positions_of_values_and_keys(either_parser: None) -> None:
    where_ = positions(GAME)
    assert where_.value(()) == Located(1, 1, None)
    assert where_.value(("cards", "jack", "name")) == Located(4, 11, None)
    assert where_.key(("cards", "jack", "name")) == Located(4, 5, None)
    assert where_.value(("cards", "jack", "effects", "play")) == Located(6, 13, '"')
    assert where_.key(("cards", "jack", "effects")) == Located(5, 5, None)
    assert where_.value(("end", 0)) == Located(8, 5, None)
    assert where_.value(("end", 0, "when")) == Located(8, 21, '"')
    assert where_.key(("end", 0, "when")) == Located(8, 15, None)
    assert where_.value(("end", 1, "when")) == Located(10, 11, "'")
    assert where_.key(("end", 1)) is None  # list items have no key
    assert where_.value(("cards", "queen")) is None


def test_block_scalar_styles_are_recorded() -> None:
    where_ = positions("a: |\n  x\nb: >-\n  y\n")
    assert where_.value(("a",)) == Located(1, 4, "|")
    assert where_.value(("b",)) == Located(3, 4, ">")


def test_nearest_walks_up() -> None:
    where_ = positions(GAME)
    assert where_.nearest(("cards", "jack", "name")) == Located(4, 11, None)
    assert where_.nearest(("cards", "jack", "cost", "x")) == Located(4, 5, None)
    assert where_.nearest(("nothing", 3)) == Located(1, 1, None)


def test_nearest_in_an_empty_file() -> None:
    assert positions("").nearest(("a",)) == Located(1, 1, None)


def test_anchored_and_tagged_scalars_are_located_at_their_text() -> None:
    where_ = positions("a: &x 'one'\nb: !!str two\n")
    assert where_.value(("a",)) == Located(1, 7, "'")
    assert where_.value(("b",)) == Located(2, 10, None)


def test_source_line() -> None:
    where_ = positions("a: 1\r\nb: 2\n")
    assert where_.source_line(2) == "b: 2"
    assert where_.source_line(0) == ""
    assert where_.source_line(9) == ""


def test_positions_count_characters_not_bytes() -> None:
    where_ = positions("é: 'ü'\n😀: &a !!str x\n")
    assert where_.value(("é",)) == Located(1, 4, "'")
    assert where_.value(("😀",)) == Located(2, 13, None)


def test_an_alias_may_be_a_key() -> None:
    data, where_ = load_yaml_text("a: &k name\nb: {*k : 1}\n", "game.yaml")
    assert data["b"] == {"name": 1}
    assert where_.key(("b", "name")) == Located(2, 5, None)


def test_an_alias_key_can_be_a_duplicate() -> None:
    found = only("a: &k name\nc: {*k : 2, name: 3}\n", "duplicate-key")
    assert (found.line, found.column) == (2, 13)


# -- text positions ---------------------------------------------------------------------


def test_text_position_plain() -> None:
    where_ = positions("effect: gain 1 power\n")
    assert where_.text_position(("effect",), 1, 6) == (1, 14)


def test_text_position_quoted() -> None:
    where_ = positions("a:\n  effect: \"gain 1 power\"\n  other: 'it''s x'\n")
    assert where_.text_position(("a", "effect"), 1, 6) == (2, 17)
    # The value "it's x": its 6th character sits past the doubled quote.
    assert where_.text_position(("a", "other"), 1, 6) == (3, 17)


def test_text_position_follows_escapes() -> None:
    where_ = positions('e: "create 1 \\"boost\\" in hand"\n')
    # value: create 1 "boost" in hand -> 'i' of 'in' is character 18
    assert where_.text_position(("e",), 1, 18) == (1, 24)


def test_text_position_literal_block(either_parser: None) -> None:
    where_ = positions("""\
        cards:
          jack:
            effects:
              play: |
                gain 1 power
                draw 1 from deck
        """)
    # "draw 1 from deck": the 5th column is the space before "1".
    assert where_.text_position(("cards", "jack", "effects", "play"), 2, 5) == (6, 13)
    assert where_.text_position(("cards", "jack", "effects", "play"), 1, 1) == (5, 9)


def test_text_position_literal_block_variants() -> None:
    where_ = positions("a: |-\n\n    x\n    y\nb: |2\n     z\nc: &c |+ # note\n  q\n")
    assert where_.text_position(("a",), 3, 1) == (4, 5)  # a blank first line counts
    assert where_.text_position(("b",), 1, 2) == (
        6,
        4,
    )  # explicit indentation: 2 spaces
    assert where_.text_position(("c",), 1, 1) == (8, 3)


def test_text_position_literal_block_in_a_list() -> None:
    where_ = positions("steps:\n  - |\n    one\n    two\n")
    assert where_.text_position(("steps", 0), 2, 2) == (4, 6)


def test_text_position_folded_and_multiline() -> None:
    where_ = positions('a: >\n  one\n  two\nb: one\n  two\nc: "one\n  two"\n')
    assert where_.text_position(("a",), 1, 5) == (3, 3)  # folded: "one two"
    assert where_.text_position(("b",), 1, 5) == (5, 3)
    assert where_.text_position(("c",), 1, 5) == (7, 3)


def test_text_position_through_an_alias() -> None:
    where_ = positions("shared: &s |\n  gain 1\n  lose 2\ncards: {x: {play: *s}}\n")
    assert where_.text_position(("cards", "x", "play"), 2, 6) == (3, 8)


def test_text_position_never_raises() -> None:
    where_ = positions("a: 1\nb: 'x'\nc: |\n")
    assert where_.text_position(("a",), 3, 3) == (1, 4)
    assert where_.text_position(("missing",), 1, 1) == (1, 1)
    assert where_.text_position(("b",), 9, 9)[0] == 2
    assert where_.text_position(("c",), 2, 2)  # an empty block: a guess, not a crash
