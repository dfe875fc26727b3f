"""Actions and their canonical texts.

An Action is one legal move: a canonical text (stable, unique among the legal actions,
and accepted back by `apply_action`) and a payload saying what it means. Values in
canonical texts are written so they parse back: cards as `id#copy`, players as `P1`.

A card the chooser may not see is never offered by identity: its value is a
`HiddenCard`, the card's place among the hidden cards offered from its zone
(`hand(P2):1`), and the Action a `BlindAction`, which alone knows the cards such
places stand for (runtime/blind.py makes them; docs/format.md, "choices among hidden
cards").
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from interpreter.runtime.state import State

DONE = "#done"  # the answer "I have picked enough" of `choose up to`
_PLAIN = re.compile(r"[A-Za-z0-9_.#:+-]+\Z")  # (\Z: a line break at the end is no plain text)


class Action:
    """One legal move: its canonical text and what applying it means."""

    __slots__ = ("payload", "text")

    def __init__(self, text: str, payload: Any):
        self.text = text
        self.payload = payload

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self.text == other.text
        return isinstance(other, str) and self.text == other

    def __hash__(self) -> int:
        return hash(self.text)


@attrs.frozen(slots=True)
class HiddenCard:
    """A card offered to a player who may not see it, by its place: the `position`-th
    (from 1) of the `of` hidden cards the choice offers from zone slot `slot`, counted
    in the zone's order. Equal places are equal whatever card they hold, and nothing a
    front-end reads of it (its fields, its text, its repr) names the card."""

    slot: int
    position: int
    of: int
    card: int = attrs.field(eq=False, repr=False)  # the copy it stands for: for the effect only

    def __str__(self) -> str:  # what a generic rendering of it shows: never the card
        return f"a hidden card ({self.position} of {self.of})"


class BlindAction(Action):
    """An Action with hidden cards among its values: `payload` holds HiddenCards (what
    every front-end reads), `resolved` the same payload with the cards they stand for
    (what the effect runs with)."""

    __slots__ = ("resolved",)

    def __init__(self, text: str, payload: Any, resolved: Any):
        super().__init__(text, payload)
        self.resolved = resolved


def effect_payload(action: Action) -> Any:
    """The payload the effect runs with: a hidden card as the card it stands for."""
    return action.resolved if type(action) is BlindAction else action.payload


def hidden_token(st: State, value: HiddenCard) -> str:
    """The canonical text of a hidden card: its zone (with its owner) and place,
    `hand(P2):1`, `deck:3`."""
    layout = st.layout
    return f"{slot_name(st.gd.zones[layout.zdef[value.slot]].name, layout.zowner[value.slot])}:{value.position}"


def slot_name(zone: str, owner: int) -> str:
    """A zone slot as hidden cards' texts name it: `hand(P2)`, or `deck` (shared)."""
    return zone if owner < 0 else f"{zone}(P{owner + 1})"


def _render_card(st: State, value: Any) -> str:
    if type(value) is int:
        return f"{st.gd.cards[st.card_def[value]].id}#{value}"
    return render(st, value, "card")


def _render_player(st: State, value: Any) -> str:
    return f"P{value + 1}" if type(value) is int else render(st, value, "player")


def _render_int(st: State, value: Any) -> str:
    return str(value) if type(value) is int else render(st, value, "int")


def _render_text(st: State, value: Any) -> str:
    """A text (type str or any), or any value through render."""
    if type(value) is str and _PLAIN.match(value):
        return value
    return str(value) if type(value) is int else render(st, value, "any")


# Renderers of the common parameter types, picked once per parameter, not per value.
_RENDERERS = {"card": _render_card, "player": _render_player, "int": _render_int, "str": _render_text,
              "any": _render_text}


def renderer(type_: str) -> Any:
    return _RENDERERS.get(type_) or (lambda st, value: render(st, value, type_))


def render(st: State, value: Any, type_: str) -> str:
    """The canonical text of one value."""
    if value is None:
        return "none"
    if type(value) is HiddenCard:
        return hidden_token(st, value)
    if type_ == "card":
        return f"{st.gd.cards[st.card_def[value]].id}#{value}"
    if type_ == "player":
        return f"P{value + 1}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value if _PLAIN.match(value) else json.dumps(value)
    if isinstance(value, list):
        inner = type_[5:] if type_.startswith("list:") else "any"
        return "[" + ",".join(render(st, v, inner) for v in value) + "]"
    return str(value)
