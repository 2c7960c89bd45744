"""``kaptai play nine-ten``: a refused discard says why (not held, a pair kept, a dead card
first), the hint names its unit (頭, tou), and a hand's end is described in one line."""

from __future__ import annotations

import io

import numpy as np

from kaptai.core.play import Console
from kaptai.nineten import play as P
from kaptai.nineten.cards import format_card, parse_card
from kaptai.nineten.policies import PlayerView


def _console(lines):
    return Console(ascii=True, lines=lines, out=io.StringIO())


def _view(held, options, dead=(), forced=False):
    hand = np.zeros(28, dtype=np.int64)
    for code, n in held.items():
        hand[parse_card(code)] = n
    d = np.zeros(28, dtype=np.int64)
    for code in dead:
        d[parse_card(code)] = 1
    return PlayerView(0, 0, hand, d, np.zeros((4, 28), dtype=np.int64), np.zeros(28, dtype=np.int64), 60,
                      tuple(parse_card(c) for c in options), forced)


def _refusals(con):
    return [x for x in con.out.getvalue().splitlines() if x.startswith("refused ")]


def test_refusals_name_the_reason():
    v = _view({"WC": 2, "RK": 1, "YA": 3}, ["RK", "YA"])
    con = _console(["WC", "RA", "RK"])
    assert P.HumanPolicy(con, None, 4).discard(v) == parse_card("RK")
    assert _refusals(con) == [
        "refused 'WC': you hold a pair of WC, and a pair is never broken: discard a single (RK, YA)",
        "refused 'RA': you do not hold RA",
    ]


def test_refusal_of_a_card_when_a_dead_card_must_go_first():
    v = _view({"GE": 1, "RK": 1, "WP": 1}, ["GE"], dead=["GE", "WP"], forced=True)
    con = _console(["RK", "WP", "GE"])
    assert P.HumanPolicy(con, None, 4).discard(v) == parse_card("GE")
    assert _refusals(con) == [
        "refused 'RK': a dead card must be discarded first (yours: GE)",
        "refused 'WP': your dead cards go oldest first: GE goes before WP",
    ]


def test_hint_names_its_unit(tmp_path):
    """The hint at a discard of a played hand: ev in tou (the record's unit)."""
    from kaptai.nineten.records import UNIT
    from kaptai.records import record_hands

    path = tmp_path / "n.jsonl"
    record_hands("nine-ten", path, players=4, hands=1, seed=1, policies="colour_cut")
    rec = P.read(path)
    d = next(iter(P.decisions(rec)))
    con = _console(["hint", format_card(d.view.options[0])])
    P.HumanPolicy(con, d.extra["rules"], 4, hint_samples=8).discard(d.view)
    hint = next(x for x in con.out.getvalue().splitlines() if x.startswith("hint (advisor)"))
    assert UNIT == "tou" and f" {UNIT} P(win)" in hint, hint


def test_describe_hand():
    settle = {"type": "settle", "winner": 0, "win_type": "discard", "cards": "GC", "tou": 3,
              "result": [3.0, -3.0, 0.0, 0.0]}
    evs = [{"type": "deal"}, {"type": "discard", "seat": 1, "cards": "GC", "forced": False}, settle]
    assert P.describe_hand(evs, 1) == "seat 0 won on the discard of GC by you (seat 1), who pays: 3 tou"
    flip = [{"type": "deal"}, {"type": "flip", "seat": 2, "cards": "RR", "stock_left": 50},
            {**settle, "win_type": "flip", "cards": "RR", "tou": 2, "result": [6.0, -2.0, -2.0, -2.0]}]
    assert P.describe_hand(flip, 0) == ("you (seat 0) won on RR, flipped from the stock by seat 2: 2 tou, every "
                                        "other seat pays")
    own = [{"type": "deal"}, {"type": "flip", "seat": 3, "cards": "YR", "stock_left": 40},
           {**settle, "winner": 3, "win_type": "self", "cards": "YR", "tou": 4, "result": [-4.0, -4.0, -4.0, 12.0]}]
    assert P.describe_hand(own, 0) == "seat 3 won by self-draw, turning YR from the stock: 4 tou, every other seat pays"
    drawn = [{"type": "deal"}, {**settle, "winner": -1, "win_type": "drawn", "cards": "", "tou": 0,
                                "result": [0.0] * 4}]
    assert P.describe_hand(drawn, 0).startswith("drawn")


def test_describe_hand_of_played_hands(tmp_path):
    from kaptai.records import read_record, record_hands

    path = tmp_path / "n.jsonl"
    record_hands("nine-ten", path, players=4, hands=12, seed=2, policies="colour_cut")
    for h in read_record(path).hands:
        st = h.events[-1]
        text = P.describe_hand(h.events, 0)
        if st["winner"] < 0:
            assert text.startswith("drawn")
            continue
        assert st["cards"] in text and f"{st['tou']} tou" in text
        if st["win_type"] == "discard":
            d = [e for e in h.events if e["type"] == "discard"][-1]["seat"]
            who = "you (seat 0)" if d == 0 else f"seat {d}"
            assert f"by {who}, " in text
