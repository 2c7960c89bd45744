"""Every table of every command, from the registry: one type per column, and every output
format written and read back (json, csv, parquet with attrs, table), so no format can fail
after a run.  ``--percent`` is declared only where the table has probabilities to show as
percentages, and there it shows them."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from kaptai.cli import build_parser, run_command, show
from kaptai.core.output import format_table, read_parquet
from tests.conftest import SLOW_SCALE
from tests.nantong.helpers import small_search
from tests.test_options import TARGETS, _base

#: options set to their declared sample for a small run
_SMALL = ("--hands", "--matches", "--games")


def _table_targets():
    for command, target, cmd in TARGETS:
        fmt = cmd.option("format")
        if fmt is None or "parquet" not in fmt.choices:
            continue
        yield pytest.param(command, target, cmd, id=f"{command}-{target}")


def _small_argv(command, target, cmd) -> list[str]:
    argv = _base(command, target, cmd)
    for opt in cmd.options:
        if opt.name in _SMALL and opt.sample is not None:
            argv += [opt.name, opt.sample]
    if cmd.option("seed") is not None:
        argv += ["--seed", "1"]
    if cmd.option("progress") is not None:
        argv += ["--no-progress"]
    if cmd.option("no_skill") is not None:
        argv += ["--no-skill"]
    if command == "review":  # the table's shape, not the advice: a few layouts (defaults reach 1,024)
        argv += ["--samples", "8"]
    return argv


def _types(col: pd.Series) -> set[str]:
    return {type(v).__name__ for v in col.tolist() if v is not None and not (isinstance(v, float) and v != v)}


@pytest.mark.parametrize("command,target,cmd", list(_table_targets()))
def test_every_table_writes_in_every_format_and_reads_back(command, target, cmd, tmp_path, capsys, monkeypatch):
    argv = _small_argv(command, target, cmd)
    if target == "nantong":  # the table's shape, not the play: a smaller search budget (helpers.small_search)
        small_search(monkeypatch, SLOW_SCALE)
    if command in ("replay", "review"):  # a record to replay or review: written first (docs/records.md)
        from kaptai.records import record_hands

        rec = str(record_hands(target, tmp_path / "games.jsonl", hands=2, seed=1))
        argv = [rec if a == "games.jsonl" else a for a in argv]
    args, extra = build_parser(argv).parse_known_args(argv)
    assert not extra
    out = run_command(args)
    df = out.table
    if df is None:  # a message instead of a table (e.g. a hand with no waits)
        assert out.text
        return
    for c in df.columns:
        if df[c].dtype == object:
            kinds = _types(df[c])
            assert len(kinds) <= 1 or kinds <= {"int", "float"}, (c, kinds)
    if "level" in df.columns:
        assert _types(df["level"]) <= {"str"}, _types(df["level"])
    for fmt, suffix in (("json", "json"), ("csv", "csv"), ("parquet", "parquet"), ("table", "txt")):
        args.format, args.out = fmt, str(tmp_path / f"t.{suffix}")
        show(out, args)
        path = tmp_path / f"t.{suffix}"
        assert path.exists(), fmt
        if fmt == "json":
            rows = json.loads(path.read_text(encoding="utf-8"))
            assert len(rows) == len(df) and (not rows or set(rows[0]) == set(map(str, df.columns)))
        elif fmt == "csv":
            assert len(pd.read_csv(path)) == len(df)
        elif fmt == "parquet":
            back = read_parquet(path)
            assert len(back) == len(df) and list(back.columns) == list(map(str, df.columns))
            assert back.attrs.get("kaptai_version") or back.attrs.get("version"), back.attrs
        else:
            assert path.read_text(encoding="utf-8").startswith("# ")
    capsys.readouterr()
    args.format, args.out = None, None
    show(out, args)
    lines = capsys.readouterr().out.splitlines()
    header = lines[0]  # a long header (a league's) is wrapped: its continuation lines are "#   ..."
    for line in lines[1:]:
        if not line.startswith("#   "):
            break
        header += " " + line[1:].strip()
    if cmd.monte_carlo:  # one seed rule: every Monte Carlo table names the seed that reruns it
        assert f"--seed {args.seed}" in header, header
    if target and target != "atlas":  # labelled with the game that was played (kap-shap is kap-shap)
        assert f"— {target}" in header or header.startswith(f"# {target}:"), header
    if cmd.option("percent") is not None:
        args.format, args.out, args.percent = None, None, True
        show(out, args)
        assert "%" in capsys.readouterr().out, f"--percent is declared for {command} {target} but shows no percentage"
    _check_notation(df, percent=cmd.option("percent") is not None)


_SCI = re.compile(r"^-?\d\.\d+e[+-]\d+%?$")


def _column_cells(df: pd.DataFrame, c: str, percent: bool) -> list[str]:
    """The cells of one column as the table format prints them (blank cells left out)."""
    keys = [k for k in ("metric", "exact", "method") if k in df.columns and k != c]  # what marks a probability
    one = df[[c, *keys]].copy()
    one.attrs = dict(df.attrs)
    text = format_table(one, [c], percent=percent, header=False, metrics={})
    return [line.strip() for line in text.splitlines()[1:] if line.strip()]


def _check_notation(df: pd.DataFrame, percent: bool) -> None:
    """One notation per float column of the table format (all scientific or none), and with
    ``--percent`` no mean (``mean_*``, ``*_mean``) shown as a percentage."""
    for c in df.columns:
        if not pd.api.types.is_float_dtype(df[c]) or df[c].isna().all():
            continue
        for pct in ((False, True) if percent else (False,)):
            cells = _column_cells(df, c, pct)
            kinds = {bool(_SCI.match(x)) for x in cells}
            assert len(kinds) <= 1, (c, pct, cells[:5])
    if percent and {"metric", "value"} <= set(df.columns):
        shown = dict(zip(range(len(df)), _column_cells(df.reset_index(drop=True), "value", True)))
        for i, m in enumerate(df["metric"].astype(str)):
            if m.startswith("mean_") or m.endswith("_mean"):
                assert not shown.get(i, "").endswith("%"), (m, shown.get(i))


def test_a_column_keeps_one_notation_and_means_are_never_percentages():
    df = pd.DataFrame({"metric": ["natural", "mean_waits", "tiny"], "value": [0.00912001234, 2.0365, 1.74311e-06],
                       "exact": ["1/2", "2/1", "1/3"], "method": ["exact"] * 3})
    df.attrs = {"game": "kap-tai-shap"}
    lines = format_table(df, ["metric", "value"], header=False).splitlines()[1:]
    assert [line.split()[1] for line in lines] == ["0.00912001", "2.0365", "0.00000174311"]
    lines = format_table(df, ["metric", "value"], header=False, percent=True).splitlines()[1:]
    assert [line.split()[1] for line in lines] == ["0.9120%", "2.0365", "0.0001743%"]
    huge = pd.DataFrame({"x": [1e20, 0.5, 3.0]})
    assert [c.strip() for c in format_table(huge, header=False).splitlines()[1:]] == [
        "1.00000e+20", "5.00000e-01", "3.00000e+00"]
