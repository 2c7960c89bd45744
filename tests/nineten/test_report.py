"""The nine-ten report builds at a tiny size with its summary, sections, tables and figures."""
import re

import pytest

from kaptai.report import build_report

SECTIONS = ["Summary", "Rules modelled", "Opening hands (exact)", "The bonus flip (exact)",
            "Who wins, how, and who pays (Monte Carlo, colour_cut everywhere)",
            "Cutting colours (斷色) against other discard habits", "Which option readings change the money",
            "How much skill is worth", "Methods"]


def test_skill_section_rows(html_report):
    import html as _html

    _, text, results = html_report
    skill = results["skill"]
    assert skill.field.tolist() == ["colour_cut", "random"]
    assert ((skill.ci_low <= skill.value) & (skill.value <= skill.ci_high)).all()
    assert (skill.deals == 20).all() and (skill.hands == 80).all()  # 500 hands: 20 deals, the search at 4 seats
    part = _html.unescape(text.split("<h2>How much skill is worth</h2>")[1].split("<h2>")[0])
    for r in skill.itertuples():  # the paired difference and its interval, as the table and the text give them
        assert f"{r.ci_low:.3f} to {r.ci_high:.3f}" in part
        assert f"search − {r.field} = {r.value:+.3f} 頭 a hand" in part
    assert "parity" not in part and "+0.26" not in part  # the stale explanation is gone


@pytest.fixture(scope="module")
def html_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("nt") / "r.html"
    text, results = build_report("nine-ten", players=(4,), hands=500, seed=1, out=out, progress=False)
    return out, text, results


def test_sections_in_order_summary_first(html_report):
    out, text, _ = html_report
    assert out.read_text(encoding="utf-8") == text
    heads = re.findall(r"<h2>(.*?)</h2>", text)
    assert [h.replace("&#x27;", "'") for h in heads] == SECTIONS
    assert text.count("<table>") >= 10


def test_figures_embedded(html_report):
    _, text, _ = html_report
    imgs = re.findall(r'<img alt="([^"]*)" src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert len(imgs) == text.count("<img ") == 5
    alts = " | ".join(a for a, _ in imgs)
    for words in ("pairs at the deal", "P(win) by seat", "discard policy", "option reading"):
        assert words in alts
    assert all(len(png) > 5000 for _, png in imgs)  # real pictures, not empty canvases
    assert "http://" not in text and "https://" not in text
    # every figure sits in its section: pairs in the opening hands, policies in the colour-cutting section
    opening = text[text.index("<h2>Opening hands"):text.index("<h2>The bonus flip")]
    policy = text[text.index("<h2>Cutting colours"):text.index("<h2>Which option")]
    options = text[text.index("<h2>Which option"):text.index("<h2>Methods")]
    assert opening.count("<img ") == 1 and policy.count("<img ") == 1 and options.count("<img ") == 1


def test_summary_numbers_come_from_the_run(html_report):
    _, text, results = html_report
    summary = text[text.index("<h2>Summary</h2>"):text.index("<h2>Rules modelled</h2>")]
    lines = results["summary"]
    assert len(lines) >= 5 and all(f"<p>{line}</p>" in summary.replace("&#x27;", "'") for line in lines)
    odds, sim = results["odds"], results["simulate"][4]
    mc = odds[(odds.metric == "mean_claims") & (odds.hand == "dealer")].value.iloc[0]
    nat = odds[odds.metric == "natural"].value.iloc[0]
    assert f"{mc:.2f} claims" in summary and f"once in {1 / nat:,.0f} deals" in summary
    d = sim[(sim.metric == "win") & (sim.relative_to == "dealer") & (sim.level == "any") & (sim.seat == 0)].iloc[0]
    assert f"the dealer wins {100 * d.value:.1f}% of hands" in summary
    adv = sim[sim.metric == "dealer_advantage"].value.iloc[0]
    assert f"{adv:+.2f} with 4 players" in summary
    pol = results["policies"]
    duel = pol[(pol.variant == "seat 0 colour_cut vs random") & (pol.metric == "net_mean")
               & (pol.relative_to == "seat") & (pol.seat == 0)].value.iloc[0]
    assert f"among random players nets {duel:+.2f} per hand" in summary
    eff = results["option_effects"]
    assert eff[eff.variant == "defaults"].change.iloc[0] == 0
    big = eff[eff.variant != "defaults"].change.abs().max()
    assert f"{big:.2f}" in summary
    assert not re.search(r"\b(TODO|TBD|XXX|nan|NaN)\b", _shown(text))


def test_option_effects_are_differences_of_the_run(html_report):
    _, _, results = html_report
    opt, eff = results["options"], results["option_effects"]
    da = opt[opt.metric == "dealer_advantage"].set_index("variant").value
    for r in eff.itertuples():
        assert r.value == pytest.approx(da[r.variant])
        assert r.change == pytest.approx(da[r.variant] - da["defaults"])
        assert r.change_low <= r.change <= r.change_high


def test_markdown_version(tmp_path):
    text, _ = build_report("nine-ten", players=(4,), hands=500, seed=1, out=tmp_path / "r.md", progress=False)
    assert text.startswith("# Nine-ten (九支十仔)")
    assert text.index("## Summary") < text.index("## Rules modelled")
    assert text.count("](data:image/png;base64,") == 5
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == text


def _shown(text: str) -> str:
    """The page without its embedded images and fonts (base64 can spell any word)."""
    return re.sub(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+", "", text)
