"""Throughput of the Big Two (鋤大D) game engine: compiled against the pure-Python reference.

Run ``python benchmarks/bench_bigtwo.py [--quick]``; prints one row per measurement.
``run(quick)`` returns the rows as dicts ``{name, value, unit, repeats}`` (plus ``target``
where there is one).

Measured on one core, complete games (deal, redeals, play to the first empty hand), the
median of several timed runs after a warm-up:

* the exact deal table of four players under every option (target < 5 s);
* the compiled engine (:mod:`kaptai.bigtwo._engine`) with the ``greedy``, ``heuristic``
  and ``random`` policies, 4 players, default (Hong Kong) rules — the greedy row has the
  context target >= 10,000 games/s — and greedy with 3 players (Malaysian) and 2 players;
* the reference engine (:mod:`kaptai.bigtwo.engine_reference`) on a few games per policy,
  and the compiled/reference ratios (skipped, with a note, if the reference is missing).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from _timing import Rows, median_rate

from kaptai.bigtwo import _engine
from kaptai.bigtwo.config import POLICY_CODES, make_config


def _compiled(cfg, policy: str):
    codes = [POLICY_CODES[policy]] * cfg.players
    seed = iter(range(10**6))
    return lambda n: _engine.run_hands(cfg, codes, np.random.PCG64(next(seed)), n)


def _reference(cfg, policy: str):
    from kaptai.bigtwo.engine_reference import run_hands

    seed = iter(range(10**6))
    return lambda n: run_hands(cfg, [policy] * cfg.players, np.random.PCG64(next(seed)), n)


def run(quick: bool = False) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit', 'repeats'}``.

    Parameters
    ----------
    quick : bool
        Fewer games and repeats, a time budget on the reference rows (a smoke run).
    """
    repeats = 3 if quick else 7
    n_fast = 5_000 if quick else 50_000
    n_ref = 10 if quick else 40
    four = make_config(4)
    out: list[dict] = Rows()

    def row(name, value, unit, reps, **extra):
        out.append({"name": name, "value": float(value), "unit": unit, "repeats": reps, **extra})

    rates = {}
    for policy in ("greedy", "heuristic", "random"):
        rates[policy], reps = median_rate(_compiled(four, policy), n_fast, repeats)
        extra = {"target": ">= 10,000"} if policy == "greedy" else {}
        row(f"compiled {policy} 4p hong_kong", rates[policy], "games/s", reps, **extra)
    for players, options, label in ((3, {"malaysian_3p": True}, "3p malaysian"), (2, {}, "2p")):
        rate, reps = median_rate(_compiled(make_config(players, options), "greedy"), n_fast // 2, repeats)
        row(f"compiled greedy {label}", rate, "games/s", reps)

    # the exact deal table: deal_odds for every hand kind x every straight_order / option that
    # changes it, and the best five-card hand distribution (all straight orders), 4 players
    from itertools import product

    from kaptai.bigtwo.odds import HAND_KINDS, best_hand_distribution, deal_odds

    def table() -> None:
        for order, suits, hand in product(("hk", "sequential", "poker", "wheel_top", "broadway_top"),
                                          ("hk", "taiwan"), HAND_KINDS):
            deal_odds(4, {"straight_order": order, "suit_order": suits}, hand=hand)
        for tpf in (False, True):
            best_hand_distribution(4, {"two_pair_five": tpf})

    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        table()
        times.append(time.perf_counter() - t0)
    # the first run fills the enumeration caches (cold); later runs reuse them
    row("exact deal table 4p, every option, cold", 1000 * times[0], "ms", 1, target="< 5000")
    row("exact deal table 4p, every option, warm", 1000 * statistics.median(times[1:] or times), "ms", repeats)

    try:
        import kaptai.bigtwo.engine_reference  # noqa: F401
    except ImportError as exc:
        print(f"note: reference engine not available ({exc}); ratio rows skipped", file=sys.stderr)
        return out
    for policy in ("greedy", "heuristic", "random"):
        ref, reps = median_rate(_reference(four, policy), n_ref, max(1, repeats // 2), budget=15.0 if quick else None)
        row(f"reference {policy} 4p hong_kong", ref, "games/s", reps)
        row(f"speed-up {policy} compiled/reference", rates[policy] / ref, "x", reps)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for r in run(quick="--quick" in argv):
        print(f"{r['name']:<42} {r['value']:>14,.1f} {r['unit']}  (median of {r['repeats']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
