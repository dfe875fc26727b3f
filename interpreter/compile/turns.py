"""The bookkeeping around a `turn P:` or `round:` block, as run-loop operations.

A turn sets the active player and counts the turn, fires turn_start, runs its body,
fires turn_end, drops the grants that last the turn and checks the end conditions
checked at a turn's end (or finishes a game waiting for the turn's end), then gives the
turn back to the player before it. A round does the same with its own counter, events
and checks. What the rules never do (compile/never.py: no trigger names the event, no
end condition is checked there) is left out of the generated lines; an unheard
turn_end or round_end keeps its operation, empty, so positions in saves do not move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compile.endings import check_name
from interpreter.compile.fusion import OpSource, draws_random
from interpreter.lang import ast
from interpreter.runtime.ending import finish
from interpreter.runtime.errors import HorizonReached
from interpreter.runtime.events import fire

if TYPE_CHECKING:
    from interpreter.compile.statements import CodeBuilder


def emit_turn(b: CodeBuilder, node: ast.Turn) -> None:
    """A `turn P:` block: the turn's start, its body, the turn_end triggers, its end."""
    player, saved = b.src(node.player, "player"), b.hidden("prev")
    fire_, check = b.const(fire, "fire"), check_name(b.ctx.emitter, "turn")
    end = b.const(finish, "finish")
    horizon = b.const(HorizonReached, "HorizonReached")
    sym = b.ctx.symbols
    start = ["if st.stop_turn is not None and st.turn_no + 1 >= st.stop_turn:", f"    raise {horizon}()",
             f"_p = {player}", f"env[{saved!r}] = st.active", "st.active = _p", "st.turn_no += 1"]
    if "turn" in sym.limited:  # (else no action counts its uses per turn: the counts stay empty)
        start.append("st.uses['turn'] = {}")
    # The turn_end triggers run first, still inside the turn (its player active, its
    # grants on), so what they change counts for the end conditions checked next.
    _block(b, node, start, ("turn_start", f"{fire_}(st, 'turn_start', -1, {{'player': _p}})"),
           ("turn_end", f"{fire_}(st, 'turn_end', -1, {{'player': st.active}})"), not draws_random(node.player))
    ending = ["if st.grants:", "    st.grants = [g for g in st.grants if g.until != 'turn']"]
    branch = "if"  # (tests only of what can happen: an end checked here, one waiting for the turn's end)
    if "turn" not in sym.unchecked:
        ending += [f"if {check}(st):", "    pass"]
        branch = "elif"
    if not sym.nothing_deferred:
        ending += [f"{branch} st.ending == 'turn':", f"    {end}(st, None, st.ending_reason or 'finish-turn')"]
        branch = "elif"
    ending += ["else:", f"    st.active = env.pop({saved!r})"] if branch == "elif" else \
        [f"st.active = env.pop({saved!r})"]
    b.emit_src(node, OpSource(ending, ends=branch == "elif"))


def emit_round(b: CodeBuilder, node: ast.Round) -> None:
    """A `round:` block: the round's start, its body, the round_end triggers, its end."""
    fire_ = b.const(fire, "fire")
    sym = b.ctx.symbols
    # As for turns: end-of-round hooks run first (also in the game's last round),
    # then the round's end conditions are checked.
    _block(b, node, ["st.round_no += 1", *(["st.uses['round'] = {}"] if "round" in sym.limited else [])],
           ("round_start", f"{fire_}(st, 'round_start', -1, {{}})"),
           ("round_end", f"{fire_}(st, 'round_end', -1, {{}})"))
    check, end = check_name(b.ctx.emitter, "round"), b.const(finish, "finish")
    ending = ["if st.grants:", "    st.grants = [g for g in st.grants if g.until != 'round']"]
    checked = "round" not in sym.unchecked
    if not sym.nothing_deferred:
        test = f"not {check}(st) and st.ending is not None" if checked else "st.ending is not None"
        ending += [f"if {test}:", f"    {end}(st, None, st.ending_reason or 'finish-round')"]
    elif checked:
        ending += [f"{check}(st)"]
    b.emit_src(node, OpSource(ending, ends=checked or not sym.nothing_deferred))


def _block(b: CodeBuilder, node: ast.Turn | ast.Round, start: list[str], starting: tuple[str, str],
           ending: tuple[str, str], fusible: bool = True) -> None:
    """The block's start (`start`, then its event's triggers when some trigger names
    it: `starting` is the event and the line firing it), its body one scope deeper, and
    its end event's operation (`ending`), empty when no trigger names it, so positions
    in saves stay where they were. (A trigger named is one the game listens to: both
    come from the same `on:` texts, so the line fires with no test of `gd_listens`.)"""
    may_hear = b.ctx.symbols.may_hear
    event, call = starting
    heard = may_hear(event)
    b.emit_src(node, OpSource([*start, call] if heard else start, fires=heard), fusible)
    b.scope_depth += 1
    b.block(node.body)
    b.scope_depth -= 1
    event, call = ending
    b.emit_src(node, OpSource([call], fires=True) if may_hear(event) else OpSource([]))
