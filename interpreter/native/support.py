"""The fixed half of every native module: the engine's primitives written once in
Cython over the flat state `St` (whose fields the game's lowering declares).

Each is the engine's own, step for step: `checked` stands for the engine's refusal of
an index out of range (here it marks the game for the Python path), `next_u64` and
`shuffle_zone` are runtime/rng.py's splitmix64 and Fisher-Yates, `place_card` and
`draw` are runtime/cards.py's and compile/draws.py's (the top of a zone is the end of
its list), `finish` is runtime/ending.py's (one winner as given, several sorted without
repeats), and `mt_seed`/`mt_next`/`pick` are CPython's `random.Random(seed)` and its
`randrange(n)` (Mersenne Twister seeded by `init_by_array` over the seed's 32-bit
words; `getrandbits(k)` with rejection), so the `random` seat picks the same action.
"""

SUPPORT = r'''
cdef inline int64_t checked(St* g, int64_t i, int64_t size) noexcept nogil:
    if i < 0 or i >= size:
        g.err = 2
        return 0
    return i


cdef inline int64_t pymod(St* g, int64_t a, int64_t b) noexcept nogil:
    cdef int64_t r
    if b == 0:
        g.err = 2
        return 0
    r = a % b
    if r != 0 and ((r < 0) != (b < 0)):
        r += b
    return r


cdef inline int64_t pyfloordiv(St* g, int64_t a, int64_t b) noexcept nogil:
    cdef int64_t q
    if b == 0:
        g.err = 2
        return 0
    q = a // b
    if (a % b != 0) and ((a < 0) != (b < 0)):
        q -= 1
    return q


cdef inline int64_t board_cell(int64_t x, int64_t y, int64_t w, int64_t h) noexcept nogil:
    if 0 <= x < w and 0 <= y < h:
        return y * w + x
    return -1


cdef inline uint64_t next_u64(St* g) noexcept nogil:
    cdef uint64_t x = g.rng + <uint64_t>0x9E3779B97F4A7C15ULL
    g.rng = x
    x = (x ^ (x >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef inline int64_t randbelow(St* g, int64_t n) noexcept nogil:
    if n <= 0:  # (Python: a rule slip; the Python path reports it)
        g.err = 2
        return 0
    return <int64_t>(next_u64(g) % <uint64_t>n)


cdef void shuffle_zone(St* g, int64_t slot) noexcept nogil:
    cdef int64_t i, j, t
    cdef int64_t* items = g.zc[slot]
    i = g.zn[slot] - 1
    while i > 0:
        j = <int64_t>(next_u64(g) % <uint64_t>(i + 1))
        t = items[i]
        items[i] = items[j]
        items[j] = t
        i -= 1


cdef inline int64_t zone_top(St* g, int64_t slot) noexcept nogil:
    if g.zn[slot] > 0:
        return g.zc[slot][g.zn[slot] - 1]
    return -1


cdef void place_card(St* g, int64_t iid, int64_t slot, int top) noexcept nogil:
    cdef int64_t old, i, k, n
    if iid < 0 or iid >= g.ncards:
        g.err = 2
        return
    old = g.loc[iid]
    if old >= 0:
        n = g.zn[old]
        k = 0
        while k < n and g.zc[old][k] != iid:
            k += 1
        for i in range(k, n - 1):
            g.zc[old][i] = g.zc[old][i + 1]
        g.zn[old] = n - 1
    if top:
        g.zc[slot][g.zn[slot]] = iid
    else:
        i = g.zn[slot]
        while i > 0:
            g.zc[slot][i] = g.zc[slot][i - 1]
            i -= 1
        g.zc[slot][0] = iid
    g.zn[slot] += 1
    g.loc[iid] = slot


cdef void create_cards(St* g, int64_t definition, int64_t count, int64_t slot) noexcept nogil:
    cdef int64_t iid
    if count < 0:
        g.err = 2
        return
    while count > 0:
        if g.ncards >= NCARDS:
            g.err = 6
            return
        iid = g.ncards
        g.ncards += 1
        g.kind[iid] = definition
        g.loc[iid] = -1
        place_card(g, iid, slot, 1)
        count -= 1


cdef void draw(St* g, int64_t count, int64_t source, int64_t dest) noexcept nogil:
    if count < 0:
        g.err = 2
        return
    while count > 0 and g.zn[source] > 0:
        place_card(g, g.zc[source][g.zn[source] - 1], dest, 1)
        count -= 1


cdef inline void add_winner(St* g, int64_t w) noexcept nogil:
    cdef int64_t i
    if w == -1:
        return
    if w < 0 or w >= NPLAYERS:
        g.err = 2
        return
    for i in range(g.nwin):
        if g.winners[i] == w:
            return
    g.winners[g.nwin] = w
    g.nwin += 1


cdef void finish(St* g, int64_t reason) noexcept nogil:
    cdef int64_t i, j, t
    for i in range(1, g.nwin):
        j = i
        while j > 0 and g.winners[j - 1] > g.winners[j]:
            t = g.winners[j]
            g.winners[j] = g.winners[j - 1]
            g.winners[j - 1] = t
            j -= 1
    g.terminal = 1
    g.reason = reason


cdef uint32_t MT_BASE[624]  # init_genrand(19650218): where every init_by_array starts
MT_BASE[0] = <uint32_t>19650218U
for _i in range(1, 624):
    MT_BASE[_i] = <uint32_t>(<uint32_t>1812433253U * (MT_BASE[_i - 1] ^ (MT_BASE[_i - 1] >> 30)) + <uint32_t>_i)


cdef void mt_seed(St* g, int64_t p, uint64_t seed) noexcept nogil:
    cdef uint32_t* mt = g.mt[p]
    cdef uint32_t key[2]
    cdef int64_t klen, i, j, k
    key[0] = <uint32_t>(seed & <uint64_t>0xFFFFFFFFU)
    key[1] = <uint32_t>(seed >> 32)
    klen = 2 if key[1] != 0 else 1
    memcpy(mt, MT_BASE, sizeof(MT_BASE))
    i = 1
    j = 0
    k = 624 if 624 > klen else klen
    while k > 0:
        mt[i] = <uint32_t>((mt[i] ^ <uint32_t>((mt[i - 1] ^ (mt[i - 1] >> 30)) * <uint32_t>1664525U))
                           + key[j] + <uint32_t>j)
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= klen:
            j = 0
        k -= 1
    k = 623
    while k > 0:
        mt[i] = <uint32_t>((mt[i] ^ <uint32_t>((mt[i - 1] ^ (mt[i - 1] >> 30)) * <uint32_t>1566083941U))
                           - <uint32_t>i)
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        k -= 1
    mt[0] = <uint32_t>0x80000000U
    g.mti[p] = 624


cdef uint32_t mt_next(St* g, int64_t p) noexcept nogil:
    """The next output. The table's next generation is made one word at a time, as each
    output needs it: word i of the new generation reads only new words before it and
    old words after it, so making them in order, lazily, is the standard twist (a short
    game draws a few numbers and never pays for all 624)."""
    cdef uint32_t* mt = g.mt[p]
    cdef uint32_t y
    cdef int64_t kk = g.mti[p]
    if kk >= 624:
        kk = 0
    y = (mt[kk] & <uint32_t>0x80000000U) | (mt[(kk + 1) % 624] & <uint32_t>0x7fffffffU)
    mt[kk] = mt[(kk + 397) % 624] ^ (y >> 1) ^ (<uint32_t>0x9908b0dfU if (y & 1) else <uint32_t>0)
    y = mt[kk]
    g.mti[p] = kk + 1
    y ^= (y >> 11)
    y ^= (y << 7) & <uint32_t>0x9d2c5680U
    y ^= (y << 15) & <uint32_t>0xefc60000U
    y ^= (y >> 18)
    return y


cdef uint32_t mt_full(St* g) noexcept nogil:
    """CPython's genrand_uint32 itself on seat 0's table (a whole twist at a time): the
    generator of a search's rollouts, whose state comes from and goes back to a Python
    `random.Random` (getstate/setstate), so it must be kept as CPython keeps it."""
    cdef uint32_t* mt = g.mt[0]
    cdef uint32_t y
    cdef int64_t kk
    if g.mti[0] >= 624:
        for kk in range(227):
            y = (mt[kk] & <uint32_t>0x80000000U) | (mt[kk + 1] & <uint32_t>0x7fffffffU)
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ (<uint32_t>0x9908b0dfU if (y & 1) else <uint32_t>0)
        for kk in range(227, 623):
            y = (mt[kk] & <uint32_t>0x80000000U) | (mt[kk + 1] & <uint32_t>0x7fffffffU)
            mt[kk] = mt[kk - 227] ^ (y >> 1) ^ (<uint32_t>0x9908b0dfU if (y & 1) else <uint32_t>0)
        y = (mt[623] & <uint32_t>0x80000000U) | (mt[0] & <uint32_t>0x7fffffffU)
        mt[623] = mt[396] ^ (y >> 1) ^ (<uint32_t>0x9908b0dfU if (y & 1) else <uint32_t>0)
        g.mti[0] = 0
    y = mt[g.mti[0]]
    g.mti[0] += 1
    y ^= (y >> 11)
    y ^= (y << 7) & <uint32_t>0x9d2c5680U
    y ^= (y << 15) & <uint32_t>0xefc60000U
    y ^= (y >> 18)
    return y


cdef int64_t pick(St* g, int64_t p, int64_t n) noexcept nogil:
    cdef int64_t k = 0, m = n
    cdef uint32_t r
    while m:
        k += 1
        m >>= 1
    if g.shared:
        r = mt_full(g) >> (32 - k)
        while r >= n:
            r = mt_full(g) >> (32 - k)
        return r
    r = mt_next(g, p) >> (32 - k)
    while r >= n:
        r = mt_next(g, p) >> (32 - k)
    return r


# A rollout replays the decisions that led to the searched state (FORCED: the index of
# each in its listing), takes that state's data at the decision it stands at (SWITCH_AT:
# switch_data), then picks at random.
cdef int64_t* FORCED = NULL
cdef int64_t NFORCED = 0
cdef int64_t FPOS = 0
cdef int64_t SWITCH_AT = -1


cdef bint decide(St* g, int64_t who, int64_t group) noexcept nogil:
    """One decision of `who` in `group`: 1 when the `take actions` is over (nothing
    legal, or the action ended the turn; or the game must go to the Python path)."""
    global FPOS, SWITCH_AT
    cdef int64_t n, k, j
    cdef int64_t chosen[NPARAMS]
    if FPOS == SWITCH_AT:
        switch_data(g)
        SWITCH_AT = -1
    n = list_group(g, who, group)
    if n <= 0:
        return 1
    if g.policy[who] >= BOT_FIRST:  # a game bot picks inside the state: no decision of the history
        k = 0 if g.policy[who] == BOT_FIRST else randbelow(g, n)
        for j in range(NPARAMS):
            chosen[j] = CP[k * NPARAMS + j]
        return apply_action(g, who, CK[k], chosen)
    if FPOS < NFORCED:
        k = FORCED[FPOS]
        FPOS += 1
        if k < 0 or k >= n:
            g.err = 7
            return 1
    else:
        if g.actions >= g.max_actions:
            g.err = 1
            return 1
        k = 0 if g.policy[who] == FIRST else pick(g, who, n)
    g.actions += 1
    for j in range(NPARAMS):
        chosen[j] = CP[k * NPARAMS + j]
    return apply_action(g, who, CK[k], chosen)
'''
