"""The Heaven Eleven atlas feed (kaptai/heaven11/atlas.py): rows, agreement with simulate, chunks."""

import math

import numpy as np
import pytest

from kaptai.core.atlas import AtlasJob, Moments, hand_moments, table_measures
from kaptai.core.runner import plan_chunks
from kaptai.core.sampling import bit_generator
from kaptai.errors import KaptaiError
from kaptai.games import load_entry
from kaptai.heaven11.atlas import FEED, VARIANTS, hand_rows, play, play_out, variant_config
from kaptai.heaven11.commands import SPEC
from kaptai.heaven11.engine import run_hands
from kaptai.heaven11.simulate import CHUNK_HANDS, simulate
from ..conftest import SLOW_SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py


def _job(variant, pols=None):
    return AtlasJob("heaven-eleven", variant, tuple(pols or (FEED.default_policy,) * 4))


def _moments(job, hands, seed, size=CHUNK_HANDS):
    tot = None
    for c in plan_chunks(hands, size, seed):
        m = play(job, c)
        tot = m if tot is None else {k: tot[k] + m[k] for k in m}
    return tot


def test_registry_and_contract():
    feed = load_entry(SPEC.atlas)
    assert feed is FEED and feed.game == SPEC.name == "heaven-eleven"
    assert 2 <= len(feed.variants) <= 4 and feed.variants[0].rules == "standard"
    assert all(v.players == 4 for v in feed.variants)
    for pol in (feed.default_policy, feed.strong_policy, feed.random_policy):
        assert pol in SPEC.policies
    assert feed.reference_seat == "declarer" and feed.decisive is None
    with pytest.raises(KaptaiError, match="best"):
        play(_job(VARIANTS[0], ("greedy", "best", "greedy", "greedy")), plan_chunks(5, 5, 1)[0])


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_per_hand_identities(variant):
    cfg = variant_config(variant)
    out, _ = run_hands(cfg, "greedy", np.random.PCG64(4), 3000)
    r = hand_rows(out, cfg)
    np.testing.assert_array_equal(r["net"].sum(axis=1), 0.0)  # zero-sum, no cut
    np.testing.assert_array_equal(r["staked"], np.maximum(r["net"], 0).sum(axis=1))
    assert (r["net"][r["drawn"] == 1] == 0).all() and (r["natural"] == 0).all()
    assert ((r["length"] >= 5) & (r["length"] <= 13)).all()
    mom = play(_job(variant), plan_chunks(2000, 2000, 2)[0])
    assert Moments(mom).mean("house") == 0.0
    edge = [x for x in table_measures(mom) if x["measure"] == "house_edge"][0]
    assert edge["value"] == 0.0


@pytest.mark.parametrize("variant", VARIANTS[:2], ids=lambda v: v.name)
def test_agrees_with_simulate_on_the_same_stream(variant):
    hands, seed = 2 * CHUNK_HANDS, 6
    m = Moments(_moments(_job(variant), hands, seed))
    df = simulate(rules=variant.rules, hands=hands, seed=seed, progress=False)
    fin = df[(df.metric == "final_mean") & (df.relative_to == "declarer")].sort_values("seat")
    np.testing.assert_allclose([m.mean(f"net_{s}") for s in range(4)], fin.value, rtol=0, atol=1e-12)
    assert m.mean("drawn") == pytest.approx(df[df.metric == "draw_rate"].value.iloc[0], abs=1e-15)
    assert m.mean("length") == pytest.approx(df[df.metric == "plays_mean"].value.iloc[0], rel=1e-12)
    assert m.mean("natural") == 0.0


def test_mixed_table_seats_policies_relative_to_the_declarer():
    cfg = variant_config(VARIANTS[0])
    first = hand_rows(play_out(cfg, ["random", "greedy", "greedy", "greedy"], 3000, np.random.PCG64(9)), cfg)["net"]
    last = hand_rows(play_out(cfg, ["greedy", "greedy", "greedy", "random"], 3000, np.random.PCG64(9)), cfg)["net"]
    assert len(first) == len(last) == 3000
    se = first[:, 0].std() / math.sqrt(3000)
    assert first[:, 0].mean() < -4.0 and first[:, 0].mean() < last[:, 0].mean() - 8 * se  # random declarer
    assert last[:, 3].mean() < first[:, 3].mean() - 8 * se  # random last defender
    # the split path with one policy for all: the uniform table's figures (declarer about 0)
    same = play_out(cfg, ["greedy"] * 4, 3000, np.random.PCG64(1), split=True)
    assert len(same["declarer"]) == 3000 and abs(hand_rows(same, cfg)["net"][:, 0].mean()) < 0.5
    roll = play_out(cfg, ["greedy", "greedy", "rollout", "greedy"], 40, np.random.PCG64(2))
    assert len(roll["declarer"]) == 40


def test_rotated_random_player_agrees_with_a_fixed_seat_table():
    # a random player's mean result over the four declarer-relative seats (the atlas's rotation) equals
    # its mean result at a fixed physical seat among greedy players (it declares 1/4 of the time)
    hands = 4000
    v = VARIANTS[0]
    evs, var = [], 0.0
    for s in range(4):
        pols = ["greedy"] * 4
        pols[s] = "random"
        m = Moments(play(_job(v, pols), plan_chunks(hands, hands, 30 + s)[0]))
        evs.append(m.mean(f"net_{s}"))
        var += m.cov[s, s] / m.n
    rot = float(np.mean(evs))
    se_rot = math.sqrt(var) / 4
    out, _ = run_hands(variant_config(v), ["random", "greedy", "greedy", "greedy"], np.random.PCG64(77), 4 * hands)
    f = out["finals"][:, 0].astype(float)
    se = f.std() / math.sqrt(f.size)
    assert rot < -1.0  # random loses against greedy
    assert abs(rot - f.mean()) < 4 * math.hypot(se, se_rot)


def test_reproducible_and_additive():
    job = _job(VARIANTS[2], ("greedy", "random", "greedy", "random"))
    c0, c1 = plan_chunks(1200, 600, 12)
    a, b = play(job, c0), play(job, c0)
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    both = {k: a[k] + play(job, c1)[k] for k in a}
    cfg = variant_config(job.variant)
    rows = [hand_rows(play_out(cfg, list(job.policies), c.size, bit_generator(c.seed)), cfg) for c in (c0, c1)]
    cat = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    ref = hand_moments(cat["net"], gross=cat["net"], staked=cat["staked"], length=cat["length"],
                       drawn=cat["drawn"], natural=cat["natural"])
    assert both["n"][0] == 1200
    np.testing.assert_allclose(both["z1"], ref["z1"], rtol=1e-12)
    np.testing.assert_allclose(both["z2"], ref["z2"], rtol=1e-12)


def _replay_oracle(cfg, pols, hands, seed):
    """An independent way to seat play policies relative to the declarer: deal and bid with greedy play,
    then replay every deal from its hand masks with the auction's contract declared by its declarer
    (make_config(first_dealer=..., contract=...) skips only the auction)."""
    from kaptai.heaven11.cards import mask_to_cards
    from kaptai.heaven11.config import make_config

    bg = np.random.PCG64(seed)
    base, _ = run_hands(cfg, "greedy", bg, hands)
    cfgs = {}
    res = []
    for i in range(hands):
        dc, lv, st = int(base["declarer"][i]), int(base["level"][i]), int(base["strain"][i])
        c = cfgs.get((dc, lv, st))
        if c is None:
            c = cfgs[dc, lv, st] = make_config(rules=cfg.rules, first_dealer=dc, contract=(lv, st))
        deck = np.array([k for s in range(4) for k in mask_to_cards(int(base["hands"][i, s]))], dtype=np.int8)
        phys = [""] * 4
        for s in range(4):
            phys[(dc + s * cfg.play_step) % 4] = pols[s]
        o, _ = run_hands(c, phys, bg, 1, decks=deck[None, :])
        assert int(o["declarer"][0]) == dc
        res.append(hand_rows(o, cfg)["net"][0])
    return np.array(res)


def test_replay_oracle_reproduces_greedy_hands():
    cfg = variant_config(VARIANTS[0])
    out, _ = run_hands(cfg, "greedy", np.random.PCG64(3), 40)
    np.testing.assert_array_equal(_replay_oracle(cfg, ["greedy"] * 4, 40, 3), hand_rows(out, cfg)["net"])


@pytest.mark.slow
def test_split_path_agrees_with_the_replay_oracle():
    n = max(200, int(1500 * SLOW_SCALE))  # see tests/conftest.py
    cfg = variant_config(VARIANTS[0])
    pols = ["greedy", "random", "greedy", "greedy"]
    ref = _replay_oracle(cfg, pols, n, 21)
    got = hand_rows(play_out(cfg, pols, 4 * n, np.random.PCG64(22)), cfg)["net"]
    for s in range(4):
        se = math.hypot(ref[:, s].std() / math.sqrt(len(ref)), got[:, s].std() / math.sqrt(len(got)))
        assert abs(ref[:, s].mean() - got[:, s].mean()) < 4 * se, s


def test_the_adaptive_seat_table_plays_each_deal_from_its_own_seed_with_search_bidders():
    """Issue 32: the seat table bids 'search' at every seat, deal i on PCG64 of deal_seeds(chunk)[i], so every
    scoring starts from the same deal; an unknown mixed table with search bidders is refused."""
    from kaptai.core.league import deal_seeds
    from kaptai.core.runner import plan_chunks
    from kaptai.heaven11.atlas import FEED, VARIANTS, hand_rows, rows, variant_config
    from kaptai.heaven11.engine import run_hands

    assert FEED.adaptive_bidding == "search" and FEED.adaptive_hands and FEED.deal_key is not None
    chunk = plan_chunks(3, 3, 11)[0]
    got = rows(AtlasJob("heaven-eleven", VARIANTS[1], ("greedy",) * 4, "search"), chunk)
    cfg = variant_config(VARIANTS[1])
    for i, ss in enumerate(deal_seeds(chunk)):
        out, _ = run_hands(cfg, "greedy", np.random.PCG64(ss), 1, bidding="search", engine="compiled")
        one = hand_rows(out, cfg)
        assert np.array_equal(got["net"][i], one["net"][0]) and got["deal"][i] == one["deal"][0]
    with pytest.raises(KaptaiError, match="one play policy"):
        rows(AtlasJob("heaven-eleven", VARIANTS[0], ("greedy", "random", "greedy", "greedy"), "search"), chunk)
