"""The one table contract (issue 22, item 2): one type per column, ``level`` as text, so that
table, csv, json and parquet output cannot fail after a run.

``kaptai.core.tables.conform_table`` checks and conforms a table (``emit`` and ``write_table``
call it before writing any format); the tables that used to fail after the whole run
(``odds`` / ``simulate nine-ten``: a ``level`` mixing int and str; ``evaluate nantong``: a
``value`` mixing bool and int) are built here from the library and written in every format.
"""
from __future__ import annotations

import io
import json
import math
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaptai.core.output import emit, read_parquet, write_table
from kaptai.core.tables import TEXT_COLUMNS, TableContractError, conform_table, json_value, standard_attrs


def _kinds(series: pd.Series) -> set[str]:
    out = set()
    for v in series.tolist():
        if v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v)):
            continue
        if isinstance(v, (bool, np.bool_)):
            out.add("bool")
        elif isinstance(v, (int, np.integer)):
            out.add("int")
        elif isinstance(v, (float, np.floating)):
            out.add("float")
        elif isinstance(v, str):
            out.add("text")
        else:
            out.add(type(v).__name__)
    return out


def assert_contract(df: pd.DataFrame) -> None:
    """Every object column one kind of value; every text column (level) text or missing."""
    for c in df.columns:
        kinds = _kinds(df[c])
        if c in TEXT_COLUMNS:
            assert kinds <= {"text"}, (c, kinds)
        elif df[c].dtype == object:
            assert len(kinds) <= 1, (c, kinds)


# --------------------------------------------------------------------------------------
# conform_table
# --------------------------------------------------------------------------------------


def test_level_becomes_text():
    df = pd.DataFrame({"metric": ["a", "b", "c", "d"], "level": [3, "any", None, 2.0], "value": [0.1, 0.2, 0.3, 0.4]})
    out = conform_table(df)
    assert out.level.tolist() == ["3", "any", None, "2"]
    assert out.value.tolist() == df.value.tolist() and out.metric.tolist() == df.metric.tolist()
    assert df.level.tolist() == [3, "any", None, 2.0]  # the input is not changed


def test_numeric_level_becomes_text():
    df = pd.DataFrame({"level": pd.array([1, None, 19], dtype="Int64"), "value": [1.0, 2.0, 3.0]})
    out = conform_table(df)
    assert out.level.dtype == object and out.level.tolist() == ["1", None, "19"]
    out = conform_table(pd.DataFrame({"level": np.array([0, 5], dtype=np.int64)}))
    assert out.level.tolist() == ["0", "5"]
    out = conform_table(pd.DataFrame({"level": [True, "x"]}))
    assert out.level.tolist() == ["True", "x"]


@pytest.mark.parametrize(
    "values,expected,dtype",
    [
        ([True, 3, None], [1, 3, pd.NA], "Int64"),  # the evaluate nantong value column
        ([False, np.int64(2)], [0, 2], "Int64"),
        ([True, 2.5, None], [1.0, 2.5, math.nan], "float64"),
        ([1, 2.5], [1.0, 2.5], "float64"),
        ([1, "x", None], ["1", "x", None], "object"),
        ([True, "x"], ["True", "x"], "object"),
        ([Fraction(1, 3), None], ["1/3", None], "object"),
        ([Fraction(1, 3), 0.5], ["1/3", "0.5"], "object"),
    ],
)
def test_mixed_columns_become_one_type(values, expected, dtype):
    out = conform_table(pd.DataFrame({"value": pd.Series(values, dtype=object)}))
    assert str(out.value.dtype) == dtype
    got = out.value.tolist()
    for g, e in zip(got, expected):
        if e is pd.NA:
            assert g is pd.NA
        elif isinstance(e, float) and math.isnan(e):
            assert math.isnan(g)
        else:
            assert g == e and type(g) is type(e), (g, e)


def test_clean_tables_are_returned_as_they_are():
    df = pd.DataFrame({"metric": ["a", "b"], "level": ["1", None], "value": [0.5, 1.5], "n": [1, 2],
                       "win": [True, None], "exact": ["1/2", None], "seat": pd.array([0, None], dtype="Int64")})
    df.attrs = {"game": "big-two", "seed_entropy": 2**100}
    assert conform_table(df) is df
    text = pd.DataFrame({"level": pd.array(["1", None], dtype="string")})
    assert conform_table(text) is text
    lists = pd.DataFrame({"policies": [["greedy", "score"], ["random"]]})  # one container type: left alone
    assert conform_table(lists) is lists


def test_attrs_are_kept():
    df = pd.DataFrame({"level": [1, "x"]})
    df.attrs = {"game": "nine-ten", "rules": {"name": "standard"}, "seed_entropy": 2**100}
    out = conform_table(df)
    assert out is not df and out.attrs == df.attrs


@pytest.mark.parametrize(
    "df,match",
    [
        (pd.DataFrame({"cell": pd.Series([[1, 2], 3], dtype=object)}),
         r"column 'cell' holds list values next to int values"),
        (pd.DataFrame({"cell": pd.Series([{"a": 1}, (1,)], dtype=object)}), r"column 'cell' holds dict, tuple values"),
        (pd.DataFrame({"level": pd.Series([[1], "x"], dtype=object)}), r"column 'level' holds list values: it is text"),
        (pd.DataFrame([[1, 2]], columns=["a", "a"]), r"columns \['a'\] appear twice"),
    ],
)
def test_what_cannot_be_fixed_is_a_clear_internal_error(df, match):
    with pytest.raises(TableContractError, match=match):
        conform_table(df)
    assert issubclass(TableContractError, RuntimeError)  # a bug of the command, not a user error


def test_not_a_table():
    with pytest.raises(TableContractError, match="a table must be a pandas DataFrame, got list"):
        conform_table([1, 2])


_cells = st.one_of(st.none(), st.booleans(), st.integers(-10**18, 10**18), st.floats(allow_nan=True, allow_infinity=False),
                   st.text(max_size=5), st.fractions(max_denominator=50))


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.tuples(_cells, _cells), min_size=1, max_size=8))
def test_any_scalar_mix_writes_in_every_format(rows, tmp_path_factory):
    df = pd.DataFrame({"level": pd.Series([a for a, _ in rows], dtype=object),
                       "value": pd.Series([b for _, b in rows], dtype=object)})
    out = conform_table(df)
    assert_contract(out)
    assert conform_table(out) is out  # conformed once is conformed
    d = tmp_path_factory.mktemp("mix")
    for fmt in ("csv", "json", "parquet"):
        write_table(df, d / f"t.{fmt}")
    back = read_parquet(d / "t.parquet")
    pd.testing.assert_frame_equal(back, out)


def test_emit_conforms_before_any_format(tmp_path):
    df = pd.DataFrame({"metric": ["cards", "complete"], "level": [1, "any"], "value": pd.Series([23, True], dtype=object)})
    df.attrs = {"game": "nantong", "seed_entropy": 7}
    for fmt in ("csv", "json", "table"):
        o, e = io.StringIO(), io.StringIO()
        emit(df, fmt, stdout=o, stderr=e)
        assert "cards" in o.getvalue()
    emit(df, "parquet", out=tmp_path / "t.parquet", stdout=io.StringIO(), stderr=io.StringIO())
    back = read_parquet(tmp_path / "t.parquet")
    assert back.level.tolist() == ["1", "any"] and back.value.tolist() == [23, 1] and back.attrs["seed_entropy"] == 7
    bad = pd.DataFrame({"cell": pd.Series([[1], 2], dtype=object)})
    with pytest.raises(TableContractError):
        emit(bad, "parquet", out=tmp_path / "bad.parquet", stdout=io.StringIO(), stderr=io.StringIO())
    assert not (tmp_path / "bad.parquet").exists()  # nothing half-written


# --------------------------------------------------------------------------------------
# The real tables that failed after the run
# --------------------------------------------------------------------------------------


def _nineten_odds():
    from kaptai.nineten.odds import deal_odds

    return deal_odds(4, monte_carlo_deals=0)


def _nineten_odds_table():
    from kaptai.nineten.odds import deal_odds

    return deal_odds(5, monte_carlo_deals=200, seed=1)  # Monte Carlo table rows and claims_joint 'a,b' levels


def _nineten_simulate():
    from kaptai.nineten.simulate import simulate

    return simulate(4, hands=200, seed=1, progress=False)


def _nantong_evaluate_complete():
    from kaptai.nantong.evaluate import analyze_hand

    return analyze_hand("123b 234w 678t 333w qzx3 789t 9w bhx3 9w")


def _nantong_evaluate_open():
    from kaptai.nantong.evaluate import analyze_hand

    return analyze_hand("147w 258t 369b qz bh hh 5w")


TABLES = {
    "odds nine-ten": _nineten_odds,
    "odds nine-ten 5 players": _nineten_odds_table,
    "simulate nine-ten": _nineten_simulate,
    "evaluate nantong (complete)": _nantong_evaluate_complete,
    "evaluate nantong (7 exchanges)": _nantong_evaluate_open,
}


def _missing(v) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def _same_cell(a, b) -> bool:
    if _missing(a) or _missing(b):
        return _missing(a) and _missing(b)
    if isinstance(a, (bool, np.bool_)) or isinstance(b, (bool, np.bool_)):
        return str(bool(a) if not isinstance(a, str) else a) == str(bool(b) if not isinstance(b, str) else b)
    if isinstance(a, (int, float, np.integer, np.floating)) and isinstance(b, (int, float, np.integer, np.floating)):
        return float(a) == float(b)  # every float written exactly (shortest round-trip text)
    return str(a) == str(b)


@pytest.mark.parametrize("name", list(TABLES))
def test_the_tables_that_failed_keep_the_contract_at_the_source(name):
    df = TABLES[name]()
    assert len(df)
    assert_contract(df)  # built clean: no fix-up needed
    pd.testing.assert_frame_equal(conform_table(df), df)
    if "level" in df:
        assert all(isinstance(v, str) or _missing(v) for v in df.level)


@pytest.mark.parametrize("name", list(TABLES))
def test_the_tables_that_failed_write_and_read_back_in_every_format(name, tmp_path):
    df = TABLES[name]()
    paths = {fmt: write_table(df, tmp_path / f"t.{fmt}") for fmt in ("csv", "json", "parquet", "table")}
    assert paths["table"].read_text().startswith("# ")
    # parquet: the same table, column types and attrs
    back = read_parquet(paths["parquet"])
    pd.testing.assert_frame_equal(back, df)
    assert back.attrs == json_value({**df.attrs, **standard_attrs(df)})
    # json: one object per row, the same values, level as text
    records = json.loads(paths["json"].read_text())
    assert len(records) == len(df) and list(records[0]) == [str(c) for c in df.columns]
    for rec, row in zip(records, df.itertuples(index=False)):
        for c, v in zip(df.columns, row):
            assert _same_cell(rec[c], v), (c, rec[c], v)
            if c == "level" and rec[c] is not None:
                assert isinstance(rec[c], str)
    # csv: the same values (text columns read as text)
    text_cols = {c: str for c in df.columns if df[c].dtype == object or str(df[c].dtype) == "str"}
    csv = pd.read_csv(paths["csv"], dtype=text_cols, keep_default_na=True)
    assert list(csv.columns) == list(df.columns) and len(csv) == len(df)
    for c in df.columns:
        for a, b in zip(csv[c].tolist(), df[c].tolist()):
            assert _same_cell(a, b) or (_missing(a) and b == ""), (c, a, b)


def test_nantong_evaluate_says_complete_not_distance_minus_one():
    df = _nantong_evaluate_complete()
    row = df.iloc[0]
    assert row.status == "complete" and bool(row.complete) and row.distance is pd.NA and row.cards == 23
    assert {c: str(t) for c, t in df.dtypes.items()} == {
        "cards": "int64", "status": "object", "complete": "bool", "distance": "Int64", "decompositions": "int64"}
    row = _nantong_evaluate_open().iloc[0]
    assert row.status == "7 exchanges from ready" and not row.complete and row.distance == 7 and row.cards == 13
    from kaptai.nantong.evaluate import analyze_hand

    assert analyze_hand("123b 234w 678t 333w qzx3 789t 9w bhx3").loc[0, "status"] == "ready"
