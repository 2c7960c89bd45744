"""Heaven Eleven (天牌十一) end to end through the ``kaptai`` command line (``kaptai.cli.main``)."""
import json
import os
import subprocess
import sys
from fractions import Fraction
from itertools import combinations
from math import comb

import pytest

import kaptai.games  # noqa: F401  (the registry first: kaptai/games.py imports the game's commands module)
from kaptai.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def rows_of(capsys, *argv):
    code, out, err = run(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


# ----------------------------------------------------------------------------- exact odds
def _p_run_in_some_suit(length: int) -> Fraction:
    """P(a fixed set of `length` ranks is held complete in at least one suit), inclusion-exclusion."""
    total = comb(52, 13)
    k = sum((-1) ** (j + 1) * comb(4, j) * comb(52 - length * j, 13 - length * j) for j in range(1, 5)
            if length * j <= 13)
    return Fraction(k, total)


def _p_any_special() -> Fraction:
    """P(some suit holds K-A, 5-6, 6-7-8 or 5-7-9; Q-K-A contains K-A), by per-suit inclusion-exclusion
    over the four patterns and a convolution over the four suits' lengths."""
    patterns = [{11, 12}, {3, 4}, {4, 5, 6}, {3, 5, 7}]  # rank indices 0 = '2' .. 12 = 'A'

    def with_some(k):  # k-card subsets of one suit holding at least one pattern
        n = 0
        for r in range(1, 5):
            for sub in combinations(patterns, r):
                u = len(set().union(*sub))
                if u <= k:
                    n += (-1) ** (r + 1) * comb(13 - u, k - u)
        return n

    free = [comb(13, k) - with_some(k) for k in range(14)]
    none = 0
    for a in range(14):
        for b in range(14 - a):
            for c in range(14 - a - b):
                d = 13 - a - b - c
                none += free[a] * free[b] * free[c] * free[d]
    return 1 - Fraction(none, comb(52, 13))


def test_odds_json_special_rows(capsys):
    rows = rows_of(capsys, "odds", "heaven-eleven", "--format", "json")
    main_rows = {r["metric"]: r for r in rows if r["breakdown"] is None}
    p2, p3 = _p_run_in_some_suit(2), _p_run_in_some_suit(3)
    assert p2 == Fraction(9895443, 45023650) and p3 == Fraction(2034414729, 39688347475)
    expect = {"heaven_eleven_2": p2, "big_continuing": p2, "heaven_eleven_3": p3, "explosive_continuing": p3,
              "hole_in_the_middle": p3, "any_special": _p_any_special()}
    for metric, p in expect.items():
        r = main_rows[metric]
        assert Fraction(r["exact"]) == p, metric
        assert abs(r["value"] - float(p)) < 1e-9
        assert r["game"] == "heaven-eleven" and r["players"] == 4 and r["method"] == "exact"
    assert main_rows["any_special"]["exact"] == "732158229/1587533899"


def test_odds_suit_length_rows_are_hypergeometric(capsys):
    rows = rows_of(capsys, "odds", "heaven-eleven", "--format", "json")
    length = [r for r in rows if r["metric"] == "suit_length"]
    assert sorted(int(r["level"]) for r in length) == list(range(14))
    for r in length:
        k = int(r["level"])
        assert Fraction(r["exact"]) == Fraction(comb(13, k) * comb(39, 13 - k), comb(52, 13))


def test_odds_scores_table(capsys):
    code, out, err = run(capsys, "odds", "heaven-eleven", "--table", "scores", "--format", "csv")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "game,rules,level,t0,t1,t2,t3,status,f0,f1,f2,f3,method"
    assert len(lines) == 1 + 5600
    for line in lines[1:]:
        f = [int(x) for x in line.split(",")[8:12]]
        assert sum(f) == 0


def test_odds_option_reaches_the_computation(capsys):
    def classes(*extra):
        rows = rows_of(capsys, "odds", "heaven-eleven", *extra, "--format", "json")
        return {r["breakdown"]: Fraction(r["exact"]) for r in rows if r["metric"] == "holds_class"}, \
            {r["metric"]: r["exact"] for r in rows if r["breakdown"] is None}

    base, special_base = classes()
    once, special_once = classes("-o", "reduction=once")
    rank, special_rank = classes("-o", "point_scheme=rank")
    assert set(base) == set(once) == set(rank) and len(base) >= 10
    # reduction only changes values of sums 22-30, never which class a set is in
    assert once == base and special_once == special_base
    # rank points move the elevens (T-A is 24 -> 14 under rank) but the specials are patterns
    assert rank["eleven_2"] != base["eleven_2"] and rank["eleven_3"] != base["eleven_3"]
    assert special_rank == special_base


# ----------------------------------------------------------------------------- score
# The rules page's §5 table: (record, finals declarer first, status)
WORKED = [
    ("bid=3C tricks=7/2/2/2", [12, -4, -4, -4], "match"),
    ("bid=3C tricks=7/3/2/1", [11, -2, -4, -5], "match"),
    ("bid=3C tricks=8/2/2/1", [1, 0, 0, -1], "over"),
    ("bid=0C tricks=4/3/3/3", [0, 0, 0, 0], "draw"),
    ("bid=1H tricks=4/3/3/3", [-3, 1, 1, 1], "short"),
    ("bid=2S tricks=5/5/2/1", [-2, 5, -1, -2], "short"),
    ("bid=0D tricks=5/3/3/2", [-4, 2, 2, 0], "over"),
    ("bid=9NT tricks=13/0/0/0", [36, -12, -12, -12], "match"),
    ("bid=2C tricks=6/3/3/1", [6, -1, -1, -4], "match"),
    ("bid=3♣ tricks=7/2/2/2", [12, -4, -4, -4], "match"),
    ("bid=0nt tricks=4/3/3/3", [0, 0, 0, 0], "draw"),
]


@pytest.mark.parametrize("record,finals,status", WORKED)
def test_score_json_worked_examples(capsys, record, finals, status):
    code, out, err = run(capsys, "score", "heaven-eleven", record, "--format", "json")
    assert code == 0, err
    obj = json.loads(out)  # exactly one JSON object
    assert isinstance(obj, dict)
    assert obj["finals"] == finals and all(isinstance(x, int) for x in obj["finals"]) and sum(obj["finals"]) == 0
    assert obj["status"] == status and obj["draw"] == (status == "draw")
    t = [int(x) for x in record.split("tricks=")[1].split("/")]
    b = int(record.split("bid=")[1][0])
    m = t[0] - 4
    n = [ti - 3 for ti in t[1:]]
    if status != "draw":
        assert obj["origin"] == [m, *n]
        assert obj["balance"] == [ni + 1 if ni >= 0 else 0 for ni in n]
        assert obj["match_points"] == (m if m == b else 0)
        assert obj["over_penalty"] == (m - b if m > b else 0)
        assert obj["short_penalty"] == 0
        # the components add up to the finals
        f0 = m + 3 * obj["match_points"] - 3 * obj["over_penalty"] - sum(obj["balance"])
        fi = [ni + bal - obj["match_points"] + obj["over_penalty"] for ni, bal in zip(n, obj["balance"])]
        assert [f0, *fi] == finals


def test_score_symmetric_option_and_table_format(capsys):
    code, out, _ = run(capsys, "score", "heaven-eleven", "bid=2S tricks=5/5/2/1", "--rules", "symmetric",
                       "--format", "json")
    obj = json.loads(out)
    assert code == 0 and obj["short_penalty"] == 1 and obj["finals"] == [-5, 6, 0, -1]
    code, out, _ = run(capsys, "score", "heaven-eleven", "bid=2S tricks=5/5/2/1", "-o", "short_penalty=symmetric",
                       "--format", "json")
    assert json.loads(out)["finals"] == [-5, 6, 0, -1]
    code, out, _ = run(capsys, "score", "heaven-eleven", "bid=3C tricks=7/2/2/2")
    assert code == 0 and out.startswith("# heaven-eleven") and "finals" in out and "[12, -4, -4, -4]" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["score", "heaven-eleven", "bid=3C tricks=7/2/2/1"], "tricks 7/2/2/1 sum to 12, not 13"),
        (["score", "heaven-eleven", "bid=3C tricks=7/2/2/3"], "sum to 14, not 13"),
        (["score", "heaven-eleven", "bid=10C tricks=7/2/2/2"], 'invalid bid "10C" (token 1): level must be 0-9'),
        (["score", "heaven-eleven", "bid=3X tricks=7/2/2/2"], '"3X"'),
        (["score", "heaven-eleven", "bid=3C tricks=7/2/2/2 foo=1"], '"foo=1"'),
        (["score", "heaven-eleven", "hello"], '"hello"'),
        (["score", "heaven-eleven", "bid=3C"], "tricks"),
        (["score", "heaven-eleven", "bid=3C tricks=7/2/x/2"], '"x"'),
        (["score", "heaven-eleven", "bid=PASS tricks=7/2/2/2"], "PASS"),
        (["odds", "heaven-eleven", "-o", "reduction=twice"], "'twice'"),
        (["odds", "heaven-eleven", "-o", "bogus=1"], "'bogus'"),
        (["odds", "heaven-eleven", "--rules", "fancy"], "fancy"),
        (["simulate", "heaven-eleven", "--players", "5", "--hands", "10"], "expected exactly 4 (players), got '5'"),
        (["simulate", "heaven-eleven", "--hands", "0"], "--hands/--games: expected a whole number from 1"),
        (["simulate", "heaven-eleven", "--hands", "10", "--policy", "bogus"], "'bogus'"),
        (["simulate", "heaven-eleven", "--hands", "10", "--bidding", "bogus"], "'bogus'"),
        (["fairness", "heaven-eleven", "--hands", "10", "--variants", "nope"], "'nope'"),
    ],
)
def test_bad_input_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv, "--no-progress") if argv[0] in ("simulate", "fairness") else run(capsys, *argv)
    assert code == 2
    assert err.startswith("kaptai: error: ") and message in err, err
    assert "Traceback" not in err and out == ""


# ----------------------------------------------------------------------------- Monte Carlo
def test_simulate_same_json_for_any_workers(capsys):
    argv = ["simulate", "heaven-eleven", "--hands", "5000", "--seed", "11", "--format", "json", "--no-progress"]
    code1, out1, err1 = run(capsys, *argv, "--workers", "1")
    code2, out2, err2 = run(capsys, *argv, "--workers", "2")
    assert code1 == code2 == 0, err1 + err2
    assert out1 == out2
    rows = json.loads(out1)
    zs = [r for r in rows if r["metric"] == "zero_sum_violations"]
    assert zs[0]["value"] == 0 and zs[0]["samples"] == 5000
    status = [r for r in rows if r["metric"] == "status" and r["relative_to"] == "declarer"]
    assert abs(sum(r["value"] for r in status) - 1) < 1e-12
    assert {r["metric"] for r in rows} >= {"declarer_tricks", "bid_ev", "best_bid", "balance", "final_mean"}
    finals = [r["value"] for r in rows if r["metric"] == "final_mean"]
    assert len(finals) == 4 and abs(sum(finals)) < 1e-9
    code3, out3, _ = run(capsys, *argv[:5], "12", *argv[6:])
    assert code3 == 0 and out3 != out1


@pytest.mark.parametrize("variants", ["play", "scoring", "asymmetry", "leading"])
def test_fairness_same_json_for_any_workers(capsys, variants):
    argv = ["fairness", "heaven-eleven", "--variants", variants, "--hands", "3000", "--seed", "5", "--format", "json",
            "--no-progress"]
    code1, out1, err1 = run(capsys, *argv, "--workers", "1")
    code2, out2, err2 = run(capsys, *argv, "--workers", "2")
    assert code1 == code2 == 0, err1 + err2
    assert out1 == out2
    rows = json.loads(out1)
    assert rows and all(r["method"] == "monte_carlo" for r in rows)
    if variants == "asymmetry":
        best = {r["rules"]: r["level"] for r in rows if r["metric"] == "best_offset"}
        assert set(best) == {"as_written", "symmetric"}
    if variants == "leading":
        assert {r["metric"] for r in rows} >= {"tricks_declarer_leads", "tricks_next_leads", "tricks_gain"}
    if variants == "play":
        assert {r["variant"] for r in rows} >= {"standard", "reduction=once", "short_follow=free", "must_trump"}


def test_fairness_rejects_a_policy_it_cannot_use(capsys):
    code, out, err = run(capsys, "fairness", "heaven-eleven", "--variants", "asymmetry", "--hands", "10",
                         "--policy", "random", "--no-progress")
    assert code == 2 and err.startswith("kaptai: error: ") and "greedy" in err and "Traceback" not in err


def test_python_m_kaptai_subprocess(tmp_path):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-m", "kaptai", "score", "heaven-eleven", "bid=9NT tricks=13/0/0/0",
                           "--format", "json"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["finals"] == [36, -12, -12, -12]
    bad = subprocess.run([sys.executable, "-m", "kaptai", "score", "heaven-eleven", "bid=3C tricks=7/2/2/1"],
                         cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2 and bad.stderr.startswith("kaptai: error: tricks 7/2/2/1 sum to 12, not 13")
    assert "Traceback" not in bad.stderr


def test_headers_name_the_options(capsys):
    code, out, err = run(capsys, "simulate", "heaven-eleven", "-o", "short_follow=free", "-o", "must_trump=true",
                         "--hands", "300", "--seed", "1", "--no-progress")
    assert code == 0, err
    assert out.splitlines()[0].startswith("# heaven-eleven: rules standard + short_follow=free, must_trump=True, 300 hands")
    code, out, _ = run(capsys, "score", "heaven-eleven", "bid=3C tricks=7/2/2/2", "--rules", "symmetric")
    assert out.splitlines()[0] == "# heaven-eleven: bid=3C tricks=7/2/2/2 (symmetric) — finals declarer first"


def test_fairness_plot_written(capsys, tmp_path):
    png = tmp_path / "asym.png"
    code, out, err = run(capsys, "fairness", "heaven-eleven", "--variants", "asymmetry", "--hands", "1000", "--seed", "2",
                         "--plot", str(png), "--no-progress")
    assert code == 0, err
    assert png.read_bytes()[:4] == b"\x89PNG" and out.startswith("# heaven-eleven: short-vs-over asymmetry")


def test_fairness_base_rules_reach_every_variant():
    # `kaptai fairness` has no --rules/-o on the command line; the entry point takes them from Python

    from kaptai.heaven11.commands import SPEC, fairness

    def tricks(**kw):
        from kaptai.cli import default_args

        ns = default_args("heaven-eleven", "fairness", **{"variants": "scoring", "hands": 1000, "seed": 2, **kw})
        df = fairness(ns, SPEC).table
        return dict(zip(df[df.metric == "declarer_tricks_mean"].variant, df[df.metric == "declarer_tricks_mean"].value))

    plain, free = tricks(), tricks(option=[("short_follow", "free")])
    assert set(plain) == set(free) == {"standard", "short_penalty=symmetric"}
    assert free["standard"] != plain["standard"]
