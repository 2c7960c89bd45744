"""Policies of Heaven Eleven (天牌十一): built-in names, the user :class:`Policy` base and :class:`PlayerView`.

Built-in play policies (compiled, specified in ``docs/heaven-eleven-engine.md``): ``'random'``,
``'greedy'``, ``'rollout'``, ``'search'``.  Built-in bidding policies: ``'expected'``, ``'underbid'``,
``'overbid'``, ``'never'``, ``'search'``.  A user policy is a :class:`Policy` subclass; it runs in the
pure-Python reference engine.

Examples
--------
>>> import numpy as np
>>> from kaptai.heaven11.policies import Policy
>>> from kaptai.heaven11.engine import run_hands
>>> from kaptai.heaven11.config import make_config
>>> class FirstOption(Policy):
...     name = "first"
...     def play(self, view):
...         return view.options[0]
>>> out, _ = run_hands(make_config(), [FirstOption(), "greedy", "greedy", "greedy"], np.random.PCG64(1), 2)
>>> out["tricks"].sum(axis=1).tolist()
[13, 13]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kaptai.heaven11.config import BID_POLICIES, PLAY_POLICIES

__all__ = ["PLAY_POLICIES", "BID_POLICIES", "PlayerView", "Policy"]


@dataclass(frozen=True)
class PlayerView:
    """What a seat knows when it decides.

    Attributes
    ----------
    seat : int
    phase : str
        ``'bid'`` or ``'play'``.
    hand : tuple of int
        The seat's cards (ascending ids).
    dealer : int
    auction : tuple of (int, int or None)
        The calls so far: (seat, bid code ``5 * level + strain``, or None = pass).
    current_bid : int
        The standing bid code, -1 if none.
    declarer, level, trump : int
        The contract (-1 during the auction); ``trump`` 0-3 = C D H S, 4 = NT.
    trick : tuple of (int, tuple of int)
        Plays of the current play so far: (seat, cards), the lead first.
    options : tuple of tuple of int
        The legal plays (ascending tuples of ids), in the engine's canonical order.
    tricks : tuple of int
        Tricks won by each seat so far.
    played : tuple of int
        Every card played in earlier plays and in this one.
    voids : tuple of int
        Per seat, a 4-bit mask of the suits it has publicly shown to be void in.
    rng : kaptai.core.sampling.RandomStream
        The engine's stream: a policy that needs randomness must draw from it.
    history : tuple of (int, tuple of int)
        Every play of the hand so far in order, (seat, cards), this play's too (empty in the
        auction and where a view is built by hand): what the advisor of plays takes as ``plays``.
    """

    seat: int
    phase: str
    hand: tuple
    dealer: int
    auction: tuple
    current_bid: int
    declarer: int
    level: int
    trump: int
    trick: tuple
    options: tuple
    tricks: tuple
    played: tuple
    voids: tuple
    rng: Any
    history: tuple = ()


class Policy:
    """A user policy: override :meth:`play`, optionally :meth:`bid`.

    ``play(view)`` returns one of ``view.options`` (or the same cards as text or ids);
    ``bid(view)`` returns a bid (``'3C'``, ``(3, 0)``, a code) or None to pass.  The default
    ``bid`` always passes.
    """

    name: str = "custom"

    def play(self, view: PlayerView) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def bid(self, view: PlayerView) -> Any:
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
