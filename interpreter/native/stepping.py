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
each value, and the definition of each card among them, 12 bits each, then how many
there are), else a tuple.
The module keeps, by key, what native_state.py learns of each option (its Action and
id) for every state of the game: the rules and the player count make the module.
"""

from __future__ import annotations

STEP_FIELDS = ("int64_t rolling", "int64_t resuming", "int64_t susp", "int64_t answer", "int64_t ask",
               "int64_t ask_who", "int64_t ask_group", "int64_t ask_n", "int64_t optdone", "int64_t opt[LISTCAP]",
               "int64_t dat",
               "int64_t dkind", "int64_t dp[NPARAMS]", "int64_t stamp", "int64_t simul",
               "int64_t wait[NPLAYERS]", "int64_t nwait", "int64_t answers[NPLAYERS]")

STEP_DECIDE = r'''
cdef int64_t STAMPS = 0  # the last stamp given to a stop
cdef int64_t LISTED = -1  # the stamp of the state whose listing CK/CP hold (-1: none)


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
cdef enum:
    DONE_VALUE = 4094  # (the value in the key of a choice's `done`)


cdef inline int64_t _card_kind(St* g, int64_t v) noexcept nogil:
    return g.kind[v] if 0 <= v < g.ncards else -1


# The options met so far, by key, for every state of the module: a number key in an
# open-addressed table of slots (no Python object is made to look one up), a tuple key
# in a dict. A slot holds what native_state.py keeps for the option (its Action and id).
cdef uint64_t HKEY[65536]  # key + 2**63 (never 0 for a key that fits), 0: empty
cdef int64_t HSLOT[65536]
cdef int64_t SLOTID[40000]  # each slot's id (-1: none), for the ids of a listing without Python
cdef list SLOTS = []
cdef dict BIG = {{}}


cdef int64_t _slot(uint64_t stored) noexcept nogil:
    cdef uint64_t h = (stored * <uint64_t>0x9E3779B97F4A7C15ULL) >> 48
    while HKEY[h] != 0:
        if HKEY[h] == stored:
            return HSLOT[h]
        h = (h + 1) & 0xFFFF
    return -1


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
    SLOTID[HSLOT[h]] = value[1] if type(value[1]) is int and 0 <= value[1] < 2147483648 else -1


cdef bint _entry_number(St* g, int64_t k, int64_t* out) noexcept nogil:
    """The key of candidate k of the listing in CK/CP as a number, when it fits."""
    cdef int64_t kind = CK[k], j, v, c, fields = 1
    cdef uint64_t key = <uint64_t>kind
    if kind < 0 or kind >= 4095:
        return 0
    for j in range(NPK[kind]):
        v = CP[k * NPARAMS + j]
        if v < -1 or v >= 4094 or fields >= 5:
            return 0
        key = key * 4096 + <uint64_t>(v + 1)
        fields += 1
        if CARDP[kind * NPARAMS + j]:
            c = _card_kind(g, v)
            if c >= 4094 or fields >= 5:
                return 0
            key = key * 4096 + <uint64_t>(c + 1)
            fields += 1
    out[0] = <int64_t>(key * 8 + <uint64_t>fields)  # (the count of fields makes keys of different actions differ)
    return 1


cdef inline void _option_value(St* g, int64_t k, int64_t* v, int64_t* c) noexcept nogil:
    """Option k of the choice the run stopped at: its value (DONE_VALUE for `done`)
    and, for a card, its definition (else -1)."""
    if g.optdone and k == g.ask_n - 1:
        v[0], c[0] = DONE_VALUE, -1
    else:
        v[0] = g.opt[k]
        c[0] = _card_kind(g, v[0]) if ASKCARD[g.ask] else -1


cdef bint _option_number(St* g, int64_t k, int64_t* out) noexcept nogil:
    """The key of option k of the choice the run stopped at as a number (negative), when it fits."""
    cdef int64_t v, c
    _option_value(g, k, &v, &c)
    if g.ask < 0 or g.ask >= 4095 or v < -1 or v > DONE_VALUE or c >= 4094:
        return 0
    out[0] = -1 - ((g.ask * 4096 + v + 1) * 4096 + c + 1)
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
    _option_value(g, k, &v, &c)
    return ("choice", g.ask, v, c)


cdef object _candidate_at(St* g, int64_t k):
    """What is kept for candidate k of the listing in CK/CP, or None."""
    cdef int64_t key, slot
    if _entry_number(g, k, &key):
        slot = _slot(<uint64_t>key ^ <uint64_t>0x8000000000000000ULL)
        if slot >= 0:
            return SLOTS[slot]
        return BIG.get(key) if BIG else None  # (the table full: kept in the dict)
    return BIG.get(_entry_key(g, k))


cdef object _option_at(St* g, int64_t k):
    """What is kept for option k of this stop (a listing's when g.ask is 1), or None."""
    cdef int64_t key, slot
    if g.ask == 1:
        return _candidate_at(g, k)
    if _option_number(g, k, &key):
        slot = _slot(<uint64_t>key ^ <uint64_t>0x8000000000000000ULL)
        if slot >= 0:
            return SLOTS[slot]
        return BIG.get(key) if BIG else None  # (the table full: kept in the dict)
    return BIG.get(_option_key(g, k))


cdef St* ROLL = <St*>malloc(sizeof(St))  # (a rollout's scratch copy of a state)


cdef class Stepper:
    """One game state of the module: the struct, and the State API's calls made at
    every step (the rest, and every case off the usual path, is native_state.py's
    NativeState, which the state's class also derives from)."""

    cdef St* g
    cdef public object _game, _py, _listing, _ids, _wait, _seats, seed
    cdef public list _history
    cdef public dict _picks, _seat_lists
    cdef public int64_t n, _status

    def __cinit__(self):
        self.g = <St*>malloc(sizeof(St))
        if self.g == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.g)

    cdef int _after(self):
        """After a run: 0 when it stopped for a seat, 1 when the game is over, -1 when
        the game must go to the Python path (a rule slip, a cap)."""
        cdef St* g = self.g
        if g.err or g.resuming:
            return -1
        if g.susp:
            g.susp = 0
            return 0
        if g.terminal:
            finalize(g)
            return 1
        return -1

    def _start(self, uint64_t seed, list policies, list turns, list firsts):
        """The game seeded `seed`, run to its first stop: as `_answer`."""
        cdef St* g = self.g
        cdef Py_ssize_t p
        memcpy(g, &START, sizeof(St))
        g.rng = seed
        g.max_actions = 1 << 62
        for p in range(NPLAYERS):
            g.policy[p] = policies[p]
            g.botturn[p] = turns[p]
            g.botfirst[p] = firsts[p]
        with nogil:
            run_game(g)
        return self._after()

    cpdef int64_t _answer(self, int64_t k):
        """Take option k of this stop and run to the next: 0 (a stop), 1 (the game is
        over), -1 (the Python path must take over), -2 (no such option)."""
        cdef St* g = self.g
        if g.terminal or g.err or k < 0 or k >= g.ask_n:
            return -2
        g.answer = k
        g.resuming = 1
        with nogil:
            run_game(g)
        return self._after()

    def _answer_all(self, list picks):
        """The answers of a simultaneous step's seats (an index in each one's listing,
        by seat): as `_answer`."""
        cdef St* g = self.g
        cdef Py_ssize_t p
        if g.terminal or g.err or not g.simul:
            return -2
        for p in range(NPLAYERS):
            g.answers[p] = picks[p]
        g.resuming = 1
        with nogil:
            run_game(g)
        return self._after()

    def _struct_bytes(self):
        """The size of the struct a clone copies."""
        return sizeof(St)

    def _who(self):
        return self.g.ask_who

    @property
    def rng(self):
        """The rules' generator (the engine's splitmix64 state), as the Python state's `rng`."""
        return self._py.rng if self._py is not None else self.g.rng

    @rng.setter
    def rng(self, value):
        if self._py is not None:
            self._py.rng = value
        else:
            self.g.rng = <uint64_t>value

    def _waiting(self):
        """The seats a simultaneous step waits for, in its order ([] elsewhere)."""
        return [self.g.wait[j] for j in range(self.g.nwait)] if self.g.simul else []

    def _final_returns(self):
        return [self.g.rets[p] for p in range(NPLAYERS)]

    cdef void _listed(self):
        global LISTED
        cdef St* g = self.g
        if g.ask == 1 and LISTED != g.stamp:
            list_group(g, g.ask_who, g.ask_group)
            LISTED = g.stamp

    cpdef object _cached(self):
        """What is kept for each option of this stop, in order; None when some
        option's is not (_keys() then names them all)."""
        cdef St* g = self.g
        cdef Py_ssize_t k
        cdef list out = []
        self._listed()
        for k in range(g.ask_n):
            found = _option_at(g, k)
            if found is None:
                return None
            out.append(found)
        return out

    def _keys(self):
        cdef St* g = self.g
        self._listed()
        return [_entry_key(g, k) if g.ask == 1 else _option_key(g, k) for k in range(g.ask_n)]

    def _seat_cached(self, int64_t seat):
        """`_cached` for one seat of a simultaneous step."""
        cdef St* g = self.g
        cdef Py_ssize_t k, n = list_group(g, seat, g.ask_group)
        cdef list out = []
        unlisted()
        for k in range(n):
            found = _candidate_at(g, k)
            if found is None:
                return None
            out.append(found)
        return out

    def _seat_keys(self, int64_t seat):
        cdef St* g = self.g
        cdef Py_ssize_t n = list_group(g, seat, g.ask_group)
        unlisted()
        return [_entry_key(g, k) for k in range(n)]

    def _data(self):
        """What the state holds (counters, zones, each card's definition, the rules'
        generator), to compare with the Python path's (tests)."""
        cdef St* g = self.g
        return {{"counters": [_counter(g, ci) for ci in range(NCOUNTERS)],
                "zones": [[g.zc[s][i] for i in range(g.zn[s])] for s in range(NSLOTS_USED)],
                "card_def": [g.kind[i] for i in range(g.ncards)], "rng": g.rng}}

    # ---- the usual path of the State API: one seat's decision, natively ----------------------

    cdef list _options_here(self):
        """The options of this stop when it is one seat's decision played natively (None otherwise)."""
        if self._py is not None or self._status != 0 or self._wait is not None:
            return None
        listing = self._listing
        if listing is None:
            listing = self._cached()
            if listing is None:
                listing = self._learn(self.g.ask_who)
            self._listing = listing
        return <list>listing

    def is_terminal(self):
        if self._py is not None:
            return self._py.is_terminal()
        return self._status == 1

    def current_player(self):
        if self._py is not None or self._wait is not None:
            return self._current_player()
        return -4 if self._status == 1 else self.g.ask_who

    def legal_actions(self, player=None):
        cdef list listing
        if player is None or player == self.g.ask_who:
            listing = self._options_here()
            if listing is not None:
                return [(<tuple>e)[0] for e in listing]
        if self._wait is not None:
            listing = self._seat_options(player)
            if listing is not None:
                return [(<tuple>e)[0] for e in listing]
        return self._legal_actions(player)

    # ---- a simultaneous step: each seat's options and picks, natively ------------------------

    cdef list _seat_options(self, object player):
        """The options of `player` (None: the first seat still to pick) in the
        simultaneous step this state stops at, played natively; None otherwise."""
        cdef object seat = player
        if self._py is not None or self._status != 0 or self._wait is None:
            return None
        if seat is None:
            for p in <list>self._wait:
                if p not in self._picks:
                    seat = p
                    break
            if seat is None:
                return None
        elif seat not in <list>self._wait or seat in self._picks:
            return None
        found = self._seat_lists.get(seat)
        if found is None:
            found = self._seat_cached(seat)
            if found is None:
                found = self._learn(seat)
            self._seat_lists[seat] = found
        return <list>found

    cdef void _picked(self, object seat, Py_ssize_t k, str text) except *:
        """Seat `seat` picks its option k; the last pick carries the step out."""
        self._history.append(f"P{{seat + 1}}: {{text}}")  # (simultaneous.pick_text)
        self._picks[seat] = k
        if len(self._picks) < len(<list>self._wait):
            return
        self._status = self._answer_all([self._picks.get(p, -1) for p in range(self.n)])
        if self._status < 0:
            self._hand_over()
        else:
            self._stopped()

    cdef object _first_to_pick(self, object player):
        if player is not None:
            return player
        for p in <list>self._wait:
            if p not in self._picks:
                return p
        return None

    cdef object _fresh_ids(self):
        """A new list of the ids of this stop's options when each one has its own,
        ascending (as the listing's order mostly is; self._ids says so: True); False
        otherwise (the general way is taken)."""
        cdef list listing
        cdef int64_t last = -1, a, key, slot
        cdef Py_ssize_t k
        cdef St* g = self.g
        if self._ids is False or self._py is not None or self._status != 0 or self._wait is not None:
            return False
        if self._listing is None and g.ask == 1:
            # (the listing and its ids at once, the ids read from the table, not from Python)
            self._listed()
            listing, ids = [], []
            for k in range(g.ask_n):
                slot = _slot(<uint64_t>key ^ <uint64_t>0x8000000000000000ULL) if _entry_number(g, k, &key) else -1
                if slot < 0:
                    listing = None
                    break
                found = SLOTS[slot]
                listing.append(found)
                a = SLOTID[slot]
                if ids is not False:
                    if a < 0 or a <= last:
                        ids = False
                    else:
                        last = a
                        ids.append((<tuple>found)[1])
            if listing is not None:
                self._listing, self._ids = listing, ids is not False
                return ids
        listing = self._options_here()
        ids = []
        for e in listing:
            found = (<tuple>e)[1]
            if found is None:
                ids = False
                break
            a = found
            if a <= last:  # (copies sharing an id, or not ascending)
                ids = False
                break
            last = a
            ids.append(found)
        self._ids = ids is not False
        return ids

    def legal_action_ids(self, player=None):
        cdef list listing, ids
        cdef int64_t last = -1, a
        if player is None or player == self.g.ask_who:
            fresh = self._fresh_ids()
            if fresh is not False:
                return fresh
        if self._wait is not None:
            listing = self._seat_options(player)
            if listing is not None:
                ids = []
                for e in listing:
                    found = (<tuple>e)[1]
                    if found is None:
                        return self._legal_action_ids(player)
                    a = found
                    if a <= last:
                        return self._legal_action_ids(player)
                    last = a
                    ids.append(found)
                return ids
        return self._legal_action_ids(player)

    def apply_action(self, action, player=None):
        cdef list listing
        cdef Py_ssize_t k
        if player is None or player == self.g.ask_who:
            listing = self._options_here()
            if listing is not None:
                for k in range(len(listing)):
                    if (<tuple>listing[k])[0] is action:
                        self._decided(k, action.text)
                        return
        if self._wait is not None and type(action) is not str:
            listing = self._seat_options(player)
            if listing is not None:
                for k in range(len(listing)):
                    if (<tuple>listing[k])[0] is action:
                        self._picked(self._first_to_pick(player), k, action.text)
                        return
        self._apply_action(action, player)

    def apply_action_id(self, action, player=None):
        cdef Py_ssize_t k
        cdef list listing
        if player is None and type(action) is int:
            if self._ids is None:
                self._fresh_ids()
            if self._ids is True:
                listing = <list>self._listing
                for k in range(len(listing)):  # (an id from legal_action_ids is the very object)
                    if (<tuple>listing[k])[1] is action:
                        self._decided(k, (<tuple>listing[k])[0].text)
                        return
                for k in range(len(listing)):
                    if (<tuple>listing[k])[1] == action:
                        self._decided(k, (<tuple>listing[k])[0].text)
                        return
        if self._wait is not None and type(action) is int:
            listing = self._seat_options(player)
            if listing is not None:
                for k in range(len(listing)):
                    if (<tuple>listing[k])[1] is action:
                        self._picked(self._first_to_pick(player), k, (<tuple>listing[k])[0].text)
                        return
                for k in range(len(listing)):
                    if (<tuple>listing[k])[1] == action:
                        self._picked(self._first_to_pick(player), k, (<tuple>listing[k])[0].text)
                        return
        self._apply_action_id(action, player)

    cdef void _decided(self, Py_ssize_t k, str text) except *:
        self._history.append(text)
        self._listing = self._ids = None
        self._status = self._answer(k)
        if self._status < 0:
            self._hand_over()
        elif self._status == 0 and self.g.simul:
            self._stopped()

    def returns(self):
        if self._py is None and self._status == 1:
            return [float(self.g.rets[p]) for p in range(NPLAYERS)]
        return self._returns()

    def _rollout(self, tuple state, int64_t max_actions):
        """A search's random rollout from this stop to the end, on a copy of the struct:
        each seat picks as the search's `random.Random` would (`randrange` over the legal
        actions), its generator's words and position in `state`. (returns, scores, the
        generator's state after), or None where the Python path must roll out."""
        global SHARED_MTI
        cdef St* g = ROLL
        cdef Py_ssize_t i
        if self._py is not None or self._status != 0 or self.g.simul or len(state) != 625:
            return None
        memcpy(g, self.g, sizeof(St))
        for i in range(624):
            SHARED_MT[i] = <uint32_t>state[i]
        SHARED_MTI = state[624]
        g.shared, g.rolling, g.actions, g.max_actions = 1, 1, 1, max_actions
        g.answer = shared_pick(g, g.ask_n)  # (this stop's own decision, first)
        g.resuming = 1
        with nogil:
            run_game(g)
        unlisted()
        if g.err or g.resuming or not g.terminal:
            return None
        finalize(g)
        return ([g.rets[i] for i in range(NPLAYERS)], [g.scores[i] for i in range(NPLAYERS)],
                tuple([SHARED_MT[i] for i in range(624)]) + (SHARED_MTI,))

    def clone(self):
        cdef Stepper other = type(self).__new__(type(self))
        memcpy(other.g, self.g, sizeof(St))
        other._game, other.n, other.seed, other._seats = self._game, self.n, self.seed, self._seats
        other._status, other._listing, other._ids = self._status, self._listing, self._ids
        other._wait = self._wait
        if self._wait is None:  # (empty, and only changed during a simultaneous step: shared)
            other._picks, other._seat_lists = self._picks, self._seat_lists
        else:
            other._picks, other._seat_lists = dict(self._picks), dict(self._seat_lists)
        other._history = self._history[:]
        other._py = self._py.clone() if self._py is not None else None
        return other
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
    return tables + _STEPPER.format(reasons=tuple(reasons), bot_turns=bot_turns, bots_refused=bots_refused)
