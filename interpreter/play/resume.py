"""Resuming a game from its log: read it (checking its signature when a key is given),
check where it will be written back, rebuild the game and replay its actions to where
it stopped. Shared by `orrery play --resume` and `orrery serve --resume`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.game import Game
from interpreter.play.logs import GameLog, check_log_target, hash_mismatch, load_log_game, read_log
from interpreter.play.runner import replay_actions, seat_agents
from interpreter.runtime.state import State


@attrs.define
class Resumed:
    """A logged game replayed to where it stopped."""

    game: Game
    state: State
    agents: dict[int, Any]
    log: GameLog
    path: Path  # where the log is written back
    moves: list[tuple[int, str]]  # (player, action text) replayed, in order


def resume_log(log_file: str, key: bytes | None, log_path: Path | None, target: str | None) -> Resumed:
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
    agents = seat_agents(game, log.seats, log.seed)
    moves: list[tuple[int, str]] = []
    replay_actions(state, log.actions, agents, lambda _s, player, text: moves.append((player, text)))
    return Resumed(game, state, agents, log, path, moves)
