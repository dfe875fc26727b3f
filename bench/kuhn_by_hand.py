"""How fast could a Kuhn poker playout be over orrery's state? A benchmark script, not
a test (nothing here is timed under pytest).

It plays the bundled Kuhn poker (examples/kuhn-poker) written by hand over a state
with the engine's very fields (`runtime/fields.py`: the same lists, journals, frames
and shuffle), beside the engine playing the rule file, with the bench's own loop
(bench_loops.OrreryLoop, interleaved slices). The gap is what the engine's general
steps cost (the run loop, frames, `take`, setup's operations), not the state's shape:
docs/speed.md says where it goes.

    python bench/kuhn_by_hand.py                 # 3 s each
    python bench/kuhn_by_hand.py --seconds 8
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_loops import OrreryLoop, measure

from interpreter import load_game
from interpreter.runtime.fields import FIELDS
from interpreter.runtime.journal import Journal
from interpreter.runtime.records import Frame
from interpreter.runtime.rng import shuffle_in_place

_new = object.__new__
PUT, FOLDED, NET = 0, 1, 2  # the counters, in the rule file's order
DECK, HAND = 0, 1  # zone slots: the deck, then each player's hand


class _Move:
    """A legal action: its text, as the engine's Actions have."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


PASS, BET = _Move("pass"), _Move("bet")
LISTING = (PASS, BET)
RANKS = (1, 2, 3)  # jack, queen, king: card i is rank RANKS[i]


class HandState:
    """Kuhn poker by hand, over every field the engine's State has."""

    __slots__ = tuple(f.attr for f in FIELDS)

    def is_terminal(self) -> bool:
        return self.terminal  # type: ignore[no-any-return]

    def legal_actions(self) -> list[_Move]:
        return [] if self.terminal else list(LISTING)

    def apply_action(self, move: _Move) -> None:
        if self.terminal or move not in LISTING:
            raise ValueError(f"not legal now: {move.text}")
        self.history.append(move.text)
        put, folded = self.counters[PUT], self.counters[FOLDED]
        me = self.active
        if move is PASS:
            if put[1 - me] > put[me]:
                folded[me] = 1
        else:
            put[me] += 1
        turn = self.turn_no
        if turn == 1:  # the second player's turn
            self.turn_no, self.active, self.uses["turn"] = 2, 1, {}
        elif turn == 2 and put[0] < put[1]:  # the first player answers a bet
            self.turn_no, self.active, self.uses["turn"] = 3, 0, {}
        else:
            self._settle(put, folded)

    def _settle(self, put: list[int], folded: list[int]) -> None:
        winner = 0
        if folded[0] == 1:
            winner = 1
        elif folded[1] == 0 and RANKS[self.zones[HAND + 1][-1]] > RANKS[self.zones[HAND][-1]]:
            winner = 1
        pot = put[0] + put[1]
        net = self.counters[NET]
        for p in (0, 1):
            net[p] = pot - put[p] if p == winner else -put[p]
        self.winners, self.terminal, self.pending, self.legal_cache = [winner], True, None, None
        self.stack.clear()


class HandGame:
    """new_initial_state as the engine's: every field set, the deck shuffled, dealt."""

    def new_initial_state(self, num_players: int | None = None, seed: int = 0) -> HandState:
        st = _new(HandState)
        st.game = st.gd = st.layout = None
        st.gd_listens = frozenset()
        st.n, st.players, st.seats, st.seed = 2, [0, 1], ["random", "random"], seed
        st.counters = [[1, 1], [0, 0], [0, 0]]
        st.zones = [[0, 1, 2], [], []]
        st.card_def, st.loc = [0, 1, 2], [0, 0, 0]
        st.attrs, st.revealed, st.shown, st.notes = {}, set(), {}, []
        st.rng, st.explicit, st.unordered = seed & ((1 << 64) - 1), False, {}
        st.chance_answers, st.chance_pos, st.queue = [], 0, []
        st.active = st.round_no = st.turn_no = 0
        st.uses = {"turn": {}, "round": {}, "game": {}}
        st.grants, st.winners = [], []
        st.ending = st.ending_reason = st.end_reason = None
        st.terminal = False
        st.history, st.log = Journal(), Journal()
        st.work, st.memo, st.stop_turn = 0, None, None
        st.stack = [Frame(0, 0, {})]
        deck = st.zones[DECK]
        shuffle_in_place(st, deck)
        for p in (0, 1):
            card = deck.pop()
            st.zones[HAND + p].append(card)
            st.loc[card] = HAND + p
        st.turn_no, st.active, st.pending, st.legal_cache = 1, 0, True, list(LISTING)
        return st


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="playouts of each, in all (default 3)")
    args = parser.parse_args(argv)
    if not args.seconds > 0:
        parser.error("--seconds must be above 0")
    engine: Any = load_game(str(Path(__file__).resolve().parent.parent / "examples" / "kuhn-poker"))
    loops = [OrreryLoop(HandGame(), None), OrreryLoop(engine, None)]
    by_hand, rules = measure(loops, args.seconds, 20)  # type: ignore[arg-type]
    for name, counts in (("by hand", by_hand), ("engine", rules)):
        per = counts.seconds / counts.playouts * 1e6
        print(f"{name:8s} {counts.decisions / counts.seconds:>10,.0f} decisions/s  {per:6.2f} us a playout "
              f"({counts.decisions / counts.playouts:.2f} decisions each)")
    print(f"the engine takes x{(rules.seconds / rules.playouts) / (by_hand.seconds / by_hand.playouts):.2f} "
          "the time of the hand-written game")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
