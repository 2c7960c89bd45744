from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from kaptai.errors import KaptaiError
from kaptai.heaven11.cards import InvalidBidError, InvalidRecordError, InvalidTricksError
from kaptai.heaven11.scoring import best_bid, finals_array, score, score_table, trick_vectors

# the worked examples 1-9 of rules/heaven-eleven.md §5
EXAMPLES = [
    ("3C", "7/2/2/2", [12, -4, -4, -4], "match"),
    ("3♣", "7/3/2/1", [11, -2, -4, -5], "match"),
    ("3C", "8/2/2/1", [1, 0, 0, -1], "over"),
    ("0C", "4/3/3/3", None, "draw"),
    ("1♥", "4/3/3/3", [-3, 1, 1, 1], "short"),
    ("2♠", "5/5/2/1", [-2, 5, -1, -2], "short"),
    ("0♦", "5/3/3/2", [-4, 2, 2, 0], "over"),
    ("9NT", "13/0/0/0", [36, -12, -12, -12], "match"),
    ("2♣", "6/3/3/1", [6, -1, -1, -4], "match"),
]


@pytest.mark.parametrize("bid,tricks,expected,status", EXAMPLES)
def test_worked_examples(bid, tricks, expected, status):
    r = score(bid, tricks)
    assert r.status == status
    if expected is None:
        assert r.draw and r.finals == [0, 0, 0, 0]
    else:
        assert not r.draw and r.finals == expected
    assert sum(r.finals) == 0
    rec = score(f"bid={bid} tricks={tricks}")
    assert rec.finals == r.finals


def test_draw_any_strain():
    for s in ("C", "D", "H", "S", "NT"):
        assert score(f"0{s}", "4/3/3/3").draw
    assert not score("1C", "4/3/3/3").draw
    assert not score("0C", "4/4/3/2").draw


def test_components_example_1_and_3():
    r = score("3C", "7/2/2/2")
    assert r.origin == [3, -1, -1, -1] and r.match_points == 3 and r.balance == [0, 0, 0]
    r = score("3C", "8/2/2/1")
    assert r.origin == [4, -1, -1, -2] and r.over_penalty == 1 and r.match_points == 0
    r = score("2S", "5/5/2/1")
    assert r.balance == [3, 0, 0] and r.status == "short"


@pytest.mark.parametrize("text,err", [
    ("bid=10S tricks=7/2/2/2", InvalidBidError),
    ("bid=3C tricks=7/2/2/1", InvalidTricksError),
    ("bid=3C tricks=7/2/2", InvalidTricksError),
    ("bid=3C", InvalidRecordError),
    ("bid=3C tricks=7/2/2/2 extra", InvalidRecordError),
    ("bid=3X tricks=7/2/2/2", InvalidBidError),
])
def test_bad_records(text, err):
    with pytest.raises(err):
        score(text)
    assert issubclass(err, KaptaiError)


def test_messages():
    with pytest.raises(InvalidTricksError, match=r"tricks 7/2/2/1 sum to 12, not 13"):
        score("3C", "7/2/2/1")
    with pytest.raises(InvalidBidError, match=r'invalid bid "10S" \(token 1\): level must be 0-9'):
        score("10S", "7/2/2/2")
    with pytest.raises(InvalidTricksError):
        score("3C", (14, -1, 0, 0))
    with pytest.raises(InvalidBidError):
        score(10, "7/2/2/2")


def closed_form(b, t, symmetric=False):
    m = t[0] - 4
    n = [x - 3 for x in t[1:]]
    f0 = m + 3 * m * (m == b) - 3 * (m - b) * (m > b) - sum(ni + 1 for ni in n if ni >= 0)
    fi = [ni + (ni + 1) * (ni >= 0) - m * (m == b) + (m - b) * (m > b) for ni in n]
    if symmetric and m < b:
        f0 -= 3 * (b - m)
        fi = [x + (b - m) for x in fi]
    return [f0] + fi


vectors = st.sampled_from(trick_vectors())


@given(st.integers(0, 9), vectors, st.booleans())
def test_closed_form_and_zero_sum(b, t, sym):
    rules = "symmetric" if sym else None
    r = score(b, t, rules)
    assert sum(r.finals) == 0
    if r.draw:
        assert b == 0 and t == (4, 3, 3, 3)
    else:
        assert r.finals == closed_form(b, t, sym)
    assert finals_array([b], [t], "symmetric" if sym else "none").tolist() == [r.finals]


def test_full_table():
    df = score_table()
    assert len(df) == 5600 and len(trick_vectors()) == 560
    assert (df[["f0", "f1", "f2", "f3"]].sum(axis=1) == 0).all()
    assert (df.status == "draw").sum() == 1
    sym = score_table("symmetric")
    short = sym.status == "short"
    diff = (df.f0 - sym.f0)[short]
    assert (diff == 3 * (sym.level - (sym.t0 - 4))[short]).all()
    assert (df.f0 == sym.f0)[~short].all()


def test_best_bid_exact():
    # certain 7 tricks for the declarer: bid 3 (match) beats everything
    lvl, ev, evs = best_bid({(7, 2, 2, 2): Fraction(1)})
    assert lvl == 3 and ev == 12
    assert evs[2] == 3 - 3  # over by 1 at level 2: 3 - 3*1
    lvl, ev, _ = best_bid({(7, 2, 2, 2): Fraction(1)}, "symmetric")
    assert lvl == 3
