"""Every five-card set (2,598,960): compiled evaluator vs the numpy reference, and golden hashes.

``KAPTAI_SLOW_SCALE`` (1 = every set; the default is in tests/conftest.py) sets the share of
sets compared (a seeded random sample below 1) and of option values whose golden hash is
recomputed by the reference.
"""
import math

import numpy as np
import pytest

from kaptai.bigtwo import evaluate as combos, reference
from kaptai.bigtwo.rules import RuleSet
from ..conftest import SLOW_SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py

# one configuration per option value of every option that changes five-card play
OPTION_VALUES = [
    {},
    {"suit_order": "taiwan"},
    {"straight_order": "sequential"},
    {"straight_order": "poker"},
    {"straight_order": "wheel_top"},
    {"straight_order": "broadway_top"},
    {"straight_suit_card": "sequence_top"},
    {"flush_compare": "suit_first"},
    {"two_pair_five": True},
    {"top_rank": "3"},
    {"top_rank": "4"},
    {"straight_order": "poker", "straight_suit_card": "sequence_top", "top_rank": "A", "suit_order": "taiwan",
     "flush_compare": "suit_first", "two_pair_five": True},
]
_ids = [",".join(f"{k}={v}" for k, v in c.items()) or "default" for c in OPTION_VALUES]


def _sample(n: int) -> np.ndarray:
    if SLOW_SCALE >= 1:
        return np.arange(n)
    rng = np.random.default_rng(20240808)
    return np.sort(rng.choice(n, size=max(1000, int(n * SLOW_SCALE)), replace=False))


@pytest.mark.slow
@pytest.mark.parametrize("cfg", OPTION_VALUES, ids=_ids)
def test_every_five_card_set(cfg):
    rules = RuleSet(**cfg)
    sets = combos.all_five_card_sets()
    assert sets.shape == (math.comb(52, 5), 5)
    idx = _sample(len(sets))
    t, c, k = combos.classify_masks(combos._five_masks()[idx], rules)
    # the reference in slices: its temporaries for all 2,598,960 sets at once are about 1.2 GB
    parts = [reference.classify_five(sets[idx[s : s + (1 << 18)]], rules) for s in range(0, len(idx), 1 << 18)]
    rc, rk = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    legal = t == 5
    assert np.array_equal(legal, rc >= 0)
    assert np.array_equal(np.where(legal, c, -1), rc.astype(np.int64))
    # same ordering and ties: sort by compiled key, reference key must be weakly increasing with equal ties
    kc, kr = k[legal], rk[legal]
    order = np.lexsort((kr, kc))
    kc, kr = kc[order], kr[order]
    dc, dr = np.diff(kc), np.diff(kr)
    assert (dr >= 0).all()
    assert np.array_equal(dc == 0, dr == 0)


def _hash_configs():
    if SLOW_SCALE >= 1:
        return list(range(len(OPTION_VALUES)))
    rng = np.random.default_rng(7)
    n = max(1, math.ceil(SLOW_SCALE * len(OPTION_VALUES)))
    return sorted({0, *rng.choice(len(OPTION_VALUES), size=n, replace=False).tolist()})


@pytest.mark.slow
def test_golden_hash_per_option_value():
    hashes = {}
    for i in _hash_configs():
        cfg = OPTION_VALUES[i]
        fast, ref = combos.golden_hash(cfg), reference.golden_hash(cfg)
        assert fast == ref, _ids[i]
        hashes[_ids[i]] = fast
    # each option value changes the ranking (otherwise it would not be a five-card option)
    assert len(set(hashes.values())) == len(hashes)


def test_category_counts_default():
    cat, rank = combos.five_card_ranking()
    counts = {combos.CATEGORIES[i].value: int((cat == i).sum()) for i in np.unique(cat) if i >= 0}
    # 10 straights x 4^5 suit patterns; 4 x C(13,5) suited sets minus the 40 straight flushes
    assert counts == {"straight": 10 * 1020, "straight_flush": 40, "flush": 4 * math.comb(13, 5) - 40,
                      "full_house": 13 * 4 * 12 * 6, "four_of_a_kind": 13 * 48}
    cat2, _ = combos.five_card_ranking({"straight_order": "sequential"})
    assert int((cat2 == combos.CATEGORIES.index(combos.Category.STRAIGHT_FLUSH)).sum()) == 36
