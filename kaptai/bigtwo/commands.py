"""Big Two (鋤大D) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec`; each function below is the
entry point of one ``kaptai`` command for Big Two, called with the parsed arguments and
the spec, returning a :class:`kaptai.games.Output`.
"""

from __future__ import annotations

import argparse

from kaptai.errors import RulesError
from kaptai.games import Arg, Command, GameSpec, Output

__all__ = ["SPEC"]


def _rules(args: argparse.Namespace, game: GameSpec):
    """The RuleSet of ``--rules``, ``-o`` and the Big Two flags (players are a rule option here)."""
    overrides = dict(args.option or [])
    if getattr(args, "straight_order", None):
        overrides["straight_order"] = args.straight_order
    if getattr(args, "players", None) is not None and "players" not in overrides:
        overrides["players"] = args.players
    return game.resolve_rules(args.rules, **overrides)


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.bigtwo.odds import best_hand_distribution, check_hand_kind, deal_odds

    rules = _rules(args, game)
    hand = args.hand or "dealt"
    check_hand_kind(rules.players, hand)  # no leftover receiver where the 52 cards deal evenly
    df = deal_odds(rules.players, rules, hand=hand)
    if hand == "dealt":
        attrs = df.attrs
        df = pd.concat([df, best_hand_distribution(rules.players, rules)], ignore_index=True)
        df.attrs = attrs
    title = f"exact odds of the {hand.replace('_', ' ')} hand of {df['hand'].iloc[0]} cards (value = probability)"
    return Output(df, title, ["metric", "breakdown", "level", "value", "exact"])


def simulate(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.bigtwo.simulate import simulate as run
    from kaptai.core.options import parse_seat_policies

    rules = _rules(args, game)
    df = run(
        rules.players, rules, games=args.hands, seed=args.seed,
        policies=parse_seat_policies(args.policy, rules.players), malaysian_swap=args.malaysian_swap or "policy",
        workers=args.workers, progress=not args.no_progress, scheduler=args.scheduler, checkpoint=args.checkpoint,
    )
    return Output(df, "Monte Carlo, 95% intervals", ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.bigtwo.fairness import fairness as run
    from kaptai.bigtwo.plots import plot_fairness
    from kaptai.core.options import parse_seat_policies

    if args.cut not in (None, 0, 0.0):
        raise RulesError("big-two has no house cut: --cut does not apply")
    players = args.players or game.default_players
    df = run(players, args.hands, args.seed, variants=args.variants or game.default_variants,
             policies=parse_seat_policies(args.policy, players), progress=not args.no_progress,
             workers=args.workers, scheduler=args.scheduler, checkpoint=args.checkpoint)
    if args.plot:
        plot_fairness(df, path=args.plot)
    return Output(df, "fairness: expected value per seat by scoring variant, 95% intervals",
                  ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


_M = "kaptai.bigtwo.commands:"

#: Big Two (鋤大D), 2-52 players (4 by default).
SPEC = GameSpec(
    name="big-two",
    title="Big Two (鋤大D)",
    rules_page="big-two.md",
    players=(2, 52),
    default_players=4,
    package="kaptai.bigtwo",
    presets=("hong_kong",),
    policies=("greedy", "random", "heuristic"),
    variant_sets="kaptai.bigtwo.fairness:VARIANT_SETS",
    default_variants="scoring_settlement",
    report_players="2-8",
    report_sections="kaptai.report.bigtwo:build_sections",
    atlas="kaptai.bigtwo.atlas:FEED",
    commands={
        "odds": Command(_M + "odds", args=(
            Arg("--straight-order", default=None, help="hk, sequential, poker, wheel_top, broadway_top"),
            Arg("--hand", default=None, choices=("dealt", "leftover_receiver", "non_receiver", "seat_average"),
                help="which hand: the dealt 52//N cards (default); the seat that receives the 52 mod N "
                     "leftover cards; a seat that does not; a seat at random"),
        )),
        "simulate": Command(_M + "simulate", args=(
            Arg("--malaysian-swap", default=None, choices=("policy", "always", "never"),
                help="with -o malaysian_3p=true: who decides the swap (default: the policy)"),
        )),
        "fairness": Command(_M + "fairness"),
        "report": Command("kaptai.report:report_command"),
    },
)
