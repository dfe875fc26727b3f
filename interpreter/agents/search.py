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
from interpreter.agents.native_rollouts import NativeRollouts
from interpreter.agents.native_worlds import NativeRoot, native_rollout, native_root, native_world
from interpreter.agents.protocol import BaseAgent
from interpreter.diagnostics import GameError
from interpreter.model import GameDef
from interpreter.model.seats import SeatSpec, seating_of
from interpreter.runtime.actions import Action
from interpreter.runtime.errors import HorizonReached
from interpreter.runtime.resample import forget_sealed_picks, resample
from interpreter.runtime.state import State, seat

OPTIONS = ("iterations", "seconds", "c", "rollout", "depth", "horizon", "paired", "margin", "solver", "widen")
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
    solver: bool = False  # mcts: prove wins and losses reached in the tree, and back them up
    widen: float = 0.0  # progressive widening: a node of n visits has at most ceil(n ** widen) children (0: off)


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
    solver = int(_number("solver", options.get("solver", "0"), int, 0))
    if solver > 1:
        raise GameError(f"seat option solver={solver} must be 0 or 1")
    widen = _number("widen", options.get("widen", "0"), float, 0)
    if widen >= 1:
        raise GameError(f"seat option widen={widen:g} must be less than 1 (0: off)")
    return SearchOptions(iterations, seconds, _number("c", options.get("c", "1.4"), float, 0), rollout,
                         int(_number("depth", options.get("depth", "0"), int, 0)),
                         int(_number("horizon", options.get("horizon", "0"), int, 0)), bool(paired), margin,
                         bool(solver), widen)


def _named(world: State, player: int) -> int | None:
    """The seat to name when listing or playing for `player`: only in a simultaneous
    step, where several are asked; elsewhere None (the player to act), which takes the
    state's quick path for the listing it keeps."""
    return player if world.is_simultaneous_node() else None


class Node:
    """One node of the tree: its children by action text; `visits`, `available` (how
    often it could have been chosen) and `total`, the summed value for `player`, the
    seat that chose the action leading here."""

    __slots__ = ("available", "children", "legal", "player", "proven", "total", "visits")

    def __init__(self, player: int):
        self.player = player
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.proven: list[float] | None = None  # the solver's exact values per seat, once proven
        self.legal = 0  # the legal actions here, seen on a path without chance (the solver's)


WIN = 1.0  # a proven value this high for the seat to move: a win (`returns` gives a winner +1)


def _width(visits: int, widen: float) -> int:
    """Progressive widening: the children a node of `visits` visits may have."""
    return max(1, math.ceil((visits + 1) ** widen))


def heuristic_values(state: State) -> list[float]:
    """A `returns`-like value of an unfinished game from `scoring.score`: each seat's
    lead over the best other seat, scaled into (-1, 1)."""
    return lead_values(state.scores())


def lead_values(scores: list[float]) -> list[float]:
    """heuristic_values of these scores (one per seat)."""
    if len(scores) == 1:
        return [0.0]
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
        self.last_root: Node | None = None  # the last decision's tree, for benchmarks and tests
        self._native: NativeRollouts | None = None  # this decision's rollouts in C, when they can be
        self._root: NativeRoot | None = None  # this decision's native state, the worlds' origin, when there is one

    def _rng_for(self, state: State) -> random.Random:
        return random.Random(f"orrery-search:{self.seed}:{len(state.history)}")

    def step(self, state: State) -> Action:
        legal = legal_or_fail(state)
        if len(legal) == 1:
            self.iterations_done, self.last_root = 0, None
            return legal[0]
        me = state.player_asked()  # in a simultaneous step: the first still to pick
        rng = self._rng_for(state)
        root = Node(me)
        opts = self.options
        # Worlds on native states where the game has them (agents/native_worlds.py), else
        # Python worlds, whose rollouts may still run in C (agents/native_rollouts.py).
        self._root = native_root(state, opts.rollout, opts.depth, opts.horizon, self.determinizing)
        self._native = None if self._root is not None else \
            NativeRollouts.for_root(state, opts.rollout, opts.depth, opts.horizon)
        deadline = self.clock() + opts.seconds if opts.seconds > 0 else math.inf
        done = 0
        per_world = len(legal) if opts.paired else 1
        world, rollout_seed = state, 0
        # Every world stops at the same turn, counted from the decision's: the root's
        # actions are valued at the same point of the game.
        stop_turn = state.turn_no + 1 + opts.horizon if opts.horizon else None
        while (opts.iterations == 0 or done < opts.iterations) and (done == 0 or self.clock() < deadline) \
                and root.proven is None:  # (a proven root: the solver knows the best move)
            if per_world == 1:
                self._iterate(self._sample(state, me, rng), root, rng, me, rng, stop_turn)
            else:  # the same world and rollout random numbers for the next `per_world` iterations
                if done % per_world == 0:
                    world, rollout_seed = self._sample(state, me, rng), rng.getrandbits(64)
                self._iterate(world.clone(), root, rng, me, random.Random(rollout_seed), stop_turn)
            done += 1
        self.iterations_done = done
        self.last_root = root

        def rank(action: Action) -> tuple[bool, bool, int, float]:
            # a proven win first, a proven loss last; else the most visited, the best mean breaking ties
            child = root.children.get(action.text)
            if child is None or not child.visits:
                return False, True, -1, 0.0
            proven = child.proven
            return (proven is not None and proven[me] >= WIN, proven is None or proven[me] >= 0, child.visits,
                    child.total / child.visits)

        return max(legal, key=rank)

    def _sample(self, state: State, me: int, rng: random.Random) -> State:
        if self.determinizing:
            world = resample(state, me, rng)
            # (a native world: the root's place in the flow, the sampled world's data)
            return world if self._root is None else native_world(self._root, world)
        if self._root is None:
            world = state.clone()
            forget_sealed_picks(world, me)
        else:  # (a game with no simultaneous step: no sealed pick to forget)
            world = self._root.state.clone()
        world.rng = rng.getrandbits(64)
        return world

    def _iterate(self, world: State, root: Node, rng: random.Random, me: int, rollout_rng: random.Random,
                 stop_turn: int | None) -> None:
        world.stop_turn = stop_turn
        if self._native is not None:
            self._native.begin(world)
        path = [root]
        try:
            values = self._descend(world, root, path, rng, me, rollout_rng)
        except HorizonReached:  # the world stopped at the horizon: valued where it stands
            values = heuristic_values(world)
        root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.total += values[visited.player]
        if self.options.solver:
            _back_up_proofs(path)

    def _descend(self, world: State, root: Node, path: list[Node], rng: random.Random, me: int,
                 rollout_rng: random.Random) -> list[float]:
        """Walk the tree from `root` (adding one node), then roll out; the values of
        the world reached, per seat."""
        opts = self.options
        node = root
        steps = 0
        # The solver proves only along paths that draw no random number and have no
        # simultaneous step: the same actions from the same state then always lead to
        # the same place, whatever world was sampled.
        certain = opts.solver and not self.determinizing
        start_rng = world.rng
        while not world.terminal and (opts.depth == 0 or steps < opts.depth):
            waiting = world.players_to_act()
            if not waiting:
                break
            player = me if me in waiting else waiting[0]
            if world.is_simultaneous_node():
                certain = False
            legal = world.legal_actions(_named(world, player))
            if certain and world.rng == start_rng:
                node.legal = len(legal)
            if player != me and world.is_simultaneous_node():
                # Picked after the searching seat in the tree, another seat would answer
                # a pick it cannot see: its sealed pick is sampled instead.
                world.apply_action(legal[rng.randrange(len(legal))], player)
                steps += 1
                continue
            untried = [a for a in legal if a.text not in node.children]
            tried = 0
            for action in legal:
                child = node.children.get(action.text)
                if child is not None:
                    child.available += 1
                    tried += 1
            if untried and opts.widen and tried and len(node.children) >= _width(node.visits, opts.widen):
                untried = []  # progressive widening: this node has the children its visits allow
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = Node(player)
                child.available = 1
                node.children[action.text] = child
                path.append(child)  # before the action: a horizon reached in it still counts the visit
                if self._native is not None:
                    self._native.moved(legal.index(action))
                world.apply_action(action, _named(world, player))
                steps += 1
                if certain and world.terminal and world.rng == start_rng:
                    child.proven = world.returns()
                break
            action = self._select(node, [a for a in legal if a.text in node.children])
            node = node.children[action.text]
            path.append(node)
            if node.proven is not None:  # the solver knows how this ends: no need to play it
                return node.proven
            if self._native is not None:
                self._native.moved(legal.index(action))
            world.apply_action(action, _named(world, player))
            steps += 1
        return self._rollout(world, rollout_rng, steps)

    def _select(self, node: Node, legal: list[Action]) -> Action:
        c = self.options.c
        best, best_score = legal[0], -math.inf
        for action in legal:
            child = node.children[action.text]
            if child.proven is not None:  # exact: no exploration needed
                score = child.proven[child.player]
            else:
                score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = action, score
        return best

    def _rollout(self, world: State, rng: random.Random, steps: int) -> list[float]:
        opts = self.options
        done = None
        if self._root is not None:  # (a native world rolls out in C from where it stands)
            done = native_rollout(world, self._root, rng)
        elif self._native is not None and not world.terminal:
            done = self._native.rollout(rng)  # (the same rollout in C: agents/native_rollouts.py)
        if done is not None:
            returns, scores = done
            if not opts.margin:
                return returns
            return [(1 - opts.margin) * r + opts.margin * v for r, v in zip(returns, lead_values(scores), strict=True)]
        if opts.rollout not in ("random", "first"):
            # the game's bot picks inside the state (a native world's Python state: the
            # struct's seats are its own)
            world = world if type(world) is State else world.python_state()  # type: ignore[attr-defined]
            seat(world, seating_of([SeatSpec(opts.rollout)] * world.n, world.gd.bots))
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


def _back_up_proofs(path: list[Node]) -> None:
    """MCTS-solver: from the end of the path up, a node is proven when one of its
    children is a proven win for the seat choosing there (it will choose it), or when
    every legal action has a proven child (the best of them for that seat)."""
    for i in range(len(path) - 1, 0, -1):
        child, parent = path[i], path[i - 1]
        if child.proven is None or parent.proven is not None:
            return
        chooser = child.player
        if child.proven[chooser] >= WIN:
            parent.proven = child.proven
            continue
        if not parent.legal or len(parent.children) < parent.legal:
            return
        values = [c.proven for c in parent.children.values()]
        if any(v is None for v in values):
            return
        parent.proven = max((v for v in values if v is not None), key=lambda v: v[chooser])
