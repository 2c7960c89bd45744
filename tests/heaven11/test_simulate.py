import numpy as np
import pytest

from kaptai.errors import RulesError
from kaptai.heaven11.config import make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.fairness import asymmetry, compare_variants, leading_first
from kaptai.heaven11.scoring import score
from kaptai.heaven11.simulate import CHUNK_HANDS, simulate, tally_outcomes


def test_simulate_workers_and_seed_invariance(tmp_path):
    a = simulate(hands=CHUNK_HANDS + 300, seed=5, progress=False)
    b = simulate(hands=CHUNK_HANDS + 300, seed=5, progress=False, workers=2)
    assert (a.value.fillna(-99).values == b.value.fillna(-99).values).all()
    c = simulate(hands=CHUNK_HANDS + 300, seed=5, progress=False, checkpoint=tmp_path / "ck")
    d = simulate(hands=CHUNK_HANDS + 300, seed=5, progress=False, checkpoint=tmp_path / "ck")
    assert (c.value.fillna(-99).values == d.value.fillna(-99).values).all()
    assert (a.value.fillna(-99).values == c.value.fillna(-99).values).all()


def test_simulate_tables_consistent():
    df = simulate(hands=3000, seed=2, progress=False)
    assert df[df.metric == "zero_sum_violations"].value.iloc[0] == 0
    tr = df[(df.metric == "declarer_tricks") & (df.relative_to == "declarer")]
    assert abs(tr.value.sum() - 1) < 1e-9
    st = df[(df.metric == "status") & (df.relative_to == "declarer")]
    assert abs(st.value.sum() - 1) < 1e-9
    fm = df[df.metric == "final_mean"].value.sum()
    assert abs(fm) < 1e-9  # zero-sum: the four mean finals add to 0
    lo, hi = df[df.metric == "balance"][["ci_low", "ci_high"]].values.T
    assert (lo <= hi).all()
    assert set(df.method) == {"monte_carlo"}


def test_counterfactual_bid_ev_matches_scoring():
    cfg = make_config()
    out, _ = run_hands(cfg, "greedy", np.random.PCG64(9), 200)
    t = tally_outcomes(out, cfg)
    for b in (0, 3, 7):
        total = 0
        for h in range(200):
            d = int(out["declarer"][h])
            order = [(d + i * cfg.play_step) % 4 for i in range(4)]
            total += score(b, [int(out["tricks"][h, s]) for s in order]).finals[0]
        assert t["cf"][0, b, 0] == total


def test_bad_arguments():
    with pytest.raises(RulesError):
        simulate(hands=0, progress=False)
    with pytest.raises(RulesError):
        simulate(5, hands=10, progress=False)
    with pytest.raises(RulesError):
        simulate(hands=10, policies="best", progress=False)


def test_fairness_layers_small():
    df = compare_variants({"std": {}, "free": {"short_follow": "free"}}, hands=600, seed=1, progress=False)
    assert set(df.variant) == {"std", "free"}
    lf = leading_first(hands=600, seed=1, progress=False)
    assert lf.attrs["paired_deals_identical"] == 600
    g = lf.set_index("metric").value
    assert abs(g["tricks_gain"] - (g["tricks_declarer_leads"] - g["tricks_next_leads"])) < 1e-9
    a = asymmetry(hands=600, seed=1, progress=False)
    ev = a[(a.metric == "ev_offset")]
    assert len(ev) == 12
    # the symmetric rule only lowers a short declarer's score
    w = ev[ev.rules == "as_written"].set_index("level").value
    s = ev[ev.rules == "symmetric"].set_index("level").value
    assert (s <= w + 1e-12).all()


def test_engine_deals_match_exact_odds():
    from kaptai.heaven11.odds import deal_odds, holding_flags

    cfg = make_config(contract="0C")
    out, _ = run_hands(cfg, "greedy", np.random.PCG64(123), 20_000)
    suits = np.stack([(out["hands"] >> (13 * s)) & 0x1FFF for s in range(4)], axis=-1)   # (n, 4 seats, 4 suits)
    f = holding_flags()
    p = deal_odds().set_index("metric").value
    for name in ("any_special", "heaven_eleven_2", "heaven_eleven_3"):
        hit = f[name][suits].any(axis=-1).mean()      # over every seat's hand
        n = suits.shape[0] * 4
        sd = np.sqrt(p[name] * (1 - p[name]) / n) * 2   # seats of one deal are dependent: a wide margin
        assert abs(hit - p[name]) < 4.5 * sd, name


def test_checkpointed_asymmetry(tmp_path):
    a = asymmetry(hands=500, seed=3, progress=False, checkpoint=tmp_path / "a")
    b = asymmetry(hands=500, seed=3, progress=False, checkpoint=tmp_path / "a")
    assert (a.value.fillna(0).values == b.value.fillna(0).values).all()


def test_session_tallies_synthetic():
    from kaptai.heaven11.sessions import session_tallies

    cfg = make_config()   # rounds = 4, bid_step = -1
    finals = np.array([[12, -4, -4, -4], [0, 0, 0, 0], [-3, 1, 1, 1], [1, 0, 0, -1], [2, -1, -1, 0],
                       [5, -5, 0, 0]], dtype=np.int16)
    out = {"finals": finals, "draw": np.array([0, 1, 0, 0, 0, 0], dtype=np.int8),
           "dealer": np.array([2, 1, 1, 0, 3, 2], dtype=np.int8)}
    t = session_tallies(out, cfg)
    assert t["sessions"][0] == 1          # hands 0-4 (one draw replayed), hand 5 is an incomplete session
    totals = finals[:5].sum(axis=0)       # by seat: [12, -4, -4, -4]
    order = [(2 - k) % 4 for k in range(4)]
    assert t["total"][:, 0].tolist() == totals[order].tolist()
    assert t["first"].tolist() == [int(x == totals.max()) for x in totals[order]]
    assert t["margin"][0] == 16


@pytest.mark.slow
def test_shipped_bid_table_is_reproducible():
    from kaptai.heaven11.config import default_bid_table
    from kaptai.heaven11.learn import learn_bid_table

    assert (learn_bid_table() == default_bid_table()).all()


def test_fairness_variants_run_through_the_shared_runner(tmp_path, monkeypatch):
    """compare_variants is one run of kaptai.core.runner: the same table for any workers, a
    checkpoint that resumes, and each variant what simulate gives it alone."""
    import pandas as pd

    import importlib

    from kaptai.heaven11.fairness import KEY_METRICS

    S = importlib.import_module("kaptai.heaven11.simulate")

    monkeypatch.setattr(S, "CHUNK_HANDS", 300)
    variants = {"std": {}, "free": {"short_follow": "free"}}
    kw = dict(hands=700, seed=4, progress=False)
    base = compare_variants(variants, **kw)
    ck = tmp_path / "ck"
    compare_variants(variants, **kw, checkpoint=ck)
    assert len(list(ck.glob("chunk-*.npz"))) == 6
    (ck / "chunk-000003.npz").unlink()
    for other in (compare_variants(variants, **kw, workers=2), compare_variants(variants, **kw, checkpoint=ck)):
        pd.testing.assert_frame_equal(base, other)
    for label, opts in variants.items():
        alone = simulate(rules=opts, hands=700, seed=4, progress=False)
        alone = alone[alone.metric.isin(KEY_METRICS)]
        got = base[base.variant == label]
        assert set(got.metric) <= set(alone.metric)
        for metric in ("final_mean", "plays_mean", "declarer_tricks_mean"):
            a = alone[(alone.metric == metric) & (alone.relative_to.isna() | (alone.relative_to == "declarer"))]
            b = got[(got.metric == metric) & (got.relative_to.isna() | (got.relative_to == "declarer"))]
            assert a.value.tolist() == b.value.tolist() and len(a)
