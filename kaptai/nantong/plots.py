"""Figures of Nantong long cards (南通長牌): deal odds and match fairness (matplotlib).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from kaptai.nantong.odds import deal_odds
>>> from kaptai.nantong.plots import plot_deal_odds
>>> fig = plot_deal_odds(deal_odds(3, metrics=("distance", "opening_hu")))
>>> len(fig.axes)
2
"""

from __future__ import annotations

from typing import Any

import pandas as pd

__all__ = ["plot_deal_odds", "plot_fairness"]


def plot_deal_odds(odds: pd.DataFrame, path: Any = None):
    """The distance from ready and the opening 胡數 at the deal, dealer against the others
    (log scale), from a :func:`kaptai.nantong.odds.deal_odds` table."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for ax, metric, label in zip(axes, ("distance", "opening_hu"), ("distance from ready", "opening hu (points)")):
        for hand in ("dealer", "other"):
            d = odds[(odds.metric == metric) & (odds.hand == hand)]
            if len(d):
                ax.plot(d.level.astype(int), d.value, marker="o", ms=3, label=hand)
        ax.set_yscale("log")
        ax.set_xlabel(label)
        ax.set_ylabel("probability")
        ax.legend()
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    return fig


def plot_fairness(df: pd.DataFrame, path: Any = None):
    """Mean match result per player (from the first dealer) with 95% intervals, one panel per
    settlement, from a :func:`kaptai.nantong.fairness.fairness` table."""
    import matplotlib.pyplot as plt

    m = df[df.metric == "match_mean"]
    sts = [s for s in m.settlement.dropna().unique()]
    fig, axes = plt.subplots(1, max(1, len(sts)), figsize=(4 * max(1, len(sts)), 3.4), squeeze=False)
    for ax, st in zip(axes[0], sts):
        for name, part in m[m.settlement == st].groupby("variant", sort=False):
            x = part.seat.astype(int)
            ax.errorbar(x, part.value, yerr=[part.value - part.ci_low, part.ci_high - part.value], fmt="o",
                        capsize=3, label=str(name))
        ax.set_title(st)
        ax.set_xlabel("player (0 = first dealer)")
        ax.legend(fontsize=7)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    return fig
