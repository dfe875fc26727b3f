"""Effects that can never wait, compiled as one plain Python function.

An action's effect or a procedure normally runs as a frame on the state's stack: it is
pushed with a dictionary of its locals, the run loop calls its operations, pops it and
goes back to its caller. That is what lets an effect stop at a decision and be saved
there. An effect that can never stop needs none of it: when each statement is an
if/elif/else, a `for each` over a list, a call of a procedure that has a direct
function itself, or compiles to one operation of straight-line code (let, set, gain,
move, destroy, end game, log...: not a choice, a `repeat`/`while` or a closure), none
draws random numbers (explicit chance may stop for an outcome) and none can queue a
trigger (none fires an event some trigger hears), the compiler also writes the effect as

    def _direct12(st, _l_me, _l_cell):   # the acting player, then the parameters

with its locals as Python names. `decisions.take` calls an action's instead of pushing
a frame; a procedure's call site calls it (the name `procedure_alias` gives is bound to
it) instead of pushing the procedure's frame; a new state runs the setup's when chance
is seeded (the setup may then shuffle, draw and call `random` too: nothing can stop
there). It is written from the same statements' generated code (their syntax trees,
nested in the effect's `if`s and `for`s), so it changes the state exactly as the frame
would. A rule error leaves it placed at the statement that raised it, as the loop
would place it.

What a frame has and a direct function has not: the run loop's step budget and depth
limit. A `for each` charges its list to the work meter (runtime/work.py) as a
comprehension does, so a runaway loop still ends in a rule error; it can only go round
as many times as its lists are long (no `repeat` or `while`). Procedures are compiled
callees first (`callees_first`), a direct function calls only those compiled before
it, and a procedure that can call itself keeps its frames: calls never go round.

Anything else gives None, and the effect keeps its frame.
"""

from __future__ import annotations

import ast as py
from collections.abc import Sequence
from typing import Any

import attrs

from interpreter.compile.expressions import ME, Context, gen
from interpreter.compile.fusion import OpSource, draws_random
from interpreter.compile.pyast import E, S, Stmts, env_free, name, names_in, walk
from interpreter.compile.pysource import local_name, local_name_ok
from interpreter.compile.statements import CodeBuilder, Locator, procedure_alias
from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, parse_program
from interpreter.lang.symbols import CompileError
from interpreter.model import Code, Direct, Where
from interpreter.runtime.errors import RULE_SLIPS, rule_error
from interpreter.runtime.work import charge, charge_call


def callees_first(texts: dict[str, Any]) -> tuple[list[str], frozenset[str]]:
    """The procedures (name -> effect text) in an order that compiles each after those
    it calls (so a direct function can call theirs), and those that can call themselves,
    through any chain of calls (those keep their frames: the run loop bounds how deep
    they go). A text that does not parse calls nothing here (it is reported when it
    compiles)."""
    calls = {name: [node.name for node in ast.walk(_parsed(text))
                    if isinstance(node, ast.CallStmt) and node.name in texts] for name, text in texts.items()}
    order: list[str] = []
    state: dict[str, int] = {}  # 1: being visited, 2: done
    recursive: set[str] = set()
    for root in texts:
        if state.get(root):
            continue
        state[root] = 1
        todo = [(root, iter(calls[root]))]
        while todo:
            name, rest = todo[-1]
            callee = next(rest, None)
            if callee is None:
                todo.pop()
                state[name] = 2
                order.append(name)
            elif not state.get(callee):
                state[callee] = 1
                todo.append((callee, iter(calls[callee])))
    for name in texts:  # reaches itself?
        seen: set[str] = set()
        ahead = list(calls[name])
        while ahead:
            callee = ahead.pop()
            if callee == name:
                recursive.add(name)
                break
            if callee not in seen:
                seen.add(callee)
                ahead.extend(calls[callee])
    return order, frozenset(recursive)


def _parsed(text: Any) -> tuple[ast.Node, ...]:
    if not isinstance(text, str):
        return ()
    try:
        return parse_program(text)
    except EffectSyntaxError:
        return ()


class _NotDirect(Exception):
    """The effect needs its frame."""


class _LinesOnly(CodeBuilder):
    """A CodeBuilder that keeps each statement's code and defines no function for it
    (the frame version of the effect is compiled apart, by the Builder)."""

    def set_src(self, at: int, source: OpSource, fusible: bool = True) -> None:
        self.sources[at] = source if fusible else attrs.evolve(source, chance=True)


def compile_direct(ctx: Context, locate: Locator, stmts: Sequence[ast.Node], params: tuple[str, ...],
                   what: str, seeded: bool = False) -> Direct | None:
    """The direct function of an action's effect or a procedure (see the module
    docstring), or None. `ctx` is a fresh context of its locals (`me` and its parameters).
    `seeded`: a function only ever run without explicit chance (the setup), which may
    shuffle, draw and call `random`: none of them can stop there."""
    names_ok = all(local_name_ok(param) for param in params)
    if not names_ok or len(set(params)) != len(params) or "me" in params:
        return None
    writer = _Writer(ctx, locate, params, seeded)
    try:
        body = writer.block(tuple(stmts))
    except (_NotDirect, CompileError):  # (the frame version reported any error already)
        return None
    em = ctx.emitter
    fname = em.fresh("direct")
    slips, place, wheres = em.const(RULE_SLIPS, "RULE_SLIPS"), em.const(rule_error, "rule_error"), \
        em.const(tuple(writer.wheres), "wheres")
    return em.define(S("""
        def {f}(st, {params}):
            _at = 0
            try:
                {body}
            except {slips} as _error:
                raise {place}({wheres}[_at], _error) from None
        """, f=fname, params=[local_name(p) for p in ("me", *params)], body=body, slips=slips, place=place,
        wheres=wheres), f"{what} (direct: no frame, locals as names)")  # type: ignore[no-any-return]


class _Writer:
    """Writes statements as nested Python, each preceded by `_at = N` (N indexes wheres)."""

    def __init__(self, ctx: Context, locate: Locator, params: tuple[str, ...], seeded: bool):
        self.ctx = ctx
        self.locate = locate
        self.seeded = seeded
        self.scratch = _LinesOnly(Code(-1, "direct"), ctx, locate)
        self.names = {p: local_name(p) for p in ("me", *params)}
        self.wheres: list[Where] = []

    def block(self, stmts: tuple[ast.Node, ...]) -> Stmts:
        out: Stmts = []
        with self.ctx.block():
            for node in stmts:
                out += self.statement(node)
        return out or [py.Pass()]

    def statement(self, node: ast.Node) -> Stmts:
        if isinstance(node, ast.If):
            return self.if_(node.branches, node.orelse)
        if isinstance(node, ast.ForEach):
            return self.for_each(node)
        if isinstance(node, ast.CallStmt):
            return self.call(node)
        return self.simple(node)

    def call(self, node: ast.CallStmt) -> Stmts:
        """A call of a procedure that has a direct function already (compiled before
        this, and never recursive: callees_first): a call of that function."""
        proc = self.ctx.symbols.procedures.get(node.name)
        alias = None if proc is None else procedure_alias(proc.code)
        if alias is None or self.ctx.emitter.ns.get(alias) is None or self.random(node):
            raise _NotDirect
        self.scratch.statement(node)  # (its checks: arity, the argument types calls pass)
        args = [self.python(gen(arg, self.ctx)[0]) for arg in node.args]
        at = self.at(node)
        # a call is work (runtime/work.py: procedures calling each other twice per level)
        return at + S("""
            {charge_call}(st)
            {alias}(st, {me}, {args})
            if st.terminal:
                return
            """, charge_call=self.ctx.const(charge_call, "charge_call"), alias=name(alias), me=self.python(ME),
            args=args)

    def for_each(self, node: ast.ForEach) -> Stmts:
        """`for each` as a Python `for` over the list (made once, as the frame's loop
        makes it), the list charged to the work meter as a comprehension's is."""
        if self.random(node.source):
            raise _NotDirect
        source, type_ = self.scratch.loop_source(node)
        items = self.python(E("list({source})", source=source))
        at = self.at(node)
        with self.scratch.loop_variables(node, type_) as names:
            if not all(local_name_ok(each) for each in names):
                raise _NotDirect
            self.names.update({each: local_name(each) for each in names})
            targets: list[py.expr] = [name(local_name(each)) for each in names]
            target = targets[0] if len(targets) == 1 else py.Tuple(targets, py.Store())
            charge_ = self.ctx.const(charge, "charge")
            return at + S("""
                for {target} in {charge}(st, {items}):
                    {body}
                """, target=target, charge=charge_, items=items, body=self.block(node.body))

    def at(self, node: ast.Node) -> Stmts:
        """`_at = N`: the statement about to run is the Nth of `wheres`."""
        self.wheres.append(self.locate(node.line, node.column))
        return S("_at = {n}", n=len(self.wheres) - 1)

    def if_(self, branches: tuple[tuple[ast.Node, tuple[ast.Node, ...]], ...],
            orelse: tuple[ast.Node, ...]) -> Stmts:
        """`if` with its `elif`s as nested else-ifs, so each condition is placed first."""
        cond_node, body = branches[0]
        if self.random(cond_node):
            raise _NotDirect
        cond = self.python(self.scratch.src(cond_node, "bool"))
        at = self.at(cond_node)
        then = self.block(body)
        if len(branches) > 1:
            other = self.if_(branches[1:], orelse)
        else:
            other = self.block(orelse) if orelse else []
        return at + [py.If(cond, then, other)]

    def simple(self, node: ast.Node) -> Stmts:
        scratch = self.scratch
        first = len(scratch.sources)
        scratch.statement(node)
        sources = scratch.sources[first:]
        source = sources[0] if len(sources) == 1 else None
        if source is None:
            raise _NotDirect  # (a closure, or more than one operation: a loop)
        lines = source.lines if source.direct is None else source.direct
        if source.waits or source.exits or (source.chance and not self.seeded) or \
                source.targets or source.fires or any(isinstance(n, py.Return) for n in walk(lines)):
            # (a loop, a decision, a random draw, a closure, or what may queue the
            # effect of a trigger that hears it, to run next: the frame; a statement
            # returning would leave the effect, not its run)
            raise _NotDirect
        if isinstance(node, ast.Let):
            if not local_name_ok(node.name):
                raise _NotDirect
            self.names[node.name] = local_name(node.name)
        at = self.at(node)
        out = at + self.python_lines(lines)
        if source.ends:
            out += S("""
                if st.terminal:
                    return
                """)
        return out

    def random(self, node: ast.Node) -> bool:
        """Whether `node` calls a random built-in where it could stop for a chance outcome."""
        return not self.seeded and draws_random(node)

    def python(self, code: py.expr) -> py.expr:
        """Generated code with its locals as Python names; none may stay in `env`, and
        none may read the frame (`fr`: a direct function has none)."""
        out = env_free(code, self.names)
        if out is None or "fr" in names_in(out):
            raise _NotDirect
        return out  # type: ignore[no-any-return]

    def python_lines(self, lines: Stmts) -> Stmts:
        """`python` of statements."""
        out = env_free(lines, self.names)
        if out is None or "fr" in names_in(out):
            raise _NotDirect
        return out  # type: ignore[no-any-return]
