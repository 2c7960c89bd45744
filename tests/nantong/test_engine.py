"""The compiled engine against the reference engine, move for move, and engine invariants."""

import numpy as np
import pytest

from kaptai.core.sampling import RandomStream
from kaptai.errors import KaptaiError, RulesError
from kaptai.nantong import engine_reference as ER
from kaptai.nantong.config import IllegalMoveError, make_config
from kaptai.nantong.engine import run_hands
from kaptai.nantong.policies import Policy

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py
POLICIES = ["max_melds", "chase_qing", "chase_hun", "random"]


def _same(a, b):
    bad = [k for k in a if not np.array_equal(a[k], b[k])]
    assert not bad, {k: (a[k][:5], b[k][:5]) for k in bad}


@pytest.mark.parametrize("policy", POLICIES)
def test_compiled_equals_reference(policy):
    cfg = make_config(3)
    a = run_hands(cfg, 10, seed=11, policies=policy)
    b = run_hands(cfg, 10, seed=11, policies=policy, compiled=False)
    _same(a, b)


@pytest.mark.parametrize("players,options", [
    (3, {"jiang_set_replacement": 3}),
    (3, {"qishou": "never"}),
    (3, {"qishou": "policy", "single_turn": True}),
    (4, {"four_active": True}),
    (4, {}),
    (3, {"rob_kong": True, "multi_win": True}),
    (3, {"honour_sequence": True, "discard_triplet": "concealed", "decomposition": "min"}),
    (3, {"nonwinner_wenqian": True, "nonwinner_concealed_triplets": False, "wenqian": "cumulative"}),
    (3, {"tie": "seat_order", "compare": "raw", "reserve": 12, "potou": "always_up"}),
    (3, {"tie": "completer_first", "jiang_same_number": True, "one_tiao_laojiang": True,
         "tiancheng_double": True, "yazhuang_double": True, "double_before_round": False}),
])
def test_variants_compiled_equals_reference(players, options):
    cfg = make_config(players, options)
    for policy in ("random", "chase_qing"):
        _same(run_hands(cfg, 6, seed=5, policies=policy), run_hands(cfg, 6, seed=5, policies=policy, compiled=False))
    mixed = (["max_melds", "random", "chase_hun", "chase_qing"])[: cfg.active]
    _same(run_hands(cfg, 4, seed=6, policies=mixed), run_hands(cfg, 4, seed=6, policies=mixed, compiled=False))


@pytest.mark.slow
@pytest.mark.parametrize("policy", POLICIES)
def test_many_hands_compiled_equals_reference(policy):
    for players, options in ((3, {}), (4, {"four_active": True}), (3, {"rob_kong": True, "jiang_set_replacement": 3})):
        cfg = make_config(players, options)
        n = max(5, int(60 * SCALE))
        _same(run_hands(cfg, n, seed=17, policies=policy), run_hands(cfg, n, seed=17, policies=policy, compiled=False))


def test_default_user_policy_plays_like_max_melds():
    cfg = make_config(3)
    a = run_hands(cfg, 6, seed=3, policies="max_melds")
    b = run_hands(cfg, 6, seed=3, policies=[Policy(), Policy(), Policy()])
    _same(a, b)


def test_illegal_moves_are_named():
    class Bad(Policy):
        name = "bad"

        def discard(self, view):
            return next(k for k in range(30) if view.hand[k] == 0)

    # the kinds are written as cards (a bad kind index as itself)
    with pytest.raises(IllegalMoveError, match=r"policy 'bad' made the illegal move discard \w+: expected one of \w\w, "):
        run_hands(make_config(3), 1, seed=1, policies=[Bad(), "max_melds", "max_melds"])

    class BadClaim(Policy):
        name = "badclaim"

        def claim(self, view, kind, options):
            return "chi"

    with pytest.raises(IllegalMoveError, match=r"illegal move claim 'chi'"):
        run_hands(make_config(3), 5, seed=1, policies=[BadClaim()] * 3)
    assert issubclass(IllegalMoveError, KaptaiError)
    with pytest.raises(RulesError, match="compiled engine plays only"):
        run_hands(make_config(3), 1, seed=1, policies=[Policy()] * 3, compiled=True)
    with pytest.raises(RulesError, match="unknown policy"):
        run_hands(make_config(3), 1, policies="greedy")
    with pytest.raises(KaptaiError, match="wild cards"):
        make_config(3, {"deck": 125})


@pytest.mark.parametrize("policy", POLICIES)
def test_card_conservation_and_outcomes(policy):
    cfg = make_config(3)
    stream = RandomStream(np.random.PCG64(9))
    for _ in range(6):
        h = ER._Hand(cfg, [policy] * 3, stream)
        row = h.play()
        held = sum(sum(c) for c in h.c)
        sizes = {"pong": 3, "mkong": 4, "ckong": 4, "hezi": 2}
        melded = sum(sizes.get(t, 3 if k in h.jiang_turned else 4) for ms in h.melds for t, k in ms)
        # every card is in a hand, a meld, the turned cards, the stock or the dead discards
        assert held + melded + len(h.turned) + (120 - h.pos) + len(h.discard_log) - h.claimed == 120
        assert all(0 <= x <= 4 for c in h.c for x in c)
        assert row["win_type"] in (0, 1, 2, 3)
        if row["win_type"] == 0:
            assert sum(row["completer"]) == 0 and row["category"] == -1
        else:
            assert sum(row["completer"]) == 1 and row["completer"][row["completer_seat"]] == 1
        assert sum(row["winner"]) >= 1
        assert all(t % 10 == 0 for t in row["total"])


def test_engine_deals_agree_with_exact_odds():
    from kaptai.nantong.odds import turned_odds

    out = run_hands(make_config(3), 60_000, seed=21, policies="chase_qing")
    p = float(turned_odds()["double_jiang"])
    f = out["double_jiang"].mean()
    assert abs(f - p) < 4 * np.sqrt(p * (1 - p) / 60_000)
    # 起手 at the deal (before replacements): the exact per-hand probabilities
    from kaptai.nantong.odds import opening_tables

    for seat, size in ((0, 23), (1, 22), (2, 22)):
        q = float(opening_tables(size)["qishou"])
        f = out["dealt_qishou"][:, seat].mean()
        assert abs(f - q) < 4 * np.sqrt(q * (1 - q) / 60_000), (seat, f, q)
    # the stock: 120 - 67 - 2 = 51 at the start, never negative
    assert out["stock_left"].min() >= 0 and out["stock_left"].max() <= 51
    assert (out["stock_left"][out["win_type"] == 0] == 0).all()


def test_a_seat_that_pongs_is_shown_no_drawn_card():
    """A view's ``last_drawn`` is the card the seat itself drew: at the discard after a pong it
    drew nothing, and it was shown the card the previous seat had drawn (another seat's hidden
    card, to any user policy)."""
    seen: list[tuple[str, object]] = []

    class Watcher(Policy):
        name = "watcher"
        ponged = False

        def claim(self, view, kind, options):
            answer = super().claim(view, kind, options)
            self.ponged = answer == "pong"
            return answer

        def discard(self, view):
            seen.append(("after pong" if self.ponged else "after draw", view.last_drawn))
            self.ponged = False
            return super().discard(view)

    cfg = make_config(3)
    stream = RandomStream(np.random.PCG64(4))
    for _ in range(12):
        ER._Hand(cfg, [Watcher(), Watcher(), Watcher()], stream).play()
    after_pong = [last for why, last in seen if why == "after pong"]
    assert len(after_pong) >= 5 and all(last is None for last in after_pong)
    assert sum(last is not None for why, last in seen if why == "after draw") >= 20
