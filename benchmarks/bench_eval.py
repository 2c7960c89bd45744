"""Throughput of the Kap Tai Shap evaluator and the wall time of the exact deal tables.

Run ``python benchmarks/bench_eval.py [--quick]`` for these rows alone, or
``python benchmarks/run.py`` for every benchmark.  ``run(quick)`` returns the rows as
dicts ``{name, value, unit, repeats, ...}``:

* ``score_hands`` and ``waits_hands`` (the public batch API, input validation included)
  on 1,000,000 random hands dealt from 2 sets (10 tiles for ``score_hands``, the first 9
  of the same deals for ``waits_hands``), under the ``traditional`` and ``advanced``
  presets, in hands per second on one core.  The hands are generated once, before the
  timing; each timing is the median of several runs after a warm-up call.
* the reference evaluator (:mod:`kaptai.kts.reference`, pure Python) on the first
  20,000 of those hands for the score and 2,000 for the waits (5,000 / 500 with
  ``--quick``), its caches cleared before every run, and the ratio compiled / reference.
* the wall time of the full exact deal table ``deal_odds(players, rules)`` for 1 (Kap
  Shap), 2, 3, 4 and 8 sets, both presets, with ``distance=False`` and ``distance=True``
  (the distance-from-ready distributions are the slow part).

Every row says how many runs its median is taken over (``repeats``): 11 for the compiled
evaluator rows (each run is only tens of milliseconds), 5 for the others.  With
``--quick`` a deal table or reference row stops repeating once it has used its time budget
(4 s and 15 s; at least one run), so the slow deal tables are then timed once.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np
from _timing import Rows

if __name__ == "__main__":  # run as a script: the in-place build, else the installed package (see run.py)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run import select_kaptai

    select_kaptai()

from kaptai.kts import deal_odds, score_hands, waits_hands  # noqa: E402
from kaptai.kts import reference as ref  # noqa: E402
from kaptai.kts.rules import RuleSet  # noqa: E402
from kaptai.kts.tiles import COPIES_PER_SET  # noqa: E402

PRESETS = ("traditional", "advanced")
#: Player count used for each number of sets (the rules-page §2 table).
PLAYERS_FOR_SETS = {1: 2, 2: 4, 3: 5, 4: 8, 8: 20}
COMPILED_HANDS = 1_000_000
REPEATS = 5
#: A compiled pass over the hands takes tens of milliseconds, so take more runs: a median
#: of 11 is far less sensitive to a busy neighbour on a shared machine.
COMPILED_REPEATS = 11


def deal_hands(n_hands: int, sets: int = 2, size: int = 10, seed: int = 2024) -> np.ndarray:
    """``n_hands`` random hands of ``size`` tile ids dealt from ``sets`` shuffled sets
    (int8, one row per hand, in deal order)."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(21, dtype=np.int8), COPIES_PER_SET * sets)
    out = np.empty((n_hands, size), dtype=np.int8)
    step = 100_000
    for start in range(0, n_hands, step):
        m = min(step, n_hands - start)
        pick = np.argpartition(rng.random((m, len(wall))), size - 1, axis=1)[:, :size]
        out[start : start + m] = wall[rng.permuted(pick, axis=1)]
    return out


def to_counts(tiles: np.ndarray) -> list[list[int]]:
    return (tiles[:, :, None] == np.arange(21)).sum(axis=1).tolist()


def timed(fn: Callable[[], object], repeats: int, budget: float = math.inf) -> tuple[float, int]:
    """Median wall time of ``fn()`` over up to ``repeats`` runs; stops early (after at
    least one run) once ``budget`` seconds are used.  Returns (median seconds, runs)."""
    times: list[float] = []
    start = time.perf_counter()
    while len(times) < repeats:
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        if time.perf_counter() - start > budget:
            break
    return statistics.median(times), len(times)


def _clear_reference_caches() -> None:
    for name in ("_analyse", "_ten_pair_partitions"):
        getattr(ref, name).cache_clear()


def evaluator_rows(quick: bool = False) -> list[dict]:
    ref_score_n, ref_waits_n = (5_000, 500) if quick else (20_000, 2_000)
    budget = 15.0 if quick else math.inf
    tiles10 = deal_hands(COMPILED_HANDS)
    tiles9 = np.ascontiguousarray(tiles10[:, :9])
    counts10 = to_counts(tiles10[:ref_score_n])
    counts9 = to_counts(tiles9[:ref_waits_n])
    rows: list[dict] = Rows()
    for preset in PRESETS:
        rules = RuleSet.preset(preset)
        for kind, tiles, fast_fn, ref_counts, ref_fn in (
            ("score", tiles10, score_hands, counts10, ref.score),
            ("waits", tiles9, waits_hands, counts9, ref.waits),
        ):
            fast_fn(tiles[:1000], rules)  # warm-up
            t, k = timed(lambda: fast_fn(tiles, rules), COMPILED_REPEATS)
            fast_rate = len(tiles) / t
            rows.append(
                {
                    "name": f"{fast_fn.__name__} {preset} (2 sets, {len(tiles):,} hands of {tiles.shape[1]})",
                    "value": fast_rate,
                    "unit": "hands/s",
                    "repeats": k,
                }
            )

            def reference_pass(counts=ref_counts, fn=ref_fn):
                _clear_reference_caches()
                for c in counts:
                    fn(c, rules)

            t, k = timed(reference_pass, REPEATS, budget)
            ref_rate = len(ref_counts) / t
            rows.append(
                {
                    "name": f"reference {kind} {preset} ({len(ref_counts):,} of the same hands)",
                    "value": ref_rate,
                    "unit": "hands/s",
                    "repeats": k,
                }
            )
            rows.append(
                {
                    "name": f"{fast_fn.__name__} / reference, {preset}",
                    "value": fast_rate / ref_rate,
                    "unit": "x",
                    "repeats": k,
                }
            )
    return rows


def deal_table_rows(quick: bool = False) -> list[dict]:
    budget = 4.0 if quick else math.inf
    rows: list[dict] = Rows()
    for distance in (False, True):
        for preset in PRESETS:
            for sets, players in PLAYERS_FOR_SETS.items():
                t, k = timed(lambda: deal_odds(players, preset, distance=distance, workers=1), REPEATS, budget)
                rows.append(
                    {
                        "name": f"deal_odds {preset}, {sets} set{'s' if sets > 1 else ''} "
                        f"({players} players), distance={distance}",
                        "value": t,
                        "unit": "s",
                        "repeats": k,
                    }
                )
    return rows


def run(quick: bool = False) -> list[dict]:
    """Measure and return the rows (see the module docstring)."""
    return evaluator_rows(quick) + deal_table_rows(quick)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller reference samples, time budgets")
    args = parser.parse_args(argv)
    for row in run(args.quick):
        print(f"{row['name']:<70} {row['value']:>16,.3f} {row['unit']:<8} median of {row['repeats']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
