"""Kap Tai Shap (夾大十) and Kap Shap (夾十) on the command line: the registry entries.

:data:`KAP_TAI_SHAP` and :data:`KAP_SHAP` are this package's :class:`kaptai.games.GameSpec`;
each function below is the entry point of one ``kaptai`` command for these games, called
with the parsed arguments and the spec, returning a :class:`kaptai.games.Output`.
"""

from __future__ import annotations

import argparse

from kaptai.spec import Command, GameSpec, Opt, Output

__all__ = ["KAP_TAI_SHAP", "KAP_SHAP"]

def _rules(args: argparse.Namespace, game: GameSpec):
    return game.resolve_rules(args.rules, **dict(args.option or []))


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.odds import deal_odds

    df = deal_odds(args.players, _rules(args, game), distance=not args.no_distance)
    sets = int(df["sets"].iloc[0])
    title = (f"exact deal odds, {sets} set{'s' if sets != 1 else ''} (value = probability, mean_* rows a mean; "
             f"distributions are conditional, see docs)")
    return Output(df, title, ["hand", "metric", "level", "value", "exact"], legend=_odds_legend(df))


def _odds_legend(df) -> str:
    """What the rows of the deal-odds table are, in a few words each (printed under the table)."""
    from kaptai.kts.odds import DEAL_METRICS

    lines = ["hand: first = the first hand's 2n+2 tiles (the player who draws first), "
             "other = every other player's 2n+1 tiles, table = the whole table (the dice)"]
    for metric in dict.fromkeys(df["metric"]):
        text = DEAL_METRICS.get(metric)
        if text:
            lines.append(f"{metric}: {text}")
    return "\n".join(lines)


def simulate(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_seat_policies
    from kaptai.kts.simulate import simulate as run

    df = run(
        args.players,
        _rules(args, game),
        hands=args.hands,
        seed=args.seed,
        policies=parse_seat_policies(args.policy, args.players, default=game.policies[0]),
        workers=args.workers,
        progress=args.progress,
        scheduler=args.scheduler,
        checkpoint=args.checkpoint,
    )
    from kaptai.core.records import record_option

    record_option(args, game, players=args.players, rules=_rules(args, game),
                  policies=parse_seat_policies(args.policy, args.players, default=game.policies[0]))
    return Output(df, "Monte Carlo, 95% intervals", ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_seat_policies
    from kaptai.kts.fairness import fairness as run
    from kaptai.kts.plots import plot_fairness

    df = run(args.players, args.hands, args.seed, cut=args.cut, variants=args.variants,
             policies=parse_seat_policies(args.policy, args.players, default=game.policies[0]),
             progress=args.progress, workers=args.workers, scheduler=args.scheduler,
             checkpoint=args.checkpoint)
    if args.plot:
        plot_fairness(df, path=args.plot)
    return Output(df, "fairness: expected value per seat and house take by variant, 95% intervals",
                  ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


def league(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.league import plot_league, policy_league
    from kaptai.core.records import league_record

    def record() -> None:
        league_record(args, game, args.rules_list.split(",")[0], players=args.players[0])

    if not getattr(args, "cross", False):
        from kaptai.core.league import scope_args

        scope_args(args, False)  # refused: --challenger chooses the rows of a cross-play
    if getattr(args, "cross", False) or getattr(args, "diff", False):
        from kaptai.kts.league import league_tables_command

        out = league_tables_command(args, game)
        record()
        return out
    df = policy_league(
        players=tuple(args.players),
        rules=tuple(args.rules_list.split(",")),
        hands=args.hands,
        seed=args.seed,
        policies=tuple(args.policies.split(",")),
        include_advisor=args.advisor_hands > 0,
        advisor_hands=max(args.advisor_hands, 1),
        workers=args.workers,
        progress=args.progress,
        scheduler=args.scheduler,
        checkpoint=args.checkpoint,
        strong_hands=args.strong_hands,
    )
    if args.plot:
        plot_league(df, path=args.plot)
    record()
    from kaptai.kts.league import league_output

    return league_output(args, df)


def evaluate(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.kts.evaluate import evaluate as run

    rules = _rules(args, game)
    fixed = game.players[0] if game.players[0] == game.players[1] else None  # kap-shap: the 2-player hand sizes
    ev = run(args.hand, rules, sets=args.sets, players=fixed)
    row = {"win": ev.is_win, "score": ev.score, "form": ev.form, "specials": ",".join(sorted(ev.specials)),
           "decomposition": ev.describe()}
    df = pd.DataFrame([row])
    df.attrs.update({"game": game.name, "rules": rules.to_dict()})
    return Output(df, f"evaluation of the hand {args.hand}")


def waits(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.evaluate import waits as run

    rules = _rules(args, game)
    df = run(args.hand, rules, seen=args.seen or (), players=args.players, sets=args.sets)
    if df.empty and args.format in (None, "table") and args.out is None:
        return Output(None, text="not ready: no tile completes this hand")
    df.attrs.update({"game": game.name, "rules": rules.to_dict(), "players": args.players})
    return Output(df, "the tiles that complete the hand, with their live outs")


def advise(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.advisor import advise as run

    df = run(args.hand, _rules(args, game), seen=args.seen or (), draws=args.draws, players=args.players,
             sets=args.sets, offered=args.offered, model=args.model, claims=args.claims, objective=args.objective)
    ties = ("exact, no sampling; options equal on every key share a rank (competition ranking: 1, 2, 2, 4), "
            "so equal P(win) with different expected scores rank apart")
    if args.model == "one_tile":
        title = (f"P(win within {args.draws} own draws), keeping the hand and throwing every tile "
                 f"that does not win; expected score of that win (one-tile model); ranked by P(win), then the "
                 f"expected score, then live outs, then distance; {ties}")
    else:
        first, second = (("P(win)", "the expected score") if args.objective == "win"
                         else ("p_win_within × expected_score (the expected score, a hand that does not win "
                               "counting 0)", "P(win)"))
        title = (f"{df.attrs.get('model', 'exact look-ahead')}; ranked by {first} within {args.draws} "
                 f"{'turns (claim, then draw)' if args.claims else 'own draws'}, then {second}, then live outs, "
                 f"then distance; {ties}")
    return Output(df, title, [c for c in df.columns if c != "exact"])


def draw_odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.advisor import draw_odds as run

    df = run(args.hand, _rules(args, game), seen=args.seen or (), draws=args.draws, players=args.players,
             sets=args.sets, claims=args.claims)
    return Output(df, f"exact P(win) by discard within {args.draws} own draws"
                  + (", with claims of the previous discard" if args.claims else ""))


_M = "kaptai.kts.commands:"
#: What the value of one hand depends on: the winning forms, their scoring and the tiles in play
_HAND_RULES = ("forms", "base_combination", "gee_joon_run_value", "sets")
_HAND_NOTE = ("it values one player's tiles: only the winning forms, their scoring and the sets in play matter, "
              "not the claims, the turn, the dice or the settlement")
_PRESETS = ("traditional", "advanced")
_POLICIES = ("greedy", "random", "score", "lookahead", "lookahead_score", "search")
#: kaptai.kts.fairness.VARIANT_SETS and kaptai.kts.league.LEAGUE_POLICIES, by name (a test checks them), so
#: building the command line imports no engine
_VARIANT_SETS = ("presets", "forms_settlement", "base_combination", "drawn_hand", "claim_turn", "house_cut",
                 "players")
_LEAGUE_POLICIES = ("random", "greedy", "score", "lookahead", "lookahead_score", "search")
#: every built-in a league accepts (kaptai.kts.policies.BUILTIN_POLICIES)
_BUILTIN_POLICIES = ("random", "greedy", "score", "lookahead", "lookahead_score", "search")
_HAND = "16 16 16 12 33 13 15 22 66 45"
#: kaptai.kts.rules.MAX_SETS (a test checks it), so building the command line imports no numpy
_MAX_SETS = 8


def _commands(name: str, span: tuple[int, int], default_players: int, report: bool) -> dict[str, Command]:
    """The commands of Kap Tai Shap (``report=True``, 2-22 players) or Kap Shap (2 players)."""
    from kaptai.core import cli_options as o
    from kaptai.core.play import play_options
    from kaptai.core.review import review_options

    players = o.players(span, default_players)
    rules = o.rules(_PRESETS)
    sets = o.sets(_MAX_SETS)
    small = span[0] == span[1]
    # sample hands (help examples, tests): 2n+2 after the draw, 2n+1 one short, a complete one
    turn = _HAND if not small else "16 16 33 14 13 23 46 12"
    short = turn.rsplit(" ", 1)[0]
    hand10 = "66 66 44 44 14 14 55 55 46 46" if not small else "16 16 33 14 13 23 46 55"
    draws = Opt("--draws", "int", default=3, lo=1, hi=12, unit="own draws", help="horizon in own draws")
    seen = o.seen("44 44")
    out = {
        "odds": Command(_M + "odds", (
            players, *rules, *o.output(),
            Opt("--no-distance", "flag", help="skip the distance-from-ready tables (faster)"),
        ), example=f"kaptai odds {name} --players {default_players} --format json",
            rule_fields=(*_HAND_RULES, "dice"),
            rule_note="odds counts the deal, its hands and the dice: the play and the settlement do not change them"),
        "simulate": Command(_M + "simulate", (
            players, o.hands(100_000), o.seed(), o.policy(_POLICIES), *rules, *o.record(), *o.runner(), *o.output(),
        ), example=f"kaptai simulate {name} --hands 200000 --seed 1 --policy 0=lookahead", monte_carlo=True,
            rule_ignores=("dealer_keeps_on_win", "drawn_hand"),
            rule_note="dealer_keeps_on_win and drawn_hand carry the deal and the pot from one hand to the next (a "
                      "session); simulate plays independent hands"),
        "fairness": Command(_M + "fairness", (
            players, o.hands(100_000, "hands per variant"), o.seed(), o.cut(),
            o.variants(_VARIANT_SETS, "traditional,advanced", multi=_PRESETS),
            o.policy(_POLICIES), o.plot(), *o.runner(), *o.output(),
        ), example=f"kaptai fairness {name} --hands 100000 --variants house_cut --plot fair.png", monte_carlo=True),
        "replay": Command("kaptai.core.records:replay_command", (o.record_file(), *o.output(percent=False)),
                          example=f"kaptai replay {name} games.jsonl"),
        "play": Command("kaptai.kts.play:play_command",
                        play_options(players, _PRESETS, _POLICIES, "lookahead", span[1],
                                     "your seat at the table for the whole session, the seats numbered from 0 in "
                                     "turn order (seat 0 deals the first hand; the deal passes to the next seat "
                                     "after every hand, or stays with a winning dealer under dealer_keeps_on_win)"),
                        example=f"kaptai play {name} --opponents lookahead --hints --record my-game.jsonl"),
        "review": Command("kaptai.kts.review_search:review_command", (*review_options(256), Opt(
            "--advisor", "choice", default="search", choices=("search", "exact"),
            help="what grades a decision: search (default) values every option by the search policy's rollouts "
                 "on --samples layouts (greedy rollouts under pot, score under advanced; the loss in the record's "
                 "unit, antes under pot and points under advanced, "
                 "cross-fitted as --cross-fit says), exact by the exact look-ahead's P(win within the next looks) "
                 "(no sampling)")),
                          example=f"kaptai review {name} games.jsonl --seat 0 --html review.html"),
        "league": Command(_M + "league", (
            o.player_counts(span, str(default_players)),
            Opt("--rules-list", "str", default=",".join(_PRESETS), metavar="PRESETS", check=_presets_list,
                help="rulesets (presets), comma-separated"),
            Opt("--policies", "str", default=",".join(_LEAGUE_POLICIES), metavar="POLICIES",
                check=_policy_list, help="policies, comma-separated"),
            o.hands(20_000, "hands per policy and configuration"),
            Opt("--advisor-hands", "int", default=0, lo=0, hi=o.MAX_HANDS, unit="hands",
                help="also play the advisor-driven policy for this many hands (pure Python, ~20 hands/s)"),
            o.seed(), o.plot("save the EV plot (with --cross or --diff: the heat map) to this file"),
            *o.league_tables()[:2], *o.league_scope(), *o.record(200), *o.runner(), *o.output(),
        ), example=f"kaptai league {name} --players {span[0] if small else '4,6'} --hands 20000", monte_carlo=True),
        "evaluate": Command(_M + "evaluate", (
            o.hand("a complete hand, e.g. \"66 66 44 44 14 14 55 55 46 46\"", hand10), sets, *rules,
            *o.output(percent=False),
        ), example=f'kaptai evaluate {name} "{hand10}"', rule_fields=_HAND_RULES, rule_note=_HAND_NOTE),
        "waits": Command(_M + "waits", (
            o.hand("a hand one tile short (2n+1 tiles)", short), seen, players, sets, *rules,
            *o.output(percent=False),
        ), example=f'kaptai waits {name} "{short}" --seen "44 44"', rule_fields=_HAND_RULES, rule_note=_HAND_NOTE),
        "advise": Command(_M + "advise", (
            o.hand("a hand after the draw (2n+2 tiles), or 2n+1 with --offered", turn),
            seen, draws,
            Opt("--offered", "str", default=None, metavar="TILE", help="the previous player's discard: claim it or not?"),
            players, sets,
            Opt("--model", "choice", default="lookahead", choices=("lookahead", "one_tile"),
                help="lookahead: exact optimal play with hand changes over the next draws; "
                     "one_tile: keep the hand and throw every tile that does not win"),
            Opt("--objective", "choice", default="win", choices=("win", "score"),
                help="maximise P(win) or the expected score"),
            Opt("--claims", "flag", help="each turn looks at the previous player's discard (claim or not), then draws"),
            *rules, *o.output(),
        ), example=f'kaptai advise {name} "{turn}" --seen "44 44" --draws 3', rule_fields=_HAND_RULES,
            rule_note=_HAND_NOTE),
        "draw-odds": Command(_M + "draw_odds", (
            o.hand("a hand after the draw (2n+2 tiles)", turn),
            seen, draws, Opt("--claims", "flag", help="the next player may also claim the previous discard"),
            players, sets, *rules, *o.output(),
        ), example=f'kaptai draw-odds {name} "{turn}" --draws 2', rule_fields=_HAND_RULES, rule_note=_HAND_NOTE),
    }
    if report:
        out["report"] = Command("kaptai.report:report_command", (
            o.player_counts(span, "3-10"), o.hands(20_000, "hands per Monte Carlo configuration"), o.seed(),
            *o.report_output(), *o.runner(),
        ), example=f"kaptai report {name} --players 3-6 --hands 20000 --out reports/{name}.html", monte_carlo=True)
    return out


def _presets_list(text: str) -> str:
    from kaptai.core.cli_options import names_list

    return names_list(_PRESETS, "preset")(text)


def _policy_list(text: str) -> str:
    from kaptai.core.cli_options import names_list

    return names_list(_BUILTIN_POLICIES, "policy")(text)


_COMMON = dict(
    rules_page="docs/rules/kap-tai-shap.md",
    package="kaptai.kts",
    presets=_PRESETS,
    policies=_POLICIES,
    variant_sets="kaptai.kts.fairness:VARIANT_SETS",
    default_variants="traditional,advanced",
    metrics=("kaptai.kts.simulate:METRICS", "kaptai.kts.fairness:FAIRNESS_METRICS"),
)

#: Kap Tai Shap (夾大十): 3-22 players in the rules, 2-22 here (2 is Kap Shap's deal).
KAP_TAI_SHAP = GameSpec(
    name="kap-tai-shap",
    title="Kap Tai Shap (夾大十)",
    players=(2, 22),
    players_note="2 is Kap Shap's deal",
    default_players=4,
    commands=_commands("kap-tai-shap", (2, 22), 4, report=True),
    report_players="3-10",
    report_sections="kaptai.report.kts:build_sections",
    atlas="kaptai.kts.atlas:FEED",
    **_COMMON,  # type: ignore[arg-type]
)

#: Kap Shap (夾十): the two-player game.
KAP_SHAP = GameSpec(
    name="kap-shap",
    title="Kap Shap (夾十)",
    players=(2, 2),
    default_players=2,
    commands=_commands("kap-shap", (2, 2), 2, report=False),
    **_COMMON,  # type: ignore[arg-type]
)
