"""The compiled game definition: static, built once at load, never changed after.

Everything a running state needs to know about the rules lives here, already compiled:
expressions are Python closures `fn(state, env)`, effect texts are `Code` objects (a
list of operations run by vm.py). States refer to it by index only, so a state stays
plain data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import attrs

from interpreter.diagnostics import Diagnostic
from interpreter.model.facts import RuleFacts

# A compiled expression: evaluated against a state and the local variables of a frame.
Expr = Callable[[Any, dict[str, Any]], Any]
# A compiled operation of an effect: returns True when the game must wait for a decision.
Op = Callable[[Any, Any], bool]  # (state, frame) -> waits for a decision

SCOPES = ("player", "global")
VISIBILITY = ("all", "owner", "none")
CHECK_POINTS = ("action", "turn", "round")  # where end conditions are checked (`check:`)


@attrs.frozen
class Where:
    """Where a piece of effect text came from, to report runtime errors to people."""

    path: str
    line: int
    column: int
    what: str  # e.g. "cards.fireball.effects.play"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column} ({self.what})"


@attrs.define(slots=True, eq=False)
class Code:
    """One compiled effect: its operations and, per operation, where it came from."""

    index: int
    name: str
    ops: list[Op] = attrs.field(factory=list)
    wheres: list[Where] = attrs.field(factory=list)
    # Called when a frame of this code returns (action bookkeeping, procedure results).
    kind: str = "effect"
    # Operation index -> the local its `take actions` reads for "turn over" (`end turn`
    # sets it in the nearest frame waiting there: runtime/decisions.end_turn).
    turn_waits: dict[int, str] = attrs.field(factory=dict)


@attrs.frozen
class CounterDef:
    name: str
    index: int
    scope: str
    width: int
    keys: tuple[str, ...] | None
    initial: tuple[int, ...]
    min: int | None
    max: int | None
    visible: str
    label: str
    # A per-player counter's public total over the players (per key: `key` is bound),
    # for resampling what a player cannot see of it (runtime/resample.py); None: none.
    total: Expr | None = None
    fractions: bool = False  # may hold exact fractions (`fractions: true`); else whole numbers only


@attrs.frozen
class ZoneDef:
    name: str
    index: int
    scope: str
    visible: str
    order_visible: bool
    refill_from: int | None
    refill_shuffle: bool
    label: str


class TemplatePart(NamedTuple):
    """One `{expression}` of a template (label, log line, view): its compiled code and
    type, and what it reads, found when it compiled: the name it is when it is a name
    alone (`{card}`), and every name and function it mentions (a label must not work
    out anything from a card its reader may not see)."""

    fn: Expr
    type: str
    bare: str | None = None
    names: frozenset[str] = frozenset()


class Cost(NamedTuple):
    """One counter paid by the acting player: an action's or a card effect's `cost`."""

    counter: int  # counter index
    offset: int  # key offset in a keyed counter (0 for a plain one)
    amount: Expr


@attrs.frozen
class CardUse:
    """What a card's named effect asks before it runs: a condition and a cost (paid by `me`)."""

    condition: Expr | None
    cost: tuple[Cost, ...]


@attrs.frozen
class CardDef:
    id: str
    index: int
    name: str
    type: str
    count: int
    zone: int | None
    properties: dict[str, Any]
    effects: dict[str, int]  # effect name -> code index
    active_in: tuple[int, ...]
    tags: tuple[str, ...]
    text: str = ""  # what the printed card says, for people
    back: str = ""  # what its back shows ("": the back every card without one shares)
    uses: dict[str, CardUse] = attrs.field(factory=dict)  # effect name -> its condition and cost
    # Whom its modifiers reach (over p, this, owner); None: the holder of an active copy.
    applies_to: Expr | None = None


# An action effect, procedure or setup that never waits, as one Python function
# (compile/direct.py): `direct(st, me, *parameter values)` does what its frame would,
# and raises a rule error already placed at the statement that failed.
Direct = Callable[..., None]


@attrs.frozen
class Param:
    name: str
    domain: Expr
    type: str
    # The values the rules declare it may take (`params: {x: {in: ..., max: 10}}`), for
    # the integer action space; None: found from the domain's text (analysis/domains.py).
    values: tuple[Any, ...] | None = None


@attrs.frozen
class ActionDef:
    id: str
    index: int
    group: str
    params: tuple[Param, ...]
    condition: Expr | None
    cost: tuple[Cost, ...]
    code: int
    limits: tuple[tuple[str, int], ...]  # ("turn"|"round"|"game", max uses)
    ends: bool
    label: str
    # The label as a template ({expressions} over `me` and the parameters), for people.
    label_parts: tuple[Any, ...] = ()
    # Generated: lister(state, player, out) appends the legal instances (None: the
    # generic walk in runtime/decisions.py lists them).
    lister: Callable[[Any, int, list[Any]], None] | None = None
    # Generated: its effect as one function, when it can never wait (None: a frame).
    direct: Direct | None = None
    # `why_not:` (when, the reason as a template; None: not listed): why it is out of
    # reach, for people.
    why_not: tuple[tuple[Expr, tuple[Any, ...] | None], ...] = ()


@attrs.frozen
class TriggerDef:
    id: str
    event: str
    subject: int  # zone/counter index, or -1 for subject-less events
    when: Expr | None
    code: int
    card: int | None  # card definition index for card-bound triggers


@attrs.frozen
class ModifierDef:
    id: str
    index: int
    value: int
    op: str
    amount: Expr
    when: Expr | None
    granted: bool
    card: int | None


@attrs.frozen
class ValueDef:
    name: str
    index: int
    of_player: bool
    base: Expr
    type: str
    modifiers: tuple[ModifierDef, ...]
    # Whether working it out calls code made of other rules (a value, a function): then
    # each working out is charged as a call (runtime/work.py), by the generated function
    # and by the walk alike. Known once its function is generated (compile/values.py).
    calls_others: bool = False


@attrs.frozen
class EndDef:
    id: str
    when: Expr
    check: str  # action | turn | round
    then: str  # end | finish_turn | finish_round
    winners: Expr | None
    label: str = ""  # why the game ended, for people ('' : the id in words)


@attrs.frozen
class Scoring:
    eligible: Expr | None
    score: Expr | None
    tie_breaks: tuple[Expr, ...]
    returns: Expr | None
    parts: tuple[ScorePart, ...] = ()  # how a final score is made up, for people
    ineligible: str = ""  # why a player not eligible could not win, for people


@attrs.frozen
class TableDef:
    """How people see the table (`table:`): bookkeeping never shown to them, counters
    drawn as tracks, zones drawn as the board (empty: the front-end's defaults)."""

    hide: frozenset[str] = frozenset()
    tracks: tuple[str, ...] = ()
    board: tuple[str, ...] = ()


@attrs.frozen
class ScorePart:
    """One part of a final score as the end screen tells it: `VP track 25`."""

    label: str
    score: Expr


@attrs.frozen
class UtilityDef:
    """What the rules declare of the returns (`utility:`): their kind (zero-sum,
    constant-sum, general-sum), what they add up to when constant, and the bounds of
    one player's return. The engine checks it at every end of a game."""

    kind: str
    total: float | None  # zero-sum: 0; constant-sum: the constant; general-sum: none
    low: float | None
    high: float | None

    def problem_with(self, returns: list[float]) -> str | None:
        """What is wrong with the returns of a finished game by this declaration, or None."""
        if self.total is not None and abs(sum(returns) - self.total) > 1e-9 * max(1.0, abs(self.total)):
            shown = ", ".join(f"{r:g}" for r in returns)
            return f"the returns ({shown}) add up to {sum(returns):g}, but utility declares {self.kind} {self.total:g}"
        for p, r in enumerate(returns):
            if self.low is not None and r < self.low:
                return f"P{p + 1}'s return {r:g} is below utility's min {self.low:g}"
            if self.high is not None and r > self.high:
                return f"P{p + 1}'s return {r:g} is above utility's max {self.high:g}"
        return None


@attrs.frozen
class BotDef:
    id: str
    description: str
    turn: int | None
    choose: str


@attrs.frozen
class SeatRule:
    """What `orrery play` puts in one seat by default, and which kinds of seat it
    accepts there (empty: any). Simulations may seat anything anywhere."""

    default: str | None
    accepts: tuple[str, ...]


@attrs.frozen
class ViewDef:
    """A template of text for people: strings and (expression, type) parts."""

    id: str
    label: str
    parts: tuple[Any, ...]


@attrs.frozen
class Assumption:
    where: str
    text: str


@attrs.frozen
class GameDef:
    """Everything static about one game (with its chosen variants and overlays)."""

    id: str
    name: str
    version: str
    description: str
    data_hash: str
    min_players: int
    max_players: int
    default_players: int
    variants: tuple[str, ...]
    overlays: tuple[str, ...]
    available_variants: dict[str, str]
    constants: dict[str, Any]
    counters: tuple[CounterDef, ...]
    zones: tuple[ZoneDef, ...]
    cards: tuple[CardDef, ...]
    card_index: dict[str, int]
    actions: tuple[ActionDef, ...]
    groups: dict[str, tuple[ActionDef, ...]]
    triggers: dict[tuple[str, int], tuple[TriggerDef, ...]]
    values: tuple[ValueDef, ...]
    modifiers: tuple[ModifierDef, ...]
    ends: tuple[EndDef, ...]
    scoring: Scoring
    bots: dict[str, BotDef]
    codes: tuple[Code, ...]
    setup: int | None
    flow: int | None
    assumptions: tuple[Assumption, ...]
    source_files: tuple[str, ...]
    views: tuple[ViewDef, ...] = ()
    # Per seat (the last rule covers every later seat); empty: human first, then random.
    seat_rules: tuple[SeatRule, ...] = ()
    # The Python generated for the rules, (which rule, its syntax tree (Python's `ast`)
    # pickled by the compiler itself), and the names it binds (name, description): what
    # `orrery describe GAME --code` prints (the trees written out as text only then).
    generated_code: tuple[tuple[str, bytes], ...] = ()
    generated_names: tuple[tuple[str, str], ...] = ()
    # The code that fires `game_start` (after setup, before the flow's first step), only
    # when some trigger listens to it.
    start: int | None = None
    # The setup as one direct function (compile/direct.py), run instead of its frame
    # without explicit chance, when it never waits and fires nothing a trigger hears.
    setup_direct: Direct | None = None
    # Default options of kinds of seat in this game (`seat_options`), by kind, as a seat
    # spec gives them (text): the spec's own options override them.
    seat_options: dict[str, dict[str, str]] = attrs.field(factory=dict)
    # The player counts a variant sets (`set: players:`), by variant: what to suggest
    # when a count is outside the game's own.
    variant_players: dict[str, tuple[int, int]] = attrs.field(factory=dict)
    table: TableDef = TableDef()
    # What the rules declare of the returns (`utility:`) and the most decisions a game
    # takes (`max_moves:`, a constant's name resolved): none when not declared.
    utility: UtilityDef | None = None
    max_moves: int | None = None
    # The listing of each action group whose actions are always legal (no parameters,
    # condition, cost or use limit: "pass", "end turn"), the same in every state for every
    # player: the runtime's Actions, made once when the rules compile (absent: list it).
    fixed_listings: dict[str, tuple[Any, ...]] = attrs.field(factory=dict)
    # What the analysis of the rule text found (model/facts.py), recorded when the rules
    # load: the runtime reads these and never the text.
    facts: RuleFacts = attrs.field(factory=RuleFacts)
    # What the compiler found that type-checks but had better be said: warnings, as
    # lint's are (errors when loading strictly).
    warnings: tuple[Diagnostic, ...] = ()
    # Derived once from the fields above (never given): the events some trigger listens
    # to, and the end conditions of each check point in the order written.
    listens: frozenset[tuple[str, int]] = attrs.field(init=False)
    ends_by_check: dict[str, tuple[EndDef, ...]] = attrs.field(init=False)
    backs: bool = attrs.field(init=False)  # some card declares its back: hidden zones show backs

    def hides_anything(self) -> bool:
        """True when some zone or counter is hidden from someone, or a zone's order is:
        the game has hidden information (`mcts` refuses it; OpenSpiel is told)."""
        return (any(z.visible != "all" or not z.order_visible for z in self.zones)
                or any(c.visible != "all" for c in self.counters))

    @listens.default
    def _listens(self) -> frozenset[tuple[str, int]]:
        return frozenset(self.triggers)

    @backs.default
    def _backs(self) -> bool:
        return any(card.back for card in self.cards)

    @ends_by_check.default
    def _ends_by_check(self) -> dict[str, tuple[EndDef, ...]]:
        return {check: tuple(end for end in self.ends if end.check == check) for check in CHECK_POINTS}
