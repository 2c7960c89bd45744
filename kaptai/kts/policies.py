"""Playing policies for the Kap Tai Shap (夾大十) game engine.

A policy makes the two choices the rules leave to a player (``rules/kap-tai-shap.md`` §5):

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
from typing import Any

from kaptai.errors import RulesError
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
    "ScriptedPolicy",
    "resolve_policies",
    "policy_codes",
    "distance_proxy",
    "live_outs",
]

#: Own draws looked ahead by the ``'score'`` policy.
HORIZON: int = 3

#: Names of the compiled policies, in the order of their codes in the compiled engine.
BUILTIN_POLICIES: tuple[str, ...] = ("random", "greedy", "score")

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


_BUILTIN_CLASSES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy, "greedy": GreedyPolicy, "score": ScorePolicy,
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
        ``'score'``) or a :class:`Policy` instance.

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
    kaptai.errors.RulesError: unknown policy 'smart': expected one of 'random', 'greedy', 'score' or a kaptai.kts.policies.Policy instance
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
                    f"unknown policy {item!r}: expected one of "
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
    >>> policy_codes(["random", "greedy", "score"]), policy_codes(["greedy", GreedyPolicy()])
    ([0, 1, 2], None)
    """
    codes = []
    for p in resolved:
        if not isinstance(p, str):
            return None
        codes.append(BUILTIN_POLICIES.index(p))
    return codes


def policy_objects(resolved: Sequence[str | Policy]) -> list[Policy]:
    """Python objects for resolved policies (built-in names become fresh instances)."""
    return [_BUILTIN_CLASSES[p]() if isinstance(p, str) else p for p in resolved]
