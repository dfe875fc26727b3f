"""The `Stepper` class of a per-step native module, as Cython source: one game state
(the struct) and the State API's calls made at every step, in C (stepping.py writes
the rest of the module's per-step half; native_state.py is the State API's other half).

Its fields are the native state's own: the struct, the game and seed and seats it was
made with, the history, what the stop offers (`_listing`: each option's Action and id,
`_ids` whether those ids are plain, or the ids NativeState worked out), a simultaneous
step's seats and picks, and the Python state once it has taken over (`_py`). A call
off the usual path (a seat named when it is not theirs, a text for an Action, a state
taken over) goes to NativeState's method of the same name with an underscore.
"""

STEPPER = r'''
cdef St* ROLL = <St*>malloc(sizeof(St))  # (a rollout's scratch copy of a state)


cdef int _by_value(const void* a, const void* b) noexcept nogil:
    cdef int64_t x = (<int64_t*>a)[0], y = (<int64_t*>b)[0]
    return (x > y) - (x < y)


cdef inline void _place(int64_t* a, Py_ssize_t j, int64_t x) noexcept nogil:
    """x (an id << 16 | its option's place) put among a[0..j), ascending, by insertion:
    a few ids sorted as they are read."""
    while j > 0 and a[j - 1] > x:
        a[j] = a[j - 1]
        j -= 1
    a[j] = x


cdef inline Py_ssize_t _first_of_each(int64_t* a, Py_ssize_t n) noexcept nogil:
    """a[0..n) (id << 16 | option, ascending) kept to the first option of each id, in
    place; how many are left."""
    cdef Py_ssize_t i, m = 0
    for i in range(n):
        if i == 0 or (a[i] >> 16) != (a[m - 1] >> 16):
            a[m] = a[i]
            m += 1
    return m


cdef list _ids_listed(St* g, int64_t* sorted_, Py_ssize_t n, bint ascending):
    """The ids of g's n options (LSLOTS), ascending: in the options' order when they
    come so, else each once from `sorted_` (id << 16 | option, ascending; kept to the
    first of each here). Each is the kept object of the first option that has it
    (apply_action_id finds it by identity), or, for a copy whose face C reads, made here."""
    cdef Py_ssize_t k, i, m
    cdef list ids
    if ascending:
        ids = PyList_New(n)
        for k in range(n):
            PyList_SET_ITEM(ids, k, _slot_object(g, LSLOTS[k]))
        return ids
    m = _first_of_each(sorted_, n)
    ids = PyList_New(m)
    for i in range(m):
        PyList_SET_ITEM(ids, i, _slot_object(g, LSLOTS[sorted_[i] & 0xFFFF]))
    return ids


cdef inline object _slot_object(St* g, int64_t slot):
    """The id of the option kept in `slot` as a Python int (the kept object, or one made
    for a copy whose face C reads), with a reference more for PyList_SET_ITEM to take."""
    if SLOTID[slot] >= 0:
        found = (<tuple>SLOTS[slot])[1]
    else:
        found = _slot_id(g, slot)
    Py_INCREF(found)
    return found


cdef list _unique_ascending(list ids):
    """sorted(set(ids)) of a stop's ids (ints), in C, where copies share an id (a stop
    of more than 64 options: `_ids_listed` sorts the rest as they come). Each id kept is
    the very object of the first option that has it, so that apply_action_id finds that
    option by identity."""
    cdef Py_ssize_t n = len(ids), i, m
    cdef int64_t few[64]
    cdef int64_t* a
    if n >= 65536:
        return sorted(set(ids))
    a = &few[0] if n <= 64 else <int64_t*>malloc(sizeof(int64_t) * n)
    if a == NULL:
        raise MemoryError()
    try:
        if n <= 64:
            for i in range(n):
                _place(a, i, ((<int64_t>ids[i]) << 16) | i)
        else:
            for i in range(n):
                a[i] = ((<int64_t>ids[i]) << 16) | i
            qsort(a, n, sizeof(int64_t), _by_value)
        m = _first_of_each(a, n)
        return [ids[a[i] & 0xFFFF] for i in range(m)]
    finally:
        if a != &few[0]:
            free(a)


cdef int32_t LSLOTS[MAXC]  # the slot of each option of the stop stamped LSTAMP (stepping.py's table)
cdef int64_t LSTAMP = -1  # (-1: none)


cdef bint _slots_here(St* g):
    """LSLOTS: the slot of each option of g's stop (a listing's, listed; or a choice's).
    False when some option has none (not known yet, or its key is no number)."""
    global LSTAMP
    cdef Py_ssize_t k
    cdef int64_t key, slot
    if LSTAMP == g.stamp:
        return True
    LSTAMP = -1
    for k in range(g.ask_n):
        if not (_entry_number(g, k, &key) if g.ask == 1 else _option_number(g, k, &key)):
            return False
        slot = _slot(<uint64_t>key ^ <uint64_t>0x8000000000000000ULL)
        if slot < 0:
            return False
        LSLOTS[k] = <int32_t>slot
    LSTAMP = g.stamp
    return True


cdef class Stepper:
    """One game state of the module: the struct, and the State API's calls made at
    every step (the rest, and every case off the usual path, is native_state.py's
    NativeState, which the state's class also derives from)."""

    cdef St* g
    cdef public object _game, _py, _listing, _ids, _wait, _seats, seed, _base, _oracle
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
        g.work = g.quiet = 0  # (a decision: see busy)
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
        g.work = g.quiet = 0  # (a decision: see busy)
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
        generator, the attributes set on cards), to compare with the Python path's (tests),
        and why the last run handed the game over, if it did (`err`: support.py's codes)."""
        cdef St* g = self.g
        return {"counters": [_counter(g, ci) for ci in range(NCOUNTERS)],
                "zones": [[g.zc[g.zs[s] + i] for i in range(g.zn[s])] for s in range(NSLOTS_USED)],
                "card_def": [g.kind[i] for i in range(g.ncards)], "rng": g.rng, "attrs": _attrs(g), "err": g.err}

    def _card_kind(self, int64_t c):
        """Copy c's definition (an IndexError for no such copy, as the engine's list)."""
        if c < 0 or c >= self.g.ncards:
            raise IndexError(c)
        return self.g.kind[c]

    def _card_attr(self, int64_t c, object name):
        """Copy c's attribute `name` as the engine keeps it (None: not set)."""
        return _attr_of(self.g, c, name)

    def _face_of(self, int64_t c):
        """Copy c's face, read in C (-1: the module cannot tell it yet: card_faces.py)."""
        return face_of(self.g, c)

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
        self._history.append(f"P{seat + 1}: {text}")  # (simultaneous.pick_text)
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
        """A new list of the ids of this stop's options, ascending, each once (copies of
        a card may share one), when every option has one (an id applies the first option
        that has it, as the general way does); False otherwise (the general way is
        taken). self._ids says how: True, the options' kept ids, or ids of copies whose
        faces C reads (and with no listing made, LSLOTS holds the options' slots); a
        list, each option's id worked out here (a card whose attributes tell its face
        and no LSLOTS: `_face_id`)."""
        cdef list listing, ids
        cdef int64_t last = -1, a
        cdef int64_t few[64]
        cdef bint ascending = True, worked = False
        cdef Py_ssize_t k, n
        cdef St* g = self.g
        if (self._ids is not None and self._ids is not True) or self._py is not None or self._status != 0 \
                or self._wait is not None:  # (False, or a list of ids worked out)
            return False
        if self._listing is None:
            # (the ids read from the table, in C: the options' listing is not made, LSLOTS
            # holds their slots for apply_action_id)
            self._listed()
            if _slots_here(g):
                n = g.ask_n
                for k in range(n):
                    a = _slot_id(g, LSLOTS[k])
                    if a < 0:
                        break
                    if a <= last:
                        ascending = False
                    last = a
                    if n <= 64:
                        _place(few, k, (a << 16) | k)
                else:  # (every option has an id: the list made at its size, each the kept object)
                    self._ids = True
                    if ascending or n <= 64:
                        return _ids_listed(g, few, n, ascending)
                    return _unique_ascending(_ids_listed(g, few, n, True))
                last, ascending = -1, True
        listing = self._options_here()
        ids = []
        for e in listing:
            found = (<tuple>e)[1]
            if type(found) is not int:
                if type(found) is not tuple:
                    self._ids = False
                    return False
                found = self._face_id(found)
                worked = True
            a = found
            if a <= last:  # (copies sharing an id, or not ascending)
                ascending = False
            last = a
            ids.append(found)
        self._ids = ids if worked else True
        return ids if ascending else _unique_ascending(ids)

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
                    if type(found) is not int:
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
        cdef int64_t a
        cdef int overflow = 0
        cdef list listing, worked
        if player is None and type(action) is int and self._py is None:  # (handed over: the Python state's)
            if self._ids is None:
                self._fresh_ids()
            if self._ids is True and self._listing is None:
                self._listed()
                a = PyLong_AsLongLongAndOverflow(action, &overflow)
                if not overflow and _slots_here(self.g):  # (the options' slots: no listing made)
                    for k in range(self.g.ask_n):
                        if _slot_id(self.g, LSLOTS[k]) == a:
                            self._decided(k, (<tuple>SLOTS[LSLOTS[k]])[0].text)
                            return
                    self._apply_action_id(action, player)  # (no such option: the Python state says so)
                    return
            if self._ids is True:
                listing = <list>self._options_here()
                for k in range(len(listing)):  # (an id from legal_action_ids is the very object)
                    if (<tuple>listing[k])[1] is action:
                        self._decided(k, (<tuple>listing[k])[0].text)
                        return
                for k in range(len(listing)):
                    if (<tuple>listing[k])[1] == action:
                        self._decided(k, (<tuple>listing[k])[0].text)
                        return
            elif type(self._ids) is list and self._wait is None and self._py is None:
                listing, worked = <list>self._listing, <list>self._ids
                for k in range(len(worked)):
                    if worked[k] == action:
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

    def _rollout(self, tuple state, int64_t max_actions, tuple policies=None):
        """A search's rollout from this stop to the end, on a copy of the struct: this
        stop's seat picks as the search's `random.Random` would (`randrange` over the
        legal actions), its generator's words and position in `state`; so does every
        later seat, or with `policies` (each seat's policy, bot turn and first-pick flag,
        as `_start` takes them) the game bot the rollout seats everywhere, as the Python
        rollout seats it. (returns, scores, the generator's state after), or None where
        the Python path must roll out."""
        global SHARED_MTI
        cdef St* g = ROLL
        cdef Py_ssize_t i
        if self._py is not None or self._status != 0 or self.g.simul or len(state) != 625:
            return None
        memcpy(g, self.g, sizeof(St))
        if policies is not None:
            for i in range(NPLAYERS):
                g.policy[i] = (<list>policies[0])[i]
                g.botturn[i] = (<list>policies[1])[i]
                g.botfirst[i] = (<list>policies[2])[i]
        for i in range(624):
            SHARED_MT[i] = <uint32_t>state[i]
        SHARED_MTI = state[624]
        g.shared, g.rolling, g.actions, g.max_actions = 1, 1, 1, max_actions
        g.answer = shared_pick(g, g.ask_n)  # (this stop's own decision, first)
        g.resuming = 1
        g.work = g.quiet = 0  # (a decision: see busy)
        with nogil:
            run_game(g)
        unlisted()
        if g.err or g.resuming or not g.terminal:
            return None
        finalize(g)
        return ([g.rets[i] for i in range(NPLAYERS)], [g.scores[i] for i in range(NPLAYERS)],
                tuple([SHARED_MT[i] for i in range(624)]) + (SHARED_MTI,))

    def _take_world(self, list counters, list zones, list loc, list kinds, uint64_t rng, dict attrs):
        """This state's place in the flow with another world's data, sampled at the same
        decision (counters, zones, where each card is and its definition, the rules'
        generator, the attributes set on cards): False, nothing changed, when the struct
        cannot hold it."""
        global STAMPS
        cdef St* g = self.g
        if self._py is not None or self._status != 0 or not fill_switch(counters, zones, loc, kinds, rng, attrs):
            return False
        switch_data(g)
        STAMPS += 1  # (another world's data: its own listing)
        g.stamp = STAMPS
        self._listing = self._ids = None
        return True

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
        other._base, other._oracle = self._base, self._oracle
        other._py = self._py.clone() if self._py is not None else None
        return other
'''
