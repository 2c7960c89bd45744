"""The user-facing boundary through the command line (issue 13), ``kaptai.cli.main``.

One or more tests per item; each fails on the command line before the fix.
"""
import json
import subprocess
import sys

import pytest

from kaptai.cli import main


def _run(capsys, argv):
    code = main(argv)
    cap = capsys.readouterr()
    return code, cap.out, cap.err


# 1 ------------------------------------------------------------------------------------


def test_1_json_full_precision_and_one_level_type(capsys):
    from kaptai.bigtwo.odds import deal_odds

    code, out, _ = _run(capsys, ["odds", "big-two", "--format", "json"])
    assert code == 0
    rows = json.loads(out)
    dragon = next(r for r in rows if r["metric"] == "dragon")
    assert dragon["value"] == float(deal_odds(4).set_index("metric").value["dragon"]) == 0.00010568099371338212
    code, out, _ = _run(capsys, ["simulate", "big-two", "--hands", "200", "--seed", "1", "--format", "json"])
    sim = json.loads(out)
    code, out, _ = _run(capsys, ["odds", "kap-tai-shap", "--no-distance", "--format", "json"])
    odds = json.loads(out)
    assert {type(r["level"]) for r in sim + odds + rows} == {str, type(None)}
    assert any(r["level"] == "1" for r in sim if r["metric"] == "cards_left")


# 2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["odds", "kap-tai-shap", "--no-distance"],
    ["odds", "big-two", "--players", "3", "--hand", "leftover_receiver"],
    ["simulate", "kap-tai-shap", "--hands", "300", "-o", "claim=any", "--policy", "0=score"],
    ["simulate", "big-two", "--hands", "200"],
    ["fairness", "kap-tai-shap", "--hands", "300", "--seed", "4"],
    ["draw-odds", "kap-tai-shap", "16 16 16 12 33 13 15 22 66 45", "--draws", "2"],
])
def test_2_parquet_on_every_table_command(argv, capsys, tmp_path):
    from kaptai.core.output import read_parquet
    from kaptai.core.tables import STANDARD_ATTRS

    path = tmp_path / "t.parquet"
    code, out, err = _run(capsys, argv + ["--format", "parquet", "--out", str(path)])
    assert code == 0, err
    back = read_parquet(path)
    assert len(back) and all(k in back.attrs for k in STANDARD_ATTRS)
    assert back.attrs["version"] and "kaptai_version" not in back.attrs
    assert err.startswith("# ") and out == ""
    json_path = tmp_path / "t.json"
    assert main(argv + ["--out", str(json_path)]) == 0
    assert json.loads(json_path.read_text())  # format from the suffix
    capsys.readouterr()


def test_2_parquet_needs_out(capsys):
    code, out, err = _run(capsys, ["odds", "big-two", "--format", "parquet"])
    assert code == 2 and "--out" in err and out == ""


# 3 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv,message", [
    (["fairness", "kap-tai-shap", "--hands", "100", "--plot", "/nonexistent/dir/x.png"], "does not exist"),
    (["fairness", "big-two", "--hands", "100", "--plot", "PLOTDIR/missing/x.png"], "does not exist"),
    (["report", "kap-tai-shap", "--hands", "100", "--out", "/proc/r.html"], "cannot write"),
    (["report", "kap-tai-shap", "--hands", "100", "--out", "OUTDIR/missing/r.html"], "does not exist"),
    (["report", "kap-tai-shap", "--hands", "100", "--out", "OUTDIR/r.txt"], ".txt"),
    (["report", "kap-tai-shap", "--hands", "100", "--out", "OUTDIR/r.md", "--format", "html"], ".md"),
    (["simulate", "kap-tai-shap", "--hands", "100", "--checkpoint", "/proc/ck"], "cannot write"),
    (["league", "kap-tai-shap", "--hands", "100", "--plot", "OUTDIR/x.docx"], ".docx"),
    (["simulate", "big-two", "--hands", "100", "--format", "json", "--out", "OUTDIR/t.csv"], ".csv"),
])
def test_3_paths_refused_before_any_work(argv, message, capsys, tmp_path, monkeypatch):
    import importlib

    def no_work(*a, **k):
        raise AssertionError("the run started before its paths were checked")

    stubs = [("kaptai.kts.fairness", "fairness"), ("kaptai.bigtwo.fairness", "fairness"),
             ("kaptai.kts.simulate", "simulate"), ("kaptai.bigtwo.simulate", "simulate"),
             ("kaptai.report", "build_report"), ("kaptai.kts.league", "policy_league")]
    modules = [importlib.import_module(mod) for mod, _ in stubs]  # all imported before any stub: a module
    for module, (_, name) in zip(modules, stubs):                  # imported later would keep the stub
        monkeypatch.setattr(module, name, no_work)
    argv = [a.replace("OUTDIR", str(tmp_path)).replace("PLOTDIR", str(tmp_path)) for a in argv]
    code, out, err = _run(capsys, argv)
    assert code == 2 and err.startswith("kaptai: error: ") and message in err, err
    assert out == "" and "Traceback" not in err


# 4 ------------------------------------------------------------------------------------


def test_4_ctrl_c_says_what_was_saved(capsys, monkeypatch):
    import importlib

    from kaptai.core.runner import RunInterrupted

    def interrupted(*a, **k):
        raise RunInterrupted("3 of 9 chunk(s) are saved in the checkpoint ck: run the same command again to resume")

    monkeypatch.setattr(importlib.import_module("kaptai.kts.simulate"), "simulate", interrupted)
    code, out, err = _run(capsys, ["simulate", "kap-tai-shap", "--hands", "100"])
    assert code == 130 and "kaptai: interrupted: 3 of 9 chunk(s) are saved" in err


def test_4_a_huge_run_starts_with_flat_memory(tmp_path):
    """``--hands 10**12`` in a child process: after a few seconds it holds little memory
    (the chunks are planned lazily) and is still running (no MemoryError)."""
    import os
    import time

    env = dict(os.environ)
    proc = subprocess.Popen([sys.executable, "-m", "kaptai", "simulate", "kap-tai-shap", "--hands", "1000000000000",
                             "--seed", "1", "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            cwd=tmp_path, env=env)
    try:
        time.sleep(6)
        assert proc.poll() is None, proc.stderr.read().decode()
        with open(f"/proc/{proc.pid}/status") as fh:
            rss_kb = next(int(line.split()[1]) for line in fh if line.startswith("VmRSS"))
        assert rss_kb < 600_000, rss_kb
    finally:
        proc.kill()
        proc.wait()


# 5 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game,extra", [
    ("kap-tai-shap", ["-o", "claim=any", "--policy", "0=score,2=random"]),
    ("big-two", ["-o", "winner_bonus=5", "--policy", "1=heuristic"]),
])
def test_5_unseeded_run_names_its_seed_and_reruns_exactly(game, extra, capsys):
    code, out, err = _run(capsys, ["simulate", game, "--hands", "400", "--format", "csv"] + extra)
    assert code == 0
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("# ")
    seed = lines[0].split("--seed ")[1].split(")")[0]
    assert extra[1].split("=")[0] in lines[0]  # the changed option
    assert extra[3].split(",")[0].split("=")[1] in lines[0]  # the policies
    code, again, _ = _run(capsys, ["simulate", game, "--hands", "400", "--format", "csv", "--seed", seed] + extra)
    assert again == out
    code, table, _ = _run(capsys, ["simulate", game, "--hands", "400", "--seed", seed] + extra)
    assert f"--seed {seed}" in table.splitlines()[0] and extra[1].split("=")[0] in table.splitlines()[0]


# 6 ------------------------------------------------------------------------------------

REFUSED = [
    (["odds", "kap-tai-shap", "--straight-order", "hk", "--no-distance"], "--straight-order"),
    (["odds", "big-two", "--rules", "traditional"], "traditional"),
    (["simulate", "big-two", "--players", "4", "--malaysian-swap", "always", "--hands", "10"], "malaysian"),
    (["simulate", "kap-tai-shap", "--malaysian-swap", "never", "--hands", "10"], "malaysian"),
    (["odds", "big-two", "--hand", "leftover_receiver"], "no card is left over"),
    (["odds", "kap-tai-shap", "--hand", "leftover_receiver", "--no-distance"], "--hand"),
    (["evaluate", "kap-shap", "66 66 44 44 14 14 55 55 46 46"], "expected 8"),
    (["simulate", "kap-tai-shap", "--policy", "0=score,0=random", "--hands", "10"], "seat '0' is given twice"),
    (["evaluate", "kap-tai-shap", "66 66 44 44 14 14 55 55 46 46", "-o", "sets=1", "--sets", "3"], "sets=1"),
    (["waits", "kap-tai-shap", "16 16 16 12 33 13 15 22 66", "-o", "sets=1", "--sets", "3"], "sets=1"),
    (["advise", "kap-tai-shap", "16 16 16 12 33 13 15 22 66 45", "-o", "sets=1", "--sets", "3"], "sets=1"),
    (["report", "kap-tai-shap", "--players", "3-1", "--hands", "10", "--out", "OUTDIR/r.html"], "3-1"),
    (["league", "kap-tai-shap", "--players", "3-1", "--hands", "10"], "3-1"),
    (["fairness", "big-two", "--cut", "0.05", "--hands", "10"], "--cut"),
]


@pytest.mark.parametrize("argv,message", REFUSED)
def test_6_options_that_do_not_apply_are_refused(argv, message, capsys, tmp_path):
    argv = [a.replace("OUTDIR", str(tmp_path)) for a in argv]
    code, out, err = _run(capsys, argv)
    assert code == 2 and err.startswith("kaptai: error: ") and message in err, err
    assert out == ""


@pytest.mark.parametrize("argv,message", [
    (["simulate", "kap-tai-shap", "--straight-order", "hk", "--hands", "10"], "--straight-order"),
    (["simulate", "big-two", "--rules", "traditional", "--hands", "10"], "traditional"),
])
def test_6_generic_refusals_of_the_registry_cli(argv, message, capsys):
    """The registry CLI refuses an option no game of the command has (argparse, exit 2) or
    one that belongs to another game (kaptai: error)."""
    try:
        code, out, err = _run(capsys, argv)
    except SystemExit as exc:  # an option the command does not have at all: argparse's usage error
        code, err = exc.code, capsys.readouterr().err
    assert code == 2 and message in err


# 7 ------------------------------------------------------------------------------------


def test_7_checkpoint_refusal_names_the_option(capsys, tmp_path):
    ck = str(tmp_path / "ck")
    assert main(["simulate", "kap-tai-shap", "--hands", "300", "--seed", "1", "--checkpoint", ck, "--format", "csv"]) == 0
    capsys.readouterr()
    code, out, err = _run(capsys, ["simulate", "kap-tai-shap", "--hands", "300", "--seed", "1", "--checkpoint", ck,
                                   "-o", "claim=any"])
    assert code == 2 and "rules.claim" in err and "..." not in err


# 8 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["odds", "big-two"],
    ["odds", "kap-tai-shap", "--no-distance"],
    ["draw-odds", "kap-tai-shap", "16 16 16 12 33 13 15 22 66 45", "--draws", "2"],
    ["advise", "kap-tai-shap", "16 16 16 12 33 13 15 22 66 45", "--draws", "2"],
    ["fairness", "kap-tai-shap", "--hands", "300"],
    ["fairness", "big-two", "--hands", "200"],
    ["simulate", "kap-shap", "--hands", "300"],
    ["evaluate", "kap-tai-shap", "66 66 44 44 14 14 55 55 46 46"],
    ["waits", "kap-tai-shap", "16 16 16 12 33 13 15 22 66"],
])
def test_8_every_table_command_prints_a_header_and_no_bar_off_a_terminal(argv, capsys):
    code, out, err = _run(capsys, argv)  # capsys: stderr is not a terminal
    assert code == 0
    assert out.startswith("# ") and " — " in out.splitlines()[0]
    assert err == ""  # no progress bar written into a log
    assert "/1 " not in out and not out.rstrip().endswith("/1")


def test_8_percent_and_noise(capsys):
    code, out, _ = _run(capsys, ["odds", "big-two", "--percent"])
    assert code == 0 and "%" in out
    code, out, _ = _run(capsys, ["simulate", "big-two", "--hands", "300", "--seed", "1", "--percent"])
    win = [line for line in out.splitlines() if line.strip().startswith("win ")]
    assert win and all("%" in line for line in win)
    mean = [line for line in out.splitlines() if line.strip().startswith("cards_left_mean")]
    assert mean and not any("%" in line for line in mean)


# no traceback ----------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["fairness", "kap-tai-shap", "--hands", "50", "--plot", "/nonexistent/dir/x.png"],
    ["report", "kap-tai-shap", "--hands", "50", "--out", "/proc/r.html"],
    ["report", "kap-tai-shap", "--players", "3-1"],
])
def test_no_traceback_in_a_shell(argv, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "kaptai", *argv], capture_output=True, text=True, cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.startswith("kaptai: error: ")
