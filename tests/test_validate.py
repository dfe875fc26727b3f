"""Validation of broken rule files: each fixture in tests/fixtures/bad/ says what it must
give in `# expect: CODE [FILE:]LINE:COL` comments (one per diagnostic; FILE is relative to
a folder fixture), and the test checks exactly those diagnostics come out — all of them,
not just the first. A folder holding `overlay.yaml` is an overlay on
tests/fixtures/base (the `fixture-base` game).

Then the limits of the YAML reader: aliases that would expand enormously fail fast, and
a huge file is refused before it is parsed.
"""

from __future__ import annotations

import json
import pathlib
import re

import pytest
from conftest import TICK_TURNS, cpu_budget, find_column, write_toy

from interpreter import RuleFileError, load_game

FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
BAD = FIXTURES / "bad"
BASE = FIXTURES / "base"
EXPECT = re.compile(r"#\s*expect:\s*(?P<code>[a-z-]+)\s+(?:(?P<file>[\w./-]+\.yaml):)?(?P<line>\d+):(?P<col>\d+)")
LARK_WORDS = re.compile(r"\b(RPAR|LPAR|RSQB|LSQB|_NL|_INDENT|_DEDENT|NAME|NUMBER|STRING|COLON|\$END)\b")


def fixtures() -> list[pathlib.Path]:
    return sorted([*BAD.glob("*.yaml"), *(p for p in BAD.iterdir() if p.is_dir())])


def expectations(fixture: pathlib.Path) -> list[tuple[str, str, int, int]]:
    files = sorted(fixture.glob("*.yaml")) if fixture.is_dir() else [fixture]
    found = []
    for file in files:
        for match in EXPECT.finditer(file.read_text(encoding="utf-8")):
            target = fixture / match["file"] if match["file"] else file
            found.append((match["code"], str(target), int(match["line"]), int(match["col"])))
    return sorted(found, key=lambda e: (e[1], e[2], e[3], e[0]))


def load(fixture: pathlib.Path, **kwargs):
    if (fixture / "overlay.yaml").is_file():
        return load_game(str(BASE), overlays=[str(fixture)], **kwargs)
    return load_game(str(fixture), **kwargs)


def diagnostics_of(fixture: pathlib.Path):
    with pytest.raises(RuleFileError) as caught:
        load(fixture)
    return caught.value.diagnostics


@pytest.mark.parametrize("fixture", fixtures(), ids=lambda p: p.name)
def test_bad_fixture(fixture):
    expected = expectations(fixture)
    assert expected, f"{fixture} says nothing about what it expects (# expect: CODE LINE:COL)"
    found = diagnostics_of(fixture)
    got = [(d.code, d.path, d.line, d.column) for d in found]
    assert got == expected, "\n".join(d.format() for d in found)
    for d in found:
        assert d.message and not LARK_WORDS.search(d.message)
        assert d.severity == "error"
        first = d.format().splitlines()[0]
        assert first == f"{d.path}:{d.line}:{d.column}: error[{d.code}]: {d.message}"
        assert set(d.to_json()) >= {"path", "line", "column", "severity", "code", "message"}


def test_the_base_fixture_is_a_good_game():
    game = load_game(str(BASE))
    state = game.new_initial_state(2, seed=1)
    assert not state.is_terminal()


# ---- what the messages say ------------------------------------------------------------------------


def message(fixture: str, code: str):
    return next(d for d in diagnostics_of(BAD / fixture) if d.code == code)


def test_duplicate_key_names_the_first_line():
    d = message("duplicate-key.yaml", "duplicate-key")
    assert "duplicate key 'vp'" in d.message and "line 7" in d.message


def test_no_is_not_a_bool():
    d = message("bool-no.yaml", "schema")
    assert "must be true or false, not 'no'" in d.message
    assert d.hint == "only true and false are booleans in orrery files"


def test_unknown_key_did_you_mean():
    d = message("unknown-key.yaml", "schema")
    assert "unknown key 'intial'" in d.message and d.hint == "did you mean 'initial'?"


def test_wrong_type_says_what_was_expected():
    d = message("wrong-type.yaml", "schema")
    assert "cards.ace.count must be an integer, not 'three'" in d.message


def test_effect_syntax_error_points_into_the_block():
    d = message("effect-syntax.yaml", "syntax")
    assert "expected ':'" in d.message
    assert d.source_line.strip() == "if vp(p) > 2"
    lines = d.format().splitlines()
    assert lines[2].index("^") == d.column - 1 + 4  # the excerpt is indented by 4


def test_unknown_name_did_you_mean():
    d = message("unknown-name.yaml", "unknown-name")
    assert "'vicotry'" in d.message and d.hint == "did you mean 'victory'?"


def test_reserved_word_as_counter_name():
    d = message("reserved-counter.yaml", "reserved-name")
    assert "'round' is a word of the effect language" in d.message


def test_bad_event_did_you_mean():
    d = message("bad-event.yaml", "bad-event")
    assert "unknown event 'entred hand'" in d.message and d.hint == "did you mean 'entered'?"


def test_duplicate_id_across_files_points_at_both():
    d = message("include-duplicate", "duplicate-id")
    assert d.path.endswith("cards.yaml")
    assert "cards.ace is defined twice (first at" in d.message and "game.yaml:10" in d.message


def test_overlay_messages():
    assert "use replace or patch" in message("overlay-add-existing", "overlay-exists").message
    assert message("overlay-replace-missing", "overlay-missing").hint == "did you mean 'fireball'?"
    assert message("overlay-patch-missing", "overlay-missing").hint == "did you mean 'play'?"
    assert message("overlay-remove-missing", "overlay-missing").hint == "did you mean 'ember'?"
    assert "for 'tic-tac-toe', not for 'fixture-base'" in message("overlay-wrong-base", "overlay-base").message


def test_all_errors_of_a_file_are_reported():
    found = diagnostics_of(BAD / "three-errors.yaml")
    assert len(found) == 3
    assert {d.code for d in found} == {"schema", "syntax", "unknown-name"}


def test_many_semantic_errors_in_one_file(tmp_path):
    path = write_toy(tmp_path, """
counters:
  vp: {scope: player}
  if: {scope: global}
zones:
  hand: {scope: player}
cards:
  ace: {name: Ace, in: hnad}
actions:
  go: {during: main, condition: "vq(me) > 1", effect: "gian 1 vp"}
triggers:
  t: {on: changed gold, effect: "stop"}
flow: |
  take actions mian
""")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    got = sorted((d.code, d.line, d.column) for d in caught.value.diagnostics)
    assert got == sorted([
        ("reserved-name", *find_column(path, "if:")),
        ("unknown-name", *find_column(path, "hnad}")),
        ("unknown-name", *find_column(path, "vq(me)")),
        ("syntax", *find_column(path, "gian")),
        ("bad-event", *find_column(path, "changed gold")),
        ("unknown-group", *find_column(path, "take actions mian")),
    ])


def test_unknown_variant():
    with pytest.raises(RuleFileError) as caught:
        load_game(str(BASE), variants=["shrot"])
    (d,) = caught.value.diagnostics
    assert (d.code, d.path, d.line, d.column) == ("unknown-variant", str(BASE / "game.yaml"), 1, 1)
    assert "has no variant 'shrot'" in d.message and d.hint == "did you mean 'short'?"


def test_unknown_overlay():
    with pytest.raises(RuleFileError) as caught:
        load_game(str(BASE), overlays=["no-such-mod"])
    assert [d.code for d in caught.value.diagnostics] == ["not-found"]


def test_missing_game():
    with pytest.raises(RuleFileError) as caught:
        load_game("tic-tac-tow")
    (d,) = caught.value.diagnostics
    assert d.code == "not-found" and d.hint == "did you mean 'tic-tac-toe'?"


def test_diagnostics_as_json():
    found = diagnostics_of(BAD / "three-errors.yaml")
    data = json.loads(json.dumps([d.to_json() for d in found]))
    assert [(x["code"], x["line"], x["column"]) for x in data] == [(d.code, d.line, d.column) for d in found]


# ---- YAML limits ----------------------------------------------------------------------------------


def billion_laughs() -> str:
    lines = ["orrery: 1", "id: lol", "name: Laughs", 'a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\nflow: stop\n"


def test_billion_laughs_fail_fast(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text(billion_laughs())
    assert path.stat().st_size < 1000
    with cpu_budget(1.0), pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    codes = {d.code for d in caught.value.diagnostics}
    assert codes == {"yaml-too-large"}


def test_a_huge_file_is_refused(tmp_path):
    path = tmp_path / "game.yaml"
    filler = "# " + "x" * 78 + "\n"
    path.write_text("orrery: 1\nid: huge\nname: Huge\n" + filler * 13_000 + "flow: stop\n")
    assert path.stat().st_size > 1_000_000
    with cpu_budget(1.0), pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    (d,) = caught.value.diagnostics
    assert (d.code, d.line, d.column) == ("yaml-too-large", 1, 1)


def test_deep_nesting_is_refused(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("orrery: 1\nid: deep\nname: Deep\nconstants:\n  x: " + "[" * 500 + "]" * 500 + "\nflow: stop\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    assert {d.code for d in caught.value.diagnostics} == {"yaml-too-deep"}


def test_python_tags_are_refused(tmp_path):
    path = tmp_path / "game.yaml"
    path.write_text("orrery: 1\nid: tag\nname: !!python/object/apply:os.system [echo hi]\nflow: stop\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    (d,) = caught.value.diagnostics
    assert (d.code, d.line) == ("yaml-tag", 3)


def test_ending_after_a_round_needs_round_blocks():
    found = diagnostics_of(BAD / "finish-round-without-round.yaml")
    assert "'then: finish_round' happens at the end of a `round:` block" in found[0].message
    assert "'check: round'" in found[1].message


VARIANT_GAME = """
counters:
  score: {scope: player, initial: 0}
  want: {scope: player, initial: 0}
""" + TICK_TURNS + """variants:
  fast:
    description: two points a tick
    patch: {actions: {tick: {effect: "gain 2 score"}}}
  typo:
    description: a misspelt counter only this variant uses
    patch: {actions: {tick: {effect: "gain 1 wnt"}}}
"""


def _validate(*argv: str) -> tuple[int, str]:
    import contextlib
    import io

    from interpreter.cli import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(["validate", *argv])
    return code, out.getvalue()


def test_validate_checks_every_variant_alone(tmp_path):
    from conftest import find_line, write_toy
    path = write_toy(tmp_path, VARIANT_GAME)
    code, shown = _validate(str(path))
    assert code == 1
    line = find_line(path, '"gain 1 wnt"')
    assert f"game.yaml:{line}:" in shown and "error[" in shown
    assert "(with variant 'typo')" in shown and "did you mean 'want'?" in shown
    assert "variant 'fast'" not in shown  # a variant that is right says nothing


def test_validate_with_variant_checks_only_those(tmp_path):
    from conftest import write_toy
    path = write_toy(tmp_path, VARIANT_GAME)
    code, shown = _validate(str(path), "--variant", "fast")
    assert code == 0 and "checked with variant fast" in shown
    code, shown = _validate(str(path), "--variant", "typo", "--json")
    assert code == 1 and '"code"' in shown
    code, shown = _validate(str(path), "--variant", "nope")
    assert code == 2 and "unknown-variant" in shown and "Traceback" not in shown  # (a usage error, as in play)


def test_validate_checks_a_game_with_each_bundled_overlay_made_for_it(tmp_path):
    """A change to a game that breaks an expansion made for it is found where the game
    is checked: here Rocketmen's `pre_launch` renamed, which Target: Jupiter replaces."""
    import shutil
    folder = tmp_path / "rocketmen"
    shutil.copytree(pathlib.Path(__file__).parent.parent / "games" / "rocketmen", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("  pre_launch:", "  before_launch:", 1)
                    .replace("pre_launch(", "before_launch("), encoding="utf-8")
    code, shown = _validate(str(game))
    assert code == 1 and "(with 'target-jupiter')" in shown and "pre_launch" in shown
    assert "(with 'rocketmen-setup-mission')" not in shown  # the mod that still works says nothing
    code, shown = _validate("rocketmen")
    assert code == 0 and "; with target-jupiter, rocketmen-setup-mission" in shown
