"""Figures of nine-ten: each returns a Figure drawn from the table's rows and saves a PNG when asked."""
import pandas as pd
import pytest
from matplotlib.figure import Figure

from kaptai.errors import RulesError
from kaptai.nineten.fairness import compare_variants
from kaptai.nineten.odds import deal_odds
from kaptai.nineten.plots import (option_effects, plot_option_dealer_advantage, plot_pairs_distribution,
                                  plot_policy_money, plot_seat_wins, plot_wins)
from kaptai.nineten.simulate import simulate


def _png(path):
    data = path.read_bytes()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


@pytest.fixture(scope="module")
def sims():
    return {p: simulate(p, hands=400, seed=2, progress=False) for p in (4, 5)}


@pytest.fixture(scope="module")
def policies():
    return compare_variants("policies", 4, hands=300, seed=1, progress=False)


def _heights(ax):
    return [p.get_height() for p in ax.patches]


def test_pairs_distribution(tmp_path):
    odds = deal_odds(4)
    fig = plot_pairs_distribution(odds, tmp_path / "p.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "p.png")
    ax = fig.axes[0]
    ex = odds[(odds.metric == "pairs_distribution")]
    dealer = ex[ex.hand == "dealer"].sort_values("level").value.tolist()
    other = ex[ex.hand == "other"].sort_values("level").value.tolist()
    h = _heights(ax)
    assert h[:len(dealer)] == pytest.approx(dealer)  # the bars are the exact table, dealer first
    assert h[len(dealer):len(dealer) + len(other)] == pytest.approx(other)
    assert any("莊家" in t.get_text() for t in ax.get_legend().get_texts())
    assert [t.get_text() for t in ax.get_xticklabels()][0] == "0\n(5 claims)"


def test_seat_wins_one_panel_per_player_count(tmp_path, sims):
    fig = plot_seat_wins(sims, path=tmp_path / "s.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "s.png")
    four, five = fig.axes[:2]
    assert four.get_title().startswith("4 players") and five.get_title().startswith("5 players")
    assert [t.get_text() for t in five.get_xticklabels()] == ["dealer", "+1", "+2", "+3", "+4"]
    for ax, p in ((four, 4), (five, 5)):
        df = sims[p]
        w = df[(df.metric == "win") & (df.relative_to == "dealer") & (df.level == "any")]
        assert ax.lines[0].get_ydata() == pytest.approx(w.sort_values("seat").value.tolist())
        assert any(line.get_ydata()[0] == pytest.approx(1 / p) for line in ax.lines[1:])  # the equal share
    # a concatenated table draws the same
    both = pd.concat([df.assign(players=p) for p, df in sims.items()])
    assert [a.get_title() for a in plot_seat_wins(both).axes] == [a.get_title() for a in fig.axes]


def test_wins_stacked(tmp_path, sims):
    fig = plot_wins(sims[4], path=tmp_path / "w.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "w.png")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert "discard win (放槍)" in labels


def test_policy_money(tmp_path, policies):
    fig = plot_policy_money(policies, path=tmp_path / "m.png")
    assert isinstance(fig, Figure) and _png(tmp_path / "m.png")
    left, middle, right = fig.axes[:3]
    assert [t.get_text() for t in left.get_legend().get_texts()] == ["colour_cut", "live_first", "random"]
    tou = policies[policies.metric == "tou_mean"].set_index("variant").value
    assert _heights(middle) == pytest.approx([tou["all colour_cut"], tou["all live_first"], tou["all random"]])
    s0 = policies[(policies.metric == "net_mean") & (policies.relative_to == "seat") & (policies.seat == 0)]
    duel = s0[s0.variant.str.startswith("seat 0 ")].value.tolist()
    assert [p.get_width() for p in right.patches] == pytest.approx(duel)
    for ax in fig.axes:  # no rotated tick labels
        assert all(t.get_rotation() == 0 for t in ax.get_xticklabels())


def test_option_dealer_advantage(tmp_path):
    df = compare_variants("payer", 4, hands=300, seed=1, progress=False)
    fig = plot_option_dealer_advantage(df, path=tmp_path / "o.png", baseline="all pay (default)")
    assert isinstance(fig, Figure) and _png(tmp_path / "o.png")
    left, right = fig.axes[:2]
    assert [t.get_text() for t in left.get_yticklabels()] == ["all pay (default)", "flipper pays",
                                                              "discarder covers all"]
    eff = option_effects(df, "all pay (default)")
    xs = [line.get_xdata()[0] for line in right.lines if len(line.get_xdata()) == 1 and line.get_marker() == "o"]
    assert xs == pytest.approx(eff.change.tolist()[1:])
    with pytest.raises(RulesError, match="'defaults'"):
        plot_option_dealer_advantage(df)


def test_option_effects_interval():
    t = pd.DataFrame({"variant": ["defaults", "a", "b"], "metric": "dealer_advantage", "value": [1.0, 3.0, 0.5],
                      "ci_low": [0.0, 2.0, -0.5], "ci_high": [2.0, 4.0, 1.5]})
    e = option_effects(t)
    assert e.change.tolist() == pytest.approx([0.0, 2.0, -0.5])
    half = 2 ** 0.5  # two half-widths of 1 added in quadrature
    assert e.change_low.tolist() == pytest.approx([0.0, 2.0 - half, -0.5 - half])
    assert e.change_high.tolist() == pytest.approx([0.0, 2.0 + half, -0.5 + half])
