"""Wall time of ``kaptai review``: every decision of one seat of a Big Two record.

Run ``python benchmarks/bench_review.py [--quick] [--hands N] [--workers W] [--no-cross-fit]``.
``run(quick)`` returns rows ``{name, value, unit, ...}``:

* ``review big-two, 1 seat``: a record of ``--hands`` (1,000; 100 with ``--quick``) four-player
  games of ``search`` at every seat (written first, untimed), reviewed for seat 0 at the
  default 32 layouts a set, cross-fitted (the default: two sets, so the advisor is asked twice a
  decision; ``--no-cross-fit``: once) on ``--workers`` (2) worker processes: the wall time in
  seconds (the replay of every hand in the reference engine, the advisor on every decision with
  two or more options, the merge), with ``decisions`` reviewed, ``cross_fit``, ``per_decision_ms`` (wall time /
  decisions), ``cpu_s`` (CPU seconds of this process and the workers) and ``load`` (the
  1-minute load average at the end: on a shared machine the wall time is the CPU time spread
  over what the machine gives).  The target is under 120 s for 1,000 hands on 2 workers.
  The review's own numbers come with it (``matched_share``, ``mean_loss`` and its interval
  ``mean_loss_low``/``mean_loss_high``, ``total_loss``): a change made for speed must leave them
  as they were (the same record, seed and layouts, the same review).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from _timing import Rows

if __name__ == "__main__":  # run as a script: the in-place build, else the installed package (see run.py)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run import select_kaptai

    select_kaptai()

from kaptai.bigtwo import play as adapter  # noqa: E402
from kaptai.core.review import review, summarize  # noqa: E402
from kaptai.records import record_hands  # noqa: E402

TARGET_S = 120.0


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the worker processes)."""
    import resource

    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def run(quick: bool = False, hands: int | None = None, workers: int = 2, cross_fit: bool = True) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit', 'repeats', ...}``."""
    n = int(hands if hands is not None else (100 if quick else 1000))
    out: list[dict] = Rows()
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "b2.jsonl")
        record_hands("big-two", path, players=4, hands=n, seed=1, policies="search")
        t, c0 = time.perf_counter(), _cpu()
        df = review(adapter, path, "big-two", seats=[0], seed=0, samples=32, workers=workers, progress=False,
                    cross_fit=cross_fit)
        wall, cpu = time.perf_counter() - t, _cpu() - c0
    k = len(df)
    summ = summarize(df, per_hand=False)
    rec = summ[summ.level == "record"].iloc[0] if k else None
    review_numbers = {c: (float(rec[c]) if rec is not None else float("nan"))
                      for c in ("matched_share", "mean_loss", "mean_loss_low", "mean_loss_high", "total_loss")}
    how = "cross-fitted" if cross_fit else "same layouts"
    out.append({"name": f"review big-two, 1 seat, {n:,} hands, {workers} workers, {how}", "value": wall, "unit": "s",
                "repeats": 1, "decisions": k, "cross_fit": bool(df.attrs["cross_fit"]), "per_decision_ms": 1000 * wall / max(k, 1), "cpu_s": cpu,
                "load": os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan"),
                "target": f"< {TARGET_S:.0f} s for 1,000 hands on 2 workers", **review_numbers})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--hands", type=int, default=None)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cross-fit", action=argparse.BooleanOptionalAction, default=True)
    a = ap.parse_args(argv)
    for r in run(a.quick, a.hands, a.workers, a.cross_fit):
        print(f"{r['name']:<72} {r['value']:>10,.1f} {r['unit']:<4} {r['decisions']:,} decisions, "
              f"{r['per_decision_ms']:.1f} ms a decision, {r['cpu_s']:.1f} CPU s, load {r['load']:.1f}  "
              f"(target {r['target']})")
        print(f"  the review: {r['matched_share']:.6f} matched, mean loss {r['mean_loss']:.6f} "
              f"[{r['mean_loss_low']:.6f}, {r['mean_loss_high']:.6f}], total loss {r['total_loss']:.5f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
