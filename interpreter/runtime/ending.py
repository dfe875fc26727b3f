"""Ending and scoring: end conditions at their check points, finishing a game, and the
winners by `scoring:` (eligibility, score, tie-breaks in order; ties share the win).
A game that declares its `utility:` has its returns checked as it ends: a sum or a
bound broken is a rule error, never returns learning code would trust.

End conditions are checked in the order written, in a work-list loop, never by
recursion. `then: end` ends the game now; `finish_turn`/`finish_round` mark it as
ending, and the flow ends it when that turn or round is over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.diagnostics import RuleRuntimeError
from interpreter.runtime.errors import RULE_SLIPS, rule_error

if TYPE_CHECKING:
    from interpreter.runtime.state import State


def check_end(st: State, check: str, me: int | None = None) -> bool:
    """Evaluate the end conditions of this check point; True when the game is over.
    `me` is the player who just acted (default: the active player)."""
    ends = st.gd.ends_by_check.get(check)
    if not ends:  # most check points have no condition: nothing to evaluate
        return False
    for end in ends:
        env = {"me": st.active if me is None else me}
        try:
            if not end.when(st, env):
                continue
            winners = end.winners(st, env) if end.then == "end" and end.winners is not None else None
        except RULE_SLIPS as err:
            raise rule_error(f"end condition '{end.id}'", err) from None
        if end.then == "end":
            finish(st, winners, end.id)
            return True
        if st.ending is None or (st.ending == "round" and end.then == "finish_turn"):
            st.ending = "turn" if end.then == "finish_turn" else "round"
            st.ending_reason = end.id
    return False


def finish(st: State, winners: Any, reason: str) -> None:
    """The game is over: record the winners (scoring decides when not given)."""
    if winners is None:
        winners = score_winners(st)
    elif not isinstance(winners, list):
        winners = [winners]
    if len(winners) == 1 and type(winners[0]) is int:  # the usual case: one winner, a seat
        st.winners = [winners[0]]
    else:
        st.winners = sorted({int(w) for w in winners if w is not None})
    st.terminal = True
    st.end_reason = reason
    st.stack.clear()
    st.queue.clear()
    st.pending = None
    if st.gd.utility is not None:
        st.final_returns = returns = st.returns()  # (kept: whoever asks next gets them as they are)
        wrong = st.gd.utility.problem_with(returns)
        if wrong is not None:
            raise RuleRuntimeError(f"{wrong} (the game ended: {reason})", code="utility")


def score_winners(st: State) -> list[int]:
    """The winners by `scoring:` (eligible, score, tie-breaks; ties share the win)."""
    try:
        return _score_winners(st)
    except RULE_SLIPS as err:  # also reached when the flow ends, outside any operation
        raise rule_error("scoring", err) from None


def _score_winners(st: State) -> list[int]:
    scoring = st.gd.scoring
    players = range(st.n)
    if scoring.eligible is not None:
        players = [p for p in players if scoring.eligible(st, {"p": p, "me": p})]  # type: ignore[assignment]
    if not players:
        return []
    if scoring.score is None and not scoring.tie_breaks:
        return list(players)

    def key(p: int) -> tuple[Any, ...]:
        env = {"p": p, "me": p}
        head = (scoring.score(st, env),) if scoring.score is not None else ()
        return head + tuple(tb(st, env) for tb in scoring.tie_breaks)

    keys = {p: key(p) for p in players}
    best = max(keys.values())
    return [p for p in players if keys[p] == best]
