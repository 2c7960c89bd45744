"""Heaven Eleven advise: every auction the rules allow is answered (a finished one by the first play),
the others are refused; inputs that contradict each other are refused; Ctrl-C stops a long advice."""

import os
import signal
import subprocess
import tempfile
import sys
import time

import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError
from kaptai.heaven11.advisor import advise, advise_bid, advise_play

HAND = "AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C"


@pytest.mark.timeout(60)
@pytest.mark.parametrize("auction,contract", [("1S PASS PASS PASS", "1S"), ("0S PASS PASS PASS", "0S"),
                                              ("6C PASS PASS PASS", "6C")])
def test_finished_auction_answers_the_first_play_and_does_not_hang(auction, contract):
    t0 = time.perf_counter()
    df = advise(HAND, auction=auction, samples=4)
    assert time.perf_counter() - t0 < 5
    assert df.phase.iloc[0] == "lead" and df.attrs["contract"] == contract and df.attrs["declarer"] == 0
    # the same as the play advice with the contract typed
    assert df.equals(advise_play(HAND, contract=contract, declarer=0, auction=auction, samples=4))


@pytest.mark.timeout(60)
def test_finished_auction_cli_answers_within_seconds(capsys):
    t0 = time.perf_counter()
    assert main(["advise", "heaven-eleven", HAND, "--auction", "1S PASS PASS PASS", "--samples", "4"]) == 0
    assert "contract 1S by seat 0" in capsys.readouterr().out and time.perf_counter() - t0 < 10


def test_passed_out_auction():
    with pytest.raises(KaptaiError, match="passed out and redealt"):
        advise(HAND, auction="PASS PASS PASS PASS", samples=4)
    df = advise(HAND, auction="PASS PASS PASS PASS", rules={"passout": "dealer_0C"}, samples=4)
    assert df.attrs["contract"] == "0C" and df.phase.iloc[0] in ("lead", "follow")
    with pytest.raises(KaptaiError, match="the auction '1S PASS PASS PASS' is over: contract 1S by seat 0"):
        advise_bid(HAND, auction="1S PASS PASS PASS", samples=4)


@pytest.mark.parametrize("kw,match", [
    (dict(declarer=0), "declarer=0 needs a contract"),
    (dict(declarer=2), "declarer=2 needs a contract"),
    (dict(contract="4S", auction="1H PASS PASS PASS"), "contradicts the auction"),
    (dict(contract="1H", declarer=1, auction="1H PASS PASS PASS", dealer=0), "contradicts the auction"),
    (dict(contract="4S", auction="1S PASS"), "the auction is not over"),
    (dict(auction="1S PASS PASS PASS", declarer=2), "contradicts the auction"),
    (dict(seed=-1), "seed=-1"), (dict(seed=1.5), "seed=1.5"), (dict(seed="x"), "seed='x'"),
    (dict(samples=0), "samples=0"), (dict(samples=100_001), "samples=100001"), (dict(samples=10**30), "samples="),
    (dict(samples=2.5), "samples=2.5"), (dict(budget_ms=0), "budget_ms=0"),
    (dict(contract="4S", dealer=1), "dealer is given without an auction"),
    (dict(contract=4), "contract=4"), (dict(auction=12), "auction=12"),
])
def test_refused(kw, match):
    with pytest.raises(KaptaiError, match=match):
        advise(HAND, **kw)


def test_long_tokens_are_quoted_short():
    for kw in (dict(contract="4S", plays="x" * 4000), dict(contract="4S", plays="AS " + "K" * 4000),
               dict(auction="1S " + "P" * 4000)):
        with pytest.raises(KaptaiError) as e:
            advise(HAND, samples=4, **kw)
        assert len(str(e.value)) < 300 and "4000 characters" in str(e.value)


@pytest.mark.parametrize("argv", [
    ["--declarer", "2"],
    ["--contract", "4S", "--auction", "1H PASS PASS PASS"],
    ["--plays", "AS"],
    ["--samples", "100001"],
    ["--budget-ms", "0"],
])
def test_cli_refusals_one_line_exit_2(argv, capsys):
    assert main(["advise", "heaven-eleven", HAND, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kaptai: error:")


def test_budget_header_and_reproduction(capsys):
    df = advise_bid(HAND, seed=3)
    a = df.attrs
    assert a["stop"] in ("resolved", "budget", "max") and a["samples"] % 32 == 0
    again = advise_bid(HAND, seed=3, samples=a["samples"])
    cols = ["option", "value", "ci_low", "ci_high", "vs_best", "vs_best_low", "vs_best_high", "scoring", "rank"]
    assert again[cols].equals(df[cols]) and again.attrs["stop"] == "fixed"
    assert main(["advise", "heaven-eleven", HAND]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "points" in head and "vs_best" in head and f"--samples" in head


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_long_advice_within_a_second():
    p = subprocess.Popen([sys.executable, "-m", "kaptai", "advise", "heaven-eleven", HAND, "--samples", "100000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=tempfile.gettempdir())  # the installed package, not the uncompiled source tree
    try:
        time.sleep(3.0)  # started and sampling
        assert p.poll() is None
        t0 = time.perf_counter()
        os.kill(p.pid, signal.SIGINT)
        p.wait(timeout=10)
        assert time.perf_counter() - t0 < 2.5  # a batch takes milliseconds; the rest is interpreter exit under load
    finally:
        if p.poll() is None:
            p.kill()
