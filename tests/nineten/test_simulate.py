"""Monte Carlo layers of nine-ten: simulate, fairness, commands."""
import math

import numpy as np
import pytest

from kaptai.nineten.simulate import simulate
from kaptai.nineten.fairness import compare_variants, resolve_variants
from kaptai.nineten.odds import deal_odds


def test_simulate_shape_and_sums():
    df = simulate(4, hands=5000, seed=2, progress=False, house_cut=0.05)
    out = df[df.metric == "outcome"]
    assert abs(out.value.sum() - 1) < 1e-12
    net = df[(df.metric == "net_mean") & (df.relative_to == "dealer")]
    assert abs(net.value.sum()) < 1e-9
    cut = df[(df.metric == "net_mean_after_cut") & (df.relative_to == "dealer")]
    assert cut.value.sum() < 0
    assert (df.ci_low.fillna(-np.inf) <= df.value + 1e-12).all() and (df.value <= df.ci_high.fillna(np.inf) + 1e-12).all()
    col = df[df.metric == "colours"]
    assert abs(col.value.sum() - 1) < 1e-12
    assert set(df.method) == {"monte_carlo"}


def test_simulate_independent_of_workers():
    a = simulate(4, hands=10000, seed=5, progress=False)
    b = simulate(4, hands=10000, seed=5, progress=False, workers=2)
    assert np.array_equal(a.value.to_numpy(), b.value.to_numpy(), equal_nan=True)


def test_checkpoint_resume(tmp_path):
    a = simulate(4, hands=9000, seed=4, progress=False, checkpoint=tmp_path / "ck")
    b = simulate(4, hands=9000, seed=4, progress=False, checkpoint=tmp_path / "ck")
    assert np.array_equal(a.value.to_numpy(), b.value.to_numpy(), equal_nan=True)


def test_engine_pairs_vs_exact_ready():
    # P(a non-dealer is ready at the deal): the engine's deals against the exact figure
    from kaptai.nineten.config import make_config
    from kaptai.nineten.engine import run_hands
    out, _ = run_hands(make_config(5), 100_000, np.random.PCG64(8), "random")
    mask = np.ones(out["pairs_dealt"].shape, dtype=bool)
    mask[np.arange(len(mask)), out["dealer"]] = False
    ready = float((out["pairs_dealt"][mask] == 4).mean())
    exact = deal_odds(5, monte_carlo_deals=0).query("metric == 'ready'").value.item()
    se = math.sqrt(exact * (1 - exact) / mask.sum())
    assert abs(ready - exact) < 5 * se


def test_policy_rows_and_fairness():
    df = compare_variants("policies", players=4, hands=3000, seed=1, progress=False)
    assert len(set(df.variant)) == 7
    assert {"net_mean", "mean_transfer", "dealer_advantage", "win"} <= set(df.metric)
    with pytest.raises(Exception, match="unknown variant set"):
        resolve_variants("nope")


def _ns(**kw):
    from kaptai.cli import default_args

    return default_args("nine-ten", **{"hands": 2000, "seed": 1, **kw})


def test_commands():
    from kaptai.nineten.commands import SPEC, odds, score, simulate as sim, fairness
    assert SPEC.name == "nine-ten" and "four-colour" in SPEC.aliases
    out = score(_ns(record="RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA", format="json"), SPEC)
    obj = dict(out.record)
    assert obj["total"] == 8 and obj["kaizhao_wait"] == 5 and obj["colours"] == 3 and obj["colour_count"] == 2
    assert obj["net"] == [80.0, -80.0, 0.0, 0.0]
    out = score(_ns(record="RAx2 RRx2 YKx2 YAx2 WEx2 | win=self | bonus=GC GP WE RK RA"), SPEC)
    assert out.table.set_index("component").tou["total"] == 6
    o = odds(_ns(players=4), SPEC)
    assert {"pairs_distribution", "colours_distribution", "ready", "natural"} <= set(o.table.metric)
    s = sim(_ns(players=4, policy="colour_cut"), SPEC)
    assert len(s.table)
    f = fairness(_ns(players=4, variants="payer", hands=1000), SPEC)
    assert len(set(f.table.variant)) == 3


def test_report_sections_small():
    from kaptai.report.nineten import build_sections
    from kaptai.report.render import to_markdown
    title, sections, meta, results = build_sections((4,), hands=1500, seed=1, progress=False)
    text = to_markdown(title, sections, meta)
    assert "Nine-ten" in title and "Opening hands (exact)" in text
    assert {"odds", "simulate", "policies", "options"} <= set(results)


def test_plots(tmp_path):
    from kaptai.nineten.plots import plot_fairness, plot_wins
    df = compare_variants("payer", players=4, hands=1000, seed=1, progress=False)
    plot_fairness(df, path=tmp_path / "f.png")
    plot_wins(simulate(4, hands=1000, seed=1, progress=False), path=tmp_path / "w.png")
    assert (tmp_path / "f.png").stat().st_size > 1000 and (tmp_path / "w.png").stat().st_size > 1000
    from kaptai.nineten.commands import SPEC, fairness
    out = fairness(_ns(players=4, variants="payer", hands=800, plot=str(tmp_path / "c.png")), SPEC)
    assert (tmp_path / "c.png").exists() and len(out.table)


def test_fairness_variants_run_through_the_shared_runner(tmp_path, monkeypatch):
    """compare_variants is one run of kaptai.core.runner: the same table for any workers, a
    checkpoint that resumes, and each variant exactly what simulate gives it alone."""
    import importlib

    import pandas as pd

    S = importlib.import_module("kaptai.nineten.simulate")
    monkeypatch.setattr(S, "CHUNK_HANDS", 700)  # several chunks per variant, quickly
    kw = dict(players=4, hands=1500, seed=6, progress=False)
    base = compare_variants("payer", **kw)
    ck = tmp_path / "ck"
    resumed = compare_variants("payer", **kw, checkpoint=ck)
    assert len(list(ck.glob("chunk-*.npz"))) == 9  # 3 variants x 3 chunks, one directory
    (ck / "chunk-000004.npz").unlink()
    for other in (compare_variants("payer", **kw, workers=2), compare_variants("payer", **kw, checkpoint=ck),
                  resumed):
        pd.testing.assert_frame_equal(base, other)
    for v in resolve_variants("payer", 4):
        alone = simulate(v.players, v.rules, 1500, 6, policies=v.policies, progress=False)
        want = alone[alone.metric == "net_mean"].value.tolist()
        got = base[(base.variant == v.name) & (base.metric == "net_mean")].value.tolist()
        assert got == want
    assert base.attrs["seed_entropy"] == 6


def test_fairness_progress_counts_the_hands_of_every_variant(capsys):
    compare_variants("payer", players=4, hands=1000, seed=1, progress=True)
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("nine-ten fairness: 3,000/3,000 hands (100%)") and err[-1].endswith("done")
