"""Exact deal odds: closed forms, brute-force enumeration on small hands, Monte Carlo."""
import math
from fractions import Fraction
from itertools import combinations_with_replacement

import numpy as np
import pytest

from kaptai.errors import RulesError
from kaptai.nantong import evaluate as E
from kaptai.nantong import odds as O
from kaptai.nantong import reference as R
from kaptai.nantong.cards import LAOJIANG


def test_turned_closed_forms():
    t = O.turned_odds()
    assert t["double_jiang"] == Fraction(30 * 4 * 3, 120 * 119)
    assert t["laojiang_turned"] == 1 - Fraction(math.comb(104, 2), math.comb(120, 2))
    assert t["double_jiang_laojiang"] == Fraction(4 * 4 * 3, 120 * 119)
    s = O.turned_odds({"single_turn": True})
    assert s["double_jiang"] == 0 and s["laojiang_turned"] == Fraction(16, 120)
    assert O.turned_odds({"deck": 125})["double_jiang"] == Fraction(360, 125 * 124)


def test_hezi_closed_forms():
    h = O.hezi_odds([23, 22, 22])
    assert h["given", 23] == Fraction(math.comb(23, 2), math.comb(118, 2))
    assert h["given", "any"] == h["given", 23] + 2 * h["given", 22]
    assert h["unconditional", 22] == h["given", 22] * Fraction(3, 119)


def _qishou_hand_first(h):
    """The page's formulation: hand first (DP over kinds with state (cards, #kinds with 3
    copies, #kinds with 2 copies), no kong), the ordered turned pair uniform on the
    N = 120 - h outside cards; no 起手 iff no kong, no turned card is the last copy of a
    kind held 3 times and the turned pair is not both outside copies of a kind held twice."""
    state = {(0, 0, 0): 1}
    for _ in range(30):
        new = {}
        for (n, x3, x2), w in state.items():
            for c in range(4):  # c = 4 is a kong: excluded
                if n + c > h:
                    break
                key = (n + c, x3 + (c == 3), x2 + (c == 2))
                new[key] = new.get(key, 0) + w * math.comb(4, c)
        state = new
    N = 120 - h
    good = sum(w * ((N - x3) * (N - x3 - 1) - 2 * x2) for (n, x3, x2), w in state.items() if n == h)
    no_kong = sum(w for (n, _, _), w in state.items() if n == h)
    total = math.comb(120, h)
    return 1 - Fraction(good, total * N * (N - 1)), 1 - Fraction(no_kong, total)


@pytest.mark.parametrize("h", [23, 22])
def test_qishou_matches_hand_first_formulation(h):
    o = O.opening_tables(h)
    q, k = _qishou_hand_first(h)
    assert o["qishou"] == q and o["kong"] == k
    assert sum(o["hu"].values()) == 1


def _opening_hu(hand, turned):
    """Opening 胡數 of a dealt hand, read directly off the page's table (independent code)."""
    lao = set(LAOJIANG)
    dbl = turned[0] == turned[1]
    hu = 0
    counts = np.bincount(hand, minlength=30)
    for k in range(30):
        c = counts[k]
        rem = 4 - sum(1 for t in turned if t == k)
        row = (k in lao) + (k in turned) + (k in turned and dbl)
        if rem == 4 and c == 3:
            hu += 4 * 2 ** row
        elif rem == 4 and c == 4:
            hu += 16 * 2 ** row
        elif rem == 3 and c == 3:
            hu += 16 * 2 ** row
        elif rem == 2 and c == 2:
            hu += 16 * 2 ** row
    return hu


def test_opening_against_monte_carlo():
    rng = np.random.default_rng(2024)
    deck = np.repeat(np.arange(30), 4)
    n = 20_000
    ex = {h: O.opening_tables(h) for h in (23, 22)}
    for h in (23, 22):
        hus = np.empty(n)
        for i in range(n):
            perm = rng.permutation(120)
            turned = (int(deck[perm[0]]), int(deck[perm[1]]))
            hus[i] = _opening_hu(deck[perm[2:2 + h]], turned)
        mean, sd = hus.mean(), hus.std()
        assert abs(mean - float(ex[h]["mean"])) < 4 * sd / math.sqrt(n)
        p0 = float(ex[h]["hu"][0])
        assert abs((hus == 0).mean() - p0) < 4 * math.sqrt(p0 * (1 - p0) / n)


def _all_hands(n):
    rows = []
    for combo in combinations_with_replacement(range(30), n):
        c = np.bincount(combo, minlength=30)
        if c.max() <= 4:
            rows.append(c)
    a = np.array(rows, dtype=np.uint8)
    w = np.prod(np.array([1, 4, 6, 4, 1], dtype=np.int64)[a], axis=1)
    return a, w


@pytest.mark.parametrize("n", [2, 4, 5])
def test_small_hands_by_enumeration(n):
    a, w = _all_hands(n)
    total = math.comb(120, n)
    assert int(w.sum()) == total
    d = E.distance_many(a)
    exact = O.distance_distribution(n)
    got = {int(k): Fraction(int(w[d == k].sum()), total) for k in np.unique(d)}
    assert got == exact
    if n % 3 == 2:
        comp = E.complete_many(a)
        assert O.natural_probability(hand_size=n) == Fraction(int(w[comp].sum()), total)
        # the reference decomposer on every vector
        assert [R.is_complete(h) for h in a] == comp.tolist()
    else:
        masks = E.waits_many(a)
        assert O.ready_probability(hand_size=n) == Fraction(int(w[masks != 0].sum()), total)


def test_full_size_consistency():
    d22 = O.distance_distribution(22)
    d23 = O.distance_distribution(23)
    assert sum(d22.values()) == 1 and sum(d23.values()) == 1
    assert d22[0] == O.ready_probability()
    assert d23[-1] == O.natural_probability()
    assert min(d22) == 0 and min(d23) == -1


def test_distance_against_monte_carlo():
    rng = np.random.default_rng(7)
    deck = np.repeat(np.arange(30), 4)
    n = 40_000
    for h in (22, 23):
        hands = np.zeros((n, 30), dtype=np.uint8)
        for i in range(n):
            hands[i] = np.bincount(deck[rng.choice(120, h, replace=False)], minlength=30)
        d = E.distance_many(hands)
        for k, p in O.distance_distribution(h).items():
            p = float(p)
            f = float((d == k).mean())
            assert abs(f - p) < 4.5 * math.sqrt(p * (1 - p) / n) + 1e-4, (h, k, f, p)


def test_deal_odds_frame():
    df = O.deal_odds(3)
    assert list(df.columns) == O.ODDS_COLUMNS
    assert set(df.metric) == set(O.METRICS)
    assert (df.method == "exact").all()
    for _, row in df.iterrows():
        num, den = map(int, row.exact.split("/"))
        assert abs(num / den - row.value) < 1e-12
    hu = df[(df.metric == "opening_hu") & (df.hand == "dealer")]
    assert abs(hu.value.sum() - 1) < 1e-12
    four = O.deal_odds(4, metrics=("hezi",))
    assert four.query("hand == 'any' and breakdown == 'given_double_jiang'").exact.iloc[0] == "55/531"
    fa = O.deal_odds(4, {"four_active": True}, metrics=("hezi",))
    assert fa.query("hand == 'any' and breakdown == 'given_double_jiang'").value.iloc[0] > 0.13
    with pytest.raises(RulesError, match="unknown deal_odds metric"):
        O.deal_odds(3, metrics=("nope",))
    with pytest.raises(RulesError):
        O.deal_odds(5)


def test_variants_change_the_odds():
    base = O.opening_tables(23)["mean"]
    assert O.opening_tables(23, {"one_tiao_laojiang": True})["mean"] > base
    assert O.opening_tables(23, {"jiang_same_number": True})["mean"] > base
    assert O.opening_tables(23, {"qishou": "never"})["qishou"] == 0
    assert O.natural_probability({"honour_sequence": True}) > O.natural_probability()
