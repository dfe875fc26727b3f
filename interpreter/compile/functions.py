"""The game's functions: named expressions with parameters, local names and a result
type; and the types of procedures' parameters, learnt from their calls.

A function may bind local names before its result (`let:`, in order, each reading the
parameters and the names above it), so a long expression need not repeat a part. Its
result type is the type of its `value` expression: functions are compiled callees
first, so a caller knows that `target(me)` gives a player (and logs it as `P2`, not 2).
A function that calls itself, directly or not, is an error (it could never end); such
functions keep the type "any".

A procedure's parameters are "any" while the game compiles; a parameter that every
call of the procedure passes a player is then typed player, and the procedure compiled
again (so `log "{p} draws"` prints `P2`). Should the stricter type refuse the body, the
first compilation stays.

Each function becomes one generated Python function `(st, env)` (env: its parameters
and `me`, a fresh dict per call) that sets its locals in env and returns its value.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, parse_expression

if TYPE_CHECKING:
    from interpreter.compile.build import Builder

NAME = re.compile(r"[a-z_][a-z0-9_]*\Z", re.IGNORECASE)


def texts_of(spec: dict[str, Any]) -> list[Any]:
    """Every expression text of one function: its locals' then its value."""
    lets = spec.get("let")
    return [*(lets.values() if isinstance(lets, dict) else ()), spec.get("value")]


def _calls(spec: dict[str, Any], specs: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for text in texts_of(spec):
        try:
            nodes = ast.walk((parse_expression(str(text if text is not None else "")),))
        except EffectSyntaxError:
            continue  # reported when compiled
        names |= {n.name for n in nodes if isinstance(n, ast.Call) and n.name in specs}
    return names


def _order(calls: dict[str, set[str]]) -> tuple[list[str], set[str]]:
    """Callees before callers, and the functions on a cycle."""
    order: list[str] = []
    state: dict[str, int] = {}  # 1: being visited, 2: done
    cyclic: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cyclic.update(path[path.index(name):])
            return
        state[name] = 1
        for callee in sorted(calls[name]):
            visit(callee, [*path, callee])
        state[name] = 2
        order.append(name)

    for name in calls:
        visit(name, [name])
    return order, cyclic


def compile_functions(b: Builder, reserved: set[str]) -> None:
    """Fill the table function calls read at run time, and the functions' result types."""
    specs = b.section("functions")
    sym = b.sym
    table: list[Any] = sym.function_table
    table.extend([lambda st, env: None] * len(specs))
    calls = {name: _calls(spec if isinstance(spec, dict) else {}, specs) for name, spec in specs.items()}
    order, cyclic = _order(calls)
    for name in specs:
        if name in cyclic:
            b.error(("functions", name), "recursion", f"function '{name}' calls itself (through "
                    "other functions or directly): it could never end", key=True)
    for name in order:
        spec = specs[name] if isinstance(specs[name], dict) else {}
        compiled = _compile_one(b, name, spec, reserved)
        if compiled is not None:
            table[sym.functions[name].code] = compiled[0]
            if name not in cyclic:
                sym.function_types[name] = compiled[1]


def _compile_one(b: Builder, name: str, spec: dict[str, Any], reserved: set[str]) -> tuple[Any, str] | None:
    params = tuple(spec.get("params", ()))
    locals_: dict[str, str] = {p: "any" for p in params}
    locals_.setdefault("me", "player")
    lets = spec.get("let") or {}
    if not isinstance(lets, dict):
        b.error(("functions", name, "let"), "type", "let: must map names to expressions",
                "e.g. let: {best: \"max([vp(q) for q in players])\"}")
        return None
    bound: list[tuple[str, Any]] = []
    for local, text in lets.items():
        where = ("functions", name, "let", local)
        if not isinstance(local, str) or not NAME.match(local) or local in reserved:
            b.error(where, "bad-name", f"'{local}' cannot name a local: use letters, digits and _, "
                    "not a word of the effect language", key=True)
            return None
        if local in locals_:
            b.error(where, "duplicate", f"'{local}' is already a parameter of '{name}'", "use another name",
                    key=True)
            return None
        compiled = b.expr(text, where, locals_, "any")
        if compiled is None:
            return None
        locals_[local] = compiled[1]
        bound.append((local, compiled[0]))
    value = b.expr(spec.get("value"), ("functions", name, "value"), locals_, "any")
    if value is None or not bound:
        return value
    em = b.emitter
    fname = em.fresh("fn")
    lines = [f"def {fname}(st, env):"]
    lines += [f"    env[{local!r}] = {em.inline(fn, 'let')}" for local, fn in bound]
    lines.append(f"    return {em.inline(value[0], 'value')}")
    return em.define("\n".join(lines) + "\n", fname, f"functions.{name}"), value[1]


def retype_procedures(b: Builder) -> None:
    """Compile again, with player parameters, the procedures whose every call passes
    a player (once every call is compiled; only when the game has no error)."""
    if b.diagnostics:
        return
    for name, spec in b.section("procedures").items():
        info = b.sym.procedures[name]
        seen = b.sym.call_arg_types.get(name)
        if not seen or not isinstance(spec, dict):
            continue
        types = ["player" if kinds == {"player"} else "any" for kinds in seen]
        if "player" not in types:
            continue
        code = b.codes[info.code]
        before = (list(code.ops), list(code.wheres))
        listing = b.emitter.listing
        mark = len(listing)
        code.ops.clear()
        code.wheres.clear()
        b.program(spec.get("effect", ""), ("procedures", name, "effect"), dict(zip(info.params, types, strict=True)),
                  code)
        if b.diagnostics:  # the stricter type refused the body: keep what compiled before
            b.diagnostics.clear()
            code.ops[:], code.wheres[:] = before
            del listing[mark:]
        else:  # `describe --code` lists the code that runs, once
            mine = (f"procedures.{name}.", f"procedures.{name} (")
            listing[:mark] = [entry for entry in listing[:mark] if not entry[0].startswith(mine)]
