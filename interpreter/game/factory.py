"""The Game: a loaded, validated, compiled rule set and the factory of its states.

`load_game` is the one entry of the pipeline: load the files (safe YAML, positions
kept) -> schema -> semantic checks and compiling -> a frozen GameDef. The Game then
makes states; it never re-reads or re-checks anything at run time.
"""

from __future__ import annotations

import functools
import hashlib
import operator
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from interpreter.agents import check_seat, create_agent, registered, seat_kinds
from interpreter.analysis.length import length_bounds
from interpreter.compile.build import build
from interpreter.compile.lint import lint
from interpreter.diagnostics import Diagnostic, GameError, RuleFileError
from interpreter.game.native_states import native_state
from interpreter.game.playouts import MAX_ACTIONS as MAX_PLAYOUT_ACTIONS
from interpreter.game.playouts import NativeStatus, Playout, native_status, playouts
from interpreter.game.summary import describe_cards, describe_game
from interpreter.model import GameDef
from interpreter.model.seats import RANDOM, Seating, SeatSpec, parse_seat, seating_of
from interpreter.rules.loader import RawGame, explain_removed, load_raw
from interpreter.rules.utility import read_declarations
from interpreter.runtime.action_space import ActionSpace
from interpreter.runtime.faces import Faces, find_faces
from interpreter.runtime.info_tensor import DEFAULT_MAX_EVENTS, info_layout
from interpreter.runtime.layout import Layout, StartTemplate, start_template
from interpreter.runtime.state import State, load_state, new_state
from interpreter.runtime.tensor import TensorLayout
from interpreter.version import __version__


class Game:
    """One game's rules (with its variants and overlays), ready to make states.
    `raw` is the merged rule data it was built from (for `describe`)."""

    def __init__(self, definition: GameDef, raw: dict[str, Any] | None = None):
        self.definition = definition
        self.raw = raw or {}
        # Saves hold positions in compiled code: they name the engine and code shape.
        shape = ",".join(str(len(code.ops)) for code in definition.codes)
        self.engine_id = f"{__version__}/{hashlib.sha256(shape.encode()).hexdigest()[:12]}"
        # seat specs checked once (playouts make many states), each with its canonical text
        self._seatings: dict[Any, Seating] = {}  # (players, seat texts or None) -> the seating
        self.warnings: list[Diagnostic] = []  # conflicts between overlays (load_game fills it)

    # ---- facts -------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def name(self) -> str:
        return self.definition.name

    def seat_kinds(self) -> list[str]:
        """The names of the kinds of seat this game can be played with."""
        return [kind.name for kind in seat_kinds(self.definition)]

    @functools.lru_cache(maxsize=8)  # noqa: B019 - one Game lives as long as its states
    def layout(self, num_players: int) -> Layout:
        return Layout.build(self.definition, num_players)

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def start_template(self, num_players: int) -> StartTemplate:
        return start_template(self.definition, self.layout(num_players), num_players)

    # ---- for learning code (docs/learning.md) --------------------------------------

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def action_space(self, num_players: int) -> ActionSpace:
        """The integer action space for `num_players` seats (ActionSpaceError when a
        parameter has no fixed list of values)."""
        n = self._players(num_players)
        return ActionSpace(self.definition, n, self.faces(n))

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def tensor_layout(self, num_players: int) -> TensorLayout:
        n = self._players(num_players)
        return TensorLayout(self.definition, self.layout(n), n, self.faces(n))

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def faces(self, num_players: int) -> Faces:
        """The kinds of card copy the rules can tell apart, numbered (runtime/faces.py):
        what integer actions and the observation tensor count cards by. Read once from
        the setups of a few fixed seeds, so it is the same for every run."""
        n = self._players(num_players)
        return find_faces(self.definition, lambda seed: new_state(self, n, seed, self._seating(n, None)))

    def num_distinct_actions(self, num_players: int | None = None) -> int:
        """How many integer actions the game has for `num_players` seats (default: the
        game's default count): ids are 0..this-1, the same in every state. Raises
        ActionSpaceError when some action's values cannot be numbered."""
        space = self.action_space(self._players(num_players))
        if space.unnumbered is not None:
            raise space.unnumbered
        return space.size

    def observation_tensor_shape(self, num_players: int | None = None) -> list[int]:
        """The shape of `State.observation_tensor` for `num_players` seats."""
        return self.tensor_layout(self._players(num_players)).shape

    def information_state_tensor_shape(self, num_players: int | None = None,
                                       max_events: int = DEFAULT_MAX_EVENTS) -> list[int]:
        """The shape of `State.information_state_tensor` for `num_players` seats and
        games of at most `max_events` events (runtime/info_tensor.py)."""
        n = self._players(num_players)
        return [info_layout(self.action_space(n), self.tensor_layout(n), n, max_events).size]

    def uses_chance(self) -> bool:
        """Whether the rules draw random numbers (shuffle, random, pick_random, a
        refill that shuffles): states then depend on their seed."""
        return self.definition.facts.uses_chance

    @functools.lru_cache(maxsize=1)  # noqa: B019
    def eager_zones(self) -> frozenset[int]:
        """The zones (definition indexes) a shuffle deals whole in explicit chance mode,
        because the rules may look at their order (analysis/chance_zones.py)."""
        return self.definition.facts.eager_zones

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def max_decisions(self, num_players: int | None = None) -> int | None:
        """The most decisions a game for `num_players` seats takes (a joint action of a
        simultaneous step is one): the rules' `max_moves`, else what their flow bounds
        (analysis/length.py), else None."""
        n = self._players(num_players)
        declared = self.definition.max_moves
        return declared if declared is not None else length_bounds(self.definition, self.raw, n).decisions

    @functools.lru_cache(maxsize=8)  # noqa: B019
    def max_events(self, num_players: int | None = None) -> int | None:
        """The most events (decisions, each seat's pick of a simultaneous step, chance
        outcomes) a game's history holds, where the rules bound them: each decision is
        at most one pick per seat, each random number the flow draws one outcome, and
        a game that shuffles, refills and makes cards in its setup only deals each card
        at most once a shuffle. None: no bound."""
        n = self._players(num_players)
        decisions = self.max_decisions(n)
        bounds = length_bounds(self.definition, self.raw, n)
        if decisions is None or not bounds.deals_only or bounds.setup_shuffles is None or bounds.draws is None:
            return None
        picks = decisions * (n if self.definition.facts.uses_simultaneous else 1) + bounds.draws
        if not bounds.setup_shuffles or not self.uses_chance():
            return picks
        copies = sum(len(zone) for zone in self.new_initial_state(n, seed=0, chance="seeded").zones)
        return picks + copies * bounds.setup_shuffles

    def max_chance_outcomes(self, num_players: int | None = None) -> int:
        """How many chance ids the game has for `num_players` seats: the outcomes of
        its chance nodes (explicit chance) are 0..this-1 (docs/chance.md)."""
        return self.action_space(self._players(num_players)).chance_size

    def _players(self, num_players: int | None) -> int:
        gd = self.definition
        n = gd.default_players if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, int) or not gd.min_players <= n <= gd.max_players:
            raise GameError(f"{gd.name} is for {gd.min_players}-{gd.max_players} players, not {n!r}")
        return n

    def describe(self) -> dict[str, Any]:
        """The rules summary as plain data: what `orrery describe --json` prints."""
        return describe_game(self.definition, self.raw)

    def describe_cards(self) -> list[dict[str, Any]]:
        """Each card's text beside its power: what `orrery describe --cards --json` prints."""
        return describe_cards(self.definition, self.raw)

    # ---- states ------------------------------------------------------------------

    def new_initial_state(self, num_players: int | None = None, seed: int = 0,
                          seats: Sequence[str | SeatSpec] | None = None, chance: str = "seeded",
                          native: str = "off") -> Any:
        """A new game for `num_players` seats (default: the game's default), seeded.
        A seat is a spec's text (`random`, `ismcts:iterations=50`) or a SeatSpec, checked
        here, once. With `chance="explicit"`, random events are chance nodes (docs/chance.md).
        With `native` `auto` or `on`, a NativeState: the same API and results, each
        decision in C where the rules allow it (game/native_states.py)."""
        gd = self.definition
        n = gd.default_players if num_players is None else _whole(num_players, "num_players")
        if not gd.min_players <= n <= gd.max_players:
            raise GameError(f"{gd.name} is for {gd.min_players}-{gd.max_players} players, not {n}")
        if isinstance(seats, str):
            raise GameError(f"seats is a list of seats, one per player, not the text {seats!r}")
        seed = seed if type(seed) is int else _whole(seed, "seed")
        seating = self._seating(n, seats)  # (checks the seats, whichever state is made)
        if native != "off":
            found = native_state(self, n, seed, list(seats) if seats else [], chance, native)
            if found is not None:
                return found
        return new_state(self, n, seed, seating, chance)

    def playouts(self, n: int, seed: int = 0, seats: Sequence[str] | None = None,
                 num_players: int | None = None, max_actions: int = MAX_PLAYOUT_ACTIONS,
                 native: str | None = None) -> list[Playout]:
        """`n` whole games seeded seed, seed+1, ... with a `random` seat in every seat
        (as `orrery simulate` seeds them), natively when the rules and the machine allow
        it (`native`: auto, on or off; default ORRERY_NATIVE, else auto): their outcomes,
        the same on either path (game/playouts.py)."""
        return playouts(self, n, seed, seats, num_players, max_actions, native)

    def native_status(self, num_players: int | None = None, step: bool = False) -> NativeStatus:
        """Whether these rules run natively for `num_players` here (with `step`: one
        decision at a time, as native states), and why not (built on first use and cached)."""
        return native_status(self, self._players(num_players), step)

    def _seating(self, n: int, seats: Sequence[str | SeatSpec] | None) -> Seating:
        """The seating of `n` seats (default: every seat random), made once per seating:
        a playout starts many games seated alike."""
        key: Any = (n, None if not seats else tuple(str(s) if isinstance(s, SeatSpec) else s for s in seats))
        try:
            found = self._seatings.get(key)
        except TypeError:  # a seat that is no text (refused below)
            found, key = None, None
        if found is None:
            seat_list = list(seats) if seats else [RANDOM] * n
            if len(seat_list) != n:
                raise GameError(f"{len(seat_list)} seats given for {n} players")
            # each seat parsed and checked once (`a-bot ` is the record `a-bot`); below this nothing reads the text
            specs = [check_seat(parse_seat(seat), self.definition) for seat in seat_list]
            found = seating_of(specs, self.definition.bots)
            if key is not None:
                self._seatings[key] = found
        return found

    def state_from_json(self, text: str) -> State:
        """A state saved with `State.to_json()` (checked; GameError when corrupt)."""
        return load_state(self, text)


def _whole(value: Any, what: str) -> int:
    """A whole number given to the API (an int, or one like numpy's), else GameError:
    never a float cut short, a flag taken for 0 or 1, or a text parsed."""
    if type(value) is int:  # (the usual case, first)
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise GameError(f"{what} must be a whole number, not {value!r}")


def check_seat_options(gd: GameDef, raw: RawGame) -> None:
    """Make one seat of each kind `seat_options` gives defaults for, so that a bad value
    (a rollout bot the game lacks, a negative budget) is a diagnostic at load, placed at
    the kind's entry, rather than an error when a seat is made."""
    found = []
    for kind in gd.seat_options:
        try:
            create_agent(kind, gd)
        except GameError as err:
            where = ("seat_options", kind)
            path, line, col = raw.origins.locate_key(where)
            found.append(Diagnostic(path, line, col, "bad-value", f"seat_options.{kind}: {err}",
                                    source_line=raw.origins.find(where)[0].source_line(line) or None))
    if found:
        raise RuleFileError(found)


# Definitions built in this process, by everything a build reads: the bytes of every
# file read (base, included, overlays), the rule data they merged into (variants and
# constants applied), the overlays and variants chosen, and the seat kinds' options.
# Loading the same rules again (a test suite, a server's sessions, the fuzzer's
# mutants of one file) shares the frozen definition instead of compiling it again. A
# definition never changes once built; its generated code's own caches (the actions
# kept per value) are shared as they are between the states of one game.
_BUILT: OrderedDict[str, GameDef] = OrderedDict()
_BUILT_KEPT = 16  # (a few MB each: every bundled game and example fits)


def forget_definitions() -> None:
    """Drop the definitions kept for loads to come (to free their memory; or for code
    that changes a loaded game's generated code in place, as some tests do, and must
    not share it)."""
    _BUILT.clear()


def _built(raw: RawGame, options: dict[str, Any], constants: dict[str, Any] | None) -> GameDef:
    digest = hashlib.sha256(repr((raw.data_hash, raw.files, raw.variants, raw.overlays, constants, options)).encode())
    try:
        for path in raw.files:
            digest.update(hashlib.sha256(Path(path).read_bytes()).digest())
    except OSError:  # (a file gone since it was read: build from what was read)
        return build(raw, options)
    key = digest.hexdigest()
    definition = _BUILT.get(key)
    if definition is None:
        definition = build(raw, options)
        _BUILT[key] = definition
        if len(_BUILT) > _BUILT_KEPT:
            _BUILT.popitem(last=False)
    else:
        _BUILT.move_to_end(key)
    return definition


def load_game(name: str, variants: list[str] | tuple[str, ...] = (),
              overlays: list[str] | tuple[str, ...] = (), strict: bool = False,
              constants: dict[str, Any] | None = None) -> Game:
    """Load a bundled game by id, or a game folder or file by path, with variants and
    overlays (bundled expansions by name, mods by path), and `constants` set to other
    values (numbers, words and flags the rules define). Raises RuleFileError with
    every diagnostic when the rule files are wrong; conflicts between overlays are
    `Game.warnings` (errors when `strict`)."""
    raw = load_raw(name, list(variants), list(overlays), strict=strict, constants=constants)
    try:
        definition = _built(raw, {kind.name: kind.options for kind in registered()}, constants)
    except RuleFileError as err:  # the base may use what an overlay removed: say so
        raise RuleFileError(explain_removed(err.diagnostics, raw)) from None
    check_seat_options(definition, raw)
    utility, max_moves = read_declarations(raw, definition.constants)
    if utility is not None or max_moves is not None:
        definition = attrs.evolve(definition, utility=utility, max_moves=max_moves)
    # what can hardly be meant: warnings, errors when strict
    doubtful = [*definition.warnings, *lint(raw, definition)]
    if strict and doubtful:
        raise RuleFileError([attrs.evolve(d, severity="error") for d in doubtful])
    game = Game(definition, raw.data)
    game.warnings = [*raw.warnings, *doubtful]
    return game
