"""The compiled game definition: plain, frozen records built once at load.

Everything a running game reads but never changes: counters, zones, cards, actions,
triggers, modifiers, values, end conditions, scoring, bots and views, with their
compiled code. The records live in `definitions`; this package re-exports them so
every stage imports `from interpreter.model import GameDef`.
"""

from interpreter.model.definitions import (
    CHECK_POINTS,
    SCOPES,
    VISIBILITY,
    ActionDef,
    Assumption,
    BotDef,
    CardDef,
    CardUse,
    Code,
    Cost,
    CounterDef,
    Direct,
    EndDef,
    Expr,
    GameDef,
    ModifierDef,
    Op,
    Param,
    Scoring,
    SeatRule,
    TriggerDef,
    ValueDef,
    ViewDef,
    Where,
    ZoneDef,
)

__all__ = [
    "CHECK_POINTS",
    "SCOPES",
    "VISIBILITY",
    "ActionDef",
    "Assumption",
    "BotDef",
    "CardDef",
    "CardUse",
    "Code",
    "Cost",
    "CounterDef",
    "Direct",
    "EndDef",
    "Expr",
    "GameDef",
    "ModifierDef",
    "Op",
    "Param",
    "Scoring",
    "SeatRule",
    "TriggerDef",
    "ValueDef",
    "ViewDef",
    "Where",
    "ZoneDef",
]
