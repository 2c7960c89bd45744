"""Calibration of the Big Two ``search``'s inference (docs ``big-two-engine.md``, "search").

At a decision the search weighs its sampled layouts of the unseen cards by how well each
layout's opponent styles explain the plays and passes seen so far
(:func:`kaptai.bigtwo._engine.search_layouts`).  The weighted layouts give a *belief*: the
probability that seat ``q`` holds card ``c``.  The beliefs are calibrated when, over many
deals and decision points, the cards believed held with probability ``p`` are held a
fraction ``p`` of the time.  :func:`belief_calibration` plays games (the reference engine,
each seat a built-in style), asks the compiled search for its layouts at decision points and
bins the beliefs against the truth.

Examples
--------
>>> from kaptai.bigtwo.inference import belief_calibration
>>> table = belief_calibration(deals=2, samples=32, seed=1)
>>> list(table[0])
['bin', 'beliefs', 'mean_belief', 'frequency', 'ci_low', 'ci_high', 'brier']
>>> sum(r["beliefs"] for r in table) > 100
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kaptai.bigtwo import _engine
from kaptai.bigtwo.config import SEARCH_INFER, SEARCH_POOL, make_config
from kaptai.bigtwo.engine_reference import Game
from kaptai.bigtwo.policies import ContestPolicy, GreedyPolicy, HeuristicPolicy, Policy
from kaptai.core.sampling import RandomStream
from kaptai.errors import KaptaiError

__all__ = ["beliefs_at", "belief_calibration", "effective_samples", "BIN_EDGES"]

#: Edges of the belief bins.
BIN_EDGES: tuple[float, ...] = (0.0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95, 1.0 + 1e-9)


def beliefs_at(cfg: Any, view: Any, samples: int, seed: int) -> dict[tuple[int, int], float]:
    """The search's belief ``P(seat q holds card c)`` for every other seat ``q`` and unseen card
    ``c`` at a view, from the weighted layouts of :func:`kaptai.bigtwo._engine.search_layouts`
    (with ``cfg.search_pool > 1``: the layouts resampled from the weighted pool, each weighing
    1, the set the search's rollouts use).
    """
    lays, _, w, _ = _engine.search_layouts(cfg, view.seat, view.cards_left, view.hand_mask, played=view.played,
                                           dead=view.dead, history=view.history,
                                           bit_generator=np.random.PCG64(seed), samples=samples)
    wf = w.astype(float)
    tot = wf.sum()
    unseen = view.unseen()
    out: dict[tuple[int, int], float] = {}
    for q in range(view.players):
        if q == view.seat:
            continue
        col = lays[:, q]
        for c in range(52):
            if unseen >> c & 1:
                held = ((col >> np.uint64(c)) & np.uint64(1)).astype(bool)
                out[(q, c)] = float(wf[held].sum() / tot)
    return out


def _decision_points(cfg: Any, games: int, seed: int, every: int) -> Any:
    """The decision points both measures visit: ``games`` games of the reference engine on one
    stream (``PCG64(seed)``), seat ``s`` of game ``g`` playing style ``(g + s) % 3``; every
    ``every``-th turn that has a history and a choice yields ``(game, view, k)``, ``k`` counting
    the points from 0."""
    styles: tuple[Policy, ...] = (ContestPolicy(), GreedyPolicy(), HeuristicPolicy())
    stream = RandomStream(np.random.PCG64(seed))
    k = 0
    for gi in range(games):
        g = Game(cfg, [styles[(gi + s) % 3] for s in range(cfg.players)], stream)
        turn = 0
        while not g.over:
            v = g.view()
            if v.history and turn % every == 0 and (v.options or v.can_pass):
                yield g, v, k
                k += 1
            g.step()
            turn += 1


def belief_calibration(deals: int = 60, samples: int = 200, seed: int = 0, players: int = 4,
                       rules: Any = None, every: int = 4, infer: int | None = None,
                       pool: int | None = None) -> list[dict[str, Any]]:
    """Binned calibration of the search's beliefs over ``deals`` games.

    Each game is played by the reference engine with seat ``s`` of game ``g`` playing style
    ``(g + s) % 3`` (``contest``, ``greedy``, ``heuristic``: the opponent models of the
    search); at every ``every``-th turn that has a history, the seat to move is the searcher:
    its beliefs about every other seat's unseen cards are compared with the true hands.
    ``infer`` and ``pool`` are the search's ``search_infer`` and ``search_pool`` (default: the
    engine's defaults); with a pool the beliefs come from the resampled layouts.

    Returns
    -------
    list of dict
        One row per non-empty bin: ``bin`` (its edges), ``beliefs`` (how many), ``mean_belief``,
        ``frequency`` (the fraction held) and its 95% interval ``ci_low``/``ci_high``, clustered
        by decision point (the beliefs of one position are not independent), and ``brier``, the
        mean squared error of the bin's beliefs.
    """
    if deals < 1 or samples < 1 or every < 1:
        raise KaptaiError("deals, samples and every must be at least 1")
    cfg = make_config(players, rules, search_infer=SEARCH_INFER if infer is None else infer,
                      search_pool=SEARCH_POOL if pool is None else pool)
    nb = len(BIN_EDGES) - 1
    # per position and bin: sums of belief, of truth, count (for the clustered interval)
    rows: list[np.ndarray] = []
    for g, v, k in _decision_points(cfg, deals, seed, every):
        acc = np.zeros((nb, 4))
        for (q, c), p in beliefs_at(cfg, v, samples, seed * 100_003 + k).items():
            b = min(int(np.searchsorted(BIN_EDGES, p, side="right")) - 1, nb - 1)
            t = float(g.hands[q] >> c & 1)
            acc[b] += (p, t, 1.0, (p - t) ** 2)
        rows.append(acc)
    arr = np.array(rows)  # (positions, bins, [belief, truth, count, squared error])
    out = []
    for b in range(nb):
        n = arr[:, b, 2].sum()
        if n == 0:
            continue
        mean_p = arr[:, b, 0].sum() / n
        freq = arr[:, b, 1].sum() / n
        # cluster-robust standard error of the frequency (ratio estimator, clusters = positions)
        resid = arr[:, b, 1] - freq * arr[:, b, 2]
        m = len(arr)
        se = math.sqrt(m / max(m - 1, 1) * float((resid ** 2).sum())) / n
        out.append({"bin": f"{BIN_EDGES[b]:.2f}-{min(BIN_EDGES[b + 1], 1.0):.2f}", "beliefs": int(n),
                    "mean_belief": float(mean_p), "frequency": float(freq),
                    "ci_low": max(0.0, freq - 1.96 * se), "ci_high": min(1.0, freq + 1.96 * se),
                    "brier": float(arr[:, b, 3].sum() / n)})
    return out


def effective_samples(games: int = 20, seed: int = 5, pool: int | None = None, samples: int | None = None,
                      every: int = 4, players: int = 4, rules: Any = None) -> list[dict[str, Any]]:
    """How many layouts the search's choice rests on, by length of the history.

    The games and decision points of :func:`belief_calibration` (seat ``s`` of game ``g`` plays
    style ``(g + s) % 3``; every ``every``-th turn with a history); at each the compiled search
    draws its layouts (:func:`kaptai.bigtwo._engine.search_layouts`, ``samples`` layouts,
    ``search_pool=pool``; the stream of decision ``k`` is ``PCG64(1000 * seed + k)``).

    Returns
    -------
    list of dict
        One row per bin of 16 history entries (the last bin open): ``history`` (its range),
        ``positions``, ``ess`` (the mean effective sample size ``(Σw)² / Σw²`` of the weighted
        draw: with a pool, of the pool) and ``distinct`` (the mean number of distinct
        layout-and-styles the rollouts use: with a pool, the resampled set has duplicates).

    Examples
    --------
    >>> from kaptai.bigtwo.inference import effective_samples
    >>> rows = effective_samples(games=1, seed=1, samples=8, pool=1)   # 8 weighted layouts
    >>> rows[0]["history"], rows[0]["ess"] <= 8.0, rows[0]["distinct"] <= 8
    ('0-15', True, True)
    >>> rows = effective_samples(games=1, seed=1, samples=8, pool=4)   # 8 resampled from 32
    >>> rows[0]["ess"] <= 32.0, rows[0]["distinct"] <= 8
    (True, True)
    """
    if games < 1 or every < 1:
        raise KaptaiError("games and every must be at least 1")
    cfg = make_config(players, rules, search_pool=SEARCH_POOL if pool is None else pool,
                      search_samples=samples)
    by_bin: dict[int, list[tuple[float, int]]] = {}
    for _g, v, k in _decision_points(cfg, games, seed, every):
        lays, stys, _, ess = _engine.search_layouts(cfg, v.seat, v.cards_left, v.hand_mask, played=v.played,
                                                    dead=v.dead, history=v.history,
                                                    bit_generator=np.random.PCG64(1000 * seed + k))
        distinct = len({tuple(r) + tuple(t) for r, t in zip(lays.tolist(), stys.tolist())})
        by_bin.setdefault(min(len(v.history) // 16, 4), []).append((float(ess), distinct))
    return [{"history": f"{16 * b}-{16 * b + 15}" if b < 4 else "64+", "positions": len(x),
             "ess": float(np.mean([e for e, _ in x])), "distinct": float(np.mean([d for _, d in x]))}
            for b, x in sorted(by_bin.items())]
