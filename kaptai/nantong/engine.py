"""Dispatch of the Nantong long-card engine: compiled for built-in policies, else the reference.

Examples
--------
>>> from kaptai.nantong.config import make_config
>>> from kaptai.nantong.engine import run_hands
>>> out = run_hands(make_config(3), 100, seed=1)
>>> out["total"].shape, set(out["win_type"].tolist()) <= {0, 1, 2, 3}
((100, 3), True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaptai.core.options import check_count, check_seed
from kaptai.errors import RulesError
from kaptai.nantong.config import DECK_CARDS, POLICY_CODES, EngineConfig, seat_players
from kaptai.nantong.policies import check_policies

__all__ = ["run_hands", "run_matches", "search_stats", "CHUNK_HANDS"]

#: Hands per Monte Carlo chunk.
CHUNK_HANDS: int = 20_000


def run_hands(config: EngineConfig, hands: int, seed: Any = None, policies: Any = "max_melds", *,
              bit_generator: np.random.BitGenerator | None = None, compiled: bool | None = None,
              decision_log: list | None = None, belief_log: list | None = None) -> dict[str, np.ndarray]:
    """Play ``hands`` independent hands (seat 0 deals each); the outcome arrays.

    Parameters
    ----------
    config : EngineConfig
        From :func:`kaptai.nantong.config.make_config`.
    hands : int
    seed : int, SeedSequence or None
        Seeds a fresh ``PCG64`` (ignored when ``bit_generator`` is given).
    policies : str, Policy or sequence
        One per active seat (a single one for all): ``'max_melds'``, ``'chase_qing'``,
        ``'chase_hun'``, ``'random'``, ``'search'`` or :class:`kaptai.nantong.policies.Policy`
        objects (``search`` plays under the budget of ``config``: ``samples``, ``candidates``).
    bit_generator : numpy.random.PCG64, optional
        A fresh generator to read instead of seeding one.
    compiled : bool, optional
        None: compiled iff every policy is built in; True requires built-in policies; False
        plays the reference engine.
    decision_log : list, optional
        Receives one tuple per ``search`` decision: (hand, seat, type 0 discard / 1 claim,
        candidates, choice (a kind, or 0 pass / 1 pong / 2 kong), 12 x the sum of the chosen
        move's nets over the samples); the same list from both engines for the same stream.
    belief_log : list, optional
        Receives one tuple per ``search`` decision: (hand, seat, effective sample size, beliefs,
        truth, unseen), ``beliefs[t][k]`` the weighted share of the inference's particles in
        which seat ``t`` holds kind ``k``, ``truth[t][k]`` 1 if it does, ``unseen[k]`` the copies
        of ``k`` the deciding seat has not seen (docs/nantong-engine.md, *Layouts*); the same
        from both engines.

    Returns
    -------
    dict of numpy arrays
        :data:`kaptai.nantong.config.OUTCOME_FIELDS`; both engines return the same arrays for
        the same stream.
    """
    hands = check_count("hands", hands)
    pols = check_policies(policies, config.active)
    builtin = all(isinstance(p, str) for p in pols)
    if compiled and not builtin:
        raise RulesError("the compiled engine plays only the built-in policies: use compiled=None or False")
    if bit_generator is None:
        if isinstance(seed, np.random.SeedSequence):  # a chunk's child sequence
            bit_generator = np.random.PCG64(seed)
        else:
            bit_generator = np.random.PCG64(np.random.SeedSequence(check_seed(seed)))
    if builtin and compiled is not False:
        from kaptai.nantong import _engine

        codes = [POLICY_CODES[p] for p in pols]
        if decision_log is None and belief_log is None:
            return _engine.run_hands(config, codes, bit_generator, hands)
        # a hand has at most 120 discards and each asks at most every active seat once (its own
        # discard, or a claim of another's): no more search decisions than that
        cap = DECK_CARDS * config.active * hands
        arr = np.zeros((cap, 6), dtype=np.int64)
        bel = np.zeros((cap if belief_log is not None else 0, 3 + 3 * 4 * 30))
        out = _engine.run_hands(config, codes, bit_generator, hands, decision_log=arr,
                                belief_log=bel if belief_log is not None else None)
        n = int(out.pop("search_decisions")[0])
        if n > cap:  # pragma: no cover - the bound above cannot be passed
            raise RulesError(f"decision_log: {n} decisions exceed the log of {cap} rows")
        if decision_log is not None:
            decision_log.extend(tuple(int(x) for x in row) for row in arr[:n])
        if belief_log is not None:
            A = config.active
            nb = int(out.pop("belief_rows")[0])
            for row in bel[:nb]:
                probs = row[3:3 + 120].reshape(4, 30)[:A]
                truth = row[123:243].reshape(4, 30)[:A].astype(int)
                belief_log.append((int(row[0]), int(row[1]), float(row[2]), probs.tolist(), truth.tolist(),
                                   [int(x) for x in row[243:273]]))
        return out
    from kaptai.nantong import engine_reference

    return engine_reference.run_hands(config, pols, bit_generator, hands, decision_log=decision_log,
                                      belief_log=belief_log)


def search_stats(compiled: bool = True) -> dict:
    """Totals over this process's ``search`` decisions (compiled or reference engine):
    ``decisions``, ``fallbacks`` (a seat whose particles all weighed 0: uniform layouts) and
    ``ess`` (the sum of the decisions' effective sample sizes; docs/nantong-engine.md, *Layouts*).

    >>> sorted(search_stats())
    ['decisions', 'ess', 'fallbacks']
    """
    if compiled:
        from kaptai.nantong import _engine

        return dict(_engine.search_stats())
    from kaptai.nantong import engine_reference

    return engine_reference.search_stats()


def run_matches(config: EngineConfig, matches: int, seed: Any = None, policies: Any = "max_melds", *,
                compiled: bool | None = None) -> dict[str, np.ndarray]:
    """Play ``matches`` whole matches of ``rounds`` 圈 (the dealer rotation and the 4-player
    sitter of :func:`kaptai.nantong.config.seat_players`).

    The first dealer of each match is uniformly random [D21], drawn from the second child of
    ``SeedSequence(seed)``; the hands read the first child (so both engines play the same
    hands).  Policies are per engine seat (one name for all is the usual case).

    Returns
    -------
    dict
        ``outcomes``: the hand outcome arrays (``matches x hands per match`` rows, match by
        match); ``first_dealer`` (matches,); ``player`` (matches, hands per match, active): the
        player (0..players-1) in each seat; ``sitter`` (matches, hands per match), -1 if none.

    >>> from kaptai.nantong.config import make_config
    >>> m = run_matches(make_config(4), 2, seed=1)
    >>> m["player"].shape, sorted(set(m["sitter"][0].tolist()))
    ((2, 32, 3), [0, 1, 2, 3])
    """
    matches = check_count("matches", matches)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(check_seed(seed))
    hands_ss, dealer_ss = root.spawn(2)
    sched = seat_players(config)
    H = sched.shape[0]
    out = run_hands(config, matches * H, policies=policies, bit_generator=np.random.PCG64(hands_ss), compiled=compiled)
    first = np.random.default_rng(dealer_ss).integers(0, config.players, matches)
    P, A = config.players, config.active
    player = (first[:, None, None] + sched[None, :, :A]) % P
    sitter = np.where(sched[None, :, A] >= 0, (first[:, None] + sched[None, :, A]) % P, -1)
    return {"outcomes": out, "first_dealer": first, "player": player, "sitter": sitter}
