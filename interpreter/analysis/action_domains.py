"""The values the moves and choices of a game can take, read from its rules, for the
integer action space (runtime/action_space.py).

An integer action space numbers every move a game can offer, the same in every state
and run, so it needs, for every action parameter that declares no values and is
neither a card nor a player, a fixed and finite list of what it can be; and for the
choices (`choose`, `choose one`, `choose up to`) and the random events (`random`,
`pick_random`, `shuffled`, shuffles) of the game, what they can give. They are found
here once, when the rules load, by the abstract interpretation of domains.py, and kept
on the definition (`GameDef.facts`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.analysis import domains
from interpreter.analysis.programs import programs
from interpreter.lang import ast
from interpreter.lang.builtins import facts_of
from interpreter.lang.parser import parse_expression
from interpreter.model import GameDef
from interpreter.model.facts import ChanceKinds, ChoiceKinds, scalar_key, sort_key


def param_values(gd: GameDef, raw: dict[str, Any],
                 analyzer: domains.Analyzer) -> dict[tuple[int, int], tuple[Any, ...] | None]:
    """For each (action index, parameter index) whose values the action space must find
    (not a card, not a player, none declared): its values, or None when not found."""
    found: dict[tuple[int, int], tuple[Any, ...] | None] = {}
    for action in gd.actions:
        for i, param in enumerate(action.params):
            if param.values is not None or param.type in ("card", "player"):
                continue
            try:
                found[(action.index, i)] = domains.finite(
                    analyzer.element(parse_expression(_domain_text(raw, action.id, param.name))))
            except RecursionError:  # nested too deeply to read: the action space asks for a declaration
                found[(action.index, i)] = None
    return found


def _domain_text(raw: dict[str, Any], action_id: str, param: str) -> str:
    spec = ((raw.get("actions") or {}).get(action_id) or {}).get("params", {}).get(param)
    if isinstance(spec, dict):
        spec = spec.get("in")
    return spec if isinstance(spec, str) else "none"


def _analysed_programs(gd: GameDef, raw: dict[str, Any],
                       analyzer: domains.Analyzer) -> Iterator[tuple[Any, domains.Analyzer]]:
    """Each effect program of the game, with the analyzer that knows its locals (and a
    procedure's parameters)."""
    procedures: dict[str, Any] = raw.get("procedures") or {}
    for name, body in programs(gd, raw):
        spec = procedures.get(name.removeprefix("procedures.")) if name.startswith("procedures.") else None
        params = tuple(str(p) for p in (spec.get("params") or ())) if isinstance(spec, dict) else ()
        yield body, analyzer.in_program(domains.locals_of(body), params)


class _Offered:
    """The cards, seats and distinct other values a game's lists of options may give."""

    def __init__(self) -> None:
        self.cards = self.players = False
        self.keys: set[tuple[str, Any]] = set()
        self.values: list[Any] = []

    def add(self, items: tuple[Any, ...]) -> None:
        for v in items:
            key = scalar_key(v)
            if key not in self.keys:
                self.keys.add(key)
                self.values.append(v)

    def take(self, options: Any) -> bool:
        """Note what an abstract list of options gives; False when it cannot be read."""
        listed = domains.finite(options)
        if options is domains.CARDS:
            self.cards = True
        elif isinstance(options, domains.Seats):
            self.players = True
        elif listed is not None:
            self.add(listed)
        else:
            return False
        return True


def find_choices(gd: GameDef, raw: dict[str, Any], analyzer: domains.Analyzer) -> ChoiceKinds:
    """What every `choose`, `choose up to` and `choose one` of the game can offer
    (values other than cards and seats in a stable order). A choice whose list cannot
    be read may offer cards or seats: both get their ids."""
    done = False
    offered = _Offered()
    for body, inner in _analysed_programs(gd, raw, analyzer):
        for node in ast.statements(body):
            if isinstance(node, ast.ChooseOne):
                offered.add(tuple(option.label for option in node.options))
            elif isinstance(node, ast.Choose):
                done = done or node.up_to is not None
                if not offered.take(inner.element(node.options)):
                    offered.cards = offered.players = True
    values = offered.values
    done = done or "done" in values  # the word "done" is answered by the `done` id
    return ChoiceKinds(done, offered.cards, offered.players,
                       tuple(sorted((v for v in values if v != "done"), key=sort_key)))


def find_chances(gd: GameDef, raw: dict[str, Any], analyzer: domains.Analyzer) -> ChanceKinds:
    """What the random events of the game can give (see ChanceKinds), read from its
    rules as `find_choices` reads its choices."""
    deals = any(zone.refill_shuffle and zone.refill_from is not None for zone in gd.zones)
    complete = True
    offered = _Offered()
    for body, inner in _analysed_programs(gd, raw, analyzer):
        for node in ast.walk(body):
            if isinstance(node, ast.ZoneStmt) and node.verb == "shuffle":
                deals = True
                continue
            if not isinstance(node, ast.Call) or not node.args:
                continue
            facts = facts_of(node.name)
            if facts is None or not facts.random:
                continue
            # a random value (`random`, `pick_random`), or a random order of a list's elements
            outcome = inner.scalar(node) if facts.scalar is not None else inner.element(node)
            complete = offered.take(outcome) and complete
    return ChanceKinds(deals, offered.cards, offered.players, tuple(sorted(offered.values, key=sort_key)),
                       complete)
