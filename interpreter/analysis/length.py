"""How long a game can be, read from its rules: the most decisions any game takes, and
the most shuffles its setup makes, where the rules bound them - for learning
frameworks that size buffers and tensors by a game's length (OpenSpiel's
`max_game_length`, the information-state tensor's events).

The reading errs one way only: a number found is a bound every game keeps (it may be
loose), and None means the rules bound nothing this reading can see. Decisions are
counted over the flow, as written:

* `take actions G` is one decision when every action of group G ends the turn and no
  effect it can run asks a choice (a step of actions that do not end the turn can take
  any number); `take actions G simultaneously` is one joint decision (one pick per
  seat); `choose` and `choose one` are one decision, `choose up to` is not bounded;
* `repeat N` (a number or a constant) is N times its body, `for each p in players`
  the player count times it, `for each x in LIST` over a constant list its length times
  it; `if` is its longest branch; a procedure called is its body;
* `repeat forever` and `while` bound nothing, unless their body takes no decision; nor
  does a card effect used (`use`), nor a flow in a game where a trigger asks a choice
  or takes actions (triggers fire anywhere).

Shuffles are counted over the setup the same way (with no bound when the game
shuffles outside its setup); the chance events of a game bound by them are counted by
the caller, who knows the cards (Game.max_chance_events).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.analysis.programs import RANDOM_CALLS, programs
from interpreter.lang import ast
from interpreter.model import GameDef


@attrs.frozen
class LengthBounds:
    """The most decisions a game takes, the most shuffles its setup makes, and whether
    its only random events are the cards dealt from those shuffles (no other random
    number drawn, no card created after setup: each card is then dealt at most once a
    shuffle). None: no bound."""

    decisions: int | None
    setup_shuffles: int | None
    deals_only: bool


def length_bounds(gd: GameDef, raw: dict[str, Any], num_players: int) -> LengthBounds:
    """The bounds of a game for `num_players` seats (see the module's docstring)."""
    bodies = dict(programs(gd, raw))
    reader = _Reader(gd, bodies, num_players)
    triggers = [body for name, body in bodies.items() if ".triggers." in f".{name}"]
    flow = bodies.get("flow")
    decisions = None
    if flow is not None and all(reader.count(body, _any_decision) == 0 for body in triggers):
        decisions = reader.count(flow, reader.decisions)
    setup = bodies.get("setup", ())
    in_setup = reader.setup_procedures(setup) | {"setup"}
    shuffles_in_play = any(_shuffles(body) for name, body in bodies.items()
                           if name not in in_setup and not name.startswith("bots."))
    creates_in_play = any(isinstance(node, ast.Create) for name, body in bodies.items()
                          if name not in in_setup and not name.startswith("bots.") for node in ast.statements(body))
    random_calls = any(isinstance(node, ast.Call) and node.name in RANDOM_CALLS
                       for name, body in bodies.items() if not name.startswith("bots.") for node in ast.walk(body))
    refills = any(zone.refill_shuffle and zone.refill_from is not None for zone in gd.zones)
    shuffles = None if shuffles_in_play or refills else reader.count(setup, reader.shuffles)
    return LengthBounds(decisions, shuffles, not (random_calls or refills or shuffles_in_play or creates_in_play))


def _shuffles(body: tuple[ast.Node, ...]) -> bool:
    return any(isinstance(node, ast.ZoneStmt) and node.verb == "shuffle" for node in ast.statements(body))


def _any_decision(node: ast.Node) -> int | None:
    """Any decision at all (1 each; a card effect used: unknown), for the effects that
    must take none (triggers, the effects of a step counted as one decision)."""
    if isinstance(node, ast.TakeActions | ast.Choose | ast.ChooseOne):
        return 1
    return None if isinstance(node, ast.Use) else 0


class _Reader:
    """Counts statements of a kind over programs, loops and calls multiplying."""

    def __init__(self, gd: GameDef, bodies: dict[str, tuple[ast.Node, ...]], num_players: int):
        self.gd, self.bodies, self.n = gd, bodies, num_players
        self._busy: set[str] = set()

    def setup_procedures(self, setup: tuple[ast.Node, ...]) -> set[str]:
        """The procedures the setup calls (directly or through others), by program name,
        when nothing else calls them."""
        found: set[str] = set()
        todo = list(setup)
        while todo:
            calls = [node.name for node in ast.statements(tuple(todo)) if isinstance(node, ast.CallStmt)]
            todo = []
            for name in calls:
                key = f"procedures.{name}"
                if key in self.bodies and key not in found:
                    found.add(key)
                    todo.extend(self.bodies[key])
        others = {node.name for name, body in self.bodies.items() if name != "setup" and name not in found
                  for node in ast.statements(body) if isinstance(node, ast.CallStmt)}
        return {key for key in found if key.removeprefix("procedures.") not in others}

    def count(self, body: tuple[ast.Node, ...], rule: Callable[[ast.Node], int | None]) -> int | None:
        total = 0
        for node in body:
            part = self._one(node, rule)
            if part is None:
                return None
            total += part
        return total

    def _one(self, node: ast.Node, rule: Callable[[ast.Node], int | None]) -> int | None:
        if isinstance(node, ast.If):
            worst = 0
            for part in [body for _, body in node.branches] + [node.orelse]:
                found = self.count(part, rule)
                if found is None:
                    return None
                worst = max(worst, found)
            return worst
        if isinstance(node, ast.Turn | ast.Round):
            return self.count(node.body, rule)
        if isinstance(node, ast.Repeat | ast.While | ast.ForEach):
            inner = self.count(node.body, rule)
            if inner is None or inner == 0:
                return inner
            times = self._times(node)
            return None if times is None else times * inner
        if isinstance(node, ast.CallStmt):
            key = f"procedures.{node.name}"
            if key not in self.bodies:
                return 0  # a built-in statement-like call
            if key in self._busy:
                return None  # recursion: no bound read here
            self._busy.add(key)
            try:
                return self.count(self.bodies[key], rule)
            finally:
                self._busy.discard(key)
        return rule(node)

    def _times(self, node: ast.Repeat | ast.While | ast.ForEach) -> int | None:
        if isinstance(node, ast.Repeat) and node.count is not None:
            return self._whole(node.count)
        if isinstance(node, ast.ForEach):
            source = node.source
            if isinstance(source, ast.Name) and source.name == "players":
                return self.n
            if isinstance(source, ast.Name) and isinstance(self.gd.constants.get(source.name), list | tuple | dict):
                return len(self.gd.constants[source.name])
            if isinstance(source, ast.ListExpr):
                return len(source.items)
        return None

    def _whole(self, node: ast.Node) -> int | None:
        value = node.value if isinstance(node, ast.Literal) else \
            self.gd.constants.get(node.name) if isinstance(node, ast.Name) else None
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None

    # ---- counting rules ---------------------------------------------------------------

    def decisions(self, node: ast.Node) -> int | None:
        if isinstance(node, ast.TakeActions):
            if node.simultaneous:
                return 1
            group = [a for a in self.gd.actions if a.group == node.group]
            if all(a.ends for a in group) and not any(
                    self.count(self.bodies.get(f"actions.{a.id}.effect", ()), _any_decision) != 0 for a in group):
                return 1
            return None
        if isinstance(node, ast.Choose):
            return None if node.up_to is not None else 1
        if isinstance(node, ast.ChooseOne):
            return 1
        if isinstance(node, ast.Use):
            return None
        return 0

    def shuffles(self, node: ast.Node) -> int | None:
        if isinstance(node, ast.ZoneStmt) and node.verb == "shuffle":
            return 1
        if isinstance(node, ast.Use):
            return None
        return 0
