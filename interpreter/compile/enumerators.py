"""One generated function per action that lists its legal instances.

Listing legal actions is most of the work of a decision: every parameter's choices,
the condition and the cost for each combination, and a canonical text per action.
The generic walk (runtime/decisions.py) does this through lists of functions and
renderers; here each action gets straight-line Python instead: nested loops over its
parameters' choices, the condition and cost checks inline, the text built by
concatenation, and a parameterless action's Action made once (one with whole-number,
player, card or text parameters once per values: Actions are immutable, so listings share them). Checks that read no
parameter (a condition on the player alone) run once per listing, at the first
candidate, not once per candidate. The acting player and the parameters' values are
the lister's own Python locals (`me`, `_p0`): reading one costs no dictionary look-up,
and the dictionary of locals the expressions were written for is made only when some
expression still needs it whole. Same order, same texts, same duplicates dropped as
the generic walk (which stays for actions built by hand); a lister whose candidates
can never share a text (compile/distinct.py) keeps no set of the texts it made.
"""

from __future__ import annotations

import ast as pyast
import re
from collections.abc import Callable
from typing import Any

import attrs

from interpreter.compile.distinct import distinct
from interpreter.compile.pysource import LITERAL, Emitter, as_names, uses_env
from interpreter.model import ActionDef, CounterDef
from interpreter.runtime.actions import Action, render
from interpreter.runtime.card_powers import usable

Lister = Callable[[Any, int, list[Action]], None]


def _render_src(em: Emitter, var: str, type_: str, card_ids: list[str]) -> str:
    """Source of a value's canonical text (as actions.render writes it)."""
    fallback = f"{em.const(render, 'render')}(st, {var}, {type_!r})"
    if type_ == "int":
        return f"(str({var}) if type({var}) is int else {fallback})"
    if type_ == "player":
        return f"('P' + str({var} + 1) if type({var}) is int else {fallback})"
    if type_ == "card":
        ids = em.memo.get("card_ids")
        if ids is None:
            ids = em.memo["card_ids"] = em.const(card_ids, "card_ids")
        return f"({ids}[st.card_def[{var}]] + '#' + str({var}) if type({var}) is int else {fallback})"
    return fallback


_KEYED = {"int": "int", "player": "int", "card": "int", "str": "str"}  # types whose Actions are kept, by value
KEPT_ACTIONS = 4096  # Actions kept per lister at most (a bound on memory, whatever the domains)


def _kept(cache: dict[Any, Action], key: Any, action: Action) -> Action:
    """Keep `action` for its key while the lister's cache has room."""
    if len(cache) < KEPT_ACTIONS:
        cache[key] = action
    return action


_ENV_READ = re.compile(r"\benv\b(?!\['me'\])")


_ENV_ANY = re.compile(r"\benv\b(?!\[')")  # env passed whole, or indexed by a computed key


def _reads(source: str, name: str) -> bool:
    """Whether generated source may read the local `name`."""
    return f"env[{name!r}]" in source or _ENV_ANY.search(source) is not None


def _reads_no_param(source: str) -> bool:
    """Whether generated source reads no local but `me` (the same for the whole listing)."""
    return _ENV_READ.search(source) is None


# What a lister knows of its player beyond other effects: `me` is a seat (the seat
# check maps each seat to itself). Literals come first.
_SEAT_CHECKED_ME = re.compile(LITERAL + r"""|(?<![\w.])st\.layout\.seat\[env\['me'\]\]""")


def as_locals(source: str, names: dict[str, str]) -> str:
    """`source` with each read of a local named in `names` written as the Python local
    holding the same value (`pysource.as_names`); the player listed for, read through
    its seat check, is `me` too."""
    if "me" in names:
        me = names["me"]
        source = _SEAT_CHECKED_ME.sub(lambda m: m.group(0) if m.group(0)[0] in "'\"" else me, source)
    return as_names(source, names)


@attrs.frozen
class Loop:
    """A parameter's domain written as a loop: `for VAR in ITER:` after `prelude`,
    skipping items that fail `tests`, the parameter bound to `value` (VAR itself when
    it is the comprehension's own item). `invariants` (name, source) are the parts of
    the tests that are the same for every item, worked out once before the loop."""

    prelude: tuple[str, ...]
    var: str
    iter: str
    tests: tuple[str, ...]
    value: str | None
    invariants: tuple[tuple[str, str], ...] = ()


class _Rename(pyast.NodeTransformer):
    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new

    def visit_Name(self, node: pyast.Name) -> pyast.Name:
        return pyast.Name(self.new, node.ctx) if node.id == self.old else node


# What a part of a test worked out once may hold: reads and arithmetic only (no call,
# which may charge work or draw on the value memo; no list made, which would be shared).
_PURE = (pyast.Name, pyast.Constant, pyast.Attribute, pyast.Subscript, pyast.BinOp, pyast.UnaryOp,
         pyast.Compare, pyast.BoolOp, pyast.IfExp, pyast.Tuple, pyast.expr_context, pyast.operator,
         pyast.unaryop, pyast.cmpop, pyast.boolop)


# The state's only fields that change while actions are listed: the work meter (every
# comprehension charges it) and the value memo's contents.
_CHANGING = frozenset({"work", "memo"})


class _Invariants(pyast.NodeTransformer):
    """Replace each largest part of a test that reads nothing bound in the loop (its
    item, the names its walruses and comprehensions bind) and holds nothing but reads
    and arithmetic by a name, worked out once."""

    def __init__(self, bound: set[str], fresh: Callable[[], str]) -> None:
        self.bound, self.fresh = bound, fresh
        self.found: dict[str, str] = {}  # source -> name

    def _invariant(self, node: pyast.AST) -> bool:
        return all(isinstance(n, _PURE) and not (isinstance(n, pyast.Name) and n.id in self.bound)
                   and not (isinstance(n, pyast.Attribute) and n.attr in _CHANGING) for n in pyast.walk(node))

    def visit(self, node: pyast.AST) -> pyast.AST:
        if (isinstance(node, pyast.expr) and isinstance(node, pyast.Attribute | pyast.Subscript | pyast.BinOp |
                                                         pyast.Compare | pyast.BoolOp | pyast.IfExp)
                and self._invariant(node)):
            source = pyast.unparse(node)
            name = self.found.get(source)
            if name is None:
                name = self.found[source] = self.fresh()
            return pyast.Name(name, pyast.Load())
        return super().visit(node)


def _bound_names(nodes: list[pyast.AST]) -> set[str]:
    """Names bound inside `nodes`: walrus targets and comprehension variables."""
    bound: set[str] = set()
    for node in nodes:
        for n in pyast.walk(node):
            if isinstance(n, pyast.NamedExpr | pyast.comprehension):
                bound |= {t.id for t in pyast.walk(n.target) if isinstance(t, pyast.Name)}
    return bound


def as_loop(source: str, param_var: str, fresh: Callable[[], str] | None = None) -> Loop | None:
    """The domain `[x for x in L if c]` (its kept calls set beforehand, as
    compile/hoisting.py writes them) as a loop over L that tests c for each item, or None
    for a domain of another shape (a comprehension over several lists, a constant list).
    Walruses and nested comprehensions mean the same in the lister's body: a
    comprehension's `:=` binds in the function around it. With `fresh` (a maker of new
    names), the tests' parts that are the same for every item are worked out once."""
    tree = pyast.parse(source.strip(), mode="eval").body
    prelude: list[pyast.expr] = []
    if (isinstance(tree, pyast.Subscript) and isinstance(tree.value, pyast.Tuple) and tree.value.elts
            and isinstance(tree.slice, pyast.UnaryOp) and isinstance(tree.slice.op, pyast.USub)
            and isinstance(tree.slice.operand, pyast.Constant) and tree.slice.operand.value == 1):
        *prelude, tree = tree.value.elts
        if not all(isinstance(e, pyast.NamedExpr) for e in prelude):
            return None
    if not isinstance(tree, pyast.ListComp) or len(tree.generators) != 1:
        return None
    gen = tree.generators[0]
    if gen.is_async or not isinstance(gen.target, pyast.Name):
        return None
    item, value = gen.target.id, tree.elt
    tests: list[pyast.AST] = list(gen.ifs)
    if isinstance(value, pyast.Name) and value.id == item:  # the item itself: the loop binds the parameter
        rename = _Rename(item, param_var)
        item, tests = param_var, [rename.visit(c) for c in tests]
    invariants: tuple[tuple[str, str], ...] = ()
    if fresh is not None:
        hoist = _Invariants(_bound_names(tests) | {item}, fresh)
        tests = [hoist.visit(c) for c in tests]
        invariants = tuple((name, src) for src, name in hoist.found.items())
    return Loop(tuple(pyast.unparse(e) for e in prelude), item, pyast.unparse(gen.iter),
                tuple(pyast.unparse(c) for c in tests), None if item == param_var else pyast.unparse(value), invariants)


class _Inline(pyast.NodeTransformer):
    """Replace a call of a game function, `table[i](st, {'name': arg, ...})` with every
    argument a local or a literal, by the function's own expression with its locals
    read from those arguments (no call, no dictionary of locals): the same reads, the
    same work charged, in the same order. Functions never call themselves (a load
    error), so inlining the calls inside an inlined body ends. `can_use` of a card
    asks first whether the card's definition has the effect at all."""

    def __init__(self, em: Emitter) -> None:
        self.em = em

    def visit_Call(self, node: pyast.Call) -> pyast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        func, args = node.func, node.args
        if (isinstance(func, pyast.Name) and self.em.ns.get(func.id) is usable and len(args) == 4
                and isinstance(args[1], pyast.Name) and isinstance(args[2], pyast.Constant)):
            # can_use(c, "name"): a card without that effect is not asked (usable's own
            # first test, read inline: the definitions' effects are reads the loop keeps).
            card, name = args[1].id, args[2].value
            test = pyast.parse(f"({card} is not None and {name!r} in st.gd.cards[st.card_def[{card}]].effects)",
                               mode="eval").body
            return pyast.BoolOp(pyast.And(), [test, node])
        found = self._body(node)
        if found is None:
            return node
        body, names = found
        inlined = as_locals(body, names)
        if uses_env(inlined):  # a local the call did not pass (or the whole env): left as a call
            return node
        return self.visit(pyast.parse(inlined.strip(), mode="eval").body)

    def _body(self, node: pyast.Call) -> tuple[str, dict[str, str]] | None:
        """The called function's expression and the sources its locals are read from,
        or None when the call is not one to write out."""
        func, args = node.func, node.args
        if isinstance(func, pyast.Name) and ("positional", func.id) in self.em.memo:
            fn, params = self.em.memo["positional", func.id]  # (st, me, *params), made by compile/functions.py
            if (node.keywords or len(args) != len(params) + 1 or not isinstance(args[0], pyast.Name)
                    or args[0].id != "st" or not all(isinstance(a, pyast.Name | pyast.Constant) for a in args[1:])):
                return None
            body = self.em.bodies.get(fn)
            names = {p: pyast.unparse(a) for p, a in zip(params, args[1:], strict=True)}
            return None if body is None else (body, names)
        if not (isinstance(func, pyast.Subscript) and isinstance(func.value, pyast.Name)
                and isinstance(func.slice, pyast.Constant) and type(func.slice.value) is int):
            return None
        if (node.keywords or len(args) != 2 or not isinstance(args[0], pyast.Name) or args[0].id != "st"
                or not isinstance(args[1], pyast.Dict)):
            return None
        local = args[1]
        if not all(isinstance(k, pyast.Constant) and type(k.value) is str for k in local.keys):
            return None
        if not all(isinstance(v, pyast.Name | pyast.Constant) for v in local.values):
            return None
        table = self.em.ns.get(func.value.id)
        if type(table) is not list or not 0 <= func.slice.value < len(table):
            return None
        body = self.em.bodies.get(table[func.slice.value])
        names = {key.value: pyast.unparse(value) for key, value in zip(local.keys, local.values, strict=True)}  # type: ignore[union-attr]
        return None if body is None else (body, names)


def inline_functions(source: str, em: Emitter) -> str:
    """`source` with calls of the game's functions written out (see _Inline)."""
    tree = pyast.parse(source.strip(), mode="eval")
    return pyast.unparse(_Inline(em).visit(tree))


def make_lister(em: Emitter, action: ActionDef, counters: tuple[CounterDef, ...], card_ids: list[str]) -> Lister:
    """The legal instances of `action` for player `me`, appended to `out` in order."""
    checks: list[str] = []
    if action.condition is not None:
        checks.append(em.inline(action.condition, "condition"))
    for ci, offset, amount in action.cost:
        cdef = counters[ci]
        slot = f"me * {cdef.width} + {offset}" if cdef.scope == "player" else str(offset)
        floor = cdef.min if cdef.min is not None else 0
        checks.append(f"st.counters[{ci}][{slot}] - {em.inline(amount, 'cost')} >= {floor}")
    # Checks that read no parameter (only `me`) come first in `checks` when they do:
    # they are the same for every candidate, so they run once, at the first one.
    fixed = 0
    while fixed < len(checks) and _reads_no_param(checks[fixed]):
        fixed += 1
    domains = [em.inline(param.domain, "domain") for param in action.params]
    kept = [any(_reads(src, param.name) for src in [*domains[i + 1:], *checks])  # its value read there
            for i, param in enumerate(action.params)]
    # Reads of `me` and of the parameters become the Python locals holding them (a
    # parameter named `me` would hide the player from later reads: left as it was).
    if all(param.name != "me" for param in action.params):
        names = {"me": "me", **{param.name: f"_p{i}" for i, param in enumerate(action.params)}}
        domains = [as_locals(src, names) for src in domains]
        checks = [as_locals(src, names) for src in checks]
    # The dictionary itself only for expressions that still need it whole (a value
    # or function passed the locals as they are, a key computed at run time).
    env = any(uses_env(src) for src in [*domains, *checks])
    if not env:
        kept = [False] * len(kept)
    # No text twice when each domain never repeats an item and each value has a text
    # of its own (with several parameters, texts without spaces: joined, they part
    # again): the lister then keeps no set of the texts made (compile/distinct.py).
    unique = all(p.type in ("int", "player", "card") for p in action.params) and \
        all(distinct(em, src) for src in domains) and \
        (len(action.params) < 2 or not any(" " in cid for cid in card_ids))
    lister = _Lister(em, action, card_ids, checks, fixed, domains, kept, env, unique)
    name = em.fresh("list")
    exact = em.define(lister.source(name, None), name, f"actions.{action.id} (legal list)")
    # A domain that is a filtered comprehension is gone through in the loop itself (no
    # list built, no comprehension called): when env is not needed whole (its keys would
    # be set in another order) and some domain has that shape.
    loops = [as_loop(inline_functions(src, em), f"_p{i}", lambda: em.fresh("i"))
             for i, src in enumerate(domains)] if not env else []
    if not any(loops):
        return exact  # type: ignore[no-any-return]
    fast = em.fresh("list")
    return em.define(lister.source(fast, loops, exact=em.const(exact, "exact")), fast,  # type: ignore[no-any-return]
                     f"actions.{action.id} (legal list, its domains gone through in its loops)")


@attrs.define
class _Lister:
    """The pieces of an action's lister, written out with its domains as lists (the
    order of the generic walk) or gone through in its loops."""

    em: Emitter
    action: ActionDef
    card_ids: list[str]
    checks: list[str]
    fixed: int
    domains: list[str]
    kept: list[bool]
    env: bool
    unique: bool = False  # no two candidates can have the same text: no `seen` set

    def source(self, name: str, loops: list[Loop | None] | None, exact: str = "") -> str:
        em, action, checks = self.em, self.action, self.checks
        lines = [f"def {name}(st, me, out):"]
        if loops is not None:
            # Items are tested in another order than the walk's (each candidate's checks
            # before the next item of the domain): the same work in all, the same result,
            # but where it raises, the first error met may differ. So on any error the
            # listing is undone (actions added, work charged, values kept since) and
            # made again in the walk's order, which raises what it raised.
            lines += ["    _n, _w, _memo = len(out), st.work, st.memo",
                      "    _m = len(_memo) if _memo is not None else 0",
                      "    try:"]
            body = self._body(loops, "        ")
            lines += body + ["        return", "    except Exception:", "        pass",
                             f"    {em.const(_undo, 'undo')}(st, out, _n, _w, _memo, _m)",
                             f"    {exact}(st, me, out)"]
            return "\n".join(lines) + "\n"
        if self.env:
            lines.append("    env = {'me': me}")
        test = " and ".join(checks) or "True"
        if not action.params:
            bare = em.const(Action(action.id, (action.index, ())), "action")
            lines.append(f"    if {test}:")
            lines.append(f"        out.append({bare})")
            return "\n".join(lines) + "\n"
        return "\n".join(lines + self._body([None] * len(action.params), "    ")) + "\n"

    def _body(self, loops: list[Loop | None], indent: str) -> list[str]:
        em, action, checks, fixed = self.em, self.action, list(self.checks), self.fixed
        lines = [] if self.unique else [f"{indent}seen = set()"]
        if fixed:
            lines.append(f"{indent}ok = None")
        values = []
        text = repr(action.id)
        for i, param in enumerate(action.params):
            var = f"_p{i}"
            values.append(var)
            loop = loops[i]
            if loop is None:
                lines.append(f"{indent}for {var} in {self.domains[i]}:")
                indent += "    "
            else:
                lines += [f"{indent}{p}" for p in loop.prelude]
                lines += [f"{indent}{name} = {src}" for name, src in loop.invariants]
                lines.append(f"{indent}for {loop.var} in {loop.iter}:")
                indent += "    "
                lines += [f"{indent}if not ({t}):\n{indent}    continue" for t in loop.tests]
                if loop.value is not None:
                    lines.append(f"{indent}{var} = {loop.value}")
            if self.kept[i]:
                lines.append(f"{indent}env[{param.name!r}] = {var}")
            text += f" + ' ' + {_render_src(em, var, param.type, self.card_ids)}"
        if fixed:
            lines.append(f"{indent}if ok is None:")
            lines.append(f"{indent}    ok = bool({' and '.join(checks[:fixed])})")
            if len(action.params) == 1 and all(loop is None for loop in loops):
                lines.append(f"{indent}if not ok:")  # the domain is a list already made: nothing more to go through
                lines.append(f"{indent}    break")
                checks = checks[fixed:]
            else:  # the rest of a domain gone through in the loop is still worked out, as the walk does
                checks = ["ok", *checks[fixed:]]
        if checks:
            lines.append(f"{indent}if {' and '.join(checks)}:")
            indent += "    "
        payload = f"({action.index}, ({', '.join(values)},))"
        make = f"{em.const(Action, 'Action')}({text}, {payload})"
        if all(p.type in _KEYED for p in action.params):
            # Whole numbers, players, cards and texts: the same values give the same text
            # and payload, so the Action is made once and kept (a card's key holds its
            # definition too: its text names it).
            keys = [f"({v}, st.card_def[{v}])" if p.type == "card" else v
                    for v, p in zip(values, action.params, strict=True)]
            key = keys[0] if len(keys) == 1 else f"({', '.join(keys)})"
            cache = em.memo.get(("actions", action.id))
            if cache is None:
                cache = em.memo[("actions", action.id)] = em.bound({}, "actions")
            kinds = [f"type({v}) is {_KEYED[p.type]}" for v, p in zip(values, action.params, strict=True)]
            lines.append(f"{indent}if {' and '.join(kinds)}:")
            lines.append(f"{indent}    key = {key}")
            lines.append(f"{indent}    action = {cache}.get(key)")
            lines.append(f"{indent}    if action is None:")
            lines.append(f"{indent}        action = {em.const(_kept, 'kept')}({cache}, key, {make})")
            lines.append(f"{indent}else:")
            lines.append(f"{indent}    action = {make}")
        else:
            lines.append(f"{indent}action = {make}")
        if self.unique:
            lines.append(f"{indent}out.append(action)")
        else:
            lines.append(f"{indent}if action.text not in seen:")
            lines.append(f"{indent}    seen.add(action.text)")
            lines.append(f"{indent}    out.append(action)")
        # As the generic walk: a parameter's name is dropped when its loop is over (the
        # first parameter's stays; nothing reads it after the listing).
        # (Only without loops: a lister that keeps env has none.)
        for i in range(len(action.params) - 1, 0, -1):
            if self.kept[i]:
                lines.append(f"{'    ' * (i + 1)}env.pop({action.params[i].name!r}, None)")
        return lines


def _undo(st: Any, out: list[Action], count: int, work: int, memo: dict[Any, Any] | None, kept: int) -> None:
    """Take a listing back to where it was: `count` actions out, `work` charged, and the
    first `kept` values of the memo (it is only added to, so the newest go)."""
    del out[count:]
    st.work = work
    if memo is not None:
        for key in list(memo)[kept:]:
            del memo[key]
