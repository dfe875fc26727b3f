"""The fixed half of every native module: the engine's primitives written once in
Cython over the flat state `St` (whose fields the game's lowering declares).

Each is the engine's own, step for step: `checked` stands for the engine's refusal of
an index out of range (here it marks the game for the Python path), `next_u64` and
`shuffle_zone` are runtime/rng.py's splitmix64 and Fisher-Yates, `place_card` and
`draw` are runtime/cards.py's and compile/draws.py's (the top of a zone is the end of
its list), `finish` is runtime/ending.py's (one winner as given, several sorted without
repeats), and `mt_seed_lanes`/`mt_next`/`pick` are CPython's `random.Random(seed)` and its
`randrange(n)` (Mersenne Twister seeded by `init_by_array` over the seed's 32-bit
words; `getrandbits(k)` with rejection), so the `random` seat picks the same action.
"""

BASE = r'''
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


cdef inline int64_t truncdiv(St* g, int64_t a, int64_t b) noexcept nogil:
    if b == 0:
        g.err = 2
        return 0
    return a // b  # (C division: toward zero, as `/` of rule files of format 1)


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
    cdef card_t* items = &g.zc[g.zs[slot]]
    i = g.zn[slot] - 1
    while i > 0:
        j = <int64_t>(next_u64(g) % <uint64_t>(i + 1))
        t = items[i]
        items[i] = items[j]
        items[j] = t
        i -= 1


cdef inline int64_t zone_top(St* g, int64_t slot) noexcept nogil:
    if g.zn[slot] > 0:
        return g.zc[g.zs[slot] + g.zn[slot] - 1]
    return -1


# Every zone's cards lie in one array, zone after zone in slot order (`zs`: where each
# zone starts, `zn`: how many it holds), so a clone copies each card once, not room for
# every card in every zone. A card moved shifts the cards between its old and new place.

cdef inline int64_t zones_end(St* g) noexcept nogil:
    return g.zs[NSLOTS - 1] + g.zn[NSLOTS - 1]


cdef inline void zone_cut(St* g, int64_t slot, int64_t k, int64_t m) noexcept nogil:
    """m cards leave zone `slot` from its place k up; the cards after them move down m."""
    cdef int64_t p = g.zs[slot] + k, s
    memmove(&g.zc[p], &g.zc[p + m], (zones_end(g) - p - m) * sizeof(card_t))
    g.zn[slot] -= m
    for s in range(slot + 1, NSLOTS):
        g.zs[s] -= m


cdef inline card_t* zone_open(St* g, int64_t slot, int64_t k, int64_t m) noexcept nogil:
    """Room for m cards at place k of zone `slot` (the cards from there on move up m):
    where to write them. The caller keeps the cards in zones at most NCARDS."""
    cdef int64_t p = g.zs[slot] + k, s
    memmove(&g.zc[p + m], &g.zc[p], (zones_end(g) - p) * sizeof(card_t))
    g.zn[slot] += m
    for s in range(slot + 1, NSLOTS):
        g.zs[s] += m
    return &g.zc[p]


cdef inline void take_out(St* g, int64_t iid, int64_t old) noexcept nogil:
    """The card leaves zone slot `old`, the cards above it moving down one."""
    cdef int64_t k = 0, n = g.zn[old]
    cdef card_t* items = &g.zc[g.zs[old]]
    while k < n and items[k] != iid:
        k += 1
    if k < n:
        zone_cut(g, old, k, 1)


cdef inline void move_card(St* g, int64_t iid, int64_t old, int64_t slot, int top) noexcept nogil:
    """The card leaves zone `old` for the top or bottom of zone `slot`: only the cards
    between its old and new place shift, by one."""
    cdef int64_t a = g.zs[old], n = a + g.zn[old], q, s
    while a < n and g.zc[a] != iid:
        a += 1
    if a == n:  # (not where its zone says: as take_out, it goes in only)
        zone_open(g, slot, g.zn[slot] if top else 0, 1)[0] = iid
        return
    q = g.zs[slot] + (g.zn[slot] if top else 0)  # (it goes in before the card at q)
    if q > a:
        memmove(&g.zc[a], &g.zc[a + 1], (q - 1 - a) * sizeof(card_t))
        g.zc[q - 1] = iid
        for s in range(old + 1, slot + 1):
            g.zs[s] -= 1
    else:
        memmove(&g.zc[q + 1], &g.zc[q], (a - q) * sizeof(card_t))
        g.zc[q] = iid
        for s in range(slot + 1, old + 1):
            g.zs[s] += 1
    g.zn[old] -= 1
    g.zn[slot] += 1


cdef void place_card(St* g, int64_t iid, int64_t slot, int top) noexcept nogil:
    cdef int64_t old
    if iid < 0 or iid >= g.ncards:
        g.err = 2
        return
    old = g.loc[iid]
    if old >= 0:
        move_card(g, iid, old, slot, top)
    else:
        zone_open(g, slot, g.zn[slot] if top else 0, 1)[0] = iid
    g.loc[iid] = slot
    if ZONE_EVENTS:  # (the engine's order: the zone left, then the one entered)
        if old >= 0 and TLEAVE[TZD[old]]:
            zone_event(g, 0, old, iid)
        if TENTER[TZD[slot]]:
            zone_event(g, 1, slot, iid)


cdef void remove_card(St* g, int64_t iid) noexcept nogil:
    """runtime/cards.py's remove_card: the card leaves the game (in no zone)."""
    cdef int64_t old
    if iid < 0 or iid >= g.ncards:
        g.err = 2
        return
    old = g.loc[iid]
    if old >= 0:
        take_out(g, iid, old)
        g.loc[iid] = -1
        if ZONE_EVENTS and TLEAVE[TZD[old]]:
            zone_event(g, 0, old, iid)


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
    """Cards one by one from the top of `source`; an empty source that refills (RFROM)
    takes every card of its refill zone first, in order, then shuffles if it says so."""
    cdef int64_t src, i, m
    cdef card_t moved[NCARDS]
    if count < 0:
        g.err = 2
        return
    while count > 0:
        if g.zn[source] > 0:
            place_card(g, zone_top(g, source), dest, 1)
            count -= 1
            continue
        src = RFROM[source]
        if src < 0:
            return
        if REFILL_EVENTS and TREFILL[source]:
            # the refill's triggers first, with what this draw queued so far (the engine
            # ends the draw there and runs it again after them); then the refill, even
            # of what they put there
            refill_event(g, source)
            run_queue(g)
            if g.err or g.terminal:
                return
        elif g.zn[src] == 0:
            return
        if ZONE_EVENTS:  # (each card as place_card moves it: its events)
            while g.zn[src] > 0:
                place_card(g, g.zc[g.zs[src]], source, 1)
        else:  # (the whole zone moves, bottom first, onto the source)
            m = g.zn[src]
            memcpy(moved, &g.zc[g.zs[src]], m * sizeof(card_t))
            zone_cut(g, src, 0, m)
            memcpy(zone_open(g, source, g.zn[source], m), moved, m * sizeof(card_t))
            for i in range(m):
                g.loc[moved[i]] = source
        if RSHUFFLE[source]:
            shuffle_zone(g, source)
        if g.zn[source] == 0:
            return


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


# The generator of a search's rollouts (g.shared): a Python `random.Random`'s state,
# handed in and back by the rollout's entry; one rollout runs at a time.
cdef uint32_t SHARED_MT[624]
cdef int64_t SHARED_MTI = 624


cdef uint32_t mt_full(St* g) noexcept nogil:
    """CPython's genrand_uint32 itself (a whole twist at a time) on the shared table:
    the generator of a search's rollouts, whose state comes from and goes back to a
    Python `random.Random` (getstate/setstate), so it must be kept as CPython keeps it."""
    global SHARED_MTI
    cdef uint32_t* mt = SHARED_MT
    cdef uint32_t y
    cdef int64_t kk
    if SHARED_MTI >= 624:
        for kk in range(227):
            y = (mt[kk] & <uint32_t>0x80000000U) | (mt[kk + 1] & <uint32_t>0x7fffffffU)
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ (<uint32_t>0x9908b0dfU if (y & 1) else <uint32_t>0)
        for kk in range(227, 623):
            y = (mt[kk] & <uint32_t>0x80000000U) | (mt[kk + 1] & <uint32_t>0x7fffffffU)
            mt[kk] = mt[kk - 227] ^ (y >> 1) ^ (<uint32_t>0x9908b0dfU if (y & 1) else <uint32_t>0)
        y = (mt[623] & <uint32_t>0x80000000U) | (mt[0] & <uint32_t>0x7fffffffU)
        mt[623] = mt[396] ^ (y >> 1) ^ (<uint32_t>0x9908b0dfU if (y & 1) else <uint32_t>0)
        SHARED_MTI = 0
    y = mt[SHARED_MTI]
    SHARED_MTI += 1
    y ^= (y >> 11)
    y ^= (y << 7) & <uint32_t>0x9d2c5680U
    y ^= (y << 15) & <uint32_t>0xefc60000U
    y ^= (y >> 18)
    return y


cdef int64_t shared_pick(St* g, int64_t n) noexcept nogil:
    """`randrange(n)` of the shared generator (CPython's `_randbelow_with_getrandbits`)."""
    cdef int64_t k = 0, m = n
    cdef uint32_t r
    while m:
        k += 1
        m >>= 1
    r = mt_full(g) >> (32 - k)
    while r >= n:
        r = mt_full(g) >> (32 - k)
    return r


cdef bint fill_switch(list counters, list zones, list loc, list kinds, uint64_t rng, dict attrs):
    """SWITCH holds another state's data (counters, zones, where each card is and its
    definition, the attributes set on cards, the rules' generator), for switch_data;
    False when it cannot."""
    cdef Py_ssize_t i, j
    cdef Py_ssize_t at = 0
    if len(kinds) > NCARDS or len(zones) > NSLOTS or sum(len(z) for z in zones) > NCARDS:
        return False
    memset(&SWITCH, 0, sizeof(St))
    for i in range(len(counters)):
        _fill_counter(i, counters[i])
    for i in range(NSLOTS):
        SWITCH.zs[i] = at
        if i < len(zones):
            SWITCH.zn[i] = len(zones[i])
            for j in range(len(zones[i])):
                SWITCH.zc[at + j] = zones[i][j]
            at += len(zones[i])
    for i in range(len(kinds)):
        SWITCH.loc[i] = loc[i]
        SWITCH.kind[i] = kinds[i]
    SWITCH.ncards = len(kinds)
    SWITCH.rng = rng
    return _fill_attrs(&SWITCH, attrs)


cdef inline int64_t bot_pick(St* g, int64_t who, int64_t n) noexcept nogil:
    """A game bot's pick among `n`, inside the state: the first, or with the rules' generator."""
    busy(g)
    return 0 if g.botfirst[who] else randbelow(g, n)


# A game that loops (a `while` that never ends, bots that play on and on) must not hang
# the native code: past WORK_CAP passes of a loop, calls and bots' picks since the last
# decision of a seat or the last turn, or QUIET_CAP turns without a decision, the game
# goes to the Python path, which finishes it or says it is an endless loop (its step
# budget is larger than what these caps let through).
cdef enum:
    WORK_CAP = 5000
    QUIET_CAP = 5000


cdef inline bint busy(St* g) noexcept nogil:
    if g.actions != g.work_since:
        g.work_since = g.actions
        g.work = 0
    g.work += 1
    if g.work > WORK_CAP:
        g.err = 9
        return 1
    return 0


cdef inline void new_turn(St* g) noexcept nogil:
    if g.actions != g.quiet_since:
        g.quiet_since = g.actions
        g.quiet = 0
    g.quiet += 1
    g.work = 0
    if g.quiet > QUIET_CAP:
        g.err = 9


'''

# Each seat's own generator (the batched module's `random` seats), and the agents' picks.
SEATS = r'''
cdef uint32_t MT_BASE[624]  # init_genrand(19650218): where every init_by_array starts
MT_BASE[0] = <uint32_t>19650218U
for _i in range(1, 624):
    MT_BASE[_i] = <uint32_t>(<uint32_t>1812433253U * (MT_BASE[_i - 1] ^ (MT_BASE[_i - 1] >> 30)) + <uint32_t>_i)


cdef enum:
    MT_LANES = @MT_LANES@  # seeds worked out side by side (mt_seed_lanes)


cdef void mt_seed_lanes(uint32_t* tables, uint64_t* seeds, int64_t count) noexcept nogil:
    """CPython's init_by_array of `count` (<= MT_LANES) seeds at once, table c at
    tables + 624 * c, ready for mt_next (its first twist still to come). Seeding one table is
    a chain of 1,247 steps each waiting on the last (~3 us, most of a short game's
    cost); MT_LANES chains walked side by side, each lane's last word kept in a local of
    its own (v0, v1, ...: a register, not a load of the word just stored), keep the
    processor busy on all of them in the time of one. Lane c's key is its seed's 32-bit
    words (one when the high word is 0), so step k adds key[k % len] + k % len."""
    cdef uint32_t lanes[624 * MT_LANES]
    cdef uint32_t even[MT_LANES]
    cdef uint32_t odd[MT_LANES]
    cdef uint32_t* cur
    cdef uint32_t* add
    cdef uint32_t @LOCALS@
    cdef uint64_t seed
    cdef int64_t i, k, c
    for c in range(MT_LANES):
        seed = seeds[c] if c < count else 0
        even[c] = <uint32_t>(seed & <uint64_t>0xFFFFFFFFU)
        odd[c] = <uint32_t>((seed >> 32) + 1) if (seed >> 32) != 0 else even[c]
    for i in range(624):
        for c in range(MT_LANES):
            lanes[i * MT_LANES + c] = MT_BASE[i]
@START@
    i = 1
    for k in range(624):
        cur = lanes + i * MT_LANES
        add = &odd[0] if k & 1 else &even[0]
@FIRST_PASS@
        i += 1
        if i >= 624:
            i = 1  # (word 0 becomes word 623, each lane's v: nothing to copy)
    for k in range(623):
        cur = lanes + i * MT_LANES
@SECOND_PASS@
        i += 1
        if i >= 624:
            i = 1
    for c in range(count):
        for i in range(1, 624):
            tables[624 * c + i] = lanes[i * MT_LANES + c]
        tables[624 * c] = <uint32_t>0x80000000U


cdef void mt_seed_many(uint32_t* tables, uint64_t* seeds, int64_t count) noexcept nogil:
    """mt_seed_lanes of any number of seeds, MT_LANES at a time."""
    cdef int64_t start = 0
    while start < count:
        mt_seed_lanes(tables + 624 * start, seeds + start, count - start if count - start < MT_LANES else MT_LANES)
        start += MT_LANES


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


# SHA-256 (FIPS 180-4), for the `random` seats' seeds: agents/builtin.agent_seed is the
# first 8 bytes, big-endian, of SHA-256("orrery-agent:{game seed}:{seat}").
cdef uint32_t SHA_K[64]
_fill_u32(SHA_K, (
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2))


cdef inline uint32_t _rotr(uint32_t x, int n) noexcept nogil:
    return (x >> n) | (x << (32 - n))


cdef int _decimal(unsigned char* block, int at, uint64_t v) noexcept nogil:
    """`v` written in decimal into `block` from `at`; where it ends."""
    cdef char digits[24]
    cdef int n = 0, d
    if v == 0:
        digits[0] = 48
        n = 1
    while v:
        digits[n] = <char>(48 + v % 10)
        v //= 10
        n += 1
    for d in range(n):
        block[at + d] = digits[n - 1 - d]
    return at + n


cdef uint64_t agent_seed(uint64_t game_seed, int64_t seat) noexcept nogil:
    """agents/builtin.agent_seed for a game seed in [0, 2**63): one SHA-256 block."""
    cdef unsigned char block[64]
    cdef int i, length
    cdef uint64_t v
    cdef uint32_t w[64]
    cdef uint32_t h[8]
    cdef uint32_t a, b, c, e, f, gg, hh, dd, s0, s1, t1, t2
    memset(block, 0, 64)
    memcpy(block, b"orrery-agent:", 13)
    length = _decimal(block, 13, game_seed)
    block[length] = 58  # ':'
    length = _decimal(block, length + 1, <uint64_t>seat)
    block[length] = 0x80
    v = <uint64_t>length * 8
    for i in range(8):
        block[63 - i] = <unsigned char>(v >> (8 * i))
    for i in range(16):
        w[i] = (<uint32_t>block[4 * i] << 24) | (<uint32_t>block[4 * i + 1] << 16) | \
               (<uint32_t>block[4 * i + 2] << 8) | <uint32_t>block[4 * i + 3]
    for i in range(16, 64):
        s0 = _rotr(w[i - 15], 7) ^ _rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
        s1 = _rotr(w[i - 2], 17) ^ _rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
        w[i] = w[i - 16] + s0 + w[i - 7] + s1
    h[0], h[1], h[2], h[3] = 0x6a09e667U, 0xbb67ae85U, 0x3c6ef372U, 0xa54ff53aU
    h[4], h[5], h[6], h[7] = 0x510e527fU, 0x9b05688cU, 0x1f83d9abU, 0x5be0cd19U
    a, b, c, dd, e, f, gg, hh = h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]
    for i in range(64):
        s1 = _rotr(e, 6) ^ _rotr(e, 11) ^ _rotr(e, 25)
        t1 = hh + s1 + ((e & f) ^ ((~e) & gg)) + SHA_K[i] + w[i]
        s0 = _rotr(a, 2) ^ _rotr(a, 13) ^ _rotr(a, 22)
        t2 = s0 + ((a & b) ^ (a & c) ^ (b & c))
        hh = gg
        gg = f
        f = e
        e = dd + t1
        dd = c
        c = b
        b = a
        a = t1 + t2
    return ((<uint64_t>(h[0] + a)) << 32) | <uint64_t>(h[1] + b)


cdef int64_t pick(St* g, int64_t p, int64_t n) noexcept nogil:
    """`randrange(n)` of seat p's generator (of the shared one in a search's rollout)."""
    cdef int64_t k = 0, m = n
    cdef uint32_t r
    if g.shared:
        return shared_pick(g, n)
    while m:
        k += 1
        m >>= 1
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


cdef int64_t agent_pick(St* g, int64_t who, int64_t n) noexcept nogil:
    """The index an agent seat picks among `n` listed (a decision of the history: the
    next forced one in a rollout's replay, else `first` or the seat's generator); -1
    when the game must go to the Python path."""
    global FPOS
    cdef int64_t k
    if FPOS < NFORCED:
        k = FORCED[FPOS]
        FPOS += 1
        if k < 0 or k >= n:
            g.err = 7
            return -1
    else:
        if g.actions >= g.max_actions:
            g.err = 1
            return -1
        k = 0 if g.policy[who] == FIRST else pick(g, who, n)
    g.actions += 1
    return k


'''

# The batched module's decision: every seat picks where the flow waits.
DECIDE = r'''
cdef bint decide(St* g, int64_t who, int64_t group) noexcept nogil:
    """One decision of `who` in `group`: 1 when the `take actions` is over (nothing
    legal, or the action ended the turn; or the game must go to the Python path)."""
    global SWITCH_AT
    cdef int64_t n, k, j
    cdef int64_t chosen[NPARAMS]
    if FPOS == SWITCH_AT:
        switch_data(g)
        SWITCH_AT = -1
    n = list_group(g, who, group)
    if n <= 0:
        return 1
    if g.policy[who] >= BOT_FIRST:  # a game bot picks inside the state: no decision of the history
        k = bot_pick(g, who, n)
    else:
        k = agent_pick(g, who, n)
        if k < 0:
            return 1
    for j in range(NPARAMS):
        chosen[j] = CP[k * NPARAMS + j]
    pay_action(g, who, CK[k], chosen)
    if g.tqn > g.tbase:  # (the payment's triggers resolve before the action's effect)
        run_queue(g)
    if g.err or g.terminal:
        return 1
    return apply_action(g, who, CK[k], chosen)
'''

MT_LANES = 8  # the seats' generators seeded side by side (mt_seed_lanes; module.py's SEEDED_GAMES)


def _each_lane(statement: str, indent: str) -> str:
    """`statement` once per lane (v0, v1, ...), written out so that each lane's last
    word stays in a local of its own."""
    return "\n".join(indent + statement.format(c=c) for c in range(MT_LANES))


SEATS = (SEATS.replace("@MT_LANES@", str(MT_LANES)).replace("@LOCALS@", ", ".join(f"v{c}" for c in range(MT_LANES)))
         .replace("@START@", _each_lane("v{c} = MT_BASE[0]", "    "))
         .replace("@FIRST_PASS@", _each_lane("v{c} = <uint32_t>((cur[{c}] ^ <uint32_t>((v{c} ^ (v{c} >> 30)) "
                                             "* <uint32_t>1664525U)) + add[{c}]); cur[{c}] = v{c}", "        "))
         .replace("@SECOND_PASS@", _each_lane("v{c} = <uint32_t>((cur[{c}] ^ <uint32_t>((v{c} ^ (v{c} >> 30)) "
                                              "* <uint32_t>1566083941U)) - <uint32_t>i); cur[{c}] = v{c}", "        ")))

SUPPORT = BASE + SEATS + DECIDE
