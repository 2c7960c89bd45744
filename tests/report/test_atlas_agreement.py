"""The game reports and the atlas agree where they measure the same thing (issue 24).

For every game the report's figure is taken from the report's own code path (its section
builder, or the function its builder calls) at a small size, and the atlas's figure of the
same thing is computed by the atlas's definitions (:func:`kaptai.core.atlas.table_measures`
on the game's feed rows, :attr:`kaptai.core.atlas.AtlasFeed.rows`) on the *same hands*: the
chunks and streams the report's run used (its seed, its chunk size), played by the feed with
the atlas's default policy.  Same hands, same definition: the figures must be equal (to
rounding), not merely close.  Each case also checks what makes them the same thing: the
report plays the atlas's default policy, counts seats from the atlas's reference seat and
splits a tie as the atlas does.
"""
from __future__ import annotations

import numpy as np
import pytest

from kaptai.atlas import feed_of
from kaptai.core.atlas import AtlasJob, AtlasVariant, moments_of_rows, table_measures
from kaptai.core.output import format_estimate
from kaptai.core.runner import plan_chunks

RUN = {"workers": 1, "scheduler": None, "checkpoint": None}


def _variant(game: str, name: str) -> AtlasVariant:
    return next(v for v in feed_of(game).variants if v.name == name)


def feed_rows(game: str, variant: str, hands: int, chunk_hands: int, seed) -> dict[str, np.ndarray]:
    """The feed's per-hand rows of the atlas's default table (every seat the feed's default
    policy) on the chunks ``plan_chunks(hands, chunk_hands, seed)``."""
    feed = feed_of(game)
    v = _variant(game, variant)
    job = AtlasJob(feed.game, v, (feed.default_policy,) * v.players)
    parts = [feed.rows(job, c) for c in plan_chunks(hands, chunk_hands, seed)]  # type: ignore[misc]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def atlas_figures(rows: dict[str, np.ndarray], sitting_out=()) -> dict[tuple, tuple[float, float, float]]:
    """``{(measure, seat): (value, ci_low, ci_high)}`` of the atlas's default-table measures."""
    return {(r["measure"], r["seat"]): (r["value"], r["ci_low"], r["ci_high"])
            for r in table_measures(moments_of_rows(rows), sitting_out=sitting_out)}


def _table(section, caption_start: str):
    found = [b[1] for b in section.blocks if b[0] == "table" and str(b[2]).startswith(caption_start)]
    assert len(found) == 1, f"no table {caption_start!r} in section {section.title!r}"
    return found[0]


def _same(got, want):
    assert tuple(float(x) for x in got) == pytest.approx(tuple(float(x) for x in want), rel=1e-9, abs=1e-12)


# ------------------------------------------------------------------------------------ Kap Tai Shap
def _first_hands(variant: AtlasVariant, hands: int, chunk_hands: int, seed) -> np.ndarray:
    """The first hand (先手, thrown by the dice) of each hand of those chunks: the seat of the
    hand's DICE event in the engine's log (the feed's own engine call, with the log kept)."""
    from kaptai.core.sampling import bit_generator
    from kaptai.kts.atlas import variant_rules
    from kaptai.kts.config import DICE, make_config
    from kaptai.kts.engine import run_hands
    from kaptai.kts.policies import resolve_policies

    cfg = make_config(variant.players, variant_rules(variant))
    pols = resolve_policies([feed_of("kap-tai-shap").default_policy] * cfg.players, cfg.players)
    first = []
    for c in plan_chunks(hands, chunk_hands, seed):
        _, log = run_hands(cfg, pols, bit_generator(c.seed), int(c.size), record=int(c.size), engine="compiled")
        dice = np.asarray(log)[np.asarray(log)[:, 4] == DICE]
        assert np.array_equal(dice[:, 0], np.arange(c.size))  # one throw a hand
        first.append(dice[:, 3].astype(np.int64))
    return np.concatenate(first)


def _from_first_hand(rows: dict[str, np.ndarray], first: np.ndarray) -> dict[str, np.ndarray]:
    """The rows with seat ``s`` the seat ``s`` places after the first hand (not after the dealer)."""
    P = rows["net"].shape[1]
    idx = (first[:, None] + np.arange(P)[None, :]) % P
    out = dict(rows)
    for k in ("net", "gross", "win"):
        out[k] = np.take_along_axis(rows[k], idx, axis=1)
    return out


def test_kap_tai_shap_fairness_ranking_is_the_atlas_spread_from_the_first_hand():
    from kaptai.kts.simulate import CHUNK_HANDS
    from kaptai.report.kts import _fairness_section

    hands = 2000
    sec, res = _fairness_section((4,), hands, 3, dict(RUN), False)
    comp = res["variants"]
    feed = feed_of("kap-tai-shap")
    assert comp.attrs["policies"] == [feed.default_policy] * 4
    shown = _table(sec, "Fairness ranking").set_index("variant")
    seed = comp.attrs["seed_entropy"]
    for report_variant, atlas_variant in (("basic form, pot", "traditional"), ("all forms, advanced", "advanced")):
        rows = feed_rows("kap-tai-shap", atlas_variant, hands, CHUNK_HANDS, seed)
        row = shown.loc[report_variant]
        # counted from the dealer: the atlas's seat 0
        _same((row["spread from the dealer"], row["dealer low"], row["dealer high"]),
              atlas_figures(rows)[("seat_spread", None)])
        # counted from the first hand: the same definition on the same hands, seats turned
        first = _first_hands(_variant("kap-tai-shap", atlas_variant), hands, CHUNK_HANDS, seed)
        if "role_first_hand" in rows:  # a feed that gives the first hand itself gives the same seats
            assert np.array_equal(np.asarray(rows["role_first_hand"], dtype=np.int64), first)
        fh = atlas_figures(_from_first_hand(rows, first))
        _same((row["spread from the first hand"], row["first-hand low"], row["first-hand high"]),
              fh[("seat_spread", None)])
        # and the report's first-hand EVs are those seats' EVs
        ev = comp[(comp.variant == report_variant) & (comp.metric == "ev_per_hand")
                  & (comp.relative_to == "first_hand")].sort_values("seat")
        for r in ev.itertuples():
            _same((r.value, r.ci_low, r.ci_high), fh[("seat_ev", int(r.seat))])
    # ranked by that one measure within each unit, the dealer's spread never averaged in
    for _, g in shown.reset_index().groupby("unit", sort=False):
        assert list(g["fairness rank"]) == list(range(1, len(g) + 1))
        assert g["spread from the first hand"].is_monotonic_increasing
    assert not np.allclose(shown["spread from the first hand"], shown["spread from the dealer"])


# ------------------------------------------------------------------------------------ Big Two
def test_big_two_seat_fairness_uses_the_atlas_policy_and_spread():
    from kaptai.bigtwo.simulate import CHUNK_HANDS
    from kaptai.report.bigtwo import _rules_effects_section, _scoring_section

    games = 1500
    feed = feed_of("big-two")
    sec, res = _scoring_section(games, 2, dict(RUN), False)
    sc = res["scoring"]
    assert sc.attrs["policies"] == [feed.default_policy] * 4
    shown = _table(sec, "EV per game by finish position").set_index("variant")
    for report_variant, atlas_variant in (("count standard, place", "hong_kong"),
                                          ("count standard, winner_takes_all", "winner_takes_all")):
        fig = atlas_figures(feed_rows("big-two", atlas_variant, games, CHUNK_HANDS, sc.attrs["seed_entropy"]))
        q = sc[(sc.variant == report_variant) & (sc.relative_to == "leader")]
        spread = q[q.metric == "ev_spread"].iloc[0]
        _same((spread.value, spread.ci_low, spread.ci_high), fig[("seat_spread", None)])
        for r in q[q.metric == "ev_per_hand"].itertuples():
            _same((r.value, r.ci_low, r.ci_high), fig[("seat_ev", int(r.seat))])
        v, lo, hi = fig[("seat_spread", None)]
        assert shown.loc[report_variant, "seat spread"] == format_estimate(v, lo, hi)
        assert shown.loc[report_variant, "seat spread 95% CI"] == f"{lo:.2f} to {hi:.2f}"
    # the rule-option rows play the default policy too, except 頂大 (greedy and heuristic never break it)
    _, eff = _rules_effects_section(300, 2, dict(RUN), False)
    for name, df in eff["rules_effects"].items():
        want = "random" if name == "top_rule" else feed.default_policy
        assert set(df.attrs["policies"]) == {want}, name


# ------------------------------------------------------------------------------------ Nantong
@pytest.mark.parametrize("players, variant", [(3, "rank_only"), (4, "four_players")])
def test_nantong_hand_win_is_a_share_split_on_ties_as_in_the_atlas(players, variant):
    from kaptai.nantong.engine import CHUNK_HANDS
    from kaptai.report.nantong import WIN_SHARE_METRIC, simulate_with_noncompleters

    hands = 3000
    df = simulate_with_noncompleters(players, hands, 4, progress=False)
    feed = feed_of("nantong")
    assert df.attrs["policies"] == [feed.default_policy] * 3
    rows = feed_rows("nantong", variant, hands, CHUNK_HANDS, df.attrs["seed_entropy"])
    assert ((rows["win"] > 0) & (rows["win"] < 1)).any()  # ties happen: the rule matters at this size
    fig = atlas_figures(rows, sitting_out=feed.sitting_out(_variant("nantong", variant)))  # type: ignore[misc]
    share = df[(df.metric == WIN_SHARE_METRIC) & (df.relative_to == "seat")].sort_values("seat")
    assert list(share.seat) == [0, 1, 2]
    np.testing.assert_allclose(share.value, rows["win"][:, :3].mean(axis=0), rtol=1e-12)
    for r in share.itertuples():
        # rank_only: a seat's point is its share of the hand win, the atlas's seat EV
        _same((r.value, r.ci_low, r.ci_high), fig[("seat_ev", int(r.seat))])
    dealer = df[(df.metric == WIN_SHARE_METRIC) & (df.relative_to == "role") & (df.level == "dealer")].iloc[0]
    _same((dealer.value, dealer.ci_low, dealer.ci_high), fig[("seat_ev", 0)])
    other = df[(df.metric == WIN_SHARE_METRIC) & (df.relative_to == "role") & (df.level == "other")].iloc[0]
    assert other.value == pytest.approx(rows["win"][:, 1:3].mean())
    assert not (df.metric == "hand_win").any()  # no figure counts a tie as a win for every tied player


# ------------------------------------------------------------------------------------ nine-ten
def test_nine_ten_seats_in_tou_and_the_spread_are_the_atlas_figures():
    from kaptai.nineten.simulate import CHUNK_HANDS
    from kaptai.report.nineten import build_sections

    hands = 1500
    _, sections, _, res = build_sections((4,), hands=hands, seed=1, progress=False)
    sim = res["simulate"][4]
    assert sim.attrs["policies"] == [feed_of("nine-ten").default_policy] * 4
    fig = atlas_figures(feed_rows("nine-ten", "taiwan", hands, CHUNK_HANDS, sim.attrs["seed_entropy"]))
    who = next(s for s in sections if s.title.startswith("Who wins"))
    shown = _table(who, "Mean net per hand by seat from the dealer")
    for r in shown.to_dict("records"):
        key = ("seat_spread", None) if r["seat"] == "spread" else ("seat_ev", int(r["seat"]))
        _same((r["net 頭"], r["頭 low"], r["頭 high"]), fig[key])
    v, lo, hi = fig[("seat_spread", None)]
    assert any(f"spread by {v:.3f} 頭 (95% interval {lo:.3f} to {hi:.3f})" in line for line in res["summary"])


# ------------------------------------------------------------------------------------ Heaven Eleven
def test_heaven_eleven_seats_and_spreads_are_the_atlas_figures():
    from kaptai.heaven11.simulate import CHUNK_HANDS
    from kaptai.report.heaven11 import _bidding_section, _simulation_section

    hands = 1500
    feed = feed_of("heaven-eleven")
    sec, res = _simulation_section(hands, 3, dict(RUN), False)
    sim = res["simulation"]
    assert sim.attrs["policies"] == [feed.default_policy] * 4 and sim.attrs["bidding"] == ["expected"] * 4
    fig = atlas_figures(feed_rows("heaven-eleven", "standard", hands, CHUNK_HANDS, sim.attrs["seed_entropy"]))
    for s in range(4):
        r = sim[(sim.metric == "final_mean") & (sim.seat == s) & (sim.relative_to == "declarer")].iloc[0]
        _same((r.value, r.ci_low, r.ci_high), fig[("seat_ev", s)])
    _same(res["seat_spread"], fig[("seat_spread", None)])
    shown = _table(sec, "Mean final score by seat").set_index("seat")
    v, lo, hi = fig[("seat_spread", None)]
    assert shown.loc["seat spread (max - min)", "95% CI"] == f"{lo:.2f} to {hi:.2f}"
    # the bidding section's fixed-table rows: the atlas's default tables of both scorings, same hands
    bsec, bres = _bidding_section(2500, 3, False)
    b, t = bres["bidding"], bres["bidding_table"]
    n = int(b.hands.iloc[0])
    for rules, variant in (("as_written", "standard"), ("symmetric", "symmetric")):
        fig = atlas_figures(feed_rows("heaven-eleven", variant, n, 500, b.attrs["seed_entropy"]))
        row = t[(t.rules == rules) & (t.bidders == "expected x4")].iloc[0]
        v, lo, hi = fig[("seat_spread", None)]
        assert row["seat spread"] == pytest.approx(v) and row["95% CI "] == f"{lo:.2f} to {hi:.2f}"
