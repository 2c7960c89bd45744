"""Heaven Eleven (天牌十一) in the rule-design search (:mod:`kaptai.core.design`).

The showcase of ``kaptai design``: the source text calls its rules a draft, and its scoring pays
a declarer to bid above its expectation (a short contract costs nothing beyond the origin
grade).  The search explores the scoring options of :mod:`kaptai.heaven11.rules`
(``short_penalty``, ``match_bonus``, ``over_penalty``, every value each: 4 x 4 x 2 = 32 variants,
among them the proposals ``match_bonus='half'`` and its finer step ``'half_capped'``,
``min(m // 2, 2)``; any other option on request) with
**adaptive bidders**: every seat bids with the ``search`` bidding policy, which bids by its
expected final under the scoring in force, and plays ``greedy``.

Each deal (one row) is:

* a deck drawn from the deal's own seed (a redeal after a pass-out takes the next deck of the
  deal's seed), the first dealer ``i % 4`` for deal ``i``: the same cards and dealer under
  every variant.  The auction depends on the scoring (that is the point), so the contract and
  the declarer are not shared: only the deal is;
* ``edge``: the declarer's final minus the mean of the three defenders' (``4/3`` of the
  declarer's final: the game is zero-sum), in points; ``sq``: the mean square final of a seat
  (for the swing); ``house`` = 0 and ``staked`` = what the losers pay (the game has no cut);
* ``skill``: the value of skill at seat ``a = (i // 4) % 4``: its final when it plays ``greedy``
  (the table) minus its final when it plays ``random`` on the same deal, the same auction and
  the same contract (the auction does not depend on the play policies; the second play is run
  with the contract fixed); so every (dealer, seat) pair comes round every 16 deals;
* ``bidding_skill``: the value of adaptive bidding at the same seat: its final when it bids with
  the ``search`` bidder (the table) minus its final when it bids with the ``expected`` table
  bidder, which bids the same whatever the scoring (the other seats still search), same deal;
* ``bid_minus_made``: the contract level minus the origin grade the declarer made (``b - m``):
  how far above what it makes a declarer bids.

Examples
--------
>>> from kaptai.core.runner import plan_chunks
>>> from kaptai.core.design import DesignVariant, grid_variants
>>> SPACE["match_bonus"], len(grid_variants(DESIGN))
(('level', 'half', 'none', 'half_capped'), 32)
>>> r = rows(DesignVariant((("short_penalty", "symmetric"),)), plan_chunks(4, 4, 1)[0])
>>> sorted(r), len(r["edge"])
(['bid_minus_made', 'bidding_skill', 'edge', 'house', 'skill', 'sq', 'staked'], 4)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from kaptai.core.design import DesignGame, DesignMeasure, DesignVariant
from kaptai.core.league import deal_seeds
from kaptai.errors import RulesError
from kaptai.heaven11.config import BID_SAMPLES, make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.rules import OPTION_VALUES

__all__ = ["DESIGN", "SPACE", "OPTIONS", "rows", "deal_decks"]

#: The options explored by default: the scoring (the page's value first).
SPACE: dict[str, tuple] = {k: OPTION_VALUES[k] for k in ("short_penalty", "match_bonus", "over_penalty")}
#: Every option the search may explore (``--options``).
OPTIONS: dict[str, tuple] = {**SPACE, **{k: v for k, v in OPTION_VALUES.items() if k not in SPACE},
                             "must_trump": (False, True)}
#: Decks per deal before a pass-out needs more (then 101: the engine redeals at most 100 times).
_DECKS = 4


def deal_decks(seed: np.random.SeedSequence, count: int) -> np.ndarray:
    """``count`` decks of one deal, drawn from its seed (deck 0 is dealt, the others are the redeals).

    >>> d = deal_decks(np.random.SeedSequence(1), 3)
    >>> d.shape, sorted(d[2].tolist()) == list(range(52)), bool((deal_decks(np.random.SeedSequence(1), 5)[:3] == d).all())
    ((3, 52), True, True)
    """
    rng = np.random.Generator(np.random.PCG64(seed))
    return np.stack([rng.permutation(52) for _ in range(count)]).astype(np.int8)


@functools.lru_cache(maxsize=4096)
def _config(options: tuple, contract: Any = None, first_dealer: int | None = None, bid_samples: int = BID_SAMPLES):
    return make_config(rules=dict(options), contract=contract, first_dealer=first_dealer, bid_samples=bid_samples)



def rows(variant: DesignVariant, chunk: Any) -> dict[str, np.ndarray]:
    """The chunk's deals under ``variant``: one row per deal (see the module's text)."""
    opts = tuple(variant.options)
    cfg = _config(opts)
    n = int(chunk.size)
    out = {k: np.zeros(n) for k in ("edge", "sq", "house", "staked", "skill", "bidding_skill", "bid_minus_made")}
    for j, ss in enumerate(deal_seeds(chunk)):
        i = int(chunk.start) + j
        dealer, seat = i % 4, (i // 4) % 4
        deck_seed, play_seed = ss.spawn(2)
        cfg_d = _config(opts, None, dealer)
        try:
            o, _ = run_hands(cfg_d, "greedy", np.random.PCG64(play_seed), 1, bidding="search",
                             decks=deal_decks(deck_seed, _DECKS), engine="compiled")
        except RulesError:  # more pass-outs than decks: the deal with every redeal it may need
            o, _ = run_hands(cfg_d, "greedy", np.random.PCG64(play_seed), 1, bidding="search",
                             decks=deal_decks(deck_seed, 101), engine="compiled")
        f = o["finals"][0].astype(np.float64)
        d = int(o["declarer"][0])
        level = int(o["level"][0])
        out["edge"][j] = f[d] - (f.sum() - f[d]) / 3
        out["sq"][j] = float((f * f).mean())
        out["staked"][j] = float(np.maximum(-f, 0).sum())
        t = o["tricks"][0]
        out["bid_minus_made"][j] = level - (int(t[d]) - 4)
        # the same deal, auction and contract, seat `seat` playing random: the contract fixed
        deck = np.concatenate([np.flatnonzero([(int(o["hands"][0, s]) >> c) & 1 for c in range(52)])
                               for s in range(4)]).astype(np.int8)[None, :]
        cfg_c = _config(opts, (level, int(o["strain"][0])), d)
        pols = ["greedy"] * 4
        pols[seat] = "random"
        o2, _ = run_hands(cfg_c, pols, np.random.PCG64(play_seed.spawn(1)[0]), 1, decks=deck, engine="compiled")
        out["skill"][j] = f[seat] - float(o2["finals"][0, seat])
        # the same deal, seat `seat` bidding with the table (`expected`, blind to the scoring)
        bids = ["search"] * 4
        bids[seat] = "expected"
        try:
            o3, _ = run_hands(cfg_d, "greedy", np.random.PCG64(play_seed), 1, bidding=bids,
                              decks=deal_decks(deck_seed, _DECKS), engine="compiled")
        except RulesError:
            o3, _ = run_hands(cfg_d, "greedy", np.random.PCG64(play_seed), 1, bidding=bids,
                              decks=deal_decks(deck_seed, 101), engine="compiled")
        out["bidding_skill"][j] = f[seat] - float(o3["finals"][0, seat])
    return out


DESIGN = DesignGame(
    game="heaven-eleven",
    space=SPACE,
    options=OPTIONS,
    measures=(
        DesignMeasure("declarer_edge", "mean", ("edge",), "report", "point",
                      "the declarer's final minus the mean of the defenders' finals, search bidders"),
        DesignMeasure("declarer_edge_share", "per_swing", ("edge", "sq"), "zero", "share of the swing",
                      "declarer_edge over the swing (the SD of one seat's final per hand)"),
        DesignMeasure("house_take", "ratio", ("house", "staked"), "min", "share of the money staked",
                      "the house's take per point staked (the game has no cut: 0)"),
        DesignMeasure("value_of_skill", "mean", ("skill",), "report", "point",
                      "one seat playing greedy minus playing random, same deal and contract"),
        DesignMeasure("value_of_skill_share", "per_swing", ("skill", "sq"), "max", "share of the swing",
                      "value_of_skill over the swing"),
        DesignMeasure("bidding_skill", "mean", ("bidding_skill",), "report", "point",
                      "one seat bidding by search minus bidding by the expected table, same deal"),
        DesignMeasure("bidding_skill_share", "per_swing", ("bidding_skill", "sq"), "report", "share of the swing",
                      "bidding_skill over the swing"),
        DesignMeasure("swing", "root_mean", ("sq",), "report", "point",
                      "the SD of one seat's final per hand about 0: sqrt of the mean square final"),
        DesignMeasure("bid_minus_made", "mean", ("bid_minus_made",), "report", "levels",
                      "the contract level minus the origin grade the declarer made (b - m)"),
    ),
    rows=rows,
    chunk_hands=25,
    notes=("Every seat bids with the search bidder (by its expected final under the scoring in force) and "
           "plays greedy. Deal i: its deck (and the decks of its redeals) from its own seed and first dealer "
           "i % 4, the same under every variant; the auction, hence the contract and the declarer, depends on "
           "the scoring and is not shared. Value of skill: seat (i // 4) % 4 playing greedy minus random on the "
           "same deal and contract; bidding skill: the same seat bidding by search minus by the expected table."),
)
