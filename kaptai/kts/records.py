"""Kap Tai Shap (夾大十) and Kap Shap (夾十) game records: writing, events and replay.

A record (``docs/records.md``) is JSON Lines: a header, then per hand a ``deal`` event (the
dice total, the first hand 先手 it names, and the whole wall in order: the first hand takes
the first tiles, then each seat after it, the rest is drawn from the front), the events of the
hand (``discard``, ``claim``, ``decline``, ``draw`` and the ends: ``natural``, ``claim_win``,
``self_drawn_win``, ``drawn_hand``, ``turn_limit``) and a ``settle`` event (each seat's net in
antes under the ruleset's ``settlement`` and ``house_cut``, every hand settled on its own, a
drawn hand refunded, as :mod:`kaptai.kts.atlas` settles a hand).  Tiles are written in pips
(``6-6``), as :func:`kaptai.kts.tiles.format_tile` prints them; seat 0 is the dealer.  A record
of ``kaptai play`` is one session whose deal passes (:class:`Passing`): each ``deal`` says the
table's ``seats`` (and the dealer's ``streak``, the ``pot`` carried in), the events keep the
hand's seats, the ``settle`` adds the streak's points and is by the table's seat.

A replay takes each recorded claim, decline and discard as the seat's choice in the reference
engine (:mod:`kaptai.kts.engine_reference`), from the recorded wall.

Examples
--------
>>> import os, tempfile
>>> from kaptai.kts.records import record_hands, replay
>>> path = os.path.join(tempfile.mkdtemp(), "k.jsonl")
>>> _ = record_hands(path, 4, hands=3, seed=1)
>>> s = replay(path); s.hands
3
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kaptai.core.records import (
    HandCursor, Record, RecordFormat, ReplaySummary, cards_schema, event_schema, make_header, read_record,
    replay_record, seat_schema, settle_schema, write_record,
)
from kaptai.core.sampling import RandomStream
from kaptai.errors import KaptaiError, quote_token
from kaptai.kts.config import ACTIONS, EngineConfig, make_config
from kaptai.kts.rules import RuleSet, settlement_unit
from kaptai.kts.tiles import N_TILE_TYPES, format_tile, parse_tile

__all__ = ["FORMATS", "FORMAT", "UNIT", "unit_of", "record_hands", "record_hands_for", "hand_events", "read", "replay"]

#: Unit of the ``settle`` results under the pot settlement (:func:`unit_of`).
UNIT = settlement_unit("pot")


def unit_of(rules: RuleSet) -> str:
    """The unit of a table's results: antes under the pot settlement, points under advanced scoring
    (:func:`kaptai.kts.rules.settlement_unit` of its settlement).

    >>> from kaptai.kts.rules import resolve_rules
    >>> unit_of(resolve_rules("traditional")), unit_of(resolve_rules("advanced"))
    ('antes', 'points')
    """
    return settlement_unit(rules.settlement)
(DICE, DEAL, NATURAL, CLAIM, DECLINE, CLAIM_WIN, DRAW, SELF_DRAWN_WIN, DISCARD, DRAWN_HAND,
 TURN_LIMIT) = (ACTIONS.index(a) for a in ("dice", "deal", "natural", "claim", "decline", "claim_win", "draw",
                                            "self_drawn_win", "discard", "drawn_hand", "turn_limit"))
_WINS = {NATURAL: "natural", CLAIM_WIN: "claim_win", SELF_DRAWN_WIN: "self_drawn_win"}

_SEAT = seat_schema()


def _settle_schema() -> dict[str, Any]:
    """The ``settle`` event: ``winner``, ``score``, ``house``, ``result``; a passing deal's session
    adds ``bonus`` (the dealer streak's points in ``score``) and ``pot`` (the antes carried on)."""
    sch = settle_schema({"winner": seat_schema(none=True), "score": {"type": "integer", "minimum": 0},
                         "house": {"type": "number"}}, UNIT)
    sch["properties"]["bonus"] = {"type": "integer", "minimum": 0,
                                  "description": "the dealer streak's points (連莊, +2 x streak) in score"}
    sch["properties"]["pot"] = {"type": "number", "minimum": 0,
                                "description": "under drawn_hand='carry': the antes the pot carries to the next hand"}
    return sch
_TILE = cards_schema("one tile in pips (6-6), as kaptai.kts.tiles.format_tile prints it")


def _tiles(ids: Sequence[int]) -> str:
    return " ".join(format_tile(t) for t in ids)


def _ev(typ: str, what: str, tile: bool = True, score: bool = False) -> dict[str, Any]:
    props: dict[str, Any] = {"seat": _SEAT}
    if tile:
        props["cards"] = _TILE
    if score:
        props["score"] = {"type": "integer", "minimum": 0}
    return event_schema(typ, list(props), props, what)


_EVENTS: dict[str, dict[str, Any]] = {
    "deal": event_schema("deal", ["hand", "dice", "first", "wall", "hands"], {
        "hand": {"type": "integer", "minimum": 0},
        "dice": {"type": "integer", "minimum": 1, "description": "the dice total"},
        "first": _SEAT,
        "wall": cards_schema("every tile in wall order: the first hand takes the first tiles, then each seat "
                             "after it; the rest is drawn from the front"),
        "hands": {"type": "array", "items": cards_schema("a seat's dealt tiles"), "minItems": 2},
        "seats": {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2,
                  "description": "a session whose deal passes (kaptai play): the table's seat of each of the hand's "
                                 "seats, the dealer first; the hand's events number the seats from its dealer, the "
                                 "settle's result is by the table's seat. Absent: every hand is dealt afresh by "
                                 "seat 0 and settled on its own"},
        "streak": {"type": "integer", "minimum": 0,
                   "description": "with seats, under dealer_keeps_on_win: the hands the dealer has won in a row "
                                  "keeping the deal (連莊); a win now scores +2 x streak"},
        "pot": {"type": "number", "minimum": 0,
                "description": "with seats, under drawn_hand='carry': the antes carried into this hand's pot"},
    }, "the dice and the deal (seat 0 is the dealer; first = dice total mod players)"),
    "natural": _ev("natural", "the first hand was dealt a winning hand", tile=False, score=True),
    "discard": _ev("discard", "a discard"),
    "claim": _ev("claim", "the seat claims a tile from the table"),
    "decline": _ev("decline", "the seat declines to claim (cards: the candidate, '' among several)"),
    "claim_win": _ev("claim_win", "the claimed tile wins", score=True),
    "draw": _ev("draw", "a draw from the wall"),
    "self_drawn_win": _ev("self_drawn_win", "the drawn tile wins", score=True),
    "drawn_hand": _ev("drawn_hand", "the wall is empty: a drawn hand", tile=False),
    "turn_limit": _ev("turn_limit", "the hand stalls at the turn limit", tile=False),
    "settle": _settle_schema(),
}


def _deal_event(cfg: EngineConfig, hand: int, dice: int, first: int, wall: Sequence[int],
                passing: Passing | None = None) -> dict[str, Any]:
    P = cfg.players
    hands: list[list[int]] = [[] for _ in range(P)]
    pos = 0
    for i in range(P):
        seat = (first + i) % P
        n = cfg.n_first if i == 0 else cfg.n_other
        hands[seat] = sorted(wall[pos:pos + n])
        pos += n
    out: dict[str, Any] = {"type": "deal", "hand": hand, "dice": dice, "first": first, "wall": _tiles(wall),
                           "hands": [_tiles(h) for h in hands]}
    if passing is not None:
        out["seats"] = passing.seats(P)
        if cfg.rules.dealer_keeps_on_win:
            out["streak"] = passing.streak
        if cfg.rules.drawn_hand == "carry":
            out["pot"] = round(float(passing.pot), 10)
    return out


@dataclass(frozen=True)
class Passing:
    """Where a session whose deal passes (``kaptai play``) stands before a hand: the table's seat
    that deals, the dealer's streak (連莊: the hands it has won in a row keeping the deal) and the
    antes carried into the pot (``drawn_hand='carry'``).  The rules (§5): the deal passes to the
    dealer's next seat after every hand, unless the dealer wins and ``dealer_keeps_on_win``; a
    dealer winning with streak ``k >= 1`` scores ``+2k``; a drawn hand's pot rolls on under
    ``drawn_hand='carry'``.

    >>> from kaptai.kts.config import make_config
    >>> cfg = make_config(4, "advanced")
    >>> p = Passing(2, 0, 0.0)
    >>> p.seats(4), p.after(cfg, 0, 0.0), p.after(cfg, 1, 0.0), p.after(cfg, -1, 0.0)
    ([2, 3, 0, 1], Passing(dealer=2, streak=1, pot=0.0), Passing(dealer=3, streak=0, pot=0.0), Passing(dealer=3, streak=0, pot=0.0))
    """

    dealer: int = 0
    streak: int = 0
    pot: float = 0.0

    def seats(self, players: int) -> list[int]:
        """The table's seat of each of the hand's seats (the engine's: 0 deals), the dealer first."""
        return [(self.dealer + e) % players for e in range(players)]

    @staticmethod
    def keeps(cfg: EngineConfig, winner: int) -> bool:
        """Whether a win by the hand's seat ``winner`` keeps the deal (0, the dealer, wins under
        ``dealer_keeps_on_win``): the streak goes on, and the win scores it."""
        return winner == 0 and bool(cfg.rules.dealer_keeps_on_win)

    def bonus(self, cfg: EngineConfig, winner: int) -> int:
        """The streak's points in the score of a win by the hand's seat ``winner`` (0: the dealer)."""
        return 2 * self.streak if self.keeps(cfg, winner) else 0

    def after(self, cfg: EngineConfig, winner: int, pot: float) -> Passing:
        """Where the session stands after a hand won by the hand's seat ``winner`` (-1: drawn) that
        left ``pot`` antes in the pot."""
        if self.keeps(cfg, winner):
            return Passing(self.dealer, self.streak + 1, float(pot))
        return Passing((self.dealer + 1) % cfg.players, 0, float(pot))


def _row_event(seat: int, action: int, tile: int, value: int) -> dict[str, Any] | None:
    if action in (DICE, DEAL):
        return None  # the deal event
    if action == NATURAL:
        return {"type": "natural", "seat": seat, "score": value}
    if action in (DRAWN_HAND, TURN_LIMIT):
        return {"type": ACTIONS[action], "seat": seat}
    e: dict[str, Any] = {"type": ACTIONS[action], "seat": seat, "cards": format_tile(tile) if tile >= 0 else ""}
    if action in (CLAIM_WIN, SELF_DRAWN_WIN):
        e["score"] = value
    return e


def _settle(cfg: EngineConfig, winner: int, score: int, passing: Passing | None = None) -> dict[str, Any]:
    """The ``settle`` event of a hand won by the hand's seat ``winner`` (-1: none) with ``score``:
    settled on its own (a drawn hand refunded), or in a passing deal's session (``passing``: the
    streak's bonus added to a dealer's win, the carried pot in, ``result`` by the table's seat)."""
    from kaptai.core.settlement import settle_outcomes, settle_rounds

    r = cfg.rules
    if passing is None:
        nets, house, _ = settle_outcomes(r.settlement, cfg.players, [winner], [max(score, 0)], cut=r.house_cut)
        return {"type": "settle", "winner": winner, "score": max(score, 0), "house": round(float(house[0]), 10),
                "result": [round(float(x), 10) for x in nets[0]]}
    bonus = passing.bonus(cfg, winner)
    sc = max(score, 0) + bonus
    nets, take, pot = settle_rounds(r.settlement, cfg.players, [winner], [sc], cut=r.house_cut,
                                    pot_in=[passing.pot], drawn_hand=r.drawn_hand)
    result = [0.0] * cfg.players
    for e, t in enumerate(passing.seats(cfg.players)):
        result[t] = round(float(nets[0][e]), 10)
    out: dict[str, Any] = {"type": "settle", "winner": winner, "score": sc, "house": round(float(take[0]), 10),
                           "result": result}
    if bonus:
        out["bonus"] = bonus
    if r.drawn_hand == "carry":
        out["pot"] = round(float(pot[0]), 10)
    return out


def _wall_and_dice(cfg: EngineConfig, ss: Any) -> tuple[list[int], int]:
    """The wall and dice total the engine draws first from ``PCG64(ss)`` (docs/kap-tai-shap-engine.md,
    "Randomness")."""
    from kaptai.kts.engine_reference import shuffled_wall

    stream = RandomStream(np.random.PCG64(ss))
    wall = shuffled_wall(stream, cfg.copies)
    return wall, sum(stream.bounded(6) + 1 for _ in range(cfg.n_dice))


def _table(players: int, rules: Any, policies: Any, search_samples: int | None) -> tuple[EngineConfig, tuple]:
    from kaptai.kts.policies import resolve_policies

    cfg = make_config(players, rules, search_samples=search_samples)
    return cfg, resolve_policies(policies, cfg.players)


def hand_events(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "greedy",
    hands: int = 1,
    seed: int | None = 0,
    search_samples: int | None = None,
    passing: bool = False,
    before: Callable[[int, Passing], None] | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """Play ``hands`` hands and yield each hand's events (``deal`` ... ``settle``).

    Hand ``i`` is played on ``PCG64`` of the child ``(i,)`` of ``SeedSequence(seed)``: the
    engine draws its wall and dice from it before any policy acts, so the ``deal`` event holds
    the whole wall in its true order (read back from the same stream and checked against the
    engine's log).

    By default every hand is dealt by seat 0 and settled on its own (``kaptai simulate``).  With
    ``passing`` (``kaptai play``) the hands are one session at one table: ``policies`` are by
    the table's seat, seat 0 deals the first hand and the deal passes as the rules have it
    (:class:`Passing`: to the next seat, or kept by a winning dealer under
    ``dealer_keeps_on_win``, its streak scoring; a drawn hand's pot carried under
    ``drawn_hand='carry'``); each ``deal`` says the table's ``seats`` (and ``streak``, ``pot``),
    each ``settle``'s result is by the table's seat.  ``before(i, passing)`` is called as hand
    ``i`` starts.

    >>> evs = next(hand_events(4, hands=1, seed=3))
    >>> evs[0]["type"], evs[0]["first"] == evs[0]["dice"] % 4, evs[-1]["type"]
    ('deal', True, 'settle')
    >>> [evs[0]["seats"] for evs in hand_events(4, "advanced", hands=3, seed=3, passing=True)]
    [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1]]
    """
    from kaptai.kts.engine import run_hands

    cfg, table = _table(players, rules, policies, search_samples)
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands < 0:
        raise KaptaiError(f"hands={quote_token(hands)}: expected a whole number >= 0")
    state = Passing() if passing else None
    for i in range(int(hands)):
        ss = np.random.SeedSequence(seed, spawn_key=(i,))
        pols = table if state is None else tuple(table[t] for t in state.seats(cfg.players))
        if state is not None and before is not None:
            before(i, state)
        _, log = run_hands(cfg, pols, np.random.PCG64(ss), 1, hand_offset=i, record=1)
        wall, dice = _wall_and_dice(cfg, ss)
        first = dice % cfg.players
        rows = np.asarray(log)
        if rows[0, 4] != DICE or int(rows[0, 6]) != dice or int(rows[0, 3]) != first:
            raise KaptaiError(f"hand {i}: the engine's dice ({rows[0].tolist()}) are not the stream's ({dice})")
        dealt = [int(r[5]) for r in rows if r[4] == DEAL]
        if dealt != wall[:len(dealt)]:
            raise KaptaiError(f"hand {i}: the engine's deal is not the stream's wall")
        evs: list[dict[str, Any]] = [_deal_event(cfg, i, dice, first, wall, state)]
        winner, score = -1, 0
        for r in rows:
            seat, action, tile, value = int(r[3]), int(r[4]), int(r[5]), int(r[6])
            if action in _WINS:
                winner, score = seat, value
            e = _row_event(seat, action, tile, value)
            if e is not None:
                evs.append(e)
        evs.append(_settle(cfg, winner, score, state))
        if state is not None:
            state = state.after(cfg, winner, float(evs[-1].get("pot", 0.0)))
        yield evs


def record_hands(
    path: str | os.PathLike,
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    policies: Any = "greedy",
    hands: int = 1,
    seed: int | None = 0,
    search_samples: int | None = None,
    game: str | None = None,
) -> Path:
    """Play ``hands`` hands and write their record to ``path`` (atomically).

    Parameters
    ----------
    path : str or path
        The ``.jsonl`` file to write (its folder must exist).
    players, rules, policies, search_samples
        The table, as :func:`kaptai.kts.simulate.simulate` takes it.
    hands : int
    seed : int or None
        Seed of the walls and dice (and of the policies' draws).
    game : {'kap-tai-shap', 'kap-shap'}, optional
        The header's game (default ``'kap-shap'`` for 2 players, else ``'kap-tai-shap'``).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile, json
    >>> p = record_hands(os.path.join(tempfile.mkdtemp(), "r.jsonl"), 2, "traditional", hands=1, seed=2)
    >>> json.loads(open(p).readline())["game"]
    'kap-shap'
    """
    from kaptai.core.paths import check_output_path

    p = check_output_path(path, ("jsonl",), what="--record")
    cfg, pols = _table(players, rules, policies, search_samples)
    name = game or ("kap-shap" if cfg.players == 2 else "kap-tai-shap")
    if name not in FORMATS:
        raise KaptaiError(f"game={quote_token(name)}: expected 'kap-tai-shap' or 'kap-shap'")
    header = make_header(name, cfg.rules.to_dict(), cfg.players, [getattr(x, "name", str(x)) for x in pols],
                         unit_of(cfg.rules),
                         seed=seed, hands=hands)
    write_record(p, header, hand_events(cfg.players, cfg.rules, policies=pols, hands=hands, seed=seed,
                                        search_samples=search_samples))
    return p


def record_hands_for(game: str, path: str | os.PathLike, players: int | None = None, rules: Any = None,
                     **kwargs: Any) -> Path:
    """:func:`record_hands` with the header's game given (the registry's entry)."""
    return record_hands(path, 2 if players is None and game == "kap-shap" else (players or 4), rules, game=game,
                        **kwargs)


# --------------------------------------------------------------------------------------
# Replay
# --------------------------------------------------------------------------------------


def _setup(header: dict[str, Any]) -> EngineConfig:
    return make_config(header["players"], header["rules"])


def _unit(cfg: EngineConfig) -> str:
    return unit_of(cfg.rules)


#: Records of advanced scoring that kaptai wrote before 2026-12-05 say antes; they are read as points.
LEGACY_UNITS = ((UNIT, "points"),)


class _Script:
    """Each seat's recorded claims, declines and discards, read from the hand's cursor."""

    name = "record"

    def __init__(self, cur: HandCursor):
        self.cur = cur

    def _tile(self, e: dict[str, Any]) -> int:
        try:
            return int(parse_tile(e["cards"]))
        except KaptaiError as exc:
            raise self.cur.error("cards", str(exc)) from None

    def claim(self, view: Any, candidates: tuple[int, ...]) -> int | None:
        e = self.cur.peek()
        if e["type"] not in ("claim", "decline"):
            raise self.cur.error("type", f"{e['type']!r}: seat {view.seat} is to claim or decline here")
        if e["seat"] != view.seat:
            raise self.cur.error("seat", f"{e['seat']}: seat {view.seat} is to claim or decline here")
        if e["type"] == "decline":
            return None
        t = self._tile(e)
        if t not in candidates:
            raise self.cur.error("cards", f"{quote_token(e['cards'])} cannot be claimed: the candidates are "
                                          f"{_tiles(candidates)}")
        return t

    def discard(self, view: Any, legal: tuple[int, ...]) -> int:
        e = self.cur.peek()
        if e["type"] != "discard":
            raise self.cur.error("type", f"{e['type']!r}: seat {view.seat} is to discard here")
        if e["seat"] != view.seat:
            raise self.cur.error("seat", f"{e['seat']}: seat {view.seat} is to discard here")
        t = self._tile(e)
        if t not in legal:
            held = view.hand[t] if t < len(view.hand) else 0
            why = "not held" if not held else "not a legal discard here (after a claim, a tile held before it)"
            raise self.cur.error("cards", f"{quote_token(e['cards'])} cannot be discarded by seat {view.seat}: {why}; "
                                          f"legal: {_tiles(legal)}")
        return t


def _replay_hand(cfg: EngineConfig, cur: HandCursor, carry: Any) -> Any:
    from kaptai.kts import engine_reference as ref

    hand = cur.hand
    d = hand.deal
    line = hand.lines[0]
    wall: list[int] = []
    for tok in str(d["wall"]).split():
        try:
            wall.append(int(parse_tile(tok)))
        except KaptaiError as exc:
            raise cur.error("wall", str(exc), line=line) from None
    counts = [wall.count(t) for t in range(N_TILE_TYPES)]
    if counts != [int(c) for c in cfg.copies]:
        raise cur.error("wall", f"{len(wall)} tiles: a wall is the {cfg.n_tiles} tiles of {cfg.sets} set(s), "
                                "each tile as often as the sets hold it", line=line)
    dice = int(d["dice"])
    if not cfg.n_dice <= dice <= 6 * cfg.n_dice:
        raise cur.error("dice", f"{dice}: {cfg.n_dice} dice total {cfg.n_dice}-{6 * cfg.n_dice}", line=line)
    first = dice % cfg.players
    if d["first"] != first:
        raise cur.error("first", f"{d['first']}: dice {dice} name seat {first} first hand", line=line)
    state = _check_passing(cfg, cur, carry)

    class _Replay(ref._Hand):
        def event(self, seat: int, action: int, tile: int = -1, value: int = -1) -> None:
            super().event(seat, action, tile, value)
            if action == DICE:
                cur.expect(_deal_event(cfg, hand.index, dice, first, wall, state))
            e = _row_event(seat, action, tile, value)
            if e is not None:
                cur.expect(e)

    script = _Script(cur)
    out = _Replay(cfg, [script] * cfg.players, None, wall, first, dice, hand.index, None, None).play()
    settle = _settle(cfg, out.winner, out.score, state)
    cur.expect(settle)
    return () if state is None else state.after(cfg, out.winner, float(settle.get("pot", 0.0)))


def _check_passing(cfg: EngineConfig, cur: HandCursor, carry: Any) -> Passing | None:
    """Where the session stands as the hand starts, from its ``deal`` (None: a hand dealt by seat 0
    and settled on its own), checked: ``seats`` names each of the table's seats once, the dealer
    first and then the seats after it in turn order; ``streak`` is there under
    ``dealer_keeps_on_win`` and ``pot`` under ``drawn_hand='carry'`` (only then); every hand of a
    record names its seats or none; the first hand is dealt by seat 0, streak 0, pot 0; after a
    hand replayed before it (``carry``: :meth:`Passing.after` of it, ``()`` for a record without
    seats) the deal, the streak and the pot are where that hand left them (:class:`Passing`)."""
    d = cur.hand.deal
    seats = d.get("seats")
    cur.seats_named_throughout(carry)
    if seats is None:
        for key in ("streak", "pot"):
            if key in d:
                raise cur.error(key, f"{key} belongs to a session whose deal passes, and this deal names no seats")
        return None
    P, r = cfg.players, cfg.rules
    if len(seats) != P or sorted(seats) != list(range(P)):
        raise cur.error("seats", f"{seats}: each of the {P} seats once")
    dealer = int(seats[0])
    order = [(dealer + e) % P for e in range(P)]
    if list(seats) != order:
        raise cur.error("seats", f"{seats}: the hand's seats are the dealer then the seats after it in turn order "
                                 f"({order})")
    for key, on, why in (("streak", r.dealer_keeps_on_win, "dealer_keeps_on_win=True"),
                         ("pot", r.drawn_hand == "carry", "drawn_hand='carry'")):
        if (key in d) != bool(on):
            raise cur.error(key, f"a deal says its {key} exactly when the rules have {why}"
                                 + (" (they do not)" if not on else " (they do, and it says none)"))
    got = Passing(dealer, int(d.get("streak", 0)), float(d.get("pot", 0.0)))
    want = carry if isinstance(carry, Passing) else (Passing() if cur.hand.index == 0 else None)
    if want is not None:
        how = ("the session's first hand" if cur.hand.index == 0 else
               f"after hand {cur.hand.index - 1}")
        if got.dealer != want.dealer:
            raise cur.error("seats", f"{seats}: seat {got.dealer} deals, but {how} seat {want.dealer} deals (the deal "
                                     "passes to the next seat unless the dealer wins and keeps it: "
                                     f"dealer_keeps_on_win={r.dealer_keeps_on_win})")
        if got.streak != want.streak:
            raise cur.error("streak", f"{got.streak}, but {how} the dealer's streak (連莊) is {want.streak}")
        if abs(got.pot - want.pot) > 1e-9:
            raise cur.error("pot", f"{got.pot:g}, but {how} the pot carries {want.pot:g} antes (drawn_hand='carry')")
    return got


def _format(game: str) -> RecordFormat:
    return RecordFormat(game, UNIT, _EVENTS, setup=_setup, replay_hand=_replay_hand, unit_of=_unit,
                        legacy_units=LEGACY_UNITS)


#: The record formats of the two games of this package, by registry name.
FORMATS: dict[str, RecordFormat] = {g: _format(g) for g in ("kap-tai-shap", "kap-shap")}
#: Kap Tai Shap's format.
FORMAT = FORMATS["kap-tai-shap"]


def read(path: str | os.PathLike, game: str | None = None) -> Record:
    """Parse and check a Kap Tai Shap or Kap Shap record (schema only; :func:`replay` also
    replays it)."""
    from kaptai.core.records import RecordError

    def pick(name: str, line: int) -> RecordFormat:
        if name not in FORMATS or (game is not None and name != game):
            raise RecordError(f"{quote_token(name)}: expected {game or 'kap-tai-shap or kap-shap'}", line=line,
                              field="game")
        return FORMATS[name]

    return read_record(path, pick)


def replay(path: str | os.PathLike, game: str | None = None) -> ReplaySummary:
    """Replay a record in the reference engine; :class:`kaptai.core.records.RecordError` at the
    first line (and field) the engine does not reproduce."""
    rec = read(path, game)
    return replay_record(rec, FORMATS[rec.header["game"]])
