"""The types of the game registry: a game, its commands, and the options each command declares.

A game's ``commands.py`` builds one :class:`GameSpec`; each :class:`Command` in it names its
entry point and declares every option it takes as an :class:`Opt` (name, type, bounds,
default, unit, one help line).  The command line (:mod:`kaptai.cli`) builds the parser of
``kaptai <command> <game>`` from these declarations and nothing else, so a game takes exactly
the options it declares, with the values validated the same way in every game; the registry
itself (the list of games) is :mod:`kaptai.games`.

Examples
--------
>>> from kaptai.spec import Opt
>>> hands = Opt("--hands", "int", default=1000, lo=1, hi=10**6, unit="hands", help="hands to play")
>>> hands.parse("2500"), hands.parse("1e4")
(2500, 10000)
>>> hands.parse("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a whole number from 1 to 1,000,000 (hands), got '0'
>>> Opt("--rules", "choice", choices=("a", "b"), default="a").parse("")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected one of 'a', 'b', got ''
>>> Opt("--seen", "str", default="", empty_ok=True, metavar="TILES").parse(" , ")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected TILES ('' for none), got only separators: ' , '
"""

from __future__ import annotations

import argparse
import importlib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from kaptai.errors import RulesError, quote_token

__all__ = ["Opt", "Command", "Output", "GameSpec", "load_entry", "OptKind"]

#: What an option holds: a number, text, one of some names, a flag, an on/off switch, or
#: ``KEY=VALUE`` (repeatable rule options).
OptKind = Literal["int", "float", "str", "choice", "flag", "switch", "keyvalue"]

_INT = re.compile(r"[+-]?\d(?:_?\d)*")
_SCI = re.compile(r"[+-]?\d(?:_?\d)*(?:\.\d*)?[eE]\+?\d{1,3}")
_MAX_DIGITS = 40  # a number longer than this is out of every declared bound
_SEPARATORS = " \t\r\n,;"  # what separates the items of a list option (cards, calls, plays)


def _fmt(x: float) -> str:
    if isinstance(x, int) and x >= 2**62 and (x + 1) & x == 0:  # 2**k - 1
        return f"2^{x.bit_length()}-1"
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


@dataclass(frozen=True)
class Opt:
    """One option of one command of one game, declared once.

    Parameters
    ----------
    name : str
        ``--long-name`` (an option) or ``name`` (a positional argument).
    kind : {'int', 'float', 'str', 'choice', 'flag', 'switch', 'keyvalue'}
        ``flag`` is on when given (default off); ``switch`` takes ``--name``/``--no-name``
        (default None: the command decides); ``keyvalue`` is ``KEY=VALUE``, repeatable.
    default :
        The value when the option is not given.  A value the user gives is never replaced
        by it: 0, negative numbers and empty text are checked like any other value.
    lo, hi : number, optional
        Inclusive bounds of a number.
    choices : tuple of str
        The allowed values of a ``choice`` (the first need not be the default).
    empty_ok : bool
        Whether empty text is a value (``--seen ''``: nothing seen) or an error.
    check : callable, optional
        Further validation of a text value: returns the value (possibly converted) or raises
        ``ValueError`` with the reason.
    sample : str, optional
        A valid value, as a user would type it (tests and ``--help`` examples use it).
    aliases : tuple of str
        Other flags for the same option (``--games`` for ``--hands``).
    short : str, optional
        A one-letter flag (``-o``).
    applies : callable, optional
        When the option has an effect: called with the parsed arguments of a command line
        that gives it, returns None when it does, else the reason it does not (``--percent``
        outside the table format, ``--samples`` when no seat plays a policy that samples).
        The command line refuses an option given where it has no effect, with that reason.
    rule : str, optional
        The rule option (``-o KEY=VALUE``) this option sets, when it is not the option's own
        name (``--players`` sets ``players`` by its name): the command line refuses the two
        given with two values.

    Examples
    --------
    >>> import argparse
    >>> pct = Opt("--percent", "flag", applies=lambda a: None if a.format in (None, "table") else "not a table")
    >>> pct.applies(argparse.Namespace(format="json"))
    'not a table'
    """

    name: str
    kind: OptKind = "str"
    default: Any = None
    help: str = ""
    lo: float | None = None
    hi: float | None = None
    choices: tuple[str, ...] = ()
    unit: str | None = None
    metavar: str | None = None
    empty_ok: bool = False
    max_len: int = 4096
    check: Callable[[str], Any] | None = field(default=None, compare=False)
    sample: str | None = None
    aliases: tuple[str, ...] = ()
    short: str | None = None
    applies: Callable[[argparse.Namespace], str | None] | None = field(default=None, compare=False)
    rule: str | None = None

    @property
    def rule_name(self) -> str:
        """The rule option (``-o KEY=``) that this option sets, if the game has one of that name."""
        return self.rule or self.dest

    @property
    def positional(self) -> bool:
        return not self.name.startswith("-")

    @property
    def dest(self) -> str:
        """The attribute name on the parsed namespace."""
        return self.name.lstrip("-").replace("-", "_")

    @property
    def flags(self) -> tuple[str, ...]:
        if self.positional:
            return (self.name,)
        return ((self.short,) if self.short else ()) + (self.name, *self.aliases)

    def bounds_text(self) -> str:
        what = "a whole number" if self.kind == "int" else "a number"
        unit = f" ({self.unit})" if self.unit else ""
        if self.lo is not None and self.lo == self.hi:
            return f"exactly {_fmt(self.lo)}{unit}"
        if self.lo is not None and self.hi is not None:
            return f"{what} from {_fmt(self.lo)} to {_fmt(self.hi)}{unit}"
        if self.lo is not None:
            return f"{what} >= {_fmt(self.lo)}{unit}"
        if self.hi is not None:
            return f"{what} <= {_fmt(self.hi)}{unit}"
        return what + unit

    def parse(self, text: str) -> Any:
        """The value of ``text`` for this option, or :class:`argparse.ArgumentTypeError`
        saying what is expected (quoting at most ~40 characters of ``text``)."""
        if not isinstance(text, str):  # a default given as a value
            return text
        if len(text) > self.max_len:
            raise argparse.ArgumentTypeError(
                f"the value is {len(text):,} characters long (at most {self.max_len:,}): {quote_token(text)}")
        if self.kind in ("int", "float"):
            return self._number(text)
        if self.kind == "choice":
            if text not in self.choices:
                raise argparse.ArgumentTypeError(
                    f"expected one of {', '.join(repr(c) for c in self.choices)}, got {quote_token(text)}")
            return text
        if self.kind == "keyvalue":
            return _key_value(text)
        if not text.strip() and not (self.empty_ok and text == ""):
            raise argparse.ArgumentTypeError(f"expected {self.metavar or 'a value'}, got {quote_token(text)}")
        if text and not text.strip(_SEPARATORS) and self.metavar not in ("FILE", "DIR"):  # ',': a list of nothing
            none = " ('' for none)" if self.empty_ok else ""
            raise argparse.ArgumentTypeError(
                f"expected {self.metavar or 'a value'}{none}, got only separators: {quote_token(text)}")
        if self.check is not None:
            try:
                return self.check(text)
            except (ValueError, RulesError) as exc:
                raise argparse.ArgumentTypeError(str(exc)) from None
        return text

    def _number(self, text: str) -> int | float:
        raw = text.strip()
        bad = argparse.ArgumentTypeError(f"expected {self.bounds_text()}, got {quote_token(text)}")
        if len(raw) > _MAX_DIGITS or not raw.isascii():  # int('١') and float('٣') are 1 and 3.0
            raise bad
        value: int | float
        if self.kind == "int":
            if _INT.fullmatch(raw):
                value = int(raw)
            elif _SCI.fullmatch(raw):  # 1e6, 2.5e5: only when the number is whole
                try:
                    d = Decimal(raw.replace("_", ""))
                except InvalidOperation:
                    raise bad from None
                if d != d.to_integral_value():
                    raise bad
                value = int(d)
            else:
                raise bad
        else:
            try:
                value = float(raw.replace("_", ""))
            except ValueError:
                raise bad from None
            if not math.isfinite(value):
                raise bad
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise bad
        return value

    def help_text(self) -> str:
        parts = [self.help] if self.help else []
        if self.kind in ("int", "float") and (self.lo is not None or self.hi is not None):
            parts.append(self.bounds_text().replace("a whole number", "whole number").replace("a number", "number"))
        if self.kind not in ("flag", "switch", "keyvalue") and not self.positional and self.default not in (None, ""):
            parts.append(f"default {self.default}")
        return "; ".join(parts).replace("%", "%%")

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        """Add this option to an :mod:`argparse` parser."""
        kw: dict[str, Any] = {"help": self.help_text()}
        if self.kind == "flag":
            kw.update(action="store_true", default=bool(self.default))
        elif self.kind == "switch":
            kw.update(action=argparse.BooleanOptionalAction, default=self.default)
        else:
            kw.update(type=self.parse, metavar=self.metavar or self._metavar())
            if self.kind == "keyvalue":
                kw.update(action="append", default=None)
            elif not self.positional:
                kw.update(default=self.default)
        if not self.positional:
            kw["dest"] = self.dest
        parser.add_argument(*self.flags, **kw)

    def _metavar(self) -> str:
        if self.kind == "choice":
            return "{" + ",".join(self.choices) + "}"
        if self.kind == "keyvalue":
            return "KEY=VALUE"
        if self.positional:
            return self.name.upper()
        return {"int": "N", "float": "X"}.get(self.kind, self.dest.upper())

    def example_value(self) -> str | None:
        """A valid value as typed (``sample``, else the default, else the first choice)."""
        if self.sample is not None:
            return self.sample
        if self.kind == "choice":
            return str(self.default if self.default is not None else self.choices[0])
        if self.default is not None and self.kind in ("int", "float", "str"):
            return str(self.default)
        return None


def _key_value(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` (VALUE as a Python literal when it is one)."""
    import ast

    key, eq, value = text.partition("=")
    key = key.strip().replace("-", "_")
    if not eq or not key.isidentifier():
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE (a rule option), got {quote_token(text)}")
    if len(value) > _MAX_DIGITS and value.strip().lstrip("+-").isdigit():
        raise argparse.ArgumentTypeError(f"{key}: the number {quote_token(value)} is out of range")
    try:
        parsed: Any = ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        parsed = {"true": True, "false": False}.get(value.lower(), value)
    return key, parsed


@dataclass(frozen=True)
class Command:
    """A command a game supports: its entry point (``'module:function'``), the options it
    declares, and an example command line written for the game.

    The entry point is called as ``function(args, game)`` with the parsed
    :class:`argparse.Namespace` (every declared option present, with its value or default)
    and the :class:`GameSpec`, and returns an :class:`Output`.
    """

    entry: str
    options: tuple[Opt, ...] = ()
    help: str | None = None
    example: str | None = None
    #: what the run's Monte Carlo needs from the shared runner (for the docs and tests)
    monte_carlo: bool = False
    #: The rule options (the game's ``RuleSet`` fields, ``-o KEY=VALUE``) this command reads;
    #: None: every one but :attr:`rule_ignores`.  ``-o`` with another is refused, saying why
    #: (:attr:`rule_note`), and ``--help`` lists only those it reads (tests/test_rule_fields.py
    #: checks the declarations: a field left out changes nothing).
    rule_fields: tuple[str, ...] | None = None
    #: The rule options a command that reads nearly all of them does not read (with
    #: ``rule_fields=None``); a rule option added to the game later is read unless listed here.
    rule_ignores: tuple[str, ...] = ()
    #: Why the rule options it does not read change nothing here (one clause, e.g. "odds counts
    #: the cards of a deal: the play, the scoring and the money do not change them").
    rule_note: str | None = None
    #: When a rule option it reads has no effect in a command line as given (``odds heaven-eleven
    #: -o short_penalty=...`` with ``--table deal``): called with the parsed arguments and the
    #: option's name, returns None when it has one, else why not; the command line refuses it.
    rule_applies: Callable[[argparse.Namespace, str], str | None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for o in self.options:
            for key in {o.dest, *o.flags}:
                if key in seen:
                    raise RuntimeError(f"{self.entry}: option {key!r} is declared twice")
                seen.add(key)
        if self.rule_fields is not None and self.rule_ignores:
            raise RuntimeError(f"{self.entry}: declare rule_fields (what it reads) or rule_ignores, not both")

    def load(self) -> Callable[[argparse.Namespace, "GameSpec | None"], "Output"]:
        return load_entry(self.entry)

    def option(self, dest: str) -> Opt | None:
        return next((o for o in self.options if o.dest == dest), None)

    def reads_rule(self, key: str) -> bool:
        """Whether the rule option ``key`` (``-o key=...``) has an effect on this command.

        >>> Command("m:f", rule_fields=("stake",)).reads_rule("stake"), Command("m:f").reads_rule("stake")
        (True, True)
        >>> Command("m:f", rule_fields=("players",)).reads_rule("stake"), Command("m:f", rule_ignores=("stake",)).reads_rule("stake")
        (False, False)
        """
        if self.rule_fields is not None:
            return key in self.rule_fields
        return key not in self.rule_ignores

    @property
    def reads_every_rule(self) -> bool:
        """Whether every rule option of the game has an effect on this command."""
        return self.rule_fields is None and not self.rule_ignores


@dataclass(frozen=True, eq=False)
class Output:
    """What a command gives the command line to print.

    Attributes
    ----------
    table : pandas.DataFrame or None
        The result (printed as a table, or written as CSV, JSON or parquet, by ``--format``
        and ``--out``: :func:`kaptai.core.output.emit`).
    title : str or None
        What the table is: the table format's header line is ``# title — provenance``
        (game, players, rules changed from the preset, policies, samples, seed).
    columns : sequence of str or None
        The columns shown in ``table`` format (all in CSV and JSON).
    text : str or None
        A message printed instead of the table (or after a written file).
    record : mapping or None
        One result object (``kaptai score``): printed as one JSON object with
        ``--format json``, as a two-column table otherwise.
    legend : str or None
        Lines printed under the table (table format): what the metrics mean.
    """

    table: Any = None
    title: str | None = None
    columns: Sequence[str] | None = None
    text: str | None = None
    record: Mapping[str, Any] | None = None
    legend: str | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared layers need to know about one game.

    Attributes
    ----------
    name : str
        The id used on the command line (``kaptai odds <name>``).
    title : str
        English title with the Chinese name.
    rules_page : str
        The game's rules as kaptai models them, a page of the project's docs
        (``docs/rules/<game>.md``, relative to the repository root).
    players : (int, int)
        Smallest and largest player count.
    default_players : int
    package : str
        The game's package (``kaptai.kts``); its ``rules.resolve_rules`` resolves presets.
    presets : tuple of str
        Named rulesets; the first is the default.
    policies : tuple of str
        Built-in playing policies (the first is the default of ``--policy``).
    variant_sets : str or None
        ``'module:NAME'`` of the game's ready-made fairness comparisons.
    default_variants : str or None
        What ``kaptai fairness <game>`` compares when ``--variants`` is not given.
    report_players : str or None
        The player counts of ``kaptai report <game>`` when ``--players`` is not given.
    commands : mapping of str to Command
        The commands the game supports, with the options each declares.
    aliases : tuple of str
        Other names accepted for the game.
    report_sections : str or None
        ``'module:function'`` building the game's report sections
        (``build_sections(players, hands, seed, **runner) -> (title, sections, meta, results)``).
    atlas : str or None
        ``'module:FEED'``: the game's :class:`kaptai.core.atlas.AtlasFeed` (its variants,
        policies and the chunk function that turns its hands into the atlas's feature rows).
    metrics : tuple of str
        ``'module:NAME'`` of mappings metric -> description of the game's Monte Carlo tables;
        a description starting ``P(`` or ``distribution`` marks a probability (``--percent``).
    players_note : str or None
        What the range :attr:`players` does not say (the counts the default rules play, the
        options that open the others), shown by ``kaptai games`` after it.
    """

    name: str
    title: str
    rules_page: str
    players: tuple[int, int]
    default_players: int
    package: str
    presets: tuple[str, ...]
    commands: Mapping[str, Command]
    policies: tuple[str, ...] = ()
    variant_sets: str | None = None
    default_variants: str | None = None
    report_players: str | None = None
    aliases: tuple[str, ...] = ()
    report_sections: str | None = None
    atlas: str | None = None
    metrics: tuple[str, ...] = ()
    players_note: str | None = None

    def players_text(self) -> str:
        """The player counts as ``kaptai games`` shows them: the range, and the note if any.

        >>> from kaptai.games import game
        >>> game("kap-shap").players_text(), game("nantong").players_text()
        ('2', '3-4')
        """
        lo, hi = self.players
        text = f"{lo}-{hi}" if lo != hi else str(lo)
        return f"{text} ({self.players_note})" if self.players_note else text

    def resolve_rules(self, rules: Any = None, **overrides: Any) -> Any:
        """The game's ``rules.resolve_rules(rules, **overrides)``."""
        return load_entry(f"{self.package}.rules:resolve_rules")(rules, **overrides)

    def rule_defaults(self) -> dict[str, Any]:
        """The rule options (``-o KEY=VALUE``) and their values in the default preset.

        Read from the source of the game's ``rules`` module (its ``RuleSet`` fields and the
        default preset, literals only) so that ``--help`` imports no numpy; the RuleSet itself
        when the source says more than literals (tests compare the two for every game).

        >>> from kaptai.games import game
        >>> d = game("heaven-eleven").rule_defaults()
        >>> d["short_penalty"], d == {k: v for k, v in game("heaven-eleven").resolve_rules().to_dict().items()
        ...                            if k != "name"}
        ('none', True)
        """
        found = _literal_rule_defaults(f"{self.package}.rules", self.presets[0])
        if found is not None:
            return found
        rules = self.resolve_rules(self.presets[0]).to_dict()
        return {k: v for k, v in rules.items() if k != "name"}

    def check_players(self, players: int | None) -> int:
        """``players``, or :attr:`default_players` when None; a fixed-size game refuses others."""
        if players is None:
            return self.default_players
        lo, hi = self.players
        if lo == hi and players != lo:
            raise RulesError(f"{self.name} is the {lo}-player game; got --players {players}")
        return players  # the range is checked once, by the game's own validate_players

    def variant_set_names(self) -> tuple[str, ...]:
        """Names of the ready-made fairness comparisons (``VARIANT_SETS``)."""
        return tuple(load_entry(self.variant_sets)) if self.variant_sets else ()


def _literal(node: Any) -> Any:
    """The value of a literal default (``1``, ``'a'``, ``frozenset({'a'})``, ``field(default=...)``);
    ValueError if it is anything else."""
    import ast

    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "field" and not node.args and [k.arg for k in node.keywords] == ["default"]:
            return _literal(node.keywords[0].value)
        if node.func.id in ("frozenset", "tuple") and len(node.args) == 1 and not node.keywords:
            items = ast.literal_eval(node.args[0])
            return sorted(items) if node.func.id == "frozenset" else list(items)
        raise ValueError("not a literal")
    value = ast.literal_eval(node)
    return list(value) if isinstance(value, tuple) else value


def _literal_rule_defaults(module: str, preset: str) -> dict[str, Any] | None:
    """The ``RuleSet`` fields of ``module`` (a game's rules) with their defaults, as in the preset
    ``preset`` when ``PRESETS`` makes it ``RuleSet(...)`` of literals; None when the source says
    more than literals (then the RuleSet itself is asked)."""
    import ast
    import importlib.util

    try:
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            return None
        with open(spec.origin, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
        fields: dict[str, Any] = {}
        made: dict[str, Any] | None = None
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == "RuleSet":
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                        if item.value is None or "ClassVar" in ast.unparse(item.annotation):
                            continue
                        fields[item.target.id] = _literal(item.value)
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                target, value = node.target, node.value
            else:
                continue
            if isinstance(target, ast.Name) and target.id == "PRESETS":
                if isinstance(value, ast.Call) and len(value.args) == 1:  # MappingProxyType({...})
                    value = value.args[0]
                if not isinstance(value, ast.Dict):
                    return None
                for key, call in zip(value.keys, value.values):
                    if isinstance(key, ast.Constant) and key.value == preset:
                        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                                and call.func.id == "RuleSet" and not call.args):
                            return None
                        made = {k.arg: _literal(k.value) for k in call.keywords if k.arg is not None}
        if not fields or made is None:
            return None
        fields.update(made)
        fields.pop("name", None)
        return fields
    except (OSError, SyntaxError, ValueError, ImportError):
        return None


def load_entry(entry: str) -> Any:
    """The object named by ``'package.module:attribute'`` (imported on first use)."""
    module, _, attr = entry.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj
