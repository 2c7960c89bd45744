"""Exact deal odds of Big Two (鋤大D): what one dealt hand holds (``rules/big-two.md`` §7).

Everything is exact combinatorics on integers, divided once at the end:

* rank-only events (pairs, triples, quads, full house, straights, dragon, four 2s, the
  ``redeal`` rules) — every *rank count vector* ``c`` (copies 0-4 of each of the 13 ranks,
  summing to the hand size) is enumerated once with weight ``prod comb(4, c[r])``;
* flush (five or more of one suit) — every suit count vector, weight ``prod comb(13, s)``;
* straight flush — inclusion–exclusion over the suited straights the hand contains: per
  suit the signed polynomial ``sum over sets S of straights (-1)^|S| x^|cards of S|``, the
  four suits multiplied, and a term of ``k`` forced cards weighted ``comb(52 - k, h - k)``.

A hand of ``h = 52 // players`` cards is a uniformly random ``h``-subset of the deck.  (The
hand that also receives the ``52 mod players`` leftover cards is not covered here.)

Examples
--------
>>> from kaptai.bigtwo.odds import deal_odds
>>> df = deal_odds(4)
>>> p = df.set_index("metric").value
>>> round(1 / p["dragon"]), round(float(p["pair"]), 6)
(9462, 0.999894)
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

import numpy as np
import pandas as pd

from kaptai.bigtwo.combos import straight_windows
from kaptai.bigtwo.rules import STRAIGHT_ORDERS, RuleSet, resolve_rules, validate_players
from kaptai.core.tables import tidy_frame

__all__ = ["deal_odds", "ODDS_COLUMNS", "rank_count_vectors"]

ODDS_COLUMNS = ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value", "exact", "method"]

#: Redeal points per natural rank (3 … 2): J=1 Q=2 K=3 A=4 2=5, others 0 (§4).
_POINTS = np.array([0] * 8 + [1, 2, 3, 4, 5], dtype=np.int64)


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


def _straight_flush_no(size: int, windows) -> int:
    """Number of ``size``-card hands with no straight flush among ``windows`` (inclusion–exclusion)."""
    masks = [m for m, _, _ in windows]
    poly = {}
    for sub in range(1 << len(masks)):
        union = 0
        bits = 0
        for i, m in enumerate(masks):
            if sub >> i & 1:
                union |= m
                bits += 1
        k = bin(union).count("1")
        poly[k] = poly.get(k, 0) + (-1) ** bits
    total = {0: 1}
    for _ in range(4):  # suits are independent in the product
        nxt: dict[int, int] = {}
        for a, x in total.items():
            for b, y in poly.items():
                nxt[a + b] = nxt.get(a + b, 0) + x * y
        total = nxt
    return sum(coef * math.comb(52 - k, size - k) for k, coef in total.items() if k <= size)


def _flush_yes(size: int) -> int:
    n = 0
    for s in range(14):
        for t in range(14):
            for u in range(14):
                v = size - s - t - u
                if 0 <= v <= 13 and max(s, t, u, v) >= 5:
                    n += math.comb(13, s) * math.comb(13, t) * math.comb(13, u) * math.comb(13, v)
    return n


def deal_odds(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    hand_size: int | None = None,
) -> pd.DataFrame:
    """Exact probabilities of what one dealt hand holds.

    Parameters
    ----------
    players : int
        2-52; the hand has ``52 // players`` cards (13 for four players).
    rules : RuleSet, str, mapping or None
        Only ``straight_order`` matters for ``straight``/``straight_flush`` (which are also
        reported for every ``straight_order`` with ``breakdown='straight_order'``).
    hand_size : int, optional
        Override the hand size (e.g. 18 for the three-player hand with the leftover card,
        treated as a uniformly random 18-card hand).

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
        hands ``redeal_points_lt_3``, ``redeal_hk_max10``, ``redeal_literal_min10``.
        Rows with ``breakdown`` None use the ruleset's ``straight_order``.

    Examples
    --------
    >>> from kaptai.bigtwo.odds import deal_odds
    >>> df = deal_odds(4)
    >>> df.query("metric == 'straight' and breakdown == 'straight_order'")[["level", "value"]].round(4).values.tolist()
    [['hk', 0.5593], ['sequential', 0.5184], ['poker', 0.5593], ['wheel_top', 0.5593], ['broadway_top', 0.5593]]
    """
    rules = resolve_rules(rules)
    players = validate_players(players)
    h = 52 // players if hand_size is None else int(hand_size)
    if not 1 <= h <= 52:
        from kaptai.errors import RulesError

        raise RulesError(f"hand_size={hand_size!r} is not supported: expected 1 to 52")
    total = math.comb(52, h)
    c, w = rank_count_vectors(h)
    n2 = (c >= 2).sum(axis=1)
    n3 = (c >= 3).sum(axis=1)

    def wsum(mask: np.ndarray) -> int:
        return int(w[mask].sum(dtype=np.int64))

    present = c >= 1
    counts: dict[str, int] = {
        "pair": wsum(n2 >= 1),
        "two_pair": wsum(n2 >= 2),
        "triple": wsum(n3 >= 1),
        "four_of_a_kind": wsum((c == 4).any(axis=1)),
        "full_house": wsum((n3 >= 1) & (n2 >= 2)),
    }
    straight_by_order = {}
    sf_by_order = {}
    for order in STRAIGHT_ORDERS:
        win = straight_windows(rules.replace(straight_order=order))
        has = np.zeros(len(c), dtype=bool)
        for m, _, _ in win:
            ranks = [r for r in range(13) if m >> r & 1]
            has |= present[:, ranks].all(axis=1)
        straight_by_order[order] = wsum(has)
        sf_by_order[order] = total - _straight_flush_no(h, win)
    counts["straight"] = straight_by_order[rules.straight_order]
    counts["flush"] = _flush_yes(h)
    counts["straight_flush"] = sf_by_order[rules.straight_order]
    counts["dragon"] = wsum(present.all(axis=1))
    counts["four_twos"] = wsum(c[:, 12] == 4)
    points = sum(c[:, r].astype(np.int16) * int(_POINTS[r]) for r in range(8, 13))
    counts["redeal_points_lt_3"] = wsum(points < 3)
    counts["redeal_hk_max10"] = wsum(~c[:, 8:].any(axis=1))
    counts["redeal_literal_min10"] = wsum(~c[:, :7].any(axis=1) & (c[:, 7] >= 1))

    rows = []

    def add(metric: str, n: int, breakdown: str | None = None, level: str | None = None) -> None:
        f = Fraction(n, total)
        rows.append(
            {
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
        )

    for metric, n in counts.items():
        add(metric, n)
    for order in STRAIGHT_ORDERS:
        add("straight", straight_by_order[order], "straight_order", order)
    for order in STRAIGHT_ORDERS:
        add("straight_flush", sf_by_order[order], "straight_order", order)
    return tidy_frame(rows, ODDS_COLUMNS, {"rules": rules.to_dict(), "players": players, "hand": h})
