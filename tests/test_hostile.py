"""Hostile rule files: shapes and sizes a fuzzer found, each a diagnostic at its place.

Overlay operations of the wrong type (in overlay files and in variants, through
validate, play and simulate alike), integer literals too large to compute with (in
effect text and as YAML values), card counts, player counts and counter sizes that
would exhaust memory, and running out of memory anyway: never a traceback, never an
"internal error", always `file:line:col: error[CODE]: message` with a hint.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from conftest import find_column, toy_errors, write_toy

from interpreter import RuleFileError, load_game
from interpreter.cli import main
from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import (
    MAX_CARDS,
    MAX_CARDS_PER_DEF,
    MAX_COUNTER_SIZE,
    MAX_INT_LITERAL,
    MAX_NESTING,
    MAX_PLAYERS,
)
from interpreter.rules.loader import SET_SECTIONS
from interpreter.rules.schema import load_schema
from interpreter.rules.yamlload import load_yaml_text

ROOT = pathlib.Path(__file__).resolve().parents[1]
BASE = ROOT / "tests" / "fixtures" / "base"
DIAGNOSTIC = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>[a-z-]+)\]: .+$", re.M)

GAME = """
counters:
  vp: {scope: player, initial: 0}
zones:
  deck: {scope: global}
cards:
  ember: {name: Ember, count: 2, in: deck}
actions:
  pass: {during: main, effect: "gain 1 vp(me)", ends: turn}
flow: |
  repeat 2:
    for each p in players:
      turn p:
        take actions main
scoring: {score: "vp(p)"}
"""


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """Run the command line; its exit code and everything it printed."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    text = out + err
    assert "Traceback" not in text and "internal error" not in text, text
    return code, text


def write_overlay(tmp_path: pathlib.Path, body: str) -> pathlib.Path:
    path = tmp_path / "mod" / "overlay.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(f"orrery: 1\noverlay: mod\nbase: tic-tac-toe\nname: Mod\n{body}\n", encoding="utf-8")
    return path


# ---- overlay operations of the wrong type -------------------------------------------------------

WRONG_OPERATIONS = [
    ('patch: "oops"', '"oops"', "e.g. patch: {cards:"),
    ("add: [1, 2]", "[1, 2]", "e.g. add: {cards:"),
    ("set: 5", "5", "e.g. set: {flow:"),
    ("remove: {cards: 5}", "5", "e.g. remove: {cards: [some-card]}"),
    ("remove: {cards: [[1]]}", "[1]", "e.g. remove: {cards: [some-card]}"),
    ("patch: {actions: [place]}", "[place]", "e.g. patch: {actions:"),
]


@pytest.mark.parametrize(("body", "value", "hint"), WRONG_OPERATIONS, ids=[w[0] for w in WRONG_OPERATIONS])
def test_an_overlay_operation_of_the_wrong_type_is_a_diagnostic(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path, body: str, value: str, hint: str) -> None:
    path = write_overlay(tmp_path, body)
    for argv in (["validate", str(path)], ["simulate", "tic-tac-toe", "--with", str(path), "--games", "1"]):
        code, text = cli(capsys, *argv)
        found = [m.groupdict() for m in DIAGNOSTIC.finditer(text)]
        line, column = find_column(path, value)
        assert code == 1 and found, text
        assert (found[0]["path"], int(found[0]["line"]), int(found[0]["col"])) == (str(path), line, column), text
        assert f"hint: {hint}" in text


def test_a_variant_of_the_wrong_shape_fails_the_same_in_validate_play_and_simulate(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, GAME + 'variants:\n  broken: {patch: "oops"}\n  odd: "oops"\n')
    patch_at, odd_at = find_column(path, '"oops"'), find_column(path, '"oops"', 1)
    runs = [["validate", str(path)],
            ["play", str(path), "--variant", "broken", "--seats", "random,random"],
            ["simulate", str(path), "--variant", "broken", "--games", "1"],
            ["play", str(path), "--variant", "odd", "--seats", "random,random"]]
    for argv in runs:
        code, text = cli(capsys, *argv)
        places = {(int(m["line"]), int(m["col"])) for m in DIAGNOSTIC.finditer(text)}
        assert code == 1 and places == {patch_at, odd_at}, text
        assert "hint: e.g. patch: {cards:" in text and "hint: a variant is an inline overlay" in text


def test_a_chosen_variant_of_the_wrong_shape_is_left_out_and_reported(tmp_path: pathlib.Path) -> None:
    """The loader never trusts the schema to have stopped it: the wrong part is left out."""
    path = write_toy(tmp_path, GAME + "variants:\n  broken: {remove: {cards: [[1], ember]}, set: {cards: {}}}\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path), variants=["broken"])
    found = {(d.code, d.line) for d in caught.value.diagnostics}
    line = find_column(path, "broken:")[0]
    assert found == {("schema", line), ("overlay-section", line)}
    assert all(d.hint for d in caught.value.diagnostics)


def test_set_replaces_top_level_entries_only(tmp_path: pathlib.Path) -> None:
    path = write_overlay(tmp_path, "set: {flow: 'stop', cards: {}}")
    with pytest.raises(RuleFileError) as caught:
        load_game("tic-tac-toe", overlays=[str(path)])
    codes = sorted(d.code for d in caught.value.diagnostics)
    assert codes == ["overlay-section", "schema"]
    section = next(d for d in caught.value.diagnostics if d.code == "overlay-section")
    assert (section.line, section.column) == find_column(path, "cards")
    assert section.hint is not None and "flow" in section.hint


def test_set_replaces_what_the_schema_lets_it_replace() -> None:
    assert set(load_schema("overlay")["definitions"]["set"]["properties"]) == set(SET_SECTIONS)


# ---- integer literals ------------------------------------------------------------------------


@pytest.mark.parametrize("digits", ["9" * 5000, str(MAX_INT_LITERAL + 1), "1" + "0" * 40])
def test_an_integer_literal_too_large_in_effect_text_is_a_diagnostic(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path, digits: str) -> None:
    path = write_toy(tmp_path, GAME.replace('"gain 1 vp(me)"', f'"gain {digits} vp(me)"'))
    code, text = cli(capsys, "validate", str(path))
    line, column = find_column(path, digits)
    assert code == 1 and f"{path}:{line}:{column}: error[number-too-large]" in text, text
    assert f"hint: numbers in effect text are at most {MAX_INT_LITERAL}" in text


def test_the_largest_integer_literal_is_accepted_everywhere(tmp_path: pathlib.Path) -> None:
    big = str(MAX_INT_LITERAL)
    game = load_game(str(write_toy(tmp_path, GAME.replace('"gain 1 vp(me)"', f'"gain 0 * {big} vp(me)"')
                                   .replace("initial: 0", f"initial: -{big}"))))
    assert game.definition.counters[0].initial == (-MAX_INT_LITERAL,)
    padded = "0" * 30 + "7"  # leading zeros do not make a number large
    assert load_game(str(write_toy(tmp_path, GAME.replace('"gain 1 vp(me)"', f'"gain {padded} vp(me)"'))))


def test_an_integer_literal_too_large_in_an_indented_block_points_at_it(tmp_path: pathlib.Path) -> None:
    digits = "1" + "0" * 30
    text = GAME.replace("take actions main\n", f"take actions main\n        gain {digits} vp(p)\n")
    text += f'views:\n  v: {{text: "score {{{digits}}}"}}\n'
    path = write_toy(tmp_path, text)
    found = [(d.code, d.line, d.column) for d in toy_errors(tmp_path, text)]
    # A view's {expression} is a template: its errors are worded by the template compiler.
    assert found == [("number-too-large", *find_column(path, digits)), ("syntax", *find_column(path, digits, 1))]


def test_a_yaml_integer_past_the_bound_is_reported_like_in_effect_text() -> None:
    with pytest.raises(RuleFileError) as caught:
        load_yaml_text(f"a: {MAX_INT_LITERAL + 1}\nb: -{MAX_INT_LITERAL + 1}\nc: {MAX_INT_LITERAL}\n", "x.yaml")
    found = caught.value.diagnostics
    assert [(d.code, d.line, d.column) for d in found] == [("yaml-number", 1, 4), ("yaml-number", 2, 4)]
    assert found[0].hint is not None and str(MAX_INT_LITERAL) in found[0].hint
    data, _ = load_yaml_text(f"c: {MAX_INT_LITERAL}\nd: -{MAX_INT_LITERAL}\n", "x.yaml")
    assert data == {"c": MAX_INT_LITERAL, "d": -MAX_INT_LITERAL}


# ---- text that nests deeply, values that read themselves ------------------------------------------


DEEP = {
    "a chain of operators": "1" + " + 1" * MAX_NESTING * 30,
    "signs": "-" * MAX_NESTING * 30 + "1",
    "lists": "len(" + "[" * MAX_NESTING * 30 + "1" + "]" * MAX_NESTING * 30 + ")",
    "calls": "max(" * MAX_NESTING + "1" + ", 2)" * MAX_NESTING,
}


@pytest.mark.parametrize("expression", list(DEEP.values()), ids=list(DEEP))
def test_text_nested_too_deeply_is_a_diagnostic(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path,
                                                 expression: str) -> None:
    path = write_toy(tmp_path, GAME.replace('score: "vp(p)"', f'score: "{expression}"'))
    code, text = cli(capsys, "validate", str(path))
    line = find_column(path, "score:")[0]
    assert code == 1 and f"{path}:{line}:" in text and "error[too-deep]" in text, text[:2000]
    assert f"more than {MAX_NESTING} levels" in text and "hint:" in text


def test_blocks_nested_too_deeply_are_a_diagnostic(tmp_path: pathlib.Path) -> None:
    blocks = "".join("  " * i + "if true:\n" for i in range(MAX_NESTING)) + "  " * MAX_NESTING + "stop\n"
    text = GAME + "setup: |\n" + "".join(f"  {line}\n" for line in blocks.splitlines())
    found = toy_errors(tmp_path, text)
    assert [d.code for d in found] == ["too-deep"]


def test_text_nested_within_the_limit_runs(tmp_path: pathlib.Path) -> None:
    deep = "1" + " + 1" * (MAX_NESTING - 5)
    game = load_game(str(write_toy(tmp_path, GAME.replace('score: "vp(p)"', f'score: "{deep}"'))))
    state = game.new_initial_state(2, seed=1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.scores() == [MAX_NESTING - 4] * 2


def test_a_value_that_reads_itself_is_a_diagnostic(tmp_path: pathlib.Path) -> None:
    text = GAME + """
values:
  a: {of: player, base: "b(p) + 1"}
  b: {of: player, base: "twice(a(p))"}
  c: {of: player, base: "1"}
  d: {of: player, base: "c(p)"}
functions:
  twice: {params: [x], value: "x * 2"}
  via_c: {params: [q], value: "c(q)"}
modifiers:
  more: {value: c, op: add, amount: "1", when: "via_c(p) > 0"}
"""
    path = write_toy(tmp_path, text)
    found = toy_errors(tmp_path, text)
    assert [(d.code, d.line) for d in found] == [("recursion", find_column(path, f"{name}: {{of")[0])
                                                 for name in "abc"]
    assert "(a -> b -> a)" in found[0].message and "(c -> via_c -> c)" in found[2].message
    assert all(d.hint for d in found)


# ---- files that cannot be ---------------------------------------------------------------------


def test_an_included_file_that_is_not_a_map_is_a_diagnostic(tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, GAME + "include: [more.yaml]\n")
    (path.parent / "more.yaml").write_text("- just\n- a list\n", encoding="utf-8")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    assert [(d.path, d.line, d.code) for d in caught.value.diagnostics] == [(str(path.parent / "more.yaml"), 1,
                                                                            "schema")]
    assert caught.value.diagnostics[0].hint


def test_names_too_long_to_be_files_are_not_found(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: pathlib.Path) -> None:
    long = "x" * 5000
    path = write_overlay(tmp_path, "")
    path.write_text(path.read_text(encoding="utf-8").replace("base: tic-tac-toe", f"base: {long}"), encoding="utf-8")
    code, text = cli(capsys, "validate", str(path))
    assert code == 1 and "error[not-found]" in text
    game = write_toy(tmp_path, GAME + f"include: [{long}.yaml]\n")
    code, text = cli(capsys, "validate", str(game))
    assert code == 1 and "error[file-not-found]" in text
    code, text = cli(capsys, "simulate", long)
    assert code == 2 and "error[not-found]" in text  # a name on the command line: a usage error


# ---- sizes the data asks for -------------------------------------------------------------------


@pytest.mark.parametrize("count", [10**8, MAX_CARDS_PER_DEF + 1])
def test_a_card_count_past_the_limit_is_a_diagnostic_at_the_count(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path, count: int) -> None:
    path = write_toy(tmp_path, GAME.replace("count: 2", f"count: {count}"))
    code, text = cli(capsys, "validate", str(path))
    line, column = find_column(path, str(count))
    assert code == 1 and f"{path}:{line}:{column}: error[limit]" in text, text
    assert str(MAX_CARDS_PER_DEF) in text and "hint:" in text


def test_a_card_count_past_the_yaml_bound_is_reported_at_the_count(
        capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    path = write_toy(tmp_path, GAME.replace("count: 2", f"count: {10**38}"))
    code, text = cli(capsys, "validate", str(path))
    line, column = find_column(path, str(10**38))
    assert code == 1 and f"{path}:{line}:{column}: error[yaml-number]" in text, text


def test_the_cards_of_a_game_in_all_are_limited(tmp_path: pathlib.Path) -> None:
    copies = MAX_CARDS_PER_DEF
    defs = MAX_CARDS // copies + 1
    cards = "".join(f"  c{i}: {{name: C{i}, count: {copies}, in: deck}}\n" for i in range(defs))
    spare = f"  spare: {{name: Spare, count: {copies}}}\n"  # not placed: not counted
    text = GAME.replace("  ember: {name: Ember, count: 2, in: deck}\n", cards + spare)
    path = write_toy(tmp_path, text)
    found = toy_errors(tmp_path, text)
    assert [(d.code, d.line, d.column) for d in found] == [("limit", *find_column(path, str(copies), defs - 1))]
    assert str(MAX_CARDS) in found[0].message and found[0].hint
    fits = GAME.replace("  ember: {name: Ember, count: 2, in: deck}\n", cards.split("\n", 1)[1] + spare)
    assert load_game(str(write_toy(tmp_path, fits))).definition.cards[-1].count == copies


def test_players_and_counter_sizes_are_limited(tmp_path: pathlib.Path) -> None:
    text = GAME.replace("vp: {scope: player, initial: 0}",
                        f"vp: {{scope: player, initial: 0}}\n  grid: {{scope: global, size: {MAX_COUNTER_SIZE + 1}}}")
    text = "players: {min: 2, max: 100000000}\n" + text
    path = write_toy(tmp_path, text)
    found = toy_errors(tmp_path, text)
    assert [(d.code, d.line, d.column) for d in found] == [
        ("limit", *find_column(path, "100000000")), ("limit", *find_column(path, str(MAX_COUNTER_SIZE + 1)))]
    assert str(MAX_PLAYERS) in found[0].message and all(d.hint for d in found)


def test_the_default_player_count_must_be_one_the_game_takes(tmp_path: pathlib.Path) -> None:
    text = "players: {min: 2, max: 3, default: 7}\n" + GAME
    path = write_toy(tmp_path, text)
    found = toy_errors(tmp_path, text)
    assert [(d.code, d.line, d.column) for d in found] == [("bad-value", *find_column(path, "7"))]


def test_every_bundled_game_fits_the_limits_easily() -> None:
    for target, overlays in [("tic-tac-toe", []), ("kuhn-poker", []), ("star-market", []), ("race-to-mars", []),
                             ("for-all-mankind", []), ("rocketmen", ["target-jupiter"])]:
        gd = load_game(target, overlays=overlays).definition
        assert max(c.count for c in gd.cards) if gd.cards else 0 <= MAX_CARDS_PER_DEF // 10
        assert sum(c.count for c in gd.cards if c.zone is not None) <= MAX_CARDS // 10
        assert gd.max_players <= MAX_PLAYERS // 4
        assert max(c.width for c in gd.counters) <= MAX_COUNTER_SIZE // 10


def test_a_cost_that_is_not_a_whole_number_is_a_placed_rule_error(tmp_path: pathlib.Path) -> None:
    text = """
counters:
  vp: {scope: player, initial: 5}
zones:
  deck: {scope: global}
cards:
  odd: {name: Odd, count: 1, in: deck, properties: {price: 2.5}}
actions:
  buy: {during: main, params: {c: "deck"}, cost: {vp: "c.price"}, effect: "gain 1 vp(me)", ends: turn}
flow: |
  turn 0:
    take actions main
scoring: {score: "vp(p)"}
"""
    path = write_toy(tmp_path, text)
    state = load_game(str(path)).new_initial_state(2, seed=1)
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action(state.legal_actions()[0])
    err = caught.value
    assert (err.path, err.line, err.column) == (str(path), *find_column(path, "take actions"))
    assert err.context == ("paying for 'buy odd#0'",) and "whole numbers" in err.message


# ---- out of memory ---------------------------------------------------------------------------


def test_running_out_of_memory_is_said_plainly(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def exhausted(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr("interpreter.cli.load_game", exhausted)
    code, text = cli(capsys, "describe", "tic-tac-toe")
    assert code == 1
    assert text.startswith("orrery: error: out of memory:") and "docs/format.md" in text
