"""The heat maps of ``kaptai league <game> --diff/--cross --plot`` (:func:`kaptai.core.league.plot_cross`):
one panel per ruleset, player count and seat count, each ruleset with its own colour scale and
unit, only the rows that have cells, titles naming the game, the rules and the unit, and no
label running into another or out of its cell or the figure."""

from __future__ import annotations

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

from matplotlib.text import Text  # noqa: E402

from kaptai.cli import main  # noqa: E402  (registers the games: the titles name them)
from kaptai.core.league import plot_cross  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    """Each test's figures closed after it (pyplot keeps them: other tests of the worker would
    meet matplotlib's too-many-figures warning)."""
    import matplotlib.pyplot as plt

    yield
    plt.close("all")

POLICIES = ["greedy", "random", "score", "lookahead", "lookahead_score", "search"]
UNITS = {"traditional": "ante", "advanced": "point"}


def _diff_table(n: int, rulesets=("traditional", "advanced"), players=(4,), scale=10.0) -> pd.DataFrame:
    """A ``--diff`` table of ``n`` policies (every ordered pair), wide intervals of two-digit values."""
    rng = np.random.default_rng(n)
    rows = []
    for r, P in itertools.product(rulesets, players):
        for a, b in itertools.permutations(POLICIES[:n], 2):
            v = float(rng.normal(0, scale))
            rows.append({"game": "kap-tai-shap", "rules": r, "players": P, "policy": a, "other": b, "value": v,
                         "ci_low": v - 2.11, "ci_high": v + 2.13, "hands": 200, "variance_ratio": 1.0,
                         "unit": UNITS[r]})
    return pd.DataFrame(rows)


def _cross_table(n: int, rulesets=("traditional", "advanced"), players=(4,), challengers=("search",)) -> pd.DataFrame:
    pols = POLICIES[:n - 1] + ["search"]
    rows = []
    for r, P in itertools.product(rulesets, players):
        for x in challengers or pols:
            for f in pols:
                if f == x:
                    continue
                for k in (1, 2) if P == 4 else (1,):
                    v = 18.9 if f == "random" else -7.54
                    rows.append({"game": "kap-tai-shap", "rules": r, "players": P, "policy": x, "field": f,
                                 "seats": k, "diff_vs_field": v, "diff_ci_low": v - 3.7, "diff_ci_high": v + 4.1,
                                 "unit": UNITS[r]})
    return pd.DataFrame(rows)


def _heat_axes(fig):
    return [ax for ax in fig.axes if ax.get_visible() and ax.images and ax.get_label() != "<colorbar>"]


def _texts(fig):
    """Every text drawn: the figure's titles, and each visible axes' titles, axis labels, drawn
    tick labels and annotations."""
    fig.draw_without_rendering()
    renderer = fig.canvas.get_renderer()
    found: list[Text] = [fig._suptitle] if fig._suptitle is not None else []
    found += list(fig.texts)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        found += [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts,
                  *(t.label1 for axis in (ax.xaxis, ax.yaxis) for t in axis._update_ticks())]  # the drawn ticks
    found = list({id(t): t for t in found}.values())
    out = [(t, t.get_window_extent(renderer)) for t in found if t.get_visible() and t.get_text().strip()]
    return renderer, out


def _check_layout(fig) -> None:
    """No text outside the figure, no two texts overlapping, every cell's text inside its cell."""
    renderer, texts = _texts(fig)
    box = fig.bbox
    for t, e in texts:
        assert e.x0 >= box.x0 - 1 and e.x1 <= box.x1 + 1 and e.y0 >= box.y0 - 1 and e.y1 <= box.y1 + 1, \
            f"{t.get_text()!r} is outside the figure: {e} not in {box}"
    for (a, ea), (b, eb) in itertools.combinations(texts, 2):
        assert not ea.overlaps(eb), f"{a.get_text()!r} overlaps {b.get_text()!r}"
    for ax in _heat_axes(fig):
        ab = ax.get_window_extent(renderer)
        ncols, nrows = ax.images[0].get_array().shape[1], ax.images[0].get_array().shape[0]
        w, h = ab.width / ncols, ab.height / nrows
        for t in ax.texts:
            x, y = t.get_position()
            e = t.get_window_extent(renderer)
            cx0 = ab.x0 + x * w
            cy1 = ab.y1 - y * h
            assert cx0 - 1 <= e.x0 and e.x1 <= cx0 + w + 1, f"{t.get_text()!r} is wider than its cell"
            assert cy1 - h - 1 <= e.y0 and e.y1 <= cy1 + 1, f"{t.get_text()!r} is taller than its cell"


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_diff_heat_map_one_panel_per_ruleset_and_no_label_overlaps(n):
    fig = plot_cross(_diff_table(n))
    axes = _heat_axes(fig)
    assert len(axes) == 2
    titles = [ax.get_title() for ax in axes]
    assert "traditional" in titles[0] and "ante" in titles[0]
    assert "advanced" in titles[1] and "point" in titles[1]
    # each ruleset has its own colour scale (antes and points are not one scale)
    lims = [ax.images[0].get_clim() for ax in axes]
    assert lims[0] != lims[1]
    assert all(len(ax.texts) == n * (n - 1) for ax in axes)  # one ruleset's values per panel
    bars = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
    assert len(bars) == 2
    labels = [b.get_xlabel() + b.get_ylabel() for b in bars]
    assert "ante" in labels[0] and "point" in labels[1]
    assert "Kap Tai Shap" in fig.get_suptitle()
    _check_layout(fig)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_cross_heat_map_draws_only_the_challenger_rows(n):
    fig = plot_cross(_cross_table(n))
    axes = _heat_axes(fig)
    assert len(axes) == 4  # (traditional, advanced) x (1 seat, 2 seats)
    for ax in axes:
        assert [t.get_text() for t in ax.get_yticklabels()] == ["search"]
        assert ax.images[0].get_array().shape == (1, n - 1)
        assert "search" not in [t.get_text() for t in ax.get_xticklabels()]
        assert "seat" in ax.get_title() and "4 players" in ax.get_title()
    _check_layout(fig)


def test_several_player_counts_are_several_panels():
    fig = plot_cross(_cross_table(4, rulesets=("traditional",), players=(3, 4), challengers=()))
    axes = _heat_axes(fig)
    assert [ax.get_title().split("\n")[0] for ax in axes] == [
        "traditional rules, 3 players, the policy at 1 seat", "traditional rules, 4 players, the policy at 1 seat",
        "traditional rules, 4 players, the policy at 2 seats"]
    _check_layout(fig)


def test_a_long_unit_is_wrapped_inside_the_figure():
    t = _cross_table(3, rulesets=("traditional",))
    t["game"] = "nantong"
    t["unit"] = "point (胡數 under a money settlement; 1 per hand win under rank_only)"
    fig = plot_cross(t)
    assert "胡數" in _heat_axes(fig)[0].get_title().replace("\n", " ")
    _check_layout(fig)


def test_kap_tai_shap_command_plots_each_ruleset(tmp_path, capsys, monkeypatch):
    """``kaptai league kap-tai-shap --diff --plot``: a panel per ruleset of ``--rules-list``."""
    import kaptai.core.plotting

    figures = []
    save = kaptai.core.plotting.save_figure

    def keep(fig, path, **kw):
        figures.append(fig)
        return save(fig, path, **kw)

    monkeypatch.setattr(kaptai.core.plotting, "save_figure", keep)
    plot = tmp_path / "kts.png"
    assert main(["league", "kap-tai-shap", "--players", "4", "--policies", "greedy,random", "--hands", "16",
                 "--seed", "1", "--diff", "--plot", str(plot), "--no-progress", "--format", "csv"]) == 0
    capsys.readouterr()
    assert plot.stat().st_size > 0
    (fig,) = figures
    titles = [ax.get_title() for ax in _heat_axes(fig)]
    assert len(titles) == 2 and "traditional" in titles[0] and "ante" in titles[0]
    assert "advanced" in titles[1] and "point" in titles[1]
    _check_layout(fig)
