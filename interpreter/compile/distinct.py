"""Which parameter domains can never hold the same item twice, read from their
generated code (a tree).

Legal action texts must be unique, so a lister drops an action whose text it has made
already (a `seen` set, one look-up per candidate). When every parameter's domain is a
list without repeats and each value's text is a different text, no two candidates
share a text, and the lister leaves the set out. The domains this knows have no
repeats:

- a zone (a card is in one place at a time), or several zones of different
  definitions joined with `+` (two different zones never hold the same card);
- `range(...)`, the seats (`players`), a constant or written list whose items differ;
- a comprehension `[x for x in D if ...]` over such a domain (filtering keeps it so),
  and the same domain charged to the work meter or copied (`list(D)`, `D[:]`).

Anything else may repeat, and keeps the set.
"""

from __future__ import annotations

import ast as py
from typing import Any

from interpreter.compile.builtin_functions import bounded_range
from interpreter.compile.pyast import int_value, is_name
from interpreter.compile.pysource import Emitter
from interpreter.runtime.work import charge


def distinct(em: Emitter, source: py.expr) -> bool:
    """Whether the list `source` (generated code, over `st`) never repeats an item."""
    node = _unwrapped(source)  # (a copy: list(D), D[:])
    if isinstance(node, py.Subscript) and isinstance(node.value, py.Tuple) and node.value.elts and \
            int_value(node.slice) == -1:
        return distinct(em, node.value.elts[-1])  # (kept values set first, then the list: compile/hoisting.py)
    if isinstance(node, py.Call):
        func = _bound(em, node.func)
        if func is charge and len(node.args) == 2 and not node.keywords:
            return distinct(em, node.args[1])
        return func is bounded_range
    if isinstance(node, py.ListComp) and len(node.generators) == 1:
        gen = node.generators[0]
        return (not gen.is_async and isinstance(gen.target, py.Name) and isinstance(node.elt, py.Name)
                and node.elt.id == gen.target.id and distinct(em, gen.iter))
    if isinstance(node, py.BinOp) and isinstance(node.op, py.Add):
        zones = [_zone_definition(part) for part in _added(node)]
        return None not in zones and len(set(zones)) == len(zones)
    if isinstance(node, py.Subscript) and _is_field(node.value, "zones"):
        return True  # one zone, whichever slot
    if _is_field(node, "players"):
        return True
    value: Any
    if isinstance(node, py.List | py.Tuple) and all(isinstance(e, py.Constant) for e in node.elts):
        value = [e.value for e in node.elts if isinstance(e, py.Constant)]
    else:
        value = _bound(em, node)
    if isinstance(value, list | tuple):
        try:
            return len(set(value)) == len(value)
        except TypeError:  # (unhashable items)
            return False
    return False


def _is_field(node: py.expr, field: str, of: str = "st") -> bool:
    """Whether `node` is `st.FIELD` (`of` the object read: `st`, or `st.layout`)."""
    if not (isinstance(node, py.Attribute) and node.attr == field):
        return False
    if of == "st":
        return is_name(node.value, "st")
    return _is_field(node.value, "layout")


def _bound(em: Emitter, node: py.expr) -> Any:
    """The value a generated name is bound to in the game's namespace, or None."""
    return em.ns.get(node.id) if isinstance(node, py.Name) and node.id.startswith("_") else None


def _added(node: py.expr) -> list[py.expr]:
    if isinstance(node, py.BinOp) and isinstance(node.op, py.Add):
        return _added(_unwrapped(node.left)) + _added(_unwrapped(node.right))
    return [node]


def _unwrapped(node: py.expr) -> py.expr:
    """`list(X)` and `X[:]` as X."""
    while True:
        if isinstance(node, py.Call) and isinstance(node.func, py.Name) and node.func.id == "list" \
                and len(node.args) == 1 and not node.keywords:
            node = node.args[0]
        elif isinstance(node, py.Subscript) and isinstance(node.slice, py.Slice) and \
                node.slice.lower is None and node.slice.upper is None and node.slice.step is None:
            node = node.value
        else:
            return node


def _zone_definition(node: py.expr) -> int | None:
    """For `st.zones[st.layout.zbase[K]]` or `st.zones[st.layout.zbase[K] + X]` (a slot of
    zone definition K), K; None for anything else."""
    if not (isinstance(node, py.Subscript) and _is_field(node.value, "zones")):
        return None
    slot = node.slice
    if isinstance(slot, py.BinOp) and isinstance(slot.op, py.Add):
        slot = slot.left
    if isinstance(slot, py.Subscript) and _is_field(slot.value, "zbase", of="st.layout") and \
            isinstance(slot.slice, py.Constant) and type(slot.slice.value) is int:
        return slot.slice.value
    return None
