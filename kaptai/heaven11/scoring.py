"""Scoring of a Heaven Eleven (天牌十一) hand, ``docs/rules/heaven-eleven.md`` §5.

With ``t0`` the declarer's tricks, ``t1..t3`` the defenders' (in play order from the
declarer) and ``b`` the contract number:

* draw (和局): ``b = 0`` and tricks ``4/3/3/3`` -> nobody scores, the hand is replayed;
* origin grades (原始分數): ``m = t0 - 4`` and ``n_i = t_i - 3`` (they sum to 0);
* balance (持平): each defender with ``n_i >= 0`` receives ``n_i + 1`` from the declarer;
* match (到位, ``m = b``): each defender pays ``m``; over (超分, ``m > b``): the declarer pays
  ``m - b`` to each defender; short (``m < b``): nothing extra — or, under the option
  ``short_penalty='symmetric'`` (§6.10 alternative), the declarer pays ``b - m`` to each defender;
* the proposals of the rule-design search (:mod:`kaptai.heaven11.rules`, ``docs/design.md``):
  ``short_penalty='progressive'`` (a short declarer pays ``d (d + 1) / 2`` to each defender,
  ``d = b - m``), ``'contract'`` (``d + b``), ``match_bonus='half'`` (``m // 2``), ``'none'``
  or ``'half_capped'`` (``min(m // 2, 2)``), ``over_penalty='none'``;
* final = origin + all transfers, so ``sum(finals) == 0`` always (asserted on every result).

The strain never changes the score.

Examples
--------
>>> from kaptai.heaven11.scoring import score
>>> r = score("bid=3C tricks=7/2/2/2")
>>> r.finals, r.status
([12, -4, -4, -4], 'match')
>>> score("3C", "8/2/2/1").finals
[1, 0, 0, -1]
>>> score("0D", "4/3/3/3").draw
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from typing import Any, Mapping

import numpy as np

from kaptai.errors import quote_token
from kaptai.heaven11.cards import (
    InvalidBidError,
    InvalidTricksError,
    MAX_LEVEL,
    format_bid,
    format_tricks,
    parse_bid,
    parse_score_record,
    parse_tricks,
)
from kaptai.heaven11.rules import RuleSet, resolve_rules

__all__ = [
    "STATUSES",
    "ScoreResult",
    "score",
    "finals",
    "finals_array",
    "transfers",
    "trick_vectors",
    "score_table",
    "best_bid",
    "session_standings",
]

#: Declarer results: draw, short (m < b), match (m = b), over (m > b).
STATUSES: tuple[str, ...] = ("draw", "short", "match", "over")


@dataclass(frozen=True)
class ScoreResult:
    """The score of one hand, declarer first.

    Attributes
    ----------
    bid : (int, int)
        Level and strain.
    tricks : tuple of 4 int
    draw : bool
        和局: nobody scores, the hand is replayed.
    status : str
        ``'draw'``, ``'short'``, ``'match'`` or ``'over'``.
    origin : list of 4 int
        ``m, n1, n2, n3`` (all 0 in a draw).
    balance : list of 3 int
        持平 bonus each defender receives from the declarer (0 if none).
    match_points : int
        到位加分: what each defender pays the declarer (``m`` on a match, else 0).
    over_penalty : int
        超分懲罰: what the declarer pays each defender (``m - b`` when over, else 0).
    short_penalty : int
        What a short declarer pays each defender (``b - m`` under ``short_penalty='symmetric'``, else 0).
    finals : list of 4 int
        Final scores, ``sum == 0``.
    """

    bid: tuple[int, int]
    tricks: tuple[int, int, int, int]
    draw: bool
    status: str
    origin: list[int] = field(default_factory=list)
    balance: list[int] = field(default_factory=list)
    match_points: int = 0
    over_penalty: int = 0
    short_penalty: int = 0
    finals: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict.

        >>> score("1H", "4/3/3/3").to_dict()["finals"]
        [-3, 1, 1, 1]
        """
        return {
            "bid": format_bid(self.bid),
            "tricks": format_tricks(self.tricks),
            "draw": self.draw,
            "status": self.status,
            "origin": list(self.origin),
            "balance": list(self.balance),
            "match_points": self.match_points,
            "over_penalty": self.over_penalty,
            "short_penalty": self.short_penalty,
            "finals": list(self.finals),
        }


def _level(bid: Any) -> tuple[int, int]:
    if isinstance(bid, (int, np.integer)) and not isinstance(bid, bool):
        if not 0 <= bid <= MAX_LEVEL:
            raise InvalidBidError(f"invalid bid {quote_token(bid)} (token 1): level must be 0-9")
        return (int(bid), 0)
    b = parse_bid(bid)
    if b is None:
        raise InvalidBidError('invalid bid "PASS" (token 1): a pass has no declarer to score')
    return b


def transfers(b: int, m: int, codes: tuple[int, int, int] = (0, 0, 0)) -> tuple[int, int, int]:
    """``(match, over, short)``: what each defender pays the declarer on a match, and what the
    declarer pays each defender when over or short, for contract ``b``, origin grade ``m`` and
    the scoring codes ``(short_penalty, match_bonus, over_penalty)`` of
    :meth:`kaptai.heaven11.rules.RuleSet.scoring_codes` (``(0, 0, 0)``: the page as written).

    >>> transfers(3, 3), transfers(3, 5), transfers(3, 1)
    ((3, 0, 0), (0, 2, 0), (0, 0, 0))
    >>> [transfers(5, 1, (c, 0, 0))[2] for c in range(4)]   # shortfall 4: none, symmetric, progressive, contract
    [0, 4, 10, 9]
    >>> transfers(4, 4, (0, 1, 0)), transfers(4, 4, (0, 2, 0)), transfers(2, 5, (0, 0, 1))
    ((2, 0, 0), (0, 0, 0), (0, 0, 0))
    >>> [transfers(m, m, (0, 3, 0))[0] for m in range(10)]   # half_capped: m // 2, at most 2
    [0, 0, 1, 1, 2, 2, 2, 2, 2, 2]
    """
    short_code, match_code, over_code = codes
    match = over = short = 0
    if m == b:
        match = (m, m // 2, 0, min(m // 2, 2))[match_code]
    elif m > b:
        over = m - b if over_code == 0 else 0
    else:
        d = b - m
        short = (0, d, d * (d + 1) // 2, d + b)[short_code]
    return match, over, short


def _compute(b: int, t: tuple[int, int, int, int], codes: tuple[int, int, int]) -> tuple:
    if b == 0 and t == (4, 3, 3, 3):
        return True, "draw", [0, 0, 0, 0], [0, 0, 0], 0, 0, 0, [0, 0, 0, 0]
    m = t[0] - 4
    n = [x - 3 for x in t[1:]]
    balance = [ni + 1 if ni >= 0 else 0 for ni in n]
    match, over, short = transfers(b, m, codes)
    status = "match" if m == b else ("over" if m > b else "short")
    per_defender = -match + over + short
    f = [m + 3 * match - 3 * over - 3 * short - sum(balance)]
    f += [ni + bi + per_defender for ni, bi in zip(n, balance)]
    assert sum(f) == 0, (b, t, f)
    return False, status, [m] + n, balance, match, over, short, f


def score(bid: Any, tricks: Any = None, rules: RuleSet | str | Mapping | None = None) -> ScoreResult:
    """Score one hand.

    Parameters
    ----------
    bid : str, (level, strain), int or record
        The contract (``'3C'``, ``(3, 0)``, or a level 0-9), or a whole record
        ``'bid=3C tricks=7/2/2/2'`` when ``tricks`` is None.
    tricks : str or sequence of 4 int, optional
        ``'7/2/2/2'`` or ``(7, 2, 2, 2)``, declarer first, then the defenders in play order.
    rules : RuleSet, preset name, mapping or None
        Only ``short_penalty``, ``match_bonus`` and ``over_penalty`` change the score.

    Returns
    -------
    ScoreResult

    Raises
    ------
    InvalidBidError, InvalidTricksError, InvalidRecordError

    Examples
    --------
    >>> score("bid=2S tricks=5/5/2/1").finals
    [-2, 5, -1, -2]
    >>> score("2S", "5/5/2/1", rules="symmetric").finals
    [-5, 6, 0, -1]
    >>> score("5S", "5/5/2/1", rules={"short_penalty": "progressive"}).finals   # short by 4: 10 each
    [-32, 15, 9, 8]
    >>> score("3C", "7/2/2/1")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.cards.InvalidTricksError: tricks 7/2/2/1 sum to 12, not 13
    """
    rules = resolve_rules(rules)
    if tricks is None:
        if not isinstance(bid, str):
            raise InvalidBidError(f"score(record) needs a record string such as 'bid=3C tricks=7/2/2/2', got {quote_token(bid)}")
        b, t = parse_score_record(bid)
    else:
        b, t = _level(bid), parse_tricks(tricks)
    draw, status, origin, balance, match, over, short, f = _compute(b[0], t, rules.scoring_codes())
    return ScoreResult(b, t, draw, status, origin, balance, match, over, short, f)


def finals(level: int, tricks: Any, rules: RuleSet | str | Mapping | None = None) -> list[int]:
    """The four final scores only.

    >>> finals(9, (13, 0, 0, 0))
    [36, -12, -12, -12]
    """
    return score(level, tricks, rules).finals


def finals_array(levels: Any, tricks: Any, short_penalty: str = "none", match_bonus: str = "level",
                 over_penalty: str = "per_trick") -> np.ndarray:
    """Vectorised finals: ``levels`` shape ``(n,)``, ``tricks`` shape ``(n, 4)`` -> ``(n, 4)`` int64.

    Inputs are trusted (engine outcomes); draws score 0.  The three scoring options take the
    values of :data:`kaptai.heaven11.rules.OPTION_VALUES`.

    >>> finals_array([3, 0], [[7, 2, 2, 2], [4, 3, 3, 3]]).tolist()
    [[12, -4, -4, -4], [0, 0, 0, 0]]
    >>> finals_array([5], [[5, 5, 2, 1]], "progressive").tolist()
    [[-32, 15, 9, 8]]
    """
    b = np.asarray(levels, dtype=np.int64)
    t = np.asarray(tricks, dtype=np.int64).reshape(-1, 4)
    codes = RuleSet(short_penalty=short_penalty, match_bonus=match_bonus, over_penalty=over_penalty).scoring_codes()
    m = t[:, 0] - 4
    n = t[:, 1:] - 3
    bal = np.where(n >= 0, n + 1, 0)
    match = np.where(m == b, (m, m // 2, 0 * m, np.minimum(m // 2, 2))[codes[1]], 0)
    over = np.where(m > b, m - b, 0) if codes[2] == 0 else np.zeros_like(m)
    d = b - m
    short = np.where(m < b, (0 * d, d, d * (d + 1) // 2, d + b)[codes[0]], 0)
    out = np.empty((len(b), 4), dtype=np.int64)
    out[:, 0] = m + 3 * match - 3 * over - 3 * short - bal.sum(axis=1)
    out[:, 1:] = n + bal + (-match + over + short)[:, None]
    draw = (b == 0) & (t[:, 0] == 4) & (t[:, 1] == 3) & (t[:, 2] == 3) & (t[:, 3] == 3)
    out[draw] = 0
    assert (out.sum(axis=1) == 0).all(), "zero-sum violated"
    return out


def trick_vectors() -> list[tuple[int, int, int, int]]:
    """The 560 ordered trick vectors ``(t0, t1, t2, t3)``, ``t_i >= 0``, summing to 13.

    >>> v = trick_vectors()
    >>> len(v), v[0], v[-1]
    (560, (0, 0, 0, 13), (13, 0, 0, 0))
    """
    return [(a, b, c, 13 - a - b - c) for a, b, c in product(range(14), repeat=3) if a + b + c <= 13]


def score_table(rules: RuleSet | str | Mapping | None = None):
    """The full score table: every bid level 0-9 x every trick vector (5,600 rows).

    Returns
    -------
    pandas.DataFrame
        Columns ``level, t0, t1, t2, t3, status, f0, f1, f2, f3``.

    Examples
    --------
    >>> df = score_table()
    >>> len(df), int(df[["f0", "f1", "f2", "f3"]].sum(axis=1).abs().max())
    (5600, 0)
    """
    import pandas as pd

    rules = resolve_rules(rules)
    codes = rules.scoring_codes()
    rows = []
    for level in range(MAX_LEVEL + 1):
        for t in trick_vectors():
            _, status, _, _, _, _, _, f = _compute(level, t, codes)
            rows.append((level, *t, status, *f))
    return pd.DataFrame(rows, columns=["level", "t0", "t1", "t2", "t3", "status", "f0", "f1", "f2", "f3"])


def best_bid(distribution: Mapping[tuple[int, int, int, int], Any],
             rules: RuleSet | str | Mapping | None = None) -> tuple[int, Fraction | float, dict[int, Any]]:
    """The level that maximises the declarer's expected final score under a trick distribution.

    Parameters
    ----------
    distribution : mapping trick vector -> probability (or weight)
        P(t0, t1, t2, t3); weights are normalised.  Fractions stay exact.

    Returns
    -------
    (int, number, dict)
        The best level (ties: the lowest), its EV, and the EV of every level.  A drawn
        hand counts 0 here (it would be replayed).

    Examples
    --------
    >>> lvl, ev, _ = best_bid({(7, 2, 2, 2): Fraction(1, 2), (8, 2, 2, 1): Fraction(1, 2)})
    >>> lvl, ev
    (4, Fraction(19, 2))
    """
    rules = resolve_rules(rules)
    codes = rules.scoring_codes()
    if not isinstance(distribution, Mapping):
        raise InvalidTricksError(f"distribution: expected a mapping of trick vectors to probabilities, got "
                                 f"{type(distribution).__name__} {quote_token(distribution)}")
    items = [(parse_tricks(t), w) for t, w in distribution.items()]
    for t, w in items:  # probabilities (or weights): real, finite, >= 0, and not all 0
        if isinstance(w, (bool, np.bool_)) or not isinstance(w, (int, float, Fraction, np.integer, np.floating)) \
                or not w >= 0 or w == float("inf"):
            raise InvalidTricksError(f"distribution: the probability of {t} is {quote_token(w)}: expected a number >= 0")
    total = sum(w for _, w in items)
    if not total > 0:
        raise InvalidTricksError("distribution: expected at least one trick vector with a probability above 0")
    evs = {}
    for level in range(MAX_LEVEL + 1):
        evs[level] = sum(w * _compute(level, t, codes)[-1][0] for t, w in items) / total
    best = max(range(MAX_LEVEL + 1), key=lambda lv: (evs[lv], -lv))
    return best, evs[best], evs


def session_standings(hand_finals: Any) -> dict[str, Any]:
    """Cumulative totals over hands, places (ties share) and margins behind the leader.

    >>> session_standings([[12, -4, -4, -4], [-3, 1, 1, 1]])
    {'totals': [9, -3, -3, -3], 'places': [1, 2, 2, 2], 'margins': [0, 12, 12, 12]}
    """
    arr = np.asarray(hand_finals, dtype=np.int64).reshape(-1, 4)
    totals = arr.sum(axis=0).tolist()
    places = [1 + sum(o > x for o in totals) for x in totals]
    top = max(totals)
    return {"totals": totals, "places": places, "margins": [top - x for x in totals]}
