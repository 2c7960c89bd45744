"""Fairness of the 8-round (8 圈) Nantong long-card match under each settlement (§7.7).

A match is ``rounds x players`` hands (24 with 3 players, 32 with 4): the deal passes to the
下家 after every hand (不設連莊); with 4 players the outgoing dealer sits out the next hand
(the sitter is the dealer's 上家; on hand 1 per ``first_sitter``).  The first dealer is
uniformly random [D21]; players are reported **relative to the first dealer** (player 0 dealt
hand 1, player 1 is its 下家, ...), which the random draw only relabels.  Hands are independent
deals, so a chunk of ``m`` matches is ``m x hands per match`` engine hands (seat 0 = that
hand's dealer), mapped to players afterwards.

Each hand is settled three ways (the source gives no settlement [D13]):

* ``rank_only``: 1 point to the hand winner (shared equally on a tie);
* ``pairwise_difference``: every pair of active players settles the difference of their totals;
* ``winner_collects``: every other active player pays the hand winner its total.

With ``dreamer_shares='with_dealer'`` the sitter (夢家) also receives the dealer's net.

Examples
--------
>>> from kaptai.nantong.fairness import fairness
>>> df = fairness(3, matches=40, seed=1, progress=False)
>>> sorted(set(df.settlement.dropna()))
['pairwise_difference', 'rank_only', 'winner_collects']
>>> m = df[(df.metric == "match_mean") & (df.settlement == "pairwise_difference")]
>>> bool(abs(m.value.sum()) < 1e-6)
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.options import check_count, check_seed, policy_label
from kaptai.core.runner import Job, plan_chunks, run_chunks, run_jobs
from kaptai.core.sampling import bit_generator
from kaptai.core.stats import mean_interval, sd_interval, wilson_interval
from kaptai.core.tables import FAIRNESS_COLUMNS
from kaptai.errors import RulesError, quote_token
from kaptai.nantong.config import EngineConfig, make_config, seat_players
from kaptai.nantong.engine import run_hands
from kaptai.nantong.policies import check_policies
from kaptai.nantong.rules import OPTION_VALUES, resolve_rules

__all__ = ["FAIRNESS_METRICS", "SETTLEMENTS", "VARIANT_SETS", "CHUNK_MATCHES", "seat_players", "hand_nets", "fairness_job", "fairness_frame",
           "fairness", "compare_variants"]

SETTLEMENTS: tuple[str, ...] = OPTION_VALUES["settlement"]
#: Matches per Monte Carlo chunk.
CHUNK_MATCHES: int = 500
CONFIDENCE = 0.95

#: Named sets of variants for :func:`compare_variants` (option overrides).
VARIANT_SETS: dict[str, dict[str, dict[str, Any]]] = {
    "qishou": {"always": {}, "never": {"qishou": "never"}},
    "jiang_set": {"replacement_0": {}, "replacement_3": {"jiang_set_replacement": 3}},
    "discard_triplet": {"exposed": {}, "concealed": {"discard_triplet": "concealed"}},
    "wenqian": {"by_count": {}, "cumulative": {"wenqian": "cumulative"}},
    "tie": {"share": {}, "completer_first": {"tie": "completer_first"}, "seat_order": {"tie": "seat_order"}},
    "dreamer": {"none": {}, "with_dealer": {"dreamer_shares": "with_dealer"}},
}


#: What each metric of :func:`fairness` is (``P(...)`` rows are probabilities).
FAIRNESS_METRICS: dict[str, str] = {
    "match_mean": "mean match total of the player under the settlement",
    "match_sd": "standard deviation of the player's match total",
    "match_top": "P(the player has the top total of a match), ties shared",
    "hand_win": "P(the role is among a hand's winners)",
}


def hand_nets(out: Mapping[str, np.ndarray], settlement: str) -> np.ndarray:
    """Net points of every seat of every hand (``(n, active)`` float) under a settlement.

    >>> o = {"total": np.array([[90, 80, 10]]), "winner": np.array([[1, 0, 0]])}
    >>> hand_nets(o, "winner_collects").tolist(), hand_nets(o, "rank_only").tolist()
    ([[180.0, -90.0, -90.0]], [[1.0, 0.0, 0.0]])
    """
    t = np.asarray(out["total"], dtype=np.float64)
    w = np.asarray(out["winner"], dtype=np.float64)
    k = w.sum(axis=1, keepdims=True)
    A = t.shape[1]
    if settlement == "rank_only":
        return w / k
    if settlement == "pairwise_difference":
        return A * t - t.sum(axis=1, keepdims=True)
    if settlement == "winner_collects":
        share = (w * t).sum(axis=1, keepdims=True) / k  # what each loser pays in all
        recv = (A - k) * t / k
        return np.where(w == 1, recv, -share)
    raise RulesError(f"unknown settlement {settlement!r}: expected one of {', '.join(SETTLEMENTS)}")


def _play_chunk(task) -> dict[str, np.ndarray]:
    cfg, pols, child, m = task
    P, A = cfg.players, cfg.active
    mp = seat_players(cfg)
    H = mp.shape[0]
    out = run_hands(cfg, m * H, policies=pols, bit_generator=bit_generator(child))
    res: dict[str, np.ndarray] = {"matches": np.array([m], np.int64)}
    for i, st in enumerate(SETTLEMENTS):
        nets = hand_nets(out, st).reshape(m, H, A)
        tot = np.zeros((m, P))
        for s in range(A):
            np.add.at(tot, (slice(None), mp[:, s]), nets[:, :, s])  # type: ignore[arg-type]
        if cfg.rules.dreamer_shares == "with_dealer" and A < P:
            np.add.at(tot, (slice(None), mp[:, A]), nets[:, :, 0])  # type: ignore[arg-type]
        top = tot.max(axis=1, keepdims=True)
        is_top = (tot == top)
        res[f"{st}:pow"] = np.stack([(tot ** j).sum(axis=0) for j in (1, 2, 3, 4)])
        res[f"{st}:top"] = (is_top / is_top.sum(axis=1, keepdims=True)).sum(axis=0)
    hw = out["winner"].reshape(m, H, A).astype(np.float64)
    res["hand_win_role"] = hw.sum(axis=(0, 1))
    return res


def fairness_job(players: int = 3, rules: Any = None, matches: int = 2_000, seed: int | None = 0, *,
                 policies: Any = "max_melds") -> tuple[Job, dict[str, Any]]:
    """The runner job of :func:`fairness` (:class:`kaptai.core.runner.Job`) and its metadata,
    checked before any work."""
    cfg = make_config(players, rules)
    matches = check_count("matches", matches)
    pols = check_policies(policies, cfg.active)
    entropy = check_seed(seed)
    plan = plan_chunks(matches, CHUNK_MATCHES, entropy)
    tasks = [(cfg, pols, c.seed, c.size) for c in plan]
    fingerprint = {"game": "nantong", "kind": "fairness", "players": cfg.players, "rules": cfg.rules.to_dict(),
                   "matches": matches, "seed_entropy": entropy, "policies": [policy_label(p) for p in pols],
                   "chunk": CHUNK_MATCHES, "version": __version__}
    return Job(_play_chunk, tasks, fingerprint=fingerprint, sizes=plan), {"config": cfg, "seed_entropy": entropy}


def fairness_frame(t: Mapping[str, np.ndarray], cfg: EngineConfig, entropy: int,
                   variant: str | None = None) -> pd.DataFrame:
    """The table of :func:`fairness` from a run's merged counts."""
    M = int(t["matches"][0])
    rows = []
    name = variant or cfg.rules.name

    def add(st, metric, seat, rel, v, lo, hi, n):
        rows.append({"variant": name, "players": cfg.players, "settlement": st, "house_cut": 0.0, "metric": metric,
                     "seat": seat, "relative_to": rel, "value": float(v), "ci_low": float(lo), "ci_high": float(hi),
                     "samples": int(n), "method": "monte_carlo"})

    for st in SETTLEMENTS:
        pw = t[f"{st}:pow"]
        for p in range(cfg.players):
            m, lo, hi = mean_interval(pw[0, p], pw[1, p], M, CONFIDENCE)
            add(st, "match_mean", p, "first_dealer", m, lo, hi, M)
            sd, lo, hi = sd_interval(pw[0, p], pw[1, p], pw[2, p], pw[3, p], M, CONFIDENCE)
            add(st, "match_sd", p, "first_dealer", sd, lo, hi, M)
            k = float(t[f"{st}:top"][p])
            lo, hi = wilson_interval(k, M, CONFIDENCE)
            add(st, "match_top", p, "first_dealer", k / M, lo, hi, M)
    H = cfg.rules.rounds * cfg.players
    for s in range(cfg.active):
        k = float(t["hand_win_role"][s])
        lo, hi = wilson_interval(k, M * H, CONFIDENCE)
        add(None, "hand_win", s, "role", k / (M * H), lo, hi, M * H)
    df = pd.DataFrame(rows, columns=list(FAIRNESS_COLUMNS))
    df["seat"] = df["seat"].astype("Int64")
    df.attrs.update({"game": "nantong", "seed_entropy": entropy, "version": __version__,
                     "rules": cfg.rules.to_dict(), "matches": M, "hands_per_match": H})
    return df


def fairness(players: int = 3, rules: Any = None, matches: int = 2_000, seed: int | None = 0, *,
             policies: Any = "max_melds", workers: int = 1, progress: bool = True, scheduler: str | None = None,
             executor: Executor | None = None, checkpoint: str | os.PathLike | None = None,
             variant: str | None = None) -> pd.DataFrame:
    """Play ``matches`` full matches and report each player's match result under every settlement.

    Returns
    -------
    pandas.DataFrame
        :data:`kaptai.core.tables.FAIRNESS_COLUMNS`; metrics per player (``seat``,
        ``relative_to='first_dealer'``): ``match_mean`` (mean match total), ``match_sd``
        (its standard deviation), ``match_top`` (share of matches with the top total, ties
        shared); and ``hand_win`` per engine role (``relative_to='role'``, seat 0 = dealer)
        with ``settlement`` None.
    """
    workers = check_count("workers", workers, 1)
    if variant is not None and not (isinstance(variant, str) and variant.strip() and len(variant) <= 200):
        raise RulesError(f"variant={quote_token(variant)}: expected a label (text of 1 to 200 characters) or None")
    job, meta = fairness_job(players, rules, matches, seed, policies=policies)
    t = run_chunks(job.fn, job.tasks, workers=workers, scheduler=scheduler, executor=executor, checkpoint=checkpoint,
                   fingerprint=job.fingerprint, progress=progress, desc="nantong fairness", sizes=job.sizes,
                   unit="matches")
    return fairness_frame(t, meta["config"], meta["seed_entropy"], variant)


def compare_variants(variants: Any = "qishou", players: int = 3, matches: int = 1_000, seed: int | None = 0, *,
                     policies: Any = "max_melds", progress: bool = True, workers: int = 1,
                     scheduler: str | None = None, executor: Executor | None = None,
                     checkpoint: str | os.PathLike | None = None) -> pd.DataFrame:
    """:func:`fairness` of several rule variants (common seed), stacked.

    ``variants`` is a key of :data:`VARIANT_SETS`, or a mapping name -> option overrides.  Every
    variant runs in one run of the shared runner (``workers``, ``scheduler``, ``executor``;
    ``checkpoint``: one directory for the whole comparison); the table does not depend on them.

    >>> df = compare_variants("qishou", matches=10, progress=False)
    >>> sorted(set(df.variant))
    ['always', 'never']
    """
    if isinstance(variants, str):
        if variants not in VARIANT_SETS:
            raise RulesError(f"unknown variant set {quote_token(variants)}: expected one of {', '.join(VARIANT_SETS)}")
        variants = VARIANT_SETS[variants]
    if not isinstance(variants, Mapping):
        raise RulesError("variants must be a variant-set name or a mapping name -> options")
    if not variants:
        raise RulesError("variants is empty: give at least one variant (a variant-set name or a mapping name -> options)")
    workers = check_count("workers", workers, 1)
    entropy = check_seed(seed)
    names = [str(name) for name in variants]
    built = [fairness_job(players, resolve_rules(None, **dict(opts)), matches, entropy, policies=policies)
             for opts in variants.values()]
    counts = run_jobs([job for job, _ in built], workers=workers, scheduler=scheduler, executor=executor,
                      checkpoint=checkpoint, progress=progress, desc="nantong fairness", unit="matches",
                      fingerprint={"game": "nantong", "kind": "fairness", "variants": names, "seed_entropy": entropy})
    parts = [fairness_frame(t, meta["config"], meta["seed_entropy"], name)
             for name, (_, meta), t in zip(names, built, counts)]
    return pd.concat(parts, ignore_index=True)
