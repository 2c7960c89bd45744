"""Exact intervals, tie-aware ranks and "hands until ahead" (kaptai.core.stats) against brute force."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaptai.core.stats import (
    ahead_probability, clopper_pearson_interval, hands_until_ahead, rank_with_ties, wilson_interval,
)


def brute_ahead(values, probs, n):
    """P(sum of n draws > 0) by enumerating every sequence of n draws."""
    total = 0.0
    for seq in itertools.product(range(len(values)), repeat=n):
        if sum(values[i] for i in seq) > 1e-12:
            total += math.prod(probs[i] for i in seq)
    return total


dists = st.lists(st.tuples(st.integers(-6, 6), st.integers(1, 20)), min_size=1, max_size=4, unique_by=lambda t: t[0])


@settings(max_examples=60, deadline=None)
@given(dists, st.integers(1, 6), st.sampled_from([1.0, 0.25, 2.85]))
def test_ahead_probability_equals_enumeration(d, n, unit):
    values = [v * unit for v, _ in d]
    w = np.array([c for _, c in d], dtype=float)
    probs = (w / w.sum()).tolist()
    assert ahead_probability(values, probs, n) == pytest.approx(brute_ahead(values, probs, n), abs=1e-9)


def test_off_lattice_values_are_spread_with_their_mean():
    # 1/3 and -1/7 share the lattice 1/21: exact; an irrational value is spread over a fine grid
    assert ahead_probability([1 / 3, -1 / 7], [0.5, 0.5], 4) == pytest.approx(brute_ahead([1 / 3, -1 / 7], [0.5, 0.5], 4))
    v = [math.sqrt(2), -1.0]
    assert ahead_probability(v, [0.5, 0.5], 5) == pytest.approx(brute_ahead(v, [0.5, 0.5], 5), abs=2e-3)


def test_hands_until_ahead_is_the_first_n_not_the_normal_approximation():
    values, probs = [1, -1], [0.75, 0.25]
    n, p = hands_until_ahead(values, probs, 0.9)
    seq = [brute_ahead(values, probs, k) for k in range(1, n + 1)]
    assert seq[-1] == pytest.approx(p) and p >= 0.9 and all(q < 0.9 for q in seq[:-1])
    # the normal approximation (1.2816 sd / mean)^2 would say 3 hands
    assert n == 7


def test_hands_until_ahead_far_out_agrees_with_simulation():
    values, probs = [3, -1], [0.26, 0.74]          # mean 0.04: thousands of hands
    n, p = hands_until_ahead(values, probs)
    assert 0.95 <= p < 0.951
    rng = np.random.default_rng(0)
    wins = rng.binomial(n, 0.26, 400_000)
    sim = float(np.mean(4 * wins - n > 0))
    assert abs(sim - p) < 4 * math.sqrt(p * (1 - p) / 400_000)
    assert ahead_probability(values, probs, n - 40) < 0.95


def test_no_edge_never_gets_ahead():
    assert hands_until_ahead([1, -1], [0.5, 0.5]) == (math.inf, math.nan) or math.isnan(hands_until_ahead([1, -1], [0.5, 0.5])[1])
    with pytest.raises(ValueError):
        hands_until_ahead([1, -1], [0.5, -0.5])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400), st.data())
def test_clopper_pearson_contains_wilson_zero_and_is_exact_at_the_ends(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = clopper_pearson_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    if k == 0:
        assert float(hi) == pytest.approx(1 - 0.025 ** (1 / n)) and float(hi) > 0
    if k == n:
        assert float(lo) == pytest.approx(0.025 ** (1 / n))
    # an exact interval covers at least as widely as asked: compare with Wilson's centre
    wlo, whi = wilson_interval(k, n)
    assert float(lo) <= float(whi) and float(hi) >= float(wlo)


def test_a_sampled_zero_has_a_positive_upper_bound():
    lo, hi = clopper_pearson_interval(0, 20_000)
    assert float(lo) == 0.0 and 1.4e-5 < float(hi) < 2e-4      # the nine-ten natural's true rate 1.4e-5 is inside
    _, whi = wilson_interval(0, 20_000)
    assert float(whi) > 0


def test_rank_with_ties_counts_the_clearly_better():
    r = rank_with_ties([0.1, 0.12, 0.5, 0.9, math.nan], [0.05, 0.08, 0.4, 0.8, 0.0], [0.15, 0.16, 0.6, 1.0, 1.0])
    assert r[:4].tolist() == [1, 1, 3, 4] and math.isnan(r[4])
    # higher is better flips the order
    assert rank_with_ties([1, 5], [0.5, 4], [1.5, 6], lower_is_better=False).tolist() == [2, 1]
