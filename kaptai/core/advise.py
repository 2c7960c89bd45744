"""The advisors' shared sampling budget: paired Monte Carlo, sampled until the best option is resolved.

Every sampling advisor values all its options on the same random layouts (common random numbers),
so the difference between two options is measured *paired*, layout by layout, and is much sharper
than the two options' own intervals suggest.  :func:`paired_budget` draws layouts in batches and
stops as soon as the best option's lead over the second is resolved -- the 95% interval of their
paired difference excludes 0 -- or when a time budget is spent (default 150 ms), or at a maximum
sample count.  When the user gives a sample count it draws exactly that many (``'fixed'``).

Reproducibility: batch ``b`` (0, 1, 2, ...) draws its layouts from its own stream,
``PCG64(SeedSequence(seed, spawn_key=(b,)))``, and the batch size is fixed per advisor, so the
result is a function of (seed, samples used) alone.  A run stopped by the budget reports how many
samples it used; ``samples=N`` with the same seed reproduces it exactly.  The stream of one batch is
read from its start whatever the number of samples drawn from it, so a fixed count that is not a
multiple of the batch size is reproducible too.

Ranking: options are ranked by their mean, best first; equal means share a rank and the next rank
skips (competition ranking, "1224"), as in every advise table of kaptai.

Between two batches control returns to Python, so Ctrl-C (KeyboardInterrupt) stops an advisor
within one batch (each advisor keeps a batch well under a second).

This module names no game: each advisor passes a function that evaluates all its options.

Examples
--------
Three synthetic options, the first clearly best: it is resolved long before the budget.

>>> import numpy as np
>>> from kaptai.core.advise import paired_budget
>>> def evaluate(bit_generator, n):
...     rng = np.random.Generator(bit_generator)
...     common = rng.normal(size=n)              # the layout: the same for every option
...     return np.array([common + 1.0, common, common - 0.5])[None]
>>> res = paired_budget(evaluate, 3, seed=1, batch=16, budget_ms=10_000)
>>> res.stop, res.samples, res.ranks().tolist()
('resolved', 32, [1, 2, 3])
>>> fixed = paired_budget(evaluate, 3, seed=1, batch=16, samples=32)
>>> fixed.stop, bool(np.allclose(fixed.sums, res.sums))
('fixed', True)
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

from kaptai.errors import RulesError

__all__ = ["MAX_SAMPLES", "DEFAULT_BUDGET_MS", "MAX_BUDGET_MS", "Z95", "PairedResult", "paired_budget",
           "capture_paired", "check_samples", "check_budget_ms", "cli_options", "competition_ranks", "stop_text"]

#: Most layouts any advisor draws (the CLI's ``--samples`` bound, and the budget's ceiling).
MAX_SAMPLES: int = 100_000
#: Default time budget of an advice, in milliseconds.
DEFAULT_BUDGET_MS: int = 150
#: Largest budget accepted (one minute).
MAX_BUDGET_MS: int = 60_000
#: The two-sided 95% normal quantile.
Z95: float = 1.959963984540054


def check_samples(samples: object, name: str = "samples") -> int | None:
    """``samples`` as an int from 1 to :data:`MAX_SAMPLES`, or None (the budget decides).

    >>> check_samples(200), check_samples(None)
    (200, None)
    >>> check_samples(10**30)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: samples=1000000000000000000000000000000 is not allowed: expected a whole number from 1 to 100,000 (or None: sample within the time budget)
    """
    if samples is None:
        return None
    from kaptai.errors import quote_token

    if isinstance(samples, (bool, np.bool_)) or not isinstance(samples, Integral) or not 1 <= int(samples) <= MAX_SAMPLES:
        raise RulesError(f"{name}={quote_token(samples)} is not allowed: expected a whole number from 1 to "
                         f"{MAX_SAMPLES:,} (or None: sample within the time budget)")
    return int(samples)


def check_budget_ms(budget_ms: object) -> float:
    """``budget_ms`` as a float from 1 to :data:`MAX_BUDGET_MS` milliseconds.

    >>> check_budget_ms(150)
    150.0
    >>> check_budget_ms(0)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: budget_ms=0 is not allowed: expected a number of milliseconds from 1 to 60,000
    """
    from kaptai.errors import quote_token

    ok = (not isinstance(budget_ms, (bool, np.bool_)) and isinstance(budget_ms, (Integral, float, np.floating))
          and math.isfinite(float(budget_ms)) and 1 <= float(budget_ms) <= MAX_BUDGET_MS)  # type: ignore[arg-type]
    if not ok:
        raise RulesError(f"budget_ms={quote_token(budget_ms)} is not allowed: expected a number of milliseconds "
                         f"from 1 to {MAX_BUDGET_MS:,}")
    return float(budget_ms)  # type: ignore[arg-type]


def competition_ranks(values: Any, *, decimals: int | None = None) -> np.ndarray:
    """Ranks of ``values``, largest first, equal values sharing a rank ("1224" competition ranking).

    ``decimals`` compares the values rounded to that many decimals (the precision shown).

    >>> competition_ranks([3.0, 5.0, 5.0, 1.0]).tolist()
    [3, 1, 1, 4]
    """
    v = np.asarray(values, dtype=np.float64)
    if decimals is not None:
        v = np.round(v, decimals)
    # rank = 1 + number of strictly larger values (NaN ranks last)
    key = np.where(np.isnan(v), -np.inf, v)
    return (1 + (key[None, :] > key[:, None]).sum(axis=1)).astype(np.int64)


@dataclass
class PairedResult:
    """Sums of a paired sampling run (:func:`paired_budget`).

    Attributes
    ----------
    samples : int
        Layouts drawn (the same for every option).
    sums, sumsq : numpy.ndarray
        ``(quantities, options)``: sums over the layouts of each quantity and of its square.
    cross : numpy.ndarray
        ``(options, options)``: sums of products of quantity 0 (the ranking quantity) between options.
    stop : str
        ``'resolved'`` (the best option's lead over the second is resolved), ``'budget'`` (the time
        budget is spent), ``'max'`` (the maximum sample count) or ``'fixed'`` (a given count).
    batches : int
        Batches drawn; ``elapsed_ms`` the time they took.
    """

    samples: int
    sums: np.ndarray
    sumsq: np.ndarray
    cross: np.ndarray
    stop: str
    batches: int
    elapsed_ms: float
    batch: int
    budget_ms: float | None
    groups: list[np.ndarray] | None = None

    def means(self, q: int = 0) -> np.ndarray:
        """Mean of quantity ``q`` per option."""
        return self.sums[q] / self.samples

    def interval(self, q: int = 0, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
        """Normal interval of each option's mean of quantity ``q`` (NaN with one sample)."""
        n = self.samples
        m = self.means(q)
        if n < 2:
            nan = np.full_like(m, np.nan)
            return nan, nan
        var = np.maximum(self.sumsq[q] - self.sums[q] ** 2 / n, 0.0) / (n - 1)
        half = z * np.sqrt(var / n)
        return m - half, m + half

    def diff(self, i: int, j: int, z: float = Z95) -> tuple[float, float, float]:
        """Paired difference of options ``i`` and ``j`` (quantity 0): mean and its normal interval."""
        n = self.samples
        s = float(self.sums[0, i] - self.sums[0, j])
        d = s / n
        if n < 2:
            return d, math.nan, math.nan
        ss = float(self.cross[i, i] - 2 * self.cross[i, j] + self.cross[j, j])
        var = max(ss - s * s / n, 0.0) / (n - 1)
        half = z * math.sqrt(var / n)
        return d, d - half, d + half

    def best(self) -> int:
        """Index of the best option (highest mean; the first of equal ones)."""
        return int(np.argmax(self.means(0)))

    def vs_best(self, z: float = Z95) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every option's paired difference to the best: mean, low, high (0, 0, 0 for the best)."""
        b = self.best()
        k = self.sums.shape[1]
        out = np.zeros((3, k))
        for i in range(k):
            if i != b:
                out[:, i] = self.diff(i, b, z)
        return out[0], out[1], out[2]

    def ranks(self) -> np.ndarray:
        """Competition ranks of the options by mean (equal means share a rank)."""
        return competition_ranks(self.means(0))

    def resolved(self, z: float = Z95) -> bool:
        """Whether the best option's lead over the second is resolved (paired interval above 0),
        in every group of options when the run has groups."""
        groups = self.groups if self.groups is not None else [np.arange(self.sums.shape[1])]
        return all(self._resolved(np.asarray(g), z) for g in groups)

    def _resolved(self, idx: np.ndarray, z: float) -> bool:
        if len(idx) < 2:
            return True
        m = self.means(0)[idx]
        order = np.argsort(-m, kind="stable")
        b, s = int(idx[order[0]]), int(idx[order[1]])
        if m[order[0]] == m[order[1]]:
            return False
        d, lo, _ = self.diff(b, s, z)
        return bool(d > 0 and lo > 0)

    def attrs(self) -> dict[str, Any]:
        """What an advise table records of the run."""
        return {"samples": self.samples, "stop": self.stop, "batch": self.batch, "budget_ms": self.budget_ms,
                "elapsed_ms": round(self.elapsed_ms, 1)}


def stop_text(attrs: Mapping[str, Any]) -> str:
    """A header's words on how sampling stopped, from an advise table's ``attrs`` (``samples``,
    ``stop``, ``budget_ms``, ``seed``), with the arguments that reproduce it.

    >>> stop_text({"samples": 96, "stop": "budget", "budget_ms": 150.0, "seed": 0})
    'stopped by the 150 ms budget at 96 layouts, best vs second not resolved (--samples 96 --seed 0 reproduces it)'
    >>> stop_text({"samples": 40, "stop": "fixed", "budget_ms": None, "seed": 3})
    '40 layouts (fixed by --samples)'
    """
    n = attrs["samples"]
    if attrs["stop"] == "fixed":
        return f"{n} layouts (fixed by --samples)"
    why = {"resolved": "sampled until the best option's lead over the second was resolved (paired 95% interval "
                       "above 0)",
           "budget": f"stopped by the {attrs['budget_ms']:g} ms budget",
           "max": "stopped at the maximum sample count"}[attrs["stop"]]
    tail = "" if attrs["stop"] == "resolved" else ", best vs second not resolved"
    return f"{why} at {n} layouts{tail} (--samples {n} --seed {attrs['seed']} reproduces it)"


def cli_options(what: str = "answer") -> tuple[Any, Any]:
    """``--samples`` (default none: the budget decides) and ``--budget-ms`` of every ``advise`` command.

    A game's commands.py takes them from :func:`kaptai.core.cli_options.advice_budget` (the same
    options): importing this module imports numpy, which loading the registry must not
    (tests/test_startup.py)."""
    from kaptai.core.cli_options import advice_budget

    return advice_budget(what)


def batch_stream(seed: int, b: int) -> np.random.PCG64:
    """The bit generator of batch ``b``: ``PCG64(SeedSequence(seed, spawn_key=(b,)))``."""
    return np.random.PCG64(np.random.SeedSequence(int(seed), spawn_key=(int(b),)))


def paired_budget(
    evaluate: Callable[[np.random.PCG64, int], np.ndarray],
    n_options: int | None,
    *,
    seed: int,
    samples: int | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    batch: int = 32,
    min_samples: int | None = None,
    max_samples: int = MAX_SAMPLES,
    groups: Any = None,
    start: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> PairedResult:
    """Sample ``evaluate`` in batches until the best option is resolved, the budget is spent, or
    ``samples`` (when given) are drawn.

    Parameters
    ----------
    evaluate : callable
        ``evaluate(bit_generator, n)`` values every option on ``n`` fresh layouts drawn from
        ``bit_generator`` -- the same layouts for every option -- and returns an array
        ``(quantities, n_options, n)`` (or ``(n_options, n)`` for one quantity); quantity 0 ranks.
    n_options : int or None
        Options (at least 1); None: as many as the first batch values (an advisor that learns
        its options from the engine's first answer need not ask for them first).
    seed : int
        Entropy of the batch streams (:func:`batch_stream`).
    samples : int, optional
        A fixed number of layouts (stop ``'fixed'``); None: the budget decides.
    budget_ms : float
        Time budget; no batch is started that would be expected to end beyond it (by the time the
        last batch took), once ``min_samples`` are drawn.
    batch : int
        Layouts per batch (fixed per advisor: it is part of what makes a result reproducible).
    min_samples : int, optional
        Layouts drawn before the first test of the lead (default two batches).
    max_samples : int
        Ceiling of the budgeted run.
    groups : sequence of index arrays, optional
        Blocks of options compared among themselves only (e.g. one block per scoring): the run
        is resolved when every block's best option is resolved over that block's second.
    start : float, optional
        ``clock()`` at the start of the advice: the budget then covers the advisor's own set-up too.

    Returns
    -------
    PairedResult
    """
    if n_options is not None and n_options < 1:
        raise ValueError("paired_budget needs at least one option")
    batch = max(1, int(batch))
    target = int(samples) if samples is not None else int(max_samples)
    min_n = 2 * batch if min_samples is None else max(1, int(min_samples))
    sums = sumsq = cross = None
    n = 0
    b = 0
    t0 = clock() if start is None else float(start)
    last = 0.0
    stop = "fixed" if samples is not None else "max"
    while n < target:
        size = min(batch, target - n)
        tb = clock()
        v = np.asarray(evaluate(batch_stream(seed, b), size), dtype=np.float64)
        if v.ndim == 2:
            v = v[None]
        if n_options is None:
            n_options = int(v.shape[1]) if v.ndim == 3 else -1
            if n_options == 0:
                raise ValueError("paired_budget needs at least one option")
        if v.shape[1:] != (n_options, size):
            raise ValueError(f"evaluate returned shape {v.shape}, expected (q, {n_options}, {size})")
        if sums is None or sumsq is None or cross is None:
            sums = np.zeros(v.shape[:2])
            sumsq = np.zeros(v.shape[:2])
            cross = np.zeros((n_options, n_options))
        sums += v.sum(axis=2)
        sumsq += (v * v).sum(axis=2)
        cross += v[0] @ v[0].T
        n += size
        b += 1
        now = clock()
        last = now - tb
        if samples is not None or n < min_n:
            continue
        res = PairedResult(n, sums, sumsq, cross, "", b, 0.0, batch, budget_ms, groups)
        if res.resolved():
            stop = "resolved"
            break
        if (now - t0 + last) * 1000.0 > budget_ms:
            stop = "budget"
            break
    assert sums is not None and sumsq is not None and cross is not None
    out = PairedResult(n, sums, sumsq, cross, stop, b, (clock() - t0) * 1000.0, batch,
                       None if samples is not None else float(budget_ms), groups)
    sink = _CAPTURED.get()
    if sink is not None:  # capture_paired(): a caller wants the paired sums behind an advisor's table
        sink.append(out)
    return out


#: The list that :func:`capture_paired` collects into, in this thread / context (None: no capture).
_CAPTURED: contextvars.ContextVar[list[PairedResult] | None] = contextvars.ContextVar("kaptai_paired", default=None)


@contextlib.contextmanager
def capture_paired() -> Iterator[list[PairedResult]]:
    """Collect every :class:`PairedResult` that :func:`paired_budget` returns inside the block
    (in this thread or context only): the paired sums behind an advisor's table, from which the
    paired difference of any two of its options is :meth:`PairedResult.diff` (``kaptai review``
    measures the move made against a best option chosen on other layouts).

    >>> with capture_paired() as got:
    ...     r = paired_budget(lambda bg, n: np.ones((2, n)), 2, seed=0, samples=4)
    >>> got == [r], r.diff(0, 1)
    (True, (0.0, 0.0, 0.0))
    """
    sink: list[PairedResult] = []
    token = _CAPTURED.set(sink)
    try:
        yield sink
    finally:
        _CAPTURED.reset(token)
