"""What a game says about itself besides its rules: the player counts its variants set,
its default options for kinds of seat, and the assumptions it marks.

Read from the merged raw data once, when the rules are built (compile/build.py); none
of it is compiled, so it lives apart from the builder that is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from interpreter.diagnostics import hint_for
from interpreter.model import Assumption, BotDef

Report = Callable[..., None]  # Builder.error: (logical, code, message, hint, key=)


def variant_players_of(variants: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """The player counts each variant sets (`set: players: {min, max}`), if any."""
    found = {}
    for vid, spec in variants.items():
        players = ((spec or {}).get("set") or {}).get("players")
        if isinstance(players, dict) and isinstance(players.get("min", 1), int):
            low = int(players.get("min", 1))
            high = players.get("max", low)
            found[vid] = (low, int(high) if isinstance(high, int) else low)
    return found


def seat_options_of(section: Mapping[str, Any], seat_kinds: Mapping[str, tuple[str, ...]],
                    bots: Mapping[str, BotDef], error: Report) -> dict[str, dict[str, str]]:
    """`seat_options`: per kind of seat, default options as a seat spec gives them.
    Kinds and option names are checked here; values by the kind when its seat is
    made (the game layer makes one of each at load)."""
    result = {}
    for kind, options in section.items():
        accepted = () if kind in bots else seat_kinds.get(kind)
        if accepted is None:
            known = [*seat_kinds, *bots]
            error(("seat_options", kind), "unknown-name", f"no kind of seat '{kind}'",
                  hint_for(kind, known) or f"seats: {', '.join(known)}", key=True)
            continue
        if not accepted:
            error(("seat_options", kind), "bad-value", f"seat '{kind}' takes no options", key=True)
            continue
        given = {}
        for name, value in (options or {}).items():
            if name not in accepted:
                error(("seat_options", kind, name), "unknown-name", f"seat '{kind}' has no option '{name}'",
                      hint_for(name, accepted) or f"options: {', '.join(accepted)}", key=True)
                continue
            given[str(name)] = ("1" if value else "0") if isinstance(value, bool) else str(value)
        result[kind] = given
    return result


def assumptions_of(data: Mapping[str, Any]) -> list[Assumption]:
    """The assumptions a game marks: its `assumptions:` list, then every `assumed:`
    text anywhere in its sections (variants aside), by the path to it."""
    found = [Assumption(f"assumptions.{a.get('id', i)}", str(a.get("text", "")))
             for i, a in enumerate(data.get("assumptions") or ()) if isinstance(a, dict)]

    def walk(value: Any, path: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "assumed" and isinstance(item, str):
                    found.append(Assumption(".".join(path), item))
                else:
                    walk(item, path + (str(key),))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, path + (str(i),))
    for section in data:
        if section not in ("assumptions", "variants"):
            walk(data[section], (section,))
    return found
