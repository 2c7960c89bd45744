"""The reports' "How much skill is worth" on duplicate deals: search minus each field, paired."""
import math

import pandas as pd
import pytest

from kaptai.report.render import skill_difference_table, skill_difference_text, skill_differences

DIFF_KEYS = ["rules", "players", "policy", "field", "value", "ci_low", "ci_high", "deals", "hands", "variance_ratio",
             "unit"]


def _check_against_league(lg: pd.DataFrame, d: dict) -> None:
    """The difference is the mean of the per-deal differences: with every deal played by both, the
    difference of the two means over the same deals (the league's ev_per_hand rows)."""
    part = lg[(lg.rules == d["rules"]) & (lg.opponents == d["field"]) & (lg.metric == "ev_per_hand")]
    ev = part.set_index("policy").value
    assert d["value"] == pytest.approx(ev["search"] - ev[d["field"]], abs=1e-12)
    assert d["ci_low"] <= d["value"] <= d["ci_high"]
    assert d["hands"] == d["players"] * d["deals"]


def test_heaven_eleven_skill_is_paired_and_search_beats_random():
    from kaptai.report.heaven11 import skill_leagues

    lg, diffs = skill_leagues(3, 1)
    assert [(d["rules"], d["field"]) for d in diffs] == [("standard", "greedy"), ("standard", "random"),
                                                         ("symmetric", "greedy"), ("symmetric", "random")]
    for d in diffs:
        assert list(d) == DIFF_KEYS and d["deals"] == 3
        _check_against_league(lg, d)
    # search against three random players: ahead by several points a hand on every seed tried (1-4, 3 deals)
    assert all(d["ci_low"] > 0 for d in diffs if d["field"] == "random")


def test_nine_ten_skill_table_is_paired():
    from kaptai.report.nineten import skill_table

    df, n = skill_table(4, 20_000, 2, per_seat=3)
    assert n == 3
    assert df.field.tolist() == ["colour_cut", "random"]
    for c in ("value", "ci_low", "ci_high", "deals", "hands", "variance_ratio"):
        assert c in df.columns
    assert (df.deals == 3).all() and (df.hands == 12).all()
    # nine-ten is zero-sum: the all-field table's seat average is 0 on every deal, so the paired
    # difference equals the search seat's own mean net
    assert (df.value - df.ev).abs().max() < 1e-12
    assert [d["field"] for d in df.attrs["differences"]] == ["colour_cut", "random"]


def test_skill_differences_reads_the_field_of_the_league():
    lg = pd.DataFrame()
    row = {"rules": "r", "players": 3, "hands": 30, "variance_ratio": 2.0, "unit": "point"}
    lg.attrs.update(settings={"baseline": "max_melds"}, differences=[
        {**row, "policy": "search", "other": "chase_qing", "value": 9.0, "ci_low": 8.0, "ci_high": 10.0},
        {**row, "policy": "search", "other": "max_melds", "value": -0.2, "ci_low": -0.5, "ci_high": -0.1}])
    (d,) = skill_differences(lg)
    assert (d["field"], d["value"], d["deals"]) == ("max_melds", -0.2, 10)
    with pytest.raises(ValueError, match="no difference of 'lookahead'"):
        skill_differences(lg, "lookahead")


@pytest.mark.parametrize("lo, hi, verdict", [(0.1, 0.3, "search measurably beats greedy"),
                                             (-0.3, -0.1, "greedy measurably beats search"),
                                             (-0.1, 0.3, "no difference is measurable at this size")])
def test_text_says_what_the_interval_says(lo, hi, verdict):
    d = {"rules": "r", "players": 4, "policy": "search", "field": "greedy", "value": (lo + hi) / 2, "ci_low": lo,
         "ci_high": hi, "deals": 50, "hands": 200, "variance_ratio": 0.5, "unit": "point"}
    text = skill_difference_text([d], 2, {"r": "antes"})
    assert verdict in text and "antes a hand" in text and "2.0 times larger" in text
    t = skill_difference_table([d], 2, {"r": "antes"}, rules=True, per="game")
    assert t.columns.tolist() == ["rules", "field", "unit", "search − field (a game)", "paired 95% CI", "deals",
                                  "search's hands", "variance ratio"]
    assert t.iloc[0]["paired 95% CI"] == f"{lo:.2f} to {hi:.2f}"
    nan = dict(d, variance_ratio=math.nan)
    assert "variance" not in skill_difference_text([nan], 2, "points")
