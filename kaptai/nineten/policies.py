"""Discard policies of nine-ten: the built-in names and the user :class:`Policy` base class.

Discarding is the only decision of the game (§7.3): claims and dead cards are mandatory.
The built-in policies (``docs/nine-ten-engine.md``, Policies) run in both engines:

* ``'colour_cut'`` (斷色): discard a single of the colour with the fewest cards held, ties by
  the fewest copies not seen, then at random;
* ``'live_first'``: discard the single with the fewest unseen copies (keep the live ones);
* ``'random'``: any single.

A user policy subclasses :class:`Policy` and runs in the reference engine only.

Examples
--------
>>> import numpy as np
>>> from kaptai.nineten.policies import Policy
>>> from kaptai.nineten.engine import run_hands
>>> from kaptai.nineten.config import make_config
>>> class Highest(Policy):
...     name = "highest"
...     def discard(self, view):
...         return max(view.options)
>>> out, _ = run_hands(make_config(4), 5, np.random.PCG64(1), Highest())
>>> int(out["net"].sum())
0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.nineten.config import POLICY_NAMES

__all__ = ["POLICY_NAMES", "PlayerView", "Policy"]


@dataclass(frozen=True)
class PlayerView:
    """What seat ``seat`` may know when it must discard.

    Attributes
    ----------
    seat, dealer : int
    hand : numpy.ndarray
        Copies of each kind the seat holds (concealed, exposed and dead), 28 entries.
    dead : numpy.ndarray
        1 where the seat's single of that kind is a dead card.
    exposed : numpy.ndarray
        ``(N, 28)`` face-up copies in every seat's hand.
    waste : numpy.ndarray
        Copies of each kind that left play unclaimed.
    stock_left : int
    options : tuple of int
        The legal discards (kinds ascending).
    forced : bool
        The options are dead cards.
    public : dict, optional
        The position as the seat may know it, in the form the search reads
        (:func:`kaptai.nineten.engine_reference.hand_state`) but without the other seats' concealed
        cards: ``exposed``, ``dead``, ``dead_seq`` (every seat's face-up and dead cards, (N, 28)),
        ``kz4``, ``waste``, ``offered`` (the kinds discarded or flipped so far), ``top``, ``dealer``,
        ``counter``, ``concealed`` (how many cards each seat hides), and the hand's record of
        discards ``events`` with ``cum`` (each seat's claims minus discards of each kind), which the
        search's inference reads.  ``kaptai.nineten.advisor.advise_view`` values a view by it;
        None where the engine that made the view does not give it.
    """

    seat: int
    dealer: int
    hand: np.ndarray
    dead: np.ndarray
    exposed: np.ndarray
    waste: np.ndarray
    stock_left: int
    options: tuple[int, ...]
    forced: bool
    public: dict[str, Any] | None = None

    def unseen(self) -> np.ndarray:
        """Copies of each kind the seat has not seen (4 - held - visible elsewhere)."""
        vis = self.waste + self.exposed.sum(axis=0) - self.exposed[self.seat]
        return 4 - self.hand - vis


class Policy:
    """Base class of user discard policies (reference engine only).

    Override :meth:`discard`; :meth:`claim` and :meth:`expose_dead` exist so that a policy can
    try to skip a mandatory move, which is an error (:class:`kaptai.nineten.config.IllegalMoveError`).
    """

    name = "policy"

    def discard(self, view: PlayerView) -> int | str:
        """The kind (or card token) to discard; must be one of ``view.options``."""
        raise NotImplementedError

    def claim(self, view: PlayerView, card: int) -> bool:
        """Whether to claim ``card`` (it is mandatory: anything but True is a foul)."""
        return True

    def expose_dead(self, view: PlayerView, card: int) -> bool:
        """Whether to lay ``card`` face up as a dead card (mandatory as well)."""
        return True
