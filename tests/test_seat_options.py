"""`seat_options`: a game's default options for kinds of seat (the search seats), under
a seat spec's own options; every mistake in them is a diagnostic at load."""

from __future__ import annotations

import pathlib
import textwrap

import pytest
from conftest import HARVEST, find_column, toy, write_toy

from interpreter import RuleFileError, create_agent, load_game
from interpreter.cli import main


def test_the_games_defaults_apply_under_the_specs_own_options(tmp_path: pathlib.Path) -> None:
    game = toy(tmp_path, HARVEST + """
seat_options:
  ismcts: {iterations: 7, rollout: grabber, paired: true, horizon: 2}
  mcts: {c: 0.5}
""")
    assert game.definition.seat_options == {"ismcts": {"iterations": "7", "rollout": "grabber", "paired": "1",
                                                       "horizon": "2"}, "mcts": {"c": "0.5"}}
    agent = create_agent("ismcts", game, seed=1)
    assert (agent.options.iterations, agent.options.rollout, agent.options.paired, agent.options.horizon) == (
        7, "grabber", True, 2)
    agent = create_agent("ismcts:iterations=3,paired=0", game, seed=1)
    assert (agent.options.iterations, agent.options.rollout, agent.options.paired) == (3, "grabber", False)
    assert create_agent("mcts", game).options.c == 0.5 and create_agent("mcts:c=2", game).options.c == 2
    st = game.new_initial_state(2, seed=1)
    assert create_agent("ismcts", game, seed=1).step(st) in st.legal_actions()


def test_describe_shows_the_defaults(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_toy(tmp_path, HARVEST + "seat_options:\n  ismcts: {iterations: 7}\n")
    assert main(["describe", str(path)]) == 0
    assert "(this game: ismcts:iterations=7)" in capsys.readouterr().out
    assert main(["describe", str(path), "--json"]) == 0
    import json
    seats = {s["id"]: s for s in json.loads(capsys.readouterr().out)["seats"]}
    assert seats["ismcts"]["defaults"] == {"iterations": "7"} and "defaults" not in seats["mcts"]


@pytest.mark.parametrize(("entry", "needle", "code", "message"), [
    ("ismcst: {iterations: 7}", "ismcst", "unknown-name", "no kind of seat 'ismcst'"),
    ("random: {iterations: 7}", "random", "bad-value", "seat 'random' takes no options"),
    ("grabber: {iterations: 7}", "grabber: {", "bad-value", "seat 'grabber' takes no options"),
    ("ismcts: {iterashuns: 7}", "iterashuns", "unknown-name", "seat 'ismcts' has no option 'iterashuns'"),
    ("ismcts: {rollout: nobody}", "ismcts", "bad-value", "rollout='nobody'"),
    ("ismcts: {iterations: -3}", "ismcts", "bad-value", "iterations=-3 must be at least 1"),
    ("ismcts: {horizon: [1]}", "[1]", "schema", ""),
])
def test_mistakes_are_diagnostics_at_their_place(tmp_path: pathlib.Path, entry: str, needle: str, code: str,
                                                 message: str) -> None:
    path = write_toy(tmp_path, HARVEST + "seat_options:\n  " + entry + "\n")
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    found = caught.value.diagnostics
    assert len(found) == 1, found
    line, column = find_column(path, needle)
    diagnostic = found[0]
    assert (diagnostic.path, diagnostic.line) == (str(path), line) and message in diagnostic.message
    if code != "schema":
        assert diagnostic.code == code and diagnostic.column == column


def test_an_overlay_patches_the_defaults(tmp_path: pathlib.Path) -> None:
    base = write_toy(tmp_path, HARVEST + "seat_options:\n  ismcts: {iterations: 7, rollout: grabber}\n")
    mod = tmp_path / "mod.yaml"
    mod.write_text(textwrap.dedent("""\
        orrery: 1
        overlay: quick-search
        base: toy
        name: Quick search
        patch:
          seat_options:
            ismcts: {iterations: 2}
        """), encoding="utf-8")
    game = load_game(str(base), overlays=[str(mod)])
    assert game.definition.seat_options == {"ismcts": {"iterations": "2", "rollout": "grabber"}}


def test_the_bundled_games_search_by_their_own_bots() -> None:
    for target, overlays, bot in (("race-to-mars", [], "pilot"), ("for-all-mankind", [], "bot"),
                                  ("rocketmen", ["target-jupiter"], "rocket-bot")):
        game = load_game(target, overlays=overlays)
        assert create_agent("ismcts", game).options.rollout == bot
