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
* `repeat forever` and `while` bound nothing, unless their body takes no decision, or
  runs a `round` each time (a `round` statement directly in it) in a game with a
  round cap: an end condition checked each round whose `when` is, or is `or`ed with,
  `round_number >= K` (`> K`: K + 1) for a number or constant K (the round count
  then ends the game by round K, so the loop runs at most K times); nor does a card
  effect used (`use`), nor a flow in a game where a trigger asks a choice or takes
  actions (triggers fire anywhere).

Shuffles are counted over the setup the same way (with no bound when the game
shuffles outside its setup); the chance events of a game bound by them are counted by
the caller, who knows the cards (Game.max_chance_events).

Random numbers drawn (`random`, `pick_random`: one chance event each) are counted the
same way over the setup and the flow, the procedures they call included: one a call
as written, times the loops around it. A draw anywhere else (an action's effect, a
trigger, a card, a user function), in a comprehension or a loop's or branch's test,
or of a whole list (`shuffled`: one event an item) bounds nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from interpreter.analysis.programs import RANDOM_CALLS, programs
from interpreter.lang import ast
from interpreter.lang.builtins import facts_of
from interpreter.lang.parser import parse_expression
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
    draws: int | None = 0  # the most random numbers drawn (`random`, `pick_random`); None: no bound


def length_bounds(gd: GameDef, raw: dict[str, Any], num_players: int) -> LengthBounds:
    """The bounds of a game for `num_players` seats (see the module's docstring)."""
    bodies = dict(programs(gd, raw))
    reader = _Reader(gd, bodies, num_players)
    reader.round_cap = _round_cap(reader, raw)
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
    drawing = {name for name, body in bodies.items() if not name.startswith("bots.")
               and any(isinstance(node, ast.Call) and node.name in RANDOM_CALLS for node in ast.walk(body))}
    refills = any(zone.refill_shuffle and zone.refill_from is not None for zone in gd.zones)
    shuffles = None if shuffles_in_play or refills else reader.count(setup, reader.shuffles)
    draws = _draws(reader, drawing, setup, flow)
    return LengthBounds(decisions, shuffles, not (refills or shuffles_in_play or creates_in_play), draws)


def _draws(reader: _Reader, drawing: set[str], setup: tuple[ast.Node, ...],
           flow: tuple[ast.Node, ...] | None) -> int | None:
    """The most random numbers the setup and the flow draw (the module's docstring)."""
    if not drawing:
        return 0
    drawing = set(drawing)
    grown = True
    while grown:  # and every program that calls a procedure that draws
        called = {name.removeprefix("procedures.") for name in drawing if name.startswith("procedures.")}
        more = {name for name, body in reader.bodies.items() if name not in drawing and not name.startswith("bots.")
                and any(isinstance(node, ast.CallStmt) and node.name in called for node in ast.statements(body))}
        drawing |= more
        grown = bool(more)
    if flow is None or any(name not in {"setup", "flow"} and not name.startswith("procedures.") for name in drawing):
        return None  # drawn by an action, a trigger, a card or a user function: when, the flow does not say
    for name in drawing:
        for node in ast.statements(reader.bodies[name]):
            if isinstance(node, ast.If | ast.While | ast.Repeat | ast.ForEach | ast.Turn | ast.Round | ast.CallStmt):
                # (the reader counts the bodies; what the header computes, it does not)
                heads = [part for part in ast.children(node) if not isinstance(part, ast.Statement)]
                if any(isinstance(inner, ast.Call) and inner.name in RANDOM_CALLS for inner in ast.walk(heads)):
                    return None
    in_setup = reader.count(setup, reader.draws)
    in_flow = reader.count(flow, reader.draws)
    return None if in_setup is None or in_flow is None else in_setup + in_flow


def _round_cap(reader: _Reader, raw: dict[str, Any]) -> int | None:
    """The most rounds a game plays, where an end condition caps them (the module's
    docstring); None: no cap read."""
    caps = []
    for spec in raw.get("end") or ():
        if not isinstance(spec, dict) or spec.get("check") != "round" or not isinstance(spec.get("when"), str):
            continue  # (checked each round only when it says so)
        try:
            when = parse_expression(spec["when"])
        except Exception:  # checked at load: a text that does not parse is not a condition of ours
            continue
        found = _capped_by(reader, when)
        if found is not None:
            caps.append(found)
    return min(caps, default=None)


def _capped_by(reader: _Reader, when: ast.Node) -> int | None:
    """K + the slack of `round_number >= K` (or `> K`), alone or `or`ed with others."""
    if isinstance(when, ast.Binary) and when.op == "or":
        sides = [cap for cap in (_capped_by(reader, when.left), _capped_by(reader, when.right)) if cap is not None]
        return min(sides, default=None)
    if isinstance(when, ast.Binary) and when.op in (">=", ">") and isinstance(when.left, ast.Name) \
            and when.left.name == "round_number":
        bound = reader.whole(when.right)
        return None if bound is None else max(bound, 1) + (when.op == ">")
    return None


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
        self.round_cap: int | None = None  # the most rounds the end conditions allow

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
            return self.whole(node.count)
        if isinstance(node, ast.Repeat | ast.While) and self.round_cap is not None \
                and any(isinstance(part, ast.Round) for part in node.body):
            return self.round_cap  # one round more each time through: the cap ends the game first
        if isinstance(node, ast.ForEach):
            source = node.source
            if isinstance(source, ast.Name) and source.name == "players":
                return self.n
            if isinstance(source, ast.Name) and isinstance(self.gd.constants.get(source.name), list | tuple | dict):
                return len(self.gd.constants[source.name])
            if isinstance(source, ast.ListExpr):
                return len(source.items)
        return None

    def whole(self, node: ast.Node) -> int | None:
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

    def draws(self, node: ast.Node) -> int | None:
        found = 0
        todo = ast.children(node)
        while todo:
            item = todo.pop()
            if isinstance(item, ast.Call) and item.name in RANDOM_CALLS:
                facts = facts_of(item.name)
                if facts is None or facts.scalar is None:
                    return None  # a list drawn item by item (`shuffled`): as many events as items
                found += 1
            if isinstance(item, ast.Comprehension) and any(
                    isinstance(inner, ast.Call) and inner.name in RANDOM_CALLS for inner in ast.walk((item,))):
                return None  # drawn once an item of a list
            if isinstance(item, ast.Statement):
                continue
            todo.extend(ast.children(item))
        return found

    def shuffles(self, node: ast.Node) -> int | None:
        if isinstance(node, ast.ZoneStmt) and node.verb == "shuffle":
            return 1
        if isinstance(node, ast.Use):
            return None
        return 0
