"""Self-tests of the brute-force look-ahead oracle (tests/kts/lookahead_oracle.py).

Hand-checked cases: a ready hand's k = 1 value is its live outs over the unseen tiles,
a pool made only of winning tiles gives certainty, values grow with the horizon and stay
in [0, 1] for P(win), the claims variant and the score objective follow the conventions
stated in the oracle's docstring.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from fractions import Fraction

import pytest

from kaptai.kts import reference as ref
from kaptai.kts.tiles import COPIES_PER_SET, format_tile, parse_hand


def _load_oracle():
    name = "kts_lookahead_oracle"
    if name in sys.modules:
        return sys.modules[name]
    path = pathlib.Path(__file__).with_name("lookahead_oracle.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


oracle = _load_oracle()

TWO_SETS = oracle.caps_for_sets(2)
ONE_SET = oracle.caps_for_sets(1)


def counts(text: str) -> list[int]:
    c = [0] * 21
    for t in parse_hand(text):
        c[t] += 1
    return c


def parse_hand_sorted(text: str) -> list[int]:
    return sorted(parse_hand(text))


def pool_of(**tiles: int) -> list[int]:
    """Pool from pip-keyed counts, e.g. pool_of(p44=1, p11=1)."""
    c = [0] * 21
    for key, n in tiles.items():
        c[parse_hand(key[1:])[0]] += n
    return c


# A ready 9-tile hand: 16 16 · 16+12 · 33+13 · 15+22 · 66 + (44 | 26 | 35).
READY9 = "16 16 16 12 33 13 15 22 66"
# The advisor's docstring hand; thrown 5-6 it waits on 4-4 2-6 3-5 (eye 16 16, 33+13, 15+22,
# 55+46, 66+?8); thrown 6-6 it waits on 4-5 3-6 (56+?9).
HAND10 = "16 16 33 13 15 22 55 46 66 56"
SEEN = "45 45 36"


def test_copies_match_the_tile_table():
    assert TWO_SETS == tuple(int(c) * 2 for c in COPIES_PER_SET)
    assert ONE_SET == tuple(int(c) for c in COPIES_PER_SET)


def test_waits_of_the_fixtures():
    assert ref.waits(counts(READY9), "traditional") == parse_hand_sorted("44 26 35")
    assert ref.waits(counts("16 16 33 13 15 22 55 46 66"), "traditional") == parse_hand_sorted("44 26 35")
    assert ref.waits(counts("16 16 33 13 15 22 55 46 56"), "traditional") == parse_hand_sorted("45 36")


def test_k1_by_hand_traditional():
    # 64 tiles - 10 in hand - 3 seen = 51 unseen.  Throw 5-6: 4 x 4-4 + 2 x 2-6 + 2 x 3-5 = 8 live.
    # Throw 6-6: 4-5 has both copies seen, 3-6 one of two -> 1 live.  Nothing else is ready.
    values = oracle.oracle_discard_values(HAND10, "traditional", seen=SEEN, draws=1)
    expected = {key: Fraction(0) for key in values}
    expected["5-6"] = Fraction(8, 51)
    expected["6-6"] = Fraction(1, 51)
    assert values == expected
    assert list(values) == ["6-6", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"]


@pytest.mark.parametrize("rules", ["traditional", "advanced"])
def test_k1_equals_live_outs_from_reference_waits(rules):
    g = counts(HAND10)
    seen = counts(SEEN)
    pool = [TWO_SETS[t] - g[t] - seen[t] for t in range(21)]
    u = sum(pool)
    win = oracle.oracle_discard_values(HAND10, rules, seen=SEEN, draws=1)
    score = oracle.oracle_discard_values(HAND10, rules, seen=SEEN, draws=1, objective="score")
    for x in set(parse_hand(HAND10)):
        h = list(g)
        h[x] -= 1
        waits = ref.waits(h, rules)
        key = format_tile(x)
        assert win[key] == Fraction(sum(pool[t] for t in waits), u)
        # score: each own-draw win scores reference.score + 1 (self-draw point)
        total = 0
        for t in waits:
            h[t] += 1
            total += pool[t] * (ref.score(h, rules) + 1)
            h[t] -= 1
        assert score[key] == Fraction(total, u)


def test_k1_score_by_hand():
    # thrown 5-6, every completion is a basic win worth 2, +1 self-drawn: 8 x 3 / 51
    values = oracle.oracle_discard_values(HAND10, "traditional", seen=SEEN, draws=1, objective="score")
    assert values["5-6"] == Fraction(24, 51)


def test_certainty_when_every_unseen_tile_wins():
    assert oracle.oracle_value(READY9, pool_of(p44=3), 1, "traditional") == 1
    assert oracle.oracle_value(READY9, pool_of(p44=2, p26=1), 2, "traditional") == 1
    # 16 16 · 16+12 · 33+13 · 15+22 · 66+44 scores 2 (rules page §4), +1 self-drawn
    assert oracle.oracle_value(READY9, pool_of(p44=3), 1, "advanced", objective="score") == 3


def test_one_dead_tile_in_the_pool():
    # pool {4-4, 1-1}: 1-1 does not complete READY9 (it is thrown), 4-4 does.
    pool = pool_of(p44=1, p11=1)
    assert oracle.oracle_value(READY9, pool, 1, "traditional") == Fraction(1, 2)
    assert oracle.oracle_value(READY9, pool, 2, "traditional") == 1
    assert oracle.oracle_value(READY9, pool, 2, "traditional", objective="score") == 3
    # claims, one turn = offered tile then own draw: 4-4 offered (1/2) is a claimed win worth 2
    # (no self-draw point); 1-1 offered is declined and the draw of 4-4 scores 2 + 1.
    assert oracle.oracle_value(READY9, pool, 1, "traditional", claims=True) == 1
    assert oracle.oracle_value(READY9, pool, 1, "traditional", claims=True, objective="score") == Fraction(5, 2)
    assert oracle.oracle_value(READY9, pool_of(p44=2), 1, "traditional", claims=True, objective="score") == 2


def test_complete_after_draw_certainty_kap_shap():
    # Kap Shap (1 set, 8 tiles).  Thrown 1-1, 16 16 33 13 15 22 66 waits on 4-4 2-6 3-5;
    # everything but the two 4-4 is in the hand or seen, so the next draw wins for sure.
    hand8 = "16 16 33 13 15 22 66 11"
    g = counts(hand8)
    seen = []
    for t in range(21):
        left = ONE_SET[t] - g[t] - (2 if t == parse_hand("44")[0] else 0)
        seen += [t] * left
    for k in (1, 2):
        values = oracle.oracle_discard_values(hand8, "traditional", seen=seen, draws=k, players=2)
        assert values["1-1"] == 1
        assert values["6-6"] == 1  # 16 16 33 13 15 22 11 + 44: 11+44 is a ten pair too
        assert all(0 <= v <= 1 for v in values.values())


def test_monotone_in_k_and_bounded():
    # Kap Shap with many tiles seen, so k = 3 stays fast
    hand8 = "16 16 33 13 15 22 56 24"
    seen = "66 66 55 55 46 45 12 14 23"
    prev = None
    for k in (1, 2, 3):
        values = oracle.oracle_discard_values(hand8, "advanced", seen=seen, draws=k)
        assert all(0 <= v <= 1 for v in values.values())
        if prev is not None:
            assert all(values[x] >= prev[x] for x in values)
        prev = values
    assert max(prev.values()) > 0


@pytest.mark.parametrize("rules", ["traditional", "advanced"])
def test_monotone_two_sets_k1_k2(rules):
    v1 = oracle.oracle_discard_values(HAND10, rules, seen=SEEN, draws=1)
    v2 = oracle.oracle_discard_values(HAND10, rules, seen=SEEN, draws=2)
    assert all(0 <= v1[x] <= v2[x] <= 1 for x in v1)
    assert v2["5-6"] > v1["5-6"]


def test_claims_win_objective_is_two_looks_per_turn():
    # for P(win) a claim look and a draw look are the same step (claim = exchange, decline =
    # throw the offered tile): k claim turns = 2k looks without claims, and >= k looks
    c1 = oracle.oracle_discard_values(HAND10, "traditional", seen=SEEN, draws=1, claims=True)
    n1 = oracle.oracle_discard_values(HAND10, "traditional", seen=SEEN, draws=1)
    n2 = oracle.oracle_discard_values(HAND10, "traditional", seen=SEEN, draws=2)
    assert c1 == n2
    assert all(c1[x] >= n1[x] for x in c1)


def test_score_objective_bounds():
    # without claims every win is an own draw worth >= 2 + 1, so the best expected score is at
    # least 3 x the best P(win) (play the P(win)-optimal policy); it is 0 exactly when no win
    # is possible
    win = oracle.oracle_discard_values(HAND10, "advanced", seen=SEEN, draws=2)
    score = oracle.oracle_discard_values(HAND10, "advanced", seen=SEEN, draws=2, objective="score")
    for x in win:
        assert score[x] >= 3 * win[x]
        assert (score[x] == 0) == (win[x] == 0)


def test_errors():
    with pytest.raises(ValueError):
        oracle.oracle_value(READY9, pool_of(p44=1), 2, "traditional")  # 2 looks, 1 tile
    with pytest.raises(ValueError):
        oracle.oracle_value(READY9, pool_of(p44=2), 1, "traditional", claims=True, objective="points")
    with pytest.raises(ValueError):
        oracle.oracle_discard_values(HAND10, "traditional", seen="56 56 56 56")  # 5 copies of 5-6
    assert oracle.oracle_value(READY9, pool_of(p44=1), 0, "traditional") == 0
