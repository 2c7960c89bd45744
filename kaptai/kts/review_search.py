"""Kap Tai Shap's review by the ``search`` policy's own evaluation (``kaptai review kap-tai-shap
FILE --advisor search``, the default).

The ``search`` player (:class:`kaptai.kts.policies.SearchPolicy`) values an option by playing it
out on sampled layouts of the tiles its seat has not seen, with the rollout policy at every seat
(``greedy`` under the pot settlement, ``score`` under ``advanced``), and counts the seat's net
result of each rollout in antes (under ``advanced`` a point is an ante from each loser, so the
value is the points as settled).  This adapter asks the same machinery
(:func:`kaptai.kts._engine.search_values`, the compiled twin of
:func:`kaptai.kts.engine_reference.search_values`) about every legal option of a reviewed decision
-- every discard, and a single-tile claim against declining -- on ``samples`` layouts drawn from
a seed, the same layouts for every option (paired).

Each answer hands over its paired sums (``paired``, a :class:`kaptai.core.advise.PairedResult`,
and ``index``), so the review cross-fits as in the other games (:mod:`kaptai.core.review`, the
default): ``samples`` layouts from the decision's seed choose the best option, ``samples`` others
from an independent seed measure it, a decision's loss is ``V_B(best_A) - V_B(made)`` with the
paired 95% interval of that difference over B's layouts, and P(win) (the share of B's rollouts
the seat wins) under each option.  Choosing and measuring on the same layouts
(``--no-cross-fit``) makes every loss at least 0, and a player as good as the advisor look worse
than it is; cross-fitted, its expected loss is 0 (a single loss can be below 0).

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
>>> sorted(ev["index"]) == list(range(len(ev["labels"]))), ev["paired"].samples
(True, 8)
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

from kaptai.core.review import Decision, paired_answer
from kaptai.errors import UsageError
from kaptai.kts.play import claim_labels, decisions, read
from kaptai.kts.tiles import format_tile

#: What a loss counts in here: the search's rollout value, the seat's net result of the hand.
LOSS_UNIT = "antes"
__all__ = ["LOSS_UNIT", "ADVISORS", "loss_unit", "decisions", "read", "evaluate", "option_values", "answer", "review_adapter",
           "review_command"]


def option_values(d: Decision, layouts: int, seed: int) -> tuple[list[str], np.ndarray]:
    """The labels of a decision's options and their rollout values, shape ``(options, layouts)``.

    The layouts are drawn from ``numpy.random.PCG64(seed)``; claim options are declining then
    claiming (:func:`kaptai.kts.play.claim_labels`: ``no claim (let 2-5 go)``, ``claim 2-5``),
    discards the legal tiles in id order.
    """
    from kaptai.kts._engine import search_values

    x = d.extra
    if d.kind == "claim":
        take, stay = claim_labels(int(x["offered"]))
        labels, opts = [stay, take], [-1, int(x["offered"])]
    else:
        opts = [int(t) for t in x["ids"]]
        labels = [format_tile(t) for t in opts]
    vals = search_values(x["cfg"], x["state"], int(d.view.seat), int(x["ctx"]), opts, np.random.PCG64(int(seed)),
                         int(layouts), int(x["early_of"]))
    return labels, np.asarray(vals, dtype=np.float64)


def answer(labels: list[str], v: np.ndarray) -> dict[str, Any]:
    """The paired table of rollout values ``v``, ``(options, layouts)``
    (:func:`kaptai.core.review.paired_answer`; P(win) is the share of layouts with a positive net)."""
    return paired_answer(labels, v)


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The search's evaluation of a decision on ``samples`` layouts drawn from ``seed``
    (:func:`answer`; the review asks again on independent layouts to cross-fit)."""
    if samples < 2:
        raise UsageError(f"--samples {samples}: the search advisor needs at least 2 layouts (the paired interval)")
    labels, v = option_values(d, samples, seed)
    return answer(labels, v)


def loss_unit(header: Mapping[str, Any]) -> str:
    """The unit of the search's values on a record: antes under the pot settlement, points under
    advanced scoring (the record's rules; :data:`LOSS_UNIT` is the pot's).

    >>> loss_unit({"rules": {"settlement": "advanced"}}), loss_unit({"rules": {}})
    ('points', 'antes')
    """
    from kaptai.kts.records import unit_of
    from kaptai.kts.rules import resolve_rules

    return unit_of(resolve_rules(header.get("rules") or {}))


#: The advisors of ``kaptai review kap-tai-shap FILE --advisor A`` (the first is the default):
#: ``search`` values an option by the ``search`` policy's rollouts, in antes
#: (this module); ``exact`` by the exact look-ahead, in P(win within the look-ahead)
#: (:func:`kaptai.kts.play.evaluate`).
ADVISORS: tuple[str, ...] = ("search", "exact")


def review_adapter(advisor: str) -> Any:
    """The review adapter (module) of an ``--advisor`` value.

    >>> review_adapter("exact").LOSS_UNIT, review_adapter("search").LOSS_UNIT
    ('P(win within the look-ahead)', 'antes')
    >>> review_adapter("best")
    Traceback (most recent call last):
    ...
    kaptai.errors.UsageError: --advisor 'best': expected one of search, exact
    """
    from kaptai.core.review import pick_adapter

    return pick_adapter(advisor, _adapters())


def _adapters() -> dict[str, Any]:
    from kaptai.kts import play

    return dict(zip(ADVISORS, (sys.modules[__name__], play)))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review kap-tai-shap FILE`` (``--advisor search``, the default, or ``exact``)."""
    from kaptai.core.review import advised_review_command

    return advised_review_command(args, game, _adapters())
