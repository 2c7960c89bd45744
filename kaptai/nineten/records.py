"""Nine-ten (十胡) game records: writing, the event vocabulary and replay.

A record (``docs/records.md``) is JSON Lines: a header, then per hand a ``deal`` event (the
dealer and the 112 cards in deal order, as kinds: the dealer takes the first cards, then each
seat in turn, the rest is the stock flipped from the front), the events of the hand in order
(``natural``, ``redeal`` followed by the next ``deal``, ``discard``, ``flip``, ``claim``,
``dead``, ``waste``, ``bonus``) and a ``settle`` event (each seat's net in 頭, as the engine
settles it; money = 頭 x ``stake_per_tou``).  Cards are written as
:func:`kaptai.nineten.cards.format_card` prints them.

Claims and dead cards are forced by the rules; the only decision is the discard, so a replay
takes each recorded discard as the seat's choice and checks everything else against what the
reference engine (:mod:`kaptai.nineten.engine_reference`) does from the recorded deal.

Examples
--------
>>> import os, tempfile
>>> from kaptai.nineten.records import record_hands, replay
>>> path = os.path.join(tempfile.mkdtemp(), "n.jsonl")
>>> _ = record_hands(path, hands=3, seed=1)
>>> s = replay(path); s.hands, round(sum(s.totals), 9)
(3, 0.0)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kaptai.core.records import (
    DeckCursor, HandCursor, Record, RecordFormat, ReplaySummary, cards_schema, event_schema, make_header,
    read_record, replay_record, seat_schema, settle_schema, spare_deck_hands, write_record,
)
from kaptai.errors import KaptaiError, quote_token
from kaptai.nineten.cards import N_KINDS, format_card, parse_card
from kaptai.nineten.config import MAX_REDEALS, WIN_CODES, EngineConfig, IllegalMoveError, check_policies, make_config
from kaptai.nineten.rules import RuleSet

__all__ = ["FORMAT", "GAME", "UNIT", "record_hands", "hand_events", "read", "replay"]

GAME = "nine-ten"
#: Unit of the ``settle`` results (money = 頭 x the header's ``stake``, the rules' ``stake_per_tou``).
UNIT = "tou"
N_CARDS = 4 * N_KINDS
_WIN_NAMES = {v: k for k, v in WIN_CODES.items()}
A_DEAL, A_REDEAL, A_NATURAL, A_DISCARD, A_FLIP, A_CLAIM, A_DEAD, A_WASTE, A_BONUS, A_WIN, A_DRAWN = range(11)

_SEAT = seat_schema()
_CARD = cards_schema("one card, as kaptai.nineten.cards.format_card prints it")


def _ev(typ: str, what: str, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    props = {"seat": _SEAT, "cards": _CARD, **(extra or {})}
    return event_schema(typ, list(props), props, what)


_EVENTS: dict[str, dict[str, Any]] = {
    "deal": event_schema("deal", ["hand", "dealer", "deck", "hands"], {
        "hand": {"type": "integer", "minimum": 0}, "dealer": _SEAT,
        "deck": cards_schema("the 112 cards in deal order, as kinds: the dealer's cards first, then each seat "
                             "after it in turn; the rest is the stock, flipped from the front"),
        "hands": {"type": "array", "items": cards_schema("a seat's dealt cards"), "minItems": 2},
    }, "a deal (a redeal is followed by another deal in the same hand)"),
    "redeal": event_schema("redeal", ["seat"], {"seat": _SEAT}, "the dealer's natural is redealt (natural=redeal)"),
    "natural": event_schema("natural", ["seat"], {"seat": _SEAT}, "the dealer was dealt five pairs"),
    "discard": _ev("discard", "a discard (forced: a dead card had to go)", {"forced": {"type": "boolean"}}),
    "flip": _ev("flip", "a card flipped from the stock, offered first to the seat", {"stock_left": {"type": "integer", "minimum": 0}}),
    "claim": _ev("claim", "the seat claims the offered card (forced by the rules)"),
    "dead": _ev("dead", "the seat lays its single of the claimed kind face up as a dead card"),
    "waste": _ev("waste", "nobody can claim the offered card"),
    "bonus": _ev("bonus", "a bonus card flipped for the winner"),
    "settle": settle_schema({
        "winner": seat_schema(none=True), "win_type": {"enum": list(WIN_CODES)},
        "cards": cards_schema("the winning card ('' for a natural or a drawn hand)"),
        "tou": {"type": "integer", "minimum": 0},
    }, "tou"),
}


def _kinds_text(kinds: Sequence[int]) -> str:
    return " ".join(format_card(k) for k in kinds)


def _deal_event(cfg: EngineConfig, hand: int, dealer: int, deck: Sequence[int]) -> dict[str, Any]:
    N = cfg.players
    hands: list[list[int]] = [[] for _ in range(N)]
    pos = 0
    for i in range(N):
        s = (dealer + i) % N
        size = cfg.dealer_cards if i == 0 else cfg.other_cards
        hands[s] = sorted(c // 4 for c in deck[pos:pos + size])
        pos += size
    return {"type": "deal", "hand": hand, "dealer": dealer, "deck": _kinds_text([c // 4 for c in deck]),
            "hands": [_kinds_text(h) for h in hands]}


def _row_event(seat: int, action: int, card: int, value: int) -> dict[str, Any] | None:
    if action == A_REDEAL:
        return {"type": "redeal", "seat": seat}
    if action == A_NATURAL:
        return {"type": "natural", "seat": seat}
    if action == A_DISCARD:
        return {"type": "discard", "seat": seat, "cards": format_card(card), "forced": bool(value)}
    if action == A_FLIP:
        return {"type": "flip", "seat": seat, "cards": format_card(card), "stock_left": value}
    name = {A_CLAIM: "claim", A_DEAD: "dead", A_WASTE: "waste", A_BONUS: "bonus"}.get(action)
    if name is None:
        return None  # deal rows (the deal event), win and drawn (the settle event)
    return {"type": name, "seat": seat, "cards": format_card(card)}


def _settle(winner: int, win: str, card: int, tou: int, net: Sequence[int]) -> dict[str, Any]:
    return {"type": "settle", "winner": int(winner), "win_type": win, "cards": format_card(card) if card >= 0 else "",
            "tou": int(tou), "result": [float(x) for x in net]}


def hand_events(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "colour_cut",
    hands: int = 1,
    seed: int | None = 0,
    samples: int | None = None,
    on_hand: Callable[[int, list[dict[str, Any]]], None] | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Play ``hands`` hands (one engine run: the dealer passes as the rules say) and yield each
    hand's events (``deal`` ... ``settle``).  With ``on_hand``, the run is the reference
    engine's and ``on_hand(i, events)`` gets hand ``i``'s events as soon as it is over, before
    the run ends (a hand the run plays again after drawing more spare decks comes again).

    >>> evs = next(hand_events(4, hands=1, seed=3))
    >>> evs[0]["type"], evs[0]["dealer"], evs[-1]["type"]
    ('deal', 0, 'settle')
    """
    from kaptai.nineten.engine import run_hands

    cfg = make_config(players, rules, samples=samples)
    pols = check_policies(policies, cfg.players)
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
        wcard = -1
        dealer = int(out["dealer"][j])
        for row in rows:
            seat, action, card, value = (int(x) for x in row[2:6])
            if action == A_DEAL and prev != A_DEAL:
                evs.append(_deal_event(cfg, i, dealer, [int(c) for c in decks.take()]))
            prev = action
            if action == A_WIN:
                wcard = card
            e = _row_event(seat, action, card, value)
            if e is not None:
                evs.append(e)
        w = int(out["winner"][j])
        evs.append(_settle(w, _WIN_NAMES[int(out["win_type"][j])], wcard, int(out["tou"][j]) if w >= 0 else 0,
                           out["net"][j]))
        return evs

    def run(decks: np.ndarray, policy_bg: Any, hand_over: Any) -> Any:  # a redeal takes a spare deck
        return run_hands(cfg, n, policy_bg, pols, record=n, decks=decks, on_hand=hand_over)

    yield from spare_deck_hands(seed, 0, n, N_CARDS, n // 8 + 8, run, events, on_hand)


def record_hands(
    path: str | os.PathLike,
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "colour_cut",
    hands: int = 1,
    seed: int | None = 0,
    samples: int | None = None,
) -> Path:
    """Play ``hands`` hands and write their record to ``path`` (atomically).

    Parameters
    ----------
    path : str or path
        The ``.jsonl`` file to write (its folder must exist).
    players, rules, policies, samples
        The table, as :func:`kaptai.nineten.simulate.simulate` takes it.
    hands : int
    seed : int or None
        Seed of the decks and of the policies' draws.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile, json
    >>> p = record_hands(os.path.join(tempfile.mkdtemp(), "r.jsonl"), 5, hands=1, seed=2)
    >>> json.loads(open(p).readline())["unit"]
    'tou'
    """
    from kaptai.core.paths import check_output_path

    p = check_output_path(path, ("jsonl",), what="--record")
    cfg = make_config(players, rules, samples=samples)
    pols = check_policies(policies, cfg.players)
    header = make_header(GAME, cfg.rules.to_dict(), cfg.players, [getattr(x, "name", str(x)) for x in pols], UNIT,
                         seed=seed, hands=hands, stake=float(cfg.rules.stake_per_tou))
    write_record(p, header, hand_events(cfg.players, cfg.rules, policies=pols, hands=hands, seed=seed,
                                        samples=samples))
    return p


# --------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------


def _setup(header: dict[str, Any]) -> EngineConfig:
    return make_config(header["players"], header["rules"])


class _Script:
    """Each seat's recorded discards, read from the hand's cursor; claims and dead cards are
    the rules' (always yes)."""

    name = "record"

    def __init__(self, cur: HandCursor):
        self.cur = cur

    def discard(self, view: Any) -> int:
        e = self.cur.peek()
        if e["type"] != "discard":
            raise self.cur.error("type", f"{e['type']!r}: seat {view.seat} is to discard here")
        if e["seat"] != view.seat:
            raise self.cur.error("seat", f"{e['seat']}: seat {view.seat} is to discard here")
        try:
            return int(parse_card(e["cards"]))
        except KaptaiError as exc:
            raise self.cur.error("cards", str(exc)) from None

    def claim(self, view: Any, card: int) -> bool:
        return True

    def expose_dead(self, view: Any, card: int) -> bool:
        return True


def _physical(cur: HandCursor, text: str, line: int) -> list[int]:
    """The deck of a recorded ``deal`` (kinds) as physical cards (copies numbered in order)."""
    seen = [0] * N_KINDS
    out = []
    for tok in text.split():
        try:
            k = int(parse_card(tok))
        except KaptaiError as exc:
            raise cur.error("deck", str(exc), line=line) from None
        if seen[k] >= 4:
            raise cur.error("deck", f"a fifth {tok}: the deck holds 4 of each kind", line=line)
        out.append(4 * k + seen[k])
        seen[k] += 1
    if len(out) != N_CARDS:
        raise cur.error("deck", f"{len(out)} cards: a deal is the {N_CARDS} cards, each kind 4 times", line=line)
    return out


def _replay_hand(cfg: EngineConfig, cur: HandCursor, carry: Any) -> tuple[int, int]:
    from kaptai.nineten import engine_reference as ref

    codes = cfg.codes()
    N = cfg.players
    hand = cur.hand
    first = hand.deal
    if codes["next_dealer"] == 2:  # redraw: the dealer is drawn at random, any seat
        dealer = int(first["dealer"])
    elif carry is None:
        dealer = 0
    else:
        prev_dealer, prev_winner = carry
        dealer = (prev_dealer + 1) % N if codes["next_dealer"] == 0 else (prev_winner if prev_winner >= 0 else prev_dealer)
    if first["dealer"] != dealer:
        raise cur.error("dealer", f"{first['dealer']}: seat {dealer} deals this hand", line=hand.lines[0])

    def L(seat: int, action: int, card: int, value: int) -> None:
        e = _row_event(seat, action, card, value)
        if e is not None:
            cur.expect(e)

    script = _Script(cur)
    pols = [script] * N
    pcodes = [-1] * N
    redeals = 0
    while True:
        e = cur.peek()
        if e["type"] != "deal":
            raise cur.error("type", f"{e['type']!r}: a deal is next")
        deck = _physical(cur, e["deck"], cur.line)
        cur.expect(_deal_event(cfg, hand.index, dealer, deck))
        h = ref.Hand(cfg, deck, dealer)
        h.index = hand.index
        if h.pairs[dealer] == 5 and codes["natural"] == 2 and redeals < MAX_REDEALS:
            redeals += 1
            L(dealer, A_REDEAL, -1, redeals)
            continue
        break
    try:
        winner, win, source, wcard, kzwait = ref._play(cfg, codes, h, pols, pcodes, None, L, hand.index)
    except IllegalMoveError as exc:
        raise cur.error("cards", str(exc)) from None
    if winner < 0:
        cur.expect(_settle(-1, "drawn", -1, 0, [0] * N))
        return dealer, -1
    net, _colours, tou, _bonus, _kz, _flip = ref._settle(cfg, codes, h, winner, win, source, kzwait, L)
    cur.expect(_settle(winner, win, wcard, tou, net))
    return dealer, winner


#: The game's record format (schema and replay).
FORMAT = RecordFormat(GAME, UNIT, _EVENTS, setup=_setup, replay_hand=_replay_hand)


def read(path: str | os.PathLike) -> Record:
    """Parse and check a nine-ten record (schema only; :func:`replay` also replays it)."""
    return read_record(path, FORMAT)


def replay(path: str | os.PathLike) -> ReplaySummary:
    """Replay a nine-ten record in the reference engine; :class:`kaptai.core.records.RecordError`
    at the first line (and field) the engine does not reproduce."""
    return replay_record(read(path), FORMAT)
