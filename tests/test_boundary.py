"""The user-facing boundary, library level (issue 13): one test per item.

Each test fails on the code before the fix (rounded JSON, no parquet attrs, paths checked
after the run, chunks planned up front, lost seeds, silently ignored options, TypeErrors,
unreadable text tables).
"""
import functools
import io
import json
import math
import os
import tracemalloc
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from kaptai.errors import KaptaiError, RulesError


# --------------------------------------------------------------------------------------
# 1. Full precision in JSON; one type for level
# --------------------------------------------------------------------------------------


def test_1_json_floats_round_trip_exactly_and_level_is_text():
    from kaptai.bigtwo.odds import deal_odds as big_two_odds
    from kaptai.core.tables import to_json_records
    from kaptai.kts.odds import deal_odds
    from kaptai.kts.simulate import simulate

    for df in (big_two_odds(4), deal_odds(4, "traditional", distance=False)):
        rows = json.loads(to_json_records(df))
        assert [r["value"] for r in rows] == df["value"].tolist()  # the same doubles, bit for bit
    rows = json.loads(to_json_records(big_two_odds(4)))
    dragon = next(r for r in rows if r["metric"] == "dragon")
    assert dragon["value"] == 0.00010568099371338212
    special = deal_odds(4, "traditional", distance=False)
    all_pairs = special[special.level == "all_pairs"].value.tolist()
    assert all_pairs and [r["value"] for r in json.loads(to_json_records(special)) if r["level"] == "all_pairs"] == all_pairs
    sim = simulate(4, "traditional", 300, seed=1, progress=False)
    sim_rows = json.loads(to_json_records(sim))
    for r, v in zip(sim_rows, sim.value.tolist()):
        assert (r["value"] is None and math.isnan(v)) or r["value"] == v
    levels = {type(r["level"]) for r in sim_rows + rows}
    assert levels == {str, type(None)}  # text or null in every table


# --------------------------------------------------------------------------------------
# 2. Parquet with attrs; one set of attrs keys
# --------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _tables():
    from kaptai.bigtwo.odds import deal_odds as big_two_odds
    from kaptai.bigtwo.simulate import simulate as big_two_simulate
    from kaptai.kts.odds import deal_odds
    from kaptai.kts.simulate import simulate

    return {
        "kts_odds": deal_odds(4, "advanced", distance=False),
        "kts_simulate": simulate(4, "advanced", 400, seed=None, policies=["score", "greedy", "random", "greedy"],
                                 progress=False),
        "big_two_odds": big_two_odds(3, hand="leftover_receiver"),
        "big_two_simulate": big_two_simulate(4, {"winner_bonus": 5}, 300, seed=2, progress=False),
    }


@pytest.mark.parametrize("name", ["kts_odds", "kts_simulate", "big_two_odds", "big_two_simulate"])
def test_2_parquet_round_trip_keeps_the_table_and_its_attrs(name, tmp_path):
    from kaptai.core.output import read_parquet, write_table
    from kaptai.core.tables import STANDARD_ATTRS, json_value

    df = _tables()[name]
    for key in STANDARD_ATTRS:
        assert key in df.attrs, key
    assert "kaptai_version" not in df.attrs
    assert df.attrs["game"] in ("kap-tai-shap", "big-two") and isinstance(df.attrs["players"], int)
    from kaptai.bigtwo.rules import RuleSet as BigTwoRules
    from kaptai.kts.rules import RuleSet

    options = (BigTwoRules if df.attrs["game"] == "big-two" else RuleSet).option_names()
    assert set(df.attrs["rules"]) == set(options)  # every option, not only the changed ones
    path = write_table(df, tmp_path / f"{name}.parquet", "parquet")
    back = read_parquet(path)
    # written as the table contract has it (kaptai.core.tables.conform_table): the same table,
    # its level as text
    from kaptai.core.tables import conform_table

    pd.testing.assert_frame_equal(back, conform_table(df))
    assert all(isinstance(v, str) or pd.isna(v) for v in back["level"])
    pd.testing.assert_frame_equal(back.drop(columns=["level"], errors="ignore"), df.drop(columns=["level"], errors="ignore"))
    assert back.attrs == json_value(dict(df.attrs))
    if df.attrs["seed_entropy"] is not None:
        assert back.attrs["seed_entropy"] == df.attrs["seed_entropy"]  # 128-bit entropy survives
        assert back.attrs["samples"] > 0 and len(back.attrs["policies"]) == back.attrs["players"]


# --------------------------------------------------------------------------------------
# 3. Paths checked before the work
# --------------------------------------------------------------------------------------


def test_3_paths_are_checked_before_any_work(tmp_path):
    from types import SimpleNamespace

    from kaptai.core.paths import PathError, check_arg_paths, check_checkpoint_dir, check_output_path

    with pytest.raises(PathError, match="does not exist"):
        check_output_path("/nonexistent/dir/x.png", ("png",), what="--plot")
    with pytest.raises(PathError, match="does not exist"):  # one rule for --out and --plot
        check_output_path(tmp_path / "missing" / "r.html", ("html",), what="--out")
    with pytest.raises(PathError, match="cannot write"):
        check_output_path("/proc/r.html", ("html", "md"), what="--out")
    with pytest.raises(PathError, match=r"\.txt file"):
        check_arg_paths(SimpleNamespace(command="report", out=str(tmp_path / "r.txt"), format="html"))
    with pytest.raises(PathError, match="cannot write"):
        check_checkpoint_dir("/proc/kaptai-checkpoint")
    (tmp_path / "file").write_text("x")
    with pytest.raises(PathError, match="is a file"):
        check_checkpoint_dir(tmp_path / "file")
    with pytest.raises(PathError, match="parquet"):
        check_arg_paths(SimpleNamespace(command="odds", out=None, format="parquet"))
    assert check_output_path(tmp_path / "r.md", ("html", "md")).name == "r.md"
    assert issubclass(PathError, KaptaiError)


# --------------------------------------------------------------------------------------
# 4. Bounded memory for any run size; Ctrl-C keeps the finished chunks
# --------------------------------------------------------------------------------------


def _stop_at_five(chunk):
    if chunk.index == 5:
        raise KeyboardInterrupt
    return {"n": np.array([chunk.size])}


def test_4_huge_runs_plan_chunks_lazily_and_ctrl_c_saves(tmp_path):
    from kaptai.core.runner import RunInterrupted, plan_chunks, run_chunks

    tracemalloc.start()
    plan = plan_chunks(10**15, 1000, seed=3)  # 10**12 chunks
    assert len(plan) == 10**12 and plan[10**12 - 1].start == 10**15 - 1000
    assert plan[7].seed.spawn_key == np.random.SeedSequence(3).spawn(8)[7].spawn_key
    with pytest.raises(RunInterrupted, match="5 of 1000000000000 chunk"):
        run_chunks(_stop_at_five, plan, checkpoint=tmp_path / "ck", fingerprint={"job": 1}, progress=False)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20 * 2**20, peak  # flat: a few MB, whatever the run size
    assert sorted(p.name for p in (tmp_path / "ck").glob("chunk-*.npz")) == [f"chunk-{i:06d}.npz" for i in range(5)]
    assert isinstance(RunInterrupted(), KeyboardInterrupt)


def test_4_simulate_a_trillion_hands_starts_at_once():
    """The simulation front ends hand the runner a lazy plan (no list of every chunk)."""
    import kaptai.kts.simulate as kts_simulate
    from kaptai.core import runner

    seen = {}

    def fake_run_chunks(fn, tasks, **kwargs):
        seen["n"], seen["type"] = len(tasks), type(tasks).__name__
        first = tasks[0]
        raise KeyboardInterrupt(first[3])

    original = kts_simulate.run_chunks
    kts_simulate.run_chunks = fake_run_chunks
    try:
        tracemalloc.start()
        with pytest.raises(KeyboardInterrupt):
            kts_simulate.simulate(4, "traditional", 10**12, seed=1, progress=False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        kts_simulate.run_chunks = original
    assert seen["n"] == -(-10**12 // kts_simulate.CHUNK_HANDS) and seen["type"] == "LazyTasks"
    assert peak < 20 * 2**20
    assert runner.LazyTasks is not None


# --------------------------------------------------------------------------------------
# 5. The seed is never lost
# --------------------------------------------------------------------------------------


def test_5_an_unseeded_run_reports_its_entropy_and_reruns_exactly():
    from kaptai.bigtwo.simulate import simulate as big_two_simulate
    from kaptai.core.output import format_table, provenance_line
    from kaptai.kts.rules import RuleSet
    from kaptai.kts.simulate import simulate

    rules = RuleSet.preset("advanced", claim="any")
    df = simulate(4, rules, 500, seed=None, policies=["score", "greedy", "greedy", "random"], progress=False)
    entropy = df.attrs["seed_entropy"]
    again = simulate(4, rules, 500, seed=entropy, policies=["score", "greedy", "greedy", "random"], progress=False)
    pd.testing.assert_frame_equal(df, again)
    line = provenance_line(df)
    assert line.startswith("# ") and "\n" not in line
    assert f"--seed {entropy}" in line and "claim='any'" in line and "0=score,1=greedy,2=greedy,3=random" in line
    header = format_table(df).splitlines()[0]
    assert f"--seed {entropy}" in header and "claim='any'" in header
    b2 = big_two_simulate(4, None, 200, seed=None, progress=False)
    assert f"--seed {b2.attrs['seed_entropy']}" in provenance_line(b2)
    pd.testing.assert_frame_equal(b2, big_two_simulate(4, None, 200, seed=b2.attrs["seed_entropy"], progress=False))


# --------------------------------------------------------------------------------------
# 6. Nothing silently ignored
# --------------------------------------------------------------------------------------


def test_6_options_that_would_be_ignored_are_refused():
    from kaptai.bigtwo.odds import deal_odds as big_two_odds
    from kaptai.bigtwo.simulate import simulate as big_two_simulate
    from kaptai.core.options import parse_player_range, parse_seat_policies
    from kaptai.kts.evaluate import evaluate, waits
    from kaptai.kts.rules import RuleSet

    with pytest.raises(RulesError, match="3-1 is empty"):
        parse_player_range("3-1")
    assert parse_player_range("2-4,8") == [2, 3, 4, 8]
    with pytest.raises(RulesError, match="given twice"):
        parse_player_range("3-5,4")
    with pytest.raises(RulesError, match="seat 0 is given twice"):
        parse_seat_policies("0=score,0=random", 4)
    with pytest.raises(RulesError, match="malaysian_swap='always' does not apply"):
        big_two_simulate(4, None, 10, seed=1, malaysian_swap="always", progress=False)
    big_two_simulate(3, {"players": 3, "malaysian_3p": True}, 10, seed=1, malaysian_swap="always", progress=False)
    from kaptai.bigtwo.odds import check_hand_kind

    # the API keeps hand='leftover_receiver' at 4 players (the ♦3 holder's hand, used by the
    # maths); the command line asks check_hand_kind, which refuses it where no card is left over
    assert len(big_two_odds(4, hand="leftover_receiver"))
    with pytest.raises(RulesError, match="no card is left over"):
        check_hand_kind(4, "leftover_receiver")
    with pytest.raises(RulesError, match="no card is left over"):
        check_hand_kind(2, "non_receiver")
    assert check_hand_kind(3, "leftover_receiver") == "leftover_receiver"
    ten = "66 66 44 44 14 14 55 55 46 46"
    with pytest.raises(KaptaiError, match="10 tiles: expected 8"):
        evaluate(ten, "traditional", players=2)
    assert evaluate(ten, "traditional", players=4).is_win
    with pytest.raises(RulesError, match="contradicts the rules' option sets=1"):
        evaluate(ten, RuleSet(sets=1), sets=3)
    with pytest.raises(RulesError, match="contradicts"):
        waits("16 16 16 12 33 13 15 22 66", RuleSet(sets=1), sets=3)
    with pytest.raises(KaptaiError, match="expected 7"):
        waits("66 11 44 13 14 15 22 26 35", "traditional", players=2)


# --------------------------------------------------------------------------------------
# 7. Every bad input is a KaptaiError; deterministic errors are not retried
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: __import__("kaptai.bigtwo.cards", fromlist=["x"]).parse_cards(None),
    lambda: __import__("kaptai.bigtwo.cards", fromlist=["x"]).parse_cards(42),
    lambda: __import__("kaptai.bigtwo.cards", fromlist=["x"]).parse_hand(b"3S 4S"),
    lambda: __import__("kaptai.bigtwo.evaluate", fromlist=["x"]).classify(3.14),
    lambda: __import__("kaptai.bigtwo.evaluate", fromlist=["x"]).classify(np.array(3)),
    lambda: __import__("kaptai.kts.tiles", fromlist=["x"]).parse_hand(np.array(5)),
    lambda: __import__("kaptai.kts.tiles", fromlist=["x"]).parse_hand(b"66"),
])
def test_7_non_hand_inputs_raise_kaptai_errors(call):
    with pytest.raises(KaptaiError):
        call()


def test_7_a_policy_illegal_play_reaches_the_caller_as_itself():
    from kaptai.bigtwo import IllegalPlayError, Policy
    from kaptai.bigtwo.simulate import simulate as big_two_simulate
    from kaptai.core.runner import ChunkError, run_chunks

    class Cheat(Policy):
        name = "cheat"
        calls = 0

        def choose(self, view):
            Cheat.calls += 1
            return "2S 2H"

    with pytest.raises(IllegalPlayError, match="not in hand") as info:
        big_two_simulate(4, None, 50, seed=1, policies=[Cheat(), "greedy", "greedy", "greedy"], progress=False)
    assert not isinstance(info.value, ChunkError)
    calls = []

    def bad(task):
        calls.append(task)
        raise RulesError(f"bad task {task}")

    with pytest.raises(RulesError, match="bad task 0"):
        run_chunks(bad, [0, 1], progress=False)
    assert calls.count(0) == 1 and calls.count(1) <= 1  # not retried


def test_7_a_refused_checkpoint_names_the_differing_option(tmp_path):
    from kaptai.core.runner import CheckpointError
    from kaptai.kts.simulate import simulate

    simulate(2, "traditional", 200, seed=5, checkpoint=tmp_path, progress=False)
    with pytest.raises(CheckpointError) as info:
        simulate(2, {"name": "traditional", "claim": "any"}, 200, seed=5, checkpoint=tmp_path, progress=False)
    msg = str(info.value)
    assert "rules.claim: \"previous\" in the checkpoint, \"any\" now" in msg
    assert "..." not in msg and "rules.forms" not in msg


# --------------------------------------------------------------------------------------
# 8. Output a person reads
# --------------------------------------------------------------------------------------


def test_8_tables_for_a_person():
    from kaptai.core.output import format_table, want_progress
    from kaptai.kts.odds import deal_odds

    df = pd.DataFrame({
        "metric": ["house_take_per_hand", "win", "natural"],
        "seat": pd.array([None, 0, None], dtype="Int64"),
        "empty": [None, None, None],
        "value": [-4.01e-16, 0.25, 0.5],
        "ci_low": [-4.08e-16, 0.2, 0.5],
        "ci_high": [-3.94e-16, 0.3, 0.5],
        "exact": [None, None, "8/1"],
        "method": ["monte_carlo", "monte_carlo", "exact"],
    })
    df.attrs = {"game": "kap-tai-shap", "players": 4}
    text = format_table(df, title="what this is")
    lines = text.splitlines()
    assert lines[0].startswith("# what this is — kap-tai-shap, 4 players")
    assert "e-16" not in text and "e-1" not in text and "8/1" not in text
    assert "empty" not in lines[1] and "exact" in lines[1]
    assert lines[2].split()[1:4] == ["0", "0", "0"]  # noise as 0, the interval too
    pct = format_table(df, percent=True)
    assert "25.00%" in pct and "50.00%" in pct  # 4 significant digits, one notation
    odds = format_table(deal_odds(4, "traditional", distance=False), percent=True)
    assert "%" in odds and " 1/1" not in format_table(deal_odds(4, "traditional", distance=False))
    assert want_progress(False, io.StringIO()) is False
    assert want_progress(True, io.StringIO()) is False


def test_8_every_table_has_a_header():
    from kaptai.core.output import format_table
    from kaptai.kts.advisor import draw_odds

    df = draw_odds("16 16 16 12 33 13 15 22 66 45", "traditional", draws=2)
    head = format_table(df, title="draw odds").splitlines()[0]
    assert head.startswith("# draw odds — ") and "rules traditional" in head


# --------------------------------------------------------------------------------------
# 9. Reports (the figures and numbers; rendering is checked by eye, see the report notes)
# --------------------------------------------------------------------------------------


def test_9_report_numbers_and_labels():
    from kaptai.core.output import format_estimate, wrap_label
    from kaptai.kts.league import plot_league, policy_league

    assert format_estimate(0.279333, 0.263, 0.295, 100) == "27.9"  # 3,000 games: one decimal
    assert format_estimate(0.279333, 0.2790, 0.2797, 100) == "27.933"
    assert "\n" in wrap_label("count standard, place, bonus 10", 13)
    df = policy_league(players=(3,), rules=("traditional", "advanced"), hands=60, seed=0,
                       policies=("random", "greedy"), progress=False)
    fig = plot_league(df)
    assert [a.get_ylabel() for a in fig.axes] == ["EV per hand (antes)", "EV per hand (points)"]


def test_9_big_two_fairness_labels_do_not_rotate():
    import matplotlib

    matplotlib.use("Agg")
    from kaptai.bigtwo.fairness import compare_variants
    from kaptai.bigtwo.plots import plot_fairness

    sc = compare_variants({"count standard, place, bonus 10": {"winner_bonus": 10},
                           "points, winner_takes_all": {"scoring": "points", "settlement": "winner_takes_all"}},
                          4, 100, 1, "greedy", progress=False)
    fig = plot_fairness(sc, relative_to="finish")
    labels = fig.axes[0].get_xticklabels()
    assert all(t.get_rotation() == 0 for t in labels) and any("\n" in t.get_text() for t in labels)


# --------------------------------------------------------------------------------------
# 10. Benchmarks run as documented
# --------------------------------------------------------------------------------------

_ROOT = Path(__file__).resolve().parent.parent


def test_10_benchmarks_use_the_installed_package_when_the_tree_is_not_built(tmp_path):
    import shutil
    import subprocess
    import sys

    import kaptai

    tree = tmp_path / "checkout"
    shutil.copytree(Path(kaptai.__file__).parent, tree / "kaptai",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "*.c", "__pycache__"))
    shutil.copytree(_ROOT / "benchmarks", tree / "benchmarks", ignore=shutil.ignore_patterns("__pycache__"))
    installed = str(Path(kaptai.__file__).parent.parent)
    code = ("import sys; sys.path.insert(0, 'benchmarks'); import run, pathlib; "
            "print(run.missing_extensions(pathlib.Path('.'))); print(run.select_kaptai(pathlib.Path('.')))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), installed])}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    missing, where = proc.stdout.strip().splitlines()
    assert "kaptai.kts._eval" in missing
    assert not where.startswith(str(tree))  # the uncompiled tree does not shadow the installed package
    # a module that cannot run makes the exit status non-zero (it was 0 having measured nothing)
    code = ("import sys; sys.path.insert(0, 'benchmarks'); import run; run.MODULES = ('bench_missing',); "
            "sys.exit(run.main(['--quick']))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "could not run: bench_missing" in proc.stderr
