"""Nantong's review by the ``search`` policy's own evaluation (``kaptai review nantong FILE
--advisor search``, the default).

The ``search`` player (docs/nantong-engine.md, *Search*) values a discard by playing it out on
layouts of the cards its seat has not seen, drawn by its opponent model (``particles`` particles
a layout, each weighed by the likelihood of the other seats' record under a mixture of styles,
resampled), with ``max_melds`` at every seat, and counts the seat's net under the settlement.
This adapter asks the same machinery (:func:`kaptai.nantong._engine.search_values`, the compiled
twin of :func:`kaptai.nantong.engine_reference.search_values`) about EVERY discard the seat
holds (not only the search's first candidates), on ``samples`` layouts drawn from a seed, the
same layouts for every option (paired).  The value is in the settlement's unit (the record's:
the share of the hand win under ``rank_only``), P(win) the share of layouts in which the seat
is among the hand's winners.

Each answer hands over its paired sums (``paired``, a :class:`kaptai.core.advise.PairedResult`,
and ``index``), so the review cross-fits as in the other games (:mod:`kaptai.core.review`): the
best chosen on one set of layouts, the loss measured on an independent one.

:func:`decisions` and :func:`read` are those of :mod:`kaptai.nantong.play`, whose replay keeps the
reference engine's position at each decision for this adapter.

The discard values and the paired table are :mod:`kaptai.nantong.claims`' (which also prices the
answers to a discard, for ``kaptai play nantong``'s hint at a claim prompt; the review itself
grades discards only).

Examples
--------
>>> import os, tempfile
>>> from kaptai.nantong.records import record_hands
>>> from kaptai.nantong import review_search as rs
>>> path = os.path.join(tempfile.mkdtemp(), "n.jsonl")
>>> _ = record_hands(path, 3, hands=1, seed=1)
>>> d = next(iter(rs.decisions(rs.read(path), [0])))
>>> ev = rs.evaluate(d, samples=4, seed=0)
>>> ev["labels"] == rs.evaluate(d, samples=4, seed=0)["labels"], float(ev["vs_best"][0]), ev["samples"]
(True, 0.0, 4)
>>> sorted(ev["index"]) == list(range(len(ev["labels"]))), ev["paired"].samples
(True, 4)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kaptai.core.review import Decision
from kaptai.errors import UsageError
from kaptai.nantong.claims import answer, discard_values
from kaptai.nantong.play import decisions, read

__all__ = ["ADVISORS", "decisions", "read", "evaluate", "option_values", "answer", "review_adapter",
           "review_command"]


def option_values(d: Decision, layouts: int, seed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """:func:`discard_values` of a reviewed discard, the layouts drawn from ``numpy.random.PCG64(seed)``."""
    x = d.extra
    if x.get("state") is None:
        raise UsageError(f"hand {d.hand}, seat {d.seat}: the replay kept no position for this decision")
    # the hand's seat (the engine's, from the dealer): a rotating deal's decision names the table's
    return discard_values(x["cfg"], x["state"], int(d.view.seat), layouts, np.random.PCG64(int(seed)))


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The search's evaluation of a discard on ``samples`` layouts drawn from ``seed``
    (:func:`answer`; the review asks again on independent layouts to cross-fit)."""
    if samples < 2:
        raise UsageError(f"--samples {samples}: the search advisor needs at least 2 layouts (the paired interval)")
    labels, v, w = option_values(d, samples, seed)
    return answer(labels, v, w)


#: The advisors of ``kaptai review nantong FILE --advisor A`` (the first is the default):
#: ``search`` values every discard by the ``search`` policy's own evaluation (this module);
#: ``advise`` by the advisor of ``kaptai advise nantong`` (:func:`kaptai.nantong.play.evaluate`).
#: Both in the settlement's unit.
ADVISORS: tuple[str, ...] = ("search", "advise")


def review_adapter(advisor: str) -> Any:
    """The review adapter (module) of an ``--advisor`` value.

    >>> review_adapter("advise").__name__, review_adapter("search").__name__
    ('kaptai.nantong.play', 'kaptai.nantong.review_search')
    >>> review_adapter("best")
    Traceback (most recent call last):
    ...
    kaptai.errors.UsageError: --advisor 'best': expected one of search, advise
    """
    from kaptai.core.review import pick_adapter

    return pick_adapter(advisor, _adapters())


def _adapters() -> dict[str, Any]:
    import sys

    from kaptai.nantong import play

    return dict(zip(ADVISORS, (sys.modules[__name__], play)))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review nantong FILE`` (``--advisor search``, the default, or ``advise``)."""
    from kaptai.core.review import advised_review_command

    return advised_review_command(args, game, _adapters())
