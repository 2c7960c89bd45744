"""The chunked Monte Carlo runner: same seed, same table on every executor (in-process,
local processes, any Executor, a real Dask LocalCluster); checkpoints that survive
``kill -9``; retries; clear errors before any work starts."""

from __future__ import annotations

import concurrent.futures as cf
import importlib
import io
import json
import logging
import os
import re
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
    Job,
    RunInterrupted,
    RunnerError,
    SchedulerError,
    WorkerError,
    add_counts,
    plan_chunks,
    read_manifest,
    run_chunks,
    run_jobs,
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


# --------------------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------------------

LINE = re.compile(
    r"(?P<desc>[\w -]+): (?P<done>[\d,]+)/(?P<total>[\d,]+) (?P<unit>\w+) \((?P<pct>\d+)%\), "
    r"[\d.]+ s(?:, eta (?:[\d.]+ s|\?))?(?P<notes>(?:, [^,]+)*?)(?:, (?P<end>done|stopped))?"
)


def slow_draws(chunk):
    time.sleep(0.25)
    return draws(chunk)


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def parse_lines(err: str) -> list[re.Match]:
    lines = err.splitlines()
    matches = [LINE.fullmatch(line) for line in lines]
    assert all(matches), lines
    return matches


def test_progress_off_a_terminal_writes_plain_lines_counting_hands(capsys):
    run_chunks(slow_draws, CHUNKS[:4], progress=True, desc="simulate", progress_interval=0.1)
    err = capsys.readouterr().err
    assert "\r" not in err  # no bar in a log
    lines = parse_lines(err)
    assert len(lines) >= 3  # every few seconds (here 0.1 s), and one at the end
    assert all(m["desc"] == "simulate" and m["unit"] == "hands" and m["total"] == "4,000" for m in lines)
    done = [int(m["done"].replace(",", "")) for m in lines]
    assert done == sorted(done) and done[-1] == 4000 and set(done) <= {0, 1000, 2000, 3000, 4000}
    assert lines[-1]["end"] == "done" and lines[-1]["pct"] == "100"
    assert all(m["end"] is None for m in lines[:-1])


def test_progress_lines_keep_coming_while_a_long_chunk_runs(capsys):
    with cf.ThreadPoolExecutor(1) as pool:
        run_chunks(slow_draws, CHUNKS[:1], executor=pool, progress="lines", desc="toy", progress_interval=0.05)
    lines = parse_lines(capsys.readouterr().err)
    assert [m["done"] for m in lines[:-1]] == ["0"] * (len(lines) - 1) and len(lines) >= 3
    assert lines[-1]["done"] == "1,000" and lines[-1]["end"] == "done"


def test_progress_on_a_terminal_is_a_bar_counting_hands(monkeypatch):
    term = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", term)
    run_chunks(draws, plan_chunks(30_000, 10_000, seed=1), progress=True, desc="toy")
    err = term.getvalue()
    assert "\r" in err and "toy" in err and "30.0k/30.0k" in err and "hands/s" in err


def test_progress_false_prints_nothing(capsys, monkeypatch):
    run_chunks(draws, CHUNKS[:3], progress=False)
    assert capsys.readouterr().err == ""
    term = FakeTerminal()
    monkeypatch.setattr(sys, "stderr", term)
    run_chunks(draws, CHUNKS[:3], progress=False)
    assert term.getvalue() == ""


def test_progress_reads_sizes_and_units(capsys, tmp_path):
    tasks = [(c, str(tmp_path), set(), "raise") for c in CHUNKS[:3]]  # tuples: no chunk sizes to read
    run_chunks(flaky, tasks, progress="lines", desc="toy")
    assert parse_lines(capsys.readouterr().err)[-1]["unit"] == "chunks"
    run_chunks(flaky, tasks, progress="lines", desc="toy", sizes=CHUNKS[:3], unit="matches")
    last = parse_lines(capsys.readouterr().err)[-1]
    assert (last["done"], last["total"], last["unit"]) == ("3,000", "3,000", "matches")
    with pytest.raises(RunnerError, match="sizes has 2 entries for 3 tasks"):
        run_chunks(flaky, tasks, sizes=[1, 2], progress=False)
    with pytest.raises(RunnerError, match="progress='loud'"):
        run_chunks(draws, CHUNKS[:3], progress="loud")


def test_progress_of_a_resumed_run_counts_the_saved_hands(capsys, tmp_path):
    run_chunks(draws, CHUNKS[:4], checkpoint=tmp_path, progress=False)
    (tmp_path / "chunk-000002.npz").unlink()
    run_chunks(draws, CHUNKS[:4], checkpoint=tmp_path, progress="lines", desc="toy")
    last = parse_lines(capsys.readouterr().err)[-1]
    assert last["done"] == "4,000" and "resumed 3 chunk(s)" in last["notes"]


def test_simulate_progress_counts_hands_off_a_terminal(capsys):
    simulate(4, "traditional", 2 * CHUNK_HANDS + 1, seed=1, progress=True)
    last = parse_lines(capsys.readouterr().err)[-1]
    assert last["total"] == f"{2 * CHUNK_HANDS + 1:,}" and last["unit"] == "hands" and last["end"] == "done"
    simulate(4, "traditional", 2 * CHUNK_HANDS + 1, seed=1, progress=False)
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------------------
# Several jobs in one run
# --------------------------------------------------------------------------------------


def test_run_jobs_gives_each_job_what_run_chunks_gives_it(tmp_path, inline_result):
    other = plan_chunks(7_500, 1_000, seed=9)
    jobs = [Job(draws, CHUNKS, merge=float_merge), Job(always_fails, [0, 1]), Job(draws, other, merge=float_merge)]
    alone = [inline_result, run_chunks(always_fails, [0, 1], progress=False),
             run_chunks(draws, other, merge=float_merge, progress=False)]
    for kwargs in ({}, {"workers": 2}, {"checkpoint": tmp_path}):
        got = run_jobs(jobs, progress=False, **kwargs)
        assert len(got) == 3
        for a, b in zip(alone, got):
            assert_same(a, b)
    (tmp_path / "chunk-000030.npz").unlink()  # a chunk of the third job
    assert read_manifest(tmp_path)["chunks"] == len(CHUNKS) + 2 + len(other)
    assert_same(alone[2], run_jobs(jobs, checkpoint=tmp_path, progress=False)[2])
    with pytest.raises(CheckpointError, match="different job"):
        run_jobs(jobs[:2], checkpoint=tmp_path, progress=False)


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


# --------------------------------------------------------------------------------------
# Dask workers that cannot run kaptai: the run stops at once, saying why
# --------------------------------------------------------------------------------------

BREAK_KAPTAI = """
import sys
sys.path.insert(0, {folder!r})
for name in [m for m in sys.modules if m == "kaptai" or m.startswith("kaptai.")]:
    del sys.modules[name]
"""


@pytest.mark.timeout(30)
def test_dask_workers_that_cannot_import_kaptai_stop_the_run(tmp_path):
    """The case of ``benchmarks/run.py`` after ``pip install .``: the workers import another
    kaptai (there an uncompiled source tree; here one whose import fails).  Without care a
    task fails while the worker reads it, the worker's connection dies and the run waits
    forever; it must stop with a WorkerError naming the import failure."""
    distributed = needs_dask()
    broken = tmp_path / "broken"
    (broken / "kaptai").mkdir(parents=True)
    (broken / "kaptai" / "__init__.py").write_text('raise ImportError("this kaptai is broken on purpose")\n')
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
        silence_logs=logging.CRITICAL, preload=[BREAK_KAPTAI.format(folder=str(broken))],
    )
    try:
        with pytest.raises(WorkerError, match=r"cannot load chunk 0 .*ImportError: this kaptai is broken on "
                                              r"purpose.*finds kaptai at .*broken") as info:
            simulate(4, "traditional", 3 * CHUNK_HANDS, seed=1, progress=False, checkpoint=tmp_path / "ck",
                     scheduler=cluster.scheduler_address)
        assert isinstance(info.value, RunnerError) and isinstance(info.value, KaptaiError)
        assert info.value.worker in cluster.scheduler_info["workers"]
        assert not list((tmp_path / "ck").glob("chunk-*.npz"))
    finally:
        cluster.close()


def test_a_task_the_dask_workers_cannot_deserialize_stops_the_run(dask_cluster, tmp_path):
    """A chunk function the workers cannot load (its module exists only here): fatal at once,
    not retried, and the cluster stays usable."""
    (tmp_path / "kaptai_test_only_here.py").write_text(
        "import numpy as np\n\ndef chunk(c):\n    return {'n': np.array([c.size])}\n"
    )
    sys.path.insert(0, str(tmp_path))
    try:
        only_here = importlib.import_module("kaptai_test_only_here")
    finally:
        sys.path.remove(str(tmp_path))
    try:
        assert run_chunks(only_here.chunk, CHUNKS[:3], progress=False)["n"].tolist() == [3000]
        with pytest.raises(WorkerError, match=r"ModuleNotFoundError: No module named 'kaptai_test_only_here'"):
            run_chunks(only_here.chunk, CHUNKS[:3], progress=False, scheduler=dask_cluster.scheduler_address)
    finally:
        del sys.modules["kaptai_test_only_here"]
    hands = CHUNK_HANDS + 3
    assert_same(run_tallies(2, "traditional", hands, seed=3, progress=False)[0],
                run_tallies(2, "traditional", hands, seed=3, progress=False,
                            scheduler=dask_cluster.scheduler_address)[0])


class _DroppedCtrlC:
    """Ctrl-C while a finalizer runs: SIGINT raised inside ``__del__``, where Python prints the
    KeyboardInterrupt as "Exception ignored" and drops it (as in the ``__del__`` of a Dask
    future, which the main thread runs each time it lets go of a finished chunk)."""

    def __del__(self):
        signal.raise_signal(signal.SIGINT)


def interrupt_after_saves(monkeypatch, how: str, after: int = 2) -> dict:
    """Deliver Ctrl-C once ``after`` chunks are saved (a hook on the checkpoint, not a clock):
    ``'thread'`` -- SIGINT sent by another thread (as a terminal sends it, landing wherever the
    main thread is); ``'finalizer'`` -- raised inside a finalizer run by the main thread.
    Returns the state: ``sent`` (monotonic time), ``dropped`` (KeyboardInterrupts Python
    reported as unraisable)."""
    import threading

    state: dict = {"sent": None, "dropped": 0, "saves": 0, "go": threading.Event(), "running": True}
    save = runner._Checkpoint.save

    def hooked_save(self, index, counts):
        save(self, index, counts)
        state["saves"] += 1
        if state["saves"] == after:
            if how == "finalizer":
                state["sent"] = time.monotonic()
                _DroppedCtrlC()  # made and dropped at once: its __del__ raises SIGINT
            else:
                state["go"].set()

    def unraisable(u):
        if isinstance(u.exc_value, KeyboardInterrupt):
            state["dropped"] += 1

    def sender():
        while state["running"]:
            if state["go"].wait(0.05):
                state["sent"] = time.monotonic()
                os.kill(os.getpid(), signal.SIGINT)
                return

    monkeypatch.setattr(runner._Checkpoint, "save", hooked_save)
    monkeypatch.setattr(sys, "unraisablehook", unraisable)
    if how == "thread":
        state["thread"] = threading.Thread(target=sender, daemon=True)
        state["thread"].start()
    return state


def stop_sender(state: dict) -> None:
    state["running"] = False
    if "thread" in state:
        state["thread"].join(5)


@pytest.mark.parametrize("how", ["thread", "finalizer"])
def test_ctrl_c_stops_a_run_even_where_python_drops_it(monkeypatch, tmp_path, how):
    """Ctrl-C after the second saved chunk (a hook, not a clock), in this process's runner:
    RunInterrupted, the chunks on disk counted, Python's SIGINT handler back afterwards --
    also when the KeyboardInterrupt was raised inside a finalizer and dropped by Python
    (the cause of a Dask run that ran to its end after Ctrl-C)."""
    ckpt = tmp_path / "ck"
    state = interrupt_after_saves(monkeypatch, how)
    try:
        with pytest.raises(RunInterrupted) as info:
            run_chunks(slow_chunk, plan_chunks(400 * 100, 100, seed=1), checkpoint=ckpt, progress=False)
        stopped = time.monotonic()
    finally:
        stop_sender(state)
    assert state["sent"] is not None and stopped - state["sent"] < 2
    assert state["dropped"] == (1 if how == "finalizer" else 0)  # Python did drop it
    saved = len(list(ckpt.glob("chunk-*.npz")))
    assert info.value.saved == saved and 2 <= saved < 400
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_run_leaves_a_sigint_handler_of_the_caller_alone():
    seen = []
    old = signal.signal(signal.SIGINT, lambda *a: seen.append(a))
    try:
        assert run_chunks(draws, plan_chunks(300, 100, seed=1), progress=False)["trials"].tolist() == [300]
        assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
        assert signal.getsignal(signal.SIGINT) is not runner._on_sigint
    finally:
        signal.signal(signal.SIGINT, old)


@pytest.mark.timeout(300)  # the cluster's start on a loaded 2-core machine; the hang guard is the assert below
@pytest.mark.parametrize("how", ["thread", "finalizer"])
def test_ctrl_c_during_a_dask_run_stops_it_promptly(dask_cluster, tmp_path, monkeypatch, how):
    """Ctrl-C while the run waits for Dask, once two chunks are saved (a hook, not a clock):
    SIGINT from another thread (as a terminal sends it), or raised inside a finalizer and
    dropped by Python (the one failure seen: "DID NOT RAISE", the run went on to its end).
    RunInterrupted within seconds, finished chunks saved, futures cancelled."""
    ckpt = tmp_path / "ck"
    state = interrupt_after_saves(monkeypatch, how)
    try:
        with pytest.raises(RunInterrupted, match=r"chunk\(s\) are saved in the checkpoint") as info:
            simulate(4, "traditional", 5_000 * CHUNK_HANDS, seed=5, progress=False, checkpoint=ckpt,
                     scheduler=dask_cluster.scheduler_address)
        stopped = time.monotonic()
    finally:
        stop_sender(state)
    assert state["sent"] is not None and stopped - state["sent"] < runner.CANCEL_TIMEOUT + 5
    assert state["dropped"] == (1 if how == "finalizer" else 0)
    saved = int(re.match(r"(\d+) of", str(info.value)).group(1))
    assert 2 <= saved == len(list(ckpt.glob("chunk-*.npz"))) < 5_000
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    with distributed_client(dask_cluster) as client:  # nothing left running on the cluster
        deadline = time.monotonic() + 10
        while client.processing() and any(client.processing().values()) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(client.processing().values())


@pytest.mark.timeout(120)
def test_ctrl_c_while_the_dask_client_connects_stops_the_run(monkeypatch, tmp_path):
    """Ctrl-C while ``distributed.Client`` waits for a scheduler that accepted the connection
    but never answers (sent once the connection is accepted): RunInterrupted within seconds,
    long before the connection timeout."""
    import threading

    needs_dask()
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT", 60.0)
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    conns = []
    state = {"sent": None}

    def accept_and_interrupt():
        try:
            conn, _ = server.accept()
        except OSError:
            return
        conns.append(conn)  # kept open, never answered
        time.sleep(0.2)  # the client now waits for the handshake
        state["sent"] = time.monotonic()
        os.kill(os.getpid(), signal.SIGINT)

    th = threading.Thread(target=accept_and_interrupt, daemon=True)
    th.start()
    try:
        with pytest.raises(RunInterrupted, match="nothing was saved"):
            simulate(4, hands=10, seed=1, progress=False,
                     scheduler=f"tcp://127.0.0.1:{server.getsockname()[1]}")
        stopped = time.monotonic()
    finally:
        server.close()
        th.join(5)
        for c in conns:
            c.close()
    assert state["sent"] is not None and stopped - state["sent"] < runner.CANCEL_TIMEOUT + 2
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert not unclosed_clients_left_to_the_collector()


def unclosed_clients_left_to_the_collector() -> list:
    """Dask clients alive or awaiting collection, not closed, and not held by the runner until
    closed: the garbage collector would close them in ``Client.__del__``, which takes a
    class-wide lock of ``distributed`` and hangs the thread it runs in if that thread holds the
    lock (seen: a later run in this process hung in its client's start for 300 s)."""
    import gc

    import distributed

    return [o for o in gc.get_objects()
            if isinstance(o, distributed.Client) and getattr(o, "status", "closed") not in ("closed", "newly-created")
            and not any(o is kept for kept in runner._UNCLOSED)]


@pytest.mark.timeout(300)
def test_ctrl_c_while_a_local_cluster_starts_stops_the_run(monkeypatch, tmp_path):
    """``scheduler='local'``: Ctrl-C once the scheduler is up and the run waits for its workers
    (a hook on that wait): RunInterrupted within seconds, no worker process left."""
    import multiprocessing
    import threading

    needs_dask()
    state = {"sent": None, "go": threading.Event(), "running": True}
    wait = runner._Executors._wait_for_local_workers

    def hooked_wait(self, client):
        state["go"].set()
        return wait(self, client)

    def sender():
        while state["running"]:
            if state["go"].wait(0.05):
                state["sent"] = time.monotonic()
                os.kill(os.getpid(), signal.SIGINT)
                return

    monkeypatch.setattr(runner._Executors, "_wait_for_local_workers", hooked_wait)
    before = set(multiprocessing.active_children())
    th = threading.Thread(target=sender, daemon=True)
    th.start()
    try:
        with pytest.raises(RunInterrupted):
            simulate(4, hands=10 * CHUNK_HANDS, seed=1, progress=False, scheduler="local", workers=1)
        stopped = time.monotonic()
    finally:
        state["running"] = False
        th.join(5)
    assert state["sent"] is not None and stopped - state["sent"] < runner.CANCEL_TIMEOUT + 2
    deadline = time.monotonic() + 30  # the cluster closes in the background
    while set(multiprocessing.active_children()) - before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not set(multiprocessing.active_children()) - before
    assert not unclosed_clients_left_to_the_collector()


def slow_chunk(chunk):
    """A chunk that takes ~0.2 s (a loaded machine's chunk)."""
    time.sleep(0.2)
    return draws(chunk)


@pytest.mark.timeout(120)
def test_ctrl_c_during_a_process_pool_run_stops_it_within_seconds(tmp_path):
    """SIGINT while worker processes play: RunInterrupted within a few seconds, the chunks on
    disk counted, no worker process left, no temporary file left in the checkpoint."""
    import multiprocessing
    import threading

    ckpt = tmp_path / "ck"
    state = {"running": True, "sent": None}

    def interrupt_after_two_chunks():
        while state["running"]:
            if len(list(ckpt.glob("chunk-*.npz"))) >= 2:
                state["sent"] = time.monotonic()
                os.kill(os.getpid(), signal.SIGINT)
                return
            time.sleep(0.01)

    before = set(multiprocessing.active_children())
    watcher = threading.Thread(target=interrupt_after_two_chunks, daemon=True)
    watcher.start()
    try:
        with pytest.raises(RunInterrupted) as info:
            run_chunks(slow_chunk, plan_chunks(10**6, 100, seed=1), workers=2, checkpoint=ckpt, progress=False)
        stopped = time.monotonic()
    finally:
        state["running"] = False
        watcher.join(5)
    assert state["sent"] is not None and stopped - state["sent"] < runner.CANCEL_TIMEOUT + 2
    saved = len(list(ckpt.glob("chunk-*.npz")))
    assert info.value.saved == saved >= 2 and info.value.chunks == 10**4 and info.value.checkpoint == ckpt
    assert str(info.value).startswith(f"{saved} of 10000 chunk(s) are saved")
    assert not list(ckpt.glob(".*.tmp"))
    deadline = time.monotonic() + 10
    while set(multiprocessing.active_children()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not set(multiprocessing.active_children()) - before


def test_the_runner_waits_on_a_queue_not_inside_cf_wait(monkeypatch):
    """Ctrl-C landing inside ``concurrent.futures.wait`` can leave a future's lock held (its
    ``_AcquireFutures`` is not interrupt-safe) and hang a Dask client's event loop; the run
    waits on done-callbacks instead."""
    def no_wait(*args, **kwargs):
        raise AssertionError("cf.wait called")

    monkeypatch.setattr(cf, "wait", no_wait)
    with cf.ThreadPoolExecutor(2) as ex:
        total = run_chunks(slow_chunk, plan_chunks(600, 100, seed=1), executor=ex, progress=False)
    assert int(total["trials"][0]) == 600


def distributed_client(cluster):
    import distributed

    return distributed.Client(cluster, set_as_default=False)


def test_dask_workers_on_another_python_are_refused_before_any_work():
    class FakeClient:
        def get_versions(self):
            return {"client": {"packages": {"python": "3.11.7.final.0"}},
                    "workers": {"tcp://w1:1": {"packages": {"python": "3.11.2.final.0"}},
                                "tcp://w2:1": {"packages": {"python": "3.12.1.final.0"}}}}

    with pytest.raises(SchedulerError, match=r"1 Dask worker\(s\) run another Python .*tcp://w2:1: Python 3\.12\.1, here 3\.11"):
        runner._check_python(FakeClient())
