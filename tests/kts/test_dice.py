"""Tests of kaptai.kts.dice: the first-hand (先手) seat distribution of rules §2."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from kaptai.errors import RulesError
from kaptai.kts.dice import (
    dice_total_counts,
    dice_total_distribution,
    first_hand_distribution,
    first_hand_table,
)
from kaptai.kts.rules import RuleSet, n_dice


def brute_force(players: int, dice: int) -> dict[int, Fraction]:
    """Enumerate all 6**dice throws; counting from seat 1 as 1 lands on total mod P."""
    seats = Counter()
    for throw in itertools.product(range(1, 7), repeat=dice):
        seat = 0
        for _ in range(sum(throw)):  # step round the table one seat per pip
            seat = (seat + 1) % players
        seats[seat] += 1
    return {s: Fraction(seats[s], 6**dice) for s in range(players)}


def test_two_players_two_dice():
    d = first_hand_distribution(2)
    # P(seat 0) = P(total of 2 dice is even) = 1/2
    assert d == {0: Fraction(1, 2), 1: Fraction(1, 2)}


def test_three_players_three_dice_brute_force():
    assert n_dice(3) == 3
    d = first_hand_distribution(3)
    assert d == brute_force(3, 3)
    # each die is uniform mod 3, so the seat is uniform
    assert set(d.values()) == {Fraction(1, 3)}


def test_four_players_hand_checked():
    # totals of 3 dice: seat 0 <- 4, 8, 12, 16 (3 + 21 + 25 + 6 = 55 ways); seat 1 <- 5, 9, 13, 17
    d = first_hand_distribution(4)
    assert d == {0: Fraction(55, 216), 1: Fraction(55, 216), 2: Fraction(53, 216), 3: Fraction(53, 216)}


@pytest.mark.parametrize("players", range(2, 23))
@pytest.mark.parametrize("rules", [None, RuleSet(dice=4)], ids=["dice3", "dice4"])
def test_matches_brute_force_and_sums_to_one(players, rules):
    d = first_hand_distribution(players, rules)
    assert list(d) == list(range(players))
    assert all(isinstance(p, Fraction) and p >= 0 for p in d.values())
    assert sum(d.values()) == 1
    assert d == brute_force(players, n_dice(players, rules))


def test_four_dice_from_nine_players():
    assert n_dice(8) == 3 and n_dice(9) == 4
    assert first_hand_distribution(9) == brute_force(9, 4)
    assert first_hand_distribution(8) == brute_force(8, 3)
    # 4 dice give totals 4..24, so with 22 players seat 3 (total 3 or 25) is never first
    d = first_hand_distribution(22)
    assert d[3] == 0 and d[0] == Fraction(dice_total_counts(4)[22], 6**4)


def test_dice_option_four_always():
    # Kap Shap with dice=4 throws 4 dice, taken literally
    d = first_hand_distribution(2, RuleSet(dice=4))
    assert d == brute_force(2, 4)
    assert first_hand_distribution(5, {"dice": 4}) == brute_force(5, 4)
    assert first_hand_distribution(5, RuleSet(dice=4)) != first_hand_distribution(5)


def test_dice_totals():
    for k in (1, 2, 3, 4):
        counts = dice_total_counts(k)
        assert sum(counts.values()) == 6**k
        assert counts == Counter(sum(t) for t in itertools.product(range(1, 7), repeat=k))
        assert sum(dice_total_distribution(k).values()) == 1
    with pytest.raises(RulesError, match="dice=0"):
        dice_total_counts(0)


def test_bad_players():
    for bad in (1, 23, 2.5, True):
        with pytest.raises(RulesError, match=rf"players={bad!r}"):
            first_hand_distribution(bad)
        with pytest.raises(RulesError, match=rf"players={bad!r}"):
            first_hand_table(bad)


def test_table():
    df = first_hand_table(4, "advanced")
    assert list(df.columns) == ["players", "dice", "seat", "probability", "exact"]
    assert df["seat"].tolist() == [0, 1, 2, 3]
    assert set(df["players"]) == {4} and set(df["dice"]) == {3}
    assert df["exact"].tolist() == ["55/216", "55/216", "53/216", "53/216"]
    assert df["probability"].tolist() == [55 / 216, 55 / 216, 53 / 216, 53 / 216]
    assert str(df["probability"].dtype) == "float64"
    assert df.attrs["rules"]["name"] == "advanced"


def test_table_many_player_counts():
    df = first_hand_table(range(2, 23), RuleSet(dice=4))
    assert len(df) == sum(range(2, 23))
    for players, group in df.groupby("players"):
        assert group["seat"].tolist() == list(range(players))
        assert (group["dice"] == 4).all()
        exact = [Fraction(s) for s in group["exact"]]
        assert sum(exact) == 1
        assert group["probability"].tolist() == [float(f) for f in exact]
