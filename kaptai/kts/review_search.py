"""Kap Tai Shap's review by the ``search`` policy's own evaluation (``kaptai review kap-tai-shap
FILE --advisor search``, the default).

The ``search`` player (:class:`kaptai.kts.policies.SearchPolicy`) values an option by playing it
out on sampled layouts of the tiles its seat has not seen, with the rollout policy at every seat
(``greedy`` under the pot settlement, ``score`` under ``advanced``), and counts the seat's net
result of each rollout in antes (under ``advanced`` a point is an ante from each loser, so the
value is the points as settled).  This adapter asks the same machinery
(:func:`kaptai.kts._engine.search_values`, the compiled twin of
:func:`kaptai.kts.engine_reference.search_values`) about every legal option of a reviewed decision
-- every discard, and a single-tile claim against declining -- on ``2 * samples`` layouts drawn
from the decision's seed, the same layouts for every option (paired).

It cross-fits: the first ``samples`` layouts (A) choose the best option, the other ``samples``
(B) measure it, so a decision's loss is ``V_B(best_A) - V_B(made)`` with the paired 95% interval
of that difference over B's layouts, and P(win) (the share of B's rollouts the seat wins) under
each option.  Choosing and measuring on the same layouts would make every loss at least 0 and a
player as good as the advisor look worse than it is; cross-fitted, its expected loss is 0 (and a
single loss can be below 0).

:func:`decisions` and :func:`read` are those of :mod:`kaptai.kts.play` (the exact advisor's
adapter), which keeps the engine's state at every decision for this one.

Examples
--------
>>> import os, tempfile
>>> from kaptai.kts.records import record_hands
>>> from kaptai.kts import review_search as rs
>>> path = os.path.join(tempfile.mkdtemp(), "k.jsonl")
>>> _ = record_hands(path, 4, hands=1, seed=1)
>>> d = next(iter(rs.decisions(rs.read(path), [0])))
>>> ev = rs.evaluate(d, samples=8, seed=0)
>>> ev["labels"][0] == rs.evaluate(d, samples=8, seed=0)["labels"][0], float(ev["vs_best"][0]), ev["samples"]
(True, 0.0, 8)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kaptai.core.review import Decision
from kaptai.errors import UsageError
from kaptai.kts.play import decisions, read
from kaptai.kts.tiles import format_tile

#: What a loss counts in here: the search's rollout value, the seat's net result of the hand.
LOSS_UNIT = "antes"
#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054

__all__ = ["LOSS_UNIT", "decisions", "read", "evaluate", "option_values", "cross_fit"]


def option_values(d: Decision, layouts: int, seed: int) -> tuple[list[str], np.ndarray]:
    """The labels of a decision's options and their rollout values, shape ``(options, layouts)``.

    The layouts are drawn from ``numpy.random.PCG64(seed)``; claim options are ``no_claim``
    then ``claim``, discards the legal tiles in id order.
    """
    from kaptai.kts._engine import search_values

    x = d.extra
    if d.kind == "claim":
        labels, opts = ["no_claim", "claim"], [-1, int(x["offered"])]
    else:
        opts = [int(t) for t in x["ids"]]
        labels = [format_tile(t) for t in opts]
    vals = search_values(x["cfg"], x["state"], int(d.seat), int(x["ctx"]), opts, np.random.PCG64(int(seed)),
                         int(layouts), int(x["early_of"]))
    return labels, np.asarray(vals, dtype=np.float64)


def cross_fit(labels: list[str], a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
    """The review's answer from values on layouts ``a`` (which choose the best option) and ``b``
    (which measure), each ``(options, layouts)``: labels best first, each option's value and
    P(win) on ``b``, its paired difference to the best on ``b`` with a 95% interval.

    >>> a = np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    >>> b = np.array([[0.0, 0.0, 0.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
    >>> ev = cross_fit(["x", "y"], a, b)
    >>> ev["labels"], [float(v) for v in ev["vs_best"]], [float(p) for p in ev["p_win"]]
    (['x', 'y'], [0.0, 0.75], [0.25, 1.0])
    """
    m, s = b.shape
    best = int(np.argmax(a.mean(axis=1)))  # the first of equal means: a stable choice
    d = b - b[best]
    vs = d.mean(axis=1)
    half = Z95 * d.std(axis=1, ddof=1) / math.sqrt(s) if s > 1 else np.full(m, np.inf)
    half[best] = 0.0
    rest = sorted((i for i in range(m) if i != best), key=lambda i: -vs[i])
    order = [best, *rest]
    vs = vs[order]
    half = half[order]
    return {"labels": [labels[i] for i in order], "value": b.mean(axis=1)[order], "vs_best": vs,
            "vs_low": vs - half, "vs_high": vs + half, "p_win": (b > 0).mean(axis=1)[order], "samples": s}


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The search's evaluation of a decision, cross-fitted (the module's docstring): ``samples``
    layouts choose the best option, another ``samples`` measure it, from one stream of ``seed``."""
    if samples < 2:
        raise UsageError(f"--samples {samples}: the search advisor needs at least 2 layouts a set "
                         "(the paired interval)")
    labels, v = option_values(d, 2 * samples, seed)
    return cross_fit(labels, v[:, :samples], v[:, samples:])
