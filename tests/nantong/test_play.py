"""``kaptai play nantong`` in this process: the person's prompts driven by the Console's ``lines=``.

The scripted answers (:func:`_auto`) type ``?`` at each prompt and then a move from the legal
ones listed, so that a seed plays the same hand every time.
"""

from __future__ import annotations

import argparse
import io
import re

import pytest

from kaptai.core.play import Console, QuitGame
from kaptai.nantong import play as P
from kaptai.nantong.cards import format_card
from kaptai.nantong.policies import PlayerView
from kaptai.nantong.rules import resolve_rules


def _auto(out, pick=None):
    """Lines for ``Console(lines=...)``: at each prompt ``?``, then ``pick(legal)`` (default the
    first legal move listed)."""
    while True:
        yield "?"
        listed = [x for x in out.getvalue().splitlines() if x.startswith("legal: ")][-1]
        legal = listed[len("legal: "):].split(", ")
        yield pick(legal) if pick else legal[0]


def _play(tmp_path, *, seed=4, hands=1, players=3, seat=0, pick=None, name="g.jsonl"):
    from kaptai.games import game as lookup

    out = io.StringIO()
    con = Console(ascii=True, lines=_auto(out, pick), out=out)
    rec = str(tmp_path / name)
    args = argparse.Namespace(rules=None, option=None, players=players, seat=seat, ascii=True, hints=False,
                              opponents="max_melds", hands=hands, seed=seed, record=rec)
    P.play_command(args, lookup("nantong"), console=con)
    return out.getvalue(), rec


def test_claim_prompt_names_the_discarder_and_lists_the_answers(tmp_path):
    from kaptai.records import read_record, replay

    text, rec = _play(tmp_path, pick=lambda legal: "pong" if "pong" in legal else legal[0])
    heads = re.findall(r"-- Nantong, seat 0 \(you\): seat (\d) discards (\S+); stock \d+ --", text)
    prompts = re.findall(r"^answer \(([a-z/]+)\)> pong$", text, re.M)
    assert heads and len(prompts) == len(heads), text[-3000:]
    assert all("pong" in p.split("/") and p.endswith("pass") for p in prompts)
    assert "seat discards" not in text
    # the discarder named is the seat whose discard the record shows before each of seat 0's answers
    evs = read_record(rec).hands[0].events
    want = []
    for i, e in enumerate(evs):
        if e["type"] == "claim" and e["seat"] == 0:
            d = next(x for x in reversed(evs[:i]) if x["type"] == "discard")
            want.append((str(d["seat"]), d["cards"]))
    assert heads == want
    assert replay(rec).hands == 1


def _kong_view():
    hand = [0] * 30
    for k in (3, 3, 3, 3, 20, 5, 6, 7):
        hand[k] += 1
    return PlayerView(seat=0, hand=tuple(hand), melds=((("pong", 20),), (), ()), discards=(), turned=(),
                      stock_left=40)


@pytest.mark.parametrize("typed", ["kong", "4w", "ckong:4w", "kong 4w", "四萬", "yes"])
def test_kong_prompt_takes_kong_or_the_card_when_one_kong_is_open(typed):
    out = io.StringIO()
    con = Console(ascii=True, lines=[typed], out=out)
    pol = P.HumanPolicy(con, resolve_rules(None), 3)
    assert pol.self_kong(_kong_view(), (("ckong", 3),)) == ("ckong", 3)
    assert "(kong/no)> " in out.getvalue() and "refused" not in out.getvalue()


def test_kong_prompt_with_two_kongs_asks_for_the_card():
    out = io.StringIO()
    con = Console(ascii=True, lines=["kong", "ckong:3b", "3b", "no"], out=out)
    pol = P.HumanPolicy(con, resolve_rules(None), 3)
    opts = (("ckong", 3), ("mkong", 20))
    assert pol.self_kong(_kong_view(), opts) == ("mkong", 20)  # 'kong' and a wrong type refused first
    text = out.getvalue()
    assert text.count("refused") == 2 and "2 kongs are open to you: name the card (4w, 3b)" in text
    assert "kong (4w/3b/no)> " in text
    assert P.HumanPolicy(Console(ascii=True, lines=["no"], out=io.StringIO()), resolve_rules(None), 3).self_kong(
        _kong_view(), opts) is None


@pytest.mark.parametrize("settlement, unit", [("rank_only", None), ("pairwise_difference", "points")])
def test_hint_shows_the_unit_of_the_value(settlement, unit):
    from kaptai.nantong.records import hand_events

    rules = resolve_rules(None, settlement=settlement)
    out = io.StringIO()
    con = Console(ascii=True, lines=["hint", "quit"], out=out)
    human = P.HumanPolicy(con, rules, 3, hint_samples=8)
    with pytest.raises(QuitGame):
        next(hand_events(3, rules, policies=[human, "max_melds", "max_melds"], hands=1, seed=1))
    hint = next(x for x in out.getvalue().splitlines() if x.startswith("hint (advisor): "))
    values = re.findall(r"value (\S+)( points)? P\(win\)", hint)
    assert len(values) == 3, hint
    if unit is None:  # a win share: a probability, printed without a sign or a unit
        assert all(not v.startswith("+") and 0 <= float(v) <= 1 and not u for v, u in values), hint
    else:
        assert all(v[0] in "+-" and u == " points" for v, u in values), hint


def test_each_hand_says_who_won_and_how(tmp_path):
    from kaptai.records import read_record

    text, rec = _play(tmp_path, seed=10, hands=2)
    hands = read_record(rec).hands
    for h in hands:
        line = P.describe_hand(h.events, 0)
        assert line in text
    # seed 10 (the deal rotating: seat 1 deals hand 1): hand 0 won on a discard of seat 0's, hand 1
    # drawn (荒牌)
    first, second = (P.describe_hand(h.events, 0) for h in hands)
    assert re.match(r"seat [12] completed \(hu\) on your discard of \w+; hand winner: seat [12] with \d+ hu; "
                    r"totals \(hu\): seat 0 \(you\) \d+, seat 1 \d+, seat 2 \d+$", first), first
    assert second.startswith("a drawn hand (huang): nobody completed"), second
    assert hands[1].events[-1]["win_type"] == "huang"


def _settle(win_type, totals, winners, result):
    return {"type": "settle", "win_type": win_type, "totals": totals, "winners": winners, "result": result}


def test_describe_hand_win_types():
    selfdrawn = [{"type": "win", "seat": 2, "cards": "9w", "win_type": "self"},
                 _settle("self", [10, 20, 250], [0, 0, 1], [0.0, 0.0, 1.0])]
    assert P.describe_hand(selfdrawn, 2) == ("seat 2 (you) completed (hu) self-drawn with 9w; hand winner: seat 2 "
                                             "(you) with 250 hu; totals (hu): seat 0 10, seat 1 20, seat 2 (you) 250")
    robbed = [{"type": "kong", "seat": 1, "cards": "qz", "kong": "mkong"},
              {"type": "win", "seat": 0, "cards": "qz", "win_type": "discard"},
              _settle("discard", [90, 30, 20], [1, 0, 0], [1.0, 0.0, 0.0, 0.0])]
    text = P.describe_hand(robbed, 3)
    assert text.startswith("seat 0 completed (hu), robbing seat 1's kong of qz; hand winner: seat 0 with 90 hu")
    assert text.endswith("seat 3 (you) sat out")
    tian = [{"type": "win", "seat": 0, "cards": "", "win_type": "tiancheng"},
            _settle("tiancheng", [100, 30, 20], [1, 0, 0], [1.0, 0.0, 0.0])]
    assert P.describe_hand(tian, 1).startswith("seat 0 completed (hu) complete at the deal;")
    assert "天成" in P.describe_hand(tian, 1, ascii=False)
    huang = [_settle("huang", [30, 30, 20], [1, 1, 0], [0.5, 0.5, 0.0])]
    assert P.describe_hand(huang, 0, ascii=False).startswith("荒牌")
    assert "hand winners: seat 0 (you) and seat 1 with 30 hu each" in P.describe_hand(huang, 0)
    assert format_card(3) == "4w"


@pytest.mark.parametrize("line, why", [("2w 3w", "one card at a time: '2w 3w' names 2"),
                                       ("pong", "'pong' is not asked here: discard a card of your hand"),
                                       ("xx", "unknown card token 'xx'")])
def test_a_discard_refusal_says_why(line, why):
    """At the discard prompt: two cards, an answer word, an unknown token: each refused with the
    reason (no '(item 1)')."""
    from kaptai.core.play import one_card
    from kaptai.errors import UsageError
    from kaptai.nantong.cards import parse_card

    with pytest.raises(UsageError) as info:
        one_card(line, parse_card, words=("win", "pong", "kong", "pass"), here="discard a card of your hand")
    assert str(info.value) == why
