"""The `orrery` command line: list, validate, describe, play, serve, simulate, analyze,
replay and schema.

Exit codes: 0 ok, 1 a rule or game error, 2 a usage error (bad arguments), 130 when
interrupted. Every mistake is reported as a message for people, never as a Python
traceback: rule files as `PATH:LINE:COL: error[CODE]: MESSAGE` diagnostics, game and
file problems as one line. Anything unexpected is an "internal error" with a hint to
report it (set ORRERY_DEBUG=1 to see the traceback).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from interpreter.agents import registered
from interpreter.diagnostics import Diagnostic, GameError, OrreryError, RuleFileError
from interpreter.game import Game, load_game
from interpreter.game.playouts import native_mode, uses_native
from interpreter.play.analyze_cli import add_analyze, add_run_options, game_backend, native_env, run_analyze
from interpreter.play.describe import (
    generated_code_json,
    overlay_changes,
    render_cards,
    render_description,
    render_diff,
    render_generated_code,
)
from interpreter.play.logs import (
    GameLog,
    fresh_log_path,
    hash_mismatch,
    load_log_game,
    read_log,
    result_differences,
    shown_diagnostics,
    target_for_log,
)
from interpreter.play.narrate import LogSeen, move_words, name_cards, new_log_lines, pick_words
from interpreter.play.resume import resume_log, start_logged
from interpreter.play.runner import replay_actions
from interpreter.play.scenario_cli import run_tests
from interpreter.play.seating import UsageError, choose_seats, unknown_names
from interpreter.play.simulate import SimulationSpec, progress_stream, render_summary, simulate
from interpreter.play.terminal import Console, EndOfInput, QuitRequested, Table
from interpreter.play.terminal_text import seed_line
from interpreter.play.validate import validate_target
from interpreter.rules.loader import bundled_entries
from interpreter.rules.schema import KINDS as SCHEMA_KINDS
from interpreter.rules.schema import load_schema
from interpreter.runtime.present import describe_result
from interpreter.runtime.rng import fresh_seed
from interpreter.runtime.saves import checked_key, read_key
from interpreter.runtime.simultaneous import split_pick
from interpreter.runtime.state import State
from interpreter.version import __version__
from interpreter.web.launch import add_serve_options, new_session, resume_session, serve

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
HELP_WIDTH = 88
SIGN_KEY_ENV = "ORRERY_SIGN_KEY"
STRICT_HELP = "treat warnings (two overlays changing the same value) as errors"
SEED_HELP = "random seed (default: 64 random bits from the system, shown when the game ends)"


# ---- the parser ----------------------------------------------------------------------------

MAIN_EPILOG = """\
GAME / TARGET: a bundled game id (see `orrery list`), a game folder, or its game.yaml.
--with X adds an overlay: a bundled expansion by name, or a mod file or folder by path.
Seats: human, random (uniform among legal actions), first (always the first legal
action), or any bot the game defines (see `orrery describe GAME`).

exit codes: 0 ok, 1 rule or game error, 2 usage error, 130 interrupted.
Run `orrery COMMAND --help` for a command's options."""


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=32)


def _positive_int(text: str) -> int:
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _port(text: str) -> int:
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0-65535, not {value}")
    return value


def _add_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="play with the game's variant V (repeatable)")
    parser.add_argument("--with", dest="overlays", action="append", default=[], metavar="X",
                        help="add overlay X: a bundled expansion by name or a mod file/folder by path (repeatable)")
    parser.add_argument("--strict", action="store_true", help=STRICT_HELP)


def _load_rules(args: argparse.Namespace) -> Game:
    """The game of GAME --variant --with (--strict); overlay warnings go to stderr."""
    game = load_game(args.game, variants=args.variant, overlays=args.overlays, strict=args.strict)
    for warning in game.warnings:
        print(warning.format(), file=sys.stderr)
    return game


def _add_table_options(parser: argparse.ArgumentParser, default_seats: str) -> None:
    parser.add_argument("--players", type=_positive_int, metavar="N",
                        help="number of players (default: the game's default, or the number of --seats)")
    parser.add_argument("--seats", metavar="S,S,..",
                        help=f"who sits in each seat, comma-separated: {', '.join(k.name for k in registered())} "
                             f"or a bot of the game; NAME:KEY=VALUE,... for a kind with options "
                             f"(default: {default_seats})")


def _add_sign_option(parser: argparse.ArgumentParser, doing: str) -> None:
    parser.add_argument("--sign-key-file", metavar="FILE",
                        help=f"{doing} with the HMAC key in FILE (default: the key in ${SIGN_KEY_ENV}, if set)")


def _add_log_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log", metavar="FILE", help="write the game's log to FILE as it goes")
    parser.add_argument("--resume", metavar="FILE", help="continue the game recorded in the log FILE")
    _add_sign_option(parser, "sign the log (and accept a --resume log only if signed)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="orrery", formatter_class=_Formatter, epilog=MAIN_EPILOG,
        description="orrery: a rules-as-data interpreter for board games. Games are YAML data plus a small "
                    "effect language; one interpreter validates, plays and simulates them all.")
    parser.add_argument("--version", action="version", version=f"orrery {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = commands.add_parser("list", help="bundled games, expansions, examples and mods", formatter_class=_Formatter,
                            description="List the bundled games, expansions (with their base game), examples "
                                        "and mods.")
    p.add_argument("--json", action="store_true", help="print a JSON list of {id, kind, name, base, path}")

    p = commands.add_parser("validate", help="check rule files", formatter_class=_Formatter,
                            description="Check rule files: YAML, the schema, names, effect text and types. Prints "
                                        "every mistake as PATH:LINE:COL: error[CODE]: MESSAGE (with a hint where "
                                        "one helps). An overlay (expansion or mod) is checked applied to its base "
                                        "game. Every variant of the game is checked too, each on its own (or only "
                                        "the --variant ones, together, as play would use them). Exits 1 if any "
                                        "error was found.",
                            epilog="examples:\n  orrery validate tic-tac-toe\n  orrery validate games/my-game\n"
                                   "  orrery validate rocketmen --variant solitaire\n"
                                   "  orrery validate my-mod.yaml --json")
    p.add_argument("targets", nargs="+", metavar="TARGET",
                   help="a game id, a game or overlay folder, or a game.yaml / overlay file")
    p.add_argument("--with", dest="overlays", action="append", default=[], metavar="X",
                   help="also apply overlay X (bundled expansion name or mod path; repeatable)")
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help="check the game with variant V (repeatable: together) instead of every variant alone")
    p.add_argument("--json", action="store_true",
                   help="print all diagnostics as one JSON list of {path, line, column, severity, code, message}")
    p.add_argument("--strict", action="store_true", help=STRICT_HELP)

    p = commands.add_parser("describe", help="a game's rules summary", formatter_class=_Formatter,
                            description="Summarise a game: players, variants, overlays, seats and bots, counters, "
                                        "zones and who sees them, cards, actions, end conditions, scoring, and every "
                                        "assumption made where the rulebook is silent (with where it is made).")
    p.add_argument("game", metavar="GAME", help="a game id, folder or game.yaml")
    _add_rules_options(p)
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--diff", action="store_true", help="show what the --with overlays change, definition by "
                   "definition (added, removed, changed fields with old -> new)")
    p.add_argument("--code", action="store_true",
                   help="print the Python the engine generated for the rules (expressions, conditions, "
                        "parameter choices and one legal-action lister per action) and the names it binds "
                        "(with --json: as data)")
    p.add_argument("--cards", action="store_true",
                   help="list each card with its printed text beside its power (effects with condition and "
                        "cost, triggers, modifiers), as the engine runs it")

    p = commands.add_parser("play", help="play in the terminal", formatter_class=_Formatter,
                            description="Play a game in the terminal. A human seat sees only what its player may "
                                        "see, with the legal actions numbered: type a number or the action's text, "
                                        "or help, log (recent actions), view, show CARD, auto (answer a run of "
                                        "payments), quit (saves the game). Other seats act by themselves "
                                        "and their moves are told in words. With no human seat the game runs "
                                        "to its end. The game's result is printed at the end (docs/terminal.md).",
                            epilog="examples:\n  orrery play tic-tac-toe\n"
                                   "  orrery play kuhn-poker --seats human,first --seed 7 --log game.json\n"
                                   "  orrery play --resume game.json\n\n"
                                   "--log FILE is rewritten after every action (atomically), so nothing is lost "
                                   "if the game is\ninterrupted; --resume FILE rebuilds the game from a log (same "
                                   "rules, seats, seed) and goes on,\nappending to that log unless --log is given.\n"
                                   "--log writes a new file, or over a log of the same game: nothing else.\n"
                                   f"With a signing key (--sign-key-file FILE or ${SIGN_KEY_ENV}) the log is "
                                   "signed, and --resume\nrefuses a log not signed with that key; without a key "
                                   "signatures are not checked.")
    p.add_argument("game", nargs="?", metavar="GAME", help="a game id, folder or game.yaml (optional with --resume)")
    _add_table_options(p, "seat 1 human, the others random")
    p.add_argument("--seed", type=_int, metavar="N", help=SEED_HELP)
    _add_rules_options(p)
    _add_log_options(p)

    p = commands.add_parser("simulate", help="many seeded games between agents", formatter_class=_Formatter,
                            description="Play many games with agents and bots in every seat and sum them up: wins "
                                        "per seat (a shared win counts for each winner), draws, mean returns, mean "
                                        "length, errors. Game i uses seed SEED+i and each agent is seeded from "
                                        "(game seed, seat), so the results do not depend on --workers. A game that "
                                        "raises or does not end within --max-actions counts as an error (exit 1).",
                            epilog="examples:\n  orrery simulate kuhn-poker --games 10000 --workers 4 --json\n"
                                   "  orrery simulate kuhn-poker --games 100000 --backend ray --address HOST:6379")
    add_run_options(p, 100, _add_table_options, _add_rules_options, _positive_int, _int)
    p.add_argument("--json", action="store_true", help="print one JSON object with the summary")
    add_analyze(commands, _Formatter, _add_table_options, _add_rules_options, _positive_int, _int)

    p = commands.add_parser("replay", help="re-run a game log", formatter_class=_Formatter,
                            description="Re-run a game log: prints the game's course (each action by its player, "
                                        "the rules' log lines) and the result. With --verify, exits 1 if any "
                                        "action is not legal where it is played, or the rule data (hash) or the "
                                        "result differ from the log's.")
    p.add_argument("log", metavar="LOG", help="a log written by orrery play --log")
    p.add_argument("--verify", action="store_true", help="fail unless the log replays exactly as recorded")
    p.add_argument("--game", metavar="GAME",
                   help="load the rules from GAME (id, folder or file) instead of where the log says")
    _add_sign_option(p, "accept the log only if it is signed")

    p = commands.add_parser("serve", help="play in the browser (a local web table)", formatter_class=_Formatter,
                            description="A web page per human seat, at a secret URL; needs pip install 'orrery[web]'.")
    p.add_argument("game", nargs="?", metavar="GAME", help="a game id, folder or game.yaml (optional with --resume)")
    _add_table_options(p, "seat 1 human, the others random")
    p.add_argument("--seed", type=_int, metavar="N", help=SEED_HELP)
    _add_rules_options(p)
    add_serve_options(p, _port)
    _add_log_options(p)

    p = commands.add_parser("test", help="run scenarios: arranged positions, actions, expectations",
                            formatter_class=_Formatter,
                            description="Run scenario files (docs/scenarios.md): each arranges a position as data, "
                                        "applies actions by their text and checks what must hold. Without FILES, "
                                        "the scenarios the game carries (its scenarios/ folder, its bundled "
                                        "expansions' and those of the overlays given). One line per scenario "
                                        "(ok, FAILED with file:line:col, expected and found, or ERROR with "
                                        "diagnostics), then a summary; exit 0 when every scenario is ok.",
                            epilog="examples:\n  orrery test kuhn-poker\n  orrery test games/my-game my-scenarios.yaml")
    p.add_argument("game", metavar="GAME", help="a game id, folder or game.yaml")
    p.add_argument("files", nargs="*", metavar="FILES", help="scenario files (default: those the game carries)")
    p.add_argument("--variant", action="append", default=[], metavar="V",
                   help="add the game's variant V to every scenario (repeatable)")
    p.add_argument("--with", dest="overlays", action="append", default=[], metavar="X",
                   help="add overlay X to every scenario, and run the scenarios it carries (repeatable)")
    p.add_argument("--json", action="store_true", help="print one JSON object (scenarios, passed, failed, errors)")

    p = commands.add_parser("schema", help="the JSON Schema of rule files", formatter_class=_Formatter,
                            description="Print the JSON Schema of one kind of rule file for editors' YAML "
                                        "plugins: game files (game.yaml), overlay files (expansions and mods) or "
                                        "the files a game includes (cards.yaml and the like).",
                            epilog="examples:\n  orrery schema > game.schema.json\n"
                                   "  orrery schema --kind include > include.schema.json\n\n"
                                   "In a rule file, a first line `# yaml-language-server: $schema=PATH` points "
                                   "the editor at it.")
    p.add_argument("--kind", choices=SCHEMA_KINDS, default=None, help="which kind of file (default: game)")
    p.add_argument("--overlay", action="store_true", help="the same as --kind overlay")
    for each in (parser, *commands.choices.values()):  # descriptions wrap; epilogs keep their lines
        each.description = textwrap.fill(each.description or "", HELP_WIDTH)
    return parser


# ---- main ----------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (never raises, never a traceback)."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # one that came while another error was being reported
        return interrupted()


def interrupted() -> int:
    """Say that Ctrl-C stopped the command (one line, no traceback): exit code 130."""
    try:
        _error("interrupted")
    except KeyboardInterrupt:  # Ctrl-C pressed again: the exit code says it all
        pass
    return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    given = set(words) | {w.split("=", 1)[1] for w in words if w.startswith("--") and "=" in w}  # --with=X
    try:
        return _run(argv)
    except KeyboardInterrupt:
        return interrupted()
    except UsageError as err:
        _error(str(err))
        return EXIT_USAGE
    except RuleFileError as err:
        _print_diagnostics(err.diagnostics, sys.stderr)
        return EXIT_USAGE if unknown_names(err.diagnostics, given) else EXIT_ERROR
    except OrreryError as err:
        _error(str(err))
        return EXIT_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_ERROR
    except OSError as err:
        where = f"{err.filename}: " if err.filename else ""
        _error(f"{where}{err.strerror or err}")
        return EXIT_ERROR
    except MemoryError:
        # Not a bug to report: the rules or the game asked for more memory than there is.
        _error("out of memory: the rules or the game asked for more memory than this machine can give")
        print("  if a rule file makes very many cards, counters or list items, make fewer "
              "(see the Limits section of docs/format.md)", file=sys.stderr)
        return EXIT_ERROR
    except Exception as err:
        if os.environ.get("ORRERY_DEBUG"):
            raise
        _error(f"internal error: {type(err).__name__}: {err}")
        print("  this is a bug in orrery; please report it with the command you ran "
              "(set ORRERY_DEBUG=1 to see the traceback)", file=sys.stderr)
        return EXIT_ERROR


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, --version, or argparse's own usage error (2)
        return done.code if isinstance(done.code, int) else EXIT_USAGE
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    handler: Callable[[argparse.Namespace], int] = COMMANDS[args.command]
    return handler(args)


def _error(message: str) -> None:
    print(f"orrery: error: {message}", file=sys.stderr)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _print_diagnostics(diagnostics: Sequence[Diagnostic], stream: Any) -> None:
    diagnostics = shown_diagnostics(diagnostics)
    for diagnostic in diagnostics:
        print(diagnostic.format(), file=stream)
    errors = sum(1 for d in diagnostics if d.severity == "error")
    print(f"{errors} error{'s' if errors != 1 else ''}", file=stream)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2))


# ---- list ----------------------------------------------------------------------------------

KIND_TITLES = (("game", "Games"), ("expansion", "Expansions"), ("example", "Examples"), ("mod", "Mods"))


def cmd_list(args: argparse.Namespace) -> int:
    entries = bundled_entries()
    if args.json:
        _print_json([{key: e.get(key) for key in ("id", "kind", "name", "base", "path")} for e in entries])
        return EXIT_OK
    if not entries:
        print("No bundled games found.")
        return EXIT_OK
    width = max(len(e["id"]) for e in entries)
    for kind, title in KIND_TITLES:
        chosen = [e for e in entries if e["kind"] == kind]
        if not chosen:
            continue
        print(f"{title}:")
        for e in chosen:
            base = f"  (for {e['base']})" if e.get("base") else ""
            print(f"  {e['id']:<{width}}  {e['name']}{base}")
    print("\n`orrery describe ID` shows a game's rules; `orrery play ID` plays it.")
    return EXIT_OK


# ---- validate ------------------------------------------------------------------------------

def cmd_validate(args: argparse.Namespace) -> int:
    found: list[Diagnostic] = []
    oks: list[str] = []
    for target in args.targets:
        diagnostics, summary = validate_target(target, list(args.overlays), args.strict, list(args.variant))
        found.extend(diagnostics)
        if not any(d.severity == "error" for d in diagnostics):
            oks.append(f"ok: {target} ({summary})")
    failed = any(d.severity == "error" for d in found)
    found = shown_diagnostics(found)
    if args.json:
        _print_json([d.to_json() for d in found])
    else:
        for line in oks:
            print(line)
        if found:
            _print_diagnostics(found, sys.stdout)
    if failed and unknown_names(found, set(args.targets) | set(args.overlays)):
        return EXIT_USAGE
    return EXIT_ERROR if failed else EXIT_OK


# ---- describe and schema -------------------------------------------------------------------


def cmd_describe(args: argparse.Namespace) -> int:
    if args.diff:
        return _describe_diff(args)
    game = _load_rules(args)
    if args.code:
        _print_json(generated_code_json(game.definition)) if args.json else print(
            render_generated_code(game.definition))
        return EXIT_OK
    if args.cards:
        cards = game.describe_cards()
        _print_json(cards) if args.json else print(render_cards(cards))
        return EXIT_OK
    info = game.describe()
    if args.json:
        _print_json(info)
    else:
        print(render_description(info))
    return EXIT_OK


def _describe_diff(args: argparse.Namespace) -> int:
    if not args.overlays:
        raise UsageError("--diff shows what overlays change: name one with --with X")
    _load_rules(args)  # every check (and --strict) as describe has
    changes = overlay_changes(args.game, list(args.variant), list(args.overlays))
    _print_json(changes) if args.json else print(render_diff(changes))
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    if args.overlay and args.kind not in (None, "overlay"):
        raise UsageError(f"--overlay and --kind {args.kind} name different kinds of file")
    _print_json(load_schema("overlay" if args.overlay else args.kind or "game"))
    return EXIT_OK


# ---- play ----------------------------------------------------------------------------------


def _sign_key(args: argparse.Namespace) -> bytes | None:
    """The signing key: from --sign-key-file, else $ORRERY_SIGN_KEY (unset or empty: none)."""
    if args.sign_key_file:
        return read_key(args.sign_key_file)
    text = os.environ.get(SIGN_KEY_ENV)
    return checked_key(text.encode("utf-8"), f"${SIGN_KEY_ENV}") if text else None


def cmd_play(args: argparse.Namespace) -> int:
    console = Console()
    if args.resume:
        table, agents = _resume_table(args, console)
    else:
        if not args.game:
            raise UsageError("play needs a GAME (or --resume LOG)")
        table, agents = _new_table(args, console)
    return _play_table(table, agents)


def _new_table(args: argparse.Namespace, console: Console) -> tuple[Table, dict[int, Any]]:
    game = _load_rules(args)
    gd = game.definition
    n, seats = choose_seats(gd, args.players, args.seats, "human", "random")
    seed = args.seed if args.seed is not None else fresh_seed()
    new = start_logged(game, args.game, args.overlays, n, seats, seed, Path(args.log) if args.log else None,
                       _sign_key(args), seed_known=args.seed is not None)
    # A drawn seed tells every card to come: it is shown when the game ends, not now.
    console.write(f"{gd.name}: {n} players{f', seed {seed}' if args.seed is not None else ''}.")
    console.write("Seats: " + ", ".join(f"P{i + 1} {seat}" for i, seat in enumerate(seats)))
    if new.path:
        console.write(f"Logging to {new.path}.")
    return Table(new.state, console, new.log, new.path), new.agents


def _resume_table(args: argparse.Namespace, console: Console) -> tuple[Table, dict[int, Any]]:
    _check_resume_flags(args)
    key = _sign_key(args)
    done = resume_log(args.resume, key, Path(args.log) if args.log else None, args.game)
    game, state, agents, log, log_path, moves = done.game, done.state, done.agents, done.log, done.path, done.moves
    table = Table(state, console, log, log_path, moves)
    console.write(f"{game.definition.name}: resumed after {len(moves)} actions; logging to {log_path}.")
    console.write("Seats: " + ", ".join(f"P{i + 1} {seat}" for i, seat in enumerate(log.seats)))
    table.log_seen = LogSeen.all_of(state)
    return table, agents


def _check_resume_flags(args: argparse.Namespace) -> None:  # play and serve
    flags = (("--players", args.players), ("--seats", args.seats), ("--seed", args.seed), ("--variant", args.variant))
    if given := [flag for flag, value in (*flags, ("--with", args.overlays)) if value]:
        raise UsageError(f"--resume takes the game's settings from the log; drop {', '.join(given)}")


def _play_table(table: Table, agents: dict[int, Any]) -> int:
    console = table.console
    table.save()
    try:
        table.play(agents)
    except QuitRequested:
        _keep(table, "Stopped.")
        return EXIT_OK
    except EndOfInput:
        _keep(table, "No more input; stopped.")
        return EXIT_OK
    except KeyboardInterrupt:
        _keep(table, "Interrupted.", failed=True)
        raise
    except GameError:
        _keep(table, "The game stopped on an error (below).", failed=True)
        raise
    table.save()
    table.show_result()
    console.write(seed_line(table.state.seed))  # over now: the seed gives nothing away
    if table.log_path:
        console.write(f"Log: {table.log_path}")
    return EXIT_OK


def _keep(table: Table, message: str, failed: bool = False) -> None:
    """Save what was played (to a fresh file when no log was asked for) and say how to go on."""
    if table.log is None:
        table.console.write(message)
        return
    if table.log_path is None:
        if not table.moves:
            table.console.write(message)
            return
        # The file's name is printed mid-game: it names the seed only if the player chose it.
        table.log_path = fresh_log_path(table.log.game, table.log.seed if table.log.seed_known else None)
    table.save(failed)
    table.console.write(f"{message} {len(table.moves)} actions saved to {table.log_path}; "
                        f"continue with: orrery play --resume {table.log_path}")


# ---- replay --------------------------------------------------------------------------------


def cmd_replay(args: argparse.Namespace) -> int:
    log = read_log(args.log, _sign_key(args))
    game = load_log_game(log, args.game)
    mismatch = hash_mismatch(log, game)
    if mismatch and args.verify:
        raise GameError(f"verify failed: {mismatch}")
    if mismatch:
        print(f"orrery: warning: {mismatch}", file=sys.stderr)
    state = game.new_initial_state(log.players, log.seed, log.seats)
    print(f"{game.definition.name}: {log.players} players, seed {log.seed}, {len(log.actions)} actions")
    print("Seats: " + ", ".join(f"P{i + 1} {seat}" for i, seat in enumerate(log.seats)))
    printer = _CoursePrinter(state)
    try:
        replay_actions(state, log.actions, on_action=printer, on_before=printer.before)
    except GameError as err:
        raise GameError(f"{'verify failed' if args.verify else 'replay failed'}: {err}") from None
    if state.is_terminal():
        for line in describe_result(state.result(), state.seats):
            print(line)
    else:
        print(f"The log ends before the game does (after {len(log.actions)} actions; "
              f"{', '.join(f'P{p + 1}' for p in state.players_to_act())} to act).")
    if args.verify:
        return _verify_result(log, state)
    return EXIT_OK


class _CoursePrinter:
    """Prints each replayed action in words with its player (the whole game is shown: a
    replay is read after the game, cards by name), then the rules' new log lines with
    the game bots' picks in words."""

    def __init__(self, state: State):
        self.seen = LogSeen()
        self.count = 0
        self.words = ""
        self._lines(state)

    def before(self, state: State, player: int, text: str) -> None:
        named, plain = split_pick(text)
        self.words = pick_words(state, player, plain) if named is not None else move_words(state, text)

    def __call__(self, state: State, player: int, text: str) -> None:
        self.count += 1
        print(f"{self.count:>4}. P{player + 1}: {name_cards(self.words or split_pick(text)[1], state.gd)}")
        self._lines(state)

    def _lines(self, state: State) -> None:
        for line in new_log_lines(state, self.seen):
            print(f"      | {name_cards(line, state.gd)}")


def _verify_result(log: GameLog, state: State) -> int:
    differences = result_differences(log.result, state)
    if differences:
        _error("verify failed: the result differs from the log's: " + "; ".join(differences))
        return EXIT_ERROR
    print(f"verified: {len(log.actions)} actions replay as recorded; rule data hash {log.data_hash}")
    return EXIT_OK


# ---- simulate ------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace) -> int:
    game = _load_rules(args)
    gd = game.definition
    n, seats = choose_seats(gd, args.players, args.seats, "random", "random", allow_human=False)
    mode = native_mode(args.native)
    spec = SimulationSpec(target_for_log(args.game), tuple(args.variant),
                          tuple(target_for_log(o) for o in args.overlays), n, tuple(seats), args.max_actions,
                          native=mode)
    if mode != "off":
        status = game.native_status(n)  # (built here, before any worker starts, so it is built once)
        if status.module is None and mode == "auto":
            print(f"native: playing in Python, {status.reason}", file=sys.stderr)
        uses_native(game, n, seats, mode)  # (with --native on: why these rules or seats cannot, as an error)
        if any(seat.startswith("mcts") for seat in seats):
            game.native_status(n, step=True)  # (the searches' native worlds: built once, here)
    with native_env(mode), game_backend(args) as (backend, workers):
        summary = simulate(spec, args.games, args.seed, workers, game, progress_stream(args.json), backend=backend)
    if args.json:
        _print_json(summary)
    else:
        print(render_summary(summary, gd.name))
    return EXIT_ERROR if summary["errors"] else EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    log_path, key = Path(args.log) if args.log else None, _sign_key(args)
    if args.resume:
        _check_resume_flags(args)
        session = resume_session(args.resume, key, log_path, args.game)
    elif not args.game:
        raise UsageError("serve needs a GAME (or --resume LOG)")
    else:
        game = _load_rules(args)  # --strict and the rules' warnings, as play has
        n, seats = choose_seats(game.definition, args.players, args.seats, "human", "random")
        seed = args.seed if args.seed is not None else fresh_seed()
        session = new_session(game, args.game, args.overlays, n, seats, seed, log_path, key,
                              seed_known=args.seed is not None)
    serve(session, args.host, args.port, not args.no_browser, lambda line: print(line, flush=True))
    return EXIT_OK


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "list": cmd_list,
    "validate": cmd_validate,
    "describe": cmd_describe,
    "play": cmd_play,
    "simulate": cmd_simulate,
    "analyze": lambda args: run_analyze(args, _load_rules(args)),
    "replay": cmd_replay,
    "schema": cmd_schema,
    "serve": cmd_serve,
    "test": lambda args: run_tests(args.game, args.files, args.overlays, args.variant, args.json),
}
