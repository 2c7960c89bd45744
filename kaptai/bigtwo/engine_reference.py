"""Pure-Python reference engine of Big Two (鋤大D): the test oracle of the compiled engine.

This file implements ``docs/big-two-engine.md`` line by line, with legality computed
independently of the compiled evaluator: every candidate card set of a hand is classified by
:func:`kaptai.bigtwo.reference.classify` (tuple keys).  Given the same ``PCG64`` stream (or
the same decks) and the same policies it makes the same moves, writes the same log rows and
returns the same outcome arrays as :mod:`kaptai.bigtwo._engine`.  It is also the only
engine that runs Python :class:`kaptai.bigtwo.policies.Policy` objects.

* :func:`run_hands` -- many games from one stream (the outcome arrays and the log);
* :func:`play_game` -- one game;
* :class:`Game` -- one game step by step (``view()``, ``step(choice)``), for tests and for
  driving a game by hand.  An illegal choice raises
  :class:`kaptai.bigtwo.config.IllegalPlayError` before any state changes.

Randomness
----------
One :class:`kaptai.core.sampling.RandomStream` per call of :func:`run_hands`.  Draws happen
only at the shuffle of each deal (``j = bounded(i + 1)`` for ``i`` from 51 down to 1, swap
``deck[i]``, ``deck[j]``) and in the ``'random'`` policy (``bounded(len(options))`` with two
or more options; the swap decision is ``bounded(2) == 1``).

Examples
--------
>>> import numpy as np
>>> from kaptai.bigtwo.config import make_config
>>> from kaptai.bigtwo.engine_reference import run_hands
>>> out, log = run_hands(make_config(4), "greedy", np.random.PCG64(1), 3, record=1)
>>> out["cards_left"].shape, int((out["cards_left"] == 0).sum(axis=1).min())
((3, 4), 1)
>>> log.shape[1], int(log[0, 3])  # the first row of game 0 is a deal
(6, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral
from typing import Any

import numpy as np

from kaptai.bigtwo import _moves
from kaptai.bigtwo._moves import (  # noqa: F401  (re-exported: the reference engine's public names)
    DEAL, INSTANT_WIN, LEAD, LEFTOVER, PASS, PLAY, REDEAL, SWAP, WIN, DeckSource, GameResult, TurnOptions,
    legal_entries, make_view, shuffled_deck, turn_options,
)
from kaptai.bigtwo.config import EngineConfig, new_outcomes
from kaptai.bigtwo.policies import PlayerView, compiled_rollouts, resolve_policies, search_values  # noqa: F401
from kaptai.core.sampling import RandomStream
from kaptai.errors import KaptaiError, quote_token

__all__ = [
    "DEAL", "LEFTOVER", "SWAP", "INSTANT_WIN", "REDEAL", "LEAD", "PLAY", "PASS", "WIN",
    "shuffled_deck",
    "DeckSource",
    "legal_entries",
    "turn_options",
    "make_view",
    "GameResult",
    "Game",
    "play_game",
    "run_hands",
    "search_values",
]



class Game(_moves.Game):
    __doc__ = _moves.Game.__doc__

    @staticmethod
    def resolve(policies: Any, players: int, stream: Any = None, cfg: Any = None) -> list:
        """Built-in names and Policy objects (:func:`kaptai.bigtwo.policies.resolve_policies`)."""
        return resolve_policies(policies, players, stream, cfg)


def play_game(
    cfg: EngineConfig,
    policies: Any,
    stream: RandomStream | None = None,
    *,
    decks: DeckSource | Any = None,
    previous_winner: int = -1,
    game: int = 0,
    log: list | None = None,
) -> GameResult:
    """Play one game.

    Parameters
    ----------
    cfg : EngineConfig
    policies : str, Policy or sequence
    stream : RandomStream, optional
    decks : DeckSource or array_like (m, 52), optional
        Constructed decks (one per deal); default: shuffles of ``stream``.
    previous_winner : int
        Winner of the previous game (``first_lead='previous_winner'``), -1 for none.
    game : int
        The log's ``game`` column.
    log : list, optional
        Rows ``(game, step, seat, action, cards, value)`` are appended.

    Examples
    --------
    >>> from kaptai.bigtwo.config import make_config
    >>> from kaptai.bigtwo.engine_reference import play_game
    >>> r = play_game(make_config(2, {"redeal": "off"}), "heuristic", decks=[list(range(52))])
    >>> r.leader, r.cards_left[r.winner]
    (0, 0)
    """
    g = Game(cfg, policies, stream, decks=decks, previous_winner=previous_winner, index=game, record=log is not None)
    res = g.play()
    if log is not None:
        log.extend(g.log)
    return res


def run_hands(
    cfg: EngineConfig,
    policies: Any,
    bit_generator: np.random.BitGenerator | None,
    games: int,
    record: int = 0,
    decks: Any = None,
    *,
    on_hand: Callable[[int, dict[str, np.ndarray], np.ndarray], None] | None = None,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``games`` games from one fresh bit generator.

    Parameters
    ----------
    cfg : EngineConfig
        From :func:`kaptai.bigtwo.config.make_config`.
    policies : str, Policy or sequence
        One for all seats or one per seat (built-in names or Policy objects).
    bit_generator : numpy.random.PCG64 or None
        Fresh generator, read through one :class:`RandomStream` for the whole call (None is
        allowed with ``decks`` when no policy draws).
    games : int
    record : int
        Log the games with index < ``record``.
    decks : array_like (m, 52), optional
        Decks used in order instead of shuffling (each deal, a redeal included, takes the
        next; too few is an error).
    on_hand : callable, optional
        ``on_hand(g, out, log)``, called as soon as game ``g`` is over with its outcome row
        (``out[key]``: the run's ``out[key][g:g + 1]``) and its log rows (empty past ``record``):
        what the run returns, game by game, while it runs.

    Returns
    -------
    outcomes : dict of numpy.ndarray
        :func:`kaptai.bigtwo.config.new_outcomes` filled, one row per game.
    log : numpy.ndarray
        int64, shape (rows, 6), columns :data:`kaptai.bigtwo.config.LOG_COLUMNS`.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.bigtwo.config import make_config
    >>> from kaptai.bigtwo.engine_reference import run_hands
    >>> out, _ = run_hands(make_config(3), ["random", "greedy", "heuristic"], np.random.PCG64(5), 2)
    >>> out["winner"].dtype.name, out["turns"].shape
    ('int8', (2,))
    """
    if isinstance(games, (bool, np.bool_)) or not isinstance(games, Integral) or games < 0:
        raise KaptaiError(f"games={quote_token(games)}: expected a non-negative integer")
    stream = RandomStream(bit_generator) if bit_generator is not None else None
    objs = resolve_policies(policies, cfg.players, stream, cfg)
    source = DeckSource(stream, decks)
    out = new_outcomes(int(games), cfg.players)
    rows: list = []
    prev = -1
    for g in range(int(games)):
        start = len(rows)
        res = play_game(cfg, objs, stream, decks=source, previous_winner=prev, game=g,
                        log=rows if g < record else None)
        prev = res.winner
        for key in out:
            out[key][g] = getattr(res, key)
        if on_hand is not None:
            on_hand(g, {key: v[g:g + 1].copy() for key, v in out.items()},
                    np.array(rows[start:], dtype=np.int64).reshape(-1, 6))
    log = np.array(rows, dtype=np.int64).reshape(-1, 6)
    return out, log
