"""Text the terminal prints besides the table view: wrapping to the terminal's width,
the numbered options (copies told apart), a card looked up by name, and the end of a
game (scores, winners, why it ended, and a showdown of what players held).

Everything here reads a state or its definition and returns lines; printing is the
terminal's job (terminal.py), so the same lines serve tests and other front ends.
"""

from __future__ import annotations

import shutil
import textwrap
from collections import Counter
from typing import Any

from interpreter.model import CardDef, GameDef
from interpreter.runtime.errors import RULE_SLIPS
from interpreter.runtime.present import card_names, cards_text, describe_result, winners_text
from interpreter.runtime.state import State

DEFAULT_WIDTH = 80
NARROWEST = 20  # below this, wrapping helps nobody: lines are cut at this width at least
END_WORDS = {"end-game": "the rules ended the game", "flow-ended": "the game's course ran out"}


# ---- width --------------------------------------------------------------------------------


def terminal_width() -> int:
    """The terminal's width ($COLUMNS first), 80 when it cannot be told (a pipe)."""
    return max(shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns, NARROWEST)


def wrap(text: str, width: int) -> list[str]:
    """`text` as lines of at most `width` characters; a wrapped line goes on indented
    under its own first character, so tables and lists stay readable."""
    out: list[str] = []
    for line in text.split("\n"):
        line = line.rstrip()
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * min(len(line) - len(line.lstrip(" ")) + 4, width // 2)
        out.extend(textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False,
                                 replace_whitespace=False) or [""])
    return out


# ---- options --------------------------------------------------------------------------------


def distinct(texts: list[str]) -> list[str]:
    """The texts with repeats told apart by a suffix: `Fuel Cell (1)`, `Fuel Cell (2)`."""
    totals = Counter(texts)
    seen: Counter[str] = Counter()
    shown = []
    for text in texts:
        if totals[text] > 1:
            seen[text] += 1
            shown.append(f"{text} ({seen[text]})")
        else:
            shown.append(text)
    return shown


# ---- a card by name --------------------------------------------------------------------------


def find_cards(gd: GameDef, query: str) -> list[CardDef]:
    """The cards meant by `query` (case-insensitive): an exact name or id, else the
    names or ids it begins, else those containing it; one per distinct name."""
    wanted = " ".join(query.split()).lower()
    if not wanted:
        return []
    for test in (lambda c: wanted in (c.name.lower(), c.id.lower()),
                 lambda c: c.name.lower().startswith(wanted) or c.id.lower().startswith(wanted),
                 lambda c: wanted in c.name.lower()):
        found = [c for c in gd.cards if test(c)]
        if found:
            by_name: dict[str, CardDef] = {}
            for card in found:
                by_name.setdefault(card.name, card)
            return list(by_name.values())
    return []


def card_lines(gd: GameDef, query: str) -> list[str]:
    """What `show CARD` prints: the card's name, type, text and properties, or why not."""
    found = find_cards(gd, query)
    if not found:
        return [f"No card '{query}' in {gd.name}. Type 'show' and the start of a card's name."]
    if len(found) > 1:
        names = ", ".join(c.name for c in found[:10]) + (" ..." if len(found) > 10 else "")
        return [f"'{query}' could be: {names}. Type more of the name."]
    card = found[0]
    copies = sum(c.count for c in gd.cards if c.name == card.name)
    lines = [f"{card.name} ({card.type}{f', {copies} copies' if copies > 1 else ''})"]
    text = card.properties.get("text")
    if isinstance(text, str) and text:
        lines.append(f"  {text}")
    for key, value in card.properties.items():
        if key != "text":
            lines.append(f"  {key}: {_value(value)}")
    if card.tags:
        lines.append(f"  tags: {', '.join(card.tags)}")
    return lines


def _value(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)


# ---- the end of a game -----------------------------------------------------------------------


def end_reason(reason: str | None) -> str:
    """Why a game ended, in words: its end condition's name (`tenth-ship` -> `tenth ship`)."""
    if not reason:
        return "the game is over"
    return END_WORDS.get(reason, reason.replace("-", " ").replace("_", " "))


def final_scores(state: State) -> str:
    """`Final scores: P1 12, P2 9 (not eligible)` by the game's scoring, or '' without one."""
    scoring = state.gd.scoring
    if scoring.score is None:
        return ""
    try:
        scores = state.scores()
        eligible = [True] * state.n if scoring.eligible is None else \
            [bool(scoring.eligible(state, {"p": p, "me": p})) for p in range(state.n)]
    except RULE_SLIPS:
        return ""
    if not any(scores):  # a game whose end conditions name the winners (`score: "0"`)
        return ""
    parts = [f"P{p + 1} {_number(s)}{'' if ok else ' (could not win)'}"
             for p, (s, ok) in enumerate(zip(scores, eligible, strict=True))]
    return "Final scores: " + ", ".join(parts)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def result_lines(state: State) -> list[str]:
    """The end of a game for people: why it ended, the scores, the winners, returns."""
    result = state.result()
    scores = final_scores(state)
    return [f"Game over: {end_reason(result.get('reason'))}.", *([scores] if scores else []),
            winners_text(result["winners"], list(state.seats)), *describe_result(result, list(state.seats))[1:]]


def showdown_lines(state: State) -> list[str]:
    """At the end, what each player held in zones only they could see (their hands),
    shown to all: once the game is over nothing is left to hide. Zones nobody sees (a
    deck) stay hidden."""
    names = card_names(state.gd)
    lines = []
    for zdef in state.gd.zones:
        if zdef.scope != "player" or zdef.visible != "owner":
            continue
        held = []
        for p in range(state.n):
            entry = state.observation(p)["zones"].get(zdef.name)
            cards = entry[p].get("cards", []) if isinstance(entry, list) else []
            held.append(cards)
        if any(held):
            title = zdef.label if zdef.label != zdef.name else zdef.name.replace("_", " ")
            shown = " | ".join(f"P{p + 1} {cards_text(c, names) if c else 'empty'}" for p, c in enumerate(held))
            lines.append(f"  {title}: {shown}")
    return ["Showdown (what each player held):", *lines] if lines else []
