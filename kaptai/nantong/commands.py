"""Nantong long cards (南通長牌) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec`; each function below is the entry
point of one ``kaptai`` command, called with the parsed arguments and the spec, returning a
:class:`kaptai.games.Output`.

Examples
--------
>>> import argparse
>>> from kaptai.nantong.commands import SPEC, score
>>> ns = argparse.Namespace(record="jiang=qz,qz win=none hand=147w 258w 369w 147t 258t 369b 147b 5b melds=hezi:qz",
...                         rules="nantong", option=None, format="json")
>>> score(ns, SPEC).record["total"]
130
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from kaptai.spec import Command, GameSpec, Opt, Output

if TYPE_CHECKING:
    from kaptai.nantong.rules import RuleSet

__all__ = ["SPEC", "odds", "simulate", "fairness", "score", "waits", "evaluate", "league", "advise"]


_PRESETS = ("nantong",)
_POLICIES = ("max_melds", "chase_qing", "chase_hun", "random", "search")
#: kaptai.nantong.fairness.VARIANT_SETS by name (a test checks it); 'nantong' is the rules as written
_VARIANT_SETS = ("nantong", "qishou", "jiang_set", "discard_triplet", "wenqian", "tie", "dreamer")


def _rules(args: argparse.Namespace, game: GameSpec):
    return game.resolve_rules(args.rules, **dict(args.option or []))


def _players(args: argparse.Namespace, game: GameSpec) -> int:
    from kaptai.nantong.rules import validate_players

    return validate_players(args.players)


def _policy(args: argparse.Namespace, game: GameSpec, active: int, players: int):
    from kaptai.core.options import parse_seat_policies

    where = None if players == active else (
        f"with {players} players: {active} play each hand, as seats 0-{active - 1} (seat 0 deals, then the seats "
        f"after it in turn order); the {players}th sits out")
    return parse_seat_policies(args.policy, active, default=game.policies[0], seats_text=where)


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
    pols = _policy(args, game, rules.active_players(players), players)
    df = run(players, rules, hands=args.hands, seed=args.seed, policies=pols,
             workers=args.workers, progress=args.progress, scheduler=args.scheduler, checkpoint=args.checkpoint)
    from kaptai.core.records import record_option

    record_option(args, game, players=players, rules=rules, policies=pols)
    header = (f"# nantong: {players} players, rules {rules.name}, {args.hands} hands, seed {df.attrs['seed_entropy']}"
              f" — Monte Carlo, 95% intervals")
    return Output(df, header, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nantong.fairness import compare_variants
    from kaptai.nantong.fairness import fairness as run

    players = _players(args, game)
    rules = game.resolve_rules()
    pol = _policy(args, game, rules.active_players(players), players)
    runner = dict(progress=args.progress, workers=args.workers, scheduler=args.scheduler, checkpoint=args.checkpoint)
    matches = _matches(args, rules.rounds * players)
    if args.variants == "nantong":
        df = run(players, None, matches, args.seed, policies=pol, **runner)
    else:
        df = compare_variants(args.variants, players, matches, args.seed, policies=pol, **runner)
    df.attrs.setdefault("policies", pol)
    if args.plot:
        from kaptai.nantong.plots import plot_fairness

        plot_fairness(df, path=args.plot)
    header = f"# nantong: {players} players, {matches} matches of {rules.rounds * players} hands"
    return Output(df, header, ["variant", "settlement", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


def _matches(args: argparse.Namespace, per_match: int) -> int:
    """``--matches``, or ``--hands`` as whole matches of ``per_match`` hands (rounded up), else 4,000."""
    hands = getattr(args, "hands", None)
    if getattr(args, "matches", None) is not None:
        return int(args.matches)
    return -(-int(hands) // per_match) if hands is not None else _MATCHES


def _hands_or_matches(args: argparse.Namespace) -> str | None:
    if getattr(args, "matches", None) is not None:
        return f"--matches {args.matches} is given too: give one of them"
    return None


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
    df = pd.DataFrame(rows, columns=["wait", "live"]).astype({"wait": object, "live": "int64"})
    return Output(df, f"# nantong: distance from ready {distance(args.hand, rules)}, {outs} live outs", ["wait", "live"])


def evaluate(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nantong.evaluate import ANALYSIS_COLUMNS, analyze_hand

    df = analyze_hand(args.hand, _rules(args, game))  # one row, one dtype per column; refuses 0 or 3 cards
    return Output(df, "# nantong: hand analysis", list(ANALYSIS_COLUMNS))


def advise(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.advise import stop_text
    from kaptai.nantong.advisor import ADVICE_COLUMNS
    from kaptai.nantong.advisor import advise as run

    rules = _rules(args, game)
    df = run(args.hand, args.seen or "", rules, melds=args.melds or "", jiang=args.jiang or "",
             others=args.others or "", players=_players(args, game), samples=args.samples, seed=args.seed,
             budget_ms=args.budget_ms)
    a = df.attrs
    value = ("value = win share (rank_only: the same quantity as p_win, the same Wilson interval)"
             if rules.settlement == "rank_only" else f"value = net points under {rules.settlement}")
    title = (f"# nantong: every discard{' and the self-drawn win (complete hand)' if a['complete'] else ''}, "
             f"layouts of the {a['unseen']} unseen cards, max_melds rollouts; {value}; vs_best = paired "
             f"difference to the best option; 95% intervals; options not resolved below the best rank by "
             f"distance from ready, then live outs, then value; {stop_text(a)}")
    return Output(df, title, list(ADVICE_COLUMNS))


def league(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.league import league_command
    from kaptai.core.records import league_record

    out = league_command(args, game, unit=league_unit)
    rules = game.resolve_rules(args.rules, **dict(args.option or []))
    league_record(args, game, rules, players=args.players[0], active=rules.active_players(args.players[0]))
    return out


def league_unit(rules: RuleSet) -> str:
    """The unit of a league's money rows under ``rules``: :func:`kaptai.nantong.records.unit_of`
    (a share of the hand win under ``rank_only``, points under a money settlement), where the
    feed's unit names both.

    >>> from kaptai.nantong.rules import resolve_rules
    >>> league_unit(resolve_rules("nantong")), league_unit(resolve_rules("nantong", settlement="winner_collects"))
    ('share of the hand win', 'points')
    """
    from kaptai.nantong.config import make_config
    from kaptai.nantong.records import unit_of

    return unit_of(make_config(3, rules))  # unit_of reads the settlement of the config's rules


_M = "kaptai.nantong.commands:"
#: Rule options of a whole match (kaptai fairness nantong plays matches): -o refuses them where hands are independent
_MATCH_RULES = ("first_sitter", "dreamer_shares", "rounds")
_MATCH_NOTE = "it arranges the seats or the settlement of a whole match; this command plays independent hands"
#: What the shape of a hand depends on (waits, evaluate): which three cards make a set
_SHAPE_RULES = ("honour_sequence",)
_SHAPE_NOTE = "it reads the shape of one hand, and only honour_sequence changes which cards make a set"


def _four_active_applies(args: argparse.Namespace, key: str) -> str | None:
    """``four_active`` seats all four players of a four-player table: three players change nothing."""
    players = getattr(args, "players", None) or 3
    if key == "four_active" and players != 4:
        return f"four_active lets all four players of a 4-player table play, and --players is {players}"
    return None
#: full matches per variant of ``kaptai fairness nantong`` without --matches or --hands
_MATCHES = 4_000
_HAND = "147w 258w 369w 147t 258t 369b 147b 5b 5b"
#: a ready hand (one card from complete: waits on 9w), the example of ``waits``
_READY = "123b 234w 678t 333w qzx3 789t 9w bhx3"


def _commands() -> dict[str, Command]:
    from kaptai.core import cli_options as o
    from kaptai.core.play import play_options
    from kaptai.core.review import review_options

    span, name = (3, 4), "nantong"
    players = o.players(span, 3)
    rules = o.rules(_PRESETS)
    hand = o.hand(f"your concealed cards, a ready hand e.g. \"{_READY}\" (exposed sets and the turned cards "
                  f"go in --seen: their copies are out of reach)", _READY)
    return {
        "odds": Command(_M + "odds", (players, *rules, *o.output()), example=f"kaptai odds {name} --players 4",
                        rule_fields=("deck", "wilds", "four_active", "qishou", "single_turn", "honour_sequence",
                                     "jiang_same_number", "one_tiao_laojiang"),
                        rule_note="odds counts the deal and the hands it makes: the scoring, the settlement and the "
                                  "match do not change them", rule_applies=_four_active_applies),
        "simulate": Command(_M + "simulate", (
            players, o.hands(100_000), o.seed(), o.policy(_POLICIES), *rules, *o.record(100), *o.runner(),
            *o.output(),
        ), example=f"kaptai simulate {name} --hands 100000 --seed 1 --policy 0=chase_qing", monte_carlo=True,
            rule_ignores=_MATCH_RULES, rule_note=_MATCH_NOTE, rule_applies=_four_active_applies),
        "fairness": Command(_M + "fairness", (
            players, Opt("--matches", "int", default=None, lo=1, hi=o.MAX_HANDS, unit="matches", sample="2",
                         help=f"full matches (each of the rules' rounds x players hands) per variant; "
                              f"default {_MATCHES:,}"),
            Opt("--hands", "int", default=None, lo=1, hi=o.MAX_HANDS, unit="hands", sample="100",
                applies=_hands_or_matches, aliases=("--games",),
                help="hands per variant instead of --matches, played as whole matches (rounded up)"),
            o.seed(), o.variants(_VARIANT_SETS, "nantong"), o.policy(_POLICIES), o.plot(), *o.runner(),
            *o.output(),
        ), example=f"kaptai fairness {name} --variants tie --matches 2000", monte_carlo=True),
        "score": Command(_M + "score", (
            Opt("record", "str", metavar="RECORD", sample="jiang=qz,qz win=none hand=147w 258w 369w 147t 258t 369b "
                                                          "147b 5b melds=hezi:qz",
                help="the finished hand in the score-record notation of docs/nantong.md"),
            *rules, *o.output(percent=False, formats=("table", "json")),
        ), example=f'kaptai score {name} "jiang=qz,qz win=none hand=147w 258w 369w 147t 258t 369b 147b 5b '
                   f'melds=hezi:qz" --format json',
            rule_fields=("deck", "wilds", "single_turn", "honour_sequence", "jiang_same_number", "one_tiao_laojiang",
                         "jiang_set_replacement", "tiancheng_double", "yazhuang_double", "discard_triplet",
                         "decomposition", "wenqian", "potou", "double_before_round", "nonwinner_concealed_triplets",
                         "nonwinner_wenqian"),
            rule_note="score scores one player's hand: the deal, the play, the settlement between players and the "
                      "match do not change it"),
        "waits": Command(_M + "waits", (hand, o.seen(), *rules, *o.output(percent=False)),
                         example=f'kaptai waits {name} "{_READY}" --seen "9w 9w"', rule_fields=_SHAPE_RULES,
                         rule_note=_SHAPE_NOTE),
        "evaluate": Command(_M + "evaluate", (
            Opt("hand", "str", metavar="HAND", sample=_HAND, help="a hand of cards"), *rules,
            *o.output(percent=False),
        ), example=f'kaptai evaluate {name} "{_HAND}"', rule_fields=_SHAPE_RULES, rule_note=_SHAPE_NOTE),
        "advise": Command(_M + "advise", (
            Opt("hand", "str", metavar="HAND", sample=_HAND,
                help="the hand after the draw, before the discard (with --melds: 23 units)"),
            o.seen("1w 9t qz"),
            Opt("--melds", "str", default="", empty_ok=True, metavar="MELDS", sample="pong:bh",
                help="your exposed sets, TYPE:CARD tokens (pong, mkong, ckong, qishou, hezi); default none"),
            Opt("--jiang", "str", default="", empty_ok=True, metavar="CARDS", sample="5w 7b",
                help="the turned cards (翻將); default unknown: sampled with the unseen cards"),
            Opt("--others", "str", default="", empty_ok=True, metavar="SETS", sample="pong:6t; pong:qz",
                help="the other seats' exposed sets, the next seat first, ';' between seats, TYPE:CARD tokens "
                     "as --melds (\"pong:5w; mkong:9t pong:qz\"); each such seat then holds 22 concealed cards "
                     "less 3 a set and scores with its sets; leave these cards out of --seen; default: each "
                     "other seat holds 22 concealed cards and any sets shown go in --seen"),
            players, *o.advice_budget("position"),
            Opt("--seed", "int", default=0, lo=0, hi=o.MAX_SEED, help="seed of the layouts (same seed, same answer)"),
            *rules, *o.output(),
        ), example=f'kaptai advise {name} "{_HAND}" --seen "1w 9t qz" --jiang "5w 7b"',
            rule_ignores=_MATCH_RULES, rule_note=_MATCH_NOTE, rule_applies=_four_active_applies),
        "league": Command(_M + "league", (
            o.player_counts(span, "3"), *rules, o.policies(_POLICIES), o.hands(20_000, "hands per policy"),
            o.seed(), *o.league_tables(), *o.league_scope(), *o.record(50), *o.runner(), *o.output(),
        ), example=f"kaptai league {name} --hands 20000 -o settlement=winner_collects", monte_carlo=True,
            rule_ignores=("first_sitter", "rounds"),
            rule_note="first_sitter and rounds arrange the seats of a whole match; a league plays independent hands"),
        "replay": Command("kaptai.core.records:replay_command", (o.record_file(), *o.output(percent=False)),
                          example=f"kaptai replay {name} games.jsonl"),
        "play": Command("kaptai.nantong.play:play_command",
                        play_options(players, _PRESETS, _POLICIES, "max_melds", 4,
                                     "your seat at the table for the whole session, the seats numbered from 0 in turn "
                                     "order (the deal rotates, the first dealer drawn from --seed; with 4 players you sit "
                                     "out the hands where you are the dealer's 上家)"),
                        example=f"kaptai play {name} --opponents max_melds --hints --record my-game.jsonl"),
        "review": Command("kaptai.nantong.review_search:review_command", (*review_options(512), Opt(
            "--advisor", "choice", default="search", choices=("search", "advise"),
            help="what grades a discard: search (default) values every discard by the search policy's own "
                 "evaluation (its layouts of the unseen cards, weighed by its model of the other players, "
                 "max_melds rollouts, the same layouts for every discard), advise by the advisor of kaptai "
                 "advise (layouts dealt uniformly); the loss in the settlement's unit, cross-fitted as "
                 "--cross-fit says")),
                          example=f"kaptai review {name} games.jsonl --seat 0 --html review.html"),
        "report": Command("kaptai.report:report_command", (
            o.player_counts(span, "3,4"), o.hands(20_000, "hands per Monte Carlo configuration"), o.seed(),
            *o.report_output(), *o.runner(),
        ), example=f"kaptai report {name} --hands 20000", monte_carlo=True),
    }


#: Nantong long cards (南通長牌), 3 or 4 players (3 active).
SPEC = GameSpec(
    name="nantong",
    aliases=("nantong-long-cards", "changpai"),
    title="Nantong long cards (南通長牌)",
    rules_page="docs/rules/nantong.md",
    players=(3, 4),
    default_players=3,
    package="kaptai.nantong",
    presets=_PRESETS,
    policies=_POLICIES,
    variant_sets="kaptai.nantong.fairness:VARIANT_SETS",
    default_variants="nantong",
    report_players="3,4",
    report_sections="kaptai.report.nantong:build_sections",
    atlas="kaptai.nantong.atlas:FEED",
    metrics=("kaptai.core.league:LEAGUE_METRICS", "kaptai.nantong.simulate:METRICS", "kaptai.nantong.fairness:FAIRNESS_METRICS"),
    commands=_commands(),
)
