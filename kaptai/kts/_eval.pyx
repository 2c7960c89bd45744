# cython: language_level=3
"""Compiled Kap Tai Shap (夾大十) evaluator: win test, best score, waits, overlap.

Arithmetic structure
--------------------
A ten pair is two tiles whose ten-values sum to 10 or 20.  With the ten-value
taken mod 10 (its *class*, 0..9) a ten pair is exactly a pair of classes
``(k, 10 - k)``: two tiles of class 0, two of class 5, or one each of classes
1&9, 2&8, 3&7, 4&6.  So a multiset of tiles splits into ten pairs iff

    C0 even, C5 even, C1 == C9, C2 == C8, C3 == C7, C4 == C6

on its class counts ``C``.  We keep the six quantities packed in one 64-bit
``key`` (one byte each: d1..d4 offset by 64, then C0 and C5), so removing a
group is one subtraction and the test is one mask and compare.  A basic win is
then "the key minus one eye is balanced", the general-eyes form is a little
arithmetic on d2 and d4, and a run is a precomputed key delta.

Exact deal tables
-----------------
``_deal_tables`` walks every count vector of a hand size once, depth first
over the tile ids (the two tiles of each identical-role pair adjacent, the
second never holding more copies than the first: canonical vectors, weighted
by a multiplicity).  Each canonical vector has a rank: one position per single
tile or pair, rank = sum over positions of the canonical vectors that agree
before the position and have a smaller state there (``rank_init``), a sum the
walk extends position by position.  The vector one tile smaller, for each
tile dropped, has a rank differing only at and before the dropped tile's
position, so it is three table reads.  The overlap tables of the distance
from ready (``kaptai.kts.odds``) are uint8 arrays indexed by these ranks.
"""
from libc.stdint cimport int64_t, uint64_t, int8_t, uint8_t, uint32_t
from libc.string cimport memset

from cpython.mem cimport PyMem_Calloc, PyMem_Free
from kaptai.core._enumerate cimport CountWalk, walk_init, walk_max, walk_pruned, walk_weight
cimport numpy as cnp
import numpy as np

cnp.import_array()

# ---------------------------------------------------------------- constants
# TV, CLS, CDELTA, KEY_BASE and CHECK_MASK are defined once, in _eval.pxd.
cdef int RV_DEFAULT[21]
cdef int64_t EYE_KEY[10]         # masked key that is balanced after removing an eye of class k
cdef int64_t GE_MASK             # d1, d3 and the two parity bits

_tv = [12, 2, 8, 4, 10, 6, 4, 11, 10, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 3, 3]
_rv = [12, 2, 8, 4, 10, 6, 4, 11, 10, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 6, 3]
for _i in range(21):
    assert TV[_i] == _tv[_i] and CLS[_i] == _tv[_i] % 10  # _eval.pxd's tables
    assert IS_PAIR_TYPE[_i] == (_tv[_i] % 5 == 0)
    RV_DEFAULT[_i] = _rv[_i]

GE_MASK = <int64_t>0xFF | (<int64_t>0xFF << 16) | (<int64_t>1 << 32) | (<int64_t>1 << 40)
for _k in range(10):
    EYE_KEY[_k] = (KEY_BASE + 2 * CDELTA[_k]) & CHECK_MASK

cdef int RUN_BASE_L[9]
RUN_BASE_L[4] = 2
RUN_BASE_L[6] = 4
RUN_BASE_L[8] = 8

cdef int64_t TILE_DELTA[21]      # key change of one tile (CDELTA of its class)
for _i in range(21):
    TILE_DELTA[_i] = CDELTA[_tv[_i] % 10]

# interchangeable eye tiles (same ten-value class and run-value; 2-4 and 1-2 stand alone)
cdef int EYE_GROUP[21]
_groups = {}
for _i in range(21):
    _key = (_tv[_i] % 10, _rv[_i], _i == 19)
    EYE_GROUP[_i] = _groups.setdefault(_key, len(_groups))
assert len(_groups) <= 12, _groups
cdef int CLASS_IDS[10][4]        # tile ids of each ten-value class
cdef int CLASS_NIDS[10]
cdef unsigned int CLASS_BITS[10]  # the same, as a bit set
for _k in range(10):
    CLASS_NIDS[_k] = 0
    CLASS_BITS[_k] = 0
for _i in range(21):
    _k = _tv[_i] % 10
    CLASS_IDS[_k][CLASS_NIDS[_k]] = _i
    CLASS_NIDS[_k] += 1
    CLASS_BITS[_k] |= 1u << _i
    assert ((ODD_BITS >> _i) & 1) == (_tv[_i] & 1) and ((PAIR_TYPE_BITS >> _i) & 1) == IS_PAIR_TYPE[_i]

# key change of removing a run v..v+L-1; [gee_joon 6|3][L][v][2-4 taken as the tile of its value]
cdef int64_t RUN_DELTA[2][9][13][2]
for _g, _gv in enumerate((6, 3)):
    for _L in (4, 6, 8):
        for _v in range(2, 14 - _L):
            for _ch in range(2):
                _d = 0
                for _w in range(_v, _v + _L):
                    _d += CDELTA[3] if (_w == _gv and _ch) else CDELTA[_w % 10]
                RUN_DELTA[_g][_L][_v][_ch] = _d

# signatures (masked keys) of hands that an eye of class k + a run could make balanced
cdef int64_t SIG_VALS[2][512]
cdef int SIG_START[2][513]
cdef struct SigCand:      # a run v..v+L-1 (ch: 2-4 counts as the tile of its value) + an eye of class k
    uint8_t L
    uint8_t v
    uint8_t ch
    uint8_t k
cdef SigCand SIG_CAND[2][1024]
cdef int N_SIG[2]
cdef enum:
    SIG_HASH_BITS = 12
    SIG_HASH_SIZE = 4096
cdef int SIG_HASH_IDX[2][4096]
for _g, _gv in enumerate((6, 3)):
    _sigs = {}
    for _L in (4, 6, 8):
        for _v in range(2, 14 - _L):
            for _ch in range(2):
                if _ch and not (_v <= _gv < _v + _L):
                    continue
                for _k in range(10):
                    _sig = (KEY_BASE + RUN_DELTA[_g][_L][_v][_ch] + 2 * CDELTA[_k]) & CHECK_MASK
                    _sigs.setdefault(_sig, []).append((_L, _v, _ch, _k))
    _order = sorted(_sigs)
    assert len(_order) <= 512 and sum(len(x) for x in _sigs.values()) <= 1024
    N_SIG[_g] = len(_order)
    _pos = 0
    for _j, _sig in enumerate(_order):
        SIG_VALS[_g][_j] = _sig
        SIG_START[_g][_j] = _pos
        for _c in _sigs[_sig]:
            SIG_CAND[_g][_pos].L, SIG_CAND[_g][_pos].v, SIG_CAND[_g][_pos].ch, SIG_CAND[_g][_pos].k = _c
            _pos += 1
    SIG_START[_g][len(_order)] = _pos
    for _j in range(SIG_HASH_SIZE):
        SIG_HASH_IDX[_g][_j] = -1
    for _j, _sig in enumerate(_order):
        _slot = ((_sig * 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF) >> (64 - SIG_HASH_BITS)
        while SIG_HASH_IDX[_g][_slot] >= 0:
            _slot = (_slot + 1) & (SIG_HASH_SIZE - 1)
        SIG_HASH_IDX[_g][_slot] = _j


cdef inline int popcount(unsigned int v) noexcept nogil:
    """Bits set in v (portable SWAR count: the build does not assume a POPCNT
    instruction, and the library call it would otherwise make is slower)."""
    v = v - ((v >> 1) & 0x55555555u)
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u)
    v = (v + (v >> 4)) & 0x0F0F0F0Fu
    return <int>((v * 0x01010101u) >> 24)


cdef inline bint run_allowed(const EvalRules* r, int L) noexcept nogil:
    """Is a run of length L (4, 6, 8) one of the ruleset's forms, and does it fit the hand?"""
    return (r.forms & (FORM_RUN4 << (L // 2 - 2))) != 0 and r.n - L // 2 >= 0


cdef inline int field(int64_t key, int j) noexcept nogil:
    """Signed d_j (j = 1..4) of a key."""
    return <int>((key >> (8 * (j - 1))) & 0xFF) - 64


# ---------------------------------------------------------------- hand state
cdef void rules_init(EvalRules* r, int forms, int base_sum, int n, int gee_joon_run_value) noexcept nogil:
    cdef int i
    r.forms = forms
    r.base_sum = base_sum
    r.n = n
    for i in range(21):
        r.rv[i] = RV_DEFAULT[i]
    r.rv[19] = gee_joon_run_value


cdef void hs_clear(HandState* h) noexcept nogil:
    memset(h.c, 0, sizeof(h.c))
    memset(h.rvc, 0, sizeof(h.rvc))
    h.key = KEY_BASE
    h.size = 0
    h.code = 0
    h.rvp = 0
    memset(h.at_least, 0, sizeof(h.at_least))


# ---------------------------------------------------------------- run helpers
cdef inline bint run_available(const HandState* h, const EvalRules* r, int eye, int L, int v,
                               int choice19) noexcept nogil:
    """Can the hand, after removing the eye (two copies of id ``eye``), supply one
    tile of each run-value v..v+L-1?  ``choice19`` says the tile of value
    ``r.rv[19]`` is 2-4 itself (1) or another tile of that value (0)."""
    cdef int w, avail, gv = r.rv[19]
    for w in range(v, v + L):
        if w == gv:
            if choice19:
                avail = h.c[19] - (2 if eye == 19 else 0)
            else:
                avail = h.rvc[w] - h.c[19]
                if eye >= 0 and eye != 19 and r.rv[eye] == w:
                    avail -= 2
        else:
            avail = h.rvc[w]
            if eye >= 0 and r.rv[eye] == w:
                avail -= 2
        if avail < 1:
            return False
    return True


# ---------------------------------------------------------------- win and score
cdef inline bint basic_possible(const HandState* h, int64_t key) noexcept nogil:
    """Is ``key`` (the hand's tiles minus some groups) one eye away from balanced,
    with an eye available in the hand's counts?  (Counts are those of ``h``: an id of the
    eye's class held at least twice, HandState.at_least[2].)"""
    cdef int64_t m = key & CHECK_MASK
    cdef int k
    for k in range(10):
        if m == EYE_KEY[k] and h.at_least[2] & CLASS_BITS[k]:
            return True
    return False


cdef inline int ge_max_k(const HandState* h, int* g_out) noexcept nogil:
    """Largest number k of general eyes such that the rest splits into ten pairs
    (no ordinary eye), or -1.  Fills g_out[0..3] with the eyes taken per id."""
    cdef int64_t key = h.key
    cdef int d2, d4, m, A, B, g2, g3, g01, g0
    if (key & GE_MASK) != (KEY_BASE & GE_MASK):
        return -1
    d2 = field(key, 2)
    d4 = field(key, 4)
    if (d2 & 1) or (d4 & 1) or d4 < 0:
        return -1
    g3 = d4 // 2
    if g3 > h.c[3] // 2:
        return -1
    m = d2 // 2
    A = h.c[0] // 2 + h.c[1] // 2
    B = h.c[2] // 2
    g2 = B if B < A - m else A - m
    if g2 < 0 or g2 < -m:
        return -1
    g01 = m + g2
    g0 = h.c[0] // 2 if h.c[0] // 2 < g01 else g01
    g_out[0] = g0
    g_out[1] = g01 - g0
    g_out[2] = g2
    g_out[3] = g3
    return g3 + g01 + g2


cdef bint hs_is_win(const HandState* h, const EvalRules* r) noexcept nogil:
    cdef int64_t key = h.key
    cdef int g[4]
    cdef int L, v, ch, k, e
    cdef int64_t m
    if r.forms & FORM_BASIC:
        if basic_possible(h, key):
            return True
    if r.forms & FORM_GENERAL_EYES:
        k = ge_max_k(h, g)
        if k >= 2:
            return True
    if r.forms & (FORM_RUN4 | FORM_RUN6 | FORM_RUN8):
        return runs_win(h, r, key)
    return False


cdef inline int find_sig(int g, int64_t sig) noexcept nogil:
    """Index of ``sig`` in the signature table of gee-joon setting g, or -1
    (open addressing: one multiply and usually one probe)."""
    cdef uint64_t slot = (<uint64_t>sig * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - SIG_HASH_BITS)
    while SIG_HASH_IDX[g][slot] >= 0:
        if SIG_VALS[g][SIG_HASH_IDX[g][slot]] == sig:
            return SIG_HASH_IDX[g][slot]
        slot = (slot + 1) & (SIG_HASH_SIZE - 1)
    return -1


cdef bint runs_win(const HandState* h, const EvalRules* r, int64_t key) noexcept nogil:
    """Is there an eye + run + ten pairs decomposition (run forms allowed by r)?

    Removing a run and an eye of class k leaves balanced ten pairs only if the
    hand's masked key equals ``(KEY_BASE + run delta + 2 * CDELTA[k])`` masked:
    a sorted table of those signatures (a few hundred) rejects almost every
    hand with one binary search; the few candidates left are checked for the
    tiles themselves."""
    cdef int g = 0 if r.rv[19] == 6 else 1, gv = r.rv[19]
    cdef int idx, j, L, v, ch, k, jj, e
    cdef unsigned int pres0, pres1, mask, pres
    idx = find_sig(g, key & CHECK_MASK)
    if idx < 0:
        return False
    # run values present (HandState.rvp); the value of 2-4 counts 2-4 itself (pres1) or
    # another tile of that value (pres0)
    pres0 = h.rvp & ~(1u << gv)
    pres1 = pres0
    if h.rvc[gv] - h.c[19] >= 1:
        pres0 |= 1u << gv
    if h.c[19] >= 1:
        pres1 |= 1u << gv
    for j in range(SIG_START[g][idx], SIG_START[g][idx + 1]):
        L, v, ch, k = SIG_CAND[g][j].L, SIG_CAND[g][j].v, SIG_CAND[g][j].ch, SIG_CAND[g][j].k
        if not run_allowed(r, L):
            continue
        mask = ((1u << L) - 1) << v
        pres = pres1 if ch else pres0
        if (pres & mask) != mask:
            continue
        for jj in range(CLASS_NIDS[k]):
            e = CLASS_IDS[k][jj]
            if h.c[e] >= 2 and run_available(h, r, e, L, v, ch):
                return True
    return False


cdef int hs_score(const HandState* h, const EvalRules* r, int* form_out, int* specials_out) noexcept nogil:
    """Best score (advanced table, no self-draw or streak) or -1; best form code
    (0 basic, 1 general eyes, 2 run4, 3 run6, 4 run8) and the special flags."""
    cdef int64_t key = h.key
    cdef int best = -1, best_form = -1, specials = 0
    cdef int e, i, s, ap, L, v, ch, k, non_pair_tiles, odd_pair_type
    cdef int all_even, all_odd, gi, idx, j
    cdef int g[4]
    cdef Patterns p
    hs_patterns(h, &p)
    all_even = p.all_even
    all_odd = p.all_odd
    non_pair_tiles = p.non_pair_tiles
    odd_pair_type = p.odd_pair_type
    if r.forms & FORM_BASIC:
        best = hs_basic_score(h, &p, r.base_sum, &ap)
        if ap:
            specials |= SPECIAL_ALL_PAIRS
        if best >= 0:
            best_form = 0
    if r.forms & FORM_GENERAL_EYES:
        k = ge_max_k(h, g)
        if k >= 2:
            specials |= SPECIAL_GENERAL_EYES
            ap = 0
            if not odd_pair_type and non_pair_tiles == 2 * k:
                ap = 1
                specials |= SPECIAL_ALL_PAIRS
            s = combine(2, all_even, all_odd, ap, r.base_sum) + k
            if s > best:
                best = s
                best_form = 1
    if r.forms & (FORM_RUN4 | FORM_RUN6 | FORM_RUN8):
        # the run decompositions whose key signature matches (runs_win's table, its
        # candidates in (L, v, ch, eye class) order), each checked on the counts
        gi = 0 if r.rv[19] == 6 else 1
        idx = find_sig(gi, key & CHECK_MASK)
        if idx >= 0:
            for j in range(SIG_START[gi][idx], SIG_START[gi][idx + 1]):
                L, v, ch, k = SIG_CAND[gi][j].L, SIG_CAND[gi][j].v, SIG_CAND[gi][j].ch, SIG_CAND[gi][j].k
                if not run_allowed(r, L) or not run_available(h, r, -1, L, v, ch):
                    continue
                for i in range(CLASS_NIDS[k]):
                    e = CLASS_IDS[k][i]
                    if h.c[e] >= 2 and run_available(h, r, e, L, v, ch):
                        specials |= (SPECIAL_RUN4 if L == 4 else (SPECIAL_RUN6 if L == 6 else SPECIAL_RUN8))
                        s = combine(RUN_BASE_L[L], 0, 0, 0, r.base_sum) + (1 if e < 4 else 0)
                        if s > best:
                            best = s
                            best_form = L // 2
    if best >= 0:
        if all_even:
            specials |= SPECIAL_ALL_EVEN
        if all_odd:
            specials |= SPECIAL_ALL_ODD
    else:
        specials = 0
    form_out[0] = best_form
    specials_out[0] = specials
    return best


cdef inline bint may_win(int64_t key, const EvalRules* r) noexcept nogil:
    """Necessary condition for a win, from the balance key alone (no counts):
    some eye class, the general-eye arithmetic or a run signature must match.
    Rejects almost every non-winning hand before any counting."""
    cdef int64_t m = key & CHECK_MASK
    cdef int k, d2, d4
    if r.forms & (FORM_BASIC | FORM_RUN4 | FORM_RUN6 | FORM_RUN8):
        for k in range(10):
            if m == EYE_KEY[k]:
                return True
    if r.forms & FORM_GENERAL_EYES and (key & GE_MASK) == (KEY_BASE & GE_MASK):
        d2 = field(key, 2)
        d4 = field(key, 4)
        if not (d2 & 1) and not (d4 & 1) and d4 >= 0:
            return True
    if r.forms & (FORM_RUN4 | FORM_RUN6 | FORM_RUN8):
        if find_sig(0 if r.rv[19] == 6 else 1, m) >= 0:
            return True
    return False


cdef int hs_waits(HandState* h, const EvalRules* r, int* out) noexcept nogil:
    """out[t] = 1 where adding tile t makes a win; returns the number of such t."""
    cdef int t, n = 0
    for t in range(21):
        out[t] = 0
        if not may_win(h.key + TILE_DELTA[t], r):
            continue
        hs_add(h, t, r)
        out[t] = hs_is_win(h, r)
        n += out[t]
        hs_remove(h, t, r)
    return n


# ---------------------------------------------------------------- overlap (distance)
cdef inline int pair_overlap(const int* cr, const int* co, int m) noexcept nogil:
    """Largest number of tiles of ``cr`` (class counts) that m ten-pair slots can
    hold, the other half of a slot coming from the outside supply ``co``."""
    cdef int F = 0, S = 0, j, a, b, f, use
    F = cr[0] // 2 + cr[5] // 2
    if cr[0] & 1 and co[0] >= 1:
        S += 1
    if cr[5] & 1 and co[5] >= 1:
        S += 1
    for j in range(1, 5):
        a = cr[j]
        b = cr[10 - j]
        if a >= b:
            F += b
            S += a - b if a - b < co[10 - j] else co[10 - j]
        else:
            F += a
            S += b - a if b - a < co[j] else co[j]
    f = F if F < m else m
    use = m - f
    return 2 * f + (S if S < use else use)


cdef inline int bucket_of(int i, const EvalRules* r) noexcept nogil:
    """Run bucket of a tile: its run-value, except 2-4 valued 6 gets bucket 13
    (it is a class-3 tile among the class-6 tiles of value 6)."""
    if i == 19 and r.rv[19] == 6:
        return 13
    return r.rv[i]


cdef inline int run_fill(const int* cr, const int* co, const int* hb, const int* ob,
                         int L, int v, int gj6, int m) noexcept nogil:
    """Best overlap of a run v..v+L-1 plus m ten pairs.  cr/co: class counts of
    the hand tiles still free / of the outside supply; hb/ob: the same per run
    bucket.  A value is filled by a hand tile when there is one (swapping it
    for an outside tile of the same class never helps), else from outside; at
    value 6 (when 2-4 counts 6) the class-6 and class-3 tiles are both tried."""
    cdef int lcr[10]
    cdef int lco[10]
    cdef int i, w, ov = 0, best = -1, got, opt, kls, from_hand
    for i in range(10):
        lcr[i] = cr[i]
        lco[i] = co[i]
    for w in range(v, v + L):
        if gj6 and w == 6:
            continue
        if hb[w] >= 1:
            ov += 1
            lcr[w % 10] -= 1
        elif ob[w] >= 1:
            lco[w % 10] -= 1
        else:
            return -1
    if not (gj6 and v <= 6 < v + L):
        return ov + pair_overlap(lcr, lco, m)
    for opt in range(2):
        kls = 6 if opt == 0 else 3
        i = 6 if opt == 0 else 13
        if hb[i] >= 1:
            from_hand = 1
            lcr[kls] -= 1
        elif ob[i] >= 1:
            from_hand = 0
            lco[kls] -= 1
        else:
            continue
        got = ov + from_hand + pair_overlap(lcr, lco, m)
        if got > best:
            best = got
        if from_hand:
            lcr[kls] += 1
        else:
            lco[kls] += 1
    return best


cdef inline int ge_overlap(const int* c, const int* copies, const int* CR, const int* CO, const int* gi,
                           int k, int n, int best) noexcept nogil:
    """Overlap of the general eyes ``gi[0..3]`` (k in all) + n + 1 - k ten pairs,
    or -1 when they do not fit the supply or cannot beat ``best``."""
    cdef int cr[10]
    cdef int co[10]
    cdef int i, use, need, ov = 0
    for i in range(4):
        use = c[i] if c[i] < 2 * gi[i] else 2 * gi[i]
        if copies[i] - c[i] < 2 * gi[i] - use:
            return -1
        ov += use
    if ov + 2 * (n + 1 - k) <= best:
        return -1
    for i in range(10):
        cr[i] = CR[i]
        co[i] = CO[i]
    for i in range(4):
        use = c[i] if c[i] < 2 * gi[i] else 2 * gi[i]
        need = 2 * gi[i] - use
        cr[CLS[i]] -= use
        co[CLS[i]] -= need
    return ov + pair_overlap(cr, co, n + 1 - k)


cdef int max_overlap(const int* c, const int* copies, const EvalRules* r, int ceiling) noexcept nogil:
    """Largest number of the hand's tiles that a feasible winning hand shares.

    A winning hand W of 2n+2 tiles is feasible when ``W[i] <= copies[i]``; the
    overlap is ``sum(min(c[i], W[i]))``.  ``ceiling`` is an upper bound the
    caller already knows (e.g. 2n for a 2n+1-tile hand known not to be ready):
    the search stops as soon as it is reached.

    Exact: every eye id, every general-eye split and every run placement is
    tried; the ten pairs are solved in closed form by ``pair_overlap``; a run
    whose upper bound (eye + run values the hand holds + best pairs before the
    run is removed, which can only shrink) cannot beat the best is skipped.
    The bounds rest on ``pair_overlap`` never decreasing when the hand's or
    the supply's class counts grow.  Before the eyes are tried for runs, one
    bound for the whole hand (no eye removed) skips every eye whose tiles from
    the hand plus that bound cannot beat the best; the eyes are tried with two
    tiles from the hand first, so the best rises early.
    """
    cdef int CR[10]
    cdef int CO[10]
    cdef int HB[14]
    cdef int OB[14]
    cdef int cr[10]
    cdef int co[10]
    cdef int hb[14]
    cdef int ob[14]
    cdef int pbL[9]
    cdef int n = r.n, size = 0, best = 0, cap, e, i, j, use, need, L, v, got, m, b, kls
    cdef int gj6 = r.rv[19] == 6, present, g0, g1, g2, g3, k, hand_bound
    cdef int tried[12]
    cdef int gi[4]
    cdef int lim[4]
    cdef int half[4]
    cdef int by_use[3][12]
    cdef int n_by_use[3]
    for i in range(10):
        CR[i] = 0
        CO[i] = 0
    for i in range(14):
        HB[i] = 0
        OB[i] = 0
    for i in range(21):
        size += c[i]
        CR[CLS[i]] += c[i]
        CO[CLS[i]] += copies[i] - c[i]
        b = bucket_of(i, r)
        HB[b] += c[i]
        OB[b] += copies[i] - c[i]
    cap = size if size < 2 * n + 2 else 2 * n + 2
    if ceiling < cap:
        cap = ceiling
    # the eyes: one per (group, tiles from the hand) -- tiles of one class and run
    # bucket are interchangeable as an eye, the result depends only on that pair.
    # Cheap forms first (basic for every eye, then general eyes), runs last: most
    # hands reach the ceiling before the run search starts
    for i in range(12):
        tried[i] = 0
    n_by_use[0] = 0
    n_by_use[1] = 0
    n_by_use[2] = 0
    for e in range(21):
        if copies[e] < 2:
            continue
        use = c[e] if c[e] < 2 else 2
        if copies[e] - c[e] < 2 - use or tried[EYE_GROUP[e]] & (1 << use):
            continue
        tried[EYE_GROUP[e]] |= 1 << use
        by_use[use][n_by_use[use]] = e
        n_by_use[use] += 1
        if r.forms & FORM_BASIC:
            for i in range(10):
                cr[i] = CR[i]
                co[i] = CO[i]
            cr[CLS[e]] -= use
            co[CLS[e]] -= 2 - use
            got = use + pair_overlap(cr, co, n)
            if got > best:
                best = got
                if best >= cap:
                    return cap
    if r.forms & FORM_GENERAL_EYES:
        # k >= 2 general eyes from ids 0..3 and n + 1 - k ten pairs.  A general eye
        # taken wholly from outside the hand is worth no more than a ten-pair slot
        # filled from outside: such eyes only serve to reach k = 2.  So: (a) every
        # split within half[i] = ceil(c[i] / 2) eyes per id, 2 <= k <= n + 1; (b) the
        # splits of k = 2 with an eye beyond half[i] (at most two beyond it).
        for i in range(4):
            half[i] = (c[i] + 1) // 2
            lim[i] = half[i] + 2
            if lim[i] > copies[i] // 2:
                lim[i] = copies[i] // 2
        for g0 in range((half[0] if half[0] < lim[0] else lim[0]) + 1):
            gi[0] = g0
            for g1 in range((half[1] if half[1] < lim[1] else lim[1]) + 1):
                gi[1] = g1
                for g2 in range((half[2] if half[2] < lim[2] else lim[2]) + 1):
                    gi[2] = g2
                    for g3 in range((half[3] if half[3] < lim[3] else lim[3]) + 1):
                        gi[3] = g3
                        k = g0 + g1 + g2 + g3
                        if k < 2:
                            continue
                        if k > n + 1:
                            break
                        got = ge_overlap(c, copies, CR, CO, gi, k, n, best)
                        if got > best:
                            best = got
                            if best >= cap:
                                return cap
        for i in range(4):
            for j in range(i, 4):
                gi[0] = 0
                gi[1] = 0
                gi[2] = 0
                gi[3] = 0
                gi[i] += 1
                gi[j] += 1
                if gi[i] > lim[i] or gi[j] > lim[j]:
                    continue
                if gi[i] <= half[i] and gi[j] <= half[j]:
                    continue                                    # in (a)
                got = ge_overlap(c, copies, CR, CO, gi, 2, n, best)
                if got > best:
                    best = got
                    if best >= cap:
                        return cap
    if not (r.forms & (FORM_RUN4 | FORM_RUN6 | FORM_RUN8)):
        return best
    # runs: eye + run + ten pairs.  hand_bound: most hand tiles a run and its ten
    # pairs can hold with no eye removed (the eye only lowers both terms)
    present = 0
    for i in range(2, 14):
        if HB[i] >= 1:
            present |= 1 << (6 if i == 13 else i)
    hand_bound = -1
    for L in range(8, 3, -2):
        if not run_allowed(r, L):
            continue
        pbL[L] = pair_overlap(CR, CO, n - L // 2)
        for v in range(2, 14 - L):
            got = popcount(present & (((1 << L) - 1) << v)) + pbL[L]
            if got > hand_bound:
                hand_bound = got
    for use in range(2, -1, -1):
        if use + hand_bound <= best:
            break
        for j in range(n_by_use[use]):
            if use + hand_bound <= best:
                break
            e = by_use[use][j]
            need = 2 - use
            for i in range(10):
                cr[i] = CR[i]
                co[i] = CO[i]
            kls = CLS[e]
            cr[kls] -= use
            co[kls] -= need
            for i in range(14):
                hb[i] = HB[i]
                ob[i] = OB[i]
            b = bucket_of(e, r)
            hb[b] -= use
            ob[b] -= need
            present = 0
            for i in range(2, 14):
                if hb[i] >= 1:
                    present |= 1 << (6 if i == 13 else i)
            for L in range(8, 3, -2):
                if not run_allowed(r, L):
                    continue
                m = n - L // 2
                pbL[L] = pair_overlap(cr, co, m)
                for v in range(2, 14 - L):
                    if use + popcount(present & (((1 << L) - 1) << v)) + pbL[L] <= best:
                        continue
                    got = run_fill(cr, co, hb, ob, L, v, gj6, m)
                    if got >= 0 and use + got > best:
                        best = use + got
                        if best >= cap:
                            return cap
    return best


# ---------------------------------------------------------------- Python batch API
cdef inline void hs_load(HandState* h, const int8_t[:, ::1] tiles, Py_ssize_t i, const EvalRules* r) noexcept nogil:
    """Reset ``h`` to the hand in row i of ``tiles``."""
    cdef Py_ssize_t j
    hs_clear(h)
    for j in range(tiles.shape[1]):
        hs_add(h, tiles[i, j], r)


def _score_batch(const int8_t[:, ::1] tiles, int forms, int base_sum, int gjrv):
    """Best score of each row (or -1); rows are hands of 2n+2 tile ids."""
    cdef Py_ssize_t N = tiles.shape[0], m = tiles.shape[1], i, j
    cdef EvalRules r
    cdef HandState h
    cdef int form, specials
    cdef int64_t key
    out = np.empty(N, dtype=np.int32)
    cdef int[::1] o = out
    rules_init(&r, forms, base_sum, (m - 2) // 2, gjrv)
    with nogil:
        for i in range(N):
            key = KEY_BASE
            for j in range(m):
                key += TILE_DELTA[tiles[i, j]]
            if not may_win(key, &r):
                o[i] = -1
                continue
            hs_load(&h, tiles, i, &r)
            if hs_is_win(&h, &r):
                o[i] = hs_score(&h, &r, &form, &specials)
            else:
                o[i] = -1
    return out


def _classify_batch(const int8_t[:, ::1] tiles, int forms, int base_sum, int gjrv):
    """(score, form code, special flags) of each row."""
    cdef Py_ssize_t N = tiles.shape[0], m = tiles.shape[1], i, j
    cdef EvalRules r
    cdef HandState h
    cdef int form, specials
    score = np.empty(N, dtype=np.int32)
    formo = np.empty(N, dtype=np.int8)
    spec = np.empty(N, dtype=np.int16)
    cdef int[::1] so = score
    cdef int8_t[::1] fo = formo
    cdef short[::1] po = spec
    rules_init(&r, forms, base_sum, (m - 2) // 2, gjrv)
    with nogil:
        for i in range(N):
            hs_load(&h, tiles, i, &r)
            so[i] = hs_score(&h, &r, &form, &specials)
            fo[i] = form
            po[i] = specials
    return score, formo, spec


def _waits_batch(const int8_t[:, ::1] tiles, int forms, int base_sum, int gjrv):
    """(N, 21) bool: adding tile t to row i makes a win."""
    cdef Py_ssize_t N = tiles.shape[0], m = tiles.shape[1], i, j
    cdef EvalRules r
    cdef HandState h
    cdef int w[21]
    out = np.zeros((N, 21), dtype=np.bool_)
    cdef cnp.npy_bool[:, ::1] o = out
    rules_init(&r, forms, base_sum, (m - 1) // 2, gjrv)
    with nogil:
        for i in range(N):
            hs_load(&h, tiles, i, &r)
            hs_waits(&h, &r, w)
            for j in range(21):
                o[i, j] = w[j]
    return out


def _max_overlap_counts(counts, copies, int forms, int base_sum, int gjrv, int n):
    """Max overlap of one count vector with a feasible winning hand."""
    cdef int c[21]
    cdef int k[21]
    cdef EvalRules r
    cdef int i
    for i in range(21):
        c[i] = counts[i]
        k[i] = copies[i]
    rules_init(&r, forms, base_sum, n, gjrv)
    return max_overlap(c, k, &r, 2 * n + 2)


# ---------------------------------------------------------------- exact deal tables
cdef enum:
    MAX_SCORE = 64
    MAX_LIVE = 200
    DIST_OFFSET = 1           # distance -1 (complete) is stored at index 0
    N_POS = 15                # ranking positions: 9 single tiles and 6 identical-role pairs
    RANK_MAX = 10             # largest hand size the rank tables cover
    RANK_STATES = 66          # states of a pair position: (x, y), y <= x <= 10

cdef int SYM_PARTNER[21]      # tiles that play identical roles: (4,8) (5,10) (11,12) (13,14) (15,16) (17,18)
for _i in range(21):
    SYM_PARTNER[_i] = -1
for _a, _b in ((4, 8), (5, 10), (11, 12), (13, 14), (15, 16), (17, 18)):
    SYM_PARTNER[_b] = _a

# The walk visits the tile ids in this order (the two tiles of each pair adjacent), and a
# canonical count vector is one "position" per single tile or pair; DEPTH_POS maps a depth
# of the walk to its position, POS_IDS lists a position's ids (POS_NIDS of them).
cdef int ORDER[21]
cdef int DEPTH_POS[21]
cdef int POS_IDS[15][2]
cdef int POS_NIDS[15]
cdef int TRI[12]              # x (x + 1) / 2: pair state (x, y) has index TRI[x] + y
_order = [0, 1, 2, 3, 4, 8, 5, 10, 6, 7, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
_q = -1
for _d, _i in enumerate(_order):
    ORDER[_d] = _i
    if SYM_PARTNER[_i] < 0:
        _q += 1
        POS_IDS[_q][0] = _i
        POS_NIDS[_q] = 1
    else:
        POS_IDS[_q][1] = _i
        POS_NIDS[_q] = 2
    DEPTH_POS[_d] = _q
assert _q == N_POS - 1
for _x in range(12):
    TRI[_x] = _x * (_x + 1) // 2


cdef struct DealCtx:
    EvalRules r
    HandState hs
    int K[21]
    CountWalk walk            # bounds and weights of the count-vector walk (kaptai/core/_enumerate.pxd)
    int size                  # hand size being enumerated
    int complete              # 1: hands of 2n+2 (first hand); 0: 2n+1 (other hands)
    int do_distance
    int table_only            # 1: only write max_overlap of each hand to ``out``
    uint64_t total
    uint64_t vectors
    uint64_t win
    uint64_t score_hist[64]
    uint64_t form_hist[5]
    uint64_t special_hist[7]
    uint64_t dist_hist[16]
    uint64_t ready
    uint64_t ready_any
    uint64_t waits_hist[22]
    uint64_t live_hist[200]
    uint64_t waits_weighted   # sum over ready hands of weight * number of live waits
    # ranks of canonical count vectors (see rank_init); only with rank_on
    int rank_on
    uint32_t N[16][11]        # canonical vectors over positions q.. holding r tiles
    uint32_t G[15][11][66]    # canonical vectors over positions q.. holding r tiles, state < s at q
    int rq[15]                # tiles held by positions q.. of the current vector
    int64_t PR[16]            # sum over positions < q of G[q][rq][state]: the rank, built on the way down
    int64_t PA[16]            # the same with rq - 1: the rank of a vector one tile smaller, before q
    const uint8_t* prev       # max overlap of every canonical hand of size - 1, by rank (or NULL)
    uint8_t* out              # written: max overlap of every canonical hand of size, by rank (or NULL)


cdef bint rank_init(DealCtx* x) noexcept nogil:
    """Rank tables of the canonical count vectors (a pair's second tile never
    has more copies than its first) of up to RANK_MAX tiles: a vector with
    state s_q at position q and r_q tiles at positions q.. has rank
    ``sum_q G[q][r_q][s_q]``, a bijection onto 0 .. N[0][size] - 1.  A pair's
    state is TRI[x] + y for counts (x, y).  False if the pairs' copies differ."""
    cdef int q, r, s, a, cx, cy, sz, lim
    cdef uint32_t acc
    for q in range(N_POS):
        if POS_NIDS[q] == 2 and x.K[POS_IDS[q][0]] != x.K[POS_IDS[q][1]]:
            return False
    for r in range(RANK_MAX + 1):
        x.N[N_POS][r] = 1 if r == 0 else 0
    for q in range(N_POS - 1, -1, -1):
        a = POS_IDS[q][0]
        lim = x.K[a] if x.K[a] < RANK_MAX else RANK_MAX
        for r in range(RANK_MAX + 1):
            acc = 0
            for s in range(RANK_STATES):
                x.G[q][r][s] = acc
                if POS_NIDS[q] == 1:
                    if s > lim:
                        continue
                    sz = s
                else:
                    cx = 0
                    while TRI[cx + 1] <= s:
                        cx += 1
                    cy = s - TRI[cx]
                    if cx > lim:
                        continue
                    sz = cx + cy
                if sz <= r:
                    acc += x.N[q + 1][r - sz]
            x.N[q][r] = acc
    x.rank_on = 1
    return True


cdef inline void rank_step(DealCtx* x, int q, int s) noexcept nogil:
    """Position q of the current vector takes state s: extend the rank sums."""
    cdef int r = x.rq[q]
    x.PR[q + 1] = x.PR[q] + x.G[q][r][s]
    x.PA[q + 1] = x.PA[q] + (x.G[q][r - 1][s] if r >= 1 else 0)


cdef int best_sub_overlap(DealCtx* x, int cap) noexcept nogil:
    """Largest ``prev`` entry (max overlap of a hand one tile smaller) over the
    hands made by dropping one tile of the current hand; stops at ``cap``.

    The rank of the smaller hand differs from the current one only in the
    terms of the positions up to the dropped tile's, so it is three table
    reads.  Dropping the first tile of a pair whose two counts are equal gives
    (up to the symmetry) the same hand as dropping the second, so only the
    canonical drops are looked at."""
    cdef int64_t R = x.PR[N_POS], base
    cdef int q, r, cx, cy, v, best = 0
    cdef const int* c = x.hs.c
    for q in range(N_POS):
        cx = c[POS_IDS[q][0]]
        if cx == 0:
            continue
        r = x.rq[q]
        base = x.PA[q] + R - x.PR[q + 1]
        if POS_NIDS[q] == 1:
            v = x.prev[base + x.G[q][r - 1][cx - 1]]
        else:
            cy = c[POS_IDS[q][1]]
            v = 0
            if cy > 0:
                v = x.prev[base + x.G[q][r - 1][TRI[cx] + cy - 1]]
            if cx > cy and v < cap:
                cy = x.prev[base + x.G[q][r - 1][TRI[cx - 1] + cy]]
                if cy > v:
                    v = cy
        if v > best:
            best = v
            if best >= cap:
                return best
    return best


cdef bint one_exchange_wins(HandState* h, const int* K, const EvalRules* r) noexcept nogil:
    """Does throwing one tile of the (non-winning) hand and taking one tile still
    available make a win?  Exactly "max overlap = hand size - 1".  The balance
    key rejects almost every exchange before any counting (see may_win)."""
    cdef int out, t
    cdef bint won
    for out in range(21):
        if h.c[out] == 0:
            continue
        hs_remove(h, out, r)
        for t in range(21):
            if t == out or h.c[t] + 1 > K[t]:
                continue
            if not may_win(h.key + TILE_DELTA[t], r):
                continue
            hs_add(h, t, r)
            won = hs_is_win(h, r)
            hs_remove(h, t, r)
            if won:
                hs_add(h, out, r)
                return True
        hs_add(h, out, r)
    return False


cdef void deal_leaf(DealCtx* x, uint64_t w) noexcept nogil:
    cdef int s, form, spec, b, t, nw = 0, nany = 0, live = 0, ov = -1, d
    cdef HandState* h = &x.hs
    x.total += w
    x.vectors += 1
    if x.table_only:
        x.out[x.PR[N_POS]] = <uint8_t>max_overlap(h.c, x.K, &x.r, x.size)
        return
    if x.complete:
        if hs_is_win(h, &x.r):
            s = hs_score(h, &x.r, &form, &spec)
            x.win += w
            x.score_hist[s if s < MAX_SCORE else MAX_SCORE - 1] += w
            x.form_hist[form] += w
            for b in range(7):
                if spec & (1 << b):
                    x.special_hist[b] += w
            d = -1
        elif x.do_distance:
            if x.prev != NULL:
                # not complete: the best overlap is that of the best hand one tile smaller
                ov = best_sub_overlap(x, 2 * x.r.n + 1)
                d = 2 * x.r.n + 1 - ov
            # with run forms the overlap search is slow: first try the one-exchange test
            elif x.r.forms & (FORM_RUN4 | FORM_RUN6 | FORM_RUN8) and one_exchange_wins(h, x.K, &x.r):
                d = 0                                          # 2n+1 tiles shared with a win
            elif not (x.r.forms & (FORM_RUN4 | FORM_RUN6 | FORM_RUN8)):
                ov = max_overlap(h.c, x.K, &x.r, 2 * x.r.n + 1)
                d = 2 * x.r.n + 1 - ov
            else:
                ov = max_overlap(h.c, x.K, &x.r, 2 * x.r.n)    # at most 2n shared
                d = 2 * x.r.n + 1 - ov
        else:
            d = -2
    else:
        for t in range(21):
            if not may_win(h.key + TILE_DELTA[t], &x.r):
                continue
            hs_add(h, t, &x.r)
            if hs_is_win(h, &x.r):
                nany += 1
                if x.K[t] - h.c[t] >= 0:      # h.c[t] already includes the added copy
                    nw += 1
                    live += x.K[t] - h.c[t] + 1
            hs_remove(h, t, &x.r)
        if nany:
            x.ready_any += w
        if nw:
            x.ready += w
            x.waits_hist[nw] += w
            x.live_hist[live if live < MAX_LIVE else MAX_LIVE - 1] += w
            x.waits_weighted += w * <uint64_t>nw
            ov = 2 * x.r.n + 1
            d = 0
        elif x.do_distance:
            if x.prev != NULL:
                ov = best_sub_overlap(x, 2 * x.r.n)           # not ready: at most 2n shared
            else:
                ov = max_overlap(h.c, x.K, &x.r, 2 * x.r.n)
            d = 2 * x.r.n + 1 - ov
        else:
            d = -2
        if x.out != NULL:
            x.out[x.PR[N_POS]] = <uint8_t>ov
    if d >= -1:
        x.dist_hist[d + DIST_OFFSET] += w


cdef void deal_dfs(DealCtx* x, int depth, int remaining, uint64_t w) noexcept nogil:
    cdef int c, maxc, i, p, q, added = 0
    if depth == 21:
        if remaining == 0:
            deal_leaf(x, w)
        return
    if walk_pruned(&x.walk, depth, remaining):
        return
    i = ORDER[depth]
    q = DEPTH_POS[depth]
    maxc = walk_max(&x.walk, depth, remaining, x.hs.c)
    p = SYM_PARTNER[i]
    if p < 0:
        x.rq[q] = remaining
    for c in range(maxc + 1):
        if x.rank_on:
            if p >= 0:
                rank_step(x, q, TRI[x.hs.c[p]] + c)
            elif POS_NIDS[q] == 1:
                rank_step(x, q, c)
        deal_dfs(x, depth + 1, remaining - c, w * walk_weight(&x.walk, depth, c, x.hs.c))
        if c < maxc:
            hs_add(&x.hs, i, &x.r)
            added += 1
    for c in range(added):
        hs_remove(&x.hs, i, &x.r)


cdef DealCtx* deal_new(copies, int size, int forms, int base_sum, int gjrv, int n) except NULL:
    cdef DealCtx* x = <DealCtx*> PyMem_Calloc(1, sizeof(DealCtx))
    cdef int i, j
    if x == NULL:
        raise MemoryError()
    rules_init(&x.r, forms, base_sum, n, gjrv)
    hs_clear(&x.hs)
    if len(copies) != 21:
        PyMem_Free(x)
        raise ValueError("copies must list 21 tile ids")
    for i in range(21):
        x.K[i] = copies[i]
        if not 0 <= x.K[i] <= 16:
            PyMem_Free(x)
            raise ValueError("copies per tile must be 0..16")
    walk_init(&x.walk, x.K, 21, ORDER, SYM_PARTNER)
    x.size = size
    x.complete = 1 if size == 2 * n + 2 else 0
    return x


cdef int deal_prefix(DealCtx* x, prefix, int remaining, uint64_t* w0) except -100:
    """Fix the counts of the first tile ids (0, 1, ... — at most 4, all single
    positions); returns the tiles left to deal (negative: none fit)."""
    cdef int i, j, c, start = len(prefix)
    if start > 4:
        raise ValueError("prefix may fix at most the first 4 tile ids")
    w0[0] = 1
    for i in range(start):
        c = prefix[i]
        if not 0 <= c <= x.K[i]:
            raise ValueError("prefix count out of range")
        w0[0] *= x.walk.binom[x.K[i]][c]
        x.rq[i] = remaining
        if x.rank_on and remaining >= c:
            rank_step(x, i, c)
        remaining -= c
        for j in range(c):
            hs_add(&x.hs, i, &x.r)
    return remaining


def _canonical_count(copies, int size):
    """Number of canonical count vectors of ``size`` tiles (the length of an
    overlap table, see ``_overlap_table``)."""
    cdef DealCtx* x = deal_new(copies, size, FORM_BASIC, 0, 6, 4)
    try:
        if not 0 <= size <= RANK_MAX:
            raise ValueError(f"rank tables cover hands of 0..{RANK_MAX} tiles")
        if not rank_init(x):
            raise ValueError("the two tiles of an identical-role pair must have the same copies")
        return x.N[0][size]
    finally:
        PyMem_Free(x)


def _overlap_table(copies, int size, int forms, int base_sum, int gjrv, int n, prefix, out):
    """Write the max overlap (``max_overlap`` with ceiling ``size``) of every
    canonical hand of ``size`` tiles whose first counts are ``prefix`` into the
    uint8 buffer ``out`` (length ``_canonical_count(copies, size)``), at the
    hand's rank.  Disjoint prefixes write disjoint entries: threads may share
    ``out``."""
    cdef DealCtx* x = deal_new(copies, size, forms, base_sum, gjrv, n)
    cdef uint8_t[::1] o
    cdef int remaining, start = len(prefix)
    cdef uint64_t w0
    try:
        if not 0 <= size <= min(RANK_MAX, 2 * n + 2):
            raise ValueError("overlap tables cover hands of 0..min(10, 2n+2) tiles")
        if not rank_init(x):
            raise ValueError("the two tiles of an identical-role pair must have the same copies")
        o = out
        if o.shape[0] != x.N[0][size]:
            raise ValueError(f"out has {o.shape[0]} entries, expected {x.N[0][size]}")
        x.out = &o[0]
        x.table_only = 1
        remaining = deal_prefix(x, prefix, size, &w0)
        if remaining >= 0:
            with nogil:
                deal_dfs(x, start, remaining, w0)
        return x.vectors
    finally:
        PyMem_Free(x)


def _deal_tables(copies, int size, int forms, int base_sum, int gjrv, int n, bint distance, prefix=(),
                 prev=None, out=None):
    """Exact weighted tallies over every hand of ``size`` tiles dealt from a
    multiset with ``copies[i]`` copies of tile i.  Weights are products of
    binomial coefficients (exact unsigned 64-bit integers); the caller divides
    by C(total, size).  Returns a dict of Python ints / lists of ints.

    ``prefix`` fixes the counts of the first tile ids (0, 1, ... — at most 4,
    so no identical-role pair is split): the tallies then cover only the hands
    with those counts, so disjoint prefixes can run in parallel threads (the
    walk releases the GIL) and their tallies add up.

    Distance from ready: without ``prev`` each hand's max overlap is searched
    (``max_overlap``).  With ``prev`` — the overlap table of the hands one
    tile smaller (uint8 by canonical rank, see ``_overlap_table``) — a hand
    that is not complete (first hand) or ready (other hands) shares exactly
    as many tiles with a winning hand as the best of the hands made by
    dropping one of its tiles (``best_sub_overlap``), which is a few table
    reads.  ``out`` (other hands only) receives this hand size's own table,
    the ``prev`` of the first hand."""
    cdef DealCtx* x = deal_new(copies, size, forms, base_sum, gjrv, n)
    cdef const uint8_t[::1] pv
    cdef uint8_t[::1] o
    cdef int remaining, start = len(prefix)
    cdef uint64_t w0
    try:
        x.do_distance = distance
        if prev is not None or out is not None:
            if size != 2 * n + 2 and size != 2 * n + 1:
                raise ValueError("overlap tables need hands of 2n+1 or 2n+2 tiles")
            if size > RANK_MAX:
                raise ValueError(f"overlap tables cover hands of at most {RANK_MAX} tiles")
            if not rank_init(x):
                raise ValueError("the two tiles of an identical-role pair must have the same copies")
        if prev is not None:
            if not distance:
                raise ValueError("prev is the distance table: needs distance=True")
            pv = prev
            if pv.shape[0] != x.N[0][size - 1]:
                raise ValueError(f"prev has {pv.shape[0]} entries, expected {x.N[0][size - 1]}")
            x.prev = &pv[0]
        if out is not None:
            if x.complete or not distance or prev is None:
                raise ValueError("out is written for the other hands (2n+1 tiles), with distance and prev")
            o = out
            if o.shape[0] != x.N[0][size]:
                raise ValueError(f"out has {o.shape[0]} entries, expected {x.N[0][size]}")
            x.out = &o[0]
        remaining = deal_prefix(x, prefix, size, &w0)
        if remaining >= 0:
            with nogil:
                deal_dfs(x, start, remaining, w0)
        return {
            "total": x.total, "vectors": x.vectors, "win": x.win,
            "score_hist": [x.score_hist[i] for i in range(MAX_SCORE)],
            "form_hist": [x.form_hist[i] for i in range(5)],
            "special_hist": [x.special_hist[i] for i in range(7)],
            "dist_hist": [x.dist_hist[i] for i in range(16)],
            "ready": x.ready, "ready_any": x.ready_any,
            "waits_hist": [x.waits_hist[i] for i in range(22)],
            "live_hist": [x.live_hist[i] for i in range(MAX_LIVE)],
            "waits_weighted": x.waits_weighted,
        }
    finally:
        PyMem_Free(x)
