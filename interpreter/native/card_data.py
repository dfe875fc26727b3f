"""Cards' list properties and the attributes the rules set on cards at run time
(`set c.x to ...`), in the native backend's flat state.

* A property that is a list (`res: [fuel, hull]`, or equal rows: `lanes: [[fuel, hull],
  ...]`) is a constant table: every definition's list one after another (`LV{k}`), each
  definition's offset and length in it (`LO{k}`, `LN{k}`; -1: the card has no such
  property, which the engine would refuse to walk).
* An attribute some effect sets lives in the struct, as the engine's `st.attrs` does, in
  a record of the copy's: `ax[c]` is copy c's record (0: none yet, a record whose fields are
  all unset), given at the copy's first attribute. Most copies never have one (a third
  of the largest bundled game's, in its random games), so a clone copies ATTRCAP records,
  not one per copy; one more copy with attributes hands the game to the Python path, as a
  cap met. A record holds a number, card or word in `a{k}[r]`, four bytes (ATTR_UNSET:
  never set, or set to none, so the property is read, as the engine reads it; a number
  beyond four bytes is a cap met too), and a list as a piece of one pool (`ao{k}`,
  `an{k}`: its offset and length, one byte, -1: unset), written at the pool's end and
  compacted, in record order, when the pool is full (still full: the Python path). A pool
  item is four bytes, as are the cards' own lists of that field (`LV{k}`: one pointer
  reads either), unless one of those holds a larger number; an item written beyond them
  is a cap met.

A list is read in place (`lb{k}(g, c)`, its first element, and `ln{k}(g, c)`, its length:
inline functions, so a read inside `and` is made only when C gets there). Words are
numbers (`Program.word`), none of which equals a number the rules compute.
"""

from __future__ import annotations

import hashlib
from typing import Any

from interpreter.compile.scan import all_effect_texts
from interpreter.lang import ast
from interpreter.lang.parser import parse_program
from interpreter.native import walks
from interpreter.native.bound import Bound, Env, NotNative, _where, byte_type, static_int

CORE_FIELDS = ("id", "name", "type", "text")  # every card's own fields (the rest are its properties)
ATTR_UNSET = -(1 << 31) + 1  # an attribute never set (or set to none): the property is read


def _writes(raw: dict[str, Any]) -> dict[str, list[ast.Node]]:
    """Each card field some effect sets, with the values it is set to."""
    found: dict[str, list[ast.Node]] = {}
    for text in all_effect_texts(raw):
        try:
            nodes = ast.walk(parse_program(str(text)))
        except Exception:
            continue  # (a text that does not parse is reported where it is compiled)
        for node in nodes:
            if isinstance(node, ast.Set) and isinstance(node.target, ast.Attr):
                found.setdefault(node.target.name, []).append(node.value)
    return found


_NUMBERS = {"round_number", "turn_number", "player_count"}
_COUNTS = {"random", "abs", "len", "count", "size", "sum", "index_of"}  # built-ins that give numbers


def _written_type(values: list[ast.Node], counters: set[str]) -> set[str]:
    """What the values written say of a field's type, where it is plain: a number (a
    literal, a counter, arithmetic), a word, or anything ("any")."""
    kinds = set()
    for value in values:
        if isinstance(value, ast.Literal) and static_int(value.value):
            kinds.add("int")
        elif isinstance(value, ast.Unary) and value.op == "-":
            kinds.add("int")
        elif isinstance(value, ast.Binary) and value.op in ("-", "*", "/", "//", "%"):
            kinds.add("int")
        elif isinstance(value, ast.Binary) and value.op == "+" and not any(
                isinstance(side, ast.Literal) and isinstance(side.value, str) for side in (value.left, value.right)):
            kinds.add("int")  # (a field of one value: `+` of numbers; words cannot be added natively)
        elif isinstance(value, ast.Name) and (value.name in _NUMBERS or value.name in counters):
            kinds.add("int")
        elif isinstance(value, ast.Call) and (value.name in counters or value.name in _COUNTS):
            kinds.add("int")
        elif isinstance(value, ast.Literal) and isinstance(value.value, str):
            kinds.add("word")
        elif not ((isinstance(value, ast.Name) and value.name == "none") or
                  (isinstance(value, ast.Literal) and value.value is None)):  # (none: the property, read again)
            kinds.add("any")
    return kinds


class CardData:
    """The card fields a game's lowering reads or sets, each laid out once."""

    def __init__(self, prog: Any):
        self.prog = prog
        self.written = _writes(prog.raw)
        self.lists: dict[str, int] = {}  # list fields met, numbered (tables LV/LO/LN, maybe pool pieces)
        self.list_types: dict[str, str] = {}
        self.widths: dict[str, int] = {}  # a list of rows: their width
        self.table_values: dict[str, tuple[list[int], list[int], list[int]]] = {}
        self.scalars: dict[str, int] = {}  # attributes of one value met, numbered
        self.scalar_types: dict[str, str] = {}
        self.scalar_props: dict[str, list[int]] = {}

    def statics(self, field: str) -> list[Any]:
        """The field's value on each card definition, as written (None: the card has none)."""
        return [getattr(d, field) if field in CORE_FIELDS else d.properties.get(field) for d in self.prog.gd.cards]

    def is_list(self, field: str) -> bool:
        """Whether the field holds lists (a property that is one, or a list written)."""
        if field in CORE_FIELDS:
            return False
        if any(isinstance(v, list) for v in self.statics(field)):
            return True
        return any(isinstance(v, (ast.ListExpr, ast.Comprehension)) for v in self.written.get(field, ()))

    def handles(self, field: str) -> bool:
        return field in self.written or self.is_list(field)

    # ---- reading -------------------------------------------------------------------------------

    def read(self, field: str, card: str, node: ast.Node) -> Bound:
        """`card.field` as C: a list in memory (`seq`), or one value."""
        if self.is_list(field):
            k = self._list(field, node)
            width = self.widths.get(field, 0)
            pointer = "pool_t*" if field in self.written else "int64_t*"
            return Bound("seq", f"lb{k}(g, {card})", self.list_types[field], (f"ln{k}(g, {card})", width),
                         pointer)
        k = self._scalar(field, node)
        return Bound("c", f"av{k}(g, {card})", self.scalar_types[field])

    def _list(self, field: str, node: ast.Node) -> int:
        if field in self.lists:
            return self.lists[field]
        word = self.prog.word
        statics = self.statics(field)
        if any(v is not None and not isinstance(v, list) for v in statics):
            raise NotNative(f"{_where(node)}: property '{field}' is a list on some cards and not on others")
        items = [x for v in statics if v for x in v]
        width = 0
        if items and all(isinstance(x, list) for x in items):
            widths = {len(x) for x in items}
            if len(widths) != 1 or field in self.written:
                raise NotNative(f"{_where(node)}: property '{field}' holds rows of unequal lengths, or is set")
            width = widths.pop()
            items = [y for x in items for y in x]
        if not all(static_int(x) or isinstance(x, str) for x in items):
            raise NotNative(f"{_where(node)}: property '{field}' holds lists of what is not a number or a word")
        kinds = {"word" if isinstance(x, str) else "int" for x in items}
        flat: list[int] = []
        offsets: list[int] = []
        lengths: list[int] = []
        for v in statics:
            offsets.append(len(flat))
            lengths.append(-1 if v is None else len(v))
            for x in v or ():
                for y in (x if width else [x]):
                    flat.append(word(y) if isinstance(y, str) else int(y))
        self.list_types[field] = kinds.pop() if len(kinds) == 1 else "any"
        self.widths[field] = width
        self.table_values[field] = (flat, offsets, lengths)
        k = self.lists[field] = len(self.lists)
        return k

    def _scalar(self, field: str, node: ast.Node) -> int:
        if field in self.scalars:
            return self.scalars[field]
        statics = self.statics(field)
        if any(isinstance(v, (list, dict)) or not (v is None or static_int(v) or isinstance(v, str))
               for v in statics):
            raise NotNative(f"{_where(node)}: property '{field}' is set and is not a number or a word")
        kinds = _written_type(self.written.get(field, []), set(self.prog.counter_index))
        kinds |= {"word" if isinstance(v, str) else "int" for v in statics if v is not None}
        # (a field that may hold cards, numbers and words alike: "any", compared as the engine does)
        self.scalar_types[field] = kinds.pop() if len(kinds) == 1 else "any"
        self.scalar_props[field] = [-1 if v is None else self.prog.word(v) if isinstance(v, str) else int(v)
                                    for v in statics]
        k = self.scalars[field] = len(self.scalars)
        return k

    # ---- writing -------------------------------------------------------------------------------

    def write(self, w: Any, target: ast.Attr, value: ast.Node, env: Env, node: ast.Node) -> None:
        """`set card.field to value` (the card must be one: the engine's rule error else)."""
        field = target.name
        card = w.temp("card")
        listed = self.is_list(field)
        k = self._list(field, node) if listed else self._scalar(field, node)
        if listed and self.widths[field]:
            raise NotNative(f"{_where(node)}: setting '{field}', a list of rows")
        # The card first, then the value, as the engine works them out (a random draw in
        # each: the same draws in the same order).
        w.line(f"{card} = checked(g, {w.code(target.target, env, 'card')}, g.ncards)")
        if listed:
            items, _ = w.collect(value, env)
            w.line(f"if not g.err: pool_put(g, g.ao{k}, g.an{k}, attr_record(g, {card}), {items}, {items}_n)")
            return
        bound = w.expr(value, env)
        code = walks.value_code(w, value, bound)
        held = w.temp("value")
        w.line(f"{held} = {code}")
        record = w.temp("record")  # (given after the value is worked out: no record for a failed write)
        if bound.kind == "static" or bound.type == "int":  # (a number is kept as it is; -1 too)
            kept = ATTR_UNSET if bound.kind == "static" and bound.value is None else f"attr_value(g, {held})"
        else:  # (a card, a word or a cell that may be none: none reads the property again)
            kept = f"attr_value(g, {held}) if {held} != -1 else {ATTR_UNSET}"
        w.line(f"{held} = {kept}")
        # (none on a copy without a record: record 0 holds none already, and no record is taken)
        w.line(f"{record} = attr_record(g, {card}) if not g.err and ({held} != {ATTR_UNSET} or g.ax[{card}]) else 0")
        w.line(f"if {record}: g.a{k}[{record}] = {held}")

    # ---- the module's parts ----------------------------------------------------------------------

    def pooled(self) -> list[int]:
        """The numbers of the list fields some effect sets (pieces of the pool)."""
        return [k for field, k in self.lists.items() if field in self.written]

    def recorded(self) -> bool:
        """Whether some effect sets an attribute the lowering keeps (records in the struct)."""
        return bool(self.scalars or self.pooled())

    def fields(self) -> list[str]:
        if not self.recorded():
            return []
        # (four bytes a value, two or four a piece's place, for each record and not each copy)
        out = ["attr_t ax[NCARDS]", "int64_t attr_n"]
        out += [f"int32_t a{k}[ATTRCAP + 1]" for k in self.scalars.values()]
        for k in self.pooled():
            out += [f"piece_t ao{k}[ATTRCAP + 1]", f"len_t an{k}[ATTRCAP + 1]"]
        if self.pooled():
            out += ["pool_t pool[POOLCAP]", "int64_t pool_n"]
        return out

    def constants(self) -> str:
        """The enum's lines of the module's constants (the struct's sizes need them)."""
        ncards = self.prog.card_room
        # Room for half the copies' records (at least 64, at most one each), and a pool of
        # list items as long as the copies are many (at least four full lists): the
        # largest bundled game's random games reach 97 copies with attributes and 152 list
        # items at two players, 114 and 266 at four, of 293 copies and room for 128
        # created (docs/native.md, "A state's size").
        records = min(ncards, max(64, ncards // 2))
        pool = max(4 * self.prog.list_capacity, ncards)
        record_type = "uint8_t" if records < 255 else "uint16_t" if records < 65535 else "uint32_t"
        # (a piece's length is LISTCAP at most, or -1: unset; an item, four bytes where
        # every list the cards start with fits them: pool_put refuses a larger one)
        return (f"ctypedef {'int16_t' if pool < 32000 else 'int32_t'} piece_t\n"
                f"ctypedef {byte_type(self.prog.list_capacity + 1)} len_t\n"
                f"ctypedef {self.pool_type()} pool_t\n"
                f"ctypedef {record_type} attr_t\n"
                f"cdef enum:\n    ATTR_UNSET = {ATTR_UNSET}\n    POOLCAP = {pool}\n    ATTRCAP = {records}\n")

    def pool_type(self) -> str:
        """The C type of a pool item: four bytes (a clone copies half as much) unless a
        list some card starts with holds a number beyond them."""
        fits = all(-(1 << 31) <= v < (1 << 31) for _, values in self.pool_tables() for v in values)
        return "int32_t" if fits else "int64_t"

    def pool_tables(self) -> list[tuple[str, list[int]]]:
        """The cards' own lists of each field some effect sets, in pool items (pool_t),
        so one pointer reads a card's list and one set on it."""
        return [(f"LV{k}", self.table_values[field][0]) for field, k in self.lists.items() if field in self.written]

    def tables(self) -> list[tuple[str, list[int]]]:
        """The constant tables of 64-bit numbers (the lists of a field some effect sets
        are `pool_tables`)."""
        out = []
        for field, k in self.lists.items():
            flat, offsets, lengths = self.table_values[field]
            if field not in self.written:
                out.append((f"LV{k}", flat))
            out += [(f"LO{k}", offsets), (f"LN{k}", lengths)]
        for field, k in self.scalars.items():
            out.append((f"AP{k}", self.scalar_props[field]))
        return out

    def start_lines(self) -> list[str]:
        """START's attributes: none set (no copy has a record; record 0 is all unset)."""
        return [f"START.a{k}[0] = {ATTR_UNSET}" for k in self.scalars.values()] + \
            [f"START.an{k}[0] = -1" for k in self.pooled()]

    def switch_fields(self) -> list[str]:
        """The struct's arrays that are a world's data (switch_data copies them)."""
        if not self.recorded():
            return []
        names = ["ax", *(f"a{k}" for k in self.scalars.values())]
        for k in self.pooled():
            names += [f"ao{k}", f"an{k}"]
        return names + (["pool"] if self.pooled() else [])

    def switch_numbers(self) -> list[str]:
        """The struct's single numbers that are a world's data (switch_data copies them)."""
        return (["attr_n"] if self.recorded() else []) + (["pool_n"] if self.pooled() else [])

    def sources(self) -> str:
        """The readers of each field, the pool's writer and compaction, and the Python
        side: a world's attributes taken over (`_fill_attrs`) and given back (`_attrs`)."""
        parts: list[str] = []
        pooled = set(self.pooled())
        if self.scalars:  # (a value that does not fit four bytes: the Python path, as a cap met)
            parts.append("cdef inline int32_t attr_value(St* g, int64_t v) noexcept nogil:\n"
                         "    if v <= ATTR_UNSET or v > 2147483647:\n        g.err = 5\n        return ATTR_UNSET\n"
                         "    return <int32_t>v\n")
        if self.recorded():  # (one more copy with attributes than there are records: a cap met)
            unset = "".join(f"    g.a{k}[r] = ATTR_UNSET\n" for k in self.scalars.values())
            unset += "".join(f"    g.an{k}[r] = -1\n" for k in sorted(pooled))
            parts.append("cdef inline int64_t attr_record(St* g, int64_t c) noexcept nogil:\n"
                         "    \"\"\"Copy c's record, given now if it has none (0: no room).\"\"\"\n"
                         "    if g.ax[c]:\n        return g.ax[c]\n"
                         "    if g.attr_n >= ATTRCAP:\n        g.err = 5\n        return 0\n"
                         "    g.attr_n += 1\n    cdef int64_t r = g.attr_n\n"
                         f"{unset}    g.ax[c] = <attr_t>r\n    return r\n")
        for k in self.scalars.values():
            parts.append(f"cdef inline int64_t av{k}(St* g, int64_t c) noexcept nogil:\n"
                         f"    c = checked(g, c, g.ncards)\n"
                         f"    cdef int32_t v = g.a{k}[g.ax[c]]\n"
                         f"    if v != ATTR_UNSET:\n        return v\n"
                         f"    return AP{k}[g.kind[c]]\n")
        for k in self.lists.values():
            attr_base = (f"    if g.an{k}[g.ax[c]] >= 0:\n        return &g.pool[g.ao{k}[g.ax[c]]]\n"
                         if k in pooled else "")
            attr_len = f"    if g.an{k}[g.ax[c]] >= 0:\n        return g.an{k}[g.ax[c]]\n" if k in pooled else ""
            pointer = "pool_t*" if k in pooled else "int64_t*"
            parts.append(f"cdef inline {pointer} lb{k}(St* g, int64_t c) noexcept nogil:\n"
                         f"    c = checked(g, c, g.ncards)\n{attr_base}"
                         f"    return &LV{k}[LO{k}[g.kind[c]]]\n")
            parts.append(f"cdef inline int64_t ln{k}(St* g, int64_t c) noexcept nogil:\n"
                         f"    c = checked(g, c, g.ncards)\n{attr_len}"
                         f"    if LN{k}[g.kind[c]] < 0:\n        g.err = 2\n        return 0\n"
                         f"    return LN{k}[g.kind[c]]\n")
        if pooled:
            moves = "".join(f"        if g.an{k}[r] > 0:\n"
                            f"            memcpy(&tmp[n], &g.pool[g.ao{k}[r]], g.an{k}[r] * sizeof(pool_t))\n"
                            f"            g.ao{k}[r] = n\n            n += g.an{k}[r]\n" for k in sorted(pooled))
            parts.append("cdef void pool_compact(St* g) noexcept nogil:\n"
                         "    cdef pool_t tmp[POOLCAP]\n    cdef int64_t n = 0, r\n"
                         f"    for r in range(1, g.attr_n + 1):\n{moves}"
                         "    memcpy(g.pool, tmp, n * sizeof(pool_t))\n    g.pool_n = n\n")
            # (an item beyond a pool item's bytes: the Python path, as a cap met)
            parts.append("cdef void pool_put(St* g, piece_t* offsets, len_t* lengths, int64_t r, int64_t* items,\n"
                         "                   int64_t n) noexcept nogil:\n"
                         "    cdef int64_t i\n"
                         "    if r == 0:  # (no record: the cap met is set)\n        return\n"
                         "    for i in range(n):\n"
                         "        if <pool_t>items[i] != items[i]:\n            g.err = 5\n            return\n"
                         "    lengths[r] = -1  # (its old piece is garbage now)\n"
                         "    if g.pool_n + n > POOLCAP:\n        pool_compact(g)\n"
                         "    if g.pool_n + n > POOLCAP:\n        g.err = 5\n        return\n"
                         "    for i in range(n):\n        g.pool[g.pool_n + i] = <pool_t>items[i]\n"
                         "    offsets[r] = g.pool_n\n    lengths[r] = <len_t>n\n    g.pool_n += n\n")
        parts.append(self._python_side())
        return "\n\n".join(parts)

    def names(self) -> dict[str, dict[str, int]]:
        """What `set_names` tells a loaded module (the words, the card fields' numbers)."""
        return {"words": dict(self.prog.words), "scalars": dict(self.scalars),
                "lists": {field: k for field, k in self.lists.items() if field in self.written}}

    def _python_side(self) -> str:
        words = dict(self.prog.words)
        scalars = {field: k for field, k in self.scalars.items()}
        pooled = {field: k for field, k in self.lists.items() if field in self.written}
        # The names stay out of the source (a word is a number in C); the module is told them
        # once loaded (`set_names`, status.py), and its source holds their hash, so two
        # games of one shape and other words never share a module.
        digest = hashlib.sha256(repr((sorted(words.items()), sorted(scalars.items()),
                                      sorted(pooled.items()))).encode()).hexdigest()[:16]
        lines = [f"# names: {digest}", "WORDS, WORD_NAMES, SCALAR_ATTRS, LIST_ATTRS = {}, {}, {}, {}",
                 "NAMED = False", "", "",
                 "def set_names(dict names):",
                 "    \"\"\"The rules' words and the card fields, by their numbers here (status.py).\"\"\"",
                 "    global WORDS, WORD_NAMES, SCALAR_ATTRS, LIST_ATTRS, NAMED",
                 "    WORDS, SCALAR_ATTRS, LIST_ATTRS = names['words'], names['scalars'], names['lists']",
                 "    WORD_NAMES = {v: k for k, v in WORDS.items()}",
                 "    NAMED = True", "", "",
                 "cdef bint _number_of(object v, int64_t* out):",
                 "    if type(v) is int or type(v) is bool:",
                 "        out[0] = v",
                 "        return True",
                 "    if type(v) is str and v in WORDS:",
                 "        out[0] = WORDS[v]",
                 "        return True",
                 "    return False", "", "",
                 "cdef bint _fill_attrs(St* g, dict attrs):",
                 "    \"\"\"A world's attributes (the engine's st.attrs) into g: False when they do not fit.\"\"\"",
                 "    cdef int64_t v, i, k, r",
                 "    cdef int64_t items[LISTCAP]"]
        if self.scalars or pooled:
            lines += ["    if attrs and not NAMED:", "        return False"]
        if self.recorded():  # (every record given back: record 0 stays all unset)
            lines += ["    memset(g.ax, 0, sizeof(g.ax))", "    g.attr_n = 0"]
        if pooled:
            lines.append("    g.pool_n = 0")
        lines += ["    for (iid, name), value in attrs.items():",
                  "        if value is None or (name not in SCALAR_ATTRS and name not in LIST_ATTRS):",
                  "            continue  # (none reads the property; a field no lowered rule reads)",
                  "        if iid < 0 or iid >= NCARDS:",
                  "            return False",
                  "        if name in SCALAR_ATTRS:",
                  "            if not _number_of(value, &v) or v <= ATTR_UNSET or v > 2147483647:",
                  "                return False",
                  "            k = SCALAR_ATTRS[name]"]
        if self.scalars:
            lines += ["            r = attr_record(g, iid)", "            if g.err:", "                return False"]
        for k in self.scalars.values():
            lines.append(f"            if k == {k}: g.a{k}[r] = v")
        lines += ["            continue",
                  "        if type(value) is not list or len(value) > LISTCAP:",
                  "            return False",
                  "        for i in range(len(value)):",
                  "            if not _number_of(value[i], &items[i]):",
                  "                return False",
                  "        k = LIST_ATTRS[name]"]
        for k in pooled.values():
            lines.append(f"        if k == {k}: pool_put(g, g.ao{k}, g.an{k}, attr_record(g, iid), items, len(value))")
        lines += ["        if g.err:", "            return False", "    return True", "", "",
                  "cdef object _value_of(int64_t v):",
                  "    return WORD_NAMES.get(v, v)", "", "",
                  "cdef dict _attrs(St* g):",
                  "    \"\"\"g's attributes as the engine keeps them (for tests).\"\"\"",
                  "    cdef dict out = {}",
                  "    cdef Py_ssize_t c"]
        lines.append("    cdef dict field = {k: name for name, k in SCALAR_ATTRS.items()}")
        for k in scalars.values():
            lines += ["    for c in range(g.ncards):",
                      f"        if g.a{k}[g.ax[c]] != ATTR_UNSET: out[(c, field[{k}])] = _value_of(g.a{k}[g.ax[c]])"]
        lines.append("    field = {k: name for name, k in LIST_ATTRS.items()}")
        for k in pooled.values():
            lines += ["    for c in range(g.ncards):",
                      f"        if g.an{k}[g.ax[c]] >= 0: out[(c, field[{k}])] = "
                      f"[_value_of(g.pool[g.ao{k}[g.ax[c]] + i]) for i in range(g.an{k}[g.ax[c]])]"]
        lines.append("    return out")
        lines += ["", "", "cdef object _attr_of(St* g, int64_t c, object name):",
                  "    \"\"\"Copy c's attribute `name` as the engine keeps it (None: not set), without the rest.\"\"\"",
                  "    cdef object k = SCALAR_ATTRS.get(name)",
                  "    if c < 0 or c >= g.ncards:", "        return None"]
        if self.recorded():
            lines.append("    cdef int64_t r = g.ax[c]")
        for k in scalars.values():
            lines.append(f"    if k == {k}: return _value_of(g.a{k}[r]) if g.a{k}[r] != ATTR_UNSET else None")
        lines.append("    k = LIST_ATTRS.get(name)")
        for k in pooled.values():
            lines.append(f"    if k == {k}: return [_value_of(g.pool[g.ao{k}[r] + i]) for i in range(g.an{k}[r])] "
                         f"if g.an{k}[r] >= 0 else None")
        lines.append("    return None")
        return "\n".join(lines)
