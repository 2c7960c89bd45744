"""Exact deal odds (rules/big-two.md §7) vs independent formulas, exact enumeration and seeded Monte Carlo.

Tests marked ``slow`` scale with ``KAPTAI_SLOW_SCALE`` (1, the full size: 200,000 real deals or
hands per check and every six-card hand; below 1, proportionally fewer deals and a seeded
sample of the six-card hands compared within 4 standard errors).
"""
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from kaptai.bigtwo import odds as odds_module
from kaptai.bigtwo.evaluate import (
    CATEGORIES,
    all_five_card_sets,
    classify_masks,
    five_card_ranking,
    straight_windows,
)
from kaptai.bigtwo.odds import BEST_FIVE_LEVELS, HAND_KINDS, best_hand_distribution, deal_odds, rank_count_vectors
from kaptai.bigtwo.rules import STRAIGHT_ORDERS, RuleSet
from kaptai.errors import RulesError

from ..conftest import SLOW_SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py

METRICS = ["pair", "two_pair", "triple", "four_of_a_kind", "full_house", "straight", "flush", "straight_flush",
           "dragon", "four_twos", "redeal_points_lt_3", "redeal_hk_max10"]


@pytest.fixture(scope="module")
def odds():
    return deal_odds(players=4)


def _exact(df, metric, order=None):
    if order is None:
        row = df[(df.metric == metric) & df.breakdown.isna()]
    else:
        row = df[(df.metric == f"{metric}_by_order") & (df.level == order)]
    assert len(row) == 1
    return Fraction(row.exact.iloc[0])


def test_table_shape(odds):
    assert set(METRICS) <= set(odds.metric)
    assert list(odds.columns) == ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value",
                                  "exact", "method"]
    assert (odds.method == "exact").all() and (odds.hand == 13).all()
    assert set(odds[odds.breakdown == "straight_order"].level) == set(STRAIGHT_ORDERS)
    assert odds.attrs["rules"]["straight_order"] == "hk"


def test_independent_formulas(odds):
    T = math.comb(52, 13)
    assert _exact(odds, "dragon") == Fraction(4**13, T)  # about 1 in 9,462
    assert round(1 / float(_exact(odds, "dragon"))) == 9462
    assert _exact(odds, "pair") == 1 - Fraction(4**13, T)  # 13 cards without a pair is a dragon
    assert _exact(odds, "four_twos") == Fraction(math.comb(48, 9), T)
    assert _exact(odds, "redeal_hk_max10") == Fraction(math.comb(32, 13), T)
    assert _exact(odds, "redeal_literal_min10") == Fraction(math.comb(24, 13) - math.comb(20, 13), T)  # T J Q K A 2 = 24 cards
    no_quad = sum((-1) ** k * math.comb(13, k) * math.comb(52 - 4 * k, 13 - 4 * k) for k in range(4))
    assert _exact(odds, "four_of_a_kind") == 1 - Fraction(no_quad, T)
    # no triple: every rank 0-2 copies; coefficient of x^13 in (1 + 4x + 6x^2)^13
    poly = np.polynomial.polynomial.polypow([1, 4, 6], 13)
    no_triple = sum(math.comb(13, a) * math.comb(13 - a, 13 - 2 * a) * 6**a * 4 ** (13 - 2 * a)
                    for a in range(7))
    assert int(round(poly[13])) == no_triple
    assert _exact(odds, "triple") == 1 - Fraction(no_triple, T)
    # exactly one rank with k = 2, 3 or 4 copies, the other 13 - k cards singles of distinct ranks
    one_pair_only = 13 * sum(math.comb(4, k) * math.comb(12, 13 - k) * 4 ** (13 - k) for k in (2, 3, 4))
    assert _exact(odds, "two_pair") == 1 - Fraction(4**13 + one_pair_only, T)
    # points < 3: hand from the 32 low cards plus at most J, JJ or Q
    low = lambda k: math.comb(32, k)  # noqa: E731
    pts = low(13) + 4 * low(12) + math.comb(4, 2) * low(11) + 4 * low(12)
    assert _exact(odds, "redeal_points_lt_3") == Fraction(pts, T)
    # the hk/poker/wheel_top/broadway_top straights are the same ten rank sets
    for metric in ("straight", "straight_flush"):
        vals = {o: _exact(odds, metric, o) for o in STRAIGHT_ORDERS}
        assert len({v for o, v in vals.items() if o != "sequential"}) == 1
        assert vals["sequential"] < vals["hk"]
        assert _exact(odds, metric) == vals["hk"]


def test_rank_vectors_sum_to_one():
    for h in (4, 6, 13):
        c, w = rank_count_vectors(h)
        assert int(w.sum()) == math.comb(52, h) and (c.sum(axis=1) == h).all()


def _monte_carlo(n, seed):
    rng = np.random.default_rng(seed)
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :13]
    onehot = np.zeros((n, 52), dtype=bool)
    np.put_along_axis(onehot, hands, True, axis=1)
    bysuit = onehot.reshape(n, 13, 4)  # [hand, natural rank, suit]
    cnt = bysuit.sum(axis=2)
    present = cnt > 0
    runs = {  # written as the page: ranks by face, natural index 3=0 … 2=12
        "A2345": [11, 12, 0, 1, 2], "23456": [12, 0, 1, 2, 3], "JQKA2": [8, 9, 10, 11, 12],
        **{f"mid{i}": list(range(i, i + 5)) for i in range(8)},
    }
    hk_runs = [r for name, r in runs.items() if name != "JQKA2"]
    pts = (cnt * np.array([0] * 8 + [1, 2, 3, 4, 5])).sum(axis=1)
    return {
        "pair": (cnt >= 2).any(1),
        "two_pair": (cnt >= 2).sum(1) >= 2,
        "triple": (cnt >= 3).any(1),
        "four_of_a_kind": (cnt == 4).any(1),
        "full_house": ((cnt >= 3).any(1)) & ((cnt >= 2).sum(1) >= 2),
        "straight": np.any([present[:, r].all(1) for r in hk_runs], axis=0),
        "flush": (bysuit.sum(axis=1) >= 5).any(1),
        "straight_flush": np.any([bysuit[:, r, :].all(1).any(1) for r in hk_runs], axis=0),
        "dragon": present.all(1),
        "four_twos": cnt[:, 12] == 4,
        "redeal_points_lt_3": pts < 3,
        "redeal_hk_max10": ~present[:, 8:].any(1),
    }


def test_monte_carlo_agreement(odds):
    n = 40_000
    mc = _monte_carlo(n, seed=2024)
    for metric in METRICS:
        p = float(_exact(odds, metric))
        est = mc[metric].mean()
        se = math.sqrt(max(p * (1 - p), 1e-12) / n)
        assert abs(est - p) <= 4 * se + 1e-9, (metric, est, p)


def test_other_player_counts():
    df = deal_odds(players=8)  # 6 cards each (the 4 leftovers are not covered)
    assert (df.hand == 6).all()
    assert _exact(df, "redeal_hk_max10") == Fraction(math.comb(32, 6), math.comb(52, 6))
    assert _exact(df, "dragon") == 0 and _exact(df, "full_house") > 0
    assert _exact(df, "flush") == Fraction(4 * (math.comb(13, 6) + math.comb(13, 5) * 39), math.comb(52, 6))
    df2 = deal_odds(players=13, hand_size=5)
    # five-card hands: straight flushes 40, straights incl. flushes 10 * 4^5, full houses 3744
    assert _exact(df2, "straight_flush") == Fraction(40, math.comb(52, 5))
    assert _exact(df2, "straight") == Fraction(10 * 4**5, math.comb(52, 5))
    assert _exact(df2, "full_house") == Fraction(3744, math.comb(52, 5))


# =========================================================================== table, receiver, best five

ALL_METRICS = METRICS + ["redeal_literal_min10"]
ODDS_COLUMNS_EXPECTED = ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value", "exact", "method"]
TABLE = ["table_redeal_points_lt_3", "table_redeal_hk_max10", "table_redeal_literal_min10"]
_PTS = np.array([0] * 8 + [1, 2, 3, 4, 5])


def _scaled(n, minimum=2_000):
    return max(minimum, int(n * SLOW_SCALE))


def _windows(order):
    return [[r for r in range(13) if m >> r & 1] for m, _, _ in straight_windows(RuleSet(straight_order=order))]


def _hand_metrics(onehot):
    """Every deal_odds metric of hands given as (n, 52) booleans (card id = 4 * rank + suit)."""
    by = onehot.reshape(len(onehot), 13, 4)
    cnt = by.sum(axis=2)
    pres = cnt > 0
    out = {
        "pair": (cnt >= 2).any(1),
        "two_pair": (cnt >= 2).sum(1) >= 2,
        "triple": (cnt >= 3).any(1),
        "four_of_a_kind": (cnt == 4).any(1),
        "full_house": (cnt >= 3).any(1) & ((cnt >= 2).sum(1) >= 2),
        "flush": (by.sum(axis=1) >= 5).any(1),
        "dragon": pres.all(1),
        "four_twos": cnt[:, 12] == 4,
        "redeal_points_lt_3": (cnt * _PTS).sum(1) < 3,
        "redeal_hk_max10": ~pres[:, 8:].any(1),
        "redeal_literal_min10": ~pres[:, :7].any(1) & pres[:, 7],
    }
    for o in STRAIGHT_ORDERS:
        w = _windows(o)
        out[("straight", o)] = np.any([pres[:, r].all(1) for r in w], axis=0)
        out[("straight_flush", o)] = np.any([by[:, r, :].all(1).any(1) for r in w], axis=0)
    return out


def _rows(df):
    """{metric or (metric, order): Fraction} of a deal_odds table."""
    out = {}
    for r in df.itertuples():
        key = r.metric if not isinstance(r.breakdown, str) else (r.metric.removesuffix("_by_order"), r.level)
        out[key] = Fraction(r.exact)
    return out


def _assert_close(p, est, n, what):
    p = float(p)
    se = math.sqrt(max(p * (1 - p), 1e-12) / n)
    assert abs(est - p) <= 4 * se + 1e-12, (what, est, p, (est - p) / se)


# --------------------------------------------------------------------------- the engine


def _vector_reference(h):
    """The previous implementation's rank-count-vector formulas (no forced cards)."""
    c, w = rank_count_vectors(h)
    n2, n3 = (c >= 2).sum(1), (c >= 3).sum(1)
    pres = c >= 1

    def ws(mask):
        return int(w[mask].sum(dtype=np.int64))

    pts = (c.astype(np.int64) * _PTS).sum(1)
    out = {
        "pair": ws(n2 >= 1), "two_pair": ws(n2 >= 2), "triple": ws(n3 >= 1), "four_of_a_kind": ws((c == 4).any(1)),
        "full_house": ws((n3 >= 1) & (n2 >= 2)), "dragon": ws(pres.all(1)), "four_twos": ws(c[:, 12] == 4),
        "redeal_points_lt_3": ws(pts < 3), "redeal_hk_max10": ws(~pres[:, 8:].any(1)),
        "redeal_literal_min10": ws(~pres[:, :7].any(1) & pres[:, 7]),
    }
    for o in STRAIGHT_ORDERS:
        out[("straight", o)] = ws(np.any([pres[:, r].all(1) for r in _windows(o)], axis=0))
    return out


@pytest.mark.parametrize("h", [6, 10, 13])
def test_engine_matches_rank_vectors(h):
    T = math.comb(52, h)
    got = _rows(deal_odds(13, hand_size=h))
    for key, n in _vector_reference(h).items():
        assert got[key] == Fraction(n, T), key


def test_hand_kinds_table():
    for players in (3, 4, 5, 8, 27):
        h, r = divmod(52, players)
        frames = {k: deal_odds(players, hand=k) for k in HAND_KINDS}
        for k, df in frames.items():
            assert list(df.columns) == list(frames["dealt"].columns)
            assert list(df.metric) == list(frames["dealt"].metric)
            assert set(ALL_METRICS + TABLE) <= set(df.metric)
            assert (df.hand == (h + r if k == "leftover_receiver" else h)).all()
            assert df.attrs["hand_kind"] == k
            assert ((df.value >= 0) & (df.value <= 1)).all()
        for m in TABLE:  # the table rows do not depend on the hand
            assert len({_exact(df, m) for df in frames.values()}) == 1
        plain, recv, other, avg = (_rows(frames[k]) for k in HAND_KINDS)
        for key in plain:
            if isinstance(key, str) and key.startswith("table_"):
                continue
            # every seat's dealt hand is uniform: 1/N of the time it belongs to the receiver
            assert avg[key] == (recv[key] + (players - 1) * other[key]) / players, key
    with pytest.raises(RulesError, match="hand='lucky'"):
        deal_odds(4, hand="lucky")
    with pytest.raises(RulesError, match="hand_size"):
        deal_odds(3, hand="leftover_receiver", hand_size=18)


def test_leftover_receiver_facts():
    for players in (3, 5, 6, 7, 8, 27):
        recv = _rows(deal_odds(players, hand="leftover_receiver"))
        assert recv["redeal_literal_min10"] == 0  # it always holds ♦3 (its lowest card is a 3)
    # with 10 as the lowest rank the receiver always holds ♦10 (the lowest card)
    r9 = _rows(deal_odds(5, {"top_rank": "9"}, hand="leftover_receiver"))
    assert r9["redeal_literal_min10"] > 0
    # r = 0: the receiver is just the ♦3 holder, a uniform 13-card hand containing ♦3
    T = math.comb(51, 12)
    recv = _rows(deal_odds(4, hand="leftover_receiver"))
    assert recv["redeal_hk_max10"] == Fraction(math.comb(31, 12), T)
    assert recv["four_twos"] == Fraction(math.comb(47, 8), T)
    assert recv["redeal_literal_min10"] == 0


# --------------------------------------------------------------------------- tiny decks, exactly


def _tiny_deals(deck, players):
    """Every deal of cards 0 … deck-1 (card i is the i-th lowest): (leftovers, ordered hands)."""
    h, r = divmod(deck, players)

    def parts(pool, k):
        if k == 0:
            yield ()
            return
        for hand in itertools.combinations(pool, h):
            rest = [c for c in pool if c not in hand]
            for tail in parts(rest, k - 1):
                yield (hand,) + tail

    for left in itertools.combinations(range(deck), r):
        for hands in parts([c for c in range(deck) if c not in left], players):
            yield left, hands


TINY = [(5, 2), (7, 2), (7, 3), (8, 3), (9, 4), (7, 5), (8, 6), (10, 4)]  # (7, 5): r = 2 > h = 1


def test_receiver_weights_tiny_decks():
    for deck, players in TINY:
        h, r = divmod(deck, players)
        final_seen, dealt_seen, n = Counter(), Counter(), 0
        for left, hands in _tiny_deals(deck, players):
            low = min(c for hand in hands for c in hand)
            hand = next(x for x in hands if low in x)
            final_seen[frozenset(hand + left)] += 1
            dealt_seen[frozenset(hand)] += 1
            n += 1
        final, dealt, d = odds_module._receiver_terms(deck, players)
        for s in itertools.combinations(range(deck), h + r):
            run = next(t for t in range(deck + 1) if t not in s)  # s holds the `run` lowest cards
            assert Fraction(sum(a for j, a in final if j <= run), d) == Fraction(final_seen[frozenset(s)], n)
        for k in itertools.combinations(range(deck), h):
            assert Fraction(sum(b for j, b in dealt if j == k[0] + 1), d) == Fraction(dealt_seen[frozenset(k)], n)


def test_receiver_weights_sum_to_one():
    for players in range(2, 53):
        h, r = divmod(52, players)
        final, dealt, d = odds_module._receiver_terms(52, players)
        assert sum(a * math.comb(52 - j, h + r - j) for j, a in final) == d
        assert sum(b * math.comb(52 - j, h - 1) for j, b in dealt) == d


def _tiny_any_eligible(deals, card_class, eligible):
    good = 0
    for left, hands in deals:
        low = min(c for hand in hands for c in hand)
        ok = False
        for hand in hands:
            comp = [0] * (max(card_class) + 1)
            for c in hand + (left if low in hand else ()):
                comp[card_class[c]] += 1
            ok |= bool(eligible(comp))
        good += ok
    return Fraction(good, len(deals))


def test_table_redeal_tiny_decks():
    rng = np.random.default_rng(11)
    tests = [
        lambda e: e[0] == 0,
        lambda e: e[-1] >= 1 and e[0] <= 1,
        lambda e: e[0] + 2 * e[1] <= 2 and e[-1] == 0,
    ]
    for deck, players in TINY[:-1]:
        deals = list(_tiny_deals(deck, players))
        for k in (2, 3):
            cls = [int(x) for x in rng.integers(0, k, deck)]
            cls[:k] = rng.permutation(k).tolist()
            for test in tests:
                assert odds_module._any_eligible(cls, test, players) == _tiny_any_eligible(deals, cls, test)


# --------------------------------------------------------------------------- the table, every N


def _falling(n, k):
    return math.perm(n, k) if k <= n else 0


def test_table_redeal_every_player_count():
    for players in range(2, 53):
        h, r = divmod(52, players)
        frames = {k: _rows(deal_odds(players, hand=k)) for k in ("leftover_receiver", "non_receiver", "seat_average")}
        for rule in ("points_lt_3", "hk_max10", "literal_min10"):
            p = frames["seat_average"]["table_" + f"redeal_{rule}"]
            one = [frames[k][f"redeal_{rule}"] for k in ("leftover_receiver", "non_receiver")]
            assert max(one) <= p <= min(1, players * frames["seat_average"][f"redeal_{rule}"]), (players, rule)
        if r == 0:  # closed forms: k given seats all from the 32 low cards / from the 24 tens and up with a 10 each
            hk = sum((-1) ** (k + 1) * math.comb(players, k) * Fraction(_falling(32, k * h), _falling(52, k * h))
                     for k in range(1, players + 1))
            lit = sum(
                (-1) ** (k + 1) * math.comb(players, k)
                * sum((-1) ** i * math.comb(k, i) * _falling(20, i * h) * _falling(24 - i * h, (k - i) * h)
                      for i in range(k + 1) if i * h <= 20)
                * Fraction(1, _falling(52, k * h))
                for k in range(1, players + 1)
            )
            assert frames["seat_average"]["table_redeal_hk_max10"] == hk, players
            assert frames["seat_average"]["table_redeal_literal_min10"] == lit, players
        if players >= 27:  # 26+ single cards: more than the 20 cards above 10, so some seat holds a low one
            assert frames["seat_average"]["table_redeal_hk_max10"] == 1
            assert frames["seat_average"]["table_redeal_points_lt_3"] == 1


# --------------------------------------------------------------------------- real deals, Monte Carlo


def _simulate_deals(players, rules, n, seed):
    """Final hands of ``n`` real deals: (n, players, 52) booleans and the receiving seat."""
    rng = np.random.default_rng(seed)
    h, r = divmod(52, players)
    strength = rules.card_strength()
    perm = np.argsort(rng.random((n, 52)), axis=1)
    dealt = perm[:, : players * h]
    receiver = np.argmin(strength[dealt], axis=1) // h
    seat_of = np.empty((n, 52), dtype=np.int64)
    np.put_along_axis(seat_of, dealt, np.broadcast_to(np.repeat(np.arange(players), h), dealt.shape), axis=1)
    np.put_along_axis(seat_of, perm[:, players * h:], np.broadcast_to(receiver[:, None], (n, r)), axis=1)
    return seat_of[:, None, :] == np.arange(players)[None, :, None], receiver, rng


@pytest.mark.slow
@pytest.mark.parametrize("players,options", [(3, {}), (6, {}), (5, {"suit_order": "taiwan", "top_rank": "A"})])
def test_real_deals_monte_carlo(players, options):
    rules = RuleSet(**options)
    n = _scaled(200_000)
    final, receiver, rng = _simulate_deals(players, rules, n, seed=players)
    idx = np.arange(n)
    other = (receiver + rng.integers(1, players, n)) % players
    any_seat = rng.integers(0, players, n)
    hands = {"leftover_receiver": final[idx, receiver], "non_receiver": final[idx, other],
             "seat_average": final[idx, any_seat]}
    for kind, onehot in hands.items():
        mc = _hand_metrics(onehot)
        exact = _rows(deal_odds(players, rules, hand=kind))
        for key, hit in mc.items():
            _assert_close(exact[key], hit.mean(), n, (kind, key))
    flat = _hand_metrics(final.reshape(n * players, 52))
    for rule in ("points_lt_3", "hk_max10", "literal_min10"):
        est = flat[f"redeal_{rule}"].reshape(n, players).any(1).mean()
        _assert_close(exact[f"table_redeal_{rule}"], est, n, rule)


# --------------------------------------------------------------------------- best five-card hand

_LEVEL_OF_CODE = {-1: "none", **{i: c.value for i, c in enumerate(CATEGORIES)}}


def _best(df, breakdown=None):
    rows = df[df.breakdown.isna()] if breakdown is None else df[df.breakdown == breakdown]
    return {r.level: Fraction(r.exact) for r in rows.itertuples()}


def test_best_five_table():
    df = best_hand_distribution(4)
    assert list(df.columns) == ODDS_COLUMNS_EXPECTED
    assert (df.metric == "best_five").all() and (df.method == "exact").all() and (df.hand == 13).all()
    assert list(_best(df)) == [lv for lv in BEST_FIVE_LEVELS if lv != "two_pair_plus_one"]
    assert set(df.breakdown.dropna()) == {f"straight_order={o}" for o in STRAIGHT_ORDERS}
    assert _best(df) == _best(df, "straight_order=hk")
    tp = best_hand_distribution(4, {"two_pair_five": True, "straight_order": "sequential"})
    assert list(_best(tp)) == list(BEST_FIVE_LEVELS)
    assert _best(tp) == _best(tp, "straight_order=sequential")
    # flush_compare, straight_suit_card, suit_order, top_rank only order hands within a category
    other = best_hand_distribution(4, {"flush_compare": "suit_first", "straight_suit_card": "sequence_top",
                                       "suit_order": "taiwan", "top_rank": "3"})
    assert _best(other) == _best(df)


@pytest.mark.parametrize("h", [5, 6, 7, 9, 13, 17, 26, 52])
def test_best_five_sums_and_straight_flush(h):
    sf = _rows(deal_odds(13, hand_size=h))
    for tp in (False, True):
        df = best_hand_distribution(13, {"two_pair_five": tp}, hand_size=h)
        for o in STRAIGHT_ORDERS:
            dist = _best(df, f"straight_order={o}")
            assert sum(dist.values()) == 1
            assert dist["straight_flush"] == sf[("straight_flush", o)]
            assert dist["straight_flush"] + dist["four_of_a_kind"] + dist["full_house"] >= sf["full_house"]
    if h >= 17:  # 17 cards always hold five of a suit
        assert dist["straight"] == dist["none"] == 0


def test_best_five_all_five_card_sets():
    T = math.comb(52, 5)
    for tp, qk, o in itertools.product((False, True), ("required", "optional"), STRAIGHT_ORDERS):
        rules = RuleSet(straight_order=o, two_pair_five=tp, quad_kicker=qk)
        cat, _ = five_card_ranking(rules)
        brute = Counter(_LEVEL_OF_CODE[int(k)] for k in cat[cat >= 0])
        brute["none"] = int((cat < 0).sum())
        dist = _best(best_hand_distribution(13, rules, hand_size=5))
        assert {k: v * T for k, v in dist.items() if v} == dict(brute), (tp, qk, o)


def test_best_five_tiny_hands():
    bare = _best(best_hand_distribution(13, {"quad_kicker": "optional"}, hand_size=4))
    assert bare["four_of_a_kind"] == Fraction(13, math.comb(52, 4)) and bare["none"] == 1 - bare["four_of_a_kind"]
    assert _best(best_hand_distribution(13, hand_size=4))["none"] == 1  # a quad needs a kicker
    assert _best(best_hand_distribution(13, hand_size=2))["none"] == 1


def _sf_inclusion_exclusion(h, masks):
    """Straight flushes among ``masks`` by rank class, by inclusion-exclusion over suited windows.

    A set of suited windows forces, per rank, ``k`` cards; the hands containing them are
    counted by rank class with a per-rank DP (cached by the sorted forced counts)."""
    cache = {}

    def by_class(forced):
        key = tuple(sorted(forced))
        if key not in cache:
            states = {(0, 0): 1}  # (class of _CLASS_STEP, cards)
            for k in key:
                nxt = Counter()
                for (cl, n), v in states.items():
                    for c in range(k, 5):
                        if n + c <= h:
                            nxt[(int(odds_module._CLASS_STEP[cl, c]), n + c)] += v * math.comb(4 - k, c - k)
                states = nxt
            cache[key] = [sum(v for (cl, n), v in states.items() if cl == x and n == h) for x in range(6)]
        return cache[key]

    signs = odds_module._union_signs(tuple(masks))
    no_sf = [0] * 6
    for choice in itertools.product(signs, repeat=4):
        sign = 1
        forced = [0] * 13
        for u, g in choice:
            sign *= g
            for r in range(13):
                forced[r] += u >> r & 1
        for x, v in enumerate(by_class(forced)):
            no_sf[x] += sign * v
    everything = by_class([0] * 13)
    return tuple(a - b for a, b in zip(everything, no_sf))


def test_straight_flush_by_rank_class():
    runs = [sum(1 << r for r in (odds_module._FACE[i: i + 5])) for i in range(11)]
    for h, starts in [(13, (2, 4)), (13, (0, 9)), (11, (0, 1, 9)), (12, (10,)), (13, (0, 3, 9))]:
        masks = tuple(runs[i] for i in starts)
        assert odds_module._sf_by_class(h, masks) == _sf_inclusion_exclusion(h, masks), (h, starts)


def test_flush_by_rank_class_dp():
    """Flushes joined with the rank class by an independent DP over ranks with suit counts."""
    h = 13
    states = {((0, 0, 0, 0), 0): np.eye(1, h + 1, 0, dtype=np.int64)[0]}
    for _ in range(13):
        nxt = {}
        for (suits, cl), vec in states.items():
            for sub in range(16):
                t = bin(sub).count("1")
                ns = tuple(sorted(min(5, s + (sub >> i & 1)) for i, s in enumerate(suits)))
                key = (ns, int(odds_module._CLASS_STEP[cl, t]))
                acc = nxt.setdefault(key, np.zeros(h + 1, dtype=np.int64))
                acc[t:] += vec[: h + 1 - t]
        states = nxt
    flush = Counter()
    for (suits, cl), vec in states.items():
        if max(suits) == 5:
            flush["quad" if cl == 5 else "full_house" if cl == 4 else "low"] += int(vec[h])
    T = math.comb(52, h)
    for o in STRAIGHT_ORDERS:
        masks = odds_module._window_masks(o)
        sf = odds_module._sf_by_class(h, masks)
        dist = _best(best_hand_distribution(4), f"straight_order={o}")
        sf_low = sum(sf) - sf[4] - sf[5]
        assert dist["flush"] * T == flush["low"] - sf_low
    assert flush["quad"] + flush["full_house"] + flush["low"] == _exact(deal_odds(4), "flush") * T


def _best_codes(hands, rules, chunk=4_000):
    """Best five-card category code of each hand (rows of card ids) from every 5-subset, by combos."""
    sub = np.array(list(itertools.combinations(range(hands.shape[1]), 5)))
    out = np.empty(len(hands), dtype=np.int8)
    for s in range(0, len(hands), chunk):
        bits = np.left_shift(np.uint64(1), hands[s: s + chunk].astype(np.uint64))
        masks = np.bitwise_or.reduce(bits[:, sub], axis=2)
        trick, cat, _ = classify_masks(masks, rules)
        out[s: s + chunk] = np.where(trick == 5, cat, -1).max(axis=1)
    return out


@pytest.mark.slow
def test_best_five_all_six_card_sets():
    """Every six-card hand (20,358,520) at scale >= 1, else a seeded sample, against combos."""
    from kaptai.bigtwo import _eval

    binom = np.array([[math.comb(a, k) for k in range(7)] for a in range(52)], dtype=np.int64)
    five = all_five_card_sets().astype(np.int64)
    colex = sum(binom[five[:, i], i + 1] for i in range(5))
    six = _eval._combinations(52, 6)
    if SLOW_SCALE < 1:
        six = six[np.random.default_rng(6).random(len(six)) < SLOW_SCALE]
    T = math.comb(52, 6)
    for rules in (RuleSet(), RuleSet(straight_order="sequential", two_pair_five=True)):
        cat, _ = five_card_ranking(rules)
        table = np.empty(len(cat), dtype=np.int8)
        table[colex] = cat
        seen = np.zeros(12, dtype=np.int64)
        for s in range(0, len(six), 2_000_000):
            a = six[s: s + 2_000_000].astype(np.int64)
            best = np.full(len(a), -1, dtype=np.int8)
            for drop in range(6):
                keep = [i for i in range(6) if i != drop]
                idx = sum(binom[a[:, i], k + 1] for k, i in enumerate(keep))
                np.maximum(best, table[idx], out=best)
            seen += np.bincount(best.astype(np.int64) + 1, minlength=12)
        brute = {_LEVEL_OF_CODE[k - 1]: int(v) for k, v in enumerate(seen) if v}
        dist = _best(best_hand_distribution(13, rules, hand_size=6))
        if SLOW_SCALE >= 1:
            assert {k: v * T for k, v in dist.items() if v} == brute
        else:
            for level, p in dist.items():
                _assert_close(p, brute.get(level, 0) / len(six), len(six), level)


@pytest.mark.slow
@pytest.mark.parametrize("k,n,options", [
    (7, 200_000, {}),
    (7, 200_000, {"straight_order": "sequential", "two_pair_five": True}),
    (13, 200_000, {}),
    (13, 50_000, {"straight_order": "sequential", "two_pair_five": True}),
])
def test_best_five_monte_carlo(k, n, options):
    rules = RuleSet(**options)
    n = _scaled(n)
    hands = np.argsort(np.random.default_rng(k).random((n, 52)), axis=1)[:, :k]
    codes = _best_codes(hands, rules)
    dist = _best(best_hand_distribution(13, rules, hand_size=k))
    for level, p in dist.items():
        code = next(c for c, lv in _LEVEL_OF_CODE.items() if lv == level)
        _assert_close(p, (codes == code).mean(), n, level)
