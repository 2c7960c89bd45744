"""Golden digests: the full ranking of all 2,598,960 five-card sets, per option combination.

``tests/bigtwo/test_exhaustive.py`` compares the compiled evaluator with the reference at run
time; this file pins the result, so that any change of any set's category or relative
strength under any five-card option is caught, whatever both implementations do.

Canonical serialisation (what is hashed)
----------------------------------------
* **Sets.**  Every five-card set once, in lexicographic order of its ascending card ids
  (ids of ``kaptai.bigtwo.DECK``, 0 = 3D ... 51): (0,1,2,3,4), (0,1,2,3,5), ...,
  (47,48,49,50,51).  This is the order of ``kaptai.bigtwo.five_card_ranking``.
* **Category.**  Per set the index of its category in ``kaptai.bigtwo.CATEGORIES`` as
  ``int8``; **-1 if the set is not a legal five-card play** under the options.
* **Rank.**  Per set its dense strength rank among the legal five-card plays as
  little-endian ``int32`` (0 = the weakest; equal plays share a rank; -1 if not legal).
* **Digest.**  ``sha256`` of all 2,598,960 category bytes (in set order) followed by all
  2,598,960 rank words (in set order) -- two blocks, not interleaved -- lowercase hex.  This
  is exactly what ``kaptai.bigtwo.golden_hash`` hashes (tested below).

Every digest was computed once with the compiled evaluator (about 0.1-0.4 s per option
combination, so nothing in the fast tests is scaled or sampled); the compiled evaluator
agrees with the independent reference on every set (``test_exhaustive.py``), and the slow
test below recomputes one digest with the reference from scratch.
"""
from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest

from kaptai.bigtwo import CATEGORIES, Category, RuleSet, classify, five_card_ranking, golden_hash, parse_cards
from kaptai.bigtwo import reference
from kaptai.errors import KaptaiError

N_SETS = math.comb(52, 5)

# option overrides (the test_exhaustive.py combinations) -> (legal five-card plays,
# distinct strengths, sha256)
GOLDEN = [
    ({}, 19_716, 5214, "826e9f8d7daf3bef70339fdba46d72245862d916f17da5d0a126b9673ace1745"),
    ({"suit_order": "taiwan"}, 19_716, 5214,
     "12e0b44006d4179864861b588a81920773226aedb3cdd665e29660be3e9de299"),
    ({"straight_order": "sequential"}, 18_696, 5210,
     "d2a2cb2c8b6456769b1f591408ab4d651e422ea30352c0616d6f4bfb5c5c1f56"),
    ({"straight_order": "poker"}, 19_716, 5214,
     "b1b576bbe15920cda818ef6796f84e31fc742b196d06cf4a0c52c5fe4ebb3b1b"),
    ({"straight_order": "wheel_top"}, 19_716, 5214,
     "05dc52bca3085e25cfcff3b118101a1fb0b3bd4dbaca6adc6d5cc74db2d1c038"),
    ({"straight_order": "broadway_top"}, 19_716, 5214,
     "6d6a37849c0994a8d8554c02e6497b88f9455a5de0706119dc3a18460e70b95d"),
    ({"straight_suit_card": "sequence_top"}, 19_716, 5214,
     "7faaf3906b0f4d505cbde109b7e054b2c591a1830897dc6fe4f47dac3e362541"),
    ({"flush_compare": "suit_first"}, 19_716, 5214,
     "94771805b2f37243481609f57a977e91a3c62243794168735e587d2a08ab54c3"),
    ({"two_pair_five": True}, 143_268, 5250,
     "fefcdb446fe9e749b3d255867415d5dab34b147a7fb5b210d0c79368f637df79"),
    ({"top_rank": "3"}, 19_716, 5214,
     "0f90ee1c8d5ea22c5f2683b5d85b9d73dbf5a771ef1609d5f31e26018e4da92a"),
    ({"top_rank": "4"}, 19_716, 5214,
     "293fef2b9ebc3be367bada04de7e7e1d27b1d2abc19e2c731a7f793043244818"),
    ({"straight_order": "poker", "straight_suit_card": "sequence_top", "top_rank": "A",
      "suit_order": "taiwan", "flush_compare": "suit_first", "two_pair_five": True}, 143_268, 5250,
     "4ba1adb8ba761d789b9016c3afd241efe3b1a06a208a2729f2cf2a583ccaf486"),
]
IDS = [",".join(f"{k}={v}" for k, v in cfg.items()) or "default" for cfg, *_ in GOLDEN]


def digest(cat: np.ndarray, rank: np.ndarray) -> str:
    """sha256 of the canonical serialisation (module docstring)."""
    h = hashlib.sha256()
    h.update(np.ascontiguousarray(cat, dtype="<i1").tobytes())
    h.update(np.ascontiguousarray(rank, dtype="<i4").tobytes())
    return h.hexdigest()


def set_index(cards: tuple[int, ...]) -> int:
    """Position of an ascending five-card set in lexicographic order (combinatorial rank)."""
    index, prev = 0, -1
    for i, c in enumerate(cards):
        for skipped in range(prev + 1, c):
            index += math.comb(51 - skipped, 4 - i)
        prev = c
    return index


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_golden_ranking_digest(golden):
    cfg, n_legal, n_ranks, expected = golden
    rules = RuleSet(**cfg)
    cat, rank = five_card_ranking(rules)
    assert cat.shape == rank.shape == (N_SETS,)
    legal = cat >= 0
    assert int(legal.sum()) == n_legal
    assert np.array_equal(legal, rank >= 0)
    # dense ranks: every value 0 .. n_ranks-1 is used
    assert np.array_equal(np.unique(rank[legal]), np.arange(n_ranks))
    assert digest(cat, rank) == expected
    assert golden_hash(rules) == expected  # the package's own hash is this serialisation


def test_digests_are_distinct():
    # every option value changes the five-card ranking (else it would not be a five-card option)
    assert len({d for *_, d in GOLDEN}) == len(GOLDEN)


def test_digest_sees_one_changed_rank():
    cat, rank = five_card_ranking()
    rank = rank.copy()
    i = int(np.flatnonzero(rank >= 0)[0])
    rank[i] += 1
    assert digest(cat, rank) != GOLDEN[0][3]


def test_set_order_is_lexicographic():
    # the serialisation's set order, checked on named sets against the one-play classifier
    assert set_index((0, 1, 2, 3, 4)) == 0 and set_index((47, 48, 49, 50, 51)) == N_SETS - 1
    cat, rank = five_card_ranking()
    sets = ["3D 3C 3H 3S 4D", "3D 4D 5D 6D 7D", "TS JS QS KS AS", "3D 3C 4D 4C 5D", "3D 4C 5H 6S 7D",
            "2D 2C 2H AS AH", "3D 5D 7D 9D JD", "3D 4D 5D 6D 8C"]
    strengths = []
    for text in sets:
        ids = tuple(sorted(parse_cards(text)))
        i = set_index(ids)
        try:
            play = classify(ids)
        except KaptaiError:  # not a legal five-card play
            assert cat[i] == -1 and rank[i] == -1, text
            continue
        assert CATEGORIES[cat[i]] == play.category, text
        strengths.append((int(rank[i]), text))
    # two pair + kicker (two_pair_five is off by default) and the last set are not five-card plays
    assert len(strengths) == len(sets) - 2
    # straight flush > four of a kind > full house, in the ranks read at those positions
    ranks = {t: r for r, t in strengths}
    assert ranks["3D 4D 5D 6D 7D"] > ranks["3D 3C 3H 3S 4D"] > ranks["2D 2C 2H AS AH"]
    assert CATEGORIES[cat[set_index(tuple(sorted(parse_cards("TS JS QS KS AS"))))]] == Category.STRAIGHT_FLUSH


@pytest.mark.slow
def test_reference_reproduces_default_digest():
    """The independent reference evaluator, from scratch, gives the pinned default digest.

    A digest cannot be scaled, so this runs in full whenever it runs (about 8 s here), for
    any ``KAPTAI_SLOW_SCALE``."""
    assert reference.golden_hash({}) == GOLDEN[0][3]
