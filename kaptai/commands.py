"""The commands that are not one game's: ``kaptai games``, ``kaptai atlas``, ``kaptai design``
and ``kaptai report atlas``, declared as the games declare theirs (:class:`kaptai.spec.Command`).

:data:`TOOLS` are the top-level commands (``kaptai <name> [options]``); :data:`EXTRA_TARGETS`
are targets of a game command that are not a game (``kaptai report atlas``).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

from kaptai.spec import Command, Opt, Output

__all__ = ["TOOLS", "EXTRA_TARGETS", "games_command", "atlas_command", "atlas_report_command", "design_command"]


def games_command(args: argparse.Namespace, game: object = None) -> Output:
    """``kaptai games``: one row per game with its commands."""
    from kaptai.games import games_table

    df = games_table()
    if args.format != "json":
        df = df.assign(aliases=df.aliases.map(", ".join), commands=df.commands.map(", ".join))
    return Output(df, "games kaptai models (kaptai <command> <game> --help for a command's options)",
                  ["name", "aliases", "title", "players", "commands"])


def atlas_command(args: argparse.Namespace, game: object = None) -> Output:
    """``kaptai atlas``: every game on one scale (``--ranking``: the ranking with ties and the verdict)."""
    from kaptai.atlas import (INFINITE_COLUMN, RANKING_COLUMNS, atlas, atlas_figures, mark_infinite,
                              pairwise, ranking, verdict)

    if args.ranking and args.differences:
        from kaptai.errors import RulesError

        raise RulesError("--ranking and --differences: give one (each prints its own table)")
    df = atlas(games=args.games, hands=args.hands, seed=args.seed, workers=args.workers, skill=not args.no_skill,
               variants=args.variants, progress=args.progress, scheduler=args.scheduler,
               checkpoint=args.checkpoint, strong_hands=args.strong_hands, shared=not args.no_shared_deals,
               adaptive=not args.no_adaptive_bidding)
    text = None
    if args.plot_dir:
        import os

        from kaptai.core.plotting import save_figure

        os.makedirs(args.plot_dir, exist_ok=True)
        names = []
        for name, fig in atlas_figures(df).items():
            path = os.path.join(args.plot_dir, f"atlas-{name}.png")
            save_figure(fig, path)
            names.append(path)
        text = f"wrote {len(names)} figures to {args.plot_dir}"
        print(text, file=sys.stderr)
    if args.ranking:
        import textwrap

        return Output(ranking(df), "fairness atlas ranking: every game and variant by each unit-free "
                      "measure, 95% intervals, rank 1 + the items clearly better (the interval of the difference "
                      "excludes 0)", RANKING_COLUMNS,
                      legend=textwrap.fill(verdict(df), 100, break_on_hyphens=False))
    if args.differences:
        return Output(mark_infinite(pairwise(df), ("diff", "ci_low", "ci_high")),
                      "fairness atlas differences: value(variant_a) − value(variant_b) of each pair of variants of a "
                      "game, 95% intervals (shared_deals: paired on the same deals)",
                      ["game", "variant_a", "variant_b", "measure", "level", "relative_to", "diff", "ci_low", "ci_high",
                       "unit", "shared_deals", "method", INFINITE_COLUMN],
                      legend=("shared_deals True: the interval is paired (the same deals under both variants); False: "
                              "the difference of two independent runs (note says why). An infinite figure (skill that "
                              f"never shows) is named in '{INFINITE_COLUMN}' (JSON writes ∞ as null); a difference "
                              "involving one has the interval of the two intervals, excluding 0 only where they do "
                              "not overlap."))
    return Output(mark_infinite(df), "fairness atlas: every game on one scale, 95% intervals",
                  ["game", "variant", "players", "measure", "seat", "relative_to", "level", "value", "ci_low",
                   "ci_high", "unit", "method", INFINITE_COLUMN])


def atlas_report_command(args: argparse.Namespace, game: object = None) -> Output:
    """``kaptai report atlas``: the atlas report (self-contained HTML or Markdown)."""
    from kaptai.report.atlas import build_atlas_report
    from kaptai.report.render import report_format

    out = args.out if args.out is not None else "reports/atlas.html"
    fmt = report_format(out, args.format)
    build_atlas_report(hands=args.hands, seed=args.seed, out=out, fmt=fmt, workers=args.workers,
                       progress=args.progress, scheduler=args.scheduler, checkpoint=args.checkpoint,
                       strong_hands=args.strong_hands, stake=args.stake, players_hands=args.players_hands)
    return Output(None, text=f"wrote {out}")


def design_command(args: argparse.Namespace, game: object = None) -> Output:
    """``kaptai design GAME``: the rule-design search (:mod:`kaptai.design`): the variants of the
    game's rule options on shared deals, the front of seat luck, house take and value of skill."""
    import textwrap

    from kaptai.core.design import DESIGN_COLUMNS
    from kaptai.design import design_game, plot_front, recommendation
    from kaptai.core.design import design

    g = design_game(args.design_game)
    opts = None if args.options is None else [t.strip() for t in args.options.split(",")]
    df = design(g, hands=args.hands, start_hands=args.start_hands, search=args.search, options=opts,
                seed=args.seed, workers=args.workers, progress=args.progress, scheduler=args.scheduler,
                checkpoint=args.checkpoint)
    if args.plot:
        plot_front(df, args.plot)
        print(f"wrote {args.plot}", file=sys.stderr)
    rec = recommendation(df)
    if rec is None:
        legend = "no variant of the last round has an interval of the seat's edge containing 0"
    else:
        legend = (f"recommended: {rec['variant']} ({rec['zero_measure']} {rec['zero'][0]:+.3f} "
                  f"[{rec['zero'][1]:+.3f}, {rec['zero'][2]:+.3f}], which contains 0; {rec['measure']} "
                  f"{rec['value'][0]:.3f} [{rec['value'][1]:.3f}, {rec['value'][2]:.3f}], "
                  f"{rec['cost'][0]:+.3f} [{rec['cost'][1]:+.3f}, {rec['cost'][2]:+.3f}] against the default on the "
                  "same deals)")
    if not args.all:
        last = df["round"].max()
        df = df[(df["round"] == last)]
    return Output(df, f"rule design of {g.game}: {df.attrs['search']} search, 95% intervals, diff = paired "
                      "difference to the default on the same deals; front = not beaten on every goal",
                  list(DESIGN_COLUMNS), legend=textwrap.fill(legend + ". " + g.notes, 100, break_on_hyphens=False))


def _design_game(text: str) -> str:
    from kaptai.atlas import atlas_refusal
    from kaptai.games import game

    why = atlas_refusal(text)           # names only the games with an atlas feed
    if why is not None:
        raise ValueError(why if why.startswith("unknown") else why + ", so no design search")
    return game(text).name


def _games_list(text: str) -> str:
    from kaptai.errors import quote_token
    from kaptai.atlas import atlas_refusal
    from kaptai.games import game

    names = [t.strip() for t in text.split(",")]
    seen: dict[str, str] = {}
    for n in names:
        why = atlas_refusal(n)          # names only the games the atlas accepts
        if why is not None:
            raise ValueError(why + (" (comma-separated)" if why.startswith("unknown") else ""))
        spec = game(n)
        if spec.name in seen:  # by its id: an alias is the same game
            raise ValueError(f"{spec.name} is given twice in {quote_token(text)}"
                             + (f" ({quote_token(seen[spec.name])} and {quote_token(n)})" if seen[spec.name] != n else ""))
        seen[spec.name] = n
    return ",".join(names)


def _tools() -> dict[str, Command]:
    from kaptai.core import cli_options as o

    return {
        "games": Command("kaptai.commands:games_command", (o.table_formats(("table", "json"), out=False),),
                         help="list every game kaptai models, with its commands", example="kaptai games --format json"),
        "atlas": Command("kaptai.commands:atlas_command", (
            Opt("--games", "str", default=None, metavar="GAMES", check=_games_list, sample="big-two",
                help="games, comma-separated (default: every game with an atlas feed: kaptai games)"),
            o.hands(100_000, "hands of each default table; the value-of-skill tables split as many over the seats",
                    games_alias=False),
            o.seed(),
            Opt("--variants", "choice", default="main", choices=("main", "default"),
                help="every main variant of each game, or only its default rules"),
            Opt("--no-skill", "flag", help="skip the value-of-skill tables (a third of the time)"),
            Opt("--no-shared-deals", "flag",
                help="play every variant on its own deals (default: the variants of a game that can share a "
                     "deal play the same deals, and their differences are paired)"),
            Opt("--no-adaptive-bidding", "flag",
                help="skip the seat tables with adaptive bidders (a role won in an auction, Heaven Eleven's "
                     "declarer: its seat luck is then shown apart, not ranked)"),
            _strong_hands(),
            Opt("--plot-dir", "str", default=None, metavar="DIR", check=o._path("--plot-dir"),
                help="save every atlas figure to DIR (created)"),
            Opt("--ranking", "flag",
                help="print the ranking of every game and variant by each unit-free measure (rank 1 + the "
                     "items clearly better: the interval of the difference excludes 0) and the verdict, instead of "
                     "the full table"),
            Opt("--differences", "flag",
                help="print the difference of every measure between each two variants of a game, with its 95% "
                     "interval (paired where they were played on the same deals), instead of the full table"),
            *o.runner(), *o.output(),
        ), help="the fairness atlas: every game on one scale (house edge, seats, skill, swing)",
            example="kaptai atlas --hands 100000 --plot-dir figures", monte_carlo=True),
        "design": Command("kaptai.commands:design_command", (
            Opt("design_game", "str", check=_design_game, metavar="GAME", sample="heaven-eleven",
                help="the game whose rule options to search (one with an atlas feed: kaptai games)"),
            dataclasses.replace(o.hands(1600, "deals of the last round (every variant's with --search grid), shared "
                                                "by every variant", games_alias=False), sample="8"),
            Opt("--start-hands", "int", default=None, lo=1, hi=o.MAX_HANDS, unit="hands",
                help="deals of the first round of --search halving (default: --hands / 8), at most --hands; "
                     "rounds play whole chunks of 25 deals, so fewer are rounded up",
                applies=lambda a: None if a.search == "halving" else "--search grid plays every variant on --hands deals"),
            Opt("--search", "choice", default="halving", choices=("halving", "grid"),
                help="successive halving (the better half of the variants kept on the same deals and as many "
                     "new ones each round) or every variant on every deal"),
            Opt("--options", "str", default=None, metavar="OPTIONS", sample="short_penalty,match_bonus",
                help="rule options to explore, comma-separated (default: the game's design space, docs/design.md)"),
            Opt("--all", "flag", help="every variant of every round, not only the last round's"),
            o.seed(), o.plot("save the front (seat edge against value of skill) to this file"),
            *o.runner(), *o.output(percent=False),
        ), help="rule-design search: the rule variants on the front of seat luck, house take and value of skill",
            example="kaptai design heaven-eleven --hands 1600 --seed 1", monte_carlo=True),
    }


def _strong_hands() -> Opt:
    from kaptai.core import cli_options as o

    return Opt("--strong-hands", "int", default=None, lo=1, hi=o.MAX_HANDS, unit="hands",
               help="cap the hands of every strong - default pair (the search players are slow; each game's "
                    "feed has its own cap too)")


def _extra_targets() -> dict[str, dict[str, Command]]:
    from kaptai.core import cli_options as o

    return {"report": {"atlas": Command("kaptai.commands:atlas_report_command", (
        o.hands(100_000, "hands of each default table of the atlas"), o.seed(), _strong_hands(),
        Opt("--stake", "float", default=1.0, lo=1e-6, hi=1e12, unit="money per unit", sample="10",
            help="money per unit of each game (ante, point, tou ...): the designer's pages give each effect over "
                 "a session in money at this stake"),
        Opt("--players-hands", "int", default=None, lo=0, hi=o.MAX_HANDS, unit="hands", sample="2000",
            help="hands of each default table of the sweep over the number of players (default: --hands, at "
                 "most 20,000; 0 skips the sweep)"),
        *o.report_output(), *o.runner(),
    ), help="the atlas report: every game on one scale, and a designer's page per game",
        example="kaptai report atlas --hands 100000 --stake 10",
        monte_carlo=True)}}


#: Top-level commands that are not one game's.
TOOLS: dict[str, Command] = _tools()
#: Targets of a game command that are not a game: ``kaptai report atlas``.
EXTRA_TARGETS: dict[str, dict[str, Command]] = _extra_targets()
