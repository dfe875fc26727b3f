"""The per-step half of a native module: a decision that stops the run instead of
picking, and `Stepper`, the Python handle on one state (native_state.py wraps it in
the State API).

A seat that is not a game bot is played from outside: where the flow waits for it the
run stops (resumable.py says how the rules' functions are written to go on from there)
and the module keeps what was asked (`g.ask`: 1 for a listing of actions, 2 on for a
choice, numbered; the seat; the number of options). `Stepper.answer(k)` takes the k-th
option and runs on to the next stop or the end.

A listing is made once per stop: the candidates stay in the module's CK/CP arrays,
tagged with the stamp of the state they were made for (`LISTED`), and a state stamped
alike (itself, or a clone made before it moved on) reads them without listing again.
Each option is named to Python by a key: a number when it fits (the action's number,
each value, and the definition of each card among them, 12 bits each: numbers from -1
to 3069 and the rules' first 1,024 words; then how many there are), else a tuple.
The module keeps, by key, what native_state.py learns of each option (its Action and
id) for every state of the game: the rules and the player count make the module.
"""

from __future__ import annotations

from interpreter.native.program import WORD_BASE
from interpreter.native.stepper import STEPPER

STEP_FIELDS = ("int64_t rolling", "int64_t resuming", "int64_t susp", "int64_t answer", "int64_t ask",
               "int64_t ask_who", "int64_t ask_group", "int64_t ask_n", "int64_t optdone", "int64_t opt[LISTCAP]",
               "int64_t dat",
               "int64_t dkind", "int64_t dp[NPARAMS]", "int64_t stamp", "int64_t simul",
               "int64_t wait[NPLAYERS]", "int64_t nwait", "int64_t answers[NPLAYERS]")

STEP_DECIDE = r'''
cdef int64_t STAMPS = 0  # the last stamp given to a stop
cdef int64_t LISTED = -1  # the stamp of the state whose listing CK/CP hold (-1: none)


cdef inline int64_t new_stamp() noexcept nogil:
    """A stamp no stop had: each stop has its own (what is worked out for a stop's
    options is kept by it, and a clone at the same stop shares it)."""
    global STAMPS
    STAMPS += 1
    return STAMPS


cdef void unlisted() noexcept nogil:
    """CK/CP were listed again: they hold no stop's listing now."""
    global LISTED
    LISTED = -1


cdef void stop_simultaneous(St* g) noexcept nogil:
    """Stop for the seats of a simultaneous step (g.wait, g.nwait): each is listed
    when asked (Stepper.seat_listing), all answer at once (Stepper.answer_all)."""
    global STAMPS
    STAMPS += 1
    g.stamp = STAMPS
    g.ask = 1
    g.simul = 1
    g.ask_n = 0
    g.susp = 1


cdef bint decide(St* g, int64_t who, int64_t group) noexcept nogil:
    """One decision of `who` in `group`, stopping the run for a seat played from
    outside (0, g.susp set); 1 when the `take actions` is over."""
    global STAMPS, LISTED
    cdef int64_t n, k, j
    cdef bint over
    if not g.resuming or g.dat == 1:
        if g.resuming:  # the answer to the listing this run stopped at
            g.resuming = 0
            k = g.answer
            if LISTED != g.stamp:
                n = list_group(g, who, group)
                LISTED = g.stamp
                if k >= n:
                    g.err = 7
                    return 1
        else:
            n = list_group(g, who, group)
            if n <= 0:
                LISTED = -1
                return 1
            if g.policy[who] >= BOT_FIRST:  # a game bot picks inside the state
                LISTED = -1
                k = bot_pick(g, who, n)
            elif g.rolling:  # a search's rollout: every seat picks at random (Stepper._rollout)
                LISTED = -1
                if g.actions >= g.max_actions:
                    g.err = 1
                    return 1
                g.actions += 1
                k = shared_pick(g, n)
            else:
                STAMPS += 1
                g.stamp = STAMPS
                LISTED = g.stamp
                g.ask = 1
                g.ask_who = who
                g.ask_group = group
                g.ask_n = n
                g.dat = 1
                g.susp = 1
                return 0
        g.dkind = CK[k]
        for j in range(NPARAMS):
            g.dp[j] = CP[k * NPARAMS + j]
        pay_action(g, who, g.dkind, g.dp)
        if g.tqn > g.tbase:  # (the payment's triggers resolve before the action's effect)
            run_queue(g)
        if g.err or g.terminal:
            return 1
    over = apply_action(g, who, g.dkind, g.dp)
    if g.susp:  # (a choice inside the action's effect)
        g.dat = 2
        return 0
    return over
'''


_STEPPER = r'''
REASONS = {reasons!r}
BOT_TURNS = {bot_turns!r}
BOTS_REFUSED = {bots_refused!r}


cdef inline int64_t _card_kind(St* g, int64_t v) noexcept nogil:
    return g.kind[v] if 0 <= v < g.ncards else -1


# The options met so far, by key, for every state of the module: a number key in an
# open-addressed table of slots (no Python object is made to look one up), a tuple key
# in a dict. A slot holds what native_state.py keeps for the option (its Action and id).
cdef uint64_t HKEY[65536]  # key + 2**63 (never 0 for a key that fits), 0: empty
cdef int64_t HSLOT[65536]
cdef int64_t SLOTID[40000]  # each slot's id (-1: none; -2 - r: recipe r), for the ids of a stop without Python
cdef list SLOTS = []
cdef dict BIG = {{}}
# An option naming a copy whose attributes tell its face has the id base + stride * face,
# the face read in the state at hand (card_faces.py): its recipe, by number.
cdef int64_t RBASE[4096]
cdef int64_t RSTRIDE[4096]
cdef int64_t RCOPY[4096]
cdef int64_t NRECIPES = 0


cdef inline int64_t _slot_id(St* g, int64_t slot) noexcept nogil:
    """The id of the option kept in `slot`, in state g (-1: none, or its face unread in C)."""
    cdef int64_t a = SLOTID[slot], face
    if a >= -1:
        return a
    face = face_of(g, RCOPY[-2 - a])
    return -1 if face < 0 else RBASE[-2 - a] + RSTRIDE[-2 - a] * face


cdef int64_t _kept_id(object found):
    """SLOTID's entry for an option kept with the id `found` (an int, a recipe tuple, or None)."""
    global NRECIPES
    if type(found) is int and 0 <= found < 2147483648:
        return found
    if type(found) is tuple and len(<tuple>found) == 3 and NRECIPES < 4096 \
            and all(type(x) is int and 0 <= x < 2147483648 for x in <tuple>found):
        RBASE[NRECIPES], RSTRIDE[NRECIPES], RCOPY[NRECIPES] = found
        NRECIPES += 1
        return -1 - NRECIPES
    return -1


cdef int64_t _slot(uint64_t stored) noexcept nogil:
    cdef uint64_t h = (stored * <uint64_t>0x9E3779B97F4A7C15ULL) >> 48
    while HKEY[h] != 0:
        if HKEY[h] == stored:
            return HSLOT[h]
        h = (h + 1) & 0xFFFF
    return -1


def options_known():
    """How many options the module's states know (their Actions and ids, learned once)."""
    return len(SLOTS) + len(BIG)


def known_options():
    """(key, what is kept) of each option known by a number key (native/option_cache.py
    keeps them for the next process)."""
    cdef Py_ssize_t h
    out = []
    for h in range(65536):
        if HKEY[h] != 0:
            out.append((<int64_t>(HKEY[h] ^ <uint64_t>0x8000000000000000ULL), SLOTS[HSLOT[h]]))
    return out


def remember(object key, object value):
    """Keep `value` for the option `key` (native_state.py, after asking the engine)."""
    cdef uint64_t h, stored
    if type(key) is not int or len(SLOTS) >= 40000:
        BIG[key] = value
        return
    stored = <uint64_t>(<int64_t>key) ^ <uint64_t>0x8000000000000000ULL
    h = (stored * <uint64_t>0x9E3779B97F4A7C15ULL) >> 48
    while HKEY[h] != 0 and HKEY[h] != stored:
        h = (h + 1) & 0xFFFF
    if HKEY[h] == 0:
        HKEY[h] = stored
        HSLOT[h] = len(SLOTS)
        SLOTS.append(value)
    else:
        SLOTS[HSLOT[h]] = value
    SLOTID[HSLOT[h]] = _kept_id(value[1])


cdef inline int64_t _code(int64_t v) noexcept nogil:
    """A value in twelve bits of a key (-1: it does not fit): the numbers from -1 to
    3069 and the first 1,024 words (an action's word parameter keeps its key a number);
    4095 is a choice's `done`, which no value is."""
    if -1 <= v < 3070:
        return v + 1
    if {word_base} <= v < {word_base} + 1024:
        return v - {word_base} + 3071
    return -1


cdef bint _entry_number(St* g, int64_t k, int64_t* out) noexcept nogil:
    """The key of candidate k of the listing in CK/CP as a number, when it fits."""
    cdef int64_t kind = CK[k], j, code, fields = 1
    cdef uint64_t key = <uint64_t>kind
    if kind < 0 or kind >= 4095:
        return 0
    for j in range(NPK[kind]):
        code = _code(CP[k * NPARAMS + j])
        if code < 0 or fields >= 5:
            return 0
        key = key * 4096 + <uint64_t>code
        fields += 1
        if CARDP[kind * NPARAMS + j]:
            code = _code(_card_kind(g, CP[k * NPARAMS + j]))
            if code < 0 or fields >= 5:
                return 0
            key = key * 4096 + <uint64_t>code
            fields += 1
    out[0] = <int64_t>(key * 8 + <uint64_t>fields)  # (the count of fields makes keys of different actions differ)
    return 1


cdef inline bint _option_value(St* g, int64_t k, int64_t* v, int64_t* c) noexcept nogil:
    """Option k of the choice the run stopped at: whether it is `done`; else its
    value and, for a card, its definition (else -1)."""
    if g.optdone and k == g.ask_n - 1:
        v[0], c[0] = 0, -1
        return 1
    v[0] = g.opt[k]
    c[0] = _card_kind(g, v[0]) if ASKCARD[g.ask] else -1
    return 0


cdef bint _option_number(St* g, int64_t k, int64_t* out) noexcept nogil:
    """The key of option k of the choice the run stopped at as a number (negative), when it fits."""
    cdef int64_t v, c, code
    cdef bint done = _option_value(g, k, &v, &c)
    code = 4095 if done else _code(v)
    c = _code(c)
    if g.ask < 0 or g.ask >= 4095 or code < 0 or c < 0:
        return 0
    out[0] = -1 - ((g.ask * 4096 + code) * 4096 + c)
    return 1


cdef object _entry_key(St* g, int64_t k):
    """The key of candidate k of the listing in CK/CP: a number, or a tuple."""
    cdef int64_t key, kind = CK[k], j, v
    if _entry_number(g, k, &key):
        return key
    out = [kind]
    for j in range(NPK[kind]):
        v = CP[k * NPARAMS + j]
        out.append(v)
        if CARDP[kind * NPARAMS + j]:
            out.append(_card_kind(g, v))
    return tuple(out)


cdef object _option_key(St* g, int64_t k):
    """The key of option k of the choice the run stopped at: a number, or a tuple."""
    cdef int64_t key, v, c
    if _option_number(g, k, &key):
        return key
    if _option_value(g, k, &v, &c):
        return ("choice", g.ask, "done")
    return ("choice", g.ask, v, c)


cdef object _kept(int64_t key):
    """What is kept for the number key `key`, or None."""
    cdef int64_t slot = _slot(<uint64_t>key ^ <uint64_t>0x8000000000000000ULL)
    if slot >= 0:
        return SLOTS[slot]
    return BIG.get(key) if BIG else None  # (the table full: kept in the dict)


cdef object _candidate_at(St* g, int64_t k):
    """What is kept for candidate k of the listing in CK/CP, or None."""
    cdef int64_t key
    if _entry_number(g, k, &key):
        return _kept(key)
    return BIG.get(_entry_key(g, k))


cdef object _option_at(St* g, int64_t k):
    """What is kept for option k of this stop (a listing's when g.ask is 1), or None."""
    cdef int64_t key
    if g.ask == 1:
        return _candidate_at(g, k)
    if _option_number(g, k, &key):
        return _kept(key)
    return BIG.get(_option_key(g, k))


'''


def step_entry(reasons: list[str], bot_turns: dict[str, int], bots_refused: dict[str, str],
               action_params: list[int], card_params: list[int], ask_cards: list[bool]) -> str:
    """The Python entry of a per-step module: tables of the actions' parameters (how
    many; which are cards, by action and place), of the choices (whether their options
    are cards), then the Stepper class."""
    tables = (f"cdef int64_t NPK[{max(len(action_params), 1)}]\n_fill(NPK, {tuple(action_params) or (0,)!r})\n"
              f"cdef int64_t CARDP[{max(len(card_params), 1)}]\n_fill(CARDP, {tuple(card_params) or (0,)!r})\n"
              f"cdef int64_t ASKCARD[{len(ask_cards) + 2}]\n"
              f"_fill(ASKCARD, {(0, 0, *[1 if c else 0 for c in ask_cards])!r})\n")
    return tables + _STEPPER.format(reasons=tuple(reasons), bot_turns=bot_turns, bots_refused=bots_refused,
                                   word_base=WORD_BASE) + STEPPER
