# cython: language_level=3
"""Compiled exact look-ahead for Kap Tai Shap (夾大十) and Kap Shap (夾十).

The model (``docs/kts-lookahead.md``, :func:`kaptai.kts.lookahead.lookahead`): the
player holds H (2n+1 tiles); each of the next ``looks`` looks is one tile drawn
uniformly from the current pool, without replacement; if H + tile wins the player
wins, otherwise keeps the best 2n+1 of the 2n+2 tiles and the discard leaves play::

    V_0 = 0
    V_j(H, pool) = sum_t pool[t]/|pool| * (1 if H+t wins
                                           else max_x V_{j-1}(H+t-x, pool-t))

Exact integers
--------------
Every pool met at depth j has the same size u, so ``V_j(H, pool) * u (u-1) ...
(u-j+1)`` is an integer (induction: the children of one state share the pool size
u - 1, their maxima are integers over the same falling factorial, and the sum has
integer weights ``pool[t]``).  The recursion works on these numerators in int64; a
value is a pair (P(win) numerator, E[score] numerator) compared lexicographically in
the order of the objective, so the secondary figure is that of an optimal policy for
the primary one that breaks its ties by the secondary (lexicographic order is
preserved by sums and positive multiples, so Bellman's recursion holds for it).

Memo
----
States are memoised on (hand counts, drawn-tile counts) in an open-addressing table:
the hand packed four bits per tile id (two words), the tiles drawn from the root pool
three bits per id (one word).  The pool size, hence the depth, follows from the drawn
tiles.  Hands have their own table: waits (a 21-bit mask), the score of each winning
tile, and a bound on the overlap with a winning hand.

Two looks left
--------------
``V_2(H, pool)`` is computed without visiting the 2n+1 hands H + t - y one by one:
drawing t and throwing y leaves (H - y) + t, which wins on the next look with w exactly
when {t, w} completes the 2n-tile hand H - y.  The two-tile completions of each 2n-tile
hand (with their scores) are found once and memoised in a third table; a V_2 state then
reads one entry per distinct tile of H, and keeping H (throwing the drawn tile back) is
the sum over H's own waits.

Pruning (each keeps the exact optimum)
--------------------------------------
1. *Overlap bound.*  Tiles only leave play, so every winning hand W the player can
   still complete from H within j looks is a multiset W <= H0 + U0 (the root hand and
   pool, ``avail``), and at least 2n+2-j of its tiles are tiles of H (each look adds
   at most one tile).  So if ``max_overlap(H, avail) < 2n+2-j`` then ``V_j(H, .) = 0``
   for both objectives and the state is not expanded.  ``max_overlap`` (the
   evaluator's exact overlap search) is called with that ceiling and cached per hand.
2. *Balance-key filter.*  A winning hand's masked ten-pair balance key (class
   differences d1..d4, parities of classes 0 and 5; ten pairs add nothing to it) is
   one of a small set computed from the forms (eye; general eyes; eye + run); a hand
   of 2n+1 tiles can be ready only if its key is one tile away from that set.  Both
   are necessary conditions: every candidate that passes is decided by the
   evaluator's ``hs_is_win`` / ``hs_score``, so no win is lost.
3. *Identical roles.*  The tile pairs (5-5, 4-6), (3-3, 1-5), (4-5, 3-6), (2-6, 3-5),
   (2-5, 3-4), (1-4, 2-3) have the same ten-value, run-value, civil/military class,
   pair-type and general-eye status, so swapping the two ids of a pair in the hand,
   the pool and ``avail`` maps the game onto itself.  When the two have equal counts in
   all three, drawing the second is worth what drawing the first is worth, and
   discarding the second what discarding the first is worth: it is not recomputed.
4. *Wins are taken*, and a 2n+1 hand with no way to improve is not special: nothing
   else is cut.
"""
from libc.stdint cimport int64_t, uint64_t, uint32_t, int8_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memset, memcpy

from kaptai.kts._keys cimport KEY_CELLS, key_index, key_has
from kaptai.kts._eval cimport (EvalRules, HandState, rules_init, hs_clear, hs_add, hs_remove,
                               hs_is_win, hs_score, max_overlap)

import functools

import numpy as np

# ---------------------------------------------------------------- balance keys (own layout)
# bits 0-31: d1..d4 (d_j = C_j - C_{10-j} over ten-value classes) offset by 64, one byte
# each; bits 32-39: C0; bits 40-47: C5.  Masked: the d bytes and the two parity bits.
cdef int64_t BKEY_BASE = 64 | (64 << 8) | (64 << 16) | (64 << 24)
cdef int64_t BKEY_MASK = <int64_t>0xFFFFFFFF | (<int64_t>1 << 32) | (<int64_t>1 << 40)
cdef int64_t TDELTA[21]

_TV = [12, 2, 8, 4, 10, 6, 4, 11, 10, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 3, 3]
_RV = [12, 2, 8, 4, 10, 6, 4, 11, 10, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 6, 3]
#: identical-role partner (the lower id of the pair), -1 for none
_PARTNER = [-1] * 21
for _a, _b in ((4, 8), (5, 10), (11, 12), (13, 14), (15, 16), (17, 18)):
    _PARTNER[_b] = _a


def _class_delta(k):
    if k == 0:
        return 1 << 32
    if k == 5:
        return 1 << 40
    if k < 5:
        return 1 << (8 * (k - 1))
    return -(1 << (8 * (10 - k - 1)))


for _i in range(21):
    TDELTA[_i] = _class_delta(_TV[_i] % 10)

cdef int PARTNER[21]
for _i in range(21):
    PARTNER[_i] = _PARTNER[_i]


def _masked(key):
    return key & BKEY_MASK


def _win_keys(int forms, int n, int gjrv):
    """Masked balance keys of every winning hand the forms allow (a superset)."""
    base = BKEY_BASE
    out = set()
    if forms & 1:                                   # basic: an eye + ten pairs
        for k in range(10):
            out.add(_masked(base + 2 * _class_delta(k)))
    if forms & 2:                                   # general eyes (ids 0..3) + ten pairs
        cls = [_TV[i] % 10 for i in range(4)]
        for g0 in range(n + 2):
            for g1 in range(n + 2 - g0):
                for g2 in range(n + 2 - g0 - g1):
                    for g3 in range(n + 2 - g0 - g1 - g2):
                        if g0 + g1 + g2 + g3 >= 2:
                            d = 2 * (g0 * _class_delta(cls[0]) + g1 * _class_delta(cls[1])
                                     + g2 * _class_delta(cls[2]) + g3 * _class_delta(cls[3]))
                            out.add(_masked(base + d))
    rv = list(_RV)
    rv[19] = gjrv
    for L, bit in ((4, 4), (6, 8), (8, 16)):
        if not forms & bit or L // 2 > n:
            continue
        for v in range(2, 14 - L):
            sums = {0}
            for w in range(v, v + L):
                classes = {_TV[i] % 10 for i in range(21) if rv[i] == w}
                sums = {s + _class_delta(k) for s in sums for k in classes}
            for s in sums:
                for k in range(10):
                    out.add(_masked(base + s + 2 * _class_delta(k)))
    return sorted(out)


def _masked_sub(mk, k):
    """Masked key of a hand one tile of class k smaller."""
    if k == 0:
        return mk ^ (1 << 32)
    if k == 5:
        return mk ^ (1 << 40)
    low = (mk & 0xFFFFFFFF) - _class_delta(k)
    return (mk & ~0xFFFFFFFF) | (low & 0xFFFFFFFF)


def _masked_add(mk, k):
    """Masked key of a hand one tile of class k larger."""
    if k == 0 or k == 5:
        return _masked_sub(mk, k)           # a parity bit: adding flips it like removing
    low = (mk & 0xFFFFFFFF) + _class_delta(k)
    return (mk & ~0xFFFFFFFF) | (low & 0xFFFFFFFF)


def _ready_keys(win_keys):
    return sorted({_masked_sub(w, k) for w in win_keys for k in range(10)})


def _near_keys(ready_keys):
    """Keys of a 2n+2 hand that one discard can make ready (ready keys plus one class)."""
    return sorted({_masked_add(r, k) for r in ready_keys for k in range(10)})


def _reach2_keys(near_keys):
    """Keys of a 2n+1 hand that a draw and a discard can make ready (near keys less one class)."""
    return sorted({_masked_sub(r, k) for r in near_keys for k in range(10)})


# ---------------------------------------------------------------- key table
# key_index / key_has and the cell layout: kaptai/kts/_keys.pxd (shared with the engine).
_KEY_TABLES = {}


def _key_table(int forms, int n, int gjrv):
    """uint8 table of a ruleset's keys (cached): bit 0 win, bit 1 ready (one tile short),
    bit 2 near (a 2n+2 hand one discard from ready), bit 3 reach-2 (a 2n+1 hand that one
    draw and one discard can make ready).  Each is a necessary condition only."""
    got = _KEY_TABLES.get((forms, n, gjrv))
    if got is None:
        got = np.zeros(KEY_CELLS, dtype=np.uint8)
        wk = _win_keys(forms, n, gjrv)
        for k in wk:
            i = key_index(k)
            if i >= 0:
                got[i] |= 1
        rk = _ready_keys(wk)
        nk = _near_keys(rk)
        for bit, keys in ((2, rk), (4, nk), (8, _reach2_keys(nk))):
            for k in keys:
                i = key_index(k)
                if i >= 0:
                    got[i] |= bit
        got.setflags(write=False)
        _KEY_TABLES[(forms, n, gjrv)] = got
    return got


_CLASS_TABLES = {}


@functools.lru_cache(maxsize=1)
def _class_neighbours():
    """(cells, 10) int32: the cell of a key one tile of class k larger (-1 off the table)."""
    cell = np.arange(KEY_CELLS, dtype=np.int64)
    d = [(cell // (21 ** j)) % 21 for j in range(4)]
    par = cell // 194481
    out = np.full((KEY_CELLS, 10), -1, dtype=np.int32)
    for k in range(10):
        if k == 0 or k == 5:
            flip = 1 if k == 0 else 2
            out[:, k] = cell + 194481 * ((par ^ flip) - par)
            continue
        j, step = (k - 1, 1) if k < 5 else (10 - k - 1, -1)
        nd = d[j] + step
        ok = (nd >= 0) & (nd <= 20)
        out[:, k] = np.where(ok, cell + step * 21 ** j, -1)
    return out


def _class_tables(int forms, int n, int gjrv):
    """One uint32 word per cell of :func:`_key_table` (cached): bits 0-9, for a key of a 2n+1
    hand, the classes k whose tile makes a winning key (none: the hand cannot be ready);
    bits 10-19, for a key of a 2n+2 hand, the classes k whose removal leaves a ready key
    (none: no discard makes it ready); bits 20-23, the table's own bits (win, ready, near,
    reach-2).  Necessary conditions only, like the bits they come from; one lookup gives
    the engine's look-ahead everything it asks of a key."""
    got = _CLASS_TABLES.get((forms, n, gjrv))
    if got is None:
        bits = _key_table(forms, n, gjrv)
        nb = _class_neighbours()
        info = bits.astype(np.uint32) << 20
        rdy = np.nonzero(bits & 2)[0]
        for k in range(10):
            up = nb[:, k]
            ok = up >= 0
            hit = np.zeros(KEY_CELLS, dtype=bool)
            hit[ok] = (bits[up[ok]] & 1) != 0
            info |= hit.astype(np.uint32) << k
            # a 2n+2 key c with c - delta_k ready  <=>  some ready key r with r + delta_k = c
            tgt = nb[rdy, k]
            tgt = tgt[tgt >= 0]
            info[tgt] |= np.uint32(1 << (10 + k))
        info.setflags(write=False)
        got = info
        _CLASS_TABLES[(forms, n, gjrv)] = got
    return got


# ---------------------------------------------------------------- memo tables
cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef struct Val:
    int64_t p        # numerator of P(win)
    int64_t s        # numerator of E[score]

cdef struct HEntry:       # 16 bytes: four to a cache line
    uint64_t k0           # tiles 0..15, four bits each
    uint32_t k1           # tiles 16..20 (bits 0..19); bit 31: slot used
    uint32_t waits        # bit t: H + t wins

cdef struct HSide:        # the rest of a hand's entry, same slot, rarely read
    int8_t ov             # overlap found by max_overlap (with ceiling ov_cap)
    int8_t ov_cap         # 0: not searched yet; ov < ov_cap: exact
    int8_t score[21]      # score of H + t (waits only; no self-draw point)

cdef struct KEntry:       # a hand of 2n tiles: its two-tile completions
    uint64_t k0
    uint32_t k1           # bit 31: slot used
    uint32_t count        # completions
    uint64_t start        # index of the first in Ctx.comps

cdef struct Comp:         # K + a + b wins (a <= b), scoring sc (no self-draw point)
    int8_t a
    int8_t b
    int8_t sc
    int8_t pad

cdef struct SEntry:
    uint64_t k0
    uint64_t k1      # bit 63: slot used
    uint64_t k2
    Val v

cdef uint64_t USED = <uint64_t>1 << 63
cdef uint32_t HUSED = <uint32_t>1 << 31


cdef struct Ctx:
    EvalRules r
    HandState h
    int n
    int pool[21]
    int u
    int avail[21]
    int looks
    int bonus[16]         # self-draw point of look i (1 own draw, 0 claimed discard)
    int objective         # 0: P(win) first; 1: E[score] first
    uint64_t hk0
    uint64_t hk1
    uint64_t dk
    int64_t bkey
    const unsigned char* keys   # key table (bit 0 win, bit 1 ready)
    HEntry* ht
    HSide* hs
    uint64_t hmask
    uint64_t hcount
    KEntry* kt
    uint64_t kmask
    uint64_t kcount
    Comp* comps
    uint64_t ncomps
    uint64_t capcomps
    SEntry* st
    uint64_t smask
    uint64_t scount
    int oom
    uint64_t n_states     # states expanded
    uint64_t n_hands      # hands whose waits were computed
    uint64_t n_overlap    # max_overlap searches
    uint64_t n_pruned     # states cut by the overlap bound
    uint64_t n_leaf       # V_1 evaluations
    uint64_t n_lookup     # hand-table lookups
    uint64_t n_check      # hs_is_win calls
    uint64_t n_win        # of which wins


cdef inline uint64_t hand_hash(uint64_t a, uint64_t b) noexcept nogil:
    return mix64(a * <uint64_t>0x9E3779B97F4A7C15ULL ^ mix64(b))


cdef inline uint64_t state_hash(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    return mix64(a * <uint64_t>0x9E3779B97F4A7C15ULL ^ mix64(b ^ mix64(c)))


cdef bint ht_grow(Ctx* x) noexcept nogil:
    cdef uint64_t size = (x.hmask + 1) * 2, i, slot
    cdef HEntry* nt = <HEntry*> calloc(size, sizeof(HEntry))
    cdef HSide* ns = <HSide*> calloc(size, sizeof(HSide))
    if nt == NULL or ns == NULL:
        free(nt)
        free(ns)
        x.oom = 1
        return False
    for i in range(x.hmask + 1):
        if x.ht[i].k1 & HUSED:
            slot = hand_hash(x.ht[i].k0, x.ht[i].k1) & (size - 1)
            while nt[slot].k1 & HUSED:
                slot = (slot + 1) & (size - 1)
            nt[slot] = x.ht[i]
            ns[slot] = x.hs[i]
    free(x.ht)
    free(x.hs)
    x.ht = nt
    x.hs = ns
    x.hmask = size - 1
    return True


cdef bint st_grow(Ctx* x) noexcept nogil:
    cdef uint64_t size = (x.smask + 1) * 2, i, slot
    cdef SEntry* nt = <SEntry*> calloc(size, sizeof(SEntry))
    if nt == NULL:
        x.oom = 1
        return False
    for i in range(x.smask + 1):
        if x.st[i].k1 & USED:
            slot = state_hash(x.st[i].k0, x.st[i].k1, x.st[i].k2) & (size - 1)
            while nt[slot].k1 & USED:
                slot = (slot + 1) & (size - 1)
            nt[slot] = x.st[i]
    free(x.st)
    x.st = nt
    x.smask = size - 1
    return True


cdef int64_t hand_entry(Ctx* x) noexcept nogil:
    """Slot of the current hand's entry (waits and scores computed on first sight),
    -1 when out of memory.  Valid until the next insertion."""
    cdef uint32_t k1 = <uint32_t>x.hk1 | HUSED
    cdef uint64_t slot
    cdef HEntry* e
    cdef HSide* sd
    cdef int t, form, spec
    cdef uint32_t w = 0
    x.n_lookup += 1
    slot = hand_hash(x.hk0, k1) & x.hmask
    while x.ht[slot].k1 & HUSED:
        if x.ht[slot].k1 == k1 and x.ht[slot].k0 == x.hk0:
            return <int64_t>slot
        slot = (slot + 1) & x.hmask
    if 2 * (x.hcount + 1) > x.hmask + 1:
        if not ht_grow(x):
            return -1
        slot = hand_hash(x.hk0, k1) & x.hmask
        while x.ht[slot].k1 & HUSED:
            slot = (slot + 1) & x.hmask
    e = &x.ht[slot]
    sd = &x.hs[slot]
    e.k0 = x.hk0
    e.k1 = k1
    sd.ov = 0
    sd.ov_cap = 0
    x.hcount += 1
    x.n_hands += 1
    if key_has(x.keys, x.bkey, 2):
        for t in range(21):
            if not key_has(x.keys, x.bkey + TDELTA[t], 1):
                continue
            hs_add(&x.h, t, &x.r)
            x.n_check += 1
            if hs_is_win(&x.h, &x.r):
                x.n_win += 1
                w |= (<uint32_t>1) << t
                sd.score[t] = <int8_t>hs_score(&x.h, &x.r, &form, &spec)
            hs_remove(&x.h, t, &x.r)
    e.waits = w
    return <int64_t>slot


cdef inline bint better(Val a, Val b, int objective) noexcept nogil:
    if objective == 0:
        return a.p > b.p or (a.p == b.p and a.s > b.s)
    return a.s > b.s or (a.s == b.s and a.p > b.p)


cdef inline int64_t falling(int64_t u, int j) noexcept nogil:
    cdef int64_t f = 1
    cdef int i
    for i in range(j):
        f *= u - i
    return f


cdef inline void take(Ctx* x, int t) noexcept nogil:
    """Move one copy of t from the pool into the hand."""
    x.pool[t] -= 1
    x.u -= 1
    x.dk += (<uint64_t>1) << (3 * t)
    put(x, t)


cdef inline void untake(Ctx* x, int t) noexcept nogil:
    drop(x, t)
    x.pool[t] += 1
    x.u += 1
    x.dk -= (<uint64_t>1) << (3 * t)


cdef inline void put(Ctx* x, int t) noexcept nogil:
    hs_add(&x.h, t, &x.r)
    x.bkey += TDELTA[t]
    if t < 16:
        x.hk0 += (<uint64_t>1) << (4 * t)
    else:
        x.hk1 += (<uint64_t>1) << (4 * (t - 16))


cdef inline void drop(Ctx* x, int t) noexcept nogil:
    hs_remove(&x.h, t, &x.r)
    x.bkey -= TDELTA[t]
    if t < 16:
        x.hk0 -= (<uint64_t>1) << (4 * t)
    else:
        x.hk1 -= (<uint64_t>1) << (4 * (t - 16))


cdef inline Val leaf(Ctx* x, int bonus) noexcept nogil:
    """V_1 of the current hand and pool (numerator over |pool|)."""
    cdef Val v
    cdef int64_t e
    cdef uint32_t w
    cdef const int8_t* sc
    cdef int t
    v.p = 0
    v.s = 0
    x.n_leaf += 1
    if not key_has(x.keys, x.bkey, 2):
        return v
    e = hand_entry(x)
    if e < 0:
        return v
    w = x.ht[e].waits
    sc = x.hs[e].score
    while w:
        t = count_trailing(w)
        w &= w - 1
        if x.pool[t]:
            v.p += x.pool[t]
            v.s += x.pool[t] * (sc[t] + bonus)
    return v


cdef inline int count_trailing(uint32_t w) noexcept nogil:
    cdef int t = 0
    while not (w & 1):
        w >>= 1
        t += 1
    return t


cdef bint reachable(Ctx* x, int64_t e, int need) noexcept nogil:
    """Does the current hand share at least ``need`` tiles with a winning hand
    within ``avail``?  Cached per hand (``e`` must be the current hand's slot)."""
    cdef int ov
    cdef HSide* sd = &x.hs[e]
    if sd.ov >= need:
        return True
    if sd.ov_cap != 0 and sd.ov < sd.ov_cap:
        return False                                   # exact and too small
    x.n_overlap += 1
    ov = max_overlap(x.h.c, x.avail, &x.r, need)
    sd.ov = <int8_t>ov
    sd.ov_cap = <int8_t>need
    return ov >= need


cdef bint kt_grow(Ctx* x) noexcept nogil:
    cdef uint64_t size = (x.kmask + 1) * 2, i, slot
    cdef KEntry* nt = <KEntry*> calloc(size, sizeof(KEntry))
    if nt == NULL:
        x.oom = 1
        return False
    for i in range(x.kmask + 1):
        if x.kt[i].k1 & HUSED:
            slot = hand_hash(x.kt[i].k0, x.kt[i].k1) & (size - 1)
            while nt[slot].k1 & HUSED:
                slot = (slot + 1) & (size - 1)
            nt[slot] = x.kt[i]
    free(x.kt)
    x.kt = nt
    x.kmask = size - 1
    return True


cdef bint push_comp(Ctx* x, int a, int b, int sc) noexcept nogil:
    cdef Comp* nc
    if x.ncomps == x.capcomps:
        nc = <Comp*> realloc(x.comps, 2 * x.capcomps * sizeof(Comp))
        if nc == NULL:
            x.oom = 1
            return False
        x.comps = nc
        x.capcomps *= 2
    x.comps[x.ncomps].a = <int8_t>a
    x.comps[x.ncomps].b = <int8_t>b
    x.comps[x.ncomps].sc = <int8_t>sc
    x.ncomps += 1
    return True


cdef int64_t k_entry(Ctx* x) noexcept nogil:
    """Slot of the current 2n-tile hand's entry in the completion table (computed on
    first sight: every unordered pair a <= b with hand + a + b a win), -1 when out of
    memory.  Valid until the next insertion."""
    cdef uint32_t k1 = <uint32_t>x.hk1 | HUSED
    cdef uint64_t slot, start
    cdef KEntry* e
    cdef int a, b, form, spec
    slot = hand_hash(x.hk0, k1) & x.kmask
    while x.kt[slot].k1 & HUSED:
        if x.kt[slot].k1 == k1 and x.kt[slot].k0 == x.hk0:
            return <int64_t>slot
        slot = (slot + 1) & x.kmask
    start = x.ncomps
    for a in range(21):
        if not key_has(x.keys, x.bkey + TDELTA[a], 2):
            continue
        put(x, a)
        for b in range(a, 21):
            if not key_has(x.keys, x.bkey + TDELTA[b], 1):
                continue
            hs_add(&x.h, b, &x.r)
            x.n_check += 1
            if hs_is_win(&x.h, &x.r):
                x.n_win += 1
                push_comp(x, a, b, hs_score(&x.h, &x.r, &form, &spec))
            hs_remove(&x.h, b, &x.r)
        drop(x, a)
    if x.oom:
        return -1
    if 2 * (x.kcount + 1) > x.kmask + 1:
        if not kt_grow(x):
            return -1
    slot = hand_hash(x.hk0, k1) & x.kmask
    while x.kt[slot].k1 & HUSED:
        slot = (slot + 1) & x.kmask
    e = &x.kt[slot]
    e.k0 = x.hk0
    e.k1 = k1
    e.start = start
    e.count = <uint32_t>(x.ncomps - start)
    x.kcount += 1
    return <int64_t>slot


cdef Val solve2(Ctx* x, uint32_t waits, const int8_t* sc, int bonus1) noexcept nogil:
    """V_2 numerator (over u (u-1)) of the current hand and pool, by the two-tile
    completions of the hand minus each of its tiles: drawing t and throwing y leaves
    (H - y) + t, which wins with w exactly when (t, w) completes H - y."""
    cdef Val tot, child, keep
    cdef int64_t accp[21][21]
    cdef int64_t accs[21][21]
    cdef int ys[21]
    cdef int ny = 0, i, y, t, w, a, b, bonus2 = x.bonus[x.looks - 1]
    cdef int64_t e, F = x.u - 1, pa, pb
    cdef uint64_t c, start, cnt
    cdef uint32_t m
    tot.p = 0
    tot.s = 0
    # keeping H (throwing the drawn tile back): the waits of H, the drawn tile not one of them
    keep.p = 0
    keep.s = 0
    m = waits
    while m:
        w = count_trailing(m)
        m &= m - 1
        keep.p += x.pool[w]
        keep.s += x.pool[w] * (sc[w] + bonus2)
    for y in range(21):
        if x.h.c[y] == 0:
            continue
        ys[ny] = y
        for t in range(21):
            accp[ny][t] = 0
            accs[ny][t] = 0
        drop(x, y)
        e = k_entry(x)
        put(x, y)
        if e < 0:
            return tot
        start = x.kt[e].start
        cnt = x.kt[e].count
        for c in range(start, start + cnt):
            a = x.comps[c].a
            b = x.comps[c].b
            # draw a now, b on the next look (from the pool less a), and the other way round
            pb = x.pool[b] - (1 if a == b else 0)
            if x.pool[a] and pb > 0:
                accp[ny][a] += pb
                accs[ny][a] += pb * (x.comps[c].sc + bonus2)
            if a != b and x.pool[b] and x.pool[a]:
                accp[ny][b] += x.pool[a]
                accs[ny][b] += x.pool[a] * (x.comps[c].sc + bonus2)
        ny += 1
    for t in range(21):
        if x.pool[t] == 0:
            continue
        if (waits >> t) & 1:
            child.p = F
            child.s = (sc[t] + bonus1) * F
        else:
            child = keep
            for i in range(ny):
                if ys[i] == t:
                    continue                        # throwing a copy of t: keeping H
                if x.objective == 0:
                    if accp[i][t] > child.p or (accp[i][t] == child.p and accs[i][t] > child.s):
                        child.p = accp[i][t]
                        child.s = accs[i][t]
                else:
                    if accs[i][t] > child.s or (accs[i][t] == child.s and accp[i][t] > child.p):
                        child.p = accp[i][t]
                        child.s = accs[i][t]
        tot.p += x.pool[t] * child.p
        tot.s += x.pool[t] * child.s
    return tot


cdef Val solve(Ctx* x, int j) noexcept nogil:
    """V_j numerator of the current hand and pool, over falling(u, j)."""
    cdef Val tot
    cdef int64_t e
    cdef SEntry* se
    cdef uint32_t waits
    cdef int8_t sc[21]
    cdef int bonus
    cdef uint64_t k1, slot
    tot.p = 0
    tot.s = 0
    if x.u <= 0 or x.oom:
        return tot
    bonus = x.bonus[x.looks - j]
    if j == 1:
        return leaf(x, bonus)
    e = hand_entry(x)
    if e < 0:
        return tot
    waits = x.ht[e].waits
    if waits == 0 and not reachable(x, e, 2 * x.n + 2 - j):
        x.n_pruned += 1
        return tot
    memcpy(sc, x.hs[e].score, sizeof(sc))
    k1 = x.hk1 | USED
    slot = state_hash(x.hk0, k1, x.dk) & x.smask
    while x.st[slot].k1 & USED:
        se = &x.st[slot]
        if se.k1 == k1 and se.k0 == x.hk0 and se.k2 == x.dk:
            return se.v
        slot = (slot + 1) & x.smask
    x.n_states += 1
    if j == 2:
        tot = solve2(x, waits, sc, bonus)
        if x.oom:
            return tot
    else:
        tot = expand(x, j, waits, sc, bonus)
        if x.oom:
            return tot
    return store(x, k1, tot)


cdef Val store(Ctx* x, uint64_t k1, Val tot) noexcept nogil:
    cdef uint64_t slot
    cdef SEntry* se
    if 2 * (x.scount + 1) > x.smask + 1:
        if not st_grow(x):
            return tot
    slot = state_hash(x.hk0, k1, x.dk) & x.smask
    while x.st[slot].k1 & USED:
        slot = (slot + 1) & x.smask
    se = &x.st[slot]
    se.k0 = x.hk0
    se.k1 = k1
    se.k2 = x.dk
    se.v = tot
    x.scount += 1
    return tot


cdef Val expand(Ctx* x, int j, uint32_t waits, const int8_t* sc, int bonus) noexcept nogil:
    """V_j numerator (j >= 3) by expanding every draw and discard."""
    cdef Val tot, child, best, v
    cdef Val kids[21]
    cdef int done[21]
    cdef int t, y, p, q, first
    cdef int64_t F
    tot.p = 0
    tot.s = 0
    F = falling(x.u - 1, j - 1)
    for t in range(21):
        done[t] = 0
        if x.pool[t] == 0:
            continue
        if (waits >> t) & 1:
            child.p = F
            child.s = (sc[t] + bonus) * F
        else:
            p = PARTNER[t]
            if (p >= 0 and done[p] and x.pool[p] == x.pool[t] and x.h.c[p] == x.h.c[t]
                    and x.avail[p] == x.avail[t]):
                child = kids[p]                         # identical roles: same subtree
            else:
                take(x, t)
                first = 1
                for y in range(21):
                    if x.h.c[y] == 0:
                        continue
                    q = PARTNER[y]
                    if (q >= 0 and x.h.c[q] == x.h.c[y] and x.pool[q] == x.pool[y]
                            and x.avail[q] == x.avail[y]):
                        continue                        # discarding q is the same
                    drop(x, y)
                    v = solve(x, j - 1)          # j - 1 >= 2
                    put(x, y)
                    if first or better(v, best, x.objective):
                        best = v
                        first = 0
                untake(x, t)
                child = best
        kids[t] = child
        done[t] = 1
        tot.p += x.pool[t] * child.p
        tot.s += x.pool[t] * child.s
    return tot


cdef Ctx* ctx_new(pool, avail, int looks, bonus, int objective, int forms, int base_sum, int gjrv,
                  int n) except NULL:
    cdef Ctx* x = <Ctx*> calloc(1, sizeof(Ctx))
    cdef int i
    cdef const unsigned char[::1] kv
    if x == NULL:
        raise MemoryError()
    try:
        rules_init(&x.r, forms, base_sum, n, gjrv)
        hs_clear(&x.h)
        x.n = n
        x.looks = looks
        x.objective = objective
        if not 0 <= looks <= 7 or len(bonus) != looks:
            raise ValueError("looks must be 0..7, with one bonus per look")
        for i in range(looks):
            x.bonus[i] = bonus[i]
        x.u = 0
        for i in range(21):
            x.pool[i] = pool[i]
            x.avail[i] = avail[i]
            if x.pool[i] < 0 or x.avail[i] < 0:
                raise ValueError("negative count")
            x.u += x.pool[i]
        tab = _key_table(forms, n, gjrv)
        kv = tab
        x.keys = &kv[0]
        x.hmask = (1 << 12) - 1
        x.smask = (1 << 12) - 1
        x.ht = <HEntry*> calloc(x.hmask + 1, sizeof(HEntry))
        x.hs = <HSide*> calloc(x.hmask + 1, sizeof(HSide))
        x.kmask = (1 << 12) - 1
        x.kt = <KEntry*> calloc(x.kmask + 1, sizeof(KEntry))
        x.capcomps = 1 << 12
        x.comps = <Comp*> calloc(x.capcomps, sizeof(Comp))
        x.st = <SEntry*> calloc(x.smask + 1, sizeof(SEntry))
        if x.ht == NULL or x.hs == NULL or x.st == NULL or x.kt == NULL or x.comps == NULL:
            raise MemoryError()
    except BaseException:
        ctx_free(x)
        raise
    return x


cdef void ctx_free(Ctx* x) noexcept nogil:
    if x != NULL:
        free(x.ht)
        free(x.hs)
        free(x.kt)
        free(x.comps)
        free(x.st)
        free(x)


cdef void ctx_load(Ctx* x, const int* c) noexcept nogil:
    cdef int i, k
    hs_clear(&x.h)
    x.hk0 = 0
    x.hk1 = 0
    x.dk = 0
    x.bkey = BKEY_BASE
    for i in range(21):
        for k in range(c[i]):
            put(x, i)


def _solve(hands, pool, avail, int looks, bonus, int objective, int forms, int base_sum, int gjrv, int n):
    """Exact look-ahead values of several 2n+1-tile hands that share one pool.

    Parameters
    ----------
    hands : sequence of 21-count sequences
        The candidate hands (2n+1 tiles each).
    pool : 21 counts
        The unseen pool the looks are drawn from (the same for every hand).
    avail : 21 counts
        An upper bound of hand + pool over the whole horizon (the overlap bound's supply).
    looks : int
        Looks in the horizon (0..8; the Python front allows at most 4).
    bonus : sequence of ``looks`` ints
        Points added to a win on look i (1: own draw, self-drawn; 0: claimed discard).
    objective : int
        0: maximise P(win), ties by E[score]; 1: maximise E[score], ties by P(win).

    Returns
    -------
    dict
        ``p`` and ``s`` (lists of int numerators of P(win) and E[score], one per hand),
        ``denominator`` (u (u-1) ... (u-looks+1)), and the counters ``states``,
        ``hands``, ``overlap_searches``, ``pruned``.
    """
    cdef Ctx* x = ctx_new(pool, avail, looks, bonus, objective, forms, base_sum, gjrv, n)
    cdef int c[21]
    cdef int i, k, m, size
    cdef Val v
    cdef int64_t[:, ::1] hv
    cdef int64_t[::1] po
    cdef int64_t[::1] so
    try:
        arr = np.ascontiguousarray(np.asarray(hands, dtype=np.int64).reshape(-1, 21))
        hv = arr
        m = arr.shape[0]
        for i in range(m):
            size = 0
            for k in range(21):
                if hv[i, k] < 0 or hv[i, k] > 15:
                    raise ValueError("hand counts must be 0..15")
                size += hv[i, k]
            if size != 2 * n + 1:
                raise ValueError(f"hand {i} has {size} tiles, expected {2 * n + 1}")
            for k in range(21):
                if hv[i, k] > x.avail[k]:
                    raise ValueError("avail must hold the hands")
        p_out = np.zeros(m, dtype=np.int64)
        s_out = np.zeros(m, dtype=np.int64)
        po = p_out
        so = s_out
        with nogil:
            for i in range(m):
                for k in range(21):
                    c[k] = <int>hv[i, k]
                ctx_load(x, c)
                if looks == 0:
                    v.p = 0
                    v.s = 0
                else:
                    v = solve(x, looks)
                po[i] = v.p
                so[i] = v.s
        if x.oom:
            raise MemoryError("look-ahead memo tables ran out of memory")
        return {
            "p": [int(a) for a in p_out], "s": [int(a) for a in s_out],
            "denominator": int(falling(x.u, looks)),
            "states": int(x.n_states), "hands": int(x.n_hands),
            "overlap_searches": int(x.n_overlap), "pruned": int(x.n_pruned),
            "leaves": int(x.n_leaf), "lookups": int(x.n_lookup),
            "checks": int(x.n_check), "wins": int(x.n_win),
        }
    finally:
        ctx_free(x)


def _balance_keys(int forms, int n, int gjrv):
    """(win keys, ready keys): the masked balance keys of the filter (for tests)."""
    wk = _win_keys(forms, n, gjrv)
    return wk, _ready_keys(wk)


def _masked_key(counts):
    """Masked balance key of a count vector (for tests)."""
    key = BKEY_BASE
    for t in range(21):
        key += int(counts[t]) * TDELTA[t]
    return key & BKEY_MASK
