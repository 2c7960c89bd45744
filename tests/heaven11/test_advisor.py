"""kaptai advise heaven-eleven: every call or legal play with its value and interval; validation."""

import json

import numpy as np
import re

import pytest

from kaptai.cli import main
from kaptai.core.advise import batch_stream
from kaptai.errors import KaptaiError
from kaptai.heaven11 import _engine
from kaptai.heaven11.advisor import advise, advise_bid, advise_play
from kaptai.heaven11.cards import parse_hand
from kaptai.heaven11.config import make_config
from kaptai.heaven11.engine_reference import HandState

HAND = "AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C"
WEAK = "2C 3C 4C 5D 6D 7D 8H 9H TH 2S 3S 4S 5S"


def test_bid_advice_every_call_both_scorings():
    df = advise_bid(HAND, samples=30, seed=2)
    for sc in ("as_written", "symmetric"):
        d = df[df.scoring == sc]
        assert d.option.tolist()[0] == "PASS" and len(d) == 51 and d.option.iloc[-1] == "9NT"
        ranks = d["rank"].to_numpy()
        assert ranks.min() == 1 and (np.diff(d.sort_values("rank").value.to_numpy()) <= 0).all()
        # equal values share a rank (competition ranking)
        for v, r in zip(d.value, ranks):
            assert r == 1 + (d.value > v).sum()
        assert ((d.ci_low <= d.value) & (d.value <= d.ci_high)).all() and (d.samples == 30).all()
    # a strong spade hand bids; the mean is the engine's own per-layout values
    assert df[(df.scoring == "as_written") & (df["rank"] == 1)].option.iloc[0].endswith(("S", "NT"))
    mask = sum(1 << c for c in parse_hand(HAND))
    _, values = _engine.call_values(make_config(), 0, mask, 0, [], 30, batch_stream(2, 0))
    d = df[df.scoring == "as_written"]
    assert np.allclose(d.value.to_numpy(), values.mean(axis=1))
    assert advise_bid(HAND, samples=30, seed=2).equals(df)


def test_bid_advice_weak_hand_passes_under_symmetric():
    df = advise_bid(WEAK, samples=60)
    assert df[(df.scoring == "symmetric") & (df["rank"] == 1)].option.iloc[0] == "PASS"


def test_bid_advice_auction_and_turn():
    df = advise_bid(HAND, auction="PASS 2S", samples=10)
    assert df.attrs["dealer"] == 2 and df.option.tolist()[1] == "2NT"   # bids above 2S only
    with pytest.raises(KaptaiError, match=r'invalid bid "1S" \(token 3\): it does not beat 2S'):
        advise_bid(HAND, auction="PASS 2S 1S", samples=4)
    with pytest.raises(KaptaiError, match=r'invalid bid "10S" \(token 2\)'):
        advise_bid(HAND, auction="PASS 10S", samples=4)
    with pytest.raises(KaptaiError, match="it is seat 3's call, not seat 0's"):
        advise_bid(HAND, auction="PASS", dealer=0, samples=4)
    with pytest.raises(KaptaiError, match="the auction is over"):
        advise_bid(HAND, auction="1S PASS PASS PASS PASS", samples=4)
    with pytest.raises(KaptaiError, match='invalid card "1H"'):
        advise_bid("1H " + HAND[3:], samples=4)
    with pytest.raises(KaptaiError, match='duplicate card "AS"'):
        advise_bid("AS " + HAND[3:].replace("KS", "AS"), samples=4)


def test_play_advice_every_legal_play():
    df = advise_play(HAND, contract="4S", samples=12)
    st = HandState([parse_hand(HAND), *[[c for c in range(52) if c not in parse_hand(HAND)][13 * i:13 * i + 13]
                                         for i in range(3)]], 0, "4S")
    assert len(df) == len(st.options()) and df.phase.iloc[0] == "lead"
    assert ((df.ci_low <= df.value) & (df.value <= df.ci_high)).all()
    # a follow: seat 1 after a club lead must follow clubs when it has them
    d = advise_play(WEAK, contract="4S", seat=1, plays="AC", samples=12)
    assert sorted(d.option) == ["2C", "3C", "4C"] and d.phase.iloc[0] == "follow"
    # after a full play the winner leads: seat 0's AS wins, seat 0 leads again
    d = advise_play(HAND, contract="4S", plays="AS, 2S, 3S, 4S", samples=12)
    assert d.phase.iloc[0] == "lead" and "AS" not in " ".join(d.option)
    assert advise_play(HAND, contract="4S", samples=12, seed=5).equals(advise_play(HAND, contract="4S", samples=12, seed=5))


def test_play_advice_validation():
    with pytest.raises(KaptaiError, match="it is seat 1's turn, not seat 0's"):
        advise_play(HAND, contract="4S", plays="AS", samples=4)
    with pytest.raises(KaptaiError, match='card "KH" is in your hand'):
        advise_play(HAND, contract="4S", plays="AS, KH", samples=4)
    with pytest.raises(KaptaiError, match="2 cards, the lead was 1"):
        advise_play(HAND, contract="4S", plays="AS, 2S 3S", samples=4)
    with pytest.raises(KaptaiError, match='card "AS" was already played'):
        advise_play(HAND, contract="4S", plays="AS, 2S, 3S, 4S, AS", samples=4)
    with pytest.raises(KaptaiError, match=r'illegal lead "AD" by seat 0 \(play 1\): your hand does not hold AD'):
        advise_play(HAND, contract="4S", plays="AD", samples=4)
    with pytest.raises(KaptaiError, match=r"play 2 is empty \(two separators in a row\)"):
        advise_play(HAND, contract="4S", plays="AS,, 2S", samples=4)
    with pytest.raises(KaptaiError, match="a lead is 1-3 cards of one suit"):
        advise_play(WEAK, contract="4S", seat=1, plays="AC AD", samples=4)
    with pytest.raises(KaptaiError, match="shown a void in S"):
        advise_play(HAND, contract="4S", plays="AS, 2H, 3S, 4S, KS, 2S, 5S, 6S", samples=4)
    with pytest.raises(KaptaiError, match=r'play 2 \(.1X.\): invalid card "1X"'):
        advise_play(HAND, contract="4S", plays="AS, 1X", samples=4)
    with pytest.raises(KaptaiError, match="needs a contract"):
        advise(HAND, plays="AS", samples=4)


def test_cli_json_every_option(capsys):
    argv = ["advise", "heaven-eleven", WEAK, "--contract", "2H", "--seat", "1", "--plays", "AC", "--samples", "8",
            "--format", "json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    rows = data["rows"] if isinstance(data, dict) and "rows" in data else data
    assert {r["option"] for r in rows} == {"2C", "3C", "4C"}
    assert all({"value", "ci_low", "ci_high"} <= set(r) for r in rows)
    assert main(["advise", "heaven-eleven", WEAK, "--plays", "AC"]) == 2
    assert "--plays needs --contract" in capsys.readouterr().err


def test_an_illegal_follow_of_your_own_says_which_rule_it_breaks():
    """Your own follow refused with the reason (a card not held, the suit led to follow, all of
    it under short_follow='all_led'), not only 'illegal'."""
    h = "AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C"
    first = "7C 8C, 9C TC, JC QC"  # declarer 1 leads; seat 0 follows fourth
    for plays, why, rules in [
        (f"{first}, 2D 3D", "your hand holds 3 cards of the led suit and must play 2 of them", None),
        (f"{first}, 2C 3C", "your hand does not hold 2C 3C", None),
        ("7H 8H, 9H TH, JH QH, AH 4C", "your hand holds 2 cards of the led suit and must play 2 of them", None),
        ("7D 8D 9D, TD JD QD, 4D 5D 6D, 2D 4C 5C",
         "your hand holds 2 cards of the led suit and must play them all (short_follow='all_led')",
         {"short_follow": "all_led"}),
    ]:
        with pytest.raises(KaptaiError, match=re.escape(f"by seat 0 (play 4): {why}")):
            advise_play(h, contract="3S", declarer=1, seat=0, plays=plays, samples=4, rules=rules)
