"""The discard advisor (kaptai advise nantong): every discard with its value and intervals."""

import json

import numpy as np
import pytest

from kaptai.errors import KaptaiError
from kaptai.nantong.advisor import ADVICE_COLUMNS, advise
from kaptai.nantong.cards import (
    HandSizeError,
    InvalidCardError,
    MeldError,
    TooManyCopiesError,
    parse_card,
)
from kaptai.nantong.evaluate import distance, hand_counts, live_outs

READY = "123b 234w 678t 333w qzx3 789t 99w bhx2 hh"  # ready after hh (waits 9w, bh)


def test_every_discard_is_an_option_ranked_by_value():
    df = advise(READY, samples=30, seed=1)
    assert list(df.columns) == ADVICE_COLUMNS
    held = {k for k in range(30) if hand_counts(READY)[k]}
    assert len(df) == len(held) and df["rank"].iloc[0] == 1 and (np.diff(df["rank"].to_numpy()) >= 0).all()
    # the options not resolved below the best come first, by distance from ready; the rest by value
    top = ~(df.vs_best_high < 0)
    assert top.iloc[: int(top.sum())].all()
    assert (np.diff(df[top].distance.to_numpy()) >= 0).all()
    assert (np.diff(df[~top].value.to_numpy()) <= 0).all()
    assert (df.value_low <= df.value).all() and (df.value <= df.value_high).all()
    assert (df.p_win_low <= df.p_win).all() and (df.p_win <= df.p_win_high).all()
    assert (df.hu_low <= df.expected_hu).all() and (df.expected_hu <= df.hu_high).all()
    # rank_only: the net is the hand-win share
    assert np.allclose(df.value, df.p_win)
    hh = df[df.discard == "hh"].iloc[0]
    assert hh.distance == 0 and hh.waits == "9w bh"
    rest = hand_counts(READY)
    rest[29] -= 1
    assert hh.live_outs == live_outs(rest)[1] == 4
    for row in df.itertuples():
        r = hand_counts(READY)
        r[parse_card(row.discard)] -= 1
        assert row.distance == distance(r)


def test_reproducible_and_seeded():
    a = advise(READY, samples=20, seed=3)
    b = advise(READY, samples=20, seed=3)
    c = advise(READY, samples=20, seed=4)
    assert a.equals(b)
    assert not a[["value", "expected_hu"]].equals(c[["value", "expected_hu"]])
    assert a.attrs["samples"] == 20 and a.attrs["seed"] == 3


def test_money_settlement_values_are_hu_transfers():
    df = advise(READY, rules=None, samples=20, seed=2)
    known = advise(READY, rules="nantong", samples=20, seed=2, jiang="5w 7b")
    from kaptai.nantong.rules import resolve_rules

    money = advise(READY, rules=resolve_rules(None, settlement="winner_collects"), samples=20, seed=2)
    assert money.attrs["settlement"] == "winner_collects"
    assert money.value.abs().max() > 1.0  # 胡數, not a point share
    assert df.attrs["stock"] == 51 and known.attrs["stock"] == 51  # 120 - 23 - 44 - 2 turned


def test_seen_cards_melds_and_jiang_shrink_the_unseen_pool():
    base = advise(READY, samples=5)
    seen = advise(READY, seen="1w 9w 5t", samples=5, jiang="5w 7b")
    assert seen.attrs["unseen"] == base.attrs["unseen"] - 3 - 2
    melded = advise("123b 234w 678t 333w qzx3 789t 99w", melds="pong:bh", samples=5, jiang="5w 7b")
    # complete (six sets, the pair 99w and the pong): the self-drawn win comes first, then 12 discards
    assert len(melded) == 13 and melded.attrs["unseen"] == 120 - 20 - 3 - 2
    assert melded.discard.iloc[0] == "win" and melded.p_complete.iloc[0] == 1
    # the live outs count the seen copies out
    nine = advise(READY, seen="9w", samples=5)
    assert nine[nine.discard == "hh"].iloc[0].live_outs == 3


@pytest.mark.parametrize("kwargs,error,match", [
    ({"hand": "11w 234w 10w"}, InvalidCardError, "'10w'"),
    ({"hand": READY, "seen": "zz"}, InvalidCardError, "'zz'"),
    ({"hand": "5wx4 5w"}, TooManyCopiesError, "'5w'"),
    ({"hand": READY, "seen": "qz qz"}, TooManyCopiesError, "'qz' used 5 times"),
    ({"hand": READY, "seen": "qz", "jiang": "qz 5w"}, TooManyCopiesError, "'qz'"),
    ({"hand": "123b 234w"}, HandSizeError, "6 units"),
    ({"hand": READY, "melds": "peng:5w"}, MeldError, "'peng'"),
    ({"hand": READY, "melds": "pong5w"}, MeldError, "'pong5w'"),
    ({"hand": "123b 234w 678t 333w qzx3 789t 99w hh", "melds": "hezi:bh"}, MeldError, "jiang"),
    ({"hand": READY, "jiang": "5w"}, KaptaiError, "expected 2 turned cards"),
    ({"hand": READY, "seen": "5wx4 6wx4 7wx4 8wx4 1tx4 2tx4 3tx4 4tx4 5tx4 4bx4 5bx4 6bx4 7bx4 8bx4 9bx4"},
     KaptaiError, "no stock"),
])
def test_bad_positions_are_refused_naming_the_token(kwargs, error, match):
    with pytest.raises(error, match=match):
        advise(samples=2, **kwargs)


def test_cli_json_gives_every_option_with_its_interval(capsys):
    from kaptai.cli import main

    argv = ["advise", "nantong", READY, "--samples", "12", "--seed", "5", "--format", "json"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    rows = json.loads(out[: out.rindex("]") + 1])
    assert len(rows) == 14
    for r in rows:
        assert r["value_low"] <= r["value"] <= r["value_high"] and r["samples"] == 12
    assert main(argv) == 0
    assert capsys.readouterr().out == out  # --seed: the same answer
    assert main(["advise", "nantong", "11w 10w"]) != 0
    assert "'10w'" in capsys.readouterr().err


def test_the_card_thrown_is_not_a_live_out():
    """A complete hand's discards wait on what they throw: the thrown card is face up, so its live
    outs count one copy fewer than before (they counted it), as `kaptai waits` with it seen does."""
    df = advise("123w 456w 789w 123t 456t 789t 123b 55b", samples=4, seed=1)
    rows = {r.discard: r for r in df.itertuples() if r.discard != "win"}
    assert int(rows["5b"].live_outs) == 2 and int(rows["3b"].live_outs) == 3 and int(rows["9t"].live_outs) == 9
    for kind in ("5b", "9t"):
        rest = hand_counts("123w 456w 789w 123t 456t 789t 123b 55b")
        rest[parse_card(kind)] -= 1
        seen = np.zeros_like(rest)
        seen[parse_card(kind)] = 1
        assert int(live_outs(rest, seen=seen)[1]) == int(rows[kind].live_outs)
