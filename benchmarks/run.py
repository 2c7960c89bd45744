"""Run every kaptai benchmark and print one table.

Usage::

    python benchmarks/run.py [--quick] [--json out.json]

Rows come from ``benchmarks/bench_startup.py`` (the start-up of the ``kaptai`` command, whole
processes), ``benchmarks/bench_eval.py`` (evaluator throughput, reference ratios,
exact deal tables) and, when it is present and imports cleanly,
``benchmarks/bench_engine.py`` (game engine throughput), then the advisor, the chunked
runner and ``benchmarks/bench_bigtwo.py`` (Big Two engine throughput).  Each module exposes
``run(quick: bool = False) -> list[dict]`` with rows ``{name, value, unit}`` and optional
extra keys (``repeats``: how many runs the median is taken over).  See
``benchmarks/README.md`` for what each row means.

Each row is printed the moment it is measured (modules build their rows in
``_timing.Rows``), under a ``== module ==`` heading.  Ctrl-C stops the run at once: exit
status 130, a one-line message, the rows measured so far kept on the screen.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

#: Benchmark modules, in the order their rows are printed.
MODULES = ("bench_startup", "bench_eval", "bench_engine", "bench_advisor", "bench_lookahead", "bench_runner",
           "bench_bigtwo", "bench_nineten", "bench_nantong", "bench_heaven11", "bench_review", "bench_play")


def missing_extensions(root: Path) -> list[str]:
    """The compiled modules (``kaptai/**/_*.pyx``) of the source tree at ``root`` that have no
    in-place build next to them; empty when the tree is complete (or has no ``kaptai``)."""
    missing = []
    for pyx in sorted((root / "kaptai").glob("**/_*.pyx")):
        if not any(pyx.parent.glob(pyx.stem + ".*.so")) and not any(pyx.parent.glob(pyx.stem + ".*.pyd")):
            missing.append(str(pyx.relative_to(root).with_suffix("")).replace(os.sep, "."))
    return missing


def select_kaptai(root: Path = ROOT) -> str:
    """Put on ``sys.path`` the kaptai to benchmark and import it; return where it is.

    The source tree at ``root`` when its extensions are built in place
    (``python setup.py build_ext --inplace``); otherwise the installed package
    (``pip install .``), with ``root`` kept off ``sys.path`` so that the uncompiled tree
    does not shadow it.  Raises ImportError (saying what to do) when neither can run.
    """
    root_s = os.path.abspath(root)
    if (Path(root) / "kaptai").is_dir() and not missing_extensions(Path(root)):
        if root_s not in sys.path:
            sys.path.insert(1, root_s)
    else:
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != root_s]
    for name in [m for m in sys.modules if m == "kaptai" or m.startswith("kaptai.")]:
        del sys.modules[name]
    try:
        import kaptai
        import kaptai.bigtwo._engine  # noqa: F401
        import kaptai.kts._eval  # noqa: F401
    except ImportError as exc:
        raise ImportError(
            f"kaptai with its compiled extensions cannot be imported ({exc}); install it (pip install .) or "
            f"build it in place (python setup.py build_ext --inplace)"
        ) from None
    return str(Path(kaptai.__file__).parent)


def keep_selected(where: str, root: Path = ROOT) -> str | None:
    """Undo what a benchmark module may have done to the choice of :func:`select_kaptai`:
    when the installed package is benchmarked, the source tree at ``root`` is taken off
    ``sys.path`` again (worker processes -- Dask's spawn, process pools -- copy ``sys.path``
    and would import the uncompiled tree: the hang of issue 22); returns a complaint if
    ``kaptai`` is no longer the package at ``where``."""
    root_s = os.path.abspath(root)
    if not where.startswith(os.path.join(root_s, "kaptai")):
        sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != root_s]
    mod = sys.modules.get("kaptai")
    now = str(Path(mod.__file__).parent) if mod is not None and getattr(mod, "__file__", None) else None
    if now != where:
        return f"kaptai is now {now}, not the {where} chosen at the start"
    return None


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=10
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True, timeout=10
        )
        return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "") if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def format_value(value: float, unit: str) -> str:
    if unit == "s":
        return f"{value:.3f}"
    if unit == "x":
        return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"
    if isinstance(value, float) and not value.is_integer() and abs(value) < 100:
        return f"{value:,.2f}"
    return f"{value:,.0f}"


def print_table(sections: list[tuple[str, list[dict]]]) -> None:
    rows = [(title, r) for title, rs in sections for r in rs]
    if not rows:
        return
    name_w = max(len(str(r["name"])) for _, r in rows)
    val_w = max(len(format_value(r["value"], r.get("unit", ""))) for _, r in rows)
    unit_w = max(len(str(r.get("unit", ""))) for _, r in rows)
    for title, rs in sections:
        if not rs:
            continue
        print(f"\n== {title} ==")
        for r in rs:
            extra = f"median of {r['repeats']}" if "repeats" in r else ""
            others = {k: v for k, v in r.items() if k not in ("name", "value", "unit", "repeats")}
            if others:
                extra += ("  " if extra else "") + " ".join(f"{k}={v}" for k, v in others.items())
            print(
                f"{str(r['name']):<{name_w}}  {format_value(r['value'], r.get('unit', '')):>{val_w}}"
                f"  {str(r.get('unit', '')):<{unit_w}}  {extra}".rstrip()
            )


NAME_WIDTH = 66
VALUE_WIDTH = 14


def format_row(r: dict) -> str:
    """One row as printed: name, value, unit, then ``median of k`` and any other keys."""
    extra = f"median of {r['repeats']}" if "repeats" in r else ""
    others = {k: v for k, v in r.items() if k not in ("name", "value", "unit", "repeats")}
    if others:
        extra += ("  " if extra else "") + " ".join(f"{k}={v}" for k, v in others.items())
    return (f"{str(r['name']):<{NAME_WIDTH}}  {format_value(r['value'], r.get('unit', '')):>{VALUE_WIDTH}}"
            f"  {str(r.get('unit', '')):<8}  {extra}").rstrip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the kaptai benchmarks and print one table.")
    parser.add_argument("--quick", action="store_true", help="smaller samples and time budgets on slow rows")
    parser.add_argument("--json", metavar="OUT", help="also write the rows and the machine details as JSON")
    args = parser.parse_args(argv)
    try:
        where = select_kaptai()
    except ImportError as exc:
        print(f"run.py: error: {exc}", file=sys.stderr)
        return 2

    started = time.perf_counter()
    meta = {
        "date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "quick": args.quick,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu(),
        "cpus": os.cpu_count(),
        "commit": _git_commit(),
    }
    try:
        import numpy

        meta["numpy"] = numpy.__version__
    except ImportError:  # pragma: no cover
        pass
    print(f"kaptai benchmarks {meta['date']}  {'--quick  ' if args.quick else ''}"
          f"python {meta['python']}  {meta['cpu']} ({meta['cpus']} CPUs)  commit {meta['commit']}")
    print("Times are medians over repeated runs ('median of k'); the machine may be noisy.")
    print(f"kaptai from {where}")
    meta["kaptai"] = where

    sections: list[tuple[str, list[dict]]] = []
    notes: list[str] = []
    failed: list[str] = []  # modules that could not run: the exit status says so
    shown: set[int] = set()  # rows already printed (by id)

    def show(row: dict) -> None:
        shown.add(id(row))
        print(format_row(row), flush=True)

    import _timing

    _timing.set_sink(show)
    try:
        for name in MODULES:
            if not (HERE / f"{name}.py").exists():
                notes.append(f"{name}: benchmarks/{name}.py not found, skipped")
                failed.append(name)
                continue
            try:
                module = importlib.import_module(name)
            except Exception as exc:  # noqa: BLE001 - any import failure means: skip it, say why
                notes.append(f"{name}: does not import cleanly ({type(exc).__name__}: {exc}), skipped")
                failed.append(name)
                continue
            complaint = keep_selected(where)
            if complaint:
                notes.append(f"{name}: {complaint}; skipped")
                failed.append(name)
                continue
            if not callable(getattr(module, "run", None)):
                notes.append(f"{name}: has no run(quick) function, skipped")
                failed.append(name)
                continue
            print(f"\n== {name} ==", flush=True)
            t0 = time.perf_counter()
            try:
                rows = list(module.run(quick=args.quick))
            except Exception as exc:  # noqa: BLE001 - keep the other modules' rows
                traceback.print_exc()
                notes.append(f"{name}: run() failed ({type(exc).__name__}: {exc})")
                failed.append(name)
                continue
            for row in rows:  # a module that does not build its rows in _timing.Rows
                if id(row) not in shown:
                    show(row)
            if not rows:
                notes.append(f"{name}: measured nothing")
                failed.append(name)
            print(f"({name}: {time.perf_counter() - t0:.0f} s)", flush=True)
            sections.append((f"{name} ({time.perf_counter() - t0:.0f} s)", rows))
    except KeyboardInterrupt:
        _timing.set_sink(None)
        print(f"\nrun.py: interrupted after {time.perf_counter() - started:.0f} s ({len(shown)} row(s) "
              f"measured, above)", file=sys.stderr, flush=True)
        return 130
    _timing.set_sink(None)

    others = sorted(f.stem for f in HERE.glob("bench_*.py") if f.stem not in MODULES)
    for name in others:
        notes.append(f"{name}: not run (add it to MODULES in benchmarks/run.py to include it)")

    print()
    for note in notes:
        print(f"note: {note}")
    total = time.perf_counter() - started
    print(f"\ntotal {total:.0f} s")

    if args.json:
        payload = {
            "meta": {**meta, "seconds": round(total, 1), "notes": notes},
            "rows": [{"module": title.split(" ")[0], **r} for title, rs in sections for r in rs],
        }
        Path(args.json).write_text(json.dumps(payload, indent=2, default=float) + "\n")
        print(f"wrote {args.json}")
    if failed:
        print(f"run.py: error: {len(failed)} benchmark module(s) could not run: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\nrun.py: interrupted", file=sys.stderr)
        sys.exit(130)
