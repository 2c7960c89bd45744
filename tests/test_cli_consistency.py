"""Command lines that were accepted and ignored, or printed what they did not do, found by
reading every command's output as a user would (2026-12-05): each is now refused or fixed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError


def _run(argv, capsys):
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_kts_fairness_takes_seat_policies(capsys):
    rc, out, _ = _run(["fairness", "kap-tai-shap", "--hands", "60", "--policy", "0=random", "--no-progress"], capsys)
    assert rc == 0 and "policies 0=random,1=greedy,2=greedy,3=greedy" in out.splitlines()[0]
    rc, _, err = _run(["fairness", "kap-shap", "--hands", "60", "--policy", "4=random"], capsys)
    assert rc == 2 and "seat 4 does not exist" in err


def test_a_cut_that_contradicts_the_house_cut_sweep_is_refused():
    from kaptai.kts.fairness import resolve_variants

    with pytest.raises(KaptaiError, match="conflicts with variant 'cut 0%'"):
        resolve_variants("house_cut", 4, 0.1)
    assert {v.rules.house_cut for v in resolve_variants("presets", 4, 0.1)} == {0.1}
    assert len({v.rules.house_cut for v in resolve_variants("house_cut", 4, None)}) == 11


@pytest.mark.parametrize("argv,message", [
    (["odds", "kap-tai-shap", "--rules", "advanced", "-o", "name=traditional"], "'name' labels a set of rules"),
    (["simulate", "big-two", "--hands", "10", "-o", "dice=3", "-o", "dice=4"], "unknown rule option(s) 'dice'"),
    (["simulate", "big-two", "--hands", "10", "-o", "settlment=x"], "did you mean 'settlement'"),
])
def test_rule_names_are_checked_first(argv, message, capsys):
    rc, out, err = _run(argv, capsys)
    assert rc == 2 and message in err and out == ""


def test_kts_advise_score_header_says_what_orders_the_rows(capsys):
    rc, out, _ = _run(["advise", "kap-tai-shap", "16 16 12 33 13 15 22 66 45 55", "--objective", "score",
                       "--format", "json"], capsys)
    rows = json.loads(out)["rows"] if out.lstrip().startswith("{") else json.loads(out)
    df = pd.DataFrame(rows)
    key = (df["p_win_within"] * df["expected_score"]).round(12)
    assert rc == 0 and key.is_monotonic_decreasing
    _, table, _ = _run(["advise", "kap-tai-shap", "16 16 12 33 13 15 22 66 45 55", "--objective", "score"], capsys)
    assert "ranked by p_win_within × expected_score" in table.splitlines()[0]


def test_percent_follows_the_unit_column():
    from kaptai.core.output import format_table

    df = pd.DataFrame({"measure": ["rate", "share", "edge"], "value": [0.0125, 0.25, 0.05],
                       "unit": ["probability", "share of swing", "probability"],
                       "method": ["monte_carlo", "exact", "exact"]})
    text = format_table(df, list(df.columns), percent=True)
    rows = {line.split()[0]: line for line in text.splitlines() if line.split() and line.split()[0] in df.measure.values}
    assert "1.250%" in rows["rate"] and "%" not in rows["share"] and "5.000%" in rows["edge"]


def test_design_refuses_an_option_twice_and_a_first_round_longer_than_the_last():
    from kaptai.core.design import design
    from kaptai.design import feed_design

    game = feed_design("big-two")
    with pytest.raises(KaptaiError, match="given twice"):
        design(game, hands=50, options=["redeal", "redeal"])
    with pytest.raises(KaptaiError, match="more than hands"):
        design(game, hands=40, start_hands=100)


def test_sd_interval_has_width_and_covers_at_small_n():
    from kaptai.core.stats import sd_interval

    rng = np.random.default_rng(5)
    for n in (2, 3, 5, 10):
        x = rng.normal(0.0, 1.0, size=(4000, n))
        sd, lo, hi = sd_interval(x.sum(1), (x**2).sum(1), (x**3).sum(1), (x**4).sum(1), np.full(4000, n))
        assert np.all(hi > lo)
        cover = float(np.mean((lo <= 1.0) & (1.0 <= hi)))
        assert cover >= 0.93, (n, cover)


@pytest.mark.parametrize("field,value", [("players", 3), ("stake", 2.0)])
def test_replay_refuses_a_header_that_contradicts_its_rules(field, value, tmp_path, capsys):
    from kaptai.records import record_hands

    path = record_hands("big-two", tmp_path / "r.jsonl", 4, hands=1, seed=1)
    lines = open(path).read().splitlines()
    head = json.loads(lines[0])
    head[field] = value
    (tmp_path / "bad.jsonl").write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    rc, _, err = _run(["replay", "big-two", str(tmp_path / "bad.jsonl")], capsys)
    assert rc == 2 and f"line 1, field {field}" in err and "contradicts the rules'" in err


@pytest.mark.parametrize("game,argv,text", [
    ("nantong", ["--matches", "1"], "policies 0=random,1=max_melds,2=max_melds"),
    ("heaven-eleven", ["--hands", "20"], "policies 0=random,1=greedy,2=greedy,3=greedy"),
])
def test_fairness_header_names_the_policies(game, argv, text, capsys):
    rc, out, _ = _run(["fairness", game, *argv, "--policy", "0=random", "--no-progress"], capsys)
    assert rc == 0 and text in out.splitlines()[0]


def test_out_suffix_message_lists_every_table_format(tmp_path, capsys):
    rc, _, err = _run(["odds", "big-two", "--out", str(tmp_path / "o.xlsx")], capsys)
    assert rc == 2 and ".txt or .csv or .json or .parquet" in err
    rc, _, err = _run(["odds", "big-two", "--format", "csv", "--out", str(tmp_path / "o.json")], capsys)
    assert rc == 2 and "expected a file ending in .csv" in err
