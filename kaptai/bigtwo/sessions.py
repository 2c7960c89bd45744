"""Sessions of consecutive Big Two (鋤大D) games against bankrolls, with graduation (畢業).

Games are played by the engine in chunks of sessions through the shared runner, and each
session is settled game after game by :func:`kaptai.bigtwo.scoring.run_bankrolls`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.bigtwo.rules import RuleSet
from kaptai.bigtwo.simulate import CONFIDENCE, _count, _entropy
from kaptai.core.options import policy_label
from kaptai.core.stats import mean_interval, wilson_interval
from kaptai.errors import RulesError, quote_token

__all__ = ["CHUNK_SESSIONS", "SESSION_METRICS", "simulate_sessions"]

_GAME = "big-two"


# --------------------------------------------------------------------------------------
# Sessions against bankrolls (graduation, 畢業)
# --------------------------------------------------------------------------------------

#: Sessions per chunk of :func:`simulate_sessions` (one random stream each).
CHUNK_SESSIONS: int = 256

#: Metrics of :func:`simulate_sessions`.
SESSION_METRICS: dict[str, str] = {
    "graduation_rate": "P(the seat loses all its coins and leaves within the session)",
    "any_graduation_rate": "P(at least one seat graduates within the session)",
    "final_coins_mean": "mean coins of the seat at the end of the session",
    "net_per_game_mean": "mean change of the seat's coins per game played in the session",
    "first_graduation_game_mean": "mean game (1-based) of the first graduation, given one",
}


def _session_chunk(task) -> dict[str, np.ndarray]:
    from kaptai.bigtwo.engine import run_hands
    from kaptai.bigtwo.scoring import run_bankrolls
    from kaptai.core.sampling import bit_generator

    cfg, pols, child, k, games, coins, rules = task
    out, _ = run_hands(cfg, pols, bit_generator(child), k * games)
    run = run_bankrolls(out, rules, np.tile(np.asarray(coins, dtype=np.float64), (k, 1)))
    grad = run.graduated_at  # (k, N)
    final = run.final  # (k, N)
    any_grad = (grad >= 0).any(axis=1)
    first = np.where(any_grad, np.where(grad >= 0, grad, games).min(axis=1) + 1, 0)
    return {
        "sessions": np.array([k], dtype=np.int64),
        "graduated": (grad >= 0).sum(axis=0).astype(np.int64),
        "final": np.stack([final.sum(axis=0), (final * final).sum(axis=0)]),
        "any": np.array([int(any_grad.sum())], dtype=np.int64),
        "first": np.array([float(first.sum()), float((first * first).sum())]),
    }


def simulate_sessions(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    sessions: int = 1000,
    games: int = 100,
    coins: Any = 1000,
    seed: int | None = 0,
    *,
    policies: Any = "greedy",
    malaysian_swap: str = "policy",
    workers: int = 1,
    progress: bool = True,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """Sessions of consecutive games against bankrolls with graduation (畢業, ``bankroll='capped'``).

    Every session plays ``games`` games at a full table (the engine), then settles them one
    after the other against the players' coins with :func:`kaptai.bigtwo.scoring.run_bankrolls`:
    a player who reaches 0 coins leaves, and the others settle the remaining games among
    themselves (the scoring module's decision 7).

    Parameters
    ----------
    players : int
    rules : RuleSet, str, mapping or None
        Scoring and settlement options apply; ``bankroll`` is set to ``'capped'``.
    sessions, games : int
        Number of sessions and games per session.
    coins : number or sequence
        Starting coins of every seat (one number) or per seat, > 0.
    seed : int or None
    policies, malaysian_swap, workers, progress, scheduler, checkpoint, confidence
        As for :func:`kaptai.bigtwo.simulate.simulate`.

    Returns
    -------
    pandas.DataFrame
        Columns ``players, metric, seat, value, ci_low, ci_high, samples, method``; metrics
        :data:`SESSION_METRICS`.  ``df.attrs``: ``seed_entropy``, ``sessions``, ``games``,
        ``coins``, ``rules``, ``policies``.

    Examples
    --------
    >>> from kaptai.bigtwo.sessions import simulate_sessions
    >>> df = simulate_sessions(4, {"stake": 10}, sessions=200, games=50, coins=500, seed=1, progress=False)
    >>> g = df[df.metric == "graduation_rate"]
    >>> len(g), bool(((g.value >= 0) & (g.value <= 1)).all())
    (4, True)
    """
    from kaptai.bigtwo.policies import check_policies
    from kaptai.bigtwo.config import make_config
    from kaptai.core.runner import LazyTasks, plan_chunks, run_chunks

    cfg = make_config(players, rules, malaysian_swap=malaysian_swap)
    rules_capped = cfg.rules.replace(bankroll="capped")
    sessions = _count("sessions", sessions, 1)
    games = _count("games", games, 1)
    pols = check_policies(policies, cfg.players)
    bad_coins = RulesError(f"coins={quote_token(coins)}: expected a positive number or one per seat ({cfg.players})")
    try:
        c = np.broadcast_to(np.asarray(coins, dtype=np.float64), (cfg.players,)).copy() if np.ndim(coins) == 0 else \
            np.asarray(coins, dtype=np.float64)
    except (TypeError, ValueError):  # text, None, ragged lists ...
        raise bad_coins from None
    if isinstance(coins, (str, bytes, bool)) or c.shape != (cfg.players,) or not np.all(np.isfinite(c)) or np.any(c <= 0):
        raise bad_coins
    entropy = _entropy(seed)
    tasks = LazyTasks(lambda ch: (cfg, pols, ch.seed, ch.size, games, c, rules_capped),
                      plan_chunks(sessions, CHUNK_SESSIONS, entropy))
    fingerprint = {"game": _GAME, "what": "sessions", **cfg.fingerprint(), "sessions": sessions, "games": games,
                   "coins": c.tolist(), "seed_entropy": entropy, "policies": [policy_label(p) for p in pols],
                   "chunk_sessions": CHUNK_SESSIONS, "version": __version__}
    t = run_chunks(_session_chunk, tasks, workers=workers, scheduler=scheduler, checkpoint=checkpoint,
                   fingerprint=fingerprint, progress=progress, desc="big-two sessions", unit="sessions")
    S = int(t["sessions"][0])
    rows = []

    def add(metric, seat, value, lo=math.nan, hi=math.nan, samples=S):
        rows.append((cfg.players, metric, seat, float(value), float(lo), float(hi), int(samples), "monte_carlo"))

    lo, hi = wilson_interval(t["graduated"].astype(float), np.full(cfg.players, float(S)), confidence)
    for s in range(cfg.players):
        add("graduation_rate", s, t["graduated"][s] / S, lo[s], hi[s])
    lo, hi = wilson_interval(float(t["any"][0]), float(S), confidence)
    add("any_graduation_rate", None, t["any"][0] / S, lo, hi)
    for s in range(cfg.players):
        m, lo, hi = mean_interval(t["final"][0, s], t["final"][1, s], S, confidence)
        add("final_coins_mean", s, m, lo, hi)
    for s in range(cfg.players):
        m, lo, hi = mean_interval(t["final"][0, s], t["final"][1, s], S, confidence)
        add("net_per_game_mean", s, (m - c[s]) / games, (lo - c[s]) / games, (hi - c[s]) / games)
    n_any = int(t["any"][0])
    if n_any:
        m, lo, hi = mean_interval(t["first"][0], t["first"][1], n_any, confidence)
        add("first_graduation_game_mean", None, m, lo, hi, n_any)
    df = pd.DataFrame(rows, columns=["players", "metric", "seat", "value", "ci_low", "ci_high", "samples", "method"])
    df = df.astype({"seat": "Int64"})
    df.attrs.update({"game": _GAME, "seed_entropy": entropy, "sessions": S, "games": games, "coins": c.tolist(),
                     "rules": rules_capped.to_dict(), "policies": [policy_label(p) for p in pols], "version": __version__,
                     "confidence": confidence})
    return df
