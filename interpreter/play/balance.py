"""Table-level balance figures of `orrery analyze`: the advantage of every seat, games
that ended in a stalemate, and the shape of a game (who led when, how often the lead
changed, how many decisions were forced, how many choices a decision offers).

* `seat_advantage`: each seat's win rate against the mean rate of all seats (what it
  would be if the order gave nothing), with its 95% interval and a two-sided test: with
  3 or more players, the first seat is not the only one that may gain or lose.
* `stalemates`: games ended by an end condition the rules mark `stalemate: true` (a
  round cap, a limit on rounds without progress: a bound that keeps games finite, not a
  way they are meant to end), or stopped by the action cap. Above STALEMATE_SHARE of
  the games, it is named as a design problem: what the other figures say is then about
  games that never finished. `repeated_positions`: the games in which one position
  (whose turn, every counter, every zone's cards) came back REPEATED times or more at a
  turn's start: a game going round in circles.
* `shape`: from the scores recorded at each turn's first decision (play/recording.py),
  the lead changes, and the point from which the final winner led for good (`decided_at`:
  the share of the game's turns gone by then, 0 when it led from the start, near 1 when
  it took the lead at the very end); over every decision, the share with a single legal
  action and the mean number of legal actions (the branching factor).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from interpreter.game import Game
from interpreter.play.card_stats import won
from interpreter.play.simulate import Outcome
from interpreter.play.stats import mean_interval, rate_vs_p, wilson

SIGNIFICANT = 0.05
STALEMATE_SHARE = 0.05  # more games than this ended by a safety bound: a design problem
REPEATED = 3  # a position seen this often at a turn's first decision: the game goes round in circles
SCORE_HISTORIES_KEPT = 20  # the score score_histories a report carries (the first games): enough to chart, not a dump
ACTION_CAP = "the game did not end within"  # the runner's error for a game past the action cap


def seat_advantage(done: list[Outcome], n: int, seats: tuple[str, ...]) -> list[dict[str, Any]]:
    """Every seat's win rate against the mean of all seats, with interval and test."""
    games = len(done)
    if n < 2 or not games:
        return []
    wins = [sum(won(o, p, n) for o in done) for p in range(n)]
    expected = sum(wins) / (n * games)
    rows = []
    for p in range(n):
        iv = wilson(wins[p], games)
        p_value = rate_vs_p(wins[p], games, expected)
        rows.append({"seat": p, "kind": seats[p], "rate": round(iv.value, 4), "low": round(iv.low, 4),
                     "high": round(iv.high, 4), "expected": round(expected, 4),
                     "advantage": round(iv.value - expected, 4), "p_value": round(p_value, 4),
                     "significant": p_value < SIGNIFICANT})
    return rows


def stalemate_ends(game: Game) -> list[str]:
    """The ids of the end conditions the rules mark as a safety bound."""
    return [str(end.get("id")) for end in game.raw.get("end") or () if isinstance(end, dict) and end.get("stalemate")]


def stalemates(results: list[Outcome], bounds: list[str]) -> dict[str, Any]:
    """Games ended by a marked bound or stopped by the action cap: counted, and named as
    a design problem above STALEMATE_SHARE of the games."""
    by_reason = Counter(o.reason for o in results if o.error is None and o.reason in bounds)
    capped = sum(1 for o in results if o.error is not None and o.error.startswith(ACTION_CAP))
    count = sum(by_reason.values()) + capped
    share = count / len(results) if results else 0.0
    problem = share > STALEMATE_SHARE
    message = ""
    if problem:
        ways = [f"{k} {v}" for k, v in sorted(by_reason.items())] + ([f"action cap {capped}"] if capped else [])
        message = (f"{count} of {len(results)} games ({100 * share:.1f}%) ended by a safety bound, not by the "
                   f"game's own end ({', '.join(ways)}): these seats cannot finish the game, so the other figures "
                   "describe unfinished games")
    return {"bounds": bounds, "games": count, "share": round(share, 4), "by_reason": dict(sorted(by_reason.items())),
            "action_cap": capped, "threshold": STALEMATE_SHARE, "problem": problem, "message": message,
            "repeated_positions": sum(1 for o in results if o.error is None and o.repeats >= REPEATED)}


def _leader(scores: tuple[float, ...]) -> int | None:
    """The seat with the single best score, or None on a tie (or no scores)."""
    if not scores:
        return None
    best = max(scores)
    leaders = [p for p, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None


def game_shape(o: Outcome) -> dict[str, Any]:
    """One game's lead changes and the share of its turns after which its winner led."""
    leaders = [_leader(scores) for _, scores in o.score_history]
    changes = 0
    last: int | None = None
    for leader in leaders:
        if leader is not None and last is not None and leader != last:
            changes += 1
        if leader is not None:
            last = leader
    decided: float | None = None
    if len(o.winners) == 1 and o.score_history:
        winner = o.winners[0]
        since = len(leaders)
        while since > 0 and leaders[since - 1] == winner:
            since -= 1
        if since < len(leaders):  # the winner led alone from sample `since` on
            first, last = o.score_history[0][0], o.score_history[-1][0]
            decided = round((o.score_history[since][0] - first) / (last - first), 4) if last > first else 0.0
    return {"lead_changes": changes, "decided_at": decided}


def shape(done: list[Outcome]) -> dict[str, Any]:
    """Lead changes, when the winner took the lead for good, forced decisions and the
    branching factor, over the games that recorded them."""
    shapes = [game_shape(o) for o in done if o.score_history]
    changes = mean_interval([float(s["lead_changes"]) for s in shapes])
    decided = [s["decided_at"] for s in shapes if s["decided_at"] is not None]
    decided_iv = mean_interval(decided)
    decisions = sum(o.decisions for o in done)
    forced = sum(o.forced for o in done)
    return {
        "games": len(shapes),
        "lead_changes": {"mean": round(changes.value, 3), "low": round(max(0.0, changes.low), 3),
                         "high": round(changes.high, 3)},
        "decided_at": {"games": len(decided), "mean": round(decided_iv.value, 4), "low": round(decided_iv.low, 4),
                       "high": round(decided_iv.high, 4)},
        "decisions": decisions, "forced": forced,
        "forced_share": round(forced / decisions, 4) if decisions else 0.0,
        "branching": round(sum(o.branching for o in done) / decisions, 3) if decisions else 0.0,
        "score_histories": [{"seed": o.seed, "winners": list(o.winners),
                          "scores": [{"turn": turn, "scores": list(scores)} for turn, scores in o.score_history]}
                         for o in done[:SCORE_HISTORIES_KEPT] if o.score_history],
    }

