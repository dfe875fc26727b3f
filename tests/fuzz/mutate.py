"""The mutator: seeded, broken variations of the bundled rule files.

The corpus is every YAML file of `games/` and `examples/`: game files, the files they
include, overlays (expansions and mods). A mutant is one unit (a game folder, or an
overlay) with one of its files changed by one to three mutations, chosen by a
`random.Random` seeded from (seed, mutant number) alone, so mutant N of seed S is the
same on every machine and can be made again from those two numbers.

Mutations act on the data (delete, duplicate, swap or rename keys and list items;
change a value's type; huge, negative and off-by-one numbers; overlay operations of the
wrong type), on effect text (delete or repeat a token, swap an operator, insert a word
of the language or a name of the game, truncate, re-indent or repeat a line, a number
thousands of digits long) or on the file's text (delete, repeat or swap lines, a tab,
YAML punctuation, truncation). Data mutations write the file back with PyYAML.
"""

from __future__ import annotations

import copy
import functools
import pathlib
import random
import re
from typing import Any

import attrs
import yaml

from interpreter.resources import data_path
from interpreter.rules.yamlload import load_yaml_text

KEYWORDS = (
    "let", "set", "to", "gain", "lose", "pay", "move", "draw", "from", "shuffle", "create", "in", "destroy",
    "reveal", "choose", "up", "by", "prompt", "take", "actions", "use", "emit", "grant", "until", "end", "of",
    "game", "winners", "log", "stop", "if", "elif", "else", "for", "each", "repeat", "forever", "while", "turn",
    "round", "one", "when", "and", "or", "not", "true", "false", "none", "top", "bottom", "me", "players",
    "len", "range", "max", "min", "sum", "random", "top", "text", "(", ")", "[", "]", ":", ",", ".", '"', "=",
    "+", "-", "*", "/", "%", "==", "<", "{", "}", "\n", "\n  ", "#",
)
OPERATOR_SWAPS = {
    "+": "-", "-": "+", "*": "/", "/": "%", "%": "*", "==": "!=", "!=": "==", "<": ">", ">": "<", "<=": ">=",
    ">=": "<=", "and": "or", "or": "and", "not": "", "in": "not in", "true": "false", "false": "true",
    "top": "bottom", "bottom": "top", "gain": "lose", "lose": "pay", "pay": "gain", "for": "while",
}
TOKEN = re.compile(r'\s+|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|"(?:[^"\\\n]|\\.)*"|==|!=|<=|>=|.', re.S)
# Keys whose strings (or whose items' strings) are effect text, expressions or templates.
EFFECT_KEYS = frozenset({"effect", "effects", "flow", "setup", "when", "amount", "base", "value", "condition",
                         "score", "winners", "turn", "params", "cost", "tie_breaks", "eligible", "returns", "label",
                         "on", "views"})
OVERLAY_OPS = ("add", "replace", "patch", "remove", "set")
WRONG_OPERATIONS: tuple[Any, ...] = (
    "oops", [1, 2], 5, None, True, {"cards": 5}, {"cards": [[1]]}, {"cards": "oops"}, {"cards": {"nope": {}}},
    {"nonsense": {}}, {"flow": 5}, {"cards": {"x": 5}}, {"cards": [None, 3, "nope"]}, {"players": {"min": 9}},
    {"constants": [1]}, {"end": "x"}, {"zones": {"z": {"scope": "player"}}}, {"cards": {"c": {"count": 10**8}}},
)
FILE_NOISE = ("\t", ": ", "- ", "&a ", "*a", "!!python/object:os.system ", "<<: *a", "{", "[", "'", '"', "---\n",
              "? ", "%YAML 1.1\n", "\x00", "key: value\n", "\ufeff")


class Huge(str):
    """An integer too long for int() (past Python's 4,300 digits): written as digits."""


@attrs.frozen
class Unit:
    """A game folder or an overlay: what one mutant is loaded as. `files` maps a path
    relative to the unit's folder to its text; `main` is the file validate is given."""

    name: str
    kind: str  # "game" or "overlay"
    files: dict[str, str]
    main: str


@attrs.frozen
class Mutant:
    """Unit `unit` with `file` changed; `changes` says how, for people."""

    seed: int
    index: int
    unit: Unit
    file: str
    changes: tuple[str, ...]
    mode: str = "rules"  # which mutator made it: "rules" (this module) or "compiler" (hostile.py)

    @property
    def label(self) -> str:
        return f"{'compiler ' if self.mode == 'compiler' else ''}seed {self.seed} mutant {self.index}"


def is_scenario_file(path: pathlib.Path) -> bool:
    """A scenario file (`orrery test`, in a `scenarios/` folder): no rule file, not fuzzed."""
    return "scenarios" in path.parent.parts


def corpus() -> list[Unit]:
    """Every bundled game folder and overlay, with all their YAML files."""
    units = []
    for folder in ("games", "examples"):
        root = data_path(folder)
        for path in sorted(root.rglob("*.yaml")):
            if path.name == "overlay.yaml":
                units.append(Unit(f"{folder}/{path.parent.name}", "overlay",
                                  {path.name: path.read_text(encoding="utf-8")}, path.name))
            elif path.name == "game.yaml":
                files = {p.relative_to(path.parent).as_posix(): p.read_text(encoding="utf-8")
                         for p in sorted(path.parent.rglob("*.yaml"))
                         if p.name != "overlay.yaml" and not is_scenario_file(p)}
                units.append(Unit(f"{folder}/{path.parent.name}", "game", files, path.name))
    return units


def make_mutant(units: list[Unit], seed: int, index: int) -> Mutant:
    """Mutant `index` of `seed`: always the same for the same two numbers."""
    rng = random.Random(f"orrery-fuzz/{seed}/{index}")
    unit = rng.choice(units)
    file = rng.choice(sorted(unit.files))
    text = unit.files[file]
    changes: list[str] = []
    if rng.random() < 0.15:
        for _ in range(rng.choice((1, 1, 2))):
            text = _mutate_text(rng, text, changes)
    else:
        data = copy.deepcopy(_parsed(text, file))
        names = _names(data)
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            data = _mutate_data(rng, data, names, unit.kind == "overlay", changes)
        text = dump(data)
    files = dict(unit.files)
    files[file] = text
    return Mutant(seed, index, Unit(unit.name, unit.kind, files, unit.main), file, tuple(changes))


@functools.lru_cache(maxsize=64)
def _parsed(text: str, file: str) -> Any:
    """A bundled file's data, read once per process (mutants change a deep copy)."""
    return load_yaml_text(text, file)[0]


# ---- data -----------------------------------------------------------------------------------


def _slots(data: Any) -> list[tuple[Any, Any, tuple[Any, ...]]]:
    """Every (container, key or index, path) of the data tree, root excluded."""
    found = []
    todo: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while todo:
        node, path = todo.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            found.append((node, key, (*path, key)))
            todo.append((value, (*path, key)))
    return found


def _names(data: Any) -> list[str]:
    """The ids a game defines (definition keys): words a mutation may misplace."""
    names = {"me", "p", "c"}
    if isinstance(data, dict):
        for section in data.values():
            if isinstance(section, dict):
                names.update(str(k) for k in section)
    return sorted(names)


def _random_value(rng: random.Random, names: list[str]) -> Any:
    return rng.choice((0, 1, -1, 7, "oops", "", rng.choice(names), [], [1, "x"], {}, {"a": 1}, None, True, False,
                       2.5, "true", "1", [None], {"name": "x"}))


def _number(rng: random.Random, value: int) -> Any:
    return rng.choice((-1, 0, 1, value + 1, value - 1, -value, 2**31, 2**63 - 1, 2**63, -(2**63), 10**8, 10**38,
                       10**4000, Huge("9" * 5000), 99999))


def _mutate_data(rng: random.Random, data: Any, names: list[str], overlay: bool, changes: list[str]) -> Any:
    slots = _slots(data)
    if not slots or rng.random() < 0.02:
        changes.append("the whole file replaced by a value")
        return _random_value(rng, names)
    if isinstance(data, dict) and rng.random() < (0.25 if overlay else 0.06):
        return _wrong_operation(rng, data, changes)
    texts = [s for s in slots if isinstance(s[0][s[1]], str) and len(s[0][s[1]]) >= 2]
    effects = [s for s in texts if EFFECT_KEYS.intersection(str(p) for p in s[2])]
    if texts and rng.random() < 0.45:
        node, key, path = rng.choice(effects if effects and rng.random() < 0.85 else texts)
        node[key] = _mutate_effect(rng, node[key], names, changes, path)
        return data
    references = [s for s in slots if isinstance(s[0][s[1]], str) and s[0][s[1]] in names]
    if references and rng.random() < 0.15:
        node, key, path = rng.choice(references)
        new = rng.choice(names)
        changes.append(f"{_show(path)}: name {node[key]!r} -> {new!r}")
        node[key] = new
        return data
    node, key, path = rng.choice(slots)
    value = node[key]
    where = _show(path)
    choice = rng.random()
    if isinstance(value, int) and not isinstance(value, bool) and choice < 0.5:
        node[key] = _number(rng, value)
        changes.append(f"{where}: number {value} -> {_short(node[key])}")
    elif choice < 0.2:
        node.pop(key)
        changes.append(f"{where}: deleted")
    elif choice < 0.35:
        if isinstance(node, dict):
            new_key = rng.choice((f"{key}-copy", f"{key}2", rng.choice(names)))
            node.setdefault(new_key, copy.deepcopy(value))
            changes.append(f"{where}: copied as {new_key}")
        else:
            node.insert(key, copy.deepcopy(value))
            changes.append(f"{where}: repeated")
    elif choice < 0.5:
        other = rng.choice(list(node) if isinstance(node, dict) else range(len(node)))
        node[key], node[other] = node[other], value
        changes.append(f"{where}: swapped with {other}")
    elif choice < 0.6 and isinstance(node, dict):
        new_key = rng.choice((str(key)[:-1] or "x", f"{key}x", rng.choice(names), str(key).upper()))
        if new_key not in node:
            node[new_key] = node.pop(key)
        changes.append(f"{where}: renamed {new_key}")
    else:
        node[key] = _random_value(rng, names)
        changes.append(f"{where}: -> {_short(node[key])}")
    return data


def _wrong_operation(rng: random.Random, data: dict[str, Any], changes: list[str]) -> dict[str, Any]:
    """An overlay operation of the wrong shape, in the overlay or in a variant."""
    variants = data.get("variants")
    target, where = data, ""
    if isinstance(variants, dict) and variants and rng.random() < 0.7:
        name = rng.choice(sorted(variants))
        if isinstance(variants[name], dict):
            target, where = variants[name], f"variants.{name}."
    op = rng.choice(OVERLAY_OPS)
    target[op] = copy.deepcopy(rng.choice(WRONG_OPERATIONS))
    changes.append(f"{where}{op}: -> {_short(target[op])}")
    return data


# ---- effect text ------------------------------------------------------------------------------


def _mutate_effect(rng: random.Random, text: str, names: list[str], changes: list[str],
                   path: tuple[Any, ...]) -> str:
    tokens = TOKEN.findall(text)
    words = [i for i, t in enumerate(tokens) if not t.isspace()]
    lines = text.split("\n")
    choice = rng.randrange(10)
    where = _show(path)
    if choice == 0 and words:
        i = rng.choice(words)
        changes.append(f"{where}: token {tokens[i]!r} deleted")
        del tokens[i]
    elif choice == 1 and words:
        swappable = [i for i in words if tokens[i] in OPERATOR_SWAPS]
        i = rng.choice(swappable or words)
        new = OPERATOR_SWAPS.get(tokens[i], rng.choice(KEYWORDS))
        changes.append(f"{where}: {tokens[i]!r} -> {new!r}")
        tokens[i] = new
    elif choice == 2:
        i = rng.randrange(len(tokens) + 1)
        word = rng.choice(KEYWORDS + tuple(names))
        changes.append(f"{where}: {word!r} inserted")
        tokens.insert(i, f" {word} ")
    elif choice == 3:
        cut = rng.randrange(len(text))
        changes.append(f"{where}: truncated at {cut}")
        return text[:cut]
    elif choice == 4 and len(lines) > 1:
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
        changes.append(f"{where}: line {i + 1} repeated")
        return "\n".join(lines)
    elif choice == 5 and len(lines) > 1:
        i = rng.randrange(len(lines))
        lines[i] = rng.choice(("  ", " ", "\t")) + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
        changes.append(f"{where}: line {i + 1} re-indented")
        return "\n".join(lines)
    elif choice == 6:
        numbers = [i for i, t in enumerate(tokens) if t.isdigit()]
        big = rng.choice(("9" * 5000, str(2**63), str(2**63 - 1), "0", "1" + "0" * 30, "00000000000000000001"))
        i = rng.choice(numbers) if numbers else rng.randrange(len(tokens) + 1)
        if numbers:
            tokens[i] = big
        else:
            tokens.insert(i, f" {big} ")
        changes.append(f"{where}: number {_short(big)}")
    elif choice == 9 and words:
        i = rng.choice(words)
        depth = rng.choice((20, 60, 120, 400))
        opening, closing = rng.choice((("(", ")"), ("[", "][0]"), ("-", ""), ("not ", ""), ("max(", ", 0)")))
        if rng.random() < 0.3:
            tokens[i] = tokens[i] + " + 1" * depth
        else:
            tokens[i] = opening * depth + tokens[i] + closing * depth
        changes.append(f"{where}: {tokens[i][:12]!r}... nested {depth} deep")
    elif choice == 7 and words:
        i = rng.choice(words)
        tokens.insert(i, tokens[i] + " ")
        changes.append(f"{where}: token {tokens[i]!r} repeated")
    else:
        name = rng.choice(names)
        idents = [i for i in words if tokens[i][:1].isalpha()]
        if idents:
            i = rng.choice(idents)
            changes.append(f"{where}: {tokens[i]!r} -> {name!r}")
            tokens[i] = name
    return "".join(tokens)


# ---- the file's text ---------------------------------------------------------------------------


def _mutate_text(rng: random.Random, text: str, changes: list[str]) -> str:
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    choice = rng.randrange(5)
    if choice == 0:
        changes.append(f"file line {i + 1} deleted")
        del lines[i]
    elif choice == 1:
        changes.append(f"file line {i + 1} repeated")
        lines.insert(i, lines[i])
    elif choice == 2:
        j = rng.randrange(len(lines))
        changes.append(f"file lines {i + 1} and {j + 1} swapped")
        lines[i], lines[j] = lines[j], lines[i]
    elif choice == 3:
        noise = rng.choice(FILE_NOISE)
        at = rng.randrange(len(lines[i]) + 1)
        changes.append(f"file line {i + 1}: {noise!r} inserted")
        lines[i] = lines[i][:at] + noise + lines[i][at:]
    else:
        cut = rng.randrange(len(text))
        changes.append(f"file truncated at {cut}")
        return text[:cut]
    return "\n".join(lines)


# ---- writing -------------------------------------------------------------------------------------


class _Dumper(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]
    """Block text as `|` blocks (effect text stays readable); long integers as digits."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _huge(dumper: yaml.SafeDumper, value: Huge) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:int", str.__str__(value))


_Dumper.add_representer(str, _str)
_Dumper.add_representer(Huge, _huge)


def dump(data: Any) -> str:
    """YAML text of mutated data."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=1_000_000)


def _show(path: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in path) or "(top)"


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, Huge) else f"<{len(value)} digits>"
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"
