"""Answers to a discard priced as the ``search`` policy prices them (``kaptai play nantong``'s hint
at a claim prompt), and the discard values they build on (``kaptai review nantong``'s search
advisor, :mod:`kaptai.nantong.review_search`).

:func:`claim_values` prices a claim (``win``, ``kong``, ``pong`` or ``pass`` to a discard) as the
search prices one: on layouts drawn the same way, every answer replayed from the discard with the
seat's answer forced and ``max_melds`` after, a pong followed by the discard that
:func:`discard_values` rates best after it; :func:`answer` is the paired table of either.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from kaptai.core.review import paired_answer
from kaptai.errors import UsageError
from kaptai.nantong.cards import format_card, parse_card
from kaptai.nantong.config import NET_SCALE

__all__ = ["CLAIM_ANSWERS", "answer", "discard_values", "after_pong", "claim_values", "evaluate_claim"]


def discard_values(cfg: Any, state: Any, seat: int, layouts: int,
                   bit_generator: np.random.BitGenerator) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The labels of the options of seat ``seat``'s discard at the position ``state`` (every kind
    held, in kind order), the seat's net in the settlement's unit and its share of the hand win,
    each of shape ``(options, layouts)``; the layouts drawn from ``bit_generator``."""
    from kaptai.nantong._engine import search_values

    opts = [k for k in range(len(state["c"][seat])) if state["c"][seat][k]]
    nets, wins = search_values(cfg, state, int(seat), opts, bit_generator, int(layouts))
    return ([format_card(k) for k in opts], np.asarray(nets, dtype=np.float64) / NET_SCALE,
            np.asarray(wins, dtype=np.float64) / NET_SCALE)


def answer(labels: list[str], v: np.ndarray, win: np.ndarray) -> dict[str, Any]:
    """The paired table of values ``v`` and the seat's win shares ``win``, ``(options, layouts)``
    (:func:`kaptai.core.review.paired_answer`; P(win) is the share of layouts the seat wins)."""
    return paired_answer(labels, v, win)


#: The answers to a discard that :func:`claim_values` prices (a claim prompt's words).
CLAIM_ANSWERS: tuple[str, ...] = ("win", "kong", "pong", "pass")


class _Ponged(Exception):
    """The replayed pong was made (the position after it is the hand's)."""


@functools.lru_cache(maxsize=None)
def _replay_hand() -> type:
    """A rollout hand (max_melds at every seat) in which seat ``force[0]``'s first answer to a
    discard is ``force[1]`` (``win`` and ``pass`` included, which a search seat never passes),
    and which stops (:class:`_Ponged`) when seat ``stop``'s pong is made."""
    from kaptai.nantong import engine_reference as ref

    class _Replay(ref._Hand):
        force: tuple[int, str] | None = None
        stop = -1

        def _claim(self, j: int, kind: int, opts: tuple[str, ...], cur: int = -1) -> str:
            if self.force is not None and j == self.force[0]:
                a, self.force = self.force[1], None
                return a
            return str(super()._claim(j, kind, opts, cur))

        def _rec(self, typ: int, s: int, k: int = -1, n: int = 0) -> None:
            if typ == ref.CLAIM and n == 2 and s == self.stop:
                self.stop = -1
                raise _Ponged()
            super()._rec(typ, s, k, n)

    return _Replay


def after_pong(state: Any, seat: int, card: int) -> dict[str, Any]:
    """The position (:func:`kaptai.nantong.engine_reference.hand_state`) after seat ``seat``
    pongs the discard of ``card`` at the position ``state`` (while it is asked): its discard to
    make, as the engine has it then."""
    from kaptai.nantong import engine_reference as ref

    seat, card = int(seat), int(card)
    st: dict[str, Any] = {k: (list(v) if isinstance(v, list) else v) for k, v in state.items()}
    st["c"] = [list(x) for x in state["c"]]
    st["melds"] = [list(m) for m in state["melds"]]
    if st["c"][seat][card] < 2:
        raise UsageError(f"seat {seat} holds {st['c'][seat][card]} of {format_card(card)}: no pong")
    st["c"][seat][card] -= 2
    st["pub"][card] += 2
    st["melds"][seat].append(("pong", card))
    st["claimed"] = int(st.get("claimed", 0)) + 1
    st["rec"] = [*state["rec"], (ref.CLAIM, seat, card, 2)]
    return st


def claim_values(cfg: Any, state: Any, seat: int, cur: int, card: int, options: Any, layouts: int,
                 seed: int) -> tuple[list[str], np.ndarray, np.ndarray, int | None]:
    """Every answer in ``options`` (of :data:`CLAIM_ANSWERS`) of seat ``seat`` to seat ``cur``'s
    discard of ``card``, at the position ``state`` (:func:`kaptai.nantong.engine_reference.hand_state`
    while the seat is asked), priced as the ``search`` policy prices a claim: on ``layouts``
    layouts of the cards the seat has not seen, drawn as :func:`discard_values` draws them (its
    particles, resampled; the reference engine, from ``RandomStream(PCG64(seed))``), each answer
    is replayed from the discard with the seat's answer forced and the hand played out with
    ``max_melds`` at every seat (the same layouts for every answer).  A pong is valued as the
    discard after it that the review (:func:`discard_values`, on the position after the pong,
    on its own layouts from ``SeedSequence(seed, spawn_key=(1,))``) rates best: on each layout the
    pong (when it is made: a win on the discard by another seat comes first) is followed by that
    discard.  Returns the answers' labels (``options`` in order), the seat's net in the
    settlement's unit and its share of the hand win, each ``(options, layouts)``, and the
    discard after a pong (a kind; None without ``pong``).
    """
    import dataclasses

    from kaptai.core.sampling import RandomStream
    from kaptai.nantong import engine_reference as ref

    opts = [str(a) for a in options]
    bad = [a for a in opts if a not in CLAIM_ANSWERS]
    if bad or not opts:
        raise UsageError(f"claim answers {opts}: expected some of {', '.join(CLAIM_ANSWERS)}")
    layouts, seat, cur, card = int(layouts), int(seat), int(cur), int(card)
    if layouts < 1:
        raise UsageError(f"layouts={layouts}: expected at least 1")
    after: int | None = None
    if "pong" in opts:  # the review's best discard after the pong, on layouts of its own
        st = after_pong(state, seat, card)
        labels, v, w = discard_values(cfg, st, seat, layouts,
                                      np.random.PCG64(np.random.SeedSequence(int(seed), spawn_key=(1,))))
        after = int(parse_card(answer(labels, v, w)["labels"][0]))
    stream = RandomStream(np.random.PCG64(int(seed)))
    h = ref._from_state(dataclasses.replace(cfg, samples=layouts), state, stream)
    replay = _replay_hand()
    nets = np.zeros((len(opts), layouts))
    wins = np.zeros((len(opts), layouts))

    def answered(a: str) -> Any:
        def play(r: Any, res: dict) -> None:
            r.__class__ = replay
            r.force, r.stop = (seat, a), (seat if a == "pong" else -1)
            try:
                r._loop(res, cur, "discard", None, card)
            except _Ponged:  # the pong made: the seat discards the review's best card
                r._loop(res, seat, "discard", None, -1 if after is None else after)

        return play

    for t, smp in enumerate(ref.search_layouts(h, seat, layouts, stream, "claim_values")):
        ref.undo_discard(smp, cur, card)  # the discard is replayed with the seat's answer forced
        for i, a in enumerate(opts):
            nets[i, t], wins[i, t] = ref.played_out(h, smp._clone(), seat, answered(a))
    return opts, nets / NET_SCALE, wins / NET_SCALE, after


def evaluate_claim(cfg: Any, state: Any, seat: int, cur: int, card: int, options: Any, *, samples: int,
                   seed: int) -> dict[str, Any]:
    """:func:`answer` on :func:`claim_values` (best first), with ``after_pong``: the discard after
    a pong (a kind, or None)."""
    if samples < 2:
        raise UsageError(f"samples={samples}: a claim's values need at least 2 layouts (the paired interval)")
    labels, v, w, after = claim_values(cfg, state, seat, cur, card, options, samples, seed)
    return {**answer(labels, v, w), "after_pong": after}
