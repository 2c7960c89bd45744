"""nine-ten advise: five pairs are a win (the natural, first with its score), the paired budget,
bounds of samples / seed / budget."""

import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError
from kaptai.nineten.advisor import advise

HAND = "RKx2 RA YAx2 GE WC WP GK GA"


def test_five_pairs_is_the_natural_win(capsys):
    df = advise("RKx2 RAx2 YAx2 GEx2 WCx2")  # four colours: exactly 1 頭, paid by each of 3 players
    assert df.action.tolist() == ["win"] and df.ev.iloc[0] == 3 and df.p_win.iloc[0] == 1
    two = advise("RKx2 RAx2 RCx2 YAx2 YCx2", rules={"natural": "no_bonus"})  # two colours, no bonus flip
    assert two.action.iloc[0] == "win" and two.ev.iloc[0] > 3
    assert advise("RKx2 RAx2 YAx2 GEx2 WCx2", rules={"natural": "redeal"}).ev.iloc[0] == 0
    assert main(["advise", "nine-ten", "RKx2 RAx2 YAx2 GEx2 WCx2"]) == 0
    assert "natural" in capsys.readouterr().out.splitlines()[0]


def test_claim_that_completes_is_first():
    df = advise("RKx2 RAx2 YAx2 GEx2 WC", offered="WC")
    assert df.action.iloc[0] == "claim" and df["rank"].iloc[0] == 1 and df.p_win.iloc[0] == 1


def test_budget_and_reproduction():
    df = advise(HAND, seen="RE YE", seed=2)
    a = df.attrs
    assert a["stop"] in ("resolved", "budget", "max") and a["samples"] % 64 == 0
    again = advise(HAND, seen="RE YE", seed=2, samples=a["samples"])
    cols = ["rank", "discard", "ev", "ev_low", "vs_best", "vs_best_low", "vs_best_high", "p_win"]
    assert again[cols].equals(df[cols])
    assert (df["rank"] == [1 + int((df.ev > v).sum()) for v in df.ev]).all()


@pytest.mark.parametrize("kw,match", [
    (dict(samples=100_001), "samples=100001"), (dict(samples=10**30), "samples="), (dict(samples=0), "samples=0"),
    (dict(seed=-1), "seed=-1"), (dict(seed=1.5), "seed=1.5"), (dict(seed="x"), "seed='x'"),
    (dict(budget_ms=0), "budget_ms=0"), (dict(players=1.5), "players=1.5"),
])
def test_refused(kw, match):
    with pytest.raises(KaptaiError, match=match):
        advise(HAND, **kw)


@pytest.mark.parametrize("hand, offered, extra, off, on", [
    # the dealer's natural with a dealt four of YK: 3 colours 2 + self-draw 1 (+1 開招) + bonus 6·6/102, 3 payers
    ("RAx2 RRx2 YKx4 WEx2", None, {}, 3 * (3 + 6 * 6 / 102), 3 * (4 + 6 * 6 / 102)),
    # a claim that completes the hand, a four of RA dealt: k = 2 scores 3 (+1), the discarder pays
    ("RAx4 RRx2 YKx2 YA", "YA", {}, 3.0, 4.0),
    # four colours score 1; their 開招 count only with four_colour_kaizhao_counts
    ("RKx2 YAx2 GEx2 WRx4", None, {"four_colour_kaizhao_counts": True}, 3.0, 6.0),
])
def test_exact_win_rows_count_a_dealt_four_as_kaizhao_when_the_option_says(hand, offered, extra, off, on):
    """§6.6 dealt_four_is_kaizhao: the exact win rows add +1 for each dealt four, as the engines
    (and the simulated rows) do; they ignored it before."""
    from kaptai.nineten.rules import RuleSet

    for flag, want in ((False, off), (True, on)):
        df = advise(hand, offered=offered, samples=64, rules=RuleSet(dealt_four_is_kaizhao=flag, **extra))
        assert df.iloc[0]["action"] in ("win", "claim") and df.iloc[0]["p_win"] == 1.0
        assert df.iloc[0]["ev"] == pytest.approx(want)


def test_exact_claim_win_counts_an_earlier_kaizhao():
    """A four made by claiming the 4th onto three (two of it face up) scores +1 at the win, option or not."""
    df = advise("RAx4 RRx2 YKx2 YA", offered="YA", exposed="RA RA", samples=64)
    assert df.iloc[0]["action"] == "claim" and df.iloc[0]["ev"] == pytest.approx(4.0)
