# cython: language_level=3
"""Compiled Nantong long-card (南通長牌) engine: ``docs/nantong-engine.md`` line by line.

nogil over clean integer state; the built-in policies by code (``kaptai.nantong.config``);
hand analysis and scoring from the per-suit tables of :mod:`kaptai.nantong._eval`; randomness
from one numpy ``bitgen_t`` through :func:`kaptai.core._rng.bounded`, read exactly as
:mod:`kaptai.nantong.engine_reference` reads it.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy
from libc.stdlib cimport malloc, free
from numpy.random cimport bitgen_t
from kaptai.core._rng cimport bitgen_of, bounded
from kaptai.nantong._eval cimport complete_hand, wait_mask, distance_hand, best_score_c, suit_profile16
from kaptai.nantong import _eval as _eval_module

import numpy as np

DEF NK = 30
DEF NCARDS = 120
DEF MAXA = 4
DEF MAXM = 12
DEF MAXC = 30      # candidates of one search decision
DEF NET_SCALE = 12 # nets are scaled by 12 (exact integers for every settlement)
DEF MAXEV = 512    # events of a hand's record

# record event types (docs/nantong-engine.md, "Record")
DEF EV_EXPOSE = 0
DEF EV_DRAW = 1
DEF EV_DISCARD = 2
DEF EV_SKONG = 3
DEF EV_CLAIM = 4
DEF EV_DEAD = 5

# meld types
DEF PONG = 0
DEF MKONG = 1
DEF CKONG = 2
DEF QISHOU = 3
DEF HEZI = 4

cdef int MELD_BASE[5]
MELD_BASE[:] = [2, 8, 12, 16, 16]
cdef int WQ[2][5]
WQ[0][:] = [0, 20, 50, 100, 200]
WQ[1][:] = [0, 20, 70, 170, 370]


cdef struct Seat:
    uint8_t c[NK]
    int nm
    int mt[MAXM]
    int mk[MAXM]
    int qn
    int dq          # the dealt hand (before any exposure) holds a 起手 set
    int yaz
    int code
    int dist        # distance of the hand after its last max_melds discard, -100 = unknown


cdef struct Hand:
    int A, hs, reserve, jsr, single, rob, multi, qmode
    int nonwin_trip, nonwin_wq, wq_cum, jsame, tie, cmp_raw
    int lao[NK]
    const int32_t* opts
    bitgen_t* rng
    int deck[NCARDS]
    int pos
    int nt
    int turned[2]
    int dbl
    int isj[NK]
    int8_t lev[NK]
    Seat s[MAXA]
    int discards
    int pub[NK]     # cards face up: turned, exposed sets, dead discards and the discard on the table
    # search
    int settle      # 0 rank_only, 1 pairwise_difference, 2 winner_collects
    int S, K, M     # samples, candidate cap, distance margin
    double z2       # the guard: z^2 of the paired test against the first candidate
    int choice      # 0 the guard's rule, 1 the advisor's ranking (config.CHOICES)
    int rollout     # 1 in a rollout copy (no search, no log)
    int err         # an invariant failed (EngineError)
    int64_t* log
    Py_ssize_t logcap
    Py_ssize_t nlog
    Py_ssize_t hidx
    # inference
    int F           # particles per layout (0: uniform layouts)
    double pi[4]
    double eps
    int horizon     # config.INFER_HORIZON
    uint64_t key    # the deal's first 8 cards in base 120
    int ndec        # search decisions (with layouts) so far in the hand
    int32_t* ev     # the record: (type, seat, kind, n) per event; NULL: none kept
    int nev
    double* bel     # belief log rows (NULL: none)
    Py_ssize_t belcap
    Py_ssize_t nbel
    # result
    int win_type
    int ncomp
    int comp[MAXA]
    int win_card
    int discarder
    int huang


cdef inline int _draw(Hand* g) noexcept nogil:
    """Kind of the next stock card, -1 if the stock is empty (荒牌)."""
    if g.pos >= NCARDS - g.reserve:
        return -1
    g.pos += 1
    return g.deck[g.pos - 1] >> 2


cdef inline void _rec(Hand* g, int typ, int s, int k, int n) noexcept nogil:
    cdef int32_t* e
    if g.rollout or g.ev == NULL or g.nev >= MAXEV:
        return
    e = g.ev + 4 * g.nev
    e[0] = typ
    e[1] = s
    e[2] = k
    e[3] = n
    g.nev += 1


cdef inline int _counted(Hand* g, int t, int k) noexcept nogil:
    if t == HEZI:
        return 0
    if t == QISHOU and g.isj[k] and g.jsr == 3:
        return 0
    return 1


cdef int P5[10]
P5[0] = 1
for _i in range(1, 10):
    P5[_i] = P5[_i - 1] * 5


cdef inline void _conv(const int* a, const int* b, int* out, int k) noexcept nogil:
    cdef int m, p, m1, p1, v, best
    for m in range(k + 1):
        for p in range(2):
            best = 100000
            for m1 in range(m + 1):
                for p1 in range(p + 1):
                    v = a[2 * m1 + p1] + b[2 * (m - m1) + (p - p1)]
                    if v < best:
                        best = v
            out[2 * m + p] = best


cdef int _best_discard(uint8_t* c, int hs, int* dist) noexcept nogil:
    """The max_melds discard of a 3k+2-card hand: the kind whose removal leaves the smallest
    distance (ties: the highest kind); the same numbers as distance_hand on each candidate,
    computed once per suit: the other three suits are convolved once, then each candidate's
    suit profile is combined with them."""
    cdef int code[4]
    cdef int size[4]
    cdef int prof[4][16]
    cdef int q[16]
    cdef int others[4][16]
    cdef int tmp[16]
    cdef int zero[16]
    cdef int s, t, r, k, n, kk, first, m1, p1, v, d, best_k = -1, best_d = 1000, kind, nr, base
    n = 0
    for s in range(3):
        code[s] = 0
        size[s] = 0
        for r in range(8, -1, -1):
            code[s] = code[s] * 5 + c[9 * s + r]
            size[s] += c[9 * s + r]
        n += size[s]
    code[3] = c[27] + 5 * c[28] + 25 * c[29]
    size[3] = c[27] + c[28] + c[29]
    n += size[3]
    if n % 3 != 2:
        # not a hand after a draw: fall back to the direct computation
        for k in range(NK):
            if c[k]:
                c[k] -= 1
                d = distance_hand(c, hs)
                c[k] += 1
                if d <= best_d:
                    best_k = k
                    best_d = d
        dist[0] = best_d
        return best_k
    kk = (n - 2) // 3
    for s in range(4):
        suit_profile16(s, code[s], hs, prof[s])
    for s in range(4):
        first = 1
        for t in range(4):
            if t == s:
                continue
            if first:
                for r in range(16):
                    others[s][r] = prof[t][r]
                first = 0
            else:
                _conv(others[s], prof[t], tmp, kk)
                for r in range(2 * kk + 2):
                    others[s][r] = tmp[r]
    for kind in range(NK):
        if not c[kind]:
            continue
        if kind < 27:
            s = kind // 9
            suit_profile16(s, code[s] - P5[kind % 9], hs, q)
        else:
            s = 3
            suit_profile16(3, code[3] - P5[kind - 27], hs, q)
        d = 100000
        for m1 in range(kk + 1):
            for p1 in range(2):
                v = others[s][2 * m1 + p1] + q[2 * (kk - m1) + (1 - p1)]
                if v < d:
                    d = v
        d -= 1
        if d <= best_d:
            best_k = kind
            best_d = d
    dist[0] = best_d
    return best_k


cdef int _discard(Hand* g, int p) noexcept nogil:
    cdef Seat* s = &g.s[p]
    cdef int k, n, i, bn, bk, d
    if s.code == 0:
        k = _best_discard(s.c, g.hs, &d)
        s.dist = d
        return k
    if s.code == 1:
        bk = -1
        bn = 99
        for k in range(NK):
            if s.c[k] and s.c[k] <= bn:
                bk = k
                bn = s.c[k]
        return bk
    if s.code == 2:
        for k in range(29, 26, -1):
            if s.c[k]:
                return k
        return _best_discard(s.c, g.hs, &d)
    if s.code == 4:
        return _search_discard(g, p)
    n = 0
    for k in range(NK):
        n += s.c[k]
    i = <int>bounded(g.rng, <uint32_t>n)
    for k in range(NK):
        if i < s.c[k]:
            return k
        i -= s.c[k]
    return -1


cdef int _mm_claim(Hand* g, int j, int kind, int can_kong, int can_pong) noexcept nogil:
    """The max_melds claim (0 pass, 1 pong, 2 kong) of seat ``j`` (no win among the options)."""
    cdef Seat* s = &g.s[j]
    cdef int before, after
    if can_kong:
        return 2
    if can_pong:
        before = s.dist if s.dist != -100 else distance_hand(s.c, g.hs)
        s.c[kind] -= 2
        _best_discard(s.c, g.hs, &after)
        s.c[kind] += 2
        return 1 if after <= before else 0
    return 0


# claim answers: 0 pass, 1 pong, 2 kong, 3 win
cdef int _claim(Hand* g, int j, int kind, int can_win, int can_kong, int can_pong, int cur) noexcept nogil:
    cdef Seat* s = &g.s[j]
    cdef int n
    cdef int opts[3]
    if can_win:
        return 3
    if s.code == 0:
        return _mm_claim(g, j, kind, can_kong, can_pong)
    if s.code == 1:
        return 2 if can_kong else (1 if can_pong else 0)
    if s.code == 2:
        return 0
    if s.code == 4:
        return _search_claim(g, cur, kind, j, can_kong, can_pong)
    n = 0
    opts[n] = 0
    n += 1
    if can_pong:
        opts[n] = 1
        n += 1
    if can_kong:
        opts[n] = 2
        n += 1
    if n > 1:
        return opts[bounded(g.rng, <uint32_t>n)]
    return opts[0]


cdef int _dealt_qishou(Hand* g, int p) noexcept nogil:
    cdef int k, ck
    for k in range(NK):
        ck = g.s[p].c[k]
        if (not g.isj[k] and ck == 4) or (g.isj[k] and not g.dbl and ck == 3) or (g.dbl and k == g.turned[0] and ck == 2):
            return 1
    return 0


cdef int _qishou(Hand* g) noexcept nogil:
    """起手 passes; returns 0, or -1 on 荒牌."""
    cdef int changed, p, k, found, out, repl, r, x, ck
    cdef Seat* s
    if g.qmode == 1:
        return 0
    while True:
        changed = 0
        for p in range(g.A):
            s = &g.s[p]
            while True:
                found = -1
                for k in range(NK):
                    ck = s.c[k]
                    if not g.isj[k] and ck == 4:
                        found = k
                        out = 4
                        repl = 1
                        x = QISHOU
                        break
                    elif g.isj[k] and not g.dbl and ck == 3:
                        found = k
                        out = 3
                        repl = g.jsr
                        x = QISHOU
                        break
                    elif g.dbl and k == g.turned[0] and ck == 2:
                        found = k
                        out = 2
                        repl = 2
                        x = HEZI
                        break
                if found < 0:
                    break
                s.c[found] -= out
                g.pub[found] += out
                s.mt[s.nm] = x
                s.mk[s.nm] = found
                s.nm += 1
                s.qn += 1
                changed = 1
                _rec(g, EV_EXPOSE, p, found, out)
                for r in range(repl):
                    k = _draw(g)
                    if k < 0:
                        return -1
                    s.c[k] += 1
                    _rec(g, EV_DRAW, p, -1, 0)
        if not changed:
            return 0


cdef int _has_pong(Seat* s, int k) noexcept nogil:
    cdef int i
    for i in range(s.nm):
        if s.mt[i] == PONG and s.mk[i] == k:
            return i
    return -1


cdef int _has_mkong(Seat* s, int k) noexcept nogil:
    cdef int i
    for i in range(s.nm):
        if s.mt[i] == MKONG and s.mk[i] == k:
            return i
    return -1


cdef void _play(Hand* g) noexcept nogil:
    cdef int j
    g.win_type = 0
    g.ncomp = 0
    g.win_card = -1
    g.discarder = -1
    if _qishou(g) < 0:
        return
    if complete_hand(g.s[0].c, g.hs):
        g.win_type = 3
        g.ncomp = 1
        g.comp[0] = 0
        return
    for j in range(g.A):
        if j == 0:
            g.s[j].yaz = 1 if distance_hand(g.s[0].c, g.hs) == 0 else 0
        else:
            g.s[j].yaz = 1 if wait_mask(g.s[j].c, g.hs) != 0 else 0
    _resume(g, 0, 2, -1, -1, -1, -1)


cdef void _resume(Hand* g, int cur, int phase, int last, int fd, int fj, int fa) noexcept nogil:
    """Play from seat ``cur`` in ``phase`` (0 draw, 1 after draw, 2 discard) to the end of the hand.

    ``fd >= 0``: the first discard is kind ``fd`` (a search candidate); ``fj >= 0``: on that
    discard seat ``fj`` answers ``fa`` (a search candidate) instead of its policy."""
    cdef int k, j, off, d, i, opt_t, opt_k, nwin, can_w, can_k, can_p, ans
    cdef int after = 0
    cdef int answers[MAXA]
    cdef int seats[MAXA]
    cdef int na
    cdef Seat* s
    while True:
        s = &g.s[cur]
        if phase == 0:
            last = _draw(g)
            if last < 0:
                return
            s.c[last] += 1
            _rec(g, EV_DRAW, cur, -1, 0)
            phase = 1
        if phase == 1:
            after = 1
            if complete_hand(s.c, g.hs):
                g.win_type = 1
                g.ncomp = 1
                g.comp[0] = cur
                g.win_card = last
                return
            # kong options by increasing kind; the built-ins take the first or none
            opt_t = -1
            opt_k = -1
            for k in range(NK):
                if s.c[k] == 4:
                    opt_t = CKONG
                    opt_k = k
                    break
                elif s.c[k] >= 1 and _has_pong(s, k) >= 0:
                    opt_t = MKONG
                    opt_k = k
                    break
            if opt_t >= 0:
                if s.code == 2:
                    opt_t = -1
                elif s.code == 3:
                    if bounded(g.rng, 2) != 1:
                        opt_t = -1
            if opt_t >= 0:
                _rec(g, EV_SKONG, cur, opt_k, 4 if opt_t == CKONG else 1)
                if opt_t == CKONG:
                    s.c[opt_k] -= 4
                    g.pub[opt_k] += 4
                    s.mt[s.nm] = CKONG
                    s.mk[s.nm] = opt_k
                    s.nm += 1
                else:
                    s.c[opt_k] -= 1
                    g.pub[opt_k] += 1
                    s.mt[_has_pong(s, opt_k)] = MKONG
                    if g.rob:
                        for off in range(1, g.A):
                            j = (cur + off) % g.A
                            g.s[j].c[opt_k] += 1
                            if complete_hand(g.s[j].c, g.hs):
                                s.mt[_has_mkong(s, opt_k)] = PONG  # the robbed card leaves the kong
                                g.win_type = 2
                                g.ncomp = 1
                                g.comp[0] = j
                                g.win_card = opt_k
                                g.discarder = cur
                                return
                            g.s[j].c[opt_k] -= 1
                last = _draw(g)
                if last < 0:
                    return
                s.c[last] += 1
                _rec(g, EV_DRAW, cur, -1, 0)
                continue
            phase = 2
        if phase == 2:
            if fd >= 0:
                d = fd
                fd = -1
            else:
                d = _discard(g, cur)
            s.c[d] -= 1
            g.pub[d] += 1
            g.discards += 1
            _rec(g, EV_DISCARD, cur, d, after)
            after = 0
            na = 0
            for off in range(1, g.A):
                j = (cur + off) % g.A
                g.s[j].c[d] += 1
                can_w = complete_hand(g.s[j].c, g.hs)
                g.s[j].c[d] -= 1
                can_k = 1 if g.s[j].c[d] >= 3 else 0
                can_p = 1 if g.s[j].c[d] >= 2 else 0
                if not (can_w or can_k or can_p):
                    continue
                seats[na] = j
                if j == fj and not can_w:
                    answers[na] = fa
                else:
                    answers[na] = _claim(g, j, d, can_w, can_k, can_p, cur)
                na += 1
            fj = -1
            nwin = 0
            for i in range(na):
                if answers[i] == 3:
                    if nwin == 0 or g.multi:
                        g.comp[nwin] = seats[i]
                        g.s[seats[i]].c[d] += 1
                        nwin += 1
            if nwin:
                g.win_type = 2
                g.ncomp = nwin
                g.win_card = d
                g.discarder = cur
                return
            ans = -1
            for i in range(na):
                if answers[i] == 2:
                    ans = i
                    break
            if ans >= 0:
                j = seats[ans]
                g.s[j].c[d] -= 3
                g.pub[d] += 3
                g.s[j].mt[g.s[j].nm] = MKONG
                g.s[j].mk[g.s[j].nm] = d
                g.s[j].nm += 1
                _rec(g, EV_CLAIM, j, d, 3)
                cur = j
                last = _draw(g)
                if last < 0:
                    return
                g.s[cur].c[last] += 1
                _rec(g, EV_DRAW, cur, -1, 0)
                phase = 1
                continue
            for i in range(na):
                if answers[i] == 1:
                    ans = i
                    break
            if ans >= 0:
                j = seats[ans]
                g.s[j].c[d] -= 2
                g.pub[d] += 2
                g.s[j].mt[g.s[j].nm] = PONG
                g.s[j].mk[g.s[j].nm] = d
                g.s[j].nm += 1
                _rec(g, EV_CLAIM, j, d, 2)
                cur = j
                phase = 2
                continue
            _rec(g, EV_DEAD, cur, d, 0)
            cur = (cur + 1) % g.A
            phase = 0


cdef inline int _potou(int v, int always_up) noexcept nogil:
    if v <= 0:
        return v
    if always_up:
        return (v // 10 + 1) * 10
    return ((v + 9) // 10) * 10


cdef void _score(Hand* g, int32_t* total, int32_t* raw, int8_t* comp, int8_t* winner, int* category) noexcept nogil:
    cdef int p, i, k, dihu, trips, iscomp, wk, wc, n, top, ntied, any_comp
    cdef int32_t res[6]
    cdef int vals[MAXA]
    cdef int tied[MAXA]
    cdef Seat* s
    category[0] = -1
    for p in range(g.A):
        s = &g.s[p]
        iscomp = 0
        for i in range(g.ncomp):
            if g.comp[i] == p:
                iscomp = 1
        dihu = 0
        trips = 0
        for i in range(s.nm):
            dihu += MELD_BASE[s.mt[i]] << g.lev[s.mk[i]]
            trips += _counted(g, s.mt[i], s.mk[i])
        comp[p] = iscomp
        if iscomp:
            if g.win_type == 3:
                wk = 2
                wc = -1
            else:
                wk = 0 if g.win_type == 1 else 1
                wc = g.win_card
            best_score_c(s.c, g.lev, wc, wk, dihu, trips, s.yaz, g.opts, res, NULL)
            total[p] = res[0]
            raw[p] = res[1]
            if p == g.comp[0]:
                category[0] = res[5]
        else:
            if g.nonwin_trip:
                for k in range(NK):
                    if s.c[k] >= 3:
                        dihu += 4 << g.lev[k]
            if g.nonwin_wq:
                n = s.c[18]
                if s.c[19] < n:
                    n = s.c[19]
                if s.c[20] < n:
                    n = s.c[20]
                dihu += WQ[g.wq_cum][n]
            raw[p] = dihu
            total[p] = _potou(dihu, g.opts[4])
    # hand winners
    top = -1000000
    for p in range(g.A):
        vals[p] = raw[p] if g.cmp_raw else total[p]
        if vals[p] > top:
            top = vals[p]
    ntied = 0
    any_comp = 0
    for p in range(g.A):
        winner[p] = 0
        if vals[p] == top:
            tied[ntied] = p
            ntied += 1
            if comp[p]:
                any_comp = 1
    if ntied > 1 and g.tie == 2:
        ntied = 1
    for i in range(ntied):
        p = tied[i]
        if ntied > 1 and g.tie == 1 and any_comp and not comp[p]:
            continue
        winner[p] = 1


# ----------------------------------------------------------------------------- search (docs/nantong-engine.md, "Search")


cdef int _sample(Hand* g, int p, Hand* out, const int* sizes, int nturn) noexcept nogil:
    """``out`` = ``g`` with the cards seat ``p`` has not seen dealt at random: the unseen pool
    (by increasing kind) shuffled by Fisher-Yates on ``g.rng``, then ``nturn`` turned cards
    (the advisor's unknown 將), the other seats' concealed hands (``p+1, p+2, ...``; sizes from
    ``sizes`` or as held) and the deck from ``pos`` to the end.  Every seat plays max_melds in
    ``out``.  Returns -1 if the pool does not match the hidden places (a bug)."""
    cdef int pool[NCARDS]
    cdef int n = 0, k, u, i, j, tmp, off, o, m, idx, q
    for k in range(NK):
        u = 4 - g.s[p].c[k] - g.pub[k]
        if u < 0:
            return -1
        for i in range(u):
            pool[n] = k
            n += 1
    for i in range(n - 1, 0, -1):
        j = <int>bounded(g.rng, <uint32_t>(i + 1))
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    memcpy(out, g, sizeof(Hand))
    idx = 0
    if nturn:
        if n < nturn:
            return -1
        for i in range(nturn):
            out.turned[i] = pool[idx]
            idx += 1
        _set_jiang(out)
    for off in range(1, g.A):
        o = (p + off) % g.A
        if sizes != NULL:
            m = sizes[o]
        else:
            m = 0
            for k in range(NK):
                m += g.s[o].c[k]
        for k in range(NK):
            out.s[o].c[k] = 0
        for i in range(m):
            if idx >= n:
                return -1
            out.s[o].c[pool[idx]] += 1
            idx += 1
    for q in range(g.pos, NCARDS):
        if idx >= n:
            return -1
        out.deck[q] = pool[idx] << 2
        idx += 1
    if idx != n:
        return -1
    for o in range(g.A):
        out.s[o].code = 0
        out.s[o].dist = -100
    out.rollout = 1
    return 0


cdef void _set_jiang(Hand* g) noexcept nogil:
    """將 kinds, 雙將 and the scoring level of every kind from ``g.turned``."""
    cdef int k, i, t
    g.dbl = 1 if (g.nt == 2 and g.turned[0] == g.turned[1]) else 0
    for k in range(NK):
        g.isj[k] = 0
    for i in range(g.nt):
        g.isj[g.turned[i]] = 1
    for k in range(NK):
        # 將牌 (for the level): turned kinds, + same-number non-老將 suited kinds
        t = 0
        for i in range(g.nt):
            if g.turned[i] == k:
                t = 1
            elif g.jsame and g.turned[i] < 27 and k < 27 and not g.lao[k] and g.turned[i] % 9 == k % 9:
                t = 1
        g.lev[k] = <int8_t>(g.lao[k] + t + (1 if (t and g.dbl) else 0))


cdef int64_t _net12(Hand* g, int p, int32_t* total, int8_t* winner) noexcept nogil:
    """12 x seat ``p``'s net under the settlement (an exact integer)."""
    cdef int i, k = 0, tsum = 0, wsum = 0
    for i in range(g.A):
        tsum += total[i]
        if winner[i]:
            k += 1
            wsum += total[i]
    if k == 0:
        return 0
    if g.settle == 0:
        return (NET_SCALE // k) if winner[p] else 0
    if g.settle == 1:
        return <int64_t>NET_SCALE * (g.A * total[p] - tsum)
    if winner[p]:
        return <int64_t>(NET_SCALE // k) * (g.A - k) * total[p]
    return -<int64_t>(NET_SCALE // k) * wsum


cdef int64_t _finish(Hand* r, int p, int64_t* extra) noexcept nogil:
    """Score a finished rollout; 12 x ``p``'s net.  ``extra`` (optional): [12 x hand-win share,
    completed, total 胡數]."""
    cdef int32_t total[MAXA]
    cdef int32_t raw[MAXA]
    cdef int8_t comp[MAXA]
    cdef int8_t winner[MAXA]
    cdef int cat, i, k = 0
    _score(r, total, raw, comp, winner, &cat)
    if extra != NULL:
        for i in range(r.A):
            k += winner[i]
        extra[0] = (NET_SCALE // k) if (k and winner[p]) else 0
        extra[1] = comp[p]
        extra[2] = total[p]
    return _net12(r, p, total, winner)


cdef int _discard_candidates(Hand* g, int p, int* cand, int cap, int margin) noexcept nogil:
    """Discard candidates of seat ``p`` in canonical order: by the distance left after the
    discard, then the highest kind; those within ``margin`` of the best, at most ``cap``."""
    cdef int dist[NK]
    cdef int n = 0, k, i, j, best = 1000, tmp
    cdef uint8_t* c = g.s[p].c
    for k in range(NK - 1, -1, -1):
        if c[k]:
            c[k] -= 1
            dist[k] = distance_hand(c, g.hs)
            c[k] += 1
            cand[n] = k
            n += 1
            if dist[k] < best:
                best = dist[k]
    # stable insertion sort by distance (kinds already in decreasing order)
    for i in range(1, n):
        tmp = cand[i]
        j = i - 1
        while j >= 0 and dist[cand[j]] > dist[tmp]:
            cand[j + 1] = cand[j]
            j -= 1
        cand[j + 1] = tmp
    j = 0
    for i in range(n):
        if dist[cand[i]] <= best + margin and j < cap:
            cand[j] = cand[i]
            j += 1
    return j


cdef void _log(Hand* g, int p, int typ, int n, int choice, int64_t value) noexcept nogil:
    cdef int64_t* row
    if g.log != NULL and g.nlog < g.logcap:
        row = g.log + 6 * g.nlog
        row[0] = g.hidx
        row[1] = p
        row[2] = typ
        row[3] = n
        row[4] = choice
        row[5] = value
    g.nlog += 1


cdef int _best(Hand* g, int64_t* sums, int64_t* sq, int n) noexcept nogil:
    """The candidate of the best mean (the first on ties); the first candidate instead when
    the best one's paired mean difference to it, ``D``, does not pass ``D > z x se(D)``:
    with ``s1 = sum d``, ``s2 = sum d^2`` over the ``S`` samples (``d`` = its net minus the first
    candidate's, x 12), ``s1 > 0`` and ``s1^2 (S - 1) > z^2 (S s2 - s1^2)``."""
    cdef int i, b = 0
    cdef double s1, s2, S = g.S
    for i in range(1, n):
        if sums[i] > sums[b]:
            b = i
    if b == 0 or g.z2 <= 0.0:
        return b
    s1 = <double>(sums[b] - sums[0])
    s2 = <double>sq[b]
    if s1 * s1 * (S - 1.0) > g.z2 * (S * s2 - s1 * s1):
        return b
    return 0


cdef int _ranked(Hand* g, int p, int* cand, int64_t* sums, int64_t* vals, int n) noexcept nogil:
    """The advisor's ranking (``choice='rank'``): among the candidates whose paired 95% interval
    of the mean difference to the best mean reaches 0 (``D + 1.96 se(D) >= 0``, ``D`` = its mean
    minus the best's), the least distance from ready after the discard, then the most live outs
    (unseen copies of the waits of a ready hand, as the seat sees them), then the best mean, then
    the first in canonical order."""
    cdef int i, t, b = 0, k, w, best = -1, bd = 0, bo = 0, d, o
    cdef double s1, s2, S = g.S, se2
    cdef uint32_t m
    cdef uint8_t* c = g.s[p].c
    for i in range(1, n):
        if sums[i] > sums[b]:
            b = i
    for i in range(n):
        if i != b:
            if S < 2.0:  # one layout: only the best is tied
                continue
            s1 = 0.0
            s2 = 0.0
            for t in range(g.S):
                d = <int>(vals[t * n + i] - vals[t * n + b])
                s1 += d
                s2 += <double>d * d
            # tied when s1 + 1.96 sqrt(S var) >= 0, var = (s2 - s1^2 / S) / (S - 1)
            se2 = (s2 - s1 * s1 / S) / (S - 1.0) * S
            if s1 < 0.0 and s1 * s1 > 1.96 * 1.96 * se2:
                continue
        k = cand[i]
        c[k] -= 1
        d = distance_hand(c, g.hs)
        o = 0
        if d == 0:
            m = wait_mask(c, g.hs)
            for w in range(NK):
                if (m >> w) & 1:
                    o += max(0, 4 - c[w] - g.pub[w])
        c[k] += 1
        if best < 0 or d < bd or (d == bd and (o > bo or (o == bo and sums[i] > sums[best]))):
            best = i
            bd = d
            bo = o
    return best


# ----------------------------------------------------------------------------- inference (docs: "Opponent model", "Layouts")

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


cdef double STATS[3]   # decisions, fallbacks, sum of effective sample sizes
STATS[0] = 0.0
STATS[1] = 0.0
STATS[2] = 0.0


def search_stats():
    """Totals over this process's compiled ``search`` decisions: ``decisions`` (with two or more
    candidates), ``fallbacks`` (a seat whose particles all weighed 0) and ``ess`` (the sum of the
    decisions' effective sample sizes)."""
    return {"decisions": int(STATS[0]), "fallbacks": int(STATS[1]), "ess": float(STATS[2])}


cdef void _claim_dec(Hand* g, uint8_t* H, int d, int obs, double* a) noexcept nogil:
    cdef int can_w, can_k, can_p, m, mm, cq, before, after, i
    cdef double q[4]
    H[d] += 1
    can_w = complete_hand(H, g.hs)
    H[d] -= 1
    can_k = 1 if H[d] >= 3 else 0
    can_p = 1 if H[d] >= 2 else 0
    m = 1 + can_w + can_k + can_p
    if m == 1:
        return
    for i in range(4):
        q[i] = 0.0
    if not can_w:
        if can_k:
            mm = 2
        elif can_p:
            before = distance_hand(H, g.hs)
            H[d] -= 2
            _best_discard(H, g.hs, &after)
            H[d] += 2
            mm = 1 if after <= before else 0
        else:
            mm = 0
        cq = 2 if can_k else (1 if can_p else 0)
        q[0] = 1.0 if obs == mm else 0.0
        q[1] = 1.0 if obs == cq else 0.0
        q[2] = 1.0 if obs == 0 else 0.0
        q[3] = 1.0 / <double>m
    for i in range(4):
        a[i] = a[i] * ((1.0 - g.eps) * q[i] + g.eps / <double>m)


cdef void _turn_dec(Hand* g, uint8_t* H, int after, uint32_t gm, int k, int kn, double* a) noexcept nogil:
    cdef int can_w = 0, nk = 0, ft = 0, fk = -1, kk, nd = 0, n = 0, m, mm = -1, cq, hun, i, dd
    cdef double first
    cdef double q[4]
    if after:
        can_w = complete_hand(H, g.hs)
        for kk in range(NK):
            if H[kk] == 4:
                nk += 1
                if fk < 0:
                    ft = 4
                    fk = kk
            elif H[kk] >= 1 and (gm >> kk) & 1:
                nk += 1
                if fk < 0:
                    ft = 1
                    fk = kk
    for kk in range(NK):
        if H[kk]:
            nd += 1
            n += H[kk]
    m = can_w + nk + nd
    for i in range(4):
        q[i] = 0.0
    if not can_w:
        first = 1.0 if (kn > 0 and kn == ft and k == fk) else 0.0
        if nk:
            q[0] = first
            q[1] = first
        else:
            mm = _best_discard(H, g.hs, &dd)
            cq = -1
            i = 99
            for kk in range(NK):
                if H[kk] and H[kk] <= i:
                    cq = kk
                    i = H[kk]
            q[0] = 1.0 if (kn == 0 and k == mm) else 0.0
            q[1] = 1.0 if (kn == 0 and k == cq) else 0.0
        hun = -1
        for kk in range(29, 26, -1):
            if H[kk]:
                hun = kk
                break
        if hun < 0:
            hun = mm if not nk else _best_discard(H, g.hs, &dd)
        q[2] = 1.0 if (kn == 0 and k == hun) else 0.0
        if kn > 0:
            q[3] = 0.5 * first
        else:
            q[3] = <double>H[k] / <double>n
            if nk:
                q[3] = 0.5 * q[3]
    for i in range(4):
        a[i] = a[i] * ((1.0 - g.eps) * q[i] + g.eps / <double>m)


cdef double _likelihood(Hand* g, int t, const uint8_t* h, bitgen_t* rng) noexcept nogil:
    """L_t(h): the likelihood of seat ``t``'s record given its concealed counts ``h``."""
    cdef uint8_t H[NK]
    cdef double a[4]
    cdef uint32_t gm = 0
    cdef int e, typ, s, k, n, i, kk, x, tot, draws = 0
    cdef int32_t* ev
    for kk in range(NK):
        H[kk] = h[kk]
    for i in range(g.s[t].nm):
        if g.s[t].mt[i] == PONG:
            gm |= (<uint32_t>1) << g.s[t].mk[i]
    for i in range(4):
        a[i] = 1.0
    for e in range(g.nev - 1, -1, -1):
        ev = g.ev + 4 * e
        typ = ev[0]
        s = ev[1]
        k = ev[2]
        n = ev[3]
        if typ == EV_DEAD:
            if s != t:
                _claim_dec(g, H, k, 0, a)
            continue
        if s != t:
            continue
        if typ == EV_DRAW:
            draws += 1
            if draws > g.horizon:
                break
            tot = 0
            for kk in range(NK):
                tot += H[kk]
            x = <int>bounded(rng, <uint32_t>tot)
            for kk in range(NK):
                if x < H[kk]:
                    H[kk] -= 1
                    break
                x -= H[kk]
        elif typ == EV_EXPOSE:
            H[k] += n
        elif typ == EV_CLAIM:
            H[k] += n
            if n == 2:
                gm &= ~((<uint32_t>1) << k)
            _claim_dec(g, H, k, 2 if n == 3 else 1, a)
        elif typ == EV_DISCARD:
            H[k] += 1
            _turn_dec(g, H, n, gm, k, 0, a)
        else:
            H[k] += n
            if n == 1:
                gm |= (<uint32_t>1) << k
            _turn_dec(g, H, 1, gm, k, n, a)
    return g.pi[0] * a[0] + g.pi[1] * a[1] + g.pi[2] * a[2] + g.pi[3] * a[3]


cdef void _resample(bitgen_t* rng, const double* w, int C, double total, int n, int* out) noexcept nogil:
    cdef double u = <double>rng.next_uint32(rng.state) / 4294967296.0
    cdef double acc = w[0], x
    cdef int c = 0, i
    for i in range(n):
        x = (u + i) * total / n
        while acc <= x and c < C - 1:
            c += 1
            acc += w[c]
        out[i] = c


cdef struct Particles:
    int C
    uint8_t* hid     # C x MAXA x NK
    uint8_t* pool    # C x NK
    double* w        # C
    double total
    double ess
    uint8_t* hid2
    uint8_t* pool2
    int* sel


cdef int _particles(Hand* g, int p, bitgen_t* rng, Particles* P) noexcept nogil:
    """Steps of *Layouts*: the particles of a decision of seat ``p``; -1 on an inconsistency."""
    cdef int C = P.C, A = g.A, idx, t, c, k, i, j, n, nt, tmp
    cdef int items[NCARDS]
    cdef int U0[NK]
    cdef double total = 0.0, sq, e
    cdef uint8_t* hc
    cdef uint8_t* pc
    for k in range(NK):
        U0[k] = 4 - g.s[p].c[k] - g.pub[k]
        if U0[k] < 0:
            return -1
    for c in range(C):
        for k in range(NK):
            P.pool[c * NK + k] = <uint8_t>U0[k]
        for i in range(MAXA * NK):
            P.hid[c * MAXA * NK + i] = 0
    P.ess = <double>C
    for c in range(C):
        P.w[c] = 1.0
    P.total = <double>C
    for idx in range(A - 1):
        t = (p + 1 + idx) % A
        nt = 0
        for k in range(NK):
            nt += g.s[t].c[k]
        for c in range(C):
            pc = P.pool + c * NK
            hc = P.hid + (c * MAXA + t) * NK
            n = 0
            for k in range(NK):
                for i in range(pc[k]):
                    items[n] = k
                    n += 1
            if n < nt:
                return -1
            for i in range(nt):
                j = i + <int>bounded(rng, <uint32_t>(n - i))
                tmp = items[i]
                items[i] = items[j]
                items[j] = tmp
            for k in range(NK):
                hc[k] = 0
            for i in range(nt):
                hc[items[i]] += 1
            for k in range(NK):
                pc[k] -= hc[k]
            P.w[c] = _likelihood(g, t, hc, rng) if g.F > 0 else 1.0
        total = 0.0
        sq = 0.0
        for c in range(C):
            total += P.w[c]
            sq += P.w[c] * P.w[c]
        if total == 0.0:
            STATS[1] += 1.0
            for c in range(C):
                P.w[c] = 1.0
            total = <double>C
            sq = <double>C
        e = total * total / sq
        if e < P.ess:
            P.ess = e
        P.total = total
        if idx < A - 2:
            _resample(rng, P.w, C, total, C, P.sel)
            for c in range(C):
                memcpy(P.hid2 + c * MAXA * NK, P.hid + P.sel[c] * MAXA * NK, MAXA * NK)
                memcpy(P.pool2 + c * NK, P.pool + P.sel[c] * NK, NK)
            memcpy(P.hid, P.hid2, C * MAXA * NK)
            memcpy(P.pool, P.pool2, C * NK)
    return 0


cdef int _alloc_particles(Particles* P, int C) noexcept nogil:
    P.C = C
    P.hid = <uint8_t*>malloc(C * MAXA * NK)
    P.hid2 = <uint8_t*>malloc(C * MAXA * NK)
    P.pool = <uint8_t*>malloc(C * NK)
    P.pool2 = <uint8_t*>malloc(C * NK)
    P.w = <double*>malloc(C * sizeof(double))
    P.sel = <int*>malloc(C * sizeof(int))
    if P.hid == NULL or P.hid2 == NULL or P.pool == NULL or P.pool2 == NULL or P.w == NULL or P.sel == NULL:
        return -1
    return 0


cdef void _free_particles(Particles* P) noexcept nogil:
    free(P.hid)
    free(P.hid2)
    free(P.pool)
    free(P.pool2)
    free(P.w)
    free(P.sel)


cdef int _layouts_begin(Hand* g, int p, SplitMix* sm, bitgen_t* bg, Particles* P, int* sel) noexcept nogil:
    """Seed the decision's layout stream, draw and weigh the particles, log the beliefs and
    resample the ``S`` layouts into ``sel``; -1 on failure."""
    cdef int t, k, c
    cdef double acc
    cdef double* row
    sm.state = g.key * <uint64_t>0x9E3779B97F4A7C15ULL + (<uint64_t>g.ndec) * <uint64_t>0xBF58476D1CE4E5B9ULL + <uint64_t>p
    g.ndec += 1
    bg.state = sm
    bg.next_uint64 = sm_next64
    bg.next_uint32 = sm_next32
    bg.next_double = sm_double
    bg.next_raw = sm_next64
    if _alloc_particles(P, g.F * g.S if g.F > 0 else g.S) < 0:
        _free_particles(P)
        return -1
    if _particles(g, p, bg, P) < 0:
        _free_particles(P)
        return -1
    STATS[0] += 1.0
    STATS[2] += P.ess
    if g.bel != NULL:
        if g.nbel < g.belcap:
            row = g.bel + (3 + 3 * MAXA * NK) * g.nbel
            row[0] = <double>g.hidx
            row[1] = <double>p
            row[2] = P.ess
            for t in range(MAXA):
                for k in range(NK):
                    row[3 + t * NK + k] = 0.0
                    row[3 + MAXA * NK + t * NK + k] = 0.0
                    row[3 + 2 * MAXA * NK + t * NK + k] = 0.0
            for t in range(g.A):
                if t == p:
                    continue
                for k in range(NK):
                    acc = 0.0
                    for c in range(P.C):
                        if P.hid[(c * MAXA + t) * NK + k] >= 1:
                            acc += P.w[c]
                    row[3 + t * NK + k] = acc / P.total
                    row[3 + MAXA * NK + t * NK + k] = 1.0 if g.s[t].c[k] >= 1 else 0.0
            for k in range(NK):
                row[3 + 2 * MAXA * NK + k] = <double>(4 - g.s[p].c[k] - g.pub[k])
        g.nbel += 1
    _resample(bg, P.w, P.C, P.total, g.S, sel)
    return 0


cdef int _layout(Hand* g, int p, bitgen_t* bg, Particles* P, int c, Hand* out) noexcept nogil:
    """Layout of particle ``c``: its hands, its pool shuffled into the stock; max_melds everywhere."""
    cdef int items[NCARDS]
    cdef int n = 0, k, i, j, tmp, o, q
    memcpy(out, g, sizeof(Hand))
    for o in range(g.A):
        if o != p:
            for k in range(NK):
                out.s[o].c[k] = P.hid[(c * MAXA + o) * NK + k]
    for k in range(NK):
        for i in range(P.pool[c * NK + k]):
            items[n] = k
            n += 1
    for i in range(n - 1, 0, -1):
        j = <int>bounded(bg, <uint32_t>(i + 1))
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
    if n != NCARDS - g.pos:
        return -1
    for q in range(n):
        out.deck[g.pos + q] = items[q] << 2
    for o in range(g.A):
        out.s[o].code = 0
        out.s[o].dist = -100
    out.rollout = 1
    return 0


cdef int _search_discard(Hand* g, int p) noexcept nogil:
    cdef int cand[NK]
    cdef int64_t sums[MAXC]
    cdef int64_t sq[MAXC]
    cdef int64_t v, v0 = 0
    cdef int n, i, t, b
    cdef Hand smp
    cdef Hand r
    cdef SplitMix sm
    cdef bitgen_t bg
    cdef Particles P
    cdef int* sel
    cdef int64_t* vals = NULL
    n = _discard_candidates(g, p, cand, g.K, g.M)
    if n <= 1 or g.rollout:
        return cand[0]
    for i in range(n):
        sums[i] = 0
        sq[i] = 0
    sel = <int*>malloc(g.S * sizeof(int))
    if g.choice == 1:
        vals = <int64_t*>malloc(g.S * n * sizeof(int64_t))
    if sel == NULL or (g.choice == 1 and vals == NULL) or _layouts_begin(g, p, &sm, &bg, &P, sel) < 0:
        free(sel)
        free(vals)
        g.err = 1
        return cand[0]
    for t in range(g.S):
        if _layout(g, p, &bg, &P, sel[t], &smp) < 0:
            g.err = 1
            _free_particles(&P)
            free(sel)
            free(vals)
            return cand[0]
        for i in range(n):
            memcpy(&r, &smp, sizeof(Hand))
            _resume(&r, p, 2, -1, cand[i], -1, -1)
            v = _finish(&r, p, NULL)
            if i == 0:
                v0 = v
            sums[i] += v
            sq[i] += (v - v0) * (v - v0)
            if vals != NULL:
                vals[t * n + i] = v
    _free_particles(&P)
    free(sel)
    if vals != NULL:
        b = _ranked(g, p, cand, sums, vals, n)
        free(vals)
    else:
        b = _best(g, sums, sq, n)
    _log(g, p, 0, n, cand[b], sums[b])
    return cand[b]


cdef int _search_claim(Hand* g, int cur, int d, int j, int can_kong, int can_pong) noexcept nogil:
    """Seat ``j``'s answer to ``cur``'s discard ``d`` (no win among the options): candidates
    the max_melds answer first, then the others of pass, pong, kong in that order."""
    cdef int cand[3]
    cdef int64_t sums[3]
    cdef int64_t sq[3]
    cdef int64_t v, v0 = 0
    cdef int n = 1, a, i, t, b
    cdef Hand smp
    cdef Hand r
    cdef SplitMix sm
    cdef bitgen_t bg
    cdef Particles P
    cdef int* sel
    cand[0] = _mm_claim(g, j, d, can_kong, can_pong)
    for a in range(3):
        if a != cand[0] and (a == 0 or (a == 1 and can_pong) or (a == 2 and can_kong)):
            cand[n] = a
            n += 1
    if n <= 1 or g.rollout:
        return cand[0]
    for i in range(n):
        sums[i] = 0
        sq[i] = 0
    sel = <int*>malloc(g.S * sizeof(int))
    if sel == NULL or _layouts_begin(g, j, &sm, &bg, &P, sel) < 0:
        free(sel)
        g.err = 1
        return cand[0]
    for t in range(g.S):
        if _layout(g, j, &bg, &P, sel[t], &smp) < 0:
            g.err = 1
            _free_particles(&P)
            free(sel)
            return cand[0]
        # back to the moment before the discard; it is replayed with j's answer forced
        smp.s[cur].c[d] += 1
        smp.pub[d] -= 1
        smp.discards -= 1
        for i in range(n):
            memcpy(&r, &smp, sizeof(Hand))
            _resume(&r, cur, 2, -1, d, j, cand[i])
            v = _finish(&r, j, NULL)
            if i == 0:
                v0 = v
            sums[i] += v
            sq[i] += (v - v0) * (v - v0)
    _free_particles(&P)
    free(sel)
    b = _best(g, sums, sq, n)
    _log(g, j, 1, n, cand[b], sums[b])
    return cand[b]


cdef object _configure(Hand* g, cfg, int32_t* opts, int8_t* lao):
    cdef int k
    g.A = cfg.active
    g.hs = cfg.honour_sequence
    g.reserve = cfg.reserve
    g.jsr = cfg.jiang_set_replacement
    g.single = cfg.single_turn
    g.rob = cfg.rob_kong
    g.multi = cfg.multi_win
    g.qmode = cfg.qishou_mode
    g.nonwin_trip = cfg.nonwinner_triplets
    g.nonwin_wq = cfg.nonwinner_wenqian
    g.wq_cum = cfg.wenqian_cumulative
    g.jsame = cfg.jiang_same_number
    g.tie = cfg.tie
    g.cmp_raw = cfg.compare_raw
    g.settle = cfg.settlement
    g.S = cfg.samples
    g.K = min(int(cfg.candidates), MAXC)
    g.M = cfg.margin
    g.z2 = float(cfg.guard) * float(cfg.guard)
    g.choice = int(getattr(cfg, "choice", 0))
    g.rollout = 0
    g.err = 0
    g.log = NULL
    g.logcap = 0
    g.nlog = 0
    g.hidx = 0
    g.opts = opts
    for k in range(NK):
        g.lao[k] = lao[k]
    from kaptai.nantong.config import INFER_EPS, INFER_HORIZON, INFER_PRIOR
    g.F = int(getattr(cfg, "particles", 0))
    for k in range(4):
        g.pi[k] = float(INFER_PRIOR[k])
    g.eps = float(INFER_EPS)
    g.horizon = int(INFER_HORIZON)
    g.key = 0
    g.ndec = 0
    g.ev = NULL
    g.nev = 0
    g.bel = NULL
    g.belcap = 0
    g.nbel = 0


def run_hands(cfg, codes, bit_generator, Py_ssize_t hands, decision_log=None, belief_log=None):
    """Play ``hands`` hands with built-in policy ``codes`` (one per seat); outcome arrays.

    ``decision_log``: an int64 array ``(rows, 6)`` that receives one row per search decision
    (hand, seat, type 0 discard / 1 claim, candidates, choice, 12 x the sum of its nets);
    the outcomes then carry ``search_decisions``, the number of decisions made (rows beyond
    the array's length are counted, not written).  ``belief_log``: a float64 array ``(rows,
    3 + 3 x 4 x 30)`` that receives per search decision (hand, seat, effective sample size,
    beliefs [seat][kind], truth [seat][kind], unseen copies per kind); the outcomes then carry
    ``belief_rows``."""
    from kaptai.nantong.config import EngineError, new_outcomes

    _eval_module.build_tables()
    cdef Hand g
    cdef int A = cfg.active
    cdef int p, k, i, j, tmp, pos, nt, cat
    cdef Py_ssize_t h
    out = new_outcomes(hands, A)
    cdef int32_t[:, ::1] total = out["total"]
    cdef int32_t[:, ::1] raw = out["raw"]
    cdef int8_t[:, ::1] comp = out["completer"]
    cdef int8_t[:, ::1] winner = out["winner"]
    cdef int8_t[:, ::1] qn = out["qishou"]
    cdef int8_t[:, ::1] dq = out["dealt_qishou"]
    cdef int8_t[::1] win_type = out["win_type"]
    cdef int8_t[::1] category = out["category"]
    cdef int8_t[::1] cseat = out["completer_seat"]
    cdef int8_t[::1] discarder = out["discarder"]
    cdef int8_t[::1] dblj = out["double_jiang"]
    cdef int16_t[::1] ndisc = out["discards"]
    cdef int16_t[::1] stock = out["stock_left"]
    opts_arr = np.ascontiguousarray(cfg.score_opts, dtype=np.int32)
    cdef const int32_t[::1] opts = opts_arr
    lao_arr = np.ascontiguousarray(cfg.laojiang, dtype=np.int8)
    cdef const int8_t[::1] lao = lao_arr
    cdef int64_t[:, ::1] logv
    cdef double[:, ::1] belv
    _configure(&g, cfg, <int32_t*>&opts[0], <int8_t*>&lao[0])
    ev_arr = np.zeros(4 * MAXEV, dtype=np.int32)
    cdef int32_t[::1] evv = ev_arr
    g.ev = &evv[0]
    if belief_log is not None:
        belv = belief_log
        g.belcap = belv.shape[0]
        if g.belcap:
            g.bel = &belv[0, 0]
    if decision_log is not None:
        logv = decision_log
        g.logcap = logv.shape[0]
        if g.logcap:
            g.log = &logv[0, 0]
    if len(codes) != A:
        raise ValueError("one policy code per active seat")
    cdef int ccodes[MAXA]
    for p in range(A):
        ccodes[p] = int(codes[p])
    g.rng = bitgen_of(bit_generator)
    with bit_generator.lock, nogil:
        for h in range(hands):
            g.hidx = h
            for i in range(NCARDS):
                g.deck[i] = i
            for i in range(NCARDS - 1, 0, -1):
                j = <int>bounded(g.rng, <uint32_t>(i + 1))
                tmp = g.deck[i]
                g.deck[i] = g.deck[j]
                g.deck[j] = tmp
            g.key = 0
            for i in range(8):
                g.key = g.key * <uint64_t>120 + <uint64_t>g.deck[i]
            g.ndec = 0
            g.nev = 0
            pos = 0
            for k in range(NK):
                g.pub[k] = 0
            for p in range(A):
                for k in range(NK):
                    g.s[p].c[k] = 0
                g.s[p].nm = 0
                g.s[p].qn = 0
                g.s[p].yaz = 0
                g.s[p].dist = -100
                g.s[p].code = ccodes[p]
                for i in range(23 if p == 0 else 22):
                    g.s[p].c[g.deck[pos] >> 2] += 1
                    pos += 1
            nt = 1 if g.single else 2
            g.nt = nt
            for i in range(nt):
                g.turned[i] = g.deck[pos] >> 2
                g.pub[g.turned[i]] += 1
                pos += 1
            g.pos = pos
            _set_jiang(&g)
            g.discards = 0
            for p in range(A):
                g.s[p].dq = _dealt_qishou(&g, p)
            _play(&g)
            _score(&g, &total[h, 0], &raw[h, 0], &comp[h, 0], &winner[h, 0], &cat)
            for p in range(A):
                qn[h, p] = <int8_t>g.s[p].qn
                dq[h, p] = <int8_t>g.s[p].dq
            win_type[h] = <int8_t>g.win_type
            category[h] = <int8_t>cat
            cseat[h] = <int8_t>(g.comp[0] if g.ncomp else -1)
            discarder[h] = <int8_t>g.discarder
            dblj[h] = <int8_t>g.dbl
            ndisc[h] = <int16_t>g.discards
            stock[h] = <int16_t>(NCARDS - g.reserve - g.pos)
            if g.err:
                break
    if g.err:
        raise EngineError("search: the unseen cards do not fill the hidden places (an engine bug)")
    if decision_log is not None:
        out["search_decisions"] = np.array([g.nlog], dtype=np.int64)
    if belief_log is not None:
        out["belief_rows"] = np.array([g.nbel], dtype=np.int64)
    return out


def advise_position(cfg, int seat, hand, melds, seen, turned, int samples, bit_generator, others=None):
    """Roll out every discard of ``hand`` (seat ``seat``'s concealed counts, its turn to discard)
    over ``samples`` layouts of the unseen cards; per candidate (canonical order) the sums over
    the layouts of 12 x net, its square, 12 x hand-win share, completions, 胡數 and its square.

    ``melds``: the seat's exposed sets as (type code, kind); ``seen``: counts of every card
    face up (every seat's sets included); ``turned``: the turned kinds, or empty (then sampled per layout).
    ``others``: per other active seat in turn order (``seat + 1``, ``seat + 2``, ...) a pair
    (concealed count, its exposed sets as (type code, kind)); default None: each holds 22
    concealed cards and no sets.  The rest of the unseen cards is the stock (``pos`` = 120
    minus its size)."""
    from kaptai.nantong.config import EngineError

    _eval_module.build_tables()
    cdef Hand g
    cdef Hand smp
    cdef Hand r
    cdef int A = cfg.active
    cdef int k, i, t, n, nturn, hidden, p
    cdef int sizes[MAXA]
    cdef int cand[NK]
    cdef int64_t ex[3]
    cdef int64_t v
    opts_arr = np.ascontiguousarray(cfg.score_opts, dtype=np.int32)
    cdef const int32_t[::1] opts = opts_arr
    lao_arr = np.ascontiguousarray(cfg.laojiang, dtype=np.int8)
    cdef const int8_t[::1] lao = lao_arr
    _configure(&g, cfg, <int32_t*>&opts[0], <int8_t*>&lao[0])
    g.nt = 1 if g.single else 2
    nturn = 0 if len(turned) else g.nt
    for k in range(NK):
        g.pub[k] = int(seen[k])
    for p in range(A):
        for k in range(NK):
            g.s[p].c[k] = 0
        g.s[p].nm = 0
        g.s[p].qn = 0
        g.s[p].yaz = 0
        g.s[p].dist = -100
        g.s[p].code = 0
        g.s[p].dq = 0
        sizes[p] = 22
    for k in range(NK):
        g.s[seat].c[k] = int(hand[k])
    for t, k in melds:
        g.s[seat].mt[g.s[seat].nm] = t
        g.s[seat].mk[g.s[seat].nm] = k
        g.s[seat].nm += 1
    if others is not None:
        if len(others) != A - 1:
            raise ValueError(f"others: {len(others)} seats, expected {A - 1}")
        for i in range(A - 1):
            p = (seat + 1 + i) % A
            size, sets = others[i]
            if not 0 <= int(size) <= 22 or len(sets) > MAXM:
                raise ValueError(f"others[{i}]: {size} concealed cards and {len(sets)} sets")
            sizes[p] = int(size)
            for t, k in sets:
                g.s[p].mt[g.s[p].nm] = int(t)
                g.s[p].mk[g.s[p].nm] = int(k)
                g.s[p].nm += 1
    g.turned[0] = 0
    g.turned[1] = 0  # placeholders when the turned cards are sampled
    for i in range(len(turned)):
        g.turned[i] = int(turned[i])
        g.pub[g.turned[i]] += 1
    _set_jiang(&g)
    hidden = 0
    for k in range(NK):
        hidden += 4 - g.s[seat].c[k] - g.pub[k]
    n = 0
    for p in range(A):
        if p != seat:
            n += sizes[p]
    g.pos = NCARDS - (hidden - nturn - n)
    if g.pos > NCARDS - g.reserve:
        raise EngineError("advise: no stock left for this position")
    g.discards = 0
    g.win_type = 0
    g.ncomp = 0
    g.win_card = -1
    g.discarder = -1
    for i in range(NK):
        cand[i] = -1
    n = _discard_candidates(&g, seat, cand, NK, 1000)
    res = np.zeros((n, 6), dtype=np.int64)
    cdef int64_t[:, ::1] rv = res
    g.rng = bitgen_of(bit_generator)
    with bit_generator.lock, nogil:
        for t in range(samples):
            if _sample(&g, seat, &smp, sizes, nturn) < 0:
                g.err = 1
                break
            for i in range(n):
                memcpy(&r, &smp, sizeof(Hand))
                _resume(&r, seat, 2, -1, cand[i], -1, -1)
                v = _finish(&r, seat, ex)
                rv[i, 0] += v
                rv[i, 1] += v * v
                rv[i, 2] += ex[0]
                rv[i, 3] += ex[1]
                rv[i, 4] += ex[2]
                rv[i, 5] += ex[2] * ex[2]
    if g.err:
        raise EngineError("advise: the unseen cards do not fill the hidden places")
    return [cand[i] for i in range(n)], res


_MELD_CODES = {"pong": PONG, "mkong": MKONG, "ckong": CKONG, "qishou": QISHOU, "hezi": HEZI}


cdef object _load_position(Hand* g, cfg, state, int seat):
    """A reference position (:func:`kaptai.nantong.engine_reference.hand_state`) into ``g``, as
    configured by ``cfg``; returns the arrays ``g`` points into (keep them while ``g`` is used)."""
    cdef int A = cfg.active
    cdef int k, i, s, ne
    if not 0 <= seat < A:
        raise ValueError(f"seat {seat}: {A} seats play")
    opts_arr = np.ascontiguousarray(cfg.score_opts, dtype=np.int32)
    cdef const int32_t[::1] opts = opts_arr
    lao_arr = np.ascontiguousarray(cfg.laojiang, dtype=np.int8)
    cdef const int8_t[::1] lao = lao_arr
    _configure(g, cfg, <int32_t*>&opts[0], <int8_t*>&lao[0])
    turned = [int(x) for x in state["turned"]]
    g.nt = len(turned)
    for i in range(g.nt):
        g.turned[i] = turned[i]
    _set_jiang(g)
    deck = [int(x) for x in state["deck"]]
    if len(deck) != NCARDS:
        raise ValueError(f"a deck of {len(deck)} cards")
    for i in range(NCARDS):
        g.deck[i] = deck[i]
    g.pos = int(state["pos"])
    g.discards = int(state["discards"])
    for k in range(NK):
        g.pub[k] = int(state["pub"][k])
    for s in range(A):
        for k in range(NK):
            g.s[s].c[k] = int(state["c"][s][k])
        g.s[s].nm = 0
        for typ, kk in state["melds"][s]:
            g.s[s].mt[g.s[s].nm] = _MELD_CODES[typ]
            g.s[s].mk[g.s[s].nm] = int(kk)
            g.s[s].nm += 1
        g.s[s].qn = int(state["qishou_n"][s])
        g.s[s].dq = int(state["dealt_qishou"][s])
        g.s[s].yaz = int(state["yazhuang"][s])
        g.s[s].code = 0
        g.s[s].dist = -100
    ev_arr = np.zeros(4 * MAXEV, dtype=np.int32)
    cdef int32_t[::1] evv = ev_arr
    ne = 0
    for row in state["rec"]:
        if ne >= MAXEV:
            break
        for i in range(4):
            evv[4 * ne + i] = int(row[i])
        ne += 1
    g.ev = &evv[0]
    g.nev = ne
    g.win_type = 0
    g.ncomp = 0
    g.win_card = -1
    g.discarder = -1
    g.huang = 0
    return opts_arr, lao_arr, ev_arr


def search_values(cfg, state, int seat, options, bit_generator, int layouts):
    """The ``search`` policy's own evaluation of every discard in ``options`` at a discard of
    seat ``seat`` (docs/nantong-engine.md, *Search*), for a review: ``layouts`` layouts of the
    cards the seat has not seen, drawn as the search draws them (``cfg.particles`` particles a
    layout weighed by the opponent model on the hand's record, resampled), but from
    ``bit_generator`` instead of the decision's private stream; every option played out on
    the same layouts with ``max_melds`` at every seat.

    ``state``: the reference engine's position at the decision (a mapping with ``c``,
    ``melds``, ``pub``, ``pos``, ``deck``, ``turned``, ``discards``, ``qishou_n``,
    ``dealt_qishou``, ``yazhuang`` and ``rec``, as :func:`kaptai.nantong.engine_reference.hand_state`
    gives).  Returns two int64 arrays ``(options, layouts)``: 12 x the seat's net and 12 x its
    share of the hand win.  The twin of :func:`kaptai.nantong.engine_reference.search_values`
    (the same values from the same stream).  No existing function's behaviour changes."""
    from kaptai.nantong.config import EngineError

    _eval_module.build_tables()
    cdef Hand g
    cdef Hand smp
    cdef Hand r
    cdef Particles P
    cdef int* sel = NULL
    cdef int i, t, n, fail = 0
    cdef int64_t ex[3]
    cdef int cand[NK]
    if layouts < 1:
        raise ValueError(f"layouts={layouts}: expected at least 1")
    n = len(options)
    if not 1 <= n <= NK:
        raise ValueError(f"{n} options: expected 1 to {NK}")
    keep = _load_position(&g, cfg, state, seat)
    g.S = layouts
    for i in range(n):
        cand[i] = int(options[i])
        if not 0 <= cand[i] < NK or g.s[seat].c[cand[i]] < 1:
            raise ValueError(f"option {options[i]}: seat {seat} does not hold that kind")
    nets = np.zeros((n, layouts), dtype=np.int64)
    wins = np.zeros((n, layouts), dtype=np.int64)
    cdef int64_t[:, ::1] nv = nets
    cdef int64_t[:, ::1] wv = wins
    g.rng = bitgen_of(bit_generator)
    sel = <int*>malloc(layouts * sizeof(int))
    if sel == NULL:
        raise MemoryError()
    with bit_generator.lock, nogil:
        if _alloc_particles(&P, g.F * g.S if g.F > 0 else g.S) < 0 or _particles(&g, seat, g.rng, &P) < 0:
            fail = 1
        else:
            _resample(g.rng, P.w, P.C, P.total, g.S, sel)
            for t in range(g.S):
                if _layout(&g, seat, g.rng, &P, sel[t], &smp) < 0:
                    fail = 1
                    break
                for i in range(n):
                    memcpy(&r, &smp, sizeof(Hand))
                    _resume(&r, seat, 2, -1, cand[i], -1, -1)
                    nv[i, t] = _finish(&r, seat, ex)
                    wv[i, t] = ex[0]
        _free_particles(&P)
    free(sel)
    if fail:
        raise EngineError("search_values: the unseen cards do not fill the hidden places")
    return nets, wins


def search_pick(cfg, state, int seat, key, int ndec, int cur=-1, int d=-1, int can_kong=0, int can_pong=0):
    """The ``search`` policy's decision at one position, exactly as the engine makes it (the
    same candidates, layouts from the decision's own stream, the same choice): seat ``seat``'s
    discard when ``cur < 0``, else its answer to seat ``cur``'s discard ``d`` (no win among the
    options; ``can_kong``/``can_pong`` say which claims it has).  ``state`` is the reference
    hand's position (:func:`kaptai.nantong.engine_reference.hand_state`), ``key`` the deal's key
    and ``ndec`` the hand's search decisions so far (the stream's seed).  The reference engine's
    search seats call it under :data:`kaptai.nantong.engine_reference.compiled_rollouts`.

    Returns
    -------
    (int, int, int, int)
        The choice (a kind; or 0 pass, 1 pong, 2 kong), the number of candidates, the chosen
        candidate's sum of values (the decision log's ``value``) and the hand's search decisions
        after it (``ndec`` plus one when layouts were drawn).
    """
    from kaptai.nantong.config import EngineError

    _eval_module.build_tables()
    cdef Hand g
    cdef int choice
    cdef int64_t row[6]
    keep = _load_position(&g, cfg, state, seat)
    g.key = <uint64_t>(int(key) & 0xFFFFFFFFFFFFFFFF)
    g.ndec = ndec
    g.log = row
    g.logcap = 1
    g.nlog = 0
    row[3] = 1   # what a decision that draws no layouts leaves: one candidate, no value
    row[5] = 0
    if cur >= 0 and not (0 <= cur < g.A and 0 <= d < NK):
        raise ValueError(f"cur={cur}, d={d}: not a discard of this table")
    with nogil:
        if cur < 0:
            choice = _search_discard(&g, seat)
        else:
            choice = _search_claim(&g, cur, d, seat, can_kong, can_pong)
    if g.err:
        raise EngineError("search_pick: the unseen cards do not fill the hidden places")
    return int(choice), int(row[3]), int(row[5]), int(g.ndec)
