# cython: language_level=3
"""The count-vector walk of exact deal odds, for nogil kernels (see kaptai.core.enumerate).

A hand dealt from ``caps[k]`` copies of each kind k is walked depth first over the kinds
in ``order``; a kind may name an earlier ``partner`` that plays an identical role, and
then holds at most as many copies as the partner (canonical vectors), a vector with fewer
copies than its partner standing for its mirror image too (weight x 2).  The weight of a
vector is ``prod C(caps[k], c[k])`` (times the mirror factors): the number of deals of
it.  A kernel keeps its own per-kind state and recursion, and asks this struct for the
bounds and the weights:

    for c in range(walk_max(&w, depth, remaining, counts) + 1):
        recurse(depth + 1, remaining - c, weight * walk_weight(&w, depth, c, counts))

``kaptai/kts/_eval.pyx`` (the Kap Tai Shap deal tables) is the first user; the pure-Python
twin of the same walk is :func:`kaptai.core.enumerate.count_vectors`.
"""
from libc.stdint cimport uint64_t

cdef enum:
    WALK_MAX_KINDS = 64
    WALK_MAX_COPIES = 16


cdef struct CountWalk:
    int n                                   # kinds
    int order[WALK_MAX_KINDS]               # kind visited at each depth
    int caps[WALK_MAX_KINDS]                # copies of each kind (by kind id)
    int partner[WALK_MAX_KINDS]             # identical-role earlier kind of each kind, or -1
    int suffix[WALK_MAX_KINDS + 1]          # copies held by the kinds at depths d..
    uint64_t binom[WALK_MAX_COPIES + 1][WALK_MAX_COPIES + 1]


cdef inline int walk_init(CountWalk* w, const int* caps, int n, const int* order, const int* partner) noexcept nogil:
    """Set up the walk over ``n`` kinds; 0 on success, -1 if n or a cap is out of range."""
    cdef int i, j
    if n < 0 or n > WALK_MAX_KINDS:
        return -1
    w.n = n
    for i in range(n):
        if caps[i] < 0 or caps[i] > WALK_MAX_COPIES:
            return -1
        w.caps[i] = caps[i]
        w.order[i] = order[i] if order != NULL else i
        w.partner[i] = partner[i] if partner != NULL else -1
    w.suffix[n] = 0
    for i in range(n - 1, -1, -1):
        w.suffix[i] = w.suffix[i + 1] + w.caps[w.order[i]]
    for i in range(WALK_MAX_COPIES + 1):
        w.binom[i][0] = 1
        for j in range(1, WALK_MAX_COPIES + 1):
            w.binom[i][j] = 0 if i == 0 else w.binom[i - 1][j - 1] + w.binom[i - 1][j]
    return 0


cdef inline bint walk_pruned(const CountWalk* w, int depth, int remaining) noexcept nogil:
    """True when the kinds from ``depth`` on cannot hold the ``remaining`` cards."""
    return w.suffix[depth] < remaining


cdef inline int walk_max(const CountWalk* w, int depth, int remaining, const int* counts) noexcept nogil:
    """Most copies the kind at ``depth`` may take (its cap, the cards left, its partner's count)."""
    cdef int k = w.order[depth]
    cdef int m = w.caps[k] if w.caps[k] < remaining else remaining
    cdef int p = w.partner[k]
    if p >= 0 and counts[p] < m:
        m = counts[p]
    return m


cdef inline uint64_t walk_weight(const CountWalk* w, int depth, int c, const int* counts) noexcept nogil:
    """Deals of ``c`` copies of the kind at ``depth``: C(cap, c), x 2 for a mirrored pair."""
    cdef int k = w.order[depth]
    cdef int p = w.partner[k]
    cdef uint64_t mult = 2 if (p >= 0 and c < counts[p]) else 1
    return w.binom[w.caps[k]][c] * mult
