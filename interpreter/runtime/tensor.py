"""The observation tensor: one player's view as a flat list of numbers whose length
is fixed by the game and the player count, for neural networks.

It is laid out from the declared components only and filled under the declared
visibility only (the same rule as `observation.observe`): a counter the player may
not see is 0, a zone the player may not see shows its number of cards and its
revealed cards (to all, or to this player), nothing else; notes shown to a player are
text and are not in the tensor (they are in the observation string). Seats are in
table order (P1 first), not rotated to the viewer: the `player` piece says who is looking. Pieces, in order:

* `player` (N): one-hot, the viewing seat;
* `current` (N): one-hot, the seat to act (zeros when the game is over);
* `active` (N): one-hot, the active seat (whose turn it is);
* `progress` (3): game over (0/1), the round number, the turn number;
* `decision` (G + 1): one-hot, the action group this player must pick from, or (the
  last) a choice inside an effect; zeros when another seat decides;
* `counters` (every counter slot): each counter, seat by seat for per-player ones,
  keys in order: its value, or 0 when hidden;
* `zones` (per zone slot, 1 + C, or 1 + 2C when the zone's order is visible): the
  number of cards; per card face, the copies the viewer sees; then a one-hot of the
  top card's face.

N is the player count, G the number of action groups, C the number of card faces
(faces.py: the kinds of copy the rules tell apart, fixed per game and player count;
one per card definition in a game whose copies never differ). Card copies count by
face, as in the integer action space.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from interpreter.model import GameDef
from interpreter.runtime.faces import Faces
from interpreter.runtime.layout import Layout
from interpreter.runtime.observation import _may_see
from interpreter.runtime.records import PendingActions

if TYPE_CHECKING:
    from interpreter.runtime.state import State


@attrs.frozen
class Piece:
    """A named run of the tensor: `offset` and `size`."""

    name: str
    offset: int
    size: int


class TensorLayout:
    """Where everything sits in the observation tensor of one game for N players."""

    def __init__(self, gd: GameDef, layout: Layout, num_players: int, faces: Faces | None = None):
        self.gd, self.layout, self.n = gd, layout, num_players
        self.faces = faces if faces is not None else Faces.plain(gd)
        self.groups = sorted(gd.groups)
        self.group_index = {g: i for i, g in enumerate(self.groups)}
        cards = self.faces.size
        counter_size = sum(c.width * (num_players if c.scope == "player" else 1) for c in gd.counters)
        # per zone slot: where its numbers start, and whether it has a top-card part
        self.slot_offsets: list[int] = []
        self.slot_tops: list[bool] = []
        zone_size = 0
        for slot in range(layout.slots):
            zone = gd.zones[layout.zdef[slot]]
            self.slot_offsets.append(zone_size)
            top = zone.order_visible and zone.visible != "none"
            self.slot_tops.append(top)
            zone_size += 1 + cards + (cards if top else 0)
        sizes = [("player", num_players), ("current", num_players), ("active", num_players), ("progress", 3),
                 ("decision", len(self.groups) + 1), ("counters", counter_size), ("zones", zone_size)]
        pieces = []
        offset = 0
        for name, size in sizes:
            pieces.append(Piece(name, offset, size))
            offset += size
        self.pieces = tuple(pieces)
        self.piece = {p.name: p for p in pieces}
        self.size = offset

    @property
    def shape(self) -> list[int]:
        return [self.size]

    def encode(self, st: State, player: int) -> list[float]:
        """The tensor of what `player` may see of `st`."""
        out = [0.0] * self.size
        n, piece = self.n, self.piece
        out[piece["player"].offset + player] = 1.0
        current = st.current_player()
        if 0 <= current < n:
            out[piece["current"].offset + current] = 1.0
        if 0 <= st.active < n:
            out[piece["active"].offset + st.active] = 1.0
        at = piece["progress"].offset
        out[at:at + 3] = [1.0 if st.terminal else 0.0, float(st.round_no), float(st.turn_no)]
        pending = st.pending
        if pending is not None and pending.waits_for(player) and not st.terminal:
            at = piece["decision"].offset
            if isinstance(pending, PendingActions):
                out[at + self.group_index[pending.group]] = 1.0
            else:
                out[at + len(self.groups)] = 1.0
        at = piece["counters"].offset
        for cdef, values in zip(self.gd.counters, st.counters, strict=True):
            owners = range(n) if cdef.scope == "player" else [-1]
            for i, owner in enumerate(owners):
                if _may_see(cdef.visible, owner, player):
                    out[at:at + cdef.width] = [float(v) for v in values[i * cdef.width:(i + 1) * cdef.width]]
                at += cdef.width
        self._zones(st, player, out, piece["zones"].offset)
        return out

    def _zones(self, st: State, player: int, out: list[float], base: int) -> None:
        layout, gd = self.layout, self.gd
        faces = self.faces
        cards = faces.size
        # a game whose copies never differ numbers faces as definitions: no look-up per card
        face = st.card_def.__getitem__ if not faces.varied else lambda iid: faces.of(st, iid)
        revealed = st.revealed
        shown = st.shown
        bit = 1 << player if player >= 0 else 0
        for slot, content in enumerate(st.zones):
            at = base + self.slot_offsets[slot]
            out[at] = float(len(content))
            if not content:
                continue
            zone = gd.zones[layout.zdef[slot]]
            seen = _may_see(zone.visible, layout.zowner[slot], player)
            for iid in content:
                if seen or iid in revealed or (shown and shown.get(iid, 0) & bit):
                    out[at + 1 + face(iid)] += 1.0
            if self.slot_tops[slot] and seen:
                out[at + 1 + cards + face(content[-1])] = 1.0
