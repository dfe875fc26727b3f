"""The actions a player cannot take yet, each with its reason where the rules say one.

Shown after the legal actions so a person learns what is out of reach and why:
`buy Cruiser - needs 7 credits (you have 3)` (the action's `cost`), `launch ... - once
per turn` (its `limit`), or its `condition` failing: the first of the action's `why_not:`
reasons that holds (`launch - all 12 Space cards must be placed first`), else `not
now`; a `why_not:` entry with `hide: true` leaves the action out (it is not this
player's to take: another player's power). Candidates are the action's
parameter choices as the rules list them; a choice the rules filter out already (an
affordable-only list) is not known here and is not shown, nor is a candidate naming a
card the player may not see (runtime/blind.py). Four or more choices of one action
out of reach for one reason are one line, `use Chopsticks (12 ways) - not now`, not one
line per combination. Reading never changes the state: domains, conditions and costs are pure
expressions.
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.model import ActionDef
from interpreter.runtime.blind import hides_card
from interpreter.runtime.errors import RULE_SLIPS
from interpreter.runtime.present import people_text, render_template
from interpreter.runtime.records import PendingActions
from interpreter.runtime.state import State

GROUPS_SHOWN = 5  # reasons told after the legal actions (one group of actions each)
PER_GROUP = 3  # actions named per reason; the others counted
MOST_CANDIDATES = 200  # parameter combinations looked at per action (a listing, not a search)
COUNTED_FROM = 4  # an action's choices out of reach for one reason: listed up to 3, counted from 4
LIMIT_WORDS = {"turn": "once per turn", "round": "once per round", "game": "once per game"}


@attrs.define
class Blocked:
    """An action out of reach now: its text for people and why."""

    text: str
    reason: str


def blocked_actions(state: State, legal_texts: set[str]) -> list[Blocked]:
    """The actions of the pending group that are not legal now, with their reasons
    (none outside an action group, e.g. in a choice inside an effect)."""
    pending = state.pending
    if not isinstance(pending, PendingActions) or state.is_terminal():
        return []
    found: list[Blocked] = []
    seen: set[str] = set()
    # Reading has a work budget of its own, as listing the legal actions, and the same
    # memo of declared values (the state's own: work.py, counters.value_of).
    work, state.work, state.memo = state.work, 0, {}
    try:
        for action in state.gd.groups.get(pending.group, ()):
            mine: list[Blocked] = []
            try:
                _blocked_of(state, action, pending.player, legal_texts, mine, seen)
            except (*RULE_SLIPS, RecursionError):  # a reading the rules do not support: show nothing for it
                continue
            found += _grouped(action, mine)
    finally:
        state.work, state.memo = work, None
    return found


def blocked_summary(blocked: list[Blocked]) -> str:
    """The actions out of reach grouped by reason, a few of each named:
    `buy Widget, buy Gadget - needs 5 credits (you have 2); launch - not now`."""
    by_reason: dict[str, list[str]] = {}
    for item in blocked:
        by_reason.setdefault(item.reason, []).append(item.text)
    parts = []
    for reason, texts in list(by_reason.items())[:GROUPS_SHOWN]:
        named = ", ".join(texts[:PER_GROUP]) + (f" and {len(texts) - PER_GROUP} more" if len(texts) > PER_GROUP else "")
        parts.append(f"{named} - {reason}")
    more = len(by_reason) - GROUPS_SHOWN
    return "; ".join(parts) + (f"; and {more} more reason{'s' if more > 1 else ''}" if more > 0 else "")


def _blocked_of(state: State, action: ActionDef, player: int, legal: set[str], out: list[Blocked],
                seen: set[str]) -> None:
    for values in _candidates(state, action, player):
        if hides_card(state, player, (p.type for p in action.params), values):
            continue  # a card the player may not see is never named, nor told apart by a reason
        env: dict[str, Any] = {"me": player}
        env.update((p.name, v) for p, v in zip(action.params, values, strict=True))
        text = _text(state, action, env, values)
        canonical = " ".join([action.id, *(state.render_value(v, p.type) for p, v in
                                           zip(action.params, values, strict=True))])
        if canonical in legal or text in seen:
            continue
        reason = _reason(state, action, player, env)
        if reason:
            seen.add(text)
            out.append(Blocked(text, reason))


def _grouped(action: ActionDef, blocked: list[Blocked]) -> list[Blocked]:
    """An action's choices out of reach, by reason (in the order each reason first
    came): a few are listed, many for one reason are counted on one line."""
    by_reason: dict[str, list[Blocked]] = {}
    for item in blocked:
        by_reason.setdefault(item.reason, []).append(item)
    name = action.id.replace("_", " ")
    out: list[Blocked] = []
    for reason, items in by_reason.items():
        out += items if len(items) < COUNTED_FROM else [Blocked(f"{name} ({len(items)} ways)", reason)]
    return out


def _candidates(state: State, action: ActionDef, player: int) -> list[tuple[Any, ...]]:
    results: list[tuple[Any, ...]] = []
    env: dict[str, Any] = {"me": player}

    def walk(i: int, values: tuple[Any, ...]) -> None:
        if len(results) >= MOST_CANDIDATES:
            return
        if i == len(action.params):
            results.append(values)
            return
        param = action.params[i]
        for value in list(param.domain(state, env)):
            env[param.name] = value
            walk(i + 1, (*values, value))
        env.pop(param.name, None)

    walk(0, ())
    return results


def _reason(state: State, action: ActionDef, player: int, env: dict[str, Any]) -> str:
    for scope, most in action.limits:
        used = state.uses.get(scope, {}).get(f"{action.id}:{player}", 0)
        if used >= most:
            return LIMIT_WORDS.get(scope, f"once per {scope}") if most == 1 else f"{most} times per {scope}"
    if action.condition is not None and not action.condition(state, env):
        for when, say in action.why_not:  # the game's own words for why, the first that holds
            if when(state, env):  # (no words: not this player's to take, e.g. another's power)
                return "" if say is None else render_template(state, say, env)
        return "not now"
    for ci, offset, amount in action.cost:
        cdef = state.gd.counters[ci]
        slot = player * cdef.width + offset if cdef.scope == "player" else offset
        floor = cdef.min if cdef.min is not None else 0
        have, need = state.counters[ci][slot], amount(state, env)
        if have - need < floor:
            key = f" {cdef.keys[offset]}" if cdef.keys else ""
            title = cdef.label.split(" (", 1)[0] if cdef.label != cdef.name else cdef.name.replace("_", " ")
            what = f"{title}{key}"
            return f"needs {need} {what} (you have {have})"
    return ""


def _text(state: State, action: ActionDef, env: dict[str, Any], values: tuple[Any, ...]) -> str:
    if action.label_parts and action.label != action.id:
        return render_template(state, action.label_parts, env)
    shown = [people_text(state, v, p.type) for p, v in zip(action.params, values, strict=True)]
    return " ".join([action.id.replace("_", " "), *shown])
