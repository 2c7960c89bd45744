"""Duplicate-deal duel of nine-ten: one ``search`` seat against a field of another policy.

``python benchmarks/nineten_duel.py --field colour_cut --hands 4000 --seed 1 [--variant taiwan|covers_all]
[--infer 4] [--samples 300] [--z 1] [--mix 0|1] [--workers 2]``

Every deal (a shuffled deck, seat 0 dealing) is played ``2 N`` times with the compiled engine,
one ``run_hands`` call a hand: ``N`` times with ``search`` at each seat in turn counted from the
dealer (``relative=True``), the field elsewhere, each on the same stream as a baseline with the
field at every seat (the search draws its layouts from a private stream and colour_cut's tie as
colour_cut would, so a hand where it never overrules colour_cut replays the baseline exactly).
Each (deal, seat) has its own stream: were the deals of a chunk played in one call, a hand where
the search departs from the field would shift the ties of every later hand of the chunk, and
those hands would differ from their baselines for no reason but the stream.
The result of a deal is the search seat's net minus the same seat's net in the baseline,
averaged over the ``N`` seats; the interval is the normal 95% interval over deals (each deal one
cluster).  Prints one JSON line: hands (deals), mean, se, 95% interval, the search's own EV and
the engine's search counters.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

VARIANTS = {"taiwan": None, "covers_all": {"discard_payer_covers_all": True}}


def _chunk(args: tuple) -> dict:
    field, n, seed, variant, infer, samples, z, players, mix = args
    from kaptai.nineten import _engine
    from kaptai.nineten.config import POLICY_CODES, make_config

    cfg = make_config(players, VARIANTS[variant], samples=samples, search_infer=infer, search_z=z, search_mix=mix)
    rng = np.random.default_rng([seed, 7])
    decks = np.stack([rng.permutation(112) for _ in range(n)]).astype(np.int64)
    # each deal's search layouts salted from the deal (the same at every seat of the rotation), as the
    # league's deal_rows does: one run a deal is hand 0 of its run, and unsalted every deal would
    # reuse the same layout seeds
    salted = [dataclasses.replace(cfg, search_salt=int(np.random.SeedSequence([seed, i, 3]).generate_state(
        1, np.uint64)[0])) for i in range(n)]
    fc = POLICY_CODES[field]
    diff = np.zeros(n)
    own = np.zeros(n)
    same = np.zeros(n)
    s0 = _engine.search_stats()
    for r in range(players):
        codes = [fc] * players
        codes[r] = POLICY_CODES["search"]
        for i in range(n):
            # one call a deal, on the deal's own stream: a hand on which the search departs from
            # the field does not shift the ties of the deals after it
            base, _ = _engine.run_hands(cfg, [fc] * players, np.random.PCG64([seed, r + 1, i]), 1,
                                        decks=decks[i:i + 1])
            out, _ = _engine.run_hands(salted[i], codes, np.random.PCG64([seed, r + 1, i]), 1, decks=decks[i:i + 1],
                                       relative=True)
            seat = (int(base["dealer"][0]) + r) % players
            mine = float(out["net"][0, seat])
            d = mine - float(base["net"][0, seat])
            diff[i] += d
            own[i] += mine
            same[i] += (d == 0)
    s1 = _engine.search_stats()
    return {"diff": (diff / players).tolist(), "own": (own / players).tolist(), "same": (same / players).tolist(),
            "stats": {k: s1[k] - s0[k] for k in s1}}


def summarize(parts: list[dict]) -> dict:
    """Mean, SE and 95% interval of the per-deal differences of finished chunks."""
    d = np.concatenate([p["diff"] for p in parts])
    own = np.concatenate([p["own"] for p in parts])
    same = np.concatenate([p["same"] for p in parts])
    stats: dict = {}
    for p in parts:
        for k, v in p["stats"].items():
            stats[k] = stats.get(k, 0) + v
    m, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))
    return {"hands": int(len(d)), "mean": round(m, 4), "se": round(se, 4),
            "ci95": [round(m - 1.96 * se, 4), round(m + 1.96 * se, 4)], "search_ev": round(float(own.mean()), 4),
            "unchanged": round(float(same.mean()), 4), "stats": stats}


def duel(field: str, hands: int, seed: int, variant: str = "taiwan", infer: int | None = None,
         samples: int | None = None, z: float | None = None, players: int = 4, workers: int = 1,
         chunk: int = 250, mix: int | None = None, chunks_out: str | None = None) -> dict:
    jobs = []
    done = 0
    i = 0
    while done < hands:
        n = min(chunk, hands - done)
        jobs.append((field, n, seed * 100_000 + i, variant, infer, samples, z, players, mix))
        done += n
        i += 1
    t0 = time.time()
    parts = []

    def keep(part: dict) -> None:
        parts.append(part)
        if chunks_out:  # one JSON line a finished chunk, so that a stopped run keeps what it did
            with open(chunks_out, "a", encoding="utf-8") as f:
                f.write(json.dumps(part) + "\n")

    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            for part in ex.map(_chunk, jobs):
                keep(part)
    else:
        for j in jobs:
            keep(_chunk(j))
    return {"field": field, "variant": variant, "infer": infer, "samples": samples, "z": z, "mix": mix, "seed": seed,
            **summarize(parts), "wall_s": round(time.time() - t0, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--field", default="colour_cut")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="taiwan", choices=sorted(VARIANTS))
    ap.add_argument("--infer", type=int, default=None)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--z", type=float, default=None)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--chunk", type=int, default=250)
    ap.add_argument("--mix", type=int, default=None)
    ap.add_argument("--chunks-out", default=None, help="append each finished chunk (JSON lines) to this file")
    a = ap.parse_args()
    print(json.dumps(duel(a.field, a.hands, a.seed, a.variant, a.infer, a.samples, a.z, a.players, a.workers,
                          a.chunk, a.mix, a.chunks_out)), flush=True)


if __name__ == "__main__":
    main()
