"""Timing shared by the benchmark modules."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def median_rate(fn: Callable[[int], object], n: int, repeats: int,
                budget: float | None = None) -> tuple[float, int]:
    """Median items per second of ``fn(n)`` over ``repeats`` runs after a warm-up
    (``fn(max(1, n // 10))``), and the runs made; with a ``budget`` (seconds) the runs stop
    early once it is spent (at least one run)."""
    fn(max(1, n // 10))
    rates = []
    spent = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(n)
        dt = time.perf_counter() - t0
        rates.append(n / dt)
        spent += dt
        if budget is not None and spent > budget:
            break
    return statistics.median(rates), len(rates)
