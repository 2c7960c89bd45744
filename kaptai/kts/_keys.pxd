# The win / ready key table of the ten-pair balance key (kaptai/kts/_eval.pxd's HandState.key
# layout: d1..d4 offset by 64 in bytes 0..3, the counts of classes 0 and 5 in bytes 4 and 5,
# of which only the parities matter).  A key of a hand of at most 10 tiles has |d_j| <= 10,
# so it indexes one of 21**4 * 4 cells; cell bit 0 = a winning key, bit 1 = a ready key (one
# tile short of a winning key), bits 2 and 3 see KEY_NEAR / KEY_REACH2.  Both are necessary conditions only: a hand that passes is
# decided by the evaluator.  The table of a ruleset: kaptai.kts._lookahead._key_table.
from libc.stdint cimport int64_t

cdef enum:
    KEY_CELLS = 777924
    KEY_WIN = 1
    KEY_READY = 2
    KEY_NEAR = 4         # a 2n+2 hand that one discard can make ready
    KEY_REACH2 = 8       # a 2n+1 hand that one draw and one discard can make ready

cdef inline int key_index(int64_t b) noexcept nogil:
    cdef int d1 = <int>(b & 0xFF) - 54, d2 = <int>((b >> 8) & 0xFF) - 54
    cdef int d3 = <int>((b >> 16) & 0xFF) - 54, d4 = <int>((b >> 24) & 0xFF) - 54
    if <unsigned int>d1 > 20 or <unsigned int>d2 > 20 or <unsigned int>d3 > 20 or <unsigned int>d4 > 20:
        return -1
    return d1 + 21 * d2 + 441 * d3 + 9261 * d4 + 194481 * <int>(((b >> 32) & 1) | ((b >> 39) & 2))


cdef inline bint key_has(const unsigned char* tab, int64_t b, int bit) noexcept nogil:
    cdef int i = key_index(b)
    return i >= 0 and (tab[i] & bit) != 0
