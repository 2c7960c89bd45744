"""Big Two (鋤大D) game records: writing, the event vocabulary and replay.

A record (``docs/records.md``) is JSON Lines: a header, then per game a ``deal`` event (the
deck in deal order: seat 0 takes the first ``52 // N`` cards, seat 1 the next, the rest are
the leftover), the deal phase (``leftover``, ``swap``, ``instant_win``, ``redeal`` followed by
the next ``deal``), every turn (``play`` with ``lead`` true for the first play of a trick, or
``pass``, ``auto`` true when a seat locked out by ``pass_locks_out`` passes), and a ``settle``
event (each seat's net in points x stake, §5 settlement without bankrolls, as
:func:`kaptai.bigtwo.simulate.simulate` prices one game).  Cards are written as
:func:`kaptai.bigtwo.cards.format_cards` prints them, a play ascending by strength.

:func:`record_hands` plays the games (the compiled engine when every seat plays a built-in
policy, on decks drawn from the seed) and writes the record; :func:`replay` replays one in
the reference engine (:class:`kaptai.bigtwo.engine_reference.Game`, each turn the recorded
play) and checks every event and the settlement.

Examples
--------
>>> import os, tempfile
>>> from kaptai.bigtwo.records import record_hands, replay
>>> path = os.path.join(tempfile.mkdtemp(), "b2.jsonl")
>>> _ = record_hands(path, hands=3, seed=1, policies="greedy")
>>> s = replay(path); s.hands, round(sum(s.totals), 9)
(3, 0.0)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kaptai.bigtwo import scoring
from kaptai.bigtwo.cards import N_CARDS, format_cards, parse_cards
from kaptai.bigtwo.config import EngineConfig, IllegalPlayError, make_config
from kaptai.bigtwo.rules import RuleSet
from kaptai.core.records import (
    DeckCursor, HandCursor, Record, RecordError, RecordFormat, ReplaySummary, cards_schema, make_header,
    read_record, replay_record, seat_schema, spare_deck_hands, write_record,
)
from kaptai.errors import KaptaiError, quote_token

__all__ = ["FORMAT", "GAME", "UNIT", "record_hands", "hand_events", "read", "replay", "settle_event"]

GAME = "big-two"
#: Unit of the ``settle`` results.
UNIT = "points x stake"
#: Games played per engine call when writing (each batch its own deck and policy streams).
BATCH = 500

_SEAT = seat_schema(none=False)
_CARDS = cards_schema("cards in the game's notation (kaptai.bigtwo.cards), ascending by strength")


def _event(typ: str, required: Sequence[str], props: Mapping[str, Any], description: str) -> dict[str, Any]:
    return {"type": "object", "description": description, "required": ["type", *required],
            "properties": {"type": {"const": typ}, **props}, "additionalProperties": False}


_EVENTS: dict[str, dict[str, Any]] = {
    "deal": _event("deal", ["hand", "deck", "hands"], {
        "hand": {"type": "integer", "minimum": 0},
        "deck": cards_schema("the 52 cards in deal order: seat 0 takes the first 52 // N, then seat 1 ..., "
                             "the rest is the leftover"),
        "hands": {"type": "array", "items": _CARDS, "minItems": 2, "maxItems": 52},
    }, "a deal (a redeal is followed by another deal in the same game)"),
    "leftover": _event("leftover", ["seat", "cards"], {"seat": seat_schema(none=True), "cards": _CARDS},
                       "the 52 mod N leftover cards go to the seat (-1: the leftover is the lowest card, out of play)"),
    "swap": _event("swap", ["seat", "cards", "swapped"], {"seat": _SEAT, "cards": _CARDS, "swapped": {"type": "boolean"}},
                   "Malaysian 3-player swap: the lowest card's holder takes the leftover card or not"),
    "instant_win": _event("instant_win", ["seat", "cards", "kind"], {
        "seat": _SEAT, "cards": _CARDS, "kind": {"enum": ["dragon", "four_twos"]}}, "an instant win ends the game"),
    "redeal": _event("redeal", ["seat", "cards"], {"seat": _SEAT, "cards": _CARDS},
                     "the seat's hand calls a redeal; the next event is the new deal"),
    "play": _event("play", ["seat", "cards", "lead"], {"seat": _SEAT, "cards": _CARDS, "lead": {"type": "boolean"}},
                   "a play (lead: the first play of a trick)"),
    "pass": _event("pass", ["seat", "auto"], {"seat": _SEAT, "auto": {"type": "boolean"}},
                   "a pass (auto: a seat locked out by pass_locks_out)"),
    "settle": _event("settle", ["winner", "liable", "cards_left", "result"], {
        "winner": _SEAT, "liable": seat_schema(none=True),
        "cards_left": {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 52}},
        "result": {"type": "array", "items": {"type": "number"}},
    }, "the end of the game: each seat's net (points x stake, no bankrolls)"),
}

_KINDS = {1: "dragon", 2: "four_twos"}
# engine log action codes (kaptai.bigtwo.config.ACTIONS)
_DEAL, _LEFTOVER, _SWAP, _INSTANT, _REDEAL, _LEAD, _PLAY, _PASS, _WIN = range(9)


def _bits(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


class _Events:
    """Turns the engine's log rows of one game into events (the same for the compiled run and
    the replay, so the two can be compared event by event)."""

    def __init__(self, cfg: EngineConfig, hand: int, decks: Any):
        self.cfg, self.hand, self.decks = cfg, hand, decks
        self.strength = cfg.card_strength
        self.used = 0
        self.prev = -1

    def text(self, mask: int) -> str:
        return format_cards(sorted(_bits(int(mask)), key=lambda c: int(self.strength[c])))

    def deal(self) -> dict[str, Any]:
        if self.used >= len(self.decks):
            raise KaptaiError(f"game {self.hand}: a deal without a deck")
        deck = [int(c) for c in self.decks[self.used]]
        self.used += 1
        h, N = self.cfg.hand_size, self.cfg.players
        hands = [self.text(sum(1 << c for c in deck[s * h:(s + 1) * h])) for s in range(N)]
        return {"type": "deal", "hand": self.hand, "deck": format_cards(deck), "hands": hands}

    def feed(self, rows: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for row in rows:
            seat, action, cards, value = (int(x) for x in row[2:6])
            prev, self.prev = self.prev, action
            starts = action in (_LEFTOVER, _SWAP) or (action == _DEAL and prev not in (_LEFTOVER, _SWAP, _DEAL))
            if starts:
                out.append(self.deal())
            if action == _LEFTOVER:
                out.append({"type": "leftover", "seat": seat, "cards": self.text(cards)})
            elif action == _SWAP:
                out.append({"type": "swap", "seat": seat, "cards": self.text(cards), "swapped": bool(value)})
            elif action == _INSTANT:
                out.append({"type": "instant_win", "seat": seat, "cards": self.text(cards), "kind": _KINDS[value]})
            elif action == _REDEAL:
                out.append({"type": "redeal", "seat": seat, "cards": self.text(cards)})
            elif action in (_LEAD, _PLAY):
                out.append({"type": "play", "seat": seat, "cards": self.text(cards), "lead": action == _LEAD})
            elif action == _PASS:
                out.append({"type": "pass", "seat": seat, "auto": bool(value)})
        return out


def _nets(cfg: EngineConfig, out: Mapping[str, Any]) -> np.ndarray:
    """Each game's net per seat (points x stake), as :mod:`kaptai.bigtwo.atlas` prices a game."""
    r = cfg.rules.replace(bankroll="off")
    p = scoring.penalties(out["cards_left"], r, points_left=out["points_left"], winner=out["winner"],
                          instant=out["instant"])
    return scoring.settle_many(p, r, winner=out["winner"], liable=out["liable"]).astype(np.float64)


def settle_event(cfg: EngineConfig, out: Mapping[str, Any], g: int, nets: np.ndarray) -> dict[str, Any]:
    """The ``settle`` event of game ``g`` of outcome arrays ``out`` with nets ``nets[g]``."""
    return {"type": "settle", "winner": int(out["winner"][g]), "liable": int(out["liable"][g]),
            "cards_left": [int(x) for x in out["cards_left"][g]], "result": [round(float(x), 10) for x in nets[g]]}


def _table(players: int | None, rules: Any, policies: Any, malaysian_swap: str) -> tuple[EngineConfig, list]:
    from kaptai.bigtwo.policies import check_policies

    cfg = make_config(players, rules, malaysian_swap=malaysian_swap)
    return cfg, check_policies(policies, cfg.players)


def hand_events(
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "greedy",
    hands: int = 1,
    seed: int | None = 0,
    malaysian_swap: str = "policy",
    on_hand: Callable[[int, list[dict[str, Any]]], None] | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Play ``hands`` games and yield each game's events (``deal`` ... ``settle``).

    The decks come from the seed (:func:`kaptai.core.records.batch_streams`, batches of
    :data:`BATCH` games; one batch for the whole run under ``first_lead='previous_winner'``,
    whose first lead follows the previous game).  With ``on_hand``, the runs are the reference
    engine's and ``on_hand(i, events)`` gets game ``i``'s events as soon as it is over, before
    its batch ends (a game a batch plays again after drawing more spare decks comes again).

    >>> evs = next(hand_events(4, hands=1, seed=3))
    >>> evs[0]["type"], evs[-1]["type"], len(evs[0]["hands"])
    ('deal', 'settle', 4)
    """
    from kaptai.bigtwo.engine import run_hands

    cfg, pols = _table(players, rules, policies, malaysian_swap)
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 0:
        raise KaptaiError(f"hands={quote_token(hands)}: expected a whole number >= 0")
    batch = int(hands) if cfg.rules.first_lead == "previous_winner" else BATCH
    done = 0
    nets: list[Any] = [None, None]  # the outcomes last converted, and their nets

    def events(g: int, out: Mapping[str, Any], j: int, rows: np.ndarray, decks: DeckCursor) -> list[dict[str, Any]]:
        """Game ``done + g``'s events from its log rows and row ``j`` of the outcomes ``out``."""
        if nets[0] is not out:
            nets[0], nets[1] = out, _nets(cfg, out)
        conv = _Events(cfg, done + g, decks.decks[decks.used:])
        evs = conv.feed(rows)
        decks.used += conv.used
        evs.append(settle_event(cfg, out, j, nets[1]))
        return evs

    def run(decks: np.ndarray, policy_bg: Any, hand_over: Any) -> Any:  # a redeal takes a spare deck
        return run_hands(cfg, pols, policy_bg, n, record=n, decks=decks, on_hand=hand_over)

    def over(g: int, evs: list[dict[str, Any]]) -> None:
        assert on_hand is not None
        on_hand(done + g, evs)

    for b in range(-(-int(hands) // batch) if hands else 0):
        n = min(batch, int(hands) - done)
        # the compiled engine says it ran out of spare decks as a ValueError: more are drawn
        yield from spare_deck_hands(seed, b, n, N_CARDS, n // 8 + 8, run, events, None if on_hand is None else over,
                                    errors=(KaptaiError, ValueError))
        done += n


def record_hands(
    path: str | os.PathLike,
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "greedy",
    hands: int = 1,
    seed: int | None = 0,
    malaysian_swap: str = "policy",
) -> Path:
    """Play ``hands`` games and write their record to ``path`` (atomically).

    Parameters
    ----------
    path : str or path
        The ``.jsonl`` file to write (its folder must exist).
    players, rules, policies, malaysian_swap
        The table, as :func:`kaptai.bigtwo.simulate.simulate` takes it.
    hands : int
        Games to play and record.
    seed : int or None
        Seed of the decks and of the policies' draws.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile, json
    >>> p = record_hands(os.path.join(tempfile.mkdtemp(), "r.jsonl"), 3, hands=1, seed=2)
    >>> json.loads(open(p).readline())["players"]
    3
    """
    from kaptai.core.paths import check_output_path

    p = check_output_path(path, ("jsonl",), what="--record")
    cfg, pols = _table(players, rules, policies, malaysian_swap)
    header = make_header(GAME, cfg.rules.to_dict(), cfg.players, [getattr(x, "name", str(x)) for x in pols], UNIT,
                         seed=seed, hands=hands, stake=float(cfg.rules.stake), malaysian_swap=malaysian_swap)
    write_record(p, header, hand_events(players, cfg.rules, policies=pols, hands=hands, seed=seed,
                                        malaysian_swap=malaysian_swap))
    return p


# --------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------


def _setup(header: dict[str, Any]) -> EngineConfig:
    return make_config(header["players"], header["rules"], malaysian_swap=header.get("malaysian_swap", "policy"))


class _Script:
    """The recorded Malaysian swap decisions, as a policy (no turn is ever asked of it)."""

    name = "record"

    def __init__(self, swaps: list[bool]):
        self.swaps = swaps

    def choose(self, view: Any) -> Any:  # pragma: no cover - the replay passes every choice to step()
        raise KaptaiError("the replay chooses no play")

    def swap(self, view: Any) -> bool:
        return self.swaps.pop(0) if self.swaps else False


def _parse(cur: HandCursor, text: Any, field: str, line: int) -> list[int]:
    try:
        return list(parse_cards(text))
    except KaptaiError as exc:
        raise cur.error(field, str(exc), line=line) from None


def _replay_hand(cfg: EngineConfig, cur: HandCursor, carry: Any) -> int:
    from kaptai.bigtwo.engine_reference import Game

    hand = cur.hand
    decks: list[list[int]] = []
    swaps: list[bool] = []
    for line, e in zip(hand.lines, hand.events):
        if e["type"] == "deal":
            deck = _parse(cur, e["deck"], "deck", line)
            if sorted(deck) != list(range(N_CARDS)):
                raise cur.error("deck", f"{quote_token(e['deck'])} is not the 52 cards, each once", line=line)
            decks.append(deck)
        elif e["type"] == "swap":
            swaps.append(bool(e["swapped"]))
    prev = -1 if carry is None else int(carry)
    g = Game(cfg, _Script(swaps), None, decks=decks, previous_winner=prev, index=hand.index, record=True)
    conv = _Events(cfg, hand.index, decks)
    cur.expect_all(conv.feed(g.log))
    seen = len(g.log)
    while not g.over:
        ev = cur.peek()
        if ev["type"] not in ("play", "pass"):
            raise cur.error("type", f"{ev['type']!r}: seat {g.seat} is to play or pass here")
        if ev["seat"] != g.seat:
            raise cur.error("seat", f"{ev['seat']}: seat {g.seat} is to play here")
        choice = None if ev["type"] == "pass" else _parse(cur, ev["cards"], "cards", cur.line)
        try:
            g.step(choice)
        except IllegalPlayError as exc:
            raise cur.error("cards" if ev["type"] == "play" else "type", str(exc)) from None
        cur.expect_all(conv.feed(g.log[seen:]))
        seen = len(g.log)
    res = g.play()  # the game is over: its result
    out = {k: np.asarray([getattr(res, k)]) for k in ("winner", "liable", "instant")}
    out["cards_left"] = np.asarray([res.cards_left])
    out["points_left"] = np.asarray([res.points_left])
    cur.expect(settle_event(cfg, out, 0, _nets(cfg, out)))
    return res.winner


#: The game's record format (schema and replay).
FORMAT = RecordFormat(GAME, UNIT, _EVENTS, header_extra={"malaysian_swap": {"enum": ["policy", "always", "never"]}},
                      setup=_setup, replay_hand=_replay_hand)


def read(path: str | os.PathLike) -> Record:
    """Parse and check a Big Two record (schema only; :func:`replay` also replays it)."""
    return read_record(path, FORMAT)


def replay(path: str | os.PathLike) -> ReplaySummary:
    """Replay a Big Two record in the reference engine; :class:`RecordError` at the first
    line (and field) the engine does not reproduce."""
    return replay_record(read(path), FORMAT)


_ = RecordError  # re-exported through kaptai.core.records
