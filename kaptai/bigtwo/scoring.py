"""Big Two (鋤大D) scoring and settlement (``docs/rules/big-two.md`` §4-§6).

Two layers, one set of rules:

* **Penalties** p (§5): what each player is charged for the cards left in hand.
  :func:`penalty` scores one hand (readable, used in the docs); :func:`penalties` scores many
  games at once from the engine's outcome arrays (``cards_left``, ``points_left``,
  ``winner``, ``instant``; see :data:`kaptai.bigtwo.config.OUTCOME_DTYPES`).
* **Settlement** (§5): who pays whom, in money (``stake`` per point), with 包牌 and
  graduation (畢業).  :func:`settle` settles one hand, :func:`settle_many` many at once;
  :func:`score_outcomes` does both for an engine run and :func:`run_bankrolls` plays
  simulated hands one after the other against the players' coins.

Rules
-----
``scoring='count'``
    ``p_i = c_i * mult(c_i)`` with the 炒 table ``chao`` (``'standard'``: x2 from 10 cards,
    x3 at 13; ``'eight'``: x2 from 8, x3 from 10, x4 at 13; custom thresholds such as
    ``'8/11/13'``); see :meth:`kaptai.bigtwo.rules.RuleSet.chao_multiplier`.
``scoring='points'``
    ``p_i`` = sum of the card values (2=15, A=14, K=13, Q=12, J=11, others face value;
    :func:`card_points`), times ``mult(c_i)`` only if ``points_chao``.
``winner_bonus`` B
    The winner's p is ``-B``: every loser pays B more.
Instant win (一條龍, 四字D; §4)
    Every other player's p is ``3 * hand size``, whatever ``chao`` says.
``settlement='place'`` (四人互算)
    Every pair settles its difference: ``net_i = S - N p_i`` with ``S = sum(p)``.
``settlement='winner_takes_all'`` (獨贏)
    Each loser pays ``p_i - p_w`` to the winner.
包牌 (``liable`` seat, from ``top_rule='liability'``)
    The violator's net absorbs every other negative net, which becomes 0.  Under 獨贏
    this is exactly "the violator pays what the other losers owe; they pay 0".
Nets are multiplied by ``stake``; they always sum to 0.

Graduation (``bankroll='capped'``), with every player's ``coins`` before the hand:

* 獨贏: each payment is capped at the payer's coins; the winner receives the sum.
* Place: if some loser's net loss exceeds its coins, every such loser G ("graduate") pays
  all its coins into a pot; the pot goes to the players with a positive net -- the winner
  first, then the fewest cards left -- each up to its net; the other losers neither pay
  nor receive.  If no loss exceeds its coins, the hand settles normally.

Decisions
---------
The rules page leaves these open (§6); this module reads them as follows.

1. ``points_chao``: the multiplier is looked up with the player's **card count**
   (``p = points * mult(c)``), the same table as ``count`` scoring (§6.17).
2. Instant win (§6.13): each other player's p is ``3 * cards_left`` (their hand size; 39 for
   13 cards, 51 for a 17-card hand), bypassing ``chao`` **and** ``scoring`` -- also under
   ``scoring='points'`` the page's formula is the hand size, not the points.  The winner's
   p is ``-winner_bonus`` as in any other hand (the bonus is paid on every win).  The engine
   reports every seat's hand size in ``cards_left`` after an instant win, the winner's
   included; the winner's entry is ignored.
3. ``winner_bonus`` (§6.15) is funded by every loser (the winner's p is ``-B``).  Under
   Place this adds B to each loser's difference with the winner only.
4. 包牌 under Place (§6.12): the violator absorbs the negative nets of the other players;
   the winner and any other positive nets are unchanged.  The violator can never be the
   winner (the winner is the seat after the violator); ``liable == winner`` is an error.
5. Graduation (§6.16): the page's table is followed (C receives the 80 left after A is paid
   in full; D, a loser who could pay, pays nothing).  A loss exactly equal to the coins is
   paid normally (only a loss that *exceeds* the coins graduates the hand); the player is
   then at 0 and leaves too.  Several graduations "in seat order": the pot of each
   graduate is paid out in seat order of the graduates to the same priority list, each
   recipient up to its (remaining) net; the result does not depend on the order, so it is
   one greedy fill of the total pot.  Ties in cards left are broken by the smaller
   penalty, then the lower seat.  Without ``cards_left`` the order uses the penalty alone
   (the same order under ``count`` scoring).  The pot never exceeds the positive nets, so
   the nets still sum to 0.  Under 獨贏 payments are independent, so seat order does not
   matter either.  With 包牌, the absorption comes first, then the cap.
6. Coins are given only with ``bankroll='capped'`` (passing them with ``'off'`` is an
   error rather than silently ignored); a player with 0 coins may still be at the table
   in :func:`settle` (it then graduates on any loss).
7. Sessions (:func:`run_bankrolls`): hands simulated at a full table are settled one after
   the other.  A player whose coins reach 0 under ``bankroll='capped'`` **leaves**: from the
   next hand on, its seat neither pays nor receives.  The hands are not replayed: the
   remaining players settle the same hands among themselves -- under Place only the pairs
   of remaining players settle (``net_i = S' - N' p_i`` over the N' remaining seats); under
   獨贏 only a remaining winner is paid (a hand won by a departed seat settles nothing);
   a departed violator's 包牌 lapses.  Under ``bankroll='off'`` nobody leaves and coins may
   go negative (use :func:`kaptai.core.settlement.first_passage` on the coin paths for the
   hand of ruin).

Examples
--------
The settlement table of §5 (``chao='8/11/13'``, cards 0/5/10/13):

>>> from kaptai.bigtwo.rules import RuleSet
>>> from kaptai.bigtwo.scoring import penalty, settle
>>> r = RuleSet(chao="8/11/13", settlement="winner_takes_all", stake=10)
>>> p = penalty([0, 5, 10, 13], r)
>>> p.tolist()
[0, 5, 20, 52]
>>> settle(p, r, winner=0).tolist()
[770.0, -50.0, -200.0, -520.0]
>>> settle(p, r.replace(settlement="place", stake=20), winner=0).tolist()
[1540.0, 1140.0, -60.0, -2620.0]

Graduation: B's Place loss (2140) exceeds its 2100 coins:

>>> r = RuleSet(chao="8/11/13", stake=20, bankroll="capped")
>>> cards = [0, 13, 8, 11]
>>> p = penalty(cards, r)
>>> settle(p, r, winner=0, coins=[10000, 2100, 5000, 2500], cards_left=cards).tolist()
[2020.0, -2100.0, 80.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

from kaptai.bigtwo.cards import parse_cards
from kaptai.bigtwo.config import POINT_VALUES
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.core.settlement import check_coins as _check_coins
from kaptai.core.settlement import check_liable as _check_liable
from kaptai.core.settlement import check_winner as _check_winner
from kaptai.core.settlement import first_bad as _first_bad
from kaptai.core.settlement import float_array as _float_array
from kaptai.core.settlement import int_array as _int_array
from kaptai.core.settlement import per_hand as _per_game
from kaptai.core.settlement import seat_table as _table
from kaptai.core.settlement import settle_penalties
from kaptai.errors import RulesError, quote_token

__all__ = [
    "INSTANT_MULTIPLIER",
    "card_points",
    "chao_multipliers",
    "penalty",
    "penalties",
    "settle",
    "settle_many",
    "graduated",
    "score_outcomes",
    "BankrollRun",
    "run_bankrolls",
]

#: An instant win charges every other player this many points per card in hand (三炒, §4).
INSTANT_MULTIPLIER: int = 3
#: Most cards one player can hold (N = 2 holds 26; a bound for input checks).
_MAX_CARDS = 52
#: Relative tolerance under which a player's coins count as 0 (float stakes).
_ZERO_TOL = 1e-9


# --------------------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------------------


def _rules(rules: Any) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else resolve_rules(rules)


def _seats(N: int, rules: RuleSet, what: str) -> None:
    if N != rules.players:
        raise RulesError(f"{what} has {N} seats but rules.players={rules.players}")



# --------------------------------------------------------------------------------------
# Penalties
# --------------------------------------------------------------------------------------


def card_points(cards: str | Iterable[int | str]) -> int:
    """§5 ``points`` value of some cards: 2=15, A=14, K=13, Q=12, J=11, others face value.

    Parameters
    ----------
    cards : str or iterable of int or str
        Cards in the notation of :func:`kaptai.bigtwo.cards.parse_cards`, or card ids.

    Returns
    -------
    int

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import card_points
    >>> card_points("2S AH TD")
    39
    >>> card_points("")
    0
    """
    ids = parse_cards(cards) if not (isinstance(cards, str) and not cards.strip()) else ()
    return int(sum(int(POINT_VALUES[i]) for i in ids))


def chao_multipliers(cards_left: Any, rules: RuleSet | str | Mapping | None = None) -> np.ndarray:
    """炒 multiplier of each entry of ``cards_left`` (any shape) under ``rules.chao``.

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import chao_multipliers
    >>> chao_multipliers([0, 9, 10, 12, 13]).tolist()
    [1, 1, 2, 2, 3]
    >>> chao_multipliers([7, 8, 10, 13], {"chao": "eight"}).tolist()
    [1, 2, 3, 4]
    """
    rules = _rules(rules)
    c = _int_array("cards_left", cards_left)
    m = np.ones(c.shape, dtype=np.int64)
    for t in rules.chao_thresholds:
        m += c >= t
    return m


def penalties(
    cards_left: Any,
    rules: RuleSet | str | Mapping | None = None,
    points_left: Any = None,
    winner: Any = None,
    instant: Any = 0,
) -> np.ndarray:
    """Penalty p of every player in many games (§5; vectorised).

    Parameters
    ----------
    cards_left : array_like of int, shape (n, N)
        Cards left in each hand (the engine's ``cards_left``; after an instant win every
        seat's hand size).
    rules : RuleSet, str, mapping or None
        Uses ``scoring``, ``chao``, ``points_chao``, ``winner_bonus`` and ``players``
        (which must equal N).
    points_left : array_like of int, shape (n, N), optional
        §5 point value of those cards; required when ``rules.scoring == 'points'``.
    winner : array_like of int, shape (n,), optional
        Winning seat of each game.  Default: the one seat with 0 cards (an error if a
        game has none or several, and always needed for instant wins).
    instant : int or array_like of int, shape (n,)
        0 for an ordinary game, 1 (dragon) or 2 (four twos) for an instant win.

    Returns
    -------
    numpy.ndarray of int64, shape (n, N)
        The winner's entry is ``-rules.winner_bonus``.

    Raises
    ------
    RulesError
        Naming the argument: a bad shape, negative or impossible card counts, a winner
        out of range or holding cards, missing ``points_left`` under ``points`` scoring.

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import penalties
    >>> penalties([[0, 9, 10, 13], [12, 0, 1, 2]], "hong_kong").tolist()
    [[0, 9, 20, 39], [24, 0, 1, 2]]
    >>> penalties([[13, 13, 13, 13]], {"winner_bonus": 5}, winner=[2], instant=[1]).tolist()
    [[39, 39, -5, 39]]
    >>> penalties([[0, 2, 1, 1]], {"scoring": "points"}, points_left=[[0, 29, 15, 3]]).tolist()
    [[0, 29, 15, 3]]
    """
    rules = _rules(rules)
    c = _int_array("cards_left", cards_left)
    if c.ndim != 2:
        raise RulesError(f"cards_left has shape {c.shape}, expected (games, seats)")
    n, N = c.shape
    _seats(N, rules, "cards_left")
    if np.any(c < 0) or np.any(c > _MAX_CARDS):
        g, s = _first_bad((c < 0) | (c > _MAX_CARDS))
        raise RulesError(f"cards_left[{g}, {s}]={int(c[g, s])} is not a card count: expected 0-{_MAX_CARDS}")
    inst = _per_game("instant", instant, n)
    if points_left is not None:  # checked whatever the scoring: a bad value is an error, never ignored
        pts_given = _int_array("points_left", points_left)
        if pts_given.shape != c.shape:
            raise RulesError(f"points_left has shape {pts_given.shape}, expected {c.shape} like cards_left")
    if np.any((inst < 0) | (inst > 2)):
        g = _first_bad((inst < 0) | (inst > 2))[0]
        raise RulesError(f"instant[{g}]={int(inst[g])} is not allowed: expected 0 (none), 1 (dragon) or 2 (four twos)")
    is_inst = inst != 0
    rows = np.arange(n)
    zero = c == 0
    if winner is None:
        if is_inst.any():
            raise RulesError("winner is needed for instant wins (every seat still holds its hand)")
        k = zero.sum(axis=1)
        if np.any(k != 1):
            g = int(np.argmax(k != 1))
            raise RulesError(
                f"winner not given and game {g} has {int(k[g])} seats with 0 cards: expected exactly one"
            )
        w = np.argmax(zero, axis=1).astype(np.int64)
    else:
        w = _per_game("winner", winner, n)
        _check_winner(w, N)
    ordinary = ~is_inst
    holds = ordinary & (c[rows, w] != 0)
    if holds.any():
        g = int(np.argmax(holds))
        raise RulesError(f"winner={int(w[g])} (game {g}) still holds {int(c[g, w[g]])} cards")
    others_out = zero & ordinary[:, None]
    others_out[rows, w] = False
    if others_out.any():
        g, s = _first_bad(others_out)
        raise RulesError(f"cards_left[{g}, {s}]=0 but seat {s} is not the winner ({int(w[g])}) of game {g}")

    mult = chao_multipliers(c, rules)
    if rules.scoring == "points":
        if points_left is None:
            raise RulesError("points_left is needed with scoring='points'")
        pts = _int_array("points_left", points_left)
        if pts.shape != c.shape:
            raise RulesError(f"points_left has shape {pts.shape}, expected {c.shape} like cards_left")
        bad = (pts < 3 * c) | (pts > 15 * c)
        if bad.any():
            g, s = _first_bad(bad)
            raise RulesError(
                f"points_left[{g}, {s}]={int(pts[g, s])} is impossible for {int(c[g, s])} cards: "
                f"expected {3 * int(c[g, s])}-{15 * int(c[g, s])}"
            )
        p = pts * mult if rules.points_chao else pts.copy()
    else:
        p = c * mult
    p = np.where(is_inst[:, None], INSTANT_MULTIPLIER * c, p)
    p[rows, w] = -rules.winner_bonus
    return p


def penalty(
    cards_left: Any,
    rules: RuleSet | str | Mapping | None = None,
    *,
    points_left: Any = None,
    winner: int | None = None,
    instant: int = 0,
) -> int | np.ndarray:
    """Penalty p of one hand (§5), or of one loser.

    Parameters
    ----------
    cards_left : int or sequence of int
        A sequence: cards left by each seat (``rules.players`` of them).  An int: the cards
        left by one loser, whose p is returned as an int.
    rules : RuleSet, str, mapping or None
    points_left : int or sequence of int, optional
        Point values of those cards (:func:`card_points`); needed under ``points`` scoring.
    winner : int, optional
        Winning seat (default: the seat with 0 cards).  Not used with one loser.
    instant : int
        Nonzero for an instant win (1 dragon, 2 four twos): p = 3 x hand size.

    Returns
    -------
    int or numpy.ndarray of int64
        One loser's p, or every seat's (the winner's is ``-winner_bonus``).

    Raises
    ------
    RulesError
        As :func:`penalties`.

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import penalty, card_points
    >>> [penalty(c) for c in (9, 10, 12, 13)]
    [9, 20, 24, 39]
    >>> [penalty(c, {"chao": "eight"}) for c in (8, 10, 13)]
    [16, 30, 52]
    >>> penalty([0, 5, 10, 13], {"chao": "8/11/13", "winner_bonus": 10}).tolist()
    [-10, 5, 20, 52]
    >>> penalty(3, {"scoring": "points"}, points_left=card_points("2S AH TD"))
    39
    >>> penalty([13, 13, 13, 13], winner=1, instant=1).tolist()
    [39, 0, 39, 39]
    """
    rules = _rules(rules)
    if isinstance(instant, (bool, np.bool_)) or not isinstance(instant, Integral) or int(instant) not in (0, 1, 2):
        raise RulesError(f"instant={quote_token(instant)} is not allowed: expected 0 (none), 1 (dragon) or 2 (four twos)")
    if np.ndim(cards_left) == 0:
        if winner is not None:
            raise RulesError("winner is not used with one player's cards_left: pass every seat's cards")
        c = _int_array("cards_left", cards_left)
        if not 0 <= int(c) <= _MAX_CARDS:
            raise RulesError(f"cards_left={int(c)} is not a card count: expected 0-{_MAX_CARDS}")
        cv = int(c)
        if points_left is not None:  # checked whatever the scoring: a bad value is an error, never ignored
            if np.ndim(points_left) != 0:
                raise RulesError(f"points_left={quote_token(points_left)}: expected one number with one player's "
                                 "cards_left")
            given = int(_int_array("points_left", points_left))
            if not 3 * cv <= given <= 15 * cv:
                raise RulesError(f"points_left={given} is impossible for {cv} cards: expected {3 * cv}-{15 * cv}")
        if instant:
            return INSTANT_MULTIPLIER * cv
        mult = int(chao_multipliers(cv, rules))
        if rules.scoring == "points":
            if points_left is None or np.ndim(points_left) != 0:
                raise RulesError("points_left (one number) is needed with scoring='points'")
            pts = int(_int_array("points_left", points_left))
            if not 3 * cv <= pts <= 15 * cv:
                raise RulesError(f"points_left={pts} is impossible for {cv} cards: expected {3 * cv}-{15 * cv}")
            return pts * mult if rules.points_chao else pts
        return cv * mult
    c = _int_array("cards_left", cards_left)
    if c.ndim != 1:
        raise RulesError(f"cards_left has shape {c.shape}, expected one count per seat")
    pts_all = None if points_left is None else np.asarray(points_left)[None]
    w = None if winner is None else [winner]
    return penalties(c[None], rules, points_left=pts_all, winner=w, instant=[instant])[0]


# --------------------------------------------------------------------------------------
# Settlement
# --------------------------------------------------------------------------------------


def settle_many(
    p: Any,
    rules: RuleSet | str | Mapping | None = None,
    *,
    winner: Any,
    liable: Any = -1,
    coins: Any = None,
    cards_left: Any = None,
    active: Any = None,
) -> np.ndarray:
    """Nets of every player in many hands (§5 settlement, 包牌, graduation; vectorised).

    Parameters
    ----------
    p : array_like, shape (n, N)
        Penalties (:func:`penalties`); the winner's must be the smallest of its game.
    rules : RuleSet, str, mapping or None
        Uses ``settlement``, ``stake``, ``bankroll`` and ``players`` (= N).
    winner : array_like of int, shape (n,)
        Winning seat of each hand.
    liable : int or array_like of int, shape (n,)
        包牌 violator of each hand, -1 for none (the engine's ``liable``).
    coins : array_like, shape (n, N) or (N,), optional
        Coins of each player before the hand; required with ``bankroll='capped'`` and an
        error with ``'off'``.
    cards_left : array_like of int, shape (n, N) or (N,), optional
        Orders the recipients of a graduation pot under Place (fewest first, after the
        winner); default: the penalty.
    active : array_like of bool, shape (n, N) or (N,), optional
        Seats still at the table (default all); an inactive seat neither pays nor receives
        (see the module's decision 7).

    Returns
    -------
    numpy.ndarray of float64, shape (n, N)
        Money won (+) or lost (-) by each seat; every row sums to 0.

    Raises
    ------
    RulesError
        Naming the argument: bad shapes, seats out of range, negative coins, coins
        missing or given against ``rules.bankroll``.

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import settle_many
    >>> p = [[0, 5, 20, 52], [3, 0, 1, 4]]
    >>> settle_many(p, {"settlement": "winner_takes_all"}, winner=[0, 1], liable=[-1, 0]).tolist()
    [[77.0, -5.0, -20.0, -52.0], [-8.0, 8.0, 0.0, 0.0]]
    >>> settle_many(p, None, winner=[0, 1]).tolist()
    [[77.0, 57.0, -3.0, -131.0], [-4.0, 8.0, 4.0, -8.0]]
    """
    rules = _rules(rules)
    pa = _float_array("p", p)
    if pa.ndim != 2:
        raise RulesError(f"p has shape {pa.shape}, expected (games, seats)")
    n, N = pa.shape
    _seats(N, rules, "p")
    w = _per_game("winner", winner, n)
    _check_winner(w, N)
    lv = _per_game("liable", liable, n)
    _check_liable(lv, w, N)
    rows = np.arange(n)
    below = pa < pa[rows, w][:, None]
    if below.any():
        g, s = _first_bad(below)
        raise RulesError(
            f"p[{g}, {s}]={pa[g, s]:g} is below the winner's p ({pa[g, w[g]]:g}, seat {int(w[g])}): "
            f"the winner's penalty must be the smallest"
        )
    cn = None
    if rules.bankroll == "capped":
        if coins is None:
            raise RulesError("coins are needed with bankroll='capped'")
        cn = _check_coins(coins, n, N)
    elif coins is not None:
        raise RulesError("coins given but rules.bankroll='off': use bankroll='capped' to cap losses at coins")
    cl = None
    if cards_left is not None:
        cl = _table("cards_left", cards_left, n, N)
    act = None
    if active is not None:
        a = np.asarray(active)
        if a.dtype != bool:
            raise RulesError(f"active must be booleans, got {a.dtype.name}")
        if a.ndim == 1 and a.shape[0] == N:
            a = np.broadcast_to(a, (n, N))
        if a.shape != (n, N):
            raise RulesError(f"active has shape {a.shape}, expected ({n}, {N}) or ({N},)")
        act = a
    return settle_penalties(pa, w, lv, cn, cl, act, system=rules.settlement, stake=rules.stake)


def settle(
    p: Any,
    rules: RuleSet | str | Mapping | None = None,
    *,
    winner: int,
    liable: int = -1,
    coins: Any = None,
    cards_left: Any = None,
    active: Any = None,
) -> np.ndarray:
    """Nets of every player in one hand (§5).

    Parameters
    ----------
    p : sequence of numbers
        Each seat's penalty (:func:`penalty`).
    rules : RuleSet, str, mapping or None
    winner : int
        Winning seat.
    liable : int
        包牌 violator, -1 for none.
    coins : sequence of numbers, optional
        Coins before the hand (``bankroll='capped'`` only).
    cards_left : sequence of int, optional
        Orders the recipients of a graduation pot (default: by penalty).
    active : sequence of bool, optional
        Seats still at the table.

    Returns
    -------
    numpy.ndarray of float64, shape (N,)
        Money won (+) or lost (-); sums to 0.

    Raises
    ------
    RulesError
        As :func:`settle_many`.

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import settle
    >>> settle([3, 0, 1, 4], {"settlement": "winner_takes_all"}, winner=1, liable=0).tolist()
    [-8.0, 8.0, 0.0, 0.0]
    >>> settle([0, 5, 20, 52], None, winner=0).tolist()
    [77.0, 57.0, -3.0, -131.0]
    >>> settle([0, 5, 20, 52], None, winner=0, liable=2).tolist()
    [77.0, 57.0, -134.0, 0.0]
    """
    pa = np.asarray(p)
    if pa.ndim != 1:
        raise RulesError(f"p has shape {pa.shape}, expected one penalty per seat")
    for name, v in (("winner", winner), ("liable", liable)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, Integral):
            raise RulesError(f"{name}={quote_token(v)} is not a seat number")
    kw: dict[str, Any] = {}
    for name, v in (("coins", coins), ("cards_left", cards_left), ("active", active)):
        if v is not None:
            a = np.asarray(v)
            if a.ndim != 1:
                raise RulesError(f"{name} has shape {a.shape}, expected one value per seat")
            kw[name] = a[None]
    return settle_many(pa[None], rules, winner=[winner], liable=[liable], **kw)[0]


def graduated(coins: Any, nets: Any = None) -> np.ndarray:
    """Which players are at 0 coins (after adding ``nets``, if given): they leave (畢業).

    Parameters
    ----------
    coins : array_like
        Coins before the hand (or after, without ``nets``).
    nets : array_like, optional
        The hand's nets (:func:`settle`).

    Returns
    -------
    numpy.ndarray of bool
        True where the coins are 0 or below (up to float rounding).

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import graduated
    >>> graduated([10000, 2100, 5000, 2500], [2020, -2100, 80, 0]).tolist()
    [False, True, False, False]
    """
    c = _float_array("coins", coins)
    after = c if nets is None else c + _float_array("nets", nets)
    return after <= _ZERO_TOL * np.maximum(np.abs(c), 1.0)


# --------------------------------------------------------------------------------------
# Engine outcomes and sessions
# --------------------------------------------------------------------------------------


def _outcome_arrays(outcomes: Mapping[str, Any], rules: RuleSet):
    if not isinstance(outcomes, Mapping):
        raise RulesError(f"outcomes must be a mapping of outcome arrays, got {type(outcomes).__name__}")
    for key in ("winner", "cards_left"):
        if key not in outcomes:
            raise RulesError(f"outcomes has no {quote_token(key)} array")
    c = _int_array("cards_left", outcomes["cards_left"])
    if c.ndim != 2:
        raise RulesError(f"cards_left has shape {c.shape}, expected (games, seats)")
    n = c.shape[0]
    w = _per_game("winner", outcomes["winner"], n)
    inst = _per_game("instant", outcomes.get("instant", 0), n)
    lv = _per_game("liable", outcomes.get("liable", -1), n)
    p = penalties(c, rules, points_left=outcomes.get("points_left"), winner=w, instant=inst)
    return c, w, lv, p


def score_outcomes(
    outcomes: Mapping[str, Any],
    rules: RuleSet | str | Mapping | None = None,
    *,
    coins: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Penalties and nets of every game of an engine run (each game settled on its own).

    Parameters
    ----------
    outcomes : mapping
        The engine's outcome arrays: ``winner`` and ``cards_left`` (required),
        ``points_left`` (``points`` scoring), ``liable`` and ``instant`` (default none).
    rules : RuleSet, str, mapping or None
    coins : array_like, shape (N,) or (n, N), optional
        Coins of each player before every game (``bankroll='capped'``).

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``p`` (n, N) int64 and ``nets`` (n, N) float64.

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import score_outcomes
    >>> out = {"winner": [0, 3], "cards_left": [[0, 5, 10, 13], [13, 13, 13, 13]], "instant": [0, 2]}
    >>> p, nets = score_outcomes(out, {"settlement": "winner_takes_all"})
    >>> p.tolist(), nets.tolist()
    ([[0, 5, 20, 39], [39, 39, 39, 0]], [[64.0, -5.0, -20.0, -39.0], [-39.0, -39.0, -39.0, 117.0]])
    """
    rules = _rules(rules)
    c, w, lv, p = _outcome_arrays(outcomes, rules)
    nets = settle_many(p, rules, winner=w, liable=lv, coins=coins, cards_left=c)
    return p, nets


@dataclass(frozen=True, eq=False)
class BankrollRun:
    """Coins of every player through sessions of hands (:func:`run_bankrolls`).

    Attributes
    ----------
    coins : numpy.ndarray of float64, shape (hands + 1, N) or (sessions, hands + 1, N)
        Coins before the first hand (row 0) and after each hand.
    nets : numpy.ndarray of float64, shape (hands, N) or (sessions, hands, N)
        Each hand's nets (0 for a seat that has left).
    graduated_at : numpy.ndarray of int64, shape (N,) or (sessions, N)
        Index (0-based, within the session) of the hand after which the player reached
        0 coins and left; -1 if it never did (always -1 under ``bankroll='off'``).
    """

    coins: np.ndarray
    nets: np.ndarray
    graduated_at: np.ndarray

    @property
    def graduated(self) -> np.ndarray:
        """True for the players who left at 0 coins."""
        return self.graduated_at >= 0

    @property
    def final(self) -> np.ndarray:
        """Coins after the last hand."""
        return self.coins[..., -1, :]


def run_bankrolls(
    outcomes: Mapping[str, Any],
    rules: RuleSet | str | Mapping | None,
    coins: Any,
) -> BankrollRun:
    """Play already-simulated hands one after the other against the players' coins.

    Parameters
    ----------
    outcomes : mapping
        Engine outcome arrays of n games (as :func:`score_outcomes`), in playing order.
    rules : RuleSet, str, mapping or None
        With ``bankroll='capped'`` losses are capped at the coins and a player at 0 coins
        leaves (module decision 7); with ``'off'`` coins may go negative.
    coins : array_like, shape (N,) or (m, N)
        Starting coins, > 0.  One row: one session of all n hands.  m rows: m independent
        sessions, session k playing games ``k*h .. (k+1)*h - 1`` with ``h = n / m`` (n must
        be a multiple of m); the sessions are settled side by side.

    Returns
    -------
    BankrollRun

    Raises
    ------
    RulesError
        For bad outcomes (as :func:`penalties`), coins that are not positive, or n not a
        multiple of the number of sessions.

    Examples
    --------
    >>> from kaptai.bigtwo.scoring import run_bankrolls
    >>> out = {"winner": [0, 0, 1], "cards_left": [[0, 13, 8, 11], [0, 13, 8, 11], [5, 0, 3, 2]]}
    >>> r = {"chao": "8/11/13", "stake": 20, "bankroll": "capped"}
    >>> run = run_bankrolls(out, r, [10000, 2100, 5000, 2500])
    >>> run.coins[1].tolist(), run.graduated_at.tolist()
    ([12020.0, 0.0, 5080.0, 2500.0], [-1, 0, -1, -1])

    B left after hand 0; the other three settle hands 1 and 2 among themselves (Place,
    ``net = 20 * (S' - 3 p)``), hand 2 although its winner, B, has left:

    >>> run.nets[1:].tolist()
    [[980.0, 0.0, 20.0, -1000.0], [-100.0, 0.0, 20.0, 80.0]]
    >>> run.final.tolist()
    [12900.0, 0.0, 5120.0, 1580.0]
    """
    rules = _rules(rules)
    c, w, lv, p = _outcome_arrays(outcomes, rules)
    n, N = c.shape
    c0 = _float_array("coins", coins)
    single = c0.ndim == 1
    if single:
        c0 = c0[None]
    if c0.ndim != 2 or c0.shape[1] != N or c0.shape[0] == 0:
        raise RulesError(f"coins has shape {np.shape(coins)}, expected ({N},) or (sessions, {N})")
    if np.any(c0 <= 0):
        s = _first_bad(c0 <= 0)
        where = f"seat {s[-1]}" if single else f"session {s[0]}, seat {s[1]}"
        raise RulesError(f"coins must be > 0 at the start (a player at 0 has already left), got {c0[s]:g} at {where}")
    m = c0.shape[0]
    if n % m:
        raise RulesError(f"{n} games cannot be split into {m} sessions of equal length")
    h = n // m
    P = p.reshape(m, h, N).astype(np.float64)
    C = c.reshape(m, h, N)
    W = w.reshape(m, h)
    L = lv.reshape(m, h)
    capped = rules.bankroll == "capped"
    path = np.empty((m, h + 1, N))
    nets = np.empty((m, h, N))
    path[:, 0] = c0
    cur = c0.copy()
    active = np.ones((m, N), dtype=bool)
    grad_at = np.full((m, N), -1, dtype=np.int64)
    tol = _ZERO_TOL * np.maximum(c0, 1.0)
    for t in range(h):
        net = settle_penalties(P[:, t], W[:, t], L[:, t], cur if capped else None, C[:, t],
                               active if capped else None, system=rules.settlement, stake=rules.stake)
        cur = cur + net
        nets[:, t] = net
        path[:, t + 1] = cur
        if capped:
            out = active & (cur <= tol)
            grad_at[out] = t
            active &= ~out
    if single:
        return BankrollRun(path[0], nets[0], grad_at[0])
    return BankrollRun(path, nets, grad_at)
