"""Mappings as values in C: a constant mapping of words to numbers, or a card property
that is one (`cost: {red: 1, blue: 2}`), handed around as one number and read by key
(`pay_all(me, item.cost)`, then `cost[r]`).

Every mapping a game's lowering meets is one row of a table: a row per constant, and
per card definition for each mapping property (a card without the property reads
none, -1). A mapping's value in C is its row; reading it by a word is `map_at(g, row,
word)`, the value at the word's place (its number less WORD_BASE) in that row, or the
engine's missing key (a rule slip, handed to the Python path) where the row has no such
key. Rows are laid out once the module's words are all known (`tables`).
"""

from __future__ import annotations

from typing import Any

from interpreter.lang import ast
from interpreter.native.bound import Bound, NotNative, _where, static_int

Program = Any  # (program.Program)


class Mappings:
    """The mapping rows of one game's lowering."""

    def __init__(self, prog: Program):
        self.prog = prog
        self.rows: list[dict[str, Any]] = []
        self.constants: dict[str, int] = {}  # constant name -> row
        self.properties: dict[str, str] = {}  # card property -> the C table of each definition's row
        self.kind = ""  # "int" or "word": what every row's values are (one kind for all)

    def _row(self, value: dict[str, Any], node: ast.Node) -> int:
        if not value or not all(isinstance(k, str) for k in value):
            raise NotNative(f"{_where(node)}: a mapping whose keys are not words")
        kinds = {"int" if static_int(v) else "word" if isinstance(v, str) else "other" for v in value.values()}
        if kinds - {"int", "word"} or len(kinds | ({self.kind} if self.kind else set())) > 1:
            raise NotNative(f"{_where(node)}: a mapping of what is not all numbers or all words")
        self.kind = kinds.pop()
        for key in value:
            self.prog.word(key)
        self.rows.append(value)
        return len(self.rows) - 1

    def constant(self, name: str, node: ast.Node) -> Bound:
        """A constant mapping as a value: its row."""
        if name not in self.constants:
            self.constants[name] = self._row(self.prog.constants[name], node)
        return Bound("c", str(self.constants[name]), "map")

    def is_mapping_property(self, field: str) -> bool:
        values = self.prog.card_data.statics(field)
        return any(isinstance(v, dict) for v in values)

    def property(self, field: str, card: str, node: ast.Node) -> Bound:
        """A card's mapping property as a value: its definition's row (none: -1)."""
        if field not in self.properties:
            values = self.prog.card_data.statics(field)
            if not all(v is None or isinstance(v, dict) for v in values):
                raise NotNative(f"{_where(node)}: property '{field}' is a mapping on some cards only")
            name = f"PM{len(self.properties)}"
            self.prog.extra_tables[name] = [-1 if v is None else self._row(v, node) for v in values]
            self.properties[field] = name
        return Bound("c", f"{self.properties[field]}[g.kind[checked(g, {card}, g.ncards)]]", "map")

    def read(self, row: str, key: str) -> Bound:
        """`mapping[key]`: the value at the key's word, as the engine's dict look-up."""
        return Bound("c", f"map_at(g, {row}, {key})", self.kind or "int")

    # ---- the module's part -----------------------------------------------------------------------

    def tables(self) -> list[tuple[str, list[int]]]:
        if not self.rows:
            return []
        base = self.prog.word_base
        width = max(self.prog.word(k) - base for row in self.rows for k in row) + 1
        values, has = [0] * (len(self.rows) * width), [0] * (len(self.rows) * width)
        for r, row in enumerate(self.rows):
            for key, value in row.items():
                at = r * width + self.prog.word(key) - base
                values[at] = int(value) if static_int(value) else self.prog.word(value)
                has[at] = 1
        return [("MAPV", values), ("MAPHAS", has), ("MAPSHAPE", [len(self.rows), width])]

    def functions(self) -> list[str]:
        if not self.rows:
            return []
        return [f"cdef inline int64_t map_at(St* g, int64_t row, int64_t word) noexcept nogil:\n"
                f"    cdef int64_t i = word - {self.prog.word_base}\n"
                f"    if row < 0 or row >= MAPSHAPE[0] or i < 0 or i >= MAPSHAPE[1] \\\n"
                f"            or not MAPHAS[row * MAPSHAPE[1] + i]:\n"
                f"        g.err = 2  # (no mapping, or no such key: the engine's slip)\n"
                f"        return 0\n"
                f"    return MAPV[row * MAPSHAPE[1] + i]\n"]
