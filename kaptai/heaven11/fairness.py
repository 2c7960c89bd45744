"""Variant comparisons of Heaven Eleven (天牌十一): sensitivity, the value of leading first and the
short-vs-over asymmetry (§6.10), all through :func:`kaptai.core.runner.run_chunks`.

Every comparison plays the *same deals* under each variant (chunk ``i`` of every variant reads the
same stream; the built-in bidding policies and ``greedy`` draw nothing after the shuffle), so
differences carry little noise of their own.

Examples
--------
>>> from kaptai.heaven11.fairness import asymmetry
>>> df = asymmetry(hands=2000, seed=1, progress=False)
>>> sorted(set(df.rules))
['as_written', 'symmetric']
"""

from __future__ import annotations

import math
from typing import Any, Mapping

import numpy as np
import pandas as pd

from kaptai.core.options import check_count, check_seed
from kaptai.core.runner import plan_chunks, resume_seed, run_chunks, run_jobs
from kaptai.core.sampling import bit_generator
from kaptai.core.stats import mean_interval, seat_spread_of, wilson_interval
from kaptai.heaven11.config import make_config
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.scoring import finals_array
from kaptai.heaven11.simulate import CHUNK_HANDS, declarer_target, tallies_frame, tallies_job

__all__ = ["VARIANT_SETS", "KEY_METRICS", "OFFSETS", "BIDDING_TABLES", "compare_variants", "fairness", "leading_first",
           "asymmetry", "search_bidding", "skill_by_seat"]

#: Named sets of variants (label -> rule overrides).
VARIANT_SETS: Mapping[str, Mapping[str, dict]] = {
    "play": {
        "standard": {},
        "reduction=once": {"reduction": "once"},
        "short_follow=free": {"short_follow": "free"},
        "must_trump": {"must_trump": True},
        "point_scheme=rank": {"point_scheme": "rank"},
    },
    "scoring": {"standard": {}, "short_penalty=symmetric": {"short_penalty": "symmetric"}},
}
#: Metrics of :func:`simulate` kept by :func:`compare_variants`.
KEY_METRICS: tuple[str, ...] = ("declarer_tricks_mean", "status", "final_mean", "balance", "draw_rate_b0",
                                "plays_mean", "bid_level", "best_bid")
#: Bid offsets relative to the bidding policy's target judged by :func:`asymmetry`.
OFFSETS: tuple[int, ...] = (-2, -1, 0, 1, 2, 3)


def compare_variants(variants: str | Mapping[str, dict] = "play", hands: int = 20_000, seed: int | None = 0, *,
                     policies: Any = "greedy", bidding: Any = "expected", workers: int = 1,
                     progress: bool = True, executor=None, scheduler: str | None = None,
                     checkpoint=None) -> pd.DataFrame:
    """:func:`kaptai.heaven11.simulate.simulate` under each variant on the same seed; key metrics only.

    Every variant runs in one run of the shared runner (``workers``, ``executor``,
    ``scheduler``; ``checkpoint``: one directory for the whole comparison); the table does not
    depend on them.  ``seed`` None: one fresh entropy for every variant
    (``df.attrs['seed_entropy']``).

    Returns the simulate columns plus ``variant`` (first column).

    >>> df = compare_variants({"a": {}, "b": {"must_trump": True}}, hands=500, seed=1, progress=False)
    >>> sorted(set(df.variant))
    ['a', 'b']
    """
    if isinstance(variants, str):
        if variants not in VARIANT_SETS:
            from kaptai.errors import RulesError, quote_token

            raise RulesError(f"unknown variant set {quote_token(variants)}: expected one of "
                             + ", ".join(repr(k) for k in VARIANT_SETS) + " (or 'asymmetry', 'leading' on the command line)")
        variants = VARIANT_SETS[variants]
    workers = check_count("workers", workers, 1)
    seed = resume_seed(seed, checkpoint)
    entropy = check_seed(seed)
    if not isinstance(variants, Mapping) or not variants:
        from kaptai.errors import RulesError, quote_token

        raise RulesError(f"variants={quote_token(variants)}: expected a variant set name or a mapping of "
                         "labels to rule options")
    labels = list(variants)
    built = [tallies_job(opts, hands, entropy, policies=policies, bidding=bidding) for opts in variants.values()]
    counts = run_jobs([job for job, _ in built], workers=workers, executor=executor, scheduler=scheduler,
                      checkpoint=checkpoint, progress=progress, desc="heaven-eleven fairness",
                      fingerprint={"game": "heaven-eleven", "kind": "fairness", "variants": labels,
                                   "seed_entropy": entropy})
    parts = []
    for label, (_, meta), t in zip(labels, built, counts):
        df = tallies_frame(t, meta["config"])
        df = df[df.metric.isin(KEY_METRICS) & (df.relative_to.isna() | df.relative_to.isin(
            ["declarer", "rules=as_written", "rules=symmetric"]))].copy()
        df.insert(0, "variant", label)
        parts.append(df)
    out = pd.concat(parts, ignore_index=True)
    out.attrs.update({"seed_entropy": entropy, "hands": hands, "variants": {k: dict(v) for k, v in variants.items()}})
    return out


def fairness(hands: int = 20_000, seed: int | None = 0, **kw) -> pd.DataFrame:
    """Sensitivity to ``reduction``, ``short_follow``, ``must_trump`` (and ``point_scheme``):
    :func:`compare_variants` on :data:`VARIANT_SETS` ``['play']``."""
    return compare_variants("play", hands, seed, **kw)


# ------------------------------------------------------------------ value of leading first
def _lead_chunk(task):
    rules, child, size = task
    outs = []
    for fl in ("declarer", "next"):
        cfg = make_config(rules=rules, first_leader=fl)
        o, _ = run_hands(cfg, "greedy", bit_generator(child), size)
        outs.append((cfg, o))
    (cfg, a), (_, b) = outs
    rows = np.arange(size)
    da, db = a["declarer"].astype(np.int64), b["declarer"].astype(np.int64)
    ta = a["tricks"][rows, da].astype(np.float64)
    tb = b["tricks"][rows, db].astype(np.float64)
    fa = a["finals"][rows, da].astype(np.float64)
    fb = b["finals"][rows, db].astype(np.float64)
    same = (a["hands"] == b["hands"]).all(axis=1) & (da == db) & (a["level"] == b["level"]) & (a["strain"] == b["strain"])
    dt, df = ta - tb, fa - fb
    return {"n": np.array([size]), "same": np.array([int(same.sum())]),
            "t": np.array([ta.sum(), (ta * ta).sum(), tb.sum(), (tb * tb).sum(), dt.sum(), (dt * dt).sum()]),
            "f": np.array([fa.sum(), (fa * fa).sum(), fb.sum(), (fb * fb).sum(), df.sum(), (df * df).sum()])}


def leading_first(hands: int = 20_000, seed: int | None = 0, rules=None, *, workers: int = 1,
                  progress: bool = True, executor=None, scheduler: str | None = None,
                  checkpoint=None) -> pd.DataFrame:
    """The value of leading the first play: the same deals and auctions (greedy play) with the
    declarer leading (the rules) and with the next seat leading; paired differences.

    Rows ``metric`` in ``tricks_declarer_leads, tricks_next_leads, tricks_gain`` and the same for
    ``score_*`` (the declarer's final), with 95% intervals.

    >>> df = leading_first(hands=1000, seed=2, progress=False)
    >>> bool(df.set_index("metric").loc["tricks_gain", "value"] > 0)
    True
    """
    hands = check_count("hands", hands, 1)
    entropy = check_seed(seed)
    from kaptai.heaven11.rules import resolve_rules

    r = resolve_rules(rules)
    plan = plan_chunks(hands, CHUNK_HANDS, entropy)
    tasks = [(r, c.seed, c.size) for c in plan]
    t = run_chunks(_lead_chunk, tasks, workers=workers, progress=progress, desc="heaven-eleven lead", sizes=plan,
                   executor=executor, scheduler=scheduler, checkpoint=checkpoint,
                   fingerprint={"game": "heaven-eleven", "job": "leading_first", "rules": r.to_dict(), "hands": hands,
                                "seed": entropy})
    n = int(t["n"][0])
    rows = []
    for key, label in (("t", "tricks"), ("f", "score")):
        v = t[key]
        for i, name in enumerate(("declarer_leads", "next_leads", "gain")):
            m, lo, hi = mean_interval(v[2 * i], v[2 * i + 1], n)
            rows.append({"metric": f"{label}_{name}", "value": float(m), "ci_low": float(lo), "ci_high": float(hi),
                         "samples": n, "method": "monte_carlo"})
    df = pd.DataFrame(rows)
    df.attrs.update({"seed_entropy": entropy, "hands": n, "paired_deals_identical": int(t["same"][0]),
                     "rules": r.to_dict(), "policies": "greedy", "bidding": "expected"})
    return df


# ------------------------------------------------------------------ the asymmetry
def _asym_chunk(task):
    cfg, child, size = task
    o, _ = run_hands(cfg, "greedy", bit_generator(child), size)
    rows = np.arange(size)
    d = o["declarer"].astype(np.int64)
    order = (d[:, None] + np.arange(4)[None, :] * cfg.play_step) % 4
    tr = o["tricks"].astype(np.int64)[rows[:, None], order]
    target = declarer_target(o["hands"][rows, d], cfg.bid_table)
    out = {"n": np.array([size]), "ev": np.zeros((2, len(OFFSETS), 2)), "best": np.zeros((2, 10, 2)),
           "status": np.zeros((len(OFFSETS), 3), dtype=np.int64)}
    for r, sp in enumerate(("none", "symmetric")):
        for j, off in enumerate(OFFSETS):
            lv = np.clip(target + off, 0, 9)
            f0 = finals_array(lv, tr, sp)[:, 0].astype(np.float64)
            out["ev"][r, j] += [f0.sum(), (f0 * f0).sum()]
            if r == 0:
                m = tr[:, 0] - 4
                out["status"][j] += [int((m < lv).sum()), int((m == lv).sum()), int((m > lv).sum())]
        for b in range(10):
            f0 = finals_array(np.full(size, b), tr, sp)[:, 0].astype(np.float64)
            out["best"][r, b] += [f0.sum(), (f0 * f0).sum()]
    return out


def asymmetry(hands: int = 20_000, seed: int | None = 0, rules=None, *, workers: int = 1,
              progress: bool = True, executor=None, scheduler: str | None = None,
              checkpoint=None) -> pd.DataFrame:
    """The short-vs-over asymmetry in numbers (§6.10).

    The hands are dealt, bid (``expected``) and played with greedy; then each hand's declarer is
    scored as if it had bid ``target + offset`` (:data:`OFFSETS`; target = the bidding policy's
    expected origin grade, clipped to 0-9) under the rules as written (``short_penalty='none'``)
    and under the symmetric option.  Greedy play ignores the contract, so these are paired
    counterfactuals on the same tricks.

    Rows: ``ev_offset`` (level = offset), ``p_short``/``p_match``/``p_over`` (level = offset;
    they do not depend on the scoring rule), ``ev_fixed_level`` (level = b, every hand bid at b),
    ``best_offset`` and ``best_fixed_level``; column ``rules`` is ``'as_written'`` or ``'symmetric'``.
    """
    hands = check_count("hands", hands, 1)
    entropy = check_seed(seed)
    cfg = make_config(rules=rules)
    plan = plan_chunks(hands, CHUNK_HANDS, entropy)
    tasks = [(cfg, c.seed, c.size) for c in plan]
    t = run_chunks(_asym_chunk, tasks, workers=workers, progress=progress, desc="heaven-eleven asymmetry", sizes=plan,
                   executor=executor, scheduler=scheduler, checkpoint=checkpoint,
                   fingerprint={"game": "heaven-eleven", "job": "asymmetry", "rules": cfg.rules.to_dict(),
                                "hands": hands, "seed": entropy})
    n = int(t["n"][0])
    rows = []

    def add(rules_label, metric, level, value, lo=math.nan, hi=math.nan):
        rows.append({"rules": rules_label, "metric": metric, "level": level, "value": float(value),
                     "ci_low": float(lo), "ci_high": float(hi), "samples": n, "method": "monte_carlo"})

    for r, label in enumerate(("as_written", "symmetric")):
        evs = []
        for j, off in enumerate(OFFSETS):
            m, lo, hi = mean_interval(t["ev"][r, j, 0], t["ev"][r, j, 1], n)
            add(label, "ev_offset", off, m, lo, hi)
            evs.append(float(m))
            if r == 0:
                for k, name in enumerate(("p_short", "p_match", "p_over")):
                    lo2, hi2 = wilson_interval(t["status"][j, k], n)
                    for lab in ("as_written", "symmetric"):
                        add(lab, name, off, t["status"][j, k] / n, lo2, hi2)
        add(label, "best_offset", int(OFFSETS[int(np.argmax(evs))]), OFFSETS[int(np.argmax(evs))])
        fixed = []
        for b in range(10):
            m, lo, hi = mean_interval(t["best"][r, b, 0], t["best"][r, b, 1], n)
            add(label, "ev_fixed_level", b, m, lo, hi)
            fixed.append(float(m))
        add(label, "best_fixed_level", int(np.argmax(fixed)), int(np.argmax(fixed)))
    df = pd.DataFrame(rows)
    df["level"] = df["level"].astype("Int64")
    df.attrs.update({"seed_entropy": entropy, "hands": n, "rules": cfg.rules.to_dict(), "policies": "greedy",
                     "bidding": "expected", "offsets": list(OFFSETS)})
    return df


#: The tables of :func:`search_bidding`: label -> the bidding policy of physical seats 0..3.
BIDDING_TABLES: Mapping[str, tuple[str, ...]] = {
    "expected x4": ("expected",) * 4,
    "search x4": ("search",) * 4,
    "search at seat 0": ("search", "expected", "expected", "expected"),
}


def _mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    m = float(x.mean())
    h = 1.959963984540054 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else 0.0
    return m, m - h, m + h


def search_bidding(hands: int = 4000, seed: int | None = 0, *, play: str = "greedy", bid_samples: int | None = None,
                   chunk: int = 500, progress: bool = False) -> pd.DataFrame:
    """What the ``search`` bidder does to the declarer's expectation and the seat spread, per scoring.

    For the rules as written and ``short_penalty='symmetric'``, each table of :data:`BIDDING_TABLES`
    plays ``hands`` hands (``play`` at every seat; chunks of ``chunk`` hands on streams spawned from
    ``seed``, the same streams for every table).  Rows ``(rules, table, metric, seat, value, ci_low,
    ci_high, hands)``; seats are declarer-relative (0 = the declarer, then the defenders in play
    order) except ``search_seat_ev`` / ``search_seat_declares`` (the physical seat 0 of the mixed
    table).  ``seat_spread`` = max - min of the four seat EVs, with the atlas's simultaneous interval
    (:func:`kaptai.core.stats.seat_spread_of`).

    Examples
    --------
    >>> df = search_bidding(hands=40, seed=1, bid_samples=2, chunk=20)
    >>> sorted(set(df.table)) == sorted(BIDDING_TABLES)
    True
    """
    from kaptai.heaven11.atlas import hand_rows

    hands = check_count("hands", hands, 1)
    entropy = check_seed(seed)
    rows: list[tuple] = []
    n_chunks = -(-hands // chunk)
    for label, sp in (("as_written", "none"), ("symmetric", "symmetric")):
        cfg = make_config(rules={"short_penalty": sp}, bid_samples=bid_samples or make_config().bid_samples)
        for table, bids in BIDDING_TABLES.items():
            seqs = np.random.SeedSequence(entropy).spawn(n_chunks)
            outs = []
            for i, ss in enumerate(seqs):
                m = min(chunk, hands - i * chunk)
                outs.append(run_hands(cfg, play, np.random.PCG64(ss), m, bidding=list(bids))[0])
            out = {k: np.concatenate([o[k] for o in outs]) for k in outs[0]}
            n = len(out["declarer"])
            net = hand_rows(out, cfg)["net"]
            order = (out["declarer"].astype(np.int64)[:, None] + np.arange(4)[None, :] * cfg.play_step) % 4
            t0 = out["tricks"].astype(np.int64)[np.arange(n), order[:, 0]]
            m_grade, level = t0 - 4, out["level"].astype(np.int64)

            def add(metric, seat, v, lo=math.nan, hi=math.nan, key=(label, table, n)):
                rows.append((key[0], key[1], metric, seat, float(v), float(lo), float(hi), key[2]))

            cis = [_mean_ci(net[:, s]) for s in range(4)]
            for s in range(4):
                add("seat_ev", s, *cis[s])
            add("seat_spread", None, *seat_spread_of([c[0] for c in cis], [c[1] for c in cis], [c[2] for c in cis]))
            add("declarer_ev", 0, *_mean_ci(net[:, 0]))
            add("mean_level", 0, *_mean_ci(level.astype(np.float64)))
            add("redeals_per_hand", None, *_mean_ci(out["redeals"].astype(np.float64)))
            for name, flag in (("p_short", m_grade < level), ("p_match", m_grade == level), ("p_over", m_grade > level)):
                k = int(flag.sum())
                lo, hi = wilson_interval(k, n)
                add(name, 0, k / n, lo, hi)
            if table == "search at seat 0":
                add("search_seat_ev", None, *_mean_ci(out["finals"][:, 0].astype(np.float64)))
                k = int((out["declarer"] == 0).sum())
                lo, hi = wilson_interval(k, n)
                add("search_seat_declares", None, k / n, lo, hi)
    df = pd.DataFrame(rows, columns=["rules", "table", "metric", "seat", "value", "ci_low", "ci_high", "hands"])
    df = df.astype({"seat": "Int64"})
    df.attrs.update(seed_entropy=entropy, play=play, bid_samples=bid_samples or make_config().bid_samples,
                    hands=hands, method="monte_carlo")
    return df


def skill_by_seat(hands: int = 2000, seed: int | None = 0, *, rules: tuple[str, ...] = ("standard", "symmetric"),
                  strong: str = "search", default: str = "greedy", weak: str = "random") -> pd.DataFrame:
    """How much skill is worth, per seat: ``strong`` against the default policy and against ``weak``.

    For each rules preset and each declarer-relative seat ``s`` (0 = the declarer), three tables of
    ``hands`` hands through the atlas feed (:func:`kaptai.heaven11.atlas.play_out`, every seat bids
    ``expected``): ``strong`` at seat ``s`` and ``default`` elsewhere, ``weak`` at ``s`` and
    ``default`` elsewhere, and ``default`` everywhere.  Rows ``(rules, seat, metric, value, ci_low,
    ci_high, hands)``: ``ev_<policy>`` (the seat's mean final) and ``strong_minus_default``,
    ``strong_minus_weak`` (independent tables: the variances add), in points per hand.

    Examples
    --------
    >>> df = skill_by_seat(hands=8, seed=1, rules=("standard",), strong="greedy")
    >>> sorted(set(df.metric))
    ['ev_greedy', 'ev_random', 'strong_minus_default', 'strong_minus_weak']
    """
    from kaptai.core.atlas import AtlasVariant
    from kaptai.heaven11.atlas import hand_rows, play_out, variant_config

    hands = check_count("hands", hands, 1)
    entropy = check_seed(seed)
    rows: list[tuple] = []
    for ri, preset in enumerate(rules):
        cfg = variant_config(AtlasVariant(preset, preset, 4, preset))
        base_net = hand_rows(play_out(cfg, [default] * 4, hands, np.random.PCG64(
            np.random.SeedSequence([entropy, ri, 9, 0]))), cfg)["net"]
        for s in range(4):
            nets = {default: base_net[:, s]}
            for pi, pol in enumerate((strong, weak)):
                if pol == default:
                    continue
                pols = [default] * 4
                pols[s] = pol
                out = play_out(cfg, pols, hands, np.random.PCG64(np.random.SeedSequence([entropy, ri, s, pi + 1])),
                               split=True)
                nets[pol] = hand_rows(out, cfg)["net"][:, s]
            stats = {p: _mean_ci(x) for p, x in nets.items()}
            var = {p: float(x.var(ddof=1)) / len(x) for p, x in nets.items()}
            for p, (m, lo, hi) in stats.items():
                rows.append((preset, s, f"ev_{p}", m, lo, hi, hands))
            for name, other in (("strong_minus_default", default), ("strong_minus_weak", weak)):
                d = stats[strong][0] - stats[other][0]
                h = 1.959963984540054 * math.sqrt(var[strong] + var[other]) if strong != other else 0.0
                rows.append((preset, s, name, d, d - h, d + h, hands))
    df = pd.DataFrame(rows, columns=["rules", "seat", "metric", "value", "ci_low", "ci_high", "hands"])
    df.attrs.update(seed_entropy=entropy, strong=strong, default=default, weak=weak, method="monte_carlo",
                    bidding="expected")
    return df
