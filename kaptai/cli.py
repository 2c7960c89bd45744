"""The ``kaptai`` command line: a thin layer over the library functions.

Examples
--------
``kaptai odds kap-tai-shap --players 4 --rules advanced --format json``
``kaptai simulate kap-tai-shap --players 4 --hands 1000000 --seed 1 --policy greedy``
``kaptai evaluate kap-tai-shap "66 66 44 44 14 14 55 55 46 46" --rules advanced``
``kaptai advise kap-tai-shap "16 16 16 12 33 13 15 22 66 45" --seen "44" --draws 3``
``kaptai waits kap-tai-shap "16 16 16 12 33 13 15 22 66" --seen "44 26"``

Errors in the input (a bad tile, option or player count) print one line
``kaptai: error: ...`` on stderr and exit with status 2, without a traceback.
"""

from __future__ import annotations

import argparse
import ast
import sys
from typing import Any, Sequence

import pandas as pd

from kaptai._version import __version__
from kaptai.core.options import parse_player_range, parse_seat_policies
from kaptai.core.output import FORMATS, emit, interrupted_message, want_progress
from kaptai.core.paths import check_arg_paths
from kaptai.errors import KaptaiError, RulesError

__all__ = ["main", "build_parser"]

KTS_GAMES = ("kap-tai-shap", "kap-shap")
_KTS_VARIANTS = "traditional,advanced"
OTHER_GAMES = ("big-two", "nine-ten", "nantong", "heaven-eleven")
#: commands each game supports so far (the rest say so instead of failing obscurely)
GAME_COMMANDS = {"big-two": ("odds", "simulate", "fairness", "report")}


def _option(text: str) -> tuple[str, Any]:
    """Parse ``KEY=VALUE`` (VALUE as a Python literal when it is one)."""
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {text!r}")
    key, value = text.split("=", 1)
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        parsed = {"true": True, "false": False}.get(value.lower(), value)
    return key.strip().replace("-", "_"), parsed


def _rules(args: argparse.Namespace):
    """The RuleSet of ``--rules`` and ``-o`` options, for the game named in ``args.game``."""
    overrides = dict(args.option or [])
    if args.game == "big-two":
        from kaptai.bigtwo.rules import resolve_rules as big_two_rules

        if getattr(args, "straight_order", None):
            overrides["straight_order"] = args.straight_order
        if getattr(args, "players", None) is not None and "players" not in overrides:
            overrides["players"] = args.players
        return big_two_rules(args.rules, **overrides)
    from kaptai.kts.rules import resolve_rules

    if getattr(args, "straight_order", None):  # a Big Two option (the registry CLI refuses it generically)
        raise RulesError(f"--straight-order does not apply to {args.game} (it is a big-two option)")

    return resolve_rules(args.rules or "traditional", **overrides)


def _check_game(game: str, command: str = "") -> None:
    if game in OTHER_GAMES and command not in GAME_COMMANDS.get(game, ()):
        what = f"'kaptai {command} {game}'" if command else f"game {game!r}"
        raise RulesError(f"{what} is not available yet: kaptai models {', '.join(KTS_GAMES)} fully"
                         + (f"; {game} has: {', '.join(GAME_COMMANDS[game])}" if game in GAME_COMMANDS else ""))


def _players(args: argparse.Namespace) -> int:
    if args.players is not None:
        return args.players
    return 2 if args.game == "kap-shap" else 4


def _emit(df: pd.DataFrame, args: argparse.Namespace, columns: Sequence[str] | None = None, title: str | None = None) -> None:
    emit(df, args.format, out=getattr(args, "out", None), columns=columns, title=title, percent=getattr(args, "percent", False))


def _cmd_odds(args: argparse.Namespace) -> None:
    from kaptai.kts.odds import deal_odds

    _check_game(args.game, "odds")
    if args.game == "big-two":
        return _big_two_odds(args)
    players = _players(args)
    if args.game == "kap-shap" and players != 2:
        raise RulesError(f"kap-shap is the two-player game; got --players {players}")
    if args.hand != "dealt":
        raise RulesError(f"--hand {args.hand} does not apply to {args.game} (it is a big-two option)")
    df = deal_odds(players, _rules(args), distance=not args.no_distance)
    _emit(df, args, ["hand", "metric", "level", "value", "exact"],
          f"exact deal odds, {df['sets'].iloc[0]} set(s) (value = probability; distributions are conditional, see docs)")


_policy_arg = parse_seat_policies  # ``greedy`` for every seat, or ``SEAT=POLICY,...`` (a seat given twice: error)


def _cmd_simulate(args: argparse.Namespace) -> None:
    from kaptai.kts.simulate import simulate

    _check_game(args.game, "simulate")
    if args.game == "big-two":
        return _big_two_simulate(args)
    players = _players(args)
    if args.game == "kap-shap" and players != 2:
        raise RulesError(f"kap-shap is the two-player game; got --players {players}")
    if args.malaysian_swap != "policy":
        raise RulesError(f"--malaysian-swap does not apply to {args.game} (it is a big-two option)")
    df = simulate(
        players,
        _rules(args),
        hands=args.hands,
        seed=args.seed,
        policies=_policy_arg(args.policy, players),
        workers=args.workers,
        progress=want_progress(args.no_progress),
        scheduler=args.scheduler,
        checkpoint=args.checkpoint,
    )
    _emit(df, args, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"], "Monte Carlo, 95% intervals")


_player_range = parse_player_range  # ``3-10`` or ``3,4,6`` -> list of player counts (3-1: error)


def _cmd_report(args: argparse.Namespace) -> None:
    from kaptai.report import build_report

    _check_game(args.game, "report")
    if args.out is None:
        args.out = f"reports/{args.game}.html"
    fmt = args.format or ("md" if str(args.out).endswith(".md") else "html")
    if args.players is None:
        args.players = "2-8" if args.game == "big-two" else "3-10"
    build_report(args.game, players=_player_range(args.players), hands=args.hands, seed=args.seed, out=args.out,
                 fmt=fmt, workers=args.workers, progress=want_progress(args.no_progress), scheduler=args.scheduler,
                 checkpoint=args.checkpoint)
    print(f"wrote {args.out}")


def _cmd_league(args: argparse.Namespace) -> None:
    from kaptai.kts.league import plot_league, policy_league

    _check_game(args.game, "league")
    df = policy_league(
        players=tuple(_player_range(args.players)),
        rules=tuple(r.strip() for r in args.rules_list.split(",")),
        hands=args.hands,
        seed=args.seed,
        policies=tuple(p.strip() for p in args.policies.split(",")),
        include_advisor=args.advisor_hands > 0,
        advisor_hands=max(args.advisor_hands, 1),
        workers=args.workers,
        progress=want_progress(args.no_progress),
    )
    if args.plot:
        plot_league(df).savefig(args.plot, dpi=110, bbox_inches="tight")
    _emit(df, args, ["rules", "players", "policy", "metric", "value", "ci_low", "ci_high", "hands"],
          "policy league: win rate, EV per hand and value of play, 95% intervals")


def _cmd_fairness(args: argparse.Namespace) -> None:
    from kaptai.core.settlement import validate_cut
    from kaptai.kts.fairness import fairness, plot_fairness

    _check_game(args.game, "fairness")
    if args.game == "big-two":
        return _big_two_fairness(args)
    if args.cut is not None:
        validate_cut(args.cut)
    players = _players(args)
    df = fairness(players, args.hands, args.seed, cut=args.cut, variants=args.variants, policies=args.policy,
                  progress=want_progress(args.no_progress), workers=args.workers, scheduler=args.scheduler,
                  checkpoint=args.checkpoint)
    if args.plot:
        plot_fairness(df, path=args.plot)
    _emit(df, args, ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"],
          "fairness: expected value per seat and house take by variant, 95% intervals")


def _big_two_odds(args: argparse.Namespace) -> None:
    from kaptai.bigtwo import deal_odds as big_two_odds

    from kaptai.bigtwo.odds import best_hand_distribution, check_hand_kind

    rules = _rules(args)
    check_hand_kind(rules.players, args.hand)  # no leftover receiver where 52 deal evenly
    df = big_two_odds(rules.players, rules, hand=args.hand)
    if args.hand == "dealt":
        attrs = df.attrs
        df = pd.concat([df, best_hand_distribution(rules.players, rules)], ignore_index=True)
        df.attrs = attrs
    _emit(df, args, ["metric", "breakdown", "level", "value", "exact"],
          f"exact odds of the {args.hand.replace('_', ' ')} hand of {df['hand'].iloc[0]} cards (value = probability)")


def _big_two_simulate(args: argparse.Namespace) -> None:
    from kaptai.bigtwo.simulate import simulate as big_two_simulate

    rules = _rules(args)
    df = big_two_simulate(
        rules.players, rules, games=args.hands, seed=args.seed,
        policies=_policy_arg(args.policy, rules.players), malaysian_swap=args.malaysian_swap,
        workers=args.workers, progress=want_progress(args.no_progress), scheduler=args.scheduler, checkpoint=args.checkpoint,
    )
    _emit(df, args, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"], "Monte Carlo, 95% intervals")


def _big_two_fairness(args: argparse.Namespace) -> None:
    from kaptai.bigtwo.fairness import fairness as big_two_fairness, plot_fairness as big_two_plot

    if args.cut not in (None, 0, 0.0):
        raise RulesError("big-two has no house cut: --cut does not apply")
    variants = "scoring_settlement" if args.variants == _KTS_VARIANTS else args.variants
    df = big_two_fairness(args.players or 4, args.hands, args.seed, variants=variants,
                          policies=_policy_arg(args.policy, args.players or 4), progress=want_progress(args.no_progress),
                          workers=args.workers, scheduler=args.scheduler, checkpoint=args.checkpoint)
    if args.plot:
        big_two_plot(df, path=args.plot)
    _emit(df, args, ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"],
          "fairness: expected value per seat by scoring variant, 95% intervals")


def _cmd_evaluate(args: argparse.Namespace) -> None:
    from kaptai.kts.evaluate import evaluate

    _check_game(args.game, "evaluate")
    rules = _rules(args)
    ev = evaluate(args.hand, rules, sets=args.sets, players=2 if args.game == "kap-shap" else None)
    row = {"win": ev.is_win, "score": ev.score, "form": ev.form, "specials": ",".join(sorted(ev.specials)),
           "decomposition": ev.describe()}
    df = pd.DataFrame([row])
    df.attrs.update({"game": args.game, "rules": rules.to_dict()})
    _emit(df, args, title=f"evaluation of the hand {args.hand}")


def _cmd_waits(args: argparse.Namespace) -> None:
    from kaptai.kts.evaluate import waits

    _check_game(args.game, "waits")
    rules = _rules(args)
    df = waits(args.hand, rules, seen=args.seen or (), players=_players(args), sets=args.sets)
    if df.empty and args.format in (None, "table") and args.out is None:
        print("not ready: no tile completes this hand")
        return
    df.attrs.update({"game": args.game, "rules": rules.to_dict(), "players": _players(args)})
    _emit(df, args, title="the tiles that complete the hand, with their live outs")


def _cmd_advise(args: argparse.Namespace) -> None:
    from kaptai.kts.advisor import advise

    _check_game(args.game, "advise")
    players = _players(args)
    df = advise(args.hand, _rules(args), seen=args.seen or (), draws=args.draws, players=players,
                sets=args.sets, offered=args.offered)
    _emit(df, args, [c for c in df.columns if c != "exact"],
          f"P(win within {args.draws} own draws), keeping the hand and throwing every tile that does not win; "
          "expected score of that win")


def _cmd_draw_odds(args: argparse.Namespace) -> None:
    from kaptai.kts.advisor import draw_odds

    _check_game(args.game, "draw-odds")
    df = draw_odds(args.hand, _rules(args), seen=args.seen or (), draws=args.draws, players=_players(args),
                   sets=args.sets, claims=args.claims)
    _emit(df, args, title=f"exact P(win) by discard within {args.draws} own draws"
          + (", with claims of the previous discard" if args.claims else ""))


def _add_runner_args(p: argparse.ArgumentParser, workers: bool = True) -> None:
    if workers:
        p.add_argument("--workers", type=int, default=1,
                       help="worker processes (same seed, same table for any number)")
    p.add_argument("--scheduler", default=None,
                   help="run the chunks on a Dask cluster: tcp://host:port, or 'local' for a LocalCluster "
                        "(needs pip install kaptai[distributed])")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="write each finished chunk to DIR; rerunning the same command resumes from there")


def _add_rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default=None,
                   help="preset: traditional (default) or advanced; big-two: hong_kong (default)")
    p.add_argument(
        "--option", "-o", action="append", type=_option, metavar="KEY=VALUE",
        help="set a rule option on top of the preset, e.g. -o forms=basic,run4 -o gee_joon_run_value=3 (repeatable)",
    )
    _add_output_args(p)


def _add_output_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=FORMATS, default=None,
                   help="table (default), csv, json or parquet (default: from the --out suffix)")
    p.add_argument("--out", default=None, metavar="FILE", help="write the table to FILE (parquet needs it)")
    p.add_argument("--percent", action="store_true", help="probabilities as percentages (table format)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``kaptai`` command."""
    parser = argparse.ArgumentParser(prog="kaptai", description="Odds for traditional Chinese tile and card games.")
    parser.add_argument("--version", action="version", version=f"kaptai {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    games = KTS_GAMES + OTHER_GAMES

    p = sub.add_parser("odds", help="exact odds of the deal")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=None, help="2-22 (default 4; 2 for kap-shap)")
    p.add_argument("--no-distance", action="store_true", help="skip the distance-from-ready tables (faster)")
    p.add_argument("--straight-order", default=None, help="big-two only: hk, sequential, poker, wheel_top, broadway_top")
    p.add_argument("--hand", default="dealt", choices=("dealt", "leftover_receiver", "non_receiver", "seat_average"),
                   help="big-two only: which hand (the dealt 52//N cards, default; the seat that receives the "
                        "52 mod N leftover cards; a seat that does not; a seat at random)")
    _add_rules_args(p)
    p.set_defaults(func=_cmd_odds)

    p = sub.add_parser("simulate", help="Monte Carlo of whole hands with playing policies")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=None, help="2-22 (default 4; 2 for kap-shap)")
    p.add_argument("--hands", "--games", dest="hands", type=int, default=100_000,
                   help="hands (big-two: games) to play (default 100000)")
    p.add_argument("--seed", type=int, default=None, help="seed (default: fresh entropy, printed in the output attrs)")
    p.add_argument("--policy", default="greedy",
                   help="random | greedy | score (kap-tai-shap) or random | greedy | heuristic (big-two) for every "
                        "seat, or SEAT=POLICY,... (others greedy)")
    p.add_argument("--malaysian-swap", default="policy", choices=("policy", "always", "never"),
                   help="big-two with -o malaysian_3p=true: who decides the swap (default: the policy)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    _add_runner_args(p)
    _add_rules_args(p)
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("advise", help="rank the discards of a 10-tile hand, or advise on claiming an offered tile")
    p.add_argument("game", choices=games)
    p.add_argument("hand", help='10 tiles (8 in kap-shap), or 9 (7) with --offered')
    p.add_argument("--seen", default="", help="tiles already visible (discards, exposed tiles)")
    p.add_argument("--draws", type=int, default=3, help="horizon in own draws (default 3)")
    p.add_argument("--offered", default=None, help="the previous player's discard: claim it or not?")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--sets", type=int, default=None)
    _add_rules_args(p)
    p.set_defaults(func=_cmd_advise)

    p = sub.add_parser("draw-odds", help="exact odds of winning within k own draws")
    p.add_argument("game", choices=games)
    p.add_argument("hand")
    p.add_argument("--seen", default="")
    p.add_argument("--draws", type=int, default=3)
    p.add_argument("--claims", action="store_true", help="the next player may also claim the previous discard")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--sets", type=int, default=None)
    _add_rules_args(p)
    p.set_defaults(func=_cmd_draw_odds)

    p = sub.add_parser("fairness", help="expected value per seat, house take and fairness of scoring variants")
    p.add_argument("game", choices=games)
    p.add_argument("--players", type=int, default=None, help="2-22 (default 4; 2 for kap-shap)")
    p.add_argument("--hands", "--games", dest="hands", type=int, default=100_000, help="hands (big-two: games) per simulation")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cut", type=float, default=None, help="house cut 0-1 for every variant (default: each ruleset's)")
    p.add_argument("--variants", default=_KTS_VARIANTS,
                   help="presets, comma-separated, or a ready-made set name (kap-tai-shap: kaptai.kts.fairness."
                        "VARIANT_SETS, default traditional,advanced; big-two: kaptai.bigtwo.fairness.VARIANT_SETS, "
                        "default scoring_settlement)")
    p.add_argument("--policy", default="greedy")
    p.add_argument("--plot", default=None, help="save the seat-EV / house-take figure to this file")
    _add_output_args(p)
    p.add_argument("--no-progress", action="store_true")
    _add_runner_args(p)
    p.set_defaults(func=_cmd_fairness)

    p = sub.add_parser("league", help="policies head to head: win rate, EV per hand, value of playing well")
    p.add_argument("game", choices=games)
    p.add_argument("--players", default="4", help="player counts, e.g. 3-10 or 3,4,6 (default 4)")
    p.add_argument("--rules-list", default="traditional,advanced", help="rulesets (presets), comma-separated")
    p.add_argument("--policies", default="random,greedy,score")
    p.add_argument("--hands", type=int, default=20_000, help="hands per policy and configuration")
    p.add_argument("--advisor-hands", type=int, default=0,
                   help="also play the advisor-driven policy for this many hands (pure Python, ~20 hands/s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--plot", default=None, help="save the EV plot to this file")
    _add_output_args(p)
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=_cmd_league)

    p = sub.add_parser("report", help="build the strategy report (self-contained HTML or Markdown)")
    p.add_argument("game", choices=games)
    p.add_argument("--players", default=None,
                   help="player counts, e.g. 3-10 or 3,4,6 (default 3-10; big-two 2-8, for its exact odds)")
    p.add_argument("--hands", "--games", dest="hands", type=int, default=20_000,
                   help="hands (games) per Monte Carlo configuration")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None, help="output file (default reports/<game>.html)")
    p.add_argument("--format", choices=("html", "md"), default=None, help="default: from the --out suffix")
    p.add_argument("--no-progress", action="store_true")
    _add_runner_args(p)
    p.set_defaults(func=_cmd_report)

    p = sub.add_parser("evaluate", help="classify and score one complete hand")
    p.add_argument("game", choices=games)
    p.add_argument("hand", help='e.g. "66 66 44 44 14 14 55 55 46 46"')
    p.add_argument("--sets", type=int, default=None, help="sets in play (rejects impossible copies)")
    _add_rules_args(p)
    p.set_defaults(func=_cmd_evaluate)

    p = sub.add_parser("waits", help="tiles that complete a hand of 9 (7), with live outs")
    p.add_argument("game", choices=games)
    p.add_argument("hand")
    p.add_argument("--seen", default="", help="tiles already visible (discards)")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--sets", type=int, default=None)
    _add_rules_args(p)
    p.set_defaults(func=_cmd_waits)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``kaptai`` command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        check_arg_paths(args)  # --out, --plot, --checkpoint: before any work
        args.func(args)
    except KaptaiError as exc:
        print(f"kaptai: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        print(interrupted_message(exc), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
