"""Figures of nine-ten (九支十仔) results (matplotlib)."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

__all__ = ["plot_fairness", "plot_wins"]


def _plt(path):
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    return plt


def plot_fairness(df: pd.DataFrame, path: str | os.PathLike | None = None, relative_to: str = "dealer"):
    """Bar chart of each variant's mean net money per hand by seat, with 95% intervals.

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
    fig, ax = plt.subplots(figsize=(min(12.0, max(6.0, 0.5 * len(variants) * max(1, len(seats)) / 2)), 4.2))
    width = 0.8 / max(len(seats), 1)
    x = np.arange(len(variants))
    for j, s in enumerate(seats):
        sub = ev[ev.seat == s].set_index("variant").reindex(variants)
        err = np.vstack([sub.value - sub.ci_low, sub.ci_high - sub.value])
        label = (f"seat {s}" if relative_to == "seat" else ("dealer" if s == 0 else f"dealer + {s}"))
        ax.bar(x + j * width - 0.4 + width / 2, sub.value, width, yerr=err, capsize=2, label=label)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(x)
    ax.set_xticklabels(variants, rotation=25, ha="right")
    ax.set_ylabel("net money per hand (tou x stake)")
    ax.set_title("Nine-ten: net per hand by seat, 95% intervals")
    ax.legend(fontsize=8)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    return fig


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
    fig, ax = plt.subplots(figsize=(6, 4))
    bottom = np.zeros(len(piv))
    for level in ("self", "flip", "discard", "natural"):
        if level in piv:
            ax.bar(piv.index.astype(int), piv[level], bottom=bottom, label=level)
            bottom = bottom + piv[level].to_numpy()
    ax.set_xlabel("seat counter-clockwise from the dealer (0 = dealer)")
    ax.set_ylabel("P(win)")
    ax.set_title("Nine-ten: who wins, and how")
    ax.legend(fontsize=8)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    return fig
