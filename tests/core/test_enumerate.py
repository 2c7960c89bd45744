"""core.enumerate: the count-vector walk and the generating functions against brute force."""

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaptai.core.enumerate import (
    Polynomial,
    class_polynomial,
    count_vectors,
    hand_count,
    hypergeometric_weight,
    kind_polynomial,
    probabilities,
)
from kaptai.errors import KaptaiError


def brute(copies, size):
    """Every deal of ``size`` distinct cards, as count vectors (the definition)."""
    deck = [k for k, c in enumerate(copies) for _ in range(c)]
    out = Counter()
    for hand in itertools.combinations(range(len(deck)), size):
        v = [0] * len(copies)
        for i in hand:
            v[deck[i]] += 1
        out[tuple(v)] += 1
    return out


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=5), st.data())
def test_count_vectors_equal_brute_force(copies, data):
    size = data.draw(st.integers(0, sum(copies)))
    got = dict(count_vectors(copies, size))
    assert got == dict(brute(copies, size))
    assert sum(got.values()) == hand_count(copies, size) == math.comb(sum(copies), size)
    assert all(hypergeometric_weight(v, copies) == w for v, w in got.items())


def test_vectors_come_in_lexicographic_order():
    vs = [v for v, _ in count_vectors([2, 3, 1, 2], 4)]
    assert vs == sorted(vs) and len(vs) == len(set(vs))


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5), st.integers(0, 8))
def test_class_polynomial_is_the_walk_grouped_by_feature(copies, kinds, size):
    size = min(size, copies * kinds)
    feature = lambda c: (int(c >= 2), int(c > 0))  # noqa: E731  (pairs, kinds present)
    want = Counter()
    for v, w in count_vectors([copies] * kinds, size):
        want[tuple(map(sum, zip(*(feature(c) for c in v))))] += w
    got = class_polynomial(copies, kinds, size, feature).coefficients(size)
    assert got == dict(want)


def test_mixed_classes_multiply():
    a = class_polynomial(4, 3, 6, lambda c: int(c >= 2))
    b = class_polynomial(2, 2, 6, lambda c: int(c >= 2))
    got = a.times(b).coefficients(6)
    want = Counter()
    for v, w in count_vectors([4, 4, 4, 2, 2], 6):
        want[sum(c >= 2 for c in v)] += w
    assert got == dict(want)


def test_probabilities_are_exact_and_checked():
    p = class_polynomial(4, 28, 10, lambda c: int(c >= 2)).coefficients(10)
    probs = probabilities(p, hand_count([4] * 28, 10))
    assert sum(probs.values()) == 1
    with pytest.raises(ValueError):
        probabilities({0: 1}, 2)


def test_bad_input_is_a_kaptai_error():
    with pytest.raises(KaptaiError, match="copies"):
        list(count_vectors([2, -1], 1))
    with pytest.raises(KaptaiError, match="size"):
        list(count_vectors([2, 1], 4))
    with pytest.raises(KaptaiError, match="power"):
        kind_polynomial(4, 3).power(-1)
    assert Polynomial.one(3).coefficients(0) == {0: 1}
