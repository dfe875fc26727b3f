"""Scenario files (`orrery test`, docs/scenarios.md): reading them, checking their shape,
and finding the ones a game or an overlay carries.

A scenario file is YAML: `scenarios:`, a list of scenarios, each with a name, the game
options (players, seats, seed, variants, overlays), a position arranged as data, the
actions to apply by their text, and expectations. This module reads a file with the
rule files' safe loader (positions kept, so every later message points at
`file:line:col`) and checks what can be checked without the game: the keys and the kinds
of their values. Names (cards, zones, counters) are resolved against the game when the
scenario runs (scenario_run.py). Every problem is a Diagnostic with a code and, where
one helps, a hint; a file that does not read raises one RuleFileError with all of them.

Where scenarios live: a `scenarios/` folder beside a game's (or an overlay's) main
file; `orrery test GAME` runs the game's own and those of the bundled expansions of
that game (each with its expansion applied).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import attrs

from interpreter.diagnostics import Diagnostic, RuleFileError, hint_for
from interpreter.rules.loader import bundled_entries, resolve
from interpreter.rules.positions import KeyPath, PositionMap
from interpreter.rules.yamlload import load_yaml

FOLDER = "scenarios"
FILE_KEYS = ("game", "scenarios")
SCENARIO_KEYS = ("name", "players", "seats", "seed", "variants", "with", "chance", "setup", "setup_choices",
                 "position", "actions", "expect")
POSITION_KEYS = ("counters", "zones", "spare", "calls")
EXPECT_KEYS = ("to_act", "decision", "legal", "counters", "values", "zones", "log", "over", "winners", "returns")
ZONE_MODES = ("top", "bottom")
LIST_CHECKS = ("contains", "excludes")
ZONE_CHECKS = ("contains", "excludes", "count", "any_order")
# `name` or `name(P2)`: a zone, counter or value, of a player or not
PLACE = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*(?:\(\s*P(\d+)\s*\))?\s*$")
PLAYER = re.compile(r"^P([1-9]\d*)$")
CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*\((.*)\)\s*$")


@attrs.frozen
class Scenario:
    """One scenario of a file: its place in the file and its data (shape checked)."""

    path: str
    index: int
    name: str
    data: dict[str, Any]
    positions: PositionMap
    folder: Path
    overlays: tuple[str, ...] = ()  # added by where it was found (an expansion's scenarios)

    @property
    def keypath(self) -> KeyPath:
        return ("scenarios", self.index)

    def at(self, *keys: str | int) -> tuple[int, int]:
        """Line and column of a part of this scenario (the nearest written place)."""
        found = self.positions.nearest((*self.keypath, *keys))
        return found.line, found.column


@attrs.frozen
class ScenarioFile:
    path: str
    game: str | None
    scenarios: tuple[Scenario, ...]


class _Problems:
    def __init__(self, path: str, pm: PositionMap):
        self.path, self.pm = path, pm
        self.found: list[Diagnostic] = []

    def add(self, keys: KeyPath, code: str, message: str, hint: str | None = None, key: bool = False) -> None:
        where = (self.pm.key(keys) if key else None) or self.pm.nearest(keys)
        self.found.append(Diagnostic(self.path, where.line, where.column, code, message, hint=hint))

    def keys(self, data: dict[str, Any], keys: KeyPath, allowed: tuple[str, ...], what: str) -> None:
        for name in data:
            if name not in allowed:
                self.add((*keys, name), "scenario-key", f"unknown key '{name}' in {what}",
                         hint_for(str(name), allowed) or f"the keys of {what}: {', '.join(allowed)}", key=True)

    def kind(self, value: Any, keys: KeyPath, want: type | tuple[type, ...], what: str) -> bool:
        ok = isinstance(value, want) and not (isinstance(value, bool) and bool not in _types(want))
        if not ok:
            quote = str in _types(want) and isinstance(value, dict) and len(value) == 1
            self.add(keys, "scenario-shape", f"{what} must be {_kind_name(want)}, not {_describe(value)}",
                     hint="put the text in quotes: unquoted, a text with ': ' in it reads as a mapping" if quote
                     else None)
        return ok


def _types(want: type | tuple[type, ...]) -> tuple[type, ...]:
    return want if isinstance(want, tuple) else (want,)


def _kind_name(want: type | tuple[type, ...]) -> str:
    names = {dict: "a mapping", list: "a list", str: "a text", int: "a whole number", bool: "true or false",
             float: "a number"}
    return " or ".join(names.get(t, t.__name__) for t in _types(want))


def _describe(value: Any) -> str:
    if value is None:
        return "empty"
    return {dict: "a mapping", list: "a list", str: f"the text {str(value)[:40]!r}", bool: f"{value}".lower()}.get(
        type(value), repr(value)[:40])


def read_file(path: str | Path) -> ScenarioFile:
    """The scenarios of a file, their shape checked; RuleFileError with every problem."""
    shown = str(path)
    data, pm = load_yaml(path, shown)
    out = _Problems(shown, pm)
    scenarios: list[Scenario] = []
    game = None
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), list):
        out.add((), "scenario-shape", "a scenario file is a mapping whose `scenarios:` is a list of scenarios",
                hint="see docs/scenarios.md for an example")
        raise RuleFileError(out.found)
    out.keys(data, (), FILE_KEYS, "a scenario file")
    if "game" in data and out.kind(data["game"], ("game",), str, "game"):
        game = data["game"]
    names: dict[str, int] = {}
    for index, item in enumerate(data["scenarios"]):
        keys: KeyPath = ("scenarios", index)
        if not out.kind(item, keys, dict, "a scenario"):
            continue
        _check_scenario(item, keys, out)
        name = item.get("name")
        if isinstance(name, str):
            if name in names:
                out.add((*keys, "name"), "scenario-name", f"two scenarios are named '{name}' (the other is "
                        f"scenario {names[name] + 1} of this file)", hint="give each scenario its own name")
            names[name] = index
            scenarios.append(Scenario(shown, index, name, item, pm, Path(path).resolve().parent))
    if not scenarios and not out.found:
        out.add(("scenarios",), "scenario-shape", "this file holds no scenario")
    if out.found:
        raise RuleFileError(out.found)
    return ScenarioFile(shown, game, tuple(scenarios))


def _check_scenario(item: dict[str, Any], keys: KeyPath, out: _Problems) -> None:
    out.keys(item, keys, SCENARIO_KEYS, "a scenario")
    if "name" not in item:
        out.add(keys, "scenario-shape", "a scenario needs a `name:`")
    elif out.kind(item["name"], (*keys, "name"), str, "name") and not item["name"].strip():
        out.add((*keys, "name"), "scenario-shape", "a scenario's name must not be empty")
    for key, want in (("players", int), ("seed", int), ("seats", list), ("variants", list), ("with", list),
                      ("position", dict), ("actions", list), ("expect", dict)):
        if key in item:
            out.kind(item[key], (*keys, key), want, key)
    for key in ("seats", "variants", "with"):
        if isinstance(item.get(key), list):
            for i, value in enumerate(item[key]):
                out.kind(value, (*keys, key, i), str, f"each of {key}")
    if item.get("chance", "seeded") not in ("seeded", "explicit"):
        out.add((*keys, "chance"), "scenario-shape", "chance is `seeded` (the seed draws) or `explicit` (random "
                "events wait for their outcome, given as an action such as `chance 6`)")
    if item.get("setup", "game") not in ("game", "skip"):
        out.add((*keys, "setup"), "scenario-shape", "setup is `game` (the game's setup runs, the default) or "
                "`skip` (the position starts from the components where the rules first place them)")
    choices = item.get("setup_choices")
    if choices is not None and choices != "first" and not (isinstance(choices, list)
                                                            and all(isinstance(c, str | int) for c in choices)):
        out.add((*keys, "setup_choices"), "scenario-shape", "setup_choices is a list of answers (as a player types "
                "them) or `first` (every setup decision takes its first option)")
    if isinstance(item.get("position"), dict):
        _check_position(item["position"], (*keys, "position"), out)
    for i, step in enumerate(item.get("actions") or [] if isinstance(item.get("actions"), list) else []):
        where = (*keys, "actions", i)
        if isinstance(step, dict):
            if set(step) == {"expect"} and isinstance(step["expect"], dict):
                _check_expect(step["expect"], (*where, "expect"), out)
            elif set(step) == {"repeat", "until"} and isinstance(step["until"], dict):
                out.kind(step["repeat"], (*where, "repeat"), (str, int), "repeat (an action's text)")
                _check_expect(step["until"], (*where, "until"), out)
            else:
                out.add(where, "scenario-shape", "an item of `actions` is an action's text, `expect:` with what "
                        "must hold at that point, or `repeat: ACTION` with `until:` what must hold to stop")
        elif not isinstance(step, str | int):
            out.add(where, "scenario-shape", f"an action is its text, as a player types it, not {_describe(step)}")
    if isinstance(item.get("expect"), dict):
        _check_expect(item["expect"], (*keys, "expect"), out)


def _check_position(position: dict[str, Any], keys: KeyPath, out: _Problems) -> None:
    out.keys(position, keys, POSITION_KEYS, "a position")
    if "spare" in position:
        out.kind(position["spare"], (*keys, "spare"), str, "spare (the zone cards taken out go to)")
    if "calls" in position and out.kind(position["calls"], (*keys, "calls"), list, "calls"):
        for i, text in enumerate(position["calls"]):
            if out.kind(text, (*keys, "calls", i), str, "a call") and not CALL.match(text):
                split = text.count("(") != text.count(")")
                out.add((*keys, "calls", i), "scenario-shape", f"'{text}' is not a call such as `place(P1, ace)`",
                        hint="in a list written [a, b], put each call in quotes: its commas split it" if split
                        else "a procedure of the game, then its arguments in brackets: players, cards, numbers")
    if out.kind(position.get("counters", {}), (*keys, "counters"), dict, "counters"):
        _check_places(position.get("counters", {}), (*keys, "counters"), out)
    zones = position.get("zones", {})
    if out.kind(zones, (*keys, "zones"), dict, "zones"):
        _check_places(zones, (*keys, "zones"), out)
        for name, cards in zones.items():
            where = (*keys, "zones", name)
            if isinstance(cards, dict):
                out.keys(cards, where, ZONE_MODES, "a zone's cards")
                if len(cards) != 1:
                    out.add(where, "scenario-shape", "a zone's cards are a list (exactly these), or one of `top:`, "
                            "`bottom:` (these there, the others stay)")
                for mode, listed in cards.items():
                    _check_cards(listed, (*where, mode), out)
            else:
                _check_cards(cards, where, out)


def _check_cards(cards: Any, keys: KeyPath, out: _Problems) -> None:
    if out.kind(cards, keys, list, "a zone's cards"):
        for i, card in enumerate(cards):
            out.kind(card, (*keys, i), str, "a card (its id or name, `id#copy` for one copy)")


def _check_places(places: dict[str, Any], keys: KeyPath, out: _Problems) -> None:
    for name in places:
        if not isinstance(name, str) or not PLACE.match(name):
            out.add((*keys, name), "scenario-shape", f"'{name}' is not a name or `name(P2)`", key=True)


def _check_expect(expect: dict[str, Any], keys: KeyPath, out: _Problems) -> None:
    out.keys(expect, keys, EXPECT_KEYS, "expectations")
    for key in ("counters", "values", "zones"):
        if key in expect and out.kind(expect[key], (*keys, key), dict, key):
            _check_places(expect[key], (*keys, key), out)
    for key in ("legal", "log"):
        value = expect.get(key)
        if isinstance(value, dict):
            out.keys(value, (*keys, key), LIST_CHECKS, f"expected {key}")
            for check, texts in value.items():
                if out.kind(texts, (*keys, key, check), list, f"{key} {check}"):
                    for i, text in enumerate(texts):
                        out.kind(text, (*keys, key, check, i), (str, int), f"each of {key} {check}")
        elif value is not None and out.kind(value, (*keys, key), (list, dict), key):
            for i, text in enumerate(value):
                out.kind(text, (*keys, key, i), (str, int), f"each of {key}")
    if "over" in expect:
        out.kind(expect["over"], (*keys, "over"), bool, "over")
    for key in ("winners", "returns"):
        if key in expect:
            out.kind(expect[key], (*keys, key), list, key)
    for key in ("to_act", "decision"):
        if key in expect:
            out.kind(expect[key], (*keys, key), str, key)
    zones = expect.get("zones")
    if isinstance(zones, dict):
        for name, cards in zones.items():
            if isinstance(cards, dict):
                out.keys(cards, (*keys, "zones", name), ZONE_CHECKS, "a zone's expected cards")
            elif not isinstance(cards, list):
                out.add((*keys, "zones", name), "scenario-shape", "a zone's expected cards are a list (exactly "
                        "these, top first) or a mapping of contains, excludes, count, any_order")


# ---- where scenarios are -------------------------------------------------------------------


@attrs.frozen
class Carried:
    """Scenario files found for a game: each with the overlays to run it with."""

    path: Path
    overlays: tuple[str, ...]


def carried(game: str, overlays: list[str]) -> list[Carried]:
    """The scenario files a game carries (its `scenarios/` folder), those of the bundled
    expansions of it (each run with the expansion), and those of the overlays given."""
    home = resolve(game, "game")
    found = [Carried(p, ()) for p in _files(home.parent)]
    game_id = _game_id(home)
    named = set(overlays)
    for entry in bundled_entries():
        if entry["kind"] == "expansion" and entry.get("base") == game_id and entry["id"] not in named:
            found += [Carried(p, (entry["id"],)) for p in _files(Path(entry["path"]).parent)]
    for overlay in overlays:
        found += [Carried(p, ()) for p in _files(resolve(overlay, "overlay").parent)]
    return found


def _files(folder: Path) -> list[Path]:
    where = folder / FOLDER
    return sorted(where.glob("*.yaml")) if where.is_dir() else []


def _game_id(path: Path) -> str | None:
    for entry in bundled_entries():
        if Path(entry["path"]).resolve() == path.resolve():
            return str(entry["id"])
    return None
