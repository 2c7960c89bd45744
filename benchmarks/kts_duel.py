"""Duplicate-deal duel of Kap Tai Shap: one ``search`` seat against a field of another policy.

``python benchmarks/kts_duel.py --field lookahead --preset traditional --hands 4000 --seed 1
[--samples 32] [--z 2.5] [--rollout lookahead] [--workers 2] [--save cells.npz]``

Deal ``i`` is played on ``PCG64`` of its own seed (the engine draws the whole wall and the dice
before any policy acts, so every arrangement gets the same tiles): once with the field at every
seat (the baseline) and once with ``search`` at each seat ``r`` in turn, the field elsewhere --
the arrangements of one cell of ``kaptai league kap-tai-shap --cross`` (one seat).  Per deal:
``cell`` = the search seat's net minus the mean net of the field seats of its table, averaged
over the ``P`` seats (the cross-table's ``diff_vs_field``), and ``gain`` = the search seat's net
minus the same seat's net in the baseline, averaged over the seats.  Intervals: the normal 95%
interval over deals (each deal one cluster).  Prints one JSON line.  ``--save FILE`` also writes
the per-deal ``cell`` and ``gain`` arrays (``numpy.savez``): two runs with the same ``--seed`` and
``--hands`` play the same deals, so ``--pair A.npz B.npz`` prints B − A paired over the deals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def _chunk(args: tuple) -> dict:
    preset, field, start, n, seed, samples, z, rollout, players = args
    from kaptai.core.settlement import settle_outcomes
    from kaptai.kts import _engine
    from kaptai.kts.atlas import hand_rows
    from kaptai.kts.config import make_config
    from kaptai.kts.engine import run_hands
    from kaptai.kts.policies import POLICY_CODES
    from kaptai.kts.rules import resolve_rules

    kw = {} if rollout is None else {"search_rollout": rollout}
    cfg = make_config(players, resolve_rules(preset), search_samples=samples, search_z=z, **kw)
    rules = cfg.rules
    P = players

    def nets(codes: list[int], ss: np.random.SeedSequence) -> np.ndarray:
        stats, lg = run_hands(cfg, [_name[c] for c in codes], np.random.PCG64(ss), 1, record=1)
        h = hand_rows(cfg, stats, lg, 1)
        net, _, _ = settle_outcomes(rules.settlement, P, h["winner"], h["score"], cut=rules.house_cut)
        return np.asarray(net, dtype=float)[0]

    _name = {v: k for k, v in POLICY_CODES.items()}
    fc = POLICY_CODES[field]
    cell = np.zeros(n)
    gain = np.zeros(n)
    same = np.zeros(n)
    s0 = _engine.search_stats()
    t0 = time.time()
    for i in range(n):
        ss = np.random.SeedSequence([seed, start + i])
        base = nets([fc] * P, ss)
        for r in range(P):
            codes = [fc] * P
            codes[r] = POLICY_CODES["search"]
            net = nets(codes, ss)
            cell[i] += net[r] - (net.sum() - net[r]) / (P - 1)
            gain[i] += net[r] - base[r]
            same[i] += float(np.array_equal(net, base))
    s1 = _engine.search_stats()
    return {"cell": (cell / P).tolist(), "gain": (gain / P).tolist(), "same": (same / P).tolist(),
            "secs": time.time() - t0, "stats": {k: s1[k] - s0[k] for k in s1}}


def _ci(x: np.ndarray) -> dict:
    m, se = float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))
    return {"mean": round(m, 4), "se": round(se, 4), "ci95": [round(m - 1.96 * se, 4), round(m + 1.96 * se, 4)]}


def duel(preset: str, field: str, hands: int, seed: int, samples: int | None = None, z: float | None = None,
         rollout: str | None = None, players: int = 4, workers: int = 1, chunk: int = 50) -> dict:
    deals = -(-hands // players)
    jobs = [(preset, field, s, min(chunk, deals - s), seed, samples, z, rollout, players)
            for s in range(0, deals, chunk)]
    t0 = time.time()
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_chunk, jobs))
    else:
        parts = []
        for j in jobs:
            parts.append(_chunk(j))
            c = np.concatenate([p["cell"] for p in parts])
            print(f"{len(c)} deals: cell {c.mean():+.4f} se {c.std(ddof=1) / np.sqrt(len(c)):.4f}",
                  file=sys.stderr, flush=True)
    cell = np.concatenate([p["cell"] for p in parts])
    gain = np.concatenate([p["gain"] for p in parts])
    same = np.concatenate([p["same"] for p in parts])
    stats: dict = {}
    for p in parts:
        for k, v in p["stats"].items():
            stats[k] = stats.get(k, 0) + v
    secs = sum(p["secs"] for p in parts)
    return {"preset": preset, "field": field, "samples": samples, "z": z, "rollout": rollout, "seed": seed,
            "deals": int(len(cell)), "hands": int(len(cell)) * players, "cell": _ci(cell), "gain": _ci(gain),
            "unchanged": round(float(same.mean()), 4), "wall_s": round(time.time() - t0, 1),
            "search_decisions_per_s": round(stats.get("decisions", 0) / max(secs, 1e-9), 1), "stats": stats,
            "_per_deal": {"cell": cell, "gain": gain}}


def pair(a_path: str, b_path: str) -> dict:
    """B − A of two saved runs on the same deals: the cell and the gain, paired over the deals."""
    a, b = np.load(a_path), np.load(b_path)
    if a["cell"].shape != b["cell"].shape:
        raise SystemExit(f"{a_path} and {b_path} hold different numbers of deals: not the same deals")
    return {"a": a_path, "b": b_path, "deals": int(len(a["cell"])),
            "cell_b_minus_a": _ci(b["cell"] - a["cell"]), "gain_b_minus_a": _ci(b["gain"] - a["gain"])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="traditional")
    ap.add_argument("--field", default="lookahead")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--z", type=float, default=None)
    ap.add_argument("--rollout", default=None)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=50)
    ap.add_argument("--save", default=None, help="write the per-deal cell and gain arrays here (.npz)")
    ap.add_argument("--pair", nargs=2, default=None, metavar=("A", "B"),
                    help="print B - A of two --save files of the same deals, paired, and stop")
    a = ap.parse_args()
    if a.pair:
        print(json.dumps(pair(*a.pair)), flush=True)
        return
    out = duel(a.preset, a.field, a.hands, a.seed, a.samples, a.z, a.rollout, a.players, a.workers, a.chunk)
    per_deal = out.pop("_per_deal")
    if a.save:
        np.savez(a.save, **per_deal)
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
