"""Benchmark: every bundled game on today's engine, beside the 0.1 engine and OpenSpiel.

Run from the repository root (this is a script, never a test):

    python bench/bench.py                       # everything, 3 s per game and engine
    python bench/bench.py --quick               # a smoke run: short budgets, noisy figures
    python bench/bench.py --seconds 1 --only tic-tac-toe --json bench.json
    python bench/bench.py --profile kuhn-poker  # cProfile of the playout loop

For every bundled game and example at its default player count, and the combinations
that matter (Rocketmen with Target: Jupiter, Race to Mars' first-game variant), one run
measures, with random actions drawn by a seeded generator (so runs repeat):

* playouts/s and decisions/s of today's engine and of the 0.1 engine (git commit
  9a45214, extracted into a temporary folder), each in a worker process of its own,
  slice by slice in turn (where the old engine needs its own rule files, today's plays
  those too, in the same rotation), and for tic-tac-toe and Kuhn poker OpenSpiel's
  Python and C++ versions in the same rotation;
* cold load (a fresh process loads the game once), warm load, clones/s, and the memory
  of a mid-game state (gc walk) and of a clone of it (tracemalloc);
* the cost of clone() and to_json() at move 10 and move 500 of the long games;
* `orrery simulate --workers 2` against one worker.

Then it prints the ratios and every bar as PASS or FAIL (bench_report.py), and with
--json writes all figures. See bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import platform
import pstats
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for _path in (str(ROOT), str(HERE)):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bench_engines import (  # noqa: E402
    Extracted,
    RemoteLoop,
    RuleChoice,
    Worker,
    WorkerError,
    cold_load,
    extract,
    rule_choices,
)
from bench_loops import (  # noqa: E402
    BASE_SEED,
    Counts,
    Loop,
    OpenSpielLoop,
    OrreryLoop,
    clone_bytes,
    clones_for,
    measure,
    play_to,
    set_clock,
    state_bytes,
)
from bench_report import (  # noqa: E402
    OPENSPIEL_TWINS,
    SAME_RULES,
    Row,
    bars,
    baseline_comparisons,
    openspiel_comparisons,
    print_bars,
    print_baseline,
    print_growth,
    print_openspiel,
    print_simulate,
    print_table,
)
from bench_simulate import measure_workers  # noqa: E402

from interpreter import load_game  # noqa: E402
from interpreter.rules.loader import bundled_entries  # noqa: E402

DEFAULT_BASELINE = "9a45214"  # the 0.1 engine
# Overlays and variants measured besides each game alone: (game, overlays, variants).
COMBOS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("rocketmen", ("target-jupiter",), ()),
    ("race-to-mars", (), ("first-game",)),
)
SIMULATE_GAMES = ("race-to-mars", "kuhn-poker")  # simulate-workers: a real game, and tiny games
GROWTH_MIN_LENGTH = 100  # state cost by move: games whose random playouts are at least this long


@dataclass(frozen=True)
class Target:
    """One thing measured: a bundled game, or a game with overlays or variants."""

    name: str  # "rocketmen", "rocketmen+target-jupiter", "race-to-mars:first-game"
    base: str  # the bundled game's id
    path: Path  # its entry file
    variants: tuple[str, ...] = ()
    overlays: tuple[str, ...] = ()  # bundled overlay ids
    overlay_paths: tuple[Path, ...] = ()  # their folders (both engines take a folder)

    @property
    def folder(self) -> str:
        return str(self.path.parent)

    @property
    def alone(self) -> bool:
        return not self.variants and not self.overlays


def all_targets() -> list[Target]:
    """Every bundled game and example at its default player count, each followed by its COMBOS."""
    entries = bundled_entries()
    by_id = {e["id"]: e for e in entries}
    out = []
    for e in entries:
        if e["kind"] not in ("game", "example"):
            continue
        out.append(Target(e["id"], e["id"], Path(e["path"])))
        for base, overlays, variants in COMBOS:
            if base == e["id"] and all(o in by_id for o in overlays):
                name = base + "".join(f"+{o}" for o in overlays) + "".join(f":{v}" for v in variants)
                out.append(Target(name, base, Path(e["path"]), variants, overlays,
                                  tuple(Path(by_id[o]["path"]).parent for o in overlays)))
    return out


class SafeLoop:
    """A loop that turns its first error into a note and then measures nothing, so one
    failing engine does not stop the others sharing its rotation."""

    def __init__(self, loop: Loop):
        self.loop, self.error = loop, None

    def __call__(self, seconds: float) -> Counts:
        if self.error is not None:
            return Counts()
        try:
            return self.loop(seconds)
        except Exception as err:
            self.error = f"{type(err).__name__}: {err}".splitlines()[0]
            return Counts()


@dataclass
class Settings:
    """The budgets of one run (see parse_args)."""

    seconds: float
    clone_seconds: float
    rounds: int
    cold_runs: int
    quick: bool
    growth: bool
    clock: str = "cpu"


class Bench:
    """One run: the workers, the rows measured so far, and what else was found."""

    def __init__(self, settings: Settings, current: Worker, old: Worker | None, extracted: Extracted | None,
                 baseline_label: str, use_openspiel: bool):
        self.s = settings
        self.current, self.old, self.extracted, self.baseline_label = current, old, extracted, baseline_label
        self.use_openspiel = use_openspiel
        self.rows: list[Row] = []
        self.growth: list[dict[str, Any]] = []
        self.openspiel_games: dict[str, Any] = {}

    # ---- one target ------------------------------------------------------------------

    def target(self, t: Target) -> Row:
        """Measure `t` on every engine that has it, in one rotation; returns today's row."""
        cur = Row("orrery", t.name, 0)
        self.rows.append(cur)
        try:
            loaded = self.current.request("load", key=t.name, target=t.folder, variants=list(t.variants),
                                          overlays=[str(p) for p in t.overlay_paths], repeats=3)
        except WorkerError as err:
            cur.error = f"load: {err}".splitlines()[0]
            return cur
        cur.players, cur.load_ms, cur.first_load_ms = loaded["players"], loaded["load_ms"], loaded["first_ms"]
        group: list[tuple[Row, SafeLoop, Callable[[Row], None]]] = [
            (cur, SafeLoop(RemoteLoop(self.current, t.name)), lambda row: self._remote_costs(row, self.current, t))]
        old_row, choice = self._baseline(t, cur.players)
        if old_row is not None and choice is not None and self.old is not None:
            old = self.old
            group.append((old_row, SafeLoop(RemoteLoop(old, t.name)), lambda row: self._remote_costs(row, old, t)))
            if choice.label != "same":  # the old engine plays other rule files: today's plays them too
                same = self._same_rules(t, choice, cur.players)
                if same is not None:
                    group.append((same, SafeLoop(RemoteLoop(self.current, same.name)), lambda row: None))
        if self.use_openspiel and t.alone:
            for short in OPENSPIEL_TWINS.get(t.name, ()):
                twin = self._openspiel(short, cur.players)
                if twin is not None:
                    game = twin[1]
                    group.append((twin[0], SafeLoop(OpenSpielLoop(game)),
                                  lambda row, game=game: self._openspiel_costs(row, game)))
        results = measure([loop for _, loop, _ in group], self.s.seconds, self.s.rounds)
        for (row, loop, costs), counts in zip(group, results, strict=True):
            _fill(row, counts)
            row.error = row.error or loop.error
            if row.measured:
                costs(row)
        self._cold(cur, ROOT, t.folder, t.variants, tuple(str(p) for p in t.overlay_paths))
        if old_row is not None and choice is not None and self.extracted is not None:
            self._cold(old_row, self.extracted.root, choice.target, choice.variants, choice.overlays)
        if self.s.growth and t.alone and cur.actions_per_game >= GROWTH_MIN_LENGTH:
            self._growth(t, "orrery", self.current)
            if old_row is not None and old_row.measured and self.old is not None:
                self._growth(t, self.baseline_label, self.old)
        return cur

    def _baseline(self, t: Target, players: int) -> tuple[Row | None, RuleChoice | None]:
        """Load `t` in the old engine: today's rules if it takes them, else see rule_choices."""
        if self.old is None or self.extracted is None:
            return None, None
        row = Row(self.baseline_label, t.name, players)
        self.rows.append(row)
        refused = []
        for choice in rule_choices(self.extracted, t.base, t.path, t.variants, t.overlay_paths, t.overlays):
            try:
                loaded = self.old.request("load", key=t.name, target=choice.target, variants=list(choice.variants),
                                          overlays=list(choice.overlays), players=players, repeats=3)
            except WorkerError as err:
                refused.append(f"{choice.label}: {str(err).splitlines()[0]}")
                continue
            row.players, row.load_ms, row.first_load_ms = loaded["players"], loaded["load_ms"], loaded["first_ms"]
            row.rules = choice.label
            return row, choice
        missing = "" if (self.extracted.root / "games" / t.base).is_dir() or (
            self.extracted.root / "examples" / t.base).is_dir() else f"not in {self.baseline_label}; "
        row.error = f"{missing}refused the rules ({' / '.join(refused)})"
        return row, None

    def _same_rules(self, t: Target, choice: RuleChoice, players: int) -> Row | None:
        """Today's engine loaded with the rule files the old engine plays (`choice`),
        measured in the same rotation: the ratio of the engines alone, where the
        target's own ratio also holds what the rules gained or lost since."""
        row = Row("orrery", f"{t.name}{SAME_RULES}", players, rules=choice.label)
        self.rows.append(row)
        try:
            loaded = self.current.request("load", key=row.name, target=choice.target, variants=list(choice.variants),
                                          overlays=list(choice.overlays), players=players, repeats=1)
        except WorkerError as err:
            row.error = f"refused the {choice.label} rules: {err}".splitlines()[0]
            return None
        if loaded["players"] != players:
            row.error = f"{loaded['players']} players there, {players} here"
            return None
        row.players, row.load_ms, row.first_load_ms = loaded["players"], loaded["load_ms"], loaded["first_ms"]
        return row

    def _openspiel(self, short: str, players: int) -> tuple[Row, Any] | None:
        import pyspiel

        impl = "openspiel-py" if short.startswith("python_") else "openspiel-c++"
        row = Row(impl, short, 0)
        self.rows.append(row)
        try:
            start = time.perf_counter()
            game = pyspiel.load_game(short)
            row.load_ms = row.first_load_ms = (time.perf_counter() - start) * 1000
        except Exception as err:
            row.error = f"load: {type(err).__name__}: {err}"
            return None
        row.players = game.num_players()
        if row.players != players:
            row.error = f"OpenSpiel's has {row.players} players, orrery's {players}"
            return None
        self.openspiel_games[short] = game
        return row, game

    def openspiel_alone(self, short: str) -> None:
        """An OpenSpiel game asked for without its orrery twin."""
        if short in self.openspiel_games:
            return
        import pyspiel

        players = pyspiel.load_game(short).num_players()
        twin = self._openspiel(short, players)
        if twin is not None:
            row, game = twin
            loop = SafeLoop(OpenSpielLoop(game))
            _fill(row, measure([loop], self.s.seconds, self.s.rounds)[0])
            row.error = loop.error
            if row.measured:
                self._openspiel_costs(row, game)

    # ---- costs -----------------------------------------------------------------------

    def _remote_costs(self, row: Row, worker: Worker, t: Target) -> None:
        try:
            costs = worker.request("costs", key=t.name, mean_length=row.actions_per_game,
                                   clone_seconds=self.s.clone_seconds)["costs"]
        except WorkerError as err:
            row.error = f"costs: {err}".splitlines()[0]
            return
        for key in ("clone_at_decision", "clones", "clone_seconds", "clones_per_s", "state_bytes", "clone_bytes"):
            setattr(row, key, costs[key])

    def _openspiel_costs(self, row: Row, game: Any) -> None:
        try:
            state, row.clone_at_decision = play_to(game.new_initial_state, int(row.actions_per_game // 2))
            row.clones, row.clone_seconds = clones_for(state, self.s.clone_seconds)
            row.clones_per_s = row.clones / row.clone_seconds
            if type(state).__module__.startswith("open_spiel.python"):  # C++ memory is not Python's to see
                row.state_bytes = state_bytes(state, game, game.new_initial_state())
                row.clone_bytes = clone_bytes(state)
        except Exception as err:
            row.error = f"clone: {type(err).__name__}: {err}"

    def _cold(self, row: Row, root: Path, target: str, variants: tuple[str, ...], overlays: tuple[str, ...]) -> None:
        best: dict[str, float] | None = None
        for _ in range(self.s.cold_runs):
            try:
                result = cold_load(root, target, list(variants), list(overlays), self.s.clock)
            except Exception as err:
                row.error = row.error or f"cold load: {err}"
                return
            if best is None or result["load_ms"] < best["load_ms"]:
                best = result
        if best is not None:
            row.cold_ms, row.cold_import_ms = best["load_ms"], best["import_ms"]

    def _growth(self, t: Target, engine: str, worker: Worker) -> None:
        try:
            points = worker.request("growth", key=t.name, budget=0.03 if self.s.quick else 0.1)["growth"]
        except WorkerError as err:
            self.growth.append({"engine": engine, "game": t.name, "error": str(err).splitlines()[0]})
            return
        self.growth.append({"engine": engine, "game": t.name, "points": points})


def _fill(row: Row, counts: Counts) -> None:
    row.playouts, row.decisions, row.chance_steps = counts.playouts, counts.decisions, counts.chance
    row.truncated, row.seconds = counts.truncated, counts.seconds
    if counts.seconds > 0:
        row.playouts_per_s = counts.playouts / counts.seconds
        row.decisions_per_s = counts.decisions / counts.seconds
    row.actions_per_game = counts.decisions / counts.playouts if counts.playouts else 0.0
    row.best_playouts_per_s, row.best_decisions_per_s = counts.best_playouts_per_s, counts.best_decisions_per_s


def openspiel_available() -> str | None:
    """None when OpenSpiel's games can be loaded, else why not."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.games import kuhn_poker, tic_tac_toe  # noqa: F401  (registers the games)
    except Exception as err:
        return f"{type(err).__name__}: {err}"
    return None


def openspiel_name(name: str) -> str | None:
    """The OpenSpiel game meant by `python_x`, a C++ twin's name, or `openspiel:<orrery id
    or OpenSpiel name>` (an orrery id means its Python twin), else None."""
    if name.startswith("openspiel:"):
        rest = name[len("openspiel:"):]
        return OPENSPIEL_TWINS[rest][0] if rest in OPENSPIEL_TWINS else rest
    cpp = {twins[1] for twins in OPENSPIEL_TWINS.values()}
    return name if name.startswith("python_") or name in cpp else None


def simulate_rows(targets: list[Target], rows: list[Row], settings: Settings, only: set[str]) -> list[dict[str, Any]]:
    """simulate-workers for SIMULATE_GAMES (or, with --only naming none of them, the first game named)."""
    chosen = [t for t in targets if t.name in SIMULATE_GAMES]
    if not chosen and only:
        chosen = targets[:1]
    out = []
    for t in chosen:
        row = next((r for r in rows if r.engine == "orrery" and r.name == t.name and r.measured), None)
        if row is None:
            continue
        print(f"  simulate-workers {t.name} ...", file=sys.stderr, flush=True)
        # About --seconds of one worker's work per run (at least 1 s but with --quick; its agents cost a
        # little more than the bench loop): long enough that starting the helper is a small part of it.
        budget = settings.seconds if settings.quick else max(1.0, settings.seconds)
        games = max(20, int(row.playouts_per_s * budget * 0.8))
        try:
            result = measure_workers(ROOT, t.folder, t.variants, tuple(str(p) for p in t.overlay_paths), games,
                                     rounds=1 if settings.quick else 2)
        except Exception as err:
            out.append({"game": t.name, "error": f"{type(err).__name__}: {err}"})
            continue
        out.append({"game": t.name, **result})
    return out


# ---- profiling ----------------------------------------------------------------------------


def run_profile(name: str, seconds: float, profiler: str) -> int:
    """Profile `name`'s random playouts in this process: an orrery target (id, combo
    name or path), or an OpenSpiel game name."""
    short = openspiel_name(name)
    if short is not None:
        why = openspiel_available()
        if why:
            print(f"open_spiel is not installed ({why}); cannot profile {name}")
            return 2
        import pyspiel

        loop: Loop = OpenSpielLoop(pyspiel.load_game(short))
    else:
        t = next((t for t in all_targets() if t.name == name), None)
        try:
            game = (load_game(t.folder, variants=list(t.variants), overlays=[str(p) for p in t.overlay_paths])
                    if t else load_game(name))
        except Exception as err:
            print(f"cannot load {name}: {type(err).__name__}: {err}")
            return 2
        loop = OrreryLoop(game, None)

    def work() -> tuple[int, int]:
        counts = loop(seconds)
        return counts.playouts, counts.decisions

    if profiler == "pyinstrument":
        try:
            from pyinstrument import Profiler
        except ImportError:
            print("pyinstrument is not installed; using cProfile")
        else:
            prof = Profiler(interval=0.0005)
            prof.start()
            playouts, decisions = work()
            prof.stop()
            print(f"{name}: {playouts} playouts, {decisions} decisions in {seconds:g} s (under pyinstrument)")
            print(prof.output_text(unicode=True, color=False, show_all=False))
            return 0

    prof_c = cProfile.Profile()
    prof_c.enable()
    playouts, decisions = work()
    prof_c.disable()
    print(f"{name}: {playouts} playouts, {decisions} decisions in {seconds:g} s (under cProfile, slowed by it)")
    print_profile(pstats.Stats(prof_c), top=25)
    return 0


def print_profile(stats: pstats.Stats, top: int = 25) -> None:
    """The top functions by cumulative and by own time, each with its share of the run."""
    entries = stats.stats  # type: ignore[attr-defined]  # (file, line, name) -> (cc, nc, tt, ct, callers)
    total = sum(v[2] for v in entries.values()) or 1.0
    root = str(ROOT) + os.sep
    for index, title in ((3, "cumulative time (the function and all it calls)"), (2, "own time (tottime)")):
        print(f"\n=== top {top} by {title}; % of {total:.2f} s profiled ===")
        print(f"{'calls':>14}  {'own s':>7}  {'own %':>6}  {'cum s':>7}  {'cum %':>6}  function")
        ranked = sorted(entries.items(), key=lambda kv: kv[1][index], reverse=True)[:top]
        for (file, line, func), (cc, nc, tt, ct, _callers) in ranked:
            calls = str(nc) if cc == nc else f"{nc}/{cc}"
            where = f"{file.replace(root, '')}:{line}" if file != "~" else "builtin"
            print(f"{calls:>14}  {tt:7.3f}  {100 * tt / total:5.1f}%  {ct:7.3f}  {100 * ct / total:5.1f}%  "
                  f"{func}  ({where})")


# ---- main ---------------------------------------------------------------------------------


def machine_info() -> dict[str, Any]:
    info: dict[str, Any] = {
        "python": sys.version,
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        import pyspiel

        info["open_spiel"] = getattr(pyspiel, "__version__", "installed")
    except Exception:
        info["open_spiel"] = None
    return info


def _positive(kind: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type: a number of `kind` above zero (a budget, a count of runs)."""
    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value
    return parse


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=_positive(float), default=None,
                        help="playout budget of each game on each engine (default 3; 0.3 with --quick)")
    parser.add_argument("--clone-seconds", type=_positive(float), default=None,
                        help="budget of each clone measurement (default: a third of --seconds, at least 0.5; "
                        "0.1 with --quick)")
    parser.add_argument("--rounds", type=_positive(int), default=None,
                        help="slices each budget is cut into; the engines of a game take turns slice by slice "
                        "(default 20; 4 with --quick)")
    parser.add_argument("--quick", action="store_true",
                        help="a fast smoke run: short budgets, one cold load, one simulate run per worker count")
    parser.add_argument("--json", metavar="FILE", help="write every figure, the bars and the machine info to FILE")
    parser.add_argument("--only", metavar="NAME", action="append",
                        help="only this target (repeatable): a game id, a combination "
                        "(rocketmen+target-jupiter, race-to-mars:first-game) or an OpenSpiel game")
    parser.add_argument("--baseline", metavar="COMMIT", default=DEFAULT_BASELINE,
                        help=f"the older engine measured beside today's (default {DEFAULT_BASELINE}, the 0.1 engine)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the older engine")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel rows")
    parser.add_argument("--no-simulate", action="store_true", help="skip simulate-workers")
    parser.add_argument("--no-growth", action="store_true", help="skip the state cost by move")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                        help="time playouts and clones by the process's CPU time (default: other processes' "
                        "load is not counted) or by elapsed time")
    parser.add_argument("--cold-runs", type=_positive(int), default=None,
                        help="fresh processes per cold load, the best kept (default 3; 1 with --quick)")
    parser.add_argument("--profile", metavar="NAME",
                        help="profile NAME's playouts instead: an orrery target or path, or an OpenSpiel game "
                        "(python_tic_tac_toe, openspiel:kuhn-poker)")
    parser.add_argument("--profiler", choices=("cprofile", "pyinstrument"), default="cprofile",
                        help="profiler for --profile (default cprofile: top 25 by cumulative and own time)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a required bar (orrery/OpenSpiel-Python >= 0.5) is missed")
    return parser.parse_args(argv)


def settings_of(args: argparse.Namespace) -> Settings:
    seconds = args.seconds if args.seconds is not None else (0.3 if args.quick else 3.0)
    clone_seconds = (args.clone_seconds if args.clone_seconds is not None
                     else 0.1 if args.quick else max(0.5, seconds / 3))
    rounds = max(1, args.rounds if args.rounds is not None else (4 if args.quick else 20))
    cold_runs = max(1, args.cold_runs if args.cold_runs is not None else (1 if args.quick else 3))
    return Settings(seconds, clone_seconds, rounds, cold_runs, args.quick, not args.no_growth, args.clock)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    settings = settings_of(args)
    if args.profile:
        return run_profile(args.profile, settings.seconds, args.profiler)

    only = set(args.only or ())
    targets = all_targets()
    if only:
        targets = [t for t in targets if t.name in only]
    wanted = [n for n in (openspiel_name(o) for o in sorted(only)) if n is not None]
    if not targets and not wanted:
        known = ", ".join(t.name for t in all_targets())
        print(f"no target matches {', '.join(sorted(only))}; known: {known}")
        return 2

    openspiel_note = None
    if args.no_openspiel:
        openspiel_note = "skipped (--no-openspiel)"
    elif wanted or any(t.name in OPENSPIEL_TWINS for t in targets):
        why = openspiel_available()
        if why:
            openspiel_note = f"open_spiel is not installed ({why}); install it with `pip install .[bench]`"

    extracted: Extracted | None = None
    baseline_note = "skipped (--no-baseline)"
    if not args.no_baseline:
        extracted, why = extract(ROOT, args.baseline)
        baseline_note = f"not measured: {why}" if extracted is None else "measured"
    label = "0.1" if args.baseline == DEFAULT_BASELINE else args.baseline[:12]

    info = machine_info()
    print(f"orrery bench: Python {platform.python_version()} on {info['platform']} ({info.get('cpu', '?')}), "
          f"{info['cpu_count']} cores, load average {info['load_average']}")
    print(f"{settings.seconds:g} s ({args.clock} time) of playouts per game and engine in {settings.rounds} slices "
          f"taken in turn, {settings.clone_seconds:g} s of clones; seed {BASE_SEED}; "
          f"baseline {args.baseline}: {baseline_note}\n")

    set_clock(args.clock)  # the OpenSpiel loops, timed in this process
    current = Worker(ROOT, "orrery", args.clock)
    old = Worker(extracted.root, label, args.clock) if extracted is not None else None
    try:
        bench = Bench(settings, current, old, extracted, label, use_openspiel=openspiel_note is None)
        for t in targets:
            print(f"  measuring {t.name} ...", file=sys.stderr, flush=True)
            bench.target(t)
        if openspiel_note is None:
            for short in wanted:
                print(f"  measuring OpenSpiel {short} ...", file=sys.stderr, flush=True)
                bench.openspiel_alone(short)
        simulate = [] if args.no_simulate else simulate_rows(targets, bench.rows, settings, only)
    finally:
        current.close()
        if old is not None:
            old.close()
        if extracted is not None:
            extracted.remove()
    return report(args, settings, info, bench, simulate, label, openspiel_note, baseline_note)


def report(args: argparse.Namespace, settings: Settings, info: dict[str, Any], bench: Bench,
           simulate: list[dict[str, Any]], label: str, openspiel_note: str | None, baseline_note: str) -> int:
    rows = bench.rows
    print_table(rows)
    os_comps = openspiel_comparisons(rows)
    base_comps = baseline_comparisons(rows, label)
    print()
    if openspiel_note:
        print(f"OpenSpiel: {openspiel_note}")
    elif os_comps:
        print("orrery / OpenSpiel (same loop, interleaved):")
        print_openspiel(os_comps)
    print()
    if base_comps:
        print(f"orrery / {label} engine ({args.baseline}; same loop and seeds, interleaved):")
        print_baseline(base_comps, label)
    else:
        print(f"{label} engine: {baseline_note}")
    if bench.growth:
        print("\nstate cost by move (one long random game; clone and to_json: best of 10 batches):")
        print_growth(bench.growth)
    if simulate:
        print(f"\nsimulate-workers (`orrery simulate --workers 2` vs 1 worker, {os.cpu_count()} cores):")
        print_simulate(simulate)
    found = bars(rows, os_comps, base_comps, simulate)
    if found:
        print("\nbars:")
        print_bars(found)
    missed = [b for b in found if b["required"] and not b["pass"]]

    if args.json:
        info["load_average_after"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
        payload = {
            "machine": info,
            "settings": {**asdict(settings), "seed": BASE_SEED, "baseline": args.baseline,
                         "only": sorted(args.only or ())},
            "openspiel": openspiel_note or "measured",
            "baseline": {"commit": args.baseline, "label": label, "status": baseline_note},
            "rows": [asdict(r) for r in rows],
            "openspiel_comparisons": os_comps,
            "baseline_comparisons": base_comps,
            "growth": bench.growth,
            "simulate": simulate,
            "bars": found,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    # The bench reports; only --strict turns a missed required bar into exit status 1.
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
