"""Which parameter domains can never hold the same item twice, read from their
generated source.

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

import ast as pyast
from typing import Any

from interpreter.compile.builtin_functions import bounded_range
from interpreter.compile.pysource import Emitter
from interpreter.runtime.work import charge


def distinct(em: Emitter, source: str) -> bool:
    """Whether the list `source` (generated Python, over `st`) never repeats an item."""
    return _distinct(em, pyast.parse(source.strip(), mode="eval").body)


def _distinct(em: Emitter, node: pyast.expr) -> bool:
    node = _unwrapped(node)  # (a copy: list(D), D[:])
    if isinstance(node, pyast.Subscript) and isinstance(node.value, pyast.Tuple) and node.value.elts and \
            pyast.unparse(node.slice) == "-1":
        return _distinct(em, node.value.elts[-1])  # (kept values set first, then the list: compile/hoisting.py)
    if isinstance(node, pyast.Call):
        func = _bound(em, node.func)
        if func is charge and len(node.args) == 2 and not node.keywords:
            return _distinct(em, node.args[1])
        return func is bounded_range
    if isinstance(node, pyast.ListComp) and len(node.generators) == 1:
        gen = node.generators[0]
        return (not gen.is_async and isinstance(gen.target, pyast.Name) and isinstance(node.elt, pyast.Name)
                and node.elt.id == gen.target.id and _distinct(em, gen.iter))
    if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Add):
        zones = [_zone_definition(part) for part in _added(node)]
        return None not in zones and len(set(zones)) == len(zones)
    if isinstance(node, pyast.Subscript) and pyast.unparse(node.value) == "st.zones":
        return True  # one zone, whichever slot
    if pyast.unparse(node) == "st.players":
        return True
    if isinstance(node, pyast.List | pyast.Tuple) and all(isinstance(e, pyast.Constant) for e in node.elts):
        value = [e.value for e in node.elts if isinstance(e, pyast.Constant)]
    else:
        value = _bound(em, node)
    if isinstance(value, list | tuple):
        try:
            return len(set(value)) == len(value)
        except TypeError:  # (unhashable items)
            return False
    return False


def _bound(em: Emitter, node: pyast.expr) -> Any:
    """The value a generated name is bound to in the game's namespace, or None."""
    return em.ns.get(node.id) if isinstance(node, pyast.Name) and node.id.startswith("_") else None


def _added(node: pyast.expr) -> list[pyast.expr]:
    if isinstance(node, pyast.BinOp) and isinstance(node.op, pyast.Add):
        return _added(_unwrapped(node.left)) + _added(_unwrapped(node.right))
    return [node]


def _unwrapped(node: pyast.expr) -> pyast.expr:
    """`list(X)` and `X[:]` as X."""
    while True:
        if isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) and node.func.id == "list" \
                and len(node.args) == 1 and not node.keywords:
            node = node.args[0]
        elif isinstance(node, pyast.Subscript) and isinstance(node.slice, pyast.Slice) and \
                node.slice.lower is None and node.slice.upper is None and node.slice.step is None:
            node = node.value
        else:
            return node


def _zone_definition(node: pyast.expr) -> int | None:
    """For `st.zones[st.layout.zbase[K]]` or `st.zones[st.layout.zbase[K] + X]` (a slot of
    zone definition K), K; None for anything else."""
    if not (isinstance(node, pyast.Subscript) and pyast.unparse(node.value) == "st.zones"):
        return None
    slot = node.slice
    if isinstance(slot, pyast.BinOp) and isinstance(slot.op, pyast.Add):
        slot = slot.left
    if isinstance(slot, pyast.Subscript) and pyast.unparse(slot.value) == "st.layout.zbase" and \
            isinstance(slot.slice, pyast.Constant) and type(slot.slice.value) is int:
        return slot.slice.value
    return None
