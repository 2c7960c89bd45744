"""The Nantong advisor with the other seats' exposed sets as theirs (``others``, ``--others``).

Before ``others`` the advisor dealt every other seat 22 concealed cards and put the sets they
showed among the cards seen, so whenever another seat had exposed a set the stock was counted
short (3 cards a set) and late in a hand the position was refused as leaving no stock; play's
hints and ``kaptai review nantong`` typed their positions that way.  Here every discard of whole
reference-engine hands is typed as ``kaptai play``'s hints type it and checked against the
engine's own position.
"""

import json

import numpy as np
import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError
from kaptai.nantong import play
from kaptai.nantong.advisor import advise
from kaptai.nantong.cards import MeldError, TooManyCopiesError
from kaptai.nantong.config import make_config
from kaptai.nantong.engine_reference import run_hands
from kaptai.nantong.policies import Policy
from kaptai.nantong.rules import resolve_rules

HAND = "147w 258w 369w 147t 258t 369b 147b 5b 5b"


class _Watcher(Policy):
    """max_melds, keeping the view of every discard."""

    def __init__(self, views: list):
        self.views = views

    def discard(self, view):
        self.views.append(view)
        return super().discard(view)


def _views(rules, players: int, hands: int, seed: int) -> list:
    cfg = make_config(players, rules)
    views: list = []
    pols = [_Watcher(views) for _ in range(cfg.active)]
    run_hands(cfg, pols, np.random.PCG64(seed), hands)
    return views


@pytest.mark.parametrize("rules,players,seed", [
    (resolve_rules(), 3, 1),
    (resolve_rules(), 4, 2),
    (resolve_rules(jiang_set_replacement=3), 3, 3),
    (resolve_rules(qishou="never"), 3, 4),
])
def test_every_engine_discard_is_priced_with_the_engines_stock(rules, players, seed):
    views = _views(rules, players, 6, seed)
    cfg = make_config(players, rules)
    shown = 0
    for i, v in enumerate(views[::3]):
        others = play._others_text(v, cfg.active)
        shown += others.replace(";", "").strip() != ""
        df = play.advice(v, rules, players, samples=2, seed=i)
        # the cards left to draw (the reserve included) are the engine's: every card is where it is
        assert df.attrs["stock"] == v.stock_left + cfg.reserve
        assert df.attrs["unseen"] == sum(4 - int(v.hand[k]) for k in range(30)) - _face_up(v)
    assert shown > 0  # positions where another seat shows sets were met


def _face_up(v) -> int:
    """Cards face up outside the seat's hand: discards not claimed, every set, the turned cards."""
    n = len(v.turned) + sum(_cards(t, k, v.turned) for ms in v.melds for t, k in ms)
    claimed = sum(1 for ms in v.melds for t, _ in ms if t in ("pong", "mkong"))
    return n + len(v.discards) - claimed


def _cards(t: str, k: int, turned) -> int:
    double = len(turned) == 2 and turned[0] == turned[1]
    if t == "hezi":
        return 2
    if t == "qishou":
        return 3 if k in turned and not double else 4
    return 3 if t == "pong" else 4


def test_the_typed_position_without_others_counts_the_stock_short():
    rules = resolve_rules()
    views = [v for v in _views(rules, 3, 6, 1) if play._others_text(v, 3).replace(";", "").strip()]
    v = views[len(views) // 2]
    play.USE_OTHERS = False
    try:
        try:
            old = play.advice(v, rules, 3, samples=2, seed=0).attrs["stock"]
        except KaptaiError as exc:  # late in a hand: refused as leaving no stock
            assert "leave no stock" in str(exc)
            old = None
    finally:
        play.USE_OTHERS = True
    new = play.advice(v, rules, 3, samples=2, seed=0).attrs["stock"]
    assert new == v.stock_left + make_config(3, rules).reserve
    assert old is None or old < new


def test_no_others_is_the_advisor_before():
    a = advise(HAND, seen="1w 9t qz", samples=24, seed=5)
    b = advise(HAND, seen="1w 9t qz", samples=24, seed=5, others="")
    c = advise(HAND, seen="1w 9t qz", samples=24, seed=5, others=" ; ")
    assert a.equals(b) and a.equals(c)


def test_others_take_their_cards_from_the_stock_count_and_change_the_values():
    base = advise(HAND, seen="1w 9t qz 6t 6t 6t", samples=64, seed=1)
    mine = advise(HAND, seen="1w 9t qz", samples=64, seed=1, others="pong:6t")
    # the same cards face up; the next seat holds 19 concealed cards, not 22: 3 more in the stock
    assert mine.attrs["unseen"] == base.attrs["unseen"]
    assert mine.attrs["stock"] == base.attrs["stock"] + 3
    assert not mine[["value", "expected_hu"]].equals(base[["value", "expected_hu"]])
    two = advise(HAND, seen="1w 9t", samples=8, seed=1, others="; mkong:6t pong:qz")
    assert two.attrs["stock"] == advise(HAND, seen="1w 9t", samples=8, seed=1).attrs["stock"] - 7 + 6


@pytest.mark.parametrize("others,error,match", [
    ("pong:6t; pong:qz; pong:1t", MeldError, "3 seats given"),
    ("pong:6t; pang:qz", MeldError, r"seat 2 after you: unknown meld type 'pang'"),
    ("pong:6x", KaptaiError, "6x"),
    ("mkong:1w", TooManyCopiesError, "'1w' used 6 times"),  # 1 in hand, 1 seen, 4 shown
    ("pong:6t pong:9t pong:3t pong:qz pong:bh pong:6w pong:8t pong:9b", MeldError, "at least one concealed card"),
    (["pong:6t"], KaptaiError, "others="),
])
def test_bad_others_are_refused_naming_the_seat_and_token(others, error, match):
    with pytest.raises(error, match=match):
        advise(HAND, seen="1w", samples=4, others=others)


def test_cli_others_json_is_the_dataframe(capsys):
    assert main(["advise", "nantong", HAND, "--seen", "1w 9t qz", "--others", "pong:6t; pong:qz", "--samples", "16",
                 "--seed", "2", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    rows = got["rows"] if isinstance(got, dict) else got
    df = advise(HAND, seen="1w 9t qz", others="pong:6t; pong:qz", samples=16, seed=2)
    assert [r["discard"] for r in rows] == list(df.discard)
    assert np.allclose([r["value"] for r in rows], df.value) and np.allclose([r["vs_best"] for r in rows], df.vs_best)
