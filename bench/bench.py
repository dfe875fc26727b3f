"""Benchmark: random playouts of every bundled game, side by side with OpenSpiel.

Run from the repository root (this is a script, never a test):

    python bench/bench.py                       # every bundled game and example, 3 s each
    python bench/bench.py --seconds 1 --only tic-tac-toe
    python bench/bench.py --all-counts --json bench.json
    python bench/bench.py --profile kuhn-poker  # cProfile of the playout loop

For each bundled game and example (at its default player count, or every count with
--all-counts) it measures:

* load: `load_game` end to end (read, schema, checks, compile), best of 3 in-process,
  and the first load of the run (which also pays one-off costs such as building parsers);
* playouts/s and decisions/s: a fixed time budget of loops "new state, random legal action
  until terminal", actions drawn by a seeded `random.Random` so runs are repeatable;
  decisions are `apply_action` calls made for a player;
* actions/game: mean decisions per finished game;
* clones/s: `clone()` of one mid-game state, repeated for the time budget.

OpenSpiel's hand-written Python tic-tac-toe and Kuhn poker (`python_tic_tac_toe`,
`python_kuhn_poker`) are measured by the same loop (their chance nodes, the deal, are
sampled from `chance_outcomes()` and not counted as decisions), slice by slice in
alternation with their orrery twins so machine load hits both alike, and the ratio
orrery/OpenSpiel of playouts/s is checked against the bars: >= 0.5 required, >= 1.0 goal.
Without open_spiel installed those rows are skipped. See bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import gc
import json
import os
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import load_game  # noqa: E402
from interpreter.rules.loader import bundled_entries  # noqa: E402

REQUIRED_RATIO = 0.5  # orrery playouts/s over OpenSpiel's, the bar that must be met
GOAL_RATIO = 1.0  # the bar aimed at
MAX_DECISIONS = 100_000  # a playout longer than this is cut short and reported
BASE_SEED = 20240601

# orrery game id -> the OpenSpiel Python game that implements the same rules.
OPENSPIEL_TWINS: dict[str, str] = {
    "tic-tac-toe": "python_tic_tac_toe",
    "kuhn-poker": "python_kuhn_poker",
}


@dataclass
class Row:
    """The figures of one game at one player count."""

    engine: str  # "orrery" or "openspiel"
    name: str  # orrery id or OpenSpiel short name
    players: int
    load_ms: float | None = None  # best of 3
    first_load_ms: float | None = None
    playouts: int = 0
    decisions: int = 0
    chance_steps: int = 0  # OpenSpiel only: chance actions applied (not decisions)
    truncated: int = 0  # playouts cut at MAX_DECISIONS
    seconds: float = 0.0
    playouts_per_s: float = 0.0
    decisions_per_s: float = 0.0
    best_playouts_per_s: float = 0.0  # the fastest of the --rounds slices
    best_decisions_per_s: float = 0.0
    actions_per_game: float = 0.0
    clones: int = 0
    clone_seconds: float = 0.0
    clones_per_s: float = 0.0
    clone_at_decision: int = 0
    error: str | None = None


# ---- the measured loops ------------------------------------------------------------------


@dataclass
class Counts:
    """What one run of a playout loop did."""

    playouts: int = 0
    decisions: int = 0
    chance: int = 0
    truncated: int = 0
    seconds: float = 0.0
    best_playouts_per_s: float = 0.0  # the fastest slice: the least disturbed by other load
    best_decisions_per_s: float = 0.0

    def add(self, other: Counts) -> None:
        self.playouts += other.playouts
        self.decisions += other.decisions
        self.chance += other.chance
        self.truncated += other.truncated
        self.seconds += other.seconds
        if other.seconds > 0:
            self.best_playouts_per_s = max(self.best_playouts_per_s, other.playouts / other.seconds)
            self.best_decisions_per_s = max(self.best_decisions_per_s, other.decisions / other.seconds)


class OrreryLoop:
    """Random playouts of an orrery game; successive calls continue one seeded sequence."""

    def __init__(self, game: Any, players: int | None, seed: int = BASE_SEED):
        self.game, self.players, self.rng = game, players, random.Random(seed)

    def __call__(self, seconds: float) -> Counts:
        rng = self.rng
        choice = rng.choice
        getrandbits = rng.getrandbits
        new_state = self.game.new_initial_state
        players = self.players
        clock = time.perf_counter
        playouts = decisions = truncated = 0
        start = clock()
        deadline = start + seconds
        while True:
            state = new_state(num_players=players, seed=getrandbits(32))
            steps = 0
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                steps += 1
                if steps >= MAX_DECISIONS:
                    truncated += 1
                    break
            playouts += 1
            decisions += steps
            now = clock()
            if now >= deadline:
                return Counts(playouts, decisions, 0, truncated, now - start)


class OpenSpielLoop:
    """The same loop over an OpenSpiel game; chance nodes are sampled from chance_outcomes()
    and counted apart from decisions."""

    def __init__(self, game: Any, seed: int = BASE_SEED):
        self.game, self.rng = game, random.Random(seed)

    def __call__(self, seconds: float) -> Counts:
        rng = self.rng
        choice = rng.choice
        choices = rng.choices
        new_state = self.game.new_initial_state
        clock = time.perf_counter
        playouts = decisions = chance = truncated = 0
        start = clock()
        deadline = start + seconds
        while True:
            state = new_state()
            steps = 0
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(choices([o[0] for o in outcomes], [o[1] for o in outcomes])[0])
                    chance += 1
                    continue
                state.apply_action(choice(state.legal_actions()))
                steps += 1
                if steps >= MAX_DECISIONS:
                    truncated += 1
                    break
            playouts += 1
            decisions += steps
            now = clock()
            if now >= deadline:
                return Counts(playouts, decisions, chance, truncated, now - start)


def measure(loops: list[Callable[[float], Counts]], seconds: float, rounds: int) -> list[Counts]:
    """Run each loop for `seconds` in all, in `rounds` slices interleaved in ABBA order,
    so a drift in machine load touches every loop alike and the ratios stay fair."""
    totals = [Counts() for _ in loops]
    chunk = seconds / rounds
    for r in range(rounds):
        order = list(range(len(loops)))
        if r % 2:
            order.reverse()
        for i in order:
            gc.collect()
            totals[i].add(loops[i](chunk))
    return totals


def mid_game_state(make: Callable[[], Any], mean_length: float, seed: int = BASE_SEED) -> tuple[Any, int]:
    """A state about halfway through a random game (chance nodes sampled as they come)."""
    rng = random.Random(seed + 1)
    target = max(0, int(mean_length // 2))
    state = make()
    done = 0
    while not state.is_terminal() and done < target:
        is_chance = getattr(state, "is_chance_node", None)
        if is_chance is not None and is_chance():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o[0] for o in outcomes], [o[1] for o in outcomes])[0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        done += 1
    return state, done


def clones_for(state: Any, seconds: float) -> tuple[int, float]:
    """clone() the state repeatedly for `seconds`: (clones, elapsed)."""
    clone = state.clone
    clock = time.perf_counter
    count = 0
    start = clock()
    deadline = start + seconds
    while True:
        for _ in range(100):
            clone()
        count += 100
        now = clock()
        if now >= deadline:
            return count, now - start


def timed_loads(path: str, repeats: int = 3) -> tuple[Any, float, float]:
    """Load the game `repeats` times: (game, first load ms, best load ms)."""
    times: list[float] = []
    game = None
    for _ in range(repeats):
        start = time.perf_counter()
        game = load_game(path)
        times.append((time.perf_counter() - start) * 1000)
    return game, times[0], min(times)


# ---- rows ---------------------------------------------------------------------------------


class Bench:
    """One run: the rows measured so far and the settings."""

    def __init__(self, seconds: float, clone_seconds: float, rounds: int, use_openspiel: bool):
        self.seconds, self.clone_seconds, self.rounds = seconds, clone_seconds, rounds
        self.use_openspiel = use_openspiel
        self.rows: list[Row] = []
        self.openspiel_games: dict[str, Any] = {}

    def openspiel_game(self, short: str) -> tuple[Any, float]:
        """(the loaded OpenSpiel game, load ms)."""
        import pyspiel

        start = time.perf_counter()
        game = pyspiel.load_game(short)
        return game, (time.perf_counter() - start) * 1000

    def orrery_entry(self, entry: dict[str, Any], all_counts: bool) -> None:
        """Rows of one bundled game (each player count), each with its OpenSpiel twin
        measured interleaved when there is one for that count."""
        name = entry["id"]
        try:
            game, first_ms, best_ms = timed_loads(str(entry["path"]))
        except Exception as err:  # a broken game is a row, not a crash
            self.rows.append(Row("orrery", name, 0, error=f"load: {type(err).__name__}: {err}"))
            return
        gd = game.definition
        counts = list(range(gd.min_players, gd.max_players + 1)) if all_counts else [gd.default_players]
        for n in counts:
            row = Row("orrery", name, n, load_ms=best_ms, first_load_ms=first_ms)
            self.rows.append(row)
            twin_row, twin_loop = self._twin(name, n)
            loops: list[Callable[[float], Counts]] = [OrreryLoop(game, n)]
            if twin_loop is not None:
                loops.append(twin_loop)
            try:
                results = measure(loops, self.seconds, self.rounds)
            except Exception as err:
                row.error = f"{type(err).__name__}: {err}"
                if twin_row is not None:
                    twin_row.error = f"not measured: orrery {name} failed"
                continue
            _fill(row, results[0])
            self._clones(row, functools.partial(game.new_initial_state, num_players=n, seed=BASE_SEED))
            if twin_row is not None:
                _fill(twin_row, results[1])
                self._clones(twin_row, self.openspiel_games[twin_row.name].new_initial_state)

    def _twin(self, name: str, players: int) -> tuple[Row | None, OpenSpielLoop | None]:
        short = OPENSPIEL_TWINS.get(name)
        if short is None or not self.use_openspiel or short in self.openspiel_games:
            return None, None
        try:
            game, ms = self.openspiel_game(short)
        except Exception as err:
            self.rows.append(Row("openspiel", short, 0, error=f"load: {type(err).__name__}: {err}"))
            self.openspiel_games[short] = None
            return None, None
        if game.num_players() != players:
            return None, None
        self.openspiel_games[short] = game
        row = Row("openspiel", short, players, load_ms=ms, first_load_ms=ms)
        self.rows.append(row)
        return row, OpenSpielLoop(game)

    def openspiel_alone(self, short: str) -> None:
        """An OpenSpiel game asked for without its orrery twin."""
        if short in self.openspiel_games:
            return
        row = Row("openspiel", short, 0)
        self.rows.append(row)
        try:
            game, ms = self.openspiel_game(short)
            self.openspiel_games[short] = game
            row.players, row.load_ms, row.first_load_ms = game.num_players(), ms, ms
            _fill(row, measure([OpenSpielLoop(game)], self.seconds, self.rounds)[0])
            self._clones(row, game.new_initial_state)
        except Exception as err:
            row.error = f"{type(err).__name__}: {err}"

    def _clones(self, row: Row, make: Callable[[], Any]) -> None:
        try:
            state, row.clone_at_decision = mid_game_state(make, row.actions_per_game)
            gc.collect()
            row.clones, row.clone_seconds = clones_for(state, self.clone_seconds)
            row.clones_per_s = row.clones / row.clone_seconds
        except Exception as err:
            row.error = f"clone: {type(err).__name__}: {err}"


def _fill(row: Row, counts: Counts) -> None:
    row.playouts, row.decisions, row.chance_steps = counts.playouts, counts.decisions, counts.chance
    row.truncated, row.seconds = counts.truncated, counts.seconds
    row.playouts_per_s = counts.playouts / counts.seconds
    row.decisions_per_s = counts.decisions / counts.seconds
    row.actions_per_game = counts.decisions / counts.playouts if counts.playouts else 0.0
    row.best_playouts_per_s, row.best_decisions_per_s = counts.best_playouts_per_s, counts.best_decisions_per_s


def openspiel_available() -> str | None:
    """None when OpenSpiel's Python games can be loaded, else why not."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.games import kuhn_poker, tic_tac_toe  # noqa: F401  (registers the games)
    except Exception as err:
        return f"{type(err).__name__}: {err}"
    return None


# ---- output -------------------------------------------------------------------------------


def _fmt(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def print_table(rows: list[Row]) -> None:
    head = ("engine", "game", "pl", "load ms", "1st ms", "playouts/s", "best pl/s", "decisions/s", "act/game",
            "clones/s", "note")
    lines = [head]
    for r in rows:
        note = r.error or ""
        if r.truncated:
            note = (note + f" {r.truncated} cut at {MAX_DECISIONS}").strip()
        if r.chance_steps:
            note = (note + f" +{r.chance_steps / max(r.playouts, 1):.0f} chance/game").strip()
        lines.append((
            r.engine, r.name, str(r.players) if r.players else "-",
            _fmt(r.load_ms, 1), _fmt(r.first_load_ms, 1),
            _fmt(r.playouts_per_s), _fmt(r.best_playouts_per_s), _fmt(r.decisions_per_s), _fmt(r.actions_per_game, 2),
            _fmt(r.clones_per_s), note,
        ))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    right = {2, 3, 4, 5, 6, 7, 8, 9}
    for k, line in enumerate(lines):
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(line)]
        print("  ".join(cells).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))


def comparisons(rows: list[Row]) -> list[dict[str, Any]]:
    """orrery/OpenSpiel ratios for each game with an OpenSpiel twin measured in this run."""
    out = []
    for ours in rows:
        twin = OPENSPIEL_TWINS.get(ours.name)
        if ours.engine != "orrery" or twin is None or ours.error or not ours.playouts:
            continue
        theirs = next((r for r in rows if r.engine == "openspiel" and r.name == twin and not r.error), None)
        if theirs is None or theirs.players != ours.players:
            continue
        ratio = ours.playouts_per_s / theirs.playouts_per_s
        out.append({
            "game": ours.name,
            "openspiel": twin,
            "players": ours.players,
            "playouts_ratio": ratio,
            "decisions_ratio": ours.decisions_per_s / theirs.decisions_per_s,
            "best_playouts_ratio": ours.best_playouts_per_s / theirs.best_playouts_per_s,
            "clones_ratio": ours.clones_per_s / theirs.clones_per_s if theirs.clones_per_s else None,
            "required": REQUIRED_RATIO,
            "goal": GOAL_RATIO,
            "required_pass": ratio >= REQUIRED_RATIO,
            "goal_pass": ratio >= GOAL_RATIO,
        })
    return out


def print_comparisons(comps: list[dict[str, Any]]) -> None:
    for c in comps:
        req = "PASS" if c["required_pass"] else "FAIL"
        goal = "PASS" if c["goal_pass"] else "FAIL"
        clones = f"{c['clones_ratio']:.2f}" if c["clones_ratio"] is not None else "-"
        print(f"{c['game']:<12} vs {c['openspiel']:<18} playouts x{c['playouts_ratio']:.2f} "
              f"(best slices x{c['best_playouts_ratio']:.2f})  decisions x{c['decisions_ratio']:.2f}  "
              f"clones x{clones}  required >= {REQUIRED_RATIO}: {req}  goal >= {GOAL_RATIO}: {goal}")


def machine_info() -> dict[str, Any]:
    info: dict[str, Any] = {
        "python": sys.version,
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor(),
        "cpu_count": os.cpu_count(),
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


# ---- profiling ----------------------------------------------------------------------------


def openspiel_name(name: str) -> str | None:
    """The OpenSpiel game meant by `python_x` or `openspiel:<orrery id or OpenSpiel name>`, else None."""
    if name.startswith("openspiel:"):
        rest = name[len("openspiel:"):]
        return OPENSPIEL_TWINS.get(rest, rest)
    return name if name.startswith("python_") else None


def run_profile(name: str, seconds: float, profiler: str) -> int:
    """Profile `name`'s random playouts: an orrery id (or path), or an OpenSpiel game name."""
    short = openspiel_name(name)
    if short is not None:
        why = openspiel_available()
        if why:
            print(f"open_spiel is not installed ({why}); cannot profile {name}")
            return 2
        import pyspiel

        loop: Callable[[float], Counts] = OpenSpielLoop(pyspiel.load_game(short))
    else:
        entry = next((e for e in bundled_entries() if e["id"] == name), None)
        try:
            loop = OrreryLoop(load_game(str(entry["path"]) if entry else name), None)
        except Exception as err:
            print(f"cannot load {name}: {type(err).__name__}: {err}")
            return 2

    def work() -> tuple[int, int]:
        counts = loop(seconds)
        return counts.playouts, counts.decisions

    if profiler == "pyinstrument":
        try:
            from pyinstrument import Profiler
        except ImportError:
            print("pyinstrument is not installed; using cProfile")
            profiler = "cprofile"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0, help="time budget of each playout run (default 3)")
    parser.add_argument("--clone-seconds", type=float, default=None,
                        help="time budget of each clone run (default: a third of --seconds, at least 0.5)")
    parser.add_argument("--json", metavar="FILE", help="write every figure and the machine info to FILE")
    parser.add_argument("--only", metavar="NAME", action="append",
                        help="only this game id (repeatable); its OpenSpiel twin is kept")
    parser.add_argument("--all-counts", action="store_true", help="every allowed player count, not just the default")
    parser.add_argument("--no-openspiel", action="store_true", help="skip the OpenSpiel rows")
    parser.add_argument("--profile", metavar="NAME",
                        help="profile NAME's playouts instead: an orrery id or path, or an OpenSpiel game "
                        "(python_tic_tac_toe, openspiel:kuhn-poker)")
    parser.add_argument("--profiler", choices=("cprofile", "pyinstrument"), default="cprofile",
                        help="profiler for --profile (default cprofile: top 25 by cumulative and own time)")
    parser.add_argument("--rounds", type=int, default=20,
                        help="slices each budget is cut into; a game and its OpenSpiel twin alternate "
                        "slice by slice (default 20)")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a required orrery/OpenSpiel bar is missed")
    args = parser.parse_args(argv)
    args.rounds = max(1, args.rounds)
    clone_seconds = args.clone_seconds if args.clone_seconds is not None else max(0.5, args.seconds / 3)

    if args.profile:
        return run_profile(args.profile, args.seconds, args.profiler)

    only = set(args.only or ())
    entries = [e for e in bundled_entries() if e["kind"] in ("game", "example")]
    if only:
        entries = [e for e in entries if e["id"] in only]
    wanted = [OPENSPIEL_TWINS[e["id"]] for e in entries if e["id"] in OPENSPIEL_TWINS]
    wanted += [n for n in (openspiel_name(o) for o in sorted(only)) if n is not None and n not in wanted]
    if not entries and not wanted:
        known = ", ".join(e["id"] for e in bundled_entries() if e["kind"] in ("game", "example"))
        print(f"no bundled game or example matches {', '.join(sorted(only))}; known: {known}")
        return 2

    openspiel_note = None
    if args.no_openspiel:
        openspiel_note = "skipped (--no-openspiel)"
    elif wanted:
        why = openspiel_available()
        if why:
            openspiel_note = f"open_spiel is not installed ({why}); install it with `pip install .[bench]`"

    info = machine_info()
    print(f"orrery bench: Python {platform.python_version()} on {info['platform']} ({info.get('cpu', '?')})")
    print(f"budget {args.seconds:g} s of playouts and {clone_seconds:g} s of clones per row; seed {BASE_SEED}; "
          f"{args.rounds} slices each, OpenSpiel twins interleaved\n")

    bench = Bench(args.seconds, clone_seconds, args.rounds, use_openspiel=openspiel_note is None)
    for entry in entries:
        print(f"  measuring {entry['id']} ...", file=sys.stderr, flush=True)
        bench.orrery_entry(entry, args.all_counts)
    if openspiel_note is None:
        for short in wanted:
            if short not in bench.openspiel_games:
                print(f"  measuring OpenSpiel {short} ...", file=sys.stderr, flush=True)
                bench.openspiel_alone(short)
    rows = bench.rows

    print_table(rows)
    comps = comparisons(rows)
    print()
    if openspiel_note:
        print(f"OpenSpiel comparison: {openspiel_note}")
    elif comps:
        print("orrery / OpenSpiel (playouts/s decides PASS/FAIL):")
        print_comparisons(comps)
    failed = [c for c in comps if not c["required_pass"]]

    if args.json:
        payload = {
            "machine": info,
            "settings": {"seconds": args.seconds, "clone_seconds": clone_seconds, "rounds": args.rounds,
                         "seed": BASE_SEED, "all_counts": args.all_counts, "max_decisions": MAX_DECISIONS},
            "targets": {"required_ratio": REQUIRED_RATIO, "goal_ratio": GOAL_RATIO},
            "openspiel": openspiel_note or "measured",
            "rows": [asdict(r) for r in rows],
            "comparisons": comps,
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    # The bench reports; only --strict turns a missed required bar into exit status 1.
    return 1 if failed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
