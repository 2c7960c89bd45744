"""Nine-ten (九支十仔) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec` (id ``nine-ten``, alias
``four-colour``); each function below is the entry point of one ``kaptai`` command, called
with the parsed arguments and the spec, returning a :class:`kaptai.games.Output`.
"""

from __future__ import annotations

import argparse

from kaptai.games import Arg, Command, GameSpec, Output

__all__ = ["SPEC"]


def _rules(args: argparse.Namespace, game: GameSpec):
    return game.resolve_rules(getattr(args, "rules", None) or game.presets[0], **dict(getattr(args, "option", None) or []))


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nineten.odds import deal_odds
    from kaptai.nineten.rules import validate_players

    rules = _rules(args, game)
    players = validate_players(game.check_players(getattr(args, "players", None)), rules)
    df = deal_odds(players, rules)
    header = (f"# nine-ten: {players} players, rules {rules.name} — exact deal odds (value = probability; "
              f"method monte_carlo rows are sampled deals)")
    return Output(df, header, ["hand", "metric", "level", "value", "exact", "method"])


def score(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.nineten.scoring import score as run

    rules = _rules(args, game)
    s = run(args.record, rules)
    players = getattr(args, "players", None) or game.default_players
    obj = s.to_dict(players=players, winner=getattr(args, "winner", None) or 0, source=getattr(args, "source", None))
    if getattr(args, "format", "table") == "json":
        return Output(record=obj)
    rows = [{"component": k, "tou": obj[k]} for k in ("colours", "self_draw", "bonus", "kaizhao", "kaizhao_wait")]
    rows.append({"component": "total", "tou": obj["total"]})
    header = (f"# nine-ten: {obj['record']} — k = {obj['colour_count']} colours; {obj['payer']}; "
              f"money {obj['money']:g} per payer (stake {obj['stake_per_tou']:g}/頭); net {obj['net']}")
    return Output(pd.DataFrame(rows), header, ["component", "tou"])


def simulate(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_seat_policies
    from kaptai.nineten.simulate import simulate as run

    rules = _rules(args, game)
    players = game.check_players(getattr(args, "players", None))
    policy = getattr(args, "policy", None) or game.policies[0]
    df = run(players, rules, hands=args.hands, seed=args.seed,
             policies=parse_seat_policies(policy, players, default=game.policies[0]),
             house_cut=getattr(args, "cut", None) or 0.0, workers=getattr(args, "workers", 1),
             progress=not getattr(args, "no_progress", False), scheduler=getattr(args, "scheduler", None),
             checkpoint=getattr(args, "checkpoint", None))
    header = (f"# nine-ten: {players} players, rules {rules.name}, {args.hands} hands, seed {args.seed}"
              f" — Monte Carlo, 95% intervals; money = 頭 x stake_per_tou")
    return Output(df, header, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nineten.fairness import fairness as run

    players = game.check_players(getattr(args, "players", None))
    df = run(players, args.hands, args.seed, variants=getattr(args, "variants", None) or game.default_variants,
             house_cut=getattr(args, "cut", None) or 0.0, progress=not getattr(args, "no_progress", False),
             workers=getattr(args, "workers", 1))
    if getattr(args, "plot", None):
        from kaptai.nineten.plots import plot_fairness

        plot_fairness(df, path=args.plot)
    return Output(df, None, ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


_M = "kaptai.nineten.commands:"

#: Nine-ten (九支十仔), 4-7 players to play (2-3 and 8-15 by options), 4 by default.
SPEC = GameSpec(
    name="nine-ten",
    aliases=("four-colour",),
    title="Nine-ten (九支十仔)",
    rules_page="four-colour-nine-ten.md",
    players=(2, 15),
    default_players=4,
    package="kaptai.nineten",
    presets=("taiwan",),
    policies=("colour_cut", "live_first", "random"),
    variant_sets="kaptai.nineten.fairness:VARIANT_SETS",
    default_variants="options",
    report_players="4-7",
    report_sections="kaptai.report.nineten:build_sections",
    atlas="kaptai.nineten.atlas:FEED",
    commands={
        "odds": Command(_M + "odds"),
        "score": Command(_M + "score", args=(
            Arg("record", help='scoring record: "HAND | win=self|flip|discard [| kz=CARDS] [| kzwait=CARD] '
                               '[| bonus=C1 C2 C3 C4 C5]"'),
            Arg("--winner", type=int, default=None, help="winner's seat for the net table (default 0)"),
            Arg("--source", type=int, default=None, help="discarder/flipper seat (default: the seat after the winner)"),
        )),
        "simulate": Command(_M + "simulate"),
        "fairness": Command(_M + "fairness"),
        "report": Command("kaptai.report:report_command"),
    },
)
