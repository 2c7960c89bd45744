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
