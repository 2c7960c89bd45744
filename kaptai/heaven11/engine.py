"""Heaven Eleven (天牌十一) engine front door: validates, then runs the compiled or the reference engine.

Both follow ``docs/heaven-eleven-engine.md`` and make the same moves from the same stream.

Examples
--------
>>> import numpy as np
>>> from kaptai.heaven11.engine import make_config, run_hands
>>> out, log = run_hands(make_config(), "greedy", np.random.PCG64(7), 5, record=1)
>>> bool((out["tricks"].sum(axis=1) == 13).all()), bool((out["finals"].sum(axis=1) == 0).all())
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaptai.errors import RulesError, quote_token
from kaptai.heaven11.config import (
    ACTIONS, BID_CODES, LOG_COLUMNS, PLAY_CODES, EngineConfig, IllegalPlayError, check_bidding, check_policies,
    make_config,
)

__all__ = ["ACTIONS", "LOG_COLUMNS", "EngineConfig", "IllegalPlayError", "make_config", "run_hands"]


def _check_decks(decks: Any) -> np.ndarray:
    d = np.ascontiguousarray(decks, dtype=np.int8)
    if d.ndim != 2 or d.shape[1] != 52 or any(sorted(r) != list(range(52)) for r in d.tolist()):
        raise RulesError("decks must be an array of shape (m, 52), each row a permutation of the card ids 0-51")
    return d


def run_hands(cfg: EngineConfig, policies: Any, bit_generator: np.random.BitGenerator, hands: int, *,
              bidding: Any = "expected", record: int = 0, decks: Any = None,
              engine: str = "auto", on_hand: Any = None) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``hands`` hands on one random stream: outcome arrays and the int64 log.

    Parameters
    ----------
    cfg : EngineConfig
    policies : str, Policy or sequence of 4
        Play policies (``'random'``, ``'greedy'``, ``'rollout'``, ``'search'``) or user objects.
    bit_generator : numpy.random.PCG64
        A fresh generator.
    hands : int
    bidding : str or sequence of 4
        Bidding policies (:data:`kaptai.heaven11.config.BID_POLICIES`).
    record : int
        Log the first ``record`` hands.
    decks : array (m, 52), optional
        Deal these decks in order instead of shuffling.
    engine : {'auto', 'compiled', 'reference'}
    on_hand : callable, optional
        ``on_hand(h, out, log)`` as soon as hand ``h`` is over: its outcome row and log rows (the
        reference engine only, which ``'auto'`` then picks;
        :func:`kaptai.heaven11.engine_reference.run_hands`).

    Returns
    -------
    (dict, numpy.ndarray)
        :data:`kaptai.heaven11.config.OUTCOME_DTYPES` arrays and the log (:data:`LOG_COLUMNS`).
    """
    pols = check_policies(policies)
    bids = check_bidding(bidding)
    builtin = all(isinstance(p, str) for p in pols)
    if engine not in ("auto", "compiled", "reference"):
        raise RulesError(f"engine={quote_token(engine)} is not allowed: expected 'auto', 'compiled' or 'reference'")
    if engine == "compiled" and not builtin:
        raise RulesError("the compiled engine plays only the built-in policies 'random', 'greedy', 'rollout', 'search'")
    d = None if decks is None else _check_decks(decks)
    if on_hand is not None and engine == "compiled":
        raise RulesError("on_hand needs the reference engine (engine='auto' or 'reference')")
    if builtin and engine != "reference" and on_hand is None:
        from kaptai.heaven11 import _engine

        try:
            return _engine.run_hands(cfg, [PLAY_CODES[p] for p in pols], [BID_CODES[b] for b in bids], bit_generator,
                                     int(hands), int(record), d)
        except ValueError as exc:
            if str(exc).startswith("decks:"):
                raise RulesError(str(exc)) from None
            raise
    from kaptai.heaven11 import engine_reference

    return engine_reference.run_hands(cfg, pols, bit_generator, int(hands), bidding=bids, record=int(record), decks=d,
                                      on_hand=on_hand)
