"""Rule text never runs as code.

A rule file is data downloaded from strangers; the engine compiles it to Python. These
tests put ids built to run Python (had they reached generated source raw) into every
place a security review found one could travel — a game's end id, an overlay's
`set: end`, an overlay's added modifier, a card's modifier key, the id of a card with
modifiers, a variant — and run every command that loads rules. Each payload would
create a marker file; none may. They also hold the last gate itself
(compile/pycheck.py) to the known escapes from a restricted Python namespace, and check
that rules with errors get none of their code compiled.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import pathlib

import pytest
from conftest import TICK_TURNS, write_toy

from interpreter import RuleFileError, load_game
from interpreter.cli import main
from interpreter.compile import pysource
from interpreter.compile.pyast import E, S
from interpreter.compile.pycheck import GENERATED_ATTRIBUTES, UnsafeSource, check_definition, check_lambda
from interpreter.compile.pysource import Emitter, NotCompiled, local_name, local_name_ok


def escapes(marker: pathlib.Path) -> list[str]:
    """Python that creates `marker` when run, by the known ways out of a namespace with
    a short list of built-ins."""
    touch = f"'touch {marker}'"
    return [
        "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == '_wrap_close'][0]"
        f".__init__.__globals__['system']({touch})",
        f"_k0.__globals__['__builtins__']['open']({str(marker)!r}, 'w')",
        f"(x for x in ()).gi_frame.f_back.f_globals['__builtins__']['open']({str(marker)!r}, 'w')",
        f"type(st).__init__.__globals__['os'].system({touch})",
        f"'{{0.__class__}}'.format(st) and __import__('os').system({touch})",
    ]


def smuggled(marker: pathlib.Path) -> list[str]:
    """Ids that would put an escape at module level of a generated `def` had they been
    written raw into it (in a comment, behind a line break), each way a line can break."""
    payload = escapes(marker)[0]
    return [f"x{brk}    pass{brk}{payload}{brk}def _y(st):" for brk in ("\n", "\r", "\r\n")] + [f"x\n{payload}\n"]


GAME = """
counters:
  score: {scope: player, initial: 0}
values:
  bonus: {base: "0"}
modifiers:
  MODKEY: {value: bonus, op: add, amount: "1"}
cards:
  CARDID:
    name: Gem
    count: 2
    modifiers:
      CARDMOD: {value: bonus, op: add, amount: "1"}
    active_in: [table]
zones:
  table: {scope: global, visible: all}
""" + TICK_TURNS + """  - id: ENDID
    check: turn
    when: "score(me) >= 9"
variants:
  VARIANT:
    description: a variant
    patch: {constants: {}}
"""


def game_text(**ids: str) -> str:
    """GAME with each placeholder replaced by a quoted id (JSON quoting is YAML's)."""
    text = GAME
    for key, default in (("MODKEY", "plain"), ("CARDID", "gem"), ("CARDMOD", "shine"), ("ENDID", "later"),
                         ("VARIANT", "short")):
        text = text.replace(key, json.dumps(ids.get(key, default)))
    return text


def run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
    return code, out.getvalue() + err.getvalue()


COMMANDS = (("validate",), ("describe",), ("describe", "--code"),
            ("simulate", "--games", "2", "--seed", "1"), ("play", "--seats", "random,random", "--seed", "1"),
            ("analyze", "--games", "2", "--seed", "1"))


def test_the_plain_toy_loads_and_plays(tmp_path):
    # (so that what the hostile versions below are refused for is only their ids)
    path = write_toy(tmp_path, game_text())
    game = load_game(str(path))
    assert not game.new_initial_state(2, seed=1).is_terminal()
    assert run("validate", str(path))[0] == 0


@pytest.mark.parametrize("place", ["ENDID", "MODKEY", "CARDID", "CARDMOD"])
def test_an_id_built_to_run_code_is_refused_by_every_command(tmp_path, place):
    marker = tmp_path / "ran"
    for hostile in smuggled(marker):
        path = write_toy(tmp_path, game_text(**{place: hostile}))
        for command in COMMANDS:
            code, shown = run(command[0], str(path), *command[1:])
            assert not marker.exists(), (place, command, hostile)
            assert code == 1, (place, command, shown)
            assert "Traceback" not in shown and "error[" in shown, shown
        with pytest.raises(RuleFileError):
            load_game(str(path))
        assert not marker.exists()


def test_a_trailing_line_break_no_longer_passes_an_id_pattern(tmp_path):
    path = write_toy(tmp_path, game_text(ENDID="later\n"))
    code, shown = run("validate", str(path))
    assert code == 1
    assert "error[schema]" in shown and "end[1].id" in shown


def test_a_chosen_variant_with_a_payload_name_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    for hostile in smuggled(marker):
        path = write_toy(tmp_path, game_text(VARIANT=hostile))
        code, shown = run("validate", str(path))
        assert code == 1 and not marker.exists() and "Traceback" not in shown
        code, shown = run("play", str(path), "--variant", hostile, "--seats", "random,random", "--seed", "1")
        assert code in (1, 2) and not marker.exists() and "Traceback" not in shown


def overlay_text(**sections: object) -> str:
    return "orrery: 1\noverlay: evil\nbase: toy\nname: Evil\nversion: \"1\"\n" + "".join(
        f"{key}: {json.dumps(value)}\n" for key, value in sections.items())


def test_overlays_cannot_smuggle_code(tmp_path):
    marker = tmp_path / "ran"
    base = write_toy(tmp_path, game_text())
    overlays = []
    for hostile in smuggled(marker):
        overlays += [
            {"set": {"end": [{"id": hostile, "check": "turn", "when": "true"}]}},
            {"add": {"modifiers": {hostile: {"value": "bonus", "op": "add", "amount": "1"}}}},
            {"patch": {"cards": {"gem": {"modifiers": {hostile: {"value": "bonus", "op": "add", "amount": "2"}}}}}},
        ]
    for n, sections in enumerate(overlays):
        overlay = tmp_path / f"evil{n}.yaml"
        overlay.write_text(overlay_text(**sections), encoding="utf-8")
        for command in COMMANDS:
            code, shown = run(command[0], str(base), "--with", str(overlay), *command[1:])
            assert not marker.exists(), (sections, command)
            assert code == 1 and "Traceback" not in shown, (sections, command, shown)
        with pytest.raises(RuleFileError):
            load_game(str(base), overlays=[str(overlay)])
        assert not marker.exists()


# ---- the last gate: pycheck --------------------------------------------------------------

def test_the_known_escapes_are_refused_in_an_expression(tmp_path):
    marker = tmp_path / "ran"
    em = Emitter()
    em.bound(print, "k")  # a function in the namespace, as generated code has many
    for escape in escapes(marker):
        # (the generator never writes such a tree; the gate refuses it whatever built it)
        with pytest.raises(UnsafeSource):
            em.function(ast.parse(escape, mode="eval").body)
        with pytest.raises(UnsafeSource):
            check_lambda(ast.parse(f"lambda st, env: {escape}", mode="eval"))
    assert not marker.exists()


def test_the_known_escapes_are_refused_in_a_definition(tmp_path):
    marker = tmp_path / "ran"
    em = Emitter()
    for escape in escapes(marker):
        for source in (f"def _f1(st):\n    return {escape}\n",
                       f"def _f1(st):\n    return 1\n{escape}\n",  # a statement after the def
                       f"{escape}\ndef _f1(st):\n    return 1\n"):
            with pytest.raises(UnsafeSource):
                em.define(ast.parse(source).body, "test")
    assert not marker.exists()
    assert "_f1" not in em.ns


@pytest.mark.parametrize("source", [
    "import os\ndef _f(st):\n    return 1\n",
    "def _f(st):\n    import os\n    return os\n",
    "def _f(st):\n    global x\n    x = 1\n",
    "def _f(st):\n    class A: pass\n",
    "def _f(st):\n    yield 1\n",
    "def _f(st):\n    return f'{st}'\n",
    "def _f(st):\n    return b'x'\n",
    "def _f(st):\n    return __builtins__\n",
    "def _f(st):\n    return st.__dict__\n",
    "def _f(st):\n    return st.gd.format\n",
    "def _f(st, **kw):\n    return 1\n",
    "@staticmethod\ndef _f(st):\n    return 1\n",
    "def _f(st):\n    return 1\ndef _g(st):\n    return 2\n",
    "def _g(st):\n    return 1\n",  # not the name asked for
])
def test_what_the_generator_never_writes_is_refused(source):
    with pytest.raises(UnsafeSource):
        check_definition(ast.parse(source), "_f")


def test_what_the_generator_writes_passes():
    written = ("def _f(st, _l_me):\n    env = {'me': _l_me}\n    try:\n        hit = st.counters[0] > 1\n"
               "    except Exception as err:\n        raise err\n    return [x for x in range(3) if x]\n")
    check_definition(ast.parse(written), "_f")
    check_lambda(ast.parse("lambda st, env: env.get('me', st.active) + len(st.zones[3])", mode="eval"))


def test_no_attribute_the_generator_may_write_reaches_the_interpreter():
    for attr in GENERATED_ATTRIBUTES:
        assert not attr.startswith("__")
        assert attr not in {"format", "format_map", "mro", "gi_frame", "f_globals", "f_back", "tb_frame"}
        assert not attr.startswith(("gi_", "f_", "tb_", "co_", "cr_", "ag_", "func_"))


def test_a_local_name_is_written_only_when_plain():
    assert local_name("cell") == "_l_cell"
    for bad in ("x\n", "Cell", "_x", "ｆｏｒ", "ﬁ", "x y", "x'", "", "__class__", "a\r"):
        assert not local_name_ok(bad)
        with pytest.raises(UnsafeSource):
            local_name(bad)


def test_rules_with_errors_get_no_code_compiled(tmp_path, monkeypatch):
    compiled: list[object] = []
    real = pysource._compile
    monkeypatch.setattr(pysource, "_compile", lambda tree, mode: compiled.append(tree) or real(tree, mode))
    monkeypatch.setattr(pysource, "_CODE_CACHE", {})
    # a schema error (an unknown key) and a meaning error (an unknown counter)
    path = write_toy(tmp_path, game_text().replace("counters:", "bogus: 1\ncounters:")
                     .replace('effect: "gain 1 score"', 'effect: "gain 1 nothing"'))
    with pytest.raises(RuleFileError) as caught:
        load_game(str(path))
    codes = {d.code for d in caught.value.diagnostics}
    assert "schema" in codes and len(codes) >= 2, codes  # both mistakes told at once
    assert compiled == []
    # a meaning error alone: nothing compiled from the first error on
    path = write_toy(tmp_path, game_text().replace('effect: "gain 1 score"', 'effect: "gain 1 nothing"'))
    with pytest.raises(RuleFileError):
        load_game(str(path))
    before = len(compiled)
    assert load_game(str(write_toy(tmp_path, game_text()))) is not None
    assert len(compiled) > before  # (the same rules, fixed, do compile)


def test_a_function_of_rules_with_errors_never_runs():
    em = Emitter(compiles=False)
    fn = em.function(E("1 + 1"))
    with pytest.raises(NotCompiled):
        fn(None, {})
    defined = em.define(S("def _f1(st):\n    return 1\n"), "test")
    with pytest.raises(NotCompiled):
        defined(None)


def test_a_diagnostic_shows_control_characters_as_escapes(tmp_path):
    # an id may carry what a terminal would act on: an escape sequence, a carriage return
    path = write_toy(tmp_path, game_text(ENDID="later\x1b[2J\r\u202e"))
    code, shown = run("validate", str(path))
    assert code == 1
    assert "\x1b" not in shown and "\r" not in shown and "\u202e" not in shown
    assert "\\x1b[2J" in shown


def test_names_of_the_effect_language_are_ascii(tmp_path):
    # a case-blind [a-z] takes ſ (long s) and K (Kelvin sign): `ſt` would be a name
    text = game_text().replace('effect: "gain 1 score"', 'effect: "let ſt = 1"')
    code, shown = run("validate", str(write_toy(tmp_path, text)))
    assert code == 1 and "error[syntax]" in shown
