"""Tidy result tables shared by every game.

Every result of kaptai is a long ("tidy") :class:`pandas.DataFrame`: one row per
observation with a ``metric`` and a ``value`` column, the breakdown in
``breakdown``/``level``, and ``method`` ('exact' or 'monte_carlo').  Provenance
(package version, rules, seeds) goes in ``df.attrs``.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

import pandas as pd

from kaptai._version import __version__

__all__ = ["exact_fraction", "tidy_frame", "to_json_records", "hypergeometric_total", "MONTE_CARLO_COLUMNS", "FAIRNESS_COLUMNS"]


#: Columns of every game's Monte Carlo table (``simulate``): the JSON row shape of
#: ``kaptai simulate``.
MONTE_CARLO_COLUMNS: tuple[str, ...] = (
    "game", "rules", "players", "metric", "seat", "relative_to", "level",
    "value", "ci_low", "ci_high", "samples", "method",
)
#: Columns of every game's fairness table (``compare_variants``): the JSON row shape of
#: ``kaptai fairness``.
FAIRNESS_COLUMNS: tuple[str, ...] = (
    "variant", "players", "settlement", "house_cut", "metric", "seat", "relative_to",
    "value", "ci_low", "ci_high", "samples", "method",
)

def hypergeometric_total(copies: Iterable[int], size: int) -> int:
    """Number of equally likely ``size``-tile deals from the multiset ``copies``.

    The weight of one count vector ``c`` is ``prod(comb(copies[i], c[i]))``;
    the weights of all vectors of ``size`` tiles add up to this number.

    >>> hypergeometric_total([4, 2], 2)
    15
    """
    return math.comb(sum(int(k) for k in copies), size)


def exact_fraction(weight: int, total: int) -> Fraction:
    """An exact probability from integer weights (no float accumulation).

    >>> exact_fraction(3, 12)
    Fraction(1, 4)
    """
    return Fraction(int(weight), int(total))


def tidy_frame(rows: Sequence[Mapping[str, Any]], columns: list[str], attrs: Mapping[str, Any]) -> pd.DataFrame:
    """Build a tidy DataFrame with fixed column order and provenance in ``attrs``."""
    df = pd.DataFrame(list(rows), columns=columns)
    df.attrs.update({"kaptai_version": __version__, **attrs})
    return df


def to_json_records(df: pd.DataFrame) -> str:
    """A JSON list of row objects (NaN/None become null)."""
    records = json.loads(df.to_json(orient="records"))
    return json.dumps(records, ensure_ascii=False, indent=1)
