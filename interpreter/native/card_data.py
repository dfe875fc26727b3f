"""Cards' list properties and the attributes the rules set on cards at run time
(`set c.x to ...`), in the native backend's flat state.

* A property that is a list (`res: [fuel, hull]`, or equal rows: `lanes: [[fuel, hull],
  ...]`) is a constant table: every definition's list one after another (`LV{k}`), each
  definition's offset and length in it (`LO{k}`, `LN{k}`; -1: the card has no such
  property, which the engine would refuse to walk).
* An attribute some effect sets lives in the struct, per card copy, as the engine's
  `st.attrs` does: a number, card or word in `a{k}[NCARDS]`, four bytes each (ATTR_UNSET:
  never set, or set to none, so the property is read, as the engine reads it; a number
  beyond four bytes hands the game to the Python path, as a cap met); a list as a piece of
  one pool (`ao{k}`, `an{k}`: its offset and length, -1: unset), written at the pool's
  end and compacted, in card order, when the pool is full (still full: the Python path).

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
from interpreter.native.bound import Bound, Env, NotNative, _where, static_int

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
        elif not (isinstance(value, ast.Name) and value.name == "none"):
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
            return Bound("seq", f"lb{k}(g, {card})", self.list_types[field], (f"ln{k}(g, {card})", width))
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
            w.line(f"if not g.err: pool_put(g, g.ao{k}, g.an{k}, {card}, {items}, {items}_n)")
            return
        bound = w.expr(value, env)
        code = walks.value_code(w, value, bound)
        if bound.kind == "static" or bound.type == "int":  # (a number is kept as it is; -1 too)
            w.line(f"if not g.err: g.a{k}[{card}] = "
                   f"{ATTR_UNSET if bound.kind == 'static' and bound.value is None else f'attr_value(g, {code})'}")
        else:  # (a card, a word or a cell that may be none: none reads the property again)
            held = w.temp("value")
            w.line(f"{held} = {code}")
            w.line(f"if not g.err: g.a{k}[{card}] = attr_value(g, {held}) if {held} != -1 else {ATTR_UNSET}")

    # ---- the module's parts ----------------------------------------------------------------------

    def pooled(self) -> list[int]:
        """The numbers of the list fields some effect sets (pieces of the pool)."""
        return [k for field, k in self.lists.items() if field in self.written]

    def fields(self) -> list[str]:
        # (four bytes a value, two or four a piece's place: a clone copies them for every card)
        out = [f"int32_t a{k}[NCARDS]" for k in self.scalars.values()]
        for k in self.pooled():
            out += [f"piece_t ao{k}[NCARDS]", f"piece_t an{k}[NCARDS]"]
        if self.pooled():
            out += ["int64_t pool[POOLCAP]", "int64_t pool_n"]
        return out

    def constants(self) -> str:
        """The enum's lines of the module's constants (the struct's sizes need them)."""
        pool = max(1024, 2 * self.prog.ncards)
        return (f"ctypedef {'int16_t' if pool < 32000 else 'int32_t'} piece_t\n"
                f"cdef enum:\n    ATTR_UNSET = {ATTR_UNSET}\n    POOLCAP = {pool}\n")

    def tables(self) -> list[tuple[str, list[int]]]:
        out = []
        for field, k in self.lists.items():
            flat, offsets, lengths = self.table_values[field]
            out += [(f"LV{k}", flat), (f"LO{k}", offsets), (f"LN{k}", lengths)]
        for field, k in self.scalars.items():
            out.append((f"AP{k}", self.scalar_props[field]))
        return out

    def start_lines(self) -> list[str]:
        """START's attributes: none set."""
        lines = []
        for k in self.scalars.values():
            lines.append(f"for _i in range(NCARDS): START.a{k}[_i] = {ATTR_UNSET}")
        for k in self.pooled():
            lines.append(f"for _i in range(NCARDS): START.an{k}[_i] = -1")
        return lines

    def switch_fields(self) -> list[str]:
        """The struct's fields that are a world's data (switch_data copies them)."""
        names = [f"a{k}" for k in self.scalars.values()]
        for k in self.pooled():
            names += [f"ao{k}", f"an{k}"]
        return names + (["pool"] if self.pooled() else [])

    def sources(self) -> str:
        """The readers of each field, the pool's writer and compaction, and the Python
        side: a world's attributes taken over (`_fill_attrs`) and given back (`_attrs`)."""
        parts: list[str] = []
        pooled = set(self.pooled())
        if self.scalars:  # (a value that does not fit four bytes: the Python path, as a cap met)
            parts.append("cdef inline int32_t attr_value(St* g, int64_t v) noexcept nogil:\n"
                         "    if v <= ATTR_UNSET or v > 2147483647:\n        g.err = 5\n        return ATTR_UNSET\n"
                         "    return <int32_t>v\n")
        for k in self.scalars.values():
            parts.append(f"cdef inline int64_t av{k}(St* g, int64_t c) noexcept nogil:\n"
                         f"    c = checked(g, c, g.ncards)\n"
                         f"    if g.a{k}[c] != ATTR_UNSET:\n        return g.a{k}[c]\n"
                         f"    return AP{k}[g.kind[c]]\n")
        for k in self.lists.values():
            attr_base = f"    if g.an{k}[c] >= 0:\n        return &g.pool[g.ao{k}[c]]\n" if k in pooled else ""
            attr_len = f"    if g.an{k}[c] >= 0:\n        return g.an{k}[c]\n" if k in pooled else ""
            parts.append(f"cdef inline int64_t* lb{k}(St* g, int64_t c) noexcept nogil:\n"
                         f"    c = checked(g, c, g.ncards)\n{attr_base}"
                         f"    return &LV{k}[LO{k}[g.kind[c]]]\n")
            parts.append(f"cdef inline int64_t ln{k}(St* g, int64_t c) noexcept nogil:\n"
                         f"    c = checked(g, c, g.ncards)\n{attr_len}"
                         f"    if LN{k}[g.kind[c]] < 0:\n        g.err = 2\n        return 0\n"
                         f"    return LN{k}[g.kind[c]]\n")
        if pooled:
            moves = "".join(f"        if g.an{k}[c] > 0:\n"
                            f"            memcpy(&tmp[n], &g.pool[g.ao{k}[c]], g.an{k}[c] * sizeof(int64_t))\n"
                            f"            g.ao{k}[c] = n\n            n += g.an{k}[c]\n" for k in sorted(pooled))
            parts.append("cdef void pool_compact(St* g) noexcept nogil:\n"
                         "    cdef int64_t tmp[POOLCAP]\n    cdef int64_t n = 0, c\n"
                         f"    for c in range(g.ncards):\n{moves}"
                         "    memcpy(g.pool, tmp, n * sizeof(int64_t))\n    g.pool_n = n\n")
            parts.append("cdef void pool_put(St* g, piece_t* offsets, piece_t* lengths, int64_t c, int64_t* items,\n"
                         "                   int64_t n) noexcept nogil:\n"
                         "    lengths[c] = -1  # (its old piece is garbage now)\n"
                         "    if g.pool_n + n > POOLCAP:\n        pool_compact(g)\n"
                         "    if g.pool_n + n > POOLCAP:\n        g.err = 5\n        return\n"
                         "    memcpy(&g.pool[g.pool_n], items, n * sizeof(int64_t))\n"
                         "    offsets[c] = g.pool_n\n    lengths[c] = n\n    g.pool_n += n\n")
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
                 "    cdef int64_t v, i, k",
                 "    cdef int64_t items[LISTCAP]"]
        if self.scalars or pooled:
            lines += ["    if attrs and not NAMED:", "        return False"]
        for k in self.scalars.values():
            lines.append(f"    for i in range(NCARDS): g.a{k}[i] = ATTR_UNSET")
        for k in pooled.values():
            lines.append(f"    for i in range(NCARDS): g.an{k}[i] = -1")
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
        for k in self.scalars.values():
            lines.append(f"            if k == {k}: g.a{k}[iid] = v")
        lines += ["            continue",
                  "        if type(value) is not list or len(value) > LISTCAP:",
                  "            return False",
                  "        for i in range(len(value)):",
                  "            if not _number_of(value[i], &items[i]):",
                  "                return False",
                  "        k = LIST_ATTRS[name]"]
        for k in pooled.values():
            lines.append(f"        if k == {k}: pool_put(g, g.ao{k}, g.an{k}, iid, items, len(value))")
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
                      f"        if g.a{k}[c] != ATTR_UNSET: out[(c, field[{k}])] = _value_of(g.a{k}[c])"]
        lines.append("    field = {k: name for name, k in LIST_ATTRS.items()}")
        for k in pooled.values():
            lines += ["    for c in range(g.ncards):",
                      f"        if g.an{k}[c] >= 0: out[(c, field[{k}])] = "
                      f"[_value_of(g.pool[g.ao{k}[c] + i]) for i in range(g.an{k}[c])]"]
        lines.append("    return out")
        lines += ["", "", "cdef object _attr_of(St* g, int64_t c, object name):",
                  "    \"\"\"Copy c's attribute `name` as the engine keeps it (None: not set), without the rest.\"\"\"",
                  "    cdef object k = SCALAR_ATTRS.get(name)",
                  "    if c < 0 or c >= g.ncards:", "        return None"]
        for k in scalars.values():
            lines.append(f"    if k == {k}: return _value_of(g.a{k}[c]) if g.a{k}[c] != ATTR_UNSET else None")
        lines.append("    k = LIST_ATTRS.get(name)")
        for k in pooled.values():
            lines.append(f"    if k == {k}: return [_value_of(g.pool[g.ao{k}[c] + i]) for i in range(g.an{k}[c])] "
                         f"if g.an{k}[c] >= 0 else None")
        lines.append("    return None")
        return "\n".join(lines)
