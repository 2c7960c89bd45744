"""Figures of Nantong long cards (南通長牌): deal odds, whole hands and match fairness (matplotlib).

Every function takes a tidy table of an analysis (:func:`kaptai.nantong.odds.deal_odds`,
:func:`kaptai.nantong.simulate.simulate`, :func:`kaptai.nantong.fairness.fairness`), returns a
:class:`matplotlib.figure.Figure` and, when ``path`` is given, also saves it there (and closes it:
the figure returned is released from pyplot).  Nothing is computed here beyond selecting rows: the
numbers drawn are the table's.  Chinese terms are drawn with the packaged CJK font
(:mod:`kaptai.core.plotting`).

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from kaptai.nantong.odds import deal_odds
>>> from kaptai.nantong.plots import plot_deal_odds, plot_distance
>>> odds = deal_odds(3, metrics=("distance", "opening_hu"))
>>> len(plot_deal_odds(odds).axes)
2
>>> [t.get_text() for t in plot_distance(odds).axes[0].get_legend().get_texts()]
['dealer 莊家 (23 cards)', 'other player 閒家 (22 cards)']
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.plotting import cjk_font_family, save_figure, with_cjk_font

__all__ = ["plot_deal_odds", "plot_fairness", "plot_distance", "plot_opening_hu", "plot_roles",
           "plot_score_by_win_type", "plot_match_fairness"]

_HANDS = {"dealer": "dealer 莊家 (23 cards)", "other": "other player 閒家 (22 cards)"}
_HAND_COLORS = {"dealer": "#8b0000", "other": "#3b6ea5"}
_PLAYER_COLORS = {3: "#8b0000", 4: "#3b6ea5"}
_ROLES = {"dealer": "dealer\n莊家", "other": "other player\n閒家", "sitter": "sitter\n夢家 (4 players)"}
_WIN = {"self": "自摸 self-drawn", "discard": "off a discard", "tiancheng": "天成 as dealt"}
_CAT = {"tahe": "塌和 mixed", "hunhe": "葷和 all sequences (×2)", "qinghe": "清和 all triplets"}
_SETTLEMENT = {"rank_only": "rank_only\n(1 point per hand won)",
               "pairwise_difference": "pairwise_difference\n(pairs settle the difference)",
               "winner_collects": "winner_collects\n(the others pay the winner)"}
#: Metric of the report's extra rows: mean total of a hand winner who did not complete.
NONCOMPLETER_METRIC = "noncompleter_winner_hu"


_font_family = cjk_font_family
_cjk = with_cjk_font


def _finish(fig, path):
    """Lay out ``fig``; when ``path`` is given, save it there and release it from pyplot."""
    fig.tight_layout()
    return save_figure(fig, path)


def _yerr(q: pd.DataFrame) -> np.ndarray:
    return np.clip(np.vstack([q.value - q.ci_low, q.ci_high - q.value]).astype(float), 0, None)


def _prob_label(v: float) -> str:
    if v >= 0.01:
        return f"{v:.3f}"
    return f"{v:.1e}"


@_cjk
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
    return _finish(fig, path)


@_cjk
def plot_distance(odds: pd.DataFrame, path: Any = None):
    """Exact distribution of the distance from ready (向聽) of the dealt hand: the dealer's 23
    cards against another player's 22, side by side on a log scale, each bar labelled with its
    probability; from the ``distance`` rows of :func:`kaptai.nantong.odds.deal_odds`."""
    import matplotlib.pyplot as plt

    d = odds[odds.metric == "distance"].copy()
    d["level"] = d["level"].astype(int)
    levels = sorted(d.level.unique())
    x = {lv: i for i, lv in enumerate(levels)}
    fig, ax = plt.subplots(figsize=(10, 4.4))
    width = 0.4
    for k, hand in enumerate(("dealer", "other")):
        part = d[d.hand == hand].sort_values("level")
        if not len(part):
            continue
        xs = np.array([x[lv] for lv in part.level]) + (k - 0.5) * width
        ax.bar(xs, part.value, width=width, color=_HAND_COLORS[hand], label=_HANDS[hand])
        for xi, v in zip(xs, part.value):
            ax.text(xi, v * 1.25, _prob_label(float(v)), ha="center", va="bottom", rotation=90, fontsize=7.5)
    names = {-1: "-1\ncomplete\n(天成)", 0: "0\nready\n(壓莊)"}
    ax.set_xticks(range(len(levels)))
    ax.set_xticklabels([names.get(lv, str(lv)) for lv in levels])
    ax.set_yscale("log")
    lo = float(d.value[d.value > 0].min()) if (d.value > 0).any() else 1e-9
    ax.set_ylim(lo / 5, 30)
    ax.set_xlabel("distance from ready at the deal (cards to exchange; 向聽)")
    ax.set_ylabel("probability (log scale)")
    ax.set_title("Distance from ready of the dealt hand (exact)")
    ax.legend(loc="upper right")
    ax.grid(axis="y", alpha=0.3)
    return _finish(fig, path)


@_cjk
def plot_opening_hu(odds: pd.DataFrame, path: Any = None):
    """Exact distribution of the opening 胡數 (the 底胡 of the dealt hand: concealed triplets,
    起手 kongs and 將 sets, 和子), dealer against the others: the bulk (up to 64) on a linear
    (up to 40) on a linear scale and every value on a log scale; the legend gives the exact mean
    (``opening_hu_mean``)."""
    import matplotlib.pyplot as plt

    d = odds[odds.metric == "opening_hu"].copy()
    d["level"] = d["level"].astype(int)
    means = odds[odds.metric == "opening_hu_mean"].set_index("hand").value
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1, 1.3]})
    width = 1.6
    for k, hand in enumerate(("dealer", "other")):
        part = d[d.hand == hand].sort_values("level")
        if not len(part):
            continue
        label = _HANDS[hand] + (f", mean {float(means[hand]):.2f}" if hand in means.index else "")
        near = part[part.level <= 40]
        ax1.bar(near.level + (k - 0.5) * width, near.value, width=width, color=_HAND_COLORS[hand], label=label)
        for lv, v in zip(near.level, near.value):
            if v >= 0.001:
                ax1.text(lv + (k - 0.5) * width, v, f"{100 * v:.1f}%", ha="center", va="bottom", rotation=90,
                         fontsize=7)
        ax2.plot(part.level, part.value, marker="o", ms=2.5, lw=1, color=_HAND_COLORS[hand], label=label)
    ax1.set_ylim(0, ax1.get_ylim()[1] * 1.15)
    ax1.set_xlabel("opening 胡數 (0 to 40)")
    ax1.set_ylabel("probability")
    ax1.set_xticks(range(0, 41, 4))
    ax1.set_title("Opening 胡數 at the deal (exact)")
    ax1.legend(fontsize=8)
    ax1.grid(axis="y", alpha=0.3)
    ax2.set_yscale("log")
    ax2.set_xlabel("opening 胡數 (all values)")
    ax2.set_ylabel("probability (log scale)")
    ax2.set_xticks(range(0, int(d.level.max()) + 1, 32) if len(d) else [])
    ax2.set_title("Every value (log scale)")
    ax2.grid(alpha=0.3)
    return _finish(fig, path)


@_cjk
def plot_roles(sim: pd.DataFrame, path: Any = None):
    """Hand wins (此局勝利者), completion rate (胡牌) and mean 胡數 by role (dealer, the other
    active players, the 4-player sitter) with 95% intervals, one bar per player count; from the
    ``relative_to='role'`` rows of :func:`kaptai.nantong.simulate.simulate` tables (stacked).

    The first panel draws ``hand_win_share`` (ties split: 1/k to each of k tied winners, the
    atlas's rule; :func:`kaptai.report.nantong.simulate_with_noncompleters`) where the table has
    it, else ``hand_win`` (P(among the winners), a tie counted for every tied player)."""
    import matplotlib.pyplot as plt

    r = sim[sim.relative_to == "role"]
    counts = sorted(int(p) for p in r.players.unique())
    roles = [lv for lv in ("dealer", "other", "sitter") if lv in set(r.level)]
    win = (("hand_win_share", "share of hands won (此局勝利者, ties split)") if (r.metric == "hand_win_share").any()
           else ("hand_win", "hand won (此局勝利者)"))
    panels = [(*win, True), ("complete", "hand completed (胡牌)", True),
              ("hu_mean", "mean 胡數 after 破頭", False)]
    fig, axes = plt.subplots(1, 3, figsize=(11, 4.2))
    width = 0.8 / max(1, len(counts))
    for ax, (metric, title, pct) in zip(axes, panels):
        here = [lv for lv in roles if lv in set(r[r.metric == metric].level)]
        scale = 100.0 if pct else 1.0
        for k, p in enumerate(counts):
            part = r[(r.metric == metric) & (r.players == p)].set_index("level").reindex(here).dropna(subset=["value"])
            if not len(part):
                continue
            xs = np.array([here.index(lv) for lv in part.index]) + (k - (len(counts) - 1) / 2) * width
            ax.bar(xs, part.value * scale, width=width, color=_PLAYER_COLORS.get(p), alpha=0.85,
                   yerr=_yerr(part) * scale, capsize=3, label=f"{p} players")
            for xi, v in zip(xs, part.value * scale):
                text = f"{v:.1f}" + ("%" if pct else "")
                if v > 0:
                    ax.text(xi, v * 0.5, text, ha="center", va="center", fontsize=9, rotation=90, color="white")
                else:
                    ax.text(xi, 0, text + "\n(sits out)", ha="center", va="bottom", fontsize=7.5)
        ax.set_xticks(range(len(here)))
        ax.set_xticklabels([_ROLES[lv] for lv in here], fontsize=8.5)
        ax.set_title(title)
        ax.set_ylabel("% of hands" if pct else "胡數 per hand")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.15)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper right")
    fig.suptitle("Whole hands by role (max_melds policy everywhere; bars are 95% intervals)", fontsize=11)
    return _finish(fig, path)


@_cjk
def plot_score_by_win_type(sim: pd.DataFrame, path: Any = None):
    """Mean total (胡數 after 破頭) of the completer by how and with what it completed (自摸 or
    off a discard; 塌和, 葷和, 清和; 天成), and of a hand winner who did not complete (rows
    ``noncompleter_winner_hu``, level None, when the table has them), with 95% intervals and the
    number of hands; one bar per player count."""
    import matplotlib.pyplot as plt

    s = sim[sim.metric == "score_by_win_type"]
    nc = sim[(sim.metric == NONCOMPLETER_METRIC) & sim.level.isna()]
    counts = sorted(int(p) for p in pd.concat([s.players, nc.players]).unique())
    order = [f"{w}:{c}" for c in ("tahe", "hunhe", "qinghe") for w in ("self", "discard", "tiancheng")]
    found = [lv for lv in order if lv in set(s.level)]
    labels = [f"{_CAT[lv.split(':')[1]]}, {_WIN[lv.split(':')[0]]}" for lv in found]
    levels: list[str | None] = list(found)
    if len(nc):
        levels.append(None)
        labels.append("hand winner who did not complete\n(底胡 only)")
    fig, ax = plt.subplots(figsize=(10, 0.38 * len(levels) * max(1, len(counts)) + 1.6))
    height = 0.8 / max(1, len(counts))
    labelled: set[int] = set()
    for k, p in enumerate(counts):
        for i, lv in enumerate(levels):
            q = (nc[nc.players == p] if lv is None else s[(s.players == p) & (s.level == lv)])
            if not len(q):
                continue
            y = i + (k - (len(counts) - 1) / 2) * height
            v = float(q.value.iloc[0])
            ax.barh(y, v, height=height, color=_PLAYER_COLORS.get(p), alpha=0.85, xerr=_yerr(q), capsize=3,
                    label=None if p in labelled else f"{p} players")
            labelled.add(p)
            ax.text(float(q.ci_high.iloc[0]) if np.isfinite(q.ci_high.iloc[0]) else v, y,
                    f"  {v:.1f}  (n = {int(q.samples.iloc[0]):,})", va="center", fontsize=8)
    ax.set_yticks(range(len(levels)))
    ax.set_yticklabels(labels, fontsize=9)
    ax.invert_yaxis()
    ax.set_xlim(0, ax.get_xlim()[1] * 1.25)
    ax.set_xlabel("mean total of the hand (胡數 after 破頭)")
    ax.set_title("Score by win type (max_melds policy; bars are 95% intervals)")
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return _finish(fig, path)


@_cjk
def plot_match_fairness(fair: pd.DataFrame, path: Any = None):
    """The 8-round (8 圈) match under each settlement: each player's mean match result (top row)
    and share of matches it tops (bottom row), players numbered from the first dealer, with 95%
    intervals; one marker colour per player count, a dashed line at the average over the players
    (what every player gets in a fair match); from :func:`kaptai.nantong.fairness.fairness`
    tables (stacked)."""
    import matplotlib.pyplot as plt

    f = fair[fair.settlement.notna()]
    sts = list(dict.fromkeys(f.settlement))
    counts = sorted(int(p) for p in f.players.unique())
    fig, axes = plt.subplots(2, max(1, len(sts)), figsize=(3.7 * max(1, len(sts)), 6.6), squeeze=False)
    for j, st in enumerate(sts):
        for i, (metric, ylabel) in enumerate((("match_mean", "mean match result"),
                                             ("match_top", "share of matches topped"))):
            ax = axes[i, j]
            for k, p in enumerate(counts):
                q = f[(f.settlement == st) & (f.metric == metric) & (f.players == p)].sort_values("seat")
                if not len(q):
                    continue
                xs = q.seat.astype(int).to_numpy() + (k - (len(counts) - 1) / 2) * 0.22
                c = _PLAYER_COLORS.get(p)
                ax.errorbar(xs, q.value, yerr=_yerr(q), fmt="o", ms=5, capsize=3, color=c, label=f"{p} players")
                ax.axhline(float(q.value.mean()), ls="--", lw=0.9, color=c, alpha=0.7)
            seats = sorted(int(s) for s in f[f.settlement == st].seat.dropna().unique())
            ax.set_xticks(seats)
            ax.set_xticklabels([f"P{s}" + ("\n(first dealer)" if s == 0 else "") for s in seats], fontsize=8.5)
            if i == 0:
                ax.set_title(_SETTLEMENT.get(st, st), fontsize=9.5)
            else:
                from matplotlib.ticker import PercentFormatter

                ax.yaxis.set_major_formatter(PercentFormatter(1.0))
            if j == 0:
                ax.set_ylabel(ylabel)
            ax.grid(axis="y", alpha=0.3)
    axes[0, 0].legend(fontsize=8)
    fig.suptitle("The 8-round match (8 圈): players from the first dealer, 95% intervals;\n"
                 "dashed line = the average over the players", fontsize=10.5)
    return _finish(fig, path)


@_cjk
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
        ax.set_xticks(sorted(int(s) for s in m.seat.dropna().unique()))
        ax.set_ylabel(_MATCH_UNITS.get(str(st), "points") + " a match")
        ax.axhline(0.0, color="0.6", lw=0.8)
        ax.legend(fontsize=7)
    fig.suptitle("Nantong: mean match result per player, 95% intervals")
    return _finish(fig, path)


#: The unit of a match's result under each settlement (docs nantong.md): hand wins under rank_only, 胡數
#: points transferred under the money settlements.
_MATCH_UNITS = {"rank_only": "hand wins", "pairwise_difference": "胡數", "winner_collects": "胡數"}
