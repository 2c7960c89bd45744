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

from typing import Any, Sequence

import numpy as np

from kaptai.core.sampling import RandomStream
from kaptai.nantong.cards import Meld, ScoreRecord
from kaptai.nantong.config import (
    DECK_CARDS,
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

__all__ = ["run_hands", "play_hand", "HandResult"]


class _Huang(Exception):
    """The stock ran out when a card was due (荒牌)."""


class HandResult(dict):
    """One hand's outcome row (a dict of the outcome fields)."""


class _Hand:
    def __init__(self, cfg: EngineConfig, pols: list, stream: RandomStream):
        self.cfg = cfg
        self.pols = pols
        self.codes = [POLICY_CODES[p] if isinstance(p, str) else -1 for p in pols]
        self.stream = stream
        self.A = cfg.active
        self.hs = cfg.honour_sequence

    # -------------------------------------------------------------- helpers
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
        self.c = [[0] * 30 for _ in range(A)]
        pos = 0
        for s in range(A):
            n = 23 if s == 0 else 22
            for card in deck[pos:pos + n]:
                self.c[s][card // 4] += 1
            pos += n
        nt = 1 if cfg.single_turn else 2
        self.turned = [deck[pos + i] // 4 for i in range(nt)]
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
                    self.melds[s].append((typ, k))
                    self.qishou_n[s] += 1
                    changed = True
                    for _ in range(repl):
                        self.c[s][self.draw()] += 1
            if not changed:
                break

    def _self_win(self, s: int, last: int | None) -> bool:
        if self.codes[s] >= 0:
            return True
        pol = self.pols[s]
        ans = pol.self_win(self.view(s, last))
        return bool(check_move(pol, "self_win", ans, (True, False)))

    def _play(self, result: dict) -> None:
        cfg, A = self.cfg, self.A
        # 3. 天成 and 壓莊
        if table_complete(self.c[0], self.hs) and self._self_win(0, None):
            result.update(win_type=3, completers=[0], win_card=None)
            return
        for s in range(A):
            if s == 0:
                self.yazhuang[s] = int(table_distance(self.c[0], self.hs) == 0)
            else:
                self.yazhuang[s] = int(table_waits(self.c[s], self.hs) != 0)
        cur, phase, last = 0, "discard", None
        while True:
            if phase == "draw":
                last = self.draw()
                self.c[cur][last] += 1
                phase = "after"
            if phase == "after":
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
                    choice = builtin_self_kong(self.codes[cur], opts, self.stream)
                elif opts:
                    pol = self.pols[cur]
                    choice = check_move(pol, "self_kong", pol.self_kong(self.view(cur, last), tuple(opts)),
                                        tuple(opts) + (None,))
                else:
                    choice = None
                if choice is not None:
                    typ, k = choice
                    if typ == "ckong":
                        self.c[cur][k] -= 4
                        self.melds[cur].append(("ckong", k))
                    else:
                        self.c[cur][k] -= 1
                        i = self.melds[cur].index(("pong", k))
                        self.melds[cur][i] = ("mkong", k)
                        if cfg.rob_kong:
                            for off in range(1, A):
                                j = (cur + off) % A
                                self.c[j][k] += 1
                                can = table_complete(self.c[j], self.hs)
                                self.c[j][k] -= 1
                                if can and self._claim(j, k, ("win", "pass")) == "win":
                                    self.c[j][k] += 1
                                    self.melds[cur][i] = ("pong", k)  # the robbed card leaves the kong
                                    result.update(win_type=2, completers=[j], win_card=k, discarder=cur)
                                    return
                    last = self.draw()
                    self.c[cur][last] += 1
                    continue
                phase = "discard"
            if phase == "discard":
                if self.codes[cur] >= 0:
                    d = builtin_discard(self.codes[cur], self.c[cur], self.hs, self.stream)
                else:
                    pol = self.pols[cur]
                    held = tuple(k for k in range(30) if self.c[cur][k])
                    d = check_move(pol, "discard", pol.discard(self.view(cur, last)), held)
                self.c[cur][d] -= 1
                self.discard_log.append(d)
                self.discards += 1
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
                    answers.append((j, self._claim(j, d, tuple(claims))))
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
                    self.melds[j].append(("mkong", d))
                    self.claimed += 1
                    cur = j
                    last = self.draw()
                    self.c[cur][last] += 1
                    phase = "after"
                elif pongs:
                    j = pongs[0]
                    self.c[j][d] -= 2
                    self.melds[j].append(("pong", d))
                    self.claimed += 1
                    cur = j
                    phase = "discard"
                else:
                    cur = (cur + 1) % A
                    phase = "draw"

    def _claim(self, j: int, kind: int, opts: tuple[str, ...]) -> str:
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


def run_hands(cfg: EngineConfig, policies: Any, bit_generator: np.random.BitGenerator, hands: int) -> dict[str, np.ndarray]:
    """Play ``hands`` hands on one stream; the outcome arrays (:data:`~kaptai.nantong.config.OUTCOME_FIELDS`)."""
    pols = check_policies(policies, cfg.active)
    stream = RandomStream(bit_generator)
    out = new_outcomes(hands, cfg.active)
    for i in range(hands):
        row = _Hand(cfg, pols, stream).play()
        for name, arr in out.items():
            arr[i] = row[name]
    return out
