"""What bench.py prints and writes: the rows, the ratios between engines, and the bars.

Every bar is checked here, from the figures of one run, and printed PASS or FAIL:
  orrery / OpenSpiel Python, playouts/s (tic-tac-toe, Kuhn poker): >= 0.5 required,
      >= 2.0 the speed target;
  orrery / 0.1 engine, decisions/s: >= 3.0 on Race to Mars, For All Mankind and
      Rocketmen with Target: Jupiter;
  cold load (a fresh process loading the game once): < 500 ms for every game;
  `simulate --workers 2` over one worker: >= 1.8x.
See bench/README.md for every column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

REQUIRED_RATIO = 0.5  # orrery playouts/s over OpenSpiel Python's: the bar that must be met (--strict)
OPENSPIEL_TARGET = 2.0  # ... and the speed work's target
BASELINE_TARGET = 3.0  # decisions/s over the 0.1 engine's, on the games below
# The name suffix of today's engine playing the old engine's own rule files (bench.py).
SAME_RULES = " [old rules]"
BASELINE_BAR_GAMES = ("race-to-mars", "for-all-mankind", "rocketmen+target-jupiter")
COLD_LOAD_TARGET_MS = 500.0
SIMULATE_TARGET = 1.8  # games/s with 2 workers over 1 worker

# orrery game id -> OpenSpiel's Python and C++ games of the same rules.
OPENSPIEL_TWINS: dict[str, tuple[str, str]] = {
    "tic-tac-toe": ("python_tic_tac_toe", "tic_tac_toe"),
    "kuhn-poker": ("python_kuhn_poker", "kuhn_poker"),
}


@dataclass
class Row:
    """The figures of one engine on one game."""

    engine: str  # "orrery", the baseline's label ("0.1"), "openspiel-py" or "openspiel-c++"
    name: str  # orrery target name (id, id+overlay, id:variant) or OpenSpiel game name
    players: int
    rules: str | None = None  # baseline rows: which rule files it played (see bench_engines)
    cold_ms: float | None = None  # load_game in a fresh process (best of --cold-runs)
    cold_import_ms: float | None = None  # importing the engine in that process
    load_ms: float | None = None  # best of 3 loads in one process
    first_load_ms: float | None = None  # the first of those 3
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
    state_bytes: int | None = None  # gc walk of what the mid-game state alone holds
    clone_bytes: float | None = None  # tracemalloc: what one clone of it allocates
    error: str | None = None

    @property
    def measured(self) -> bool:
        return self.error is None and self.playouts > 0


def _fmt(value: float | None, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def _kib(value: float | None) -> str:
    return "-" if value is None else f"{value / 1024:,.1f}"


def print_table(rows: list[Row]) -> None:
    head = ("engine", "game", "pl", "cold ms", "load ms", "playouts/s", "best pl/s", "decisions/s", "act/game",
            "clones/s", "state KiB", "clone KiB", "note")
    lines = [head]
    for r in rows:
        notes = [r.error] if r.error else []
        if r.rules and r.rules != "same":
            notes.append(f"rules: {r.rules}")
        if r.truncated:
            notes.append(f"{r.truncated} cut at 100,000 decisions")
        if r.chance_steps:
            notes.append(f"+{r.chance_steps / max(r.playouts, 1):.0f} chance/game")
        lines.append((
            r.engine, r.name, str(r.players) if r.players else "-", _fmt(r.cold_ms, 0), _fmt(r.load_ms, 1),
            _fmt(r.playouts_per_s), _fmt(r.best_playouts_per_s), _fmt(r.decisions_per_s), _fmt(r.actions_per_game, 2),
            _fmt(r.clones_per_s), _kib(r.state_bytes), _kib(r.clone_bytes), _cut("; ".join(notes)),
        ))
    _print_lines(lines, right=set(range(2, 12)))


def _cut(text: str, width: int = 100) -> str:
    """A note short enough for the table (the JSON has it whole)."""
    return text if len(text) <= width else text[:width - 3] + "..."


def _print_lines(lines: list[tuple[str, ...]], right: set[int]) -> None:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for k, line in enumerate(lines):
        cells = [c.rjust(widths[i]) if i in right else c.ljust(widths[i]) for i, c in enumerate(line)]
        print("  ".join(cells).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))


def _ratio(a: float, b: float) -> float | None:
    return a / b if b else None


def openspiel_comparisons(rows: list[Row]) -> list[dict[str, Any]]:
    """orrery / OpenSpiel (Python and C++) for each game measured beside its twins."""
    out = []
    for ours in rows:
        if ours.engine != "orrery" or ours.name not in OPENSPIEL_TWINS or not ours.measured:
            continue
        for impl, short in zip(("python", "c++"), OPENSPIEL_TWINS[ours.name], strict=True):
            theirs = next((r for r in rows if r.engine.startswith("openspiel") and r.name == short and r.measured),
                          None)
            if theirs is None or theirs.players != ours.players:
                continue
            out.append({
                "game": ours.name, "openspiel": short, "implementation": impl, "players": ours.players,
                "playouts_ratio": _ratio(ours.playouts_per_s, theirs.playouts_per_s),
                "decisions_ratio": _ratio(ours.decisions_per_s, theirs.decisions_per_s),
                "best_playouts_ratio": _ratio(ours.best_playouts_per_s, theirs.best_playouts_per_s),
                "clones_ratio": _ratio(ours.clones_per_s, theirs.clones_per_s),
            })
    return out


def baseline_comparisons(rows: list[Row], label: str) -> list[dict[str, Any]]:
    """orrery / the baseline engine, game by game (both measured interleaved)."""
    out = []
    for ours in rows:
        if ours.engine != "orrery" or not ours.measured:
            continue
        old_name = ours.name.removesuffix(SAME_RULES)  # today's engine on the old one's rules: the same row
        old = next((r for r in rows if r.engine == label and r.name == old_name), None)
        if old is None:
            continue
        entry: dict[str, Any] = {"game": ours.name, "rules": old.rules, "error": old.error,
                                 "same_rules": ours.name != old_name or old.rules == "same"}
        if old.measured:
            entry.update({
                "decisions_ratio": _ratio(ours.decisions_per_s, old.decisions_per_s),
                "playouts_ratio": _ratio(ours.playouts_per_s, old.playouts_per_s),
                "best_decisions_ratio": _ratio(ours.best_decisions_per_s, old.best_decisions_per_s),
                "clones_ratio": _ratio(ours.clones_per_s, old.clones_per_s) if ours.clones_per_s else None,
                "clone_bytes_ratio": (_ratio(ours.clone_bytes, old.clone_bytes)
                                      if ours.clone_bytes and old.clone_bytes else None),
                "cold_load_ratio": _ratio(ours.cold_ms or 0.0, old.cold_ms or 0.0) if ours.cold_ms else None,
                "actions_per_game": [ours.actions_per_game, old.actions_per_game],
            })
        out.append(entry)
    return out


def _x(value: float | None) -> str:
    return "-" if value is None else f"x{value:.2f}"


def print_openspiel(comps: list[dict[str, Any]]) -> None:
    lines = [("game", "vs", "playouts", "best slices", "decisions", "clones")]
    for c in comps:
        lines.append((c["game"], c["openspiel"], _x(c["playouts_ratio"]), _x(c["best_playouts_ratio"]),
                      _x(c["decisions_ratio"]), _x(c["clones_ratio"])))
    _print_lines(lines, right={2, 3, 4, 5})


def print_baseline(comps: list[dict[str, Any]], label: str) -> None:
    lines = [("game", "decisions/s", "best slices", "playouts/s", "clones/s", "clone bytes", "cold load",
              "act/game now | " + label, "rules")]
    for c in comps:
        if c.get("decisions_ratio") is None:
            lines.append((c["game"], "-", "-", "-", "-", "-", "-", "-", _cut(c["error"] or "-")))
            continue
        now, old = c["actions_per_game"]
        lines.append((c["game"], _x(c["decisions_ratio"]), _x(c["best_decisions_ratio"]), _x(c["playouts_ratio"]),
                      _x(c["clones_ratio"]), _x(c["clone_bytes_ratio"]), _x(c["cold_load_ratio"]),
                      f"{now:,.1f} | {old:,.1f}", c["rules"] or "-"))
    _print_lines(lines, right={1, 2, 3, 4, 5, 6, 7})


def print_growth(growth: list[dict[str, Any]]) -> None:
    lines = [("engine", "game", "at move", "clone us", "to_json us", "save KiB", "state KiB")]
    for g in growth:
        if g.get("error"):
            lines.append((g["engine"], g["game"], "-", "-", "-", "-", g["error"]))
            continue
        for p in g["points"]:
            lines.append((g["engine"], g["game"], str(p["at"]), f"{p['clone_us']:.2f}", f"{p['to_json_us']:.1f}",
                          _kib(p["save_bytes"]), _kib(p["state_bytes"])))
        first, last = g["points"][0], g["points"][-1]
        lines.append(("", "", "growth", _x(last["clone_us"] / first["clone_us"]),
                      _x(last["to_json_us"] / first["to_json_us"]), _x(last["save_bytes"] / first["save_bytes"]),
                      _x(last["state_bytes"] / max(first["state_bytes"], 1))))
    _print_lines(lines, right={2, 3, 4, 5, 6})


def print_simulate(results: list[dict[str, Any]]) -> None:
    lines = [("game", "games", "runs", "1 worker g/s", "2 workers g/s", "speedup", "wall speedup", "cpu ratio",
              "cores used", "same results")]
    for s in results:
        if s.get("error"):
            lines.append((s["game"], "-", "-", "-", "-", "-", "-", "-", "-", s["error"]))
            continue
        lines.append((s["game"], f"{s['games']:,}", str(s["rounds"]), _fmt(s["one_worker_games_per_s"], 1),
                      _fmt(s["workers_games_per_s"], 1), _x(s["speedup"]), _x(s["wall_speedup"]),
                      f"{s['cpu_ratio']:.2f}", f"{s['one_worker_cores']:.2f} | {s['workers_cores']:.2f}",
                      "yes" if s["same_results"] else "NO"))
    _print_lines(lines, right={1, 2, 3, 4, 5, 6, 7, 8})


def bars(rows: list[Row], openspiel: list[dict[str, Any]], baseline: list[dict[str, Any]],
         simulate: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every bar this run can check, each with its figure and PASS (True) or FAIL."""
    out: list[dict[str, Any]] = []

    def bar(name: str, subject: str, value: float | None, threshold: float, above: bool = True,
            required: bool = False) -> None:
        ok = value is not None and (value >= threshold if above else value < threshold)
        out.append({"bar": name, "subject": subject, "value": value, "threshold": threshold,
                    "above": above, "pass": ok, "required": required})

    for c in openspiel:
        if c["implementation"] == "python":
            bar("orrery/OpenSpiel-Python playouts/s (required)", c["game"], c["playouts_ratio"], REQUIRED_RATIO,
                required=True)
            bar("orrery/OpenSpiel-Python playouts/s (target)", c["game"], c["playouts_ratio"], OPENSPIEL_TARGET)
    for c in baseline:
        if c["game"] in BASELINE_BAR_GAMES:
            bar("orrery/0.1 decisions/s (target)", c["game"], c.get("decisions_ratio"), BASELINE_TARGET)
        elif c["game"].removesuffix(SAME_RULES) in BASELINE_BAR_GAMES:  # the engines alone
            bar("orrery/0.1 decisions/s, same rules (target)", c["game"], c.get("decisions_ratio"), BASELINE_TARGET)
    for r in rows:
        if r.engine == "orrery" and r.cold_ms is not None:
            bar("cold load ms (target)", r.name, r.cold_ms, COLD_LOAD_TARGET_MS, above=False)
    for s in simulate:
        if not s.get("error"):
            bar("simulate 2 workers / 1 worker (target)", s["game"], s["speedup"] if s["same_results"] else None,
                SIMULATE_TARGET)
    return out


def print_bars(found: list[dict[str, Any]]) -> None:
    for b in found:
        verdict = "PASS" if b["pass"] else "FAIL"
        value = "-" if b["value"] is None else f"{b['value']:,.2f}"
        sign = ">=" if b["above"] else "<"
        print(f"{verdict}  {b['bar']:<46} {b['subject']:<38} {value:>9} {sign} {b['threshold']:g}")
