from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from kaptai.heaven11 import reference as ref
from kaptai.heaven11.odds import (
    SPECIALS, TOTAL_HANDS, count_hands_without, deal_odds, holding_flags, score_odds,
)
from kaptai.heaven11.rules import RuleSet


def test_flags_match_reference():
    for rules in (RuleSet(), RuleSet(point_scheme="rank", reduction="once")):
        f = holding_flags(rules)
        rng = np.random.default_rng(3)
        for m in list(rng.integers(0, 8192, 300)) + [0x1C00, 0x00A8, 0x0070, 0x1800, 0x18]:
            ranks = [r for r in range(13) if m >> r & 1]
            found = set()
            for n in (1, 2, 3):
                for s in combinations(ranks, n):
                    found.add(f"{ref.classify(list(s), rules)[0]}_{n}")
            for key in f:
                if key in SPECIALS or key == "any_special":
                    continue
                assert bool(f[key][m]) == (key in found), (m, key)
            spec = {k for k, (n, mask) in SPECIALS.items() if m & mask == mask}
            assert bool(f["any_special"][m]) == bool(spec)


def test_polynomial_count_brute_force_small():
    # a 2-suit, 3-rank toy check of the counting: enumerate hands directly
    flag = np.zeros(8192, dtype=bool)
    flag[[m for m in range(8192) if bin(m).count("1") >= 3]] = True
    # P(no suit has >= 3 cards) = hands with every suit <= 2 — impossible for 13 cards in 4 suits
    assert count_hands_without(flag) == 0
    flag = np.array([bin(m).count("1") > 4 for m in range(8192)])
    assert count_hands_without(flag) == sum(
        comb(13, a) * comb(13, b) * comb(13, c) * comb(13, 13 - a - b - c)
        for a in range(5) for b in range(5) for c in range(5) if 0 <= 13 - a - b - c <= 4)


def test_distributions_sum_to_one():
    df = deal_odds()
    for metric in ("suit_length", "longest_suit", "suit_pattern"):
        fr = sum(Fraction(x) for x in df[df.metric == metric].exact)
        assert fr == 1, metric
    p = df[df.breakdown.isna()].set_index("metric")
    assert Fraction(p.loc["heaven_eleven_2", "exact"]) == Fraction(p.loc["big_continuing", "exact"])
    pat = df[df.metric == "suit_pattern"].set_index("breakdown").value
    assert abs(pat["4-4-3-2"] - 0.215512) < 1e-6 and abs(pat["4-3-3-3"] - 0.105361) < 1e-6


def test_single_suit_exact_values():
    # P(a named suit holds K and A) = C(50, 11) / C(52, 13); the any-suit value by inclusion-exclusion
    one = Fraction(comb(50, 11), TOTAL_HANDS)
    two = Fraction(comb(48, 9), TOTAL_HANDS)
    three = Fraction(comb(46, 7), TOTAL_HANDS)
    four = Fraction(comb(44, 5), TOTAL_HANDS)
    expect = 4 * one - 6 * two + 4 * three - four
    df = deal_odds()
    got = Fraction(df[df.metric == "heaven_eleven_2"].exact.iloc[0])
    assert got == expect


def test_monte_carlo_agreement():
    rng = np.random.default_rng(11)
    n = 100_000
    decks = np.argsort(rng.random((n, 52)), axis=1)[:, :13]
    masks = np.zeros((n, 4), dtype=np.int64)
    for s in range(4):
        sel = (decks // 13) == s
        masks[:, s] = np.where(sel, 1 << (decks % 13), 0).sum(axis=1)
    f = holding_flags()
    df = deal_odds()
    p = df[df.breakdown.isna()].set_index("metric").value
    for name in list(SPECIALS) + ["any_special"]:
        hit = f[name][masks].any(axis=1).mean()
        sd = np.sqrt(p[name] * (1 - p[name]) / n)
        assert abs(hit - p[name]) < 4.5 * sd, name
    longest = np.array([bin(int(x)).count("1") for x in masks.ravel()]).reshape(n, 4).max(axis=1)
    L = df[df.metric == "longest_suit"].set_index("level").value
    for lv in (4, 5, 6):
        sd = np.sqrt(L[lv] * (1 - L[lv]) / n)
        assert abs((longest == lv).mean() - L[lv]) < 4.5 * sd


def test_score_odds():
    df = score_odds()
    assert len(df) == 5600
    assert (df[["f0", "f1", "f2", "f3"]].sum(axis=1) == 0).all()
