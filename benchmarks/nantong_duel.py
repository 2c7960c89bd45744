"""Duplicate-deal duel of Nantong long cards: one ``search`` seat against a field of another policy.

``python benchmarks/nantong_duel.py --field max_melds --deals 600 --seed 1 [--variant rank_only|winner_collects]
[--samples 16] [--particles 4] [--candidates 4] [--margin 1] [--guard 1] [--choice guard|rank] [--save FILE.npy]
[--workers 2]``

Every deal (one ``PCG64`` of its own seed: the engine shuffles the whole wall before any policy
acts) is played ``A + 1`` times with the compiled engine: once with the field at every seat (the
baseline) and once with ``search`` at each seat ``r`` in turn, the field elsewhere.  Per deal,
averaged over the ``A`` rotations:

* ``diff_vs_field``: the search seat's net minus the mean net of the field seats at the same table
  (the cross-table's cell, :func:`kaptai.core.league.cross_play`);
* ``diff_vs_baseline``: the search seat's net minus the same seat's net in the baseline (what
  putting ``search`` in a field player's chair is worth).

Nets are the variant's settlement (``kaptai.nantong.atlas.hand_rows``: 1 per hand win shared under
``rank_only``, 胡數 under a money settlement).  Intervals: normal 95% over deals (each deal one
cluster).  Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

VARIANTS = ("rank_only", "winner_collects", "pairwise_difference")


def _chunk(args: tuple) -> dict:
    field, lo, hi, seed, variant, samples, particles, extra = args
    from kaptai.nantong.atlas import hand_rows
    from kaptai.nantong.config import make_config
    from kaptai.nantong.engine import run_hands

    cfg = make_config(3, {"settlement": variant}, samples=samples, particles=particles, **extra)
    A = cfg.active
    vf, vb, own = [], [], []
    t0 = time.process_time()
    for i in range(lo, hi):
        ss = np.random.SeedSequence([seed, i])
        base = hand_rows(run_hands(cfg, 1, policies=[field] * A, bit_generator=np.random.PCG64(ss)), cfg)["net"][0]
        f, b, o = 0.0, 0.0, 0.0
        for r in range(A):
            pols = [field] * A
            pols[r] = "search"
            net = hand_rows(run_hands(cfg, 1, policies=pols, bit_generator=np.random.PCG64(ss)), cfg)["net"][0]
            f += float(net[r]) - float(np.mean([net[j] for j in range(A) if j != r]))
            b += float(net[r]) - float(base[r])
            o += float(net[r])
        vf.append(f / A)
        vb.append(b / A)
        own.append(o / A)
    return {"vf": vf, "vb": vb, "own": own, "cpu": time.process_time() - t0}


def _ci(x: np.ndarray) -> dict:
    m = float(x.mean())
    se = float(x.std(ddof=1) / np.sqrt(len(x)))
    return {"mean": round(m, 5), "lo": round(m - 1.96 * se, 5), "hi": round(m + 1.96 * se, 5)}


def duel(field: str, deals: int, seed: int, variant: str = "rank_only", samples: int = 16, workers: int = 1,
         chunk: int = 50, particles: int = 4, save: str | None = None, **extra) -> dict:
    """``extra``: further ``make_config`` settings of the search (``candidates``, ``margin``, ``guard``, ``choice``);
    ``save``: a ``.npy`` path for the per-deal ``diff_vs_baseline`` (to pair two runs on the same deals)."""
    jobs = [(field, lo, min(lo + chunk, deals), seed, variant, samples, particles, extra)
            for lo in range(0, deals, chunk)]
    t0 = time.time()
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_chunk, jobs))
    else:
        parts = [_chunk(j) for j in jobs]
    vf = np.concatenate([p["vf"] for p in parts])
    vb = np.concatenate([p["vb"] for p in parts])
    own = np.concatenate([p["own"] for p in parts])
    if save:
        np.save(save, vb)
    return {**extra, "field": field, "variant": variant, "deals": deals, "search_hands": 3 * deals, "seed": seed,
            "samples": samples, "particles": particles, "diff_vs_field": _ci(vf), "diff_vs_baseline": _ci(vb), "search_ev": _ci(own),
            "wall_s": round(time.time() - t0, 1), "cpu_s": round(sum(p["cpu"] for p in parts), 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--field", default="max_melds")
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="rank_only", choices=VARIANTS)
    ap.add_argument("--samples", type=int, default=16)
    ap.add_argument("--particles", type=int, default=4)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--candidates", type=int, default=None)
    ap.add_argument("--margin", type=int, default=None)
    ap.add_argument("--guard", type=float, default=None)
    ap.add_argument("--choice", default=None, choices=("guard", "rank"))
    ap.add_argument("--save", default=None, help="a .npy path for the per-deal diff_vs_baseline")
    a = ap.parse_args()
    extra = {k: getattr(a, k) for k in ("candidates", "margin", "guard", "choice") if getattr(a, k) is not None}
    print(json.dumps(duel(a.field, a.deals, a.seed, a.variant, a.samples, a.workers, particles=a.particles,
                          save=a.save, **extra)), flush=True)


if __name__ == "__main__":
    main()
