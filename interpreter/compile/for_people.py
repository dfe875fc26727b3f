"""What the rules say for people only: the `table:` section (bookkeeping to hide,
counters drawn as tracks, zones drawn as the board) and actions' `why_not:` reasons.

Neither changes how a game plays: front-ends read them (play/, web/) to show a table
people can follow. Both are checked here, when the rules compile, so a name that is
not the game's or a broken reason template is a placed rule error, not a surprise at
the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.compile.templates import compile_template
from interpreter.diagnostics import hint_for
from interpreter.lang.symbols import CompileError
from interpreter.model import CounterDef, TableDef, ZoneDef

if TYPE_CHECKING:
    from interpreter.compile.build import Builder


def table_of(builder: Builder, counters: tuple[CounterDef, ...], zones: tuple[ZoneDef, ...]) -> TableDef:
    """`table:`: how people see the table; each name must be a counter or zone of the game."""
    spec = builder.data.get("table") or {}
    counter_names, zone_names = {c.name for c in counters}, {z.name for z in zones}
    found: dict[str, list[str]] = {}
    for key, known, what in (("hide", counter_names | zone_names, "counter or zone"),
                             ("tracks", counter_names, "counter"), ("board", zone_names, "zone")):
        found[key] = []
        for i, name in enumerate(spec.get(key) or ()):
            if name in known:
                found[key].append(str(name))
            else:
                builder.error(("table", key, i), "unknown-name", f"no {what} '{name}'", hint_for(str(name), known))
    return TableDef(frozenset(found["hide"]), tuple(found["tracks"]), tuple(found["board"]))


def why_not_of(builder: Builder, specs: Any, logical: tuple[Any, ...], locals_: dict[str, str]) -> tuple[Any, ...]:
    """An action's `why_not:` reasons: (condition, the reason as a template, or None
    for `hide: true`) each."""
    found: list[tuple[Any, tuple[Any, ...] | None]] = []
    for i, spec in enumerate(specs):
        when = builder.expr(spec.get("when"), logical + (i, "when"), locals_, "bool")
        if spec.get("hide"):  # not this player's to take: not listed at all
            if when is not None:
                found.append((when[0], None))
            continue
        if "say" not in spec:
            builder.error(logical + (i,), "bad-value", "a why_not entry needs `say` (or `hide: true`)")
            continue
        try:
            ctx = builder.context(locals_, logical + (i, "say"), pure=True)
            say = tuple(compile_template(str(spec.get("say", "")), ctx))
        except CompileError as err:
            builder.text_error(logical + (i, "say"), err.line, err.column, err.code, err.message, err.hint, err.width)
            continue
        if when is not None:
            found.append((when[0], say))
    return tuple(found)
