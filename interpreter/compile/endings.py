"""End conditions of a check point as one generated function.

`runtime.ending.check_end` walks the game's end conditions of a check point (turn or
round) in the order written: each `when` with `me` the active player, then `end` (the
winners, and the game is over) or `finish_turn`/`finish_round` (it ends when that turn
or round is over). Turn and round bookkeeping runs it at every turn's end, so here each
check point becomes one function doing the same steps with the conditions written
inline. Statements call it by a name bound in the game's namespace (`check_name`) as
soon as they are compiled; the name is bound to the generic walk until the end
conditions are built. `check: action` conditions stay with the generic walk (the run
loop checks them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compile.pysource import Emitter, as_names, uses_env
from interpreter.model import EndDef
from interpreter.runtime.ending import check_end, finish
from interpreter.runtime.errors import RULE_SLIPS, rule_error

CHECKS = ("turn", "round")
_ME_ACTIVE = {"me": "st.active"}  # an end condition reads `me` as the active player: no dictionary made for it


def check_name(em: Emitter, check: str) -> str:
    """The name generated code checks `check`'s end conditions by: `NAME(st)`, True
    when the game is over."""
    name = f"_check_end_{check}"
    if name not in em.ns:
        em.ns[name] = _walk(check)  # until define_checks replaces it
    return name


def _walk(check: str) -> Callable[[Any], bool]:
    def walk(st: Any) -> bool:
        return check_end(st, check)
    return walk


def define_checks(em: Emitter, ends: tuple[EndDef, ...]) -> None:
    """Bind each check point's name to its generated function (as check_end)."""
    slips, error = em.const(RULE_SLIPS, "RULE_SLIPS"), em.const(rule_error, "rule_error")
    end_game = em.const(finish, "finish")
    for check in CHECKS:
        name = check_name(em, check)
        lines = [f"def {name}(st):"]
        for number, end in enumerate(e for e in ends if e.check == check):
            what = f"end condition '{end.id}'"
            winners = end.then == "end" and end.winners is not None
            when = as_names(em.inline(end.when, "end"), _ME_ACTIVE)
            chosen = as_names(em.inline(end.winners, "end"), _ME_ACTIVE) if end.winners is not None else ""
            env = ["    env = {'me': st.active}"] if uses_env(when) or (winners and uses_env(chosen)) else []
            lines += [f"    # the end condition numbered {number} here", *env, "    try:", f"        hit = {when}"]
            if winners:
                lines += ["        if hit:", f"            winners = {chosen}"]
            lines += [f"    except {slips} as err:", f"        raise {error}({what!r}, err) from None", "    if hit:"]
            if end.then == "end":
                found = "winners" if winners else "None"
                lines += [f"        {end_game}(st, {found}, {end.id!r})", "        return True"]
                continue
            later = "turn" if end.then == "finish_turn" else "round"
            test = "st.ending is None" + (" or st.ending == 'round'" if end.then == "finish_turn" else "")
            lines += [f"        if {test}:", f"            st.ending = {later!r}",
                      f"            st.ending_reason = {end.id!r}"]
        lines.append("    return False")
        em.define("\n".join(lines) + "\n", name, f"end ({check})")
