"""The report builds at a small size; every promised section, table and figure is there."""
import re

import pytest

from kaptai.errors import RulesError
from kaptai.report import build_report

SECTIONS = ["Rules modelled", "Exact deal odds", "Simulated win rates by seat", "Policies head to head",
            "Expected value, house cut and fairness", "How much skill is worth", "Summary for players", "Methods"]


@pytest.fixture(scope="module")
def html_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "kts.html"
    text, results = build_report("kap-tai-shap", players=(3, 4), hands=800, seed=3, out=out, progress=False)
    return out, text, results


def test_html_is_self_contained_with_every_section(html_report):
    out, text, _ = html_report
    assert out.read_text(encoding="utf-8") == text
    for title in SECTIONS:
        assert f"<h2>{title}</h2>" in text
    assert text.count("<img ") >= 5 and text.count('src="data:image/png;base64,') == text.count("<img ")
    assert "http://" not in text and "https://" not in text  # nothing to fetch
    assert text.count("<table>") >= 4


def test_numbers_come_from_the_run(html_report):
    _, text, results = html_report
    odds = results["odds"]
    nat = odds[(odds.metric == "natural") & (odds.players == 4) & (odds.rules == "traditional")].value.iloc[0]
    assert f"{100 * nat:.2f}%" in text  # the summary quotes the exact figure computed in the run
    assert not re.search(r"\b(TODO|TBD|XXX|nan)\b", _shown(text))


def test_skill_section_gives_search_minus_each_field_paired(html_report):
    import html as _html

    _, text, results = html_report
    part = _html.unescape(text.split("<h2>How much skill is worth</h2>")[1].split("<h2>")[0])
    sd = results["skill_differences"]
    assert sorted(zip(sd.rules, sd.field)) == [("advanced", "greedy"), ("advanced", "random"),
                                               ("traditional", "greedy"), ("traditional", "random")]
    for r in sd.itertuples():
        unit = "antes" if r.rules == "traditional" else "points"
        assert f"search − {r.field} = {r.value:+.3f} {unit} a hand ({r.ci_low:+.3f} to {r.ci_high:+.3f}" in part
    seats = results["skill_seats"]  # the same arrangements at each seat from the dealer (seat 0 deals)
    assert len(seats) == 16 and sorted(set(seats.seat)) == [0, 1, 2, 3]
    assert (seats.deals == sd.deals.iloc[0]).all()
    for (rules, field), g in seats.groupby(["rules", "field"]):  # the seats average to the overall difference
        overall = sd[(sd.rules == rules) & (sd.field == field)].value.iloc[0]
        assert g.value.mean() == pytest.approx(overall, abs=1e-9)
    for r in seats.itertuples():
        assert f"{r.ci_low:.3f} to {r.ci_high:.3f}" in part


def test_markdown_version(tmp_path):
    text, _ = build_report("kap-tai-shap", players=(4,), hands=400, seed=1, out=tmp_path / "r.md", progress=False)
    assert text.startswith("# Kap Tai Shap")
    for title in SECTIONS:
        assert f"## {title}" in text
    assert "](data:image/png;base64," in text


def test_bad_input_writes_nothing(tmp_path):
    out = tmp_path / "x.html"
    with pytest.raises(RulesError, match="hands=0"):
        build_report("kap-tai-shap", players=(4,), hands=0, out=out, progress=False)
    with pytest.raises(RulesError, match="players=30"):
        build_report("kap-tai-shap", players=(30,), hands=10, out=out, progress=False)
    with pytest.raises(RulesError, match="no report for game"):
        build_report("kap-shap", out=out, progress=False)  # a registered game without a report
    assert not out.exists()


BIG_TWO_SECTIONS = ["Rules modelled", "Exact deal odds", "Who wins", "Scoring: 獨贏 against Place, count against points",
                    "Rule options: 頂大, suit order, first lead, passing, the Malaysian swap", "Summary for players",
                    "Methods"]


def test_big_two_report_sections_and_numbers(tmp_path):
    out = tmp_path / "b2.html"
    text, results = build_report("big-two", players=(3, 4), hands=800, seed=2, out=out, progress=False)
    for title in BIG_TWO_SECTIONS:
        assert f"<h2>{title}</h2>" in text
    assert text.count("<img ") >= 2 and "https://" not in text
    odds = results["odds"]
    p = odds[(odds.players == 4) & odds.breakdown.isna()].set_index("metric").value
    assert f"{100 * p['table_redeal_points_lt_3']:.2f}%" in text  # quoted from the run
    assert f"once in {1 / p['dragon']:,.0f} deals" in text
    sd = results["skill_differences"]  # search minus each field, paired over the deals, in the text
    assert sd.field.tolist() == ["greedy", "random"]
    for r in sd.itertuples():
        assert f"search − {r.field} = {r.value:+.2f} points a game ({r.ci_low:+.2f} to {r.ci_high:+.2f}" in text
    assert not re.search(r"\b(TODO|TBD|XXX|nan)\b", _shown(text))
    with pytest.raises(RulesError, match="players=53"):
        build_report("big-two", players=(53,), hands=10)


def _shown(text: str) -> str:
    """The page without its embedded images and fonts (base64 can spell any word)."""
    return re.sub(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+", "", text)
