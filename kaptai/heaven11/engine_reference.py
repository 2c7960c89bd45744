"""The pure-Python Heaven Eleven (天牌十一) engine: the oracle of the compiled engine.

It implements ``docs/heaven-eleven-engine.md`` step by step, on 52-bit card masks, and is the
only engine that runs user :class:`kaptai.heaven11.policies.Policy` objects.  Given the same
``PCG64`` stream it makes the same draws, the same moves and the same log rows as
:mod:`kaptai.heaven11._engine`.

Examples
--------
>>> import numpy as np
>>> from kaptai.heaven11.config import make_config
>>> from kaptai.heaven11.engine_reference import run_hands
>>> out, log = run_hands(make_config(), ["greedy"] * 4, np.random.PCG64(0), 3)
>>> out["tricks"].sum(axis=1).tolist(), out["finals"].sum(axis=1).tolist()
([13, 13, 13], [0, 0, 0])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Sequence

import numpy as np

from kaptai.core.sampling import RandomStream
from kaptai.heaven11.cards import format_cards, parse_bid, parse_cards, bid_code, format_bid
from kaptai.heaven11 import config as _config
from kaptai.heaven11.config import (
    BID_CODES, BID_OFFSETS, HCP, LEAD_WEIGHT, MAX_REDEALS, PLAY_CODES, SEARCH_ATTEMPTS, SEARCH_KEEP, EngineConfig,
    IllegalPlayError, new_outcomes,
)

__all__ = ["run_hands", "HandState", "lead_options", "follow_options", "play_kind", "finals_for"]

SUIT_BITS = 0x1FFF
A_DEAL, A_BID, A_PASS, A_PASSOUT, A_FORCED, A_LEAD, A_FOLLOW, A_WIN, A_SCORE = range(9)
SAMPLE_ATTEMPTS = 20
B_SEARCH = BID_CODES["search"]
_POP = [bin(m).count("1") for m in range(8192)]
_HCP_SUIT = [sum(HCP[r] for r in range(13) if m >> r & 1) for m in range(8192)]


def _subsets(bits: int, n: int) -> list[int]:
    """All n-subsets of the set bits of ``bits``, ascending."""
    pos = [i for i in range(bits.bit_length()) if bits >> i & 1]
    out: list[int] = []
    k = len(pos)
    if n > k:
        return out
    if n == 1:
        out = [1 << a for a in pos]
    elif n == 2:
        out = [1 << pos[a] | 1 << pos[b] for a in range(k) for b in range(a + 1, k)]
    elif n == 3:
        out = [1 << pos[a] | 1 << pos[b] | 1 << pos[c] for a in range(k) for b in range(a + 1, k) for c in range(b + 1, k)]
    out.sort()
    return out


def _suit(mask: int, s: int) -> int:
    return (mask >> (13 * s)) & SUIT_BITS


def _pop(mask: int) -> int:
    return bin(mask).count("1")


def lead_options(hand: int) -> list[int]:
    """Every legal lead (1-3 cards of one suit) as masks, ascending."""
    out = []
    for s in range(4):
        r = _suit(hand, s)
        for n in (1, 2, 3):
            out += [m << (13 * s) for m in _subsets(r, n)]
    out.sort()
    return out


def follow_options(hand: int, led: int, n: int, trump: int, cfg: EngineConfig) -> list[int]:
    """Every legal follow (§4.3) as masks, ascending."""
    led_mask = SUIT_BITS << (13 * led)
    lc = hand & led_mask
    k = _pop(lc)
    if k >= n:
        return _subsets(lc, n)
    if k > 0 and not cfg.short_free:
        return sorted(lc | m for m in _subsets(hand & ~led_mask, n - k))
    if k == 0 and cfg.must_trump and trump < 4 and trump != led:
        tm = hand & (SUIT_BITS << (13 * trump))
        if _pop(tm) >= n:
            return _subsets(tm, n)
    return _subsets(hand, n)


def play_kind(play: int, hand_before: int, led: int, trump: int) -> int:
    """0 = led-suit combination, 1 = trump combination, 2 = mixed."""
    led_mask = SUIT_BITS << (13 * led)
    if play & ~led_mask == 0:
        return 0
    if hand_before & led_mask == 0 and trump < 4 and trump != led and play & ~(SUIT_BITS << (13 * trump)) == 0:
        return 1
    return 2


def finals_for(tricks: Sequence[int], declarer: int, level: int, cfg: EngineConfig) -> list[int]:
    """Final scores by seat (0 for all in a draw)."""
    order = [(declarer + i * cfg.play_step) % 4 for i in range(4)]
    t = [tricks[s] for s in order]
    out = [0, 0, 0, 0]
    if level == 0 and t == [4, 3, 3, 3]:
        return out
    m = t[0] - 4
    match = over = short = 0
    short_code, match_code, over_code = cfg.scoring
    if m == level:
        match = (m, m // 2, 0, min(m // 2, 2))[match_code]  # level, half, none, half_capped
    elif m > level:
        over = m - level if over_code == 0 else 0
    else:
        d = level - m
        short = (0, d, d * (d + 1) // 2, d + level)[short_code]
    bal_total = 0
    for i in (1, 2, 3):
        ni = t[i] - 3
        bal = ni + 1 if ni >= 0 else 0
        bal_total += bal
        out[order[i]] = ni + bal - match + over + short
    out[order[0]] = m + 3 * match - 3 * over - 3 * short - bal_total
    return out


class _Table:
    """The state of one hand being played (also used, copied, by rollouts)."""

    __slots__ = ("hands", "tricks", "played", "gone", "voids", "trump", "declarer", "level", "leader",
                 "t_lead", "t_n", "t_led", "t_pos", "t_best", "t_key", "t_trump", "t_plays")
    hands: list[int]
    tricks: list[int]
    played: int
    gone: list[int]
    voids: list[int]
    trump: int
    declarer: int
    level: int
    leader: int
    t_lead: int
    t_n: int
    t_led: int
    t_pos: int
    t_best: int
    t_key: int
    t_trump: int
    t_plays: list[int]

    def copy(self) -> "_Table":
        o = _Table()
        for a in self.__slots__:
            v = getattr(self, a)
            setattr(o, a, list(v) if isinstance(v, list) else v)
        return o


class _Engine:
    def __init__(self, cfg: EngineConfig, policies: Sequence[Any], bidding: Sequence[str], rs: Any,
                 decks: np.ndarray | None):
        self.cfg = cfg
        self.key = cfg.key.tolist()
        self.beat = cfg.beat.tolist()
        self.bid_table = cfg.bid_table.tolist()
        self.policies = list(policies)
        self.codes = [PLAY_CODES[p] if isinstance(p, str) else -1 for p in policies]
        self.bidding = [BID_CODES[b] for b in bidding]
        self.rs = rs
        self.decks = decks
        self.deck_pos = 0
        self.log: list[tuple] = []
        self.recording = False
        self.hand_index = 0
        self.step = 0
        self.calls: list = []
        #: the calls of the deal being played, (seat, code or -1): what the search sampler replays
        self.call_codes: list[tuple[int, int]] = []
        #: the plays of the hand so far, (seat, cards, lead?): what the search's inference replays
        self.hist: list[tuple[int, int, bool]] = []

    # ------------------------------------------------------------------ log
    def _log(self, seat: int, action: int, cards: int, value: int) -> None:
        if self.recording:
            self.log.append((self.hand_index, self.step, seat, action, cards, value))
        self.step += 1

    # ------------------------------------------------------------------ deal
    def _deal(self) -> list[int]:
        if self.decks is not None:
            if self.deck_pos >= len(self.decks):
                from kaptai.errors import RulesError

                raise RulesError(f"decks: {len(self.decks)} given, but hand {self.hand_index} needs another one "
                                 "(every deal, a redeal included, takes the next deck)")
            deck = [int(c) for c in self.decks[self.deck_pos]]
            self.deck_pos += 1
        else:
            deck = list(range(52))
            for i in range(51, 0, -1):
                j = self.rs.bounded(i + 1)
                deck[i], deck[j] = deck[j], deck[i]
        hands = []
        for s in range(4):
            m = 0
            for c in deck[13 * s:13 * s + 13]:
                m |= 1 << c
            hands.append(m)
        return hands

    # ------------------------------------------------------------------ auction
    def _builtin_bid(self, seat: int, hand: int, current: int, bidder: int) -> int:
        code = self.bidding[seat]
        if code == BID_CODES["never"]:
            return -1
        hb = min(sum(_HCP_SUIT[_suit(hand, s)] for s in range(4)) // 2, 19)
        lengths = [_POP[_suit(hand, s)] for s in range(4)]
        best, best_e = 0, -1
        for s in range(5):
            e = self.bid_table[0][lengths[s]][hb] if s < 4 else self.bid_table[1][max(lengths)][hb]
            if e >= best_e:
                best, best_e = s, e
        target = (best_e + 5) // 10 - 4 + BID_OFFSETS[code]
        if target > 9:
            target = 9
        if target < 0:
            return -1
        c = 5 * target + best
        if c > current and bidder != seat:
            return c
        return -1

    def _user_bid(self, seat: int, hand: int, dealer: int, calls: list, current: int) -> int:
        from kaptai.heaven11.policies import PlayerView

        view = PlayerView(seat, "bid", tuple(i for i in range(52) if hand >> i & 1), dealer, tuple(calls), current,
                          -1, -1, -1, (), (), (0, 0, 0, 0), (), (0, 0, 0, 0), self.rs)
        choice = self.policies[seat].bid(view)
        if choice is None:
            return -1
        try:
            b = parse_bid(choice) if not isinstance(choice, (int, np.integer)) else divmod(int(choice), 5)
        except Exception as exc:  # a KaptaiError naming the token
            raise IllegalPlayError(f"seat {seat} bid {choice!r}: {exc}") from None
        if b is None:
            return -1
        c = bid_code(b)
        if not 0 <= c < 50:
            raise IllegalPlayError(f"seat {seat} bid {choice!r}: level must be 0-9")
        if c <= current:
            raise IllegalPlayError(f"illegal bid {format_bid(b)} by seat {seat}: it does not beat {format_bid(divmod(current, 5))}")
        return c

    def _auction(self, hands: list[int], dealer: int) -> tuple[int, int]:
        """(declarer, bid code) or (-1, -1) when all four pass."""
        current, bidder, passes, opening_passes = -1, -1, 0, 0
        caller = dealer
        calls: list = []
        self.calls = calls
        self.call_codes = []
        while True:
            if self.codes[caller] >= 0:
                if self.bidding[caller] == B_SEARCH:
                    c = self._search_bid(caller, hands[caller], dealer, current, bidder, passes, opening_passes)
                else:
                    c = self._builtin_bid(caller, hands[caller], current, bidder)
            else:
                c = self._user_bid(caller, hands[caller], dealer, calls, current)
            self.call_codes.append((caller, c))
            if c >= 0:
                self._log(caller, A_BID, 0, c)
                calls.append((caller, c))
                current, bidder, passes = c, caller, 0
            else:
                self._log(caller, A_PASS, 0, 0)
                calls.append((caller, None))
                if current >= 0:
                    passes += 1
                    if passes == 3:
                        return bidder, current
                else:
                    opening_passes += 1
                    if opening_passes == 4:
                        return -1, -1
            caller = (caller + self.cfg.bid_step) % 4

    # ------------------------------------------------------------------ tricks
    def _start_trick(self, T: _Table, lead: int) -> None:
        s = 0
        while (lead >> (13 * s)) & SUIT_BITS == 0:
            s += 1
        T.t_lead = lead
        T.t_led = s
        T.t_n = _pop(lead)
        T.t_pos = 1
        T.t_best = T.leader
        T.t_key = self.key[_suit(lead, s)]
        T.t_trump = 0
        T.t_plays = [lead]
        T.hands[T.leader] &= ~lead
        T.gone[T.leader] |= lead
        T.played |= lead

    def _apply_follow(self, T: _Table, seat: int, play: int) -> int:
        before = T.hands[seat]
        kind = play_kind(play, before, T.t_led, T.trump)
        n = T.t_n
        if kind == 0:
            if not T.t_trump:
                k = self.key[_suit(play, T.t_led)]
                if k > T.t_key:
                    T.t_best, T.t_key = seat, k
        elif kind == 1:
            k = self.key[_suit(play, T.trump)]
            if not T.t_trump or k > T.t_key:
                T.t_best, T.t_key, T.t_trump = seat, k, 1
        # public void inference (docs: "Voids")
        led_played = _pop(play & (SUIT_BITS << (13 * T.t_led)))
        if self.cfg.short_free:
            if (n == 1 and led_played == 0) or kind == 1:
                T.voids[seat] |= 1 << T.t_led
        elif led_played < n:
            T.voids[seat] |= 1 << T.t_led
        T.hands[seat] = before & ~play
        T.gone[seat] |= play
        T.played |= play
        T.t_plays.append(play)
        T.t_pos += 1
        return kind

    def _end_trick(self, T: _Table) -> int:
        w = T.t_best
        T.tricks[w] += T.t_n
        T.leader = w
        return w

    def _seat_at(self, T: _Table, pos: int) -> int:
        return (T.leader + pos * self.cfg.play_step) % 4

    # ------------------------------------------------------------------ greedy
    def _greedy_lead(self, hand: int) -> int:
        best, best_score, best_n = 0, -1, 0
        for m in lead_options(hand):
            s = 0
            while (m >> (13 * s)) & SUIT_BITS == 0:
                s += 1
            r = _suit(m, s)
            n = _POP[r]
            score = self.beat[r] * LEAD_WEIGHT[n]
            if score > best_score or (score == best_score and n > best_n):
                best, best_score, best_n = m, score, n
        return best

    def _greedy_follow(self, T: _Table, seat: int, opts: list[int]) -> int:
        hand = T.hands[seat]
        win, win_key = 0, 1 << 30
        for m in opts:
            kind = play_kind(m, hand, T.t_led, T.trump)
            if kind == 0 and not T.t_trump:
                k = self.key[_suit(m, T.t_led)]
                if k > T.t_key and k < win_key:
                    win, win_key = m, k
            elif kind == 1:
                k = self.key[_suit(m, T.trump)]
                if (not T.t_trump or k > T.t_key) and k < win_key:
                    win, win_key = m, k
        if win:
            return win
        best, best_cost = 0, 1 << 30
        for m in opts:
            cost = 0
            for c in range(52):
                if m >> c & 1:
                    cost += c % 13 + (13 if c // 13 == T.trump else 0)
            if cost < best_cost:
                best, best_cost = m, cost
        return best

    def _greedy_rest(self, T: _Table) -> None:
        """Play the rest of the hand (the current play first, from T.t_pos) with greedy for every seat."""
        while True:
            while T.t_pos < 4:
                seat = self._seat_at(T, T.t_pos)
                opts = follow_options(T.hands[seat], T.t_led, T.t_n, T.trump, self.cfg)
                self._apply_follow(T, seat, opts[0] if len(opts) == 1 else self._greedy_follow(T, seat, opts))
            self._end_trick(T)
            if T.hands[T.leader] == 0:
                return
            self._start_trick(T, self._greedy_lead(T.hands[T.leader]))

    # ------------------------------------------------------------------ rollout
    def _sample(self, T: _Table, seat: int) -> list[int] | None:
        """Hands of the other seats consistent with the public information, or None (failed)."""
        others = [(seat + k) % 4 for k in (1, 2, 3)]
        unseen = [c for c in range(52) if not (T.played >> c & 1) and not (T.hands[seat] >> c & 1)]
        cap = {q: _pop(T.hands[q]) for q in others}
        for i in range(len(unseen) - 1, 0, -1):
            j = self.rs.bounded(i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        allowed = {c: [q for q in others if not T.voids[q] >> (c // 13) & 1] for c in unseen}
        out = {q: 0 for q in others}
        for k in (1, 2, 3):
            for c in unseen:
                if len(allowed[c]) != k:
                    continue
                cand = [q for q in allowed[c] if cap[q] > 0]
                if not cand:
                    return None
                if len(cand) == 1:
                    q = cand[0]
                else:
                    j = self.rs.bounded(sum(cap[q] for q in cand))
                    for q in cand:
                        if j < cap[q]:
                            break
                        j -= cap[q]
                out[q] |= 1 << c
                cap[q] -= 1
        for c in unseen:
            if not allowed[c]:
                return None
        return [out.get(q, T.hands[seat]) if q != seat else T.hands[seat] for q in range(4)]

    def _rollout(self, T: _Table, seat: int, opts: list[int], leading: bool) -> int:
        samples = []
        for _ in range(self.cfg.samples):
            h = None
            for _attempt in range(SAMPLE_ATTEMPTS):
                h = self._sample(T, seat)
                if h is not None:
                    break
            if h is None:
                h = list(T.hands)
            samples.append(h)
        best, best_total = opts[0], None
        for m in opts:
            total = 0
            for h in samples:
                total += self._play_value(T, seat, m, h, leading)
            if best_total is None or total > best_total:
                best, best_total = m, total
        return best

    # ------------------------------------------------------------------ search (play)
    def _auction_ok(self, decider: int, orig: Sequence[int]) -> bool:
        """Replaying the recorded calls with the hands ``orig`` gives the same calls for every seat other
        than ``decider`` that bids by a table policy (a ``search`` bidder is not checked)."""
        current, bidder = -1, -1
        for s, c in self.call_codes:
            if s != decider and self.bidding[s] != B_SEARCH:
                if self._builtin_bid(s, orig[s], current, bidder) != c:
                    return False
            if c >= 0:
                current, bidder = c, s
        return True

    def _search_sample(self, T: _Table, seat: int) -> list[int]:
        fallback = None
        for _attempt in range(SEARCH_ATTEMPTS):
            h = self._sample(T, seat)
            if h is not None:
                fallback = h
                if self._auction_ok(seat, [h[q] | T.gone[q] for q in range(4)]):
                    return h
        return list(fallback) if fallback is not None else list(T.hands)

    def _play_value(self, T: _Table, seat: int, m: int, h: list[int], leading: bool) -> int:
        U = T.copy()
        U.hands = list(h)
        if leading:
            self._start_trick(U, m)
        else:
            self._apply_follow(U, seat, m)
        self._greedy_rest(U)
        return finals_for(U.tricks, U.declarer, U.level, self.cfg)[seat]

    def _layout_weight(self, T: _Table, seat: int, lay: Sequence[int]) -> float:
        """The likelihood of the other seats' recorded plays on the layout ``lay`` (docs, "Inference")."""
        cfg = self.cfg
        eps = float(_config.SEARCH_EPS)
        R = _Table()
        R.hands = [lay[q] | T.gone[q] for q in range(4)]
        R.tricks = [0, 0, 0, 0]
        R.played = 0
        R.gone = [0, 0, 0, 0]
        R.voids = [0, 0, 0, 0]
        R.trump, R.declarer, R.level = T.trump, T.declarer, T.level
        R.leader = T.declarer if cfg.first_leader == 0 else (T.declarer + cfg.play_step) % 4
        R.t_pos, R.t_lead, R.t_n, R.t_led, R.t_best, R.t_key, R.t_trump, R.t_plays = 4, 0, 0, 0, 0, 0, 0, []
        G = [1.0] * 4
        Rr = [1.0] * 4
        for q, m, lead in self.hist:
            opts = lead_options(R.hands[q]) if lead else follow_options(R.hands[q], R.t_led, R.t_n, R.trump, cfg)
            k = len(opts)
            if q != seat and k >= 2:
                if m not in opts:
                    G[q] = 0.0
                    Rr[q] = 0.0
                else:
                    g = self._greedy_lead(R.hands[q]) if lead else self._greedy_follow(R, q, opts)
                    if g == m:
                        G[q] = G[q] * ((1.0 - eps) + eps / k)
                    else:
                        G[q] = G[q] * (eps / k)
                    Rr[q] = Rr[q] * (1.0 / k)
            if lead:
                R.t_pos = 0
                self._start_trick(R, m)
            else:
                self._apply_follow(R, q, m)
                if R.t_pos == 4:
                    self._end_trick(R)
        w = 1.0
        for q in range(4):
            if q != seat:
                w = w * (G[q] * 0.5 + Rr[q] * 0.5)
        return w

    def _layout_weights(self, T: _Table, seat: int, hs: Sequence[Sequence[int]]) -> list[float]:
        if not self.cfg.search_infer or not self.hist:
            return [1.0] * len(hs)
        w = [self._layout_weight(T, seat, h) for h in hs]
        if not any(x > 0.0 for x in w):
            return [1.0] * len(hs)
        trunc = float(_config.SEARCH_TRUNC)
        if trunc > 0.0:
            total = 0.0
            for x in w:
                total = total + x
            cap = trunc * (total / len(hs))
            w = [cap if x > cap else x for x in w]
        return w

    def _search_play(self, T: _Table, seat: int, opts: list[int], leading: bool) -> int:
        S = self.cfg.search_samples
        S1 = max(1, S // 4)
        hs = [self._search_sample(T, seat) for _ in range(S)]
        w = self._layout_weights(T, seat, hs)
        totals = []
        for m in opts:
            t = 0.0
            for si in range(S1):
                t += w[si] * self._play_value(T, seat, m, hs[si], leading)
            totals.append(t)
        k = len(opts)
        keep = [k <= SEARCH_KEEP] * k
        if k > SEARCH_KEEP:
            for _ in range(SEARCH_KEEP):
                j = -1
                for i in range(k):
                    if not keep[i] and (j < 0 or totals[i] > totals[j]):
                        j = i
                keep[j] = True
        best = -1
        for i in range(k):
            if not keep[i]:
                continue
            for si in range(S1, S):
                totals[i] += w[si] * self._play_value(T, seat, opts[i], hs[si], leading)
            if best < 0 or totals[i] > totals[best]:
                best = i
        return opts[best]

    # ------------------------------------------------------------------ search (bidding)
    def _full_playout(self, lay: Sequence[int], declarer: int, strain: int) -> list[int]:
        """Tricks by seat of the whole hand played by greedy at every seat (greedy ignores the level)."""
        U = _Table()
        U.hands, U.tricks, U.played, U.gone, U.voids = list(lay), [0, 0, 0, 0], 0, [0, 0, 0, 0], [0, 0, 0, 0]
        U.trump, U.declarer, U.level = strain, declarer, 0
        U.leader = declarer if self.cfg.first_leader == 0 else (declarer + self.cfg.play_step) % 4
        U.t_pos, U.t_lead, U.t_n, U.t_led, U.t_best, U.t_key, U.t_trump, U.t_plays = 0, 0, 0, 0, 0, 0, 0, []
        self._start_trick(U, self._greedy_lead(U.hands[U.leader]))
        self._greedy_rest(U)
        return U.tricks

    def _finish_auction(self, lay: Sequence[int], seat: int, dealer: int, call: int, current: int, bidder: int,
                        passes: int, opening: int) -> tuple[int, int]:
        """(declarer, code) after ``seat`` calls ``call``: the others by their table policy (a search
        bidder as ``expected``), ``seat`` passing later; (-1, -1) = passed out."""
        caller, c = seat, call
        while True:
            if c >= 0:
                current, bidder, passes = c, caller, 0
            elif current >= 0:
                passes += 1
                if passes == 3:
                    return bidder, current
            else:
                opening += 1
                if opening == 4:
                    return (dealer, 0) if self.cfg.passout_0c else (-1, -1)
            caller = (caller + self.cfg.bid_step) % 4
            c = -1 if caller == seat else self._builtin_bid(caller, lay[caller], current, bidder)

    def _bid_layout(self, seat: int, hand: int) -> list[int]:
        lay: list[int] = []
        for _attempt in range(SEARCH_ATTEMPTS):
            unseen = [c for c in range(52) if not hand >> c & 1]
            for i in range(len(unseen) - 1, 0, -1):
                j = self.rs.bounded(i + 1)
                unseen[i], unseen[j] = unseen[j], unseen[i]
            lay = [0, 0, 0, 0]
            lay[seat] = hand
            for i, c in enumerate(unseen):
                lay[(seat + 1 + i // 13) % 4] |= 1 << c
            if self._auction_ok(seat, lay):
                break
        return lay

    def bid_values(self, seat: int, hand: int, dealer: int, current: int, bidder: int, passes: int, opening: int,
                   B: int) -> tuple[list[int], list[list[int]]]:
        """The candidate calls (-1 = pass, then every higher code) and values[ci][b]."""
        cand = [-1] + list(range(current + 1, 50))
        values = [[0] * B for _ in cand]
        for b in range(B):
            lay = self._bid_layout(seat, hand)
            cache: dict[int, list[int]] = {}
            for ci, call in enumerate(cand):
                d, code = self._finish_auction(lay, seat, dealer, call, current, bidder, passes, opening)
                if d < 0:
                    continue
                key = 5 * d + code % 5
                if key not in cache:
                    cache[key] = self._full_playout(lay, d, code % 5)
                values[ci][b] = finals_for(cache[key], d, code // 5, self.cfg)[seat]
        return cand, values

    def _search_bid(self, seat: int, hand: int, dealer: int, current: int, bidder: int, passes: int,
                    opening: int) -> int:
        cand, values = self.bid_values(seat, hand, dealer, current, bidder, passes, opening, self.cfg.bid_samples)
        best, best_tot = 0, None
        for ci in range(len(cand)):
            tot = sum(values[ci])
            if best_tot is None or tot > best_tot:
                best, best_tot = ci, tot
        return cand[best]

    # ------------------------------------------------------------------ one decision
    def _user_play(self, T: _Table, seat: int, opts: list[int], dealer: int) -> int:
        from kaptai.heaven11.policies import PlayerView

        ids = lambda m: tuple(i for i in range(52) if m >> i & 1)  # noqa: E731
        leading = T.t_pos == 4 or T.t_pos == 0
        trick = () if leading else tuple(
            (self._seat_at(T, i), ids(p)) for i, p in enumerate(T.t_plays))
        view = PlayerView(seat, "play", ids(T.hands[seat]), dealer, tuple(self.calls), 5 * T.level + T.trump, T.declarer, T.level,
                          T.trump, trick, tuple(ids(m) for m in opts), tuple(T.tricks), ids(T.played), tuple(T.voids),
                          self.rs, tuple((s, ids(m)) for s, m, _lead in self.hist))
        choice = self.policies[seat].play(view)
        try:
            cards = parse_cards(choice)
        except Exception as exc:
            raise IllegalPlayError(f"seat {seat} played {choice!r}: {exc}") from None
        m = 0
        for c in cards:
            m |= 1 << c
        if m not in opts:
            text = format_cards(sorted(cards))
            what = "lead" if leading else "follow"
            raise IllegalPlayError(f'illegal {what} "{text}" by seat {seat}: not one of the {len(opts)} legal plays')
        return m

    def _choose(self, T: _Table, seat: int, opts: list[int], leading: bool, dealer: int) -> int:
        code = self.codes[seat]
        if code < 0:
            return self._user_play(T, seat, opts, dealer)
        if len(opts) == 1:
            return opts[0]
        if code == PLAY_CODES["random"]:
            return opts[self.rs.bounded(len(opts))]
        if code == PLAY_CODES["greedy"]:
            return self._greedy_lead(T.hands[seat]) if leading else self._greedy_follow(T, seat, opts)
        if code == PLAY_CODES["search"]:
            return self._search_play(T, seat, opts, leading)
        return self._rollout(T, seat, opts, leading)

    # ------------------------------------------------------------------ one hand
    def play_hand(self, out: dict, h: int, dealer: int) -> int:
        """Play hand ``h`` dealt by ``dealer``; returns the next dealer."""
        cfg = self.cfg
        self.hand_index, self.step = h, 0
        redeals, forced = 0, 0
        while True:
            hands = self._deal()
            for s in range(4):
                self._log(s, A_DEAL, hands[s], 13)
            if cfg.contract is not None:
                declarer, code = dealer, 5 * cfg.contract[0] + cfg.contract[1]
                self.calls = []
                self.call_codes = []
                break
            declarer, code = self._auction(hands, dealer)
            if declarer >= 0:
                break
            if cfg.passout_0c or redeals >= MAX_REDEALS:
                declarer, code, forced = dealer, 0, 1
                self._log(dealer, A_FORCED, 0, 0)
                break
            redeals += 1
            self._log(dealer, A_PASSOUT, 0, redeals)
        T = _Table()
        T.hands = list(hands)
        T.tricks = [0, 0, 0, 0]
        T.played = 0
        T.gone = [0, 0, 0, 0]
        T.voids = [0, 0, 0, 0]
        T.level, T.trump = divmod(code, 5)
        T.declarer = declarer
        T.leader = declarer if cfg.first_leader == 0 else (declarer + cfg.play_step) % 4
        T.t_pos, T.t_lead, T.t_n, T.t_led, T.t_best, T.t_key, T.t_trump, T.t_plays = 4, 0, 0, 0, 0, 0, 0, []
        self.hist = []
        plays = 0
        while T.hands[T.leader]:
            seat = T.leader
            opts = lead_options(T.hands[seat])
            T.t_pos = 0
            lead = self._choose(T, seat, opts, True, dealer)
            self._start_trick(T, lead)
            self.hist.append((seat, lead, True))
            self._log(seat, A_LEAD, lead, T.t_n)
            while T.t_pos < 4:
                seat = self._seat_at(T, T.t_pos)
                opts = follow_options(T.hands[seat], T.t_led, T.t_n, T.trump, cfg)
                m = self._choose(T, seat, opts, False, dealer)
                kind = self._apply_follow(T, seat, m)
                self.hist.append((seat, m, False))
                self._log(seat, A_FOLLOW, m, kind)
            w = self._end_trick(T)
            self._log(w, A_WIN, 0, T.t_n)
            plays += 1
        f = finals_for(T.tricks, declarer, T.level, cfg)
        draw = int(T.level == 0 and f == [0, 0, 0, 0] and
                   [T.tricks[(declarer + i * cfg.play_step) % 4] for i in range(4)] == [4, 3, 3, 3])
        for s in range(4):
            self._log(s, A_SCORE, 0, f[s])
        out["dealer"][h] = dealer
        out["declarer"][h] = declarer
        out["level"][h] = T.level
        out["strain"][h] = T.trump
        out["forced"][h] = forced
        out["redeals"][h] = redeals
        out["draw"][h] = draw
        out["plays"][h] = plays
        out["tricks"][h] = T.tricks
        out["finals"][h] = f
        out["hands"][h] = hands
        return dealer if draw else (dealer + cfg.bid_step) % 4


def run_hands(cfg: EngineConfig, policies: Sequence[Any], bit_generator: np.random.BitGenerator, hands: int, *,
              bidding: Sequence[str] = ("expected",) * 4, record: int = 0,
              decks: np.ndarray | None = None,
              on_hand: Callable[[int, dict[str, np.ndarray], np.ndarray], None] | None = None,
              ) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``hands`` hands (trusted, validated inputs; see :func:`kaptai.heaven11.engine.run_hands`).

    ``on_hand(h, out, log)``, when given, is called as soon as hand ``h`` is over, with its
    outcome row (``out[key]``: the run's ``out[key][h:h + 1]``) and its log rows (empty past
    ``record``): what the run returns, hand by hand, while it runs.
    """
    rs = RandomStream(bit_generator)
    E = _Engine(cfg, policies, bidding, rs, decks)
    out = new_outcomes(hands)
    dealer = cfg.first_dealer if cfg.first_dealer >= 0 else rs.bounded(4)
    for h in range(hands):
        E.recording = h < record
        start = len(E.log)
        dealer = E.play_hand(out, h, dealer)
        if on_hand is not None:
            on_hand(h, {key: v[h:h + 1].copy() for key, v in out.items()},
                    np.array(E.log[start:], dtype=np.int64).reshape(-1, 6))
    log = np.array(E.log, dtype=np.int64).reshape(-1, 6)
    return out, log


class HandState:
    """One hand to step through play by play (the reference engine's rules, no policies).

    Parameters
    ----------
    hands : 4 card sets
        The seats' 13 cards each (text or ids), seat 0..3.
    declarer : int
    contract : bid
        ``'3C'``, ``(3, 0)`` …
    cfg : EngineConfig, optional
        Rules and directions (default :func:`kaptai.heaven11.config.make_config`).

    Examples
    --------
    >>> from kaptai.heaven11.cards import DECK
    >>> st = HandState([DECK[13 * s:13 * s + 13] for s in range(4)], declarer=0, contract="1S")
    >>> st.to_move, len(st.options())
    (0, 377)
    >>> st.play("2S")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.config.IllegalPlayError: illegal lead "2S" by seat 0: not one of the 377 legal plays
    >>> st.play("AC"); st.to_move
    1
    """

    def __init__(self, hands: Sequence[Any], declarer: int, contract: Any, cfg: EngineConfig | None = None):
        from kaptai.errors import InvalidHandError
        from kaptai.heaven11.cards import parse_hand
        from kaptai.heaven11.config import make_config

        self.cfg = cfg if cfg is not None else make_config()
        if len(hands) != 4:
            raise InvalidHandError(f"got {len(hands)} hands, expected 4")
        masks = []
        for h in hands:
            m = 0
            for c in parse_hand(h, 13):
                m |= 1 << c
            masks.append(m)
        seen = 0
        for m in masks:
            if seen & m:
                c = (seen & m & -(seen & m)).bit_length() - 1
                raise InvalidHandError(f'card "{format_cards([c])}" is dealt to two seats')
            seen |= m
        if not (isinstance(declarer, (int, np.integer)) and 0 <= declarer < 4):
            raise IllegalPlayError(f"declarer={declarer!r}: expected a seat 0-3")
        bid = parse_bid(contract) if not isinstance(contract, tuple) else parse_bid(contract)
        if bid is None:
            raise IllegalPlayError("contract PASS: give a bid such as '0C'")
        self._E = _Engine(self.cfg, ["greedy"] * 4, ["never"] * 4, None, None)
        T = _Table()
        T.hands, T.tricks, T.played, T.voids = list(masks), [0, 0, 0, 0], 0, [0, 0, 0, 0]
        T.gone = [0, 0, 0, 0]
        T.level, T.trump = bid
        T.declarer = int(declarer)
        T.leader = T.declarer if self.cfg.first_leader == 0 else (T.declarer + self.cfg.play_step) % 4
        T.t_pos, T.t_lead, T.t_n, T.t_led, T.t_best, T.t_key, T.t_trump, T.t_plays = 4, 0, 0, 0, 0, 0, 0, []
        self._T = T
        self.history: list[tuple[int, tuple[int, ...], int]] = []

    @property
    def finished(self) -> bool:
        """All cards played."""
        return self._T.t_pos == 4 and self._T.hands[self._T.leader] == 0

    @property
    def to_move(self) -> int:
        """The seat to play (-1 when finished)."""
        T = self._T
        if self.finished:
            return -1
        return T.leader if T.t_pos == 4 else self._E._seat_at(T, T.t_pos)

    @property
    def tricks(self) -> tuple[int, int, int, int]:
        """Tricks won by each seat so far."""
        return tuple(self._T.tricks)  # type: ignore[return-value]

    def hand(self, seat: int) -> tuple[int, ...]:
        """A seat's cards now."""
        return tuple(c for c in range(52) if self._T.hands[seat] >> c & 1)

    def _option_masks(self) -> list[int]:
        T = self._T
        seat = self.to_move
        if T.t_pos == 4:
            return lead_options(T.hands[seat])
        return follow_options(T.hands[seat], T.t_led, T.t_n, T.trump, self.cfg)

    def options(self) -> list[tuple[int, ...]]:
        """The legal plays of the seat to move, in canonical order."""
        if self.finished:
            return []
        return [tuple(c for c in range(52) if m >> c & 1) for m in self._option_masks()]

    def play(self, cards: Any) -> None:
        """Play ``cards`` for the seat to move; an illegal play raises :class:`IllegalPlayError`
        naming it and leaves the state unchanged."""
        if self.finished:
            raise IllegalPlayError("the hand is finished")
        seat = self.to_move
        try:
            ids = parse_cards(cards)
        except Exception as exc:
            raise IllegalPlayError(f"seat {seat} played {cards!r}: {exc}") from None
        m = 0
        for c in ids:
            m |= 1 << c
        opts = self._option_masks()
        T = self._T
        leading = T.t_pos == 4
        if m not in opts:
            what = "lead" if leading else "follow"
            raise IllegalPlayError(f'illegal {what} "{format_cards(sorted(ids))}" by seat {seat}: '
                                   f"not one of the {len(opts)} legal plays")
        if leading:
            self._E._start_trick(T, m)
            kind = 0
        else:
            kind = self._E._apply_follow(T, seat, m)
        self.history.append((seat, tuple(sorted(ids)), kind))
        if T.t_pos == 4:
            self._E._end_trick(T)

    def finals(self) -> list[int]:
        """Final scores by seat (the hand must be finished)."""
        if not self.finished:
            raise IllegalPlayError("the hand is not finished")
        return finals_for(self._T.tricks, self._T.declarer, self._T.level, self.cfg)
