"""The registry of games: one :class:`GameSpec` per game, found by id or alias.

The command line (:mod:`kaptai.cli`) and the report builder (:mod:`kaptai.report`) know
no game by name: they look games up here and call the entry point a game registers for
each command.  A game is one folder (``kaptai/<package>/``, laid out as
``docs/architecture.md`` describes) whose ``commands.py`` defines its ``SPEC``, plus one
line in :data:`_SPECS` below.

Examples
--------
>>> from kaptai.games import GAMES, game
>>> game("kap-shap").players, game("kap-shap").default_players
((2, 2), 2)
>>> sorted(game("big-two").commands)[:3]
['fairness', 'odds', 'report']
>>> game("chess")
Traceback (most recent call last):
...
kaptai.errors.RulesError: unknown game 'chess': expected one of 'kap-tai-shap', 'kap-shap', 'big-two', 'nine-ten', 'nantong', 'heaven-eleven'
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from kaptai.errors import RulesError

__all__ = ["Arg", "Command", "Output", "GameSpec", "GAMES", "game", "games_for", "load_entry", "games_table"]


@dataclass(frozen=True, init=False)
class Arg:
    """One command-line argument a game adds to a command: ``argparse`` flags and keywords.

    >>> Arg("--hand", default=None, help="which hand").dest
    'hand'
    """

    flags: tuple[str, ...]
    kwargs: Mapping[str, Any]

    def __init__(self, *flags: str, **kwargs: Any) -> None:
        object.__setattr__(self, "flags", tuple(flags))
        object.__setattr__(self, "kwargs", MappingProxyType(dict(kwargs)))

    @property
    def dest(self) -> str:
        """The attribute name on the parsed namespace."""
        if "dest" in self.kwargs:
            return str(self.kwargs["dest"])
        long = [f for f in self.flags if f.startswith("--")]
        return (long[0] if long else self.flags[0]).lstrip("-").replace("-", "_")

    @property
    def positional(self) -> bool:
        return not self.flags[0].startswith("-")


@dataclass(frozen=True)
class Command:
    """A command a game supports: its entry point (``'module:function'``) and own arguments.

    The entry point is called as ``function(args, game)`` with the parsed
    :class:`argparse.Namespace` and the :class:`GameSpec`, and returns an :class:`Output`.
    """

    entry: str
    args: tuple[Arg, ...] = ()
    help: str | None = None

    def load(self) -> Callable[[argparse.Namespace, "GameSpec"], "Output"]:
        return load_entry(self.entry)


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
    """

    table: Any = None
    title: str | None = None
    columns: Sequence[str] | None = None
    text: str | None = None
    record: Mapping[str, Any] | None = None


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
        The rules page (in ``../shared/rules/``) the game follows.
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
        The commands the game supports.
    aliases : tuple of str
        Other names accepted for the game.
    report_sections : str or None
        ``'module:function'`` building the game's report sections
        (``build_sections(players, hands, seed, **runner) -> (title, sections, meta, results)``).
    atlas : str or None
        ``'module:FEED'``: the game's :class:`kaptai.core.atlas.AtlasFeed` (its variants,
        policies and the chunk function that turns its hands into the atlas's feature rows).
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

    def resolve_rules(self, rules: Any = None, **overrides: Any) -> Any:
        """The game's ``rules.resolve_rules(rules, **overrides)``."""
        return load_entry(f"{self.package}.rules:resolve_rules")(rules, **overrides)

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


def load_entry(entry: str) -> Any:
    """The object named by ``'package.module:attribute'`` (imported on first use)."""
    module, _, attr = entry.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


def _load_specs() -> tuple[GameSpec, ...]:
    # One line per game: its SPEC (or SPECS) in <package>/commands.py.
    from kaptai.bigtwo.commands import SPEC as BIG_TWO
    from kaptai.heaven11.commands import SPEC as HEAVEN_ELEVEN
    from kaptai.kts.commands import KAP_SHAP, KAP_TAI_SHAP
    from kaptai.nantong.commands import SPEC as NANTONG
    from kaptai.nineten.commands import SPEC as NINE_TEN

    return (KAP_TAI_SHAP, KAP_SHAP, BIG_TWO, NINE_TEN, NANTONG, HEAVEN_ELEVEN)


class _Registry(Mapping[str, GameSpec]):
    """The games by id, loaded on first use (a game's commands.py imports this module)."""

    def __init__(self) -> None:
        self._specs: dict[str, GameSpec] | None = None
        self._names: dict[str, GameSpec] = {}

    def _load(self) -> dict[str, GameSpec]:
        if self._specs is None:
            specs = _load_specs()
            names: dict[str, GameSpec] = {}
            for spec in specs:
                for key in (spec.name, *spec.aliases):
                    if key in names:
                        raise RuntimeError(f"game id {key!r} is registered twice")
                    names[key] = spec
            self._names = names
            self._specs = {s.name: s for s in specs}
        return self._specs

    def __getitem__(self, name: str) -> GameSpec:
        return self._load()[name]

    def __iter__(self):
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())

    def lookup(self, name: str) -> GameSpec:
        self._load()
        return self._names[name]

    def __repr__(self) -> str:
        return f"GAMES({', '.join(self)})"


#: Every registered game by id (registration order); aliases are resolved by :func:`game`.
GAMES: _Registry = _Registry()


def game(name: str) -> GameSpec:
    """The :class:`GameSpec` of a game id or alias."""
    try:
        return GAMES.lookup(name)
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown game {name!r}: expected one of " + ", ".join(repr(g) for g in GAMES)
        ) from None


def games_for(command: str) -> tuple[GameSpec, ...]:
    """The games that support ``command``, in registration order."""
    return tuple(g for g in GAMES.values() if command in g.commands)


def games_table() -> Any:
    """One row per game: name, aliases, title, players, commands (for ``kaptai games``).

    >>> games_table().loc[0, ["name", "players"]].tolist()
    ['kap-tai-shap', '2-22']
    """
    import pandas as pd

    rows = [
        {
            "name": g.name,
            "aliases": list(g.aliases),
            "title": g.title,
            "players": f"{g.players[0]}-{g.players[1]}" if g.players[0] != g.players[1] else str(g.players[0]),
            "commands": list(g.commands),
            "rules_page": g.rules_page,
        }
        for g in GAMES.values()
    ]
    return pd.DataFrame(rows, columns=["name", "aliases", "title", "players", "commands", "rules_page"])

