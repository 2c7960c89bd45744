"""The Big Two atlas feed (kaptai/bigtwo/atlas.py) against the game's own figures."""

import math
from fractions import Fraction

import numpy as np
import pytest

import kaptai.bigtwo.atlas as feed_mod
from kaptai.bigtwo.atlas import FEED, VARIANTS, decisive, play, variant_rules
from kaptai.bigtwo.simulate import CHUNK_HANDS, run_tallies
from kaptai.core.atlas import AtlasJob, AtlasVariant, Moments, hand_moments, rotated_ev
from kaptai.core.runner import plan_chunks
from kaptai.errors import KaptaiError
from kaptai.games import game, load_entry

HK, WTA, THREE, INSTANT = VARIANTS


def _job(v, pols=None):
    return AtlasJob("big-two", v, tuple(pols or ("greedy",) * v.players))


def _capture(monkeypatch):
    seen = []
    real = feed_mod.hand_moments

    def spy(net, **kw):
        seen.append({"net": np.asarray(net), **{k: np.asarray(v) for k, v in kw.items() if v is not None}})
        return real(net, **kw)

    monkeypatch.setattr(feed_mod, "hand_moments", spy)
    return seen


def _add(a, b):
    return {k: a[k] + b[k] for k in a}


def test_feed_contract():
    assert load_entry(game("big-two").atlas) is FEED
    assert FEED.reference_seat == "leader" and FEED.variants[0].name == "hong_kong"
    assert FEED.variants[0].players == game("big-two").default_players
    for p in (FEED.default_policy, FEED.strong_policy, FEED.random_policy):
        assert p in game("big-two").policies
    assert 2 <= len(FEED.variants) <= 4 and FEED.notes
    assert variant_rules(WTA).settlement == "winner_takes_all" and variant_rules(THREE).players == 3


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: v.name)
def test_per_hand_identities(monkeypatch, v):
    seen = _capture(monkeypatch)
    N = v.players
    play(_job(v, ("random",) + ("heuristic",) * (N - 1)), plan_chunks(800, 800, 4)[0])
    (r,) = seen
    net, gross = r["net"], r["gross"]
    assert net.shape == (800, N)
    assert (net == gross).all()  # no house cut in Big Two
    assert np.allclose(net.sum(axis=1), 0.0, atol=1e-9)  # so the house takes exactly 0
    assert (gross.sum(axis=1) - net.sum(axis=1) == 0).all()
    assert (r["drawn"] == 0).all()
    assert np.allclose(r["staked"], np.maximum(net, 0).sum(axis=1))  # the losers pay the winners
    assert (r["staked"] > 0).all()
    if not variant_rules(v).instant_dragon:
        assert (r["natural"] == 0).all() and (r["length"] >= N).all()
    inst = r["natural"] == 1
    assert (r["length"][inst] == 0).all()
    if v is WTA:
        # 獨贏: exactly one seat gains, and it gains what the others lose
        assert ((net > 0).sum(axis=1) == 1).all()


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: v.name)
def test_same_stream_as_simulate(v):
    """One policy at every seat: the feed's chunks are simulate's games, so the leader-relative
    mean nets, the instant-win rate and the mean turns are simulate's exactly."""
    games = 2 * CHUNK_HANDS
    pol = "heuristic" if v is THREE else "greedy"
    total = None
    for chunk in plan_chunks(games, CHUNK_HANDS, 9):
        m = play(_job(v, (pol,) * v.players), chunk)
        total = m if total is None else _add(total, m)
    m = Moments(total)
    t, _, _ = run_tallies(v.players, variant_rules(v), games, 9, policies=pol, progress=False)
    G = int(t["games"][0])
    assert m.n == G == games
    for s in range(v.players):
        assert m.mean(f"net_{s}") == pytest.approx(t["net_leader"][0][0, s] / G, abs=1e-9)
        var = t["net_leader"][0][1, s] / G - (t["net_leader"][0][0, s] / G) ** 2
        assert m.cov[s, s] == pytest.approx(var * G / (G - 1), rel=1e-9)
    assert m.mean("natural") == (t["instant"][1] + t["instant"][2]) / G
    assert m.mean("length") == pytest.approx(t["length"][2] / G, rel=1e-12)
    assert m.mean("house") == 0.0


def test_mixed_table_rotation_matches_simulate():
    """A focal policy at engine seat 0 sits at every leader-relative seat equally often, so its
    EV in simulate equals the feed's EV of that policy averaged over the seats it is given."""
    v = HK
    n = 3000
    jobs = []
    for s in range(4):
        pols = ["greedy"] * 4
        pols[s] = "heuristic"
        jobs.append((s, play(_job(v, pols), plan_chunks(n, n, 100 + s)[0])))
    mean, var, _, hands = rotated_ev(jobs)
    assert hands == 4 * n
    t, _, _ = run_tallies(4, variant_rules(v), 4 * n, 5, policies=["heuristic"] + ["greedy"] * 3, progress=False)
    G = int(t["games"][0])
    sm = t["net_seat"][0][0, 0] / G
    svar = (t["net_seat"][0][1, 0] / G - sm * sm) / G
    assert abs(mean - sm) < 4 * math.sqrt(var + svar)
    # and the seats matter: the leader's EV differs from the last seat's in an all-greedy table
    m = Moments(play(_job(v), plan_chunks(8000, 8000, 1)[0]))
    d = m.linear({"net_0": 1.0, "net_3": -1.0})
    assert d.value > 0 and d[1] > 0


def test_exact_instant_win_probability():
    label, p = decisive(INSTANT)
    C = math.comb
    dragon_one = Fraction(4**13, C(52, 13))
    assert abs(1 / float(dragon_one) - 9462) < 1  # the rules page's "about 1 in 9,462"
    two = Fraction(4**13 * 3**13, C(52, 13) * C(39, 13))
    three = two * Fraction(2**13, C(26, 13))
    any_dragon = 4 * dragon_one - 6 * two + 4 * three - three  # four dragons = three dragons
    assert p == any_dragon + 4 * Fraction(C(48, 9), C(52, 13))
    assert decisive(HK) is None and decisive(WTA) is None
    only = AtlasVariant("dragon", (("instant_dragon", True), ("redeal", "off")), 4)
    assert decisive(only)[1] == any_dragon
    with pytest.raises(KaptaiError, match="redeal"):
        decisive(AtlasVariant("x", (("instant_dragon", True),), 4))


def test_natural_rate_agrees_with_exact():
    _, p = decisive(INSTANT)
    games = 40_000
    m = Moments(play(_job(INSTANT), plan_chunks(games, games, 17)[0]))
    se = math.sqrt(float(p) * (1 - float(p)) / games)
    assert abs(m.mean("natural") - float(p)) < 4 * se


def test_reproducible_and_chunks_add(monkeypatch):
    seen = _capture(monkeypatch)
    pols = ("heuristic", "greedy", "random", "greedy")
    c0, c1 = plan_chunks(1200, 600, 8)
    a = play(_job(HK, pols), c0)
    b = play(_job(HK, pols), c0)
    for k in a:
        assert np.array_equal(a[k], b[k])
    c = play(_job(HK, pols), c1)
    merged = _add(a, c)
    rows = [seen[0], seen[2]]
    cat = {k: np.concatenate([r[k] for r in rows]) for k in rows[0]}
    direct = hand_moments(cat.pop("net"), **cat)
    assert direct["n"][0] == merged["n"][0] == 1200
    assert np.allclose(direct["z1"], merged["z1"]) and np.allclose(direct["z2"], merged["z2"])


def test_bad_input():
    chunk = plan_chunks(10, 10, 1)[0]
    with pytest.raises(KaptaiError, match="one policy per seat"):
        play(_job(HK, ("greedy",) * 3), chunk)
    with pytest.raises(KaptaiError, match="cheat"):
        play(_job(HK, ("cheat",) * 4), chunk)
    with pytest.raises(KaptaiError, match="previous_winner"):
        play(_job(AtlasVariant("m", (("first_lead", "previous_winner"),), 4), ("random",) + ("greedy",) * 3), chunk)
    with pytest.raises(KaptaiError, match="colour"):
        play(_job(AtlasVariant("c", (("colour", 1),), 4)), chunk)
