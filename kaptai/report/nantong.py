"""The Nantong long-card (南通長牌) report: ``kaptai report nantong``.

Sections: a plain-language summary; the rules modelled; exact deal odds (with figures of the
distance from ready and the opening 胡數); whole hands by role and by win type (Monte Carlo, with
figures); the fairness of the 8-round match under each settlement (with a figure); methods.  Built by
:func:`kaptai.report.build_report` through the registry entry ``report_sections``.
"""

from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Sequence

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.nantong.plots import NONCOMPLETER_METRIC
from kaptai.nantong.rules import RuleSet

__all__ = ["SKILL_HANDS", "WIN_SHARE_METRIC", "build_sections", "simulate_with_noncompleters", "skill_section",
           "win_shares"]

#: The report's hand-win metric: the seat's share of the hand win, a tie split equally (the atlas's rule).
WIN_SHARE_METRIC: str = "hand_win_share"

#: Hands per policy (at most) of the "How much skill is worth" league (a search hand costs ~400 max_melds hands).
SKILL_HANDS: int = 3_000

_TERMS = [
    ("將牌 / 翻將", "jiang", "cards identical to a turned card (2 turned after the deal)"),
    ("雙將", "double jiang", "both turned cards identical"),
    ("老將", "old jiang", "千字, 白花, 紅花 and 九條"),
    ("起手", "opening exposure", "a dealt kong, or all remaining copies of a 將, exposed at the deal"),
    ("和子", "hezi", "both remaining copies of the 雙將 kind (64 or 128)"),
    ("塌和 / 葷和 / 清和", "mixed / all sequences / all triplets", "win types 20 / 50 (doubled) / 100"),
    ("破頭", "round up", "the total rounded up to a multiple of 10"),
    ("荒牌", "exhausted stock", "no card left when one is due"),
    ("莊家 / 閒家 / 夢家", "dealer / other player / sitter", "23 cards and the first discard / 22 cards / "
     "the 4-player seat out of the hand"),
    ("底胡", "base points", "points of triplets, kongs, 起手 sets and 和子 (every active player)"),
    ("此局勝利者", "hand winner", "the highest total after 破頭, completed or not"),
    ("自摸", "self-drawn win", "completing with a card drawn from the stock"),
    ("向聽", "distance from ready", "cards to exchange to be ready (0 ready, -1 complete)"),
]


def _section(title, blocks):
    from kaptai.report.render import Section

    return Section(title, blocks)


def win_shares(out: dict[str, np.ndarray]) -> np.ndarray:
    """Each active seat's share of the hand win: 1 for the sole hand winner (此局勝利者), ``1/k``
    for each of ``k`` tied winners -- the atlas's rule (:func:`kaptai.nantong.atlas.hand_rows`,
    ``win``; under ``rank_only`` it is the seat's point), so a hand's shares sum to 1.

    >>> import numpy as np
    >>> win_shares({"winner": np.array([[1, 0, 0], [1, 1, 0]])}).tolist()
    [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]]
    """
    w = np.asarray(out["winner"], dtype=np.float64)
    return w / np.maximum(w.sum(axis=1, keepdims=True), 1.0)


def _report_chunk(task) -> dict[str, np.ndarray]:
    """One chunk of hands: the tallies of :func:`kaptai.nantong.simulate.tally_outcomes` plus
    the totals of the hand winners who did not complete (all hands, 荒牌 hands, hands someone
    completed): count, sum, sum of squares; and the hand-win shares with ties split
    (:func:`win_shares`): per seat their sum and sum of squares (``share_sum``, ``share_sq``),
    and the share won by non-completers (all hands, hands someone completed: count, sum, sum
    of squares)."""
    from kaptai.core.sampling import bit_generator
    from kaptai.nantong.engine import run_hands
    from kaptai.nantong.simulate import tally_outcomes

    cfg, pols, child, size = task
    out = run_hands(cfg, size, policies=pols, bit_generator=bit_generator(child))
    t = tally_outcomes(out, cfg.active)
    nc = (out["winner"] == 1) & (out["completer"] == 0)
    tot = out["total"].astype(np.float64)
    huang = (out["win_type"] == 0)[:, None]
    for name, mask in (("all", nc), ("huang", nc & huang), ("completed", nc & ~huang)):
        v = tot[mask]
        t[f"ncw_{name}"] = np.array([float(mask.sum()), float(v.sum()), float((v * v).sum())])
    share = win_shares(out)
    t["share_sum"] = share.sum(axis=0)
    t["share_sq"] = (share * share).sum(axis=0)
    # pooled over the non-dealer seats hand by hand (one value per hand: their mean share)
    other = share[:, 1:].mean(axis=1)
    t["share_other"] = np.array([float(other.sum()), float((other * other).sum())])
    ncs = (share * (out["completer"] == 0)).sum(axis=1)
    done = out["win_type"] != 0
    for name, v in (("all", ncs), ("completed", ncs[done])):
        t[f"ncs_{name}"] = np.array([float(v.size), float(v.sum()), float((v * v).sum())])
    return t


def simulate_with_noncompleters(players: int, hands: int, seed: int, *, workers: int = 1, progress: bool = True,
                                scheduler: str | None = None, checkpoint: Any = None) -> pd.DataFrame:
    """:func:`kaptai.nantong.simulate.simulate` (default rules, ``max_melds``) of the same hands
    (same chunks and streams), with the hand win counted by the atlas's rule and extra rows.

    The hand win is a *share*, a tie split equally between the tied hand winners
    (:func:`win_shares`, the atlas feed's ``win``): simulate's ``hand_win`` and
    ``noncompleter_wins`` rows, which count a tie as a win for every tied player, are replaced
    by ``hand_win_share`` (per seat, ``relative_to='seat'``, and per role: the dealer, the other
    active players pooled, the sitter) and ``noncompleter_win_share`` (the share of the hand
    win taken by players who did not complete; level ``'given_completion'``: in hands someone
    completed), with normal 95% intervals (the atlas's intervals for a mean).  Extra rows
    ``noncompleter_winner_hu``: the mean total of a hand winner who did not complete (level
    None: every such winner; ``'huang'``: in 荒牌 hands; ``'completed'``: in hands someone
    completed), 95% intervals.  Every other row is simulate's.

    >>> df = simulate_with_noncompleters(3, 300, 1, progress=False)
    >>> from kaptai.nantong.simulate import simulate
    >>> base = simulate(3, hands=300, seed=1, progress=False)
    >>> kept = base[~base.metric.isin(["hand_win", "noncompleter_wins"])].reset_index(drop=True)
    >>> bool(df.iloc[:len(kept)].reset_index(drop=True).equals(kept))
    True
    >>> share = df[(df.metric == "hand_win_share") & (df.relative_to == "seat")].value
    >>> round(float(share.sum()), 12)                  # a hand's shares sum to 1
    1.0
    >>> sorted(df[df.metric == "noncompleter_winner_hu"].level.fillna("all"))
    ['all', 'completed', 'huang']
    """
    from kaptai.core.options import check_count, check_seed
    from kaptai.core.runner import plan_chunks, run_chunks
    from kaptai.core.stats import mean_interval
    from kaptai.nantong.config import make_config
    from kaptai.nantong.engine import CHUNK_HANDS
    from kaptai.nantong.policies import check_policies
    from kaptai.nantong.simulate import CONFIDENCE, tallies_frame

    cfg = make_config(players, None)
    hands = check_count("hands", hands)
    pols = check_policies("max_melds", cfg.active)
    entropy = check_seed(seed)
    plan = plan_chunks(hands, CHUNK_HANDS, entropy)
    tasks = [(cfg, pols, c.seed, c.size) for c in plan]
    fingerprint = {"game": "nantong", "kind": "report-simulate", "win": "share (ties split)", "players": cfg.players,
                   "rules": cfg.rules.to_dict(), "hands": hands, "seed_entropy": entropy, "policies": ["max_melds"] * cfg.active,
                   "chunk_hands": CHUNK_HANDS, "version": __version__}
    t = run_chunks(_report_chunk, tasks, workers=workers, scheduler=scheduler, checkpoint=checkpoint,
                   fingerprint=fingerprint, progress=progress, desc="nantong", sizes=plan)
    df = tallies_frame(t, cfg)
    df = df[~df.metric.isin(["hand_win", "noncompleter_wins"])]
    H = int(t["hands"][0])
    rows = []

    def add(metric, seat, rel, level, n, s1, s2):
        if n:
            m, lo, hi = mean_interval(float(s1), float(s2), float(n), CONFIDENCE)
        else:
            m = lo = hi = float("nan")
        rows.append({"game": "nantong", "rules": cfg.rules.name, "players": cfg.players,
                     "metric": metric, "seat": pd.NA if seat is None else seat, "relative_to": rel, "level": level,
                     "value": float(m), "ci_low": float(lo), "ci_high": float(hi), "samples": int(n),
                     "method": "monte_carlo"})

    for s in range(cfg.active):
        add(WIN_SHARE_METRIC, s, "seat", None, H, t["share_sum"][s], t["share_sq"][s])
    add(WIN_SHARE_METRIC, 0, "role", "dealer", H, t["share_sum"][0], t["share_sq"][0])
    add(WIN_SHARE_METRIC, 1, "role", "other", H, *t["share_other"])
    if cfg.players > cfg.active:
        add(WIN_SHARE_METRIC, 2, "role", "sitter", H, 0.0, 0.0)
    for name, level in (("all", None), ("completed", "given_completion")):
        add("noncompleter_win_share", None, None, level, *t[f"ncs_{name}"])
    for name, level in (("all", None), ("huang", "huang"), ("completed", "completed")):
        add(NONCOMPLETER_METRIC, None, None, level, *t[f"ncw_{name}"])
    dtypes = df.dtypes
    df = pd.concat([df, pd.DataFrame(rows, columns=df.columns)], ignore_index=True)
    for col in ("relative_to", "level"):
        df[col] = df[col].astype(dtypes[col])
    df["seat"] = df["seat"].astype("Int64")
    df.attrs.update({"game": "nantong", "seed_entropy": entropy, "version": __version__,
                     "rules": cfg.rules.to_dict(), "policies": ["max_melds"] * cfg.active,
                     "hands": int(t["hands"][0]), "chunk_hands": CHUNK_HANDS, "confidence": CONFIDENCE})
    return df


def _match_table(fair: pd.DataFrame) -> pd.DataFrame:
    """One row per (players, settlement, player): mean, standard deviation and share of matches
    topped, each with its interval (the rows of the fairness table, side by side)."""
    f = fair[fair.settlement.notna()]
    rows = []
    for (p, st, seat), g in f.groupby(["players", "settlement", "seat"], sort=False):
        q = g.set_index("metric")
        row = {"players": int(p), "settlement": st, "player": f"P{int(seat)}"}
        for metric, name in (("match_mean", "mean"), ("match_sd", "sd"), ("match_top", "top share")):
            if metric in q.index:
                row[name] = float(q.loc[metric, "value"])
                row[f"{name} low"] = float(q.loc[metric, "ci_low"])
                row[f"{name} high"] = float(q.loc[metric, "ci_high"])
        rows.append(row)
    return pd.DataFrame(rows)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _one_in(p: float) -> str:
    """'1 in N' with N rounded to 2 significant figures (p > 0)."""
    n = 1.0 / p
    digits = max(0, len(str(int(n))) - 2)
    return f"1 in {int(round(n, -digits)):,}"


def _summary(odds: pd.DataFrame, sims: dict[int, pd.DataFrame], fairs: dict[int, pd.DataFrame],
             hands: int, matches: int) -> list:
    """Plain-language paragraphs; every number is read from the tables of this run."""
    blocks: list = []
    p0 = min(sims)
    s = sims[p0]

    def role(metric, level, df=s):
        return df[(df.metric == metric) & (df.relative_to == "role") & (df.level == level)].iloc[0]

    def one(metric, level=None, df=s):
        q = df[(df.metric == metric) & (df.level.isna() if level is None else df.level == level)]
        return q.iloc[0] if len(q) else None

    cd, co = role("complete", "dealer"), role("complete", "other")
    wd, wo = role(WIN_SHARE_METRIC, "dealer"), role(WIN_SHARE_METRIC, "other")
    hd, ho = role("hu_mean", "dealer"), role("hu_mean", "other")
    if wd.ci_low > wo.ci_high:
        lead = "The dealer (莊家) has an edge in each hand."
        tail = " (the intervals do not overlap)"
    elif wd.ci_high < wo.ci_low:
        lead = "The dealer (莊家) is at a disadvantage in each hand."
        tail = " (the intervals do not overlap)"
    else:
        lead = "The dealer (莊家) and the others are close in each hand."
        tail = " (the intervals overlap)"
    blocks.append(("p", f"{lead} With {p0} players ({hands:,} simulated hands, every seat playing max_melds) the "
                        f"dealer, who is dealt 23 cards and discards first, takes {_pct(wd.value)} of the hand wins "
                        f"(此局勝利者, highest 胡數 after 破頭; a tie split equally between the tied players, the "
                        f"atlas's rule) [95% interval {_pct(wd.ci_low)}-{_pct(wd.ci_high)}] against "
                        f"{_pct(wo.value)} [{_pct(wo.ci_low)}-{_pct(wo.ci_high)}] for each other player"
                        f"{tail}; the dealer completes {_pct(cd.value)} of hands, each other player "
                        f"{_pct(co.value)}; mean 胡數 per hand: dealer {hd.value:.1f}, other {ho.value:.1f}."))
    for p, df in sims.items():
        if p == p0:
            continue
        w4d, w4o = role(WIN_SHARE_METRIC, "dealer", df), role(WIN_SHARE_METRIC, "other", df)
        cols = ["metric", "relative_to", "level", "value"]
        act = df[df.relative_to.ne("role") | df.level.ne("sitter")]
        same = (len(act) == len(s)) and bool(np.allclose(act.value.to_numpy(), s.value.to_numpy(), equal_nan=True)) \
            and act[cols[:3]].astype(str).reset_index(drop=True).equals(s[cols[:3]].astype(str).reset_index(drop=True))
        note = (f" (with the same seed these are the very hands of the {p0}-player run: the sitter holds no cards, "
                f"so the hand-level numbers coincide)" if same else "")
        blocks.append(("p", f"With {p} players one player sits out each hand (夢家, no cards, scores 0); among the "
                            f"three active players the dealer takes {_pct(w4d.value)} of the hand wins, each other "
                            f"{_pct(w4o.value)}{note}."))
    huang = one("huang_rate")
    ncw = one("noncompleter_win_share")
    ncg = one("noncompleter_win_share", "given_completion")
    nch = one(NONCOMPLETER_METRIC)
    text = (f"{_pct(huang.value)} of hands end with the stock exhausted (荒牌). Because every hand is scored, "
            f"players who did not complete still take {_pct(ncw.value)} of the hand wins on 底胡 alone (ties split)")
    if ncg is not None:
        text += f" ({_pct(ncg.value)} in the hands in which somebody completed)"
    if nch is not None and nch.samples:
        text += f"; such a winner scores {nch.value:.1f} on average"
    blocks.append(("p", text + "."))
    sw = s[s.metric == "score_by_win_type"].set_index("level")
    parts = []
    for lv, name in (("self:tahe", "a self-drawn (自摸) 塌和"), ("discard:tahe", "a 塌和 off a discard"),
                     ("self:hunhe", "a self-drawn 葷和"), ("discard:hunhe", "a 葷和 off a discard"),
                     ("self:qinghe", "a self-drawn 清和"), ("discard:qinghe", "a 清和 off a discard")):
        if lv in sw.index:
            parts.append(f"{name} {sw.loc[lv, 'value']:.1f} (n = {int(sw.loc[lv, 'samples']):,})")
    cat = s[s.metric == "category"].set_index("level").value
    if parts:
        blocks.append(("p", f"Most completed hands are 塌和 ({_pct(cat.get('tahe', float('nan')))} of all hands; 葷和 "
                            f"{_pct(cat.get('hunhe', float('nan')))}, 清和 {_pct(cat.get('qinghe', float('nan')))}). "
                            "Mean totals after 破頭: " + "; ".join(parts) + "."))
    nat = odds[(odds.metric == "natural") & (odds.hand == "dealer")].value
    rdy = odds[(odds.metric == "ready") & (odds.hand == "other")].value
    dist = odds[odds.metric == "distance"]
    modes = {h: int(dist[dist.hand == h].sort_values("value").level.iloc[-1]) for h in ("dealer", "other")}
    oh0 = odds[(odds.metric == "opening_hu") & (odds.level.astype(float) == 0)].set_index("hand").value
    txt = "At the deal (exact): "
    if len(nat) and float(nat.iloc[0]) > 0:
        txt += f"the dealer's 23 cards are already complete (天成) about {_one_in(float(nat.iloc[0]))} deals; "
    if len(rdy) and float(rdy.iloc[0]) > 0:
        txt += f"another player's 22 cards are ready about {_one_in(float(rdy.iloc[0]))}; "
    txt += (f"the most likely distance from ready is {modes['dealer']} for the dealer and {modes['other']} for "
            f"the others")
    if {"dealer", "other"} <= set(oh0.index):
        txt += (f", and {_pct(float(oh0['dealer']))} of dealer hands and {_pct(float(oh0['other']))} of other "
                f"hands hold no 胡數 at all as dealt")
    blocks.append(("p", txt + "."))
    for p, f in fairs.items():
        m = f[(f.metric == "match_mean") & f.settlement.notna()]
        sd = f[(f.metric == "match_sd") & f.settlement.notna()]
        bits, all_inside, luck_dominates = [], True, True
        for st in dict.fromkeys(m.settlement):
            q = m[m.settlement == st]
            avg = float(q.value.mean())
            inside = bool(((q.ci_low <= avg) & (avg <= q.ci_high)).all())
            all_inside &= inside
            spread = float(q.value.max() - q.value.min())
            typical = float(sd[sd.settlement == st].value.mean())
            luck_dominates &= typical > 3 * spread
            nd = 2 if typical < 10 else 1
            bits.append(f"{st} {spread:.{nd}f} against a standard deviation of {typical:.{nd}f}"
                        + ("" if inside else " (not every player's interval contains the average)"))
        lead = ("no player's mean match result stands out from the average (every player's 95% interval contains it)"
                if all_inside else "some player's mean match result differs from the average")
        text = (f"Over a whole 8-round match (8 圈; {p} players, {matches:,} matches) the deal rotates and {lead}. "
                f"The largest gap between two players' means, against the standard deviation of one player's match "
                f"total: " + "; ".join(bits) + ".")
        if luck_dominates:
            text += " Luck within a match is several times larger than any difference between the players' positions."
        blocks.append(("p", text))
    return blocks


#: How the search picks its discard, by ``config.DEFAULT_CHOICE`` (the report says what it measured).
_DISCARD_RULE = {
    "rank": ("Its discard is ranked as kaptai advise nantong ranks: among the discards whose value its layouts "
             "cannot tell from the best one's (the paired 95% interval of the difference reaches 0), the one "
             "that leaves the hand nearest to ready, then the most live outs, then the best mean."),
    "guard": ("It keeps max_melds' discard unless another's gain exceeds the guard's paired standard errors."),
}


def skill_section(hands: int, seed: int, run: dict, progress: bool):
    """How much skill is worth: ``search`` against the default (max_melds) field and against a
    random field, through the duplicate league (seats rotated, the same deals in every
    arrangement): search minus each field, paired over the deals; returns (section, results)."""
    from kaptai.league import policy_league
    from kaptai.nantong.config import (
        DEFAULT_CANDIDATES,
        DEFAULT_CHOICE,
        DEFAULT_GUARD,
        DEFAULT_MARGIN,
        DEFAULT_PARTICLES,
        DEFAULT_SAMPLES,
    )
    from kaptai.report.render import (
        checkpoint_subdir,
        league_caption,
        league_skill_table,
        report_step,
        skill_difference_table,
        skill_difference_text,
        skill_differences,
        skill_seat_differences,
        skill_seat_table,
    )

    n = max(30, min(int(hands) // 3, SKILL_HANDS))
    leagues, diffs, seats = [], [], []
    for field, pols in (("max_melds", ("search", "max_melds", "chase_qing", "chase_hun")), ("random", ("search", "random"))):
        report_step(progress, f"league: search against a {field} field, {n:,} hands a policy")
        league = policy_league("nantong", 3, None, n, seed + 50, pols, workers=run.get("workers", 1), progress=False,
                               baseline=field, scheduler=run.get("scheduler"),
                               checkpoint=checkpoint_subdir(run, f"skill-{field}"))
        diffs += skill_differences(league)
        seats += skill_seat_differences(league)
        leagues.append(league)
    lg = pd.concat(leagues, ignore_index=True)
    table = league_skill_table(lg, ("win", "win_share", "vs_best_other"), 3)
    sec = _section("How much skill is worth", [
        ("p", f"The 'search' player (determinized Monte Carlo, docs/nantong-engine.md, Search): at each discard "
              f"and each pong/kong claim it deals {DEFAULT_SAMPLES} layouts of the cards it has not seen (the "
              f"other hands and the stock, consistent with its hand, the discards, the exposed sets and the turned "
              f"cards), resampled from {DEFAULT_PARTICLES} x {DEFAULT_SAMPLES} particles weighted by how likely each "
              f"other seat's discards and claims are under a mixture of playing styles, plays each discard it "
              f"holds within {DEFAULT_MARGIN} of the best distance from ready (at most {DEFAULT_CANDIDATES}) or "
              f"each claim and then the rest of the hand with max_melds at every seat (the same layouts for every "
              f"candidate), and values each by its mean net under the settlement in force. "
              f"{_DISCARD_RULE[DEFAULT_CHOICE]} At a claim it keeps max_melds' answer unless another's gain "
              f"exceeds {DEFAULT_GUARD:g} paired standard error{'' if DEFAULT_GUARD == 1 else 's'}. Default rules "
              f"(rank_only: 1 point to the hand winner, so the net is the share of the hand win), 3 players, on "
              f"duplicate deals (the league, kaptai league nantong): each of {diffs[0]['deals']:,} deals a table is "
              f"played with each policy at every seat in turn and with the field alone, the same cards in every "
              f"arrangement. Search minus the field is the search seat's net minus the field's net at the same "
              f"seat on the same deals, averaged over the seats, with the paired 95% interval over the deals. Seat 0 "
              f"deals every deal of the league, so the same arrangements also give the difference at each seat "
              f"(the deals on which the search sat there)."),
        ("p", skill_difference_text(diffs, 3, "points")),
        ("table", skill_difference_table(diffs, 3, "points"),
         "search minus each field on duplicate deals, points (shares of the hand win) per hand (variance ratio: the "
         "variance of the difference under independent deals over that under duplicate deals)"),
        ("table", skill_seat_table(seats, 3, ("dealer", "下家 (seat 1)", "seat 2")),
         "search minus each field at each seat (0 = the dealer), same deals, paired 95% intervals"),
        ("table", table, league_caption(n) + ": P(win), win share (the policy's hand wins over a fair "
                         "share of them, so 1 = 1 / players and 1.4 = 40% more than its share) and the difference "
                         "from the best other policy of the table (paired over the same deals)"),
    ])
    return sec, {"skill_league": lg, "skill_differences": pd.DataFrame(diffs), "skill_seats": pd.DataFrame(seats)}


def build_sections(players: Sequence[int] = (3, 4), hands: int = 20_000, seed: int = 1, *, workers: int = 1,
                   progress: bool = True, scheduler: str | None = None,
                   checkpoint: str | os.PathLike | None = None) -> tuple[str, list, str, dict[str, Any]]:
    """Compute every section of the report; returns (title, sections, meta line, results).

    Every figure and every number of the summary is drawn from the tables computed here
    (``results``: ``odds``, ``simulations``, ``fairness``).
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    from kaptai.nantong.fairness import fairness
    from kaptai.nantong.odds import deal_odds
    from kaptai.nantong.plots import (
        plot_distance,
        plot_match_fairness,
        plot_opening_hu,
        plot_roles,
        plot_score_by_win_type,
    )
    from kaptai.report.render import checkpoint_subdir, report_step

    players = sorted({int(p) for p in players if int(p) in (3, 4)}) or [3]
    run = {"checkpoint": checkpoint}
    results: dict[str, Any] = {}
    rules = RuleSet()
    rules_section = _section("Rules modelled", [
        ("p", "kaptai models the rules of docs/rules/nantong.md (the general rules 一般通則); every option there is "
              "an option of kaptai.nantong.RuleSet with the page's default. The engine is specified in "
              "docs/nantong-engine.md."),
        ("table", pd.DataFrame([{"option": k, "default": str(v)} for k, v in rules.to_dict().items() if k != "name"]),
         "Options and their defaults"),
        ("table", pd.DataFrame(_TERMS, columns=["Chinese", "English", "meaning"]), "Terms"),
    ])
    sections = []
    report_step(progress, "exact deal odds")
    odds = deal_odds(3)
    results["odds"] = odds
    main = odds[~odds.metric.isin(["opening_hu", "distance"])][["hand", "metric", "breakdown", "value", "exact"]]
    dist = odds[odds.metric == "distance"].pivot(index="level", columns="hand", values="value").reset_index()
    dist.columns.name = None
    dist["level"] = dist["level"].astype(int)
    sections.append(_section("Exact deal odds", [
        ("p", "Exact integer arithmetic over count vectors; the distance is the exact distance from ready "
              "(向聽, shanten) of the dealt hand: -1 complete, 0 ready. The opening 胡數 is the 底胡 the dealt hand "
              "holds before play (concealed triplets, 起手 kongs and 將 sets, 和子). The deal is the same with 3 or "
              "4 players (3 are dealt in)."),
        ("figure", plot_distance(odds),
         "Distance from ready at the deal, exact: the dealer's 23 cards against another player's 22 (log scale)"),
        ("figure", plot_opening_hu(odds),
         "Opening 胡數 at the deal, exact: dealer against another player; linear up to 40 (left), every value "
         "on a log scale (right)"),
        ("table", main.reset_index(drop=True), "Turned cards, 起手, natural and ready hands (3 or 4 players alike)"),
        ("table", dist.sort_values("level").reset_index(drop=True), "Distance from ready at the deal"),
    ]))
    sims: dict[int, pd.DataFrame] = {}
    for p in players:
        report_step(progress, f"simulate {p} players, {hands:,} hands")
        sims[p] = simulate_with_noncompleters(p, hands, seed, progress=progress, workers=workers, scheduler=scheduler,
                                              checkpoint=checkpoint_subdir(run, f"simulate-{p}"))
    sim = pd.concat(list(sims.values()), ignore_index=True)
    results["simulations"] = sim
    cols = ["players", "metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"]
    sections.append(_section("Whole hands (max_melds policy)", [
        ("p", "Monte Carlo of whole hands with every seat playing max_melds (the game's default policy, as at the "
              "atlas's default table); 95% intervals. Role 0 is the dealer (23 cards, discards first), 1 the other "
              "active players, 2 the 4-player sitter (夢家, no cards, scores 0). The hand win (此局勝利者) is "
              "counted as a share: 1 to a sole winner, 1/k to each of k tied winners (hand_win_share), the rule of "
              "the atlas and of the rank_only settlement, so the shares of a hand sum to 1."),
        ("figure", plot_roles(sim),
         "Hand-win share (ties split), completion rate and mean 胡數 by role, 95% intervals"),
        ("table", sim[sim.relative_to == "role"][cols].reset_index(drop=True), "By role"),
        ("figure", plot_score_by_win_type(sim),
         "Mean total by win type (completer) and of a hand winner who did not complete, 95% intervals"),
        ("table", sim[sim.relative_to.isna()][cols + ["samples"]].reset_index(drop=True),
         "荒牌, win types and scores (noncompleter_winner_hu: the total of a hand winner who did not complete; "
         "level huang / completed: in 荒牌 hands / in hands someone completed)"),
    ]))
    fairs: dict[int, pd.DataFrame] = {}
    matches = max(20, hands // 24)
    for p in players:
        report_step(progress, f"fairness {p} players, {matches:,} matches")
        fairs[p] = fairness(p, matches=matches, seed=seed, progress=progress, workers=workers, scheduler=scheduler,
                            checkpoint=checkpoint_subdir(run, f"fairness-{p}"))
    fair = pd.concat(list(fairs.values()), ignore_index=True)
    results["fairness"] = fair
    sections.append(_section("Fairness of the 8-round match", [
        ("p", "Each player's match result (players numbered from the first dealer, P0) under each settlement: "
              "rank_only gives a point per hand won (shared on a tie), pairwise_difference settles the difference "
              "of every pair's totals, winner_collects has every other active player pay the hand winner its "
              "total. match_sd is the standard deviation of one player's match total, match_top the share of "
              "matches that player tops."),
        ("figure", plot_match_fairness(fair),
         "Mean match result (top) and share of matches topped (bottom) per player under each settlement, "
         "95% intervals"),
        ("table", _match_table(fair), "Match results per player (P0 = the first dealer), 95% intervals"),
    ]))
    skill, skill_results = skill_section(hands, seed, {"checkpoint": checkpoint, "workers": workers,
                                                       "scheduler": scheduler}, progress)
    results.update(skill_results)
    sections.append(skill)
    summary = _section("Summary", _summary(odds, sims, fairs, hands, matches))
    sections = [summary, rules_section] + sections
    sections.append(_section("Methods", [
        ("p", f"Exact tables: kaptai.nantong.odds. Monte Carlo: {hands:,} hands per player count, seed {seed}, "
              f"chunked through kaptai.core.runner (the same hands as kaptai.nantong.simulate with that seed, "
              f"plus the totals of the hand winners who did not complete); {matches:,} matches per fairness "
              f"table (kaptai.nantong.fairness). Intervals: Wilson for rates, normal for means."),
    ]))
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · players "
            f"{', '.join(map(str, players))} · {hands:,} hands per simulation · seed {seed}")
    return "Nantong long cards (南通長牌) — odds and fairness report", sections, meta, results
