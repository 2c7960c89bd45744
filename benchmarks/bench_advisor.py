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
* ``advise <game> default budget``: the sampling advisors of the other four games (Big Two,
  nine-ten, Nantong, Heaven Eleven bids and plays) at their default settings (the 150 ms paired
  budget of ``kaptai.core.advise``), in-process, on a few typed positions x seeds after one
  warm-up call each: the median and the slowest call in milliseconds, and the median number of
  layouts used.  The target is a median under 200 ms.  Big Two is timed with and without
  ``--history``, nine-ten typed with and without ``exposed`` and on two views of a
  reference-engine hand with their record (``advise_view``, what play's hints and the review
  call; the search's inference on the record).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

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


def _nineten_views(n: int) -> list[Any]:
    """``n`` nine-ten views from a reference-engine hand, each a decision with a record of other
    seats' discards and cards face up (play's hints and the review value such views)."""
    from kaptai.nineten.config import make_config
    from kaptai.nineten.engine import run_hands
    from kaptai.nineten.policies import Policy

    got: list[Any] = []

    class Keep(Policy):
        def discard(self, view):
            if len(view.options) > 2 and view.exposed.any() and any(e[0] != view.seat for e in view.public["events"]):
                got.append(view)
            return view.options[0]

    seed = 0
    while len(got) < n:
        run_hands(make_config(4), 1, np.random.PCG64(seed), [Keep() for _ in range(4)])
        seed += 1
    return got[:n]


def _nineten_view_advice(view: Any, seed: int = 0) -> Any:
    from kaptai.nineten.advisor import advise_view

    return advise_view(view, seed=seed)


#: (game, callable, positions) of the sampling advisors; each position is (args, kwargs)
def _sampling_advisors() -> list[tuple[str, Any, list[tuple[tuple, dict]]]]:
    from kaptai.bigtwo.advisor import advise as bigtwo
    from kaptai.heaven11.advisor import advise as heaven11
    from kaptai.nantong.advisor import advise as nantong
    from kaptai.nineten.advisor import advise as nineten

    h11 = "AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C"
    return [
        ("big-two", bigtwo, [(("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C",), {"to_beat": "3D", "by": 3}),
                             (("3D 4C 9S 9H KD 2S 5H 6H 7C 8D JC QS AH",), {})]),
        ("big-two with history", bigtwo,
         [(("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D",), {"history": "3D, 8D, pass, KD, pass, pass, pass"}),
          (("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D",), {"history": "3D, 8D, pass, KD, pass, pass, pass, 5S"})]),
        ("nine-ten", nineten, [(("RKx2 RA YAx2 GE WC WP GK GA",), {"seen": "RE YE"}),
                               (("RKx2 RA YAx2 GE WC WP GK",), {"offered": "GE"})]),
        ("nine-ten with exposed", nineten,
         [(("RKx2 RA YAx2 GE WC WP GK GA",), {"seen": "RE YE", "exposed": "RKx2; RCx2; ; GCx2 YC"}),
          (("RKx2 RA YAx2 GE WC WP GK",), {"offered": "GE", "exposed": "; RCx2; WK; GCx2"})]),
        ("nine-ten view with the record", _nineten_view_advice, [((v,), {}) for v in _nineten_views(2)]),
        ("nantong", nantong, [(("123b 234w 678t 333w qzx3 789t 99w bhx2 hh",), {}),
                              (("11w 234w 567w 789w 11t 234t 567t 9t qz bh 5b",), {})]),
        ("heaven-eleven bid", heaven11, [((h11,), {}), (("2C 3C 4C 5D 6D 7D 8H 9H TH 2S 3S 4S 5S",), {})]),
        ("heaven-eleven play", heaven11, [((h11,), {"contract": "4S"}), ((h11,), {"auction": "1S PASS PASS PASS"})]),
    ]


def sampling_rows(seeds: int) -> list[dict]:
    """``advise <game> default budget`` rows: median / max ms and median layouts over positions x seeds."""
    rows = []
    for game, fn, positions in _sampling_advisors():
        times, used = [], []
        for args, kw in positions:
            fn(*args, **kw)  # warm-up
            for seed in range(seeds):
                t0 = time.perf_counter()
                df = fn(*args, seed=seed, **kw)
                times.append((time.perf_counter() - t0) * 1e3)
                used.append(df.attrs["samples"])
        rows.append({"name": f"advise {game} default budget median", "value": statistics.median(times), "unit": "ms",
                     "calls": len(times), "max": round(max(times), 1), "layouts": int(statistics.median(used)),
                     "target": 200.0})
    return rows


def run(quick: bool = False) -> list[dict]:
    """Measure and return the rows (see the module docstring)."""
    n = 200 if quick else 1000
    hands = deals(n)
    rows = Rows()
    for r in sampling_rows(3 if quick else 10):
        rows.append(r)
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
        size = f"hands={row['hands']}" if "hands" in row else f"calls={row['calls']} layouts={row['layouts']}"
        print(f"{row['name']:<44} {row['value']:>8.2f} {row['unit']:<3} {size} max={row['max']}")
    slow = [r for r in rows if "default budget" in r["name"] and r["value"] >= r["target"]]
    print("sampling advisors: " + ("every median within 200 ms" if not slow else
                                   "OVER 200 ms: " + ", ".join(r["name"] for r in slow)))
    worst = max(r["value"] for r in rows if r["name"].startswith("advise") and r["name"].endswith("p95"))
    print(f"advise p95 {worst:.2f} ms: {'within' if worst < TARGET_MS else 'OVER'} the {TARGET_MS:.0f} ms target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
