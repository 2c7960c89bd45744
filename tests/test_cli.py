"""The kaptai command line: output formats, exit codes, error messages."""
import json
import subprocess
import sys

import pytest

from kaptai.cli import main


def test_odds_json_rows(capsys):
    assert main(["odds", "kap-tai-shap", "--players", "4", "--rules", "advanced", "--format", "json",
                 "--no-distance"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and rows
    assert all("metric" in r and "value" in r for r in rows)
    natural = [r for r in rows if r["metric"] == "natural"]
    assert len(natural) == 1 and 0.04 < natural[0]["value"] < 0.06
    seats = [r for r in rows if r["metric"] == "first_hand_seat"]
    assert [r["level"] for r in seats] == ["0", "1", "2", "3"]
    assert abs(sum(r["value"] for r in seats) - 1) < 1e-12


def test_odds_csv_and_table(capsys):
    assert main(["odds", "kap-shap", "--format", "csv", "--no-distance"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game,rules,players,sets,hand,metric")
    assert any(line.startswith("kap-shap,traditional,2,1,first,natural") for line in out)
    assert main(["odds", "kap-tai-shap", "--players", "3", "--no-distance"]) == 0
    assert "natural" in capsys.readouterr().out


def test_rule_options_from_the_shell(capsys):
    assert main(["odds", "kap-tai-shap", "-o", "forms=basic,run4", "-o", "gee_joon_run_value=3",
                 "--format", "json", "--no-distance"]) == 0
    rows = json.loads(capsys.readouterr().out)
    forms = {r["level"] for r in rows if r["metric"] == "form_distribution"}
    assert forms == {"basic", "run4"}


def test_evaluate_and_waits(capsys):
    assert main(["evaluate", "kap-tai-shap", "66 66 44 44 14 14 55 55 46 46", "--rules", "advanced",
                 "--format", "json"]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["score"] == 10 and row["form"] == "general_eyes"
    assert main(["waits", "kap-tai-shap", "16 16 16 12 33 13 15 22 66", "--seen", "44 26", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["tile"]: r["live_outs"] for r in rows} == {"4-4": 3, "2-6": 1, "3-5": 2}


@pytest.mark.parametrize(
    "argv,message",
    [
        (["odds", "kap-tai-shap", "--players", "23"], "from 2 to 22 (players), got '23'"),
        (["odds", "kap-tai-shap", "--rules", "fancy"], "got 'fancy'"),
        (["odds", "kap-tai-shap", "-o", "bogus=1"], "bogus"),
        (["odds", "kap-tai-shap", "-o", "house_cut=2"], "house_cut"),
        (["evaluate", "kap-tai-shap", "66 66 17 44 14 14 55 55 46 46"], "'17'"),
        (["evaluate", "kap-tai-shap", "66 66 44"], "3 tiles"),
        (["evaluate", "kap-tai-shap", "雜九 66 44 44 14 14 55 55 46 46"], "4-5 or 3-6"),
        (["odds", "mahjong"], "unknown game 'mahjong'"),
        (["waits", "big-two"], "'kaptai waits big-two' is not available yet"),
        (["simulate", "big-two", "--hands", "10", "-o", "suit_order=french"], "suit_order"),
        (["odds", "big-two", "--players", "53"], "from 2 to 52 (players), got '53'"),
        (["simulate", "big-two", "--hands", "10", "--policy", "0=smart"], "unknown policy 'smart'"),
    ],
)
def test_bad_input_exits_2_without_traceback(argv, message, tmp_path):
    # run outside the source tree so the installed package (with its extensions) is used
    proc = subprocess.run([sys.executable, "-m", "kaptai", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_simulate_json_rows(capsys):
    assert main(["simulate", "kap-tai-shap", "--players", "4", "--hands", "3000", "--seed", "1",
                 "--format", "json", "--no-progress"]) == 0
    rows = json.loads(capsys.readouterr().out)
    for key in ("metric", "seat", "relative_to", "value", "ci_low", "ci_high"):
        assert all(key in r for r in rows)
    names = {r["metric"] for r in rows}
    assert {"win", "win_natural", "win_claimed", "win_self_drawn", "drawn_hand"} <= names
    wins = [r for r in rows if r["metric"] == "win" and r["relative_to"] == "first_hand"]
    assert [r["seat"] for r in wins] == [0, 1, 2, 3]
    assert all(r["ci_low"] <= r["value"] <= r["ci_high"] for r in rows if r["ci_low"] is not None)
    drawn = [r for r in rows if r["metric"] == "drawn_hand"]
    assert len(drawn) == 1 and drawn[0]["seat"] is None


def test_simulate_same_seed_same_output(capsys):
    argv = ["simulate", "kap-shap", "--hands", "2000", "--seed", "5", "--format", "csv", "--no-progress"]
    main(argv)
    first = capsys.readouterr().out
    main(argv + ["--workers", "2"])
    assert capsys.readouterr().out == first


def test_advise_ranks_the_useless_tile_first(capsys):
    assert main(["advise", "kap-tai-shap", "16 16 16 12 33 13 15 22 66 45", "--seen", "44", "--draws", "3",
                 "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["discard"] == "4-5" and rows[0]["rank"] == 1
    assert rows[0]["waits"] == "4-4 2-6 3-5"


@pytest.mark.parametrize(
    "argv,message",
    [
        (["simulate", "kap-tai-shap", "--hands", "0"], "argument --hands/--games: expected a whole number from 1"),
        (["simulate", "kap-tai-shap", "--policy", "smart", "--hands", "10"], "unknown policy 'smart'"),
        (["simulate", "kap-tai-shap", "--policy", "9=random", "--hands", "10"], "seat 9"),
        (["advise", "kap-tai-shap", "16 16 16 12 33 13 15 22 66 45", "--draws", "0"], "argument --draws: expected a whole number from 1 to 12 (own draws), got '0'"),
        (["advise", "kap-tai-shap", "16 16 16 12 33 13 15 22 66 45", "--seen", "16 16 16"], "1-6"),
    ],
)
def test_bad_simulate_and_advise_input(argv, message, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kaptai", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_league_table_and_plot(capsys, tmp_path):
    plot = tmp_path / "league.png"
    assert main(["league", "kap-tai-shap", "--players", "3", "--rules-list", "traditional", "--hands", "600",
                 "--seed", "2", "--format", "json", "--no-progress", "--plot", str(plot)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["policy"] for r in rows} == {"random", "greedy", "score", "lookahead", "lookahead_score",
                                          "search"}   # every built-in
    assert {"win", "win_share", "ev_per_hand", "value_of_play"} <= {r["metric"] for r in rows}
    assert plot.stat().st_size > 1000


def test_fairness_json_rows(capsys, tmp_path):
    plot = tmp_path / "fair.png"
    assert main(["fairness", "kap-tai-shap", "--players", "4", "--hands", "2000", "--seed", "1", "--format", "json",
                 "--no-progress", "--plot", str(plot)]) == 0
    rows = json.loads(capsys.readouterr().out)
    for key in ("variant", "seat", "relative_to", "metric", "value", "ci_low", "ci_high"):
        assert all(key in r for r in rows)
    ev = [r for r in rows if r["metric"] == "ev_per_hand" and r["variant"] == "traditional" and r["relative_to"] == "dealer"]
    assert [r["seat"] for r in ev] == [0, 1, 2, 3]
    take = [r for r in rows if r["metric"] == "house_take_per_hand" and r["variant"] == "traditional"]
    assert len(take) == 1 and take[0]["seat"] is None
    # pot game: the seats' EVs and the house take sum to zero
    assert abs(sum(r["value"] for r in ev) + take[0]["value"]) < 1e-9
    assert plot.stat().st_size > 1000


@pytest.mark.parametrize(
    "argv,message",
    [
        (["fairness", "kap-tai-shap", "--hands", "100", "--cut", "1.5"], "argument --cut: expected a number from 0 to 1 (share of the pot), got '1.5'"),
        (["fairness", "kap-tai-shap", "--hands", "100", "--variants", "bogus"], "unknown variants 'bogus'"),
    ],
)
def test_bad_fairness_input(argv, message, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kaptai", *argv], capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr


def test_checkpoint_resume_and_refusal(capsys, tmp_path):
    ck = tmp_path / "ck"
    argv = ["simulate", "kap-tai-shap", "--hands", "5000", "--seed", "3", "--format", "csv", "--no-progress",
            "--checkpoint", str(ck)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert any(ck.iterdir())
    assert main(argv) == 0  # every chunk is already there: same table
    assert capsys.readouterr().out == first
    assert main(argv[:3] + ["6000"] + argv[4:]) == 2
    assert "hands: 5000 in the checkpoint, 6000 now" in capsys.readouterr().err


def test_report_and_fairness_take_runner_flags(tmp_path, capsys):
    out = tmp_path / "r.md"
    assert main(["report", "kap-tai-shap", "--players", "4", "--hands", "400", "--seed", "2", "--out", str(out),
                 "--checkpoint", str(tmp_path / "ck"), "--no-progress"]) == 0
    first = out.read_text(encoding="utf-8").split("\n", 3)[3]  # skip the generated-at line
    assert main(["report", "kap-tai-shap", "--players", "4", "--hands", "400", "--seed", "2", "--out", str(out),
                 "--checkpoint", str(tmp_path / "ck"), "--no-progress"]) == 0
    assert out.read_text(encoding="utf-8").split("\n", 3)[3] == first
    assert main(["fairness", "kap-tai-shap", "--hands", "800", "--seed", "1", "--workers", "2", "--format", "csv",
                 "--no-progress", "--checkpoint", str(tmp_path / "ckf")]) == 0
    assert "ev_per_hand" in capsys.readouterr().out


def test_big_two_odds_json(capsys):
    assert main(["odds", "big-two", "--players", "4", "--straight-order", "hk", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    names = {r["metric"] for r in rows}
    assert {"pair", "two_pair", "triple", "four_of_a_kind", "full_house", "straight", "flush", "straight_flush",
            "dragon", "four_twos", "redeal_points_lt_3", "redeal_hk_max10"} <= names
    # every metric of the issue is exactly one row: a dict metric -> value is safe
    plain = [r["metric"] for r in rows if r["metric"] not in ("straight_by_order", "straight_flush_by_order", "best_five")]
    assert len(plain) == len(set(plain))
    dragon = [r for r in rows if r["metric"] == "dragon" and r["breakdown"] is None][0]
    from fractions import Fraction
    from math import comb

    assert Fraction(dragon["exact"]) == Fraction(4**13, comb(52, 13))  # one of each rank: about 1 in 9,462


def test_big_two_odds_other_hands_and_best_five(capsys):
    assert main(["odds", "big-two", "--players", "3", "--hand", "leftover_receiver", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["hand"] for r in rows} == {18}
    assert any(r["metric"] == "table_redeal_points_lt_3" for r in rows)
    assert main(["odds", "big-two", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    best = [r for r in rows if r["metric"] == "best_five" and r["breakdown"] is None]
    assert abs(sum(r["value"] for r in best) - 1) < 1e-8  # JSON keeps 10 significant digits


def test_big_two_report_command(tmp_path, capsys):
    out = tmp_path / "b2.md"
    assert main(["report", "big-two", "--players", "4", "--hands", "500", "--seed", "2", "--out", str(out),
                 "--no-progress"]) == 0
    assert out.read_text(encoding="utf-8").startswith("# Big Two")
