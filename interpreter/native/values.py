"""Declared values (`values:`) and their modifiers, lowered to C: one function per value
read by the rules, `val_N(g, p)`, worked out as the engine's `value_of` does.

The base is worked out for the player (`p`, and `me`, are that player; -1 for a value
of no player), then each modifier in order: a card's modifier applies through the copy
of that card reaching the player now (by default the first copy, in the order of the
card's active zones, in a zone of the player's or a shared one; with `applies_to`, the
first holder, in that same order, for whom it holds), its `when` is tested, and its
amount added, set, or taken as a maximum or minimum.

A modifier that applies only while granted (`grant M to P until end of turn`) is
tested against the grants the struct keeps (`g.grants`: a bit per duration still
running, cleared at the turn's or round's end, as the engine drops its grants).

A value's reads never change the state, so the engine may keep one while it lists
actions; a random draw in a value would make that a difference, so such a value stays
on the Python path.
"""

from __future__ import annotations

from typing import Any

from interpreter.lang import ast
from interpreter.native import walks
from interpreter.native.bound import zone_card
from interpreter.native.expressions import Bound, Env, Lowering, NotNative, _where, parsed, static_int

_OPS = {"add": "result + {a}", "set": "{a}", "max": "({a} if {a} > result else result)",
        "min": "({a} if {a} < result else result)"}

# The copy of a card definition whose modifiers reach player p by default (-1: none).
COPY_FOR = '''
cdef int64_t copy_for(St* g, int64_t d, int64_t p) noexcept nogil:
    cdef int64_t a, i, slot
    if p < 0:  # (a value of no player: no copy is held by "no player")
        return -1
    for a in range(ACT_START[d], ACT_START[d + 1]):
        slot = ACT_SLOTS[a]
        if ZOWNER[slot] >= 0 and ZOWNER[slot] != p:
            continue
        for i in range(g.zn[slot]):
            if g.kind[g.zc[g.zs[slot] + i]] == d:
                return g.zc[g.zs[slot] + i]
    return -1
'''


class Values:
    """The values a game's lowering reads, each lowered once, with its type."""

    def __init__(self, prog: Any):
        self.prog = prog
        self.index = {v.name: v for v in prog.gd.values}
        self.functions: dict[int, str] = {}
        self.types: dict[int, str] = {}
        self.reaches: dict[int, str] = {}  # card definition -> its `applies_to` function
        self.scans = False  # some modifier of a card is read: the module needs copy_for and its tables

    def __contains__(self, name: str) -> bool:
        return name in self.index

    def read(self, lw: Lowering, node: ast.Node, env: Env) -> Bound:
        """`name` (the value of `me`, or of no player) or `name(player)`, as C code."""
        vdef = self.index[node.name]  # type: ignore[attr-defined]
        if self.is_list(vdef.name):
            raise NotNative(f"{_where(node)}: value '{vdef.name}', a list, read as one value")
        kind = self._lowered(vdef, node)
        return Bound("c", f"val_{vdef.index}(g, {self._player(lw, node, env)})", kind)

    def is_list(self, name: str) -> bool:
        """Whether the value is a list (its base is one: `extra: {base: "[]"}`)."""
        from interpreter.native.statements import Writer
        vdef = self.index.get(name)
        return vdef is not None and walks.is_list(Writer(self.prog, "p"), self._base(vdef), {})

    def _base(self, vdef: Any) -> ast.Node:
        return parsed(self.prog.raw.get("values", {}).get(vdef.name, {}).get("base", "0"), vdef.name)

    def walk(self, lw: Lowering, node: ast.Node, env: Env, body: Any) -> None:
        """A list value walked: worked out for the player into a scratch array, then
        element by element."""
        vdef = self.index[node.name]  # type: ignore[attr-defined]
        player = self._player(lw, node, env)
        if vdef.index not in self.types:
            self.types[vdef.index] = "int"
            self.functions[vdef.index], self.types[vdef.index] = self._list_function(vdef)
        lw._n += 1
        items = f"_items{lw._n}"
        lw.decls[f"{items}[LISTCAP]"] = "int64_t"
        lw.decls[f"{items}_n"] = "int64_t"
        lw.line(f"{items}_n = lval_{vdef.index}(g, {player}, {items})")
        kind = self.types[vdef.index]
        walks.walk_range(lw, "0", f"{items}_n", lambda i: body(Bound("c", f"{items}[{i.code}]", kind)))

    def _player(self, lw: Lowering, node: ast.Node, env: Env) -> str:
        name = node.name  # type: ignore[attr-defined]
        vdef = self.index[name]
        args = node.args if isinstance(node, ast.Call) else ()
        if not vdef.of_player:
            if args:
                raise NotNative(f"{_where(node)}: value '{name}' given a player")
            player = "-1"
        elif args:
            if len(args) != 1:
                raise NotNative(f"{_where(node)}: value '{name}' given {len(args)} players")
            player = f"checked(g, {lw.code(args[0], env)}, {self.prog.n})"
        elif "me" in env:
            player = lw.code(ast.Name(node.line, node.column, "me"), env)
        else:
            raise NotNative(f"{_where(node)}: value '{name}' where no player is `me`")
        return player

    def _lowered(self, vdef: Any, node: ast.Node) -> str:
        if vdef.index not in self.types:
            self.types[vdef.index] = "int"  # (a value never reads itself: the rules' loader says so)
            self.functions[vdef.index], self.types[vdef.index] = self._function(vdef, node)
        return self.types[vdef.index]

    def _function(self, vdef: Any, node: ast.Node) -> tuple[str, str]:
        from interpreter.native.statements import Writer  # (statements.py reads values through expressions)
        prog = self.prog
        w = Writer(prog, "p")
        w.maybe += 1  # (no random draw in a value: see the module's docstring)
        for name in ("result", "this", "owner"):
            w.decls[name] = "int64_t"
        env: Env = {"p": Bound("c", "p", "int"), "me": Bound("c", "p", "int")}
        kinds: list[str] = []

        def body() -> None:
            base = w.expr(parsed(prog.raw.get("values", {}).get(vdef.name, {}).get("base", "0"), vdef.name), env)
            kinds.append(_type(base))
            w.line(f"result = {w._operand(node, base)}")
            for mod in vdef.modifiers:
                self._modifier(w, mod, env)
            w.line("return result")
        text = w.function(f"cdef int64_t val_{vdef.index}(St* g, int64_t p) noexcept nogil:", body)
        return text, kinds[0]

    def _list_function(self, vdef: Any) -> tuple[str, str]:
        """lval_N(g, p, out): the list value for p into `out`, its length returned: the
        base, then each modifier (`add` joins its list on, `set` puts its list instead)."""
        from interpreter.native.statements import Writer
        prog = self.prog
        w = Writer(prog, "p")
        w.maybe += 1  # (no random draw in a value)
        for name in ("this", "owner", "n", "i"):
            w.decls[name] = "int64_t"
        env: Env = {"p": Bound("c", "p", "int"), "me": Bound("c", "p", "int")}
        kinds: set[str] = set()

        def append(source: ast.Node, scope: Env) -> None:
            items, kind = w.collect(source, scope)
            if not (isinstance(source, ast.ListExpr) and not source.items):
                kinds.add(kind)
            def one() -> None:
                def full() -> None:
                    w.line("g.err = 5")
                    w.line("return 0")
                w.block("if n >= LISTCAP:", full)
                w.line(f"out[n] = {items}[i]")
                w.line("n += 1")
            w.block(f"for i in range({items}_n):", one)

        def change(mod: Any, amount: ast.Node, scope: Env) -> None:
            if mod.op not in ("add", "set"):
                raise NotNative(f"modifier '{mod.id}': '{mod.op}' of a list")
            if mod.op == "set":
                w.line("n = 0")
            append(amount, scope)

        def body() -> None:
            w.line("n = 0")
            append(self._base(vdef), env)
            for mod in vdef.modifiers:
                self._modifier(w, mod, env, change)
            w.line("return n")
        text = w.function(f"cdef int64_t lval_{vdef.index}(St* g, int64_t p, int64_t* out) noexcept nogil:", body)
        concrete = kinds - {"any"}
        return text, next(iter(concrete)) if len(concrete) == 1 else "int" if not kinds else "any"

    def _modifier(self, w: Any, mod: Any, env: Env, change_list: Any = None) -> None:
        prog = self.prog
        spec = self._spec(mod)
        scope = dict(env)

        def apply() -> None:
            if mod.granted:  # (only while granted to the player: the engine's st.grants)
                w.block(f"if p >= 0 and g.grants[{prog.granted[mod.id]} * NPLAYERS + p] != 0:", applied)
            else:
                applied()

        def applied() -> None:
            when = spec.get("when")

            def change() -> None:
                if change_list is not None:  # (a list value's modifier: _list_function)
                    change_list(mod, parsed(spec.get("amount"), mod.id), scope)
                    return
                amount = w.expr(parsed(spec.get("amount"), mod.id), scope)
                held = w.temp("amount")
                w.line(f"{held} = {w._operand(parsed(spec.get('amount'), mod.id), amount)}")
                w.line("result = " + _OPS[mod.op].format(a=held))
            if when is None:
                change()
            else:
                w.block(f"if {w.cond(parsed(when, mod.id), scope)}:", change)
        if mod.card is None:
            apply()
            return
        card = prog.gd.cards[mod.card]
        scope["this"], scope["owner"] = Bound("c", "this", "card"), Bound("c", "owner", "int")
        if card.applies_to is None:
            self.scans = True
            w.line(f"this = copy_for(g, {mod.card}, p)")
            w.line("owner = p")
        else:
            w.line(f"this = {self._reach(mod.card)}(g, p, &owner)")
        w.line("if g.err: return 0")
        w.block("if this >= 0:", apply)

    def _spec(self, mod: Any) -> dict[str, Any]:
        return self.prog.rule_spec("modifiers", mod.id, mod.card)  # type: ignore[no-any-return]

    def _reach(self, d: int) -> str:
        """The function giving the copy of card `d` whose modifiers reach p, and its
        holder: the first holder, in the order of the card's active zones (a shared
        zone's copy held by every player, in seat order), for whom `applies_to` holds."""
        from interpreter.native.statements import Writer
        name = f"reach_{d}"
        if d in self.reaches:
            return name
        self.reaches[d] = ""
        self.scans = True
        prog = self.prog
        card = prog.gd.cards[d]
        text = (prog.raw.get("cards") or {}).get(card.id, {}).get("applies_to")
        w = Writer(prog, "p")
        w.maybe += 1
        for decl in ("a", "i", "q", "slot", "iid", "first", "last"):
            w.decls[decl] = "int64_t"
        w.decls["seen[NPLAYERS]"] = "int64_t"
        env: Env = {"p": Bound("c", "p", "int"), "me": Bound("c", "p", "int"),
                    "this": Bound("c", "iid", "card"), "owner": Bound("c", "q", "int")}

        def body() -> None:
            w.block("for q in range(NPLAYERS):", lambda: w.line("seen[q] = 0"))

            def holder() -> None:
                w.line("if seen[q]: continue")
                w.line("seen[q] = 1")
                w.block(f"if {w.cond(parsed(text, card.id), env)}:",
                        w.writes("owner[0] = q", "return iid"))
                w.line("if g.err: return -1")

            def copy() -> None:
                w.line(f"iid = {zone_card('slot', 'i')}")
                w.line(f"if g.kind[iid] != {d}: continue")
                w.line("first = ZOWNER[slot] if ZOWNER[slot] >= 0 else 0")  # (a shared zone's copy: every player's)
                w.line("last = ZOWNER[slot] + 1 if ZOWNER[slot] >= 0 else NPLAYERS")
                w.block("for q in range(first, last):", holder)

            def zone() -> None:
                w.line("slot = ACT_SLOTS[a]")
                w.block("for i in range(g.zn[slot]):", copy)
            w.block(f"for a in range(ACT_START[{d}], ACT_START[{d + 1}]):", zone)
            w.line("return -1")
        self.reaches[d] = w.function(f"cdef int64_t {name}(St* g, int64_t p, int64_t* owner) noexcept nogil:", body)
        return name

    def sources(self) -> list[str]:
        """The functions to write into the module (and copy_for, when some card's modifier is read)."""
        return ([COPY_FOR] if self.scans else []) + list(self.reaches.values()) + list(self.functions.values())

    def tables(self) -> list[tuple[str, list[int]]]:
        """ACT_START/ACT_SLOTS (each card definition's active zone slots, in order) and
        ZOWNER (each slot's owner, -1 shared), when copy_for or a reach function needs them."""
        if not self.scans:
            return []
        prog = self.prog
        lay = prog.layout
        starts, slots = [0], list[int]()
        for card in prog.gd.cards:
            for zi in card.active_in:
                base = lay.zbase[zi]
                slots.extend(range(base, base + (prog.n if prog.gd.zones[zi].scope == "player" else 1)))
            starts.append(len(slots))
        return [("ACT_START", starts), ("ACT_SLOTS", slots), ("ZOWNER", list(lay.zowner))]



def _type(value: Bound) -> str:
    if value.kind == "static":
        if isinstance(value.value, bool):
            return "bool"
        if static_int(value.value):
            return "int"
        raise NotNative(f"a value of words ({value.value!r})")
    if value.kind != "c":
        raise NotNative("a value that is a list")
    return value.type
