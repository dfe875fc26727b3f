"""Action effects that can never wait, compiled as one plain Python function.

An action's effect normally runs as a frame on the state's stack: `take` pushes it with
a dictionary of its locals, the run loop calls its operations, pops it and goes back to
the flow. That is what lets an effect stop at a decision and be saved there. An effect
that can never stop needs none of it: when each statement is an if/elif/else or
compiles to one operation of straight-line source (let, set, gain, move, destroy, end
game, log...: not a loop, a call, a choice or a closure), none draws random numbers
(explicit chance may stop for an outcome) and none can queue a trigger (none may fire
an event, or the game has no triggers), the compiler also writes the effect as

    def _direct12(st, _l_me, _l_cell):   # the acting player, then the parameters

with its locals as Python names, and `decisions.take` calls it instead of pushing a
frame. It is written from the same statements' generated lines, so it changes the
state exactly as the frame would; a rule error is placed at the same statement
(`Direct.wheres`, indexed like a fused run's `_orrery_op`). Anything else gives None
and the action keeps its frame.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from interpreter.compile.expressions import Context
from interpreter.compile.fusion import OpSource, draws_random
from interpreter.compile.pysource import PYTHON_NAME, env_free
from interpreter.compile.statements import CodeBuilder, Locator
from interpreter.lang import ast
from interpreter.lang.symbols import CompileError
from interpreter.model import Code, Direct, Where
from interpreter.runtime.loop import ERROR_AT

_FRAME = re.compile(r"(?<![\w.])fr(?!\w)")  # the frame: a direct function has none
_RETURN = re.compile(r"(?<![\w.])return(?!\w)")  # a statement leaving its run early would leave the effect


class _NotDirect(Exception):
    """The effect needs its frame."""


class _LinesOnly(CodeBuilder):
    """A CodeBuilder that keeps each statement's source and defines no function for it
    (the frame version of the effect is compiled apart, by the Builder)."""

    def set_src(self, at: int, source: OpSource, fusible: bool = True) -> None:
        self.sources[at] = source if fusible else None


def compile_direct(ctx: Context, locate: Locator, stmts: Sequence[ast.Node], params: tuple[str, ...],
                   what: str) -> Direct | None:
    """The direct function of an action's effect (see the module docstring), or None.
    `ctx` is a fresh context of the action's locals (`me` and its parameters)."""
    names_ok = all(isinstance(name, str) and PYTHON_NAME.match(name) for name in params)
    if not names_ok or len(set(params)) != len(params) or "me" in params:
        return None
    writer = _Writer(ctx, locate, params)
    try:
        writer.block(tuple(stmts), "        ")
    except (_NotDirect, CompileError):  # (the frame version reported any error already)
        return None
    em = ctx.emitter
    name = em.fresh("direct")
    args = ", ".join(["_l_me", *(f"_l_{p}" for p in params)])
    lines = [f"def {name}(st, {args}):", "    _at = 0", "    try:", *writer.lines,
             "    except Exception as _error:", f"        _error.{ERROR_AT} = _at", "        raise"]
    run = em.define("\n".join(lines) + "\n", name, f"{what} (direct: no frame, locals as names)")
    return Direct(run, tuple(writer.wheres))


class _Writer:
    """Writes statements as nested Python, each preceded by `_at = N` (N indexes wheres)."""

    def __init__(self, ctx: Context, locate: Locator, params: tuple[str, ...]):
        self.ctx = ctx
        self.locate = locate
        self.scratch = _LinesOnly(Code(-1, "direct"), ctx, locate)
        self.names = {"me": "_l_me", **{p: f"_l_{p}" for p in params}}
        self.lines: list[str] = []
        self.wheres: list[Where] = []

    def block(self, stmts: tuple[ast.Node, ...], pad: str) -> None:
        before = len(self.lines)
        with self.ctx.block():
            for node in stmts:
                self.statement(node, pad)
        if len(self.lines) == before:
            self.lines.append(pad + "pass")

    def statement(self, node: ast.Node, pad: str) -> None:
        if isinstance(node, ast.If):
            self.if_(node.branches, node.orelse, pad)
        else:
            self.simple(node, pad)

    def at(self, node: ast.Node, pad: str) -> None:
        self.lines.append(f"{pad}_at = {len(self.wheres)}")
        self.wheres.append(self.locate(node.line, node.column))

    def if_(self, branches: tuple[tuple[ast.Node, tuple[ast.Node, ...]], ...], orelse: tuple[ast.Node, ...],
            pad: str) -> None:
        """`if` with its `elif`s as nested else-ifs, so each condition is placed first."""
        cond_node, body = branches[0]
        if draws_random(cond_node):
            raise _NotDirect
        cond = self.python(self.scratch.src(cond_node, "bool"))
        self.at(cond_node, pad)
        self.lines.append(f"{pad}if {cond}:")
        self.block(body, pad + "    ")
        if len(branches) > 1 or orelse:
            self.lines.append(f"{pad}else:")
            if len(branches) > 1:
                self.if_(branches[1:], orelse, pad + "    ")
            else:
                self.block(orelse, pad + "    ")

    def simple(self, node: ast.Node, pad: str) -> None:
        scratch = self.scratch
        first = len(scratch.sources)
        scratch.statement(node)
        sources = scratch.sources[first:]
        source = sources[0] if len(sources) == 1 else None
        if source is None or source.waits or source.exits or source.chance or source.targets or \
                (source.fires and not self.ctx.symbols.no_triggers) or \
                any(_RETURN.search(line) for line in source.lines):
            # (a loop, a call, a decision, a random draw, a closure, or what may queue a
            # trigger's effect to run next, in a game with triggers: the frame)
            raise _NotDirect
        if isinstance(node, ast.Let):
            if not PYTHON_NAME.match(node.name):
                raise _NotDirect
            self.names[node.name] = f"_l_{node.name}"
        self.at(node, pad)
        self.lines.extend(pad + self.python(line) for line in source.lines)
        if source.ends:
            self.lines += [f"{pad}if st.terminal:", f"{pad}    return"]

    def python(self, source: str) -> str:
        """Generated source with its locals as Python names; none may stay in `env`."""
        out = env_free(source, self.names)
        if out is None or _FRAME.search(out):
            raise _NotDirect
        return out

