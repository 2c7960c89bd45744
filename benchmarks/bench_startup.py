"""Start-up of the ``kaptai`` command: whole processes, as a shell runs them.

Run ``python benchmarks/bench_startup.py [--quick]``.  ``run(quick)`` returns rows
``{name, value, unit, ...}``: the median wall time (ms) of the whole process of

* ``python -c pass`` and ``python -c "import numpy"`` / ``"import pandas"`` (the floor, and
  what an ``advise`` must import for its table), measured beside the others;
* ``kaptai --version``, ``kaptai --help`` and ``kaptai <command> <game> --help`` (target: under
  150 ms on one idle core);
* ``kaptai advise <game> ...`` of every game, the example of its ``--help`` (target: no more
  than 150 ms above ``python -c "import pandas"``; ``over_pandas`` is that difference of the
  wall times, ``cpu_over_pandas`` of the CPU times);
* Nantong's line once more with ``KAPTAI_CACHE_DIR=""``: its per-suit tables built in the
  process (as before they were cached, and as on the first run after an install) instead
  of mapped from the cache file the warm-up run wrote (see :mod:`kaptai.nantong._eval`).

Each command line runs 20 times (5 with ``--quick``), the command lines in turn (round
robin), so that a change of the machine's load touches all of them alike; ``cpu`` is the
median CPU time (user + system) of the process, less sensitive to other load than the wall
time.  ``kaptai`` is the console script installed next to this Python (else ``python -m
kaptai``).  Bytecode is cached as on a user's machine (in a folder of its own: the source
tree is not touched; a ``PYTHONDONTWRITEBYTECODE`` of the environment is dropped) after one
warm-up run of each line; the Nantong table cache too (``KAPTAI_CACHE_DIR`` set to a folder of
its own, filled by the warm-up run).  Before the timings, the modules each ``kaptai`` line imports are
listed (third-party packages by name, kaptai's modules counted), from one run of
:func:`kaptai.cli.main` in a fresh process.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _timing import Rows

if __name__ == "__main__":  # run as a script: the in-place build, else the installed package (see run.py)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run import select_kaptai

    select_kaptai()

from kaptai.games import GAMES  # noqa: E402

TARGET_MS = 150.0
HELP_LINES = (["--version"], ["--help"], ["simulate", "big-two", "--help"], ["odds", "kap-tai-shap", "--help"],
              ["advise", "nantong", "--help"])

_MODULES = """
import json, sys
argv = json.loads(sys.argv[1])
from kaptai.cli import main
try:
    main(argv)
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print(json.dumps(sorted(sys.modules)))
"""


def kaptai_command() -> tuple[list[str], str]:
    """How to start ``kaptai``: the console script next to this Python, else ``python -m kaptai``."""
    script = Path(sys.executable).with_name("kaptai")
    if script.is_file() and os.access(script, os.X_OK):
        return [str(script)], "console script"
    return [sys.executable, "-m", "kaptai"], "python -m kaptai"


def advise_lines() -> list[list[str]]:
    """The example of ``kaptai advise <game>`` of every game that has one, as argvs."""
    out = []
    for spec in GAMES.values():
        cmd = spec.commands.get("advise")
        if cmd is not None and cmd.example:
            out.append(shlex.split(cmd.example)[1:])
    return out


def environment(cache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    env["KAPTAI_CACHE_DIR"] = os.path.join(cache, "kaptai-cache")
    return env


def imported(argv: list[str], env: dict[str, str]) -> list[str]:
    """The modules imported by the end of ``kaptai <argv>`` (one fresh process)."""
    r = subprocess.run([sys.executable, "-c", _MODULES, json.dumps(argv)], capture_output=True, text=True,
                       env=env, timeout=300)
    lines = r.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else []


def describe(modules: list[str]) -> str:
    """Third-party packages by name (kaptai's modules counted), stdlib left out."""
    stdlib = set(getattr(sys, "stdlib_module_names", ()))
    top = sorted({m.split(".")[0] for m in modules} - stdlib - {"kaptai", "__main__"})
    own = [m for m in modules if m == "kaptai" or m.startswith("kaptai.")]
    return f"{len(own)} kaptai modules; third-party: {', '.join(t for t in top if not t.startswith('_')) or 'none'}"


def _time(cmd: list[str], env: dict[str, str], extra: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU time (ms) of one whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**env, **(extra or {})})
    wall = (time.perf_counter() - t0) * 1e3
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {r.returncode}: {r.stderr.decode()[-300:]}")
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1e3
    return wall, cpu


def run(quick: bool = False, show_modules: bool = True) -> list[dict]:
    """Measure and return the rows (see the module docstring)."""
    repeats = 5 if quick else 20
    kaptai, _ = kaptai_command()
    py = [sys.executable, "-c"]
    # (name, command, kaptai argv or None, environment added)
    lines: list[tuple[str, list[str], list[str] | None, dict[str, str]]] = [
        ("python -c pass", py + ["pass"], None, {}),
        ("python -c 'import numpy'", py + ["import numpy"], None, {}),
        ("python -c 'import pandas'", py + ["import pandas"], None, {}),
    ]
    for argv in [*map(list, HELP_LINES), *advise_lines()]:
        shown = " ".join(shlex.quote(a) for a in argv)
        lines.append((f"kaptai {shown}", kaptai + argv, argv, {}))
        if argv[:2] == ["advise", "nantong"] and "--help" not in argv:
            lines.append((f"KAPTAI_CACHE_DIR='' kaptai {shown}", kaptai + argv, argv, {"KAPTAI_CACHE_DIR": ""}))
    rows = Rows()
    with tempfile.TemporaryDirectory(prefix="kaptai-bench-startup-") as cache:
        env = environment(cache)
        if show_modules:
            for name, _, argv, extra in lines:
                if argv is not None and not extra:
                    print(f"# {name}: {describe(imported(argv, env))}", flush=True)
        for _, cmd, _, extra in lines:  # warm-up: the bytecode cache, the Nantong table cache
            _time(cmd, env, extra)
        walls: dict[str, list[float]] = {name: [] for name, _, _, _ in lines}
        cpus: dict[str, list[float]] = {name: [] for name, _, _, _ in lines}
        for _ in range(repeats):
            for name, cmd, _, extra in lines:
                w, c = _time(cmd, env, extra)
                walls[name].append(w)
                cpus[name].append(c)
    pandas_ms = statistics.median(walls["python -c 'import pandas'"])
    pandas_cpu = statistics.median(cpus["python -c 'import pandas'"])
    for name, _, argv, _ in lines:
        wall = statistics.median(walls[name])
        row = {"name": name[:80], "value": round(wall, 1), "unit": "ms", "repeats": repeats,
               "cpu": round(statistics.median(cpus[name]), 1)}
        if argv is not None and argv[0] == "advise" and "--help" not in argv:
            row["over_pandas"] = round(wall - pandas_ms, 1)
            row["cpu_over_pandas"] = round(row["cpu"] - pandas_cpu, 1)
        elif argv is not None:
            row["target"] = "<150"
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 runs of each command line instead of 20")
    args = parser.parse_args(argv)
    kaptai, via = kaptai_command()
    print(f"kaptai via the {via} ({' '.join(kaptai)}); medians of {5 if args.quick else 20} whole processes")
    for row in run(args.quick):
        extra = "  ".join(f"{k}={v}" for k, v in row.items() if k not in ("name", "value", "unit"))
        print(f"{row['name']:<80} {row['value']:>8.1f} {row['unit']}  {extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
