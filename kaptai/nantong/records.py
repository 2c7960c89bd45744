"""Nantong long cards (南通長牌) game records: writing, the event vocabulary and replay.

A record (``docs/records.md``) is JSON Lines: a header, then per hand a ``deal`` event (the
120 cards in deal order, as kinds: the dealer, seat 0, takes the first 23, each other active
seat the next 22 in turn, then the turned 將 card(s); the rest is the stock, drawn from the
front), the events of the hand in order (``expose`` for a 起手 set, ``draw``, ``discard``,
``kong`` for a concealed or added kong, ``claim`` for each seat's answer to a discard —
``win``, ``kong``, ``pong`` or ``pass`` — then ``meld`` for the claim that is taken, or
``dead`` when none is, and ``win``) and a ``settle`` event (each seat's result under the
ruleset's ``settlement``, the sitter of a 4-player table last, as
:func:`kaptai.nantong.atlas.hand_rows` settles a hand).  Cards are written as
:func:`kaptai.nantong.cards.format_card` prints them.  The seats are the hand's, numbered from
its dealer; where the deal rotates (``kaptai play``) the ``deal`` says the table's seat of each
(``seats``, the dealer first, the sitter last) and the ``settle``'s result is by the table's seat.

The engines keep no log of their own, so :func:`record_hands` plays the hands in the
reference engine (:mod:`kaptai.nantong.engine_reference`, move for move the compiled one) and
writes what it does; it is slower than the other games' writers (the ``max_melds`` policy
in pure Python).  A replay takes each recorded answer as the seat's choice, from the recorded
deal.

Examples
--------
>>> import os, tempfile
>>> from kaptai.nantong.records import record_hands, replay
>>> path = os.path.join(tempfile.mkdtemp(), "n.jsonl")
>>> _ = record_hands(path, 3, hands=2, seed=1, policies="random")
>>> replay(path).hands
2
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kaptai.core.records import (
    HandCursor, Record, RecordFormat, ReplaySummary, cards_schema, event_schema, make_header, read_record,
    replay_record, seat_schema, settle_schema, write_record,
)
from kaptai.core.sampling import RandomStream
from kaptai.errors import KaptaiError, quote_token
from kaptai.nantong import engine_reference as ref
from kaptai.nantong.cards import format_card, parse_card
from kaptai.nantong.config import DECK_CARDS, WIN_TYPES, EngineConfig, IllegalMoveError, make_config
from kaptai.nantong.policies import Policy, check_policies
from kaptai.nantong.rules import RuleSet

__all__ = ["FORMAT", "GAME", "record_hands", "hand_events", "play_hand", "read", "replay"]

GAME = "nantong"
_UNITS = {"rank_only": "share of the hand win", "pairwise_difference": "points", "winner_collects": "points"}
_SEAT = seat_schema()
_CARD = cards_schema("one card, as kaptai.nantong.cards.format_card prints it ('' for none)")
EXPOSE, DRAW, DISCARD, SKONG, CLAIM, DEAD = range(6)


def _ev(typ: str, what: str, **extra: Any) -> dict[str, Any]:
    props = {"seat": _SEAT, "cards": _CARD, **extra}
    return event_schema(typ, list(props), props, what)


_EVENTS: dict[str, dict[str, Any]] = {
    "deal": event_schema("deal", ["hand", "deck", "hands", "turned"], {
        "hand": {"type": "integer", "minimum": 0},
        "seats": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 3}, "minItems": 3,
                  "maxItems": 4,
                  "description": "written by kaptai play (the deal rotates; the first hand's dealer drawn at random): "
                                 "the table's seat of each of the hand's seats, the dealer first, the sitter of a 4-player table last; the hand's events number the seats from its "
                                 "dealer, the settle's result is by the table's seat. Absent: the table's seats are "
                                 "the hand's"},
        "deck": cards_schema("the 120 cards in deal order, as kinds: seat 0 (the dealer) takes 23, each other active "
                             "seat 22 in turn, then the turned card(s); the rest is the stock"),
        "hands": {"type": "array", "items": cards_schema("a seat's dealt cards"), "minItems": 2},
        "turned": cards_schema("the turned 將 card(s)"),
    }, "the deal"),
    "expose": _ev("expose", "a 起手 set laid out (count: cards exposed)", count=({"type": "integer", "minimum": 1})),
    "draw": _ev("draw", "a draw from the stock"),
    "discard": _ev("discard", "a discard (after_draw: the seat drew or claimed a kong this turn)",
                   after_draw={"type": "boolean"}),
    "kong": _ev("kong", "a concealed (ckong) or added (mkong) kong", kong={"enum": ["ckong", "mkong"]}),
    "claim": _ev("claim", "a seat's answer to a discard it could claim", choice={"enum": ["win", "kong", "pong", "pass"]}),
    "meld": _ev("meld", "the claim that is taken", meld={"enum": ["pong", "kong"]}),
    "dead": _ev("dead", "nobody claims the discard"),
    "win": _ev("win", "the seat completes its hand", win_type={"enum": ["self", "discard", "tiancheng"]}),
    "settle": settle_schema({"win_type": {"enum": list(WIN_TYPES)},
                             "totals": {"type": "array", "items": {"type": "integer"}},
                             "winners": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 1}}},
                            "the ruleset's settlement"),
}


def _kinds(ids: Sequence[int]) -> str:
    return " ".join(format_card(k) for k in ids)


def _deal_event(cfg: EngineConfig, hand: int, deck: Sequence[int],
                seats: Sequence[int] | None = None) -> dict[str, Any]:
    hands, pos = [], 0
    for s in range(cfg.active):
        n = 23 if s == 0 else 22
        hands.append(_kinds(sorted(c // 4 for c in deck[pos:pos + n])))
        pos += n
    nt = 1 if cfg.single_turn else 2
    out: dict[str, Any] = {"type": "deal", "hand": hand}
    if seats is not None:
        out["seats"] = [int(p) for p in seats]
    out.update({"deck": _kinds([c // 4 for c in deck]), "hands": hands,
                "turned": _kinds([c // 4 for c in deck[pos:pos + nt]])})
    return out


def _rec_event(h: Any, typ: int, s: int, k: int, n: int) -> dict[str, Any]:
    if typ == EXPOSE:
        return {"type": "expose", "seat": s, "cards": format_card(k), "count": n}
    if typ == DRAW:
        return {"type": "draw", "seat": s, "cards": format_card(h.deck[h.pos - 1] // 4)}
    if typ == DISCARD:
        return {"type": "discard", "seat": s, "cards": format_card(k), "after_draw": bool(n)}
    if typ == SKONG:
        return {"type": "kong", "seat": s, "cards": format_card(k), "kong": "ckong" if n == 4 else "mkong"}
    if typ == CLAIM:
        return {"type": "meld", "seat": s, "cards": format_card(k), "meld": "kong" if n == 3 else "pong"}
    return {"type": "dead", "seat": s, "cards": format_card(k)}


def _win_events(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    wt = WIN_TYPES[result["win_type"]]
    card = result.get("win_card")
    return [{"type": "win", "seat": int(s), "cards": "" if card is None else format_card(card), "win_type": wt}
            for s in result["completers"]]


def _settle(cfg: EngineConfig, row: Mapping[str, Any], seats: Sequence[int] | None = None) -> dict[str, Any]:
    """The ``settle`` event of a hand: ``totals`` and ``winners`` by the hand's seats, ``result``
    by the hand's seats too (the sitter last), or with ``seats`` (a rotating deal) by the
    table's seat (``result[seats[s]]`` is the hand's seat ``s``'s)."""
    from kaptai.nantong.atlas import hand_rows

    out = {"total": np.asarray([row["total"]]), "winner": np.asarray([row["winner"]]),
           "win_type": np.asarray([row["win_type"]]), "discards": np.asarray([row["discards"]])}
    net = [round(float(x), 10) for x in hand_rows(out, cfg)["net"][0]]
    if seats is not None:
        res = [0.0] * len(net)
        for s, p in enumerate(seats):
            res[int(p)] = net[s]
        net = res
    return {"type": "settle", "win_type": WIN_TYPES[int(row["win_type"])], "totals": [int(x) for x in row["total"]],
            "winners": [int(x) for x in row["winner"]], "result": net}


class _Logged(ref._Hand):
    """The reference hand, writing its events as they happen (no change to its play)."""

    def __init__(self, cfg: EngineConfig, pols: list, stream: Any, hand_index: int, events: list):
        super().__init__(cfg, pols, stream, None, hand_index)
        self.events = events

    def _rec(self, typ: int, s: int, k: int = -1, n: int = 0) -> None:
        super()._rec(typ, s, k, n)
        if not self.rollout:
            self.on_event(_rec_event(self, typ, s, k, n))

    def _claim(self, j: int, kind: int, opts: tuple[str, ...], cur: int = -1) -> str:
        ans = super()._claim(j, kind, opts, cur)
        if not self.rollout:
            self.on_event({"type": "claim", "seat": j, "cards": format_card(kind), "choice": ans})
        return ans

    def _finish(self, result: dict) -> dict:
        if not self.rollout:
            for e in _win_events(result):
                self.on_event(e)
        return super()._finish(result)

    def on_event(self, e: dict[str, Any]) -> None:
        self.events.append(e)


def hand_events(
    players: int = 3,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "max_melds",
    hands: int = 1,
    seed: int | None = 0,
    hand_class: type | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Play ``hands`` hands in the reference engine and yield each hand's events.

    Hand ``i`` is played on ``PCG64`` of the child ``(i,)`` of ``SeedSequence(seed)``.
    ``hand_class``: a subclass of the logging hand to play them with (``kaptai play``'s, which
    tells the person whose discard they answer; the same events).

    >>> evs = next(hand_events(3, hands=1, seed=3, policies="random"))
    >>> evs[0]["type"], len(evs[0]["hands"]), evs[-1]["type"]
    ('deal', 3, 'settle')
    """
    cfg = make_config(players, rules)
    pols = check_policies(policies, cfg.active)
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 0:
        raise KaptaiError(f"hands={quote_token(hands)}: expected a whole number >= 0")
    for i in range(int(hands)):
        yield play_hand(cfg, pols, i, seed=seed, hand_class=hand_class)


def play_hand(cfg: EngineConfig, policies: Sequence[Any], index: int, *, seed: int | None,
              hand_class: type | None = None, seats: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """Hand ``index`` of :func:`hand_events` (its deal from ``seed``; ``policies``: one per active
    seat, numbered from the hand's dealer) and its events.  ``seats``: the table's seat of each
    of the hand's seats (a rotating deal, ``kaptai play``), written in its ``deal`` event, the
    ``settle``'s result by the table's seat."""
    ss = np.random.SeedSequence(seed, spawn_key=(int(index),))
    evs: list[dict[str, Any]] = []
    h = (hand_class or _Logged)(cfg, check_policies(list(policies), cfg.active),
                                RandomStream(np.random.PCG64(ss)), int(index), evs)
    with ref.compiled_rollouts():
        row = h.play()
    evs.insert(0, _deal_event(cfg, int(index), h.deck, seats))
    evs.append(_settle(cfg, row, seats))
    return evs


def record_hands(
    path: str | os.PathLike,
    players: int = 3,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "max_melds",
    hands: int = 1,
    seed: int | None = 0,
) -> Path:
    """Play ``hands`` hands (reference engine) and write their record to ``path`` (atomically).

    Parameters
    ----------
    path : str or path
        The ``.jsonl`` file to write (its folder must exist).
    players, rules, policies
        The table, as :func:`kaptai.nantong.simulate.simulate` takes it (one policy per active seat).
    hands : int
    seed : int or None
        Seed of the deals (and of the policies' draws).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile, json
    >>> p = record_hands(os.path.join(tempfile.mkdtemp(), "r.jsonl"), 4, hands=1, seed=2, policies="random")
    >>> h = json.loads(open(p).readline()); h["players"], len(h["policies"])
    (4, 3)
    """
    from kaptai.core.paths import check_output_path

    p = check_output_path(path, ("jsonl",), what="--record")
    cfg = make_config(players, rules)
    pols = check_policies(policies, cfg.active)
    header = make_header(GAME, cfg.rules.to_dict(), cfg.players, [getattr(x, "name", str(x)) for x in pols],
                         unit_of(cfg), seed=seed, hands=hands)
    write_record(p, header, hand_events(cfg.players, cfg.rules, policies=pols, hands=hands, seed=seed))
    return p


# --------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------


def _setup(header: dict[str, Any]) -> EngineConfig:
    return make_config(header["players"], header["rules"])


def unit_of(cfg: EngineConfig) -> str:
    """The unit of a table's results: a share of the hand win under ``rank_only``, points under
    the other settlements."""
    return _UNITS.get(cfg.rules.settlement, "points")


class _DeckStream:
    """A stream whose draws make the engine's Fisher-Yates shuffle deal a given deck."""

    def __init__(self, deck: Sequence[int]):
        cur = list(range(len(deck)))
        where = {c: i for i, c in enumerate(cur)}
        self.draws = []
        for i in range(len(deck) - 1, 0, -1):
            j = where[deck[i]]
            self.draws.append(j)
            a, b = cur[i], cur[j]
            cur[i], cur[j] = b, a
            where[a], where[b] = j, i
        self.draws.reverse()

    def bounded(self, n: int) -> int:
        return self.draws.pop()


class _Script(Policy):
    """Each seat's recorded answers, read from the hand's cursor."""

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

    def _kind(self, e: dict[str, Any]) -> int:
        try:
            return int(parse_card(e["cards"]))
        except KaptaiError as exc:
            raise self.cur.error("cards", str(exc)) from None

    def _is(self, seat: int, typ: str) -> dict[str, Any] | None:
        e = self.cur.peek() if self.cur.pos < len(self.cur.hand.events) else None
        return e if e is not None and e["type"] == typ and e["seat"] == seat else None

    def discard(self, view: Any) -> int:
        return self._kind(self._next(view.seat, ("discard",), "discard"))

    def claim(self, view: Any, kind: int, options: tuple[str, ...]) -> str:
        e = self._next(view.seat, ("claim",), f"answer the discard of {format_card(kind)} ({', '.join(options)})")
        if self._kind(e) != kind:
            raise self.cur.error("cards", f"{quote_token(e['cards'])}: the discard to answer is {format_card(kind)}")
        if e["choice"] not in options:
            raise self.cur.error("choice", f"{e['choice']!r} is not allowed here: expected one of {', '.join(options)}")
        return str(e["choice"])

    def self_win(self, view: Any) -> bool:
        return self._is(view.seat, "win") is not None

    def self_kong(self, view: Any, options: tuple[tuple[str, int], ...]) -> Any:
        e = self._is(view.seat, "kong")
        if e is None:
            return None
        move = (e["kong"], self._kind(e))
        if move not in options:
            raise self.cur.error("cards", f"{e['kong']} {quote_token(e['cards'])} is not a kong seat {view.seat} can "
                                          f"declare here")
        return move

    def qishou(self, view: Any, meld: tuple[str, int]) -> bool:
        e = self._is(view.seat, "expose")
        return e is not None and e["cards"] == format_card(meld[1])


def _replay_hand(cfg: EngineConfig, cur: HandCursor, carry: Any) -> tuple[int, ...]:
    hand = cur.hand
    text = str(hand.deal["deck"])
    seen = [0] * 30
    deck = []
    for tok in text.split():
        try:
            k = int(parse_card(tok))
        except KaptaiError as exc:
            raise cur.error("deck", str(exc)) from None
        if seen[k] >= 4:
            raise cur.error("deck", f"a fifth {tok}: the deck holds 4 of each kind")
        deck.append(4 * k + seen[k])
        seen[k] += 1
    if len(deck) != DECK_CARDS:
        raise cur.error("deck", f"{len(deck)} cards: a deal is the {DECK_CARDS} cards, each kind 4 times")
    seats = _check_seats(cfg, cur, carry)
    cur.expect(_deal_event(cfg, hand.index, deck, seats))

    class _Replay(_Logged):
        def on_event(self, e: dict[str, Any]) -> None:
            cur.expect(e)

    script = _Script(cur)
    h = _Replay(cfg, [script] * cfg.active, _DeckStream(deck), hand.index, [])
    try:
        row = h.play()
    except IllegalMoveError as exc:
        e = cur.peek()
        raise cur.error("choice" if e["type"] == "claim" else "cards", str(exc)) from None
    cur.expect(_settle(cfg, row, seats))
    return () if seats is None else tuple(seats)


def _check_seats(cfg: EngineConfig, cur: HandCursor, carry: Any) -> list[int] | None:
    """The deal's ``seats`` (None without), checked: each of the table's seats once, the dealer
    first, then its 下家 in turn order, the sitter of a 4-player table (3 active) last; after a
    hand replayed before it (``carry``: that hand's seats, ``()`` for none), the deal passed to
    the last dealer's 下家, the sitter the dealer's 上家, and every hand with ``seats`` or none."""
    seats = cur.hand.deal.get("seats")
    P, A = cfg.players, cfg.active
    cur.seats_named_throughout(carry)
    if seats is None:
        return None
    if sorted(seats) != list(range(P)):
        raise cur.error("seats", f"{seats}: each of the {P} seats once")
    d = seats[0]
    sitter = seats[A] if P > A else None
    order = [(d + s) % P for s in range(P) if (d + s) % P != sitter]
    if list(seats[:A]) != order:
        raise cur.error("seats", f"{seats}: the hand's seats are the dealer then the seats after it in turn "
                                 f"order ({order}), the sitter last")
    if carry:
        if d != (carry[0] + 1) % P:
            raise cur.error("seats", f"{seats}: seat {d} deals, but the deal passes to the last dealer's 下家, "
                                     f"seat {(carry[0] + 1) % P}")
        if sitter is not None and sitter != (d - 1) % P:
            raise cur.error("seats", f"{seats}: seat {sitter} sits out, but the sitter is the dealer's 上家, "
                                     f"seat {(d - 1) % P}")
    return [int(p) for p in seats]


#: The game's record format (schema and replay).
FORMAT = RecordFormat(GAME, "settlement", _EVENTS, setup=_setup, replay_hand=_replay_hand, unit_of=unit_of)


def read(path: str | os.PathLike) -> Record:
    """Parse and check a Nantong record (schema only; :func:`replay` also replays it)."""
    return read_record(path, FORMAT)


def replay(path: str | os.PathLike) -> ReplaySummary:
    """Replay a Nantong record in the reference engine; :class:`kaptai.core.records.RecordError`
    at the first line (and field) the engine does not reproduce."""
    return replay_record(read(path), FORMAT)
