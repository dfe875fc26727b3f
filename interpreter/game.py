"""The Game: a loaded, validated, compiled rule set and the factory of its states.

`load_game` is the one entry of the pipeline (DESIGN §2.2): load the files (safe YAML,
positions kept) -> schema -> semantic checks and compiling -> a frozen GameDef. The
Game then makes states; it never re-reads or re-checks anything at run time.
"""

from __future__ import annotations

import functools
import hashlib
from typing import Any

from . import __version__
from .build import build
from .diagnostics import GameError
from .loader import load_raw
from .model import EndDef, GameDef
from .state import Layout, StartTemplate, State, new_state, start_template

BUILTIN_SEATS = ("human", "random", "first")


class Game:
    def __init__(self, definition: GameDef):
        self.definition = definition
        self.listens = frozenset(definition.triggers)
        # Saves hold positions in compiled code: they name the engine and code shape.
        shape = ",".join(str(len(code.ops)) for code in definition.codes)
        self.engine_id = f"{__version__}/{hashlib.sha256(shape.encode()).hexdigest()[:12]}"
        # End conditions by check point, in the order written (checked at every decision).
        self.ends_by_check: dict[str, tuple[EndDef, ...]] = {
            check: tuple(end for end in definition.ends if end.check == check) for check in ("action", "turn", "round")
        }

    # ---- facts -------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def name(self) -> str:
        return self.definition.name

    def seat_kinds(self) -> list[str]:
        return [*BUILTIN_SEATS, *self.definition.bots]

    @functools.lru_cache(maxsize=8)  # noqa: B019 - one Game lives as long as its states
    def layout(self, num_players: int) -> Layout:
        return Layout.build(self.definition, num_players)

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def start_template(self, num_players: int) -> StartTemplate:
        return start_template(self.definition, self.layout(num_players), num_players)

    # ---- states ------------------------------------------------------------------

    def new_initial_state(self, num_players: int | None = None, seed: int = 0,
                          seats: list[str] | None = None) -> State:
        """A new game for `num_players` seats (default: the game's default), seeded."""
        gd = self.definition
        n = gd.default_players if num_players is None else int(num_players)
        if not gd.min_players <= n <= gd.max_players:
            raise GameError(f"{gd.name} is for {gd.min_players}-{gd.max_players} players, not {n}")
        seat_list = list(seats) if seats else ["random"] * n
        if len(seat_list) != n:
            raise GameError(f"{len(seat_list)} seats given for {n} players")
        for seat in seat_list:
            if seat not in BUILTIN_SEATS and seat not in gd.bots:
                raise GameError(f"unknown seat '{seat}'; seats: {', '.join(self.seat_kinds())}")
        return new_state(self, gd, n, int(seed), seat_list)

    def state_from_json(self, text: str) -> State:
        from .saves import load_state

        return load_state(self, text)

    def describe(self) -> dict[str, Any]:
        from .describe import describe_game

        return describe_game(self)


def load_game(name: str, variants: list[str] | tuple[str, ...] = (),
              overlays: list[str] | tuple[str, ...] = ()) -> Game:
    """Load a bundled game by id, or a game folder or file by path, with variants and
    overlays (bundled expansions by name, mods by path). Raises RuleFileError with
    every diagnostic when the rule files are wrong."""
    raw = load_raw(name, list(variants), list(overlays))
    return Game(build(raw))
