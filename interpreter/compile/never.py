"""What the rules can never do, read from the raw triggers and end conditions before
any effect compiles.

Generated code tests at every turn whether some trigger listens to its start, whether an
end condition is checked there, and so on. When the rules say it never happens (no
trigger names the event, no end condition is checked at that point), the compiler
leaves the test out. Anything unreadable here counts as possible: the test stays, and
the trigger or end condition gets its own diagnostic when it compiles.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.lang.symbols import Symbols
from interpreter.model import CHECK_POINTS

BUILTIN_EVENTS = {
    "changed": ("counter", {"player": "player", "key": "any", "old": "int", "new": "int"}),
    "entered": ("zone", {"card": "card", "player": "player"}),
    "left": ("zone", {"card": "card", "player": "player"}),
    "refill": ("zone", {"player": "player"}),
    "turn_start": (None, {"player": "player"}),
    "turn_end": (None, {"player": "player"}),
    "round_start": (None, {}),
    "round_end": (None, {}), "game_start": (None, {}),  # game_start: once, after setup
}
# docs/format.md and the schema name the refill event `refilled ZONE`; the engine fires
# it as "refill". Both spellings are accepted in `on:`.
EVENT_ALIASES = {"refilled": "refill"}


def fill_never(sym: Symbols, data: dict[str, Any], section: Callable[[str], dict[str, Any]]) -> None:
    """Set `sym.heard`, `sym.limited`, `sym.unchecked` and `sym.nothing_deferred`."""
    specs: list[Any] = list(section("triggers").values())
    for card in section("cards").values():
        specs.extend(((card.get("triggers") if isinstance(card, dict) else None) or {}).values())
    pairs: set[tuple[str, str]] = set()
    readable = True
    for spec in specs:
        words = str(spec.get("on", "")).split() if isinstance(spec, dict) else []
        if not words:
            readable = False
            continue
        pairs.add((EVENT_ALIASES.get(words[0], words[0]), words[1] if len(words) == 2 else ""))
    sym.heard = frozenset(pairs) if readable else None
    actions = section("actions")
    if all(isinstance(spec, dict) and isinstance(spec.get("limit") or {}, dict) for spec in actions.values()):
        sym.limited = frozenset(str(scope).removeprefix("per_") for spec in actions.values()
                                for scope in (spec.get("limit") or {}))
    ends = data.get("end") or ()
    if isinstance(ends, list | tuple) and all(isinstance(end, dict) for end in ends):
        sym.unchecked = frozenset(set(CHECK_POINTS) - {str(end.get("check", "action")) for end in ends})
        sym.nothing_deferred = all(end.get("then", "end") == "end" for end in ends)
