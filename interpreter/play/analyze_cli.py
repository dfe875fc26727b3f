"""The `orrery analyze` command's arguments and its run, kept beside `analyze` so the
command line module only wires them in. The options shared with `simulate` (games,
seats, seed, workers, backend, action cap, rules) are added by one function for both;
the command line passes its own argument types and option groups in."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from interpreter.agents import create_agent, is_bot
from interpreter.diagnostics import GameError
from interpreter.game import Game, load_game
from interpreter.game.playouts import MODES, native_mode
from interpreter.model import GameDef
from interpreter.play.analyze import ANALYZE_EXAMPLE, ANALYZE_HELP, analyze
from interpreter.play.logs import target_for_log
from interpreter.play.matchups import parse_kinds, parse_ladder
from interpreter.play.report import render_text
from interpreter.play.report_html import render_html
from interpreter.play.runner import MAX_ACTIONS
from interpreter.play.seating import UsageError, choose_seats
from interpreter.play.simulate import Backend, SimulationSpec, progress_stream

AddOptions = Callable[..., None]
EXIT_OK, EXIT_ERROR = 0, 1



@contextmanager
def native_env(mode: str) -> Iterator[None]:
    """ORRERY_NATIVE set to `mode` while a command plays: the search seats follow it, in
    this process and in the workers it starts, as the playouts follow --native."""
    before = os.environ.get("ORRERY_NATIVE")
    os.environ["ORRERY_NATIVE"] = mode
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("ORRERY_NATIVE", None)
        else:
            os.environ["ORRERY_NATIVE"] = before

def add_run_options(parser: argparse.ArgumentParser, games: int, table: AddOptions, rules: AddOptions,
                    positive: Callable[[str], int], integer: Callable[[str], int]) -> None:
    """The options of commands that play many seeded games: simulate and analyze."""
    parser.add_argument("game", metavar="GAME", help="a game id, folder or game.yaml")
    parser.add_argument("--games", type=positive, default=games, metavar="N", help=f"number of games (default {games})")
    table(parser, "all random")
    parser.add_argument("--seed", type=integer, default=1, metavar="N", help="seed of the first game (default 1)")
    parser.add_argument("--workers", type=positive, default=None, metavar="N",
                        help="games played at once: worker processes (default 1), or with --backend ray Ray tasks "
                             "(default: the cluster's CPUs)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where the games are played: this machine's processes (default), or Ray tasks "
                             "(pip install 'orrery[ray]'); the results are the same")
    parser.add_argument("--address", metavar="ADDR",
                        help="with --backend ray: an existing cluster (HOST:PORT, ray://HOST:PORT or auto); "
                             "without it a local Ray instance is started")
    parser.add_argument("--max-actions", type=positive, default=MAX_ACTIONS, metavar="N",
                        help=f"a game with more actions is an error (default {MAX_ACTIONS})")
    parser.add_argument("--native", choices=MODES, default=None,
                        help="play whole games of random and first seats and game bots, and the worlds and "
                             "rollouts of search seats, in compiled code (auto: when Cython and a C compiler are "
                             "here and the rules are covered, else Python; default: ORRERY_NATIVE or auto). The "
                             "results are the same either way (docs/native.md)")
    rules(parser)


def add_analyze(commands: Any, formatter: type[argparse.HelpFormatter], table: AddOptions, rules: AddOptions,
                positive: Callable[[str], int], integer: Callable[[str], int]) -> None:
    """The `analyze` subcommand and its options."""
    p = commands.add_parser("analyze", help="a balance report: win rates with intervals, cards, overlays compared",
                            formatter_class=formatter, description=ANALYZE_HELP, epilog=ANALYZE_EXAMPLE)
    add_run_options(p, 200, table, rules, positive, integer)
    p.add_argument("--compare-with", metavar="OVERLAY", help="also play the same seeds with this overlay added")
    p.add_argument("--duplicate", action="store_true",
                   help="also play every seed once per rotation of the seats (duplicate deals): each agent and "
                        "each seat compared on the same deals, the luck of the deal cancelled out")
    p.add_argument("--tournament", metavar="A,B,..",
                   help="also play a round robin of these seat kinds, seats rotated, --games games per pairing "
                        "(e.g. ismcts,random, or a game bot)")
    p.add_argument("--ladder", metavar="KIND:OPTION=V1,V2,..",
                   help="also play each budget against the one before it (e.g. ismcts:iterations=25,50,100): "
                        "does more search win more?")
    p.add_argument("--json", action="store_true", help="print one JSON object with the report")
    p.add_argument("--report", metavar="FILE.html", help="also write the report as one self-contained HTML page")


@contextmanager
def game_backend(args: argparse.Namespace) -> Iterator[tuple[Backend | None, int]]:
    """The backend --backend asks for (None: this machine's processes) and the number of
    games it plays at once, for the time of the run."""
    if args.backend == "local":
        if args.address is not None:
            raise UsageError("--address names a Ray cluster: use it with --backend ray")
        yield None, args.workers or 1
        return
    from interpreter.play.ray_backend import ray_backend  # Ray only when asked for: an optional extra

    with ray_backend(args.address, args.workers) as backend:
        yield backend, backend.workers


def run_analyze(args: argparse.Namespace, game: Game) -> int:
    """Run `orrery analyze` on `game`, the rules the command line loaded from GAME
    --variant --with (--strict); errors are raised for the command line to report."""
    gd: GameDef = game.definition
    n, seats = choose_seats(gd, args.players, args.seats, "random", "random", allow_human=False)
    for i, seat in enumerate(seats):  # a seat's bad options are one message, not an error per game
        if not is_bot(seat, gd):
            create_agent(seat, gd, args.seed, i)
    tournament_kinds = parse_kinds(args.tournament) if args.tournament else None
    if tournament_kinds is not None and len(tournament_kinds) < 2:
        raise UsageError("--tournament needs two kinds or more, e.g. --tournament ismcts,random")
    extra = [("--tournament", k) for k in tournament_kinds or ()]
    extra += [("--ladder", k) for k in (parse_ladder(args.ladder) if args.ladder else ())]
    for option, kind in extra:  # a bad kind is one usage error before any game is played
        if not is_bot(kind, gd):
            try:
                create_agent(kind, gd, args.seed, 0)
            except GameError as err:
                raise UsageError(f"{option}: {err}") from None
    compare_with = target_for_log(args.compare_with) if args.compare_with else None
    if compare_with:  # a bad overlay is reported before any game is played
        load_game(args.game, variants=args.variant, overlays=[*args.overlays, args.compare_with],
                  strict=args.strict)
    mode = native_mode(args.native)
    spec = SimulationSpec(target_for_log(args.game), tuple(args.variant),
                          tuple(target_for_log(o) for o in args.overlays), n, tuple(seats), args.max_actions,
                          native=mode)
    with native_env(mode), game_backend(args) as (backend, workers):
        report = analyze(spec, args.games, args.seed, workers, game, compare_with, progress_stream(args.json),
                         backend=backend, duplicate_deals=args.duplicate, tournament_kinds=tournament_kinds,
                         ladder=args.ladder)
    if args.report:
        Path(args.report).write_text(render_html(report, gd.name), encoding="utf-8")
    print(json.dumps(report, indent=2) if args.json else render_text(report, gd.name, args.report))
    return EXIT_ERROR if report["errors"] else EXIT_OK
