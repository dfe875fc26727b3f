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
Where the body reads no local but its own, it also becomes `(st, me, *params)` with
its locals as Python names, and calls pass their arguments straight to that one: the
same expressions in the same order, without a dictionary made and read per call.

Calls are work (runtime/work.py): a function that calls other functions or values
charges CALL_WORK each time it is called, so functions calling each other twice per
level (2**40 calls) stop at the work limit instead of running for hours. A function
that calls none costs what its expression costs (its comprehensions are charged), so
the calls below a charged one fan out only as far as its text; only such a function
may be written out in place of its call (compile/enumerators.py), and then no call is
made and none is charged either way. Chains of calls are at most MAX_CALL_DEPTH deep
(each level is a Python call: a chain of thousands would exhaust Python's stack).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from interpreter.compile.bounds import charge_call_code
from interpreter.compile.pyast import S, Stmts, env_free, lit, seq
from interpreter.compile.pyast import name as python_name
from interpreter.compile.pysource import local_name, local_name_ok
from interpreter.compile.statements import procedure_alias
from interpreter.lang import ast
from interpreter.lang.parser import EffectSyntaxError, parse_expression
from interpreter.lang.symbols import Symbols
from interpreter.limits import MAX_CALL_DEPTH

if TYPE_CHECKING:
    from interpreter.compile.build import Builder


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


def calls_others(spec: dict[str, Any], sym: Symbols) -> bool:
    """Whether a function's texts call (or read) another function or a value, or ask
    `can_use` (a card's condition and cost are expressions too): such a function's
    calls are charged. Unparsable text counts as calling (it is reported anyway)."""
    for text in texts_of(spec):
        try:
            nodes = ast.walk((parse_expression(str(text if text is not None else "")),))
        except EffectSyntaxError:
            return True
        for node in nodes:
            if isinstance(node, ast.Name | ast.Call) and (
                    node.name in sym.functions or node.name in sym.values or node.name == "can_use"):
                return True
    return False


def _too_deep(b: Builder, calls: dict[str, set[str]], order: list[str], cyclic: set[str]) -> None:
    """An error at each function that starts a chain of calls more than MAX_CALL_DEPTH
    functions long (every longer chain passes through exactly one such function)."""
    depth: dict[str, int] = {}
    deepest: dict[str, str | None] = {}
    for name in order:  # callees first: their depth is known
        below = [callee for callee in sorted(calls[name]) if callee not in cyclic and callee in depth]
        longest = max(below, key=lambda callee: depth[callee], default=None)
        depth[name] = 1 + (depth[longest] if longest is not None else 0)
        deepest[name] = longest
    for name in order:
        if depth[name] == MAX_CALL_DEPTH + 1:
            chain: list[str] = [name]
            while (step := deepest[chain[-1]]) is not None and len(chain) < 4:
                chain.append(step)
            b.error(("functions", name), "too-deep", f"function '{name}' starts a chain of calls more than "
                    f"{MAX_CALL_DEPTH} functions deep ({' -> '.join(chain)} -> ...)",
                    "work out a part of the chain in a value or a let, or call fewer functions in a row", key=True)


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


@attrs.frozen
class CompiledFunction:
    """One function compiled: what `(st, env)` calls run, its result type, and the
    parts it was made of (its locals' expressions in order, then its value's)."""

    fn: Any
    type: str
    lets: tuple[tuple[str, Any], ...]
    value: Any


def compile_functions(b: Builder, reserved: set[str]) -> None:
    """Fill the table function calls read at run time, and the functions' result types."""
    specs = b.section("functions")
    sym = b.sym
    table: list[Any] = sym.function_table
    table.extend([lambda st, env: None] * len(specs))
    if specs:  # named even when every call passes arguments: the (st, env) forms, for tools and tests
        b.emitter.bound(table, "functions")
    calls = {name: _calls(spec if isinstance(spec, dict) else {}, specs) for name, spec in specs.items()}
    order, cyclic = _order(calls)
    for name in specs:
        if name in cyclic:
            b.error(("functions", name), "recursion", f"function '{name}' calls itself (through "
                    "other functions or directly): it could never end", key=True)
    _too_deep(b, calls, order, cyclic)
    for name in order:
        spec = specs[name] if isinstance(specs[name], dict) else {}
        compiled = _compile_one(b, name, spec, reserved, calls_others(spec, sym))
        if compiled is not None:
            index = sym.functions[name].code
            table[index] = compiled.fn
            if name not in cyclic:
                sym.function_types[name] = compiled.type
                positional = _positional(b, name, tuple(spec.get("params", ())), compiled, calls_others(spec, sym))
                if positional is not None:
                    sym.function_positional[index] = positional


def _positional(b: Builder, name: str, params: tuple[Any, ...], compiled: CompiledFunction,
                charged: bool) -> str | None:
    """The name of a function `(st, me, *params)` computing what `compiled.fn(st, env)` does, its
    locals read as Python names (its call `charged` as that one's is); None when its
    body reads `env` otherwise (a local it was not given, or the whole env), or its
    names cannot be Python's."""
    names = ("me", *params, *(local for local, _ in compiled.lets))
    if len(set(names)) != len(names) or not all(local_name_ok(n) for n in names):
        return None
    em = b.emitter
    as_names = {n: local_name(n) for n in names}
    written = []
    for code in [*(em.inline(f, "let") for _, f in compiled.lets), em.inline(compiled.value, "value")]:
        free = env_free(code, as_names)  # (a call always passes `me`)
        if free is None:
            return None
        written.append(free)
    fname = em.fresh("fn")
    charge = _charge_code(b, charged)
    lets = seq(*(S("{local} = {value}", local=python_name(as_names[local]), value=code)
                 for (local, _), code in zip(compiled.lets, written, strict=False)))
    em.define(S("""
        def {f}(st, {params}):
            {charge}
            {lets}
            return {value}
        """, f=fname, params=[as_names[n] for n in ("me", *params)], charge=charge, lets=lets, value=written[-1]),
        f"functions.{name} (its locals as arguments)")
    if not compiled.lets and not charged:  # what compile/enumerators.py may write out in place of a call
        em.memo[("positional", fname.id)] = (compiled.fn, ("me", *params))
    return fname.id


def _charge_code(b: Builder, charged: bool) -> Stmts:
    """The first statements of a function whose calls are charged (what
    runtime/work.py's `charge_call` does, written inline: no call), else none."""
    return charge_call_code(b.emitter) if charged else []


def _compile_one(b: Builder, name: str, spec: dict[str, Any], reserved: set[str],
                 charged: bool) -> CompiledFunction | None:
    info = b.sym.functions[name]
    locals_: dict[str, str] = dict(zip(info.params, info.types, strict=True))
    locals_.setdefault("me", "player")
    lets = spec.get("let") or {}
    if not isinstance(lets, dict):
        b.error(("functions", name, "let"), "type", "let: must map names to expressions",
                "e.g. let: {best: \"max([vp(q) for q in players])\"}")
        return None
    bound: list[tuple[str, Any]] = []
    for local, text in lets.items():
        where = ("functions", name, "let", local)
        # (a local's name is a NAME of the effect language: ASCII letters, digits and _, not a digit first)
        if not isinstance(local, str) or not (local.isascii() and local.isidentifier()) or local in reserved:
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
    if value is None:
        return None
    if not bound and not charged:  # the value's own expression (enumerators.py may write it out in place)
        return CompiledFunction(value[0], value[1], (), value[0])
    em = b.emitter
    fname = em.fresh("fn")
    charge = _charge_code(b, charged)
    lets = seq(*(S("env[{local}] = {value}", local=lit(local), value=em.inline(fn, "let")) for local, fn in bound))
    fn = em.define(S("""
        def {f}(st, env):
            {charge}
            {lets}
            return {value}
        """, f=fname, charge=charge, lets=lets, value=em.inline(value[0], "value")), f"functions.{name}")
    return CompiledFunction(fn, value[1], tuple(bound), value[0])


# The types a procedure's undeclared parameter takes from its calls when every call
# passes it one of them: the values that print by what they are (a card by name, a
# player as P2), not as the numbers they are held as.
_INFERRED = frozenset({"player", "card", "list:player", "list:card"})


def _inferred(data: dict[str, Any]) -> frozenset[str]:
    """The types a procedure's parameter takes from its calls in rules whose merged data
    is `data`: in files of format 1 (written before cards and lists were), players only,
    so that their saves and logs print as they always did."""
    version = data.get("orrery")
    return frozenset({"player"}) if isinstance(version, int) and version < 2 else _INFERRED


def retype_procedures(b: Builder) -> None:
    """Compile again, with typed parameters, the procedures whose every call passes one
    parameter a player, a card or a list of either (once every call is compiled; only
    when the game has no error; a body the type refuses keeps what compiled before). A
    procedure compiled again passes its own parameters on typed: `outer(p)` calling
    `inner(p)` makes `inner`'s parameter a player too, so this goes on until no
    procedure's types change (each can only go from any to one type, so it ends)."""
    if b.diagnostics:
        return
    inferred = _inferred(b.data)
    typed: dict[str, list[str]] = {}  # procedure -> the parameter types it was compiled with
    for _ in range(len(b.section("procedures")) + 1):
        changed = False
        for name, spec in b.section("procedures").items():
            callers = b.sym.call_arg_types.get(name)
            if not callers or not isinstance(spec, dict):
                continue
            per_param: list[set[str]] = [set().union(*kinds) for kinds in zip(*callers.values(), strict=True)]
            declared = b.sym.procedures[name].types  # (a declared type is never changed)
            types = [t if t != "any" or len(kinds) != 1 else next(iter(kinds)) if kinds <= inferred else "any"
                     for t, kinds in zip(declared, per_param, strict=True)]
            if types == list(declared) or types == typed.get(name):
                continue
            typed[name] = types
            changed = _retype(b, name, types) or changed
        if not changed:
            return


def _retype(b: Builder, name: str, types: list[str]) -> bool:
    """Compile procedure `name` again with parameter `types`; whether it kept them."""
    info = b.sym.procedures[name]
    code = b.codes[info.code]
    before = (list(code.ops), list(code.wheres))
    alias = procedure_alias(info.code)
    direct_before = b.directs.get(info.code), b.emitter.ns[alias]
    listing = b.emitter.listing
    mark = len(listing)
    rule = f"procedures.{name}.effect"
    calls_before = {callee: dict(callers) for callee, callers in b.sym.call_arg_types.items()}
    for callers in b.sym.call_arg_types.values():  # its calls are recorded anew as it compiles
        callers.pop(rule, None)
    waits_before = dict(code.turn_waits)
    code.ops.clear()
    code.wheres.clear()
    code.turn_waits.clear()
    b.procedure(name, dict(zip(info.params, types, strict=True)))
    # The stricter type refused the body, or it lost the direct function that direct
    # functions compiled since may call: keep what compiled before.
    if b.diagnostics or (direct_before[0] is not None and b.directs.get(info.code) is None):
        b.diagnostics.clear()
        code.ops[:], code.wheres[:] = before
        code.turn_waits.update(waits_before)
        b.directs[info.code], b.emitter.ns[alias] = direct_before
        b.sym.call_arg_types = calls_before
        del listing[mark:]
        return False
    # `describe --code` lists the code that runs, once
    mine = (f"procedures.{name}.", f"procedures.{name} (")
    listing[:mark] = [entry for entry in listing[:mark] if not entry[0].startswith(mine)]
    return True


# Types worth declaring: what a parameter of another type would print or check otherwise.
_WORDS = {"card": "card", "list:card": "cards", "player": "player", "list:player": "players"}


def undeclared_types(b: Builder) -> None:
    """A warning at each parameter of a function (or of a procedure, where its calls do
    not type it: `_inferred`) that declares no type while every call passes it one kind
    of card or player value: declared, it is checked at each call and prints as what it
    is (a card by name, a player as P2)."""
    inferred = _inferred(b.data)
    for section, infos, seen_of in (
            ("functions", b.sym.functions, lambda name: b.sym.function_call_types.get(name)),
            ("procedures", b.sym.procedures, lambda name: _union(b.sym.call_arg_types.get(name)))):
        for name, info in infos.items():
            seen = seen_of(name)
            if not seen:
                continue
            for param, declared, kinds in zip(info.params, info.types, seen, strict=False):
                word = _WORDS.get(next(iter(kinds))) if declared == "any" and len(kinds) == 1 else None
                if word is None or (section == "procedures" and kinds <= inferred):
                    continue  # (a procedure's: typed by its calls already, retype_procedures)
                b.warn((section, name, "params"), "undeclared-type",
                       f"every call of {name}() passes {word} as '{param}', which declares no type",
                       f"declare it: params: {{{param}: {word}, ...}} (it is then checked and shown as {word})")


def _union(callers: dict[str, list[set[str]]] | None) -> list[set[str]] | None:
    return [set().union(*kinds) for kinds in zip(*callers.values(), strict=True)] if callers else None
