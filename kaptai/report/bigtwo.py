"""The Big Two (鋤大D) report: odds of the deal and the fairness of the scoring, computed in one run.

Sections: the rules modelled; exact deal odds (what a dealt hand holds, the best five-card
hand, redeals at the table); who wins (by position from the leader, by policy); how much skill
is worth (the search player against the greedy and the random field, duplicate deals); cards left
and penalties under every scoring option; 獨贏 against Place; 頂大 and 包牌; the Malaysian
swap; the suit order; a plain-language summary; methods.
"""

from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Sequence

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.output import format_estimate
from kaptai.bigtwo.rules import RuleSet
from kaptai.core.plotting import with_cjk_font
from kaptai.report.render import Section, league_caption, league_skill_table
from kaptai.report.render import checkpoint_subdir as _sub
from kaptai.report.render import report_step as _step

__all__ = ["build_sections"]

_TERMS = [
    ("鋤大D", "Big Two", "the game; 'D' is the 2, the top rank"),
    ("炒", "chao (multiplier)", "penalty multiplier for many cards left"),
    ("獨贏", "winner takes all", "every loser pays the winner"),
    ("四人互算", "Place", "every pair of players settles its difference"),
    ("頂大", "blocking", "with the next seat on one card, play a non-single or your highest single"),
    ("包牌", "liability", "a blocking violator pays for the other losers"),
    ("一條龍", "dragon", "all 13 ranks in one hand"),
    ("四字D", "four twos", "all four 2s"),
    ("畢業", "graduation", "a player who has lost all coins leaves"),
]




def _pct(x: float) -> str:
    return f"{100 * x:.2f}%"


def _rules_section() -> Section:
    d = RuleSet().to_dict()
    table = pd.DataFrame([{"option": k, "default (Hong Kong)": str(v)} for k, v in d.items() if k != "name"])
    terms = pd.DataFrame(_TERMS, columns=["Chinese", "English", "meaning"])
    return Section(
        "Rules modelled",
        [
            ("p", "kaptai models the rules page docs/rules/big-two.md with Hong Kong defaults; every option of the page "
                  "can be changed (kaptai.bigtwo.RuleSet). The engine that plays the games is specified in "
                  "docs/big-two-engine.md."),
            ("table", table, "Options and their defaults"),
            ("table", terms, "Terms"),
        ],
    )


@with_cjk_font
def _odds_section(players: Sequence[int], progress: bool) -> tuple[Section, dict[str, pd.DataFrame]]:
    import matplotlib.pyplot as plt

    from kaptai.bigtwo.odds import best_hand_distribution, deal_odds

    frames = []
    for p in players:
        _step(progress, f"exact deal odds: {p} players")
        frames.append(deal_odds(p))
    odds = pd.concat(frames, ignore_index=True)
    main = odds[odds.breakdown.isna()]
    table = main.pivot_table(index="metric", columns="players", values="value", sort=False).reset_index()
    table.columns = [str(c) if c == "metric" else f"{c} players (%)" for c in table.columns]
    for c in table.columns[1:]:
        table[c] = 100 * table[c]
    orders = odds[(odds.breakdown == "straight_order") & (odds.players == (4 if 4 in players else players[0]))]
    ot = orders.pivot_table(index="level", columns="metric", values="value", sort=False).reset_index()
    for c in ot.columns[1:]:
        ot[c] = 100 * ot[c]
    ot.columns = ["straight_order"] + [f"{str(c).removesuffix('_by_order')} %" for c in ot.columns[1:]]
    p4 = 4 if 4 in players else players[0]
    _step(progress, f"exact best five-card hand: {p4} players")
    best = best_hand_distribution(p4)
    per_order = best[best.breakdown.notna()]
    bt = per_order.pivot_table(index="level", columns="breakdown", values="value", sort=False)
    bt.columns = [str(c).replace("straight_order=", "") for c in bt.columns]
    bt = (100 * bt).reset_index().rename(columns={"level": "best five-card hand"})
    fig, ax = plt.subplots(figsize=(7, 3.3))
    for metric in ("pair", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush"):
        q = main[main.metric == metric]
        ax.plot(q.players, 100 * q.value, marker="o", label=metric)
    ax.set_xlabel("players (hand size 52 // players)")
    ax.set_ylabel("P(the hand holds it), %")
    ax.set_yscale("log")
    ax.set_xticks(list(players))
    ax.grid(alpha=.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    sec = Section(
        "Exact deal odds",
        [
            ("p", "Exact probabilities for one dealt hand (52 // players cards), by enumeration of rank count "
                  "vectors with hypergeometric weights and inclusion–exclusion for the suit events; integer "
                  "arithmetic, one division at the end. 'table_redeal_*' is the chance that some player at the "
                  "table may ask for a redeal (leftover cards included)."),
            ("table", table, "What a dealt hand holds, by player count (probabilities in %)"),
            ("table", ot, f"Straights and straight flushes by straight_order, {p4} players (%)"),
            ("table", bt, f"Best five-card hand of a dealt {52 // p4}-card hand (%), by straight_order"),
            ("figure", fig, "Chance of holding each combination, by player count"),
        ],
    )
    return sec, {"odds": odds, "best_five": best}


@with_cjk_font
def _play_section(games: int, seed: int, run: dict, progress: bool):
    import matplotlib.pyplot as plt

    from kaptai.bigtwo.simulate import simulate

    frames = []
    for j, pol in enumerate(("random", "greedy", "heuristic")):
        _step(progress, f"simulate: 4 players, {pol}, {games} games")
        df = simulate(4, None, games, seed + j, policies=pol, workers=run["workers"], progress=False,
                      scheduler=run.get("scheduler"), checkpoint=_sub(run, f"play-{pol}"))
        df["policy"] = pol
        frames.append(df)
    # one heuristic seat against three greedy seats, every seat in turn
    for s in range(4):
        pols = ["greedy"] * 4
        pols[s] = "heuristic"
        _step(progress, f"simulate: heuristic in seat {s} against greedy, {games} games")
        df = simulate(4, None, games, seed + 10 + s, policies=pols, workers=run["workers"], progress=False,
                      scheduler=run.get("scheduler"), checkpoint=_sub(run, f"league-{s}"))
        df["policy"] = f"heuristic@{s}"
        frames.append(df)
    sims = pd.concat(frames, ignore_index=True)
    base = sims[sims.policy.isin(["random", "greedy", "heuristic"])]
    win = base[(base.metric == "win") & (base.relative_to == "leader")]
    # Monte Carlo percentages with the digits their intervals support (27.9, not 27.9333 from 3,000 games)
    win = win.assign(shown=[format_estimate(r.value, r.ci_low, r.ci_high, 100) for r in win.itertuples()])
    wt = win.pivot_table(index="seat", columns="policy", values="shown", aggfunc="first").reset_index()
    wt.columns = ["position from the leader"] + [f"P(win) {c} %" for c in wt.columns[1:]]
    league = []
    for s in range(4):
        d = sims[(sims.policy == f"heuristic@{s}") & (sims.metric == "win") & (sims.relative_to == "seat") & (sims.seat == s)]
        n = sims[(sims.policy == f"heuristic@{s}") & (sims.metric == "net_mean") & (sims.relative_to == "seat") & (sims.seat == s)]
        league.append({"heuristic seat": s,
                       "P(win) %": format_estimate(d.value.iloc[0], d.ci_low.iloc[0], d.ci_high.iloc[0], 100),
                       "95% CI": f"{100 * float(d.ci_low.iloc[0]):.1f}–{100 * float(d.ci_high.iloc[0]):.1f}",
                       "EV per game": format_estimate(n.value.iloc[0], n.ci_low.iloc[0], n.ci_high.iloc[0]),
                       "EV 95% CI": f"{float(n.ci_low.iloc[0]):.2f} to {float(n.ci_high.iloc[0]):.2f}"})
    league = pd.DataFrame(league)
    cards = base[(base.metric == "cards_left") & (base.relative_to == "leader")]
    fig, ax = plt.subplots(figsize=(7, 3.3))
    for pol in ("random", "greedy", "heuristic"):
        q = cards[cards.policy == pol].groupby("level").value.sum() / 4
        ax.plot(q.index.astype(int), 100 * q.values, marker="o", label=pol)
    ax.set_xlabel("cards left at the end of the game (0 = winner)")
    ax.set_ylabel("% of seats")
    ax.grid(alpha=.3)
    ax.legend()
    fig.tight_layout()
    sec = Section(
        "Who wins",
        [
            ("p", f"Four players, Hong Kong rules, {games:,} games per row played by the compiled engine. 'random' "
                  "picks uniformly among legal moves; 'greedy' plays the smallest play that beats the table and "
                  "leads its biggest combination; 'heuristic' plans its hand into combinations, keeps its 2s while "
                  "nobody is close to going out, counts the cards still unseen and respects 頂大."),
            ("table", wt, "P(win) by position from the leader (0 = the ♦3 holder, who leads)"),
            ("table", league, "One heuristic player against three greedy players, in each seat"),
            ("figure", fig, "Distribution of the cards a seat holds when the game ends"),
        ],
    )
    return sec, {"simulations": sims}


#: Hands per policy of the "How much skill is worth" league (the search costs ~1,000x a greedy game).
SKILL_HANDS: int = 8_000


def _skill_section(games: int, seed: int, run: dict, progress: bool):
    """How much skill is worth: the search player against the default (greedy) field and
    against a random field, through the duplicate league: search minus each field, paired over
    the deals."""
    from kaptai.league import policy_league
    from kaptai.report.render import skill_difference_table, skill_difference_text, skill_differences

    hands = max(200, min(int(games) // 4, SKILL_HANDS))
    leagues, diffs = [], []
    for field, pols in (("greedy", ("search", "greedy", "heuristic")), ("random", ("search", "random"))):
        _step(progress, f"league: search against a {field} field, {hands:,} hands a policy")
        df = policy_league("big-two", 4, None, hands, seed + 50, pols, workers=run["workers"], progress=False,
                           baseline=field, scheduler=run.get("scheduler"), checkpoint=_sub(run, f"skill-{field}"))
        diffs += skill_differences(df)
        leagues.append(df)
    lg = pd.concat(leagues, ignore_index=True)
    table = league_skill_table(lg, ("ev_per_hand", "win", "vs_best_other"), 2)
    from kaptai.bigtwo.config import SEARCH_INFER, SEARCH_POOL, SEARCH_SAMPLES

    sec = Section(
        "How much skill is worth",
        [
            ("p", (f"The 'search' player (determinized Monte Carlo, docs/big-two-engine.md: at each decision with two "
                   f"or more options it deals {SEARCH_POOL * SEARCH_SAMPLES:,} layouts of the unseen cards consistent "
                   "with the card counts, gives each other seat a playing style drawn for the layout (one that contests "
                   "every trick, greedy, or heuristic), weights each layout by how well those styles explain the plays "
                   f"and passes seen so far (weight x {SEARCH_INFER}/10 per contradicted action), keeps "
                   f"{SEARCH_SAMPLES} of them drawn in proportion to those weights (before the first play or pass it "
                   f"deals just {SEARCH_SAMPLES}), plays every option and then the rest of the game out on each, and "
                   "takes the option with the best mean net under the scoring in force) against a field of three "
                   "greedy players (the default policy) and against three random players. Hong Kong rules (count "
"scoring, standard 炒, Place settlement), 4 players, on duplicate deals (the league, kaptai league "
                   f"big-two): each of {diffs[0]['deals']:,} deals a table is played with each policy at every seat in "
                   "turn and with the field alone, the same cards in every arrangement. Search minus the field is the "
                   "search seat's net minus the field's net at the same seat on the same deals, averaged over the "
                   "seats, points per game, with the paired 95% interval over the deals. Who leads (the ♦3 holder) "
                   "moves with the deal, so the league gives no split by seat.")),
            ("p", skill_difference_text(diffs, 2, "points", per="game")),
            ("table", skill_difference_table(diffs, 2, "points", per="game"),
             "search minus each field on duplicate deals, points per game (variance ratio: the variance of the "
             "difference under independent deals over that under duplicate deals)"),
            ("table", table, (league_caption(hands) + ": EV per game, "
                              "P(win) and the difference from the best other policy of the table (paired over the "
                              "same deals)")),
        ],
    )
    return sec, {"skill_league": lg, "skill_differences": pd.DataFrame(diffs)}


def _default_policy() -> str:
    """The game's default policy: the one every seat of the atlas's default table plays
    (:data:`kaptai.bigtwo.atlas.FEED`), so the report's seat-fairness figures are the atlas's."""
    from kaptai.bigtwo.atlas import FEED

    return FEED.default_policy


def _scoring_section(games: int, seed: int, run: dict, progress: bool):
    from kaptai.bigtwo.fairness import compare_variants
    from kaptai.bigtwo.plots import plot_fairness

    policy = _default_policy()
    _step(progress, f"fairness: scoring x settlement, {policy}, {games} games")
    sc = compare_variants({**{k: v for k, v in _scoring_variants().items()}}, 4, games, seed + 100, policy,
                          progress=False, workers=run["workers"], scheduler=run.get("scheduler"),
                          checkpoint=_sub(run, "scoring"))
    rows = []
    for v in dict.fromkeys(sc.variant):
        q = sc[sc.variant == v]
        fin = q[(q.metric == "ev_per_hand") & (q.relative_to == "finish")].sort_values("seat")
        sds = q[(q.metric == "sd_per_hand") & (q.relative_to == "seat")]
        sd = format_estimate(sds.value.mean(), sds.ci_low.mean(), sds.ci_high.mean())
        nw = q[q.metric == "nonwinner_positive"].iloc[0]
        lead = q[(q.metric == "leader_advantage")].iloc[0]
        spread = q[(q.metric == "ev_spread") & (q.relative_to == "leader")].iloc[0]
        rows.append({
            "variant": v,
            **{f"EV finish {int(r.seat) + 1}": format_estimate(r.value, r.ci_low, r.ci_high) for r in fin.itertuples()},
            "SD of a seat's net": sd,
            "P(a non-winner ends ahead) %": format_estimate(nw.value, nw.ci_low, nw.ci_high, 100),
            "seat spread": format_estimate(spread.value, spread.ci_low, spread.ci_high),
            "seat spread 95% CI": f"{spread.ci_low:.2f} to {spread.ci_high:.2f}",
            "leader advantage": format_estimate(lead.value, lead.ci_low, lead.ci_high),
            "leader adv. 95% CI": f"{lead.ci_low:.2f} to {lead.ci_high:.2f}",
        })
    table = pd.DataFrame(rows)
    sec = Section(
        "Scoring: 獨贏 against Place, count against points",
        [
            ("p", f"The same {games:,} games, four {policy} players (the game's default policy, as at the atlas's "
                  "default table), scored every way: money per game in points "
                  "(stake 1). 'finish k' is the k-th seat to finish: the winner, then by fewest cards left. Place "
                  "(四人互算) lets the second-best seat win money; winner-takes-all (獨贏) never does. The seat "
                  "spread is max - min of the four seats' EVs counted from the leader (the ♦3 holder), with its "
                  "simultaneous 95% interval (each seat's EV at 1 - 0.05/4): the atlas's seat_spread "
                  "(docs/atlas.md). The leader advantage is the leader's EV minus the mean EV of the others "
                  "(nets sum to 0)."),
            ("table", table, "EV per game by finish position, spread and fairness, per scoring variant"),
            ("figure", plot_fairness(sc, relative_to="finish"),
             "EV per game by finish position under each scoring variant (95% intervals)"),
        ],
    )
    return sec, {"scoring": sc}


def _scoring_variants() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for chao in ("standard", "eight", "8/11/13"):
        for st in ("place", "winner_takes_all"):
            out[f"count {chao}, {st}"] = {"chao": chao, "settlement": st}
    for st in ("place", "winner_takes_all"):
        out[f"points, {st}"] = {"scoring": "points", "settlement": st}
    out["count standard, place, bonus 10"] = {"winner_bonus": 10}
    return out


def _rules_effects_section(games: int, seed: int, run: dict, progress: bool):
    from kaptai.bigtwo.fairness import compare_variants

    parts = {}
    default = _default_policy()
    # the heuristic and greedy players always comply with 頂大, so 包牌 is measured with random players
    for name, players, policy in (("top_rule", 4, "random"), ("suit_order", 4, default),
                                  ("first_lead", 4, default), ("malaysian", 3, default),
                                  ("passing", 4, default)):
        _step(progress, f"fairness: {name}, {policy}, {games} games")
        parts[name] = compare_variants(name, players, games, seed + 200, policy, progress=False,
                                       workers=run["workers"], scheduler=run.get("scheduler"),
                                       checkpoint=_sub(run, f"rules-{name}"))
    rows = []
    for name, df in parts.items():
        for v in dict.fromkeys(df.variant):
            q = df[df.variant == v]
            lead_win = q[(q.metric == "win") & (q.relative_to == "leader") & (q.seat == 0)].iloc[0]
            lead_ev = q[(q.metric == "ev_per_hand") & (q.relative_to == "leader") & (q.seat == 0)].iloc[0]
            lr = q[q.metric == "liability_rate"].iloc[0]
            cost = q[q.metric == "liability_cost_mean"]
            plays = q[q.metric == "plays_mean"].iloc[0]
            rows.append({
                "comparison": name, "variant": v, "policy": df.attrs["policies"][0],
                "leader P(win) %": format_estimate(lead_win.value, lead_win.ci_low, lead_win.ci_high, 100),
                "95% CI": f"{100 * lead_win.ci_low:.1f}–{100 * lead_win.ci_high:.1f}",
                "leader EV": format_estimate(lead_ev.value, lead_ev.ci_low, lead_ev.ci_high),
                "包牌 per 1000 games": format_estimate(lr.value, lr.ci_low, lr.ci_high, 1000),
                "包牌 cost": format_estimate(cost.value.iloc[0], cost.ci_low.iloc[0], cost.ci_high.iloc[0])
                if len(cost) else "",
                "plays per game": format_estimate(plays.value, plays.ci_low, plays.ci_high),
            })
    table = pd.DataFrame(rows)
    sec = Section(
        "Rule options: 頂大, suit order, first lead, passing, the Malaysian swap",
        [
            ("p", f"Four players (three for the Malaysian rows), {games:,} games per variant, Hong Kong scoring "
                  f"(count, standard 炒, Place), {default} players (the game's default policy) except in the top_rule "
                  "rows: the heuristic and greedy policies always comply with 頂大, so the "
                  "top_rule rows are played by random players, who violate it whenever a random choice does. The "
                  "leader is the seat that leads the game (the ♦3 holder, or the previous winner). 包牌 cost: the "
                  "extra amount the liable seat pays because of the liability. Malaysian rows: the ♦3 holder always "
                  "or never swaps the face-down leftover card."),
            ("table", table, "Effect of the rule options on the leader and on 包牌"),
        ],
    )
    return sec, {"rules_effects": parts}


def build_sections(
    players: Sequence[int] = (3, 4, 5, 6),
    games: int = 20_000,
    seed: int = 1,
    *,
    workers: int = 1,
    progress: bool = True,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
) -> tuple[str, list[Section], str, dict[str, Any]]:
    """Compute every section of the Big Two report.

    Returns
    -------
    (title, sections, meta line, results)
        ``results`` holds the computed tables for tests.
    """
    players = sorted({int(p) for p in players})
    run = {"workers": workers, "scheduler": scheduler, "checkpoint": checkpoint}
    results: dict[str, Any] = {}
    sections = [_rules_section()]
    sec, res = _odds_section(players, progress)
    sections.append(sec)
    results.update(res)
    for make in (_play_section, _skill_section, _scoring_section, _rules_effects_section):
        sec, res = make(games, seed, run, progress)
        sections.append(sec)
        results.update(res)
    sections.append(_summary_section(results))
    sections.append(_methods_section(players, games, seed))
    meta = (f"kaptai {__version__} · generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC · "
            f"players {', '.join(map(str, players))} (exact odds) · {games:,} games per simulation · seed {seed}")
    return "Big Two (鋤大D) — odds and scoring fairness report", sections, meta, results


def _summary_section(results: dict[str, Any]) -> Section:
    odds = results["odds"]
    lines = []
    o4 = odds[(odds.players == 4) & odds.breakdown.isna()].set_index("metric").value if (odds.players == 4).any() else None
    if o4 is not None:
        lines.append(f"A 13-card hand holds a dragon (all 13 ranks) once in {1 / o4['dragon']:,.0f} deals and a straight "
                     f"flush {_pct(o4['straight_flush'])} of the time (exact). Someone at a four-player table may ask "
                     f"for a redeal under the Hong Kong points rule in {_pct(o4['table_redeal_points_lt_3'])} of deals.")
    sims = results["simulations"]
    for pol in ("greedy", "heuristic"):
        w = sims[(sims.policy == pol) & (sims.metric == "win") & (sims.relative_to == "leader") & (sims.seat == 0)].iloc[0]
        lines.append(f"With {pol} players the leader (♦3 holder) wins {100 * w.value:.1f}% of games "
                     f"(95% interval {100 * w.ci_low:.1f}–{100 * w.ci_high:.1f}%) against 25% for an even share.")
    league = sims[sims.policy.str.startswith("heuristic@")]
    if len(league):
        seat_rows = league[league.relative_to == "seat"]
        own = seat_rows.seat == seat_rows.policy.str.slice(10).astype(int)  # the heuristic seat of each run
        w = seat_rows[own & (seat_rows.metric == "win")]
        ev = seat_rows[own & (seat_rows.metric == "net_mean")]
        many_rows = (seat_rows.metric == "cards_left") & (seat_rows.level >= 10).fillna(False)
        h_many = seat_rows[many_rows & own].value.sum() / 4  # P(>= 10 cards), averaged over the four runs
        g_many = seat_rows[many_rows & ~own].value.sum() / 12
        lines.append(f"One heuristic player among three greedy ones wins {100 * w.value.min():.1f}–{100 * w.value.max():.1f}% "
                     f"of games depending on its seat (25% would be an even share); its EV per game under Hong Kong "
                     f"scoring is {ev.value.min():.2f} to {ev.value.max():.2f} points. It is left with 10 or more cards "
                     f"(炒 x2 or more) in {100 * h_many:.1f}% of games against {100 * g_many:.1f}% for a greedy seat: "
                     f"holding back control cards wins more games but costs dearly when it loses.")
    lg, sd = results.get("skill_league"), results.get("skill_differences")
    if lg is not None and sd is not None:
        for field in ("greedy", "random"):
            q = lg[(lg.policy == "search") & (lg.opponents == field)].set_index("metric")
            d = sd[sd.field == field]
            if "win" in q.index and len(d):
                w, d = q.loc["win"], d.iloc[0]
                lines.append(f"A search player among three {field} players wins {100 * w.value:.1f}% of games "
                             f"({100 * w.ci_low:.1f}–{100 * w.ci_high:.1f}%) and makes {d.value:+.2f} points a game "
                             f"({d.ci_low:+.2f} to {d.ci_high:+.2f}) more than a {field} player in its seat on the "
                             f"same deals under Hong Kong scoring.")
    sc = results["scoring"]
    pol = sc.attrs["policies"][0]
    for st, label in (("place", "Place"), ("winner_takes_all", "winner-takes-all")):
        v = f"count standard, {st}"
        q = sc[sc.variant == v]
        nw = q[q.metric == "nonwinner_positive"].iloc[0]
        sd = q[(q.metric == "sd_per_hand") & (q.relative_to == "seat")].value.mean()
        sp = q[(q.metric == "ev_spread") & (q.relative_to == "leader")].iloc[0]
        lines.append(f"Under {label} scoring (count, standard 炒; {pol} players) a player other than the winner ends "
                     f"a game ahead {format_estimate(nw.value, nw.ci_low, nw.ci_high, 100)}% of the time; a seat's "
                     f"net per game has a standard deviation of {sd:.1f} points, and the seats' EVs counted from the "
                     f"leader spread by {format_estimate(sp.value, sp.ci_low, sp.ci_high)} points a game (95% "
                     f"interval {sp.ci_low:.2f} to {sp.ci_high:.2f}).")
    eff = results.get("rules_effects", {})
    if "top_rule" in eff:
        q = eff["top_rule"]
        lr = q[(q.variant == "top_rule liability") & (q.metric == "liability_rate")].iloc[0]
        cost = q[(q.variant == "top_rule liability") & (q.metric == "liability_cost_mean")]
        text = (f"Random players under 頂大 liability end {1000 * lr.value:.1f} games in 1,000 with a 包牌 "
                f"(95% interval {1000 * lr.ci_low:.1f}–{1000 * lr.ci_high:.1f})")
        if len(cost):
            text += f"; it costs the liable player {cost.value.iloc[0]:.1f} points more on average"
        lines.append(text + ".")
    if "malaysian" in eff:
        q = eff["malaysian"]
        ev = q[(q.metric == "ev_per_hand") & (q.relative_to == "leader") & (q.seat == 0)].set_index("variant")
        a, n = ev.loc["Malaysian, always swap"], ev.loc["Malaysian, never swap"]
        lines.append(f"In the Malaysian three-player game the ♦3 holder's EV per game is {a.value:.2f} "
                     f"({a.ci_low:.2f} to {a.ci_high:.2f}) when it always swaps and {n.value:.2f} "
                     f"({n.ci_low:.2f} to {n.ci_high:.2f}) when it never does (same deals).")
    if "first_lead" in eff:
        q = eff["first_lead"]
        w = q[(q.metric == "win") & (q.relative_to == "leader") & (q.seat == 0)].set_index("variant")
        lines.append(f"The seat that leads wins {100 * w.value.iloc[0]:.1f}% of games when the ♦3 holder leads and "
                     f"{100 * w.value.iloc[1]:.1f}% when the previous winner leads ({q.attrs['policies'][0]} players).")
    return Section("Summary for players", [("p", line) for line in lines])


def _methods_section(players, games, seed) -> Section:
    return Section(
        "Methods",
        [
            ("p", "Exact results enumerate rank count vectors of a hand with weights prod C(4, c_r), suit events by "
                  "inclusion–exclusion, in exact integers; they are checked in the test suite against brute force "
                  "and Monte Carlo."),
            ("p", f"Monte Carlo results play whole games in the compiled engine (docs/big-two-engine.md), which the "
                  f"tests check move for move against a pure-Python reference engine. One PCG64 stream per chunk of "
                  f"games from numpy's SeedSequence({seed} + offset per configuration): the same seed gives the same "
                  f"report for any number of workers. {games:,} games per configuration; intervals are 95% (Wilson "
                  f"for proportions, normal for means). Scoring variants of one table share its games."),
            ("p", f"Generated by kaptai {__version__} with numpy {np.__version__} and pandas {pd.__version__}."),
        ],
    )
