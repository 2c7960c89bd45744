"""Throughput of the chunked runner: in-process, local processes and a Dask LocalCluster.

Run ``python benchmarks/bench_runner.py [--quick]``; prints one row per measurement.
``run(quick)`` returns the rows as dicts ``{name, value, unit}`` (plus ``repeats`` and,
where there is one, ``target``).  Every time is the median of several runs after a
warm-up, because other processes may share the machine.

* ``simulate`` throughput (greedy, 4 players, traditional) as a user calls it: with
  ``workers=1``, ``workers=2`` (process-pool start-up included) and on a running 2-worker
  Dask ``LocalCluster`` (``scheduler=address``; connecting included);
* the scaling from 1 to 2 local workers (target >= 1.8x on 2 cores), on a run sized from a
  first measurement to last about 10 s in one process (2.5 s with ``--quick``), so that
  the start of the worker processes does not decide the ratio; the row gives the hands and
  the seconds of both runs behind it;
* the Dask overhead against a local process pool of the same size, both executors
  already running, at ``simulate``'s own chunks (~0.05 s) and at chunks of ~1 s
  (target < 5% at >= 1 s);
* how long a 2-worker ``LocalCluster`` takes to start (what ``scheduler='local'`` adds).

Needs ``pip install kaptai[distributed]`` for the Dask rows (skipped, with a note, when
Dask is missing).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import logging
import statistics
import sys
import time

from _timing import Rows

from kaptai.core.runner import plan_chunks, run_chunks
from kaptai.kts.config import make_config
from kaptai.kts.policies import resolve_policies
from kaptai.kts.simulate import CHUNK_HANDS, _play_chunk, simulate


def _median_times(fns: dict, repeats: int, warmups: dict | None = None) -> dict[str, float]:
    """Median seconds of each callable; the runs are interleaved (A B C A B C ...) so that
    load from other processes falls on every configuration alike.  Each is warmed up first
    (by its entry of ``warmups``, a smaller run, when there is one)."""
    for key, fn in fns.items():
        (warmups or {}).get(key, fn)()
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeats):
        for key, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            times[key].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def _ceiling(pool: cf.Executor, sim: dict) -> None:
    """Two independent halves of the run, one per process, no chunk scheduling."""
    half = dict(sim, hands=sim["hands"] // 2)
    futs = [pool.submit(simulate, **dict(half, seed=s)) for s in (1, 2)]
    for f in futs:
        f.result()


def _big_chunk_tasks(n_chunks: int, chunk_hands: int):
    cfg = make_config(4, "traditional")
    pols = resolve_policies("greedy", 4)
    return [
        (cfg, pols, c.seed, c.size, c.start, 0)
        for c in plan_chunks(n_chunks * chunk_hands, chunk_hands, seed=1)
    ]


@contextlib.contextmanager
def _pool(n: int):
    """A process pool that, on Ctrl-C or an error, stops its workers at once instead of
    waiting for the chunk (or half run) each one is busy with."""
    pool = cf.ProcessPoolExecutor(n)
    try:
        yield pool
    except BaseException:
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _start_cluster(distributed, n: int):
    """A LocalCluster of ``n`` one-thread worker processes, its workers up.  The scheduler is
    made first and the workers started in the background, so that Ctrl-C during the start
    can still close the cluster (the caller's ``finally``) instead of leaving it to atexit."""
    cluster = distributed.LocalCluster(
        n_workers=0, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=logging.ERROR,
    )
    try:
        cluster.scale(n)
        with distributed.Client(cluster, set_as_default=False) as client:
            deadline = time.monotonic() + 120
            while len(client.nthreads()) < n:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"the {n} Dask workers did not start within 120 s")
                time.sleep(0.1)
    except BaseException:
        cluster.close(timeout=10)
        raise
    return cluster


def _calibrated_hands(sim: dict, seconds: float) -> tuple[int, float]:
    """Hands (whole chunks) that ``simulate(workers=1)`` plays in about ``seconds`` here, and
    the in-process rate it was sized from."""
    probe = 8 * CHUNK_HANDS
    simulate(**sim, hands=probe)  # warm-up
    t0 = time.perf_counter()
    simulate(**sim, hands=probe)
    rate = probe / (time.perf_counter() - t0)
    chunks = max(8, round(rate * seconds / CHUNK_HANDS))
    return chunks * CHUNK_HANDS, rate


def run(quick: bool = False) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit', 'repeats'}``.

    Parameters
    ----------
    quick : bool
        Fewer repeats and shorter runs (about 2.5 s per in-process run instead of 10 s:
        still long enough for the 1 -> 2 workers scaling to measure the engine, not the start
        of the worker processes).
    """
    repeats = 3 if quick else 5
    base = dict(players=4, rules="traditional", seed=0, policies="greedy", progress=False)
    hands, _ = _calibrated_hands(base, 2.5 if quick else 10.0)
    small = (8 if quick else 48) * CHUNK_HANDS  # the Dask rows: as before
    out: list[dict] = Rows()

    def row(name, value, unit, **extra):
        out.append({"name": name, "value": float(value), "unit": unit, "repeats": repeats, **extra})

    sim = dict(base, hands=hands)
    warm = dict(base, hands=small)
    with _pool(2) as pool:
        t = _median_times(
            {
                "w1": lambda: simulate(**sim, workers=1),
                "w2": lambda: simulate(**sim, workers=2),
                "ceiling": lambda: _ceiling(pool, sim),
            },
            repeats,
            warmups={
                "w1": lambda: simulate(**warm, workers=1),
                "w2": lambda: simulate(**warm, workers=2),
                "ceiling": lambda: _ceiling(pool, warm),
            },
        )
    rate1, rate2 = hands / t["w1"], hands / t["w2"]
    row("simulate greedy 4p, in-process (workers=1)", rate1, "hands/s", hands=f"{hands:,}", seconds=round(t["w1"], 2))
    row("simulate greedy 4p, 2 local processes", rate2, "hands/s", hands=f"{hands:,}", seconds=round(t["w2"], 2))
    row("scaling 1 -> 2 local workers", rate2 / rate1, "x", target=">= 1.8", hands=f"{hands:,}",
        seconds_w1=round(t["w1"], 2), seconds_w2=round(t["w2"], 2))
    row("machine ceiling: 2 independent processes, no runner", t["w1"] / t["ceiling"], "x", hands=f"{hands:,}",
        seconds=round(t["ceiling"], 2))

    try:
        import distributed
    except ImportError:
        print("note: dask[distributed] not installed; Dask rows skipped", file=sys.stderr)
        return out

    sim = dict(base, hands=small)
    t0 = time.perf_counter()
    cluster = _start_cluster(distributed, 2)
    start = time.perf_counter() - t0
    try:
        address = cluster.scheduler_address
        t = _median_times(
            {
                "dask": lambda: simulate(**sim, scheduler=address),
                "w2": lambda: simulate(**sim, workers=2),
            },
            repeats,
        )
        row("simulate greedy 4p, Dask LocalCluster 2 workers", small / t["dask"], "hands/s", hands=f"{small:,}")
        row("Dask / local processes, simulate (2 workers)", t["w2"] / t["dask"], "x", hands=f"{small:,}")
        row("LocalCluster start (2 workers)", start, "s")

        # per-chunk overhead with both executors already running: same tasks, same merge
        chunk_s = CHUNK_HANDS / rate1
        big = max(CHUNK_HANDS, int(rate1 * (0.25 if quick else 1.0)))
        n_big = 4 if quick else 8
        cases = [
            (f"{CHUNK_HANDS}-hand chunks (~{chunk_s:.2f} s)", _big_chunk_tasks(small // CHUNK_HANDS, CHUNK_HANDS)),
            (f"{big}-hand chunks (~{big / rate1:.2f} s)", _big_chunk_tasks(n_big, big)),
        ]
        with _pool(2) as pool, distributed.Client(cluster, set_as_default=False) as client:
            for label, tasks in cases:
                t = _median_times(
                    {
                        "pool": lambda: run_chunks(_play_chunk, tasks, executor=pool, progress=False),
                        "dask": lambda: run_chunks(_play_chunk, tasks, executor=client, progress=False),
                    },
                    repeats,
                )
                row(f"Dask overhead vs process pool, {label}", 100.0 * (t["dask"] / t["pool"] - 1.0),
                    "%", target="< 5 at >= 1 s chunks")
    finally:
        cluster.close(timeout=10)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for r in run(quick="--quick" in argv):
        extra = f"  (target {r['target']})" if "target" in r else ""
        print(f"{r['name']:<58} {r['value']:>12,.2f} {r['unit']:<8} median of {r['repeats']}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
