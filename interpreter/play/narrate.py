"""Narration for people: each seat's moves in words, and what changed on the table.

The terminal (and the web table) tell a person what the other seats did. An agent's
move is told by the action's `label` (or its id and parameters, cards by name), read
in the state where it was chosen. Game bots decide inside the state (`bots:` in the
rules) and leave no move behind, so what they did is told as the difference between
two observations of the person: counters that changed and cards that came or went,
per player. Only observations are compared, so nothing hidden is told.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs

from interpreter.model import GameDef
from interpreter.runtime.actions import DONE, Action
from interpreter.runtime.present import card_names, logged_action, named_card, option_text, people_text
from interpreter.runtime.records import PendingChoice
from interpreter.runtime.state import State

CARD = re.compile(r"[A-Za-z0-9_-]+#\d+")


@attrs.define
class Move:
    """One seat's move as people read it."""

    player: int
    words: str


@attrs.define
class LogSeen:
    """How far a front-end has told the game log and the game bots' picks in words."""

    log: int = 0
    picks: int = 0

    @classmethod
    def all_of(cls, state: State) -> LogSeen:
        """Everything so far told (a resumed game's past)."""
        return cls(len(state.log), len(state.picks or ()))


def new_log_lines(state: State, seen: LogSeen) -> list[str]:
    """The game log's lines since `seen` (which moves on), each game bot's pick in words
    where the state recorded it (`State.picks`: cards still as `id#copy`, for `redact`)."""
    picks = state.picks or []
    at = seen.picks
    lines: list[str] = []
    for i in range(seen.log, len(state.log)):
        line = state.log[i]
        while at < len(picks) and picks[at][0] <= i:
            where, words, stands_for = picks[at]
            at += 1
            if stands_for and where == i:
                line = words
            elif not stands_for:
                lines.append(words)
        lines.append(line)
    lines.extend(words for _, words, _ in picks[at:])  # picks after the last line
    seen.log, seen.picks = len(state.log), len(picks)
    return lines


@attrs.define
class Snapshot:
    """What one person saw at their last decision: their observation, and how far the
    table's moves and the game log had gone."""

    obs: dict[str, Any]
    moves: int
    log: LogSeen
    turn: int


def move_words(state: State, action: Action | str) -> str:
    """The move `action` as people read it, in `state` (before it is applied): the
    action's label, else its id and parameters with cards by name; the answer to a
    choice by its value (a card by its name only)."""
    if isinstance(action, Action):
        chosen: Action | None = action
    else:  # a text: the legal action it names, listed only now
        waiting = state.players_to_act()
        chosen = next((a for a in state.legal_actions(waiting[0]) if a.text == action), None) if waiting else None
    if chosen is None:
        return name_cards(str(action), state.gd)
    pending = state.pending
    if isinstance(pending, PendingChoice):
        value = chosen.payload
        if isinstance(value, str) and value == DONE:
            return "done"
        return "chooses " + people_text(state, value, pending.type)
    try:
        return option_text(state, chosen)
    except (KeyError, IndexError, TypeError, ValueError):  # a simultaneous pick: its text is enough
        return name_cards(chosen.text, state.gd)


def pick_words(state: State, player: int, action: Action | str) -> str:
    """A pick of a simultaneous step in words (its action's label filled in), read
    before it is made, cards as `id#copy`: secret until the step is over, then told to
    each reader through `told`, which names the cards they may see."""
    chosen = action if isinstance(action, Action) else \
        next((a for a in state.legal_actions(player) if a.text == action), None)
    if chosen is None:
        return str(action)
    try:
        return logged_action(state, player, chosen)
    except (KeyError, IndexError, TypeError, ValueError):
        return chosen.text


def card_of(state: State, action: Action) -> str:
    """The name of the first card an action uses (a card parameter, or a card chosen), or ''."""
    pending, payload = state.pending, action.payload
    try:
        if isinstance(pending, PendingChoice):
            return people_text(state, payload, pending.type) if pending.type == "card" else ""
        if isinstance(payload, tuple) and len(payload) == 2 and isinstance(payload[1], tuple):
            adef = state.gd.actions[payload[0]]
            for param, value in zip(adef.params, payload[1], strict=False):
                if param.type == "card":
                    return people_text(state, value, "card")
    except (IndexError, KeyError, TypeError):
        return ""
    return ""


def name_cards(text: str, gd: GameDef) -> str:
    """Free text (a log line, a canonical action text) with every `id#copy` as the card's name."""
    if "#" not in text:
        return text
    names = card_names(gd)
    return CARD.sub(lambda m: named_card(m.group(0), names), text)


def hide_unseen(text: str, seen: set[str]) -> str:
    """Canonical text with the cards not in `seen` replaced by "a hidden card"."""
    return CARD.sub(lambda m: m.group(0) if m.group(0) in seen else "a hidden card", text)


def visible_cards(obs: dict[str, Any]) -> set[str]:
    """The card texts an observation shows (in zones it may see, or revealed)."""
    seen: set[str] = set()
    for value in obs["zones"].values():
        for entry in value if isinstance(value, list) else [value]:
            seen.update(entry.get("cards", ()))
            seen.update(entry.get("revealed", ()))
    return seen


def redact(text: str, state: State, viewers: set[int]) -> str:
    """Text naming cards (`id#copy`) as `viewers` may read it now: the cards none of
    them may see are "a hidden card", the others are named (no viewers: a table of
    agents only, shown in full)."""
    if "#" not in text:
        return text
    if viewers:
        seen: set[str] = set()
        for viewer in viewers:
            seen |= visible_cards(state.observation(viewer))
        text = hide_unseen(text, seen)
    return name_cards(text, state.gd)


def told(state: State, text: str, words: str, viewers: set[int]) -> str:
    """A move as `viewers` read it after it was played (`state`): its words, unless its
    canonical `text` names a card they may not see, then that text with the card hidden."""
    if not words:
        return redact(text, state, viewers)
    if CARD.search(words):  # words naming cards by `id#copy` (a pick's): each named or hidden
        return redact(words, state, viewers)
    if CARD.search(text) and viewers and redact(text, state, viewers) != name_cards(text, state.gd):
        return redact(text, state, viewers)
    return words


# ---- what changed between two observations ------------------------------------------------


def _title(name: str, label: str) -> str:
    """A counter's or zone's name in a line of changes: its label (a long one up to its
    first bracket), else its name in words."""
    if label == name:
        return name.replace("_", " ").replace("-", " ")
    return label.split(" (", 1)[0] or label


def _cards_of(value: Any, names: dict[str, str]) -> tuple[Counter[str] | None, int]:
    """The named cards of a zone entry (None when hidden) and its count."""
    if not isinstance(value, dict):
        return None, 0
    count = int(value.get("count", len(value.get("cards", ()))))
    if "cards" in value:
        return Counter(named_card(c, names) for c in value["cards"]), count
    revealed = value.get("revealed")
    return (Counter(named_card(c, names) for c in revealed) if revealed else None), count


def _zone_change(title: str, before: Any, after: Any, names: dict[str, str]) -> str:
    old, old_count = _cards_of(before, names)
    new, new_count = _cards_of(after, names)
    if old is not None and new is not None and "cards" in (before or {}) and "cards" in (after or {}):
        gained, lost = new - old, old - new
        parts = [f"+{_many(n, k)}" for n, k in gained.items()] + [f"-{_many(n, k)}" for n, k in lost.items()]
        return f"{title} {', '.join(parts)}" if parts else ""
    if old_count != new_count:
        return f"{title} {old_count} -> {new_count} card{'' if new_count == 1 else 's'}"
    return ""


def _many(name: str, count: int) -> str:
    return name if count == 1 else f"{name} x{count}"


def _counter_change(title: str, before: Any, after: Any) -> str:
    if before == after or before is None or after is None:
        return ""
    if isinstance(before, dict) and isinstance(after, dict):
        parts = [f"{k} {before.get(k)} -> {v}" for k, v in after.items() if before.get(k) != v]
        return f"{title}: {', '.join(parts)}" if parts else ""
    if isinstance(before, list) or isinstance(after, list):
        return f"{title} changed"
    return f"{title} {before} -> {after}"


def table_changes(before: dict[str, Any], after: dict[str, Any], gd: GameDef, viewer: int,
                  seats: list[str] | None = None) -> list[str]:
    """What changed between two observations of `viewer`, one line per player (`P2
    (bot-name): pos 0 -> 3; hand +Widget`) and one for the shared table (`Table: ...`)."""
    names = card_names(gd)

    def who(p: int) -> str:
        if p == viewer:
            return f"P{p + 1} (you)"
        bot = seats is not None and p < len(seats) and seats[p] in gd.bots
        return f"P{p + 1} ({seats[p]})" if bot and seats is not None else f"P{p + 1}"

    per_player: dict[int, list[str]] = {}
    shared: list[str] = []
    # counters and zones alike: per player into that player's lines, shared ones apart
    sections: list[tuple[str, dict[str, Any], Callable[[str, Any, Any], str]]] = [
        ("counters", {c.name: c for c in gd.counters}, _counter_change),
        ("zones", {z.name: z for z in gd.zones}, lambda title, a, b: _zone_change(title, a, b, names)),
    ]
    for section, defs, change_of in sections:
        for name, value in after.get(section, {}).items():
            found = None if name in gd.table.hide else defs.get(name)  # bookkeeping is not told
            old = before.get(section, {}).get(name)
            if found is None or old is None:
                continue
            title = _title(name, found.label)
            if found.scope == "player":
                for p, (a, b) in enumerate(zip(old, value, strict=False)):
                    if change := change_of(title, a, b):
                        per_player.setdefault(p, []).append(change)
            elif change := change_of(title, old, value):
                shared.append(change)
    lines = [f"{who(p)}: {'; '.join(parts)}" for p, parts in sorted(per_player.items())]
    if shared:
        lines.append(f"Table: {'; '.join(shared)}")
    return lines


def since_last_turn(state: State, viewer: int, snap: Snapshot, moves: list[Move]) -> list[str]:
    """The "Since your last turn:" lines for `viewer`: the other seats' moves, the game
    bots' picks from the game log, and what changed on the table (nothing when the
    viewer acts again in the same turn and nobody else moved)."""
    others = [m for m in moves[snap.moves:] if m.player != viewer]
    bot_lines = [redact(line, state, {viewer}) for line in new_log_lines(state, attrs.evolve(snap.log))
                 if re.match(r"^P\d+ \([^)]*\): ", line)]
    if not others and not bot_lines and state.turn_no == snap.turn:
        return []
    lines = [f"P{m.player + 1}: {m.words}" for m in others] + bot_lines
    changes = table_changes(snap.obs, state.observation(viewer), state.gd, viewer, list(state.seats))
    if changes:
        lines.append("On the table:")
        lines.extend("  " + change for change in changes)
    return ["Since your last turn:", *("  " + line for line in lines)] if lines else []
