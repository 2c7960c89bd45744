"""The Big Two advisor with and without the hand's history, as a player, on the same deals.

``python benchmarks/bigtwo_advise_history.py DEALS SEED [--rules default|outside]
[--field sparring|greedy|heuristic] [--samples N]`` seats one player that plays the advisor's
best option (:func:`kaptai.bigtwo.advisor.advise` at a fixed ``--samples`` layouts, default 128)
against three of the field, the player's seat rotated through the four seats on the same decks
(duplicate deals), twice: typing the position as ``--played``/``--to-beat``/``--by``/``--cards-left``
(no history: uniform layouts) and typing the hand's actions as ``--history`` (the layouts weighed
by what each seat played and passed, resampled).  Both ask with the same seed per decision.  It
prints each player's EV per game (points, stake 1, under the rule set's settlement) and the
paired difference with its 95% interval over deals.  ``--compare-pool K`` instead plays the
advisor with the history twice, each layout picked from a pool of 8 (the default,
``search_pool``) and of ``K``, and prints pool K − pool 8.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _timing import paired_text
from bigtwo_sparring import RULESETS, SparringPolicy, _builtin, duplicate_decks, seat_net

from kaptai.bigtwo.cards import parse_cards
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.play import advice
from kaptai.bigtwo.policies import rules_info


class AdvisorPlayer:
    """Plays the advisor's best option (:func:`kaptai.bigtwo.play.advice`, as ``kaptai play``'s hints ask
    it); ``history=True`` types the hand's actions, False the cards played, the play to beat and its
    maker."""

    name = "advisor"

    def __init__(self, samples: int, seed: int, history: bool):
        self.samples, self.seed, self.history = samples, seed, history
        self.k = 0

    def swap(self, view):
        return False

    def choose(self, view):
        if len(view.options) + int(view.can_pass) <= 1:
            return view.options[0] if view.options else None
        self.k += 1
        df = advice(view, samples=self.samples, seed=self.seed * 1000 + self.k, history=self.history)
        best = df.play.iloc[0]
        return None if best == "PASS" else rules_info(view.rules).play(sum(1 << c for c in parse_cards(best)))


def duel(deals: int, seed: int, rules: str, field: str, samples: int, pools: tuple[int, ...] = ()) -> dict:
    """Without pools: ``{'plain', 'history'}`` per-deal EVs; with ``pools``: the advisor with the
    history at each ``search_pool``, ``{pool: per-deal EVs}``."""
    from kaptai.bigtwo import advisor

    cfg = make_config(4, RULESETS[rules])
    flat = cfg.rules.replace(stake=1.0, bankroll="off")
    decks = duplicate_decks(deals, seed)
    arms = [(k, True, k) for k in pools] if pools else [("plain", False, None), ("history", True, None)]
    ev = {name: np.zeros(deals) for name, _h, _p in arms}
    base_config = advisor.make_config
    t0 = time.perf_counter()
    try:
        for name, hist, pool in arms:
            advisor._CONFIGS.clear()   # the advisor's tables are memoised by rule set
            advisor.make_config = base_config if pool is None else (
                lambda *a, pool=pool, **k: base_config(*a, search_pool=pool, **k))
            for d in range(deals):
                for s in range(4):
                    pols = [SparringPolicy() if field == "sparring" else _builtin(field, cfg) for _ in range(4)]
                    pols[s] = AdvisorPlayer(samples, seed * 1_000_003 + d * 4 + s, hist)
                    ev[name][d] += seat_net(cfg, flat, pols, decks[d], (seed, d, s), s) / 4
    finally:
        advisor.make_config = base_config
        advisor._CONFIGS.clear()
    return {**ev, "secs": time.perf_counter() - t0}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    deals, seed = int(argv[0]), int(argv[1])
    rules = argv[argv.index("--rules") + 1] if "--rules" in argv else "default"
    field = argv[argv.index("--field") + 1] if "--field" in argv else "sparring"
    samples = int(argv[argv.index("--samples") + 1]) if "--samples" in argv else 128
    if "--compare-pool" in argv:
        k = int(argv[argv.index("--compare-pool") + 1])
        r = duel(deals, seed, rules, field, samples, pools=(8, k))
        line = paired_text("pool 8", r[8], f"pool {k}", r[k])
        who = f"advisor with history ({samples} layouts)"
    else:
        r = duel(deals, seed, rules, field, samples)
        line = paired_text("without history", r["plain"], "with history", r["history"])
        who = f"advisor ({samples} layouts)"
    print(f"{rules} {who} vs 3 {field}: {line} points a game ({deals} deals x 4 seats, seed {seed}, "
          f"{r['secs']:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
