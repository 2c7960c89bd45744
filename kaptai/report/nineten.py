"""The nine-ten (九支十仔) report: opening odds, claims, who wins how, who pays whom, cutting colours
and the option readings of the rules page, computed in one run (``kaptai report nine-ten``).

The entry point :func:`build_sections` follows the report builder's contract
(:func:`kaptai.report.build_report`): ``(players, hands, seed, **runner) -> (title, sections,
meta, results)``.
"""

from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Sequence

import pandas as pd

from kaptai._version import __version__
from kaptai.nineten.rules import RuleSet

__all__ = ["build_sections"]

_TERMS = [
    ("九支十仔", "nine-ten", "the game: the dealer holds 10 cards, the others 9"),
    ("頭", "tou", "the scoring unit (stake_per_tou money each)"),
    ("吃", "claim", "take an exposed card to complete a pair (mandatory)"),
    ("死牌", "dead card", "a single laid face up because another player claimed its card"),
    ("開招", "kaizhao", "getting the 4th copy of a card from a discard or a flip"),
    ("斷色", "cutting colours", "discarding from the colour with the fewest cards"),
    ("尾椎", "tail", "the 5th bonus-flip card (worth 2)"),
    ("放槍", "discard win", "winning on another's discard; the discarder pays"),
    ("流局", "drawn hand", "a flip is due with the reserve (9 cards) left"),
]


def _sections_import():
    from kaptai.report.render import Section, checkpoint_subdir, report_step

    return Section, checkpoint_subdir, report_step


def build_sections(players: Sequence[int] = (4, 5, 6, 7), hands: int = 20_000, seed: int = 1, *, workers: int = 1,
                   progress: bool = True, scheduler: str | None = None,
                   checkpoint: str | os.PathLike | None = None) -> tuple[str, list, str, dict[str, Any]]:
    """Compute every section of the nine-ten report.

    Returns
    -------
    (title, sections, meta line, results)
    """
    from kaptai.nineten.fairness import compare_variants
    from kaptai.nineten.odds import bonus_flip_distribution, deal_odds
    from kaptai.nineten.simulate import simulate

    Section, sub, step = _sections_import()
    players = sorted({int(p) for p in players if 4 <= int(p) <= 7}) or [4]
    run: dict[str, Any] = {"workers": workers, "scheduler": scheduler}
    results: dict[str, Any] = {}
    sections = []
    d = RuleSet().to_dict()
    sections.append(Section("Rules modelled", [
        ("p", "kaptai models rules/four-colour-nine-ten.md; every option of its §6 exists with its default "
              "(kaptai.nineten.RuleSet). The engine is specified in docs/nine-ten-engine.md."),
        ("table", pd.DataFrame([{"option": k, "default": str(v)} for k, v in d.items() if k != "name"]),
         "Options and their defaults"),
        ("table", pd.DataFrame(_TERMS, columns=["Chinese", "English", "meaning"]), "Terms"),
    ]))
    step(progress, "exact deal odds")
    odds = pd.concat([deal_odds(p) for p in players], ignore_index=True)
    results["odds"] = odds
    ex = odds[odds.method == "exact"]
    pairs = ex[ex.metric == "pairs_distribution"].pivot_table(index="level", columns=["players", "hand"],
                                                             values="value").reset_index()
    pairs.columns = ["pairs"] + [f"{p}p {h}" for p, h in pairs.columns[1:]]
    key = ex[ex.metric.isin(["ready", "natural", "mean_claims"])][["players", "hand", "metric", "value", "exact"]]
    mins = odds[odds.metric == "table_min_claims"].pivot_table(index="level", columns="players",
                                                               values="value").reset_index()
    mins.columns = ["fewest claims at the table"] + [f"{p} players" for p in mins.columns[1:]]
    sections.append(Section("Opening hands (exact)", [
        ("p", "Pairs of the dealer's 10 and another seat's 9 cards; a seat needs exactly 5 - pairs claims "
              "(the lemma of §4). Ready = 4 pairs + 1 single at the deal; natural = the dealer's five pairs."),
        ("table", pairs, "Distribution of pairs at the deal"),
        ("table", key, "Ready, natural and mean claims needed"),
        ("table", mins, "Fewest claims any seat needs (exact up to 4 players, sampled deals beyond)"),
    ]))
    bf = bonus_flip_distribution(40, 10)
    sections.append(Section("The bonus flip (exact)", [
        ("p", "Five stock cards turned after a self-draw or flip win; +1 for each of cards 1-4 and +2 for card 5 "
              "matching one of the winner's pairs. For a stock of S cards with M matches the mean is 6M/S."),
        ("table", pd.DataFrame([{"points": v, "probability": float(p)} for v, p in bf.items()]),
         "Bonus points, S = 40, M = 10 (mean 1.5)"),
    ]))
    sims = {}
    for p in players:
        step(progress, f"simulate {p} players")
        sims[p] = simulate(p, hands=hands, seed=seed, progress=False, checkpoint=sub({"checkpoint": checkpoint},
                                                                                       f"simulate-{p}"), **run)
    results["simulate"] = sims
    rows = []
    for p, df in sims.items():
        w = df[(df.metric == "win") & (df.relative_to == "dealer")]
        for r in w.itertuples():
            rows.append({"players": p, "seat from dealer": int(r.seat), "win": r.level, "P": r.value,
                         "ci_low": r.ci_low, "ci_high": r.ci_high})
    wins = pd.DataFrame(rows)
    nets = pd.concat([df[(df.metric == "net_mean") & (df.relative_to == "dealer")].assign(players=p)
                      for p, df in sims.items()])[["players", "seat", "value", "ci_low", "ci_high"]]
    misc = pd.concat([df[df.metric.isin(["drawn_rate", "tou_mean", "bonus_flip_rate", "bonus_mean",
                                         "dealer_advantage", "kaizhao_rate", "claims_mean", "flips_mean"])]
                      .assign(players=p) for p, df in sims.items()])[["players", "metric", "value", "ci_low", "ci_high"]]
    cols = pd.concat([df[df.metric == "colours"].assign(players=p) for p, df in sims.items()])[
        ["players", "level", "value", "ci_low", "ci_high"]]
    sections.append(Section("Who wins, how, and who pays (Monte Carlo, colour_cut everywhere)", [
        ("table", wins[wins.win == "any"], "P(win) by seat counter-clockwise from the dealer"),
        ("table", wins[wins.win != "any"], "P(win) by type and seat"),
        ("table", cols, "Colours k of the winning hand"),
        ("table", nets, "Mean net money per hand by seat from the dealer (stake 10 per 頭)"),
        ("table", misc, "Other figures"),
    ]))
    step(progress, "policies")
    pol = compare_variants("policies", players[0], hands=hands, seed=seed, progress=False, **run)
    results["policies"] = pol
    sections.append(Section("Cutting colours (斷色) against other discard habits", [
        ("table", pol[(pol.metric == "net_mean") & (pol.relative_to == "seat") & (pol.seat == 0)]
         [["variant", "value", "ci_low", "ci_high"]], f"Net money per hand of seat 0, {players[0]} players"),
        ("table", pol[pol.metric.isin(["mean_transfer", "dealer_advantage"])]
         [["variant", "metric", "value", "ci_low", "ci_high"]], "Money moved per hand and dealer advantage"),
    ]))
    step(progress, "option readings")
    opt = compare_variants("options", players[0], hands=hands, seed=seed, progress=False, **run)
    results["options"] = opt
    sections.append(Section("Which option readings change the money", [
        ("table", opt[opt.metric.isin(["dealer_advantage", "mean_transfer", "tou_mean"])]
         [["variant", "metric", "value", "ci_low", "ci_high"]], f"{players[0]} players, colour_cut"),
        ("table", opt[(opt.metric == "net_sd") & (opt.relative_to == "dealer")]
         [["variant", "seat", "value"]], "Standard deviation of each seat's net per hand"),
    ]))
    sections.append(Section("Methods", [
        ("p", f"Exact odds by integer enumeration of count vectors grouped by symmetry (kaptai.nineten.odds); "
              f"{hands:,} hands per simulation with seed {seed}, compiled engine, 95% intervals (Wilson for "
              f"proportions, normal for means). Variants share the seed (common deals at the start of every "
              f"chunk)."),
    ]))
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · "
            f"players {', '.join(map(str, players))} · {hands:,} hands per simulation · seed {seed}")
    return "Nine-ten (九支十仔) — odds, claims and money report", sections, meta, results
