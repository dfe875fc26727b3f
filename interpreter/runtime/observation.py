"""What one player may see of a state, derived only from declared visibility.

Counters and zones say who may see them (`all`, `owner`, `none`); a zone's order may be
hidden. Everything shown to a player — the terminal view, a bot's input, a log shown to
a person — comes through `observe`, so nothing hidden leaks by accident.
A card a player may not see is shown as its count only (and, in a game whose cards
declare a `back`, its back: how many of each back a hidden zone holds); revealed cards are visible
to all until they move, and cards revealed to some players (`reveal CARDS to PLAYERS`)
to those players until they move. Notes shown to some players (`show "TEXT" to
PLAYERS`) are in the observation of those players only, under `notes`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model import ViewDef
from interpreter.runtime.errors import RULE_SLIPS, rule_error
from interpreter.runtime.present import render_template
from interpreter.runtime.private import notes_for, sees_shown
from interpreter.runtime.work import own_budget

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def _may_see(visible: str, owner: int, player: int) -> bool:
    # A shared zone or counter has no owner (-1): `owner` visibility hides it from
    # everyone, spectators (-1 too) included.
    return visible == "all" or (visible == "owner" and owner == player and owner >= 0)


def card_seen_by(st: State, iid: int, player: int) -> bool:
    """Whether `player` may see which card the copy `iid` is, where it is now: the
    one answer `observe` gives card by card (its zone's visibility, or a reveal)."""
    if iid in st.revealed or sees_shown(st, iid, player):
        return True
    slot = st.loc[iid]
    if slot < 0:
        return False  # out of the game: gone from every view
    zone = st.gd.zones[st.layout.zdef[slot]]
    return _may_see(zone.visible, st.layout.zowner[slot], player)


def backs_of(st: State, cards: list[int]) -> dict[str, int]:
    """How many of `cards` show each back (a card hidden from a player shows its back,
    `""` when it declares none), as everyone sees them."""
    counts: dict[str, int] = {}
    defs = st.gd.cards
    for iid in cards:
        back = defs[st.card_def[iid]].back
        counts[back] = counts.get(back, 0) + 1
    return counts


def observe(st: State, player: int) -> dict[str, Any]:
    """Plain data: what `player` (a seat, or -1 for a spectator) may see now."""
    gd, layout = st.gd, st.layout
    counters: dict[str, Any] = {}
    for cdef, values in zip(gd.counters, st.counters, strict=True):
        owners = range(st.n) if cdef.scope == "player" else [-1]
        shown: list[Any] = []
        for i, owner in enumerate(owners):
            part: list[Any] = values[i * cdef.width:(i + 1) * cdef.width]
            if cdef.fractions:  # a fraction as people read it, "7/2" (JSON has no fractions)
                part = [v if type(v) is int else str(v) for v in part]
            if not _may_see(cdef.visible, owner, player):
                shown.append(None)
            elif cdef.keys:
                shown.append(dict(zip(cdef.keys, part, strict=True)))
            else:
                shown.append(part[0] if cdef.width == 1 else part)
        counters[cdef.name] = shown if cdef.scope == "player" else shown[0]
    zones: dict[str, Any] = {}
    for zdef in gd.zones:
        base = layout.zbase[zdef.index]
        owners = range(st.n) if zdef.scope == "player" else [-1]
        shown_zones = []
        for i, owner in enumerate(owners):
            cards = st.zones[base + i]
            if _may_see(zdef.visible, owner, player):
                listed = [st.card_text(c) for c in cards]
                if not zdef.order_visible:
                    listed = sorted(listed)
                shown_zones.append({"count": len(cards), "cards": listed})
            else:
                seen = [st.card_text(c) for c in cards if c in st.revealed or sees_shown(st, c, player)]
                entry: dict[str, Any] = {"count": len(cards)}
                if seen:
                    entry["revealed"] = sorted(seen)
                if gd.backs and cards:
                    entry["backs"] = backs_of(st, cards)
                shown_zones.append(entry)
        zones[zdef.name] = shown_zones if zdef.scope == "player" else shown_zones[0]
    obs: dict[str, Any] = {
        "game": gd.id,
        "player": player,
        "players": st.n,
        "seats": list(st.seats),
        "round": st.round_no,
        "turn": st.turn_no,
        "active": st.active,
        "current_player": st.current_player(),
        "counters": counters,
        "zones": zones,
        "terminal": st.terminal,
    }
    notes = notes_for(st, player) if st.notes else []
    if notes:
        obs["notes"] = notes
    if gd.views and 0 <= player < st.n:
        # one work budget for the observation's views, of their own (runtime/work.py):
        # a view over long lists stops with a rule error, never a hang
        obs["views"] = own_budget(st, _views, st, gd.views, player)
    if st.terminal:
        obs["winners"] = list(st.winners)
    # never another player's pick, nor a chance node's outcomes (to a spectator, -1 too)
    if st.pending is not None and player >= 0 and st.pending.waits_for(player):
        obs["decision"] = {"prompt": st.prompt(), "legal": [a.text for a in st.legal_actions(player)]}
    return obs


def _views(st: State, views: tuple[ViewDef, ...], player: int) -> dict[str, str]:
    return {view.id: render_view(st, view, player) for view in views}


def render_view(st: State, view: ViewDef, player: int) -> str:
    """A game-defined view of the table as `player` sees it (`me` = the viewer)."""
    try:
        return render_template(st, view.parts, {"me": player})
    except RULE_SLIPS as err:
        raise rule_error(f"view '{view.id}'", err) from None
