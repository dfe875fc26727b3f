"""`orrery describe`: a game's rules summary, as plain data and as text for people.

The summary is built from the compiled definition (what the engine will actually run,
with the chosen variants and overlays applied), so it cannot drift from the rules. The
merged raw rule data, when given, adds the texts the compiled form no longer keeps
(end conditions, scoring, costs). Every assumption is listed with where it is made:
guesses where a rulebook is silent must never be hidden (DESIGN §2.6).
"""

from __future__ import annotations

from typing import Any

from .game import BUILTIN_SEATS, Game
from .loader import bundled_entries
from .model import CardDef, CounterDef, GameDef, ZoneDef

SEAT_DESCRIPTIONS = {
    "human": "a person at the terminal",
    "random": "an agent that picks uniformly among the legal actions",
    "first": "an agent that always picks the first legal action",
}


def describe_game(game: Game, raw: dict[str, Any] | None = None) -> dict[str, Any]:
    """The rules summary of a loaded game as plain data (JSON-ready)."""
    gd = game.definition
    raw = raw or {}
    return {
        "id": gd.id,
        "name": gd.name,
        "version": gd.version,
        "description": gd.description,
        "data_hash": gd.data_hash,
        "players": {"min": gd.min_players, "max": gd.max_players, "default": gd.default_players},
        "variants": [{"id": vid, "description": text, "chosen": vid in gd.variants}
                     for vid, text in gd.available_variants.items()],
        "overlays": list(gd.overlays),
        "expansions": [e["id"] for e in _bundled_overlays_for(gd.id)],
        "seats": _seats(gd),
        "counters": [_counter(c) for c in gd.counters],
        "zones": [_zone(z, gd) for z in gd.zones],
        "cards": [_card(c, gd) for c in gd.cards],
        "actions": _actions(gd, raw),
        "end": _ends(gd, raw),
        "scoring": _scoring(raw),
        "assumptions": [{"where": a.where, "text": a.text} for a in gd.assumptions],
        "files": list(gd.source_files),
    }


def _bundled_overlays_for(game_id: str) -> list[dict[str, Any]]:
    return [e for e in bundled_entries() if e["kind"] in ("expansion", "mod") and e.get("base") == game_id]


def _seats(gd: GameDef) -> list[dict[str, str]]:
    seats = [{"id": seat, "kind": "built-in", "description": SEAT_DESCRIPTIONS[seat]} for seat in BUILTIN_SEATS]
    seats += [{"id": bot.id, "kind": "bot", "description": bot.description} for bot in gd.bots.values()]
    return seats


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
            "properties": dict(c.properties), "effects": list(c.effects), "tags": list(c.tags)}


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


# ---- text ------------------------------------------------------------------------------


def render_description(info: dict[str, Any]) -> str:
    """The summary as text for people."""
    lines: list[str] = []
    title = f"{info['name']} ({info['id']})" + (f", version {info['version']}" if info["version"] else "")
    lines.append(title)
    if info["description"]:
        lines.append(f"  {info['description']}")
    players = info["players"]
    count = (f"{players['min']}" if players["min"] == players["max"]
             else f"{players['min']}-{players['max']} (default {players['default']})")
    lines.append(f"Players: {count}")
    lines.append(f"Data hash: {info['data_hash']}")
    _section(lines, "Variants", [f"{v['id']}{' (chosen)' if v['chosen'] else ''}: {v['description'] or '-'}"
                                 for v in info["variants"]])
    _section(lines, "Overlays applied", info["overlays"])
    _section(lines, "Bundled expansions and mods", info["expansions"])
    _section(lines, "Seats", [f"{s['id']}: {s['description'] or '-'}" for s in info["seats"]])
    _section(lines, "Counters", [_counter_line(c) for c in info["counters"]])
    _section(lines, "Zones", [_zone_line(z) for z in info["zones"]])
    _section(lines, "Cards", [_card_line(c) for c in info["cards"]])
    _section(lines, "Actions", [_action_line(a) for a in info["actions"]])
    _section(lines, "End conditions", [_end_line(e) for e in info["end"]],
             empty="none declared (the game ends when its effects say `end game`)")
    _section(lines, "Scoring", [f"{key}: {value}" for key, value in info["scoring"].items()])
    _section(lines, f"Assumptions ({len(info['assumptions'])})",
             [f"{a['where']}: {a['text']}" for a in info["assumptions"]], empty="none")
    return "\n".join(lines)


def _section(lines: list[str], title: str, items: list[str], empty: str | None = None) -> None:
    if not items and empty is None:
        return
    lines.append(f"{title}:")
    lines.extend(f"  {item}" for item in (items or [str(empty)]))


def _counter_line(c: dict[str, Any]) -> str:
    shape = f" keys {', '.join(c['keys'])}" if "keys" in c else (f" size {c['size']}" if "size" in c else "")
    bounds = "".join(f", {k} {c[k]}" for k in ("min", "max") if c[k] is not None)
    label = f": {c['label']}" if c["label"] != c["name"] else ""
    return f"{c['name']} ({c['scope']}{shape}, initial {c['initial']}{bounds}, visible to {c['visible']}){label}"


def _zone_line(z: dict[str, Any]) -> str:
    label = f": {z['label']}" if z["label"] != z["name"] else ""
    order = "" if z["order_visible"] or z["visible"] == "none" else ", order hidden"
    refill = f", refills from {z['refill']['from']}" if "refill" in z else ""
    return f"{z['name']} ({z['scope']}, cards visible to {z['visible']}{order}{refill}){label}"


def _card_line(c: dict[str, Any]) -> str:
    where = f" in {c['in']}" if c["in"] else ""
    props = ", ".join(f"{k}={v}" for k, v in c["properties"].items())
    effects = f"; effects: {', '.join(c['effects'])}" if c["effects"] else ""
    return f"{c['id']}: {c['name']} x{c['count']}{where}{f' ({props})' if props else ''}{effects}"


def _action_line(a: dict[str, Any]) -> str:
    params = "".join(f" <{p}>" for p in a["params"])
    extras = [f"during {a['group']}"]
    if a["limits"]:
        extras.append(", ".join(f"{n} per {scope}" for scope, n in a["limits"].items()))
    if "cost" in a:
        extras.append("cost " + ", ".join(f"{k} {v}" for k, v in a["cost"].items()))
    if "condition" in a:
        extras.append(f"if {a['condition']}")
    if a["ends_turn"]:
        extras.append("ends the turn")
    label = f": {a['label']}" if a["label"] != a["id"] else ""
    return f"{a['id']}{params} ({'; '.join(extras)}){label}"


def _end_line(e: dict[str, Any]) -> str:
    when = f" when {e['when']}" if "when" in e else ""
    winners = f", winners {e['winners']}" if "winners" in e else ""
    return f"{e['id']}: checked after each {e['check']}{when}; then {e['then']}{winners}"
