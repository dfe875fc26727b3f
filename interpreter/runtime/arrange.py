"""Arranging a position as data: a game's setup run without its flow, cards and
counters then put where a test wants them, checked, and the flow started on top.

A scenario (`orrery test`, play/scenarios.py) needs "P1 holds these cards with 3 coins"
without playing there. A state is plain data, so the position is written into it
directly, between setup and the flow's first step (where a game's setup overrides
would go): cards are moved from wherever they are (the cards stay a permutation of the
game's cards), counters set; a card the rules keep data on where it lies (one a
procedure puts in play) is put there by calling that procedure (`call`). Nothing else
fires (no `entered`, `changed` triggers): the position is a fact, not an event. Then
every saved field goes through the very checks a loaded save passes
(saves.check_fields: each card in exactly one zone, counters within their bounds,
...), and the flow starts. Only the replay a save also passes is left out: an arranged
position is not where its history leads, on purpose.

Running setup without the flow: the state is made by `new_state` for a view of the
game whose definition has no flow, no `game_start`, nothing to score and setup as
frames; when its stack empties the run loop finishes that view's game, which
`begin_flow` undoes before it puts the real definition, `game_start` and the flow on
the stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.model import GameDef
from interpreter.model.seats import Seating
from interpreter.runtime.cards import follow
from interpreter.runtime.loop import run
from interpreter.runtime.records import Frame
from interpreter.runtime.saves import check_decision, check_fields
from interpreter.runtime.state import new_state

if TYPE_CHECKING:
    from interpreter.runtime.state import Rules, State

class _SetupOnly:
    """The game seen with its setup alone: what `new_state` needs of a game (Rules),
    the real game's for everything but the definition."""

    def __init__(self, game: Rules, run_setup: bool):
        self._game = game
        gd = game.definition
        nothing = attrs.evolve(gd.scoring, eligible=None, score=None, tie_breaks=(), returns=None)
        self.definition: GameDef = attrs.evolve(gd, flow=None, start=None, setup_direct=None, utility=None,
                                                setup=gd.setup if run_setup else None, scoring=nothing)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def start_setup(game: Rules, num_players: int, seed: int, seating: Seating, chance_mode: str = "seeded",
                run_setup: bool = True) -> State:
    """A new state of `game` with its setup run (or not) and its flow not started: it
    waits for a decision of the setup, or `setup_over` is true."""
    return new_state(_SetupOnly(game, run_setup), num_players, seed, seating, chance_mode)


def setup_over(st: State) -> bool:
    """Whether the setup of a state made by `start_setup` is over (the flow not begun)."""
    return st.terminal and st.end_reason == "flow-ended" and st.gd.flow is None and not st.stack


def begin_flow(st: State, game: Rules) -> None:
    """After setup and the arrangement: the real definition back, the position checked
    as a save is, then `game_start` and the flow run to the first decision (whose
    legal actions are checked as a save's are)."""
    if not setup_over(st):
        raise GameError("the setup is not over yet")
    gd = game.definition
    st.game, st.gd, st.gd_listens = game, gd, gd.listens
    st.terminal, st.winners, st.end_reason, st.final_returns = False, [], None, None
    st.pending, st.legal_cache, st.memo = None, None, None
    check_fields(st)
    if gd.flow is not None:
        st.stack.append(Frame(gd.flow, 0, {}))
    if gd.start is not None:
        st.stack.append(Frame(gd.start, 0, {}))
    run(st)
    check_decision(st)


def call(st: State, code: int, env: dict[str, Any]) -> None:
    """Run one of the game's procedures (code `code`, its parameters in `env`) on a
    state whose setup is over, as a step of the arrangement (a game's own way to put a
    card somewhere, with the data it keeps on it); GameError when it waits for a
    decision or ends the game."""
    if not setup_over(st):
        raise GameError("the setup is not over yet")
    st.terminal, st.end_reason, st.winners = False, None, []
    st.stack.append(Frame(code, 0, dict(env)))
    run(st)
    if st.pending is not None:
        raise GameError("it waits for a decision; a position's calls run procedures that decide nothing")
    if not setup_over(st):
        raise GameError(f"it ended the game ({st.end_reason})")
    st.legal_cache, st.memo = None, None


@attrs.frozen
class Placing:
    """Cards for one zone slot, listed top first: `mode` "exact" (the zone holds these
    and no other), "top" or "bottom" (these go there; the zone's other cards stay)."""

    slot: int
    cards: tuple[int, ...]
    mode: str


def place_cards(st: State, placings: list[Placing], spare: int | None) -> list[int]:
    """Move the cards of each placing into its zone, from wherever they are; the cards
    an exact zone held and no placing names go on top of `spare`. Returns those cards
    (to tell the user where they went); GameError when some need a spare and there is
    none, or a card is placed twice."""
    placed: dict[int, int] = {}
    for placing in placings:
        for iid in placing.cards:
            if iid in placed:
                raise GameError(f"card {st.card_text(iid)} is placed twice")
            placed[iid] = placing.slot
    exact = {p.slot for p in placings if p.mode == "exact"}
    displaced = [iid for slot in sorted(exact) for iid in st.zones[slot] if iid not in placed]
    if displaced and (spare is None or spare in exact):
        raise GameError("no spare zone for the cards taken out")
    old = {iid: st.loc[iid] for iid in [*placed, *displaced]}
    for iid, slot in old.items():  # out of their zones (a run of shuffled cards loses them)
        if slot >= 0:
            st.zones[slot].remove(iid)
            run_ = st.unordered.get(slot)
            if run_ is not None:
                run_.discard(iid)
                if len(run_) < 2:
                    del st.unordered[slot]
    for slot in exact:
        st.unordered.pop(slot, None)  # its order is now the one written
    for placing in placings:
        bottom_first = list(reversed(placing.cards))
        zone = st.zones[placing.slot]
        zone[:] = bottom_first + zone if placing.mode == "bottom" else zone + bottom_first
    if displaced and spare is not None:
        st.zones[spare].extend(displaced)
    new = {**placed, **dict.fromkeys(displaced, spare if spare is not None else -1)}
    for iid, slot in new.items():
        if st.layout.hides:
            follow(st, iid, old[iid], slot)
        st.loc[iid] = slot
        st.revealed.discard(iid)
        st.shown.pop(iid, None)
    st.legal_cache, st.memo = None, None
    return displaced


def set_counter(st: State, index: int, slot: int, value: int) -> None:
    """Set one value of a counter as data (no trigger fires); GameError outside its
    bounds (the check a save's counters pass)."""
    cdef = st.gd.counters[index]
    if (cdef.min is not None and value < cdef.min) or (cdef.max is not None and value > cdef.max):
        low = "-inf" if cdef.min is None else cdef.min
        high = "inf" if cdef.max is None else cdef.max
        raise GameError(f"counter {cdef.name} is out of its bounds ({value}, not within {low}..{high})")
    st.counters[index][slot] = value
    st.legal_cache, st.memo = None, None
