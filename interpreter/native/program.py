"""A game's rules as one Cython module of typed C functions over a flat state: the
native backend's lowering (`lower(game, n) -> source`).

The module is specialised to one player count, so every zone slot and counter offset
is a number when the code is written. It holds:

* `St`, the whole state as one C struct: counters as `int64_t` arrays, zones as card
  instance numbers with lengths, where each card is, the random generator's state
  (the engine's splitmix64), the seats' Mersenne Twisters (the `random` seat's own
  generator, Python's, reproduced bit for bit) and the bookkeeping the engine keeps
  (active player, turns, rounds, actions, winners, why it ended);
* one function per action effect, procedure, end check point and action group lister;
* the setup and the flow as one function, each decision made where the flow waits:
  the seat's generator picks among the listed actions exactly as the `random` seat
  picks among `State.legal_actions()`, so a playout here is the engine's playout.

What the native subset does not cover raises `NotNative` (expressions.py) and the game
runs on the Python path, which is always there.
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.board_functions import Board
from interpreter.lang import ast
from interpreter.lang.parser import parse_expression, parse_program
from interpreter.model.definitions import CounterDef
from interpreter.native.bound import narrow_type
from interpreter.native.card_data import CardData
from interpreter.native.card_effects import CardEffects
from interpreter.native.expressions import Bound, Env, Lowering, NotNative, _where, parsed, static_int
from interpreter.native.mappings import Mappings
from interpreter.native.triggers import Triggers
from interpreter.native.values import Values
from interpreter.numbers import exact_division
from interpreter.runtime.layout import Layout, start_template

# Rule sections the subset lowers; anything else in a game sends it to the Python path.
_ACTION_KEYS = {"during", "params", "effect", "ends", "label", "why_not", "text", "description", "help", "condition",
                "cost", "limit", "assumed"}
USE_SCOPES = ("turn", "round", "game")  # an action's use limits, counted per player (g.uses[scope])
_PARAM_KEYS = {"in", "min", "max", "type", "label", "description", "prompt"}
_END_KEYS = {"id", "check", "when", "winners", "label", "description", "then"}
_SCORING_KEYS = {"score", "returns", "label", "description", "eligible", "ineligible", "tie_breaks", "parts"}
_GAME_KEYS = {"orrery", "id", "name", "version", "description", "players", "constants", "counters", "zones",
              "cards", "actions", "procedures", "functions", "boards", "setup", "flow", "end", "scoring", "views",
              "assumptions", "max_moves", "utility", "table", "seats", "seat_options", "sources", "variants",
              "rulebook", "credits", "authors", "license", "tags", "notes", "bots",
              "include"}  # (included files are merged into the rules by the time they are read)
MAX_CANDIDATES = 4096  # legal actions one listing may hold natively (more: the Python path)
LIST_CAPACITY = 64  # items a local list may hold natively (more: the Python path)
CREATED_CAP = 128  # cards a game may create natively (more: the Python path)
WORD_BASE = 1 << 30  # the first word's number (words are numbers the rules' arithmetic does not reach)


def _merged(kinds: set[str]) -> str:
    """One kind for values of these kinds: the one concrete kind among them (a value of
    no known kind beside it taken for it), else any; lists by their elements."""
    if all(k.startswith("list:") for k in kinds):
        return "list:" + _merged({k[5:] for k in kinds})
    concrete = kinds - {"any"}
    return next(iter(concrete)) if len(concrete) == 1 else "any"


class Table:
    """A constant list (of numbers, of equal rows of numbers, or of words) as a C array."""

    def __init__(self, cname: str, value: list[Any], node: ast.Node, word: Any):
        self.cname = cname
        self.words: list[str] | None = None
        self.type = "int"
        self.nested = bool(value) and all(isinstance(v, list) for v in value)
        if value and all(isinstance(v, str) for v in value):  # (walked word by word; read as numbers)
            self.words, self.rows, self.width, self.flat = list(value), [], 0, [word(v) for v in value]
            self.type = "word"
            return
        if self.nested:
            widths = {len(v) for v in value}
            if len(widths) != 1 or not all(static_int(x) for v in value for x in v):
                raise NotNative(f"{_where(node)}: a constant table of uneven rows or not numbers")
            self.rows, self.width = value, widths.pop()
            self.flat = [int(x) for v in value for x in v]
        else:
            if not all(static_int(x) for x in value):
                raise NotNative(f"{_where(node)}: a constant list that is not numbers")
            self.rows, self.width, self.flat = [], 0, [int(x) for x in value]

    def read(self, row: str | None, index: str, node: ast.Node) -> str:
        if row is None:
            return f"{self.cname}[checked(g, {index}, {len(self.flat)})]"
        return f"{self.cname}[{row} * {self.width} + checked(g, {index}, {self.width})]"

    def walk(self, lw: Lowering, body: Any, node: ast.Node) -> None:
        if self.words is not None:
            for word in self.words:
                body(Bound("static", value=word))
            return
        i = lw.temp("i")
        if self.nested:
            lw.block(f"for {i} in range({len(self.rows)}):", lambda: body(Bound("row", i, value=self)))
        else:
            lw.block(f"for {i} in range({len(self.flat)}):", lambda: body(Bound("c", f"{self.cname}[{i}]")))


class KeyedTable:
    """A constant mapping of words to numbers or to words (`prices: {red: 1, ...}`)
    as a C array by word (its number less WORD_BASE), and beside it where each key is
    (a word that is no key reads out of range: the engine's missing key, a rule slip)."""

    def __init__(self, cname: str, value: dict[str, Any], node: ast.Node, word: Any):
        self.cname = cname
        self.keys = list(value)
        if not self.keys or not all(isinstance(k, str) for k in self.keys):
            raise NotNative(f"{_where(node)}: a constant mapping whose keys are not words")
        places = [word(k) - WORD_BASE for k in self.keys]
        self.size = max(places) + 1
        self.where = [-1] * self.size
        for place in places:
            self.where[place] = place
        items = list(value.values())
        # A mapping to records (`locations: {earth_satellite: {dst: earth, slots: 4}}`):
        # one column per field, read as `places[p].slots`.
        self.columns: dict[str, tuple[str, list[int], str]] = {}
        if all(isinstance(v, dict) for v in items):
            fields = list(items[0])
            if any(list(v) != fields for v in items):
                raise NotNative(f"{_where(node)}: a constant mapping to records of unequal fields")
            for j, name in enumerate(fields):
                flat, kind = self._column([v[name] for v in items], places, node, word)
                self.columns[name] = (f"{cname}_{j}", flat, kind)
            self.flat, self.type = [0], "record"
        elif all(isinstance(v, list) for v in items):
            # A mapping to lists (`rewards: {north: [none, gold], south: [...]}`): the lists
            # one after another, where each starts and how long it is by the key's place.
            flats = [self._column(v, list(range(len(v))), node, word) if v else ([], "int") for v in items]
            kinds = {kind for flat, kind in flats if flat}
            if len(kinds) > 1:
                raise NotNative(f"{_where(node)}: a constant mapping to lists of numbers and of words")
            self.type, self.seq_kind = "seq", kinds.pop() if kinds else "int"
            self.flat, self.starts, self.lengths = [], [0] * self.size, [0] * self.size
            for place, (flat, _) in zip(places, flats, strict=True):
                self.starts[place], self.lengths[place] = len(self.flat), len(flat)
                self.flat += flat
        else:
            self.flat, self.type = self._column(items, places, node, word)
        self.nested = False

    def _column(self, items: list[Any], places: list[int], node: ast.Node, word: Any) -> tuple[list[int], str]:
        if all(static_int(v) for v in items):
            numbers, kind = [int(v) for v in items], "int"
        elif all(isinstance(v, str) for v in items):
            numbers, kind = [word(v) for v in items], "word"
        else:
            raise NotNative(f"{_where(node)}: a constant mapping to what is not numbers or words")
        flat = [0] * (max(places) + 1 if places else 0)
        for place, number in zip(places, numbers, strict=True):
            flat[place] = number
        return flat, kind

    def place(self, key: str) -> str:
        """Where the word `key` is among the keys (the engine's missing key: a rule slip)."""
        return f"checked(g, {self.cname}W[checked(g, {key} - {WORD_BASE}, {self.size})], {self.size})"

    def read_key(self, key: str) -> str:
        return f"{self.cname}[{self.place(key)}]"

    def tables(self) -> list[tuple[str, list[int]]]:
        out = [(f"{self.cname}W", self.where), *((c, flat) for c, flat, _ in self.columns.values())]
        if self.type == "seq":
            out += [(f"{self.cname}O", self.starts), (f"{self.cname}N", self.lengths)]
        return out

    def walk(self, lw: Lowering, body: Any, node: ast.Node) -> None:
        for key in self.keys:  # (a mapping walked: its keys, in order)
            body(Bound("static", value=key))


class Grid:
    """A constant nested evenly (mappings of words and lists, every branch the same
    shape down to numbers or words: `distance[a][b][i]`) as one C array, row-major; each
    mapping level has a table from a word to its place among that level's keys."""

    def __init__(self, cname: str, value: Any, node: ast.Node, word: Any):
        self.cname = cname
        self.levels: list[tuple[str, Any]] = []  # ("map", keys) or ("list", length)
        level = [value]
        while all(isinstance(v, (dict, list)) for v in level):
            first = level[0]
            if isinstance(first, dict):
                keys = list(first)
                if not keys or not all(isinstance(v, dict) and list(v) == keys for v in level) or \
                        not all(isinstance(k, str) for k in keys):
                    raise NotNative(f"{_where(node)}: a constant nested unevenly")
                self.levels.append(("map", keys))
                level = [v[k] for v in level for k in keys]
            else:
                n = len(first)
                if not n or not all(isinstance(v, list) and len(v) == n for v in level):
                    raise NotNative(f"{_where(node)}: a constant nested unevenly")
                self.levels.append(("list", n))
                level = [x for v in level for x in v]
        if all(static_int(v) for v in level):
            self.flat, self.type = [int(v) for v in level], "int"
        elif all(isinstance(v, str) for v in level):
            self.flat, self.type = [word(v) for v in level], "word"
        else:
            raise NotNative(f"{_where(node)}: a constant of what is not numbers or words")
        self.wheres: list[tuple[str, list[int]]] = []  # per mapping level: word place -> key place
        for depth, (kind, keys) in enumerate(self.levels):
            if kind == "map":
                places = [word(k) - WORD_BASE for k in keys]
                where = [-1] * (max(places) + 1)
                for at, place in enumerate(places):
                    where[place] = at
                self.wheres.append((f"{cname}G{depth}", where))

    def read(self, indices: list[str]) -> str:
        """The element at these indices (a word's code at a mapping level, a number at a list's)."""
        if len(indices) != len(self.levels):
            raise NotNative(f"'{self.cname}' read at {len(indices)} of its {len(self.levels)} levels")
        offset, stride, tables = [], 1, dict(self.wheres)
        sizes = [len(keys) if kind == "map" else keys for kind, keys in self.levels]
        for depth in range(len(self.levels) - 1, -1, -1):
            kind, _ = self.levels[depth]
            code = indices[depth]
            if kind == "map":
                name = f"{self.cname}G{depth}"
                code = f"{name}[checked(g, {code} - {WORD_BASE}, {len(tables[name])})]"
            offset.append(f"checked(g, {code}, {sizes[depth]}) * {stride}")
            stride *= sizes[depth]
        return f"{self.cname}[{' + '.join(offset)}]"


class NativeBoard:
    def __init__(self, board: Board, cname: str):
        self.board, self.cname = board, cname
        self.size, self.width, self.height = board.size, board.width, board.height

    def step(self, word: str, cell: str, node: ast.Node) -> str:
        if word not in self.board.steps:
            raise NotNative(f"{_where(node)}: {word!r} is not a direction")
        order = list(self.board.steps).index(word)
        return f"{self.cname}[{order * self.size} + checked(g, {cell}, {self.size})]"


C_WIDTHS = {"int8_t": 1, "uint8_t": 1, "int16_t": 2, "uint16_t": 2, "int32_t": 4, "uint32_t": 4,
            "int64_t": 8, "uint64_t": 8, "double": 8}  # (the bytes of each C type a field may have)


class Program:
    """The lowering of one game for one player count."""

    def __init__(self, game: Any, n: int, step: bool = False):
        self.gd = gd = game.definition
        self.raw: dict[str, Any] = game.raw
        self.n = n
        self._refuse_unsupported()
        self.constants: dict[str, Any] = dict(gd.constants)
        self.counters = gd.counters
        self.counter_index = {c.name: c.index for c in gd.counters}
        self.layout = Layout.build(gd, n)
        self.template = start_template(gd, self.layout, n)
        self.ncards = len(self.template.card_def)
        self.zone_index = {z.name: z.index for z in gd.zones}
        self.exact_division = exact_division(self.raw)  # (else `/` rounds toward zero: format 1)
        self.card_data = CardData(self)  # (list properties and attributes the rules set)
        self.values = Values(self)  # (the declared values the rules read, lowered as they are met)
        self.card_effects = CardEffects(self)  # (the cards' effects the rules use, likewise)
        self.triggers = Triggers(self)  # (the events triggers hear, and their queue)
        self.mappings = Mappings(self)  # (mappings handed around as values, read by key)
        self.word_base = WORD_BASE
        self.functions: dict[str, Any] = dict(self.raw.get("functions") or {})
        self.tables: dict[str, Table | KeyedTable] = {}
        self.boards: dict[str, NativeBoard] = {}
        self.grids: dict[str, Grid | None] = {}  # (constants nested evenly, read at every level)
        self.props: dict[str, list[int]] = {}
        self.prop_types: dict[str, str] = {}  # "int", or "word" (numbers of self.words)
        self.words: dict[str, int] = {}  # the rules' words read in C, numbered
        self.extra_tables: dict[str, list[int]] = {}  # C tables some built-in reads (name -> numbers)
        self.reasons: list[str] = ["flow-ended", "end-game"]
        self.wanted_procedures: set[str] = set()
        self._word_params: dict[str, dict[int, str]] | None = None  # (param_kinds)
        self.call_kinds: dict[str, list[set[str]]] = {}  # (called) what calls give each parameter
        self.param_types: dict[str, list[str]] = {}  # the procedures written, their parameters' types
        self.creates = False  # some statement creates cards: room is kept for CREATED_CAP more
        # A per-step module (resumable.py): what its functions keep in the struct, and
        # each choice that may wait for a seat (1 when its options are cards).
        self.step = step
        self.nparams = max([len(a.params) for group in gd.groups.values() for a in group] + [1])
        self.list_capacity = LIST_CAPACITY
        self.step_fields: dict[str, str] = {}
        self.asks: list[bool] = []
        self._functions = 0
        # Actions with a use limit, numbered: their uses per player are g.uses[scope][k * NPLAYERS + p].
        self.limited = {a.id: k for k, a in enumerate(a for a in gd.actions if a.limits)}
        # Modifiers that apply only while granted (`grant M to P until end of turn`), numbered:
        # g.grants[k * NPLAYERS + p] holds a bit per duration still running (turn 1, round 2, game 4).
        self.granted = {m.id: k for k, m in enumerate(m for m in gd.modifiers if m.granted)}
        self.limit_scopes = {scope for a in gd.actions for scope, _ in a.limits}
        # End conditions that let the turn or round finish first (g.ending: ENDING_TURN or ENDING_ROUND).
        self.deferred = any(end.then != "end" for end in gd.ends)

    # ---- what the rules hold -------------------------------------------------------------------

    def _refuse_unsupported(self) -> None:
        """NotNative naming every part of the rules, seen as a whole, that the subset does
        not lower (statements and built-ins are refused as they are met, later)."""
        gd, raw = self.gd, self.raw
        found = []
        extra = sorted(set(raw) - _GAME_KEYS - {"triggers", "values", "modifiers", "events"})
        if extra:
            found.append(f"the sections {', '.join(extra)}")
        # (game bots are fine: only the ones with a `turn` effect outside the subset are not)
        if any(c.fractions for c in gd.counters):
            found.append("counters with fractions")
        unknown = [a.id for a in gd.actions if set((raw.get("actions") or {}).get(a.id) or {}) - _ACTION_KEYS]
        if unknown:
            more = " ..." if len(unknown) > 3 else ""
            found.append(f"actions with what the subset does not lower ({', '.join(unknown[:3])}{more})")
        for action in gd.actions:
            spec = (raw.get("actions") or {}).get(action.id) or {}
            if any(isinstance(v, dict) and set(v) - _PARAM_KEYS for v in (spec.get("params") or {}).values()):
                found.append(f"action '{action.id}' has a parameter the subset does not list")
                break
        if set(raw.get("scoring") or {}) - _SCORING_KEYS:
            found.append("scoring with eligibility or tie-breaks")
        if found:
            raise NotNative("; ".join(found))

    def table(self, name: str, node: ast.Node) -> Table | KeyedTable:
        table = self.tables.get(name)
        if table is None:
            value = self.constants[name]
            if isinstance(value, dict):
                table = KeyedTable(f"K{len(self.tables)}", value, node, self.word)
                self.extra_tables.update(table.tables())
            elif isinstance(value, list):
                table = Table(f"K{len(self.tables)}", value, node, self.word)
            else:
                raise NotNative(f"{_where(node)}: constant '{name}' used as a list")
            self.tables[name] = table
        return table

    def rule_spec(self, section: str, ident: str, card: int | None) -> dict[str, Any]:
        """The rules' own text of a trigger or modifier (`section`): the game's, or a
        card's (its id then `card-id.name`)."""
        if card is None:
            spec = (self.raw.get(section) or {}).get(ident)
        else:
            cards = self.raw.get("cards") or {}
            spec = ((cards.get(self.gd.cards[card].id) or {}).get(section) or {}).get(ident.split(".", 1)[-1])
        if not isinstance(spec, dict):
            raise NotNative(f"{section[:-1]} '{ident}' not found in the rules")
        return spec

    def grid(self, name: str, node: ast.Node) -> Grid | None:
        """The constant as a Grid, or None where it is not nested evenly (a mapping to
        lists of several lengths is a KeyedTable's)."""
        if name not in self.grids:
            try:
                found = Grid(f"GR{len(self.grids)}", self.constants[name], node, self.word)
            except NotNative:
                self.grids[name] = None
                return None
            self.grids[name] = found
            self.extra_tables[found.cname] = found.flat
            self.extra_tables.update(found.wheres)
        return self.grids[name]

    def board(self, node: ast.Node) -> NativeBoard:
        if not isinstance(node, ast.Name):
            raise NotNative(f"{_where(node)}: a board given by an expression")
        found = self.boards.get(node.name)
        if found is None:
            spec = (self.raw.get("boards") or {}).get(node.name)
            if not isinstance(spec, dict):
                raise NotNative(f"{_where(node)}: '{node.name}' is not a board")
            board = Board(node.name, int(spec["width"]), int(spec["height"]), spec.get("adjacency") == "all")
            found = self.boards[node.name] = NativeBoard(board, f"B{len(self.boards)}")
        return found

    def counter_read(self, name: str, player: str | None, index: str | None, node: ast.Node,
                     checked: bool = True) -> str:
        return f"g.c{self.counter_index[name]}[{self.counter_slot(name, player, index, node, checked)}]"

    def counter_slot(self, name: str, player: str | None, index: str | None, node: ast.Node,
                     checked: bool = True) -> str:
        cdef = self.counters[self.counter_index[name]]
        if (cdef.scope == "player") != (player is not None):
            raise NotNative(f"{_where(node)}: counter '{name}' read {'without' if player is None else 'with'} a player")
        if (cdef.width > 1) != (index is not None):
            raise NotNative(f"{_where(node)}: counter '{name}' read {'without' if index is None else 'with'} an index")
        parts = []
        if player is not None:
            parts.append(f"checked(g, {player}, {self.n})" + (f" * {cdef.width}" if cdef.width > 1 else ""))
        if index is not None and cdef.keys and checked:  # (a key is a word: its place among the keys;
            # unchecked, the index is a place already: a walk over the counter)
            place = f"{self.key_table(cdef)}[checked(g, {index} - {WORD_BASE}, {self.key_words(cdef)})]"
            parts.append(f"checked(g, {place}, {cdef.width})")
        elif index is not None:
            parts.append(f"checked(g, {index}, {cdef.width})" if checked else index)
        return " + ".join(parts) or "0"

    def key_words(self, cdef: CounterDef) -> int:
        """How far the table of a keyed counter's keys reaches (words past it are no key)."""
        return max(self.word(k) for k in cdef.keys or ()) - WORD_BASE + 1

    def key_table(self, cdef: CounterDef) -> str:
        """A C table from a word (its number less WORD_BASE) to its place among the keys
        of the counter (a word that is no key reads a place out of range: a rule slip)."""
        name = f"KY{cdef.index}"
        if name not in self.extra_tables:
            places = [-1] * self.key_words(cdef)
            for offset, key in enumerate(cdef.keys or ()):
                places[self.word(key) - WORD_BASE] = offset
            self.extra_tables[name] = places
        return name

    def card_property(self, prop: str, card: str, node: ast.Node) -> Bound:
        """A card's field, read by its definition (`g.kind`: created cards too): a number
        property, or words (its id, name, type, or a property of words on every card that
        has it), each word a number of the rules' words (`word`; none: -1)."""
        if prop not in self.props and self.mappings.is_mapping_property(prop):
            return self.mappings.property(prop, card, node)
        if prop not in self.props:
            values = self.card_data.statics(prop)
            if all(static_int(v) or v is None for v in values) and any(v is not None for v in values):
                # (a card without it reads none: -1, as every none is in C)
                self.props[prop] = [-1 if v is None else int(v) for v in values]
                self.prop_types[prop] = "int"
            elif all(isinstance(v, str) or v is None for v in values):
                self.props[prop] = [-1 if v is None else self.word(v) for v in values]
                self.prop_types[prop] = "word"
            else:
                raise NotNative(f"{_where(node)}: property '{prop}' is neither a number nor a word on every card")
        return Bound("c", f"P{list(self.props).index(prop)}[g.kind[checked(g, {card}, g.ncards)]]",
                     self.prop_types[prop])

    @property
    def card_room(self) -> int:
        """Room for card copies: the game's, and CREATED_CAP more where some statement
        creates cards (known once every function is lowered)."""
        return max(self.ncards + (CREATED_CAP if self.creates else 0), 1)

    @property
    def card_type(self) -> str:
        """The C type of a card (card_t): two bytes where the copies fit (a clone copies
        every card's place, and lists of cards kept in the struct)."""
        return narrow_type(self.card_room)

    def word(self, text: str) -> int:
        """The number that stands for a word of the rules in C: equal words, equal numbers,
        and none equal to a number the rules work out (so `==` of anything is the engine's)."""
        return self.words.setdefault(text, WORD_BASE + len(self.words))

    def card_definition(self, card_id: str, node: ast.Node) -> int:
        if card_id not in self.gd.card_index:
            raise NotNative(f"{_where(node)}: no card '{card_id}'")
        self.creates = True
        return self.gd.card_index[card_id]

    def zone_slot_or_none(self, node: ast.Node, env: Env, lw: Lowering) -> str | None:
        if isinstance(node, ast.Name) and node.name in self.zone_index and node.name not in env:
            zdef = self.gd.zones[self.zone_index[node.name]]
            return None if zdef.scope == "player" else str(self.layout.zbase[zdef.index])
        if isinstance(node, ast.Call) and node.name in self.zone_index and len(node.args) == 1:
            zdef = self.gd.zones[self.zone_index[node.name]]
            if zdef.scope != "player":
                return None
            return f"({self.layout.zbase[zdef.index]} + checked(g, {lw.code(node.args[0], env)}, {self.n}))"
        return None

    def zone_slot(self, node: ast.Node, env: Env, lw: Lowering) -> str:
        slot = self.zone_slot_or_none(node, env, lw)
        if slot is None:
            raise NotNative(f"{_where(node)}: not a zone")
        return slot

    def parsed_function(self, name: str) -> ast.Node:
        """A function's value, as a tree."""
        return parsed((self.functions[name] or {}).get("value"), f"function '{name}'")

    def function_body(self, name: str, call: ast.Call, env: Env, lw: Lowering) -> tuple[ast.Node, Env]:
        spec = self.functions[name]
        params = list((spec.get("params") or {}) if isinstance(spec, dict) else [])
        if len(params) != len(call.args):
            raise NotNative(f"{_where(call)}: function '{name}' called with {len(call.args)} arguments")
        scope: Env = {}
        for param, arg in zip(params, call.args, strict=True):
            value = lw.expr(arg, env)
            if value.kind == "c" and not value.code.isidentifier():
                held = lw.temp("arg")
                lw.line(f"{held} = {value.code}")
                value = Bound("c", held, value.type)
            scope[param] = value
        return parse_expression(str(spec["value"])), scope

    def cost_targets(self, spec: dict[str, Any], what: str) -> list[tuple[ast.Node, ast.Node, int]]:
        """Each counter of a cost (`{COUNTER: AMOUNT}`), in order: the counter as a target
        (`me`'s own for a player counter), the amount, and the least it may be left at."""
        out = []
        for name, text in spec.items():
            if str(name) not in self.counter_index:
                raise NotNative(f"{what}: counter '{name}'")
            cdef = self.counters[self.counter_index[str(name)]]
            amount = parsed(text, what)
            target: ast.Node = ast.Name(amount.line, amount.column, cdef.name)
            if cdef.scope == "player":
                target = ast.Call(amount.line, amount.column, cdef.name,
                                  (ast.Name(amount.line, amount.column, "me"),))
            out.append((target, amount, cdef.min if cdef.min is not None else 0))
        return out

    def uses_slot(self, action_id: str, scope: str, player: str) -> str:
        """Where the uses of a limited action by `player` this `scope` are counted."""
        return f"g.uses[{USE_SCOPES.index(scope)}][{self.limited[action_id]} * NPLAYERS + {player}]"

    def reason(self, text: str) -> int:
        if text not in self.reasons:
            self.reasons.append(text)
        return self.reasons.index(text)

    # ---- parsing the rule texts -----------------------------------------------------------------

    def program(self, text: Any) -> tuple[ast.Node, ...]:
        return parse_program(str(text)) if isinstance(text, str) and text.strip() else ()

    # ---- what statements ask of the game --------------------------------------------------------

    def new_function(self) -> int:
        self._functions += 1
        return self._functions

    def new_ask(self, cards: bool) -> int:
        """The number of a choice that may wait for a seat (2 on: 1 is a listing)."""
        self.asks.append(cards)
        return len(self.asks) + 1

    def ends_at(self, check: str) -> bool:
        return bool(self.gd.ends_by_check.get(check))

    def group(self, name: str, node: ast.Node) -> int:
        groups = list(self.gd.groups)
        if name not in groups:
            raise NotNative(f"{_where(node)}: no actions in group '{name}'")
        return groups.index(name)

    def procedure(self, name: str, nargs: int, node: ast.Node) -> str:
        spec = (self.raw.get("procedures") or {}).get(name)
        if not isinstance(spec, dict):
            raise NotNative(f"{_where(node)}: '{name}' is not a procedure")
        if len(spec.get("params") or []) != nargs:
            raise NotNative(f"{_where(node)}: procedure '{name}' called with {nargs} arguments")
        self.wanted_procedures.add(name)
        return str(self.procedure_number(name))

    def word_params(self) -> dict[str, set[int]]:
        """Per procedure, the places of its parameters some call gives a word as it is
        written (`pay(me, cost, "none")`): an untyped parameter there holds words."""
        return {name: {k for k, kind in kinds.items() if kind == "word"} for name, kinds in self.param_kinds().items()}

    def param_kinds(self) -> dict[str, dict[int, str]]:
        """Per procedure, what some call gives a parameter as it is written, where that
        says more than a number: a word (`"none"`), or a mapping (a constant one, or a
        card's mapping property: `pay_all(me, item.cost)`)."""
        if self._word_params is None:
            found: dict[str, dict[int, str]] = {}

            def scan(node: Any) -> None:
                if isinstance(node, dict):
                    for key, value in node.items():
                        if key in ("effect", "turn", "setup", "flow") and isinstance(value, str):
                            look(value)
                        elif key == "effects" and isinstance(value, dict):
                            for spec in value.values():
                                look(spec) if isinstance(spec, str) else scan(spec)
                        else:
                            scan(value)
                elif isinstance(node, list):
                    for item in node:
                        scan(item)

            def look(text: str) -> None:
                try:
                    body = self.program(text)
                except Exception:  # (a text the compiler accepted parses: this is a guard only)
                    return
                for stmt in ast.statements(body):
                    if isinstance(stmt, ast.CallStmt):
                        for k, arg in enumerate(stmt.args):
                            kind = self._written_kind(arg)
                            if kind:
                                found.setdefault(stmt.name, {})[k] = kind
            scan(self.raw)
            self._word_params = found
        return self._word_params

    def called(self, name: str, kinds: list[str], where: str) -> None:
        """A call of procedure `name` gives values of these kinds: until the procedure is
        written they type its untyped parameters (`param_type`); after, a kind it was
        not written for refuses the rules."""
        seen = self.call_kinds.setdefault(name, [set() for _ in kinds])
        fixed = self.param_types.get(name)
        for k, kind in enumerate(kinds):
            if fixed is not None and _merged({fixed[k], kind}) != fixed[k] and (fixed[k], kind) != ("int", "any"):
                raise NotNative(f"{where}: procedure '{name}' given a {kind} where it was written for a {fixed[k]}")
            seen[k].add(kind)

    def param_type(self, name: str, k: int, declared: str | None) -> str:
        """The type procedure `name`'s parameter k is written for: declared, or what its
        calls give (one kind: that; a word or mapping as written: that; else a number).
        One declared `any` that every call gives one kind of value is written for that kind."""
        if declared is not None and declared != "any":
            return declared
        written = self.param_kinds().get(name, {}).get(k)
        if written:
            return written
        calls = self.call_kinds.get(name, [])
        kinds = calls[k] if k < len(calls) else set()
        if any(kind.startswith("list:") for kind in kinds):
            if not all(kind.startswith("list:") for kind in kinds):
                raise NotNative(f"procedure '{name}' given a list and what is not one")
            return _merged(kinds)
        # (a value of no known kind (from a list of mixed ones) beside values of one kind:
        # that kind, as an untyped parameter always was a number before calls said more)
        return _merged(kinds) if kinds else "any" if declared else "int"

    def _written_kind(self, arg: ast.Node) -> str:
        if isinstance(arg, ast.Literal) and isinstance(arg.value, str):
            return "word"
        if isinstance(arg, ast.Name) and isinstance(self.constants.get(arg.name), dict):
            return "map"
        if isinstance(arg, ast.Attr) and self.mappings.is_mapping_property(arg.name):
            return "map"
        return ""

    def procedure_number(self, name: str) -> int:
        """A procedure's number: the C name it is written under (proc3), never its text."""
        return list(self.raw.get("procedures") or {}).index(name)

    def winners_into(self, lw: Lowering, node: ast.Node | None, env: Env) -> None:
        """Write the winners of `end game`/an end condition into `g.winners` (none
        given: scoring decides, as the engine's `finish` does)."""
        if node is None:
            lw.line("score_winners(g)")
            return
        lw.line("g.nwin = 0")
        value = None if isinstance(node, (ast.ListExpr, ast.Comprehension)) or \
            (isinstance(node, ast.Name) and node.name == "players" and node.name not in env) else lw.expr(node, env)
        if value is not None and value.kind == "c":
            lw.line(f"add_winner(g, {value.code})")
            return

        def add(item: Bound) -> None:
            lw.line(f"add_winner(g, {lw._operand(node, item)})")
        lw.each(node, env, add)
