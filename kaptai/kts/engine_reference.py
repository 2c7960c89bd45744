"""Pure-Python reference game engine for Kap Tai Shap (夾大十) and Kap Shap (夾十).

This is the slow, readable twin of the compiled engine :mod:`kaptai.kts._engine`: given the
same random stream (or the same wall) and the same policies it makes the same moves and
writes the same hand log, event for event; the tests compare whole logs.  Win checks,
scores and waits come from the oracle :mod:`kaptai.kts.reference`.  It also runs custom
Python policies (:class:`kaptai.kts.policies.Policy`), which the compiled engine cannot.

The engine is specified once, in ``docs/kap-tai-shap-engine.md``; this file follows it
line by line.  The table and the codes come from :mod:`kaptai.kts.config`.

Randomness
----------
Each chunk of hands reads one numpy ``PCG64`` stream through :class:`RandomStream`, which
reproduces numpy's ``next_uint32`` (two 32-bit halves of each 64-bit output, low half
first) and draws bounded integers by Lemire's multiply-shift with rejection.  Per hand:
a Fisher-Yates shuffle of the sorted tiles (``j = bounded(i + 1)`` for ``i`` from the last
index down to 1), then the dice (``bounded(6) + 1`` each), then whatever the ``'random'``
policy draws during play.

Examples
--------
>>> import numpy as np
>>> from kaptai.kts.config import make_config
>>> from kaptai.kts.engine_reference import run_hands
>>> cfg = make_config(4, "traditional")
>>> stats, log = run_hands(cfg, ["greedy"] * 4, np.random.PCG64(7), 3, record=1)
>>> int(stats["hands"][0]), log[0][4], log[1][4]
(3, 'dice', 'deal')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from kaptai.core.sampling import RandomStream
from kaptai.errors import RulesError
from kaptai.kts import reference
from kaptai.kts.config import (
    ACTIONS,
    CLAIM,
    CLAIM_WIN,
    DEAL,
    DECLINE,
    DICE,
    DISCARD,
    DRAW,
    DRAWN_HAND,
    K_CLAIMED,
    K_DRAWN,
    K_LIMIT,
    K_NATURAL,
    K_SELF_DRAWN,
    MAX_TURNS,
    NATURAL,
    READY_LEVELS,
    SCORE_LEVELS,
    SELF_DRAWN_WIN,
    TURN_LIMIT,
    EngineConfig,
    new_outcomes,
)
from kaptai.kts.policies import Policy, PlayerView, policy_objects, resolve_policies
from kaptai.kts.tiles import N_TILE_TYPES

__all__ = [
    "RandomStream",
    "shuffled_wall",
    "play_hand",
    "run_hands",
]

def shuffled_wall(stream: RandomStream, copies: Sequence[int]) -> list[int]:
    """The sorted tiles shuffled by Fisher-Yates with ``stream.bounded``.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.kts.engine_reference import RandomStream, shuffled_wall
    >>> wall = shuffled_wall(RandomStream(np.random.PCG64(1)), [2] * 11 + [1] * 10)
    >>> len(wall), sorted(wall)[:4]
    (32, [0, 0, 1, 1])
    """
    wall = [t for t in range(N_TILE_TYPES) for _ in range(copies[t])]
    for i in range(len(wall) - 1, 0, -1):
        j = stream.bounded(i + 1)
        wall[i], wall[j] = wall[j], wall[i]
    return wall


@dataclass(frozen=True)
class HandOutcome:
    """How one hand ended: winner seat (-1 if none), kind code, score, length in turns."""

    first_hand: int
    winner: int
    kind: int
    score: int
    length: int


class _Hand:
    """One hand in progress.  Mirrors ``play_hand`` of the compiled engine."""

    def __init__(self, cfg, policies, stream, wall, first, dice_total, hand_index, log, stats):
        self.cfg = cfg
        self.policies = policies
        self.stream = stream
        self.wall = wall
        self.first = first
        self.dice_total = dice_total
        self.hand_index = hand_index
        self.log = log
        self.stats = stats
        self.hands = [[0] * N_TILE_TYPES for _ in range(cfg.players)]
        self.table = [0] * N_TILE_TYPES
        self.own_turns = [0] * cfg.players
        self.pos = 0
        self.turn = 0
        self.step = 0

    # ------------------------------------------------------------------ helpers
    def event(self, seat: int, action: int, tile: int = -1, value: int = -1) -> None:
        if self.log is not None:
            self.log.append(
                (self.hand_index, self.step, self.turn, seat, ACTIONS[action], tile, value)
            )
        self.step += 1

    def view(self, seat: int, drawn=None, claimed=None) -> PlayerView:
        cfg = self.cfg
        return PlayerView(
            seat=seat, players=cfg.players, n=cfg.n, rules=cfg.rules, copies=cfg.copies,
            hand=tuple(self.hands[seat]), table=tuple(self.table),
            wall_remaining=cfg.n_tiles - self.pos, turn=self.turn, first_hand=self.first,
            rng=self.stream, drawn=drawn, claimed=claimed,
        )

    def is_win(self, hand) -> bool:
        return reference.is_win(hand, self.cfg.rules)

    def score(self, hand) -> int:
        return reference.score(hand, self.cfg.rules)

    def ask_claim(self, seat: int, candidates: tuple[int, ...]) -> int | None:
        choice = self.policies[seat].claim(self.view(seat), candidates)
        if choice is not None and choice not in candidates:
            raise ValueError(
                f"policy {self.policies[seat]!r} claimed {choice!r} at seat {seat}; the "
                f"candidates were {list(candidates)} (or None)"
            )
        return choice

    def discard(self, seat: int, legal: tuple[int, ...], drawn=None, claimed=None) -> int:
        t = self.policies[seat].discard(self.view(seat, drawn, claimed), legal)
        if t not in legal:
            raise ValueError(
                f"policy {self.policies[seat]!r} discarded {t!r} at seat {seat}; legal "
                f"discards were {list(legal)}"
            )
        self.put_down(seat, t)
        return t

    def put_down(self, seat: int, t: int) -> None:
        self.hands[seat][t] -= 1
        self.table[t] += 1
        self.event(seat, DISCARD, t)

    def ids(self, seat: int) -> tuple[int, ...]:
        return tuple(t for t in range(N_TILE_TYPES) if self.hands[seat][t])

    def is_ready(self, seat: int) -> bool:
        hand = self.hands[seat]
        return any(hand[w] < self.cfg.copies[w] for w in reference.waits(hand, self.cfg.rules))

    def note_ready(self, seat: int, t: int) -> None:
        st = self.stats
        if st is None or t >= READY_LEVELS:
            return
        r = int(self.is_ready(seat))
        rel = (seat - self.first) % self.cfg.players
        st["alive_first"][rel, t] += 1
        st["ready_first"][rel, t] += r
        st["alive_dealer"][seat, t] += 1
        st["ready_dealer"][seat, t] += r

    def end_turn(self, seat: int) -> None:
        self.own_turns[seat] += 1
        self.note_ready(seat, self.own_turns[seat])

    def end(self, winner: int, kind: int, score: int = -1) -> HandOutcome:
        st = self.stats
        if st is not None:
            st["length"][self.turn] += 1
            if winner >= 0:
                rel = (winner - self.first) % self.cfg.players
                s = min(score, SCORE_LEVELS - 1)
                st["wins_first"][kind, rel] += 1
                st["wins_dealer"][kind, winner] += 1
                st["score_first"][rel, s] += 1
                st["score_dealer"][winner, s] += 1
            else:
                st["ends"][0] += 1
                st["ends"][1] += kind == K_LIMIT
        return HandOutcome(self.first, winner, kind, score, self.turn)

    def take_claim(self, seat: int, tile: int):
        """Take ``tile`` off the table; the hand's end if it wins, else None."""
        self.table[tile] -= 1
        self.event(seat, CLAIM, tile)
        hand = self.hands[seat]
        hand[tile] += 1
        won = self.is_win(hand)
        score = self.score(hand) if won else -1
        hand[tile] -= 1
        if won:
            self.event(seat, CLAIM_WIN, tile, score)
            return self.end(seat, K_CLAIMED, score)
        return None

    # ------------------------------------------------------------------ the hand
    def play(self) -> HandOutcome:
        cfg, P, F = self.cfg, self.cfg.players, self.first
        hands = self.hands
        if self.stats is not None:
            self.stats["hands"][0] += 1
            self.stats["first_hand"][F] += 1
        self.event(F, DICE, -1, self.dice_total)
        for i in range(P):
            seat = (F + i) % P
            for _ in range(cfg.n_first if i == 0 else cfg.n_other):
                t = self.wall[self.pos]
                self.pos += 1
                hands[seat][t] += 1
                self.event(seat, DEAL, t)
        for i in range(1, P):
            self.note_ready((F + i) % P, 0)

        # turn 1: the first hand's natural, then its opening discard
        self.turn = 1
        if self.is_win(hands[F]):
            score = self.score(hands[F]) + 1
            self.event(F, NATURAL, -1, score)
            return self.end(F, K_NATURAL, score)
        last = self.discard(F, self.ids(F))
        self.end_turn(F)

        claim_mode, claim_then_draw = cfg.claim, cfg.turn == "claim-then-draw"
        committed = [-1] * P
        seat = (F + 1) % P
        while True:
            self.turn += 1
            pre = self.ids(seat)
            took = -1
            # -- claim step
            if committed[seat] >= 0:
                took, committed[seat] = committed[seat], -1
            elif claim_mode != "none":
                if claim_mode == "previous":
                    cands: tuple[int, ...] = (last,) if last >= 0 else ()
                else:
                    cands = tuple(t for t in range(N_TILE_TYPES) if self.table[t])
                if cands:
                    choice = self.ask_claim(seat, cands)
                    if choice is None:
                        self.event(seat, DECLINE, cands[0] if len(cands) == 1 else -1)
                    else:
                        ended = self.take_claim(seat, choice)
                        if ended is not None:
                            return ended
                        took = choice
            if took >= 0:
                hands[seat][took] += 1
                e = self.discard(seat, pre, claimed=took)
                last = e
                if not claim_then_draw:
                    self.end_turn(seat)
                    if self.turn >= MAX_TURNS:
                        return self.stall(seat)
                    seat = (seat + 1) % P
                    continue
                if claim_mode == "previous":
                    # the next player decides on this first discard before the draw
                    nxt = (seat + 1) % P
                    if self.ask_claim(nxt, (e,)) is None:
                        self.event(nxt, DECLINE, e)
                    else:
                        ended = self.take_claim(nxt, e)
                        if ended is not None:
                            return ended
                        committed[nxt] = e
            # -- draw step
            if self.pos >= cfg.n_tiles:
                self.event(seat, DRAWN_HAND)
                return self.end(-1, K_DRAWN)
            x = self.wall[self.pos]
            self.pos += 1
            hands[seat][x] += 1
            self.event(seat, DRAW, x)
            if self.is_win(hands[seat]):
                score = self.score(hands[seat]) + 1
                self.event(seat, SELF_DRAWN_WIN, x, score)
                return self.end(seat, K_SELF_DRAWN, score)
            if cfg.keep_drawn:
                last = self.discard(seat, self.ids(seat), drawn=x)
            else:
                self.put_down(seat, x)
                last = x
            self.end_turn(seat)
            if self.turn >= MAX_TURNS:
                return self.stall(seat)
            seat = (seat + 1) % P

    def stall(self, seat: int) -> HandOutcome:
        self.event((seat + 1) % self.cfg.players, TURN_LIMIT)
        return self.end(-1, K_LIMIT)


def play_hand(
    cfg: EngineConfig,
    policies: Sequence[Policy],
    stream: RandomStream,
    *,
    hand_index: int = 0,
    log: list | None = None,
    stats: dict[str, np.ndarray] | None = None,
    wall: Sequence[int] | None = None,
    first_hand: int | None = None,
) -> HandOutcome:
    """Play one hand; the wall and dice come from ``stream`` unless ``wall`` is given.

    Parameters
    ----------
    cfg : EngineConfig
        The table.
    policies : sequence of Policy
        One per seat (dealer-relative).
    stream : RandomStream
        Random stream of the chunk.
    hand_index : int
        Written in the log's ``hand`` column.
    log : list, optional
        Events are appended as tuples ``(hand, step, turn, seat, action, tile, value)``.
    stats : dict, optional
        Tallies from :func:`new_outcomes`, updated in place.
    wall : sequence of int, optional
        A constructed wall (all ``cfg.n_tiles`` tiles, dealt and drawn in order); then
        ``first_hand`` is required and no dice are thrown (the dice event has value -1).
    first_hand : int, optional
        First-hand seat for a constructed wall.

    Returns
    -------
    HandOutcome
    """
    if wall is None:
        wall = shuffled_wall(stream, cfg.copies)
        total = sum(stream.bounded(6) + 1 for _ in range(cfg.n_dice))
        first = total % cfg.players
    else:
        wall = [int(t) for t in wall]
        if sorted(wall) != [t for t in range(N_TILE_TYPES) for _ in range(cfg.copies[t])]:
            raise RulesError(
                f"a constructed wall must hold exactly the {cfg.n_tiles} tiles of "
                f"{cfg.sets} set(s)"
            )
        if first_hand is None or not 0 <= first_hand < cfg.players:
            raise RulesError(f"first_hand={first_hand!r}: expected a seat 0-{cfg.players - 1}")
        total, first = -1, int(first_hand)
    return _Hand(cfg, policies, stream, wall, first, total, hand_index, log, stats).play()


def run_hands(
    cfg: EngineConfig,
    policies,
    bit_generator: np.random.BitGenerator,
    n_hands: int,
    *,
    hand_offset: int = 0,
    record: int = 0,
) -> tuple[dict[str, np.ndarray], list[tuple]]:
    """Play ``n_hands`` hands from one fresh bit generator (one chunk).

    Parameters
    ----------
    cfg : EngineConfig
        The table.
    policies : str, Policy or sequence
        See :func:`kaptai.kts.policies.resolve_policies`.
    bit_generator : numpy.random.PCG64
        Fresh generator of the chunk.
    n_hands : int
        Hands to play.
    hand_offset : int
        Index of the first hand (the log's ``hand`` column).
    record : int
        Log the first ``record`` hands of the chunk.

    Returns
    -------
    (dict, list)
        Tallies (:func:`new_outcomes`) and log rows.
    """
    objs = policy_objects(resolve_policies(policies, cfg.players))
    stream = RandomStream(bit_generator)
    stats = new_outcomes(cfg.players)
    log: list[tuple] = []
    for i in range(n_hands):
        play_hand(
            cfg, objs, stream, hand_index=hand_offset + i,
            log=log if i < record else None, stats=stats,
        )
    return stats, log
