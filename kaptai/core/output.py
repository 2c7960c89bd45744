"""Tables as a person or a program reads them: text, CSV, JSON, parquet.

Every table command ends in :func:`emit`:

- ``table`` (for a person): a header line ``# what — provenance`` (game, players,
  rules and every option changed from the preset, policies, seed, samples), floating
  noise shown as 0, whole fractions without ``/1``, empty columns dropped, and with
  ``percent=True`` probabilities as percentages (and never a mean); one notation per
  column: fixed point with at least 6 significant digits (4 for percentages), or
  scientific notation for the whole column when a magnitude falls outside
  ``[1e-30, 1e15)``;
- ``csv`` / ``json`` / ``parquet`` (for a program): the whole table, every float exactly
  (JSON and CSV write the shortest text that reads back as the same double; parquet keeps
  ``df.attrs``), and one provenance line ``# ...`` on stderr, so that an unseeded run can
  be reproduced with the ``--seed`` it names.

:func:`write_table` / :func:`read_parquet` are the same through the API, and
:func:`want_progress` decides whether a progress bar is drawn (only on a terminal).

Examples
--------
>>> import pandas as pd
>>> from kaptai.core.output import format_table
>>> df = pd.DataFrame({"metric": ["ev", "p"], "value": [-4.01e-16, 0.25], "exact": [None, "8/1"],
...                    "empty": [None, None]})
>>> df.attrs = {"game": "kap-tai-shap", "players": 4, "rules": None}
>>> print(format_table(df, title="a table"))
# a table — kap-tai-shap, 4 players, kaptai 0.1.0
metric value exact
    ev     0
     p  0.25     8
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd

from kaptai.core.lookup import find_game, register_games  # noqa: F401  (register_games: its old home)
from kaptai.core.paths import FORMATS, PathError, check_output_path, check_table_out, kind_of, table_format
from kaptai.core.tables import conform_table, json_value, standard_attrs, to_json_records
from kaptai.errors import KaptaiError

__all__ = [
    "FORMATS",
    "NOISE",
    "emit",
    "format_table",
    "provenance",
    "provenance_line",
    "changed_options",
    "write_table",
    "read_parquet",
    "table_format",
    "want_progress",
    "interrupted_message",
    "interval_decimals",
    "format_estimate",
    "wrap_label",
    "wrap_comment",
    "league_hands_text",
    "interval_cell",
    "sig3",
]

#: Magnitudes below this print as 0 in a Monte Carlo table (float cancellation, not data).
NOISE: float = 1e-12
#: An interval whose half-width is at most this fraction of its value is floating-point noise: shown
#: as the value alone (:func:`interval_cell`).
INTERVAL_NOISE: float = 1e-9
_ATTRS_KEY = b"kaptai.attrs"
_WHOLE = re.compile(r"^(-?\d+)/1$")


def _spec(game: Any) -> Any:
    """The registered game of a table's ``game`` label, or None (the registry registers its
    lookup in :mod:`kaptai.core.lookup` when it loads: the core never imports it)."""
    return find_game(game)


# --------------------------------------------------------------------------------------
# Provenance
# --------------------------------------------------------------------------------------


def _preset_dict(game: Any, name: Any) -> dict | None:
    import importlib

    spec = _spec(game)
    if spec is None or not isinstance(name, str):
        return None
    presets = getattr(importlib.import_module(f"{spec.package}.rules"), "PRESETS", {})
    preset = presets.get(name)
    return None if preset is None else json_value(preset.to_dict())


def changed_options(rules: Mapping[str, Any] | None, game: str | None = None,
                    preset: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The options of ``rules`` (a ``RuleSet.to_dict()``) that differ from its preset.

    Parameters
    ----------
    rules : mapping
        The ruleset as a dict; its ``name`` is the preset.
    game : str, optional
        The game, to find the preset (when ``preset`` is not given).
    preset : mapping, optional
        The preset's dict.

    Examples
    --------
    >>> import kaptai.games  # the registry, which finds a game's presets (the CLI loads it)
    >>> from kaptai.kts.rules import RuleSet
    >>> from kaptai.core.output import changed_options
    >>> changed_options(RuleSet.preset("advanced", claim="any").to_dict(), "kap-tai-shap")
    {'claim': 'any'}
    """
    if not isinstance(rules, Mapping):
        return {}
    rules = json_value(dict(rules))
    base = json_value(dict(preset)) if preset is not None else _preset_dict(game, rules.get("name"))
    if base is None:
        return {}
    return {k: v for k, v in rules.items() if k not in ("name", "players") and base.get(k, v) != v}


def _policies_text(policies: Any) -> str | None:
    if not policies:
        return None
    if isinstance(policies, str):
        return f"{policies} at every seat" if policies.isidentifier() else policies
    labels = [str(p) for p in policies]
    if len(set(labels)) == 1:
        return f"{labels[0]} at every seat"
    return ",".join(f"{i}={p}" for i, p in enumerate(labels))


def _rules_text(rules: Any, game: Any) -> str | None:
    if not isinstance(rules, Mapping):
        return None
    changed = changed_options(rules, game)
    text = f"rules {rules.get('name')}"
    if changed:
        text += " with " + ", ".join(f"{k}={v!r}" for k, v in changed.items())
    return text


def provenance(df: pd.DataFrame) -> str:
    """What made a table, in one line: game, players, rules with every option changed from
    the preset, policies, seed entropy (rerun with ``--seed`` to get the same table),
    samples, package version.

    Examples
    --------
    >>> import pandas as pd
    >>> from kaptai.core.output import provenance
    >>> df = pd.DataFrame({"game": ["big-two"], "players": [4]})
    >>> df.attrs = {"seed_entropy": 12345, "policies": ["greedy"] * 4, "games": 1000, "version": "0.1.0"}
    >>> provenance(df)
    'big-two, 4 players, policies greedy at every seat, 1000 samples, seed 12345 (rerun with --seed 12345), kaptai 0.1.0'
    """
    a = {**df.attrs, **standard_attrs(df)}
    parts: list[str] = []
    if a.get("game"):
        parts.append(str(a["game"]))
    players = a.get("players")
    if isinstance(players, int):
        parts.append(f"{players} players")
    elif isinstance(players, list) and players:
        parts.append("players " + ",".join(str(p) for p in players))
    settings = a.get("settings")  # a league: several rulesets and policies
    several = isinstance(settings, Mapping) and len(settings.get("rules") or []) > 1
    rules = None if several else _rules_text(a.get("rules"), a.get("game"))  # not the first of several
    if rules:
        parts.append(rules)
    if isinstance(settings, Mapping):
        texts = [t for t in (_rules_text(r, a.get("game")) for r in settings.get("rules") or []) if t]
        if texts and not rules:
            parts.append("; ".join(texts))
        if settings.get("policies") and not a.get("policies"):
            parts.append("policies " + ", ".join(str(p) for p in settings["policies"]))
        if isinstance(settings.get("hands"), int) and a.get("samples") is None:
            parts.append(a.get(HANDS_TEXT_ATTR) or league_hands_text(df)
                         or f"{settings['hands']} hands per policy and configuration")
    variants = a.get("variants")
    if isinstance(variants, Mapping) and variants:
        texts = []
        for name, v in variants.items():
            r = v.get("rules") if isinstance(v, Mapping) else None
            changed = changed_options(r, a.get("game")) if r else {}
            texts.append(str(name) + (" (" + ", ".join(f"{k}={x!r}" for k, x in changed.items()) + ")" if changed else ""))
        parts.append("variants " + "; ".join(texts))
    if a.get("malaysian_swap") not in (None, "policy"):
        parts.append(f"malaysian swap {a['malaysian_swap']}")
    pol = _policies_text(a.get("policies"))
    if pol:
        parts.append(f"policies {pol}")
    if isinstance(a.get("samples"), int):
        parts.append(f"{a['samples']} samples")
    if a.get("seed_entropy") is not None:
        parts.append(f"seed {a['seed_entropy']} (rerun with --seed {a['seed_entropy']})")
    parts.append(f"kaptai {a.get('version')}")
    return ", ".join(parts)


def league_hands_text(df: pd.DataFrame) -> str | None:
    """What a league table played, from its ``players``, ``policy`` and ``hands`` columns: the
    hands a policy (``P x deals``) at each player count, and the policies capped to fewer deals
    (None for a table without those columns).

    >>> import pandas as pd
    >>> df = pd.DataFrame({"players": [3, 3, 3], "policy": ["a", "b", "search"], "hands": [201, 201, 42]})
    >>> league_hands_text(df)
    '201 hands a policy (67 deals x 3 seats); search capped at 42 (14 deals)'
    """
    if not {"players", "policy", "hands"} <= set(df.columns) or not len(df):
        return None
    try:
        t = df[["players", "policy", "hands"]].dropna().astype({"players": int, "hands": int})
    except (TypeError, ValueError):
        return None
    if not len(t):
        return None
    full, capped = [], []
    for P, part in t.groupby("players", sort=True):
        P, most = int(P), int(part.hands.max())
        full.append(f"{most:,} hands a policy ({_deals(most // P)} x {P} seats)"
                    + (f" at {P} players" if t.players.nunique() > 1 else ""))
        for pol, rows in part.groupby("policy", sort=False):
            n = int(rows.hands.max())
            if n < most:
                capped.append(f"{pol} capped at {n:,} ({_deals(n // P)})"
                              + (f" at {P} players" if t.players.nunique() > 1 else ""))
    return "; ".join(full + capped)


def _deals(n: int) -> str:
    return f"{n:,} deal" + ("" if n == 1 else "s")


def wrap_comment(text: str, width: int = 100, indent: str = "  ") -> str:
    """``text`` as ``# `` comment lines of at most ``width`` characters: each line of ``text``
    wrapped at spaces, its continuation lines indented by ``indent``.

    >>> print(wrap_comment("a metric: " + "word " * 12, width=30))
    # a metric: word word word
    #   word word word word word
    #   word word word word
    """
    import textwrap

    out: list[str] = []
    for line in str(text).splitlines() or [""]:
        out.extend(textwrap.wrap(line, width=width, initial_indent="# ", subsequent_indent="# " + indent,
                                 break_long_words=False, break_on_hyphens=False) or ["#"])
    return "\n".join(out)


def interval_cell(value: float, ci_low: float, ci_high: float, percent: bool = False) -> str:
    """An estimate and its interval in one narrow cell: ``value ±half`` when the interval is
    symmetric, else ``value [low, high]``, with the decimals the interval supports
    (:func:`interval_decimals`).  An interval of no width -- or only floating-point noise wide,
    a half-width below :data:`INTERVAL_NOISE` of the value -- prints as the value alone to 3
    significant digits (an exact value); a missing interval (one deal) as ``value ±n/a``.
    ``percent``: the value and its interval as percentages (a probability).

    >>> interval_cell(0.8, 0.75, 0.85), interval_cell(0.25, 0.2, 0.31), interval_cell(-1.5, -1.5, -1.5)
    ('0.800 ±0.050', '0.250 [0.200, 0.310]', '-1.50')
    >>> interval_cell(2.8e-17, -1.35e-16, 1.9e-16)    # rounding noise of a zero-sum table
    '0'
    >>> interval_cell(1.8999999999999997, 1.8999999999999995, 1.9), interval_cell(0.25, float("nan"), float("nan"))
    ('1.90', '0.250 ±n/a')
    >>> interval_cell(0.25, 0.2, 0.3, percent=True)
    '25.0% ±5.0%'
    """
    scale, pct = (100.0, "%") if percent else (1.0, "")
    v, lo, hi = (0.0 if abs(float(x)) < NOISE else float(x) * scale for x in (value, ci_low, ci_high))  # noise
    if not math.isfinite(v):
        return ""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return f"{sig3(v)}{pct} ±n/a"
    half = (hi - lo) / 2
    if half <= INTERVAL_NOISE * max(abs(v), abs(lo), abs(hi)):
        return sig3(v) + pct
    d = interval_decimals(lo, hi)
    if d is None:
        return sig3(v) + pct
    text = "0" if round(v, d) == 0 else f"{v:.{d}f}"
    if math.isclose(v - lo, hi - v, rel_tol=1e-6, abs_tol=1e-12 * scale):
        return f"{text}{pct} ±{half:.{d}f}{pct}"
    return f"{text}{pct} [{lo:.{d}f}{pct}, {hi:.{d}f}{pct}]"


def provenance_line(df: pd.DataFrame) -> str:
    """``# `` + :func:`provenance`: the line written on stderr with csv/json/parquet output."""
    return "# " + provenance(df)


# --------------------------------------------------------------------------------------
# A table for a person
# --------------------------------------------------------------------------------------


def _metric_descriptions(game: Any) -> dict[str, str]:
    """The game's metric descriptions (:attr:`kaptai.spec.GameSpec.metrics`)."""
    from kaptai.spec import load_entry

    spec = _spec(game)
    out: dict[str, str] = {}
    for entry in spec.metrics if spec is not None else ():
        out.update({str(k): str(v) for k, v in load_entry(entry).items()})
    return out


def _is_probability(description: str) -> bool:
    return description.startswith(("P(", "distribution", "probability"))


def _is_mean(name: str) -> bool:
    """A metric that is a mean or an expectation (``mean_waits``, ``opening_hu_mean``), never a
    probability, although an exact-odds table gives it with its fraction."""
    return name.startswith(("mean_", "ev_", "expected_")) or name.endswith(("_mean", "_ev"))


def _probability_mask(df: pd.DataFrame, metrics: Mapping[str, str] | None) -> np.ndarray:
    """Rows whose ``value`` is a probability: where the table has a ``unit`` column, the rows
    whose unit is ``probability``; else exact odds rows (but not their means), ``p_*``
    metrics, and Monte Carlo metrics described as ``P(...)`` or a distribution."""
    n = len(df)
    if "unit" in df.columns:
        return (df["unit"].astype(str) == "probability").to_numpy(dtype=bool)
    mask = np.zeros(n, dtype=bool)
    if "exact" in df.columns and "method" in df.columns:
        mask |= (df["method"] == "exact").to_numpy(dtype=bool, na_value=False)
    if "metric" in df.columns:
        names = df["metric"].astype(str)
        mask |= names.str.startswith("p_").to_numpy(dtype=bool)
        desc = dict(metrics or {})
        if desc:
            mask |= names.map(lambda m: _is_probability(desc.get(m, ""))).to_numpy(dtype=bool)
        mask &= ~names.map(lambda m: _is_mean(m) or desc.get(m, "").startswith("mean")).to_numpy(dtype=bool)
    return mask


#: A float column prints in fixed point when every non-zero magnitude it shows lies in
#: ``[FIXED_RANGE[0], FIXED_RANGE[1])``; otherwise the whole column is in scientific notation.
FIXED_RANGE: tuple[float, float] = (1e-30, 1e15)


#: ``df.attrs`` key of a text view (a table made for ``--format table`` alone): the width its
#: header line is wrapped at (:func:`format_table`).
TEXT_WIDTH_ATTR = "text_width"
#: ``df.attrs`` key of a text view: what its league played, as the header says it (the view may
#: have dropped the columns :func:`provenance` reads it from).
HANDS_TEXT_ATTR = "hands_text"
#: ``df.attrs`` key of a text view whose cells are text already (a value and its interval in one
#: cell): ``{column: cells}``, what the column shows with ``percent=True`` (:func:`format_table`).
PERCENT_CELLS_ATTR = "percent_cells"


def _fixed(x: float, digits: int, strip: bool = True) -> str:
    """``x`` in fixed point with at least ``digits`` significant digits (trailing zeros dropped
    when ``strip``).

    >>> _fixed(0.00912001234, 6), _fixed(1.74311e-06, 6), _fixed(2.0, 6), _fixed(123456789.0, 6)
    ('0.00912001', '0.00000174311', '2', '123456789')
    >>> _fixed(44.4, 4, strip=False), _fixed(100.0, 4, strip=False)
    ('44.40', '100.0')
    """
    if x == 0 or not math.isfinite(x):
        return "0" if x == 0 else str(x)
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(x))))
    text = f"{x:.{decimals}f}"
    if strip and "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def sig3(v: float) -> str:
    """``v`` to 3 significant digits with its trailing zeros kept, so that a value and the ends of
    its interval read to the same precision; thousands with commas.

    >>> sig3(0.029989), sig3(0.0604), sig3(227.3), sig3(2831.2), sig3(0.0)
    ('0.0300', '0.0604', '227', '2,831', '0')
    """
    return f"{v:,.0f}" if abs(v) >= 1000 else _fixed(v, 3, strip=False)


def _scientific_column(shown: Sequence[float]) -> bool:
    """Whether a column of (already scaled) magnitudes needs scientific notation throughout."""
    lo, hi = FIXED_RANGE
    return any(x != 0 and math.isfinite(x) and not lo <= abs(x) < hi for x in shown)


def _cell(v: Any, percent: bool = False, scientific: bool = False) -> str:
    """One cell as text: a float in fixed point with 6 significant digits, trailing zeros
    dropped (a percentage with 4, kept, and a ``%``), or in scientific notation when its
    column needs it (:data:`FIXED_RANGE`).

    >>> _cell(0.00912001234), _cell(0.00912001234, percent=True), _cell(0.00912001234, scientific=True)
    ('0.00912001', '0.9120%', '9.12001e-03')
    """
    if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, (float, np.floating)):
        x = 100 * float(v) if percent else float(v)
        digits = 4 if percent else 6
        text = f"{x:.{digits - 1}e}" if scientific else _fixed(x, digits, strip=not percent)
        return text + "%" if percent else text
    if isinstance(v, str):
        m = _WHOLE.match(v)
        return m.group(1) if m else v
    return str(v)


def format_table(
    df: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    title: str | None = None,
    percent: bool = False,
    metrics: Mapping[str, str] | None = None,
    header: bool = True,
) -> str:
    """The table as text for a person.

    Parameters
    ----------
    df : DataFrame
        Any kaptai table.
    columns : sequence of str, optional
        Columns to show (those missing from ``df`` are skipped); default all.
    title : str, optional
        What the table is; the header line is ``# title — provenance``.
    percent : bool
        Probabilities (exact odds, ``p_*`` metrics, Monte Carlo metrics described as
        ``P(...)`` or a distribution, ``p_*`` columns) as percentages; means never.
    metrics : mapping, optional
        Metric descriptions (default: the game's, found from ``df.attrs['game']``).
    header : bool
        Print the header line.

    Notes
    -----
    Magnitudes below :data:`NOISE` in rows that are not exact print as ``0``; fractions
    ``n/1`` print as ``n``; columns with no value at all are dropped.  Each float column has
    one notation: fixed point with at least 6 significant digits (percentages 4), or, when
    one of its magnitudes falls outside :data:`FIXED_RANGE`, scientific for all its cells.
    """
    view = df[[c for c in columns if c in df.columns]] if columns else df
    keep = [c for c in view.columns
            if not (view[c].isna() | view[c].astype(object).map(lambda x: isinstance(x, str) and x == "")).all()]
    view = view[keep]
    game = df.attrs.get("game")
    if game is None and "game" in df.columns and len(df):
        game = df["game"].iloc[0]
    if metrics is None and percent:  # only --percent needs them (loading them imports the game's modules)
        metrics = _metric_descriptions(game)
    prob = _probability_mask(df, metrics) if percent else np.zeros(len(df), dtype=bool)
    exact_rows = (df["exact"].notna().to_numpy() if "exact" in df.columns else np.zeros(len(df), dtype=bool))
    cells: dict[str, list[str]] = {}
    for c in view.columns:
        col = view[c]
        is_float = pd.api.types.is_float_dtype(col)
        pct_col = percent and (str(c).startswith("p_") or str(c) in ("probability", "share"))
        values, pcts = [], []
        for i, v in enumerate(col.tolist()):
            if is_float and v is not None and not (isinstance(v, float) and math.isnan(v)):
                v = float(v)
                if not exact_rows[i] and abs(v) < NOISE:
                    v = 0.0
                if v == 0:
                    v = 0.0  # no "-0"
            values.append(v)
            pcts.append(bool(is_float and (pct_col or (prob[i] and c in ("value", "ci_low", "ci_high")))))
        shown = [100 * v if p else v for v, p in zip(values, pcts) if isinstance(v, float) and not math.isnan(v)]
        sci = is_float and _scientific_column(shown)
        cells[str(c)] = [_cell(v, p, sci) for v, p in zip(values, pcts)]
    if percent:  # a text view's cells already laid out, with their percentage reading beside them
        for c, alt in dict(df.attrs.get(PERCENT_CELLS_ATTR) or {}).items():
            if c in cells and len(alt) == len(cells[c]):
                cells[c] = [str(x) for x in alt]
    text_frame = pd.DataFrame(cells, columns=list(cells))
    with pd.option_context("display.max_rows", None, "display.width", 250, "display.max_colwidth", 200):
        body = text_frame.to_string(index=False) if len(text_frame.columns) else ""
    body = "\n".join(line.rstrip() for line in body.splitlines())
    if len(text_frame) == 0:
        body = "(no rows)" if not len(text_frame.columns) else body
    lines = []
    if header:
        prov = provenance(df)
        head = f"{title} — {prov}" if title else prov
        width = df.attrs.get(TEXT_WIDTH_ATTR)  # a table shaped for a person's terminal: its header wrapped too
        lines.append(wrap_comment(head, int(width)) if isinstance(width, int) else f"# {head}")
    lines.append(body)
    return "\n".join(lines)


# --------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------


def _attrs_json(df: pd.DataFrame) -> str:
    attrs = {**df.attrs, **standard_attrs(df)}
    return json.dumps(json_value(attrs), ensure_ascii=False, allow_nan=False)


def write_table(df: pd.DataFrame, path: str | os.PathLike, fmt: str | None = None) -> Path:
    """Write a table to ``path`` as csv, json, parquet or text (``fmt`` or the suffix).

    Parquet keeps the column types and ``df.attrs`` (as JSON values: tuples read back as
    lists), with :data:`kaptai.core.tables.STANDARD_ATTRS` filled in.  The table is first
    made to keep the table contract (:func:`kaptai.core.tables.conform_table`: one type per
    column, ``level`` as text), so that no format fails on it.

    Examples
    --------
    >>> import tempfile, os, pandas as pd
    >>> from kaptai.core.output import write_table, read_parquet
    >>> df = pd.DataFrame({"metric": ["win"], "value": [0.1 + 0.2]})
    >>> df.attrs = {"game": "big-two", "seed_entropy": 2**100}
    >>> back = read_parquet(write_table(df, os.path.join(tempfile.mkdtemp(), "t.parquet")))
    >>> bool(back.value.iloc[0] == df.value.iloc[0]), back.attrs["seed_entropy"] == 2**100
    (True, True)
    """
    fmt = table_format(fmt, path)
    p = Path(os.fspath(path))
    df = conform_table(df)
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pa.Table.from_pandas(df, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[_ATTRS_KEY] = _attrs_json(df).encode("utf-8")
        pq.write_table(table.replace_schema_metadata(meta), p)
    elif fmt == "csv":
        df.to_csv(p, index=False)
    elif fmt == "json":
        p.write_text(to_json_records(df) + "\n", encoding="utf-8")
    else:
        p.write_text(format_table(df) + "\n", encoding="utf-8")
    return p


def read_parquet(path: str | os.PathLike) -> pd.DataFrame:
    """A table written by :func:`write_table` as parquet, with its ``attrs``.

    Raises
    ------
    PathError
        A file that cannot be read as parquet.
    """
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(os.fspath(path))
    except (OSError, ValueError) as exc:
        raise PathError(f"cannot read {os.fspath(path)!r} as parquet: {exc}") from None
    meta = table.schema.metadata or {}
    df = table.to_pandas()
    # text columns that were object columns (text or None) come back as such, not as str dtype
    try:
        described = json.loads(meta.get(b"pandas", b"{}").decode("utf-8")).get("columns", [])
    except ValueError:
        described = []
    for col in described:
        name = col.get("name")
        if col.get("numpy_type") == "object" and name in df.columns and df[name].dtype != object:
            df[name] = df[name].astype(object).where(df[name].notna(), None)
    df.attrs = {}
    if _ATTRS_KEY in meta:
        df.attrs.update(json.loads(meta[_ATTRS_KEY].decode("utf-8")))
    return df


# --------------------------------------------------------------------------------------
# The one call of a table command
# --------------------------------------------------------------------------------------


def emit(
    df: pd.DataFrame,
    fmt: str | None = "table",
    *,
    out: str | os.PathLike | None = None,
    columns: Sequence[str] | None = None,
    title: str | None = None,
    percent: bool = False,
    metrics: Mapping[str, str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> None:
    """Show or write a table: what every table command of the CLI ends with.

    ``table``: :func:`format_table` (header line, then the chosen ``columns``) on stdout
    or into ``out``.  ``csv``/``json``/``parquet``: the whole table on stdout or into
    ``out`` (parquet needs ``out``), and :func:`provenance_line` on stderr.  Every format
    writes the table as :func:`kaptai.core.tables.conform_table` makes it (one type per
    column, ``level`` as text).

    Examples
    --------
    >>> import io, pandas as pd
    >>> from kaptai.core.output import emit
    >>> df = pd.DataFrame({"metric": ["win"], "value": [0.30000000000000004]})
    >>> df.attrs = {"game": "big-two", "seed_entropy": 7, "version": "0.1.0"}
    >>> o, e = io.StringIO(), io.StringIO()
    >>> emit(df, "json", stdout=o, stderr=e)
    >>> '0.30000000000000004' in o.getvalue(), e.getvalue()
    (True, '# big-two, seed 7 (rerun with --seed 7), kaptai 0.1.0\\n')
    """
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    fmt = table_format(fmt, out)
    if out is not None or fmt == "parquet":
        check_table_out(out, fmt)
    df = conform_table(df)  # before any format: a table that breaks the contract fails here, not half-written
    if fmt == "table":
        text = format_table(df, columns, title=title, percent=percent, metrics=metrics)
        if out is None:
            print(text, file=stdout)
        else:
            Path(os.fspath(out)).write_text(text + "\n", encoding="utf-8")
        return
    if out is None:
        if fmt == "csv":
            buf = io.StringIO()
            df.to_csv(buf, index=False)
            stdout.write(buf.getvalue())
        else:
            print(to_json_records(df), file=stdout)
    else:
        write_table(df, out, fmt)
    print(provenance_line(df), file=stderr)


# --------------------------------------------------------------------------------------
# Terminal
# --------------------------------------------------------------------------------------


def interval_decimals(ci_low: float, ci_high: float, scale: float = 1.0) -> int | None:
    """Decimals an estimate supports: one more than the leading digit of its interval's
    half-width (None when the interval is missing or empty).

    >>> from kaptai.core.output import interval_decimals
    >>> interval_decimals(0.263, 0.295, 100), interval_decimals(0.2790, 0.2797, 100)
    (1, 3)
    """
    try:
        half = abs(float(ci_high) - float(ci_low)) * abs(scale) / 2
    except (TypeError, ValueError):
        return None
    if not math.isfinite(half) or half <= 0:
        return None
    return max(0, 1 - math.floor(math.log10(half)))


def format_estimate(value: float, ci_low: float, ci_high: float, scale: float = 1.0) -> str:
    """``value * scale`` with the digits its interval supports (27.9, not 27.9333 from 3,000 games).

    >>> from kaptai.core.output import format_estimate
    >>> format_estimate(0.279333, 0.263, 0.295, 100), format_estimate(0.5, float("nan"), float("nan"))
    ('27.9', '0.5')
    >>> format_estimate(0.0, 0.0, 0.0000077, 100)
    '0'
    """
    d = interval_decimals(ci_low, ci_high, scale)
    v = float(value) * scale
    if not math.isfinite(v):
        return ""
    if v == 0:
        return "0"  # never seen: no digits to support (its interval is one-sided)
    return _fixed(v, 4) if d is None else f"{v:.{d}f}"  # fixed point either way, never 1e-05


def wrap_label(text: str, width: int = 14) -> str:
    r"""A tick label broken into lines of at most ``width`` characters (at spaces, commas),
    so that many long labels fit side by side without rotation.

    >>> from kaptai.core.output import wrap_label
    >>> wrap_label("count standard, place, bonus 10")
    'count\nstandard,\nplace, bonus\n10'
    """
    import textwrap

    return "\n".join(textwrap.wrap(str(text), width=width, break_long_words=False)) or str(text)


def want_progress(no_progress: bool = False, stream: IO[str] | None = None, *,
                  progress: bool | None = None) -> bool:
    """Whether a command shows progress: ``progress`` when the user said so (``--progress`` /
    ``--no-progress``), else only when ``stream`` (stderr) is a terminal.

    Pass the result as ``progress=`` to the library: there ``True`` draws a bar on a terminal
    and writes a plain line every few seconds elsewhere (a log, CI; see
    :mod:`kaptai.core.progress`), ``False`` writes nothing.  ``no_progress=True`` (the old
    ``--no-progress`` flag alone) means ``progress=False``.

    >>> import io
    >>> from kaptai.core.output import want_progress
    >>> want_progress(False, io.StringIO())
    False
    >>> want_progress(stream=io.StringIO(), progress=True), want_progress(progress=False)
    (True, False)
    """
    if progress is not None:
        return bool(progress)
    if no_progress:
        return False
    from kaptai.core.progress import is_terminal

    return is_terminal(sys.stderr if stream is None else stream)


from kaptai.core.interrupt import interrupted_message  # noqa: E402  (its home: a light module)
