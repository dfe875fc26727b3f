"""`players.seats`: per seat, what `orrery play` seats there by default and which kinds
of seat it accepts. Checked at load against the kinds of seat the engine knows (the
game layer passes its registry's names) and the game's own bots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.diagnostics import hint_for
from interpreter.model import SeatRule

Report = Callable[..., None]  # Builder.error: (logical path, code, message, hint)


def build_seat_rules(players: Any, known: list[str], error: Report) -> tuple[SeatRule, ...]:
    """`players.seats`: per seat, play's default and the kinds it accepts."""
    rules = []
    for i, spec in enumerate(players.get("seats") or () if isinstance(players, dict) else ()):
        if not isinstance(spec, dict):
            continue
        default, accepts = spec.get("default"), tuple(str(a) for a in spec.get("accepts") or ())
        for j, name in enumerate(accepts):
            if name not in known:
                error(("players", "seats", i, "accepts", j), "unknown-name", f"no kind of seat '{name}'",
                  hint_for(name, known) or f"seats: {', '.join(known)}")
        if default is not None and default not in known:
            error(("players", "seats", i, "default"), "unknown-name", f"no kind of seat '{default}'",
              hint_for(str(default), known) or f"seats: {', '.join(known)}")
        elif default is not None and accepts and default not in accepts and set(accepts) <= set(known):
            error(("players", "seats", i, "default"), "bad-value",
              f"the default '{default}' is not one of the kinds this seat accepts",
              f"add it to accepts: [{', '.join([*accepts, str(default)])}]")
        rules.append(SeatRule(None if default is None else str(default), accepts))
    if len(rules) > int(players.get("max", len(rules)) if isinstance(players, dict) else len(rules)):
        error(("players", "seats"), "bad-value", "more seat rules than the game has seats")
    return tuple(rules)
