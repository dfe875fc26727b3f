"""`orrery analyze`: a balance report of many seeded games, with the uncertainty shown.

It plays games exactly as `simulate` does (same seeds, same worker machinery, so the
figures do not depend on --workers) with each seat's plays counted per action and per
card (`SimulationSpec.record`), and sums them up:
* `win_rates`: each seat's win rate with its 95% (Wilson) interval;
* `first_player_advantage`: the first seat's win rate against the mean of all seats,
  with a two-sided test;
* `length`: actions, turns and rounds (mean, quantiles, a histogram of actions);
* `margins`: mean scores per seat and the winner's lead over the runner-up;
* `end_reasons`, errors;
* `cards` and `powers` (play/card_stats.py): per action, card and power, how often it
  was played or ran and the lift of the seats that played it, tested against the
  typical card with a false discovery rate held to 5%;
* `seat_advantage`, `stalemates`, `shape` (play/balance.py): every seat against the
  mean, games ended by a safety bound, lead changes and forced decisions;
* `compare` (`--compare-with OVERLAY`): the same seeds again with the overlay, side by
  side, each difference tested (rates: two-proportion z test; lengths and scores:
  paired by seed), what the overlay changes in the rules, each card's plays, win rate
  and lift side by side (the cards the overlay changes first) and each changed power's
  runs;
* `duplicate`, `tournament`, `skill_ladder` (play/matchups.py): seats rotated over the
  same seeds, agents against each other, budgets against the one before.
A card or action is named by the text of the actions that played it: the first word of
an action's canonical text, and every `id#copy` in it; a game bot's seat, which plays
inside its turn effect, counts the cards whose effects it uses (`use c "..."`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import Any, TextIO

import attrs

from interpreter.game import Game
from interpreter.play.balance import seat_advantage, shape, stalemate_ends, stalemates
from interpreter.play.card_stats import cards, changed_cards, compare_cards, compare_powers, powers
from interpreter.play.describe import overlay_changes
from interpreter.play.matchups import duplicate, matchup_games, parse_ladder, skill_ladder, tournament
from interpreter.play.simulate import Backend, Outcome, Progress, SimulationSpec, game_for, outcomes, time_left
from interpreter.play.stats import mean_interval, paired_p, rate_vs_p, two_rates_p, wilson

ANALYZE_HELP = ("Play many seeded games (as simulate does) and report balance with its uncertainty: win rate per "
                "seat with 95% intervals, a first-player advantage test, game length, score margins, how games "
                "ended, and per card and action how often it was played, the win rate when played and its lift "
                "over the seat's base rate. --compare-with plays the same seeds with an overlay added and tests "
                "each difference. Seats: any kind, e.g. random, a game bot, ismcts:iterations=100.")
ANALYZE_EXAMPLE = ("example:\n  orrery analyze GAME --seats random,ismcts "
                   "--compare-with path/to/mod --report report.html")
SIGNIFICANT = 0.05
HISTOGRAM_BINS = 12


def _iv(interval: Any) -> dict[str, float]:
    return {"rate": round(interval.value, 4), "low": round(interval.low, 4), "high": round(interval.high, 4)}


def _won(o: Outcome, seat: int, n: int) -> bool:
    """A win for `seat`: among the winners, unless everyone won (a draw) at a table of several."""
    return seat in o.winners and (n == 1 or len(o.winners) < n)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _histogram(values: list[int]) -> list[dict[str, int]]:
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // HISTOGRAM_BINS))
    bins = Counter((v - low) // width for v in values)
    return [{"from": low + i * width, "to": low + (i + 1) * width - 1, "games": bins.get(i, 0)}
            for i in range((high - low) // width + 1)]


def win_rates(done: list[Outcome], n: int, seats: tuple[str, ...]) -> list[dict[str, Any]]:
    return [{"seat": p, "kind": seats[p], "wins": sum(_won(o, p, n) for o in done),
             **_iv(wilson(sum(_won(o, p, n) for o in done), len(done)))} for p in range(n)]


def first_player_advantage(done: list[Outcome], n: int) -> dict[str, Any]:
    """The first seat's win rate against the mean win rate of all seats (what it would
    be if the order gave nothing), tested two-sided."""
    games = len(done)
    wins = [sum(_won(o, p, n) for o in done) for p in range(n)]
    expected = sum(wins) / (n * games) if games else 0.0
    p_value = rate_vs_p(wins[0], games, expected) if n > 1 else 1.0
    return {"rate": round(wins[0] / games, 4) if games else 0.0, "expected": round(expected, 4),
            "p_value": round(p_value, 4), "significant": p_value < SIGNIFICANT}


def length(done: list[Outcome]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("actions", "turns", "rounds"):
        values = [float(getattr(o, key)) for o in done]
        mean = mean_interval(values)
        out[key] = {"mean": round(mean.value, 2), "low": round(mean.low, 2), "high": round(mean.high, 2),
                    "min": min(values, default=0), "p10": _quantile(values, 0.1), "median": _quantile(values, 0.5),
                    "p90": _quantile(values, 0.9), "max": max(values, default=0)}
    # game bots in every seat act inside their turn effects: then the histogram is of turns
    unit = "actions" if any(o.actions for o in done) or not done else "turns"
    out["histogram"] = _histogram([getattr(o, unit) for o in done])
    out["histogram_of"] = unit
    return out


def margins(done: list[Outcome], n: int) -> dict[str, Any]:
    """Mean score per seat (95% interval) and the lead of the best score over the next."""
    leads = [sorted(o.scores, reverse=True)[0] - sorted(o.scores, reverse=True)[1]
             for o in done if len(o.scores) > 1]
    per_seat = [mean_interval([o.scores[p] for o in done if o.scores]) for p in range(n)]
    lead = mean_interval(leads)
    return {"mean_scores": [{"seat": p, "mean": round(iv.value, 3), "low": round(iv.low, 3),
                             "high": round(iv.high, 3)} for p, iv in enumerate(per_seat)],
            "lead": {"mean": round(lead.value, 3), "low": round(lead.low, 3), "high": round(lead.high, 3),
                     "median": _quantile(leads, 0.5), "max": max(leads, default=0)}}


def summarize(spec: SimulationSpec, results: list[Outcome], seed: int,
              bounds: list[str] | None = None) -> dict[str, Any]:
    """The report of one run (`bounds`: the end conditions marked as stalemates)."""
    n = spec.players
    done = [o for o in results if o.error is None]
    failed = [o for o in results if o.error is not None]
    return {
        "game": spec.target, "overlays": list(spec.overlays), "variants": list(spec.variants),
        "players": n, "seats": list(spec.seats), "seed": seed, "games": len(results), "completed": len(done),
        "win_rates": win_rates(done, n, spec.seats),
        "draws": sum(1 for o in done if n > 1 and len(o.winners) in (0, n)),
        "first_player_advantage": first_player_advantage(done, n),
        "length": length(done),
        "margins": margins(done, n),
        "end_reasons": dict(sorted(Counter(o.reason for o in done).items())),
        "errors": len(failed),
        "error_samples": [{"seed": o.seed, "message": o.error} for o in failed[:5]],
        "cards": cards(done, n),
        "powers": powers(done, n),
        "seat_advantage": seat_advantage(done, n, spec.seats),
        "stalemates": stalemates(results, bounds or []),
        "shape": shape(done),
    }


def compare(a: list[Outcome], b: list[Outcome], n: int) -> dict[str, Any]:
    """Without (`a`) and with (`b`) the overlay, the same seeds: each difference tested."""
    da, db = [o for o in a if o.error is None], [o for o in b if o.error is None]
    seats = []
    for p in range(n):
        wa, wb = sum(_won(o, p, n) for o in da), sum(_won(o, p, n) for o in db)
        p_value = two_rates_p(wa, len(da), wb, len(db))
        seats.append({"seat": p, "without": round(wa / max(len(da), 1), 4), "with": round(wb / max(len(db), 1), 4),
                      "p_value": round(p_value, 4), "significant": p_value < SIGNIFICANT})
    by_seed_b = {o.seed: o for o in db}
    pairs = [(o, by_seed_b[o.seed]) for o in da if o.seed in by_seed_b]
    lengths = {}
    for key in ("actions", "turns", "rounds"):
        diffs = [float(getattr(y, key) - getattr(x, key)) for x, y in pairs]
        p_value = paired_p(diffs)
        lengths[key] = {"without": round(sum(getattr(x, key) for x, _ in pairs) / max(len(pairs), 1), 2),
                        "with": round(sum(getattr(y, key) for _, y in pairs) / max(len(pairs), 1), 2),
                        "p_value": round(p_value, 4), "significant": p_value < SIGNIFICANT}
    scores = []
    for p in range(n):
        diffs = [y.scores[p] - x.scores[p] for x, y in pairs if x.scores and y.scores]
        p_value = paired_p(diffs)
        scores.append({"seat": p, "change": round(sum(diffs) / max(len(diffs), 1), 3),
                       "p_value": round(p_value, 4), "significant": p_value < SIGNIFICANT})
    reasons = sorted({o.reason for o in da} | {o.reason for o in db})
    end_reasons = []
    for reason in reasons:
        ra, rb = sum(o.reason == reason for o in da), sum(o.reason == reason for o in db)
        p_value = two_rates_p(ra, len(da), rb, len(db))
        end_reasons.append({"reason": reason, "without": ra, "with": rb, "p_value": round(p_value, 4),
                            "significant": p_value < SIGNIFICANT})
    return {"paired_games": len(pairs), "win_rates": seats, "length": lengths, "scores": scores,
            "end_reasons": end_reasons}


class ProgressBar(Progress):
    """simulate's progress drawn as a bar, redrawn at most every `every` seconds and
    once at the end."""

    def __init__(self, total: int, stream: TextIO | None, label: str, every: float = 0.5):
        super().__init__(total, stream, every)
        self.label = label

    def final(self, done: int) -> bool:
        return done >= self.total

    def line(self, done: int, rate: float) -> str:
        filled = int(30 * done / max(self.total, 1))
        return (f"{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{self.total} games, {rate:.1f}/s, "
                f"{time_left(done, self.total, rate)}")


@attrs.define
class GamePlayer:
    """Plays games for one report on the run's workers or backend, moving its bar."""

    workers: int
    bar: ProgressBar
    backend: Backend | None = None
    game: Game | None = None  # the spec's game, already loaded (the first run's only)
    done: int = 0

    def __call__(self, spec: SimulationSpec, games: int, seed: int) -> list[Outcome]:
        results = []
        for outcome in outcomes(spec, games, seed, self.workers, self.game, self.backend):
            results.append(outcome)
            self.done += 1
            self.bar.update(self.done)
        self.game = None
        return results


def analyze(spec: SimulationSpec, games: int, seed: int, workers: int = 1, game: Game | None = None,
            compare_with: str | None = None, progress: TextIO | None = None,
            clock: Callable[[], float] = time.perf_counter, backend: Backend | None = None,
            duplicate_deals: bool = False, tournament_kinds: list[str] | None = None,
            ladder: str | None = None) -> dict[str, Any]:
    """Play and sum up (and, with `compare_with`, play the same seeds with that overlay;
    with `duplicate_deals`, each seed once per rotation of the seats; with
    `tournament_kinds`, a round robin of those kinds; with `ladder`, a skill ladder);
    with a `backend`, it plays the games and `workers` is its number of workers."""
    started = clock()
    ladder_kinds = parse_ladder(ladder) if ladder else None
    total = games * (2 if compare_with else 1) + matchup_games(spec.players, games, duplicate_deals,
                                                               tournament_kinds, ladder_kinds)
    bar = ProgressBar(total, progress, "analyze")
    play = GamePlayer(workers, bar, backend, game)
    recorded = attrs.evolve(spec, record=True)
    results = play(recorded, games, seed)
    base = game or game_for(spec)
    report = summarize(spec, results, seed, stalemate_ends(base))
    if compare_with:
        other = attrs.evolve(spec, overlays=(*spec.overlays, compare_with))
        with_results = play(attrs.evolve(other, record=True), games, seed)
        modded = game_for(other)  # loaded once per process
        report["with_overlay"] = summarize(other, with_results, seed, stalemate_ends(modded))
        report["compare"] = {"overlay": compare_with, **compare(results, with_results, spec.players)}
        counts = (report["completed"], report["with_overlay"]["completed"])
        report["compare"]["cards"] = compare_cards(report["cards"], report["with_overlay"]["cards"], counts,
                                                   changed_cards(base, modded))
        report["compare"]["changes"] = overlay_changes(spec.target, list(spec.variants), [compare_with],
                                                       list(spec.overlays))["changes"]
        report["compare"]["powers"] = compare_powers(report["powers"], report["with_overlay"]["powers"], counts,
                                                     changed_cards(base, modded, ("cards", "triggers")))
    if duplicate_deals:
        report["duplicate"] = duplicate(spec, results, games, seed, play)
    if tournament_kinds:
        report["tournament"] = tournament(spec, tournament_kinds, games, seed, play)
    if ladder and ladder_kinds:
        report["skill_ladder"] = skill_ladder(spec, ladder, ladder_kinds, games, seed, play)
    bar.finish()
    report["workers"] = max(1, min(workers, games))
    report["seconds"] = round(clock() - started, 3)
    return report
