"""The bookkeeping around a `turn P:` or `round:` block, as run-loop operations.

A turn sets the active player and counts the turn, fires turn_start, runs its body,
fires turn_end, drops the grants that last the turn and checks the end conditions
checked at a turn's end (or finishes a game waiting for the turn's end), then gives the
turn back to the player before it. A round does the same with its own counter, events
and checks. What the rules never do (compile/never.py: no trigger names the event, no
end condition is checked there) is left out of the generated statements; an unheard
turn_end or round_end keeps its operation, empty, so positions in saves do not move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.compile.endings import check_name
from interpreter.compile.fusion import OpSource, draws_random
from interpreter.compile.pyast import E, S, Stmts, lit, name
from interpreter.lang import ast
from interpreter.runtime.ending import finish
from interpreter.runtime.errors import HorizonReached
from interpreter.runtime.events import fire

if TYPE_CHECKING:
    from interpreter.compile.statements import CodeBuilder


def emit_turn(b: CodeBuilder, node: ast.Turn) -> None:
    """A `turn P:` block: the turn's start, its body, the turn_end triggers, its end."""
    player, saved = b.src(node.player, "player"), lit(b.hidden("prev"))
    fire_, check = b.const(fire, "fire"), name(check_name(b.ctx.emitter, "turn"))
    end = b.const(finish, "finish")
    horizon = b.const(HorizonReached, "HorizonReached")
    sym = b.ctx.symbols
    start = S("""
        if st.stop_turn is not None and st.turn_no + 1 >= st.stop_turn:
            raise {horizon}()
        _p = {player}
        env[{saved}] = st.active
        st.active = _p
        st.turn_no += 1
        """, horizon=horizon, player=player, saved=saved)
    if "turn" in sym.limited:  # (else no action counts its uses per turn: the counts stay empty)
        start += S("st.uses['turn'] = {{}}")
    # The turn_end triggers run first, still inside the turn (its player active, its
    # grants on), so what they change counts for the end conditions checked next.
    _block(b, node, start, ("turn_start", S("{fire}(st, 'turn_start', -1, {{'player': _p}})", fire=fire_)),
           ("turn_end", S("{fire}(st, 'turn_end', -1, {{'player': st.active}})", fire=fire_)),
           not draws_random(node.player))
    # Then, in this order, only what can happen: an end checked here, one waiting for
    # the turn's end; else the turn goes back to the player before it. (Built inside
    # out: each test wraps what follows it as its else.)
    rest = S("st.active = env.pop({saved})", saved=saved)
    ends = False
    if not sym.nothing_deferred:
        rest = S("""
            if st.ending == 'turn':
                {finish}(st, None, st.ending_reason or 'finish-turn')
            else:
                {rest}
            """, finish=end, rest=rest)
        ends = True
    if "turn" not in sym.unchecked:
        rest = S("if {check}(st):\n    pass\nelse:\n    {rest}", check=check, rest=rest)
        ends = True
    ending = S("""
        if st.grants:
            st.grants = [g for g in st.grants if g.until != 'turn']
        {rest}
        """, rest=rest)
    b.emit_src(node, OpSource(ending, ends=ends))


def emit_round(b: CodeBuilder, node: ast.Round) -> None:
    """A `round:` block: the round's start, its body, the round_end triggers, its end."""
    fire_ = b.const(fire, "fire")
    sym = b.ctx.symbols
    # As for turns: end-of-round hooks run first (also in the game's last round),
    # then the round's end conditions are checked.
    start = S("st.round_no += 1")
    if "round" in sym.limited:
        start += S("st.uses['round'] = {{}}")
    _block(b, node, start, ("round_start", S("{fire}(st, 'round_start', -1, {{}})", fire=fire_)),
           ("round_end", S("{fire}(st, 'round_end', -1, {{}})", fire=fire_)))
    check, end = name(check_name(b.ctx.emitter, "round")), b.const(finish, "finish")
    ending = S("if st.grants:\n    st.grants = [g for g in st.grants if g.until != 'round']")
    checked = "round" not in sym.unchecked
    if not sym.nothing_deferred:
        test = E("not {check}(st) and st.ending is not None", check=check) if checked else \
            E("st.ending is not None")
        ending += S("if {test}:\n    {end}(st, None, st.ending_reason or 'finish-round')", test=test, end=end)
    elif checked:
        ending += S("{check}(st)", check=check)
    b.emit_src(node, OpSource(ending, ends=checked or not sym.nothing_deferred))


def _block(b: CodeBuilder, node: ast.Turn | ast.Round, start: Stmts, starting: tuple[str, Stmts],
           ending: tuple[str, Stmts], fusible: bool = True) -> None:
    """The block's start (`start`, then its event's triggers when some trigger names
    it: `starting` is the event and the line firing it), its body one scope deeper, and
    its end event's operation (`ending`), empty when no trigger names it, so positions
    in saves stay where they were. (A trigger named is one the game listens to: both
    come from the same `on:` texts, so the line fires with no test of `gd_listens`.)"""
    may_hear = b.ctx.symbols.may_hear
    event, call = starting
    heard = may_hear(event)
    b.emit_src(node, OpSource([*start, *call] if heard else start, fires=heard), fusible)
    b.scope_depth += 1
    b.block(node.body)
    b.scope_depth -= 1
    event, call = ending
    b.emit_src(node, OpSource(call, fires=True) if may_hear(event) else OpSource([]))
