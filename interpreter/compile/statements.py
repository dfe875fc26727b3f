"""Compile statement nodes into the operations of a `Code`, run by loop.run.

Each operation is a function `op(state, frame) -> bool`; the loop has already moved the
frame's pc to the next operation, so control flow sets `frame.pc` to jump, and an
operation that needs a decision sets `frame.pc` back to itself and returns True. Its
answer arrives in the frame's locals under a hidden key, and the operation runs again.
Hidden locals start with '#', which no name in effect text can.

Most statements never wait (let, set, gain, move, log, if, loops, turn bookkeeping):
they are written as Python statements (`OpSource`: syntax trees built from templates,
compile/pyast.py), made into their operation, and fusion.py joins straight-line runs
of them into one generated function. Statements that wait, call, or draw random
numbers stay operations of their own (closures).
"""

from __future__ import annotations

import ast as py
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import attrs

from interpreter.compile.choose_one import choose_one_op, choose_op, choose_up_to_op
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
from interpreter.compile.pyast import E, S, int_value, lit, name
from interpreter.compile.templates import compile_template, template_source
from interpreter.compile.turns import emit_round, emit_turn
from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError, elem_of, is_list
from interpreter.limits import MAX_INT
from interpreter.model import Code, CounterDef, Expr, Op, Where
from interpreter.numbers import whole_count
from interpreter.runtime import chance
from interpreter.runtime.card_powers import start_use
from interpreter.runtime.cards import as_cards, create_cards, move_zone, place_card, remove_card
from interpreter.runtime.counters import change_counter, set_counter
from interpreter.runtime.decisions import ActionWait, end_turn, suspend_for_actions
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
        self.sources[at] = OpSource(S("fr.pc = {after}\n{chancy}(st, fr)\nif fr.pc != {after}:\n    return False",
                                      after=at + 1, chancy=self.const(op, "chancy")), fires=fires, chance=True)

    def finish(self) -> None:
        """All statements are in: join straight-line runs (fusion.py)."""
        fuse(self.ctx.emitter, self.code, self.sources, self.entries)

    def src(self, node: ast.Node, want: str = "any") -> py.expr:
        return gen_expect(node, self.ctx, want)

    def const(self, value: object, stem: str = "k") -> py.expr:
        return self.ctx.const(value, stem)

    def kept(self, value: py.expr, type_: str) -> py.expr:
        """Code of a value the game keeps, checked against the size limits
        (runtime/work.py) unless its type cannot grow (true/false, a player, a card)."""
        if type_ in ("bool", "player", "card", "none"):
            return value
        if type_ == "int":  # a whole number within bounds is checked inline, without a call
            literal = int_value(value)
            if literal is not None and abs(literal) <= MAX_INT:
                return value  # a number written in the rules: nothing to check
            return E("({t} if type({t} := {value}) is int and -{top} <= {t} <= {top} else {checked}({t}))",
                     t=self.ctx.emitter.fresh("kv"), value=value, top=MAX_INT,
                     checked=self.const(checked, "checked"))
        if type(value) is py.List and not value.elts:  # an empty list written in the rules
            return value
        return E("{checked}({value})", checked=self.const(checked, "checked"), value=value)

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
        self.emit_src(node, OpSource(S("env[{key}] = {value}", key=lit(name), value=self.kept(value, type_))),
                      not draws_random(node.value))

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
            call = E("{set_counter}(st, {ci}, _slot, _value)", set_counter=self.const(set_counter, "set_counter"),
                     ci=ci)
            literal = int_value(value)
            if heard:
                lines = S("_slot = {slot}\n_value = {value}\n{call}", slot=slot, value=value, call=call)
            elif literal is not None and low <= literal <= high:  # written in the rules, within bounds
                lines = S("st.counters[{ci}][{slot}] = {value}", ci=ci, slot=slot, value=value)
            else:
                lines = S("""
                    _slot = {slot}
                    _value = {value}
                    if type(_value) is int and {low} <= _value <= {high}:
                        st.counters[{ci}][_slot] = _value
                    else:
                        {call}""", slot=slot, value=value, low=_number(low), high=_number(high), ci=ci, call=call)
            self.emit_src(node, OpSource(lines, fires=heard), fusible)
            return
        if isinstance(target, ast.Attr):
            card, (value, type_) = self.src(target.target, "card"), gen(node.value, self.ctx)
            # The value is checked by its own type, as a local's is (a written 1 needs no
            # call); the card must be one: `top(market)` of an empty market is none, and
            # an attribute of no card is no part of any state (its save would not load).
            self.emit_src(node, OpSource(S("""
                _card = {card}
                if _card is None:
                    raise {error}({message})
                st.attrs[(_card, {attr})] = {value}
                """, card=card, error=self.const(RuleRuntimeError, "RuleRuntimeError"),
                message=lit(f"cannot set {target.name}: there is no card (none)"), attr=lit(target.name),
                value=self.kept(value, type_))), fusible)
            return
        if isinstance(target, ast.Name) and target.name in self.ctx.locals:
            name = target.name
            value = self.src(node.value, self.ctx.locals[name])
            self.ctx.seats = self.ctx.seats - {name}  # no longer known to be a seat
            kept = self.kept(value, self.ctx.locals[name])
            self.emit_src(node, OpSource(S("env[{key}] = {value}", key=lit(name), value=kept)), fusible)
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
        line = S("{change}(st, {ci}, {amount}, {slot}, {verb})", change=self.const(_change, "change"), ci=ci,
                 amount=amount, slot=slot, verb=lit(node.verb))
        fires = self.ctx.symbols.may_hear("changed", self.counter(ci).name)
        self.emit_src(node, OpSource(line, fires=fires), not draws_random(node))

    def counter(self, index: int) -> CounterDef:
        return next(c for c in self.ctx.symbols.counters.values() if c.index == index)

    def zone(self, node: ast.Node) -> Expr:
        slot = zone_slot(node, self.ctx)
        if slot is None:
            raise CompileError(node, "bad-target", "expected a zone, e.g. hand(p) or deck", _name_hint(node, self.ctx))
        return slot

    def zone_src(self, node: ast.Node) -> py.expr:
        slot = gen_zone_slot(node, self.ctx)
        if slot is None:
            raise CompileError(node, "bad-target", "expected a zone, e.g. hand(p) or deck", _name_hint(node, self.ctx))
        return slot

    def cards_heard(self, *events: str) -> bool:
        """Whether a statement that moves cards (firing `events` of their zones, for
        the games that listen) may queue a trigger's effect: some trigger names one."""
        return any(self.ctx.symbols.may_hear(event) for event in events)

    def cards_src(self, node: ast.Node) -> py.expr:
        src, type_ = gen(node, self.ctx)
        if type_ not in ("card", "any", "none") and not (is_list(type_) and elem_of(type_) in ("card", "any")):
            raise CompileError(node, "type", f"expected a card or a list of cards, got {describe(type_)}")
        return src

    def s_Move(self, node: ast.Move) -> None:
        cards, slot, top = self.cards_src(node.cards), self.zone_src(node.zone), node.place == "top"
        place, as_list = self.const(place_card, "place_card"), self.const(as_cards, "as_cards")
        lines = S("""
            _dest = {slot}
            for _card in {as_list}({cards}):
                {place}(st, _card, _dest, {top})
            """, slot=slot, as_list=as_list, cards=cards, place=place, top=top)
        whole = gen_zone_slot(node.cards, self.ctx)  # a whole zone: who knew its cards knows where they went
        if whole is not None:
            lines = S("{move_zone}(st, {whole}, {slot}, {top})", move_zone=self.const(move_zone, "move_zone"),
                      whole=whole, slot=slot, top=top)
        self.emit_src(node, OpSource(lines, fires=self.cards_heard("entered", "left")), not draws_random(node))

    def s_Draw(self, node: ast.Draw) -> None:
        left, at = self.hidden("draw"), self.here()
        self.emit_chancy(node, draw_op(self.expr(node.count, "int"), self.zone(node.source), self.zone(node.dest),
                                       left), fires=self.cards_heard("entered", "left", "refill"))
        chancy = self.sources[at]
        assert chancy is not None
        names = {stem: self.const(fn, stem) for stem, fn in
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
        self.sources[at] = OpSource(S("{mix}(st, st.zones[{slot}])", mix=mix, slot=self.zone_src(node.zone)),
                                    chance=True)

    def s_CardsStmt(self, node: ast.CardsStmt) -> None:
        cards, as_list = self.cards_src(node.cards), self.const(as_cards, "as_cards")
        if node.verb == "destroy":
            lines = S("for _card in {as_list}({cards}):\n    {remove}(st, _card)", as_list=as_list, cards=cards,
                      remove=self.const(remove_card, "remove_card"))
            self.emit_src(node, OpSource(lines, fires=self.cards_heard("left")), not draws_random(node))
        else:
            self.emit_src(node, OpSource(S("st.revealed.update({as_list}({cards}))", as_list=as_list, cards=cards)),
                          not draws_random(node))

    def s_RevealTo(self, node: ast.RevealTo) -> None:
        cards, as_list = self.cards_src(node.cards), self.const(as_cards, "as_cards")
        players = self.players_src(node.players)
        line = S("{reveal}(st, {as_list}({cards}), {players})", reveal=self.const(reveal_to, "reveal_to"),
                 as_list=as_list, cards=cards, players=players)
        self.emit_src(node, OpSource(line), not draws_random(node))

    def s_Show(self, node: ast.Show) -> None:
        text = template_source(_template(node, self.ctx), self.ctx.emitter)
        players = self.players_src(node.players)
        self.emit_src(node, OpSource(S("{show}(st, {text}, {players})", show=self.const(show_to, "show_to"),
                                       text=text, players=players)), not draws_random(node))

    def players_src(self, node: ast.Node) -> py.expr:
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
            self.emit(node, choose_op(options, elem, var, by, prompt, answer))
            return
        self.ctx.locals[var] = f"list:{elem}"
        self.emit(node, choose_up_to_op(options, elem, var, by, prompt, answer, self.expr(node.up_to, "int")))

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
            ask = E("{suspend}(st, fr, st.active, {wait})", suspend=suspend, wait=self.const(wait, "wait"))
        else:
            ask = E("{take}(st, fr)", take=self.const(take_now, "take"))
        self.sources[at] = OpSource(S("""
            if env.pop({done}, False):
                pass  # the decision is made: go on
            else:
                fr.pc = {after}
                if {ask}:
                    return True
                if fr.pc != {after}:
                    return False""", done=lit(done), after=at + 1, ask=ask), waits=True)

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
        args = py.Dict([lit(param) for param in proc.params], [src for src, _ in compiled])
        at = self.emit(node, _placeholder)
        # A procedure that never waits runs as one call (compile/direct.py: the name is
        # bound to its function when it has one, else to None), unless a shuffled pile
        # waits to be dealt (explicit chance: reading its top could stop). Otherwise its
        # frame goes on top and runs first: the run ends here, and goes on after the
        # call (an entry) once the frame is done.
        self.set_src(at, OpSource(S("""
            _direct = {alias}
            if _direct is None or st.unordered:
                _local = {args}
                _local.setdefault('me', {me})
                if 'this' in env:
                    _local.setdefault('this', env['this'])
                st.stack.append({frame}({code}, 0, _local))
                fr.pc = {after}
                return False
            _direct(st, {me}, {positional})
            """, alias=name(procedure_alias(proc.code)), args=args, me=ME, frame=self.const(Frame, "Frame"),
            code=proc.code, after=at + 1, positional=[src for src, _ in compiled]), ends=True), not draws_random(node))
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
        args = py.Dict([lit(param) for param in params], [self.src(a) for a in node.args])
        line = S("{fire}(st, {event}, -1, {args})", fire=self.const(fire, "fire"), event=lit(node.event), args=args)
        self.emit_src(node, OpSource(line, fires=self.ctx.symbols.may_hear(node.event)), not draws_random(node))

    def s_Grant(self, node: ast.Grant) -> None:
        if node.modifier not in self.ctx.symbols.modifiers:
            raise CompileError(node, "unknown-modifier", f"no modifier '{node.modifier}'",
                               hint_for(node.modifier, self.ctx.symbols.modifiers))
        mi = self.ctx.symbols.modifiers[node.modifier]
        player = self.src(node.player, "player")
        line = S("st.grants.append({grant}({mi}, {player}, {duration}))", grant=self.const(Grant, "Grant"), mi=mi,
                 player=player, duration=lit(node.duration))
        self.emit_src(node, OpSource(line), not draws_random(node))

    def s_EndGame(self, node: ast.EndGame) -> None:
        winners = self.src(node.winners) if node.winners is not None else None
        line = S("{finish}(st, {winners}, 'end-game')", finish=self.const(finish, "finish"), winners=winners)
        self.emit_src(node, OpSource(line, ends=True), not draws_random(node))

    def s_EndTurn(self, node: ast.EndTurn) -> None:
        self.emit_src(node, OpSource(S("{end_turn}(st)", end_turn=self.const(end_turn, "end_turn"))))

    def s_Log(self, node: ast.Log) -> None:
        line = S("st.log.append({text})", text=template_source(_template(node, self.ctx), self.ctx.emitter))
        self.emit_src(node, OpSource(line), not draws_random(node))

    def s_Stop(self, node: ast.Stop) -> None:
        if self.scope_depth:
            raise CompileError(node, "bad-stop", "'stop' cannot leave a turn: or round: block",
                               "use if/else inside the block instead")
        # past the end: the frame returns
        self.emit_src(node, OpSource(S("fr.pc = {stopped}\nreturn False", stopped=STOPPED), exits=True))

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

    def loop_source(self, node: ast.ForEach) -> tuple[py.expr, str]:
        """The code of the list a `for each` goes through (its items unpacked when it
        binds several names), and the list's type."""
        source, type_ = gen(node.source, self.ctx)
        if not is_list(type_):
            raise CompileError(node.source, "type", f"'for each' needs a list, got {describe(type_)}")
        if node.unpack:
            return E("{unpacked}({source}, {count})", unpacked=self.const(unpacked, "unpacked"), source=source,
                     count=len(node.unpack)), type_
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
        for local, before in shadowed.items():
            if before is None:
                del self.ctx.locals[local]
            else:
                self.ctx.locals[local] = before

    def s_ForEach(self, node: ast.ForEach) -> None:
        source, type_ = self.loop_source(node)
        items, index = self.hidden("items"), self.hidden("i")
        start = S("env[{items}] = list({source})\nenv[{index}] = 0", items=lit(items), source=source, index=lit(index))
        self.emit_src(node, OpSource(start), not draws_random(node.source))
        with self.loop_variables(node, type_) as names:
            head = self.emit(node, _placeholder)
            self.block(node.body)
        self.emit_src(node, _jump(head))
        end = self.here()
        keys = [E("env[{key}]", key=lit(name)) for name in names]
        self.set_src(head, OpSource(S("""
            _i = env[{index}]
            _seq = env[{items}]
            if _i >= len(_seq):
                del env[{items}], env[{index}]
                fr.pc = {end}
                return False
            {target} = _seq[_i]
            env[{index}] = _i + 1
            """, index=lit(index), items=lit(items), end=end,
            target=keys[0] if len(keys) == 1 else py.Tuple(keys, py.Load())), targets=(end,)))

    def s_Repeat(self, node: ast.Repeat) -> None:
        if node.count is None:
            head = self.here()
            self.block(node.body)
            self.emit_src(node, _jump(head))
            return
        count, left = self.src(node.count, "int"), self.hidden("left")
        if self.ctx.symbols.fractions:  # (a whole-number game's code stays as it was)
            count = E("{whole}({count}, 'repeat')", whole=self.const(whole_count, "whole"), count=count)
        self.emit_src(node, OpSource(S("env[{left}] = {count}", left=lit(left), count=count)),
                      not draws_random(node.count))
        head = self.emit(node, _placeholder)
        self.block(node.body)
        self.emit_src(node, _jump(head))
        end = self.here()
        self.set_src(head, OpSource(S("""
            if env[{left}] <= 0:
                del env[{left}]
                fr.pc = {end}
                return False
            env[{left}] -= 1""", left=lit(left), end=end), targets=(end,)))

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
    return OpSource(S("fr.pc = {target}\nreturn False", target=target), exits=True, targets=(target,), goto=target)


def _jump_unless(cond: py.expr, target: int) -> OpSource:
    return OpSource(S("if not {cond}:\n    fr.pc = {target}\n    return False", cond=cond, target=target),
                    targets=(target,))


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


def _number(value: int) -> py.expr:
    """A whole number as the parser reads it written out: a negative one is `-N`."""
    return E("-{n}", n=-value) if value < 0 else E("{n}", n=value)
