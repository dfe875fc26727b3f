"""Starting a served game: a new one or one resumed from its log, then serving it.

The command line parses and checks the arguments; this module sets up the session the
way `orrery play` sets up its table (the same log checks: a log is written only over a
new file or a log of the same game, a resumed log must match the rules and not be
over), prints one URL per human seat, and serves until interrupted. A game stopped
before its end is left in its log (a fresh file when none was asked for), with the
command that continues it.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import signal
import threading
import webbrowser
from collections.abc import Callable
from pathlib import Path
from typing import Any

from interpreter.diagnostics import GameError
from interpreter.game import Game
from interpreter.play.logs import fresh_log_path
from interpreter.play.resume import resume_log, start_logged
from interpreter.play.terminal_text import seed_line
from interpreter.web.session import Session, start_bots

Write = Callable[[str], None]


def add_serve_options(parser: argparse.ArgumentParser, port: Callable[[str], int]) -> None:
    """The options of `orrery serve` that are about the server (the rest are play's);
    `port` reads a port as the command line reads its other numbers."""
    parser.add_argument("--port", type=port, default=8765, metavar="P", help="port (default 8765; 0: any free port)")
    parser.add_argument("--host", default="127.0.0.1", metavar="H", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--no-browser", action="store_true", help="do not open the seats' pages in a browser")


def new_session(game: Game, target: str, overlays: list[str], players: int, seats: list[str], seed: int,
                log_path: Path | None, key: bytes | None, seed_known: bool = False) -> Session:
    """A game about to start, logged to `log_path` (checked before anything is played);
    `seed_known`: the host chose the seed, so the console may show it from the start."""
    new = start_logged(game, target, overlays, players, seats, seed, log_path, key, seed_known)
    return Session(new.game, new.state, new.agents, new.log, new.path)


def resume_session(log_file: str, key: bytes | None, log_path: Path | None, target: str | None) -> Session:
    """The game recorded in `log_file`, replayed to where it stopped; logged on to
    `log_path` (default: the same file)."""
    done = resume_log(log_file, key, log_path, target)
    return Session(done.game, done.state, done.agents, done.log, done.path, done.moves)


def _loopback(sock: Any) -> bool:
    """Whether a bound socket answers this machine only."""
    address = sock.getsockname()[0]
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def serve(session: Session, host: str, port: int, open_browser: bool, write: Write) -> None:
    """Serve `session` until interrupted (Ctrl-C); print the URLs first."""
    try:  # the web stack is an optional extra: only this command needs it
        from interpreter.web.app import Server, base_url, bind, seat_urls
    except ModuleNotFoundError as err:
        if err.name not in ("starlette", "uvicorn"):
            raise
        raise GameError(f"orrery serve needs {err.name}: pip install 'orrery[web]'") from None
    try:
        sock = bind(host, port)
    except (OSError, OverflowError) as err:
        busy = isinstance(err, OSError) and err.errno == errno.EADDRINUSE
        hint = "; another program uses that port: choose another with --port P (--port 0: any free port)" \
            if busy else ""
        raise GameError(f"cannot listen on {host}:{port}: {getattr(err, 'strerror', None) or err}{hint}") from None
    base = base_url(sock, host)
    state = session.state
    # The host's console is read by a player too (the host often sits at the table): a
    # drawn seed would tell every card to come, so it is shown only when the game ends.
    shown_seed = f", seed {session.log.seed}" if session.log is not None and session.log.seed_known else ""
    write(f"{state.gd.name}: {state.n} players{shown_seed}"
          f"{f', resumed after {len(session.moves)} actions' if session.moves else ''}.")
    write("Seats: " + ", ".join(f"P{i + 1} {seat}" for i, seat in enumerate(state.seats)))
    if session.log_path is not None:
        write(f"Logging to {session.log_path}.")
    urls = seat_urls(session, base)
    for who, url in urls:
        write(f"{who}: {url}")
    write("Each link is secret: it shows what that seat may see. Stop with Ctrl-C.")
    if not _loopback(sock):
        write(f"Warning: listening on {host}, beyond this machine: anyone who can reach it and holds a seat's "
              "link plays that seat, and the links and moves travel unencrypted (plain HTTP). Share each link "
              "with its player only, on a network you trust.")
    server = Server(session, sock, host)  # requests must name this host (or the bound address)
    start_bots(session)

    def opened() -> None:
        if open_browser:
            for _, url in urls:
                webbrowser.open(url)

    # uvicorn stops on Ctrl-C or SIGTERM, then raises the signal again: both become a
    # KeyboardInterrupt here, so the game is kept and the command ends cleanly.
    previous = _term_as_interrupt()
    try:
        server.run(opened)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    _keep(session, write)


def _term_as_interrupt() -> Any:
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt()

    return signal.signal(signal.SIGTERM, interrupt)


def _keep(session: Session, write: Write) -> None:
    """Say where the game is kept and how to go on (a fresh log when none was asked for)."""
    state, log = session.state, session.log
    if state.is_terminal():
        for line in (session.view(-1)["result"] or {}).get("lines", []):
            write(line)
        write(seed_line(state.seed))  # the game is over: its seed gives nothing away now
        if session.log_path is not None:
            write(f"Log: {session.log_path}")
        return
    if log is None or not session.moves:
        write("Stopped.")
        return
    if session.log_path is None:  # the file's name is printed: it names the seed only if known
        session.log_path = fresh_log_path(log.game, log.seed if log.seed_known else None)
        session.save(failed=bool(session.error))
    write(f"Stopped. {len(session.moves)} actions saved to {session.log_path}; "
          f"continue with: orrery serve --resume {session.log_path}")
