"""The nine-ten atlas feed (kaptai/nineten/atlas.py): rows, agreement with simulate, chunks."""

import math

import numpy as np
import pytest

from kaptai.core.atlas import AtlasJob, Moments, hand_moments, table_measures
from kaptai.core.runner import plan_chunks
from kaptai.core.sampling import bit_generator
from kaptai.games import load_entry
from kaptai.nineten.atlas import FEED, VARIANTS, _play_out, decisive, hand_rows, play, variant_config
from kaptai.nineten.commands import SPEC
from kaptai.nineten.config import ACTIONS, make_config
from kaptai.nineten.engine import run_hands
from kaptai.nineten.simulate import CHUNK_HANDS, run_tallies, simulate


def _job(variant, pols=None):
    return AtlasJob("nine-ten", variant, tuple(pols or (FEED.default_policy,) * variant.players))


def _moments(job, hands, seed, size=CHUNK_HANDS):
    tot = None
    for c in plan_chunks(hands, size, seed):
        m = play(job, c)
        tot = m if tot is None else {k: tot[k] + m[k] for k in m}
    return tot


def test_registry_and_contract():
    feed = load_entry(SPEC.atlas)
    assert feed is FEED and feed.game == SPEC.name == "nine-ten"
    assert 2 <= len(feed.variants) <= 4 and feed.variants[0].rules == "taiwan"
    assert feed.variants[0].players == SPEC.default_players
    assert len({v.name for v in feed.variants}) == len(feed.variants)
    for pol in (feed.default_policy, feed.strong_policy, feed.random_policy):
        assert pol in SPEC.policies
    assert feed.reference_seat == "dealer"


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_per_hand_identities(variant):
    cfg = variant_config(variant)
    out, _ = run_hands(cfg, 3000, np.random.PCG64(11), "colour_cut")
    r = hand_rows(out, cfg.players)
    assert np.array_equal(r["net"].sum(axis=1), np.zeros(3000))  # no cut: nets sum to 0
    np.testing.assert_array_equal(r["staked"], np.maximum(r["net"], 0).sum(axis=1))
    assert ((r["drawn"] == 1) == (out["winner"] < 0)).all()
    assert (r["staked"][r["drawn"] == 1] == 0).all()
    m = Moments(play(_job(variant), plan_chunks(2000, 2000, 3)[0]))
    assert m.mean("house") == 0.0  # exactly
    edge = [x for x in table_measures(play(_job(variant), plan_chunks(2000, 2000, 3)[0]))
            if x["measure"] == "house_edge"][0]
    assert edge["value"] == 0.0


def test_length_counts_discards_and_flips():
    out, log = run_hands(make_config(5), 400, np.random.PCG64(2), "colour_cut", record=400)
    r = hand_rows(out, 5)
    act = log[:, 3]
    sel = (act == ACTIONS.index("discard")) | (act == ACTIONS.index("flip"))
    np.testing.assert_array_equal(np.bincount(log[sel, 0], minlength=400), r["length"])


def test_agrees_with_simulate_on_the_same_stream():
    hands, seed = 2 * CHUNK_HANDS, 7
    m = Moments(_moments(_job(VARIANTS[0]), hands, seed))
    df = simulate(4, "taiwan", hands=hands, seed=seed, progress=False)
    net = df[(df.metric == "net_tou_mean") & (df.relative_to == "dealer")].sort_values("seat")
    np.testing.assert_allclose([m.mean(f"net_{s}") for s in range(4)], net.value, rtol=0, atol=1e-12)
    drawn = df[df.metric == "drawn_rate"].value.iloc[0]
    natural = df[df.metric == "natural_rate"].value.iloc[0]
    assert m.mean("drawn") == pytest.approx(drawn, abs=1e-15)
    assert m.mean("natural") == pytest.approx(natural, abs=1e-15)
    t, _, _ = run_tallies(4, "taiwan", hands, seed, progress=False)
    assert m.mean("length") == pytest.approx(
        (hands + t["claims"][0] + t["flips"][0] - t["outcome"][1:].sum()) / hands)


def test_mixed_table_seats_the_policy_at_its_dealer_relative_seat():
    v = VARIANTS[0]
    base = Moments(play(_job(v), plan_chunks(20_000, 20_000, 4)[0]))
    weak = Moments(play(_job(v, ("random", "colour_cut", "colour_cut", "colour_cut")),
                        plan_chunks(20_000, 20_000, 4)[0]))
    late = Moments(play(_job(v, ("colour_cut", "colour_cut", "colour_cut", "random")),
                        plan_chunks(20_000, 20_000, 4)[0]))
    se = 2 * math.sqrt(base.cov[0, 0] / base.n)
    assert weak.mean("net_0") < base.mean("net_0") - 4 * se   # the random dealer loses
    assert late.mean("net_3") < base.mean("net_3") - 4 * se   # the random last seat loses
    assert abs(late.mean("net_0") - base.mean("net_0")) < 0.5 * abs(weak.mean("net_0") - base.mean("net_0"))
    out = _play_out(variant_config(v), ["random", "colour_cut", "colour_cut", "colour_cut"], 1001,
                    np.random.PCG64(1))
    assert len(out["dealer"]) == 1001 and np.bincount(out["dealer"]).tolist() == [251, 250, 250, 250]


def test_rotated_policy_agrees_with_simulate_by_policy():
    hands = 12_000
    ev = np.mean([Moments(play(_job(VARIANTS[0], ["colour_cut"] * s + ["random"] + ["colour_cut"] * (3 - s)),
                               plan_chunks(hands, hands, 20 + s)[0])).mean(f"net_{s}") for s in range(4)])
    df = simulate(4, "taiwan", hands=4 * hands, seed=9, policies=["random"] + ["colour_cut"] * 3, progress=False)
    row = df[(df.metric == "net_tou_mean_by_policy") & (df.level == "random")].iloc[0]
    half = (row.ci_high - row.ci_low) / 2
    assert abs(ev - row.value) < 3 * half  # two independent estimates, each of half-width ~half


def test_natural_rate_agrees_with_decisive():
    label, p = decisive(VARIANTS[0])
    assert "natural" in label and 0 < p < 1e-4
    hands = 200_000
    m = Moments(_moments(_job(VARIANTS[0]), hands, 5, size=FEED.chunk_hands))
    se = math.sqrt(float(p) * (1 - float(p)) / hands)
    assert abs(m.mean("natural") - float(p)) < 4 * se
    from kaptai.nineten.atlas import AtlasVariant

    assert decisive(AtlasVariant("redeal", (("natural", "redeal"),), 4)) is None


def test_reproducible_and_additive():
    job = _job(VARIANTS[1], ("colour_cut", "live_first", "colour_cut", "random"))
    c0, c1 = plan_chunks(3000, 1500, 12)
    a, b = play(job, c0), play(job, c0)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    both = {k: a[k] + play(job, c1)[k] for k in a}
    cfg = variant_config(job.variant)
    rows = [hand_rows(_play_out(cfg, list(job.policies), c.size, bit_generator(c.seed)), 4) for c in (c0, c1)]
    cat = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    ref = hand_moments(cat["net"], gross=cat["net"], staked=cat["staked"], length=cat["length"],
                       drawn=cat["drawn"], natural=cat["natural"])
    assert both["n"][0] == 3000
    np.testing.assert_allclose(both["z1"], ref["z1"], rtol=1e-12)
    np.testing.assert_allclose(both["z2"], ref["z2"], rtol=1e-12)
