"""What `orrery analyze` records of one game while it is played, for its statistics.

Counted on the game's own state only (a search seat's look-ahead plays in clones, and
what it tries there never happened):
* `plays`: per seat, each action (the first word of its text) and each card
  (`id#copy` in its text) it played; a game bot's seat, which plays inside its turn
  effect, counts the cards whose effects it uses;
* `powers`: per seat, each card effect used and each trigger that fired (the runtime
  tells `runtime.watch`), and each card modifier that applied to the seat, counted
  once per turn it applied in;
* `held`: the cards in each seat's own zones when the game ended;
* `score_history`: every seat's score at the first decision of each turn and at the end,
  recorded as the game goes (a finished game cannot say who led when);
* `decisions`, `forced`, `branching`: the decisions made, those with a single legal
  action, and the legal actions summed over them (the mean branching factor);
* `repeats`: how many times the most frequent position came back at a turn's first
  decision (whose turn, every counter, every zone's cards: a game going round in circles).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import attrs

from interpreter.diagnostics import GameError
from interpreter.runtime.cards import live_cards
from interpreter.runtime.counters import card_reaching
from interpreter.runtime.errors import RULE_SLIPS
from interpreter.runtime.simultaneous import split_pick
from interpreter.runtime.state import State

BOT_PICK = re.compile(r"^P(\d+) \(([^)]+)\): (.+)$")  # a game bot's pick in the game log
CARD_IN_TEXT = re.compile(r"([A-Za-z0-9_-]+)#\d+")  # a card in an action's canonical text: `id#copy`


@attrs.define
class Recorder:
    """The records of one game (see the module's docstring); `real` is its own state."""

    real: State | None = None
    plays: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    powers: Counter[tuple[int, str]] = attrs.field(factory=Counter)
    score_history: list[tuple[int, tuple[float, ...]]] = attrs.field(factory=list)
    decisions: int = 0
    forced: int = 0
    branching: int = 0
    sampled_turn: int = -1
    positions: Counter[int] = attrs.field(factory=Counter)  # a fingerprint of each turn's first position

    def start(self, state: State) -> None:
        self.real = state
        self._sample(state)

    def action(self, state: State, player: int, text: str) -> None:
        """After each action applied to the game's own state."""
        self.plays[(player, action_name(text))] += 1
        for card in set(CARD_IN_TEXT.findall(text)):
            self.plays[(player, "card " + card)] += 1
        self._sample(state)

    def use(self, used_in: State, player: int, card: Any) -> None:
        """A card effect used: a game bot's seat counts it as that card's play."""
        if self.real is not None and used_in is not self.real:
            return
        if 0 <= player < used_in.n and used_in.seat_bots[player] is not None:
            self.plays[(player, "card " + used_in.gd.cards[used_in.card_def[card]].id)] += 1

    def power(self, ran_in: State, player: int, kind: str, power_id: str, card: int | None) -> None:
        """A card effect or trigger ran (runtime.watch)."""
        if self.real is not None and ran_in is not self.real:
            return
        if type(player) is int and 0 <= player < ran_in.n:
            self.powers[(player, f"{kind} {power_id}")] += 1

    def _sample(self, state: State) -> None:
        """At a decision: count its legal actions (the agent's listing then reuses this
        one) and, at a turn's first decision, record the scores and the modifiers on."""
        if state.is_terminal():
            return
        if state.turn_no != self.sampled_turn:
            self.sampled_turn = state.turn_no
            self.score_history.append((state.turn_no, _scores(state)))
            self._modifiers(state)
            self.positions[_fingerprint(state)] += 1
        if state.is_chance_node() or state.is_simultaneous_node():
            return
        legal = len(state.legal_actions())
        if legal:
            self.decisions += 1
            self.branching += legal
            self.forced += legal == 1

    def _modifiers(self, state: State) -> None:
        mods = [mod for mod in state.gd.modifiers if mod.card is not None]
        if not mods:
            return
        live = live_cards(state, tuple({mod.card: None for mod in mods if mod.card is not None}))
        for mod in mods:
            if mod.card not in live:  # no copy in play: its power reaches nobody
                continue
            for p in range(state.n):
                try:
                    copy = card_reaching(state, mod.card, p)
                    if copy is None:
                        continue
                    if mod.granted and not any(g.modifier == mod.index and g.player == p for g in state.grants):
                        continue
                    env = {"p": p, "me": p, "this": copy[0], "owner": copy[1]}
                    if mod.when is not None and not mod.when(state, env):
                        continue
                except (GameError, *RULE_SLIPS):  # the game's own reading of it reports such a slip
                    continue
                self.powers[(p, f"modifier {mod.id}")] += 1

    def finish(self, state: State) -> dict[str, Any]:
        """The records as Outcome fields."""
        final = _scores(state)
        if not self.score_history or self.score_history[-1][1] != final or self.score_history[-1][0] != state.turn_no:
            self.score_history.append((state.turn_no, final))
        held: set[tuple[int, str]] = set()
        owners = state.layout.zowner
        for slot, owner in enumerate(owners):
            if owner >= 0:
                for iid in state.zones[slot]:
                    held.add((owner, state.gd.cards[state.card_def[iid]].id))
        return {"plays": tuple((p, key, n) for (p, key), n in sorted(self.plays.items())),
                "powers": tuple((p, key, n) for (p, key), n in sorted(self.powers.items())),
                "held": tuple(sorted(held)), "score_history": tuple(self.score_history),
                "decisions": self.decisions, "forced": self.forced, "branching": self.branching,
                "repeats": max(self.positions.values(), default=0)}


def _fingerprint(state: State) -> int:
    """What a position is, for noticing one that comes back: whose turn, every counter,
    every zone's cards in order (not the turn or round number, which never come back)."""
    return hash((state.active, tuple(map(tuple, state.counters)), tuple(map(tuple, state.zones))))


def _scores(state: State) -> tuple[float, ...]:
    try:
        return tuple(float(s) for s in state.scores())
    except (GameError, *RULE_SLIPS):
        return ()


def count_bot_picks(state: State, recorder: Recorder) -> None:
    """Game bots decide inside the state: their picks are the game log's lines
    `P<n> (<bot>): <action>`, counted when that seat is played by that bot."""
    bots = state.gd.bots
    for line in state.log:
        found = BOT_PICK.match(line)
        if found is None:
            continue
        seat = int(found.group(1)) - 1
        if 0 <= seat < state.n and found.group(2) == state.seats[seat] and found.group(2) in bots:
            text = found.group(3)
            recorder.plays[(seat, action_name(text))] += 1
            for card in set(CARD_IN_TEXT.findall(text)):
                recorder.plays[(seat, "card " + card)] += 1


def action_name(text: str) -> str:
    """"action NAME" of an action's text: its first word, past the `P2: ` a pick in a
    simultaneous step is written with (`P2: bid king#5` is a play of `bid`)."""
    return "action " + split_pick(text)[1].split(" ", 1)[0]
