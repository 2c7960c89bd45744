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
:mod:`kaptai.bigtwo.evaluate` (rank and suit strengths, the straight windows
with their position and tie card); the kernels trust them and run without
the GIL.

The classifier itself (``classify``, ``load_rules``, the ``CRules`` struct and the small
helpers) is ``cdef inline`` code in ``_eval.pxd``, shared with the compiled game engine
:mod:`kaptai.bigtwo._engine`; this module holds the Python-facing batch kernels.
"""
from libc.stdint cimport int64_t, uint64_t, int8_t, int32_t
cimport numpy as cnp
import numpy as np

cnp.import_array()

CATEGORY_NAMES = (
    "single", "pair", "triple", "two_pair", "quad", "two_pair_plus_one",
    "straight", "flush", "full_house", "four_of_a_kind", "straight_flush",
)


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
