"""Throughput of the nine-ten (九支十仔) engine: compiled against the pure-Python reference.

Run ``python benchmarks/bench_nineten.py [--quick]``; prints one row per measurement.
``run(quick)`` returns the rows as dicts ``{name, value, unit, repeats}`` (plus ``target``
where there is one).

Measured on one core, complete hands (deal, natural check, play to a win or a drawn hand,
scoring), the median of several timed runs after a warm-up:

* the compiled engine (:mod:`kaptai.nineten._engine`), 5 players, default rules, with the
  ``colour_cut`` (target >= 50,000 hands/s), ``live_first`` and ``random`` policies, and
  ``colour_cut`` at 4 and 7 players;
* the reference engine (:mod:`kaptai.nineten.engine_reference`) with ``colour_cut`` at 5
  players and the compiled/reference ratio (target >= 100x);
* every exact table (``deal_odds`` for 4-15 players, cold caches, CPU time of the process;
  target < 1 s each);
* the ``search`` policy at its default budget (``config.SEARCH_SAMPLES`` layouts a decision),
  4 players: search decisions per second (one search seat against three ``colour_cut``, the
  decisions counted by the engine, :func:`kaptai.nineten._engine.search_stats`), with uniform
  layouts (``search_infer=0``, the search before its inference) and with the default inference
  (its mean effective sample size too), complete hands
  per second of a table of four ``search`` players, and the median time of
  :func:`kaptai.nineten.advisor.advise` at its default budget (``ADVISE_SAMPLES`` layouts) over
  positions taken from played hands (target <= 200 ms).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _timing import Rows, median_rate

from kaptai.nineten import _engine
from kaptai.nineten.config import POLICY_CODES, make_config


def _compiled(cfg, policy: str):
    codes = [POLICY_CODES[policy]] * cfg.players
    seed = iter(range(10**6))
    return lambda n: _engine.run_hands(cfg, codes, np.random.PCG64(next(seed)), n)


def _reference(cfg, policy: str):
    from kaptai.nineten.engine_reference import run_hands

    seed = iter(range(10**6))
    return lambda n: run_hands(cfg, [policy] * cfg.players, np.random.PCG64(next(seed)), n)


def run(quick: bool = False) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit', 'repeats'}``.

    Parameters
    ----------
    quick : bool
        Fewer hands and repeats (a smoke run).
    """
    repeats = 3 if quick else 7
    n_fast = 20_000 if quick else 200_000
    n_ref = 200 if quick else 2_000
    five = make_config(5)
    out: list[dict] = Rows()

    def row(name, value, unit, reps, **extra):
        out.append({"name": name, "value": float(value), "unit": unit, "repeats": reps, **extra})

    rates = {}
    for policy in ("colour_cut", "live_first", "random"):
        rates[policy], reps = median_rate(_compiled(five, policy), n_fast, repeats)
        extra = {"target": ">= 50,000"} if policy == "colour_cut" else {}
        row(f"compiled {policy} 5p", rates[policy], "hands/s", reps, **extra)
    for players in (4, 7):
        rate, reps = median_rate(_compiled(make_config(players), "colour_cut"), n_fast // 2, repeats)
        row(f"compiled colour_cut {players}p", rate, "hands/s", reps)
    ref, reps = median_rate(_reference(five, "colour_cut"), n_ref, max(1, repeats // 2), budget=10.0 if quick else None)
    row("reference colour_cut 5p", ref, "hands/s", reps)
    row("speed-up colour_cut compiled/reference", rates["colour_cut"] / ref, "x", reps, target=">= 100")

    from kaptai.nineten import odds

    worst = 0.0
    for players in range(4, 16):
        odds.hand_distribution.cache_clear()
        odds.pair_joint.cache_clear()
        odds._colour_gf.cache_clear()
        odds._class_gf.cache_clear()
        for name in ("_seat_draws", "_class_draws", "_class_poly", "_last_seat", "table_joint"):
            getattr(odds, name).cache_clear()
        t0 = time.process_time()
        odds.deal_odds(players)
        worst = max(worst, time.process_time() - t0)
    row("slowest deal_odds table (4-15 players, cold caches, CPU)", 1000 * worst, "ms", 1, target="< 1000")
    out.extend(search_rows(quick))
    return out


def search_rows(quick: bool = False) -> list[dict]:
    """The rows of the ``search`` policy and the advisor (see the module docstring)."""
    import statistics

    from kaptai.nineten.advisor import advise
    from kaptai.nineten.config import SEARCH_SAMPLES

    out: list[dict] = []
    four = make_config(4)
    hands = 20 if quick else 150
    for infer in (0, four.search_infer):
        cfg = make_config(4, search_infer=infer)
        t0, c0 = time.perf_counter(), time.process_time()
        before = _engine.search_stats()
        _engine.run_hands(cfg, [POLICY_CODES["search"]] + [POLICY_CODES["colour_cut"]] * 3, np.random.PCG64(1), hands)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        after = _engine.search_stats()
        n_dec = after["decisions"] - before["decisions"]
        n_inf = after["inferred"] - before["inferred"]
        what = "uniform layouts (search_infer=0)" if infer == 0 else f"inference, search_infer={infer}"
        out.append({"name": f"search decisions/s 4p ({SEARCH_SAMPLES} layouts, 1 search seat, {what})",
                    "value": n_dec / dt, "unit": "decisions/s", "repeats": 1, "decisions": n_dec,
                    "cpu_decisions_per_s": n_dec / dc,
                    "mean_ess": (after["ess"] - before["ess"]) / n_inf if n_inf else None,
                    "inferred": n_inf})
    n4 = 5 if quick else 40
    t0 = time.perf_counter()
    _engine.run_hands(four, [POLICY_CODES["search"]] * 4, np.random.PCG64(2), n4)
    out.append({"name": "hands/s of a table of four search players", "value": n4 / (time.perf_counter() - t0),
                "unit": "hands/s", "repeats": 1})
    rng = np.random.default_rng(3)
    kinds = np.repeat(np.arange(28), 4)
    times: list[float] = []
    cpu: list[float] = []
    for _ in range(5 if quick else 25):
        cards = rng.permutation(kinds)
        hand, seen = cards[:10], cards[10:10 + int(rng.integers(0, 30))]
        if not (np.bincount(hand, minlength=28) & 1).any():
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        advise(hand.tolist(), seen=seen.tolist())
        times.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    out.append({"name": "advise median CPU (default budget, one core)", "value": 1000 * statistics.median(cpu),
                "unit": "ms", "repeats": len(cpu), "target": "<= 200"})
    out.append({"name": "advise median wall clock (shared machine)", "value": 1000 * statistics.median(times),
                "unit": "ms", "repeats": len(times)})
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for r in run(quick="--quick" in argv):
        print(f"{r['name']:<48} {r['value']:>14,.1f} {r['unit']}  (median of {r['repeats']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
