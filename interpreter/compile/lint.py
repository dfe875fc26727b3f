"""Checks of a compiled game for what type-checks but can hardly be meant.

They run after the builder (every name resolved, every text parsed), over the merged
rule data, and report warnings (errors under `--strict`) at the file, line and column
of the mistake with a hint:

- an action group that no `take actions GROUP` anywhere ever takes (its actions could
  never be taken);
- a per-player counter written without a player (`set vp to 2`, `gain 1 vp`) where
  there is no current player: in `setup` or `flow` outside any `turn` block, and in an
  end condition checked at the end of a round (`check: round`) — `me` there is whoever
  happened to act last, never what the text means;
- a `choose one` whose options are all disabled by a literal `when false`: nothing
  could ever be chosen. (At run time a `choose one` with no open option does nothing:
  the effect goes on after it, as documented in docs/format.md.);
- a card with printed text but no power (no effect, trigger or modifier) where other
  cards of its type have one, or a card with a power but no text: a person reading the
  card and the engine running it would disagree (`card-text-without-power`,
  `card-power-without-text`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from interpreter.compile.scan import EffectText, effect_texts
from interpreter.diagnostics import Diagnostic, hint_for
from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, common_indent, parse_expression, parse_program
from interpreter.model import GameDef
from interpreter.rules.loader import RawGame


def lint(raw: RawGame, gd: GameDef) -> list[Diagnostic]:
    """Every finding of the checks above, in the order of the rule data."""
    found: list[Diagnostic] = []
    texts = list(effect_texts(raw.data))
    programs = [(t, _parse(t.text)) for t in texts]
    found.extend(_unused_groups(raw, [n for _, nodes in programs for n in ast.walk(nodes)]))
    per_player = {c.name for c in gd.counters if c.scope == "player"}
    for t, nodes in programs:
        if t.logical in (("setup",), ("flow",)):
            for node in _outside_turns(nodes, _bound(nodes)):
                if _bare_counter(node, per_player):
                    found.append(_no_player(raw, t, node, "setup runs before any turn" if t.logical == ("setup",)
                                            else "the flow outside `turn` blocks has no current player"))
        for node in ast.walk(nodes):
            if isinstance(node, ast.ChooseOne) and node.options and all(
                    isinstance(o.condition, ast.Literal) and o.condition.value is False for o in node.options):
                found.append(_at(raw, t, node, "choice-never-open",
                                 "every option of this `choose one` is `when false`: nothing could be chosen",
                                 "remove the choice, or give an option a condition that can hold"))
    found.extend(_card_texts(raw))
    for i, spec in enumerate(raw.data.get("end") or ()):
        if isinstance(spec, dict) and spec.get("check") == "round" and isinstance(spec.get("when"), str):
            t = EffectText(("end", i, "when"), spec["when"])
            try:
                node = parse_expression(t.text)
            except EffectSyntaxError:
                continue
            for each in ast.walk((node,)):
                if _bare_counter(each, per_player):
                    found.append(_no_player(raw, t, each, "an end condition checked at the end of a round "
                                                          "has no current player"))
    return found


# ---- the checks ----------------------------------------------------------------------------


def _unused_groups(raw: RawGame, nodes: list[ast.Node]) -> Iterator[Diagnostic]:
    taken = {n.group for n in nodes if isinstance(n, ast.TakeActions)}
    seen: set[str] = set()
    for aid, spec in (raw.data.get("actions") or {}).items():
        group = spec.get("during") if isinstance(spec, dict) else None
        if not isinstance(group, str) or group in taken or group in seen:
            continue
        seen.add(group)
        path, line, column = raw.origins.locate(("actions", aid, "during"))
        yield Diagnostic(path, line, column, "unused-group",
                         f"no effect ever takes the action group '{group}', so action '{aid}' can never be taken",
                         hint=hint_for(group, taken) or f"add `take actions {group}` to the flow (or a turn)",
                         severity="warning")


def _card_texts(raw: RawGame) -> Iterator[Diagnostic]:
    """A card's printed text and its power go together: text alone does nothing, and a
    power no text tells of is a rule a person cannot read off the card."""
    cards = {cid: card for cid, card in (raw.data.get("cards") or {}).items() if isinstance(card, dict)}

    def power_of(card: dict[str, Any]) -> list[str]:
        return [k for k in ("effects", "triggers", "modifiers") if card.get(k)]
    # Text alone is only doubtful among cards of a type that carry powers: a type none of
    # whose cards has one (cards whose text only states a property, e.g. a point value) is
    # data the game's rules read for every card of that type.
    powered_types = {card.get("type", "card") for card in cards.values() if power_of(card)}
    for cid, card in cards.items():
        found = card.get("properties")
        properties: dict[str, Any] = found if isinstance(found, dict) else {}
        text = card.get("text", properties.get("text"))
        power = power_of(card)
        if isinstance(text, str) and text.strip() and not power and card.get("type", "card") in powered_types:
            path, line, column = raw.origins.locate(("cards", cid, "text") if "text" in card
                                                    else ("cards", cid, "properties", "text"))
            yield Diagnostic(path, line, column, "card-text-without-power",
                             f"card '{cid}' has text but no effect, trigger or modifier, where other cards "
                             f"of type '{card.get('type', 'card')}' have them: what its text says is done "
                             "nowhere on the card",
                             hint="give the card its power (effects:, triggers:, modifiers:)",
                             severity="warning")
        elif power and not (isinstance(text, str) and text.strip()):
            path, line, column = raw.origins.locate(("cards", cid, power[0]))
            yield Diagnostic(path, line, column, "card-power-without-text",
                             f"card '{cid}' has {power[0]} but no text: a person cannot read what it does",
                             hint="add text: with what the printed card says", severity="warning")


def _bare_counter(node: ast.Node, per_player: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.name in per_player


def _no_player(raw: RawGame, t: EffectText, node: ast.Node, why: str) -> Diagnostic:
    name = node.name if isinstance(node, ast.Name) else "?"
    return _at(raw, t, node, "no-player",
               f"'{name}' is a per-player counter and {why}: whose '{name}' is meant?",
               f"name the player: {name}(p) inside `for each p in players:`, or {name}(0) for the first seat")


def _at(raw: RawGame, t: EffectText, node: ast.Node, code: str, message: str, hint: str) -> Diagnostic:
    shift = common_indent(t.text)
    path, line, column, source = raw.origins.locate_text(t.logical, node.line, node.column + shift)
    return Diagnostic(path, line, column, code, message, hint=hint, source_line=source or None, severity="warning")


# ---- walking the rules ---------------------------------------------------------------------


def _parse(text: str) -> tuple[ast.Node, ...]:
    try:
        return parse_program(text)
    except EffectSyntaxError:  # reported by the builder already
        return ()


def _bound(nodes: tuple[ast.Node, ...]) -> set[str]:
    """Names the text binds itself (a local may hide a counter's name)."""
    names: set[str] = set()
    for node in ast.walk(nodes):
        if isinstance(node, ast.Let | ast.ForEach | ast.Choose | ast.Comprehension):
            names.add(node.name if isinstance(node, ast.Let) else node.var)
    return names


def _outside_turns(nodes: tuple[ast.Node, ...] | list[ast.Node], bound: set[str]) -> Iterator[ast.Node]:
    """The nodes not inside a `turn` block, without the names the text binds itself."""
    for node in nodes:
        if isinstance(node, ast.Turn):
            continue
        if not (isinstance(node, ast.Name) and node.name in bound):
            yield node
        yield from _outside_turns(ast.children(node), bound)
