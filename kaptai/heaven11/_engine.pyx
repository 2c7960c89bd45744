# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled Heaven Eleven (天牌十一) engine: deal, auction, plays of 1-3 cards, scoring (nogil).

Implements ``docs/heaven-eleven-engine.md`` line by line, as its pure-Python twin
:mod:`kaptai.heaven11.engine_reference` does; the tests compare the two move for move.  Users
call :func:`kaptai.heaven11.engine.run_hands`.  Hands are 52-bit masks (card id
``13 * suit + rank``), a suit is 13 bits; combination keys come from the table of
``kaptai.heaven11._eval`` (``EngineConfig.key``).  Randomness: ``bounded`` of
``kaptai/core/_rng.pxd`` on the generator's ``bitgen_t``, drawn only where the specification says.
"""
from libc.stdint cimport int64_t, uint64_t, uint32_t, int16_t, int8_t, int32_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t
from kaptai.core._rng cimport bounded
cimport numpy as cnp
import numpy as np

from kaptai.heaven11.config import new_outcomes, MAX_REDEALS as _MAX_REDEALS, LEAD_WEIGHT as _LW, HCP as _HCP
from kaptai.heaven11.config import SEARCH_KEEP as _KEEP, SEARCH_ATTEMPTS as _ATTEMPTS
from kaptai.heaven11 import config as _config

cnp.import_array()

cdef extern from *:
    int popcount64 "__builtin_popcountll"(unsigned long long) nogil
    int ctz64 "__builtin_ctzll"(unsigned long long) nogil

cdef enum:
    MAXOPT = 512
    MAX_SAMPLES = 4096
    SAMPLE_ATTEMPTS = 20
    A_DEAL = 0
    A_BID = 1
    A_PASS = 2
    A_PASSOUT = 3
    A_FORCED = 4
    A_LEAD = 5
    A_FOLLOW = 6
    A_WIN = 7
    A_SCORE = 8
    P_RANDOM = 0
    P_GREEDY = 1
    P_ROLLOUT = 2
    P_SEARCH = 3
    B_NEVER = 3
    B_SEARCH = 4
    MAX_CALLS = 256
    MAX_HIST = 64
    NCAND_BID = 51
    ERR_DECKS = 1
    ERR_MEMORY = 2

cdef uint64_t SUIT_BITS = 0x1FFF


cdef struct Table:
    uint64_t hands[4]
    int tricks[4]
    uint64_t played
    uint64_t gone[4]
    int voids[4]
    int trump
    int declarer
    int level
    int leader
    uint64_t t_lead
    int t_n
    int t_led
    int t_pos
    int t_best
    int t_key
    int t_trump


cdef struct Eng:
    int key[8192]
    int beat[8192]
    int pop[8192]
    int hcp[8192]
    int bid_table[2 * 14 * 20]
    int lead_weight[4]
    int bid_offset[5]
    int samples
    int search_samples
    int search_keep
    int search_attempts
    int bid_samples
    int play_step
    int bid_step
    int passout_0c
    int short_free
    int must_trump
    int symmetric
    int short_code
    int match_code
    int over_code
    int first_leader
    int has_contract
    int contract_code
    int max_redeals
    int play_code[4]
    int bid_code[4]
    bitgen_t* rng
    int use_decks
    const int8_t* decks
    int64_t n_decks
    int64_t deck_pos
    # log
    int recording
    int64_t hand_index
    int64_t step
    int64_t* log
    int64_t log_n
    int64_t log_cap
    int error
    # rollout sample buffer
    uint64_t* sample_hands
    # the auction of the deal being played (search sampling): calls in order, -1 = pass
    int n_calls
    int call_seat[MAX_CALLS]
    int call_code[MAX_CALLS]
    int a_passes
    int a_opening
    # inference: the plays of the hand so far (search weights), docs "Inference from the plays"
    int search_infer
    double eps
    double trunc
    int n_hist
    int hist_seat[MAX_HIST]
    uint64_t hist_mask[MAX_HIST]
    int hist_lead[MAX_HIST]
    double* weights


cdef inline int suit_of(uint64_t m) noexcept nogil:
    return ctz64(m) // 13


cdef inline int sranks(uint64_t m, int s) noexcept nogil:
    return <int>((m >> (13 * s)) & SUIT_BITS)


cdef void log_row(Eng* e, int seat, int action, int64_t cards, int64_t value) noexcept nogil:
    cdef int64_t* p
    if e.recording and not e.error:
        if e.log_n >= e.log_cap:
            p = <int64_t*> realloc(e.log, 2 * e.log_cap * 6 * sizeof(int64_t))
            if p == NULL:
                e.error = ERR_MEMORY
                e.step += 1
                return
            e.log = p
            e.log_cap *= 2
        p = e.log + 6 * e.log_n
        p[0] = e.hand_index
        p[1] = e.step
        p[2] = seat
        p[3] = action
        p[4] = cards
        p[5] = value
        e.log_n += 1
    e.step += 1


# ------------------------------------------------------------------ move generation
cdef int subsets(uint64_t bits, int n, uint64_t base, uint64_t* out, int k) noexcept nogil:
    """Append the n-subsets of ``bits`` (each OR ``base``) in ascending order; returns the new count."""
    cdef int pos[52]
    cdef int cnt = 0, a, b, c
    cdef uint64_t x = bits
    while x:
        pos[cnt] = ctz64(x)
        cnt += 1
        x &= x - 1
    if n == 1:
        for c in range(cnt):
            out[k] = base | ((<uint64_t>1) << pos[c])
            k += 1
    elif n == 2:
        for c in range(cnt):
            for b in range(c):
                out[k] = base | ((<uint64_t>1) << pos[c]) | ((<uint64_t>1) << pos[b])
                k += 1
    elif n == 3:
        for c in range(cnt):
            for b in range(c):
                for a in range(b):
                    out[k] = base | ((<uint64_t>1) << pos[c]) | ((<uint64_t>1) << pos[b]) | ((<uint64_t>1) << pos[a])
                    k += 1
    return k


cdef int lead_options(uint64_t hand, uint64_t* out) noexcept nogil:
    """Every lead (1-3 cards of one suit), ascending."""
    cdef int k = 0, s, a, b, c
    cdef uint64_t r, bc, bb, ba
    for s in range(4):
        r = (hand >> (13 * s)) & SUIT_BITS
        for c in range(13):
            if not (r >> c) & 1:
                continue
            bc = (<uint64_t>1) << (13 * s + c)
            out[k] = bc
            k += 1
            for b in range(c):
                if not (r >> b) & 1:
                    continue
                bb = (<uint64_t>1) << (13 * s + b)
                out[k] = bc | bb
                k += 1
                for a in range(b):
                    if not (r >> a) & 1:
                        continue
                    ba = (<uint64_t>1) << (13 * s + a)
                    out[k] = bc | bb | ba
                    k += 1
    return k


cdef int follow_options(Eng* e, uint64_t hand, int led, int n, int trump, uint64_t* out) noexcept nogil:
    cdef uint64_t led_mask = SUIT_BITS << (13 * led)
    cdef uint64_t lc = hand & led_mask
    cdef uint64_t tm
    cdef int k = popcount64(lc)
    if k >= n:
        return subsets(lc, n, 0, out, 0)
    if k > 0 and not e.short_free:
        return subsets(hand & ~led_mask, n - k, lc, out, 0)
    if k == 0 and e.must_trump and trump < 4 and trump != led:
        tm = hand & (SUIT_BITS << (13 * trump))
        if popcount64(tm) >= n:
            return subsets(tm, n, 0, out, 0)
    return subsets(hand, n, 0, out, 0)


cdef inline int play_kind(uint64_t play, uint64_t before, int led, int trump) noexcept nogil:
    cdef uint64_t led_mask = SUIT_BITS << (13 * led)
    if (play & ~led_mask) == 0:
        return 0
    if (before & led_mask) == 0 and trump < 4 and trump != led and (play & ~(SUIT_BITS << (13 * trump))) == 0:
        return 1
    return 2


cdef void finals_for(Eng* e, const int* tricks, int declarer, int level, int* out) noexcept nogil:
    cdef int order[4]
    cdef int t[4]
    cdef int i, m, match = 0, over = 0, short = 0, bal_total = 0, ni, bal, d
    for i in range(4):
        order[i] = (declarer + i * e.play_step + 8) % 4
        t[i] = tricks[order[i]]
        out[i] = 0
    if level == 0 and t[0] == 4 and t[1] == 3 and t[2] == 3 and t[3] == 3:
        return
    m = t[0] - 4
    if m == level:  # the scoring codes of RuleSet.scoring_codes (0 0 0: the page as written)
        if e.match_code == 0:
            match = m
        elif e.match_code == 1:
            match = m // 2
        elif e.match_code == 3:  # half_capped: m // 2, at most 2
            match = min(m // 2, 2)
    elif m > level:
        if e.over_code == 0:
            over = m - level
    else:
        d = level - m
        if e.short_code == 1:
            short = d
        elif e.short_code == 2:
            short = d * (d + 1) // 2
        elif e.short_code == 3:
            short = d + level
    for i in range(1, 4):
        ni = t[i] - 3
        bal = ni + 1 if ni >= 0 else 0
        bal_total += bal
        out[order[i]] = ni + bal - match + over + short
    out[order[0]] = m + 3 * match - 3 * over - 3 * short - bal_total


# ------------------------------------------------------------------ tricks
cdef inline int seat_at(Eng* e, Table* T, int pos) noexcept nogil:
    return (T.leader + pos * e.play_step + 8) % 4


cdef void start_trick(Eng* e, Table* T, uint64_t lead) noexcept nogil:
    cdef int s = suit_of(lead)
    T.t_lead = lead
    T.t_led = s
    T.t_n = popcount64(lead)
    T.t_pos = 1
    T.t_best = T.leader
    T.t_key = e.key[sranks(lead, s)]
    T.t_trump = 0
    T.hands[T.leader] &= ~lead
    T.gone[T.leader] |= lead
    T.played |= lead


cdef int apply_follow(Eng* e, Table* T, int seat, uint64_t play) noexcept nogil:
    cdef uint64_t before = T.hands[seat]
    cdef int kind = play_kind(play, before, T.t_led, T.trump)
    cdef int n = T.t_n, k, led_played
    if kind == 0:
        if not T.t_trump:
            k = e.key[sranks(play, T.t_led)]
            if k > T.t_key:
                T.t_best = seat
                T.t_key = k
    elif kind == 1:
        k = e.key[sranks(play, T.trump)]
        if not T.t_trump or k > T.t_key:
            T.t_best = seat
            T.t_key = k
            T.t_trump = 1
    led_played = popcount64(play & (SUIT_BITS << (13 * T.t_led)))
    if e.short_free:
        if (n == 1 and led_played == 0) or kind == 1:
            T.voids[seat] |= 1 << T.t_led
    elif led_played < n:
        T.voids[seat] |= 1 << T.t_led
    T.hands[seat] = before & ~play
    T.gone[seat] |= play
    T.played |= play
    T.t_pos += 1
    return kind


cdef inline int end_trick(Table* T) noexcept nogil:
    cdef int w = T.t_best
    T.tricks[w] += T.t_n
    T.leader = w
    return w


# ------------------------------------------------------------------ greedy
cdef uint64_t greedy_lead(Eng* e, uint64_t hand) noexcept nogil:
    cdef uint64_t opts[MAXOPT]
    cdef int k = lead_options(hand, opts), i, r, n, s
    cdef int64_t score, best_score = -1
    cdef int best_n = 0
    cdef uint64_t best = 0, m
    for i in range(k):
        m = opts[i]
        s = suit_of(m)
        r = sranks(m, s)
        n = e.pop[r]
        score = <int64_t>e.beat[r] * e.lead_weight[n]
        if score > best_score or (score == best_score and n > best_n):
            best = m
            best_score = score
            best_n = n
    return best


cdef uint64_t greedy_follow(Eng* e, Table* T, int seat, const uint64_t* opts, int k) noexcept nogil:
    cdef uint64_t hand = T.hands[seat], win = 0, best = 0, m, x
    cdef int win_key = 1 << 30, best_cost = 1 << 30, i, kind, kk, cost, c
    for i in range(k):
        m = opts[i]
        kind = play_kind(m, hand, T.t_led, T.trump)
        if kind == 0 and not T.t_trump:
            kk = e.key[sranks(m, T.t_led)]
            if kk > T.t_key and kk < win_key:
                win = m
                win_key = kk
        elif kind == 1:
            kk = e.key[sranks(m, T.trump)]
            if (not T.t_trump or kk > T.t_key) and kk < win_key:
                win = m
                win_key = kk
    if win:
        return win
    for i in range(k):
        m = opts[i]
        cost = 0
        x = m
        while x:
            c = ctz64(x)
            x &= x - 1
            cost += c % 13
            if c // 13 == T.trump:
                cost += 13
        if cost < best_cost:
            best = m
            best_cost = cost
    return best


cdef void greedy_rest(Eng* e, Table* T) noexcept nogil:
    cdef uint64_t opts[MAXOPT]
    cdef int seat, k
    while True:
        while T.t_pos < 4:
            seat = seat_at(e, T, T.t_pos)
            k = follow_options(e, T.hands[seat], T.t_led, T.t_n, T.trump, opts)
            if k == 1:
                apply_follow(e, T, seat, opts[0])
            else:
                apply_follow(e, T, seat, greedy_follow(e, T, seat, opts, k))
        end_trick(T)
        if T.hands[T.leader] == 0:
            return
        start_trick(e, T, greedy_lead(e, T.hands[T.leader]))


# ------------------------------------------------------------------ rollout
cdef int sample_once(Eng* e, Table* T, int seat, uint64_t* out) noexcept nogil:
    """One deal of the unseen cards to the other seats (out[0..3]); 1 on success, 0 on failure."""
    cdef int unseen[52]
    cdef int nu = 0, c, i, j, tmp, kk, q, qi, ncand, total
    cdef int others[3]
    cdef int cap[4]
    cdef int cand[3]
    cdef int nallowed
    cdef uint64_t known = T.played | T.hands[seat]
    for c in range(52):
        if not ((known >> c) & 1):
            unseen[nu] = c
            nu += 1
    for qi in range(3):
        others[qi] = (seat + 1 + qi) % 4
    for q in range(4):
        cap[q] = popcount64(T.hands[q])
        out[q] = 0
    out[seat] = T.hands[seat]
    i = nu - 1
    while i > 0:
        j = <int>bounded(e.rng, <uint32_t>(i + 1))
        tmp = unseen[i]
        unseen[i] = unseen[j]
        unseen[j] = tmp
        i -= 1
    for kk in range(1, 4):
        for i in range(nu):
            c = unseen[i]
            nallowed = 0
            for qi in range(3):
                if not ((T.voids[others[qi]] >> (c // 13)) & 1):
                    nallowed += 1
            if nallowed != kk:
                continue
            ncand = 0
            total = 0
            for qi in range(3):
                q = others[qi]
                if not ((T.voids[q] >> (c // 13)) & 1) and cap[q] > 0:
                    cand[ncand] = q
                    ncand += 1
                    total += cap[q]
            if ncand == 0:
                return 0
            if ncand == 1:
                q = cand[0]
            else:
                j = <int>bounded(e.rng, <uint32_t>total)
                for qi in range(ncand):
                    q = cand[qi]
                    if j < cap[q]:
                        break
                    j -= cap[q]
            out[q] |= (<uint64_t>1) << c
            cap[q] -= 1
    for i in range(nu):
        c = unseen[i]
        nallowed = 0
        for qi in range(3):
            if not ((T.voids[others[qi]] >> (c // 13)) & 1):
                nallowed += 1
        if nallowed == 0:
            return 0
    return 1


cdef uint64_t rollout(Eng* e, Table* T, int seat, const uint64_t* opts, int k, int leading) noexcept nogil:
    cdef int S = e.samples, si, attempt, ok, i, q
    cdef uint64_t* hs = e.sample_hands
    cdef Table U
    cdef int f[4]
    cdef int64_t total, best_total = 0
    cdef uint64_t best = opts[0]
    for si in range(S):
        ok = 0
        for attempt in range(SAMPLE_ATTEMPTS):
            if sample_once(e, T, seat, hs + 4 * si):
                ok = 1
                break
        if not ok:
            for q in range(4):
                hs[4 * si + q] = T.hands[q]
    for i in range(k):
        total = 0
        for si in range(S):
            U = T[0]
            for q in range(4):
                U.hands[q] = hs[4 * si + q]
            if leading:
                start_trick(e, &U, opts[i])
            else:
                apply_follow(e, &U, seat, opts[i])
            greedy_rest(e, &U)
            finals_for(e, U.tricks, U.declarer, U.level, f)
            total += f[seat]
        if i == 0 or total > best_total:
            best = opts[i]
            best_total = total
    return best


# ------------------------------------------------------------------ search (play)
cdef int auction_ok(Eng* e, int decider, const uint64_t* orig) noexcept nogil:
    """1 if replaying the recorded calls with the hands ``orig`` gives the same calls for every seat
    other than ``decider`` that bids by a table policy (a ``search`` bidder is not checked)."""
    cdef int current = -1, bidder = -1, i, s, c
    for i in range(e.n_calls):
        s = e.call_seat[i]
        c = e.call_code[i]
        if s != decider and e.bid_code[s] != B_SEARCH:
            if builtin_bid(e, s, orig[s], current, bidder) != c:
                return 0
        if c >= 0:
            current = c
            bidder = s
    return 1


cdef void search_sample(Eng* e, Table* T, int seat, uint64_t* out) noexcept nogil:
    """One layout for the search: consistent with the voids and the auction (fallbacks in the spec)."""
    cdef uint64_t tmp[4]
    cdef uint64_t orig[4]
    cdef uint64_t fb[4]
    cdef int attempt, q, have = 0
    for attempt in range(e.search_attempts):
        if sample_once(e, T, seat, tmp):
            for q in range(4):
                fb[q] = tmp[q]
                orig[q] = tmp[q] | T.gone[q]
            have = 1
            if auction_ok(e, seat, orig):
                for q in range(4):
                    out[q] = tmp[q]
                return
    for q in range(4):
        out[q] = fb[q] if have else T.hands[q]


cdef int play_value(Eng* e, Table* T, int seat, uint64_t opt, const uint64_t* hs, int leading) noexcept nogil:
    """The seat's final after ``opt`` and greedy play of the rest on the layout ``hs``."""
    cdef Table U = T[0]
    cdef int f[4]
    cdef int q
    for q in range(4):
        U.hands[q] = hs[q]
    if leading:
        start_trick(e, &U, opt)
    else:
        apply_follow(e, &U, seat, opt)
    greedy_rest(e, &U)
    finals_for(e, U.tricks, U.declarer, U.level, f)
    return f[seat]


cdef double layout_weight(Eng* e, Table* T, int seat, const uint64_t* lay) noexcept nogil:
    """The likelihood of the other seats' recorded plays on the layout ``lay`` (docs)."""
    cdef Table R
    cdef uint64_t opts[MAXOPT]
    cdef double G[4]
    cdef double Rr[4]
    cdef double w = 1.0
    cdef int j, q, k, i, found
    cdef uint64_t m, g
    memset(&R, 0, sizeof(Table))
    for q in range(4):
        R.hands[q] = lay[q] | T.gone[q]
        G[q] = 1.0
        Rr[q] = 1.0
    R.trump = T.trump
    R.declarer = T.declarer
    R.level = T.level
    R.leader = T.declarer if e.first_leader == 0 else (T.declarer + e.play_step + 4) % 4
    R.t_pos = 4
    for j in range(e.n_hist):
        q = e.hist_seat[j]
        m = e.hist_mask[j]
        if e.hist_lead[j]:
            k = lead_options(R.hands[q], opts)
        else:
            k = follow_options(e, R.hands[q], R.t_led, R.t_n, R.trump, opts)
        if q != seat and k >= 2:
            found = 0
            for i in range(k):
                if opts[i] == m:
                    found = 1
                    break
            if not found:
                G[q] = 0.0
                Rr[q] = 0.0
            else:
                if e.hist_lead[j]:
                    g = greedy_lead(e, R.hands[q])
                else:
                    g = greedy_follow(e, &R, q, opts, k)
                if g == m:
                    G[q] = G[q] * ((1.0 - e.eps) + e.eps / k)
                else:
                    G[q] = G[q] * (e.eps / k)
                Rr[q] = Rr[q] * (1.0 / k)
        if e.hist_lead[j]:
            R.t_pos = 0
            start_trick(e, &R, m)
        else:
            apply_follow(e, &R, q, m)
            if R.t_pos == 4:
                end_trick(&R)
    for q in range(4):
        if q != seat:
            w = w * (G[q] * 0.5 + Rr[q] * 0.5)
    return w


cdef void layout_weights(Eng* e, Table* T, int seat, const uint64_t* hs, int S, double* w) noexcept nogil:
    cdef int si, nz = 0
    cdef double total = 0.0, cap
    for si in range(S):
        w[si] = 1.0
    if not e.search_infer or e.n_hist == 0:
        return
    for si in range(S):
        w[si] = layout_weight(e, T, seat, hs + 4 * si)
        if w[si] > 0.0:
            nz = 1
    if not nz:
        for si in range(S):
            w[si] = 1.0
        return
    if e.trunc > 0.0:
        for si in range(S):
            total = total + w[si]
        cap = e.trunc * (total / S)
        for si in range(S):
            if w[si] > cap:
                w[si] = cap


cdef uint64_t search_play(Eng* e, Table* T, int seat, const uint64_t* opts, int k, int leading) noexcept nogil:
    cdef int S = e.search_samples, S1, si, i, j, kept, K = e.search_keep
    cdef uint64_t* hs = e.sample_hands
    cdef double* w = e.weights
    cdef double totals[MAXOPT]
    cdef char keep[MAXOPT]
    cdef double best_total = 0
    cdef int best = -1
    S1 = S // 4
    if S1 < 1:
        S1 = 1
    for si in range(S):
        search_sample(e, T, seat, hs + 4 * si)
    layout_weights(e, T, seat, hs, S, w)
    for i in range(k):
        totals[i] = 0
        keep[i] = 0
        for si in range(S1):
            totals[i] += w[si] * play_value(e, T, seat, opts[i], hs + 4 * si, leading)
    if k <= K:
        for i in range(k):
            keep[i] = 1
    else:
        for kept in range(K):
            j = -1
            for i in range(k):
                if not keep[i] and (j < 0 or totals[i] > totals[j]):
                    j = i
            keep[j] = 1
    for i in range(k):
        if not keep[i]:
            continue
        for si in range(S1, S):
            totals[i] += w[si] * play_value(e, T, seat, opts[i], hs + 4 * si, leading)
        if best < 0 or totals[i] > best_total:
            best = i
            best_total = totals[i]
    return opts[best]


cdef uint64_t choose(Eng* e, Table* T, int seat, const uint64_t* opts, int k, int leading) noexcept nogil:
    cdef int code = e.play_code[seat]
    if k == 1:
        return opts[0]
    if code == P_RANDOM:
        return opts[bounded(e.rng, <uint32_t>k)]
    if code == P_GREEDY:
        if leading:
            return greedy_lead(e, T.hands[seat])
        return greedy_follow(e, T, seat, opts, k)
    if code == P_SEARCH:
        return search_play(e, T, seat, opts, k, leading)
    return rollout(e, T, seat, opts, k, leading)


# ------------------------------------------------------------------ auction
cdef int builtin_bid(Eng* e, int seat, uint64_t hand, int current, int bidder) noexcept nogil:
    cdef int code = e.bid_code[seat], s, hb = 0, best = 0, best_e = -1, ev, maxlen = 0, target, c
    cdef int lengths[4]
    if code == B_NEVER:
        return -1
    for s in range(4):
        hb += e.hcp[sranks(hand, s)]
        lengths[s] = e.pop[sranks(hand, s)]
        if lengths[s] > maxlen:
            maxlen = lengths[s]
    hb = hb // 2
    if hb > 19:
        hb = 19
    for s in range(5):
        if s < 4:
            ev = e.bid_table[lengths[s] * 20 + hb]
        else:
            ev = e.bid_table[280 + maxlen * 20 + hb]
        if ev >= best_e:
            best = s
            best_e = ev
    target = (best_e + 5) // 10 - 4 + e.bid_offset[code]
    if target > 9:
        target = 9
    if target < 0:
        return -1
    c = 5 * target + best
    if c > current and bidder != seat:
        return c
    return -1


cdef void full_playout(Eng* e, const uint64_t* hands, int declarer, int strain, int* tricks) noexcept nogil:
    """Tricks by seat of the whole hand played by greedy at every seat (greedy ignores the level)."""
    cdef Table U
    cdef int q
    memset(&U, 0, sizeof(Table))
    for q in range(4):
        U.hands[q] = hands[q]
    U.trump = strain
    U.declarer = declarer
    U.leader = declarer if e.first_leader == 0 else (declarer + e.play_step + 4) % 4
    start_trick(e, &U, greedy_lead(e, U.hands[U.leader]))
    greedy_rest(e, &U)
    for q in range(4):
        tricks[q] = U.tricks[q]


cdef int finish_auction(Eng* e, const uint64_t* lay, int seat, int dealer, int call, int current, int bidder,
                        int passes, int opening, int* declarer) noexcept nogil:
    """The contract code after ``seat`` calls ``call``: the others by their table policy (a search
    bidder as ``expected``), ``seat`` passing at its later turns; -1 = passed out (declarer -1)."""
    cdef int caller = seat, c
    c = call
    while True:
        if c >= 0:
            current = c
            bidder = caller
            passes = 0
        else:
            if current >= 0:
                passes += 1
                if passes >= 3:  # a finished auction ends at once (never loops)
                    declarer[0] = bidder
                    return current
            else:
                opening += 1
                if opening >= 4:
                    if e.passout_0c:
                        declarer[0] = dealer
                        return 0
                    declarer[0] = -1
                    return -1
        caller = (caller + e.bid_step + 4) % 4
        if caller == seat:
            c = -1
        else:
            c = builtin_bid(e, caller, lay[caller], current, bidder)


cdef void bid_layout(Eng* e, int seat, uint64_t hand, uint64_t* lay) noexcept nogil:
    """One deal of the 39 unseen cards to the other seats, consistent with the calls so far."""
    cdef int unseen[52]
    cdef int nu, c, i, j, tmp, attempt, q
    for attempt in range(e.search_attempts):
        nu = 0
        for c in range(52):
            if not ((hand >> c) & 1):
                unseen[nu] = c
                nu += 1
        i = nu - 1
        while i > 0:
            j = <int>bounded(e.rng, <uint32_t>(i + 1))
            tmp = unseen[i]
            unseen[i] = unseen[j]
            unseen[j] = tmp
            i -= 1
        for q in range(4):
            lay[q] = 0
        lay[seat] = hand
        for i in range(nu):
            q = (seat + 1 + i // 13) % 4
            lay[q] |= (<uint64_t>1) << unseen[i]
        if auction_ok(e, seat, lay):
            return


cdef int bid_candidates(int current, int* cand) noexcept nogil:
    cdef int n = 1, c
    cand[0] = -1
    for c in range(current + 1, 50):
        cand[n] = c
        n += 1
    return n


cdef void bid_values(Eng* e, int seat, uint64_t hand, int dealer, int current, int bidder, int passes, int opening,
                     int B, int* cand, int ncand, int* values) noexcept nogil:
    """values[ci * B + b]: the seat's final with call cand[ci] on layout b."""
    cdef uint64_t lay[4]
    cdef int cache[20][4]
    cdef char have[20]
    cdef int f[4]
    cdef int b, ci, code, d, key, q
    for b in range(B):
        bid_layout(e, seat, hand, lay)
        for q in range(20):
            have[q] = 0
        for ci in range(ncand):
            code = finish_auction(e, lay, seat, dealer, cand[ci], current, bidder, passes, opening, &d)
            if d < 0:
                values[ci * B + b] = 0
                continue
            key = 5 * d + code % 5
            if not have[key]:
                full_playout(e, lay, d, code % 5, cache[key])
                have[key] = 1
            finals_for(e, cache[key], d, code // 5, f)
            values[ci * B + b] = f[seat]


cdef int search_bid(Eng* e, int seat, uint64_t hand, int dealer, int current, int bidder) noexcept nogil:
    cdef int cand[NCAND_BID]
    cdef int ncand = bid_candidates(current, cand), B = e.bid_samples, ci, b, best = 0
    cdef int64_t tot, best_tot = 0
    cdef int* values = <int*> malloc(NCAND_BID * B * sizeof(int))
    if values == NULL:
        e.error = ERR_MEMORY
        return -1
    bid_values(e, seat, hand, dealer, current, bidder, e.a_passes, e.a_opening, B, cand, ncand, values)
    for ci in range(ncand):
        tot = 0
        for b in range(B):
            tot += values[ci * B + b]
        if ci == 0 or tot > best_tot:
            best = ci
            best_tot = tot
    free(values)
    return cand[best]


cdef int auction(Eng* e, uint64_t* hands, int dealer, int* declarer) noexcept nogil:
    cdef int current = -1, bidder = -1, passes = 0, opening = 0, caller = dealer, c
    e.n_calls = 0
    while True:
        if e.bid_code[caller] == B_SEARCH:
            e.a_passes = passes
            e.a_opening = opening
            c = search_bid(e, caller, hands[caller], dealer, current, bidder)
        else:
            c = builtin_bid(e, caller, hands[caller], current, bidder)
        if e.n_calls < MAX_CALLS:
            e.call_seat[e.n_calls] = caller
            e.call_code[e.n_calls] = c
            e.n_calls += 1
        if c >= 0:
            log_row(e, caller, A_BID, 0, c)
            current = c
            bidder = caller
            passes = 0
        else:
            log_row(e, caller, A_PASS, 0, 0)
            if current >= 0:
                passes += 1
                if passes == 3:
                    declarer[0] = bidder
                    return current
            else:
                opening += 1
                if opening == 4:
                    declarer[0] = -1
                    return -1
        caller = (caller + e.bid_step + 4) % 4


# ------------------------------------------------------------------ one hand
cdef int deal(Eng* e, uint64_t* hands) noexcept nogil:
    cdef int deck[52]
    cdef int i, j, tmp, s
    if e.use_decks:
        if e.deck_pos >= e.n_decks:
            e.error = ERR_DECKS
            return 0
        for i in range(52):
            deck[i] = e.decks[52 * e.deck_pos + i]
        e.deck_pos += 1
    else:
        for i in range(52):
            deck[i] = i
        i = 51
        while i > 0:
            j = <int>bounded(e.rng, <uint32_t>(i + 1))
            tmp = deck[i]
            deck[i] = deck[j]
            deck[j] = tmp
            i -= 1
    for s in range(4):
        hands[s] = 0
        for i in range(13):
            hands[s] |= (<uint64_t>1) << deck[13 * s + i]
    return 1


cdef struct Out:
    int8_t* dealer
    int8_t* declarer
    int8_t* level
    int8_t* strain
    int8_t* forced
    int16_t* redeals
    int8_t* draw
    int8_t* plays
    int8_t* tricks
    int16_t* finals
    int64_t* hands


cdef inline void hist_add(Eng* e, int seat, uint64_t m, int lead) noexcept nogil:
    if e.n_hist < MAX_HIST:
        e.hist_seat[e.n_hist] = seat
        e.hist_mask[e.n_hist] = m
        e.hist_lead[e.n_hist] = lead
        e.n_hist += 1


cdef int play_hand(Eng* e, Out* o, int64_t h, int dealer) noexcept nogil:
    cdef uint64_t hands[4]
    cdef uint64_t opts[MAXOPT]
    cdef int redeals = 0, forced = 0, declarer = -1, code = 0, s, k, seat, kind, w, plays = 0, draw
    cdef uint64_t lead, m
    cdef Table T
    cdef int f[4]
    e.hand_index = h
    e.step = 0
    while True:
        if not deal(e, hands):
            return dealer
        for s in range(4):
            log_row(e, s, A_DEAL, <int64_t>hands[s], 13)
        if e.has_contract:
            declarer = dealer
            code = e.contract_code
            e.n_calls = 0
            break
        code = auction(e, hands, dealer, &declarer)
        if declarer >= 0:
            break
        if e.passout_0c or redeals >= e.max_redeals:
            declarer = dealer
            code = 0
            forced = 1
            log_row(e, dealer, A_FORCED, 0, 0)
            break
        redeals += 1
        log_row(e, dealer, A_PASSOUT, 0, redeals)
    memset(&T, 0, sizeof(Table))
    e.n_hist = 0
    for s in range(4):
        T.hands[s] = hands[s]
    T.level = code // 5
    T.trump = code % 5
    T.declarer = declarer
    T.leader = declarer if e.first_leader == 0 else (declarer + e.play_step + 4) % 4
    T.t_pos = 4
    while T.hands[T.leader]:
        seat = T.leader
        k = lead_options(T.hands[seat], opts)
        T.t_pos = 0
        lead = choose(e, &T, seat, opts, k, 1)
        start_trick(e, &T, lead)
        hist_add(e, seat, lead, 1)
        log_row(e, seat, A_LEAD, <int64_t>lead, T.t_n)
        while T.t_pos < 4:
            seat = seat_at(e, &T, T.t_pos)
            k = follow_options(e, T.hands[seat], T.t_led, T.t_n, T.trump, opts)
            m = choose(e, &T, seat, opts, k, 0)
            kind = apply_follow(e, &T, seat, m)
            hist_add(e, seat, m, 0)
            log_row(e, seat, A_FOLLOW, <int64_t>m, kind)
        w = end_trick(&T)
        log_row(e, w, A_WIN, 0, T.t_n)
        plays += 1
    finals_for(e, T.tricks, declarer, T.level, f)
    draw = 0
    if T.level == 0:
        if (T.tricks[declarer] == 4 and T.tricks[(declarer + e.play_step + 4) % 4] == 3
                and T.tricks[(declarer + 2 * e.play_step + 8) % 4] == 3 and T.tricks[(declarer + 3 * e.play_step + 12) % 4] == 3):
            draw = 1
    for s in range(4):
        log_row(e, s, A_SCORE, 0, f[s])
    o.dealer[h] = dealer
    o.declarer[h] = declarer
    o.level[h] = T.level
    o.strain[h] = T.trump
    o.forced[h] = forced
    o.redeals[h] = redeals
    o.draw[h] = draw
    o.plays[h] = plays
    for s in range(4):
        o.tricks[4 * h + s] = T.tricks[s]
        o.finals[4 * h + s] = f[s]
        o.hands[4 * h + s] = <int64_t>hands[s]
    if draw:
        return dealer
    return (dealer + e.bid_step + 4) % 4


cdef void run_loop(Eng* e, int64_t n, int64_t record, int dealer, Out* o) noexcept nogil:
    cdef int64_t h
    if dealer < 0:
        dealer = <int>bounded(e.rng, 4)
    for h in range(n):
        e.recording = 1 if h < record else 0
        dealer = play_hand(e, o, h, dealer)
        if e.error:
            return


cdef void configure(Eng* e, cfg, play_codes, bid_codes):
    cdef int i, r, acc
    cdef int hcpv[13]
    cdef const cnp.int32_t[::1] key = np.ascontiguousarray(cfg.key, dtype=np.int32)
    cdef const cnp.int32_t[::1] beat = np.ascontiguousarray(cfg.beat, dtype=np.int32)
    table = np.ascontiguousarray(cfg.bid_table, dtype=np.int32).ravel()
    for r in range(13):
        hcpv[r] = int(_HCP[r])
    for i in range(8192):  # typed loops: the setup of an advisor's batch costs microseconds, not 10 ms
        e.key[i] = key[i]
        e.beat[i] = beat[i]
        e.pop[i] = popcount64(<unsigned long long>i)
        acc = 0
        for r in range(13):
            if (i >> r) & 1:
                acc += hcpv[r]
        e.hcp[i] = acc
    for i in range(2 * 14 * 20):
        e.bid_table[i] = table[i]
    for i in range(4):
        e.lead_weight[i] = _LW[i]
        e.play_code[i] = int(play_codes[i])
        e.bid_code[i] = int(bid_codes[i])
    e.bid_offset[0] = 0
    e.bid_offset[1] = -1
    e.bid_offset[2] = 1
    e.bid_offset[3] = 0
    e.bid_offset[4] = 0
    e.search_samples = int(cfg.search_samples)
    e.search_infer = int(cfg.search_infer)
    e.eps = float(_config.SEARCH_EPS)
    e.trunc = float(_config.SEARCH_TRUNC)
    e.bid_samples = int(cfg.bid_samples)
    e.search_keep = int(_KEEP)
    e.search_attempts = int(_ATTEMPTS)
    if e.search_samples > MAX_SAMPLES:
        raise ValueError(f"search_samples={e.search_samples}: the compiled engine allows at most {MAX_SAMPLES}")
    e.samples = int(cfg.samples)
    if e.samples > MAX_SAMPLES:
        raise ValueError(f"samples={e.samples}: the compiled engine allows at most {MAX_SAMPLES}")
    e.play_step = int(cfg.play_step)
    e.bid_step = int(cfg.bid_step)
    e.passout_0c = int(cfg.passout_0c)
    e.short_free = int(cfg.short_free)
    e.must_trump = int(cfg.must_trump)
    e.symmetric = int(cfg.symmetric)
    e.short_code = int(cfg.scoring[0])
    e.match_code = int(cfg.scoring[1])
    e.over_code = int(cfg.scoring[2])
    e.first_leader = int(cfg.first_leader)
    e.max_redeals = int(_MAX_REDEALS)
    if cfg.contract is not None:
        e.has_contract = 1
        e.contract_code = 5 * int(cfg.contract[0]) + int(cfg.contract[1])
    else:
        e.has_contract = 0
        e.contract_code = 0


def run_hands(cfg, play_codes, bid_codes, bit_generator, long long hands, long long record=0, decks=None):
    """Play ``hands`` hands (inputs validated by :func:`kaptai.heaven11.engine.run_hands`)."""
    cdef Eng* e = <Eng*> malloc(sizeof(Eng))
    cdef Out o
    cdef const int8_t[:, ::1] dv
    cdef int dealer
    if e == NULL:
        raise MemoryError()
    memset(e, 0, sizeof(Eng))
    try:
        configure(e, cfg, play_codes, bid_codes)
        e.sample_hands = <uint64_t*> malloc(4 * (max(e.samples, e.search_samples) + 1) * sizeof(uint64_t))
        e.weights = <double*> malloc((e.search_samples + 1) * sizeof(double))
        e.log_cap = 1024
        e.log = <int64_t*> malloc(e.log_cap * 6 * sizeof(int64_t))
        if e.sample_hands == NULL or e.log == NULL or e.weights == NULL:
            raise MemoryError()
        if decks is not None:
            darr = np.ascontiguousarray(decks, dtype=np.int8)
            e.use_decks = 1
            e.n_decks = darr.shape[0]
            if darr.shape[0]:
                dv = darr
                e.decks = &dv[0, 0]
        out = new_outcomes(int(hands))
        arrs = {k: v for k, v in out.items()}
        if hands:
            o.dealer = <int8_t*> cnp.PyArray_DATA(arrs["dealer"])
            o.declarer = <int8_t*> cnp.PyArray_DATA(arrs["declarer"])
            o.level = <int8_t*> cnp.PyArray_DATA(arrs["level"])
            o.strain = <int8_t*> cnp.PyArray_DATA(arrs["strain"])
            o.forced = <int8_t*> cnp.PyArray_DATA(arrs["forced"])
            o.redeals = <int16_t*> cnp.PyArray_DATA(arrs["redeals"])
            o.draw = <int8_t*> cnp.PyArray_DATA(arrs["draw"])
            o.plays = <int8_t*> cnp.PyArray_DATA(arrs["plays"])
            o.tricks = <int8_t*> cnp.PyArray_DATA(arrs["tricks"])
            o.finals = <int16_t*> cnp.PyArray_DATA(arrs["finals"])
            o.hands = <int64_t*> cnp.PyArray_DATA(arrs["hands"])
        dealer = int(cfg.first_dealer)
        e.rng = <bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        with bit_generator.lock, nogil:
            run_loop(e, hands, record, dealer, &o)
        if e.error == ERR_MEMORY:
            raise MemoryError("engine log")
        if e.error == ERR_DECKS:
            raise ValueError(f"decks: {e.n_decks} given, but hand {e.hand_index} needs another one "
                             "(every deal, a redeal included, takes the next deck)")
        log = np.empty((e.log_n, 6), dtype=np.int64)
        if e.log_n:
            memcpy(cnp.PyArray_DATA(log), e.log, e.log_n * 6 * sizeof(int64_t))
        return out, log
    finally:
        free(e.sample_hands)
        free(e.weights)
        free(e.log)
        free(e)


# ------------------------------------------------------------------ advisor entry points
cdef void _setup(Eng* e, cfg, bid_codes, calls) except *:
    cdef int i
    configure(e, cfg, [1, 1, 1, 1], bid_codes)
    e.n_calls = 0
    for i, (s, c) in enumerate(calls):
        if i >= MAX_CALLS:
            raise ValueError(f"at most {MAX_CALLS} calls")
        e.call_seat[i] = int(s)
        e.call_code[i] = int(c)
        e.n_calls += 1


def option_values(cfg, state, int seat, options, int samples, bit_generator, calls=(), bid_codes=(0, 0, 0, 0)):
    """The seat's final on each of ``samples`` layouts for every option (int32 ``(len(options), samples)``).

    ``state`` (a mapping) gives the public position: ``hands`` (the seat's real hand; the other seats'
    entries only need the right sizes: they are the fallback layout), ``tricks``, ``played``,
    ``gone``, ``voids``, ``trump``, ``declarer``, ``level``, ``leader`` and the play in progress
    ``t_lead, t_n, t_led, t_pos, t_best, t_key, t_trump`` (``t_pos`` 0 when the seat leads).  Each
    layout is drawn as a ``search`` layout (voids and the recorded ``calls``); every option is
    played out by greedy on every layout (no pruning).  Used by :mod:`kaptai.heaven11.advisor`.
    """
    cdef Eng* e = <Eng*> malloc(sizeof(Eng))
    cdef Table T
    cdef int k = len(options), i, si, q, leading
    cdef uint64_t* hs = NULL
    cdef uint64_t* opts = NULL
    cdef cnp.int32_t[:, ::1] vv
    if e == NULL:
        raise MemoryError()
    memset(e, 0, sizeof(Eng))
    memset(&T, 0, sizeof(Table))
    try:
        _setup(e, cfg, bid_codes, calls)
        for q in range(4):
            T.hands[q] = <uint64_t>int(state["hands"][q])
            T.tricks[q] = int(state["tricks"][q])
            T.gone[q] = <uint64_t>int(state["gone"][q])
            T.voids[q] = int(state["voids"][q])
        T.played = <uint64_t>int(state["played"])
        T.trump = int(state["trump"])
        T.declarer = int(state["declarer"])
        T.level = int(state["level"])
        T.leader = int(state["leader"])
        T.t_lead = <uint64_t>int(state["t_lead"])
        T.t_n = int(state["t_n"])
        T.t_led = int(state["t_led"])
        T.t_pos = int(state["t_pos"])
        T.t_best = int(state["t_best"])
        T.t_key = int(state["t_key"])
        T.t_trump = int(state["t_trump"])
        leading = 1 if T.t_pos == 0 else 0
        hs = <uint64_t*> malloc(4 * samples * sizeof(uint64_t))
        opts = <uint64_t*> malloc((k + 1) * sizeof(uint64_t))
        if hs == NULL or opts == NULL:
            raise MemoryError()
        for i in range(k):
            opts[i] = <uint64_t>int(options[i])
        values = np.zeros((k, samples), dtype=np.int32)
        vv = values
        e.rng = <bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        with bit_generator.lock, nogil:
            for si in range(samples):
                search_sample(e, &T, seat, hs + 4 * si)
            for i in range(k):
                for si in range(samples):
                    vv[i, si] = play_value(e, &T, seat, opts[i], hs + 4 * si, leading)
        return values
    finally:
        free(hs)
        free(opts)
        free(e)


def call_values(cfg, int seat, hand, int dealer, calls, int samples, bit_generator, bid_codes=(0, 0, 0, 0)):
    """``(candidates, values)``: the calls open to ``seat`` (-1 = pass, then every higher bid code) and
    its final on each of ``samples`` layouts after each call (int32 ``(len(candidates), samples)``),
    exactly as the ``search`` bidder computes them; ``calls`` = the auction so far, (seat, code or -1)."""
    cdef Eng* e = <Eng*> malloc(sizeof(Eng))
    cdef int cand[NCAND_BID]
    cdef int ncand, current = -1, bidder = -1, passes = 0, opening = 0, ci, b
    cdef int* vals = NULL
    cdef uint64_t h = <uint64_t>int(hand)
    if e == NULL:
        raise MemoryError()
    memset(e, 0, sizeof(Eng))
    try:
        _setup(e, cfg, bid_codes, calls)
        for s, c in calls:
            if c >= 0:
                current, bidder, passes = int(c), int(s), 0
            elif current >= 0:
                passes += 1
            else:
                opening += 1
        ncand = bid_candidates(current, cand)
        vals = <int*> malloc(ncand * samples * sizeof(int))
        if vals == NULL:
            raise MemoryError()
        e.rng = <bitgen_t*> PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
        with bit_generator.lock, nogil:
            bid_values(e, seat, h, dealer, current, bidder, passes, opening, samples, cand, ncand, vals)
        values = np.empty((ncand, samples), dtype=np.int32)
        for ci in range(ncand):
            for b in range(samples):
                values[ci, b] = vals[ci * samples + b]
        return [cand[ci] for ci in range(ncand)], values
    finally:
        free(vals)
        free(e)
