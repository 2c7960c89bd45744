"""Exact deal odds of Kap Tai Shap (夾大十) and Kap Shap (夾十).

Every hand of ``h`` tiles dealt from the sets in play is a count vector ``c``
over the 21 tile ids with probability
``prod(comb(K[i], c[i])) / comb(sum(K), h)`` (hypergeometric), ``K[i]`` being
the copies the sets hold.  The compiled kernel walks every count vector once
(tiles that play identical roles — 5-5/4-6, 3-3/1-5 and the four pairs of
military tiles of equal value — are enumerated in canonical order with a
multiplicity), evaluates it and adds its weight, as an exact 64-bit integer,
to tallies.  Only the final division into a :class:`fractions.Fraction` and
then a float happens in Python.

Definitions
-----------
natural
    The first hand's dealt 10 (8) tiles are already a win (under the
    ruleset's forms).
ready
    A dealt non-first hand of 9 (7) tiles is one tile from a win with that
    tile still available: some tile ``t`` completes it and the sets hold more
    copies of ``t`` than the hand.  ``ready_any_tile`` drops the availability
    condition (it differs only when the hand holds every copy of its wait).
waits, live outs
    Over ready hands: the number of distinct tiles that complete the hand and
    are still available, and the number of their copies outside the hand.
distance_from_ready
    Fewest tiles to exchange (throw one, take one from outside the hand) to
    make the hand ready: ``2n + 1 - max overlap`` with a feasible winning hand
    of ``2n + 2`` tiles.  0 = ready; for the first hand (10 tiles) -1 means it
    is already complete and 0 that one discard leaves it ready.

Distance from ready, method
---------------------------
Searching the best overlap of every dealt hand (``max_overlap``) is slow, so
the distances are built bottom-up over hand sizes.  Let ``ov(c)`` be the max
overlap of a hand ``c`` with a feasible winning hand.  If ``c`` is not
contained in one, the best winning hand leaves some tile ``t`` of ``c``
unused, so ``ov(c) = max over t in c of ov(c - t)`` (dropping a tile never
raises the overlap).  Hence

1. ``ov`` of every hand of 2n tiles is searched (a few hundred thousand hands);
2. a hand of 2n+1 tiles has ``ov`` 2n+1 if ready, else the best ``ov`` of its
   sub-hands of 2n tiles: table reads (the other hands' walk writes this
   table as it goes);
3. a hand of 2n+2 tiles (the first hand) has ``ov`` 2n+2 if complete, else
   the best of its sub-hands of 2n+1 tiles.

The tables are indexed by the rank of the canonical count vector, which the
walk keeps as it goes (see ``_eval._deal_tables``); the answers are the same
integers as with a search per hand.
"""

from __future__ import annotations

import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.options import check_bool, check_count
from kaptai.core.runner import MAX_WORKERS
from kaptai.core.tables import exact_fraction, hypergeometric_total, tidy_frame
from kaptai.kts import _eval
from kaptai.kts.dice import first_hand_distribution
from kaptai.kts.evaluate import SPECIALS, c_rules
from kaptai.kts.rules import FORMS, RuleSet, check_deal, game_name, half_groups, hand_sizes, n_dice, validate_players
from kaptai.kts.tiles import COPIES_PER_SET

__all__ = ["deal_odds", "ODDS_COLUMNS", "DEAL_METRICS", "game_name"]

_UNSET = 255  # overlap-table entry not written yet

ODDS_COLUMNS = ["game", "rules", "players", "sets", "hand", "metric", "breakdown", "level", "value", "exact", "method"]


#: What each metric of :func:`deal_odds` is, in a few words (the command line's legend).
DEAL_METRICS: dict[str, str] = {
    "natural": "P(the first hand's dealt 2n+2 tiles are already a win)",
    "ready": "P(a dealt 2n+1 hand is one tile from a win, with a copy of that tile left outside it)",
    "ready_any_tile": "the same without asking for a copy left",
    "mean_waits": "mean number of distinct tiles that complete a ready hand",
    "waits_distribution": "distribution of that number, given ready",
    "live_outs_distribution": "distribution of the copies of the waits outside the hand, given ready",
    "mean_score": "mean best score of a complete first hand",
    "score_distribution": "distribution of that score, given complete",
    "form_distribution": "form of the best decomposition, given complete",
    "special": "P(the dealt first hand is a win making that special hand)",
    "distance_from_ready": "fewest tile exchanges to become ready; -1 = already complete, 0 = ready "
                           "(for the first hand: one discard leaves it ready)",
    "first_hand_seat": "distribution of the first hand's seat relative to the dealer (the dice)",
}




def _prefixes(copies: list[int], size: int, depth: int = 3):
    """Counts of the first ``depth`` tile ids: disjoint slices of the enumeration."""
    ranges = [range(min(copies[i], size) + 1) for i in range(depth)]
    return [p for p in itertools.product(*ranges) if sum(p) <= size]


def _run_slices(run, slices: list, workers: int | None) -> list:
    """``run(p)`` for every prefix slice, on ``workers`` threads (default: one
    per CPU; the compiled walks release the GIL).  The slices are many (one
    per count of the first three tile ids) and the pool hands them out as
    threads free up, which keeps the threads evenly loaded."""
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        return [run(p) for p in slices]
    pool = ThreadPoolExecutor(max_workers=workers)
    try:
        return list(pool.map(run, slices))
    finally:  # Ctrl-C: the slices not started are dropped, not run to the end
        pool.shutdown(wait=True, cancel_futures=True)


def _tallies(copies: list[int], size: int, mask: int, base_sum: int, gj: int, n: int, distance: bool,
             workers: int | None = None, prev: np.ndarray | None = None, out: np.ndarray | None = None) -> dict:
    """Exact tallies over every hand of ``size`` tiles, the enumeration split
    into slices walked by ``workers`` threads; integer tallies add up exactly,
    so the result does not depend on the number of threads.  ``prev`` / ``out``:
    overlap tables (see :func:`_hand_tallies`)."""
    slices = _prefixes(copies, size)
    run = lambda p: _eval._deal_tables(copies, size, mask, base_sum, gj, n, distance, p, prev, out)  # noqa: E731
    parts = _run_slices(run, slices, workers)
    t = {}
    for key, value in parts[0].items():
        if isinstance(value, list):
            t[key] = [sum(col) for col in zip(*(part[key] for part in parts))]
        else:
            t[key] = sum(part[key] for part in parts)
    total = hypergeometric_total(copies, size)
    if t["total"] != total:  # pragma: no cover - the enumeration must cover every deal
        raise RuntimeError(f"enumeration weight {t['total']} != C({sum(copies)}, {size}) = {total}")
    return t


def _check_filled(table: np.ndarray, size: int) -> None:
    if (table == _UNSET).any():  # pragma: no cover - every canonical hand has exactly one rank
        raise RuntimeError(f"overlap table of {size}-tile hands has unset entries")


def _overlap_table(copies: list[int], size: int, mask: int, base_sum: int, gj: int, n: int,
                   workers: int | None = None) -> np.ndarray:
    """Max overlap with a feasible winning hand of every canonical hand of
    ``size`` tiles (uint8, indexed by the compiled walk's canonical rank)."""
    table = np.full(_eval._canonical_count(copies, size), _UNSET, dtype=np.uint8)
    run = lambda p: _eval._overlap_table(copies, size, mask, base_sum, gj, n, p, table)  # noqa: E731
    _run_slices(run, _prefixes(copies, size), workers)
    _check_filled(table, size)
    return table


def _hand_tallies(copies: list[int], first_size: int, other_size: int, mask: int, base_sum: int, gj: int,
                  n: int, distance: bool, workers: int | None = None) -> tuple[dict, dict]:
    """Tallies of the first hand and of the other hands.

    With ``distance`` and hands of 2n+2 / 2n+1 tiles the distance comes from
    overlap tables built bottom-up: the max overlap of every hand of 2n tiles
    is searched (``max_overlap``); a hand of one tile more that is not ready
    (2n+1) or complete (2n+2) shares exactly as many tiles with a winning
    hand as the best of its sub-hands one tile smaller (drop a tile that the
    best winning hand does not use), so the walks of the other hands and then
    of the first hand only read the table below them; the walk of the other
    hands writes the table of 2n+1 tiles.
    """
    if not (distance and first_size == 2 * n + 2 and other_size == 2 * n + 1 and first_size <= 10):
        first = _tallies(copies, first_size, mask, base_sum, gj, n, distance, workers)
        other = _tallies(copies, other_size, mask, base_sum, gj, n, distance, workers)
        return first, other
    below = _overlap_table(copies, other_size - 1, mask, base_sum, gj, n, workers)
    table = np.full(_eval._canonical_count(copies, other_size), _UNSET, dtype=np.uint8)
    other = _tallies(copies, other_size, mask, base_sum, gj, n, True, workers, prev=below, out=table)
    _check_filled(table, other_size)
    first = _tallies(copies, first_size, mask, base_sum, gj, n, True, workers, prev=table)
    return first, other


def deal_odds(
    players: int = 4,
    rules: RuleSet | str | None = "traditional",
    *,
    distance: bool = True,
    workers: int | None = None,
) -> pd.DataFrame:
    """Exact odds of the deal for one player count and ruleset.

    Parameters
    ----------
    players : int
        2 (Kap Shap) to 22.
    rules : RuleSet or preset name
        Forms, ``base_combination``, ``gee_joon_run_value``, ``sets`` and
        ``dice`` are used.
    distance : bool
        Also compute the distance-from-ready distributions (the slowest part).
    workers : int, optional
        Threads walking the enumeration (default: one per CPU). The result is
        exactly the same for any number.

    Returns
    -------
    pandas.DataFrame
        Tidy table, columns ``game, rules, players, sets, hand, metric,
        breakdown, level, value, exact, method``; ``value`` is a float
        probability (or mean), ``exact`` the same as an exact fraction
        ``'p/q'`` where there is one, ``method`` is ``'exact'``.  Metrics:

        - ``natural`` (hand 'first'): P(the dealt first hand is a win);
        - ``ready``, ``ready_any_tile`` (hand 'other'): P(one tile from a win);
        - ``mean_waits`` (over ready hands), ``waits_distribution``,
          ``live_outs_distribution`` (conditional on ready);
        - ``mean_score``, ``score_distribution``, ``form_distribution``
          (conditional on a complete first hand);
        - ``special`` (level = the special hand): P(the dealt first hand is a
          win making that special hand);
        - ``distance_from_ready`` (both hands);
        - ``first_hand_seat`` (hand 'table', level = seat relative to the dealer): the dice.

    Examples
    --------
    >>> from kaptai.kts import deal_odds
    >>> df = deal_odds(2, "traditional")
    >>> float(df.query("metric == 'natural'").value.iloc[0])  # doctest: +ELLIPSIS
    0.0077...
    >>> df.query("metric == 'first_hand_seat'")[["level", "exact"]].to_dict("records")
    [{'level': '0', 'exact': '1/2'}, {'level': '1', 'exact': '1/2'}]
    """
    players = validate_players(players)
    r, mask, base_sum, gj = c_rules(rules)
    check_deal(players, r)
    distance = check_bool("distance", distance)
    if workers is not None:
        workers = check_count("workers", workers, 1, MAX_WORKERS)
    sets = r.sets_for(players)
    n = half_groups(players)
    first_size, other_size = hand_sizes(players)
    copies = [int(k) for k in COPIES_PER_SET * sets]

    first, other = _hand_tallies(copies, first_size, other_size, mask, base_sum, gj, n, distance, workers)
    tf, to = first["total"], other["total"]

    base = {"game": game_name(players), "rules": r.name, "players": players, "sets": sets, "method": "exact"}
    rows: list[dict[str, Any]] = []

    def add(hand, metric, frac, breakdown=None, level=None):
        rows.append(
            {
                **base,
                "hand": hand,
                "metric": metric,
                "breakdown": breakdown,
                "level": None if level is None else str(level),
                "value": float(frac),
                "exact": f"{frac.numerator}/{frac.denominator}" if isinstance(frac, Fraction) else None,
            }
        )

    add("first", "natural", exact_fraction(first["win"], tf))
    add("other", "ready", exact_fraction(other["ready"], to))
    add("other", "ready_any_tile", exact_fraction(other["ready_any"], to))
    ready = other["ready"]
    if ready:
        add("other", "mean_waits", Fraction(other["waits_weighted"], ready))
        for k, w in enumerate(other["waits_hist"]):
            if w:
                add("other", "waits_distribution", Fraction(w, ready), "waits", k)
        for k, w in enumerate(other["live_hist"]):
            if w:
                add("other", "live_outs_distribution", Fraction(w, ready), "live_outs", k)
    win = first["win"]
    if win:
        add("first", "mean_score", Fraction(sum(s * w for s, w in enumerate(first["score_hist"])), win))
        for s, w in enumerate(first["score_hist"]):
            if w:
                add("first", "score_distribution", Fraction(w, win), "score", s)
        for f, w in zip(FORMS, first["form_hist"]):
            if f in r.forms:
                add("first", "form_distribution", Fraction(w, win), "form", f)
    for name, w in zip(SPECIALS, first["special_hist"]):
        if name in FORMS and name not in r.forms:
            continue  # a winning form the rules in force do not have: it cannot occur
        add("first", "special", exact_fraction(w, tf), "special", name)
    if distance:
        for hand, t, tot in (("first", first, tf), ("other", other, to)):
            for i, w in enumerate(t["dist_hist"]):
                if w:
                    add(hand, "distance_from_ready", exact_fraction(w, tot), "distance", i - 1)
    for seat, p in first_hand_distribution(players, r).items():
        add("table", "first_hand_seat", p, "seat_from_dealer", seat)  # the dice: the table, not a hand

    return tidy_frame(
        rows,
        ODDS_COLUMNS,
        {
            "rules": r.to_dict(),
            "players": players,
            "sets": sets,
            "copies": copies,
            "dice": n_dice(players, r),
            "hand_sizes": (first_size, other_size),
            "method": "exact",
        },
    )
