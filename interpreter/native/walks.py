"""Lists in the native lowering: the walks written as C loops over what a list
expression evaluates to, in the order Python would make the list.

A list is never a value in C. What the rules write as a list is walked where it is
used: a literal, a comprehension, a concatenation (`a + b`: `a`, then `b`), a zone (its
cards, bottom first), a constant table, a range, the players, a board's cells, a
local's array, or a list that sits in memory (`seq`: a card's list property or list
attribute, read in place). `collect` copies a walk into a scratch array where a list
must be kept (a local, an attribute, a random pick).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from interpreter.lang import ast
from interpreter.native.bound import Body, Bound, Env, NotNative, _where, int_literal, static_int, zone_card

if TYPE_CHECKING:
    from interpreter.native.expressions import Lowering


def is_list(lw: Lowering, node: ast.Node, env: Env) -> bool:
    """Whether `node` is a list (as written: no code is written to tell)."""
    game = lw.game
    if isinstance(node, (ast.ListExpr, ast.Comprehension)):
        return True
    if isinstance(node, ast.Name):
        if node.name in env:
            return env[node.name].kind in ("list", "seq")
        if isinstance(game.constants.get(node.name), list):  # (a constant list)
            return True
        return node.name in game.zone_index and game.gd.zones[game.zone_index[node.name]].scope != "player"
    if isinstance(node, ast.Call):
        if node.name in env:
            return False
        if (node.name in game.zone_index and len(node.args) == 1) or node.name in ("cards_named", "players_from"):
            return True
        if node.name in ("top", "bottom"):
            return len(node.args) == 2
        if node.name == "select" and len(node.args) == 3:  # (one of two lists)
            return is_list(lw, node.args[1], env) or is_list(lw, node.args[2], env)
        if node.name in ("reversed", "sorted") and len(node.args) == 1:
            return True
        if node.name in game.values:  # (a declared value that is a list)
            return bool(game.values.is_list(node.name))
        if node.name in game.functions:
            spec = game.functions[node.name]
            return isinstance(spec, dict) and is_list(lw, game.parsed_function(node.name), {})
        return False
    if isinstance(node, ast.Binary) and node.op == "+":
        return is_list(lw, node.left, env) or is_list(lw, node.right, env)
    if isinstance(node, ast.Attr):
        return game.card_data.is_list(node.name)
    if isinstance(node, ast.Index) and isinstance(node.target, ast.Name) and node.target.name not in env and \
            isinstance(game.constants.get(node.target.name), dict):  # (a constant mapping to lists)
        return all(isinstance(v, list) for v in game.constants[node.target.name].values())
    return False


def value_code(lw: Lowering, node: ast.Node, value: Bound) -> str:
    """A value as a C number: a word is its number, none is -1."""
    if value.kind == "static":
        if value.value is None:
            return "-1"
        if isinstance(value.value, str):
            return str(lw.game.word(value.value))
        if static_int(value.value):
            return int_literal(value.value, node)
    if value.kind != "c":
        raise NotNative(f"{_where(node)}: a list or a row used as a value")
    return value.code


def each(lw: Lowering, node: ast.Node, env: Env, body: Body) -> None:
    """Write a walk over the list `node` evaluates to, calling `body` with each element."""
    game = lw.game
    if isinstance(node, ast.ListExpr):
        for item in node.items:
            body(held(lw, lw.expr(item, env)))
        return
    if isinstance(node, ast.Comprehension):
        if node.unpack:
            raise NotNative(f"{_where(node)}: a comprehension that unpacks")

        def inner(item: Bound) -> None:
            scope = {**env, node.var: held(lw, item)}

            def element() -> None:
                body(held(lw, lw.expr(node.element, scope)))
            if node.condition is None:
                element()
            else:
                lw.block(f"if {lw.cond(node.condition, scope)}:", element)
        each(lw, node.source, env, inner)
        return
    if isinstance(node, ast.Binary) and node.op == "+" and is_list(lw, node, env):
        each(lw, node.left, env, body)
        each(lw, node.right, env, body)
        return
    if isinstance(node, ast.Name) and node.name in env and env[node.name].kind in ("list", "seq"):
        walk_seq(lw, env[node.name], node, body)
        return
    if isinstance(node, ast.Name) and node.name not in env:
        if node.name == "players":
            walk_range(lw, "0", str(game.n), body)
            return
        if node.name in game.counter_index:
            counter = game.counters[game.counter_index[node.name]]
            if counter.scope != "global":
                raise NotNative(f"{_where(node)}: a player's counter walked as a list")
            i = lw.temp("i")
            lw.block(f"for {i} in range({counter.width}):",
                     lambda: body(Bound("c", game.counter_read(node.name, None, i, node, checked=False))))
            return
        if node.name in game.constants:
            game.table(node.name, node).walk(lw, body, node)
            return
    if isinstance(node, ast.Call) and node.name not in env:
        if node.name == "range":
            args = [lw.code(a, env) for a in node.args]
            if len(args) in (1, 2):
                walk_range(lw, "0" if len(args) == 1 else args[0], args[-1], body)
                return
        if node.name == "select":
            test = lw.expr(node.args[0], env)
            if test.kind == "static":
                each(lw, node.args[1] if test.value else node.args[2], env, body)
                return
            lw.block(f"if {lw.cond(node.args[0], env)}:", lambda: each(lw, node.args[1], env, body))
            lw.block("else:", lambda: each(lw, node.args[2], env, body))
            return
        if node.name == "reversed" and len(node.args) == 1:  # (a copy, walked from its end)
            items, kind = collect(lw, node.args[0], env)
            i = lw.temp("i")
            lw.block(f"for {i} in range({items}_n - 1, -1, -1):", lambda: body(Bound("c", f"{items}[{i}]", kind)))
            return
        if node.name in game.values and game.values.is_list(node.name):
            game.values.walk(lw, node, env, body)
            return
        if node.name == "sorted" and len(node.args) == 1:  # (a copy in ascending order: numbers, cards)
            items, kind = collect(lw, node.args[0], env)
            if kind not in ("int", "card"):
                raise NotNative(f"{_where(node)}: sorting words (Python orders them as text)")
            i, j, v = lw.temp("i"), lw.temp("j"), lw.temp("v")

            def insert() -> None:  # (insertion sort: stable, and lists are short)
                lw.line(f"{v} = {items}[{i}]")
                lw.line(f"{j} = {i} - 1")
                def shift() -> None:
                    lw.line(f"{items}[{j} + 1] = {items}[{j}]")
                    lw.line(f"{j} -= 1")
                lw.block(f"while {j} >= 0 and {items}[{j}] > {v}:", shift)
                lw.line(f"{items}[{j} + 1] = {v}")
            lw.block(f"for {i} in range(1, {items}_n):", insert)
            walk_range(lw, "0", f"{items}_n", lambda k: body(Bound("c", f"{items}[{k.code}]", kind)))
            return
        if node.name == "players_from":  # (every seat, from this one on, one way round)
            start, step = lw.temp("from"), lw.direction(node, 1)
            lw.line(f"{start} = {lw.code(node.args[0], env)}")
            walk_range(lw, "0", str(game.n), lambda i: body(
                held(lw, Bound("c", f"pymod(g, {start} + {i.code} * ({step}), {game.n})", "int"))))
            return
        if node.name in ("top", "bottom") and len(node.args) == 2:  # (top first; the bottom's from the bottom)
            slot, count, n = lw.temp("slot"), lw.temp("count"), lw.temp("n")
            lw.line(f"{slot} = {game.zone_slot(node.args[0], env, lw)}")
            lw.line(f"{count} = {lw.code(node.args[1], env)}")
            lw.line(f"{n} = {count} if {count} < g.zn[{slot}] else g.zn[{slot}]")
            at = (lambda i: zone_card(slot, f"g.zn[{slot}] - 1 - {i}")) if node.name == "top" else \
                (lambda i: zone_card(slot, i))
            walk_range(lw, "0", n, lambda i: body(held(lw, Bound("c", at(i.code), "card"))))
            return
        if node.name == "cards_named" and len(node.args) == 2:
            cards_named(lw, node, env, body)
            return
        if node.name == "cells":
            walk_range(lw, "0", str(game.board(node.args[0]).size), body)
            return
        if node.name in game.functions:
            value, scope = game.function_body(node.name, node, env, lw)
            each(lw, value, scope, body)
            return
    slot = game.zone_slot_or_none(node, env, lw)
    if slot is not None:
        held_slot = lw.temp("slot")
        lw.line(f"{held_slot} = {slot}")
        i = lw.temp("i")
        lw.block(f"for {i} in range(g.zn[{held_slot}]):",
                 lambda: body(Bound("c", zone_card(held_slot, i), "card")))
        return
    if isinstance(node, (ast.Attr, ast.Index)):
        value = lw.expr(node, env)
        if value.kind in ("seq", "list"):
            walk_seq(lw, value, node, body)
            return
    raise NotNative(f"{_where(node)}: walking this list ({type(node).__name__.lower()})")


def walk_seq(lw: Lowering, seq: Bound, node: ast.Node, body: Body) -> None:
    """A local's array or a list in memory, element by element (its length read once,
    as Python's loop over a list it does not change)."""
    if seq.kind == "list":
        base, length = seq.code, f"{seq.code}_n"
    else:
        base, (length, width) = seq.code, seq.value
        if width:
            raise NotNative(f"{_where(node)}: walking a list of rows")
        pointer = lw.temp("p", seq.pointer)
        lw.line(f"{pointer} = {base}")
        base = pointer
    n, i = lw.temp("n"), lw.temp("i")
    lw.line(f"{n} = {length}")
    lw.block(f"for {i} in range({n}):", lambda: body(Bound("c", f"{base}[{i}]", seq.type)))


def length(lw: Lowering, node: ast.Node, env: Env) -> str | None:
    """The length of a list that knows it (a zone, a local, a list in memory), as C;
    None for one that must be walked to be counted."""
    if isinstance(node, ast.Name) and node.name in env and env[node.name].kind == "list":
        return f"{env[node.name].code}_n"
    if isinstance(node, ast.Name) and node.name in env:
        return None
    slot = lw.game.zone_slot_or_none(node, env, lw)
    if slot is not None:
        return f"g.zn[{slot}]"
    if (isinstance(node, ast.Attr) and is_list(lw, node, env)) or \
            (isinstance(node, ast.Index) and is_list(lw, node.target, env)):
        value = lw.expr(node, env)
        if value.kind == "seq":
            return str(value.value[0])
    return None


def collect(lw: Lowering, source: ast.Node, env: Env) -> tuple[str, str]:
    """The list `source` makes, copied into a scratch array of its own: (its name, the
    element type); its length is NAME_n. (More than LISTCAP items: the game goes to
    the Python path, the length kept within the array.)"""
    lw._n += 1
    items = f"_items{lw._n}"
    lw.decls[f"{items}[LISTCAP]"] = "int64_t"
    lw.decls[f"{items}_n"] = "int64_t"
    lw.line(f"{items}_n = 0")
    kinds: set[str] = set()

    def add(item: Bound) -> None:
        kinds.add(item.type if item.kind == "c" else "word" if isinstance(item.value, str) else "int")
        lw.line(f"if {items}_n < LISTCAP: {items}[{items}_n] = {value_code(lw, source, item)}")
        lw.line(f"{items}_n += 1")
    each(lw, source, env, add)
    lw.line(f"if {items}_n > LISTCAP: g.err = 5")
    lw.line(f"if {items}_n > LISTCAP: {items}_n = LISTCAP")
    return items, kinds.pop() if len(kinds) == 1 else "int" if not kinds else "any"


def walk_range(lw: Lowering, start: str, stop: str, body: Body) -> None:
    i = lw.temp("i")
    lw.block(f"for {i} in range({start}, {stop}):", lambda: body(Bound("c", i, "int")))


def held(lw: Lowering, item: Bound) -> Bound:
    """An element bound to a name: C code that is not a plain name is kept in a
    variable, so a name read twice is worked out once."""
    if item.kind == "c" and not item.code.isidentifier():
        kept = lw.temp("v", "int64_t")
        lw.line(f"{kept} = {item.code}")
        return Bound("c", kept, item.type)
    return item


def member(lw: Lowering, node: ast.Binary, env: Env) -> Bound:
    """`x in list` / `x not in list` (equal numbers; a word equals only itself)."""
    needle = lw.temp("needle")
    lw.line(f"{needle} = {value_code(lw, node.left, lw.expr(node.left, env))}")
    found = lw.temp("in")
    lw.line(f"{found} = 0")

    def body(item: Bound) -> None:
        lw.line(f"if {value_code(lw, node.right, item)} == {needle}: {found} = 1")
    each(lw, node.right, env, body)
    return Bound("c", f"(not {found})" if node.op in ("not in", "notin") else found, "bool")


def index_of(lw: Lowering, node: ast.Call, env: Env) -> Bound:
    """`index_of(list, x)`: where x first is in the list, or -1."""
    if len(node.args) != 2:
        raise NotNative(f"{_where(node)}: index_of of {len(node.args)} arguments")
    needle = lw.temp("needle")
    lw.line(f"{needle} = {value_code(lw, node.args[1], lw.expr(node.args[1], env))}")
    at, k = lw.temp("at"), lw.temp("k")
    lw.line(f"{at} = -1")
    lw.line(f"{k} = 0")

    def body(item: Bound) -> None:
        lw.line(f"if {at} < 0 and {value_code(lw, node.args[0], item)} == {needle}: {at} = {k}")
        lw.line(f"{k} += 1")
    each(lw, node.args[0], env, body)
    return Bound("c", at, "int")


def cards_named(lw: Lowering, node: ast.Call, env: Env, body: Body) -> None:
    """`cards_named(ID, list)`: the list's cards of that definition, in its order."""
    arg = node.args[0]
    gd = lw.game.gd
    if isinstance(arg, ast.Literal) and isinstance(arg.value, str):
        if arg.value not in gd.card_index:
            raise NotNative(f"{_where(node)}: no card '{arg.value}'")
        wanted = str(gd.card_index[arg.value])
    elif isinstance(arg, ast.Attr) and arg.name == "id" and not lw.game.card_data.handles("id"):
        wanted = lw.temp("def")
        lw.line(f"{wanted} = g.kind[checked(g, {lw.code(arg.target, env, 'card')}, g.ncards)]")
    else:
        raise NotNative(f"{_where(node)}: cards_named() of an id worked out at run time")

    def kept(item: Bound) -> None:
        card = held(lw, item)
        lw.block(f"if g.kind[checked(g, {value_code(lw, node, card)}, g.ncards)] == {wanted}:",
                 lambda: body(Bound("c", card.code, "card") if card.kind == "c" else card))
    each(lw, node.args[1], env, kept)
