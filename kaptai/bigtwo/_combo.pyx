# cython: language_level=3
"""Compiled Big Two (鋤大D) combination evaluator over 52-bit card masks.

Card id ``4 * rank + suit`` is bit ``id`` of a ``uint64`` mask (see
:mod:`kaptai.bigtwo.cards`), so the cards of one rank are one nibble and the
count of a rank is a popcount.  A play is classified into

* a *trick* class: the card count a follower must match (1-5; a bare quad
  under ``quad_kicker='optional'`` is in class 5), 0 if not a legal play;
* a *category* code (:data:`CATEGORY_NAMES`), increasing in strength within
  a trick class;
* a 64-bit *key*: ``category << 32 | tiebreak``, so that within one trick
  class play ``a`` beats ``b`` iff ``key(a) > key(b)``; equal keys tie.

Everything that rule options change arrives as small integer arrays built by
:mod:`kaptai.bigtwo.combos` (rank and suit strengths, the straight windows
with their position and tie card); the kernels trust them and run without
the GIL.
"""
from libc.stdint cimport int64_t, uint64_t, int8_t, int32_t
cimport numpy as cnp
import numpy as np

cnp.import_array()

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil

CATEGORY_NAMES = (
    "single", "pair", "triple", "two_pair", "quad", "two_pair_plus_one",
    "straight", "flush", "full_house", "four_of_a_kind", "straight_flush",
)

cdef enum:
    C_SINGLE = 0
    C_PAIR = 1
    C_TRIPLE = 2
    C_TWO_PAIR4 = 3
    C_QUAD4 = 4
    C_TWO_PAIR5 = 5
    C_STRAIGHT = 6
    C_FLUSH = 7
    C_FULL_HOUSE = 8
    C_FOUR_KIND = 9
    C_STRAIGHT_FLUSH = 10

cdef struct CRules:
    int rs[13]          # rank strength of each natural rank
    int ss[4]           # suit strength of each suit
    int n_win
    int win_mask[16]    # 13-bit rank set of each straight
    int win_pos[16]     # its position in straight_order (0 = lowest)
    int win_card[16]    # natural rank of its tie card
    int flush_suit_first
    int two_pair_five
    int quad_optional
    int four_card       # 0 none, 1 quad, 2 quad_or_two_pair

cdef uint64_t SUIT_MASK[4]
for _s in range(4):
    SUIT_MASK[_s] = 0
    for _r in range(13):
        SUIT_MASK[_s] |= (<uint64_t>1) << (4 * _r + _s)


cdef inline int best_suit(uint64_t nib, const CRules* R) noexcept nogil:
    cdef int s, b = -1
    for s in range(4):
        if (nib >> s) & 1 and R.ss[s] > b:
            b = R.ss[s]
    return b


cdef inline int64_t mk(int cat, int64_t tie) noexcept nogil:
    return ((<int64_t>cat) << 32) | tie


cdef int classify(uint64_t m, const CRules* R, int* trick, int* cat, int64_t* key) noexcept nogil:
    """Classify one card mask; returns 1 if it is a legal play, else 0."""
    cdef int n = popcount64(m)
    cdef int r, c, d = 0, rmask = 0, hi2 = -1, hi2r = -1, r3 = -1, r4 = -1, npairs = 0, s, w
    cdef int cnt[13]
    cdef int64_t t
    cdef uint64_t nib
    trick[0] = 0
    cat[0] = -1
    key[0] = 0
    if n < 1 or n > 5:
        return 0
    for r in range(13):
        c = popcount64((m >> (4 * r)) & 15)
        cnt[r] = c
        if c:
            d += 1
            rmask |= 1 << r
            if c == 4:
                r4 = r
            elif c == 3:
                r3 = r
            elif c == 2:
                npairs += 1
                if R.rs[r] > hi2:
                    hi2 = R.rs[r]
                    hi2r = r
    if n == 1:
        r = ctz64(m)
        trick[0] = 1; cat[0] = C_SINGLE
        key[0] = mk(C_SINGLE, 4 * R.rs[r >> 2] + R.ss[r & 3])
        return 1
    if n == 2:
        if d != 1:
            return 0
        r = ctz64(m) >> 2
        trick[0] = 2; cat[0] = C_PAIR
        key[0] = mk(C_PAIR, 4 * R.rs[r] + best_suit((m >> (4 * r)) & 15, R))
        return 1
    if n == 3:
        if d != 1:
            return 0
        trick[0] = 3; cat[0] = C_TRIPLE
        key[0] = mk(C_TRIPLE, R.rs[r3])
        return 1
    if n == 4:
        if d == 1:
            if R.four_card:
                trick[0] = 4; cat[0] = C_QUAD4
                key[0] = mk(C_QUAD4, R.rs[r4])
                return 1
            if R.quad_optional:
                trick[0] = 5; cat[0] = C_FOUR_KIND
                key[0] = mk(C_FOUR_KIND, R.rs[r4])
                return 1
            return 0
        if d == 2 and npairs == 2 and R.four_card == 2:
            trick[0] = 4; cat[0] = C_TWO_PAIR4
            key[0] = mk(C_TWO_PAIR4, 4 * hi2 + best_suit((m >> (4 * hi2r)) & 15, R))
            return 1
        return 0
    # five cards
    if d == 2:
        trick[0] = 5
        if r4 >= 0:
            cat[0] = C_FOUR_KIND
            key[0] = mk(C_FOUR_KIND, R.rs[r4])
        else:
            cat[0] = C_FULL_HOUSE
            key[0] = mk(C_FULL_HOUSE, R.rs[r3])
        return 1
    if d == 3:
        if npairs == 2 and R.two_pair_five:
            trick[0] = 5; cat[0] = C_TWO_PAIR5
            key[0] = mk(C_TWO_PAIR5, 4 * hi2 + best_suit((m >> (4 * hi2r)) & 15, R))
            return 1
        return 0
    if d != 5:
        return 0
    cdef int flush_suit = -1
    for s in range(4):
        if (m & SUIT_MASK[s]) == m:
            flush_suit = s
    for w in range(R.n_win):
        if R.win_mask[w] == rmask:
            r = R.win_card[w]
            t = 4 * R.win_pos[w] + best_suit((m >> (4 * r)) & 15, R)
            trick[0] = 5
            if flush_suit >= 0:
                cat[0] = C_STRAIGHT_FLUSH
                key[0] = mk(C_STRAIGHT_FLUSH, t)
            else:
                cat[0] = C_STRAIGHT
                key[0] = mk(C_STRAIGHT, t)
            return 1
    if flush_suit < 0:
        return 0
    # flush: five rank strengths high to low, 4 bits each
    cdef int64_t ranks = 0
    cdef int k, st
    for st in range(12, -1, -1):
        for r in range(13):
            if cnt[r] and R.rs[r] == st:
                ranks = (ranks << 4) | st
    trick[0] = 5; cat[0] = C_FLUSH
    if R.flush_suit_first:
        key[0] = mk(C_FLUSH, ((<int64_t>R.ss[flush_suit]) << 20) | ranks)
    else:
        key[0] = mk(C_FLUSH, (ranks << 2) | R.ss[flush_suit])
    return 1


cdef void load_rules(CRules* R, rank_strength, suit_strength, windows, int flush_suit_first,
                     int two_pair_five, int quad_optional, int four_card) except *:
    cdef int i
    for i in range(13):
        R.rs[i] = int(rank_strength[i])
    for i in range(4):
        R.ss[i] = int(suit_strength[i])
    R.n_win = len(windows)
    assert R.n_win <= 16
    for i in range(R.n_win):
        R.win_mask[i] = int(windows[i][0])
        R.win_pos[i] = int(windows[i][1])
        R.win_card[i] = int(windows[i][2])
    R.flush_suit_first = flush_suit_first
    R.two_pair_five = two_pair_five
    R.quad_optional = quad_optional
    R.four_card = four_card


def _classify_batch(const uint64_t[::1] masks, rank_strength, suit_strength, windows,
                    int flush_suit_first, int two_pair_five, int quad_optional, int four_card):
    """Classify card masks: returns (trick int8, category int8, key int64) arrays."""
    cdef CRules R
    load_rules(&R, rank_strength, suit_strength, windows, flush_suit_first, two_pair_five,
               quad_optional, four_card)
    cdef Py_ssize_t i, n = masks.shape[0]
    tr = np.zeros(n, dtype=np.int8)
    ca = np.zeros(n, dtype=np.int8)
    ke = np.zeros(n, dtype=np.int64)
    cdef int8_t[::1] trv = tr
    cdef int8_t[::1] cav = ca
    cdef int64_t[::1] kev = ke
    cdef int t, c
    cdef int64_t k
    with nogil:
        for i in range(n):
            classify(masks[i], &R, &t, &c, &k)
            trv[i] = <int8_t>t
            cav[i] = <int8_t>c
            kev[i] = k
    return tr, ca, ke



cdef inline bint next_combination(int* idx, int k, int n) noexcept nogil:
    """Advance the k-subset ``idx`` of range(n) to the next one in lexicographic
    order; False when it was the last."""
    cdef int i = k - 1, j
    while i >= 0 and idx[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return True

def _plays_beating(uint64_t hand, uint64_t target, rank_strength, suit_strength, windows,
                   int flush_suit_first, int two_pair_five, int quad_optional, int four_card):
    """Masks of every legal play of 1-5 cards from ``hand`` that beats ``target``
    (every legal play if ``target`` is 0), in increasing order of strength."""
    cdef CRules R
    load_rules(&R, rank_strength, suit_strength, windows, flush_suit_first, two_pair_five,
               quad_optional, four_card)
    cdef int cards[52]
    cdef int nc = 0, i, k, t0 = 0, c0, t, c, j
    cdef int64_t k0 = -1, key
    cdef uint64_t m
    for i in range(52):
        if (hand >> i) & 1:
            cards[nc] = i
            nc += 1
    if target:
        if not classify(target, &R, &t0, &c0, &k0):
            return np.zeros(0, dtype=np.uint64)
    out_m = []
    out_k = []
    cdef int idx[5]
    for k in range(1, 6):
        if k > nc:
            break
        for i in range(k):
            idx[i] = i
        while True:
            m = 0
            for i in range(k):
                m |= (<uint64_t>1) << cards[idx[i]]
            if classify(m, &R, &t, &c, &key) and (t0 == 0 or (t == t0 and key > k0)):
                out_m.append(m)
                out_k.append((t, key))
            if not next_combination(idx, k, nc):
                break
    order = sorted(range(len(out_m)), key=lambda q: (out_k[q], out_m[q]))
    return np.array([out_m[q] for q in order], dtype=np.uint64)


def _combinations(int n, int k):
    """Every k-subset of range(n) in lexicographic order, as an int8 array (C(n, k), k)."""
    import math
    cdef Py_ssize_t total = math.comb(n, k), row = 0
    out = np.empty((total, k), dtype=np.int8)
    if total == 0 or k == 0:
        return out
    cdef int8_t[:, ::1] ov = out
    cdef int idx[64]
    cdef int i, j
    for i in range(k):
        idx[i] = i
    with nogil:
        while True:
            for i in range(k):
                ov[row, i] = <int8_t>idx[i]
            row += 1
            if not next_combination(idx, k, n):
                break
    return out


def _masks_of(const int8_t[:, ::1] cards):
    """Card masks (uint64) of the rows of an int8 card-id array."""
    cdef Py_ssize_t i, n = cards.shape[0], k = cards.shape[1], j
    out = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] ov = out
    with nogil:
        for i in range(n):
            for j in range(k):
                ov[i] |= (<uint64_t>1) << cards[i, j]
    return out
