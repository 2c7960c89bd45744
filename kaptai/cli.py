"""The ``kaptai`` command line: a thin layer over the game registry.

Every game is found through :mod:`kaptai.games`; this module names none.  A command's
parser offers exactly the games that register it, the arguments every game of that
command shares, and the arguments each game adds (refused for the other games).

Examples
--------
``kaptai games`` lists the games and their commands; ``kaptai <command> <game> --help``
shows a command's arguments for that game, e.g. ``kaptai odds <game> --players 4 --format
json`` or ``kaptai simulate <game> --hands 1000000 --seed 1``.

Errors in the input (a bad tile, option or player count) print one line
``kaptai: error: ...`` on stderr and exit with status 2, without a traceback.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from kaptai._version import __version__
from kaptai.core.output import FORMATS, emit, interrupted_message, want_progress
from kaptai.core.paths import check_arg_paths
from kaptai.core.tables import to_json_records
from kaptai.errors import KaptaiError, RulesError
from kaptai.games import Arg, GameSpec, Output, game, games_for, games_table

__all__ = ["main", "build_parser", "COMMANDS"]


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


def _emit(df: pd.DataFrame, fmt: str, columns: Sequence[str] | None = None) -> None:
    """The plain table of ``kaptai games`` (no provenance: it is not a computed table)."""
    if fmt == "json":
        print(to_json_records(df))
        return
    view = (df[list(columns)] if columns else df).copy()
    for col in view.columns:  # blank, not <NA>
        if not pd.api.types.is_float_dtype(view[col]):
            view[col] = view[col].astype(object).where(view[col].notna(), "")
    with pd.option_context("display.max_rows", None, "display.width", 200):
        print(view.to_string(index=False, na_rep=""))


def _title(out: Output, args: argparse.Namespace) -> str | None:
    """The table's title without a leading ``# ``; the table's attrs name the game unless the
    title already starts with it (the header line is ``# title — provenance``)."""
    title = out.title
    if not title:
        return None
    title = title[2:] if title.startswith("# ") else title
    name = game(args.game).name
    if out.table is not None and not title.startswith(f"{name}:") and not out.table.attrs.get("game"):
        if "game" not in out.table.columns:
            out.table.attrs["game"] = name
    return title


def _show(out: Output, args: argparse.Namespace) -> None:
    """Print (or write to ``--out``) what a command returned."""
    fmt = getattr(args, "format", None)
    out = Output(out.table, _title(out, args), out.columns, out.text, out.record)
    if out.record is not None:
        if fmt == "json":
            print(json.dumps(dict(out.record), ensure_ascii=False, indent=1, default=str))
            return
        if out.title:
            name = game(args.game).name
            print(f"# {out.title}" if out.title.startswith(f"{name}:") else f"# {name}: {out.title}")
        rows = [{"item": k, "value": v if not isinstance(v, (list, tuple, dict)) else json.dumps(v, ensure_ascii=False)}
                for k, v in out.record.items()]
        _emit(pd.DataFrame(rows), "table")
        return
    if out.table is None:
        if out.text:
            print(out.text)
        return
    emit(out.table, fmt, out=getattr(args, "out", None), columns=out.columns, title=out.title,
         percent=bool(getattr(args, "percent", False)))
    if out.text and (fmt in (None, "table")):
        print(out.text)


# --------------------------------------------------------------------------------------
# Arguments shared by every game of a command (game-agnostic: the help is built from the
# registry).
# --------------------------------------------------------------------------------------


def _player_help(games: Sequence[GameSpec]) -> str:
    parts = [f"{g.name} {g.players[0]}-{g.players[1]}" if g.players[0] != g.players[1] else f"{g.name} {g.players[0]}"
             for g in games]
    defaults = sorted({g.default_players for g in games})
    return "player count (" + "; ".join(parts) + "; default " + "/".join(map(str, defaults)) + " by game)"


def _rules_help(games: Sequence[GameSpec]) -> str:
    seen: dict[tuple, list[str]] = {}
    for g in games:
        seen.setdefault(g.presets, []).append(g.name)
    return "preset (" + "; ".join(f"{', '.join(names)}: {' | '.join(p)}, default {p[0]}" for p, names in seen.items()) + ")"


def _policy_help(games: Sequence[GameSpec]) -> str:
    listed = "; ".join(f"{g.name}: {' | '.join(g.policies)}" for g in games if g.policies)
    return (f"one policy for every seat ({listed}; default: the first), or SEAT=POLICY,... "
            f"(other seats the default)")


def _output_args(p: argparse.ArgumentParser, formats: tuple[str, ...] = FORMATS) -> None:
    p.add_argument("--format", choices=formats, default=None,
                   help=f"{' | '.join(formats)} (default: table, or from the --out suffix)")
    if "csv" in formats:
        p.add_argument("--out", default=None, metavar="FILE", help="write the table to FILE (parquet needs it)")
        p.add_argument("--percent", action="store_true", help="probabilities as percentages (table format)")


def _rules_args(p: argparse.ArgumentParser, games: Sequence[GameSpec], formats: tuple[str, ...] = FORMATS) -> None:
    p.add_argument("--rules", default=None, help=_rules_help(games))
    p.add_argument(
        "--option", "-o", action="append", type=_option, metavar="KEY=VALUE",
        help="set a rule option on top of the preset, e.g. -o forms=basic,run4 -o gee_joon_run_value=3 (repeatable)",
    )
    _output_args(p, formats)


def _runner_args(p: argparse.ArgumentParser, workers: bool = True) -> None:
    if workers:
        p.add_argument("--workers", type=int, default=1,
                       help="worker processes (same seed, same table for any number)")
    p.add_argument("--scheduler", default=None,
                   help="run the chunks on a Dask cluster: tcp://host:port, or 'local' for a LocalCluster "
                        "(needs pip install kaptai[distributed])")
    p.add_argument("--checkpoint", default=None, metavar="DIR",
                   help="write each finished chunk to DIR; rerunning the same command resumes from there")


def _players_int(p: argparse.ArgumentParser, games: Sequence[GameSpec]) -> None:
    p.add_argument("--players", type=int, default=None, help=_player_help(games))


def _args_odds(p, games):
    _players_int(p, games)
    _rules_args(p, games)


def _args_simulate(p, games):
    _players_int(p, games)
    p.add_argument("--hands", "--games", dest="hands", type=int, default=100_000,
                   help="hands (games) to play (default 100000)")
    p.add_argument("--seed", type=int, default=None, help="seed (default: fresh entropy, printed in the output attrs)")
    p.add_argument("--policy", default=None, help=_policy_help(games))
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    _runner_args(p)
    _rules_args(p, games)


def _args_fairness(p, games):
    _players_int(p, games)
    p.add_argument("--hands", "--games", dest="hands", type=int, default=100_000,
                   help="hands (games) per simulation")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cut", type=float, default=None, help="house cut 0-1 for every variant (default: each ruleset's)")
    sets = "; ".join(f"{g.name}: {g.variant_sets.split(':')[0]}.VARIANT_SETS, default {g.default_variants}"
                     for g in games if g.variant_sets)
    p.add_argument("--variants", default=None, help=f"presets, comma-separated, or a ready-made set name ({sets})")
    p.add_argument("--policy", default=None, help=_policy_help(games))
    p.add_argument("--plot", default=None, help="save the fairness figure to this file")
    _output_args(p)
    p.add_argument("--no-progress", action="store_true")
    _runner_args(p)


def _args_report(p, games):
    defaults = "; ".join(f"{g.name} {g.report_players}" for g in games)
    p.add_argument("--players", default=None, help=f"player counts, e.g. 3-10 or 3,4,6 (default: {defaults})")
    p.add_argument("--hands", "--games", dest="hands", type=int, default=20_000,
                   help="hands (games) per Monte Carlo configuration")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None, help="output file (default reports/<game>.html)")
    p.add_argument("--format", choices=("html", "md"), default=None, help="default: from the --out suffix")
    p.add_argument("--no-progress", action="store_true")
    _runner_args(p)


def _args_league(p, games):
    p.add_argument("--players", default="4", help="player counts, e.g. 3-10 or 3,4,6 (default 4)")
    p.add_argument("--rules-list", default=None, help="rulesets (presets), comma-separated (default: every preset)")
    p.add_argument("--policies", default=None, help="policies, comma-separated (default: every built-in policy)")
    p.add_argument("--hands", type=int, default=20_000, help="hands per policy and configuration")
    p.add_argument("--advisor-hands", type=int, default=0,
                   help="also play the advisor-driven policy for this many hands (pure Python, ~20 hands/s)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--plot", default=None, help="save the EV plot to this file")
    _output_args(p)
    p.add_argument("--no-progress", action="store_true")


def _args_evaluate(p, games):
    p.add_argument("hand", help='e.g. "66 66 44 44 14 14 55 55 46 46"')
    p.add_argument("--sets", type=int, default=None, help="sets in play (rejects impossible copies)")
    _rules_args(p, games)


def _args_waits(p, games):
    p.add_argument("hand")
    p.add_argument("--seen", default="", help="tiles already visible (discards)")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--sets", type=int, default=None)
    _rules_args(p, games)


def _args_advise(p, games):
    p.add_argument("hand", help="a hand after the draw (2n+2 tiles), or 2n+1 with --offered")
    p.add_argument("--seen", default="", help="tiles already visible (discards, exposed tiles)")
    p.add_argument("--draws", type=int, default=3, help="horizon in own draws (default 3)")
    p.add_argument("--offered", default=None, help="the previous player's discard: claim it or not?")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--sets", type=int, default=None)
    _rules_args(p, games)


def _args_draw_odds(p, games):
    p.add_argument("hand")
    p.add_argument("--seen", default="")
    p.add_argument("--draws", type=int, default=3)
    p.add_argument("--claims", action="store_true", help="the next player may also claim the previous discard")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--sets", type=int, default=None)
    _rules_args(p, games)


def _args_score(p, games):
    p.add_argument("record", help="the finished hand in the game's score-record notation (see docs/<game>.md)")
    _rules_args(p, games, ("table", "json"))


#: The commands in the order ``--help`` lists them: (name, help, shared arguments).
COMMANDS: tuple[tuple[str, str, Callable[[argparse.ArgumentParser, Sequence[GameSpec]], None]], ...] = (
    ("odds", "exact odds of the deal", _args_odds),
    ("simulate", "Monte Carlo of whole hands with playing policies", _args_simulate),
    ("advise", "rank the discards of a hand after the draw, or advise on claiming an offered tile", _args_advise),
    ("draw-odds", "exact odds of winning within k own draws", _args_draw_odds),
    ("fairness", "expected value per seat, house take and fairness of scoring variants", _args_fairness),
    ("league", "policies head to head: win rate, EV per hand, value of playing well", _args_league),
    ("report", "build the strategy report (self-contained HTML or Markdown)", _args_report),
    ("evaluate", "classify and score one complete hand", _args_evaluate),
    ("waits", "tiles that complete a hand one tile short (2n+1 tiles), with live outs", _args_waits),
    ("score", "score one finished hand from its record", _args_score),
)


def _game_args(p: argparse.ArgumentParser, command: str, games: Sequence[GameSpec]) -> tuple[str, ...]:
    """Add the arguments the games declare for ``command``; return their dests."""
    owners: dict[str, list[str]] = {}
    first: dict[str, Arg] = {}
    for g in games:
        for a in g.commands[command].args:
            owners.setdefault(a.dest, []).append(g.name)
            first.setdefault(a.dest, a)
    taken = {action.dest for action in p._actions}
    for dest, a in first.items():
        if dest in taken:  # the command's shared argument (e.g. score's record) already takes it
            continue
        kwargs = dict(a.kwargs)
        if len(owners[dest]) < len(games):
            kwargs["help"] = f"{kwargs.get('help', '')} [{', '.join(owners[dest])} only]".strip()
        p.add_argument(*a.flags, **kwargs)
    return tuple(d for d in first if d not in taken)


def _cmd_games(args: argparse.Namespace) -> None:
    df = games_table()
    if args.format == "json":
        print(to_json_records(df))
        return
    view = df.assign(aliases=df.aliases.map(", ".join), commands=df.commands.map(", ".join))
    print("# games kaptai models (kaptai <command> <game> --help for a command's options)")
    _emit(view, "table", ["name", "aliases", "title", "players", "commands"])


def _cmd_atlas(args: argparse.Namespace) -> None:
    from kaptai.atlas import atlas, atlas_figures

    args.no_progress = not want_progress(args.no_progress)
    df = atlas(games=args.games, hands=args.hands, seed=args.seed, workers=args.workers, skill=not args.no_skill,
               variants=args.variants, progress=not args.no_progress, scheduler=args.scheduler,
               checkpoint=args.checkpoint)
    text = None
    if args.plot_dir:
        import os

        import matplotlib.pyplot as plt

        os.makedirs(args.plot_dir, exist_ok=True)
        names = []
        for name, fig in atlas_figures(df).items():
            path = os.path.join(args.plot_dir, f"atlas-{name}.png")
            fig.savefig(path, dpi=110, bbox_inches="tight")
            plt.close(fig)
            names.append(path)
        text = f"wrote {len(names)} figures to {args.plot_dir}"
    emit(df, args.format, out=args.out, title="fairness atlas: every game on one scale, 95% intervals",
         columns=["game", "variant", "players", "measure", "seat", "level", "value", "ci_low", "ci_high", "unit",
                  "method"],
         percent=bool(args.percent))
    if text:
        print(text, file=sys.stderr)


def _args_atlas(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", default=None,
                   help="games, comma-separated (default: every game with an atlas feed: kaptai games)")
    p.add_argument("--hands", type=int, default=100_000,
                   help="hands of each default table; the value-of-skill tables split as many over the seats "
                        "(default 100000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variants", choices=("main", "default"), default="main",
                   help="every main variant of each game (default), or only its default rules")
    p.add_argument("--no-skill", action="store_true", help="skip the value-of-skill tables (a third of the time)")
    p.add_argument("--plot-dir", default=None, metavar="DIR", help="save every atlas figure to DIR (created)")
    _output_args(p)
    p.add_argument("--no-progress", action="store_true")
    _runner_args(p)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``kaptai`` command (built from the game registry)."""
    parser = argparse.ArgumentParser(prog="kaptai", description="Odds for traditional Chinese tile and card games.")
    parser.add_argument("--version", action="version", version=f"kaptai {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("games", help="list every game kaptai models, with its commands")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=_cmd_games, game_args=())
    p = sub.add_parser("atlas", help="the fairness atlas: every game on one scale (house edge, seats, skill, swing)")
    _args_atlas(p)
    p.set_defaults(func=_cmd_atlas, game_args=())
    for name, help_text, shared in COMMANDS:
        games = games_for(name)
        if not games:
            continue
        p = sub.add_parser(name, help=help_text)
        choices = [key for g in games for key in (g.name, *g.aliases)] + list(_EXTRA_TARGETS.get(name, ()))
        p.add_argument("game", metavar="{" + ",".join(choices) + "}", help="one of: " + ", ".join(choices))
        shared(p, games)
        p.set_defaults(command_name=name, game_args=_game_args(p, name, games), func=_dispatch)
    return parser


#: Targets of a command that are not games: ``kaptai report atlas`` (all games at once).
_EXTRA_TARGETS: dict[str, tuple[str, ...]] = {"report": ("atlas",)}


def _dispatch(args: argparse.Namespace) -> None:
    name = args.command_name
    if args.game in _EXTRA_TARGETS.get(name, ()):
        from kaptai.report.atlas import report_command as atlas_report

        if hasattr(args, "no_progress"):
            args.no_progress = not want_progress(args.no_progress)
        out = atlas_report(args)
        if out.text:
            print(out.text)
        return
    try:
        spec = game(args.game)
    except RulesError:
        known = ", ".join(g.name for g in games_for(name))
        raise RulesError(f"game {args.game!r} is not available yet for 'kaptai {name}': it supports {known}") from None
    command = spec.commands.get(name)
    if command is None:
        raise RulesError(f"'kaptai {name} {spec.name}' is not available yet: {spec.name} has "
                         + ", ".join(spec.commands))
    own = {a.dest for a in command.args}
    for dest in args.game_args:
        if dest not in own and getattr(args, dest, None) is not None:
            flag = "--" + dest.replace("_", "-")
            raise RulesError(f"{flag} does not apply to {spec.name} (kaptai {args.command_name} {spec.name} --help)")
    if getattr(args, "policy", "") is None:  # the game's default policy (the first it lists)
        args.policy = spec.policies[0] if spec.policies else "greedy"
    if hasattr(args, "no_progress"):  # a bar only on a terminal (never into a log file)
        args.no_progress = not want_progress(args.no_progress)
    _show(command.load()(args, spec), args)


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
