"""The Heaven Eleven report at a tiny size, through kaptai.report.build_report."""
import re

import pytest

import kaptai.games  # noqa: F401  (the registry first)
from kaptai.errors import KaptaiError
from kaptai.games import game
from kaptai.report import REPORT_GAMES, build_report


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("h11") / "r.md"
    text, results = build_report("heaven-eleven", players=(4,), hands=1500, seed=3, out=out, progress=False)
    return out, text, results


def test_registered():
    spec = game("heaven-eleven")
    assert "heaven-eleven" in REPORT_GAMES
    assert spec.report_sections == "kaptai.report.heaven11:build_sections" and spec.report_players == "4"
    assert spec.commands["report"].entry == "kaptai.report:report_command"


def test_markdown_written(built):
    out, text, _ = built
    assert out.read_text(encoding="utf-8") == text
    for title in ("What the game is", "Exact odds of a dealt hand", "The score table",
                  "The simulation: whole hands, greedy play", "Sensitivity to the rule options",
                  "Short against over: the asymmetry of the scoring", "Summary for players", "Methods"):
        assert f"## {title}" in text
    assert text.count("](data:image/png;base64,") >= 5
    assert "1,500 hands" in text and "9895443/45023650" in text


def test_numbers_come_from_the_run(built):
    _, text, res = built
    sim, a, lead = res["simulation"], res["asymmetry"], res["leading"]
    assert int(sim[sim.metric == "zero_sum_violations"].value.iloc[0]) == 0 and res["score_zero_sum"] == 0
    t = sim[(sim.metric == "declarer_tricks_mean") & (sim.relative_to == "declarer")].value.iloc[0]
    assert f"takes {t:.2f} tricks on average" in text
    gain = lead.set_index("metric").loc["tricks_gain", "value"]
    assert f"worth {gain:.2f} tricks" in text
    ev0 = a[(a.rules == "as_written") & (a.metric == "ev_offset") & (a.level == 0)].value.iloc[0]
    assert f"Bidding exactly the expected grade is worth {ev0:+.2f} points" in text
    # the same tricks under both rules: the offset-0 EV as written is the simulation's declarer mean score
    fm = sim[(sim.metric == "final_mean") & (sim.seat == 0)].value.iloc[0]
    assert ev0 == pytest.approx(fm)
    # the worked examples of the rules page, scored
    w = res["worked"].set_index("record")
    assert w.loc["bid=3C tricks=7/2/2/2", "finals as written"] == "12/-4/-4/-4"
    assert w.loc["bid=2S tricks=5/5/2/1", "finals symmetric"] == "-5/6/0/-1"
    sens = res["sensitivity"].set_index("variant")
    assert set(sens.index) >= {"standard", "reduction=once", "short_follow=free", "must_trump"}
    assert sens.loc["standard", "declarer tricks"] == pytest.approx(t)


def test_html_and_bad_players(tmp_path):
    text, _ = build_report("heaven-eleven", players=(4,), hands=300, seed=1, out=tmp_path / "r.html", progress=False)
    assert text.startswith("<!DOCTYPE html>") and "<h2>The score table</h2>" in text
    assert len(re.findall(r'<img alt="[^"]*" src="data:image/png;base64,', text)) >= 5
    with pytest.raises(KaptaiError):
        build_report("heaven-eleven", players=(3,), hands=10, progress=False)


def test_skill_section_is_paired_over_duplicate_deals(built):
    _, text, results = built
    part = text.split("## How much skill is worth")[1].split("\n## ")[0]
    sd = results["skill_differences"]
    assert list(zip(sd.rules, sd.field)) == [("standard", "greedy"), ("standard", "random"),
                                             ("symmetric", "greedy"), ("symmetric", "random")]
    for r in sd.itertuples():
        assert f"search − {r.field} = {r.value:+.2f} points a hand ({r.ci_low:+.2f} to {r.ci_high:+.2f}" in part
    assert "independent tables" not in part
