"""A bench worker: the engine found at --root, measured in a process of its own.

    python bench/bench_worker.py --root DIR [--clock cpu|wall] serve   # JSON lines on stdin/stdout
    python bench/bench_worker.py --root DIR cold TARGET [--variant V] [--overlay O]

`serve` answers one JSON line per request line, so bench.py can alternate slices of the
0.1 engine (extracted into DIR) with slices of today's engine in its own process:
  {"op": "load", "key": K, "target": PATH, "variants": [...], "overlays": [...], "players": N|null,
   "repeats": R}                                          -> first and best load ms of R loads
  {"op": "run", "key": K, "seconds": S}                  -> playout counts of one slice
  {"op": "costs", "key": K, "mean_length": L, "clone_seconds": S}  -> clone rate and bytes
  {"op": "growth", "key": K, "budget": S}                -> clone/save cost at moves 10 and 500
  {"op": "quit"}
Every answer is {"ok": true, ...} or {"ok": false, "error": "..."}.

`cold` is one cold load: this fresh process imports the engine and loads the game once,
and prints {"import_ms": ..., "load_ms": ...} (by --clock: CPU time, or elapsed time).

Only DIR's `interpreter` is imported (never the one of the tree this file is in), and
only the OpenSpiel-like API is used, so it serves the 0.1 engine and today's alike.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def _import_engine(root: str) -> Any:
    sys.path.insert(0, root)
    import interpreter

    where = Path(interpreter.__file__).resolve()
    if Path(root).resolve() not in where.parents:
        raise SystemExit(f"bench worker: imported {where}, not the engine under {root}")
    return interpreter


def cold(args: argparse.Namespace) -> int:
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    start = clock()
    engine = _import_engine(args.root)
    imported = clock()
    engine.load_game(args.target, variants=args.variant, overlays=args.overlay)
    loaded = clock()
    print(json.dumps({"import_ms": (imported - start) * 1000, "load_ms": (loaded - imported) * 1000}))
    return 0


class Server:
    """The loaded games of one serve session, by key."""

    def __init__(self, engine: Any):
        import bench_loops

        self.engine, self.loops = engine, bench_loops
        self.games: dict[str, tuple[Any, int]] = {}
        self.runs: dict[str, Any] = {}

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "load":
            times = []
            for _ in range(max(1, request.get("repeats", 1))):
                start = time.perf_counter()
                game = self.engine.load_game(request["target"], variants=request.get("variants", []),
                                             overlays=request.get("overlays", []))
                times.append((time.perf_counter() - start) * 1000)
            gd = game.definition
            players = request.get("players") or gd.default_players
            if not gd.min_players <= players <= gd.max_players:
                return {"ok": False, "error": f"{players} players is outside {gd.min_players}-{gd.max_players}"}
            self.games[request["key"]] = game, players
            self.runs[request["key"]] = self.loops.OrreryLoop(game, players)
            version = getattr(self.engine, "__version__", "?")
            return {"ok": True, "first_ms": times[0], "load_ms": min(times), "players": players,
                    "min_players": gd.min_players, "max_players": gd.max_players, "version": version}
        if op == "run":
            gc.collect()  # as bench.py does before each slice it times itself
            return {"ok": True, "counts": self.runs[request["key"]](request["seconds"]).to_json()}
        if op == "costs":
            game, players = self.games[request["key"]]
            costs = self.loops.state_costs(game, players, request["mean_length"], request["clone_seconds"])
            return {"ok": True, "costs": costs}
        if op == "growth":
            game, players = self.games[request["key"]]
            budget = request.get("budget", 0.1)
            return {"ok": True, "growth": self.loops.growth_costs(game, players, budget=budget)}
        return {"ok": False, "error": f"unknown request {op!r}"}


def serve(args: argparse.Namespace) -> int:
    engine = _import_engine(args.root)
    server = Server(engine)
    server.loops.set_clock(args.clock)
    out = sys.stdout
    sys.stdout = sys.stderr  # whatever the engine prints must not break the protocol
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("op") == "quit":
            break
        try:
            answer = server.handle(request)
        except Exception as err:  # reported to bench.py, which shows it in the row
            detail = traceback.format_exc(limit=3) if not isinstance(err, getattr(engine, "OrreryError", ())) else ""
            answer = {"ok": False, "error": f"{type(err).__name__}: {err}".strip(), "detail": detail}
        out.write(json.dumps(answer, separators=(",", ":")) + "\n")
        out.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="bench worker (used by bench.py)")
    parser.add_argument("--root", required=True, help="the source tree whose `interpreter` is measured")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="what slices are timed by")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve")
    p = commands.add_parser("cold")
    p.add_argument("target")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--overlay", action="append", default=[])
    args = parser.parse_args(argv)
    return cold(args) if args.command == "cold" else serve(args)


if __name__ == "__main__":
    sys.exit(main())
