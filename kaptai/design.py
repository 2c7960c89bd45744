"""``kaptai design <game>``: the rule-design search of one game (:mod:`kaptai.core.design`).

A game with a module ``kaptai/<pkg>/design.py`` defining ``DESIGN`` (a
:class:`kaptai.core.design.DesignGame`) is searched with it (Heaven Eleven: its scoring under
adaptive bidders).  Any other game with an atlas feed (``GameSpec.atlas``) gets a design game
built from the feed (:func:`feed_design`): the rule options its main variants change (all
their values where ``OPTION_VALUES`` of its ``rules.py`` lists a few), each deal played from its own seed under every variant
with the feed's ``rows`` (the reference seat's edge, the house take) and its ``deal_rows``
(the value of skill: one seat playing the feed's default policy minus the random policy, the
same deal).

Examples
--------
>>> from kaptai.design import design_game
>>> g = design_game("heaven-eleven")
>>> g.game, list(g.space)
('heaven-eleven', ['short_penalty', 'match_bonus', 'over_penalty'])
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import numpy as np

from kaptai.core.design import DesignGame, DesignMeasure, DesignVariant, design

__all__ = ["design_game", "feed_design", "run_design", "recommendation", "plot_front"]

#: Options of more values than this are left out of a feed's default space (``--options`` can
#: still name any of them).
_MAX_VALUES = 4


def _feed(game: str) -> Any:
    from kaptai.games import game as spec_of

    spec = spec_of(game)
    if not spec.atlas:
        from kaptai.errors import UsageError

        raise UsageError(f"{spec.name} has no atlas feed, so no design search")
    mod, _, name = spec.atlas.partition(":")
    return spec, getattr(importlib.import_module(mod), name)


def _generic_rows(game: str, variant: DesignVariant, chunk: Any) -> dict[str, np.ndarray]:
    from kaptai.core.atlas import AtlasJob, AtlasVariant
    from kaptai.core.league import deal_seeds
    from kaptai.core.runner import Chunk

    _, feed = _feed(game)
    base = feed.variants[0]
    av = AtlasVariant(variant.name, tuple(variant.options), base.players)
    players = base.players
    field = (feed.default_policy,) * players
    n = int(chunk.size)
    out = {k: np.zeros(n) for k in ("edge", "sq", "house", "staked", "skill")}
    for j, seed in enumerate(deal_seeds(chunk)):
        i = int(chunk.start) + j
        one = Chunk(i, i, 1, seed)
        r = feed.rows(AtlasJob(game, av, field), one)
        net = np.asarray(r["net"], dtype=np.float64)[0]
        gross = np.asarray(r["gross"], dtype=np.float64)[0]
        out["edge"][j] = net[0] - (net.sum() - net[0]) / (players - 1)
        out["sq"][j] = float((net * net).mean())
        out["house"][j] = float(gross.sum() - net.sum())
        out["staked"][j] = float(np.asarray(r["staked"])[0])
        seat = (i // players) % players
        mixed = list(field)
        mixed[seat] = feed.random_policy
        a, b = feed.deal_rows(av, [field, tuple(mixed)], one)
        out["skill"][j] = float(a["net"][0, seat] - b["net"][0, seat])
    return out


def _options_of(package: str) -> dict[str, tuple]:
    rules = importlib.import_module(f"{package}.rules")
    values = dict(getattr(rules, "OPTION_VALUES", {}))
    default = rules.resolve_rules(None)
    out: dict[str, tuple] = {}
    for k, vals in values.items():
        d = getattr(default, k, None)
        vals = tuple(vals)
        if d in vals:
            vals = (d,) + tuple(v for v in vals if v != d)
        out[k] = vals
    return out


def _feed_space(spec: Any, feed: Any, options: dict[str, tuple]) -> dict[str, tuple]:
    """The options the feed's main variants change (at the default variant's player count), with
    their values (all of them when they are few, else the default and the feed's)."""
    rules = importlib.import_module(f"{spec.package}.rules")
    base = rules.resolve_rules(None).to_dict()
    seen: dict[str, list] = {}
    for v in feed.variants[1:]:
        if v.players != feed.variants[0].players:
            continue
        pairs = (list(v.rules) if isinstance(v.rules, tuple) else
                 [(k, x) for k, x in rules.resolve_rules(v.rules).to_dict().items() if k != "name" and base.get(k) != x])
        for k, x in pairs:
            if isinstance(x, (list, dict, set)) or isinstance(base.get(k), (list, dict, set)):
                continue  # a set of forms or the like: not one value of a grid (--options cannot take it either)
            seen.setdefault(k, [base.get(k)])
            if x not in seen[k]:
                seen[k].append(x)
    space: dict[str, tuple] = {}
    for k, vals in seen.items():
        full = options.get(k)
        space[k] = full if full is not None and len(full) <= _MAX_VALUES else tuple(vals)
        if k not in options:
            options[k] = tuple(vals)
    return dict(list(space.items())[:4])


@functools.lru_cache(maxsize=None)
def feed_design(game: str) -> DesignGame:
    """A design game built from a game's atlas feed (see the module's text): its default space is
    the options the feed's main variants change."""
    spec, feed = _feed(game)
    options = _options_of(spec.package)
    space = _feed_space(spec, feed, options)
    if not space:
        space = dict(list({k: v for k, v in options.items() if 2 <= len(v) <= _MAX_VALUES}.items())[:3])
    rows = functools.partial(_generic_rows, spec.name)
    return DesignGame(
        game=spec.name, space=space, options=options, rows=rows, chunk_hands=25,
        measures=(
            DesignMeasure("seat_edge", "mean", ("edge",), "report", feed.unit,
                          f"the {feed.reference_seat}'s result minus the mean of the other seats'"),
            DesignMeasure("seat_edge_share", "per_swing", ("edge", "sq"), "zero", "share of the swing",
                          "seat_edge over the swing"),
            DesignMeasure("house_take", "ratio", ("house", "staked"), "min", "share of the money staked",
                          "the house's take per unit staked"),
            DesignMeasure("value_of_skill", "mean", ("skill",), "report", feed.unit,
                          f"one seat playing {feed.default_policy} minus {feed.random_policy}, same deal"),
            DesignMeasure("value_of_skill_share", "per_swing", ("skill", "sq"), "max", "share of the swing",
                          "value_of_skill over the swing"),
            DesignMeasure("swing", "root_mean", ("sq",), "report", feed.unit, "the SD of one seat's result"),
        ),
        notes=(f"Built from the atlas feed: {feed.default_policy} at every seat; deal i from its own seed under "
               "every variant (the same cards where the engine deals before anything else draws and the "
               "variant keeps the deck and the players); value of skill on the feed's duplicate deals."),
    )


def design_game(game: str) -> DesignGame:
    """The game's :class:`~kaptai.core.design.DesignGame`: its own ``design.py`` or one built from its feed."""
    from kaptai.games import game as spec_of

    spec = spec_of(game)
    try:
        mod = importlib.import_module(f"{spec.package}.design")
    except ModuleNotFoundError as exc:
        if exc.name != f"{spec.package}.design":
            raise
        return feed_design(spec.name)
    return mod.DESIGN


def recommendation(df: Any) -> dict[str, Any] | None:
    """Among the variants of the last round whose first ``zero`` measure's interval contains 0,
    the one with the largest first ``max`` measure; with its cost in that measure (the paired
    difference to the default, interval).  None if no variant's interval contains 0.

    >>> import pandas as pd
    >>> df = pd.DataFrame({"variant": ["default", "default", "a", "a"], "round": [1, 1, 1, 1],
    ...     "measure": ["e", "s", "e", "s"], "goal": ["zero", "max", "zero", "max"], "value": [2.0, 1.0, 0.1, 0.8],
    ...     "zero_in_ci": [False, False, True, False], "diff": [0, 0, -1.9, -0.2], "diff_low": [0, 0, -2.5, -0.3],
    ...     "diff_high": [0, 0, -1.3, -0.1], "ci_low": [1.5, 0.9, -0.2, 0.7], "ci_high": [2.5, 1.1, 0.4, 0.9]})
    >>> recommendation(df)["variant"]
    'a'
    """
    last = df["round"].max()
    fin = df[df["round"] == last]
    zero = fin[fin.goal == "zero"].measure.unique()
    best = fin[fin.goal == "max"].measure.unique()
    if not len(zero) or not len(best):
        return None
    ok = set(fin[(fin.measure == zero[0]) & fin.zero_in_ci].variant)
    cand = fin[(fin.measure == best[0]) & fin.variant.isin(ok)]
    if cand.empty:
        return None
    row = cand.sort_values("value", ascending=False).iloc[0]
    edge = fin[(fin.measure == zero[0]) & (fin.variant == row.variant)].iloc[0]
    return {"variant": row.variant, "zero_measure": zero[0], "zero": (edge.value, edge.ci_low, edge.ci_high),
            "measure": best[0], "value": (row.value, row.ci_low, row.ci_high),
            "cost": (row["diff"], row.diff_low, row.diff_high)}


def plot_front(df: Any, path: Any = None) -> Any:
    """The last round's variants: the first ``zero`` measure (x) against the first ``max`` measure
    (y), 95% intervals, the front in colour; saved to ``path`` if given."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import save_figure

    last = df["round"].max()
    fin = df[df["round"] == last]
    zx = fin[fin.goal == "zero"].measure.unique()[0]
    my = fin[fin.goal == "max"].measure.unique()[0]
    x = fin[fin.measure == zx].set_index("variant")
    y = fin[fin.measure == my].set_index("variant")
    fig, ax = plt.subplots(figsize=(10, 5.5))
    key = []
    for k, v in enumerate(x.index, start=1):
        on = bool(x.loc[v, "front"])
        ax.errorbar(x.loc[v, "value"], y.loc[v, "value"],
                    xerr=[[x.loc[v, "value"] - x.loc[v, "ci_low"]], [x.loc[v, "ci_high"] - x.loc[v, "value"]]],
                    yerr=[[y.loc[v, "value"] - y.loc[v, "ci_low"]], [y.loc[v, "ci_high"] - y.loc[v, "value"]]],
                    fmt="o", color="C3" if on else "0.6", capsize=3, label="front" if on else "other")
        # a number at the point and the name in the key beside the axes: names of variants with
        # close values would print over each other
        ax.annotate(str(k), (x.loc[v, "value"], y.loc[v, "value"]), fontsize=7, xytext=(3, 3),
                    textcoords="offset points", color="C3" if on else "0.3")
        key.append(f"{k}  {v}" + ("  (front)" if on else ""))
    ax.text(1.02, 1.0, "\n".join(key), transform=ax.transAxes, va="top", ha="left", fontsize=7,
            family="monospace")
    ax.axvline(0, color="0.3", lw=0.8)
    h, lab = ax.get_legend_handles_labels()
    uniq = dict(zip(lab, h))
    ax.legend(uniq.values(), uniq.keys())
    ax.set_xlabel(f"{zx} ({x['unit'].iloc[0]}; 0 is fair)")
    ax.set_ylabel(f"{my} ({y['unit'].iloc[0]})")
    ax.set_title(f"{df.attrs.get('game', '')}: rule variants after {int(x['deals'].max())} shared deals, 95% intervals")
    fig.tight_layout()
    if path is not None:
        save_figure(fig, path, close=False)
    return fig


def run_design(game: str, **kwargs: Any) -> Any:
    """:func:`kaptai.core.design.design` of the game's design game (keywords as there)."""
    return design(design_game(game), **kwargs)
