"""How strong are the search seats? A benchmark script, not a test (nothing here is
timed under pytest).

Each match plays seeded games (seat order rotated game by game, so no seat keeps the
first move), on `--workers` processes, and reports the figure its bar is about with a
95% confidence interval, and the CPU seconds per decision of the search seat (CPU time of
the process deciding, so a busy machine does not inflate it):

  ttt       mcts vs random in tic-tac-toe: losses <= 10%
  kuhn      ismcts vs random in Kuhn poker: mean return > +0.1 per hand
  mars      ismcts vs two random seats in 3-player Race to Mars: wins >= 75%
  mars-pilot  ismcts vs the game's own `pilot` bot, 2-player Race to Mars: wins > 50%
  fam       For All Mankind: ismcts with three dice bots wins more often than random does
  jupiter   Rocketmen + Target: Jupiter: ismcts against rocket-bot wins at least as
            often as rocket-bot does against rocket-bot (50%)

    python bench/strength.py                      # every match, default budgets
    python bench/strength.py --only kuhn --games 400 --json out.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter import load_game
from interpreter.agents import create_agent, is_bot
from interpreter.play.runner import run
from interpreter.play.stats import mean_interval, wilson


@attrs.frozen
class Match:
    key: str
    game: str
    overlays: tuple[str, ...]
    seats: tuple[str, ...]  # seat 0 is the one measured
    games: int
    rotate: bool = True


def matches(search: str, jupiter: str, rollout: str | None = None) -> list[Match]:
    """The matches; `search` is the budget and options of the heavy games' search seat
    (by default paired worlds and the final score lead blended into the value: they are
    what made it win For All Mankind games at all), whose rollouts are played by the
    game's own bot (several times shorter and more telling than random play to the end).
    `jupiter` is the search seat's in Rocketmen + Target: Jupiter, where a horizon of two
    turns valued by the VP lead is what beats the bot its rollouts play (full rollouts
    lost: one rollout's luck outweighs one action's worth)."""
    return [
        Match("ttt", "tic-tac-toe", (), ("mcts:iterations=400", "random"), 200),
        Match("kuhn", "kuhn-poker", (), ("ismcts:iterations=400", "random"), 1000),
        Match("fam-random", "for-all-mankind", (), ("random", "bot", "bot", "bot"), 100),
        Match("jupiter-bot", "rocketmen", ("target-jupiter",), ("rocket-bot", "rocket-bot"), 100),
        Match("mars", "race-to-mars", (), (f"ismcts:{search},rollout={rollout or 'pilot'}", "random", "random"), 8),
        Match("mars-pilot", "race-to-mars", (), (f"ismcts:{search},rollout={rollout or 'pilot'}", "pilot"), 8),
        Match("jupiter", "rocketmen", ("target-jupiter",), (f"ismcts:{jupiter},rollout=rocket-bot", "rocket-bot"), 8),
        Match("fam", "for-all-mankind", (), (f"ismcts:{search},rollout={rollout or 'bot'}", "bot", "bot", "bot"), 8),
    ]


def play(match: Match, seed: int) -> dict[str, Any]:
    """One game: the measured seat's return and win, its decisions and their time."""
    game = load_game(match.game, overlays=list(match.overlays))
    n = len(match.seats)
    shift = seed % n if match.rotate else 0
    seats = [match.seats[(i - shift) % n] for i in range(n)]  # the measured seat sits at `shift`
    state = game.new_initial_state(n, seed, seats)
    gd = game.definition
    agents = {i: create_agent(s, gd, seed, i) for i, s in enumerate(seats) if not is_bot(s, gd)}
    timed = agents.get(shift)
    clock = {"seconds": 0.0, "decisions": 0}
    if timed is not None:
        inner = timed.step

        def step(st: Any) -> Any:
            start = time.process_time()
            try:
                return inner(st)
            finally:
                clock["seconds"] += time.process_time() - start
                clock["decisions"] += 1

        timed.step = step  # type: ignore[method-assign]
    run(state, agents)
    return {"return": state.returns()[shift], "win": shift in state.winners and len(state.winners) < n,
            "draw": len(state.winners) in (0, n), "loss": bool(state.winners) and shift not in state.winners,
            **clock}


def _job(args: tuple[Match, int]) -> dict[str, Any]:
    return play(*args)


def measure(match: Match, games: int, seed: int, workers: int) -> dict[str, Any]:
    jobs = [(match, seed + i) for i in range(games)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            rows = pool.map(_job, jobs, chunksize=1)
    else:
        rows = [_job(job) for job in jobs]
    wins = wilson(sum(r["win"] for r in rows), games)
    losses = wilson(sum(r["loss"] for r in rows), games)
    ret = mean_interval([r["return"] for r in rows])
    decisions = sum(r["decisions"] for r in rows)
    return {"match": match.key, "game": match.game, "overlays": list(match.overlays), "seats": list(match.seats),
            "games": games, "win": attrs.asdict(wins), "loss": attrs.asdict(losses), "return": attrs.asdict(ret),
            "seconds_per_decision": round(sum(r["seconds"] for r in rows) / max(decisions, 1), 4),
            "decisions": decisions, "wall_seconds": round(time.perf_counter() - started, 1)}


def verdicts(results: dict[str, dict[str, Any]]) -> list[str]:
    """Each bar whose matches were run, PASS or FAIL on the point estimate, with the interval."""
    out = []

    def say(name: str, ok: bool, text: str) -> None:
        out.append(f"{'PASS' if ok else 'FAIL'} {name}: {text}")

    def fmt(iv: dict[str, float]) -> str:
        return f"{iv['value']:.3f} [{iv['low']:.3f}, {iv['high']:.3f}]"

    if "ttt" in results:
        say("mcts vs random, tic-tac-toe losses <= 10%", results["ttt"]["loss"]["value"] <= 0.10,
            fmt(results["ttt"]["loss"]))
    if "kuhn" in results:
        say("ismcts vs random, Kuhn poker return > +0.1", results["kuhn"]["return"]["value"] > 0.1,
            fmt(results["kuhn"]["return"]))
    if "mars" in results:
        say("ismcts vs 2 random, Race to Mars wins >= 75%", results["mars"]["win"]["value"] >= 0.75,
            fmt(results["mars"]["win"]))
    if "mars-pilot" in results:
        say("ismcts vs pilot, 2-player Race to Mars wins > 50%", results["mars-pilot"]["win"]["value"] > 0.5,
            fmt(results["mars-pilot"]["win"]))
    if "fam" in results and "fam-random" in results:
        say("For All Mankind vs dice bots: ismcts wins more than random",
            results["fam"]["win"]["value"] > results["fam-random"]["win"]["value"],
            f"ismcts {fmt(results['fam']['win'])}, random {fmt(results['fam-random']['win'])}")
    if "jupiter" in results and "jupiter-bot" in results:
        say("Rocketmen + Target: Jupiter: ismcts at least matches rocket-bot",
            results["jupiter"]["win"]["value"] >= results["jupiter-bot"]["win"]["value"],
            f"ismcts {fmt(results['jupiter']['win'])}, rocket-bot {fmt(results['jupiter-bot']['win'])}")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", action="append", help="a match key (repeatable)")
    parser.add_argument("--games", type=int, help="games per match (default: each match's own)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--search", default="iterations=20,paired=1,margin=0.5",
                        help="options of the search seat in Race to Mars and For All Mankind (default: %(default)s)")
    parser.add_argument("--jupiter", default="iterations=40,paired=1,margin=0.5,horizon=2",
                        help="options of the search seat in Rocketmen + Target: Jupiter (default: %(default)s)")
    parser.add_argument("--rollout", help="the rollout policy of the search seat in Race to Mars and For All Mankind "
                        "(default: the game's own bot, pilot or bot)")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, Any]] = {}
    for match in matches(args.search, args.jupiter, args.rollout):
        if args.only and match.key not in args.only:
            continue
        result = measure(match, args.games or match.games, args.seed, args.workers)
        results[match.key] = result
        w, r = result["win"], result["return"]
        print(f"{match.key:12} {result['games']:5} games  win {w['value']:.3f} [{w['low']:.3f}, {w['high']:.3f}]  "
              f"return {r['value']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]  "
              f"{result['seconds_per_decision']:.4f} s/decision  ({result['wall_seconds']} s)", flush=True)
    for line in verdicts(results):
        print(line)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
