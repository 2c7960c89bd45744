"""The Nantong report builds at a tiny size with every section and figure, and its numbers come
from the run."""
import html
import re

import numpy as np
import pytest

from kaptai.report import build_report
from kaptai.report.nantong import simulate_with_noncompleters

from ..conftest import SLOW_SCALE
from .helpers import small_search

SECTIONS = ["Summary", "Rules modelled", "Exact deal odds", "Whole hands (max_melds policy)",
            "Fairness of the 8-round match", "How much skill is worth", "Methods"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    import matplotlib

    matplotlib.use("Agg")
    out = tmp_path_factory.mktemp("nantong") / "r.html"
    with pytest.MonkeyPatch.context() as mp:
        small_search(mp, SLOW_SCALE)
        text, results = build_report("nantong", players=(3,), hands=300, seed=1, out=out, progress=False)
    return out, text, results


def test_sections_in_order_and_figures_embedded(report):
    out, text, _ = report
    assert out.read_text(encoding="utf-8") == text
    titles = re.findall(r"<h2>(.*?)</h2>", text)
    assert [html.unescape(t) for t in titles] == SECTIONS  # the summary comes first
    assert text.count("<img ") == 5
    assert text.count('src="data:image/png;base64,') == 5
    for caption in ("Distance from ready at the deal", "Opening 胡數 at the deal", "by role",
                    "Mean total by win type", "Mean match result"):
        assert caption in text
    assert "http://" not in text and "https://" not in text
    assert not re.search(r"\b(TODO|TBD|nan|NaN)\b", text)


def test_summary_numbers_come_from_the_run(report):
    _, text, results = report
    summary = html.unescape(text.split("<h2>Summary</h2>")[1].split("<h2>")[0])
    sim = results["simulations"]
    role = sim[(sim.relative_to == "role") & (sim.players == 3)].set_index(["metric", "level"]).value
    assert f"takes {100 * role['hand_win_share', 'dealer']:.1f}% of the hand wins" in summary  # ties split
    assert "a tie split equally" in summary
    assert f"{100 * role['complete', 'other']:.1f}%" in summary
    huang = sim[(sim.metric == "huang_rate") & (sim.players == 3)].value.iloc[0]
    assert f"{100 * huang:.1f}% of hands end with the stock exhausted" in summary
    nc = sim[(sim.metric == "noncompleter_winner_hu") & sim.level.isna()].value.iloc[0]
    assert f"scores {nc:.1f} on average" in summary
    odds = results["odds"]
    nat = odds[(odds.metric == "natural") & (odds.hand == "dealer")].value.iloc[0]
    n = 1 / nat
    assert f"1 in {int(round(n, -(len(str(int(n))) - 2))):,}" in summary
    fair = results["fairness"]
    sd = fair[(fair.metric == "match_sd") & (fair.settlement == "winner_collects")].value.mean()
    assert f"winner_collects" in summary and f"{sd:.1f}" in summary


def test_skill_section_comes_from_the_league(report):
    _, text, results = report
    part = html.unescape(text.split("<h2>How much skill is worth</h2>")[1].split("<h2>")[0])
    lg = results["skill_league"]
    assert set(lg.opponents) == {"max_melds", "random"}
    vs = lg[(lg.policy == "search") & (lg.metric == "vs_best_other") & (lg.opponents == "max_melds")].iloc[0]
    assert f"{vs.ci_low:.3f} to {vs.ci_high:.3f}" in part
    sd = results["skill_differences"]
    assert sd.field.tolist() == ["max_melds", "random"] and (sd.hands == 3 * sd.deals).all()
    for r in sd.itertuples():  # search minus each field, paired over the deals, as the text gives it
        assert f"search − {r.field} = {r.value:+.3f} points a hand ({r.ci_low:+.3f} to {r.ci_high:+.3f}" in part
    seats = results["skill_seats"]  # the same arrangements at each seat (seat 0 deals every deal)
    assert len(seats) == 6 and set(seats.field) == {"max_melds", "random"}
    for field, g in seats.groupby("field"):  # the seats average to the overall difference
        assert g.value.mean() == pytest.approx(sd[sd.field == field].value.iloc[0], abs=1e-9)
    for r in seats.itertuples():
        assert f"{r.ci_low:.3f} to {r.ci_high:.3f}" in part


def test_markdown_has_the_figures(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    small_search(monkeypatch, SLOW_SCALE)
    text, _ = build_report("nantong", players=(4,), hands=120, seed=2, out=tmp_path / "r.md", progress=False)
    assert (tmp_path / "r.md").read_text(encoding="utf-8") == text
    assert text.count("](data:image/png;base64,") == 5
    assert "## Summary" in text and "夢家" in text


def test_report_simulation_is_simulate_with_split_wins_plus_noncompleter_rows():
    from kaptai.nantong.simulate import simulate

    df = simulate_with_noncompleters(4, 250, 5, progress=False)
    base = simulate(4, hands=250, seed=5, progress=False)
    kept = base[~base.metric.isin(["hand_win", "noncompleter_wins"])].reset_index(drop=True)
    assert df.iloc[:len(kept)].reset_index(drop=True).equals(kept)
    added = df.iloc[len(kept):]
    assert set(added.metric) == {"hand_win_share", "noncompleter_win_share", "noncompleter_winner_hu"}
    # a hand's shares sum to 1; the dealer's role row is seat 0; the sitter gets nothing
    share = added[added.metric == "hand_win_share"]
    assert share[share.relative_to == "seat"].value.sum() == pytest.approx(1.0)
    roles = share[share.relative_to == "role"].set_index("level").value
    assert roles["dealer"] == share[(share.relative_to == "seat") & (share.seat == 0)].value.iloc[0]
    assert roles["sitter"] == 0.0
    # counting a tie for every tied player can only give more: the split shares are at most simulate's rates
    hw = base[(base.metric == "hand_win") & (base.relative_to == "seat")].set_index("seat").value
    for r in share[share.relative_to == "seat"].itertuples():
        assert r.value <= hw[r.seat] + 1e-12
    extra = df[df.metric == "noncompleter_winner_hu"]
    extra = extra.set_index(extra.level.fillna("all"))
    # the all-hands count is the sum of the 荒牌 and completed-hand counts; its mean is their weighted mean
    n_all, n_h, n_c = (int(extra.loc[k, "samples"]) for k in ("all", "huang", "completed"))
    assert n_all == n_h + n_c and n_all > 0
    weighted = sum(extra.loc[k, "value"] * extra.loc[k, "samples"] for k in ("huang", "completed")
                   if extra.loc[k, "samples"]) / n_all
    assert np.isclose(extra.loc["all", "value"], weighted)
    # a non-completer hand winner exists in each hand it wins: at least as many as the hands it wins
    ncw = base[(base.metric == "noncompleter_wins") & base.level.isna()].iloc[0]
    assert n_all >= round(ncw.value * ncw.samples)
    assert (extra.ci_low <= extra.value).all() and (extra.value <= extra.ci_high).all()


def test_noncompleter_totals_match_the_engine():
    """The extra rows equal a direct computation from the engine's outcome arrays."""
    from kaptai.core.runner import plan_chunks
    from kaptai.core.sampling import bit_generator
    from kaptai.core.options import check_seed
    from kaptai.nantong.config import make_config
    from kaptai.nantong.engine import CHUNK_HANDS, run_hands

    df = simulate_with_noncompleters(3, 200, 9, progress=False)
    cfg = make_config(3, None)
    totals = []
    for c in plan_chunks(200, CHUNK_HANDS, check_seed(9)):
        out = run_hands(cfg, c.size, policies="max_melds", bit_generator=bit_generator(c.seed))
        mask = (out["winner"] == 1) & (out["completer"] == 0)
        totals.extend(out["total"][mask].tolist())
    row = df[(df.metric == "noncompleter_winner_hu") & df.level.isna()].iloc[0]
    assert row.samples == len(totals) and np.isclose(row.value, np.mean(totals))


def test_win_shares_match_the_engine_with_ties_split():
    """hand_win_share = the mean over hands of each seat's share: 1 / (number of tied hand winners)."""
    from kaptai.core.options import check_seed
    from kaptai.core.runner import plan_chunks
    from kaptai.core.sampling import bit_generator
    from kaptai.nantong.config import make_config
    from kaptai.nantong.engine import CHUNK_HANDS, run_hands

    df = simulate_with_noncompleters(3, 400, 11, progress=False)
    cfg = make_config(3, None)
    shares, nc = [], []
    for c in plan_chunks(400, CHUNK_HANDS, check_seed(11)):
        out = run_hands(cfg, c.size, policies="max_melds", bit_generator=bit_generator(c.seed))
        w = out["winner"].astype(float)
        k = w.sum(axis=1, keepdims=True)
        shares.append(w / k)
        nc.append(((w / k) * (out["completer"] == 0)).sum(axis=1))
    shares = np.concatenate(shares)
    got = df[(df.metric == "hand_win_share") & (df.relative_to == "seat")].sort_values("seat").value.to_numpy()
    np.testing.assert_allclose(got, shares.mean(axis=0), rtol=1e-12)
    ncs = df[(df.metric == "noncompleter_win_share") & df.level.isna()].value.iloc[0]
    assert ncs == pytest.approx(np.concatenate(nc).mean())
