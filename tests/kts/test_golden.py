"""Golden digests of exhaustive enumerations: the best score of every hand from one set.

Every multiset of 10 tiles (Kap Tai Shap's first hand) and of 8 tiles (Kap Shap's) that
one set of tiles can hold is scored by the public compiled batch API
(:func:`kaptai.kts.score_hands`) under both presets, and a sha256 of the result is pinned.
A change of any score of any hand, of the set's composition or of the enumeration changes
the digest.

Canonical serialisation (what is hashed)
----------------------------------------
* **Vectors.**  A hand is its count vector ``c[0..20]`` over the 21 tile ids of
  ``kaptai.kts.TILES`` (the rules page's order), with ``0 <= c[i] <= COPIES_PER_SET[i]``
  (2 for ids 0-10, 1 for ids 11-20) and ``sum(c) = size``.  Every such vector occurs
  once, in **lexicographic order** of ``(c[0], c[1], ..., c[20])`` ascending (id 0 most
  significant): 3,780,888 vectors of 10 tiles and 868,605 of 8.
* **Record.**  For each vector, in that order: its 21 counts as unsigned bytes (``uint8``),
  then its best score as a little-endian ``int16``: 23 bytes per vector, no padding
  (numpy dtype ``[("c", "u1", (21,)), ("s", "<i2")]``).
* **Score.**  The value of ``score_hands``: the advanced-table score (base + general eyes,
  no self-draw or dealer-streak bonus) of the best decomposition the preset's forms allow;
  a hand that is **not a win encodes -1** (``ff ff``).
* **Digest.**  ``sha256`` of the concatenated records, lowercase hex.

The digests were computed once with the compiled evaluator, and are shown to be correct
scores (not just stable ones) by the cross-checks below: a seeded random sample of the
same vectors (winning ones over-sampled) is scored by the pure-Python oracle
:mod:`kaptai.kts.reference`, and for Kap Shap the hypergeometrically weighted enumeration
reproduces the exact ``natural`` probability and score distribution of
:func:`kaptai.kts.deal_odds` for two players (one set, 8-tile first hand).

The whole file takes about 6 s of CPU (8-15 s wall on the shared 2-core machine, where the
enumeration and scoring of both sizes under both presets are most of it), so nothing here is
marked ``slow``; a digest cannot be scaled by ``KAPTAI_SLOW_SCALE`` and none is.
"""
from __future__ import annotations

import hashlib
import itertools
import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from kaptai.kts import TILES, deal_odds, score_hands
from kaptai.kts import reference as ref
from kaptai.kts.tiles import COPIES_PER_SET

RECORD = np.dtype([("c", "u1", (21,)), ("s", "<i2")])

# (size, preset) -> (vectors, winning vectors, sha256 of the records)
GOLDEN = {
    (10, "traditional"): (3_780_888, 33_107, "a67b90b477de8c40ec8c74e0eb1b1505aad91ea5aa1b2f2f189bfde7df49576d"),
    (10, "advanced"): (3_780_888, 220_535, "bbd18f25e5d7dca4e02304980ceadd6aef2625ba06db5e16fccc6cb5679b0ef1"),
    (8, "traditional"): (868_605, 9_757, "1f17c3745a706db01324e377582e110951e0a7a1daadf604546e1522283b3e5a"),
    (8, "advanced"): (868_605, 39_619, "e3d309921528a9b7e0fd0cb710ff69f77f955e51376e35409fd86c7a04cb75d6"),
}
CASES = sorted(GOLDEN)
IDS = [f"{size}tiles-{preset}" for size, preset in CASES]


def _box(caps: list[int]) -> np.ndarray:
    """Every vector with 0 <= v[i] <= caps[i], in lexicographic order."""
    return np.array(list(itertools.product(*[range(c + 1) for c in caps])), dtype=np.uint8).reshape(-1, len(caps))


@lru_cache(maxsize=None)
def one_set_vectors(size: int) -> np.ndarray:
    """Every count vector of ``size`` tiles one set can hold, in lexicographic order.

    The 21 ids are split into a head (ids 0-10) and a tail (ids 11-20); both boxes are
    generated in lexicographic order, and each head is followed by the tails of the
    complementary size in their own lexicographic order, which is lexicographic order of
    the whole vector."""
    caps = [int(c) for c in COPIES_PER_SET]
    head, tail = _box(caps[:11]), _box(caps[11:])
    sh = head.sum(axis=1, dtype=np.int64)
    st = tail.sum(axis=1, dtype=np.int64)
    by_sum = np.argsort(st, kind="stable")  # tails grouped by size, lexicographic inside a group
    start = np.searchsorted(st[by_sum], np.arange(sum(caps[11:]) + 2))
    need = np.clip(size - sh, 0, sum(caps[11:]))
    ok = (size - sh >= 0) & (size - sh <= sum(caps[11:]))
    n_tails = np.where(ok, start[need + 1] - start[need], 0)
    hi = np.repeat(np.arange(len(head)), n_tails)
    within = np.arange(len(hi)) - np.repeat(np.cumsum(n_tails) - n_tails, n_tails)
    ti = by_sum[start[need[hi]] + within]
    out = np.concatenate([head[hi], tail[ti]], axis=1)
    out.setflags(write=False)
    return out


def tiles_of(counts: np.ndarray) -> np.ndarray:
    """Tile-id rows (ascending ids) of count vectors of one size."""
    size = int(counts[0].sum())
    ids = np.tile(np.arange(21, dtype=np.int8), len(counts))
    return np.repeat(ids, counts.ravel().astype(np.int64)).reshape(len(counts), size)


CHUNK = 1 << 18  # rows converted at a time: keeps the temporaries small (fast on a busy machine)


@lru_cache(maxsize=None)
def golden_scores(size: int, preset: str) -> np.ndarray:
    v = one_set_vectors(size)
    s = np.concatenate([score_hands(tiles_of(v[i:i + CHUNK]), preset) for i in range(0, len(v), CHUNK)])
    s.setflags(write=False)
    return s


def packed(v: np.ndarray) -> np.ndarray:
    """Each vector as one base-3 integer, id 0 most significant (order-preserving: counts <= 2)."""
    place = 3 ** np.arange(20, -1, -1, dtype=np.int64)
    return np.concatenate([v[i:i + CHUNK].astype(np.int64) @ place for i in range(0, len(v), CHUNK)])


def digest(vectors: np.ndarray, scores: np.ndarray) -> str:
    """sha256 of the canonical records (see the module docstring)."""
    rec = np.empty(len(vectors), dtype=RECORD)
    rec["c"] = vectors
    rec["s"] = scores
    return hashlib.sha256(rec.tobytes()).hexdigest()


# --------------------------------------------------------------------------------------
# The enumeration itself
# --------------------------------------------------------------------------------------
def test_one_set_composition():
    # 21 kinds, 32 tiles a set: the 11 paired kinds (civil tiles) then the 10 single ones
    assert len(TILES) == 21
    assert [int(c) for c in COPIES_PER_SET] == [2] * 11 + [1] * 10


@pytest.mark.parametrize("size", [10, 8])
def test_enumeration_is_every_vector_once_in_order(size):
    v = one_set_vectors(size)
    # the number of vectors is the coefficient of x^size in (1 + x + x^2)^11 (1 + x)^10
    coef = [0] * 33
    for a in range(23):  # tiles taken from the paired kinds
        ways_a = sum(math.comb(11, k) * math.comb(11 - k, a - 2 * k) for k in range(a // 2 + 1) if a - 2 * k <= 11 - k)
        for b in range(11):
            coef[a + b] += ways_a * math.comb(10, b)
    assert len(v) == coef[size] == GOLDEN[(size, "traditional")][0]
    assert (v.sum(axis=1) == size).all()
    assert (v <= COPIES_PER_SET.astype(np.uint8)).all()
    # strictly increasing in lexicographic order: sorted and no duplicates
    assert (np.diff(packed(v)) > 0).all()
    # the weights of the vectors are every way to draw `size` of the 32 tiles
    assert int(_weights(v).sum()) == math.comb(32, size)


def _weights(v: np.ndarray) -> np.ndarray:
    """Hypergeometric numerator of each vector: prod C(copies[i], c[i]) (int64, exact here)."""
    comb = np.array([[math.comb(int(cp), c) for c in range(3)] for cp in COPIES_PER_SET], dtype=np.int64)
    w = np.ones(len(v), dtype=np.int64)
    for i in range(21):
        w *= comb[i][v[:, i].astype(np.int64)]
    return w


# --------------------------------------------------------------------------------------
# The pinned digests
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_golden_digest(case):
    size, preset = case
    n, n_win, expected = GOLDEN[case]
    v = one_set_vectors(size)
    s = golden_scores(size, preset)
    assert s.shape == (n,)
    assert int((s >= 0).sum()) == n_win
    assert int(s.min()) == -1 and (s != 0).all()  # a win scores at least the form item
    assert digest(v, s) == expected


def test_digest_depends_on_every_score():
    v = one_set_vectors(8)
    s = np.array(golden_scores(8, "traditional"))
    s[len(s) // 2] += 1
    assert digest(v, s) != GOLDEN[(8, "traditional")][2]


def test_advanced_wins_include_traditional_wins():
    # the advanced forms contain the basic form: every traditional win is an advanced win
    for size in (10, 8):
        t, a = golden_scores(size, "traditional"), golden_scores(size, "advanced")
        assert ((t < 0) | (a >= t)).all()


# --------------------------------------------------------------------------------------
# The pinned digests come from correct scores
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_sample_against_reference(case):
    size, preset = case
    v = one_set_vectors(size)
    s = golden_scores(size, preset)
    rng = np.random.default_rng(20261201 + size + len(preset))
    wins = np.flatnonzero(s >= 0)
    sample = np.unique(np.concatenate([
        rng.choice(len(v), size=3000, replace=False),        # mostly non-wins
        rng.choice(wins, size=min(1500, len(wins)), replace=False),
    ]))
    for i in sample:
        c = [int(x) for x in v[i]]
        assert ref.score(c, preset) == int(s[i]), (preset, c)


@pytest.mark.parametrize("preset", ["traditional", "advanced"])
def test_kap_shap_enumeration_reproduces_exact_deal_odds(preset):
    # two players: one set, the first hand holds 8 tiles, a uniform 8-subset of the 32
    v = one_set_vectors(8)
    s = golden_scores(8, preset)
    w = _weights(v)
    total = math.comb(32, 8)
    win_weight = int(w[s >= 0].sum())
    df = deal_odds(2, preset, distance=False)
    natural = df[(df.metric == "natural")]
    assert Fraction(natural["exact"].iloc[0]) == Fraction(win_weight, total)
    dist = df[df.metric == "score_distribution"]
    expected = {int(level): Fraction(x) for level, x in zip(dist["level"], dist["exact"])}
    got = {int(k): Fraction(int(w[s == k].sum()), win_weight) for k in np.unique(s[s >= 0])}
    assert got == expected
