"""A copy's face (runtime/faces.py) read in C, for the ids of a per-step module's options.

An option that names a card whose attributes tell its face apart (a copy marked in
play) has no fixed id: it is kept as a recipe `(base, stride, copy)` and its id is
`base + stride * face`, the face of that copy in the state at hand. Worked out in
Python at every stop, that face made the id path slower than the Action path on the
very same games; here it is a few compares in C.

The faces are the game's (`ActionSpace.faces`, fixed per game and player count); the
module is told them once they are known (`face_table`, then the module's `set_faces`),
as numbers: a definition's first face and count, the scalar attribute fields that tell
its faces apart, each one's value when unset (the card's property), and each face's
values. A definition whose faces the struct cannot tell (an attribute no lowered rule
sets, a value that is not a whole number, a word or none, more than `MAX_FACE_ATTRS`
attributes) reads -1, and the caller asks the Python reading, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.native.card_data import ATTR_UNSET

MAX_FACE_ATTRS = 8  # attributes telling one definition's faces apart that C reads (more: Python)
_INT32_MAX = (1 << 31) - 1


def face_source(scalars: Mapping[str, int], recorded: bool) -> str:
    """The module's C reading of faces: `face_of(g, c)` (-1: ask Python), and the
    Python entry `set_faces` that gives it the table."""
    reads = "".join(f"    if k == {k}:\n        return g.a{k}[g.ax[c]]\n" for k in scalars.values()) if recorded else ""
    return f'''
cdef int64_t* FACES = NULL  # (card_faces.py: each definition's faces, once the game's are known)


cdef inline int64_t _scalar_attr(St* g, int64_t c, int64_t k) noexcept nogil:
{reads}    return ATTR_UNSET


cdef int64_t face_of(St* g, int64_t c) noexcept nogil:
    """Copy c's face: the face of its definition agreeing with its attributes on the
    most fields, the first such (all of them: the face it has); -1 when the table is
    not given yet or does not cover its definition."""
    cdef int64_t d, at, first, count, na, f, j, v, same, best, agreed
    cdef int64_t vals[{MAX_FACE_ATTRS}]
    if FACES == NULL or c < 0 or c >= g.ncards:
        return -1
    d = g.kind[c]
    at = FACES[d]
    if at < 0:
        return -1
    first, count, na = FACES[at], FACES[at + 1], FACES[at + 2]
    if na == 0:
        return first
    for j in range(na):
        v = _scalar_attr(g, c, FACES[at + 3 + j])
        vals[j] = v if v != ATTR_UNSET else FACES[at + 3 + na + j]
    at += 3 + 2 * na
    best, agreed = first, -1
    for f in range(count):
        same = 0
        for j in range(na):
            if FACES[at + f * na + j] == vals[j]:
                same += 1
        if same == na:
            return first + f
        if same > agreed:
            best, agreed = first + f, same
    return best


def set_faces(tuple table):
    """Give the module the game's faces (card_faces.face_table)."""
    global FACES
    cdef Py_ssize_t i
    cdef int64_t* made = <int64_t*>malloc(max(len(table), 1) * sizeof(int64_t))
    if made == NULL:
        raise MemoryError()
    for i in range(len(table)):
        made[i] = table[i]
    free(FACES)
    FACES = made


def faces_given():
    """Whether the module has been given the game's faces."""
    return FACES != NULL
'''


def _encoded(key: tuple[str, Any], words: Mapping[str, int]) -> int | None:
    """A value as the struct holds it (faces.value_key form in), or None when it cannot."""
    kind, value = key
    if kind == "NoneType":
        return ATTR_UNSET  # (unset and none read alike: the property)
    if kind == "int" and ATTR_UNSET < value <= _INT32_MAX:
        return int(value)
    if kind == "str" and value in words:
        return words[value]
    return None


def face_table(faces: Any, definitions: int, scalars: Mapping[str, int], words: Mapping[str, int]) -> tuple[int, ...]:
    """The table `set_faces` takes: for each definition, where its entry starts (-1: C
    cannot tell its faces), then the entries: first face, count, number of attributes,
    each attribute's field, each one's value when unset, each face's values."""
    head: list[int] = []
    body: list[int] = []
    for d in range(definitions):
        if not faces.varied:  # (the face is the definition)
            entry: list[int] | None = [d, 1, 0]
        else:
            entry = _entry(faces, d, scalars, words)
        head.append(-1 if entry is None else definitions + len(body))
        body += entry or []
    return (*head, *body)


def _entry(faces: Any, d: int, scalars: Mapping[str, int], words: Mapping[str, int]) -> list[int] | None:
    names = faces.names[d]
    first, count = faces.first[d], faces.count[d]
    if not names:
        return [first, count, 0]
    if len(names) > MAX_FACE_ATTRS or any(name not in scalars for name in names):
        return None
    plain = _all_encoded(faces.props[d], words)
    values = _all_encoded([key for f in range(first, first + count) for key in faces.keys[f]], words)
    if plain is None or values is None:
        return None
    return [first, count, len(names), *(scalars[name] for name in names), *plain, *values]


def _all_encoded(keys: Any, words: Mapping[str, int]) -> list[int] | None:
    out = []
    for key in keys:
        v = _encoded(key, words)
        if v is None:
            return None
        out.append(v)
    return out
