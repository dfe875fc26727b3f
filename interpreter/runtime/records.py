"""The named records a running game is made of: frames, pending decisions (a player's
or, in explicit chance mode, the chance player's) and grants.

They are slotted attrs classes (fast attribute access, no per-instance dict) and plain
data: each has `to_json()`/`from_json()` giving the lists the save format has always
used (`orrery-state/1`), so saves written by 0.1.0 read back unchanged.
"""

from __future__ import annotations

from typing import Any

import attrs

_new = object.__new__


@attrs.define(slots=True, eq=True)
class Frame:
    """One effect being run: which code, the next operation, and its local names.

    `pc` may be `len(ops)` (the frame is done) or `STOPPED` (a `stop` statement left it).
    Values in `env` are never changed in place (lists are rebuilt), so copying the dict
    is a full copy of the frame."""

    code: int
    pc: int
    env: dict[str, Any]

    def copy(self) -> Frame:
        # (three stores on a bare object: the generated __init__ is a Python call more,
        # and clones copy every frame of the stack)
        new = _new(Frame)
        new.code, new.pc, new.env = self.code, self.pc, self.env.copy()
        return new

    def to_json(self) -> list[Any]:
        return [self.code, self.pc, dict(self.env)]


STOPPED = 1 << 30  # a pc past any code's end: the frame returns at once


@attrs.define(slots=True, eq=True)
class PendingActions:
    """The game waits for `player` to pick an action of the action group `group`.
    `done_key` is the local name the `take actions` statement reads for "turn over"."""

    player: int
    group: str
    done_key: str

    kind = "actions"

    def copy(self) -> PendingActions:
        return self  # never changed in place once made

    def to_json(self) -> list[Any]:
        return ["actions", self.player, self.group, self.done_key]

    def waits_for(self, player: int) -> bool:
        """Whether `player` has a decision to make now."""
        return player == self.player


@attrs.define(slots=True, eq=True)
class PendingChoice:
    """The game waits for `player` to pick one of `options` (values of `type`) inside an
    effect; the answer is stored under the frame's local `answer_key`. With
    `allow_done`, "done" is an answer too (`choose up to`)."""

    player: int
    options: list[Any]
    type: str
    prompt: str
    answer_key: str
    allow_done: bool

    kind = "choice"

    def copy(self) -> PendingChoice:
        return self  # never changed in place once made

    def to_json(self) -> list[Any]:
        return ["choice", self.player, list(self.options), self.type, self.prompt, self.answer_key, self.allow_done]

    def waits_for(self, player: int) -> bool:
        """Whether `player` has a decision to make now."""
        return player == self.player


TURN = "#turn"  # the pick of a game bot that plays its own `turn` effect in a simultaneous step


@attrs.define(slots=True, eq=True)
class PendingSimultaneous(PendingActions):
    """Several players each pick one action of `group` at once (`take actions GROUP
    simultaneously`; see runtime/simultaneous.py). `players` take part in this order,
    the order their actions are carried out; `chosen[i]` is the canonical text of
    `players[i]`'s pick, None while they have not chosen (TURN for a game bot that
    plays its `turn` effect). `player` is the first of them still to choose: the one
    asked when the step is played one player at a time. `done_key` is the local where
    the picks are put, once all are in, for the statement to carry them out.

    It is a PendingActions (what is legal for one player is listed the same way), so
    code that reads the decision of `player` works unchanged; `waits_for` tells every
    player still to choose."""

    players: list[int]
    chosen: list[str | None]

    kind = "simultaneous"

    def copy(self) -> PendingSimultaneous:
        return self  # never changed in place once made: a new pick makes a new record

    def to_json(self) -> list[Any]:
        return ["simultaneous", self.player, self.group, self.done_key, list(self.players), list(self.chosen)]

    def waits_for(self, player: int) -> bool:
        return any(p == player and c is None for p, c in zip(self.players, self.chosen, strict=True))


CHANCE = -1  # the chance player (OpenSpiel's kChancePlayerId)


@attrs.define(slots=True, eq=True)
class PendingChance:
    """The game waits for the outcome of a random event (explicit chance mode, see
    chance.py). `event` is "value" (a `random`, `pick_random` or `shuffled` draw: the
    outcome is one of `options`, a value of `type`) or "deal" (which card of the
    unordered part of zone slot `slot` comes next from its `end`, "top" or "bottom":
    `options` are cards). `weights[i]` is how many equally likely ways give
    `options[i]`: its probability is `weights[i] / sum(weights)`. For cards,
    `copies[i]` lists the identical copies `options[i]` stands for (empty: itself
    alone); the one taken is drawn among them from the state's generator."""

    event: str
    prompt: str
    type: str
    options: list[Any]
    weights: list[int]
    slot: int = -1
    end: str = ""
    copies: list[list[int]] = attrs.field(factory=list)

    kind = "chance"
    player = CHANCE

    def copy(self) -> PendingChance:
        return self  # never changed in place once made

    def to_json(self) -> list[Any]:
        return ["chance", CHANCE, self.event, self.prompt, self.type, list(self.options), list(self.weights),
                self.slot, self.end, [list(c) for c in self.copies]]

    def waits_for(self, player: int) -> bool:
        """Only the chance player decides here."""
        return player == CHANCE


Pending = PendingActions | PendingChoice | PendingChance


def pending_from_json(data: list[Any]) -> Pending:
    """The record of a pending decision saved as a list (shape checked by the caller)."""
    if data[0] == "actions":
        return PendingActions(data[1], data[2], data[3])
    if data[0] == "simultaneous":
        return PendingSimultaneous(data[1], data[2], data[3], list(data[4]), list(data[5]))
    if data[0] == "chance":
        return PendingChance(data[2], data[3], data[4], list(data[5]), list(data[6]), data[7], data[8],
                             [list(c) for c in data[9]])
    return PendingChoice(data[1], list(data[2]), data[3], data[4], data[5], data[6])


@attrs.frozen
class Grant:
    """A granted modifier: modifier `modifier` applies to `player` until the end of the
    `until` scope ("turn", "round" or "game")."""

    modifier: int
    player: int
    until: str

    def to_json(self) -> list[Any]:
        return [self.modifier, self.player, self.until]
