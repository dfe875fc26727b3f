"""Counter totals: a per-player counter's public sum over the players (`total:`),
compiled once the symbols are known, for resampling (runtime/resample.py).

A hidden counter such as For All Mankind's Resource Cards in hand is not public, but
its sum over the players may be: every resource card not in the bank is in some hand.
`total: "25 - bank[key]"` says so; a world drawn for a player then splits what that
player cannot see of the sum among the hidden cells, instead of resetting them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from interpreter.model.definitions import CounterDef

if TYPE_CHECKING:
    from interpreter.compile.build import Builder


def with_totals(builder: Builder, counters: tuple[CounterDef, ...]) -> tuple[CounterDef, ...]:
    """`counters` with their `total` expressions compiled (errors reported as diagnostics)."""
    result = []
    for cdef in counters:
        spec = builder.section("counters").get(cdef.name) or {}
        text = spec.get("total") if isinstance(spec, dict) else None
        if text is None:
            result.append(cdef)
            continue
        where = ("counters", cdef.name, "total")
        if cdef.scope != "player":
            builder.error(where, "bad-value", f"counter '{cdef.name}' is shared: only a per-player counter has a "
                          "total over the players", "remove `total`, or make the counter `scope: player`")
            result.append(cdef)
            continue
        compiled = builder.expr(text, where, {"key": "any"}, "int")
        result.append(attrs.evolve(cdef, total=compiled[0]) if compiled else cdef)
    return tuple(result)
