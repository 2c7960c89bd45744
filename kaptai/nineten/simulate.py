"""Monte Carlo odds of nine-ten (九支十仔): whole hands played by discard policies (§7.3, §7.5).

Hands are played by the engine (:mod:`kaptai.nineten.engine`, ``docs/nine-ten-engine.md``) in
chunks of :data:`CHUNK_HANDS`; chunk ``i`` reads ``PCG64(SeedSequence(seed).spawn(n)[i])``, so a
seed gives the same table for any number of workers, and the chunks run through
:func:`kaptai.core.runner.run_chunks` (worker processes, Dask, checkpoints).  Within a chunk the
deal passes by ``next_dealer`` (``rotate``: counter-clockwise) starting at seat 0.

Seats are reported ``relative_to='dealer'`` (0 = the dealer, 1 = the next seat
counter-clockwise, …) and ``relative_to='seat'`` (the seat number; with rotating deals every
seat deals equally often, so a seat's figures are its policy's).  Money is in units of
``stake_per_tou`` (頭 × stake); ``house_cut`` takes that fraction of each winner's winnings.
Every figure has a 95% interval (Wilson for proportions, normal for means).

Examples
--------
>>> from kaptai.nineten.simulate import simulate
>>> df = simulate(4, hands=3000, seed=1, progress=False)
>>> win = df[(df.metric == "win") & (df.relative_to == "dealer") & (df.level == "any")]
>>> win.seat.tolist()
[0, 1, 2, 3]
>>> net = df[(df.metric == "net_mean") & (df.relative_to == "dealer")]
>>> bool(abs(net.value.sum()) < 1e-9)
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
from kaptai.core.options import check_count as _count
from kaptai.core.options import check_seed as _entropy
from kaptai.core.options import policy_label as _label
from kaptai.core.runner import add_counts_keep_log as _merge
from kaptai.core.runner import Job, plan_chunks, resume_seed, run_chunks
from kaptai.core.sampling import bit_generator
from kaptai.core.settlement import validate_cut
from kaptai.core.stats import mean_interval, wilson_interval
from kaptai.core.tables import MONTE_CARLO_COLUMNS
from kaptai.nineten.config import ACTIONS, LOG_COLUMNS, EngineConfig, check_policies, make_config
from kaptai.nineten.engine import run_hands
from kaptai.nineten.rules import RuleSet

__all__ = ["CHUNK_HANDS", "CONFIDENCE", "METRICS", "WIN_LEVELS", "new_tallies", "tally_outcomes", "tallies_job",
           "run_tallies", "tallies_frame", "simulate", "log_frame"]

#: Hands per chunk (one random stream each).  Part of what a seed means.
CHUNK_HANDS: int = 8192
#: Confidence level of every interval.
CONFIDENCE: float = 0.95
#: Names of the win types by outcome code.
WIN_LEVELS: tuple[str, ...] = ("drawn", "self", "flip", "discard", "natural")
_MAX_TOU = 64
_GAME = "nine-ten"

METRICS: dict[str, str] = {
    "outcome": "P(the hand ends this way): level drawn/self/flip/discard/natural",
    "drawn_rate": "P(流局: a flip is due with the reserve left)",
    "win": "P(the seat wins), level = win type or 'any'",
    "colours": "distribution of k (colours of the five pairs) given a win",
    "tou_mean": "mean 頭 of a win",
    "tou": "distribution of the 頭 of a win (level = 頭)",
    "net_mean": "mean net money of the seat per hand (stake_per_tou x 頭)",
    "net_mean_after_cut": "mean net money per hand after the house cut on winnings",
    "net_sd": "standard deviation of the seat's net money in one hand",
    "pays": "mean money the seat pays per hand to the seat given in level (who pays whom)",
    "dealer_advantage": "mean net of the dealer per hand (the others' nets sum to minus it)",
    "bonus_flip_rate": "P(a bonus flip is made)",
    "bonus_mean": "mean bonus-flip points given a bonus flip",
    "kaizhao_rate": "P(the winner counted 開招 during play)",
    "kaizhao_wait_rate": "P(the winning card was a 4th copy)",
    "claims_mean": "mean claims per hand",
    "flips_mean": "mean stock flips per hand",
    "natural_rate": "P(dealer natural)",
    "net_mean_by_policy": "mean net money per hand of a seat playing the policy (level; per hand the mean over "
                          "its seats, so the interval accounts for the seats' correlation)",
    "net_tou_mean": "mean net 頭 of the seat per hand (expected 頭)",
    "net_tou_mean_by_policy": "mean net 頭 per hand of a seat playing the policy (level)",
}


def new_tallies(players: int) -> dict[str, np.ndarray]:
    """Zeroed tallies of a run (float64 sums; see :func:`tally_outcomes`).

    >>> new_tallies(4)["win_rel"].shape
    (4, 5)
    """
    N = players
    z = np.zeros
    return {
        "hands": z(1), "outcome": z(5), "win_rel": z((N, 5)), "win_seat": z((N, 5)), "colours": z(5),
        "tou_sum": z(1), "tou_sq": z(1), "tou_hist": z(_MAX_TOU + 1),
        "net_rel": z(N), "net_rel_sq": z(N), "pos_rel": z(N), "pos_rel_sq": z(N),
        "net_seat": z(N), "net_seat_sq": z(N), "pos_seat": z(N), "pos_seat_sq": z(N),
        "pay_rel": z((N, N)), "pay_seat": z((N, N)), "pay_rel_sq": z((N, N)), "pay_seat_sq": z((N, N)),
        "bonus_flips": z(1), "bonus_sum": z(1), "bonus_sq": z(1), "kaizhao": z(1), "kaizhao_wait": z(1),
        "claims": z(1), "flips": z(1), "claims_sq": z(1), "flips_sq": z(1),
    }


def tally_outcomes(out: Mapping[str, np.ndarray], cfg: EngineConfig, groups: Any = None) -> dict[str, np.ndarray]:
    """Sum one run's outcome arrays into tallies (money in 頭).

    ``groups`` (one integer per seat, e.g. the index of its policy) adds ``group_sum`` /
    ``group_sq``: per hand, the mean net of the seats of each group, summed over hands.
    """
    N = cfg.players
    t = new_tallies(N)
    g = np.zeros(N, dtype=np.int64) if groups is None else np.asarray(groups, dtype=np.int64)
    G = int(g.max()) + 1
    n = len(out["winner"])
    t["hands"][0] = n
    wt = out["win_type"].astype(np.int64)
    t["outcome"] += np.bincount(wt, minlength=5)
    dealer = out["dealer"].astype(np.int64)
    winner = out["winner"].astype(np.int64)
    won = winner >= 0
    rel = (winner - dealer) % N
    np.add.at(t["win_rel"], (rel[won], wt[won]), 1)
    np.add.at(t["win_seat"], (winner[won], wt[won]), 1)
    t["colours"] += np.bincount(out["colours"][won].astype(np.int64), minlength=5)[:5]
    tou = out["tou"][won].astype(np.float64)
    t["tou_sum"][0] = tou.sum()
    t["tou_sq"][0] = (tou * tou).sum()
    t["tou_hist"] += np.bincount(np.minimum(tou.astype(np.int64), _MAX_TOU), minlength=_MAX_TOU + 1)
    net = out["net"].astype(np.float64)
    idx = (dealer[:, None] + np.arange(N)[None, :]) % N
    net_rel = np.take_along_axis(net, idx, axis=1)
    for name, m in (("rel", net_rel), ("seat", net)):
        pos = np.maximum(m, 0)
        t["net_" + name] += m.sum(axis=0)
        t["net_" + name + "_sq"] += (m * m).sum(axis=0)
        t["pos_" + name] += pos.sum(axis=0)
        t["pos_" + name + "_sq"] += (pos * pos).sum(axis=0)
    t["group_sum"] = np.zeros(G)
    t["group_sq"] = np.zeros(G)
    for j in range(G):
        x = net[:, g == j].mean(axis=1)
        t["group_sum"][j] = x.sum()
        t["group_sq"][j] = (x * x).sum()
    paid = np.maximum(-net, 0)  # what each seat pays; all of it goes to the winner
    wi = np.nonzero(won)[0]
    seats = np.arange(N)[None, :]
    d = dealer[wi][:, None]
    for key, rows_, cols_ in (("pay_seat", np.broadcast_to(seats, (len(wi), N)), winner[wi][:, None]),
                              ("pay_rel", (seats - d) % N, (winner[wi][:, None] - d) % N)):
        cols_ = np.broadcast_to(cols_, rows_.shape)
        np.add.at(t[key], (rows_, cols_), paid[wi])
        np.add.at(t[key + "_sq"], (rows_, cols_), paid[wi] ** 2)
    bf = out["bonus_flip"].astype(bool)
    b = out["bonus"][bf].astype(np.float64)
    t["bonus_flips"][0] = bf.sum()
    t["bonus_sum"][0] = b.sum()
    t["bonus_sq"][0] = (b * b).sum()
    t["kaizhao"][0] = ((out["kaizhao"] > 0) & won).sum()
    t["kaizhao_wait"][0] = ((out["kaizhao_wait"] > 0) & won).sum()
    c = out["claims"].astype(np.float64)
    f = out["flips"].astype(np.float64)
    t["claims"][0], t["claims_sq"][0] = c.sum(), (c * c).sum()
    t["flips"][0], t["flips_sq"][0] = f.sum(), (f * f).sum()
    return t


def _play_chunk(task) -> dict[str, np.ndarray]:
    cfg, pols, child, start, size, record, groups = task
    out, log = run_hands(cfg, size, bit_generator(child), pols, record=record)
    t = tally_outcomes(out, cfg, groups)
    if len(log):
        log = log.copy()
        log[:, 0] += start
    t["log"] = log
    return t


def tallies_job(players: int = 4, rules: RuleSet | str | Mapping[str, Any] | None = None, hands: int = 20_000,
                seed: int | None = None, *, policies: Any = "colour_cut", record: int = 0) -> tuple[Job, dict]:
    """The runner job of a run (:class:`kaptai.core.runner.Job`) and its metadata, checked
    before any work; ``seed`` None draws fresh entropy (in ``meta['seed_entropy']``)."""
    cfg = make_config(players, rules)
    hands = _count("hands", hands, 1)
    record = _count("record", record, 0)
    pols = check_policies(policies, cfg.players)
    entropy = _entropy(seed)
    labels = [_label(p) for p in pols]
    names = list(dict.fromkeys(labels))
    groups = [names.index(x) for x in labels]
    plan = plan_chunks(hands, CHUNK_HANDS, entropy)
    tasks = [(cfg, pols, c.seed, c.start, c.size, max(0, min(record - c.start, c.size)), groups) for c in plan]
    fingerprint = {"game": _GAME, **cfg.fingerprint(), "hands": hands, "seed_entropy": entropy, "policies": labels,
                   "chunk_hands": CHUNK_HANDS, "record": record, "version": __version__}
    meta = {"seed_entropy": entropy, "config": cfg, "policies": labels,
            "engine": "compiled" if all(isinstance(p, str) for p in pols) else "reference", "chunk_hands": CHUNK_HANDS}
    return Job(_play_chunk, tasks, merge=_merge, fingerprint=fingerprint, sizes=plan), meta


def run_tallies(players: int = 4, rules: RuleSet | str | Mapping[str, Any] | None = None, hands: int = 20_000,
                seed: int | None = None, *, policies: Any = "colour_cut", workers: int = 1, record: int = 0,
                progress: bool = True, scheduler: str | None = None, executor: Executor | None = None,
                checkpoint: str | os.PathLike | None = None) -> tuple[dict[str, np.ndarray], np.ndarray, dict]:
    """Play the hands; the merged tallies, the log and run metadata."""
    workers = _count("workers", workers, 1)
    seed = resume_seed(seed, checkpoint)
    job, meta = tallies_job(players, rules, hands, seed, policies=policies, record=record)
    merged = run_chunks(job.fn, job.tasks, merge=job.merge, workers=workers, executor=executor, scheduler=scheduler,
                        checkpoint=checkpoint, fingerprint=job.fingerprint, progress=progress, desc=_GAME,
                        sizes=job.sizes)
    log = merged.pop("log")
    return merged, log, meta


def tallies_frame(t: Mapping[str, np.ndarray], cfg: EngineConfig, policies: list[str] | None = None,
                  house_cut: float = 0.0, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The tidy table of a run's tallies (columns :data:`kaptai.core.tables.MONTE_CARLO_COLUMNS`)."""
    N = cfg.players
    stake = cfg.rules.stake_per_tou
    n = float(t["hands"][0])
    rows: list[dict[str, Any]] = []

    def add(metric, seat, rel, level, value, lo, hi, samples):
        rows.append({"game": _GAME, "rules": cfg.rules.name, "players": N, "metric": metric, "seat": seat,
                     "relative_to": rel, "level": None if level is None else str(level),  # text in every table
                     "value": float(value), "ci_low": float(lo),
                     "ci_high": float(hi), "samples": int(samples), "method": "monte_carlo"})

    def prop(metric, seat, rel, level, k, m):
        lo, hi = wilson_interval(k, m, confidence)
        add(metric, seat, rel, level, k / m if m else math.nan, lo, hi, m)

    def mean(metric, seat, rel, level, s, s2, m, scale=1.0):
        v, lo, hi = mean_interval(s, s2, m, confidence)
        add(metric, seat, rel, level, float(v) * scale, float(lo) * scale, float(hi) * scale, m)

    wins = float(t["outcome"][1:].sum())
    for code, name in enumerate(WIN_LEVELS):
        prop("outcome", None, None, name, t["outcome"][code], n)
    prop("drawn_rate", None, None, None, t["outcome"][0], n)
    prop("natural_rate", None, None, None, t["outcome"][4], n)
    for rel, key in (("dealer", "win_rel"), ("seat", "win_seat")):
        for s in range(N):
            prop("win", s, rel, "any", t[key][s, 1:].sum(), n)
            for code in range(1, 5):
                prop("win", s, rel, WIN_LEVELS[code], t[key][s, code], n)
    for k in range(1, 5):
        prop("colours", None, None, k, t["colours"][k], wins)
    mean("tou_mean", None, None, None, t["tou_sum"][0], t["tou_sq"][0], wins)
    for v in np.nonzero(t["tou_hist"])[0]:
        prop("tou", None, None, int(v), t["tou_hist"][v], wins)
    for rel, key in (("dealer", "rel"), ("seat", "seat")):
        for s in range(N):
            s1, s2 = t["net_" + key][s], t["net_" + key + "_sq"][s]
            mean("net_mean", s, rel, None, s1, s2, n, stake)
            mean("net_tou_mean", s, rel, None, s1, s2, n)
            var = max(s2 / n - (s1 / n) ** 2, 0.0) if n else math.nan
            sd = math.sqrt(var) * stake
            se = sd / math.sqrt(2 * (n - 1)) if n > 1 else math.nan
            z = 1.959963984540054
            add("net_sd", s, rel, None, sd, sd - z * se, sd + z * se, n)
            if house_cut:
                p1, p2 = t["pos_" + key][s], t["pos_" + key + "_sq"][s]
                c = house_cut
                mean("net_mean_after_cut", s, rel, None, s1 - c * p1, s2 - 2 * c * p2 + c * c * p2, n, stake)
            for w in range(N):
                mean("pays", s, rel, w, t["pay_" + key][s, w], t["pay_" + key + "_sq"][s, w], n, stake)
    mean("dealer_advantage", 0, "dealer", None, t["net_rel"][0], t["net_rel_sq"][0], n, stake)
    prop("bonus_flip_rate", None, None, None, t["bonus_flips"][0], n)
    mean("bonus_mean", None, None, None, t["bonus_sum"][0], t["bonus_sq"][0], t["bonus_flips"][0])
    prop("kaizhao_rate", None, None, None, t["kaizhao"][0], wins)
    prop("kaizhao_wait_rate", None, None, None, t["kaizhao_wait"][0], wins)
    mean("claims_mean", None, None, None, t["claims"][0], t["claims_sq"][0], n)
    mean("flips_mean", None, None, None, t["flips"][0], t["flips_sq"][0], n)
    if policies is not None:
        for j, pol in enumerate(dict.fromkeys(policies)):
            s1, s2 = t["group_sum"][j], t["group_sq"][j]
            mean("net_mean_by_policy", None, "policy", pol, s1, s2, n, stake)
            mean("net_tou_mean_by_policy", None, "policy", pol, s1, s2, n)
    df = pd.DataFrame(rows, columns=list(MONTE_CARLO_COLUMNS))
    df["seat"] = df["seat"].astype("Int64")
    return df


def simulate(players: int = 4, rules: RuleSet | str | Mapping[str, Any] | None = None, hands: int = 20_000,
             seed: int | None = None, *, policies: Any = "colour_cut", house_cut: float = 0.0, workers: int = 1,
             record: int = 0, progress: bool = True, scheduler: str | None = None,
             executor: Executor | None = None, checkpoint: str | os.PathLike | None = None) -> pd.DataFrame:
    """Play ``hands`` hands and estimate who wins how, 頭 and money per seat, with 95% intervals.

    Parameters
    ----------
    players : int
        4-7 (2-3 with ``allow_small_table``; 8-11 with ``large_table='ten_nine'``).
    rules : RuleSet, str, mapping or None
    hands : int
    seed : int or None
        Seed of the run (None: fresh entropy, in ``df.attrs['seed_entropy']``).
    policies : str, Policy or sequence
        ``'colour_cut'``, ``'live_first'``, ``'random'`` (compiled) or
        :class:`kaptai.nineten.policies.Policy` objects (reference engine), one per seat.
    house_cut : float
        Fraction of each winner's winnings taken by the house (adds ``net_mean_after_cut``).
    workers, scheduler, executor, checkpoint
        Where the chunks run (:mod:`kaptai.core.runner`); the table does not depend on them.
    record : int
        Keep the log of the first ``record`` hands in ``df.attrs['log']``.
    progress : bool

    Returns
    -------
    pandas.DataFrame
        Columns ``game, rules, players, metric, seat, relative_to, level, value, ci_low,
        ci_high, samples, method``; metrics :data:`METRICS`.

    Examples
    --------
    >>> from kaptai.nineten.simulate import simulate
    >>> df = simulate(5, hands=2000, seed=3, policies=["colour_cut"] + ["random"] * 4, progress=False)
    >>> sorted(df[df.metric == "net_mean_by_policy"].level)
    ['colour_cut', 'random']
    """
    cut = validate_cut(house_cut)
    t, log, meta = run_tallies(players, rules, hands, seed, policies=policies, workers=workers, record=record,
                               progress=progress, scheduler=scheduler, executor=executor, checkpoint=checkpoint)
    df = tallies_frame(t, meta["config"], meta["policies"], cut)
    df.attrs.update({"game": _GAME, "seed_entropy": meta["seed_entropy"], "version": __version__,
                     "rules": meta["config"].rules.to_dict(), "policies": meta["policies"],
                     "hands": int(t["hands"][0]), "chunk_hands": CHUNK_HANDS, "engine": meta["engine"],
                     "confidence": CONFIDENCE, "house_cut": cut})
    if record:
        df.attrs["log"] = {k: v.tolist() for k, v in log_frame(log).items()}
    return df


def log_frame(log: np.ndarray) -> pd.DataFrame:
    """The engine log with names: columns :data:`LOG_COLUMNS` + ``action_name``, ``card_text``.

    >>> import numpy as np
    >>> log_frame(np.array([[0, 5, 1, 3, 14, 0]])).iloc[0][["action_name", "card_text"]].tolist()
    ['discard', 'GK']
    """
    from kaptai.nineten.cards import format_card

    log = np.asarray(log, dtype=np.int64).reshape(-1, len(LOG_COLUMNS))
    df = pd.DataFrame(log, columns=list(LOG_COLUMNS))
    df["action_name"] = [ACTIONS[a] for a in df["action"]]
    df["card_text"] = [format_card(int(c)) if c >= 0 else "" for c in df["card"]]
    return df
