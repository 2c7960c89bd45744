"""The rule-design search (kaptai.core.design, kaptai.design, kaptai design GAME)."""

import json
import math

import numpy as np
import pytest

from kaptai.core.design import (DesignGame, DesignMeasure, DesignVariant, design, grid_variants, halving_schedule,
                                influence, measure_estimates, pareto_front)
from kaptai.errors import KaptaiError, UsageError

Z = 1.959963984540054


def test_mean_interval_and_paired_difference_by_hand():
    m = DesignMeasure("x", "mean", ("x",))
    a = {"x": np.array([1.0, 2.0, 3.0, 6.0])}
    b = {"x": np.array([0.0, 2.0, 2.0, 4.0])}
    v, lo, hi, d, dlo, dhi = measure_estimates(m, a, b)
    assert v == 3.0
    sd = math.sqrt(((1 - 3) ** 2 + 1 + 0 + 9) / 3)            # 2.160
    assert math.isclose(hi - v, Z * sd / 2)
    diffs = np.array([1.0, 0.0, 1.0, 2.0])                       # paired, deal by deal
    assert d == 1.0 and math.isclose(dhi - d, Z * diffs.std(ddof=1) / 2)


def test_ratio_and_share_influence_match_numerical_gradient():
    rng = np.random.default_rng(3)
    a, b = rng.normal(1, 1, 400), rng.uniform(1, 3, 400)
    for kind in ("ratio", "per_swing"):
        m = DesignMeasure("r", kind, ("a", "b"))
        v, u = influence(m, {"a": a, "b": b})
        f = (lambda ma, mb: ma / mb) if kind == "ratio" else (lambda ma, mb: ma / math.sqrt(mb))
        assert math.isclose(v, f(a.mean(), b.mean()))
        eps = 1e-6
        ga = (f(a.mean() + eps, b.mean()) - f(a.mean() - eps, b.mean())) / (2 * eps)
        gb = (f(a.mean(), b.mean() + eps) - f(a.mean(), b.mean() - eps)) / (2 * eps)
        assert np.allclose(u, ga * (a - a.mean()) + gb * (b - b.mean()), atol=1e-6)
    v, u = influence(DesignMeasure("s", "root_mean", ("b",)), {"b": b})
    assert math.isclose(v, math.sqrt(b.mean())) and abs(u.mean()) < 1e-12


def test_pareto_front_and_schedule():
    s = np.array([[0.1, -1.0], [0.2, -2.0], [0.3, -1.5], [0.1, -0.5]])
    assert pareto_front(s).tolist() == [True, True, False, False]
    assert halving_schedule(10, 100, 800, 50) == [(10, 100), (5, 200), (3, 400), (2, 800)]
    assert halving_schedule(3, 1000, 200, 50) == [(3, 200)]


def _toy_rows(variant, chunk):
    rng = np.random.default_rng(chunk.seed)
    x = rng.normal(size=chunk.size)
    o = variant.as_dict()
    return {"edge": x + o.get("bias", 1.0), "sq": x * x + 1.0, "skill": 1.0 + x - 0.3 * abs(o.get("bias", 1.0)),
            "house": np.zeros(chunk.size), "staked": np.ones(chunk.size)}


TOY = DesignGame("toy", {"bias": (1.0, 0.0, 2.0, -0.5)}, {"bias": (1.0, 0.0, 2.0, -0.5), "other": (0, 1)},
                 (DesignMeasure("edge", "mean", ("edge",), "zero"),
                  DesignMeasure("house", "ratio", ("house", "staked"), "min"),
                  DesignMeasure("skill", "mean", ("skill",), "max")), rows=_toy_rows, chunk_hands=10)


def test_grid_variants_default_first_and_unknown_option():
    assert [v.name for v in grid_variants(TOY)] == ["default", "bias=0.0", "bias=2.0", "bias=-0.5"]
    assert len(grid_variants(TOY, ["bias", "other"])) == 8
    with pytest.raises(UsageError, match="colour"):
        grid_variants(TOY, ["colour"])


def test_design_shares_deals_and_keeps_the_default():
    df = design(TOY, hands=40, start_hands=10, seed=4)
    assert df.attrs["schedule"] == [[4, 10], [2, 20], [1, 40]]
    last = df[df["round"] == 2]
    assert "default" in set(last.variant)          # the reference always survives
    # the same deals under every variant: bias=0 differs from the default by exactly -1 on every deal
    e = df[(df.variant == "bias=0.0") & (df.measure == "edge")].iloc[0]
    assert math.isclose(e["diff"], -1.0) and math.isclose(e.diff_low, -1.0) and math.isclose(e.diff_high, -1.0)
    # reproducible, and the grid plays every variant on every deal
    assert df.equals(design(TOY, hands=40, start_hands=10, seed=4))
    g = design(TOY, hands=20, search="grid", seed=4)
    assert set(g.deals) == {20} and set(g["round"]) == {0}
    front = set(g[g.front].variant)
    assert "bias=0.0" in front and "bias=2.0" not in front   # 0 edge and the most skill of the four but 1.0


def test_design_checkpoint_resumes(tmp_path):
    a = design(TOY, hands=20, start_hands=10, seed=2, checkpoint=str(tmp_path / "ck"))
    assert (tmp_path / "ck" / "round-0").is_dir()
    b = design(TOY, hands=20, start_hands=10, seed=2, checkpoint=str(tmp_path / "ck"))
    assert a.equals(b)


def test_design_refuses_bad_arguments():
    with pytest.raises(UsageError, match="search"):
        design(TOY, hands=20, search="random")
    with pytest.raises(UsageError, match="hands"):
        design(TOY, hands=0)
    with pytest.raises(KaptaiError, match="kind"):
        DesignMeasure("x", "median", ("x",))


def test_recommendation_toy():
    from kaptai.design import recommendation

    df = design(TOY, hands=20, search="grid", seed=1)
    rec = recommendation(df)
    assert rec is not None and rec["variant"] in ("bias=0.0", "bias=-0.5")
    assert rec["zero"][1] <= 0 <= rec["zero"][2]


def test_heaven_eleven_rows_share_the_deal_and_score_the_variant():
    from kaptai.core.runner import plan_chunks
    from kaptai.heaven11.design import DESIGN, rows

    chunk = plan_chunks(6, 6, 9)[0]
    a = rows(DesignVariant(()), chunk)
    assert all((a[k] == rows(DesignVariant(()), chunk)[k]).all() for k in a)   # reproducible
    assert (a["house"] == 0).all() and (a["staked"] > 0).any()
    assert set(DESIGN.space) == {"short_penalty", "match_bonus", "over_penalty"}
    b = rows(DesignVariant((("short_penalty", "progressive"),)), chunk)
    assert not all((a[k] == b[k]).all() for k in ("edge", "bid_minus_made"))


def test_cli_design_heaven_eleven_small(tmp_path):
    from kaptai.cli import main

    out = tmp_path / "d.json"
    assert main(["design", "heaven-eleven", "--hands", "8", "--start-hands", "4", "--options", "over_penalty",
                 "--seed", "2", "--out", str(out), "--plot", str(tmp_path / "f.png")]) == 0
    data = json.loads(out.read_text())
    rows = data["data"] if isinstance(data, dict) and "data" in data else data
    assert {r["variant"] for r in rows} == {"default", "over_penalty=none"}
    assert (tmp_path / "f.png").stat().st_size > 0


@pytest.mark.parametrize("argv,match", [
    (["design", "mahjong"], "unknown game"),
    (["design", "heaven-eleven", "--options", "colour"], "colour"),
    (["design", "heaven-eleven", "--search", "random"], "random"),
    (["design", "heaven-eleven", "--search", "grid", "--start-hands", "10"], "no effect"),
])
def test_cli_design_refusals(argv, match, capsys):
    from kaptai.cli import main

    code = main(argv)
    assert code != 0
    assert match in capsys.readouterr().err


def test_a_game_without_its_own_design_is_searched_through_its_atlas_feed():
    from kaptai.design import design_game, feed_design

    g = design_game("nine-ten")
    assert g is feed_design("nine-ten") and len(g.space) >= 1
    opt = list(g.space)[0]
    df = design(g, hands=10, search="grid", options=[opt], seed=3)
    assert set(df.measure) >= {"seat_edge_share", "house_take", "value_of_skill_share", "swing"}
    assert set(df.deals) == {10} and df[df.variant == "default"]["diff"].abs().max() == 0


def test_same_seed_same_table_on_two_workers():
    a = design(TOY, hands=20, start_hands=10, seed=5)
    b = design(TOY, hands=20, start_hands=10, seed=5, workers=2)
    assert a.equals(b)
