"""The run loop: run operations until a decision is needed or the game is over.

A running game is a stack of frames (`records.Frame`: code index, next operation,
locals) inside the state. An operation returns True when it waits for a decision,
or raises NeedChance when it needs a chance outcome (explicit chance, chance.py);
triggered effects queued while it ran are pushed as frames right after it. A step
budget per resolution and a cap on frame depth turn runaway rules into rule errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.diagnostics import RuleRuntimeError
from interpreter.runtime.chance import NeedChance
from interpreter.runtime.ending import check_end, finish
from interpreter.runtime.errors import RULE_SLIPS, rule_error

ERROR_AT = "_orrery_op"  # set on an error by a fused run of operations: which one raised

if TYPE_CHECKING:
    from interpreter.model import Where
    from interpreter.runtime.records import Frame
    from interpreter.runtime.state import State

STEP_BUDGET = 200_000  # operations per resolution (between two decisions)
MAX_QUIET_TURNS = 20_000  # turns in a row without a decision (all-bot games)
MAX_DEPTH = 200  # nested frames: effects calling effects, trigger chains


def run(st: State, fresh: bool = True) -> None:
    """Run until a decision is needed or the game is over. Not `fresh`: the resolution
    began before the call (an action's direct effect ran), so its work so far counts."""
    stack = st.stack
    codes = st.gd.codes
    budget = STEP_BUDGET
    if fresh:
        st.work = 0  # expressions' work (work.py) is counted per resolution, like the steps
    # Games whose seats are all bots make no decision at all: a new turn is progress, so
    # it refills the budget; only a run of MAX_QUIET_TURNS turns with no decision is
    # taken for a game that never ends.
    first_turn = refilled_at = st.turn_no
    while stack:
        fr = stack[-1]
        code = codes[fr.code]
        ops = code.ops
        count = len(ops)
        pc = fr.pc
        # Run this frame's operations until it ends or another frame goes on top. The
        # inner loop checks only what most operations cannot change: an ending game
        # clears the stack (finish), so a changed top covers it too (operations push
        # frames or clear the stack; none takes a frame off or puts one in another's place).
        while pc < count:
            fr.pc = pc + 1
            try:  # free unless raised (Python 3.11+)
                if ops[pc](st, fr):
                    return
            except NeedChance as need:  # explicit chance: wait for the outcome, then run the operation
                fr.pc = getattr(need, ERROR_AT, pc)  # that asked again (in a fused run: the one inside it)
                return
            except RULE_SLIPS as err:
                # a fused run (compile/fusion.py) names the operation inside it that failed
                raise rule_error(code.wheres[getattr(err, ERROR_AT, pc)], err) from None
            budget -= 1
            if not budget:
                if st.terminal:
                    return
                if st.turn_no == refilled_at or st.turn_no - first_turn > MAX_QUIET_TURNS:
                    what = (f"more than {STEP_BUDGET} steps without a decision or a new turn (an endless "
                            "loop?)" if st.turn_no == refilled_at
                            else f"more than {MAX_QUIET_TURNS} turns without a decision (a game that never "
                                 "ends?)")
                    raise RuleRuntimeError(what, code="step-budget").within(code.wheres[pc])
                budget, refilled_at = STEP_BUDGET, st.turn_no
            if st.queue or not stack or stack[-1] is not fr:
                break
            pc = fr.pc
        else:
            stack.pop()
            # An action is over (its triggers too): `check: action` ends are checked
            # now, while `me` is still the player who acted (not at the next
            # decision, which may be another player's turn).
            if code.kind == "action" and st.gd.ends_by_check["action"] and check_end(st, "action", fr.env.get("me")):
                return
            continue
        if st.terminal:
            return
        if st.queue or len(stack) > MAX_DEPTH:
            _push_queued(st, stack, code.wheres[pc])
    if not st.terminal:
        finish(st, None, "flow-ended")


def run_on(st: State, fresh: bool = False) -> None:
    """The top frame's next operation called at once, as one step of the loop, then
    `run`. After an action's direct effect (not `fresh`: its work counts) it is the
    flow's `take actions`, whose run goes on to the next decision; after a chance
    outcome, the operation that asked, which takes the answers given so far. Whatever
    it leaves (triggers, a pushed frame) the loop takes over."""
    stack = st.stack
    fr = stack[-1]
    code = st.gd.codes[fr.code]
    pc = fr.pc
    if pc < len(code.ops):
        fr.pc = pc + 1
        try:
            waits = code.ops[pc](st, fr)
        except NeedChance as need:  # (as in run: another outcome is needed, the state waits for it)
            fr.pc = getattr(need, ERROR_AT, pc)
            return
        except RULE_SLIPS as err:
            raise rule_error(code.wheres[getattr(err, ERROR_AT, pc)], err) from None
        # The operation ran to its end: the answers it took are used. (Only after a chance
        # outcome, `fresh`, are there any: not tested on the way from a direct effect.)
        if fresh and st.chance_answers:
            st.chance_answers = []
        if waits or st.terminal:
            return
        if st.queue or len(stack) > MAX_DEPTH:
            _push_queued(st, stack, code.wheres[pc])
    run(st, fresh)


def _push_queued(st: State, stack: list[Frame], where: Where) -> None:
    """After an operation: the effects it triggered go on top (the first queued runs
    first); a stack too deep is a rule error placed at the operation."""
    if st.queue:
        queued = st.queue
        st.queue = []
        stack.extend(reversed(queued))
        if len(stack) > MAX_DEPTH:
            raise RuleRuntimeError(f"trigger chain deeper than {MAX_DEPTH} effects (a trigger that fires "
                                   "itself?)", code="depth").within(where)
    elif len(stack) > MAX_DEPTH:  # calls (procedures, `use`) nest frames too
        raise RuleRuntimeError(f"effects nested deeper than {MAX_DEPTH} (a procedure that calls "
                               "itself?)", code="depth").within(where)
