"""The atlas report and its designer's pages (kaptai.report.designer): hand-checked measures, the
page's shape (scroll boxes, a small Markdown, labels that name the pair, role and unit)."""
import math
import pathlib
import re

import numpy as np
import pandas as pd
import pytest

from kaptai.errors import RulesError
from kaptai.report import designer as D

REPORTS = pathlib.Path(__file__).resolve().parents[2] / "reports"


# --------------------------------------------------------------------------------------
# Small tables computed by hand
# --------------------------------------------------------------------------------------


def test_seat_luck_hands_of_a_rotating_role_by_hand():
    # offsets' EVs 0.3, -0.1, -0.1, -0.1 (mean 0): a player starting at offset j holds j, j+1, ...
    # partial sums of r consecutive offsets: r=1 -> SD sqrt((.09+3*.01)/4) = 0.1732, r=2 -> 0.2,
    # r=3 -> 0.1732, r=0 -> 0.  Share of a session's swing (swing 1): L(n mod 4) / sqrt(n).
    e = [0.3, -0.1, -0.1, -0.1]
    # within 5%: 14 hands is the last over (0.2/sqrt(14) = 0.0535; 0.2/sqrt(18) = 0.0471)
    assert D.seat_luck_hands(e, 1.0, "rotation", share=0.05) == 15.0
    # within 10%: 2 hands is the last over (0.2/sqrt(2) = 0.141; 0.1732/sqrt(3) = 0.1000)
    assert D.seat_luck_hands(e, 1.0, "rotation", share=0.101) == 3.0
    # a swing twice as large halves the share: within 6% from n = 3 (n = 2: 0.2 / (2 sqrt 2) = 0.0707;
    # n = 3: 0.1732 / (2 sqrt 3) = 0.05; n = 6: 0.2 / (2 sqrt 6) = 0.0408); at swing 1 the last over 6%
    # is n = 10 (0.2 / sqrt 10 = 0.0632; n = 9: 0.1732 / 3 = 0.0577; n = 14: 0.0535)
    assert D.seat_luck_hands(e, 2.0, "rotation", share=0.06) == 3.0
    assert D.seat_luck_hands(e, 1.0, "rotation", share=0.06) == 11.0
    # no luck at all: within from the first hand
    assert D.seat_luck_hands([0.1, 0.1, 0.1], 1.0, "rotation") == 1.0


def test_seat_luck_hands_of_a_chance_role_never_evens_out():
    # a role chance gives afresh each hand keeps its share at every length
    assert math.isinf(D.seat_luck_hands([0.3, -0.1, -0.1, -0.1], 1.0, "dice", share=0.1, after_rotation=0.17))
    assert D.seat_luck_hands([0.3, -0.1, -0.1, -0.1], 1.0, "cards", share=0.2, after_rotation=0.17) == 1.0


def _table(rows):
    base = {"players": 4, "seat": None, "relative_to": "dealer", "level": None, "unit": "probability",
            "hands": 100, "method": "monte_carlo", "exact": None}
    return pd.DataFrame([{**base, **r} for r in rows])


def test_independent_differences_by_hand():
    df = _table([{"game": "g", "variant": "a", "measure": "house_edge", "value": 0.05, "ci_low": 0.04, "ci_high": 0.06},
                 {"game": "g", "variant": "b", "measure": "house_edge", "value": 0.02, "ci_low": 0.01, "ci_high": 0.03}])
    d = D.variant_differences(df, ["house_edge"])
    r = d.iloc[0]
    # b - a = -0.03; each half-width 0.01 -> the difference's sqrt(2) * 0.01
    assert (r.variant, r.baseline, bool(r.paired)) == ("b", "a", False)
    assert r["diff"] == pytest.approx(-0.03)
    assert (r.ci_low, r.ci_high) == pytest.approx((-0.03 - 0.01 * math.sqrt(2), -0.03 + 0.01 * math.sqrt(2)))
    rec = D.recommendations(df, d)
    row = rec[rec.criterion == "least house take"].iloc[0]
    assert row.recommended == "b" and row["how sure"].startswith("sure")


def test_paired_differences_of_the_atlas_are_read_with_their_sign():
    df = _table([{"game": "g", "variant": v, "measure": "house_edge", "value": x, "ci_low": x - 0.02,
                  "ci_high": x + 0.02} for v, x in (("a", 0.05), ("b", 0.04))])
    # the atlas's pairwise frame: diff = value(A) - value(B), A the earlier variant; paired on shared deals
    df.attrs["pairwise"] = [{"game": "g", "variant_a": "a", "variant_b": "b", "measure": "house_edge", "level": None,
                             "relative_to": "dealer", "bidders": None, "label": "house take", "unit": "probability",
                             "diff": 0.01, "ci_low": 0.004, "ci_high": 0.016, "hands": 100, "shared_deals": True,
                             "method": "paired_delta", "note": ""}]
    d = D.variant_differences(df, ["house_edge"])
    r = d.iloc[0]
    assert (r.variant, r.baseline, bool(r.paired)) == ("b", "a", True)
    assert (r["diff"], r.ci_low, r.ci_high) == pytest.approx((-0.01, -0.016, -0.004))
    # the separate intervals overlap, the paired difference does not: sure
    row = D.recommendations(df, d).iloc[0]
    assert row.recommended == "b" and row["how sure"].startswith("sure") and row.comparison.startswith("paired")


def test_all_equal_is_no_choice():
    df = _table([{"game": "g", "variant": v, "measure": "house_edge", "value": 0.0, "ci_low": 0.0, "ci_high": 0.0}
                 for v in ("a", "b")])
    row = D.recommendations(df).iloc[0]
    assert row.recommended == "any (all equal)" and "no choice" in row["how sure"]


def test_session_lengths_and_stake():
    assert D.session_hands("nantong", 3)[0] == 24 and D.session_hands("nantong", 4)[0] == 32   # 8 圈
    assert D.session_hands("heaven-eleven", 4)[0] == 4                                       # rounds = 4
    assert D.session_hands("kap-tai-shap", 4)[0] == 100 and D.session_hands("nine-ten", 6)[0] == 102
    assert D.session_hands("big-two", 3)[0] == 100
    for bad in (0, -1.0, float("nan"), float("inf"), "10", True):
        with pytest.raises(RulesError, match="stake="):
            D.check_stake(bad)


# --------------------------------------------------------------------------------------
# The report at a small size
# --------------------------------------------------------------------------------------

GAME = "heaven-eleven"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from kaptai.atlas import atlas
    from kaptai.report.atlas import build_atlas_report

    df = atlas(games=[GAME], hands=400, seed=2, strong_hands=8, progress=False)
    root = tmp_path_factory.mktemp("atlas")
    build_atlas_report(table=df, hands=400, seed=2, out=root / "atlas.html", players_hands=100, progress=False,
                       stake=10)
    build_atlas_report(table=df, hands=400, seed=2, out=root / "atlas.md", players_hands=100, progress=False,
                       stake=10)
    return root, df


def test_markdown_is_small_with_its_figures_beside(built):
    root, _ = built
    md = (root / "atlas.md").read_text(encoding="utf-8")
    assert len(md.encode()) < 200_000
    assert "data:image" not in md
    figures = re.findall(r"\]\((atlas-fig-\d+\.png)\)", md)
    assert figures and all((root / f).stat().st_size > 1000 for f in figures)
    page = (root / f"atlas-{GAME}.md").read_text(encoding="utf-8")
    assert len(page.encode()) < 200_000 and "## Recommendation" in page


def test_every_table_is_in_a_scroll_box(built):
    root, _ = built
    for path in (root / "atlas.html", root / f"atlas-{GAME}.html"):
        text = path.read_text(encoding="utf-8")
        assert text.count("<table>") >= 4
        assert text.count("<table>") == text.count('<div class="scroll"><table>')
        assert "overflow-x: auto" in text


def test_the_verdict_comes_first_and_the_long_tables_are_csv(built):
    root, df = built
    text = (root / "atlas.html").read_text(encoding="utf-8")
    heads = re.findall(r"<h2>(.*?)</h2>", text)
    assert heads[0] == "The verdict"
    for name in ("table", "ranking", "differences", "players", "recommendations"):
        csv = root / f"atlas-{name}.csv"
        assert csv.exists() and f'href="atlas-{name}.csv"' in text
    full = pd.read_csv(root / "atlas-table.csv")
    assert len(full) == len(df)
    assert "The full table" not in text and "Every row of the atlas" not in text
    assert f'href="atlas-{GAME}.html"' in text


def _tables(html_text):
    """(header cells, rows of cells) of every table of a page."""
    out = []
    for t in re.findall(r"<table>(.*?)</table>", html_text, re.S):
        head = [re.sub("<.*?>", "", h) for h in re.findall(r"<th>(.*?)</th>", t, re.S)]
        rows = [[re.sub("<.*?>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
                for tr in re.findall(r"<tr>(.*?)</tr>", t, re.S)]
        out.append((head, [r for r in rows if r]))
    return out


def test_the_designer_page_names_pair_role_and_unit_on_every_row(built):
    root, _ = built
    text = (root / f"atlas-{GAME}.html").read_text(encoding="utf-8")
    heads = re.findall(r"<h2>(.*?)</h2>", text)
    assert heads[0] == "Recommendation"
    for want in ("In money: a stake of 10 per unit, over a session", "How long until the seat&#x27;s luck evens out",
                 "Differences between variants"):
        assert any(h.startswith(want) for h in heads), (want, heads)
    checked = 0
    for head, rows in _tables(text):
        if "pair / role" not in head:
            continue
        i = head.index("pair / role")
        j = head.index("unit")
        for r in rows:
            assert r[i].strip() and r[j].strip(), r
            assert re.match(r"(role: the |pair: |the whole table|the house|each player)", r[i]), r[i]
        checked += 1
    assert checked >= 3            # recommendations, money, differences
    # the seat-luck table names its role and how it is assigned
    luck = next(rows for head, rows in _tables(text) if "role" in head and any("hands until" in h for h in head))
    assert all(re.search(r"\((rotation|dice|cards|auction)\)", r[1]) for r in luck)
    # money over a session = per hand x session hands x stake, for the value of skill
    m = D.money_table(built[1], GAME, 10)
    sk = m[m.effect.str.startswith("value of skill")].iloc[0]
    per_hand = float(sk["per hand (unit)"].split(" [")[0].replace(",", ""))
    session = float(sk["over a session (money at 10 per unit)"].split(" [")[0].replace(",", ""))
    assert session == pytest.approx(per_hand * sk["session (hands)"] * 10, rel=0.01, abs=0.06)


def test_figures_have_a_legend_per_skill_pair_and_arrows_for_infinite_ends(built):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _, df = built
    fig = D.plot_unitfree(df, "hands_until_skill_shows")
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["pair: default - random", "pair: strong - default"]
    infinite = df[(df.measure == "hands_until_skill_shows") & ~np.isfinite(df.ci_high)]
    arrows = [c for c in ax.get_children() if type(c).__name__ == "Annotation"]
    assert len(arrows) >= len(infinite)
    plt.close(fig)
    fig = D.plot_by_unit(df, "value_of_skill")
    assert all(len({t.get_text() for t in a.get_legend().get_texts()}) >= 1 for a in fig.axes)
    plt.close(fig)


def test_the_committed_atlas_report_is_small_and_scrolls():
    md = REPORTS / "atlas.md"
    if not md.exists():
        pytest.skip("no committed atlas report")
    assert md.stat().st_size < 200_000
    for page in sorted(REPORTS.glob("atlas*.html")):
        text = page.read_text(encoding="utf-8")
        assert text.count("<table>") == text.count('<div class="scroll"><table>'), page.name
