"""Generated code: the per-action legal listers agree with the generic walk, literals
are written as literals (never as code), the hot-path checks still refuse bad values,
and `orrery describe GAME --code` shows the generated Python."""

from __future__ import annotations

import json
import random

import attrs
import pytest
from conftest import code_listing, toy
from test_cli import run

from interpreter import load_game
from interpreter.diagnostics import RuleRuntimeError
from interpreter.runtime import decisions

TARGETS = [
    ("tic-tac-toe", []), ("kuhn-poker", []), ("star-market", []), ("race-to-mars", []),
    ("for-all-mankind", []), ("rocketmen", []), ("rocketmen", ["target-jupiter"]),
]


def _walked(state, pending_group: str, player: int) -> list[str]:
    """The legal texts by the generic walk (every action without its generated lister)."""
    out: list = []
    for action in state.gd.groups[pending_group]:
        if decisions._within_limits(state, action, player):
            decisions._enumerate(state, attrs.evolve(action, lister=None), player, out)
    return [a.text for a in out]


@pytest.mark.parametrize(("target", "overlays"), TARGETS, ids=lambda v: str(v))
def test_generated_listers_give_the_generic_walks_actions(target: str, overlays: list[str]) -> None:
    game = load_game(target, overlays=overlays)
    assert all(a.lister is not None for a in game.definition.actions)
    rng = random.Random(5)
    compared = 0
    for seed in range(8):
        state = game.new_initial_state(seed=seed)
        for _ in range(120):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            pending = state.pending
            if isinstance(pending, decisions.PendingActions):
                assert [a.text for a in legal] == _walked(state, pending.group, pending.player)
                compared += 1
            state.apply_action(rng.choice(legal))
    assert compared >= 10


def test_literals_are_data_not_code(tmp_path) -> None:
    game = toy(tmp_path, """
        counters:
          n: {scope: global, initial: 0}
        flow: |
          let s = "a'b\\"c\\\\ __import__('os') {x}"
          if s == "a'b\\"c\\\\ __import__('os') {x}" and s != "a'b":
            set n to 7
          end game winners [0]
        """)
    state = game.new_initial_state(2, seed=0)
    assert state.is_terminal()
    assert state.counters[0] == [7]
    assert any("'a\\'b" in source or '"a\\\'b' in source or "a'b" in source
               for _, source in code_listing(game.definition))


def test_a_written_number_is_stored_as_a_computed_one_is(tmp_path) -> None:
    """A number written in the rules skips the run-time type and range test, but only
    within the counter's bounds: outside them it goes through the counter's own rule
    (clamped or refused) exactly as the same number worked out would; watched counters
    still fire their triggers."""
    text = """
        counters:
          flag: {scope: player, initial: 0, min: 0, max: 1}
          seen: {scope: global, initial: 0}
        triggers:
          count:
            on: changed flag
            effect: "set seen to seen + 1"
        flow: |
          let a = 7
          set flag(0) to 1
          set flag(1) to %s
          let b = %s
          end game winners [0]
        """
    written = toy(tmp_path, text % ("5", "123"))
    computed = toy(tmp_path, text % ("2 + 3", "120 + 3"))
    results = []
    for game in (written, computed):
        try:
            state = game.new_initial_state(2, seed=0)
        except RuleRuntimeError as err:
            results.append(("error", str(err).split(":")[-1]))
            continue
        results.append((state.counters, state.is_terminal()))
    assert results[0] == results[1], results
    # 5 is clamped to the bound, as 2 + 3 is; both changes of the watched counter fired its trigger
    assert results[0] == ([[1, 1], [2]], True)
    sources = "\n".join(source for _, source in code_listing(written.definition))
    assert "env['a'] = 7" in sources and "_value = 1\n" in sources


def test_index_and_seat_checks_refuse_bad_values(tmp_path) -> None:
    game = toy(tmp_path, """
        counters:
          mark: {scope: global, size: 3, initial: 0}
          vp: {scope: player, initial: 0}
        flow: |
          turn 0:
            take actions main
        actions:
          bad_index: {during: main, effect: "let i = 3\\nset mark[0] to mark[i]"}
          bad_seat: {during: main, effect: "let p = 5\\nset mark[0] to vp(p)"}
          minus: {during: main, effect: "set mark[0] to mark[0 - 1]"}
          bool_seat: {during: main, effect: "let p = none\\nset mark[0] to vp(p)"}
        """)
    for action, message in (("bad_index", r"mark\[3\] is out of range"), ("bad_seat", "there is no player 5"),
                            ("minus", r"mark\[-1\] is out of range"), ("bool_seat", "there is no player None")):
        state = game.new_initial_state(2, seed=0)
        with pytest.raises(RuleRuntimeError, match=message):
            state.apply_action(action)


def test_describe_code_prints_the_generated_python(capsys) -> None:
    code, out, _ = run(capsys, "describe", "tic-tac-toe", "--code")
    assert code == 0
    assert "# actions.place.params.cell" in out
    assert "lambda st, env: [" in out  # the parameter's choices: one comprehension
    assert "def _list" in out and "out.append(" in out  # the action's legal lister
    assert "# bound names" in out and "_bounded_range" in out
    # every generated function compiles on its own
    for block in out.split("\n\n"):
        source = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        if source.strip():
            compile(source, "<listing>", "exec")


def _rule_at(data, parts: list[str]):
    """The rule data at a listing's label (`views.board.text`, `end.0.when`), or None."""
    if not parts:
        return data
    if isinstance(data, list) and parts[0].isdigit() and int(parts[0]) < len(data):
        return _rule_at(data[int(parts[0])], parts[1:])
    if isinstance(data, dict):
        for cut in range(len(parts), 0, -1):  # (keys may hold dots: card ids)
            key = ".".join(parts[:cut])
            if key in data and (found := _rule_at(data[key], parts[cut:])) is not None:
                return found
    return None


@pytest.mark.parametrize("name", ["tic-tac-toe", "rocketmen"])
def test_describe_code_labels_each_function_by_its_own_rule(name: str) -> None:
    """Each generated function is listed under the rule it was made from: the views of
    tic-tac-toe under `views.board.text` (they were listed as `scoring.score`), a
    choice's prompt under its effect."""
    game = load_game(name)
    labels = {what.split(" (")[0] for what, _ in game.definition.generated_code}
    # (an action without effect text has an empty program, listed under its `effect`)
    wrong = {label for label in labels if label not in ("flow", "setup", "end")
             and _rule_at(game.raw, label.removesuffix(".effect").split(".")) is None}
    assert wrong == set()
    if name == "tic-tac-toe":
        assert "views.board.text" in labels


def test_describe_code_of_an_unknown_game_is_a_clear_error(capsys) -> None:
    code, _, err = run(capsys, "describe", "no-such-game", "--code")
    assert code != 0
    assert "no-such-game" in err


def test_a_local_that_hides_a_zone_or_counter_cannot_be_called(tmp_path) -> None:
    from conftest import toy_errors
    errors = toy_errors(tmp_path, """
        counters:
          vp: {scope: player, initial: 0}
        zones:
          hand: {scope: player, visible: owner}
        flow: |
          let hand = 3
          let vp = 2
          log "{len(hand(0))} {vp(0)}"
        """)
    assert {e.code for e in errors} == {"shadowed-name"}
    assert any("'hand' is a local here" in e.message for e in errors)


def test_describe_code_is_the_same_listing_every_time(capsys) -> None:
    """The listing names every bound object by what it is, never by its address, and a
    function generated above by its own name: two loads list the same text."""
    code, first, _ = run(capsys, "describe", "race-to-mars", "--code")
    assert code == 0
    _, again, _ = run(capsys, "describe", "race-to-mars", "--code")
    assert first == again
    names = first.split("# bound names", 1)[1]
    assert " at 0x" not in names and "= None." not in names
    assert "(generated, above)" in names and "generated functions, in the order the rules give them" in names
    assert "_TableReader([" in names and "<not worked out yet>" in names


def test_describe_code_as_json_holds_the_same_functions_and_names(capsys) -> None:
    code, text, _ = run(capsys, "describe", "kuhn-poker", "--code")
    assert code == 0
    code, out, _ = run(capsys, "describe", "kuhn-poker", "--code", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["game"] == "kuhn-poker" and data["functions"] and data["names"]
    for function in data["functions"]:
        assert f"# {function['rule']}\n{function['source'].rstrip()}\n" in text
        compile(function["source"], "<listing>", "exec" if function["source"].startswith("def ") else "eval")
    assert all(f"# {n['name']} = {n['bound']}" in text for n in data["names"])
