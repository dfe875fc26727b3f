"""Compile statement nodes into the operations of a `Code`, run by loop.run.

Each operation is a function `op(state, frame) -> bool`; the loop has already moved the
frame's pc to the next operation, so control flow sets `frame.pc` to jump, and an
operation that needs a decision sets `frame.pc` back to itself and returns True. Its
answer arrives in the frame's locals under a hidden key, and the operation runs again.
Hidden locals start with '#', which no name in effect text can.

Most statements never wait (let, set, gain, move, log, if, loops, turn bookkeeping):
they are written as Python source (`OpSource`), made into their operation, and
fusion.py joins straight-line runs of them into one generated function. Statements
that wait, call, or draw random numbers stay operations of their own (closures).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from interpreter.compile.choose_one import choose_one_op
from interpreter.compile.draws import check_count, deal, draw_op, plain_lines, written_lines
from interpreter.compile.expressions import (
    ME,
    Context,
    call_args,
    compile_expr,
    describe,
    expect,
    gen,
    gen_counter_ref,
    gen_expect,
    gen_zone_slot,
    unpacked,
    unpacked_type,
    yields_seats,
    zone_slot,
)
from interpreter.compile.fusion import OpSource, draws_random, fuse, single_op
from interpreter.compile.templates import compile_template, template_source
from interpreter.compile.turns import emit_round, emit_turn
from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError, elem_of, is_list
from interpreter.limits import MAX_INT
from interpreter.model import Code, CounterDef, Expr, Op, Where
from interpreter.numbers import whole_count
from interpreter.runtime import chance
from interpreter.runtime.actions import DONE
from interpreter.runtime.card_powers import start_use
from interpreter.runtime.cards import as_cards, create_cards, move_zone, place_card, remove_card
from interpreter.runtime.counters import change_counter, set_counter
from interpreter.runtime.decisions import ActionWait, end_turn, suspend_for_actions, suspend_for_choice, unique_choices
from interpreter.runtime.ending import finish
from interpreter.runtime.events import fire
from interpreter.runtime.private import reveal_to, show_to
from interpreter.runtime.records import STOPPED, Frame, Grant
from interpreter.runtime.rng import shuffle_in_place
from interpreter.runtime.simultaneous import take_simultaneously
from interpreter.runtime.work import checked

Locator = Callable[[int, int], Where]


def procedure_alias(code: int) -> str:
    """The name, in the game's generated code, of the direct function of the procedure
    whose code is `code` (compile/direct.py), or of None when it has none."""
    return f"_procedure{code}_direct"


class CodeBuilder:
    """Appends the operations of a statement list to one Code."""

    def __init__(self, code: Code, ctx: Context, locate: Locator):
        self.code = code
        self.ctx = ctx
        self.locate = locate
        self.loop_depth = 0
        self.sources: list[OpSource | None] = []  # per operation: its source if it never waits
        self.entries: set[int] = set()  # where closures jump to (fused runs start there too)
        self.scope_depth = 0  # turn/round blocks: `stop` may not leave them half done

    # -- emitting
    def emit(self, node: ast.Node, op: Op) -> int:
        self.code.ops.append(op)
        self.code.wheres.append(self.locate(node.line, node.column))
        self.sources.append(None)
        return len(self.code.ops) - 1

    def emit_src(self, node: ast.Node, source: OpSource, fusible: bool = True) -> int:
        """An operation written as Python source (see fusion.py); a statement that draws
        random numbers is not fusible: it stays an operation of its own."""
        at = self.emit(node, _placeholder)
        self.set_src(at, source, fusible)
        return at

    def set_src(self, at: int, source: OpSource, fusible: bool = True) -> None:
        self.code.ops[at] = single_op(self.ctx.emitter, source, f"{self.code.name} (operation {at})")
        self.sources[at] = source if fusible else attrs.evolve(source, chance=True)

    def emit_chancy(self, node: ast.Node, op: Op, fires: bool) -> None:
        """A statement written as a closure that may draw random numbers or deal from a
        shuffled zone (shuffle, draw): its own operation, and a guarded call of it in a
        run (fusion.py). `fr.pc` is its successor while it runs; it moves `fr.pc`
        back to itself to run again (a refill's triggers first): the run stops then."""
        at = self.emit(node, op)
        name = self.const(op, "chancy")
        self.sources[at] = OpSource([f"fr.pc = {at + 1}", f"{name}(st, fr)", f"if fr.pc != {at + 1}:",
                                     "    return False"], fires=fires, chance=True)

    def finish(self) -> None:
        """All statements are in: join straight-line runs (fusion.py)."""
        fuse(self.ctx.emitter, self.code, self.sources, self.entries)

    def src(self, node: ast.Node, want: str = "any") -> str:
        return gen_expect(node, self.ctx, want)

    def const(self, value: object, stem: str = "k") -> str:
        return self.ctx.const(value, stem)

    def kept(self, value: str, type_: str) -> str:
        """Source of a value the game keeps, checked against the size limits
        (runtime/work.py) unless its type cannot grow (true/false, a player, a card)."""
        if type_ in ("bool", "player", "card", "none"):
            return value
        if type_ == "int":  # a whole number within bounds is checked inline, without a call
            literal = _int_literal(value)
            if literal is not None and abs(literal) <= MAX_INT:
                return value  # a number written in the rules: nothing to check
            t = self.ctx.emitter.fresh("kv")
            return (f"({t} if type({t} := {value}) is int and {-MAX_INT} <= {t} <= {MAX_INT} "
                    f"else {self.const(checked, 'checked')}({t}))")
        if value == "[]":  # an empty list written in the rules
            return value
        return f"{self.const(checked, 'checked')}({value})"

    def here(self) -> int:
        return len(self.code.ops)

    def patch(self, at: int, op: Op) -> None:
        self.code.ops[at] = op
        self.sources[at] = None

    def block(self, stmts: tuple[ast.Node, ...]) -> None:
        with self.ctx.block():
            for stmt in stmts:
                self.statement(stmt)

    def statement(self, node: ast.Node) -> None:
        method = getattr(self, "s_" + type(node).__name__, None)
        if method is None:
            raise CompileError(node, "syntax", "this is a value, not a statement")
        method(node)

    def expr(self, node: ast.Node, want: str = "any") -> Expr:
        return expect(node, self.ctx, want)

    def hidden(self, what: str) -> str:
        return f"#{what}{self.here()}"

    # -- simple statements
    def s_Let(self, node: ast.Let) -> None:
        value, type_ = gen(node.value, self.ctx)
        name = node.name
        self.ctx.locals[name] = type_
        self.ctx.seats = self.ctx.seats - {name}
        self.emit_src(node, OpSource([f"env[{name!r}] = {self.kept(value, type_)}"]), not draws_random(node.value))

    def s_Set(self, node: ast.Set) -> None:
        target = node.target
        fusible = not draws_random(node)
        ref = gen_counter_ref(target, self.ctx)
        if ref is not None:
            ci, slot = ref
            value = self.src(node.value, "int")
            cdef = self.counter(ci)
            low = -MAX_INT if cdef.min is None else max(cdef.min, -MAX_INT)
            high = MAX_INT if cdef.max is None else min(cdef.max, MAX_INT)
            # A whole number within the counter's bounds, of a counter no trigger listens
            # to, is stored as it is (what set_counter would do); anything else goes
            # through it. (A trigger named is one the game listens to: never.py.)
            heard = self.ctx.symbols.may_hear("changed", cdef.name)
            call = f"{self.const(set_counter, 'set_counter')}(st, {ci}, _slot, _value)"
            literal = _int_literal(value)
            if heard:
                lines = [f"_slot = {slot}", f"_value = {value}", call]
            elif literal is not None and low <= literal <= high:  # written in the rules, within bounds
                lines = [f"st.counters[{ci}][{slot}] = {literal}"]
            else:
                lines = [f"_slot = {slot}", f"_value = {value}",
                         f"if type(_value) is int and {low} <= _value <= {high}:",
                         f"    st.counters[{ci}][_slot] = _value", "else:", f"    {call}"]
            self.emit_src(node, OpSource(lines, fires=heard), fusible)
            return
        if isinstance(target, ast.Attr):
            card, (value, type_) = self.src(target.target, "card"), gen(node.value, self.ctx)
            # The value is checked by its own type, as a local's is (a written 1 needs no
            # call); the card must be one: `top(market)` of an empty market is none, and
            # an attribute of no card is no part of any state (its save would not load).
            error, message = self.ctx.const(RuleRuntimeError, "RuleRuntimeError"), \
                f"cannot set {target.name}: there is no card (none)"
            self.emit_src(node, OpSource([f"_card = {card}", "if _card is None:", f"    raise {error}({message!r})",
                                          f"st.attrs[(_card, {target.name!r})] = {self.kept(value, type_)}"]),
                          fusible)
            return
        if isinstance(target, ast.Name) and target.name in self.ctx.locals:
            name = target.name
            value = self.src(node.value, self.ctx.locals[name])
            self.ctx.seats = self.ctx.seats - {name}  # no longer known to be a seat
            self.emit_src(node, OpSource([f"env[{name!r}] = {self.kept(value, self.ctx.locals[name])}"]), fusible)
            return
        raise CompileError(target, "bad-target", "can only set a counter, a card attribute (c.name) or a local",
                           _name_hint(target, self.ctx))

    def s_Change(self, node: ast.Change) -> None:
        ref = gen_counter_ref(node.target, self.ctx)
        if ref is None:
            raise CompileError(node.target, "bad-target", f"'{node.verb}' needs a counter, e.g. {node.verb} 2 vp(p)",
                               _name_hint(node.target, self.ctx))
        ci, slot = ref
        amount = self.src(node.amount, "int")
        line = f"{self.const(_change, 'change')}(st, {ci}, {amount}, {slot}, {node.verb!r})"
        fires = self.ctx.symbols.may_hear("changed", self.counter(ci).name)
        self.emit_src(node, OpSource([line], fires=fires), not draws_random(node))

    def counter(self, index: int) -> CounterDef:
        return next(c for c in self.ctx.symbols.counters.values() if c.index == index)

    def zone(self, node: ast.Node) -> Expr:
        slot = zone_slot(node, self.ctx)
        if slot is None:
            raise CompileError(node, "bad-target", "expected a zone, e.g. hand(p) or deck", _name_hint(node, self.ctx))
        return slot

    def zone_src(self, node: ast.Node) -> str:
        slot = gen_zone_slot(node, self.ctx)
        if slot is None:
            raise CompileError(node, "bad-target", "expected a zone, e.g. hand(p) or deck", _name_hint(node, self.ctx))
        return slot

    def cards_heard(self, *events: str) -> bool:
        """Whether a statement that moves cards (firing `events` of their zones, for
        the games that listen) may queue a trigger's effect: some trigger names one."""
        return any(self.ctx.symbols.may_hear(event) for event in events)

    def cards_src(self, node: ast.Node) -> str:
        src, type_ = gen(node, self.ctx)
        if type_ not in ("card", "any", "none") and not (is_list(type_) and elem_of(type_) in ("card", "any")):
            raise CompileError(node, "type", f"expected a card or a list of cards, got {describe(type_)}")
        return src

    def s_Move(self, node: ast.Move) -> None:
        cards, slot, top = self.cards_src(node.cards), self.zone_src(node.zone), node.place == "top"
        place, as_list = self.const(place_card, "place_card"), self.const(as_cards, "as_cards")
        lines = [f"_dest = {slot}", f"for _card in {as_list}({cards}):", f"    {place}(st, _card, _dest, {top})"]
        whole = gen_zone_slot(node.cards, self.ctx)  # a whole zone: who knew its cards knows where they went
        if whole is not None:
            lines = [f"{self.const(move_zone, 'move_zone')}(st, {whole}, {slot}, {top})"]
        self.emit_src(node, OpSource(lines, fires=self.cards_heard("entered", "left")), not draws_random(node))

    def s_Draw(self, node: ast.Draw) -> None:
        left, at = self.hidden("draw"), self.here()
        self.emit_chancy(node, draw_op(self.expr(node.count, "int"), self.zone(node.source), self.zone(node.dest),
                                       left), fires=self.cards_heard("entered", "left", "refill"))
        chancy = self.sources[at]
        assert chancy is not None
        names = {name: self.const(fn, name) for name, fn in
                 (("place_card", place_card), ("deal", deal), ("check_count", check_count))}
        source, count, dest = self.zone_src(node.source), self.src(node.count, "int"), self.zone_src(node.dest)
        self.sources[at] = attrs.evolve(chancy, lines=written_lines(at, left, chancy.lines[1:], source, count, dest,
                                                                    names),
                                        direct=None if chancy.fires else plain_lines(source, count, dest, names))

    def s_ZoneStmt(self, node: ast.ZoneStmt) -> None:
        slot, done = self.zone(node.zone), self.hidden("shuffled")

        def shuffle(st: Any, fr: Frame) -> bool:
            if st.explicit:  # no order fixed: the cards are dealt as they are taken (runtime/chance.py)
                chance.shuffle_zone(st, fr.env, slot(st, fr.env), done)
                return False
            shuffle_in_place(st, st.zones[slot(st, fr.env)])
            return False
        at = self.here()
        self.emit_chancy(node, shuffle, fires=False)
        # In a run, without explicit chance (the guard has run the closure then), written out.
        mix = self.const(shuffle_in_place, "shuffle_in_place")
        self.sources[at] = OpSource([f"{mix}(st, st.zones[{self.zone_src(node.zone)}])"], chance=True)

    def s_CardsStmt(self, node: ast.CardsStmt) -> None:
        cards, as_list = self.cards_src(node.cards), self.const(as_cards, "as_cards")
        if node.verb == "destroy":
            lines = [f"for _card in {as_list}({cards}):", f"    {self.const(remove_card, 'remove_card')}(st, _card)"]
            self.emit_src(node, OpSource(lines, fires=self.cards_heard("left")), not draws_random(node))
        else:
            self.emit_src(node, OpSource([f"st.revealed.update({as_list}({cards}))"]), not draws_random(node))

    def s_RevealTo(self, node: ast.RevealTo) -> None:
        cards, as_list = self.cards_src(node.cards), self.const(as_cards, "as_cards")
        players = self.players_src(node.players)
        line = f"{self.const(reveal_to, 'reveal_to')}(st, {as_list}({cards}), {players})"
        self.emit_src(node, OpSource([line]), not draws_random(node))

    def s_Show(self, node: ast.Show) -> None:
        text = template_source(_template(node, self.ctx), self.ctx.emitter)
        players = self.players_src(node.players)
        self.emit_src(node, OpSource([f"{self.const(show_to, 'show_to')}(st, {text}, {players})"]),
                      not draws_random(node))

    def players_src(self, node: ast.Node) -> str:
        """A player or a list of players (the seats something is shown to)."""
        src, type_ = gen(node, self.ctx)
        seats = ("player", "any", "int")
        if type_ not in seats and not (is_list(type_) and elem_of(type_) in seats):
            raise CompileError(node, "type", f"expected a player or a list of players, got {describe(type_)}")
        return src

    def s_Create(self, node: ast.Create) -> None:
        if node.card_id not in self.ctx.symbols.cards:
            raise CompileError(node, "unknown-card", f"no card '{node.card_id}'",
                               hint_for(node.card_id, self.ctx.symbols.cards))
        def_index = self.ctx.symbols.cards[node.card_id]
        count, slot = self.expr(node.count, "int"), self.zone(node.zone)

        def create(st: Any, fr: Frame) -> bool:
            env = fr.env
            create_cards(st, def_index, count(st, env), slot(st, env))
            return False
        self.emit(node, create)

    def chooser(self, node: ast.Node | None) -> Expr:
        if node is None:
            return lambda st, env: env.get("me", st.active)
        return self.expr(node, "player")

    def prompt(self, node: ast.Node, text: str) -> Expr:
        """A choice's prompt; `{expressions}` in it are filled in when the choice is made."""
        if "{" not in text:
            return lambda st, env: text
        try:
            parts = compile_template(text, self.ctx)
        except CompileError as err:
            if err.line == 1:  # a position in the prompt string, roughly after `prompt "`
                err.column = node.column
            err.line += node.line - 1
            raise
        emitter = self.ctx.emitter
        return emitter.function(template_source(parts, emitter), f"{emitter.where} (prompt)")

    def s_Choose(self, node: ast.Choose) -> None:
        options, type_ = compile_expr(node.options, self.ctx)
        if not is_list(type_):
            raise CompileError(node.options, "type", f"choose needs a list of options, got {describe(type_)}")
        elem = elem_of(type_)
        by, var = self.chooser(node.by), node.var
        prompt = self.prompt(node, node.prompt or f"choose {node.var}")
        answer = self.hidden("answer")
        if node.up_to is None:
            self.ctx.locals[var] = elem

            def choose(st: Any, fr: Frame) -> bool:
                env = fr.env
                if answer in env:
                    env[var] = env.pop(answer)
                    return False
                choices, texts = unique_choices(st, options(st, env), elem)
                if not choices:
                    env[var] = None
                    return False
                if len(choices) == 1:
                    env[var] = choices[0]
                    return False
                return suspend_for_choice(st, fr, by(st, env), choices, elem, prompt(st, env), answer, False, texts)
            self.emit(node, choose)
            return
        self.ctx.locals[var] = f"list:{elem}"
        limit = self.expr(node.up_to, "int")

        def choose_up_to(st: Any, fr: Frame) -> bool:
            env = fr.env
            picked = env.get(var) if answer + "started" in env else None
            if picked is None:
                picked = []
                env[answer + "started"] = True
            if answer in env:
                value = env.pop(answer)
                if value is DONE or value == DONE:
                    env[var] = picked
                    del env[answer + "started"]
                    return False
                picked = picked + [value]  # a new list: lists in locals are never changed in place
            env[var] = picked
            left, texts = unique_choices(st, [c for c in options(st, env) if c not in picked], elem)
            if len(picked) >= limit(st, env) or not left:
                del env[answer + "started"]
                return False
            return suspend_for_choice(st, fr, by(st, env), left, elem, prompt(st, env), answer, True, texts)
        self.emit(node, choose_up_to)

    def s_ChooseOne(self, node: ast.ChooseOne) -> None:
        by, prompt = self.chooser(node.by), self.prompt(node, node.prompt or "choose one")
        answer = self.hidden("answer")
        labels = [o.label for o in node.options]
        if len(set(labels)) != len(labels):
            raise CompileError(node, "duplicate-option", "two options of one choice have the same label")
        conditions = [self.expr(o.condition, "bool") if o.condition is not None else None for o in node.options]
        # labels are templates like every other label: `"take {n} points"` is filled in
        # when the choice is made, and the filled-in text is the option's text
        templates = [self.prompt(o, o.label) if "{" in o.label else None for o in node.options]
        start = self.emit(node, _placeholder)
        jumps: list[int] = []
        targets: list[int] = []
        for option in node.options:
            targets.append(self.here())
            self.block(option.body)
            jumps.append(self.emit(option, _placeholder))
        end = self.here()
        for at in jumps:
            self.set_src(at, _jump(end))
        self.entries.update(targets)
        self.entries.add(end)

        self.patch(start, choose_one_op(labels, templates, conditions, targets, end, by, prompt, answer))

    def s_TakeActions(self, node: ast.TakeActions) -> None:
        if node.group not in self.ctx.symbols.groups:
            raise CompileError(node, "unknown-group", f"no action is available 'during: {node.group}'",
                               hint_for(node.group, self.ctx.symbols.groups))
        group = node.group
        if node.simultaneous:  # runtime/simultaneous.py
            players = self.expr(node.player, "list:player") if node.player is not None else None
            self.emit(node, take_simultaneously(group, players, self.hidden("picks")))
            return
        player = self.chooser(node.player) if node.player is not None else None
        done = self.hidden("done")
        sym = self.ctx.symbols
        wait = ActionWait(group, done, "action" not in sym.unchecked, bool(sym.bots))
        sym.waits.append(wait)  # (its fixed listing is known when the actions are: build.py)

        def take_actions(st: Any, fr: Frame) -> bool:
            if fr.env.pop(done, False):
                return False
            return take_now(st, fr)

        def take_now(st: Any, fr: Frame) -> bool:  # (the decision is still to make)
            env = fr.env
            p = st.active if player is None else player(st, env)
            if st.gd.bots:
                bot = st.seat_bots[p]
                if bot is not None and bot.turn is not None:
                    env[done] = True
                    fr.pc -= 1
                    st.stack.append(Frame(bot.turn, 0, {"me": p}))
                    return False
            return suspend_for_actions(st, fr, p, wait)
        at = self.emit(node, take_actions)
        self.code.turn_waits[at] = done  # what `end turn` sets (runtime/decisions.end_turn)
        # In a run (fusion.py): what follows the decision runs in the same call, up to the
        # next decision. `fr.pc` is its successor while it runs; it moves `fr.pc` back to
        # itself when it waits, or when a bot's turn or pick is pushed on top.
        if player is None and not sym.bots:  # the player to act, in a game without bots: wait for them here
            suspend = self.const(suspend_for_actions, "suspend_for_actions")
            ask = f"{suspend}(st, fr, st.active, {self.const(wait, 'wait')})"
        else:
            ask = f"{self.const(take_now, 'take')}(st, fr)"
        self.sources[at] = OpSource([f"if env.pop({done!r}, False):", "    pass",  # the decision is made: go on
                                     "else:", f"    fr.pc = {at + 1}", f"    if {ask}:", "        return True",
                                     f"    if fr.pc != {at + 1}:", "        return False"], waits=True)

    def s_CallStmt(self, node: ast.CallStmt) -> None:
        proc = self.ctx.symbols.procedures.get(node.name)
        if proc is None:
            known = list(self.ctx.symbols.procedures)
            raise CompileError(node, "unknown-name", f"unknown procedure '{node.name}'",
                               hint_for(node.name, known), len(node.name))
        if len(node.args) != len(proc.params):
            raise CompileError(node, "arity", f"{node.name}() takes {len(proc.params)} argument(s), "
                                              f"got {len(node.args)}", width=len(node.name))
        callers = self.ctx.symbols.call_arg_types.setdefault(node.name, {})
        seen = callers.setdefault(self.ctx.emitter.where, [set() for _ in proc.params])
        # (a parameter every call gives a player is typed player: functions.retype_procedures)
        compiled = call_args(node, self.ctx, proc.params, proc.types, seen)
        args = ", ".join(f"{name!r}: {src}" for name, (src, _) in zip(proc.params, compiled, strict=True))
        at = self.emit(node, _placeholder)
        # A procedure that never waits runs as one call (compile/direct.py: the name is
        # bound to its function when it has one, else to None), unless a shuffled pile
        # waits to be dealt (explicit chance: reading its top could stop). Otherwise its
        # frame goes on top and runs first: the run ends here, and goes on after the
        # call (an entry) once the frame is done.
        positional = "".join(f", {src}" for src, _ in compiled)
        self.set_src(at, OpSource([
            f"_direct = {procedure_alias(proc.code)}",
            "if _direct is None or st.unordered:",
            f"    _local = {{{args}}}", f"    _local.setdefault('me', {ME})",
            "    if 'this' in env:", "        _local.setdefault('this', env['this'])",
            f"    st.stack.append({self.const(Frame, 'Frame')}({proc.code}, 0, _local))",
            f"    fr.pc = {at + 1}", "    return False",
            f"_direct(st, {ME}{positional})"], ends=True), not draws_random(node))
        self.entries.add(at + 1)

    def s_Use(self, node: ast.Use) -> None:
        if node.effect not in self.ctx.symbols.card_effects:
            raise CompileError(node, "unknown-effect", f"no card has an effect named '{node.effect}'",
                               hint_for(node.effect, self.ctx.symbols.card_effects))
        card, effect = self.expr(node.card, "card"), node.effect

        def use(st: Any, fr: Frame) -> bool:
            env = fr.env
            # a card without that effect, or whose condition or cost fails, does nothing
            start_use(st, card(st, env), effect, env.get("me", st.active))
            return False
        self.emit(node, use)

    def s_Emit(self, node: ast.Emit) -> None:
        params = self.ctx.symbols.events.get(node.event)
        if params is None:
            raise CompileError(node, "unknown-event", f"no event '{node.event}' is declared in events:",
                               hint_for(node.event, self.ctx.symbols.events))
        if len(params) != len(node.args):
            raise CompileError(node, "arity", f"event '{node.event}' has {len(params)} parameter(s)")
        args = ", ".join(f"{name!r}: {self.src(a)}" for name, a in zip(params, node.args, strict=True))
        line = f"{self.const(fire, 'fire')}(st, {node.event!r}, -1, {{{args}}})"
        self.emit_src(node, OpSource([line], fires=self.ctx.symbols.may_hear(node.event)), not draws_random(node))

    def s_Grant(self, node: ast.Grant) -> None:
        if node.modifier not in self.ctx.symbols.modifiers:
            raise CompileError(node, "unknown-modifier", f"no modifier '{node.modifier}'",
                               hint_for(node.modifier, self.ctx.symbols.modifiers))
        mi = self.ctx.symbols.modifiers[node.modifier]
        player = self.src(node.player, "player")
        line = f"st.grants.append({self.const(Grant, 'Grant')}({mi}, {player}, {node.duration!r}))"
        self.emit_src(node, OpSource([line]), not draws_random(node))

    def s_EndGame(self, node: ast.EndGame) -> None:
        winners = self.src(node.winners) if node.winners is not None else "None"
        line = f"{self.const(finish, 'finish')}(st, {winners}, 'end-game')"
        self.emit_src(node, OpSource([line], ends=True), not draws_random(node))

    def s_EndTurn(self, node: ast.EndTurn) -> None:
        self.emit_src(node, OpSource([f"{self.const(end_turn, 'end_turn')}(st)"]))

    def s_Log(self, node: ast.Log) -> None:
        line = f"st.log.append({template_source(_template(node, self.ctx), self.ctx.emitter)})"
        self.emit_src(node, OpSource([line]), not draws_random(node))

    def s_Stop(self, node: ast.Stop) -> None:
        if self.scope_depth:
            raise CompileError(node, "bad-stop", "'stop' cannot leave a turn: or round: block",
                               "use if/else inside the block instead")
        # past the end: the frame returns
        self.emit_src(node, OpSource([f"fr.pc = {STOPPED}", "return False"], exits=True))

    def s_If(self, node: ast.If) -> None:
        ends: list[int] = []
        last = len(node.branches) - 1
        for i, (cond_node, body) in enumerate(node.branches):
            cond = self.src(cond_node, "bool")
            test = self.emit(cond_node, _placeholder)
            self.block(body)
            if i < last or node.orelse:  # the last branch with no else just falls through
                ends.append(self.emit(cond_node, _placeholder))
            self.set_src(test, _jump_unless(cond, self.here()), not draws_random(cond_node))
        self.block(node.orelse)
        for at in ends:
            self.set_src(at, _jump(self.here()))

    def loop_source(self, node: ast.ForEach) -> tuple[str, str]:
        """The source of the list a `for each` goes through (its items unpacked when it
        binds several names), and the list's type."""
        source, type_ = gen(node.source, self.ctx)
        if not is_list(type_):
            raise CompileError(node.source, "type", f"'for each' needs a list, got {describe(type_)}")
        if node.unpack:
            return f"{self.const(unpacked, 'unpacked')}({source}, {len(node.unpack)})", type_
        return source, type_

    @contextmanager
    def loop_variables(self, node: ast.ForEach, type_: str) -> Iterator[tuple[str, ...]]:
        """The names a `for each` over a list of `type_` binds, known to the checker
        while its body compiles. They belong to the loop: after it (or when the list
        was empty) they have no value, so using one there is a compile error, not a
        runtime surprise."""
        names = node.unpack or (node.var,)
        if node.unpack:
            part = unpacked_type(node.source, elem_of(type_), len(names))
            bound = {name: part for name in names}
        else:
            bound = {node.var: elem_of(type_)}
        shadowed, seats = {name: self.ctx.locals.get(name) for name in names}, self.ctx.seats
        self.ctx.locals.update(bound)
        self.ctx.seats = seats | {node.var} if yields_seats(node.source) and not node.unpack else seats - set(names)
        yield names
        self.ctx.seats = seats
        for name, before in shadowed.items():
            if before is None:
                del self.ctx.locals[name]
            else:
                self.ctx.locals[name] = before

    def s_ForEach(self, node: ast.ForEach) -> None:
        source, type_ = self.loop_source(node)
        items, index = self.hidden("items"), self.hidden("i")
        start = OpSource([f"env[{items!r}] = list({source})", f"env[{index!r}] = 0"])
        self.emit_src(node, start, not draws_random(node.source))
        with self.loop_variables(node, type_) as names:
            head = self.emit(node, _placeholder)
            self.block(node.body)
        self.emit_src(node, _jump(head))
        end = self.here()
        target = ", ".join(f"env[{name!r}]" for name in names)
        self.set_src(head, OpSource([
            f"_i = env[{index!r}]", f"_seq = env[{items!r}]",
            "if _i >= len(_seq):", f"    del env[{items!r}], env[{index!r}]", f"    fr.pc = {end}", "    return False",
            f"{target} = _seq[_i]", f"env[{index!r}] = _i + 1"], targets=(end,)))

    def s_Repeat(self, node: ast.Repeat) -> None:
        if node.count is None:
            head = self.here()
            self.block(node.body)
            self.emit_src(node, _jump(head))
            return
        count, left = self.src(node.count, "int"), self.hidden("left")
        if self.ctx.symbols.fractions:  # (a whole-number game's code stays as it was)
            count = f"{self.const(whole_count, 'whole')}({count}, 'repeat')"
        self.emit_src(node, OpSource([f"env[{left!r}] = {count}"]), not draws_random(node.count))
        head = self.emit(node, _placeholder)
        self.block(node.body)
        self.emit_src(node, _jump(head))
        end = self.here()
        self.set_src(head, OpSource([
            f"if env[{left!r}] <= 0:", f"    del env[{left!r}]", f"    fr.pc = {end}", "    return False",
            f"env[{left!r}] -= 1"], targets=(end,)))

    def s_While(self, node: ast.While) -> None:
        cond = self.src(node.condition, "bool")
        head = self.emit(node, _placeholder)
        self.block(node.body)
        self.emit_src(node, _jump(head))
        self.set_src(head, _jump_unless(cond, self.here()), not draws_random(node.condition))

    def s_Turn(self, node: ast.Turn) -> None:
        emit_turn(self, node)  # (compile/turns.py: the bookkeeping around a turn's body)

    def s_Round(self, node: ast.Round) -> None:
        emit_round(self, node)


def _change(st: Any, ci: int, amount: int, slot: int, verb: str) -> None:
    """gain/lose/pay: a negative amount is the rule's mistake, not a change of sign."""
    if amount < 0:
        raise RuleRuntimeError(f"cannot {verb} a negative amount ({amount})")
    change_counter(st, ci, slot, amount if verb == "gain" else -amount, verb)


def _placeholder(st: Any, fr: Frame) -> bool:  # replaced by patch() before use
    raise RuleRuntimeError("internal error: unpatched jump")


def _jump(target: int) -> OpSource:
    return OpSource([f"fr.pc = {target}", "return False"], exits=True, targets=(target,), goto=target)


def _jump_unless(cond: str, target: int) -> OpSource:
    return OpSource([f"if not {cond}:", f"    fr.pc = {target}", "    return False"], targets=(target,))


def _name_hint(node: ast.Node, ctx: Context) -> str | None:
    name = getattr(node, "name", None)
    if isinstance(name, str):
        return hint_for(name, list(ctx.symbols.counters) + list(ctx.symbols.zones) + list(ctx.locals))
    return None


def _template(node: ast.Node, ctx: Context) -> list[Any]:
    """A log or show statement's text as template parts; errors point into the
    statement's string (it starts past `log "` or `show "`)."""
    try:
        return compile_template(getattr(node, "text", ""), ctx)
    except CompileError as err:
        if err.line == 1:
            err.column += node.column + (5 if isinstance(node, ast.Show) else 4)
        err.line += node.line - 1
        raise


def _int_literal(source: str) -> int | None:
    """The whole number a generated expression is, when it is one written out (`3`,
    `-1`): such a value needs no type or range test at run time."""
    text = source[1:] if source.startswith("-") else source
    return int(source) if text.isdigit() and len(text) < 19 else None
