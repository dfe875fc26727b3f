"""Starting a logged game, or resuming one from its log: read it (checking its
signature when a key is given), check where it will be written back, rebuild the game
and replay its actions to where it stopped. Shared by `orrery play` and `orrery serve`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.game import Game
from interpreter.play.logs import GameLog, check_log_target, hash_mismatch, load_log_game, new_log, read_log
from interpreter.play.runner import replay_actions, seat_agents
from interpreter.runtime.state import State


@attrs.define
class LoggedGame:
    """A logged game about to start, or replayed to where it stopped."""

    game: Game
    state: State
    agents: dict[int, Any]
    log: GameLog
    path: Path | None  # where the log is written (None: not yet chosen)
    moves: list[tuple[int, str]]  # (player, action text) replayed, in order


def start_logged(game: Game, target: str, overlays: list[str], players: int, seats: list[str], seed: int,
                 log_path: Path | None, key: bytes | None, seed_known: bool = False) -> LoggedGame:
    """A new game, to be logged to `log_path`: the file is checked before anything is
    played, so a refused one stays untouched. `seed_known`: the players chose the seed,
    so it may be shown during the game (a drawn one is shown only at the end)."""
    if log_path is not None:
        check_log_target(log_path, game.definition.id)
    log = new_log(game, target, overlays, players, seats, seed)
    log.sign_key = key
    log.seed_known = seed_known
    state = game.new_initial_state(players, seed, seats)
    return LoggedGame(game, state, seat_agents(game, state.seat_specs, seed), log, log_path, [])


def resume_log(log_file: str, key: bytes | None, log_path: Path | None, target: str | None) -> LoggedGame:
    """The game of `log_file` replayed; it will be logged on to `log_path` (default: the
    same file). Refused with a GameError when the rules changed or the game is over."""
    log = read_log(log_file, key)
    path = log_path or Path(log_file)
    check_log_target(path, log.game)
    log.sign_key = key
    game = load_log_game(log, target)
    mismatch = hash_mismatch(log, game)
    if mismatch:
        raise GameError(f"cannot resume {log_file}: {mismatch}")
    if log.result is not None:
        raise GameError(f"cannot resume {log_file}: that game is over ({len(log.actions)} actions); "
                        f"use orrery replay to see it")
    state = game.new_initial_state(log.players, log.seed, log.seats)
    agents = seat_agents(game, state.seat_specs, log.seed)
    moves: list[tuple[int, str]] = []
    replay_actions(state, log.actions, agents, lambda _s, player, text: moves.append((player, text)))
    return LoggedGame(game, state, agents, log, path, moves)
