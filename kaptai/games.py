"""The registry of games: one :class:`GameSpec` per game, found by id or alias.

The command line (:mod:`kaptai.cli`) and the report builder (:mod:`kaptai.report`) know
no game by name: they look games up here and call the entry point a game registers for
each command, with the options that command declares (:class:`kaptai.spec.Opt`).  A game is
one folder (``kaptai/<package>/``, laid out as ``docs/architecture.md`` describes) whose
``commands.py`` defines its ``SPEC`` from the types of :mod:`kaptai.spec` (it does not import
this module), plus one line in :func:`_load_specs` below.

Examples
--------
>>> from kaptai.games import GAMES, game
>>> game("kap-shap").players, game("kap-shap").default_players
((2, 2), 2)
>>> sorted(game("big-two").commands)[:3]
['advise', 'fairness', 'league']
>>> game("chess")
Traceback (most recent call last):
...
kaptai.errors.RulesError: unknown game 'chess': expected one of 'kap-tai-shap', 'kap-shap', 'big-two', 'nine-ten', 'nantong', 'heaven-eleven'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kaptai.errors import RulesError
from kaptai.spec import Command, GameSpec, Opt, Output, load_entry

__all__ = ["Opt", "Command", "Output", "GameSpec", "GAMES", "game", "games_for", "load_entry", "games_table"]


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
    ['kap-tai-shap', "2-22 (2 is Kap Shap's deal)"]
    """
    import pandas as pd

    rows = [
        {
            "name": g.name,
            "aliases": list(g.aliases),
            "title": g.title,
            "players": g.players_text(),
            "commands": list(g.commands),
            "rules_page": g.rules_page,
        }
        for g in GAMES.values()
    ]
    return pd.DataFrame(rows, columns=["name", "aliases", "title", "players", "commands", "rules_page"])


def _register() -> None:
    # tables find their game's presets and metric descriptions through the registry (a light
    # hook: registering imports neither pandas nor any game)
    from kaptai.core.lookup import register_games

    register_games(game)


_register()
