"""Monte Carlo analyses of Heaven Eleven (天牌十一), ``docs/rules/heaven-eleven.md``.

Whole hands (auction + play) are played by the engine (``docs/heaven-eleven-engine.md``) in
chunks of :data:`CHUNK_HANDS`; chunk ``i`` reads ``PCG64(SeedSequence(seed).spawn(n)[i])``
through :func:`kaptai.core.runner.run_chunks` (workers, Dask, checkpoints), so a seed gives the
same table for any number of workers.  Every chunk returns mergeable tallies (counts and power
sums), never raw hands; the table has 95% intervals (Wilson for proportions, normal for means).

Seats are reported relative to the declarer (``relative_to='declarer'``: seat 0 = the declarer,
1..3 = the defenders in play order).  Breakdowns are written into ``relative_to`` as
``'strain=S'``, ``'longest=6'``, ``'trumps=5'``, ``'specials=1'``, ``'target=3'`` …, with the
observation's value in ``level``.

**Counterfactual bids.** With contract-independent play (``greedy``, ``random``: they never look
at the contract) the tricks of a hand do not depend on the level, so every hand is also scored as
if the declarer had bid each level 0-9 (``bid_ev``, common random numbers), under the rules as
written and under ``short_penalty='symmetric'``.  With ``rollout`` the counterfactual rows are an
approximation (its play depends on the contract).

Examples
--------
>>> from kaptai.heaven11.simulate import simulate
>>> df = simulate(hands=2000, seed=1, progress=False)
>>> zs = df[df.metric == "zero_sum_violations"].value.iloc[0]
>>> float(zs)
0.0
>>> p = df[(df.metric == "status") & (df.relative_to == "declarer")].value.sum()
>>> round(float(p), 9)
1.0
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
from kaptai.core.runner import Job, plan_chunks, resume_seed, run_chunks
from kaptai.core.sampling import bit_generator
from kaptai.core.stats import mean_interval, wilson_interval
from kaptai.core.tables import MONTE_CARLO_COLUMNS
from kaptai.heaven11.cards import STRAINS
from kaptai.heaven11.config import EngineConfig, check_bidding, check_policies, make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.learn import hand_features
from kaptai.heaven11.odds import SPECIALS
from kaptai.heaven11.scoring import finals_array

__all__ = ["CHUNK_HANDS", "CONFIDENCE", "METRICS", "FRAME_COLUMNS", "new_tallies", "tally_outcomes",
           "tallies_job", "run_tallies", "tallies_frame", "simulate", "declarer_target"]

#: Hands per chunk (one random stream each).  Part of what a seed means.
CHUNK_HANDS: int = 4096
CONFIDENCE: float = 0.95
FRAME_COLUMNS: tuple[str, ...] = MONTE_CARLO_COLUMNS
METRICS: dict[str, str] = {
    "declarer_tricks": "distribution of the declarer's tricks (level = tricks), overall and by strain/longest/trumps/specials",
    "declarer_tricks_mean": "mean declarer tricks (overall and by breakdown)",
    "status": "P(short / match / over / draw) (level 0-3 = short, match, over, draw), overall and by bid level",
    "bid_level": "distribution of the contract level (level = b)",
    "strain": "distribution of the contract strain (level 0-4 = C D H S NT)",
    "final_mean": "mean final score per hand by seat relative to the declarer",
    "final_positive": "P(final > 0) by seat relative to the declarer",
    "balance": "P(the defender balances: at least 3 tricks), seat 1-3 relative to the declarer",
    "draw_rate_b0": "P(draw | contract level 0)",
    "draw_rate": "P(draw) over all hands",
    "forced_rate": "P(the dealer was forced to 0C)",
    "redeals_mean": "mean passed-out redeals per hand",
    "plays_mean": "mean number of plays per hand",
    "bid_ev": "mean declarer score had the declarer bid each level (level = b; counterfactual), by rules",
    "bid_ev_by_target": "the same by the bidding policy's target level of the declarer's hand",
    "best_bid": "the level with the highest bid_ev (overall and by target), by rules",
    "zero_sum_violations": "number of hands whose finals do not sum to 0 (must be 0)",
}
_GAME = "heaven-eleven"
_ROLES = ("declarer", "d1", "d2", "d3")


def declarer_target(hands: np.ndarray, bid_table: np.ndarray) -> np.ndarray:
    """The bidding policies' target level (offset 0, not capped below) of each hand mask.

    >>> from kaptai.heaven11.config import default_bid_table
    >>> int(declarer_target(np.array([(1 << 13) - 1]), default_bid_table())[0])
    7
    """
    lengths, hb = hand_features(hands)
    t = np.asarray(bid_table, dtype=np.int64)
    e = np.stack([t[0][lengths[:, s], hb] for s in range(4)] + [t[1][lengths.max(axis=1), hb]], axis=1)
    # ties -> the higher strain: argmax of the reversed columns
    best = 4 - np.argmax(e[:, ::-1], axis=1)
    eb = e[np.arange(len(e)), best]
    return np.minimum((eb + 5) // 10 - 4, 9)


def new_tallies() -> dict[str, np.ndarray]:
    """Zeroed tallies of one chunk."""
    z = lambda *s: np.zeros(s, dtype=np.int64)  # noqa: E731
    f = lambda *s: np.zeros(s, dtype=np.float64)  # noqa: E731
    return {
        "hands": z(1), "draws": z(1), "forced": z(1), "redeals": f(2), "plays": f(2), "zero_sum": z(1),
        "tricks_all": z(14), "tricks_strain": z(5, 14), "tricks_longest": z(14, 14), "tricks_trumps": z(14, 14),
        "tricks_specials": z(4, 14), "level": z(10), "strain": z(5), "status": z(4), "status_level": z(10, 4),
        "b0": z(2), "final": f(4, 2), "final_pos": z(4), "balance": z(3),
        "cf": f(2, 10, 2), "cf_target": f(2, 11, 10, 2), "target_n": z(11),
    }


def tally_outcomes(out: Mapping[str, np.ndarray], cfg: EngineConfig) -> dict[str, np.ndarray]:
    """Tallies of a batch of hands (engine outcome arrays)."""
    t = new_tallies()
    n = len(out["declarer"])
    if n == 0:
        return t
    rows = np.arange(n)
    d = out["declarer"].astype(np.int64)
    order = (d[:, None] + np.arange(4)[None, :] * cfg.play_step) % 4
    tr = out["tricks"].astype(np.int64)[rows[:, None], order]
    fin = out["finals"].astype(np.int64)[rows[:, None], order]
    level = out["level"].astype(np.int64)
    strain = out["strain"].astype(np.int64)
    draw = out["draw"].astype(bool)
    t["hands"][0] = n
    t["draws"][0] = int(draw.sum())
    t["forced"][0] = int(out["forced"].sum())
    rd = out["redeals"].astype(np.float64)
    t["redeals"] += [rd.sum(), (rd * rd).sum()]
    pl = out["plays"].astype(np.float64)
    t["plays"] += [pl.sum(), (pl * pl).sum()]
    t["zero_sum"][0] = int((out["finals"].astype(np.int64).sum(axis=1) != 0).sum())
    t0 = tr[:, 0]
    t["tricks_all"] += np.bincount(t0, minlength=14)
    hand = out["hands"][rows, d]
    lengths, _ = hand_features(hand)
    longest = lengths.max(axis=1)
    suits = np.stack([(hand >> (13 * s)) & 0x1FFF for s in range(4)], axis=1)
    specials = np.zeros(n, dtype=np.int64)
    for _, mask in SPECIALS.values():
        specials += ((suits & mask) == mask).sum(axis=1)
    np.add.at(t["tricks_strain"], (strain, t0), 1)
    np.add.at(t["tricks_longest"], (longest, t0), 1)
    suit = strain < 4
    trumps = lengths[rows[suit], strain[suit]]
    np.add.at(t["tricks_trumps"], (trumps, t0[suit]), 1)
    np.add.at(t["tricks_specials"], (np.minimum(specials, 3), t0), 1)
    t["level"] += np.bincount(level, minlength=10)
    t["strain"] += np.bincount(strain, minlength=5)
    m = t0 - 4
    status = np.where(draw, 3, np.where(m < level, 0, np.where(m == level, 1, 2)))
    t["status"] += np.bincount(status, minlength=4)
    np.add.at(t["status_level"], (level, status), 1)
    b0 = level == 0
    t["b0"] += [int(b0.sum()), int((b0 & draw).sum())]
    ff = fin.astype(np.float64)
    t["final"] += np.stack([ff.sum(axis=0), (ff * ff).sum(axis=0)], axis=1)
    t["final_pos"] += (fin > 0).sum(axis=0)
    t["balance"] += (tr[:, 1:] >= 3).sum(axis=0)
    target = np.clip(declarer_target(hand, cfg.bid_table), -1, 9) + 1
    t["target_n"] += np.bincount(target, minlength=11)
    for r, sp in enumerate(("none", "symmetric")):
        for b in range(10):
            f0 = finals_array(np.full(n, b), tr, sp)[:, 0].astype(np.float64)
            t["cf"][r, b] += [f0.sum(), (f0 * f0).sum()]
            np.add.at(t["cf_target"][r, :, b, 0], target, f0)
            np.add.at(t["cf_target"][r, :, b, 1], target, f0 * f0)
    return t


def _chunk(task) -> dict[str, np.ndarray]:
    cfg, pols, bids, child, size = task
    out, _ = run_hands(cfg, pols, bit_generator(child), size, bidding=bids)
    return tally_outcomes(out, cfg)


def tallies_job(rules=None, hands: int = 10_000, seed: int | None = None, *, policies: Any = "greedy",
                bidding: Any = "expected", samples: int = 16, first_leader: str = "declarer") -> tuple[Job, dict[str, Any]]:
    """The runner job of a run (:class:`kaptai.core.runner.Job`) and its metadata, checked before
    any work; ``seed`` None draws fresh entropy (in ``meta['seed_entropy']``)."""
    cfg = make_config(rules=rules, samples=samples, first_leader=first_leader)
    hands = check_count("hands", hands, 1)
    pols = check_policies(policies)
    bids = check_bidding(bidding)
    entropy = check_seed(seed)
    plan = plan_chunks(hands, CHUNK_HANDS, entropy)
    tasks = [(cfg, pols, bids, c.seed, c.size) for c in plan]
    labels = [policy_label(p) for p in pols]
    fingerprint = {"game": _GAME, **cfg.fingerprint(), "hands": hands, "seed_entropy": entropy, "policies": labels,
                   "bidding": bids, "chunk_hands": CHUNK_HANDS, "version": __version__}
    meta = {"seed_entropy": entropy, "config": cfg, "policies": labels, "bidding": bids, "chunk_hands": CHUNK_HANDS,
            "engine": "compiled" if all(isinstance(p, str) for p in pols) else "reference"}
    return Job(_chunk, tasks, fingerprint=fingerprint, sizes=plan), meta


def run_tallies(rules=None, hands: int = 10_000, seed: int | None = None, *, policies: Any = "greedy",
                bidding: Any = "expected", samples: int = 16, first_leader: str = "declarer", workers: int = 1,
                progress: bool = True, scheduler: str | None = None, executor: Executor | None = None,
                checkpoint: str | os.PathLike | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Play and merge; returns the tallies and run metadata."""
    workers = check_count("workers", workers, 1)
    seed = resume_seed(seed, checkpoint)
    job, meta = tallies_job(rules, hands, seed, policies=policies, bidding=bidding, samples=samples,
                            first_leader=first_leader)
    merged = run_chunks(job.fn, job.tasks, workers=workers, executor=executor, scheduler=scheduler,
                        checkpoint=checkpoint, fingerprint=job.fingerprint, progress=progress, desc=_GAME,
                        sizes=job.sizes)
    return merged, meta


class _Rows:
    def __init__(self, confidence: float):
        self.rows: list[tuple] = []
        self.c = confidence

    def add(self, metric, seat, rel, level, value, lo=math.nan, hi=math.nan, samples=0):
        self.rows.append((metric, seat, rel, level, float(value), float(lo), float(hi), int(samples)))

    def prop(self, metric, seat, rel, level, k, n):
        lo, hi = wilson_interval(float(k), float(n), self.c)
        self.add(metric, seat, rel, level, float(k) / n if n else math.nan, float(lo), float(hi), n)

    def mean(self, metric, seat, rel, level, s, s2, n):
        m, lo, hi = mean_interval(float(s), float(s2), float(n), self.c)
        self.add(metric, seat, rel, level, float(m), float(lo), float(hi), n)

    def hist(self, metric, rel, h):
        n = int(h.sum())
        if not n:
            return
        for k in np.nonzero(h)[0]:
            self.prop(metric, 0, rel, int(k), h[k], n)
        lv = np.arange(len(h), dtype=np.float64)
        self.mean(metric + "_mean", 0, rel, None, (h * lv).sum(), (h * lv * lv).sum(), n)


def tallies_frame(t: Mapping[str, np.ndarray], cfg: EngineConfig, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The table of :func:`simulate` from merged tallies."""
    R = _Rows(confidence)
    N = int(t["hands"][0])
    R.hist("declarer_tricks", "declarer", t["tricks_all"])
    for s in range(5):
        R.hist("declarer_tricks", f"strain={STRAINS[s]}", t["tricks_strain"][s])
    for L in range(14):
        R.hist("declarer_tricks", f"longest={L}", t["tricks_longest"][L])
    for L in range(14):
        R.hist("declarer_tricks", f"trumps={L}", t["tricks_trumps"][L])
    for k in range(4):
        R.hist("declarer_tricks", f"specials={k}" + ("+" if k == 3 else ""), t["tricks_specials"][k])
    for k in range(4):
        R.prop("status", 0, "declarer", k, t["status"][k], N)
    for b in range(10):
        nb = int(t["status_level"][b].sum())
        for k in range(4):
            if nb:
                R.prop("status", 0, f"bid={b}", k, t["status_level"][b, k], nb)
    for b in range(10):
        R.prop("bid_level", None, None, b, t["level"][b], N)
    for s in range(5):
        R.prop("strain", None, None, s, t["strain"][s], N)
    for i in range(4):
        R.mean("final_mean", i, "declarer", None, t["final"][i, 0], t["final"][i, 1], N)
        R.prop("final_positive", i, "declarer", None, t["final_pos"][i], N)
    for i in range(3):
        R.prop("balance", i + 1, "declarer", None, t["balance"][i], N)
    if t["b0"][0]:
        R.prop("draw_rate_b0", None, None, None, t["b0"][1], t["b0"][0])
    R.prop("draw_rate", None, None, None, t["draws"][0], N)
    R.prop("forced_rate", None, None, None, t["forced"][0], N)
    R.mean("redeals_mean", None, None, None, t["redeals"][0], t["redeals"][1], N)
    R.mean("plays_mean", None, None, None, t["plays"][0], t["plays"][1], N)
    for r, label in enumerate(("rules=as_written", "rules=symmetric")):
        evs = []
        for b in range(10):
            R.mean("bid_ev", 0, label, b, t["cf"][r, b, 0], t["cf"][r, b, 1], N)
            evs.append(t["cf"][r, b, 0] / N)
        R.add("best_bid", 0, label, int(np.argmax(evs)), int(np.argmax(evs)), samples=N)
        for tg in range(11):
            n = int(t["target_n"][tg])
            if not n:
                continue
            ev = []
            for b in range(10):
                R.mean("bid_ev_by_target", 0, f"{label},target={tg - 1}", b, t["cf_target"][r, tg, b, 0],
                       t["cf_target"][r, tg, b, 1], n)
                ev.append(t["cf_target"][r, tg, b, 0] / n)
            R.add("best_bid", 0, f"{label},target={tg - 1}", int(np.argmax(ev)), int(np.argmax(ev)), samples=n)
    R.add("zero_sum_violations", None, None, None, int(t["zero_sum"][0]), samples=N)
    df = pd.DataFrame(R.rows, columns=["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high", "samples"])
    df.insert(0, "game", _GAME)
    df.insert(1, "rules", cfg.rules.name)
    df.insert(2, "players", 4)
    df["method"] = "monte_carlo"
    df = df.astype({"seat": "Int64", "level": "Int64", "samples": "int64"})
    return df[list(FRAME_COLUMNS)]


def simulate(players: int | None = None, rules=None, hands: int = 10_000, seed: int | None = None, *,
             policies: Any = "greedy", bidding: Any = "expected", samples: int = 16, first_leader: str = "declarer",
             workers: int = 1, progress: bool = True, scheduler: str | None = None,
             executor: Executor | None = None, checkpoint: str | os.PathLike | None = None) -> pd.DataFrame:
    """Play ``hands`` hands and tabulate the §7 Monte Carlo analyses with 95% intervals.

    Parameters
    ----------
    players : int, optional
        Must be 4.
    rules : RuleSet, preset name, mapping or None
    hands : int
    seed : int or None
        Recorded in ``df.attrs['seed_entropy']``.
    policies : str, Policy or 4 of them
        Play policies: ``'greedy'`` (default), ``'random'``, ``'rollout'`` or user objects.
    bidding : str or 4 of them
        ``'expected'`` (default), ``'underbid'``, ``'overbid'``, ``'never'``.
    samples : int
        Rollout samples per decision.
    first_leader : {'declarer', 'next'}
    workers, scheduler, executor, checkpoint, progress
        See :mod:`kaptai.core.runner`; the table does not depend on them.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`FRAME_COLUMNS`, metrics :data:`METRICS`.

    Examples
    --------
    >>> df = simulate(hands=500, seed=3, progress=False)
    >>> sorted(set(df.metric))[:3]
    ['balance', 'best_bid', 'bid_ev']
    """
    if players is not None:
        from kaptai.heaven11.rules import validate_players

        validate_players(players)
    t, meta = run_tallies(rules, hands, seed, policies=policies, bidding=bidding, samples=samples,
                          first_leader=first_leader, workers=workers, progress=progress, scheduler=scheduler,
                          executor=executor, checkpoint=checkpoint)
    cfg = meta["config"]
    df = tallies_frame(t, cfg)
    df.attrs.update({"game": _GAME, "seed_entropy": meta["seed_entropy"], "version": __version__,
                     "rules": cfg.rules.to_dict(), "policies": meta["policies"], "bidding": meta["bidding"],
                     "rollout_samples": cfg.samples, "samples": int(t["hands"][0]), "first_leader": first_leader, "hands": int(t["hands"][0]),
                     "chunk_hands": CHUNK_HANDS, "engine": meta["engine"], "confidence": CONFIDENCE})
    return df
