"""Monte Carlo front ends: simulate (through the shared runner) and the 8-round match fairness."""
import numpy as np
import pytest

from kaptai.core.tables import FAIRNESS_COLUMNS, MONTE_CARLO_COLUMNS
from kaptai.errors import RulesError
from kaptai.nantong.config import make_config, seat_players
from kaptai.nantong.engine import run_matches
from kaptai.nantong.fairness import compare_variants, fairness, hand_nets
from kaptai.nantong.simulate import simulate


def test_simulate_table_and_reproducibility():
    a = simulate(3, hands=3000, seed=4, progress=False)
    b = simulate(3, hands=3000, seed=4, progress=False, workers=2)
    assert list(a.columns) == list(MONTE_CARLO_COLUMNS)
    assert a.value.tolist() == b.value.tolist()
    seat = a[(a.metric == "hand_win") & (a.relative_to == "seat")]
    assert seat.value.sum() >= 1 - 1e-12  # at least one hand winner per hand
    wt = a[a.metric.isin(["huang_rate", "win_type"])]
    assert abs(wt.value.sum() - 1) < 1e-12
    assert ((a.ci_low <= a.value + 1e-12) & (a.value <= a.ci_high + 1e-12)).all()
    assert a.attrs["seed_entropy"] == 4 and a.attrs["engine"] == "compiled"


def test_simulate_four_players_and_policies():
    df = simulate(4, hands=500, seed=1, progress=False, policies=["chase_qing", "random", "chase_hun"])
    sitter = df[(df.metric == "hand_win") & (df.relative_to == "role") & (df.level == "sitter")]
    assert sitter.value.iloc[0] == 0
    with pytest.raises(RulesError):
        simulate(3, hands=10, policies="greedy", progress=False)


def test_dealer_advantage_is_measured():
    # the dealer holds 23 cards and discards first: a higher completion rate than the others
    df = simulate(3, hands=20_000, seed=2, progress=False)
    c = df[(df.metric == "complete") & (df.relative_to == "role")].set_index("level")
    assert c.loc["dealer", "ci_low"] > c.loc["other", "ci_high"]
    # the engine's deals agree with the exact 起手 odds (within the 95% interval, loosened)
    from kaptai.nantong.odds import opening_tables

    q = df[df.metric == "qishou_at_deal"].set_index("level")
    for role, size in (("dealer", 23), ("other", 22)):
        p = float(opening_tables(size)["qishou"])
        lo, hi = q.loc[role, "ci_low"], q.loc[role, "ci_high"]
        width = hi - lo
        assert lo - width < p < hi + width


def test_seat_players_rotation():
    m3 = seat_players(make_config(3))
    assert m3.shape == (24, 4) and (m3[:, 3] == -1).all()
    assert sorted(np.bincount(m3[:, 0]).tolist()) == [8, 8, 8]  # each deals 8 of 24
    m4 = seat_players(make_config(4))
    assert m4.shape == (32, 4)
    assert np.bincount(m4[:, 0]).tolist() == [8] * 4 and np.bincount(m4[:, 3]).tolist() == [8] * 4
    # the sitter is the dealer's 上家 = the previous dealer
    for h in range(1, 32):
        assert m4[h, 3] == m4[h - 1, 0]
    m4o = seat_players(make_config(4, {"first_sitter": "opposite"}))
    assert m4o[0, 3] == 2 and (m4o[1:] == m4[1:]).all()
    m4a = seat_players(make_config(4, {"four_active": True}))
    assert (m4a[:, 4] == -1).all()


def test_hand_nets_zero_sum():
    rng = np.random.default_rng(1)
    t = rng.integers(0, 30, (50, 3)) * 10
    w = (t == t.max(axis=1, keepdims=True)).astype(int)
    for st in ("pairwise_difference", "winner_collects"):
        assert np.allclose(hand_nets({"total": t, "winner": w}, st).sum(axis=1), 0)
    assert np.allclose(hand_nets({"total": t, "winner": w}, "rank_only").sum(axis=1), 1)


def test_fairness_table():
    df = fairness(3, matches=60, seed=3, progress=False)
    assert list(df.columns) == list(FAIRNESS_COLUMNS)
    for st in ("pairwise_difference", "winner_collects"):
        m = df[(df.metric == "match_mean") & (df.settlement == st)]
        assert abs(m.value.sum()) < 1e-6
    r = df[(df.metric == "match_mean") & (df.settlement == "rank_only")]
    assert abs(r.value.sum() - 24) < 1e-9  # one point per hand
    top = df[(df.metric == "match_top") & (df.settlement == "rank_only")]
    assert abs(top.value.sum() - 1) < 1e-9
    d4 = fairness(4, {"dreamer_shares": "with_dealer"}, matches=20, seed=3, progress=False)
    assert set(d4.seat.dropna()) == {0, 1, 2, 3}
    cv = compare_variants("tie", matches=10, progress=False)
    assert sorted(set(cv.variant)) == ["completer_first", "seat_order", "share"]
    with pytest.raises(RulesError):
        compare_variants("nope")


def test_run_matches_both_engines():
    for players in (3, 4):
        cfg = make_config(players)
        a = run_matches(cfg, 1, seed=8, policies="random")
        b = run_matches(cfg, 1, seed=8, policies="random", compiled=False)
        assert all(np.array_equal(a["outcomes"][k], b["outcomes"][k]) for k in a["outcomes"])
        assert (a["first_dealer"] == b["first_dealer"]).all() and (a["player"] == b["player"]).all()
        dealers = a["player"][0, :, 0]
        assert np.bincount(dealers, minlength=players).tolist() == [8] * players
        assert dealers[0] == a["first_dealer"][0]
        if players == 4:
            assert np.bincount(a["sitter"][0], minlength=4).tolist() == [8] * 4


def test_fairness_variants_run_through_the_shared_runner(tmp_path, monkeypatch):
    """compare_variants is one run of kaptai.core.runner: --scheduler, --checkpoint and
    --workers work there, the same table for any of them, each variant what fairness gives it."""
    import pandas as pd

    import importlib

    from kaptai.nantong.rules import resolve_rules

    # the module, not the package's lazily re-exported fairness() of the same name
    F = importlib.import_module("kaptai.nantong.fairness")

    monkeypatch.setattr(F, "CHUNK_MATCHES", 4)
    kw = dict(players=3, matches=10, seed=2, progress=False)
    base = compare_variants("qishou", **kw)
    ck = tmp_path / "ck"
    compare_variants("qishou", **kw, checkpoint=ck)
    assert len(list(ck.glob("chunk-*.npz"))) == 6
    (ck / "chunk-000001.npz").unlink()
    for other in (compare_variants("qishou", **kw, workers=2), compare_variants("qishou", **kw, checkpoint=ck)):
        pd.testing.assert_frame_equal(base, other)
    for name, opts in F.VARIANT_SETS["qishou"].items():
        alone = fairness(3, resolve_rules(None, **opts), 10, 2, progress=False, variant=name)
        got = base[base.variant == name].reset_index(drop=True)
        pd.testing.assert_frame_equal(got, alone.reset_index(drop=True), check_like=False)
