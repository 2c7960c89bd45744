"""Throughput of the Nantong long cards (南通長牌) hand analysis and engine.

Run ``python benchmarks/bench_nantong.py [--quick]``; prints one row per measurement.
``run(quick)`` returns the rows as dicts ``{name, value, unit, repeats}`` (plus ``target``
where there is one).  One core, medians of several timed runs after a warm-up:

Rates are per second of the process's CPU time (one core; the machine may be shared), with
the wall-clock rate in ``wall_clock``.

* the build of the per-suit tables (a fresh process, so it is really built);
* completeness + waits of a mix of dealt 22- and 23-card hands (half near-complete, half
  random) through the compiled tables (target >= 1,000,000 hands/s), the same with the
  reference decomposer (:mod:`kaptai.nantong.reference`) and the ratio (target >= 1,000x);
* the exact distance from ready of dealt 22-card hands;
* the exact deal tables (:func:`kaptai.nantong.odds.deal_odds`, target < 10 s each) and the
  engine with ``max_melds`` (target >= 10,000 complete 3-player hands/s), when present;
* the ``search`` policy at its default budget: decisions per second (one search seat against
  two max_melds seats, the league's table; and the same with the discard rule before 2026-12-05,
  ``choice='guard'`` with 4 candidates, for the ratio), complete hands per second of a table of three
  ``search`` players, and the median time of ``kaptai advise nantong`` (target <= 200 ms).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from _timing import Rows, run_python


def _hands(n: int, seed: int = 1) -> np.ndarray:
    """n hands: alternately 23 and 22 cards; half built from 1 pair + 7 melds (one card
    swapped or dropped), half dealt uniformly."""
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(30), 4)
    out = np.zeros((n, 30), dtype=np.uint8)
    starts = [k for k in range(27) if k % 9 <= 6]
    for i in range(n):
        size = 23 if i % 2 == 0 else 22
        if i % 4 < 2:
            pick = rng.choice(120, size, replace=False)
            out[i] = np.bincount(deck[pick], minlength=30)
            continue
        while True:
            c = np.zeros(30, dtype=np.int64)
            for _ in range(7):
                if rng.random() < 0.5:
                    c[rng.integers(30)] += 3
                else:
                    k = starts[rng.integers(len(starts))]
                    c[k:k + 3] += 1
            c[rng.integers(30)] += 2
            if c.max() <= 4:
                break
        if size == 22:
            c[rng.choice(np.nonzero(c)[0])] -= 1
        elif rng.random() < 0.5:
            c[rng.choice(np.nonzero(c)[0])] -= 1
            c[rng.choice(np.nonzero(c < 4)[0])] += 1
        out[i] = c
    return out


def _median_rate(fn, n: int, repeats: int) -> tuple[float, int]:
    """Median rate per second of this process's CPU time (``time.process_time``: one core,
    robust on a shared machine); the wall-clock rates are kept in ``_WALL``."""
    fn()
    rates, walls = [], []
    for _ in range(repeats):
        w0, t0 = time.perf_counter(), time.process_time()
        fn()
        rates.append(n / max(time.process_time() - t0, 1e-9))
        walls.append(n / (time.perf_counter() - w0))
    _WALL.append(statistics.median(walls))
    return statistics.median(rates), repeats


_WALL: list[float] = []


def run(quick: bool = False) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit', 'repeats'}``.

    Parameters
    ----------
    quick : bool
        Fewer hands and repeats (a smoke run).
    """
    out: list[dict] = Rows()

    def row(name, value, unit, reps, **extra):
        if unit.endswith("/s") and _WALL:
            extra["wall_clock"] = round(_WALL[-1], 1)
        out.append({"name": name, "value": float(value), "unit": unit, "repeats": reps, **extra})

    code = "import time; t=time.perf_counter(); from kaptai.nantong import _eval; _eval.build_tables(); print(time.perf_counter()-t)"
    builds = [float(run_python(code)) for _ in range(1 if quick else 3)]
    row("per-suit table build (fresh process)", 1000 * statistics.median(builds), "ms", len(builds), target="< 3000")

    from kaptai.nantong import _eval, reference

    _eval.build_tables()
    repeats = 3 if quick else 7
    n = 200_000 if quick else 1_000_000
    hands = _hands(n)
    comp = np.zeros(n, np.uint8)
    waits = np.zeros(n, np.uint32)
    rate, reps = _median_rate(lambda: _eval.analyze_batch(hands, 0, comp, waits), n, repeats)
    row("compiled completeness + waits, 22/23 cards", rate, "hands/s", reps, target=">= 1,000,000")

    n_ref = 1_000 if quick else 4_000
    ref_hands = hands[:n_ref]

    def ref():
        for h in ref_hands:
            if int(h.sum()) % 3 == 2:
                reference.is_complete(h)
            else:
                reference.waits(h)

    ref_rate, ref_reps = _median_rate(ref, n_ref, 1 if quick else 3)
    row("reference completeness + waits, 22/23 cards", ref_rate, "hands/s", ref_reps)
    row("speed-up compiled/reference (completeness + waits)", rate / ref_rate, "x", ref_reps, target=">= 1,000")

    h22 = np.ascontiguousarray(hands[1::2])
    dist = np.zeros(h22.shape[0], np.int8)
    drate, reps = _median_rate(lambda: _eval.distance_batch(h22, 0, dist), h22.shape[0], repeats)
    row("compiled distance from ready, 22 cards", drate, "hands/s", reps)

    try:
        from kaptai.nantong.odds import deal_odds
    except ImportError as exc:  # pragma: no cover
        print(f"note: odds not available ({exc})", file=sys.stderr)
    else:
        for players in (3, 4):
            t0 = time.perf_counter()
            deal_odds(players)
            row(f"exact deal tables, {players} players (all metrics)", 1000 * (time.perf_counter() - t0), "ms", 1,
                target="< 10000 per table")

    try:
        from kaptai.nantong.config import make_config
        from kaptai.nantong.engine import run_hands
    except ImportError as exc:  # pragma: no cover
        print(f"note: engine not available ({exc})", file=sys.stderr)
    else:
        cfg = make_config(3)
        nh = 5_000 if quick else 50_000
        seeds = iter(range(10**6))
        erate, reps = _median_rate(lambda: run_hands(cfg, nh, seed=next(seeds), policies="max_melds"), nh, repeats)
        row("compiled engine max_melds, 3 players", erate, "hands/s", reps, target=">= 10,000")
        nr = 20 if quick else 100
        rrate, rreps = _median_rate(
            lambda: run_hands(cfg, nr, seed=next(seeds), policies="max_melds", compiled=False), nr, 1 if quick else 3)
        row("reference engine max_melds, 3 players", rrate, "hands/s", rreps)
        row("speed-up engine compiled/reference", erate / rrate, "x", rreps)
        out += _search_rows(quick)
    return out


def _search_rows(quick: bool) -> list[dict]:
    """The search policy and the advisor at their default budgets (CPU time of this process)."""
    from kaptai.nantong.advisor import DEFAULT_ADVISE_SAMPLES, advise
    from kaptai.nantong.config import DEFAULT_SAMPLES, make_config
    from kaptai.nantong.engine import run_hands

    rows = []
    cfg = make_config(3)
    nh = 10 if quick else 60
    log: list = []
    from kaptai.nantong.engine import search_stats

    s0 = search_stats()
    w0, t0 = time.perf_counter(), time.process_time()
    run_hands(cfg, nh, seed=3, policies=["search", "max_melds", "max_melds"], decision_log=log)
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    s1 = search_stats()
    rows.append({"name": f"search decisions, S={DEFAULT_SAMPLES}, 1 search + 2 max_melds", "value": len(log) / cpu,
                 "unit": "decisions/s", "repeats": 1, "wall_clock": round(len(log) / wall, 1),
                 "hands": nh, "decisions": len(log)})
    nd = max(1, s1["decisions"] - s0["decisions"])
    rows.append({"name": f"search inference: mean effective sample size of {cfg.particles * DEFAULT_SAMPLES} particles",
                 "value": (s1["ess"] - s0["ess"]) / nd, "unit": "particles", "repeats": 1,
                 "fallbacks": s1["fallbacks"] - s0["fallbacks"]})
    # the search before 2026-12-05 (the guard, 4 candidates) in the same run, and uniform layouts
    for label, other in (("choice='guard', 4 candidates (before)", make_config(3, choice="guard", candidates=4)),
                         ("uniform layouts (particles=0)", make_config(3, particles=0))):
        olog: list = []
        t0 = time.process_time()
        run_hands(other, nh, seed=3, policies=["search", "max_melds", "max_melds"], decision_log=olog)
        cpu = time.process_time() - t0
        rows.append({"name": f"search decisions, S={DEFAULT_SAMPLES}, {label}", "value": len(olog) / cpu,
                     "unit": "decisions/s", "repeats": 1, "decisions": len(olog)})
    n4 = 4 if quick else 20
    w0, t0 = time.perf_counter(), time.process_time()
    run_hands(cfg, n4, seed=4, policies="search")
    cpu, wall = time.process_time() - t0, time.perf_counter() - w0
    rows.append({"name": "complete hands, a table of 3 search players", "value": n4 / cpu, "unit": "hands/s",
                 "repeats": 1, "wall_clock": round(n4 / wall, 1)})
    positions = _advice_positions(5 if quick else 21)
    advise(positions[0], samples=DEFAULT_ADVISE_SAMPLES)  # warm-up
    times = []
    for i, hand in enumerate(positions):
        t0 = time.process_time()
        advise(hand, samples=DEFAULT_ADVISE_SAMPLES, seed=i)
        times.append(1000 * (time.process_time() - t0))
    rows.append({"name": f"advise median, {DEFAULT_ADVISE_SAMPLES} layouts, dealt 23-card hands",
                 "value": statistics.median(times), "unit": "ms", "repeats": len(times), "target": "<= 200"})
    return rows


def _advice_positions(n: int) -> list[list[int]]:
    """``n`` dealt 23-card hands (kinds)."""
    rng = np.random.default_rng(7)
    deck = np.repeat(np.arange(30), 4)
    return [sorted(int(k) for k in deck[rng.choice(120, 23, replace=False)]) for _ in range(n)]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for r in run(quick="--quick" in argv):
        wall = f", wall clock {r['wall_clock']:,.1f}" if "wall_clock" in r else ""
        print(f"{r['name']:<52} {r['value']:>14,.1f} {r['unit']}  (median of {r['repeats']}{wall})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
