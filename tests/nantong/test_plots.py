"""Figures of kaptai.nantong.plots: each returns a Figure, saves a PNG when given a path, and
draws the table's numbers."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from kaptai.nantong import plots  # noqa: E402


def _png(path):
    data = path.read_bytes()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


@pytest.fixture(scope="module")
def odds():
    from kaptai.nantong.odds import deal_odds

    return deal_odds(3, metrics=("distance", "opening_hu"))


@pytest.fixture(scope="module")
def sim():
    import pandas as pd

    from kaptai.report.nantong import simulate_with_noncompleters

    return pd.concat([simulate_with_noncompleters(p, 200, 3, progress=False) for p in (3, 4)], ignore_index=True)


@pytest.fixture(scope="module")
def fair():
    import pandas as pd

    from kaptai.nantong.fairness import fairness

    return pd.concat([fairness(p, matches=20, seed=3, progress=False) for p in (3, 4)], ignore_index=True)


def _bar_heights(ax):
    return sorted(round(float(p.get_height()), 12) for p in ax.patches)


def test_distance(odds, tmp_path):
    fig = plots.plot_distance(odds, path=tmp_path / "d.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "d.png")
    ax = fig.axes[0]
    want = sorted(round(float(v), 12) for v in odds[odds.metric == "distance"].value)
    assert _bar_heights(ax) == want
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[0].startswith("-1") and "天成" in labels[0] and "壓莊" in labels[1]
    assert ax.get_yscale() == "log"


def test_opening_hu(odds, tmp_path):
    from kaptai.nantong.odds import deal_odds

    full = deal_odds(3, metrics=("opening_hu", "opening_hu_mean"))
    fig = plots.plot_opening_hu(full, path=tmp_path / "o.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "o.png") and len(fig.axes) == 2
    d = full[(full.metric == "opening_hu")]
    near = d[d.level.astype(int) <= 40]
    assert _bar_heights(fig.axes[0]) == sorted(round(float(v), 12) for v in near.value)
    lines = fig.axes[1].get_lines()
    assert sum(len(ln.get_xdata()) for ln in lines) == len(d)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    mean = full[(full.metric == "opening_hu_mean") & (full.hand == "dealer")].value.iloc[0]
    assert f"mean {mean:.2f}" in legend[0] and "莊家" in legend[0]


def test_roles(sim, tmp_path):
    fig = plots.plot_roles(sim, path=tmp_path / "r.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "r.png") and len(fig.axes) == 3
    r = sim[(sim.relative_to == "role") & (sim.metric == "hand_win_share")]   # ties split, as the atlas
    assert len(r) == 5 and _bar_heights(fig.axes[0]) == sorted(round(100 * float(v), 12) for v in r.value)
    assert "ties split" in fig.axes[0].get_title()
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert any("莊家" in t for t in ticks) and any("夢家" in t for t in ticks)
    assert not any("夢家" in t.get_text() for t in fig.axes[1].get_xticklabels())  # the sitter never completes
    # 3 players have no sitter: with 3 players only, no sitter group at all
    fig3 = plots.plot_roles(sim[sim.players == 3])
    assert not any("夢家" in t.get_text() for t in fig3.axes[0].get_xticklabels())


def test_score_by_win_type(sim, tmp_path):
    fig = plots.plot_score_by_win_type(sim, path=tmp_path / "s.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "s.png")
    ax = fig.axes[0]
    widths = sorted(round(float(p.get_width()), 9) for p in ax.patches)
    s = sim[sim.metric == "score_by_win_type"]
    nc = sim[(sim.metric == plots.NONCOMPLETER_METRIC) & sim.level.isna()]
    assert widths == sorted(round(float(v), 9) for v in list(s.value) + list(nc.value))
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert "did not complete" in labels[-1]
    assert any("塌和" in t for t in labels)


def test_match_fairness(fair, tmp_path):
    fig = plots.plot_match_fairness(fair, path=tmp_path / "f.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "f.png") and len(fig.axes) == 6
    ax = fig.axes[0]  # rank_only, match_mean
    q = fair[(fair.settlement == "rank_only") & (fair.metric == "match_mean")]
    ys = sorted(float(y) for c in ax.containers for y in c.lines[0].get_ydata())
    assert np.allclose(ys, sorted(q.value))
    dashed = sorted(float(ln.get_ydata()[0]) for ln in ax.get_lines() if ln.get_linestyle() == "--")
    assert np.allclose(dashed, sorted(q.groupby("players").value.mean()))


def test_old_figures_still_work(odds, fair, tmp_path):
    assert isinstance(plots.plot_deal_odds(odds, path=tmp_path / "a.png"), Figure) and _png(tmp_path / "a.png")
    assert isinstance(plots.plot_fairness(fair, path=tmp_path / "b.png"), Figure) and _png(tmp_path / "b.png")
