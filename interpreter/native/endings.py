"""End conditions and scoring lowered to C: `end_CHECK(g, me)` per check point, the
winners by `scoring:` and each seat's final score and return, as runtime/ending.py has
them.

An end condition that ends the game at once records its winners (scoring's when it
names none) and finishes; one that lets the turn or the round finish first marks the
game as ending (`g.ending`), and the turn's or round's end finishes it (statements.py).
A turn's end wins over a round's, and the first condition met keeps its reason.
"""

from __future__ import annotations

from typing import Any

from interpreter.native.expressions import Bound, NotNative, parsed
from interpreter.native.program import Program
from interpreter.native.statements import Writer


def end_checks(prog: Program, check: str) -> list[str]:
    """`end_CHECK(g, me)`: the end conditions of a check point, in order (none: no function)."""
    ends = prog.gd.ends_by_check.get(check) or ()
    if not ends:
        return []
    by_id = {str(e.get("id")): e for e in (prog.raw.get("end") or []) if isinstance(e, dict)}
    w = Writer(prog, "me")

    def body() -> None:
        for end in ends:
            spec = by_id.get(end.id)
            if spec is None:
                raise NotNative(f"end condition '{end.id}' not found in the rules")
            env = {"me": Bound("c", "me", "int")}

            def then(spec: Any = spec, end: Any = end, env: Any = env) -> None:
                if end.then != "end":  # the game ends when this turn (round) is over; a turn's end comes first
                    later = "ENDING_TURN" if end.then == "finish_turn" else "ENDING_ROUND"
                    w.block("if g.ending == 0 or g.ending == ENDING_ROUND:" if end.then == "finish_turn"
                            else "if g.ending == 0:", w.writes(f"g.ending = {later}",
                                                                f"g.ending_reason = {prog.reason(end.id)}"))
                    return
                winners = spec.get("winners")
                prog.winners_into(w, None if winners is None else parsed(winners, f"end '{end.id}'"), env)
                w.line(f"finish(g, {prog.reason(end.id)})")
                w.line("return 1")
            w.block(f"if {w.cond(parsed(spec['when'], f'end {end.id!r}'), env)}:", then)
    return [w.function(f"cdef bint end_{check}(St* g, int64_t me) noexcept nogil:", body, "return 0")]


def scoring_functions(prog: Program) -> list[str]:
    """`score_winners` (the winners by scoring: eligible players, the best key of score
    then tie-breaks; ties share) and `finalize` (each seat's score and return)."""
    scoring = prog.raw.get("scoring") or {}
    score, returns = scoring.get("score"), scoring.get("returns")
    eligible, ties = scoring.get("eligible"), list(scoring.get("tie_breaks") or [])
    keys = ([score] if score is not None else []) + ties  # (compared in order, as Python compares tuples)
    w = Writer(prog, "p")
    w.decls["p"] = "int64_t"
    w.decls["k"] = "int64_t"
    w.decls["best"] = "int64_t"
    w.decls["order"] = "int64_t"
    w.decls["ok[NPLAYERS]"] = "int64_t"
    w.decls[f"key[NPLAYERS * {max(len(keys), 1)}]"] = "double"
    env = {"p": Bound("c", "p", "int"), "me": Bound("c", "p", "int")}
    width = len(keys)

    def winners() -> None:
        # the eligible players (all without `eligible`); each one's key: the score, then the tie-breaks
        w.line("g.nwin = 0")

        def each() -> None:
            w.line("ok[p] = 1" if eligible is None else
                   f"ok[p] = {w.cond(parsed(eligible, 'scoring.eligible'), env)}")
            for k, text in enumerate(keys):  # (inside the loop: what a key writes before it depends on p)
                def one(k: int = k, text: str = text) -> None:
                    w.line(f"key[p * {width} + {k}] = <double>({w.code(parsed(text, 'scoring'), env)})")
                w.block("if ok[p]:", one)
        w.block("for p in range(NPLAYERS):", each)
        if not keys:  # every eligible player wins
            w.block("for p in range(NPLAYERS):", lambda: w.line("if ok[p]: add_winner(g, p)"))
            return

        def compare(other: str) -> None:  # order: how p's key compares with `other`'s (-1, 0, 1)
            w.line("order = 0")

            mine, theirs = f"key[p * {width} + k]", f"key[{other} * {width} + k]"
            w.block(f"for k in range({width}):", lambda: w.block(
                f"if {mine} != {theirs}:",
                w.writes(f"order = 1 if {mine} > {theirs} else -1", "break")))

        def better() -> None:
            w.line("if not ok[p]: continue")
            w.block("if best < 0:", w.writes("best = p", "continue"))
            compare("best")
            w.line("if order > 0: best = p")
        w.line("best = -1")
        w.block("for p in range(NPLAYERS):", better)

        def tied() -> None:
            w.line("if not ok[p]: continue")
            compare("best")
            w.line("if order == 0: add_winner(g, p)")
        w.block("for p in range(NPLAYERS):", tied)
    functions = [w.function("cdef void score_winners(St* g) noexcept nogil:", winners)]

    w2 = Writer(prog, "p")
    w2.decls["p"] = "int64_t"
    w2.decls["i"] = "int64_t"
    w2.decls["won"] = "int64_t"

    def final() -> None:
        w2.block("for p in range(NPLAYERS):", lambda: w2.line(
            f"g.scores[p] = <double>({w2.code(parsed(score, 'score'), env)})" if score is not None
            else "g.scores[p] = 0.0"))
        if returns is not None:
            w2.block("for p in range(NPLAYERS):", lambda: w2.line(
                f"g.rets[p] = <double>({w2.code(parsed(returns, 'returns'), env)})"))
            return
        # the engine's default: +1 each winner, -1 the others; 0 for all when everyone or no one wins
        def per_player() -> None:
            w2.line("won = 0")
            w2.block("for i in range(g.nwin):", lambda: w2.line("if g.winners[i] == p: won = 1"))
            if prog.n == 1:
                w2.line("g.rets[p] = 1.0 if g.nwin else -1.0")
            else:
                w2.line("g.rets[p] = 0.0 if (g.nwin == 0 or g.nwin == NPLAYERS) else (1.0 if won else -1.0)")
        w2.block("for p in range(NPLAYERS):", per_player)
    return [*functions, w2.function("cdef void finalize(St* g) noexcept nogil:", final)]
