"""Checking one mutant: load it as `orrery validate` does, then play it a little.

Allowed outcomes: refused with diagnostics (what the CLI prints), or accepted; when
accepted, each short seeded playout ends, reaches its cap of decisions, or stops at a
rule error placed in a rule file (a located `RuleRuntimeError`). Anything else is a
failure: another exception, an unplaced rule error, running out of memory, or a `Hang`
(raised by the worker pool's CPU-time timer at the limit, so the traceback says where).

Rule text must never run as code: compiler mutants (`hostile.py`) carry payloads that
create a marker file in the check's own fresh folder (`MARKER` in their text becomes its
path), and a marker there after the check is the failure "CODE RAN", whatever the
check's outcome was otherwise.

A failure whose exception type and innermost engine place match `KNOWN` is counted as
known instead: a defect found by the fuzzer in code this harness's author could not
change, listed with a reproducer in `docs/fuzzing.md` until it is fixed.
"""

from __future__ import annotations

import contextlib
import os
import pathlib
import random
import shutil
import tempfile
import traceback
import warnings
from collections.abc import Callable, Iterator

import attrs

from interpreter.agents import is_bot
from interpreter.cli import validate_target
from interpreter.diagnostics import Diagnostic, GameError, RuleFileError, RuleRuntimeError
from interpreter.game import Game, load_game
from interpreter.play.runner import run, seat_agents
from interpreter.rules.yamlload import load_yaml
from interpreter.runtime.state import State

from .hostile import MARKER
from .mutate import Mutant

Validate = Callable[[str, list[str]], tuple[list[Diagnostic], str]]
PLAYOUTS = 2
DECISIONS = 30  # decisions per playout: short, so a thousand mutants take minutes
MARKER_FILE = "CODE-RAN"  # the marker's name in the unit's folder (payloads get its absolute path)
CODE_RAN = "CODE RAN"


@attrs.frozen
class Known:
    """A known failure: its exception type and innermost engine frame (`path:function`)."""

    error: str
    where: str
    why: str


# Failures in the compiler of expressions and statements, and in the run loop, are left
# to their owner; each is listed in docs/fuzzing.md with a reproducer.
KNOWN: tuple[Known, ...] = ()  # none left: the last one (a local called like a zone) is the `shadowed-name` diagnostic


class Hang(BaseException):
    """Raised in a worker by its CPU-time timer when a mutant runs past the limit. Not
    an Exception, so no handler of the engine's can take it for a rule's error."""


@attrs.frozen
class Result:
    """How one mutant went: `outcome` is accepted, refused, failure, known or stalled
    (the worker pool's last-resort wall-clock guard, twice: not a finding)."""

    index: int
    outcome: str
    codes: tuple[str, ...] = ()  # diagnostic codes (refused) or rule-error codes (accepted, in play)
    playouts: tuple[str, ...] = ()  # per playout: ended, capped, rule-error:CODE, variant-refused
    error: str = ""  # failure: the exception and its traceback
    where: str = ""  # failure: innermost engine frame, path:function
    warnings: tuple[str, ...] = ()  # Python warnings raised (a user would see them on stderr)
    cpu: float = 0.0  # CPU seconds the check took (set by the worker pool)
    slow: str = ""  # set by the pool when the mutant hung once and then finished in a fresh worker


def write_unit(mutant: Mutant, folder: pathlib.Path) -> pathlib.Path:
    """Write the mutant's files into `folder`, `MARKER` in their text as the absolute
    path of `folder/CODE-RAN`; returns the path to give validate. (In file names, where
    a path cannot go, `MARKER` stays a bare name: relative to the working directory.)"""
    folder.mkdir(parents=True, exist_ok=True)
    marker = str((folder / MARKER_FILE).resolve())
    for name, text in mutant.unit.files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace(MARKER, marker), encoding="utf-8")
    return folder / mutant.unit.main if mutant.unit.kind == "overlay" else folder


def code_ran(folder: pathlib.Path, unit: pathlib.Path) -> list[pathlib.Path]:
    """The markers a check left: the unit's, and a bare one in the working folder."""
    return [path for path in (unit / MARKER_FILE, folder / MARKER) if path.exists()]


def check(mutant: Mutant, validate: Validate | None = None) -> Result:
    """Load and play one mutant as `validate` (default: the CLI's) and short playouts
    do; never raises (a failure is a Result)."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="orrery-fuzz-")).resolve()  # fresh: no marker can be there
    unit = folder / "unit"
    with warnings.catch_warnings(record=True) as caught, _working_folder(folder):
        warnings.simplefilter("always")
        try:
            result = _check(mutant, write_unit(mutant, unit), validate or validate_target)
        except (Exception, Hang) as err:  # MemoryError and RecursionError included: every one is a finding
            result = _failure(mutant, err)
        finally:
            markers = code_ran(folder, unit)
            shutil.rmtree(folder, ignore_errors=True)
    if markers:
        result = Result(mutant.index, "failure", (CODE_RAN,), error=f"{CODE_RAN}: the mutant's rule text ran as "
                        f"Python (it created {markers[0].name}); without it the check was: {result.outcome} "
                        f"{', '.join(result.codes)}\n{result.error}".rstrip(), where=result.where)
    if caught:
        shown = tuple(dict.fromkeys(f"{w.category.__name__}: {w.message} ({w.filename}:{w.lineno})" for w in caught))
        result = attrs.evolve(result, warnings=shown)
    return result


@contextlib.contextmanager
def _working_folder(folder: pathlib.Path) -> Iterator[None]:
    """The check's folder as the working directory: a payload that names its marker
    without a path (in a file name) leaves it there, not in the caller's folder."""
    before = os.getcwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def _check(mutant: Mutant, target: pathlib.Path, validate: Validate) -> Result:
    diagnostics, _ = validate(str(target), [])
    if diagnostics:
        return Result(mutant.index, "refused", tuple(sorted({d.code for d in diagnostics})))
    rng = random.Random(f"orrery-fuzz-play/{mutant.seed}/{mutant.index}")
    if mutant.unit.kind == "overlay":
        data, _ = load_yaml(target)
        base, overlays = str(data["base"]), [str(target)]
    else:
        base, overlays = str(target), []
    game = load_game(base, overlays=overlays)
    outcomes, codes = [], []
    for k in range(PLAYOUTS):
        played = game
        variants = sorted(game.definition.available_variants)
        if k and variants:
            try:
                played = load_game(base, variants=[rng.choice(variants)], overlays=overlays)
            except RuleFileError:
                outcomes.append("variant-refused")
                continue
        outcome = _playout(played, rng)
        outcomes.append(outcome)
        if outcome.startswith("rule-error:"):
            codes.append(outcome.removeprefix("rule-error:"))
    return Result(mutant.index, "accepted", tuple(codes), tuple(outcomes))


def _playout(game: Game, rng: random.Random) -> str:
    """One short seeded game: random and first agents and the game's bots, at least
    one seat that is not a game bot (an all-bot game makes no decision to count)."""
    gd = game.definition
    n = rng.randint(gd.min_players, gd.max_players)
    kinds = ["random", "first", *sorted(gd.bots)]
    seats = [rng.choice(kinds) for _ in range(n)]
    if all(is_bot(seat, gd) for seat in seats):
        seats[rng.randrange(n)] = "random"
    seed = rng.randrange(2**31)
    state: State | None = None
    try:
        state = game.new_initial_state(n, seed, seats)
        run(state, seat_agents(game, seats, seed), max_actions=DECISIONS)
    except RuleRuntimeError as err:
        if not err.located:
            raise
        return f"rule-error:{err.code}"
    except GameError:
        if state is not None and len(state.history) >= DECISIONS and not state.is_terminal():
            return "capped"  # the runner's cap on actions: a short playout, as asked
        raise
    return "ended"


def _failure(mutant: Mutant, err: BaseException) -> Result:
    frames = traceback.extract_tb(err.__traceback__)
    engine = [f for f in frames if "/interpreter/" in f.filename.replace("\\", "/")]
    where = ""
    if engine:
        last = engine[-1]
        where = f"interpreter/{last.filename.replace(chr(92), '/').rsplit('/interpreter/', 1)[1]}:{last.name}"
    name = type(err).__name__
    text = "".join(traceback.format_exception(err))
    outcome = "known" if any(k.error == name and k.where == where for k in KNOWN) else "failure"
    return Result(mutant.index, outcome, (name,), error=text, where=where)
