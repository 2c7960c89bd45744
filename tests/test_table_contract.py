"""Every table of every command, from the registry: one type per column, and every output
format written and read back (json, csv, parquet with attrs, table), so no format can fail
after a run.  ``--percent`` is declared only where the table has probabilities to show as
percentages, and there it shows them."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from kaptai.cli import build_parser, run_command, show
from kaptai.core.output import read_parquet
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
    return argv


def _types(col: pd.Series) -> set[str]:
    return {type(v).__name__ for v in col.tolist() if v is not None and not (isinstance(v, float) and v != v)}


@pytest.mark.parametrize("command,target,cmd", list(_table_targets()))
def test_every_table_writes_in_every_format_and_reads_back(command, target, cmd, tmp_path, capsys):
    argv = _small_argv(command, target, cmd)
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
    header = capsys.readouterr().out.splitlines()[0]
    if cmd.monte_carlo:  # one seed rule: every Monte Carlo table names the seed that reruns it
        assert f"--seed {args.seed}" in header, header
    if target and target != "atlas":  # labelled with the game that was played (kap-shap is kap-shap)
        assert f"— {target}" in header or header.startswith(f"# {target}:"), header
    if cmd.option("percent") is not None:
        args.format, args.out, args.percent = None, None, True
        show(out, args)
        assert "%" in capsys.readouterr().out, f"--percent is declared for {command} {target} but shows no percentage"
