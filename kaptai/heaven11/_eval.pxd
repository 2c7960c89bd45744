# cython: language_level=3
# C interface of the compiled Heaven Eleven (天牌十一) evaluator (kaptai/heaven11/_eval.pyx).
#
# The kernels are ``cdef inline`` here so that ``_eval`` and the engine ``_engine`` compile the
# same source.  A combination is a 13-bit rank set of one suit (bit r = rank r, 0 = ``2``);
# its *key* orders the combinations of one size (larger is stronger):
#     key = class_position * 1024 + closeness * 16 + highest_rank
# class_position is the index in the size's class order (§3 Ranking, low -> high),
# closeness = 31 - |v - 11| for for-sum sets (0 otherwise) and highest_rank is 0 for the
# unique specials.

cdef extern from *:
    int popcount32 "__builtin_popcount"(unsigned int) nogil
    int clz32 "__builtin_clz"(unsigned int) nogil

# class codes shared by both sizes (names in kaptai.heaven11.evaluate.CLASS_NAMES)
cdef enum:
    K_SINGLE = 0
    K_FOR_SUM = 1
    K_CONSECUTIVE = 2
    K_ELEVEN = 3
    K_BIG_CONTINUING = 4
    K_HOLE = 5
    K_EXPLOSIVE = 6
    K_HEAVEN = 7

cdef inline int highest_rank(int ranks) noexcept nogil:
    return 31 - clz32(<unsigned int>ranks)


cdef inline int combo_value(int ranks, const int* pts, int once) noexcept nogil:
    """v of a rank set: the point sum, minus 10 while > 11 (``once``: at most one time)."""
    cdef int s = 0, r
    for r in range(13):
        if (ranks >> r) & 1:
            s += pts[r]
    if once:
        if s > 11:
            s -= 10
    else:
        while s > 11:
            s -= 10
    return s


cdef inline int combo_class(int ranks, int v) noexcept nogil:
    """Class code by the first matching row of the §3 table (ranks: 1-3 bits)."""
    cdef int n = popcount32(<unsigned int>ranks)
    cdef int lo
    if n == 1:
        return K_SINGLE
    if n == 2:
        if ranks == 0x1800:          # K A
            return K_HEAVEN
        if ranks == 0x0018:          # 5 6
            return K_BIG_CONTINUING
    else:
        if ranks == 0x1C00:          # Q K A
            return K_HEAVEN
        if ranks == 0x0070:          # 6 7 8
            return K_EXPLOSIVE
        if ranks == 0x00A8:          # 5 7 9
            return K_HOLE
    if v == 11:
        return K_ELEVEN
    lo = ranks & (-ranks)
    if n == 2 and ranks == lo * 3:
        return K_CONSECUTIVE
    if n == 3 and ranks == lo * 7:
        return K_CONSECUTIVE
    return K_FOR_SUM


cdef inline int class_position(int cls, int n) noexcept nogil:
    """Index of a class in the order of its size."""
    if cls == K_SINGLE:
        return 0
    if cls <= K_ELEVEN:
        return cls - 1
    if n == 2:
        return 3 if cls == K_BIG_CONTINUING else 4
    return cls - 2          # hole 3, explosive 4, heaven 5


cdef inline int combo_key(int ranks, const int* pts, int once) noexcept nogil:
    cdef int n = popcount32(<unsigned int>ranks)
    cdef int v = combo_value(ranks, pts, once)
    cdef int cls = combo_class(ranks, v)
    cdef int d
    if cls == K_FOR_SUM:
        d = v - 11
        if d < 0:
            d = -d
        return class_position(cls, n) * 1024 + (31 - d) * 16 + highest_rank(ranks)
    if cls >= K_BIG_CONTINUING:
        return class_position(cls, n) * 1024
    return class_position(cls, n) * 1024 + highest_rank(ranks)
