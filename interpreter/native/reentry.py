"""Functions that may call themselves, in a per-step module.

A per-step module keeps what each function must keep across a stop in the state struct,
once per function (resumable.py), where the batched module has C locals. A procedure
or card effect that calls itself (through others or not) would overwrite the running
call's fields: such a function is wrapped so that a nested call keeps them aside and
gives them back; a nested call that stops for a decision (two calls waiting at once)
hands the game to the Python path.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.compile.scan import self_dependent
from interpreter.lang import ast
from interpreter.native.program import C_WIDTHS, LIST_CAPACITY

Program = Any  # (program.Program: the lowering of one game)
SAVED_MAX = 4096  # bytes of the nested calls' fields one stop keeps, at most


def _recursive(prog: Program) -> set[str]:
    """The procedures (by name) and card effects ("use NAME") that may call themselves,
    through others or not."""
    def callees(body: tuple[ast.Node, ...]) -> set[str]:
        return {s.name if isinstance(s, ast.CallStmt) else f"use {s.effect}"
                for s in ast.statements(body) if isinstance(s, (ast.CallStmt, ast.Use))}
    raw = prog.raw.get("procedures") or {}
    calls = {name: callees(prog.program(spec.get("effect"))) for name, spec in raw.items() if isinstance(spec, dict)}
    for name in {e for card in prog.gd.cards for e in card.effects}:
        calls[f"use {name}"] = set().union(*(callees(prog.program(spec.get("effect")))
                                             for _, spec in prog.card_effects.holders(name)))
    return set(self_dependent(calls))


def recursive_functions(prog: Program) -> set[str]:
    """The C names of the functions that may call themselves."""
    found = _recursive(prog)
    names = {f"proc{prog.procedure_number(name)}" for name in found if not name.startswith("use ")}
    effects = {name[4:]: prog.card_effects.numbers[name[4:]] for name in found
               if name.startswith("use ") and name[4:] in prog.card_effects.numbers}
    for effect, k in effects.items():  # (use_K, and each card's own effect ceff_D_K)
        names |= {f"use_{k}", *(f"ceff_{d}_{k}" for d, _ in prog.card_effects.holders(effect))}
    return names


def frame_bytes(prog: Program, text: str) -> int:
    """The bytes of what a function keeps in the struct (its fields), as `guard_reentry` keeps them aside."""
    named = {"LISTCAP": LIST_CAPACITY, "NPLAYERS": prog.n}
    widths = {**C_WIDTHS, "card_t": C_WIDTHS[prog.card_type]}  # (a field of no type named: int64_t)
    rooms, types = {}, {}
    for name, ctype in prog.step_fields.items():
        field, _, room = name.partition("[")
        types[field] = ctype
        if room:
            rooms[field] = room.rstrip("]")
    return sum(widths.get(types.get(f, ""), 8) * (1 if f not in rooms else named.get(rooms[f]) or int(rooms[f]))
               for f in _own(text))


def _own(text: str) -> list[str]:
    """The struct fields a function's text keeps its values in (resumable.py names them)."""
    return sorted(set(re.findall(r"\bg\.((?:at|f)\d+\w*|use\d+_\w+)", text)))


def saved_bytes(prog: Program, texts: list[str], kept: set[str]) -> int:
    """Room for the fields of the nested calls that wait at one stop: four frames of the
    largest of `kept` (at least 64 bytes, at most SAVED_MAX)."""
    heads = {text.split("(", 1)[0].removeprefix("cdef void ").strip(): text for text in texts}
    largest = max([frame_bytes(prog, heads[h]) for h in kept if h in heads], default=0)
    return min(max(4 * largest, 64), SAVED_MAX)


def guard_reentry(prog: Program, text: str, names: set[str], kept: set[str]) -> str:
    """A per-step module keeps each function's locals in the struct, once. A function
    that may call itself is wrapped: a call of it while it runs keeps the running call's
    fields aside (on the C stack) and gives them back after. A nested call of one of
    `kept` (the functions that call themselves by the rules' calls) that stops for a
    decision puts its own fields in the struct's `saved` bytes on the way out (innermost
    first), and takes them back when the run resumes through it (outermost first: the
    last kept is the first taken). A nested stop of any other (one that runs inside
    itself only by way of an event), or with no room left, sends the game to the Python
    path (g.err 8), where it is played as it always is: keeping fields costs code in
    every guarded function, which makes the module slower to compile."""
    head = text.split("(", 1)[0].removeprefix("cdef void ").strip()
    if head not in names:
        return text
    signature = text.split("\n", 1)[0]
    params = signature[signature.index("(") + 1:signature.rindex(")")]
    args = ", ".join(p.split()[-1].lstrip("*") for p in params.split(","))
    deep = f"deep_{head}"
    prog.step_fields[deep] = "int32_t"  # (how deep it runs inside itself)
    arrays = {name.split("[")[0] for name in prog.step_fields if "[" in name}
    own = _own(text)
    keeps = head in kept
    size = " + ".join(f"sizeof(g.{f})" for f in own) or "0"
    decls = [f"    cdef int64_t _s{i}" + ("[LISTCAP]" if f in arrays else "") for i, f in enumerate(own)]
    if keeps:
        decls += ["    cdef char* _f", f"    cdef size_t _size = {size}"]

    def copies(to_struct: bool) -> list[str]:
        lines = []
        for f in own:
            field = f"g.{f}" if f in arrays else f"&g.{f}"
            lines += [f"        memcpy({field}, _f, sizeof(g.{f}))" if to_struct else
                      f"        memcpy(_f, {field}, sizeof(g.{f}))", f"        _f += sizeof(g.{f})"]
        return lines
    save = [f"    memcpy(_s{i}, g.{f}, sizeof(g.{f}))" if f in arrays else f"    _s{i} = g.{f}"
            for i, f in enumerate(own)]
    restore = [f"    memcpy(g.{f}, _s{i}, sizeof(g.{f}))" if f in arrays else f"    g.{f} = _s{i}"
               for i, f in enumerate(own)]
    if keeps:
        resume = ["    if g.resuming:  # (this call waited at the stop: its fields, kept then)",
                  "        g.saved_n -= <int64_t>_size", "        _f = &g.saved[g.saved_n]", *copies(True)]
        stopped = ["    if g.susp:  # (it waits at a stop: its fields kept for the resume)",
                   "        if g.saved_n + <int64_t>_size > <int64_t>sizeof(g.saved):",
                   "            g.err = 8", "            return",
                   "        _f = &g.saved[g.saved_n]", *copies(False), "        g.saved_n += <int64_t>_size"]
    else:
        resume, stopped = [], ["    if g.susp:", "        g.err = 8", "        return"]
    return "\n".join([text.replace(f"cdef void {head}(", f"cdef void {head}_body(", 1), "", signature, *decls,
                      f"    if not g.{deep}:", f"        g.{deep} = 1", f"        {head}_body({args})",
                      f"        g.{deep} = 0", "        return",
                      *save, *resume,
                      f"    g.{deep} += 1", f"    {head}_body({args})", f"    g.{deep} -= 1",
                      *stopped, *restore]) + "\n"
