"""One node of a game: the OpenSpiel-like State API over plain data.

Everything that changes during a game is here, as lists, dicts and ints: counters,
zones, card locations and attributes, the random generator's state, the frames of the
effects being run and the decision being waited for. Nothing refers to code except by
index into the static GameDef, so clone() is a few list copies and to_json() is exact.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import attrs

from . import decisions, vm
from .decisions import Action
from .diagnostics import GameError
from .model import GameDef

if TYPE_CHECKING:
    from .game import Game

TERMINAL = -4  # OpenSpiel's kTerminalPlayerId
STATE_FORMAT = "orrery-state/1"


@attrs.frozen
class Layout:
    """Where each zone's lists sit in `State.zones` for a number of players (derived)."""

    zbase: tuple[int, ...]  # zone index -> first slot
    zowner: tuple[int, ...]  # slot -> owner seat, -1 when shared
    zdef: tuple[int, ...]  # slot -> zone index
    slots: int

    @classmethod
    def build(cls, gd: GameDef, n: int) -> Layout:
        zbase: list[int] = []
        zowner: list[int] = []
        zdef: list[int] = []
        for zone in gd.zones:
            zbase.append(len(zowner))
            owners = range(n) if zone.scope == "player" else [-1]
            for owner in owners:
                zowner.append(owner)
                zdef.append(zone.index)
        return cls(tuple(zbase), tuple(zowner), tuple(zdef), len(zowner))


class State:
    __slots__ = (
        "active",
        "attrs",
        "card_def",
        "counters",
        "end_reason",
        "ending",
        "ending_reason",
        "game",
        "gd",
        "gd_listens",
        "grants",
        "history",
        "layout",
        "legal_cache",
        "loc",
        "log",
        "n",
        "pending",
        "players",
        "queue",
        "revealed",
        "rng",
        "round_no",
        "seats",
        "seed",
        "stack",
        "terminal",
        "turn_no",
        "uses",
        "winners",
        "zones",
    )

    game: Game
    gd: GameDef
    gd_listens: frozenset[tuple[str, int]]
    layout: Layout
    n: int
    players: list[int]
    seats: list[str]
    seed: int
    counters: list[list[int]]
    zones: list[list[int]]
    card_def: list[int]
    loc: list[int]
    attrs: dict[tuple[int, str], Any]
    revealed: set[int]
    rng: int
    stack: list[list[Any]]
    queue: list[list[Any]]
    pending: list[Any] | None
    active: int
    round_no: int
    turn_no: int
    uses: dict[str, dict[str, int]]
    grants: list[list[Any]]
    ending: str | None
    ending_reason: str | None
    terminal: bool
    winners: list[int]
    end_reason: str | None
    history: list[str]
    log: list[str]
    legal_cache: list[Action] | None

    # ---- OpenSpiel-like API --------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act now, or TERMINAL (-4) when the game is over."""
        if self.terminal or self.pending is None:
            return TERMINAL
        return int(self.pending[1])

    def legal_actions(self, player: int | None = None) -> list[Action]:
        if self.terminal or (player is not None and player != self.current_player()):
            return []
        return list(decisions.legal_actions(self))

    def apply_action(self, action: Action | str) -> None:
        if self.terminal:
            raise GameError("the game is over; no more actions")
        decisions.apply(self, action)

    def is_terminal(self) -> bool:
        return self.terminal

    def returns(self) -> list[float]:
        """Per seat: the game's `returns` if it declares one, else +1 for each winner,
        -1 for the others, 0 for all when everyone (or no one) wins — except alone at the
        table (solitaire), where winning is +1 and losing -1."""
        if not self.terminal:
            return [0.0] * self.n
        scoring = self.gd.scoring
        if scoring.returns is not None:
            try:
                return [float(scoring.returns(self, {"p": p, "me": p})) for p in range(self.n)]
            except vm.RULE_SLIPS as err:
                raise vm.rule_error("scoring.returns", err) from None
        if self.n == 1:
            return [1.0 if self.winners else -1.0]
        if len(self.winners) in (0, self.n):
            return [0.0] * self.n
        return [1.0 if p in self.winners else -1.0 for p in range(self.n)]

    def scores(self) -> list[float]:
        """Each seat's score by the game's `scoring.score` (0 when it declares none)."""
        score = self.gd.scoring.score
        if score is None:
            return [0.0] * self.n
        return [float(score(self, {"p": p, "me": p})) for p in range(self.n)]

    def clone(self) -> State:
        new = State.__new__(State)
        new.game, new.gd, new.gd_listens, new.layout = self.game, self.gd, self.gd_listens, self.layout
        new.n, new.players, new.seats, new.seed = self.n, self.players, self.seats, self.seed
        new.counters = [c[:] for c in self.counters]
        new.zones = [z[:] for z in self.zones]
        new.card_def = self.card_def[:]
        new.loc = self.loc[:]
        new.attrs = self.attrs.copy()
        new.revealed = self.revealed.copy()
        new.rng = self.rng
        # Lists in locals are never changed in place, so copying each dict suffices.
        new.stack = [[f[0], f[1], f[2].copy()] for f in self.stack]
        new.queue = []
        new.pending = None if self.pending is None else self.pending[:]
        new.active, new.round_no, new.turn_no = self.active, self.round_no, self.turn_no
        new.uses = {k: v.copy() for k, v in self.uses.items()}
        new.grants = [g[:] for g in self.grants]
        new.ending, new.ending_reason = self.ending, self.ending_reason
        new.terminal, new.winners, new.end_reason = self.terminal, self.winners[:], self.end_reason
        new.history = self.history[:]
        new.log = self.log[:]
        # Actions are immutable and the list is never changed in place: share it, so a
        # clone does not list its actions again (searches clone before every move).
        new.legal_cache = self.legal_cache
        return new

    def observation(self, player: int) -> dict[str, Any]:
        from .observation import observe

        return observe(self, player)

    def to_json(self) -> str:
        from .saves import dump_state

        return dump_state(self)

    def __str__(self) -> str:
        from .observation import observe
        from .terminal import render_observation  # the one renderer of a view for people

        lines = render_observation(observe(self, -1), self.gd, set())
        if self.terminal:
            lines.append(f"Over: winners {', '.join(f'P{w + 1}' for w in self.winners) or 'none'}")
        return f"{self.gd.name}\n" + "\n".join(lines)

    # ---- helpers -------------------------------------------------------------------

    def render_value(self, value: Any, type_: str = "any") -> str:
        return decisions.render(self, value, type_)

    def card_text(self, iid: int) -> str:
        return f"{self.gd.cards[self.card_def[iid]].id}#{iid}"

    def prompt(self) -> str:
        if self.pending is None:
            return ""
        if self.pending[0] == "actions":
            return f"{self.pending[2]}"
        return str(self.pending[4])

    def result(self) -> dict[str, Any]:
        return {
            "terminal": self.terminal,
            "winners": list(self.winners),
            "returns": self.returns(),
            "reason": self.end_reason,
            "rounds": self.round_no,
            "turns": self.turn_no,
            "actions": len(self.history),
        }

    def to_dict(self) -> dict[str, Any]:
        from .saves import state_to_dict

        return state_to_dict(self)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return json.dumps(self.to_dict(), sort_keys=True) == json.dumps(other.to_dict(), sort_keys=True)

    __hash__ = None  # type: ignore[assignment]


# Counters, zones, card definitions and card locations of a game before setup.
StartTemplate = tuple[list[list[int]], list[list[int]], list[int], list[int]]


def start_template(gd: GameDef, layout: Layout, num_players: int) -> StartTemplate:
    """Counters at their initial values and the cards of `in:` placed, before setup: the
    same for every game of this player count, so built once and copied per new game."""
    counters = [list(cdef.initial) * (num_players if cdef.scope == "player" else 1) for cdef in gd.counters]
    zones: list[list[int]] = [[] for _ in range(layout.slots)]
    card_def: list[int] = []
    loc: list[int] = []
    for card in gd.cards:
        if card.zone is not None and card.count:
            slot = layout.zbase[card.zone]
            for _ in range(card.count):
                iid = len(card_def)
                card_def.append(card.index)
                loc.append(slot)
                zones[slot].append(iid)
    return counters, zones, card_def, loc


def new_state(game: Game, gd: GameDef, num_players: int, seed: int, seats: list[str]) -> State:
    """The state of a new game: components placed, then setup and flow run to the
    first decision."""
    st = State.__new__(State)
    st.game, st.gd, st.gd_listens = game, gd, game.listens
    st.layout = game.layout(num_players)
    st.n, st.players, st.seats, st.seed = num_players, list(range(num_players)), list(seats), seed
    counters, zones, card_def, loc = game.start_template(num_players)
    st.counters = [c[:] for c in counters]
    st.zones = [z[:] for z in zones]
    st.card_def, st.loc = card_def[:], loc[:]
    st.attrs, st.revealed = {}, set()
    st.rng = seed & ((1 << 64) - 1)
    st.stack, st.queue, st.pending = [], [], None
    st.active, st.round_no, st.turn_no = 0, 0, 0
    st.uses = {"turn": {}, "round": {}, "game": {}}
    st.grants = []
    st.ending = st.ending_reason = st.end_reason = None
    st.terminal, st.winners = False, []
    st.history, st.log, st.legal_cache = [], [], None
    if gd.flow is not None:
        st.stack.append([gd.flow, 0, {}])
    if gd.setup is not None:
        st.stack.append([gd.setup, 0, {}])
    vm.run(st)
    return st
