# cython: language_level=3
"""Compiled Kap Tai Shap (夾大十) / Kap Shap (夾十) game engine: deal, claim, draw, discard.

The engine plays whole hands without the GIL and returns tallies (and, for a few sample
hands, the full move list).  It is specified once, in ``docs/kap-tai-shap-engine.md``
(hand procedure, randomness, log format, policies, edge cases); its pure-Python twin
:mod:`kaptai.kts.engine_reference` follows the same document and makes the same moves on
the same random stream (the tests compare whole hand logs).  Users call
:func:`kaptai.kts.simulate.simulate` or :func:`kaptai.kts.engine.run_hands`; this module
is private.  Policy codes: 0 ``random``, 1 ``greedy``, 2 ``score``, 3 ``lookahead``,
4 scripted (tests), 5 ``lookahead_score``, 6 ``search`` (determinized Monte Carlo over the
look-ahead's choice: every option rolled out on sampled layouts of the unseen tiles, on a
second Game that continues the hand from the phase the option leads to).
"""
from libc.stdint cimport int64_t, uint64_t, uint32_t, int32_t, int16_t, uint16_t, int8_t
from libc.string cimport memset, memcpy
from libc.stdlib cimport malloc, calloc, realloc, free
from numpy.random cimport bitgen_t
from kaptai.core._rng cimport bitgen_of, bounded
from kaptai.core._logbuf cimport LogBuffer, log_free, log_init, log_row, log_rows
cimport numpy as cnp
import numpy as np

from kaptai.kts._keys cimport KEY_WIN, KEY_READY, KEY_NEAR, KEY_REACH2, key_index, key_has
from kaptai.kts._eval cimport (
    CDELTA, CHECK_MASK, CLS, KEY_BASE,
    EvalRules, HandState, Patterns, hs_patterns, hs_basic_score, rules_init, hs_clear, hs_add, hs_remove, hs_is_win, hs_score,
)

cnp.import_array()

cdef extern from *:
    """
    static inline int kt_ctz(unsigned int x) { return __builtin_ctz(x); }
    """
    int kt_ctz(unsigned int x) noexcept nogil
    int kt_popcount "__builtin_popcount"(unsigned int x) noexcept nogil

cdef enum:
    NT = 21
    MAXP = 22
    MAXWALL = 256
    READY_LEVELS = 64
    SCORE_LEVELS = 64
    MAX_TURNS = 1000
    HORIZON = 3
    LOG_COLS = 7

    POL_RANDOM = 0
    POL_GREEDY = 1
    POL_SCORE = 2
    POL_LOOKAHEAD = 3
    POL_SCRIPT = 4
    POL_LOOKAHEAD_SCORE = 5
    POL_SEARCH = 6
    LOOK_HORIZON = 2
    MEMO_CELLS = 4851    # 231 * 21: (discard pair, drawn tile) of one decision
    FIN_CELLS = 53361    # 231 * 231: (discard pair, drawn pair) of one decision
    WMEMO_BITS = 14      # the waits memo (extra forms): 16,384 direct-mapped slots
    SMEMO_BITS = 16      # the win-score memo (extra forms): 65,536 direct-mapped slots
    VMEMO_BITS = 15      # the look-ahead's waits-and-scores memo: 32,768 slots
    CMEMO_BITS = 14      # the look-ahead's two-tile completions memo: 16,384 slots
    COMP_CAP = 64        # completions stored per slot (a hand with more is recomputed)
    PAIR_CELLS = 231     # unordered pairs {x, y} of tile ids

    # the phases of a hand (docs/kap-tai-shap-engine.md, "The hand as phases")
    PH_TURN = 0
    PH_AFTER_EXCHANGE = 1
    PH_DRAW = 2
    PH_END_TURN = 3

    # the kind of decision a seat is asked (the search applies its options by it)
    CTX_DISCARD = 0       # the discard after a draw, or the first hand's at turn 1
    CTX_EXCHANGE = 1      # the exchange discard after a claim (legal: pre)
    CTX_CLAIM = 2         # the claim step of the seat's own turn
    CTX_EARLY = 3         # the early window on the first discard of seat ctx_d

    SETTLE_POT = 0
    SETTLE_ADVANCED = 1

    CLAIM_PREVIOUS = 0
    CLAIM_ANY = 1
    CLAIM_NONE = 2

    EV_DICE = 0
    EV_DEAL = 1
    EV_NATURAL = 2
    EV_CLAIM = 3
    EV_DECLINE = 4
    EV_CLAIM_WIN = 5
    EV_DRAW = 6
    EV_SELF_DRAWN_WIN = 7
    EV_DISCARD = 8
    EV_DRAWN_HAND = 9
    EV_TURN_LIMIT = 10

    K_NATURAL = 0
    K_CLAIMED = 1
    K_SELF_DRAWN = 2
    K_DRAWN = 3
    K_LIMIT = 4

    ERR_SCRIPT_CLAIM = 1
    ERR_SCRIPT_DISCARD = 2
    ERR_MEMORY = 3
    ERR_LAYOUT = 4

ACTIONS = ("dice", "deal", "natural", "claim", "decline", "claim_win", "draw",
           "self_drawn_win", "discard", "drawn_hand", "turn_limit")

# ------------------------------------------------------------------ ten-pair key tables
# The packed key of HandState and its constants (CLS, CDELTA, KEY_BASE, CHECK_MASK) are
# those of kaptai/kts/_eval.pxd; the two tables below are derived from them for the fast
# basic-form waits.
cdef int64_t TARGET[10]          # masked key of a hand one tile of class c short of balanced
cdef int CLASS_MASK[10]          # tile ids of each class, as a bit set
cdef int ALL_IDS = (1 << NT) - 1

for _k in range(10):
    CLASS_MASK[_k] = 0
for _i in range(21):
    CLASS_MASK[CLS[_i]] |= 1 << _i
for _k in range(10):
    if _k == 0 or _k == 5:
        TARGET[_k] = KEY_BASE | CDELTA[_k]
    else:
        TARGET[_k] = KEY_BASE - CDELTA[_k]

# identical roles (docs/kts-lookahead.md, pruning 3): the partner of each id with the same
# ten-value, run-value, class, pair-type and general-eye status (the lower id of the pair
# for the higher, -1 otherwise); swapping the two ids maps the game onto itself
cdef int PARTNER[NT]
for _i in range(NT):
    PARTNER[_i] = -1
for _a, _b in ((4, 8), (5, 10), (11, 12), (13, 14), (15, 16), (17, 18)):
    PARTNER[_b] = _a

# short_class's hash: the ten masked differences TARGET[c] - KEY_BASE land in distinct
# slots of (x * SHORT_MAGIC) >> 60 (the magic found by search; checked here at import)
cdef uint64_t SHORT_MAGIC = 0xb2221a58008a05a7ULL
cdef uint64_t SHORT_X[16]
cdef int SHORT_C[16]
for _k in range(16):
    SHORT_X[_k] = 0          # 0 (a balanced key) is no class's difference
    SHORT_C[_k] = -1
for _k in range(10):
    _x = ((TARGET[_k] & CHECK_MASK) - (KEY_BASE & CHECK_MASK)) & 0xFFFFFFFFFFFFFFFF
    _slot = ((_x * SHORT_MAGIC) & 0xFFFFFFFFFFFFFFFF) >> 60
    if SHORT_C[_slot] != -1:
        raise ImportError("short_class hash collision")
    SHORT_X[_slot] = _x
    SHORT_C[_slot] = _k


# ------------------------------------------------------------------ state
cdef uint64_t CODE_USED = (<uint64_t>1) << 63      # HandState.code uses bits 0..62


cdef struct WaitSlot:     # one hand of 2n+1 tiles and its waits (all forms, basic alone)
    uint64_t code         # HandState.code | CODE_USED
    uint32_t mask
    uint32_t basic


cdef struct ScoreSlot:    # one hand and its win_score (-1: no win)
    uint64_t code         # HandState.code | CODE_USED
    int32_t score
    int32_t pad


cdef struct LookSlot:     # one hand of 2n+1 tiles: its waits and the score of each
    uint64_t code         # HandState.code | CODE_USED
    uint32_t mask
    int8_t score[NT]      # score of h + w (no self-draw point) for each wait w


cdef struct CompSlot:     # one hand K of 2n tiles: every {a <= b} with K + a + b a win
    uint64_t code         # HandState.code | CODE_USED
    int32_t count         # completions; -1: more than COMP_CAP (not stored)
    uint16_t ab[COMP_CAP]  # a | (b << 5)
    int8_t sc[COMP_CAP]   # score of K + a + b (no self-draw point)


cdef struct Stats:
    int64_t hands
    int64_t first_hand[MAXP]
    int64_t wins_first[3][MAXP]
    int64_t wins_dealer[3][MAXP]
    int64_t ends[2]
    int64_t length[MAX_TURNS + 1]
    int64_t score_first[MAXP][SCORE_LEVELS]
    int64_t score_dealer[MAXP][SCORE_LEVELS]
    int64_t ready_first[MAXP][READY_LEVELS]
    int64_t alive_first[MAXP][READY_LEVELS]
    int64_t ready_dealer[MAXP][READY_LEVELS]
    int64_t alive_dealer[MAXP][READY_LEVELS]


cdef struct Snap:         # the hand state a search rollout starts from (one layout)
    HandState h[MAXP]
    int table[NT]
    int table_total, pos, turn, last, pre
    int own_turns[MAXP]
    int committed[MAXP]
    int known[MAXP][NT]
    int wall[MAXWALL]


cdef struct Game:
    # table
    int P, n, n_first, n_other, n_tiles, n_dice
    int claim_mode, claim_then_draw, keep_drawn
    int has_basic, has_extra
    int copies[NT]
    int total_copies
    # the ids of each copy count (full_mask: a hand holds every copy of an id)
    int n_caps
    int cap_k[NT]
    int cap_ids[NT]
    int no_copy_ids                # ids the sets do not have
    EvalRules r          # every form of the ruleset
    EvalRules rx         # the forms other than basic (extra waits)
    int policy[MAXP]
    int look_obj                   # the deciding look-ahead seat's order: 0 P(win) first, 1 score
    bitgen_t* rng
    # HandState.code is exact (every copy count <= 7): then the waits of a hand are memoised
    # (extra forms) and a seat's readiness after its discard is kept from the decision
    int code_ok
    WaitSlot* wmemo                # NULL: no memo (basic form alone, or code not exact)
    ScoreSlot* smemo               # the same for win_score
    LookSlot* vmemo                # the look-ahead's V_1 hands (any forms; code exact)
    CompSlot* cmemo                # the look-ahead's 2n-tile hands and their completions
    uint64_t rdy_code[MAXP]        # hand code (| CODE_USED) that rdy[s] was found for
    int rdy[MAXP]                  # a wait of that hand has a copy outside it
    # the ruleset's win/ready key table, per-cell words (see _lookahead._class_tables: win
    # classes, ready-after-discard classes, key bits), and one look-ahead decision's memo
    const unsigned char* keys
    const uint32_t* info           # every form (loaded for the look-ahead or extra forms)
    const uint32_t* info_x         # the forms other than basic (loaded with extra forms)
    uint32_t memo_gen
    uint32_t memo_tag[MEMO_CELLS]
    int64_t memo_p[MEMO_CELLS]
    int64_t memo_s[MEMO_CELLS]
    uint32_t fin_tag[FIN_CELLS]
    int16_t fin_score[FIN_CELLS]
    uint32_t pair_tag[PAIR_CELLS]  # acc_p / acc_s of pair {x, y} hold this decision's sums
    int64_t acc_p[PAIR_CELLS][NT]  # V_1 numerators of G - {x, y} + t drawing from U - t
    int64_t acc_s[PAIR_CELLS][NT]
    # scripts (tests)
    const int32_t* script[MAXP]
    int script_len[MAXP]
    int script_pos[MAXP]
    int error
    int error_seat
    # hand state
    int wall[MAXWALL]
    int pos
    HandState h[MAXP]
    int table[NT]
    int table_total
    int first, dice_total, turn, step
    int own_turns[MAXP]
    int committed[MAXP]
    int known[MAXP][NT]            # copies of each id a seat is known to hold (it claimed them)
    int last                       # the most recent discard of the hand
    int pre                        # ids held by the seat to move before its claim (bit set)
    int ctx                        # the kind of decision being asked (CTX_*)
    int ctx_d                      # CTX_EARLY: the seat whose first discard is offered
    int res_winner                 # how the hand ended (finish): winner (-1 none), logged score
    int res_score
    # the search policy
    int rollout                    # this Game plays search rollouts (no readiness notes)
    int search_S                   # layouts per decision
    double search_z                # standard errors an option must beat the reference by
    int settle                     # SETTLE_POT / SETTLE_ADVANCED
    double cut                     # the house cut
    int roll_pol                   # the rollout policy R (greedy/score, or lookahead/lookahead_score)
    int roll_own                   # the searching seat's policy in its rollouts
    Game* sub                      # the rollout Game (its table config copied once a run)
    Snap* snap                     # one layout
    int64_t search_decisions, search_layouts, search_rollouts
    # log
    int recording
    int64_t hand_index
    LogBuffer log
    Stats* st


cdef inline void ev(Game* g, int seat, int action, int tile, int value) noexcept nogil:
    cdef int32_t* row
    if g.recording:
        row = <int32_t*> log_row(&g.log)
        if row == NULL:
            g.error = ERR_MEMORY
            g.recording = 0
            g.step += 1
            return
        row[0] = <int32_t>g.hand_index
        row[1] = g.step
        row[2] = g.turn
        row[3] = seat
        row[4] = action
        row[5] = tile
        row[6] = value
    g.step += 1


# ------------------------------------------------------------------ hand state
# hs_add / hs_remove are the cdef inline helpers of kaptai/kts/_eval.pxd.


cdef inline int imbalance(int64_t key) noexcept nogil:
    """Tiles to add or remove to balance a key: sum |d_j| + parities of C0 and C5."""
    cdef int j, d, i = <int>((key >> 32) & 1) + <int>((key >> 40) & 1)
    for j in range(4):
        d = <int>((key >> (8 * j)) & 0xFF) - 64
        i += d if d >= 0 else -d
    return i


cdef inline int short_class(int64_t key) noexcept nogil:
    """Class c such that one more tile of class c balances ``key``, or -1.

    ``key`` is one tile of class c short when its masked difference from the balanced key
    is TARGET[c] - KEY_BASE; the ten differences hash to distinct slots of SHORT_X under
    one multiplication, so one lookup and one comparison decide."""
    cdef uint64_t x = <uint64_t>((key & CHECK_MASK) - (KEY_BASE & CHECK_MASK))
    cdef int slot = <int>((x * SHORT_MAGIC) >> 60)
    return SHORT_C[slot] if SHORT_X[slot] == x else -1


# ------------------------------------------------------------------ waits and metrics
cdef inline int basic_waits(const HandState* h) noexcept nogil:
    """Bit set of the tiles completing a basic win (1 eye + n ten pairs) of hand h.

    A wait w either pairs with a single tile of its own id into the eye (then the hand
    minus that tile is balanced: the hand has one tile of w's class too many), or the eye
    is a pair already held and w is the one tile short after removing it."""
    cdef int e, c, k, mask = 0, held = h.at_least[1], pair_classes = 0, pairs = h.at_least[2]
    while pairs:
        e = kt_ctz(pairs)
        pairs &= pairs - 1
        pair_classes |= 1 << CLS[e]
    c = short_class(h.key)
    if c >= 0:
        mask |= held & CLASS_MASK[(10 - c) % 10]
    while pair_classes:
        k = kt_ctz(pair_classes)
        pair_classes &= pair_classes - 1
        c = short_class(h.key - 2 * CDELTA[k])
        if c >= 0:
            mask |= CLASS_MASK[c]
    return mask


cdef inline int waits_mask(Game* g, HandState* h, int* basic_out) noexcept nogil:
    """Bit set of every waiting tile of h under the ruleset's forms (memoised on the hand's
    counts when the ruleset has extra forms: a hand's waits depend on its counts alone, and
    a seat's hand recurs across the candidates, the claim and the draw of its turns)."""
    cdef WaitSlot* slot
    cdef int mask
    if g.wmemo == NULL:
        return waits_compute(g, h, basic_out)
    slot = &g.wmemo[(h.code * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - WMEMO_BITS)]
    if slot.code == (h.code | CODE_USED):
        basic_out[0] = slot.basic
        return slot.mask
    mask = waits_compute(g, h, basic_out)
    slot.code = h.code | CODE_USED
    slot.mask = mask
    slot.basic = basic_out[0]
    return mask


cdef inline int waits_compute(Game* g, HandState* h, int* basic_out) noexcept nogil:
    """Bit set of every waiting tile of h under the ruleset's forms (no memo)."""
    cdef int c, mask = 0
    if g.has_basic:
        mask = basic_waits(h)
    basic_out[0] = mask
    if g.has_extra:
        c = key_index(h.key)
        mask = extra_waits(g, h, g.info_x[c] & 0x3FF if c >= 0 else 0, mask)
    return mask


cdef inline int extra_waits(Game* g, HandState* h, int wc, int mask) noexcept nogil:
    """``mask`` and the tiles of the classes ``wc`` (those whose tile makes a winning key of
    the forms other than basic: the per-cell word of h's key) that complete such a win."""
    cdef int t, c, ids
    while wc:
        c = kt_ctz(wc)
        wc &= wc - 1
        ids = CLASS_MASK[c] & ~mask
        while ids:
            t = kt_ctz(ids)
            ids &= ids - 1
            hs_add(h, t, &g.rx)
            if hs_is_win(h, &g.rx):
                mask |= 1 << t
            hs_remove(h, t, &g.rx)
    return mask


cdef inline int no_waits_possible(Game* g, const HandState* h) noexcept nogil:
    """True when no discard from h (2n+2 tiles) leaves a hand with a wait.

    Only for the basic form alone: h - t + w = eye + pairs needs the key of h minus an eye
    within 2 of balanced, so within 4 before the eye is removed."""
    return not g.has_extra and imbalance(h.key) > 4


cdef inline int live_count(Game* g, const HandState* h, int mask) noexcept nogil:
    cdef int w, live = 0
    while mask:
        w = kt_ctz(mask)
        mask &= mask - 1
        live += g.copies[w] - h.c[w] - g.table[w]
    return live


cdef inline int feasible_mask(Game* g, const HandState* h) noexcept nogil:
    """Tiles with a copy outside the hand: not every copy held (HandState.at_least of each
    copy count the sets have)."""
    cdef int i, full = g.no_copy_ids
    for i in range(g.n_caps):
        full |= h.at_least[g.cap_k[i]] & g.cap_ids[i]
    return ALL_IDS & ~full


cdef inline void group_fs(const int* c, int grp, int* f, int* s) noexcept nogil:
    """Full ten pairs and leftover singles of one class group (0, 5, or j with 10-j)."""
    cdef int a, b
    if grp == 0 or grp == 5:
        f[0] = c[grp] // 2
        s[0] = c[grp] & 1
    else:
        a = c[grp]
        b = c[10 - grp]
        if a < b:
            f[0] = a
            s[0] = b - a
        else:
            f[0] = b
            s[0] = a - b


cdef struct OvCtx:
    # class counts of a hand and, per class, how many tile ids offer each eye option
    int cls[10]
    int cnt1[10]       # ids e of the class with c[e] >= 1 and copies[e] - c[e] >= 1
    int cnt2[10]       # ids e of the class with c[e] >= 2
    int cnt0           # ids e with copies[e] - c[e] >= 2 (eye wholly from outside)


cdef inline void ov_count(OvCtx* o, int c, int cp, int k, int sign) noexcept nogil:
    """Add (sign = 1) or remove (-1) the eye options of one tile id with c copies held."""
    if cp < 2:
        return
    if cp - c >= 2:
        o.cnt0 += sign
    if c >= 1 and cp - c >= 1:
        o.cnt1[k] += sign
    if c >= 2:
        o.cnt2[k] += sign


cdef void ov_init(Game* g, const HandState* h, OvCtx* o) noexcept nogil:
    cdef int e
    memset(o, 0, sizeof(OvCtx))
    for e in range(NT):
        o.cls[CLS[e]] += h.c[e]
        ov_count(o, h.c[e], g.copies[e], CLS[e], 1)


cdef int ov_eval(const OvCtx* o, int n, int target) noexcept nogil:
    """Largest basic-layout overlap over the eye options of ``o`` (stops at ``target``)."""
    cdef int fg[6]
    cdef int sg[6]
    cdef int cls[10]
    cdef int grp, k, u, F = 0, S = 0, f, s2, f1, s1, got, best = 0
    for k in range(10):
        cls[k] = o.cls[k]
    for grp in range(6):
        group_fs(cls, grp, &fg[grp], &sg[grp])
        F += fg[grp]
        S += sg[grp]
    for u in range(2, -1, -1):
        for k in range(10):
            if u == 2 and o.cnt2[k] == 0:
                continue
            if u == 1 and o.cnt1[k] == 0:
                continue
            if u == 0 and (k > 0 or o.cnt0 == 0):
                continue
            grp = k if k <= 5 else 10 - k
            cls[k] -= u
            group_fs(cls, grp, &f1, &s1)
            cls[k] += u
            f = F - fg[grp] + f1
            s2 = S - sg[grp] + s1
            if f > n:
                f = n
            got = u + 2 * f + (s2 if s2 < n - f else n - f)
            if got > best:
                best = got
                if best >= target:
                    return best
    return best


cdef inline int pair_value(int F, int S, int n) noexcept nogil:
    cdef int f = F if F < n else n
    return 2 * f + (S if S < n - f else n - f)


cdef inline int provides(int c, int cp, int u) noexcept nogil:
    """Whether a tile id with c copies held (cp in the sets) offers eye option u."""
    if cp < 2:
        return 0
    if u == 0:
        return cp - c >= 2
    if u == 1:
        return c >= 1 and cp - c >= 1
    return c >= 2


cdef int free_classes(const int* cls, int k, int u, int n) noexcept nogil:
    """Classes j such that removing one tile of class j from cls minus the eye (u tiles of
    class k) keeps the ten-pair part of the overlap.

    With F full ten pairs and S leftover singles the part is 2 min(F, n) + min(S, n - min(F, n)).
    Removing a tile of class j either drops one single (the class has more tiles than its
    partner class, or an odd count for the self-paired classes 0 and 5): the part is kept iff
    S - 1 >= n - min(F, n); or breaks a pair into a single (F - 1, S + 1): kept iff F > n."""
    cdef int c[10]
    cdef int fg, sg, j, grp, F = 0, S = 0, mask = 0, keep_single, keep_pair, breaks
    for j in range(10):
        c[j] = cls[j]
    c[k] -= u
    for grp in range(6):
        group_fs(c, grp, &fg, &sg)
        F += fg
        S += sg
    keep_single = S - 1 >= n - (F if F < n else n)
    keep_pair = F > n
    for j in range(10):
        if c[j] >= 1:
            if j == 0 or j == 5:
                breaks = (c[j] & 1) == 0
            else:
                breaks = c[j] <= c[10 - j]
            if (keep_pair if breaks else keep_single):
                mask |= 1 << j
    return mask


cdef void distances_after_discard(Game* g, const HandState* h, int todo, int* dist) noexcept nogil:
    """dist[t] for every t in ``todo``: the distance proxy of h minus one tile t.

    Removing a tile lowers the overlap by at most one, and h - t keeps the overlap ov of h
    exactly when some eye option (k, u) that is optimal for h is still offered in h - t and
    removing a tile of t's class leaves its ten-pair part unchanged.  So the optimal
    options of h are found once and each candidate costs a few bit tests."""
    cdef OvCtx o
    cdef int ov, k, u, grp, F = 0, S = 0, f1, s1, f, s2, got, nopt = 0, t, i, kt, ct, cpt, after, keep
    cdef int fg[6]
    cdef int sg[6]
    cdef int opt_k[30]
    cdef int opt_u[30]
    cdef int opt_free[30]
    cdef int opt_got[30]
    ov_init(g, h, &o)
    for grp in range(6):
        group_fs(o.cls, grp, &fg[grp], &sg[grp])
        F += fg[grp]
        S += sg[grp]
    for u in range(3):
        for k in range(10):
            if u == 2 and o.cnt2[k] == 0:
                continue
            if u == 1 and o.cnt1[k] == 0:
                continue
            if u == 0 and (k > 0 or o.cnt0 == 0):
                continue
            grp = k if k <= 5 else 10 - k
            o.cls[k] -= u
            group_fs(o.cls, grp, &f1, &s1)
            o.cls[k] += u
            f = F - fg[grp] + f1
            s2 = S - sg[grp] + s1
            opt_k[nopt] = k
            opt_u[nopt] = u
            opt_got[nopt] = u + pair_value(f, s2, g.n)
            nopt += 1
    # the overlap of h (ov_eval's value: the best option, 0 with none) and its optimal options
    ov = 0
    for i in range(nopt):
        if opt_got[i] > ov:
            ov = opt_got[i]
    got = 0
    for i in range(nopt):
        if opt_got[i] == ov:
            opt_k[got] = opt_k[i]
            opt_u[got] = opt_u[i]
            opt_free[got] = free_classes(o.cls, opt_k[i], opt_u[i], g.n)
            got += 1
    nopt = got
    while todo:
        t = kt_ctz(todo)
        todo &= todo - 1
        kt = CLS[t]
        ct = h.c[t]
        cpt = g.copies[t]
        keep = 0
        for i in range(nopt):
            if not (opt_free[i] >> kt) & 1:
                continue
            k = opt_k[i]
            u = opt_u[i]
            if u == 0:
                after = o.cnt0 - provides(ct, cpt, 0) + provides(ct - 1, cpt, 0)
            elif u == 1:
                after = o.cnt1[k] - (provides(ct, cpt, 1) - provides(ct - 1, cpt, 1) if kt == k else 0)
            else:
                after = o.cnt2[k] - (provides(ct, cpt, 2) - provides(ct - 1, cpt, 2) if kt == k else 0)
            if after > 0:
                keep = 1
                break
        dist[t] = h.size - 1 - (ov if keep else ov - 1)


cdef int distance_proxy(Game* g, const HandState* h) noexcept nogil:
    """See kaptai.kts.policies.distance_proxy."""
    cdef OvCtx o
    ov_init(g, h, &o)
    return h.size - ov_eval(&o, g.n, 1 << 20)


cdef inline int basic_after(const HandState* h, int t, int held, int pcls_all,
                            const int* npair) noexcept nogil:
    """Basic-form waits of h - t from h's held ids, its pair classes and their pair-id counts
    (see basic_waits: the key of h minus t's class, a few key comparisons)."""
    cdef int c, k, m = 0, held_t, pcls
    cdef int64_t key = h.key - CDELTA[CLS[t]]
    held_t = held if h.c[t] >= 2 else held & ~(1 << t)
    # the pairs of h - t: t's own pair goes when t held exactly two (and was its class's only pair)
    pcls = pcls_all if h.c[t] != 2 or npair[CLS[t]] > 1 else pcls_all & ~(1 << CLS[t])
    c = short_class(key)
    if c >= 0:
        m |= held_t & CLASS_MASK[(10 - c) % 10]
    while pcls:
        k = kt_ctz(pcls)
        pcls &= pcls - 1
        c = short_class(key - 2 * CDELTA[k])
        if c >= 0:
            m |= CLASS_MASK[c]
    return m


cdef void discard_waits(Game* g, HandState* h, int legal, int* live, int* mask,
                        int* bmask, int* feasible, int* hfeas) noexcept nogil:
    """For every legal t: the waits of h - t (all forms, and the basic ones alone), their
    live outs with t on the table, and whether a basic wait has a copy outside h - t;
    ``hfeas``: the tiles with a copy outside h (those outside h - t add t).

    The live copies of a wait w do not depend on t (t moves from hand to table), and the
    basic waits of h - t follow from the key of h minus t's class (basic_after), so nothing
    is recounted per candidate; the extra forms' waits come from the waits memo, or from
    the classes the per-cell word of h - t names."""
    cdef int t, e, m, b, held = 0, pair2 = 0, feas = 0, ids, near, todo, c
    cdef int pcls_all = 0
    cdef int npair[10]
    cdef uint64_t code
    cdef WaitSlot* slot
    memset(npair, 0, sizeof(npair))
    held = h.at_least[1]
    pair2 = h.at_least[2]
    feas = feasible_mask(g, h)
    hfeas[0] = feas
    if not g.has_extra and (not g.has_basic or imbalance(h.key) > 4):
        todo = legal
        while todo:
            t = kt_ctz(todo)
            todo &= todo - 1
            live[t] = 0
            mask[t] = 0
            bmask[t] = 0
            feasible[t] = 0
        return
    # classes of the held pairs, and how many pair ids each class has
    ids = pair2
    while ids:
        e = kt_ctz(ids)
        ids &= ids - 1
        pcls_all |= 1 << CLS[e]
        npair[CLS[e]] += 1
    todo = legal
    if not g.has_extra:
        while todo:
            t = kt_ctz(todo)
            todo &= todo - 1
            m = basic_after(h, t, held, pcls_all, npair)
            mask[t] = m
            bmask[t] = m
            live[t] = live_count(g, h, m)
            feasible[t] = (m & (feas | (1 << t))) != 0
        return
    e = key_index(h.key)
    near = (g.info[e] >> 10) & 0x3FF if e >= 0 else 0     # classes whose removal can leave h ready
    while todo:
        t = kt_ctz(todo)
        todo &= todo - 1
        if not (near >> CLS[t]) & 1:
            live[t] = 0                   # h - t cannot be ready in any form
            mask[t] = 0
            bmask[t] = 0
            feasible[t] = 0
            continue
        code = h.code - ((<uint64_t>1) << (3 * t))
        slot = NULL
        if g.wmemo != NULL:
            slot = &g.wmemo[(code * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - WMEMO_BITS)]
        if slot != NULL and slot.code == (code | CODE_USED):
            m = slot.mask
            b = slot.basic
        else:
            b = basic_after(h, t, held, pcls_all, npair) if g.has_basic else 0
            hs_remove(h, t, &g.r)
            c = key_index(h.key)
            m = extra_waits(g, h, g.info_x[c] & 0x3FF if c >= 0 else 0, b)
            hs_add(h, t, &g.r)
            if slot != NULL:
                slot.code = code | CODE_USED
                slot.mask = m
                slot.basic = b
        mask[t] = m
        bmask[t] = b
        live[t] = live_count(g, h, m)
        feasible[t] = (b & (feas | (1 << t))) != 0


cdef int64_t score_sum(Game* g, HandState* h, int mask) noexcept nogil:
    """Sum over the live waits w of h of live copies x (score of h + w, + 1): h + w wins, so
    its score is the evaluator's (or score_basic's) without a win test or a memo."""
    cdef int w, live, form, spec, sc
    cdef int64_t total = 0
    while mask:
        w = kt_ctz(mask)
        mask &= mask - 1
        live = g.copies[w] - h.c[w] - g.table[w]
        if live > 0:
            hs_add(h, w, &g.r)
            sc = hs_score(h, &g.r, &form, &spec) if g.has_extra else score_basic(g, h)
            total += <int64_t>live * (sc + 1)
            hs_remove(h, w, &g.r)
    return total




cdef inline int score_basic(const Game* g, const HandState* h) noexcept nogil:
    """The evaluator's hs_score of h under the basic form alone (-1: h is no win), inline
    (the same _eval.pxd pieces hs_score uses, without its form and special bookkeeping)."""
    cdef Patterns p
    cdef int ap
    hs_patterns(h, &p)
    return hs_basic_score(h, &p, g.r.base_sum, &ap)


cdef inline int win_score(Game* g, HandState* h) noexcept nogil:
    """hs_score of h if h wins under the ruleset, else -1 (under extra forms memoised on the
    hand's packed counts for the process (_Memos): the look-ahead's final hands recur across the
    decisions of a seat's turns)."""
    cdef int form, spec, sc
    cdef ScoreSlot* slot
    if not g.has_extra:
        return score_basic(g, h)
    if g.smemo == NULL:
        return hs_score(h, &g.r, &form, &spec) if hs_is_win(h, &g.r) else -1
    slot = &g.smemo[(h.code * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - SMEMO_BITS)]
    if slot.code == (h.code | CODE_USED):
        return slot.score
    sc = hs_score(h, &g.r, &form, &spec) if hs_is_win(h, &g.r) else -1
    slot.code = h.code | CODE_USED
    slot.score = sc
    return sc


cdef inline int64_t comb(int64_t u, int k) noexcept nogil:
    if u < k:
        return 0
    if k == 0:
        return 1
    if k == 1:
        return u
    if k == 2:
        return u * (u - 1) // 2
    return u * (u - 1) * (u - 2) // 6


cdef inline int own_draws(Game* g, int cap) noexcept nogil:
    """Own draws left to the seat to move (wall // players), at most ``cap``."""
    cdef int k = (g.n_tiles - g.pos) // g.P
    return k if k < cap else cap


cdef inline int horizon(Game* g) noexcept nogil:
    return own_draws(g, HORIZON)


cdef inline int64_t value_num(Game* g, HandState* h, int mask, int live, int k) noexcept nogil:
    """Numerator of the score policy's value (its denominator is ``live``)."""
    cdef int64_t unseen
    if live == 0 or k == 0:
        return 0
    unseen = g.total_copies - h.size - g.table_total
    return (comb(unseen, k) - comb(unseen - live, k)) * score_sum(g, h, mask)


cdef inline int frac_cmp(int64_t an, int64_t ad, int64_t bn, int64_t bd) noexcept nogil:
    """Sign of an/ad - bn/bd for positive denominators."""
    cdef int64_t x = an * bd, y = bn * ad
    return (x > y) - (x < y)


# ------------------------------------------------------------------ policies
cdef inline void put_down(Game* g, int s, int t) noexcept nogil:
    hs_remove(&g.h[s], t, &g.r)
    g.table[t] += 1
    g.table_total += 1
    if g.known[s][t] > 0:
        g.known[s][t] -= 1
    ev(g, s, EV_DISCARD, t, -1)


cdef inline int64_t value_of(Game* g, HandState* h, int t, int mask, int live, int k) noexcept nogil:
    """Value numerator of h - t (t put on the table)."""
    cdef int64_t v
    hs_remove(h, t, &g.r)
    g.table[t] += 1
    g.table_total += 1
    v = value_num(g, h, mask, live, k)
    g.table[t] -= 1
    g.table_total -= 1
    hs_add(h, t, &g.r)
    return v


cdef int smart_discard(Game* g, int s, int legal, int use_value) noexcept nogil:
    """Greedy / score discard (see smart_choice); keeps whether the hand left is ready, for
    the seat's readiness tally at the end of its turn (note_ready)."""
    cdef int mask[NT]
    cdef int hfeas, t = smart_choice(g, s, legal, use_value, mask, &hfeas)
    if g.code_ok:
        g.rdy_code[s] = (g.h[s].code - ((<uint64_t>1) << (3 * t))) | CODE_USED
        g.rdy[s] = (mask[t] & (hfeas | (1 << t))) != 0
    return t


cdef int smart_choice(Game* g, int s, int legal, int use_value, int* mask, int* hfeas) noexcept nogil:
    """Greedy / score discard: max (value, live, -distance, expected score, -tile); fills
    ``mask`` (the waits of h - t, every legal t) and ``hfeas`` as discard_waits does.

    Every pass walks the set bits of the candidates in ascending order (the first of equal
    candidates is the lowest id) and narrows the tied set key by key."""
    cdef HandState* h = &g.h[s]
    cdef int t, m, d, best_t = -1, k = horizon(g), cmp, any_live = 0
    cdef int live[NT]
    cdef int bmask[NT]
    cdef int feas[NT]
    cdef int dist[NT]
    cdef int64_t vnum[NT]
    cdef int64_t ss
    cdef int tied = 0, keep, best_live = -1, best_dist = 1 << 20, todo = 0
    cdef int64_t bn = 0, bd = 1
    discard_waits(g, h, legal, live, mask, bmask, feas, hfeas)
    m = legal
    while m:
        t = kt_ctz(m)
        m &= m - 1
        vnum[t] = 0
        dist[t] = -1
        if live[t] > 0:
            any_live = 1
            if use_value and k > 0:
                vnum[t] = value_of(g, h, t, mask[t], live[t], k)
            if feas[t]:
                dist[t] = 0
    # the tied set, narrowed key by key
    tied = legal
    if use_value and any_live:
        bn = -1
        keep = 0
        m = tied
        while m:
            t = kt_ctz(m)
            m &= m - 1
            d = live[t] if live[t] > 0 else 1
            cmp = 1 if bn < 0 else frac_cmp(vnum[t], d, bn, bd)
            if cmp > 0:
                bn = vnum[t]
                bd = d
                keep = 1 << t
            elif cmp == 0:
                keep |= 1 << t
        tied = keep
    keep = 0
    m = tied
    while m:
        t = kt_ctz(m)
        m &= m - 1
        if live[t] > best_live:
            best_live = live[t]
            keep = 1 << t
        elif live[t] == best_live:
            keep |= 1 << t
    tied = keep
    if kt_popcount(tied) == 1:
        return kt_ctz(tied)
    # distance from ready of every tied candidate
    m = tied
    while m:
        t = kt_ctz(m)
        m &= m - 1
        if dist[t] < 0:
            todo |= 1 << t
    if todo:
        distances_after_discard(g, h, todo, dist)
    keep = 0
    m = tied
    while m:
        t = kt_ctz(m)
        m &= m - 1
        if dist[t] < best_dist:
            best_dist = dist[t]
            keep = 1 << t
        elif dist[t] == best_dist:
            keep |= 1 << t
    tied = keep
    if kt_popcount(tied) == 1 or best_live == 0:
        return kt_ctz(tied)           # one left, or no live hand: expected scores all 0
    # expected score (live-weighted), only among live hands
    bn = -1
    bd = 1
    m = tied
    while m:
        t = kt_ctz(m)
        m &= m - 1
        if live[t] > 0:
            hs_remove(h, t, &g.r)
            g.table[t] += 1
            g.table_total += 1
            ss = score_sum(g, h, mask[t])
            g.table[t] -= 1
            g.table_total -= 1
            hs_add(h, t, &g.r)
        else:
            ss = 0
        d = live[t] if live[t] > 0 else 1
        if best_t < 0 or frac_cmp(ss, d, bn, bd) > 0:
            best_t = t
            bn = ss
            bd = d
    return best_t


cdef void hand_metric(Game* g, HandState* h, int use_value, int k, int64_t* vn, int64_t* vd,
                      int* live) noexcept nogil:
    """(value, live outs) of a hand of 2n+1 tiles against the current table."""
    cdef int bm, mask = waits_mask(g, h, &bm)
    live[0] = live_count(g, h, mask)
    vd[0] = live[0] if live[0] > 0 else 1
    vn[0] = value_num(g, h, mask, live[0], k) if use_value else 0


cdef inline int metric_cmp(int64_t an, int64_t ad, int al, int64_t bn, int64_t bd, int bl) noexcept nogil:
    cdef int c = frac_cmp(an, ad, bn, bd)
    if c != 0:
        return c
    return (al > bl) - (al < bl)


cdef inline int winning_claim(Game* g, HandState* h, const int* cands, int nc) noexcept nogil:
    """The candidate that wins with the highest score (the first on ties), or -1."""
    cdef int i, c, sc, form, spec, best_win = -1, best_score = -1
    for i in range(nc):
        c = cands[i]
        hs_add(h, c, &g.r)
        if hs_is_win(h, &g.r):
            sc = hs_score(h, &g.r, &form, &spec)
            if sc > best_score:
                best_score = sc
                best_win = c
        hs_remove(h, c, &g.r)
    return best_win


cdef int smart_claim(Game* g, int s, const int* cands, int nc, int use_value) noexcept nogil:
    """Greedy / score claim: the best winning candidate, else one that raises the metric."""
    cdef HandState* h = &g.h[s]
    cdef int i, c, t, m, best_win, pre = 0
    cdef int k = horizon(g), choice = -1, best_live = 0, after_live, have, measured = 0
    cdef int64_t vn, vd, best_n = 0, best_d = 1, after_n, after_d
    cdef int live[NT]
    cdef int mask[NT]
    cdef int bmask[NT]
    cdef int feas[NT]
    cdef int hfeas
    best_win = winning_claim(g, h, cands, nc)
    if best_win >= 0:
        return best_win
    pre = held(h)
    for i in range(nc):
        c = cands[i]
        hs_add(h, c, &g.r)
        if no_waits_possible(g, h) or not key_has(g.keys, h.key, KEY_NEAR):
            hs_remove(h, c, &g.r)        # every hand after the claim scores (0, 0)
            continue
        if not measured:
            hs_remove(h, c, &g.r)
            hand_metric(g, h, use_value, k, &best_n, &best_d, &best_live)
            measured = 1
            hs_add(h, c, &g.r)
        g.table[c] -= 1
        g.table_total -= 1
        discard_waits(g, h, pre, live, mask, bmask, feas, &hfeas)
        have = 0
        after_n = 0
        after_d = 1
        after_live = 0
        m = pre
        while m:
            t = kt_ctz(m)
            m &= m - 1
            vn = 0
            if use_value and live[t] > 0 and k > 0:
                vn = value_of(g, h, t, mask[t], live[t], k)
            vd = live[t] if live[t] > 0 else 1
            if not have or metric_cmp(vn, vd, live[t], after_n, after_d, after_live) > 0:
                have = 1
                after_n = vn
                after_d = vd
                after_live = live[t]
        g.table[c] += 1
        g.table_total += 1
        hs_remove(h, c, &g.r)
        if metric_cmp(after_n, after_d, after_live, best_n, best_d, best_live) > 0:
            best_n = after_n
            best_d = after_d
            best_live = after_live
            choice = c
    return choice


# ------------------------------------------------------------------ the lookahead policy
# docs/kap-tai-shap-engine.md, "`lookahead`": exact values (P(win), E[score]) of the next
# one or two own looks drawn uniformly from the pool the seat cannot see, as integer
# numerators over the pool's falling factorial, compared lexicographically.
cdef inline int look_horizon(Game* g) noexcept nogil:
    return own_draws(g, LOOK_HORIZON)


cdef inline int val_cmp(int64_t ap, int64_t as_, int64_t bp, int64_t bs, int obj) noexcept nogil:
    """Sign of the lexicographic comparison of two look-ahead values (p, s): P(win) first
    (``obj`` 0, ``lookahead``), or the expected score first (``obj`` 1, ``lookahead_score``)."""
    if obj:
        if as_ != bs:
            return 1 if as_ > bs else -1
        return (ap > bp) - (ap < bp)
    if ap != bp:
        return 1 if ap > bp else -1
    return (as_ > bs) - (as_ < bs)


cdef inline int tri(int a, int b) noexcept nogil:
    """Index 0..230 of the unordered pair {a, b} of tile ids."""
    return b * (b + 1) // 2 + a if a <= b else a * (a + 1) // 2 + b


cdef inline LookSlot* wait_slot(Game* g, HandState* h, int wc) noexcept nogil:
    """The process memo's entry of h (2n+1 tiles; needs g.vmemo): its waits (the ids w of the
    classes ``wc`` with a copy outside h and h + w a win) and the score of each."""
    cdef LookSlot* slot = &g.vmemo[(h.code * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - VMEMO_BITS)]
    cdef int m, c, ids, w, sc
    if slot.code != (h.code | CODE_USED):
        m = 0
        while wc:
            c = kt_ctz(wc)
            wc &= wc - 1
            ids = CLASS_MASK[c]
            while ids:
                w = kt_ctz(ids)
                ids &= ids - 1
                if h.c[w] >= g.copies[w]:
                    continue          # no copy to draw (and h + w is no hand of the sets)
                hs_add(h, w, &g.r)
                sc = win_score(g, h)
                hs_remove(h, w, &g.r)
                if sc >= 0:
                    m |= 1 << w
                    slot.score[w] = <int8_t>sc
        slot.code = h.code | CODE_USED
        slot.mask = m
    return slot


cdef inline void v1_value(Game* g, HandState* h, const int* Q, int fin, int t,
                          int64_t* p, int64_t* s) noexcept nogil:
    """V_1 of h (2n+1 tiles) with one look from Q: (sum Q[w], sum Q[w] (score + 1)) over wins.

    The key table rejects at once a hand that cannot be ready and every class whose key
    is not a winning key; what passes is decided by the evaluator.  ``fin`` >= 0: h is
    G - {x, y} + t for the decision's hand G and ``fin`` = 231 * tri(x, y).  The waits of h
    and their scores come from the process memo on h's packed counts (g.vmemo); without it
    (packed counts not exact) the final hands G - {x, y} + {t, w} are memoised on (fin,
    tri(t, w)) for the whole decision."""
    cdef int w, c, ids, sc, idx, wc = 0, m
    cdef int64_t pp = 0, ss = 0
    cdef LookSlot* slot
    idx = key_index(h.key)
    if idx >= 0:
        wc = g.info[idx] & 0x3FF
    if wc and g.vmemo != NULL:
        # the waits of h and their scores do not depend on the pool: memoised on h's counts
        # for the process (h recurs across the options, decisions and turns of a seat)
        slot = wait_slot(g, h, wc)
        m = slot.mask
        while m:
            w = kt_ctz(m)
            m &= m - 1
            if Q[w]:
                pp += Q[w]
                ss += <int64_t>Q[w] * (slot.score[w] + 1)
        p[0] = pp
        s[0] = ss
        return
    # no memo (packed counts not exact): the final hands of this decision, memoised on fin
    while wc:
        c = kt_ctz(wc)
        wc &= wc - 1
        ids = CLASS_MASK[c]
        while ids:
            w = kt_ctz(ids)
            ids &= ids - 1
            if Q[w] == 0:
                continue
            if fin >= 0:
                idx = fin + tri(t, w)
                if g.fin_tag[idx] == g.memo_gen:
                    sc = g.fin_score[idx]
                else:
                    hs_add(h, w, &g.r)
                    sc = win_score(g, h)
                    hs_remove(h, w, &g.r)
                    g.fin_tag[idx] = g.memo_gen
                    g.fin_score[idx] = sc
            else:
                hs_add(h, w, &g.r)
                sc = win_score(g, h)
                hs_remove(h, w, &g.r)
            if sc >= 0:
                pp += Q[w]
                ss += <int64_t>Q[w] * (sc + 1)
    p[0] = pp
    s[0] = ss


cdef void v2_value(Game* g, HandState* h, int* Q, int q, int tag, int64_t* p, int64_t* s) noexcept nogil:
    """V_2 of h (2n+1 tiles) drawing from Q (q tiles).

    ``tag`` >= 0: h is the decision's hand G minus ``tag``; the hands G - tag + t - y met
    here are memoised on ({tag, y}, t) for the other options of the same decision (the
    pool of every option is the same).  A hand whose key no draw and discard can make
    ready (KEY_REACH2), a draw after which no discard leaves a ready key (KEY_NEAR) and a
    class of discards that leaves no ready key are skipped: each is worth (0, 0)."""
    cdef int t, y, c, ids, sc, form, spec, idx, held = 0, heldt, rc
    cdef uint32_t info
    cdef int64_t pp = 0, ss = 0, bp, bs, vp, vs, kt
    p[0] = 0
    s[0] = 0
    idx = key_index(h.key)
    if idx < 0 or not (g.info[idx] >> 20) & KEY_REACH2:
        return
    held = h.at_least[1]
    for t in range(NT):
        if Q[t] == 0:
            continue
        kt = h.key + CDELTA[CLS[t]]
        idx = key_index(kt)
        info = g.info[idx] if idx >= 0 else 0
        if (info >> 20) & KEY_WIN:
            hs_add(h, t, &g.r)
            sc = win_score(g, h)
            hs_remove(h, t, &g.r)
            if sc >= 0:
                pp += <int64_t>Q[t] * (q - 1)
                ss += <int64_t>Q[t] * (q - 1) * (sc + 1)
                continue
        rc = (info >> 10) & 0x3FF
        heldt = held | (1 << t)
        for c in range(10):
            if (rc >> c) & 1 and not heldt & CLASS_MASK[c]:
                rc &= ~(1 << c)
        if not rc:
            continue                              # no discard leaves h + t ready: (0, 0)
        hs_add(h, t, &g.r)
        Q[t] -= 1
        bp = 0
        bs = 0
        while rc:
            c = kt_ctz(rc)
            rc &= rc - 1
            ids = heldt & CLASS_MASK[c]
            while ids:
                y = kt_ctz(ids)
                ids &= ids - 1
                if tag >= 0:
                    idx = (tri(tag, y)) * NT + t
                    if g.memo_tag[idx] == g.memo_gen:
                        vp = g.memo_p[idx]
                        vs = g.memo_s[idx]
                    else:
                        hs_remove(h, y, &g.r)
                        v1_value(g, h, Q, 231 * tri(tag, y), t, &vp, &vs)
                        hs_add(h, y, &g.r)
                        g.memo_tag[idx] = g.memo_gen
                        g.memo_p[idx] = vp
                        g.memo_s[idx] = vs
                else:
                    hs_remove(h, y, &g.r)
                    v1_value(g, h, Q, -1, t, &vp, &vs)
                    hs_add(h, y, &g.r)
                if val_cmp(vp, vs, bp, bs, g.look_obj) > 0:
                    bp = vp
                    bs = vs
        Q[t] += 1
        hs_remove(h, t, &g.r)
        pp += Q[t] * bp
        ss += Q[t] * bs
    p[0] = pp
    s[0] = ss


cdef inline void look_value(Game* g, HandState* h, int* Q, int q, int j, int tag,
                            int64_t* p, int64_t* s) noexcept nogil:
    if j <= 0:
        p[0] = 0
        s[0] = 0
    elif j == 1:
        v1_value(g, h, Q, -1, -1, p, s)
    else:
        v2_value(g, h, Q, q, tag, p, s)


# ---- V_2 by the two-tile completions of the 2n-tile hands G - {x, y} (exact packed counts)
cdef int comp_list(Game* g, HandState* k, uint32_t av1, uint32_t av2, uint16_t* lab,
                   int8_t* lsc) noexcept nogil:
    """Every unordered pair {a <= b} of ids in ``av1`` (and a in ``av2`` when a = b) with
    k + a + b a win (k: 2n tiles), written to lab (a | b << 5) / lsc (its score; both of
    PAIR_CELLS entries); the count is returned.

    Only a with k + a of a key one class from a winning key, and b of such a class, are
    tested (necessary conditions: every win passes them).  Identical roles (PARTNER): when
    k holds as many of q as of its partner p < q and the two have the same av1 / av2 bits,
    swapping them maps k and the pairs allowed to themselves, so the pairs {q, b >= q} are
    those of {p, ...}: {q, q} with {p, p}, {q, b} with {p, b}; and for one a, when k + a
    holds as many of b as of its partner p (a <= p < b, p tested), {a, b} wins with the
    score of {a, p}."""
    cdef int a, b, wc, c, ids, n = 0, idx, v, p, i, bb
    cdef uint32_t done
    cdef int first[NT]
    cdef int last[NT]
    cdef int res[NT]
    for a in range(NT):
        first[a] = n
        last[a] = n
        if not (av1 >> a) & 1:
            continue
        p = PARTNER[a]
        if (p >= 0 and k.c[p] == k.c[a] and ((av1 >> p) & 1) == ((av1 >> a) & 1)
                and ((av2 >> p) & 1) == ((av2 >> a) & 1)):
            for i in range(first[p], last[p]):
                bb = lab[i] >> 5
                if bb == p:
                    lab[n] = <uint16_t>(a | (a << 5))
                    lsc[n] = lsc[i]
                    n += 1
                elif bb > a:
                    lab[n] = <uint16_t>(a | (bb << 5))
                    lsc[n] = lsc[i]
                    n += 1
            last[a] = n
            continue
        idx = key_index(k.key + CDELTA[CLS[a]])
        if idx < 0:
            continue
        wc = g.info[idx] & 0x3FF
        if not wc:
            continue
        ids = 0
        while wc:
            c = kt_ctz(wc)
            wc &= wc - 1
            ids |= CLASS_MASK[c]
        ids &= av1 & ~((1 << a) - 1)            # b >= a
        if not (av2 >> a) & 1:
            ids &= ~(1 << a)
        if not ids:
            continue
        hs_add(k, a, &g.r)
        done = 0
        while ids:
            b = kt_ctz(ids)
            ids &= ids - 1
            p = PARTNER[b]
            if p >= a and (done >> p) & 1 and k.c[p] == k.c[b]:
                v = res[p]
            else:
                hs_add(k, b, &g.r)
                v = win_score(g, k)
                hs_remove(k, b, &g.r)
            res[b] = v
            done |= 1u << b
            if v >= 0:
                lab[n] = <uint16_t>(a | (b << 5))
                lsc[n] = <int8_t>v
                n += 1
        hs_remove(k, a, &g.r)
        last[a] = n
    return n


cdef void pair_acc(Game* g, HandState* h, int y, const int* U, int pi) noexcept nogil:
    """Fill acc_p / acc_s[pi][t] with the V_1 numerators of (h - y) + t drawing from U - t,
    for every t with U[t] > 0 (h = G - x: 2n+1 tiles; K = h - y; pi = tri(x, y)).

    A completion {a, b} of K counts for t = a with weight (U - a)[b] and, when a != b, for
    t = b with weight U[a], so only pairs of tiles in the pool count.  K's completions are
    found over every pair the sets leave outside K (not the pool alone: pairs outside the
    pool weigh 0), so they depend on K's counts alone and are memoised on them for the
    process (_Memos): they serve every later pool, seat and run of the ruleset."""
    cdef uint16_t lab[PAIR_CELLS]
    cdef int8_t lsc[PAIR_CELLS]
    cdef uint16_t* ab
    cdef int8_t* sc
    cdef int64_t* ap = g.acc_p[pi]
    cdef int64_t* as_ = g.acc_s[pi]
    cdef int i, n, a, b
    cdef uint32_t av1 = 0, av2 = 0
    cdef int64_t w2, pb
    cdef CompSlot* slot
    memset(ap, 0, NT * sizeof(int64_t))
    memset(as_, 0, NT * sizeof(int64_t))
    hs_remove(h, y, &g.r)
    slot = &g.cmemo[(h.code * <uint64_t>0x9E3779B97F4A7C15ULL) >> (64 - CMEMO_BITS)]
    if slot.code == (h.code | CODE_USED) and slot.count >= 0:
        n = slot.count
        ab = slot.ab
        sc = slot.sc
    else:
        for a in range(NT):               # every id with one / two copies outside K
            if g.copies[a] - h.c[a] >= 1:
                av1 |= 1u << a
                if g.copies[a] - h.c[a] >= 2:
                    av2 |= 1u << a
        n = comp_list(g, h, av1, av2, lab, lsc)
        ab = lab
        sc = lsc
        slot.code = h.code | CODE_USED
        if n > COMP_CAP:
            slot.count = -1
        else:
            slot.count = n
            memcpy(slot.ab, lab, n * sizeof(uint16_t))
            memcpy(slot.sc, lsc, n * sizeof(int8_t))
    hs_add(h, y, &g.r)
    for i in range(n):
        a = ab[i] & 31
        b = ab[i] >> 5
        w2 = sc[i] + 1
        pb = U[b] - (1 if a == b else 0)
        if U[a] and pb > 0:
            ap[a] += pb
            as_[a] += pb * w2
        if a != b and U[a] and U[b]:
            ap[b] += U[a]
            as_[b] += U[a] * w2
    g.pair_tag[pi] = g.memo_gen


cdef void v2_fast(Game* g, HandState* h, int x, const int* U, int q, int64_t* p, int64_t* s) noexcept nogil:
    """V_2 of h = G - x (2n+1 tiles) drawing from U (q tiles), the same numbers as v2_value.

    Drawing t and throwing y != t leaves K + t with K = G - {x, y}: its V_1 from U - t is
    read from K's completions (pair_acc, once per pair {x, y} and decision: every option of
    a decision has the same pool); throwing t back is keeping h, worth h's waits.  A class
    of discards that leaves no ready key is skipped (worth (0, 0)), as in v2_value."""
    cdef int t, y, c, ids, idx, wc, mask = 0, rc, held, pi
    cdef uint32_t info
    cdef int64_t pp = 0, ss = 0, bp, bs, kp = 0, ks = 0, vp, vs
    cdef int64_t cp_[NT]
    cdef int64_t cs_[NT]
    cdef LookSlot* slot = NULL
    cdef int m
    p[0] = 0
    s[0] = 0
    idx = key_index(h.key)
    if idx < 0 or not (g.info[idx] >> 20) & KEY_REACH2:
        return
    wc = g.info[idx] & 0x3FF
    if wc:
        slot = wait_slot(g, h, wc)
        mask = slot.mask
        m = mask
        while m:
            t = kt_ctz(m)
            m &= m - 1
            kp += U[t]
            ks += <int64_t>U[t] * (slot.score[t] + 1)
    held = h.at_least[1]
    for t in range(NT):
        if U[t] == 0:
            continue
        if (mask >> t) & 1:
            cp_[t] = q - 1
            cs_[t] = <int64_t>(q - 1) * (slot.score[t] + 1)
            pp += U[t] * cp_[t]
            ss += U[t] * cs_[t]
            continue
        c = PARTNER[t]
        if c >= 0 and U[c] == U[t] and h.c[c] == h.c[t]:
            # identical roles: swapping t and its partner maps h and U to themselves
            pp += U[t] * cp_[c]
            ss += U[t] * cs_[c]
            cp_[t] = cp_[c]
            cs_[t] = cs_[c]
            continue
        idx = key_index(h.key + CDELTA[CLS[t]])
        info = g.info[idx] if idx >= 0 else 0
        rc = (info >> 10) & 0x3FF
        ids = 0
        while rc:
            c = kt_ctz(rc)
            rc &= rc - 1
            ids |= CLASS_MASK[c]
        ids &= held & ~(1 << t)
        bp = kp
        bs = ks
        while ids:
            y = kt_ctz(ids)
            ids &= ids - 1
            pi = tri(x, y)
            if g.pair_tag[pi] != g.memo_gen:
                pair_acc(g, h, y, U, pi)
            vp = g.acc_p[pi][t]
            vs = g.acc_s[pi][t]
            if val_cmp(vp, vs, bp, bs, g.look_obj) > 0:
                bp = vp
                bs = vs
        cp_[t] = bp
        cs_[t] = bs
        pp += U[t] * bp
        ss += U[t] * bs
    p[0] = pp
    s[0] = ss


cdef inline int look_pool(Game* g, const HandState* h, int* U) noexcept nogil:
    cdef int t, q = 0
    for t in range(NT):
        U[t] = g.copies[t] - h.c[t] - g.table[t]
        q += U[t]
    return q


cdef inline void memo_reset(Game* g) noexcept nogil:
    g.memo_gen += 1
    if g.memo_gen == 0:                   # wrapped: clear the stamps once
        memset(g.memo_tag, 0, sizeof(g.memo_tag))
        memset(g.fin_tag, 0, sizeof(g.fin_tag))
        memset(g.pair_tag, 0, sizeof(g.pair_tag))
        g.memo_gen = 1


cdef int look_discard(Game* g, int s, int legal) noexcept nogil:
    """The legal id of the largest value; ties by greedy's discard over the tied set."""
    cdef HandState* h = &g.h[s]
    cdef int k = look_horizon(g), x, q, tied = 0, have = 0, c
    cdef int U[NT]
    cdef int64_t p, sv, bp = 0, bs = 0
    cdef int64_t vp_[NT]
    cdef int64_t vs_[NT]
    if k == 0:
        return smart_discard(g, s, legal, 0)
    q = look_pool(g, h, U)
    memo_reset(g)
    for x in range(NT):
        if not (legal >> x) & 1:
            continue
        c = PARTNER[x]
        if c >= 0 and (legal >> c) & 1 and h.c[c] == h.c[x] and U[c] == U[x]:
            p = vp_[c]            # identical roles: G - x is G - c with the two ids swapped
            sv = vs_[c]
        else:
            hs_remove(h, x, &g.r)
            if k == 2 and g.cmemo != NULL:
                v2_fast(g, h, x, U, q, &p, &sv)
            else:
                look_value(g, h, U, q, k, x, &p, &sv)
            hs_add(h, x, &g.r)
        vp_[x] = p
        vs_[x] = sv
        c = 1 if not have else val_cmp(p, sv, bp, bs, g.look_obj)
        if c > 0:
            have = 1
            bp = p
            bs = sv
            tied = 1 << x
        elif c == 0:
            tied |= 1 << x
    if kt_popcount(tied) == 1:
        return kt_ctz(tied)
    return smart_discard(g, s, tied, 0)


cdef int look_claim(Game* g, int s, const int* cands, int nc) noexcept nogil:
    """A winning candidate as greedy; else the best claim value if it beats declining."""
    cdef HandState* h = &g.h[s]
    cdef int i, c, y, z, best_win, pre = 0, fast
    cdef int64_t vp_[NT]
    cdef int64_t vs_[NT]
    cdef int k = look_horizon(g), j, q, choice = -1, have = 0
    cdef int U[NT]
    cdef int64_t dp, ds, p, sv, cp = 0, cs = 0, bp = 0, bs = 0
    best_win = winning_claim(g, h, cands, nc)
    if best_win >= 0:
        return best_win
    if k == 0:
        return smart_claim(g, s, cands, nc, 0)
    q = look_pool(g, h, U)
    fast = k == 2 and g.cmemo != NULL
    if fast:
        # V_2(H) = V_2(G - c) for G = H + c (c the first candidate): its pairs {c, y} are
        # shared with the first candidate's options
        memo_reset(g)
        v2_fast(g, h, cands[0], U, q, &dp, &ds)
    else:
        look_value(g, h, U, q, k, -1, &dp, &ds)
    j = k if g.claim_then_draw else k - 1
    pre = held(h)
    for i in range(nc):
        c = cands[i]
        hs_add(h, c, &g.r)
        if not fast or i > 0:
            memo_reset(g)
        cp = -1
        cs = -1
        for y in range(NT):
            if not (pre >> y) & 1:
                continue
            z = PARTNER[y]
            if z >= 0 and (pre >> z) & 1 and h.c[z] == h.c[y] and U[z] == U[y]:
                p = vp_[z]        # identical roles, as in look_discard
                sv = vs_[z]
            else:
                hs_remove(h, y, &g.r)
                if fast and j == 2:
                    v2_fast(g, h, y, U, q, &p, &sv)
                else:
                    look_value(g, h, U, q, j, y, &p, &sv)
                hs_add(h, y, &g.r)
            vp_[y] = p
            vs_[y] = sv
            if val_cmp(p, sv, cp, cs, g.look_obj) > 0:
                cp = p
                cs = sv
        hs_remove(h, c, &g.r)
        if j < k:                         # one look fewer: onto the decline value's denominator
            cp *= q - j
            cs *= q - j
        if not have or val_cmp(cp, cs, bp, bs, g.look_obj) > 0:
            have = 1
            bp = cp
            bs = cs
            choice = c
    if val_cmp(bp, bs, dp, ds, g.look_obj) > 0:
        return choice
    if dp == 0 and ds == 0:
        return smart_claim(g, s, cands, nc, 0)
    return -1


# ------------------------------------------------------------------ the search policy
# docs/kap-tai-shap-engine.md, "`search` (code 6)": the reference option is the look-ahead's
# (lookahead under pot, lookahead_score under advanced); every option is rolled out on each
# of S layouts of the tiles the seat has not seen (drawn from the engine's stream), with the
# rollout policy R at every seat, on g.sub; another option replaces the reference only when
# its paired mean beats it by more than z standard errors.
cdef int64_t SEARCH_STATS[3]      # search decisions, layouts and rollouts of the process
SEARCH_STATS[0] = 0
SEARCH_STATS[1] = 0
SEARCH_STATS[2] = 0


def search_stats():
    """Totals over the process's ``run_hands`` calls of the ``search`` policy (code 6):
    ``decisions`` (decisions with two or more options), ``layouts`` and ``rollouts``.

    Examples
    --------
    >>> from kaptai.kts._engine import search_stats
    >>> sorted(search_stats())
    ['decisions', 'layouts', 'rollouts']
    """
    return {"decisions": int(SEARCH_STATS[0]), "layouts": int(SEARCH_STATS[1]),
            "rollouts": int(SEARCH_STATS[2])}


cdef void make_layout(Game* g, int p, Snap* L) noexcept nogil:
    """One layout of what seat p has not seen, into L (draws m - 1 bounded integers).

    The pool (copies less p's hand, the table, the others' known tiles and the committed
    claims), ids ascending, is shuffled by Fisher-Yates; the seats after p take their unknown
    tiles from it in turn, the rest becomes the wall from pos on.  The rest of the state is
    the real one."""
    cdef int P = g.P, t, i, j, k, x, need, tmp, m = 0, want = g.n_tiles - g.pos
    cdef int U[NT]
    cdef int items[MAXWALL]
    for t in range(NT):
        U[t] = g.copies[t] - g.h[p].c[t] - g.table[t]
    for x in range(P):
        if x != p:
            for t in range(NT):
                U[t] -= g.known[x][t]
            want += g.h[x].size
            for t in range(NT):
                want -= g.known[x][t]
        if g.committed[x] >= 0:
            U[g.committed[x]] -= 1
    for t in range(NT):
        if U[t] < 0:
            g.error = ERR_LAYOUT
            return
        for i in range(U[t]):
            items[m] = t
            m += 1
    if m != want:
        g.error = ERR_LAYOUT
        return
    for i in range(m - 1, 0, -1):
        j = bounded(g.rng, i + 1)
        tmp = items[i]
        items[i] = items[j]
        items[j] = tmp
    memcpy(L.table, g.table, sizeof(L.table))
    L.table_total = g.table_total
    L.pos = g.pos
    L.turn = g.turn
    L.last = g.last
    L.pre = g.pre
    memcpy(L.own_turns, g.own_turns, P * sizeof(int))
    memcpy(L.committed, g.committed, P * sizeof(int))
    memcpy(L.known, g.known, P * NT * sizeof(int))
    memcpy(&L.h[p], &g.h[p], sizeof(HandState))
    k = 0
    for j in range(1, P):
        x = (p + j) % P
        hs_clear(&L.h[x])
        need = g.h[x].size
        for t in range(NT):
            need -= g.known[x][t]
            for i in range(g.known[x][t]):
                hs_add(&L.h[x], t, &g.r)
        for i in range(need):
            hs_add(&L.h[x], items[k], &g.r)
            k += 1
    for i in range(g.pos, g.n_tiles):
        L.wall[i] = items[k]
        k += 1


cdef double search_rollout(Game* g, int p, int ctx, int d, int opt) noexcept nogil:
    """Seat p's net result of option ``opt`` (a decision of kind ``ctx``; ``d`` the discarder
    in the early window) played to the end on a copy of the layout g.snap, R at every seat."""
    cdef Game* b = g.sub
    cdef Snap* L = g.snap
    cdef int P = g.P, w, sc, i
    for i in range(P):
        b.policy[i] = g.roll_pol
    b.policy[p] = g.roll_own
    memcpy(b.h, L.h, P * sizeof(HandState))
    memcpy(b.table, L.table, sizeof(b.table))
    b.table_total = L.table_total
    b.pos = L.pos
    b.turn = L.turn
    b.last = L.last
    b.pre = L.pre
    memcpy(b.own_turns, L.own_turns, P * sizeof(int))
    memcpy(b.committed, L.committed, P * sizeof(int))
    memcpy(b.known, L.known, P * NT * sizeof(int))
    memcpy(&b.wall[L.pos], &L.wall[L.pos], (g.n_tiles - L.pos) * sizeof(int))
    b.first = g.first
    b.error = 0
    b.res_winner = -1
    b.res_score = -1
    if ctx == CTX_DISCARD:               # the discard after a draw, or at turn 1
        put_down(b, p, opt)
        b.last = opt
        run_from(b, p, PH_END_TURN)
    elif ctx == CTX_EXCHANGE:
        put_down(b, p, opt)
        b.last = opt
        run_from(b, p, PH_AFTER_EXCHANGE)
    elif ctx == CTX_CLAIM:
        if opt < 0:
            run_from(b, p, PH_DRAW)
        elif not take_claim(b, p, opt):
            exchange(b, p, opt)
            run_from(b, p, PH_AFTER_EXCHANGE)
    else:                                # the early window on d's first discard
        if opt < 0:
            run_from(b, d, PH_DRAW)
        elif not take_claim(b, p, opt):
            b.committed[p] = opt
            run_from(b, d, PH_DRAW)
    w = b.res_winner
    sc = b.res_score
    if w == p:
        if g.settle == SETTLE_POT:
            return P * (1.0 - g.cut) - 1.0
        return <double>((P - 1) * sc) * (1.0 - g.cut)
    if w >= 0:
        if g.settle == SETTLE_POT:
            return -1.0
        return -<double>sc
    return 0.0


cdef int search_choose(Game* g, int p, const int* opts, int m, int ref) noexcept nogil:
    """Index of the option chosen among opts[0..m) (ref: the reference option's index)."""
    cdef int S = g.search_S, i, j, best = -1, ctx = g.ctx, d = g.ctx_d
    cdef double v[NT + 1]
    cdef double D[NT + 1]
    cdef double Q[NT + 1]
    cdef double M[NT + 1]
    cdef double dd, lhs, rhs, z = g.search_z
    for i in range(m):
        D[i] = 0.0
        Q[i] = 0.0
        M[i] = 0.0
    g.search_decisions += 1
    for j in range(S):
        make_layout(g, p, g.snap)
        if g.error:
            return ref
        g.search_layouts += 1
        for i in range(m):
            v[i] = search_rollout(g, p, ctx, d, opts[i])
        g.search_rollouts += m
        for i in range(m):
            dd = v[i] - v[ref]
            D[i] += dd
            Q[i] += dd * dd
            M[i] += v[i]
    for i in range(m):
        if i == ref or not D[i] > 0.0:
            continue
        lhs = D[i] * D[i] * <double>(S - 1)
        rhs = z * z * (<double>S * Q[i] - D[i] * D[i])
        if lhs > rhs and (best < 0 or M[i] > M[best]):
            best = i
    return ref if best < 0 else best


cdef int search_discard(Game* g, int s, int legal) noexcept nogil:
    """The search's discard from the legal ids (one legal id: thrown at once)."""
    cdef int opts[NT]
    cdef int m = 0, t, i, r, ref = 0
    for t in range(NT):
        if (legal >> t) & 1:
            opts[m] = t
            m += 1
    if m == 1:
        return opts[0]
    g.look_obj = g.settle
    r = look_discard(g, s, legal)
    for i in range(m):
        if opts[i] == r:
            ref = i
    return opts[search_choose(g, s, opts, m, ref)]


cdef int search_claim(Game* g, int s, const int* cands, int nc) noexcept nogil:
    """The search's claim: decline (-1) or a candidate."""
    cdef int opts[NT + 1]
    cdef int i, r, ref = 0
    opts[0] = -1
    for i in range(nc):
        opts[i + 1] = cands[i]
    g.look_obj = g.settle
    r = look_claim(g, s, cands, nc)
    for i in range(nc):
        if cands[i] == r:
            ref = i + 1
    return opts[search_choose(g, s, opts, nc + 1, ref)]


cdef int script_next(Game* g, int s, int* value) noexcept nogil:
    if g.script_pos[s] >= g.script_len[s]:
        return 0
    value[0] = g.script[s][g.script_pos[s]]
    g.script_pos[s] += 1
    return 1


cdef int decide_claim(Game* g, int s, const int* cands, int nc) noexcept nogil:
    """Tile taken, or -1 to decline."""
    cdef int pol = g.policy[s], v, i, j
    if pol == POL_SCRIPT:
        if script_next(g, s, &v):
            if v == -1:
                return -1
            for i in range(nc):
                if cands[i] == v:
                    return v
            g.error = ERR_SCRIPT_CLAIM
            g.error_seat = s
            return -1
        pol = POL_GREEDY
    if pol == POL_RANDOM:
        j = bounded(g.rng, nc + 1)
        return -1 if j == 0 else cands[j - 1]
    if pol == POL_LOOKAHEAD or pol == POL_LOOKAHEAD_SCORE:
        g.look_obj = pol == POL_LOOKAHEAD_SCORE
        return look_claim(g, s, cands, nc)
    if pol == POL_SEARCH:
        return search_claim(g, s, cands, nc)
    return smart_claim(g, s, cands, nc, pol == POL_SCORE)


cdef int decide_discard(Game* g, int s, int legal) noexcept nogil:
    cdef int pol = g.policy[s], v, t, n = 0, j
    cdef int ids[NT]
    if pol == POL_SCRIPT:
        if script_next(g, s, &v):
            if 0 <= v < NT and (legal >> v) & 1:
                return v
            g.error = ERR_SCRIPT_DISCARD
            g.error_seat = s
            for t in range(NT):
                if (legal >> t) & 1:
                    return t
        pol = POL_GREEDY
    if pol == POL_RANDOM:
        for t in range(NT):
            if (legal >> t) & 1:
                ids[n] = t
                n += 1
        j = bounded(g.rng, n)
        return ids[j]
    if pol == POL_LOOKAHEAD or pol == POL_LOOKAHEAD_SCORE:
        g.look_obj = pol == POL_LOOKAHEAD_SCORE
        return look_discard(g, s, legal)
    if pol == POL_SEARCH:
        return search_discard(g, s, legal)
    return smart_discard(g, s, legal, pol == POL_SCORE)


# ------------------------------------------------------------------ the hand
cdef inline int held(const HandState* h) noexcept nogil:
    return h.at_least[1]


cdef void note_ready(Game* g, int s, int t) noexcept nogil:
    cdef int bm, mask, r, rel
    if t >= READY_LEVELS:
        return
    if g.code_ok and g.rdy_code[s] == (g.h[s].code | CODE_USED):
        r = g.rdy[s]                  # found by the seat's own decision on this hand
    else:
        mask = waits_mask(g, &g.h[s], &bm)
        r = (mask & feasible_mask(g, &g.h[s])) != 0
    rel = (s - g.first + g.P) % g.P
    g.st.alive_first[rel][t] += 1
    g.st.ready_first[rel][t] += r
    g.st.alive_dealer[s][t] += 1
    g.st.ready_dealer[s][t] += r


cdef inline void end_turn(Game* g, int s) noexcept nogil:
    g.own_turns[s] += 1
    if not g.rollout:
        note_ready(g, s, g.own_turns[s])


cdef void finish(Game* g, int winner, int kind, int score) noexcept nogil:
    cdef int rel, sc
    g.res_winner = winner
    g.res_score = score
    if g.rollout:
        return
    g.st.length[g.turn] += 1
    if winner >= 0:
        rel = (winner - g.first + g.P) % g.P
        sc = score if score < SCORE_LEVELS - 1 else SCORE_LEVELS - 1
        g.st.wins_first[kind][rel] += 1
        g.st.wins_dealer[kind][winner] += 1
        g.st.score_first[rel][sc] += 1
        g.st.score_dealer[winner][sc] += 1
    else:
        g.st.ends[0] += 1
        if kind == K_LIMIT:
            g.st.ends[1] += 1


cdef int take_claim(Game* g, int s, int tile) noexcept nogil:
    """Take ``tile`` off the table; 1 if it wins (the hand is finished)."""
    cdef HandState* h = &g.h[s]
    cdef int form, spec, sc
    g.table[tile] -= 1
    g.table_total -= 1
    ev(g, s, EV_CLAIM, tile, -1)
    hs_add(h, tile, &g.r)
    if hs_is_win(h, &g.r):
        sc = hs_score(h, &g.r, &form, &spec)
        hs_remove(h, tile, &g.r)
        ev(g, s, EV_CLAIM_WIN, tile, sc)
        finish(g, s, K_CLAIMED, sc)
        return 1
    hs_remove(h, tile, &g.r)
    return 0


cdef void stall(Game* g, int s) noexcept nogil:
    ev(g, (s + 1) % g.P, EV_TURN_LIMIT, -1, -1)
    finish(g, -1, K_LIMIT, -1)


cdef inline void exchange(Game* g, int s, int took) noexcept nogil:
    """Steps 3a-b after a non-winning claim: ``took`` joins s's hand (known to the others),
    then s's exchange discard from ``pre``; ``last`` = it."""
    cdef int e
    hs_add(&g.h[s], took, &g.r)
    g.known[s][took] += 1
    g.ctx = CTX_EXCHANGE
    e = decide_discard(g, s, g.pre)
    put_down(g, s, e)
    g.last = e


cdef void run_from(Game* g, int s, int phase) noexcept nogil:
    """Continue the hand from ``phase`` of seat s to its end (docs/kap-tai-shap-engine.md,
    "The hand as phases"): TURN(s), AFTER_EXCHANGE(s), DRAW(s) or END_TURN(s)."""
    cdef int P = g.P, t, took, x, nxt, sc, form, spec, nc, choice
    cdef int cands[NT]
    cdef HandState* h
    while True:
        if phase == PH_TURN:
            if g.error:
                return
            g.turn += 1
            h = &g.h[s]
            g.pre = held(h)
            took = -1
            # -- claim step
            if g.committed[s] >= 0:
                took = g.committed[s]
                g.committed[s] = -1
            elif g.claim_mode != CLAIM_NONE:
                nc = 0
                if g.claim_mode == CLAIM_PREVIOUS:
                    if g.last >= 0:
                        cands[0] = g.last
                        nc = 1
                else:
                    for t in range(NT):
                        if g.table[t] > 0:
                            cands[nc] = t
                            nc += 1
                if nc > 0:
                    g.ctx = CTX_CLAIM
                    choice = decide_claim(g, s, cands, nc)
                    if choice < 0:
                        ev(g, s, EV_DECLINE, cands[0] if nc == 1 else -1, -1)
                    else:
                        if take_claim(g, s, choice):
                            return
                        took = choice
            if took >= 0:
                exchange(g, s, took)
                phase = PH_AFTER_EXCHANGE
            else:
                phase = PH_DRAW
        elif phase == PH_AFTER_EXCHANGE:
            if not g.claim_then_draw:
                phase = PH_END_TURN
                continue
            if g.claim_mode == CLAIM_PREVIOUS:
                # -- early window: the next seat decides on s's first discard before s draws
                nxt = (s + 1) % P
                cands[0] = g.last
                g.ctx = CTX_EARLY
                g.ctx_d = s
                if decide_claim(g, nxt, cands, 1) < 0:
                    ev(g, nxt, EV_DECLINE, cands[0], -1)
                else:
                    if take_claim(g, nxt, cands[0]):
                        return
                    g.committed[nxt] = cands[0]
            phase = PH_DRAW
        elif phase == PH_DRAW:
            h = &g.h[s]
            if g.pos >= g.n_tiles:
                ev(g, s, EV_DRAWN_HAND, -1, -1)
                finish(g, -1, K_DRAWN, -1)
                return
            x = g.wall[g.pos]
            g.pos += 1
            hs_add(h, x, &g.r)
            ev(g, s, EV_DRAW, x, -1)
            if hs_is_win(h, &g.r):
                sc = hs_score(h, &g.r, &form, &spec) + 1
                ev(g, s, EV_SELF_DRAWN_WIN, x, sc)
                finish(g, s, K_SELF_DRAWN, sc)
                return
            if g.keep_drawn:
                g.ctx = CTX_DISCARD
                g.last = decide_discard(g, s, held(h))
            else:
                g.last = x
            put_down(g, s, g.last)
            phase = PH_END_TURN
        else:
            end_turn(g, s)
            if g.turn >= MAX_TURNS:
                stall(g, s)
                return
            s = (s + 1) % P
            phase = PH_TURN


cdef void play_hand(Game* g) noexcept nogil:
    """Play one hand from g.wall / g.first (already set): the deal and turn 1, then the
    phases from END_TURN(F)."""
    cdef int P = g.P, F = g.first, i, j, t, seat, sc, form, spec
    cdef HandState* h
    g.st.hands += 1
    g.st.first_hand[F] += 1
    g.turn = 0
    g.step = 0
    g.pos = 0
    g.table_total = 0
    g.last = -1
    g.pre = 0
    g.res_winner = -1
    g.res_score = -1
    memset(g.table, 0, sizeof(g.table))
    memset(g.known, 0, P * sizeof(g.known[0]))
    for i in range(P):
        hs_clear(&g.h[i])
        g.own_turns[i] = 0
        g.committed[i] = -1
    ev(g, F, EV_DICE, -1, g.dice_total)
    for i in range(P):
        seat = (F + i) % P
        for j in range(g.n_first if i == 0 else g.n_other):
            t = g.wall[g.pos]
            g.pos += 1
            hs_add(&g.h[seat], t, &g.r)
            ev(g, seat, EV_DEAL, t, -1)
    for i in range(1, P):
        note_ready(g, (F + i) % P, 0)

    g.turn = 1
    h = &g.h[F]
    if hs_is_win(h, &g.r):
        sc = hs_score(h, &g.r, &form, &spec) + 1
        ev(g, F, EV_NATURAL, -1, sc)
        finish(g, F, K_NATURAL, sc)
        return
    g.ctx = CTX_DISCARD
    g.last = decide_discard(g, F, held(h))
    put_down(g, F, g.last)
    run_from(g, F, PH_END_TURN)


cdef void deal_random(Game* g, int* sorted_tiles) noexcept nogil:
    cdef int i, j, tmp, total = 0
    memcpy(g.wall, sorted_tiles, g.n_tiles * sizeof(int))
    for i in range(g.n_tiles - 1, 0, -1):
        j = bounded(g.rng, i + 1)
        tmp = g.wall[i]
        g.wall[i] = g.wall[j]
        g.wall[j] = tmp
    for i in range(g.n_dice):
        total += bounded(g.rng, 6) + 1
    g.dice_total = total
    g.first = total % g.P


# ------------------------------------------------------------------ Python entry point
cdef object _stats_to_dict(Stats* st, int P):
    """Copy the used part of the tallies into numpy arrays (see config.new_outcomes)."""
    out = {
        "hands": np.array([st.hands], dtype=np.int64),
        "first_hand": np.array([st.first_hand[i] for i in range(P)], dtype=np.int64),
        "wins_first": np.array([[st.wins_first[k][i] for i in range(P)] for k in range(3)], dtype=np.int64),
        "wins_dealer": np.array([[st.wins_dealer[k][i] for i in range(P)] for k in range(3)], dtype=np.int64),
        "ends": np.array([st.ends[0], st.ends[1]], dtype=np.int64),
    }
    cdef int64_t[::1] length = np.empty(MAX_TURNS + 1, dtype=np.int64)
    cdef int i
    for i in range(MAX_TURNS + 1):
        length[i] = st.length[i]
    out["length"] = np.asarray(length)
    for name in ("score_first", "score_dealer", "ready_first", "alive_first",
                 "ready_dealer", "alive_dealer"):
        out[name] = np.zeros((P, 64), dtype=np.int64)
    cdef int64_t[:, ::1] a1 = out["score_first"]
    cdef int64_t[:, ::1] a2 = out["score_dealer"]
    cdef int64_t[:, ::1] a3 = out["ready_first"]
    cdef int64_t[:, ::1] a4 = out["alive_first"]
    cdef int64_t[:, ::1] a5 = out["ready_dealer"]
    cdef int64_t[:, ::1] a6 = out["alive_dealer"]
    cdef int j
    for i in range(P):
        for j in range(64):
            a1[i, j] = st.score_first[i][j]
            a2[i, j] = st.score_dealer[i][j]
            a3[i, j] = st.ready_first[i][j]
            a4[i, j] = st.alive_first[i][j]
            a5[i, j] = st.ready_dealer[i][j]
            a6[i, j] = st.alive_dealer[i][j]
    return out


cdef void* _zeroed(size_t n, size_t size) except NULL:
    cdef void* p = calloc(n, size)
    if p == NULL:
        raise MemoryError()
    return p


cdef class _Memos:
    """The memos keyed on a hand's packed counts (waits, win scores, the look-ahead's waits
    and two-tile completions), kept across ``run_hands`` calls of one process.

    Every entry is a function of the hand's counts and of the ruleset and sets alone (the
    forms, the base rule, n, the Gee Joon run value and the copies of each id: see
    ``_memo_key``), never of the pool, the seats or the stream, so a later run of the same
    ruleset may read what an earlier one found: the numbers are those of cold memos.  A set
    is lent to one call at a time (taken from the pool and given back under the GIL), so two
    threads never share one."""
    cdef WaitSlot* wmemo
    cdef ScoreSlot* smemo
    cdef LookSlot* vmemo
    cdef CompSlot* cmemo

    cdef int ensure(self, int extra, int look) except -1:
        """Allocate what a run needs: the waits memo under extra forms; the look-ahead's
        memos for a look-ahead or search seat (and the win-score memo under extra forms)."""
        if extra and self.wmemo == NULL:
            self.wmemo = <WaitSlot*> _zeroed(1 << WMEMO_BITS, sizeof(WaitSlot))
        if look and self.vmemo == NULL:
            self.vmemo = <LookSlot*> _zeroed(1 << VMEMO_BITS, sizeof(LookSlot))
        if look and self.cmemo == NULL:
            self.cmemo = <CompSlot*> _zeroed(1 << CMEMO_BITS, sizeof(CompSlot))
        if look and extra and self.smemo == NULL:
            self.smemo = <ScoreSlot*> _zeroed(1 << SMEMO_BITS, sizeof(ScoreSlot))
        return 0

    def __dealloc__(self):
        free(self.wmemo)
        free(self.smemo)
        free(self.vmemo)
        free(self.cmemo)


_MEMO_POOL = {}          # _memo_key -> idle _Memos sets (insertion order: least recent first)
MEMO_POOL_RULESETS = 4   # rulesets whose memos are kept (about 5 MB each at most)
MEMO_POOL_IDLE = 2       # idle sets kept per ruleset (one per concurrent thread)


def _memo_key(cfg):
    """What the packed-count memos depend on: the forms, the base rule, n, the Gee Joon run
    value and the copies of each id."""
    return (int(cfg.forms_mask), int(cfg.base_sum), int(cfg.n), int(cfg.gee_joon_run_value),
            tuple(int(c) for c in cfg.copies))


def _memos_take(key):
    idle = _MEMO_POOL.pop(key, None)
    ms = idle.pop() if idle else _Memos()
    _MEMO_POOL[key] = idle if idle is not None else []     # most recent last
    return ms


def _memos_give(key, _Memos ms):
    idle = _MEMO_POOL.pop(key, [])
    if len(idle) < MEMO_POOL_IDLE:
        idle.append(ms)
    _MEMO_POOL[key] = idle
    while len(_MEMO_POOL) > MEMO_POOL_RULESETS:
        del _MEMO_POOL[next(iter(_MEMO_POOL))]


def _memos_clear():
    """Drop the memos kept across runs (tests: a run from cold memos)."""
    _MEMO_POOL.clear()


cdef object _init_table(Game* g, cfg, policies, scripts, list keep, int* sorted_tiles):
    """The table of a run on a zeroed ``g`` (the rules, the policies, the key and class tables,
    the search's settings, the memos); arrays it points into are appended to ``keep``, and
    ``sorted_tiles`` gets the tiles of the sets in id order.  Returns ``(memo key, memos)`` to
    give back with ``_memos_give`` when the run ends, or None."""
    cdef int i, t, k, P = cfg.players
    cdef int32_t[::1] script_view
    cdef const unsigned char[::1] key_view
    cdef const uint32_t[::1] info_view
    cdef _Memos memos = None
    if not 2 <= P <= MAXP or cfg.n_tiles > MAXWALL:
        raise ValueError("table too large for the compiled engine")
    g.P = P
    g.n = cfg.n
    g.n_first = cfg.n_first
    g.n_other = cfg.n_other
    g.n_tiles = cfg.n_tiles
    g.n_dice = cfg.n_dice
    g.claim_mode = cfg.claim_code
    g.claim_then_draw = cfg.turn_code == 0
    g.keep_drawn = 1 if cfg.keep_drawn else 0
    g.has_basic = cfg.forms_mask & 1
    g.has_extra = (cfg.forms_mask & ~1) != 0
    g.code_ok = max(cfg.copies) <= 7
    rules_init(&g.r, cfg.forms_mask, cfg.base_sum, cfg.n, cfg.gee_joon_run_value)
    rules_init(&g.rx, cfg.forms_mask & ~1, cfg.base_sum, cfg.n, cfg.gee_joon_run_value)
    k = 0
    for t in range(NT):
        g.copies[t] = cfg.copies[t]
        for i in range(cfg.copies[t]):
            sorted_tiles[k] = t
            k += 1
    g.total_copies = k
    caps = sorted({c for c in cfg.copies if c > 0})
    if max(cfg.copies) > 16:
        raise ValueError("at most 16 copies of a tile id")
    g.n_caps = len(caps)
    for i, c in enumerate(caps):
        g.cap_k[i] = c
        g.cap_ids[i] = sum(1 << t for t in range(NT) if cfg.copies[t] == c)
    g.no_copy_ids = sum(1 << t for t in range(NT) if cfg.copies[t] == 0)
    if len(policies) != P:
        raise ValueError("one policy code per seat")
    for i in range(P):
        g.policy[i] = int(policies[i])
        if not 0 <= g.policy[i] <= POL_SEARCH:
            raise ValueError(f"unknown policy code {g.policy[i]}")
        if g.policy[i] == POL_SCRIPT:
            arr = np.ascontiguousarray(scripts[i] if scripts is not None else [], dtype=np.int32)
            keep.append(arr)
            g.script_len[i] = arr.shape[0]
            if arr.shape[0]:
                script_view = arr
                g.script[i] = &script_view[0]
    from kaptai.kts._lookahead import _class_tables, _key_table
    key_arr = _key_table(cfg.forms_mask, cfg.n, cfg.gee_joon_run_value)
    keep.append(key_arr)
    key_view = key_arr
    g.keys = &key_view[0]
    uses_look = False
    for i in range(P):
        uses_look = uses_look or g.policy[i] in (POL_LOOKAHEAD, POL_LOOKAHEAD_SCORE, POL_SEARCH)
    g.search_S = int(cfg.search_samples)
    g.search_z = float(cfg.search_z)
    g.settle = int(cfg.settlement_code)
    g.cut = float(cfg.house_cut)
    if not 1 <= g.search_S <= 100_000 or not 0.0 <= g.search_z <= 10.0 or not 0 <= g.settle <= 1:
        raise ValueError(f"search_samples={g.search_S}, search_z={g.search_z} or settlement code "
                         f"{g.settle}: out of range (1-100,000, 0-10, 0 or 1)")
    g.roll_own = POL_LOOKAHEAD if g.settle == SETTLE_POT else POL_LOOKAHEAD_SCORE
    if int(cfg.rollout_code) == 1:       # the reference policy itself
        g.roll_pol = g.roll_own
    else:
        g.roll_pol = POL_GREEDY if g.settle == SETTLE_POT else POL_SCORE
        if int(cfg.rollout_code) == 0:
            g.roll_own = g.roll_pol      # 2 ('own'): the searching seat plays the reference
    # the per-cell words: every form (the look-ahead, and greedy's ready checks with extra
    # forms), and the forms other than basic (greedy's extra waits)
    if uses_look or g.has_extra:
        info_arr = _class_tables(cfg.forms_mask, cfg.n, cfg.gee_joon_run_value)
        keep.append(info_arr)
        info_view = info_arr
        g.info = &info_view[0]
    # the memos keyed on a hand's packed counts (exact with at most 7 copies an id),
    # kept across the runs of the process for the same ruleset and sets (_Memos)
    if g.code_ok and (g.has_extra or uses_look):
        memo_key = _memo_key(cfg)
        memos = _memos_take(memo_key)
        memos.ensure(g.has_extra, uses_look)
        g.wmemo = memos.wmemo if g.has_extra else NULL
        if uses_look:
            g.vmemo = memos.vmemo
            g.cmemo = memos.cmemo
            g.smemo = memos.smemo if g.has_extra else NULL
    if g.has_extra:
        info_arr = _class_tables(cfg.forms_mask & ~1, cfg.n, cfg.gee_joon_run_value)
        keep.append(info_arr)
        info_view = info_arr
        g.info_x = &info_view[0]
    return None if memos is None else (memo_key, memos)


cdef int _init_sub(Game* g) except -1:
    """The search's rollout Game and layout buffer of a set-up ``g`` (freed by ``_free_sub``):
    the table config (and the pure-cache memo pointers) copied once; each rollout copies only
    the hand state in (search_rollout)."""
    cdef Game* sub = <Game*> malloc(sizeof(Game))
    cdef Stats* sub_st = <Stats*> calloc(1, sizeof(Stats))
    cdef int i
    g.snap = <Snap*> malloc(sizeof(Snap))
    if sub == NULL or sub_st == NULL or g.snap == NULL:
        free(sub)
        free(sub_st)
        raise MemoryError()
    memcpy(sub, g, sizeof(Game))
    memset(&sub.log, 0, sizeof(LogBuffer))
    sub.recording = 0
    sub.rollout = 1
    sub.st = sub_st
    sub.sub = NULL
    sub.snap = NULL
    for i in range(g.P):
        sub.policy[i] = g.roll_pol
        sub.script_len[i] = 0
    g.sub = sub
    return 0


cdef void _free_sub(Game* g) noexcept:
    if g.sub != NULL:
        free(g.sub.st)
        free(g.sub)
        g.sub = NULL
    free(g.snap)
    g.snap = NULL


def run_hands(cfg, policies, bit_generator, long long n_hands, long long hand_offset=0,
              long long record=0, wall=None, int first_hand=-1, scripts=None):
    """Play ``n_hands`` hands on one bit generator; return (tallies, log array).

    Parameters
    ----------
    cfg : kaptai.kts.config.EngineConfig
        The validated table (a ``search`` seat reads ``search_samples``, ``search_z``,
        ``settlement_code`` and ``house_cut``).
    policies : sequence of int
        Policy code per seat (0 random, 1 greedy, 2 score, 3 lookahead, 4 scripted,
        5 lookahead_score, 6 search).
    bit_generator : numpy.random.BitGenerator
        A fresh generator for the chunk (``PCG64``).
    n_hands : int
        Hands to play.
    hand_offset : int
        Index of the first hand, written in the log.
    record : int
        Log the first ``record`` hands.
    wall : array of int, optional
        Constructed wall (then ``n_hands`` must be 1 and ``first_hand`` given); no shuffle
        and no dice are drawn.
    first_hand : int
        First-hand seat of the constructed wall.
    scripts : sequence of sequences of int, optional
        Decisions of each seat with policy code 4.

    Returns
    -------
    (dict, numpy.ndarray)
        Tallies with the keys of ``config.new_outcomes`` and an int32 array of log
        rows ``(hand, step, turn, seat, action, tile, value)``.
    """
    cdef Game* g = <Game*> malloc(sizeof(Game))
    cdef Stats* st = <Stats*> malloc(sizeof(Stats))
    cdef int sorted_tiles[MAXWALL]
    cdef int i, P = cfg.players
    cdef long long hand
    memo_pair = None
    if g == NULL or st == NULL:
        free(g)
        free(st)
        raise MemoryError()
    memset(g, 0, sizeof(Game))
    memset(st, 0, sizeof(Stats))
    keep = []
    try:
        memo_pair = _init_table(g, cfg, policies, scripts, keep, sorted_tiles)
        uses_search = any(int(c) == POL_SEARCH for c in policies)
        if wall is not None:
            w = np.ascontiguousarray(wall, dtype=np.int64)
            if n_hands != 1 or w.shape[0] != g.n_tiles or not 0 <= first_hand < P:
                raise ValueError("a constructed wall plays one hand: all tiles, a first-hand seat")
            if not np.array_equal(np.sort(w), np.array([sorted_tiles[i] for i in range(g.n_tiles)])):
                raise ValueError("a constructed wall must hold exactly the tiles of the sets")
        g.st = st
        if log_init(&g.log, LOG_COLS * sizeof(int32_t), 1024):
            raise MemoryError()
        g.rng = bitgen_of(bit_generator)
        if uses_search:
            _init_sub(g)
        if wall is not None:
            for i in range(g.n_tiles):
                g.wall[i] = w[i]
            g.first = first_hand
            g.dice_total = -1
            g.hand_index = hand_offset
            g.recording = record > 0
            with bit_generator.lock, nogil:
                play_hand(g)
        else:
            with bit_generator.lock, nogil:
                for hand in range(n_hands):
                    deal_random(g, sorted_tiles)
                    g.hand_index = hand_offset + hand
                    g.recording = hand < record
                    play_hand(g)
                    if g.error:
                        break
        SEARCH_STATS[0] += g.search_decisions
        SEARCH_STATS[1] += g.search_layouts
        SEARCH_STATS[2] += g.search_rollouts
        if g.error == ERR_MEMORY:
            raise MemoryError("hand log")
        if g.error == ERR_LAYOUT:
            raise RuntimeError("internal error: the search's pool of unseen tiles is inconsistent")
        if g.error:
            what = "claim" if g.error == ERR_SCRIPT_CLAIM else "discard"
            raise ValueError(
                f"scripted {what} at seat {g.error_seat}, turn {g.turn} is not a legal choice"
            )
        return _stats_to_dict(st, P), log_rows(&g.log, LOG_COLS, np.int32)
    finally:
        log_free(&g.log)
        if memo_pair is not None:
            _memos_give(*memo_pair)
        _free_sub(g)
        free(g)
        free(st)



def search_values(cfg, state, int seat, int kind, options, bit_generator, long long layouts,
                  int early_of=-1):
    """The ``search`` policy's evaluation of one decision: every option's rollout value on each
    of ``layouts`` layouts of what ``seat`` has not seen (the same layouts for every option),
    as ``search_choose`` computes them before it applies its guard.

    Parameters
    ----------
    cfg : kaptai.kts.config.EngineConfig
        The table (its ``settlement_code``, ``house_cut`` and ``rollout_code`` set the values
        and the rollout policies).
    state : mapping
        The hand at the decision, as the reference engine holds it: ``hands`` (per seat 21
        counts; of the other seats only the sizes are read), ``table``, ``known`` (per seat),
        ``committed`` and ``own_turns`` (per seat), ``pos``, ``turn``, ``last``, ``first``
        and ``pre`` (the ids held before the claim step).
    seat : int
        The deciding seat.
    kind : int
        0 the discard after a draw (or at turn 1), 1 the exchange discard, 2 the claim step,
        3 the early window on ``early_of``'s first discard.
    options : sequence of int
        Tile ids (-1: decline a claim).
    bit_generator : numpy.random.BitGenerator
        The layouts' stream (``make_layout``: ``m - 1`` bounded draws a layout).
    layouts : int
        Layouts.

    Returns
    -------
    numpy.ndarray
        float64, shape ``(len(options), layouts)``: the seat's net result of each rollout (antes;
        under ``advanced`` the points times the ante).
    """
    cdef Game* g = <Game*> malloc(sizeof(Game))
    cdef int sorted_tiles[MAXWALL]
    cdef int opts[NT + 1]
    cdef int i, t, x, m = len(options), P = cfg.players
    cdef long long j
    cdef double[:, ::1] ov
    memo_pair = None
    if g == NULL:
        raise MemoryError()
    memset(g, 0, sizeof(Game))
    keep = []
    try:
        memo_pair = _init_table(g, cfg, [POL_SEARCH] * P, None, keep, sorted_tiles)
        if not 0 <= seat < P or not CTX_DISCARD <= kind <= CTX_EARLY or not 1 <= m <= NT + 1 or layouts < 0:
            raise ValueError(f"seat {seat}, kind {kind}, {m} options or {layouts} layouts: out of range")
        if kind == CTX_EARLY and not 0 <= early_of < P:
            raise ValueError(f"early_of={early_of}: the early window needs the discarding seat")
        for i in range(m):
            opts[i] = int(options[i])
            if not -1 <= opts[i] < NT or (opts[i] < 0 and kind < CTX_CLAIM):
                raise ValueError(f"option {opts[i]} is not a tile id (or -1 for a claim's decline)")
        g.rng = bitgen_of(bit_generator)
        _init_sub(g)
        for x in range(P):
            hs_clear(&g.h[x])
            for t in range(NT):
                for i in range(int(state["hands"][x][t])):
                    hs_add(&g.h[x], t, &g.r)
                g.known[x][t] = int(state["known"][x][t])
            g.committed[x] = int(state["committed"][x])
            g.own_turns[x] = int(state["own_turns"][x])
        g.table_total = 0
        for t in range(NT):
            g.table[t] = int(state["table"][t])
            g.table_total += g.table[t]
        g.pos = int(state["pos"])
        g.turn = int(state["turn"])
        g.last = int(state["last"])
        g.first = int(state["first"])
        g.pre = 0
        for t in state["pre"]:
            g.pre |= 1 << int(t)
        if not 0 <= g.pos <= g.n_tiles:
            raise ValueError(f"pos={g.pos}: outside the wall of {g.n_tiles}")
        out = np.zeros((m, layouts), dtype=np.float64)
        ov = out
        with bit_generator.lock, nogil:
            for j in range(layouts):
                make_layout(g, seat, g.snap)
                if g.error:
                    break
                for i in range(m):
                    ov[i, j] = search_rollout(g, seat, kind, early_of, opts[i])
        if g.error == ERR_LAYOUT:
            raise ValueError("the state's counts do not add up: no layout of the unseen tiles")
        if g.error:
            raise RuntimeError(f"internal error {g.error} in a search rollout")
        return out
    finally:
        if memo_pair is not None:
            _memos_give(*memo_pair)
        _free_sub(g)
        free(g)

# ------------------------------------------------------------------ test helpers
def _basic_waits(counts):
    """Bit set of the basic-form waits of a count vector (fast path), for tests."""
    cdef HandState h
    cdef EvalRules r
    rules_init(&r, 1, 0, 4, 6)
    hs_clear(&h)
    for t in range(NT):
        for _ in range(counts[t]):
            hs_add(&h, t, &r)
    return basic_waits(&h)


def _distance_proxy(counts, copies, int n):
    """The compiled distance proxy of a count vector, for tests."""
    cdef Game* g = <Game*> malloc(sizeof(Game))
    cdef int t
    try:
        rules_init(&g.r, 1, 0, n, 6)
        g.n = n
        for t in range(NT):
            g.copies[t] = copies[t]
        hs_clear(&g.h[0])
        for t in range(NT):
            for _ in range(counts[t]):
                hs_add(&g.h[0], t, &g.r)
        g.has_basic = 1
        return distance_proxy(g, &g.h[0])
    finally:
        free(g)
