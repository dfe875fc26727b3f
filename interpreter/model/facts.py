"""What the analysis of a game's rule text found, recorded once on its definition.

The runtime never reads rule text: whatever it needs to know about the rules as a
whole (whether they draw random numbers, which zones a shuffle must deal whole, what
values the moves and choices of the game can take, which choices may offer cards their
chooser cannot see) is found once, when the rules load, by `interpreter.analysis`,
and kept here as plain records. These are those records; `RuleFacts` holds them all.
"""

from __future__ import annotations

from typing import Any

import attrs

Zones = frozenset[int]  # zone indices


def scalar_key(v: Any) -> tuple[str, Any]:
    """A key that tells 1, True and "1" apart (they are different answers)."""
    return (type(v).__name__, v)


def sort_key(v: Any) -> tuple[int, Any]:
    """A stable order over the scalars a rule may give: none, truths, numbers, words."""
    order = {"NoneType": 0, "bool": 1, "int": 2, "Fraction": 2, "str": 3}  # (numbers together, in order)
    return (order.get(type(v).__name__, 4), v if v is not None else 0)


@attrs.frozen
class HiddenOffers:
    """What the rules let a choice offer its chooser without showing it: per action
    group, per action index, the card parameters (by position) to check while listing;
    per (action index, parameter) the zones whose places they may offer; the zones
    whose cards some `choose` may offer while hidden from its chooser."""

    groups: dict[str, dict[int, tuple[int, ...]]] = attrs.field(factory=dict)
    params: dict[tuple[int, int], Zones] = attrs.field(factory=dict)
    choices: Zones = frozenset()


@attrs.frozen
class ChoiceKinds:
    """What the choices of a game can answer: `done`, cards, seats, and these values."""

    done: bool = False
    cards: bool = False
    players: bool = False
    values: tuple[Any, ...] = ()


@attrs.frozen
class ChanceKinds:
    """What the random events of a game can give: deals of shuffled zones, cards,
    seats and these values; `complete` when every outcome is among them."""

    deals: bool = False
    cards: bool = False
    players: bool = False
    values: tuple[Any, ...] = ()
    complete: bool = True


@attrs.frozen
class RuleFacts:
    """Everything the analysis found (see the module's docstring).

    `param_values` holds, for each (action index, parameter index) whose parameter is
    neither a card nor a player and declares no values, the values its domain's text
    can give in a stable order, or None when they could not be found (the integer
    action space then refuses to number that action, saying what to declare)."""

    uses_chance: bool = False
    uses_simultaneous: bool = False
    eager_zones: Zones = frozenset()
    sets_attributes: bool = False
    created_cards: frozenset[int] = frozenset()
    hidden: HiddenOffers = HiddenOffers()
    param_values: dict[tuple[int, int], tuple[Any, ...] | None] = attrs.field(factory=dict)
    choices: ChoiceKinds = ChoiceKinds()
    chances: ChanceKinds = ChanceKinds()
