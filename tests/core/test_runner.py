"""The chunked Monte Carlo runner: same seed, same table on every executor (in-process,
local processes, any Executor, a real Dask LocalCluster); checkpoints that survive
``kill -9``; retries; clear errors before any work starts."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kaptai.core import runner
from kaptai.core.runner import (
    MANIFEST,
    CheckpointError,
    ChunkError,
    RunnerError,
    SchedulerError,
    add_counts,
    plan_chunks,
    read_manifest,
    run_chunks,
)
from kaptai.core.sampling import chunk_seeds
from kaptai.errors import KaptaiError
from kaptai.kts.simulate import CHUNK_HANDS, run_tallies, simulate

# --------------------------------------------------------------------------------------
# Chunk functions (module level: picklable for worker processes)
# --------------------------------------------------------------------------------------


def draws(chunk):
    """Counts of a die's faces plus a float sum: a toy Monte Carlo chunk."""
    rng = np.random.default_rng(chunk.seed)
    x = rng.integers(0, 6, chunk.size)
    return {"faces": np.bincount(x, minlength=6), "trials": np.array([chunk.size]),
            "sum_sqrt": np.array([np.sqrt(x + rng.random(chunk.size)).sum()])}


def float_merge(total, part):
    """A merge whose result depends on the order of the chunks (float sums)."""
    out = add_counts({k: v for k, v in total.items() if k != "sum_sqrt"},
                     {k: v for k, v in part.items() if k != "sum_sqrt"})
    out["sum_sqrt"] = total["sum_sqrt"] * 0.999 + part["sum_sqrt"]
    return out


def flaky(task):
    """Fails the first time a chunk listed in ``fail`` runs (state in marker files)."""
    chunk, marker_dir, fail, how = task
    marker = Path(marker_dir) / f"ran-{chunk.index}"
    first = not marker.exists()
    marker.write_text("x")
    if first and chunk.index in fail:
        if how == "exit":
            os._exit(3)  # the worker process dies: the pool breaks
        raise RuntimeError(f"transient failure in chunk {chunk.index}")
    return draws(chunk)


def always_fails(task):
    if task == 2:
        raise ZeroDivisionError("chunk two is broken")
    return {"n": np.array([task])}


def assert_same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        assert np.array_equal(a[k], b[k]), k


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


CHUNKS = plan_chunks(25_000, 1_000, seed=123)


@pytest.fixture(scope="module")
def inline_result():
    return run_chunks(draws, CHUNKS, merge=float_merge, progress=False)


# --------------------------------------------------------------------------------------
# Chunks and merging
# --------------------------------------------------------------------------------------


def test_plan_chunks_uses_one_seed_sequence_child_per_chunk():
    chunks = plan_chunks(10, 4, seed=9)
    assert [(c.index, c.start, c.size) for c in chunks] == [(0, 0, 4), (1, 4, 4), (2, 8, 2)]
    children = chunk_seeds(9, 3)
    for c, child in zip(chunks, children):
        assert c.seed.entropy == 9 and c.seed.spawn_key == child.spawn_key
    assert plan_chunks(0, 4, seed=1) == []
    assert run_chunks(draws, [], progress=False) == {}


def test_add_counts_refuses_different_keys():
    with pytest.raises(RunnerError, match="different keys"):
        add_counts({"a": np.zeros(1)}, {"b": np.zeros(1)})


def test_same_table_on_every_local_executor(inline_result):
    assert int(inline_result["trials"][0]) == 25_000
    assert int(inline_result["faces"].sum()) == 25_000
    runs = {
        "processes": run_chunks(draws, CHUNKS, merge=float_merge, workers=2, progress=False),
        "threads": run_chunks(
            draws, CHUNKS, merge=float_merge, executor=cf.ThreadPoolExecutor(3), progress=False
        ),
    }
    for name, result in runs.items():
        assert_same(inline_result, result)  # bit for bit, float merge included


def test_simulate_same_table_for_any_worker_count_and_executor():
    hands = 3 * CHUNK_HANDS + 5
    base = simulate(4, "advanced", hands, seed=21, progress=False, record=3)
    with cf.ThreadPoolExecutor(2) as pool:
        others = [
            simulate(4, "advanced", hands, seed=21, progress=False, record=3, workers=2),
            simulate(4, "advanced", hands, seed=21, progress=False, record=3, executor=pool),
        ]
    for df in others:
        pd.testing.assert_frame_equal(base, df)
        assert df.attrs == base.attrs


def test_progress_bar_counts_chunks(capsys):
    run_chunks(draws, CHUNKS[:3], progress=True, desc="toy")
    err = capsys.readouterr().err
    assert "toy" in err and "3/3" in err and "chunk" in err


# --------------------------------------------------------------------------------------
# Retries
# --------------------------------------------------------------------------------------


def test_failed_chunk_is_retried_and_merged_once(tmp_path, inline_result):
    tasks = [(c, str(tmp_path), {3, 7}, "raise") for c in CHUNKS]
    result = run_chunks(flaky, tasks, merge=float_merge, progress=False)
    assert_same(inline_result, result)


def test_retry_in_worker_processes(tmp_path, inline_result):
    tasks = [(c, str(tmp_path), {0, 11}, "raise") for c in CHUNKS]
    result = run_chunks(flaky, tasks, merge=float_merge, workers=2, progress=False)
    assert_same(inline_result, result)


def test_dead_worker_process_is_replaced(tmp_path, inline_result):
    tasks = [(c, str(tmp_path), {5}, "exit") for c in CHUNKS]
    result = run_chunks(flaky, tasks, merge=float_merge, workers=2, progress=False)
    assert_same(inline_result, result)


def test_chunk_that_keeps_failing_is_reported_with_its_index():
    calls = []

    def counted(task):
        calls.append(task)
        return always_fails(task)

    with pytest.raises(ChunkError, match=r"chunk 2 failed 3 time\(s\).*ZeroDivisionError") as info:
        run_chunks(counted, [0, 1, 2, 3], progress=False)
    assert info.value.index == 2 and info.value.attempts == 3
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    assert calls.count(2) == 3
    with pytest.raises(ChunkError, match="chunk 2 failed 1 time"):
        run_chunks(always_fails, [0, 1, 2, 3], workers=2, retries=0, progress=False)


def test_chunk_must_return_counts():
    with pytest.raises(RunnerError, match="chunk 0 returned list"):
        run_chunks(lambda t: [1, 2], [0], progress=False)


# --------------------------------------------------------------------------------------
# Checkpoints
# --------------------------------------------------------------------------------------


def test_checkpoint_resumes_without_rerunning_finished_chunks(tmp_path, inline_result):
    ran = []

    def counted(chunk):
        ran.append(chunk.index)
        return draws(chunk)

    fp = {"job": "dice", "seed": 123}
    first = run_chunks(counted, CHUNKS, merge=float_merge, checkpoint=tmp_path, fingerprint=fp,
                       progress=False)
    assert_same(inline_result, first)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"chunk-{i:06d}.npz" for i in range(len(CHUNKS))] + [MANIFEST]
    manifest = read_manifest(tmp_path)
    assert manifest["fingerprint"] == fp and manifest["chunks"] == len(CHUNKS)

    ran.clear()
    again = run_chunks(counted, CHUNKS, merge=float_merge, checkpoint=tmp_path, fingerprint=fp,
                       progress=False)
    assert ran == [] and set(again) == set(first)
    assert_same(first, again)

    for i in (0, 4, 24):
        (tmp_path / f"chunk-{i:06d}.npz").unlink()
    (tmp_path / "chunk-000009.npz").write_bytes(b"not a zip file")  # unreadable: redone
    with pytest.warns(RuntimeWarning, match="chunk 9 again"):
        resumed = run_chunks(counted, CHUNKS, merge=float_merge, checkpoint=tmp_path,
                             fingerprint=fp, progress=False)
    assert_same(first, resumed)
    assert sorted(ran) == [0, 4, 9, 24]

    for i in (1, 2, 17):
        (tmp_path / f"chunk-{i:06d}.npz").unlink()
    in_processes = run_chunks(draws, CHUNKS, merge=float_merge, checkpoint=tmp_path,
                              fingerprint=fp, workers=2, progress=False)
    assert_same(first, in_processes)


def test_checkpoint_of_another_job_is_refused_before_any_work(tmp_path):
    run_tallies(2, "traditional", 300, seed=5, checkpoint=tmp_path, progress=False)
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    with pytest.raises(CheckpointError, match=r"hands: 300 in the checkpoint, 400 now") as info:
        simulate(2, "traditional", 400, seed=5, checkpoint=tmp_path, progress=False)
    assert isinstance(info.value, KaptaiError)
    with pytest.raises(CheckpointError, match=r"players: 2 .*; .*seed_entropy: 5 in the checkpoint, 6 now"):
        simulate(3, "traditional", 300, seed=6, checkpoint=tmp_path, progress=False)
    # the differing options are named one by one (deliberate change: was one "rules: {...}" dump)
    with pytest.raises(CheckpointError, match=r"rules\.settlement: \"pot\" in the checkpoint, \"advanced\" now"):
        simulate(2, "advanced", 300, seed=5, checkpoint=tmp_path, progress=False)
    with pytest.raises(CheckpointError, match=r"policies: \[\"greedy\", \"greedy\"\] in the checkpoint"):
        simulate(2, "traditional", 300, seed=5, policies="random", checkpoint=tmp_path,
                 progress=False)
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before


def test_bad_checkpoint_directories_fail_before_any_work(tmp_path):
    ran = []

    def counted(chunk):
        ran.append(chunk.index)
        return draws(chunk)

    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(CheckpointError, match="cannot create the checkpoint directory"):
        run_chunks(counted, CHUNKS, checkpoint=blocker / "sub", progress=False)
    with pytest.raises(CheckpointError, match="not a directory|cannot create"):
        run_chunks(counted, CHUNKS, checkpoint=blocker, progress=False)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / MANIFEST).write_text(json.dumps({"something": "else"}))
    with pytest.raises(CheckpointError, match="is not a kaptai checkpoint manifest"):
        run_chunks(counted, CHUNKS, checkpoint=foreign, progress=False)
    orphan = tmp_path / "orphan"
    orphan.mkdir()
    (orphan / "chunk-000000.npz").write_bytes(b"")
    with pytest.raises(CheckpointError, match="no kaptai-checkpoint.json"):
        run_chunks(counted, CHUNKS, checkpoint=orphan, progress=False)
    if hasattr(os, "geteuid") and os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        try:
            with pytest.raises(CheckpointError, match="is not writable"):
                run_chunks(counted, CHUNKS, checkpoint=locked, progress=False)
        finally:
            locked.chmod(0o700)
    assert ran == []


def test_seed_none_resumes_with_the_recorded_entropy(tmp_path):
    a = simulate(2, "advanced", 2 * CHUNK_HANDS, seed=None, record=2, checkpoint=tmp_path,
                 progress=False)
    (tmp_path / "chunk-000001.npz").unlink()
    b = simulate(2, "advanced", 2 * CHUNK_HANDS, seed=None, record=2, checkpoint=tmp_path,
                 progress=False)
    assert a.attrs["seed_entropy"] == b.attrs["seed_entropy"]
    assert a.attrs["log"] == b.attrs["log"]
    pd.testing.assert_frame_equal(a, b)


KILL_SCRIPT = textwrap.dedent(
    """
    import sys
    from kaptai.kts.simulate import simulate
    simulate(4, "traditional", int(sys.argv[2]), seed=77, record=4, checkpoint=sys.argv[1],
             progress=False)
    """
)


def test_run_killed_mid_way_resumes_to_the_uninterrupted_table(tmp_path):
    ckpt = tmp_path / "ckpt"
    hands = 60 * CHUNK_HANDS + 123  # ~3 s on one core
    errors = tmp_path / "stderr.txt"
    with open(errors, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, "-c", KILL_SCRIPT, str(ckpt), str(hands)],
            cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=err,
        )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if ckpt.is_dir() and len(list(ckpt.glob("chunk-*.npz"))) >= 3:
                break
            time.sleep(0.005)
        assert proc.poll() is None, errors.read_text()
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    finished = len(list(ckpt.glob("chunk-*.npz")))
    assert 3 <= finished < 61

    resumed = simulate(4, "traditional", hands, seed=77, record=4, checkpoint=ckpt, progress=False)
    assert len(list(ckpt.glob("chunk-*.npz"))) == 61 and not list(ckpt.glob(".*.tmp"))
    whole = simulate(4, "traditional", hands, seed=77, record=4, workers=2, progress=False)
    pd.testing.assert_frame_equal(whole, resumed)
    assert whole.attrs == resumed.attrs


# --------------------------------------------------------------------------------------
# Executor options and Dask
# --------------------------------------------------------------------------------------


def test_bad_executor_options_fail_before_any_work():
    with pytest.raises(RunnerError, match="not both"):
        run_chunks(draws, CHUNKS, executor=cf.ThreadPoolExecutor(1), scheduler="local")
    with pytest.raises(SchedulerError, match="expected 'local' or a Dask scheduler address"):
        run_chunks(draws, CHUNKS, scheduler="10.0.0.5:8786")
    with pytest.raises(RunnerError, match="expected a concurrent.futures.Executor"):
        run_chunks(draws, CHUNKS, executor="threads")
    with pytest.raises(RunnerError, match="workers=0"):
        run_chunks(draws, CHUNKS, workers=0)


def test_missing_dask_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    with pytest.raises(SchedulerError, match=r"pip install kaptai\[distributed\]"):
        simulate(4, hands=10, scheduler="tcp://127.0.0.1:8786", progress=False)


def needs_dask():
    """The ``distributed`` module, or skip the test (CI installs it with ``.[test]``)."""
    try:
        import distributed
    except ImportError:
        pytest.skip("dask[distributed] is not installed (pip install kaptai[distributed])")
    return distributed


def test_scheduler_local_starts_and_closes_its_own_cluster():
    needs_dask()
    import multiprocessing

    before = set(multiprocessing.active_children())
    hands = 2 * CHUNK_HANDS + 1
    base = simulate(3, "traditional", hands, seed=2, progress=False)
    local = simulate(3, "traditional", hands, seed=2, progress=False, scheduler="local", workers=2)
    pd.testing.assert_frame_equal(base, local)
    assert set(multiprocessing.active_children()) <= before  # no worker left running


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = needs_dask()
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=40,
    )
    try:
        yield cluster
    finally:
        cluster.close()


def test_dask_cluster_gives_the_same_table(dask_cluster):
    import distributed

    hands = 3 * CHUNK_HANDS + 11
    kwargs = dict(seed=8, record=2, progress=False)
    base = simulate(4, "traditional", hands, **kwargs)
    on_dask = simulate(4, "traditional", hands, scheduler=dask_cluster.scheduler_address, **kwargs)
    pd.testing.assert_frame_equal(base, on_dask)
    assert base.attrs == on_dask.attrs
    two = simulate(4, "traditional", hands, workers=2, **kwargs)
    pd.testing.assert_frame_equal(base, two)
    with distributed.Client(dask_cluster, set_as_default=False) as client:
        via_client = simulate(4, "traditional", hands, executor=client, **kwargs)
        assert client.status == "running"  # a client we were given stays open
    pd.testing.assert_frame_equal(base, via_client)


def test_dask_run_resumes_a_local_checkpoint(dask_cluster, tmp_path):
    hands = 3 * CHUNK_HANDS
    local = run_tallies(2, "advanced", hands, seed=4, checkpoint=tmp_path, progress=False)
    (tmp_path / "chunk-000002.npz").unlink()
    resumed = run_tallies(2, "advanced", hands, seed=4, checkpoint=tmp_path, progress=False,
                          scheduler=dask_cluster.scheduler_address)
    assert_same(local[0], resumed[0])
    assert np.array_equal(local[1], resumed[1])


def test_unreachable_scheduler_fails_fast_before_any_work(monkeypatch, tmp_path):
    needs_dask()
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    t0 = time.perf_counter()
    with pytest.raises(SchedulerError, match=r"cannot reach the Dask scheduler at 'tcp://127\.0\.0\.1:\d+' within 1 s"):
        simulate(4, hands=10, seed=1, scheduler=address, checkpoint=tmp_path, progress=False)
    assert time.perf_counter() - t0 < 10
    assert not list(tmp_path.glob("chunk-*.npz"))
