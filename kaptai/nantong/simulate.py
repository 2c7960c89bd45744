"""Monte Carlo odds of Nantong long cards (南通長牌): whole hands played by policies (§7.6).

Hands are played by the engine (:mod:`kaptai.nantong.engine`, ``docs/nantong-engine.md``) in
chunks of :data:`CHUNK_HANDS`; chunk ``i`` reads ``PCG64(SeedSequence(seed).spawn(n)[i])``
through :func:`kaptai.core.runner.run_chunks` (worker processes, Dask, checkpoints), so a seed
gives the same table whatever ran it.  Every row has a 95% interval (Wilson for rates, normal
for means).

Metrics (``relative_to='seat'``: the engine seat, 0 = dealer; ``'role'``: ``seat`` 0 = the
dealer, 1 = the other active players pooled, 2 = the 4-player sitter, who holds no cards):

* ``hand_win`` — the seat is among the hand winners (此局勝利者, highest total after 破頭);
* ``complete`` — the seat completed (胡牌); ``hu_mean`` — mean total (胡數 after 破頭);
* ``huang_rate`` — 荒牌; ``win_type`` (level ``self``/``discard``/``tiancheng``) — share of hands;
* ``category`` (level ``tahe``/``hunhe``/``qinghe``) — share of hands won that way;
* ``score_by_win_type`` (level ``self:tahe`` ...) — mean total of the completer;
* ``noncompleter_wins`` — a non-completer is among the hand winners (all hands; level
  ``given_completion``: among hands someone completed);
* ``discards_mean`` — discards per hand;
* ``qishou_at_deal`` (by role) — the dealt hand holds a 起手 set (compare the exact
  ``deal_odds`` metric ``qishou``).

Examples
--------
>>> from kaptai.nantong.simulate import simulate
>>> df = simulate(3, hands=300, seed=1, progress=False)
>>> sorted(set(df.metric))[:4]
['category', 'complete', 'discards_mean', 'hand_win']
>>> w = df[(df.metric == "hand_win") & (df.relative_to == "seat")]
>>> bool(w.value.sum() >= 1.0)
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.options import check_count, check_seed, policy_label
from kaptai.core.runner import plan_chunks, run_chunks
from kaptai.core.sampling import bit_generator
from kaptai.core.stats import mean_interval, wilson_interval
from kaptai.core.tables import MONTE_CARLO_COLUMNS
from kaptai.nantong.config import CATEGORIES, EngineConfig, make_config
from kaptai.nantong.engine import CHUNK_HANDS, run_hands
from kaptai.nantong.policies import check_policies
from kaptai.nantong.rules import RuleSet

__all__ = ["CHUNK_HANDS", "CONFIDENCE", "METRICS", "new_tallies", "tally_outcomes", "run_tallies", "tallies_frame", "simulate"]

CONFIDENCE: float = 0.95
_GAME = "nantong"
_WIN_NAMES = ("huang", "self", "discard", "tiancheng")


#: What each metric of :func:`simulate` is (``P(...)`` rows are probabilities).
METRICS: dict[str, str] = {
    "hand_win": "P(the seat is among the hand winners: 此局勝利者, highest total after 破頭)",
    "complete": "P(the seat completed: 胡牌)",
    "hu_mean": "mean total of the seat (胡數 after 破頭)",
    "huang_rate": "P(荒牌: nobody completes)",
    "win_type": "P(the hand is won this way), level self / discard / tiancheng",
    "category": "P(the hand is won as this category), level tahe / hunhe / qinghe",
    "score_by_win_type": "mean total of the completer by win type and category",
    "noncompleter_wins": "P(a non-completer is among the hand winners)",
    "discards_mean": "mean discards per hand",
    "qishou_at_deal": "P(the dealt hand holds a 起手 set), by role",
}


def new_tallies(active: int) -> dict[str, np.ndarray]:
    """Zeroed tallies of ``active`` seats (all counts and sums; mergeable by addition).

    >>> sorted(new_tallies(3))[:3]
    ['category', 'completed_hands', 'completer']
    """
    return {
        "hands": np.zeros(1, np.int64),
        "winner": np.zeros(active, np.int64),
        "completer": np.zeros(active, np.int64),
        "dealt_qishou": np.zeros(active, np.int64),
        "total": np.zeros(active, np.float64),
        "total_sq": np.zeros(active, np.float64),
        "win_type": np.zeros(4, np.int64),
        "category": np.zeros(3, np.int64),
        "wt_cat_n": np.zeros((4, 3), np.int64),
        "wt_cat_sum": np.zeros((4, 3), np.float64),
        "wt_cat_sq": np.zeros((4, 3), np.float64),
        "noncomp_win": np.zeros(1, np.int64),
        "noncomp_win_completed": np.zeros(1, np.int64),
        "completed_hands": np.zeros(1, np.int64),
        "discards": np.zeros(2, np.float64),
    }


def tally_outcomes(out: Mapping[str, np.ndarray], active: int) -> dict[str, np.ndarray]:
    """Tallies of one batch of engine outcomes."""
    t = new_tallies(active)
    n = out["win_type"].shape[0]
    t["hands"][0] = n
    t["winner"] += out["winner"].sum(axis=0)
    t["completer"] += out["completer"].sum(axis=0)
    t["dealt_qishou"] += out["dealt_qishou"].sum(axis=0)
    tot = out["total"].astype(np.float64)
    t["total"] += tot.sum(axis=0)
    t["total_sq"] += (tot * tot).sum(axis=0)
    t["win_type"] += np.bincount(out["win_type"], minlength=4)
    won = out["category"] >= 0
    t["category"] += np.bincount(out["category"][won], minlength=3)
    seat = out["completer_seat"][won].astype(np.int64)
    ctot = tot[np.nonzero(won)[0], seat]
    wt = out["win_type"][won].astype(np.int64)
    cat = out["category"][won].astype(np.int64)
    np.add.at(t["wt_cat_n"], (wt, cat), 1)
    np.add.at(t["wt_cat_sum"], (wt, cat), ctot)
    np.add.at(t["wt_cat_sq"], (wt, cat), ctot * ctot)
    ncw = ((out["winner"] == 1) & (out["completer"] == 0)).any(axis=1)
    t["noncomp_win"][0] = int(ncw.sum())
    t["noncomp_win_completed"][0] = int((ncw & won).sum())
    t["completed_hands"][0] = int(won.sum())
    d = out["discards"].astype(np.float64)
    t["discards"][:] = (d.sum(), (d * d).sum())
    return t


def _play_chunk(task) -> dict[str, np.ndarray]:
    cfg, pols, child, size = task
    out = run_hands(cfg, size, policies=pols, bit_generator=bit_generator(child))
    return tally_outcomes(out, cfg.active)


def run_tallies(players: int = 3, rules: RuleSet | str | Mapping[str, Any] | None = None, hands: int = 10_000,
                seed: int | None = None, *, policies: Any = "max_melds", workers: int = 1, progress: bool = True,
                scheduler: str | None = None, executor: Executor | None = None,
                checkpoint: str | os.PathLike | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Play the hands; the merged tallies and the run metadata."""
    cfg = make_config(players, rules)
    hands = check_count("hands", hands)
    workers = check_count("workers", workers)
    pols = check_policies(policies, cfg.active)
    entropy = check_seed(seed)
    plan = plan_chunks(hands, CHUNK_HANDS, entropy)
    tasks = [(cfg, pols, c.seed, c.size) for c in plan]
    labels = [policy_label(p) for p in pols]
    fingerprint = {"game": _GAME, "players": cfg.players, "rules": cfg.rules.to_dict(), "hands": hands,
                   "seed_entropy": entropy, "policies": labels, "chunk_hands": CHUNK_HANDS, "version": __version__}
    merged = run_chunks(_play_chunk, tasks, workers=workers, executor=executor, scheduler=scheduler,
                        checkpoint=checkpoint, fingerprint=fingerprint, progress=progress, desc="nantong", sizes=plan)
    meta = {"seed_entropy": entropy, "config": cfg, "policies": labels,
            "engine": "compiled" if all(isinstance(p, str) for p in pols) else "reference"}
    return merged, meta


class _Rows:
    def __init__(self, confidence: float):
        self.rows: list[dict] = []
        self.confidence = confidence

    def add(self, metric, seat, rel, level, value, lo=math.nan, hi=math.nan, samples=0):
        self.rows.append({"metric": metric, "seat": seat, "relative_to": rel, "level": level, "value": float(value),
                          "ci_low": float(lo), "ci_high": float(hi), "samples": int(samples)})

    def prop(self, metric, seat, rel, level, k, n):
        lo, hi = wilson_interval(float(k), float(n), self.confidence)
        self.add(metric, seat, rel, level, k / n if n else math.nan, lo, hi, n)

    def mean(self, metric, seat, rel, level, s, s2, n):
        m, lo, hi = mean_interval(float(s), float(s2), float(n), self.confidence)
        self.add(metric, seat, rel, level, m, lo, hi, n)


def tallies_frame(t: Mapping[str, np.ndarray], cfg: EngineConfig, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The table of :func:`simulate` from merged tallies (columns ``MONTE_CARLO_COLUMNS``)."""
    R = _Rows(confidence)
    H = int(t["hands"][0])
    A = cfg.active
    for s in range(A):
        R.prop("hand_win", s, "seat", None, t["winner"][s], H)
        R.prop("complete", s, "seat", None, t["completer"][s], H)
        R.mean("hu_mean", s, "seat", None, t["total"][s], t["total_sq"][s], H)
    # roles: 0 dealer, 1 the other active players pooled, 2 the sitter (4 players, 3 active)
    R.prop("hand_win", 0, "role", "dealer", t["winner"][0], H)
    R.prop("hand_win", 1, "role", "other", t["winner"][1:].sum(), H * (A - 1))
    R.prop("complete", 0, "role", "dealer", t["completer"][0], H)
    R.prop("complete", 1, "role", "other", t["completer"][1:].sum(), H * (A - 1))
    R.mean("hu_mean", 0, "role", "dealer", t["total"][0], t["total_sq"][0], H)
    R.mean("hu_mean", 1, "role", "other", t["total"][1:].sum(), t["total_sq"][1:].sum(), H * (A - 1))
    R.prop("qishou_at_deal", 0, "role", "dealer", t["dealt_qishou"][0], H)
    R.prop("qishou_at_deal", 1, "role", "other", t["dealt_qishou"][1:].sum(), H * (A - 1))
    if cfg.players == 4 and A == 3:
        R.add("hand_win", 2, "role", "sitter", 0.0, 0.0, 0.0, H)
        R.add("hu_mean", 2, "role", "sitter", 0.0, 0.0, 0.0, H)
    R.prop("huang_rate", None, None, None, t["win_type"][0], H)
    for w in (1, 2, 3):
        R.prop("win_type", None, None, _WIN_NAMES[w], t["win_type"][w], H)
    for c in range(3):
        R.prop("category", None, None, CATEGORIES[c], t["category"][c], H)
    for w in (1, 2, 3):
        for c in range(3):
            n = int(t["wt_cat_n"][w, c])
            if n:
                R.mean("score_by_win_type", None, None, f"{_WIN_NAMES[w]}:{CATEGORIES[c]}",
                       t["wt_cat_sum"][w, c], t["wt_cat_sq"][w, c], n)
    R.prop("noncompleter_wins", None, None, None, t["noncomp_win"][0], H)
    if int(t["completed_hands"][0]):
        R.prop("noncompleter_wins", None, None, "given_completion", t["noncomp_win_completed"][0],
               t["completed_hands"][0])
    R.mean("discards_mean", None, None, None, t["discards"][0], t["discards"][1], H)
    df = pd.DataFrame(R.rows)
    df.insert(0, "game", _GAME)
    df.insert(1, "rules", cfg.rules.name)
    df.insert(2, "players", cfg.players)
    df["method"] = "monte_carlo"
    df["seat"] = df["seat"].astype("Int64")
    return df[list(MONTE_CARLO_COLUMNS)]


def simulate(players: int = 3, rules: RuleSet | str | Mapping[str, Any] | None = None, hands: int = 10_000,
             seed: int | None = None, *, policies: Any = "max_melds", workers: int = 1, progress: bool = True,
             scheduler: str | None = None, executor: Executor | None = None,
             checkpoint: str | os.PathLike | None = None) -> pd.DataFrame:
    """Play ``hands`` hands and estimate the odds by seat and role, with 95% intervals.

    Parameters
    ----------
    players : {3, 4}
    rules : RuleSet, str, mapping or None
    hands : int
    seed : int or None
    policies : str, Policy or sequence
        One per active seat (seat 0 = the dealer).
    workers, progress, scheduler, executor, checkpoint
        See :func:`kaptai.core.runner.run_chunks`.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`kaptai.core.tables.MONTE_CARLO_COLUMNS`; ``attrs`` holds the seed
        entropy, rules, policies and version.
    """
    t, meta = run_tallies(players, rules, hands, seed, policies=policies, workers=workers, progress=progress,
                          scheduler=scheduler, executor=executor, checkpoint=checkpoint)
    df = tallies_frame(t, meta["config"])
    df.attrs.update({"game": _GAME, "seed_entropy": meta["seed_entropy"], "version": __version__,
                     "rules": meta["config"].rules.to_dict(), "policies": meta["policies"], "hands": int(t["hands"][0]),
                     "chunk_hands": CHUNK_HANDS, "engine": meta["engine"], "confidence": CONFIDENCE})
    return df
