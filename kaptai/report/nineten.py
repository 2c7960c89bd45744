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

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.stats import seat_spread_of
from kaptai.nineten.rules import RuleSet

__all__ = ["build_sections", "seat_figures"]

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


#: The item of the rules page's §6 that each option of the ``'options'`` variant set reads.
_SECTION6 = {"natural": "6.5", "flip_priority": "6.7", "flip_win_payer": "6.8", "discard_payer_covers_all": "6.8",
             "four_colour_flip_win": "6.9", "four_colour_kaizhao_counts": "6.10",
             "kaizhao_wait_also_plus1": "6.11", "dead_cards_claimable": "6.12", "reserve": "6.13"}


def _section6(variant: str) -> str:
    from kaptai.nineten.fairness import VARIANT_SETS

    keys = list(VARIANT_SETS["options"].get(variant, {}))
    return ", ".join(dict.fromkeys(f"§{_SECTION6[k]}" for k in keys if k in _SECTION6)) or "-"


def _seat_name(s: int) -> str:
    return "the dealer" if s == 0 else "the seat after the dealer (dealer + 1)" if s == 1 else f"dealer + {s}"


def _pct(v: float) -> str:
    return f"{100 * v:.1f}%" if v >= 0.01 or v == 0 else f"{100 * v:.2g}%"


def _verdict(lo: float, hi: float, pos: str, neg: str, none: str) -> str:
    return pos if lo > 0 else neg if hi < 0 else none


def _wide(df, index: list[str], metrics: dict[str, str], by: str = "metric") -> pd.DataFrame:
    """One row per ``index``; per metric the columns ``label``, ``low``, ``high`` (its 95% interval)."""
    out = None
    for key, label in metrics.items():
        q = df[df[by] == key][index + ["value", "ci_low", "ci_high"]].rename(
            columns={"value": label, "ci_low": f"{label} low", "ci_high": f"{label} high"})
        out = q if out is None else out.merge(q, on=index, how="left", sort=False)
    assert out is not None, "no metrics to tabulate"
    out = out.reset_index(drop=True)
    out.columns = [c if c in index or c in metrics.values() else c.rsplit(" ", 1)[1] for c in out.columns]
    return out


def _section_order(variant: str) -> tuple:
    sec = _section6(variant)
    if sec == "-":
        return (0,)
    return tuple(int(x) for x in sec.split(",")[0].strip().lstrip("§").split("."))


def _row(df, **where):
    q = df
    for k, v in where.items():
        q = q[q[k] == v]
    return q.iloc[0]


def seat_figures(sims: dict[int, pd.DataFrame], stake: float, confidence: float = 0.95) -> pd.DataFrame:
    """Each seat's mean net per hand counted from the dealer, in money and in 頭 (the atlas's unit),
    and the seat spread in 頭 (:func:`kaptai.core.stats.seat_spread_of`, the atlas's ``seat_spread``; in money x ``stake``,
    the money per 頭 of the run's rules), per player count.

    Rows ``players, seat`` (``'spread'`` for the spread row), ``net money`` with ``money low`` /
    ``money high``, ``net 頭`` with ``頭 low`` / ``頭 high`` (95% intervals; the spread's is
    simultaneous over the seats).

    >>> from kaptai.nineten.simulate import simulate
    >>> t = seat_figures({4: simulate(4, hands=300, seed=1, progress=False)}, stake=10.0)
    >>> list(t.seat)
    [0, 1, 2, 3, 'spread']
    """
    rows: list[dict[str, Any]] = []
    for p, df in sims.items():
        money = df[(df.metric == "net_mean") & (df.relative_to == "dealer")].sort_values("seat")
        tou = df[(df.metric == "net_tou_mean") & (df.relative_to == "dealer")].sort_values("seat")
        for m, t in zip(money.itertuples(), tou.itertuples()):
            rows.append({"players": p, "seat": int(t.seat), "net money": m.value, "money low": m.ci_low,
                         "money high": m.ci_high, "net 頭": t.value, "頭 low": t.ci_low, "頭 high": t.ci_high})
        v, lo, hi = seat_spread_of(tou.value, tou.ci_low, tou.ci_high, confidence)
        rows.append({"players": p, "seat": "spread", "net money": v * stake, "money low": lo * stake,
                     "money high": hi * stake, "net 頭": v, "頭 low": lo, "頭 high": hi})
    return pd.DataFrame(rows)


def _summary(players: list[int], hands: int, stake: float, results: dict[str, Any], effects) -> list[str]:
    """Plain-language lines; every number is read from the run's tables."""
    odds, sims, pol, opt = results["odds"], results["simulate"], results["policies"], results["options"]
    p0 = players[0]
    o = odds[(odds.players == p0) & (odds.method == "exact")]
    mc_d = float(_row(o, metric="mean_claims", hand="dealer").value)
    mc_o = float(_row(o, metric="mean_claims", hand="other").value)
    nat = float(_row(o, metric="natural").value)
    ready = float(_row(o, metric="ready", hand="other").value)
    lines = [f"Opening hands (exact): the dealer's 10 cards need {mc_d:.2f} claims (吃) on average to make five "
             f"pairs, another seat's 9 cards {mc_o:.2f}. The dealer is dealt a natural (five pairs, an instant win) "
             f"once in {1 / nat:,.0f} deals; another seat is dealt ready (four pairs and a single) "
             f"{100 * ready:.3f}% of the time, once in {1 / ready:,.0f} deals."]
    df = sims[p0]
    w = df[(df.metric == "win") & (df.relative_to == "dealer") & (df.level == "any")].sort_values("seat")
    d = w[w.seat == 0].iloc[0]
    best, worst = w.loc[w.value.idxmax()], w.loc[w.value.idxmin()]
    share = 1 / p0
    vs = _verdict(d.ci_low - share, d.ci_high - share, "above", "below", "not measurably different from")
    most = ("no seat wins more often than the dealer" if int(best.seat) == 0 else
            f"{_seat_name(int(best.seat))} wins most often ({100 * best.value:.1f}%)")
    lines.append(f"Who wins ({p0} players, {hands:,} hands, everyone cutting colours): the dealer wins "
                 f"{100 * d.value:.1f}% of hands (95% interval {100 * d.ci_low:.1f}-{100 * d.ci_high:.1f}%), {vs} "
                 f"an equal share of {100 * share:.1f}%; {most}, and {_seat_name(int(worst.seat))} wins least "
                 f"({100 * worst.value:.1f}%).")
    if len(players) > 1:
        rates = []
        for p in players:
            q = sims[p]
            r = _row(q, metric="win", relative_to="dealer", level="any", seat=0)
            rates.append(f"{100 * r.value:.1f}% with {p} players (equal share {100 / p:.1f}%)")
        lines.append("The dealer's win rate by table size: " + "; ".join(rates) + ".")
    parts = []
    for p in players:
        a = _row(sims[p], metric="dealer_advantage")
        parts.append(f"{a.value:+.2f} with {p} players (95% interval {a.ci_low:+.2f} to {a.ci_high:+.2f}; "
                     + _verdict(a.ci_low, a.ci_high, "the dealer gains on average", "the dealer loses on average",
                                "no advantage measurable at this size") + ")")
    lines.append(f"Money: the dealer's mean net per hand (stake {stake:g} per 頭) is " + "; ".join(parts) + ".")
    seats = results.get("seats")
    if seats is not None:
        bits = []
        for p in players:
            d0 = seats[(seats.players == p) & (seats.seat == 0)].iloc[0]
            sp = seats[(seats.players == p) & (seats.seat == "spread")].iloc[0]
            bits.append(f"with {p} players the dealer nets {d0['net 頭']:+.3f} 頭 a hand and the seats' EVs spread by "
                        f"{sp['net 頭']:.3f} 頭 (95% interval {sp['頭 low']:.3f} to {sp['頭 high']:.3f})")
        lines.append("In 頭, the atlas's unit: " + "; ".join(bits) + ".")
    tm = _row(df, metric="tou_mean")
    dr = _row(df, metric="drawn_rate")
    mt = _row(opt, metric="mean_transfer", variant="defaults")
    drawn = (f"{_pct(dr.value)} of hands are drawn (流局, nobody pays; 95% interval up to {_pct(dr.ci_high)})"
             if dr.value > 0 else f"no hand of {hands:,} was drawn (流局; 95% interval up to {_pct(dr.ci_high)})")
    lines.append(f"A win is worth {tm.value:.2f} 頭 on average (95% interval {tm.ci_low:.2f}-{tm.ci_high:.2f}); "
                 f"{drawn}; with {p0} players the winner collects {mt.value:.1f} per hand on average under the "
                 f"default rules.")
    duels = []
    for v in dict.fromkeys(pol.variant):
        if not v.startswith("seat 0 "):
            continue
        mine, field = v[len("seat 0 "):].split(" vs ")
        r = _row(pol, variant=v, metric="net_mean", relative_to="seat", seat=0)
        duels.append(f"one {mine} player among {field} players nets {r.value:+.2f} per hand "
                     f"({r.value / stake:+.3f} 頭; 95% interval {r.ci_low:+.2f} to {r.ci_high:+.2f}: "
                     + _verdict(r.ci_low, r.ci_high, "better than its field", "worse than its field",
                                "no difference measurable at this size") + ")")
    same = [v for v in dict.fromkeys(pol.variant) if v.startswith("all ")]
    tous = ", ".join(f"{_row(pol, variant=v, metric='tou_mean').value:.2f} ({v[len('all '):]})" for v in same)
    lines.append(f"Discard policy ({p0} players): " + "; ".join(duels) + f". The mean 頭 of a win when every seat "
                 f"plays the same policy: {tous}.")
    base = effects[effects.variant == "defaults"].iloc[0]
    ch = effects[effects.variant != "defaults"]
    big = ch.loc[ch.change.abs().idxmax()]
    clear = [f"{r.variant} ({r.change:+.2f})" for r in ch.itertuples() if r.change_low > 0 or r.change_high < 0]
    trans = option_table(opt, "mean_transfer")
    tch = trans[trans.variant != "defaults"]
    tbig = tch.loc[tch.change.abs().idxmax()]
    tbase = float(trans[trans.variant == "defaults"].value.iloc[0])
    lines.append(f"Rule readings (§6, {p0} players): under the defaults the dealer's advantage is {base.value:+.2f} "
                 f"per hand; the reading that moves it most is {big.variant} ({_section6(big.variant)}, change "
                 f"{big.change:+.2f}, 95% interval {big.change_low:+.2f} to {big.change_high:+.2f}). Readings whose "
                 f"change is clear of zero: {', '.join(clear) if clear else 'none at this size'}. The winner's mean "
                 f"take per hand changes most under {tbig.variant}: {tbase:.1f} to {tbig.value:.1f}.")
    return lines


def option_table(opt, metric: str):
    from kaptai.nineten.plots import option_effects

    return option_effects(opt, "defaults", metric)


#: The fields the search meets in the "How much skill is worth" section (the default first).
SKILL_FIELDS: tuple[str, ...] = ("colour_cut", "random")


def skill_table(players: int, hands: int, seed: int, *, per_seat: int | None = None, workers: int = 1,
                scheduler: str | None = None, checkpoint: str | os.PathLike | None = None
                ) -> tuple[pd.DataFrame, int]:
    """``search`` against a field of ``colour_cut`` and of ``random``, on duplicate deals: the
    league's paired difference (:func:`kaptai.report.render.skill_differences`).

    For each field, one duplicate league (:func:`kaptai.league.policy_league` with the field as
    ``baseline``, the default rules): every deal is played with ``search`` at each seat in turn
    (the field elsewhere) and with the field alone, the same cards in every arrangement.  Per
    deal the search's net averaged over its seats minus the field's over the same seats of the
    all-field table; the mean over the deals with the paired 95% interval (deals as clusters).
    Rows ``field, value, ci_low, ci_high, deals, hands`` (the search seat's hands), ``ev`` and
    ``ev_ci_low, ev_ci_high`` (the search seat's own mean net), ``variance_ratio`` (independent
    over duplicate deals), ``unit``; ``attrs['differences']`` the rows of
    :func:`~kaptai.report.render.skill_differences`.

    ``per_seat`` deals a field (each played by the search at every seat: ``players x per_seat``
    hands of the search; default ``hands // 100`` within 20-2,000).  The dealer rotates with the
    deal, so the league gives no per-seat split.

    >>> df, n = skill_table(4, 20_000, 1, per_seat=3)
    >>> n, df.field.tolist(), df.hands.tolist(), df.columns[:4].tolist()
    (3, ['colour_cut', 'random'], [12, 12], ['field', 'value', 'ci_low', 'ci_high'])
    """
    from kaptai.league import policy_league
    from kaptai.report.render import skill_differences

    n = int(per_seat) if per_seat is not None else max(20, min(hands // 100, 2_000))
    rows, diffs = [], []
    for field in SKILL_FIELDS:
        ck = None if checkpoint is None else os.path.join(os.fspath(checkpoint), f"skill-{field}")
        lg = policy_league("nine-ten", players, None, n * players, seed, ("search", field), workers=workers,
                           progress=False, baseline=field, scheduler=scheduler, checkpoint=ck)
        d = skill_differences(lg)[0]
        ev = lg[(lg.policy == "search") & (lg.metric == "ev_per_hand")].iloc[0]
        diffs.append(d)
        rows.append({"field": field, "value": d["value"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                     "deals": d["deals"], "hands": d["hands"], "ev": float(ev.value), "ev_ci_low": float(ev.ci_low),
                     "ev_ci_high": float(ev.ci_high), "variance_ratio": d["variance_ratio"], "unit": d["unit"]})
    df = pd.DataFrame(rows)
    df.attrs["differences"] = diffs
    return df, n


def _skill_blocks(skill: pd.DataFrame, n: int, players: int) -> list[tuple]:
    """The blocks of "How much skill is worth" from :func:`skill_table` (every sentence drawn
    from the table: true whatever the run gave)."""
    from kaptai.nineten.config import SEARCH_GO, SEARCH_INFER, SEARCH_MORE, SEARCH_SAMPLES, SEARCH_Z
    from kaptai.report.render import skill_difference_table, skill_difference_text

    diffs = skill.attrs["differences"]
    cc = skill[skill.field == "colour_cut"].iloc[0]
    blocks: list[tuple] = [
        ("p", f"The search player (determinized Monte Carlo, docs/nine-ten.md and docs/nine-ten-engine.md): at each "
              f"discard it draws layouts of the unseen cards consistent with what its seat has seen, weighted by how "
              f"likely each other seat's discards are under a mixture of playing styles ({SEARCH_INFER} x "
              f"{SEARCH_SAMPLES:,} particles), plays every option out with colour_cut at every seat, and keeps "
              f"colour_cut's own choice unless an option beats it on the first {SEARCH_SAMPLES:,} layouts by more "
              f"than {SEARCH_GO:g} standard error, then on {SEARCH_MORE} times as many more layouts by more than "
              f"{SEARCH_Z:g} standard errors of the paired difference. It plays one seat against a field of "
              f"colour_cut (the default) and against a field of random play, {players} players, default rules, on "
              f"duplicate deals (the league, kaptai league nine-ten): each of {n:,} deals a field is played with the "
              f"search at every seat in turn and with the field alone, the same cards in every arrangement, so the "
              f"search has {players * n:,} hands a field. The number is the search seat's net minus the field's net "
              f"at the same seat on the same deals, averaged over the seats, in 頭 per hand, with the paired 95% "
              f"interval over the deals. The dealer rotates with the deal, so this gives no split by seat."),
        ("p", skill_difference_text(diffs, 3, "頭")),
    ]
    if cc.ci_low <= 0.0 <= cc.ci_high:
        doc = 0.021  # docs/nine-ten.md, 'Cells': both runs pooled, 12,000 duplicate deals
        where = ("lies inside this run's interval" if cc.ci_low <= doc <= cc.ci_high else
                 f"lies above this run's interval (upper end {cc.ci_high:+.3f})")
        blocks.append(("p", f"Against colour_cut the interval at {n:,} deals includes 0. The search keeps colour_cut's "
                            f"choice unless another option is clearly better, so on most hands it plays exactly as "
                            f"colour_cut (96% of hands unchanged in docs/nine-ten.md's duels) and its edge is small "
                            f"against the swing of a hand: docs/nine-ten.md measured +{doc} 頭 a hand (+0.006 to "
                            f"+0.036) over colour_cut on 12,000 duplicate deals under the default rules; that edge "
                            f"{where}."))
    blocks.append(("table", skill_difference_table(diffs, 3, "頭"),
                   f"search minus each field on duplicate deals, {players} players, 頭 per hand (variance ratio: "
                   f"the variance of the difference under independent deals over that under duplicate deals)"))
    return blocks


def build_sections(players: Sequence[int] = (4, 5, 6, 7), hands: int = 20_000, seed: int = 1, *, workers: int = 1,
                   progress: bool = True, scheduler: str | None = None,
                   checkpoint: str | os.PathLike | None = None) -> tuple[str, list, str, dict[str, Any]]:
    """Compute every section of the nine-ten report.

    Returns
    -------
    (title, sections, meta line, results)
        ``results`` holds the computed tables (``odds``, ``simulate`` by player count,
        ``policies``, ``options``, ``option_effects``) and the ``summary`` lines.
    """
    from kaptai.nineten.fairness import compare_variants
    from kaptai.nineten.odds import bonus_flip_distribution, deal_odds
    from kaptai.nineten.plots import (plot_option_dealer_advantage, plot_pairs_distribution, plot_policy_money,
                                      plot_seat_wins, plot_wins)
    from kaptai.nineten.simulate import simulate

    Section, sub, step = _sections_import()
    players = sorted({int(p) for p in players if 4 <= int(p) <= 7}) or [4]
    p0 = players[0]
    run: dict[str, Any] = {"workers": workers, "scheduler": scheduler}
    results: dict[str, Any] = {}
    sections = []
    rules = RuleSet()
    stake = float(rules.stake_per_tou)
    d = rules.to_dict()
    sections.append(Section("Rules modelled", [
        ("p", "kaptai models the rules of docs/rules/nine-ten.md; every option there exists with its default "
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
    pd_ = ex[ex.metric == "pairs_distribution"]
    same_marginal = all(
        pd_[(pd_.players == p) & (pd_.hand == h)].set_index("level").value.equals(
            pd_[(pd_.players == p0) & (pd_.hand == h)].set_index("level").value)
        for p in players for h in ("dealer", "other"))
    key = ex[ex.metric.isin(["ready", "natural", "mean_claims"])][["players", "hand", "metric", "value", "exact"]]
    same_key = all(key[key.players == p][["hand", "metric", "exact"]].reset_index(drop=True).equals(
        key[key.players == p0][["hand", "metric", "exact"]].reset_index(drop=True)) for p in players)
    if same_marginal:
        one = pd_[pd_.players == p0].pivot_table(index="level", columns="hand", values="value").reset_index()
        one["level"] = one["level"].astype(int)
        one = one.rename(columns={"level": "pairs", "dealer": "dealer (10 cards)", "other": "another seat (9 cards)"})
        one.insert(1, "claims needed", 5 - one["pairs"])
        exact = pd_[pd_.players == p0].pivot(index="level", columns="hand", values="exact").reset_index(drop=True)
        one["dealer exact"] = exact["dealer"].fillna("").to_numpy()
        one["another seat exact"] = exact["other"].fillna("").to_numpy()
        pairs = one
    if same_key:
        key = key[key.players == p0].drop(columns="players")
    mins = odds[odds.metric == "table_min_claims"].pivot_table(index="level", columns="players",
                                                               values="value").reset_index()
    mins.columns = ["fewest claims at the table"] + [f"{p} players" for p in mins.columns[1:]]
    sections.append(Section("Opening hands (exact)", [
        ("p", "Pairs of the dealer's 10 and another seat's 9 cards; a seat needs exactly 5 - pairs claims "
              "(the lemma of §4). Ready = 4 pairs + 1 single at the deal; natural = the dealer's five pairs."
              + (" One hand's distribution is the same for every player count of the report."
                 if same_marginal and len(players) > 1 else "")),
        ("figure", plot_pairs_distribution(odds, players=p0),
         f"Exact distribution of pairs at the deal, the dealer's 10 cards against another seat's 9 ({p0} players)"),
        ("table", pairs, "Distribution of pairs at the deal" + (" (every player count of the report)"
                                                                 if same_marginal and len(players) > 1 else "")),
        ("table", key, "Ready, natural and mean claims needed" + (" (every player count of the report)"
                                                                  if same_key and len(players) > 1 else "")),
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
    kinds = wins[wins.win != "any"]
    by_type = kinds.pivot_table(index=["players", "seat from dealer"], columns="win", values="P",
                                sort=False).reset_index()
    by_type = by_type[["players", "seat from dealer"] + [k for k in ("self", "flip", "discard", "natural")
                                                        if k in by_type]]
    half = float(((kinds.ci_high - kinds.ci_low) / 2).max())
    any_win = wins[wins.win == "any"].drop(columns="win").rename(
        columns={"P": "P(win)", "ci_low": "95% low", "ci_high": "95% high"})
    nets = seat_figures(sims, stake)
    results["seats"] = nets
    spreads = nets[nets.seat == "spread"]
    misc = pd.concat([df[df.metric.isin(["drawn_rate", "tou_mean", "bonus_flip_rate", "bonus_mean",
                                         "dealer_advantage", "kaizhao_rate", "claims_mean", "flips_mean"])]
                      .assign(players=p) for p, df in sims.items()])[["players", "metric", "value", "ci_low", "ci_high"]]
    cols = pd.concat([df[df.metric == "colours"].assign(players=p) for p, df in sims.items()])[
        ["players", "level", "value", "ci_low", "ci_high"]]
    sections.append(Section("Who wins, how, and who pays (Monte Carlo, colour_cut everywhere)", [
        ("figure", plot_seat_wins(sims), "P(win) by seat counter-clockwise from the dealer, one line per player "
                                         "count, 95% intervals; dotted lines mark an equal share 1/n"),
        ("table", any_win, "P(win) by seat counter-clockwise from the dealer"),
        ("figure", plot_wins(sims[p0]), f"How each seat wins, {p0} players"),
        ("table", by_type, f"P(win) by type and seat (self-draw, flip win, discard win 放槍, dealer natural); "
                           f"every 95% interval is within ±{half:.4f}"),
        ("table", cols, "Colours k of the winning hand"),
        ("p", "Each seat's mean net per hand counted from the dealer (seat 0), in money (stake "
              f"{stake:g} per 頭) and in 頭, the atlas's unit; the last row of each player count is the seat "
              "spread, max - min of the seats' EVs, with its simultaneous 95% interval (each seat's EV at "
              "1 - 0.05/P): the atlas's seat_spread (docs/atlas.md). Seat spread in 頭 a hand: "
              + "; ".join(f"{r['net 頭']:.3f} with {r['players']} players (95% interval {r['頭 low']:.3f} to "
                          f"{r['頭 high']:.3f})" for r in spreads.to_dict("records")) + "."),
        ("table", nets, f"Mean net per hand by seat from the dealer, money (stake {stake:g} per 頭) and 頭, "
                        "and the seat spread, 95% intervals"),
        ("table", misc, "Other figures"),
    ]))
    step(progress, "policies")
    pol = compare_variants("policies", p0, hands=hands, seed=seed, progress=False,
                           checkpoint=sub({"checkpoint": checkpoint}, "policies"), **run)
    results["policies"] = pol
    sections.append(Section("Cutting colours (斷色) against other discard habits", [
        ("p", "Top left: every seat plays the same policy, so the nets sum to zero and only the seat matters. "
              "Top right: how big a win is under each policy. Bottom: one seat (seat 0, dealing in turn like every "
              "seat) plays one policy against a field playing another; green = better than its field, red = "
              f"worse, grey = no difference measurable at {hands:,} hands."),
        ("figure", plot_policy_money(pol, stake=stake),
         f"Net money and 頭 per hand by discard policy, {p0} players, 95% intervals"),
        ("table", pol[(pol.metric == "net_mean") & (pol.relative_to == "seat") & (pol.seat == 0)]
         [["variant", "value", "ci_low", "ci_high"]].rename(columns={"value": "net per hand", "ci_low": "95% low",
                                                                     "ci_high": "95% high"}),
         f"Net money per hand of seat 0, {p0} players"),
        ("table", _wide(pol, ["variant"], {"tou_mean": "頭 of a win", "mean_transfer": "winner's take",
                                            "dealer_advantage": "dealer advantage"}),
         "Mean 頭 of a win, the winner's mean take per hand (money) and the dealer advantage, 95% intervals"),
    ]))
    step(progress, "option readings")
    opt = compare_variants("options", p0, hands=hands, seed=seed, progress=False,
                           checkpoint=sub({"checkpoint": checkpoint}, "options"), **run)
    order = sorted(dict.fromkeys(opt.variant), key=_section_order)
    opt = opt.assign(_o=opt.variant.map({v: i for i, v in enumerate(order)})).sort_values(
        "_o", kind="stable").drop(columns="_o").reset_index(drop=True)
    results["options"] = opt
    effects = option_table(opt, "dealer_advantage")
    results["option_effects"] = effects
    sdq = opt[(opt.metric == "net_sd") & (opt.relative_to == "dealer")]
    sd = sdq.pivot_table(index="variant", columns="seat", values="value", sort=False).reset_index()
    sd.columns = ["variant"] + ["dealer" if int(c) == 0 else f"dealer + {int(c)}" for c in sd.columns[1:]]
    labelled = opt.assign(variant=[v if v == "defaults" else f"{_section6(v)} {v}" for v in opt.variant])
    eff_table = effects.assign(**{"§6": [_section6(v) for v in effects.variant]})[
        ["§6", "variant", "value", "ci_low", "ci_high", "change", "change_low", "change_high"]].rename(
        columns={"value": "dealer advantage", "ci_low": "95% low", "ci_high": "95% high",
                 "change": "change from defaults", "change_low": "change low", "change_high": "change high"})
    sections.append(Section("Which option readings change the money", [
        ("p", "Each reading of §6 is played alone against the defaults with the same seed. The change's interval "
              "treats the two runs as independent, which is conservative: readings that do not change play "
              "(most only change the scoring of rare hands) share their deals with the defaults."),
        ("figure", plot_option_dealer_advantage(labelled),
         f"Dealer advantage under each §6 option reading and its change from the defaults, {p0} players"),
        ("table", eff_table, "Dealer advantage (dealer's mean net per hand) and its change from the defaults"),
        ("table", _wide(opt, ["variant"], {"tou_mean": "頭 of a win", "mean_transfer": "winner's take"}),
         f"Mean 頭 of a win and the winner's mean take per hand (money), {p0} players, colour_cut, 95% intervals"),
        ("table", sd, "Standard deviation of each seat's net per hand (money), seats from the dealer"),
    ]))
    step(progress, "value of skill (search)")
    skill, n_skill = skill_table(p0, hands, seed, workers=workers, scheduler=scheduler,
                                 checkpoint=sub({"checkpoint": checkpoint}, "skill"))
    results["skill"] = skill
    sections.append(Section("How much skill is worth", _skill_blocks(skill, n_skill, p0)))
    lines = _summary(players, hands, stake, results, effects)
    results["summary"] = lines
    sections.insert(0, Section("Summary", [("p", line) for line in lines]))
    sections.append(Section("Methods", [
        ("p", f"Exact odds by integer enumeration of count vectors grouped by symmetry (kaptai.nineten.odds); "
              f"{hands:,} hands per simulation with seed {seed}, compiled engine, 95% intervals (Wilson for "
              f"proportions, normal for means). Variants share the seed (common deals at the start of every "
              f"chunk). Every figure and every number of the summary is drawn from this run's tables "
              f"(kaptai.nineten.plots)."),
    ]))
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · "
            f"players {', '.join(map(str, players))} · {hands:,} hands per simulation · seed {seed}")
    return "Nine-ten (九支十仔) — odds, claims and money report", sections, meta, results
