"""Nantong long cards (南通長牌) engine configuration: constants, outcome dtypes, option codes.

The engine is specified once, in ``docs/nantong-engine.md``; two implementations follow it move
for move and are compared by the tests:

* :mod:`kaptai.nantong._engine` — compiled, nogil, the built-in policies by code;
* :mod:`kaptai.nantong.engine_reference` — pure Python, the test oracle, and the only one that
  runs user :class:`kaptai.nantong.policies.Policy` objects.

Examples
--------
>>> from kaptai.nantong.config import make_config
>>> cfg = make_config(4)
>>> cfg.players, cfg.active, cfg.qishou_mode, cfg.score_opts.tolist()
(4, 3, 0, [0, 1, 1, 0, 0, 1, 0, 0])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from kaptai.errors import KaptaiError, RulesError, quote_token
from kaptai.nantong.rules import RuleSet, resolve_rules, validate_players

__all__ = [
    "POLICY_NAMES",
    "POLICY_CODES",
    "WIN_TYPES",
    "CATEGORIES",
    "OUTCOME_FIELDS",
    "DEALER_CARDS",
    "OTHER_CARDS",
    "DECK_CARDS",
    "IllegalMoveError",
    "EngineError",
    "EngineConfig",
    "make_config",
    "new_outcomes",
    "seat_players",
    "hand_seats",
    "first_dealer",
    "SETTLEMENT_CODES",
    "DEFAULT_SAMPLES",
    "DEFAULT_CANDIDATES",
    "DEFAULT_MARGIN",
    "DEFAULT_GUARD",
    "DEFAULT_PARTICLES",
    "DEFAULT_CHOICE",
    "CHOICES",
    "INFER_PRIOR",
    "INFER_EPS",
    "INFER_HORIZON",
    "NET_SCALE",
]

#: Built-in policies, by code.
POLICY_NAMES: tuple[str, ...] = ("max_melds", "chase_qing", "chase_hun", "random", "search")
POLICY_CODES: Mapping[str, int] = {n: i for i, n in enumerate(POLICY_NAMES)}
#: ``win_type`` codes.
WIN_TYPES: tuple[str, ...] = ("huang", "self", "discard", "tiancheng")
#: ``category`` codes (0..2; -1 = no completer).
CATEGORIES: tuple[str, ...] = ("tahe", "hunhe", "qinghe")
#: ``EngineConfig.settlement`` codes (the nets a search seat maximises).
SETTLEMENT_CODES: Mapping[str, int] = {"rank_only": 0, "pairwise_difference": 1, "winner_collects": 2}
#: The search budget: layouts of the unseen cards per decision (docs/nantong-engine.md, *Search*);
#: 64 since 2026-12-05 (16 before: 64 - 16 layouts +0.055 +- 0.027 of the hand win a hand against
#: max_melds players on fresh duplicate deals, docs/nantong.md, "The search's budget").
DEFAULT_SAMPLES = 64
#: Discard candidates of one search decision, at most, and their distance margin (30: every held
#: kind within the margin; 4 until 2026-12-05, with ``choice='guard'``).
DEFAULT_CANDIDATES = 30
DEFAULT_MARGIN = 1
#: The guard: the search leaves the heuristic's move only for a candidate whose paired mean
#: difference to it exceeds this many standard errors.
DEFAULT_GUARD = 1.0
#: How a search discard is chosen among its candidates' values: ``guard`` (the heuristic's move
#: unless a candidate's paired mean beats it by ``guard`` standard errors) or ``rank`` (the
#: advisor's ranking: among the candidates its layouts cannot tell from the best mean, the least
#: distance from ready, then the most live outs, then the best mean).
#: ``rank`` since 2026-12-05 (docs/nantong.md, "Choice by rank"); ``guard`` before.
CHOICES = ("guard", "rank")
DEFAULT_CHOICE = "rank"
#: The search's inference: particles per layout (``C = F x S``); 0 = uniform layouts, no record read.
DEFAULT_PARTICLES = 4
#: The opponent model: prior of the styles max_melds, chase_qing, chase_hun, random.
INFER_PRIOR: tuple[float, float, float, float] = (0.25, 0.25, 0.25, 0.25)
#: Every style is softened: its own move with probability 1 - INFER_EPS, else any option.
INFER_EPS = 0.05
#: The record is weighed back to the seat's last INFER_HORIZON draws (older events are ignored).
INFER_HORIZON = 0
#: The engines add nets scaled by this factor (exact integers under every settlement).
NET_SCALE = 12
DEALER_CARDS = 23
OTHER_CARDS = 22
DECK_CARDS = 120

#: Outcome arrays: name -> (dtype, per seat?).
OUTCOME_FIELDS: Mapping[str, tuple[str, bool]] = {
    "total": ("int32", True),
    "raw": ("int32", True),
    "completer": ("int8", True),
    "winner": ("int8", True),
    "qishou": ("int8", True),
    "dealt_qishou": ("int8", True),
    "win_type": ("int8", False),
    "category": ("int8", False),
    "completer_seat": ("int8", False),
    "discarder": ("int8", False),
    "double_jiang": ("int8", False),
    "discards": ("int16", False),
    "stock_left": ("int16", False),
}


class IllegalMoveError(KaptaiError):
    """A policy answered with a move that is not one of its options (the message names it)."""


class EngineError(KaptaiError):
    """An engine invariant failed (a bug, never a user error)."""


@dataclass(frozen=True, eq=False)
class EngineConfig:
    """Everything the engines read, as integers (no option string is decoded in Cython).

    Attributes
    ----------
    rules : RuleSet
    players, active : int
        Players at the table (3 or 4) and active seats of a hand (3, or 4 with ``four_active``).
    qishou_mode : int
        0 always, 1 never, 2 policy.
    jiang_set_replacement, single_turn, reserve, rob_kong, multi_win, honour_sequence : int
    nonwinner_triplets, nonwinner_wenqian, wenqian_cumulative, jiang_same_number : int
    tie : int
        0 share, 1 completer_first, 2 seat_order.
    compare_raw : int
    score_opts : ndarray of int32
        :func:`kaptai.nantong.evaluate.score_options`.
    laojiang : ndarray of int8
        1 for the 老將 kinds.
    settlement : int
        :data:`SETTLEMENT_CODES` of ``rules.settlement``: what a ``search`` seat maximises.
    samples, candidates, margin : int
        The ``search`` budget: layouts per decision, discard candidates at most, and their
        distance margin (docs/nantong-engine.md, *Search*).
    guard : float
        z of the paired test a candidate must pass to replace the heuristic's move (0: the
        plain best mean): every claim, and the discards under ``choice`` 0.
    choice : int
        Index in :data:`CHOICES` of how a discard is chosen: 0 ``guard`` (the rule above), 1
        ``rank`` (the advisor's ranking: among the candidates the layouts cannot tell from the best
        mean, the least distance from ready, then the most live outs, then the best mean).
    particles : int
        The inference's particles per layout (docs/nantong-engine.md, *Layouts*); 0 = uniform
        layouts (the record is not read).
    """

    rules: RuleSet
    players: int
    active: int
    qishou_mode: int
    jiang_set_replacement: int
    single_turn: int
    reserve: int
    rob_kong: int
    multi_win: int
    honour_sequence: int
    nonwinner_triplets: int
    nonwinner_wenqian: int
    wenqian_cumulative: int
    jiang_same_number: int
    tie: int
    compare_raw: int
    score_opts: np.ndarray
    laojiang: np.ndarray
    settlement: int = 0
    samples: int = DEFAULT_SAMPLES
    candidates: int = DEFAULT_CANDIDATES
    margin: int = DEFAULT_MARGIN
    guard: float = DEFAULT_GUARD
    particles: int = DEFAULT_PARTICLES
    choice: int = CHOICES.index(DEFAULT_CHOICE)


def make_config(players: int = 3, rules: RuleSet | str | Mapping[str, Any] | None = None, *,
                samples: int = DEFAULT_SAMPLES, candidates: int = DEFAULT_CANDIDATES, margin: int = DEFAULT_MARGIN,
                guard: float = DEFAULT_GUARD, particles: int = DEFAULT_PARTICLES, choice: str = DEFAULT_CHOICE,
                **overrides: Any) -> EngineConfig:
    """The engine configuration of ``players`` (3 or 4) under ``rules``.

    ``samples``, ``candidates``, ``margin``, ``guard`` and ``choice`` set the ``search`` policy
    (layouts of the unseen cards per decision; discard candidates at most; the distance margin
    of a candidate over the best discard; the z a candidate must beat the heuristic's move by;
    ``'rank'`` or ``'guard'``, how a discard is chosen, :data:`CHOICES`);
    ``particles`` the inference's particles per layout (0: uniform layouts).  Raises RulesError for bad options, a bad budget and for
    the wild-card deck (no rules for it).

    >>> make_config(3, samples=4).samples, make_config(3, settlement="winner_collects").settlement
    (4, 2)

    >>> cfg = make_config(3, choice="guard", candidates=4)  # the search before 2026-12-05
    >>> CHOICES[cfg.choice], cfg.candidates, CHOICES[make_config(3).choice], make_config(3).candidates
    ('guard', 4, 'rank', 30)

    >>> make_config(3, {"four_active": True}).active, make_config(4, {"four_active": True}).active
    (3, 4)
    """
    from kaptai.nantong.evaluate import score_options
    from kaptai.nantong.scoring import laojiang_kinds

    from kaptai.core.options import check_count

    players = validate_players(players)
    samples = check_count("samples", samples, 1)
    candidates = check_count("candidates", candidates, 1)
    if isinstance(margin, bool) or not isinstance(margin, (int, np.integer)) or not 0 <= margin <= 30:
        raise RulesError(f"margin={quote_token(margin)}: expected an integer from 0 to 30")
    if isinstance(guard, bool) or not isinstance(guard, (int, float, np.integer, np.floating)) or not 0 <= guard <= 10:
        raise RulesError(f"guard={quote_token(guard)}: expected a number from 0 to 10")
    if isinstance(particles, bool) or not isinstance(particles, (int, np.integer)) or not 0 <= particles <= 16:
        raise RulesError(f"particles={quote_token(particles)}: expected an integer from 0 to 16")
    if choice not in CHOICES:
        raise RulesError(f"choice={quote_token(choice)}: expected one of {', '.join(CHOICES)}")
    r = resolve_rules(rules, **overrides)
    r.check_playable()
    lao = np.zeros(30, dtype=np.int8)
    for k in laojiang_kinds(r):
        lao[k] = 1
    return EngineConfig(
        rules=r,
        players=players,
        active=r.active_players(players),
        qishou_mode=("always", "never", "policy").index(r.qishou),
        jiang_set_replacement=r.jiang_set_replacement,
        single_turn=int(r.single_turn),
        reserve=r.reserve,
        rob_kong=int(r.rob_kong),
        multi_win=int(r.multi_win),
        honour_sequence=int(r.honour_sequence),
        nonwinner_triplets=int(r.nonwinner_concealed_triplets),
        nonwinner_wenqian=int(r.nonwinner_wenqian),
        wenqian_cumulative=int(r.wenqian == "cumulative"),
        jiang_same_number=int(r.jiang_same_number),
        tie=("share", "completer_first", "seat_order").index(r.tie),
        compare_raw=int(r.compare == "raw"),
        score_opts=score_options(r),
        laojiang=lao,
        settlement=SETTLEMENT_CODES[r.settlement],
        samples=int(samples),
        candidates=min(int(candidates), 30),
        margin=int(margin),
        guard=float(guard),
        particles=int(particles),
        choice=CHOICES.index(choice),
    )


def new_outcomes(n: int, active: int) -> dict[str, np.ndarray]:
    """Zeroed outcome arrays for ``n`` hands.

    >>> sorted(new_outcomes(2, 3))[:3], new_outcomes(2, 3)["total"].shape
    (['category', 'completer', 'completer_seat'], (2, 3))
    """
    return {name: np.zeros((n, active) if per_seat else (n,), dtype=dt) for name, (dt, per_seat) in OUTCOME_FIELDS.items()}


def seat_players(cfg: EngineConfig) -> np.ndarray:
    """The match schedule: ``(hands per match, active + 1)`` array, row ``h`` = the players
    (numbered from the first dealer, 0..players-1) in engine seats 0..active-1 of hand ``h``
    (seat 0 deals), then the sitter (-1 if none).

    3 players: the deal passes to the 下家 every hand (不設連莊), ``3 x rounds`` hands.  4 players
    (3 active): ``4 x rounds`` hands, the outgoing dealer sits out the next hand (the sitter is the
    dealer's 上家), on hand 1 per ``first_sitter``.  With ``four_active`` nobody sits out.

    >>> seat_players(make_config(4))[:3].tolist()
    [[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1]]
    >>> seat_players(make_config(3))[:2].tolist()
    [[0, 1, 2, -1], [1, 2, 0, -1]]
    """
    P, A = cfg.players, cfg.active
    H = cfg.rules.rounds * P
    out = np.full((H, A + 1), -1, dtype=np.int64)
    for h in range(H):
        seats = hand_seats(cfg, h)
        out[h, :A] = seats[:A]
        if P > A:
            out[h, A] = seats[A]
    return out


def hand_seats(cfg: EngineConfig, h: int, first: int = 0) -> tuple[int, ...]:
    """The players (the table's seats) in engine seats ``0..active-1`` of hand ``h`` of a session
    whose first hand seat ``first`` deals, then the sitter of a 4-player table: the 下家 deals
    after every hand (seat ``(first + h) % players`` deals hand ``h``), with 4 players the
    outgoing dealer sits out (the sitter is the dealer's 上家), on hand 0 per ``first_sitter``.
    With ``first=0``, :func:`seat_players`' rows, hand after hand without end (a session of
    ``kaptai play`` is no match).

    >>> [hand_seats(make_config(4), h) for h in range(5)]
    [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2), (0, 1, 2, 3)]
    >>> hand_seats(make_config(4, first_sitter="opposite"), 0), hand_seats(make_config(3), 4)
    ((0, 1, 3, 2), (1, 2, 0))
    >>> hand_seats(make_config(4), 0, first=2), hand_seats(make_config(4), 1, first=2)
    ((2, 3, 0, 1), (3, 0, 1, 2))
    """
    P, A = cfg.players, cfg.active
    d = (int(first) + int(h)) % P
    if P == A:
        return tuple((d + s) % P for s in range(P))
    if h == 0:
        sitter = {"shangjia": (d - 1) % P, "opposite": (d + 2) % P, "xiajia": (d + 1) % P}[cfg.rules.first_sitter]
    else:
        sitter = (d - 1) % P
    return (*((d + s) % P for s in range(P) if (d + s) % P != sitter), sitter)


def first_dealer(players: int, seed: int | None) -> int:
    """The table's seat that deals a session's first hand: uniformly random (the rules: there
    is no seat-drawing ranking), drawn from ``seed``'s own stream (not a hand's: hand ``i`` is
    dealt from ``SeedSequence(seed, spawn_key=(i,))``), fresh entropy without a seed.

    >>> first_dealer(4, 1) == first_dealer(4, 1), sorted({first_dealer(3, s) for s in range(40)})
    (True, [0, 1, 2])
    """
    ss = np.random.SeedSequence(seed, spawn_key=(FIRST_DEALER_KEY,))
    return int(np.random.default_rng(ss).integers(int(players)))


#: The spawn key of :func:`first_dealer`'s stream (no hand index reaches it).
FIRST_DEALER_KEY = 2**32 - 1
