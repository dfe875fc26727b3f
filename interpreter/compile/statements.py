"""Compile statement nodes into the operations of a `Code`, run by loop.run.

Each operation is a closure `op(state, frame) -> bool`; the loop has already moved the
frame's pc to the next operation, so control flow sets `frame.pc` to jump, and an
operation that needs a decision sets `frame.pc` back to itself and returns True. Its
answer arrives in the frame's locals under a hidden key, and the operation runs again.
Hidden locals start with '#', which no name in effect text can.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compile.expressions import (
    Context,
    compile_expr,
    counter_ref,
    describe,
    expect,
    yields_seats,
    zone_slot,
)
from interpreter.compile.templates import compile_template
from interpreter.diagnostics import RuleRuntimeError, hint_for
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError, elem_of, is_list
from interpreter.model import Code, Expr, Op, Where
from interpreter.runtime.actions import DONE
from interpreter.runtime.cards import as_cards, create_cards, place_card, remove_card
from interpreter.runtime.counters import change_counter, set_counter
from interpreter.runtime.decisions import suspend_for_actions, suspend_for_choice, unique_options
from interpreter.runtime.ending import check_end, finish
from interpreter.runtime.events import fire
from interpreter.runtime.present import render_template
from interpreter.runtime.records import STOPPED, Frame, Grant
from interpreter.runtime.rng import shuffle_in_place
from interpreter.runtime.simultaneous import take_simultaneously

Locator = Callable[[int, int], Where]


class CodeBuilder:
    """Appends the operations of a statement list to one Code."""

    def __init__(self, code: Code, ctx: Context, locate: Locator):
        self.code = code
        self.ctx = ctx
        self.locate = locate
        self.loop_depth = 0
        self.scope_depth = 0  # turn/round blocks: `stop` may not leave them half done

    # -- emitting
    def emit(self, node: ast.Node, op: Op) -> int:
        self.code.ops.append(op)
        self.code.wheres.append(self.locate(node.line, node.column))
        return len(self.code.ops) - 1

    def here(self) -> int:
        return len(self.code.ops)

    def patch(self, at: int, op: Op) -> None:
        self.code.ops[at] = op

    def block(self, stmts: tuple[ast.Node, ...]) -> None:
        saved = dict(self.ctx.locals)
        for stmt in stmts:
            self.statement(stmt)
        # Locals declared in a block stay visible after it in the text only if declared
        # before; restoring keeps the checker honest about scope.
        self.ctx.locals.clear()
        self.ctx.locals.update(saved)

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
        fn, type_ = compile_expr(node.value, self.ctx)
        name = node.name
        self.ctx.locals[name] = type_
        self.ctx.seats = self.ctx.seats - {name}

        def let(st: Any, fr: Frame) -> bool:
            fr.env[name] = fn(st, fr.env)
            return False
        self.emit(node, let)

    def s_Set(self, node: ast.Set) -> None:
        target = node.target
        ref = counter_ref(target, self.ctx)
        if ref is not None:
            ci, slot = ref
            value = self.expr(node.value, "int")

            def set_counter_op(st: Any, fr: Frame) -> bool:
                env = fr.env
                set_counter(st, ci, slot(st, env), value(st, env))
                return False
            self.emit(node, set_counter_op)
            return
        if isinstance(target, ast.Attr):
            card = self.expr(target.target, "card")
            value, field = self.expr(node.value), target.name

            def set_attr(st: Any, fr: Frame) -> bool:
                env = fr.env
                st.attrs[(card(st, env), field)] = value(st, env)
                return False
            self.emit(node, set_attr)
            return
        if isinstance(target, ast.Name) and target.name in self.ctx.locals:
            name = target.name
            value = self.expr(node.value, self.ctx.locals[name])
            self.ctx.seats = self.ctx.seats - {name}  # no longer known to be a seat

            def set_local(st: Any, fr: Frame) -> bool:
                fr.env[name] = value(st, fr.env)
                return False
            self.emit(node, set_local)
            return
        raise CompileError(target, "bad-target", "can only set a counter, a card attribute (c.name) or a local",
                           _name_hint(target, self.ctx))

    def s_Change(self, node: ast.Change) -> None:
        ref = counter_ref(node.target, self.ctx)
        if ref is None:
            raise CompileError(node.target, "bad-target", f"'{node.verb}' needs a counter, e.g. {node.verb} 2 vp(p)",
                               _name_hint(node.target, self.ctx))
        ci, slot = ref
        amount = self.expr(node.amount, "int")
        verb = node.verb
        sign = 1 if verb == "gain" else -1

        def change(st: Any, fr: Frame) -> bool:
            env = fr.env
            n = amount(st, env)
            if n < 0:
                raise RuleRuntimeError(f"cannot {verb} a negative amount ({n})")
            change_counter(st, ci, slot(st, env), sign * n, verb)
            return False
        self.emit(node, change)

    def zone(self, node: ast.Node) -> Expr:
        slot = zone_slot(node, self.ctx)
        if slot is None:
            raise CompileError(node, "bad-target", "expected a zone, e.g. hand(p) or deck", _name_hint(node, self.ctx))
        return slot

    def cards(self, node: ast.Node) -> Expr:
        fn, type_ = compile_expr(node, self.ctx)
        if type_ not in ("card", "any", "none") and not (is_list(type_) and elem_of(type_) in ("card", "any")):
            raise CompileError(node, "type", f"expected a card or a list of cards, got {describe(type_)}")
        return fn

    def s_Move(self, node: ast.Move) -> None:
        cards, slot, top = self.cards(node.cards), self.zone(node.zone), node.place == "top"

        def move(st: Any, fr: Frame) -> bool:
            env = fr.env
            dest = slot(st, env)
            for iid in as_cards(cards(st, env)):
                place_card(st, iid, dest, top)
            return False
        self.emit(node, move)

    def s_Draw(self, node: ast.Draw) -> None:
        count, src, dst = self.expr(node.count, "int"), self.zone(node.source), self.zone(node.dest)
        left = self.hidden("draw")

        def draw(st: Any, fr: Frame) -> bool:
            env = fr.env
            remaining = env.pop(left, None)
            source = src(st, env)
            if remaining is None:
                remaining = count(st, env)
            elif remaining < 0:  # the refill's triggers have run: now refill, then go on
                remaining = -remaining
                _refill(st, source)
                if not st.zones[source]:  # nothing to draw even after the refill
                    return False
            dest = dst(st, env)
            zones = st.zones
            while remaining > 0:
                pile = zones[source]
                if pile:
                    place_card(st, pile[-1], dest)
                    remaining -= 1
                    continue
                zdef = st.gd.zones[st.layout.zdef[source]]
                if zdef.refill_from is None:
                    break
                # Let triggers on the refill run first (e.g. "add a card before shuffling"),
                # even when the refill source is empty: they may put the card there.
                if ("refill", zdef.index) in st.gd_listens:
                    fire(st, "refill", zdef.index, {"player": st.layout.zowner[source]})
                    env[left] = -remaining
                    fr.pc -= 1
                    return False
                if not zones[_refill_slot(st, source)]:
                    break
                _refill(st, source)
            return False
        self.emit(node, draw)

    def s_ZoneStmt(self, node: ast.ZoneStmt) -> None:
        slot = self.zone(node.zone)

        def shuffle(st: Any, fr: Frame) -> bool:
            shuffle_in_place(st, st.zones[slot(st, fr.env)])
            return False
        self.emit(node, shuffle)

    def s_CardsStmt(self, node: ast.CardsStmt) -> None:
        cards = self.cards(node.cards)
        if node.verb == "destroy":
            def destroy(st: Any, fr: Frame) -> bool:
                for iid in as_cards(cards(st, fr.env)):
                    remove_card(st, iid)
                return False
            self.emit(node, destroy)
        else:
            def reveal(st: Any, fr: Frame) -> bool:
                st.revealed.update(as_cards(cards(st, fr.env)))
                return False
            self.emit(node, reveal)

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
        return lambda st, env: render_template(st, parts, env)

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
                choices = unique_options(st, options(st, env), elem)
                if not choices:
                    env[var] = None
                    return False
                if len(choices) == 1:
                    env[var] = choices[0]
                    return False
                return suspend_for_choice(st, fr, by(st, env), choices, elem, prompt(st, env), answer, False)
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
            left = unique_options(st, [c for c in options(st, env) if c not in picked], elem)
            if len(picked) >= limit(st, env) or not left:
                del env[answer + "started"]
                return False
            return suspend_for_choice(st, fr, by(st, env), left, elem, prompt(st, env), answer, True)
        self.emit(node, choose_up_to)

    def s_ChooseOne(self, node: ast.ChooseOne) -> None:
        by, prompt = self.chooser(node.by), self.prompt(node, node.prompt or "choose one")
        answer = self.hidden("answer")
        labels = [o.label for o in node.options]
        if len(set(labels)) != len(labels):
            raise CompileError(node, "duplicate-option", "two options of one choice have the same label")
        conditions = [self.expr(o.condition, "bool") if o.condition is not None else None for o in node.options]
        start = self.emit(node, _placeholder)
        jumps: list[int] = []
        targets: list[int] = []
        for option in node.options:
            targets.append(self.here())
            self.block(option.body)
            jumps.append(self.emit(option, _placeholder))
        end = self.here()
        for at in jumps:
            self.patch(at, _jump(end))

        def choose_one(st: Any, fr: Frame) -> bool:
            env = fr.env
            if answer in env:
                fr.pc = targets[labels.index(env.pop(answer))]
                return False
            open_ = [lbl for lbl, cond in zip(labels, conditions, strict=True) if cond is None or cond(st, env)]
            if not open_:
                fr.pc = end
                return False
            if len(open_) == 1:
                fr.pc = targets[labels.index(open_[0])]
                return False
            return suspend_for_choice(st, fr, by(st, env), open_, "str", prompt(st, env), answer, False)
        self.patch(start, choose_one)

    def s_TakeActions(self, node: ast.TakeActions) -> None:
        if node.group not in self.ctx.symbols.groups:
            raise CompileError(node, "unknown-group", f"no action is available 'during: {node.group}'",
                               hint_for(node.group, self.ctx.symbols.groups))
        group = node.group
        if node.simultaneous:  # runtime/simultaneous.py
            players = self.expr(node.player, "list:player") if node.player is not None else None
            self.emit(node, take_simultaneously(group, players, self.hidden("picks")))
            return
        player = self.chooser(node.player) if node.player is not None else (lambda st, env: st.active)
        done = self.hidden("done")

        def take_actions(st: Any, fr: Frame) -> bool:
            env = fr.env
            if env.pop(done, False):
                return False
            p = player(st, env)
            bot = st.gd.bots.get(st.seats[p])
            if bot is not None and bot.turn is not None:
                env[done] = True
                fr.pc -= 1
                st.stack.append(Frame(bot.turn, 0, {"me": p}))
                return False
            return suspend_for_actions(st, fr, p, group, done)
        self.emit(node, take_actions)

    def s_CallStmt(self, node: ast.CallStmt) -> None:
        proc = self.ctx.symbols.procedures.get(node.name)
        if proc is None:
            known = list(self.ctx.symbols.procedures)
            raise CompileError(node, "unknown-name", f"unknown procedure '{node.name}'",
                               hint_for(node.name, known), len(node.name))
        if len(node.args) != len(proc.params):
            raise CompileError(node, "arity", f"{node.name}() takes {len(proc.params)} argument(s), "
                                              f"got {len(node.args)}", width=len(node.name))
        args = [self.expr(a) for a in node.args]
        params, code = proc.params, proc.code

        def call(st: Any, fr: Frame) -> bool:
            env = fr.env
            local = {name: fn(st, env) for name, fn in zip(params, args, strict=True)}
            local.setdefault("me", env.get("me", st.active))
            if "this" in env:
                local.setdefault("this", env["this"])
            st.stack.append(Frame(code, 0, local))
            return False
        self.emit(node, call)

    def s_Use(self, node: ast.Use) -> None:
        if node.effect not in self.ctx.symbols.card_effects:
            raise CompileError(node, "unknown-effect", f"no card has an effect named '{node.effect}'",
                               hint_for(node.effect, self.ctx.symbols.card_effects))
        card, effect = self.expr(node.card, "card"), node.effect

        def use(st: Any, fr: Frame) -> bool:
            env = fr.env
            iid = card(st, env)
            if iid is None:
                return False
            code = st.gd.cards[st.card_def[iid]].effects.get(effect)
            if code is not None:  # a card without that effect does nothing
                st.stack.append(Frame(code, 0, {"me": env.get("me", st.active), "this": iid}))
            return False
        self.emit(node, use)

    def s_Emit(self, node: ast.Emit) -> None:
        params = self.ctx.symbols.events.get(node.event)
        if params is None:
            raise CompileError(node, "unknown-event", f"no event '{node.event}' is declared in events:",
                               hint_for(node.event, self.ctx.symbols.events))
        if len(params) != len(node.args):
            raise CompileError(node, "arity", f"event '{node.event}' has {len(params)} parameter(s)")
        args, event = [self.expr(a) for a in node.args], node.event

        def emit(st: Any, fr: Frame) -> bool:
            env = fr.env
            fire(st, event, -1, {name: fn(st, env) for name, fn in zip(params, args, strict=True)})
            return False
        self.emit(node, emit)

    def s_Grant(self, node: ast.Grant) -> None:
        if node.modifier not in self.ctx.symbols.modifiers:
            raise CompileError(node, "unknown-modifier", f"no modifier '{node.modifier}'",
                               hint_for(node.modifier, self.ctx.symbols.modifiers))
        mi, duration = self.ctx.symbols.modifiers[node.modifier], node.duration
        player = self.expr(node.player, "player")

        def grant(st: Any, fr: Frame) -> bool:
            st.grants.append(Grant(mi, player(st, fr.env), duration))
            return False
        self.emit(node, grant)

    def s_EndGame(self, node: ast.EndGame) -> None:
        winners = self.expr(node.winners) if node.winners is not None else None

        def end_game(st: Any, fr: Frame) -> bool:
            finish(st, winners(st, fr.env) if winners is not None else None, "end-game")
            return False
        self.emit(node, end_game)

    def s_Log(self, node: ast.Log) -> None:
        parts = _template(node, self.ctx)

        def log(st: Any, fr: Frame) -> bool:
            env = fr.env
            st.log.append(render_template(st, parts, env))
            return False
        self.emit(node, log)

    def s_Stop(self, node: ast.Stop) -> None:
        if self.scope_depth:
            raise CompileError(node, "bad-stop", "'stop' cannot leave a turn: or round: block",
                               "use if/else inside the block instead")

        def stop(st: Any, fr: Frame) -> bool:
            fr.pc = STOPPED  # past the end: the frame returns
            return False
        self.emit(node, stop)

    # -- control flow
    def s_If(self, node: ast.If) -> None:
        ends: list[int] = []
        last = len(node.branches) - 1
        for i, (cond_node, body) in enumerate(node.branches):
            cond = self.expr(cond_node, "bool")
            test = self.emit(cond_node, _placeholder)
            self.block(body)
            if i < last or node.orelse:  # the last branch with no else just falls through
                ends.append(self.emit(cond_node, _placeholder))
            self.patch(test, _jump_unless(cond, self.here()))
        self.block(node.orelse)
        for at in ends:
            self.patch(at, _jump(self.here()))

    def s_ForEach(self, node: ast.ForEach) -> None:
        source, type_ = compile_expr(node.source, self.ctx)
        if not is_list(type_):
            raise CompileError(node.source, "type", f"'for each' needs a list, got {describe(type_)}")
        items, index, var = self.hidden("items"), self.hidden("i"), node.var

        def start(st: Any, fr: Frame) -> bool:
            env = fr.env
            env[items] = list(source(st, env))
            env[index] = 0
            return False
        self.emit(node, start)
        # The loop variable belongs to the loop: after it (or when the list was empty)
        # it has no value, so using it there is a compile error, not a runtime surprise.
        shadowed, seats = self.ctx.locals.get(var), self.ctx.seats
        self.ctx.locals[var] = elem_of(type_)
        self.ctx.seats = seats | {var} if yields_seats(node.source) else seats - {var}
        head = self.emit(node, _placeholder)
        self.block(node.body)
        self.ctx.seats = seats
        if shadowed is None:
            del self.ctx.locals[var]
        else:
            self.ctx.locals[var] = shadowed
        self.emit(node, _jump(head))
        end = self.here()

        def step(st: Any, fr: Frame) -> bool:
            env = fr.env
            i, seq = env[index], env[items]
            if i >= len(seq):
                del env[items], env[index]
                fr.pc = end
                return False
            env[var] = seq[i]
            env[index] = i + 1
            return False
        self.patch(head, step)

    def s_Repeat(self, node: ast.Repeat) -> None:
        if node.count is None:
            head = self.here()
            self.block(node.body)
            self.emit(node, _jump(head))
            return
        count, left = self.expr(node.count, "int"), self.hidden("left")

        def start(st: Any, fr: Frame) -> bool:
            fr.env[left] = count(st, fr.env)
            return False
        self.emit(node, start)
        head = self.emit(node, _placeholder)
        self.block(node.body)
        self.emit(node, _jump(head))
        end = self.here()

        def step(st: Any, fr: Frame) -> bool:
            env = fr.env
            if env[left] <= 0:
                del env[left]
                fr.pc = end
                return False
            env[left] -= 1
            return False
        self.patch(head, step)

    def s_While(self, node: ast.While) -> None:
        cond = self.expr(node.condition, "bool")
        head = self.emit(node, _placeholder)
        self.block(node.body)
        self.emit(node, _jump(head))
        self.patch(head, _jump_unless(cond, self.here()))

    def s_Turn(self, node: ast.Turn) -> None:
        player, saved = self.expr(node.player, "player"), self.hidden("prev")

        def turn_start(st: Any, fr: Frame) -> bool:
            p = player(st, fr.env)
            fr.env[saved] = st.active
            st.active = p
            st.turn_no += 1
            st.uses["turn"] = {}
            _refresh(st, "turn_start", p)
            return False
        self.emit(node, turn_start)
        self.scope_depth += 1
        self.block(node.body)
        self.scope_depth -= 1

        # The turn_end triggers run first, still inside the turn (its player active, its
        # grants on), so what they change counts for the end conditions checked next.
        def turn_end_event(st: Any, fr: Frame) -> bool:
            _refresh(st, "turn_end", st.active)
            return False
        self.emit(node, turn_end_event)

        def turn_end(st: Any, fr: Frame) -> bool:
            st.grants = [g for g in st.grants if g.until != "turn"]
            if check_end(st, "turn"):
                return False
            if st.ending == "turn":
                finish(st, None, st.ending_reason or "finish-turn")
                return False
            st.active = fr.env.pop(saved)
            return False
        self.emit(node, turn_end)

    def s_Round(self, node: ast.Round) -> None:
        def round_start(st: Any, fr: Frame) -> bool:
            st.round_no += 1
            st.uses["round"] = {}
            if ("round_start", -1) in st.gd_listens:
                fire(st, "round_start", -1, {})
            return False
        self.emit(node, round_start)
        self.scope_depth += 1
        self.block(node.body)
        self.scope_depth -= 1

        # As for turns: end-of-round hooks run first (also in the game's last round),
        # then the round's end conditions are checked.
        def round_end_event(st: Any, fr: Frame) -> bool:
            if ("round_end", -1) in st.gd_listens:
                fire(st, "round_end", -1, {})
            return False
        self.emit(node, round_end_event)

        def round_end(st: Any, fr: Frame) -> bool:
            st.grants = [g for g in st.grants if g.until != "round"]
            if check_end(st, "round"):
                return False
            if st.ending is not None:
                finish(st, None, st.ending_reason or "finish-round")
            return False
        self.emit(node, round_end)


def _refresh(st: Any, event: str, player: int) -> None:
    if (event, -1) in st.gd_listens:
        fire(st, event, -1, {"player": player})


def _refill_slot(st: Any, source: int) -> int:
    zdef = st.gd.zones[st.layout.zdef[source]]
    owner = st.layout.zowner[source]
    assert zdef.refill_from is not None
    base = st.layout.zbase[zdef.refill_from]
    return base + owner if owner >= 0 and st.gd.zones[zdef.refill_from].scope == "player" else base


def _refill(st: Any, source: int) -> None:
    zdef = st.gd.zones[st.layout.zdef[source]]
    from_slot = _refill_slot(st, source)
    for iid in list(st.zones[from_slot]):
        place_card(st, iid, source)
    if zdef.refill_shuffle:
        shuffle_in_place(st, st.zones[source])


def _placeholder(st: Any, fr: Frame) -> bool:  # replaced by patch() before use
    raise RuleRuntimeError("internal error: unpatched jump")


def _jump(target: int) -> Op:
    def jump(st: Any, fr: Frame) -> bool:
        fr.pc = target
        return False
    return jump


def _jump_unless(cond: Expr, target: int) -> Op:
    def jump_unless(st: Any, fr: Frame) -> bool:
        if not cond(st, fr.env):
            fr.pc = target
        return False
    return jump_unless


def _name_hint(node: ast.Node, ctx: Context) -> str | None:
    name = getattr(node, "name", None)
    if isinstance(name, str):
        return hint_for(name, list(ctx.symbols.counters) + list(ctx.symbols.zones) + list(ctx.locals))
    return None


def _template(node: ast.Node, ctx: Context) -> list[Any]:
    """A log statement's text as template parts; errors point into the statement's string
    (it starts 5 columns after `log`, past `log "`)."""
    try:
        return compile_template(getattr(node, "text", ""), ctx)
    except CompileError as err:
        if err.line == 1:
            err.column += node.column + 4
        err.line += node.line - 1
        raise


