"""Exact odds of nine-ten against brute force and Monte Carlo."""
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from kaptai.nineten.odds import (
    bonus_flip_distribution, bonus_flip_odds, deal_odds, hand_distribution, pair_joint, sample_pairs, table_joint,
)
from kaptai.nineten.rules import RuleSet


def _brute_hands(h):
    out = {}
    for combo in itertools.combinations_with_replacement(range(28), h):
        c = np.bincount(combo, minlength=28)
        if c.max() > 4:
            continue
        w = math.prod(math.comb(4, int(x)) for x in c)
        p = int((c // 2).sum())
        k = len({i // 7 for i in range(28) if c[i]})
        kp = len({i // 7 for i in range(28) if c[i] >= 2})
        out[(p, k, kp)] = out.get((p, k, kp), 0) + w
    return out


@pytest.mark.parametrize("h", [1, 2, 3, 4])
def test_hand_distribution_brute_force(h):
    assert hand_distribution(h) == _brute_hands(h)


def test_hand_distribution_totals():
    for h in (4, 5, 9, 10):
        assert sum(hand_distribution(h).values()) == math.comb(112, h)


def _multisets(h):
    from collections import Counter
    for combo in itertools.combinations_with_replacement(range(28), h):
        c = Counter(combo)
        if max(c.values()) <= 4:
            yield c


@pytest.mark.parametrize("h1,h2", [(2, 2), (3, 1), (1, 3)])
def test_pair_joint_brute_force(h1, h2):
    # two seats from the 112 physical cards, by explicit enumeration of count splits
    brute = {}
    second = list(_multisets(h2))
    for ca in _multisets(h1):
        wa = math.prod(math.comb(4, x) for x in ca.values())
        pa = sum(x // 2 for x in ca.values())
        for cb in second:
            if any(ca.get(k, 0) + y > 4 for k, y in cb.items()):
                continue
            wb = math.prod(math.comb(4 - ca.get(k, 0), y) for k, y in cb.items())
            key = (pa, sum(y // 2 for y in cb.values()))
            brute[key] = brute.get(key, 0) + wa * wb
    assert pair_joint(h1, h2) == brute


def test_pair_joint_marginals():
    j = pair_joint(10, 9)
    tot = math.comb(112, 10) * math.comb(102, 9)
    d = hand_distribution(10)
    for p in range(6):
        marg = sum(w for (a, b), w in j.items() if a == p)
        exact = sum(w for (q, _, _), w in d.items() if q == p)
        assert Fraction(marg, tot) == Fraction(exact, math.comb(112, 10))


def test_page_natural_probability():
    df = deal_odds(4, monte_carlo_deals=0)
    nat = df.query("metric == 'natural'").value.item()
    assert abs(nat - 1.4e-5) < 0.05e-5
    assert df.query("metric == 'natural'").exact.item() == "358047/25913005019"


def test_required_rows_and_sums():
    df = deal_odds(5)
    for metric, hand in [("pairs_distribution", "dealer"), ("pairs_distribution", "other"),
                         ("colours_distribution", "dealer"), ("colours_distribution", "other")]:
        sub = df[(df.metric == metric) & (df.hand == hand)]
        assert len(sub) and abs(sub.value.sum() - 1) < 1e-12
        assert sum(Fraction(x) for x in sub.exact) == 1
    assert df.query("metric == 'ready'").hand.item() == "other"
    assert df.query("metric == 'natural'").hand.item() == "dealer"
    mc = df[df.method == "monte_carlo"]
    assert set(mc.metric) == {"claims_joint", "table_min_claims"}
    assert abs(mc[mc.metric == "claims_joint"].value.sum() - 1) < 1e-9
    for hand in ("dealer,other", "other,other"):
        sub = df[(df.metric == "claims_joint") & (df.hand == hand)]
        assert sum(Fraction(x) for x in sub.exact) == 1


def test_every_table_from_cold_caches_is_a_distribution():
    """Every player count from cold caches gives distributions that sum to exactly 1.

    (Its speed, < 1 s CPU a table, is measured by ``benchmarks/bench_nineten.py``, not here.)
    """
    from kaptai.nineten import odds
    for n in (4, 5, 6, 7, 9, 15):
        odds.hand_distribution.cache_clear()
        odds.pair_joint.cache_clear()
        odds._colour_gf.cache_clear()
        odds._class_gf.cache_clear()
        for name in ("_seat_draws", "_class_draws", "_class_poly", "_last_seat", "table_joint"):
            getattr(odds, name).cache_clear()
        df = deal_odds(n)
        dists = [m for m in df.metric.unique() if m.endswith("_distribution")]
        assert {"pairs_distribution", "singles_distribution"} <= set(dists), n
        for (metric, hand), sub in df[df.metric.isin(dists)].groupby(["metric", "hand"]):
            assert sum(Fraction(x) for x in sub.exact) == 1, (n, metric, hand)


def test_small_table_exact_joint():
    df = deal_odds(2, RuleSet(allow_small_table=True))
    tab = df[(df.hand == "table") & (df.metric == "claims_joint")]
    assert (tab.method == "exact").all() and sum(Fraction(x) for x in tab.exact) == 1


def test_large_table_deal_only():
    df = deal_odds(9)
    assert "ready" not in set(df.metric) and "claims_joint" not in set(df.metric)
    sub = df[(df.metric == "pairs_distribution") & (df.hand == "other")]
    assert sub.level.tolist() == ["0", "1", "2"] and abs(sub.value.sum() - 1) < 1e-12


def test_exact_vs_sampled_deals():
    pairs = sample_pairs(4, (10, 9), 40_000, seed=3)
    d = {p: Fraction(w, math.comb(112, 9)) for p in range(5)
         for w in [sum(v for (q, _, _), v in hand_distribution(9).items() if q == p)]}
    for p in range(4):
        phat = float((pairs[:, 1:] == p).mean())
        se = math.sqrt(float(d[p]) * (1 - float(d[p])) / (3 * 40_000))
        assert abs(phat - float(d[p])) < 5 * se + 1e-4


def test_bonus_distribution_brute_force():
    S, M = 8, 3
    cards = [1] * M + [0] * (S - M)
    counts = {}
    n = 0
    for perm in itertools.permutations(range(S), 5):
        v = sum(cards[i] for i in perm[:4]) + 2 * cards[perm[4]]
        counts[v] = counts.get(v, 0) + 1
        n += 1
    exact = bonus_flip_distribution(S, M)
    for v in range(7):
        assert exact[v] == Fraction(counts.get(v, 0), n)
    assert sum(v * p for v, p in exact.items()) == Fraction(6 * M, S)


def test_bonus_page_example_mean():
    d = bonus_flip_distribution(40, 10)
    assert sum(v * p for v, p in d.items()) == Fraction(3, 2)
    assert sum(d.values()) == 1


def test_bonus_flip_odds_for_hand():
    df = bonus_flip_odds("RAx2 RRx2 YKx2 YAx2 WEx2", "RAx2 GCx3 WE GP GK")
    assert df.attrs["stock"] == 8 and df.attrs["matches"] == 3
    assert Fraction(df.query("metric == 'bonus_flip_mean'").exact.item()) == Fraction(18, 8)


@pytest.mark.parametrize("sizes", [(1, 1, 1), (2, 1, 1), (1, 3)])
def test_table_joint_brute_force(sizes):
    # explicit enumeration of every seat's multiset, seat after seat
    from collections import Counter
    brute = {}

    def rec(seat, used, pairs, w):
        if seat == len(sizes):
            brute[pairs] = brute.get(pairs, 0) + w
            return
        for combo in itertools.combinations_with_replacement(range(28), sizes[seat]):
            c = Counter(combo)
            if any(used.get(k, 0) + n > 4 for k, n in c.items()):
                continue
            ww = math.prod(math.comb(4 - used.get(k, 0), n) for k, n in c.items())
            u2 = dict(used)
            for k, n in c.items():
                u2[k] = u2.get(k, 0) + n
            rec(seat + 1, u2, pairs + (sum(n // 2 for n in c.values()),), w * ww)

    rec(0, {}, (), 1)
    assert table_joint(sizes) == brute


def test_table_joint_marginals_and_total():
    j = table_joint((10, 9, 9, 9))
    tot = math.comb(112, 10) * math.comb(102, 9) * math.comb(93, 9) * math.comb(84, 9)
    assert sum(j.values()) == tot
    pj = pair_joint(10, 9)
    for (a, b), w in pj.items():
        marg = sum(v for p, v in j.items() if p[0] == a and p[2] == b)
        assert Fraction(marg, tot) == Fraction(w, math.comb(112, 10) * math.comb(102, 9))
    # the non-dealers are exchangeable
    for p, v in j.items():
        assert j.get((p[0], p[2], p[1], p[3])) == v


def test_table_joint_vs_sampled_deals():
    pairs = sample_pairs(4, (10, 9), 100_000, seed=11)
    j = table_joint((10, 9, 9, 9))
    tot = sum(j.values())
    from collections import Counter
    c = Counter(map(tuple, pairs.tolist()))
    for k, w in j.items():
        p = w / tot
        if p > 1e-3:
            se = math.sqrt(p * (1 - p) / len(pairs))
            assert abs(c[k] / len(pairs) - p) < 5 * se


def test_four_player_table_is_exact():
    df = deal_odds(4)
    tab = df[df.hand == "table"]
    assert (tab.method == "exact").all()
    assert sum(Fraction(x) for x in tab[tab.metric == "claims_joint"].exact) == 1
    assert sum(Fraction(x) for x in tab[tab.metric == "table_min_claims"].exact) == 1


def test_table_method_choice():
    assert set(deal_odds(4, table="monte_carlo").query("hand == 'table'").method) == {"monte_carlo"}
    assert set(deal_odds(3, RuleSet(allow_small_table=True)).query("hand == 'table'").method) == {"exact"}
    with pytest.raises(Exception, match="table="):
        deal_odds(4, table="both")
