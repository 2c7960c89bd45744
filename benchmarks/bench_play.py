"""Decision time of ``search`` opponents at a person's table (``kaptai play``).

Run ``python benchmarks/bench_play.py [--quick]``.  A person's seat makes ``kaptai play`` run a
game in its pure-Python reference engine; there each game's ``engine_reference.compiled_rollouts``
switch (on in ``kaptai play``) hands a ``search`` seat's decision to the compiled twin.
``run(quick)`` returns, per game with the switch (Kap Tai Shap, nine-ten, Nantong, Big Two), rows
``{name, value, unit, repeats}``:

* ``play <game>: search decision, compiled``: the median wall time of a search decision in the
  reference engine with the switch on (over the first decisions of a table of search seats at the
  default budget, ``repeats`` of them, after a warm-up run of two), in ms;
* ``play <game>: search decision, pure Python``: the same with the switch off (the first one or
  two decisions only: seconds each), with ``ratio``: the time of those decisions in pure Python
  over their time compiled, in this run.

The decisions are the same in both modes (each game's ``tests/<game>/test_search.py`` checks it
move for move); only the time differs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _timing import Rows

if __name__ == "__main__":  # run as a script: the in-place build, else the installed package (see run.py)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from run import select_kaptai

    select_kaptai()

import numpy as np  # noqa: E402


class _Enough(Exception):
    """Raised by the timer once it has the decisions it wants."""


def _timed(owner: Any, attr: str, limit: int, play: Callable[[], object],
           keep: Callable[..., bool] | None = None) -> list[float]:
    """Wall seconds of the first ``limit`` calls of ``owner.attr`` (those ``keep(*args)`` accepts)
    while ``play()`` runs (the run is cut short by an exception once they are in)."""
    real = getattr(owner, attr)
    times: list[float] = []

    def wrapper(*a: Any, **k: Any) -> Any:
        t = time.perf_counter()
        out = real(*a, **k)
        if keep is not None and not keep(*a):
            return out
        times.append(time.perf_counter() - t)
        if len(times) >= limit:
            raise _Enough
        return out

    setattr(owner, attr, wrapper)
    try:
        play()
    except _Enough:
        pass
    finally:
        setattr(owner, attr, real)
    return times


def _kts() -> tuple[Any, Any, str, Callable[[], object]]:
    from kaptai.kts import engine_reference as er
    from kaptai.kts.config import make_config
    from kaptai.kts.policies import resolve_policies

    cfg = make_config(4, "traditional")
    pols = resolve_policies(["search"] * 4, 4)
    return er, er._Hand, "search", lambda: er.run_hands(cfg, pols, np.random.PCG64(5), 50)


def _nineten() -> tuple[Any, Any, str, Callable[[], object]]:
    from kaptai.nineten import engine_reference as er
    from kaptai.nineten.config import make_config

    cfg = make_config(4)
    return er, er, "_search_choice", lambda: er.run_hands(cfg, ["search"] * 4, np.random.PCG64(5), 50)


def _nantong() -> tuple[Any, Any, str, Callable[[], object]]:
    from kaptai.nantong import engine_reference as er
    from kaptai.nantong.config import make_config

    cfg = make_config(3)

    return er, er._Hand, "_search_discard", lambda: er.run_hands(cfg, ["search"] * 3, np.random.PCG64(5), 50)


def _bigtwo() -> tuple[Any, Any, str, Callable[[], object]]:
    from kaptai.bigtwo import engine_reference as er
    from kaptai.bigtwo.config import make_config
    from kaptai.bigtwo.policies import SearchPolicy

    cfg = make_config(4)
    return er, SearchPolicy, "choose", lambda: er.run_hands(cfg, [SearchPolicy()] * 4, np.random.PCG64(5), 50)


def _decides(*a: Any) -> bool:
    """A Big Two turn with two or more options (a search decision; ``choose(self, view)``)."""
    view = a[-1]
    return len(view.options) + int(view.can_pass) >= 2


GAMES = {"kap-tai-shap": _kts, "nine-ten": _nineten, "nantong": _nantong, "big-two": _bigtwo}


def run(quick: bool = False) -> list[dict]:
    """Measure and return rows ``{'name', 'value', 'unit', 'repeats', ...}``."""
    out: list[dict] = Rows()
    fast_n, slow_n = (8, 1) if quick else (30, 2)
    for game, setup in GAMES.items():
        module, owner, attr, play = setup()
        keep = _decides if game == "big-two" else None
        with module.compiled_rollouts():
            _timed(owner, attr, 2, play, keep)  # warm-up: tables the compiled search builds once
            fast = _timed(owner, attr, fast_n, play, keep)
        slow = _timed(owner, attr, slow_n, play, keep)
        k = len(slow)
        same = sum(fast[:k])  # the same decisions (the same game in both modes)
        out.append({"name": f"play {game}: search decision, compiled", "value": statistics.median(fast) * 1e3,
                    "unit": "ms", "repeats": len(fast)})
        out.append({"name": f"play {game}: search decision, pure Python", "value": statistics.median(slow) * 1e3,
                    "unit": "ms", "repeats": k, "ratio": sum(slow) / same if same > 0 else float("nan")})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer decisions")
    args = ap.parse_args(argv)
    for row in run(args.quick):
        extra = f"  (x{row['ratio']:.0f} the compiled)" if "ratio" in row else ""
        print(f"{row['name']:<48} {row['value']:>10.1f} {row['unit']}  n={row['repeats']}{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
