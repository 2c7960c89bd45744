"""``kaptai play heaven-eleven``: the advisor's hint at a card play (every legal play with its
value in points, best first, each label as the person types it), priced as ``kaptai review``
prices that play; the review of a hand redealt after a passout."""

from __future__ import annotations

import argparse
import inspect
import io
import re

import pandas as pd
import pytest

from kaptai.core.play import Console
from kaptai.heaven11 import play as P
from kaptai.heaven11.cards import format_cards, parse_cards

HEAD = re.compile(r"^-- Heaven Eleven, seat \d+(.*) --$", re.M)
HINT = re.compile(r"^hint \(advisor\): .*(?:\n {16}.*)*", re.M)
ITEM = re.compile(r"(\d+)\. (.+?)  score ([+-]\d+\.\d\d) points")


class Script:
    """Scripted input that reads the console's output: at a call ``pass``; at a play ``?`` (the
    legal plays), ``hint``, then one of the hint's labels (a different one at each play)."""

    def __init__(self, ask_hint: bool = True):
        self.con: Console | None = None
        self.ask_hint = ask_hint
        self.pos = self.k = self.hands = self.head = 0  # output read, decisions, hands over, last header at
        self.auction = True
        self.step: dict[int, int] = {}
        #: per play decision: (hand, your hand, legal labels, hint's [(rank, label, value)], typed)
        self.plays: list[tuple[int, str, list[str], list[tuple[int, str, float]], str]] = []

    def __iter__(self) -> Script:
        return self

    def _read(self) -> str:
        """The console's output; the decisions and hands seen so far counted."""
        assert self.con is not None
        out = self.con.out.getvalue()
        at = self.pos
        for m in HEAD.finditer(out, self.pos):
            self.hands += out.count("\n== hand ", at, m.start())
            self.k, self.head, self.auction, at = self.k + 1, m.end(), "the auction" in m.group(1), m.end()
        self.hands += out.count("\n== hand ", at)
        self.pos = len(out)
        return out

    def __next__(self) -> str:
        out = self._read()
        if self.auction:
            return "pass"
        st = self.step.get(self.k, 0)
        self.step[self.k] = st + 1
        tail = out[self.head:]
        if st == 0:
            return "?"
        if st == 1 and self.ask_hint:
            return "hint"
        legal = re.findall(r"^legal: (.*)$", tail, re.M)[-1].split(", ")
        hints = HINT.findall(tail)
        assert len(hints) == 1, tail
        items = [(int(r), lab, float(v)) for r, lab, v in ITEM.findall(hints[0])]
        mine = re.findall(r"^your hand: (.*)$", tail, re.M)[-1]
        typed = items[len(self.plays) % len(items)][1]
        self.plays.append((self.hands, mine, legal, items, typed))
        return typed


def _play(monkeypatch, script: Script, *, hints: bool = False, ascii: bool = True, seed: int = 3, hands: int = 1,
          record: str | None = None):
    """``kaptai play heaven-eleven`` (its command function) at seat 1 against greedy, the
    console's input scripted."""
    from kaptai.games import game

    con = Console(ascii=ascii, lines=script, out=io.StringIO(), hints=hints)
    script.con = con
    monkeypatch.setattr(P, "Console", lambda ascii=None, hints=False: con)
    args = argparse.Namespace(rules=None, option=None, ascii=ascii, hints=hints, opponents="greedy", seat=1,
                              seed=seed, hands=hands, record=record)
    out = P.play_command(args, game("heaven-eleven"))
    return out, con.out.getvalue()


def _check_hinted_plays(script: Script, text: str) -> None:
    assert script.plays, text[-2000:]
    for _hand, _mine, legal, items, typed in script.plays:
        labels = [lab for _r, lab, _v in items]
        # every legal play, each once, and nothing else: exactly what the prompt takes
        assert sorted(labels) == sorted(legal) and len(set(labels)) == len(labels)
        values = [v for _r, _lab, v in items]
        assert values == sorted(values, reverse=True)  # best first
        assert [r for r, _lab, _v in items] == list(range(1, len(items) + 1))
        assert typed in legal
    assert "refused" not in text  # every label typed was taken
    assert "no hint" not in text


@pytest.mark.timeout(300)
def test_hint_at_every_play_of_the_play_loop(monkeypatch, tmp_path):
    """Through the play command: ``hint`` at each play lists every legal play, best first, in
    points; typing a label plays it; the game finishes and its record replays."""
    from kaptai.records import replay

    rec = str(tmp_path / "h.jsonl")
    script = Script()
    df, text = _play(monkeypatch, script, record=rec)
    _check_hinted_plays(script, text)
    assert sum(len(typed.split()) for *_x, typed in script.plays) == 13 and len(df.table) == 1  # the 13 cards
    assert all(x.isascii() for x in text)
    assert replay(rec).hands == 1
    # the plays made are the hint's labels typed
    record = P.read(rec)
    made = [e["cards"] for e in record.hands[0].events if e["type"] == "play" and e["seat"] == 1]
    assert made == [typed for *_x, typed in script.plays]


@pytest.mark.timeout(300)
def test_hint_prices_a_play_as_the_review_does(monkeypatch, tmp_path):
    """The hint at a play is the review's table of that play (the same inputs, built by
    play_inputs, priced by play_advice) at the hint's samples and seed."""
    rec = str(tmp_path / "h.jsonl")
    script = Script()
    _play(monkeypatch, script, record=rec, seed=5, hands=2)
    hinted = {(h, mine): items for h, mine, _legal, items, _typed in script.plays}
    record = P.read(rec)
    samples = inspect.signature(P.HumanPolicy).parameters["hint_samples"].default
    checked = 0
    for d in P.decisions(record):
        if d.kind != "play" or d.seat != 1:
            continue
        items = hinted[(d.hand, format_cards(sorted(d.view.hand)))]
        ev = P.evaluate(d, samples=samples, seed=len(d.view.played))
        assert [lab for _r, lab, _v in items] == ev["labels"]
        assert [v for _r, _lab, v in items] == pytest.approx(list(ev["value"]), abs=0.0051)
        checked += 1
    assert checked >= 10


@pytest.mark.timeout(300)
def test_hints_on_shows_the_hint_before_each_play(monkeypatch):
    """With --hints the hint comes before every decision, the plays' too, without typing it; in
    symbols (no --ascii) the labels are still the codes typed."""
    script = Script(ask_hint=False)
    _df, text = _play(monkeypatch, script, hints=True, ascii=False, seed=4)
    _check_hinted_plays(script, text)
    for block in HINT.findall(text):
        assert block.isascii(), block
    assert any(not x.isascii() for x in text)  # the hands are shown in suit symbols


def test_no_hint_typed_none_shown(monkeypatch):
    """Hints off (no --hints) and 'hint' never typed: no hint is shown, at a call or at a play."""

    class Firsts(Script):
        def __next__(self) -> str:
            out = self._read()
            if self.auction:
                return "pass"
            legal = re.findall(r"^legal: (.*)$", out[self.head:], re.M)
            return legal[-1].split(", ")[0] if legal else "?"

    _df, text = _play(monkeypatch, Firsts())
    assert "hint (advisor)" not in text and "== hand 0 over" in text


def test_the_hint_never_offers_an_illegal_play(monkeypatch):
    """A play the prompt would refuse in the advisor's table: no hint is shown, the game goes on."""
    real = P.play_advice

    def with_an_illegal_play(view, rules, **kw):
        df = real(view, rules, **kw)
        held = {c for o in view.options for c in o}
        bad = next(c for c in range(52) if c not in held)
        row = pd.DataFrame([{**df.iloc[0].to_dict(), "option": format_cards([bad]), "value": 99.0}])
        return pd.concat([row, df], ignore_index=True)

    monkeypatch.setattr(P, "play_advice", with_an_illegal_play)

    class HintThenQuit(Script):
        def __next__(self) -> str:
            assert self.con is not None
            out = self.con.out.getvalue()
            last = list(HEAD.finditer(out))[-1]
            if "the auction" in last.group(1):
                return "pass"
            return "quit" if "hint" in out[last.end():] else "hint"

    _df, text = _play(monkeypatch, HintThenQuit())
    assert "(no hint: the advisor priced" in text and "+99.00" not in text and "hint (advisor)" not in text
    assert "game ended (quit at the prompt)" in text


def test_hint_at_a_play_needs_the_plays_in_order():
    """A view built by hand with cards played but no history (the plays in order): 'hint' at a
    play says why there is none, and the play goes on."""
    from kaptai.heaven11.policies import PlayerView

    hand = tuple(sorted(parse_cards("2H 9H 4C 5C KS")))
    opts = ((hand[2],), (hand[3],))
    v = PlayerView(1, "play", hand, 0, (), 12, 0, 2, 2, ((0, tuple(parse_cards("KH"))),), opts, (0,) * 4,
                   tuple(parse_cards("KH")), (0,) * 4, None)
    con = Console(ascii=True, lines=["hint", "9H"], out=io.StringIO())
    assert P.HumanPolicy(con, None).play(v) == (hand[3],)
    assert "(no hint: the hand's plays in order are not known here" in con.out.getvalue()


def test_review_of_a_hand_redealt_after_a_passout(tmp_path):
    """The passes of a passed-out deal are no part of the auction of the deal played (the
    review priced such a hand's plays on an auction of four passes and a bid, and failed)."""
    from kaptai.records import record_hands

    path = tmp_path / "p.jsonl"
    record_hands("heaven-eleven", path, hands=1, seed=38, policies="greedy", bidding="underbid")
    record = P.read(path)
    assert any(e["type"] == "passout" for e in record.hands[0].events)
    d = next(d for d in P.decisions(record) if d.kind == "play")
    assert d.extra["auction"] == "2H PASS PASS PASS"
    ev = P.evaluate(d, samples=4, seed=0)
    assert len(ev["labels"]) == d.options


@pytest.mark.timeout(300)
def test_hint_after_passouts_and_a_forced_contract(monkeypatch):
    """Every deal passed out (the others never bid, the person passes) until the dealer must play
    0C: each play's view holds the hand's plays in order (the record's), the auction is None, and
    the hint prices the plays of the last deal."""
    from kaptai.core.play import seat_policies
    from kaptai.heaven11.records import hand_events
    from kaptai.heaven11.rules import resolve_rules

    rules = resolve_rules(None)
    script = Script()
    con = Console(ascii=True, lines=script, out=io.StringIO())
    script.con = con
    human = P.HumanPolicy(con, rules, hint_samples=8)
    seen = []
    orig = P.HumanPolicy.play

    def play(self, view):
        seen.append(view)
        return orig(self, view)

    monkeypatch.setattr(P.HumanPolicy, "play", play)
    pols = seat_policies(human, ["greedy"] * 3, 2)
    hands = list(hand_events(None, rules, policies=pols, bidding=["never"] * 4, hands=1, seed=2))
    text = con.out.getvalue()
    _check_hinted_plays(script, text)
    evs = hands[0]
    assert [e["type"] for e in evs].count("passout") >= 1 and any(e["type"] == "forced" for e in evs)
    plays = [(e["seat"], sorted(parse_cards(e["cards"]))) for e in evs if e["type"] == "play"]
    for v in seen:  # the view's plays in order: the record's, up to the person's play
        assert [(q, sorted(c)) for q, c in v.history] == plays[:len(v.history)]
        assert P.play_inputs(v)["auction"] is None
    assert len(seen) >= 5


def test_hint_types_the_kind_of_a_free_follow_in_progress():
    """Under short_follow='free' another seat's 2-3 trumps without the suit led, in the play in
    progress, may be a trump or a free discard: the hint (play_inputs) types the kind the engine
    made (the seat shown void, or not), so the advisor never refuses such a position."""
    import numpy as np

    from kaptai.heaven11.policies import Policy
    from kaptai.heaven11.records import hand_events
    from kaptai.heaven11.rules import resolve_rules

    rules = resolve_rules(None, short_follow="free")

    class Trumpy(Policy):
        """Plays trumps when it can (70%), to meet the two-way follows often; keeps its views."""
        name = "trumpy"

        def __init__(self, rng, views):
            self.rng, self.views = rng, views

        def bid(self, view):
            return "PASS"

        def play(self, view):
            if len(view.options) >= 2:
                self.views.append(view)
            trumps = [o for o in view.options if all(c // 13 == view.trump for c in o)]
            pick = trumps if trumps and self.rng.random() < 0.7 else list(view.options)
            return format_cards(list(pick[int(self.rng.integers(0, len(pick)))]))

    rng = np.random.default_rng(7)
    views: list = []
    pols = [Trumpy(rng, views) for _ in range(4)]
    for _ in hand_events(None, rules, policies=pols, hands=12, seed=11):  # every seat passes: 0C, clubs trumps
        pass
    typed = 0
    for v in views:
        x = P.play_inputs(v, rules)
        typed += (" trump" in x["plays"]) or (" discard" in x["plays"])
        df = P.play_advice(v, rules, **x, samples=2, seed=0)
        assert sorted(df.option) == sorted(format_cards(list(o)) for o in v.options)
    assert typed > 0
