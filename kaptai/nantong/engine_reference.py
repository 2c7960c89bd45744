"""The pure-Python Nantong long-card engine: ``docs/nantong-engine.md`` line by line.

The test oracle of :mod:`kaptai.nantong._engine` (same random stream, same moves, same
outcomes) and the engine of user :class:`kaptai.nantong.policies.Policy` objects.  Hands are
scored by :func:`kaptai.nantong.scoring.score` on a score record built from the final position
(the reference decomposer), so the compiled scorer is checked too.

Examples
--------
>>> import numpy as np
>>> from kaptai.nantong.config import make_config
>>> from kaptai.nantong.engine_reference import run_hands
>>> out = run_hands(make_config(3), "max_melds", np.random.PCG64(3), 2)
>>> out["total"].shape, int(out["winner"].sum()) >= 2
((2, 3), True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Sequence

import numpy as np

from kaptai.core.sampling import RandomStream, SplitMixStream, Switch
from kaptai.nantong.cards import Meld, ScoreRecord
from kaptai.nantong.config import (
    DECK_CARDS,
    INFER_EPS,
    INFER_HORIZON,
    INFER_PRIOR,
    NET_SCALE,
    POLICY_CODES,
    EngineConfig,
    EngineError,
    new_outcomes,
)
from kaptai.nantong.policies import (
    Policy,
    PlayerView,
    builtin_claim,
    builtin_discard,
    builtin_self_kong,
    check_move,
    check_policies,
    table_complete,
    table_distance,
    table_waits,
)
from kaptai.nantong.policies import best_discard

__all__ = ["run_hands", "play_hand", "HandResult", "SplitMixStream", "search_stats"]

_M64 = (1 << 64) - 1
# record event types (docs/nantong-engine.md, *Record*)
EXPOSE, DRAW, DISCARD, SKONG, CLAIM, DEAD = range(6)
#: Totals over the process's reference search decisions (see :func:`search_stats`).
_STATS = {"decisions": 0, "fallbacks": 0, "ess": 0.0}


def search_stats() -> dict:
    """Totals over this process's reference ``search`` decisions: ``decisions`` (with two or more
    candidates), ``fallbacks`` (a seat whose particles all weighed 0) and ``ess`` (the sum of the
    decisions' effective sample sizes)."""
    return dict(_STATS)


def _resample(rng: RandomStream, w: list[float], total: float, n: int) -> list[int]:
    """Systematic resampling of ``n`` indices from the weights ``w`` (docs: *Layouts*)."""
    u = rng.next_uint32() / 4294967296.0
    c, acc = 0, w[0]
    out = []
    C = len(w)
    for i in range(n):
        x = (u + i) * total / n
        while acc <= x and c < C - 1:
            c += 1
            acc += w[c]
        out.append(c)
    return out


class _Huang(Exception):
    """The stock ran out when a card was due (荒牌)."""


class HandResult(dict):
    """One hand's outcome row (a dict of the outcome fields)."""


_SEARCH = POLICY_CODES["search"]
_CLAIMS = ("pass", "pong", "kong")


#: On (``with compiled_rollouts(): ...``), a ``'search'`` seat's discards and claims are made by
#: the compiled twin (:func:`kaptai.nantong._engine.search_pick`) from the decision's own stream:
#: the same candidates, layouts and choice, at the compiled speed.  The reference stays pure
#: Python (the tests' oracle) unless a caller turns it on; ``kaptai play`` does, since a person's
#: table runs this engine (:class:`kaptai.core.sampling.Switch`).
compiled_rollouts = Switch()


class _Hand:
    def __init__(self, cfg: EngineConfig, pols: list, stream: RandomStream, log: list | None = None,
                 hand_index: int = 0, beliefs: list | None = None):
        self.log = log
        self.beliefs = beliefs
        self.rec: list[tuple[int, int, int, int]] = []
        self.ndec = 0
        self.hand_index = hand_index
        self.rollout = False
        self.cfg = cfg
        self.pols = pols
        self.codes = [POLICY_CODES[p] if isinstance(p, str) else -1 for p in pols]
        self.stream = stream
        self.A = cfg.active
        self.hs = cfg.honour_sequence

    # -------------------------------------------------------------- helpers
    def _rec(self, typ: int, s: int, k: int = -1, n: int = 0) -> None:
        if not self.rollout:
            self.rec.append((typ, s, k, n))

    def draw(self) -> int:
        if self.pos >= DECK_CARDS - self.cfg.reserve:
            raise _Huang()
        k = self.deck[self.pos] // 4
        self.pos += 1
        return k

    def view(self, s: int, last: int | None = None) -> PlayerView:
        return PlayerView(seat=s, hand=tuple(self.c[s]), melds=tuple(tuple(m) for m in self.melds),
                          discards=tuple(self.discard_log), turned=tuple(self.turned),
                          stock_left=DECK_CARDS - self.cfg.reserve - self.pos, last_drawn=last,
                          extra={"honour_sequence": self.hs})

    def counted(self, typ: str, k: int) -> bool:
        if typ == "hezi":
            return False
        if typ == "qishou" and k in self.jiang_turned and self.cfg.jiang_set_replacement == 3:
            return False
        return True

    # -------------------------------------------------------------- the hand
    def play(self) -> dict:
        cfg, A = self.cfg, self.A
        deck = list(range(DECK_CARDS))
        for i in range(DECK_CARDS - 1, 0, -1):
            j = self.stream.bounded(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        self.deck = deck
        self.key = 0
        for i in range(8):
            self.key = self.key * 120 + deck[i]
        self.c = [[0] * 30 for _ in range(A)]
        pos = 0
        for s in range(A):
            n = 23 if s == 0 else 22
            for card in deck[pos:pos + n]:
                self.c[s][card // 4] += 1
            pos += n
        nt = 1 if cfg.single_turn else 2
        self.turned = [deck[pos + i] // 4 for i in range(nt)]
        self.pub = [0] * 30  # cards face up: turned, exposed sets, dead discards, the discard on the table
        for k in self.turned:
            self.pub[k] += 1
        pos += nt
        self.pos = pos
        self.jiang_turned = set(self.turned)
        self.double = nt == 2 and self.turned[0] == self.turned[1]
        self.melds: list[list[tuple[str, int]]] = [[] for _ in range(A)]
        self.discard_log: list[int] = []
        self.qishou_n = [0] * A
        self.yazhuang = [0] * A
        self.discards = 0
        self.claimed = 0  # discards taken into a meld or a winning hand
        self.dealt_qishou = [int(any(self._exposable(s, k) for k in range(30))) for s in range(A)]
        result = {"win_type": 0, "completers": [], "win_card": None, "discarder": -1}
        try:
            self._qishou()
            self._play(result)
        except _Huang:
            result = {"win_type": 0, "completers": [], "win_card": None, "discarder": -1}
        return self._finish(result)

    def _exposable(self, s: int, k: int) -> bool:
        """Whether kind ``k`` of seat ``s`` is a 起手 set (a, b or c of the spec)."""
        ck = self.c[s][k]
        return ((k not in self.jiang_turned and ck == 4) or (k in self.jiang_turned and not self.double and ck == 3)
                or (self.double and k == self.turned[0] and ck == 2))

    def _qishou(self) -> None:
        cfg, A = self.cfg, self.A
        if cfg.qishou_mode == 1:
            return
        declined: list[set[int]] = [set() for _ in range(A)]
        while True:
            changed = False
            for s in range(A):
                while True:
                    found = None
                    for k in range(30):
                        if k in declined[s]:
                            continue
                        ck = self.c[s][k]
                        if k not in self.jiang_turned and ck == 4:
                            found = (k, "qishou", 4, 1)
                        elif k in self.jiang_turned and not self.double and ck == 3:
                            found = (k, "qishou", 3, cfg.jiang_set_replacement)
                        elif self.double and k == self.turned[0] and ck == 2:
                            found = (k, "hezi", 2, 2)
                        if found:
                            break
                    if found is None:
                        break
                    k, typ, out, repl = found
                    if cfg.qishou_mode == 2 and self.codes[s] < 0:
                        pol = self.pols[s]
                        ans = pol.qishou(self.view(s), (typ, k))
                        if not isinstance(ans, (bool, np.bool_)):
                            check_move(pol, "qishou", ans, (True, False))
                        if not ans:
                            declined[s].add(k)
                            continue
                    self.c[s][k] -= out
                    self.pub[k] += out
                    self.melds[s].append((typ, k))
                    self.qishou_n[s] += 1
                    changed = True
                    self._rec(EXPOSE, s, k, out)
                    for _ in range(repl):
                        self.c[s][self.draw()] += 1
                        self._rec(DRAW, s)
            if not changed:
                break

    def _self_win(self, s: int, last: int | None) -> bool:
        if self.codes[s] >= 0:
            return True
        pol = self.pols[s]
        ans = pol.self_win(self.view(s, last))
        return bool(check_move(pol, "self_win", ans, (True, False)))

    def _play(self, result: dict) -> None:
        A = self.A
        # 3. 天成 and 壓莊
        if table_complete(self.c[0], self.hs) and self._self_win(0, None):
            result.update(win_type=3, completers=[0], win_card=None)
            return
        for s in range(A):
            if s == 0:
                self.yazhuang[s] = int(table_distance(self.c[0], self.hs) == 0)
            else:
                self.yazhuang[s] = int(table_waits(self.c[s], self.hs) != 0)
        self._loop(result, 0, "discard", None)

    def _loop(self, result: dict, cur: int, phase: str, last: int | None, fd: int = -1, fj: int = -1,
              fa: int = -1) -> None:
        """Play from seat ``cur`` in ``phase`` to the end; ``fd``: a forced first discard, ``fj``/``fa``:
        the forced answer of seat ``fj`` to it (search candidates)."""
        cfg, A = self.cfg, self.A
        after = 0
        while True:
            if phase == "draw":
                last = self.draw()
                self.c[cur][last] += 1
                self._rec(DRAW, cur)
                phase = "after"
            if phase == "after":
                after = 1
                if table_complete(self.c[cur], self.hs) and self._self_win(cur, last):
                    result.update(win_type=1, completers=[cur], win_card=last)
                    return
                opts = []
                for k in range(30):
                    if self.c[cur][k] == 4:
                        opts.append(("ckong", k))
                    elif self.c[cur][k] >= 1 and ("pong", k) in self.melds[cur]:
                        opts.append(("mkong", k))
                if self.codes[cur] >= 0:
                    choice = builtin_self_kong(self.codes[cur] if self.codes[cur] != _SEARCH else 0, opts, self.stream)
                elif opts:
                    pol = self.pols[cur]
                    choice = check_move(pol, "self_kong", pol.self_kong(self.view(cur, last), tuple(opts)),
                                        tuple(opts) + (None,))
                else:
                    choice = None
                if choice is not None:
                    typ, k = choice
                    self._rec(SKONG, cur, k, 4 if typ == "ckong" else 1)
                    if typ == "ckong":
                        self.c[cur][k] -= 4
                        self.pub[k] += 4
                        self.melds[cur].append(("ckong", k))
                    else:
                        self.c[cur][k] -= 1
                        self.pub[k] += 1
                        i = self.melds[cur].index(("pong", k))
                        self.melds[cur][i] = ("mkong", k)
                        if cfg.rob_kong:
                            for off in range(1, A):
                                j = (cur + off) % A
                                self.c[j][k] += 1
                                can = table_complete(self.c[j], self.hs)
                                self.c[j][k] -= 1
                                if can and self._claim(j, k, ("win", "pass"), cur) == "win":
                                    self.c[j][k] += 1
                                    self.melds[cur][i] = ("pong", k)  # the robbed card leaves the kong
                                    result.update(win_type=2, completers=[j], win_card=k, discarder=cur)
                                    return
                    last = self.draw()
                    self.c[cur][last] += 1
                    self._rec(DRAW, cur)
                    continue
                phase = "discard"
            if phase == "discard":
                if fd >= 0:
                    d, fd = fd, -1
                elif self.codes[cur] == _SEARCH:
                    d = self._search_discard(cur)
                elif self.codes[cur] >= 0:
                    d = builtin_discard(self.codes[cur], self.c[cur], self.hs, self.stream)
                else:
                    pol = self.pols[cur]
                    held = tuple(k for k in range(30) if self.c[cur][k])
                    d = check_move(pol, "discard", pol.discard(self.view(cur, last)), held)
                self.c[cur][d] -= 1
                self.pub[d] += 1
                self.discard_log.append(d)
                self.discards += 1
                self._rec(DISCARD, cur, d, after)
                after = 0
                answers = []
                for off in range(1, A):
                    j = (cur + off) % A
                    claims: list[str] = []
                    self.c[j][d] += 1
                    if table_complete(self.c[j], self.hs):
                        claims.append("win")
                    self.c[j][d] -= 1
                    if self.c[j][d] >= 3:
                        claims.append("kong")
                    if self.c[j][d] >= 2:
                        claims.append("pong")
                    if not claims:
                        continue
                    claims.append("pass")
                    if j == fj and "win" not in claims:
                        answers.append((j, _CLAIMS[fa]))
                    else:
                        answers.append((j, self._claim(j, d, tuple(claims), cur)))
                fj = -1
                wins = [j for j, a in answers if a == "win"]
                if wins:
                    if not cfg.multi_win:
                        wins = wins[:1]
                    for j in wins:
                        self.c[j][d] += 1
                        self.claimed += 1
                    result.update(win_type=2, completers=wins, win_card=d, discarder=cur)
                    return
                kongs = [j for j, a in answers if a == "kong"]
                pongs = [j for j, a in answers if a == "pong"]
                if kongs:
                    j = kongs[0]
                    self.c[j][d] -= 3
                    self.pub[d] += 3
                    self.melds[j].append(("mkong", d))
                    self.claimed += 1
                    self._rec(CLAIM, j, d, 3)
                    cur = j
                    last = self.draw()
                    self.c[cur][last] += 1
                    self._rec(DRAW, cur)
                    phase = "after"
                elif pongs:
                    j = pongs[0]
                    self.c[j][d] -= 2
                    self.pub[d] += 2
                    self.melds[j].append(("pong", d))
                    self.claimed += 1
                    self._rec(CLAIM, j, d, 2)
                    cur = j
                    last = None  # the seat that pongs drew nothing: the card drawn last was another seat's
                    phase = "discard"
                else:
                    self._rec(DEAD, cur, d)
                    cur = (cur + 1) % A
                    phase = "draw"

    # -------------------------------------------------------------- search (docs/nantong-engine.md, Search)
    def _clone(self) -> _Hand:
        """A copy of the position in which every seat plays max_melds (a rollout)."""
        h = object.__new__(_Hand)
        h.__dict__.update(self.__dict__)
        h.pols = ["max_melds"] * self.A
        h.codes = [0] * self.A
        h.deck = list(self.deck)
        h.c = [list(x) for x in self.c]
        h.melds = [list(m) for m in self.melds]
        h.discard_log = list(self.discard_log)
        h.pub = list(self.pub)
        h.qishou_n = list(self.qishou_n)
        h.rollout = True
        return h

    def _sample(self, p: int) -> _Hand:
        """A rollout copy with the cards seat ``p`` has not seen dealt at random (the spec's order)."""
        pool = [k for k in range(30) for _ in range(4 - self.c[p][k] - self.pub[k])]
        for i in range(len(pool) - 1, 0, -1):
            j = self.stream.bounded(i + 1)
            pool[i], pool[j] = pool[j], pool[i]
        h = self._clone()
        idx = 0
        for off in range(1, self.A):
            o = (p + off) % self.A
            m = sum(self.c[o])
            h.c[o] = [0] * 30
            for k in pool[idx:idx + m]:
                h.c[o][k] += 1
            idx += m
        rest = DECK_CARDS - self.pos
        if idx + rest != len(pool):
            raise EngineError("search: the unseen cards do not fill the hidden places")
        h.deck[self.pos:] = [4 * k for k in pool[idx:]]
        return h

    # ---------------------------------------------- inference (docs/nantong-engine.md, *Opponent model*)
    def _claim_dec(self, H: list[int], d: int, obs: int, a: list[float]) -> None:
        """The claim decision on ``d`` with hand ``H``; ``obs`` 0 pass, 1 pong, 2 kong."""
        H[d] += 1
        can_w = table_complete(H, self.hs)
        H[d] -= 1
        can_k = H[d] >= 3
        can_p = H[d] >= 2
        m = 1 + int(can_w) + int(can_k) + int(can_p)
        if m == 1:
            return
        eps = INFER_EPS
        q = [0.0, 0.0, 0.0, 0.0]
        if not can_w:
            if can_k:
                mm = 2
            elif can_p:
                before = table_distance(H, self.hs)
                H[d] -= 2
                after = best_discard(H, self.hs)[1]
                H[d] += 2
                mm = 1 if after <= before else 0
            else:
                mm = 0
            q[0] = 1.0 if obs == mm else 0.0
            q[1] = 1.0 if obs == (2 if can_k else (1 if can_p else 0)) else 0.0
            q[2] = 1.0 if obs == 0 else 0.0
            q[3] = 1.0 / m
        for i in range(4):
            a[i] = a[i] * ((1.0 - eps) * q[i] + eps / m)

    def _turn_dec(self, H: list[int], after: int, g: set[int], k: int, kn: int, a: list[float]) -> None:
        """The turn decision with hand ``H``: observed the discard ``k`` (``kn = 0``) or the kong
        of ``k`` (``kn`` 4 暗槓, 1 加槓)."""
        can_w = False
        nk = 0
        ft, fk = 0, -1
        if after:
            can_w = table_complete(H, self.hs)
            for kk in range(30):
                if H[kk] == 4:
                    nk += 1
                    if fk < 0:
                        ft, fk = 4, kk
                elif H[kk] >= 1 and kk in g:
                    nk += 1
                    if fk < 0:
                        ft, fk = 1, kk
        nd = 0
        n = 0
        for kk in range(30):
            if H[kk]:
                nd += 1
                n += H[kk]
        m = int(can_w) + nk + nd
        eps = INFER_EPS
        q = [0.0, 0.0, 0.0, 0.0]
        if not can_w:
            first = 1.0 if (kn > 0 and kn == ft and k == fk) else 0.0
            if nk:
                q[0] = first
                q[1] = first
            else:
                mm = best_discard(H, self.hs)[0]
                q[0] = 1.0 if (kn == 0 and k == mm) else 0.0
                q[1] = 1.0 if (kn == 0 and k == builtin_discard(1, H, self.hs, None)) else 0.0
            hun = -1
            for kk in (29, 28, 27):
                if H[kk]:
                    hun = kk
                    break
            if hun < 0:
                hun = mm if not nk else best_discard(H, self.hs)[0]
            q[2] = 1.0 if (kn == 0 and k == hun) else 0.0
            if kn > 0:
                q[3] = 0.5 * first
            else:
                q[3] = float(H[k]) / float(n)
                if nk:
                    q[3] = 0.5 * q[3]
        for i in range(4):
            a[i] = a[i] * ((1.0 - eps) * q[i] + eps / m)

    def _likelihood(self, t: int, h: list[int], rng: RandomStream) -> float:
        """``L_t(h)``: the likelihood of seat ``t``'s record given its concealed counts ``h``."""
        H = list(h)
        g = {k for typ, k in self.melds[t] if typ == "pong"}
        a = [1.0, 1.0, 1.0, 1.0]
        draws = 0
        for typ, s, k, n in reversed(self.rec):
            if typ == DEAD:
                if s != t:
                    self._claim_dec(H, k, 0, a)
                continue
            if s != t:
                continue
            if typ == DRAW:
                draws += 1
                if draws > INFER_HORIZON:
                    break
                x = rng.bounded(sum(H))
                for kk in range(30):
                    if x < H[kk]:
                        H[kk] -= 1
                        break
                    x -= H[kk]
            elif typ == EXPOSE:
                H[k] += n
            elif typ == CLAIM:
                H[k] += n
                if n == 2:
                    g.discard(k)
                self._claim_dec(H, k, 2 if n == 3 else 1, a)
            elif typ == DISCARD:
                H[k] += 1
                self._turn_dec(H, n, g, k, 0, a)
            else:  # SKONG
                H[k] += n
                if n == 1:
                    g.add(k)
                self._turn_dec(H, 1, g, k, n, a)
        pi = INFER_PRIOR
        return pi[0] * a[0] + pi[1] * a[1] + pi[2] * a[2] + pi[3] * a[3]

    def _particles(self, p: int, rng: RandomStream):
        """The particles of a decision of seat ``p`` (*Layouts*): per particle the other seats'
        hands and the pool left; the last seat's weights, their total, the smallest ESS."""
        A = self.A
        U0 = [4 - self.c[p][k] - self.pub[k] for k in range(30)]
        if min(U0) < 0:
            raise EngineError("search: the unseen cards do not fill the hidden places")
        F, S = self.cfg.particles, self.cfg.samples
        C = F * S if F > 0 else S
        parts: list[dict[int, list[int]]] = [{} for _ in range(C)]
        pools = [list(U0) for _ in range(C)]
        order = [(p + j) % A for j in range(1, A)]
        w = [1.0] * C
        total = float(C)
        ess_min = float(C)
        for idx, t in enumerate(order):
            nt = sum(self.c[t])
            w = []
            for c in range(C):
                U = pools[c]
                items = [k for k in range(30) for _ in range(U[k])]
                n = len(items)
                if n < nt:
                    raise EngineError("search: the unseen cards do not fill the hidden places")
                for i in range(nt):
                    j = i + rng.bounded(n - i)
                    items[i], items[j] = items[j], items[i]
                h = [0] * 30
                for k in items[:nt]:
                    h[k] += 1
                parts[c][t] = h
                pools[c] = [U[k] - h[k] for k in range(30)]
                w.append(self._likelihood(t, h, rng) if F > 0 else 1.0)
            total = 0.0
            sq = 0.0
            for x in w:
                total += x
                sq += x * x
            if total == 0.0:
                _STATS["fallbacks"] += 1
                w = [1.0] * C
                total = float(C)
                sq = float(C)
            ess = total * total / sq
            if ess < ess_min:
                ess_min = ess
            if idx < len(order) - 1:
                sel = _resample(rng, w, total, C)
                parts = [dict(parts[c]) for c in sel]
                pools = [list(pools[c]) for c in sel]
        return parts, pools, w, total, ess_min

    def _layouts(self, p: int):
        """A function drawing the decision's ``S`` layouts one by one (rollout copies)."""
        seed = (self.key * 0x9E3779B97F4A7C15 + self.ndec * 0xBF58476D1CE4E5B9 + p) & _M64
        self.ndec += 1
        rng = SplitMixStream(seed)
        parts, pools, w, total, ess = self._particles(p, rng)
        _STATS["decisions"] += 1
        _STATS["ess"] += ess
        if self.beliefs is not None:
            probs = [[0.0] * 30 for _ in range(self.A)]
            truth = [[0] * 30 for _ in range(self.A)]
            for t in range(self.A):
                if t == p:
                    continue
                for k in range(30):
                    acc = 0.0
                    for c in range(len(w)):
                        if parts[c][t][k] >= 1:
                            acc += w[c]
                    probs[t][k] = acc / total
                    truth[t][k] = int(self.c[t][k] >= 1)
            unseen = [4 - self.c[p][k] - self.pub[k] for k in range(30)]
            self.beliefs.append((self.hand_index, p, ess, probs, truth, unseen))
        sel = _resample(rng, w, total, self.cfg.samples)
        it = iter(sel)

        def make() -> _Hand:
            c = next(it)
            return self._layout(parts[c], pools[c], rng, "search")

        return make

    def _layout(self, part: Any, pool: Any, rng: Any, who: str) -> _Hand:
        """A copy of the hand with the hidden hands ``part`` (seat -> counts) and the unseen kinds
        ``pool`` shuffled (Fisher-Yates on ``rng``) into the hidden places of the wall."""
        h = self._clone()
        for t, hand in part.items():
            h.c[t] = list(hand)
        items = [k for k in range(30) for _ in range(pool[k])]
        for i in range(len(items) - 1, 0, -1):
            j = rng.bounded(i + 1)
            items[i], items[j] = items[j], items[i]
        if len(items) != DECK_CARDS - self.pos:
            raise EngineError(f"{who}: the unseen cards do not fill the hidden places")
        h.deck[self.pos:] = [4 * k for k in items]
        return h

    def _net12(self, row: dict, p: int) -> int:
        """12 x seat ``p``'s net of a finished rollout under the settlement (exact)."""
        t, w, A = row["total"], row["winner"], self.A
        k = sum(w)
        if k == 0:
            return 0
        st = self.cfg.settlement
        if st == 0:
            return NET_SCALE // k if w[p] else 0
        if st == 1:
            return NET_SCALE * (A * t[p] - sum(t))
        if w[p]:
            return (NET_SCALE // k) * (A - k) * t[p]
        return -(NET_SCALE // k) * sum(t[i] for i in range(A) if w[i])

    def _rollout(self, h: _Hand, p: int, cur: int, fd: int, fj: int = -1, fa: int = -1) -> int:
        res = {"win_type": 0, "completers": [], "win_card": None, "discarder": -1}
        try:
            h._loop(res, cur, "discard", None, fd, fj, fa)
        except _Huang:
            res = {"win_type": 0, "completers": [], "win_card": None, "discarder": -1}
        return self._net12(h._finish(res), p)

    def _log(self, p: int, typ: int, n: int, choice: int, value: int) -> None:
        if self.log is not None:
            self.log.append((self.hand_index, p, typ, n, choice, value))

    def _discard_candidates(self, p: int) -> list[int]:
        c = self.c[p]
        items = []
        for k in range(29, -1, -1):
            if c[k]:
                c[k] -= 1
                items.append((table_distance(c, self.hs), k))
                c[k] += 1
        best = min(d for d, _ in items)
        items.sort(key=lambda x: x[0])  # stable: ties keep the highest kind first
        return [k for d, k in items if d <= best + self.cfg.margin][: self.cfg.candidates]

    def _best(self, sums: list[int], sq: list[int]) -> int:
        """The best mean (first on ties), unless it fails the guard's paired test against the first."""
        b = max(range(len(sums)), key=lambda i: (sums[i], -i))
        z2 = float(self.cfg.guard) * float(self.cfg.guard)
        if b == 0 or z2 <= 0.0:
            return b
        S = float(self.cfg.samples)
        s1, s2 = float(sums[b] - sums[0]), float(sq[b])
        return b if s1 * s1 * (S - 1.0) > z2 * (S * s2 - s1 * s1) else 0

    def _values(self, make, cand: list, p: int, vals: list | None = None) -> tuple[list[int], list[int]]:
        """Sums over the samples of 12 x ``p``'s net per candidate and of the squared paired
        differences to the first candidate; ``make()`` draws one sample, returns (copy, rollout).
        ``vals`` (a list per candidate), if given, receives every per-sample value ``v_{i,t}``."""
        sums, sq = [0] * len(cand), [0] * len(cand)
        for _ in range(self.cfg.samples):
            smp, roll = make()
            v0 = 0
            for i, x in enumerate(cand):
                v = roll(smp._clone(), x)
                if i == 0:
                    v0 = v
                sums[i] += v
                sq[i] += (v - v0) * (v - v0)
                if vals is not None:
                    vals[i].append(v)
        return sums, sq

    def _ranked(self, p: int, cand: list[int], sums: list[int], vals: list[list[int]]) -> int:
        """The candidate chosen by rank: docs/nantong-engine.md, *Search*, paragraph "Choice by rank".

        Tied with the best sum ``b``: ``b`` and, when ``S >= 2``, every candidate whose paired 95%
        interval of the mean difference to ``b`` reaches 0; among them the least distance after
        the discard, then the most live outs, then the largest sum, then the first."""
        b = max(range(len(sums)), key=lambda i: (sums[i], -i))
        S = float(self.cfg.samples)
        c, pub, hs = self.c[p], self.pub, self.hs
        best_key, best = None, b
        for i, k in enumerate(cand):
            if i != b:
                if self.cfg.samples < 2:
                    continue
                s1 = s2 = 0.0
                for t in range(self.cfg.samples):
                    d = float(vals[i][t] - vals[b][t])
                    s1 += d
                    s2 += d * d
                se2 = (s2 - s1 * s1 / S) / (S - 1.0) * S
                if s1 < 0 and s1 * s1 > 1.96 * 1.96 * se2:
                    continue
            c[k] -= 1
            dist = table_distance(c, hs)
            outs = 0
            if dist == 0:
                m = table_waits(c, hs)
                outs = sum(max(0, 4 - c[w] - pub[w]) for w in range(30) if m >> w & 1)
            c[k] += 1
            key = (dist, -outs, -sums[i])  # the first in canonical order on equal keys
            if best_key is None or key < best_key:
                best_key, best = key, i
        return best

    def _compiled_pick(self, p: int, typ: int, cur: int = -1, d: int = -1, options: Sequence[str] = ()) -> int:
        """The decision made by the compiled twin (:data:`compiled_rollouts`): the same
        candidates, layouts and choice; the hand's decision count and log kept as here."""
        from kaptai.nantong._engine import search_pick

        choice, n, value, self.ndec = search_pick(self.cfg, hand_state(self), p, self.key & _M64, self.ndec, cur, d,
                                                  int("kong" in options), int("pong" in options))
        self._log(p, typ, n, choice, value)
        return int(choice)

    def _search_discard(self, p: int) -> int:
        cand = self._discard_candidates(p)
        if len(cand) <= 1:
            return cand[0]
        if compiled_rollouts and self.beliefs is None:
            return self._compiled_pick(p, 0)

        layout = self._layouts(p)

        def make():
            return layout(), lambda h, k: self._rollout(h, p, p, k)

        if self.cfg.choice == 1:
            vals: list[list[int]] = [[] for _ in cand]
            sums, _sq = self._values(make, cand, p, vals)
            b = self._ranked(p, cand, sums, vals)
        else:
            sums, sq = self._values(make, cand, p)
            b = self._best(sums, sq)
        self._log(p, 0, len(cand), cand[b], sums[b])
        return cand[b]

    def _search_claim(self, cur: int, d: int, j: int, options: Sequence[str]) -> str:
        first = _CLAIMS.index(builtin_claim(0, self.c[j], d, options, self.hs, None))
        cand = [first] + [a for a in range(3) if a != first and _CLAIMS[a] in options]
        if len(cand) <= 1:
            return _CLAIMS[cand[0]]
        if compiled_rollouts and self.beliefs is None:
            return _CLAIMS[self._compiled_pick(j, 1, cur, d, options)]
        layout = self._layouts(j)

        def make():
            smp = undo_discard(layout(), cur, d)  # the discard is replayed with j's answer forced
            return smp, lambda h, a: self._rollout(h, j, cur, d, j, a)

        sums, sq = self._values(make, cand, j)
        b = self._best(sums, sq)
        self._log(j, 1, len(cand), cand[b], sums[b])
        return _CLAIMS[cand[b]]

    def _claim(self, j: int, kind: int, opts: tuple[str, ...], cur: int = -1) -> str:
        if self.codes[j] == _SEARCH:
            if "win" in opts:
                return "win"
            return self._search_claim(cur, kind, j, opts)
        if self.codes[j] >= 0:
            return builtin_claim(self.codes[j], self.c[j], kind, opts, self.hs, self.stream)
        pol = self.pols[j]
        return check_move(pol, "claim", pol.claim(self.view(j), kind, opts), opts)

    def _finish(self, result: dict) -> dict:
        from kaptai.nantong.scoring import hand_winners, score

        cfg, A = self.cfg, self.A
        completers = result["completers"]
        totals, raws, comp = [], [], []
        category = -1
        for s in range(A):
            hand = tuple(k for k in range(30) for _ in range(self.c[s][k]))
            melds = tuple(Meld(t, k) for t, k in self.melds[s])
            if s in completers:
                if result["win_type"] == 3:
                    win, wc = "tiancheng", None
                else:
                    win, wc = ("self" if result["win_type"] == 1 else "discard"), result["win_card"]
            else:
                win, wc = "none", None
            rec = ScoreRecord(jiang=tuple(self.turned), win=win, win_card=wc, hand=hand, melds=melds,
                              yazhuang=bool(self.yazhuang[s]))
            units = len(hand) + sum(3 for t, k in self.melds[s] if self.counted(t, k))
            if win == "none" and units != 22:
                sc = _nonwinner_score(rec, cfg)  # only when 荒牌 struck during 起手
            elif win == "none":
                sc = score(rec, cfg.rules)
            else:
                sc = score(rec, cfg.rules)
                if s == completers[0]:
                    category = ("tahe", "hunhe", "qinghe").index(sc.win_type)
            totals.append(sc.total)
            raws.append(sc.raw)
            comp.append(int(s in completers))
        winners = hand_winners(totals, [bool(x) for x in comp], cfg.rules, raws=raws)
        return {
            "total": totals, "raw": raws, "completer": comp,
            "winner": [int(s in winners) for s in range(A)], "qishou": list(self.qishou_n),
            "dealt_qishou": list(self.dealt_qishou),
            "win_type": result["win_type"], "category": category,
            "completer_seat": completers[0] if completers else -1, "discarder": result["discarder"],
            "double_jiang": int(self.double), "discards": self.discards,
            "stock_left": DECK_CARDS - cfg.reserve - self.pos,
        }


def _nonwinner_score(rec: ScoreRecord, cfg: EngineConfig):
    """A non-completer's score; the seat may hold one card more than 22 units (its turn)."""
    from kaptai.nantong import scoring

    r = cfg.rules
    items_dihu = 0
    for m in rec.melds:
        items_dihu += scoring.set_value(scoring._MELD_COLUMN[m.type], m.kind, rec.jiang, r)
    counts = np.bincount(np.asarray(rec.hand, dtype=np.int64), minlength=30)
    if r.nonwinner_concealed_triplets:
        for k in range(30):
            if counts[k] >= 3:
                items_dihu += scoring.set_value("anke", k, rec.jiang, r)
    wq = 0
    if r.nonwinner_wenqian:
        wq = scoring.WENQIAN[r.wenqian][int(min(counts[18], counts[19], counts[20]))]
    raw = items_dihu + wq
    return scoring.Score(total=scoring.potou(raw, r), raw=raw, chenghu=0, dihu=items_dihu, other=wq,
                         winning_card=0, wenqian=wq, multiplier=1, win_type=None, completer=False)


def play_hand(cfg: EngineConfig, policies: Any, stream: RandomStream) -> dict:
    """One hand on ``stream``; the outcome fields as a dict (per-seat fields as lists)."""
    pols = check_policies(policies, cfg.active)
    return _Hand(cfg, pols, stream).play()


def run_hands(cfg: EngineConfig, policies: Any, bit_generator: np.random.BitGenerator, hands: int,
              decision_log: list | None = None, belief_log: list | None = None) -> dict[str, np.ndarray]:
    """Play ``hands`` hands on one stream; the outcome arrays (:data:`~kaptai.nantong.config.OUTCOME_FIELDS`).

    ``decision_log``: a list that receives one tuple per ``search`` decision (hand, seat, type 0
    discard / 1 claim, candidates, choice, 12 x the sum of its nets), as the compiled engine's.
    ``belief_log``: a list that receives per search decision (hand, seat, effective sample size,
    beliefs ``[seat][kind]``, truth ``[seat][kind]`` (1 if the seat holds the kind), unseen
    copies per kind): docs/nantong-engine.md, *Layouts*."""
    pols = check_policies(policies, cfg.active)
    stream = RandomStream(bit_generator)
    out = new_outcomes(hands, cfg.active)
    for i in range(hands):
        row = _Hand(cfg, pols, stream, decision_log, i, belief_log).play()
        for name, arr in out.items():
            arr[i] = row[name]
    return out


# ----------------------------------------------------------------------------- review (kaptai.nantong.review_search)

#: The fields of a position that :func:`search_values` reads (:func:`hand_state`).
STATE_FIELDS = ("c", "melds", "pub", "pos", "deck", "turned", "discards", "qishou_n", "dealt_qishou", "yazhuang",
                "rec", "discard_log", "claimed")


def hand_state(h: _Hand) -> dict[str, Any]:
    """A copy of a reference hand's position (plain lists: picklable), for :func:`search_values`."""
    return {"c": [list(x) for x in h.c], "melds": [[(str(t), int(k)) for t, k in m] for m in h.melds],
            "pub": list(h.pub), "pos": int(h.pos), "deck": list(h.deck), "turned": list(h.turned),
            "discards": int(h.discards), "qishou_n": list(h.qishou_n), "dealt_qishou": list(h.dealt_qishou),
            "yazhuang": list(h.yazhuang), "rec": [tuple(e) for e in h.rec], "discard_log": list(h.discard_log),
            "claimed": int(h.claimed)}


def _from_state(cfg: EngineConfig, state: Any, stream: RandomStream) -> _Hand:
    h = _Hand(cfg, ["max_melds"] * cfg.active, stream)
    h.c = [list(x) for x in state["c"]]
    h.melds = [[(str(t), int(k)) for t, k in m] for m in state["melds"]]
    h.pub = list(state["pub"])
    h.pos = int(state["pos"])
    h.deck = list(state["deck"])
    h.turned = list(state["turned"])
    h.jiang_turned = set(h.turned)
    h.double = len(h.turned) == 2 and h.turned[0] == h.turned[1]
    h.discards = int(state["discards"])
    h.qishou_n = list(state["qishou_n"])
    h.dealt_qishou = list(state["dealt_qishou"])
    h.yazhuang = list(state["yazhuang"])
    h.rec = [tuple(e) for e in state["rec"]]
    h.discard_log = list(state.get("discard_log", ()))
    h.claimed = int(state.get("claimed", 0))
    h.key = 0
    return h


def search_values(cfg: EngineConfig, state: Any, seat: int, options: Sequence[int], stream: RandomStream,
                  layouts: int) -> tuple[list[list[int]], list[list[int]]]:
    """The ``search`` policy's own evaluation of every discard in ``options`` at a discard of
    seat ``seat`` (the twin of :func:`kaptai.nantong._engine.search_values`: the same values
    from the same stream): ``layouts`` layouts drawn as the search draws them (``cfg.particles``
    particles a layout, weighed by the opponent model on the record ``state['rec']``,
    resampled) from ``stream``, every option played out on each with ``max_melds`` at every
    seat.  Returns ``(nets, wins)``, per option per layout 12 x the seat's net and 12 x its
    share of the hand win.

    >>> import numpy as np
    >>> from kaptai.nantong.config import make_config
    >>> class _Stop(_Hand):
    ...     def _search_discard(self, p):
    ...         self.state = hand_state(self)
    ...         raise _Huang()
    >>> cfg = make_config(3)
    >>> h = _Stop(cfg, ["search"] * 3, RandomStream(np.random.PCG64(1)))
    >>> _ = h.play()
    >>> opts = [k for k in range(30) if h.state["c"][0][k]][:2]
    >>> nets, wins = search_values(cfg, h.state, 0, opts, RandomStream(np.random.PCG64(2)), 3)
    >>> len(nets), len(nets[0]), all(w in (0, 4, 6, 12) for row in wins for w in row)
    (2, 3, True)
    """
    import dataclasses

    if layouts < 1:
        raise ValueError(f"layouts={layouts}: expected at least 1")
    c2 = dataclasses.replace(cfg, samples=int(layouts))
    h = _from_state(c2, state, stream)
    for k in options:
        if not 0 <= int(k) < 30 or h.c[seat][int(k)] < 1:
            raise ValueError(f"option {k}: seat {seat} does not hold that kind")
    nets = [[0] * layouts for _ in options]
    wins = [[0] * layouts for _ in options]
    def discarding(k: int) -> Callable[[Any, dict], None]:
        return lambda r, res: r._loop(res, seat, "discard", None, k)

    for t, smp in enumerate(search_layouts(h, seat, layouts, stream, "search_values")):
        for i, k in enumerate(options):
            nets[i][t], wins[i][t] = played_out(h, smp._clone(), seat, discarding(int(k)))
    return nets, wins


def search_layouts(h: Any, seat: int, layouts: int, stream: RandomStream, tag: str) -> Iterator[Any]:
    """The ``layouts`` layouts the search plays out at seat ``seat``'s decision of hand ``h``
    (its particles weighed by the opponent model, resampled), each drawn from ``stream`` as it
    is asked for: a layout's play-outs draw from the stream before the next layout is drawn."""
    parts, pools, w, total, _ess = h._particles(seat, stream)
    for c in _resample(stream, w, total, int(layouts)):
        yield h._layout(parts[c], pools[c], stream, tag)


def played_out(h: Any, r: Any, seat: int, play: Callable[[Any, dict], None]) -> tuple[int, int]:
    """Seat ``seat``'s 12 x net and 12 x share of the hand win when ``play(r, result)`` plays the
    rest of the layout ``r`` (a copy of one of :func:`search_layouts`; a 荒牌 scores as none
    completed), under ``h``'s settlement."""
    res: dict = {"win_type": 0, "completers": [], "win_card": None, "discarder": -1}
    try:
        play(r, res)
    except _Huang:
        res = {"win_type": 0, "completers": [], "win_card": None, "discarder": -1}
    row = r._finish(res)
    nw = sum(row["winner"])
    return h._net12(row, seat), (NET_SCALE // nw if (nw and row["winner"][seat]) else 0)


def undo_discard(smp: Any, cur: int, d: int) -> Any:
    """Layout ``smp`` back to before seat ``cur``'s discard of ``d`` (the discard to be replayed
    with another seat's answer forced)."""
    smp.c[cur][d] += 1
    smp.pub[d] -= 1
    smp.discards -= 1
    smp.discard_log.pop()
    return smp
