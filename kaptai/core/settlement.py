"""Game-agnostic settlement: pots, per-score payments, house cut, EV and fairness helpers.

Two payment systems cover the games of kaptai:

``'pot'`` (彩池)
    Every player antes ``ante`` into the pot; the house takes ``cut`` of the pot and the
    winner takes the rest.  A hand without a winner either refunds the antes
    (``drawn_hand='refund'``) or leaves the pot on the table for the next hand
    (``'carry'``); a carried pot is cut when it is finally won, as a whole.
``'advanced'`` (per-score payments, 進階計分制)
    Every non-winner pays the winner the hand's score; the house takes ``cut`` of the
    winner's gross receipts.  A hand without a winner settles nothing (there is no pot to
    carry, so ``drawn_hand`` makes no difference).

Money is conserved in every hand: the players' nets, plus the house's take, plus the
change of the pot left on the table, sum to zero (:meth:`HandSettlement.balance`).

A hand's outcome is a winner seat (-1: nobody) and a score, so a distribution of outcomes
-- a table of counts -- determines the exact mean and variance of every seat's net
(:func:`settle_outcomes`, :func:`weighted_moments`).  Both systems are linear in the cut:
``EV(c) = EV(0) - c * gross``, which gives the break-even cut in closed form
(:func:`break_even_cut`).

Examples
--------
>>> from kaptai.core.settlement import settle_hand
>>> s = settle_hand("pot", 4, winner=2, cut=0.05)
>>> s.nets.tolist(), round(s.house, 2), abs(s.balance()) < 1e-12
([-1.0, -1.0, 2.8, -1.0], 0.2, True)
>>> s = settle_hand("advanced", 4, winner=0, score=3, cut=0.0)
>>> s.nets.tolist(), s.house
([9.0, -3.0, -3.0, -3.0], 0.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real
from statistics import NormalDist
from typing import Any

import numpy as np

from kaptai.core.stats import z_value
from kaptai.errors import RulesError, quote_token

__all__ = [
    "SYSTEMS",
    "DRAWN_HAND",
    "HandSettlement",
    "Estimate",
    "validate_cut",
    "validate_bankroll",
    "settle_hand",
    "settle_outcomes",
    "settle_rounds",
    "PENALTY_SYSTEMS",
    "settle_penalties",
    "weighted_moments",
    "pot_ev",
    "break_even_cut",
    "break_even_cut_interval",
    "pot_break_even_cut",
    "gini",
    "ruin_probability",
    "first_passage",
    "diffusion_ruin_probability",
]

#: Payment systems.
SYSTEMS: tuple[str, ...] = ("pot", "advanced")
#: What happens to the pot of a hand without a winner.
DRAWN_HAND: tuple[str, ...] = ("refund", "carry")

#: Tolerance of the money-conservation check.
_BALANCE_TOL = 1e-9


# --------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------


def validate_cut(cut: object, name: str = "house_cut") -> float:
    """Check a house cut (a number from 0 to 1) and return it as a float.

    Raises
    ------
    RulesError
        For anything else (bools, NaN, negative, above 1).

    Examples
    --------
    >>> from kaptai.core.settlement import validate_cut
    >>> validate_cut(0.05)
    0.05
    >>> validate_cut(1.5)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: house_cut=1.5 is not allowed: expected a number from 0 to 1 inclusive
    """
    if (
        isinstance(cut, (bool, np.bool_))
        or not isinstance(cut, Real)
        or not math.isfinite(float(cut))
        or not 0.0 <= float(cut) <= 1.0
    ):
        raise RulesError(f"{name}={quote_token(cut)} is not allowed: expected a number from 0 to 1 inclusive")
    return float(cut)


def validate_bankroll(bankroll: object) -> float:
    """Check a starting bankroll (a finite number >= 0, in antes) and return it as a float.

    Examples
    --------
    >>> from kaptai.core.settlement import validate_bankroll
    >>> validate_bankroll(20)
    20.0
    >>> validate_bankroll(-5)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: bankroll=-5 is not allowed: expected a finite number >= 0
    """
    if (
        isinstance(bankroll, (bool, np.bool_))
        or not isinstance(bankroll, Real)
        or not math.isfinite(float(bankroll))
        or float(bankroll) < 0
    ):
        raise RulesError(f"bankroll={bankroll!r} is not allowed: expected a finite number >= 0")
    return float(bankroll)


def _system(system: object) -> str:
    if system not in SYSTEMS:
        raise RulesError(f"settlement={system!r} is unknown: expected one of 'pot', 'advanced'")
    return str(system)


def _drawn(drawn_hand: object) -> str:
    if drawn_hand not in DRAWN_HAND:
        raise RulesError(f"drawn_hand={drawn_hand!r} is unknown: expected 'refund' or 'carry'")
    return str(drawn_hand)


def _players(players: object) -> int:
    if isinstance(players, (bool, np.bool_)) or not isinstance(players, Integral) or players < 2:
        raise RulesError(f"players={quote_token(players)} is not allowed: expected an integer >= 2")
    return int(players)


# --------------------------------------------------------------------------------------
# One hand
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class HandSettlement:
    """Who pays what in one hand.

    Attributes
    ----------
    nets : numpy.ndarray
        Net result of each seat (float, units of one ante / one point).
    house : float
        The house's take.
    pot_in : float
        Pot on the table before the hand (carried from drawn hands).
    pot_out : float
        Pot left on the table after the hand (0 unless a drawn pot is carried).
    """

    nets: np.ndarray
    house: float
    pot_in: float = 0.0
    pot_out: float = 0.0

    def balance(self) -> float:
        """``sum(nets) + house + pot_out - pot_in``: zero when no money is created or lost."""
        return float(self.nets.sum() + self.house + self.pot_out - self.pot_in)

    def check(self) -> HandSettlement:
        """Assert money conservation (debug check); return self."""
        b = self.balance()
        if abs(b) > _BALANCE_TOL * max(1.0, float(np.abs(self.nets).sum()) + self.pot_in):
            raise AssertionError(f"settlement does not balance: off by {b!r}")
        return self


def settle_hand(
    system: str,
    players: int,
    winner: int,
    score: float = 0.0,
    *,
    cut: float = 0.0,
    ante: float = 1.0,
    pot_in: float = 0.0,
    drawn_hand: str = "refund",
) -> HandSettlement:
    """Settle one hand.

    Parameters
    ----------
    system : {'pot', 'advanced'}
        Payment system.
    players : int
        Seats at the table.
    winner : int
        Winning seat, or -1 for a hand without a winner (流局).
    score : float
        The hand's score (advanced system only; include any self-draw or streak bonus).
    cut : float
        House cut, 0-1: of the pot, or of the winner's gross receipts.
    ante : float
        Ante per player (pot system).
    pot_in : float
        Pot carried on the table from earlier drawn hands (pot system).
    drawn_hand : {'refund', 'carry'}
        Pot system, hand without a winner: antes returned, or left in the pot.

    Returns
    -------
    HandSettlement
        Checked: ``balance() == 0`` up to float rounding.

    Raises
    ------
    RulesError
        For a bad system, cut, seat, player count or ``drawn_hand``.

    Examples
    --------
    >>> from kaptai.core.settlement import settle_hand
    >>> s = settle_hand("pot", 3, -1, drawn_hand="carry", pot_in=3.0)
    >>> s.nets.tolist(), s.pot_out, s.balance()
    ([-1.0, -1.0, -1.0], 6.0, 0.0)
    >>> settle_hand("pot", 3, 1, cut=0.1, pot_in=6.0).nets.tolist()
    [-1.0, 7.1, -1.0]
    """
    system = _system(system)
    P = _players(players)
    cut = validate_cut(cut, "cut")
    drawn_hand = _drawn(drawn_hand)
    if isinstance(winner, (bool, np.bool_)) or not isinstance(winner, Integral) or not -1 <= winner < P:
        raise RulesError(f"winner={winner!r} is not a seat: expected -1 (no winner) or 0-{P - 1}")
    winner = int(winner)
    nets = np.zeros(P)
    if system == "pot":
        pot = float(pot_in) + P * ante
        nets -= ante
        if winner < 0:
            if drawn_hand == "refund":
                nets += ante
                return HandSettlement(nets, 0.0, float(pot_in), float(pot_in)).check()
            return HandSettlement(nets, 0.0, float(pot_in), pot).check()
        house = cut * pot
        nets[winner] += pot - house
        return HandSettlement(nets, house, float(pot_in), 0.0).check()
    # advanced: per-score payments; a carried pot (if any) stays where it is
    if winner < 0:
        return HandSettlement(nets, 0.0, float(pot_in), float(pot_in)).check()
    gross = (P - 1) * float(score)
    house = cut * gross
    nets -= float(score)
    nets[winner] = gross - house
    return HandSettlement(nets, house, float(pot_in), float(pot_in)).check()


def settle_outcomes(
    system: str, players: int, winner, score=None, *, cut: float = 0.0, ante: float = 1.0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Settle many independent hands at once (drawn hands refunded, nothing carried).

    Parameters
    ----------
    system : {'pot', 'advanced'}
        Payment system.
    players : int
        Seats.
    winner : array_like of int
        Winning seat of each outcome, -1 for none.
    score : array_like, optional
        Score of each outcome (advanced system).
    cut, ante
        As for :func:`settle_hand`.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        ``nets`` (K, players), ``house`` (K,) and ``gross`` (K, players): what each seat
        receives before the cut (the EV is linear in the cut with slope ``-gross``).
        Each row of ``nets`` plus ``house`` sums to 0.

    Examples
    --------
    >>> from kaptai.core.settlement import settle_outcomes
    >>> nets, house, gross = settle_outcomes("pot", 3, [0, -1], cut=0.5)
    >>> nets.tolist(), house.tolist()
    ([[0.5, -1.0, -1.0], [0.0, 0.0, 0.0]], [1.5, 0.0])
    """
    system = _system(system)
    P = _players(players)
    cut = validate_cut(cut, "cut")
    w = np.asarray(winner, dtype=np.int64).reshape(-1)
    if np.any((w < -1) | (w >= P)):
        raise RulesError(f"winner seats must be -1 or 0-{P - 1}")
    won = w >= 0
    K = w.size
    rows = np.arange(K)
    gross = np.zeros((K, P))
    pay = np.zeros((K, P))  # what each seat puts in
    if system == "pot":
        pay[won] = ante
        gross[rows[won], w[won]] = P * ante
    else:
        s = np.zeros(K) if score is None else np.asarray(score, dtype=np.float64).reshape(-1)
        if s.size != K:
            raise RulesError(f"score has {s.size} entries for {K} outcomes")
        pay[won] = s[won, None]
        pay[rows[won], w[won]] = 0.0
        gross[rows[won], w[won]] = (P - 1) * s[won]
    house = cut * gross.sum(axis=1)
    nets = gross * (1.0 - cut) - pay
    # debug check: money is conserved in every outcome
    scale = 1.0 + np.abs(gross).sum(axis=1)
    if K and np.max(np.abs(nets.sum(axis=1) + house) / scale) > _BALANCE_TOL:
        raise AssertionError("settlement does not balance")
    return nets, house, gross


def settle_rounds(
    system: str,
    players: int,
    winner,
    score,
    *,
    cut: float = 0.0,
    pot_in=None,
    drawn_hand: str = "refund",
    ante: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Settle one hand at each of S tables at once, with carried pots (sessions).

    The vector form of :func:`settle_hand` for the sessions of a game: table ``i`` has
    winner ``winner[i]`` (-1: none) with ``score[i]`` and a pot ``pot_in[i]`` carried
    from earlier drawn hands.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        ``nets`` (S, players), the house's take (S,) and the pot left on each table (S,).
        Checked: ``nets.sum(1) + take + pot_out - pot_in == 0`` at every table.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.settlement import settle_rounds
    >>> nets, take, pot = settle_rounds("pot", 3, [1, -1], [0, 0], cut=0.1, pot_in=[6.0, 3.0], drawn_hand="carry")
    >>> nets.tolist(), take.tolist(), pot.tolist()
    ([[-1.0, 7.1, -1.0], [-1.0, -1.0, -1.0]], [0.9, 0.0], [0.0, 6.0])
    """
    system = _system(system)
    P = _players(players)
    cut = validate_cut(cut, "cut")
    drawn_hand = _drawn(drawn_hand)
    w = np.asarray(winner, dtype=np.int64).reshape(-1)
    S = w.size
    if np.any((w < -1) | (w >= P)):
        raise RulesError(f"winner seats must be -1 or 0-{P - 1}")
    pot_in = np.zeros(S) if pot_in is None else np.asarray(pot_in, dtype=np.float64).reshape(-1)
    won = w >= 0
    rows = np.arange(S)
    nets = np.zeros((S, P))
    take = np.zeros(S)
    pot_out = pot_in.copy()
    if system == "pot":
        nets -= ante
        total = pot_in + P * ante
        take = np.where(won, cut * total, 0.0)
        nets[rows[won], w[won]] += (total - take)[won]
        if drawn_hand == "carry":
            pot_out = np.where(won, 0.0, total)
        else:
            nets[~won] += ante
    else:
        sc = np.asarray(score, dtype=np.float64).reshape(-1)
        gross = (P - 1) * sc
        take = np.where(won, cut * gross, 0.0)
        nets[won] -= sc[won, None]
        nets[rows[won], w[won]] = (gross - take)[won]
    balance = nets.sum(axis=1) + take + pot_out - pot_in
    if S and np.abs(balance).max() > 1e-9 * max(1.0, float(np.abs(pot_in).max()) + P * 64):
        raise AssertionError("session settlement does not balance")
    return nets, take, pot_out


# --------------------------------------------------------------------------------------
# Penalty systems (Big Two and the other shedding games): Place and winner-takes-all
# --------------------------------------------------------------------------------------

#: Settlement systems of games whose losers carry penalties (Big Two §5).
PENALTY_SYSTEMS: tuple[str, ...] = ("place", "winner_takes_all")


def int_array(name: str, value: Any) -> np.ndarray:
    """``value`` as an int64 array; RulesError naming ``name`` if it is not integers."""
    try:
        a = np.asarray(value)
    except Exception as exc:  # ragged lists and the like
        raise RulesError(f"{name} must be an array of integers: {exc}") from None
    if a.dtype.kind in "iu":
        return a.astype(np.int64, copy=False)
    if a.dtype.kind == "f" and a.size and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
        return a.astype(np.int64)
    if a.size == 0 and a.dtype.kind == "f":
        return a.astype(np.int64)
    raise RulesError(f"{name} must be integers, got {a.dtype.name} values {quote_token(a.ravel()[:4].tolist())}")


def float_array(name: str, value: Any) -> np.ndarray:
    try:
        a = np.asarray(value)
    except Exception as exc:
        raise RulesError(f"{name} must be an array of numbers: {exc}") from None
    if a.dtype.kind not in "iuf":
        raise RulesError(f"{name} must be numbers, got {a.dtype.name} values {quote_token(a.ravel()[:4].tolist())}")
    a = a.astype(np.float64)
    if not np.all(np.isfinite(a)):
        raise RulesError(f"{name} must be finite numbers")
    return a


def seat_table(name: str, value: Any, n: int, N: int, *, kind: str = "int") -> np.ndarray:
    """A per-seat array of shape (n, N) (a single row (N,) is broadcast to every game)."""
    a = int_array(name, value) if kind == "int" else float_array(name, value)
    if a.ndim == 1 and a.shape[0] == N:
        a = np.broadcast_to(a, (n, N))
    if a.shape != (n, N):
        raise RulesError(f"{name} has shape {a.shape}, expected ({n}, {N}) (games, seats) or ({N},)")
    return a


def per_hand(name: str, value: Any, n: int) -> np.ndarray:
    """A per-game integer array of shape (n,) (a scalar is broadcast)."""
    a = int_array(name, value)
    if a.ndim == 0:
        a = np.broadcast_to(a, (n,))
    if a.shape != (n,):
        raise RulesError(f"{name} has shape {a.shape}, expected ({n},) (one value per game)")
    return a


def first_bad(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def check_winner(winner: np.ndarray, N: int) -> None:
    bad = (winner < 0) | (winner >= N)
    if bad.any():
        g = first_bad(bad)[0]
        raise RulesError(f"winner={int(winner[g])} (game {g}) is not a seat: expected 0-{N - 1}")


def check_liable(liable: np.ndarray, winner: np.ndarray, N: int) -> None:
    bad = (liable < -1) | (liable >= N)
    if bad.any():
        g = first_bad(bad)[0]
        raise RulesError(f"liable={int(liable[g])} (game {g}) is not a seat: expected -1 (none) or 0-{N - 1}")
    same = liable == winner
    if same.any():
        g = first_bad(same)[0]
        raise RulesError(f"liable={int(liable[g])} (game {g}) is the winner: the 包牌 violator must be a loser")


def check_coins(coins: Any, n: int, N: int) -> np.ndarray:
    c = seat_table("coins", coins, n, N, kind="float")
    if np.any(c < 0):
        g, s = first_bad(c < 0)
        raise RulesError(f"coins must be >= 0, got {c[g, s]:g} for seat {s} (game {g})")
    return c


def settle_penalties(
    p: np.ndarray,
    w: np.ndarray,
    liable: np.ndarray,
    coins: np.ndarray | None,
    cards: np.ndarray | None,
    active: np.ndarray | None,
    *,
    system: str = "place",
    stake: float = 1.0,
) -> np.ndarray:
    """Nets (n, N) of penalty-settled hands: the ``'place'`` and ``'winner_takes_all'`` systems.

    Every seat has a penalty ``p`` (the winner's the smallest).  Under Place (四人互算) each
    pair of seats settles the difference of their penalties; under winner-takes-all
    (獨贏) every loser pays the winner its penalty minus the winner's.  A liable seat
    (包牌, ``liable`` >= 0) absorbs every other negative net.  The nets are scaled by
    ``stake``; with ``coins`` (bankrolls) no seat loses more than it holds: under
    winner-takes-all a loser pays at most its coins, under Place a seat that cannot pay
    graduates (畢業) and its coins are shared out to the winners in order (winner first,
    then fewest ``cards``, then lowest penalty, then seat).

    Inputs are validated by the caller (the game's scoring layer, with :func:`int_array`,
    :func:`seat_table`, :func:`check_winner`, ...): ``p`` float (n, N), ``w``/``liable``
    int (n,), ``coins``/``cards`` (n, N) or None, ``active`` bool (n, N) or None (seats
    that neither pay nor receive).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.settlement import settle_penalties
    >>> p = np.array([[0.0, 5, 20, 52]])
    >>> settle_penalties(p, np.array([0]), np.array([-1]), None, None, None).tolist()
    [[77.0, 57.0, -3.0, -131.0]]
    >>> settle_penalties(p, np.array([0]), np.array([-1]), None, None, None, system="winner_takes_all").tolist()
    [[77.0, -5.0, -20.0, -52.0]]
    """
    if system not in PENALTY_SYSTEMS:
        raise RulesError(f"system={system!r} is not allowed: expected one of " + ", ".join(map(repr, PENALTY_SYSTEMS)))
    n, N = p.shape
    rows = np.arange(n)
    act = np.ones((n, N), dtype=bool) if active is None else active
    pw = p[rows, w]
    w_act = act[rows, w]
    if system == "place":
        k = act.sum(axis=1)
        S = np.where(act, p, 0.0).sum(axis=1)
        net = np.where(act, S[:, None] - k[:, None] * p, 0.0)
    else:
        pay = np.where(act & w_act[:, None], p - pw[:, None], 0.0)
        pay[rows, w] = 0.0
        net = -pay
        net[rows, w] += pay.sum(axis=1)
    # 包牌: the violator absorbs every other negative net
    has = liable >= 0
    if has.any():
        r = rows[has]
        lv = liable[has]
        keep = act[r, lv]
        r, lv = r[keep], lv[keep]
        if r.size:
            sub = net[r]
            j = np.arange(r.size)
            neg = sub < 0
            neg[j, lv] = False
            absorbed = np.where(neg, sub, 0.0).sum(axis=1)
            sub[neg] = 0.0
            sub[j, lv] += absorbed
            net[r] = sub
    net *= stake
    if coins is None:
        return net
    loss = np.maximum(-net, 0.0)
    if system == "winner_takes_all":
        paid = np.minimum(loss, coins)
        out = -paid
        out[rows, w] += paid.sum(axis=1)
        return out
    # Place with graduation
    grad = loss > coins
    g_rows = np.flatnonzero(grad.any(axis=1))
    if g_rows.size == 0:
        return net
    sub = net[g_rows]
    G = grad[g_rows]
    cn = coins[g_rows]
    pot = np.where(G, cn, 0.0).sum(axis=1)
    pos = np.maximum(sub, 0.0)
    seat = np.broadcast_to(np.arange(N), sub.shape)
    not_winner = seat != w[g_rows, None]
    psub = p[g_rows]
    fewest = psub if cards is None else cards[g_rows]
    # lexsort: last key is primary; stable, so equal keys keep seat order
    order = np.lexsort((psub, fewest, not_winner), axis=-1)
    pos_sorted = np.take_along_axis(pos, order, axis=1)
    before = np.cumsum(pos_sorted, axis=1) - pos_sorted
    got_sorted = np.clip(pot[:, None] - before, 0.0, pos_sorted)
    got = np.zeros_like(sub)
    np.put_along_axis(got, order, got_sorted, axis=1)
    net[g_rows] = np.where(G, -cn, got)
    return net


# --------------------------------------------------------------------------------------
# Moments of an outcome distribution
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Estimate:
    """Mean of a per-hand quantity with its sample variance and a normal interval.

    ``var`` is the sample variance (n - 1 denominator) of one hand's value; the interval
    is ``mean +- z * sqrt(var / n)``.  Arrays broadcast over the trailing axes.
    """

    mean: np.ndarray
    var: np.ndarray
    n: float
    ci_low: np.ndarray
    ci_high: np.ndarray

    @property
    def sd(self) -> np.ndarray:
        """Standard deviation of one hand's value."""
        return np.sqrt(np.maximum(self.var, 0.0))


def weighted_moments(values, counts, confidence: float = 0.95) -> Estimate:
    """Exact mean and variance of ``values`` over outcomes observed ``counts`` times.

    Parameters
    ----------
    values : array_like, shape (K, ...)
        Value of the quantity in each outcome.
    counts : array_like, shape (K,)
        How often each outcome occurred.
    confidence : float
        Level of the normal interval.

    Returns
    -------
    Estimate

    Examples
    --------
    >>> from kaptai.core.settlement import weighted_moments
    >>> e = weighted_moments([1.0, 3.0], [3, 1])
    >>> float(e.mean), round(float(e.var), 4), e.n
    (1.5, 1.0, 4.0)
    """
    v = np.asarray(values, dtype=np.float64)
    c = np.asarray(counts, dtype=np.float64).reshape((-1,) + (1,) * (v.ndim - 1))
    n = float(c.sum())
    if n <= 0:
        nan = np.full(v.shape[1:], np.nan)
        return Estimate(nan, nan, n, nan, nan)
    mean = (c * v).sum(axis=0) / n
    # centred second moment: exact up to rounding, no cancellation
    var = (c * (v - mean) ** 2).sum(axis=0) / (n - 1.0) if n > 1 else np.zeros_like(mean)
    half = z_value(confidence) * np.sqrt(var / n)
    lo, hi = mean - half, mean + half
    return Estimate(mean, np.asarray(var), n, np.asarray(lo), np.asarray(hi))


def pot_ev(win_probs, drawn: float, players: int, cut: float, drawn_hand: str = "refund"):
    """Closed-form expected net per hand of each seat under the pot system (ante 1).

    ``refund``: ``EV_s = P p_s (1 - c) - (1 - d)``; house ``c P (1 - d)``.
    ``carry`` (long-run rate): ``EV_s = P p_s (1 - c) / (1 - d) - 1``; house ``c P``.

    Parameters
    ----------
    win_probs : array_like
        P(seat s wins the hand), per seat.
    drawn : float
        P(the hand has no winner), ``d``.
    players : int
        ``P``.
    cut : float
        House cut ``c``.
    drawn_hand : {'refund', 'carry'}

    Returns
    -------
    (numpy.ndarray, float)
        Seat EVs and the house's take per hand.

    Examples
    --------
    >>> from kaptai.core.settlement import pot_ev
    >>> ev, house = pot_ev([0.25, 0.25, 0.25, 0.25], 0.0, 4, 0.05)
    >>> ev.round(3).tolist(), round(house, 3)
    ([-0.05, -0.05, -0.05, -0.05], 0.2)
    """
    p = np.asarray(win_probs, dtype=np.float64)
    P = _players(players)
    c = validate_cut(cut, "cut")
    if _drawn(drawn_hand) == "refund":
        return P * p * (1 - c) - (1 - drawn), c * P * (1 - drawn)
    if drawn >= 1:
        raise RulesError("drawn_hand='carry' with every hand drawn: the pot is never won")
    return P * p * (1 - c) / (1 - drawn) - 1.0, c * P


def break_even_cut(ev_at_zero, gross) -> float:
    """Smallest cut at which no seat has a positive expected net.

    Every seat's EV is linear in the cut: ``EV_s(c) = EV_s(0) - c g_s`` with ``g_s`` the
    seat's expected gross receipts.  Seat s breaks even at ``c_s = EV_s(0) / g_s``; the
    answer is ``max_s c_s`` clipped to [0, 1] (0 when no seat gains even without a cut).
    For every cut above it, every seat loses on average.

    Examples
    --------
    >>> from kaptai.core.settlement import break_even_cut
    >>> break_even_cut([0.2, -0.1, -0.1], [1.2, 0.9, 0.9])
    0.16666666666666669
    """
    a = np.asarray(ev_at_zero, dtype=np.float64)
    g = np.asarray(gross, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        cs = np.where(g > 0, a / np.where(g > 0, g, 1.0), np.where(a > 0, np.inf, 0.0))
    return float(np.clip(np.max(cs), 0.0, 1.0)) if cs.size else 0.0


def break_even_cut_interval(ev_at_zero_values, gross_values, counts, confidence: float = 0.95) -> tuple[float, float]:
    """Simultaneous interval of :func:`break_even_cut` from an outcome table.

    Seat s breaks even at the ratio ``r_s = E[X_s] / E[G_s]`` (``X`` its net at cut 0, ``G``
    its gross receipts).  Each ratio gets a delta-method interval,
    ``Var(r) ~ (Var X - 2 r Cov(X, G) + r^2 Var G) / (n E[G]^2)``, at level
    ``1 - alpha / seats`` (Bonferroni); when every ratio lies in its interval, the break-even
    cut ``max_s r_s`` lies in ``[max lo_s, max hi_s]``, clipped to [0, 1].

    Parameters
    ----------
    ev_at_zero_values, gross_values : array_like, shape (K, seats)
        Each seat's net at cut 0 and gross receipts in each outcome.
    counts : array_like, shape (K,)
        How often each outcome occurred.
    confidence : float

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.settlement import break_even_cut_interval
    >>> x = np.array([[3.0, -1.0], [-1.0, 3.0]]); g = np.array([[4.0, 0.0], [0.0, 4.0]])
    >>> lo, hi = break_even_cut_interval(x, g, [6000, 4000])
    >>> bool(lo < 0.25 < hi)  # seat 0: E[X] = 1.4, E[G] = 2.4 -> 0.583; seat 1 -> 0.125
    False
    >>> bool(lo < 1.4 / 2.4 < hi)
    True
    """
    x = np.asarray(ev_at_zero_values, dtype=np.float64)
    g = np.asarray(gross_values, dtype=np.float64)
    c = np.asarray(counts, dtype=np.float64)[:, None]
    n = float(c.sum())
    if n < 2 or x.size == 0:
        return math.nan, math.nan
    mx, mg = (c * x).sum(0) / n, (c * g).sum(0) / n
    vx = (c * (x - mx) ** 2).sum(0) / (n - 1)
    vg = (c * (g - mg) ** 2).sum(0) / (n - 1)
    cov = (c * (x - mx) * (g - mg)).sum(0) / (n - 1)
    z = z_value(1 - (1 - confidence) / x.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(mg > 0, mx / np.where(mg > 0, mg, 1.0), np.where(mx > 0, np.inf, 0.0))
        se = np.where(mg > 0, np.sqrt(np.maximum(vx - 2 * r * cov + r * r * vg, 0.0) / n) / np.where(mg > 0, mg, 1.0),
                      0.0)
    lo, hi = r - z * se, r + z * se
    return float(np.clip(np.max(lo), 0.0, 1.0)), float(np.clip(np.max(hi), 0.0, 1.0))


def pot_break_even_cut(win_probs, drawn: float, players: int) -> float:
    """Break-even cut of the pot system: ``1 - (1 - d) / (P max_s p_s)``, clipped to [0, 1].

    The same under ``refund`` and ``carry`` (the carry long-run EV is the refund EV divided
    by ``1 - d``).

    Examples
    --------
    >>> from kaptai.core.settlement import pot_break_even_cut
    >>> round(pot_break_even_cut([0.3, 0.2, 0.2, 0.2], 0.1, 4), 4)
    0.25
    """
    p = np.asarray(win_probs, dtype=np.float64)
    P = _players(players)
    top = float(p.max()) if p.size else 0.0
    if top <= 0:
        return 0.0
    return float(np.clip(1.0 - (1.0 - drawn) / (P * top), 0.0, 1.0))


# --------------------------------------------------------------------------------------
# Inequality and ruin
# --------------------------------------------------------------------------------------


def gini(values, axis: int = -1) -> np.ndarray | float:
    """Gini coefficient of non-negative amounts (0: equal, (n-1)/n: one holds everything).

    Mean absolute difference over all ordered pairs divided by twice the mean; NaN where
    the total is 0.

    Raises
    ------
    ValueError
        For negative amounts.

    Examples
    --------
    >>> from kaptai.core.settlement import gini
    >>> gini([5, 5, 5, 5]), gini([0, 0, 0, 8])
    (0.0, 0.75)
    """
    x = np.asarray(values, dtype=np.float64)
    if np.any(x < 0):
        raise ValueError("gini() needs non-negative amounts")
    x = np.moveaxis(x, axis, -1)
    n = x.shape[-1]
    diff = np.abs(x[..., :, None] - x[..., None, :]).sum(axis=(-2, -1))
    total = x.sum(axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        g = np.where(total > 0, diff / (2.0 * n * np.where(total > 0, total, 1.0)), np.nan)
    return float(g) if g.ndim == 0 else g


def first_passage(paths, level: float = 0.0, axis: int = 1) -> np.ndarray:
    """Index of the first step at which a path is at or below ``level`` (-1: never).

    Examples
    --------
    >>> from kaptai.core.settlement import first_passage
    >>> first_passage([[3, 1, 0, 2], [3, 4, 5, 6]]).tolist()
    [2, -1]
    """
    x = np.asarray(paths, dtype=np.float64)
    hit = x <= level
    idx = np.argmax(hit, axis=axis)
    return np.where(hit.any(axis=axis), idx, -1)


def ruin_probability(paths, level: float = 0.0, axis: int = 1) -> np.ndarray:
    """Fraction of paths (axis 0) that ever reach ``level`` or below along ``axis``.

    Examples
    --------
    >>> from kaptai.core.settlement import ruin_probability
    >>> float(ruin_probability([[3, 1, 0, 2], [3, 4, 5, 6]]))
    0.5
    """
    return (first_passage(paths, level, axis) >= 0).mean(axis=0)


def diffusion_ruin_probability(mean: float, sd: float, bankroll: float, hands: float | None = None) -> float:
    """Risk of ruin of a bankroll under the Brownian approximation of a per-hand result.

    With drift ``mean`` and per-hand standard deviation ``sd``, the probability that
    ``bankroll + sum of results`` reaches 0 within ``hands`` hands (None: ever) is
    ``Phi((-b - m T) / (s sqrt T)) + exp(-2 m b / s^2) Phi((-b + m T) / (s sqrt T))``;
    for ever it is ``exp(-2 m b / s^2)`` if ``m > 0``, else 1.

    Examples
    --------
    >>> from kaptai.core.settlement import diffusion_ruin_probability
    >>> round(diffusion_ruin_probability(0.1, 2.0, 10.0), 4)
    0.6065
    >>> diffusion_ruin_probability(-0.05, 1.0, 10.0)
    1.0
    """
    b = validate_bankroll(bankroll)
    if sd < 0 or not math.isfinite(sd) or not math.isfinite(mean):
        raise RulesError(f"sd={sd!r}, mean={mean!r}: expected finite numbers, sd >= 0")
    if b == 0:
        return 1.0
    if sd == 0:
        if hands is None:
            return 1.0 if mean < 0 else 0.0
        return 1.0 if mean * hands <= -b else 0.0
    if hands is None:
        return 1.0 if mean <= 0 else math.exp(-2.0 * mean * b / sd**2)
    T = float(hands)
    if T <= 0:
        return 0.0
    phi = NormalDist().cdf
    root = sd * math.sqrt(T)
    expo = -2.0 * mean * b / sd**2
    second = 0.0
    arg = phi((-b + mean * T) / root)
    if arg > 0:
        second = math.exp(min(expo + math.log(arg), 700.0))
    return float(min(1.0, phi((-b - mean * T) / root) + second))
