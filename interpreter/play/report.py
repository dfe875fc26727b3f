"""How an `orrery analyze` report is shown: as text for the terminal, and as one
self-contained HTML file (inline CSS and SVG charts drawn here, no script, no
network, no plotting library), readable from disk without a server."""

from __future__ import annotations

import html
from typing import Any

TOP_CARDS = 15
MIN_GAMES_FOR_LIFT = 20  # as card_stats says (not imported: this module only shows a report)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def render_text(report: dict[str, Any], name: str, written_to: str | None = None) -> str:
    """The report for people, in a terminal."""
    n = report["players"]
    lines = [f"{name}: {report['games']} games ({report['completed']} ended), {n} players, "
             f"seeds {report['seed']}..{report['seed'] + report['games'] - 1}, {report['workers']} worker(s)"]
    lines.append("Win rate per seat (95% interval):")
    for row in report["win_rates"]:
        lines.append(f"  P{row['seat'] + 1} ({row['kind']}): {_pct(row['rate'])} [{_pct(row['low'])}, "
                     f"{_pct(row['high'])}]")
    fpa = report["first_player_advantage"]
    verdict = "significant" if fpa["significant"] else "not significant"
    lines.append(f"First player: {_pct(fpa['rate'])} against {_pct(fpa['expected'])} expected "
                 f"(p = {fpa['p_value']:.3f}, {verdict})")
    for row in report.get("seat_advantage", []):
        if row["seat"] == 0 and len(report["seat_advantage"]) == 2:
            break  # two seats: the first player's line says it all
        lines.append(f"  P{row['seat'] + 1} advantage: {100 * row['advantage']:+.1f} pts over the mean "
                     f"{_pct(row['expected'])} (p = {row['p_value']:.3f}){' *' if row['significant'] else ''}")
    lines.append(f"Draws: {report['draws']}")
    lines.extend(_stalemate_text(report.get("stalemates")))
    length = report["length"]
    for key in ("actions", "turns", "rounds"):
        row = length[key]
        if key == "actions" and row["max"] == 0:
            continue  # game bots in every seat: they act inside their turn effects, not by actions
        lines.append(f"Length in {key}: mean {row['mean']} [{row['low']}, {row['high']}], "
                     f"median {row['median']}, p10 {row['p10']}, p90 {row['p90']}, range {row['min']}..{row['max']}")
    lines.extend(_shape_text(report.get("shape")))
    lead = report["margins"]["lead"]
    lines.append(f"Lead of the best score over the next: mean {lead['mean']} [{lead['low']}, {lead['high']}]")
    reasons = ", ".join(f"{k or '-'} {v}" for k, v in report["end_reasons"].items())
    lines.append(f"Ended by: {reasons or '-'}")
    lines.append(f"Errors: {report['errors']}")
    for sample in report["error_samples"]:
        lines.append(f"  seed {sample['seed']}: {sample['message']}")
    lines.extend(_cards_text(report.get("cards", []), "Cards and actions", "plays"))
    lines.extend(_cards_text(report.get("powers", []), "Powers (card effects, triggers, modifiers)", "runs"))
    if "compare" in report:
        lines.extend(_compare_text(report["compare"]))
    lines.extend(matchup_text(report))
    lines.append(f"Time: {report['seconds']} s")
    if written_to:
        lines.append(f"Report written to {written_to}")
    return "\n".join(lines)


def _interval(row: dict[str, Any], key: str = "rate") -> str:
    return f"{_pct(row[key])} [{_pct(row['low'])}, {_pct(row['high'])}]"


def matchup_text(report: dict[str, Any]) -> list[str]:
    """Duplicate deals, the tournament and the skill ladder, as text."""
    lines = []
    dup = report.get("duplicate")
    if dup:
        lines.append(f"Duplicate deals: {dup['paired_seeds']} seeds, each played in {dup['rotations']} seat rotations "
                     "(paired by seed; * p < 0.05):")
        for row in dup["agents"]:
            lines.append(f"  {row['kind']} (from P{row['seat'] + 1}): wins {_interval(row)}, "
                         f"{100 * row['advantage']:+.1f} pts over the mean (p = {row['p_value']:.3f})"
                         f"{' *' if row['significant'] else ''}")
        for row in dup["positions"]:
            lines.append(f"  seat P{row['seat'] + 1}, every agent in turn: wins {_interval(row)}, "
                         f"{100 * row['advantage']:+.1f} pts (p = {row['p_value']:.3f})"
                         f"{' *' if row['significant'] else ''}")
    tour = report.get("tournament")
    if tour:
        lines.append(f"Tournament (row's score against column, seats rotated, fair share {_pct(tour['expected'])}):")
        for cell in tour["cells"]:
            lines.append(f"  {cell['a']} vs {cell['b']}: {_interval(cell, 'score')} over {cell['games']} games"
                         f"{' *' if cell['significant'] else ''}")
        lines.append("  standings: " + ", ".join(f"{r['kind']} {_pct(r['score'])}" for r in tour["standings"]))
    ladder = report.get("skill_ladder")
    if ladder:
        lines.append(f"Skill ladder {ladder['spec']} (each budget's score against the one before it):")
        for step in ladder["steps"]:
            lines.append(f"  {step['a']} vs {step['b']}: {_interval(step, 'score')} over {step['games']} games: "
                         f"{step['verdict']}")
        if ladder["flat"]:
            lines.append(f"  FLAT LADDER: {ladder['message']}")
    return lines


def _stalemate_text(stalemates: dict[str, Any] | None) -> list[str]:
    if not stalemates or not (stalemates["games"] or stalemates["bounds"]):
        return []
    if stalemates["problem"]:
        return [f"STALEMATES, a design problem: {stalemates['message']}"]
    return [f"Stalemates (ended by {', '.join(stalemates['bounds']) or 'the action cap'}): {stalemates['games']} "
            f"({_pct(stalemates['share'])})"]


def _shape_text(shape: dict[str, Any] | None) -> list[str]:
    if not shape or not shape["decisions"]:
        return []
    lines = [f"Decisions: {shape['decisions']}, {_pct(shape['forced_share'])} forced (one legal action), "
             f"mean branching factor {shape['branching']}"]
    if shape["games"]:
        decided = shape["decided_at"]
        when = (f"; the winner led for good from {_pct(decided['mean'])} of the game on "
                f"[{_pct(decided['low'])}, {_pct(decided['high'])}] ({decided['games']} games with one winner "
                "who led at the end)") if decided["games"] else ""
        lines.append(f"Lead changes per game: {shape['lead_changes']['mean']} [{shape['lead_changes']['low']}, "
                     f"{shape['lead_changes']['high']}]{when}")
    return lines


def _cards_text(rows: list[dict[str, Any]], title: str, unit: str) -> list[str]:
    """The tested rows by q-value (* when significant at a 5% false discovery rate), and
    how many were too rare to test."""
    tested = [r for r in rows if r.get("tested", True)]
    rare = len(rows) - len(tested)
    if not rows:
        return []
    lines = [f"{title}: lift over the seat's base rate, p and Benjamini-Hochberg q "
             f"(* q < 0.05; top {min(TOP_CARDS, len(tested))} of {len(tested)} tested):"]
    for row in tested[:TOP_CARDS]:
        wr = row["win_rate"]
        q = row.get("q_value")
        test = f" (p = {row['p_value']:.3f}, q = {q:.3f}){' *' if row['significant'] else ''}" if q is not None else ""
        held = f", held unplayed {row['held_unplayed']}" if row.get("held_unplayed") else ""
        lines.append(f"  {row['kind']} {row['id']}: in {_pct(row['share'])} of games, {row[unit]} {unit}{held}, "
                     f"wins {_pct(wr['rate'])} [{_pct(wr['low'])}, {_pct(wr['high'])}], "
                     f"lift {100 * row['lift']:+.1f} pts{test}")
    if rare:
        lines.append(f"  ({rare} more seen in fewer than {MIN_GAMES_FOR_LIFT} seat-games: counted, too rare to test)")
    flagged = sum(1 for r in tested if r["significant"])
    lines.append(f"  {flagged} of {len(tested)} tested differ from their seat's base rate (q < 0.05)")
    return lines


def _compare_text(cmp: dict[str, Any]) -> list[str]:
    def mark(row: dict[str, Any]) -> str:
        return " *" if row["significant"] else ""

    lines = [f"With {cmp['overlay']} (same {cmp['paired_games']} seeds; * p < 0.05):"]
    for row in cmp["win_rates"]:
        lines.append(f"  P{row['seat'] + 1} win rate: {_pct(row['without'])} -> {_pct(row['with'])} "
                     f"(p = {row['p_value']:.3f}){mark(row)}")
    for key, row in cmp["length"].items():
        if row["without"] == row["with"] == 0:
            continue
        lines.append(f"  mean {key}: {row['without']} -> {row['with']} (p = {row['p_value']:.3f}){mark(row)}")
    for row in cmp["scores"]:
        lines.append(f"  P{row['seat'] + 1} score change: {row['change']:+} (p = {row['p_value']:.3f}){mark(row)}")
    for row in cmp["end_reasons"]:
        lines.append(f"  ended by {row['reason'] or '-'}: {row['without']} -> {row['with']} "
                     f"(p = {row['p_value']:.3f}){mark(row)}")
    rows = [r for r in cmp.get("cards", ()) if r["changed"]] or cmp.get("cards", [])[:3]
    for row in rows + [r for r in cmp.get("cards", [])[:TOP_CARDS // 2] if not r["changed"] and r not in rows]:
        lines.append(f"  card {row['id']}{' (changed)' if row['changed'] else ''}: "
                     f"{_card_side(row['without'])} -> {_card_side(row['with'])} (p = {row['p_value']:.3f}){mark(row)}")
    for row in cmp.get("powers", ()):
        lines.append(f"  {row['kind']} {row['id']} (changed): {_power_side(row['without'])} -> "
                     f"{_power_side(row['with'])}")
    return lines


def _power_side(side: dict[str, Any]) -> str:
    if not side["runs"]:
        return "never ran"
    return f"ran {side['runs']} times in {side['games']} of {side['of_games']} games"


def _card_side(side: dict[str, Any]) -> str:
    if side["win_rate"] is None:
        return "never played"
    return (f"{side['plays_per_game']} plays/game, wins {_pct(side['win_rate'])}, "
            f"lift {100 * side['lift']:+.1f} pts")


# ---- HTML ----------------------------------------------------------------------------------

_CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:60em;color:#222}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}.sig{font-weight:bold;color:#b00}
svg text{font-size:11px}"""


def _bars_with_intervals(rows: list[tuple[str, float, float, float]], width: int = 520) -> str:
    """Horizontal bars in [0, 1] with their interval drawn as a whisker."""
    h = 22
    left = 150
    scale = width - left - 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h * len(rows) + 20}">']
    for i, (label, value, low, high) in enumerate(rows):
        y = 5 + i * h
        parts.append(f'<text x="0" y="{y + 13}">{html.escape(label)}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{value * scale:.1f}" height="16" fill="#6a9fd4"/>')
        parts.append(f'<line x1="{left + low * scale:.1f}" x2="{left + high * scale:.1f}" y1="{y + 8}" '
                     f'y2="{y + 8}" stroke="#222" stroke-width="2"/>')
        parts.append(f'<text x="{left + max(value, high) * scale + 4:.1f}" y="{y + 13}">{_pct(value)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _histogram(bins: list[dict[str, int]], unit: str = "actions", width: int = 520, height: int = 160) -> str:
    if not bins:
        return "<p>(no games ended)</p>"
    top = max(b["games"] for b in bins) or 1
    bar = (width - 20) / len(bins)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 30}">']
    for i, b in enumerate(bins):
        h = (height - 10) * b["games"] / top
        x = 10 + i * bar
        parts.append(f'<rect x="{x:.1f}" y="{height - h:.1f}" width="{bar - 2:.1f}" height="{h:.1f}" fill="#8bc28b">'
                     f'<title>{b["from"]}..{b["to"]} {unit}: {b["games"]} games</title></rect>')
        if i % max(1, len(bins) // 6) == 0:
            parts.append(f'<text x="{x:.1f}" y="{height + 14}">{b["from"]}</text>')
    parts.append(f'<text x="{width / 2 - 30:.0f}" y="{height + 28}">{unit} per game</text></svg>')
    return "".join(parts)


LIFT_CHART_ROWS = 25  # the cards and actions charted: the largest lifts either way
LIFT_CHART_GAMES = 10  # ... of those played in at least this many games (fewer: the interval says nothing)


def _lift_chart(cards: list[dict[str, Any]], width: int = 620) -> str:
    """Each card's (or action's) lift over its seat's base rate as a bar either side of
    zero, with its 95% interval as a whisker (the win rate's interval moved by the same
    base): the cards that move a game most, up or down, first."""
    rows = [r for r in cards if r.get("lift") is not None and r["win_rate"]["rate"] is not None
            and r["games"] >= LIFT_CHART_GAMES and r.get("tested", True)]
    if not rows:
        return f"<p>(no card or action was played in {LIFT_CHART_GAMES} games or more)</p>"
    rows = sorted(rows, key=lambda r: -abs(r["lift"]))[:LIFT_CHART_ROWS]
    rows.sort(key=lambda r: -r["lift"])
    spans = []
    for r in rows:
        base = r["win_rate"]["rate"] - r["lift"]
        spans.append((r["win_rate"]["low"] - base, r["win_rate"]["high"] - base))
    reach = max(0.05, max(max(abs(lo), abs(hi)) for lo, hi in spans))
    h, left = 20, 190
    half = (width - left - 50) / 2
    zero = left + half
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h * len(rows) + 30}">',
             f'<line x1="{zero:.1f}" x2="{zero:.1f}" y1="0" y2="{h * len(rows) + 5}" stroke="#888"/>']
    for i, (r, (low, high)) in enumerate(zip(rows, spans, strict=True)):
        y = 5 + i * h
        lift = r["lift"]
        x0, x1 = sorted((zero, zero + lift / reach * half))
        color = "#6a9fd4" if lift >= 0 else "#d98c6a"
        label = f"{r['kind']} {r['id']}"
        parts.append(f'<text x="0" y="{y + 12}">{html.escape(label[:30])}</text>')
        parts.append(f'<rect x="{x0:.1f}" y="{y}" width="{x1 - x0:.1f}" height="14" fill="{color}">'
                     f'<title>{html.escape(label)}: lift {100 * lift:+.1f} pts over {r["plays"]} plays</title></rect>')
        parts.append(f'<line x1="{zero + low / reach * half:.1f}" x2="{zero + high / reach * half:.1f}" '
                     f'y1="{y + 7}" y2="{y + 7}" stroke="#222" stroke-width="1.5"/>')
    axis = h * len(rows) + 22
    parts.append(f'<text x="{zero - 110:.0f}" y="{axis}">lower win rate</text>'
                 f'<text x="{zero + 8:.0f}" y="{axis}">higher win rate (edge: {100 * reach:.0f} pts)</text></svg>')
    return "".join(parts)


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


def _p(row: dict[str, Any]) -> str:
    text = f"{row['p_value']:.3f}"
    return f'<span class="sig">{text}</span>' if row["significant"] else text


def _q(row: dict[str, Any]) -> str:
    if row.get("q_value") is None:
        return "too rare" if row.get("tested") is False else "-"
    text = f"{row['q_value']:.3f}"
    return f'<span class="sig">{text}</span>' if row["significant"] else text


def _card_table(rows: list[dict[str, Any]], unit: str) -> str:
    """Cards, actions or powers with their lift, p and q (q under 5% in red)."""
    return _table(["", "id", "games", unit, "win rate", "95% interval", "lift", "p", "q"],
                  [[r["kind"], r["id"], r["games"], r[unit], _pct(r["win_rate"]["rate"]),
                    f"{_pct(r['win_rate']['low'])}..{_pct(r['win_rate']['high'])}", f"{100 * r['lift']:+.1f} pts",
                    "-" if r.get("p_value") is None else f"{r['p_value']:.3f}", _q(r)] for r in rows])


def render_html(report: dict[str, Any], name: str) -> str:
    """The report as one self-contained HTML page."""
    e = html.escape
    fpa = report["first_player_advantage"]
    body = [f"<h1>{e(name)}: balance report</h1>",
            f"<p>{report['games']} games ({report['completed']} ended), {report['players']} players, seats "
            f"{e(', '.join(report['seats']))}, seeds {report['seed']}..{report['seed'] + report['games'] - 1}"
            f"{', with ' + e(', '.join(report['overlays'])) if report['overlays'] else ''}.</p>",
            "<h2>Win rate per seat</h2><p>Bars: win rate; whiskers: 95% interval.</p>",
            _bars_with_intervals([(f"P{r['seat'] + 1} ({r['kind']})", r["rate"], r["low"], r["high"])
                                  for r in report["win_rates"]]),
            f"<p>First player: {_pct(fpa['rate'])} against {_pct(fpa['expected'])} expected, p = "
            f"{_p(fpa)}. Draws: {report['draws']}.</p>",
            "<h2>Game length</h2>",
            _histogram(report["length"]["histogram"], report["length"].get("histogram_of", "actions")),
            _table(["", "mean", "95% low", "95% high", "min", "p10", "median", "p90", "max"],
                   [[k, *(report["length"][k][c] for c in ("mean", "low", "high", "min", "p10", "median", "p90",
                                                            "max"))] for k in _length_units(report)]),
            "<h2>Scores and margins</h2>",
            _table(["seat", "mean score", "95% low", "95% high"],
                   [[f"P{r['seat'] + 1}", r["mean"], r["low"], r["high"]] for r in report["margins"]["mean_scores"]]),
            f"<p>Lead of the best score over the next: mean {report['margins']['lead']['mean']} "
            f"[{report['margins']['lead']['low']}, {report['margins']['lead']['high']}].</p>",
            "<h2>How games ended</h2>",
            _table(["reason", "games"], [[k or "-", v] for k, v in report["end_reasons"].items()]),
            f"<p>Errors: {report['errors']}.</p>",
            "<h2>Cards and actions</h2><p>Win rate of a seat in the games it played it; lift: that minus the "
            "seat's own base rate. Bars: lift; whiskers: 95% interval; the largest lifts either way among those "
            f"played in {LIFT_CHART_GAMES} games or more.</p>",
            _lift_chart(report["cards"]),
            _card_table(report["cards"], "plays"),
            "<h2>Powers</h2><p>Each card effect used, trigger fired and card modifier on (counted once per turn "
            "it applied in), by the seat it ran for.</p>",
            _card_table(report.get("powers", []), "runs")]
    if "compare" in report:
        cmp = report["compare"]
        body += [f"<h2>With {e(cmp['overlay'])}</h2><p>The same {cmp['paired_games']} seeds; p-values under 0.05 "
                 "in red.</p>",
                 _table(["seat", "win rate without", "with", "p"],
                        [[f"P{r['seat'] + 1}", _pct(r["without"]), _pct(r["with"]), _p(r)] for r in cmp["win_rates"]]),
                 _table(["length", "without", "with", "p"],
                        [[k, r["without"], r["with"], _p(r)] for k, r in cmp["length"].items()
                         if k in _length_units(report)]),
                 _table(["seat", "score change", "p"], [[f"P{r['seat'] + 1}", r["change"], _p(r)]
                                                        for r in cmp["scores"]]),
                 _table(["ended by", "without", "with", "p"],
                        [[r["reason"] or "-", r["without"], r["with"], _p(r)] for r in cmp["end_reasons"]]),
                 "<p>Each card without and with the overlay (the cards it changes first): plays per game, "
                 "win rate of a seat in the games it played the card, and lift over that seat's base rate.</p>",
                 _table(["card", "plays/game without", "with", "win rate without", "with", "lift without", "with",
                         "p"],
                        [[r["id"] + (" (changed)" if r["changed"] else ""),
                          r["without"]["plays_per_game"], r["with"]["plays_per_game"],
                          *[_pct(x["win_rate"]) if x["win_rate"] is not None else "-"
                            for x in (r["without"], r["with"])],
                          *[f"{100 * x['lift']:+.1f} pts" if x["lift"] is not None else "-"
                            for x in (r["without"], r["with"])], _p(r)]
                         for r in cmp.get("cards", ())])]
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{e(name)}: balance report</title>'
            f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")
