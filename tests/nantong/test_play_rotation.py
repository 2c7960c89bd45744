"""``kaptai play nantong`` rotates the deal as the rules have it (不設連莊).

After every hand the 下家 deals; with 4 players the outgoing dealer sits out the next hand (the
sitter is the dealer's 上家).  The person keeps a seat of the table (``--seat``); the first hand's dealer is
drawn at random from the session's seed (``config.first_dealer``).  Each hand's ``deal`` event says the table's seat of each of
the hand's seats (``seats``); the hand's events number the seats from its dealer, the settle's
``result`` is by the table's seat.  The record replays and reviews by the table's seat; a record
without ``seats`` (every record before, and ``kaptai simulate``'s) reads, replays and reviews as
before, its seats the hand's.
"""

from __future__ import annotations

import argparse
import io
import json
import re

import numpy as np
import pytest

from kaptai.core.play import Console
from kaptai.core.records import RecordError, write_record
from kaptai.nantong import play as P
from kaptai.nantong import review_search as RS
from kaptai.nantong.config import first_dealer, hand_seats, make_config, seat_players


def _auto(out):
    """Console lines: at each prompt ``?``, then the first legal move listed."""
    while True:
        yield "?"
        listed = [x for x in out.getvalue().splitlines() if x.startswith("legal: ")][-1]
        yield listed[len("legal: "):].split(", ")[0]


def _play(tmp_path, *, players, seat, hands, seed=4, options=None, name="rot.jsonl"):
    from kaptai.games import game as lookup

    out = io.StringIO()
    con = Console(ascii=True, lines=_auto(out), out=out)
    rec = str(tmp_path / name)
    args = argparse.Namespace(rules=None, option=options, players=players, seat=seat, ascii=True, hints=False,
                              opponents="max_melds", hands=hands, seed=seed, record=rec)
    res = P.play_command(args, lookup("nantong"), console=con)
    return out.getvalue(), rec, res.table


def _hand_text(text, i):
    """What the session printed from hand ``i``'s start to its result."""
    start = text.index(f"== hand {i}: ")
    return text[start:text.index(f"== hand {i} over", start)]


def _sat_out(record, seat):
    """The hands of a rotating record in which table seat ``seat`` sits out."""
    return {i for i, h in enumerate(record.hands) if len(h.deal["seats"]) == 4 and h.deal["seats"][3] == seat}


@pytest.mark.parametrize("players, seat", [(3, 2), (4, 1)])
def test_the_deal_rotates_and_the_record_replays_and_reviews_by_the_table_seat(tmp_path, players, seat):
    from kaptai.records import read_record, replay

    hands = players + 1
    text, rec, df = _play(tmp_path, players=players, seat=seat, hands=hands)
    record = read_record(rec)
    assert len(record.hands) == hands
    assert record.header["policies"][seat] == "human" and len(record.header["policies"]) == players
    cfg = make_config(players)
    first = first_dealer(players, 4)
    assert f"Seat {first} deals the first hand (drawn at random)" in text
    for i, h in enumerate(record.hands):
        seats = h.deal["seats"]
        assert seats[0] == (first + i) % players, seats  # the 下家 of the last dealer deals
        assert seats == list(hand_seats(cfg, i, first))
        assert f"== hand {i}: seat {(first + i) % players} deals" in text
        if players == 4:
            assert seats[3] == (first + i - 1) % 4  # the sitter: the dealer's 上家 (the first hand too)
            assert len(h.settle["totals"]) == 3 and len(h.settle["result"]) == 4
            assert h.settle["result"][seats[3]] == 0.0  # the sitter scores 0 (dreamer_shares='none')
            assert not any(e.get("seat") == 3 for e in h.events[1:-1])  # the sitter plays no card
        # the hand's events number the seats from its dealer: the person plays the hand's seat
        # (seat - dealer) mod players, unless it sits out
        me = seats.index(seat)
        assert me == (seat - seats[0]) % players
        sits_out = players == 4 and me == 3
        part = _hand_text(text, i)
        if sits_out:
            assert "you sit out this hand (the dealer's shangjia" in part
            assert "> " not in part  # never asked
            assert df.you[i] == 0.0
        else:
            assert "you sit out" not in part and "> " in part
            assert any(e["type"] == "discard" and e["seat"] == me for e in h.events)
        # the settle's result by the table's seat, what the session's table and hand lines show
        assert df.you[i] == h.settle["result"][seat]
        assert [df[f"seat_{s}"][i] for s in range(players)] == h.settle["result"]
        assert f"== hand {i} over: you {h.settle['result'][seat]:+g} " in text
        assert P.describe_hand(h.events, seat) in text
    assert players < 4 or _sat_out(record, seat) and all("you sit out this hand" in _hand_text(text, i)
                                                         for i in _sat_out(record, seat))
    # the table shown at every decision names the person's seat of the table
    assert set(re.findall(r"-- Nantong, seat (\d) \(you\)", text)) == {str(seat)}
    assert f"review it: kaptai review nantong {rec} --seat {seat}" in text
    # replay: every hand reproduced, the totals by the table's seat
    summary = replay(rec)
    assert summary.hands == hands
    assert summary.totals == pytest.approx([sum(df[f"seat_{s}"]) for s in range(players)])
    # review: --seat is the table's seat; its decisions are the person's discards
    rs = RS.read(rec)
    ds = list(RS.decisions(rs))
    assert all(d.seat == rs.hands[d.hand].deal["seats"][d.view.seat] for d in ds)
    mine = [d for d in ds if d.seat == seat]
    assert not [d for d in mine if d.hand in _sat_out(record, seat)]  # sat out
    for i, h in enumerate(record.hands):
        me = h.deal["seats"].index(seat)
        made = [d.made for d in mine if d.hand == i]
        discards = [e["cards"] for e in h.events if e["type"] == "discard" and e["seat"] == me]
        it = iter(discards)
        assert all(m in it for m in made) and len(made) >= len(discards) - 1, (i, made, discards)


def test_review_command_by_the_table_seat(tmp_path, capsys):
    """``kaptai review nantong FILE --seat N`` in-process: the decisions of seat N of the table."""
    from kaptai.cli import main
    from kaptai.core.review import review

    from kaptai.records import read_record

    _, rec, _ = _play(tmp_path, players=4, seat=1, hands=4)
    df = review(RS, rec, "nantong", seats=[1], samples=2, cross_fit=False)
    out = _sat_out(read_record(rec), 1)
    assert out and len(df) and set(df.seat) == {1} and not out & set(df.hand)  # not the hands seat 1 sat out
    want = [(d.hand, d.made) for d in RS.decisions(RS.read(rec)) if d.seat == 1]
    assert list(zip(df.hand, df.made)) == want
    main(["review", "nantong", rec, "--seat", "1", "--samples", "2", "--no-cross-fit", "--summary"])
    out = capsys.readouterr().out
    assert f"seat 1: {len(df)} decisions" in out


def _old_style_record(tmp_path, players=3, seat=1, hands=2, seed=4):
    """A record as ``kaptai play nantong`` wrote it before the deal rotated: the person at the
    same seat of every hand (numbered from its dealer), no ``seats`` in the deals."""
    from kaptai.core.records import make_header
    from kaptai.nantong import records as R

    out = io.StringIO()
    con = Console(ascii=True, lines=_auto(out), out=out)
    cfg = make_config(players)
    human = P.HumanPolicy(con, cfg.rules, players)
    pols = ["max_melds"] * cfg.active
    pols[seat] = human
    header = make_header("nantong", cfg.rules.to_dict(), players, [getattr(x, "name", str(x)) for x in pols],
                         R.unit_of(cfg), seed=seed, hands=hands)
    path = tmp_path / "old.jsonl"
    write_record(path, header, P.hand_events(players, cfg.rules, pols, hands=hands, seed=seed))
    return str(path)


def test_a_record_without_seats_reads_replays_and_reviews_as_before(tmp_path):
    from kaptai.core.review import review
    from kaptai.records import read_record, replay

    rec = _old_style_record(tmp_path)
    record = read_record(rec)
    assert all("seats" not in h.deal for h in record.hands)
    assert all(list(h.deal) == ["type", "hand", "deck", "hands", "turned"] for h in record.hands)
    summary = replay(rec)
    assert summary.hands == 2
    assert summary.totals == pytest.approx([sum(h.settle["result"][s] for h in record.hands) for s in range(3)])
    ds = list(RS.decisions(RS.read(rec)))
    assert ds and all(d.seat == d.view.seat for d in ds)  # the hand's seats
    df = review(RS, rec, "nantong", seats=[1], samples=2, cross_fit=False)
    assert set(df.seat) == {1} and set(df.hand) == {0, 1}
    for i, h in enumerate(record.hands):
        made = list(df[df.hand == i].made)
        discards = [e["cards"] for e in h.events if e["type"] == "discard" and e["seat"] == 1]
        it = iter(discards)
        assert made and all(m in it for m in made)
        text = P.describe_hand(h.events, 1)
        t = h.settle["totals"]
        assert text.endswith(f"totals (hu): seat 0 {t[0]}, seat 1 (you) {t[1]}, seat 2 {t[2]}"), text
    # a record written by kaptai simulate (no seats either) replays as before
    from kaptai.nantong.records import record_hands

    sim = record_hands(tmp_path / "sim.jsonl", 4, hands=2, seed=2, policies="random")
    assert replay(sim).hands == 2
    assert all("seats" not in h.deal for h in read_record(sim).hands)


def _rewrite(src, dst, change):
    lines = [json.loads(x) for x in open(src, encoding="utf-8")]
    change(lines)
    dst.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return str(dst)


def test_seats_that_break_the_rotation_are_refused(tmp_path):
    from kaptai.records import replay

    _, rec, _ = _play(tmp_path, players=4, seat=0, hands=2)
    deals = lambda lines: [x for x in lines if x["type"] == "deal"]  # noqa: E731

    d0 = first_dealer(4, 4)

    def wrong_dealer(lines):
        d = (d0 + 2) % 4  # not the first dealer's 下家
        deals(lines)[1]["seats"] = [(d + k) % 4 for k in range(4)]

    def one_missing(lines):
        del deals(lines)[1]["seats"]

    def not_a_table(lines):
        deals(lines)[0]["seats"] = [0, 1, 1, 3]

    def wrong_order(lines):
        deals(lines)[0]["seats"] = [0, 2, 1, 3]

    for change, why in [(wrong_dealer, f"the deal passes to the last dealer's 下家, seat {(d0 + 1) % 4}"),
                        (one_missing, "in every hand's deal or in none"),
                        (not_a_table, "each of the 4 seats once"),
                        (wrong_order, "the dealer then the seats after it in turn order")]:
        bad = _rewrite(rec, tmp_path / f"{change.__name__}.jsonl", change)
        with pytest.raises(RecordError, match=re.escape(why)) as info:
            replay(bad)
        assert info.value.field == "seats"
        # the review replays as kaptai replay does: the same refusal, also when it reviews only
        # the hand whose deal breaks the rotation
        for hands in ((None, [1]) if change in (wrong_dealer, one_missing) else (None,)):
            with pytest.raises(RecordError, match=re.escape(why)) as info:
                list(P.decisions(P.read(bad), hands))
            assert info.value.field == "seats"


def test_seat_is_a_seat_of_the_table():
    from kaptai.errors import UsageError
    from kaptai.games import game as lookup

    args = argparse.Namespace(rules=None, option=None, players=3, seat=3, ascii=True, hints=False,
                              opponents="max_melds", hands=1, seed=0, record=None)
    with pytest.raises(UsageError, match=r"--seat 3: a table of 3 has seats 0 to 2"):
        P.play_command(args, lookup("nantong"), console=Console(ascii=True, lines=[], out=io.StringIO()))


def test_describe_hand_names_the_table_seats():
    evs = [{"type": "deal", "hand": 2, "seats": [2, 3, 0, 1]},
           {"type": "discard", "seat": 1, "cards": "5w"},
           {"type": "win", "seat": 2, "cards": "5w", "win_type": "discard"},
           {"type": "settle", "win_type": "discard", "totals": [40, 30, 120], "winners": [0, 0, 1],
            "result": [1.0, 0.0, 0.0, 0.0]}]
    assert P.describe_hand(evs, 3) == ("seat 0 completed (hu) on your discard of 5w; hand winner: seat 0 with 120 hu; "
                                       "totals (hu): seat 0 120, seat 2 40, seat 3 (you) 30; seat 1 sat out")
    assert P.describe_hand(evs, 1).endswith("seat 1 (you) sat out")


def test_hand_seats_are_the_match_schedule():
    for cfg in (make_config(3), make_config(4), make_config(4, first_sitter="opposite"),
                make_config(4, first_sitter="xiajia")):
        rows = seat_players(cfg)
        for h in range(len(rows)):
            s = hand_seats(cfg, h)
            assert list(rows[h, :cfg.active]) == list(s[:cfg.active])
            assert rows[h, cfg.active] == (s[cfg.active] if cfg.players > cfg.active else -1)


def test_the_first_dealer_is_drawn_from_the_seed(tmp_path):
    """The rules: the first dealer is uniformly random (no seat-drawing ranking); a session's is
    drawn from its seed (the same seed, the same seat), and every seat of the table is drawn."""
    assert {first_dealer(4, s) for s in range(60)} == {0, 1, 2, 3}
    counts = np.bincount([first_dealer(3, s) for s in range(3000)], minlength=3)
    assert counts.min() > 900  # about 1,000 each
    for seed in (1, 2):
        from kaptai.records import read_record

        _, rec, _ = _play(tmp_path, players=3, seat=0, hands=1, seed=seed, name=f"f{seed}.jsonl")
        assert read_record(rec).hands[0].deal["seats"][0] == first_dealer(3, seed)
