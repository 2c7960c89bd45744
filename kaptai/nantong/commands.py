"""Nantong long cards (南通長牌) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec`; each function below is the entry
point of one ``kaptai`` command, called with the parsed arguments and the spec, returning a
:class:`kaptai.games.Output`.

Examples
--------
>>> import argparse
>>> from kaptai.nantong.commands import SPEC, score
>>> ns = argparse.Namespace(record="jiang=qz,qz win=none hand=147w 258w 369w 147t 258t 369b 147b 5b melds=hezi:qz",
...                         rules=None, option=None, format="json")
>>> score(ns, SPEC).record["total"]
130
"""

from __future__ import annotations

import argparse

from kaptai.errors import RulesError
from kaptai.games import Arg, Command, GameSpec, Output

__all__ = ["SPEC", "odds", "simulate", "fairness", "score", "waits", "evaluate"]


def _rules(args: argparse.Namespace, game: GameSpec):
    overrides = dict(getattr(args, "option", None) or [])
    rules = getattr(args, "rules", None)
    return game.resolve_rules(None if rules in (None, "traditional") else rules, **overrides)


def _players(args: argparse.Namespace, game: GameSpec) -> int:
    from kaptai.nantong.rules import validate_players

    return validate_players(game.check_players(getattr(args, "players", None)))


def _policy(args: argparse.Namespace, game: GameSpec, active: int):
    from kaptai.core.options import parse_seat_policies

    text = getattr(args, "policy", None) or game.policies[0]
    if text == "greedy":  # the command line's shared default
        text = game.policies[0]
    return parse_seat_policies(text, active, default=game.policies[0])


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nantong.odds import deal_odds

    rules = _rules(args, game)
    players = _players(args, game)
    df = deal_odds(players, rules)
    return Output(df, f"# nantong: {players} players, rules {rules.name} — exact deal odds",
                  ["hand", "metric", "breakdown", "level", "value", "exact"])


def simulate(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nantong.simulate import simulate as run

    rules = _rules(args, game)
    players = _players(args, game)
    active = rules.active_players(players)
    df = run(players, rules, hands=args.hands, seed=args.seed, policies=_policy(args, game, active),
             workers=args.workers, progress=not args.no_progress, scheduler=args.scheduler, checkpoint=args.checkpoint)
    header = (f"# nantong: {players} players, rules {rules.name}, {args.hands} hands, seed {df.attrs['seed_entropy']}"
              f" — Monte Carlo, 95% intervals")
    return Output(df, header, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nantong.fairness import VARIANT_SETS, compare_variants
    from kaptai.nantong.fairness import fairness as run

    if getattr(args, "cut", None) not in (None, 0, 0.0):
        raise RulesError("nantong has no house cut: --cut does not apply")
    players = _players(args, game)
    rules = game.resolve_rules()
    per_match = rules.rounds * players
    matches = max(1, int(args.hands) // per_match)
    pol = _policy(args, game, rules.active_players(players))
    variants = args.variants or game.default_variants
    if variants in VARIANT_SETS:
        df = compare_variants(variants, players, matches, args.seed, policies=pol, progress=not args.no_progress,
                              workers=args.workers)
    elif variants in (None, "nantong"):
        df = run(players, None, matches, args.seed, policies=pol, progress=not args.no_progress,
                 workers=args.workers, scheduler=args.scheduler, checkpoint=args.checkpoint)
    else:
        raise RulesError(f"unknown variants {variants!r}: expected one of {', '.join(VARIANT_SETS)} or 'nantong'")
    if getattr(args, "plot", None):
        from kaptai.nantong.plots import plot_fairness

        plot_fairness(df, path=args.plot)
    header = f"# nantong: {players} players, {matches} matches of {per_match} hands, seed {args.seed}"
    return Output(df, header, ["variant", "settlement", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


def score(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.nantong.scoring import score as run

    rules = _rules(args, game)
    s = run(args.record, rules)
    if getattr(args, "format", "table") == "json":
        return Output(record=s.to_dict())
    df = pd.DataFrame([{"item": a, "hu": b} for a, b in s.items]
                      + [{"item": "multiplier", "hu": s.multiplier}, {"item": "raw", "hu": s.raw},
                         {"item": "total (破頭)", "hu": s.total}])
    kind = s.win_type and f"{s.win_type}" or "non-completer"
    return Output(df, f"# nantong: {kind}, total {s.total}", ["item", "hu"])


def waits(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.nantong.cards import format_card
    from kaptai.nantong.evaluate import distance, live_outs

    rules = _rules(args, game)
    w, outs = live_outs(args.hand, seen=args.seen or None, rules=rules)
    from kaptai.nantong.evaluate import hand_counts

    h = hand_counts(args.hand)
    seen = hand_counts(args.seen) if args.seen else None
    rows = [{"wait": format_card(k), "live": int(4 - h[k] - (0 if seen is None else seen[k]))} for k in w]
    df = pd.DataFrame(rows, columns=["wait", "live"])
    return Output(df, f"# nantong: distance from ready {distance(args.hand, rules)}, {outs} live outs", ["wait", "live"])


def evaluate(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.nantong.evaluate import distance, hand_counts, is_complete
    from kaptai.nantong.reference import decompositions

    rules = _rules(args, game)
    h = hand_counts(args.hand)
    rows = [{"metric": "cards", "value": int(h.sum())},
            {"metric": "complete", "value": bool(is_complete(h, rules)) if h.sum() % 3 == 2 else False},
            {"metric": "distance", "value": distance(h, rules) if h.sum() % 3 else None},
            {"metric": "decompositions", "value": len(decompositions(h, rules.honour_sequence))}]
    return Output(pd.DataFrame(rows), "# nantong: hand analysis", ["metric", "value"])


_M = "kaptai.nantong.commands:"

#: Nantong long cards (南通長牌), 3 or 4 players (3 active).
SPEC = GameSpec(
    name="nantong",
    aliases=("nantong-long-cards", "changpai"),
    title="Nantong long cards (南通長牌)",
    rules_page="nantong-long-cards.md",
    players=(3, 4),
    default_players=3,
    package="kaptai.nantong",
    presets=("nantong",),
    policies=("max_melds", "chase_qing", "chase_hun", "random"),
    variant_sets="kaptai.nantong.fairness:VARIANT_SETS",
    default_variants="nantong",
    report_players="3,4",
    report_sections="kaptai.report.nantong:build_sections",
    atlas="kaptai.nantong.atlas:FEED",
    commands={
        "odds": Command(_M + "odds"),
        "simulate": Command(_M + "simulate"),
        "fairness": Command(_M + "fairness"),
        "score": Command(_M + "score"),
        "waits": Command(_M + "waits"),
        "evaluate": Command(_M + "evaluate"),
        "report": Command("kaptai.report:report_command"),
    },
)
