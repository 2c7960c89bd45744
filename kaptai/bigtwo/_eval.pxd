# cython: language_level=3
# C interface of the compiled Big Two (鋤大D) combination evaluator (kaptai/bigtwo/_eval.pyx).
#
# The classifier lives here, as ``cdef inline`` code, so that every compiled module that
# cimports it (``_eval`` itself, the game engine ``_engine``) compiles the same source
# into its own object: one definition, no copy, and no call through a function pointer in
# the engine's hot loop.
#
# Card id ``4 * rank + suit`` is bit ``id`` of a ``uint64`` mask; the cards of one natural
# rank are one nibble.  Everything that rule options change arrives in a ``CRules`` struct
# filled by ``load_rules`` from the arguments built by ``kaptai.bigtwo.evaluate._params``.
from libc.stdint cimport int64_t, uint64_t

cdef extern from *:
    """
    #define KAPTAI_B2_SUIT0 0x1111111111111ULL
    """
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil
    # bit ``s`` of every nibble: the cards of suit ``s`` are ``SUIT0 << s``
    const unsigned long long SUIT0 "KAPTAI_B2_SUIT0"

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

cdef enum:
    N_WINDOWS_MAX = 16

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


cdef inline int best_suit(uint64_t nib, const CRules* R) noexcept nogil:
    """Strength of the strongest suit present in a rank nibble (-1 if empty)."""
    cdef int s, b = -1
    for s in range(4):
        if (nib >> s) & 1 and R.ss[s] > b:
            b = R.ss[s]
    return b


cdef inline int64_t mk(int cat, int64_t tie) noexcept nogil:
    """Key of a play: category in the high 32 bits, tie-break below."""
    return ((<int64_t>cat) << 32) | tie


cdef inline int classify(uint64_t m, const CRules* R, int* trick, int* cat, int64_t* key) noexcept nogil:
    """Classify one card mask; returns 1 if it is a legal play, else 0.

    ``trick`` receives the trick class (1-5, 0 if illegal), ``cat`` the category code
    (-1 if illegal) and ``key`` the strength within the trick class."""
    cdef int n = popcount64(m)
    cdef int r, c, d = 0, rmask = 0, hi2 = -1, hi2r = -1, r3 = -1, r4 = -1, npairs = 0, s, w
    cdef int cnt[13]
    cdef int64_t t
    cdef int flush_suit = -1
    cdef int64_t ranks = 0
    cdef int st
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
    for s in range(4):
        if (m & (SUIT0 << s)) == m:
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


cdef inline void load_rules(CRules* R, rank_strength, suit_strength, windows, int flush_suit_first,
                            int two_pair_five, int quad_optional, int four_card) except *:
    """Fill ``R`` from the classifier arguments of ``kaptai.bigtwo.evaluate._params``."""
    cdef int i
    for i in range(13):
        R.rs[i] = int(rank_strength[i])
    for i in range(4):
        R.ss[i] = int(suit_strength[i])
    R.n_win = len(windows)
    if R.n_win > N_WINDOWS_MAX:
        raise ValueError(f"at most {N_WINDOWS_MAX} straight windows, got {R.n_win}")
    for i in range(R.n_win):
        R.win_mask[i] = int(windows[i][0])
        R.win_pos[i] = int(windows[i][1])
        R.win_card[i] = int(windows[i][2])
    R.flush_suit_first = flush_suit_first
    R.two_pair_five = two_pair_five
    R.quad_optional = quad_optional
    R.four_card = four_card


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
