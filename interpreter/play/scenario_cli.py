"""`orrery test GAME [FILES...]`: run scenario files and report, one line per scenario.

Without FILES, the scenarios the game carries (its `scenarios/` folder, those of its
bundled expansions, those of the overlays given with `--with`). Each scenario prints
`ok`, `FAILED` (an expectation did not hold: `file:line:col` with expected and found)
or `ERROR` (it cannot run as written: diagnostics with codes and hints); a summary
follows; the exit status is 0 when every scenario is ok, else 1. `--json` prints one
object instead: `game`, `scenarios` (each `file`, `line`, `name`, `status`,
`problems` as diagnostics' JSON), `passed`, `failed`, `errors`, `diagnostics` (files
that do not read).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import attrs

from interpreter.diagnostics import Diagnostic, RuleFileError
from interpreter.play.scenario_run import GameCache, Outcome, run_scenario
from interpreter.play.scenarios import ScenarioFile, carried, read_file
from interpreter.rules.loader import resolve
from interpreter.rules.yamlload import load_yaml


def run_tests(game: str, files: list[str], overlays: list[str], variants: list[str], as_json: bool) -> int:
    """Run the scenarios and print the report; the exit status (0 all ok, 1 otherwise)."""
    runs: list[tuple[Path, tuple[str, ...]]] = []
    if files:
        runs = [(Path(f), ()) for f in files]
    else:
        runs = [(c.path, c.overlays) for c in carried(game, overlays)]
    games = GameCache(game)
    game_id = _id_of(game)
    outcomes: list[Outcome] = []
    unread: list[Diagnostic] = []
    for path, extra in runs:
        try:
            sf = read_file(_shown(path))
        except RuleFileError as err:
            unread += err.diagnostics
            continue
        if sf.game is not None and game_id is not None and sf.game != game_id:
            unread.append(_other_game(sf, game_id))
            continue
        for sc in sf.scenarios:
            outcome = run_scenario(attrs.evolve(sc, overlays=extra), games, tuple(overlays), tuple(variants))
            outcomes.append(outcome)
            if not as_json:
                _print_outcome(outcome)
    passed = sum(o.status == "ok" for o in outcomes)
    failed = sum(o.status == "failed" for o in outcomes)
    errors = len(outcomes) - passed - failed
    if as_json:
        print(json.dumps({"game": game, "scenarios": [_json(o) for o in outcomes], "passed": passed,
                          "failed": failed, "errors": errors, "diagnostics": [d.to_json() for d in unread]},
                         indent=2))
    else:
        for diagnostic in unread:
            print(diagnostic.format())
        if not runs:
            print(f"no scenarios: {game} carries none (put scenario files in a `scenarios/` folder beside its rules, "
                  f"see docs/scenarios.md) and no FILES were given", file=sys.stderr)
        what = f"{len(outcomes)} scenario{'s' if len(outcomes) != 1 else ''}"
        bad_files = f", {len(unread)} problem{'s' if len(unread) != 1 else ''} in scenario files" if unread else ""
        print(f"{what}: {passed} ok, {failed} failed, {errors} could not run{bad_files}")
    return 0 if outcomes and passed == len(outcomes) and not unread else 1


def _id_of(game: str) -> str | None:
    """The id the game's main file declares (None when it does not read: loading the
    game reports that)."""
    try:
        data, _ = load_yaml(resolve(game, "game"))
    except RuleFileError:
        return None
    return str(data["id"]) if isinstance(data, dict) and "id" in data else None


def _other_game(sf: ScenarioFile, game_id: str) -> Diagnostic:
    first = sf.scenarios[0]
    where = first.positions.nearest(("game",))
    return Diagnostic(sf.path, where.line, where.column, "scenario-game",
                      f"these scenarios are for the game '{sf.game}', not '{game_id}'",
                      hint=f"run them with `orrery test {sf.game} {sf.path}`")


def _shown(path: Path) -> Path:
    """A path as the user reads it best: from the current folder when it is below it."""
    try:
        return path.resolve().relative_to(Path.cwd())
    except (ValueError, OSError):
        return path


def _print_outcome(outcome: Outcome) -> None:
    sc = outcome.scenario
    line, _ = sc.at("name")
    label = {"ok": "ok    ", "failed": "FAILED", "error": "ERROR "}[outcome.status]
    via = f" [with {', '.join(sc.overlays)}]" if sc.overlays else ""
    print(f"{label} {sc.name} ({sc.path}:{line}){via}")
    for problem in outcome.problems:
        text = problem.format() if outcome.status == "error" else \
            f"{problem.path}:{problem.line}:{problem.column}: {problem.message}"
        print("\n".join("    " + part for part in text.split("\n")))


def _json(outcome: Outcome) -> dict[str, Any]:
    sc = outcome.scenario
    return {"file": sc.path, "line": sc.at("name")[0], "name": sc.name, "status": outcome.status,
            "overlays": list(sc.overlays), "problems": [p.to_json() for p in outcome.problems]}
