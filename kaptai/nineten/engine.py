"""Nine-ten engine front door: picks the compiled or the reference engine.

The engine is specified once, in ``docs/nine-ten-engine.md``; :mod:`kaptai.nineten._engine`
(compiled, nogil, built-in policies) and :mod:`kaptai.nineten.engine_reference` (pure
Python, user policies too) follow it move for move.

Examples
--------
>>> import numpy as np
>>> from kaptai.nineten.config import make_config
>>> from kaptai.nineten.engine import run_hands
>>> out, log = run_hands(make_config(5), 200, np.random.PCG64(7), "colour_cut", record=1)
>>> int(out["net"].sum()), bool((out["winner"] >= -1).all())
(0, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaptai.nineten.config import (
    ACTIONS, LOG_COLUMNS, OUTCOME_DTYPES, POLICY_CODES, POLICY_NAMES, EngineConfig, IllegalMoveError,
    check_policies, make_config,
)
from kaptai.errors import RulesError, quote_token

__all__ = ["run_hands", "make_config", "EngineConfig", "IllegalMoveError", "ACTIONS", "LOG_COLUMNS",
           "OUTCOME_DTYPES", "POLICY_NAMES", "compiled_available"]


def compiled_available() -> bool:
    """True when the compiled engine is built."""
    try:
        from kaptai.nineten import _engine  # noqa: F401
    except ImportError:
        return False
    return True


def run_hands(
    cfg: EngineConfig,
    hands: int,
    bit_generator: np.random.BitGenerator | None,
    policies: Any = "colour_cut",
    *,
    record: int = 0,
    decks: Any = None,
    engine: str = "auto",
    relative: bool = False,
    on_hand: Any = None,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``hands`` hands on one random stream: the outcome arrays and the log.

    Parameters
    ----------
    cfg : EngineConfig
        From :func:`kaptai.nineten.config.make_config`.
    hands : int
    bit_generator : numpy.random.PCG64 or None
        A fresh generator (shuffles, redraws and the built-in policies' random choices read
        it); None only with ``decks`` and user policies.
    policies : str, Policy or sequence
        Built-in names (``'colour_cut'``, ``'live_first'``, ``'random'``, ``'search'``) or
        :class:`kaptai.nineten.policies.Policy` objects, one per seat or one for all.
        ``'search'`` samples ``cfg.samples`` layouts per decision (``docs/nine-ten-engine.md``).
    record : int
        Keep the log rows of the first ``record`` hands.
    decks : array_like, optional
        ``(m, 112)`` permutations of the physical cards 0-111 dealt in order instead of
        shuffling.
    engine : {'auto', 'compiled', 'reference'}
    relative : bool
        ``policies[s]`` plays the seat ``s`` places after each hand's dealer (default: physical
        seat ``s``).
    on_hand : callable, optional
        ``on_hand(i, out, log)`` as soon as hand ``i`` is over: its outcome row and log rows (the
        reference engine only, which ``'auto'`` then picks;
        :func:`kaptai.nineten.engine_reference.run_hands`).

    Returns
    -------
    (dict, numpy.ndarray)
        Outcomes (:data:`kaptai.nineten.config.OUTCOME_DTYPES`) and the int64 log.
    """
    pols = check_policies(policies, cfg.players)
    builtin = all(isinstance(p, str) for p in pols)
    if engine not in ("auto", "compiled", "reference"):
        raise RulesError(f"engine={quote_token(engine)} is not allowed: expected 'auto', 'compiled' or 'reference'")
    if engine == "compiled" and not builtin:
        raise RulesError("the compiled engine plays only the built-in policies " + ", ".join(POLICY_NAMES))
    if decks is not None:
        decks = np.ascontiguousarray(decks, dtype=np.int64)
        if decks.ndim != 2 or decks.shape[1] != 112 or any(
                sorted(d) != list(range(112)) for d in decks.tolist()):
            raise RulesError("decks must be an array of shape (m, 112), each row a permutation of the cards 0-111")
    if bit_generator is None and (decks is None or any(isinstance(p, str) for p in pols) or
                                  cfg.rules.next_dealer == "redraw"):
        raise RulesError("bit_generator=None needs decks and user policies only (the built-in policies break "
                         "ties at random)")
    if on_hand is not None and engine == "compiled":
        raise RulesError("on_hand needs the reference engine (engine='auto' or 'reference')")
    use_compiled = builtin and engine != "reference" and on_hand is None and (engine == "compiled" or
                                                                              compiled_available())
    if use_compiled:
        from kaptai.nineten import _engine

        return _engine.run_hands(cfg, [POLICY_CODES[p] for p in pols], bit_generator, int(hands), int(record), decks,
                                 bool(relative))
    from kaptai.nineten import engine_reference

    return engine_reference.run_hands(cfg, pols, bit_generator, int(hands), record=int(record), decks=decks,
                                      relative=bool(relative), on_hand=on_hand)
