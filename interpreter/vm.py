"""The run loop and the state primitives every operation uses.

A running game is a stack of frames `[code index, pc, locals]` inside the state; the
loop runs one operation at a time until an operation asks for a decision (it returns
True) or the stack is empty (the flow is over). Because frames are plain lists and
dicts, a state waiting mid-effect can be cloned, saved and resumed exactly.

Triggered effects are queued by `fire` while an operation runs and pushed as frames
right after it, so they resolve before the next statement. A step budget per
resolution and a cap on frame depth turn runaway rules into rule errors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .diagnostics import RuleRuntimeError

if TYPE_CHECKING:
    from .state import State

STEP_BUDGET = 200_000  # operations per resolution (between two decisions)
MAX_QUIET_TURNS = 20_000  # turns in a row without a decision (all-bot games)
MAX_DEPTH = 200  # nested frames: effects calling effects, trigger chains
_MASK = (1 << 64) - 1

# ---- random numbers: splitmix64, its whole state one integer inside the game state ----


def next_u64(st: State) -> int:
    x = (st.rng + 0x9E3779B97F4A7C15) & _MASK
    st.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def randbelow(st: State, n: int) -> int:
    """A number in [0, n); n >= 1."""
    return next_u64(st) % n


def shuffle_in_place(st: State, items: list[Any]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = next_u64(st) % (i + 1)
        items[i], items[j] = items[j], items[i]


# ---- events --------------------------------------------------------------------------


def fire(st: State, event: str, subject: int, env: dict[str, Any]) -> None:
    """Queue the effects of every trigger listening to (event, subject)."""
    triggers = st.gd.triggers.get((event, subject))
    if not triggers:
        return
    for trig in triggers:
        if trig.card is None:
            local = dict(env)
            local.setdefault("me", st.active)
            if trig.when is None or trig.when(st, local):
                st.queue.append([trig.code, 0, local])
            continue
        # A card's trigger listens while a copy of the card is in one of its zones.
        card = st.gd.cards[trig.card]
        layout = st.layout
        for zi in card.active_in:
            base = layout.zbase[zi]
            count = st.n if st.gd.zones[zi].scope == "player" else 1
            for slot in range(base, base + count):
                for iid in st.zones[slot]:
                    if st.card_def[iid] != trig.card:
                        continue
                    local = dict(env)
                    owner = layout.zowner[slot]
                    local["this"] = iid
                    local["owner"] = owner
                    local.setdefault("me", owner if owner >= 0 else st.active)
                    if trig.when is None or trig.when(st, local):
                        st.queue.append([trig.code, 0, local])


# ---- cards and zones -------------------------------------------------------------------


def place_card(st: State, iid: int, slot: int, top: bool = True) -> None:
    """Move one card into a zone slot (top = end of the list)."""
    old = st.loc[iid]
    if old >= 0:
        st.zones[old].remove(iid)
    if top:
        st.zones[slot].append(iid)
    else:
        st.zones[slot].insert(0, iid)
    st.loc[iid] = slot
    if st.revealed and iid in st.revealed:
        st.revealed.discard(iid)
    listens = st.gd_listens
    if listens:
        layout = st.layout
        if old >= 0 and ("left", layout.zdef[old]) in listens:
            fire(st, "left", layout.zdef[old], {"card": iid, "player": layout.zowner[old]})
        if ("entered", layout.zdef[slot]) in listens:
            fire(st, "entered", layout.zdef[slot], {"card": iid, "player": layout.zowner[slot]})


def remove_card(st: State, iid: int) -> None:
    """Take a card out of the game."""
    old = st.loc[iid]
    if old < 0:
        return
    st.zones[old].remove(iid)
    st.loc[iid] = -1
    st.revealed.discard(iid)
    if st.gd_listens and ("left", st.layout.zdef[old]) in st.gd_listens:
        fire(st, "left", st.layout.zdef[old], {"card": iid, "player": st.layout.zowner[old]})


MAX_CREATE = 10_000  # copies made by one statement (one operation: outside the step budget)


def create_cards(st: State, def_index: int, count: int, slot: int) -> None:
    if count > MAX_CREATE:
        raise RuleRuntimeError(f"cannot create {count} cards at once (at most {MAX_CREATE})")
    for _ in range(count):
        iid = len(st.card_def)
        st.card_def.append(def_index)
        st.loc.append(-1)
        place_card(st, iid, slot)


def as_cards(value: Any) -> list[int]:
    """A card, a list of cards or none, as a list (a fresh one: zones change under us)."""
    if value is None:
        return []
    if isinstance(value, list):
        return [v for v in value if v is not None]
    return [value]


# ---- counters and values ---------------------------------------------------------------


def _whole(cdef: Any, value: Any) -> int:
    """Counters hold whole numbers (true/false count as 1/0): anything else would make
    the state unsavable, so it is a rule error here, where it happens."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return int(value)
    raise RuleRuntimeError(f"counter {cdef.name} holds whole numbers, not {value!r}")


def change_counter(st: State, ci: int, slot: int, delta: int, verb: str) -> None:
    cdef = st.gd.counters[ci]
    delta = _whole(cdef, delta)
    values = st.counters[ci]
    old = values[slot]
    new = old + delta
    if verb == "pay" and new < (cdef.min if cdef.min is not None else 0):
        raise RuleRuntimeError(f"cannot pay {-delta} {cdef.name}: only {old} available")
    if cdef.min is not None and new < cdef.min:
        new = cdef.min
    if cdef.max is not None and new > cdef.max:
        new = cdef.max
    if new == old:
        return
    values[slot] = new
    if st.gd_listens and ("changed", ci) in st.gd_listens:
        player, key = divmod(slot, cdef.width) if cdef.scope == "player" else (-1, slot)
        fire(st, "changed", ci, {"player": player, "key": _key_name(cdef, key), "old": old, "new": new})


def set_counter(st: State, ci: int, slot: int, value: int) -> None:
    cdef = st.gd.counters[ci]
    value = _whole(cdef, value)
    if cdef.min is not None and value < cdef.min:
        value = cdef.min
    if cdef.max is not None and value > cdef.max:
        value = cdef.max
    old = st.counters[ci][slot]
    if old == value:
        return
    st.counters[ci][slot] = value
    if st.gd_listens and ("changed", ci) in st.gd_listens:
        player, key = divmod(slot, cdef.width) if cdef.scope == "player" else (-1, slot)
        fire(st, "changed", ci, {"player": player, "key": _key_name(cdef, key), "old": old, "new": value})


def _key_name(cdef: Any, key: int) -> Any:
    return cdef.keys[key] if cdef.keys else key


def value_of(st: State, vi: int, player: int) -> Any:
    """A declared value for a player, after every modifier that applies now."""
    vdef = st.gd.values[vi]
    env: dict[str, Any] = {"p": player, "me": player}
    result = vdef.base(st, env)
    for mod in vdef.modifiers:
        if mod.card is not None:
            owners = _card_owners(st, mod.card)
            if player not in owners:
                continue
            env["this"] = owners[player]
        if mod.granted and not any(g[0] == mod.index and g[1] == player for g in st.grants):
            continue
        if mod.when is not None and not mod.when(st, env):
            continue
        amount = mod.amount(st, env)
        if mod.op == "add":
            result = result + amount
        elif mod.op == "set":
            result = amount
        elif mod.op == "max":
            result = max(result, amount)
        else:
            result = min(result, amount)
    return result


def _card_owners(st: State, def_index: int) -> dict[int, int]:
    """Players who hold a copy of the card in one of its active zones -> that copy."""
    card = st.gd.cards[def_index]
    layout = st.layout
    owners: dict[int, int] = {}
    for zi in card.active_in:
        base = layout.zbase[zi]
        count = st.n if st.gd.zones[zi].scope == "player" else 1
        for slot in range(base, base + count):
            for iid in st.zones[slot]:
                if st.card_def[iid] == def_index:
                    owners.setdefault(layout.zowner[slot], iid)
    return owners


# ---- ending ----------------------------------------------------------------------------


def check_end(st: State, check: str, me: int | None = None) -> bool:
    """Evaluate the end conditions of this check point; True when the game is over.
    `me` is the player who just acted (default: the active player)."""
    ends = st.game.ends_by_check.get(check)
    if not ends:  # most check points have no condition: nothing to evaluate
        return False
    for end in ends:
        env = {"me": st.active if me is None else me}
        try:
            if not end.when(st, env):
                continue
            winners = end.winners(st, env) if end.then == "end" and end.winners is not None else None
        except RULE_SLIPS as err:
            raise rule_error(f"end condition '{end.id}'", err) from None
        if end.then == "end":
            finish(st, winners, end.id)
            return True
        if st.ending is None or (st.ending == "round" and end.then == "finish_turn"):
            st.ending = "turn" if end.then == "finish_turn" else "round"
            st.ending_reason = end.id
    return False


def finish(st: State, winners: Any, reason: str) -> None:
    """The game is over: record the winners (scoring decides when not given)."""
    if winners is None:
        winners = score_winners(st)
    elif not isinstance(winners, list):
        winners = [winners]
    st.winners = sorted({int(w) for w in winners if w is not None})
    st.terminal = True
    st.end_reason = reason
    st.stack.clear()
    st.queue.clear()
    st.pending = None


def score_winners(st: State) -> list[int]:
    """The winners by `scoring:` (eligible, score, tie-breaks; ties share the win)."""
    try:
        return _score_winners(st)
    except RULE_SLIPS as err:  # also reached when the flow ends, outside any operation
        raise rule_error("scoring", err) from None


def _score_winners(st: State) -> list[int]:
    scoring = st.gd.scoring
    players = range(st.n)
    if scoring.eligible is not None:
        players = [p for p in players if scoring.eligible(st, {"p": p, "me": p})]  # type: ignore[assignment]
    if not players:
        return []
    if scoring.score is None and not scoring.tie_breaks:
        return list(players)

    def key(p: int) -> tuple[Any, ...]:
        env = {"p": p, "me": p}
        head = (scoring.score(st, env),) if scoring.score is not None else ()
        return head + tuple(tb(st, env) for tb in scoring.tie_breaks)

    keys = {p: key(p) for p in players}
    best = max(keys.values())
    return [p for p in players if keys[p] == best]


# ---- the run loop ----------------------------------------------------------------------


def run(st: State) -> None:
    """Run until a decision is needed or the game is over."""
    stack = st.stack
    codes = st.gd.codes
    budget = STEP_BUDGET
    # Games whose seats are all bots make no decision at all: a new turn is progress, so
    # it refills the budget; only a run of MAX_QUIET_TURNS turns with no decision is
    # taken for a game that never ends.
    first_turn = refilled_at = st.turn_no
    while stack:
        fr = stack[-1]
        code = codes[fr[0]]
        ops = code.ops
        count = len(ops)
        depth = len(stack)
        # Run this frame's operations until it ends or another frame goes on top.
        while True:
            pc = fr[1]
            if pc >= count:
                stack.pop()
                # An action is over (its triggers too): `check: action` ends are checked
                # now, while `me` is still the player who acted (not at the next
                # decision, which may be another player's turn).
                if code.kind == "action" and check_end(st, "action", fr[2].get("me")):
                    return
                break
            fr[1] = pc + 1
            try:
                if ops[pc](st, fr):
                    return
            except RULE_SLIPS as err:
                raise rule_error(code.wheres[pc], err) from None
            if st.terminal:
                return
            budget -= 1
            if not budget:
                if st.turn_no == refilled_at or st.turn_no - first_turn > MAX_QUIET_TURNS:
                    what = (f"more than {STEP_BUDGET} steps without a decision or a new turn (an endless loop?)"
                            if st.turn_no == refilled_at
                            else f"more than {MAX_QUIET_TURNS} turns without a decision (a game that never ends?)")
                    raise RuleRuntimeError(f"{code.wheres[pc]}: {what}")
                budget, refilled_at = STEP_BUDGET, st.turn_no
            if st.queue:
                queued = st.queue
                st.queue = []
                stack.extend(reversed(queued))
                if len(stack) > MAX_DEPTH:
                    raise RuleRuntimeError(f"{code.wheres[pc]}: trigger chain deeper than {MAX_DEPTH} effects "
                                           "(a trigger that fires itself?)")
                break
            if len(stack) != depth:
                if len(stack) > MAX_DEPTH:  # calls (procedures, `use`) nest frames too
                    raise RuleRuntimeError(f"{code.wheres[pc]}: effects nested deeper than {MAX_DEPTH} "
                                           "(a procedure that calls itself?)")
                break
    if not st.terminal:
        finish(st, None, "flow-ended")


# Python errors that evaluating rules can meet (a bad index, a none, a division by zero):
# they are the rule's author's to fix, so they are worded and placed, never a traceback.
RULE_SLIPS = (RuleRuntimeError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError)


def rule_error(where: object, err: Exception) -> RuleRuntimeError:
    """`err` (one of RULE_SLIPS) as a rule error prefixed with where it happened."""
    return RuleRuntimeError(f"{where}: {err if isinstance(err, RuleRuntimeError) else plain_error(err)}")


def plain_error(err: Exception) -> str:
    """A Python error met while running rules, in words for the rule's author."""
    if isinstance(err, ZeroDivisionError):
        return "division by zero"
    if isinstance(err, IndexError):
        return "index out of range"
    if isinstance(err, KeyError):
        return f"no entry {err}"
    if isinstance(err, TypeError) and "NoneType" in str(err):
        return ("a value is none here (the top card of an empty zone, a choice with no options, "
                f"the min or max of an empty list?) ({err})")
    return f"{type(err).__name__}: {err}"
