"""End conditions of a check point as one generated function.

`runtime.ending.check_end` walks the game's end conditions of a check point (turn or
round) in the order written: each `when` with `me` the active player, then `end` (the
winners, and the game is over) or `finish_turn`/`finish_round` (it ends when that turn
or round is over). Turn and round bookkeeping runs it at every turn's end, so here each
check point becomes one function doing the same steps with the conditions written
inline (one syntax tree, built from templates: compile/pyast.py). Statements call it
by a name bound in the game's namespace (`check_name`) as soon as they are compiled;
the name is bound to the generic walk until the end conditions are built. `check:
action` conditions stay with the generic walk (the run loop checks them).
"""

from __future__ import annotations

import ast as py
from collections.abc import Callable
from typing import Any

from interpreter.compile.pyast import E, S, Stmts, as_names, lit, name
from interpreter.compile.pysource import Emitter, uses_env
from interpreter.model import EndDef
from interpreter.runtime.ending import check_end, finish
from interpreter.runtime.errors import RULE_SLIPS, rule_error

CHECKS = ("turn", "round")


def check_name(em: Emitter, check: str) -> str:
    """The name generated code checks `check`'s end conditions by: `NAME(st)`, True
    when the game is over."""
    key = f"_check_end_{check}"
    if key not in em.ns:
        em.ns[key] = _walk(check)  # until define_checks replaces it
    return key


def _walk(check: str) -> Callable[[Any], bool]:
    def walk(st: Any) -> bool:
        return check_end(st, check)
    return walk


def _me_active(node: py.expr) -> py.expr:
    """An end condition reads `me` as the active player: no dictionary made for it."""
    out: py.expr = as_names(node, {"me": E("st.active")})
    return out


def define_checks(em: Emitter, ends: tuple[EndDef, ...]) -> None:
    """Bind each check point's name to its generated function (as check_end)."""
    slips, error = em.const(RULE_SLIPS, "RULE_SLIPS"), em.const(rule_error, "rule_error")
    end_game = em.const(finish, "finish")
    for check in CHECKS:
        fname = check_name(em, check)
        body: Stmts = []
        for end in (e for e in ends if e.check == check):
            winners = end.then == "end" and end.winners is not None
            when = _me_active(em.inline(end.when, "end"))
            chosen = _me_active(em.inline(end.winners, "end")) if end.winners is not None else None
            if uses_env(when) or (winners and uses_env(chosen)):
                body += S("env = {{'me': st.active}}")
            pick = S("if hit:\n    winners = {chosen}", chosen=chosen) if winners else []
            body += S("""
                try:
                    hit = {when}
                    {pick}
                except {slips} as err:
                    raise {error}({what}, err) from None
                """, when=when, pick=pick, slips=slips, error=error, what=lit(f"end condition '{end.id}'"))
            if end.then == "end":
                body += S("if hit:\n    {end_game}(st, {found}, {id})\n    return True", end_game=end_game,
                          found=name("winners") if winners else None, id=lit(end.id))
                continue
            later = "turn" if end.then == "finish_turn" else "round"
            test = E("st.ending is None or st.ending == 'round'") if end.then == "finish_turn" else \
                E("st.ending is None")
            body += S("""
                if hit:
                    if {test}:
                        st.ending = {later}
                        st.ending_reason = {id}
                """, test=test, later=lit(later), id=lit(end.id))
        em.define(S("def {fname}(st):\n    {body}\n    return False", fname=fname, body=body), f"end ({check})")
