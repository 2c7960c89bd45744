"""Nantong advise: a complete hand is a win (first, with its score), a ready-keeping discard ranks
first at the default budget, inputs of the wrong type or out of bounds are refused."""

import time

import numpy as np
import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError
from kaptai.nantong.advisor import advise

COMPLETE = "123w 456w 789w 123t 456t 789t 123b 55b"
READY = "123b 234w 678t 333w qzx3 789t 99w bhx2 hh"

# (hand, the discard that keeps a ready hand): every other discard breaks it (distance 1)
KEEP_READY = [
    ("123b 234w 678t 333w qzx3 789t 99w bhx2 hh", "hh"),
    ("111w 234w 567t 888t 123b 456b 78b 99w 3t", "3t"),
    ("123w 345w 678t 999t qzx3 456b 77b 89t 1t", "1t"),
    ("123w 456w 789w 123t 456t 789t 12b 55b qz", "qz"),
]


def test_complete_hand_is_a_win_first_with_its_score(capsys):
    df = advise(COMPLETE, jiang="5w 7b", samples=8)
    win = df.iloc[0]
    assert win.discard == "win" and win["rank"] == 1 and win.expected_hu == 180 and win.p_complete == 1
    assert win.p_win == 1 and len(df) == 23  # the win and 22 discards
    # unknown turned cards: the same score here (it does not depend on them), still first
    assert advise(COMPLETE, samples=8).iloc[0].discard == "win"
    assert main(["advise", "nantong", COMPLETE, "--samples", "8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "self-drawn win" in out[0] and out[2].split()[1] == "win" and " 180 " in f" {out[2]} "


@pytest.mark.parametrize("hand,keep", KEEP_READY)
def test_ready_keeping_discard_ranks_first_at_the_default_budget(hand, keep):
    df = advise(hand)
    assert (df.distance == 0).sum() == 1 and df[df.discard == keep].distance.iloc[0] == 0
    assert df.discard.iloc[0] == keep, df.head(4).to_string()
    assert df.attrs["stop"] in ("resolved", "budget") and df.attrs["samples"] >= 8


def test_budget_reproduced_by_samples_and_header(capsys):
    df = advise(READY, seed=5)
    again = advise(READY, seed=5, samples=df.attrs["samples"])
    cols = ["rank", "discard", "value", "value_low", "vs_best", "vs_best_low", "p_win", "expected_hu"]
    assert again[cols].equals(df[cols])
    assert main(["advise", "nantong", READY, "--budget-ms", "50"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "--samples" in head and "vs_best" in head and "Wilson" in head


def test_value_and_p_win_have_one_interval_under_rank_only():
    df = advise(READY, samples=16)
    assert np.allclose(df.value, df.p_win)
    assert np.allclose(df.value_low, df.p_win_low) and np.allclose(df.value_high, df.p_win_high)


@pytest.mark.parametrize("kw,match", [
    (dict(hand=None), "hand=None"), (dict(hand=READY, melds=123), "melds=123"),
    (dict(hand=READY, seen=5), "seen=5"), (dict(hand=READY, jiang=1.5), "jiang=1.5"),
    (dict(hand=READY, samples=100_001), "samples=100001"), (dict(hand=READY, samples=10**30), "samples="),
    (dict(hand=READY, samples=0), "samples=0"), (dict(hand=READY, samples=True), "samples=True"),
    (dict(hand=READY, seed=-1), "seed=-1"), (dict(hand=READY, seed="x"), "seed='x'"),
    (dict(hand=READY, budget_ms=-5), "budget_ms=-5"),
])
def test_refused(kw, match):
    with pytest.raises(KaptaiError, match=match):
        advise(**kw)


def test_long_meld_token_is_quoted_short(capsys):
    assert main(["advise", "nantong", READY, "--melds", "p" * 4000]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kaptai: error:") and len(err[0]) < 200


def test_huge_sample_count_is_refused_at_once():
    t0 = time.perf_counter()
    with pytest.raises(KaptaiError):
        advise(READY, samples=100_001)
    assert time.perf_counter() - t0 < 1
