"""Heaven Eleven (天牌十一) game records: writing, the event vocabulary and replay.

A record (``docs/records.md``) is JSON Lines: a header, then per hand a ``deal`` event (the
dealer and the 52 cards in deal order: seat 0 takes the first 13, then seats 1, 2, 3), the
auction (``bid`` and ``pass``; a ``passout`` when all four pass, followed by the next ``deal``,
or ``forced`` when the dealer must play 0♣), the play (``play`` with ``lead`` true for the
first play of a trick, and ``trick``: who won it and how many cards it held) and a ``settle``
event (each seat's final score in points, as the engine scores the hand).  Cards and bids are
written as :func:`kaptai.heaven11.cards.format_cards` and :func:`~kaptai.heaven11.cards.format_bid`
print them.

A replay takes each recorded bid, pass and play as the seat's choice, in the reference engine
(:mod:`kaptai.heaven11.engine_reference`), from the recorded deal.

Examples
--------
>>> import os, tempfile
>>> from kaptai.heaven11.records import record_hands, replay
>>> path = os.path.join(tempfile.mkdtemp(), "h.jsonl")
>>> _ = record_hands(path, hands=3, seed=1)
>>> s = replay(path); s.hands, round(sum(s.totals), 9)
(3, 0.0)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from kaptai.core.records import (
    DeckCursor, HandCursor, Record, RecordFormat, ReplaySummary, cards_schema, event_schema, make_header,
    read_record, replay_record, seat_schema, settle_schema, spare_deck_hands, write_record,
)
from kaptai.errors import KaptaiError, quote_token
from kaptai.heaven11.cards import format_bid, format_cards, parse_cards
from kaptai.heaven11.config import EngineConfig, IllegalPlayError, make_config, new_outcomes
from kaptai.heaven11.rules import RuleSet

__all__ = ["FORMAT", "GAME", "UNIT", "record_hands", "hand_events", "read", "replay"]

GAME = "heaven-eleven"
#: Unit of the ``settle`` results (the hand's final scores).
UNIT = "points"
A_DEAL, A_BID, A_PASS, A_PASSOUT, A_FORCED, A_LEAD, A_FOLLOW, A_WIN, A_SCORE = range(9)

_SEAT = seat_schema(4)
_CARDS = cards_schema("cards, as kaptai.heaven11.cards.format_cards prints them")
_BID = cards_schema("a bid: level and strain, as kaptai.heaven11.cards.format_bid prints it (3C, 0NT)")

_EVENTS: dict[str, dict[str, Any]] = {
    "deal": event_schema("deal", ["hand", "dealer", "deck", "hands"], {
        "hand": {"type": "integer", "minimum": 0}, "dealer": _SEAT,
        "deck": cards_schema("the 52 cards in deal order: seat 0 takes the first 13, then seats 1, 2, 3"),
        "hands": {"type": "array", "items": _CARDS, "minItems": 4, "maxItems": 4},
    }, "a deal (after a passout the next deal follows in the same hand)"),
    "bid": event_schema("bid", ["seat", "bid"], {"seat": _SEAT, "bid": _BID}, "a bid in the auction"),
    "pass": event_schema("pass", ["seat"], {"seat": _SEAT}, "a pass in the auction"),
    "passout": event_schema("passout", ["seat"], {"seat": _SEAT}, "all four passed: the dealer redeals"),
    "forced": event_schema("forced", ["seat"], {"seat": _SEAT}, "all four passed: the dealer plays 0C"),
    "play": event_schema("play", ["seat", "cards", "lead"], {"seat": _SEAT, "cards": _CARDS, "lead": {"type": "boolean"}},
                         "a play (lead: the first play of a trick)"),
    "trick": event_schema("trick", ["seat", "count"], {"seat": _SEAT, "count": {"type": "integer", "minimum": 1}},
                          "the seat wins the trick of count cards a seat"),
    "settle": settle_schema({
        "declarer": _SEAT, "contract": _BID, "tricks": {"type": "array", "items": {"type": "integer", "minimum": 0}},
    }, UNIT),
}


#: Each card's text (format_cards of a list is its cards' texts joined by spaces; a test checks it).
_NAMES: tuple[str, ...] = tuple(format_cards([c]) for c in range(52))


def _text(ids: Any) -> str:
    return " ".join(_NAMES[c] for c in ids)


def _mask_text(mask: int) -> str:
    return _text([c for c in range(52) if mask >> c & 1])


def _deal_event(hand: int, dealer: int, deck: Any) -> dict[str, Any]:
    d = [int(c) for c in deck]
    return {"type": "deal", "hand": hand, "dealer": dealer, "deck": _text(d),
            "hands": [_text(sorted(d[13 * s:13 * s + 13])) for s in range(4)]}


def _row_event(seat: int, action: int, cards: int, value: int) -> dict[str, Any] | None:
    if action == A_BID:
        return {"type": "bid", "seat": seat, "bid": format_bid(divmod(value, 5))}
    if action == A_PASS:
        return {"type": "pass", "seat": seat}
    if action == A_PASSOUT:
        return {"type": "passout", "seat": seat}
    if action == A_FORCED:
        return {"type": "forced", "seat": seat}
    if action in (A_LEAD, A_FOLLOW):
        return {"type": "play", "seat": seat, "cards": _mask_text(cards), "lead": action == A_LEAD}
    if action == A_WIN:
        return {"type": "trick", "seat": seat, "count": value}
    return None  # deal rows (the deal event), score rows (the settle event)


def _settle(out: Mapping[str, Any], h: int) -> dict[str, Any]:
    return {"type": "settle", "declarer": int(out["declarer"][h]),
            "contract": format_bid((int(out["level"][h]), int(out["strain"][h]))),
            "tricks": [int(x) for x in out["tricks"][h]], "result": [float(x) for x in out["finals"][h]]}


def _bidding(bidding: Any) -> list[str]:
    from kaptai.heaven11.config import check_bidding

    return list(check_bidding(bidding))


def hand_events(
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "greedy",
    bidding: Any = "expected",
    hands: int = 1,
    seed: int | None = 0,
    samples: int = 16,
    on_hand: Callable[[int, list[dict[str, Any]]], None] | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Play ``hands`` hands (one engine run: the deal passes as the rules say; the first dealer
    is the run's first draw) and yield each hand's events (``deal`` ... ``settle``).  With
    ``on_hand``, the run is the reference engine's and ``on_hand(i, events)`` gets hand ``i``'s
    events as soon as it is over, before the run ends (a hand the run plays again after drawing
    more spare decks comes again).

    >>> evs = next(hand_events(hands=1, seed=3))
    >>> evs[0]["type"], len(evs[0]["hands"]), evs[-1]["type"]
    ('deal', 4, 'settle')
    """
    from kaptai.heaven11.engine import run_hands
    from kaptai.heaven11.config import check_policies

    cfg = make_config(players, rules, samples=samples)
    pols, bids = check_policies(policies), _bidding(bidding)
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 0:
        raise KaptaiError(f"hands={quote_token(hands)}: expected a whole number >= 0")
    n = int(hands)
    if n == 0:
        return
    def events(i: int, out: Mapping[str, np.ndarray], j: int, rows: np.ndarray,
               decks: DeckCursor) -> list[dict[str, Any]]:
        """Hand ``i``'s events from its log rows and row ``j`` of the outcomes ``out``."""
        evs: list[dict[str, Any]] = []
        prev = -1
        for row in rows:
            seat, action, cards, value = (int(x) for x in row[2:6])
            if action == A_DEAL and prev != A_DEAL:
                evs.append(_deal_event(i, int(out["dealer"][j]), decks.take()))
            prev = action
            e = _row_event(seat, action, cards, value)
            if e is not None:
                evs.append(e)
        evs.append(_settle(out, j))
        return evs

    def run(decks: np.ndarray, policy_bg: Any, hand_over: Any) -> Any:  # a passed-out deal takes a spare deck
        return run_hands(cfg, pols, policy_bg, n, bidding=bids, record=n, decks=decks, on_hand=hand_over)

    yield from spare_deck_hands(seed, 0, n, 52, n // 4 + 8, run, events, on_hand)


def record_hands(
    path: str | os.PathLike,
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "greedy",
    bidding: Any = "expected",
    hands: int = 1,
    seed: int | None = 0,
    samples: int = 16,
) -> Path:
    """Play ``hands`` hands and write their record to ``path`` (atomically).

    Parameters
    ----------
    path : str or path
        The ``.jsonl`` file to write (its folder must exist).
    players, rules, policies, bidding, samples
        The table, as :func:`kaptai.heaven11.simulate.simulate` takes it.
    hands : int
    seed : int or None
        Seed of the decks and of the policies' draws.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile, json
    >>> p = record_hands(os.path.join(tempfile.mkdtemp(), "r.jsonl"), hands=1, seed=2, bidding="never")
    >>> json.loads(open(p).readline())["bidding"]
    ['never', 'never', 'never', 'never']
    """
    from kaptai.core.paths import check_output_path
    from kaptai.heaven11.config import check_policies

    p = check_output_path(path, ("jsonl",), what="--record")
    cfg = make_config(players, rules, samples=samples)
    pols, bids = check_policies(policies), _bidding(bidding)
    header = make_header(GAME, cfg.rules.to_dict(), 4, [getattr(x, "name", str(x)) for x in pols], UNIT,
                         seed=seed, hands=hands, bidding=bids)
    write_record(p, header, hand_events(players, cfg.rules, policies=pols, bidding=bids, hands=hands, seed=seed,
                                        samples=samples))
    return p


# --------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------


def _setup(header: dict[str, Any]) -> EngineConfig:
    return make_config(header["players"], header["rules"])


class _Script:
    """Each seat's recorded calls and plays, read from the hand's cursor."""

    name = "record"

    def __init__(self, cur: HandCursor):
        self.cur = cur

    def _next(self, seat: int, types: tuple[str, ...], what: str) -> dict[str, Any]:
        e = self.cur.peek()
        if e["type"] not in types:
            raise self.cur.error("type", f"{e['type']!r}: seat {seat} is to {what} here")
        if e["seat"] != seat:
            raise self.cur.error("seat", f"{e['seat']}: seat {seat} is to {what} here")
        return e

    def bid(self, view: Any) -> Any:
        e = self._next(view.seat, ("bid", "pass"), "bid or pass")
        return None if e["type"] == "pass" else e["bid"]

    def play(self, view: Any) -> Any:
        e = self._next(view.seat, ("play",), "play")
        try:
            parse_cards(e["cards"])
        except KaptaiError as exc:
            raise self.cur.error("cards", str(exc)) from None
        return e["cards"]


def _deck(cur: HandCursor, e: dict[str, Any]) -> list[int]:
    try:
        deck = [int(c) for c in parse_cards(e["deck"])]
    except KaptaiError as exc:
        raise cur.error("deck", str(exc)) from None
    if sorted(deck) != list(range(52)):
        raise cur.error("deck", f"{quote_token(e['deck'])} is not the 52 cards, each once")
    return deck


def _replay_hand(cfg: EngineConfig, cur: HandCursor, carry: Any) -> int:
    from kaptai.heaven11 import engine_reference as ref

    hand = cur.hand
    dealer = int(hand.deal["dealer"])
    want = carry if carry is not None else (cfg.first_dealer if cfg.first_dealer >= 0 else dealer)
    if dealer != want:
        raise cur.error("dealer", f"{dealer}: seat {want} deals this hand", line=hand.lines[0])
    decks = []
    for line, e in zip(hand.lines, hand.events):
        if e["type"] == "deal":
            cur.pos = hand.lines.index(line)
            decks.append(_deck(cur, e))
    cur.pos = 0

    class _Replay(ref._Engine):
        def _log(self, seat: int, action: int, cards: int, value: int) -> None:
            super()._log(seat, action, cards, value)
            if action == A_DEAL and seat == 0:
                cur.expect(_deal_event(hand.index, dealer, decks[self.deck_pos - 1]))
            e = _row_event(seat, action, cards, value)
            if e is not None:
                cur.expect(e)

    script = _Script(cur)
    E = _Replay(cfg, [script] * 4, ("expected",) * 4, None, np.asarray(decks, dtype=np.int64))
    out = new_outcomes(1)
    try:
        nxt = E.play_hand(out, 0, dealer)
    except IllegalPlayError as exc:
        e = cur.peek()
        raise cur.error("bid" if e["type"] == "bid" else "cards", str(exc)) from None
    except KaptaiError as exc:
        if "decks:" in str(exc):
            raise cur.error("type", "the hand is redealt here, but the record has no further deal") from None
        raise
    cur.expect(_settle(out, 0))
    return int(nxt)


#: The game's record format (schema and replay).
FORMAT = RecordFormat(GAME, UNIT, _EVENTS, header_extra={"bidding": {"type": "array", "items": {"type": "string"}}},
                      setup=_setup, replay_hand=_replay_hand)


def read(path: str | os.PathLike) -> Record:
    """Parse and check a Heaven Eleven record (schema only; :func:`replay` also replays it)."""
    return read_record(path, FORMAT)


def replay(path: str | os.PathLike) -> ReplaySummary:
    """Replay a Heaven Eleven record in the reference engine;
    :class:`kaptai.core.records.RecordError` at the first line (and field) the engine does not
    reproduce."""
    return replay_record(read(path), FORMAT)
