"""``kaptai play nantong`` tells what the other seats did, checked line by line against the record.

The session is driven in this process (the Console's ``lines=``, as tests/nantong/test_play.py
does); the screen's narration lines are read back with regular expressions written from the
wording, and compared with the record the session wrote (``--record``): every discard with what
became of it (by whom), every kong, the person's draws named, the other seats' draws counted, the
sitter of a 4-player table never told as playing, and at each hand's end the winner's scoring
items adding up to the record's total.
"""

from __future__ import annotations

import argparse
import io
import re

import pytest

from kaptai.core.play import Console
from kaptai.nantong import play as P
from kaptai.nantong.scoring import potou

_TABLE = ("-- Nantong", "turned: ", "discards nobody took: ", "your hand: ", "legal: ", "(type ", "hint ")
_WHO = r"(you|seat \d)"


def _auto(out, order=("win", "yes", "kong", "pong")):
    """At each prompt ``?``, then the first of ``order`` the legal moves list, else the first listed
    (a discard, or ``pass``/``no``)."""
    while True:
        yield "?"
        listed = [x for x in out.getvalue().splitlines() if x.startswith("legal: ")][-1]
        legal = listed[len("legal: "):].split(", ")
        yield next((w for w in order if w in legal), legal[0])


def _play(tmp_path, *, players, seat, seed, hands, ascii=True, option=None, lines=_auto):
    from kaptai.games import game as lookup
    from kaptai.records import read_record

    out = io.StringIO()
    con = Console(ascii=ascii, lines=lines(out), out=out)
    rec = str(tmp_path / "g.jsonl")
    args = argparse.Namespace(rules=None, option=option, players=players, seat=seat, ascii=ascii, hints=False,
                              opponents="max_melds", hands=hands, seed=seed, record=rec)
    P.play_command(args, lookup("nantong"), console=con)
    return out.getvalue(), read_record(rec)


def _hand_text(text, i):
    start = text.index(f"== hand {i}: ")
    end = text.index(f"== hand {i} over", start)
    return text[start:end], text[end:text.find("\n\n", end + 1) if text.find("\n\n", end + 1) > 0 else None]


def _who(word, me):
    return me if word == "you" else int(word.split()[1])


def _narration(lines):
    """The narration lines of a hand's screen (not the table, the prompts or the hand's first line)."""
    return [x for x in lines if x and not x.startswith(_TABLE) and not x.startswith("== hand") and "> " not in x]


def _told(lines, me):
    """What the narration lines say, as tuples by the table's seat: ('discard', seat, card, fate,
    taker) with fate 'dead', 'pong', 'kong' or 'win'; ('kong', seat, card, 'ckong'/'mkong'); ('draw',
    seat, n) for another seat's draws; ('mydraw', card); ('expose', seat, card, n); ('self', seat,
    card); every line must say one of them."""
    out = []
    for line in lines:
        m = re.fullmatch(_WHO + r" (?:draws(?: (\d+) cards)? and )?(discards?|adds?|declares?|completes?|lays?) "
                                r"(.*)", line)
        if m is None:
            m2 = re.fullmatch(r"seat (\d) draws(?: (\d+) cards)?", line)
            m3 = re.fullmatch(r"you draw (\S+)", line)
            m4 = re.fullmatch(_WHO + r" also wins? on (\S+)", line)
            m5 = re.fullmatch(_WHO + r" \(the dealer\) completes? at the deal", line)
            if m2:
                out.append(("draw", int(m2.group(1)), int(m2.group(2) or 1)))
            elif m3:
                out.append(("mydraw", m3.group(1)))
            elif m4:
                out.append(("win_also", _who(m4.group(1), me), m4.group(2)))
            elif m5:
                out.append(("self", _who(m5.group(1), me), ""))
            else:
                raise AssertionError(f"a narration line not understood: {line!r}")
            continue
        s = _who(m.group(1), me)
        if re.match(_WHO + r" draws(?: \d+ cards)? and ", line):
            out.append(("draw", s, int(m.group(2) or 1)))
        verb, rest = m.group(3), m.group(4)
        if verb.startswith("discard"):
            d = re.fullmatch(r"(\S+): (nobody takes it|" + _WHO + r" (pongs? it \(pong:\S+\)|wins? on it"
                                                          r"|takes? it for an open kong \(mkong:\S+\)))", rest)
            assert d, line
            card = d.group(1)
            if d.group(2) == "nobody takes it":
                out.append(("discard", s, card, "dead", None))
            else:
                fate = {"pong": "pong", "take": "kong", "win": "win"}[d.group(4).split()[0].rstrip("s")]
                out.append(("discard", s, card, fate, _who(d.group(3), me)))
        elif verb.startswith("add"):
            d = re.fullmatch(r"(\S+) to (?:its|your) pong: an open kong \(mkong:\S+\)(?:: " + _WHO
                             + r" robs? the kong and wins?)?", rest)
            assert d, line
            out.append(("kong", s, d.group(1), "mkong"))
            if d.group(2):
                out.append(("rob", _who(d.group(2), me), d.group(1)))
        elif verb.startswith("declare"):
            d = re.fullmatch(r"a concealed kong of (\S+), shown in (?:its|your) sets \(ckong:\S+\)", rest)
            assert d, line
            out.append(("kong", s, d.group(1), "ckong"))
        elif verb.startswith("complete"):
            d = re.fullmatch(r"the hand, self-drawn with (\S+)|at the deal", rest)
            assert d, line
            out.append(("self", s, d.group(1) or ""))
        else:
            d = re.fullmatch(r"out (\d) (\S+), a (?:qishou set|hezi)", rest)
            assert d, line
            out.append(("expose", s, d.group(2), int(d.group(1))))
    return out


def _expected(events, me_table):
    """The same tuples from the record's events (the table's seats from the deal's ``seats``)."""
    seats = events[0]["seats"]
    out = []
    for i, e in enumerate(events):
        t = e["type"]
        if t in ("deal", "claim", "meld", "dead", "settle"):
            continue
        s = seats[e["seat"]]
        if t == "draw":
            if s == me_table:
                out.append(("mydraw", e["cards"]))
            elif out and out[-1][0] == "draw" and out[-1][1] == s:
                out[-1] = ("draw", s, out[-1][2] + 1)
            else:
                out.append(("draw", s, 1))
        elif t == "discard":
            fate = next(x for x in events[i + 1:] if x["type"] in ("meld", "dead", "win"))
            if fate["type"] == "dead":
                out.append(("discard", s, e["cards"], "dead", None))
            elif fate["type"] == "meld":
                out.append(("discard", s, e["cards"], fate["meld"], seats[fate["seat"]]))
            else:
                out.append(("discard", s, e["cards"], "win", seats[fate["seat"]]))
        elif t == "kong":
            out.append(("kong", s, e["cards"], e["kong"]))
        elif t == "expose":
            out.append(("expose", s, e["cards"], e["count"]))
        elif t == "win":
            prev = next((x for x in reversed(events[:i]) if x["type"] in ("discard", "kong", "win")), None)
            if e["win_type"] in ("self", "tiancheng"):
                out.append(("self", s, e["cards"]))
            elif prev is not None and prev["type"] == "kong":
                out.append(("rob", s, e["cards"]))
            elif prev is not None and prev["type"] == "win":
                out.append(("win_also", s, e["cards"]))
    return out


def _merge_draws(told):
    """A seat's draws told with its move come before it: merge them with a draw line just before."""
    out = []
    for x in told:
        if x[0] == "draw" and out and out[-1][0] == "draw" and out[-1][1] == x[1]:
            out[-1] = ("draw", x[1], out[-1][2] + x[2])
        else:
            out.append(x)
    return out


CASES = [  # (players, seat, seed, hands): the review's table, and a 4-player table whose person sits out once
    (3, 1, 7, 4),
    (4, 2, 5, 4),
]


@pytest.fixture(scope="module", params=CASES, ids=lambda c: f"p{c[0]}-seat{c[1]}-seed{c[2]}")
def session(request, tmp_path_factory):
    players, seat, seed, hands = request.param
    text, record = _play(tmp_path_factory.mktemp("narr"), players=players, seat=seat, seed=seed, hands=hands)
    return request.param, text, record


def test_every_move_is_told_once_by_the_right_seat_in_order(session):
    (players, seat, _seed, _hands), text, record = session
    told_any = {"other_meld": 0, "kong": 0, "mydraw": 0}
    for i, hand in enumerate(record.hands):
        evs = hand.events
        seats = evs[0]["seats"]
        body, _end = _hand_text(text, i)
        lines = _narration(body.splitlines())
        if seat not in seats[:len(evs[0]["hands"])]:  # the person sits out: nothing told, nothing asked
            assert lines == [] and "-- Nantong" not in body, body
            continue
        told = _merge_draws(_told(lines, seat))
        want = _expected(evs, seat)
        assert told == want, (i, [x for x in zip(told, want) if x[0] != x[1]][:3])
        told_any["other_meld"] += sum(1 for x in want if x[0] == "discard" and x[3] in ("pong", "kong")
                                      and x[4] != seat)
        told_any["kong"] += sum(1 for x in want if x[0] == "kong" or (x[0] == "discard" and x[3] == "kong"))
        told_any["mydraw"] += sum(1 for x in want if x[0] == "mydraw")
    # the sessions chosen show the other seats' claims and the person's draws
    assert told_any["other_meld"] > 0 and told_any["kong"] > 0 and told_any["mydraw"] > 0, told_any


def test_the_sitter_is_never_told_as_playing(session):
    (players, seat, _seed, _hands), text, record = session
    if players == 3:
        pytest.skip("no sitter at 3 players")
    for i, hand in enumerate(record.hands):
        sitter = hand.events[0]["seats"][-1]
        body, _end = _hand_text(text, i)
        for line in body.splitlines()[1:]:  # the hand's first line says who sits out
            assert not re.search(rf"\bseat {sitter}\b", line), line
    assert any(seat == h.events[0]["seats"][-1] for h in record.hands)  # the person sat out once


def test_the_table_names_the_drawn_card_and_the_discards_by_seat(session):
    (_players, seat, _seed, _hands), text, record = session
    headers = 0
    for i, _hand in enumerate(record.hands):
        body, _end = _hand_text(text, i)
        last_draw, dead = None, {}
        for line in body.splitlines():
            m = re.fullmatch(r"you draw (\S+)", line)
            if m:
                last_draw = m.group(1)
            elif line.startswith("you ") or re.search(r": you (pong|take) it", line):
                last_draw = None  # the person's move: the drawn card is played or the turn is a claim's
            m = re.fullmatch(_WHO + r" (?:draws(?: \d+ cards)? and )?discards? (\S+): nobody takes it", line)
            if m:
                dead.setdefault(_who(m.group(1), seat), []).append(m.group(2))
            m = re.fullmatch(r"-- Nantong, seat \d \(you\): (.*); stock \d+ --", line)
            if m and m.group(1).startswith(("your discard", "your hand is complete", "a kong is open to you")):
                headers += 1
                drew = re.search(r" \(you drew (\S+)\)$", m.group(1))
                assert (drew.group(1) if drew else None) == last_draw, (line, last_draw)
            if line.startswith("discards nobody took: "):
                want = "; ".join(f"seat {p}{' (you)' if p == seat else ''}: {' '.join(ks)}"
                                 for p, ks in sorted(dead.items())) or "none"
                assert line == f"discards nobody took: {want}"
        assert "last discards" not in body
    assert headers and "(you drew " in text


def test_each_hand_ends_with_the_winners_scoring_items(session):
    from kaptai.nantong.rules import resolve_rules

    (_players, seat, _seed, _hands), text, record = session
    rules = resolve_rules(None)
    for i, hand in enumerate(record.hands):
        evs = hand.events
        settle, seats = evs[-1], evs[0]["seats"]
        _body, end = _hand_text(text, i)
        hows = re.findall(r"^   how (you|seat \d) scored \((\d+) hu\): (.*)$", end, re.M)
        completers = {int(e["seat"]) for e in evs if e["type"] == "win"}
        want = {seats[s] for s, w in enumerate(settle["winners"]) if w} | {seats[s] for s in completers}
        assert {_who(w, seat) for w, _t, _r in hows} == want, end
        scores = P.hand_scores(evs, rules)
        for who, total, rest in hows:
            s = seats.index(_who(who, seat))
            assert int(total) == settle["totals"][s] == scores[s].total
            m = re.fullmatch(r"(.*?) = (\d+)(?:, x(\d)(?: for hunhe)? = (\d+))?(?:, rounded up to tens: (\d+))?", rest)
            assert m, rest
            items = [int(x) for x in re.findall(r" (\d+)(?: \+|$)", m.group(1))]
            assert sum(items) == int(m.group(2)) == scores[s].chenghu + scores[s].dihu + scores[s].other
            value = int(m.group(4) or m.group(2))
            assert int(m.group(5) or value) == int(total) == potou(value)
            names = [label for label, _v in scores[s].items]
            assert len(items) == len(names)
            if s in completers:  # the win type, in the rules page's terms
                assert re.match(r"(tahe|hunhe|qinghe) \(", m.group(1)), rest


def test_hand_scores_are_the_settles_totals():
    from kaptai.nantong.records import hand_events
    from kaptai.nantong.rules import resolve_rules

    for opts in ({}, {"rob_kong": True, "multi_win": True}, {"yazhuang_double": True, "discard_triplet": "concealed"}):
        rules = resolve_rules(None, **opts)
        for players, pol in ((3, "random"), (4, "max_melds")):
            for evs in hand_events(players, rules, policies=pol, hands=15, seed=2):
                got = [s.total for s in P.hand_scores(evs, rules)]
                assert got == evs[-1]["totals"]


def test_narration_of_a_robbed_kong_a_double_win_and_an_expose():
    n = P.Narration(2, seats=[1, 2, 0])
    assert n({"type": "expose", "seat": 1, "cards": "bh", "count": 4}) == ["seat 2 lays out 4 bh, a qishou set"]
    assert n({"type": "draw", "seat": 1, "cards": "1w"}) == []
    assert n({"type": "expose", "seat": 2, "cards": "5t", "count": 2}) == ["seat 2 draws", "you lay out 2 5t, a hezi"]
    assert n({"type": "draw", "seat": 0, "cards": "3w"}) == []
    assert n({"type": "kong", "seat": 0, "cards": "qz", "kong": "mkong"}) == []
    assert n({"type": "claim", "seat": 2, "cards": "qz", "choice": "win"}) == []
    assert n({"type": "win", "seat": 2, "cards": "qz", "win_type": "discard"}) == [
        "seat 1 draws and adds qz to its pong: an open kong (mkong:qz): you rob the kong and win"]
    m = P.Narration(0)
    assert m({"type": "discard", "seat": 1, "cards": "5b"}) == []
    assert m({"type": "win", "seat": 2, "cards": "5b", "win_type": "discard"}) == ["seat 1 discards 5b: seat 2 wins on it"]
    assert m({"type": "win", "seat": 0, "cards": "5b", "win_type": "discard"}) == ["you also win on 5b"]
    k = P.Narration(0)
    assert k({"type": "kong", "seat": 1, "cards": "qz", "kong": "mkong"}) == []
    assert k({"type": "draw", "seat": 1, "cards": "2w"}) == ["seat 1 adds qz to its pong: an open kong (mkong:qz)"]
    assert k.flush() == ["seat 1 draws"] and k.flush() == []
    z = P.Narration(1, ascii=False)
    assert z({"type": "win", "seat": 0, "cards": "", "win_type": "tiancheng"}) == ["seat 0 (the dealer) completes at "
                                                                                  "the deal (天成)"]


def test_chinese_names_in_the_breakdown(tmp_path):
    text, record = _play(tmp_path, players=3, seat=0, seed=10, hands=1, ascii=False)
    hows = re.findall(r"^   how .* scored \(\d+ 胡\): (.*)$", text, re.M)
    assert hows and all(re.search(r"(塌和|葷和|清和|明刻|暗刻|明槓|暗槓|起手|和子)", h) for h in hows), hows
