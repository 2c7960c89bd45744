"""Exact deal odds of Heaven Eleven (天牌十一), ``docs/rules/heaven-eleven.md``.

A 13-card hand is four suit holdings (13-bit rank sets) of sizes ``k_0 + … + k_3 = 13``, each
holding of size ``k`` one of ``C(13, k)`` equally likely rank sets.  An event that is a property
of single suits ("some suit holds a Q-K-A") is counted by the complement: with
``a_k`` = the number of ``k``-rank sets *without* the property, the number of hands in which no
suit has it is the coefficient of ``x^13`` in ``(sum_k a_k x^k)^4`` — exact integers, divided
once by ``C(52, 13)``.  Suit lengths are hypergeometric; the longest suit is counted the same
way with ``a_k = C(13, k)`` for ``k <= L``.

Which holdings contain a combination of a class comes from the compiled class table
(:func:`kaptai.heaven11.evaluate.key_tables`); the tests rebuild it with the pure-Python
reference and check the probabilities against Monte Carlo.

Examples
--------
>>> from kaptai.heaven11.odds import deal_odds
>>> df = deal_odds()
>>> p = df[df.breakdown.isna()].set_index("metric").value
>>> round(float(p["heaven_eleven_3"]), 6), round(float(p["any_special"]), 6)
(0.05126, 0.461192)
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any, Mapping

import numpy as np
import pandas as pd

from kaptai.core.tables import tidy_frame
from kaptai.heaven11.evaluate import CLASS_NAMES, CLASS_ORDER, key_tables
from kaptai.heaven11.rules import RuleSet, resolve_rules, validate_players

__all__ = ["SPECIALS", "ODDS_COLUMNS", "TOTAL_HANDS", "holding_flags", "count_hands_without",
           "deal_odds", "score_odds", "class_probability"]

#: The five special combinations (metric name -> (size, rank set as 13-bit mask)).
SPECIALS: dict[str, tuple[int, int]] = {
    "heaven_eleven_2": (2, 0x1800),        # K-A
    "big_continuing": (2, 0x0018),         # 5-6
    "heaven_eleven_3": (3, 0x1C00),        # Q-K-A
    "explosive_continuing": (3, 0x0070),   # 6-7-8
    "hole_in_the_middle": (3, 0x00A8),     # 5-7-9
}
#: Columns of the exact tables.
ODDS_COLUMNS: list[str] = ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value", "exact", "method"]
#: Number of 13-card hands.
TOTAL_HANDS: int = comb(52, 13)

_HOLDINGS = np.arange(8192, dtype=np.int64)
_POP = np.array([bin(m).count("1") for m in range(8192)], dtype=np.int64)


def holding_flags(rules: RuleSet | str | None = None) -> dict[str, np.ndarray]:
    """For each 13-bit holding of one suit: does it contain each class / special? (bool arrays).

    Keys ``'<class>_<size>'`` (e.g. ``'eleven_3'``), the :data:`SPECIALS` names and ``'any_special'``.

    >>> f = holding_flags()
    >>> bool(f["heaven_eleven_3"][0x1C00 | 1]), bool(f["heaven_eleven_3"][0x1800])
    (True, False)
    """
    rules = resolve_rules(rules)
    return _flags(rules.rank_points().tobytes(), rules.reduction)


@lru_cache(maxsize=16)
def _flags(points: bytes, reduction: str) -> dict[str, np.ndarray]:
    from kaptai.heaven11 import _eval

    pts = np.frombuffer(points, dtype=np.int64).copy()
    _, cls, _ = _eval.tables(pts, int(reduction == "once"))
    out: dict[str, np.ndarray] = {}
    for n in (1, 2, 3):
        subs = np.array([sum(1 << r for r in s) for s in combinations(range(13), n)], dtype=np.int64)
        contains = (_HOLDINGS[:, None] & subs[None, :]) == subs[None, :]
        for name in CLASS_ORDER[n]:
            code = CLASS_NAMES.index(name)
            out[f"{name}_{n}"] = contains[:, cls[subs] == code].any(axis=1)
    anyspec = np.zeros(8192, dtype=bool)
    for name, (_, m) in SPECIALS.items():
        out[name] = (_HOLDINGS & m) == m
        anyspec |= out[name]
    out["any_special"] = anyspec
    for a in out.values():
        a.setflags(write=False)
    return out


def count_hands_without(flag: np.ndarray, suits: int = 4, size: int = 13) -> int:
    """Number of ``size``-card hands in which no suit's holding has ``flag`` set (exact).

    >>> count_hands_without(np.zeros(8192, dtype=bool)) == TOTAL_HANDS
    True
    """
    a = [0] * 14
    for m in np.nonzero(~np.asarray(flag, dtype=bool))[0]:
        a[_POP[m]] += 1
    poly = [1]
    for _ in range(suits):
        new = [0] * min(len(poly) + 13, size + 1)
        for i, x in enumerate(poly):
            if x:
                for k, y in enumerate(a):
                    if i + k <= size:
                        new[i + k] += x * y
        poly = new
    return poly[size] if size < len(poly) else 0


def class_probability(name: str, rules: RuleSet | str | None = None) -> Fraction:
    """P(a 13-card hand holds ``name`` in at least one suit), exact.

    >>> class_probability("heaven_eleven_2")
    Fraction(9895443, 45023650)
    """
    f = holding_flags(rules)
    return Fraction(TOTAL_HANDS - count_hands_without(f[name]), TOTAL_HANDS)


def _row(rules: RuleSet, metric: str, f: Fraction, breakdown=None, level=None) -> dict:
    return {"game": "heaven-eleven", "rules": rules.name, "players": 4, "hand": 13, "metric": metric,
            "breakdown": breakdown, "level": level, "value": float(f),
            "exact": f"{f.numerator}/{f.denominator}", "method": "exact"}


def _patterns() -> dict[tuple[int, ...], int]:
    out: dict[tuple[int, ...], int] = {}
    for k0 in range(14):
        for k1 in range(14 - k0):
            for k2 in range(14 - k0 - k1):
                k3 = 13 - k0 - k1 - k2
                w = comb(13, k0) * comb(13, k1) * comb(13, k2) * comb(13, k3)
                key = tuple(sorted((k0, k1, k2, k3), reverse=True))
                out[key] = out.get(key, 0) + w
    return out


def deal_odds(players: int = 4, rules: RuleSet | str | Mapping | None = None) -> pd.DataFrame:
    """Exact odds of a dealt 13-card hand.

    Rows (``metric``):

    * the five specials ``heaven_eleven_2`` (K-A), ``big_continuing`` (5-6),
      ``heaven_eleven_3`` (Q-K-A), ``explosive_continuing`` (6-7-8), ``hole_in_the_middle``
      (5-7-9): P(that combination in at least one suit); ``any_special``: P(at least one of the
      five in some suit);
    * ``holds_class`` (``breakdown`` = ``'<class>_<size>'``): P(some suit holds a combination
      of that class) for every class of §3 (depends on ``point_scheme``/``reduction``);
    * ``suit_length`` (``level`` = k): P(a named suit has k cards), hypergeometric;
    * ``longest_suit`` (``level`` = L): P(the longest suit has L cards);
    * ``suit_pattern`` (``breakdown`` = e.g. ``'4-3-3-3'``): P(the sorted suit lengths).

    Examples
    --------
    >>> df = deal_odds()
    >>> L = df[df.metric == "longest_suit"].set_index("level").value
    >>> round(float(L[4]), 4), round(float(L.sum()), 12)
    (0.3508, 1.0)
    """
    validate_players(players)
    rules = resolve_rules(rules)
    flags = holding_flags(rules)
    rows: list[Mapping[str, Any]] = []
    for name in list(SPECIALS) + ["any_special"]:
        rows.append(_row(rules, name, class_probability(name, rules)))
    for n in (1, 2, 3):
        for name in CLASS_ORDER[n]:
            key = f"{name}_{n}"
            f = Fraction(TOTAL_HANDS - count_hands_without(flags[key]), TOTAL_HANDS)
            rows.append(_row(rules, "holds_class", f, key))
    for k in range(14):
        rows.append(_row(rules, "suit_length", Fraction(comb(13, k) * comb(39, 13 - k), TOTAL_HANDS), "named_suit", k))
    below = 0
    for L in range(4, 14):
        upto = count_hands_without(_POP > L)
        rows.append(_row(rules, "longest_suit", Fraction(upto - below, TOTAL_HANDS), None, L))
        below = upto
    for pat, w in sorted(_patterns().items(), key=lambda kv: -kv[1]):
        rows.append(_row(rules, "suit_pattern", Fraction(w, TOTAL_HANDS), "-".join(map(str, pat))))
    df = tidy_frame(rows, ODDS_COLUMNS, {"game": "heaven-eleven", "rules": rules.to_dict(), "total_hands": TOTAL_HANDS})
    df["level"] = df["level"].astype("Int64")
    return df


def score_odds(rules: RuleSet | str | Mapping | None = None) -> pd.DataFrame:
    """The full score table (every bid level x the 560 trick vectors) as a tidy frame.

    Columns ``level, t0..t3, status, f0..f3`` (:func:`kaptai.heaven11.scoring.score_table`) plus
    ``game, rules, method='exact'``.

    >>> df = score_odds()
    >>> len(df), int(df[(df.level == 3) & (df.t0 == 7) & (df.t1 == 2) & (df.t2 == 2)].f0.iloc[0])
    (5600, 12)
    """
    from kaptai.heaven11.scoring import score_table

    rules = resolve_rules(rules)
    df = score_table(rules)
    df.insert(0, "game", "heaven-eleven")
    df.insert(1, "rules", rules.name)
    df["method"] = "exact"
    df.attrs.update({"rules": rules.to_dict()})
    return df
