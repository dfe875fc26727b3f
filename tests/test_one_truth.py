"""One truth per number, no internal ids (#31): what people read (the terminal, its
`all` listing, the narration of changes, `replay`) names cards, counters and actions in
the rules' words, leaves the game's bookkeeping out (`table: hide:`), and never shows
an `id#copy`, a snake_case name or an action id.
"""

from __future__ import annotations

import copy
import io
import pathlib
import re
import sys

import pytest

from interpreter import load_game
from interpreter.cli import main
from interpreter.diagnostics import RuleFileError
from interpreter.play.narrate import table_changes

SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
CANONICAL_CARD = re.compile(r"[a-z0-9_-]#\d")


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lines: list[str],
        *argv: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


@pytest.mark.parametrize("argv", [
    ["race-to-mars", "--seats", "human,pilot"],
    ["rocketmen", "--variant", "solitaire"],
    ["for-all-mankind"],
])
def test_the_full_listing_names_things_in_the_rules_words_and_hides_bookkeeping(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: pathlib.Path,
        argv: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = run(capsys, monkeypatch, ["all", "quit"], "play", *argv, "--seed", "4")
    assert code == 0
    listing = out.split("P1> all")[1]
    assert "Counters:" in listing and "Zones:" in listing
    assert SNAKE.findall(out) == [] and not CANONICAL_CARD.search(out)
    gd = load_game(argv[0], variants=argv[2:3] if "--variant" in argv else ()).definition
    labels = {c.name: c.label for c in gd.counters} | {z.name: z.label for z in gd.zones}
    assert gd.table.hide
    for name in gd.table.hide:  # e.g. a safety bound's counts, a box of components
        assert f"\n  {labels[name]}:" not in listing


def test_bookkeeping_changes_are_not_told() -> None:
    game = load_game("rocketmen", variants=["solitaire"])
    state = game.new_initial_state(1, 3, ["human"])
    before = state.observation(0)
    after = copy.deepcopy(before)
    after["counters"]["ai_target"] = 3  # an index into the Location list
    after["counters"]["ai_vp"] = 2
    assert table_changes(before, after, game.definition, 0) == ["Table: AI VP 0 -> 2"]


def test_a_pawn_on_earth_is_never_said_to_be_at_space_0() -> None:
    state = load_game("race-to-mars").new_initial_state(2, 3, ["pilot", "pilot"])
    assert any("is still on Earth on lane" in line for line in state.log)
    assert not any("at space 0 of" in line for line in state.log)


def test_replay_tells_moves_in_words(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                     tmp_path: pathlib.Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, _ = run(capsys, monkeypatch, ["1"] * 8 + ["quit"], "play", "race-to-mars", "--seats", "human,pilot",
                  "--seed", "3", "--log", "game.json")
    assert code == 0
    code, out = run(capsys, monkeypatch, [], "replay", "game.json")
    assert code == 0 and "P1: pick " in out and "| P2 (pilot): choose your launch pad: 0" in out
    assert not CANONICAL_CARD.search(out) and SNAKE.findall(out) == []


def test_a_table_section_naming_nothing_of_the_game_is_refused(tmp_path: pathlib.Path) -> None:
    (tmp_path / "game.yaml").write_text("""
orrery: 1
id: toy
name: Toy
players: {min: 1, max: 1}
counters: {score: {scope: player, initial: 0}}
actions: {pass: {during: main}}
flow: |
  round:
    take actions main
    end game
table: {hide: [scroe]}
""")
    with pytest.raises(RuleFileError, match="no counter or zone 'scroe'"):
        load_game(str(tmp_path / "game.yaml"))
