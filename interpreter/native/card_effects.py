"""Cards' named effects (`use c "NAME"`, `can_use(c, "NAME")`) lowered to C.

As in the engine (runtime/card_powers.py): `use` does nothing for no card, for a card
whose definition has no such effect, or when the effect's condition fails or `me`
cannot pay its cost; otherwise `me` pays, then the effect runs with `this` = the card.

For each effect name the rules use, the module has `usable_N(g, me, card)` (the
question), `use_N(g, me, card)` (the statement: it asks, pays, then calls the card's
effect) and one function per card definition having that effect, `ceff_D_N`.

In a per-step module an effect may stop at a decision. `use_N` then keeps in the
struct which card's effect it called and with what, so that a resumed run goes back
into that effect without asking or paying again (an effect name the effects it calls
use again stays on the Python path there: its keeping would be overwritten).
"""

from __future__ import annotations

from typing import Any

from interpreter.lang import ast
from interpreter.native.expressions import Bound, Env, NotNative, _where, parsed


class CardEffects:
    """The effect names a game's lowering uses, numbered as they are met."""

    def __init__(self, prog: Any):
        self.prog = prog
        self.numbers: dict[str, int] = {}
        self.done: set[str] = set()

    def number(self, name: str, node: ast.Node) -> int:
        if name not in self.numbers:
            if not any(name in card.effects for card in self.prog.gd.cards):
                raise NotNative(f"{_where(node)}: no card has an effect '{name}'")
            self.numbers[name] = len(self.numbers)
        return self.numbers[name]

    def holders(self, name: str) -> list[tuple[int, Any]]:
        """(definition, its spec of the effect) of each card definition having `name`."""
        raw_cards = self.prog.raw.get("cards") or {}
        out = []
        for card in self.prog.gd.cards:
            if name in card.effects:
                spec = ((raw_cards.get(card.id) or {}).get("effects") or {}).get(name)
                if spec is None:
                    raise NotNative(f"card '{card.id}': effect '{name}' not found in the rules")
                out.append((card.index, spec if isinstance(spec, dict) else {"effect": spec}))
        return out

    def pending(self) -> list[str]:
        return [name for name in self.numbers if name not in self.done]

    def write(self, name: str, writer: Any, plain: Any) -> list[str]:
        """The C functions of effect `name`: `writer` makes the writer of a function that
        may stop (a per-step module's), `plain` one of a function that never does."""
        self.done.add(name)
        prog = self.prog
        k = self.numbers[name]
        step = prog.step
        holders = self.holders(name)
        functions = []
        for d, spec in holders:
            w = writer(prog, "me")
            env: Env = {"me": Bound("c", "me", "int"), "this": Bound("c", "this", "card")}
            def body(w: Any = w, spec: Any = spec, env: Env = env) -> None:
                w.line("if busy(g): return")  # (effects using each other for ever: the Python path's)
                w.stmts(prog.program(spec.get("effect")), env)
            functions.append(w.function(f"cdef void ceff_{d}_{k}(St* g, int64_t me, int64_t this) noexcept nogil:",
                                        body))

        # usable_N: the card has the effect, its condition holds and `me` can pay.
        q = plain(prog, "me")
        q.decls["d"] = "int64_t"
        env = {"me": Bound("c", "me", "int"), "this": Bound("c", "card", "card")}

        def ask() -> None:
            q.line("if card == -1: return 0")
            q.line("d = g.kind[checked(g, card, g.ncards)]")
            q.line("if g.err: return 0")
            for d, spec in holders:
                def allowed(spec: Any = spec) -> None:
                    costs = prog.cost_targets(spec.get("cost") or {}, f"card effect '{name}'")
                    condition = spec.get("condition")
                    if condition is None:
                        q.affordable(costs, env, q.writes("return 1"))
                    else:
                        q.block(f"if {q.cond(parsed(condition, name), env)}:",
                                lambda: q.affordable(costs, env, q.writes("return 1")))
                    q.line("return 0")
                q.block(f"if d == {d}:", allowed)
        functions.append(q.function(f"cdef bint usable_{k}(St* g, int64_t me, int64_t card) noexcept nogil:",
                                    ask, "return 0"))

        # use_N: ask, pay, run (a per-step module keeps which, and with what, across a stop).
        u = plain(prog, "me")
        u.decls["d"] = "int64_t"
        if step:
            for field in ("d", "me", "card"):
                prog.step_fields[f"use{k}_{field}"] = "int64_t"
        pay_env: Env = {"me": Bound("c", "me", "int"), "this": Bound("c", "card", "card")}

        def run() -> None:
            def start() -> None:
                if step:
                    u.line(f"g.use{k}_d = -1")
                u.line(f"if not usable_{k}(g, me, card): return")
                u.line("d = g.kind[card]")
                for d, spec in holders:
                    costs = prog.cost_targets(spec.get("cost") or {}, f"card effect '{name}'")
                    if not costs:
                        continue

                    u.block(f"if d == {d}:", lambda costs=costs: u.pay(costs, pay_env))
                if prog.triggers.any:  # (the payment's triggers resolve before the effect, as in the engine)
                    prog.triggers.drain(u)
                    u.line("if g.terminal or g.err: return")
                if step:
                    u.line(f"g.use{k}_d = d")
                    u.line(f"g.use{k}_me = me")
                    u.line(f"g.use{k}_card = card")
            if step:
                u.block("if not g.resuming:", start)
                u.line(f"d = g.use{k}_d")
                u.line(f"me = g.use{k}_me")
                u.line(f"card = g.use{k}_card")
            else:
                start()
            for i, (d, _) in enumerate(holders):
                u.block(f"{'if' if i == 0 else 'elif'} d == {d}:", lambda d=d: u.line(f"ceff_{d}_{k}(g, me, card)"))
        functions.append(u.function(f"cdef void use_{k}(St* g, int64_t me, int64_t card) noexcept nogil:", run))
        return functions

