"""Where the ground floor finds a game by name, without importing the registry.

:mod:`kaptai.games` registers its ``game(name)`` function here when it loads
(:func:`register_games`); a module of :mod:`kaptai.core` that must look a game up from a
table's ``game`` label (its presets, metric descriptions) calls :func:`find_game`.  So
:mod:`kaptai.core` never imports the registry or a game, and this module imports nothing:
registering costs the command line no import (it used to load pandas with
:mod:`kaptai.core.output`).

Examples
--------
>>> from kaptai.core.lookup import find_game
>>> import kaptai.games  # registers the registry's lookup
>>> find_game("big-two").name, find_game("chess"), find_game(None)
('big-two', None, None)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["register_games", "find_game"]

_LOOKUP: Callable[[str], Any] | None = None


def register_games(lookup: Callable[[str], Any]) -> None:
    """Let the ground floor find games: ``lookup(name)`` returns the game's
    :class:`kaptai.spec.GameSpec` or raises :class:`kaptai.errors.KaptaiError`."""
    global _LOOKUP
    _LOOKUP = lookup


def find_game(name: object) -> Any:
    """The registered game named ``name``, or None (no registry loaded, not a name, unknown)."""
    from kaptai.errors import KaptaiError

    if not isinstance(name, str) or _LOOKUP is None:
        return None
    try:
        return _LOOKUP(name)
    except KaptaiError:
        return None
