"""The effect programs of a game, read back from its rules: their texts (by the names
the compiler gave them), their syntax trees, and walks over them, for the analyses
that read the rules as a whole (what a game's moves can be, which zones a shuffle
deals whole, whether it draws random numbers or has simultaneous steps).
"""

from __future__ import annotations

from typing import Any

from interpreter.analysis.domains import locals_of
from interpreter.lang import ast
from interpreter.lang.builtins import named
from interpreter.lang.parser import parse_program
from interpreter.model import GameDef


def program_texts(gd: GameDef, raw: dict[str, Any]) -> list[tuple[str, str]]:
    """(name, effect text) of every compiled program, found in the rules by the name
    the compiler gave it (`cards.CARD.effects.play`, `procedures.NAME`...)."""
    found = []
    for code in gd.codes:
        text = _lookup(raw, code.name.split("."))
        if isinstance(text, dict):
            text = text.get("effect")
        if isinstance(text, str) and text.strip():
            found.append((code.name, text))
    return found


def _lookup(data: Any, parts: list[str]) -> Any:
    """A dotted name in nested maps whose keys may hold dots themselves."""
    if not parts:
        return data
    if not isinstance(data, dict):
        return None
    for cut in range(len(parts), 0, -1):
        key = ".".join(parts[:cut])
        if key in data:
            found = _lookup(data[key], parts[cut:])
            if found is not None:
                return found
    return None


def programs(gd: GameDef, raw: dict[str, Any]) -> list[tuple[str, tuple[ast.Node, ...]]]:
    parsed = []
    for name, text in program_texts(gd, raw):
        try:
            parsed.append((name, parse_program(text)))
        except Exception:  # checked at load: a text that does not parse is not a program of ours
            continue
    return parsed


# The built-ins that draw random numbers (the compiler keeps statements calling them
# apart, explicit chance asks for their outcomes).
RANDOM_CALLS = named("random")


def uses_chance(gd: GameDef, raw: dict[str, Any]) -> bool:
    """Whether any effect of the game draws a random number (`shuffle`, `random`,
    `pick_random`, `shuffled`) or a zone refills by shuffling. Game bots that choose
    at random are not counted: they play only in the seats given to them."""
    if any(zone.refill_shuffle and zone.refill_from is not None for zone in gd.zones):
        return True
    for _, body in programs(gd, raw):
        for node in ast.walk(body):
            if isinstance(node, ast.ZoneStmt) and node.verb == "shuffle":
                return True
            if isinstance(node, ast.Call) and node.name in RANDOM_CALLS:
                return True
    return False


def uses_simultaneous(gd: GameDef, raw: dict[str, Any]) -> bool:
    """Whether any effect of the game has a simultaneous step."""
    return any(isinstance(node, ast.TakeActions) and node.simultaneous
               for _, body in programs(gd, raw) for node in ast.statements(body))


def sets_attributes(gd: GameDef, raw: dict[str, Any]) -> bool:
    """Whether any effect of the game sets a card attribute (`set c.x to ...`)."""
    return any(isinstance(node, ast.Set) and isinstance(node.target, ast.Attr)
               for _, body in programs(gd, raw) for node in ast.walk(body))


def created_cards(gd: GameDef, raw: dict[str, Any]) -> frozenset[int]:
    """The definitions the rules `create` copies of, in a branch the game's constants
    allow (`if num_cards >= 5: create 1 "five" in hand(p)` creates none with 4 cards)."""
    found: set[int] = set()
    procedures: dict[str, Any] = raw.get("procedures") or {}
    for name, body in programs(gd, raw):
        spec = procedures.get(name.removeprefix("procedures.")) if name.startswith("procedures.") else None
        shadowed = set(locals_of(body)) | set(map(str, spec.get("params") or ())) if isinstance(spec, dict) \
            else set(locals_of(body))
        for node in live_statements(body, {k: v for k, v in gd.constants.items() if k not in shadowed}):
            if isinstance(node, ast.Create) and node.card_id in gd.card_index:
                found.add(gd.card_index[node.card_id])
    return frozenset(found)


UNKNOWN = object()  # a condition whose value the rules do not fix
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def live_statements(body: tuple[ast.Node, ...], constants: dict[str, Any]) -> list[ast.Node]:
    """The statements of a program, nested ones too, but for the branches of an `if`
    that the constants rule out (its condition made of literals and constants)."""
    out: list[ast.Node] = []
    for node in body:
        out.append(node)
        if isinstance(node, ast.If):
            for condition, branch in node.branches:
                value = fixed(condition, constants)
                if value is not UNKNOWN and not value:
                    continue
                out += live_statements(branch, constants)
                if value is not UNKNOWN:
                    break  # taken: the branches after it never are
            else:
                out += live_statements(node.orelse, constants)
            continue
        for field in ("body", "orelse"):
            inner = getattr(node, field, None)
            if isinstance(inner, tuple):
                out += live_statements(inner, constants)
        if isinstance(node, ast.ChooseOne):
            for option in node.options:
                out += live_statements(option.body, constants)
    return out


def fixed(node: ast.Node, constants: dict[str, Any]) -> Any:
    """The value of a condition made of literals and constants (comparisons, `and`,
    `or`, `not`), else UNKNOWN. (`constants` leaves out the names a local or parameter
    shadows.)"""
    if isinstance(node, ast.Literal):
        return node.value
    if isinstance(node, ast.Name) and node.name in constants:
        return constants[node.name]
    if isinstance(node, ast.Unary) and node.op == "not":
        value = fixed(node.operand, constants)
        return UNKNOWN if value is UNKNOWN else not value
    if isinstance(node, ast.Binary) and (node.op in _COMPARE or node.op in ("and", "or")):
        left, right = fixed(node.left, constants), fixed(node.right, constants)
        if left is UNKNOWN or right is UNKNOWN:
            return UNKNOWN
        if node.op == "and":
            return bool(left) and bool(right)
        if node.op == "or":
            return bool(left) or bool(right)
        try:
            return bool(_COMPARE[node.op](left, right))
        except TypeError:  # values that do not compare: not decided here
            return UNKNOWN
    return UNKNOWN
