"""The Nantong long-card (南通長牌) report: ``kaptai report nantong``.

Sections: the rules modelled; exact deal odds; whole hands by role and by win type (Monte
Carlo); the fairness of the 8-round match under each settlement; a summary; methods.  Built by
:func:`kaptai.report.build_report` through the registry entry ``report_sections``.
"""

from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Sequence

import pandas as pd

from kaptai._version import __version__
from kaptai.nantong.rules import RuleSet

__all__ = ["build_sections"]

_TERMS = [
    ("將牌 / 翻將", "jiang", "cards identical to a turned card (2 turned after the deal)"),
    ("雙將", "double jiang", "both turned cards identical"),
    ("老將", "old jiang", "千字, 白花, 紅花 and 九條"),
    ("起手", "opening exposure", "a dealt kong, or all remaining copies of a 將, exposed at the deal"),
    ("和子", "hezi", "both remaining copies of the 雙將 kind (64 or 128)"),
    ("塌和 / 葷和 / 清和", "mixed / all sequences / all triplets", "win types 20 / 50 (doubled) / 100"),
    ("破頭", "round up", "the total rounded up to a multiple of 10"),
    ("荒牌", "exhausted stock", "no card left when one is due"),
]


def _section(title, blocks):
    from kaptai.report.render import Section

    return Section(title, blocks)


def build_sections(players: Sequence[int] = (3, 4), hands: int = 20_000, seed: int = 1, *, workers: int = 1,
                   progress: bool = True, scheduler: str | None = None,
                   checkpoint: str | os.PathLike | None = None) -> tuple[str, list, str, dict[str, Any]]:
    """Compute every section of the report; returns (title, sections, meta line, results)."""
    from kaptai.nantong.fairness import fairness
    from kaptai.nantong.odds import deal_odds
    from kaptai.nantong.simulate import simulate
    from kaptai.report.render import checkpoint_subdir, report_step

    players = sorted({int(p) for p in players if int(p) in (3, 4)}) or [3]
    run = {"checkpoint": checkpoint}
    results: dict[str, Any] = {}
    rules = RuleSet()
    sections = [_section("Rules modelled", [
        ("p", "kaptai models rules/nantong-long-cards.md (the general rules 一般通則); every option of its §6 is "
              "an option of kaptai.nantong.RuleSet with the page's default. The engine is specified in "
              "docs/nantong-engine.md."),
        ("table", pd.DataFrame([{"option": k, "default": str(v)} for k, v in rules.to_dict().items() if k != "name"]),
         "Options and their defaults"),
        ("table", pd.DataFrame(_TERMS, columns=["Chinese", "English", "meaning"]), "Terms"),
    ])]
    report_step(progress, "exact deal odds")
    odds = deal_odds(3)
    results["odds"] = odds
    main = odds[~odds.metric.isin(["opening_hu", "distance"])][["hand", "metric", "breakdown", "value", "exact"]]
    dist = odds[odds.metric == "distance"].pivot(index="level", columns="hand", values="value").reset_index()
    dist["level"] = dist["level"].astype(int)
    sections.append(_section("Exact deal odds", [
        ("p", "Exact integer arithmetic over count vectors; the distance is the exact distance from ready "
              "(shanten) of the dealt hand: -1 complete, 0 ready."),
        ("table", main.reset_index(drop=True), "Turned cards, 起手, natural and ready hands (3 or 4 players alike)"),
        ("table", dist.sort_values("level").reset_index(drop=True), "Distance from ready at the deal"),
    ]))
    sims = []
    for p in players:
        report_step(progress, f"simulate {p} players, {hands:,} hands")
        df = simulate(p, hands=hands, seed=seed, progress=progress, workers=workers, scheduler=scheduler,
                      checkpoint=checkpoint_subdir(run, f"simulate-{p}"))
        sims.append(df)
    sim = pd.concat(sims, ignore_index=True)
    results["simulations"] = sim
    cols = ["players", "metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"]
    sections.append(_section("Whole hands (max_melds policy)", [
        ("p", "Monte Carlo of whole hands with every seat playing max_melds; 95% intervals. Role 0 is the dealer "
              "(23 cards, discards first), 1 the other active players, 2 the 4-player sitter."),
        ("table", sim[sim.relative_to == "role"][cols].reset_index(drop=True), "By role"),
        ("table", sim[sim.relative_to.isna()][cols].reset_index(drop=True), "荒牌, win types and scores"),
    ]))
    fairs = []
    matches = max(20, hands // 24)
    for p in players:
        report_step(progress, f"fairness {p} players, {matches:,} matches")
        fairs.append(fairness(p, matches=matches, seed=seed, progress=progress, workers=workers, scheduler=scheduler,
                              checkpoint=checkpoint_subdir(run, f"fairness-{p}")))
    fair = pd.concat(fairs, ignore_index=True)
    results["fairness"] = fair
    sections.append(_section("Fairness of the 8-round match", [
        ("p", "Each player's match result (players numbered from the first dealer) under each settlement."),
        ("table", fair[fair.metric != "hand_win"][["players", "settlement", "metric", "seat", "value", "ci_low",
                                                    "ci_high"]].reset_index(drop=True), "Match results"),
    ]))
    s3 = sims[0]
    role = s3[(s3.metric == "complete") & (s3.relative_to == "role")].set_index("level").value
    huang = float(s3[s3.metric == "huang_rate"].value.iloc[0])
    ncw = float(s3[(s3.metric == "noncompleter_wins") & s3.level.isna()].value.iloc[0])
    sections.append(_section("Summary for players", [
        ("p", f"The dealer completes {100 * role['dealer']:.1f}% of hands, each other player "
              f"{100 * role['other']:.1f}% (the dealer's 23rd card and first discard)."),
        ("p", f"{100 * huang:.1f}% of hands end with the stock exhausted (荒牌); a player who did not complete "
              f"wins {100 * ncw:.1f}% of all hands on 底胡 alone."),
        ("p", "A 23-card hand is almost never complete as dealt (about 1 in 450,000) and a 22-card hand is "
              "ready about 4 times in 100,000."),
    ]))
    sections.append(_section("Methods", [
        ("p", f"Exact tables: kaptai.nantong.odds. Monte Carlo: {hands:,} hands per player count, seed {seed}, "
              f"chunked through kaptai.core.runner; {matches:,} matches per fairness table."),
    ]))
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · players "
            f"{', '.join(map(str, players))} · {hands:,} hands per simulation · seed {seed}")
    return "Nantong long cards (南通長牌) — odds and fairness report", sections, meta, results
