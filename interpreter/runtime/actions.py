"""Actions and their canonical texts.

An Action is one legal move: a canonical text (stable, unique among the legal actions,
and accepted back by `apply_action`) and a payload saying what it means. Values in
canonical texts are written so they parse back: cards as `id#copy`, players as `P1`.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

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
