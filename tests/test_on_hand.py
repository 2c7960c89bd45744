"""The reference engines' ``on_hand`` hand-over (Big Two, nine-ten, Heaven Eleven) and the play
session that keeps the finished hands with it (:class:`kaptai.core.play.FinishedHands`):

* ``on_hand`` is called once per hand, in order, as soon as the hand is over, with that hand's
  outcome row and log rows: together exactly what the run returns;
* a game's ``records.hand_events`` hands over the same events it yields (and the same as the
  compiled run's), across Big Two's batches too;
* at ``quit`` the session keeps the hands the run had finished but not yet handed over.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from kaptai.core.play import Console, FinishedHands, QuitGame, run_session
from kaptai.errors import KaptaiError, RulesError


def _bigtwo(on_hand, games, record):
    from kaptai.bigtwo.config import make_config
    from kaptai.bigtwo.engine_reference import run_hands

    return run_hands(make_config(4), ["greedy", "random", "heuristic", "greedy"], np.random.PCG64(3), games,
                     record=record, on_hand=on_hand)


def _nineten(on_hand, hands, record):
    from kaptai.nineten.config import make_config
    from kaptai.nineten.engine_reference import run_hands

    return run_hands(make_config(4), ["colour_cut", "random", "live_first", "colour_cut"], np.random.PCG64(3), hands,
                     record=record, on_hand=on_hand)


def _heaven11(on_hand, hands, record):
    from kaptai.heaven11.config import check_bidding, check_policies, make_config
    from kaptai.heaven11.engine_reference import run_hands

    return run_hands(make_config(), check_policies(["greedy", "random", "greedy", "random"]), np.random.PCG64(3),
                     hands, bidding=check_bidding("expected"), record=record, on_hand=on_hand)


@pytest.mark.parametrize("run", [_bigtwo, _nineten, _heaven11], ids=["big-two", "nine-ten", "heaven-eleven"])
def test_on_hand_is_called_once_per_hand_with_what_the_run_returns(run):
    calls = []
    out, log = run(lambda i, o, lg: calls.append((i, o, lg)), 7, 5)
    ref_out, ref_log = run(None, 7, 5)  # the callback changes nothing
    assert [i for i, _, _ in calls] == list(range(7))
    for key in out:
        np.testing.assert_array_equal(out[key], ref_out[key], err_msg=key)
        np.testing.assert_array_equal(np.concatenate([o[key] for _, o, _ in calls]), out[key], err_msg=key)
    np.testing.assert_array_equal(log, ref_log)
    np.testing.assert_array_equal(np.concatenate([lg for _, _, lg in calls]), log)
    assert all(len(lg) and (lg[:, 0] == i).all() for i, _, lg in calls[:5])
    assert all(lg.shape == (0, 6) for _, _, lg in calls[5:])  # past `record`: no log rows


def test_on_hand_is_seen_before_the_run_ends():
    """The hand-over happens while the run is still going: a policy that fails in hand 3 leaves
    hands 0-2 handed over."""
    from kaptai.nineten.config import make_config
    from kaptai.nineten.engine import run_hands
    from kaptai.nineten.policies import Policy

    class Fails(Policy):

        def discard(self, view):
            if self.hand == 3:
                raise QuitGame("quit at the prompt")
            return view.options[0]

    pol = Fails()
    seen = []

    def on_hand(i, o, lg):
        seen.append(i)
        pol.hand = i + 1

    pol.hand = 0
    with pytest.raises(QuitGame):
        run_hands(make_config(4), 6, np.random.PCG64(1), [pol, "colour_cut", "colour_cut", "colour_cut"],
                  on_hand=on_hand)
    assert seen == [0, 1, 2]


def test_the_front_doors_route_on_hand_to_the_reference_engine():
    from kaptai.bigtwo.config import make_config as b2
    from kaptai.bigtwo.engine import run_hands as b2_run
    from kaptai.nineten.config import make_config as n10
    from kaptai.nineten.engine import run_hands as n10_run

    with pytest.raises(RulesError, match="on_hand needs the reference engine"):
        n10_run(n10(4), 2, np.random.PCG64(1), "colour_cut", engine="compiled", on_hand=print)
    got = []
    out, _ = b2_run(b2(4), "greedy", np.random.PCG64(1), 3, on_hand=lambda g, o, lg: got.append(g))
    ref, _ = b2_run(b2(4), "greedy", np.random.PCG64(1), 3, engine="compiled")
    assert got == [0, 1, 2] and all(np.array_equal(out[k], ref[k]) for k in out)


@pytest.mark.parametrize("game", ["big-two", "nine-ten", "heaven-eleven"])
def test_records_hand_over_the_events_they_yield(game, monkeypatch):
    if game == "big-two":
        import kaptai.bigtwo.records as rec

        monkeypatch.setattr(rec, "BATCH", 2)  # three batches: the indices run on across them
        kw = dict(players=4, hands=5, seed=4)
    elif game == "nine-ten":
        import kaptai.nineten.records as rec  # type: ignore[no-redef]

        kw = dict(players=4, hands=5, seed=4)
    else:
        import kaptai.heaven11.records as rec  # type: ignore[no-redef]

        kw = dict(hands=4, seed=4)
    plain = list(rec.hand_events(**kw))  # the compiled engine (built-in policies)
    kept = FinishedHands()
    handed = list(rec.hand_events(**kw, on_hand=kept))  # the reference engine, hand by hand
    assert handed == plain and kept.hands == plain


def test_finished_hands_replaces_a_hand_handed_over_again():
    kept = FinishedHands()
    for i, e in [(0, "a"), (1, "b"), (2, "c"), (1, "B")]:
        kept(i, [{"x": e}])
    assert kept.hands == [[{"x": "a"}], [{"x": "B"}]]
    with pytest.raises(KaptaiError, match="hand 5 handed over after only 2"):
        kept(5, [])


def test_run_session_keeps_the_hands_finished_but_not_handed_over():
    """An engine that hands over its hands only at the end of its run, quit in hand 2: hands 0
    and 1 are kept from ``on_hand``, each reported as it ended (numbered from 0) and counted."""
    kept = FinishedHands()
    hands = [[{"type": "settle", "result": [float(i), -float(i)]}] for i in range(1, 5)]

    def run():
        for i, evs in enumerate(hands[:2]):
            kept(i, evs)
        raise QuitGame("quit at the prompt")
        yield  # pragma: no cover

    con = Console(ascii=True, lines=[], out=io.StringIO())
    df = run_session(con, {"players": 2, "unit": "pts", "game": "x"}, run(), seat=1, finished=kept)
    text = con.out.getvalue()
    assert "keeping the 2 finished hand(s)" in text
    assert text.index("== hand 0 over: you -1 pts") < text.index("== hand 1 over: you -2 pts") < text.index("keeping")
    assert text.count("== hand 1 over") == 1 and df["hand"].tolist() == [0, 1]
    assert "after 2 finished hand(s)" in text
    assert df["you"].tolist() == [-1.0, -2.0] and df.attrs["quit"] == "quit at the prompt"
