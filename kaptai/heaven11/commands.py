"""Heaven Eleven (天牌十一) on the command line: the registry entry.

:data:`SPEC` is this package's :class:`kaptai.games.GameSpec`; each function below is the
entry point of one ``kaptai`` command, called with the parsed arguments and the spec, returning
a :class:`kaptai.games.Output`.

Examples
--------
>>> import argparse
>>> from kaptai.heaven11.commands import SPEC, score
>>> out = score(argparse.Namespace(record="bid=3C tricks=7/2/2/2", rules=None, option=None), SPEC)
>>> out.record["finals"]
[12, -4, -4, -4]
"""

from __future__ import annotations

import argparse
import importlib

from kaptai.games import Arg, Command, GameSpec, Output

__all__ = ["SPEC"]


def _rules(args: argparse.Namespace, game: GameSpec):
    """The RuleSet of ``--rules`` and ``-o KEY=VALUE`` (players are fixed at 4)."""
    if getattr(args, "players", None) not in (None, 4):
        game.check_players(args.players)
    overrides = dict(getattr(args, "option", None) or [])
    return game.resolve_rules(getattr(args, "rules", None), **overrides)


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
    df = run(4, rules, hands=args.hands, seed=args.seed, policies=parse_seat_policies(args.policy or "greedy", 4),
             bidding=parse_seat_policies(getattr(args, "bidding", None) or "expected", 4, "expected"),
             samples=getattr(args, "samples", None) or 16, workers=args.workers, progress=not args.no_progress,
             scheduler=getattr(args, "scheduler", None), checkpoint=getattr(args, "checkpoint", None))
    header = (f"# heaven-eleven: rules {_label(rules)}, {args.hands} hands, seed {df.attrs['seed_entropy']}"
              f" — Monte Carlo, 95% intervals")
    return Output(df, header, ["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high"])


def fairness(args: argparse.Namespace, game: GameSpec) -> Output:
    from kaptai.core.options import parse_seat_policies
    from kaptai.errors import RulesError

    F = importlib.import_module("kaptai.heaven11.fairness")
    rules = _rules(args, game)
    which = getattr(args, "variants", None) or game.default_variants
    if getattr(args, "cut", None) is not None:
        raise RulesError("--cut does not apply to heaven-eleven (there is no house cut)")
    policy = getattr(args, "policy", None) or "greedy"
    kw = dict(workers=getattr(args, "workers", 1) or 1, progress=not getattr(args, "no_progress", False),
              scheduler=getattr(args, "scheduler", None))
    if which in ("asymmetry", "leading"):
        if policy != "greedy":
            raise RulesError(f"--policy {policy!r} does not apply to --variants {which}: its paired counterfactuals "
                             "need contract-independent play, so it is played by greedy")
        kw["checkpoint"] = getattr(args, "checkpoint", None)
        if which == "asymmetry":
            df = F.asymmetry(args.hands, args.seed, rules, **kw)
            out = Output(df, f"# heaven-eleven: short-vs-over asymmetry, {args.hands} hands ({_label(rules)})",
                         ["rules", "metric", "level", "value", "ci_low", "ci_high"])
        else:
            df = F.leading_first(args.hands, args.seed, rules, **kw)
            out = Output(df, f"# heaven-eleven: value of leading first, {args.hands} hands ({_label(rules)})",
                         ["metric", "value", "ci_low", "ci_high"])
    else:
        variants = which
        if getattr(args, "rules", None) is not None or getattr(args, "option", None):
            # --rules / -o are the base every variant of the set changes
            if which not in F.VARIANT_SETS:
                F.compare_variants(which)  # the RulesError naming the set
            base = {k: v for k, v in rules.to_dict().items() if k != "name"}
            variants = {label: {**base, **opts} for label, opts in F.VARIANT_SETS[which].items()}
        df = F.compare_variants(variants, args.hands, args.seed, policies=parse_seat_policies(policy, 4), **kw)
        out = Output(df, f"# heaven-eleven: {which} variants, {args.hands} hands",
                     ["variant", "metric", "seat", "level", "value", "ci_low", "ci_high"])
    if getattr(args, "plot", None):
        from kaptai.heaven11.plots import plot_fairness

        plot_fairness(df, which, path=args.plot)
    return out


_M = "kaptai.heaven11.commands:"

#: Heaven Eleven (天牌十一), 4 players.
SPEC = GameSpec(
    name="heaven-eleven",
    title="Heaven Eleven (天牌十一)",
    rules_page="heaven-eleven.md",
    players=(4, 4),
    default_players=4,
    package="kaptai.heaven11",
    presets=("standard", "symmetric"),
    policies=("greedy", "random", "rollout"),
    variant_sets="kaptai.heaven11.fairness:VARIANT_SETS",
    default_variants="play",
    aliases=("heaven11",),
    report_sections="kaptai.report.heaven11:build_sections",
    report_players="4",
    atlas="kaptai.heaven11.atlas:FEED",
    commands={
        "odds": Command(_M + "odds", args=(
            Arg("--table", default=None, choices=("deal", "scores"),
                help="deal: the odds of a dealt hand (default); scores: every bid level x trick vector"),)),
        "score": Command(_M + "score", args=(
            Arg("record", help="bid=<bid> tricks=t0/t1/t2/t3 (declarer first), e.g. 'bid=3C tricks=7/2/2/2'"),)),
        "simulate": Command(_M + "simulate", args=(
            Arg("--bidding", default=None, help="expected, underbid, overbid, never (or SEAT=NAME,...)"),
            Arg("--samples", type=int, default=None, help="rollout samples per decision (default 16)"),
        )),
        "fairness": Command(_M + "fairness", help="--variants play, scoring, asymmetry or leading"),
        "report": Command("kaptai.report:report_command"),
    },
)
