"""What a web page of one seat is sent: plain JSON made from that seat's observation only.

The page renders any game the same way, from what the rules declare: zones as rows of
card tiles, counters as labelled values, the game's own views as text, the legal
actions grouped by action. Everything here is derived from `state.observation(seat)`
(which applies the declared visibility) plus static rule data (names and labels of
zones, counters and cards, card properties), never from the state's zones or counters
directly, so a card the seat may not see cannot reach its browser. The legal actions
are sent only to the seat that must decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.model import GameDef
from interpreter.play.narrate import card_of, name_cards
from interpreter.play.terminal_text import distinct, result_lines, showdown_lines
from interpreter.runtime.present import counter_text, option_text, words_of
from interpreter.runtime.records import PendingActions, PendingChoice

if TYPE_CHECKING:
    from interpreter.runtime.state import State

MAX_PROPERTY_TEXT = 200  # a card property shown on its tile, cut beyond this
MOST_TRACK = 40  # a counter with a range up to this wide is drawn as a track


def card_tiles(cards: list[str], gd: GameDef, by_id: dict[str, int]) -> list[dict[str, Any]]:
    """Card texts (`id#copy`) as tiles; runs of copies of one card become one tile with
    a count (a box of 95 components is a dozen tiles, not 95)."""
    tiles: list[dict[str, Any]] = []
    for text in cards:
        card_id = text.rpartition("#")[0] or text
        if tiles and tiles[-1]["id"] == card_id:
            tiles[-1]["copies"].append(text)
            continue
        index = by_id.get(card_id)
        card = gd.cards[index] if index is not None else None
        props = {} if card is None else {k: _short(v) for k, v in card.properties.items()
                                         if k != "text" and isinstance(v, (str, int, float, bool))}
        cost = _cost_text(None if card is None else card.properties.get("cost"))
        tiles.append({"id": card_id, "name": card.name if card is not None else card_id,
                      "text": card.text if card is not None else "", "props": props,
                      "type": card.type if card is not None else "", "cost": cost,
                      "copies": [text]})
    return tiles


def _cost_text(value: Any) -> str:
    """A card's `cost` property for its corner: a number or word, or `1 IRON 2 FUEL` of a map."""
    if isinstance(value, dict):
        return " ".join(f"{v} {k}" for k, v in value.items() if v)
    return "" if value is None or isinstance(value, (list, bool)) else _short(value)


def _short(value: Any) -> str:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    return text if len(text) <= MAX_PROPERTY_TEXT else text[:MAX_PROPERTY_TEXT] + "…"


def _zone_entry(value: dict[str, Any], gd: GameDef, by_id: dict[str, int]) -> dict[str, Any]:
    entry: dict[str, Any] = {"count": value.get("count", 0)}
    if "cards" in value:
        entry["cards"] = card_tiles(value["cards"], gd, by_id)
    else:
        entry["hidden"] = True
        entry["revealed"] = card_tiles(value.get("revealed", []), gd, by_id)
        if value.get("backs"):
            entry["backs"] = dict(value["backs"])  # what the backs of the hidden cards show
    return entry


def observation_view(obs: dict[str, Any], gd: GameDef) -> dict[str, Any]:
    """The table as one seat sees it: turn, views, counters and zones, in the rules' order."""
    by_id = {card.id: card.index for card in gd.cards}
    labels = {view.id: view.label for view in gd.views}
    counters = []
    hide, table = gd.table.hide, gd.table  # bookkeeping (`table: hide:`): never shown to people
    for cdef in gd.counters:
        if cdef.name in hide:
            continue
        value = obs["counters"][cdef.name]
        values = value if cdef.scope == "player" else [value]
        ranged = (cdef.min is not None and cdef.max is not None and cdef.keys is None
                  and cdef.max - cdef.min <= MOST_TRACK)
        counters.append({"name": cdef.name, "label": _title(cdef.name, cdef.label), "scope": cdef.scope,
                         "values": [counter_text(v) for v in values],
                         "min": cdef.min, "max": cdef.max,
                         # a track: drawn from min to max; a standing: in the bar every seat sees
                         "track": ranged and (not table.tracks or cdef.name in table.tracks),
                         "standing": cdef.name in table.tracks and cdef.scope == "player"})
    zones = []
    for zdef in gd.zones:
        if zdef.name in hide:
            continue
        value = obs["zones"][zdef.name]
        entries = value if zdef.scope == "player" else [value]
        board = zdef.name in table.board if table.board else zdef.scope == "global" and zdef.visible == "all"
        zones.append({"name": zdef.name, "label": _title(zdef.name, zdef.label), "scope": zdef.scope,
                      "board": board, "hand": zdef.scope == "player" and zdef.visible == "owner",
                      "entries": [_zone_entry(e, gd, by_id) for e in entries]})
    return {
        "round": obs["round"], "turn": obs["turn"], "active": obs["active"],
        "current_player": obs["current_player"], "terminal": obs["terminal"],
        "views": [{"id": k, "label": labels.get(k, k), "text": v} for k, v in (obs.get("views") or {}).items()],
        "counters": counters, "zones": zones,
    }


def _title(name: str, label: str) -> str:
    """A counter's or zone's title for people: its label, else its name in words."""
    return words_of(name) if label == name else label


def _cards_used(state: State, action: Any) -> list[str]:
    """The cards (`id#copy`) an option uses: its card parameters, or the card chosen."""
    pending, payload = state.pending, action.payload
    if isinstance(pending, PendingChoice):
        return [state.card_text(payload)] if pending.type == "card" and type(payload) is int else []
    if isinstance(payload, tuple) and len(payload) == 2 and isinstance(payload[1], tuple):
        adef = state.gd.actions[payload[0]]
        return [state.card_text(v) for p, v in zip(adef.params, payload[1], strict=False)
                if p.type == "card" and type(v) is int]
    return []


def decision_view(state: State, seat: int) -> dict[str, Any] | None:
    """The legal actions of `seat` when it must decide now (in a simultaneous step, while
    it has not picked), grouped by action (an effect's choice is one group, its prompt),
    each with the text people read and the canonical text the server applies; None when
    the seat has nothing to decide."""
    pending = state.pending
    if state.is_terminal() or pending is None or not pending.waits_for(seat):
        return None
    groups: list[dict[str, Any]] = []
    by_key: dict[str, dict[str, Any]] = {}
    legal = state.legal_actions(seat)
    labels = distinct([name_cards(option_text(state, action), state.gd) for action in legal],  # as the terminal
                      [card_of(state, action) for action in legal])
    for action, label in zip(legal, labels, strict=True):
        if isinstance(pending, PendingActions) and isinstance(action.payload, tuple):
            adef = state.gd.actions[action.payload[0]]
            key, title = adef.id, _group_title(adef.label, adef.id)
        else:
            key, title = "choice", state.prompt() or "choose"
        group = by_key.get(key)
        if group is None:
            group = by_key[key] = {"id": key, "title": title, "options": []}
            groups.append(group)
        group["options"].append({"action": action.text, "label": label, "cards": _cards_used(state, action)})
    prompt = state.prompt() or ""
    return {"prompt": words_of(prompt) if isinstance(pending, PendingActions) else prompt, "groups": groups}


def _group_title(label: str, name: str) -> str:
    """An action group's heading: the action's label up to its first template part, else
    its name in words (`end_turn` -> `end turn`)."""
    if label == name:
        return words_of(name)
    head = label.split("{", 1)[0].strip(" :,-(")  # the words before its first filled-in part
    return head or words_of(name)


def result_view(state: State) -> dict[str, Any] | None:
    """The end of the game (public once it is over): why, scores, winners, returns, and
    the showdown of what each player held, as the terminal tells it."""
    if not state.is_terminal():
        return None
    result = state.result()
    return {"winners": list(result["winners"]), "returns": list(result["returns"]),
            "reason": result.get("reason") or "", "lines": result_lines(state) + showdown_lines(state)}
