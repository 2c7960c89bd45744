"""Figures of Big Two (鋤大D) fairness (matplotlib)."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from kaptai.core.plotting import save_figure, with_cjk_font

__all__ = ["plot_fairness"]


@with_cjk_font
def plot_fairness(df: pd.DataFrame, path: str | os.PathLike | None = None, relative_to: str = "leader"):
    """Bar chart of each variant's EV per seat (with 95% intervals) and win rate by seat.

    Returns the matplotlib Figure (saved to ``path`` if given, and then closed: released from
    pyplot).
    """
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    ev = df[(df.metric == "ev_per_hand") & (df.relative_to == relative_to)]
    variants = list(dict.fromkeys(ev.variant))
    seats = sorted(set(ev.seat.dropna().astype(int)))
    fig, ax = plt.subplots(figsize=(min(13.0, max(6.0, 1.25 * len(variants) + 1.5)), 4.4))
    width = 0.8 / max(len(seats), 1)
    x = np.arange(len(variants))
    for j, s in enumerate(seats):
        sub = ev[ev.seat == s].set_index("variant").reindex(variants)
        err = np.vstack([sub.value - sub.ci_low, sub.ci_high - sub.value])
        ax.bar(x + j * width - 0.4 + width / 2, sub.value, width, yerr=err, capsize=2,
               label={"seat": f"seat {s}", "finish": f"finishes {s + 1}"}.get(
                   relative_to, "leader" if s == 0 else f"leader + {s}"))
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(x)
    from kaptai.core.output import wrap_label

    ax.set_xticklabels([wrap_label(v, 13) for v in variants], fontsize=8)  # wrapped: no crowded rotated text
    ax.set_ylabel("EV per game (points x stake)")
    what = {"seat": "seat", "finish": "finish position", "leader": "position from the leader"}.get(relative_to, relative_to)
    ax.set_title(f"Big Two: EV per game by {what}, 95% intervals")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save_figure(fig, path)
