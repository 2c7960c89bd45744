"""Figures of kaptai.heaven11.plots: created from real (small) runs, and written to a file."""
import matplotlib
import pytest
from matplotlib.figure import Figure

from kaptai.heaven11.fairness import asymmetry, compare_variants, leading_first
from kaptai.heaven11.plots import plot_bid_ev, plot_fairness, plot_status, plot_trick_distribution
from kaptai.heaven11.simulate import simulate


@pytest.fixture(scope="module")
def asym():
    return asymmetry(hands=1500, seed=4, progress=False)


@pytest.fixture(scope="module")
def sim():
    return simulate(hands=1500, seed=4, progress=False)


def _png(path):
    data = path.read_bytes()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000


def test_backend_is_agg():
    assert matplotlib.get_backend().lower() == "agg"


def test_bid_ev(asym, tmp_path):
    fig = plot_bid_ev(asym, tmp_path / "ev.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "ev.png")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["rules as written", "symmetric option"]
    # the plotted points are the table's EVs
    written = asym[(asym.metric == "ev_offset") & (asym.rules == "as_written")].sort_values("level")
    ys = ax.containers[0].lines[0].get_ydata()
    assert list(ys) == pytest.approx(list(written.value))


def test_trick_distribution(sim, tmp_path):
    fig = plot_trick_distribution(sim, path=tmp_path / "tricks.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "tricks.png")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels[0].startswith("all contracts (n=1,500)")
    assert sum(lab.startswith(("♣", "♦", "♥", "♠", "NT")) for lab in labels) >= 3


def test_status(asym, tmp_path):
    fig = plot_status(asym, tmp_path / "status.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "status.png")
    assert len(fig.axes[0].patches) == 3 * 6  # three statuses x six offsets
    assert plot_status(asym).axes  # without a path: nothing written, a figure returned


def test_fairness_plots(tmp_path):
    df = compare_variants({"standard": {}, "free": {"short_follow": "free"}}, hands=800, seed=2, progress=False)
    assert isinstance(plot_fairness(df, "play", tmp_path / "v.png"), Figure) and _png(tmp_path / "v.png")
    lead = leading_first(hands=800, seed=2, progress=False)
    assert isinstance(plot_fairness(lead, "leading", tmp_path / "l.png"), Figure) and _png(tmp_path / "l.png")
