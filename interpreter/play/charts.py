"""The SVG charts of `orrery analyze --report`, written by hand: no plotting library, no
script, nothing fetched, so the page is one small file that stays sharp at any zoom.
Each chart is a function of plain rows to one `<svg>` element."""

from __future__ import annotations

import html
from typing import Any


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def bars_with_intervals(rows: list[tuple[str, float, float, float]], width: int = 520) -> str:
    """Horizontal bars in [0, 1] with their interval drawn as a whisker."""
    h = 22
    left = 150
    scale = width - left - 50  # (room right of a whisker at 100% for its label)
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


def histogram(bins: list[dict[str, int]], unit: str = "actions", width: int = 520, height: int = 160) -> str:
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


def lift_chart(cards: list[dict[str, Any]], width: int = 620) -> str:
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




def reference_line(svg: str, value: float, width: int = 520, left: int = 150, label: str = "fair share") -> str:
    """`svg` (a bars_with_intervals chart) with a dashed vertical line at `value`."""
    scale = width - left - 50  # as bars_with_intervals
    x = left + value * scale
    height = svg.split('height="', 1)[1].split('"', 1)[0]
    line = (f'<line x1="{x:.1f}" x2="{x:.1f}" y1="0" y2="{height}" stroke="#b00" stroke-dasharray="4 3"/>'
            f'<text x="{x + 3:.1f}" y="{int(height) - 2}" fill="#b00">{html.escape(label)}</text>')
    return svg.replace("</svg>", line + "</svg>")


def paired_bars(rows: list[tuple[str, float, float]], unit: str = "", percent: bool = False,
                width: int = 560) -> str:
    """Two bars per row, without (grey) and with (blue) a change, on one scale."""
    if not rows:
        return ""
    h, left = 34, 170
    scale = width - left - 70
    top = max(max(a, b) for _, a, b in rows) or 1.0
    shown = (lambda v: _pct(v)) if percent else (lambda v: f"{v:g}{unit}")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h * len(rows) + 24}">']
    for i, (label, without, with_) in enumerate(rows):
        y = 4 + i * h
        parts.append(f'<text x="0" y="{y + 18}">{html.escape(label[:26])}</text>')
        for j, (value, color) in enumerate(((without, "#bbbbbb"), (with_, "#3a78c2"))):
            w = value / top * scale
            parts.append(f'<rect x="{left}" y="{y + j * 14}" width="{w:.1f}" height="12" fill="{color}"/>')
            parts.append(f'<text x="{left + w + 4:.1f}" y="{y + j * 14 + 10}">{shown(value)}</text>')
    parts.append(f'<rect x="{left}" y="{h * len(rows) + 8}" width="10" height="10" fill="#bbbbbb"/>'
                 f'<text x="{left + 14}" y="{h * len(rows) + 17}">without</text>'
                 f'<rect x="{left + 80}" y="{h * len(rows) + 8}" width="10" height="10" fill="#3a78c2"/>'
                 f'<text x="{left + 94}" y="{h * len(rows) + 17}">with</text></svg>')
    return "".join(parts)


SEAT_COLOURS = ("#3a78c2", "#d9822b", "#3f9f5a", "#b84a62", "#7a5bb5", "#888888")


def score_histories(games: list[dict[str, Any]], players: int, shown: int = 6, width: int = 180,
                 height: int = 110) -> str:
    """Small multiples: each seat's score over the turns of the first `shown` games."""
    parts = []
    for game in games[:shown]:
        points = game["scores"]
        if len(points) < 2 or not points[0]["scores"]:
            continue
        turns = [p["turn"] for p in points]
        values = [v for p in points for v in p["scores"]]
        t0, t1 = min(turns), max(turns) or 1
        v0, v1 = min(values), max(values)
        span_t, span_v = max(t1 - t0, 1), max(v1 - v0, 1e-9)
        svg = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 16}">',
               f'<rect x="0" y="0" width="{width}" height="{height}" fill="none" stroke="#ddd"/>']
        for seat in range(min(players, len(points[0]["scores"]))):
            coords = " ".join(f"{(p['turn'] - t0) / span_t * (width - 4) + 2:.1f},"
                              f"{height - 2 - (p['scores'][seat] - v0) / span_v * (height - 4):.1f}" for p in points)
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            svg.append(f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        winners = ", ".join(f"P{w + 1}" for w in game["winners"]) or "nobody"
        svg.append(f'<text x="2" y="{height + 13}">seed {game["seed"]}: {winners} won</text></svg>')
        parts.append("".join(svg))
    if not parts:
        return "<p>(no score was recorded: the game declares no score, or no seat decided anything)</p>"
    legend = " ".join(f'<span style="color:{SEAT_COLOURS[p % len(SEAT_COLOURS)]}">&#9632; P{p + 1}</span>'
                      for p in range(players))
    return f"<p>{legend}</p><div>{' '.join(parts)}</div>"
