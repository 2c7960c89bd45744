"""Nantong's review by the ``search`` policy's own evaluation (``kaptai review nantong FILE
--advisor search``, :mod:`kaptai.nantong.review_search`).

* the compiled ``search_values`` and its pure-Python twin give the same values, option by option
  and layout by layout, from the same stream (three and four players, two settlements);
* the position the replay keeps is the search's: on the search's own private stream the twin
  reproduces, candidate for candidate, the sums the compiled search logged for its choice;
* each answer hands its paired sums to the review, which cross-fits;
* a record of ``search`` against itself reviews to a mean loss whose interval holds 0, one of
  ``random`` to a mean loss above 0 (a bigger version is ``slow``);
* the same seed gives the same review with 1 and 2 workers; a bad ``--advisor`` is refused by name.
"""

from __future__ import annotations

import numpy as np
import pytest

from kaptai.core.review import review, summarize
from kaptai.core.sampling import RandomStream, SplitMixStream
from kaptai.errors import KaptaiError
from kaptai.nantong import _engine, play
from kaptai.nantong import engine_reference as er
from kaptai.nantong import review_search as RS
from kaptai.nantong.cards import format_card
from kaptai.nantong.records import record_hands
from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py


def _record(tmp_path, name, players, rules, policy, hands, seed):
    p = tmp_path / f"{name}.jsonl"
    record_hands(p, players, rules, policies=policy, hands=hands, seed=seed)
    return p


@pytest.mark.parametrize("players,rules,seed", [(3, None, 1), (4, {"settlement": "pairwise_difference"}, 2)])
def test_compiled_search_values_are_the_reference_s(tmp_path, players, rules, seed):
    rec = play.read(_record(tmp_path, "g", players, rules, "search", 1, seed))
    ds = list(play.decisions(rec))
    assert ds and all(d.extra["state"] is not None for d in ds)
    for d in (ds[0], ds[len(ds) // 2], ds[-1]):   # the first, one mid-hand (a record to weigh), the last
        st = d.extra["state"]
        assert tuple(st["c"][d.seat]) == tuple(d.view.hand)
        opts = [k for k in range(30) if d.view.hand[k]]
        fast = _engine.search_values(d.extra["cfg"], st, d.seat, opts, np.random.PCG64(7), 3)
        slow = er.search_values(d.extra["cfg"], st, d.seat, opts, RandomStream(np.random.PCG64(7)), 3)
        np.testing.assert_array_equal(fast[0], np.asarray(slow[0]))
        np.testing.assert_array_equal(fast[1], np.asarray(slow[1]))
        assert fast[0].shape == (len(opts), 3)
    with pytest.raises(ValueError, match="does not hold"):
        d = ds[0]
        _engine.search_values(d.extra["cfg"], d.extra["state"], d.seat,
                              [k for k in range(30) if not d.view.hand[k]][:1], np.random.PCG64(1), 2)


def test_the_kept_position_is_the_one_the_search_valued(tmp_path):
    """On the search's own stream (seeded from the deal and the decision's number), the twin
    values the search's candidates on the search's layouts: the sum it logged for its choice."""
    from kaptai.core.sampling import RandomStream as RS_
    from kaptai.nantong.engine import run_hands

    rec = play.read(_record(tmp_path, "s", 3, None, "search", 1, 1))
    ds = list(play.decisions(rec))
    cfg = ds[0].extra["cfg"]
    ss = np.random.SeedSequence(1, spawn_key=(0,))
    log: list = []
    run_hands(cfg, 1, policies=["search"] * 3, bit_generator=np.random.PCG64(ss), compiled=True, decision_log=log)
    st, deck = RS_(np.random.PCG64(ss)), list(range(120))   # the deal's card ids (the record keeps kinds)
    for i in range(119, 0, -1):
        j = st.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    key = 0
    for c in deck[:8]:
        key = key * 120 + c
    it, checked = iter(ds), 0
    for ndec, row in enumerate(log):
        if row[2] != 0:
            continue
        for d in it:   # the seat's next discard with two or more candidates
            cand = er._from_state(cfg, d.extra["state"], None)._discard_candidates(d.seat)
            if d.seat == row[1] and len(cand) > 1:
                break
        seed = (key * 0x9E3779B97F4A7C15 + ndec * 0xBF58476D1CE4E5B9 + row[1]) & ((1 << 64) - 1)
        nets, _ = er.search_values(cfg, d.extra["state"], d.seat, cand, SplitMixStream(seed), cfg.samples)
        assert d.made == format_card(row[4]) and sum(nets[cand.index(row[4])]) == row[5], (row, cand)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


def test_the_answer_hands_over_its_paired_sums():
    v = np.array([[1.0, 3.0, 2.0], [0.0, 0.0, 0.0], [0.0, 1.0, 2.0]])   # means 2, 0, 1
    ev = RS.answer(["p", "q", "r"], v, np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.5, 0.5, 0.5]]))
    assert ev["labels"] == ["p", "r", "q"] and ev["index"] == [0, 2, 1] and ev["samples"] == 3
    np.testing.assert_allclose(ev["value"], [2.0, 1.0, 0.0])
    np.testing.assert_allclose(ev["p_win"], [1 / 3, 1.0, 0.0])
    half = 1.959963984540054 * np.std([-1.0, -2.0, 0.0], ddof=1) / np.sqrt(3)
    np.testing.assert_allclose([ev["vs_low"][1], ev["vs_high"][1]], [-1.0 - half, -1.0 + half])
    d, lo, hi = ev["paired"].diff(0, 2)
    assert d == 1.0 and np.isclose(hi - d, half)


def _pair(tmp_path, hands, seed, samples):
    """``hands``: the hands of the ``search`` and ``random`` records."""
    return {pol: review(RS, _record(tmp_path, pol, 3, None, pol, n, seed), "nantong", seats=[0], seed=0,
                        samples=samples) for pol, n in zip(("search", "random"), hands)}


def _record_row(df):
    s = summarize(df)
    return s[s.level == "record"].iloc[0]


def _check(rv, strict):
    s, r = _record_row(rv["search"]), _record_row(rv["random"])
    for df in rv.values():
        assert df.attrs["cross_fit"] and df.attrs["cross_fitted"] == len(df) > 0
        assert (df.loss[df.made == df.best] == 0).all()
        assert (df.loss_low <= df.loss + 1e-12).all() and (df.loss <= df.loss_high + 1e-12).all()
        assert ((df.p_win_before >= 0) & (df.p_win_before <= 1)).all()
    assert s.mean_loss_low <= 0.0 <= s.mean_loss_high, s
    loss = rv["random"].loss.to_numpy()
    if strict:   # the record's conservative interval (the mean of the decisions' bounds)
        assert r.mean_loss_low > 0.0, r
    else:        # a short record: 2 standard errors of the decisions, taken as independent
        assert loss.mean() > 2 * loss.std(ddof=1) / np.sqrt(len(loss)), r
    assert r.mean_loss > s.mean_loss, (r, s)


def test_search_against_itself_holds_0_and_random_loses(tmp_path):
    # a random discard costs little in Nantong (0.03 of the hand win a decision): 8 hands of it
    _check(_pair(tmp_path, (2, 8), 1, 32), strict=False)


@pytest.mark.slow
def test_search_against_itself_holds_0_and_random_loses_at_size(tmp_path):
    if SCALE < 1:
        pytest.skip("full size only (KAPTAI_SLOW_SCALE=1): two 4-hand records at 512 layouts, about 1.5 minutes")
    _check(_pair(tmp_path, (4, 4), 1, 512), strict=True)   # docs/review.md's rows, at the default --samples


def test_same_seed_same_review_any_workers(tmp_path):
    p = _record(tmp_path, "s", 3, None, "search", 2, 4)
    a = review(RS, p, "nantong", seats=[0], seed=3, samples=4)
    b = review(RS, p, "nantong", seats=[0], seed=3, samples=4, chunk_hands=1, workers=2)
    assert len(a) > 0 and a.equals(b)
    c = review(RS, p, "nantong", seats=[0], seed=4, samples=4)
    assert not np.array_equal(a.loss.to_numpy(), c.loss.to_numpy())


def test_the_advisor_option(tmp_path, capsys):
    from kaptai.cli import main

    p = _record(tmp_path, "s", 3, None, "max_melds", 1, 1)
    with pytest.raises(KaptaiError, match="--advisor 'best'"):
        RS.review_adapter("best")
    assert main(["review", "nantong", str(p), "--advisor", "best"]) == 2
    assert "'best'" in capsys.readouterr().err
    assert main(["review", "nantong", str(p), "--samples", "1"]) == 2
    assert "--samples 1" in capsys.readouterr().err
    assert main(["review", "nantong", str(p), "--seat", "0", "--samples", "4", "--summary", "--format", "json"]) == 0
    a = capsys.readouterr().out
    assert main(["review", "nantong", str(p), "--seat", "0", "--samples", "4", "--summary", "--format", "json",
                 "--advisor", "advise"]) == 0
    b = capsys.readouterr().out
    assert a != b and '"decisions"' in a and '"decisions"' in b


def test_the_state_watch_sees_only_its_own_replay_and_is_put_back(tmp_path):
    """A replay in another thread during a review's replay is not recorded as one of its
    positions, and the replay's hand class is put back afterwards."""
    import threading

    from kaptai.nantong import records as R

    rec = play.read(_record(tmp_path, "g", 3, None, "max_melds", 2, 6))
    other = _record(tmp_path, "o", 3, None, "random", 1, 7)
    alone = [(d.hand, d.index, d.made, d.extra["state"]["rec"]) for d in play.decisions(rec)]
    stop = threading.Event()

    def busy():
        while not stop.is_set():
            R.replay(other)

    t = threading.Thread(target=busy)
    t.start()
    try:
        got = [(d.hand, d.index, d.made, d.extra["state"]["rec"]) for d in play.decisions(rec)]
    finally:
        stop.set()
        t.join()
    assert got == alone and "view" not in R._Logged.__dict__
