"""The atlas's measures (kaptai.core.atlas) on cases with known answers."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from kaptai.core.atlas import (COMMON_RAKE, AtlasFeed, AtlasRole, Moments, RoleMoments, feature_names, hand_moments,
                               pair_measures, principal_role, role_measures, rotated_ev, table_measures,
                               variance_range)
from kaptai.core.stats import ahead_probability, hands_until_ahead, spread_interval, z_value
from kaptai.errors import KaptaiError


def _rows(rows, measure, seat=None):
    got = [r for r in rows if r["measure"] == measure and r["seat"] == seat]
    assert len(got) == 1, (measure, seat)
    return got[0]


def _pot(rng, n, players, cut, p_win=None):
    """A pot game: every seat antes 1, the winner takes the pot less the cut."""
    p = np.full(players, 1 / players) if p_win is None else np.asarray(p_win)
    win = rng.choice(players, size=n, p=p)
    onehot = np.eye(players)[win]
    gross = onehot * players - 1.0
    net = onehot * players * (1 - cut) - 1.0
    one = np.ones(n)
    return hand_moments(net, gross=gross, staked=players * one, length=one, drawn=0 * one, natural=0 * one)


def test_no_cut_means_zero_house_edge_exactly():
    m = _pot(np.random.default_rng(0), 5_000, 4, 0.0)
    r = _rows(table_measures(m), "house_edge")
    assert (r["value"], r["ci_low"], r["ci_high"]) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize("cut", [0.05, 0.1])
def test_pot_cut_is_the_house_edge(cut):
    m = _pot(np.random.default_rng(1), 5_000, 4, cut)
    rows = table_measures(m)
    r = _rows(rows, "house_edge")
    # the cut takes cut * 4 antes of the 3 antes that change hands (the winner's own is not paid)
    assert r["value"] == pytest.approx(cut * 4 / 3, abs=1e-12)
    assert r["ci_high"] == r["ci_low"] == r["value"] and r["method"] == "exact"   # a constant take has no noise
    assert _rows(rows, "exchanged")["value"] == pytest.approx(3.0)
    common = _rows(rows, "house_edge_common")
    assert common["value"] == pytest.approx(COMMON_RAKE, abs=1e-12) and common["method"] == "exact"


def test_house_edge_is_one_definition_for_pot_and_settlement_games():
    """The same money changes hands in a pot of 3 antes won and in 3 losers paying 1 each."""
    rng = np.random.default_rng(4)
    n, P = 4_000, 4
    win = rng.integers(0, P, n)
    onehot = np.eye(P)[win]
    gross = onehot * P - 1.0                               # pot: 4 antes, the winner's own back
    pay = onehot * 3 - (1 - onehot)                        # settlement: each loser pays the winner 1
    assert np.array_equal(gross, pay)
    cut = 0.05
    net_pot = onehot * P * (1 - cut) - 1.0                 # 5% of the whole pot
    net_settle = np.where(onehot == 1, 3 * (1 - cut), -1.0)   # 5% of what is won
    one = np.ones(n)
    e = {}
    for name, net in (("pot", net_pot), ("settle", net_settle)):
        rows = table_measures(hand_moments(net, gross=gross, staked=P * one, length=one, drawn=0 * one,
                                           natural=0 * one))
        e[name] = _rows(rows, "house_edge")["value"]
    assert e["settle"] == pytest.approx(0.05) and e["pot"] == pytest.approx(0.05 * 4 / 3)


def test_unit_free_spread_is_the_spread_over_swing_and_over_the_exchange():
    rows = table_measures(_pot(np.random.default_rng(3), 40_000, 3, 0.0, p_win=[0.4, 0.3, 0.3]))
    spread, swing = _rows(rows, "seat_spread"), _rows(rows, "swing")
    share = _rows(rows, "seat_spread_swing_share")
    assert share["value"] == pytest.approx(spread["value"] / swing["value"])
    assert share["ci_low"] <= spread["ci_low"] / swing["ci_high"] + 1e-12
    assert share["ci_high"] >= spread["ci_high"] / swing["ci_low"] - 1e-12
    ex = _rows(rows, "seat_spread_exchange_share")
    assert ex["value"] == pytest.approx(spread["value"] / 2.0)          # 2 antes change hands each hand


def test_a_rare_event_never_seen_keeps_a_positive_upper_bound():
    m = _pot(np.random.default_rng(5), 20_000, 4, 0.0)
    r = _rows(table_measures(m), "natural_rate")
    assert r["value"] == 0.0 == r["ci_low"] < 1.4e-5 < r["ci_high"]


def test_symmetric_game_has_no_seat_advantage_within_its_intervals():
    rows = table_measures(_pot(np.random.default_rng(2), 40_000, 4, 0.05))
    for s in (1, 2, 3):
        r = _rows(rows, "seat_advantage", s)
        assert r["ci_low"] < 0 < r["ci_high"]
    spread = _rows(rows, "seat_spread")
    assert spread["ci_low"] == 0.0 < spread["ci_high"]


def test_a_favoured_seat_shows_in_the_spread_and_in_its_advantage():
    rows = table_measures(_pot(np.random.default_rng(3), 40_000, 3, 0.0, p_win=[0.4, 0.3, 0.3]))
    adv = _rows(rows, "seat_advantage", 1)
    true = 3 * (0.3 - 0.4)                               # EV difference of seat 1 and seat 0 in antes
    assert adv["ci_low"] < true < adv["ci_high"] < 0
    assert _rows(rows, "seat_spread")["ci_low"] > 0


def test_simultaneous_intervals_are_wider_than_one_at_a_time():
    m = Moments(_pot(np.random.default_rng(4), 10_000, 5, 0.0))
    one = m.linear({"net_1": 1.0, "net_0": -1.0}, 0.95)
    rows = table_measures(_pot(np.random.default_rng(4), 10_000, 5, 0.0))
    sim = _rows(rows, "seat_advantage", 1)
    assert sim["ci_high"] - sim["ci_low"] > one[2] - one[1]


def test_random_against_random_has_no_value_of_skill():
    """A four-seat pot: X wins (+3 - -1 = 4), Y wins (-4) or another seat does (0), alike."""
    rng = np.random.default_rng(5)
    diffs = [rng.choice([4.0, -4.0, 0.0], size=4_000, p=[0.25, 0.25, 0.5]) for _ in range(12)]
    rows = pair_measures(diffs, swing=(1.7, 1.6, 1.8), exchanged=(3.0, 3.0, 3.0))
    v = _rows(rows, "value_of_skill")
    assert v["ci_low"] < 0 < v["ci_high"]
    h = _rows(rows, "hands_until_skill_shows")
    assert h["ci_high"] == math.inf                       # the interval of the edge reaches 0


def test_pair_measures_by_hand():
    """Two arrangements of the pair, worked by hand."""
    d = [np.array([2.0, -1.0, 2.0, 0.0]), np.array([2.0, 2.0, -1.0, -1.0])]
    rows = pair_measures(d, swing=(2.0, 1.0, 4.0), exchanged=(4.0, 4.0, 4.0))
    # per-arrangement means 0.75 and 0.5: the edge is their mean, 0.625
    v = _rows(rows, "value_of_skill")
    assert v["value"] == pytest.approx(0.625)
    se = math.sqrt(np.var(d[0], ddof=1) / 4 + np.var(d[1], ddof=1) / 4) / 2
    assert v["ci_high"] - v["value"] == pytest.approx(1.959963984540054 * se)
    sw = _rows(rows, "value_of_skill_swing_share")
    assert sw["value"] == pytest.approx(0.625 / 2.0)
    assert sw["ci_low"] == pytest.approx(min(v["ci_low"] / 1.0, v["ci_low"] / 4.0))
    assert sw["ci_high"] == pytest.approx(v["ci_high"] / 1.0)
    assert _rows(rows, "value_of_skill_exchange_share")["value"] == pytest.approx(0.625 / 4.0)
    # the mixture of the two arrangements: values 2, -1, 0 with weights 3/8, 3/8... by hand
    vals = {2.0: 3 / 8, -1.0: 3 / 8, 0.0: 1 / 8}
    vals[-1.0] = 1 / 8 + 2 / 8
    vals[2.0] = 2 / 8 + 2 / 8
    assert sum(vals.values()) == pytest.approx(1.0)
    sd = math.sqrt(sum(p * (x - 0.625) ** 2 for x, p in vals.items()))
    assert _rows(rows, "skill_effect_size")["value"] == pytest.approx(0.625 / sd)
    n, p = hands_until_ahead(list(vals), list(vals.values()))
    h = _rows(rows, "hands_until_skill_shows")
    assert h["value"] == n and ahead_probability(list(vals), list(vals.values()), n) == pytest.approx(p)
    assert h["ci_low"] <= n <= h["ci_high"]


def test_swing_of_a_coin_flip():
    rng = np.random.default_rng(7)
    w = rng.integers(0, 2, 50_000).astype(float)
    net = np.stack([2 * w - 1, 1 - 2 * w], axis=1)
    one = np.ones(w.size)
    rows = table_measures(hand_moments(net, gross=net, staked=one, length=3 * one, drawn=0 * one, natural=one))
    sw = _rows(rows, "swing")
    assert sw["ci_low"] < 1.0 <= sw["ci_high"] + 1e-9 and sw["value"] == pytest.approx(1.0, abs=0.01)
    assert _rows(rows, "swing_normalised")["value"] == pytest.approx(1.0, abs=0.01)   # |net| is always 1
    assert _rows(rows, "natural_rate")["value"] == 1.0
    assert _rows(rows, "mean_length")["value"] == 3.0
    assert _rows(rows, "drawn_rate")["value"] == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5), st.integers(1, 4)), min_size=1, max_size=12))
@example(cells=[(0, 4, 1), (2, -2, 4)])   # a cross moment 0 one way, 5.6e-17 the other (CI, session 5)
def test_weighted_rows_equal_repeated_rows(cells):
    net = np.array([[a, b] for a, b, _ in cells], dtype=float)
    w = np.array([k for _, _, k in cells])
    one = np.ones(len(cells))
    kw = dict(gross=net, staked=np.abs(net).sum(axis=1), length=one, drawn=0 * one, natural=0 * one)
    weighted = hand_moments(net, weight=w, **kw)
    rep = np.repeat(np.arange(len(cells)), w)
    repeated = hand_moments(net[rep], **{k: v[rep] for k, v in kw.items()})
    assert weighted["n"][0] == repeated["n"][0] == w.sum()
    # sums of a few products of small integers and rates: equal up to rounding (an exact 0 on
    # one side may be 5.6e-17 on the other, so an absolute tolerance too)
    np.testing.assert_allclose(weighted["z1"], repeated["z1"], rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(weighted["z2"], repeated["z2"], rtol=1e-9, atol=1e-9)


def test_moments_add_across_chunks():
    rng = np.random.default_rng(8)
    a, b = _pot(rng, 300, 3, 0.1), _pot(rng, 200, 3, 0.1)
    both = {k: a[k] + b[k] for k in a}
    assert Moments(both).n == 500
    assert feature_names(3)[:3] == ["net_0", "net_1", "net_2"]


def test_rotated_ev_averages_the_focal_seats():
    rng = np.random.default_rng(9)
    jobs = [(s, _pot(rng, 20_000, 4, 0.0, p_win=np.roll([0.4, 0.2, 0.2, 0.2], s))) for s in range(4)]
    mean, var, sd, hands = rotated_ev(jobs)
    assert hands == 80_000
    assert abs(mean - (4 * 0.4 - 1)) < 4 * math.sqrt(var)


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError):
        hand_moments(np.zeros((3, 2)), gross=np.zeros((3, 3)), staked=np.zeros(3), length=np.zeros(3),
                     drawn=np.zeros(3), natural=np.zeros(3))


def test_one_hand_measures_no_spread():
    """From a single hand no SD or interval can be measured: NaN, not 0."""
    one = np.ones(1)
    m = hand_moments(np.array([[2.0, -2.0]]), gross=np.array([[2.0, -2.0]]), staked=2 * one, length=one,
                     drawn=0 * one, natural=0 * one)
    rows = table_measures(m)
    assert math.isnan(_rows(rows, "swing")["value"])
    assert math.isnan(_rows(rows, "seat_spread")["ci_low"])
    with pytest.raises(ValueError):
        pair_measures([], swing=(1, 1, 1), exchanged=(1, 1, 1))


# --------------------------------------------------------------------------------------
# The luck of the seat from the roles (role_measures)
# --------------------------------------------------------------------------------------

DEALER = AtlasRole("dealer", "rotation")
FIRST = AtlasRole("first", "dice")


def _role_rows(rows, measure, role, seat=None):
    got = [r for r in rows if r["measure"] == measure and r["relative_to"] == role and r["seat"] == seat]
    assert len(got) == 1, (measure, role, seat)
    return got[0]


def _table(net, **roles):
    one = np.ones(net.shape[0])
    return hand_moments(net, gross=net, staked=np.abs(net).sum(axis=1) / 2, length=one, drawn=0 * one,
                        natural=0 * one, **roles)


def _brute_variance_range(lo, hi, w, steps=41):
    grids = np.meshgrid(*[np.linspace(a, b, steps) for a, b in zip(lo, hi)], indexing="ij")
    x = np.stack([g.reshape(-1) for g in grids], axis=1)
    w = np.asarray(w) / np.sum(w)
    v = ((x - (x @ w)[:, None]) ** 2) @ w
    return v.min(), v.max()


@pytest.mark.parametrize("seed", range(6))
def test_variance_range_is_the_least_and_greatest_variance_over_the_box(seed):
    rng = np.random.default_rng(seed)
    k = 3
    lo = rng.normal(size=k)
    hi = lo + rng.uniform(0, 1.5, k)
    w = rng.uniform(0.1, 1, k)
    got = variance_range(lo, hi, w)
    brute = _brute_variance_range(lo, hi, w)
    assert got[1] == pytest.approx(brute[1], rel=1e-12)         # a corner: on the grid
    assert got[0] <= brute[0] + 1e-12 and got[0] == pytest.approx(brute[0], abs=2e-3)
    assert variance_range([1.0, 1.0], [1.0, 1.0]) == (0.0, 0.0)
    with pytest.raises(KaptaiError):
        variance_range([1.0], [0.0])


def test_role_measures_by_hand():
    """Two seats, four hands; the first hand (by the dice) at seat 0 in hands 1-2, seat 1 in 3-4.

    Dealer: e = (3 + 1 - 1 + 1) / 4 = 1 and -1.  First hand: the result of the first hand's seat
    is 3, 1, 1, -1 (mean 1), of the other -1.  So both roles have spread 2 and sigma 1, in
    swings of 2: 1 and 0.5.  After a rotation of the dealer: q = (1/2, 1/2); the dealer's
    expected result given the first hand at 0 is (3 + 1) / 2 = 2, given it at 1 (-1 + 1) / 2 =
    0: variance 1; seat 1's: -2 and 0, variance 1; sqrt((1 + 1) / 2) / 2 = 0.5.
    """
    net = np.array([[3.0, -3], [1, -1], [-1, 1], [1, -1]])
    mom = _table(net, role_first=np.array([0, 0, 1, 1]))
    rows = role_measures(mom, [DEALER, FIRST], swing=(2.0, 2.0, 2.0))
    for role in ("dealer", "first"):
        assert _role_rows(rows, "role_ev", role, 0)["value"] == pytest.approx(1.0)
        assert _role_rows(rows, "role_ev", role, 1)["value"] == pytest.approx(-1.0)
        assert _role_rows(rows, "role_spread", role)["value"] == pytest.approx(2.0)
        assert _role_rows(rows, "role_spread_swing_share", role)["value"] == pytest.approx(1.0)
        assert _role_rows(rows, "role_luck_share", role)["value"] == pytest.approx(0.5)
    dealer_after = _role_rows(rows, "role_luck_after_rotation", "dealer")
    assert (dealer_after["value"], dealer_after["ci_low"], dealer_after["ci_high"], dealer_after["method"]) == (
        0.0, 0.0, 0.0, "exact")
    after = _role_rows(rows, "role_luck_after_rotation", "first")
    assert after["value"] == pytest.approx(0.5) and after["method"] == "monte_carlo"
    assert after["ci_low"] <= 0.5 <= after["ci_high"]


def test_a_chance_role_that_always_falls_on_one_seat_rotates_with_the_dealer():
    """The dice put the first hand at the dealer's seat every hand: the first hand's luck per hand
    is the dealer's, and a rotation of the dealer cancels it (nothing is left to chance)."""
    net = np.array([[3.0, -3], [1, -1], [-1, 1], [1, -1]])
    rows = role_measures(_table(net, role_first=np.zeros(4, dtype=int)), [DEALER, FIRST], swing=(2.0, 2.0, 2.0))
    assert _role_rows(rows, "role_luck_share", "first")["value"] == pytest.approx(0.5)
    after = _role_rows(rows, "role_luck_after_rotation", "first")
    assert (after["value"], after["ci_low"], after["ci_high"]) == (0.0, 0.0, 0.0)


def _direct(net, holder, reference_rotates):
    """The definitions straight from the rows: role EVs of the chance role and SD(T)^2 / P."""
    N, P = net.shape
    rel = net[np.arange(N)[:, None], (holder[:, None] + np.arange(P)[None, :]) % P]
    q = np.bincount(holder, minlength=P) / N
    var = 0.0
    for c in range(P):
        g = []
        for d in range(P):
            a = c if reference_rotates else (c + d) % P
            g.append(net[holder == d, a].mean())
        g = np.array(g)
        var += q @ (g - q @ g) ** 2
    return rel.mean(axis=0), var / P


@pytest.mark.parametrize("reference_rotates", [True, False], ids=["dice-over-dealer", "auction-then-dealer"])
def test_role_measures_against_their_definition_on_a_random_table(reference_rotates):
    rng = np.random.default_rng(11)
    N, P = 3_000, 3
    holder = rng.choice(P, size=N, p=[0.5, 0.3, 0.2])
    win = (holder + rng.choice(P, size=N, p=[0.5, 0.3, 0.2])) % P
    net = np.where(np.eye(P)[win] == 1, P - 1.0, -1.0) + rng.normal(0, 0.5, (N, P))
    if reference_rotates:                       # seat 0 the rotating dealer, the block the dice's role
        roles, name = [DEALER, FIRST], "first"
        chance_ev, var = _direct(net, holder, True)
    else:                                       # seat 0 the chance role, the block the rotating dealer
        roles, name = [AtlasRole("declarer", "auction"), AtlasRole("dealer", "rotation")], "dealer"
        _, var = _direct(net, holder, False)
        chance_ev = net.mean(axis=0)
    mom = _table(net, **{f"role_{name}": holder})
    swing = (1.5, 1.4, 1.6)
    rows = role_measures(mom, roles, swing=swing)
    chance = next(r for r in roles if r.chance).name
    for k in range(P):
        assert _role_rows(rows, "role_ev", chance, k)["value"] == pytest.approx(chance_ev[k], abs=1e-12)
    sigma = math.sqrt(np.mean((chance_ev - chance_ev.mean()) ** 2))
    share = _role_rows(rows, "role_luck_share", chance)
    assert share["value"] == pytest.approx(sigma / 1.5, rel=1e-12)
    spread = _role_rows(rows, "role_spread", chance)
    assert spread["value"] == pytest.approx(chance_ev.max() - chance_ev.min(), abs=1e-12)
    # the spread's interval: the seats' simultaneous intervals (1 - 0.05 / P each)
    m = Moments(mom) if not reference_rotates else None
    if m is not None:
        z = z_value(1 - 0.05 / P)
        se = np.sqrt(np.diag(m.cov)[:P] / N)
        assert (spread["ci_low"], spread["ci_high"]) == pytest.approx(spread_interval(chance_ev - z * se,
                                                                                       chance_ev + z * se))
    after = _role_rows(rows, "role_luck_after_rotation", chance)
    assert after["value"] == pytest.approx(math.sqrt(var) / 1.5, rel=1e-9)
    assert after["ci_low"] <= after["value"] <= after["ci_high"]
    assert share["ci_low"] <= share["value"] <= share["ci_high"]
    rotating = _role_rows(rows, "role_luck_after_rotation", "dealer")
    assert rotating["value"] == 0.0 and rotating["method"] == "exact"


def test_a_chance_role_without_a_rotation_keeps_its_luck_per_hand():
    """Big Two's leader: the offset is uniform and independent hand by hand (multinomial counts),
    so the luck left after P hands, in SDs of their total, is the luck of one hand."""
    rng = np.random.default_rng(3)
    rows = role_measures(_pot(rng, 20_000, 3, 0.0, p_win=[0.4, 0.3, 0.3]), [AtlasRole("leader", "cards")],
                         swing=(1.4, 1.3, 1.5))
    share, after = (_role_rows(rows, m, "leader") for m in ("role_luck_share", "role_luck_after_rotation"))
    assert (after["value"], after["ci_low"], after["ci_high"]) == (share["value"], share["ci_low"], share["ci_high"])
    ev = [_role_rows(rows, "role_ev", "leader", k)["value"] for k in range(3)]
    assert share["value"] == pytest.approx(float(np.std(ev)) / 1.4)
    assert share["ci_low"] > 0                      # seat 0 wins 40% of 20,000 hands: measurable


def test_a_fair_table_has_no_measurable_luck_of_the_seat():
    rows = role_measures(_pot(np.random.default_rng(4), 20_000, 4, 0.0), [AtlasRole("leader", "cards")],
                         swing=(1.7, 1.6, 1.8))
    for m in ("role_spread", "role_luck_share", "role_luck_after_rotation"):
        r = _role_rows(rows, m, "leader")
        assert r["ci_low"] == 0.0 < r["value"] < r["ci_high"]


def test_the_reference_role_is_the_seat_table():
    rows = table_measures(_pot(np.random.default_rng(3), 10_000, 3, 0.0, p_win=[0.4, 0.3, 0.3]),
                          roles=[AtlasRole("leader", "cards")])
    seat = [r for r in rows if "relative_to" not in r]
    for s in range(3):
        a, b = _rows(seat, "seat_ev", s), _role_rows(rows, "role_ev", "leader", s)
        assert (a["value"], a["ci_low"], a["ci_high"]) == (b["value"], b["ci_low"], b["ci_high"])
    for x, y in (("seat_spread", "role_spread"), ("seat_spread_swing_share", "role_spread_swing_share")):
        a, b = _rows(seat, x), _role_rows(rows, y, "leader")
        assert (a["value"], a["ci_low"], a["ci_high"]) == pytest.approx((b["value"], b["ci_low"], b["ci_high"]))


def test_a_sitter_is_in_no_role_measure():
    """Nantong's four-player table: seat 3 sits out (result 0), three offsets of the dealer play."""
    rng = np.random.default_rng(6)
    win = rng.integers(0, 3, 6_000)
    net = np.zeros((win.size, 4))
    net[np.arange(win.size), win] = 1.0
    one = np.ones(win.size)
    mom = hand_moments(net, gross=net, staked=one, length=one, drawn=0 * one, natural=0 * one)
    rows = table_measures(mom, sitting_out=(3,), roles=[DEALER])
    assert sorted(r["seat"] for r in rows if r["measure"] == "role_ev") == [0, 1, 2]
    evs = [_role_rows(rows, "role_ev", "dealer", k)["value"] for k in range(3)]
    sw = _rows([r for r in rows if "relative_to" not in r], "swing")["value"]
    assert _role_rows(rows, "role_luck_share", "dealer")["value"] == pytest.approx(float(np.std(evs)) / sw)
    with pytest.raises(KaptaiError, match="sit out"):
        role_measures(_table(net, role_first=np.zeros(win.size, dtype=int)), [DEALER, FIRST], swing=(1, 1, 1),
                      sitting_out=(3,))


def test_role_blocks_add_across_chunks_and_with_weights():
    rng = np.random.default_rng(8)
    net = rng.normal(size=(40, 3))
    h = rng.integers(0, 3, 40)
    a, b = _table(net[:25], role_first=h[:25]), _table(net[25:], role_first=h[25:])
    both = _table(net, role_first=h)
    for k in ("role_first_z1", "role_first_z2"):
        np.testing.assert_allclose(a[k] + b[k], both[k], rtol=1e-12, atol=1e-12)
    w = rng.integers(1, 4, 40)
    one = np.ones(40)
    kw = dict(gross=net, staked=one, length=one, drawn=0 * one, natural=0 * one)
    weighted = hand_moments(net, weight=w, role_first=h, **kw)
    rep = np.repeat(np.arange(40), w)
    repeated = hand_moments(net[rep], role_first=h[rep], **{k: v[rep] for k, v in kw.items()})
    np.testing.assert_allclose(weighted["role_first_z2"], repeated["role_first_z2"], rtol=1e-12, atol=1e-12)
    r = RoleMoments(both, "first")
    assert r.players == 3 and r.holder().tolist() == pytest.approx((np.bincount(h, minlength=3) / 40).tolist())
    assert r.given(1, 2)[0] == pytest.approx(net[h == 2, 1].mean())


def test_bad_roles_are_refused():
    with pytest.raises(KaptaiError, match="assigned"):
        AtlasRole("dealer", "coin")
    with pytest.raises(KaptaiError, match="role_"):
        _table(np.zeros((2, 2)), first=np.zeros(2, dtype=int))
    with pytest.raises(KaptaiError, match="role_first"):
        _table(np.zeros((2, 2)), role_first=np.array([0, 2]))
    with pytest.raises(KaptaiError, match="no role_first"):
        role_measures(_table(np.zeros((3, 2))), [DEALER, FIRST], swing=(1, 1, 1))
    with pytest.raises(KaptaiError, match="reference seat"):
        AtlasFeed("g", (), "dealer", "ante", "a", "a", 1, play=lambda j, c: {}, roles=(FIRST,))
    assert principal_role([DEALER, FIRST]) is FIRST and principal_role([DEALER]) is DEALER


# --------------------------------------------------------------------------------------
# Issue 32: hands until skill shows with ties kept as ties; house take per stake; paired differences
# --------------------------------------------------------------------------------------


def _ahead_trinomial(n, p_win, p_loss):
    """P(more wins than losses after n hands), each hand +1 / -1 / 0: by hand, as a binomial number of
    decided hands and a binomial split of them (not the atlas's lattice convolution)."""
    from scipy.stats import binom

    q = p_win + p_loss
    k = np.arange(n + 1)
    decided = binom.pmf(k, n, q)
    ahead = binom.sf(k // 2, k, p_win / q)         # P(wins > k/2) given k decided hands
    return float(decided @ ahead)


def _until_trinomial(p_win, p_loss, target=0.95):
    n = 1
    while _ahead_trinomial(n, p_win, p_loss) < target:
        n += 1
    return n


def _wilson(k, n, conf):
    z = z_value(conf)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def test_hands_until_on_a_table_of_mostly_ties_keeps_the_ties_out_of_ahead():
    """90% of hands tied, 8% won, 2% lost (two arrangements of 50,000 hands): the value and both
    ends of its interval by hand, from the Wilson intervals of P(win) and P(loss) at 1 - 0.05/4."""
    part = np.concatenate([np.ones(4_000), -np.ones(1_000), np.zeros(45_000)])
    rows = pair_measures([part, part[::-1].copy()], swing=(1.0, 0.9, 1.1), exchanged=(1.0, 1.0, 1.0))
    h = _rows(rows, "hands_until_skill_shows")
    assert h["value"] == _until_trinomial(0.08, 0.02) == 84
    w_lo, w_hi = _wilson(8_000, 100_000, 1 - 0.05 / 4)
    l_lo, l_hi = _wilson(2_000, 100_000, 1 - 0.05 / 4)
    assert h["ci_low"] == _until_trinomial(w_hi, l_lo) == 76
    assert h["ci_high"] == _until_trinomial(w_lo, l_hi) == 93
    # the old interval shifted every hand, ties too, by the value's half-width: a tie became "ahead"
    edge_hi = _rows(rows, "value_of_skill")["ci_high"] - 0.06
    n_old, _ = hands_until_ahead([-1 + edge_hi, edge_hi, 1 + edge_hi], [0.02, 0.90, 0.08])
    assert n_old == 1 and h["ci_low"] > 1


def test_hands_until_interval_scales_the_sizes_of_wins_and_losses():
    """Wins of 1 and 3, losses of 2, 90% ties: the ends scale each side to its mean size's interval."""
    from kaptai.core.atlas import hands_until_interval

    n = 20_000
    vals = np.array([-2.0, 0.0, 1.0, 3.0])
    probs = np.array([0.02, 0.90, 0.05, 0.03])
    got = hands_until_interval(vals, probs, n)
    z = z_value(1 - 0.05 / 4)
    k_w = 0.08 * n
    mu_w = (0.05 * 1 + 0.03 * 3) / 0.08
    var_w = (0.05 * (1 - mu_w) ** 2 + 0.03 * (3 - mu_w) ** 2) / 0.08 * k_w / (k_w - 1)
    half_w = z * math.sqrt(var_w / k_w)
    w_lo, w_hi = _wilson(k_w, n, 1 - 0.05 / 4)
    l_lo, l_hi = _wilson(0.02 * n, n, 1 - 0.05 / 4)      # every loss is 2: its size is known exactly
    up, down = (mu_w + half_w) / mu_w, (mu_w - half_w) / mu_w

    def dist(pw, pl, s):
        return ([-2.0, 0.0, 1.0 * s, 3.0 * s], [pl, 1 - pw - pl, pw * 0.05 / 0.08, pw * 0.03 / 0.08])

    assert got[0] == hands_until_ahead(vals, probs)[0]
    assert got[1] == hands_until_ahead(*dist(w_hi, l_lo, up))[0]
    assert got[2] == hands_until_ahead(*dist(w_lo, l_hi, down))[0]
    assert got[1] < got[0] < got[2]


def test_hands_until_interval_is_infinite_where_the_worst_case_never_gets_ahead():
    from kaptai.core.atlas import hands_until_interval

    value, lo, hi = hands_until_interval([-1.0, 0.0, 1.0], [0.30, 0.38, 0.32], 2_000)
    assert math.isfinite(value) and math.isfinite(lo) and hi == math.inf


def test_house_take_per_stake_is_the_cut_of_the_decided_pots():
    """Four antes a hand, 5% of the pot to the house when someone wins, refunded on 1 hand in 10."""
    n, P, cut = 10_000, 4, 0.05
    win = np.arange(n) % P
    drawn = (np.arange(n) % 10) == 9
    onehot = np.eye(P)[win]
    gross = np.where(drawn[:, None], 0.0, onehot * P - 1.0)
    net = np.where(drawn[:, None], 0.0, onehot * P * (1 - cut) - 1.0)
    one = np.ones(n)
    rows = table_measures(hand_moments(net, gross=gross, staked=P * one, length=one, drawn=drawn * 1.0,
                                       natural=0 * one))
    staked = _rows(rows, "house_edge_staked")
    assert staked["value"] == pytest.approx(cut * 0.9, abs=1e-12)
    assert _rows(rows, "house_edge")["value"] == pytest.approx(cut * P / (P - 1), abs=1e-12)


def test_role_luck_variance_share_is_the_square_of_the_luck_share():
    rng = np.random.default_rng(5)
    w = rng.choice(3, size=6_000, p=[0.5, 0.3, 0.2])
    net = np.eye(3)[w] * 3.0 - 1.0
    one = np.ones(w.size)
    rows = table_measures(hand_moments(net, gross=net, staked=3 * one, length=one, drawn=0 * one, natural=0 * one),
                          roles=[AtlasRole("dealer", "rotation")])
    a = [r for r in rows if r["measure"] == "role_luck_share"][0]
    b = [r for r in rows if r["measure"] == "role_luck_variance_share"][0]
    assert b["value"] == pytest.approx(a["value"] ** 2)
    assert b["ci_low"] == pytest.approx(max(a["ci_low"], 0.0) ** 2) and b["ci_high"] == pytest.approx(a["ci_high"] ** 2)


def test_paired_difference_of_a_linear_measure_is_the_mean_of_the_per_deal_differences():
    """Two variants on the same deals: the paired interval of mean_length is z * SD(L_A - L_B) / sqrt(n)
    by hand, narrower than the interval of two independent runs."""
    from kaptai.core.atlas import block_sizes, independent_difference, joint_row, paired_differences

    rng = np.random.default_rng(7)
    n = 4_000
    w = rng.integers(0, 2, n)
    base = rng.integers(5, 40, n).astype(float)
    la, lb = base, base + rng.integers(0, 3, n)
    one = np.ones(n)
    net = np.stack([2.0 * w - 1, 1 - 2.0 * w], axis=1)

    def rows(length):
        return {"net": net, "gross": net, "staked": one, "length": length, "drawn": 0 * one, "natural": 0 * one}

    z = np.concatenate([joint_row(rows(la)), joint_row(rows(lb))], axis=1)
    mom = {"n": np.array([n]), "z1": z.sum(axis=0), "z2": z.T @ z}
    got = {r["measure"]: r for r in paired_differences(mom, [block_sizes(2), block_sizes(2)])}
    d = la - lb
    half = 1.959963984540054 * d.std(ddof=1) / math.sqrt(n)
    r = got["mean_length"]
    assert r["diff"] == pytest.approx(d.mean()) and r["method"] == "paired_delta"
    assert r["ci_high"] - r["diff"] == pytest.approx(half, rel=1e-5)
    ea = _rows(table_measures(hand_moments(net, **{k: v for k, v in rows(la).items() if k != "net"})), "mean_length")
    eb = _rows(table_measures(hand_moments(net, **{k: v for k, v in rows(lb).items() if k != "net"})), "mean_length")
    ind = independent_difference((ea["value"], ea["ci_low"], ea["ci_high"]), (eb["value"], eb["ci_low"], eb["ci_high"]))
    assert ind[0] == pytest.approx(d.mean()) and ind[2] - ind[0] > 5 * half
    # the same game settled the same way twice: every measure differs by exactly 0
    z2 = np.concatenate([joint_row(rows(la)), joint_row(rows(la))], axis=1)
    same = paired_differences({"n": np.array([n]), "z1": z2.sum(axis=0), "z2": z2.T @ z2},
                              [block_sizes(2), block_sizes(2)])
    assert all(abs(r["diff"]) < 1e-12 and abs(r["ci_low"]) < 1e-9 and abs(r["ci_high"]) < 1e-9 for r in same)


def test_independent_difference_by_hand():
    from kaptai.core.atlas import independent_difference

    d = independent_difference((2.0, 1.0, 4.0), (1.0, 0.5, 1.2))
    assert d[0] == 1.0
    assert d[1] == pytest.approx(1.0 - math.hypot(1.0, 0.2)) and d[2] == pytest.approx(1.0 + math.hypot(2.0, 0.5))
    assert independent_difference((math.inf, 5.0, math.inf), (3.0, 2.0, 4.0))[0] == math.inf
