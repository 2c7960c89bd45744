"""Chunked Monte Carlo runs: in this process, in local processes or on a Dask cluster.

A Monte Carlo job is cut into chunks of trials; chunk ``i`` reads its own random stream
(child ``i`` of ``SeedSequence(seed)``, see :mod:`kaptai.core.sampling`) and returns
*mergeable counts* -- a dict of numpy arrays such as tallies or histograms, never raw
samples.  :func:`run_chunks` runs a picklable chunk function over the chunks on an
executor and merges the results **in chunk order**, so the same seed gives the same
table, bit for bit, whatever ran it:

=================================  ================================================
``workers=1`` (default)            in this process
``workers=N``                      ``N`` local processes (``ProcessPoolExecutor``)
``executor=ex``                    any ``concurrent.futures.Executor`` (or a Dask
                                   ``distributed.Client``); not shut down by kaptai
``scheduler="tcp://host:port"``    an existing Dask cluster
``scheduler="local"``              a Dask ``LocalCluster`` of ``workers`` processes,
                                   started and closed by the run
=================================  ================================================

Dask is optional: ``pip install kaptai[distributed]``.

With ``checkpoint=DIR`` every finished chunk is written to ``DIR`` at once, atomically
(a temporary file, then ``os.replace``), as ``chunk-000123.npz``; a manifest
(``kaptai-checkpoint.json``, written before any work) records the job's parameters.
Running the same job again skips the finished chunks and returns the same table; a
checkpoint of a different job is refused (:class:`CheckpointError`) before any work.

A chunk that raises is retried (``retries`` times), then reported with its index
(:class:`ChunkError`); each chunk is merged exactly once.  A :class:`~kaptai.errors.KaptaiError`
(bad input, a policy's illegal play) is deterministic: it reaches the caller as itself, at
once, without retries.  Chunks are planned lazily (:class:`ChunkPlan`), so memory stays flat
for any run size; Ctrl-C raises :class:`RunInterrupted` after saving every finished chunk
in the checkpoint (within a fraction of a second, whatever the executor: the run never
blocks without a timeout).

On Dask every chunk is sent as bytes and loaded by a small function that needs nothing but
``distributed`` on the worker, so a worker that cannot import kaptai (not installed, an
uncompiled source tree, another version) or cannot load a task reports it as the chunk's
result: the run stops at once with :class:`WorkerError` saying so, instead of waiting
forever for a worker whose connection died while reading the task.

Progress (``progress=True``) counts trials -- hands, matches, sessions: the ``sizes`` of the
tasks, read from the :class:`ChunkPlan` when there is one -- as a ``tqdm`` bar on a terminal
and as a plain line every few seconds elsewhere (:mod:`kaptai.core.progress`).  Several jobs
(the variants of a fairness comparison) run as one run, one checkpoint and one progress
count with :func:`run_jobs`.

Examples
--------
>>> import numpy as np
>>> from kaptai.core.runner import plan_chunks, run_chunks
>>> def heads(chunk):
...     rng = np.random.default_rng(chunk.seed)
...     return {"heads": np.array([rng.integers(0, 2, chunk.size).sum()]),
...             "trials": np.array([chunk.size])}
>>> chunks = plan_chunks(10_000, 4_000, seed=7)
>>> [(c.index, c.start, c.size) for c in chunks]
[(0, 0, 4000), (1, 4000, 4000), (2, 8000, 2000)]
>>> total = run_chunks(heads, chunks, progress=False)
>>> int(total["trials"][0]), 4800 < int(total["heads"][0]) < 5200
(10000, True)
"""

from __future__ import annotations

import bisect
import collections
import concurrent.futures as cf
import hashlib
import json
import logging
import os
import pickle
import queue
import re
import signal
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import numpy as np

from kaptai.core.progress import Progress, check_mode
from kaptai.core.sampling import chunk_seed, seed_entropy
from kaptai.core.paths import PathError, check_path_names, umask_mode
from kaptai.errors import KaptaiError, quote_token

__all__ = [
    "CONNECT_TIMEOUT",
    "WORKER_START_TIMEOUT",
    "IN_FLIGHT_PER_WORKER",
    "MANIFEST",
    "POLL",
    "CANCEL_TIMEOUT",
    "MAX_WORKERS",
    "Chunk",
    "ChunkPlan",
    "LazyTasks",
    "TaskSizes",
    "Job",
    "RunnerError",
    "CheckpointError",
    "SchedulerError",
    "WorkerError",
    "ChunkError",
    "RunInterrupted",
    "plan_chunks",
    "add_counts",
    "run_chunks",
    "run_jobs",
    "read_manifest",
    "resume_seed",
    "check_checkpoint_arg",
]

#: Seconds to wait for a Dask scheduler before giving up.
CONNECT_TIMEOUT: float = 5.0
#: Seconds to wait for the workers of a ``scheduler='local'`` cluster to start.
WORKER_START_TIMEOUT: float = 120.0
#: File name of the checkpoint manifest.
MANIFEST: str = "kaptai-checkpoint.json"
#: Chunks submitted ahead per worker thread.
IN_FLIGHT_PER_WORKER: int = 2
#: Most worker processes a run takes (the CLI's --workers takes up to 256).
MAX_WORKERS: int = 1024
#: Longest wait (seconds) for a chunk before the run looks at Ctrl-C and progress again.
POLL: float = 0.25
_FORMAT = "kaptai-checkpoint"
_FORMAT_VERSION = 1
_CHUNK_RE = re.compile(r"^chunk-(\d{6,})\.npz$")
# temporary files kaptai writes in a checkpoint directory (a chunk or the manifest being
# written, a write test): left behind only by a run killed at that moment
_TMP_RE = re.compile(r"^\.(chunk-\d{6,}\.npz|kaptai-checkpoint\.json|write-test)\..*\.tmp$|^\.kaptai-write-test\.")
#: Longest wait (seconds) for the executor's cleanup after Ctrl-C or a failed run (cancelling
#: Dask futures, closing a client or cluster): past it the run returns and the cleanup goes on
#: in the background, so Ctrl-C is answered within seconds however loaded the machine is.
CANCEL_TIMEOUT: float = 3.0

T = TypeVar("T")
_P = ParamSpec("_P")
_R = TypeVar("_R")
Counts = dict[str, np.ndarray]


# --------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------


class RunnerError(KaptaiError):
    """A run that cannot start or cannot finish (bad executor options, failed chunk)."""


class CheckpointError(RunnerError):
    """A checkpoint directory that belongs to another job, or cannot be written."""


class SchedulerError(RunnerError):
    """A Dask scheduler that cannot be reached, or Dask that is not installed."""


class WorkerError(RunnerError):
    """A Dask worker that cannot load kaptai or a chunk's task (not installed there, an
    uncompiled source tree, another version); fatal, not retried.

    Attributes
    ----------
    worker : str or None
        The worker's address.
    detail : dict
        What the worker reported: its error, Python, where it finds kaptai.
    """

    def __init__(self, message: str, worker: str | None = None, detail: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.worker = worker
        self.detail = dict(detail or {})


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; the message says what was saved and how to resume.

    Attributes
    ----------
    checkpoint : pathlib.Path or None
        The run's checkpoint directory (None: nothing was saved).
    saved, chunks : int
        Chunk files of the run on disk at the interrupt, and the chunks of the run.
    """

    def __init__(self, message: str = "", checkpoint: Path | None = None, saved: int = 0, chunks: int = 0):
        super().__init__(message)
        self.checkpoint = checkpoint
        self.saved = saved
        self.chunks = chunks


class ChunkError(RunnerError):
    """A chunk that kept failing after its retries.

    Attributes
    ----------
    index : int
        The chunk's index.
    attempts : int
        How many times it was run.
    """

    def __init__(self, message: str, index: int, attempts: int):
        super().__init__(message)
        self.index = index
        self.attempts = attempts


# --------------------------------------------------------------------------------------
# Chunks
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """One chunk of a Monte Carlo job: trials ``start .. start + size - 1``.

    Attributes
    ----------
    index : int
        Position of the chunk in the job (also the index of its random stream).
    start : int
        Index of its first trial.
    size : int
        Number of trials.
    seed : numpy.random.SeedSequence
        Child ``index`` of the job's ``SeedSequence``; build the chunk's generator from it
        (``np.random.default_rng(chunk.seed)`` or :func:`kaptai.core.sampling.bit_generator`).
    """

    index: int
    start: int
    size: int
    seed: np.random.SeedSequence


class ChunkPlan(Sequence):
    """The chunks of a job, made on demand: constant memory whatever the number of trials.

    A read-only sequence of :class:`Chunk` (``len``, indexing, slicing, iteration); chunk
    ``i`` is built when it is read, with its seed :func:`kaptai.core.sampling.chunk_seed`,
    so a plan of 10**12 trials costs no more than a plan of ten.

    Examples
    --------
    >>> from kaptai.core.runner import ChunkPlan
    >>> plan = ChunkPlan(10**15, 1000, 3)
    >>> len(plan), plan[-1].start, plan[-1].size
    (1000000000000, 999999999999000, 1000)
    """

    __slots__ = ("total", "chunk_size", "entropy")

    def __init__(self, total: int, chunk_size: int, entropy: int):
        if chunk_size < 1:
            raise ValueError(f"chunk_size={chunk_size!r}: expected a positive integer")
        self.total, self.chunk_size, self.entropy = int(total), int(chunk_size), int(entropy)

    def __len__(self) -> int:
        return -(-max(self.total, 0) // self.chunk_size)

    def __getitem__(self, index):
        n = len(self)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(n))]
        i = int(index)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"chunk {index} of a plan of {n}")
        start = i * self.chunk_size
        return Chunk(i, start, min(self.chunk_size, self.total - start), chunk_seed(self.entropy, i))

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChunkPlan):
            return (self.total, self.chunk_size, self.entropy) == (other.total, other.chunk_size, other.entropy)
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __repr__(self) -> str:
        return f"ChunkPlan(total={self.total}, chunk_size={self.chunk_size}, entropy={self.entropy})"


class LazyTasks(Sequence):
    """``make(chunk)`` for every chunk of a plan, built when read (see :class:`ChunkPlan`).

    Examples
    --------
    >>> from kaptai.core.runner import LazyTasks, plan_chunks
    >>> tasks = LazyTasks(lambda c: (c.start, c.size), plan_chunks(10**12, 10, seed=1))
    >>> len(tasks), tasks[3]
    (100000000000, (30, 10))
    """

    __slots__ = ("make", "chunks")

    def __init__(self, make: Callable[[Chunk], Any], chunks: Sequence[Chunk]):
        self.make, self.chunks = make, chunks

    def __len__(self) -> int:
        return len(self.chunks)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.make(c) for c in self.chunks[index]]
        return self.make(self.chunks[index])

    def __iter__(self):
        return (self.make(c) for c in self.chunks)


def _concatenated_item(seq: Any, index: Any, item: Callable[[int, int], Any]) -> Any:
    """``seq[index]`` of a sequence of parts laid end to end (``seq.starts`` their offsets):
    ``item(k, j)`` is element ``j`` of part ``k``; a slice gives a list."""
    if isinstance(index, slice):
        return [seq[i] for i in range(*index.indices(len(seq)))]
    i = int(index)
    if i < 0:
        i += len(seq)
    if not 0 <= i < len(seq):
        raise IndexError(f"task {index} of {len(seq)}")
    k = bisect.bisect_right(seq.starts, i) - 1
    return item(k, i - seq.starts[k])


class TaskSizes(Sequence):
    """The trials of each task (what progress counts): the chunks of one or more plans, one
    after the other.

    Each part is a :class:`ChunkPlan` (its total is read, not summed: any size), a sequence
    of :class:`Chunk`, a sequence of ints or a :class:`TaskSizes`.

    Examples
    --------
    >>> from kaptai.core.runner import TaskSizes, plan_chunks
    >>> s = TaskSizes(plan_chunks(2500, 1000, 1), [7, 8])
    >>> len(s), list(s), s.total
    (5, [1000, 1000, 500, 7, 8], 2515)
    >>> TaskSizes(plan_chunks(10**15, 10**3, 1)).total
    1000000000000000
    """

    __slots__ = ("parts", "starts", "total")
    total: int

    def __init__(self, *parts: Sequence[Any]):
        self.parts = list(parts)
        self.starts = [0]
        total = 0
        for part in self.parts:
            self.starts.append(self.starts[-1] + len(part))
            if isinstance(part, ChunkPlan):
                total += max(part.total, 0)
            elif isinstance(part, TaskSizes):
                total += part.total
            else:
                total += sum(_trials(x) for x in part)
        self.total = total

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, index):
        return _concatenated_item(self, index, lambda k, j: _trials(self.parts[k][j]))

    def __iter__(self):
        for part in self.parts:
            for x in part:
                yield _trials(x)


def _trials(x: Any) -> int:
    if isinstance(x, Chunk):
        return x.size
    if isinstance(x, Integral) and not isinstance(x, (bool, np.bool_)):
        return int(x)
    raise RunnerError(f"sizes: expected chunks or trial counts (ints), got {type(x).__name__}")


def _task_sizes(tasks: Sequence, sizes: Any) -> TaskSizes | None:
    """The trials of each task: ``sizes`` when given, else read from a plan of chunks."""
    if sizes is None:
        chunks = tasks.chunks if isinstance(tasks, LazyTasks) else tasks
        if isinstance(chunks, ChunkPlan):
            return TaskSizes(chunks)
        if isinstance(chunks, (list, tuple)) and chunks and all(isinstance(c, Chunk) for c in chunks):
            return TaskSizes(chunks)
        return None
    out = sizes if isinstance(sizes, TaskSizes) else TaskSizes(sizes)
    if len(out) != len(tasks):
        raise RunnerError(f"sizes has {len(out)} entries for {len(tasks)} tasks: give one per task")
    return out


def plan_chunks(
    total: int, chunk_size: int, seed: int | np.random.SeedSequence | None
) -> ChunkPlan:
    """Cut a job of ``total`` trials into seeded chunks of ``chunk_size`` (the last shorter).

    Chunk ``i`` gets child ``i`` of ``SeedSequence(seed)``, which does not depend on
    ``total``: a longer run with the same seed and chunk size starts with the same chunks.
    The chunks are made when read (:class:`ChunkPlan`): memory stays flat for any ``total``.

    Parameters
    ----------
    total : int
        Number of trials, at least 0.
    chunk_size : int
        Trials per chunk, at least 1.  Part of what a seed means.
    seed : int, SeedSequence or None
        Seed of the job (None: fresh entropy, readable as ``chunks[0].seed.entropy``).

    Returns
    -------
    ChunkPlan
        A sequence of :class:`Chunk`.

    Examples
    --------
    >>> from kaptai.core.runner import plan_chunks
    >>> a, b = plan_chunks(5, 2, seed=1), plan_chunks(9, 2, seed=1)
    >>> [c.size for c in a], a[1].seed.spawn_key == b[1].seed.spawn_key
    ([2, 2, 1], True)
    """
    return ChunkPlan(int(total), int(chunk_size), seed_entropy(seed))


def add_counts(total: Mapping[str, np.ndarray], part: Mapping[str, np.ndarray]) -> Counts:
    """Default merge: elementwise sum of two dicts of arrays with the same keys.

    Parameters
    ----------
    total, part : dict of str to numpy.ndarray
        Counts of the chunks merged so far and of the next chunk.

    Returns
    -------
    dict of str to numpy.ndarray
        New arrays (the inputs are not modified).

    Raises
    ------
    RunnerError
        When the keys differ.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.runner import add_counts
    >>> add_counts({"n": np.array([1, 2])}, {"n": np.array([10, 20])})
    {'n': array([11, 22])}
    """
    if total.keys() != part.keys():
        raise RunnerError(
            f"chunk results have different keys: {sorted(total)} and {sorted(part)}; "
            "every chunk must return the same counts"
        )
    return {k: np.asarray(total[k]) + np.asarray(part[k]) for k in total}


def add_counts_keep_log(total: Mapping[str, np.ndarray], part: Mapping[str, np.ndarray]) -> Counts:
    """Merge for jobs whose chunks also return a ``'log'`` array: sum the counts, append the log rows.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.runner import add_counts_keep_log
    >>> m = add_counts_keep_log({"n": np.array([1]), "log": np.zeros((1, 2))}, {"n": np.array([2]), "log": np.ones((2, 2))})
    >>> m["n"].tolist(), m["log"].shape
    ([3], (3, 2))
    """
    out = {k: np.asarray(total[k]) + np.asarray(v) for k, v in part.items() if k != "log"}
    out["log"] = np.concatenate([total["log"], part["log"]]) if len(part["log"]) else total["log"]
    return out


# --------------------------------------------------------------------------------------
# Checkpoints
# --------------------------------------------------------------------------------------


def _jsonable(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists, numpy scalars numbers)."""
    return json.loads(json.dumps(value, sort_keys=True, default=_json_default))


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    return repr(obj)


def check_checkpoint_arg(checkpoint: Any) -> Path | None:
    """``checkpoint`` as a :class:`~pathlib.Path` (None stays None) if it can name a directory:
    a ``str`` or ``os.PathLike`` whose names fit the file system; else :class:`CheckpointError`
    (a :class:`~kaptai.errors.KaptaiError`), before any work.

    >>> from kaptai.core.runner import check_checkpoint_arg
    >>> check_checkpoint_arg(123)
    Traceback (most recent call last):
    ...
    kaptai.core.runner.CheckpointError: checkpoint: expected a path (str or os.PathLike), got int 123
    """
    if checkpoint is None:
        return None
    if isinstance(checkpoint, (str, os.PathLike)) and not str(os.fspath(checkpoint)).strip():
        raise CheckpointError("checkpoint: expected a directory, got an empty path")
    try:
        return check_path_names(checkpoint, "checkpoint")
    except PathError as exc:
        raise CheckpointError(str(exc)) from None


def resume_seed(seed: int | None, checkpoint: str | os.PathLike | None) -> int | None:
    """The seed of a run: ``seed``, or, resuming a run that drew fresh entropy (``seed=None``)
    from ``checkpoint``, the entropy its manifest recorded (so the resumed run is the same run).

    >>> from kaptai.core.runner import resume_seed
    >>> resume_seed(7, None), resume_seed(None, None)
    (7, None)
    """
    checkpoint = check_checkpoint_arg(checkpoint)
    if seed is None and checkpoint is not None:
        manifest = read_manifest(checkpoint)
        recorded = manifest["fingerprint"].get("seed_entropy") if manifest else None
        if isinstance(recorded, int):
            return recorded
    return seed


def read_manifest(directory: str | os.PathLike) -> dict[str, Any] | None:
    """The manifest of a checkpoint directory, or None if it has none.

    Parameters
    ----------
    directory : str or path
        A directory given as ``checkpoint=`` to :func:`run_chunks`.

    Returns
    -------
    dict or None
        ``{'format', 'format_version', 'chunks', 'fingerprint', 'created'}``.

    Raises
    ------
    CheckpointError
        If the manifest exists but cannot be read or is not a kaptai checkpoint.

    Examples
    --------
    >>> import tempfile
    >>> from kaptai.core.runner import read_manifest
    >>> read_manifest(tempfile.gettempdir() + "/no-such-kaptai-checkpoint") is None
    True
    """
    checked = check_checkpoint_arg(directory)
    assert checked is not None
    path = checked / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise CheckpointError(f"cannot read the checkpoint manifest {path}: {exc}") from None
    try:
        manifest = json.loads(text)
    except ValueError:
        manifest = None
    if (
        not isinstance(manifest, dict)
        or manifest.get("format") != _FORMAT
        or not isinstance(manifest.get("fingerprint"), dict)
        or not isinstance(manifest.get("chunks"), int)
    ):
        raise CheckpointError(f"{path} is not a kaptai checkpoint manifest; use another directory")
    if manifest.get("format_version") != _FORMAT_VERSION:
        raise CheckpointError(
            f"{path} has checkpoint format version {manifest.get('format_version')!r}; this "
            f"kaptai reads version {_FORMAT_VERSION}: use another directory"
        )
    return manifest


def _atomic_write(directory: Path, name: str, write: Callable[[Any], None]) -> None:
    """Write ``directory / name`` through a temporary file in ``directory`` + ``os.replace``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=directory)
    try:
        umask_mode(fd)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, directory / name)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class _Checkpoint:
    """A checkpoint directory opened for one job (validated before any work)."""

    def __init__(self, directory: str | os.PathLike, fingerprint: Mapping[str, Any], n_chunks: int):
        self.dir = Path(directory)
        self.n_chunks = int(n_chunks)
        fingerprint = _jsonable(dict(fingerprint))
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CheckpointError(
                f"cannot create the checkpoint directory {self.dir}: {exc.strerror or exc}"
            ) from None
        if not self.dir.is_dir():
            raise CheckpointError(f"checkpoint {self.dir} is not a directory")
        self._check_writable()
        manifest = read_manifest(self.dir)
        if manifest is None:
            stray = [p.name for p in self.dir.iterdir() if _CHUNK_RE.match(p.name)]
            if stray:
                raise CheckpointError(
                    f"checkpoint directory {self.dir} holds chunk files ({stray[0]}, ...) but no "
                    f"{MANIFEST}: cannot tell which job made them; use another directory"
                )
            manifest = {
                "format": _FORMAT,
                "format_version": _FORMAT_VERSION,
                "chunks": int(n_chunks),
                "fingerprint": fingerprint,
                "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            }
            text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
            _atomic_write(self.dir, MANIFEST, lambda fh: fh.write(text.encode("utf-8")))
        else:
            self._compare(manifest, fingerprint, n_chunks)
        self.done: set[int] = set()
        for p in self.dir.iterdir():
            m = _CHUNK_RE.match(p.name)
            if m and int(m.group(1)) < n_chunks:
                self.done.add(int(m.group(1)))
        self.remove_stale()

    def remove_stale(self) -> None:
        """Remove the temporary files a run killed while writing left (a chunk, the manifest, a
        write test): a checkpoint holds only its manifest and finished chunks."""
        try:
            names = [p for p in self.dir.iterdir() if _TMP_RE.match(p.name)]
        except OSError:
            return
        for p in names:
            try:
                p.unlink()
            except OSError:
                pass

    def _check_writable(self) -> None:
        try:
            fd, tmp = tempfile.mkstemp(prefix=".write-test.", suffix=".tmp", dir=self.dir)
            os.close(fd)
            os.unlink(tmp)
        except OSError as exc:
            raise CheckpointError(
                f"checkpoint directory {self.dir} is not writable: {exc.strerror or exc}"
            ) from None

    def _compare(self, manifest: Mapping[str, Any], fingerprint: Mapping[str, Any], n_chunks: int) -> None:
        old = manifest["fingerprint"]
        diffs = [f"{key}: {_short(a)} in the checkpoint, {_short(b)} now" for key, a, b in _differences(old, fingerprint)]
        if not diffs and manifest["chunks"] != n_chunks:
            diffs.append(f"chunks: {manifest['chunks']} in the checkpoint, {n_chunks} now")
        if diffs:
            raise CheckpointError(
                f"checkpoint {self.dir} was made by a different job; differing parameters: "
                + "; ".join(diffs)
                + ". Rerun with the checkpoint's parameters, or use another directory."
            )

    def path(self, index: int) -> Path:
        return self.dir / f"chunk-{index:06d}.npz"

    def count(self) -> int:
        """Finished chunks of this job in the directory now."""
        try:
            return sum(1 for p in self.dir.iterdir()
                       if (m := _CHUNK_RE.match(p.name)) and int(m.group(1)) < self.n_chunks)
        except OSError:
            return len(self.done)

    def save(self, index: int, counts: Counts) -> None:
        try:
            _atomic_write(
                self.dir,
                self.path(index).name,
                lambda fh: np.savez(fh, **counts),  # type: ignore[arg-type]  # a key may be allow_pickle
            )
        except OSError as exc:
            raise CheckpointError(
                f"cannot write chunk {index} to the checkpoint directory {self.dir}: "
                f"{exc.strerror or exc}"
            ) from exc

    def load(self, index: int) -> Counts | None:
        """The chunk's counts, or None (with a warning) when the file cannot be read."""
        try:
            with np.load(self.path(index), allow_pickle=False) as data:
                return {k: data[k] for k in data.files}
        except Exception as exc:  # noqa: BLE001 - any unreadable file: run the chunk again
            warnings.warn(
                f"checkpoint file {self.path(index)} cannot be read ({exc}); running chunk "
                f"{index} again",
                RuntimeWarning,
                stacklevel=4,
            )
            self.done.discard(index)
            return None


_ABSENT = "<absent>"


def _differences(old: Any, new: Any, prefix: str = "") -> list[tuple[str, Any, Any]]:
    """The leaves where two JSON values differ, as ``(dotted.path, old, new)``: a ruleset
    that differs in one option is reported as that option (``rules.claim``), not as two
    dumps of the whole ruleset.

    >>> from kaptai.core.runner import _differences
    >>> _differences({"rules": {"claim": "any", "sets": 2}, "n": 1}, {"rules": {"claim": "none", "sets": 2}, "n": 1})
    [('rules.claim', 'any', 'none')]
    """
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[tuple[str, Any, Any]] = []
        for key in sorted(set(old) | set(new), key=str):
            out += _differences(old.get(key, _ABSENT), new.get(key, _ABSENT), f"{prefix}{key}.")
        return out
    if old != new:
        return [(prefix.rstrip(".") or "value", old, new)]
    return []


def _short(value: Any, limit: int = 200) -> str:
    if value is _ABSENT or value == _ABSENT:
        return "absent"
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _default_fingerprint(fn: Callable, tasks: Sequence) -> dict[str, Any]:
    try:
        if isinstance(tasks, ChunkPlan):  # the plan, not its (maybe 10**9) chunks
            blob = pickle.dumps(("ChunkPlan", tasks.total, tasks.chunk_size, tasks.entropy), protocol=4)
        elif len(tasks) > 1_000_000:
            raise RunnerError(f"{len(tasks)} tasks are too many to hash")
        else:
            blob = pickle.dumps(list(tasks), protocol=4)
    except Exception as exc:  # noqa: BLE001
        raise RunnerError(
            f"checkpoint= needs fingerprint= when the tasks cannot be pickled ({exc})"
        ) from None
    name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"
    return {"function": name, "tasks_sha256": hashlib.sha256(blob).hexdigest()}


# --------------------------------------------------------------------------------------
# Executors
# --------------------------------------------------------------------------------------


class _InlineExecutor(cf.Executor):
    """Runs each call at submission, in this process (``workers=1``)."""

    def submit(self, fn: Callable[_P, _R], /, *args: _P.args, **kwargs: _P.kwargs) -> cf.Future[_R]:
        fut: cf.Future[_R] = cf.Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except Exception as exc:  # noqa: BLE001 - handed to the caller through the future
            fut.set_exception(exc)
        return fut


def _on_sigint(signum: int, frame: Any) -> None:
    """The SIGINT handler of a run: Python's own (raise KeyboardInterrupt), remembered."""
    _SIGINT_SEEN.set()
    raise KeyboardInterrupt


_SIGINT_SEEN = threading.Event()


class _CtrlC:
    """Ctrl-C that the run sees even where Python drops it.

    Python raises KeyboardInterrupt in the main thread at whatever line it is running, and a
    KeyboardInterrupt raised inside a finalizer -- the ``__del__`` of a Dask future, which the
    main thread runs each time it lets go of a finished chunk, a weakref callback, a garbage
    collection -- is printed as "Exception ignored" and lost: the run went on to its end.
    For the run, in the main thread, while SIGINT has Python's default handler, :meth:`start`
    puts a handler in its place that raises KeyboardInterrupt as the default one does and
    also records it; the run loop calls :meth:`check` at every turn (at least every
    :data:`POLL` seconds) and raises it again if it was lost.  :meth:`stop` puts the
    default handler back.  Elsewhere (another thread, a handler of the caller's) nothing
    changes."""

    def __init__(self) -> None:
        self.installed = False
        self.active = False

    def start(self) -> _CtrlC:
        if threading.current_thread() is not threading.main_thread():
            return self
        try:
            current = signal.getsignal(signal.SIGINT)
            if current is signal.default_int_handler:
                _SIGINT_SEEN.clear()
                signal.signal(signal.SIGINT, _on_sigint)
                self.installed = True
        except (ValueError, OSError):  # not the main interpreter
            return self
        self.active = self.installed or current is _on_sigint  # a run inside a run shares it
        return self

    def check(self) -> None:
        """Raise KeyboardInterrupt if Ctrl-C came during the run (also if it was lost)."""
        if self.active and _SIGINT_SEEN.is_set():
            raise KeyboardInterrupt

    def stop(self) -> None:
        if self.installed:
            self.installed = self.active = False
            try:
                if signal.getsignal(signal.SIGINT) is _on_sigint:
                    signal.signal(signal.SIGINT, signal.default_int_handler)
            except (ValueError, OSError):
                pass
            _SIGINT_SEEN.clear()


class _Executors:
    """Opens the executor of a run, rebuilds an owned process pool, closes what it opened."""

    def __init__(self, workers: int, executor: cf.Executor | None, scheduler: str | None):
        self.workers = workers
        self.given = executor
        self.scheduler = scheduler
        self.executor: cf.Executor | None = None
        self.slots = 1
        self.kind = "inline"
        self._client: Any = None  # a distributed.Client this object opened
        self.check: Callable[[], None] = lambda: None  # raises KeyboardInterrupt after a lost Ctrl-C
        self._cluster: Any = None  # a distributed.LocalCluster this object opened

    def open(self, n_pending: int) -> cf.Executor:
        if self.given is not None:
            if _is_dask_client(self.given):
                self._use_client(self.given, owned=False)
            else:
                self.executor = self.given
                self.kind = "executor"
                self.slots = int(getattr(self.given, "_max_workers", 0) or os.cpu_count() or 1)
        elif self.scheduler is not None:
            self._open_dask()
        elif self.workers > 1 and n_pending > 1:
            self.kind = "processes"
            self.workers = min(self.workers, n_pending)  # --workers 256 for 2 chunks forked 256 processes
            self.slots = self.workers
            self.executor = cf.ProcessPoolExecutor(max_workers=self.workers)
        else:
            self.executor = _InlineExecutor()
        assert self.executor is not None  # set by every branch above
        return self.executor

    def rebuild(self) -> cf.Executor | None:
        """A fresh pool after a worker process died (owned pools only)."""
        if self.kind != "processes":
            return None
        assert self.executor is not None  # open() made the pool
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.executor = cf.ProcessPoolExecutor(max_workers=self.workers)
        return self.executor

    def _open_dask(self) -> None:
        distributed = _import_distributed()
        if self.scheduler == "local":
            try:
                # the scheduler first, kept at once so that close() stops it whatever happens
                # next; the workers start in the background (Ctrl-C stays live meanwhile)
                self._cluster = distributed.LocalCluster(
                    n_workers=0,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,
                )
                self._cluster.scale(self.workers)
            except Exception as exc:  # noqa: BLE001
                raise SchedulerError(
                    f"cannot start a Dask LocalCluster of {self.workers} worker process(es) "
                    f"({type(exc).__name__}: {exc})"
                ) from exc
            address = self._cluster.scheduler_address
        else:
            address = str(self.scheduler)
            if "://" not in address or address.startswith(("tcp://", "tls://")):
                try:  # before Client(): a failed Client's __del__ printed a traceback 10 s later
                    distributed.comm.get_address_host_port(address)
                except ValueError as exc:
                    raise SchedulerError(f"the Dask scheduler address {quote_token(address)} is not host:port "
                                         f"({str(exc).split(' in address')[0]})") from None
        # made, then started: a Client whose start is cut short (Ctrl-C, no answer) is ours to
        # close, never left to the garbage collector (see _keep_until_closed)
        client = distributed.Client.__new__(distributed.Client)
        try:
            client.__init__(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except BaseException as exc:
            _close_in_background(client)
            if not isinstance(exc, Exception):  # Ctrl-C: the caller closes the rest
                raise
            self.close()
            raise SchedulerError(
                f"cannot reach the Dask scheduler at {quote_token(address)} within {CONNECT_TIMEOUT:g} s "
                f"({type(exc).__name__}: {quote_token(str(exc), 100, quote='')}); check the address and that the scheduler "
                "is running"
            ) from None
        self._use_client(client, owned=True)
        if self._cluster is not None:
            self._wait_for_local_workers(client)

    def _wait_for_local_workers(self, client) -> None:
        """Until every worker of our LocalCluster is up (polled: Ctrl-C is seen at once)."""
        from distributed.core import Status

        deadline = time.monotonic() + WORKER_START_TIMEOUT
        while True:
            try:
                up = len(client.nthreads())
            except Exception:  # noqa: BLE001 - not answering yet
                up = 0
            if up >= self.workers:
                return
            failed = [w for w in list(self._cluster.workers.values())
                      if getattr(w, "status", None) in (Status.failed, Status.closed)]
            if failed or time.monotonic() > deadline:
                why = (f"{len(failed)} worker process(es) failed to start (see the log above)" if failed
                       else f"{up} of {self.workers} worker(s) started within {WORKER_START_TIMEOUT:g} s")
                raise SchedulerError(
                    f"cannot start a Dask LocalCluster of {self.workers} worker process(es): {why}"
                )
            self.check()
            time.sleep(0.1)

    def _use_client(self, client, owned: bool) -> None:
        if owned:
            self._client = client
        self.kind = "dask"
        # pure=False: a retried chunk must run again, not reuse the failed result
        self.executor = client.get_executor(pure=False)
        try:
            self.slots = max(1, sum(client.nthreads().values()))
        except Exception:  # noqa: BLE001
            self.slots = 1
        _check_python(client)

    def submit(self, fn: Callable, task: Any) -> cf.Future:
        """Start one chunk; on Dask as bytes loaded on the worker by :func:`_remote_call`."""
        assert self.executor is not None
        if self.kind != "dask":
            return self.executor.submit(fn, task)
        from distributed.protocol.pickle import dumps

        try:
            blob = dumps((fn, task))
        except Exception as exc:  # noqa: BLE001 - what cannot be pickled cannot be sent
            raise RunnerError(
                f"cannot send a chunk to Dask: the chunk function or its task cannot be pickled "
                f"({type(exc).__name__}: {exc})"
            ) from exc
        return self.executor.submit(_remote_call(), blob, _kaptai_version())

    def result(self, index: int, part: Any) -> Any:
        """A chunk's result; :class:`WorkerError` if a Dask worker could not load it."""
        if self.kind == "dask" and isinstance(part, tuple) and len(part) == 3 and part[0] == _CANNOT_LOAD:
            _, error, detail = part
            raise WorkerError(_worker_message(index, error, detail), detail.get("worker"), detail)
        return part

    def close(self, cancel: bool = False) -> None:
        """Close what this object opened.  ``cancel`` (Ctrl-C, a failed run): stop the chunks
        still running or queued without waiting for them, and give the cleanup at most
        :data:`CANCEL_TIMEOUT` seconds (it goes on in the background past that)."""
        executor, kind = self.executor, self.kind
        client, cluster = self._client, self._cluster
        self.executor, self._client, self._cluster = None, None, None
        if executor is not None and kind == "processes":
            if cancel:  # stop the chunks being played, do not wait for them
                procs = list((getattr(executor, "_processes", None) or {}).values())
                for proc in procs:
                    try:
                        proc.terminate()
                    except Exception:  # noqa: BLE001 - already gone
                        pass
                executor.shutdown(wait=False, cancel_futures=True)
                deadline = time.monotonic() + CANCEL_TIMEOUT
                for proc in procs:
                    try:
                        proc.join(max(0.0, deadline - time.monotonic()))
                        if proc.is_alive():
                            proc.kill()
                    except Exception:  # noqa: BLE001 - already gone or never started
                        pass
            else:
                executor.shutdown(wait=True, cancel_futures=True)
        if kind != "dask" or (executor is None and client is None and cluster is None):
            return

        def dask_cleanup() -> None:
            if executor is not None and cancel:
                try:
                    executor.shutdown(wait=False)  # cancels the chunks still queued or running
                except Exception:  # noqa: BLE001 - closing must not hide why the run stopped
                    pass
            for closing in (client, cluster):
                if closing is not None:
                    _keep_until_closed(closing)
                    try:
                        closing.close(timeout=_CLOSE_TIMEOUT)
                    except Exception:  # noqa: BLE001
                        pass
                    _keep_until_closed(closing, done=True)

        if not cancel:
            dask_cleanup()
            return
        # a Dask call from this thread blocks until the client's event loop answers, which
        # Ctrl-C cannot cut short: run it beside, wait a bounded time
        worker = threading.Thread(target=dask_cleanup, name="kaptai-dask-cleanup", daemon=True)
        worker.start()
        worker.join(CANCEL_TIMEOUT)


#: Seconds to wait for a Dask client or LocalCluster to close.
_CLOSE_TIMEOUT = 10

#: Dask clients and clusters this module opened whose close has not finished.  A
#: ``distributed.Client`` left to the garbage collector closes itself in ``__del__``, which takes
#: ``LoopRunner``'s class-wide lock; when the collection runs in a thread that holds that lock
#: (another client starting or stopping), the thread waits on itself forever: a run interrupted
#: while its client connected or closed could hang the next run in the same process.  Kept
#: here, such an object is never collected unclosed.
_UNCLOSED: list = []
_UNCLOSED_LOCK = threading.Lock()


def _keep_until_closed(obj: Any, done: bool = False) -> None:
    """Hold ``obj`` (a Dask client or cluster) until its close finished; ``done``: let go of
    it if it did (a closed client's ``__del__`` does nothing), else keep it for good."""
    with _UNCLOSED_LOCK:
        if not done:
            if not any(o is obj for o in _UNCLOSED):
                _UNCLOSED.append(obj)
        elif str(getattr(obj, "status", "closed")).rsplit(".", 1)[-1] == "closed":
            _UNCLOSED[:] = [o for o in _UNCLOSED if o is not obj]


def _close_in_background(client: Any) -> None:
    """Close a client whose start was cut short, beside this thread (a Dask call can block
    until the event loop answers, which Ctrl-C cannot cut short)."""
    _keep_until_closed(client)

    def close() -> None:
        try:
            if getattr(client, "_loop_runner", None) is not None:
                client.close(timeout=_CLOSE_TIMEOUT)
        except Exception:  # noqa: BLE001 - it never connected: nothing to close
            pass
        _keep_until_closed(client, done=True)

    threading.Thread(target=close, name="kaptai-dask-cleanup", daemon=True).start()
_CANNOT_LOAD = "kaptai: the worker cannot load the chunk"

# Runs on a Dask worker and needs nothing but ``distributed`` there: it is made from source in
# a module that does not exist, so it is pickled by value (cloudpickle), never by reference to
# kaptai.  It loads the chunk function and its task from bytes, in the task, so a worker that
# cannot (kaptai missing, broken, uncompiled, another version) says why as the chunk's result
# -- left to Dask, the task would fail while the worker reads it, its connection to the
# scheduler would die and the chunk would wait forever.
_REMOTE_SOURCE = f"""
def kaptai_remote_call(blob, version):
    try:
        from distributed.protocol.pickle import loads

        fn, task = loads(blob)
        mod = __import__("sys").modules.get("kaptai")
        there = getattr(mod, "__version__", None)
        if mod is not None and version is not None and there is not None and there != version:
            raise ImportError(f"kaptai {{there}} on the worker, {{version}} in the client")
    except BaseException as exc:
        import importlib.util
        import sys

        detail = {{"error": f"{{type(exc).__name__}}: {{exc}}", "python": sys.executable,
                   "python_version": sys.version.split()[0]}}
        try:
            spec = importlib.util.find_spec("kaptai")
            detail["kaptai"] = (spec.origin or str(list(spec.submodule_search_locations or []))) if spec else None
        except BaseException as e:
            detail["kaptai"] = f"unknown ({{type(e).__name__}})"
        try:
            from distributed import get_worker

            detail["worker"] = get_worker().address
        except BaseException:
            detail["worker"] = None
        return ({_CANNOT_LOAD!r}, detail["error"], detail)
    return fn(task)
"""
_REMOTE: list[Callable] = []


def _remote_call() -> Callable:
    if not _REMOTE:
        namespace: dict[str, Any] = {"__name__": "kaptai_remote"}
        exec(compile(_REMOTE_SOURCE, "<kaptai remote call>", "exec"), namespace)  # noqa: S102 - our own source
        _REMOTE.append(namespace["kaptai_remote_call"])
    return _REMOTE[0]


def _check_python(client) -> None:
    """SchedulerError before any work if a Dask worker runs another Python (major.minor): the
    chunks travel as pickled code, which only the same Python can read."""
    try:
        versions = client.get_versions()
        here = versions["client"]["packages"]["python"].split(".")[:2]
        there = {w: v["packages"]["python"] for w, v in versions["workers"].items()
                 if v and isinstance(v.get("packages"), dict) and "python" in v["packages"]}
    except Exception:  # noqa: BLE001 - no versions to compare: the chunks say it if they cannot load
        return
    other = {w: p for w, p in there.items() if p.split(".")[:2] != here}
    if other:
        w, p = next(iter(other.items()))
        raise SchedulerError(
            f"{len(other)} Dask worker(s) run another Python than this process ({w}: Python "
            f"{'.'.join(p.split('.')[:3])}, here {'.'.join(here)}): the chunks cannot be sent to them; "
            "run the workers on the same Python version, with the same kaptai"
        )


def _kaptai_version() -> str | None:
    try:
        from kaptai._version import __version__
    except ImportError:  # pragma: no cover
        return None
    return __version__


def _worker_message(index: int, error: str, detail: Mapping[str, Any]) -> str:
    where = detail.get("kaptai")
    worker = detail.get("worker") or "a Dask worker"
    return (
        f"Dask worker {worker} cannot load chunk {index} (its function and task): {error}; the "
        f"worker runs {detail.get('python')} (Python {detail.get('python_version')}) and finds kaptai "
        f"{'at ' + where if where else 'nowhere'}. Every worker needs the same kaptai as this process, "
        f"installed with its compiled extensions (pip install kaptai=={_kaptai_version()}), and must not "
        "see an uncompiled source tree first on its path; the run is stopped (finished chunks are kept "
        "in the checkpoint, if any)"
    )


def _is_dask_client(obj: Any) -> bool:
    return type(obj).__module__.startswith("distributed") and hasattr(obj, "get_executor")


def _import_distributed():
    try:
        import distributed
    except ImportError:
        raise SchedulerError(
            "scheduler= needs Dask: pip install kaptai[distributed]  "
            "(or pip install 'dask[distributed]')"
        ) from None
    return distributed


_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://\S+$")


def _check_scheduler(scheduler: str) -> None:
    if not isinstance(scheduler, str) or not (scheduler == "local" or _SCHEME.match(scheduler)):
        raise SchedulerError(
            f"scheduler={quote_token(scheduler)}: expected 'local' or a Dask scheduler address such as "
            "'tcp://10.0.0.5:8786'"
        )


# --------------------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------------------


def _check_counts(index: int, part: Any) -> Counts:
    if not isinstance(part, Mapping) or not all(isinstance(k, str) for k in part):
        raise RunnerError(
            f"chunk {index} returned {type(part).__name__}: the chunk function must return a "
            "dict of str to numpy arrays"
        )
    out = {k: np.asarray(v) for k, v in part.items()}
    for k, v in out.items():
        if v.dtype.hasobject:
            raise RunnerError(f"chunk {index} returned an object array for {k!r}: return counts")
    return out


def _limits(slots: int) -> tuple[int, int]:
    """Chunks in flight (enough queued per worker to hide the round trip of a remote
    executor) and how far past the next chunk to merge a submission may run (bounds the
    results held for in-order merging)."""
    return IN_FLIGHT_PER_WORKER * slots, max(8, 2 * IN_FLIGHT_PER_WORKER * slots)


def run_chunks(
    fn: Callable[[T], Mapping[str, np.ndarray]],
    tasks: Sequence[T],
    *,
    merge: Callable[[Counts, Counts], Counts] | None = None,
    workers: int = 1,
    executor: cf.Executor | None = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    fingerprint: Mapping[str, Any] | None = None,
    retries: int = 2,
    progress: bool | str = True,
    desc: str = "run",
    sizes: Sequence[Any] | None = None,
    unit: str | None = None,
    progress_interval: float | None = None,
) -> Counts:
    """Run ``fn`` on every task and merge the results in task order.

    Parameters
    ----------
    fn : callable
        ``fn(task) -> dict[str, numpy.ndarray]``: plays one chunk and returns its counts
        (every chunk the same keys).  Must be picklable (a module-level function) unless
        it runs in this process.
    tasks : sequence
        One picklable task per chunk, for instance :func:`plan_chunks`'s chunks; task
        ``i`` is chunk ``i``.
    merge : callable, optional
        ``merge(total, part) -> total``; default :func:`add_counts`.  Called in chunk
        order (``total`` is chunk 0's counts at first), so any merge -- float sums,
        concatenation -- gives the same result on every executor.
    workers : int
        Local worker processes (1: in this process), or the size of the ``LocalCluster``
        with ``scheduler='local'``.  Ignored with ``executor=`` or a scheduler address.
    executor : concurrent.futures.Executor or distributed.Client, optional
        Run the chunks here instead; kaptai does not shut it down.
    scheduler : str, optional
        ``'tcp://host:port'``: the Dask scheduler to use (connection timeout
        :data:`CONNECT_TIMEOUT`); ``'local'``: start a Dask ``LocalCluster`` for the run.
        Needs ``pip install kaptai[distributed]``.
    checkpoint : str or path, optional
        Directory for finished chunks (created if missing); a rerun of the same job
        resumes from it.
    fingerprint : mapping, optional
        JSON-able parameters that identify the job, stored in the manifest and compared
        on resume.  Default: the function's name and a hash of the pickled tasks.
    retries : int
        How many times a failing chunk is run again before :class:`ChunkError`.
    progress : bool or {'bar', 'lines'}
        Progress on stderr (:class:`kaptai.core.progress.Progress`), counting trials:
        ``True`` draws a ``tqdm`` bar when stderr is a terminal and writes a plain line
        every ``progress_interval`` seconds otherwise (``desc: 120,000/1,000,000 hands
        (12%), 3.1 s, eta 22 s``); ``'bar'`` or ``'lines'`` force one of them; ``False``
        shows nothing.
    desc : str
        Label of the bar or line.
    sizes : sequence, optional
        The trials of each task, for progress: a :class:`ChunkPlan`, a sequence of
        :class:`Chunk` or of ints, or a :class:`TaskSizes` (one entry per task).  Default:
        read from ``tasks`` when they are chunks (a plan, a list of chunks, a
        :class:`LazyTasks` of a plan); else progress counts chunks.
    unit : str, optional
        What a trial is (``'hands'``, ``'matches'``, ...); default ``'hands'``, or
        ``'chunks'`` when the sizes are unknown.
    progress_interval : float, optional
        Seconds between plain lines (default :data:`kaptai.core.progress.INTERVAL`).

    Returns
    -------
    dict of str to numpy.ndarray
        The merged counts (empty for no tasks).

    Raises
    ------
    RunnerError
        Bad options (before any work); a chunk that returns something else than counts.
    CheckpointError
        A checkpoint of another job, or a directory that cannot be written (before any
        work).
    SchedulerError
        Dask missing, or a scheduler that cannot be reached (before any work).
    WorkerError
        A Dask worker that cannot load kaptai or a task (at its first chunk; not retried).
    ChunkError
        A chunk that failed ``retries + 1`` times; names its index, chained to its error.
    KaptaiError
        Raised by a chunk (bad input, a policy's illegal play): passed on as itself, not
        retried.
    RunInterrupted
        Ctrl-C; every finished chunk is in the checkpoint, if any.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.runner import run_chunks
    >>> run_chunks(lambda k: {"x": np.arange(3) * k}, [1, 2, 3], progress=False)["x"].tolist()
    [0, 6, 12]
    >>> run_chunks(lambda k: {"x": np.array([k])}, [1, 2],
    ...            merge=lambda a, b: {"x": np.concatenate([a["x"], b["x"]])}, progress=False)
    {'x': array([1, 2])}
    """
    if not isinstance(tasks, Sequence):
        tasks = list(tasks)
    n = len(tasks)
    merge = add_counts if merge is None else merge
    if isinstance(workers, (bool, np.bool_)) or not isinstance(workers, Integral) or not 1 <= workers <= MAX_WORKERS:
        raise RunnerError(f"workers={quote_token(workers)} is not allowed: expected an integer from 1 to {MAX_WORKERS}")
    if isinstance(retries, (bool, np.bool_)) or not isinstance(retries, Integral) or not 0 <= retries <= 1000:
        raise RunnerError(f"retries={quote_token(retries)} is not allowed: expected an integer from 0 to 1000")
    try:
        mode = check_mode(progress)
        if progress_interval is not None and not (
            isinstance(progress_interval, (int, float)) and progress_interval > 0
        ):
            raise ValueError(f"progress_interval={quote_token(progress_interval)}: expected a positive number of seconds")
    except ValueError as exc:
        raise RunnerError(str(exc)) from None
    if executor is not None and scheduler is not None:
        raise RunnerError("pass executor= or scheduler=, not both")
    if executor is not None and not (isinstance(executor, cf.Executor) or _is_dask_client(executor)):
        raise RunnerError(
            f"executor={quote_token(executor)}: expected a concurrent.futures.Executor or a distributed.Client"
        )
    if scheduler is not None:
        _check_scheduler(scheduler)
        _import_distributed()
    task_sizes = _task_sizes(tasks, sizes)
    if task_sizes is None:
        size_of: Callable[[int], int] = lambda i: 1  # noqa: E731 - progress counts chunks
        grand_total, unit = n, unit or "chunks"
    else:
        size_of, grand_total, unit = task_sizes.__getitem__, task_sizes.total, unit or "hands"

    ckpt = None
    checkpoint = check_checkpoint_arg(checkpoint)
    if checkpoint is not None:
        fp = _default_fingerprint(fn, tasks) if fingerprint is None else fingerprint
        ckpt = _Checkpoint(checkpoint, fp, n)
    done = set(ckpt.done) if ckpt is not None else set()

    execs = _Executors(int(workers), executor, scheduler)
    ctrl_c = _CtrlC()
    execs.check = ctrl_c.check
    total: Counts | None = None
    ok = False
    bar: Progress | None = None
    in_flight: dict[cf.Future, int] = {}
    # finished futures, put there by their done-callbacks: the main thread waits on this queue
    # with a timeout (a lock acquire that Ctrl-C interrupts cleanly), never inside cf.wait,
    # whose lock juggling a KeyboardInterrupt can leave half done
    completed: queue.SimpleQueue[cf.Future] = queue.SimpleQueue()
    finish: Callable[[cf.Future, int], bool] | None = None
    ctrl_c.start()
    try:
        # connect / start workers first, so the rate and ETA time only the chunks
        ex = execs.open(n - len(done)) if len(done) < n else None
        bar = Progress(
            grand_total, initial=sum(size_of(i) for i in done), desc=desc, unit=unit, mode=mode,
            interval=progress_interval,
        )
        resumed = len(done)
        if resumed:
            bar.note(resumed=f"{resumed} chunk(s)")
        poll = min(POLL, bar.interval) if bar.mode == "lines" else POLL
        slots = execs.slots
        max_in_flight, window = _limits(slots)

        # chunks never submitted are ``next_new`` and up (skipping finished ones): planned
        # lazily, so memory stays flat whatever the number of chunks
        next_new = 0
        urgent: collections.deque[int] = collections.deque()  # retries, unreadable files
        attempts: collections.Counter[int] = collections.Counter()
        held: dict[int, Counts] = {}
        next_merge = 0
        retried = 0

        def peek_new() -> int | None:
            nonlocal next_new
            while next_new < n and next_new in done:
                next_new += 1
            return next_new if next_new < n else None

        def finish(fut: cf.Future, i: int) -> bool:
            """Keep one finished chunk; False if it failed (then retried or raised)."""
            try:
                part = fut.result()
            except KaptaiError:
                raise  # deterministic (bad input, an illegal play): running it again cannot help
            except cf.BrokenExecutor as exc:
                fail(i, exc)
                raise
            except Exception as exc:  # noqa: BLE001 - retried, then reported
                fail(i, exc)
                return False
            part = execs.result(i, part)  # WorkerError: a Dask worker that cannot load kaptai
            if i < next_merge or i in held:  # never merged twice
                return True
            part = _check_counts(i, part)
            if ckpt is not None:
                ckpt.save(i, part)
            held[i] = part
            bar.update(size_of(i))
            return True

        def submit(i: int) -> None:
            fut = execs.submit(fn, tasks[i])
            attempts[i] += 1
            in_flight[fut] = i
            fut.add_done_callback(completed.put)

        def fail(i: int, exc: BaseException) -> None:
            nonlocal retried
            if attempts[i] > retries:
                raise ChunkError(
                    f"chunk {i} failed {attempts[i]} time(s); last error: "
                    f"{type(exc).__name__}: {exc}",
                    index=i,
                    attempts=attempts[i],
                ) from exc
            retried += 1
            urgent.append(i)

        while next_merge < n:
            ctrl_c.check()
            # merge every chunk that is ready, in order
            while next_merge < n:
                if next_merge in held:
                    part = held.pop(next_merge)
                elif next_merge in done:
                    part = ckpt.load(next_merge)
                    if part is None:  # unreadable file: run it again
                        done.discard(next_merge)
                        bar.update(-size_of(next_merge))
                        if next_merge < next_new:  # else peek_new() picks it up
                            urgent.append(next_merge)
                        break
                else:
                    break
                if total is None:
                    total = {k: np.array(v, copy=True) for k, v in part.items()}
                else:
                    total = merge(total, part)
                next_merge += 1
            if next_merge >= n:
                break
            if ex is None:
                ex = execs.open(1)
                max_in_flight, window = _limits(execs.slots)
            # keep the executor busy, within the window
            broken = False
            while len(in_flight) < max_in_flight:
                if urgent:
                    i = urgent.popleft()
                elif (j := peek_new()) is not None and j < next_merge + window:
                    i = j
                    next_new += 1
                else:
                    break
                try:
                    submit(i)
                except cf.BrokenExecutor:
                    urgent.appendleft(i)
                    broken = True
                    break
            # never block without a timeout: Ctrl-C is seen by the main thread only when it
            # runs, and plain progress lines are written by it
            finished: set[cf.Future] = set()
            while in_flight and not finished:
                try:
                    fut = completed.get(timeout=poll)
                    while True:  # every future finished by now
                        if fut in in_flight:  # not one of a broken pool's, already given up
                            finished.add(fut)
                        fut = completed.get_nowait()
                except queue.Empty:
                    pass
                bar.tick()
                ctrl_c.check()
            for fut in sorted(finished, key=in_flight.__getitem__):  # chunk order: the first error first
                i = in_flight.pop(fut)
                try:
                    finish(fut, i)
                except cf.BrokenExecutor:
                    broken = True
            if broken:
                # a worker process died: every chunk still in flight is lost with the pool
                for fut, i in list(in_flight.items()):
                    in_flight.pop(fut)
                    fail(i, RuntimeError("worker process died"))
                ex = execs.rebuild()
                if ex is None:
                    raise RunnerError(
                        "the executor is broken (a worker process died) and kaptai does not "
                        "own it, so cannot restart it; finished chunks are kept in the "
                        "checkpoint, if any"
                    )
            if retried:
                bar.note(retried=retried)
        ctrl_c.check()  # a Ctrl-C lost while the last chunks were merged
        ok = True
        if ckpt is not None:
            ckpt.remove_stale()
    except KeyboardInterrupt:
        # Ctrl-C: keep every chunk that has finished (also those not yet collected)
        if ckpt is not None:
            for fut, i in list(in_flight.items()) if finish is not None else ():
                if fut.done() and not fut.cancelled():
                    try:
                        finish(fut, i)
                    except BaseException:  # noqa: BLE001 - a failed chunk is simply not saved
                        pass
            ckpt.remove_stale()  # a save cut short by Ctrl-C
            saved = ckpt.count()  # what is on disk (a save cut short by Ctrl-C may have landed)
            raise RunInterrupted(
                f"{saved} of {n} chunk(s) are saved in the checkpoint {ckpt.dir}: run the same "
                "command again to resume", checkpoint=ckpt.dir, saved=saved, chunks=n,
            ) from None
        raise RunInterrupted(
            "nothing was saved (no checkpoint): pass a checkpoint directory to keep finished "
            "chunks and resume", chunks=n,
        ) from None
    finally:
        try:
            if bar is not None:
                bar.close(finished=ok)
            execs.close(cancel=not ok)
        finally:
            ctrl_c.stop()
    return {} if total is None else total


# --------------------------------------------------------------------------------------
# Several jobs in one run
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Job:
    """One Monte Carlo job of :func:`run_jobs`: what :func:`run_chunks` would take for it.

    Attributes
    ----------
    fn : callable
        The chunk function (picklable).
    tasks : sequence
        Its tasks.
    merge : callable, optional
        Its merge (default :func:`add_counts`).
    fingerprint : mapping, optional
        JSON-able parameters identifying the job (default: the function and a hash of the
        tasks); the run's manifest holds the list of them.
    sizes : sequence, optional
        Trials per task, as for :func:`run_chunks` (default: read from the tasks).
    """

    fn: Callable[[Any], Mapping[str, np.ndarray]]
    tasks: Sequence[Any]
    merge: Callable[[Counts, Counts], Counts] | None = None
    fingerprint: Mapping[str, Any] | None = None
    sizes: Sequence[Any] | None = None


class _JobTasks(Sequence):
    """The tasks of several jobs, one after the other, as ``(job, fn, task)`` (built when read)."""

    __slots__ = ("jobs", "starts")

    def __init__(self, jobs: Sequence[Job]):
        self.jobs = list(jobs)
        self.starts = [0]
        for job in self.jobs:
            self.starts.append(self.starts[-1] + len(job.tasks))

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, index):
        return _concatenated_item(self, index, lambda k, j: (k, self.jobs[k].fn, self.jobs[k].tasks[j]))


def _job_chunk(task: tuple[int, Callable, Any]) -> Counts:
    """One chunk of job ``k``: its counts with keys ``'k:name'`` (module level: picklable)."""
    k, fn, inner = task
    part = fn(inner)
    if not isinstance(part, Mapping):
        return part  # reported by the runner's check
    return {f"{k}:{name}": value for name, value in part.items()}


def _split_key(key: str) -> tuple[int, str]:
    k, _, name = key.partition(":")
    return int(k), name


class _JobMerge:
    """Merge of :func:`run_jobs`: each job's own merge on its own keys, in chunk order."""

    def __init__(self, merges: Sequence[Callable[[Counts, Counts], Counts]]):
        self.merges = list(merges)

    def __call__(self, total: Counts, part: Counts) -> Counts:
        if not part:
            return total
        k = _split_key(next(iter(part)))[0]
        prefix = f"{k}:"
        mine = {key[len(prefix):]: v for key, v in total.items() if key.startswith(prefix)}
        new = {key[len(prefix):]: v for key, v in part.items()}
        if not mine:  # the job's first chunk: kept as it is, as run_chunks keeps chunk 0
            merged = {name: np.array(v, copy=True) for name, v in new.items()}
        else:
            merged = self.merges[k](mine, new)
        out = {key: v for key, v in total.items() if not key.startswith(prefix)}
        out.update({prefix + name: v for name, v in merged.items()})
        return out


def run_jobs(
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    executor: cf.Executor | None = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    fingerprint: Mapping[str, Any] | None = None,
    retries: int = 2,
    progress: bool | str = True,
    desc: str = "run",
    unit: str | None = None,
    progress_interval: float | None = None,
) -> list[Counts]:
    """Run several jobs as one :func:`run_chunks` run: one pool or cluster, one checkpoint
    directory, one progress count, chunks of every job in flight together.

    Each job's counts are merged with its own merge in its own chunk order, so job ``k``'s
    result is bit for bit what ``run_chunks(job.fn, job.tasks, merge=job.merge)`` returns,
    whatever runs the chunks.

    Parameters
    ----------
    jobs : sequence of Job
    fingerprint : mapping, optional
        Parameters of the whole run, stored in the manifest next to the jobs' fingerprints.
    workers, executor, scheduler, checkpoint, retries, progress, desc, unit, progress_interval
        As :func:`run_chunks`.

    Returns
    -------
    list of dict of str to numpy.ndarray
        The merged counts of each job, in order (empty for a job without tasks).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.runner import Job, plan_chunks, run_jobs
    >>> def heads(chunk):
    ...     return {"n": np.array([chunk.size]), "h": np.array([np.random.default_rng(chunk.seed).integers(0, 2, chunk.size).sum()])}
    >>> a, b = run_jobs([Job(heads, plan_chunks(3000, 1000, 1)), Job(heads, plan_chunks(500, 1000, 2))], progress=False)
    >>> int(a["n"][0]), int(b["n"][0])
    (3000, 500)
    """
    jobs = list(jobs)
    for job in jobs:
        if not isinstance(job, Job):
            raise RunnerError(f"run_jobs: expected Job objects, got {type(job).__name__}")
    tasks = _JobTasks(jobs)
    per_job = [_task_sizes(job.tasks, job.sizes) for job in jobs]
    if all(s is not None for s in per_job):
        sizes: TaskSizes | None = TaskSizes(*per_job)  # type: ignore[arg-type]
    else:
        sizes = None
    fp = None
    if checkpoint is not None:
        fp = {
            **dict(fingerprint or {}),
            "jobs": [
                dict(job.fingerprint) if job.fingerprint is not None else _default_fingerprint(job.fn, job.tasks)
                for job in jobs
            ],
        }
    merged = run_chunks(
        _job_chunk, tasks, merge=_JobMerge([job.merge or add_counts for job in jobs]), workers=workers,
        executor=executor, scheduler=scheduler, checkpoint=checkpoint, fingerprint=fp, retries=retries,
        progress=progress, desc=desc, sizes=sizes, unit=unit, progress_interval=progress_interval,
    )
    out: list[Counts] = [{} for _ in jobs]
    for key, value in merged.items():
        k, name = _split_key(key)
        out[k][name] = value
    return out
