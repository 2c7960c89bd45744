"""The Nantong advisor's top row as a player, against max_melds in its place, on the same deals.

``python benchmarks/nantong_advise_duel.py DEALS SEED [--field max_melds|chase_qing|chase_hun]
[--samples N] [--variant rank_only|winner_collects] [--workers 2] [--modes field,typed,top,pick] [--guard 1]``

One seat discards by the advisor (:func:`kaptai.nantong.play.advice`, the table ``kaptai play``'s
hints and ``kaptai advise nantong`` show, at a fixed ``--samples`` layouts, default 64; its claims,
kongs and wins are max_melds'), the other seats play the field policy; the seat is rotated through
the 3 active seats on the same walls (duplicate deals: the reference engine shuffles the whole wall
from the deal's stream before anyone acts), once per mode:

* ``field``: max_melds at the seat (the baseline: the field policy's own result when the field is
  max_melds);
* ``typed``: the advisor's top row on the position typed as before ``others``: the other seats'
  sets among the cards seen, each other seat dealt 22 concealed cards besides
  (``kaptai.nantong.play.USE_OTHERS = False``; the discards pongs were made on counted once, as
  today, where the old typing counted them twice); where that position leaves no stock (late in a
  hand) the advisor refuses it and the seat plays max_melds' discard (counted);
* ``top``: the advisor's top row (rank 1: the best value, or among the options its layouts cannot
  tell from the best, the readiest hand, then the most live outs) with the other seats' sets as
  theirs (``others``), what ``kaptai play``'s hints and ``kaptai review`` use;
* ``pick``: the search player's rule on the advisor's layouts: max_melds' discard unless the best
  value leads it by more than ``guard`` (1) standard error of their paired difference
  (``make_config(guard=...)``, docs/nantong.md, "Choice").

Every advisor call of a (deal, seat, decision) uses the same seed in every mode.  It prints each
mode's net per hand (the variant's settlement: hand wins under ``rank_only``) and the paired
differences with their 95% intervals over deals.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import deal_chunks, modes_arg, paired_text

from kaptai.nantong.policies import Policy

MODES = ("field", "typed", "top", "pick")


class AdvisorPlayer(Policy):
    """Discards the advisor's top row (``mode='top'``) or its search pick (``'pick'``); else max_melds."""

    name = "advisor"

    def __init__(self, rules, players: int, samples: int, seed: int, mode: str, guard: float):
        self.rules, self.players, self.samples, self.seed, self.mode, self.guard = (rules, players, samples, seed,
                                                                                     mode, guard)
        self.k = 0
        self.moved = 0
        self.refused = 0

    def discard(self, view):
        from kaptai.core.advise import capture_paired
        from kaptai.errors import RulesError
        from kaptai.nantong import play
        from kaptai.nantong.cards import parse_card

        mm = super().discard(view)
        if self.mode == "field":
            return mm
        self.k += 1
        play.USE_OTHERS = self.mode != "typed"
        try:
            with capture_paired() as got:
                df = play.advice(view, self.rules, self.players, samples=self.samples, seed=self.seed * 1_000 + self.k)
        except RulesError:
            self.refused += 1
            return mm
        finally:
            play.USE_OTHERS = True
        won = int((df.discard.astype(str) == "win").any())
        df = df[df.discard.astype(str) != "win"].reset_index(drop=True)
        if self.mode in ("top", "typed"):
            k = int(parse_card(str(df.discard.iloc[0])))
        else:
            k = _pick(df, got[-1], won, mm, self.guard)
        self.moved += int(k != mm)
        return k


def _pick(df, res, won: int, mm: int, guard: float) -> int:
    """max_melds' discard ``mm`` unless the best mean (of the table ``df``'s discards, the paired
    sums ``res`` behind it) beats it by more than ``guard`` standard errors of their paired difference."""
    from kaptai.core.review import match_options
    from kaptai.nantong.cards import format_card, parse_card

    index = match_options(res, {0: df.value.to_numpy(), 1: df.p_win.to_numpy(), 2: df.expected_hu.to_numpy(),
                                3: df.p_complete.to_numpy()}, range(won, res.sums.shape[1]))
    labels = [str(x) for x in df.discard]
    j_mm = index[labels.index(format_card(mm))]
    v = res.means(0)
    row = max(range(len(labels)), key=lambda j: (v[index[j]], -j))
    best = index[row]
    if best == j_mm:
        return mm
    d, lo, _ = res.diff(best, j_mm, 1.0)  # lo = d - 1 SE
    se = d - lo
    return int(parse_card(labels[row])) if d > guard * se else mm


def _chunk(args: tuple) -> dict:
    lo, hi, seed, field, samples, variant, modes, guard = args
    from kaptai.nantong.atlas import hand_rows
    from kaptai.nantong.config import make_config
    from kaptai.nantong.engine_reference import run_hands

    cfg = make_config(3, {"settlement": variant})
    A = cfg.active
    out = {m: np.zeros(hi - lo) for m in modes}
    asked = {m: [0, 0, 0] for m in modes}
    for i in range(lo, hi):
        for r in range(A):
            for mode in modes:
                pols: list = [field] * A
                me = AdvisorPlayer(cfg.rules, 3, samples, (seed * 100_003 + i) * 7 + r, mode, guard)
                pols[r] = me
                res = run_hands(cfg, pols, np.random.PCG64([seed, i]), 1)
                out[mode][i - lo] += float(hand_rows(res, cfg)["net"][0, r]) / A
                asked[mode][0] += me.k
                asked[mode][1] += me.moved
                asked[mode][2] += me.refused
    return {**{k: v.tolist() for k, v in out.items()}, "asked": asked}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("deals", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--field", default="max_melds", choices=["max_melds", "chase_qing", "chase_hun"])
    ap.add_argument("--samples", type=int, default=64)
    ap.add_argument("--variant", default="rank_only", choices=["rank_only", "winner_collects"])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--modes", default="field,typed,top,pick")
    ap.add_argument("--guard", type=float, default=1.0)
    a = ap.parse_args()
    modes = modes_arg(ap, a.modes, MODES)
    t0 = time.perf_counter()
    parts = deal_chunks(_chunk, a.deals, a.workers, a.seed, a.field, a.samples, a.variant, modes, a.guard)
    ev = {m: np.concatenate([p[m] for p in parts]) for m in modes}
    print(f"nantong {a.variant}, 3 players, field {a.field}, {a.deals} deals x 3 seats, seed {a.seed}, "
          f"{a.samples} layouts a decision ({time.perf_counter() - t0:.0f} s)")
    for a_m, b_m in (("field", "top"), ("field", "pick"), ("top", "pick"), ("field", "typed"), ("typed", "top")):
        if a_m in modes and b_m in modes:
            print("  net a hand: " + paired_text(a_m, ev[a_m], b_m, ev[b_m]))
    for mode in modes:
        n, moved, bad = (sum(p["asked"][mode][j] for p in parts) for j in (0, 1, 2))
        print(f"  {mode}: {n} decisions asked, {moved} differ from max_melds' discard, {bad} refused (max_melds' "
              f"discard played)")


if __name__ == "__main__":
    main()
