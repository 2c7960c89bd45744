"""Tests of kaptai.core.settlement: money conservation, moments, break-even, ruin."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaptai.core.settlement import (
    break_even_cut,
    diffusion_ruin_probability,
    first_passage,
    gini,
    pot_break_even_cut,
    pot_ev,
    ruin_probability,
    settle_hand,
    settle_outcomes,
    validate_bankroll,
    validate_cut,
    weighted_moments,
)
from kaptai.errors import RulesError

cuts = st.floats(0.0, 1.0, allow_nan=False)


@st.composite
def hands(draw):
    players = draw(st.integers(2, 22))
    winner = draw(st.integers(-1, players - 1))
    score = draw(st.integers(0, 70))
    return players, winner, score


@given(hands(), cuts, st.sampled_from(["pot", "advanced"]), st.sampled_from(["refund", "carry"]),
       st.floats(0, 500, allow_nan=False))
def test_every_hand_balances(hand, cut, system, drawn, pot_in):
    players, winner, score = hand
    s = settle_hand(system, players, winner, score, cut=cut, pot_in=pot_in, drawn_hand=drawn)
    assert abs(s.balance()) < 1e-9 * max(1.0, pot_in + players * (score + 1))
    assert s.house >= 0
    if winner < 0:
        assert s.house == 0
        if system == "pot" and drawn == "carry":
            assert s.pot_out == pytest.approx(pot_in + players)
        else:
            assert np.all(s.nets == 0)
    else:
        assert s.pot_out == 0 or system == "advanced"
        losers = np.delete(s.nets, winner)
        assert np.all(losers <= 0)


@given(st.integers(2, 12), cuts, st.sampled_from(["pot", "advanced"]),
       st.lists(st.tuples(st.integers(-1, 11), st.integers(1, 40)), min_size=1, max_size=30))
def test_vectorised_equals_one_by_one(players, cut, system, outcomes):
    outcomes = [(w % (players + 1) - 1, s) for w, s in outcomes]
    w = [o[0] for o in outcomes]
    sc = [o[1] for o in outcomes]
    nets, house, gross = settle_outcomes(system, players, w, sc, cut=cut)
    np.testing.assert_allclose(nets.sum(axis=1) + house, 0, atol=1e-9)
    for k, (wk, sk) in enumerate(outcomes):
        one = settle_hand(system, players, wk, sk, cut=cut)
        np.testing.assert_allclose(nets[k], one.nets, atol=1e-12)
        assert house[k] == pytest.approx(one.house)
    # linear in the cut with slope -gross
    nets0, _, _ = settle_outcomes(system, players, w, sc, cut=0.0)
    np.testing.assert_allclose(nets, nets0 - cut * gross, atol=1e-9)


def test_pot_examples():
    s = settle_hand("pot", 4, 0, cut=0.05)
    np.testing.assert_allclose(s.nets, [2.8, -1, -1, -1])
    assert s.house == pytest.approx(0.2)
    carried = settle_hand("pot", 4, -1, drawn_hand="carry")
    assert carried.pot_out == 4
    s = settle_hand("pot", 4, 3, cut=0.05, pot_in=carried.pot_out)
    np.testing.assert_allclose(s.nets, [-1, -1, -1, 8 * 0.95 - 1])
    assert s.house == pytest.approx(0.4)


def test_advanced_examples():
    s = settle_hand("advanced", 4, 1, 10, cut=0.1)
    np.testing.assert_allclose(s.nets, [-10, 27, -10, -10])
    assert s.house == pytest.approx(3.0)
    assert np.all(settle_hand("advanced", 4, -1, 0, drawn_hand="carry").nets == 0)


def test_weighted_moments_match_expanded_sample():
    rng = np.random.default_rng(0)
    values = rng.normal(size=(7, 3))
    counts = rng.integers(0, 20, size=7)
    e = weighted_moments(values, counts)
    expanded = np.repeat(values, counts, axis=0)
    np.testing.assert_allclose(e.mean, expanded.mean(axis=0))
    np.testing.assert_allclose(e.var, expanded.var(axis=0, ddof=1))
    np.testing.assert_allclose(e.ci_high - e.mean, 1.959963984540054 * np.sqrt(e.var / counts.sum()))
    assert np.all(np.isnan(weighted_moments([1.0], [0]).mean))


@given(st.lists(st.floats(0.0, 1.0), min_size=2, max_size=10), st.floats(0, 0.5), cuts)
def test_pot_ev_closed_form(raw, drawn, cut):
    p = np.asarray(raw) + 1e-3
    p = p / p.sum() * (1 - drawn)
    P = len(p)
    ev, house = pot_ev(p, drawn, P, cut)
    assert ev.sum() == pytest.approx(-house, abs=1e-9)
    nets, h, _ = settle_outcomes("pot", P, list(range(P)) + [-1], cut=cut)
    w = np.append(p, drawn)
    np.testing.assert_allclose(ev, (w[:, None] * nets).sum(axis=0), atol=1e-12)
    ev_c, house_c = pot_ev(p, drawn, P, cut, "carry")
    np.testing.assert_allclose(ev_c, (ev + (1 - drawn)) / (1 - drawn) - 1, atol=1e-9)  # refund EV / (1 - d)
    assert house_c == pytest.approx(cut * P)


@given(st.lists(st.floats(0.0, 1.0), min_size=2, max_size=10), st.floats(0, 0.5))
def test_break_even_cut_matches_scan(raw, drawn):
    p = np.asarray(raw) + 1e-3
    p = p / p.sum() * (1 - drawn)
    P = len(p)
    c_star = pot_break_even_cut(p, drawn, P)
    ev0, _ = pot_ev(p, drawn, P, 0.0)
    assert c_star == pytest.approx(break_even_cut(ev0, P * p))
    grid = np.linspace(0, 1, 2001)
    negative = [c for c in grid if np.all(pot_ev(p, drawn, P, c)[0] < -1e-12)]
    assert negative, "at a 100% cut every seat loses"
    assert negative[0] == pytest.approx(c_star, abs=1.0 / 2000 + 1e-9)
    assert np.max(pot_ev(p, drawn, P, c_star)[0]) == pytest.approx(0.0, abs=1e-9) or c_star == 0


def test_gini_and_ruin():
    assert gini([1, 1, 1]) == 0.0
    assert gini([0, 0, 4]) == pytest.approx(2 / 3)
    np.testing.assert_allclose(gini(np.array([[1, 1], [0, 2]])), [0.0, 0.5])
    with pytest.raises(ValueError):
        gini([-1, 2])
    paths = np.array([[[5, 5], [0, 6], [1, 7]], [[5, 5], [6, 4], [7, 3]]])  # (sessions, steps, seats)
    assert first_passage(paths[:, :, 0]).tolist() == [1, -1]
    np.testing.assert_allclose(ruin_probability(paths, 0.0, axis=1), [0.5, 0.0])


def test_diffusion_ruin():
    # long horizon tends to the infinite-horizon formula
    inf = diffusion_ruin_probability(0.05, 1.5, 5.0)
    assert diffusion_ruin_probability(0.05, 1.5, 5.0, hands=1e7) == pytest.approx(inf, rel=1e-6)
    assert diffusion_ruin_probability(-0.1, 1.0, 5.0, hands=1e6) == pytest.approx(1.0)
    assert diffusion_ruin_probability(0.0, 1.0, 0.0) == 1.0
    # zero drift, finite horizon: reflection principle 2 * Phi(-b / (s sqrt T))
    from statistics import NormalDist
    assert diffusion_ruin_probability(0.0, 1.0, 3.0, hands=9) == pytest.approx(2 * NormalDist().cdf(-1.0))


@pytest.mark.parametrize("bad", [-0.01, 1.01, float("nan"), True, "0.05", None])
def test_bad_cuts(bad):
    with pytest.raises(RulesError, match="expected a number from 0 to 1"):
        validate_cut(bad)
    with pytest.raises(RulesError):
        settle_hand("pot", 4, 0, cut=bad)


def test_bad_input():
    with pytest.raises(RulesError, match="bankroll"):
        validate_bankroll(-1)
    with pytest.raises(RulesError, match="settlement"):
        settle_hand("poker", 4, 0)
    with pytest.raises(RulesError, match="not a seat"):
        settle_hand("pot", 4, 4)
    with pytest.raises(RulesError, match="drawn_hand"):
        settle_hand("pot", 4, -1, drawn_hand="keep")
    with pytest.raises(RulesError, match="winner seats"):
        settle_outcomes("pot", 3, [3])
