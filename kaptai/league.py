"""The duplicate league and cross-play of a game by its name (the registry's spec, then
:mod:`kaptai.core.league`, which knows no game).

>>> from kaptai.league import policy_league
>>> df = policy_league("nine-ten", hands=200, seed=1, policies=("random", "colour_cut"), progress=False)
>>> df.attrs["settings"]["design"]
'duplicate'
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from kaptai.core import league as _core

__all__ = ["cross_play", "league_game", "policy_league"]


def league_game(game: Any) -> _core.LeagueGame:
    """The :class:`~kaptai.core.league.LeagueGame` of a game id or alias (or of a spec)."""
    if isinstance(game, _core.LeagueGame):
        return game
    from kaptai.games import game as game_spec
    from kaptai.spec import GameSpec

    if not isinstance(game, GameSpec):
        game = game_spec(game)  # a name or alias; anything else is refused naming it
    return _core.LeagueGame.of(game)


def policy_league(game: Any, *args: Any, **kwargs: Any) -> pd.DataFrame:
    """:func:`kaptai.core.league.policy_league` of a game given by name (or spec)."""
    return _core.policy_league(league_game(game), *args, **kwargs)


def cross_play(game: Any, *args: Any, **kwargs: Any) -> pd.DataFrame:
    """:func:`kaptai.core.league.cross_play` of a game given by name (or spec)."""
    return _core.cross_play(league_game(game), *args, **kwargs)
