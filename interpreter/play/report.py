"""How an `orrery analyze` report is shown as text, in a terminal (the HTML page is
play/report_html.py's)."""

from __future__ import annotations

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
        elif ladder["message"]:
            lines.append(f"  {ladder['message']}")
    return lines


def _stalemate_text(stalemates: dict[str, Any] | None) -> list[str]:
    if not stalemates or not (stalemates["games"] or stalemates["bounds"] or stalemates.get("repeated_positions")):
        return []
    repeated = stalemates.get("repeated_positions", 0)
    circles = [f"  {repeated} games came back to the same position 3 times or more"] if repeated else []
    if stalemates["problem"]:
        return [f"STALEMATES, a design problem: {stalemates['message']}", *circles]
    return [f"Stalemates (ended by {', '.join(stalemates['bounds']) or 'the action cap'}): {stalemates['games']} "
            f"({_pct(stalemates['share'])})", *circles]


def _shape_text(shape: dict[str, Any] | None) -> list[str]:
    if not shape or not shape["decisions"]:
        return []
    lines = [f"Decisions: {shape['decisions']}, {_pct(shape['forced_share'])} forced (one legal action), "
             f"mean branching factor {shape['branching']}"]
    if shape["games"]:
        decided = shape["decided_at"]
        when = (f"; the winner led for good from {_pct(decided['mean'])} of the game on "
                f"[{_pct(decided['low'])}, {_pct(decided['high'])}] (over {decided['games']} of the games: one "
                "winner, who led at the end)") if decided["games"] else ""
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
    if not tested:
        return [f"{title}: {rare} seen, each in fewer than {MIN_GAMES_FOR_LIFT} seat-games: counted, too rare to test"]
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
    lines.append(f"  {flagged} of {len(tested)} tested differ from the typical one (q < 0.05)")
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
