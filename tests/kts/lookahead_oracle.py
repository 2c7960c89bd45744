"""Brute-force oracle for the Kap Tai Shap look-ahead model (test helper, not a test file).

Written from the model text alone, on top of the pure-Python reference evaluator
:mod:`kaptai.kts.reference` (which decides every win and every score).  It shares no code
with any fast implementation of the model, nor with :mod:`kaptai.kts.advisor`,
:mod:`kaptai.kts.evaluate` or the compiled ``_eval``: only the tile parser / formatter
(:mod:`kaptai.kts.tiles`) and the rules resolver (:mod:`kaptai.kts.rules`) are used, for
input handling.

Model (the brief's text, verbatim)
----------------------------------
"The player holds H (2n+1 tiles) and has seen S. The unseen pool U = the sets' copies − H − S.
Each of the next k looks is one tile drawn uniformly at random from the current pool, without
replacement. If H + tile is a win, the player wins; otherwise the player keeps the best 2n+1 of
the 2n+2 tiles and the discard leaves play. Optimal play: V_0 = 0 and V_j(H, pool) =
Σ_t pool[t]/|pool| · (1 if H+t wins, else max over x in H+t of V_{j−1}(H+t−x, pool−t)). For a
hand G of 2n+2 tiles after a draw, the value of discarding x is V_k(G − x, caps − G − S). With
claims (`--claims`), each turn has two looks, the offered discard then the draw, each a uniform
draw from the pool; a claimed tile is exchanged, an unclaimed one leaves play. An option
maximises the expected score instead of P(win) (self-draw point included, as today)."

With claims, each of the k turns is two looks: first the offered discard t1 (uniform from the
pool; if H+t1 wins it is a claimed win, otherwise the player either claims it and throws any x
of H+t1, or declines -- throwing x = t1 is exactly declining, so "max over x in H+t1" covers
both -- and t1 leaves play either way), then the own draw t2 from the remaining pool, which is a
no-claims look.

Objective ``"score"`` replaces the 1 of a win by the score of the winning hand:
``reference.score`` (base + general-eye bonus of the best decomposition; no dealer streak), plus
1 self-draw point (自摸) for a win on an own draw, and no self-draw point for a win on a claimed
discard (搶牌).  This follows :mod:`kaptai.kts.advisor`, which adds ``+1`` to ``score_hands``
for every own-draw win and nothing for a claimed win.  The value is the *unconditional*
expected score (a horizon with no win scores 0).

Conventions that the model text leaves open (decided here):

* A win is taken whenever it occurs (the text says "the player wins"); under ``"score"`` the
  player may not pass a low-scoring win to chase a bigger one.
* The horizon must fit in the pool: k looks (2k with claims) need at least that many unseen
  tiles, else ValueError (the advisor raises RulesError in the same case).
* A hand G that is already complete is not special-cased: its discard values are still
  ``V_k(G - x, ...)``.
* For objective ``"win"`` the claims variant with k turns equals the no-claims model with 2k
  looks (a claim look and a draw look are the same step); only the self-draw point tells them
  apart under ``"score"``.

Implementation: plain recursion on the number of looks left, with a dict memo on
``(hand counts, pool counts, looks left)``, in exact integers scaled by the number of look
sequences (see :class:`_Solver`), and a dict memo of the reference wins/scores of each 2n+1
hand per ruleset.  Hands are count vectors of 21 (index = tile id), the same information as
the sorted hand tuple.

Run time (CPU, one 2n+2 hand, all discards, memos cold; most of it is spent in the reference
evaluator): k = 1 well under 0.1 s; k = 2 about 0.1-1.5 s; k = 3 about 1-2.5 s in Kap Shap
(1 set) and 3-10 s in Kap Tai Shap on 2 sets (advanced forms are the slow end).  With claims,
k turns cost what 2k looks cost: k = 1 is like k = 2 above, k = 2 takes about 10 s (Kap Shap)
to 40 s (2 sets), and k = 3 (6 looks) is out of reach for this brute force.

Import it from a test as a file (pytest runs with ``--import-mode=importlib``)::

    import importlib.util, pathlib, sys
    _p = pathlib.Path(__file__).with_name("lookahead_oracle.py")
    _spec = importlib.util.spec_from_file_location("kts_lookahead_oracle", _p)
    oracle = importlib.util.module_from_spec(_spec); sys.modules[_spec.name] = oracle
    _spec.loader.exec_module(oracle)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

from kaptai.kts import reference
from kaptai.kts.rules import half_groups, resolve_rules
from kaptai.kts.tiles import format_tile, parse_hand

__all__ = ["oracle_discard_values", "oracle_value", "caps_for_sets", "OBJECTIVES"]

N = 21
#: Ids 0-10 are civil (two copies per set), 11-20 military (one per set) -- rules page §1.
N_CIVIL = 11
OBJECTIVES = ("win", "score")


def caps_for_sets(sets: int) -> tuple[int, ...]:
    """Copies of each tile id that ``sets`` sets hold: 2 per set for civil, 1 for military."""
    return tuple((2 if t < N_CIVIL else 1) * sets for t in range(N))


def _counts_of(ids: Sequence[int]) -> tuple[int, ...]:
    c = [0] * N
    for t in ids:
        c[t] += 1
    return tuple(c)


def _add(counts: tuple[int, ...], t: int, d: int) -> tuple[int, ...]:
    c = list(counts)
    c[t] += d
    return tuple(c)


def _rules_key(r) -> tuple:
    return (frozenset(r.forms), int(r.gee_joon_run_value), str(r.base_combination))


#: {rules key: {2n+1 hand counts: {t: score of hand + t}}}, shared by all calls.
_WINS_MEMO: dict[tuple, dict[tuple[int, ...], dict[int, int]]] = {}
#: {rules key: {2n+2 hand counts: reference.score}}, shared by all calls.
_SCORE_MEMO: dict[tuple, dict[tuple[int, ...], int]] = {}


class _Solver:
    """The recursion for one ruleset / objective / variant, with its own memo.

    Every look is the same step -- the tile t comes from the pool; if H + t wins, the win is
    taken; otherwise the player throws the best x of H + t -- so the k looks (2k with claims:
    offered discard, own draw, offered discard, ...) are one recursion on the number L of
    looks still to come.  In the claims variant a claim look differs from a draw look only in
    the self-draw point: declining the offered tile t1 is throwing x = t1 (H unchanged, t1 out
    of play), claiming it is throwing any other x, so both are in "max over x in H + t1".

    To stay in exact integers (Fraction arithmetic dominated the run time) the recursion
    carries ``E(H, pool, L) = V(H, pool, L looks) * u (u-1) ... (u-L+1)``, u = |pool|, i.e.
    the value times the number of ordered sequences of L looks.  All children of a state have
    pool size u - 1 and L - 1 looks left, so they share the scale ``perm(u - 1, L - 1)`` and
    may be summed and compared as integers::

        E(H, pool, L) = sum_t pool[t] * ( value(H+t) * perm(u-1, L-1)    if H+t wins
                                          0                              elif L == 1
                                          max_x E(H+t-x, pool-t, L-1)   otherwise )

    and ``V = E / perm(u, L)``.
    """

    def __init__(self, rules, claims: bool, objective: str):
        if objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {OBJECTIVES}, got {objective!r}")
        self.rules = rules
        self.claims = bool(claims)
        self.objective = objective
        self.wins_memo = _WINS_MEMO.setdefault(_rules_key(rules), {})
        self.score_memo = _SCORE_MEMO.setdefault(_rules_key(rules), {})
        self.memo: dict[tuple, int] = {}

    # -- wins, only through the reference evaluator ----------------------------------------
    def wins(self, hand: tuple[int, ...]) -> dict[int, int]:
        """{t: reference.score(hand + t)} for every tile t that completes the 2n+1 hand.

        The score is base + general-eye bonus of the best decomposition (no self-draw point,
        no dealer streak); tiles t whose hand + t is not a win (score -1) are left out.
        """
        found = self.wins_memo.get(hand)
        if found is None:
            found = {}
            for t in range(N):
                s = self.score(_add(hand, t, +1))
                if s >= 0:
                    found[t] = s
            self.wins_memo[hand] = found
        return found

    def score(self, complete: tuple[int, ...]) -> int:
        """reference.score of a 2n+2 hand (-1 if not a win), memoised per ruleset."""
        s = self.score_memo.get(complete)
        if s is None:
            s = reference.score(complete, self.rules)
            self.score_memo[complete] = s
        return s

    def win_value(self, s: int, self_drawn: bool) -> int:
        """1 for objective 'win'; else the score, +1 (自摸) for a win on an own draw."""
        if self.objective == "win":
            return 1
        return s + 1 if self_drawn else s

    def is_own_draw(self, looks_left: int) -> bool:
        """Without claims every look is an own draw.  With claims the looks of the horizon
        (2k of them) alternate offered discard, own draw, ...: the look with ``looks_left``
        still to come (itself included) is an own draw iff ``looks_left`` is odd."""
        return (not self.claims) or looks_left % 2 == 1

    # -- the recursion ----------------------------------------------------------------------
    def E(self, hand: tuple[int, ...], pool: tuple[int, ...], looks: int) -> int:
        if looks == 1:
            # the last look: only a win counts (V_0 = 0), scale perm(u - 1, 0) = 1; this is
            # the general case below with L = 1, kept out of the memo (it is cheap, and by far
            # the most numerous state)
            own = self.is_own_draw(1)
            return sum(pool[t] * self.win_value(s, own) for t, s in self.wins(hand).items())
        key = (hand, pool, looks)
        if key in self.memo:
            return self.memo[key]
        u = sum(pool)
        scale = math.perm(u - 1, looks - 1)  # scale of every child value
        own = self.is_own_draw(looks)
        wins = self.wins(hand)
        total = 0
        for t in range(N):
            if not pool[t]:
                continue
            if t in wins:
                child = self.win_value(wins[t], own) * scale
            else:
                grown = _add(hand, t, +1)
                after = _add(pool, t, -1)
                child = max(self.E(_add(grown, x, -1), after, looks - 1) for x in range(N) if grown[x])
            total += pool[t] * child
        self.memo[key] = total
        return total

    def V(self, hand: tuple[int, ...], pool: tuple[int, ...], k: int) -> Fraction:
        """V_k(H, pool): k looks, or k turns of two looks with claims."""
        looks = 2 * k if self.claims else k
        if looks == 0:
            return Fraction(0)
        u = sum(pool)
        if looks > u:
            raise ValueError(f"{looks} look(s) need at least {looks} unseen tiles, the pool holds {u}")
        return Fraction(self.E(hand, pool, looks), math.perm(u, looks))


def _check_draws(draws: Any) -> int:
    if isinstance(draws, bool) or not isinstance(draws, int) or draws < 0:
        raise ValueError(f"draws must be a whole number >= 0, got {draws!r}")
    return draws


def oracle_value(
    hand9: Any,
    pool_counts: Sequence[int],
    draws: int,
    rules: Any,
    claims: bool = False,
    objective: str = "win",
) -> Fraction:
    """V_k(H, pool) for a hand of 2n+1 tiles (9, or 7 in Kap Shap) and an explicit pool.

    Parameters
    ----------
    hand9 : str or iterable
        The 2n+1 tiles, any notation :func:`kaptai.kts.tiles.parse_hand` reads (or tile ids).
    pool_counts : sequence of 21 ints
        Unseen copies per tile id.
    draws : int
        k: looks (turns of two looks with ``claims``).
    rules : RuleSet, preset name or mapping
        Decides wins and scores (through :mod:`kaptai.kts.reference`).
    claims : bool
        Two looks per turn (offered discard, then own draw).
    objective : {'win', 'score'}
        P(win within the horizon) or the expected score (0 when no win).
    """
    r = resolve_rules(rules)
    ids = parse_hand(hand9)
    if len(ids) not in (7, 9):
        raise ValueError(f"hand9 must have 2n+1 = 9 (or 7 in Kap Shap) tiles, got {len(ids)}")
    pool = tuple(int(c) for c in pool_counts)
    if len(pool) != N or min(pool) < 0:
        raise ValueError(f"pool_counts must be 21 non-negative counts, got {list(pool_counts)}")
    return _Solver(r, claims, objective).V(_counts_of(ids), pool, _check_draws(draws))


def oracle_discard_values(
    hand10: Any,
    rules: Any,
    seen: Any = (),
    draws: int = 3,
    claims: bool = False,
    objective: str = "win",
    players: int | None = None,
    sets: int | None = None,
) -> dict[str, Fraction]:
    """Exact value of discarding each distinct tile x of a 2n+2 hand G: V_k(G - x, caps - G - S).

    Parameters
    ----------
    hand10 : str or iterable
        10 tiles (8 in Kap Shap).
    rules : RuleSet, preset name or mapping
    seen : str or iterable
        S, the tiles seen outside the hand.
    draws : int
        k (default 3, like the advisor).
    claims, objective
        As :func:`oracle_value`.
    players : int, optional
        Default 4 for a 10-tile hand, 2 (Kap Shap) for an 8-tile hand; must match the size.
    sets : int, optional
        Sets in play; default the ruleset's ``sets`` option, else the §2 table for ``players``.

    Returns
    -------
    dict
        ``{format_tile(x): Fraction}`` in tile-id order (keys in pip notation, e.g. ``'5-6'``).
    """
    r = resolve_rules(rules)
    ids = parse_hand(hand10)
    if len(ids) not in (8, 10):
        raise ValueError(f"hand10 must have 2n+2 = 10 (or 8 in Kap Shap) tiles, got {len(ids)}")
    n = (len(ids) - 2) // 2
    if players is None:
        players = 2 if n == 3 else 4
    if half_groups(players) != n:
        raise ValueError(f"a hand of {len(ids)} tiles does not fit {players} players")
    n_sets = sets if sets is not None else r.sets_for(players)
    caps = caps_for_sets(n_sets)
    G = _counts_of(ids)
    S = _counts_of(parse_hand(seen))
    pool = tuple(caps[t] - G[t] - S[t] for t in range(N))
    if min(pool) < 0:
        t = min(range(N), key=lambda i: pool[i])
        raise ValueError(
            f"hand and seen hold {G[t] + S[t]} copies of {format_tile(t)}; {n_sets} set(s) hold {caps[t]}"
        )
    k = _check_draws(draws)
    solver = _Solver(r, claims, objective)
    return {format_tile(x): solver.V(_add(G, x, -1), pool, k) for x in range(N) if G[x]}
