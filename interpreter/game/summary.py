"""A game's rules summary as plain data: what `Game.describe()` and `orrery describe` give.

The summary is built from the compiled definition (what the engine will actually run,
with the chosen variants and overlays applied), so it cannot drift from the rules. The
merged raw rule data adds the texts the compiled form no longer keeps (end conditions,
scoring, costs). Every assumption is listed with where it is made: guesses where a
rulebook is silent must never be hidden.
"""

from __future__ import annotations

from typing import Any

from interpreter.agents import describe_kinds
from interpreter.model import CardDef, CounterDef, GameDef, ZoneDef
from interpreter.rules.loader import bundled_entries


def describe_game(gd: GameDef, raw: dict[str, Any]) -> dict[str, Any]:
    """The rules summary of a compiled game and its merged raw data, as plain data (JSON-ready)."""
    return {
        "id": gd.id,
        "name": gd.name,
        "version": gd.version,
        "description": gd.description,
        "data_hash": gd.data_hash,
        "players": {"min": gd.min_players, "max": gd.max_players, "default": gd.default_players,
                    **({"seats": [{"default": r.default, "accepts": list(r.accepts)} for r in gd.seat_rules]}
                       if gd.seat_rules else {})},
        "variants": [{"id": vid, "description": text, "chosen": vid in gd.variants}
                     for vid, text in gd.available_variants.items()],
        "overlays": list(gd.overlays),
        "expansions": [e["id"] for e in _bundled_overlays_for(gd.id)],
        "seats": describe_kinds(gd),
        "counters": [_counter(c) for c in gd.counters],
        "zones": [_zone(z, gd) for z in gd.zones],
        "cards": [_card(c, gd) for c in gd.cards],
        "actions": _actions(gd, raw),
        "triggers": _triggers(raw),
        "modifiers": _modifiers(raw),
        "end": _ends(gd, raw),
        "scoring": _scoring(raw),
        "assumptions": [{"where": a.where, "text": a.text} for a in gd.assumptions],
        "files": list(gd.source_files),
    }


def _bundled_overlays_for(game_id: str) -> list[dict[str, Any]]:
    return [e for e in bundled_entries() if e["kind"] in ("expansion", "mod") and e.get("base") == game_id]


def _counter(c: CounterDef) -> dict[str, Any]:
    shape: dict[str, Any] = {}
    if c.keys:
        shape["keys"] = list(c.keys)
    elif c.width != 1:
        shape["size"] = c.width
    initial: Any = dict(zip(c.keys, c.initial, strict=True)) if c.keys else (
        c.initial[0] if c.width == 1 else list(c.initial))
    return {"name": c.name, "label": c.label, "scope": c.scope, **shape, "initial": initial,
            "min": c.min, "max": c.max, "visible": c.visible}


def _zone(z: ZoneDef, gd: GameDef) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": z.name, "label": z.label, "scope": z.scope, "visible": z.visible,
                             "order_visible": z.order_visible}
    if z.refill_from is not None:
        entry["refill"] = {"from": gd.zones[z.refill_from].name, "shuffle": z.refill_shuffle}
    return entry


def _card(c: CardDef, gd: GameDef) -> dict[str, Any]:
    return {"id": c.id, "name": c.name, "type": c.type, "count": c.count,
            "in": gd.zones[c.zone].name if c.zone is not None else None,
            "properties": dict(c.properties), "effects": list(c.effects), "tags": list(c.tags),
            **({"text": c.text} if c.text else {})}


def describe_cards(gd: GameDef, raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Each card with its printed text beside its whole power, as the engine runs it:
    named effects (with condition and cost), triggers and modifiers with the zones they
    work in. What `orrery describe GAME --cards` prints, so a modder sees whether a
    card's text and its effect say the same."""
    specs = raw.get("cards") or {}
    result = []
    for c in gd.cards:
        found = specs.get(c.id)
        spec: dict[str, Any] = found if isinstance(found, dict) else {}
        effects: dict[str, Any] = {}
        for name, entry in (spec.get("effects") or {}).items():
            if name in c.effects:
                effects[name] = dict(entry) if isinstance(entry, dict) else {"effect": entry}
        entry = {"id": c.id, "name": c.name, "type": c.type, "count": c.count, "text": c.text,
                 "effects": effects,
                 "triggers": {str(k): dict(v) for k, v in (spec.get("triggers") or {}).items() if isinstance(v, dict)},
                 "modifiers": {str(k): dict(v) for k, v in (spec.get("modifiers") or {}).items()
                               if isinstance(v, dict)},
                 "active_in": [gd.zones[z].name for z in c.active_in],
                 "applies_to": spec.get("applies_to"),
                 "properties": {k: v for k, v in c.properties.items() if k != "text"}}
        result.append(entry)
    return result


def _actions(gd: GameDef, raw: dict[str, Any]) -> list[dict[str, Any]]:
    specs = raw.get("actions") or {}
    result = []
    for a in gd.actions:
        found = specs.get(a.id)
        spec: dict[str, Any] = found if isinstance(found, dict) else {}
        entry: dict[str, Any] = {"id": a.id, "group": a.group, "label": a.label,
                                 "params": [p.name for p in a.params],
                                 "limits": {scope: most for scope, most in a.limits}, "ends_turn": a.ends}
        for key in ("condition", "cost"):
            if spec.get(key):
                entry[key] = spec[key]
        result.append(entry)
    return result


def _triggers(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Every trigger (the game's, then each card's): its event, condition and effect."""
    found: list[tuple[str, str | None, Any]] = [(str(t), None, spec) for t, spec in (raw.get("triggers") or {}).items()]
    for cid, card in (raw.get("cards") or {}).items():
        found.extend((str(tid), str(cid), spec) for tid, spec in ((card or {}).get("triggers") or {}).items())
    result = []
    for tid, card, spec in found:
        if not isinstance(spec, dict):
            continue
        entry: dict[str, Any] = {"id": tid, "card": card, "on": spec.get("on"), "effect": spec.get("effect", "")}
        if spec.get("when"):
            entry["when"] = spec["when"]
        result.append(entry)
    return result


def _modifiers(raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Every modifier (the game's, then each card's) and what it does to which value."""
    found: list[tuple[str, str | None, Any]] = [(str(m), None, s) for m, s in (raw.get("modifiers") or {}).items()]
    for cid, card in (raw.get("cards") or {}).items():
        found.extend((str(mid), str(cid), spec) for mid, spec in ((card or {}).get("modifiers") or {}).items())
    result = []
    for mid, card, spec in found:
        if not isinstance(spec, dict):
            continue
        entry: dict[str, Any] = {"id": mid, "card": card, "value": spec.get("value"), "op": spec.get("op"),
                                 "amount": spec.get("amount"), "granted": bool(spec.get("granted", False))}
        if spec.get("when"):
            entry["when"] = spec["when"]
        result.append(entry)
    return result


def _ends(gd: GameDef, raw: dict[str, Any]) -> list[dict[str, Any]]:
    specs = {str(s.get("id", f"end-{i}")): s for i, s in enumerate(raw.get("end") or ()) if isinstance(s, dict)}
    result = []
    for end in gd.ends:
        spec = specs.get(end.id, {})
        entry: dict[str, Any] = {"id": end.id, "check": end.check, "then": end.then}
        if "when" in spec:
            entry["when"] = spec["when"]
        if "winners" in spec:
            entry["winners"] = spec["winners"]
        result.append(entry)
    return result


def _scoring(raw: dict[str, Any]) -> dict[str, Any]:
    spec = raw.get("scoring")
    return dict(spec) if isinstance(spec, dict) else {}
