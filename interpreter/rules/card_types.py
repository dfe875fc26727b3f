"""Per-type card defaults (`card_types:`), merged under every card of that type.

A game with a hundred cards of one kind would otherwise repeat the same fields on each
(the zone they start in, an `assumed:` note, properties most of them share). A
`card_types` entry holds those fields once:

    card_types:
      space: {in: space_deck, assumed: "designed card", properties: {ability: none}}

and each card with `type: space` gets every field it does not set itself; its
`properties`, `effects`, `triggers` and `modifiers` are merged key by key (the card's own
win, and a card's key set to null drops an inherited effect, trigger or modifier), so a
family of cards that work alike shares one power and a card extends or overrides it. The merge runs once, after
includes, overlays and variants (so an overlay may patch a type, or add cards of it),
and the section is then dropped: the rules the engine builds from, and their data
hash, are those of the same cards written out in full. Positions follow the merge:
an error in an inherited field is reported where the type writes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.rules.loader import Origins

SECTION = "card_types"
# Fields merged key by key; the last three hold a card's power, where null drops a key.
MERGED = ("properties", "effects", "triggers", "modifiers")
DROPPABLE = ("effects", "triggers", "modifiers")


def expand_card_types(merged: dict[str, Any], origins: Origins) -> None:
    """Merge each card type's fields under its cards, then drop the section."""
    types = merged.pop(SECTION, None)
    if not isinstance(types, dict) or not types:
        return
    cards = merged.get("cards")
    if not isinstance(cards, dict):
        return
    for cid, spec in cards.items():
        if not isinstance(spec, dict):
            continue
        kind = spec.get("type")
        defaults = types.get(kind) if isinstance(kind, str) else None
        if not isinstance(defaults, dict):
            continue
        merged_spec = dict(spec)
        for key, value in defaults.items():
            if key in MERGED and isinstance(value, dict) and isinstance(spec.get(key), dict):
                own = spec[key]
                merged_spec[key] = {**value, **own}
                if key in DROPPABLE:
                    merged_spec[key] = {k: v for k, v in merged_spec[key].items() if v is not None}
                for prop in value:
                    if prop not in own:
                        _inherit(origins, (SECTION, kind, key, prop), ("cards", cid, key, prop))
            elif key not in spec:
                merged_spec[key] = value
                _inherit(origins, (SECTION, kind, key), ("cards", cid, key))
        cards[cid] = merged_spec


def _inherit(origins: Origins, source: tuple[Any, ...], logical: tuple[Any, ...]) -> None:
    """Errors at `logical` (a card's inherited field) are placed where the type writes it."""
    try:
        pm, keypath = origins.find(source)
    except KeyError:
        return
    origins.add(logical, pm, keypath)
