"""Straight-line statements as one generated function each run.

Most statements never wait for a decision (let, set, gain, move, log, if, loops, turn
bookkeeping). The statement compiler writes each of them as Python statements (an
`OpSource`, syntax trees: compile/pyast.py) and makes its run-loop operation from
them; this module then joins a run of such operations into one generated function
that does their work in order, so the run loop dispatches once per run instead of
once per statement. A plain jump (the back edge of a loop, the end of an if branch)
does not end a run: the run goes on at its target, each operation at most once per
run. A run that comes back to one of its own operations (a loop whose body never
waits or calls) goes round inside the function, LAPS times at most before it hands
back to the run loop, whose step budget still counts the loop's turns (one step per
LAPS).

Every operation keeps its own index and its own single version, so a frame's pc means
what it meant before: a save made at any decision resumes identically, and a jump may
land anywhere. Only the entry points (the start, jump targets, the operation after a
statement that waits or calls) get a fused version that runs on from there. A
statement that draws random numbers (shuffle, draw, random(...)) joins runs too, but
guarded: in a game with explicit chance, where it may stop to ask for an outcome, the
run ends with it, run by its own operation. A run
stops where triggers were queued (`st.queue`: they must resolve before the next
statement), where the game ended, and where it jumps away. An error inside a run is
placed at the statement that raised it: the run records which one (`_at`) on the
exception, and the loop reads it (`ERROR_AT`).
"""

from __future__ import annotations

import ast as py
from typing import Any

import attrs

from interpreter.analysis.programs import RANDOM_CALLS
from interpreter.compile.pyast import S, Stmts, int_value, is_name, lit
from interpreter.compile.pysource import Emitter
from interpreter.lang import ast
from interpreter.model import Code, Op
from interpreter.runtime.loop import ERROR_AT

MAX_RUN = 24  # operations joined at most (a bound on generated code per entry point)
LAPS = 8  # turns of a loop inside one run before the run loop gets control back (one step)
MAX_CHAIN = 8  # runs one call may go through by forward jumps (a bound on Python's stack)


@attrs.define
class OpSource:
    """One operation as Python statements over `st`, `fr` and `env`."""

    lines: Stmts
    fires: bool = False  # may queue triggers: the run stops if it did
    ends: bool = False  # may end the game: the run stops if it did
    exits: bool = False  # always jumps away (sets fr.pc and returns)
    targets: tuple[int, ...] = ()  # where it may jump
    goto: int | None = None  # only jumps there (loop back edges, the end of an if branch)
    # Draws random numbers: with explicit chance it may stop for an outcome, so there it
    # runs as its own operation; in a run it is guarded (st.explicit: the run ends
    # with it, run by its own operation).
    chance: bool = False
    # May wait for a decision (`take actions`): its statements return True when it
    # does. A state waiting there resumes at it, so it heads a run of its own (what
    # follows a decision, up to the next one, is one call); a run that reaches it ends
    # with it.
    waits: bool = False
    # The statements a direct function (compile/direct.py) writes instead, when they
    # differ: a draw's, without explicit chance's and the refill triggers' bookkeeping.
    direct: Stmts | None = None


def draws_random(*nodes: ast.Node | None) -> bool:
    """Whether an expression calls a random built-in (such a statement stays an
    operation of its own, so a chance outcome can be asked for before it changes anything)."""
    return any(isinstance(node, ast.Call) and node.name in RANDOM_CALLS
               for node in ast.walk(n for n in nodes if n is not None))


def single_op(em: Emitter, source: OpSource, what: str) -> Op:
    """The operation of one statement, from its statements."""
    return em.define(S("""
        def {f}(st, fr):
            env = fr.env
            {body}
            return False
        """, f=em.fresh("op"), body=source.lines or [py.Pass()]), what)  # type: ignore[no-any-return]


def fuse(em: Emitter, code: Code, sources: list[OpSource | None], entries: set[int]) -> None:
    """Give each entry point of a run of two or more fusible operations a fused version
    (`entries`: where operations that are not sources jump to)."""
    count = len(code.ops)
    singles = list(code.ops)  # each operation alone (fused versions replace some below)
    targets = {t for s in sources if s is not None for t in s.targets} | entries
    chain: dict[int, int] = {}  # entry -> how many runs a call of it may go through
    # Last entry first: a run jumping forward calls the final version of its target.
    for head in reversed(range(count)):
        src = sources[head]
        if src is None:
            continue
        before = sources[head - 1] if head else None
        entry = (head == 0 or before is None or before.fires or before.chance or before.waits or src.waits
                 or head in targets)
        if not entry:
            continue
        run = [head]
        cycle = None  # where the run goes on when it comes back to an operation it holds
        while len(run) < MAX_RUN:
            last = sources[run[-1]]
            assert last is not None
            # A plain jump is followed: the run goes on at its target (a loop's next
            # item, the statement after an if). Back at an operation of the run, the
            # run is a loop: it goes round in the function itself (LAPS times at most).
            nxt = last.goto if last.goto is not None else -1 if last.exits else run[-1] + 1
            following = sources[nxt] if 0 <= nxt < count else None
            if following is None:
                break
            if nxt in run:
                cycle = run.index(nxt)
                break
            run.append(nxt)
            if following.waits:  # a decision ahead: the state resumes there, in that one's run
                break
        if len(run) < 2:
            continue
        code.ops[head] = _fused(em, code, sources, run, singles, cycle, chain)


def _jump_target(first: py.stmt, second: py.stmt) -> int | None:
    """T when the statements are `fr.pc = T` (a whole number written out) then
    `return False`: a jump to T that leaves the operation; else None."""
    if not (type(first) is py.Assign and len(first.targets) == 1 and type(second) is py.Return):
        return None
    target = first.targets[0]
    returned = second.value
    if not (type(target) is py.Attribute and target.attr == "pc" and is_name(target.value, "fr")
            and type(returned) is py.Constant and returned.value is False):
        return None
    value = int_value(first.value)
    return value if value is not None and value >= 0 else None


# The fields of a statement that hold statement lists (the bodies of if, for, while, try)
_BODIES = ("body", "orelse", "finalbody")


def _forward_calls(em: Emitter, code: Code, k: int, src: OpSource, chain: dict[int, int],
                   called: set[int]) -> Stmts:
    """The statements of operation `k`, each forward jump of a branch or loop exit
    (`fr.pc = T` then `return False`, T one of its targets after k) made a call of the
    operation at T: what the run loop would run next, without going back to it. Only
    for operations that never push a frame (`exits` ones may: a call), and only
    forward, so a chain of such calls never comes back (no loop escapes the step
    budget) and is at most MAX_CHAIN runs deep."""
    if src.exits or not src.targets:
        return src.lines

    def block(stmts: Stmts) -> Stmts:
        out: Stmts = []
        i = 0
        while i < len(stmts):
            target = _jump_target(stmts[i], stmts[i + 1]) if i + 1 < len(stmts) else None
            if (target is not None and k < target < len(code.ops) and target in src.targets
                    and chain.get(target, 1) < MAX_CHAIN):
                called.add(target)
                out += S("""
                    _at = {target}
                    fr.pc = {after}
                    return {op}(st, fr)
                    """, target=target, after=target + 1, op=em.const(code.ops[target], "goto"))
                i += 2
                continue
            out.append(inside(stmts[i]))
            i += 1
        return out

    def inside(stmt: py.stmt) -> py.stmt:
        """`stmt` with the statement lists it holds gone through the same way (in the
        order they are written, so the constants they name are bound in that order)."""
        fields: dict[str, Any] = {}
        changed = False
        for field, value in py.iter_fields(stmt):
            if field in _BODIES and isinstance(value, list):
                value, old = block(value), value
                changed = changed or len(value) != len(old) or any(a is not b for a, b in zip(value, old, strict=False))
            elif field == "handlers":
                value, old = [inside(h) for h in value], value
                changed = changed or any(a is not b for a, b in zip(value, old, strict=True))
            fields[field] = value
        return type(stmt)(**fields) if changed else stmt

    return block(src.lines)


def _fused(em: Emitter, code: Code, sources: list[OpSource | None], run: list[int], singles: list[Op],
           cycle: int | None, chain: dict[int, int]) -> Op:
    fname = em.fresh("run")
    called: set[int] = set()
    body: Stmts = []  # the try's statements
    lap: Stmts = []  # those inside the loop (from the operation the run comes back to)
    for i, k in enumerate(run):
        src = sources[k]
        assert src is not None
        out = lap if cycle is not None and i >= cycle else body  # the loop's operations, again and again
        if src.goto is not None and (k != run[-1] or cycle is not None):
            continue  # a jump followed: its target comes next in the run (or it goes round)
        if k != run[0] or cycle is not None:  # (the first again on a loop's next lap)
            out += S("_at = {k}", k=k)
        if src.chance:  # explicit chance: the operation runs as it does alone (it may wait for an outcome)
            out += S("""
                if st.explicit:
                    fr.pc = {after}
                    return {single}(st, fr)
                """, after=k + 1, single=em.const(singles[k], "single"))
        out += _forward_calls(em, code, k, src, chain, called)
        if src.ends:
            out += S("""
                if st.terminal:
                    return False
                """)
        if src.fires:
            out += S("""
                if st.queue:
                    fr.pc = {after}
                    return False
                """, after=k + 1)
    last = sources[run[-1]]
    assert last is not None
    if cycle is not None:
        # Each lap is what one step of the run loop would do; every LAPS laps the run
        # loop gets control back, so its step budget still stops an endless loop.
        lap += S("""
            _laps += 1
            if _laps == {laps}:
                fr.pc = {back}
                return False
            """, laps=LAPS, back=run[cycle])
        body += S("""
            while True:
                {lap}
            """, lap=lap)
    elif not last.exits:
        body += S("""
            fr.pc = {after}
            return False
            """, after=run[-1] + 1)
    if called:  # a run called by a jump has placed its error already
        place = S("""
            if not {has}(_error, {attr}):
                _error.{field} = _at
            """, has=em.const(hasattr, "hasattr"), attr=lit(ERROR_AT), field=ERROR_AT)
    else:
        place = S("_error.{field} = _at", field=ERROR_AT)
    laps = S("_laps = 0") if cycle is not None else []
    chain[run[0]] = 1 + max((chain.get(t, 1) for t in called), default=0)
    return em.define(S("""
        def {f}(st, fr):
            env = fr.env
            _at = {first}
            {laps}
            try:
                {body}
            except Exception as _error:
                {place}
                raise
        """, f=fname, first=run[0], laps=laps, body=body, place=place),
        f"{code.name} (operations {_spans(run)})")  # type: ignore[no-any-return]


def _spans(run: list[int]) -> str:
    """The operations of a run as index ranges in run order ("4-6, 1-2": a jump followed)."""
    spans = [[run[0], run[0]]]
    for k in run[1:]:
        if k == spans[-1][1] + 1:
            spans[-1][1] = k
        else:
            spans.append([k, k])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in spans)
