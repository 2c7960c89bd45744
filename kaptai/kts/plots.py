"""Figures of Kap Tai Shap (夾大十) fairness and sessions (matplotlib).

Each function draws one figure from a table of :mod:`kaptai.kts.fairness` or a
:class:`kaptai.kts.sessions.SessionResult`, and saves it when ``path`` is given (a figure made here
is then closed: released from pyplot).  Text is drawn with the packaged CJK font
(:mod:`kaptai.core.plotting`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from kaptai.core.plotting import save_figure, with_cjk_font
from kaptai.errors import RulesError
from kaptai.kts.rules import settlement_unit
from kaptai.kts.sessions import SessionResult

__all__ = ["plot_seat_ev", "plot_cut_curve", "plot_fairness", "plot_win_modes", "plot_bankroll_fan"]


# --------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------


def _figure(**kw):
    from matplotlib.figure import Figure

    return Figure(**kw)


def _save(fig, path, *, close: bool = True):
    """Save ``fig`` when ``path`` is given; a figure made here (``close``) is then released from pyplot."""
    return save_figure(fig, path, close=close, dpi=120)


@with_cjk_font
def plot_seat_ev(df: pd.DataFrame, relative_to: str = "dealer", ax=None, path=None):
    """Bars of every seat's EV per hand with their confidence intervals, one group per variant.

    Parameters
    ----------
    df : pandas.DataFrame
        A table of :func:`compare_variants`.
    relative_to : {'dealer', 'first_hand'}
        Seat numbering.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in (default: a new Figure).
    path : str or path, optional
        Save the figure there.

    Returns
    -------
    matplotlib.figure.Figure
    """
    sub = df[(df.metric == "ev_per_hand") & (df.relative_to == relative_to)]
    if sub.empty:
        raise RulesError("the table has no ev_per_hand rows to plot")
    own = ax is None
    fig = ax.figure if ax is not None else _figure(figsize=(8, 4.5))
    ax = ax if ax is not None else fig.subplots()
    names = list(dict.fromkeys(sub.variant))
    seats = sorted(int(s) for s in sub.seat.dropna().unique())
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        d = sub[sub.variant == name].sort_values("seat")
        x = d.seat.astype(int).to_numpy() + (i - (len(names) - 1) / 2) * width
        err = np.vstack([d.value - d.ci_low, d.ci_high - d.value])
        house = df[(df.variant == name) & (df.metric == "house_take_per_hand")].value
        label = name if house.empty else f"{name} (house {house.iloc[0]:.3f}/hand)"
        ax.bar(x, d.value, width, yerr=err, capsize=3, label=label)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(seats)
    who = "dealer" if relative_to == "dealer" else "first hand"
    ax.set_xticklabels([f"{who}" if s == 0 else f"+{s}" for s in seats])
    ax.set_xlabel(f"seat (relative to the {who})")
    ax.set_ylabel(f"EV per hand ({_unit_of(df)})")
    ax.set_title("Expected result per hand, 95% intervals")
    if len(names) > 4:  # many variants: the legend below the bars, not over them
        ax.legend(fontsize=7, ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.16))
    else:
        ax.legend(fontsize=8)
    return _save(fig, path, close=own)


def _unit_of(df: pd.DataFrame) -> str:
    """The unit of a table's EVs: antes under the pot, points under advanced scoring."""
    units = {settlement_unit(s) for s in df.settlement.dropna()} if "settlement" in df.columns else set()
    if len(units) > 1:
        return "antes under the pot, points under advanced"
    return units.pop() if units else settlement_unit("pot")


@with_cjk_font
def plot_cut_curve(df: pd.DataFrame, relative_to: str = "dealer", ax=None, path=None):
    """Seat EVs and the house's take per hand against the house cut.

    ``df`` holds several variants differing in ``house_cut`` (:func:`cut_curve`, or
    ``compare_variants('house_cut')``).

    Returns
    -------
    matplotlib.figure.Figure
    """
    own = ax is None
    fig = ax.figure if ax is not None else _figure(figsize=(7, 4.5))
    ax = ax if ax is not None else fig.subplots()
    ev = df[(df.metric == "ev_per_hand") & (df.relative_to == relative_to)].sort_values("house_cut")
    for seat, d in ev.groupby("seat"):
        who = (f"seat {seat} from the dealer" if relative_to == "dealer" else f"seat {seat} from the first hand")
        ax.plot(d.house_cut, d.value, marker="o", ms=3, label=f"{who} EV")
        ax.fill_between(d.house_cut, d.ci_low, d.ci_high, alpha=0.15)
    h = df[df.metric == "house_take_per_hand"].sort_values("house_cut")
    ax.plot(h.house_cut, h.value, color="black", lw=2, label="house take")
    ax.axhline(0, color="grey", lw=0.8)
    be = df[df.metric == "break_even_cut"].value
    if len(be):
        ax.axvline(float(be.iloc[0]), color="red", ls="--", lw=1, label=f"break-even cut {be.iloc[0]:.3f}")
    ax.set_xlabel("house cut")
    ax.set_ylabel(f"per hand ({_unit_of(df)})")
    ax.set_title("EV and house take against the cut")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return _save(fig, path, close=own)


@with_cjk_font
def plot_fairness(df: pd.DataFrame, path=None):
    """The figure of ``kaptai fairness --plot``: seat EVs per variant and the house take.

    Left: seat EVs relative to the dealer with 95% bars; right: the house's take per hand
    per variant (with intervals).  When the table holds several cuts of one settlement, the
    right panel is the EV-against-cut curve instead.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = _figure(figsize=(12, 4.5), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[2, 1])
    plot_seat_ev(df, "dealer", ax=left)
    cuts = df.drop_duplicates("variant")
    if cuts.house_cut.nunique() > 2 and cuts.settlement.nunique() == 1:
        plot_cut_curve(df, ax=right)
    else:
        h = df[df.metric == "house_take_per_hand"]
        err = np.vstack([h.value - h.ci_low, h.ci_high - h.value])
        right.bar(range(len(h)), h.value, yerr=err, capsize=3, color="grey")
        right.set_xticks(range(len(h)))
        from kaptai.core.output import wrap_label

        right.set_xticklabels([wrap_label(v, 12) for v in h.variant], fontsize=8)
        right.set_ylabel("house take per hand")
        right.set_title("House take")
    return _save(fig, path)


# --------------------------------------------------------------------------------------
# Sessions
@with_cjk_font
def plot_win_modes(df: pd.DataFrame, ax=None, path=None):
    """Stacked shares of natural / claimed / self-drawn wins per variant.

    Parameters
    ----------
    df : DataFrame
        A table of :func:`compare_variants` (metrics ``win_share_*``).
    ax : matplotlib Axes, optional
    path : str or path, optional
        Save the figure there too.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    modes = ["natural", "claimed", "self_drawn"]
    q = df[df.metric.isin([f"win_share_{m}" for m in modes])]
    if q.empty:
        raise RulesError("plot_win_modes needs the win_share_* metrics of compare_variants()")
    table = q.pivot_table(index="variant", columns="metric", values="value", sort=False)
    own = ax is None
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(table) + 2), 3.5))
    else:
        fig = ax.figure
    bottom = np.zeros(len(table))
    for m in modes:
        vals = table[f"win_share_{m}"].to_numpy()
        ax.bar(range(len(table)), vals, bottom=bottom, label=m.replace("_", "-"))
        bottom += vals
    ax.set_ylabel("share of wins")
    ax.set_ylim(0, 1)
    ax.set_title("How hands are won")
    ax.legend(loc="upper right", fontsize=8)
    from kaptai.core.output import wrap_label

    ax.set_xticks(range(len(table)), [wrap_label(v, 12) for v in table.index.astype(str)], fontsize=8)
    fig.tight_layout()
    return save_figure(fig, path, close=own)




@with_cjk_font
def plot_bankroll_fan(result: SessionResult, seats: Sequence[int] | None = None, ax=None, path=None):
    """Fan chart of bankroll paths: median and 5-95% / 25-75% bands per seat, house take.

    Returns
    -------
    matplotlib.figure.Figure
    """
    r = result
    own = ax is None
    fig = ax.figure if ax is not None else _figure(figsize=(8, 4.5))
    ax = ax if ax is not None else fig.subplots()
    t = np.arange(r.bankrolls.shape[1])
    for s in seats if seats is not None else range(r.players):
        q = np.quantile(r.bankrolls[:, :, s], [0.05, 0.25, 0.5, 0.75, 0.95], axis=0)
        (line,) = ax.plot(t, q[2], label=f"seat {s} median")
        ax.fill_between(t, q[0], q[4], color=line.get_color(), alpha=0.1)
        ax.fill_between(t, q[1], q[3], color=line.get_color(), alpha=0.2)
    ax.plot(t, np.median(r.house, axis=0), color="black", ls="--", label="house take (median)")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("hand")
    ax.set_ylabel("bankroll")
    ax.set_title(f"{r.variant}: bankrolls over {t[-1]} hands ({r.bankrolls.shape[0]} sessions)")
    ax.legend(fontsize=8)
    return _save(fig, path, close=own)
