"""One generated function per action that lists its legal instances.

Listing legal actions is most of the work of a decision: every parameter's choices,
the condition and the cost for each combination, and a canonical text per action.
The generic walk (runtime/decisions.py) does this through lists of functions and
renderers; here each action gets straight-line Python instead: nested loops over its
parameters' choices, the condition and cost checks inline, the text built by
concatenation, and a parameterless action's Action made once (one with whole-number,
player, card or text parameters once per values: Actions are immutable, so listings share them). Checks that read no
parameter (a condition on the player alone) run once per listing, at the first
candidate, not once per candidate. Same order, same texts, same duplicates dropped as
the generic walk (which stays for actions built by hand).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from interpreter.compile.pysource import Emitter
from interpreter.model import ActionDef, CounterDef
from interpreter.runtime.actions import Action, render

Lister = Callable[[Any, int, list[Action]], None]


def _render_src(em: Emitter, var: str, type_: str, card_ids: list[str]) -> str:
    """Source of a value's canonical text (as actions.render writes it)."""
    fallback = f"{em.const(render, 'render')}(st, {var}, {type_!r})"
    if type_ == "int":
        return f"(str({var}) if type({var}) is int else {fallback})"
    if type_ == "player":
        return f"('P' + str({var} + 1) if type({var}) is int else {fallback})"
    if type_ == "card":
        ids = em.memo.get("card_ids")
        if ids is None:
            ids = em.memo["card_ids"] = em.const(card_ids, "card_ids")
        return f"({ids}[st.card_def[{var}]] + '#' + str({var}) if type({var}) is int else {fallback})"
    return fallback


_KEYED = {"int": "int", "player": "int", "card": "int", "str": "str"}  # types whose Actions are kept, by value
KEPT_ACTIONS = 4096  # Actions kept per lister at most (a bound on memory, whatever the domains)


def _kept(cache: dict[Any, Action], key: Any, action: Action) -> Action:
    """Keep `action` for its key while the lister's cache has room."""
    if len(cache) < KEPT_ACTIONS:
        cache[key] = action
    return action


_ENV_READ = re.compile(r"\benv\b(?!\['me'\])")


_ENV_ANY = re.compile(r"\benv\b(?!\[')")  # env passed whole, or indexed by a computed key


def _reads(source: str, name: str) -> bool:
    """Whether generated source may read the local `name`."""
    return f"env[{name!r}]" in source or _ENV_ANY.search(source) is not None


def _reads_no_param(source: str) -> bool:
    """Whether generated source reads no local but `me` (the same for the whole listing)."""
    return _ENV_READ.search(source) is None


def make_lister(em: Emitter, action: ActionDef, counters: tuple[CounterDef, ...], card_ids: list[str]) -> Lister:
    """The legal instances of `action` for player `me`, appended to `out` in order."""
    name = em.fresh("list")
    lines = [f"def {name}(st, me, out):", "    env = {'me': me}"]
    checks: list[str] = []
    if action.condition is not None:
        checks.append(em.inline(action.condition, "condition"))
    for ci, offset, amount in action.cost:
        cdef = counters[ci]
        slot = f"me * {cdef.width} + {offset}" if cdef.scope == "player" else str(offset)
        floor = cdef.min if cdef.min is not None else 0
        checks.append(f"st.counters[{ci}][{slot}] - {em.inline(amount, 'cost')} >= {floor}")
    test = " and ".join(checks) or "True"
    # Checks that read no parameter (only `me`) come first in `checks` when they do:
    # they are the same for every candidate, so they run once, at the first one.
    fixed = 0
    while fixed < len(checks) and _reads_no_param(checks[fixed]):
        fixed += 1
    if not action.params:
        bare = em.const(Action(action.id, (action.index, ())), "action")
        lines.append(f"    if {test}:")
        lines.append(f"        out.append({bare})")
        return em.define("\n".join(lines) + "\n", name, f"actions.{action.id} (legal list)")  # type: ignore[no-any-return]
    lines.append("    seen = set()")
    if fixed:
        lines.append("    ok = None")
    indent = "    "
    values = []
    text = repr(action.id)
    domains = [em.inline(param.domain, "domain") for param in action.params]
    kept: list[bool] = []  # whether a parameter's value is put in env: only when read there
    for i, param in enumerate(action.params):
        var = f"_p{i}"
        values.append(var)
        lines.append(f"{indent}for {var} in {domains[i]}:")
        indent += "    "
        kept.append(any(_reads(src, param.name) for src in [*domains[i + 1:], *checks]))
        if kept[-1]:
            lines.append(f"{indent}env[{param.name!r}] = {var}")
        text += f" + ' ' + {_render_src(em, var, param.type, card_ids)}"
    if fixed:
        lines.append(f"{indent}if ok is None:")
        lines.append(f"{indent}    ok = bool({' and '.join(checks[:fixed])})")
        if len(action.params) == 1:
            lines.append(f"{indent}if not ok:")
            lines.append(f"{indent}    break")
        checks = ["ok", *checks[fixed:]] if len(action.params) > 1 else checks[fixed:]
    if checks:
        lines.append(f"{indent}if {' and '.join(checks)}:")
        indent += "    "
    payload = f"({action.index}, ({', '.join(values)},))"
    make = f"{em.const(Action, 'Action')}({text}, {payload})"
    if all(p.type in _KEYED for p in action.params):
        # Whole numbers, players, cards and texts: the same values give the same text
        # and payload, so the Action is made once and kept (a card's key holds its
        # definition too: its text names it).
        keys = [f"({v}, st.card_def[{v}])" if p.type == "card" else v
                for v, p in zip(values, action.params, strict=True)]
        key = keys[0] if len(keys) == 1 else f"({', '.join(keys)})"
        cache = em.bound({}, "actions")
        kinds = [f"type({v}) is {_KEYED[p.type]}" for v, p in zip(values, action.params, strict=True)]
        lines.append(f"{indent}if {' and '.join(kinds)}:")
        lines.append(f"{indent}    key = {key}")
        lines.append(f"{indent}    action = {cache}.get(key)")
        lines.append(f"{indent}    if action is None:")
        lines.append(f"{indent}        action = {em.const(_kept, 'kept')}({cache}, key, {make})")
        lines.append(f"{indent}else:")
        lines.append(f"{indent}    action = {make}")
    else:
        lines.append(f"{indent}action = {make}")
    lines.append(f"{indent}if action.text not in seen:")
    lines.append(f"{indent}    seen.add(action.text)")
    lines.append(f"{indent}    out.append(action)")
    # As the generic walk: a parameter's name is dropped when its loop is over (the
    # first parameter's stays; nothing reads it after the listing).
    for i in range(len(action.params) - 1, 0, -1):
        if kept[i]:
            lines.append(f"{'    ' * (i + 1)}env.pop({action.params[i].name!r}, None)")
    return em.define("\n".join(lines) + "\n", name, f"actions.{action.id} (legal list)")  # type: ignore[no-any-return]
