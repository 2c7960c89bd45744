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


def test_checkpoint_with_a_missing_parent_is_refused_on_the_command_line(tmp_path, capsys):
    ck = tmp_path / "typo" / "x" / "ck"
    rc, _, err = _run(["simulate", "nine-ten", "--hands", "10", "--checkpoint", str(ck)], capsys)
    assert rc == 2 and "does not exist (create it first" in err and not (tmp_path / "typo").exists()
    rc, _, _ = _run(["simulate", "nine-ten", "--hands", "10", "--checkpoint", str(tmp_path / "ck"),
                     "--no-progress"], capsys)
    assert rc == 0 and (tmp_path / "ck").is_dir()  # the checkpoint folder itself is made by the run


@pytest.mark.parametrize("kw,match", [
    ({"seed": -1}, "seed=-1"), ({"seed": 1.5}, "seed=1.5"), ({"seed": "x"}, "seed='x'"), ({"seed": True}, "seed=True"),
    ({"hands": 0}, "hands=0"),
])
def test_record_hands_checks_seed_and_hands(kw, match, tmp_path):
    from kaptai.records import record_hands

    with pytest.raises(KaptaiError, match=match):
        record_hands("nine-ten", tmp_path / "r.jsonl", 4, **kw)
    assert not (tmp_path / "r.jsonl").exists()


@pytest.mark.parametrize("path", [None, 5, ""])
def test_read_record_refuses_what_is_no_path(path):
    from kaptai.core.paths import PathError
    from kaptai.records import read_record

    with pytest.raises(PathError, match="expected a file name"):
        read_record(path)


@pytest.mark.parametrize("game,kw,match", [
    (None, {}, "unknown game None"), (3, {}, "unknown game 3"),
    ("nine-ten", {"players": "4"}, "expected a whole player count"),
    ("nine-ten", {"players": [4, 4]}, "4 is given twice"),
    ("nine-ten", {"policies": ["colour_cut", "random", "random"]}, "'random' is given twice"),
])
def test_policy_league_checks_its_arguments_as_the_command_line_does(game, kw, match):
    from kaptai.league import policy_league

    with pytest.raises(KaptaiError, match=match):
        policy_league(game, hands=10, **kw)


@pytest.mark.parametrize("plays", [["KH"], [], ["KH AH", "2S 4S", "5S 6S"], ["AS", "2S", "3S", "4S", "5S"]])
def test_trick_winner_takes_four_plays(plays):
    from kaptai.heaven11 import trick_winner

    with pytest.raises(KaptaiError, match="4 plays"):
        trick_winner(plays, trump="S")


def test_nantong_messages_name_the_value(tmp_path):
    import kaptai.nantong as nt

    with pytest.raises(KaptaiError, match="got NoneType None"):
        nt.waits(None)
    with pytest.raises(KaptaiError, match="sequence of policy names, got int 5"):
        nt.simulate(3, policies=5)


def test_league_header_names_every_ruleset(capsys):
    rc, out, _ = _run(["league", "kap-tai-shap", "--players", "4", "--rules-list", "traditional,advanced",
                       "--policies", "random,greedy", "--hands", "60", "--seed", "1", "--no-progress"], capsys)
    head = " ".join(line.lstrip("# ") for line in out.splitlines() if line.startswith("#"))  # wrapped at 100
    assert rc == 0 and "rules traditional" in head and "rules advanced" in head


def test_review_numbers_hands_and_decisions_from_zero_everywhere(tmp_path):
    import importlib

    from kaptai.core.review import review, summarize
    from kaptai.records import record_hands

    path = record_hands("nine-ten", tmp_path / "r.jsonl", 4, hands=2, seed=1)
    df = review(importlib.import_module("kaptai.nineten.play"), path, "nine-ten", seats=[0], samples=16, seed=1)
    s = summarize(df)
    worst = df.sort_values(["loss", "hand", "decision"], ascending=[False, True, True]).iloc[0]
    row = s[(s.level == "record") & (s.seat == 0)].iloc[0]
    assert row.worst_decision.startswith(f"hand {int(worst.hand)} decision {int(worst.decision)}:")
    assert set(s[s.level == "hand"].hand) == set(df.hand.unique())


@pytest.mark.parametrize("extra", [[], ["--diff"], ["--cross"]])
def test_a_league_over_two_scorings_names_each_rulesets_unit_and_both_rulesets(extra, capsys):
    """Antes under the pot game, points under advanced scoring: on each row of the JSON, not the
    two-scoring text on every row; and every table's header names both rulesets."""
    argv = ["league", "kap-tai-shap", "--rules-list", "traditional,advanced", "--hands", "40", "--players", "4",
            "--seed", "1", "--policies", "greedy,random", *extra]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    head = " ".join(line.lstrip("# ") for line in lines if line.startswith("#"))  # the header is wrapped at 100
    assert "rules traditional; rules advanced" in head
    assert main([*argv, "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    units = {(r["rules"], r["unit"]) for r in rows if "unit" in r and r["unit"] not in ("probability", "share")}
    assert units <= {("traditional", "ante"), ("advanced", "point")}
    assert {u for _, u in units} == {"ante", "point"}
