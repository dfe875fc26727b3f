"""Text the terminal prints besides the table view: wrapping to the terminal's width,
the numbered options (copies told apart), a card looked up by name, and the end of a
game (scores, winners, why it ended, a showdown of what players held, and the seed).

Everything here reads a state or its definition and returns lines; printing is the
terminal's job (terminal.py), so the same lines serve tests and other front ends.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from collections import Counter
from fractions import Fraction
from typing import Any

from interpreter.model import CardDef, GameDef
from interpreter.play.showdown import shown_at_end
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


GAP = re.compile(r"(?<=\S) {2,}(?=\S)")  # what separates a table's cells: two spaces or more
NARROWEST_COLUMN = 6
MIN_REST = 24  # the room a table's joined last columns need at least


def fit(lines: list[str], width: int) -> list[str]:
    """Lines fitted to `width`: a table too wide for it (consecutive rows of cells
    separated by two spaces or more, aligned) is laid out again with narrower columns,
    each cell wrapped inside its column; any other long line wraps."""
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        while j < len(lines) and _row(lines[j]) is not None and _indent(lines[j]) == _indent(lines[i]):
            j += 1
        block = lines[i:j]
        if len(block) >= 2 and any(len(line) > width for line in block):
            out.extend(_table(block, width))
            i = j
            continue
        out.extend(wrap(lines[i], width))
        i += 1
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _row(line: str) -> list[tuple[int, str]] | None:
    """A table row's cells with where each starts, or None for a line that is not one."""
    if "\n" in line or not GAP.search(line.strip()):
        return None
    cells, start = [], 0
    for match in re.finditer(r"\S+(?: \S+)*", line):
        cells.append((match.start(), match.group(0)))
        start = match.end()
    return cells if len(cells) >= 2 and start else None


def _table(block: list[str], width: int) -> list[str]:
    """A table laid out again within `width`: all columns narrowed, or the first ones
    kept and the rest of each row wrapped as one cell, whichever takes fewer lines."""
    rows = [_row(line) or [] for line in block]
    starts = sorted({start for row in rows for start, _ in row})
    if len(starts) > max(len(row) for row in rows):  # cells not in columns: each row wraps on its own
        return [piece for line, row in zip(block, rows, strict=True) for piece in _hanging(line, row, width)]
    indent = _indent(block[0])
    grid = [[""] * len(starts) for _ in rows]
    for r, row in enumerate(rows):
        for start, cell in row:
            grid[r][starts.index(start)] = cell
    layouts = [layout for layout in (_narrowed(grid, indent, width), _kept(grid, indent, width)) if layout]
    if not layouts:
        return [piece for line in block for piece in wrap(line, width)]
    return min(layouts, key=len)


def _natural(grid: list[list[str]], columns: int) -> list[int]:
    return [max(len(row[c]) for row in grid) for c in range(columns)]


def _narrowed(grid: list[list[str]], indent: int, width: int) -> list[str]:
    columns = len(grid[0])
    widths = _natural(grid, columns)
    words = [max([NARROWEST_COLUMN, *(len(w) for row in grid for w in row[c].split())]) for c in range(columns)]
    room = width - indent - 2 * (columns - 1)
    for floor in (words, [NARROWEST_COLUMN] * columns):
        while sum(widths) > room:
            wide = [c for c in range(columns) if widths[c] > floor[c]]
            if not wide:
                break
            widths[max(wide, key=lambda c: widths[c])] -= 1
    return _laid_out(grid, widths, indent) if sum(widths) <= room else []


def _kept(grid: list[list[str]], indent: int, width: int) -> list[str]:
    """The first columns as they are, the others joined (`-` for an empty cell) in one
    wrapped cell: for tables whose last columns are text."""
    natural = _natural(grid, len(grid[0]))
    kept, used = 0, indent
    while kept < len(natural) - 1 and used + natural[kept] + 2 + MIN_REST <= width:
        used += natural[kept] + 2
        kept += 1
    if kept == 0:
        return []
    merged = [row[:kept] + ["  ".join(cell or "-" for cell in row[kept:]).rstrip(" -")] for row in grid]
    return _laid_out(merged, natural[:kept] + [width - used], indent)


def _laid_out(grid: list[list[str]], widths: list[int], indent: int) -> list[str]:
    out = []
    for row in grid:
        cells = [textwrap.wrap(cell, w, break_on_hyphens=False) or [""] for cell, w in zip(row, widths, strict=True)]
        for k in range(max(len(c) for c in cells)):
            parts = [(c[k] if k < len(c) else "").ljust(w) for c, w in zip(cells, widths, strict=True)]
            out.append((" " * indent + "  ".join(parts)).rstrip())
    return out


def _hanging(line: str, row: list[tuple[int, str]], width: int) -> list[str]:
    """A row too long for `width`, wrapped from the cell that crosses the edge, under
    that cell (when it leaves room enough), so the columns before it stay in place."""
    if len(line) <= width:
        return [line]
    start = max((s for s, cell in row if s + len(cell) > width and s <= width - NARROWEST_COLUMN * 3), default=None)
    if start is None or start == row[0][0]:
        return wrap(line, width)
    pieces = textwrap.wrap(line[start:], width - start, break_on_hyphens=False) or [""]
    return [(line[:start] + pieces[0]).rstrip(), *(" " * start + piece for piece in pieces[1:])]


# ---- options --------------------------------------------------------------------------------


def distinct(texts: list[str], anchors: list[str] | None = None) -> list[str]:
    """The texts with repeats told apart by a suffix: `Widget (1)`, `Widget (2)`.
    The suffix follows the text's anchor (the name of the card the option uses) where
    the text has it, else it ends the text."""
    totals = Counter(texts)
    seen: Counter[str] = Counter()
    shown = []
    for i, text in enumerate(texts):
        if totals[text] < 2:
            shown.append(text)
            continue
        seen[text] += 1
        anchor = anchors[i] if anchors is not None and i < len(anchors) else ""
        at = text.find(anchor) if anchor else -1
        if at >= 0:
            end = at + len(anchor)
            shown.append(f"{text[:end]} ({seen[text]}){text[end:]}")
        else:
            shown.append(f"{text} ({seen[text]})")
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
    if card.text:  # `text:`, or `properties.text` in files written before it
        lines.append(f"  {card.text}")
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


def end_reason(reason: str | None, state: State | None = None) -> str:
    """Why a game ended, in words: its end condition's `label`, else its name
    (`tenth-ship` -> `tenth ship`); ended by an effect's `end game`, the last thing the
    game log told (what the rules said as they ended it)."""
    if not reason:
        return "the game is over"
    if state is not None:
        found = next((end for end in state.gd.ends if end.id == reason), None)
        if found is not None and found.label:
            return found.label
        if reason == "end-game" and state.log:
            return f"{END_WORDS[reason]} ({state.log[-1].strip().rstrip('.')})"
    return END_WORDS.get(reason, reason.replace("-", " ").replace("_", " "))


def final_scores(state: State) -> str:
    """`Final scores: P1 12, P2 9 (not eligible)` by the game's scoring, or '' without
    one; with the scoring's `parts`, a line per player saying how the score is made up
    (`P1 28 = VP track 25 + best Personal Goal 3`), what they leave out as `other`."""
    scoring = state.gd.scoring
    if scoring.score is None:
        return ""
    try:
        scores = state.scores(exact=True)  # (a fraction shows as 7/2, as in the log)
        eligible = [True] * state.n if scoring.eligible is None else \
            [bool(scoring.eligible(state, {"p": p, "me": p})) for p in range(state.n)]
        parts = [[(part.label, part.score(state, {"p": p, "me": p})) for part in scoring.parts]
                 for p in range(state.n)]
    except RULE_SLIPS:
        return ""
    if not any(scores) and scoring.eligible is None:  # end conditions name the winners (`score: "0"`)
        return ""
    unable = f" ({scoring.ineligible}: could not win)" if scoring.ineligible else " (could not win)"
    if not scoring.parts:
        return "Final scores: " + ", ".join(f"P{p + 1} {_number(s)}{'' if ok else unable}"
                                            for p, (s, ok) in enumerate(zip(scores, eligible, strict=True)))
    lines = ["Final scores:"]
    for p, (score, ok) in enumerate(zip(scores, eligible, strict=True)):
        made = [f"{label} {_number(value)}" for label, value in parts[p]]
        other = score - sum(value for _, value in parts[p])
        if other:
            made.append(f"other {_number(other)}")
        lines.append(f"  P{p + 1} {_number(score)} = {' + '.join(made)}{'' if ok else unable}")
    return "\n".join(lines)


def _number(value: Any) -> str:
    if type(value) is Fraction:
        return str(value)
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def result_lines(state: State) -> list[str]:
    """The end of a game for people: why it ended, the scores, the winners, returns."""
    result = state.result()
    scores = final_scores(state)
    return [f"Game over: {end_reason(result.get('reason'), state)}.", *(scores.split("\n") if scores else []),
            winners_text(result["winners"], list(state.seats)), *describe_result(result, list(state.seats))[1:]]


def seed_line(seed: int) -> str:
    """The seed, said when the game is over so that it can be dealt again. Never part of
    `result_lines` (which browser pages are sent too) nor said before the end: a seed
    tells every card the game deals."""
    return f"Seed: {seed} (--seed {seed} deals this game again)."


def showdown_lines(state: State) -> list[str]:
    """At the end, the private cards the rules looked at to end the game (a showdown:
    play/showdown.py), shown to all; none after a fold, where nobody's hand is read."""
    shown = shown_at_end(state)
    if not shown:
        return []
    names = card_names(state.gd)
    lines = []
    for zdef in state.gd.zones:
        players = sorted(p for name, p in shown if name == zdef.name)
        if not players:
            continue
        held = []
        for p in players:
            entry = state.observation(p)["zones"].get(zdef.name)
            cards = entry[p].get("cards", []) if isinstance(entry, list) else []
            held.append(f"P{p + 1} {cards_text(cards, names) if cards else 'empty'}")
        title = zdef.label if zdef.label != zdef.name else zdef.name.replace("_", " ")
        lines.append(f"  {title}: {' | '.join(held)}")
    return ["Showdown (the cards the rules compared at the end):", *lines]
