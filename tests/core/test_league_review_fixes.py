"""Fixes of an outside review of ``kaptai league``: deals that do not depend on the policies
played (nor on caps, chunking, workers, the hands asked for), intervals that always hold their
value, no floating noise in the text, ``--percent``, and one deal."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import kaptai.core.league as lg
from kaptai.core.atlas import AtlasFeed, AtlasVariant
from kaptai.core.league import LeagueGame, deal_seeds, policy_league
from kaptai.core.output import interval_cell, league_hands_text
from kaptai.core.runner import CheckpointError
from kaptai.league import policy_league as league_by_name
from tests.core.test_league import _resolve

# --------------------------------------------------------------------------------------
# 1. Deal i is a function of (seed, table, i): the same whatever else the league plays
# --------------------------------------------------------------------------------------


@pytest.fixture
def capture(monkeypatch):
    """Each run's per-table ``(deals, A, 2P)`` arrays with their arrangements."""
    runs: list[list[tuple[list[tuple[str, ...]], np.ndarray]]] = []
    real = lg._play

    def play(game, plans, *a, **k):
        Ys = real(game, plans, *a, **k)
        runs.append([(list(pl.arrangements), Y) for pl, Y in zip(plans, Ys)])
        return Ys

    monkeypatch.setattr(lg, "_play", play)
    return runs


def _per_deal(run, arrangement):
    """The per-deal ``[net.., win..]`` of one arrangement (the first table), NaN where not played."""
    arrs, Y = run[0]
    return Y[:, arrs.index(arrangement), :]


def _ev(df, pol, metric="ev_per_hand"):
    return float(df[(df.policy == pol) & (df.metric == metric)].iloc[0].value)


def test_nine_ten_deals_do_not_depend_on_the_policies_or_the_cap(capture):
    """The reviewer's example: random's EV moved (-0.9325, -0.6225, -0.79) with --policies and
    --strong-hands; now every arrangement present in two runs has the same per-deal results."""
    runs = {}
    for key, pols, caps in [("two", ("colour_cut", "random"), None),
                            ("s40", ("colour_cut", "random", "search"), {"search": 40}),
                            ("s80", ("colour_cut", "random", "search"), {"search": 80})]:
        runs[key] = league_by_name("nine-ten", hands=400, seed=9, policies=pols, caps=caps, progress=False)
    two, s40, s80 = capture
    base = ("colour_cut",) * 4
    for s in range(4):
        rnd = tuple("random" if j == s else "colour_cut" for j in range(4))
        for other in (s40, s80):
            assert np.array_equal(_per_deal(two, rnd), _per_deal(other, rnd))
        srch = tuple("search" if j == s else "colour_cut" for j in range(4))
        a, b = _per_deal(s40, srch), _per_deal(s80, srch)
        assert np.isfinite(a[:10]).all() and np.isnan(a[10:]).all() and np.isfinite(b[:20]).all()
        assert np.array_equal(a[:10], b[:10])  # the capped policy plays the first deals of the same sequence
    for other in (s40, s80):
        assert np.array_equal(_per_deal(two, base), _per_deal(other, base))
    for pol in ("colour_cut", "random"):
        for m in ("ev_per_hand", "win"):
            assert _ev(runs["two"], pol, m) == _ev(runs["s40"], pol, m) == _ev(runs["s80"], pol, m)


def test_big_two_deals_do_not_depend_on_the_policies_or_the_cap(capture):
    """Big Two reads one stream a chunk (its redeal decks, the policies' draws): the fixed grid
    keeps random's results when a policy is added, and a capped search's first deals when the
    cap moves (a piece cut short reads the whole piece's decks)."""
    a = league_by_name("big-two", hands=4000, seed=9, policies=("greedy", "random"), progress=False)
    b = league_by_name("big-two", hands=4000, seed=9, policies=("greedy", "random", "heuristic"), progress=False)
    assert _ev(a, "random") == _ev(b, "random") and _ev(a, "greedy") == _ev(b, "greedy")
    for k in (6, 10):
        league_by_name("big-two", hands=80, seed=3, policies=("greedy", "search"), caps={"search": 4 * k},
                       progress=False)
    two, three, s6, s10 = capture
    for s in range(4):
        rnd = tuple("random" if j == s else "greedy" for j in range(4))
        assert np.array_equal(_per_deal(two, rnd), _per_deal(three, rnd))
        srch = tuple("search" if j == s else "greedy" for j in range(4))
        x, y = _per_deal(s6, srch), _per_deal(s10, srch)
        assert np.isfinite(x[:6]).all() and np.isnan(x[6:]).all()
        assert np.array_equal(x[:6], y[:6])


def test_more_hands_play_the_same_first_deals(capture):
    league_by_name("nine-ten", hands=200, seed=4, policies=("colour_cut", "random"), progress=False)
    league_by_name("nine-ten", hands=400, seed=4, policies=("colour_cut", "random"), progress=False)
    short, long_ = capture
    for arr in short[0][0]:
        assert np.array_equal(_per_deal(short, arr), _per_deal(long_, arr)[:50])


def test_workers_do_not_change_the_table():
    one = league_by_name("nine-ten", hands=240, seed=5, policies=("colour_cut", "random"), progress=False)
    two = league_by_name("nine-ten", hands=240, seed=5, policies=("colour_cut", "random"), workers=2,
                         progress=False)
    pd.testing.assert_frame_equal(one, two)


def test_deal_seeds_are_global_and_other_chunks_unchanged():
    from kaptai.core.runner import plan_chunks

    t = np.random.SeedSequence(11)
    p = lg._Pieces(t, 8, 4, 21)
    assert [(c.start, c.size, c.span) for c in p] == [(0, 4, 4), (4, 4, 4), (8, 4, 4), (12, 4, 4), (16, 4, 4),
                                                      (20, 1, 4)]
    assert [s.spawn_key for s in deal_seeds(p[5])] == [(0, 20)]
    assert lg.chunk_decks(p[5], 52, 2).shape == (6, 52)  # the whole piece's decks, then the spares
    assert np.array_equal(lg.chunk_decks(p[5], 52)[0], lg.chunk_decks(lg._Pieces(t, 8, 4, 24)[5], 52)[0])
    c = plan_chunks(3, 3, 5)[0]  # a plain chunk (the design commands): as before
    assert [s.spawn_key for s in deal_seeds(c)] == [(0, 0, 0), (0, 0, 1), (0, 0, 2)]


# A toy whose every draw is per deal (its results are a function of the deal and the arrangement)

SKILL = {"a": 0.0, "b": 0.3, "random": -1.0}


def _toy_rows(variant, arrangements, chunk):
    P = variant.players
    seeds = deal_seeds(chunk)
    luck = np.array([np.random.default_rng(s).normal(size=P) for s in seeds])
    out = []
    for arr in arrangements:
        sk = np.array([SKILL[p] for p in arr])
        code = int.from_bytes("".join(arr).encode(), "little") % 2**32
        eps = np.array([np.random.default_rng([*s.spawn_key, code]).normal(scale=0.2, size=P) for s in seeds])
        net = 3 * luck + sk + eps
        net -= net.mean(axis=1, keepdims=True)
        out.append({"net": net, "win": (net == net.max(axis=1, keepdims=True)).astype(float)})
    return out


def _toy_play(job, chunk):  # pragma: no cover - the atlas is not played here
    raise AssertionError


def _toy(chunk_hands: int = 64, strong: int | None = None) -> LeagueGame:
    feed = AtlasFeed("toy", (AtlasVariant("toy", "toy", 3),), "seat 0", "unit", "a", "b", chunk_hands, _toy_play,
                     deal_rows=_toy_rows, strong_chunk_hands=strong)
    return LeagueGame("toy", feed, (2, 4), 3, ("a", "b", "random"), _resolve)


def test_chunk_sizes_do_not_change_a_per_deal_feed(capture):
    """Slow-policy chunk sizes (``chunk_hands``) cut the deals in smaller pieces; a feed whose
    draws are per deal gives the same results."""
    policy_league(_toy(), hands=600, seed=3, policies=("a", "b", "random"), progress=False)
    policy_league(_toy(), hands=600, seed=3, policies=("a", "b", "random"), progress=False,
                  chunk_hands={"b": 5}, caps={"b": 200})
    full, cut = capture
    for arr in full[0][0]:
        x, y = _per_deal(full, arr), _per_deal(cut, arr)
        n = int(np.isfinite(y[:, 0]).sum())
        assert n in (200, 67) and np.array_equal(x[:n], y[:n])  # b capped to ceil(200 / 3) deals


def test_a_checkpoint_of_the_old_layout_is_refused(tmp_path):
    ck = tmp_path / "ck"
    policy_league(_toy(), hands=60, seed=1, policies=("a", "b"), progress=False, checkpoint=ck)
    again = policy_league(_toy(), hands=60, seed=1, policies=("a", "b"), progress=False, checkpoint=ck)
    assert _ev(again, "b") == _ev(policy_league(_toy(), hands=60, seed=1, policies=("a", "b"), progress=False), "b")
    m = json.loads((ck / "kaptai-checkpoint.json").read_text())
    assert m["fingerprint"]["deal_layout"] == lg.DEAL_LAYOUT
    del m["fingerprint"]["deal_layout"]  # what the older league wrote
    (ck / "kaptai-checkpoint.json").write_text(json.dumps(m))
    with pytest.raises(CheckpointError, match="older kaptai league, whose deals were seeded per chunk"):
        policy_league(_toy(), hands=60, seed=1, policies=("a", "b"), progress=False, checkpoint=ck)


# --------------------------------------------------------------------------------------
# 2.-5. The table's numbers
# --------------------------------------------------------------------------------------


def test_noise_width_interval_prints_as_the_rounded_value():
    assert interval_cell(1.8999999999999997, 1.8999999999999995, 1.9) == "1.90"
    assert interval_cell(-1.27, -1.27, -1.27) == "-1.27"
    assert interval_cell(0.8, 0.75, 0.85) == "0.800 ±0.050"


def test_no_interval_is_marked():
    assert interval_cell(0.25, math.nan, math.nan) == "0.250 ±n/a"
    assert interval_cell(math.nan, math.nan, math.nan) == ""


def test_one_deal_is_singular():
    df = pd.DataFrame({"players": [4, 4], "policy": ["a", "search"], "hands": [4, 4]})
    assert league_hands_text(df) == "4 hands a policy (1 deal x 4 seats)"
    df = pd.DataFrame({"players": [4, 4], "policy": ["a", "search"], "hands": [40, 4]})
    assert league_hands_text(df) == "40 hands a policy (10 deals x 4 seats); search capped at 4 (1 deal)"


def test_interval_always_holds_its_value():
    """The reviewer's Nantong example: the baseline's win value a rounding step above its clipped interval."""
    df = league_by_name("nantong", rules=None, hands=90, seed=2, policies=("max_melds", "random"), progress=False)
    assert ((df.ci_low <= df.value) & (df.value <= df.ci_high)).all()
    lo, hi = lg._interval(0.3333333333333334, 1e-40, 1.96, 0.0, 1 / 3)
    assert lo <= 0.3333333333333334 <= hi
    for d in df.attrs["differences"] + df.attrs["seat_differences"]:
        assert not (d["ci_low"] > d["value"] or d["value"] > d["ci_high"])


def _cli(capsys, *argv):
    from kaptai.cli import main

    main(list(argv))
    return capsys.readouterr().out


def test_percent_shows_probabilities_as_percentages(capsys):
    argv = ["league", "nine-ten", "--policies", "colour_cut,random", "--hands", "400", "--seed", "2"]
    plain = _cli(capsys, *argv)
    pct = _cli(capsys, *argv, "--percent")
    assert plain != pct
    win = [line for line in pct.splitlines() if " win " in f" {line} " and not line.startswith("#")]
    assert win and all("%" in line for line in win)
    ev = [line.split() for line in pct.splitlines() if "ev_per_hand" in line and not line.startswith("#")]
    assert ev and not any("%" in " ".join(line) for line in ev)
    assert [line.split() for line in plain.splitlines() if "ev_per_hand" in line and not line.startswith("#")] == ev


@pytest.mark.parametrize("table", ["--cross", "--diff"])
def test_percent_is_refused_where_there_is_no_probability(capsys, table):
    from kaptai.cli import main

    assert main(["league", "nine-ten", "--policies", "colour_cut,random", "--hands", "40", table, "--percent"]) == 2
    assert "--percent" in capsys.readouterr().err


def test_one_deal_table_marks_its_values(capsys):
    out = _cli(capsys, "league", "nine-ten", "--policies", "colour_cut,random", "--hands", "4", "--seed", "1")
    assert "1 deal x 4 seats" in out and "1 deals" not in out
    assert "n/a" in out
