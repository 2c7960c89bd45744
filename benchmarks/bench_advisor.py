"""Latency of the hand advisor (``kaptai.kts.advisor.advise``).

Run ``python benchmarks/bench_advisor.py [--quick]``.  ``run(quick)`` returns rows
``{name, value, unit, ...}``:

* ``advise`` on random legal 10-tile hands dealt from 2 sets (4 players), with the next 8
  tiles of the same deal as the seen tiles and ``draws=3``, under the ``traditional`` and
  ``advanced`` presets: the median and the 95th percentile of the wall time of one call
  (input parsing, validation and the DataFrame included), in milliseconds.  The target
  is under 50 ms for any legal hand.  ``hands`` says how many hands were timed (1,000;
  200 with ``--quick``), after a warm-up of 20 calls; ``max`` is the slowest call.
* ``draw_odds`` on the same hands (every discard's rows), likewise.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from _timing import Rows

if __name__ == "__main__":  # run as a script: the in-place build, else the installed package (see run.py)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run import select_kaptai

    select_kaptai()

from kaptai.kts.advisor import advise, draw_odds  # noqa: E402
from kaptai.kts.tiles import COPIES_PER_SET  # noqa: E402

PRESETS = ("traditional", "advanced")
TARGET_MS = 50.0


def deals(n_hands: int, seed: int = 2025, sets: int = 2, seen: int = 8) -> list[tuple[list[int], list[int]]]:
    """``n_hands`` (hand of 10, seen tiles) pairs from independently shuffled sets."""
    rng = np.random.default_rng(seed)
    wall = np.repeat(np.arange(21), COPIES_PER_SET * sets)
    out = []
    for _ in range(n_hands):
        rng.shuffle(wall)
        out.append((wall[:10].tolist(), wall[10:10 + seen].tolist()))
    return out


def _times(fn, hands, preset: str) -> list[float]:
    for hand, seen in hands[:20]:  # warm-up
        fn(hand, preset, seen=seen, draws=3)
    out = []
    for hand, seen in hands:
        t0 = time.perf_counter()
        fn(hand, preset, seen=seen, draws=3)
        out.append((time.perf_counter() - t0) * 1e3)
    return out


def run(quick: bool = False) -> list[dict]:
    """Measure and return the rows (see the module docstring)."""
    n = 200 if quick else 1000
    hands = deals(n)
    rows = Rows()
    for fn in (advise, draw_odds):
        for preset in PRESETS:
            t = _times(fn, hands, preset)
            extra = {"hands": n, "max": round(max(t), 2)}
            rows.append({"name": f"{fn.__name__} {preset} median", "value": statistics.median(t), "unit": "ms", **extra})
            rows.append({"name": f"{fn.__name__} {preset} p95", "value": float(np.percentile(t, 95)), "unit": "ms",
                         **extra})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 hands instead of 1,000")
    args = parser.parse_args(argv)
    rows = run(args.quick)
    for row in rows:
        print(f"{row['name']:<32} {row['value']:>8.2f} {row['unit']:<3} hands={row['hands']} max={row['max']}")
    worst = max(r["value"] for r in rows if r["name"].startswith("advise") and r["name"].endswith("p95"))
    print(f"advise p95 {worst:.2f} ms: {'within' if worst < TARGET_MS else 'OVER'} the {TARGET_MS:.0f} ms target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
