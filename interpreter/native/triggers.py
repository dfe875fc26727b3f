"""Triggers and events lowered to C, in the engine's order (runtime/events.py, loop.py).

An event (a card entering or leaving a zone, a counter changing, a pile refilled, a
turn or round starting or ending, the game starting, an `emit`) queues the effect of
every trigger listening to it whose `when` holds then, each with its locals as they
are then (the event's values, and for a card's trigger `this`, `owner` and `me` of
each copy of the card in one of its active zones). The queue resolves after the
statement that fired it, first queued first, each effect's own events after each of
its statements: what the engine's run loop does by pushing the queue as frames after
each operation. Paying an action's or a card effect's cost resolves before the effect
runs, and a refill's triggers before the pile is refilled, as in the engine.

In C the queue lives in the struct (`g.tq`, TQW numbers an entry: the trigger, `me`,
`this`, `owner`, then the event's values), `g.tbase` where the statement running
began it; `drain` after a statement runs what it queued (`run_queue`). A queue deeper
than TQCAP entries or TDEPTH nested resolutions hands the game to the Python path,
which reports a trigger chain too deep as the engine does. In a per-step module a
trigger's effect that stops for a decision does the same (g.err 8): one decision at a
time, those games are the Python path's there.
"""

from __future__ import annotations

from typing import Any

from interpreter.native.bound import Bound, Env, NotNative, zone_card
from interpreter.native.expressions import parsed

Program = Any  # (program.Program)

# Entries the queue holds: a clone copies them all, and random games queue few at once (the
# bundled games with triggers: 4 at most over 300 games at four players; docs/native.md); a
# statement that moves a whole list of cards (LISTCAP at most) to listened zones fits.
TQCAP = 64
TDEPTH = 48  # resolutions inside resolutions (C stack depth)
_BASE = ("k", "me", "this", "owner", "player", "card", "key", "old", "new")  # an entry's first fields
# The values each built-in event gives its triggers (the engine's `fire` calls).
_EVENT_NAMES = {"entered": ("card", "player"), "left": ("card", "player"), "changed": ("player", "key", "old", "new"),
                "refill": ("player",), "turn_start": ("player",), "turn_end": ("player",), "round_start": (),
                "round_end": (), "game_start": ()}


class Triggers:
    """The game's triggers, numbered, and the C that fires and resolves them."""

    def __init__(self, prog: Program):
        self.prog = prog
        gd = prog.gd
        self.pairs = list(gd.triggers)  # (event, subject), in the engine's order
        self.any = bool(self.pairs)
        self.custom = {str(name): [str(p) for p in (spec or {}).get("params") or []]
                       for name, spec in (prog.raw.get("events") or {}).items()}
        self.nargs = max([len(p) for p in self.custom.values()] + [0])
        self.width = len(_BASE) + self.nargs
        self.defs = [t for pair in self.pairs for t in gd.triggers[pair]]
        self.numbers = {id(t): k for k, t in enumerate(self.defs)}
        # The kinds of value each custom event's emits give each parameter (a number,
        # a card, a word), fixed once its triggers are written.
        self.kinds: dict[str, list[set[str]]] = {name: [set() for _ in params] for name, params in self.custom.items()}
        self.written = False

    # ---- what the rest of the lowering calls ----------------------------------------------------

    def heard(self, event: str, subject: int = -1) -> bool:
        return (event, subject) in self.prog.gd.triggers

    def fire(self, w: Any, event: str, subject: int = -1, player: str = "-1", card: str = "-1", key: str = "0",
             old: str = "0", new: str = "0") -> None:
        """The line that fires an event some trigger hears (none written otherwise)."""
        if self.heard(event, subject):
            w.line(f"fire_{self.pairs.index((event, subject))}(g, {player}, {card}, {key}, {old}, {new}, g.targs)")

    def drain(self, w: Any) -> None:
        """After a statement (or a payment): what it queued resolves now."""
        if self.any:
            w.line("if g.tqn > g.tbase: run_queue(g)")

    def resolve(self, w: Any, event: str) -> None:
        """An event fired and resolved at once (a turn's, a round's, the game's start)."""
        if self.heard(event):
            self.fire(w, event, player="g.active" if event.startswith("turn_") else "-1")
            self.drain(w)
            w.line("if g.terminal or g.err: return")

    def emitted(self, event: str, kinds: list[str], where: str) -> None:
        """An `emit` gives its values of these kinds (refused when the triggers were
        written for other kinds)."""
        seen = self.kinds[event]
        for j, kind in enumerate(kinds):
            if self.written and kind not in seen[j] and self._kind(seen[j]) != "any":
                raise NotNative(f"{where}: event '{event}' given a value of another kind than before")
            if not self.written:
                seen[j].add(kind)

    @staticmethod
    def _kind(kinds: set[str]) -> str:
        return next(iter(kinds)) if len(kinds) == 1 and "any" not in kinds else "any"

    def fields(self) -> list[str]:
        return [f"int64_t tq[{TQCAP * self.width if self.any else 1}]", "int64_t tqn", "int64_t tbase",
                "int64_t tdepth", f"int64_t targs[{max(self.nargs, 1)}]"]

    def constants(self) -> str:
        zoned = any(event in ("entered", "left") for event, _ in self.pairs)
        return f"    ZONE_EVENTS = {1 if zoned else 0}\n    REFILL_EVENTS = {1 if self.heard_refill() else 0}\n"

    def heard_refill(self) -> bool:
        return any(event == "refill" for event, _ in self.pairs)

    def tables(self) -> list[tuple[str, list[int]]]:
        lay, gd = self.prog.layout, self.prog.gd
        return [("TZD", [lay.zdef[s] for s in range(lay.slots)]), ("TZO", [lay.zowner[s] for s in range(lay.slots)]),
                ("TREFILL", [1 if self.heard("refill", lay.zdef[s]) else 0 for s in range(lay.slots)]),
                ("TENTER", [1 if self.heard("entered", z.index) else 0 for z in gd.zones] or [0]),
                ("TLEAVE", [1 if self.heard("left", z.index) else 0 for z in gd.zones] or [0])]

    def counter_key(self, ci: int, key: str) -> str:
        """A changed counter's `key` for its triggers: the key's word, or its place."""
        cdef = self.prog.counters[ci]
        if not cdef.keys:
            return key
        name = f"TKW{ci}"
        self.prog.extra_tables[name] = [self.prog.word(k) for k in cdef.keys]
        return f"{name}[{key}]"

    # ---- the functions ------------------------------------------------------------------------

    def functions(self, writer: Any, plain: Any) -> list[str]:
        """The C of the queue: each pair's fire_E, each trigger's effect trig_K, the
        dispatch, the resolution and the zone events `place_card` calls. `writer` makes
        the writer of a function that may stop (a per-step module's), `plain` one that never does."""
        self.written = True
        if not self.any:
            return ["cdef inline void run_queue(St* g) noexcept nogil:\n    pass\n",
                    "cdef inline void zone_event(St* g, int64_t entered, int64_t slot, int64_t iid) noexcept nogil:\n"
                    "    pass\n",
                    "cdef inline void refill_event(St* g, int64_t slot) noexcept nogil:\n    pass\n"]
        out = [self._fire(e, plain) for e in range(len(self.pairs))]
        out += [self._effect(t, writer) for t in self.defs]
        out.append(self._dispatch())
        out.append(self._zone_events())
        return out

    def _names(self, event: str, subject: int) -> Env:
        """The event's values as the trigger's locals (C parameters of the same names)."""
        names = _EVENT_NAMES.get(event)
        env: Env = {}
        if names is None:  # a custom event: its declared parameters, in the entry's args
            params = self.custom.get(event)
            if params is None:
                raise NotNative(f"event '{event}' is not declared")
            for j, p in enumerate(params):
                env[p] = Bound("c", f"a[{j}]", self._kind(self.kinds[event][j]))
            return env
        for name in names:
            kind = "card" if name == "card" else "int"
            if name == "key" and self.prog.counters[subject].keys:
                kind = "word"
            env[name] = Bound("c", "new_" if name == "new" else name, kind)
        return env

    def _fire(self, e: int, plain: Any) -> str:
        prog = self.prog
        event, subject = self.pairs[e]
        w = plain(prog, "me")
        for name in ("me", "this", "owner", "slot", "i", "iid"):
            w.decls[name] = "int64_t"

        def push(t: Any, this: str, owner: str) -> None:
            k = self.numbers[id(t)]
            line = f"tq_push(g, {k}, me, {this}, {owner}, player, card, key, old, new_, a)"
            if t.when is None:
                w.line(line)
                return
            spec = self._spec(t)
            env = {**self._names(event, subject), "me": Bound("c", "me", "int")}
            if t.card is not None:
                env["this"], env["owner"] = Bound("c", "this", "card"), Bound("c", "owner", "int")
            w.block(f"if {w.cond(parsed(spec['when'], t.id), env)}:", lambda: w.line(line))

        def body() -> None:
            for t in prog.gd.triggers[(event, subject)]:
                if t.card is None:
                    w.line("me = g.active")
                    push(t, "-1", "-1")
                    continue
                for zi in prog.gd.cards[t.card].active_in:  # each copy in its active zones, bottom first
                    base, count = prog.layout.zbase[zi], prog.n if prog.gd.zones[zi].scope == "player" else 1

                    def copy(t: Any = t) -> None:
                        w.line(f"iid = {zone_card('slot', 'i')}")

                        def found() -> None:
                            w.line("this = iid")
                            w.line("owner = TZO[slot]")
                            w.line("me = owner if owner >= 0 else g.active")
                            push(t, "this", "owner")
                        w.block(f"if g.kind[iid] == {t.card}:", found)
                    w.block(f"for slot in range({base}, {base + count}):",
                            lambda copy=copy: w.block("for i in range(g.zn[slot]):", copy))
        return w.function(f"cdef void fire_{e}(St* g, int64_t player, int64_t card, int64_t key, int64_t old, "
                          "int64_t new_, int64_t* a) noexcept nogil:", body)

    def _spec(self, t: Any) -> dict[str, Any]:
        return self.prog.rule_spec("triggers", t.id, t.card)  # type: ignore[no-any-return]

    def _effect(self, t: Any, writer: Any) -> str:
        """trig_K: the trigger's effect, its locals the entry's."""
        prog = self.prog
        k = self.numbers[id(t)]
        event, subject = t.event, t.subject
        w = writer(prog, "me")
        names = ["me", "this", "owner", "player", "card", "key", "old", "new_"]
        plain = {n: n for n in names}
        if prog.step:  # (a per-step module keeps a function's values in the struct: resumable.py)
            for n in names:
                field = w.field("t")
                w.once(f"{field} = {n}")
                plain[n] = field
            w.me = plain["me"]
        env = {name: Bound("c", plain.get(b.code, b.code), b.type) for name, b in self._names(event, subject).items()}
        env["me"] = Bound("c", plain["me"], "int")
        if t.card is not None:
            env["this"], env["owner"] = Bound("c", plain["this"], "card"), Bound("c", plain["owner"], "int")
        if prog.step and self.custom.get(event):
            args = []
            for j in range(len(self.custom[event])):
                field = w.field("a")
                w.once(f"{field} = a[{j}]")
                args.append(field)
            for j, p in enumerate(self.custom[event]):
                env[p] = Bound("c", args[j], self._kind(self.kinds[event][j]))

        def body() -> None:
            w.line("if busy(g): return")
            w.stmts(prog.program(self._spec(t).get("effect")), env)
        return w.function(f"cdef void trig_{k}(St* g, int64_t me, int64_t this, int64_t owner, int64_t player, "
                          "int64_t card, int64_t key, int64_t old, int64_t new_, int64_t* a) noexcept nogil:", body)

    def _dispatch(self) -> str:
        width, step = self.width, self.prog.step
        cases = "".join(f"    {'if' if k == 0 else 'elif'} e[0] == {k}:\n"
                        f"        trig_{k}(g, e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8], &e[9])\n"
                        for k in range(len(self.defs)))
        stopped = "        if g.susp:  # (a decision inside a trigger, one at a time: Python's)\n" \
                  "            g.err = 8\n" if step else ""
        return (f"cdef void tq_push(St* g, int64_t k, int64_t me, int64_t this, int64_t owner, int64_t player, "
                f"int64_t card, int64_t key, int64_t old, int64_t new_, int64_t* a) noexcept nogil:\n"
                f"    cdef int64_t* e\n    cdef int64_t j\n"
                f"    if g.tqn >= {TQCAP}:\n        g.err = 5\n        return\n"
                f"    e = &g.tq[g.tqn * {width}]\n"
                f"    e[0], e[1], e[2], e[3], e[4] = k, me, this, owner, player\n"
                f"    e[5], e[6], e[7], e[8] = card, key, old, new_\n"
                f"    for j in range({self.nargs}):\n        e[9 + j] = a[j]\n"
                f"    g.tqn += 1\n\n\n"
                f"cdef void trig_run(St* g, int64_t* e) noexcept nogil:\n{cases}\n\n"
                f"cdef void run_queue(St* g) noexcept nogil:\n"
                f"    cdef int64_t base = g.tbase, end = g.tqn, i\n"
                f"    if g.tdepth >= {TDEPTH}:\n        g.err = 5\n        return\n"
                f"    g.tdepth += 1\n    g.tbase = end\n"
                f"    for i in range(base, end):\n"
                f"        trig_run(g, &g.tq[i * {width}])\n{stopped}"
                f"        if g.terminal or g.err:\n            break\n"
                f"    g.tqn = base\n    g.tbase = base\n    g.tdepth -= 1\n")

    def _zone_events(self) -> str:
        """zone_event: `place_card`'s and `remove_card`'s events; refill_event: a pile's."""
        zone_cases, refill_cases = [], []
        for e, (event, subject) in enumerate(self.pairs):
            if event in ("entered", "left"):
                test = f"{'entered' if event == 'entered' else 'not entered'} and TZD[slot] == {subject}"
                zone_cases.append(f"    if {test}:\n        fire_{e}(g, TZO[slot], iid, 0, 0, 0, g.targs)\n")
            elif event == "refill":
                refill_cases.append(f"    if TZD[slot] == {subject}:\n"
                                    f"        fire_{e}(g, TZO[slot], -1, 0, 0, 0, g.targs)\n")
        return ("cdef void zone_event(St* g, int64_t entered, int64_t slot, int64_t iid) noexcept nogil:\n"
                + ("".join(zone_cases) or "    pass\n") + "\n\n"
                "cdef void refill_event(St* g, int64_t slot) noexcept nogil:\n"
                + ("".join(refill_cases) or "    pass\n"))
