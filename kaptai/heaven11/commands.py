"""Heaven Eleven (天牌十一) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec`; each function below is the
entry point of one ``kaptai`` command, called with the parsed arguments and the spec, returning
a :class:`kaptai.games.Output`.

Examples
--------
>>> import argparse
>>> from kaptai.heaven11.commands import SPEC, score
>>> out = score(argparse.Namespace(record="bid=3C tricks=7/2/2/2", rules="standard", option=None), SPEC)
>>> out.record["finals"]
[12, -4, -4, -4]
"""

from __future__ import annotations

import argparse
import importlib

from kaptai.spec import Command, GameSpec, Opt, Output

__all__ = ["SPEC"]


_PRESETS = ("standard", "symmetric")
_POLICIES = ("greedy", "random", "rollout", "search")
_BIDDERS = ("expected", "underbid", "overbid", "never", "search")
#: kaptai.heaven11.fairness.VARIANT_SETS by name (a test checks it), and the two paired studies
_VARIANT_SETS = ("play", "scoring")
_STUDIES = ("asymmetry", "leading")


def _rules(args: argparse.Namespace, game: GameSpec):
    """The RuleSet of ``--rules`` and ``-o KEY=VALUE`` (players are fixed at 4)."""
    return game.resolve_rules(args.rules, **dict(args.option or []))


def _label(rules) -> str:
    """The preset name plus every option that differs from it (``-o`` keeps the preset's name)."""
    from kaptai.heaven11.rules import PRESETS

    base = PRESETS.get(rules.name)
    if base is None:
        return rules.name
    d, b = rules.to_dict(), base.to_dict()
    changed = [f"{k}={d[k]}" for k in d if k != "name" and d[k] != b.get(k)]
    return rules.name + (" + " + ", ".join(changed) if changed else "")


def odds(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.heaven11.odds import deal_odds, score_odds

    rules = _rules(args, game)
    if getattr(args, "table", None) == "scores":
        return Output(score_odds(rules), f"# heaven-eleven: score of every bid level x trick vector ({_label(rules)})",
                      ["level", "t0", "t1", "t2", "t3", "status", "f0", "f1", "f2", "f3"])
    return Output(deal_odds(4, rules), f"# heaven-eleven: exact odds of a 13-card hand ({_label(rules)})",
                  ["metric", "breakdown", "level", "value", "exact"])


def score(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.heaven11.scoring import score as run

    rules = _rules(args, game)
    r = run(args.record, rules=rules)
    return Output(record=r.to_dict(), title=f"# heaven-eleven: {args.record} ({_label(rules)}) — finals declarer first")


def simulate(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_seat_policies
    from kaptai.heaven11.simulate import simulate as run

    rules = _rules(args, game)
    df = run(4, rules, hands=args.hands, seed=args.seed, policies=parse_seat_policies(args.policy, 4, game.policies[0]),
             bidding=parse_seat_policies(args.bidding, 4, _BIDDERS[0]),
             samples=args.samples, workers=args.workers, progress=args.progress,
             scheduler=args.scheduler, checkpoint=args.checkpoint)
    from kaptai.core.records import record_option

    record_option(args, game, rules=rules, policies=parse_seat_policies(args.policy, 4, game.policies[0]),
                  bidding=parse_seat_policies(args.bidding, 4, _BIDDERS[0]), samples=args.samples)
    header = (f"# heaven-eleven: rules {_label(rules)}, {args.hands} hands, seed {df.attrs['seed_entropy']}"
              f" — Monte Carlo, 95% intervals")
    return Output(df, header, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_seat_policies
    from kaptai.errors import RulesError

    F = importlib.import_module("kaptai.heaven11.fairness")
    rules = _rules(args, game)
    which = args.variants
    kw = dict(workers=args.workers, progress=args.progress, scheduler=args.scheduler, checkpoint=args.checkpoint)
    if which in _STUDIES:
        if args.policy != "greedy":
            raise RulesError(f"--policy {args.policy!r} does not apply to --variants {which}: its paired "
                             "counterfactuals need contract-independent play, so it is played by greedy")
        if which == "asymmetry":
            df = F.asymmetry(args.hands, args.seed, rules, **kw)
            out = Output(df, f"# heaven-eleven: short-vs-over asymmetry, {args.hands} hands played under "
                             f"{_label(rules)}, each scored by the rules as written (rules as_written: "
                             f"short_penalty=none) and with short_penalty=symmetric (rules symmetric)",
                         ["rules", "metric", "level", "value", "ci_low", "ci_high"])
        else:
            df = F.leading_first(args.hands, args.seed, rules, **kw)
            out = Output(df, f"# heaven-eleven: value of leading first, {args.hands} hands ({_label(rules)})",
                         ["metric", "value", "ci_low", "ci_high"])
    else:
        variants: object = which
        if args.rules != game.presets[0] or args.option:
            # --rules / -o are the base every variant of the set changes
            base = {k: v for k, v in rules.to_dict().items() if k != "name"}
            variants = {label: {**base, **opts} for label, opts in F.VARIANT_SETS[which].items()}
        pols = parse_seat_policies(args.policy, 4, game.policies[0])
        df = F.compare_variants(variants, args.hands, args.seed, policies=pols, **kw)
        df.attrs.setdefault("policies", pols)
        out = Output(df, f"# heaven-eleven: {which} variants, {args.hands} hands",
                     ["variant", "metric", "seat", "level", "value", "ci_low", "ci_high"])
    if args.plot:
        from kaptai.heaven11.plots import plot_fairness

        plot_fairness(df, which, path=args.plot)
    return out


def league(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.league import league_command
    from kaptai.core.records import league_record

    out = league_command(args, game)
    league_record(args, game, _rules(args, game), players=None, active=4)
    return out


def advise(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.advise import stop_text
    from kaptai.heaven11.advisor import UNIT
    from kaptai.heaven11.advisor import advise as run

    rules = _rules(args, game)
    if args.declarer is not None and args.contract is None and not args.auction:
        from kaptai.errors import RulesError

        raise RulesError(f"--declarer {args.declarer} needs --contract (the bid being played, e.g. --contract 3S) "
                         "or a finished --auction")
    if args.plays and args.contract is None and not args.auction:
        from kaptai.errors import RulesError

        raise RulesError("--plays needs --contract (the bid being played, e.g. --contract 3S) or a finished --auction")
    kw = {"seat": args.seat, "auction": args.auction, "dealer": args.dealer, "rules": rules, "samples": args.samples,
          "seed": args.seed, "budget_ms": args.budget_ms, "declarer": args.declarer, "plays": args.plays}
    df = run(args.hand, contract=args.contract, **kw)
    a = df.attrs
    how = stop_text(a)
    if df.phase.iloc[0] != "bid":
        title = (f"expected final of every legal {df.phase.iloc[0]} of seat {a['seat']}, contract {a['contract']} by "
                 f"seat {a['declarer']} ({_label(rules)}); value in {UNIT}, 95% intervals, vs_best = paired "
                 f"difference to the best play; {how}")
    else:
        title = (f"expected final of every call of seat {a['seat']} (dealer {a['dealer']}), as written and under "
                 f"short_penalty=symmetric; value in {UNIT}, 95% intervals, vs_best = paired difference to the best "
                 f"call of the same scoring; equal values share a rank (calls the others overcall anyway end in "
                 f"the same contract, e.g. PASS and 0C); {how}")
    df = df.sort_values(["scoring", "rank"], kind="stable").reset_index(drop=True)
    return Output(df, title, ["scoring", "rank", "option", "value", "ci_low", "ci_high", "vs_best", "vs_best_low",
                              "vs_best_high"])



_M = "kaptai.heaven11.commands:"
#: The scoring of a finished contract (kaptai score, odds --table scores)
_SCORING_RULES = ("short_penalty", "match_bonus", "over_penalty")
#: Rule options of a session of hands (kaptai.heaven11.sessions): -o refuses them where hands are independent
_SESSION_RULES = ("rounds",)
_SESSION_NOTE = "rounds is the length of a session of hands; this command plays independent hands"


def _odds_rule_applies(args: argparse.Namespace, key: str) -> str | None:
    """The scoring options change only ``--table scores``, the points of the cards only ``--table deal``."""
    table = getattr(args, "table", None) or "deal"
    if key in _SCORING_RULES and table != "scores":
        return f"{key} changes the scoring, and --table {table} counts the deal (--table scores shows the scoring)"
    if key not in _SCORING_RULES and table == "scores":
        return f"{key} changes the points of the cards, and --table scores shows the scoring of every contract"
    return None
#: the play policies that --samples sets (rollouts per decision); search has its own budget
_SAMPLING_POLICIES = ("rollout",)


def _rollout_samples(args: argparse.Namespace) -> str | None:
    """``--samples`` has an effect only when a seat plays a policy that samples (declared on the option)."""
    text = str(getattr(args, "policy", "") or "")
    names = {part.partition("=")[2].strip() if "=" in part else part.strip() for part in text.split(",")}
    if names & set(_SAMPLING_POLICIES):
        return None
    return (f"--samples sets the rollouts of the {' and '.join(_SAMPLING_POLICIES)} policy, and no seat plays it "
            f"(--policy {text}); e.g. --policy rollout or --policy 0=rollout")


def _commands() -> dict[str, Command]:
    from kaptai.core import cli_options as o
    from kaptai.core.play import play_options
    from kaptai.core.review import review_options

    name = "heaven-eleven"
    players = o.players((4, 4), 4)
    rules = o.rules(_PRESETS)
    return {
        "odds": Command(_M + "odds", (
            players, *rules,
            Opt("--table", "choice", default="deal", choices=("deal", "scores"),
                help="deal: the odds of a dealt hand; scores: every bid level x trick vector"),
            *o.output(),
        ), example=f"kaptai odds {name} --table scores -o short_penalty=symmetric",
            rule_fields=("point_scheme", "ace_points", "reduction", *_SCORING_RULES),
            rule_note="odds counts the deal (with --table scores, the scoring of every contract): the auction, the "
                      "play and the session do not change them", rule_applies=_odds_rule_applies),
        "score": Command(_M + "score", (
            Opt("record", "str", metavar="RECORD", sample="bid=3C tricks=7/2/2/2",
                help="bid=<bid> tricks=t0/t1/t2/t3 (declarer first), e.g. 'bid=3C tricks=7/2/2/2'"),
            *rules, *o.output(percent=False, formats=("table", "json")),
        ), example=f'kaptai score {name} "bid=3C tricks=7/2/2/2" --format json', rule_fields=_SCORING_RULES,
            rule_note="score scores a contract from its tricks: the points of the cards, the auction and the play "
                      "do not change it"),
        "simulate": Command(_M + "simulate", (
            players, o.hands(100_000), o.seed(), o.policy(_POLICIES),
            o.per_seat("--bidding", _BIDDERS, "bidder", "the bidder of every seat, or SEAT=BIDDER,...: "
                       + " | ".join(_BIDDERS), sample="underbid"),
            Opt("--samples", "int", default=16, lo=1, hi=100_000, unit="rollouts",
                help="rollout samples per decision (the rollout policy)", applies=_rollout_samples),
            *rules, *o.record(), *o.runner(), *o.output(),
        ), example=f"kaptai simulate {name} --hands 100000 --seed 1 --rules symmetric", monte_carlo=True,
            rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "fairness": Command(_M + "fairness", (
            players, o.hands(100_000, "hands per variant"), o.seed(),
            o.variants(_VARIANT_SETS + _STUDIES, "play"), o.policy(_POLICIES), *rules, o.plot(), *o.runner(),
            *o.output(),
        ), help="--variants play, scoring, asymmetry or leading",
            example=f"kaptai fairness {name} --variants asymmetry --hands 200000", monte_carlo=True,
            rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "replay": Command("kaptai.core.records:replay_command", (o.record_file(), *o.output(percent=False)),
                          example=f"kaptai replay {name} games.jsonl"),
        "play": Command("kaptai.heaven11.play:play_command",
                        play_options(None, _PRESETS, _POLICIES, "search", 4,
                                     "your seat at the table, the seats numbered clockwise from 0 (the auction and the "
                                     "play go in the rules' directions; the others are the built-in players)"),
                        example=f"kaptai play {name} --opponents search --record my-game.jsonl",
                        rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "review": Command("kaptai.heaven11.play:review_command", review_options(),
                          example=f"kaptai review {name} games.jsonl --seat 0 --html review.html"),
        "league": Command(_M + "league", (
            *rules, o.policies(_POLICIES), o.hands(20_000, "hands per policy"), o.seed(), *o.league_tables(),
            *o.league_scope(), *o.record(200), *o.runner(), *o.output(),
        ), example=f"kaptai league {name} --hands 4000 --rules symmetric", monte_carlo=True,
            rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "advise": Command(_M + "advise", (
            o.hand("your 13 dealt cards, e.g. 'AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C'",
                   "AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C"),
            Opt("--seat", "int", default=0, lo=0, hi=3, unit="seat",
                help="your seat, 0-3, numbered clockwise: in play the seat after seat s is s+1 (mod 4), or "
                     "s-1 under -o play_direction=counterclockwise (in the auction s-1 by default)"),
            Opt("--auction", "str", default=None, metavar="CALLS", sample="PASS 1S",
                help="the calls so far, the dealer's first, e.g. 'PASS 1S PASS' (during play: optional, "
                     "the whole auction, so that the layouts agree with it)"),
            Opt("--dealer", "int", default=None, lo=0, hi=3, unit="seat",
                help="the dealer (default: the seat that makes you the next caller; during play: the declarer)"),
            Opt("--contract", "str", default=None, metavar="BID", sample="4S",
                help="the contract being played, e.g. 3S: advise on the plays instead of the calls"),
            Opt("--declarer", "int", default=None, lo=0, hi=3, unit="seat",
                help="the declarer's seat (with --contract; default 0, or the finished auction's)"),
            Opt("--plays", "str", default=None, metavar="PLAYS", sample="AS, 2S, 3S, 4S",
                help="the plays so far, one seat's cards per item, comma-separated, from the first lead "
                     "(the seats follow from the rules), e.g. 'AS, 2S, 3S, 4S, KH AH'; under "
                     "-o short_follow=free a follow of trumps and none of the suit led may be typed "
                     "'KH AH trump' or 'KH AH discard' (asked for when the plays do not tell)"),
            *o.advice_budget("answer"),
            Opt("--seed", "int", default=0, lo=0, hi=o.MAX_SEED, help="seed of the layouts (same seed, same answer)"),
            *rules, *o.output(percent=False),
        ), help="the expected final (points) of every call (both scorings) or of every legal play (the first play "
                "after a finished --auction), 95%% intervals and the paired difference to the best",
            example=f'kaptai advise {name} "AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C" --auction "PASS"',
            rule_ignores=_SESSION_RULES, rule_note=_SESSION_NOTE),
        "report": Command("kaptai.report:report_command", (
            o.player_counts((4, 4), "4"), o.hands(20_000, "hands per Monte Carlo configuration"), o.seed(),
            *o.report_output(), *o.runner(),
        ), example=f"kaptai report {name} --hands 20000", monte_carlo=True),
    }


#: Heaven Eleven (天牌十一), 4 players.
SPEC = GameSpec(
    name="heaven-eleven",
    title="Heaven Eleven (天牌十一)",
    rules_page="docs/rules/heaven-eleven.md",
    players=(4, 4),
    default_players=4,
    package="kaptai.heaven11",
    presets=_PRESETS,
    policies=_POLICIES,
    variant_sets="kaptai.heaven11.fairness:VARIANT_SETS",
    default_variants="play",
    aliases=("heaven11",),
    report_sections="kaptai.report.heaven11:build_sections",
    report_players="4",
    atlas="kaptai.heaven11.atlas:FEED",
    metrics=("kaptai.core.league:LEAGUE_METRICS", "kaptai.heaven11.simulate:METRICS",),
    commands=_commands(),
)
