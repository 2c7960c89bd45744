"""``kaptai play nantong``: what the person is told about passes and about sitting out.

At a real table a seat's pass on a discard is seen only as the discard lying there ("nobody
takes it"; rules page §4.3: the claims are 胡 > 明槓 > 碰, the discarder's table sees no
"pass"); the person's screen must not tell the other seats' answers, and must tell every discard
nobody took.  At four players one seat sits out each hand (the outgoing dealer, the new dealer's
上家, §2): the person is told who sits out as each hand starts, and when it is them; under
``-o dreamer_shares=with_dealer`` the sitter (夢家) shares the dealer's result, which the person
is told too (as the hand starts and with the hand's result).

The sessions are driven in this process (the Console's ``lines=``) and read back from the screen
with regular expressions written from the wording, against the record the session wrote.
"""

from __future__ import annotations

import re

import pytest

from tests.nantong.test_play_narration import _auto, _play


def _pass_all(out):
    """Pass on every discard (and say no to every offer), discard the first card listed."""
    return _auto(out, order=("pass", "no"))


def _hand(text, i):
    start = text.index(f"== hand {i}: ")
    end = text.index(f"== hand {i} over", start)
    stop = text.find("\n\n", end + 1)
    return text[start:end], text[end:stop if stop > 0 else None]


# ---------------------------------------------------------------------------------------- passes
def test_a_pass_is_told_only_as_nobody_takes_it(tmp_path):
    """Every discard whose answers were all passes (the record's ``claim`` events with ``pass``,
    the person's among them) is told once as 'nobody takes it'; no answer is ever told."""
    text, record = _play(tmp_path, players=3, seat=1, seed=4, hands=2, lines=_pass_all)
    passed_by_me = 0
    for i, hand in enumerate(record.hands):
        evs = hand.events
        body, _end = _hand(text, i)
        told = [x for x in body.splitlines() if x.endswith(": nobody takes it")]
        dead = [e for e in evs if e["type"] == "dead"]
        assert len(told) == len(dead), (i, len(told), len(dead))
        for line, e in zip(told, dead):
            assert re.search(rf"\b(discards?|adds?) {e['cards']}\b", line), (line, e)
        passed_by_me += sum(1 for e in evs if e["type"] == "claim" and e["seat"] == 1 and e["choice"] == "pass")
        narration = [x for x in body.splitlines() if not x.startswith(("-- Nantong", "turned: ", "discards nobody",
                                                                       "your hand: ", "legal: ", "(type "))
                     and "> " not in x]
        assert not [x for x in narration if re.search(r"\b(pass|passes|declines?)\b", x)], narration
    assert passed_by_me > 0  # the person passed on discards they could have taken


# ---------------------------------------------------------------------------------------- sitting out
def test_who_sits_out_is_told_as_every_hand_starts(tmp_path):
    text, record = _play(tmp_path, players=4, seat=2, seed=5, hands=4)
    for i, hand in enumerate(record.hands):
        seats = hand.events[0]["seats"]
        body, end = _hand(text, i)
        first = body.splitlines()[0]
        if seats[-1] == 2:
            assert "you sit out this hand" in first and "-- Nantong" not in body
            assert re.search(r"seat 2 \(you\) sat out$", end.splitlines()[1]), end
        else:
            assert f"seat {seats[-1]} sits out" in first and "you sit out" not in first
            assert re.search(rf"seat {seats[-1]} sat out$", end.splitlines()[1]), end
        assert f"seat {seats[0]} deals" in first


@pytest.mark.parametrize("seat,seed", [(1, 0), (3, 2)])
def test_a_sitter_sharing_the_dealers_result_is_told_so(tmp_path, seat, seed):
    """``-o dreamer_shares=with_dealer`` (rules page §6.19): the sitter's result is the dealer's.
    The person who sits out is told so as the hand starts ('and share seat D's result') and with
    the hand's result (its value, the settle's); another seat's sharing is told too."""
    text, record = _play(tmp_path, players=4, seat=seat, seed=seed, hands=4,
                         option=[("dreamer_shares", "with_dealer")])
    assert "sits out the next hand (the new dealer's previous player) and shares that dealer's result" in \
        text.splitlines()[0]
    shared = 0
    for i, hand in enumerate(record.hands):
        seats = hand.events[0]["seats"]
        res = hand.events[-1]["result"]
        sitter, dealer = seats[-1], seats[0]
        assert res[sitter] == res[dealer]
        body, end = _hand(text, i)
        first = body.splitlines()[0]
        summary = end.splitlines()[1]
        if sitter == seat:
            assert f"you sit out this hand (the dealer's shangjia, the previous player), and share seat {dealer}'s " \
                   "result (dreamer_shares=with_dealer)" in first, first
            want = f"seat {seat} (you) sat out, sharing the dealer's (seat {dealer}'s) result: {res[seat]:+g}"
            assert summary.endswith(want), summary
            shared += res[seat] != 0
        else:
            assert f"seat {sitter} sits out (the dealer's shangjia, the previous player), sharing the dealer's " \
                   "result" in first, first
            whose = "your" if dealer == seat else f"seat {dealer}'s"
            assert summary.endswith(f"seat {sitter} sat out, sharing the dealer's ({whose}) result: "
                                    f"{res[sitter]:+g}"), summary
    assert shared  # the person sat out a hand the dealer won a share of: their +1 is explained


def test_without_sharing_the_sitter_line_is_unchanged(tmp_path):
    text, _ = _play(tmp_path, players=4, seat=0, seed=1, hands=2)
    assert "sharing the dealer" not in text and "share" not in text.splitlines()[0]
