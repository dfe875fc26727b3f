"""Find a game's files and merge them into one raw definition: the entry file, its
includes, the chosen variants and overlays (expansions and mods).

The result keeps, for every definition, which file and place it came from (`Origins`),
so later stages report mistakes at the right `file:line:col` even after merging. Every
conflict is a diagnostic: an id defined twice, an overlay that replaces what does not
exist or adds what does, a variant or overlay that cannot be found.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from interpreter.diagnostics import Diagnostic, RuleFileError, hint_for
from interpreter.resources import data_path
from interpreter.rules import schema
from interpreter.rules.card_types import expand_card_types
from interpreter.rules.copies import copy_hint, expand_copies
from interpreter.rules.parameters import constant_problem
from interpreter.rules.positions import PositionMap
from interpreter.rules.sizes import size_problems
from interpreter.rules.yamlload import load_yaml

MAP_SECTIONS = (
    "constants", "counters", "zones", "cards", "values", "modifiers", "procedures",
    "actions", "triggers", "events", "variants", "bots", "views", "functions", "card_types", "boards",
    "seat_options",
)
LIST_SECTIONS = ("assumptions", "end", "include")
SINGLE_SECTIONS = ("setup", "flow", "scoring", "table", "utility", "max_moves", "players", "description", "version",
                   "name", "id", "orrery")
OVERLAY_OPS = ("add", "replace", "patch", "remove", "set", "append", "prepend")
TEXT_OPS = ("append", "prepend")  # extend effect text in place (applied after the others)
# what `set` may replace
SET_SECTIONS = ("setup", "flow", "players", "end", "scoring", "table", "utility", "max_moves", "description", "name")


@attrs.frozen
class Piece:
    """One file's part of effect text that overlays joined (see Origins.pieces)."""

    first_line: int
    positions: PositionMap
    keypath: tuple[Any, ...]


@attrs.frozen
class Touch:
    """Who changed a value last: for conflicts between overlays and for removals."""

    where: tuple[str, int, int]
    source: str          # the overlay's file, or `variant NAME`
    appended: bool = False


@attrs.define
class Origins:
    """Logical path (e.g. ("cards", "jack", "effects", "play")) -> (file positions, path in that file)."""

    table: dict[tuple[Any, ...], tuple[PositionMap, tuple[Any, ...]]] = attrs.field(factory=dict)
    # Effect text joined from several files by `append`/`prepend`: logical path ->
    # (first line of the piece in the joined text, its file positions, its path there).
    pieces: dict[tuple[Any, ...], list[Piece]] = attrs.field(factory=dict)

    def add(self, logical: tuple[Any, ...], pm: PositionMap, keypath: tuple[Any, ...]) -> None:
        self.table[logical] = (pm, keypath)

    def find(self, logical: tuple[Any, ...]) -> tuple[PositionMap, tuple[Any, ...]]:
        for cut in range(len(logical), -1, -1):
            hit = self.table.get(logical[:cut])
            if hit is not None:
                pm, keypath = hit
                return pm, keypath + tuple(logical[cut:])
        raise KeyError(logical)

    def locate(self, logical: tuple[Any, ...]) -> tuple[str, int, int]:
        pm, keypath = self.find(logical)
        where = pm.nearest(keypath)
        return pm.path, where.line, where.column

    def locate_key(self, logical: tuple[Any, ...]) -> tuple[str, int, int]:
        pm, keypath = self.find(logical)
        where = pm.key(keypath) or pm.nearest(keypath)
        return pm.path, where.line, where.column

    def locate_text(self, logical: tuple[Any, ...], line: int, column: int) -> tuple[str, int, int, str]:
        """Position of (line, column) inside the effect text at `logical`, and that file line."""
        pm, keypath = self.find(logical)
        for piece in reversed(self.pieces.get(logical, ())):
            if line >= piece.first_line:
                pm, keypath, line = piece.positions, piece.keypath, line - piece.first_line + 1
                break
        try:
            fline, fcol = pm.text_position(keypath, line, column)
        except Exception:  # positions are a courtesy: never fail a diagnostic over them
            where = pm.nearest(keypath)
            fline, fcol = where.line, where.column
        return pm.path, fline, fcol, pm.source_line(fline)


@attrs.define
class RawGame:
    data: dict[str, Any]
    origins: Origins
    root: Path
    files: list[str]
    variants: list[str]
    overlays: list[str]
    data_hash: str
    # Schema and size-limit findings: reported with the semantic stage's, so a file's
    # mistakes come all at once (the builder still runs, and what it finds on top of
    # them is added; no game is built, so nothing too large is ever made).
    schema_diagnostics: list[Diagnostic] = attrs.field(factory=list)
    # Conflicts between overlays (warnings; errors under `strict`), and every definition an
    # overlay removed (`section.id` -> who), so a base that still uses one says why.
    warnings: list[Diagnostic] = attrs.field(factory=list)
    removed: dict[str, Touch] = attrs.field(factory=dict)


class _Collector:
    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.touched: dict[tuple[Any, ...], dict[tuple[Any, ...], Touch]] = {}  # by definition
        self.removed: dict[tuple[Any, ...], Touch] = {}

    def error(self, where: tuple[str, int, int], code: str, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(where[0], where[1], where[2], code, message, hint=hint))

    def shape_error(self, where: tuple[str, int, int], message: str, hint: str | None) -> None:
        """A part of an overlay of the wrong shape, unless the schema said so already at
        that place (it has, for overlay files and the variants of a game file)."""
        if not any((d.path, d.line, d.column) == where for d in self.diagnostics if d.code == schema.CODE):
            self.error(where, "overlay-shape", message, hint)


# ---- finding things --------------------------------------------------------------------


def bundled_entries() -> list[dict[str, Any]]:
    """Every bundled game, expansion and example: id, kind, path, name, base."""
    entries: list[dict[str, Any]] = []
    for folder, kind in (("games", "game"), ("examples", "example")):
        root = data_path(folder)
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.yaml")):
            if path.name not in ("game.yaml", "overlay.yaml") and not (kind == "example" and path.parent == root):
                continue
            try:
                data, _ = load_yaml(path)
            except RuleFileError:
                continue
            if not isinstance(data, dict):
                continue
            if "overlay" in data:
                entries.append({"id": str(data.get("overlay")), "kind": "expansion" if kind == "game" else "mod",
                                "path": str(path), "name": str(data.get("name", "")), "base": data.get("base")})
            elif "id" in data and path.name == "game.yaml":
                entries.append({"id": str(data["id"]), "kind": kind, "path": str(path),
                                "name": str(data.get("name", "")), "base": None})
    return entries


def resolve(target: str, want: str = "game") -> Path:
    """A game (or overlay) file from a bundled id, a folder or a file path."""
    path = Path(target)
    if _is(path.is_file):
        return path
    if _is(path.is_dir):
        for name in (("game.yaml", "overlay.yaml") if want == "game" else ("overlay.yaml", "game.yaml")):
            if (path / name).is_file():
                return path / name
        raise RuleFileError([Diagnostic(str(path), 1, 1, "file-not-found",
                                        "this folder has no game.yaml or overlay.yaml")])
    entries = bundled_entries()
    kinds = ("game", "example") if want == "game" else ("expansion", "mod")
    other = None  # the other kind of thing by that name: say how to load it
    for entry in entries:
        if entry["id"] == target:
            if entry["kind"] in kinds:
                return Path(entry["path"])
            other = entry
    if other is not None:
        if want == "game":
            message, hint = (f"'{target}' is an {other['kind']} of '{other['base']}', not a game",
                             f"load its base game with it: {other['base']} --with {target}")
        else:
            message, hint = (f"'{target}' is a bundled {other['kind']}, not an expansion or mod",
                             f"load it as the game: {target}")
        raise RuleFileError([Diagnostic(target, 1, 1, "not-found", message, hint=hint)])
    names = [e["id"] for e in entries if e["kind"] in kinds]
    what = "game" if want == "game" else "expansion or mod"
    raise RuleFileError([Diagnostic(target, 1, 1, "not-found", f"no bundled {what} '{target}' and no such file",
                                    hint=hint_for(target, names) or f"bundled: {', '.join(names) or 'none'}")])


def _is(test: Callable[[], bool]) -> bool:
    """A file-system test, false where the name cannot be a file at all (too long...)."""
    try:
        return test()
    except (OSError, ValueError):
        return False


# ---- loading and merging -----------------------------------------------------------------


def load_raw(target: str, variants: list[str] | None = None, overlays: list[str] | None = None,
             strict: bool = False, constants: dict[str, Any] | None = None) -> RawGame:
    """The merged rules of a game with its overlays and variants, then `constants` set
    (each one the rules define, given a value of its kind). Conflicts between overlays
    are warnings (`RawGame.warnings`), or errors when `strict`."""
    out = _Collector()
    entry = resolve(target, "game")
    data, pm = _load_checked(entry, "game", out)
    if not isinstance(data, dict):
        raise RuleFileError(out.diagnostics or [Diagnostic(str(entry), 1, 1, "schema",
                                                           "a game file must be a mapping")])
    origins = Origins()
    merged: dict[str, Any] = {}
    files = [str(entry)]
    _merge_file(merged, origins, data, pm, out)
    includes = data.get("include") or []
    for i, name in enumerate(includes if isinstance(includes, list) else []):  # else: a schema error
        inc_path = entry.parent / str(name)
        if not _is(inc_path.is_file) or entry.parent.resolve() not in inc_path.resolve().parents:
            out.error(_at(pm, ("include", i)), "file-not-found",
                      f"included file '{name}' is not a file of this game's folder")
            continue
        inc, inc_pm = _load_checked(inc_path, "include", out)
        if isinstance(inc, dict):
            files.append(str(inc_path))
            _merge_file(merged, origins, inc, inc_pm, out)
    _raise_unless_only_schema(out)
    chosen_overlays: list[str] = []
    for target_overlay in overlays or []:
        try:
            opath = resolve(target_overlay, "overlay")
        except RuleFileError as err:
            out.diagnostics.extend(err.diagnostics)
            continue
        odata, opm = _load_checked(opath, "overlay", out)
        if not isinstance(odata, dict):
            continue
        files.append(str(opath))
        if odata.get("base") != merged.get("id"):
            out.error(_at(opm, ("base",)), "overlay-base",
                      f"this overlay is for '{odata.get('base')}', not for '{merged.get('id')}'")
            continue
        apply_overlay(merged, origins, odata, opm, (), out)
        chosen_overlays.append(str(odata.get("overlay")))
    chosen_variants: list[str] = []
    available = merged.get("variants") or {}
    for variant in variants or []:
        if variant not in available:
            out.error((str(entry), 1, 1), "unknown-variant", f"game '{merged.get('id')}' has no variant '{variant}'",
                      hint_for(variant, available) or f"variants: {', '.join(available) or 'none'}")
            continue
        vpm, vpath = origins.find(("variants", variant))
        body = available[variant]
        if not isinstance(body, dict):
            out.shape_error(_at(vpm, vpath), f"variant '{variant}' must be a map, not {_kind(body)}",
                            schema.overlay_hint(("variants", variant)))
            continue
        apply_overlay(merged, origins, body, vpm, vpath, out, f"variant {variant}")
        chosen_variants.append(variant)
    for name, value in (constants or {}).items():
        wrong = constant_problem(merged.get("constants") or {}, name, value)
        if wrong is not None:
            out.error((str(entry), 1, 1), "bad-constant", wrong[0], wrong[1])
        else:
            merged["constants"][name] = value
    if strict:
        out.diagnostics.extend(attrs.evolve(w, severity="error") for w in out.warnings)
        out.warnings = []
    _raise_unless_only_schema(out)
    # Templates and copies first: the sizes are those of the cards written out in full.
    for problem in [*expand_card_types(merged, origins), *expand_copies(merged, origins), *size_problems(merged)]:
        where = origins.locate(problem.logical) if problem.offset is None else \
            origins.locate_text(problem.logical, 1, problem.offset + 1)[:3]
        out.error(where, problem.code, problem.message, problem.hint)
    if any(d.code == "limit" for d in out.diagnostics if d.severity == "error"):
        # Past a size limit, building would make what the limit is there to prevent (a
        # counter of 10^8 entries took a minute and gigabytes before its error was told).
        raise RuleFileError(out.diagnostics)
    digest = hashlib.sha256(json.dumps(merged, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return RawGame(merged, origins, entry.parent, files, chosen_variants, chosen_overlays, digest,
                   list(out.diagnostics), list(out.warnings),
                   {".".join(map(str, k)): t for k, t in out.removed.items()})


def explain_removed(diagnostics: list[Diagnostic], raw: RawGame) -> list[Diagnostic]:
    """Diagnostics of the built game, with the overlay named where one names an id an
    overlay removed (the base still uses it): the usual did-you-mean would mislead."""
    if not raw.removed:
        return list(diagnostics)
    result = []
    for d in diagnostics:
        for name, touch in raw.removed.items():
            item_id = name.split(".", 1)[1]
            if f"'{item_id}'" in d.message or f'"{item_id}"' in d.message:
                d = attrs.evolve(d, hint=f"{name} was removed by {touch.source} ({_place(touch.where)})")
                break
        result.append(d)
    return result


def _raise_unless_only_schema(out: _Collector) -> None:
    """Stop at YAML, include and overlay errors (nothing sound to check further); schema
    errors alone let the semantic checks run too, so every mistake is reported at once.
    (Size limits, found after merging, stop the load there: see load_raw.)"""
    if any(d.code not in ("schema", "limit") for d in out.diagnostics if d.severity == "error"):
        raise RuleFileError(out.diagnostics)


def _load_checked(path: Path, kind: str, out: _Collector) -> tuple[Any, PositionMap]:
    try:
        data, pm = load_yaml(path)
    except RuleFileError as err:
        out.diagnostics.extend(err.diagnostics)
        return None, PositionMap(str(path), "")
    if data is None:
        out.error((str(path), 1, 1), "empty-file", "the file is empty")
        return None, pm
    if _wrong_kind(path, kind, data, pm, out):
        return None, pm  # one clear error, not a list of the other kind's keys
    if kind == "include" and not isinstance(data, dict):
        out.error(_at(pm, ()), schema.CODE, f"an included file holds sections of the game, not {_kind(data)}",
                  "write sections as in game.yaml, e.g. cards: {...}")
    else:  # an included file has its own schema: sections only
        out.diagnostics.extend(schema.check(data, pm, kind))
    return data, pm


def _wrong_kind(path: Path, kind: str, data: Any, pm: PositionMap, out: _Collector) -> bool:
    """An overlay given where a game was asked for, or a game given as an overlay: say
    so, and how to load it, in one error (True when it was)."""
    if not isinstance(data, dict):
        return False
    where = path.parent if path.name in ("game.yaml", "overlay.yaml") else path
    if kind == "game" and "overlay" in data and "id" not in data:
        base = data.get("base")
        out.error(_at(pm, ("overlay",)), "not-a-game",
                  f"this is an overlay ('{data['overlay']}', on '{base}'), not a game",
                  f"load its base game with it: {base} --with {where}")
        return True
    if kind == "overlay" and "id" in data and "overlay" not in data:
        out.error(_at(pm, ("id",)), "not-an-overlay", f"this is a game ('{data['id']}'), not an overlay",
                  f"load it as the game: {where}")
        return True
    return False


def _at(pm: PositionMap, keypath: tuple[Any, ...]) -> tuple[str, int, int]:
    where = pm.nearest(keypath)
    return pm.path, where.line, where.column


def _merge_file(merged: dict[str, Any], origins: Origins, data: dict[str, Any], pm: PositionMap,
                out: _Collector) -> None:
    for key, value in data.items():
        if key in MAP_SECTIONS + LIST_SECTIONS and not isinstance(value, dict if key in MAP_SECTIONS else list):
            continue  # a schema error (every section is typed there); nothing to merge
        if key in MAP_SECTIONS:
            section = merged.setdefault(key, {})
            for item_id, item in value.items():
                if item_id in section:
                    first = origins.locate_key((key, item_id))
                    out.error(_key_at(pm, (key, item_id)), "duplicate-id",
                              f"{key}.{item_id} is defined twice (first at {first[0]}:{first[1]})")
                    continue
                section[item_id] = item
                origins.add((key, item_id), pm, (key, item_id))
        elif key in LIST_SECTIONS:
            section_list = merged.setdefault(key, [])
            for i, item in enumerate(value):
                origins.add((key, len(section_list)), pm, (key, i))
                section_list.append(item)
        else:
            if key in merged and key not in ("orrery",):
                out.error(_key_at(pm, (key,)), "duplicate-id", f"'{key}' is defined in more than one file")
                continue
            merged[key] = value
            origins.add((key,), pm, (key,))


def _key_at(pm: PositionMap, keypath: tuple[Any, ...]) -> tuple[str, int, int]:
    where = pm.key(keypath) or pm.nearest(keypath)
    return pm.path, where.line, where.column


def apply_overlay(merged: dict[str, Any], origins: Origins, overlay: dict[str, Any], pm: PositionMap,
                  base: tuple[Any, ...], out: _Collector, source: str | None = None) -> None:
    """Apply add/replace/patch/remove/set/append/prepend of an overlay (or a variant) to
    the merged game. A part of the wrong shape (the schema says so too) is reported and
    left out, so a broken overlay gives diagnostics wherever it is applied. `source`
    names the overlay in conflict messages (default: its file)."""
    source = source or pm.path
    for op in OVERLAY_OPS:
        body = overlay.get(op)
        if body is None or body == {}:
            continue
        if not isinstance(body, dict):
            out.shape_error(_at(pm, base + (op,)),
                            f"'{op}' must be a map, not {_kind(body)}", schema.overlay_hint((op,)))
            continue
        for section, items in body.items():
            where_section = base + (op, section)
            if op in TEXT_OPS and section in SET_SECTIONS:
                _extend_text(merged, origins, (section,), items, pm, where_section, out, source, op)
                continue
            if op == "set":
                if section not in SET_SECTIONS:
                    hint = hint_for(section, SET_SECTIONS) or f"'set' replaces one of: {', '.join(SET_SECTIONS)}"
                    out.error(_key_at(pm, where_section), "overlay-section",
                              f"'set' replaces top-level entries; '{section}' is not one", hint)
                    continue
                _claim(out, (section,), _key_at(pm, where_section), source)
                merged[section] = copy.deepcopy(items)
                _forget(origins, (section,))
                origins.add((section,), pm, where_section)
                continue
            if section not in MAP_SECTIONS:
                choices = MAP_SECTIONS + (("setup", "flow") if op in TEXT_OPS else ())
                out.error(_key_at(pm, where_section), "overlay-section",
                          f"'{op}' works on sections of definitions; '{section}' is not one",
                          hint_for(section, choices))
                continue
            if items is None:
                continue
            target = merged.setdefault(section, {})
            if op == "remove" and isinstance(items, list):
                _remove(target, section, items, pm, where_section, out, source)
                continue
            if op == "remove" or not isinstance(items, dict):
                what = "a list of ids" if op == "remove" else "a map of id -> definition"
                out.shape_error(_at(pm, where_section), f"'{op}: {section}' must be {what}, not {_kind(items)}",
                                schema.overlay_hint((op, section)))
                continue
            for item_id, item in items.items():
                _apply_one(merged, origins, op, section, item_id, item, pm, where_section + (item_id,), out, source)


def _apply_one(merged: dict[str, Any], origins: Origins, op: str, section: str, item_id: Any, item: Any,
               pm: PositionMap, keypath: tuple[Any, ...], out: _Collector, source: str) -> None:
    """One definition of one operation of an overlay."""
    target = merged[section]
    logical = (section, item_id)
    here = _key_at(pm, keypath)
    if op == "add" and item_id in target:
        clashes = _clashes(target[item_id], item)
        if clashes or not isinstance(item, dict) or not isinstance(target[item_id], dict):
            first = origins.locate_key(logical)
            also = f" and so does its {', '.join(clashes[:3])}" if clashes else ""
            out.error(here, "overlay-exists", f"cannot add {section}.{item_id}: it already exists "
                                              f"(at {first[0]}:{first[1]}){also}; use replace or patch")
            return
        # Adding fields a definition lacks: the way to give it genuinely new properties.
        target[item_id] = _deep_merge(target[item_id], item, origins, logical, pm, keypath, out, source)
        return
    if op == "add" and isinstance(item, dict) and item_id not in target:  # a new definition is complete
        for key in [k for k in _schema_entry(section).get("required", ()) if k not in item]:
            out.error(here, schema.CODE, f"missing required key '{key}' in add.{section}.{item_id}",
                      "a new definition is complete; to change an existing one, use patch")
    if op != "add" and item_id not in target:
        removed = out.removed.get(logical)
        if removed is not None:
            out.error(here, "overlay-missing", f"cannot {op} {section}.{item_id}: {removed.source} removed it",
                      f"removed at {_place(removed.where)}; apply this overlay first, or drop one of the two")
        else:
            out.error(here, "overlay-missing", f"cannot {op} {section}.{item_id}: it does not exist",
                      copy_hint(section, item_id, target) or hint_for(str(item_id), target)
                      or "use add for a new definition")
        return
    if op in TEXT_OPS:
        _extend_fields(merged, origins, logical, item, target[item_id], pm, keypath, out, source, op)
    elif op == "patch":
        if not _unknown_fields(merged, section, item_id, item, pm, keypath, out):
            target[item_id] = _deep_merge(target[item_id], item, origins, logical, pm, keypath, out, source)
    else:
        # A definition an overlay adds is new, not a change of another overlay's value: a
        # later overlay patching it (a mod of an expansion's card) builds on it.
        if op != "add":
            _claim(out, logical, here, source)
        target[item_id] = copy.deepcopy(item)
        _forget(origins, logical)
        origins.add(logical, pm, keypath)


def _place(where: tuple[str, int, int]) -> str:
    return f"{where[0]}:{where[1]}:{where[2]}"


def _claim(out: _Collector, logical: tuple[Any, ...], where: tuple[str, int, int], source: str,
           appended: bool = False) -> None:
    """Record that `source` changes the value at `logical`; when another overlay changed
    it (or a part of it) before, that change is lost: a warning naming both."""
    group = out.touched.setdefault(logical[:2], {})
    if not appended:
        for other_path, other in group.items():
            if other.source == source:
                continue
            if other_path[: len(logical)] != logical and logical[: len(other_path)] != other_path:
                continue
            name = ".".join(str(p) for p in logical)
            lost = "appended text is" if other.appended else "change is"
            out.warnings.append(Diagnostic(
                where[0], where[1], where[2], "overlay-conflict",
                f"{name} is changed by two overlays: {other.source} ({_place(other.where)}) and {source} "
                f"(here); this one wins, being applied later, and the other's {lost} lost",
                hint="make one overlay build on the other (append, or patch different fields); "
                     "--strict makes this an error", severity="warning"))
            break
    group[logical] = Touch(where, source, appended)


def _clashes(old: Any, new: Any, prefix: str = "") -> list[str]:
    """The fields of `new` that `old` has already (as dotted paths), for `add`."""
    if not isinstance(old, dict) or not isinstance(new, dict):
        return [prefix.rstrip(".")] if prefix else []
    found: list[str] = []
    for key, value in new.items():
        if key in old:
            found.extend(_clashes(old[key], value, f"{prefix}{key}.") if isinstance(value, dict)
                         and isinstance(old[key], dict) else [f"{prefix}{key}"])
    return found


def _unknown_fields(merged: dict[str, Any], section: str, item_id: Any, item: Any, pm: PositionMap,
                    keypath: tuple[Any, ...], out: _Collector) -> bool:
    """A patch changes what is there: a field that no definition of the section has is a
    typo (a new one is written under `add:`). Constants are data and may grow."""
    if section == "constants" or not isinstance(item, dict):
        return False
    defs = [d for d in (merged.get(section) or {}).values() if isinstance(d, dict)]
    known = {k for d in defs for k in d} | _schema_fields(section)
    bad = False
    for key, value in item.items():
        if key not in known:
            bad = True
            out.error(_key_at(pm, keypath + (key,)), "patch-unknown",
                      f"no definition of {section} has a field '{key}', so patching it changes nothing",
                      hint_for(str(key), known) or f"a genuinely new field: add: {{{section}: {{{item_id}: "
                                                   f"{{{key}: ...}}}}}}")
        elif section == "cards" and key == "properties" and isinstance(value, dict):
            props = {k for d in defs for k in (d.get("properties") or {})}
            for prop in value:
                if prop not in props:
                    bad = True
                    out.error(_key_at(pm, keypath + (key, prop)), "patch-unknown",
                              f"no card has a property '{prop}', so patching it changes nothing",
                              hint_for(str(prop), props) or f"a genuinely new property: add: {{cards: "
                                                              f"{{{item_id}: {{properties: {{{prop}: ...}}}}}}}}")
    return bad


def _schema_entry(section: str) -> dict[str, Any]:
    """The game schema's definition of one entry of `section` (empty for constants)."""
    definitions = schema.load_schema("game").get("definitions", {})
    entry: dict[str, Any] = definitions.get(SECTION_ENTRY.get(section, "")) or {}
    return entry


def _schema_fields(section: str) -> set[str]:
    """The fields the game schema allows in a definition of `section`."""
    return set(_schema_entry(section).get("properties", {}))


SECTION_ENTRY = {s: s[:-1] for s in MAP_SECTIONS if s != "constants"}


def _extend_fields(merged: dict[str, Any], origins: Origins, logical: tuple[Any, ...], item: Any, old: Any,
                   pm: PositionMap, keypath: tuple[Any, ...], out: _Collector, source: str, op: str) -> None:
    """`append`/`prepend` inside a definition: follow the map down to the effect texts."""
    if isinstance(item, str):
        _extend_text(merged, origins, logical, item, pm, keypath, out, source, op)
        return
    if not isinstance(item, dict) or not isinstance(old, dict):
        name = ".".join(str(p) for p in logical)
        out.error(_at(pm, keypath), "overlay-shape", f"'{op}' adds effect text; {name} is not a map of texts",
                  f"e.g. {op}: {{procedures: {{deal: {{effect: TEXT}}}}}}")
        return
    for key, value in item.items():
        if key not in old:
            name = ".".join(str(p) for p in logical + (key,))
            out.error(_key_at(pm, keypath + (key,)), "overlay-missing",
                      f"cannot {op} to {name}: it does not exist", hint_for(str(key), old)
                      or "append and prepend extend existing effect text; add a new one with add or patch")
            continue
        _extend_fields(merged, origins, logical + (key,), value, old[key], pm, keypath + (key,), out, source, op)


def _extend_text(merged: dict[str, Any], origins: Origins, logical: tuple[Any, ...], text: Any, pm: PositionMap,
                 keypath: tuple[Any, ...], out: _Collector, source: str, op: str) -> None:
    """Join `text` after (append) or before (prepend) the effect text at `logical`; the
    joined text remembers which lines came from which file."""
    container: Any = merged
    for part in logical[:-1]:
        container = container.get(part) if isinstance(container, dict) else None
    name = ".".join(str(p) for p in logical)
    old = container.get(logical[-1]) if isinstance(container, dict) else None
    if not isinstance(text, str):
        out.shape_error(_at(pm, keypath), f"'{op}' adds effect text; this is {_kind(text)}",
                        f"write the text to {op} to {name}")
        return
    if not isinstance(old, str) or not _is_effect_text(logical):
        what = "does not exist" if old is None else "is not effect text"
        out.error(_key_at(pm, keypath), "overlay-missing", f"cannot {op} to {name}: it {what}",
                  "append and prepend extend existing effect text (setup, flow, an effect, ...)")
        return
    _claim(out, logical, _key_at(pm, keypath), source, appended=True)
    pieces = origins.pieces.get(logical)
    if pieces is None:
        opm, okey = origins.find(logical)
        pieces = [Piece(1, opm, okey)]
    head, tail = old.rstrip("\n"), text.rstrip("\n")
    if op == "append":
        joined = head + "\n" + tail + "\n"
        pieces = pieces + [Piece(head.count("\n") + 2, pm, keypath)]
    else:
        joined = tail + "\n" + head + "\n"
        shift = tail.count("\n") + 1
        pieces = [Piece(1, pm, keypath)] + [attrs.evolve(p, first_line=p.first_line + shift) for p in pieces]
    container[logical[-1]] = joined
    origins.pieces[logical] = pieces


def _is_effect_text(logical: tuple[Any, ...]) -> bool:
    """Whether a field holds statements (`setup`, `flow`, an `effect`, a bot's `turn`, a
    card's named effect): appending a line to a name, a label or a condition would only
    make a broken value."""
    last = logical[-1]
    return last in ("setup", "flow", "effect", "turn") or (len(logical) >= 2 and logical[-2] == "effects")


def _remove(target: dict[str, Any], section: str, ids: list[Any], pm: PositionMap, where: tuple[Any, ...],
            out: _Collector, source: str) -> None:
    for i, item_id in enumerate(ids):
        if not isinstance(item_id, str):
            out.shape_error(_at(pm, where + (i,)), f"'remove: {section}' lists ids; {_kind(item_id)} is not one",
                            schema.overlay_hint(("remove", section, i)))
            continue
        if item_id not in target:
            removed = out.removed.get((section, item_id))
            out.error(_at(pm, where + (i,)), "overlay-missing", f"cannot remove {section}.{item_id}: " + (
                f"{removed.source} removed it already" if removed else "it does not exist"),
                f"removed at {_place(removed.where)}" if removed else hint_for(item_id, target))
            continue
        _claim(out, (section, item_id), _at(pm, where + (i,)), source)
        out.removed[(section, item_id)] = Touch(_at(pm, where + (i,)), source)
        del target[item_id]


def _kind(value: Any) -> str:
    """What a misplaced value is, in words: `a list`, `the text 'oops'`, `the number 5`."""
    if value is None:
        return "empty"
    if isinstance(value, dict):
        return "a map"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"the text '{value if len(value) <= 30 else value[:27] + '...'}'"
    return f"the number {value}"


def _forget(origins: Origins, logical: tuple[Any, ...]) -> None:
    for key in [k for k in origins.table if k[: len(logical)] == logical and len(k) > len(logical)]:
        del origins.table[key]
    for key in [k for k in origins.pieces if k[: len(logical)] == logical]:
        del origins.pieces[key]


def _deep_merge(old: Any, new: Any, origins: Origins, logical: tuple[Any, ...], pm: PositionMap,
                keypath: tuple[Any, ...], out: _Collector | None = None, source: str = "") -> Any:
    if not isinstance(old, dict) or not isinstance(new, dict):
        if out is not None:
            _claim(out, logical, _key_at(pm, keypath), source)
        _forget(origins, logical)
        origins.add(logical, pm, keypath)
        return copy.deepcopy(new)
    result = dict(old)
    for key, value in new.items():
        result[key] = _deep_merge(old.get(key), value, origins, logical + (key,), pm, keypath + (key,), out, source)
    return result
