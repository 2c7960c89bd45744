"""Kap Tai Shap (夾大十) and Kap Shap (夾十) on the command line: the registry entries.

:data:`KAP_TAI_SHAP` and :data:`KAP_SHAP` are this package's :class:`kaptai.games.GameSpec`;
each function below is the entry point of one ``kaptai`` command for these games, called
with the parsed arguments and the spec, returning a :class:`kaptai.games.Output`.
"""

from __future__ import annotations

import argparse

from kaptai.games import Arg, Command, GameSpec, Output

__all__ = ["KAP_TAI_SHAP", "KAP_SHAP"]

def _rules(args: argparse.Namespace, game: GameSpec):
    return game.resolve_rules(args.rules or game.presets[0], **dict(args.option or []))


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.odds import deal_odds

    players = game.check_players(args.players)
    df = deal_odds(players, _rules(args, game), distance=not args.no_distance)
    title = (f"exact deal odds, {df['sets'].iloc[0]} set(s) (value = probability; distributions are conditional, "
             f"see docs)")
    return Output(df, title, ["hand", "metric", "level", "value", "exact"])


def simulate(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_seat_policies
    from kaptai.kts.simulate import simulate as run

    players = game.check_players(args.players)
    df = run(
        players,
        _rules(args, game),
        hands=args.hands,
        seed=args.seed,
        policies=parse_seat_policies(args.policy, players),
        workers=args.workers,
        progress=not args.no_progress,
        scheduler=args.scheduler,
        checkpoint=args.checkpoint,
    )
    return Output(df, "Monte Carlo, 95% intervals", ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.settlement import validate_cut
    from kaptai.kts.fairness import fairness as run
    from kaptai.kts.plots import plot_fairness

    if args.cut is not None:
        validate_cut(args.cut)
    players = game.check_players(args.players)
    df = run(players, args.hands, args.seed, cut=args.cut, variants=args.variants or game.default_variants,
             policies=args.policy, progress=not args.no_progress, workers=args.workers, scheduler=args.scheduler,
             checkpoint=args.checkpoint)
    if args.plot:
        plot_fairness(df, path=args.plot)
    return Output(df, "fairness: expected value per seat and house take by variant, 95% intervals",
                  ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


def league(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_player_range
    from kaptai.kts.league import LEAGUE_POLICIES, plot_league, policy_league

    df = policy_league(
        players=tuple(parse_player_range(args.players)),
        rules=tuple(r.strip() for r in (args.rules_list or ",".join(game.presets)).split(",")),
        hands=args.hands,
        seed=args.seed,
        policies=tuple(p.strip() for p in (args.policies or ",".join(LEAGUE_POLICIES)).split(",")),
        include_advisor=args.advisor_hands > 0,
        advisor_hands=max(args.advisor_hands, 1),
        workers=args.workers,
        progress=not args.no_progress,
    )
    if args.plot:
        plot_league(df).savefig(args.plot, dpi=110, bbox_inches="tight")
    return Output(df, "policy league: win rate, EV per hand and value of play, 95% intervals",
                  ["rules", "players", "policy", "metric", "value", "ci_low", "ci_high", "hands"])


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
    players = game.check_players(args.players)
    df = run(args.hand, rules, seen=args.seen or (), players=players, sets=args.sets)
    if df.empty and args.format in (None, "table") and args.out is None:
        return Output(None, text="not ready: no tile completes this hand")
    df.attrs.update({"game": game.name, "rules": rules.to_dict(), "players": players})
    return Output(df, "the tiles that complete the hand, with their live outs")


def advise(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.advisor import advise as run

    players = args.players if args.players is not None else game.default_players
    model = args.model or "lookahead"
    objective = args.objective or "win"
    df = run(args.hand, _rules(args, game), seen=args.seen or (), draws=args.draws, players=players,
             sets=args.sets, offered=args.offered, model=model, claims=bool(args.claims), objective=objective)
    if model == "one_tile":
        title = (f"P(win within {args.draws} own draws), keeping the hand and throwing every tile "
                 f"that does not win; expected score of that win (one-tile model)")
    else:
        title = (f"{df.attrs.get('model', 'exact look-ahead')}; ranked by "
                 f"{'P(win)' if objective == 'win' else 'expected score'} within {args.draws} "
                 f"{'turns (claim, then draw)' if args.claims else 'own draws'}")
    return Output(df, title, [c for c in df.columns if c != "exact"])


def draw_odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.kts.advisor import draw_odds as run

    players = args.players if args.players is not None else game.default_players
    df = run(args.hand, _rules(args, game), seen=args.seen or (), draws=args.draws, players=players,
             sets=args.sets, claims=args.claims)
    return Output(df, f"exact P(win) by discard within {args.draws} own draws"
                  + (", with claims of the previous discard" if args.claims else ""))


def _commands(report: bool) -> dict[str, Command]:
    m = "kaptai.kts.commands:"
    out = {
        "odds": Command(m + "odds", args=(
            Arg("--no-distance", action="store_true", default=None,
                help="skip the distance-from-ready tables (faster)"),
        )),
        "simulate": Command(m + "simulate"),
        "fairness": Command(m + "fairness"),
        "report": Command("kaptai.report:report_command"),
        "league": Command(m + "league"),
        "evaluate": Command(m + "evaluate"),
        "waits": Command(m + "waits"),
        "advise": Command(m + "advise", args=(
            Arg("--model", default=None, choices=("lookahead", "one_tile"),
                help="lookahead (default): exact optimal play with hand changes over the next draws; "
                     "one_tile: keep the hand and throw every tile that does not win"),
            Arg("--objective", default=None, choices=("win", "score"),
                help="maximise P(win) (default) or the expected score"),
            Arg("--claims", action="store_true", default=None,
                help="each turn looks at the previous player's discard (claim or not), then draws"),
        )),
        "draw-odds": Command(m + "draw_odds"),
    }
    if not report:
        del out["report"]
    return out


_COMMON = dict(
    rules_page="kap-tai-shap.md",
    package="kaptai.kts",
    presets=("traditional", "advanced"),
    policies=("greedy", "random", "score", "lookahead"),
    variant_sets="kaptai.kts.fairness:VARIANT_SETS",
    default_variants="traditional,advanced",
)

#: Kap Tai Shap (夾大十): 3-22 players in the rules, 2-22 here (2 is Kap Shap's deal).
KAP_TAI_SHAP = GameSpec(
    name="kap-tai-shap",
    title="Kap Tai Shap (夾大十)",
    players=(2, 22),
    default_players=4,
    commands=_commands(report=True),
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
    commands=_commands(report=False),
    **_COMMON,  # type: ignore[arg-type]
)
