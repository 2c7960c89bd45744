"""Figures of the Heaven Eleven (天牌十一) analyses (matplotlib, Agg backend).

Every function takes the tidy table of an analysis (:func:`kaptai.heaven11.fairness.asymmetry`,
:func:`kaptai.heaven11.simulate.simulate`, :func:`kaptai.heaven11.fairness.compare_variants`),
returns a :class:`matplotlib.figure.Figure` and, when ``path`` is given, also saves it there (a
figure made here is then closed: released from pyplot).  Nothing is computed here beyond selecting
rows: the numbers are the table's.  Text is drawn with the packaged CJK font
(:mod:`kaptai.core.plotting`).

Examples
--------
>>> from kaptai.heaven11.fairness import asymmetry
>>> from kaptai.heaven11.plots import plot_bid_ev
>>> fig = plot_bid_ev(asymmetry(hands=500, seed=1, progress=False))
>>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
['rules as written', 'symmetric option']
"""

from __future__ import annotations

import os
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from kaptai.core.plotting import save_figure, with_cjk_font  # noqa: E402

__all__ = ["plot_bid_ev", "plot_trick_distribution", "plot_status", "plot_fairness"]

_STRAIN_LABEL = {"C": "♣ clubs", "D": "♦ diamonds", "H": "♥ hearts", "S": "♠ spades", "NT": "NT (no trump)"}
_RULES_LABEL = {"as_written": "rules as written", "symmetric": "symmetric option"}
_STATUS = (("p_short", "short (m < b)", "#4c72b0"), ("p_match", "match (m = b)", "#55a868"),
           ("p_over", "over (m > b)", "#c44e52"))


def _save(fig, path: str | os.PathLike | None, *, close: bool = True):
    """Lay out ``fig``; when ``path`` is given, save it there and (``close``: a figure made here)
    release it from pyplot."""
    fig.tight_layout()
    return save_figure(fig, path, close=close)


def _yerr(q: pd.DataFrame) -> np.ndarray:
    return np.vstack([q.value - q.ci_low, q.ci_high - q.value]).astype(float)


@with_cjk_font
def plot_bid_ev(asym: pd.DataFrame, path: str | os.PathLike | None = None, *, ax: Any = None):
    """The declarer's EV by bid offset from its expected origin grade, rules as written vs the
    symmetric option, with the table's 95% intervals (rows ``metric == 'ev_offset'``).

    Parameters
    ----------
    asym : pandas.DataFrame
        The table of :func:`kaptai.heaven11.fairness.asymmetry`.
    path : path, optional
        Also save the figure there.
    """
    own = ax is None
    fig, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(7, 3.6))
    ev = asym[asym.metric == "ev_offset"]
    for k, (rules, label) in enumerate(_RULES_LABEL.items()):
        q = ev[ev.rules == rules].sort_values("level")
        if not len(q):
            continue
        x = q.level.astype(int).to_numpy() + (k - 0.5) * 0.08
        ax.errorbar(x, q.value.astype(float), yerr=_yerr(q), marker="o", capsize=3, label=label)
        best = q.loc[q.value.idxmax()]
        ax.annotate("best", (int(best.level) + (k - 0.5) * 0.08, float(best.value)), textcoords="offset points",
                    xytext=(0, 8), ha="center", fontsize=8)
    ax.axhline(0, color="#888", lw=0.8)
    ax.set_xlabel("bid offset from the expected origin grade (0 = bid what you expect)")
    ax.set_ylabel("declarer's mean score per hand")
    ax.grid(alpha=0.3)
    ax.legend()
    return _save(fig, path, close=own)


@with_cjk_font
def plot_trick_distribution(sim: pd.DataFrame, path: str | os.PathLike | None = None, *, ax: Any = None):
    """Distribution of the declarer's tricks, one line per contract strain (rows
    ``metric == 'declarer_tricks'`` with ``relative_to == 'strain=X'``) and overall.

    Parameters
    ----------
    sim : pandas.DataFrame
        The table of :func:`kaptai.heaven11.simulate.simulate`.
    """
    own = ax is None
    fig, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(7, 3.6))
    d = sim[sim.metric == "declarer_tricks"]
    keys = [("declarer", "all contracts")] + [(f"strain={s}", lab) for s, lab in _STRAIN_LABEL.items()]
    for rel, label in keys:
        q = d[d.relative_to == rel].sort_values("level")
        if not len(q):
            continue
        n = int(q.samples.iloc[0])
        style = dict(color="black", lw=2.2) if rel == "declarer" else {}
        ax.plot(q.level.astype(int), 100 * q.value.astype(float), marker="o", ms=3,
                label=f"{label} (n={n:,})", **style)
    ax.set_xlabel("declarer's tricks (of 13)")
    ax.set_ylabel("% of hands")
    ax.set_xticks(range(0, 14))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, path, close=own)


@with_cjk_font
def plot_status(asym: pd.DataFrame, path: str | os.PathLike | None = None, *, ax: Any = None):
    """P(short / match / over) by bid offset (stacked bars; rows ``p_short``, ``p_match``,
    ``p_over`` of :func:`kaptai.heaven11.fairness.asymmetry`, which do not depend on the scoring rule)."""
    own = ax is None
    fig, ax = (ax.figure, ax) if ax is not None else plt.subplots(figsize=(7, 3.6))
    a = asym[asym.rules == "as_written"]
    bottom = None
    for metric, label, colour in _STATUS:
        q = a[a.metric == metric].sort_values("level")
        x = q.level.astype(int).to_numpy()
        v = 100 * q.value.astype(float).to_numpy()
        ax.bar(x, v, bottom=bottom, label=label, color=colour, width=0.7)
        for xi, vi, bi in zip(x, v, bottom if bottom is not None else np.zeros_like(v)):
            if vi >= 6:
                ax.text(xi, bi + vi / 2, f"{vi:.0f}%", ha="center", va="center", fontsize=7, color="white")
        bottom = v if bottom is None else bottom + v
    ax.set_xlabel("bid offset from the expected origin grade")
    ax.set_ylabel("% of hands")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _save(fig, path, close=own)


@with_cjk_font
def plot_fairness(df: pd.DataFrame, which: str | Any = "play", path: str | os.PathLike | None = None):
    """The figure of ``kaptai fairness heaven-eleven --plot FILE``: the bid EV for
    ``'asymmetry'``, the declarer's tricks and score for ``'leading'``, and the declarer's mean
    tricks and mean score per variant (95% intervals) for a variant set."""
    if which == "asymmetry":
        return plot_bid_ev(df, path)
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    if which == "leading":
        for ax, key, label in ((axes[0], "tricks", "declarer's tricks"), (axes[1], "score", "declarer's score")):
            q = df[df.metric.isin([f"{key}_declarer_leads", f"{key}_next_leads"])]
            ax.bar(["declarer leads", "next seat leads"], q.value.astype(float), yerr=_yerr(q), capsize=4,
                   color=["#8b0000", "#888"])
            ax.set_ylabel(label)
            ax.grid(alpha=0.3, axis="y")
        return _save(fig, path)
    for ax, metric, label in ((axes[0], "declarer_tricks_mean", "declarer's mean tricks"),
                              (axes[1], "final_mean", "declarer's mean score")):
        q = df[(df.metric == metric) & (df.relative_to == "declarer")]
        if metric == "final_mean":
            q = q[q.seat == 0]
        q = q.drop_duplicates("variant")
        y = np.arange(len(q))
        ax.errorbar(q.value.astype(float), y, xerr=_yerr(q), fmt="o", capsize=3, color="#8b0000")
        ax.set_yticks(y, q.variant)
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[1].axvline(0, color="#888", lw=0.8)
    axes[1].set_yticklabels([])
    return _save(fig, path)
