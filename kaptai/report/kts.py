"""The Kap Tai Shap (夾大十) strategy report: every number computed in the same run.

Sections: the rules modelled; exact deal odds by player count and ruleset;
simulated win rates by seat and policy; the policy league; pot against
advanced expected values, the house cut and the break-even cut; the fairness
ranking of the scoring variants; a plain-language summary; methods.
"""

from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Sequence

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.output import format_estimate
from kaptai.core.plotting import with_cjk_font
from kaptai.report.render import Section
from kaptai.report.render import checkpoint_subdir as _sub
from kaptai.report.render import report_step as _step
from kaptai.kts.rules import PRESETS, settlement_unit

__all__ = ["build_sections"]

_TERMS = [
    ("夾大十", "Kap Tai Shap", "the game: 'grab many tens'"),
    ("夾十", "Kap Shap", "the two-player game, one set"),
    ("先手", "first hand", "the seat dealt 10 tiles, chosen by the dice"),
    ("莊家", "dealer", "seat 0; throws the dice"),
    ("眼", "eye", "two identical tiles"),
    ("將眼", "general eye", "an eye of 6-6, 1-1, 4-4 or 1-3 (+1 point each)"),
    ("湊十牌", "ten pair", "two tiles whose ten-values sum to 10 or 20"),
    ("相連", "run", "4, 6 or 8 tiles of consecutive run-values"),
    ("搶牌", "claim", "taking the previous player's discard"),
    ("自摸", "self-drawn win", "winning tile from the wall (+1 point)"),
    ("流局", "drawn hand", "the wall runs out with no winner"),
    ("連莊", "dealer streak", "the dealer keeps the deal after a win (+2 per step)"),
]



def _rules_section() -> Section:
    rows = []
    for name, rules in PRESETS.items():
        d = rules.to_dict()
        for key, value in d.items():
            if key == "name":
                continue
            if value is None and key == "sets":
                value = "by player count (§2)"
            rows.append({"option": key, "preset": name, "value": ", ".join(value) if isinstance(value, list) else str(value)})
    table = pd.DataFrame(rows).pivot(index="option", columns="preset", values="value").reset_index()
    table.columns.name = None
    terms = pd.DataFrame(_TERMS, columns=["Chinese", "English", "meaning"])
    return Section(
        "Rules modelled",
        [
            ("p", "kaptai models the rules page docs/rules/kap-tai-shap.md: a win is an eye plus ten pairs (basic form); "
                  "the advanced ruleset adds the general-eyes and run forms and per-score payments. Every option "
                  "below can be changed; the two presets are compared throughout this report."),
            ("table", table, "Presets and their options"),
            ("table", terms, "Terms"),
        ],
    )


@with_cjk_font
def _odds_section(players: Sequence[int], progress: bool) -> tuple[Section, pd.DataFrame]:
    import matplotlib.pyplot as plt

    from kaptai.kts.odds import deal_odds

    frames = []
    for p in players:
        for r in ("traditional", "advanced"):
            _step(progress, f"exact deal odds: {p} players, {r}")
            frames.append(deal_odds(p, r, distance=False))
    odds = pd.concat(frames, ignore_index=True)
    scal = odds[odds.metric.isin(["natural", "ready", "mean_waits"])]
    table = scal.pivot_table(index=["players", "sets"], columns=["metric", "rules"], values="value").reset_index()
    table.columns = [" ".join(str(x) for x in col if x).strip() for col in table.columns]
    for col in table.columns:
        if col.startswith(("natural", "ready")):
            table[col] = 100 * table[col]
    table = table.rename(columns=lambda c: c.replace("natural", "natural %").replace("ready", "ready %"))
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.3))
    for ax, metric, label in zip(axes, ["natural", "ready"],
                                 ["first hand dealt complete (%)", "other hand dealt ready (%)"]):
        for r, marker in (("traditional", "o"), ("advanced", "s")):
            q = scal[(scal.metric == metric) & (scal.rules == r)]
            ax.plot(q.players, 100 * q.value, marker=marker, label=r)
        ax.set_xlabel("players")
        ax.set_ylabel(label)
        ax.set_xticks(list(players))
        ax.grid(alpha=.3)
        ax.legend()
    fig.tight_layout()
    sec = Section(
        "Exact deal odds",
        [
            ("p", "Exact probabilities over every dealt hand (count vectors with hypergeometric weights, exact integer "
                  "arithmetic). 'natural': the first hand's 10 (8) dealt tiles are already a win; 'ready': a dealt "
                  "9 (7)-tile hand is one tile from a win with that tile still available; mean waits: distinct live "
                  "waiting tiles of a ready hand."),
            ("table", table, "Exact deal odds by player count (probabilities in %)"),
            ("figure", fig, "Chance that a dealt hand is complete or ready, by player count and ruleset"),
        ],
    )
    return sec, odds



def _default_policy() -> str:
    """The game's default policy: the one every seat of the atlas's default table plays
    (:data:`kaptai.kts.atlas.FEED`), so the report's seat figures are the atlas's."""
    from kaptai.kts.atlas import FEED

    return FEED.default_policy


@with_cjk_font
def _seat_section(players: Sequence[int], hands: int, seed: int, run: dict, progress: bool):
    import matplotlib.pyplot as plt

    from kaptai.kts.simulate import simulate

    policy = _default_policy()
    frames = []
    for i, p in enumerate(players):
        for j, r in enumerate(("traditional", "advanced")):
            _step(progress, f"simulate: {p} players, {r}, {hands} hands")
            df = simulate(p, r, hands, seed + 1000 * i + j, policies=policy, workers=run["workers"],
                          progress=False, scheduler=run.get("scheduler"), checkpoint=_sub(run, f"seats-{p}-{r}"))
            frames.append(df)
    sims = pd.concat(frames, ignore_index=True)
    four = sims[(sims.players == (4 if 4 in players else players[0]))]
    wins = four[(four.metric == "win") & (four.relative_to == "first_hand")]
    table = wins[["rules", "seat", "value", "ci_low", "ci_high"]].rename(
        columns={"value": "P(win)", "ci_low": "95% low", "ci_high": "95% high", "seat": "seat from first hand"})
    fig, ax = plt.subplots(figsize=(7, 3.3))
    for k, (r, g) in enumerate(wins.groupby("rules", sort=False)):
        x = g.seat.to_numpy(dtype=float) + (k - 0.5) * 0.25
        ax.errorbar(x, g.value, yerr=[g.value - g.ci_low, g.ci_high - g.value], fmt="o", capsize=3, label=r)
    ax.set_xlabel("seat counted from the first hand (0 = the first hand)")
    ax.set_ylabel("P(win the hand)")
    ax.set_xticks(sorted(wins.seat.unique()))
    ax.grid(alpha=.3)
    ax.legend()
    fig.tight_layout()
    other = sims[(sims.metric.isin(["drawn_hand", "hand_length_mean"]))]
    by_p = other.pivot_table(index="players", columns=["metric", "rules"], values="value").reset_index()
    by_p.columns = [" ".join(str(x) for x in col if x).strip() for col in by_p.columns]
    sec = Section(
        "Simulated win rates by seat",
        [
            ("p", f"Monte Carlo: {hands:,} hands per configuration, the {policy} policy (the game's default, as at "
                  "the atlas's default table) at every seat, 95% intervals "
                  "(Wilson). Seats are counted from the first hand; relative to the dealer the dice spread the "
                  "first hand round the table."),
            ("table", table, f"P(win) by seat, {int(four.players.iloc[0])} players"),
            ("figure", fig, "Win probability by seat counted from the first hand, with 95% intervals"),
            ("table", by_p, "Drawn-hand rate and mean hand length (turns) by player count"),
        ],
    )
    return sec, sims


def _lookahead_gain(league, players: int) -> list[str]:
    """What looking ahead gains over greedy and score play, per ruleset (numbers from ``league``)."""
    import math

    from kaptai.kts.league import _money_units

    out = []
    units = _money_units(league)
    ev = league[(league.players == players) & (league.metric == "ev_per_hand")].set_index(["rules", "policy"])
    for rules in dict.fromkeys(league.rules):
        if (rules, "lookahead") not in ev.index:
            continue
        la = ev.loc[(rules, "lookahead")]
        parts = []
        for other in ("greedy", "score"):
            if (rules, other) not in ev.index:
                continue
            o = ev.loc[(rules, other)]
            d = la.value - o.value
            # independent runs: the half-widths add in quadrature
            half = math.hypot(la.ci_high - la.value, o.ci_high - o.value)
            verdict = "measurably better" if d - half > 0 else ("measurably worse" if d + half < 0 else
                                                                "not measurably different")
            parts.append(f"{d:+.3f} against {other} (95% {d - half:+.3f} to {d + half:+.3f}; {verdict})")
        unit = units[rules]
        out.append(f"{rules}, {players} players: lookahead earns {la.value:+.3f} {unit} per hand, "
                   + " and ".join(parts) + ".")
    return out


def _league_section(players, hands, seed, run, progress):
    from kaptai.kts.league import plot_league, policy_league

    _step(progress, f"policy league: players {list(players)}, {hands} hands per policy")
    league = policy_league(players=tuple(players), rules=("traditional", "advanced"), hands=hands, seed=seed,
                           policies=("random", "greedy", "score", "lookahead"),   # search: its own section
                           workers=run["workers"], progress=False, scheduler=run.get("scheduler"),
                           checkpoint=_sub(run, "league"))
    p4 = 4 if 4 in players else players[0]
    q = league[(league.players == p4) & league.metric.isin(["win", "ev_per_hand", "value_of_play"])]
    table = q[["rules", "policy", "metric", "value", "ci_low", "ci_high"]].rename(
        columns={"ci_low": "95% low", "ci_high": "95% high"})
    fig = plot_league(league, metric="ev_per_hand")
    sec = Section(
        "Policies head to head",
        [
            ("p", "Each policy plays every seat in turn against a field of greedy players (random: uniform legal "
                  "moves; greedy: most live outs, then closest to ready; score: chance of winning in the next draws "
                  "times the expected score; lookahead: the exact look-ahead model of the advisor over the next two "
                  "own looks, optimal hand changes included, P(win) first). EV per hand is in antes for the pot "
                  "game and in points under advanced scoring; 'value of play' is the EV gained over random play."),
            *[("p", t) for t in _lookahead_gain(league, p4)],
            ("table", table, f"League, {p4} players, {hands:,} hands per policy and seat rotation"),
            ("figure", fig, "EV per hand by policy and player count against a greedy field, 95% intervals"),
        ],
    )
    return sec, {"league": league}


#: Most hands per policy of the "How much skill is worth" leagues (a fifth of --hands; search plays
#: ~150 hands a second).
SKILL_HANDS: int = 8_000


def _skill_shortfall(lg: pd.DataFrame) -> list[str]:
    """Where search's margin over the best other policy of the greedy field's league has an
    interval that includes 0: one sentence per such preset saying by how much it falls short,
    then one saying why (none when every margin excludes 0).

    >>> import pandas as pd
    >>> row = dict(opponents="greedy", hands=4000)
    >>> lg = pd.DataFrame([dict(row, rules="traditional", policy="search", metric="vs_best_other", value=0.009,
    ...                         ci_low=-0.067, ci_high=0.085),
    ...                    dict(row, rules="traditional", policy="lookahead", metric="ev_per_hand", value=0.06,
    ...                         ci_low=0.01, ci_high=0.11)])
    >>> print(_skill_shortfall(lg)[0])
    traditional: search minus the best other policy (lookahead) is +0.009 antes a hand (-0.067 to +0.085, 4,000 hands): the interval includes 0, so search does not measurably beat it; an edge above +0.085 antes a hand is ruled out at 95%.
    """
    from kaptai.kts.config import SEARCH_Z
    from kaptai.kts.league import _money_units

    out = []
    units = _money_units(lg)
    d = lg[(lg.metric == "vs_best_other") & (lg.policy == "search") & (lg.opponents == "greedy")]
    for r in d.itertuples():
        if not r.ci_low <= 0.0 <= r.ci_high:
            continue
        unit = units[r.rules]
        others = lg[(lg.metric == "ev_per_hand") & (lg.rules == r.rules) & (lg.opponents == "greedy")
                    & (lg.policy != "search")]
        best = f" ({others.loc[others.value.idxmax()].policy})" if len(others) else ""
        out.append(f"{r.rules}: search minus the best other policy{best} is {r.value:+.3f} {unit} a hand "
                   f"({r.ci_low:+.3f} to {r.ci_high:+.3f}, {int(r.hands):,} hands): the interval includes 0, so "
                   f"search does not measurably beat it; an edge above {r.ci_high:+.3f} {unit} a hand is ruled "
                   "out at 95%.")
    if out:
        doc = 0.0225  # docs/kap-tai-shap.md, 'Strength against each field': traditional, a lookahead field
        out.append("The search keeps the look-ahead's choice unless another option beats it by more than "
                   f"{SEARCH_Z:g} standard errors of the paired difference, so it plays most hands exactly as the "
                   "look-ahead would and its edge is small against the swing of a hand: docs/kap-tai-shap.md "
                   f"('Strength against each field') measured +{doc} antes a hand (+0.0072 to +0.0377) for one "
                   "search seat against three lookahead players in the pot game on 8,000 hands of duplicate deals "
                   "(a different table from this league's greedy field).")
    return out


def _skill_section(players, hands, seed, run, progress):
    """How much skill is worth: the search player against the default (greedy) field and against
    a random field, through the duplicate league: search minus each field, paired over the deals,
    averaged over the seats and at each seat from the dealer."""
    from kaptai.kts.config import SEARCH_SAMPLES, SEARCH_SAMPLES_ADVANCED, SEARCH_Z
    from kaptai.kts.league import _money_units, policy_league
    from kaptai.report.render import (
        league_caption,
        league_skill_table,
        skill_difference_table,
        skill_difference_text,
        skill_differences,
        skill_seat_differences,
        skill_seat_table,
    )

    n = max(40, min(int(hands) // 5, SKILL_HANDS))
    leagues, diffs, seats = [], [], []
    for field, pols in (("greedy", ("search", "lookahead", "lookahead_score", "greedy")), ("random", ("search", "random"))):
        _step(progress, f"league: search against a {field} field, {n:,} hands a policy")
        league = policy_league(players=4, rules=("traditional", "advanced"), hands=n, seed=seed + 70, policies=pols,
                               baseline=field, workers=run["workers"], progress=False, scheduler=run.get("scheduler"),
                               checkpoint=_sub(run, f"skill-{field}"))
        diffs += skill_differences(league)
        seats += skill_seat_differences(league)
        leagues.append(league)
    lg = pd.concat(leagues, ignore_index=True)
    units = _money_units(leagues[0])
    for rows in (diffs, seats):  # traditional first, then the greedy field first, then the seats
        rows.sort(key=lambda d: (d["rules"] != "traditional", d["field"] != "greedy", d.get("seat", 0)))
    table = league_skill_table(lg, ("ev_per_hand", "win", "vs_best_other"), 3)
    table.insert(0, "rules", [r for r in lg[lg.metric.isin(["ev_per_hand", "win", "vs_best_other"])
                                            & (lg.policy != lg.opponents)].rules])
    deals = diffs[0]["deals"]
    sec = Section(
        "How much skill is worth",
        [
            ("p", (f"The 'search' player (determinized Monte Carlo, docs/kap-tai-shap-engine.md): at every claim and "
                   f"discard with two or more options it deals {SEARCH_SAMPLES} layouts ({SEARCH_SAMPLES_ADVANCED} under "
                   "advanced scoring) of the tiles it has not seen "
                   "(the other hands and the wall, keeping the tiles others are known to hold from their claims), plays "
                   "every option out with greedy play (pot) or score play (advanced) at every seat, and compares the "
                   "mean result under the settlement in force. It keeps the exact look-ahead's choice (lookahead in "
                   f"the pot game, lookahead_score under advanced scoring) unless an option beats it by more than "
                   f"{SEARCH_Z:g} standard errors of the paired difference. Against a field of three greedy players "
                   "(the default policy) and against three random players, 4 players, on duplicate deals (the league, "
                   f"kaptai league kap-tai-shap): each of {deals:,} deals a table is played with each policy at every "
                   "seat in turn and with the field alone, the same tiles in every arrangement. Search minus the "
                   "field is the search seat's net minus the field's net at the same seat on the same deals, averaged "
                   "over the seats, per hand in antes (pot) or points (advanced), with the paired 95% interval over "
                   "the deals. Seat 0 deals every deal of the league, so the same arrangements also give the "
                   "difference at each seat from the dealer (the deals on which the search sat there).")),
            ("p", skill_difference_text(diffs, 3, units)),
            ("table", skill_difference_table(diffs, 3, units, rules=True),
             "search minus each field on duplicate deals (variance ratio: the variance of the difference under "
             "independent deals over that under duplicate deals)"),
            ("table", skill_seat_table(seats, 3, [f"dealer + {k}" if k else "dealer" for k in range(4)], rules=True),
             "search minus each field at each seat from the dealer, same deals, per hand in antes (traditional) or "
             "points (advanced), paired 95% intervals"),
            ("table", table, (league_caption(n) + ": EV per hand, P(win) and "
                              "the difference from the best other policy of the table (paired over the same deals)")),
            *[("p", p) for p in _skill_shortfall(lg)],
        ],
    )
    return sec, {"skill_league": lg, "skill_differences": pd.DataFrame(diffs), "skill_seats": pd.DataFrame(seats)}


#: The measure the scoring variants are ranked by, and the one shown beside it (never averaged in).
RANK_BY = "first_hand"
SHOWN_BESIDE = "dealer"


def fairness_ranking(comp: pd.DataFrame) -> pd.DataFrame:
    """The scoring variants of ``comp`` ranked by the seat spread counted from the first hand.

    The seat spread is the atlas's ``seat_spread`` (docs/atlas.md): ``max - min`` of the
    seats' EVs per hand, with the simultaneous interval of
    :func:`kaptai.core.stats.spread_interval` (each seat's EV at ``1 - alpha / P``).  The
    dice choose the first hand (先手) afresh every hand, so the spread from the first hand is
    the luck of the seat a player carries; the spread counted from the dealer is shown in its
    own columns and never averaged with it.

    Parameters
    ----------
    comp : pandas.DataFrame
        A :func:`kaptai.kts.fairness.compare_variants` table.

    Returns
    -------
    pandas.DataFrame
        One row per variant, ranked within its unit (antes for the pot settlement, points under
        advanced scoring: a spread in antes is not comparable with one in points), fairest
        first: ``fairness rank``, ``variant``, ``unit``,
        ``spread from the first hand`` with ``first-hand low`` / ``first-hand high`` (its 95%
        interval), ``spread from the dealer`` with ``dealer low`` / ``dealer high``,
        ``first_hand_advantage``, ``sd_hand_result``, ``drawn_hand_rate``, ``hand_length_mean``.

    Examples
    --------
    >>> from kaptai.kts.fairness import compare_variants
    >>> from kaptai.report.kts import fairness_ranking
    >>> comp = compare_variants(["traditional", "advanced"], players=4, hands=500, seed=1, progress=False)
    >>> r = fairness_ranking(comp)
    >>> list(r.columns[:4])
    ['fairness rank', 'variant', 'unit', 'spread from the first hand']
    >>> fh = comp[(comp.metric == "ev_spread") & (comp.relative_to == "first_hand")].set_index("variant").value
    >>> bool((r.set_index("variant")["spread from the first hand"] == fh).all())
    True
    """
    spread = comp[comp.metric == "ev_spread"]
    rows = []
    for v in dict.fromkeys(comp.variant):
        q = comp[comp.variant == v]
        row: dict[str, Any] = {"variant": v,
                               "unit": settlement_unit(q.settlement.iloc[0], singular=True)}
        for rel, name, short in ((RANK_BY, "spread from the first hand", "first-hand"),
                                 (SHOWN_BESIDE, "spread from the dealer", "dealer")):
            e = spread[(spread.variant == v) & (spread.relative_to == rel)]
            if len(e) != 1:
                raise ValueError(f"variant {v!r}: expected one ev_spread row relative to {rel!r}, found {len(e)}")
            e = e.iloc[0]
            row[name] = float(e.value)
            row[f"{short} low"] = float(e.ci_low)
            row[f"{short} high"] = float(e.ci_high)
        for metric in ("first_hand_advantage", "sd_hand_result", "drawn_hand_rate", "hand_length_mean"):
            m = q[q.metric == metric]
            row[metric] = float(m.value.iloc[0]) if len(m) else float("nan")
        rows.append(row)
    table = pd.DataFrame(rows)
    units = list(dict.fromkeys(table.unit))
    table = table.assign(_u=table.unit.map(units.index)).sort_values(
        ["_u", "spread from the first hand"], kind="stable").drop(columns="_u").reset_index(drop=True)
    table.insert(0, "fairness rank", table.groupby("unit", sort=False).cumcount() + 1)
    return table


@with_cjk_font
def _fairness_section(players, hands, seed, run, progress):
    import matplotlib.pyplot as plt

    from kaptai.kts.fairness import VARIANT_SETS, compare_variants, cut_curve
    from kaptai.kts.plots import plot_cut_curve, plot_seat_ev

    p4 = 4 if 4 in players else players[0]
    policy = _default_policy()
    _step(progress, f"fairness: presets, {p4} players, {hands} hands")
    opts = {"workers": run["workers"], "scheduler": run.get("scheduler"), "policies": policy}
    presets = compare_variants(["traditional", "advanced"], players=p4, hands=hands, seed=seed, progress=False,
                               checkpoint=_sub(run, "presets"), **opts)
    ev = presets[(presets.metric == "ev_per_hand")]
    ev_table = ev[["variant", "relative_to", "seat", "value", "ci_low", "ci_high"]].rename(
        columns={"value": "EV per hand", "ci_low": "95% low", "ci_high": "95% high"})
    fig_ev, axes = plt.subplots(1, 2, figsize=(10, 3.5))
    plot_seat_ev(presets, relative_to="dealer", ax=axes[0])
    plot_seat_ev(presets, relative_to="first_hand", ax=axes[1])
    fig_ev.tight_layout()

    _step(progress, "fairness: house cut 0-10%")
    cuts = cut_curve(p4, "traditional", hands, seed, progress=False, checkpoint=_sub(run, "cuts"), **opts)
    fig_cut = plot_cut_curve(cuts)
    take = cuts[cuts.metric == "house_take_per_hand"][["variant", "value"]].rename(
        columns={"variant": "cut", "value": "house take per hand (antes)"})
    be_row = presets[(presets.variant == "traditional") & (presets.metric == "break_even_cut")].iloc[0]
    be = float(be_row.value)
    be_ci = (f" (95% interval {100 * float(be_row.ci_low):.2f}–{100 * float(be_row.ci_high):.2f}%)"
             if pd.notna(be_row.ci_low) and pd.notna(be_row.ci_high) else "")

    _step(progress, "fairness: scoring variants")
    variants = {**VARIANT_SETS["forms_settlement"], **VARIANT_SETS["base_combination"]}
    comp = compare_variants(variants, players=p4, hands=hands, seed=seed, progress=False,
                            checkpoint=_sub(run, "variants"), **opts)
    rank = fairness_ranking(comp)
    sec = Section(
        "Expected value, house cut and fairness",
        [
            ("p", f"Expected result of each seat per hand, {p4} players, the {policy} policy at every seat (the "
                  f"game's default, as at the atlas's default table), {hands:,} hands: pot game "
                  "(everyone antes 1, the house takes the cut, the winner the rest) for the traditional preset, "
                  "per-score payments for the advanced preset (no cut). Seats relative to the dealer and relative "
                  "to the first hand."),
            ("table", ev_table, "EV per hand by seat (antes / points), 95% intervals"),
            ("figure", fig_ev, "EV per hand by seat, relative to the dealer (left) and to the first hand (right)"),
            ("p", f"The house cut: every seat's EV falls linearly with the cut; the break-even cut, above which every "
                  f"seat loses on average, is {100 * be:.2f}%{be_ci} in the traditional pot game with {p4} players."),
            ("table", take, "House take per hand against the cut (traditional, pot)"),
            ("figure", fig_cut, "EV per seat and house take against the house cut"),
            ("p", "Scoring variants ranked by fairness: the seat spread counted from the first hand (先手, the seat "
                  "the dice choose afresh every hand, so the luck of the seat a player carries), max - min of the "
                  "seats' EVs per hand with its simultaneous 95% interval (each seat's EV at 1 - 0.05/P), the "
                  "atlas's seat_spread definition (docs/atlas.md). Smaller is fairer. The spread counted from the "
                  "dealer is shown in its own columns and is not averaged in. Spreads are in antes for the pot "
                  "variants and in points under advanced scoring (the unit column), so compare within one "
                  "settlement; the standard deviation of a hand's result and the drawn-hand rate say how decisive "
                  "the game is."),
            ("table", rank, "Fairness ranking of the scoring variants by the seat spread from the first hand, "
                            "95% intervals"),
        ],
    )
    trad = presets[presets.variant == "traditional"]
    cut_now = float(trad.house_cut.iloc[0])
    seat_ev = trad[(trad.metric == "ev_per_hand") & (trad.relative_to == "dealer")]
    best_seat = seat_ev.loc[seat_ev.value.idxmax()]
    verdict = ("every seat expects to lose" if float(seat_ev.value.max()) < 0 else
               f"seat {int(best_seat.seat)} from the dealer still expects {float(best_seat.value):+.3f} antes")
    lines = [
        f"House cut: at the traditional {100 * cut_now:.0f}% cut the house takes "
        f"{float(trad[trad.metric == 'house_take_per_hand'].value.iloc[0]):.3f} antes per hand with {p4} players and "
        f"{verdict} (seats from the dealer); the estimated break-even cut is {100 * be:.2f}%{be_ci}.",
        _ranking_line(rank),
    ]
    return sec, {"fairness": presets, "cut_curve": cuts, "variants": comp, "ranking": rank, "summary_lines": lines}


def _ranking_line(rank: pd.DataFrame) -> str:
    """The fairest and the least fair variant of each unit of :func:`fairness_ranking`, with intervals."""
    def spread(r, name: str = "spread from the first hand", short: str = "first-hand") -> str:
        return f"{r[name]:.3f} {r.unit}s, 95% interval {r[short + ' low']:.3f}–{r[short + ' high']:.3f}"

    parts = []
    for unit, g in rank.groupby("unit", sort=False):
        label = "pot settlement" if unit == "ante" else "advanced scoring"
        best, worst = g.iloc[0], g.iloc[-1]
        if len(g) == 1:
            parts.append(f"under {label} only {best.variant} ({spread(best)})")
            continue
        apart = best["first-hand high"] < worst["first-hand low"]
        parts.append(f"under {label} the fairest is {best.variant} ({spread(best)}; from the dealer "
                     f"{spread(best, 'spread from the dealer', 'dealer')}) and the least fair {worst.variant} "
                     f"({spread(worst)}; from the dealer {spread(worst, 'spread from the dealer', 'dealer')})"
                     + ("" if apart else ", their first-hand intervals overlapping: this run does not tell them "
                                         "apart"))
    return "Seat spread from the first hand (先手), scoring variants: " + "; ".join(parts) + "."


EXTRA_SECTIONS = (_league_section, _skill_section, _fairness_section)


def build_sections(
    players: Sequence[int] = (3, 4, 5, 6, 8, 10),
    hands: int = 20_000,
    seed: int = 1,
    *,
    workers: int = 1,
    progress: bool = True,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    extra_sections: Sequence | None = None,
) -> tuple[str, list[Section], str, dict[str, Any]]:
    """Compute every section of the Kap Tai Shap report.

    Returns
    -------
    (title, sections, meta line, results)
        ``results`` holds the computed tables (``odds``, ``simulations``) for tests.
    """
    players = sorted({int(p) for p in players})
    results: dict[str, Any] = {}
    sections = [_rules_section()]
    sec, results["odds"] = _odds_section(players, progress)
    sections.append(sec)
    run = {"workers": workers, "scheduler": scheduler, "checkpoint": checkpoint}
    sec, results["simulations"] = _seat_section(players, hands, seed, run, progress)
    sections.append(sec)
    for make in EXTRA_SECTIONS if extra_sections is None else extra_sections:
        sec, res = make(players, hands, seed, run, progress)
        sections.append(sec)
        lines = res.pop("summary_lines", [])
        results.update(res)
        results.setdefault("summary_lines", []).extend(lines)
    sections.append(_summary_section(results))
    sections.append(_methods_section(players, hands, seed))
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · "
            f"players {', '.join(map(str, players))} · {hands:,} hands per simulation · seed {seed}")
    return "Kap Tai Shap (夾大十) — odds and strategy report", sections, meta, results


def _summary_section(results: dict[str, Any]) -> Section:
    odds, sims = results["odds"], results["simulations"]
    lines = []
    nat = odds[(odds.metric == "natural")]
    p4 = 4 if (nat.players == 4).any() else int(nat.players.iloc[0])
    t = float(nat[(nat.players == p4) & (nat.rules == "traditional")].value.iloc[0])
    a = float(nat[(nat.players == p4) & (nat.rules == "advanced")].value.iloc[0])
    lines.append(f"With {p4} players a dealt first hand is already complete {100 * t:.2f}% of the time under the "
                 f"traditional (basic form only) rules and {100 * a:.2f}% under the advanced forms — {a / t:.1f} times "
                 f"as often (exact).")
    rd = odds[(odds.metric == "ready") & (odds.players == p4)]
    lines.append(f"A dealt 9-tile hand is ready (one tile from a win) {100 * float(rd[rd.rules == 'traditional'].value.iloc[0]):.1f}% "
                 f"of the time (traditional) and {100 * float(rd[rd.rules == 'advanced'].value.iloc[0]):.1f}% (advanced).")
    w = sims[(sims.players == p4) & (sims.metric == "win") & (sims.relative_to == "first_hand")]
    for r in ("traditional", "advanced"):
        g = w[w.rules == r].sort_values("seat")
        best = g.loc[g.value.idxmax()]
        worst = g.loc[g.value.idxmin()]
        lines.append(f"{r.capitalize()}: seat {int(best.seat)} counted from the first hand wins most often "
                     f"({100 * best.value:.1f}%, 95% interval {100 * best.ci_low:.1f}–{100 * best.ci_high:.1f}%), "
                     f"seat {int(worst.seat)} least ({100 * worst.value:.1f}%)"
                     + (": being next after the first hand's discard is worth more than its extra tile."
                        if int(best.seat) == 1 else ".") if int(best.seat) != 0 else
                     f"{r.capitalize()}: the first hand wins most often ({100 * best.value:.1f}%).")
    for line in results.get("summary_lines", []):
        lines.append(line)
    return Section("Summary for players", [("p", line) for line in lines])


def _methods_section(players, hands, seed) -> Section:
    return Section(
        "Methods",
        [
            ("p", "Exact results enumerate every count vector of a dealt hand with its hypergeometric weight "
                  "prod C(K_i, c_i) in exact 64-bit integers; the only division is the final one. They are checked "
                  "in the test suite against an independent computation from a pure-Python reference evaluator."),
            ("p", f"Monte Carlo results play whole hands in the compiled engine: one PCG64 stream per chunk of hands "
                  f"from numpy's SeedSequence({seed} + offset per configuration), so the same seed gives the same "
                  f"report for any number of workers. {hands:,} hands per configuration; intervals are 95% (Wilson "
                  f"for proportions, normal for means)."),
            ("p", f"Generated by kaptai {__version__} with numpy {np.__version__} and pandas {pd.__version__}; "
                  f"player counts {', '.join(map(str, players))}."),
        ],
    )
