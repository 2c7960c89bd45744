"""Playing policies for the Kap Tai Shap (夾大十) game engine.

A policy makes the two choices the rules leave to a player (``docs/rules/kap-tai-shap.md`` §5):

* **claim** (搶牌) -- whether to take a face-up discard, and which one when several may be
  taken (``claim='any'``); under ``turn='claim-or-draw'`` declining means drawing;
* **discard** -- which tile to throw face up after a claim, a draw or the first hand's deal.

Winning is not a choice: a natural hand, a winning draw and a winning claim win at once.

Built-in policies
-----------------
``'random'``
    Uniform over the legal choices.  A claim picks uniformly among *decline* and the
    distinct candidate tile ids (so a winning tile may be declined); a discard picks
    uniformly among the distinct tile ids that may be thrown.
``'greedy'``
    Claims when the tile wins (the best-scoring winning tile if several) or when taking it
    raises the hand's live outs; discards the tile whose removal leaves, in this order of
    keys, the most live outs, then the smallest distance from ready
    (:func:`distance_proxy`), then the highest expected score of the win (live-weighted
    mean of the scores of the waits, self-draw point included); remaining ties go to the
    lowest tile id.
``'score'``
    For advanced scoring: the same, with a first key in front of the greedy ones, the value
    ``P(win within the next k own draws) x (expected score of that win)``, where the
    probability is the exact hypergeometric chance that one of ``k`` draws from the unseen
    tiles is a live wait: ``1 - C(U - L, k) / C(U, k)`` for ``U`` unseen tiles and ``L`` live
    outs, ``k = min(HORIZON, wall_remaining // players)``.  Claims when the tile wins, or
    when the best hand after the claim beats the current hand on (value, live outs).
``'lookahead'``
    The exact look-ahead model of :mod:`kaptai.kts.lookahead` over the next
    ``k = min(LOOK_HORIZON, wall_remaining // players)`` own looks (``LOOK_HORIZON = 2``):
    every option is valued by (P(win within k looks), expected score) under optimal play of
    those looks, each look a tile drawn from the unseen pool, compared lexicographically
    (:func:`lookahead_value`); ties go to the greedy rule over the tied options.  Claims when
    the tile wins, or when the best exchange after the claim is strictly worth more than
    declining.

Definitions shared by the compiled engine and these Python versions (the two reproduce
each other move for move):

* **visible** tiles of a seat: its own hand plus every tile lying face up on the table
  (discarded and not taken back by a claim).  A claimed tile leaves the table.
* **live outs** of a hand of ``2n + 1`` tiles: ``sum over waits w of copies[w] - hand[w] -
  table[w]``; waits come from the evaluator (all forms of the ruleset).
* **unseen** tiles: ``sum(copies) - hand size - tiles on the table``.
* ties between real numbers are decided exactly (fractions, never floats).

Writing your own policy
-----------------------
Subclass :class:`Policy` and implement :meth:`Policy.claim` and :meth:`Policy.discard`;
both receive a read-only :class:`PlayerView`.  Use ``view.rng`` for any randomness so that a
run is reproducible from its seed.  Custom policies run in the pure-Python engine
(:mod:`kaptai.kts.engine_reference`), about a hundred times slower than the built-ins,
which are compiled.

Examples
--------
>>> from kaptai.kts.policies import Policy, resolve_policies
>>> class AlwaysDraw(Policy):
...     name = "always-draw"
...     def claim(self, view, candidates):
...         return None
...     def discard(self, view, legal):
...         return view.drawn if view.drawn is not None else legal[-1]
>>> [getattr(p, "name", p) for p in resolve_policies(["greedy", AlwaysDraw()], 2)]
['greedy', 'always-draw']
"""

from __future__ import annotations

import abc
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from kaptai.errors import InvalidHandError, RulesError, quote_token
from kaptai.kts import reference
from kaptai.kts.tiles import N_TILE_TYPES, TEN_VALUE

__all__ = [
    "BUILTIN_POLICIES",
    "HORIZON",
    "Policy",
    "PlayerView",
    "RandomPolicy",
    "GreedyPolicy",
    "ScorePolicy",
    "LookaheadPolicy",
    "LookaheadScorePolicy",
    "POLICY_CODES",
    "ScriptedPolicy",
    "SearchPolicy",
    "resolve_policies",
    "policy_codes",
    "distance_proxy",
    "live_outs",
    "lookahead_value",
    "LOOK_HORIZON",
]

#: Own draws looked ahead by the ``'score'`` policy.
HORIZON: int = 3

#: Own looks looked ahead by the ``'lookahead'`` policy.
LOOK_HORIZON: int = 2

#: Names of the compiled policies.
BUILTIN_POLICIES: tuple[str, ...] = ("random", "greedy", "score", "lookahead", "lookahead_score", "search")

#: Their codes in the compiled engine (4 is a scripted seat, ``kaptai.kts.config.SCRIPT_CODE``).
POLICY_CODES: dict[str, int] = {"random": 0, "greedy": 1, "score": 2, "lookahead": 3, "lookahead_score": 5,
                                "search": 6}

#: Ten-value class (ten-value mod 10) of each tile id.
CLASS: tuple[int, ...] = tuple(int(v) % 10 for v in TEN_VALUE)


# --------------------------------------------------------------------------------------
# Shared arithmetic
# --------------------------------------------------------------------------------------


def distance_proxy(hand: Sequence[int], copies: Sequence[int], n: int) -> int:
    """Cheap distance from ready (聽牌) of a hand: tiles outside a best basic layout.

    The overlap is the largest number of the hand's tiles that fit in one eye plus ``n``
    ten pairs, where the missing tiles of the eye must exist outside the hand
    (``copies[e] - hand[e]``) and the missing partners of ten pairs are assumed available.
    The distance is ``hand size - overlap``; it is 0 for a hand of ``2n + 1`` tiles with a
    basic wait that is not all in the hand.  Only the basic form is considered, for every
    ruleset (a documented approximation; the exact measure is
    :func:`kaptai.kts.reference.max_overlap`).

    Parameters
    ----------
    hand : sequence of int
        Length-21 count vector.
    copies : sequence of int
        Copies of each tile in the sets in play.
    n : int
        Ten-pair groups of a winning hand (4, or 3 in Kap Shap).

    Returns
    -------
    int

    Examples
    --------
    >>> from kaptai.kts.policies import distance_proxy
    >>> hand = [0] * 21
    >>> for t in (9, 9, 9, 5, 3, 10, 6, 0, 2):   # ready: 16 16 · 16 · 33+13 · 15+22 · 66+44
    ...     hand[t] += 1
    >>> distance_proxy(hand, [4] * 11 + [2] * 10, 4)
    0
    """
    size = sum(hand)
    best = 0
    for e in range(N_TILE_TYPES):
        if copies[e] < 2:
            continue
        for use in range(min(hand[e], 2) + 1):
            if copies[e] - hand[e] < 2 - use:
                continue
            cls = [0] * 10
            for t in range(N_TILE_TYPES):
                cls[CLASS[t]] += hand[t] - (use if t == e else 0)
            full = cls[0] // 2 + cls[5] // 2
            single = cls[0] % 2 + cls[5] % 2
            for j in range(1, 5):
                full += min(cls[j], cls[10 - j])
                single += abs(cls[j] - cls[10 - j])
            f = min(full, n)
            best = max(best, use + 2 * f + min(single, n - f))
    return size - best


def live_outs(
    hand: Sequence[int], table: Sequence[int], copies: Sequence[int], rules: Any
) -> tuple[int, dict[int, int]]:
    """Live outs of a hand of ``2n + 1`` tiles and the live count of each wait.

    Parameters
    ----------
    hand, table, copies : sequence of int
        Length-21 count vectors: the hand, the tiles face up on the table, the sets.
    rules : RuleSet or str
        Rules (forms, ``gee_joon_run_value``, ``base_combination``).

    Returns
    -------
    (int, dict)
        Total live outs and ``{wait: live copies}`` for the waits with at least one live
        copy.

    Examples
    --------
    >>> from kaptai.kts.policies import live_outs
    >>> hand = [0] * 21
    >>> for t in (9, 9, 9, 5, 3, 10, 6, 0, 2):
    ...     hand[t] += 1
    >>> live_outs(hand, [0] * 21, [4] * 11 + [2] * 10, "traditional")
    (4, {19: 2, 20: 2})
    """
    lives = {}
    for w in reference.waits(hand, rules):
        live = copies[w] - hand[w] - table[w]
        if live > 0:
            lives[w] = live
    return sum(lives.values()), lives


def _score_sum(hand: Sequence[int], lives: dict[int, int], rules: Any) -> int:
    """Sum over live waits of live copies x (score of the win + 1 self-draw point)."""
    total = 0
    for w, live in lives.items():
        grown = list(hand)
        grown[w] += 1
        total += live * (reference.score(grown, rules) + 1)
    return total


def _hit_weight(unseen: int, live: int, k: int) -> int:
    """``C(U, k) - C(U - L, k)``: draws of k unseen tiles holding at least one live out."""
    return math.comb(unseen, k) - math.comb(unseen - live, k)


# --------------------------------------------------------------------------------------
# The look-ahead value (the 'lookahead' policy)
# --------------------------------------------------------------------------------------


@lru_cache(maxsize=1 << 18)
def _win_score(hand: tuple[int, ...], rules: Any) -> int:
    """Score of a hand of ``2n + 2`` tiles, or -1 if it does not win (memoised)."""
    return reference.score(hand, rules)


@lru_cache(maxsize=1 << 18)
def _wait_points(hand: tuple[int, ...], rules: Any) -> tuple[tuple[int, int], ...]:
    """``(w, score(hand + w) + 1)`` for every wait ``w`` of a hand of ``2n + 1`` tiles.

    Regardless of how many copies of ``w`` exist; the ``+ 1`` is the self-draw point.
    Memoised on the count tuple and the rules (a RuleSet or a preset name, both hashable).
    """
    out = []
    for w in range(N_TILE_TYPES):
        grown = list(hand)
        grown[w] += 1
        points = _win_score(tuple(grown), rules)
        if points >= 0:
            out.append((w, points + 1))
    return tuple(out)


def _falling(x: int, m: int) -> int:
    """Falling factorial ``x (x - 1) ... (x - m + 1)`` (1 for ``m = 0``)."""
    out = 1
    for i in range(m):
        out *= x - i
    return out


def _look_key(objective: int) -> Callable[[tuple[int, int]], tuple[int, int]]:
    """The order of look-ahead values (p, s): P(win) first (0) or the expected score first (1)."""
    return (lambda v: v) if objective == 0 else (lambda v: (v[1], v[0]))


def _look_value(hand: tuple[int, ...], pool: tuple[int, ...], j: int, rules: Any,
                objective: int = 0) -> tuple[int, int]:
    """:func:`lookahead_value` on validated tuples (``objective`` 1: the best discard after
    a draw maximises the expected score first, then P(win))."""
    if j == 0:
        return (0, 0)
    if j == 1:
        p = s = 0
        for w, points in _wait_points(hand, rules):
            p += pool[w]
            s += pool[w] * points
        return (p, s)
    q = sum(pool)
    # a win at this look counts 1 (and its score) on every one of the (q-1)...(q-j+1)
    # continuations, the common denominator of the deeper looks
    weight = _falling(q - 1, j - 1)
    p = s = 0
    for t in range(N_TILE_TYPES):
        if pool[t] == 0:
            continue
        grown = list(hand)
        grown[t] += 1
        rest = list(pool)
        rest[t] -= 1
        rest_t = tuple(rest)
        points = _win_score(tuple(grown), rules)
        if points >= 0:
            vp, vs = weight, weight * (points + 1)
        else:
            # keep the best 2n + 1 of the 2n + 2 tiles (y = t throws the drawn tile back)
            best = (0, 0)
            key = _look_key(objective)
            for y in range(N_TILE_TYPES):
                if grown[y]:
                    grown[y] -= 1
                    best = max(best, _look_value(tuple(grown), rest_t, j - 1, rules, objective), key=key)
                    grown[y] += 1
            vp, vs = best
        p += pool[t] * vp
        s += pool[t] * vs
    return (p, s)


def lookahead_value(
    hand: Sequence[int], pool: Sequence[int], j: int, rules: Any
) -> tuple[int, int]:
    """Exact look-ahead value of a hand of ``2n + 1`` tiles with ``j`` own looks to come.

    The model of the ``'lookahead'`` policy (``docs/kap-tai-shap-engine.md``, Policies) and
    of :mod:`kaptai.kts.lookahead` with ``objective='win'``: each look is one tile drawn
    uniformly, without replacement, from the pool ``Q``; a tile that completes the hand
    wins (scoring ``score + 1``: every look is an own draw); otherwise the player keeps the
    best ``2n + 1`` of the ``2n + 2`` tiles (throwing the drawn tile back is allowed) and
    the thrown tile leaves play.  "Best" is the lexicographic order of the pair below
    (P(win) first, then the expected score).

    Parameters
    ----------
    hand : sequence of int
        Length-21 count vector of ``2n + 1`` tiles.
    pool : sequence of int
        Length-21 count vector ``Q`` of the tiles that may be drawn (``q = sum(Q)``).
    j : int
        Looks to come, ``0 <= j <= q``.  The policy uses ``j <= 2``; larger ``j`` follow
        the same recursion (slowly).
    rules : RuleSet or str
        Rules or preset name (hashable: values are memoised on it).

    Returns
    -------
    (int, int)
        ``(p, s)``: P(win within ``j`` looks) and E[score, 0 without a win], each times the
        falling factorial ``q (q - 1) ... (q - j + 1)``.  ``(0, 0)`` for ``j = 0``.
        ``j = 1``: ``p = sum of Q[w]`` over the waits ``w``, ``s = sum of Q[w] (score(hand +
        w) + 1)``.  ``j = 2``: the sum over ``t`` with ``Q[t] > 0`` of ``Q[t]`` times
        ``(q - 1, (q - 1)(score(hand + t) + 1))`` if ``hand + t`` wins, else the
        lexicographic maximum over the ids ``y`` of ``hand + t`` of the ``j = 1`` value of
        ``hand + t - y`` from ``Q - t``.

    Raises
    ------
    InvalidHandError
        A hand or pool that is not 21 non-negative counts, or a hand of an even size.
    RulesError
        ``j`` negative or larger than the pool.

    Examples
    --------
    A ready hand (16 16 16 33 13 15 22 66 44, waiting on 2-4 and 1-2) with every other
    tile of two sets unseen: 4 live copies of its waits among 55 unseen tiles.

    >>> from kaptai.kts.policies import lookahead_value
    >>> hand = [0] * 21
    >>> for t in (9, 9, 9, 5, 3, 10, 6, 0, 2):
    ...     hand[t] += 1
    >>> copies = [4] * 11 + [2] * 10
    >>> pool = [c - h for c, h in zip(copies, hand)]
    >>> p, s = lookahead_value(hand, pool, 1, "traditional")
    >>> p, sum(pool)
    (4, 55)
    >>> p2, _ = lookahead_value(hand, pool, 2, "traditional")
    >>> p2 >= 4 * 54 + 51 * 4    # at least: win now, or keep the hand and win next look
    True
    """
    h = _count_tuple(hand, "hand")
    q = _count_tuple(pool, "pool")
    if sum(h) % 2 != 1:
        raise InvalidHandError(f"hand has {sum(h)} tiles: the look-ahead value needs 2n + 1 tiles")
    if isinstance(j, bool) or not isinstance(j, int) or not 0 <= j <= sum(q):
        raise RulesError(f"j={j!r} is not allowed: expected an int from 0 to the pool size {sum(q)}")
    return _look_value(h, q, j, rules)


def _count_tuple(counts: Sequence[int], what: str) -> tuple[int, ...]:
    out = tuple(int(c) for c in counts)
    if len(out) != N_TILE_TYPES or min(out) < 0:
        raise InvalidHandError(f"{what}={list(counts)!r}: expected {N_TILE_TYPES} non-negative counts")
    return out


# --------------------------------------------------------------------------------------
# The view a policy sees, and the interface
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerView:
    """What a seat knows when it must choose (read-only).

    Attributes
    ----------
    seat : int
        The deciding seat (0 = dealer, numbered in the direction of play).
    players : int
        Player count.
    n : int
        Ten-pair groups of a winning hand (4, or 3 in Kap Shap).
    rules : RuleSet
        The rules in play.
    copies : tuple of int
        Copies of each tile id in the sets in play.
    hand : tuple of int
        The seat's hand as 21 counts.  For a claim decision: the hand before the claim
        (``2n + 1`` tiles).  For a discard: the hand holding the claimed or drawn tile.
    table : tuple of int
        Tiles lying face up on the table (claimable candidates included).
    wall_remaining : int
        Tiles left in the wall.
    turn : int
        Turn number (1 = the first hand's opening turn).
    first_hand : int
        Seat of the first hand (先手).
    rng : RandomStream
        The hand's random stream; call ``rng.bounded(k)`` for a uniform int in ``[0, k)``.
    drawn : int or None
        When discarding after a draw, the tile drawn.
    claimed : int or None
        When discarding after a claim, the tile claimed.
    """

    seat: int
    players: int
    n: int
    rules: Any
    copies: tuple[int, ...]
    hand: tuple[int, ...]
    table: tuple[int, ...]
    wall_remaining: int
    turn: int
    first_hand: int
    rng: Any = field(repr=False)
    drawn: int | None = None
    claimed: int | None = None

    @property
    def unseen(self) -> int:
        """Tiles the seat cannot see: in the wall or in other hands."""
        return sum(self.copies) - sum(self.hand) - sum(self.table)

    @property
    def horizon(self) -> int:
        """Own draws looked ahead by the ``'score'`` policy."""
        return min(HORIZON, self.wall_remaining // self.players)

    def live_outs(self, hand: Sequence[int] | None = None, table: Sequence[int] | None = None):
        """:func:`live_outs` of ``hand`` (default: the view's hand) against ``table``."""
        return live_outs(
            self.hand if hand is None else hand,
            self.table if table is None else table,
            self.copies,
            self.rules,
        )

    def distance(self, hand: Sequence[int] | None = None) -> int:
        """:func:`distance_proxy` of ``hand`` (default: the view's hand)."""
        return distance_proxy(self.hand if hand is None else hand, self.copies, self.n)

    def is_win(self, hand: Sequence[int]) -> bool:
        """Whether ``hand`` (``2n + 2`` tiles) is a winning hand under the rules."""
        return reference.is_win(hand, self.rules)


class Policy(abc.ABC):
    """Interface of a playing policy.

    Subclasses implement :meth:`claim` and :meth:`discard`.  A policy object may keep state
    between calls, but must draw any randomness from ``view.rng``.
    """

    #: Label used in tables.
    name: str = "custom"

    @abc.abstractmethod
    def claim(self, view: PlayerView, candidates: tuple[int, ...]) -> int | None:
        """Choose a face-up discard to take, or None to decline.

        Parameters
        ----------
        view : PlayerView
            The seat's knowledge; ``view.hand`` is the hand before the claim.
        candidates : tuple of int
            Distinct tile ids that may be taken, ascending (one under ``claim='previous'``).

        Returns
        -------
        int or None
            One of ``candidates``, or None.  Under ``turn='claim-or-draw'`` None means draw.
        """

    @abc.abstractmethod
    def discard(self, view: PlayerView, legal: tuple[int, ...]) -> int:
        """Choose the tile to discard.

        Parameters
        ----------
        view : PlayerView
            The seat's knowledge; ``view.hand`` holds ``2n + 2`` tiles.
        legal : tuple of int
            Distinct tile ids that may be discarded, ascending.  After a claim these are the
            tiles held before it (a claimed tile is exchanged for a hand tile).

        Returns
        -------
        int
            One of ``legal``.
        """

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class RandomPolicy(Policy):
    """Uniform over the legal choices (``'random'``).

    Examples
    --------
    >>> from kaptai.kts.policies import RandomPolicy
    >>> RandomPolicy().name
    'random'
    """

    name = "random"

    def claim(self, view, candidates):
        j = view.rng.bounded(len(candidates) + 1)
        return None if j == 0 else candidates[j - 1]

    def discard(self, view, legal):
        return legal[view.rng.bounded(len(legal))]


class GreedyPolicy(Policy):
    """Maximise live outs, then closeness to ready, then expected score (``'greedy'``).

    Examples
    --------
    >>> from kaptai.kts.policies import GreedyPolicy
    >>> GreedyPolicy().name
    'greedy'
    """

    name = "greedy"
    _use_value = False

    # -- metrics --------------------------------------------------------------------
    def _metrics(self, view: PlayerView, hand: list[int], table: list[int]):
        """(value, live outs, {wait: live}) of a hand of 2n + 1 tiles against ``table``.

        ``value`` is the ``'score'`` policy's first key (0 for ``'greedy'``).
        """
        live, lives = live_outs(hand, table, view.copies, view.rules)
        value = Fraction(0)
        k = view.horizon
        if self._use_value and live and k:
            unseen = sum(view.copies) - sum(hand) - sum(table)
            hits = _hit_weight(unseen, live, k)
            value = Fraction(hits * _score_sum(hand, lives, view.rules), live)
        return value, live, lives

    def _rank(self, view: PlayerView, hand: list[int], table: list[int]) -> tuple:
        """Key of a hand of 2n + 1 tiles for claims: (value, live outs)."""
        value, live, _ = self._metrics(view, hand, table)
        return (value, live)

    def _discard_key(self, view: PlayerView, t: int) -> tuple:
        hand = list(view.hand)
        hand[t] -= 1
        table = list(view.table)
        table[t] += 1
        value, live, lives = self._metrics(view, hand, table)
        expected = Fraction(_score_sum(hand, lives, view.rules), live) if live else Fraction(0)
        return (value, live, -distance_proxy(hand, view.copies, view.n), expected, -t)

    # -- decisions ------------------------------------------------------------------
    def claim(self, view, candidates):
        best_win, best_score = None, -1
        for c in candidates:
            grown = list(view.hand)
            grown[c] += 1
            if reference.is_win(grown, view.rules):
                s = reference.score(grown, view.rules)
                if s > best_score:
                    best_win, best_score = c, s
        if best_win is not None:
            return best_win
        best = self._rank(view, list(view.hand), list(view.table))
        choice = None
        legal = [t for t in range(N_TILE_TYPES) if view.hand[t]]
        for c in candidates:
            hand = list(view.hand)
            hand[c] += 1
            table = list(view.table)
            table[c] -= 1
            after = None
            for t in legal:
                hand[t] -= 1
                table[t] += 1
                key = self._rank(view, hand, table)
                hand[t] += 1
                table[t] -= 1
                if after is None or key > after:
                    after = key
            if after > best:
                best, choice = after, c
        return choice

    def discard(self, view, legal):
        return max(legal, key=lambda t: self._discard_key(view, t))


class ScorePolicy(GreedyPolicy):
    """Maximise P(win within a few own draws) x expected score (``'score'``).

    Examples
    --------
    >>> from kaptai.kts.policies import ScorePolicy
    >>> ScorePolicy().name
    'score'
    """

    name = "score"
    _use_value = True


class LookaheadPolicy(GreedyPolicy):
    """Exact look-ahead over the next own looks, ties to ``'greedy'`` (``'lookahead'``).

    The rules of ``docs/kap-tai-shap-engine.md`` ("``lookahead``"), from the definitions:

    * horizon ``k = min(LOOK_HORIZON, wall_remaining // players)``; pool ``U = copies - hand
      - table`` (the hand at the decision), shared by every option of the decision;
    * **discard**: ``k = 0`` -> ``'greedy'``; else the value :func:`lookahead_value` of
      ``G - x`` with ``k`` looks for every legal ``x``; the legal ids of the largest value
      form the tied set; one id is thrown, several go to ``'greedy'``'s discard over the
      tied set only;
    * **claim**: a winning candidate as ``'greedy'``; ``k = 0`` -> ``'greedy'``; else the
      decline value ``V_k(H, U)`` against, per candidate ``c``, the claim value ``max_y
      V_j(H + c - y, U)`` over the ids ``y`` of ``H``, with ``j = k`` under
      ``turn='claim-then-draw'`` and ``j = k - 1`` under ``'claim-or-draw'`` (values with
      different ``j`` compared over the common denominator: the claim numerators times
      ``u - j``).  The best claim value (first candidate on ties) is taken if strictly
      larger than the decline value; else ``'greedy'``'s claim rule if the decline value
      is ``(0, 0)``; else decline.

    It draws no random numbers.

    Examples
    --------
    >>> from kaptai.kts.policies import LookaheadPolicy
    >>> LookaheadPolicy().name
    'lookahead'
    """

    name = "lookahead"
    #: 0: values ordered P(win) first, then the expected score; 1: the other way round.
    objective = 0

    @staticmethod
    def look_horizon(view: PlayerView) -> int:
        """``k = min(LOOK_HORIZON, wall_remaining // players)``."""
        return min(LOOK_HORIZON, view.wall_remaining // view.players)

    @staticmethod
    def pool(view: PlayerView) -> tuple[int, ...]:
        """``U = copies - hand - table`` at the decision."""
        return tuple(c - h - t for c, h, t in zip(view.copies, view.hand, view.table))

    def discard_values(self, view: PlayerView, legal: Sequence[int]) -> dict[int, tuple[int, int]]:
        """``{x: V_k(G - x, U)}`` for the legal ids (``k >= 1``)."""
        k = self.look_horizon(view)
        pool = self.pool(view)
        out = {}
        for x in legal:
            hand = list(view.hand)
            hand[x] -= 1
            out[x] = _look_value(tuple(hand), pool, k, view.rules, self.objective)
        return out

    def discard(self, view, legal):
        if self.look_horizon(view) == 0:
            return super().discard(view, legal)
        values = self.discard_values(view, legal)
        best = max(values.values(), key=_look_key(self.objective))
        tied = tuple(x for x in legal if values[x] == best)
        if len(tied) == 1:
            return tied[0]
        return super().discard(view, tied)

    def claim(self, view, candidates):
        # 1. a winning candidate: the highest score, the first on ties (as 'greedy')
        win, win_score = None, -1
        for c in candidates:
            grown = list(view.hand)
            grown[c] += 1
            s = _win_score(tuple(grown), view.rules)
            if s > win_score:
                win, win_score = c, s
        if win is not None:
            return win
        # 2. no look left
        k = self.look_horizon(view)
        if k == 0:
            return super().claim(view, candidates)
        # 3. decline value against the claim values
        j = k if view.rules.turn == "claim-then-draw" else k - 1
        pool = self.pool(view)
        u = sum(pool)
        scale = 1 if j == k else u - j    # claim numerators to the decline's denominator
        hand = tuple(view.hand)
        key = _look_key(self.objective)
        decline = _look_value(hand, pool, k, view.rules, self.objective)
        best, choice = decline, None
        for c in candidates:
            grown = list(hand)
            grown[c] += 1
            value = (0, 0)
            for y in range(N_TILE_TYPES):
                if hand[y]:
                    grown[y] -= 1
                    value = max(value, _look_value(tuple(grown), pool, j, view.rules, self.objective), key=key)
                    grown[y] += 1
            value = (value[0] * scale, value[1] * scale)
            if key(value) > key(best):
                best, choice = value, c
        if choice is not None:
            return choice
        if decline == (0, 0):
            return super().claim(view, candidates)
        return None


class LookaheadScorePolicy(LookaheadPolicy):
    """``'lookahead'`` with the expected score first (``'lookahead_score'``).

    Every comparison of look-ahead values ``(p, s)`` -- the best discard after each look
    inside ``V_2``, the options of a discard, a claim against declining -- orders them by
    the expected score ``s`` first and P(win) ``p`` second (the ``objective="score"`` of
    :func:`kaptai.kts.lookahead.lookahead`); everything else (horizon, pool, ties to
    ``'greedy'``, winning claims, the ``(0, 0)`` fallback) is ``'lookahead'``'s.  Meant for
    the advanced scoring, where a win's points vary from 2 to 10 and more; under the basic
    form alone every win scores 2 or 3 and it plays almost as ``'lookahead'``.

    Examples
    --------
    >>> from kaptai.kts.policies import LookaheadScorePolicy
    >>> LookaheadScorePolicy().name, LookaheadScorePolicy.objective
    ('lookahead_score', 1)
    """

    name = "lookahead_score"
    objective = 1


class ScriptedPolicy(Policy):
    """Play a fixed list of decisions, then fall back to ``'greedy'`` (for tests and demos).

    Each entry is consumed at the seat's next decision: for a claim, a tile id to take or
    ``-1`` to decline; for a discard, the tile id to throw.  The compiled engine accepts the
    same scripts (:func:`kaptai.kts.simulate.play_wall`).

    Parameters
    ----------
    script : sequence of int
        The decisions, in order.

    Raises
    ------
    ValueError
        During play, if an entry is not a legal choice at its decision.

    Examples
    --------
    >>> from kaptai.kts.policies import ScriptedPolicy
    >>> ScriptedPolicy([-1, 5]).script
    (-1, 5)
    """

    name = "scripted"

    def __init__(self, script: Sequence[int] = ()):
        self.script = tuple(int(x) for x in script)
        self._pos = 0
        self._fallback = GreedyPolicy()

    def _next(self) -> int | None:
        if self._pos >= len(self.script):
            return None
        self._pos += 1
        return self.script[self._pos - 1]

    def claim(self, view, candidates):
        v = self._next()
        if v is None:
            return self._fallback.claim(view, candidates)
        if v == -1:
            return None
        if v not in candidates:
            raise ValueError(
                f"scripted claim {v} at seat {view.seat}, turn {view.turn}: candidates are "
                f"{list(candidates)} (or -1 to decline)"
            )
        return v

    def discard(self, view, legal):
        v = self._next()
        if v is None:
            return self._fallback.discard(view, legal)
        if v not in legal:
            raise ValueError(
                f"scripted discard {v} at seat {view.seat}, turn {view.turn}: legal discards "
                f"are {list(legal)}"
            )
        return v


class SearchPolicy(Policy):
    """Marker of a ``'search'`` seat: the engines play it themselves (``'search'``).

    The search samples layouts of the tiles the seat has not seen and plays each option
    forward on copies of the hand, so it needs the engine's hidden state (the wall, the
    other hands, who claimed what); :mod:`kaptai.kts.engine_reference` and the compiled
    engine run it (``docs/kap-tai-shap-engine.md``, "search") and never call these methods.

    Examples
    --------
    >>> from kaptai.kts.policies import SearchPolicy, policy_objects
    >>> isinstance(policy_objects(["search"])[0], SearchPolicy)
    True
    """

    name = "search"

    def _outside(self) -> RulesError:
        return RulesError(
            "the 'search' policy needs the engine's hidden state: it plays only inside "
            "kaptai.kts.engine_reference or the compiled engine, not from a PlayerView"
        )

    def claim(self, view, candidates):
        raise self._outside()

    def discard(self, view, legal):
        raise self._outside()


_BUILTIN_CLASSES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy, "greedy": GreedyPolicy, "score": ScorePolicy,
    "lookahead": LookaheadPolicy, "lookahead_score": LookaheadScorePolicy,
    "search": SearchPolicy,
}


def resolve_policies(policies: str | Policy | Sequence[str | Policy], players: int) -> tuple:
    """One policy per seat (dealer-relative), built-ins as names.

    Parameters
    ----------
    policies : str, Policy or sequence
        A built-in name or Policy object for every seat, or one entry per seat
        (seat 0 is the dealer).
    players : int
        Player count.

    Returns
    -------
    tuple
        Length ``players``; each entry a built-in name (``'random'``, ``'greedy'``,
        ``'score'``, ``'lookahead'``) or a :class:`Policy` instance.

    Raises
    ------
    RulesError
        For an unknown name (listing the built-ins), an object that is not a Policy, or a
        sequence of the wrong length.

    Examples
    --------
    >>> from kaptai.kts.policies import resolve_policies
    >>> resolve_policies("greedy", 3)
    ('greedy', 'greedy', 'greedy')
    >>> resolve_policies("smart", 3)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown policy 'smart': expected one of 'random', 'greedy', 'score', 'lookahead', 'lookahead_score', 'search' or a kaptai.kts.policies.Policy instance
    """
    if isinstance(policies, (str, Policy)):
        items = [policies] * players
    elif isinstance(policies, Sequence):
        items = list(policies)
        if len(items) != players:
            raise RulesError(
                f"policies has {len(items)} entries for {players} players: give one policy "
                "for every seat, or a single policy for all"
            )
    else:
        raise RulesError(
            f"policies must be a policy name, a Policy or a sequence of them, got "
            f"{type(policies).__name__} {policies!r}"
        )
    out: list[str | Policy] = []
    for item in items:
        if isinstance(item, str):
            key = item.strip().lower()
            if key not in BUILTIN_POLICIES:
                raise RulesError(
                    f"unknown policy {quote_token(item)}: expected one of "
                    f"{', '.join(repr(p) for p in BUILTIN_POLICIES)} or a "
                    "kaptai.kts.policies.Policy instance"
                )
            out.append(key)
        elif isinstance(item, Policy):
            out.append(item)
        else:
            raise RulesError(
                f"policy {item!r} ({type(item).__name__}) is neither a built-in name "
                f"({', '.join(BUILTIN_POLICIES)}) nor a kaptai.kts.policies.Policy instance"
            )
    return tuple(out)


def policy_codes(resolved: Sequence[str | Policy]) -> list[int] | None:
    """Codes of the compiled engine for resolved policies, or None if one is custom.

    Examples
    --------
    >>> from kaptai.kts.policies import policy_codes, GreedyPolicy
    >>> policy_codes(["random", "greedy", "score", "lookahead", "lookahead_score"])
    [0, 1, 2, 3, 5]
    >>> policy_codes(["greedy", GreedyPolicy()]) is None
    True
    """
    codes = []
    for p in resolved:
        if not isinstance(p, str):
            return None
        codes.append(POLICY_CODES[p])
    return codes


def policy_objects(resolved: Sequence[str | Policy]) -> list[Policy]:
    """Python objects for resolved policies (built-in names become fresh instances)."""
    return [_BUILTIN_CLASSES[p]() if isinstance(p, str) else p for p in resolved]
