"""Combinations (rules/big-two.md §3): page examples, and compiled vs reference on random sets."""
import itertools

import numpy as np
import pytest

from kaptai.bigtwo import reference
from kaptai.bigtwo.cards import parse_cards
from kaptai.bigtwo.evaluate import CATEGORIES, beats, classify, classify_masks, compare, legal_plays
from kaptai.bigtwo.rules import RuleSet
from kaptai.errors import InvalidHandError

# option configurations covering every value of every combination option
CONFIGS = [
    {},
    {"suit_order": "taiwan"},
    {"straight_order": "sequential"},
    {"straight_order": "poker", "straight_suit_card": "sequence_top"},
    {"straight_order": "wheel_top", "flush_compare": "suit_first"},
    {"straight_order": "broadway_top", "top_rank": "3", "two_pair_five": True},
    {"quad_kicker": "optional", "top_rank": "A"},
    {"four_card_play": "quad", "suit_order": "taiwan", "straight_suit_card": "sequence_top"},
    {"four_card_play": "quad_or_two_pair", "two_pair_five": True, "top_rank": "4"},
]


def test_page_examples():
    assert compare("KS KD", "KH KC") == 1  # ♠K♦K > ♥K♣K
    assert beats("4S 4H 4D 4C 3C", "3S 3H 3D 3C KD")  # 4444+3 > 3333+K
    for fc in ("rank_first", "suit_first"):
        assert compare("2S 4S 5S 6S 8S", "AH KH QH TH 8H", {"flush_compare": fc}) == 1
    assert compare("AD 6D 5D 4D 3D", "KS QS JS TS 8S") == 1
    assert compare("AD 6D 5D 4D 3D", "KS QS JS TS 8S", {"flush_compare": "suit_first"}) == -1
    # full house: the pair is irrelevant
    assert compare("5S 5H 5D 3C 3D", "4S 4H 4D 2C 2D") == 1
    # single: rank then suit; suit order option
    assert beats("3C", "3D") and not beats("3C", "3D", {"suit_order": "taiwan"})
    assert beats("3D", "2S", {"top_rank": "3"})
    with pytest.raises(InvalidHandError, match='"3D 4D" is not a legal combination'):
        classify("3D 4D")


STRAIGHT_TEXT = {
    "34567": "3D 4C 5H 6S 7D", "TJQKA": "TD JC QH KS AD", "23456": "2D 3C 4H 5S 6D",
    "A2345": "AD 2C 3H 4S 5D", "JQKA2": "JD QC KH AS 2D", "9TJQK": "9D TC JH QS KD",
}
PAGE_ORDER = {
    "hk": ["34567", "9TJQK", "TJQKA", "23456", "A2345"],
    "sequential": ["34567", "9TJQK", "TJQKA", "JQKA2"],
    "poker": ["A2345", "23456", "34567", "9TJQK", "TJQKA"],
    "wheel_top": ["23456", "34567", "9TJQK", "TJQKA", "A2345"],
    "broadway_top": ["23456", "34567", "9TJQK", "A2345", "TJQKA"],
}


@pytest.mark.parametrize("order", PAGE_ORDER)
def test_straight_orders(order):
    r = {"straight_order": order}
    seq = PAGE_ORDER[order]
    for lo, hi in zip(seq, seq[1:]):
        assert compare(STRAIGHT_TEXT[hi], STRAIGHT_TEXT[lo], r) == 1, (lo, hi)
    for name, text in STRAIGHT_TEXT.items():
        legal = name in seq
        assert (classify_masks([sum(1 << c for c in parse_cards(text))], r)[0][0] == 5) == legal, name
    with pytest.raises(InvalidHandError):
        classify("QD KC AH 2S 3D", r)  # no other wrap-around


def test_straight_suit_card():
    # A2345: tie card is the 2 (highest_single) or the 5 (sequence_top)
    a, b = "AS 2D 3S 4S 5H", "AD 2H 3D 4D 5S"
    assert compare(a, b) == -1
    assert compare(a, b, {"straight_suit_card": "sequence_top"}) == -1  # 5H < 5S
    c, d = "AS 2D 3S 4S 5S", "AD 2H 3D 4D 5D"
    assert compare(c, d) == -1 and compare(c, d, {"straight_suit_card": "sequence_top"}) == 1
    # straight flush beats four of a kind, then suit
    assert beats("3D 4D 5D 6D 7D", "2S 2H 2D 2C 3C")
    assert compare("3S 4S 5S 6S 7S", "3H 4H 5H 6H 7H") == 1


def test_four_card_options():
    quad, two_pair = "5S 5H 5D 5C", "KS KH 3D 3C"
    with pytest.raises(InvalidHandError):
        classify(quad)
    assert classify(quad, {"quad_kicker": "optional"}).trick == 5
    assert beats(quad, "4S 4H 4D 4C 2S", {"quad_kicker": "optional"})
    assert beats(quad, "9S 9H 9D 8C 8D", {"quad_kicker": "optional"})
    assert classify(quad, {"four_card_play": "quad"}).trick == 4
    with pytest.raises(InvalidHandError):
        classify(two_pair, {"four_card_play": "quad"})
    r = {"four_card_play": "quad_or_two_pair"}
    assert beats(quad, two_pair, r) and beats("KS KH 4D 4C", "KD KC AS AH", r) is False
    assert compare("AS AD 3D 3C", "KS KH QD QC", r) == 1
    with pytest.raises(InvalidHandError, match="same count"):
        compare(quad, "5S 5H 5D 5C 3D", r)


def test_two_pair_five():
    r = {"two_pair_five": True}
    with pytest.raises(InvalidHandError):
        classify("KS KH 3D 3C 9S")
    assert classify("KS KH 3D 3C 9S", r).category.value == "two_pair_plus_one"
    assert beats("3D 4C 5H 6S 7D", "AS AH KD KC 9S", r)
    assert compare("KS KD 3D 3C 9S", "KH KC 4D 4C AS", r) == 1  # higher pair by pair rules
    assert compare("KS KD 3D 3C 9S", "KS KD 4D 4C AS", r) == 0


def _rand_sets(rng, n):
    for _ in range(n):
        k = int(rng.integers(1, 6))
        if rng.random() < 0.5:  # bias to repeated ranks so every category occurs
            ranks = rng.choice(13, size=3, replace=False)
            pool = np.array([4 * r + s for r in ranks for s in range(4)])
            yield tuple(int(x) for x in rng.choice(pool, size=k, replace=False))
        elif rng.random() < 0.3:
            s = int(rng.integers(0, 4))
            yield tuple(int(4 * r + s) for r in rng.choice(13, size=k, replace=False))
        else:
            yield tuple(int(x) for x in rng.choice(52, size=k, replace=False))


@pytest.mark.parametrize("cfg", CONFIGS, ids=lambda c: ",".join(f"{k}={v}" for k, v in c.items()) or "default")
def test_compiled_matches_reference_random(cfg):
    rules = RuleSet(**cfg)
    rng = np.random.default_rng(8)
    sets = list(_rand_sets(rng, 3000)) + [tuple(range(4 * r, 4 * r + 4)) for r in range(13)]
    masks = np.array([sum(1 << c for c in s) for s in sets], dtype=np.uint64)
    t, c, k = classify_masks(masks, rules)
    ref = [reference.classify(s, rules) for s in sets]
    for s, tt, cc, rr in zip(sets, t, c, ref):
        if rr is None:
            assert tt == 0, s
        else:
            assert (tt, CATEGORIES[cc].value) == rr[:2], s
    # order within each trick class agrees pairwise (sorted by compiled key, reference keys weakly increase)
    for trick in range(1, 6):
        idx = [i for i in range(len(sets)) if t[i] == trick]
        idx.sort(key=lambda i: k[i])
        for i, j in zip(idx, idx[1:]):
            a, b = ref[i][2], ref[j][2]
            assert (a < b) if k[i] < k[j] else (a == b), (sets[i], sets[j])


@pytest.mark.parametrize("cfg", CONFIGS[:6])
def test_vectorised_reference_matches_scalar(cfg):
    rules = RuleSet(**cfg)
    rng = np.random.default_rng(3)
    sets = [s for s in _rand_sets(rng, 6000) if len(s) == 5][:1500]
    cat, key = reference.classify_five(np.array(sets), rules)
    scalar = [reference.classify(s, rules) for s in sets]
    for s, cc, sc in zip(sets, cat, scalar):
        assert (reference.CATEGORY_ORDER[cc] if cc >= 0 else None) == (sc[1] if sc else None), s
    legal = [i for i in range(len(sets)) if cat[i] >= 0]
    legal.sort(key=lambda i: key[i])
    for i, j in zip(legal, legal[1:]):
        assert (scalar[i][2] < scalar[j][2]) if key[i] < key[j] else (scalar[i][2] == scalar[j][2])


@pytest.mark.parametrize("cfg", [CONFIGS[0], CONFIGS[6], CONFIGS[8]])
def test_legal_plays_brute_force(cfg):
    rules = RuleSet(**cfg)
    rng = np.random.default_rng(5)
    for _ in range(15):
        hand = tuple(int(x) for x in rng.choice(52, size=13, replace=False))
        target = next(s for s in _rand_sets(rng, 100) if reference.classify(s, rules))
        tr = reference.classify(target, rules)
        expect = set()
        for k in range(1, 6):
            for sub in itertools.combinations(hand, k):
                r = reference.classify(sub, rules)
                if r and r[0] == tr[0] and r[2] > tr[2]:
                    expect.add(frozenset(sub))
        got = legal_plays(hand, rules, beat=target)
        assert {frozenset(p.cards) for p in got} == expect
        assert [p.key for p in got] == sorted(p.key for p in got)
    leads = legal_plays("3D 3C 3H 4D 5D 6D 7D", rules)
    assert all(p.trick >= 1 for p in leads) and len({p.cards for p in leads}) == len(leads)
