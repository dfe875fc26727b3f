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

The lister is built as a Python syntax tree (compile/pyast.py) from the trees of the
action's condition, cost and domains: which locals an expression reads, reads of a
local turned into a Python local, a domain turned into a loop and a called function
written out are all checks and rewrites of those trees, never of text.
"""

from __future__ import annotations

import ast as py
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from interpreter.compile.distinct import distinct
from interpreter.compile.pyast import (
    E,
    S,
    Stmts,
    env_key,
    int_value,
    is_me_read,
    is_name,
    key,
    lit,
    name,
    seq,
    transform,
    transform_all,
    uses_env,
    walk,
)
from interpreter.compile.pysource import Emitter
from interpreter.model import ActionDef, CounterDef
from interpreter.runtime.actions import Action, render
from interpreter.runtime.card_powers import usable

Lister = Callable[[Any, int, list[Action]], None]


def _param(i: int) -> py.Name:
    """The lister's Python local holding parameter `i`'s value."""
    return name(f"_p{i}")


def _render_code(em: Emitter, var: py.expr, type_: str, card_ids: list[str]) -> py.expr:
    """Code of a value's canonical text (as actions.render writes it)."""
    fallback = E("{render}(st, {v}, {type})", render=em.const(render, "render"), v=var, type=lit(type_))
    if type_ == "int":
        return E("(str({v}) if type({v}) is int else {fallback})", v=var, fallback=fallback)
    if type_ == "player":
        return E("('P' + str({v} + 1) if type({v}) is int else {fallback})", v=var, fallback=fallback)
    if type_ == "card":
        ids = em.memo.get("card_ids")
        if ids is None:
            ids = em.memo["card_ids"] = em.const(card_ids, "card_ids")
        return E("({ids}[st.card_def[{v}]] + '#' + str({v}) if type({v}) is int else {fallback})",
                 ids=ids, v=var, fallback=fallback)
    return fallback


def _all_of(tests: list[py.expr]) -> py.expr:
    """`a and b and ...` of one or more tests (one: itself)."""
    return tests[0] if len(tests) == 1 else py.BoolOp(py.And(), tests)


_KEYED = {"int": "int", "player": "int", "card": "int", "str": "str"}  # types whose Actions are kept, by value
KEPT_ACTIONS = 4096  # Actions kept per lister at most (a bound on memory, whatever the domains)


def _kept(cache: dict[Any, Action], key: Any, action: Action) -> Action:
    """Keep `action` for its key while the lister's cache has room."""
    if len(cache) < KEPT_ACTIONS:
        cache[key] = action
    return action


def _env_uses(tree: Any) -> tuple[int, list[str]]:
    """How often generated code uses `env`, and the keys of its reads `env['KEY']`
    (every other use passes env whole, calls `env.get` or indexes it by a computed key)."""
    uses = sum(1 for n in walk(tree) if is_name(n, "env"))
    return uses, [k for n in walk(tree) if (k := env_key(n)) is not None]


def _reads(tree: Any, local: str) -> bool:
    """Whether generated code may read the local `local`."""
    uses, keys = _env_uses(tree)
    return local in keys or uses > len(keys)


def _reads_no_param(tree: Any) -> bool:
    """Whether generated code reads no local but `me` (the same for the whole listing)."""
    uses, keys = _env_uses(tree)
    return uses == len(keys) and all(k == "me" for k in keys)


def _seat_of_me(node: Any) -> bool:
    """Whether `node` is `st.layout.seat[env['me']]`: what a lister knows of its player
    beyond other effects is that `me` is a seat (the seat check maps each seat to itself)."""
    if type(node) is not py.Subscript or env_key(node.slice) != "me":
        return False
    seat = node.value
    return (type(seat) is py.Attribute and seat.attr == "seat" and type(seat.value) is py.Attribute
            and seat.value.attr == "layout" and is_name(seat.value.value, "st"))


def as_locals(tree: Any, names: Mapping[str, py.expr]) -> Any:
    """`tree` (an expression or statements) with each read of a local named in `names`
    (`env['KEY']`, and the acting player's `env.get('me', st.active)` when `me` is one)
    as the code given for it: the Python local (or literal) holding the same value. The
    player listed for, read through its seat check, is `me` too."""
    me = names.get("me")

    def swap(n: Any) -> Any:
        if me is not None and (is_me_read(n) or _seat_of_me(n)):
            return me
        local = env_key(n)
        if local is not None and local in names:
            value = names[local]
            return py.Name(value.id, n.ctx) if type(value) is py.Name else value
        return None
    return transform_all(tree, swap) if isinstance(tree, list) else transform(tree, swap)


@attrs.frozen
class Loop:
    """A parameter's domain written as a loop: `for VAR in ITER:` after `prelude`,
    skipping items that fail `tests`, the parameter bound to `value` (VAR itself when
    it is the comprehension's own item). `invariants` (name, code) are the parts of
    the tests that are the same for every item, worked out once before the loop."""

    prelude: tuple[py.expr, ...]
    var: str
    iter: py.expr
    tests: tuple[py.expr, ...]
    value: py.expr | None
    invariants: tuple[tuple[py.Name, py.expr], ...] = ()


def _renamed(tree: Any, old: str, new: str) -> Any:
    return transform(tree, lambda n: py.Name(new, n.ctx) if is_name(n, old) else None)


# What a part of a test worked out once may hold: reads and arithmetic only (no call,
# which may charge work or draw on the value memo; no list made, which would be shared).
_PURE = (py.Name, py.Constant, py.Attribute, py.Subscript, py.BinOp, py.UnaryOp,
         py.Compare, py.BoolOp, py.IfExp, py.Tuple, py.expr_context, py.operator,
         py.unaryop, py.cmpop, py.boolop)
_WORTH_IT = (py.Attribute, py.Subscript, py.BinOp, py.Compare, py.BoolOp, py.IfExp)  # (a name or literal is not)


# The state's only fields that change while actions are listed: the work meter (every
# comprehension charges it) and the value memo's contents.
_CHANGING = frozenset({"work", "memo"})


def _invariant(node: py.AST, bound: set[str]) -> bool:
    return all(isinstance(n, _PURE) and not (isinstance(n, py.Name) and n.id in bound)
               and not (isinstance(n, py.Attribute) and n.attr in _CHANGING) for n in py.walk(node))


def _worked_out_once(tests: list[py.expr], bound: set[str], fresh: Callable[[], py.Name]
                     ) -> tuple[list[py.expr], tuple[tuple[py.Name, py.expr], ...]]:
    """`tests` with each largest part that reads nothing bound in the loop (its item, the
    names its walruses and comprehensions bind) and holds nothing but reads and
    arithmetic replaced by a name; and those names with their parts, in order met."""
    found: dict[str, tuple[py.Name, py.expr]] = {}  # key of the part -> (its name, the part)

    def swap(n: Any) -> Any:
        if isinstance(n, _WORTH_IT) and _invariant(n, bound):
            seen = found.get(key(n))
            if seen is None:
                seen = found[key(n)] = (fresh(), n)
            return seen[0]
        return None
    return [transform(t, swap) for t in tests], tuple(found.values())


def _bound_names(nodes: list[py.expr]) -> set[str]:
    """Names bound inside `nodes`: walrus targets and comprehension variables."""
    bound: set[str] = set()
    for n in walk(nodes):
        if isinstance(n, py.NamedExpr | py.comprehension):
            bound |= {t.id for t in py.walk(n.target) if isinstance(t, py.Name)}
    return bound


def as_loop(tree: py.expr, param_var: str, fresh: Callable[[], py.Name] | None = None) -> Loop | None:
    """The domain `[x for x in L if c]` (its kept calls set beforehand, as
    compile/hoisting.py writes them) as a loop over L that tests c for each item, or None
    for a domain of another shape (a comprehension over several lists, a constant list).
    Walruses and nested comprehensions mean the same in the lister's body: a
    comprehension's `:=` binds in the function around it. With `fresh` (a maker of new
    names), the tests' parts that are the same for every item are worked out once."""
    prelude: list[py.expr] = []
    if (isinstance(tree, py.Subscript) and isinstance(tree.value, py.Tuple) and tree.value.elts
            and int_value(tree.slice) == -1):
        *prelude, tree = tree.value.elts
        if not all(isinstance(e, py.NamedExpr) for e in prelude):
            return None
    if not isinstance(tree, py.ListComp) or len(tree.generators) != 1:
        return None
    gen = tree.generators[0]
    if gen.is_async or not isinstance(gen.target, py.Name):
        return None
    item, value = gen.target.id, tree.elt
    tests: list[py.expr] = list(gen.ifs)
    if is_name(value, item):  # the item itself: the loop binds the parameter
        item, tests = param_var, [_renamed(c, item, param_var) for c in tests]
    invariants: tuple[tuple[py.Name, py.expr], ...] = ()
    if fresh is not None:
        tests, invariants = _worked_out_once(tests, _bound_names(tests) | {item}, fresh)
    return Loop(tuple(prelude), item, gen.iter, tuple(tests), None if item == param_var else value, invariants)


# ---- calls of the game's functions written out ---------------------------------------------


def inline_functions(tree: py.expr, em: Emitter) -> py.expr:
    """`tree` with calls of the game's functions written out: a call
    `table[i](st, {'name': arg, ...})` (or of a function taking its locals as arguments)
    with every argument a local or a literal becomes the function's own expression with
    its locals read from those arguments (no call, no dictionary of locals): the same
    reads, the same work charged, in the same order. Functions never call themselves (a
    load error), so writing out the calls inside a written-out body ends. `can_use` of a
    card asks first whether the card's definition has the effect at all."""
    def swap(n: Any) -> Any:
        if type(n) is not py.Call:
            return None
        call = py.Call(transform(n.func, swap), transform_all(n.args, swap), transform_all(n.keywords, swap))
        return _inlined(call, em, swap)  # (its parts first, as they run)
    out: py.expr = transform(tree, swap)
    return out


def _inlined(call: py.Call, em: Emitter, swap: Callable[[Any], Any]) -> py.expr:
    func, args = call.func, call.args
    if (isinstance(func, py.Name) and em.ns.get(func.id) is usable and len(args) == 4
            and isinstance(args[1], py.Name) and isinstance(args[2], py.Constant)):
        # can_use(c, "name"): a card without that effect is not asked (usable's own
        # first test, read inline: the definitions' effects are reads the loop keeps).
        test = E("({card} is not None and {effect} in st.gd.cards[st.card_def[{card}]].effects)",
                 card=args[1], effect=args[2])
        return py.BoolOp(py.And(), [test, call])
    found = _body(call, em)
    if found is None:
        return call
    body, names = found
    inlined = as_locals(body, names)
    if uses_env(inlined):  # a local the call did not pass (or the whole env): left as a call
        return call
    out: py.expr = transform(inlined, swap)
    return out


def _body(node: py.Call, em: Emitter) -> tuple[py.expr, dict[str, py.expr]] | None:
    """The called function's expression and the code its locals are read from (each a
    local or a literal), or None when the call is not one to write out."""
    func, args = node.func, node.args
    if isinstance(func, py.Name) and ("positional", func.id) in em.memo:
        fn, params = em.memo["positional", func.id]  # (st, me, *params), made by compile/functions.py
        if (node.keywords or len(args) != len(params) + 1 or not is_name(args[0], "st")
                or not all(isinstance(a, py.Name | py.Constant) for a in args[1:])):
            return None
        body = em.bodies.get(fn)
        return None if body is None else (body, dict(zip(params, args[1:], strict=True)))
    if not (isinstance(func, py.Subscript) and isinstance(func.value, py.Name)
            and isinstance(func.slice, py.Constant) and type(func.slice.value) is int):
        return None
    if node.keywords or len(args) != 2 or not is_name(args[0], "st") or not isinstance(args[1], py.Dict):
        return None
    local = args[1]
    keys: list[str] = []
    for k in local.keys:
        if not (isinstance(k, py.Constant) and type(k.value) is str):
            return None
        keys.append(k.value)
    if not all(isinstance(v, py.Name | py.Constant) for v in local.values):
        return None
    table = em.ns.get(func.value.id)
    if type(table) is not list or not 0 <= func.slice.value < len(table):
        return None
    body = em.bodies.get(table[func.slice.value])
    return None if body is None else (body, dict(zip(keys, local.values, strict=True)))


# ---- the lister ---------------------------------------------------------------------------


def make_lister(em: Emitter, action: ActionDef, counters: tuple[CounterDef, ...], card_ids: list[str]) -> Lister:
    """The legal instances of `action` for player `me`, appended to `out` in order."""
    checks: list[py.expr] = []
    if action.condition is not None:
        checks.append(em.inline(action.condition, "condition"))
    for ci, offset, amount in action.cost:
        cdef = counters[ci]
        slot = E("me * {width} + {offset}", width=cdef.width, offset=offset) if cdef.scope == "player" else lit(offset)
        floor = cdef.min if cdef.min is not None else 0
        checks.append(E("st.counters[{ci}][{slot}] - {amount} >= {floor}", ci=ci, slot=slot,
                        amount=em.inline(amount, "cost"), floor=floor))
    # Checks that read no parameter (only `me`) come first in `checks` when they do:
    # they are the same for every candidate, so they run once, at the first one.
    fixed = 0
    while fixed < len(checks) and _reads_no_param(checks[fixed]):
        fixed += 1
    domains = [em.inline(param.domain, "domain") for param in action.params]
    kept = [any(_reads(code, param.name) for code in [*domains[i + 1:], *checks])  # its value read there
            for i, param in enumerate(action.params)]
    # Reads of `me` and of the parameters become the Python locals holding them (a
    # parameter named `me` would hide the player from later reads: left as it was).
    if all(param.name != "me" for param in action.params):
        names: dict[str, py.expr] = {"me": name("me"), **{param.name: _param(i)
                                                          for i, param in enumerate(action.params)}}
        domains = [as_locals(code, names) for code in domains]
        checks = [as_locals(code, names) for code in checks]
    # The dictionary itself only for expressions that still need it whole (a value
    # or function passed the locals as they are, a key computed at run time).
    env = any(uses_env(code) for code in [*domains, *checks])
    if not env:
        kept = [False] * len(kept)
    # No text twice when each domain never repeats an item and each value has a text
    # of its own (with several parameters, texts without spaces: joined, they part
    # again): the lister then keeps no set of the texts made (compile/distinct.py).
    unique = all(p.type in ("int", "player", "card") for p in action.params) and \
        all(distinct(em, code) for code in domains) and \
        (len(action.params) < 2 or not any(" " in cid for cid in card_ids))
    lister = _Lister(em, action, card_ids, checks, fixed, domains, kept, env, unique)
    exact = em.define(lister.definition(em.fresh("list"), None), f"actions.{action.id} (legal list)")
    # A domain that is a filtered comprehension is gone through in the loop itself (no
    # list built, no comprehension called): when env is not needed whole (its keys would
    # be set in another order) and some domain has that shape.
    loops = [as_loop(inline_functions(code, em), f"_p{i}", lambda: em.fresh("i"))
             for i, code in enumerate(domains)] if not env else []
    if not any(loops):
        return exact  # type: ignore[no-any-return]
    fast = em.fresh("list")
    return em.define(lister.definition(fast, loops, exact=em.const(exact, "exact")),  # type: ignore[no-any-return]
                     f"actions.{action.id} (legal list, its domains gone through in its loops)")


@attrs.define
class _Lister:
    """The pieces of an action's lister, written out with its domains as lists (the
    order of the generic walk) or gone through in its loops."""

    em: Emitter
    action: ActionDef
    card_ids: list[str]
    checks: list[py.expr]
    fixed: int
    domains: list[py.expr]
    kept: list[bool]
    env: bool
    unique: bool = False  # no two candidates can have the same text: no `seen` set

    def definition(self, fname: py.Name, loops: list[Loop | None] | None, exact: py.expr | None = None) -> Stmts:
        """The lister's `def`, named `fname`."""
        em, action, checks = self.em, self.action, self.checks
        if loops is not None:
            # Items are tested in another order than the walk's (each candidate's checks
            # before the next item of the domain): the same work in all, the same result,
            # but where it raises, the first error met may differ. So on any error the
            # listing is undone (actions added, work charged, values kept since) and
            # made again in the walk's order, which raises what it raised.
            body = self._body(loops)
            return S("""
            def {fname}(st, me, out):
                _n, _w, _memo = len(out), st.work, st.memo
                _m = len(_memo) if _memo is not None else 0
                try:
                    {body}
                    return
                except Exception:
                    pass
                {undo}(st, out, _n, _w, _memo, _m)
                {exact}(st, me, out)
            """, fname=fname, body=body, undo=em.const(_undo, "undo"), exact=exact)
        head = S("env = {{'me': me}}") if self.env else []
        if not action.params:
            bare = em.const(Action(action.id, (action.index, ())), "action")
            return S("""
            def {fname}(st, me, out):
                {head}
                if {test}:
                    out.append({bare})
            """, fname=fname, head=head, test=_all_of(checks) if checks else True, bare=bare)
        return S("""
        def {fname}(st, me, out):
            {head}
            {body}
        """, fname=fname, head=head, body=self._body([None] * len(action.params)))

    def _body(self, loops: list[Loop | None]) -> Stmts:
        em, action, checks, fixed = self.em, self.action, list(self.checks), self.fixed
        values: list[py.expr] = []
        text = lit(action.id)
        loop_parts: list[tuple[Stmts, py.expr, py.expr, Stmts]] = []  # (before, target, items, first in the loop)
        for i, param in enumerate(action.params):
            var = _param(i)
            values.append(var)
            loop = loops[i]
            before: Stmts = []
            target: py.expr = var
            first: Stmts = []
            if loop is None:
                items = self.domains[i]
            else:
                before = seq([py.Expr(p) for p in loop.prelude],
                             *(S("{n} = {part}", n=n, part=part) for n, part in loop.invariants))
                target, items = name(loop.var), loop.iter
                first = seq(*(S("""
                if not ({test}):
                    continue
                """, test=test) for test in loop.tests))
                if loop.value is not None:
                    first += S("{p} = {value}", p=var, value=loop.value)
            if self.kept[i]:
                first += S("env[{local}] = {p}", local=lit(param.name), p=var)
            loop_parts.append((before, target, items, first))
            text = E("{text} + ' ' + {value}", text=text, value=_render_code(em, var, param.type, self.card_ids))
        inner: Stmts = []
        if fixed:
            inner += S("""
            if ok is None:
                ok = bool({test})
            """, test=_all_of(checks[:fixed]))
            if len(action.params) == 1 and all(loop is None for loop in loops):
                inner += S("""
                if not ok:
                    break
                """)  # the domain is a list already made: nothing more to go through
                checks = checks[fixed:]
            else:  # the rest of a domain gone through in the loop is still worked out, as the walk does
                checks = [E("ok"), *checks[fixed:]]
        payload = E("({index}, ({values},))", index=action.index, values=values)
        make = E("{Action}({text}, {payload})", Action=em.const(Action, "Action"), text=text, payload=payload)
        if all(p.type in _KEYED for p in action.params):
            # Whole numbers, players, cards and texts: the same values give the same text
            # and payload, so the Action is made once and kept (a card's key holds its
            # definition too: its text names it).
            keys = [E("({v}, st.card_def[{v}])", v=v) if p.type == "card" else v
                    for v, p in zip(values, action.params, strict=True)]
            cache = em.memo.get(("actions", action.id))
            if cache is None:
                cache = em.memo[("actions", action.id)] = em.bound({}, "actions")
            kinds = [E("type({v}) is {kind}", v=v, kind=name(_KEYED[p.type]))
                     for v, p in zip(values, action.params, strict=True)]
            made = S("""
            if {kinds}:
                key = {key}
                action = {cache}.get(key)
                if action is None:
                    action = {kept}({cache}, key, {make})
            else:
                action = {make}
            """, kinds=_all_of(kinds), key=keys[0] if len(keys) == 1 else py.Tuple(keys, py.Load()), cache=cache,
                     kept=em.const(_kept, "kept"), make=make)
        else:
            made = S("action = {make}", make=make)
        if self.unique:
            made += S("out.append(action)")
        else:
            made += S("""
            if action.text not in seen:
                seen.add(action.text)
                out.append(action)
            """)
        if checks:
            inner += S("""
            if {test}:
                {made}
            """, test=_all_of(checks), made=made)
        else:
            inner += made
        # The loops, innermost first, each in the one around it. As the generic walk, a
        # parameter's name is dropped when its loop is over (the first parameter's
        # stays; nothing reads it after the listing). (Only without loops: a lister
        # that keeps env has none.)
        body = inner
        for i in range(len(loop_parts) - 1, -1, -1):
            before, target, items, first = loop_parts[i]
            body = seq(before, S("""
            for {target} in {items}:
                {body}
            """, target=target, items=items, body=seq(first, body)))
            if i > 0 and self.kept[i]:
                body += S("env.pop({local}, None)", local=lit(action.params[i].name))
        return seq([] if self.unique else S("seen = set()"), S("ok = None") if fixed else None, body)


def _undo(st: Any, out: list[Action], count: int, work: int, memo: dict[Any, Any] | None, kept: int) -> None:
    """Take a listing back to where it was: `count` actions out, `work` charged, and the
    first `kept` values of the memo (it is only added to, so the newest go)."""
    del out[count:]
    st.work = work
    if memo is not None:
        for key in list(memo)[kept:]:
            del memo[key]
