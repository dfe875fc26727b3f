"""The names an effect text may use, and the compile-time errors about them.

The builder (build.py) fills a `Symbols` table from the game's sections before any
effect text is compiled; the expression and statement compilers look every name up
here, so a misspelt name is found at load time with a "did you mean".
"""

from __future__ import annotations

from typing import Any

import attrs

from interpreter.model import CounterDef, ZoneDef


class CompileError(Exception):
    """A static error at (line, column) of one effect text."""

    def __init__(self, node: Any, code: str, message: str, hint: str | None = None, width: int = 1):
        super().__init__(message)
        self.line = getattr(node, "line", 1)
        self.column = getattr(node, "column", 1)
        self.code = code
        self.message = message
        self.hint = hint
        self.width = width


@attrs.define
class ProcInfo:
    name: str
    params: tuple[str, ...]
    code: int
    # per parameter, the type its rule declares (`params: {hand: cards}`), "any" when none
    types: tuple[str, ...] = ()


# The words a rule may declare a function's or procedure's parameter type with, and
# the types they mean.
PARAM_TYPES = {"any": "any", "number": "int", "numbers": "list:int", "text": "str", "texts": "list:str",
               "truth": "bool", "player": "player", "players": "list:player", "card": "card", "cards": "list:card"}


def declared_params(spec: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The parameter names of a function or procedure and their declared types: `params`
    is a list of names (every type "any") or a map of name to type word."""
    params = spec.get("params") if isinstance(spec, dict) else None
    if isinstance(params, dict):
        return tuple(str(p) for p in params), tuple(PARAM_TYPES.get(str(t), "any") for t in params.values())
    names = tuple(str(p) for p in params or ()) if isinstance(params, list | tuple) else ()
    return names, ("any",) * len(names)


@attrs.define
class Symbols:
    counters: dict[str, CounterDef] = attrs.field(factory=dict)
    zones: dict[str, ZoneDef] = attrs.field(factory=dict)
    values: dict[str, tuple[int, bool, str]] = attrs.field(factory=dict)  # index, of_player, type
    procedures: dict[str, ProcInfo] = attrs.field(factory=dict)
    cards: dict[str, int] = attrs.field(factory=dict)
    card_effects: set[str] = attrs.field(factory=set)
    card_fields: set[str] = attrs.field(factory=set)  # properties and attributes
    written_fields: set[str] = attrs.field(factory=set)  # attributes some effect sets
    card_specs: list[tuple[str, dict[str, Any]]] = attrs.field(factory=list)  # (id, raw spec) in order
    constants: dict[str, Any] = attrs.field(factory=dict)
    events: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    modifiers: dict[str, int] = attrs.field(factory=dict)
    groups: set[str] = attrs.field(factory=set)
    bots: set[str] = attrs.field(factory=set)
    min_players: int = 1  # seats 0..min_players-1 exist in every game
    # `/` divides exactly (format 2), and whether some text may make a fraction at all
    # (compile/numeric.py): in a game that cannot, arithmetic is compiled as it always was.
    exact_division: bool = True
    fractions: bool = False
    functions: dict[str, ProcInfo] = attrs.field(factory=dict)  # code = index into function_table
    # Compiled functions, filled after every body is compiled (calls look them up late,
    # so functions may call each other in any order).
    function_table: list[Any] = attrs.field(factory=list)
    # The same functions taking their locals as arguments (`me`, then the parameters), by
    # index, for those whose body reads no other local: a call makes no dictionary. Each
    # is the name generated code calls it by.
    function_positional: dict[int, str] = attrs.field(factory=dict)
    boards: dict[str, Any] = attrs.field(factory=dict)  # name -> board_functions.Board
    function_types: dict[str, str] = attrs.field(factory=dict)  # name -> result type, when known
    # procedure -> the rule that calls it -> per parameter, the types that rule's calls
    # pass (filled while compiling; a rule compiled again replaces its own entry)
    call_arg_types: dict[str, dict[str, list[set[str]]]] = attrs.field(factory=dict)
    # function -> per parameter, the types its calls pass (filled while compiling)
    function_call_types: dict[str, list[set[str]]] = attrs.field(factory=dict)
    # What the rules can never do, known before any effect compiles, so generated code
    # leaves out tests that would always fail (each costs a look-up at every turn).
    # Filled by compile/never.py; the defaults claim nothing.
    # The (event, subject) pairs the triggers name ("changed", "vp"; "turn_end", ""): an
    # event no trigger names is never fired (`may_hear`). None: unknown, any may be.
    heard: frozenset[tuple[str, str]] | None = None
    # The scopes some action's use limit counts in ("turn", "round", "game"): the
    # counts of the others stay empty, and a turn or round need not empty them again.
    limited: frozenset[str] = frozenset({"turn", "round", "game"})
    # The check points no end condition is checked at ("action", "turn", "round"), and
    # whether no end condition finishes the turn or round first (`then: finish_turn`).
    unchecked: frozenset[str] = frozenset()
    nothing_deferred: bool = False
    # The wait records of the `take actions` statements compiled (decisions.ActionWait).
    waits: list[Any] = attrs.field(factory=list)

    def may_hear(self, event: str, subject: str | None = None) -> bool:
        """Whether some trigger may listen to `event` (of `subject`; None: of any)."""
        if self.heard is None:
            return True
        return any(e == event and (subject is None or s == subject) for e, s in self.heard)

    def all_names(self) -> list[str]:
        return [
            *self.counters,
            *self.zones,
            *self.values,
            *self.procedures,
            *self.constants,
            *self.functions,
        ]


# Types are plain strings: int, bool, str, player, card, none, any, map, list:<elem>.
def list_of(elem: str) -> str:
    return f"list:{elem}"


def elem_of(type_: str) -> str:
    return type_[5:] if type_.startswith("list:") else "any"


def is_list(type_: str) -> bool:
    return type_.startswith("list:") or type_ == "any"
