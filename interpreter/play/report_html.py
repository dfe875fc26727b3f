"""`orrery analyze --report`: the report as one self-contained HTML page (inline CSS and
SVG charts from play/charts.py; no script, nothing fetched, readable from disk).

It opens with the answer, in the order a designer asks: what needs attention (a
stalemate problem, a seat that wins more, a flat skill ladder, the cards that differ);
with --compare-with, what the overlay changes in the rules and what that did to the
games, charted; then the skill ladder, the tournament and the seats; the details
(length, shape, scores, every card and power) come last.
"""

from __future__ import annotations

import html
from typing import Any

from interpreter.play.charts import (
    LIFT_CHART_GAMES,
    bars_with_intervals,
    histogram,
    lift_chart,
    paired_bars,
    reference_line,
    score_histories,
)
from interpreter.play.describe import render_diff

_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:62em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.sig{font-weight:bold;color:#b00}
svg text{font-size:11px}.answer{background:#f6f9fc;border-left:4px solid #3a78c2;padding:.4em 1em}
.warn{background:#fff4e5;border-left:4px solid #d9822b;padding:.4em 1em}pre{background:#f6f6f6;padding:.6em;
overflow-x:auto}details{margin:.5em 0}"""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _p(row: dict[str, Any]) -> str:
    text = f"{row['p_value']:.3f}"
    return f'<span class="sig">{text}</span>' if row["significant"] else text


def _q(row: dict[str, Any]) -> str:
    if row.get("q_value") is None:
        return "too rare" if row.get("tested") is False else "-"
    text = f"{row['q_value']:.3f}"
    return f'<span class="sig">{text}</span>' if row["significant"] else text


def _table(head: list[str], rows: list[list[Any]]) -> str:
    out = ["<table><tr>", *(f"<th>{html.escape(h)}</th>" for h in head), "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{c if str(c).startswith('<span') else html.escape(str(c))}</td>"
                                    for c in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _length_units(report: dict[str, Any]) -> tuple[str, ...]:
    """Actions, turns and rounds; not actions when no game had any (game bots in every
    seat act inside their turn effects)."""
    return ("actions", "turns", "rounds") if report["length"]["actions"]["max"] else ("turns", "rounds")


def _card_table(rows: list[dict[str, Any]], unit: str) -> str:
    """Cards, actions or powers with their lift, p and q (q under 5% in red)."""
    return _table(["", "id", "games", unit, "win rate", "95% interval", "lift", "p", "q"],
                  [[r["kind"], r["id"], r["games"], r[unit], _pct(r["win_rate"]["rate"]),
                    f"{_pct(r['win_rate']['low'])}..{_pct(r['win_rate']['high'])}", f"{100 * r['lift']:+.1f} pts",
                    "-" if r.get("p_value") is None else f"{r['p_value']:.3f}", _q(r)] for r in rows])


def findings(report: dict[str, Any]) -> list[str]:
    """What needs a designer's attention, most pressing first, in plain words."""
    out = []
    stale = report.get("stalemates") or {}
    if stale.get("problem"):
        out.append(f"Stalemates: {stale['message']}.")
    for row in report.get("seat_advantage", []):
        if row["significant"]:
            out.append(f"P{row['seat'] + 1} wins {_pct(row['rate'])} [{_pct(row['low'])}, {_pct(row['high'])}] "
                       f"against a mean of {_pct(row['expected'])} (p = {row['p_value']:.3f}).")
    dup = report.get("duplicate")
    for row in (dup or {}).get("positions", []):
        if row["significant"]:
            out.append(f"On duplicate deals seat P{row['seat'] + 1} wins {100 * row['advantage']:+.1f} pts over the "
                       f"mean with every agent sitting there in turn (p = {row['p_value']:.3f}).")
    ladder = report.get("skill_ladder")
    if ladder and ladder["message"]:
        out.append(f"Skill ladder {ladder['spec']}: {ladder['message']}.")
    flagged = [r for r in report.get("cards", []) if r["significant"] and r["kind"] == "card"]
    if flagged:
        out.append("Cards whose players win more or less than with a typical card (q < 0.05): " +
                   ", ".join(f"{r['id']} {100 * r['lift']:+.1f} pts" for r in flagged[:8]) + ".")
    cmp = report.get("compare")
    if cmp:
        moved = [f"P{r['seat'] + 1} {_pct(r['without'])} -> {_pct(r['with'])}" for r in cmp["win_rates"]
                 if r["significant"]]
        moved += [f"mean {k} {r['without']} -> {r['with']}" for k, r in cmp["length"].items() if r["significant"]]
        moved += [f"ended by {r['reason'] or '-'} {r['without']} -> {r['with']}" for r in cmp["end_reasons"]
                  if r["significant"]]
        out.append(f"With {cmp['overlay']}: " + ("; ".join(moved) + " (p < 0.05)." if moved else
                                                 "no win rate, length or ending moved significantly."))
    if not out:
        out.append("Nothing stands out at this number of games: no seat, card or stalemate differs significantly.")
    return out


def _comparison(report: dict[str, Any]) -> list[str]:
    cmp = report["compare"]
    e = html.escape
    changes = render_diff({"changes": cmp.get("changes", []), "overlays": [cmp["overlay"]]})
    units = _length_units(report)
    body = [f"<h2>What {e(cmp['overlay'])} changes</h2><pre>{e(changes)}</pre>",
            f"<h2>What it did to the games</h2><p>The same {cmp['paired_games']} seeds without and with it; "
            "p-values under 0.05 in red.</p>",
            "<h3>Win rate per seat</h3>",
            paired_bars([(f"P{r['seat'] + 1}", r["without"], r["with"]) for r in cmp["win_rates"]], percent=True),
            _table(["seat", "without", "with", "p"],
                   [[f"P{r['seat'] + 1}", _pct(r["without"]), _pct(r["with"]), _p(r)] for r in cmp["win_rates"]]),
            "<h3>Length</h3>",
            paired_bars([(f"mean {k}", r["without"], r["with"]) for k, r in cmp["length"].items() if k in units]),
            _table(["length", "without", "with", "p"],
                   [[k, r["without"], r["with"], _p(r)] for k, r in cmp["length"].items() if k in units]),
            "<h3>How games ended</h3>",
            paired_bars([(r["reason"] or "-", r["without"], r["with"]) for r in cmp["end_reasons"]], " games"),
            _table(["ended by", "without", "with", "p"],
                   [[r["reason"] or "-", r["without"], r["with"], _p(r)] for r in cmp["end_reasons"]]),
            _table(["seat", "score change", "p"], [[f"P{r['seat'] + 1}", r["change"], _p(r)] for r in cmp["scores"]])]
    changed = [r for r in cmp.get("cards", ()) if r["changed"]]
    if changed:
        body += ["<h3>The changed cards</h3><p>Win rate of a seat in the games it played the card, without and "
                 "with.</p>",
                 paired_bars([(r["id"], r["without"]["win_rate"] or 0.0, r["with"]["win_rate"] or 0.0)
                              for r in changed], percent=True)]
    if cmp.get("powers"):
        body += ["<h3>The changed powers: how often each ran</h3>",
                 _table(["power", "runs without", "games", "runs with", "games", "runs/game without", "with"],
                        [[f"{r['kind']} {r['id']}", r["without"]["runs"], r["without"]["games"], r["with"]["runs"],
                          r["with"]["games"], r["without"]["runs_per_game"], r["with"]["runs_per_game"]]
                         for r in cmp["powers"]])]
    body += ["<details><summary>Every card without and with</summary>",
             _table(["card", "plays/game without", "with", "win rate without", "with", "lift without", "with", "p"],
                    [[r["id"] + (" (changed)" if r["changed"] else ""),
                      r["without"]["plays_per_game"], r["with"]["plays_per_game"],
                      *[_pct(x["win_rate"]) if x["win_rate"] is not None else "-" for x in (r["without"], r["with"])],
                      *[f"{100 * x['lift']:+.1f} pts" if x["lift"] is not None else "-"
                        for x in (r["without"], r["with"])], _p(r)] for r in cmp.get("cards", ())]),
             "</details>"]
    return body


def _budget(kind: str, other: str) -> str:
    """The value that tells `kind` from `other` on a ladder: `ismcts:iterations=50` and
    `ismcts:iterations=25` read `50` and `25`."""
    start = next((i for i, (x, y) in enumerate(zip(kind, other, strict=False)) if x != y), min(len(kind), len(other)))
    start = kind.rfind("=", 0, start) + 1
    end = kind.find(",", start)
    return kind[start:end if end >= 0 else None] or kind


def _matchups(report: dict[str, Any]) -> list[str]:
    body: list[str] = []
    ladder = report.get("skill_ladder")
    if ladder:
        expected = ladder["steps"][0]["expected"] if ladder["steps"] else 0.5
        body += [f"<h2>Skill ladder: {html.escape(ladder['spec'])}</h2><p>Each budget's score against the one "
                 "before it (a win 1, a draw its share), seats rotated; whiskers: 95% interval; dashed: the fair "
                 "share. A step whose interval lies right of the line wins more.</p>",
                 reference_line(bars_with_intervals([(f"{_budget(s['a'], s['b'])} vs {_budget(s['b'], s['a'])}",
                                                      s["score"], s["low"], s["high"]) for s in ladder["steps"]]),
                                expected)]
        if ladder["message"]:
            body.append(f'<p class="warn">{html.escape(ladder["message"])}</p>')
    tour = report.get("tournament")
    if tour:
        kinds = tour["kinds"]
        cells = {(c["row"], c["col"]): c for c in tour["cells"]}
        rows = []
        for i, kind in enumerate(kinds):
            row: list[Any] = [kind]
            for j in range(len(kinds)):
                cell = cells.get((i, j))
                row.append("-" if cell is None else
                           (f'<span class="sig">{_pct(cell["score"])}</span>' if cell["significant"] else
                            _pct(cell["score"])) + f" [{_pct(cell['low'])}, {_pct(cell['high'])}]")
            rows.append(row)
        body += [f"<h2>Tournament</h2><p>Row's score against column (seats rotated, about "
                 f"{tour['games_per_pairing']} games per pairing, fair share {_pct(tour['expected'])}; red: differs "
                 "from it, p &lt; 0.05).</p>",
                 _table(["", *kinds], rows),
                 bars_with_intervals([(r["kind"][:22], r["score"], r["score"], r["score"]) for r in tour["standings"]])]
    dup = report.get("duplicate")
    if dup:
        body += [f"<h2>Duplicate deals</h2><p>{dup['paired_seeds']} seeds, each played in {dup['rotations']} seat "
                 "rotations: the luck of the deal is the same for everyone. Per agent and per seat, the win rate "
                 "with its 95% interval (paired by seed).</p>",
                 bars_with_intervals([(f"{r['kind']} (P{r['seat'] + 1})"[:22], r["rate"], r["low"], r["high"])
                                      for r in dup["agents"]] +
                                     [(f"seat P{r['seat'] + 1}", r["rate"], r["low"], r["high"])
                                      for r in dup["positions"]])]
    return body


def _seats(report: dict[str, Any]) -> list[str]:
    fpa = report["first_player_advantage"]
    bars = bars_with_intervals([(f"P{r['seat'] + 1} ({r['kind']})"[:22], r["rate"], r["low"], r["high"])
                                for r in report["win_rates"]])
    title = "Win rate per seat" + (" (without the overlay)" if "compare" in report else "")
    body = [f"<h2>{title}</h2><p>Bars: win rate; whiskers: 95% interval; dashed: the mean of all seats.</p>",
            reference_line(bars, fpa["expected"], label="mean"),
            f"<p>First player: {_pct(fpa['rate'])} against {_pct(fpa['expected'])} expected, p = "
            f"{_p(fpa)}. Draws: {report['draws']}.</p>"]
    if report.get("seat_advantage"):
        body.append(_table(["seat", "win rate", "95% interval", "against the mean", "p"],
                           [[f"P{r['seat'] + 1} ({r['kind']})", _pct(r["rate"]), f"{_pct(r['low'])}..{_pct(r['high'])}",
                             f"{100 * r['advantage']:+.1f} pts", _p(r)] for r in report["seat_advantage"]]))
    return body


def _details(report: dict[str, Any]) -> list[str]:
    shape = report.get("shape") or {}
    stale = report.get("stalemates") or {}
    body = ["<h2>Game length</h2>",
            histogram(report["length"]["histogram"], report["length"].get("histogram_of", "actions")),
            _table(["", "mean", "95% low", "95% high", "min", "p10", "median", "p90", "max"],
                   [[k, *(report["length"][k][c] for c in ("mean", "low", "high", "min", "p10", "median", "p90",
                                                            "max"))] for k in _length_units(report)]),
            "<h2>How games ended</h2>",
            _table(["reason", "games"], [[k or "-", v] for k, v in report["end_reasons"].items()]),
            f"<p>Stalemates (bounds: {html.escape(', '.join(stale.get('bounds', [])) or 'none marked')}, or the "
            f"action cap): {stale.get('games', 0)} ({_pct(stale.get('share', 0.0))}); games that came back to the "
            f"same position 3 times or more: {stale.get('repeated_positions', 0)}. Errors: {report['errors']}.</p>"]
    if shape.get("decisions"):
        decided = shape["decided_at"]
        body += ["<h2>Shape of a game</h2>",
                 f"<p>{shape['decisions']} decisions, {_pct(shape['forced_share'])} forced (one legal action); mean "
                 f"branching factor {shape['branching']}. Lead changes per game: {shape['lead_changes']['mean']} "
                 f"[{shape['lead_changes']['low']}, {shape['lead_changes']['high']}]."
                 + (f" The final winner led for good from {_pct(decided['mean'])} of the game on "
                    f"[{_pct(decided['low'])}, {_pct(decided['high'])}] ({decided['games']} games)."
                    if decided["games"] else "") + "</p>",
                 "<p>Each seat's score over the turns of the first games:</p>",
                 score_histories(shape.get("score_histories", []), report["players"])]
    body += ["<h2>Scores and margins</h2>",
             _table(["seat", "mean score", "95% low", "95% high"],
                    [[f"P{r['seat'] + 1}", r["mean"], r["low"], r["high"]] for r in report["margins"]["mean_scores"]]),
             f"<p>Lead of the best score over the next: mean {report['margins']['lead']['mean']} "
             f"[{report['margins']['lead']['low']}, {report['margins']['lead']['high']}].</p>",
             "<h2>Cards and actions</h2><p>Win rate of a seat in the games it played it; lift: that minus the "
             "seat's own base rate. A card is flagged (q in red) when its win rate differs from the typical card's, "
             "holding the table to a 5% false discovery rate. Bars: lift; whiskers: 95% interval; the largest lifts "
             f"either way among those played in {LIFT_CHART_GAMES} games or more.</p>",
             lift_chart(report["cards"]),
             _card_table(report["cards"], "plays"),
             "<h2>Powers</h2><p>Each card effect used, trigger fired and card modifier on (counted once per turn "
             "it applied in), by the seat it ran for.</p>",
             _card_table(report.get("powers", []), "runs")]
    return body


def render_html(report: dict[str, Any], name: str) -> str:
    """The report as one self-contained HTML page, the answer first."""
    e = html.escape
    body = [f"<h1>{e(name)}: balance report</h1>",
            f"<p>{report['games']} games ({report['completed']} ended), {report['players']} players, seats "
            f"{e(', '.join(report['seats']))}, seeds {report['seed']}..{report['seed'] + report['games'] - 1}"
            f"{', with ' + e(', '.join(report['overlays'])) if report['overlays'] else ''}.</p>",
            '<div class="answer"><h2>What stands out</h2><ul>',
            *(f"<li>{e(line)}</li>" for line in findings(report)), "</ul></div>"]
    if "compare" in report:
        body += _comparison(report)
    body += _matchups(report)
    body += _seats(report)
    body += _details(report)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{e(name)}: balance report</title>'
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")
