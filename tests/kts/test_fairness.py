"""Tests of kaptai.kts.fairness: EV from tallies, fairness tables, plots, sessions."""
import json

import numpy as np
import pandas as pd
import pytest

from kaptai.core.settlement import settle_hand
from kaptai.core.tables import to_json_records
from kaptai.errors import RulesError
from kaptai.kts import fairness as fz
from kaptai.kts.config import ACTIONS, new_outcomes
from kaptai.kts.fairness import VARIANT_SETS, compare_variants, cut_curve, fairness, fairness_frame, hand_ev, resolve_variants
from kaptai.kts.sessions import compare_sessions, session_summary, simulate_sessions
from kaptai.kts.plots import plot_bankroll_fan, plot_cut_curve, plot_fairness, plot_seat_ev
from kaptai.kts.rules import resolve_rules
from kaptai.kts.simulate import run_tallies

WIN_ACTIONS = {ACTIONS.index(a) for a in ("natural", "claim_win", "self_drawn_win")}
END_ACTIONS = WIN_ACTIONS | {ACTIONS.index(a) for a in ("drawn_hand", "turn_limit")}
DICE = ACTIONS.index("dice")


def _hands_from_log(log: np.ndarray, players: int):
    """(first hand, winner, score) of every hand, read off the hand log."""
    out = []
    first = None
    for hand, step, turn, seat, action, tile, value in log:
        if action == DICE:
            first = int(seat)
        elif action in END_ACTIONS:
            if action in WIN_ACTIONS:
                out.append((first, int(seat), int(value)))
            else:
                out.append((first, -1, 0))
    return out


@pytest.fixture(scope="module")
def logged():
    """Tallies and per-hand outcomes of the same small run (it has a few drawn hands)."""
    players, hands = 4, 1500
    stats, log, _ = run_tallies(players, "traditional", hands, 7, record=hands, progress=False)
    outcomes = _hands_from_log(log, players)
    assert len(outcomes) == hands
    return players, stats, outcomes


@pytest.mark.parametrize("rules", [
    "traditional",
    {"house_cut": 0.1},
    {"settlement": "advanced", "house_cut": 0.0},
    {"settlement": "advanced", "house_cut": 0.07},
    {"drawn_hand": "carry", "house_cut": 0.05},
])
@pytest.mark.parametrize("relative_to", ["dealer", "first_hand"])
def test_ev_from_tallies_equals_direct_average(logged, rules, relative_to):
    players, stats, outcomes = logged
    r = resolve_rules(rules) if isinstance(rules, str) else resolve_rules("traditional", **rules)
    assert stats["ends"][0] > 0, "the sample should contain drawn hands"
    nets, houses = [], []
    for first, winner, score in outcomes:
        w = winner if winner < 0 or relative_to == "dealer" else (winner - first) % players
        if r.drawn_hand == "carry" and w < 0:
            continue  # long-run rate: averaged over decided hands (refund settlement)
        s = settle_hand(r.settlement, players, w, score, cut=r.house_cut)
        assert abs(s.balance()) < 1e-12
        nets.append(s.nets)
        houses.append(s.house)
    nets, houses = np.array(nets), np.array(houses)
    res = hand_ev(stats, players, r, relative_to)
    np.testing.assert_allclose(res.ev.mean, nets.mean(axis=0), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(res.ev.var, nets.var(axis=0, ddof=1), rtol=1e-10, atol=1e-12)
    assert res.house.mean == pytest.approx(houses.mean(), rel=1e-12, abs=1e-14)
    half = 1.959963984540054 * np.sqrt(nets.var(axis=0, ddof=1) / len(nets))
    np.testing.assert_allclose(res.ev.ci_high - res.ev.mean, half, rtol=1e-9)
    d = nets[:, 0] - nets[:, 1:].mean(axis=1)
    assert res.advantage.mean == pytest.approx(d.mean(), abs=1e-12)
    if r.drawn_hand == "carry":
        n, dr = stats["hands"][0], stats["ends"][0]
        p = res.win
        expected = players * p * (1 - r.house_cut) / (1 - dr / n) - 1
        np.testing.assert_allclose(res.ev.mean, expected, atol=1e-12)


def test_pot_evs_sum_to_minus_house(logged):
    players, stats, _ = logged
    for cut in (0.0, 0.05, 0.3, 1.0):
        for drawn in ("refund", "carry"):
            df = fairness_frame(stats, players, resolve_rules("traditional", house_cut=cut, drawn_hand=drawn))
            house = df[df.metric == "house_take_per_hand"].value.iloc[0]
            for rel in ("dealer", "first_hand"):
                ev = df[(df.metric == "ev_per_hand") & (df.relative_to == rel)].value
                assert ev.sum() == pytest.approx(-house, abs=1e-12)
            if drawn == "carry":
                assert house == pytest.approx(cut * players)
    df = fairness_frame(stats, players, resolve_rules("advanced", house_cut=0.1))
    ev = df[(df.metric == "ev_per_hand") & (df.relative_to == "dealer")].value
    house = df[df.metric == "house_take_per_hand"].value.iloc[0]
    assert ev.sum() == pytest.approx(-house, abs=1e-9) and house > 0


@pytest.mark.parametrize("settlement", ["pot", "advanced"])
def test_break_even_cut_against_scan(logged, settlement):
    players, stats, _ = logged
    base = resolve_rules("traditional", settlement=settlement)

    def seat_evs(c):
        return hand_ev(stats, players, base.replace(house_cut=c)).ev.mean

    df = fairness_frame(stats, players, base)
    c_star = df[df.metric == "break_even_cut"].value.iloc[0]
    assert 0 < c_star < 1
    grid = np.linspace(0, 1, 1001)
    first_all_negative = next(c for c in grid if np.all(seat_evs(c) < 0))
    assert first_all_negative == pytest.approx(c_star, abs=1e-3 + 1e-12)
    assert np.max(seat_evs(c_star)) == pytest.approx(0.0, abs=1e-12)
    if settlement == "pot":
        d = stats["ends"][0] / stats["hands"][0]
        p = hand_ev(stats, players, base).win
        assert c_star == pytest.approx(1 - (1 - d) / (players * p.max()))


def test_compare_variants_same_seed_same_table():
    a = compare_variants(["traditional", "advanced"], hands=1500, seed=3, progress=False)
    b = compare_variants(["traditional", "advanced"], hands=1500, seed=3, progress=False)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs == b.attrs
    c = compare_variants(["traditional", "advanced"], hands=1500, seed=4, progress=False)
    assert not a.value.equals(c.value)


def test_table_shape_and_json():
    df = fairness(4, 1000, 1, variants="traditional,advanced", progress=False)
    assert list(df.columns) == list(fz.FRAME_COLUMNS)
    assert set(df.metric) <= set(fz.FAIRNESS_METRICS)
    rows = json.loads(to_json_records(df))
    assert {"variant", "seat", "relative_to", "metric", "value", "ci_low", "ci_high"} <= set(rows[0])
    house = [r for r in rows if r["metric"] == "house_take_per_hand"]
    assert len(house) == 2 and all(r["seat"] is None and r["relative_to"] is None for r in house)
    ev = [r for r in rows if r["metric"] == "ev_per_hand"]
    assert {r["relative_to"] for r in ev} == {"dealer", "first_hand"}
    assert len(ev) == 2 * 2 * 4
    json.dumps(df.attrs)


def test_settlement_variants_share_one_simulation(monkeypatch):
    calls = []
    real = fz.run_tallies

    def counting(*a, **k):
        calls.append(a[:2])
        return real(*a, **k)

    monkeypatch.setattr(fz, "run_tallies", counting)
    df = compare_variants("house_cut", hands=800, seed=5, progress=False)
    assert len(calls) == 1 and df.attrs["simulations"] == 1
    h = df[df.metric == "house_take_per_hand"].value.to_numpy()
    cuts = np.arange(11) / 100
    np.testing.assert_allclose(h, cuts * h[-1] / 0.10, atol=1e-12)  # linear in the cut
    calls.clear()
    compare_variants("drawn_hand", hands=800, seed=5, progress=False)
    assert len(calls) == 1


def test_variant_sets_resolve():
    for name, variants in VARIANT_SETS.items():
        resolved = resolve_variants(name)
        assert [v.name for v in resolved] == list(variants)
    fs = {v.name: v.rules for v in resolve_variants("forms_settlement")}
    assert fs["all forms, pot"].settlement == "pot" and len(fs["all forms, pot"].forms) == 5
    assert fs["basic form, advanced"].forms == {"basic"}
    assert [v.players for v in resolve_variants("players")] == list(range(3, 11))
    mixed = resolve_variants([resolve_rules("advanced", name="adv-pot", settlement="pot"),
                              ("carry", {"drawn_hand": "carry"}), {"name": "x", "claim": "any"}],
                             cut=0.02)
    assert [v.name for v in mixed] == ["adv-pot", "carry", "x"]
    assert all(v.rules.house_cut == 0.02 for v in mixed)


@pytest.mark.parametrize("bad, match", [
    (dict(variants="classic"), "unknown variant 'classic'"),
    (dict(variants=["traditional", "traditional"]), "duplicate variant"),
    (dict(variants={"x": {"colour": "red"}}), "unknown rule option"),
    (dict(variants={"x": {"players": 1}}), "players=1"),
    (dict(variants=[]), "empty"),
    (dict(cut=1.5), "expected a number from 0 to 1"),
    (dict(cut=-0.01), "expected a number from 0 to 1"),
    (dict(hands=0), "hands=0"),
    (dict(seed=-1), "seed"),
])
def test_bad_input_raises_before_running(monkeypatch, bad, match):
    def boom(*a, **k):
        raise AssertionError("simulated despite bad input")

    monkeypatch.setattr(fz, "run_tallies", boom)
    kwargs = dict(variants=["traditional", "advanced"], hands=100, seed=0, progress=False)
    kwargs.update(bad)
    with pytest.raises(RulesError, match=match):
        compare_variants(**kwargs)


def test_bad_session_input():
    with pytest.raises(RulesError, match="bankroll=-1"):
        simulate_sessions(4, "traditional", 10, 10, bankroll=-1, progress=False)
    with pytest.raises(RulesError, match="sessions=0"):
        simulate_sessions(4, "traditional", 0, 10, progress=False)
    with pytest.raises(RulesError, match="expected a number from 0 to 1"):
        cut_curve(4, "traditional", 10, 0, cuts=[0.1, 2.0], progress=False)


def test_plots(tmp_path):
    from matplotlib.figure import Figure

    df = compare_variants(["traditional", "advanced"], hands=500, seed=1, progress=False)
    fig = plot_seat_ev(df, path=tmp_path / "ev.png")
    assert isinstance(fig, Figure) and (tmp_path / "ev.png").stat().st_size > 0
    assert isinstance(plot_fairness(df, path=tmp_path / "f.png"), Figure)
    curve = cut_curve(4, "traditional", 500, 1, cuts=[0, 0.05, 0.1], progress=False)
    assert isinstance(plot_cut_curve(curve), Figure)
    assert isinstance(plot_fairness(curve), Figure)
    r = simulate_sessions(4, "traditional", 20, 15, tally_hands=300, progress=False)
    assert isinstance(plot_bankroll_fan(r, path=tmp_path / "fan.png"), Figure)


# ------------------------------------------------------------------ sessions


def _fake_stats(players, dealer_score=None, drawn=0, hands=1000):
    st = new_outcomes(players)
    st["hands"][0] = hands
    st["ends"][0] = drawn
    if dealer_score is not None:
        st["score_dealer"][0, dealer_score] = hands - drawn
        st["wins_dealer"][2, 0] = hands - drawn
    return st


def test_session_dealer_streak_bonus():
    P, H = 4, 6
    st = _fake_stats(P, dealer_score=2)  # the dealer always wins with 2 points
    r = simulate_sessions(P, "advanced", 3, H, bankroll=100, stats=st, progress=False)
    assert np.all(r.dealer == 0)  # keeps the deal
    scores = 2 + 2 * np.arange(H)  # +2k with streak k
    np.testing.assert_allclose(r.bankrolls[:, -1, 0], 100 + 3 * scores.sum())
    np.testing.assert_allclose(r.bankrolls[:, -1, 1], 100 - scores.sum())
    rot = simulate_sessions(P, resolve_rules("advanced", dealer_keeps_on_win=False), 2, 8,
                            bankroll=100, stats=st, progress=False)
    assert rot.dealer[0].tolist() == [0, 1, 2, 3, 0, 1, 2, 3]
    np.testing.assert_allclose(rot.bankrolls[:, -1], 100.0)  # each wins twice, pays 6 times 2


def test_session_carry_and_refund():
    P = 4
    st = _fake_stats(P, drawn=1000)  # every hand drawn
    carry = simulate_sessions(P, resolve_rules("traditional", drawn_hand="carry"), 2, 5,
                              bankroll=10, stats=st, progress=False)
    np.testing.assert_allclose(carry.pot[:, -1], 5 * P)
    np.testing.assert_allclose(carry.bankrolls[:, -1], 5.0)
    assert carry.dealer[0].tolist() == [0, 1, 2, 3, 0]
    refund = simulate_sessions(P, "traditional", 2, 5, bankroll=10, stats=st, progress=False)
    np.testing.assert_allclose(refund.bankrolls, 10.0)


@pytest.mark.parametrize("rules", ["traditional", "advanced", {"drawn_hand": "carry", "claim": "any"}])
def test_sessions_conserve_money(rules):
    r = simulate_sessions(4, rules if isinstance(rules, str) else resolve_rules("traditional", **rules),
                          200, 60, bankroll=15, tally_hands=1000, seed=2, progress=False)
    total = r.bankrolls.sum(axis=2) + r.house + r.pot
    np.testing.assert_allclose(total, 4 * 15.0, atol=1e-9)
    s = session_summary(r)
    ruin = s[s.metric == "risk_of_ruin"].value
    assert ruin.between(0, 1).all()
    again = session_summary(simulate_sessions(
        4, rules if isinstance(rules, str) else resolve_rules("traditional", **rules),
        200, 60, bankroll=15, tally_hands=1000, seed=2, progress=False))
    pd.testing.assert_frame_equal(s, again)


def test_compare_sessions():
    df = compare_sessions("presets", sessions=50, hands=20, bankroll=10, tally_hands=500,
                          progress=False)
    assert set(df.variant) == {"traditional", "advanced"}
    house = df[(df.metric == "house_take_session") & (df.variant == "traditional")].value.iloc[0]
    assert house == pytest.approx(0.2 * 20, rel=0.05)


def test_plot_win_modes_stacks_to_one(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from kaptai.kts.fairness import compare_variants
    from kaptai.kts.plots import plot_win_modes

    df = compare_variants(["traditional", "advanced"], players=4, hands=1500, seed=3, progress=False)
    fig = plot_win_modes(df, path=tmp_path / "modes.png")
    heights = {}
    for bar in fig.axes[0].patches:
        heights.setdefault(bar.get_x(), 0.0)
        heights[bar.get_x()] += bar.get_height()
    assert len(heights) == 2 and all(abs(h - 1) < 1e-9 for h in heights.values())
    assert fig.axes[0].get_ylabel() == "share of wins"
    assert (tmp_path / "modes.png").stat().st_size > 1000
