"""The Nantong atlas feed (kaptai/nantong/atlas.py): rows, agreement with simulate/fairness, chunks."""

import math
from types import SimpleNamespace

import numpy as np
import pytest

from kaptai.core.atlas import AtlasJob, AtlasVariant, Moments, hand_moments, table_measures
from kaptai.core.runner import plan_chunks
from kaptai.core.sampling import bit_generator
from kaptai.errors import KaptaiError
from kaptai.games import load_entry
from kaptai.nantong.atlas import FEED, VARIANTS, decisive, hand_rows, play, variant_config
from kaptai.nantong.commands import SPEC
from kaptai.nantong.config import seat_players
from kaptai.nantong.engine import CHUNK_HANDS, run_hands
from kaptai.nantong.fairness import CHUNK_MATCHES
from kaptai.nantong.fairness import fairness as run_fairness
from kaptai.nantong.simulate import simulate

HANDS = 1500


def _job(variant, pols=None):
    return AtlasJob("nantong", variant, tuple(pols or (FEED.default_policy,) * variant.players))


def test_registry_and_contract():
    feed = load_entry(SPEC.atlas)
    assert feed is FEED and feed.game == SPEC.name == "nantong"
    assert 2 <= len(feed.variants) <= 4 and feed.variants[0].rules == "nantong"
    assert feed.variants[0].players == SPEC.default_players
    for pol in (feed.default_policy, feed.strong_policy, feed.random_policy):
        assert pol in SPEC.policies
    with pytest.raises(KaptaiError, match="greedy"):
        play(_job(VARIANTS[0], ("greedy", "max_melds", "max_melds")), plan_chunks(5, 5, 1)[0])


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_per_hand_identities(variant):
    cfg = variant_config(variant)
    out = run_hands(cfg, 400, policies="max_melds", bit_generator=np.random.PCG64(3))
    r = hand_rows(out, cfg)
    net = r["net"]
    if cfg.rules.settlement == "rank_only":
        np.testing.assert_allclose(net.sum(axis=1), 1.0)
        np.testing.assert_allclose(r["staked"], 1.0)
    else:
        np.testing.assert_allclose(net.sum(axis=1), 0.0, atol=1e-9)
        np.testing.assert_allclose(r["staked"], np.maximum(net, 0).sum(axis=1))
    if cfg.players > cfg.active:
        assert (net[:, cfg.active:] == 0).all()  # the sitter scores 0
    mom = play(_job(variant), plan_chunks(300, 300, 2)[0])
    m = Moments(mom)
    assert m.mean("house") == 0.0
    edge = [x for x in table_measures(mom) if x["measure"] == "house_edge"][0]
    assert edge["value"] == 0.0


def test_agrees_with_simulate_on_the_same_stream():
    hands, seed = 2000, 8
    assert hands <= CHUNK_HANDS  # one chunk: simulate reads plan_chunks(hands, CHUNK_HANDS, seed)[0]
    c = plan_chunks(hands, CHUNK_HANDS, seed)[0]
    df = simulate(3, "nantong", hands=hands, seed=seed, progress=False)

    def get(metric, seat=None, rel=None):
        d = df[df.metric == metric]
        if seat is not None:
            d = d[(d.seat == seat) & (d.relative_to == rel)]
        return float(d.value.iloc[0])

    m = Moments(play(_job(VARIANTS[0]), c))
    assert m.mean("drawn") == pytest.approx(get("huang_rate"), abs=1e-15)
    assert m.mean("length") == pytest.approx(get("discards_mean"), rel=1e-12)
    tian = df[(df.metric == "win_type") & (df.level == "tiancheng")].value.iloc[0]
    assert m.mean("natural") == pytest.approx(float(tian), abs=1e-15)
    out = run_hands(variant_config(VARIANTS[0]), hands, policies="max_melds", bit_generator=bit_generator(c.seed))
    w = out["winner"].astype(np.float64)
    share = w * (1 - 1 / w.sum(axis=1, keepdims=True))  # what a tie takes off a winner's point
    for s in range(3):
        assert w[:, s].mean() == pytest.approx(get("hand_win", s, "seat"), abs=1e-15)
        assert m.mean(f"net_{s}") == pytest.approx(get("hand_win", s, "seat") - share[:, s].mean(), abs=1e-12)
    # pairwise_difference is linear in the totals: E[net_s] = 3 E[t_s] - sum E[t]
    pw = Moments(play(_job(VARIANTS[2]), c))
    hu = np.array([get("hu_mean", s, "seat") for s in range(3)])
    np.testing.assert_allclose([pw.mean(f"net_{s}") for s in range(3)], 3 * hu - hu.sum(), rtol=1e-9, atol=1e-9)


def test_agrees_with_fairness_match_totals():
    # fairness plays CHUNK_MATCHES x 24 hands per chunk: the same stream as one atlas chunk of that many hands
    matches, seed = 20, 3
    cfg = variant_config(VARIANTS[1])
    H = seat_players(cfg).shape[0]
    c = plan_chunks(matches, CHUNK_MATCHES, seed)[0]
    mom = play(_job(VARIANTS[1]), SimpleNamespace(seed=c.seed, size=c.size * H))
    m = Moments(mom)
    df = run_fairness(3, cfg.rules, matches, seed, progress=False)
    d = df[(df.metric == "match_mean") & (df.settlement == "winner_collects")]
    # every player holds each seat 8 times a match, so a player's mean total is H/3 x the seats' EVs summed
    # over the schedule; the sum over players is H x the sum of the seat EVs (0), and each player's total
    # is the sum over its seats
    assert d.value.sum() == pytest.approx(0.0, abs=1e-6)
    sched = seat_players(cfg)
    out = run_hands(cfg, c.size * H, policies="max_melds", bit_generator=bit_generator(c.seed))
    nets = hand_rows(out, cfg)["net"].reshape(c.size, H, 3)
    tot = np.zeros((c.size, 3))
    for s in range(3):
        np.add.at(tot, (slice(None), sched[:, s]), nets[:, :, s])
    np.testing.assert_allclose(tot.mean(axis=0), d.sort_values("seat").value, rtol=1e-9)
    np.testing.assert_allclose(nets.reshape(-1, 3).mean(axis=0), [m.mean(f"net_{s}") for s in range(3)])


def test_natural_rate_agrees_with_decisive():
    label, p = decisive(VARIANTS[0])
    assert "天成" in label and 0 < p < 1e-4
    m = Moments(play(_job(VARIANTS[0]), plan_chunks(HANDS, HANDS, 4)[0]))
    se = math.sqrt(float(p) * (1 - float(p)) / HANDS)
    assert abs(m.mean("natural") - float(p)) < 4 * se


def test_policies_sit_at_their_seats():
    base = Moments(play(_job(VARIANTS[0]), plan_chunks(HANDS, HANDS, 6)[0]))
    weak = Moments(play(_job(VARIANTS[0], ("max_melds", "random", "max_melds")), plan_chunks(HANDS, HANDS, 6)[0]))
    se = math.sqrt(base.cov[1, 1] / base.n)
    assert weak.mean("net_1") < base.mean("net_1") - 6 * se
    assert weak.mean("net_0") > base.mean("net_0")


def test_reproducible_and_additive():
    job = _job(VARIANTS[3], ("max_melds", "chase_qing", "random", "random"))
    c0, c1 = plan_chunks(600, 300, 12)
    a, b = play(job, c0), play(job, c0)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    both = {k: a[k] + play(job, c1)[k] for k in a}
    cfg = variant_config(job.variant)
    rows = [hand_rows(run_hands(cfg, c.size, policies=list(job.policies[:3]), bit_generator=bit_generator(c.seed)),
                      cfg) for c in (c0, c1)]
    cat = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    ref = hand_moments(cat["net"], gross=cat["net"], staked=cat["staked"], length=cat["length"],
                       drawn=cat["drawn"], natural=cat["natural"])
    assert both["n"][0] == 600
    np.testing.assert_allclose(both["z1"], ref["z1"], rtol=1e-12)
    np.testing.assert_allclose(both["z2"], ref["z2"], rtol=1e-12)


def test_with_dealer_sitter_shares():
    v = AtlasVariant("dreamer", (("dreamer_shares", "with_dealer"),), 4)
    cfg = variant_config(v)
    r = hand_rows(run_hands(cfg, 100, policies="max_melds", bit_generator=np.random.PCG64(1)), cfg)
    np.testing.assert_array_equal(r["net"][:, 3], r["net"][:, 0])
