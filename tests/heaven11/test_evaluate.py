from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, strategies as st

from kaptai.errors import KaptaiError
from kaptai.heaven11 import reference as ref
from kaptai.heaven11.cards import InvalidCardError, InvalidCombinationError, parse_cards
from kaptai.heaven11.evaluate import (
    IllegalFollowError, check_follow, classify, combination_counts, compare, key_tables, legal_follows,
    trick_winner, trick_winners,
)
from kaptai.heaven11.rules import RuleSet

ALL_RULES = [RuleSet(point_scheme=p, reduction=r, ace_points=a)
             for p in ("blackjack", "rank") for r in ("repeat", "once") for a in (1, 11)]


def test_page_counts():
    c = combination_counts()
    assert c[2] == {"for_sum": 60, "consecutive": 10, "eleven": 6, "big_continuing": 1, "heaven_eleven": 1}
    assert c[3] == {"for_sum": 247, "consecutive": 9, "eleven": 27, "hole_in_the_middle": 1,
                    "explosive_continuing": 1, "heaven_eleven": 1}
    assert sum(c[2].values()) == 78 and sum(c[3].values()) == 286
    elevens = sorted(tuple(sorted(r)) for r in combinations(range(13), 2)
                     if classify([13 * 0 + x for x in r]).cls == "eleven")
    # 2-9, 3-8, 4-7, T-A, J-A, Q-A
    assert elevens == [(0, 7), (1, 6), (2, 5), (8, 12), (9, 12), (10, 12)]


def test_once_changes_104_and_ace11_changes_54():
    v, _, _ = key_tables()
    vo, _, _ = key_tables(RuleSet(reduction="once"))
    vao, _, _ = key_tables(RuleSet(reduction="once", ace_points=11))
    va, ca, _ = key_tables(RuleSet(ace_points=11))
    _, c, _ = key_tables()
    triples = [sum(1 << r for r in t) for t in combinations(range(13), 3)]
    assert sum(v[m] != vo[m] for m in triples) == 104
    assert sum(vo[m] != vao[m] for m in triples) == 54
    # A = 11 gives identical results under repeat
    multi = [m for m in range(8192) if bin(m).count("1") in (2, 3)]
    assert (v[multi] == va[multi]).all() and (c == ca).all()


def test_page_vectors():
    assert classify("9S 8S").value == 7 and classify("9S 8S").cls == "consecutive"
    assert classify("5S 6S TS").value == 11 and classify("5S 6S TS").cls == "eleven"
    assert classify("9S JS KS").value == 9
    assert classify("9S JS KS", {"reduction": "once"}).value == 19
    assert compare("2C 8C", "3D 7D") == 1
    assert compare("6S 7S", "2C 8C") == 1
    assert compare("TH AH", "QC KC") == 1 and classify("TH AH").cls == "eleven"
    assert compare("5S 6S", "QD AD") == 1
    assert compare("KS AS", "5H 6H") == 1
    assert compare("5S 7S 9S", "2D 3D 6D") == 1 and classify("2D 3D 6D").cls == "eleven"
    assert compare("QS KS AS", "6S 7S 8S") == 1
    assert compare("6S 7S 8S", "5S 7S 9S") == 1
    rk = {"point_scheme": "rank"}
    assert classify("KS AS", rk).cls == "heaven_eleven" and classify("KS AS", rk).value == 7


def test_errors():
    with pytest.raises(InvalidCombinationError, match='combination "5S 6H" is not one suit'):
        classify("5S 6H")
    with pytest.raises(InvalidCardError, match=r'invalid card "1H" \(token 4\): unknown rank "1"'):
        classify("2H 3H 4H 1H")
    with pytest.raises(KaptaiError):
        compare("2S", "3S 4S")


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: f"{r.point_scheme}-{r.reduction}-{r.ace_points}")
def test_compiled_vs_reference_all(rules):
    v, c, k = key_tables(rules)
    for n in (1, 2, 3):
        sets = list(combinations(range(13), n))
        for s in sets:
            m = sum(1 << r for r in s)
            name, val = ref.classify([39 + r for r in s], rules)
            assert classify([39 + r for r in s], rules).cls == name
            assert v[m] == val
        # every ordered pair: same comparison
        keys = np.array([k[sum(1 << r for r in s)] for s in sets])
        strengths = [ref.strength(list(s), rules) for s in sets]
        order_ref = np.array([[(a > b) - (a < b) for b in strengths] for a in strengths])
        order_c = np.sign(keys[:, None] - keys[None, :])
        assert (order_ref == order_c).all()


def test_trick_vectors_of_the_page():
    hands = ["KH AH 2D", "2S 4S 3C", "5S 6S 4C", "2H 3H 5D"]
    assert trick_winner(["KH AH", "2S 4S", "5S 6S", "2H 3H"], hands, "S") == 2
    # ♦3 ♦4 ♦5 led; a follower with only ♦9 plays it plus two others: mixed, cannot win
    hands = ["3D 4D 5D", "9D 2C AC", "6D 7D 8D", "2D TD JD"]
    assert trick_winner(["3D 4D 5D", "9D 2C AC", "6D 7D 8D", "2D TD JD"], hands, "S") == 2
    # 9D 2C AC would be 'eleven'-like in points, but it is mixed: the consecutive lead wins
    hands = ["3D 4D 5D", "9D 2C AC", "2D 6D 7D", "8D TD JD"]
    assert trick_winner(["3D 4D 5D", "9D 2C AC", "2D 6D 7D", "8D TD JD"], hands, "S") == 0
    with pytest.raises(IllegalFollowError):
        trick_winner(["3D 4D 5D", "2C AC 3C", "2D 6D 7D", "8D TD JD"], ["3D 4D 5D", "9D 2C AC 3C", "2D 6D 7D", "8D TD JD"], "S")
    # in NT nobody can trump
    hands = ["KH AH 2D", "2S 4S 3C", "5S 6S 4C", "2H 3H 5D"]
    assert trick_winner(["KH AH", "2S 4S", "5S 6S", "2H 3H"], hands, "NT") == 0
    assert trick_winner(["KH AH", "2S 4S", "5S 6S", "2H 3H"], hands, None) == 0


def test_short_follow_free_no_trump():
    rules = RuleSet(short_follow="free")
    # a short follower (holds 9D) plays two spades under free: mixed, not a trump combination
    hands = ["3D 4D", "9D 2S 3S", "6D 7D", "8D TD"]
    assert check_follow("2S 3S", hands[1], "3D 4D", "S", rules)
    assert trick_winner(["3D 4D", "2S 3S", "6D 7D", "8D TD"], hands, "S", rules) == 2
    assert trick_winner(["3D 4D", "2S 3S", "2D 6D", "8D TD"], ["3D 4D", "9D 2S 3S", "2D 6D", "8D TD"], "S", rules) == 0
    with pytest.raises(IllegalFollowError):
        check_follow("2S 3S", hands[1], "3D 4D", "S")


def test_must_trump():
    r = RuleSet(must_trump=True)
    assert legal_follows("2S 3S 4C", "KH AH", "S", r) == [tuple(parse_cards("2S 3S"))]
    assert len(legal_follows("2S 3S 4C", "KH AH", "S")) == 3
    assert len(legal_follows("2S 4C 5C", "KH AH", "S", r)) == 3   # fewer than n trumps: any


@st.composite
def deals(draw):
    perm = draw(st.permutations(list(range(52))))
    return [sorted(perm[13 * i:13 * i + 13]) for i in range(4)]


@given(deals(), st.integers(0, 4), st.data(), st.sampled_from(ALL_RULES + [RuleSet(short_follow="free"), RuleSet(must_trump=True)]))
def test_random_plays_compiled_vs_reference(hands, trump, data, rules):
    lead = data.draw(st.sampled_from(ref.legal_leads(hands[0])))
    plays = [lead]
    for j in (1, 2, 3):
        opts = ref.legal_follows(hands[j], lead[0] // 13, len(lead), trump, rules)
        assert opts == legal_follows(hands[j], lead, trump, rules)
        plays.append(data.draw(st.sampled_from(opts)))
    w_ref = ref.trick_winner(plays, hands, trump, rules)
    assert trick_winner(plays, hands, trump, rules) == w_ref
    masks = np.array([[sum(1 << c for c in p) for p in plays]], dtype=np.int64)
    void = np.array([[not any(c // 13 == lead[0] // 13 for c in h) for h in hands]], dtype=np.uint8)
    assert trick_winners(masks, void, np.array([trump]), rules)[0] == w_ref
