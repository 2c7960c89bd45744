"""The fairness atlas (kaptai.atlas, kaptai atlas, kaptai report atlas) at small size."""

import json
import pandas as pd
import pytest

from kaptai.atlas import ATLAS_COLUMNS, MEASURES, _chunk_hands, atlas, atlas_games, feed_of, plan, strong_of
from kaptai.cli import main
from kaptai.core.atlas import AtlasFeed, AtlasJob, pair_measures
from kaptai.core.runner import CheckpointError, plan_chunks
from kaptai.errors import KaptaiError
from kaptai.games import GAMES

FAST = "nine-ten"


@pytest.fixture(scope="module")
def small():
    return atlas(games=[FAST], hands=1_500, seed=3, progress=False)


def test_every_game_with_an_engine_has_a_feed():
    names = atlas_games()
    assert {"kap-tai-shap", "big-two", "nine-ten", "nantong", "heaven-eleven"} <= set(names)
    for name in names:
        feed = feed_of(name)
        assert isinstance(feed, AtlasFeed) and feed.game == name
        assert feed.variants and len({v.name for v in feed.variants}) == len(feed.variants)
        assert GAMES[name].policies and feed.default_policy in GAMES[name].policies
        assert feed.strong_policy in GAMES[name].policies and feed.random_policy in GAMES[name].policies


def test_table_shape_and_methods(small):
    df = small
    assert list(df.columns) == ATLAS_COLUMNS
    assert set(df.measure) <= set(MEASURES)
    assert set(df.method) == {"monte_carlo", "exact"}
    mc = df[df.method == "monte_carlo"]
    assert (mc.ci_low <= mc.value + 1e-12).all() and (mc.value <= mc.ci_high + 1e-12).all()
    assert df.attrs["game"] == f"atlas of {FAST}" and df.attrs["seed_entropy"] == 3
    exact = df[df.method == "exact"]
    assert exact.exact.str.fullmatch(r"\d+/\d+").all()
    # every variant of the feed, each with every measure
    feed = feed_of(FAST)
    assert list(dict.fromkeys(df.variant)) == [v.name for v in feed.variants]


def test_a_game_without_a_cut_has_zero_house_edge_exactly(small):
    edge = small[small.measure == "house_edge"]
    assert (edge.value == 0).all() and (edge.ci_low == 0).all() and (edge.ci_high == 0).all()


def test_seat_ev_adds_up_to_minus_the_house_take(small):
    for (_, v), part in small.groupby(["game", "variant"]):
        ev = part[part.measure == "seat_ev"].value.sum()
        assert abs(ev) < 1e-9          # no cut: the seats' results add up to 0 in every hand


def test_rows_do_not_depend_on_the_other_games():
    a = atlas(games=[FAST], hands=600, seed=4, progress=False, variants="default")
    b = atlas(games=["big-two", FAST], hands=600, seed=4, progress=False, variants="default")
    pd.testing.assert_frame_equal(a.reset_index(drop=True),
                                  b[b.game == FAST].reset_index(drop=True), check_dtype=False)


def test_workers_and_checkpoint_give_the_same_table(tmp_path):
    kw = dict(games=[FAST], hands=800, seed=5, progress=False, variants="default")
    one = atlas(**kw)
    two = atlas(**kw, workers=2)
    pd.testing.assert_frame_equal(one, two)
    ck = tmp_path / "ck"
    first = atlas(**kw, checkpoint=ck)
    jobs = plan([FAST], 800, seed=5, variants="default")
    assert len(list(ck.glob("chunk-*.npz"))) == sum(
        len(plan_chunks(j.hands, _chunk_hands(feed_of(FAST), j.heavy), j.entropy)) for j in jobs)
    again = atlas(**kw, checkpoint=ck)
    pd.testing.assert_frame_equal(first, again)
    pd.testing.assert_frame_equal(first, one)
    with pytest.raises(CheckpointError):
        atlas(**{**kw, "hands": 900}, checkpoint=ck)


def test_random_against_random_on_a_real_engine():
    """A pair of random players at one table of the field: the value of skill is 0 within its interval."""
    feed = feed_of(FAST)
    v = feed.variants[0]
    P = v.players
    diffs = []
    for a, b in [(0, 1), (1, 0), (2, 3)]:
        pols = [feed.default_policy] * P
        pols[a] = pols[b] = "random"
        for c in plan_chunks(2_000, feed.chunk_hands, 11 + a + 7 * b):
            net = feed.rows(AtlasJob(FAST, v, tuple(pols)), c)["net"]
            diffs.append(net[:, a] - net[:, b])
    rows = pair_measures(diffs, swing=(1.0, 1.0, 1.0), exchanged=(1.0, 1.0, 1.0))
    r = [r for r in rows if r["measure"] == "value_of_skill"][0]
    assert r["ci_low"] < 0 < r["ci_high"]


def test_pair_tables_seat_the_pair_with_the_field(small):
    jobs = [j for j in plan([FAST], 1_500, seed=3) if j.role == "pair"]
    feed = feed_of(FAST)
    for j in jobs:
        a, b = j.seats
        x, y = j.job.policies[a], j.job.policies[b]
        assert a != b and (x, y) in {("colour_cut", "random"), (strong_of(feed, j.job.variant), "colour_cut")}
        assert all(p == feed.default_policy for s, p in enumerate(j.job.policies) if s not in (a, b))
    got = small[small.measure == "hands_until_skill_shows"]
    assert set(got.level) <= {"default - random", "strong - default"} and len(got)
    assert (got.value >= 1).all()


def test_bad_input_is_refused_before_any_work():
    with pytest.raises(KaptaiError, match="chess"):
        atlas(games=["chess"], hands=10, progress=False)
    with pytest.raises(KaptaiError, match="kap-shap"):
        atlas(games=["kap-shap"], hands=10, progress=False)       # a form of kap-tai-shap, no feed of its own
    with pytest.raises(KaptaiError, match="variants"):
        atlas(games=[FAST], hands=10, variants="all", progress=False)
    with pytest.raises(KaptaiError, match="hands"):
        atlas(games=[FAST], hands=0, progress=False)
    with pytest.raises(KaptaiError, match="seed"):
        atlas(games=[FAST], hands=10, seed=-1, progress=False)


def test_cli_json(capsys):
    assert main(["atlas", "--games", FAST, "--hands", "400", "--seed", "1", "--variants", "default",
                 "--no-skill", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["measure"] for r in rows} >= {"house_edge", "seat_advantage", "swing", "decisive_deal"}
    assert all(r["game"] == FAST for r in rows)
    assert main(["atlas", "--games", "nope", "--hands", "10"]) == 2
    assert "nope" in capsys.readouterr().err


def test_cli_plots_and_report(tmp_path, capsys):
    assert main(["atlas", "--games", FAST, "--hands", "300", "--variants", "default", "--plot-dir", str(tmp_path / "f"),
                 "--no-progress"]) == 0
    names = sorted(p.name for p in (tmp_path / "f").glob("*.png"))
    assert "atlas-map.png" in names and "atlas-house_edge.png" in names
    out = capsys.readouterr().out
    assert out.startswith("# fairness atlas")


def test_report_atlas_small(tmp_path, monkeypatch):
    from kaptai.report import atlas as rep

    text, df = rep.build_atlas_report(games=[FAST, "big-two"], hands=400, seed=2, out=tmp_path / "a.md",
                                      progress=False)
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == text
    assert "## Reading" in text and "## The games at a glance" in text and "data:image/png;base64" in text
    # every number of the reading comes from the table
    for paragraph in rep.reading(df):
        assert paragraph
    assert main(["report", "atlas", "--players", "4", "--hands", "10"]) == 2


def test_dask_gives_the_same_table():
    pytest.importorskip("distributed")
    kw = dict(games=[FAST], hands=600, seed=7, progress=False, variants="default")
    pd.testing.assert_frame_equal(atlas(**kw), atlas(**kw, scheduler="local", workers=2))
