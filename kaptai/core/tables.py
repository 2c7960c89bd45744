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
from numbers import Integral, Real
from typing import Any, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from kaptai._version import __version__

__all__ = ["exact_fraction", "tidy_frame", "to_json_records", "json_value", "standard_attrs", "hypergeometric_total",
           "conform_table", "TableContractError", "TEXT_COLUMNS",
           "MONTE_CARLO_COLUMNS", "FAIRNESS_COLUMNS", "STANDARD_ATTRS"]


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

#: ``df.attrs`` keys every table carries (None where they do not apply, e.g. no seed for
#: exact odds): the same names for every game and command.
STANDARD_ATTRS: tuple[str, ...] = ("game", "rules", "players", "seed_entropy", "policies", "samples", "version")


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


def _single(df: pd.DataFrame, column: str) -> Any:
    if column in df.columns and len(df):
        values = pd.unique(df[column].dropna())
        if len(values) == 1:
            return json_value(values[0])
        if len(values) > 1:
            return sorted(json_value(v) for v in values)
    return None


def standard_attrs(df: pd.DataFrame) -> dict[str, Any]:
    """The :data:`STANDARD_ATTRS` of a table, from its ``attrs`` and, where they lack a key,
    its columns and the older key names (``kaptai_version``; ``hands``/``games``/``sessions``
    for ``samples``).  Returns the attrs to add (the existing ones are kept).

    Examples
    --------
    >>> import pandas as pd
    >>> from kaptai.core.tables import standard_attrs
    >>> df = pd.DataFrame({"game": ["big-two"], "players": [4], "value": [0.5]})
    >>> df.attrs = {"games": 100, "kaptai_version": "0.1.0"}
    >>> a = standard_attrs(df)
    >>> a["game"], a["players"], a["samples"], a["version"], a["seed_entropy"]
    ('big-two', 4, 100, '0.1.0', None)
    """
    a = df.attrs
    out: dict[str, Any] = {}
    if "version" not in a:
        out["version"] = a.get("kaptai_version", __version__)
    if a.get("game") is None:
        out["game"] = _single(df, "game")
    if a.get("players") is None:
        out["players"] = _single(df, "players")
    if a.get("samples") is None:
        for key in ("hands", "games", "sessions"):
            if isinstance(a.get(key), Integral):
                out["samples"] = int(a[key])
                break
        else:
            out["samples"] = None
    for key in ("rules", "seed_entropy", "policies"):
        if key not in a:
            out[key] = None
    return out


def tidy_frame(rows: Sequence[Mapping[str, Any]], columns: list[str], attrs: Mapping[str, Any]) -> pd.DataFrame:
    """Build a tidy DataFrame with fixed column order and provenance in ``attrs``
    (:data:`STANDARD_ATTRS` always present)."""
    df = pd.DataFrame(list(rows), columns=columns)
    df.attrs.update({"version": __version__, **attrs})
    df.attrs.update(standard_attrs(df))
    return df


def json_value(v: Any) -> Any:
    """One cell as a JSON value: numbers exactly (a float keeps every digit: the shortest
    text that reads back as the same double), missing values as None, fractions as text.

    Examples
    --------
    >>> from kaptai.core.tables import json_value
    >>> import numpy as np
    >>> json_value(np.float64(0.00010568099371338212)), json_value(np.int64(3)), json_value(float("nan"))
    (0.00010568099371338212, 3, None)
    """
    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, Integral):
        return int(v)
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, Real):
        f = float(v)
        return f if math.isfinite(f) else None
    if isinstance(v, str):
        return v
    if isinstance(v, Mapping):
        return {str(k): json_value(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, np.ndarray)):
        return [json_value(x) for x in v]
    return str(v)


def to_json_records(df: pd.DataFrame) -> str:
    """A JSON list of row objects, every float exactly as in the DataFrame (it reads back as
    the same double), NaN/None as null.  ``level`` is text (or null) in every table, so a
    row has the same shape whatever command made it.

    Examples
    --------
    >>> import json, pandas as pd
    >>> from kaptai.core.tables import to_json_records
    >>> df = pd.DataFrame({"level": pd.array([1, None], dtype="Int64"), "value": [0.1 + 0.2, float("nan")]})
    >>> json.loads(to_json_records(df))
    [{'level': '1', 'value': 0.30000000000000004}, {'level': None, 'value': None}]
    """
    columns = [str(c) for c in df.columns]
    records = []
    for row in df.itertuples(index=False, name=None):
        rec = {c: json_value(v) for c, v in zip(columns, row)}
        if rec.get("level") is not None:
            rec["level"] = str(rec["level"])
        records.append(rec)
    return json.dumps(records, ensure_ascii=False, indent=1, allow_nan=False)


# --------------------------------------------------------------------------------------
# The table contract
# --------------------------------------------------------------------------------------

#: Columns that are text (or missing) in every table, whatever their values look like: a
#: ``level`` is a breakdown label (``'any'``, a policy, a count such as ``'3'``), never a number.
TEXT_COLUMNS: tuple[str, ...] = ("level",)


class TableContractError(RuntimeError):
    """A table that breaks the table contract in a way :func:`conform_table` cannot fix
    (cells that are containers or objects next to scalars, duplicate column names): a bug of
    the command that built it, not of its input."""


def _kind(v: Any) -> str | None:
    """The contract kind of one cell: None (missing), 'bool', 'int', 'float', 'text', or
    'other' (a container or an object with no column type)."""
    if v is None or v is pd.NA or v is pd.NaT:
        return None
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, Integral):
        return "int"
    if isinstance(v, Fraction):
        return "text"  # an exact fraction is written as text ('1/3'), as json_value does
    if isinstance(v, Real):
        return None if math.isnan(float(v)) else "float"
    if isinstance(v, str):
        return "text"
    return "other"


def _as_text(v: Any) -> Any:
    k = _kind(v)
    if k is None:
        return None
    if k == "other":
        raise TypeError(type(v).__name__)
    if k == "float" and float(v).is_integer() and abs(float(v)) < 2**53:
        return str(int(v))  # a count stored as float (3.0) is the label '3'
    j = json_value(v)
    return j if isinstance(j, str) else str(j)


def conform_table(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with one type per column, ready for every output format (table, csv, json,
    parquet), or TableContractError for what cannot be made so.

    The contract (every table of every command):

    - a :data:`TEXT_COLUMNS` column (``level``) is text or missing, whatever its values
      look like (``3`` becomes ``'3'``);
    - any other column holds one kind of value: an object column mixing kinds is made one
      -- booleans and integers become integers (nullable ``Int64``: ``True`` is 1), numbers
      with floats become floats, anything mixed with text becomes text, exact fractions
      become text (``'1/3'``);
    - a column of lists, dicts or other objects next to scalars, or two columns of one
      name, cannot be written: TableContractError names the column.

    ``attrs`` are kept; the table is copied only when a column changes.

    Examples
    --------
    >>> import pandas as pd
    >>> from kaptai.core.tables import conform_table
    >>> df = pd.DataFrame({"level": [1, "any", None], "value": [True, 3, None], "x": [0.5, 1, 2]})
    >>> df.attrs = {"game": "nine-ten"}
    >>> out = conform_table(df)
    >>> out.level.tolist(), out.value.tolist(), str(out.value.dtype), out.attrs
    (['1', 'any', None], [1, 3, <NA>], 'Int64', {'game': 'nine-ten'})
    >>> conform_table(pd.DataFrame({"cell": [[1, 2], 3]}))
    Traceback (most recent call last):
    ...
    kaptai.core.tables.TableContractError: column 'cell' holds list values next to int values: a table cell must be a number, a text or missing (a bug of the command that made this table)
    """
    if not isinstance(df, pd.DataFrame):
        raise TableContractError(f"a table must be a pandas DataFrame, got {type(df).__name__}")
    names = [str(c) for c in df.columns]
    dup = sorted({c for c in names if names.count(c) > 1})
    if dup:
        raise TableContractError(f"columns {dup} appear twice: a table's columns have one name each")
    from pandas.api.types import infer_dtype

    out = df
    for pos, col in enumerate(df.columns):
        s = df.iloc[:, pos]
        new = None
        if s.dtype == object and len(s) and infer_dtype(s, skipna=True) == "empty":
            if any(v is not None for v in s.tolist()):  # NaN, pd.NA: a column of nothing is None throughout
                new = pd.Series([None] * len(s), index=s.index, dtype=object)
        elif s.dtype == object and infer_dtype(s, skipna=True) in (
                ("string", "empty") if str(col) in TEXT_COLUMNS else ("string", "empty", "boolean", "integer", "floating")):
            # one kind of value already (the fast path of long tables); a missing value is None
            missing = s.isna().to_numpy()
            if not missing.any() or all(v is None for v in s[missing].tolist()):
                continue
            new = s.astype(object).where(~missing, None)
        if str(col) in TEXT_COLUMNS:
            if not (s.dtype == object and all(_kind(v) is None or isinstance(v, str) for v in s.tolist())) and not (
                    pd.api.types.is_string_dtype(s.dtype) and s.dtype != object):
                try:
                    new = pd.Series([_as_text(v) for v in s.tolist()], index=s.index, dtype=object)
                except TypeError as exc:
                    raise TableContractError(
                        f"column {str(col)!r} holds {exc} values: it is text in every table "
                        f"(a bug of the command that made this table)") from None
        elif s.dtype == object:
            values = s.tolist()
            kinds = {_kind(v) for v in values} - {None}
            if "other" in kinds:
                others = sorted({type(v).__name__ for v in values if _kind(v) == "other"})
                rest = sorted({type(v).__name__ for v in values if _kind(v) not in (None, "other")})
                if rest or len(others) > 1:
                    raise TableContractError(
                        f"column {str(col)!r} holds {', '.join(others)} values next to {', '.join(rest or others)} "
                        f"values: a table cell must be a number, a text or missing (a bug of the command that "
                        f"made this table)")
                # a column of one container type (a list per row) is one type: left as it is
            elif len(kinds) > 1 or kinds == {"text"} and any(isinstance(v, Fraction) for v in values):
                if "text" in kinds:
                    new = pd.Series([_as_text(v) for v in values], index=s.index, dtype=object)
                elif "float" in kinds:
                    new = pd.Series([math.nan if _kind(v) is None else float(v) for v in values], index=s.index,
                                    dtype="float64")
                else:  # booleans and integers
                    new = pd.Series([pd.NA if _kind(v) is None else int(v) for v in values], index=s.index,
                                    dtype="Int64")
        if new is not None:
            if out is df:
                out = df.copy()
                out.attrs = dict(df.attrs)
            out.isetitem(pos, new)
    return out
