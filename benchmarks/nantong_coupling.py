"""Would coupling each seat's draws (instead of one wall) make Nantong's duplicate deals pay?

``python benchmarks/nantong_coupling.py DEALS [--coupling wall|seat] [--seed0 1000]``

Nantong's duplicate league (``kaptai league nantong --diff``) needs about as many hands as
independent deals for the same interval on a difference between two policies (variance ratio
1.0 to 1.2, docs/nantong.md): two policies that discard differently once shift the claims, the
turn order and so every later draw from the shared wall.  This experiment asks whether a
different coupling of the draws keeps the two games closer.

``wall`` (the engine's): the stock is one shuffled wall, drawn from the front.  ``seat``: the
deal, the turned cards and the stock's cards are the same, but each seat draws the first card of
its **own** random permutation of the stock (from the deal's seed) that nobody has drawn yet.
Every game still has the rules' distribution -- at each draw, the cards left in the stock are
exchangeable given all that happened, so the next one is uniform among them, as from a wall --
only the coupling across the arrangements of a deal changes: a seat keeps drawing what it would
have drawn whoever claimed before it.

Each deal (``PCG64`` of ``seed0 + i``) is played with ``max_melds`` at every seat and with each of
``random``, ``chase_qing``, ``chase_hun`` at each seat in turn against ``max_melds`` (3 players,
default rules, the reference engine; the measure is hand wins).  Printed per pair: the mean
per-deal difference, its standard error, and the variance ratio (independent deals, each policy
and seat its own deals, over duplicate deals; :class:`kaptai.core.league._Series`'s formulas).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from kaptai.core.sampling import RandomStream
from kaptai.nantong import engine_reference as er
from kaptai.nantong.config import make_config

DECK = 120
BASE = "max_melds"
OTHERS = ("random", "chase_qing", "chase_hun")


class SeatCoupled(er._Hand):
    """The reference hand with each seat drawing from its own permutation of the stock."""

    seed = 0

    def draw(self) -> int:
        if self.pos >= DECK - self.cfg.reserve:
            raise er._Huang()
        caller = sys._getframe(1).f_locals  # the drawing seat: `cur` in the play loop, `s` in 起手
        s = caller["cur"] if "cur" in caller else caller["s"]
        if not hasattr(self, "_perm"):
            stock = sorted(self.deck[self.pos:DECK - self.cfg.reserve])
            rng = np.random.Generator(np.random.PCG64([self.seed, 7]))
            self._perm = [list(rng.permutation(stock)) for _ in range(self.A)]
            self._ptr = [0] * self.A
            self._taken: set[int] = set()
        perm, i = self._perm[s], self._ptr[s]
        while perm[i] in self._taken:
            i += 1
        card = int(perm[i])
        self._taken.add(card)
        self._ptr[s] = i + 1
        self.pos += 1
        return card // 4


def play(cfg: Any, pols: list[str], seed: int, coupling: str) -> dict:
    cls = SeatCoupled if coupling == "seat" else er._Hand
    h = cls(cfg, er.check_policies(pols, cfg.active), RandomStream(np.random.PCG64(seed)))
    h.seed = seed
    return h.play()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deals", type=int)
    ap.add_argument("--coupling", choices=("wall", "seat"), default="wall")
    ap.add_argument("--seed0", type=int, default=1000)
    a = ap.parse_args()
    cfg = make_config(3)
    P, n = cfg.active, a.deals
    F = np.zeros((n, P))
    X = {o: np.zeros((n, P)) for o in OTHERS}
    t = time.time()
    for d in range(n):
        seed = a.seed0 + d
        F[d] = play(cfg, [BASE] * P, seed, a.coupling)["winner"]
        for o in OTHERS:
            for s in range(P):
                X[o][d, s] = play(cfg, [o if j == s else BASE for j in range(P)], seed, a.coupling)["winner"][s]
    print(f"coupling={a.coupling} deals={n} seeds {a.seed0}..{a.seed0 + n - 1} ({time.time() - t:.0f} s)")

    def independent(Y: np.ndarray, field: bool) -> float:
        return float(Y.mean(axis=1).var(ddof=1)) / (P * n) if field else float(Y.var(axis=0, ddof=1).sum()) / P**2 / n

    for x, y in [(o, BASE) for o in OTHERS] + [("chase_qing", "random"), ("chase_hun", "chase_qing")]:
        Yx, Yy = X[x], (F if y == BASE else X[y])
        diff = Yx.mean(axis=1) - Yy.mean(axis=1)
        dup = float(diff.var(ddof=1)) / n
        ratio = (independent(Yx, False) + independent(Yy, y == BASE)) / dup
        print(f"  {x:>10} - {y:<10} {diff.mean():+.4f} (se {dup ** 0.5:.4f})  variance ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
