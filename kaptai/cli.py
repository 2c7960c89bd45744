"""The ``kaptai`` command line: a thin layer over the game registry.

Every game is found through :mod:`kaptai.games`; this module names none.  The parser of
``kaptai <command> <game>`` is built from the options that game's command declares
(:class:`kaptai.spec.Opt`, in the game's ``commands.py``) and nothing else: an option the game
does not declare is refused, naming what it does take, and every value is checked against
its declaration (type, bounds, choices) before any work.

Examples
--------
``kaptai games`` lists the games and their commands; ``kaptai <command> <game> --help``
shows that game's options, presets, policies and an example, e.g. ``kaptai odds <game>
--players 4 --format json`` or ``kaptai simulate <game> --hands 1000000 --seed 1``.

Errors in the input (a bad tile, option or player count, an unknown option, a value out of
bounds) print one line ``kaptai: error: ...`` on stderr and exit with status 2, without a
traceback.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from kaptai._version import __version__
from kaptai.errors import KaptaiError, RulesError, UsageError, quote_token, same_value
from kaptai.games import game, games_for
from kaptai.spec import Command, GameSpec, Opt, Output

if TYPE_CHECKING:
    import pandas as pd

# pandas, the tables and the games' engines are imported by the commands that use them (inside
# the functions below), so that ``kaptai --version`` and ``--help`` import none of them:
# tests/test_startup.py holds the modules each command line imports.

__all__ = ["main", "build_parser", "run_command", "default_args", "show", "check_settings", "COMMANDS"]


def _emit(df: pd.DataFrame, fmt: str, columns: Sequence[str] | None = None) -> None:
    """The plain table of ``kaptai games`` (no provenance: it is not a computed table)."""
    import pandas as pd

    from kaptai.core.tables import to_json_records

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
    name = args.game
    if name is None:
        return title
    if out.table is not None and not title.startswith(f"{name}:") and not out.table.attrs.get("game"):
        if "game" not in out.table.columns:
            out.table.attrs["game"] = name
    return title


def _show(out: Output, args: argparse.Namespace) -> None:
    """Print (or write to ``--out``) what a command returned."""
    import pandas as pd

    from kaptai.core.output import emit
    from kaptai.core.tables import to_json_records

    fmt = getattr(args, "format", None)
    out = dataclasses.replace(out, title=_title(out, args))
    if out.record is not None:
        if fmt == "json":
            print(json.dumps(dict(out.record), ensure_ascii=False, indent=1, default=str))
            return
        if out.title:
            name = args.game
            print(f"# {out.title}" if out.title.startswith(f"{name}:") else f"# {name}: {out.title}")
        rows = [{"item": k, "value": v if not isinstance(v, (list, tuple, dict)) else json.dumps(v, ensure_ascii=False)}
                for k, v in out.record.items()]
        _emit(pd.DataFrame(rows), "table")
        return
    if out.table is None:
        if out.text:
            print(out.text)
        return
    if args.command == "games":  # a listing, not a computed table: no provenance line
        if fmt == "json":
            print(to_json_records(out.table))
        else:
            print(f"# {out.title}")
            _emit(out.table, "table", out.columns)
        return
    emit(out.table, fmt, out=getattr(args, "out", None), columns=out.columns, title=out.title,
         percent=bool(getattr(args, "percent", False)))
    if fmt in (None, "table") and getattr(args, "out", None) is None:
        if out.legend:
            print("\n".join("# " + line for line in out.legend.splitlines()))
        if out.text:
            print(out.text)
    elif out.text and fmt in (None, "table"):
        print(out.text)


show = _show

# --------------------------------------------------------------------------------------
# The parser, built from the declarations
# --------------------------------------------------------------------------------------

#: The game commands in the order ``--help`` lists them: (name, help).
COMMANDS: tuple[tuple[str, str], ...] = (
    ("odds", "exact odds of the deal"),
    ("simulate", "Monte Carlo of whole hands with playing policies"),
    ("advise", "every option of a position ranked by its expected result: the discards or the claim of a "
               "hand, the plays of a trick or the calls of an auction, in every game"),
    ("draw-odds", "exact odds of winning within k own draws"),
    ("fairness", "expected value per seat, house take and fairness of scoring variants"),
    ("league", "policies head to head: win rate, EV per hand, value of playing well"),
    ("replay", "replay a game record in the engine: every move legal, every settlement matched"),
    ("play", "play a seat yourself in the terminal against the built-in players, and record the game"),
    ("review", "every decision of a game record against the advisor's best move: the loss of each, per hand"),
    ("report", "build the strategy report (self-contained HTML or Markdown)"),
    ("evaluate", "classify and score one complete hand"),
    ("waits", "the cards that complete a hand one short, with live outs"),
    ("score", "score one finished hand from its record"),
)

_LONG_QUOTE = re.compile(r"(?<!\w)'([^']{41,})'(?!\w)")  # a quoted token, not the text between two of them


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError` (``kaptai: error: ...``, exit 2),
    never argparse's usage text, and that takes no abbreviated option names."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        message = _LONG_QUOTE.sub(lambda m: quote_token(m.group(1)), message)
        raise UsageError(f"{message} (see {self.prog} --help)")


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help lines wrapped between words, never inside an option's name (``--budget-ms``)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(self._whitespace_matcher.sub(" ", text).strip(), width, break_on_hyphens=False)


def _games_epilog() -> str:
    """The games, for ``kaptai --help`` (from the registry: its declarations only, no engine)."""
    from kaptai.games import GAMES

    lines = ["games (kaptai games lists them with their commands):"]
    for g in GAMES.values():
        aliases = f" (also {', '.join(g.aliases)})" if g.aliases else ""
        note = f" ({g.players_note})" if g.players_note else ""
        lines.append(f"  {g.name:<14} {g.title}: {g.players_text().split(' (')[0]} players{note}{aliases}")
    lines.append("kaptai <command> <game> --help lists that command's options for that game.")
    return "\n".join(lines)


def _show_value(value: Any) -> str:
    """A rule option's value as one types it after ``-o KEY=`` (text that would read as another
    Python value is quoted)."""
    import ast

    if isinstance(value, str):
        try:
            same = ast.literal_eval(value) == value
        except (ValueError, SyntaxError):
            same = value.lower() not in ("true", "false")
        return value if same and value else repr(value)
    return repr(value)


def _rule_options(spec: GameSpec, command: Command) -> Opt:
    """The ``-o`` option of a game's command, its help listing the game's rule options with their
    values in the default preset (:meth:`~kaptai.spec.GameSpec.rule_defaults`: the RuleSet's own,
    read without importing the game's engine or numpy)."""
    opt = command.option("option")
    assert opt is not None
    preset = spec.presets[0]
    defaults = {k: v for k, v in spec.rule_defaults().items() if command.reads_rule(k)}
    listing = ", ".join(f"{k}={_show_value(v)}" for k, v in defaults.items())
    others = [p for p in spec.presets[1:]]
    which = "The options" if command.reads_every_rule else "The options this command reads"
    text = (f"set a rule option on top of the preset (repeatable): -o KEY=VALUE. {which}, as in the preset "
            f"{preset}{' (--rules ' + ', '.join(others) + ' change some)' if others else ''}: {listing or 'none'}")
    return dataclasses.replace(opt, help=text)


def _docs_page(spec: GameSpec) -> str:
    """The game's page of the docs (``docs/<page>.md``, named as its rules page: Kap Shap's is
    Kap Tai Shap's)."""
    return "docs/" + spec.rules_page.rsplit("/", 1)[-1]


def _epilog(spec: GameSpec | None, command: Command) -> str:
    lines = []
    if spec is not None:
        lines.append(f"{spec.title}: rules in {spec.rules_page}, its commands in {_docs_page(spec)} "
                     "(in the repository)")
        if command.option("rules") is not None:
            lines.append("presets: " + ", ".join(spec.presets) + f" (default {spec.presets[0]})")
        if command.option("policy") is not None and spec.policies:
            lines.append("policies: " + ", ".join(spec.policies) + f" (default {spec.policies[0]})")
    if command.example:
        lines.append(f"example: {command.example}")
    return "\n".join(lines)


def _command_parser(sub: Any, name: str, command: Command, spec: GameSpec | None, prog_name: str,
                    aliases: Sequence[str] = (), options: bool = True,
                    rule_help: bool = True) -> argparse.ArgumentParser:
    p = sub.add_parser(name, aliases=list(aliases), help=command.help or (spec.title if spec else None),
                       description=(command.help or "") if spec is None else f"{spec.title}",
                       epilog=_epilog(spec, command), formatter_class=_HelpFormatter)
    if options:
        for opt in command.options:
            if spec is not None and opt.dest == "option" and opt.kind == "keyvalue" and rule_help:
                opt = _rule_options(spec, command)
            opt.add_to(p)
    p.set_defaults(command_spec=command, game_name=spec.name if spec else None, target=prog_name)
    return p


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``kaptai`` command, built from the declarations of every game's
    commands (and of the commands that are not one game's, :mod:`kaptai.commands`).

    With ``argv``, only the command and game it names get their options (the others are
    listed by name): what one command line needs.
    """
    from kaptai.commands import EXTRA_TARGETS, TOOLS

    def wanted(name: str, target: str | None = None, aliases: Sequence[str] = ()) -> bool:
        if argv is None:
            return True
        words = list(argv[:2])
        return bool(words) and words[0] == name and (target is None or (len(words) > 1 and words[1] in
                                                                         (target, *aliases)))

    # the -o help lists the game's rule options (read from the game's rules source): only when the
    # help is printed
    help_wanted = argv is None or any(a in ("-h", "--help") for a in argv)
    parser = _Parser(prog="kaptai", description="Odds for traditional Chinese tile and card games.",
                     epilog=_games_epilog(), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"kaptai {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=_Parser)
    for name, command in TOOLS.items():
        _command_parser(sub, name, command, None, name, options=wanted(name))
    for name, help_text in COMMANDS:
        specs = games_for(name)
        extra = EXTRA_TARGETS.get(name, {})
        if not specs:
            continue
        targets = [g.name for g in specs] + list(extra)
        p = sub.add_parser(name, help=help_text, description=f"{help_text}. Games: {', '.join(targets)}.",
                           epilog=f"kaptai {name} GAME --help lists that game's options.")
        if argv is not None and (not argv or argv[0] != name):
            continue  # a command line parses one command: the others need no games (a fast start)
        games_sub = p.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=_Parser,
                                     help="one of: " + ", ".join(targets))
        for spec in specs:
            _command_parser(games_sub, spec.name, spec.commands[name], spec, f"{name} {spec.name}",
                            aliases=spec.aliases, options=wanted(name, spec.name, spec.aliases),
                            rule_help=help_wanted)
        for target, command in extra.items():
            _command_parser(games_sub, target, command, None, f"{name} {target}", options=wanted(name, target))
    return parser


@functools.lru_cache(maxsize=64)
def _parser_for(words: tuple[str, ...]) -> argparse.ArgumentParser:
    """The parser of one command line, by its first two words (and ``--help`` when it asks for
    help: the help lists the game's rule options; a parser is reusable)."""
    return build_parser(words)


def _check_target(argv: Sequence[str]) -> None:
    """A game a command does not have, named as the registry knows it (before argparse's
    generic 'invalid choice')."""
    from kaptai.commands import EXTRA_TARGETS, TOOLS

    words = [a for a in argv if not a.startswith("-")][:2]
    if len(argv) < 2 or argv[0].startswith("-") or argv[0] in TOOLS or argv[1].startswith("-"):
        return
    name, target = argv[0], argv[1]
    supported = games_for(name)
    if not supported or target in EXTRA_TARGETS.get(name, {}) or words[:2] != [name, target]:
        return
    try:
        spec = game(target)
    except RulesError:
        known = ", ".join([g.name for g in supported] + list(EXTRA_TARGETS.get(name, {})))
        raise UsageError(f"unknown game {quote_token(target)} for 'kaptai {name}': it supports {known}") from None
    if name not in spec.commands:
        raise UsageError(f"'kaptai {name} {spec.name}' is not available yet: {spec.name} has "
                         + ", ".join(spec.commands))


def _unknown(extra: Sequence[str], args: argparse.Namespace) -> NoReturn:
    command: Command = args.command_spec
    where = f"kaptai {args.target}"
    takes = ", ".join(f for o in command.options for f in o.flags if f.startswith("-")) or "no options"
    token = extra[0]
    if token.startswith("-"):
        flag = token.split("=", 1)[0]
        whose = f" to {args.game_name}" if args.game_name else f" to 'kaptai {args.target}'"
        raise UsageError(f"{quote_token(flag)[1:-1]} does not apply{whose}: {where} takes {takes}")
    raise UsageError(f"unexpected argument {quote_token(token)}: {where} takes {takes}")


def _given(argv: Sequence[str], command: Command) -> dict[str, str]:
    """The options of ``command`` that the command line gives explicitly: dest -> the flag as
    typed (a default is not given; ``--flag=value`` and ``-oKEY=VALUE`` count)."""
    flags = {f: o for o in command.options if not o.positional for f in o.flags}
    flags.update({"--no-" + o.name[2:]: o for o in command.options if o.kind == "switch" and not o.positional})
    out: dict[str, str] = {}
    for token in argv:
        if token == "--":
            break
        if not token.startswith("-") or token == "-":
            continue
        flag = token.split("=", 1)[0]
        if flag not in flags and not token.startswith("--") and token[:2] in flags:
            flag = token[:2]  # -oKEY=VALUE
        if flag in flags:
            out.setdefault(flags[flag].dest, flag)
    return out


def _shown(value: Any) -> str:
    return quote_token(value if isinstance(value, str) else repr(value), quote="")


def check_settings(argv: Sequence[str], args: argparse.Namespace) -> None:
    """Refuse, before any work, what a command line says that would be ignored or contradict
    itself (:class:`UsageError` naming it):

    * an option given where it has no effect (its declaration's :attr:`~kaptai.spec.Opt.applies`
      says why: ``--percent`` outside the table format, ``--samples`` when no seat samples);
    * one setting given twice with two values: ``-o KEY=`` twice, or ``-o KEY=`` and the option
      that sets the same rule (``--players 4 -o players=3``).  The same value twice passes;
    * ``-o KEY=`` for a rule option the command does not read (its
      :attr:`~kaptai.spec.Command.rule_fields`: ``odds`` counts the deal, so an option of the
      play or of the money changes nothing there).

    >>> from kaptai.cli import build_parser, check_settings
    >>> from kaptai.games import GAMES
    >>> argv = ["odds", next(iter(GAMES)), "--players", "4", "-o", "players=3"]
    >>> check_settings(argv, build_parser(argv).parse_args(argv))
    Traceback (most recent call last):
    ...
    kaptai.errors.UsageError: --players 4 and -o players=3 set the rule option players to two values: give one of them
    """
    command: Command | None = getattr(args, "command_spec", None)
    if command is None:
        return
    given = _given(argv, command)
    for opt in command.options:
        if opt.dest in given and opt.applies is not None:
            why = opt.applies(args)
            if why:
                raise UsageError(f"{given[opt.dest]} has no effect here: {why}")
    _check_repeated(argv, command)
    pairs = list(getattr(args, "option", None) or []) if command.option("option") is not None else []
    _check_rule_names(args, command, [key for key, _ in pairs])
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen and not same_value(seen[key], value):
            raise UsageError(f"-o {key}={_shown(seen[key])} and -o {key}={_shown(value)} set the rule option {key} "
                             "to two values: give it once")
        seen.setdefault(key, value)
    _check_rule_fields(command, args, seen)
    for opt in command.options:
        if opt.dest in given and opt.rule_name in seen and opt.dest != "option":
            mine = getattr(args, opt.dest)
            if not same_value(mine, seen[opt.rule_name]):
                raise UsageError(f"{given[opt.dest]} {_shown(mine)} and -o {opt.rule_name}={_shown(seen[opt.rule_name])} "
                                 f"set the rule option {opt.rule_name} to two values: give one of them")


def _check_rule_names(args: argparse.Namespace, command: Command, keys: Sequence[str]) -> None:
    """Refuse ``-o KEY=`` for a name that is no rule option of the game, first (so a typo given
    twice is called a typo), with the game's own message and its close matches; ``name`` labels
    the rules and is not an option (a command line picks its rules with ``--rules``)."""
    name = getattr(args, "game_name", None)
    if not keys or name is None:
        return
    spec = game(name)
    known = set(spec.rule_defaults()) | {o.rule_name for o in command.options if o.rule_name}
    unknown = list(dict.fromkeys(k for k in keys if k not in known))
    if "name" in unknown:
        raise UsageError("-o name=...: 'name' labels a set of rules, it is not a rule option; choose the "
                         f"preset with --rules and change options with -o KEY=VALUE (kaptai {args.target} --help "
                         "lists them)")
    if unknown:
        type(spec.resolve_rules())._check_names(dict.fromkeys(unknown))


def _check_rule_fields(command: Command, args: argparse.Namespace, given: dict[str, Any]) -> None:
    """Refuse ``-o KEY=`` for a rule option the command does not read (its declaration's
    :attr:`~kaptai.spec.Command.rule_fields`), saying why and which it reads.  A name that is no
    rule option of the game passes: the game's rules refuse it, with the names it has."""
    name = getattr(args, "game_name", None)
    if (command.reads_every_rule and command.rule_applies is None) or not given or name is None:
        return
    known = game(name).rule_defaults()
    for key in given:
        why_not = command.rule_applies(args, key) if command.rule_applies and key in known else None
        if why_not and command.reads_rule(key):
            raise UsageError(f"-o {key}={_shown(given[key])} has no effect here: {why_not}")
        if key in known and not command.reads_rule(key):
            read = [k for k in known if command.reads_rule(k)]
            if command.rule_fields is None:
                uses = "it uses every other one (kaptai " + args.target + " --help lists them)"
            else:
                uses = "the rule options it uses: " + (", ".join(read) or "none")
            why = f" ({command.rule_note})" if command.rule_note else ""
            raise UsageError(f"kaptai {args.target} does not use the rule option {key!r}{why}; {uses}")


def _check_repeated(argv: Sequence[str], command: Command) -> None:
    """Refuse an option given twice with two values (``--hands 20 --hands 30``: argparse keeps
    the last without a word), and a switch given as ``--name`` and ``--no-name``."""
    flags = {f: o for o in command.options if not o.positional and o.kind != "keyvalue" for f in o.flags}
    values: dict[str, tuple[str, Any]] = {}
    for i, token in enumerate(argv):
        if token == "--":
            break
        flag, eq, raw = token.partition("=")
        opt = flags.get(flag)
        value: Any
        if opt is None and flag.startswith("--no-") and flags.get("--" + flag[5:]) is not None:
            opt, value = flags["--" + flag[5:]], False
        elif opt is None:
            continue
        elif opt.kind in ("flag", "switch"):
            value = True
        else:
            if not eq:
                if i + 1 >= len(argv):
                    continue
                raw = argv[i + 1]
            try:
                value = opt.parse(raw)
            except argparse.ArgumentTypeError:
                continue  # argparse has refused it already
        if opt.dest in values and not same_value(values[opt.dest][1], value):
            first, was = values[opt.dest]
            if opt.kind in ("flag", "switch"):
                raise UsageError(f"{first} and {flag} contradict each other: give one of them")
            raise UsageError(f"{opt.name} is given twice with two values ({_shown(was)} and {_shown(value)}): "
                             "give it once")
        values.setdefault(opt.dest, (flag, value))


def run_command(args: argparse.Namespace) -> Output:
    """Run the command of a parsed command line (``args`` from :func:`build_parser`) and return
    what it gives, without printing it."""
    command: Command = args.command_spec
    spec = game(args.game_name) if args.game_name else None
    args.game = spec.name if spec is not None else None
    if "progress" in vars(args):
        from kaptai.core.output import want_progress
  # default: a bar only on a terminal (never into a log file)
        args.progress = want_progress(progress=args.progress)
    out = command.load()(args, spec)
    if out.table is not None:  # one type per column (level as text): every format can be written
        from kaptai.core.tables import conform_table

        out = dataclasses.replace(out, table=conform_table(out.table))
    return out


def default_args(game_name: str, command: str | None = None, **values: Any) -> argparse.Namespace:
    """The parsed arguments of ``kaptai <command> <game>`` with every declared option at its
    default and ``values`` on top, for calling a command's entry point from Python.  Without
    ``command``, the options of all the game's commands (the first declaration of a name wins).

    >>> from kaptai.cli import default_args
    >>> from kaptai.games import GAMES
    >>> spec = list(GAMES.values())[0]
    >>> a = default_args(spec.name, "simulate", hands=500)
    >>> a.hands, a.seed, a.progress, a.policy == spec.policies[0]
    (500, 0, False, True)
    """
    spec = game(game_name)
    commands = [spec.commands[command]] if command is not None else list(spec.commands.values())
    out: dict[str, Any] = {}
    for cmd in commands:
        for opt in cmd.options:
            if opt.dest not in out:
                out[opt.dest] = bool(opt.default) if opt.kind == "flag" else (
                    None if opt.positional else opt.parse(opt.default))
    out.update(values)
    if out.get("progress") is None and "progress" in out:
        out["progress"] = False
    ns = argparse.Namespace(**out)
    ns.game = spec.name
    return ns


def _dispatch(args: argparse.Namespace) -> None:
    _show(run_command(args), args)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``kaptai`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    args: argparse.Namespace | None = None
    try:
        _check_target(argv)
        wants_help = any(a in ("-h", "--help") for a in argv)
        parser = _parser_for(tuple(argv[:2]) + (("--help",) if wants_help else ()))
        args, extra = parser.parse_known_args(argv)
        if extra:
            _unknown(extra, args)
        check_settings(argv, args)  # ineffective options, one setting given twice: before any work
        from kaptai.core.paths import check_arg_paths

        check_arg_paths(args)  # --out, --plot, --checkpoint: before any work
        _dispatch(args)
    except KaptaiError as exc:
        print(f"kaptai: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        from kaptai.core.interrupt import interrupted_message  # light: no pandas on Ctrl-C

        print(interrupted_message(exc, getattr(args, "checkpoint", None)), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
