"""The compiled table evaluator against the pure-Python reference decomposer."""
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from kaptai.errors import InvalidHandError, KaptaiError
from kaptai.nantong import evaluate as E
from kaptai.nantong import reference as R

from .helpers import drop_one, perturb, random_complete, random_deal

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=300)
@given(seeds, st.integers(0, 7), st.booleans(), st.integers(0, 3))
def test_complete_matches_reference(seed, melds, hs, swaps):
    rng = np.random.default_rng(seed)
    c = random_complete(rng, melds=melds, honour_sequence=hs, pong_bias=float(rng.random()))
    if swaps:
        c = perturb(rng, c, swaps)
    rules = {"honour_sequence": hs}
    assert E.is_complete(c, rules) == R.is_complete(c, hs)
    if not swaps:
        assert E.is_complete(c, rules)


@settings(max_examples=300)
@given(seeds, st.integers(0, 7), st.booleans(), st.integers(0, 2))
def test_waits_match_reference(seed, melds, hs, swaps):
    rng = np.random.default_rng(seed)
    c = drop_one(rng, random_complete(rng, melds=melds, honour_sequence=hs, pong_bias=float(rng.random())))
    if swaps:
        c = perturb(rng, c, swaps)
    rules = {"honour_sequence": hs}
    assert E.waits(c, rules) == R.waits(c, hs)


@settings(max_examples=200)
@given(seeds, st.sampled_from([1, 2, 4, 5, 7, 8]), st.booleans())
def test_distance_matches_brute_force(seed, size, hs):
    rng = np.random.default_rng(seed)
    c = random_deal(rng, size)
    assert E.distance(c, {"honour_sequence": hs}) == R.distance(c, hs)


@pytest.mark.slow
def test_distance_brute_force_three_melds():
    rng = np.random.default_rng(5)
    for size in (10, 11):
        for _ in range(4):
            c = random_deal(rng, size)
            assert E.distance(c) == R.distance(c)
            c = perturb(rng, random_complete(rng, melds=3), 2)
            if c.sum() == size:
                assert E.distance(c) == R.distance(c)


@settings(max_examples=200)
@given(seeds)
def test_distance_properties_on_full_hands(seed):
    rng = np.random.default_rng(seed)
    full = random_complete(rng, melds=7, pong_bias=float(rng.random()))
    assert E.distance(full) == -1
    h22 = drop_one(rng, full)
    assert E.distance(h22) == 0 and E.waits(h22)
    # one exchange moves the distance by at most one; ready <=> a wait exists
    prev = h22
    for _ in range(6):
        nxt = perturb(rng, prev, 1)
        d0, d1 = E.distance(prev), E.distance(nxt)
        assert abs(d0 - d1) <= 1
        assert (d1 == 0) == bool(R.waits(nxt))
        prev = nxt
    deal = random_deal(rng, 22)
    assert (E.distance(deal) == 0) == bool(R.waits(deal))
    deal23 = random_deal(rng, 23)
    assert (E.distance(deal23) == -1) == R.is_complete(deal23)


def test_batches_and_constructed_hands():
    rng = np.random.default_rng(3)
    hands = [random_complete(rng) for _ in range(50)] + [random_deal(rng, 23) for _ in range(50)]
    a = np.array(hands)
    assert E.complete_many(a).tolist() == [R.is_complete(h) for h in hands]
    h22 = np.array([drop_one(rng, h) for h in hands[:50]] + [random_deal(rng, 22) for _ in range(50)])
    masks = E.waits_many(h22)
    assert [E.mask_kinds(m) for m in masks] == [R.waits(h) for h in h22]
    both_c, both_w = np.zeros(200, np.uint8), np.zeros(200, np.uint32)
    from kaptai.nantong import _eval
    mixed = np.ascontiguousarray(np.concatenate([a, h22]))
    _eval.analyze_batch(mixed, 0, both_c, both_w)
    assert both_c[:100].astype(bool).tolist() == E.complete_many(a).tolist()
    assert both_w[100:].tolist() == masks.tolist()
    # constructed: nine gates style 1112345678999 + ...; 4 copies never a 5th
    assert E.waits("1112345678999w") == tuple(range(9))
    assert E.waits("1111w") == ()
    assert E.waits("qz") == (27,) and E.waits("qzx3 bh") == (28,)
    assert E.waits("qz qz qz bh") == R.waits(E.hand_counts("qz qz qz bh"))


def test_live_outs():
    w, outs = E.live_outs("1112w", seen="3w 3w")
    assert w == (1, 2) and outs == 3 + 2
    w, outs = E.live_outs("1112w", caps=[4] * 30)
    assert outs == 3 + 4
    with pytest.raises(KaptaiError, match="used 5 times"):
        E.live_outs("1112w", seen="1w 1w")


def test_bad_input():
    with pytest.raises(KaptaiError, match="unknown card token '0w'"):
        E.is_complete("0w")
    with pytest.raises(KaptaiError, match="24 cards"):
        E.distance_many([E.hand_counts("1111222233334444w 5555666w 7w")])
    with pytest.raises(KaptaiError):
        E.counts_array(np.full((2, 30), 5))


@settings(max_examples=150)
@given(seeds, st.integers(0, 8))
def test_live_outs_match_reference(seed, n_seen):
    rng = np.random.default_rng(seed)
    c = drop_one(rng, random_complete(rng, melds=int(rng.integers(1, 8)), pong_bias=float(rng.random())))
    seen = np.zeros(30, dtype=np.uint8)
    for _ in range(n_seen):
        k = int(rng.integers(30))
        if int(c[k]) + int(seen[k]) < 4:
            seen[k] += 1
    w, outs = E.live_outs(c, seen=seen)
    ref = R.waits(c)
    assert w == ref
    assert outs == sum(4 - int(c[k]) - int(seen[k]) for k in ref)


def test_mixed_sizes_and_exposed_melds():
    # concealed hands of every size a seat can hold (melds exposed): 3k+2 complete / 3k+1 waits
    rng = np.random.default_rng(12)
    for k in range(0, 8):
        for _ in range(20):
            full = random_complete(rng, melds=k)
            assert E.is_complete(full) and E.distance(full) == -1
            short = drop_one(rng, full)
            assert E.waits(short) == R.waits(short)
            assert E.distance(short) == 0


@settings(max_examples=150)
@given(seeds, st.sampled_from([22, 23]), st.integers(0, 6), st.booleans())
def test_full_size_distance_matches_dp_reference(seed, size, swaps, hs):
    """22/23-card hands: the tables against the table-free dynamic programme of reference.py."""
    rng = np.random.default_rng(seed)
    if swaps == 0:
        c = random_deal(rng, size)
    else:
        c = perturb(rng, random_complete(rng, honour_sequence=hs, pong_bias=float(rng.random())), swaps)
        if size == 22:
            c = drop_one(rng, c)
    assert E.distance(c, {"honour_sequence": hs}) == R.distance_dp(c, hs)


@settings(max_examples=100)
@given(seeds, st.sampled_from([1, 2, 4, 5, 7, 8]))
def test_dp_reference_matches_brute_force(seed, size):
    c = random_deal(np.random.default_rng(seed), size)
    assert R.distance_dp(c) == R.distance(c)


# ----------------------------------------------------------------------------- hand sizes (issue 22)
@pytest.mark.parametrize("hand", ["", "123w", "111w 222w", "1111222233334444w 5555666w 7w"])
@pytest.mark.parametrize("fn", [E.is_complete, E.waits, E.live_outs, E.distance, E.analyze_hand])
def test_hands_of_no_nantong_size_are_refused(fn, hand):
    """An empty hand, 3 cards (any 3k) or more than 23 cards is no Nantong hand: a clear error
    saying which sizes are (22 or 23 less 3 per exposed set, rules page §2-§4)."""
    n = len(E.parse_cards(hand))
    with pytest.raises(InvalidHandError, match=rf"the hand has {n} cards?: .*3k\+1 cards.*22, 19, \.\.\..*1\b"):
        fn(hand)


def test_hand_sizes_follow_the_rules_page():
    assert E.HAND_SIZES["rest"] == (1, 4, 7, 10, 13, 16, 19, 22)
    assert E.HAND_SIZES["draw"] == (2, 5, 8, 11, 14, 17, 20, 23)
    with pytest.raises(InvalidHandError, match=r"hand 2 has 3 cards"):
        E.complete_many(["11w", "123w"])
    with pytest.raises(InvalidHandError, match=r"waits are defined for 3k\+1 cards.*; discard a card first"):
        E.waits("11w 234w")  # 5 cards: after the draw
    assert E.complete_many(["11w", "1w"]).tolist() == [True, False]  # a hand at rest is never complete


def test_analysis_of_a_complete_hand_says_complete():
    df = E.analyze_hand("123b 234w 678t 333w qzx3 789t 9w bhx3 9w")
    assert list(df.columns) == list(E.ANALYSIS_COLUMNS)
    row = df.iloc[0]
    assert row.status == "complete" and bool(row.complete) and row.distance is pd.NA  # not "distance -1"
    assert E.distance("123b 234w 678t 333w qzx3 789t 9w bhx3 9w") == -1  # the library's number is unchanged
    assert df.attrs["game"] == "nantong"
