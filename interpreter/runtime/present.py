"""Text for people: values, cards, templates, views and whole observations in words.

One module for everything a person reads of a state (terminal, `str(state)`, log lines,
game views), so cards are named the same way everywhere. Canonical action texts (which
must parse back) are not made here but in `actions.py`. A card offered to a player who
may not see it (a `HiddenCard`) reads as its place, "a hidden card (1 of 3 in P2's
hand)", in values, labels and options alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import RuleRuntimeError
from interpreter.limits import MAX_LENGTH
from interpreter.model import GameDef
from interpreter.runtime.actions import DONE, HiddenCard
from interpreter.runtime.records import PendingActions, PendingChoice
from interpreter.runtime.work import own_budget

if TYPE_CHECKING:
    from interpreter.runtime.actions import Action
    from interpreter.runtime.state import State


def people_text(st: State, value: Any, type_: str) -> str:
    """A value for people (log lines, views): cards by name, players as P1.., strings as
    they are, lists joined with commas. Unlike `render`, it need not parse back."""
    if value is None:
        return "none"
    if type_ == "card" and type(value) is int:
        return str(st.gd.cards[st.card_def[value]].name)
    if type_ == "player" and type(value) is int:
        return f"P{value + 1}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        inner = type_[5:] if type_.startswith("list:") else "any"
        return joined_text(", ", [people_text(st, v, inner) for v in value])
    if type(value) is HiddenCard:
        return hidden_card_text(st, value)
    return str(value)


def joined_text(sep: str, parts: list[str]) -> str:
    """`sep.join(parts)`, refused (a rule error) past MAX_LENGTH characters before it is
    made: a list of a million texts of a million characters each is a list a game may
    keep, but not a text anyone can read (or any machine hold)."""
    size = sum(map(len, parts)) + len(sep) * max(0, len(parts) - 1)
    if size > MAX_LENGTH:
        raise RuleRuntimeError(f"a text too long to make ({size:,} > {MAX_LENGTH:,} characters)", code="limit")
    return sep.join(parts)


def hidden_card_text(st: State, value: HiddenCard) -> str:
    """A card offered by its place, as people read it: `a hidden card (1 of 3 in P2's hand)`."""
    layout = st.layout
    zone = st.gd.zones[layout.zdef[value.slot]]
    owner = layout.zowner[value.slot]
    where = zone.label if owner < 0 else f"P{owner + 1}'s {zone.label}"
    return f"a hidden card ({value.position} of {value.of} in {where})"


def render_template(st: Any, parts: list[Any] | tuple[Any, ...], env: dict[str, Any]) -> str:
    return "".join(p if isinstance(p, str) else people_text(st, p[0](st, env), p[1]) for p in parts)


def seat_name(player: int, viewers: set[int] | None = None) -> str:
    """`P2`, or `P1 (you)` for the single human at the table."""
    you = viewers is not None and len(viewers) == 1 and player in viewers
    return f"P{player + 1}{' (you)' if you else ''}"


NOTES_SHOWN = 5  # the latest notes a person's view lists


def render_observation(obs: dict[str, Any], gd: GameDef, viewers: set[int], full: bool = True) -> list[str]:
    """Lines showing one player's observation: turn, the game's views, counters, zones.
    With `full` False and views defined, the views stand for the whole table (the
    generic listing is long for big games; `view all` shows it)."""
    lines = [f"Turn {obs['turn']}" + (f", round {obs['round']}" if obs["round"] else "")
             + ("; all players pick at once, unseen" if obs.get("current_player") == -2  # a simultaneous step
                else f"; active player P{obs['active'] + 1}")]
    labels = {view.id: view.label for view in gd.views}
    for view_id, text in (obs.get("views") or {}).items():
        # The game's own views of the table come first: they are made for people.
        lines.append(f"{labels.get(view_id, view_id)}:")
        lines.extend("  " + line for line in text.rstrip("\n").split("\n"))
    if obs.get("notes"):
        # What the rules showed this player only (`show ... to`): the latest few.
        lines.append("Shown to you:")
        lines.extend("  " + note for note in obs["notes"][-NOTES_SHOWN:])
    if obs.get("views") and not full:
        lines.append("(type 'all' to see every counter and zone)")
        return lines
    counters = {c.name: c for c in gd.counters}
    zones = {z.name: z for z in gd.zones}
    names = card_names(gd)
    hide = gd.table.hide  # bookkeeping (`table: hide:`): never shown to people
    shown_counters = [(n, v) for n, v in obs["counters"].items() if n not in hide]
    shown_zones = [(n, v) for n, v in obs["zones"].items() if n not in hide]
    if shown_counters:
        lines.append("Counters:")
        for name, value in shown_counters:
            cdef = counters[name]
            shown = _per_player(value, viewers, counter_text) if cdef.scope == "player" else counter_text(value)
            lines.append(f"  {_titled(name, cdef.label)}: {shown}")
    if shown_zones:
        lines.append("Zones:")
        for name, value in shown_zones:
            zdef = zones[name]
            def show(v: Any) -> str:
                return _zone_text(v, names)
            shown = _per_player(value, viewers, show) if zdef.scope == "player" else show(value)
            lines.append(f"  {_titled(name, zdef.label)}: {shown}")
    return lines


def _titled(name: str, label: str) -> str:
    """A counter's or zone's title for people: its label (the rules' words), else its name in words."""
    return words_of(name) if label == name else label


def _per_player(values: list[Any], viewers: set[int], show: Callable[[Any], str]) -> str:
    return " | ".join(f"{seat_name(p, viewers)} {show(v)}" for p, v in enumerate(values))


def counter_text(value: Any) -> str:
    """A counter's value as shown to people: `hidden`, `gold 2, wood 1`, `0 1 2`, `3`."""
    if value is None:
        return "hidden"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(str(v) for v in value)
    return str(value)


def _zone_text(value: Any, names: dict[str, str] | None = None) -> str:
    count = value.get("count", 0)
    if "cards" in value:
        return cards_text(value["cards"], names) if value["cards"] else "empty"
    text = "empty" if count == 0 else f"{count} card{'s' if count != 1 else ''} (hidden)"
    backs = value.get("backs") or {}
    if len(backs) > 1 or any(backs):  # what the backs show, in a game whose cards declare them
        text = text[:-1] + ": " + ", ".join(f"{n} {back or 'plain'}" for back, n in sorted(backs.items())) + ")"
    if value.get("revealed"):
        text += f", revealed: {cards_text(value['revealed'], names)}"
    return text


def card_names(gd: GameDef) -> dict[str, str]:
    """Card id -> the card's name, for people (`gold-coin` -> `Gold Coin`)."""
    return {card.id: str(card.name) for card in gd.cards}


def named_card(text: str, names: dict[str, str]) -> str:
    """A card's canonical text (`gold-coin#0`) as people read it: its name (`Gold Coin`)."""
    card_id, sep, _ = text.rpartition("#")
    return names.get(card_id, text) if sep else text


def cards_text(cards: list[str], names: dict[str, str] | None = None) -> str:
    """Card texts in order, runs of copies of one card shortened. With `names` (people
    read names, never copy numbers): `Widget x20`; without: `widget x20 (#0-#19)`."""
    if names is not None:
        named: list[tuple[str, int]] = []
        for card in cards:
            name = named_card(card, names)
            if named and named[-1][0] == name:
                named[-1] = (name, named[-1][1] + 1)
            else:
                named.append((name, 1))
        return ", ".join(name if count == 1 else f"{name} x{count}" for name, count in named)
    runs: list[tuple[str, list[str]]] = []
    for card in cards:
        card_id, _, number = card.rpartition("#")
        if runs and runs[-1][0] == card_id:
            runs[-1][1].append(number)
        else:
            runs.append((card_id, [number]))
    return ", ".join(_run_text(card_id, numbers) for card_id, numbers in runs)


def _run_text(card_id: str, numbers: list[str]) -> str:
    if len(numbers) < 3:
        return ", ".join(f"{card_id}#{n}" for n in numbers)
    digits = [int(n) for n in numbers if n.isdigit()]
    if len(digits) == len(numbers) and digits == list(range(digits[0], digits[0] + len(digits))):
        return f"{card_id} x{len(numbers)} (#{numbers[0]}-#{numbers[-1]})"
    shown = ", ".join(f"#{n}" for n in numbers[:4]) + (", ..." if len(numbers) > 4 else "")
    return f"{card_id} x{len(numbers)} ({shown})"


def describe_result(result: dict[str, Any], seats: list[str]) -> list[str]:
    """Lines saying how a game ended: winners, returns, length."""
    who = winners_text(result["winners"], seats)
    returns = ", ".join(f"P{i + 1} {_signed(r)}" for i, r in enumerate(result["returns"]))
    reason = f" ({result['reason']})" if result.get("reason") else ""
    return [
        f"Game over{reason}. {who}",
        f"Returns: {returns}",
        # (a game its bots played alone has no actions from outside: only its turns are said)
        f"{str(result['actions']) + ' actions, ' if result['actions'] else ''}"
        f"{result['turns']} turns, {result['rounds']} rounds.",
    ]


def winners_text(winners: list[int], seats: list[str]) -> str:
    """`Winner: P2 (random).`, `Everyone wins ...`, `No winner.`"""
    if not winners:
        return "No winner."
    if len(winners) == len(seats):
        return "Everyone wins (a shared victory)." if len(seats) > 1 else "P1 wins."
    names = ", ".join(f"P{w + 1} ({seats[w]})" for w in winners)
    return f"Winner{'s' if len(winners) > 1 else ''}: {names}."


def _signed(value: float) -> str:
    number = int(value) if float(value).is_integer() else value
    return f"+{number}" if value > 0 else f"{number}"


def action_label(state: State, action: Action) -> str:
    """The people's text of an action (its `label:` with parameters filled in), or ''."""
    pending = state.pending
    if not isinstance(pending, PendingActions) or not isinstance(action.payload, tuple):
        return ""
    index, values = action.payload
    adef = state.gd.actions[index]
    if adef.label == adef.id or not adef.label_parts:
        return ""
    env: dict[str, Any] = {"me": pending.player}
    env.update((p.name, v) for p, v in zip(adef.params, values, strict=True))
    hidden = {name for name, v in env.items() if type(v) is HiddenCard}
    # (a budget of its own: a label is worked out between decisions, runtime/work.py)
    label = own_budget(state, _blind_label, state, adef.label_parts, env, hidden) if hidden else \
        own_budget(state, render_template, state, adef.label_parts, env)
    return "" if label == action.text else label


def _blind_label(st: State, parts: tuple[Any, ...], env: dict[str, Any], hidden: set[str]) -> str:
    """A label some of whose parameters are hidden cards. A part that is such a
    parameter alone reads as its place; any other part that reads one is `?`, since
    working it out (`{card.cost}`) would tell what the card is; the rest as usual."""
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
            continue
        if part.bare in hidden:
            out.append(hidden_card_text(st, env[part.bare]))
        elif part.names & hidden:
            out.append("?")
        else:
            out.append(people_text(st, part[0](st, env), part[1]))
    return "".join(out)


def words_of(name: str) -> str:
    """A rule name (`end_turn`, `bank-trade`) as words people read: `end turn`."""
    return name.replace("_", " ").replace("-", " ")


def option_text(state: State, action: Action) -> str:
    """A legal action as people read it: the action's label when it has one, else its
    id and parameters with cards by name; an option of a choice by its value, a card by
    its name and (when the card has one) its `text` property."""
    pending = state.pending
    if isinstance(pending, PendingChoice):
        value = action.payload
        if isinstance(value, str) and value == DONE:
            return "done"
        if pending.type == "card" and type(value) is int:
            card = state.gd.cards[state.card_def[value]]
            return f"{card.name}: {card.text}" if card.text else card.name
        return people_text(state, value, pending.type)
    label = action_label(state, action)
    if label:
        return label
    if isinstance(pending, PendingActions) and isinstance(action.payload, tuple):
        index, values = action.payload
        adef = state.gd.actions[index]
        shown = [people_text(state, v, param.type) for param, v in zip(adef.params, values, strict=True)]
        return " ".join([words_of(adef.id), *shown])
    return action.text


# ---- a game bot's pick, for the game log ------------------------------------------------


def logged_value(st: State, value: Any, type_: str) -> str:
    """A value as a log line names it: as `people_text`, but a card as its canonical
    `id#copy`, so each reader's narration names it or hides it by what that reader may
    see (the log is public; a card is not)."""
    if type_ == "card" and type(value) is int:
        return f"{st.gd.cards[st.card_def[value]].id}#{value}"
    if isinstance(value, list):
        inner = type_[5:] if type_.startswith("list:") else "any"
        return joined_text(", ", [logged_value(st, v, inner) for v in value])
    return people_text(st, value, type_)


def logged_action(st: State, player: int, action: Action) -> str:
    """A game bot's action as the game log tells it: its label filled in (cards by
    `id#copy`), else its name in words with its parameters."""
    if not isinstance(action.payload, tuple) or len(action.payload) != 2:
        return action.text
    index, values = action.payload
    adef = st.gd.actions[index]
    env: dict[str, Any] = {"me": player}
    env.update((p.name, v) for p, v in zip(adef.params, values, strict=False))
    if adef.label != adef.id and adef.label_parts and not any(type(v) is HiddenCard for v in values) \
            and not _label_reads_cards(adef.label_parts, {p.name for p in adef.params if p.type == "card"}):
        return own_budget(st, _logged_template, st, adef.label_parts, env)
    shown = [logged_value(st, v, p.type) for p, v in zip(adef.params, values, strict=False)]
    return " ".join([words_of(adef.id), *shown])


def _label_reads_cards(parts: tuple[Any, ...], cards: set[str]) -> bool:
    """Whether a label works something out of a card parameter (`{c.cost}`): told to
    every reader, that would say what a card some of them may not see is (what each
    part reads was found when it compiled: TemplatePart)."""
    return any(not isinstance(part, str) and part.bare is None and part.names & cards for part in parts)


def _logged_template(st: State, parts: tuple[Any, ...], env: dict[str, Any]) -> str:
    return "".join(p if isinstance(p, str) else logged_value(st, p[0](st, env), p[1]) for p in parts)


def logged_choice(st: State, prompt: str, value: Any, type_: str) -> str:
    """A game bot's answer to a choice as the game log tells it: `PROMPT: VALUE`, the
    prompt cut at its first bracket or colon (the rest explains the choice)."""
    short = prompt
    for mark in (" (", ":"):
        short = short.split(mark, 1)[0]
    shown = "done" if isinstance(value, str) and value == DONE else logged_value(st, value, type_)
    return f"{short.strip()}: {shown}" if short.strip() else f"chooses {shown}"
