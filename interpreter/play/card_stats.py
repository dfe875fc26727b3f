"""Honest card statistics for `orrery analyze`: per card and action, and per power (each
card effect, trigger and modifier), how often it was played or ran, and whether the
seats that played it won more than they otherwise do.

A row's lift is the win rate of a seat in the games it played the card minus that
seat's own base win rate (so a strong seat's favourite card does not look strong only
because of the seat). With dozens of cards, some lifts look "significant" by chance
(one in twenty at p < 0.05): each lift has its p-value (the win rate against the base,
a one-sample z test) and a Benjamini-Hochberg q-value over every row of its table that
was tested, and only a q under 5% is `significant`. A row seen in fewer than
MIN_GAMES_FOR_LIFT games is counted but not tested (`tested` false, p and q null): its
interval says nothing yet. A lift is a correlation, not a cause: a card played when
one is already winning has a positive lift too.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import Any

from interpreter.game import Game
from interpreter.play.simulate import Outcome
from interpreter.play.stats import bh_q_values, normal_p, rate_vs_p, two_rates_p, wilson

FDR = 0.05  # the false discovery rate a `significant` lift is held to
MIN_GAMES_FOR_LIFT = 20  # seat-games a card, action or power is played in before its lift is tested
MIN_NEIGHBOURS = 3  # tested rows of a kind before a row is tested against their median


def won(o: Outcome, seat: int, n: int) -> bool:
    """A win for `seat`: among the winners, unless everyone won (a draw) at a table of several."""
    return seat in o.winners and (n == 1 or len(o.winners) < n)


def _iv(interval: Any) -> dict[str, float]:
    return {"rate": round(interval.value, 4), "low": round(interval.low, 4), "high": round(interval.high, 4)}


def _rows(done: list[Outcome], n: int, entries: Iterable[tuple[int, int, str, int]]) -> list[dict[str, Any]]:
    """A row per key of (game, seat, key, times): games, times, seat-games, the win rate
    in them against the seats' base rate, its p-value; q-values over the tested rows."""
    base = [sum(won(o, p, n) for o in done) / len(done) if done else 0.0 for p in range(n)]
    games_with: dict[str, set[int]] = defaultdict(set)
    times: Counter[str] = Counter()
    seat_games: dict[str, set[tuple[int, int]]] = defaultdict(set)
    for g, seat, key, count in entries:
        games_with[key].add(g)
        times[key] += count
        seat_games[key].add((g, seat))
    rows: list[dict[str, Any]] = []
    for key in sorted(times):
        pairs = seat_games[key]
        wins = sum(won(done[g], seat, n) for g, seat in pairs)
        expected = sum(base[seat] for _, seat in pairs) / len(pairs)
        kind, _, name = key.partition(" ")
        iv = wilson(wins, len(pairs))
        tested = len(pairs) >= MIN_GAMES_FOR_LIFT
        rows.append({"kind": kind, "id": name, "games": len(games_with[key]),
                     "share": round(len(games_with[key]) / len(done), 4) if done else 0.0,
                     "plays": times[key], "seat_games": len(pairs), "wins": wins, "win_rate": _iv(iv),
                     "base_rate": round(expected, 4), "lift": round(iv.value - expected, 4), "tested": tested,
                     "p_value": None, "q_value": None, "neighbours_rate": None,
                     "significant": False, "_p": None})
    _test_against_neighbours(rows)
    tested_rows = [r for r in rows if r["tested"]]
    for row, q in zip(tested_rows, bh_q_values([r["_p"] for r in tested_rows]), strict=True):
        row["q_value"] = round(q, 4)
        row["significant"] = q < FDR
    for row in rows:
        del row["_p"]
    return rows


def _test_against_neighbours(rows: list[dict[str, Any]]) -> None:
    """Each tested row's win rate against its neighbours': the median win rate of the
    tested rows of its kind (one-sample z test). Against the base rate, every ordinary
    card would look weak beside one strong card (a turn spent on it is a turn not spent
    on the strong one), and every card a winner plays more would look strong; against
    the typical card, a card is flagged only when it differs from the cards it competes
    with. With fewer than MIN_NEIGHBOURS rows of its kind, against the base rate."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    trials: Counter[str] = Counter()
    for row in rows:
        if row["tested"]:
            by_kind[row["kind"]].append(row["wins"] / row["seat_games"])
            trials[row["kind"]] += row["seat_games"]
    for row in rows:
        if not row["tested"]:
            continue
        rates = sorted(by_kind[row["kind"]])
        if len(rates) >= MIN_NEIGHBOURS:
            middle = len(rates) // 2
            reference = rates[middle] if len(rates) % 2 else (rates[middle - 1] + rates[middle]) / 2
            row["neighbours_rate"] = round(reference, 4)
            # the median is itself measured: its variance is about pi/2 that of the mean of the rows
            row["_p"] = _differs_p(row["wins"], row["seat_games"], reference, math.pi / 2 / trials[row["kind"]])
        else:
            row["_p"] = rate_vs_p(row["wins"], row["seat_games"], row["base_rate"])
        row["p_value"] = round(row["_p"], 4)


def _differs_p(wins: int, trials: int, reference: float, reference_weight: float) -> float:
    """Two-sided p that wins/trials differs from a reference rate measured with the
    variance reference*(1-reference)*reference_weight (a z test)."""
    variance = reference * (1 - reference) * (1 / trials + reference_weight)
    if variance <= 0:
        return 1.0 if wins / trials == reference else 0.0
    return normal_p((wins / trials - reference) / math.sqrt(variance))


def cards(done: list[Outcome], n: int) -> list[dict[str, Any]]:
    """Per action and card: games played in, plays, win rate when played, lift with its
    p and q; for a card also the seat-games it was held at the end without being played."""
    rows = _rows(done, n, ((g, seat, key, times) for g, o in enumerate(done) for seat, key, times in o.plays))
    played = {(g, seat, key.partition(" ")[2]) for g, o in enumerate(done) for seat, key, _ in o.plays
              if key.startswith("card ")}
    held: Counter[str] = Counter()
    for g, o in enumerate(done):
        for seat, card in o.held:
            if (g, seat, card) not in played:
                held[card] += 1
    for row in rows:
        if row["kind"] == "card":
            row["held_unplayed"] = held.get(row["id"], 0)
    rows.sort(key=_order)
    return rows


def powers(done: list[Outcome], n: int) -> list[dict[str, Any]]:
    """Per power (`effect`, `trigger` or `modifier`, by id `card.name` or a game
    trigger's id): games it ran in, how often (a modifier: turns it applied in), and the
    lift of the seats it ran for, tested as the cards are."""
    rows = _rows(done, n, ((g, seat, key, times) for g, o in enumerate(done) for seat, key, times in o.powers))
    for row in rows:
        row["card"] = row["id"].partition(".")[0] if "." in row["id"] else None
        row["runs"] = row.pop("plays")
        row["runs_per_game"] = round(row["runs"] / len(done), 3) if done else 0.0
    rows.sort(key=_order)
    return rows


def _order(row: dict[str, Any]) -> tuple[Any, ...]:
    """Cards before actions, tested rows first by q, then by the size of the lift."""
    q = row["q_value"] if row["q_value"] is not None else 2.0
    return row["kind"] == "action", not row["tested"], q, -abs(row["lift"]), row["id"]


def compare_cards(without: list[dict[str, Any]], with_: list[dict[str, Any]], games: tuple[int, int],
                  changed: set[str]) -> list[dict[str, Any]]:
    """Each card's rows of `cards` without and with the overlay, side by side: plays per
    game, win rate when played and lift, with a test of the win-rate difference. The
    cards the overlay changes come first (what a modder wants to see), then the rest by
    how much their lift moved."""
    before = {r["id"]: r for r in without if r["kind"] == "card"}
    after = {r["id"]: r for r in with_ if r["kind"] == "card"}
    rows = []
    for cid in sorted(set(before) | set(after)):
        a, b = before.get(cid), after.get(cid)

        def side(r: dict[str, Any] | None, n: int) -> dict[str, Any]:
            if r is None:
                return {"plays_per_game": 0.0, "win_rate": None, "lift": None, "games": 0}
            return {"plays_per_game": round(r["plays"] / max(n, 1), 3), "win_rate": r["win_rate"]["rate"],
                    "lift": r["lift"], "games": r["games"]}
        p_value = 1.0
        if a is not None and b is not None:
            p_value = two_rates_p(a["wins"], a["seat_games"], b["wins"], b["seat_games"])
        rows.append({"id": cid, "changed": cid in changed, "without": side(a, games[0]), "with": side(b, games[1]),
                     "p_value": round(p_value, 4), "significant": p_value < FDR})

    def moved(r: dict[str, Any]) -> float:
        la, lb = r["without"]["lift"], r["with"]["lift"]
        return abs((lb or 0.0) - (la or 0.0))
    rows.sort(key=lambda r: (not r["changed"], -moved(r), r["id"]))
    return rows


def compare_powers(without: list[dict[str, Any]], with_: list[dict[str, Any]], games: tuple[int, int],
                   changed: set[str]) -> list[dict[str, Any]]:
    """Each power the overlay adds or changes (a power of a changed card, or a changed
    game trigger), how often it ran without and with it: runs, games it ran in, runs
    per game. A new power that ran 9 times in 60 games says so."""
    before = {(r["kind"], r["id"]): r for r in without}
    after = {(r["kind"], r["id"]): r for r in with_}
    rows = []
    for kind, pid in sorted(set(before) | set(after)):
        owner = pid.partition(".")[0] if "." in pid else pid
        if owner not in changed:
            continue
        sides = []
        for r, total in ((before.get((kind, pid)), games[0]), (after.get((kind, pid)), games[1])):
            runs = r["runs"] if r else 0
            sides.append({"runs": runs, "games": r["games"] if r else 0, "of_games": total,
                          "runs_per_game": round(runs / max(total, 1), 3)})
        rows.append({"kind": kind, "id": pid, "card": owner if "." in pid else None, "without": sides[0],
                     "with": sides[1]})
    return rows


def changed_cards(base: Game, modded: Game, sections: tuple[str, ...] = ("cards",)) -> set[str]:
    """The cards an overlay adds or changes (with `sections` ("cards", "triggers"): the
    game triggers too): their merged definitions differ."""
    found: set[str] = set()
    for section in sections:
        old, new = base.raw.get(section) or {}, modded.raw.get(section) or {}
        found |= {key for key, spec in new.items() if old.get(key) != spec}
    return found
