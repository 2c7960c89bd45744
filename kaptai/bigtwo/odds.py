"""Exact deal odds of Big Two (鋤大D): what a dealt hand and the table hold (``docs/rules/big-two.md``).

Everything is exact combinatorics on integers (and :class:`fractions.Fraction`), divided once
at the end.  The counting engine counts the ``n``-card hands that contain a set ``F`` of
*forced* cards and avoid a set ``E`` of *excluded* cards (both empty for a plain dealt hand):

* rank-only events (pairs, triples, quads, full house, dragon, four 2s, the ``redeal`` rules)
  — a dynamic programme over the 13 ranks, rank ``r`` contributing ``c`` cards in
  ``comb(4 - f_r - e_r, c - f_r)`` ways (``f_r``, ``e_r`` forced/excluded cards of the rank);
* straights — inclusion–exclusion over the ``straight_order`` windows a hand contains: the
  signed sum over the unions ``U`` of window sets of the hands having every rank of ``U``;
* flush (five or more of one suit) — hands with at most four cards of every suit subtracted;
* straight flush — inclusion–exclusion over the suited straights: per suit the signed
  polynomial ``sum over sets S of straights (-1)^|S| x^|cards of S not forced|`` (sets with an
  excluded card dropped), the four suits multiplied, a term of ``k`` new forced cards weighted
  ``comb(52 - |F| - |E| - k, n - |F| - k)``.

**The deal** (§2).  ``h = 52 // N`` cards each; the ``r = 52 mod N`` leftover cards ``L`` (a
uniformly random ``r``-subset) go to the holder of the lowest dealt card ``m`` (♦3, else ♣3,
♥3, ♠3, ♦4 … under the active ``suit_order``/``top_rank``: :meth:`RuleSet.lowest_card`).  Let
``s_1 < s_2 < …`` be the deck in single-card order.  ``m = s_j`` exactly when ``s_1 … s_{j-1}``
are in ``L`` and ``s_j`` is not; the receiver's ``h + r`` cards are ``L ∪ {m}`` plus a uniform
``(h - 1)``-subset of the other ``51 - r`` cards.  Hence the receiver *always* holds ``s_1``, and
a given ``(h + r)``-set ``H`` is its hand with probability
``sum_{j <= min(t, r + 1)} comb(h + r - j, r + 1 - j) / (comb(52, r) comb(51 - r, h - 1))``,
``t`` the number of lowest cards ``s_1, s_2, …`` that ``H`` holds in a row: not uniform.  So
``P(receiver's hand has X) = sum_j comb(h + r - j, r + 1 - j) · #{H ⊇ {s_1 … s_j} with X} / D``,
``D = comb(52, r) comb(51 - r, h - 1)``.
The receiver's *dealt* ``h`` cards ``K`` have ``min K = s_j`` and weight
``comb(52 - h - j + 1, r - j + 1)`` (``L`` holds ``s_1 … s_{j-1}`` and avoids ``K``).  A seat
that does not receive the leftovers holds ``P_nr = (N·P_dealt - P_receiver_dealt) / (N - 1)``
(every seat's dealt hand is uniform), and a seat chosen at random
``P_avg = P_dealt + (P_receiver - P_receiver_dealt) / N``.

**The table** (``table_redeal_*``): P(some seat may redeal) on the final hands.  Condition on
``L`` and ``m`` (only the counts of the rule's card classes in ``L``, and the class of ``m``,
matter; weights are products of binomials): the non-receivers' hands and the receiver's
``h - 1`` extra cards are a uniform partition of the remaining pool, so
``P = E[ P(some non-receiver eligible | pool) + sum_x P(extras = x) [L ∪ {m} ∪ x eligible]
P(no non-receiver eligible | pool - x) ]``, the non-receivers by inclusion–exclusion over the
``N - 1`` seats, ``P(k given seats all eligible)`` counted by a DP over the rule's rank classes
(low/J/Q/other for ``points_lt_3``, ≤10/above for ``hk_max10``, 3-9/10/above for
``literal_min10``; the redeal rules read the natural ranks whatever ``top_rank`` is).

**Best five-card hand** (:func:`best_hand_distribution`).  Rank events depend on the rank
count vector ``c`` only through its *profile* (how many ranks hold 0 … 4 cards) and, for
straights, the set of ranks present; per profile the number of suit assignments without a
flush is a small DP over suits.  Straight flushes are joined with the rank class (quad /
full house / other) by a DP over the straight's rank sequence with a per-suit run length.

Examples
--------
>>> from kaptai.bigtwo.odds import deal_odds
>>> df = deal_odds(4)
>>> p = df.set_index("metric").value
>>> round(1 / p["dragon"]), round(float(p["pair"]), 6)
(9462, 0.999894)
>>> round(float(p["table_redeal_points_lt_3"]), 4)  # some seat of four may redeal
0.0184
>>> r = deal_odds(3, hand="leftover_receiver")  # 17 + the leftover card
>>> int(r.hand.iloc[0]), round(float(r.set_index("metric").value["four_of_a_kind"]), 4)
(18, 0.1433)
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, Mapping, Sequence

from numbers import Integral

import numpy as np
import pandas as pd

from kaptai.bigtwo.evaluate import straight_windows
from kaptai.bigtwo.rules import STRAIGHT_ORDERS, RuleSet, StraightOrder, resolve_rules, validate_players
from kaptai.core.tables import tidy_frame
from kaptai.errors import RulesError, quote_token

__all__ = [
    "deal_odds",
    "best_hand_distribution",
    "HAND_KINDS",
    "BEST_FIVE_LEVELS",
    "ODDS_COLUMNS",
    "rank_count_vectors",
]

ODDS_COLUMNS = ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value", "exact", "method"]

#: Which hand :func:`deal_odds` describes.
HAND_KINDS: tuple[str, ...] = ("dealt", "leftover_receiver", "non_receiver", "seat_average")

#: Levels of the ``best_five`` metric, strongest first (``two_pair_plus_one`` only with ``two_pair_five``).
BEST_FIVE_LEVELS: tuple[str, ...] = (
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "two_pair_plus_one",
    "none",
)

#: Redeal points per natural rank (3 … 2): J=1 Q=2 K=3 A=4 2=5, others 0 (§4).
_POINTS = np.array([0] * 8 + [1, 2, 3, 4, 5], dtype=np.int64)

_REDEAL_RULES = ("points_lt_3", "hk_max10", "literal_min10")

#: Per redeal rule: the class of each natural rank and the test of a hand's class counts.
_REDEAL_CLASSES: dict[str, tuple[tuple[int, ...], Callable[[Sequence[int]], bool]]] = {
    # low (3-10) / J / Q / K A 2: no K A 2, J + 2Q <= 2
    "points_lt_3": ((0,) * 8 + (1, 2, 3, 3, 3), lambda e: e[3] == 0 and e[1] + 2 * e[2] <= 2),
    # 3-10 / J-2: nothing above 10
    "hk_max10": ((0,) * 8 + (1,) * 5, lambda e: e[1] == 0),
    # 3-9 / 10 / J-2: no 3-9 and a 10
    "literal_min10": ((0,) * 7 + (1,) + (2,) * 5, lambda e: e[0] == 0 and e[1] >= 1),
}

# ranks of the cyclic face sequence A 2 3 … K A 2 as natural rank indices (as in combos)
_FACE = (11, 12) + tuple(range(11)) + (11, 12)


@lru_cache(maxsize=8)
def rank_count_vectors(size: int) -> tuple[np.ndarray, np.ndarray]:
    """Every rank count vector of a ``size``-card hand and its number of hands.

    Returns
    -------
    counts : numpy.ndarray
        ``(m, 13)`` int8, copies of each natural rank (3 … 2).
    weight : numpy.ndarray
        int64 number of hands with those counts, ``prod comb(4, c)``; sums to ``comb(52, size)``.

    Examples
    --------
    >>> import math
    >>> from kaptai.bigtwo.odds import rank_count_vectors
    >>> c, w = rank_count_vectors(13)
    >>> int(w.sum()) == math.comb(52, 13)
    True
    """
    comb4 = np.array([math.comb(4, k) for k in range(5)], dtype=np.int64)
    counts = np.zeros((1, 0), dtype=np.int8)
    total = np.zeros(1, dtype=np.int64)
    weight = np.ones(1, dtype=np.int64)
    for r in range(13):
        left = 12 - r  # ranks after this one
        parts_c, parts_t, parts_w = [], [], []
        for k in range(5):
            t = total + k
            keep = (t <= size) & (t + 4 * left >= size)
            parts_c.append(np.hstack([counts[keep], np.full((keep.sum(), 1), k, dtype=np.int8)]))
            parts_t.append(t[keep])
            parts_w.append(weight[keep] * comb4[k])
        counts, total, weight = np.vstack(parts_c), np.concatenate(parts_t), np.concatenate(parts_w)
    return counts, weight


# --------------------------------------------------------------------------- counting engine


@lru_cache(maxsize=None)
def _window_masks(order: StraightOrder) -> tuple[int, ...]:
    """Rank masks of the straights of ``straight_order`` (the masks do not depend on other options)."""
    return tuple(m for m, _, _ in straight_windows(RuleSet(straight_order=order)))


@lru_cache(maxsize=None)
def _union_signs(masks: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """``{U: sum over sets S of masks with union U of (-1)^|S|}`` (non-zero entries only)."""
    acc = {0: 1}
    for m in masks:
        nxt = dict(acc)
        for u, c in acc.items():
            nxt[u | m] = nxt.get(u | m, 0) - c
        acc = nxt
    return tuple((u, c) for u, c in sorted(acc.items()) if c)


def _poly_coef(polys: Sequence[np.ndarray], n: int) -> int:
    """Coefficient of ``x^n`` in the product of the polynomials (int64, non-negative)."""
    acc = np.ones(1, dtype=np.int64)
    for p in polys:
        acc = np.convolve(acc, p)[: n + 1]
    return int(acc[n]) if n < len(acc) else 0


def _dict_mul(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for i, x in a.items():
        for j, y in b.items():
            out[i + j] = out.get(i + j, 0) + x * y
    return out


def _split(cards: frozenset[int]) -> tuple[list[int], list[int]]:
    """Per natural rank and per suit: number of the given cards."""
    by_rank, by_suit = [0] * 13, [0] * 4
    for c in cards:
        by_rank[c >> 2] += 1
        by_suit[c & 3] += 1
    return by_rank, by_suit


def _rank_weights(forced: frozenset[int], excluded: frozenset[int]) -> list[np.ndarray]:
    f, _ = _split(forced)
    e, _ = _split(excluded)
    out = []
    for r in range(13):
        w = np.zeros(5, dtype=np.int64)
        for c in range(f[r], 5):
            w[c] = math.comb(4 - f[r] - e[r], c - f[r])
        out.append(w)
    return out


def _state_dp(ww: list[np.ndarray], n: int, step: Callable[[Any, int, int], Any], init: Any) -> dict[Any, int]:
    """Hands of ``n`` cards by final state of a per-rank state machine (``step`` None = dead)."""
    start = np.zeros(n + 1, dtype=np.int64)
    start[0] = 1
    states = {init: start}
    for r in range(13):
        nxt: dict[Any, np.ndarray] = {}
        for st, vec in states.items():
            for c in range(5):
                w = int(ww[r][c])
                if not w or c > n:
                    continue
                ns = step(st, r, c)
                if ns is None:
                    continue
                acc = nxt.get(ns)
                if acc is None:
                    acc = nxt[ns] = np.zeros(n + 1, dtype=np.int64)
                acc[c:] += vec[: n + 1 - c] * w
        states = nxt
    return {st: int(vec[n]) for st, vec in states.items()}


def _multiplicity_step(st: tuple[int, int, int], r: int, c: int) -> tuple[int, int, int]:
    n2, n3, n4 = st
    return (min(n2 + (c >= 2), 2), min(n3 + (c >= 3), 1), min(n4 + (c >= 4), 1))


def _points_step(st: int, r: int, c: int) -> int | None:
    p = st + int(_POINTS[r]) * c
    return p if p < 3 else None


@lru_cache(maxsize=512)
def _hand_counts(n: int, forced: frozenset[int] = frozenset(), excluded: frozenset[int] = frozenset()) -> dict:
    """Numbers of ``n``-card hands ⊇ ``forced``, disjoint from ``excluded``, with each event.

    Keys: ``'total'``, the rank/flush/redeal metric names, and ``('straight', order)``,
    ``('straight_flush', order)`` for every ``straight_order``.
    """
    nf, ne = len(forced), len(excluded)
    out: dict[Any, int] = {"total": math.comb(52 - nf - ne, n - nf) if n >= nf else 0}
    ww = _rank_weights(forced, excluded)
    ge1 = [w * (np.arange(5) >= 1) for w in ww]

    mult = _state_dp(ww, n, _multiplicity_step, (0, 0, 0))
    out["pair"] = sum(v for (n2, _, _), v in mult.items() if n2 >= 1)
    out["two_pair"] = sum(v for (n2, _, _), v in mult.items() if n2 >= 2)
    out["triple"] = sum(v for (_, n3, _), v in mult.items() if n3 >= 1)
    out["four_of_a_kind"] = sum(v for (_, _, n4), v in mult.items() if n4 >= 1)
    out["full_house"] = sum(v for (n2, n3, _), v in mult.items() if n3 >= 1 and n2 >= 2)

    by_masks: dict[tuple[int, ...], tuple[int, int]] = {}
    f_rank, f_suit = _split(forced)
    e_rank, e_suit = _split(excluded)
    for order in STRAIGHT_ORDERS:
        masks = _window_masks(order)
        if masks not in by_masks:
            no_straight = sum(
                g * _poly_coef([ge1[r] if u >> r & 1 else ww[r] for r in range(13)], n) for u, g in _union_signs(masks)
            )
            suit_polys = []
            for s in range(4):
                fmask = sum(1 << r for r in range(13) if 4 * r + s in forced)
                emask = sum(1 << r for r in range(13) if 4 * r + s in excluded)
                poly: dict[int, int] = {}
                for u, g in _union_signs(masks):
                    if u & emask:
                        continue
                    k = bin(u & ~fmask).count("1")
                    poly[k] = poly.get(k, 0) + g
                suit_polys.append(poly)
            total_poly = {0: 1}
            for poly in suit_polys:
                total_poly = _dict_mul(total_poly, poly)
            no_sf = sum(
                coef * math.comb(52 - nf - ne - k, n - nf - k) for k, coef in total_poly.items() if n - nf - k >= 0
            )
            by_masks[masks] = (out["total"] - no_straight, out["total"] - no_sf)
        out[("straight", order)], out[("straight_flush", order)] = by_masks[masks]

    flush_polys = []
    for s in range(4):
        avail = 13 - f_suit[s] - e_suit[s]
        flush_polys.append(np.array([math.comb(avail, t) for t in range(max(0, 5 - f_suit[s]))] or [0], dtype=np.int64))
    out["flush"] = out["total"] - (_poly_coef(flush_polys, n - nf) if n >= nf else 0)
    out["dragon"] = _poly_coef(ge1, n)
    out["four_twos"] = _poly_coef(ww[:12] + [ww[12] * (np.arange(5) == 4)], n)
    out["redeal_points_lt_3"] = sum(_state_dp(ww, n, _points_step, 0).values())
    zero = [w * (np.arange(5) == 0) for w in ww]
    out["redeal_hk_max10"] = _poly_coef(ww[:8] + zero[8:], n)
    out["redeal_literal_min10"] = _poly_coef(zero[:7] + [ge1[7]] + ww[8:], n)
    return out


# --------------------------------------------------------------------------- the deal


def _receiver_terms(deck: int, players: int) -> tuple[list[tuple[int, int]], list[tuple[int, int]], int]:
    """Weights of the leftover receiver's hand (deck of ``deck`` cards in single-card order s_1 < s_2 …).

    Returns ``final, dealt, D``: the receiver's final ``h + r`` cards are a given set ``H`` with
    probability ``sum over (j, a) in final with {s_1 … s_j} ⊆ H of a / D``; its dealt ``h`` cards
    are a given set ``K`` with probability ``b / D`` for the ``(j, b)`` in ``dealt`` with ``min K = s_j``.

    >>> final, dealt, d = _receiver_terms(52, 3)
    >>> final, dealt, d == 52 * math.comb(50, 16)
    ([(1, 17), (2, 1)], [(1, 35), (2, 1)], True)
    """
    h, r = divmod(deck, players)
    n = h + r
    final = [(j, math.comb(n - j, r - j + 1)) for j in range(1, r + 2)]
    dealt = [(j, math.comb(deck - h - j + 1, r - j + 1)) for j in range(1, r + 2)]
    return final, dealt, math.comb(deck, r) * math.comb(deck - r - 1, h - 1)


def _strength_order(rules: RuleSet) -> list[int]:
    """Card ids from the lowest single card up (``s_1 = rules.lowest_card()``)."""
    return [int(x) for x in np.argsort(rules.card_strength(), kind="stable")]


def _metric_counts(rules: RuleSet, players: int, hand: str, h: int) -> tuple[dict, int]:
    """Per-metric probabilities (Fractions) of the requested hand and its card count."""
    if hand == "dealt":
        cnt = _hand_counts(h)
        return {k: Fraction(v, cnt["total"]) for k, v in cnt.items() if k != "total"}, h
    _, r = divmod(52, players)
    order = _strength_order(rules)
    final, dealt_terms, denom = _receiver_terms(52, players)

    def mix(size: int, terms: list[tuple[int, int]], dealt_part: bool) -> dict:
        acc: dict[Any, int] = {}
        for j, a in terms:
            if not a:
                continue
            if dealt_part:
                cnt = _hand_counts(size, frozenset([order[j - 1]]), frozenset(order[: j - 1]))
            else:
                cnt = _hand_counts(size, frozenset(order[:j]))
            for k, v in cnt.items():
                acc[k] = acc.get(k, 0) + a * v
        assert acc.pop("total") == denom
        return {k: Fraction(v, denom) for k, v in acc.items()}

    if hand == "leftover_receiver":
        return mix(h + r, final, False), h + r
    plain = _metric_counts(rules, players, "dealt", h)[0]
    recv_dealt = mix(h, dealt_terms, True)
    if hand == "non_receiver":
        return {k: (players * plain[k] - recv_dealt[k]) / (players - 1) for k in plain}, h
    recv = mix(h + r, final, False)
    return {k: plain[k] + (recv[k] - recv_dealt[k]) / players for k in plain}, h


def _compositions(total: int, bounds: Sequence[int]):
    """Every vector ``0 <= y_c <= bounds[c]`` with ``sum y = total``."""
    if not bounds:
        if total == 0:
            yield ()
        return
    rest = sum(bounds[1:])
    for y in range(max(0, total - rest), min(bounds[0], total) + 1):
        for tail in _compositions(total - y, bounds[1:]):
            yield (y,) + tail


def _any_eligible(card_class: Sequence[int], eligible: Callable[[Sequence[int]], bool], players: int) -> Fraction:
    """P(some seat's final hand is ``eligible``) for a deck dealt as in §2.

    ``card_class[i]`` is the class of the ``i``-th lowest card (single-card order);
    ``eligible`` judges a hand by its number of cards of each class.  Works for any deck
    size (tiny decks are checked by full enumeration in the tests).
    """
    deck = len(card_class)
    h, r = divmod(deck, players)
    k_cls = max(card_class) + 1
    sizes = tuple(sum(1 for c in card_class if c == k) for k in range(k_cls))
    comps = [e for e in _compositions(h, sizes) if eligible(e)]
    used = tuple(any(e[c] for e in comps) for c in range(k_cls))

    # T[k][u]: ordered k-tuples of eligible hands splitting a fixed pool with class counts u
    tables: list[dict[tuple[int, ...], int]] = [{(0,) * k_cls: 1}]
    while len(tables) < players and tables[-1]:
        nxt: dict[tuple[int, ...], int] = {}
        for u, t in tables[-1].items():
            for e in comps:
                v = tuple(a + b for a, b in zip(u, e))
                if any(a > s for a, s in zip(v, sizes)):
                    continue
                ways = t
                for a, b in zip(u, e):
                    ways *= math.comb(a + b, b)
                nxt[v] = nxt.get(v, 0) + ways
        tables.append(nxt)

    others = players - 1
    cache: dict[tuple, Fraction] = {}

    def p_some(pool: tuple[int, ...]) -> Fraction:
        """P(some of the ``others`` seats, dealt ``h`` each from ``pool``, is eligible)."""
        key = tuple(p if u else -1 for p, u in zip(pool, used)) + (sum(pool),)
        if key in cache:
            return cache[key]
        size = sum(pool)
        acc = Fraction(0)
        den = 1
        for k in range(1, others + 1):
            den *= math.comb(size - (k - 1) * h, h)  # ordered k-tuples of disjoint h-sets
            if k >= len(tables) or not tables[k]:
                break
            num = 0
            for u, t in tables[k].items():
                w = t
                for a, b in zip(pool, u):
                    if b:
                        w *= math.comb(a, b)
                num += w
            if num:
                acc += (-1) ** (k + 1) * math.comb(others, k) * Fraction(num, den)
        cache[key] = acc
        return acc

    # L and m = the lowest card not in L, by the class counts of L and the class of m
    joint: dict[tuple[tuple[int, ...], int], int] = {}
    prefix = [0] * k_cls
    after = list(sizes)
    for j in range(r + 1):  # m is the (j+1)-th lowest card: the j lower ones are all in L
        mu = card_class[j]
        after[mu] -= 1
        for y in _compositions(r - j, after):
            w = 1
            for a, b in zip(after, y):
                w *= math.comb(a, b)
            key = (tuple(p + b for p, b in zip(prefix, y)), mu)
            joint[key] = joint.get(key, 0) + w
        prefix[mu] += 1
    total = Fraction(0)
    pool_size = deck - r - 1
    extra_den = math.comb(pool_size, h - 1)
    for (ell, mu), w in joint.items():
        base = list(ell)
        base[mu] += 1
        pool = tuple(s - b for s, b in zip(sizes, base))
        q = p_some(pool)
        for x in _compositions(h - 1, pool):
            if not eligible([b + a for b, a in zip(base, x)]):
                continue
            ways = 1
            for a, b in zip(pool, x):
                ways *= math.comb(a, b)
            rest = tuple(a - b for a, b in zip(pool, x))
            q += Fraction(ways, extra_den) * (1 - p_some(rest))
        total += w * q
    return total / math.comb(deck, r)


def _table_redeal(rules: RuleSet, players: int) -> dict[str, Fraction]:
    """P(some seat may redeal) under each redeal rule (only the ranks in single-card order matter)."""
    return _table_redeal_cached(tuple(c >> 2 for c in _strength_order(rules)), players)


@lru_cache(maxsize=256)
def _table_redeal_cached(ranks: tuple[int, ...], players: int) -> dict[str, Fraction]:
    out = {}
    for rule in _REDEAL_RULES:
        rank_class, test = _REDEAL_CLASSES[rule]
        out[f"table_redeal_{rule}"] = _any_eligible([rank_class[r] for r in ranks], test, players)
    return out


def _row(rules: RuleSet, players: int, h: int, metric: str, f: Fraction, breakdown=None, level=None) -> dict:
    return {
        "game": "big-two",
        "rules": rules.name,
        "players": players,
        "hand": h,
        "metric": metric,
        "breakdown": breakdown,
        "level": level,
        "value": float(f),
        "exact": f"{f.numerator}/{f.denominator}",
        "method": "exact",
    }


_PLAIN_METRICS = (
    "pair",
    "two_pair",
    "triple",
    "four_of_a_kind",
    "full_house",
    "straight",
    "flush",
    "straight_flush",
    "dragon",
    "four_twos",
    "redeal_points_lt_3",
    "redeal_hk_max10",
    "redeal_literal_min10",
)


def check_hand_kind(players: Any, hand: Any) -> str:
    """The hand kind a person asked for (``--hand``), refused where it means nothing new.

    With ``52 mod players == 0`` no card is left over: :func:`deal_odds` still defines
    ``'leftover_receiver'`` (the ♦3 holder's hand) and ``'non_receiver'``, but a user who
    asks for the leftover receiver's odds at 4 players asks about cards that are not
    there, so the command line refuses it (RulesError) instead of answering another
    question.

    Examples
    --------
    >>> from kaptai.bigtwo.odds import check_hand_kind
    >>> check_hand_kind(3, "leftover_receiver")
    'leftover_receiver'
    >>> check_hand_kind(4, "leftover_receiver")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: --hand leftover_receiver does not apply with 4 players: 52 cards deal evenly, no card is left over (use --hand dealt)
    """
    players = validate_players(players)
    if hand not in HAND_KINDS:
        raise RulesError(f"hand={quote_token(hand)} is not supported: expected one of {', '.join(map(repr, HAND_KINDS))}")
    if hand in ("leftover_receiver", "non_receiver") and 52 % players == 0:
        raise RulesError(
            f"--hand {hand} does not apply with {players} players: 52 cards deal evenly, no card is left over "
            "(use --hand dealt)"
        )
    return hand


def _hand_size(hand_size: object) -> int:
    """``hand_size`` as an int from 1 to 52, else RulesError naming it."""
    if isinstance(hand_size, bool) or not isinstance(hand_size, Integral) or not 1 <= int(hand_size) <= 52:
        raise RulesError(f"hand_size={quote_token(hand_size)} is not supported: expected 1 to 52")
    return int(hand_size)


def deal_odds(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    hand_size: int | None = None,
    hand: str = "dealt",
) -> pd.DataFrame:
    """Exact probabilities of what one hand holds, and of a redeal at the table.

    Parameters
    ----------
    players : int
        2-52; each seat is dealt ``h = 52 // players`` cards (13 for four players) and the
        ``r = 52 mod players`` leftovers go to the holder of the lowest dealt card (§2).
    rules : RuleSet, str, mapping or None
        ``straight_order`` picks the straights of the ``straight`` and ``straight_flush``
        rows (every order is also reported, as ``straight_by_order`` and
        ``straight_flush_by_order`` with ``breakdown='straight_order'``); ``suit_order`` and
        ``top_rank`` decide who receives the leftovers.  The redeal rows are for every
        ``redeal`` rule, whatever ``rules.redeal`` is.
    hand_size : int, optional
        Override the hand size of a ``'dealt'`` hand: a uniformly random hand of that many
        cards (the ``table_redeal_*`` rows still describe the real deal of ``players``).
    hand : {'dealt', 'leftover_receiver', 'non_receiver', 'seat_average'}
        ``'dealt'`` (default): a seat's ``h`` dealt cards, a uniformly random ``h``-set.
        ``'leftover_receiver'``: the final ``h + r`` cards of the seat that receives the
        leftovers under the real dealing procedure (it always holds the lowest card and is
        not a uniform ``(h + r)``-set; 18 cards at three players).  ``'non_receiver'``: the
        ``h`` cards of a seat that receives no leftovers.  ``'seat_average'``: the final
        hand of a seat chosen at random (receiver with probability ``1 / players``).  The
        ``hand`` column gives the card count (``h`` for ``'seat_average'``).

    Returns
    -------
    pandas.DataFrame
        Tidy table, columns ``game, rules, players, hand, metric, breakdown, level, value,
        exact, method``: ``value`` a float probability, ``exact`` the fraction ``'p/q'``,
        ``method`` ``'exact'``.  Metrics (probability of holding at least): ``pair``,
        ``two_pair`` (two different ranks with 2+ cards), ``triple``, ``four_of_a_kind``,
        ``full_house`` (a triple and a pair of another rank), ``straight`` (five ranks of
        one of the ``straight_order`` runs), ``flush`` (5+ of a suit), ``straight_flush``,
        ``dragon`` (all 13 ranks, 一條龍), ``four_twos`` (四字D), and the redeal-eligible
        hands ``redeal_points_lt_3``, ``redeal_hk_max10``, ``redeal_literal_min10``;
        then, for the whole table (final hands, leftovers included),
        ``table_redeal_points_lt_3``, ``table_redeal_hk_max10``,
        ``table_redeal_literal_min10``: the probability that at least one seat may
        request a redeal under that rule.  Each of these metrics is one row (``breakdown``
        None; straights under the ruleset's ``straight_order``); the per-order rows are
        ``straight_by_order`` and ``straight_flush_by_order`` (``level`` = the order).
        ``df.attrs['hand_kind']`` records ``hand``.

    Examples
    --------
    >>> from kaptai.bigtwo.odds import deal_odds
    >>> df = deal_odds(4)
    >>> df.query("metric == 'straight_by_order'")[["level", "value"]].round(4).values.tolist()
    [['hk', 0.5593], ['sequential', 0.5184], ['poker', 0.5593], ['wheel_top', 0.5593], ['broadway_top', 0.5593]]
    >>> p = deal_odds(5, hand="leftover_receiver").set_index("metric").value  # 10 + 2 cards
    >>> round(float(p["flush"]), 4), float(p["redeal_literal_min10"])  # it always holds ♦3
    (0.4935, 0.0)
    """
    rules = resolve_rules(rules)
    players = validate_players(players)
    if hand not in HAND_KINDS:
        raise RulesError(f"hand={quote_token(hand)} is not supported: expected one of {', '.join(map(repr, HAND_KINDS))}")
    if hand_size is not None and hand != "dealt":
        raise RulesError(f"hand_size={quote_token(hand_size)} can only be combined with hand='dealt', not hand={quote_token(hand)}")
    h = 52 // players if hand_size is None else _hand_size(hand_size)
    probs, cards = _metric_counts(rules, players, hand, h)
    rows = []
    for metric in _PLAIN_METRICS:
        key = (metric, rules.straight_order) if metric in ("straight", "straight_flush") else metric
        rows.append(_row(rules, players, cards, metric, probs[key]))
    for metric, f in _table_redeal(rules, players).items():
        rows.append(_row(rules, players, cards, metric, f))
    for metric in ("straight", "straight_flush"):
        for order in STRAIGHT_ORDERS:
            rows.append(_row(rules, players, cards, f"{metric}_by_order", probs[(metric, order)], "straight_order",
                             order))
    return tidy_frame(
        rows, ODDS_COLUMNS, {"rules": rules.to_dict(), "players": players, "hand": cards, "hand_kind": hand}
    )


# --------------------------------------------------------------------------- best five-card hand


@lru_cache(maxsize=None)
def _profiles(h: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """Rank profiles ``(n0, …, n4)``: how many of the 13 ranks hold 0 … 4 cards of an ``h``-card hand."""
    out = []
    for n4 in range(min(13, h // 4) + 1):
        for n3 in range(min(13 - n4, (h - 4 * n4) // 3) + 1):
            for n2 in range(min(13 - n4 - n3, (h - 4 * n4 - 3 * n3) // 2) + 1):
                n1 = h - 4 * n4 - 3 * n3 - 2 * n2
                n0 = 13 - n1 - n2 - n3 - n4
                if n1 >= 0 and n0 >= 0:
                    out.append((n0, n1, n2, n3, n4))
    return tuple(out)


@lru_cache(maxsize=None)
def _no_flush_assignments(profile: tuple[int, ...]) -> int:
    """Suit assignments of one rank count vector with this profile having no suit with 5+ cards."""
    states: dict[tuple[int, ...], int] = {(0, 0, 0, 0): 1}
    for k in range(1, 5):
        subsets = list(itertools.combinations(range(4), k))
        for _ in range(profile[k]):
            nxt: dict[tuple[int, ...], int] = {}
            for st, v in states.items():
                for sub in subsets:
                    ns = list(st)
                    for s in sub:
                        ns[s] += 1
                    if max(ns) > 4:
                        continue
                    key = tuple(sorted(ns))
                    nxt[key] = nxt.get(key, 0) + v
            states = nxt
    return sum(states.values())


@lru_cache(maxsize=None)
def _straight_sets(masks: tuple[int, ...]) -> tuple[int, ...]:
    """Number of ``m``-subsets of the 13 ranks containing a window, for m = 0 … 13."""
    out = [0] * 14
    for s in range(1 << 13):
        if any(s & m == m for m in masks):
            out[bin(s).count("1")] += 1
    return tuple(out)


# rank class of the straight-flush DP: 0 no pair, 1 one pair, 2 one triple (n2 = 1),
# 3 two+ pairs no triple, 4 full house (triple + another pair), 5 four of a kind
_CLASS_STEP = np.array(
    [
        [0, 0, 1, 2, 5],
        [1, 1, 3, 4, 5],
        [2, 2, 4, 4, 5],
        [3, 3, 3, 4, 5],
        [4, 4, 4, 4, 5],
        [5, 5, 5, 5, 5],
    ]
)


@lru_cache(maxsize=None)
def _sf_by_class(h: int, masks: tuple[int, ...]) -> tuple[int, ...]:
    """``h``-card hands holding a straight flush among ``masks``, by rank class (see ``_CLASS_STEP``).

    DP along the straights' rank sequence (face order A 2 3 … K A 2) with, per suit, the length
    of the current run of that suit (capped at 4) and a found flag; a rank met twice in the
    sequence (the ace of A2345 … TJQKA) is fixed first, up to the suit symmetry.
    """
    starts = set()
    for m in masks:
        i = next(i for i in range(11) if sum(1 << r for r in _FACE[i : i + 5]) == m)
        starts.add(i)
    lo, hi = min(starts), max(starts) + 4
    seq = list(_FACE[lo : hi + 1])
    free = [r for r in range(13) if r not in seq]
    repeated = len(seq) != len(set(seq))
    if repeated and not (seq[0] == seq[-1] and len(set(seq)) == len(seq) - 1):
        raise NotImplementedError("straight windows with more than one wrapped rank")  # no such straight_order
    n = h
    comb4 = [math.comb(4, t) for t in range(5)]

    def shift(arr: np.ndarray, t: int) -> np.ndarray:
        out = np.zeros_like(arr)
        out[..., t:] = arr[..., : n + 1 - t]
        return out

    def free_rank(a: np.ndarray, f: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A rank in no straight: ``t`` cards in ``comb(4, t)`` ways, runs unchanged."""
        new_a, new_f = np.zeros_like(a), np.zeros_like(f)
        for t in range(min(4, n) + 1):
            for cls in range(6):
                nc = _CLASS_STEP[cls, t]
                new_a[nc] += comb4[t] * shift(a[cls], t)
                new_f[nc] += comb4[t] * shift(f[cls], t)
        return new_a, new_f

    def step(a: np.ndarray, f: np.ndarray, pos: int, fixed: int | None) -> tuple[np.ndarray, np.ndarray]:
        """The rank at sequence position ``pos``: choose its suit subset, or apply the ``fixed``
        one (a rank met again: its cards are counted already)."""
        completes = pos - 4 in starts  # a straight ends here
        new_a = np.zeros_like(a)
        if fixed is None:
            new_f = np.zeros_like(f)
            for t in range(min(4, n) + 1):
                moved = comb4[t] * shift(f, t)
                for cls in range(6):
                    new_f[_CLASS_STEP[cls, t]] += moved[cls]
        else:
            new_f = f.copy()
        for sub in range(16) if fixed is None else [fixed]:
            ins = [s for s in range(4) if sub >> s & 1]
            outs = [s for s in range(4) if not sub >> s & 1]
            t = len(ins)
            if t > n:
                continue
            # suits not chosen: their runs end (sum them out, put them at run 0)
            b = a.sum(axis=tuple(1 + s for s in outs), keepdims=True) if outs else a
            dest = [slice(None)] * 6
            found = None
            if completes:  # a chosen suit with a run of 4 makes the straight flush
                keep = [slice(None)] * 6
                for s in ins:
                    keep[1 + s] = slice(0, 4)
                moved = b[tuple(keep)]
                found = b.sum(axis=(1, 2, 3, 4)) - moved.sum(axis=(1, 2, 3, 4))
                for s in range(4):
                    dest[1 + s] = slice(1, 5) if s in ins else slice(0, 1)
            else:  # runs grow, capped at 4
                moved = b
                for s in ins:
                    grown = np.zeros_like(moved)
                    src, dst, top = [slice(None)] * 6, [slice(None)] * 6, [slice(None)] * 6
                    src[1 + s], dst[1 + s], top[1 + s] = slice(0, 4), slice(1, 5), slice(4, 5)
                    grown[tuple(dst)] = moved[tuple(src)]
                    grown[tuple(top)] += moved[tuple(top)]
                    moved = grown
                for s in range(4):
                    dest[1 + s] = slice(None) if s in ins else slice(0, 1)
            if fixed is None:
                moved = shift(moved, t)
                found = None if found is None else shift(found, t)
                for cls in range(6):
                    nc = _CLASS_STEP[cls, t]
                    new_a[(nc,) + tuple(dest[1:])] += moved[cls]
                    if found is not None:
                        new_f[nc] += found[cls]
            else:
                new_a[tuple(dest)] += moved
                if found is not None:
                    new_f += found
        return new_a, new_f

    total = np.zeros(6, dtype=object)
    # the rank met twice (the ace) holds its first c suits, up to the suit symmetry: comb(4, c) ways
    first_choices = [(c, comb4[c]) for c in range(min(4, n) + 1)] if repeated else [(0, 1)]
    for c_first, weight in first_choices:
        a = np.zeros((6, 5, 5, 5, 5, n + 1), dtype=np.int64)  # class, run per suit (♦♣♥♠), cards
        f = np.zeros((6, n + 1), dtype=np.int64)  # straight flush found: class, cards
        if repeated:
            runs = tuple(1 if s < c_first else 0 for s in range(4))
            a[(int(_CLASS_STEP[0, c_first]),) + runs + (c_first,)] = 1
            positions = range(lo + 1, hi)
        else:
            a[0, 0, 0, 0, 0, 0] = 1
            positions = range(lo, hi + 1)
        for _ in free:
            a, f = free_rank(a, f)
        for pos in positions:
            a, f = step(a, f, pos, None)
        if repeated:
            a, f = step(a, f, hi, (1 << c_first) - 1)
        total += weight * f[:, n].astype(object)
    return tuple(int(x) for x in total)


def _best_five_counts(h: int, masks: tuple[int, ...], two_pair_five: bool, quad_optional: bool) -> dict[str, int]:
    """Numbers of ``h``-card hands by best five-card category (:data:`BEST_FIVE_LEVELS`)."""
    five = h >= 5
    quad_ok = five or (quad_optional and h >= 4)
    s_sets = _straight_sets(masks)
    fact = math.factorial
    counts = dict.fromkeys(BEST_FIVE_LEVELS, 0)
    flush_low = 0
    for prof in _profiles(h):
        n0, n1, n2, n3, n4 = prof
        present = 13 - n0
        arrange = fact(present) // (fact(n1) * fact(n2) * fact(n3) * fact(n4))
        vectors = arrange * fact(13) // (fact(n0) * fact(present))
        w = 4**n1 * 6**n2 * 4**n3
        if quad_ok and n4 >= 1:
            counts["four_of_a_kind"] += vectors * w
            continue
        if five and n3 + n4 >= 1 and n2 + n3 + n4 >= 2:
            counts["full_house"] += vectors * w
            continue
        no_flush = _no_flush_assignments(prof) if five else w
        flush_low += vectors * (w - no_flush)
        straight = s_sets[present] * arrange if five else 0
        counts["straight"] += straight * no_flush
        low = "two_pair_plus_one" if two_pair_five and five and n2 + n3 + n4 >= 2 else "none"
        counts[low] += (vectors - straight) * no_flush
    sf = _sf_by_class(h, masks) if five else (0,) * 6
    sf_quad, sf_fh = sf[5], sf[4]
    sf_low = sum(sf) - sf_quad - sf_fh
    counts["straight_flush"] = sum(sf)
    counts["four_of_a_kind"] -= sf_quad
    counts["full_house"] -= sf_fh
    counts["flush"] = flush_low - sf_low
    return counts


def best_hand_distribution(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    hand_size: int | None = None,
) -> pd.DataFrame:
    """Exact distribution of the best five-card hand one dealt hand can form.

    Parameters
    ----------
    players : int
        2-52; the hand has ``52 // players`` cards (a uniformly random dealt hand).
    rules : RuleSet, str, mapping or None
        ``straight_order`` picks the rows with ``breakdown`` None (every order is also
        reported); ``two_pair_five`` adds the level ``two_pair_plus_one``;
        ``quad_kicker='optional'`` lets a bare quad count (only matters for 4-card hands).
        ``flush_compare``, ``straight_suit_card``, ``suit_order`` and ``top_rank`` order
        hands *within* a category and do not change these probabilities.
    hand_size : int, optional
        Override the hand size (1-52).

    Returns
    -------
    pandas.DataFrame
        Tidy table with the columns of :func:`deal_odds`: metric ``'best_five'``, ``level``
        the strongest category the hand holds (:data:`BEST_FIVE_LEVELS`, strongest first:
        ``straight_flush``, ``four_of_a_kind`` (a quad and a kicker), ``full_house``,
        ``flush``, ``straight``, [``two_pair_plus_one``], ``none``); ``breakdown`` None for
        the ruleset's ``straight_order``, then ``'straight_order=<order>'`` for each of the
        five orders.  The levels of each breakdown sum to 1.

    Examples
    --------
    >>> from kaptai.bigtwo.odds import best_hand_distribution
    >>> df = best_hand_distribution(4)
    >>> df[df.breakdown.isna()][["level", "value"]].round(4).values.tolist()
    [['straight_flush', 0.0168], ['four_of_a_kind', 0.0338], ['full_house', 0.444], ['flush', 0.3388], ['straight', 0.1106], ['none', 0.0559]]
    """
    rules = resolve_rules(rules)
    players = validate_players(players)
    h = 52 // players if hand_size is None else _hand_size(hand_size)
    total = math.comb(52, h)
    levels = [lv for lv in BEST_FIVE_LEVELS if lv != "two_pair_plus_one" or rules.two_pair_five]
    by_order = {}
    for order in STRAIGHT_ORDERS:
        counts = _best_five_counts(h, _window_masks(order), rules.two_pair_five, rules.quad_kicker == "optional")
        assert sum(counts.values()) == total, counts
        by_order[order] = counts
    rows = []
    for breakdown, order in [(None, rules.straight_order)] + [(f"straight_order={o}", o) for o in STRAIGHT_ORDERS]:
        for lv in levels:
            rows.append(_row(rules, players, h, "best_five", Fraction(by_order[order][lv], total), breakdown, lv))
    return tidy_frame(rows, ODDS_COLUMNS, {"rules": rules.to_dict(), "players": players, "hand": h})
