"""Figures of nine-ten (九支十仔) results (matplotlib).

Every function takes the tidy table of an analysis (:func:`kaptai.nineten.odds.deal_odds`,
:func:`kaptai.nineten.simulate.simulate`, :func:`kaptai.nineten.fairness.compare_variants`),
returns a :class:`matplotlib.figure.Figure` and, when ``path`` is given, also saves it there (and
closes it: the figure returned is released from pyplot).  Nothing is computed here beyond
selecting rows (and, for the option readings, the difference of two rows): the numbers are the
table's.  Chinese terms are drawn with the packaged CJK font (:mod:`kaptai.core.plotting`).

Examples
--------
>>> from kaptai.nineten.odds import deal_odds
>>> from kaptai.nineten.plots import plot_pairs_distribution
>>> fig = plot_pairs_distribution(deal_odds(4))
>>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
['dealer (莊家), 10 cards', 'another seat, 9 cards']
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

import numpy as np
import pandas as pd

from kaptai.core.plotting import cjk_font_family, save_figure, with_cjk_font

__all__ = ["plot_fairness", "plot_wins", "plot_pairs_distribution", "plot_seat_wins", "plot_policy_money",
           "plot_option_dealer_advantage", "option_effects"]

#: The z value of the 95% intervals (the tables' confidence).
_Z95 = 1.959963984540054
_WIN_LABELS = {"self": "self-draw", "flip": "flip win", "discard": "discard win (放槍)", "natural": "dealer natural"}


def _plt(path):
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


_font_family = cjk_font_family
_texts = with_cjk_font


def _save(fig, path):
    """Lay out ``fig``; when ``path`` is given, save it there and release it from pyplot."""
    fig.tight_layout()
    return save_figure(fig, path)


def _yerr(q: pd.DataFrame) -> np.ndarray:
    return np.vstack([q.value - q.ci_low, q.ci_high - q.value]).astype(float)


def _seat_label(s: int) -> str:
    return "dealer" if s == 0 else f"dealer + {s}"


@_texts
def plot_fairness(df: pd.DataFrame, path: str | os.PathLike | None = None, relative_to: str = "dealer"):
    """Horizontal bars of each variant's mean net money per hand by seat, with 95% intervals.

    Parameters
    ----------
    df : pandas.DataFrame
        A :func:`kaptai.nineten.fairness.compare_variants` table.
    path : path, optional
        Save the figure there.
    relative_to : {'dealer', 'seat'}

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _plt(path)
    ev = df[(df.metric == "net_mean") & (df.relative_to == relative_to)]
    variants = list(dict.fromkeys(ev.variant))
    seats = sorted(set(ev.seat.dropna().astype(int)))
    height = 0.8 / max(len(seats), 1)
    fig, ax = plt.subplots(figsize=(8.0, max(3.0, 0.35 * len(variants) * max(1, len(seats)) ** 0.5 + 1.2)))
    y = np.arange(len(variants))
    for j, s in enumerate(seats):
        sub = ev[ev.seat == s].set_index("variant").reindex(variants)
        label = f"seat {s}" if relative_to == "seat" else _seat_label(s)
        ax.barh(y + j * height - 0.4 + height / 2, sub.value, height, xerr=_yerr(sub), capsize=2, label=label)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels(variants)
    ax.invert_yaxis()
    ax.set_xlabel("net money per hand (頭 × stake)")
    ax.set_title("Nine-ten (九支十仔): net per hand by seat, 95% intervals")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="x", alpha=.3)
    return _save(fig, path)


@_texts
def plot_wins(df: pd.DataFrame, path: str | os.PathLike | None = None):
    """Stacked bars of P(win) by type for each seat counter-clockwise from the dealer.

    Parameters
    ----------
    df : pandas.DataFrame
        A :func:`kaptai.nineten.simulate.simulate` table.

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _plt(path)
    w = df[(df.metric == "win") & (df.relative_to == "dealer") & (df.level != "any")]
    piv = w.pivot(index="seat", columns="level", values="value")
    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    bottom = np.zeros(len(piv))
    seats = piv.index.astype(int)
    for level in ("self", "flip", "discard", "natural"):
        if level in piv:
            ax.bar(seats, piv[level], bottom=bottom, label=_WIN_LABELS[level])
            bottom = bottom + piv[level].to_numpy()
    ax.set_xticks(list(seats))
    ax.set_xticklabels(["dealer" if s == 0 else f"+{s}" for s in seats])
    ax.set_xlabel("seat counter-clockwise from the dealer")
    ax.set_ylabel("P(win)")
    ax.set_ylim(0, float(bottom.max()) * 1.1 if len(bottom) else 1)
    players = int(df.players.iloc[0]) if "players" in df and len(df) else len(seats)
    ax.set_title(f"Nine-ten (九支十仔): who wins, and how ({players} players)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.grid(axis="y", alpha=.3)
    return _save(fig, path)


@_texts
def plot_pairs_distribution(odds: pd.DataFrame, path: str | os.PathLike | None = None, *,
                            players: int | None = None):
    """Exact distribution of pairs at the deal: the dealer's 10 cards against another seat's 9.

    Bars of P(pairs = p) for p = 0-5 (the dealer) and 0-4 (another seat), labelled with their
    values; below each count, the claims still needed (5 - pairs, the lemma of §4).

    Parameters
    ----------
    odds : pandas.DataFrame
        A :func:`kaptai.nineten.odds.deal_odds` table (rows ``metric == 'pairs_distribution'``,
        ``method == 'exact'``).
    path : path, optional
        Also save the figure there.
    players : int, optional
        The player count to draw (default: the table's smallest).

    Returns
    -------
    matplotlib.figure.Figure
    """
    plt = _plt(path)
    q = odds[(odds.metric == "pairs_distribution") & (odds.method == "exact")]
    if players is None:
        players = int(q.players.min())
    q = q[q.players == players]
    levels = sorted({int(v) for v in q.level})
    fig, ax = plt.subplots(figsize=(8.5, 3.8))
    x = np.arange(len(levels))
    width = 0.4
    for j, (hand, label, colour) in enumerate((("dealer", "dealer (莊家), 10 cards", "#8b0000"),
                                               ("other", "another seat, 9 cards", "#4c72b0"))):
        g = q[q.hand == hand].assign(level=lambda d: d.level.astype(int)).set_index("level").value
        vals = g.reindex(levels).to_numpy(dtype=float)
        xs = x + (j - 0.5) * width
        bars = ax.bar(xs, np.nan_to_num(vals), width, label=label, color=colour)
        for b, v in zip(bars, vals):
            if v == v:  # not NaN
                text = f"{100 * v:.1f}%" if v >= 0.01 else f"{100 * v:.3g}%"
                ax.annotate(text, (b.get_x() + b.get_width() / 2, b.get_height()), xytext=(0, 3),
                            textcoords="offset points", ha="center", fontsize=7.5)
    ax.set_xticks(x)
    ax.set_xticklabels([f"{p}\n({5 - p} claim{'' if 5 - p == 1 else 's'})" for p in levels])
    ax.set_xlabel("pairs at the deal (claims 吃 still needed = 5 - pairs)")
    ax.set_ylabel("probability")
    ax.set_ylim(0, float(q.value.max()) * 1.15)
    ax.set_title("Pairs at the deal, dealer vs another seat (exact)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=.3)
    return _save(fig, path)


def _sim_frame(sims: pd.DataFrame | Mapping[int, pd.DataFrame]) -> pd.DataFrame:
    if isinstance(sims, Mapping):
        return pd.concat([df.assign(players=int(p)) for p, df in sims.items()], ignore_index=True)
    return sims


@_texts
def plot_seat_wins(sims: pd.DataFrame | Mapping[int, pd.DataFrame], path: str | os.PathLike | None = None):
    """P(win) by seat counter-clockwise from the dealer, one panel per player count, 95% intervals.

    A dotted line at 1/n marks an equal share for n players.

    Parameters
    ----------
    sims : pandas.DataFrame or mapping
        A :func:`kaptai.nineten.simulate.simulate` table (several player counts may be
        concatenated; column ``players``), or a mapping players -> table.
    path : path, optional
        Also save the figure there.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kaptai.nineten.simulate import simulate
    >>> from kaptai.nineten.plots import plot_seat_wins
    >>> fig = plot_seat_wins({4: simulate(4, hands=500, seed=1, progress=False)})
    >>> fig.axes[0].get_title()
    '4 players (dotted: an equal share, 1/4)'
    """
    plt = _plt(path)
    df = _sim_frame(sims)
    w = df[(df.metric == "win") & (df.relative_to == "dealer") & (df.level == "any")]
    counts = sorted({int(p) for p in w.players})
    ncols = min(len(counts), 2) or 1
    nrows = max(1, math.ceil(len(counts) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.6 * ncols + 0.4, 3.0 * nrows + 0.5), squeeze=False)
    for i, p in enumerate(counts):
        ax = axes[i // ncols][i % ncols]
        g = w[w.players == p].sort_values("seat")
        colour = f"C{i}"
        ax.errorbar(g.seat.to_numpy(dtype=float), g.value, yerr=_yerr(g), fmt="o-", ms=4, lw=1, capsize=3,
                    color=colour, label=f"{p} players")
        ax.axhline(1 / p, color="black", ls=":", lw=1)
        ax.set_xticks(range(p))
        ax.set_xticklabels(["dealer" if s == 0 else f"+{s}" for s in range(p)])
        ax.set_title(f"{p} players (dotted: an equal share, 1/{p})", fontsize=10)
        ax.set_ylabel("P(win the hand)")
        ax.grid(alpha=.3)
        if i // ncols == nrows - 1 or i + ncols >= len(counts):
            ax.set_xlabel("seat counter-clockwise from the dealer")
    for j in range(len(counts), nrows * ncols):
        axes[j // ncols][j % ncols].set_visible(False)
    fig.suptitle("Win rate by seat from the dealer (莊家), 95% intervals")
    return _save(fig, path)


def _policy_of(variant: str) -> str:
    return variant[len("all "):] if variant.startswith("all ") else variant


@_texts
def plot_policy_money(pol: pd.DataFrame, path: str | os.PathLike | None = None, *, stake: float = 10.0):
    """Money and 頭 by discard policy (colour_cut 斷色, live_first, random), with 95% intervals.

    Three panels from the ``'policies'`` comparison of
    :func:`kaptai.nineten.fairness.compare_variants`: (top left) every seat plays the same
    policy — the mean net per hand of each seat from the dealer; (top right) the mean 頭 of a
    win under each all-same-policy table; (bottom) one seat (seat 0) playing a policy against a
    field of another — its mean net per hand.  Money axes also show 頭 (money / ``stake``).

    Parameters
    ----------
    pol : pandas.DataFrame
        A :func:`kaptai.nineten.fairness.compare_variants` table of the ``'policies'`` set (any
        variants named ``'all <policy>'`` and ``'seat 0 <policy> vs <policy>'`` are drawn).
    path : path, optional
        Also save the figure there.
    stake : float
        ``stake_per_tou`` of the run (money per 頭), for the 頭 axes.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kaptai.nineten.fairness import compare_variants
    >>> from kaptai.nineten.plots import plot_policy_money
    >>> fig = plot_policy_money(compare_variants("policies", 4, hands=300, seed=1, progress=False))
    >>> len(fig.axes) >= 3
    True
    """
    plt = _plt(path)
    same = [v for v in dict.fromkeys(pol.variant) if v.startswith("all ")]
    duel = [v for v in dict.fromkeys(pol.variant) if v.startswith("seat 0 ")]
    fig = plt.figure(figsize=(10.0, 7.4))
    grid = fig.add_gridspec(2, 2, width_ratios=[1.6, 1.0], height_ratios=[1.0, 0.95])
    axes = [fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[0, 1]), fig.add_subplot(grid[1, :])]
    to_tou = (lambda m: m / stake, lambda t: t * stake)

    ax = axes[0]
    ev = pol[(pol.metric == "net_mean") & (pol.relative_to == "dealer") & pol.variant.isin(same)]
    seats = sorted({int(s) for s in ev.seat.dropna()})
    width = 0.8 / max(len(same), 1)
    x = np.arange(len(seats))
    for j, v in enumerate(same):
        g = ev[ev.variant == v].set_index("seat").reindex(seats)
        ax.bar(x + (j - (len(same) - 1) / 2) * width, g.value, width, yerr=_yerr(g), capsize=2,
               label=_policy_of(v))
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels(["dealer" if s == 0 else f"+{s}" for s in seats])
    ax.set_xlabel("seat from the dealer")
    ax.set_ylabel("net money per hand")
    ax.secondary_yaxis("right", functions=to_tou).set_ylabel("net 頭 per hand")
    ax.set_title("Every seat plays the same policy", fontsize=10)
    ax.legend(fontsize=8, ncol=len(same), loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    ax.grid(axis="y", alpha=.3)

    ax = axes[1]
    tm = pol[(pol.metric == "tou_mean") & pol.variant.isin(same)].set_index("variant").reindex(same)
    ax.bar(np.arange(len(same)), tm.value, 0.6, yerr=_yerr(tm), capsize=3,
           color=[f"C{j}" for j in range(len(same))])
    for j, v in enumerate(tm.value):
        ax.annotate(f"{v:.2f}", (j, v), xytext=(0, 6), textcoords="offset points", ha="center", fontsize=8)
    ax.set_xticks(np.arange(len(same)))
    ax.set_xticklabels([_policy_of(v) for v in same], fontsize=9)
    ax.set_ylabel("頭 of a win")
    ax.set_ylim(0, float(np.nanmax(tm.ci_high.to_numpy(dtype=float))) * 1.2 if len(tm) else 1)
    ax.set_title("Mean 頭 of a win", fontsize=10)
    ax.grid(axis="y", alpha=.3)

    ax = axes[2]
    s0 = pol[(pol.metric == "net_mean") & (pol.relative_to == "seat") & (pol.seat == 0)
             & pol.variant.isin(duel)].set_index("variant").reindex(duel)
    y = np.arange(len(duel))
    colours = ["#55a868" if lo > 0 else "#c44e52" if hi < 0 else "#999999" for lo, hi in zip(s0.ci_low, s0.ci_high)]
    ax.barh(y, s0.value, 0.6, xerr=_yerr(s0), capsize=3, color=colours)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels([v[len("seat 0 "):].replace(" vs ", " among ") for v in duel], fontsize=9)
    ax.invert_yaxis()
    ax.set_xlabel("seat 0's net money per hand")
    ax.secondary_xaxis("top", functions=to_tou).set_xlabel("net 頭 per hand", fontsize=9)
    ax.set_title("One seat (seat 0) against a field", fontsize=10, pad=8)
    ax.grid(axis="x", alpha=.3)
    fig.suptitle("Discard policy (斷色 = colour_cut): money and 頭 per hand, 95% intervals")
    return _save(fig, path)


@_texts
def plot_option_dealer_advantage(opt: pd.DataFrame, path: str | os.PathLike | None = None, *,
                                 baseline: str = "defaults"):
    """The dealer advantage under each option reading, and its change from the defaults.

    Left: the dealer's mean net per hand (``dealer_advantage``) of each variant with its 95%
    interval, a dashed line at the baseline's value.  Right: variant minus baseline, with an
    interval that treats the two runs as independent (sqrt of the sum of the squared standard
    errors; conservative when the variants share deals).

    Parameters
    ----------
    opt : pandas.DataFrame
        A :func:`kaptai.nineten.fairness.compare_variants` table (the ``'options'`` set).
    path : path, optional
        Also save the figure there.
    baseline : str
        The variant the changes are measured from.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from kaptai.nineten.fairness import compare_variants
    >>> from kaptai.nineten.plots import plot_option_dealer_advantage
    >>> df = compare_variants("payer", 4, hands=300, seed=1, progress=False)
    >>> fig = plot_option_dealer_advantage(df, baseline="all pay (default)")
    >>> [t.get_text() for t in fig.axes[1].get_yticklabels()]
    ['flipper pays', 'discarder covers all']
    """
    plt = _plt(path)
    da = option_effects(opt, baseline)
    variants = list(da.variant)
    others = [v for v in variants if v != baseline]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11.5, max(3.2, 0.38 * len(variants) + 1.4)),
                                      gridspec_kw={"width_ratios": [1, 1]})
    y = np.arange(len(variants))
    left.errorbar(da.value, y, xerr=_yerr(da), fmt="o", capsize=3, color="#8b0000")
    base = float(da[da.variant == baseline].value.iloc[0])
    left.axvline(base, color="#8b0000", ls="--", lw=0.8)
    left.axvline(0, color="black", lw=0.8)
    left.set_yticks(y)
    left.set_yticklabels(variants, fontsize=8.5)
    left.invert_yaxis()
    left.set_xlabel(f"dealer's mean net money per hand (dashed: {baseline}, {base:+.2f})")
    left.set_title("Dealer advantage (莊家) under each reading", fontsize=10)
    left.grid(axis="x", alpha=.3)
    ch = da[da.variant != baseline]
    yy = np.arange(len(others))
    colours = ["#55a868" if lo > 0 else "#c44e52" if hi < 0 else "#555555"
               for lo, hi in zip(ch.change_low, ch.change_high)]
    for yi, (c, lo, hi, col) in enumerate(zip(ch.change, ch.change_low, ch.change_high, colours)):
        right.errorbar([c], [yi], xerr=[[c - lo], [hi - c]], fmt="o", color=col, capsize=3)
    right.axvline(0, color="black", lw=0.8)
    right.set_yticks(yy)
    right.set_yticklabels(others, fontsize=8.5)
    right.invert_yaxis()
    right.set_xlabel(f"change from '{baseline}' (money per hand)")
    right.set_title("Effect of the reading on the dealer advantage", fontsize=10)
    right.grid(axis="x", alpha=.3)
    fig.suptitle("§6 option readings and the dealer advantage, 95% intervals")
    return _save(fig, path)


def option_effects(opt: pd.DataFrame, baseline: str = "defaults", metric: str = "dealer_advantage") -> pd.DataFrame:
    """Each variant's ``metric`` and its change from ``baseline`` (rows of a fairness table).

    The change's 95% interval treats the two runs as independent: half-widths are turned into
    standard errors (/ 1.96) and added in quadrature.

    Parameters
    ----------
    opt : pandas.DataFrame
        A :func:`kaptai.nineten.fairness.compare_variants` table.
    baseline : str
        A variant of the table.
    metric : str
        A metric with one row per variant (``dealer_advantage``, ``mean_transfer``, ``tou_mean``).

    Returns
    -------
    pandas.DataFrame
        Columns ``variant, value, ci_low, ci_high, change, change_low, change_high``, variants in
        table order.

    Examples
    --------
    >>> import pandas as pd
    >>> from kaptai.nineten.plots import option_effects
    >>> t = pd.DataFrame({"variant": ["defaults", "x"], "metric": "dealer_advantage", "value": [1.0, 3.0],
    ...                   "ci_low": [0.0, 2.0], "ci_high": [2.0, 4.0]})
    >>> option_effects(t).change.tolist()
    [0.0, 2.0]
    """
    q = opt[opt.metric == metric].drop_duplicates("variant")[["variant", "value", "ci_low", "ci_high"]]
    q = q.reset_index(drop=True)
    if baseline not in set(q.variant):
        from kaptai.errors import RulesError

        raise RulesError(f"baseline {baseline!r} is not a variant of the table: {', '.join(q.variant)}")
    b = q[q.variant == baseline].iloc[0]
    se_b = (float(b.ci_high) - float(b.ci_low)) / (2 * _Z95)
    se = (q.ci_high - q.ci_low) / (2 * _Z95)
    half = _Z95 * np.sqrt(se ** 2 + se_b ** 2)
    q["change"] = q.value - float(b.value)
    is_base = q.variant == baseline
    q["change_low"] = np.where(is_base, 0.0, q.change - half)
    q["change_high"] = np.where(is_base, 0.0, q.change + half)
    return q
