"""The nine-ten advisor on the whole public position and the hand's record, against the typed
position, as a player, on the same deals.

``python benchmarks/nineten_advise_history.py DEALS SEED [--field colour_cut|live_first|random]
[--samples N] [--variant taiwan|covers_all] [--players 4] [--workers 2] [--modes typed,uniform,position]``

One seat plays the advisor's best discard (:func:`kaptai.nineten.play.advice`, as ``kaptai
play``'s hints ask it, at a fixed ``--samples`` layouts, default 128) against a field of one
built-in policy, the seat rotated through every seat counted from the dealer on the same decks
(duplicate deals), three times on the same stream of each (deal, seat):

* ``typed``: the position typed as the hand and every card seen outside it, the advisor before
  ``exposed`` (:func:`kaptai.nineten.advisor.advise` with the other seats' face-up cards among the
  cards seen, every other seat dealt 9 concealed cards besides);
* ``uniform``: the view's public position without the record
  (:func:`kaptai.nineten.advisor.advise_view` with ``history=False``: every face-up and dead card
  where it is, uniform layouts), what ``advise(exposed=...)`` types;
* ``position``: the same with the hand's record (``history=True``: the search's inference on the
  recorded discards), what ``kaptai play``'s hints and ``kaptai review`` now use; the player plays
  the table's top mean;
* ``pick`` (only with ``--modes``): the same table, the player playing its ``pick`` row (the search
  player's rule on the advisor's layouts: colour_cut's discard unless another leads it by more than
  2.5 standard errors of their paired difference).

All three ask with the same seed per decision (``--modes`` plays a subset).  Where the typed position is refused (late in a hand: the other
seats' face-up cards among the cards seen and 9 concealed cards each leave too few for the stock)
the player discards by colour_cut's rule; the counts are printed.  It prints each player's EV per
hand (頭) and every paired difference with its 95% interval over deals.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _timing import deal_chunks, modes_arg, paired_text

from kaptai.errors import RulesError
from kaptai.nineten.policies import Policy

MODES = ("typed", "uniform", "position", "pick")
VARIANTS = {"taiwan": None, "covers_all": {"discard_payer_covers_all": True}}


class AdvisorPlayer(Policy):
    """Plays the advisor's best discard; ``mode``: 'typed', 'position' or 'uniform'."""

    name = "advisor"

    def __init__(self, rules, players: int, samples: int, seed: int, mode: str):
        self.rules, self.players, self.samples, self.seed, self.mode = rules, players, samples, seed, mode
        self.k = 0
        self.refused = 0

    def discard(self, view):
        from kaptai.nineten.advisor import _colour_cut_index, advise, advise_view
        from kaptai.nineten.cards import format_hand, parse_card
        from kaptai.nineten.play import _seen

        if len(view.options) < 2:
            return view.options[0]
        self.k += 1
        seed = self.seed * 1000 + self.k
        try:
            if self.mode == "typed":  # every face-up card among the cards seen, no exposed
                df = advise(format_hand(view.hand), seen=format_hand(_seen(view)), players=self.players, rules=self.rules,
                            samples=self.samples, seed=seed)
            elif self.mode == "pick":  # the advisor's pick column: the search player's rule on its layouts
                df = advise_view(view, self.rules, samples=self.samples, seed=seed)
                return int(parse_card(df.discard[df.pick].iloc[0]))
            else:
                df = advise_view(view, self.rules, samples=self.samples, seed=seed, history=self.mode == "position")
        except RulesError:
            # the typed position refuses late positions: with the other seats' face-up cards among the
            # cards seen and 9 concealed cards each, too few are left for the stock; colour_cut's rule then
            self.refused += 1
            return view.options[_colour_cut_index(list(view.options), view.hand, view.unseen())]
        return int(parse_card(df.discard.iloc[0]))


def _chunk(args: tuple) -> dict:
    lo, hi, seed, field, samples, variant, players, modes = args
    from kaptai.nineten.config import make_config
    from kaptai.nineten.engine import run_hands

    cfg = make_config(players, VARIANTS[variant])
    rng = np.random.default_rng([seed, 11])
    decks = np.stack([rng.permutation(112) for _ in range(hi)]).astype(np.int64)[lo:]
    out = {m: np.zeros(hi - lo) for m in modes}
    asked = {m: [0, 0] for m in modes}
    for i, deck in enumerate(decks):
        for r in range(players):
            for mode in modes:
                pols = [field] * players
                seat = r  # seat 0 deals the first hand of a run; the player sits r seats after it
                me = AdvisorPlayer(cfg.rules, players, samples, seed * 100_003 + (lo + i) * 17 + r, mode)
                pols[seat] = me
                res, _ = run_hands(cfg, 1, np.random.PCG64([seed, lo + i, r]), pols, decks=deck[None, :])
                out[mode][i] += float(res["net"][0, seat]) / players
                asked[mode][0] += me.k
                asked[mode][1] += me.refused
    return {**{k: v.tolist() for k, v in out.items()}, "asked": asked}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("deals", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--field", default="colour_cut", choices=["colour_cut", "live_first", "random"])
    ap.add_argument("--samples", type=int, default=128)
    ap.add_argument("--variant", default="taiwan", choices=sorted(VARIANTS))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--modes", default="typed,uniform,position")
    a = ap.parse_args()
    modes = modes_arg(ap, a.modes, MODES)
    t0 = time.perf_counter()
    parts = deal_chunks(_chunk, a.deals, a.workers, a.seed, a.field, a.samples, a.variant, a.players, modes)
    ev = {m: np.concatenate([p[m] for p in parts]) for m in modes}
    print(f"nine-ten {a.variant}, {a.players} players, field {a.field}, {a.deals} deals x {a.players} seats, "
          f"seed {a.seed}, {a.samples} layouts a decision ({time.perf_counter() - t0:.0f} s)")
    for a_m, b_m in (("typed", "position"), ("uniform", "position"), ("typed", "uniform"), ("position", "pick")):
        if a_m in modes and b_m in modes:
            print("  EV a hand: " + paired_text(a_m, ev[a_m], b_m, ev[b_m]))
    for mode in modes:
        n, bad = (sum(p["asked"][mode][j] for p in parts) for j in (0, 1))
        print(f"  {mode}: {n} decisions asked, {bad} refused (colour_cut's rule played instead)")


if __name__ == "__main__":
    main()
