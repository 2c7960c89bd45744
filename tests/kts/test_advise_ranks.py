"""Kap Tai Shap advise: exact, so no sampling budget; equal options share a rank and the header says
the whole ranking key (the issue's 6, 6, 8, 8: equal P(win), different expected scores)."""

from kaptai.cli import main
from kaptai.kts.advisor import advise

HAND = "16 16 12 33 13 15 22 66 45 55"


def test_equal_keys_share_a_rank_and_different_scores_rank_apart(capsys):
    df = advise(HAND, draws=3)
    key = list(zip(df.p_win_within, df.expected_score, df.live_outs, -df.distance))
    for i, k in enumerate(key):
        assert df["rank"].iloc[i] == 1 + sum(1 for other in key if other > k)
    same_p = df[df.p_win_within == df.p_win_within.iloc[5]]
    assert same_p.expected_score.nunique() > 1 and same_p["rank"].nunique() > 1
    assert main(["advise", "kap-tai-shap", HAND]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "then the expected score" in head and "share a rank" in head


def test_a_complete_hand_is_the_win_first():
    df = advise("16 16 16 12 33 13 15 22 66 44")  # the claim example's hand with the 4-4: complete
    assert df.action.iloc[0] == "win" and df["rank"].iloc[0] == 1 and df.p_win_within.iloc[0] == 1
