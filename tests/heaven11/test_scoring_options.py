"""The scoring options proposed by the rule-design search (short_penalty progressive/contract,
match_bonus half/none/half_capped, over_penalty): hand-computed examples, and the twins (scalar score, vectorised
finals_array, the reference engine's and the compiled engine's finals) agree on every score."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from kaptai.errors import RulesError
from kaptai.heaven11 import engine_reference as R
from kaptai.heaven11.config import make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.rules import OPTION_VALUES, RuleSet, resolve_rules
from kaptai.heaven11.scoring import best_bid, finals_array, score, score_table, transfers, trick_vectors

SCORINGS = [dict(short_penalty=s, match_bonus=mb, over_penalty=o)
            for s, mb, o in product(OPTION_VALUES["short_penalty"], OPTION_VALUES["match_bonus"],
                                    OPTION_VALUES["over_penalty"])]


def test_defaults_are_the_page():
    r = RuleSet()
    assert (r.short_penalty, r.match_bonus, r.over_penalty) == ("none", "level", "per_trick")
    assert r.scoring_codes() == (0, 0, 0)
    assert make_config().scoring == (0, 0, 0)


# (bid, tricks, options, finals), computed by hand from the definitions in rules.py
HAND = [
    # short by 4 (m = 1, b = 5): progressive 4*5/2 = 10 each; contract 4 + 5 = 9 each
    ("5S", "5/5/2/1", {"short_penalty": "progressive"}, [1 - 30 - 3, 2 + 3 + 10, -1 + 10, -2 + 10]),
    ("5S", "5/5/2/1", {"short_penalty": "contract"}, [1 - 27 - 3, 2 + 3 + 9, -1 + 9, -2 + 9]),
    ("5S", "5/5/2/1", {"short_penalty": "symmetric"}, [1 - 12 - 3, 2 + 3 + 4, -1 + 4, -2 + 4]),
    # short by 1 (m = 1, b = 2): progressive = symmetric = 1, contract 1 + 2 = 3
    ("2S", "5/5/2/1", {"short_penalty": "progressive"}, [-5, 6, 0, -1]),
    ("2S", "5/5/2/1", {"short_penalty": "contract"}, [1 - 9 - 3, 2 + 3 + 3, -1 + 3, -2 + 3]),
    # a match of 3 (the page's example 1): half 3 // 2 = 1 each, none 0
    ("3C", "7/2/2/2", {"match_bonus": "half"}, [3 + 3, -2, -2, -2]),
    ("3C", "7/2/2/2", {"match_bonus": "none"}, [3, -1, -1, -1]),
    # half_capped: min(m // 2, 2) from each defender. A match of 3 pays 1 (as half); of 6, 2 (half: 3);
    # of 9, 2 (half: 4); a match of 5 with one balancing defender (n = 0: receives 1 from the declarer)
    ("3C", "7/2/2/2", {"match_bonus": "half_capped"}, [3 + 3, -2, -2, -2]),
    ("6H", "10/1/1/1", {"match_bonus": "half"}, [6 + 9, -2 - 3, -2 - 3, -2 - 3]),
    ("6H", "10/1/1/1", {"match_bonus": "half_capped"}, [6 + 6, -2 - 2, -2 - 2, -2 - 2]),
    ("9NT", "13/0/0/0", {"match_bonus": "half_capped"}, [9 + 6, -3 - 2, -3 - 2, -3 - 2]),
    ("5S", "9/3/1/0", {"match_bonus": "half_capped"}, [5 + 6 - 1, 0 + 1 - 2, -2 - 2, -3 - 2]),
    # half_capped changes a match only: over by 1 and short by 2 score as written
    ("3C", "8/2/2/1", {"match_bonus": "half_capped"}, [1, 0, 0, -1]),
    ("5S", "7/2/2/2", {"match_bonus": "half_capped"}, [3, -1, -1, -1]),
    # over by 1 (the page's example 3) without the over penalty
    ("3C", "8/2/2/1", {"over_penalty": "none"}, [4, -1, -1, -2]),
    # the draw rule comes first under every scoring
    ("0C", "4/3/3/3", {"short_penalty": "contract", "match_bonus": "none"}, [0, 0, 0, 0]),
    # a short 0-level contract (m = -1): contract pays d + b = 1
    ("0C", "3/4/3/3", {"short_penalty": "contract"}, [-1 - 3 - 4, 1 + 2 + 1, 0 + 1 + 1, 0 + 1 + 1]),
]


@pytest.mark.parametrize("bid,tricks,opts,expected", HAND)
def test_hand_computed(bid, tricks, opts, expected):
    r = score(bid, tricks, rules=opts)
    assert r.finals == expected and sum(r.finals) == 0


def test_transfers_components():
    assert transfers(5, 1, (2, 0, 0)) == (0, 0, 10)
    assert score("5S", "5/5/2/1", rules={"short_penalty": "contract"}).short_penalty == 9
    assert score("3C", "7/2/2/2", rules={"match_bonus": "half"}).match_points == 1
    assert [transfers(m, m, RuleSet(match_bonus="half_capped").scoring_codes())[0] for m in range(10)] == \
        [0, 0, 1, 1, 2, 2, 2, 2, 2, 2]
    assert score("8D", "12/1/0/0", rules={"match_bonus": "half_capped"}).match_points == 2


@pytest.mark.parametrize("opts", SCORINGS, ids=lambda o: ",".join(f"{v}" for v in o.values()))
def test_scalar_vector_and_reference_twins(opts):
    rules = resolve_rules(opts)
    cfg = make_config(rules=rules)
    vecs = trick_vectors()
    tr = np.array(vecs * 10)
    lv = np.repeat(np.arange(10), len(vecs))
    arr = finals_array(lv, tr, **opts)
    assert (arr.sum(axis=1) == 0).all()
    tab = score_table(rules)
    assert (tab[["f0", "f1", "f2", "f3"]].to_numpy() == arr).all()
    # the reference engine's finals_for (declarer at seat 0, play clockwise: seats in play order)
    for i in range(0, len(lv), 37):
        assert R.finals_for(list(tr[i]), 0, int(lv[i]), cfg) == arr[i].tolist()


@pytest.mark.parametrize("opts", [{"short_penalty": "progressive"}, {"short_penalty": "contract", "match_bonus": "half"},
                                  {"match_bonus": "none", "over_penalty": "none"}, {"match_bonus": "half_capped"}])
def test_compiled_engine_scores_every_contract(opts):
    rules = resolve_rules(opts)
    for contract in ("0C", "4S", "9NT"):
        cfg = make_config(rules=rules, contract=contract, first_dealer=0)
        out, _ = run_hands(cfg, "greedy", np.random.PCG64(3), 60, engine="compiled")
        ref, _ = run_hands(cfg, "greedy", np.random.PCG64(3), 60, engine="reference")
        assert (out["finals"] == ref["finals"]).all()
        for h in range(60):
            d = int(out["declarer"][h])
            order = [(d + i * cfg.play_step) % 4 for i in range(4)]
            t = [int(out["tricks"][h, s]) for s in order]
            assert [int(out["finals"][h, s]) for s in order] == score(int(out["level"][h]), t, rules).finals


@pytest.mark.parametrize("opts", [{"short_penalty": "progressive", "match_bonus": "half"}, {"match_bonus": "half_capped"}])
def test_search_bidders_twins_under_a_new_scoring(opts):
    cfg = make_config(rules=opts, bid_samples=2)
    a = run_hands(cfg, "greedy", np.random.PCG64(5), 2, bidding="search", record=2, engine="compiled")
    b = run_hands(cfg, "greedy", np.random.PCG64(5), 2, bidding="search", record=2, engine="reference")
    for k in a[0]:
        assert (a[0][k] == b[0][k]).all(), k
    assert (a[1] == b[1]).all()


def test_progressive_lowers_the_best_bid():
    # the declarer makes 6, 7 or 8 tricks (m = 2, 3, 4), the defenders 2/2/3 .. : as written the best
    # bid is the highest it can still match (a short costs nothing), the growing penalty brings it down
    dist = {(6, 3, 2, 2): Fraction(1, 3), (7, 2, 2, 2): Fraction(1, 3), (8, 2, 2, 1): Fraction(1, 3)}
    as_written, _, _ = best_bid(dist)
    progressive, _, _ = best_bid(dist, rules={"short_penalty": "progressive"})
    assert as_written == 4 and progressive < as_written


def test_bad_values():
    with pytest.raises(RulesError, match="match_bonus"):
        RuleSet(match_bonus="double")
    with pytest.raises(RulesError, match="short_penalty"):
        resolve_rules(short_penalty="square")
    with pytest.raises(RulesError, match="match_bonus.*'capped'.*'half_capped'"):
        RuleSet(match_bonus="capped")
    with pytest.raises(RulesError, match="'third'"):
        make_config(rules={"match_bonus": "third"})


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_both_engines_cap_the_match_bonus_of_a_grand_slam(engine):
    # the dealer (seat 0) holds the 13 spades and declares 9NT: it takes every trick, a match of 9
    spades = [c for c in range(52) if c // 13 == 3]
    deck = np.array([spades + [c for c in range(52) if c // 13 != 3]], dtype=np.int8)
    got = {}
    for mb in ("level", "half", "half_capped"):
        cfg = make_config(rules={"match_bonus": mb}, contract="9NT", first_dealer=0)
        out, _ = run_hands(cfg, "greedy", np.random.PCG64(1), 1, decks=deck, engine=engine)
        assert out["tricks"][0].tolist()[0] == 13
        got[mb] = out["finals"][0].tolist()
    assert got == {"level": [36, -12, -12, -12], "half": [21, -7, -7, -7], "half_capped": [15, -5, -5, -5]}


def test_half_capped_is_a_match_bonus_between_half_and_none():
    # on every score of the table, a declarer's final under half_capped lies between half's and none's, and
    # differs from half's only on a match of 6 or more
    tabs = {mb: score_table({"match_bonus": mb}) for mb in ("half", "half_capped", "none")}
    f = {mb: t.f0.to_numpy() for mb, t in tabs.items()}
    assert (f["none"] <= f["half_capped"]).all() and (f["half_capped"] <= f["half"]).all()
    t = tabs["half"]
    differs = f["half"] != f["half_capped"]
    assert ((t.status[differs] == "match") & (t.level[differs] >= 6)).all() and differs.any()
