"""Shared helpers for the tests: tiny toy games written as YAML text.

`toy(tmp_path, text)` writes `text` (dedented) as `game.yaml` in a fresh folder and
loads it. A text without a header gets one (`orrery: 1`, `id: toy`, `name: Toy`, and
two players unless it says `players:`), so a test shows only the rules it is about.
"""

from __future__ import annotations

import io
import itertools
import os
import pathlib
import sys
import textwrap
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from interpreter import Game, RuleFileError, State, load_game
from interpreter.cli import main

_folders = itertools.count()

# The suite builds some fifty native modules and plays each briefly: at -O1 the C compiler
# takes about half the time of the default -O2, and the code runs about a tenth slower.
# A run that sets the level keeps its own; test_native.py builds one module at the default.
os.environ.setdefault("ORRERY_NATIVE_OPT", "1")

# The turns most toy games need around what a test is about: each player in turn takes
# one action, `tick` (a point of the player counter `score`, which the toy declares),
# until someone has 3. Written last in a toy's text, so that the toy may add end
# conditions below it (`  - id: ...`) or change `tick` with a replace.
EACH_PLAYER_TURNS = """\
flow: |
  repeat forever:
    for each p in players:
      turn p:
        take actions turn
"""

TICK_TURNS = """\
actions:
  tick:
    during: turn
    effect: "gain 1 score"
    ends: turn
""" + EACH_PLAYER_TURNS + """\
end:
  - id: done
    check: turn
    when: "score(me) >= 3"
    winners: "[me]"
"""


@contextmanager
def cpu_budget(seconds: float) -> Iterator[None]:
    """Fail unless the block uses less than `seconds` of this thread's CPU time: a work
    budget that neither a busy machine nor another test's thread still running in this
    process can spend (the process's CPU time counted one: 1.8 s around a load that takes
    0.04)."""
    start = time.thread_time()
    yield
    used = time.thread_time() - start
    assert used < seconds, f"{used:.2f} s of CPU (budget {seconds} s)"


def toy_text(yaml_text: str) -> str:
    """The full game file for a toy's text (header added when missing)."""
    text = textwrap.dedent(yaml_text).strip("\n") + "\n"
    if not any(line.startswith("orrery:") for line in text.splitlines()):
        header = "orrery: 1\nid: toy\nname: Toy\n"
        if not any(line.startswith("players:") for line in text.splitlines()):
            header += "players: {min: 2, max: 2}\n"
        text = header + text
    return text


def write_toy(tmp_path: pathlib.Path, yaml_text: str, name: str = "game.yaml") -> pathlib.Path:
    """Write a toy game into its own folder under tmp_path; returns the file's path."""
    folder = tmp_path / f"toy{next(_folders)}"
    folder.mkdir()
    path = folder / name
    path.write_text(toy_text(yaml_text), encoding="utf-8")
    return path


def toy(tmp_path: pathlib.Path, yaml_text: str, variants: Iterable[str] = (),
        overlays: Iterable[str] = ()) -> Game:
    """Load a toy game written as YAML text."""
    path = write_toy(tmp_path, yaml_text)
    return load_game(str(path), variants=list(variants), overlays=list(overlays))


def toy_errors(tmp_path: pathlib.Path, yaml_text: str) -> list:
    """The diagnostics of a toy game that must fail to load."""
    with pytest.raises(RuleFileError) as caught:
        toy(tmp_path, yaml_text)
    return list(caught.value.diagnostics)


def play(state: State, *actions: str) -> State:
    """Apply actions by their canonical text; returns the state."""
    for action in actions:
        state.apply_action(action)
    return state


def texts(state: State) -> list[str]:
    """The canonical texts of the legal actions."""
    return [a.text for a in state.legal_actions()]


def find_line(path: pathlib.Path, needle: str, nth: int = 0) -> int:
    """1-based line number of the nth line of a file containing needle."""
    hits = [i + 1 for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()) if needle in line]
    return hits[nth]


def find_column(path: pathlib.Path, needle: str, nth: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the nth occurrence of needle in a file."""
    found = []
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        start = line.find(needle)
        while start >= 0:
            found.append((i + 1, start + 1))
            start = line.find(needle, start + 1)
    return found[nth]


def generated_ns(gd: object) -> dict:
    """A game's namespace of generated code (its listers, values, functions and checks),
    from a game definition: where a test reads a generated function by its name."""
    return next(a.lister for a in gd.actions if a.lister is not None).__globals__  # type: ignore[attr-defined]


def load_unshared(*args: Any, **kwargs: Any) -> Game:
    """`load_game` with a definition of its own, shared with no other load (a load of
    the same files shares the one built first): for a test that changes the game's
    generated code in place."""
    from interpreter.game.factory import forget_definitions
    forget_definitions()
    try:
        return load_game(*args, **kwargs)
    finally:
        forget_definitions()  # (nor with any load to come)


def code_listing(gd: object) -> list[tuple[str, str]]:
    """The generated code of a game definition as `describe --code` shows it: (rule,
    Python text written out from its syntax tree)."""
    from interpreter.play.describe import source_of
    return [(what, source_of(tree)) for what, tree in gd.generated_code]  # type: ignore[attr-defined]


def generated(game: Game, prefix: str) -> str:
    """The Python generated for the rules whose listing name starts with `prefix`
    (`orrery describe --code`: "flow", "actions.take (legal list"), joined."""
    return "\n".join(source for what, source in code_listing(game.definition) if what.startswith(prefix))


def counter(state: State, name: str, player: int | None = None) -> object:
    """A counter's raw value (whole list for arrays/keyed), straight from the state."""
    cdef = next(c for c in state.gd.counters if c.name == name)
    values = state.counters[cdef.index]
    if cdef.scope == "player":
        assert player is not None, f"counter {name} is per player"
        values = values[player * cdef.width:(player + 1) * cdef.width]
    if cdef.keys:
        return dict(zip(cdef.keys, values, strict=True))
    return values[0] if cdef.width == 1 else list(values)


def zone(state: State, name: str, player: int | None = None) -> list[str]:
    """The card ids (definition ids, bottom to top) in a zone, straight from the state."""
    zdef = next(z for z in state.gd.zones if z.name == name)
    slot = state.layout.zbase[zdef.index] + (player or 0 if zdef.scope == "player" else 0)
    return [state.gd.cards[state.card_def[iid]].id for iid in state.zones[slot]]


# Sowing is worth 3 points at the end of the game, grabbing 1 point now: a search that
# plays its rollouts to the end sows; one that values the game a turn later grabs.
# (a toy game for the search seats: tests/test_agents_search.py, tests/test_seat_options.py)
HARVEST = """
counters:
  vp: {scope: player, initial: 0}
  plant: {scope: player, initial: 0}
scoring:
  score: "vp(p)"
actions:
  grab: {during: main, effect: "gain 1 vp(me)", ends: turn}
  sow: {during: main, effect: "gain 1 plant(me)", ends: turn}
bots:
  grabber:
    description: always grabs
    turn: "gain 1 vp(me)"
    choose: first
flow: |
  repeat 6:
    for each p in players:
      turn p:
        take actions main
  for each p in players:
    gain 3 * plant(p) vp(p)
"""


# (a toy game for the simulate backends: tests/test_simulate.py, tests/test_ray_backend.py)
# Some seeds divide by zero: errors must come back from workers and Ray tasks like results.
SOMETIMES_BOOM = """
counters:
  zero: {scope: global, initial: 0}
  score: {scope: player, initial: 0}
actions:
  safe: {during: turn, effect: "gain 1 score(me)", ends: turn}
  boom: {during: turn, effect: "gain 10 / zero score(me)", ends: turn}
flow: |
  repeat 3:
    for each p in players:
      turn p:
        take actions turn
  end game winners [0]
"""


def loading_mutants(names: Iterable[str], seed: int, count: int,
                    tmp_path: pathlib.Path) -> Iterator[tuple[Any, pathlib.Path, Game]]:
    """The fuzzer's mutants of the games `names` (tests/fuzz: changed numbers, names,
    operators, statements) that load: each with its folder and its game."""
    from fuzz import corpus, make_mutant
    from fuzz.check import write_unit
    units = [u for u in corpus() if u.kind == "game" and u.name in set(names)]
    for index in range(count):
        mutant = make_mutant(units, seed, index)
        folder = write_unit(mutant, tmp_path / f"m{index}")
        try:
            yield mutant, folder, load_game(str(folder))
        except RuleFileError:
            continue


def played_both_ways(fast: State, slow: State, rng: Any, steps: int, why: object = None) -> bool:
    """A random line of play on two states of the same game, `fast` given the listed
    Actions and `slow` their texts (so the engine's quick paths meet its plain ones),
    checked equal after each step; a rule error must be met by both, at the same step,
    in the same words. True when the line ended at such an error."""
    from interpreter.diagnostics import RuleRuntimeError
    for _ in range(steps):
        if fast.is_terminal() or not fast.legal_actions():
            return False
        chosen = rng.choice(fast.legal_actions())
        try:
            fast.apply_action(chosen)
        except RuleRuntimeError as err:
            with pytest.raises(RuleRuntimeError) as caught:
                slow.apply_action(chosen.text)
            assert str(caught.value) == str(err), why
            return True
        slow.apply_action(chosen.text)
        assert fast == slow, why
    return False


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr); never a traceback."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def answers(monkeypatch: pytest.MonkeyPatch, *lines: str) -> None:
    """What a person types, one line each, as the command line's standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def events(information_state: str) -> list[str]:
    """The events of an information state, oldest first: its lines but the view now
    (the first), the first view (`  = ...`) and the changes recorded after events (`  ~ ...`)."""
    return [line for line in information_state.split("\n")[1:] if not line.startswith(("  = ", "  ~ "))]


def bundled_targets() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every bundled game, example, expansion and mod as (label, base game, overlays)."""
    from interpreter.rules.loader import bundled_entries
    found = []
    for entry in bundled_entries():
        if entry["kind"] in ("game", "example"):
            found.append((entry["id"], entry["id"], ()))
        else:
            found.append((entry["id"], entry["base"], (entry["id"],)))
    return found
