"""Monte Carlo tree search over worlds a seat cannot tell apart: the engine of the
`mcts` and `ismcts` seat kinds.

Each iteration samples a world (`sample`): for `ismcts`, a state drawn from what the
seat has observed only (`State.resample_from_infostate`, runtime/resample.py); for
`mcts`, the true state with only the generator reseeded (future chance is never
known); in both, the picks other seats made already in a
simultaneous step are forgotten; in a simultaneous step the searching seat picks first
and the other seats' sealed picks are sampled at random, not searched (in the tree
they would answer a pick they cannot see). It then walks one tree of actions keyed by their
canonical texts (single-observer information-set MCTS): at a node, only the actions
legal in this world count, an untried one is added, else the child with the best UCB
score, where a child's exploration term counts the visits in which it was available.
A rollout by `random`, `first` or a game bot's rule ends the game, or stops after
`depth` actions, or when the `horizon`-th turn after the decision's would begin (the
engine raises `HorizonReached` there, so it also stops game bots that play inside the
state), and is then valued from `scoring.score`. Values are per seat (`returns`,
with `margin` blended with the final lead in `scoring.score`, so that a few rollouts
say more than won or lost), so the tree serves any number of players; the seat to move
at a node maximises its own. With `paired`, one sampled world (and one stream of
rollout random numbers) serves as many iterations in a row as the root has actions, so
the root's actions are compared in the same worlds (common random numbers: the luck of
a deal or a die does not decide between them). The move played is the most visited
root action, the best mean value breaking ties (a small budget visits many once).

Agents see states only through the public API and `resample_from_infostate`, which
reads what the seat has observed, never the hidden cards' places. Each decision's generator is
seeded from the agent's seed and the number of actions played so far, so a seeded
game is reproducible, a resumed agent decides as it would have, and two states the
seat cannot tell apart get the same decision.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping

import attrs

from interpreter.agents.builtin import legal_or_fail
from interpreter.agents.protocol import BaseAgent
from interpreter.diagnostics import GameError
from interpreter.model import GameDef
from interpreter.model.seats import SeatSpec
from interpreter.runtime.actions import Action
from interpreter.runtime.errors import HorizonReached
from interpreter.runtime.resample import forget_sealed_picks, resample
from interpreter.runtime.state import State, seat

OPTIONS = ("iterations", "seconds", "c", "rollout", "depth", "horizon", "paired", "margin")
DEFAULT_ITERATIONS = 400


@attrs.frozen
class SearchOptions:
    """A search seat's options: `iterations` per decision (or a time budget in
    `seconds`), exploration constant `c`, the rollout policy, the depth cap in actions
    and the `horizon` in turns (0: play every rollout to the end), `paired` worlds and
    the `margin` weight."""

    iterations: int = DEFAULT_ITERATIONS
    seconds: float = 0.0
    c: float = 1.4
    rollout: str = "random"
    depth: int = 0
    horizon: int = 0  # turns begun after the decision's, then the game is valued from `scoring.score`
    paired: bool = False  # one world for as many iterations in a row as the root has actions
    margin: float = 0.0  # weight of the final score lead in a finished rollout's value (0: returns only)


MAX_ITERATIONS = 10_000_000  # per decision: more would take hours a move
MAX_SECONDS = 3600.0  # per decision


def _number(name: str, text: str, kind: Callable[[str], float], low: float, high: float = math.inf) -> float:
    try:
        value = kind(text)
    except ValueError:
        raise GameError(f"seat option {name}={text!r} is not a number") from None
    if not math.isfinite(value) or value < low:
        raise GameError(f"seat option {name}={text} must be at least {low:g}")
    if value > high:
        raise GameError(f"seat option {name}={text} must be at most {high:,.0f}")
    return value


def parse_options(options: Mapping[str, str], gd: GameDef) -> SearchOptions:
    """The options of a seat spec, checked (GameError with a clear message)."""
    iterations = int(_number("iterations", options.get("iterations", str(DEFAULT_ITERATIONS)), int, 1,
                             MAX_ITERATIONS))
    seconds = _number("seconds", options.get("seconds", "0"), float, 0, MAX_SECONDS)
    if "seconds" in options and "iterations" not in options:
        iterations = 0  # the time budget alone decides
    if iterations == 0 and seconds <= 0:
        raise GameError("seat option seconds must be more than 0")
    rollout = options.get("rollout", "random")
    if rollout not in ("random", "first") and rollout not in gd.bots:
        bots = ", ".join(gd.bots) or "none"
        raise GameError(f"seat option rollout={rollout!r}: use random, first or a bot of the game ({bots})")
    paired = int(_number("paired", options.get("paired", "0"), int, 0))
    if paired > 1:
        raise GameError(f"seat option paired={paired} must be 0 or 1")
    margin = _number("margin", options.get("margin", "0"), float, 0)
    if margin > 1:
        raise GameError(f"seat option margin={margin:g} must be at most 1")
    return SearchOptions(iterations, seconds, _number("c", options.get("c", "1.4"), float, 0), rollout,
                         int(_number("depth", options.get("depth", "0"), int, 0)),
                         int(_number("horizon", options.get("horizon", "0"), int, 0)), bool(paired), margin)


def _named(world: State, player: int) -> int | None:
    """The seat to name when listing or playing for `player`: only in a simultaneous
    step, where several are asked; elsewhere None (the player to act), which takes the
    state's quick path for the listing it keeps."""
    return player if world.is_simultaneous_node() else None


class Node:
    """One node of the tree: its children by action text; `visits`, `available` (how
    often it could have been chosen) and `total`, the summed value for `player`, the
    seat that chose the action leading here."""

    __slots__ = ("available", "children", "player", "total", "visits")

    def __init__(self, player: int):
        self.player = player
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


def heuristic_values(state: State) -> list[float]:
    """A `returns`-like value of an unfinished game from `scoring.score`: each seat's
    lead over the best other seat, scaled into (-1, 1)."""
    if state.n == 1:
        return [0.0]
    scores = state.scores()
    values = []
    for p, mine in enumerate(scores):
        best = max(s for q, s in enumerate(scores) if q != p)
        values.append((mine - best) / (abs(mine) + abs(best) + 1.0))
    return values


class SearchAgent(BaseAgent):
    """MCTS (`determinizing=False`) or single-observer ISMCTS over sampled worlds."""

    def __init__(self, options: SearchOptions, seed: int, determinizing: bool,
                 clock: Callable[[], float] = time.perf_counter):
        self.options = options
        self.seed = seed
        self.determinizing = determinizing
        self.clock = clock
        self.iterations_done = 0  # of the last decision, for benchmarks

    def _rng_for(self, state: State) -> random.Random:
        return random.Random(f"orrery-search:{self.seed}:{len(state.history)}")

    def step(self, state: State) -> Action:
        legal = legal_or_fail(state)
        if len(legal) == 1:
            self.iterations_done = 0
            return legal[0]
        me = state.player_asked()  # in a simultaneous step: the first still to pick
        rng = self._rng_for(state)
        root = Node(me)
        opts = self.options
        deadline = self.clock() + opts.seconds if opts.seconds > 0 else math.inf
        done = 0
        per_world = len(legal) if opts.paired else 1
        world, rollout_seed = state, 0
        # Every world stops at the same turn, counted from the decision's: the root's
        # actions are valued at the same point of the game.
        stop_turn = state.turn_no + 1 + opts.horizon if opts.horizon else None
        while (opts.iterations == 0 or done < opts.iterations) and (done == 0 or self.clock() < deadline):
            if per_world == 1:
                self._iterate(self._sample(state, me, rng), root, rng, me, rng, stop_turn)
            else:  # the same world and rollout random numbers for the next `per_world` iterations
                if done % per_world == 0:
                    world, rollout_seed = self._sample(state, me, rng), rng.getrandbits(64)
                self._iterate(world.clone(), root, rng, me, random.Random(rollout_seed), stop_turn)
            done += 1
        self.iterations_done = done

        def rank(action: Action) -> tuple[int, float]:  # most visited; the best mean breaks ties
            child = root.children.get(action.text)
            return (child.visits, child.total / child.visits) if child is not None and child.visits else (-1, 0.0)

        return max(legal, key=rank)

    def _sample(self, state: State, me: int, rng: random.Random) -> State:
        if self.determinizing:
            return resample(state, me, rng)
        world = state.clone()
        forget_sealed_picks(world, me)
        world.rng = rng.getrandbits(64)
        return world

    def _iterate(self, world: State, root: Node, rng: random.Random, me: int, rollout_rng: random.Random,
                 stop_turn: int | None) -> None:
        world.stop_turn = stop_turn
        path = [root]
        try:
            values = self._descend(world, root, path, rng, me, rollout_rng)
        except HorizonReached:  # the world stopped at the horizon: valued where it stands
            values = heuristic_values(world)
        for visited in path[1:]:
            visited.visits += 1
            visited.total += values[visited.player]

    def _descend(self, world: State, root: Node, path: list[Node], rng: random.Random, me: int,
                 rollout_rng: random.Random) -> list[float]:
        """Walk the tree from `root` (adding one node), then roll out; the values of
        the world reached, per seat."""
        opts = self.options
        node = root
        steps = 0
        while not world.terminal and (opts.depth == 0 or steps < opts.depth):
            waiting = world.players_to_act()
            if not waiting:
                break
            player = me if me in waiting else waiting[0]
            legal = world.legal_actions(_named(world, player))
            if player != me and world.is_simultaneous_node():
                # Picked after the searching seat in the tree, another seat would answer
                # a pick it cannot see: its sealed pick is sampled instead.
                world.apply_action(legal[rng.randrange(len(legal))], player)
                steps += 1
                continue
            untried = [a for a in legal if a.text not in node.children]
            for action in legal:
                child = node.children.get(action.text)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = Node(player)
                child.available = 1
                node.children[action.text] = child
                path.append(child)  # before the action: a horizon reached in it still counts the visit
                world.apply_action(action, _named(world, player))
                steps += 1
                break
            action = self._select(node, legal)
            node = node.children[action.text]
            path.append(node)
            world.apply_action(action, _named(world, player))
            steps += 1
        return self._rollout(world, rollout_rng, steps)

    def _select(self, node: Node, legal: list[Action]) -> Action:
        c = self.options.c
        best, best_score = legal[0], -math.inf
        for action in legal:
            child = node.children[action.text]
            score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best

    def _rollout(self, world: State, rng: random.Random, steps: int) -> list[float]:
        opts = self.options
        if opts.rollout not in ("random", "first"):
            seat(world, [SeatSpec(opts.rollout)] * world.n)  # the game's bot picks inside the state
        while not world.terminal and (opts.depth == 0 or steps < opts.depth):
            waiting = world.players_to_act()
            legal = world.legal_actions(_named(world, waiting[0])) if waiting else []
            if not legal:
                break
            world.apply_action(legal[0] if opts.rollout == "first" else legal[rng.randrange(len(legal))],
                               _named(world, waiting[0]))
            steps += 1
        if not world.terminal:
            return heuristic_values(world)
        returns = world.returns()
        if not opts.margin:
            return returns
        lead = heuristic_values(world)
        return [(1 - opts.margin) * r + opts.margin * v for r, v in zip(returns, lead, strict=True)]
