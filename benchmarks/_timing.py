"""Timing shared by the benchmark modules, the rows they report, and the ``--compare KEY=VALUE``
argument of the paired duels (:func:`compare_override`).

A module builds its rows in a :class:`Rows` list: ``benchmarks/run.py`` sets a sink
(:func:`set_sink`) that prints every row the moment it is appended, so a long run shows
each result as it finishes instead of all of them at the end.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable

_SINKS: list[Callable[[dict], None]] = []


def set_sink(sink: Callable[[dict], None] | None) -> None:
    """Call ``sink(row)`` for every row appended to a :class:`Rows` from now on (None: stop)."""
    _SINKS[:] = [] if sink is None else [sink]


class Rows(list):
    """A list of benchmark rows that reports each row to the sink when it is appended."""

    def append(self, row: dict) -> None:  # type: ignore[override]
        super().append(row)
        for sink in _SINKS:
            sink(row)

    def extend(self, rows: Iterable[dict]) -> None:  # type: ignore[override]
        for row in rows:
            self.append(row)

    def __iadd__(self, rows: Iterable[dict]) -> Rows:  # type: ignore[override]
        self.extend(rows)
        return self


def median_rate(fn: Callable[[int], object], n: int, repeats: int,
                budget: float | None = None) -> tuple[float, int]:
    """Median items per second of ``fn(n)`` over ``repeats`` runs after a warm-up
    (``fn(max(1, n // 10))``), and the runs made; with a ``budget`` (seconds) the runs stop
    early once it is spent (at least one run)."""
    fn(max(1, n // 10))
    rates = []
    spent = 0.0
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(n)
        dt = time.perf_counter() - t0
        rates.append(n / dt)
        spent += dt
        if budget is not None and spent > budget:
            break
    return statistics.median(rates), len(rates)


def run_python(code: str, timeout: float = 300.0) -> str:
    """The stdout of ``python -c code`` in a fresh process that imports the same kaptai as this
    one (its folder first on ``PYTHONPATH``; run from an empty folder, so that the source tree
    of the current directory does not shadow an installed kaptai)."""
    import os
    import subprocess
    import sys
    import tempfile

    import kaptai

    parent = os.path.dirname(os.path.dirname(os.path.abspath(kaptai.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = parent + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    with tempfile.TemporaryDirectory(prefix="kaptai-bench-") as cwd:
        return subprocess.check_output([sys.executable, "-c", code], cwd=cwd, env=env, timeout=timeout).decode()


def compare_override(spec: str) -> tuple[str, object]:
    """``(key, value)`` of a duel's ``--compare KEY=VALUE``: a ``search_*`` config keyword and its
    value (an int when it is a whole number).

    >>> compare_override("search_samples=128")
    ('search_samples', 128)
    >>> compare_override("search_rollout=heuristic")
    ('search_rollout', 'heuristic')
    """
    key, _, val = spec.partition("=")
    if not key.startswith("search_") or not val:
        raise SystemExit(f"--compare expects KEY=VALUE with a search_* key, got {spec!r}")
    return key, int(val) if val.lstrip("-").isdigit() else val


def paired_text(a_name: str, a, b_name: str, b) -> str:
    """``'<a> +m +- ci, <b> +m +- ci; paired <b> - <a>: +d +- ci'``: two players' per-deal results on
    the same deals, each mean with its 95% interval over deals and their paired difference (the
    duels' one line).

    >>> paired_text("default", [1.0, 2.0, 3.0], "changed", [2.0, 2.0, 5.0])
    'default +2.000 +- 1.132, changed +3.000 +- 1.960; paired changed - default: +1.000 +- 1.132'
    """
    import numpy as np

    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)

    def ci(x):
        return 1.96 * x.std(ddof=1) / np.sqrt(len(x))

    d = b - a
    return (f"{a_name} {a.mean():+.3f} +- {ci(a):.3f}, {b_name} {b.mean():+.3f} +- {ci(b):.3f}; "
            f"paired {b_name} - {a_name}: {d.mean():+.3f} +- {ci(d):.3f}")


def modes_arg(ap, text: str, modes: tuple[str, ...]) -> tuple[str, ...]:
    """The modes of a ``--modes a,b,...`` argument, in ``modes``' order (two or more of them, else
    ``ap.error``): the advisor duels' choice of players.

    >>> import argparse
    >>> modes_arg(argparse.ArgumentParser(), "top,field", ("field", "typed", "top"))
    ('field', 'top')
    """
    asked = text.split(",")
    out = tuple(m for m in modes if m in asked)
    if len(out) < 2 or set(asked) - set(modes):
        ap.error(f"--modes: two or more of {', '.join(modes)}")
    return out


def deal_chunks(fn: Callable[[tuple], dict], deals: int, workers: int, *args: object) -> list[dict]:
    """``fn((lo, hi, *args))`` over ``4 x workers`` slices ``[lo, hi)`` of ``range(deals)`` in a
    process pool of ``workers``, the parts in deal order (the advisor duels' runner).

    >>> [p["lo"] for p in deal_chunks(_span, 10, 1, "x")]
    [0, 3, 6, 9]
    """
    from concurrent.futures import ProcessPoolExecutor

    step = max(1, -(-deals // (4 * workers)))
    jobs = [(lo, min(lo + step, deals), *args) for lo in range(0, deals, step)]
    with ProcessPoolExecutor(workers) as ex:
        return list(ex.map(fn, jobs))


def _span(job: tuple) -> dict:
    """:func:`deal_chunks`' doctest job."""
    return {"lo": job[0], "hi": job[1]}
