"""Sessions of Heaven Eleven (天牌十一): ``rounds`` scored hands (§5), totals, places and margins.

A session is ``rules.rounds`` consecutive non-drawn hands (a drawn hand is replayed by the same
dealer and does not count as a round); with the default 4 rounds and the dealer rotating, every
seat deals once.  The highest total wins; equal totals share first place (each tied seat is
counted as a winner, ``shared_first`` counts the sessions with a tie at the top).  Seats are
reported relative to the session's first dealer (0 = the first dealer, then in bidding order).

Examples
--------
>>> from kaptai.heaven11.sessions import sessions
>>> df = sessions(hands=400, seed=1, progress=False)
>>> w = df[df.metric == "first_place"]
>>> len(w), bool(w.value.sum() >= 1)
(4, True)
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from kaptai.core.options import check_count, check_seed
from kaptai.core.runner import plan_chunks, run_chunks
from kaptai.core.sampling import bit_generator
from kaptai.core.stats import mean_interval, wilson_interval
from kaptai.heaven11.config import make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.simulate import CHUNK_HANDS

__all__ = ["session_tallies", "sessions"]


def session_tallies(out: dict, cfg) -> dict[str, np.ndarray]:
    """Split a run of hands into complete sessions and tally them (an incomplete tail is dropped)."""
    rounds = cfg.rules.rounds
    t = {"sessions": np.zeros(1, dtype=np.int64), "first": np.zeros(4, dtype=np.int64),
         "shared": np.zeros(1, dtype=np.int64), "total": np.zeros((4, 2)), "margin": np.zeros(2)}
    counted = 0
    acc = np.zeros(4, dtype=np.int64)
    first_dealer = -1
    for h in range(len(out["draw"])):
        if counted == 0:
            first_dealer = int(out["dealer"][h])
            acc[:] = 0
        acc += out["finals"][h].astype(np.int64)
        if out["draw"][h]:
            continue
        counted += 1
        if counted == rounds:
            order = [(first_dealer + k * cfg.bid_step) % 4 for k in range(4)]
            rel = acc[order]
            top = rel.max()
            t["sessions"][0] += 1
            t["first"] += (rel == top)
            t["shared"][0] += int((rel == top).sum() > 1)
            t["total"] += np.stack([rel, rel * rel], axis=1)
            second = np.sort(rel)[-2]
            t["margin"] += [top - second, (top - second) ** 2]
            counted = 0
    return t


def _chunk(task):
    cfg, child, size = task
    out, _ = run_hands(cfg, "greedy", bit_generator(child), size)
    return session_tallies(out, cfg)


def sessions(hands: int = 20_000, seed: int | None = 0, rules=None, *, workers: int = 1,
             progress: bool = True, executor=None, scheduler: str | None = None, checkpoint=None) -> pd.DataFrame:
    """Session results of greedy play and ``expected`` bidding over ``hands`` hands.

    Rows: ``first_place`` (P(the seat has the top total, ties included), seat relative to the
    first dealer), ``total_mean`` (its mean session total), ``shared_first`` (P(a tie at the
    top)), ``winning_margin`` (mean lead of the top total over the second).  ``workers``,
    ``executor``, ``scheduler``, ``checkpoint``: see :mod:`kaptai.core.runner` (the table does
    not depend on them).
    """
    hands = check_count("hands", hands, 1)
    entropy = check_seed(seed)
    cfg = make_config(rules=rules)
    plan = plan_chunks(hands, CHUNK_HANDS, entropy)
    tasks = [(cfg, c.seed, c.size) for c in plan]
    t = run_chunks(_chunk, tasks, workers=workers, progress=progress, desc="heaven-eleven sessions", sizes=plan,
                   executor=executor, scheduler=scheduler, checkpoint=checkpoint,
                   fingerprint={"game": "heaven-eleven", "job": "sessions", "rules": cfg.rules.to_dict(),
                                "hands": hands, "seed": entropy})
    n = int(t["sessions"][0])
    rows = []

    def add(metric, seat, value, lo=math.nan, hi=math.nan):
        rows.append({"metric": metric, "seat": seat, "relative_to": "first_dealer" if seat is not None else None,
                     "value": float(value), "ci_low": float(lo), "ci_high": float(hi), "samples": n,
                     "method": "monte_carlo"})

    for s in range(4):
        lo, hi = wilson_interval(t["first"][s], n)
        add("first_place", s, t["first"][s] / n if n else math.nan, lo, hi)
    for s in range(4):
        m, lo, hi = mean_interval(t["total"][s, 0], t["total"][s, 1], n)
        add("total_mean", s, m, lo, hi)
    lo, hi = wilson_interval(t["shared"][0], n)
    add("shared_first", None, t["shared"][0] / n if n else math.nan, lo, hi)
    m, lo, hi = mean_interval(t["margin"][0], t["margin"][1], n)
    add("winning_margin", None, m, lo, hi)
    df = pd.DataFrame(rows)
    df["seat"] = df["seat"].astype("Int64")
    df.attrs.update({"seed_entropy": entropy, "hands": hands, "sessions": n, "rounds": cfg.rules.rounds,
                     "rules": cfg.rules.to_dict(), "policies": "greedy", "bidding": "expected"})
    return df
