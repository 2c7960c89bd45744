# C interface of the compiled Kap Tai Shap evaluator (夾大十).
#
# Everything here works on a *count vector*: ``c[i]`` is the number of copies of
# tile id ``i`` (0..20) in a hand.  The Python layer validates input; these
# functions trust it.
from libc.stdint cimport int64_t, uint64_t

cdef enum:
    N_TILES = 21
    N_CLASSES = 10
    FORM_BASIC = 1
    FORM_GENERAL_EYES = 2
    FORM_RUN4 = 4
    FORM_RUN6 = 8
    FORM_RUN8 = 16
    # special-hand flags reported by ``score_counts``
    SPECIAL_ALL_EVEN = 1
    SPECIAL_ALL_ODD = 2
    SPECIAL_ALL_PAIRS = 4
    SPECIAL_GENERAL_EYES = 8
    SPECIAL_RUN4 = 16
    SPECIAL_RUN6 = 32
    SPECIAL_RUN8 = 64

cdef struct EvalRules:
    int forms          # bit set of FORM_* allowed
    int base_sum       # 0: base = max of applicable items; 1: their sum
    int n              # half groups: 4 (Kap Tai Shap) or 3 (Kap Shap)
    int rv[21]         # run-value of each tile id (2-4 per gee_joon_run_value)

cdef struct HandState:
    int c[21]          # copies of each tile id
    int rvc[13]        # copies per run-value 0..12
    unsigned int rvp   # bit w: rvc[w] >= 1
    unsigned int at_least[17]  # at_least[k], bit t: c[t] >= k (k = 1..16; [0] unused)
    int64_t key        # packed ten-pair balance (see _eval.pyx)
    int size
    uint64_t code      # the counts packed three bits a tile id (tile t at bit 3t): exact
                       # while every count is at most 7 (the engine's waits memo checks)

# ------------------------------------------------------------------ shared constants
# The tile values and the packed ten-pair balance key, defined once for every kernel that
# cimports this file (the evaluator and the engine).  Ten-value of each tile id; its class
# (ten-value mod 10); the key change of one tile of each class.  The key holds
# d1..d4 = C_j - C_{10-j} offset by 64 in bytes 0..3 and the class counts C0 and C5 in
# bytes 4 and 5 (only their parity is checked, through CHECK_MASK): see _eval.pyx.
cdef extern from *:
    """
    static const int kts_ten_value[21] = {12, 2, 8, 4, 10, 6, 4, 11, 10, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 3, 3};
    static const int kts_tile_class[21] = {2, 2, 8, 4, 0, 6, 4, 1, 0, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 3, 3};
    static const int kts_pair_type[21] = {0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0};
    static const long long kts_class_delta[10] = {
        1LL << 32, 1LL, 1LL << 8, 1LL << 16, 1LL << 24,
        1LL << 40, -(1LL << 24), -(1LL << 16), -(1LL << 8), -1LL};
    static const int64_t KTS_KEY_BASE = (64LL | (64LL << 8) | (64LL << 16) | (64LL << 24));
    static const int64_t KTS_CHECK_MASK = (0xFFFFFFFFLL | (1LL << 32) | (1LL << 40));
    static const unsigned int kts_odd_bits = 0x1f9a80u;        /* ids of odd ten-value */
    static const unsigned int kts_pair_type_bits = 0x60110u;   /* kts_pair_type as a bit set */
    static inline int kts_ctz(unsigned int x) { return __builtin_ctz(x); }
    """
    const int TV "kts_ten_value"[21]
    const int CLS "kts_tile_class"[21]
    const int IS_PAIR_TYPE "kts_pair_type"[21]   # ids whose identical pair is a ten pair: 5-5, 4-6, 1-4, 2-3
    const int64_t CDELTA "kts_class_delta"[10]
    const int64_t KEY_BASE "KTS_KEY_BASE"
    const int64_t CHECK_MASK "KTS_CHECK_MASK"
    const unsigned int ODD_BITS "kts_odd_bits"
    const unsigned int PAIR_TYPE_BITS "kts_pair_type_bits"
    int ctz "kts_ctz"(unsigned int x) noexcept nogil

cdef inline int combine(int form_item, int all_even, int all_odd, int all_pairs,
                        int base_sum) noexcept nogil:
    """Base points from the form item and the pattern items that hold."""
    cdef int b
    if base_sum:
        b = form_item
        if all_even:
            b += 4
        if all_odd:
            b += 5
        if all_pairs:
            b += 8
        return b
    b = form_item
    if all_even and 4 > b:
        b = 4
    if all_odd and 5 > b:
        b = 5
    if all_pairs and 8 > b:
        b = 8
    return b


cdef struct Patterns:      # the pattern items of a hand, read from its masks
    int all_even           # every tile of even ten-value
    int all_odd
    int non_pair_tiles     # tiles of the ids whose identical pair is no ten pair
    int odd_pair_type      # some pair-type id held an odd number of times


cdef inline void hs_patterns(const HandState* h, Patterns* p) noexcept nogil:
    cdef unsigned int bits = PAIR_TYPE_BITS
    cdef int i
    p.all_even = (h.at_least[1] & ODD_BITS) == 0
    p.all_odd = (h.at_least[1] & ~ODD_BITS) == 0
    p.non_pair_tiles = h.size
    p.odd_pair_type = 0
    while bits:
        i = ctz(bits)
        bits &= bits - 1
        p.non_pair_tiles -= h.c[i]
        p.odd_pair_type |= h.c[i] & 1


cdef inline int hs_basic_score(const HandState* h, const Patterns* p, int base_sum,
                               int* all_pairs_out) noexcept nogil:
    """Best score of h under the basic form (-1: no eye leaves the rest balanced): over the
    eyes e (an id held twice or more, the rest balanced), combine(2, all even, all odd, all
    pairs) plus one for an eye of ids 0-3.  All pairs: the eye's id is a pair type and
    every other tile is a pair-type tile in even count, or the eye's id is not, the hand
    has exactly its two tiles of non-pair type and the pair-type counts are even.
    ``all_pairs_out``: whether some such eye makes all pairs."""
    cdef unsigned int bits = h.at_least[2]
    cdef int e, ap, s, best = -1
    all_pairs_out[0] = 0
    while bits:
        e = ctz(bits)
        bits &= bits - 1
        if ((h.key - 2 * CDELTA[CLS[e]]) & CHECK_MASK) != KEY_BASE:
            continue
        if IS_PAIR_TYPE[e]:
            ap = p.non_pair_tiles == 0 and not p.odd_pair_type
        else:
            ap = p.non_pair_tiles == 2 and h.c[e] == 2 and not p.odd_pair_type
        all_pairs_out[0] |= ap
        s = combine(2, p.all_even, p.all_odd, ap, base_sum) + (1 if e < 4 else 0)
        if s > best:
            best = s
    return best


cdef void rules_init(EvalRules* r, int forms, int base_sum, int n, int gee_joon_run_value) noexcept nogil
cdef void hs_clear(HandState* h) noexcept nogil


cdef inline void hs_add(HandState* h, int t, const EvalRules* r) noexcept nogil:
    """Add one tile of id ``t`` to a hand (count, run-value count, balance key, size)."""
    h.c[t] += 1
    h.at_least[h.c[t]] |= 1u << t
    h.rvc[r.rv[t]] += 1
    h.rvp |= 1u << r.rv[t]
    h.key += CDELTA[CLS[t]]
    h.size += 1
    h.code += (<uint64_t>1) << (3 * t)


cdef inline void hs_remove(HandState* h, int t, const EvalRules* r) noexcept nogil:
    """Remove one tile of id ``t`` from a hand (the inverse of hs_add)."""
    h.at_least[h.c[t]] &= ~(1u << t)
    h.c[t] -= 1
    h.rvc[r.rv[t]] -= 1
    h.rvp &= ~((<unsigned int>(h.rvc[r.rv[t]] == 0)) << r.rv[t])
    h.key -= CDELTA[CLS[t]]
    h.size -= 1
    h.code -= (<uint64_t>1) << (3 * t)

cdef bint hs_is_win(const HandState* h, const EvalRules* r) noexcept nogil
cdef int hs_score(const HandState* h, const EvalRules* r, int* form_out, int* specials_out) noexcept nogil
cdef int hs_waits(HandState* h, const EvalRules* r, int* out) noexcept nogil
cdef int max_overlap(const int* c, const int* copies, const EvalRules* r, int ceiling) noexcept nogil
