"""Resumable lowering: the rules written so that a run can stop at a decision and go on
from there later, for the native per-step state (native/stepping.py, native_state.py).

The batched module lets every seat pick where the flow waits. A per-step state must
instead hand each decision of a seat played from outside back to its caller and, once
answered, carry on exactly there. C has no coroutines and Cython no `goto`, so each
function that may stop is written to be entered again ("structured resume"):

* what must outlive a stop lives in the state struct, not on the C stack: the rules'
  locals read after a stop (`stack_locals` finds the others, which stay on the stack),
  a loop's index and the copy of the list it walks, a turn's previous player, a
  procedure's arguments. A clone (one memcpy) carries it; a resumed run finds it;
* each place where a function may stop (a decision, or a call of a function that may
  stop) has a number, stored (`g.atF`) by every function on the way out;
* resuming (`g.resuming`) enters again from the top. A statement with no stopping place
  in it is skipped. One whose places hold the stored number is entered: a condition is
  not worked out again, the branch holding the place is taken; a loop keeps its stored
  index. The decision takes the answer and clears `g.resuming`; from there the code
  runs as the batched module's does.

Work done before a decision that only reads the state (a choice's options, its chooser,
a listing) is done again when resuming, with the same result: nothing changed between
the stop and the answer.
"""

from __future__ import annotations

from typing import Any

from interpreter.lang import ast
from interpreter.native.bound import byte_type
from interpreter.native.expressions import Bound, Env, NotNative, _where
from interpreter.native.statements import Writer

_STOPS = (ast.TakeActions, ast.Choose, ast.ChooseOne, ast.CallStmt, ast.Use)  # statements that may wait for a seat


def may_stop(node: ast.Node) -> bool:
    """Whether running `node` may stop at a decision (a call counts: procedures may)."""
    return any(isinstance(s, _STOPS) for s in ast.statements([node]))


_LOOPS = (ast.ForEach, ast.Repeat, ast.While, ast.Round)  # statements whose body may run again
_ONCE = (ast.CallStmt, ast.Use, ast.TakeActions)  # stops whose own parts are read before stopping only


def _names(nodes: list[Any]) -> set[str]:
    """Every name written or read under `nodes` (a local, a loop's or a choice's variable)."""
    out: set[str] = set()
    for node in ast.walk(nodes):
        if isinstance(node, ast.Name | ast.Let):
            out.add(node.name)
        elif isinstance(node, ast.ForEach | ast.Comprehension):
            out |= {node.var, *node.unpack}
        elif isinstance(node, ast.Choose):
            out.add(node.var)
    return out


def written_values(nodes: list[Any]) -> dict[str, list[ast.Node | None]]:
    """What each `let` or `set` of a name writes to it (None: a loop's, a choice's or a
    comprehension's variable, whose value is not written out)."""
    out: dict[str, list[ast.Node | None]] = {}
    for node in ast.walk(nodes):
        if isinstance(node, ast.Let):
            out.setdefault(node.name, []).append(node.value)
        elif isinstance(node, ast.Set) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.name, []).append(node.value)
        elif isinstance(node, ast.Choose):
            out.setdefault(node.var, []).append(None)
        elif isinstance(node, ast.ForEach | ast.Comprehension):
            for name in (node.var, *node.unpack):
                out.setdefault(name, []).append(None)
    return out


def one_per_player(node: ast.Node | None, values: dict[str, list[ast.Node | None]],
                   seen: frozenset[str] = frozenset()) -> bool:
    """Whether the list `node` holds at most one item per player: the players,
    `players_from(...)`, one of those sorted, reversed or filtered by a comprehension, or
    a local every write of which is such a list. (A loop walking one keeps its copy in
    NPLAYERS numbers; more than that at run time hands the game to the Python path.)"""
    if isinstance(node, ast.Name):
        if node.name not in values:
            return node.name == "players"
        # (a write that reads the name itself keeps it as long at most: none of these lengthens)
        return node.name in seen or all(
            one_per_player(value, values, seen | {node.name}) for value in values[node.name])
    if isinstance(node, ast.Call):
        if node.name == "players_from":
            return True
        return node.name in ("sorted", "reversed") and len(node.args) == 1 and \
            one_per_player(node.args[0], values, seen)
    if isinstance(node, ast.Comprehension):
        return not node.unpack and one_per_player(node.source, values, seen)
    return False


def stack_locals(body: list[Any]) -> set[str]:
    """The names of a function no stop separates from a read of them: those live at no
    stop (a backward liveness over the statements), which may then live on the C stack
    instead of the struct (a clone copies less; a list is LISTCAP numbers).

    A choice's own parts are read again when the run resumes there (it works its options
    out again), so they are live at its stop; a call's arguments, a use's card and the
    seat of a `take actions` are read once, before it stops; a loop's list and
    count and an `if`'s conditions are worked out once, before any stop inside; a plain
    `let` or `set` of a name ends its life above it; any other statement that cannot stop
    reads every name in it and ends none."""
    at_stops: set[str] = set()
    stops: dict[int, bool] = {}
    done: dict[tuple[int, frozenset[str]], set[str]] = {}  # (a loop in loops: each pass once)

    def run(statements: Any, live: set[str]) -> set[str]:  # (live after -> live before)
        for node in reversed(list(statements)):
            key = (id(node), frozenset(live))
            if key not in done:
                done[key] = one(node, live)
            live = done[key]
        return live

    def one(node: Any, live: set[str]) -> set[str]:
        if id(node) not in stops:
            stops[id(node)] = may_stop(node)
        if not stops[id(node)]:
            if isinstance(node, ast.Let):
                return (live - {node.name}) | _names([node.value])
            if isinstance(node, ast.Set) and isinstance(node.target, ast.Name):
                return (live - {node.target.name}) | _names([node.value])
            return live | _names([node])
        if isinstance(node, ast.If):
            before = set(run(node.orelse, live))  # (a copy: `live` may be what it gives back)
            for condition, branch in node.branches:
                before |= run(branch, live) | _names([condition])
            return before
        if isinstance(node, _LOOPS):
            own = {node.var, *node.unpack} if isinstance(node, ast.ForEach) else set()
            again = _names([node.condition]) if isinstance(node, ast.While) else set()
            head = set(live)
            while True:  # (to the fixed point: what one pass reads may come from the last)
                new = live | again | (run(node.body, head) - own)
                if new == head:
                    break
                head = new
            heads = [node.source] if isinstance(node, ast.ForEach) else \
                [node.count] if isinstance(node, ast.Repeat) and node.count is not None else []
            return head | _names(heads)
        if isinstance(node, ast.Turn):
            return run(node.body, live) | _names([node.player])
        if isinstance(node, ast.ChooseOne):
            after = set(live) | _names([node.by] if node.by is not None else [])
            for option in node.options:
                after |= run(option.body, live) | _names([option.condition] if option.condition else [])
            at_stops.update(after)
            return after
        stopped = live | _names([node])
        if isinstance(node, _ONCE):  # (worked out before the stop; resuming, the call runs on what it kept)
            at_stops.update(live)
        else:  # (a choice works its options out again on resuming)
            at_stops.update(stopped)
        return stopped

    run(body, set())
    return _names(list(body)) - at_stops


class StepWriter(Writer):
    """Writes one function of a per-step module (see the module's docstring)."""

    def __init__(self, game: Any, me: str):
        super().__init__(game, me)
        self.fid = game.new_function()
        self.at = f"g.at{self.fid}"
        game.step_fields[f"at{self.fid}"] = byte_type(1)  # (where it stopped: wider as points are added)
        self.points = 0
        self.plain = 0  # inside a statement that cannot stop: written as the batched writer does
        self.on_stack: set[str] | None = None  # (the rules' locals no stop separates: plan)
        self.values: dict[str, list[ast.Node | None]] = {}  # (what each write of a name writes: plan)
        self.free_copies: dict[tuple[str, str], list[str]] = {}  # (loop copies no loop walks now: _loop_copy)
        self.list_kinds: dict[str, set[str]] = {}  # (what each write of a list kept in the struct holds)

    def plan(self, *bodies: tuple[ast.Node, ...]) -> None:
        """Which locals of the function made of `bodies` live on the C stack (stack_locals);
        the first body written plans itself, unless told the whole function first."""
        whole = [node for body in bodies for node in body]
        self.on_stack = stack_locals(whole)
        self.values = written_values(whole)

    # ---- what outlives a stop -------------------------------------------------------------------

    def field(self, stem: str, array: bool = False, room: str = "LISTCAP") -> str:
        """A variable of this function kept in the state struct (an array: `room`
        numbers, and its length NAME_n)."""
        self._n += 1
        name = f"f{self.fid}_{stem}{self._n}"
        if array:
            self.game.step_fields[f"{name}[{room}]"] = "int64_t"
            self.game.step_fields[f"{name}_n"] = "int64_t"
        else:
            self.game.step_fields[name] = "int64_t"
        return f"g.{name}"

    def local(self, name: str) -> str:
        if self.on_stack and name in self.on_stack:
            return super().local(name)
        cname = self.locals.get(name)
        if cname is None:
            cname = self.locals[name] = self.field("l")
        return cname

    def list_local(self, name: str, node: ast.Node, room: int | None = None) -> str:
        if self.on_stack and name in self.on_stack:
            return super().list_local(name, node)
        cname = self.locals.get(name)
        if cname is not None and cname not in self.lists:
            raise NotNative(f"{_where(node)}: '{name}' holds a number and a list")
        if cname is None:
            # (a list no other statement writes is kept in the room its one writer needs)
            small = room is not None and len(self.values.get(name, ())) == 1
            cname = self.locals[name] = self.field("l", array=True, room=str(room) if small else "LISTCAP")
            if small:
                self.rooms[cname] = str(room)
            self.lists.add(cname)
        return cname

    def _fill_list(self, name: str, value: ast.Node, env: Env, node: ast.Node) -> Bound:
        bound = super()._fill_list(name, value, env, node)
        self._element_kind(bound.code, bound.type)
        return bound

    def _element_kind(self, cname: str, kind: str) -> None:
        """A list kept in the struct that every write fills with cards holds them in a
        card's bytes (its items are only ever read one by one, into numbers)."""
        if not cname.startswith("g."):
            return
        kinds = self.list_kinds.setdefault(cname, set())
        kinds.add(kind)
        key = f"{cname.removeprefix('g.')}[{self.rooms.get(cname, 'LISTCAP')}]"
        self.game.step_fields[key] = "card_t" if kinds == {"card"} else "int64_t"

    def once(self, text: str) -> None:
        self.starting(lambda: self.line(text))

    def starting(self, lines: Any) -> None:
        if self.plain:
            lines()
        else:
            self.block("if not g.resuming:", lines)

    def kept(self, stem: str) -> str:
        return self.temp(stem) if self.plain else self.field(stem)

    def point(self) -> int:
        self.points += 1
        self.game.step_fields[f"at{self.fid}"] = byte_type(self.points + 1)
        return self.points

    def stop_at(self, point: int) -> None:
        """After a call that may stop: on a stop, say where, and return."""
        def out() -> None:
            self.line(f"{self.at} = {point}")
            self.line("return")
        self.block("if g.susp:", out)

    # ---- statements -----------------------------------------------------------------------------

    def stmts(self, body: tuple[ast.Node, ...], env: Env) -> None:
        if self.on_stack is None:
            self.plan(body)
        if self.plain:
            super().stmts(body, env)
            return
        for node in body:
            method = getattr(self, "s_" + type(node).__name__, None)
            if method is None:
                raise NotNative(f"{_where(node)}: the statement {type(node).__name__.lower()}")
            if not may_stop(node):
                def plain(node: ast.Node = node, method: Any = method) -> None:
                    self.plain += 1
                    method(node, env)
                    self.after(node)
                    self.plain -= 1
                self.block("if not g.resuming:", plain)
                continue
            first = self.points + 1
            mark = len(self.out)
            self.line("#")
            self.depth += 1
            method(node, env)
            self.game.triggers.drain(self)
            self.line("if g.terminal or g.err: return")
            self.depth -= 1
            last = self.points
            self.out[mark] = "    " * self.depth + (
                f"if not g.resuming or {first} <= {self.at} <= {last}:" if last >= first else "if not g.resuming:")

    def s_If(self, node: ast.If, env: Env) -> None:
        if self.plain:
            super().s_If(node, env)
            return

        def branch(i: int) -> None:
            if i == len(node.branches):
                self.stmts(node.orelse, env)
                return
            condition, body = node.branches[i]
            taken = self.temp("c")
            self.line("if g.resuming:")
            slot = len(self.out)
            self.line("#")
            self.block("else:", lambda: self.line(f"{taken} = {self.cond(condition, env)}"))
            first = self.points + 1
            self.block(f"if {taken}:", lambda: self.stmts(body, env))
            last = self.points
            self.out[slot] = "    " * (self.depth + 1) + (
                f"{taken} = {first} <= {self.at} <= {last}" if last >= first else f"{taken} = 0")
            if i + 1 < len(node.branches) or node.orelse:
                self.block("else:", lambda: branch(i + 1))
        branch(0)

    def s_ForEach(self, node: ast.ForEach, env: Env) -> None:
        if self.plain:
            super().s_ForEach(node, env)
            return
        if node.unpack:
            raise NotNative(f"{_where(node)}: a loop that unpacks")
        cname = self.local(node.var)
        room = "NPLAYERS" if one_per_player(node.source, self.values) else "LISTCAP"
        index = self.field("i")
        made: list[tuple[str, str, tuple[str, str]]] = []  # (fill's: the items' kind, their array, its shape)

        def fill() -> None:  # (the engine walks a copy of the list made before the first pass)
            scratch, kind = self.collect(node.source, env)
            items, shape = self._loop_copy(room, "card_t" if kind == "card" else "int64_t")
            made.append((kind, items, shape))
            if room != "LISTCAP":  # (longer than its room: the Python path, as a cap met)
                self.block(f"if {scratch}_n > {room}:", self.writes("g.err = 5", f"{scratch}_n = {room}"))
            j = self.temp("j")
            self.block(f"for {j} in range({scratch}_n):", lambda: self.line(f"{items}[{j}] = {scratch}[{j}]"))
            self.line(f"{items}_n = {scratch}_n")
            self.line(f"{index} = 0")
        self.block("if not g.resuming:", fill)
        self.line("if g.err: return")
        kind, items, shape = made[0]

        def body() -> None:
            self.block("if not g.resuming:", lambda: self.line(f"{cname} = {items}[{index}]"))
            env[node.var] = Bound("c", cname, kind)
            self.stmts(node.body, env)
            self.line(f"{index} += 1")
        self.block(f"while {index} < {items}_n:", body)
        self.free_copies.setdefault(shape, []).append(items)  # (a loop after this one may walk its list there)

    def _loop_copy(self, room: str, ctype: str) -> tuple[str, tuple[str, str]]:
        """The struct array a loop keeps its copy of the list in: `room` numbers of
        `ctype` (cards in a card's bytes). A loop that has ended leaves its array to the
        loops after it (never to one inside it: it is still walking): loops one after
        another never hold their copies at once, so a clone copies one array for them."""
        shape = (room, ctype)
        free = self.free_copies.get(shape)
        if free:
            return free.pop(), shape
        items = self.field("items", array=True, room=room)
        self.game.step_fields[f"{items.removeprefix('g.')}[{room}]"] = ctype
        return items, shape

    def s_Repeat(self, node: ast.Repeat, env: Env) -> None:
        if self.plain or node.count is None:
            super().s_Repeat(node, env)
            return
        times, index = self.field("times"), self.field("i")
        count = node.count

        def start() -> None:
            self.line(f"{times} = {self.code(count, env)}")
            self.line(f"{index} = 0")
        self.block("if not g.resuming:", start)

        def body() -> None:
            self.line("if busy(g): return")
            self.stmts(node.body, env)
            self.line(f"{index} += 1")
        self.block(f"while {index} < {times}:", body)

    def s_While(self, node: ast.While, env: Env) -> None:
        if self.plain:
            super().s_While(node, env)
            return

        def test() -> None:
            self.block(f"if not {self.cond(node.condition, env)}:", lambda: self.line("break"))
            self.line("if g.err: return")

        def body() -> None:
            self.line("if busy(g): return")
            self.block("if not g.resuming:", test)
            self.stmts(node.body, env)
        self.block("while True:", body)

    def s_Use(self, node: ast.Use, env: Env) -> None:
        if self.plain:
            super().s_Use(node, env)
            return
        number = self.game.card_effects.number(node.effect, node)
        here = self.point()
        # Resuming, use_N goes back into the effect it called, with what it kept.
        self.block("if g.resuming:", lambda: self.line(f"use_{number}(g, 0, 0)"))
        self.block("else:", lambda: self.line(f"use_{number}(g, {self.me}, {self.code(node.card, env, 'card')})"))
        self.stop_at(here)

    def s_TakeActions(self, node: ast.TakeActions, env: Env) -> None:
        if node.simultaneous:
            self._simultaneous(node, env)
            return
        group = self.game.group(node.group, node)
        who = self.field("who")
        self.once(f"{who} = g.active" if node.player is None else
                  f"{who} = checked(g, {self.code(node.player, env)}, {self.game.n})")
        by_bot, by_seat = self.point(), self.point()

        def bot() -> None:
            self.line(f"bot_turn(g, {who}, g.botturn[{who}])")
            self.stop_at(by_bot)

        def bot_now() -> None:
            bot()
            self.line("break")

        def loop() -> None:
            # (a search's rollout seats a game bot at the seat whose decision it resumes:
            # as in the engine, which asks who plays the seat before each of its picks,
            # the bot's turn takes the rest of the turn over)
            self.starting(lambda: self.block(f"if g.policy[{who}] == BOT_TURN:", bot_now))
            if self.game.ends_at("action"):  # (the engine checks `check: action` before each wait)
                self.once("if end_action(g, g.active): return")
            self.line(f"if decide(g, {who}, {group}): break")
            self.stop_at(by_seat)
            self.line("if g.terminal or g.err: return")
        # (resuming, the branch that stopped is taken again, whatever seats the rollout)
        self.block(f"if {self.at} == {by_bot} if g.resuming else g.policy[{who}] == BOT_TURN:", bot)
        self.block("else:", lambda: self.block("while True:", loop))

    def _simultaneous(self, node: ast.TakeActions, env: Env) -> None:
        """As the batched writer's, but the seats played from outside are asked all at
        once: the run stops with them listed (g.wait), and the answers (g.answers, by
        seat) are taken when it resumes; then the picks are carried out in order."""
        if self.game.triggers.any:  # (when a payment's triggers resolve among the picks: the engine's)
            raise NotNative(f"{_where(node)}: a simultaneous step in a game with triggers")
        if self.game.n * self.game.nparams > self.game.list_capacity:
            raise NotNative(f"{_where(node)}: a simultaneous step of this many seats, one decision at a time")
        group = self.game.group(node.group, node)
        taken, index, waiting = self.field("taken"), self.field("i"), self.temp("waiting")
        seats, kinds, values = self.field("sw", array=True), self.field("sk", array=True), self.field("sp", array=True)
        stop, by_bot, by_seat = self.point(), self.point(), self.point()
        n, k, j = self.temp("n"), self.temp("k"), self.temp("j")

        def seat(item: Bound) -> None:
            who = self._operand(node, item)
            self.line(f"{n} = 0 if g.policy[{who}] == BOT_TURN else list_group(g, {who}, {group})")

            def turn() -> None:  # (a bot's `turn` effect, carried out at its place in the order)
                self.line(f"{seats}[{taken}] = {who}")
                self.line(f"{kinds}[{taken}] = -1")
                self.line(f"{taken} += 1")
            self.block(f"if g.policy[{who}] == BOT_TURN:", turn)
            self.line("if g.err: return")

            def bot() -> None:  # (a game bot picks at once, with the rules' generator)
                self.line(f"{k} = 0 if g.policy[{who}] == BOT_FIRST else randbelow(g, {n})")
                self.line(f"{kinds}[{taken}] = CK[{k}]")
                self.block(f"for {j} in range(NPARAMS):",
                           lambda: self.line(f"{values}[{taken} * NPARAMS + {j}] = CP[{k} * NPARAMS + {j}]"))

            def outside() -> None:
                self.line("if g.rolling: g.err = 8")  # (a rollout through a simultaneous step: Python's)
                self.line(f"{kinds}[{taken}] = -2")
                self.line(f"g.wait[{waiting}] = {who}")
                self.line(f"{waiting} += 1")

            def pick() -> None:
                self.line(f"{seats}[{taken}] = {who}")
                self.block(f"if g.policy[{who}] >= BOT_FIRST:", bot)
                self.block("else:", outside)
                self.line(f"{taken} += 1")
            self.block(f"if {n} > 0:", pick)

        def start() -> None:
            if self.game.ends_at("action"):
                self.line("if end_action(g, g.active): return")
            self.line(f"{taken} = 0")
            self.line(f"{waiting} = 0")
            self.each_seat(node, env, seat)
            self.line("unlisted()")
            self.line(f"{index} = 0")

            def ask() -> None:
                self.line("g.nwait = " + waiting)
                self.line(f"g.ask_group = {group}")
                self.line("stop_simultaneous(g)")
                self.line(f"{self.at} = {stop}")
                self.line("return")
            self.block(f"if {waiting} > 0:", ask)

        def answers() -> None:  # the seats' answers, each an index in its own listing
            self.line("g.resuming = 0")
            self.line("g.simul = 0")

            def one() -> None:
                self.line(f"{n} = list_group(g, {seats}[{j}], {group})")
                self.line(f"{k} = g.answers[{seats}[{j}]]")
                self.line(f"if {k} < 0 or {k} >= {n}: g.err = 7")
                self.line("if g.err: return")
                self.line(f"{kinds}[{j}] = CK[{k}]")
                i = self.temp("i")
                self.block(f"for {i} in range(NPARAMS):",
                           lambda: self.line(f"{values}[{j} * NPARAMS + {i}] = CP[{k} * NPARAMS + {i}]"))
            self.block(f"for {j} in range({taken}):", lambda: self.block(f"if {kinds}[{j}] == -2:", one))
            self.line("unlisted()")

        self.block("if not g.resuming:", start)
        self.block(f"elif {self.at} == {stop}:", answers)

        def carry_out() -> None:
            def turn() -> None:
                self.line(f"bot_turn(g, {seats}[{index}], g.botturn[{seats}[{index}]])")
                self.stop_at(by_bot)

            def act() -> None:
                self.once(f"pay_action(g, {seats}[{index}], {kinds}[{index}], &{values}[{index} * NPARAMS])")
                self.line("if g.err: return")
                self.line(f"apply_action(g, {seats}[{index}], {kinds}[{index}], &{values}[{index} * NPARAMS])")
                self.stop_at(by_seat)
            self.block(f"if {kinds}[{index}] == -1:", turn)
            self.block("else:", act)
            self.line("if g.terminal or g.err: return")
            self.line(f"{index} += 1")
        self.block(f"while {index} < {taken}:", carry_out)

    def _ask(self, who: str, items: str, done: bool, pick: str) -> None:
        count = f"{items}_n + 1" if done else f"{items}_n"
        self.block(f"if g.policy[{who}] >= BOT_FIRST:", lambda: self.line(f"{pick} = bot_pick(g, {who}, {count})"))
        here, ask = self.point(), self.game.new_ask(self._card_options)

        def answer() -> None:
            self.line("g.resuming = 0")
            self.line(f"{pick} = g.answer")

        def stop() -> None:
            if self.game.ends_at("action"):
                self.line("if end_action(g, g.active): return")
            j = self.temp("j")
            self.line(f"g.ask = {ask}")
            self.line("g.stamp = new_stamp()")
            self.line(f"g.ask_who = {who}")
            self.block(f"for {j} in range({items}_n):", lambda: self.line(f"g.opt[{j}] = {items}[{j}]"))
            self.line(f"g.ask_n = {count}")
            self.line(f"g.optdone = {1 if done else 0}")
            self.line("g.susp = 1")
            self.line(f"{self.at} = {here}")
            self.line("return")
        def roll() -> None:  # (a search's rollout: the seat picks at random, stepping.py)
            if self.game.ends_at("action"):
                self.line("if end_action(g, g.active): return")
            self.line(f"{pick} = shared_pick(g, {count})")

        def agent() -> None:
            self.block("if g.resuming:", answer)
            self.block("elif g.rolling:", roll)
            self.block("else:", stop)
        self.block("else:", agent)

    def deciding(self, lines: Any) -> None:
        if self.plain:
            lines()
            return
        mark = len(self.out)
        self.line("#")
        self.depth += 1
        first = self.points + 1
        lines()
        last = self.points
        self.depth -= 1
        self.out[mark] = "    " * self.depth + (
            f"if not g.resuming or {first} <= {self.at} <= {last}:" if last >= first else "if not g.resuming:")

    def s_Choose(self, node: ast.Choose, env: Env) -> None:
        # (which options are cards is known once they are worked out: _options records it)
        super().s_Choose(node, env)
        chosen = env.get(node.var)
        if chosen is not None and chosen.kind == "list":  # (`choose up to N`: the picks so far)
            self._element_kind(chosen.code, chosen.type)

    def _options(self, options: ast.Node, env: Env, picked: str | None) -> tuple[str, str]:
        items, kind = super()._options(options, env, picked)
        self._card_options = kind == "card"
        return items, kind

    def s_CallStmt(self, node: ast.CallStmt, env: Env) -> None:
        number = self.game.procedure(node.name, len(node.args), node)
        here = self.point()
        # Resuming, the callee runs on the arguments it kept: they are not worked out again.
        zeros = ", ".join(["0", *self.call_placeholders(node, env)])
        self.block("if g.resuming:", lambda: self.line(f"proc{number}(g, {zeros})"))
        self.block("else:", lambda: self.line(
            f"proc{number}(g, {', '.join([self.me, *self.call_args(node, env)])})"))
        self.stop_at(here)
