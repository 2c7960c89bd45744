"""Nine-ten (九支十仔) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec` (id ``nine-ten``, alias
``four-colour``); each function below is the entry point of one ``kaptai`` command, called
with the parsed arguments and the spec, returning a :class:`kaptai.games.Output`.
"""

from __future__ import annotations

import argparse

from kaptai.spec import Command, GameSpec, Opt, Output

__all__ = ["SPEC"]


_PRESETS = ("taiwan",)
_POLICIES = ("colour_cut", "live_first", "random", "search")
#: kaptai.nineten.fairness.VARIANT_SETS by name (a test checks it)
_VARIANT_SETS = ("options", "payer", "policies", "players")


def _rules(args: argparse.Namespace, game: GameSpec):
    return game.resolve_rules(args.rules, **dict(args.option or []))


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nineten.odds import deal_odds
    from kaptai.nineten.rules import validate_players

    rules = _rules(args, game)
    players = validate_players(args.players, rules)
    df = deal_odds(players, rules)
    header = (f"# nine-ten: {players} players, rules {rules.name} — exact deal odds (value = probability; "
              f"method monte_carlo rows are sampled deals)")
    return Output(df, header, ["hand", "metric", "level", "value", "exact", "method"])


def score(args: argparse.Namespace, game: GameSpec) -> Output:
    import pandas as pd

    from kaptai.nineten.scoring import score as run

    rules = _rules(args, game)
    s = run(args.record, rules)
    obj = s.to_dict(players=args.players, winner=args.winner, source=args.source)
    if args.format == "json":
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
    df = run(args.players, rules, hands=args.hands, seed=args.seed,
             policies=parse_seat_policies(args.policy, args.players, default=game.policies[0]),
             house_cut=args.cut, workers=args.workers, progress=args.progress, scheduler=args.scheduler,
             checkpoint=args.checkpoint)
    from kaptai.core.records import record_option

    record_option(args, game, players=args.players, rules=rules,
                  policies=parse_seat_policies(args.policy, args.players, default=game.policies[0]))
    header = (f"# nine-ten: {args.players} players, rules {rules.name}, {args.hands} hands, seed {args.seed}"
              f" — Monte Carlo, 95% intervals; money = 頭 x stake_per_tou")
    return Output(df, header, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.nineten.fairness import fairness as run

    df = run(args.players, args.hands, args.seed, variants=args.variants, house_cut=args.cut,
             progress=args.progress, workers=args.workers, scheduler=args.scheduler, checkpoint=args.checkpoint)
    if args.plot:
        from kaptai.nineten.plots import plot_fairness

        plot_fairness(df, path=args.plot)
    return Output(df, f"fairness of the {args.variants} variants, 95% intervals",
                  ["variant", "metric", "seat", "relative_to", "value", "ci_low", "ci_high"])


def advise(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.advise import stop_text
    from kaptai.nineten.advisor import advise as run

    rules = _rules(args, game)
    df = run(args.hand, seen=args.seen or "", offered=args.offered, exposed=args.exposed or None,
             players=args.players, rules=rules,
             samples=args.samples, seed=args.seed, budget_ms=args.budget_ms)
    a = df.attrs
    claim = a.get("claim")
    if a["natural"]:
        title = ("nine-ten: ten cards in five pairs are complete, the dealer's natural: the win, scored as a "
                 "self-draw paid by every other player (EV in 頭, the bonus flip at its expectation)")
    else:
        how = stop_text(a) if a["stop"] != "exact" else "a win now: exact"
        title = (f"nine-ten: every option rolled out by colour_cut to the end of the hand on sampled layouts of the "
                 f"unseen cards; EV = mean net 頭 of your seat, P(win), 95% intervals, vs_best = paired difference "
                 f"to the best option; equal values share a rank; pick = the search player's choice (colour_cut's "
                 f"discard unless another leads it by 2.5 standard errors); {how}"
                 + (f"; the claim of {a['offered']}: {claim}" if claim else ""))
    return Output(df, title, ["rank", "action", "discard", "ev", "ev_low", "ev_high", "vs_best", "vs_best_low",
                              "vs_best_high", "p_win", "p_win_low", "p_win_high", "forced", "pick"])


def league(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.league import league_command
    from kaptai.core.records import league_record

    out = league_command(args, game)
    league_record(args, game, game.resolve_rules(args.rules, **dict(args.option or [])), players=args.players[0])
    return out


_M = "kaptai.nineten.commands:"
#: Rule options no engine plays (the seat draw before the first hand, the penalty of a foul): -o refuses them
_UNPLAYED = ("seat_draw_key", "seating", "foul_penalty_tou")
def _table_size_applies(args: argparse.Namespace, key: str) -> str | None:
    """``large_table`` deals 8 or more players, ``allow_small_table`` opens 2-3: neither changes other counts."""
    players = getattr(args, "players", None) or 4
    if key == "large_table" and players < 8:
        return f"large_table decides the deal of 8 or more players, and --players is {players}"
    if key == "allow_small_table" and players >= 4:
        return f"allow_small_table opens 2 and 3 players, and --players is {players}"
    return None


_UNPLAYED_NOTE = "the seat draw before the first hand and the penalty of a foul are not played: the seats are as " \
                 "given and no policy fouls"


def _commands() -> dict[str, Command]:
    from kaptai.core import cli_options as o
    from kaptai.core.play import play_options
    from kaptai.core.review import review_options

    span, name = (2, 15), "nine-ten"
    players = o.players(span, 4)
    rules = o.rules(_PRESETS)
    cut = Opt("--cut", "float", default=0.0, lo=0.0, hi=1.0, unit="share of each payment",
              help="house cut of every payment")
    return {
        "odds": Command(_M + "odds", (players, *rules, *o.output()),
                        example=f"kaptai odds {name} --players 5 --format json",
                        rule_fields=("allow_small_table", "large_table"),
                        rule_note="odds counts the deal: only the table size options change it; the play, the "
                                  "scoring and the money do not", rule_applies=_table_size_applies),
        "score": Command(_M + "score", (
            Opt("record", "str", metavar="RECORD", sample="RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA",
                help='scoring record: "HAND | win=self|flip|discard [| kz=CARDS] [| kzwait=CARD] '
                     '[| bonus=C1 C2 C3 C4 C5]"'),
            players,
            Opt("--winner", "int", default=0, lo=0, hi=span[1] - 1, unit="seat", help="winner's seat for the net table"),
            Opt("--source", "int", default=None, lo=0, hi=span[1] - 1, unit="seat",
                help="discarder/flipper seat (default: the seat after the winner)"),
            *rules, *o.output(percent=False, formats=("table", "json")),
        ), example=f'kaptai score {name} "RAx2 RRx2 YKx2 YAx4 | win=discard | kzwait=YA" --format json',
            rule_fields=("stake_per_tou", "allow_small_table", "large_table", "natural", "flip_win_payer",
                         "discard_payer_covers_all", "four_colour_flip_win", "four_colour_kaizhao_counts",
                         "kaizhao_wait_also_plus1"),
            rule_note="score settles one recorded win: the options of the deal, the seating and the play do not "
                      "change it"),
        "simulate": Command(_M + "simulate", (
            players, o.hands(100_000), o.seed(), o.policy(_POLICIES), cut, *rules, *o.record(), *o.runner(),
            *o.output(),
        ), example=f"kaptai simulate {name} --players 5 --hands 200000 --seed 1", monte_carlo=True,
            rule_ignores=_UNPLAYED, rule_note=_UNPLAYED_NOTE),
        "fairness": Command(_M + "fairness", (
            players, o.hands(100_000, "hands per variant"), o.seed(), o.variants(_VARIANT_SETS, "options", multi=_VARIANT_SETS), cut,
            o.plot(), *o.runner(), *o.output(),
        ), example=f"kaptai fairness {name} --variants payer --hands 100000", monte_carlo=True),
        "advise": Command(_M + "advise", (
            o.hand("your 10 cards (a turn to discard), or 9 with --offered", "RKx2 RA YAx2 GE WC WP GK GA"),
            Opt("--seen", "str", default="", empty_ok=True, metavar="CARDS", sample="RE YE",
                help="cards out of play face up: discards left unclaimed and flips (the other seats' claimed pairs "
                     "and dead cards go in --exposed); default: nothing"),
            Opt("--exposed", "str", default="", empty_ok=True, metavar="CARDS;CARDS;...", sample="; RCx2; ; GCx2 YC",
                help="every seat's face-up cards (claimed pairs, dead cards), yours first, then seat by seat in "
                     "turn order, separated by ';' (yours are among HAND's; a card a seat shows an odd number of "
                     "times is its dead card); each other seat holds 9 cards counting these; default: nothing "
                     "face up"),
            Opt("--offered", "str", default=None, metavar="CARD", sample="RA",
                help="the card the previous player just discarded: claim it (if you can) or let it pass?"),
            Opt("--players", "int", default=4, lo=4, hi=7, unit="players", help="player count (the 10/9 deal)",
                sample="4"),
            *o.advice_budget("position"), Opt("--seed", "int", default=0, lo=0, hi=o.MAX_SEED,
                                 help="seed of the layouts (the same seed gives the same advice)"),
            *rules, *o.output(),
        ), example=f'kaptai advise {name} "RKx2 RA YAx2 GE WC WP GK GA" --seen "RE YE" --format json',
            rule_ignores=(*_UNPLAYED, "stake_per_tou", "large_table"),
            rule_note="advise values a position in 頭, not money, at 4-7 players, with the seats as given and no "
                      "foul"),
        "league": Command(_M + "league", (
            o.player_counts(span, "4"), *rules, o.policies(_POLICIES), o.hands(20_000, "hands per policy"),
            o.seed(), *o.league_tables(), *o.league_scope(), *o.record(200), *o.runner(), *o.output(),
        ), example=f"kaptai league {name} --players 4,6 --hands 20000", monte_carlo=True,
            rule_ignores=(*_UNPLAYED, "stake_per_tou"),
            rule_note="a league counts in 頭, not money, with the seats as given and no foul"),
        "replay": Command("kaptai.core.records:replay_command", (o.record_file(), *o.output(percent=False)),
                          example=f"kaptai replay {name} games.jsonl"),
        "play": Command("kaptai.nineten.play:play_command",
                        play_options(o.players((4, 7), 4), _PRESETS, _POLICIES, "colour_cut", 7),
                        example=f"kaptai play {name} --opponents search --hints --record my-game.jsonl"),
        "review": Command("kaptai.nineten.play:review_command", review_options(1024),
                          example=f"kaptai review {name} games.jsonl --seat 0 --html review.html"),
        "report": Command("kaptai.report:report_command", (
            o.player_counts(span, "4-7"), o.hands(20_000, "hands per Monte Carlo configuration"), o.seed(),
            *o.report_output(), *o.runner(),
        ), example=f"kaptai report {name} --players 4-7 --hands 20000", monte_carlo=True),
    }


#: Nine-ten (九支十仔), 4-7 players to play (2-3 and 8-15 by options), 4 by default.
SPEC = GameSpec(
    name="nine-ten",
    aliases=("four-colour",),
    title="Nine-ten (九支十仔)",
    rules_page="docs/rules/nine-ten.md",
    players=(2, 15),
    players_note="4-7 by default; 2-3 and 8-11 by rule options; 8-15 odds only",
    default_players=4,
    package="kaptai.nineten",
    presets=_PRESETS,
    policies=_POLICIES,
    variant_sets="kaptai.nineten.fairness:VARIANT_SETS",
    default_variants="options",
    report_players="4-7",
    report_sections="kaptai.report.nineten:build_sections",
    atlas="kaptai.nineten.atlas:FEED",
    metrics=("kaptai.core.league:LEAGUE_METRICS", "kaptai.nineten.simulate:METRICS",),
    commands=_commands(),
)
