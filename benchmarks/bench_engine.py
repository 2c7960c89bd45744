"""Throughput of the Kap Tai Shap game engine: compiled against the pure-Python reference.

Run ``python benchmarks/bench_engine.py [--quick]``; prints one row per measurement.
``run(quick)`` returns the rows as dicts ``{name, value, unit}``.

Measured on one core, complete 4-player hands (deal, play to a win or an empty wall),
the median of several timed runs after a warm-up:

* compiled engine with ``random``, ``greedy``, ``score`` and ``lookahead`` policies
  (traditional rules), and ``greedy`` / ``score`` / ``lookahead`` / ``lookahead_score`` with
  the advanced forms
  (issue 17 targets: greedy >= 100,000 / 60,000 hands/s, lookahead >= 2,000);
* the reference engine (:mod:`kaptai.kts.engine_reference`) with ``random``, ``greedy``
  and ``lookahead`` in the same run, and the compiled/reference ratios;
* the ``search`` policy at its default budget (``EngineConfig.search_samples`` layouts per
  decision): decisions per second and hands per second of one search seat among three
  ``lookahead`` players (both presets; ``_engine.search_stats()`` counts the decisions), and
  complete hands per second of a table of four ``search`` players, with the reference engine's
  search hands per second (a 2-layout budget, 2 players) and the compiled/reference ratio;
  the decisions per second of the other rollout policies (``search_rollout``: ``greedy``,
  ``own``, ``lookahead``) at the same seat, one run each;
* ``simulate`` of 4 ``lookahead`` players, one worker, in a fresh process (imports included:
  the issue-23 target is >= 2,000 hands/s under the advanced preset);
* growth of the peak resident memory over a run of many chunks (should be ~0: tallies
  are merged chunk by chunk).
"""

from __future__ import annotations

import resource
import statistics
import sys
import time

import numpy as np
from _timing import Rows, median_rate, run_python

from kaptai.kts import _engine
from kaptai.kts.config import SEARCH_ROLLOUTS, make_config
from kaptai.kts.engine_reference import run_hands as reference_run_hands
from kaptai.kts.policies import policy_codes


def _median(fn, n: int, repeats: int) -> float:
    return median_rate(fn, n, repeats)[0]


def _compiled(cfg, policy: str):
    codes = policy_codes([policy] * cfg.players)
    seed = iter(range(10**6))
    return lambda n: _engine.run_hands(cfg, codes, np.random.PCG64(next(seed)), n)


def _reference(cfg, policy: str):
    seed = iter(range(10**6))
    return lambda n: reference_run_hands(cfg, [policy] * cfg.players, np.random.PCG64(next(seed)), n)


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def run(quick: bool = False) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit'}``.

    Parameters
    ----------
    quick : bool
        Fewer hands and repeats (a smoke run of a few seconds).
    """
    repeats = 3 if quick else 7
    n_fast = 5_000 if quick else 50_000
    n_adv = 1_000 if quick else 10_000
    n_ref = 20 if quick else 150
    n_look = 200 if quick else 2_000
    n_look_ref = 2 if quick else 6
    trad = make_config(4, "traditional")
    adv = make_config(4, "advanced")
    out: list[dict] = Rows()

    def row(name, value, unit):
        out.append({"name": name, "value": float(value), "unit": unit})

    rates = {}
    for policy in ("random", "greedy", "score", "lookahead"):
        rates[policy] = _median(_compiled(trad, policy), n_look if policy == "lookahead" else n_fast, repeats)
        row(f"compiled {policy} 4p traditional", rates[policy], "hands/s")
    for policy in ("greedy", "score", "lookahead", "lookahead_score"):
        n = n_look // 4 if policy.startswith("lookahead") else n_adv
        row(f"compiled {policy} 4p advanced", _median(_compiled(adv, policy), n, repeats), "hands/s")
    for policy in ("random", "greedy", "lookahead"):
        n = n_look_ref if policy == "lookahead" else n_ref
        ref = _median(_reference(trad, policy), n, max(1, repeats // 2))
        row(f"reference {policy} 4p traditional", ref, "hands/s")
        row(f"speed-up {policy} compiled/reference", rates[policy] / ref, "x")

    for cfg, label, ref in ((trad, "traditional", 3), (adv, "advanced", 5)):
        n = 20 if quick else 200
        seeds = iter(range(10**6))
        rates_h, rates_d = [], []
        for _ in range(repeats):
            before_d = _engine.search_stats()["decisions"]
            t0 = time.process_time()
            _engine.run_hands(cfg, [6, ref, ref, ref], np.random.PCG64(next(seeds)), n)
            dt = max(time.process_time() - t0, 1e-9)
            rates_h.append(n / dt)
            rates_d.append((_engine.search_stats()["decisions"] - before_d) / dt)
        row(f"search seat + 3 look-ahead 4p {label}, {cfg.search_samples} layouts", statistics.median(rates_h),
            "hands/s")
        row(f"search decisions 4p {label}", statistics.median(rates_d), "decisions/s")
        row(f"compiled search x4 4p {label}", _median(_compiled(cfg, "search"), 5 if quick else 50,
                                                      max(1, repeats // 2)), "hands/s")
        for rollout in SEARCH_ROLLOUTS:         # the other rollout policies (search_rollout)
            if rollout == cfg.search_rollout:
                continue
            other = make_config(4, label, search_rollout=rollout)
            m = max(2, n // (20 if rollout == "lookahead" else 4))
            before_d = _engine.search_stats()["decisions"]
            t0 = time.process_time()
            _engine.run_hands(other, [6, ref, ref, ref], np.random.PCG64(next(seeds)), m)
            dt = max(time.process_time() - t0, 1e-9)
            row(f"search decisions 4p {label}, {rollout} rollouts", (_engine.search_stats()["decisions"] - before_d) / dt,
                "decisions/s")
    two = make_config(2, "traditional", search_samples=2)
    comp2 = _median(_compiled(two, "search"), 20 if quick else 200, max(1, repeats // 2))
    ref2 = _median(_reference(two, "search"), 1 if quick else 2, max(1, repeats // 2))
    row("reference search x2 Kap Shap, 2 layouts", ref2, "hands/s")
    row("speed-up search compiled/reference (Kap Shap)", comp2 / ref2, "x")

    # the issue-23 target as a user meets it: one fresh process, one worker, simulate() of
    # lookahead at every seat (its chunks share the process's memos); CPU seconds of the
    # whole process, imports included
    whole = 2_048 if quick else 20_480
    code = ("import time; from kaptai.kts.simulate import simulate; "
            f"simulate(4, '{{}}', {whole}, seed=1, policies='lookahead', workers=1, progress=False); "
            "print(time.process_time())")
    for label in ("advanced", "traditional"):
        times = [float(run_python(code.format(label))) for _ in range(1 if quick else 3)]
        row(f"simulate lookahead 4p {label}, whole process ({whole:,} hands)",
            whole / statistics.median(times), "hands/s")

    from kaptai.kts.simulate import CHUNK_HANDS, simulate

    simulate(4, "traditional", CHUNK_HANDS, seed=0, progress=False)
    before = _peak_rss_mb()
    simulate(4, "traditional", (5 if quick else 40) * CHUNK_HANDS, seed=0, progress=False)
    row("peak RSS growth over a many-chunk run", _peak_rss_mb() - before, "MB")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for r in run(quick="--quick" in argv):
        print(f"{r['name']:<42} {r['value']:>14,.1f} {r['unit']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
