"""Big Two (鋤大D) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec`; each function below is the
entry point of one ``kaptai`` command for Big Two, called with the parsed arguments and
the spec, returning a :class:`kaptai.games.Output`.
"""

from __future__ import annotations

import argparse

from kaptai.spec import Command, GameSpec, Opt, Output

__all__ = ["SPEC"]


_PRESETS = ("hong_kong",)
_POLICIES = ("greedy", "random", "heuristic", "search")
#: kaptai.bigtwo.fairness.VARIANT_SETS by name (a test checks it)
_VARIANT_SETS = ("scoring", "settlement", "scoring_settlement", "winner_bonus", "top_rule", "suit_order",
                 "first_lead", "passing", "malaysian", "straight_order", "players")


def _rules(args: argparse.Namespace, game: GameSpec):
    """The RuleSet of ``--rules``, ``-o`` and the Big Two flags (players are a rule option here)."""
    overrides = dict(args.option or [])
    if getattr(args, "straight_order", None) is not None:
        overrides["straight_order"] = args.straight_order
    if "players" not in overrides:
        overrides["players"] = args.players
    return game.resolve_rules(args.rules, **overrides)


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.bigtwo.odds import best_hand_distribution, check_hand_kind, deal_odds

    rules = _rules(args, game)
    hand = args.hand
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
        policies=parse_seat_policies(args.policy, rules.players, default=game.policies[0]),
        malaysian_swap=args.malaysian_swap, workers=args.workers, progress=args.progress, scheduler=args.scheduler,
        checkpoint=args.checkpoint,
    )
    from kaptai.core.records import record_option

    record_option(args, game, players=rules.players, rules=rules,
                  policies=parse_seat_policies(args.policy, rules.players, default=game.policies[0]),
                  malaysian_swap=args.malaysian_swap)
    return Output(df, "Monte Carlo, 95% intervals", ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.bigtwo.fairness import fairness as run
    from kaptai.bigtwo.plots import plot_fairness
    from kaptai.core.options import parse_seat_policies

    df = run(args.players, args.hands, args.seed, variants=args.variants,
             policies=parse_seat_policies(args.policy, args.players, default=game.policies[0]), progress=args.progress,
             workers=args.workers, scheduler=args.scheduler, checkpoint=args.checkpoint)
    if args.plot:
        plot_fairness(df, path=args.plot)
    return Output(df, "fairness: expected value per seat by scoring variant, 95% intervals",
                  ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


def advise(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.bigtwo.advisor import ADVICE_COLUMNS
    from kaptai.bigtwo.advisor import advise as run
    from kaptai.core.advise import stop_text

    rules = _rules(args, game)
    df = run(args.hand, played=args.played, to_beat=args.to_beat, by=args.by, cards_left=args.cards_left,
             rules=rules, history=args.history, samples=args.samples, seed=args.seed, budget_ms=args.budget_ms)
    a = df.attrs
    where = f"to beat {a['to_beat']} (seat {a['by']})" if a["to_beat"] else "leading"
    title = (f"every option {where}, cards left {'/'.join(map(str, a['cards_left']))}: expected net of the hand "
             f"({a['unit']}) and P(win), 95% intervals, vs_best = paired difference to the best option, rollouts "
             f"by {a['method'].split(chr(39))[1]}"
             + (f", layouts weighed by the history's {a['history']} actions" if a.get("history") else "")
             + f"; equal values share a rank; {stop_text(a)}")
    return Output(df, title, ADVICE_COLUMNS,
                  legend="seats count from you (0) in the direction of play: 1 = next player, "
                         f"{rules.players - 1} = previous player")


def league(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.league import league_command
    from kaptai.core.records import league_record

    out = league_command(args, game)
    league_record(args, game, game.resolve_rules(args.rules, **dict(args.option or [])), players=args.players[0])
    return out


def _commands() -> dict[str, Command]:
    from kaptai.core import cli_options as o
    from kaptai.core.play import play_options
    from kaptai.core.review import review_options

    span, name = (2, 52), "big-two"
    players = o.players(span, 4)
    rules = o.rules(_PRESETS)
    return {
        "odds": Command(_M + "odds", (
            players, *rules,
            Opt("--straight-order", "choice", default=None,
                choices=("hk", "sequential", "poker", "wheel_top", "broadway_top"),
                help="which straights rank how (default: the preset's)"),
            Opt("--hand", "choice", default="dealt",
                choices=("dealt", "leftover_receiver", "non_receiver", "seat_average"),
                help="which hand: the dealt 52//N cards; the seat that receives the 52 mod N "
                     "leftover cards; a seat that does not; a seat at random"),
            *o.output(),
        ), example=f"kaptai odds {name} --players 3 --hand leftover_receiver",
            rule_fields=("players", "top_rank", "suit_order", "straight_order", "straight_suit_card", "quad_kicker",
                         "two_pair_five"),
            rule_note="odds counts the cards of a deal and the hands they make: the play, the scoring and the money "
                      "do not change them"),
        "simulate": Command(_M + "simulate", (
            players, o.hands(100_000, "games to play"), o.seed(), o.policy(_POLICIES), *rules,
            Opt("--malaysian-swap", "choice", default="policy", choices=("policy", "always", "never"),
                help="with -o malaysian_3p=true: who decides the swap"),
            *o.record(), *o.runner(), *o.output(),
        ), example=f"kaptai simulate {name} --games 100000 --seed 1 --policy 0=heuristic", monte_carlo=True,
            rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "fairness": Command(_M + "fairness", (
            players, o.hands(100_000, "games per variant"), o.seed(),
            o.variants(_VARIANT_SETS, "scoring_settlement"), o.policy(_POLICIES), o.plot(), *o.runner(),
            *o.output(),
        ), example=f"kaptai fairness {name} --variants top_rule --games 50000", monte_carlo=True),
        "advise": Command(_M + "advise", (
            o.hand("your cards", "3D 4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D"),
            Opt("--played", "str", default="", empty_ok=True, metavar="CARDS", sample="5C 6D 7H 8S",
                help="every card played so far in the hand (default: none)"),
            Opt("--to-beat", "str", default=None, metavar="PLAY", sample="JH",
                help="the play on the table (default: you lead)"),
            Opt("--by", "int", default=None, lo=1, hi=51, unit="seat",
                help="who made it, counted from you in the direction of play: 1 = the next player; "
                     "default the previous player"),
            Opt("--history", "str", default=None, metavar="ACTIONS", sample="3D, 5D, pass, 9S",
                help="every action of the hand so far in order from its first lead, comma-separated: a play "
                     "or 'pass' (e.g. '3D 4D 5D 6D 7D, pass, 8C 9C TC JC QC, pass, pass, pass, 2C'); the "
                     "seats follow the turn order and the last action is the previous turn's. Replaces "
                     "--played, --to-beat and --by, and lets the search weigh its layouts by what each "
                     "seat played and passed"),
            Opt("--cards-left", "str", default=None, metavar="COUNTS", sample="10,6,9",
                help="cards held by seats 1, 2, ... (default: the unseen cards shared out evenly, "
                     "extras to the seats nearest after you; they must add up with your hand and --played "
                     "to the deck)"),
            players, *o.advice_budget("position"),
            Opt("--seed", "int", default=0, lo=0, hi=o.MAX_SEED, unit="seed",
                help="seed of the sampled layouts (the same seed gives the same answer)"),
            *rules, *o.output(),
        ), example=f'kaptai advise {name} "4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C" --to-beat 3D --by 3',
            rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "league": Command(_M + "league", (
            o.player_counts(span, "4"), *rules, o.policies(_POLICIES), o.hands(20_000, "hands per policy"),
            o.seed(), *o.league_tables(), *o.league_scope(), *o.record(200), *o.runner(), *o.output(),
        ), example=f"kaptai league {name} --players 3,4 --hands 20000 -o settlement=winner_takes_all",
            monte_carlo=True, rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "replay": Command("kaptai.core.records:replay_command", (o.record_file(), *o.output(percent=False)),
                          example=f"kaptai replay {name} games.jsonl"),
        "play": Command("kaptai.bigtwo.play:play_command",
                        play_options(players, _PRESETS, _POLICIES, "search", span[1]),
                        example=f"kaptai play {name} --opponents search --hints --record my-game.jsonl",
                        rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "review": Command("kaptai.bigtwo.play:review_command", review_options(),
                          example=f"kaptai review {name} games.jsonl --seat 0 --html review.html"),
        "report": Command("kaptai.report:report_command", (
            o.player_counts(span, "2-8"), o.hands(20_000, "games per Monte Carlo configuration"), o.seed(),
            *o.report_output(), *o.runner(),
        ), example=f"kaptai report {name} --players 3,4 --games 20000", monte_carlo=True),
    }


_M = "kaptai.bigtwo.commands:"
#: The rule options of a session of games, which no command but a session reads (-o refuses them)
_SESSION_RULES = ("bankroll",)
_SESSION_NOTE = "bankroll caps a player's losses over a session of games; every game here is settled alone"

#: Big Two (鋤大D), 2-52 players (4 by default).
SPEC = GameSpec(
    name="big-two",
    title="Big Two (鋤大D)",
    rules_page="docs/rules/big-two.md",
    players=(2, 52),
    players_note="3-4 usual",
    default_players=4,
    package="kaptai.bigtwo",
    presets=_PRESETS,
    policies=_POLICIES,
    variant_sets="kaptai.bigtwo.fairness:VARIANT_SETS",
    default_variants="scoring_settlement",
    report_players="2-8",
    report_sections="kaptai.report.bigtwo:build_sections",
    atlas="kaptai.bigtwo.atlas:FEED",
    metrics=("kaptai.core.league:LEAGUE_METRICS", "kaptai.bigtwo.simulate:METRICS", "kaptai.bigtwo.fairness:FAIRNESS_METRICS"),
    commands=_commands(),
)
