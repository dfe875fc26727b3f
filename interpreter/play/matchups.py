"""Agents and seats set against each other by `orrery analyze`: duplicate deals, a
round-robin tournament and a skill ladder.

* `duplicate` (`--duplicate`): every seed (every deal) is played once per rotation of
  the seats, so each agent plays each deal from each seat. Per seed, an agent's result
  is its mean over the rotations, and it is compared with the mean of all agents on the
  same seed (a paired test): the luck of the deal, the same for everyone, cancels out.
  Each seat's (position's) rate over all rotations measures the seat with the agents
  balanced across it.
* `pairing`: agent A in one seat, agent B in every other, A's seat rotated through all
  positions on the same seeds. A's score per game is 1 for a win, 1/k for a win shared
  by k, 1/n for a draw with nobody winning, 0 for a loss; its share of the points has a
  Wilson interval and is tested against 1/n (what A would score were it no better than
  B) with an exact binomial test, honest with a handful of games.
* `tournament` (`--tournament A,B,C`): a pairing for each pair of kinds (each ordered
  pair with 3+ players: one A against many Bs is not one B against many As), as a
  matrix of A's score against B with intervals, and each kind's mean score.
* `skill_ladder` (`--ladder KIND:OPTION=V1,V2,..`): each budget against the one before
  it: a step `gains` when its interval lies above the fair share, `falls` below it,
  is `flat` across it, or `unclear` when the interval is too wide to say. A ladder
  where a step falls, or none gains and one is flat, is flagged: more search does not
  win more, so luck dominates the game or the agent is broken.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

import attrs

from interpreter.play.card_stats import won
from interpreter.play.seating import UsageError
from interpreter.play.simulate import Outcome, SimulationSpec
from interpreter.play.stats import binomial_p, wilson

SIGNIFICANT = 0.05
FLAT_LADDER = "more search does not win more: luck dominates, or the agent is broken"
TOO_FEW_FOR_LADDER = "too few games to tell whether more search wins more: play more (--games)"
UNCLEAR_WIDTH = 0.4  # a step's interval wider than this tells nothing either way

# Plays `games` games of a spec from a seed: the caller's worker machinery and progress bar.
Play = Callable[[SimulationSpec, int, int], list[Outcome]]


def parse_kinds(text: str) -> list[str]:
    """`A,B:k=v,k2=v2,C` as seat kinds: an item with `=` and no `:` is one more option
    of the kind before it."""
    kinds: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            raise UsageError(f"--tournament {text!r}: an empty kind; give kinds separated by commas, e.g. "
                             "ismcts,random")
        if "=" in item and ":" not in item and kinds:
            kinds[-1] += "," + item
        else:
            kinds.append(item)
    return kinds


def parse_ladder(text: str) -> list[str]:
    """`KIND:OPTION=V1,V2,V3[,OTHER=X]` as one seat kind per value of the option given
    several values, in the order written."""
    name, colon, rest = text.partition(":")
    if not colon or not rest:
        raise UsageError(f"--ladder {text!r}: give KIND:OPTION=V1,V2,..., e.g. ismcts:iterations=25,50,100")
    options: list[tuple[str, list[str]]] = []
    for item in (part.strip() for part in rest.split(",")):
        key, eq, value = item.partition("=")
        if eq:
            options.append((key.strip(), [value.strip()]))
        elif options and item:
            options[-1][1].append(item)
        else:
            raise UsageError(f"--ladder {text!r}: options are KEY=VALUE, the values of one of them separated by "
                             "commas")
    climbing = [(key, values) for key, values in options if len(values) > 1]
    if len(climbing) != 1 or len(climbing[0][1]) < 2:
        raise UsageError(f"--ladder {text!r}: give one option several values (two or more), e.g. "
                         "ismcts:iterations=25,50,100")
    key, values = climbing[0]
    fixed = [f"{k}={v[0]}" for k, v in options if k != key]
    return [f"{name}:{','.join([f'{key}={value}', *fixed])}" for value in values]


def rotated(seats: tuple[str, ...], r: int) -> tuple[str, ...]:
    """The seats with every agent moved `r` places on: the one at i sits at (i + r) % n."""
    n = len(seats)
    return tuple(seats[(p - r) % n] for p in range(n))


def _score(o: Outcome, seat: int, n: int) -> float:
    """1 for a win, 1/k for a win shared by k, 1/n when nobody (or everybody) wins, 0 for a loss."""
    if not o.winners or len(o.winners) == n:
        return 1 / n
    return 1 / len(o.winners) if seat in o.winners else 0.0


def duplicate(spec: SimulationSpec, first: list[Outcome], games: int, seed: int, play: Play) -> dict[str, Any]:
    """Each seed played once per rotation of the seats (`first`: rotation 0, already
    played): each agent's and each position's paired results."""
    n = spec.players
    runs = [first] + [play(attrs.evolve(spec, seats=rotated(spec.seats, r)), games, seed) for r in range(1, n)]
    by_seed = [{o.seed: o for o in run if o.error is None} for run in runs]
    seeds = sorted(set.intersection(*(set(run) for run in by_seed)))
    all_mean = [sum(won(by_seed[r][s], p, n) for r in range(n) for p in range(n)) / (n * n) for s in seeds]
    agents = []
    for i in range(n):
        per_seed = [sum(won(by_seed[r][s], (i + r) % n, n) for r in range(n)) / n for s in seeds]
        agents.append(_paired_row({"seat": i, "kind": spec.seats[i]}, per_seed, all_mean, n))
    positions = []
    for p in range(n):
        per_seed = [sum(won(by_seed[r][s], p, n) for r in range(n)) / n for s in seeds]
        positions.append(_paired_row({"seat": p}, per_seed, all_mean, n))
    return {"rotations": n, "games_per_rotation": games, "paired_seeds": len(seeds),
            "errors": sum(1 for run in runs for o in run if o.error is not None),
            "agents": agents, "positions": positions}


def _paired_row(head: dict[str, Any], values: list[float], reference: list[float], games: int) -> dict[str, Any]:
    """Mean of `values` (one per seed, each over `games` games) with its Wilson interval
    over those games, against `reference` seed by seed: a sign test (exact: how many
    seeds it beat the reference on, of those where it did not tie)."""
    mean = wilson(sum(values) * games, len(values) * games)
    diffs = [v - r for v, r in zip(values, reference, strict=True)]
    above, differ = sum(d > 0 for d in diffs), sum(d != 0 for d in diffs)
    p_value = binomial_p(above, differ, 0.5)
    expected = sum(reference) / len(reference) if reference else 0.0
    return {**head, "rate": round(mean.value, 4), "low": round(mean.low, 4), "high": round(mean.high, 4),
            "expected": round(expected, 4), "advantage": round(mean.value - expected, 4),
            "p_value": round(p_value, 4), "significant": p_value < SIGNIFICANT}


def pairing(spec: SimulationSpec, a: str, b: str, games: int, seed: int, play: Play) -> dict[str, Any]:
    """A in one seat, B in the others, A's seat rotated over every position, about
    `games` games in all (the same seeds in each rotation): A's score with its interval
    and a test against the fair share 1/n."""
    n = spec.players
    per_rotation = max(1, -(-games // n))
    scores: list[float] = []
    wins = draws = errors = 0
    for r in range(n):
        seats = tuple(a if p == r else b for p in range(n))
        for o in play(attrs.evolve(spec, seats=seats, record=False), per_rotation, seed):
            if o.error is not None:
                errors += 1
                continue
            scores.append(_score(o, r, n))
            wins += won(o, r, n)
            draws += not o.winners or len(o.winners) == n
    # The score as a share of points (a draw half a point at two seats): its Wilson
    # interval and an exact binomial test, honest with a handful of games too.
    points = sum(scores)
    mean = wilson(points, len(scores))
    p_value = binomial_p(math.floor(points + 0.5), len(scores), 1 / n)
    rate = wilson(wins, len(scores))
    return {"a": a, "b": b, "games": len(scores), "errors": errors, "wins": wins, "draws": draws,
            "score": round(mean.value, 4), "low": round(mean.low, 4), "high": round(mean.high, 4),
            "win_rate": round(rate.value, 4), "expected": round(1 / n, 4), "p_value": round(p_value, 4),
            "significant": p_value < SIGNIFICANT}


def tournament(spec: SimulationSpec, kinds: list[str], games: int, seed: int, play: Play) -> dict[str, Any]:
    """Every kind against every other, seats rotated: the row kind's score against the
    column kind, and each kind's mean score over its row."""
    n = spec.players
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for i, a in enumerate(kinds):
        for j, b in enumerate(kinds):
            if i == j or (n == 2 and j < i):
                continue
            cells[(i, j)] = {"row": i, "col": j, **pairing(spec, a, b, games, seed, play)}
            if n == 2:  # two seats: B's score against A is what A's leaves
                cell = cells[(i, j)]
                cells[(j, i)] = {**cell, "row": j, "col": i, "a": b, "b": a, "score": round(1 - cell["score"], 4),
                                 "low": round(1 - cell["high"], 4), "high": round(1 - cell["low"], 4),
                                 "wins": cell["games"] - cell["wins"] - cell["draws"],
                                 "win_rate": round((cell["games"] - cell["wins"] - cell["draws"])
                                                   / max(cell["games"], 1), 4)}
    means = []
    for i in range(len(kinds)):
        row = [float(cells[(i, j)]["score"]) for j in range(len(kinds)) if j != i]
        means.append(round(sum(row) / len(row), 4) if row else 0.0)
    order = sorted(range(len(kinds)), key=lambda i: -means[i])
    standings = [{"kind": kinds[i], "score": means[i]} for i in order]
    return {"kinds": kinds, "games_per_pairing": games, "expected": round(1 / n, 4),
            "cells": [cells[key] for key in sorted(cells)], "standings": standings}


def skill_ladder(spec: SimulationSpec, text: str, kinds: list[str], games: int, seed: int,
                 play: Play) -> dict[str, Any]:
    """Each kind of the ladder against the one before it; flagged when no step wins
    more than its fair share, or a step wins less."""
    steps = []
    for weaker, stronger in itertools.pairwise(kinds):
        step = pairing(spec, stronger, weaker, games, seed, play)
        step["verdict"] = ("gains" if step["low"] > step["expected"] else
                           "falls" if step["high"] < step["expected"] else
                           "unclear" if step["high"] - step["low"] > UNCLEAR_WIDTH else "flat")
        steps.append(step)
    verdicts = {s["verdict"] for s in steps}
    if "falls" in verdicts or ("gains" not in verdicts and "flat" in verdicts):
        return {"spec": text, "kinds": kinds, "steps": steps, "flat": True, "message": FLAT_LADDER}
    unclear = "gains" not in verdicts  # every step unclear: too few games to say either way
    return {"spec": text, "kinds": kinds, "steps": steps, "flat": False,
            "message": TOO_FEW_FOR_LADDER if unclear else ""}


def matchup_games(n: int, games: int, duplicate_on: bool, tournament_kinds: list[str] | None,
                  ladder_kinds: list[str] | None) -> int:
    """The games these matchups will play (for the progress bar)."""
    per_pairing = n * max(1, -(-games // n))
    total = (n - 1) * games if duplicate_on else 0
    if tournament_kinds:
        k = len(tournament_kinds)
        total += per_pairing * (k * (k - 1) // (2 if n == 2 else 1))
    if ladder_kinds:
        total += per_pairing * (len(ladder_kinds) - 1)
    return total
