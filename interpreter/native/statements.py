"""Statements of the effect language lowered to Cython: effects, procedures, the setup
and the flow, with each decision made where the flow waits (`take actions`).

Semantics follow the engine's, statement by statement (runtime/ and compile/turns.py):
a turn counts itself, makes its player active, runs its body, checks the end
conditions of `check: turn` with that player as `me`, then gives the turn back; a
`take actions` lists the group, stops when nothing is legal, else lets the seat pick
and goes on until an action that `ends: turn`; `end game` finishes at once. After
anything that may end the game the function returns when it has (`g.terminal`) or
when a read went wrong (`g.err`: the game is replayed on the Python path).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.lang import ast
from interpreter.native import walks
from interpreter.native.expressions import Bound, Env, Lowering, NotNative, _where, static_int

_QUIET = (ast.Let, ast.Set, ast.Change, ast.Log, ast.Show)
_SILENT = (ast.Let, ast.Log, ast.Show)  # (statements that fire no event)
_GRANT_BITS = {"turn": 1, "round": 2, "game": 4}  # (a grant's duration: its bit in g.grants)


def _kind_of(value: Bound) -> str:
    """A value's kind as a trigger's local would hold it: a number, a card, a word."""
    if value.kind == "static":
        return "word" if isinstance(value.value, str) else "any" if value.value is None else "int"
    return value.type if value.type in ("int", "card", "word", "map") else "any"
_TEXT = {"join", "text", "upper", "lower", "plural", "format"}  # built-ins that make words
_FIXED = {"range", "players", "cells"}  # lists nothing can change while a loop walks them
_DRAWS = {"random", "pick_random", "shuffled"}  # built-ins that draw from the rules' generator


class Writer(Lowering):
    """Writes one C function: its statements, their temporaries and locals."""

    def __init__(self, game: Any, me: str):
        super().__init__(game)
        self.me = me
        self.locals: dict[str, str] = {}
        self.lists: set[str] = set()  # locals that hold a list (C arrays with a length)
        self.rooms: dict[str, str] = {}  # (a list local kept in less room than LISTCAP: its room)
        self.stoppable = True  # `stop` returns from this function (not from the setup and flow's)

    def local(self, name: str) -> str:
        cname = self.locals.get(name)
        if cname is None:
            cname = self.locals[name] = f"l_{name}"
            self.decls[cname] = "int64_t"
        return cname

    def list_local(self, name: str, node: ast.Node, room: int | None = None) -> str:
        """The C array (LISTCAP numbers, its length NAME_n) of a local holding a list
        (`room`: the most its writer puts there, which a resumable writer may keep to)."""
        cname = self.locals.get(name)
        if cname is not None and cname not in self.lists:
            raise NotNative(f"{_where(node)}: '{name}' holds a number and a list")
        if cname is None:
            cname = self.locals[name] = f"l_{name}"
            self.lists.add(cname)
            self.decls[f"{cname}[LISTCAP]"] = "int64_t"
            self.decls[f"{cname}_n"] = "int64_t"
        return cname

    def once(self, text: str) -> None:
        """A line that starts a statement's work (a resumable writer skips it when
        resuming: resumable.py)."""
        self.line(text)

    def starting(self, lines: Any) -> None:
        """The lines `lines()` writes, which start a statement's work (as `once`)."""
        lines()

    def plan(self, *bodies: tuple[ast.Node, ...]) -> None:
        """Told the whole function before it is written (a resumable writer places its
        locals by it); here every local is on the C stack already."""

    def kept(self, stem: str) -> str:
        """A variable a statement keeps across its body (a resumable writer keeps it in
        the struct, where it outlives a stop)."""
        return self.temp(stem)

    def function(self, head: str, body: Any, tail: str = "") -> str:
        """The whole function: its head, declarations, then the body written by `body()`."""
        body()
        if tail:
            self.line(tail)
        decls = [f"    cdef {ctype} {name}" for name, ctype in sorted(self.decls.items())]
        return "\n".join([head, *decls, *(self.out or ["    pass"])]) + "\n"

    # ---- statements ---------------------------------------------------------------------------

    def stmts(self, body: tuple[ast.Node, ...], env: Env) -> None:
        for node in body:
            method = getattr(self, "s_" + type(node).__name__, None)
            if method is None:
                raise NotNative(f"{_where(node)}: the statement {type(node).__name__.lower()}")
            method(node, env)
            self.after(node)

    def after(self, node: ast.Node) -> None:
        """After a statement: what it fired resolves (triggers.py), and a game it ended
        or a slip it met returns."""
        fired = self.game.triggers.any and not isinstance(node, _SILENT)
        if fired:
            self.game.triggers.drain(self)
        if fired or not isinstance(node, _QUIET):
            self.line("if g.terminal or g.err: return")

    def s_Log(self, node: ast.Log, env: Env) -> None:
        pass  # (the log is not part of a playout's outcome)

    def s_Show(self, node: ast.Show, env: Env) -> None:
        pass

    def s_Let(self, node: ast.Let, env: Env) -> None:
        if isinstance(node.value, ast.Call) and node.value.name in _TEXT:
            env[node.name] = Bound("text")  # words for the log, which is no part of an outcome
            return
        kept = (len(self.out), dict(self.decls), dict(self.locals), set(self.lists), self.depth, self.maybe)
        try:
            self._let(node, env)
        except NotNative as err:
            # A value the subset cannot work out (text for the log, say) is no harm while
            # nothing reads it: the name is kept unusable, and a read of it refuses.
            if any(isinstance(n, ast.Call) and n.name in _DRAWS for n in ast.walk((node.value,))):
                raise  # (Python draws there: skipping it would change the game)
            mark, self.decls, self.locals, self.lists, self.depth, self.maybe = kept
            del self.out[mark:]
            env[node.name] = Bound("text", str(err))

    def _let(self, node: ast.Let, env: Env) -> None:
        if walks.is_list(self, node.value, env):
            env[node.name] = self._fill_list(node.name, node.value, env, node)
            return
        record = self._record(node.value, env)
        if record is not None:  # (a record of a constant mapping: its place is kept)
            cname = self.local(node.name)
            self.line(f"{cname} = {record.code}")
            env[node.name] = Bound("record", cname, value=record.value)
            return
        value = self.expr(node.value, env)
        word = value.kind == "static" and isinstance(value.value, str)  # (a word: its number, kept as a word)
        code = walks.value_code(self, node.value, value) if word else self._operand(node.value, value)
        cname = self.local(node.name)
        if cname in self.lists:
            raise NotNative(f"{_where(node)}: '{node.name}' holds a list and a number")
        self.line(f"{cname} = {code}")
        env[node.name] = Bound("c", cname, value.type if value.kind == "c" else "word" if word else "int")

    def s_Set(self, node: ast.Set, env: Env) -> None:
        target = node.target
        if isinstance(target, ast.Name) and target.name in env:
            bound = env[target.name]
            if bound.kind == "list":
                env[target.name] = self._fill_list(target.name, node.value, env, node)
                return
            if bound.kind != "c" or bound.code not in self.locals.values() or walks.is_list(self, node.value, env):
                raise NotNative(f"{_where(node)}: setting '{target.name}'")
            self.line(f"{bound.code} = {walks.value_code(self, node.value, self.expr(node.value, env))}")
            return
        if isinstance(target, ast.Attr):  # (an attribute of a card: card_data.py)
            self.game.card_data.write(self, target, node.value, env, node)
            return
        self._counter_write(target, env, lambda old: self.code(node.value, env), node, "set")

    def _fill_list(self, name: str, value: ast.Node, env: Env, node: ast.Node) -> Bound:
        """A local holding a list: a C array of LISTCAP numbers and its length, filled
        through a scratch array (the new list may read the old one)."""
        cname = self.list_local(name, node)
        scratch, kind = self.collect(value, env)
        i = self.temp("i")
        self.block(f"for {i} in range({scratch}_n):", lambda: self.line(f"{cname}[{i}] = {scratch}[{i}]"))
        self.line(f"{cname}_n = {scratch}_n")
        return Bound("list", cname, kind)

    def s_Change(self, node: ast.Change, env: Env) -> None:
        amount = self.temp("amount")
        self.line(f"{amount} = {self.code(node.amount, env)}")
        sign = "+" if node.verb == "gain" else "-"
        self._counter_write(node.target, env, lambda old: f"{old} {sign} {amount}", node, node.verb)

    def pay(self, costs: list[tuple[ast.Node, ast.Node, int]], env: Env) -> None:
        """`me` pays each counter of a cost, in order (an action's, a card effect's)."""
        for target, amount, _ in costs:
            self.maybe += 1  # (a random draw in a cost: Python draws it twice, listing and paying)
            self.s_Change(ast.Change(amount.line, amount.column, "pay", amount, target), env)
            self.maybe -= 1
            self.line("if g.err: return")

    def _counter_write(self, target: ast.Node, env: Env, value: Any, node: ast.Node, verb: str) -> None:
        game = self.game
        name, player, index = None, None, None
        if isinstance(target, ast.Name) and target.name in game.counter_index:
            name = target.name
            player = self.owner_of(name)
        elif isinstance(target, ast.Index) and isinstance(target.target, ast.Name) and \
                target.target.name in game.counter_index and target.target.name not in env:
            name = target.target.name
            index, player = self.index_code(name, target.index, env), self.owner_of(name)
        elif isinstance(target, ast.Call) and target.name in game.counter_index and len(target.args) == 1:
            name, player = target.name, self.code(target.args[0], env)
        elif isinstance(target, ast.Index) and isinstance(target.target, ast.Call) and \
                target.target.name in game.counter_index and len(target.target.args) == 1:
            name, player = target.target.name, self.code(target.target.args[0], env)
            index = self.index_code(name, target.index, env)
        if name is None:
            raise NotNative(f"{_where(node)}: setting this target")
        cdef = game.counters[game.counter_index[name]]
        slot, new = self.temp("slot"), self.temp("new")
        self.line(f"{slot} = {game.counter_slot(name, player, index, node)}")
        heard = game.triggers.heard("changed", cdef.index)
        if heard:
            old = self.temp("old")
            self.line(f"{old} = g.c{cdef.index}[{slot}]")
        self.line(f"{new} = {value(f'g.c{cdef.index}[{slot}]')}")
        if verb == "pay":  # (the engine's overdraft: a rule error, reported by the Python path)
            self.line(f"if {new} < {cdef.min if cdef.min is not None else 0}: g.err = 3")
        if cdef.min is not None:
            self.line(f"if {new} < {cdef.min}: {new} = {cdef.min}")
        if cdef.max is not None:
            self.line(f"if {new} > {cdef.max}: {new} = {cdef.max}")
        self.line(f"g.c{cdef.index}[{slot}] = {new}")
        if heard:  # (the engine's `changed`: the player and key of the slot, when the number moved)
            width = cdef.width
            who, key = ((f"{slot} // {width}", f"{slot} % {width}") if cdef.scope == "player" else ("-1", slot))
            self.block(f"if {new} != {old}:", lambda: game.triggers.fire(
                self, "changed", cdef.index, player=who, key=game.triggers.counter_key(cdef.index, key), old=old,
                new=new))

    def s_If(self, node: ast.If, env: Env) -> None:
        # Each condition is worked out only when the branches before it were not taken.
        def branch(i: int) -> None:
            if i == len(node.branches):
                self.stmts(node.orelse, env)
                return
            condition, body = node.branches[i]
            self.block(f"if {self.cond(condition, env)}:", lambda: self.stmts(body, env))
            if i + 1 < len(node.branches) or node.orelse:
                self.block("else:", lambda: branch(i + 1))
        branch(0)

    def s_ForEach(self, node: ast.ForEach, env: Env) -> None:
        if node.unpack:
            raise NotNative(f"{_where(node)}: a loop that unpacks")
        cname = self.local(node.var)

        def body(item: Bound) -> None:
            if item.kind == "static" and (isinstance(item.value, str) or static_int(item.value)):
                # (a constant's words, or a mapping's keys: each a number in C)
                item = Bound("c", walks.value_code(self, node, item), "word" if isinstance(item.value, str) else "int")
            if item.kind != "c":
                raise NotNative(f"{_where(node)}: a loop over rows")
            self.line(f"{cname} = {item.code}")
            env[node.var] = Bound("c", cname, item.type)
            self.stmts(node.body, env)
        source = node.source
        fixed = (isinstance(source, ast.Call) and source.name in _FIXED) or (
            isinstance(source, ast.Name) and source.name not in env and
            (source.name in _FIXED or source.name in self.game.constants))
        if fixed:
            self.each(source, env, body)
            return
        # The engine walks a copy of the list made before the first pass (the body may
        # move the cards or change the counters it was made of): so does this.
        items, kind = self.collect(source, env)
        i = self.temp("i")
        self.block(f"for {i} in range({items}_n):", lambda: body(Bound("c", f"{items}[{i}]", kind)))

    def s_Repeat(self, node: ast.Repeat, env: Env) -> None:
        def body() -> None:
            self.line("if busy(g): return")  # (a loop that never ends goes to the Python path: see busy)
            self.stmts(node.body, env)
        if node.count is None:
            self.block("while True:", body)
            return
        times = self.temp("times")
        self.line(f"{times} = {self.code(node.count, env)}")
        i = self.temp("i")
        self.block(f"for {i} in range({times}):", body)

    def s_While(self, node: ast.While, env: Env) -> None:
        def body() -> None:
            self.line("if busy(g): return")
            self.block(f"if not {self.cond(node.condition, env)}:", lambda: self.line("break"))
            self.line("if g.err: return")
            self.stmts(node.body, env)
        self.block("while True:", body)

    def s_Turn(self, node: ast.Turn, env: Env) -> None:
        prev = self.kept("prev")

        def enter() -> None:
            player = self.code(node.player, env)
            self.line(f"{prev} = g.active")
            self.line(f"g.active = checked(g, {player}, {self.game.n})")
            self.line("g.turn_no += 1")
            self.line("new_turn(g)")
            if "turn" in self.game.limit_scopes:  # (each turn counts its uses afresh)
                self.line("memset(g.uses[0], 0, sizeof(g.uses[0]))")
            self.game.triggers.resolve(self, "turn_start")
        self.starting(enter)
        self.stmts(node.body, env)
        self.game.triggers.resolve(self, "turn_end")  # (still inside the turn: before its end is checked)
        self._grants_end("turn")
        if self.game.ends_at("turn"):
            self.line("if end_turn(g, g.active): return")
        if self.game.deferred:  # (an end condition met earlier that finishes the turn ends the game now)
            self.block("if g.ending == ENDING_TURN:", self._finish_ending)
        self.line(f"g.active = {prev}")

    def s_Round(self, node: ast.Round, env: Env) -> None:
        self.once("g.round_no += 1")
        if "round" in self.game.limit_scopes:
            self.once("memset(g.uses[1], 0, sizeof(g.uses[1]))")
        if self.game.triggers.heard("round_start"):
            self.starting(lambda: self.game.triggers.resolve(self, "round_start"))
        self.stmts(node.body, env)
        self.game.triggers.resolve(self, "round_end")
        self._grants_end("round")
        if self.game.ends_at("round"):
            self.line("if end_round(g, g.active): return")
        if self.game.deferred:  # (one that finishes the turn or the round: the round is over)
            self.block("if g.ending:", self._finish_ending)

    def s_Emit(self, node: ast.Emit, env: Env) -> None:
        """`emit EVENT(args)`: its values worked out (as the engine does), then its triggers queued."""
        triggers = self.game.triggers
        params = triggers.custom.get(node.event)
        if params is None or len(params) != len(node.args):
            raise NotNative(f"{_where(node)}: event '{node.event}'")
        bounds = [self.expr(a, env) for a in node.args]
        triggers.emitted(node.event, [_kind_of(b) for b in bounds], _where(node))
        values = [walks.value_code(self, a, b) for a, b in zip(node.args, bounds, strict=True)]
        held = [self.temp("arg") for _ in values]
        for name, code in zip(held, values, strict=True):
            self.line(f"{name} = {code}")
        if triggers.heard(node.event):
            for j, name in enumerate(held):
                self.line(f"g.targs[{j}] = {name}")
            triggers.fire(self, node.event)

    def _finish_ending(self) -> None:
        """The game ends as an end condition met earlier said: winners by scoring."""
        self.line("score_winners(g)")
        self.line("finish(g, g.ending_reason)")
        self.line("return")

    def s_TakeActions(self, node: ast.TakeActions, env: Env) -> None:
        if node.simultaneous:
            self._simultaneous(node, env)
            return
        group = self.game.group(node.group, node)
        player = self.temp("who")
        self.line(f"{player} = g.active" if node.player is None else
                  f"{player} = checked(g, {self.code(node.player, env)}, {self.game.n})")
        ends_on_action = self.game.ends_at("action")

        def loop() -> None:
            if ends_on_action:  # (the engine checks `check: action` before each wait)
                self.line("if end_action(g, g.active): return")
            self.line(f"if decide(g, {player}, {group}): break")
            self.line("if g.terminal or g.err: return")
        # A seat played by a game bot with a `turn` effect plays that effect instead.
        self.block(f"if g.policy[{player}] == BOT_TURN:",
                   lambda: self.line(f"bot_turn(g, {player}, g.botturn[{player}])"))
        self.block("else:", lambda: self.block("while True:", loop))

    def _simultaneous(self, node: ast.TakeActions, env: Env) -> None:
        """Every seat listed (default: every seat) picks from the same state, in the
        list's order, a seat with nothing legal sitting out; then the picks are carried
        out in that order (runtime/simultaneous.py)."""
        if self.game.triggers.any:  # (when a payment's triggers resolve among the picks: the engine's)
            raise NotNative(f"{_where(node)}: a simultaneous step in a game with triggers")
        group = self.game.group(node.group, node)
        if self.game.ends_at("action"):
            self.line("if end_action(g, g.active): return")
        taken = self.temp("taken")
        for array in ("_sk[NPLAYERS]", "_sw[NPLAYERS]", "_sp[NSIMUL]"):
            self.decls[array] = "int64_t"
        self.decls["_k"] = "int64_t"
        self.decls["_n"] = "int64_t"
        self.decls["_j"] = "int64_t"
        self.line(f"{taken} = 0")

        def seat(item: Bound) -> None:
            who = self._operand(node, item)
            self.line(f"_n = 0 if g.policy[{who}] == BOT_TURN else list_group(g, {who}, {group})")

            def turn() -> None:  # (a bot's `turn` effect, carried out at its place in the order)
                self.line(f"_sw[{taken}] = {who}")
                self.line(f"_sk[{taken}] = -1")
                self.line(f"{taken} += 1")
            self.block(f"if g.policy[{who}] == BOT_TURN:", turn)
            self.line("if g.err: return")

            def pick() -> None:
                # a game bot picks at once, with the rules' generator, and is no decision of
                # the history; an agent seat picks with its own (`first`: the first action)
                self.block(f"if g.policy[{who}] >= BOT_FIRST:", lambda: self.line(
                    f"_k = 0 if g.policy[{who}] == BOT_FIRST else randbelow(g, _n)"))

                def agent() -> None:
                    self.line("if g.actions >= g.max_actions: g.err = 1")
                    self.line("if g.err: return")
                    self.line(f"_k = 0 if g.policy[{who}] == FIRST else pick(g, {who}, _n)")
                    self.line("g.actions += 1")
                self.block("else:", agent)
                self.line(f"_sw[{taken}] = {who}")
                self.line(f"_sk[{taken}] = CK[_k]")
                self.block("for _j in range(NPARAMS):",
                           lambda: self.line(f"_sp[{taken} * NPARAMS + _j] = CP[_k * NPARAMS + _j]"))
                self.line(f"{taken} += 1")
            self.block("if _n > 0:", pick)
        self.each_seat(node, env, seat)
        i = self.temp("i")

        def carry_out() -> None:
            self.block(f"if _sk[{i}] == -1:", lambda: self.line(f"bot_turn(g, _sw[{i}], g.botturn[_sw[{i}]])"))
            def act() -> None:
                self.line(f"pay_action(g, _sw[{i}], _sk[{i}], &_sp[{i} * NPARAMS])")
                self.line("if g.err: return")
                self.line(f"apply_action(g, _sw[{i}], _sk[{i}], &_sp[{i} * NPARAMS])")
            self.block("else:", act)
            self.line("if g.terminal or g.err: return")
        self.block(f"for {i} in range({taken}):", carry_out)

    def each_seat(self, node: ast.TakeActions, env: Env, seat: Any) -> None:
        """Call `seat` with each seat of a simultaneous step, in its order: every seat,
        or those its list names, checked first (the engine refuses a seat that is not
        one, or one named twice)."""
        if node.player is None:
            self._range("0", "NPLAYERS", seat)
            return
        items, _ = self.collect(node.player, env)
        i, j = self.temp("i"), self.temp("j")

        def valid() -> None:
            self.line(f"if {items}[{i}] < 0 or {items}[{i}] >= NPLAYERS: g.err = 2")
            self.block(f"for {j} in range({i}):", lambda: self.line(f"if {items}[{j}] == {items}[{i}]: g.err = 2"))
        self.block(f"for {i} in range({items}_n):", valid)
        self.line("if g.err: return")
        self.block(f"for {i} in range({items}_n):", lambda: seat(Bound("c", f"{items}[{i}]")))

    def s_Choose(self, node: ast.Choose, env: Env) -> None:
        """`choose VAR from OPTIONS [by P] [up to N]` (compile/choose_one.py): the
        options without repeats, first kept; none is none, one is taken without asking;
        else the chooser picks among them (a game bot inside the state, an agent seat as
        a decision of the history, after the `check: action` end conditions), `up to`
        one at a time with `done` offered last, the options worked out again each time."""
        if self.game.gd.facts.hidden.choices:
            raise NotNative(f"{_where(node)}: a choice that may offer cards its chooser cannot see")
        who = self.temp("chooser")
        self.line(f"{who} = checked(g, {self.code(node.by, env) if node.by is not None else self.me}, NPLAYERS)")
        pick = self.temp("pick")
        if node.up_to is None:
            items, kind = self._options(node.options, env, None)
            cname = self.local(node.var)
            self.block(f"if {items}_n == 0:", lambda: self.line(f"{cname} = -1"))

            def ask() -> None:
                self._ask(who, items, False, pick)
                self.line(f"{cname} = {items}[{pick}]")
            self.block(f"elif {items}_n == 1:", lambda: self.line(f"{cname} = {items}[0]"))
            self.block("else:", ask)
            env[node.var] = Bound("c", cname, kind)
            return
        up_to = node.up_to
        most = up_to.value if isinstance(up_to, ast.Literal) and type(up_to.value) is int else None
        if most is not None and not 0 < most < self.game.list_capacity:
            most = None  # (no less room than LISTCAP to keep)
        cname = self.list_local(node.var, node, most)
        room = self.rooms.get(cname, "LISTCAP")
        self.once(f"{cname}_n = 0")
        kinds: list[str] = []

        def step() -> None:
            items, kind = self._options(node.options, env, cname)
            kinds.append(kind)
            self.line(f"if {cname}_n >= {self.code(up_to, env)} or {items}_n == 0: break")
            self._ask(who, items, True, pick)
            self.line(f"if {pick} == {items}_n: break")  # done
            self.line(f"if {cname}_n >= {room}: g.err = 5")
            self.line("if g.err: return")
            self.line(f"{cname}[{cname}_n] = {items}[{pick}]")
            self.line(f"{cname}_n += 1")
        self.block("while True:", step)
        env[node.var] = Bound("list", cname, kinds[0] if kinds else "int")

    def s_ChooseOne(self, node: ast.ChooseOne, env: Env) -> None:
        """`choose one [by P]:` with labelled options (compile/choose_one.py): the open
        options (their conditions hold), none open: nothing; one: taken without asking;
        else the chooser picks one, by its place among the open ones."""
        if self.game.step and any("{" in option.label for option in node.options):
            raise NotNative(f"{_where(node)}: options whose labels are filled in, one decision at a time")
        chosen = self.kept("chosen")

        def decide() -> None:
            who, pick = self.temp("chooser"), self.temp("pick")
            self.line(f"{who} = checked(g, {self.code(node.by, env) if node.by is not None else self.me}, NPLAYERS)")
            self._n += 1
            items = f"_open{self._n}"
            self.decls[f"{items}[LISTCAP]"] = "int64_t"
            self.decls[f"{items}_n"] = "int64_t"
            self.line(f"{items}_n = 0")
            for k, option in enumerate(node.options):
                add = self.writes(f"{items}[{items}_n] = {k}", f"{items}_n += 1")
                if option.condition is None:
                    add()
                else:
                    self.block(f"if {self.cond(option.condition, env)}:", add)
            self.block(f"if {items}_n == 0:", lambda: self.line(f"{chosen} = -1"))
            self.block(f"elif {items}_n == 1:", lambda: self.line(f"{chosen} = {items}[0]"))

            def ask() -> None:
                self._card_options = False
                self._ask(who, items, False, pick)
                self.line(f"{chosen} = {items}[{pick}]")
            self.block("else:", ask)
        self.deciding(decide)
        for k, option in enumerate(node.options):
            self.block(f"if {chosen} == {k}:", self._runs(option.body, env))

    def _runs(self, body: tuple[ast.Node, ...], env: Env) -> Callable[[], None]:
        """A block's body that is these statements."""
        return lambda: self.stmts(body, env)

    def deciding(self, lines: Any) -> None:
        """The lines that make a choice (a resumable writer enters them again only to
        take the answer)."""
        lines()

    _card_options = False

    def _options(self, options: ast.Node, env: Env, picked: str | None) -> tuple[str, str]:
        """A choice's options in a scratch array, repeats dropped (first kept) and, with
        `picked` (a list local), what it holds left out."""
        items, kind = self.collect(options, env)
        kept, i, j, seen = self.temp("kept"), self.temp("i"), self.temp("j"), self.temp("seen")
        self.line(f"{kept} = 0")

        def one() -> None:
            self.line(f"{seen} = 0")
            self.block(f"for {j} in range({kept}):", lambda: self.line(f"if {items}[{j}] == {items}[{i}]: {seen} = 1"))
            if picked is not None:
                self.block(f"for {j} in range({picked}_n):",
                           lambda: self.line(f"if {picked}[{j}] == {items}[{i}]: {seen} = 1"))

            def keep() -> None:
                self.line(f"{items}[{kept}] = {items}[{i}]")
                self.line(f"{kept} += 1")
            self.block(f"if not {seen}:", keep)
        self.block(f"for {i} in range({items}_n):", one)
        self.line(f"{items}_n = {kept}")
        return items, kind

    def _ask(self, who: str, items: str, done: bool, pick: str) -> None:
        """`pick` = the chooser's answer among the options in `items` (and `done` last)."""
        count = f"{items}_n + 1" if done else f"{items}_n"
        self.block(f"if g.policy[{who}] >= BOT_FIRST:", lambda: self.line(f"{pick} = bot_pick(g, {who}, {count})"))

        def agent() -> None:
            if self.game.ends_at("action"):
                self.line("if end_action(g, g.active): return")
            self.line(f"{pick} = agent_pick(g, {who}, {count})")
            self.line(f"if {pick} < 0: return")
        self.block("else:", agent)

    def s_CallStmt(self, node: ast.CallStmt, env: Env) -> None:
        number = self.game.procedure(node.name, len(node.args), node)
        self.line(f"proc{number}(g, {', '.join([self.me, *self.call_args(node, env)])})")

    def call_args(self, node: ast.CallStmt, env: Env) -> list[str]:
        """A procedure call's arguments as C (numbers, cards, words, mappings), each
        one's kind told to the program, which types the procedure's untyped parameters
        by them (Program.called)."""
        codes, kinds = [], []
        for arg in node.args:
            if walks.is_list(self, arg, env):  # (a list: a copy's items and length)
                items, kind = self.collect(arg, env)
                codes += [items, f"{items}_n"]
                kinds.append(f"list:{kind}")
                continue
            value = self.expr(arg, env)
            codes.append(walks.value_code(self, arg, value))
            kinds.append(_kind_of(value))
        self.game.called(node.name, kinds, _where(node))
        return codes

    def call_placeholders(self, node: ast.CallStmt, env: Env) -> list[str]:
        """As many C arguments as call_args gives (a list takes two), none worked out:
        what a resumed call is given (its arguments are kept in the struct)."""
        out: list[str] = []
        for arg in node.args:
            out += ["NULL", "0"] if walks.is_list(self, arg, env) else ["0"]
        return out

    def s_Use(self, node: ast.Use, env: Env) -> None:
        number = self.game.card_effects.number(node.effect, node)
        self.line(f"use_{number}(g, {self.me}, {self.code(node.card, env, 'card')})")

    def s_Stop(self, node: ast.Stop, env: Env) -> None:
        """`stop`: the effect (procedure, card effect, bot's turn) ends here."""
        if not self.stoppable:
            raise NotNative(f"{_where(node)}: stop in the setup or the flow")
        self.line("return")

    def s_Grant(self, node: ast.Grant, env: Env) -> None:
        """`grant M to P until end of DURATION`: the modifier applies to P until then
        (the engine's st.grants; presence is what its values read)."""
        k = self.game.granted.get(node.modifier)
        if k is None:
            raise NotNative(f"{_where(node)}: modifier '{node.modifier}' is not one that is granted")
        bit = _GRANT_BITS[node.duration]
        self.line(f"g.grants[{k} * NPLAYERS + checked(g, {self.code(node.player, env)}, NPLAYERS)] |= {bit}")

    def _grants_end(self, duration: str) -> None:
        """A turn's or round's end: the grants that last that long are over."""
        if self.game.granted:
            i = self.temp("i")
            self.block(f"for {i} in range({len(self.game.granted) * self.game.n}):",
                       lambda: self.line(f"g.grants[{i}] &= {7 - _GRANT_BITS[duration]}"))

    def s_EndGame(self, node: ast.EndGame, env: Env) -> None:
        self.game.winners_into(self, node.winners, env)
        self.line(f"finish(g, {self.game.reason('end-game')})")
        self.line("return")

    def s_ZoneStmt(self, node: ast.ZoneStmt, env: Env) -> None:
        if node.verb != "shuffle":
            raise NotNative(f"{_where(node)}: {node.verb}")
        self.line(f"shuffle_zone(g, {self.game.zone_slot(node.zone, env, self)})")

    def s_Draw(self, node: ast.Draw, env: Env) -> None:
        count = self.temp("count")
        self.line(f"{count} = {self.code(node.count, env)}")
        source, dest = self.game.zone_slot(node.source, env, self), self.game.zone_slot(node.dest, env, self)
        self.line(f"draw(g, {count}, {source}, {dest})")

    def s_Move(self, node: ast.Move, env: Env) -> None:
        slot = self.game.zone_slot(node.zone, env, self)
        top = 1 if node.place == "top" else 0
        single = None if walks.is_list(self, node.cards, env) else self.expr(node.cards, env)
        if single is not None and single.kind == "c":
            if single.type not in ("card", "any"):
                raise NotNative(f"{_where(node)}: moving what is not a card ({single.type})")
            card = self.temp("card")  # (no card, none: nothing moves, as in the engine)
            self.line(f"{card} = {single.code}")
            self.line(f"if {card} != -1: place_card(g, {card}, {slot}, {top})")
            return
        items, _ = self.collect(node.cards, env)  # (the engine moves a copy of the list, bottom first)
        i = self.temp("i")
        self.block(f"for {i} in range({items}_n):",
                   lambda: self.line(f"if {items}[{i}] != -1: place_card(g, {items}[{i}], {slot}, {top})"))

    def s_CardsStmt(self, node: ast.CardsStmt, env: Env) -> None:
        """`destroy CARDS` (out of the game), `reveal CARDS` (seen by all: what the
        players see is no part of a game's outcome, so nothing to do here)."""
        if node.verb != "destroy":
            if any(isinstance(n, ast.Call) and n.name in _DRAWS for n in ast.walk((node.cards,))):
                raise NotNative(f"{_where(node)}: a random draw in what is revealed")
            return
        if walks.is_list(self, node.cards, env):
            items, _ = self.collect(node.cards, env)  # (a fresh list: zones change under us)
            i = self.temp("i")
            self.block(f"for {i} in range({items}_n):",
                       lambda: self.line(f"if {items}[{i}] != -1: remove_card(g, {items}[{i}])"))
            return
        card = self.temp("card")
        self.line(f"{card} = {self.code(node.cards, env, 'card')}")
        self.line(f"if {card} != -1: remove_card(g, {card})")

    def s_Create(self, node: ast.Create, env: Env) -> None:
        definition = self.game.card_definition(node.card_id, node)
        count = self.code(node.count, env)
        self.line(f"create_cards(g, {definition}, {count}, {self.game.zone_slot(node.zone, env, self)})")
