"""`orrery describe` for people: a game's rules summary (`Game.describe()`) as text."""

from __future__ import annotations

import ast
import pickle
from typing import Any

from interpreter.rules.diff import diff_rules
from interpreter.rules.diff import render_diff as _render_changes
from interpreter.rules.loader import load_raw

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
    for i, rule in enumerate(players.get("seats") or ()):
        last = i == len(players["seats"]) - 1 and i + 1 < players["max"]
        where = f"Seat {i + 1}" + (" and later" if last else "")
        accepts = f", accepts {' or '.join(rule['accepts'])}" if rule["accepts"] else ""
        lines.append(f"  {where} in play: {rule['default'] or 'any'} by default{accepts}")
    lines.append(f"Data hash: {info['data_hash']}")
    _section(lines, "Variants", [f"{v['id']}{' (chosen)' if v['chosen'] else ''}: {v['description'] or '-'}"
                                 for v in info["variants"]])
    _section(lines, "Overlays applied", info["overlays"])
    _section(lines, "Bundled expansions and mods", info["expansions"])
    _section(lines, "Seats", [f"{s['id']}: {s['description'] or '-'}" + _defaults(s) for s in info["seats"]])
    _section(lines, "Counters", [_counter_line(c) for c in info["counters"]])
    _section(lines, "Zones", [_zone_line(z) for z in info["zones"]])
    _section(lines, "Cards", [_card_line(c) for c in info["cards"]])
    _section(lines, "Actions", [_action_line(a) for a in info["actions"]])
    _section(lines, "Triggers", [_trigger_line(t) for t in info.get("triggers", ())])
    _section(lines, "Modifiers", [_modifier_line(m) for m in info.get("modifiers", ())])
    _section(lines, "End conditions", [_end_line(e) for e in info["end"]],
             empty="none declared (the game ends when its effects say `end game`)")
    _section(lines, "Scoring", [f"{key}: {value}" for key, value in info["scoring"].items()])
    _section(lines, f"Assumptions ({len(info['assumptions'])})",
             [f"{a['where']}: {a['text']}" for a in info["assumptions"]], empty="none")
    return "\n".join(lines)


def render_cards(cards: list[dict[str, Any]]) -> str:
    """Each card's printed text beside what the engine runs for it (`describe --cards`)."""
    lines: list[str] = []
    for c in cards:
        lines.append(f"{c['name']} ({c['id']}, {c['type']}, x{c['count']})")
        lines.append(f"  text: {c['text'] or '(none)'}")
        for name, entry in c["effects"].items():
            extras = "".join(f" [{key} {entry[key]}]" for key in ("condition", "cost") if entry.get(key))
            lines.append(f"  effect {name}{extras}: {_one_line(entry.get('effect', ''))}")
        where = f" (while in {', '.join(c['active_in'])})" if c["active_in"] else ""
        reach = f", for p where {c['applies_to']}" if c.get("applies_to") else ""
        for tid, t in c["triggers"].items():
            when = f" when {t['when']}" if t.get("when") else ""
            lines.append(f"  trigger {tid}{where}: on {t.get('on')}{when}: {_one_line(t.get('effect', ''))}")
        for mid, m in c["modifiers"].items():
            when = f" when {m['when']}" if m.get("when") else ""
            lines.append(f"  modifier {mid}{where[:-1] + reach + ')' if where else where}: "
                         f"{m.get('value')} {m.get('op')} {m.get('amount')}{when}")
        if not (c["effects"] or c["triggers"] or c["modifiers"]):
            lines.append("  power: none on the card")
    return "\n".join(lines)


def _one_line(text: Any) -> str:
    """Effect text on one line: its statements joined by ' / '."""
    return " / ".join(line.strip() for line in str(text).strip().splitlines() if line.strip())


def _defaults(seat: dict[str, Any]) -> str:
    """A seat kind's default options in this game (`seat_options`), as a spec writes them."""
    defaults = seat.get("defaults")
    return f" (this game: {seat['id']}:" + ",".join(f"{k}={v}" for k, v in defaults.items()) + ")" if defaults else ""


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


def _trigger_line(t: dict[str, Any]) -> str:
    owner = f" (card {t['card']}, while in play)" if t["card"] else ""
    when = f" if {t['when']}" if "when" in t else ""
    effect = " ".join(str(t["effect"]).split())
    return f"{t['id']}{owner}: on {t['on']}{when}: {effect if len(effect) <= 70 else effect[:67] + '...'}"


def _modifier_line(m: dict[str, Any]) -> str:
    owner = f" (card {m['card']})" if m["card"] else ""
    when = f" while {m['when']}" if "when" in m else ""
    granted = ", when granted" if m["granted"] else ""
    return f"{m['id']}{owner}: {m['value']} {m['op']} {m['amount']}{when}{granted}"


def _end_line(e: dict[str, Any]) -> str:
    when = f" when {e['when']}" if "when" in e else ""
    winners = f", winners {e['winners']}" if "winners" in e else ""
    return f"{e['id']}: checked after each {e['check']}{when}; then {e['then']}{winners}"


def render_generated_code(gd: Any) -> str:
    """The generated Python of a game, rule by rule, then the names it binds. Effects'
    statements run as compiled operations of the run loop and are not listed; every
    expression inside them is."""
    lines = [f"# Python generated for {gd.id} ({len(gd.generated_code)} functions).",
             "# `st` is the state, `env` the running effect's locals; `_name` are bound names (listed at the end).", ""]
    for what, code in gd.generated_code:
        lines.append(f"# {what}")
        lines.append(source_of(code))
        lines.append("")
    lines.append("# bound names")
    lines.extend(f"# {name} = {shown}" for name, shown in gd.generated_names)
    return "\n".join(lines)


def tree_of(code: bytes) -> ast.Module | ast.Expression:
    """A generated function's syntax tree, from the listing of a game's definition
    (pickled there by the compiler, in this process: never data from outside)."""
    tree = pickle.loads(code)
    assert isinstance(tree, ast.Module | ast.Expression)
    return tree


def source_of(code: bytes) -> str:
    """A generated function as Python text (shown, never compiled)."""
    tree = tree_of(code)
    return ast.unparse(tree.body if isinstance(tree, ast.Expression) else tree).rstrip()


def generated_code_json(gd: Any) -> dict[str, Any]:
    """`render_generated_code` as data: each generated function with the rule it comes
    from, then the bound names with what each is."""
    return {"game": gd.id,
            "functions": [{"rule": what, "source": source_of(code)} for what, code in gd.generated_code],
            "names": [{"name": name, "bound": shown} for name, shown in gd.generated_names]}


def overlay_changes(game: str, variants: list[str], overlays: list[str],
                    on_top_of: list[str] | None = None) -> dict[str, Any]:
    """What `overlays` change in `game` (with `variants`, and the overlays `on_top_of`
    already added), as data: {overlays, changes}."""
    before = load_raw(game, variants, on_top_of or []).data
    after = load_raw(game, variants, [*(on_top_of or []), *overlays]).data
    return {"overlays": overlays, "changes": [c.to_json() for c in diff_rules(before, after)]}


def render_diff(changes: dict[str, Any]) -> str:
    """`overlay_changes` as text for people."""
    return _render_changes(changes["changes"], changes["overlays"])
