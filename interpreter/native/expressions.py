"""Expressions of the effect language lowered to typed C expressions (Cython syntax)
over the flat game state `g`, for the native backend.

Every value the native subset holds is a C `int64_t`: numbers, truth values, seats,
card copies (their instance number), cells (a cell off the board is -1, the engine's
`None`). Lists are never values: a list is something to walk (`each`), and the walk is
written out as C loops that bind the element, so `any([... for l in lines])` is a loop
and no list is ever built. Words (board directions) are known when the code is
written: they are bound as static values and fold away (`step(field, c, "sw")` is a
table read).

What the subset cannot lower raises `NotNative` with the reason and where; the game
then runs on the Python path. Reads that Python would refuse (an index out of range,
a player that is not seated) set `g.err` instead of reading memory they must not: the
game is then played again on the Python path, which reports it as it always has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.lang import ast
from interpreter.lang.parser import parse_expression
from interpreter.native import walks
from interpreter.native.bound import Body, Bound, Env, NotNative, _where, int_literal, static_int, zone_card

__all__ = ["Body", "Bound", "Env", "Lowering", "NotNative", "_where", "parsed", "static_int"]

_ARITH = {"+": "+", "-": "-", "*": "*"}
_COMPARE = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class Lowering:
    """The expression half of a game's lowering. `out` receives statements written
    before the expression that needs them (loops of `any`, `count`); `temp` declares a
    C variable of the function being written."""

    def __init__(self, game: Any) -> None:
        self.game = game  # the Program being written (tables, counters, zones, boards)
        self.out: list[str] = []
        self.depth = 1
        self.decls: dict[str, str] = {}
        self._n = 0
        # Inside the right side of `and`/`or` or a branch of `select`: Python may not
        # evaluate it, so a random draw there (written before the whole expression)
        # would draw when Python does not; such rules stay on the Python path.
        self.maybe = 0
        self.me = "me"  # (the C name of `me` here: a writer says which)

    # ---- writing ----------------------------------------------------------------------------

    def line(self, text: str) -> None:
        self.out.append("    " * self.depth + text)

    def temp(self, stem: str, ctype: str = "int64_t") -> str:
        self._n += 1
        name = f"_{stem}{self._n}"
        self.decls[name] = ctype
        return name

    def writes(self, *texts: str) -> Callable[[], None]:
        """A block's body that is these lines."""
        def body() -> None:
            for text in texts:
                self.line(text)
        return body

    def affordable(self, costs: list[tuple[ast.Node, ast.Node, int]], env: Env, then: Callable[[], None]) -> None:
        """`then()` inside the tests that `me` can pay each counter of `costs` (as the
        engine's `affordable`: in order, none left below its least). A random draw in an
        amount stays on the Python path: Python works it out again when paying."""
        def counter(i: int) -> None:
            if i == len(costs):
                then()
                return
            target, amount, floor = costs[i]
            self.maybe += 1
            pays = self.code(amount, env)
            self.maybe -= 1
            self.block(f"if {self.code(target, env)} - ({pays}) >= {floor}:", lambda: counter(i + 1))
        counter(0)

    def block(self, head: str, body: Callable[[], None]) -> None:
        self.line(head)
        self.depth += 1
        mark = len(self.out)
        body()
        if len(self.out) == mark:
            self.line("pass")
        self.depth -= 1

    # ---- expressions ------------------------------------------------------------------------

    def expr(self, node: ast.Node, env: Env) -> Bound:
        """`node` as a bound value: C code with its type, or a static value."""
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is None:
            raise NotNative(f"{_where(node)}: {type(node).__name__.lower()} expressions are not lowered")
        result: Bound = method(node, env)
        return result

    def code(self, node: ast.Node, env: Env, want: str | None = None) -> str:
        """`node` as C code (a static value written as a literal)."""
        value = self.expr(node, env)
        if value.kind == "static":
            if static_int(value.value):
                return int_literal(value.value, node)
            raise NotNative(f"{_where(node)}: the value {value.value!r} is not a number")
        if value.kind != "c":
            raise NotNative(f"{_where(node)}: a list or a text used as a value")
        if want == "card" and value.type not in ("card", "any"):
            raise NotNative(f"{_where(node)}: not a card")
        return value.code

    def owner_of(self, counter: str) -> str | None:
        """Whose copy of a counter its name alone means: `me`'s for a player's counter
        (as the engine reads `credits` for `credits(me)`), none for a shared one."""
        return self.me if self.game.counters[self.game.counter_index[counter]].scope == "player" else None

    def index_code(self, counter: str, node: ast.Node, env: Env) -> str:
        """An index of an array counter as C code: a number, or a word for a counter
        with named keys (its place among them is the program's: counter_slot)."""
        if self.game.counters[self.game.counter_index[counter]].keys:
            return walks.value_code(self, node, self.expr(node, env))
        return self.code(node, env)

    def e_Literal(self, node: ast.Literal, env: Env) -> Bound:
        if type(node.value) in (int, bool, str) or node.value is None:
            return Bound("static", value=node.value)
        raise NotNative(f"{_where(node)}: the literal {node.value!r}")

    def e_Name(self, node: ast.Name, env: Env) -> Bound:
        name = node.name
        if name in env:
            if env[name].kind == "text":
                raise NotNative(f"{_where(node)}: '{name}' holds what the subset does not work out"
                                + (f" ({env[name].code})" if env[name].code else ""))
            return env[name]
        game = self.game
        if name in game.counter_index:
            return Bound("c", game.counter_read(name, self.owner_of(name), None, node), "int")
        if name in game.constants:
            value = game.constants[name]
            if static_int(value) or isinstance(value, str):
                return Bound("static", value=value)
            if isinstance(value, dict):  # (a mapping handed around: native/mappings.py)
                return game.mappings.constant(name, node)
            raise NotNative(f"{_where(node)}: constant '{name}' used as a value")
        if name in game.values:
            return game.values.read(self, node, env)
        if name == "active":
            return Bound("c", "g.active", "int")
        if name == "player_count":
            return Bound("static", value=game.n)
        if name in ("round_number", "turn_number"):
            return Bound("c", "g.round_no" if name == "round_number" else "g.turn_no", "int")
        if name == "true" or name == "false":
            return Bound("static", value=name == "true")
        if name == "none":
            return Bound("c", "-1", "opt")
        raise NotNative(f"{_where(node)}: the name '{name}'")

    def e_Unary(self, node: ast.Unary, env: Env) -> Bound:
        value = self.expr(node.operand, env)
        if value.kind == "static" and static_int(value.value):
            return Bound("static", value=(not value.value) if node.op == "not" else -value.value)
        if node.op == "not":
            return Bound("c", f"(not {self.cond(node.operand, env)})", "bool")
        return Bound("c", f"(-{self._operand(node.operand, value)})", "int")

    def e_Binary(self, node: ast.Binary, env: Env) -> Bound:
        op = node.op
        if op in ("and", "or"):
            first = self.cond(node.left, env)
            self.maybe += 1
            mark = len(self.out)
            self.depth += 1
            second = self.cond(node.right, env)
            self.depth -= 1
            self.maybe -= 1
            if len(self.out) == mark:
                return Bound("c", f"({first} {op} {second})", "bool")
            # The right side needs lines of its own (a loop, a read Python might refuse):
            # they run only when the left side does not decide, as Python's `and`/`or`.
            before = self.out[mark:]
            del self.out[mark:]
            result = self.temp("both" if op == "and" else "either")
            self.line(f"{result} = {first}")
            self.line(f"if {'' if op == 'and' else 'not '}{result}:")
            self.out += before
            self.depth += 1
            self.line(f"{result} = {second}")
            self.depth -= 1
            return Bound("c", result, "bool")
        if op in ("in", "not in", "notin"):
            return self._member(node, env)
        left, right = self.expr(node.left, env), self.expr(node.right, env)
        if left.kind == "static" and right.kind == "static":
            folded = _fold(op, left.value, right.value)
            if folded is not None:
                return Bound("static", value=folded)
        if op in ("==", "!="):  # (a word is a number no other value is: equal only to itself)
            a, b = walks.value_code(self, node.left, left), walks.value_code(self, node.right, right)
            return Bound("c", f"({a} {_COMPARE[op]} {b})", "bool")
        for side in (left, right):
            if (side.kind == "static" and not (static_int(side.value) or side.value is None)) or \
                    (side.kind == "c" and side.type in ("word", "any")):
                raise NotNative(f"{_where(node)}: the order of words, or arithmetic on them (Python refuses it)")
        if op in _COMPARE:
            a, b = self._operand(node.left, left), self._operand(node.right, right)
            return Bound("c", f"({a} {_COMPARE[op]} {b})", "bool")
        a, b = self._operand(node.left, left), self._operand(node.right, right)
        if op in _ARITH:
            return Bound("c", f"({a} {_ARITH[op]} {b})", "int")
        if op == "/" and not self.game.exact_division:  # (rule files of format 1: toward zero)
            return Bound("c", f"truncdiv(g, {a}, {b})", "int")
        if op == "%":
            return Bound("c", f"pymod(g, {a}, {b})", "int")
        if op == "//":
            return Bound("c", f"pyfloordiv(g, {a}, {b})", "int")
        raise NotNative(f"{_where(node)}: the operator '{op}' (exact fractions stay in Python)")

    def _operand(self, node: ast.Node, value: Bound) -> str:
        if value.kind == "static":
            if value.value is None:
                return "-1"
            if static_int(value.value):
                return int_literal(value.value, node)
        if value.kind != "c":
            raise NotNative(f"{_where(node)}: not a number")
        return value.code

    def cond(self, node: ast.Node, env: Env) -> str:
        """A truth value as C code. (The right side of `and`/`or` may need lines written
        before the whole test, a loop of `any`: it is then worked out even when the
        left side decides. Its reads are checked, so at worst a game goes to the Python
        path, which is right but slower.)"""
        value = self.expr(node, env)
        if value.kind == "static":
            return "1" if value.value else "0"
        if value.kind != "c":
            raise NotNative(f"{_where(node)}: a list used as a truth value")
        if value.type == "opt":
            return f"({value.code} != -1)"
        return value.code

    def b_zone_of(self, node: ast.Call, env: Env) -> Bound:
        """The name of the zone a card is in, as a word (in none: -1)."""
        card = self.temp("card")
        self.line(f"{card} = checked(g, {self.code(node.args[0], env, 'card')}, g.ncards)")
        zones, lay = self.game.gd.zones, self.game.layout
        self.game.extra_tables["ZW"] = [self.game.word(zones[lay.zdef[slot]].name) for slot in range(lay.slots)]
        return Bound("c", f"(ZW[g.loc[{card}]] if g.loc[{card}] >= 0 else -1)", "word")

    def _member(self, node: ast.Binary, env: Env) -> Bound:
        return walks.member(self, node, env)

    def e_Index(self, node: ast.Index, env: Env) -> Bound:
        target = node.target
        game = self.game
        chain: list[ast.Node] = [node.index]  # (a constant nested evenly, read to the bottom: Grid)
        root = target
        while isinstance(root, ast.Index):
            chain.insert(0, root.index)
            root = root.target
        if len(chain) >= 2 and isinstance(root, ast.Name) and root.name not in env and \
                isinstance(game.constants.get(root.name), dict):
            grid = game.grid(root.name, node)
            if grid is not None:
                indices = [walks.value_code(self, i, self.expr(i, env)) for i in chain]
                return Bound("c", grid.read(indices), grid.type)
        if isinstance(target, ast.Name) and target.name not in env and target.name in game.counter_index:
            key = self.index_code(target.name, node.index, env)
            return Bound("c", game.counter_read(target.name, self.owner_of(target.name), key, node), "int")
        if isinstance(target, ast.Call) and target.name in game.counter_index and len(target.args) == 1:
            player = self.code(target.args[0], env)
            key = self.index_code(target.name, node.index, env)
            return Bound("c", game.counter_read(target.name, player, key, node), "int")
        slot = game.zone_slot_or_none(target, env, self)
        if slot is not None:  # (a zone's card by its place, the bottom first)
            held = self.temp("slot")
            self.line(f"{held} = {slot}")
            at = self._operand(node.index, self.expr(node.index, env))
            return Bound("c", zone_card(held, f"checked(g, {at}, g.zn[{held}])"), "card")
        if isinstance(target, (ast.ListExpr, ast.Comprehension, ast.Binary, ast.Call)) and \
                walks.is_list(self, target, env):
            items, kind = self.collect(target, env)  # (a list made here, then one of its elements)
            at = self._operand(node.index, self.expr(node.index, env))
            return Bound("c", f"{items}[checked(g, {at}, {items}_n)]", kind)
        base = self.expr(target, env) if not (isinstance(target, ast.Name) and target.name in game.constants
                                               and target.name not in env) else None
        index = self.expr(node.index, env)
        if base is None:  # a constant list indexed
            assert isinstance(target, ast.Name)
            table = game.table(target.name, node)
            if hasattr(table, "read_key"):  # (a constant mapping, read by a word: program.KeyedTable)
                if table.type == "record":
                    raise NotNative(f"{_where(node)}: a record of '{target.name}' as a value")
                if table.type == "seq":  # (a list in the table: where it starts, how long it is)
                    place = self.temp("place")
                    self.line(f"{place} = {table.place(walks.value_code(self, node.index, index))}")
                    return Bound("seq", f"({table.cname} + {table.cname}O[{place}])", table.seq_kind,
                                 (f"{table.cname}N[{place}]", 0))
                return Bound("c", table.read_key(walks.value_code(self, node.index, index)), table.type)
            return self._table_read(table, None, index, node)
        if base.kind == "row":
            return self._table_read(base.value, base.code, index, node)
        if base.kind == "c" and base.type == "map":  # (a mapping by its row: native/mappings.py)
            row = self._held(base).code
            return game.mappings.read(row, walks.value_code(self, node.index, index))
        if base.kind == "list":
            return Bound("c", f"{base.code}[checked(g, {self._operand(node, index)}, {base.code}_n)]", base.type)
        if base.kind == "seq":  # (a list in memory: an element, or a row of a list of rows)
            size, width = base.value
            at = f"checked(g, {self._operand(node, index)}, {size})"
            if width:
                return Bound("seq", f"({base.code} + {at} * {width})", base.type, (str(width), 0), base.pointer)
            return Bound("c", f"{base.code}[{at}]", base.type)
        raise NotNative(f"{_where(node)}: indexing this value")

    def _table_read(self, table: Any, row: str | None, index: Bound, node: ast.Node) -> Bound:
        if index.kind == "static" and static_int(index.value):
            i = int(index.value)
            if row is None:
                return Bound("c", table.read(None, str(i), node), table.type) if not table.nested else \
                    Bound("row", f"checked(g, {i}, {len(table.rows)})", value=table)
            return Bound("c", table.read(row, str(i), node), table.type)
        code = self._operand(node, index)
        if row is None and table.nested:
            return Bound("row", f"checked(g, {code}, {len(table.rows)})", value=table)
        return Bound("c", table.read(row, code, node), table.type)

    def e_Attr(self, node: ast.Attr, env: Env) -> Bound:
        record = self._record(node.target, env)
        if record is not None:  # (a field of a record of a constant mapping: program.KeyedTable)
            columns = record.value.columns
            if node.name not in columns:
                raise NotNative(f"{_where(node)}: no field '{node.name}' in these records")
            column, _, kind = columns[node.name]
            return Bound("c", f"{column}[{record.code}]", kind)
        card = self.code(node.target, env, "card")
        if self.game.card_data.handles(node.name):  # (a list, or an attribute the rules set: card_data.py)
            if not card.isidentifier():
                card = self._held(Bound("c", card, "card")).code
            bound: Bound = self.game.card_data.read(node.name, card, node)
            return bound
        result: Bound = self.game.card_property(node.name, card, node)
        return result

    def _record(self, node: ast.Node, env: Env) -> Bound | None:
        """A record of a constant mapping (its place among the keys, the table as its
        value), or None for anything else."""
        if isinstance(node, ast.Name) and node.name in env:
            return env[node.name] if env[node.name].kind == "record" else None
        if isinstance(node, ast.Index) and isinstance(node.target, ast.Name) and \
                node.target.name in self.game.constants and node.target.name not in env:
            table = self.game.table(node.target.name, node)
            if getattr(table, "columns", None):
                key = walks.value_code(self, node.index, self.expr(node.index, env))
                return Bound("record", table.place(key), value=table)
        return None

    def e_Call(self, node: ast.Call, env: Env) -> Bound:
        game = self.game
        name = node.name
        if name in game.counter_index and len(node.args) == 1:
            return Bound("c", game.counter_read(name, self.code(node.args[0], env), None, node), "int")
        if name in game.values and name not in env:
            return game.values.read(self, node, env)
        if name in game.functions:
            return self.expr(*game.function_body(name, node, env, self))
        method = getattr(self, "b_" + name, None)
        if method is None:
            raise NotNative(f"{_where(node)}: the built-in '{name}'")
        result: Bound = method(node, env)
        return result

    # ---- built-ins of one value ------------------------------------------------------------

    def b_select(self, node: ast.Call, env: Env) -> Bound:
        test = self.expr(node.args[0], env)
        if test.kind == "static":
            return self.expr(node.args[1] if test.value else node.args[2], env)
        self.maybe += 1
        yes, no = self.expr(node.args[1], env), self.expr(node.args[2], env)
        self.maybe -= 1
        if yes.kind == "static" and no.kind == "static" and not (static_int(yes.value) and static_int(no.value)):
            raise NotNative(f"{_where(node)}: select between words at run time")
        kind = yes.type if yes.kind == "c" and (no.kind != "c" or no.type == yes.type) else "int"
        return Bound("c", f"({self._operand(node, yes)} if {self.cond(node.args[0], env)} else "
                          f"{self._operand(node, no)})", kind)

    def b_next_player(self, node: ast.Call, env: Env) -> Bound:
        step = self.direction(node, 1)
        return Bound("c", f"pymod(g, {self.code(node.args[0], env)} + {step}, {self.game.n})", "int")

    def direction(self, node: ast.Call, i: int) -> str:
        """+1 (clockwise, the default) or -1, from the direction written as argument `i`."""
        if len(node.args) <= i:
            return "1"
        arg = node.args[i]
        if not (isinstance(arg, ast.Literal) and arg.value in ("clockwise", "counterclockwise")):
            raise NotNative(f"{_where(node)}: a direction worked out at run time")
        return "1" if arg.value == "clockwise" else "-1"

    def b_exists(self, node: ast.Call, env: Env) -> Bound:
        value = self.expr(node.args[0], env)
        if value.kind == "static":
            return Bound("static", value=value.value is not None)
        return Bound("c", f"({value.code} != -1)", "bool")

    def b_uses(self, node: ast.Call, env: Env) -> Bound:
        """How often `me` took an action this turn: counted only for an action limited
        per turn (the engine counts a use for the scopes of its limits)."""
        arg = node.args[0] if len(node.args) == 1 else None
        if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)) or "me" not in env:
            raise NotNative(f"{_where(node)}: uses() of this")
        action = next((a for a in self.game.gd.actions if a.id == arg.value), None)
        if action is None or "turn" not in {scope for scope, _ in action.limits}:
            return Bound("static", value=0)
        me = self.code(ast.Name(node.line, node.column, "me"), env)
        return Bound("c", self.game.uses_slot(action.id, "turn", me), "int")

    def b_can_use(self, node: ast.Call, env: Env) -> Bound:
        """Whether `me` may use the card's effect now (card_effects.py)."""
        arg = node.args[1] if len(node.args) == 2 else None
        if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)) or "me" not in env:
            raise NotNative(f"{_where(node)}: can_use() of this")
        number = self.game.card_effects.number(arg.value, node)
        me = self.code(ast.Name(node.line, node.column, "me"), env)
        return Bound("c", f"usable_{number}(g, {me}, {self.code(node.args[0], env, 'card')})", "bool")

    def b_has_effect(self, node: ast.Call, env: Env) -> Bound:
        """Whether the card's definition has that named effect (none: false)."""
        arg = node.args[1] if len(node.args) == 2 else None
        if not (isinstance(arg, ast.Literal) and isinstance(arg.value, str)):
            raise NotNative(f"{_where(node)}: has_effect() of this")
        cards = self.game.gd.cards
        names = sorted({e for d in cards for e in d.effects})
        table = f"HE{names.index(arg.value)}" if arg.value in names else None
        if table is None:
            return Bound("static", value=False)
        self.game.extra_tables[table] = [1 if arg.value in d.effects else 0 for d in cards]
        card = self._held(Bound("c", self.code(node.args[0], env, "card"), "card")).code
        return Bound("c", f"({card} != -1 and {table}[g.kind[checked(g, {card}, g.ncards)]] != 0)", "bool")

    def b_is_bot(self, node: ast.Call, env: Env) -> Bound:
        """Whether a game bot plays the seat (the engine: its seat is a bot's name)."""
        return Bound("c", f"(g.policy[checked(g, {self.code(node.args[0], env)}, NPLAYERS)] >= BOT_FIRST)", "int")

    def b_owner(self, node: ast.Call, env: Env) -> Bound:
        """The seat whose zone holds the card (a shared zone, or none: none)."""
        card = self.temp("card")
        self.line(f"{card} = checked(g, {self.code(node.args[0], env, 'card')}, g.ncards)")
        self.game.extra_tables["ZO"] = list(self.game.layout.zowner)
        return Bound("c", f"(ZO[g.loc[{card}]] if g.loc[{card}] >= 0 else -1)", "opt")

    def b_index_of(self, node: ast.Call, env: Env) -> Bound:
        return walks.index_of(self, node, env)

    def b_abs(self, node: ast.Call, env: Env) -> Bound:
        return Bound("c", f"llabs({self.code(node.args[0], env)})", "int")

    def b_min(self, node: ast.Call, env: Env) -> Bound:
        return self._extreme(node, env, "<")

    def b_max(self, node: ast.Call, env: Env) -> Bound:
        return self._extreme(node, env, ">")

    def _extreme(self, node: ast.Call, env: Env, better: str) -> Bound:
        if len(node.args) == 2:
            a, b = self.temp("a"), self.temp("b")
            self.line(f"{a} = {self.code(node.args[0], env)}")
            self.line(f"{b} = {self.code(node.args[1], env)}")
            # Python's min/max keep the first of equal values; for numbers that is the value.
            return Bound("c", f"({b} if {b} {better} {a} else {a})", "int")
        if len(node.args) != 1:
            raise NotNative(f"{_where(node)}: {node.name} of {len(node.args)} values")
        best, seen = self.temp(node.name), self.temp("seen")
        self.line(f"{seen} = 0")
        self.line(f"{best} = 0")

        def body(item: Bound) -> None:
            value = self._operand(node, item)
            self.line(f"if not {seen} or {value} {better} {best}: {best} = {value}")
            self.line(f"{seen} = 1")
        self.each(node.args[0], env, body)
        self.line(f"if not {seen}: g.err = 2")  # (Python: max() of an empty list is an error)
        return Bound("c", best, "int")

    def b_any(self, node: ast.Call, env: Env) -> Bound:
        return self._fold_list(node, env, "0", lambda acc, x: f"if {x}: {acc} = 1")

    def b_all(self, node: ast.Call, env: Env) -> Bound:
        return self._fold_list(node, env, "1", lambda acc, x: f"if not {x}: {acc} = 0")

    def b_count(self, node: ast.Call, env: Env) -> Bound:
        known = walks.length(self, node.args[0], env) if len(node.args) == 1 else None
        if known is not None:
            return Bound("c", known, "int")
        return self._fold_list(node, env, "0", lambda acc, x: f"{acc} += 1", kind="int", truth=False)

    b_len = b_count
    b_size = b_count

    def b_sum(self, node: ast.Call, env: Env) -> Bound:
        return self._fold_list(node, env, "0", lambda acc, x: f"{acc} += {x}", kind="int", truth=False)

    def _fold_list(self, node: ast.Call, env: Env, start: str, step: Callable[[str, str], str],
                   kind: str = "bool", truth: bool = True) -> Bound:
        if len(node.args) != 1:
            raise NotNative(f"{_where(node)}: {node.name} with {len(node.args)} arguments")
        acc = self.temp(node.name)
        self.line(f"{acc} = {start}")

        def body(item: Bound) -> None:
            if item.kind == "static":
                value = "1" if item.value else "0"
            elif item.kind == "c":
                value = f"({item.code} != -1)" if truth and item.type == "opt" else item.code
            else:
                raise NotNative(f"{_where(node)}: {node.name} of rows")
            self.line(step(acc, value))
        self.each(node.args[0], env, body)
        return Bound("c", acc, kind)

    # ---- random draws: the engine's splitmix64, in the order Python draws -------------------

    def _draw_here(self, node: ast.Call) -> None:
        if self.maybe:
            raise NotNative(f"{_where(node)}: {node.name}() where Python may not evaluate it")

    def b_random(self, node: ast.Call, env: Env) -> Bound:
        self._draw_here(node)
        low, high = self.temp("low"), self.temp("high")
        self.line(f"{low} = {self.code(node.args[0], env)}")
        self.line(f"{high} = {self.code(node.args[1], env)}")
        drawn = self.temp("drawn")
        self.line(f"{drawn} = randbelow(g, {high} - {low} + 1) + {low}")
        return Bound("c", drawn, "int")

    def b_pick_random(self, node: ast.Call, env: Env) -> Bound:
        self._draw_here(node)
        items, kind = self.collect(node.args[0], env)
        picked = self.temp("picked")
        self.line(f"{picked} = {items}[randbelow(g, {items}_n)] if {items}_n > 0 else -1")
        return Bound("c", picked, kind)

    def b_top(self, node: ast.Call, env: Env) -> Bound:
        if len(node.args) != 1:
            raise NotNative(f"{_where(node)}: top of several cards used as one")
        slot = self.game.zone_slot_or_none(node.args[0], env, self)
        if slot is None and walks.is_list(self, node.args[0], env):
            return self._list_end(node, env, top=True)
        slot = slot or self.game.zone_slot(node.args[0], env, self)
        return Bound("c", f"zone_top(g, {slot})", "card")

    def _list_end(self, node: ast.Call, env: Env, top: bool) -> Bound:
        """The last (top) or first (bottom) element of a list that is no zone; none when empty."""
        items, kind = self.collect(node.args[0], env)
        return Bound("c", f"({items}[{items}_n - 1 if {top:d} else 0] if {items}_n > 0 else -1)", kind)

    def b_bottom(self, node: ast.Call, env: Env) -> Bound:
        if len(node.args) != 1:
            raise NotNative(f"{_where(node)}: the bottom of several cards used as one")
        zone = self.game.zone_slot_or_none(node.args[0], env, self)
        if zone is None and walks.is_list(self, node.args[0], env):
            return self._list_end(node, env, top=False)
        slot = self.temp("slot")
        self.line(f"{slot} = {zone or self.game.zone_slot(node.args[0], env, self)}")
        return Bound("c", f"({zone_card(slot, '0')} if g.zn[{slot}] > 0 else -1)", "card")

    # board geometry: tables of the engine's own Board, written as C arrays
    def b_step(self, node: ast.Call, env: Env) -> Bound:
        board = self.game.board(node.args[0])
        cell = self.code(node.args[1], env)
        word = self.expr(node.args[2], env)
        if word.kind != "static" or not isinstance(word.value, str):
            raise NotNative(f"{_where(node)}: a direction known only at run time")
        return Bound("c", board.step(word.value, cell, node), "opt")

    def b_row(self, node: ast.Call, env: Env) -> Bound:
        board = self.game.board(node.args[0])
        return Bound("c", f"(checked(g, {self.code(node.args[1], env)}, {board.size}) // {board.width})", "int")

    def b_column(self, node: ast.Call, env: Env) -> Bound:
        board = self.game.board(node.args[0])
        return Bound("c", f"(checked(g, {self.code(node.args[1], env)}, {board.size}) % {board.width})", "int")

    def b_cell(self, node: ast.Call, env: Env) -> Bound:
        board = self.game.board(node.args[0])
        x, y = self.code(node.args[1], env), self.code(node.args[2], env)
        return Bound("c", f"board_cell({x}, {y}, {board.width}, {board.height})", "opt")

    # ---- walks over lists (walks.py) ------------------------------------------------------------

    def each(self, node: ast.Node, env: Env, body: Body) -> None:
        """Write a walk over the list `node` evaluates to, calling `body` with each
        element (in the order Python would make the list)."""
        walks.each(self, node, env, body)

    def collect(self, source: ast.Node, env: Env) -> tuple[str, str]:
        """The list `source` makes, copied into a scratch array: (its name, the element type)."""
        return walks.collect(self, source, env)

    def _range(self, start: str, stop: str, body: Body) -> None:
        walks.walk_range(self, start, stop, body)

    def _held(self, item: Bound) -> Bound:
        return walks.held(self, item)


def _fold(op: str, a: Any, b: Any) -> Any:
    if not (static_int(a) or isinstance(a, str)) or not (static_int(b) or isinstance(b, str)):
        return None
    if op == "==":
        return a == b
    if op == "!=":
        return a != b
    if isinstance(a, str) or isinstance(b, str):
        return None
    ops: dict[str, Callable[[int, int], Any]] = {
        "+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
        "<": lambda x, y: x < y, "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}
    fn = ops.get(op)
    return fn(a, b) if fn is not None else None


def parsed(text: Any, what: str) -> ast.Node:
    """A rule's expression text as a tree (NotNative, naming `what`, if it is not one)."""
    try:
        return parse_expression(str(text))
    except Exception:
        raise NotNative(f"{what}: not an expression") from None
