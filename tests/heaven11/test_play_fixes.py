"""``kaptai play heaven-eleven`` and ``kaptai review heaven-eleven``: a refused play says why
(not held, the suit led not followed), the review counts every legal call, the bid hint names
its unit, and a hand's end is described in one line."""

from __future__ import annotations

import io

import pytest

from kaptai.core.play import Console
from kaptai.heaven11 import play as P
from kaptai.heaven11.cards import parse_cards
from kaptai.heaven11.policies import PlayerView


def _console(lines):
    return Console(ascii=True, lines=lines, out=io.StringIO())


def _refusals(con):
    return [x for x in con.out.getvalue().splitlines() if x.startswith("refused ")]


def _play_view(hand, trick, trump=2, options=None):
    from kaptai.heaven11.config import make_config
    from kaptai.heaven11.engine_reference import follow_options, lead_options

    ids = tuple(sorted(parse_cards(hand)))
    mask = sum(1 << c for c in ids)
    tr = tuple((s, tuple(sorted(parse_cards(c)))) for s, c in trick)
    if options is None:
        if tr:
            lead = tr[0][1]
            opts = follow_options(mask, lead[0] // 13, len(lead), trump, make_config(4, None))
        else:
            opts = lead_options(mask)
        options = tuple(tuple(c for c in range(52) if m >> c & 1) for m in opts)
    return PlayerView(1, "play", ids, 0, (), 12, 0, 2, trump, tr, options, (0,) * 4, (), (0,) * 4, None)


def test_refusals_name_the_reason():
    v = _play_view("2H 9H 4C 5C KS", [(0, "KH")])
    con = _console(["AH", "4C", "9H"])
    assert P.HumanPolicy(con, None).play(v) == tuple(parse_cards("9H"))
    assert _refusals(con) == [
        "refused 'AH': you do not hold AH",
        "refused '4C': you must follow suit: seat 0 led KH (hearts), and you hold 2 hearts (2H 9H): play 1 of them",
    ]


def test_refusals_of_a_short_follow_a_wrong_count_and_a_mixed_lead():
    v = _play_view("9H 4C 5C KS", [(0, "KH AH")])
    con = _console(["4C 5C", "9H", "9H 4C"])
    P.HumanPolicy(con, None).play(v)
    r = _refusals(con)
    assert r[0] == ("refused '4C 5C': you must follow suit: seat 0 led KH AH (hearts), and you hold only 9H of it: "
                    "play it and 1 other card")
    assert r[1] == "refused '9H': seat 0 led KH AH (hearts): play exactly 2 cards, not 1"
    v = _play_view("9H 4C 5C KS", [])
    con = _console(["9H 4C", "4C 5C"])
    P.HumanPolicy(con, None).play(v)
    assert _refusals(con) == ["refused '9H 4C': a lead is 1, 2 or 3 cards of one suit: 4C 9H is not one suit"]


def test_refusal_under_must_trump():
    from kaptai.heaven11.config import make_config
    from kaptai.heaven11.engine_reference import follow_options
    from kaptai.heaven11.rules import resolve_rules

    rules = resolve_rules(None, must_trump=True)
    mask = sum(1 << c for c in parse_cards("4C 5C 2H 3H"))
    opts = follow_options(mask, 3, 1, 2, make_config(4, rules))
    v = _play_view("4C 5C 2H 3H", [(0, "KS")], trump=2,
                   options=tuple(tuple(c for c in range(52) if m >> c & 1) for m in opts))
    con = _console(["4C", "2H"])
    P.HumanPolicy(con, rules).play(v)
    assert _refusals(con) == ["refused '4C': you hold no spades and must trump (must_trump): play 1 of your hearts "
                              "(2H 3H)"]


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    from kaptai.records import record_hands

    path = tmp_path_factory.mktemp("h11") / "h.jsonl"
    record_hands("heaven-eleven", path, hands=2, seed=1, policies="greedy")
    return P.read(path)


def test_review_counts_every_legal_call(record):
    """A bid's options are PASS and every bid above the standing one: 51 at an opening call,
    as many as the advisor ranks."""
    bids = [d for d in P.decisions(record) if d.kind == "bid"]
    assert bids[0].options == 51 and bids[0].view.current_bid == -1
    for d in bids:
        assert d.options == 50 - d.view.current_bid
    d = next(d for d in bids if d.view.current_bid >= 0)
    ev = P.evaluate(d, samples=2, seed=0)
    assert len(ev["labels"]) == d.options
    plays = [d for d in P.decisions(record) if d.kind == "play"]
    assert all(d.options == len(d.view.options) >= 2 for d in plays)


def test_bid_hint_names_its_unit(record):
    from kaptai.heaven11.records import UNIT

    d = next(d for d in P.decisions(record) if d.kind == "bid")
    con = _console(["hint", "pass"])
    assert P.HumanPolicy(con, d.extra["rules"], hint_samples=2).bid(d.view) is None
    hint = next(x for x in con.out.getvalue().splitlines() if x.startswith("hint (advisor)"))
    assert UNIT == "points" and hint.count(f" {UNIT}") == 3, hint


def test_describe_hand():
    st = {"type": "settle", "declarer": 2, "contract": "3S", "tricks": [2, 2, 7, 2], "result": [-4, -4, 12, -4]}
    evs = [{"type": "deal"}, st]
    assert P.describe_hand(evs, 0) == ("seat 2 declared 3S and took 7 tricks (7 needed): made; defenders: you "
                                       "(seat 0) 2, seat 1 2, seat 3 2")
    assert P.describe_hand([{"type": "deal"}, {**st, "tricks": [3, 3, 5, 2]}], 2).endswith(
        "short by 2; defenders: seat 0 3, seat 1 3, seat 3 2")
    assert "over by 1" in P.describe_hand([{"type": "deal"}, {**st, "tricks": [2, 1, 8, 2]}], 0)
    draw = {**st, "contract": "0C", "tricks": [3, 3, 4, 3], "result": [0, 0, 0, 0]}
    assert "a draw" in P.describe_hand([{"type": "deal"}, draw], 0)
    forced = [{"type": "deal"}, {"type": "forced", "seat": 2}, {**draw, "tricks": [3, 3, 5, 2]}]
    assert "was forced to play 0C" in P.describe_hand(forced, 0)


def test_describe_hand_of_played_hands(record):
    for h in record.hands:
        st = h.events[-1]
        text = P.describe_hand(h.events, 1)
        assert st["contract"] in text and f"took {st['tricks'][st['declarer']]} trick" in text
        assert any(w in text for w in ("made", "short by", "over by", "a draw"))
