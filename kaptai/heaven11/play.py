"""Heaven Eleven (天牌十一) at the terminal, and its decisions reviewed (``kaptai play`` / ``kaptai review``).

* :class:`HumanPolicy` -- bids (``3S``, ``1NT``, ``pass``) and plays (``AS`` or ``4C 5C``) typed by a
  person on a :class:`kaptai.core.play.Console`, with the advisor's hint at both;
* :func:`play_inputs` / :func:`play_advice` -- the advisor's inputs at a play from the seat's view
  (its ``history``: the plays in order), and its table: the hint at a play and the review price a
  play the same way;
* :func:`decisions` / :func:`evaluate` -- every bid and play of a record, replayed in the
  reference engine (:mod:`kaptai.heaven11.records`), valued by :func:`kaptai.heaven11.advisor.advise_bid`
  and :func:`kaptai.heaven11.advisor.advise_play` (the auction and the plays in order come from
  the record).

Examples
--------
>>> parse_bid_text("3s", current=-1), parse_bid_text("pass", current=12)
('3S', 'PASS')
>>> parse_bid_text("1C", current=12)
Traceback (most recent call last):
...
kaptai.errors.UsageError: 1C does not beat the standing bid 2H
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from kaptai.core.play import Console, hint_rows, settled_description
from kaptai.core.review import Decision, carry_before, observe_script
from kaptai.errors import KaptaiError, UsageError, quote_token
from kaptai.heaven11.cards import MAX_LEVEL, NT, bid_code, card_suit, format_bid, format_cards, parse_bid, parse_cards
from kaptai.heaven11.policies import PlayerView, Policy

__all__ = ["GAME", "HumanPolicy", "parse_bid_text", "legal_calls", "why_illegal", "describe_hand", "decisions",
           "evaluate", "read", "play_command", "review_command", "play_inputs", "play_advice", "play_line",
           "ambiguous_follow", "trick_kinds", "recorded_plays", "tricks_text"]

GAME = "heaven-eleven"


def _show(ids: Sequence[int], ascii: bool) -> str:
    return format_cards(sorted(ids), "letter" if ascii else "symbol")


def _bid_text(code: int | None) -> str:
    return "PASS" if code is None or code < 0 else format_bid(divmod(int(code), 5))


def parse_bid_text(text: str, current: int) -> str:
    """A typed call checked against the standing bid code ``current`` (-1: none); its label."""
    b = parse_bid(text.strip())
    if b is None:
        return "PASS"
    if bid_code(b) <= current:
        raise UsageError(f"{format_bid(b)} does not beat the standing bid {_bid_text(current)}")
    return format_bid(b)


#: Suit names by suit index (C D H S).
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: Calls in all: PASS and the 50 bids 0C ... 9NT.
_CALLS = 5 * (MAX_LEVEL + 1) + 1


def legal_calls(current: int) -> int:
    """How many calls are legal over the standing bid code ``current`` (-1: none): PASS and
    every bid above it (a seat may raise its own bid).

    >>> legal_calls(-1), legal_calls(12), legal_calls(49)
    (51, 38, 1)
    """
    return _CALLS - 1 - int(current)


def why_illegal(view: PlayerView, ids: Sequence[int], rules: Any) -> str:
    """Why the cards ``ids`` are not a legal play of ``view`` (the rules page, §4): a card not
    held, a lead not 1-3 cards of one suit, not as many cards as the lead, or not following the
    suit led (naming it), or not trumping under ``must_trump``.

    >>> from kaptai.heaven11.policies import PlayerView
    >>> hand = tuple(sorted(parse_cards("2H 9H 4C 5C KS")))
    >>> v = PlayerView(1, "play", hand, 0, (), 12, 0, 2, 2, ((0, tuple(parse_cards("KH"))),), (), (0,) * 4, (),
    ...                (0,) * 4, None)
    >>> why_illegal(v, parse_cards("4C"), None)
    'you must follow suit: seat 0 led KH (hearts), and you hold 2 hearts (2H 9H): play 1 of them'
    >>> why_illegal(v, parse_cards("AH"), None)
    'you do not hold AH'
    """
    ids = sorted(int(c) for c in ids)
    text = format_cards(ids)
    missing = [c for c in ids if c not in view.hand]
    if missing:
        return f"you do not hold {format_cards(missing)}"
    if not view.trick:
        if not 1 <= len(ids) <= 3:
            return f"a lead is 1, 2 or 3 cards of one suit, not {len(ids)}"
        if len({card_suit(c) for c in ids}) > 1:
            return f"a lead is 1, 2 or 3 cards of one suit: {text} is not one suit"
        return f"{text} is not a legal lead here"
    lead_seat, lead = view.trick[0]
    n, led = len(lead), card_suit(lead[0])
    led_text = f"seat {lead_seat} led {format_cards(sorted(lead))} ({_SUIT_NAMES[led]})"
    if len(ids) != n:
        return f"{led_text}: play exactly {n} card{'s' * (n != 1)}, not {len(ids)}"
    mine = [c for c in view.hand if card_suit(c) == led]
    k = len(mine)
    if k >= n:
        return (f"you must follow suit: {led_text}, and you hold {k} {_SUIT_NAMES[led]} ({format_cards(mine)}): "
                f"play {n} of them")
    free = getattr(rules, "short_follow", "all_led") == "free"
    if 0 < k < n and not free:
        return (f"you must follow suit: {led_text}, and you hold only {format_cards(mine)} of it: play "
                f"{'it' if k == 1 else 'them all'} and {n - k} other card{'s' * (n - k != 1)}")
    trump = view.trump
    if k == 0 and getattr(rules, "must_trump", False) and trump < NT and trump != led:
        tr = [c for c in view.hand if card_suit(c) == trump]
        if len(tr) >= n:
            return (f"you hold no {_SUIT_NAMES[led]} and must trump (must_trump): play {n} of your "
                    f"{_SUIT_NAMES[trump]} ({format_cards(tr)})")
    return f"{text} is not a legal play here"


def _scoring(rules: Any) -> str:
    return "symmetric" if getattr(rules, "short_penalty", "") == "symmetric" else "as_written"


def _auction_text(calls: Sequence[tuple[int, Any]]) -> str:
    return " ".join(_bid_text(c) for _s, c in calls)


def bid_advice(view: PlayerView, rules: Any, *, samples: int, seed: int) -> Any:
    """The advisor's calls for a bid decision, best first (the scoring in force)."""
    from kaptai.heaven11.advisor import advise_bid

    df = advise_bid(format_cards(view.hand), seat=view.seat, dealer=view.dealer,
                    auction=_auction_text(view.auction) or None, rules=rules, samples=samples, seed=seed)
    df = df[df.scoring == _scoring(rules)]
    return df.sort_values(["value"], ascending=False, kind="stable").reset_index(drop=True)


def play_inputs(view: PlayerView, rules: Any = None) -> dict[str, Any]:
    """The advisor's inputs at a play decision from the seat's view, as :func:`play_advice` takes
    them: the seat's dealt cards (those held and those it played), the plays so far in order
    (comma-separated, ``view.history``), the auction and the dealer.  The auction is the deal
    played's (a passed-out deal is redealt: its passes are no part of it); with no bid in it (a
    forced 0C after four passes, or a contract fixed by the rules) it is None.  Under
    ``short_follow='free'`` (``rules``) another seat's follow of 2-3 trumps without the suit led in
    the play in progress is typed with its kind, ``trump`` or ``discard``, as the engine made it
    (the seat shown void in the suit led, ``view.voids``, or not): the plays alone cannot say,
    and the advisor asks (:data:`kaptai.heaven11.advisor.MARKS`).

    >>> from kaptai.heaven11.policies import PlayerView
    >>> hand = tuple(parse_cards("2C 3C 4C"))
    >>> v = PlayerView(2, "play", hand, 1, ((1, 7), (2, None), (3, None), (0, None)), 7, 1, 1, 2, (), (), (0,) * 4,
    ...                tuple(parse_cards("AH KH")), (0,) * 4, None, ((1, tuple(parse_cards("AH KH"))),))
    >>> play_inputs(v)
    {'dealt': '2C 3C 4C', 'plays': 'KH AH', 'auction': '1H PASS PASS PASS', 'dealer': 1}
    """
    mine = [c for s, cards in view.history if s == view.seat for c in cards]
    texts = [format_cards(sorted(cards)) for _s, cards in view.history]
    if view.trick:
        start = len(view.history) - len(view.trick)
        for j, kind in enumerate(trick_kinds(view, rules)[1:], start + 1):
            if kind is not None and view.history[j][0] != view.seat:
                texts[j] += " " + kind
    calls = [c for _s, c in view.auction]
    auction = " ".join("PASS" if c is None else _bid_text(c) for c in calls) if any(c is not None for c in calls) else None
    return {"dealt": format_cards(sorted((*view.hand, *mine))),
            "plays": ", ".join(texts), "auction": auction,
            "dealer": int(view.dealer)}


def play_advice(view: PlayerView, rules: Any, *, dealt: Any, plays: str, auction: str | None, dealer: int,
                samples: int, seed: int) -> Any:
    """The advisor's plays at a play decision, best first (the scoring in force): the contract,
    the declarer and the seat from ``view``, the rest as :func:`play_inputs` gives them."""
    from kaptai.heaven11.advisor import advise_play

    kw: dict[str, Any] = {"auction": auction, "dealer": dealer} if auction else {}
    df = advise_play(dealt, contract=_bid_text(5 * view.level + view.trump), declarer=view.declarer, seat=view.seat,
                     plays=plays or None, rules=rules, samples=samples, seed=seed, **kw)
    df.attrs = {}  # the table's attrs are not needed here, and pandas copies them into every column taken
    return df.sort_values(["value"], ascending=False, kind="stable").reset_index(drop=True)


def _wrap(text: str, width: int = 100) -> str:
    """A hint of many options (:func:`kaptai.core.play.hint_rows`) on lines of about ``width``
    characters, an option never split.

    >>> print(_wrap("hint (advisor): 1. AS  score +1.00 points   2. KS  score +0.50 points", 50))
    hint (advisor): 1. AS  score +1.00 points
                    2. KS  score +0.50 points
    """
    head = "hint (advisor): "
    if not text.startswith(head):
        return text
    lines: list[str] = []
    line = ""
    for item in re.split(r"   (?=\d+\. )", text[len(head):]):
        if line and len(head) + len(line) + 3 + len(item) > width:
            lines.append(line)
            line = item
        else:
            line = f"{line}   {item}" if line else item
    lines.append(line)
    return "\n".join((head if i == 0 else " " * len(head)) + x for i, x in enumerate(lines))


def ambiguous_follow(cards: Sequence[int], led: int, trump: int, rules: Any) -> bool:
    """Whether a follow of ``cards`` to a lead of the suit ``led`` can be either a trump or a
    discard, its cards alone not telling: under ``short_follow='free'`` (``rules``) a follow of
    2-3 trumps and no card of the suit led is a trump if the seat was void in that suit and a
    discard (it cannot win) if it was not.  Under ``all_led`` a seat that holds some of the suit
    led must play them all, so trumps alone are always a trump; a single card must follow suit
    when it can.  In kaptai's engine the kind is public (the seat is shown void or not).

    >>> from kaptai.heaven11.rules import resolve_rules
    >>> free = resolve_rules(None, short_follow="free")
    >>> ambiguous_follow(parse_cards("JD KD"), 3, 1, free), ambiguous_follow(parse_cards("JD KD"), 3, 1, None)
    (True, False)
    >>> ambiguous_follow(parse_cards("JD"), 3, 1, free), ambiguous_follow(parse_cards("JD 2S"), 3, 1, free)
    (False, False)
    """
    return (getattr(rules, "short_follow", None) == "free" and len(cards) >= 2 and 0 <= trump < NT
            and led != trump and all(card_suit(c) == trump for c in cards))


def trick_kinds(view: PlayerView, rules: Any) -> list[str | None]:
    """The kind of each play of the play in progress (``view.trick``, the lead first) whose cards
    do not tell it (:func:`ambiguous_follow`): ``'trump'`` when the engine has shown that seat
    void in the suit led (``view.voids``), else ``'discard'``; None for the others.

    >>> from kaptai.heaven11.rules import resolve_rules
    >>> free = resolve_rules(None, short_follow="free")
    >>> trick = ((1, parse_cards("5S 8S")), (2, parse_cards("JD KD")), (3, parse_cards("2D 3D")))
    >>> v = PlayerView(0, "play", (), 2, (), 11, 2, 2, 1, trick, (), (0,) * 4, (), (0, 0, 0, 1 << 3), None)
    >>> trick_kinds(v, free)
    [None, 'discard', 'trump']
    """
    if not view.trick:
        return []
    led = card_suit(view.trick[0][1][0])
    return [None] + [("trump" if view.voids[s] >> led & 1 else "discard")
                     if ambiguous_follow(cards, led, view.trump, rules) else None for s, cards in view.trick[1:]]


def _kind_text(kind: str | None) -> str:
    return f" ({kind})" if kind else ""


def play_line(number: int, play: Sequence[tuple[int, Sequence[int]]], winner: int, me: int, ascii: bool = True,
              kinds: Sequence[str | None] | None = None) -> str:
    """A finished play as the person at seat ``me`` is told it: its number in the hand (from 1),
    each seat's cards in the order played (the lead first; ``kinds[j]``, ``'trump'`` or
    ``'discard'``, after a follow whose cards do not tell it, :func:`ambiguous_follow`), and who
    won it and how many tricks (as many as the cards of the lead, the rules page §4).

    >>> play_line(3, [(1, parse_cards("7C 8C")), (2, parse_cards("9C TC")), (3, parse_cards("QC KC")),
    ...               (0, parse_cards("2H 3H"))], 0, 0, kinds=[None, None, None, "trump"])
    'play 3: seat 1 leads 7C 8C; seat 2 9C TC; seat 3 QC KC; you 2H 3H (trump) -> you win it (2 tricks)'
    >>> play_line(1, [(0, parse_cards("AS")), (1, parse_cards("2S")), (2, parse_cards("3S")), (3, parse_cards("4S"))], 0, 2)
    'play 1: seat 0 leads AS; seat 1 2S; you 3S; seat 3 4S -> seat 0 wins it (1 trick)'
    """
    kinds = list(kinds or [None] * len(play))
    who = lambda s: "you" if s == me else f"seat {s}"  # noqa: E731
    lead = lambda s: " lead" if s == me else " leads"  # noqa: E731
    parts = [f"{who(s)}{lead(s) if j == 0 else ''} {_show(cards, ascii)}{_kind_text(kinds[j])}"
             for j, (s, cards) in enumerate(play)]
    n = len(play[0][1])
    wins = "you win" if winner == me else f"seat {winner} wins"
    return f"play {number}: " + "; ".join(parts) + f" -> {wins} it ({n} trick{'s' * (n != 1)})"


def tricks_text(tricks: Sequence[int], me: int) -> str:
    """The tricks won so far, by seat (the person's is "you").

    >>> tricks_text((0, 0, 1, 6), 0)
    'tricks won: you 0, seat 1 0, seat 2 1, seat 3 6'
    """
    return "tricks won: " + ", ".join(f"{'you' if s == me else f'seat {s}'} {int(t)}" for s, t in enumerate(tricks))


def recorded_plays(events: Sequence[dict[str, Any]], rules: Any = None
                   ) -> list[tuple[list[tuple[int, tuple[int, ...]]], int, list[str | None]]]:
    """The plays of a hand from its record events (``deal`` ... ``settle``; the last deal's):
    each as its (seat, cards) in order, the lead first, its winner (the ``trick`` event) and the
    kind of each follow whose cards do not tell it (:func:`ambiguous_follow` under ``rules``),
    ``'trump'`` or ``'discard'`` as the engine made it (the seat void in the suit led or not: from
    the cards it was dealt and has played), else None.

    >>> from kaptai.heaven11.rules import resolve_rules
    >>> evs = [{"type": "deal", "hands": ["2C 3C 4D", "AC KC 5D", "QC JC 6D", "2H 3H 7D"]},
    ...        {"type": "play", "seat": 0, "cards": "2C 3C", "lead": True},
    ...        {"type": "play", "seat": 1, "cards": "KC AC", "lead": False},
    ...        {"type": "play", "seat": 2, "cards": "JC QC", "lead": False},
    ...        {"type": "play", "seat": 3, "cards": "2H 3H", "lead": False},
    ...        {"type": "trick", "seat": 3, "count": 2},
    ...        {"type": "settle", "contract": "1H", "declarer": 0, "tricks": [0, 0, 0, 2], "result": [0] * 4}]
    >>> [play_line(i + 1, p, w, 0, kinds=k) for i, (p, w, k) in
    ...  enumerate(recorded_plays(evs, resolve_rules(None, short_follow="free")))]
    ['play 1: you lead 2C 3C; seat 1 KC AC; seat 2 JC QC; seat 3 2H 3H (trump) -> seat 3 wins it (2 tricks)']
    """
    from kaptai.heaven11.engine_reference import play_kind

    start = max((i for i, e in enumerate(events) if e.get("type") == "deal"), default=-1)
    evs = events[start:]
    held = [set(parse_cards(h)) for h in evs[0]["hands"]] if evs and evs[0].get("type") == "deal" else None
    st = next((e for e in evs if e.get("type") == "settle"), None)
    b = parse_bid(str(st["contract"])) if st is not None else None
    trump = b[1] if b is not None else NT
    out: list[tuple[list[tuple[int, tuple[int, ...]]], int, list[str | None]]] = []
    play: list[tuple[int, tuple[int, ...]]] = []
    kinds: list[str | None] = []
    for e in evs:
        if e.get("type") == "play":
            s, cards = int(e["seat"]), tuple(sorted(parse_cards(e["cards"])))
            kind = None
            if play and ambiguous_follow(cards, card_suit(play[0][1][0]), trump, rules):
                if held is None:
                    raise KaptaiError("a hand's events without its deal: the kind of a follow is not known")
                led = card_suit(play[0][1][0])
                mask = sum(1 << c for c in cards)
                kind = "trump" if play_kind(mask, sum(1 << c for c in held[s]), led, trump) == 1 else "discard"
            if held is not None:
                held[s] -= set(cards)
            play.append((s, cards))
            kinds.append(kind)
        elif e.get("type") == "trick":
            out.append((play, int(e["seat"]), kinds))
            play, kinds = [], []
    return out


class HumanPolicy(Policy):
    """A seat played by a person at the terminal."""

    name = "human"

    def __init__(self, console: Console, rules: Any, hint_samples: int = 32):
        self.console, self.rules, self.hint_samples = console, rules, hint_samples
        self._new_hand()

    def _new_hand(self) -> None:
        #: the finished plays of the hand told so far, and the kinds ('trump' / 'discard') of the
        #: follows whose cards do not tell it, by their place in the hand's plays (``view.history``)
        self._told = 0
        self._kinds: dict[int, str] = {}

    def _finished_plays(self, view: PlayerView) -> list[str]:
        """The lines telling the plays finished since the person's last decision, each once:
        every seat's cards in order and the winner (who leads the next play, or the person now
        leading).  An ambiguous follow's kind is read off the voids the engine has shown at the
        person's first decision after it: a seat plays at most once more in between (in the next
        play, before the person), and a seat shown void in the suit led then was void at that
        follow too (it played none of that suit in it), so the kind is the engine's."""
        hist = view.history
        if sorted(c for _s, cs in hist for c in cs) != sorted(view.played) or len(hist) % 4 != len(view.trick):
            return []  # a view built without the hand's plays: nothing to tell
        if len(hist) < 4 * self._told:  # a new hand (the end of the last one was not told)
            self._new_hand()
        for j, (s, cards) in enumerate(hist):
            if j % 4 and j not in self._kinds:
                led = card_suit(hist[j - j % 4][1][0])
                if ambiguous_follow(cards, led, view.trump, self.rules):
                    self._kinds[j] = "trump" if view.voids[s] >> led & 1 else "discard"
        done = len(hist) // 4
        lines = []
        for i in range(self._told, done):
            winner = hist[4 * i + 4][0] if 4 * i + 4 < len(hist) else view.seat
            lines.append(play_line(i + 1, hist[4 * i:4 * i + 4], winner, view.seat, self.console.ascii,
                                   [self._kinds.get(4 * i + k) for k in range(4)]))
        self._told = done
        return lines

    def end_hand(self, events: Sequence[dict[str, Any]], seat: int) -> None:
        """At the end of a hand (its record events, ``deal`` ... ``settle``; the person at
        ``seat``): tell the plays finished after the person's last decision (the last play, the
        person's own cards in it), from the record, each with its winner; then start afresh for
        the next hand."""
        plays = recorded_plays(events, self.rules)
        lines = [play_line(i + 1, p, w, seat, self.console.ascii, k)
                 for i, (p, w, k) in enumerate(plays) if i >= self._told]
        if lines:
            self.console.say(*lines)
        self._new_hand()

    def bid(self, view: PlayerView) -> Any:
        con = self.console
        self._new_hand()
        con.say("", f"-- Heaven Eleven, seat {view.seat}, the auction (dealer: seat {view.dealer}) --",
                "calls so far: " + (", ".join(f"seat {s} {_bid_text(c)}" for s, c in view.auction) or "none"),
                f"your hand: {_show(view.hand, con.ascii)}")

        def hint() -> str:
            df = bid_advice(view, self.rules, samples=self.hint_samples, seed=len(view.auction))
            from kaptai.heaven11.records import UNIT

            return hint_rows(list(df.option), list(df.value), "score", unit=UNIT,
                             vs_best=list(zip(df.vs_best_low, df.vs_best_high)))

        legal = ["pass", f"a bid above {_bid_text(view.current_bid)} (level 0-9 and C D H S NT, e.g. "
                         f"{_bid_text(max(view.current_bid + 1, 5))})"]
        label = con.ask("call", lambda t: parse_bid_text(t, view.current_bid), legal, hint)
        return None if label == "PASS" else label

    def play(self, view: PlayerView) -> Any:
        con = self.console
        masks = {sum(1 << c for c in o): o for o in view.options}
        told = self._finished_plays(view)
        kinds = trick_kinds(view, self.rules)
        trick = ", ".join(f"seat {s} {_show(c, con.ascii)}{_kind_text(k)}"
                          for (s, c), k in zip(view.trick, kinds)) or "you lead"
        con.say("", f"-- Heaven Eleven, seat {view.seat}: contract {_bid_text(5 * view.level + view.trump)} by seat "
                    f"{view.declarer}; {tricks_text(view.tricks, view.seat)} --",
                *told, f"this play: {trick}")
        now = {c for _s, cs in view.trick for c in cs}
        earlier = [c for c in view.played if c not in now]
        if earlier:
            con.say(f"played before ({len(earlier)} cards): {_show(earlier, con.ascii)}")
        con.say(f"your hand: {_show(view.hand, con.ascii)}")
        legal = [format_cards(o) for o in view.options]

        def parse(t: str) -> tuple:
            words = t.split()
            if [w.lower() for w in words] == ["pass"]:
                raise UsageError(f"there is no passing in the play: every seat plays at every play; type the cards "
                                 f"you {'lead' if not view.trick else 'play'}, e.g. {legal[0]}")
            if words and words[-1].lower() in ("trump", "discard"):
                raise UsageError(f"{quote_token(words[-1])} is typed only in kaptai advise --plays (another seat's "
                                 "follow of trumps under short_follow=free); here the engine knows whether a follow "
                                 f"trumps: type the cards alone, e.g. {' '.join(words[:-1]) or legal[0]}")
            ids = parse_cards(t)
            m = sum(1 << c for c in ids)
            if m not in masks:
                raise UsageError(why_illegal(view, ids, self.rules))
            return tuple(masks[m])

        return con.ask("play", parse, legal, lambda: self._play_hint(view))

    def _play_hint(self, view: PlayerView) -> str:
        """Every legal play with the advisor's value, best first, each as the person types it."""
        from kaptai.heaven11.records import UNIT

        if sorted(c for _s, cards in view.history for c in cards) != sorted(view.played):
            raise KaptaiError("the hand's plays in order are not known here (a view built without its history)")
        x = play_inputs(view, self.rules)
        df = play_advice(view, self.rules, **x, samples=self.hint_samples, seed=len(view.played))
        masks = {sum(1 << c for c in o): o for o in view.options}
        rows = [(sum(1 << c for c in parse_cards(lab)), float(v)) for lab, v in zip(df.option, df.value)]
        if sorted(m for m, _ in rows) != sorted(masks):  # never offer a play the prompt would refuse
            raise KaptaiError(f"the advisor priced {len(rows)} plays, not the {len(masks)} legal plays here")
        return _wrap(hint_rows([format_cards(masks[m]) for m, _ in rows], [v for _, v in rows], "score",
                               top=len(rows), unit=UNIT, vs_best=list(zip(df.vs_best_low, df.vs_best_high))))


@settled_description
def describe_hand(st: dict[str, Any], events: Sequence[dict[str, Any]], who: Callable[[int], str]) -> str:
    """One line on how a hand of a record ended (its events, ``deal`` ... ``settle``): the
    declarer, the contract, the tricks, and whether it was made, short or over (the rules page,
    §5: the contract b is made when the declarer takes 4 + b tricks); ``seat`` is "you".

    >>> evs = [{"type": "deal"}, {"type": "settle", "declarer": 0, "contract": "3C", "tricks": [8, 2, 2, 1],
    ...                           "result": [1.0, 0.0, 0.0, -1.0]}]
    >>> describe_hand(evs, 3)
    'seat 0 declared 3C and took 8 tricks (7 needed): over by 1; defenders: seat 1 2, seat 2 2, you (seat 3) 1'
    """
    from kaptai.heaven11.scoring import score

    d, contract, tricks = int(st["declarer"]), str(st["contract"]), [int(t) for t in st["tricks"]]
    r = score(contract, [tricks[(d + j) % len(tricks)] for j in range(len(tricks))])  # the declarer's first
    forced = any(e.get("type") == "forced" for e in events)
    t, need = tricks[d], 4 + r.bid[0]
    head = (f"{who(d)} " + ("(the dealer, all four having passed) was forced to play" if forced else "declared")
            + f" {contract} and took {t} trick{'s' * (t != 1)} ({need} needed)")
    defenders = "; defenders: " + ", ".join(f"{who(s)} {n}" for s, n in enumerate(tricks) if s != d)
    if r.draw:
        return head + ": a draw (4/3/3/3 at level 0), nobody scores" + defenders
    how = {"match": "made", "short": f"short by {need - t}", "over": f"over by {t - need}"}[r.status]
    return f"{head}: {how}{defenders}"


def read(path: Any, game: str = GAME) -> Any:
    """A parsed record of this game."""
    from kaptai.records import read_record

    return read_record(path, game)


def decisions(record: Any, hands: Sequence[int] | None = None) -> Iterator[Decision]:
    """Every bid and every play with two or more options of the chosen hands of a record."""
    from kaptai.core.records import HandCursor, record_setup
    from kaptai.heaven11 import records as R

    cfg = record_setup(record, R.FORMAT)
    for i in (range(len(record.hands)) if hands is None else hands):
        hand = record.hands[i]
        sink: list = []
        with observe_script(R, "_Script", ("bid", "play"), sink):
            R.FORMAT.replay_hand(cfg, HandCursor(hand, record.path), carry_before(record, i, "dealer"))  # type: ignore[misc]
        k = 0
        for method, view, _args, move, pos in sink:
            before = hand.events[:pos]
            deal = [e for e in before if e["type"] == "deal"][-1]
            dealt = deal["hands"][view.seat]
            if method == "bid":
                n = legal_calls(view.current_bid)
                if n < 2:  # over 9NT only PASS is left
                    continue
                made = "PASS" if move is None else format_bid(parse_bid(move))  # type: ignore[arg-type]
                yield Decision(hand.index, view.seat, k, "bid", view, made, n, dealt,
                               "auction: " + (_auction_text(view.auction) or "none"), {"rules": cfg.rules})
            else:
                if len(view.options) < 2:
                    continue
                made = format_cards(sorted(parse_cards(move)))
                yield Decision(hand.index, view.seat, k, "play", view, made, len(view.options),
                               format_cards(sorted(view.hand)),
                               f"contract {_bid_text(5 * view.level + view.trump)} by seat {view.declarer}; this "
                               "play: " + (", ".join(f"{s}: {format_cards(sorted(c))}" for s, c in view.trick) or "lead"),
                               {"rules": cfg.rules, **play_inputs(view, cfg.rules)})
            k += 1


def evaluate(d: Decision, *, samples: int, seed: int) -> dict[str, Any]:
    """The advisor on a decision (the scoring in force): its table (best first), and the paired
    sums behind it with each row's option in them (``paired``, ``index``: a cross-fitted review
    measures on them; a bid's sums hold both scorings, the rows are the scoring in force's)."""
    from kaptai.core.advise import capture_paired
    from kaptai.core.review import match_options

    v = d.view
    with capture_paired() as got:
        if d.kind == "bid":
            df = bid_advice(v, d.extra["rules"], samples=samples, seed=seed)
        else:
            x = d.extra
            df = play_advice(v, x["rules"], dealt=x["dealt"], plays=x["plays"], auction=x["auction"],
                             dealer=x["dealer"], samples=samples, seed=seed)
    df.attrs = {}
    res = got[-1]
    k = res.sums.shape[1]
    if d.kind == "bid":  # two blocks of options, one per scoring ('as_written', 'symmetric'), in that order
        g = 1 if _scoring(d.extra["rules"]) == "symmetric" else 0
        cand: range = range(g * (k // 2), (g + 1) * (k // 2))
    else:
        cand = range(k)
    return {"labels": list(df.option), "value": df.value.to_numpy(), "vs_best": df.vs_best.to_numpy(),
            "vs_low": df.vs_best_low.to_numpy(), "vs_high": df.vs_best_high.to_numpy(), "p_win": None,
            "samples": int(df.samples.iloc[0]), "paired": res,
            "index": match_options(res, {0: df.value.to_numpy()}, cand)}


def play_command(args: Any, game: Any) -> Any:
    """``kaptai play heaven-eleven``: a person at ``--seat`` against the built-in players."""
    from kaptai.core.play import FinishedHands, parse_opponents, run_session, seat_policies
    from kaptai.core.records import make_header
    from kaptai.heaven11.config import make_config
    from kaptai.heaven11.records import UNIT, hand_events
    from kaptai.spec import Output

    rules = game.resolve_rules(args.rules, **dict(args.option or []))
    cfg = make_config(4, rules)
    con = Console(ascii=True if args.ascii else None, hints=args.hints)
    opp = parse_opponents(args.opponents, game.policies, 4, args.seat)
    human = HumanPolicy(con, cfg.rules)
    pols = seat_policies(human, opp, args.seat)
    bids = ["expected"] * 4
    header = make_header(GAME, cfg.rules.to_dict(), 4, [getattr(x, "name", str(x)) for x in pols], UNIT,
                         seed=args.seed, hands=args.hands, bidding=bids)
    con.say(f"Heaven Eleven, you are seat {args.seat}; the others play {', '.join(opp)} and bid 'expected'. "
            "Call 3S / 1NT / pass; play cards (AS, or 4C 5C); ? lists the legal moves, hint asks the advisor, "
            "quit stops.")
    # the session is one engine run: it hands each hand over to ``kept`` as soon as it is over,
    # so at quit the finished hands are kept
    kept = FinishedHands()

    def hand_over(index: int, evs: list[dict[str, Any]]) -> None:
        human.end_hand(evs, args.seat)  # the plays after the person's last decision, then the hand's result
        kept(index, evs)

    events = hand_events(None, cfg.rules, policies=pols, bidding=bids, hands=args.hands, seed=args.seed,
                         on_hand=hand_over)
    df = run_session(con, header, events, seat=args.seat, record=args.record, finished=kept,
                     describe=describe_hand)
    return Output(df, f"your results at seat {args.seat} ({UNIT})", list(df.columns))


def review_command(args: Any, game: Any) -> Any:
    """``kaptai review heaven-eleven FILE``."""
    from kaptai.core.review import review_command as run

    return run(args, game, sys.modules[__name__])
