"""The fairness atlas (kaptai.atlas, kaptai atlas, kaptai report atlas) at small size."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from kaptai.atlas import (ATLAS_COLUMNS, MEASURES, RANKED, RANKING_COLUMNS, _chunk_hands, atlas, atlas_games, feed_of,
                          plan, ranking, strong_of, verdict)
from kaptai.cli import main
from kaptai.core.atlas import AtlasFeed, AtlasJob, RoleMoments, pair_measures, principal_role
from kaptai.core.runner import CheckpointError, plan_chunks
from kaptai.errors import KaptaiError
from kaptai.games import GAMES

FAST = "nine-ten"


@pytest.fixture(scope="module")
def small():
    return atlas(games=[FAST], hands=1_500, seed=3, progress=False, strong_hands=120)


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
    a = atlas(games=[FAST], hands=600, seed=4, progress=False, variants="default", strong_hands=60)
    b = atlas(games=["big-two", FAST], hands=600, seed=4, progress=False, variants="default", strong_hands=60)
    pd.testing.assert_frame_equal(a.reset_index(drop=True),
                                  b[b.game == FAST].reset_index(drop=True), check_dtype=False)


def test_workers_and_checkpoint_give_the_same_table(tmp_path):
    kw = dict(games=[FAST], hands=800, seed=5, progress=False, variants="default", strong_hands=60)
    one = atlas(**kw)
    two = atlas(**kw, workers=2)
    pd.testing.assert_frame_equal(one, two)
    ck = tmp_path / "ck"
    first = atlas(**kw, checkpoint=ck)
    jobs = plan([FAST], 800, seed=5, variants="default", strong_hands=60)
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
                                      progress=False, strong_hands=60)
    assert (tmp_path / "a.md").read_text(encoding="utf-8") == text
    assert "## Reading" in text and "## The games at a glance" in text and "](a-fig-1.png)" in text
    assert text.index("## The verdict") < text.index("## The games at a glance") and verdict(df) in text
    assert "seat luck left after a rotation" in text and "role_luck_after_rotation" in text
    # every number of the reading comes from the table
    for paragraph in rep.reading(df):
        assert paragraph
    assert main(["report", "atlas", "--players", "4", "--hands", "10"]) == 2


def test_dask_gives_the_same_table():
    pytest.importorskip("distributed")
    kw = dict(games=[FAST], hands=600, seed=7, progress=False, variants="default", strong_hands=60)
    pd.testing.assert_frame_equal(atlas(**kw), atlas(**kw, scheduler="local", workers=2))


# --------------------------------------------------------------------------------------
# Roles: the luck of the seat from the role that varies
# --------------------------------------------------------------------------------------

#: What assigns each game's roles (the reference first): the rules pages.
ROLES = {"kap-tai-shap": ("rotation", "dice"), "big-two": ("cards",), "nine-ten": ("rotation",),
         "nantong": ("rotation",), "heaven-eleven": ("auction", "rotation")}


@pytest.mark.parametrize("name", sorted(ROLES))
def test_every_feed_declares_its_roles_and_its_rows_carry_them(name):
    feed = feed_of(name)
    assert tuple(r.assigned for r in feed.roles) == ROLES[name]
    assert feed.roles[0].name == feed.reference_seat and all(r.description for r in feed.roles)
    v = feed.variants[0]
    rows = feed.rows(AtlasJob(name, v, (feed.default_policy,) * v.players), plan_chunks(60, 60, 2)[0])
    for role in feed.roles[1:]:
        seats = np.asarray(rows[f"role_{role.name}"])
        assert seats.shape == (60,) and seats.min() >= 0 and seats.max() < v.players
    mom = feed.play(AtlasJob(name, v, (feed.default_policy,) * v.players), plan_chunks(60, 60, 2)[0])
    assert {f"role_{r.name}_z1" for r in feed.roles[1:]} <= set(mom)


def test_kts_first_hand_role_is_the_dice_and_agrees_with_the_fairness_module():
    """The first hand's EVs from the atlas's role block equal kaptai.kts.fairness's first-hand
    relative EVs on the same hands, and the role's seat counts are the engine's dice tallies."""
    from kaptai.kts.atlas import VARIANTS, variant_rules
    from kaptai.kts.fairness import hand_ev
    from kaptai.kts.simulate import CHUNK_HANDS, run_tallies

    feed = feed_of("kap-tai-shap")
    v = VARIANTS[1]
    total = None
    for c in plan_chunks(2 * CHUNK_HANDS, CHUNK_HANDS, 11):
        m = feed.play(AtlasJob("kap-tai-shap", v, ("greedy",) * 4), c)
        total = m if total is None else {k: total[k] + m[k] for k in m}
    stats, _, _ = run_tallies(4, variant_rules(v), 2 * CHUNK_HANDS, 11, policies=["greedy"] * 4, progress=False)
    r = hand_ev(stats, 4, variant_rules(v), "first_hand")
    role = RoleMoments(total, "first_hand")
    assert [role.ev(k)[0] for k in range(4)] == pytest.approx(list(r.ev.mean), abs=1e-12)
    assert (role.holder() * 2 * CHUNK_HANDS).tolist() == pytest.approx(stats["first_hand"].tolist())


def test_heaven_eleven_dealer_seat_is_the_engine_dealer():
    from kaptai.heaven11.atlas import VARIANTS, hand_rows, variant_config
    from kaptai.heaven11.engine import run_hands

    cfg = variant_config(VARIANTS[0])
    out, _ = run_hands(cfg, "greedy", np.random.PCG64(5), 200)
    r = hand_rows(out, cfg)
    assert np.array_equal((out["declarer"] + r["role_dealer"] * cfg.play_step) % 4, out["dealer"])


def test_role_rows_of_the_atlas(small):
    df = small
    roles = df[df.measure.str.startswith("role_")]
    assert set(roles.relative_to) == {"dealer"} and df.attrs["principal_roles"] == {FAST: "dealer"}
    after = roles[roles.measure == "role_luck_after_rotation"]
    assert (after.value == 0).all() and (after.method == "exact").all() and len(after) == 4
    for (_, v), part in df.groupby(["game", "variant"]):
        seat = part[part.measure == "seat_spread"].iloc[0]
        role = part[part.measure == "role_spread"].iloc[0]
        assert (seat.value, seat.ci_low, seat.ci_high) == pytest.approx((role.value, role.ci_low, role.ci_high))
        assert (part[part.measure.isin(["role_luck_share", "role_luck_after_rotation"])].unit
                == "share of swing").all()


def test_kts_rows_have_both_roles():
    df = atlas(games=["kap-tai-shap"], hands=1_000, seed=2, skill=False, variants="default", progress=False)
    roles = df[df.measure == "role_luck_after_rotation"].set_index("relative_to")
    assert roles.loc["dealer", "method"] == "exact" and roles.loc["dealer", "value"] == 0
    assert roles.loc["first_hand", "method"] == "monte_carlo" and roles.loc["first_hand", "ci_high"] > 0
    assert df.attrs["principal_roles"]["kap-tai-shap"] == "first_hand"
    assert principal_role(feed_of("kap-tai-shap").roles).name == "first_hand"
    assert sorted(df[(df.measure == "role_ev") & (df.relative_to == "first_hand")].seat) == [0, 1, 2, 3]


# --------------------------------------------------------------------------------------
# The verdict: a ranking with ties, and its reading
# --------------------------------------------------------------------------------------


def _synthetic():
    """Three games: intervals that overlap (a, b) and one clear of them (c); two roles in g1."""
    rows = []

    def add(game, measure, value, lo, hi, level=None, relative_to="dealer", method="monte_carlo"):
        rows.append({"game": game, "variant": "v", "players": 4, "measure": measure, "seat": None,
                     "relative_to": relative_to, "level": level, "value": value, "ci_low": lo, "ci_high": hi,
                     "exact": None, "unit": "", "hands": 100, "method": method})

    for g, (v, lo, hi) in {"a": (0.10, 0.05, 0.15), "b": (0.12, 0.08, 0.16), "c": (0.50, 0.40, 0.60)}.items():
        add(g, "seat_spread_swing_share", v, lo, hi)
        add(g, "value_of_skill_swing_share", v, lo, hi, level="default - random")
        add(g, "hands_until_skill_shows", 10 / v, 10 / hi, 10 / lo, level="default - random")
        add(g, "role_luck_share", v, lo, hi)
        add(g, "role_luck_after_rotation", 0.0, 0.0, 0.0, method="exact")
        add(g, "house_edge", 0.0 if g != "c" else 0.05, 0.0 if g != "c" else 0.05, 0.0 if g != "c" else 0.05)
    add("a", "role_luck_share", 0.9, 0.8, 1.0, relative_to="first_hand")            # a's role that varies
    add("a", "role_luck_after_rotation", 0.9, 0.8, 1.0, relative_to="first_hand")
    df = pd.DataFrame(rows, columns=ATLAS_COLUMNS)
    df.attrs["principal_roles"] = {"a": "first_hand", "b": "dealer", "c": "dealer"}
    return df


def test_ranking_ties_where_the_intervals_overlap():
    r = ranking(_synthetic())
    assert list(r.columns) == RANKING_COLUMNS and set(r.measure) <= set(RANKED)
    spread = r[r.measure == "seat_spread_swing_share"].set_index("game")
    assert spread["rank"].to_dict() == {"a": 1.0, "b": 1.0, "c": 3.0}          # two clearly ahead of c
    assert spread.tied_with.to_dict() == {"a": "b/v", "b": "a/v", "c": ""}
    assert (spread.better == "lower").all() and list(spread.index) == ["a", "b", "c"]
    skill = r[r.measure == "value_of_skill_swing_share"].set_index("game")
    assert skill["rank"].to_dict() == {"c": 1.0, "a": 2.0, "b": 2.0} and list(skill.index) == ["c", "b", "a"]
    assert (skill.level == "default - random").all() and (skill.better == "higher").all()
    # the role measures rank each game's role that varies: a's first hand (0.9), not its dealer
    luck = r[r.measure == "role_luck_share"].set_index("game")
    assert luck.level.to_dict() == {"b": "dealer", "c": "dealer", "a": "first_hand"}
    assert luck["rank"].to_dict() == {"b": 1.0, "c": 2.0, "a": 3.0} and list(luck.index) == ["b", "c", "a"]
    after = r[r.measure == "role_luck_after_rotation"].set_index("game")
    assert after["rank"].to_dict() == {"b": 1.0, "c": 1.0, "a": 3.0}           # exact zeros tie
    edge = r[r.measure == "house_edge"].set_index("game")
    assert edge["rank"].to_dict() == {"a": 1.0, "b": 1.0, "c": 3.0}


def test_the_verdict_names_the_computed_winners():
    df = _synthetic()
    text = verdict(df)
    assert text == verdict(ranking(df))
    assert "least in b/v (0.120 [0.0800, 0.160])" in text and "most in a/v (0.900 [0.800, 1.00])" in text
    assert "cancels it exactly in b/v and c/v" in text
    assert "worth most, in SDs of one hand, in c/v (0.500 [0.400, 0.600])" in text
    assert "soonest (95% sure to be ahead at one table) in c/v (20 hands [17, 25])" in text
    assert "A house takes a share only in c/v" in text and "most of the money that changes hands in c/v (5.00%)" in text
    # a different table, a different verdict: nothing is typed in
    df.loc[(df.game == "b") & (df.measure == "role_luck_share"), ["value", "ci_low", "ci_high"]] = [0.7, 0.65, 0.75]
    assert "least in c/v (0.500 [0.400, 0.600])" in verdict(df)


def test_ranking_and_verdict_of_a_real_atlas(small):
    r = ranking(small)
    assert set(r.game) == {FAST} and r["rank"].min() == 1
    skill = r[(r.measure == "value_of_skill_swing_share") & (r.level == "default - random")]
    best = skill[skill["rank"] == 1].iloc[0]
    text = verdict(r)
    assert f"{best.game}/{best.variant} ({best.value:.3g}" in text
    for m, lower in RANKED.items():
        part = r[(r.measure == m)]
        for lev in set(part.level):
            ranks = part[part.level == lev]["rank"]
            assert ranks.min() == 1 or ranks.isna().all()


def test_cli_ranking(capsys):
    argv = ["atlas", "--games", FAST, "--hands", "400", "--seed", "1", "--variants", "default", "--no-skill",
            "--ranking", "--no-progress"]
    assert main(argv + ["--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows and set(rows[0]) == set(RANKING_COLUMNS)
    assert {r["measure"] for r in rows} >= {"role_luck_share", "role_luck_after_rotation", "house_edge"}
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("# fairness atlas ranking") and "# Per hand, the luck of the seat" in out


def test_strong_hands_caps_the_strong_pairs_only():
    full = plan([FAST], 900, seed=1, variants="default")
    capped = plan([FAST], 900, seed=1, variants="default", strong_hands=48)
    heavy = [j for j in capped if j.heavy]
    assert heavy and sum(j.hands for j in heavy) == 48          # 12 arrangements of 4 hands
    assert [j.hands for j in capped if not j.heavy] == [j.hands for j in full if not j.heavy]
    assert sum(j.hands for j in full if j.heavy) == min(900, feed_of(FAST).strong_hands or 900)
    with pytest.raises(KaptaiError, match="strong_hands"):
        plan([FAST], 900, strong_hands=0)


# --------------------------------------------------------------------------------------
# Issue 32: deal groups, paired differences, rankings from them, the auction's seat luck, labels
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["kap-tai-shap", "big-two", "nine-ten", "nantong", "heaven-eleven"])
def test_the_variants_of_a_deal_group_play_the_same_deals(name):
    from kaptai.atlas import _groups

    feed = feed_of(name)
    groups = _groups(feed, feed.variants)
    assert any(len(g) > 1 for g in groups) and sum(len(g) for g in groups) == len(feed.variants)
    c0, c1 = plan_chunks(120, 60, 9)[:2]
    for g in groups:
        deals = [feed.rows(AtlasJob(name, v, (feed.default_policy,) * v.players), c0)["deal"] for v in g]
        for d in deals[1:]:
            assert np.array_equal(d, deals[0]), [v.name for v in g]
        other = feed.rows(AtlasJob(name, g[0], (feed.default_policy,) * g[0].players), c1)["deal"]
        assert not np.array_equal(other, deals[0])


def test_plan_groups_the_variants_and_seats_the_adaptive_bidders():
    from kaptai.atlas import deal_groups

    jobs = plan(["kap-tai-shap"], 600, seed=2, strong_hands=48)
    groups = [j for j in jobs if j.role == "group"]
    assert [tuple(v.name for v in j.group) for j in groups] == [("traditional", "advanced")]
    assert [j.job.variant.name for j in jobs if j.role == "default"] == ["kap_shap"]
    assert deal_groups("kap-tai-shap") == [("traditional", "advanced"), ("kap_shap",)]
    pairs = {}
    for j in jobs:
        if j.role == "pair":
            pairs.setdefault((j.pair, j.seats), {})[j.job.variant.name] = j.entropy
    for by in pairs.values():                     # the pair tables of a group share their seeds
        if "advanced" in by:
            assert by["traditional"] == by["advanced"] != by.get("kap_shap")
    h11 = plan(["heaven-eleven"], 9_000, seed=2, skill=False)
    seat = [j for j in h11 if j.role == "seat"]
    assert len(seat) == 1 and seat[0].bidding == "search" and seat[0].hands == feed_of("heaven-eleven").adaptive_hands
    assert seat[0].job.bidding == "search" and len(seat[0].group) == 3
    assert not [j for j in plan(["heaven-eleven"], 900, seed=2, skill=False, adaptive=False) if j.role == "seat"]
    assert all(j.role == "default" for j in plan(["heaven-eleven"], 900, seed=2, skill=False, shared=False,
                                                 adaptive=False))


def test_pairwise_differences_of_a_real_atlas():
    from kaptai.atlas import PAIRWISE_COLUMNS, pairwise

    df = atlas(games=["nantong"], hands=500, seed=4, skill=False, progress=False)
    assert df.attrs["deal_groups"]["nantong"] == [["rank_only", "winner_collects", "pairwise_difference"],
                                                  ["four_players"]]
    p = pairwise(df)
    assert list(p.columns) == PAIRWISE_COLUMNS and len(p)
    val = df[df.seat.isna()].set_index(["variant", "measure", "relative_to"])
    for r in p.itertuples():
        a = val.loc[(r.variant_a, r.measure, r.relative_to)]
        b = val.loc[(r.variant_b, r.measure, r.relative_to)]
        assert r.diff == pytest.approx(a.value - b.value, abs=1e-9)
        assert r.ci_low <= r.diff + 1e-12 <= r.ci_high + 2e-12
    shared = p[p.variant_b != "four_players"]
    assert shared.shared_deals.all() and set(shared.method) <= {"paired_delta", "exact"}
    apart = p[p.variant_b == "four_players"]
    assert not apart.shared_deals.any() and (apart.method == "independent").all()
    assert apart.note.str.contains("3 against 4 players").all()
    # the same deals, a settlement apart: the hands are the same, so the length differs by exactly 0
    same = shared[shared.measure == "mean_length"]
    assert (same[["diff", "ci_low", "ci_high"]].abs().to_numpy().max()) == 0.0


def test_value_of_skill_is_paired_across_the_variants_of_a_group(small):
    from kaptai.atlas import pairwise

    p = pairwise(small)
    v = p[(p.measure == "value_of_skill") & (p.level == "default - random")]
    grouped = v[(v.variant_a != "six_players") & (v.variant_b != "six_players")]
    assert len(grouped) == 3 and grouped.shared_deals.all() and (grouped.method == "paired_hands").all()
    assert not v[v.variant_b == "six_players"].shared_deals.any()


def _frame(rows, **attrs):
    df = pd.DataFrame([{"players": 4, "seat": None, "exact": None, "hands": 100, "method": "monte_carlo",
                        "label": None, "bidders": None, **r} for r in rows], columns=ATLAS_COLUMNS)
    df.attrs.update(attrs)
    return df


def test_the_ranking_comes_from_the_paired_difference():
    """Two variants whose intervals overlap: the paired difference tells them apart; the independent one cannot."""
    rows = [{"game": "nine-ten", "variant": v, "measure": "house_edge", "relative_to": "dealer", "level": None,
             "value": x, "ci_low": x - 0.02, "ci_high": x + 0.02, "unit": "probability"}
            for v, x in (("a", 0.10), ("b", 0.11))]
    paired = [{"game": "nine-ten", "variant_a": "a", "variant_b": "b", "measure": "house_edge", "level": None,
               "relative_to": "dealer", "diff": -0.01, "ci_low": -0.012, "ci_high": -0.008, "shared_deals": True}]
    r = ranking(_frame(rows, pairwise=paired)).set_index("variant")
    assert r["rank"].to_dict() == {"a": 1.0, "b": 2.0} and (r.basis == "paired differences").all()
    assert r.tied_with.to_dict() == {"a": "", "b": ""}
    r = ranking(_frame(rows, pairwise=[])).set_index("variant")
    assert r["rank"].to_dict() == {"a": 1.0, "b": 1.0} and (r.basis == "independent differences").all()
    assert r.tied_with.to_dict() == {"a": "nine-ten/b", "b": "nine-ten/a"}


def test_seat_luck_of_an_auction_role_needs_adaptive_bidders():
    def rows(adaptive):
        out = []
        for v, fixed, adapt in (("standard", 0.05, 0.60), ("symmetric", 0.50, 0.05)):
            out.append({"game": "heaven-eleven", "variant": v, "measure": "role_luck_share", "relative_to": "declarer",
                        "level": None, "value": fixed, "ci_low": fixed - 0.02, "ci_high": fixed + 0.02,
                        "unit": "share of swing", "bidders": "expected"})
            if adaptive:
                out.append({"game": "heaven-eleven", "variant": v, "measure": "role_luck_share",
                            "relative_to": "declarer", "level": "search bidders", "value": adapt,
                            "ci_low": adapt - 0.02, "ci_high": adapt + 0.02, "unit": "share of swing",
                            "bidders": "search"})
        return out

    def frame(adaptive):
        return _frame(rows(adaptive), pairwise=[], principal_roles={"heaven-eleven": "declarer"})

    r = ranking(frame(True)).set_index("variant")
    assert r["rank"].to_dict() == {"symmetric": 1.0, "standard": 2.0} and r.value.to_dict()["standard"] == 0.60
    assert r.note.str.contains("search bidders, which adapt to the scoring").all()
    assert "measured with bidders that adapt" in verdict(frame(True))
    r = ranking(frame(False)).set_index("variant")
    assert r["rank"].isna().all() and r.note.str.startswith("shown apart").all()
    assert "Shown apart, not ranked" in verdict(frame(False))


def test_every_label_says_which_pair_which_role_which_unit():
    from kaptai.atlas import label_of

    def lab(measure, level=None, unit="ante", relative_to="dealer", game="kap-tai-shap", variant="traditional"):
        return label_of({"game": game, "variant": variant, "measure": measure, "level": level, "unit": unit,
                         "relative_to": relative_to})

    assert lab("value_of_skill", "default - random") == "value of skill, default − random (greedy − random), ante per hand"
    assert "strongest − default (search − greedy)" in lab("value_of_skill_swing_share", "strong - default",
                                                          unit="share of swing")
    assert lab("seat_spread") == "seat spread, seats counted from the dealer (rotation), ante per hand"
    assert lab("role_luck_share", unit="share of swing", relative_to="first_hand") == \
        "luck of the seat from the first hand (dice), share of a hand's SD"
    assert lab("house_edge_staked", unit="share of stakes").startswith("house take, share of the money staked")
    assert lab("house_edge", unit="probability") == "house take, share of the money exchanged"
    assert "leader (cards), share of a hand's variance" in lab("role_luck_variance_share", unit="share of variance",
                                                               relative_to="leader", game="big-two",
                                                               variant="hong_kong")


def test_real_atlas_rows_have_labels_and_units_per_variant():
    df = atlas(games=["kap-tai-shap"], hands=300, seed=1, skill=False, progress=False)
    assert df.label.notna().all() and df.label.str.len().min() > 5
    ev = df[(df.measure == "seat_spread")].set_index("variant")
    assert ev.unit.to_dict() == {"traditional": "ante", "advanced": "point", "kap_shap": "ante"}
    staked = df[df.measure == "house_edge_staked"].set_index("variant").value
    edge = df[df.measure == "house_edge"].set_index("variant").value
    drawn = df[df.measure == "drawn_rate"].set_index("variant").value
    # the pot game: the house's cut per ante staked is (P - 1)/P of its cut per money exchanged, on the
    # hands someone wins (a drawn hand's antes are staked and refunded)
    assert staked["traditional"] == pytest.approx(edge["traditional"] * 3 / 4 * (1 - drawn["traditional"]), rel=1e-9)
    assert staked["kap_shap"] == pytest.approx(edge["kap_shap"] / 2 * (1 - drawn["kap_shap"]), rel=1e-9)


def test_cli_shared_and_adaptive_flags_reach_the_api(monkeypatch, capsys):
    import kaptai.atlas as A

    seen = []
    real = A.atlas

    def spy(*args, **kw):
        seen.append((kw["shared"], kw["adaptive"]))
        return real(*args, **kw)

    monkeypatch.setattr(A, "atlas", spy)
    base = ["atlas", "--games", FAST, "--hands", "300", "--seed", "1", "--no-skill", "--format", "json"]
    assert main(base) == 0
    shared = json.loads(capsys.readouterr().out)
    assert main(base + ["--no-shared-deals", "--no-adaptive-bidding"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert seen == [(True, True), (False, False)]
    # without shared deals the variants of nine-ten's deal group play their own deals: other numbers,
    # and the very table the API gives with shared=False
    key = lambda r: (r["variant"], r["measure"], r["seat"], r["relative_to"], r["level"])  # noqa: E731
    assert {key(r): r["value"] for r in shared} != {key(r): r["value"] for r in alone}
    api = real(games=[FAST], hands=300, seed=1, skill=False, progress=False, shared=False, adaptive=False)
    assert sorted(r["value"] for r in alone) == pytest.approx(sorted(api.value.tolist()), nan_ok=True)
    help_text = ""
    try:
        main(["atlas", "--help"])
    except SystemExit:
        help_text = capsys.readouterr().out
    assert "--no-shared-deals" in help_text and "--no-adaptive-bidding" in help_text


def test_cli_no_adaptive_bidding_drops_the_search_bidders_seat_table(capsys):
    from kaptai.atlas import ADAPTIVE_LEVEL

    argv = ["atlas", "--games", "heaven-eleven", "--hands", "60", "--seed", "1", "--variants", "default",
            "--no-skill", "--strong-hands", "12", "--format", "json", "--no-progress"]
    assert main(argv) == 0
    levels = {r["level"] for r in json.loads(capsys.readouterr().out)}
    assert ADAPTIVE_LEVEL in levels
    assert main(argv + ["--no-adaptive-bidding"]) == 0
    levels = {r["level"] for r in json.loads(capsys.readouterr().out)}
    assert ADAPTIVE_LEVEL not in levels


def test_checkpoint_refuses_chunks_of_other_players(tmp_path, monkeypatch):
    """The fingerprint records each game's built-in players' version (Big Two's POLICY_VERSION, as the
    league's checkpoints do): a checkpoint made by other players is refused, not resumed."""
    from kaptai.bigtwo import atlas as bigtwo_atlas

    kw = dict(games=["big-two"], hands=200, seed=5, progress=False, variants="default", skill=False)
    ck = tmp_path / "ck"
    atlas(**kw, checkpoint=ck)
    atlas(**kw, checkpoint=ck)   # the same players: resumed
    monkeypatch.setattr(bigtwo_atlas.deal_rows, "version", bigtwo_atlas.deal_rows.version + 1)
    with pytest.raises(CheckpointError, match="players_version"):
        atlas(**kw, checkpoint=ck)


def test_a_cell_without_an_interval_says_so():
    """An interval too few hands cannot give reads as such, never as ``[, ]``."""
    from kaptai.report.atlas import _cell
    nan = float("nan")
    row = pd.Series({"measure": "value_of_skill", "method": "monte_carlo", "value": 0.25,
                     "ci_low": nan, "ci_high": nan})
    assert _cell(row) == "0.250 [no interval]"
    assert _cell(pd.Series({**row, "ci_high": 0.5})) == "0.250 [n/a, 0.500]"
    assert _cell(row.where(row.index != "value", nan)) == ""


def test_games_at_a_glance_is_two_tables_that_share_out_every_measure(small):
    from kaptai.report.atlas import _SUMMARY, SUMMARY_PARTS, summary_table

    assert sorted(k for part in SUMMARY_PARTS.values() for k in part) == sorted(k for k, _ in _SUMMARY)
    whole = summary_table(small)
    luck, skill = summary_table(small, "money and luck"), summary_table(small, "skill and pace")
    ids = ["game", "variant", "players"]
    assert luck[ids].equals(whole[ids]) and skill[ids].equals(whole[ids])
    assert "role" in luck.columns and "role" not in skill.columns
    assert set(luck.columns) | set(skill.columns) == set(whole.columns)
    assert len(luck.columns) <= 12 and len(skill.columns) <= 12
    with pytest.raises(ValueError, match="expected one of"):
        summary_table(small, "luck")
