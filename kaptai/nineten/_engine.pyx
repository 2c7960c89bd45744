# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled nine-ten (九支十仔) engine: deal, natural, mandatory claims, dead cards, flips, scoring.

Plays whole hands without the GIL with the built-in discard policies ``random`` (code 0),
``colour_cut`` (1), ``live_first`` (2) and ``search`` (3, determinized Monte Carlo over
layouts of the unseen cards, resampled by what the other seats' discards say about their hands,
rolled out with ``colour_cut``) and returns one row of outcome arrays per hand
plus, for the first ``record`` hands, the full log.  It implements
``docs/nine-ten-engine.md`` line by line; its pure-Python twin
:mod:`kaptai.nineten.engine_reference` follows the same page and the tests compare the two
move for move.  Users call :func:`kaptai.nineten.engine.run_hands`; this module is private.

Randomness: one numpy ``bitgen_t`` (``PCG64``) per call, read by the dealer redraw, the
shuffles and the policies' random choices (``bounded`` of ``kaptai.core._rng``), in the order
of the specification.  Every option arrives as an integer code
(:meth:`kaptai.nineten.config.EngineConfig.code_array`).
"""
from libc.stdint cimport int64_t, uint32_t, uint64_t, int8_t, int16_t, int32_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, realloc, free
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t
from kaptai.core._rng cimport bounded
cimport numpy as cnp
import numpy as np

cnp.import_array()

cdef enum:
    MAXP = 16
    NK = 28
    NCARDS = 112
    C_MAX_REDEALS = 100
    C_MAX_STEPS = 10000
    LOG_COLS = 6

    A_DEAL = 0
    A_REDEAL = 1
    A_NATURAL = 2
    A_DISCARD = 3
    A_FLIP = 4
    A_CLAIM = 5
    A_DEAD = 6
    A_WASTE = 7
    A_BONUS = 8
    A_WIN = 9
    A_DRAWN = 10

    W_DRAWN = 0
    W_SELF = 1
    W_FLIP = 2
    W_DISCARD = 3
    W_NATURAL = 4

    ERR_DECKS = 1
    ERR_STEPS = 2
    ERR_MEMORY = 3

    P_SEARCH = 3
    ROLLOUT = 1              # colour_cut plays every seat of a rollout (config.SEARCH_ROLLOUT)
    TRIES = 20               # config.SEARCH_TRIES
    MAXH = 16                # the most hidden cards of a seat
    MAXS = 100000            # the most layouts per decision
    MAXE = 128               # config.INFER_MAX_EVENTS: discards of a hand kept for the inference


cdef uint64_t[5][5] BINOM
cdef int _i, _j
for _i in range(5):
    for _j in range(5):
        BINOM[_i][_j] = 0
BINOM[0][0] = 1
for _i in range(1, 5):
    BINOM[_i][0] = 1
    for _j in range(1, _i + 1):
        BINOM[_i][_j] = BINOM[_i - 1][_j - 1] + BINOM[_i - 1][_j]


cdef struct Hist:
    # the discards the search's inference reads (docs/nine-ten-engine.md, "Inference")
    int n
    int seat[MAXE]
    int kind[MAXE]
    uint32_t fmask[MAXE]     # the options of a forced discard (0: a free discard of a single)
    int8_t vis[MAXE][NK]     # face-up copies the seat saw (waste and the others' exposed cards)
    int8_t then[MAXE][NK]    # the seat's claims minus discards of each kind before this discard
    int8_t cum[MAXP][NK]     # claims minus discards of each kind so far, per seat


cdef struct G:
    # configuration
    int N, hd, ho, reserve
    int natural, flip_priority, flip_payer, covers_all, fc_flip, fc_kz, kz_plus1
    int dead_order, claimable, dealt_four, next_dealer
    int policy[MAXP]
    int rel_policy[MAXP]
    int relative
    int samples
    double gate              # z of the test against the rollout policy's own choice
    double go                # config.SEARCH_GO: z on the first layouts that calls the second stage
    int more                 # config.SEARCH_MORE: second-stage layouts per first-stage layout
    int64_t relaxed          # layouts whose parities had to be dropped for a seat
    int64_t decisions        # search decisions (two or more options)
    int inflight             # a kind on offer (search_values with offer_from): not in the pool
    int infer                # candidates per rolled-out layout (0: uniform layouts)
    int mix                  # rollouts: other seats by a style drawn per layout (config.SEARCH_MIX)
    uint64_t salt_mix        # mix64 of config.search_salt, xored into every search seed (0: no salt)
    double pi0, pi1, pi2, eps  # config.INFER_PRIOR, config.INFER_EPS
    int track                # record discards into hist (off in rollouts)
    Hist* hist
    int64_t inferred         # search decisions that resampled
    int64_t ncands           # candidate layouts drawn
    double ess_sum           # sum of their effective sample sizes
    bitgen_t* rng
    int use_decks
    const int64_t* decks
    int64_t n_decks
    int64_t deck_pos
    # hand state
    int deck[NCARDS]
    int top
    int dealer
    int held[MAXP][NK]
    int dead[MAXP][NK]
    int dead_seq[MAXP][NK]
    int exposed[MAXP][NK]
    int kz4[MAXP][NK]        # 1 if the seat's 4th copy came from a claim
    int nkz[MAXP]
    int waste[NK]
    int pub[NK]              # waste + every seat's exposed copies (kept incrementally)
    uint32_t odd[MAXP]       # bit k: the seat holds an odd number of k
    uint32_t deadm[MAXP]     # bit k: the seat's k is dead
    int tcol[MAXP][4]        # cards held per colour
    int pairs[MAXP]
    int counter
    uint32_t offered         # bit k: kind k was discarded or flipped in this hand
    int claims, flips
    # log
    int recording
    int64_t hand_index
    int64_t step
    int64_t* log
    int64_t log_n, log_cap
    int error


cdef struct Out:
    int8_t* dealer
    int8_t* winner
    int8_t* win_type
    int8_t* source
    int8_t* colours
    int16_t* tou
    int8_t* bonus
    int8_t* bonus_flip
    int8_t* kaizhao
    int8_t* kaizhao_wait
    int16_t* claims
    int16_t* flips
    int16_t* stock_left
    int16_t* redeals
    int8_t* pairs_dealt
    int32_t* net


cdef inline void logrow(G* g, int seat, int action, int card, int64_t value) noexcept nogil:
    cdef int64_t* p
    if not g.recording or g.error:
        return
    if g.log_n == g.log_cap:
        p = <int64_t*> realloc(g.log, 2 * g.log_cap * LOG_COLS * sizeof(int64_t))
        if p == NULL:
            g.error = ERR_MEMORY
            return
        g.log = p
        g.log_cap *= 2
    p = g.log + g.log_n * LOG_COLS
    p[0] = g.hand_index
    p[1] = g.step
    p[2] = seat
    p[3] = action
    p[4] = card
    p[5] = value
    g.log_n += 1
    g.step += 1


cdef extern from *:
    int ctz32 "__builtin_ctz"(unsigned int x) nogil


cdef inline int colour_of(int k) noexcept nogil:
    return k // 7


cdef int new_deck(G* g) noexcept nogil:
    cdef int i, j, t
    cdef const int64_t* src
    if g.use_decks:
        if g.deck_pos >= g.n_decks:
            g.error = ERR_DECKS
            return 0
        src = g.decks + g.deck_pos * NCARDS
        for i in range(NCARDS):
            g.deck[i] = <int>src[i]
        g.deck_pos += 1
        return 1
    for i in range(NCARDS):
        g.deck[i] = i
    for i in range(NCARDS - 1, 0, -1):
        j = <int>bounded(g.rng, <uint32_t>(i + 1))
        t = g.deck[i]
        g.deck[i] = g.deck[j]
        g.deck[j] = t
    return 1


cdef void deal(G* g) noexcept nogil:
    cdef int i, s, size, pos = 0, c, k
    memset(g.held, 0, sizeof(g.held))
    memset(g.dead, 0, sizeof(g.dead))
    memset(g.dead_seq, 0, sizeof(g.dead_seq))
    memset(g.exposed, 0, sizeof(g.exposed))
    memset(g.kz4, 0, sizeof(g.kz4))
    memset(g.nkz, 0, sizeof(g.nkz))
    memset(g.waste, 0, sizeof(g.waste))
    memset(g.pub, 0, sizeof(g.pub))
    g.counter = 0
    g.offered = 0
    g.claims = 0
    g.flips = 0
    if g.track:
        g.hist.n = 0
        memset(g.hist.cum, 0, sizeof(g.hist.cum))
    for i in range(g.N):
        s = (g.dealer + i) % g.N
        size = g.hd if i == 0 else g.ho
        for c in range(pos, pos + size):
            g.held[s][g.deck[c] >> 2] += 1
        pos += size
    g.top = pos
    for s in range(g.N):
        g.pairs[s] = 0
        g.odd[s] = 0
        g.deadm[s] = 0
        g.tcol[s][0] = 0
        g.tcol[s][1] = 0
        g.tcol[s][2] = 0
        g.tcol[s][3] = 0
        for k in range(NK):
            g.pairs[s] += g.held[s][k] >> 1
            if g.held[s][k] & 1:
                g.odd[s] |= (<uint32_t>1) << k
            g.tcol[s][k // 7] += g.held[s][k]
    if g.recording:
        for s in range(g.N):
            for k in range(NK):
                if g.held[s][k]:
                    logrow(g, s, A_DEAL, k, g.held[s][k])


cdef inline int unseen(G* g, int p, int k) noexcept nogil:
    return 4 - g.held[p][k] - (g.pub[k] - g.exposed[p][k])


cdef int choose(G* g, int p, int* opts, int m) noexcept nogil:
    """The built-in policy's choice among m options (kinds ascending)."""
    cdef int code = g.policy[p]
    cdef int keys[NK]
    cdef int tied[NK]
    cdef int i, k, best, nt
    if m == 1:
        return opts[0]
    if code == P_SEARCH:
        return search_choose(g, p, opts, m)
    if code == 0:
        return opts[bounded(g.rng, <uint32_t>m)]
    if code == 1:
        for i in range(m):
            keys[i] = g.tcol[p][opts[i] // 7] * 8 + unseen(g, p, opts[i])
    else:
        for i in range(m):
            keys[i] = unseen(g, p, opts[i])
    best = keys[0]
    for i in range(1, m):
        if keys[i] < best:
            best = keys[i]
    nt = 0
    for i in range(m):
        if keys[i] == best:
            tied[nt] = opts[i]
            nt += 1
    if nt == 1:
        return tied[0]
    return tied[bounded(g.rng, <uint32_t>nt)]


cdef int discard(G* g, int p) noexcept nogil:
    cdef int opts[NK]
    cdef int m = 0, k, forced = 0, bestk = -1, bests = 0
    cdef uint32_t bits = g.deadm[p]
    if bits:
        forced = 1
        while bits:
            k = ctz32(bits)
            bits &= bits - 1
            if g.dead_order == 0:
                if bestk < 0 or g.dead_seq[p][k] < bests:
                    bestk = k
                    bests = g.dead_seq[p][k]
            else:
                opts[m] = k
                m += 1
        if g.dead_order == 0:
            opts[0] = bestk
            m = 1
    else:
        bits = g.odd[p]
        while bits:
            opts[m] = ctz32(bits)
            bits &= bits - 1
            m += 1
    k = choose(g, p, opts, m)
    if g.error:
        return k
    if g.track:
        record(g, p, k, forced, opts, m)
    apply_discard(g, p, k)
    logrow(g, p, A_DISCARD, k, forced)
    return k


cdef void record(G* g, int p, int k, int forced, int* opts, int m) noexcept nogil:
    """Keep a discard for the inference (before it is applied)."""
    cdef Hist* H = g.hist
    cdef int n = H.n, j
    if (not forced or m >= 2) and n < MAXE:
        H.seat[n] = p
        H.kind[n] = k
        H.fmask[n] = 0
        if forced:
            for j in range(m):
                H.fmask[n] |= (<uint32_t>1) << opts[j]
        for j in range(NK):
            H.vis[n][j] = <int8_t>(g.pub[j] - g.exposed[p][j])
            H.then[n][j] = H.cum[p][j]
        H.n = n + 1
    H.cum[p][k] -= 1


cdef inline void apply_discard(G* g, int p, int k) noexcept nogil:
    g.held[p][k] -= 1
    g.odd[p] &= ~((<uint32_t>1) << k)
    g.tcol[p][k // 7] -= 1
    g.offered |= (<uint32_t>1) << k
    if g.dead[p][k]:
        g.dead[p][k] = 0
        g.deadm[p] &= ~((<uint32_t>1) << k)
        g.exposed[p][k] -= 1
        g.pub[k] -= 1


cdef int play(G* g, int* win, int* source, int* wcard, int* kzwait) noexcept nogil:
    """Steps 3-4 of the specification; returns the winner or -1."""
    cdef int k
    if g.pairs[g.dealer] == 5:
        logrow(g, g.dealer, A_NATURAL, -1, 0)
        win[0] = W_NATURAL
        source[0] = -1
        wcard[0] = -1
        kzwait[0] = 0
        return g.dealer
    k = discard(g, g.dealer)
    if g.error:
        return -1
    return offers(g, k, g.dealer, 0, win, source, wcard, kzwait)


cdef int offers(G* g, int k, int origin, int is_flip, int* win, int* source, int* wcard, int* kzwait) noexcept nogil:
    """The loop of offers of step 4 from an offer of ``k`` by ``origin``; returns the winner or -1."""
    cdef int N = g.N
    cdef int j, s, c, f, nc, step, was3, was_dead
    cdef int cands[MAXP]
    cdef int j0, j1
    cdef uint32_t kb
    for step in range(C_MAX_STEPS):
        nc = 0
        kb = (<uint32_t>1) << k
        j0 = 0 if (is_flip and g.flip_priority == 0) else 1
        j1 = N if (j0 == 0 or not is_flip) else N + 1
        s = (origin + j0) % N
        for j in range(j0, j1):
            if (g.odd[s] & kb) and (g.claimable or not (g.deadm[s] & kb)):
                cands[nc] = s
                nc += 1
            s += 1
            if s == N:
                s = 0
        if nc == 0:
            g.waste[k] += 1
            g.pub[k] += 1
            logrow(g, origin, A_WASTE, k, 0)
            f = (origin + 1) % N
            if NCARDS - g.top <= g.reserve:
                win[0] = W_DRAWN
                source[0] = -1
                wcard[0] = -1
                kzwait[0] = 0
                return -1
            k = g.deck[g.top] >> 2
            g.top += 1
            g.flips += 1
            g.offered |= (<uint32_t>1) << k
            logrow(g, f, A_FLIP, k, NCARDS - g.top)
            origin = f
            is_flip = 1
            continue
        c = cands[0]
        was3 = g.held[c][k] == 3
        was_dead = g.dead[c][k]
        g.held[c][k] += 1
        g.exposed[c][k] += 1 if was_dead else 2
        g.pub[k] += 1 if was_dead else 2
        g.dead[c][k] = 0
        g.deadm[c] &= ~kb
        g.odd[c] &= ~kb
        g.tcol[c][k // 7] += 1
        g.pairs[c] += 1
        g.claims += 1
        if g.track:
            g.hist.cum[c][k] += 1
        logrow(g, c, A_CLAIM, k, g.held[c][k])
        if was3:
            g.kz4[c][k] = 1
            g.nkz[c] += 1
        for j in range(1, nc):
            s = cands[j]
            if not g.dead[s][k]:
                g.dead[s][k] = 1
                g.deadm[s] |= kb
                g.dead_seq[s][k] = g.counter
                g.counter += 1
                g.exposed[s][k] += 1
                g.pub[k] += 1
                logrow(g, s, A_DEAD, k, 0)
        if g.pairs[c] == 5:
            if is_flip:
                win[0] = W_SELF if c == origin else W_FLIP
            else:
                win[0] = W_DISCARD
            source[0] = -1 if win[0] == W_SELF else origin
            wcard[0] = k
            kzwait[0] = was3
            return c
        k = discard(g, c)
        if g.error:
            return -1
        origin = c
        is_flip = 0
    g.error = ERR_STEPS
    return -1


cdef struct Score:
    int colours, tou, bonus, bonus_flip, kz
    int net[MAXP]


cdef void settle(G* g, int winner, int win, int source, int kzwait, Score* r) noexcept nogil:
    """Step 6: the score of a won hand and every seat's net (bonus rows logged when recording)."""
    cdef int N = g.N
    cdef int s, k, j, colours, kz, bonus, tou, pay, sw
    cdef int cmask, bonus_ok, selfdraw, kz_on, kzp, kwp, colpts
    cmask = 0
    for k in range(NK):
        if g.held[winner][k] >= 2:
            cmask |= 1 << (k // 7)
    colours = (cmask & 1) + ((cmask >> 1) & 1) + ((cmask >> 2) & 1) + ((cmask >> 3) & 1)
    kz = g.nkz[winner] - kzwait
    if g.dealt_four:
        for k in range(NK):
            if g.held[winner][k] == 4 and not g.kz4[winner][k]:
                kz += 1
    sw = win
    if win == W_NATURAL and g.natural == 2:
        sw = W_SELF          # the redeal cap was reached: scored as a self-draw
    # bonus_reason
    bonus_ok = 1
    if sw == W_DISCARD:
        bonus_ok = 0
    elif sw == W_NATURAL and g.natural == 1:
        bonus_ok = 0
    elif colours == 4 and not (sw == W_FLIP and g.fc_flip == 1):
        bonus_ok = 0
    bonus = 0
    r.bonus_flip = 0
    if bonus_ok:
        r.bonus_flip = 1
        for j in range(5):
            k = g.deck[g.top + j] >> 2
            logrow(g, winner, A_BONUS, k, j + 1)
            if g.held[winner][k] >= 2:
                bonus += 2 if j == 4 else 1
    # score_components
    selfdraw = sw == W_SELF or sw == W_NATURAL
    kz_on = colours < 4 or g.fc_kz
    kzp = kz if kz_on else 0
    kwp = (5 + g.kz_plus1) if (kzwait and kz_on) else 0
    if colours == 4:
        colpts = 1 if selfdraw else 0
        tou = colpts + bonus + kzp + kwp
    else:
        colpts = 5 if colours == 1 else (3 if colours == 2 else 2)
        tou = colpts + (1 if selfdraw else 0) + bonus + kzp + kwp
    for s in range(N):
        r.net[s] = 0
    if win == W_DISCARD:
        pay = tou * ((N - 1) if g.covers_all else 1)
        r.net[source] -= pay
        r.net[winner] += pay
    elif win == W_FLIP and g.flip_payer == 1:
        r.net[source] -= tou
        r.net[winner] += tou
    else:
        for s in range(N):
            if s != winner:
                r.net[s] -= tou
                r.net[winner] += tou
    r.colours = colours
    r.tou = tou
    r.bonus = bonus
    r.kz = kz


cdef void run_loop(G* g, int64_t hands, int64_t record, Out* o) noexcept nogil:
    cdef int64_t i
    cdef int N = g.N
    cdef int s, redeals, winner, win, source, wcard, kzwait, colours, kz, bonus, tou
    cdef int prev_winner = -1
    cdef Score sc
    g.dealer = 0
    for i in range(hands):
        g.hand_index = i
        g.step = 0
        g.recording = i < record
        if i > 0:
            if g.next_dealer == 0:
                g.dealer = (g.dealer + 1) % N
            elif g.next_dealer == 1:
                if prev_winner >= 0:
                    g.dealer = prev_winner
        if g.next_dealer == 2:
            g.dealer = <int>bounded(g.rng, <uint32_t>N)
        if g.relative:
            for s in range(N):
                g.policy[(g.dealer + s) % N] = g.rel_policy[s]
        redeals = 0
        while True:
            if not new_deck(g):
                return
            deal(g)
            if g.pairs[g.dealer] == 5 and g.natural == 2 and redeals < C_MAX_REDEALS:
                redeals += 1
                logrow(g, g.dealer, A_REDEAL, -1, redeals)
                continue
            break
        o.dealer[i] = g.dealer
        o.redeals[i] = redeals
        for s in range(N):
            o.pairs_dealt[i * N + s] = g.pairs[s]
            o.net[i * N + s] = 0
        winner = play(g, &win, &source, &wcard, &kzwait)
        if g.error:
            return
        prev_winner = winner
        o.winner[i] = winner
        o.win_type[i] = win
        o.source[i] = source
        o.claims[i] = g.claims
        o.flips[i] = g.flips
        o.stock_left[i] = NCARDS - g.top
        o.colours[i] = 0
        o.tou[i] = 0
        o.bonus[i] = 0
        o.bonus_flip[i] = 0
        o.kaizhao[i] = 0
        o.kaizhao_wait[i] = 0
        if winner < 0:
            logrow(g, -1, A_DRAWN, -1, 0)
            continue
        settle(g, winner, win, source, kzwait, &sc)
        for s in range(N):
            o.net[i * N + s] = sc.net[s]
        o.bonus_flip[i] = sc.bonus_flip
        colours = sc.colours
        tou = sc.tou
        bonus = sc.bonus
        kz = sc.kz
        o.colours[i] = colours
        o.tou[i] = tou
        o.bonus[i] = bonus
        o.kaizhao[i] = kz
        o.kaizhao_wait[i] = kzwait
        logrow(g, winner, A_WIN, wcard, win)


# --------------------------------------------------------------------------------------
# search (policy code 3): determinized Monte Carlo, docs/nine-ten-engine.md "search"
# --------------------------------------------------------------------------------------

cdef struct SplitMix:
    uint64_t state


cdef uint64_t sm_next64(void* st) noexcept nogil:
    cdef SplitMix* sm = <SplitMix*> st
    cdef uint64_t z
    sm.state += <uint64_t>0x9E3779B97F4A7C15ULL
    z = sm.state
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef uint32_t sm_next32(void* st) noexcept nogil:
    return <uint32_t>(sm_next64(st) >> 32)


cdef double sm_double(void* st) noexcept nogil:
    return (sm_next64(st) >> 11) * (1.0 / 9007199254740992.0)


cdef inline uint64_t bounded64(bitgen_t* rng, uint64_t s) noexcept nogil:
    """Uniform integer in [0, s): 64 bits from two next_uint32 (high first), rejection."""
    cdef uint64_t rem = (<uint64_t>0 - s) % s
    cdef uint64_t x
    while True:
        x = (<uint64_t>rng.next_uint32(rng.state)) << 32
        x |= <uint64_t>rng.next_uint32(rng.state)
        if x <= <uint64_t>0xFFFFFFFFFFFFFFFFULL - rem:
            return x % s


cdef uint64_t count_table(int* U, uint32_t offered, int parity, int n, uint64_t W[NK + 1][MAXH + 1]) noexcept nogil:
    """W[i][r]: consistent choices of r physical cards from kinds i..27 of the pool U."""
    cdef int i, r, c, top
    for r in range(n + 1):
        W[NK][r] = 0
    W[NK][0] = 1
    for i in range(NK - 1, -1, -1):
        for r in range(n + 1):
            W[i][r] = 0
            top = U[i] if U[i] < r else r
            for c in range(top + 1):
                if parity and (offered >> i) & 1 and c & 1:
                    continue
                W[i][r] += BINOM[U[i]][c] * W[i + 1][r - c]
    return W[0][n]


cdef void unrank(int* U, uint32_t offered, int parity, int n, uint64_t x, uint64_t W[NK + 1][MAXH + 1],
                 int* hid) noexcept nogil:
    cdef int i, c, r = n, top
    cdef uint64_t b
    for i in range(NK):
        hid[i] = 0
        top = U[i] if U[i] < r else r
        for c in range(top + 1):
            if parity and (offered >> i) & 1 and c & 1:
                continue
            b = BINOM[U[i]][c] * W[i + 1][r - c]
            if x < b:
                hid[i] = c
                x = x % W[i + 1][r - c]
                r -= c
                break
            x -= b


cdef int64_t STATS[4]      # search decisions, relaxed layouts, inferred decisions, candidates
cdef double STATS_ESS[1]   # sum of the inferred decisions' effective sample sizes
STATS[0] = 0
STATS[1] = 0
STATS[2] = 0
STATS[3] = 0
STATS_ESS[0] = 0.0


def search_stats():
    """Totals over the process's ``run_hands`` calls: ``decisions`` (search decisions, two or
    more options), ``relaxed`` (layouts whose parities had to be dropped; 0 expected),
    ``inferred`` (decisions whose layouts were resampled by the inference, once per stage of the
    choice), ``candidates``
    (candidate layouts they drew) and ``ess`` (the sum of their effective sample sizes)."""
    return {"decisions": int(STATS[0]), "relaxed": int(STATS[1]), "inferred": int(STATS[2]),
            "candidates": int(STATS[3]), "ess": float(STATS_ESS[0])}


cdef void pool(G* g, int p, int* U0, int* nt) noexcept nogil:
    """The unseen pool of p and the hidden sizes of the seats."""
    cdef int t, k
    for k in range(NK):
        U0[k] = 4 - g.held[p][k] - (g.pub[k] - g.exposed[p][k])
    if g.inflight >= 0:
        U0[g.inflight] -= 1
    for t in range(g.N):
        nt[t] = 0
        if t != p:
            for k in range(NK):
                nt[t] += g.held[t][k] - g.exposed[t][k]


cdef void draw_hidden(G* g, int p, int* U0, int* nt, int hid[MAXP][NK]) noexcept nogil:
    """Steps 1-2 of a layout: the concealed parts of the other seats."""
    cdef int N = g.N
    cdef int U[NK]
    cdef uint64_t W[NK + 1][MAXH + 1]
    cdef uint64_t total, x
    cdef int t, j, k, attempt, ok, n, parity
    for attempt in range(TRIES):
        for k in range(NK):
            U[k] = U0[k]
        ok = 1
        for j in range(1, N):
            t = (p + j) % N
            n = nt[t]
            parity = 1
            total = count_table(U, g.offered, 1, n, W)
            if total == 0:
                if attempt < TRIES - 1:
                    ok = 0
                    break
                parity = 0
                g.relaxed += 1
                total = count_table(U, g.offered, 0, n, W)
            x = bounded64(g.rng, total)
            unrank(U, g.offered, parity, n, x, W, hid[t])
            for k in range(NK):
                U[k] -= hid[t][k]
        if ok:
            break


cdef uint64_t finish(G* g, int p, int* U0, int hid[MAXP][NK], G* gs) noexcept nogil:
    """Steps 3-4 of a layout: the stock, the rollout seed and the sampled state gs."""
    cdef int N = g.N
    cdef int U[NK]
    cdef int stock[NCARDS]
    cdef uint64_t a, b
    cdef int t, j, k, n, ns, i, r, tmp
    for k in range(NK):
        U[k] = U0[k]
    for j in range(1, N):
        t = (p + j) % N
        for k in range(NK):
            U[k] -= hid[t][k]
    ns = 0
    for k in range(NK):
        for i in range(U[k]):
            stock[ns] = k
            ns += 1
    for i in range(ns - 1, 0, -1):
        r = <int>bounded(g.rng, <uint32_t>(i + 1))
        tmp = stock[i]
        stock[i] = stock[r]
        stock[r] = tmp
    a = g.rng.next_uint32(g.rng.state)
    b = g.rng.next_uint32(g.rng.state)
    memcpy(gs, g, sizeof(G))
    gs.recording = 0
    gs.track = 0
    for i in range(ns):
        gs.deck[g.top + i] = 4 * stock[i]
    for t in range(N):
        gs.policy[t] = ROLLOUT
    if g.mix:
        for j in range(1, N):
            r = <int>bounded(g.rng, 10)
            gs.policy[(p + j) % N] = ROLLOUT if r < 8 else (2 if r == 8 else 0)
    for t in range(N):
        if t == p:
            continue
        gs.pairs[t] = 0
        gs.odd[t] = 0
        gs.nkz[t] = 0
        gs.tcol[t][0] = 0
        gs.tcol[t][1] = 0
        gs.tcol[t][2] = 0
        gs.tcol[t][3] = 0
        for k in range(NK):
            n = g.exposed[t][k] + hid[t][k]
            gs.held[t][k] = n
            gs.pairs[t] += n >> 1
            if n & 1:
                gs.odd[t] |= (<uint32_t>1) << k
            gs.tcol[t][k // 7] += n
            gs.kz4[t][k] = 1 if (g.exposed[t][k] >= 2 and n == 4) else 0
            gs.nkz[t] += gs.kz4[t][k]
    return (a << 32) | b


cdef uint64_t layout(G* g, int p, G* gs) noexcept nogil:
    """Draw one uniform layout of what p has not seen into gs (a copy of g); returns the rollout seed."""
    cdef int U0[NK]
    cdef int nt[MAXP]
    cdef int hid[MAXP][NK]
    pool(g, p, U0, nt)
    draw_hidden(g, p, U0, nt, hid)
    return finish(g, p, U0, hid, gs)


cdef double seat_likelihood(G* g, int t, int* now) noexcept nogil:
    """How likely seat t's recorded discards are if it holds now[] (the opponent model)."""
    cdef Hist* H = g.hist
    cdef double a = 1.0, b = 1.0, c = 1.0, pr, pcc
    cdef int e, j, k, m, bc, bl, ncc, nlf, key
    cdef uint32_t om
    cdef int Hd[NK]
    cdef int T[4]
    cdef int un[NK]
    for e in range(H.n):
        if H.seat[e] != t:
            continue
        k = H.kind[e]
        T[0] = 0
        T[1] = 0
        T[2] = 0
        T[3] = 0
        om = 0
        for j in range(NK):
            Hd[j] = now[j] - H.cum[t][j] + H.then[e][j]
            T[j // 7] += Hd[j]
            if Hd[j] & 1:
                om |= (<uint32_t>1) << j
        if H.fmask[e]:
            om = H.fmask[e]
        if not (om >> k) & 1:
            return 0.0
        m = 0
        bc = 1 << 30
        bl = 1 << 30
        for j in range(NK):
            if (om >> j) & 1:
                m += 1
                un[j] = 4 - Hd[j] - H.vis[e][j]
                key = T[j // 7] * 8 + un[j]
                if key < bc:
                    bc = key
                if un[j] < bl:
                    bl = un[j]
        ncc = 0
        nlf = 0
        for j in range(NK):
            if (om >> j) & 1:
                if T[j // 7] * 8 + un[j] == bc:
                    ncc += 1
                if un[j] == bl:
                    nlf += 1
        pr = 1.0 / m
        pcc = (1.0 / ncc) if T[k // 7] * 8 + un[k] == bc else 0.0
        a *= (1.0 - g.eps) * pcc + g.eps * pr
        b *= (1.0 / nlf) if un[k] == bl else 0.0
        c *= pr
    return g.pi0 * a + g.pi1 * b + g.pi2 * c


cdef int informed(G* g, int p) noexcept nogil:
    """Some seat other than p has a recorded discard."""
    cdef int e
    if not g.track:
        return 0
    for e in range(g.hist.n):
        if g.hist.seat[e] != p:
            return 1
    return 0


cdef void resample(G* g, double* w, int C, double total, int S, int* sel) noexcept nogil:
    """Systematic resampling of S indices by weight (one 32-bit draw)."""
    cdef double u = g.rng.next_uint32(g.rng.state) / 4294967296.0
    cdef double acc = w[0], pos
    cdef int i, c = 0
    for i in range(S):
        pos = (u + i) * total / S
        while acc <= pos and c < C - 1:
            c += 1
            acc += w[c]
        sel[i] = c


cdef double draw_candidates(G* g, int p, int C, int* U0, int8_t* cand, double* w, double* ess) noexcept nogil:
    """Steps I1-I2: C particles drawn seat by seat (cand[c][t][k]), weighted, resampled after every
    seat but the last; w gets the last seat's weights; returns their total (-1 on a memory error)."""
    cdef int N = g.N
    cdef int nt[MAXP]
    cdef int U[NK]
    cdef int hid[NK]
    cdef int now[NK]
    cdef uint64_t W[NK + 1][MAXH + 1]
    cdef uint64_t tot, x
    cdef int c, j, t, k, n, parity, relaxed, idx
    cdef double L, total = 0.0, sq = 0.0, e
    cdef size_t row = <size_t>N * NK
    cdef int8_t* pools = <int8_t*> malloc(<size_t>C * NK)
    cdef int8_t* cand2 = <int8_t*> malloc(<size_t>C * row)
    cdef int8_t* pools2 = <int8_t*> malloc(<size_t>C * NK)
    cdef int* sel = <int*> malloc(<size_t>C * sizeof(int))
    if pools == NULL or cand2 == NULL or pools2 == NULL or sel == NULL:
        free(pools)
        free(cand2)
        free(pools2)
        free(sel)
        g.error = ERR_MEMORY
        return -1.0
    pool(g, p, U0, nt)
    memset(cand, 0, <size_t>C * row)
    for c in range(C):
        for k in range(NK):
            pools[c * NK + k] = <int8_t>U0[k]
    ess[0] = <double>C
    for idx in range(N - 1):
        t = (p + 1 + idx) % N
        n = nt[t]
        relaxed = 0
        for c in range(C):
            for k in range(NK):
                U[k] = pools[c * NK + k]
            parity = 1
            tot = count_table(U, g.offered, 1, n, W)
            if tot == 0:
                parity = 0
                relaxed = 1
                tot = count_table(U, g.offered, 0, n, W)
            x = bounded64(g.rng, tot)
            unrank(U, g.offered, parity, n, x, W, hid)
            for k in range(NK):
                cand[c * row + t * NK + k] = <int8_t>hid[k]
                pools[c * NK + k] = <int8_t>(U[k] - hid[k])
                now[k] = g.exposed[t][k] + hid[k]
            if parity:
                L = seat_likelihood(g, t, now)
                w[c] = L * <double>tot
            else:
                w[c] = 0.0
        total = 0.0
        sq = 0.0
        for c in range(C):
            total += w[c]
            sq += w[c] * w[c]
        if total == 0.0:
            if relaxed:
                g.relaxed += 1
            for c in range(C):
                w[c] = 1.0
            total = <double>C
            sq = <double>C
        e = total * total / sq
        if e < ess[0]:
            ess[0] = e
        if idx < N - 2:
            resample(g, w, C, total, C, sel)
            for c in range(C):
                memcpy(cand2 + c * row, cand + sel[c] * row, row)
                memcpy(pools2 + c * NK, pools + sel[c] * NK, NK)
            memcpy(cand, cand2, <size_t>C * row)
            memcpy(pools, pools2, <size_t>C * NK)
    free(pools)
    free(cand2)
    free(pools2)
    free(sel)
    return total


cdef int rollout(G* gs, G* gr, int p, int mode, int k, int origin, uint64_t seed, int* won) noexcept nogil:
    """Play a sampled state to the end: mode 0 = p discards k, mode 1 = k is offered by origin
    as a discard.  Returns net[p] (頭); ``won`` = p won."""
    cdef SplitMix sm
    cdef bitgen_t bg
    cdef int winner, win, source, wcard, kzwait
    cdef Score sc
    memcpy(gr, gs, sizeof(G))
    sm.state = seed
    bg.state = &sm
    bg.next_uint64 = sm_next64
    bg.next_uint32 = sm_next32
    bg.next_double = sm_double
    bg.next_raw = sm_next64
    gr.rng = &bg
    if mode == 0:
        apply_discard(gr, p, k)
        origin = p
    winner = offers(gr, k, origin, 0, &win, &source, &wcard, &kzwait)
    won[0] = 0
    if gr.error:
        return 0
    if winner < 0:
        return 0
    settle(gr, winner, win, source, kzwait, &sc)
    won[0] = winner == p
    return sc.net[p]


cdef int search_core(G* g, int p, int* opts, int m, int S, int mode, int origin, int64_t* sums,
                     int64_t* vals, int8_t* wins, int ref, int64_t* q) noexcept nogil:
    """S layouts, every option rolled out on each: sums[i] of the values (vals[i*S + j], wins[i*S + j]
    if given); with ref >= 0, q[i] = sum of (v_i - v_ref)^2.  mode 0: options are discards;
    mode 1: one option, the offer of opts[0] by origin."""
    cdef G* gs = <G*> malloc(sizeof(G))
    cdef G* gr = <G*> malloc(sizeof(G))
    cdef int i, j, v, won, c, t, k
    cdef int64_t d
    cdef int vj[NK]
    cdef uint64_t seed
    cdef int N = g.N, C = 0
    cdef int U0[NK]
    cdef int hid[MAXP][NK]
    cdef int8_t* cand = NULL
    cdef double* w = NULL
    cdef int* sel = NULL
    cdef double total, ess
    if gs == NULL or gr == NULL:
        free(gs)
        free(gr)
        g.error = ERR_MEMORY
        return 0
    if g.infer > 0 and informed(g, p):
        C = g.infer * S
        cand = <int8_t*> malloc(<size_t>C * N * NK)
        w = <double*> malloc(<size_t>C * sizeof(double))
        sel = <int*> malloc(<size_t>S * sizeof(int))
        if cand == NULL or w == NULL or sel == NULL:
            free(cand)
            free(w)
            free(sel)
            free(gs)
            free(gr)
            g.error = ERR_MEMORY
            return 0
        total = draw_candidates(g, p, C, U0, cand, w, &ess)
        if total < 0.0:
            free(cand)
            free(w)
            free(sel)
            free(gs)
            free(gr)
            return 0
        resample(g, w, C, total, S, sel)
        g.inferred += 1
        g.ncands += C
        g.ess_sum += ess
        memset(hid, 0, sizeof(hid))
    for i in range(m):
        sums[i] = 0
        if ref >= 0:
            q[i] = 0
    for j in range(S):
        if C:
            c = sel[j]
            for t in range(N):
                if t != p:
                    for k in range(NK):
                        hid[t][k] = cand[(c * N + t) * NK + k]
            seed = finish(g, p, U0, hid, gs)
        else:
            seed = layout(g, p, gs)
        for i in range(m):
            v = rollout(gs, gr, p, mode, opts[i], origin, seed, &won)
            if gr.error:
                g.error = gr.error
                free(cand)
                free(w)
                free(sel)
                free(gs)
                free(gr)
                return 0
            sums[i] += v
            vj[i] = v
            if vals != NULL:
                vals[i * S + j] = v
                wins[i * S + j] = won
        if ref >= 0:
            for i in range(m):
                d = vj[i] - vj[ref]
                q[i] += d * d
    free(cand)
    free(w)
    free(sel)
    free(gs)
    free(gr)
    return 1


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """SplitMix64's output function (a bijection of 64-bit words, 0 -> 0): the search salt's mix."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline uint64_t search_seed(int64_t hand, int64_t decision, int p, uint64_t salt_mix) noexcept nogil:
    """The seed of a decision's private layout stream (docs/nine-ten-engine.md, "The layout
    stream"); ``salt_mix`` is ``mix64(search_salt)``, 0 without a salt."""
    return ((<uint64_t>hand) * <uint64_t>0x9E3779B97F4A7C15ULL) ^ \
        ((<uint64_t>decision) * <uint64_t>0xBF58476D1CE4E5B9ULL) ^ (<uint64_t>p) ^ salt_mix


cdef inline int beats(double D, double Q, double S, double z) noexcept nogil:
    """The paired test of the choice: a sum of differences D > 0 over S layouts, with Q the sum of
    their squares, is more than z standard errors."""
    return D > 0.0 and D * D * (S - 1.0) > z * z * (S * Q - D * D)


cdef int search_choose(G* g, int p, int* opts, int m) noexcept nogil:
    cdef int keys[NK]
    cdef int tied[NK]
    cdef int i, ref = 0, bestkey = 1 << 30, nt = 0
    g.decisions += 1
    for i in range(m):       # the rollout policy's own choice, its tie drawn as colour_cut draws it
        keys[i] = g.tcol[p][opts[i] // 7] * 8 + unseen(g, p, opts[i])
        if keys[i] < bestkey:
            bestkey = keys[i]
    for i in range(m):
        if keys[i] == bestkey:
            tied[nt] = i
            nt += 1
    ref = tied[0] if nt == 1 else tied[bounded(g.rng, <uint32_t>nt)]
    return search_stages(g, p, opts, m, ref, search_seed(g.hand_index, g.decisions, p, g.salt_mix))


cdef int search_stages(G* g, int p, int* opts, int m, int ref, uint64_t seed) noexcept nogil:
    """The search's two stages from the rollout policy's choice ``opts[ref]``, its layouts drawn
    from the SplitMix stream ``seed`` (the engine's own stream untouched): the kind to discard."""
    cdef int64_t sums[NK]
    cdef int64_t q[NK]
    cdef int64_t sums2[NK]
    cdef int64_t q2[NK]
    cdef int opts2[NK]
    cdef int idx2[NK]
    cdef int i, j, best, ok, m2 = 1, go = 0, S2
    cdef int64_t tot, besttot = 0
    cdef double S = g.samples, T, go_z
    cdef SplitMix sm
    cdef bitgen_t bg
    cdef bitgen_t* main_rng
    sm.state = seed
    bg.state = &sm
    bg.next_uint64 = sm_next64
    bg.next_uint32 = sm_next32
    bg.next_double = sm_double
    bg.next_raw = sm_next64
    main_rng = g.rng
    g.rng = &bg
    ok = search_core(g, p, opts, m, g.samples, 0, -1, sums, NULL, NULL, ref, q)
    if not ok:
        g.rng = main_rng
        return opts[ref]
    # stage 1: the options ahead of ref; a second stage if one leads by more than go_z errors
    go_z = g.go if g.go < g.gate else g.gate
    opts2[0] = opts[ref]
    idx2[0] = ref
    for i in range(m):
        if i != ref and sums[i] > sums[ref]:
            opts2[m2] = opts[i]
            idx2[m2] = i
            m2 += 1
            if beats(<double>(sums[i] - sums[ref]), <double>q[i], S, go_z):
                go = 1
    best = ref
    if go:
        S2 = g.samples * g.more
        if S2 > MAXS:
            S2 = MAXS
        ok = search_core(g, p, opts2, m2, S2, 0, -1, sums2, NULL, NULL, 0, q2)
        if ok:
            T = S + S2
            for j in range(1, m2):
                i = idx2[j]
                tot = sums[i] + sums2[j]
                if beats(<double>(tot - sums[ref] - sums2[0]), <double>(q[i] + q2[j]), T, g.gate) and \
                        (best == ref or tot > besttot):
                    best = i
                    besttot = tot
    g.rng = main_rng
    return opts[best]


cdef int configure(G* g, cfg) except -1:
    """The table and option codes of ``cfg`` into ``g``."""
    codes = cfg.codes()
    g.N = int(cfg.players)
    g.hd = int(cfg.dealer_cards)
    g.ho = int(cfg.other_cards)
    g.reserve = int(cfg.reserve)
    g.natural = codes["natural"]
    g.flip_priority = codes["flip_priority"]
    g.flip_payer = codes["flip_win_payer"]
    g.covers_all = codes["discard_payer_covers_all"]
    g.fc_flip = codes["four_colour_flip_win"]
    g.fc_kz = codes["four_colour_kaizhao_counts"]
    g.kz_plus1 = codes["kaizhao_wait_also_plus1"]
    g.dead_order = codes["dead_card_order"]
    g.claimable = codes["dead_cards_claimable"]
    g.dealt_four = codes["dealt_four_is_kaizhao"]
    g.next_dealer = codes["next_dealer"]
    g.samples = int(cfg.samples)
    g.gate = float(cfg.search_z)
    from kaptai.nineten.config import SEARCH_GO, SEARCH_MORE
    g.go = float(SEARCH_GO)
    g.more = int(SEARCH_MORE)
    g.infer = int(getattr(cfg, "search_infer", 0))
    g.mix = int(getattr(cfg, "search_mix", 0))
    g.salt_mix = mix64(<uint64_t>int(getattr(cfg, "search_salt", 0)))
    from kaptai.nineten.config import INFER_PRIOR, INFER_EPS
    g.pi0 = float(INFER_PRIOR[0])
    g.pi1 = float(INFER_PRIOR[1])
    g.pi2 = float(INFER_PRIOR[2])
    g.eps = float(INFER_EPS)
    if not 1 <= g.samples <= MAXS:
        raise ValueError(f"samples={g.samples}: expected 1 to {MAXS}")
    return 0


cdef int load_state(G* g, cfg, state, int seat) except -1:
    """A typed position into g (search_values, infer_beliefs); ``events`` and ``cum`` when given
    turn the inference on (``g.hist`` allocated; the caller frees it)."""
    cdef int N = int(cfg.players)
    cdef int t, k, e, j
    configure(g, cfg)
    if not 0 <= seat < N:
        raise ValueError(f"seat={seat}: expected 0 to {N - 1}")
    held = np.asarray(state["held"], dtype=np.int64)
    exposed = np.asarray(state["exposed"], dtype=np.int64)
    dead = np.asarray(state["dead"], dtype=np.int64)
    dseq = np.asarray(state["dead_seq"], dtype=np.int64)
    kz4 = np.asarray(state["kz4"], dtype=np.int64)
    waste = np.asarray(state["waste"], dtype=np.int64)
    for t in range(N):
        if t != seat and int(held[t].sum() - exposed[t].sum()) > MAXH:
            raise ValueError(f"seat {t} hides more than {MAXH} cards")
    g.top = int(state["top"])
    g.dealer = int(state["dealer"])
    g.counter = int(state["counter"])
    if not 0 <= g.top <= NCARDS - 5:
        raise ValueError(f"top={g.top}: the stock must keep at least 5 cards")
    for k in state["offered"]:
        g.offered |= (<uint32_t>1) << int(k)
    for k in range(NK):
        g.waste[k] = int(waste[k])
        g.pub[k] = int(waste[k])
    for t in range(N):
        for k in range(NK):
            g.held[t][k] = int(held[t, k])
            g.exposed[t][k] = int(exposed[t, k])
            g.dead[t][k] = int(dead[t, k])
            g.dead_seq[t][k] = int(dseq[t, k])
            g.pub[k] += g.exposed[t][k]
            g.pairs[t] += g.held[t][k] >> 1
            if g.held[t][k] & 1:
                g.odd[t] |= (<uint32_t>1) << k
            if g.dead[t][k]:
                g.deadm[t] |= (<uint32_t>1) << k
            g.tcol[t][k // 7] += g.held[t][k]
        g.policy[t] = ROLLOUT
    for k in range(NK):
        g.kz4[seat][k] = int(kz4[k])
        g.nkz[seat] += g.kz4[seat][k]
    events = state.get("events") if hasattr(state, "get") else None
    if events is not None:
        g.hist = <Hist*> malloc(sizeof(Hist))
        if g.hist == NULL:
            raise MemoryError()
        memset(g.hist, 0, sizeof(Hist))
        g.track = 1
        cum = np.asarray(state["cum"], dtype=np.int64)
        for t in range(N):
            for k in range(NK):
                g.hist.cum[t][k] = <int8_t>int(cum[t, k])
        for e, ev in enumerate(list(events)[:MAXE]):
            t, k, fm, vis, then = ev
            g.hist.seat[e] = int(t)
            g.hist.kind[e] = int(k)
            g.hist.fmask[e] = <uint32_t>int(fm)
            for j in range(NK):
                g.hist.vis[e][j] = <int8_t>int(vis[j])
                g.hist.then[e][j] = <int8_t>int(then[j])
            g.hist.n = e + 1
    return 0


def search_values(cfg, state, int seat, options, long long samples, bit_generator, int offer_from=-1):
    """Per-option, per-layout values of the search at one decision (the advisor's entry).

    Parameters
    ----------
    cfg : kaptai.nineten.config.EngineConfig
    state : mapping
        The position, as :func:`kaptai.nineten.engine_reference.search_values` takes it:
        ``held``, ``exposed``, ``dead``, ``dead_seq`` ((N, 28) ints), ``kz4`` ((28,), the
        seat's kinds whose 4th copy it claimed), ``waste`` ((28,)), ``offered`` (kinds offered so
        far), ``top``, ``dealer``, ``counter``; optionally ``events`` and ``cum`` (the discards
        of the hand, :attr:`kaptai.nineten.engine_reference.Hand.events`), which turn the
        inference on.
    seat : int
        The deciding seat ``p``.
    options : sequence of int
        Kinds ``p`` may discard; or, with ``offer_from >= 0``, one kind offered by that seat as
        a discard (the rollouts start with the offer).
    samples : int
        Layouts.
    bit_generator : numpy.random.PCG64
        Read for the layouts as in the specification.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, int)
        ``values`` (int64, (m, samples), net 頭 of ``seat``), ``wins`` (int8, same shape, 1 if
        ``seat`` won the rollout) and the number of layouts whose parities were dropped.
    """
    cdef G* g = <G*> malloc(sizeof(G))
    if g == NULL:
        raise MemoryError()
    memset(g, 0, sizeof(G))
    cdef int t, m, ok
    cdef int opts[NK]
    cdef int64_t sums[NK]
    cdef int64_t[:, ::1] vv
    cdef int8_t[:, ::1] wv
    try:
        if samples < 1 or samples > MAXS:
            raise ValueError(f"samples={samples}: expected 1 to {MAXS}")
        load_state(g, cfg, state, seat)
        opt_list = [int(x) for x in options]
        m = len(opt_list)
        if m < 1 or m > NK or (offer_from >= 0 and m != 1):
            raise ValueError("options: give 1 to 28 kinds (exactly one with offer_from)")
        for t in range(m):
            opts[t] = opt_list[t]
        g.inflight = opts[0] if offer_from >= 0 else -1
        vals = np.zeros((m, samples), dtype=np.int64)
        wins = np.zeros((m, samples), dtype=np.int8)
        vv = vals
        wv = wins
        g.rng = <bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        with bit_generator.lock, nogil:
            ok = search_core(g, seat, opts, m, <int>samples, 1 if offer_from >= 0 else 0, offer_from, sums,
                             &vv[0, 0], &wv[0, 0], -1, NULL)
        if g.error == ERR_MEMORY:
            raise MemoryError("search")
        if g.error == ERR_STEPS:
            raise RuntimeError(f"engine error: a rollout still running after {C_MAX_STEPS} offers")
        return vals, wins, int(g.relaxed)
    finally:
        free(g.hist)
        free(g)


def search_pick(cfg, state, int seat, options, int ref, seed):
    """The search's discard at one decision, as the engine makes it (both stages), from a typed
    position (as :func:`search_values` takes it, ``events`` and ``cum`` included for the
    inference): ``options`` the legal kinds, ``options[ref]`` the rollout policy's own choice
    (its tie already drawn from the engine's stream), ``seed`` the decision's SplitMix seed
    (:func:`kaptai.nineten.engine_reference._search_seed`).  The reference engine's search seats
    call it under :func:`kaptai.nineten.engine_reference.compiled_rollouts`.

    Returns
    -------
    int
        The kind to discard.
    """
    cdef G* g = <G*> malloc(sizeof(G))
    if g == NULL:
        raise MemoryError()
    memset(g, 0, sizeof(G))
    cdef int t, m, r = ref, kind
    cdef uint64_t sd = <uint64_t>(int(seed) & 0xFFFFFFFFFFFFFFFF)
    cdef int opts[NK]
    try:
        load_state(g, cfg, state, seat)
        opt_list = [int(x) for x in options]
        m = len(opt_list)
        if m < 1 or m > NK:
            raise ValueError("options: give 1 to 28 kinds")
        if not 0 <= r < m:
            raise ValueError(f"ref={ref}: expected 0 to {m - 1}")
        for t in range(m):
            opts[t] = opt_list[t]
        g.inflight = -1
        with nogil:
            kind = search_stages(g, seat, opts, m, r, sd)
        if g.error == ERR_MEMORY:
            raise MemoryError("search")
        if g.error == ERR_STEPS:
            raise RuntimeError(f"engine error: a rollout still running after {C_MAX_STEPS} offers")
        return kind
    finally:
        free(g.hist)
        free(g)


def infer_beliefs(cfg, state, int seat, long long candidates, bit_generator):
    """What the search at ``seat`` believes of the other hands (docs/nine-ten-engine.md, "Inference").

    ``state`` as for :func:`search_values` (with ``events`` and ``cum`` for the inference;
    without them every candidate weighs 1).  Draws ``candidates`` candidate layouts and weights
    them as the search does.

    Returns
    -------
    (numpy.ndarray, float)
        ``probs`` (float64, (N, 28)): the weighted share of the candidates in which seat ``t``
        hides at least one copy of kind ``k`` (the row of ``seat`` is 0), and the effective sample
        size of the weights.
    """
    cdef G* g = <G*> malloc(sizeof(G))
    if g == NULL:
        raise MemoryError()
    memset(g, 0, sizeof(G))
    cdef int N = int(cfg.players)
    cdef int U0[NK]
    cdef int8_t* cand = NULL
    cdef double* w = NULL
    cdef double total = 0.0, ess = 0.0, acc
    cdef int C = <int>candidates, c, t, k, j
    cdef double[:, ::1] pv
    try:
        if candidates < 1 or candidates > 10 * MAXS:
            raise ValueError(f"candidates={candidates}: expected 1 to {10 * MAXS}")
        load_state(g, cfg, state, seat)
        g.inflight = -1
        if g.hist == NULL:
            g.hist = <Hist*> malloc(sizeof(Hist))
            if g.hist == NULL:
                raise MemoryError()
            memset(g.hist, 0, sizeof(Hist))
            g.track = 1
        cand = <int8_t*> malloc(<size_t>C * N * NK)
        w = <double*> malloc(<size_t>C * sizeof(double))
        if cand == NULL or w == NULL:
            raise MemoryError()
        probs = np.zeros((N, NK), dtype=np.float64)
        pv = probs
        g.rng = <bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        with bit_generator.lock, nogil:
            total = draw_candidates(g, seat, C, U0, cand, w, &ess)
            for j in range(1 if total > 0.0 else N, N):
                t = (seat + j) % N
                for k in range(NK):
                    acc = 0.0
                    for c in range(C):
                        if cand[(c * N + t) * NK + k] >= 1:
                            acc += w[c]
                    pv[t, k] = acc / total
        if g.error == ERR_MEMORY:
            raise MemoryError("infer_beliefs")
        return probs, float(ess)
    finally:
        free(cand)
        free(w)
        free(g.hist)
        free(g)


def run_hands(cfg, policy_codes, bit_generator, long long hands, long long record=0, decks=None,
              bint relative=False):
    """Play ``hands`` hands of nine-ten on one bit generator (see the specification).

    Parameters
    ----------
    cfg : kaptai.nineten.config.EngineConfig
    policy_codes : sequence of int
        0 ``random``, 1 ``colour_cut``, 2 ``live_first``, 3 ``search`` per seat (with
        ``relative``: per seat counted from the dealer of each hand).
    bit_generator : numpy.random.PCG64 or None
    hands, record : int
    decks : array_like, optional
        ``(m, 112)`` card orders used instead of shuffling.

    Returns
    -------
    (dict, numpy.ndarray)
        Outcome arrays and the int64 log.
    """
    from kaptai.nineten.config import new_outcomes, CODED_OPTIONS

    if hands < 0:
        raise ValueError(f"hands={hands}: expected a non-negative integer")
    cdef G* g = <G*> malloc(sizeof(G))
    if g == NULL:
        raise MemoryError()
    memset(g, 0, sizeof(G))
    cdef int N = int(cfg.players)
    cdef Out o
    cdef int s
    cdef int64_t[:, ::1] dv
    cdef int8_t[::1] a_dealer, a_winner, a_wt, a_source, a_col, a_bonus, a_bf, a_kz, a_kw
    cdef int16_t[::1] a_tou, a_claims, a_flips, a_stock, a_redeals
    cdef int8_t[:, ::1] a_pairs
    cdef int32_t[:, ::1] a_net
    try:
        if N < 2 or N > 15:
            raise ValueError(f"players={N}: the compiled engine seats 2-15")
        configure(g, cfg)
        g.inflight = -1
        pc = [int(c) for c in policy_codes]
        if len(pc) != N:
            raise ValueError(f"got {len(pc)} policy codes for {N} players")
        for s in range(N):
            if pc[s] not in (0, 1, 2, 3):
                raise ValueError(f"unknown policy code {pc[s]} for seat {s}")
            g.policy[s] = pc[s]
            g.rel_policy[s] = pc[s]
        g.relative = relative
        if P_SEARCH in pc:
            g.hist = <Hist*> malloc(sizeof(Hist))
            if g.hist == NULL:
                raise MemoryError()
            memset(g.hist, 0, sizeof(Hist))
            g.track = 1
        if decks is not None:
            darr = np.ascontiguousarray(np.asarray(decks), dtype=np.int64)
            if darr.ndim != 2 or darr.shape[1] != NCARDS:
                raise ValueError(f"decks must have shape (m, 112), got {darr.shape}")
            g.use_decks = 1
            if darr.shape[0]:
                dv = darr
                g.decks = &dv[0, 0]
            g.n_decks = darr.shape[0]
        out = new_outcomes(int(hands), N)
        g.log_cap = 1024
        g.log = <int64_t*> malloc(g.log_cap * LOG_COLS * sizeof(int64_t))
        if g.log == NULL:
            raise MemoryError()
        if hands:
            a_dealer = out["dealer"]; a_winner = out["winner"]; a_wt = out["win_type"]; a_source = out["source"]
            a_col = out["colours"]; a_bonus = out["bonus"]; a_bf = out["bonus_flip"]; a_kz = out["kaizhao"]
            a_kw = out["kaizhao_wait"]; a_tou = out["tou"]; a_claims = out["claims"]; a_flips = out["flips"]
            a_stock = out["stock_left"]; a_redeals = out["redeals"]; a_pairs = out["pairs_dealt"]; a_net = out["net"]
            o.dealer = &a_dealer[0]; o.winner = &a_winner[0]; o.win_type = &a_wt[0]; o.source = &a_source[0]
            o.colours = &a_col[0]; o.bonus = &a_bonus[0]; o.bonus_flip = &a_bf[0]; o.kaizhao = &a_kz[0]
            o.kaizhao_wait = &a_kw[0]; o.tou = &a_tou[0]; o.claims = &a_claims[0]; o.flips = &a_flips[0]
            o.stock_left = &a_stock[0]; o.redeals = &a_redeals[0]; o.pairs_dealt = &a_pairs[0, 0]
            o.net = &a_net[0, 0]
        if bit_generator is None:
            raise ValueError("bit_generator is None: the built-in policies break ties at random")
        else:
            capsule = bit_generator.capsule
            g.rng = <bitgen_t*> PyCapsule_GetPointer(capsule, "BitGenerator")
            with bit_generator.lock, nogil:
                run_loop(g, hands, record, &o)
        STATS[0] += g.decisions
        STATS[1] += g.relaxed
        STATS[2] += g.inferred
        STATS[3] += g.ncands
        STATS_ESS[0] += g.ess_sum
        if g.error == ERR_MEMORY:
            raise MemoryError("hand log")
        if g.error == ERR_DECKS:
            raise ValueError(f"decks: {g.n_decks} given, but hand {g.hand_index} needs another one "
                             f"(every deal, a redeal included, takes the next deck)")
        if g.error == ERR_STEPS:
            raise RuntimeError(f"engine error: hand {g.hand_index} still running after {C_MAX_STEPS} offers")
        log = np.empty((g.log_n, LOG_COLS), dtype=np.int64)
        if g.log_n:
            memcpy(cnp.PyArray_DATA(log), g.log, g.log_n * LOG_COLS * sizeof(int64_t))
        return out, log
    finally:
        free(g.hist)
        free(g.log)
        free(g)
