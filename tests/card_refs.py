"""Count the places where game-level rules name individual cards or ability codes.

A card's power belongs on the card: rules outside the card definitions should speak of
kinds of cards and zones. This counts quoted card ids (and the values of the card
properties that used to dispatch powers: `ability`, `power`) in every string of the
merged rules outside `cards`, `card_types` and `setup` (setup naming a specific
component is fine). Run `python -m tests.card_refs [-v]` for the counts and places.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from interpreter.rules.loader import load_raw

CODE_PROPERTIES = ("ability", "power")
OUTSIDE = ("cards", "card_types", "setup")
QUOTED = re.compile(r"""["']([a-z0-9][a-z0-9_-]*)["']""")
CONFIGURATIONS = [("for-all-mankind", ()), ("race-to-mars", ()), ("rocketmen", ()),
                  ("rocketmen", ("target-jupiter",))]


def _strings(value: Any, path: tuple[str, ...], out: list[tuple[tuple[str, ...], str]]) -> None:
    if isinstance(value, dict):
        for key, inner in value.items():
            _strings(inner, (*path, str(key)), out)
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            _strings(inner, (*path, str(i)), out)
    elif isinstance(value, str):
        out.append((path, value))


def card_references(game: str, overlays: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(where, name) for each quoted card id or ability code outside the card definitions."""
    data = load_raw(game, [], list(overlays)).data
    cards = data.get("cards") or {}
    names = set(cards)
    for spec in cards.values():
        properties = (spec or {}).get("properties") or {}
        names.update(properties[k] for k in CODE_PROPERTIES if isinstance(properties.get(k), str))
    names.discard("none")
    strings: list[tuple[tuple[str, ...], str]] = []
    for section, value in data.items():
        if section not in OUTSIDE:
            _strings(value, (section,), strings)
    return [("/".join(path[:3]), m.group(1)) for path, text in strings
            for m in QUOTED.finditer(text) if m.group(1) in names]


if __name__ == "__main__":
    for game, overlays in CONFIGURATIONS:
        found = card_references(game, overlays)
        print(f"{game}{' + ' + ', '.join(overlays) if overlays else ''}: {len(found)}")
        if "-v" in sys.argv:
            for where, name in found:
                print(f"    {where}: {name}")
