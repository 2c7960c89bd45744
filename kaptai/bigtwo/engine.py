"""Big Two (鋤大D) game engine: the front door to both engines (dispatch only).

The engine is specified once, in ``docs/big-two-engine.md``; two implementations follow
it and are compared move for move by the tests:

* :mod:`kaptai.bigtwo._engine` — compiled, nogil, the built-in policies by code;
* :mod:`kaptai.bigtwo.engine_reference` — pure Python, the test oracle, and the only one
  that runs user :class:`kaptai.bigtwo.policies.Policy` objects.

The table (:class:`kaptai.bigtwo.config.EngineConfig`) and the constants live in
:mod:`kaptai.bigtwo.config`; :func:`run_hands` picks the compiled engine when every seat
plays a built-in policy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaptai.bigtwo.config import POLICY_CODES, POLICY_NAMES, EngineConfig
from kaptai.bigtwo.policies import check_policies
from kaptai.errors import RulesError, quote_token

__all__ = ["run_hands"]


def run_hands(
    cfg: EngineConfig,
    policies: Any,
    bit_generator: np.random.BitGenerator,
    games: int,
    *,
    record: int = 0,
    decks: Any = None,
    engine: str = "auto",
    seat_by_leader: bool = False,
    on_hand: Any = None,
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``games`` games on one random stream: the outcome arrays and the log.

    Parameters
    ----------
    cfg : EngineConfig
    policies : str, Policy or sequence
        Built-in names (:data:`POLICY_NAMES`) or :class:`kaptai.bigtwo.policies.Policy`
        objects, one per seat (a single one is used for every seat).
    bit_generator : numpy.random.PCG64
        A fresh generator: the shuffles and the ``random`` policy read it.
    games : int
    record : int
        Keep the log rows of the first ``record`` games.
    decks : array_like, optional
        ``(m, 52)`` card ids dealt in order instead of shuffling (tests, constructed deals).
    engine : {'auto', 'compiled', 'reference'}
        ``'auto'``: compiled when every seat plays a built-in policy.
    seat_by_leader : bool
        ``policies[j]`` is the policy of the seat ``j`` places after each game's leader
        (compiled engine only, ``first_lead='lowest_card'``; ``docs/big-two-engine.md``,
        "Seating from the leader"); the outcome rows stay in engine seats.
    on_hand : callable, optional
        ``on_hand(g, out, log)`` as soon as game ``g`` is over: its outcome row and log rows
        (the reference engine only, which ``'auto'`` then picks;
        :func:`kaptai.bigtwo.engine_reference.run_hands`).

    Returns
    -------
    (dict, numpy.ndarray)
        Outcome arrays (:data:`OUTCOME_DTYPES`) and the int64 log ``(rows, 6)``
        (:data:`LOG_COLUMNS`).  Both engines return the same for the same input.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.bigtwo.config import make_config
    >>> from kaptai.bigtwo.engine import run_hands
    >>> out, log = run_hands(make_config(4), "greedy", np.random.PCG64(1), 3, record=1)
    >>> out["cards_left"].shape, int((out["cards_left"][np.arange(3), out["winner"]]).sum())
    ((3, 4), 0)
    """
    pols = check_policies(policies, cfg.players)
    builtin = all(isinstance(p, str) for p in pols)
    if engine not in ("auto", "compiled", "reference"):
        raise RulesError(f"engine={quote_token(engine)} is not allowed: expected 'auto', 'compiled' or 'reference'")
    if engine == "compiled" and not builtin:
        raise RulesError("the compiled engine plays only the built-in policies " + ", ".join(POLICY_NAMES))
    if decks is not None:
        decks = np.ascontiguousarray(decks, dtype=np.int8)
        if decks.ndim != 2 or decks.shape[1] != 52 or any(sorted(d) != list(range(52)) for d in decks.tolist()):
            raise RulesError("decks must be an array of shape (m, 52), each row a permutation of the card ids 0-51")
    if seat_by_leader and (not builtin or engine == "reference"):
        raise RulesError("seat_by_leader=True needs the compiled engine (built-in policies)")
    if seat_by_leader and cfg.rules.first_lead != "lowest_card":
        raise RulesError(f"seat_by_leader=True needs first_lead='lowest_card', not {cfg.rules.first_lead!r}")
    if on_hand is not None and (engine == "compiled" or seat_by_leader):
        raise RulesError("on_hand needs the reference engine (engine='auto' or 'reference', no seat_by_leader)")
    if builtin and engine != "reference" and on_hand is None:
        from kaptai.bigtwo import _engine

        return _engine.run_hands(cfg, [POLICY_CODES[p] for p in pols], bit_generator, int(games),
                                 record=int(record), decks=decks, seat_by_leader=bool(seat_by_leader))
    from kaptai.bigtwo import engine_reference

    return engine_reference.run_hands(cfg, pols, bit_generator, int(games), record=int(record), decks=decks,
                                      on_hand=on_hand)
