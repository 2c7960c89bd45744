# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Compiled evaluator of Heaven Eleven (天牌十一): combination keys and trick winners.

Private: :mod:`kaptai.heaven11.evaluate` validates the input and calls these kernels with
clean contiguous arrays.  The kernels themselves are in ``_eval.pxd`` (shared with the engine).
"""
from libc.stdint cimport int64_t, uint64_t, int32_t, uint8_t
from kaptai.heaven11._eval cimport combo_value, combo_class, combo_key, popcount32
import numpy as np
cimport numpy as cnp

cnp.import_array()


def tables(const int64_t[::1] points, int once):
    """``(value, cls, key)`` int32 arrays of length 8192 indexed by the 13-bit rank set;
    entries of sets that are not 1-3 ranks hold -1."""
    cdef int pts[13]
    cdef int r, m, n, v
    for r in range(13):
        pts[r] = <int>points[r]
    value = np.full(8192, -1, dtype=np.int32)
    cls = np.full(8192, -1, dtype=np.int32)
    key = np.full(8192, -1, dtype=np.int32)
    cdef int32_t[::1] V = value, C = cls, K = key
    with nogil:
        for m in range(1, 8192):
            n = popcount32(<unsigned int>m)
            if n > 3:
                continue
            v = combo_value(m, pts, once)
            V[m] = v
            C[m] = combo_class(m, v)
            K[m] = combo_key(m, pts, once)
    return value, cls, key


def keys(const int32_t[::1] ranks, const int64_t[::1] points, int once):
    """Key of each rank set (1-3 ranks, trusted)."""
    cdef int pts[13]
    cdef Py_ssize_t i, n = ranks.shape[0]
    cdef int r
    for r in range(13):
        pts[r] = <int>points[r]
    out = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] O = out
    with nogil:
        for i in range(n):
            O[i] = combo_key(ranks[i], pts, once)
    return out


def trick_winners(const int64_t[:, ::1] plays, const uint8_t[:, ::1] void, const int64_t[::1] trump,
                  const int64_t[::1] points, int once):
    """Winner (index in play order, 0 = leader) of each play.

    ``plays[i, j]``: 52-bit card mask of the j-th player's cards (j = 0 the lead, trusted
    to be 1-3 cards of one suit; every entry the same size); ``void[i, j]``: that player held
    no card of the led suit before the play; ``trump[i]``: 0-3, or 4 for NT.
    """
    cdef int pts[13]
    cdef Py_ssize_t i, m = plays.shape[0], np_ = plays.shape[1]
    cdef int j, r, led, best, best_key, best_trump, k, t
    cdef uint64_t p, suit_mask
    for r in range(13):
        pts[r] = <int>points[r]
    out = np.empty(m, dtype=np.int8)
    cdef cnp.int8_t[::1] O = out
    with nogil:
        for i in range(m):
            p = <uint64_t>plays[i, 0]
            led = 0
            while led < 3 and ((p >> (13 * led)) & 0x1FFF) == 0:
                led += 1
            t = <int>trump[i]
            best = 0
            best_key = combo_key(<int>((p >> (13 * led)) & 0x1FFF), pts, once)
            best_trump = 0
            for j in range(1, np_):
                p = <uint64_t>plays[i, j]
                suit_mask = (<uint64_t>0x1FFF) << (13 * led)
                if (p & ~suit_mask) == 0:
                    if best_trump:
                        continue
                    k = combo_key(<int>(p >> (13 * led)), pts, once)
                    if k > best_key:
                        best = j
                        best_key = k
                elif void[i, j] and t < 4 and t != led and (p & ~((<uint64_t>0x1FFF) << (13 * t))) == 0:
                    k = combo_key(<int>(p >> (13 * t)), pts, once)
                    if not best_trump or k > best_key:
                        best = j
                        best_key = k
                        best_trump = 1
            O[i] = best
    return out
