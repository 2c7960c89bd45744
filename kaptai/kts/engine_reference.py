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
policy draws during play, and the layouts a ``'search'`` seat samples (:func:`sample_layout`).

The search
----------
A ``'search'`` seat (:class:`kaptai.kts.policies.SearchPolicy`, a marker) is played by the
engine itself, since it needs the hidden state: the hand runs as the spec's phases (TURN,
AFTER_EXCHANGE, DRAW, END_TURN), every decision of every seat can continue on a copy, and
the engine keeps what each seat knows (``known``: claimed copies still held; ``committed``;
``pre``).  At a decision with two or more options the seat samples ``search_samples``
layouts of the tiles it has not seen, plays every option forward on each with the rollout
policy at every seat (``greedy`` under the pot settlement, ``score`` under ``advanced``),
and keeps the look-ahead's choice unless another option's mean beats it by more than
``search_z`` paired standard errors.

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

from kaptai.core.sampling import RandomStream, Switch
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
from kaptai.kts.policies import (
    GreedyPolicy,
    LookaheadPolicy,
    LookaheadScorePolicy,
    PlayerView,
    Policy,
    ScorePolicy,
    SearchPolicy,
    policy_objects,
    resolve_policies,
)
from kaptai.kts.tiles import N_TILE_TYPES

__all__ = [
    "RandomStream",
    "shuffled_wall",
    "sample_layout",
    "search_values",
    "SEARCH_KINDS",
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


# phases of a hand (docs/kap-tai-shap-engine.md, "The hand as phases")
PH_TURN, PH_AFTER_EXCHANGE, PH_DRAW, PH_END_TURN = range(4)


def sample_layout(
    stream: RandomStream,
    seat: int,
    copies: Sequence[int],
    hands: Sequence[Sequence[int]],
    table: Sequence[int],
    known: Sequence[Sequence[int]],
    committed: Sequence[int],
    wall_remaining: int,
) -> tuple[list[list[int]], list[int]]:
    """One layout of the tiles ``seat`` has not seen (the ``'search'`` policy's sample).

    The pool ``U[t] = copies[t] - hands[seat][t] - table[t] - sum of known[x][t] over the
    other seats - #{x : committed[x] = t}`` as a list of ids ascending, shuffled by
    Fisher-Yates with ``stream.bounded`` (``m - 1`` draws for ``m`` tiles); the seats after
    ``seat``, in the order of play, take the next ``size(hands[x]) - sum(known[x])`` tiles
    on top of their ``known[x]``; the rest, in list order, is the wall.

    Parameters
    ----------
    stream : RandomStream
        The hand's random stream.
    seat : int
        The deciding seat (its hand is kept).
    copies, table : sequence of int
        Count vectors: the sets, the face-up tiles.
    hands, known : sequence of sequence of int
        Per seat: the true hands (only the sizes of the other seats are read) and the
        copies each seat is known to hold because it claimed them.
    committed : sequence of int
        Per seat the tile claimed in the early window and not yet in its hand, or -1.
    wall_remaining : int
        Tiles left in the wall.

    Returns
    -------
    (list of list of int, list of int)
        Every seat's hand (``seat``'s a copy of its own) and the wall's remaining tiles in
        the order they will be drawn.

    Raises
    ------
    RulesError
        If the counts do not add up (a tile both in the pool and seen, or the hidden
        tiles differing from the hidden hand sizes and the wall).

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.sampling import RandomStream
    >>> from kaptai.kts.engine_reference import sample_layout
    >>> copies = [1] * 4 + [0] * 17
    >>> mine, other = [1, 0, 0, 0] + [0] * 17, [0, 1, 0, 0] + [0] * 17
    >>> hands, wall = sample_layout(RandomStream(np.random.PCG64(2)), 0, copies,
    ...                             [mine, other], [0, 0, 1, 0] + [0] * 17, [[0] * 21] * 2, [-1, -1], 1)
    >>> hands[0] == mine, sum(hands[1]), sorted(wall + [t for t in range(21) if hands[1][t]])
    (True, 1, [1, 3])
    """
    players = len(hands)
    pool = [
        copies[t] - hands[seat][t] - table[t]
        - sum(known[x][t] for x in range(players) if x != seat)
        - sum(1 for c in committed if c == t)
        for t in range(N_TILE_TYPES)
    ]
    if min(pool) < 0:
        raise RulesError(f"unseen pool {pool} has a negative count: the counts do not add up")
    items = [t for t in range(N_TILE_TYPES) for _ in range(pool[t])]
    need = [sum(hands[x]) - sum(known[x]) if x != seat else 0 for x in range(players)]
    if len(items) != sum(need) + wall_remaining:
        raise RulesError(
            f"{len(items)} unseen tiles for {sum(need)} hidden hand tiles and a wall of "
            f"{wall_remaining}: the counts do not add up"
        )
    for i in range(len(items) - 1, 0, -1):
        j = stream.bounded(i + 1)
        items[i], items[j] = items[j], items[i]
    out = [list(h) for h in hands]
    k = 0
    for step in range(1, players):
        x = (seat + step) % players
        grown = list(known[x])
        for t in items[k:k + need[x]]:
            grown[t] += 1
        k += need[x]
        out[x] = grown
    return out, items[k:]


#: On (``with compiled_rollouts(): ...``), a ``'search'`` seat's rollouts run in the compiled
#: twin (:func:`kaptai.kts._engine.search_values`) on this engine's own stream
#: (:meth:`kaptai.core.sampling.RandomStream.lend`): the same values, layout by layout, from the
#: same numbers, so the same moves and the same stream after, at the compiled speed.  The
#: reference stays pure Python (the tests' oracle) unless a caller turns it on; ``kaptai play``
#: does, since a person's table runs this engine (:class:`kaptai.core.sampling.Switch`).
compiled_rollouts = Switch()


class _Hand:
    """One hand in progress, played through the phases TURN / AFTER_EXCHANGE / DRAW /
    END_TURN (the spec's state machine), so that a ``'search'`` rollout can continue a copy
    of the hand from any decision.  Mirrors ``play_hand`` of the compiled engine."""

    def __init__(self, cfg, policies, stream, wall, first, dice_total, hand_index, log, stats,
                 search_trace=None) -> None:
        self.cfg = cfg
        self.policies = list(policies)
        self.stream = stream
        self.wall = wall
        self.first = first
        self.dice_total = dice_total
        self.hand_index = hand_index
        self.log = log
        self.stats = stats
        P = cfg.players
        self.hands = [[0] * N_TILE_TYPES for _ in range(P)]
        self.table = [0] * N_TILE_TYPES
        self.own_turns = [0] * P
        self.pos = 0
        self.turn = 0
        self.step = 0
        self.last = -1
        self.committed = [-1] * P
        self.known = [[0] * N_TILE_TYPES for _ in range(P)]
        self.pre: tuple[int, ...] = ()
        self.search_trace = search_trace
        advanced = cfg.settlement_code == 1
        # the search's reference policy and rollout policy (docs: "search")
        self.ref_policy: Policy = LookaheadScorePolicy() if advanced else LookaheadPolicy()
        if cfg.rollout_code == 1:
            self.rollout_policy: Policy = self.ref_policy
        else:
            self.rollout_policy = ScorePolicy() if advanced else GreedyPolicy()
        # the searching seat's own policy in its rollouts ('own': the reference policy)
        self.rollout_own: Policy = self.ref_policy if cfg.rollout_code == 2 else self.rollout_policy

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

    def ids(self, seat: int) -> tuple[int, ...]:
        return tuple(t for t in range(N_TILE_TYPES) if self.hands[seat][t])

    def put_down(self, seat: int, t: int) -> None:
        """Any discard: hand to table, the ``known`` copy (if any) spent, the log row."""
        self.hands[seat][t] -= 1
        self.table[t] += 1
        if self.known[seat][t] > 0:
            self.known[seat][t] -= 1
        self.event(seat, DISCARD, t)

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

    def take_claim(self, seat: int, tile: int) -> HandOutcome | None:
        """Take ``tile`` off the table; the hand's end if it wins, else None (the tile
        joins the hand later: at once in the claim step, at the seat's turn if committed)."""
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

    def stall(self, seat: int) -> HandOutcome:
        self.event((seat + 1) % self.cfg.players, TURN_LIMIT)
        return self.end(-1, K_LIMIT)

    # ------------------------------------------------------------------ decisions
    def decide_claim(self, seat: int, cands: tuple[int, ...], early_of: int = -1) -> int | None:
        """The seat's claim decision: a candidate, or None to decline.  ``early_of`` is the
        seat whose first discard is offered in the early window (-1: the claim step)."""
        pol = self.policies[seat]
        if isinstance(pol, SearchPolicy):
            choice = self.search_claim(seat, cands, early_of)
            return None if choice < 0 else choice
        choice = pol.claim(self.view(seat), cands)
        if choice is not None and choice not in cands:
            raise ValueError(
                f"policy {pol!r} claimed {choice!r} at seat {seat}; the "
                f"candidates were {list(cands)} (or None)"
            )
        return choice

    def decide_discard(self, seat: int, legal: tuple[int, ...], drawn=None, claimed=None) -> int:
        """The seat's discard decision over ``legal`` (``claimed`` set: the exchange
        discard after a claim; else the discard after a draw or at turn 1)."""
        pol = self.policies[seat]
        if isinstance(pol, SearchPolicy):
            return self.search_discard(seat, legal, drawn, claimed)
        t = pol.discard(self.view(seat, drawn, claimed), legal)
        if t not in legal:
            raise ValueError(
                f"policy {pol!r} discarded {t!r} at seat {seat}; legal "
                f"discards were {list(legal)}"
            )
        return t

    # ------------------------------------------------------------------ the phases
    def run(self, nxt: HandOutcome | tuple[int, int]) -> HandOutcome:
        """Continue from ``(phase, seat)`` to the end of the hand."""
        while not isinstance(nxt, HandOutcome):
            phase, seat = nxt
            if phase == PH_TURN:
                nxt = self.phase_turn(seat)
            elif phase == PH_AFTER_EXCHANGE:
                nxt = self.phase_after_exchange(seat)
            elif phase == PH_DRAW:
                nxt = self.phase_draw(seat)
            else:
                nxt = self.phase_end_turn(seat)
        return nxt

    def phase_turn(self, s: int) -> HandOutcome | tuple[int, int]:
        """TURN(s): ``turn += 1``, ``pre``, the claim step (3a), then the exchange."""
        self.turn += 1
        self.pre = self.ids(s)
        if self.committed[s] >= 0:
            c = self.committed[s]
            self.committed[s] = -1
            return self.join_and_exchange(s, c)
        mode = self.cfg.claim
        if mode == "none":
            return (PH_DRAW, s)
        if mode == "previous":
            cands: tuple[int, ...] = (self.last,) if self.last >= 0 else ()
        else:
            cands = tuple(t for t in range(N_TILE_TYPES) if self.table[t])
        if not cands:
            return (PH_DRAW, s)
        return self.apply_claim(s, cands, self.decide_claim(s, cands))

    def apply_claim(self, s: int, cands: tuple[int, ...], choice: int | None):
        """The claim step's choice: decline -> DRAW(s); take -> win, or exchange."""
        if choice is None:
            self.event(s, DECLINE, cands[0] if len(cands) == 1 else -1)
            return (PH_DRAW, s)
        ended = self.take_claim(s, choice)
        if ended is not None:
            return ended
        return self.join_and_exchange(s, choice)

    def join_and_exchange(self, s: int, c: int):
        """The claimed ``c`` joins the hand (known to all); the exchange discard from ``pre``."""
        self.hands[s][c] += 1
        self.known[s][c] += 1
        e = self.decide_discard(s, self.pre, claimed=c)
        return self.apply_exchange(s, e)

    def apply_exchange(self, s: int, e: int):
        self.put_down(s, e)
        self.last = e
        return (PH_AFTER_EXCHANGE, s)

    def phase_after_exchange(self, s: int):
        """AFTER_EXCHANGE(s): END_TURN under claim-or-draw; else the early window (claim
        'previous') and DRAW(s)."""
        cfg = self.cfg
        if cfg.turn != "claim-then-draw":
            return (PH_END_TURN, s)
        if cfg.claim == "previous":
            x = (s + 1) % cfg.players
            return self.apply_early(x, s, self.decide_claim(x, (self.last,), early_of=s))
        return (PH_DRAW, s)

    def apply_early(self, x: int, s: int, choice: int | None):
        """Seat ``x``'s early-window choice on ``s``'s first discard ``last``."""
        e = self.last
        if choice is None:
            self.event(x, DECLINE, e)
        else:
            ended = self.take_claim(x, e)
            if ended is not None:
                return ended
            self.committed[x] = e
        return (PH_DRAW, s)

    def phase_draw(self, s: int):
        """DRAW(s): the empty-wall end, the draw, the self-drawn win, the second discard."""
        cfg = self.cfg
        if self.pos >= cfg.n_tiles:
            self.event(s, DRAWN_HAND)
            return self.end(-1, K_DRAWN)
        x = self.wall[self.pos]
        self.pos += 1
        hand = self.hands[s]
        hand[x] += 1
        self.event(s, DRAW, x)
        if self.is_win(hand):
            score = self.score(hand) + 1
            self.event(s, SELF_DRAWN_WIN, x, score)
            return self.end(s, K_SELF_DRAWN, score)
        t = self.decide_discard(s, self.ids(s), drawn=x) if cfg.keep_drawn else x
        return self.apply_second(s, t)

    def apply_second(self, s: int, t: int):
        """The discard after a draw or at turn 1: then END_TURN(s)."""
        self.put_down(s, t)
        self.last = t
        return (PH_END_TURN, s)

    def phase_end_turn(self, s: int):
        """END_TURN(s): ``own_turns``, readiness, the stall check, then TURN(next)."""
        self.own_turns[s] += 1
        self.note_ready(s, self.own_turns[s])
        if self.turn >= MAX_TURNS:
            return self.stall(s)
        return (PH_TURN, (s + 1) % self.cfg.players)

    def play(self) -> HandOutcome:
        """The dice and the deal, turn 1 (the natural or the first hand's discard), then the
        phases from END_TURN(F)."""
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
        self.turn = 1
        if self.is_win(hands[F]):
            score = self.score(hands[F]) + 1
            self.event(F, NATURAL, -1, score)
            return self.end(F, K_NATURAL, score)
        return self.run(self.apply_second(F, self.decide_discard(F, self.ids(F))))

    # ------------------------------------------------------------------ the search
    def rollout_copy(self, hands: list[list[int]], wall_tail: list[int], p: int) -> _Hand:
        """A copy of this hand on a sampled layout, the rollout policy at every seat (the
        searching seat ``p`` its own rollout policy), no log, no tallies."""
        h = object.__new__(_Hand)
        h.cfg = self.cfg
        h.policies = [self.rollout_policy] * self.cfg.players
        h.policies[p] = self.rollout_own
        h.stream = self.stream
        h.wall = self.wall[:self.pos] + wall_tail
        h.first = self.first
        h.dice_total = self.dice_total
        h.hand_index = self.hand_index
        h.log = None
        h.stats = None
        h.hands = [list(x) for x in hands]
        h.table = list(self.table)
        h.own_turns = list(self.own_turns)
        h.pos = self.pos
        h.turn = self.turn
        h.step = self.step
        h.last = self.last
        h.committed = list(self.committed)
        h.known = [list(x) for x in self.known]
        h.pre = self.pre
        h.search_trace = None
        h.ref_policy = self.ref_policy
        h.rollout_policy = self.rollout_policy
        h.rollout_own = self.rollout_own
        return h

    def rollout_value(self, p: int, out: HandOutcome) -> float:
        """Seat ``p``'s net result of a rollout's end, in doubles as the spec writes it."""
        P, cut = self.cfg.players, self.cfg.house_cut
        pot = self.cfg.settlement_code == 0
        if out.winner < 0:
            return 0.0
        if out.winner == p:
            return P * (1.0 - cut) - 1.0 if pot else ((P - 1) * out.score) * (1.0 - cut)
        return -1.0 if pot else -float(out.score)

    def option_values(self, p: int, options: Sequence[int], apply, layouts: int) -> list[list[float]]:
        """Every option's rollout value (per option, per layout) on ``layouts`` layouts of
        what ``p`` has not seen, the same layouts for every option."""
        cfg = self.cfg
        values = [[0.0] * layouts for _ in options]
        for j in range(layouts):
            hands, tail = sample_layout(
                self.stream, p, cfg.copies, self.hands, self.table, self.known,
                self.committed, cfg.n_tiles - self.pos,
            )
            for i, o in enumerate(options):
                h = self.rollout_copy(hands, tail, p)
                values[i][j] = self.rollout_value(p, h.run(apply(h, o)))
        return values

    def search(self, p: int, kind: str, options: list[int], ref: int, apply, early_of: int = -1) -> int:
        """Sample ``search_samples`` layouts, play every option on each with ``apply(copy,
        option)`` (-> the next phase or the end), and choose by the paired guard."""
        cfg = self.cfg
        S, z = cfg.search_samples, cfg.search_z
        r = options.index(ref)
        if compiled_rollouts:
            values = self.compiled_values(p, kind, options, S, early_of)
        else:
            values = self.option_values(p, options, apply, S)
        choice, best = ref, 0.0
        found = False
        vr = values[r]
        for i, o in enumerate(options):
            if i == r:
                continue
            vi = values[i]
            D = Q = M = 0.0
            for j in range(S):
                d = vi[j] - vr[j]
                D += d
                Q += d * d
                M += vi[j]
            lhs = D * D * (S - 1)
            rhs = z * z * (S * Q - D * D)
            if D > 0 and lhs > rhs and (not found or M > best):
                choice, best, found = o, M, True
        if self.search_trace is not None:
            self.search_trace.append({
                "hand": self.hand_index, "turn": self.turn, "seat": p, "kind": kind,
                "options": list(options), "ref": ref, "choice": choice,
                "values": [list(v) for v in values],
            })
        return choice

    def search_state(self) -> dict:
        """The hand's state as :func:`search_values` (and its compiled twin) read it: a copy,
        which the hand's later moves leave as it is."""
        return {"hands": [list(x) for x in self.hands], "table": list(self.table),
                "known": [list(x) for x in self.known], "committed": list(self.committed),
                "own_turns": list(self.own_turns), "pos": self.pos, "turn": self.turn, "last": self.last,
                "first": self.first, "pre": tuple(self.pre)}

    def compiled_values(self, p: int, kind: str, options: list[int], layouts: int, early_of: int) -> list[list[float]]:
        """:meth:`option_values` by the compiled twin, on this hand's stream (:data:`compiled_rollouts`)."""
        from kaptai.kts._engine import search_values as compiled

        state = self.search_state()
        v = self.stream.lend(lambda bg: compiled(self.cfg, state, p, SEARCH_KINDS.index(kind), options, bg,
                                                 int(layouts), int(early_of)))
        return [[float(x) for x in row] for row in v]

    def search_discard(self, p: int, legal: tuple[int, ...], drawn=None, claimed=None) -> int:
        """A search seat's discard: the exchange discard (``claimed`` set) continues at
        AFTER_EXCHANGE(p), the discard after a draw or at turn 1 at END_TURN(p)."""
        if len(legal) == 1:
            return legal[0]
        ref = self.ref_policy.discard(self.view(p, drawn, claimed), legal)
        if claimed is not None:
            return self.search(p, "exchange", list(legal), ref, lambda h, o: h.apply_exchange(p, o))
        return self.search(p, "discard", list(legal), ref, lambda h, o: h.apply_second(p, o))

    def search_claim(self, p: int, cands: tuple[int, ...], early_of: int) -> int:
        """A search seat's claim (options: -1 for decline, then the candidates): the claim
        step continues at DRAW(p) or the exchange, the early window at DRAW(early_of)."""
        choice = self.ref_policy.claim(self.view(p), cands)
        ref = -1 if choice is None else choice
        options = [-1] + list(cands)
        if early_of >= 0:
            d = early_of
            return self.search(p, "early", options, ref,
                               lambda h, o: h.apply_early(p, d, None if o < 0 else o), early_of=d)
        return self.search(p, "claim", options, ref,
                           lambda h, o: h.apply_claim(p, cands, None if o < 0 else o))


#: The kinds of a search decision, by the compiled engine's code (``search_values``).
SEARCH_KINDS: tuple[str, ...] = ("discard", "exchange", "claim", "early")


def search_values(
    cfg: EngineConfig,
    state: dict,
    seat: int,
    kind: int,
    options: Sequence[int],
    stream: RandomStream,
    layouts: int,
    early_of: int = -1,
) -> list[list[float]]:
    """The ``'search'`` policy's evaluation of one decision (the twin of the compiled
    ``kaptai.kts._engine.search_values``): every option's rollout value on each of
    ``layouts`` layouts of what ``seat`` has not seen, the same layouts for every option.

    ``state`` holds the hand at the decision (``hands``, ``table``, ``known``, ``committed``,
    ``own_turns``, ``pos``, ``turn``, ``last``, ``first``, ``pre``); ``kind`` indexes
    :data:`SEARCH_KINDS`; ``options`` are tile ids (-1: decline a claim).  Returns the values
    per option, per layout.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.kts.config import make_config
    >>> from kaptai.kts.engine_reference import RandomStream, search_values
    >>> from kaptai.kts.engine_reference import shuffled_wall
    >>> cfg = make_config(2)         # Kap Shap: 8 tiles to seat 0, 7 to seat 1; a win is 2 x 0.95 - 1
    >>> wall = shuffled_wall(RandomStream(np.random.PCG64(3)), cfg.copies)
    >>> hands = [[wall[:8].count(t) for t in range(21)], [wall[8:15].count(t) for t in range(21)]]
    >>> st = {"hands": hands, "table": [0] * 21, "known": [[0] * 21] * 2, "committed": [-1, -1],
    ...       "own_turns": [0, 0], "pos": 15, "turn": 1, "last": -1, "first": 0, "pre": ()}
    >>> held = [t for t in range(21) if hands[0][t]]
    >>> v = search_values(cfg, st, 0, 0, held[:2], RandomStream(np.random.PCG64(1)), 3)
    >>> len(v), len(v[0]), all(round(x, 9) in (-1, 0, 0.9) for row in v for x in row)
    (2, 3, True)
    """
    P = cfg.players
    if not 0 <= kind < len(SEARCH_KINDS):
        raise RulesError(f"kind {kind}: expected 0-{len(SEARCH_KINDS) - 1}")
    h = _Hand(cfg, [SearchPolicy()] * P, stream, [-1] * int(state["pos"]), int(state["first"]), -1, 0,
              None, None)
    h.hands = [list(map(int, x)) for x in state["hands"]]
    h.table = list(map(int, state["table"]))
    h.known = [list(map(int, x)) for x in state["known"]]
    h.committed = list(map(int, state["committed"]))
    h.own_turns = list(map(int, state["own_turns"]))
    h.pos, h.turn, h.last = int(state["pos"]), int(state["turn"]), int(state["last"])
    h.pre = tuple(int(t) for t in state["pre"])
    p, d = int(seat), int(early_of)
    which = SEARCH_KINDS[kind]
    if which == "discard":
        def apply(x: _Hand, o: int):
            return x.apply_second(p, o)
    elif which == "exchange":
        def apply(x: _Hand, o: int):
            return x.apply_exchange(p, o)
    elif which == "claim":
        cands = tuple(o for o in options if o >= 0)

        def apply(x: _Hand, o: int):
            return x.apply_claim(p, cands, None if o < 0 else o)
    else:
        def apply(x: _Hand, o: int):
            return x.apply_early(p, d, None if o < 0 else o)
    return h.option_values(p, list(options), apply, int(layouts))


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
    search_trace: list | None = None,
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
    search_trace : list, optional
        For every decision of a ``'search'`` seat with two or more options a dict is
        appended: ``hand, turn, seat, kind`` (``'discard'``, ``'exchange'``, ``'claim'``,
        ``'early'``), ``options`` (a claim's decline is -1), ``ref`` (the reference policy's
        option), ``choice`` and ``values`` (per option, the rollout values per layout).

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
    return _Hand(cfg, policies, stream, wall, first, total, hand_index, log, stats,
                 search_trace).play()


def run_hands(
    cfg: EngineConfig,
    policies,
    bit_generator: np.random.BitGenerator,
    n_hands: int,
    *,
    hand_offset: int = 0,
    record: int = 0,
    search_trace: list | None = None,
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
    search_trace : list, optional
        The ``'search'`` seats' decisions of every hand, see :func:`play_hand`.

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
            log=log if i < record else None, stats=stats, search_trace=search_trace,
        )
    return stats, log
