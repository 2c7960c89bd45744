"""Exact deal odds (rules/big-two.md §7) vs independent formulas and a seeded Monte Carlo."""
import math
from fractions import Fraction

import numpy as np
import pytest

from kaptai.bigtwo.odds import deal_odds, rank_count_vectors
from kaptai.bigtwo.rules import STRAIGHT_ORDERS

METRICS = ["pair", "two_pair", "triple", "four_of_a_kind", "full_house", "straight", "flush", "straight_flush",
           "dragon", "four_twos", "redeal_points_lt_3", "redeal_hk_max10"]


@pytest.fixture(scope="module")
def odds():
    return deal_odds(players=4)


def _exact(df, metric, order=None):
    if order is None:
        row = df[(df.metric == metric) & df.breakdown.isna()]
    else:
        row = df[(df.metric == metric) & (df.level == order)]
    assert len(row) == 1
    return Fraction(row.exact.iloc[0])


def test_table_shape(odds):
    assert set(METRICS) <= set(odds.metric)
    assert list(odds.columns) == ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value",
                                  "exact", "method"]
    assert (odds.method == "exact").all() and (odds.hand == 13).all()
    assert set(odds[odds.breakdown == "straight_order"].level) == set(STRAIGHT_ORDERS)
    assert odds.attrs["rules"]["straight_order"] == "hk"


def test_independent_formulas(odds):
    T = math.comb(52, 13)
    assert _exact(odds, "dragon") == Fraction(4**13, T)  # about 1 in 9,462
    assert round(1 / float(_exact(odds, "dragon"))) == 9462
    assert _exact(odds, "pair") == 1 - Fraction(4**13, T)  # 13 cards without a pair is a dragon
    assert _exact(odds, "four_twos") == Fraction(math.comb(48, 9), T)
    assert _exact(odds, "redeal_hk_max10") == Fraction(math.comb(32, 13), T)
    assert _exact(odds, "redeal_literal_min10") == Fraction(math.comb(24, 13) - math.comb(20, 13), T)  # T J Q K A 2 = 24 cards
    no_quad = sum((-1) ** k * math.comb(13, k) * math.comb(52 - 4 * k, 13 - 4 * k) for k in range(4))
    assert _exact(odds, "four_of_a_kind") == 1 - Fraction(no_quad, T)
    # no triple: every rank 0-2 copies; coefficient of x^13 in (1 + 4x + 6x^2)^13
    poly = np.polynomial.polynomial.polypow([1, 4, 6], 13)
    no_triple = sum(math.comb(13, a) * math.comb(13 - a, 13 - 2 * a) * 6**a * 4 ** (13 - 2 * a)
                    for a in range(7))
    assert int(round(poly[13])) == no_triple
    assert _exact(odds, "triple") == 1 - Fraction(no_triple, T)
    # exactly one rank with k = 2, 3 or 4 copies, the other 13 - k cards singles of distinct ranks
    one_pair_only = 13 * sum(math.comb(4, k) * math.comb(12, 13 - k) * 4 ** (13 - k) for k in (2, 3, 4))
    assert _exact(odds, "two_pair") == 1 - Fraction(4**13 + one_pair_only, T)
    # points < 3: hand from the 32 low cards plus at most J, JJ or Q
    low = lambda k: math.comb(32, k)  # noqa: E731
    pts = low(13) + 4 * low(12) + math.comb(4, 2) * low(11) + 4 * low(12)
    assert _exact(odds, "redeal_points_lt_3") == Fraction(pts, T)
    # the hk/poker/wheel_top/broadway_top straights are the same ten rank sets
    for metric in ("straight", "straight_flush"):
        vals = {o: _exact(odds, metric, o) for o in STRAIGHT_ORDERS}
        assert len({v for o, v in vals.items() if o != "sequential"}) == 1
        assert vals["sequential"] < vals["hk"]
        assert _exact(odds, metric) == vals["hk"]


def test_rank_vectors_sum_to_one():
    for h in (4, 6, 13):
        c, w = rank_count_vectors(h)
        assert int(w.sum()) == math.comb(52, h) and (c.sum(axis=1) == h).all()


def _monte_carlo(n, seed):
    rng = np.random.default_rng(seed)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :13]
    onehot = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(onehot, hands, True, axis=1)
    bysuit = onehot.reshape(n, 13, 4)  # [hand, natural rank, suit]
    cnt = bysuit.sum(axis=2)
    present = cnt > 0
    runs = {  # written as the page: ranks by face, natural index 3=0 … 2=12
        "A2345": [11, 12, 0, 1, 2], "23456": [12, 0, 1, 2, 3], "JQKA2": [8, 9, 10, 11, 12],
        **{f"mid{i}": list(range(i, i + 5)) for i in range(8)},
    }
    hk_runs = [r for name, r in runs.items() if name != "JQKA2"]
    pts = (cnt * np.array([0] * 8 + [1, 2, 3, 4, 5])).sum(axis=1)
    return {
        "pair": (cnt >= 2).any(1),
        "two_pair": (cnt >= 2).sum(1) >= 2,
        "triple": (cnt >= 3).any(1),
        "four_of_a_kind": (cnt == 4).any(1),
        "full_house": ((cnt >= 3).any(1)) & ((cnt >= 2).sum(1) >= 2),
        "straight": np.any([present[:, r].all(1) for r in hk_runs], axis=0),
        "flush": (bysuit.sum(axis=1) >= 5).any(1),
        "straight_flush": np.any([bysuit[:, r, :].all(1).any(1) for r in hk_runs], axis=0),
        "dragon": present.all(1),
        "four_twos": cnt[:, 12] == 4,
        "redeal_points_lt_3": pts < 3,
        "redeal_hk_max10": ~present[:, 8:].any(1),
    }


def test_monte_carlo_agreement(odds):
    n = 40_000
    mc = _monte_carlo(n, seed=2024)
    for metric in METRICS:
        p = float(_exact(odds, metric))
        est = mc[metric].mean()
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(est - p) <= 4 * se + 1e-9, (metric, est, p)


def test_other_player_counts():
    df = deal_odds(players=8)  # 6 cards each (the 4 leftovers are not covered)
    assert (df.hand == 6).all()
    assert _exact(df, "redeal_hk_max10") == Fraction(math.comb(32, 6), math.comb(52, 6))
    assert _exact(df, "dragon") == 0 and _exact(df, "full_house") > 0
    assert _exact(df, "flush") == Fraction(4 * (math.comb(13, 6) + math.comb(13, 5) * 39), math.comb(52, 6))
    df2 = deal_odds(players=13, hand_size=5)
    # five-card hands: straight flushes 40, straights incl. flushes 10 * 4^5, full houses 3744
    assert _exact(df2, "straight_flush") == Fraction(40, math.comb(52, 5))
    assert _exact(df2, "straight") == Fraction(10 * 4**5, math.comb(52, 5))
    assert _exact(df2, "full_house") == Fraction(3744, math.comb(52, 5))
