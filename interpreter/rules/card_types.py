"""Per-type card defaults and card templates (`card_types:`), merged under the cards.

A game with a hundred cards of one kind would otherwise repeat the same fields on each
(the zone they start in, an `assumed:` note, properties most of them share), and a
family of cards that work alike would repeat the same power. A `card_types` entry holds
those fields once:

    card_types:
      space: {in: space_deck, assumed: "designed card", properties: {ability: none}}
      draw-two: {effects: {play: "draw_cards(me, 2)"}}      # a template

Each card gets the fields it does not set itself from the templates it names in
`extends:` (a name or a list, earlier ones first) and then from its `type`'s entry;
`properties`, `effects`, `triggers` and `modifiers` are merged key by key (the card's
own win, and a card's key set to null drops an inherited effect, trigger or modifier),
so a family of cards shares one power and a card extends or overrides it, whatever its
type. The merge runs once, after includes, overlays and variants (so an overlay may
patch a type or a template, or add cards of it), and the section is then dropped: the
rules the engine builds from, and their data hash, are those of the same cards written
out in full. Positions follow the merge: an error in an inherited field is reported
where the type or template writes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import hint_for
from interpreter.rules.sizes import DataProblem

if TYPE_CHECKING:
    from interpreter.rules.loader import Origins

SECTION = "card_types"
EXTENDS = "extends"
# Fields merged key by key; the last three hold a card's power, where null drops a key.
MERGED = ("properties", "effects", "triggers", "modifiers")
DROPPABLE = ("effects", "triggers", "modifiers")


def expand_card_types(merged: dict[str, Any], origins: Origins) -> list[DataProblem]:
    """Merge each card's templates and type under it, then drop the section; the
    problems found (a template that does not exist) at their logical place."""
    types = merged.pop(SECTION, None)
    cards = merged.get("cards")
    if not isinstance(cards, dict):
        return []
    types = types if isinstance(types, dict) else {}
    problems: list[DataProblem] = []
    for cid, spec in cards.items():
        if not isinstance(spec, dict):
            continue
        layers: list[tuple[str, dict[str, Any]]] = []
        named = spec.get(EXTENDS)
        for i, name in enumerate([named] if isinstance(named, str) else named or ()):
            if isinstance(name, str) and isinstance(types.get(name), dict):  # (the schema says why a non-name fails)
                layers.append((name, types[name]))
            else:
                where = ("cards", cid, EXTENDS) if isinstance(named, str) else ("cards", cid, EXTENDS, i)
                problems.append(DataProblem(where, "unknown-name",
                                            f"card '{cid}' extends '{name}', which is not in card_types",
                                            hint_for(str(name), types) or "declare it under card_types"))
                if not isinstance(name, str):
                    problems.pop()  # (not a name at all: the schema's error says so, once)
        kind = spec.get("type")
        if isinstance(kind, str) and isinstance(types.get(kind), dict) and kind not in (n for n, _ in layers):
            layers.append((kind, types[kind]))
        merged_spec = {k: v for k, v in spec.items() if k != EXTENDS}
        for name, defaults in layers:  # the nearest first: what is already there wins
            _merge_under(merged_spec, defaults, origins, name, cid)
        for key in DROPPABLE:  # a null kept the layers below from giving that key: now drop it
            if isinstance(merged_spec.get(key), dict):
                merged_spec[key] = {k: v for k, v in merged_spec[key].items() if v is not None}
        cards[cid] = merged_spec
    return problems


def _merge_under(spec: dict[str, Any], defaults: dict[str, Any], origins: Origins, name: str, cid: str) -> None:
    """Give `spec` the fields of `defaults` it lacks (maps merged key by key)."""
    for key, value in defaults.items():
        own = spec.get(key)
        if key in MERGED and isinstance(value, dict) and isinstance(own, dict):
            spec[key] = {**value, **own}
            for inner in value:
                if inner not in own:
                    _inherit(origins, (SECTION, name, key, inner), ("cards", cid, key, inner))
        elif key not in spec:
            spec[key] = dict(value) if key in MERGED and isinstance(value, dict) else value
            _inherit(origins, (SECTION, name, key), ("cards", cid, key))


def _inherit(origins: Origins, source: tuple[Any, ...], logical: tuple[Any, ...]) -> None:
    """Errors at `logical` (a card's inherited field) are placed where the type writes it."""
    try:
        pm, keypath = origins.find(source)
    except KeyError:
        return
    origins.add(logical, pm, keypath)
