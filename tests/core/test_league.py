"""The duplicate league (:mod:`kaptai.core.league`): deals replayed under every arrangement,
intervals clustered by deal, paired differences, cross-play, resume.

A synthetic feed (known answer) checks the statistics exactly; every game's feed is checked to
deal the same cards in every arrangement (the engines' own deal log, or for Nantong the dealt
qishou and a recording policy's first hand).
"""

from __future__ import annotations

import math
import zlib

import numpy as np
import pandas as pd
import pytest

from kaptai.core.atlas import AtlasFeed, AtlasVariant
from kaptai.core.league import (
    LeagueGame,
    cross_play,
    deal_seeds,
    league_differences,
    plot_cross,
    policy_league,
)
from kaptai.core.runner import plan_chunks
from kaptai.errors import RulesError

# --------------------------------------------------------------------------------------
# A synthetic game: deal luck L_s (the same in every arrangement) plus each policy's skill
# --------------------------------------------------------------------------------------

SKILL = {"a": 0.0, "b": 0.3, "c": -0.5, "random": -1.0}


class _Rules:
    name = "toy"

    def to_dict(self):
        return {"name": "toy"}


def _resolve(rules=None, **_):
    return _Rules()


def toy_deal_rows(variant, arrangements, chunk, noise: float = 0.2):
    """Seat ``s`` of deal ``i`` nets ``3 L_s + skill(policy) - mean skill + noise``: zero-sum, the
    deal luck ``L`` from the deal's own seed, the noise from the arrangement (policy draws)."""
    P = variant.players
    luck = np.array([np.random.default_rng(s).normal(size=P) for s in deal_seeds(chunk)])
    luck -= luck.mean(axis=1, keepdims=True)
    out = []
    for arr in arrangements:
        sk = np.array([SKILL[p] for p in arr])
        # the policies' own draws: another stream for each arrangement (keyed by the arrangement
        # itself and where the chunk starts, not by its place in the call: the league batches the
        # arrangements of a chunk's deals as their costs fit)
        code = zlib.crc32("|".join(arr).encode())
        eps = np.random.default_rng([int(chunk.start), code, 7]).normal(scale=noise, size=luck.shape)
        eps -= eps.mean(axis=1, keepdims=True)
        net = 3 * luck + (sk - sk.mean())[None, :] + eps
        win = (net == net.max(axis=1, keepdims=True)).astype(float)
        out.append({"net": net, "win": win})
    return out


def _toy_play(job, chunk):  # pragma: no cover - the atlas is not played here
    raise AssertionError


TOY = LeagueGame("toy", AtlasFeed("toy", (AtlasVariant("toy", "toy", 3),), "seat 0", "unit", "a", "b", 64, _toy_play,
                                  deal_rows=toy_deal_rows), (2, 4), 3, ("a", "b", "c", "random"), _resolve)


@pytest.fixture(scope="module")
def toy():
    return policy_league(TOY, hands=3000, seed=5, progress=False)


def _v(df, pol, metric):
    sel = df[(df.policy == pol) & (df.metric == metric)]
    assert len(sel) == 1
    return sel.iloc[0]


def test_paired_difference_is_the_difference_of_the_means(toy):
    d = league_differences(toy)
    for row in d.itertuples():
        ev = _v(toy, row.policy, "ev_per_hand").value - _v(toy, row.other, "ev_per_hand").value
        assert math.isclose(row.value, ev, abs_tol=1e-12)
    # antisymmetric, one row per ordered pair
    assert len(d) == 4 * 3
    for row in d.itertuples():
        back = d[(d.policy == row.other) & (d.other == row.policy)].iloc[0]
        assert math.isclose(back.value, -row.value, abs_tol=1e-12) and math.isclose(back.ci_low, -row.ci_high)


def test_known_answer_and_intervals_clustered_by_deal(toy):
    """X at one seat against a field of 'a' at the two others: X's net is 2/3 (skill_X - skill_a)
    per hand whatever the deal; the deal luck (SD 3) cancels over the seats of a deal, so the
    paired interval is far narrower than the independent-deals one (variance_ratio large) and
    holds the true value."""
    d = league_differences(toy)
    for x in ("b", "c", "random"):
        row = d[(d.policy == x) & (d.other == "a")].iloc[0]
        truth = 2 / 3 * (SKILL[x] - SKILL["a"])
        assert row.ci_low < truth < row.ci_high
        assert row.ci_high - row.ci_low < 0.05
        assert row.variance_ratio > 50
    ev = _v(toy, "a", "ev_per_hand")
    assert max(abs(ev.value), abs(ev.ci_low), abs(ev.ci_high)) < 1e-12  # the field against itself, zero-sum


def test_interval_is_the_deal_clustered_normal_interval():
    """The interval is computed from the per-deal values (n = deals), recomputed by hand."""
    df = policy_league(TOY, hands=300, seed=2, progress=False, policies=("a", "b"))
    rows = toy_deal_rows(AtlasVariant("toy", _Rules(), 3), [("b", "a", "a"), ("a", "b", "a"), ("a", "a", "b")],
                         plan_chunks(100, 100, 0)[0])
    assert rows[0]["net"].shape == (100, 3)
    row = _v(df, "b", "vs_best_other")
    assert row.hands == 300
    half = (row.ci_high - row.ci_low) / 2
    assert 0 < half < 0.2


def test_win_share_never_above_its_range(toy):
    for pol in ("a", "b", "c", "random"):
        w, s = _v(toy, pol, "win"), _v(toy, pol, "win_share")
        assert 0 <= w.ci_low <= w.value <= w.ci_high <= 1
        assert s.ci_high <= 3 + 1e-12
    base = _v(toy, "a", "win_share")  # the field's seat average: at most one winner a hand
    assert base.ci_high <= 1 + 1e-12


def test_cross_play_shape_and_symmetry():
    t = cross_play(TOY, players=(3, 4), hands=400, seed=3, progress=False, policies=("a", "b", "c"))
    assert list(t.columns[:6]) == ["game", "rules", "players", "policy", "field", "seats"]
    three, four = t[t.players == 3], t[t.players == 4]
    assert len(three) == 6 and set(three.seats) == {1}
    assert len(four) == 12 and set(four.seats) == {1, 2}
    # two against two: the same arrangements seen from either side, exactly antisymmetric
    two = four[four.seats == 2]
    for row in two.itertuples():
        back = two[(two.policy == row.field) & (two.field == row.policy)].iloc[0]
        assert math.isclose(back.diff_vs_field, -row.diff_vs_field, abs_tol=1e-12)
        assert math.isclose(back.diff_ci_high, -row.diff_ci_low, abs_tol=1e-12)
    # one seat of b against a field of a: the known skill difference
    row = three[(three.policy == "b") & (three.field == "a")].iloc[0]
    assert row.diff_ci_low < SKILL["b"] - SKILL["a"] < row.diff_ci_high
    assert (t.diff_ci_low <= t.diff_vs_field).all() and (t.diff_vs_field <= t.diff_ci_high).all()


def test_cross_play_challenger_rows():
    """``challengers`` / ``seats`` play only those cells, each measuring the known difference."""
    part = cross_play(TOY, players=4, hands=800, seed=5, progress=False, policies=("a", "b", "c"),
                      challengers="b", seats=1)
    assert part[["policy", "field", "seats"]].values.tolist() == [["b", "a", 1], ["b", "c", 1]]
    for row in part.itertuples():
        # the toy nets skill minus the table's mean skill: b's seat minus a field seat is skill(b) - skill(f)
        assert row.diff_ci_low < SKILL["b"] - SKILL[row.field] < row.diff_ci_high
        # in the field policy's place at a table of 4: b nets skill(b) - mean skill, where f netted 0
        assert row.replaced_ci_low < 0.75 * (SKILL["b"] - SKILL[row.field]) < row.replaced_ci_high
        # the toy is zero-sum: the field alone sums to 0 over the seats, so with the policy at every seat in
        # turn vs_replaced is its own net, (P - 1) / P of diff_vs_field
        assert math.isclose(row.vs_replaced, 0.75 * row.diff_vs_field, rel_tol=1e-9)
    assert part.attrs["settings"]["challengers"] == ["b"]
    with pytest.raises(RulesError, match="challenger 'z'"):
        cross_play(TOY, hands=10, progress=False, policies=("a", "b"), challengers="z")
    with pytest.raises(RulesError, match="seats=3"):
        cross_play(TOY, hands=10, progress=False, policies=("a", "b"), seats=3)


def test_plot_cross(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    t = cross_play(TOY, hands=90, seed=3, progress=False, policies=("a", "b"))
    fig = plot_cross(t, tmp_path / "cross.png")
    assert (tmp_path / "cross.png").stat().st_size > 0 and fig is not None


def test_resume_after_interrupt_gives_the_same_table(tmp_path, monkeypatch):
    """Stop a checkpointed run after a few chunks, resume it: the same table as one run."""
    full = policy_league(TOY, hands=600, seed=9, progress=False, policies=("a", "b"))
    calls = {"n": 0}
    import kaptai.core.league as lg

    real = lg._deal_chunk

    def stopping(task):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(lg, "_deal_chunk", stopping)
    with pytest.raises(KeyboardInterrupt):
        policy_league(TOY, hands=600, seed=9, progress=False, policies=("a", "b"), checkpoint=tmp_path / "ck")
    monkeypatch.setattr(lg, "_deal_chunk", real)
    again = policy_league(TOY, hands=600, seed=9, progress=False, policies=("a", "b"), checkpoint=tmp_path / "ck")
    pd.testing.assert_frame_equal(full, again)
    assert full.attrs["differences"] == again.attrs["differences"]


def test_core_takes_the_game_not_a_name():
    with pytest.raises(RulesError, match="kaptai.league.policy_league"):
        policy_league("nine-ten", hands=10)


# --------------------------------------------------------------------------------------
# Every game deals the same cards in every arrangement
# --------------------------------------------------------------------------------------


def _arrangements(policies, P):
    a = [tuple([policies[0]] * P), tuple([policies[1]] * P)]
    a.append(tuple(policies[j % len(policies)] for j in range(P)))
    return a


@pytest.mark.parametrize("mod,pols", [
    ("kaptai.bigtwo.atlas", ("greedy", "random", "heuristic", "search")),
    ("kaptai.nineten.atlas", ("colour_cut", "random", "live_first", "search")),
    ("kaptai.heaven11.atlas", ("greedy", "random", "rollout", "search")),
    ("kaptai.kts.atlas", ("greedy", "random", "lookahead", "search")),
])
def test_the_deal_is_the_same_in_every_arrangement(mod, pols):
    import importlib

    m = importlib.import_module(mod)
    v = m.FEED.variants[0]
    chunk = plan_chunks(6, 6, 11)[0]
    outs = m.deal_rows(v, _arrangements(pols, v.players), chunk, log=True)
    digests = [o["deal"] for o in outs]
    assert len(set(digests[0].tolist())) == 6  # six different deals
    for d in digests[1:]:
        assert np.array_equal(d, digests[0])
    nets = [o["net"] for o in outs]
    assert any(not np.array_equal(nets[0], n) for n in nets[1:])  # the play differs
    other = m.deal_rows(v, _arrangements(pols, v.players)[:1], plan_chunks(6, 6, 12)[0], log=True)[0]["deal"]
    assert not np.array_equal(other, digests[0])  # another seed, other deals


def test_nantong_deals_the_same_wall_in_every_arrangement():
    """Nantong's engine keeps no log: a recording policy at the dealer's seat sees the same 23
    dealt cards whoever sits elsewhere, and the dealt qishou of every seat agree."""
    from kaptai.nantong.atlas import FEED, deal_rows
    from kaptai.nantong.policies import Policy

    v = FEED.variants[0]
    chunk = plan_chunks(5, 5, 3)[0]
    outs = deal_rows(v, [("max_melds",) * 3, ("random",) * 3, ("chase_hun", "chase_qing", "random")], chunk)
    for o in outs[1:]:
        assert np.array_equal(o["dealt_qishou"], outs[0]["dealt_qishou"])
    # the dealer's first view (no draw before it) is the dealt hand, whatever the others play
    hands = []
    for others in (("max_melds", "max_melds"), ("random", "chase_hun")):
        seen = []

        class First(Policy):
            def discard(self, view, _seen=seen):
                if view.seat == 0 and len(_seen) == 0:
                    _seen.append(tuple(view.hand))
                return super().discard(view)

        deal_rows(v, [(First(), *others)], plan_chunks(1, 1, 3)[0])
        hands.append(seen[0])
    assert hands[0] == hands[1] and sum(hands[0]) == 23
