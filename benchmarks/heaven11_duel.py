"""Duplicate-deal duel of Heaven Eleven: one ``search`` seat against a field of another policy.

``python benchmarks/heaven11_duel.py --field rollout --hands 2000 --seed 1 [--variant standard|symmetric]
[--workers 2] [-s KEY=VALUE ...] [--dump FILE.npy]``

This is the ``seats=1`` cell of ``kaptai league heaven-eleven --cross`` (``kaptai.core.league.cross_play``)
without the other cells: every deal (``kaptai.heaven11.atlas.deal_rows``, the league's deal
streams) is played four times, ``search`` at seat 0, 1, 2, 3 in turn and the field elsewhere.  Per
deal: ``mine`` = the search seat's final averaged over the four arrangements, ``field`` = a field
seat's, ``diff = mine - field`` (the cross-table's ``diff_vs_field``); the interval is the normal
95% interval over deals (each deal one cluster).  ``hands`` in the output counts search hands
(4 per deal), as the cross-table does.  ``-s`` sets an engine option of the search
(``make_config``: ``search_samples``, ``search_infer``, ...).  Prints one JSON line.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any


def _chunk(args: tuple) -> dict:
    field, variant, chunk, extra = args
    import numpy as np

    from kaptai.heaven11 import atlas

    from kaptai.heaven11 import config as hc

    for name, var in (("SEARCH_EPS", "KAPTAI_H11_EPS"), ("SEARCH_TRUNC", "KAPTAI_H11_TRUNC")):
        if os.environ.get(var):   # experiments with the inference's constants (the engine reads them per run)
            setattr(hc, name, float(os.environ[var]))
    v = {x.name: x for x in atlas.VARIANTS}[variant]
    if extra:
        orig = atlas.variant_config

        def cfg_with(variant: Any, _orig: Any = orig) -> Any:
            from kaptai.heaven11.config import make_config

            return make_config(4, atlas._rules(variant), **extra)

        atlas.variant_config = cfg_with  # type: ignore[assignment]
    arrs = [tuple("search" if j == s else field for j in range(4)) for s in range(4)]
    rows = atlas.deal_rows(v, arrs, chunk)
    mine = np.mean([r["net"][:, s] for s, r in enumerate(rows)], axis=0)
    fld = np.mean([np.delete(r["net"], s, axis=1).mean(axis=1) for s, r in enumerate(rows)], axis=0)
    return {"mine": mine.tolist(), "field": fld.tolist()}


def duel(field: str, hands: int, seed: int, variant: str = "standard", workers: int = 1, chunk: int = 50,
         extra: dict | None = None, dump: str | None = None) -> dict:
    import numpy as np

    from kaptai.core.runner import plan_chunks

    deals = -(-hands // 4)
    jobs = [(field, variant, c, extra or {}) for c in plan_chunks(deals, chunk, seed)]
    t0 = time.time()
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_chunk, jobs))
    else:
        parts = []
        for j in jobs:   # a running line on stderr: a run cut short still says what it saw
            parts.append(_chunk(j))
            d = np.concatenate([p["mine"] for p in parts]) - np.concatenate([p["field"] for p in parts])
            print(f"{len(d)} deals: diff {d.mean():+.3f} se {d.std(ddof=1) / math.sqrt(max(len(d), 1)):.3f}",
                  file=sys.stderr, flush=True)
    mine = np.concatenate([p["mine"] for p in parts])
    fld = np.concatenate([p["field"] for p in parts])
    d = mine - fld
    if dump:
        np.save(dump, d)
    n = len(d)
    m, se = float(d.mean()), float(d.std(ddof=1) / math.sqrt(n))
    return {"field": field, "variant": variant, "deals": n, "hands": 4 * n, "seed": seed,
            "ev": round(float(mine.mean()), 4), "diff": round(m, 4), "se": round(se, 4),
            "ci": [round(m - 1.959964 * se, 4), round(m + 1.959964 * se, 4)], "extra": extra or {},
            "wall_s": round(time.time() - t0, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--field", default="rollout")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("-s", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--dump", default=None, help="save the per-deal differences (.npy)")
    a = ap.parse_args()
    extra = {k: int(v) for k, v in (x.split("=", 1) for x in a.s)}
    print(json.dumps(duel(a.field, a.hands, a.seed, a.variant, a.workers, extra=extra, dump=a.dump)))


if __name__ == "__main__":
    main()
