"""The Kap Tai Shap / Kap Shap atlas feed (kaptai/kts/atlas.py) against the game's own figures."""

import math
from fractions import Fraction

import numpy as np
import pytest

import kaptai.kts.atlas as feed_mod
from kaptai.core.atlas import AtlasJob, AtlasVariant, Moments, hand_moments
from kaptai.core.runner import plan_chunks
from kaptai.errors import KaptaiError
from kaptai.games import game, load_entry
from kaptai.kts.atlas import FEED, VARIANTS, decisive, play, variant_rules
from kaptai.kts.fairness import hand_ev
from kaptai.kts.simulate import CHUNK_HANDS, run_tallies

TRAD, ADV, SHAP = VARIANTS


def _job(v, pols=None):
    return AtlasJob("kap-tai-shap", v, tuple(pols or ("greedy",) * v.players))


def _capture(monkeypatch):
    """Record the per-hand arrays play() turns into moments (its rows())."""
    seen = []
    real = feed_mod.rows

    def spy(job, chunk):
        out = real(job, chunk)
        seen.append({k: np.asarray(v) for k, v in out.items()})
        return out

    monkeypatch.setattr(feed_mod, "rows", spy)
    return seen


def _add(a, b):
    return {k: a[k] + b[k] for k in a}


def test_feed_contract():
    assert load_entry(game("kap-tai-shap").atlas) is FEED
    assert FEED.game == "kap-tai-shap" and FEED.reference_seat == "dealer"
    assert FEED.variants[0].name == "traditional" and FEED.variants[0].players == 4
    assert [v.players for v in FEED.variants] == [4, 4, 2]
    for p in (FEED.default_policy, FEED.strong_policy, FEED.random_policy):
        assert p in game("kap-tai-shap").policies
    assert 2 <= len(FEED.variants) <= 4 and FEED.notes


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: v.name)
def test_per_hand_identities(monkeypatch, v):
    seen = _capture(monkeypatch)
    chunk = plan_chunks(3000, 3000, 5)[0]
    play(_job(v, ("random",) + ("greedy",) * (v.players - 1)), chunk)
    (r,) = seen
    net, gross, staked = r["net"], r["gross"], r["staked"]
    P = v.players
    rules = variant_rules(v)
    house = gross.sum(axis=1) - net.sum(axis=1)
    drawn = r["drawn"].astype(bool)
    assert net.shape == (3000, P)
    assert np.allclose(gross.sum(axis=1), 0.0, atol=1e-12)  # a transfer between the seats
    assert np.allclose(net.sum(axis=1) + house, gross.sum(axis=1), atol=1e-12)
    assert (net[drawn] == 0).all() and (house[drawn] == 0).all()
    if rules.house_cut == 0:
        assert (net == gross).all() and (house == 0).all()
    else:
        # the cut is 5% of the P-ante pot of every decided hand
        assert np.allclose(house[~drawn], rules.house_cut * P)
    if rules.settlement == "pot":
        assert (staked == P).all()
        won = ~drawn
        assert ((gross[won] == P - 1).sum(axis=1) == 1).all() and ((gross[won] == -1).sum(axis=1) == P - 1).all()
    else:
        # what the losers pay = the winner's gross gain
        assert np.allclose(staked, np.maximum(gross, 0).sum(axis=1))
        assert (staked[drawn] == 0).all() and (staked[~drawn] >= 2 * (P - 1)).all()
    assert ((r["natural"] == 1) <= ~drawn).all()
    assert (r["length"][r["natural"] == 1] == 1).all() and (r["length"] >= 1).all()


@pytest.mark.parametrize("v", VARIANTS, ids=lambda v: v.name)
def test_agrees_with_fairness_and_simulate_same_stream(v):
    """Chunks of simulate's size and seed are simulate's hands: the same EVs, house take,
    drawn and natural rates and mean length, to rounding."""
    hands = 2 * CHUNK_HANDS
    pols = ("score",) + ("greedy",) * (v.players - 1)
    total = None
    for chunk in plan_chunks(hands, CHUNK_HANDS, 11):
        m = play(_job(v, pols), chunk)
        total = m if total is None else _add(total, m)
    m = Moments(total)
    stats, _, _ = run_tallies(v.players, variant_rules(v), hands, 11, policies=list(pols), progress=False)
    r = hand_ev(stats, v.players, variant_rules(v), "dealer")
    assert m.n == hands
    for s in range(v.players):
        assert m.mean(f"net_{s}") == pytest.approx(r.ev.mean[s], abs=1e-12)
        assert math.sqrt(m.cov[s, s]) == pytest.approx(r.sd[s], rel=1e-9)  # both the n - 1 SD
    assert m.mean("house") == pytest.approx(r.house.mean, abs=1e-12)
    assert m.mean("drawn") == stats["ends"][0] / hands
    assert m.mean("natural") == stats["wins_dealer"][0].sum() / hands
    L = stats["length"]
    assert m.mean("length") == pytest.approx((np.arange(L.size) * L).sum() / hands, rel=1e-12)


def test_reproducible_and_chunks_add(monkeypatch):
    seen = _capture(monkeypatch)
    c0, c1 = plan_chunks(2000, 1000, 3)
    a = play(_job(TRAD), c0)
    b = play(_job(TRAD), c0)
    for k in a:
        assert np.array_equal(a[k], b[k])
    c = play(_job(TRAD), c1)
    assert not np.array_equal(a["z1"], c["z1"])
    merged = _add(a, c)
    # the merged moments are those of the rows of both chunks together
    rows = [seen[0], seen[2]]
    cat = {k: np.concatenate([r[k] for r in rows]) for k in rows[0] if k not in ("win", "deal")}
    direct = hand_moments(cat.pop("net"), **cat)
    assert direct["n"][0] == merged["n"][0] == 2000
    assert np.allclose(direct["z1"], merged["z1"]) and np.allclose(direct["z2"], merged["z2"])


@pytest.mark.parametrize("v", [TRAD, SHAP], ids=lambda v: v.name)
def test_natural_rate_agrees_with_exact(v):
    label, p = decisive(v)
    assert isinstance(p, Fraction) and "natural" in label
    hands = 24_000
    m = Moments(play(_job(v), plan_chunks(hands, hands, 21)[0]))
    se = math.sqrt(float(p) * (1 - float(p)) / hands)
    assert abs(m.mean("natural") - float(p)) < 4 * se


def test_decisive_values():
    # exact enumeration (kaptai.kts.odds): the advanced forms make naturals several times likelier
    assert decisive(SHAP)[1] == Fraction(16349, 2103660)
    assert decisive(ADV)[1] > 4 * decisive(TRAD)[1]


def test_bad_input():
    chunk = plan_chunks(10, 10, 1)[0]
    with pytest.raises(KaptaiError, match="carry"):
        play(_job(AtlasVariant("carry", (("drawn_hand", "carry"),), 4)), chunk)
    with pytest.raises(KaptaiError, match="cheat"):
        play(_job(TRAD, ("cheat",) * 4), chunk)
    with pytest.raises(KaptaiError, match="one policy per seat"):
        play(_job(TRAD, ("greedy",) * 3), chunk)
    with pytest.raises(KaptaiError):
        play(_job(AtlasVariant("x", "traditional", 1)), chunk)
