"""Public evaluator API for Kap Tai Shap (夾大十) and Kap Shap (夾十).

Batch functions (:func:`score_hands`, :func:`waits_hands`) validate a numpy
array of tile ids once and hand it to the compiled kernels in
``kaptai.kts._eval``; single-hand functions (:func:`evaluate`, :func:`waits`)
parse any hand notation, and explain the result (one best decomposition, the
waits with their live outs).

Examples
--------
>>> from kaptai.kts import evaluate, waits
>>> ev = evaluate("66 66 44 44 14 14 55 55 46 46", "advanced")
>>> ev.is_win, ev.score, ev.form
(True, 10, 'general_eyes')
>>> waits("16 16 16 12 33 13 15 22 66", "traditional")[["tile", "live_outs"]]
  tile  live_outs
0  4-4          4
1  2-6          2
2  3-5          2
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np
import pandas as pd

from kaptai.errors import InvalidHandError, RulesError, quote_token
from kaptai.kts import _eval
from kaptai.kts.rules import FORMS, RuleSet, forms_mask, hand_sizes, resolve_rules, validate_players
from kaptai.kts.tiles import (
    COPIES_PER_SET,
    MAX_SETS,
    copies_error,
    GENERAL_EYE_IDS,
    N_TILE_TYPES,
    TEN_VALUE,
    format_tile,
    parse_hand,
)

__all__ = ["Evaluation", "score_hands", "waits_hands", "evaluate", "waits", "classify_hands",
           "SPECIALS", "c_rules"]

#: Names of the special-hand flags, in bit order of the compiled evaluator.
SPECIALS: tuple[str, ...] = ("all_even", "all_odd", "all_pairs", "general_eyes", "run4", "run6", "run8")

_CLASS = TEN_VALUE % 10
_PAIR_TYPES = (4, 8, 17, 18)  # tiles whose identical pair is a ten pair (5-5, 4-6, 1-4, 2-3)


def c_rules(rules: RuleSet | str | None) -> tuple[RuleSet, int, int, int]:
    """Resolve ``rules`` and return it with the compiled kernels' parameters
    ``(rules, forms_mask, base_sum, gee_joon_run_value)``."""
    r = resolve_rules(rules)
    return r, forms_mask(r.forms), int(r.base_combination == "sum"), int(r.gee_joon_run_value)


def _tile_array(tiles: Any, sizes: tuple[int, ...], what: str) -> np.ndarray:
    try:
        arr = np.asarray(tiles)
    except (ValueError, TypeError) as exc:  # ragged nesting, objects numpy cannot hold
        raise InvalidHandError(f"{what} expects a 2-D array of tile ids: {exc}") from None
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise InvalidHandError(f"{what} expects a 2-D array (hands x tiles), got {arr.ndim} dimensions")
    if arr.shape[1] not in sizes:
        raise InvalidHandError(
            f"{what}: hands of {arr.shape[1]} tiles, expected "
            + " or ".join(str(s) for s in sizes)
            + " (Kap Tai Shap / Kap Shap)"
        )
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise InvalidHandError(f"{what}: tile ids must be integers, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= N_TILE_TYPES):  # two reductions, no temporaries
        bad = (arr < 0) | (arr >= N_TILE_TYPES)
        if bad.any():
            row, col = np.argwhere(bad)[0]
            raise InvalidHandError(
                f"{what}: tile id {arr[row, col]} at hand {row}, position {col} is not a tile (expected 0-20)"
            )
    return np.ascontiguousarray(arr, dtype=np.int8)


def score_hands(tiles: Any, rules: RuleSet | str | None = "traditional") -> np.ndarray:
    """Best score of each hand, or -1 where the hand is not a win.

    Parameters
    ----------
    tiles : array_like of int, shape (N, 2n+2)
        Tile ids (0-20), 10 per row for Kap Tai Shap or 8 for Kap Shap.
    rules : RuleSet or preset name
        The forms allowed, ``base_combination`` and ``gee_joon_run_value`` are used.

    Returns
    -------
    numpy.ndarray of int32, shape (N,)
        The advanced-table score (base + general eyes, without the self-draw
        and dealer-streak bonuses) of the best decomposition the ruleset's
        forms allow, or -1.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.kts import score_hands, parse_hand
    >>> hands = np.array([parse_hand("36 36 11 12 22 23 33 16 44 45"),   # run8
    ...                   parse_hand("66 66 44 44 14 14 55 55 46 46")])  # all pairs, 2 general eyes
    >>> score_hands(hands, "advanced").tolist(), score_hands(hands, "traditional").tolist()
    ([8, 10], [-1, 2])
    """
    _, mask, base_sum, gj = c_rules(rules)
    arr = _tile_array(tiles, (10, 8), "score_hands")
    return _eval._score_batch(arr, mask, base_sum, gj)


def classify_hands(tiles: Any, rules: RuleSet | str | None = "traditional") -> pd.DataFrame:
    """Score, best form and special-hand flags of each hand (one row per hand).

    Columns: ``score`` (int, -1 if not a win), ``form`` (string, ``<NA>`` if not
    a win) and one bool column per special hand (:data:`SPECIALS`).

    Examples
    --------
    >>> from kaptai.kts import classify_hands, parse_hand
    >>> classify_hands([parse_hand("22 22 11 44 13 33 55 46 66 26")], "advanced")[["score", "form", "all_even"]]
       score   form  all_even
    0      4  basic      True
    """
    _, mask, base_sum, gj = c_rules(rules)
    arr = _tile_array(tiles, (10, 8), "classify_hands")
    score, form, spec = _eval._classify_batch(arr, mask, base_sum, gj)
    names = np.array([None, *FORMS], dtype=object)
    # form: a string column, <NA> where the hand is not a win
    out = pd.DataFrame({"score": score, "form": pd.array(names[form.astype(np.int64) + 1], dtype="string")})
    for bit, name in enumerate(SPECIALS):
        out[name] = (spec & (1 << bit)) != 0
    return out


def waits_hands(tiles: Any, rules: RuleSet | str | None = "traditional") -> np.ndarray:
    """Which tiles complete each hand.

    Parameters
    ----------
    tiles : array_like of int, shape (N, 2n+1)
        Tile ids, 9 per row (Kap Tai Shap) or 7 (Kap Shap).
    rules : RuleSet or preset name

    Returns
    -------
    numpy.ndarray of bool, shape (N, 21)
        ``out[i, t]`` is True where adding tile id ``t`` to hand ``i`` makes a
        win.  This is purely combinatorial: it does not ask whether a copy of
        ``t`` is left (see :func:`waits` for live outs).

    Examples
    --------
    >>> from kaptai.kts import waits_hands, parse_hand
    >>> w = waits_hands([parse_hand("16 16 16 12 33 13 15 22 66")], "traditional")
    >>> w.nonzero()[1].tolist()   # 4-4, 2-6, 3-5: any eight pairs with the 6-6
    [2, 13, 14]
    """
    _, mask, base_sum, gj = c_rules(rules)
    arr = _tile_array(tiles, (9, 7), "waits_hands")
    return _eval._waits_batch(arr, mask, base_sum, gj)


# ------------------------------------------------------------------ single hands
@dataclass(frozen=True)
class Evaluation:
    """Result of :func:`evaluate`.

    Attributes
    ----------
    tiles : tuple of int
        The hand's tile ids, sorted.
    is_win : bool
    score : int or None
        Best score (advanced table, no self-draw or streak bonus); None if not a win.
    form : str or None
        Form of the best decomposition ('basic', 'general_eyes', 'run4', 'run6', 'run8').
    groups : tuple
        One best decomposition: ``(kind, tile ids)`` pairs, kind one of 'eye',
        'general_eye', 'ten_pair', 'run'.
    specials : frozenset of str
        Special hands that some winning decomposition allowed by the rules makes
        ('all_even', 'all_odd', 'all_pairs', 'general_eyes', 'run4', 'run6', 'run8').
    """

    tiles: tuple[int, ...]
    is_win: bool
    score: int | None
    form: str | None
    groups: tuple[tuple[str, tuple[int, ...]], ...]
    specials: frozenset[str]

    def describe(self) -> str:
        """The best decomposition in pip notation, e.g. ``'eye 1-6 1-6 · ten pair 1-6 1-2 · ...'``."""
        if not self.is_win:
            return "not a win"
        parts = [f"{kind.replace('_', ' ')} " + " ".join(format_tile(t) for t in ids) for kind, ids in self.groups]
        return " · ".join(parts)


def _ten_pairs(counts: np.ndarray) -> list[tuple[int, int]] | None:
    """Split a count vector into ten pairs (identical pairs first), or None."""
    c = counts.copy()
    pairs: list[tuple[int, int]] = []
    for t in _PAIR_TYPES:  # identical ten pairs first: they make 'all pairs'
        while c[t] >= 2:
            c[t] -= 2
            pairs.append((t, t))
    by_class = {k: [t for t in range(N_TILE_TYPES) for _ in range(c[t]) if _CLASS[t] == k] for k in range(10)}
    for k in (0, 5):
        lst = by_class[k]
        if len(lst) % 2:
            return None
        pairs += [(lst[i], lst[i + 1]) for i in range(0, len(lst), 2)]
    for k in range(1, 5):
        a, b = by_class[k], by_class[10 - k]
        if len(a) != len(b):
            return None
        pairs += list(zip(a, b))
    return pairs


def _decomposition_score(form: str, groups: list, counts: np.ndarray, rules: RuleSet) -> int:
    tv = TEN_VALUE[counts > 0]
    items = [{"basic": 2, "general_eyes": 2, "run4": 2, "run6": 4, "run8": 8}[form]]
    if (tv % 2 == 0).all():
        items.append(4)
    if (tv % 2 == 1).all():
        items.append(5)
    if all(kind != "run" and ids[0] == ids[1] for kind, ids in groups):
        items.append(8)
    base = sum(items) if rules.base_combination == "sum" else max(items)
    return base + sum(kind == "general_eye" for kind, _ in groups)


def _candidates(counts: np.ndarray, rules: RuleSet):
    """Yield (form, groups) for decompositions of the allowed forms (one per eye/run choice)."""
    n = (int(counts.sum()) - 2) // 2
    rv = rules.run_values()
    eyes = [e for e in range(N_TILE_TYPES) if counts[e] >= 2]
    if "basic" in rules.forms:
        for e in eyes:
            rest = counts.copy()
            rest[e] -= 2
            pairs = _ten_pairs(rest)
            if pairs is not None:
                kind = "general_eye" if e in GENERAL_EYE_IDS else "eye"
                yield "basic", [(kind, (e, e))] + [("ten_pair", p) for p in pairs]
    if "general_eyes" in rules.forms:
        ge = list(GENERAL_EYE_IDS)
        ranges = [range(counts[g] // 2 + 1) for g in ge]
        for g in np.ndindex(*[len(r) for r in ranges]):
            k = sum(g)
            if k < 2:
                continue
            rest = counts.copy()
            for gid, gk in zip(ge, g):
                rest[gid] -= 2 * gk
            pairs = _ten_pairs(rest)
            if pairs is not None:
                groups = [("general_eye", (gid, gid)) for gid, gk in zip(ge, g) for _ in range(gk)]
                yield "general_eyes", groups + [("ten_pair", p) for p in pairs]
    for length in (4, 6, 8):
        form = f"run{length}"
        if form not in rules.forms or n - length // 2 < 0:
            continue
        for e in eyes:
            base = counts.copy()
            base[e] -= 2
            for v in range(2, 14 - length):
                options = [[t for t in range(N_TILE_TYPES) if rv[t] == w and base[t] > 0] for w in range(v, v + length)]
                if any(not o for o in options):
                    continue
                # the class of the tile taken matters only where a value mixes classes
                for choice in np.ndindex(*[len(o) for o in options]):
                    run = [o[i] for o, i in zip(options, choice)]
                    rest = base.copy()
                    np.subtract.at(rest, run, 1)
                    pairs = _ten_pairs(rest)
                    if pairs is not None:
                        kind = "general_eye" if e in GENERAL_EYE_IDS else "eye"
                        yield form, [(kind, (e, e)), ("run", tuple(run))] + [("ten_pair", p) for p in pairs]


def check_sets(rules: RuleSet, sets: Any) -> int | None:
    """``sets`` if it agrees with the ruleset's ``sets`` option (when that is set), else
    RulesError: ``-o sets=1 --sets 3`` would otherwise quietly use one of the two.

    Examples
    --------
    >>> from kaptai.kts.evaluate import check_sets
    >>> from kaptai.kts.rules import RuleSet
    >>> check_sets(RuleSet(sets=2), 2), check_sets(RuleSet(), 3)
    (2, 3)
    >>> check_sets(RuleSet(sets=1), 3)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: sets=3 contradicts the rules' option sets=1: give one of them
    """
    if sets is None:
        return None
    if isinstance(sets, bool) or not isinstance(sets, Integral) or not 1 <= int(sets) <= MAX_SETS:
        raise RulesError(f"sets={quote_token(sets)} is not allowed: expected an integer from 1 to {MAX_SETS}")
    if rules.sets is not None and int(sets) != rules.sets:
        raise RulesError(f"sets={quote_token(sets)} contradicts the rules' option sets={rules.sets}: give one of them")
    return int(sets)


def complete_hand_sizes(players: Any = None) -> tuple[int, ...]:
    """Sizes of a complete hand: 10 (Kap Tai Shap) or 8 (Kap Shap, 2 players); both when
    ``players`` is None.

    >>> from kaptai.kts.evaluate import complete_hand_sizes
    >>> complete_hand_sizes(), complete_hand_sizes(2), complete_hand_sizes(4)
    ((10, 8), (8,), (10,))
    """
    if players is None:
        return (10, 8)
    return (hand_sizes(validate_players(players))[0],)


def evaluate(hand: Any, rules: RuleSet | str | None = "traditional", *, sets: int | None = None,
             players: int | None = None) -> Evaluation:
    """Classify and score one complete hand (10 tiles, or 8 in Kap Shap).

    Parameters
    ----------
    hand : str or iterable
        Any notation :func:`kaptai.kts.parse_hand` reads, e.g. ``"66 6-6 heaven 天"``.
    rules : RuleSet or preset name
    sets : int, optional
        Sets in play, to reject more copies of a tile than they hold (must agree with the
        rules' ``sets`` option when that is set).  Default: the ruleset's ``sets``, else the
        rules-page table for ``players``, else 2 sets for a 10-tile hand and 1 for an 8-tile
        hand (as :func:`waits`); the error says how many sets the hand needs.
    players : int, optional
        Players at the table: the hand must have their hand size (8 tiles for 2 players,
        Kap Shap; 10 otherwise).  Default: either size.

    Returns
    -------
    Evaluation

    Examples
    --------
    >>> from kaptai.kts import evaluate
    >>> ev = evaluate("55 55 16 24 13 14 15 34 35 36", "advanced")
    >>> ev.score, ev.form
    (4, 'run6')
    >>> print(ev.describe())
    eye 5-5 5-5 · run 1-3 1-4 1-5 1-6 3-5 3-6 · ten pair 2-4 3-4
    >>> evaluate("55 55 16 24 13 14 15 34 35 36", "traditional").is_win
    False
    """
    r, mask, base_sum, gj = c_rules(rules)
    sets = check_sets(r, sets)
    if sets is None and players is not None:
        sets = r.sets_for(players)
    ids = parse_hand(hand, size=complete_hand_sizes(players))
    # the copies the sets in play hold: the given sets, else the default (as waits)
    err = copies_error(np.bincount(np.asarray(ids, dtype=np.int64), minlength=N_TILE_TYPES),
                       sets if sets is not None else _default_sets(len(ids), r, players))
    if err is not None:
        raise err
    arr = np.array([sorted(ids)], dtype=np.int8)
    score, form, spec = _eval._classify_batch(arr, mask, base_sum, gj)
    s = int(score[0])
    specials = frozenset(name for bit, name in enumerate(SPECIALS) if int(spec[0]) & (1 << bit))
    if s < 0:
        return Evaluation(tuple(sorted(ids)), False, None, None, (), frozenset())
    form_name = FORMS[int(form[0])]
    counts = np.bincount(np.array(ids), minlength=N_TILE_TYPES)
    groups = None
    for f, g in _candidates(counts, r):
        if f == form_name and _decomposition_score(f, g, counts, r) == s:
            groups = g
            break
    if groups is None:  # pragma: no cover - would mean the two evaluators disagree
        raise RuntimeError(f"no {form_name} decomposition scoring {s} found for {ids}")
    return Evaluation(tuple(sorted(ids)), True, s, form_name, tuple((k, tuple(v)) for k, v in groups), specials)


def _default_sets(size: int, rules: RuleSet, players: int | None) -> int:
    if players is not None:
        return rules.sets_for(players)
    if rules.sets is not None:
        return rules.sets
    return 1 if size <= 8 else 2


def waits(
    hand: Any,
    rules: RuleSet | str | None = "traditional",
    *,
    seen: Any = (),
    players: int | None = None,
    sets: int | None = None,
) -> pd.DataFrame:
    """The tiles that complete a hand of 9 (7 in Kap Shap), with their live outs.

    Parameters
    ----------
    hand : str or iterable
        The player's 9 (or 7) tiles.
    rules : RuleSet or preset name
    seen : str or iterable, optional
        Tiles already visible outside the hand (discards, exposed tiles).
    players, sets : int, optional
        Sets in play (default: the ruleset's ``sets``, else the rules-page table
        for ``players``, else 2 sets for a 9-tile hand and 1 for a 7-tile hand).

    Returns
    -------
    pandas.DataFrame
        One row per waiting tile: ``tile_id``, ``tile`` (pips), ``live_outs``
        (copies neither in the hand nor seen) and ``score`` (of the completed
        hand, not self-drawn, no streak).  A waiting tile whose every copy is
        already in the hand or seen is listed with ``live_outs`` 0.

    Raises
    ------
    InvalidHandError
        For a wrong hand size, or more copies of a tile (hand and seen together)
        than the sets hold.

    Examples
    --------
    >>> from kaptai.kts import waits
    >>> waits("16 16 16 33 13 15 22 66 44", "traditional", seen="12")
       tile_id tile  live_outs  score
    0       19  2-4          2      2
    1       20  1-2          1      2
    """
    r, mask, base_sum, gj = c_rules(rules)
    sets = check_sets(r, sets)
    ids = parse_hand(hand, size=(9, 7))
    n_sets = sets if sets is not None else _default_sets(len(ids), r, players)
    seen_ids = parse_hand(seen) if seen is not None else ()
    total = np.bincount(np.array(ids + tuple(seen_ids), dtype=np.int64), minlength=N_TILE_TYPES)
    limit = COPIES_PER_SET * n_sets
    err = copies_error(total, n_sets, "the hand and the seen tiles hold")
    if err is not None:
        raise err
    if players is not None and len(ids) != complete_hand_sizes(players)[0] - 1:
        raise InvalidHandError(
            f"the hand has {len(ids)} tiles: expected {complete_hand_sizes(players)[0] - 1} with {players} players"
        )
    arr = np.array([sorted(ids)], dtype=np.int8)
    w = _eval._waits_batch(arr, mask, base_sum, gj)[0]
    tiles = np.nonzero(w)[0]
    completed = np.array([sorted(ids + (int(t),)) for t in tiles], dtype=np.int8).reshape(len(tiles), len(ids) + 1)
    scores = _eval._score_batch(completed, mask, base_sum, gj) if len(tiles) else np.empty(0, np.int32)
    return pd.DataFrame(
        {
            "tile_id": tiles.astype(np.int64),
            "tile": [format_tile(int(t)) for t in tiles],
            "live_outs": (limit[tiles] - total[tiles]).astype(np.int64),
            "score": scores.astype(np.int64),
        }
    )
