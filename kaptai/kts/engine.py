"""Kap Tai Shap (夾大十) game engine: the front door to both engines (dispatch only).

The engine is specified once, in ``docs/kap-tai-shap-engine.md``; two implementations
follow it and are compared move for move by the tests:

* :mod:`kaptai.kts._engine` — compiled, nogil, the built-in policies by code;
* :mod:`kaptai.kts.engine_reference` — pure Python, the test oracle, and the only one
  that runs user :class:`kaptai.kts.policies.Policy` objects.

The table (:class:`kaptai.kts.config.EngineConfig`) and the codes live in
:mod:`kaptai.kts.config`; :func:`run_hands` picks the compiled engine when every seat
plays a built-in policy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from kaptai.errors import RulesError, quote_token
from kaptai.kts import engine_reference
from kaptai.kts.config import ACTIONS, EngineConfig
from kaptai.kts.policies import Policy, policy_codes, policy_objects

__all__ = ["run_hands", "log_rows_to_array"]


def log_rows_to_array(rows: list[tuple]) -> np.ndarray:
    """The reference engine's log rows as the compiled engine's int32 array
    ``(hand, step, turn, seat, action code, tile, value)``."""
    out = np.empty((len(rows), 7), dtype=np.int32)
    for i, (hand, step, turn, seat, action, tile, value) in enumerate(rows):
        out[i] = (hand, step, turn, seat, ACTIONS.index(action), tile, value)
    return out


def run_hands(
    cfg: EngineConfig,
    policies: Sequence[str | Policy],
    bit_generator: np.random.BitGenerator,
    hands: int,
    *,
    hand_offset: int = 0,
    record: int = 0,
    engine: str = "auto",
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Play ``hands`` hands from one fresh bit generator (one chunk): tallies and log.

    Parameters
    ----------
    cfg : EngineConfig
    policies : sequence of str or Policy
        One resolved policy per seat (:func:`kaptai.kts.policies.resolve_policies`).
    bit_generator : numpy.random.PCG64
        A fresh generator: the shuffles, the dice and the ``random`` policy read it.
    hands : int
    hand_offset : int
        Index of the first hand (the log's ``hand`` column).
    record : int
        Log the first ``record`` hands.
    engine : {'auto', 'compiled', 'reference'}
        ``'auto'``: compiled when every seat plays a built-in policy.

    Returns
    -------
    (dict, numpy.ndarray)
        Tallies (:func:`kaptai.kts.config.new_outcomes`) and the int32 log rows; both
        engines return the same for the same input.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.kts.config import make_config
    >>> from kaptai.kts.engine import run_hands
    >>> cfg = make_config(4, "traditional")
    >>> fast, _ = run_hands(cfg, ["greedy"] * 4, np.random.PCG64(7), 50)
    >>> slow, _ = run_hands(cfg, ["greedy"] * 4, np.random.PCG64(7), 50, engine="reference")
    >>> all((fast[k] == slow[k]).all() for k in fast)
    True
    """
    if engine not in ("auto", "compiled", "reference"):
        raise RulesError(f"engine={quote_token(engine)} is not allowed: expected 'auto', 'compiled' or 'reference'")
    codes = policy_codes(policies)
    if engine == "compiled" and codes is None:
        raise RulesError("the compiled engine plays only the built-in policies")
    if codes is not None and engine != "reference":
        from kaptai.kts import _engine

        return _engine.run_hands(cfg, codes, bit_generator, hands, hand_offset, record)
    stats, rows = engine_reference.run_hands(
        cfg, policy_objects(policies), bit_generator, hands, hand_offset=hand_offset, record=record
    )
    return stats, log_rows_to_array(rows)
