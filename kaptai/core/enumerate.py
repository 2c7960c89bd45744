"""Count-vector enumeration with hypergeometric weights: the exact odds of a deal.

A hand dealt from a deck that holds ``copies[k]`` cards (tiles) of kind ``k`` is, for odds
that do not depend on which copy is which, a *count vector* ``c`` with
``0 <= c[k] <= copies[k]`` and ``sum(c) = size``.  The number of deals that give ``c`` is
the hypergeometric weight ``prod_k C(copies[k], c[k])``, and the weights of every vector of
one size add up to ``C(sum(copies), size)``.  Every game whose pieces are kinds with
copies (Kap Tai Shap: 21 tiles; nine-ten: 28 kinds x 4; Nantong: 30 kinds x 4) computes its
exact deal odds this way, in integers, dividing only at the end.

Two tools:

* :func:`count_vectors` walks every vector of one size with its weight (depth first over
  the kinds, pruned when the remaining kinds cannot hold the remaining cards) — for small
  decks or as the oracle of a faster method;
* :class:`Polynomial` is the generating function of a set of kinds, keyed by
  ``(cards, feature)`` where the feature of a hand is the sum of a per-kind feature of
  its count (pairs held, kinds present, a suit's pattern code ...).  Kinds combine by
  convolution (:meth:`Polynomial.times`), identical kinds by powers
  (:func:`class_polynomial`), so odds over 28 or 30 kinds never enumerate the vectors.

The compiled Kap Tai Shap walker (``kaptai/kts/_eval.pyx``, ``_deal_tables``) is the same
walk specialised to that game: canonical vectors under its tile-pair symmetry and rank
tables for the distance-from-ready search.

Examples
--------
>>> from kaptai.core.enumerate import count_vectors, class_polynomial, hypergeometric_weight
>>> sum(w for _, w in count_vectors([2, 2, 1], 3))     # C(5, 3)
10
>>> hypergeometric_weight([2, 0, 1], [2, 2, 1])
1
>>> pairs = class_polynomial(copies=4, kinds=28, max_cards=10, feature=lambda c: int(c >= 2))
>>> sum(pairs.coefficients(10).values())               # every 10-card hand of 112 cards
56594002961496
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from math import comb
from typing import Any

from kaptai.errors import RulesError

__all__ = [
    "hypergeometric_weight",
    "hand_count",
    "count_vectors",
    "Polynomial",
    "kind_polynomial",
    "class_polynomial",
    "probabilities",
]


def _copies(copies: Sequence[int]) -> tuple[int, ...]:
    out = tuple(copies)
    if any(isinstance(c, bool) or not isinstance(c, int) or c < 0 for c in out):
        raise RulesError(f"copies={list(copies)!r}: expected non-negative integers, one per kind")
    return out


def _size(size: object, top: int) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= top:
        raise RulesError(f"size={size!r}: expected a hand size from 0 to {top} (the cards in the deck)")
    return size


def hypergeometric_weight(counts: Sequence[int], copies: Sequence[int]) -> int:
    """Deals giving ``counts``: ``prod_k C(copies[k], counts[k])`` (0 if a count is too big).

    >>> hypergeometric_weight([1, 1], [4, 4])
    16
    """
    if len(counts) != len(copies):
        raise RulesError(f"counts has {len(counts)} kinds, copies {len(copies)}")
    w = 1
    for c, k in zip(counts, copies):
        w *= comb(k, c) if 0 <= c else 0
    return w


def hand_count(copies: Sequence[int], size: int) -> int:
    """All deals of ``size`` cards: ``C(sum(copies), size)`` (the sum of every weight).

    >>> hand_count([4] * 28, 10)
    56594002961496
    """
    n = sum(_copies(copies))
    return comb(n, _size(size, n))


def count_vectors(copies: Sequence[int], size: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every count vector of ``size`` cards with its hypergeometric weight.

    Vectors come in lexicographic order (kind 0 first, fewest copies first).

    Parameters
    ----------
    copies : sequence of int
        Copies of each kind in the deck.
    size : int
        Hand size.

    Yields
    ------
    (tuple of int, int)
        The vector and its weight.

    Examples
    --------
    >>> list(count_vectors([1, 2], 2))
    [((0, 2), 1), ((1, 1), 2)]
    """
    caps = _copies(copies)
    size = _size(size, sum(caps))
    n = len(caps)
    suffix = [0] * (n + 1)
    for k in range(n - 1, -1, -1):
        suffix[k] = suffix[k + 1] + caps[k]
    counts = [0] * n

    def walk(k: int, left: int, w: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if k == n:
            if left == 0:
                yield tuple(counts), w
            return
        lo = max(0, left - suffix[k + 1])
        for c in range(lo, min(caps[k], left) + 1):
            counts[k] = c
            yield from walk(k + 1, left - c, w * comb(caps[k], c))
        counts[k] = 0

    yield from walk(0, size, 1)


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, tuple):
        return tuple(x + y for x, y in zip(a, b))
    return a + b


class Polynomial:
    """Generating function of a set of kinds: ``(cards, feature) -> number of deals``.

    ``feature`` values are numbers or tuples of numbers; combining two disjoint sets of
    kinds adds their features (a hand's feature is the sum over its kinds).  Hands of more
    than ``max_cards`` cards are dropped as terms are multiplied.

    >>> p = kind_polynomial(4, max_cards=3, feature=lambda c: int(c >= 2))
    >>> sorted(p.terms.items())
    [((0, 0), 1), ((1, 0), 4), ((2, 1), 6), ((3, 1), 4)]
    """

    __slots__ = ("terms", "max_cards")

    def __init__(self, terms: Mapping[tuple[int, Any], int], max_cards: int) -> None:
        self.terms: dict[tuple[int, Any], int] = {k: v for k, v in terms.items() if v and k[0] <= max_cards}
        self.max_cards = max_cards

    @classmethod
    def one(cls, max_cards: int, zero: Any = 0) -> Polynomial:
        """The empty set of kinds: one way to hold no card, with feature ``zero``."""
        return cls({(0, zero): 1}, max_cards)

    def times(self, other: Polynomial) -> Polynomial:
        """The generating function of the union of two disjoint sets of kinds."""
        top = min(self.max_cards, other.max_cards)
        out: dict[tuple[int, Any], int] = {}
        for (n1, f1), w1 in self.terms.items():
            for (n2, f2), w2 in other.terms.items():
                n = n1 + n2
                if n > top:
                    continue
                key = (n, _add(f1, f2))
                out[key] = out.get(key, 0) + w1 * w2
        return Polynomial(out, top)

    def power(self, k: int) -> Polynomial:
        """``k`` identical, disjoint copies of this set of kinds (square and multiply)."""
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise RulesError(f"power k={k!r}: expected an integer >= 0")
        zero = next(iter(self.terms))[1] if self.terms else 0
        zero = tuple(0 for _ in zero) if isinstance(zero, tuple) else 0
        result, base = Polynomial.one(self.max_cards, zero), self
        while k:
            if k & 1:
                result = result.times(base)
            k >>= 1
            if k:
                base = base.times(base)
        return result

    def coefficients(self, cards: int) -> dict[Any, int]:
        """``feature -> deals`` over the hands of exactly ``cards`` cards."""
        return {f: w for (n, f), w in self.terms.items() if n == cards}

    def __repr__(self) -> str:
        return f"Polynomial({len(self.terms)} terms, max_cards={self.max_cards})"


def kind_polynomial(copies: int, max_cards: int, feature: Callable[[int], Any] | None = None) -> Polynomial:
    """One kind with ``copies`` copies: ``(c, feature(c)) -> C(copies, c)``.

    >>> sorted(kind_polynomial(2, 5).terms.items())
    [((0, 0), 1), ((1, 0), 2), ((2, 0), 1)]
    """
    (copies,) = _copies([copies])
    f = feature or (lambda c: 0)
    return Polynomial({(c, f(c)): comb(copies, c) for c in range(min(copies, max_cards) + 1)}, max_cards)


def class_polynomial(copies: int, kinds: int, max_cards: int, feature: Callable[[int], Any] | None = None) -> Polynomial:
    """``kinds`` kinds of ``copies`` copies each, features added over the kinds.

    >>> p = class_polynomial(4, 7, 10, feature=lambda c: int(c > 0))   # kinds present
    >>> p.coefficients(2) == {1: 7 * 6, 2: 21 * 16}
    True
    """
    return kind_polynomial(copies, max_cards, feature).power(kinds)


def probabilities(counts: Mapping[Any, int], total: int) -> dict[Any, Fraction]:
    """Exact probabilities ``weight / total`` of a table of weights (checked to add up).

    >>> probabilities({0: 1, 1: 3}, 4)
    {0: Fraction(1, 4), 1: Fraction(3, 4)}
    """
    if sum(counts.values()) != total:
        raise ValueError(f"the weights add up to {sum(counts.values())}, not to the {total} deals")
    return {k: Fraction(v, total) for k, v in counts.items()}
