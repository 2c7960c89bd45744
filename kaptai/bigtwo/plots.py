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
    # a report page is 9 inches wide at its 110 dpi: more than 6 variants go on two rows of panels
    # (a wider figure would be shrunk, its labels with it)
    rows = [variants] if len(variants) <= 6 else [variants[: (len(variants) + 1) // 2],
                                                   variants[(len(variants) + 1) // 2:]]
    fig, axes = plt.subplots(len(rows), 1, figsize=(max(6.0, min(9.0, 1.25 * len(rows[0]) + 1.5)),
                                                      4.4 if len(rows) == 1 else 7.6),
                             sharey=True, squeeze=False)
    width = 0.8 / max(len(seats), 1)
    from kaptai.core.output import wrap_label

    what = {"seat": "seat", "finish": "finish position", "leader": "position from the leader"}.get(relative_to, relative_to)
    for i, (ax, names) in enumerate(zip(axes[:, 0], rows)):
        x = np.arange(len(names))
        for j, s in enumerate(seats):
            sub = ev[ev.seat == s].set_index("variant").reindex(names)
            err = np.vstack([sub.value - sub.ci_low, sub.ci_high - sub.value])
            ax.bar(x + j * width - 0.4 + width / 2, sub.value, width, yerr=err, capsize=2,
                   label={"seat": f"seat {s}", "finish": f"finishes {s + 1}"}.get(
                       relative_to, "leader" if s == 0 else f"leader + {s}"))
        ax.axhline(0, color="black", lw=0.8)
        ax.set_xticks(x)
        ax.set_xticklabels([wrap_label(v, 13) for v in names], fontsize=8)  # wrapped: no crowded rotated text
        ax.set_xlim(-0.5, len(rows[0]) - 0.5)         # the same bar widths on both rows
        ax.set_ylabel("EV per game (points x stake)")
        if i == 0:
            ax.set_title(f"Big Two: EV per game by {what}, 95% intervals")
            ax.legend(fontsize=8)
    fig.tight_layout()
    return save_figure(fig, path)
