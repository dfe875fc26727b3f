"""What overlays change: the merged rules before and after, definition by definition.

`orrery describe GAME --with X --diff` shows a mod's effect without reading its YAML
against the base's: each definition added, removed or changed, and for a changed one
each field with its old and new value (nested fields as dotted paths).
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.rules.loader import MAP_SECTIONS

MISSING = "(none)"  # how an absent value is shown (JSON null would read as `null`)


@attrs.frozen
class FieldChange:
    field: str      # dotted path inside the definition ("" for the whole value)
    old: Any
    new: Any


@attrs.frozen
class Change:
    section: str
    id: str | None  # None for a top-level entry (setup, flow, players, ...)
    kind: str       # added, removed or changed
    fields: tuple[FieldChange, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"section": self.section, "id": self.id, "kind": self.kind,
                "fields": [{"field": f.field, "old": None if f.old is MISSING else f.old,
                            "new": None if f.new is MISSING else f.new} for f in self.fields]}


def diff_rules(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every definition that differs between two merged rule sets, in section order."""
    changes: list[Change] = []
    sections = list(dict.fromkeys([*before, *after]))
    for section in sections:
        old, new = before.get(section), after.get(section)
        if old == new:
            continue
        if section in MAP_SECTIONS and isinstance(old or {}, dict) and isinstance(new or {}, dict):
            old_map, new_map = old or {}, new or {}
            for item_id in dict.fromkeys([*old_map, *new_map]):
                if item_id not in new_map:
                    changes.append(Change(section, str(item_id), "removed"))
                elif item_id not in old_map:
                    changes.append(Change(section, str(item_id), "added"))
                elif old_map[item_id] != new_map[item_id]:
                    changes.append(Change(section, str(item_id), "changed",
                                          tuple(_fields(old_map[item_id], new_map[item_id], ""))))
            continue
        kind = "added" if old is None else "removed" if new is None else "changed"
        fields = tuple(_fields(old, new, "")) if kind == "changed" else ()
        changes.append(Change(section, None, kind, fields))
    return changes


def _fields(old: Any, new: Any, prefix: str) -> list[FieldChange]:
    if isinstance(old, dict) and isinstance(new, dict):
        found: list[FieldChange] = []
        for key in dict.fromkeys([*old, *new]):
            if old.get(key, MISSING) != new.get(key, MISSING):
                found.extend(_fields(old.get(key, MISSING), new.get(key, MISSING), f"{prefix}{key}."))
        return found
    return [FieldChange(prefix.rstrip("."), old, new)]


def render_diff(changes: list[dict[str, Any]], overlays: list[str]) -> str:
    """Changes (as `Change.to_json` gives them) as text for people."""
    lines = [f"What {', '.join(overlays)} change{'s' if len(overlays) == 1 else ''}:"]
    if not changes:
        lines.append("  nothing")
    for change in changes:
        name = change["section"] + (f".{change['id']}" if change["id"] is not None else "")
        lines.append(f"  {change['kind']} {name}")
        for f in change["fields"]:
            where, old, new = f["field"] or "value", f["old"], f["new"]
            if isinstance(old, str) and isinstance(new, str) and old.strip() and old.strip() in new:
                before, after = new.split(old.strip(), 1)  # extended (append/prepend): show what is new
                added = [part for part in (before, after) if part.strip()]
                lines.append(f"    {where}: extended by {' and '.join(_show(a) for a in added)}")
                continue
            lines.append(f"    {where}: {_show(old)} -> {_show(new)}")
    return "\n".join(lines)


def _show(value: Any) -> str:
    if value is None:
        return MISSING
    if isinstance(value, str):
        text = value.strip()
        return repr(text if len(text) <= 60 else text[:57] + "...")
    shown = repr(value)
    return shown if len(shown) <= 60 else shown[:57] + "..."
