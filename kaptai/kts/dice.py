"""Exact distribution of the first hand (先手) picked by the dealer's dice.

The dealer (莊家, seat 0) throws 2, 3 or 4 fair dice (see :func:`kaptai.kts.rules.n_dice`).
Counting starts at seat 1 as 1 and goes round in the direction of play, so the first hand
is seat ``total mod P``.  The dice make that seat non-uniform; this module computes the
distribution exactly with :class:`fractions.Fraction`.

Examples
--------
>>> from kaptai.kts.dice import first_hand_distribution
>>> dist = first_hand_distribution(2)
>>> dist[0], dist[1]
(Fraction(1, 2), Fraction(1, 2))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from numbers import Integral
from typing import TYPE_CHECKING, Any

from kaptai.errors import RulesError, quote_token
from kaptai.kts.rules import RuleSet, n_dice, resolve_rules, validate_players

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "DIE_FACES",
    "dice_total_counts",
    "dice_total_distribution",
    "first_hand_distribution",
    "first_hand_table",
]

#: Faces of one die.
DIE_FACES: int = 6


def dice_total_counts(dice: int) -> dict[int, int]:
    """Number of ways each total of ``dice`` fair six-sided dice occurs.

    Parameters
    ----------
    dice : int
        Number of dice, at least 1.

    Returns
    -------
    dict of int to int
        Total -> number of the ``6**dice`` equally likely outcomes giving it.

    Examples
    --------
    >>> from kaptai.kts.dice import dice_total_counts
    >>> dice_total_counts(2)[7], sum(dice_total_counts(3).values())
    (6, 216)
    """
    if isinstance(dice, bool) or not isinstance(dice, Integral) or dice < 1:
        raise RulesError(f"dice={quote_token(dice)} is not allowed: expected a positive integer")
    counts = {0: 1}
    for _ in range(int(dice)):
        nxt: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, DIE_FACES + 1):
                nxt[total + face] = nxt.get(total + face, 0) + ways
        counts = nxt
    return dict(sorted(counts.items()))


def dice_total_distribution(dice: int) -> dict[int, Fraction]:
    """Exact distribution of the total of ``dice`` fair six-sided dice.

    Examples
    --------
    >>> from kaptai.kts.dice import dice_total_distribution
    >>> dice_total_distribution(2)[7]
    Fraction(1, 6)
    """
    counts = dice_total_counts(dice)
    outcomes = DIE_FACES ** int(dice)
    return {total: Fraction(ways, outcomes) for total, ways in counts.items()}


def first_hand_distribution(
    players: int, rules: RuleSet | str | Mapping[str, Any] | None = None
) -> dict[int, Fraction]:
    """Exact distribution of the first-hand seat relative to the dealer.

    Parameters
    ----------
    players : int
        Player count ``P``, 2-22.
    rules : RuleSet, str, mapping or None
        Rules (see :func:`kaptai.kts.rules.resolve_rules`); only ``dice`` matters.

    Returns
    -------
    dict of int to Fraction
        Seat (0 = dealer, 1 = next in the direction of play, ...) -> probability that the
        seat is the first hand.  Every seat ``0 .. P-1`` is a key (some may have
        probability 0) and the values sum to exactly 1.

    Examples
    --------
    >>> from kaptai.kts.dice import first_hand_distribution
    >>> d = first_hand_distribution(4)
    >>> [str(d[s]) for s in range(4)]
    ['55/216', '55/216', '53/216', '53/216']
    >>> sum(d.values())
    Fraction(1, 1)
    >>> first_hand_distribution(22)[3]
    Fraction(0, 1)
    """
    p = validate_players(players)
    k = n_dice(p, resolve_rules(rules))
    outcomes = DIE_FACES**k
    ways = [0] * p
    for total, count in dice_total_counts(k).items():
        ways[total % p] += count
    return {seat: Fraction(w, outcomes) for seat, w in enumerate(ways)}


def first_hand_table(
    players: int | Iterable[int], rules: RuleSet | str | Mapping[str, Any] | None = None
) -> pd.DataFrame:
    """First-hand distribution as a tidy table, one row per (player count, seat).

    Parameters
    ----------
    players : int or iterable of int
        One player count or several (each 2-22).
    rules : RuleSet, str, mapping or None
        Rules; only ``dice`` matters.  ``rules.to_dict()`` is stored in ``df.attrs['rules']``.

    Returns
    -------
    pandas.DataFrame
        Columns ``players`` (int), ``dice`` (int), ``seat`` (int), ``probability``
        (float) and ``exact`` (str ``'p/q'``).

    Examples
    --------
    >>> from kaptai.kts.dice import first_hand_table
    >>> df = first_hand_table(3)
    >>> list(df.columns)
    ['players', 'dice', 'seat', 'probability', 'exact']
    >>> df["exact"].tolist()
    ['1/3', '1/3', '1/3']
    >>> len(first_hand_table(range(2, 5)))
    9
    """
    import pandas as pd

    resolved = resolve_rules(rules)
    counts = (
        list(players)
        if isinstance(players, Iterable) and not isinstance(players, str)
        else [players]
    )
    rows = []
    for p in counts:
        p = validate_players(p)
        k = n_dice(p, resolved)
        for seat, prob in first_hand_distribution(p, resolved).items():
            rows.append(
                {
                    "players": p,
                    "dice": k,
                    "seat": seat,
                    "probability": float(prob),
                    "exact": f"{prob.numerator}/{prob.denominator}",
                }
            )
    df = pd.DataFrame(rows, columns=["players", "dice", "seat", "probability", "exact"])
    df = df.astype({"players": "int64", "dice": "int64", "seat": "int64", "probability": "float64"})
    df.attrs["rules"] = resolved.to_dict()
    return df
