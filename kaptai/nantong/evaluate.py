"""Hand analysis of Nantong long cards (南通長牌) on the compiled per-suit tables.

The Python front of :mod:`kaptai.nantong._eval`: validates a hand once (notation, a
sequence of kinds or a count vector of 30), hands clean ``uint8`` count arrays to the
compiled kernels.  No search: each suit's count vector is looked up in tables built on
first use (about 0.25 s on one core) and cached in a file of the user's cache folder
(``$KAPTAI_CACHE_DIR``, else ``$XDG_CACHE_HOME/kaptai`` or ``~/.cache/kaptai``, 11.7 MB;
``KAPTAI_CACHE_DIR=""`` keeps them in memory only), which later processes map in about a
millisecond (see :func:`kaptai.nantong._eval.build_tables`).

* :func:`is_complete` / :func:`complete_many` — 1 pair + k melds (23 cards: + 7 melds);
* :func:`waits` / :func:`waits_many` — the kinds completing a 3k+1-card hand;
  :func:`live_outs` — and how many copies of them are unseen;
* :func:`distance` / :func:`distance_many` — exact distance from ready (shanten): the
  fewest cards to exchange to be ready (0 ready, -1 complete), with the deck's 4 copies of
  each kind as the only cap, or with ``caps``: the copies of each kind the player can still
  hold (4 less its own exposed sets' copies and the turned cards; the advisor passes them);
* :func:`best_score` — the highest-scoring decomposition of a completer's record, compiled
  (the same number as :func:`kaptai.nantong.scoring.score`).

Examples
--------
>>> from kaptai.nantong.evaluate import is_complete, waits, distance, live_outs
>>> hand = "123b 234w 678t 333w qzx3 789t 9w bhx3"
>>> waits(hand)
(8,)
>>> is_complete(hand + " 9w"), distance(hand), distance(hand + " 9w")
(True, 0, -1)
>>> live_outs(hand, seen="9w 9w")
((8,), 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from numbers import Integral

import numpy as np

from kaptai.errors import InvalidHandError, as_items, quote_token
from kaptai.nantong import _eval
from kaptai.nantong.cards import N_KINDS, ScoreRecord, TooManyCopiesError, format_card, parse_cards
from kaptai.nantong.rules import RuleSet, resolve_rules

__all__ = [
    "hand_counts",
    "counts_array",
    "is_complete",
    "complete_many",
    "waits",
    "waits_many",
    "mask_kinds",
    "live_outs",
    "distance",
    "distance_many",
    "score_options",
    "levels",
    "best_score",
    "suit_code",
    "HAND_SIZES",
    "check_hand_sizes",
    "analyze_hand",
    "ANALYSIS_COLUMNS",
]

#: Columns of :func:`analyze_hand` (the table of ``kaptai evaluate nantong``), one dtype each.
ANALYSIS_COLUMNS: tuple[str, ...] = ("cards", "status", "complete", "distance", "decompositions")

#: Concealed hand sizes of Nantong (rules page §2-§4): 22 units at rest and 23 after a draw,
#: each exposed set (pong or kong, 3 units) taking 3 cards out of the hand: 3k+1 cards at
#: rest (22, 19, ..., 1) and 3k+2 after a draw (23, 20, ..., 2).
HAND_SIZES: dict[str, tuple[int, ...]] = {
    "rest": tuple(range(22, 0, -3))[::-1],
    "draw": tuple(range(23, 1, -3))[::-1],
}
HAND_SIZES["any"] = tuple(sorted(HAND_SIZES["rest"] + HAND_SIZES["draw"]))

_SIZE_TEXT = {
    "rest": "3k+1 cards, a hand at rest (22, 19, ..., 4, 1: 22 less 3 per exposed set)",
    "draw": "3k+2 cards, a hand after the draw (23, 20, ..., 5, 2: 23 less 3 per exposed set)",
    "any": ("3k+1 cards at rest (22, 19, ..., 1) or 3k+2 after the draw (23, 20, ..., 2): "
            "22 or 23 less 3 per exposed set"),
}


def check_hand_sizes(sizes: Iterable[int] | np.ndarray, kind: str = "any", what: str = "") -> None:
    """Refuse hands of a size no Nantong hand has (InvalidHandError naming the size).

    Parameters
    ----------
    sizes : ints
        Card counts of the hands (one per hand).
    kind : {'any', 'rest', 'draw'}
        The sizes allowed (:data:`HAND_SIZES`): ``'rest'`` 3k+1 (what waits are defined
        for), ``'draw'`` 3k+2, ``'any'`` either.
    what : str
        What needs the size, for the message (``'waits are defined for'``).

    Examples
    --------
    >>> from kaptai.nantong.evaluate import check_hand_sizes
    >>> check_hand_sizes([22, 23, 1])
    >>> check_hand_sizes([3])
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: the hand has 3 cards: a Nantong hand has 3k+1 cards at rest (22, 19, ..., 1) or 3k+2 after the draw (23, 20, ..., 2): 22 or 23 less 3 per exposed set
    """
    a = np.asarray(sizes, dtype=np.int64).reshape(-1)
    allowed = HAND_SIZES[kind]
    bad = np.flatnonzero(~np.isin(a, allowed))
    if not bad.size:
        return
    i = int(bad[0])
    who = "the hand" if a.size == 1 else f"hand {i + 1}"
    n = int(a[i])
    hint = "; discard a card first" if kind == "rest" and n in HAND_SIZES["draw"] else ""
    raise InvalidHandError(
        f"{who} has {n} card{'s' if n != 1 else ''}: {what or 'a Nantong hand has'} {_SIZE_TEXT[kind]}{hint}")


def _hs(rules: Any) -> int:
    if rules is None:
        return 0
    r = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    return int(r.honour_sequence)


def hand_counts(hand: str | Sequence[int] | np.ndarray) -> np.ndarray:
    """A hand as a validated count vector (uint8, length 30).

    ``hand`` is notation (``'123b qzx3'``), a sequence of kinds, or a count vector of 30.

    >>> hand_counts("55w qz").nonzero()[0].tolist()
    [4, 27]
    >>> hand_counts("5wx4 5w")
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.TooManyCopiesError: card '5w' used 5 times; the deck has 4
    """
    if isinstance(hand, str):
        kinds = parse_cards(hand)
        c = np.bincount(np.asarray(kinds, dtype=np.int64), minlength=N_KINDS) if kinds else np.zeros(N_KINDS, np.int64)
    else:
        a = np.asarray(hand)
        if a.ndim == 1 and a.shape[0] == N_KINDS and a.dtype.kind in "iu" and not _looks_like_kinds(a):
            c = a.astype(np.int64)
        else:
            if a.dtype.kind not in "iu" or a.ndim != 1:
                shown = quote_token(hand) if a.ndim == 0 else f"{a.dtype.name} array of shape {a.shape}"
                raise InvalidHandError(f"a hand must be notation, kinds or 30 counts, got {type(hand).__name__} {shown}")
            bad = [int(k) for k in a if not 0 <= int(k) < N_KINDS]
            if bad:
                raise InvalidHandError(f"card kind {bad[0]} is not a card of the 120-card deck: expected 0 to 29")
            c = np.bincount(a.astype(np.int64), minlength=N_KINDS)
    if (c < 0).any():
        raise InvalidHandError("a count vector cannot hold negative counts")
    over = np.nonzero(c > 4)[0]
    if over.size:
        k = int(over[0])
        raise TooManyCopiesError(f"card {format_card(k)!r} used {int(c[k])} times; the deck has 4")
    return c.astype(np.uint8)


def _looks_like_kinds(a: np.ndarray) -> bool:
    # a length-30 integer array is a count vector (counts 0-4); a kinds list of 30 cards
    # would have entries above 4 unless it is all small kinds, which is ambiguous: treat
    # any entry > 4 as kinds.
    return bool((a > 4).any())


def counts_array(hands: Iterable | np.ndarray) -> np.ndarray:
    """Many hands as a C-contiguous ``(n, 30)`` uint8 array (rows validated).

    >>> counts_array(["11w", "22w"]).shape
    (2, 30)
    """
    if isinstance(hands, np.ndarray) and hands.ndim == 2:
        if hands.shape[1] != N_KINDS or hands.dtype.kind not in "iu":
            raise InvalidHandError(f"hand counts must be an integer array of shape (n, 30), got {hands.dtype.name} {hands.shape}")
        if hands.size and (hands.max() > 4 or hands.min() < 0):
            raise InvalidHandError("hand counts must be 0 to 4 copies of each kind")
        return np.ascontiguousarray(hands, dtype=np.uint8)
    rows = [hand_counts(h) for h in hands]
    return np.ascontiguousarray(np.array(rows, dtype=np.uint8).reshape(-1, N_KINDS))


def mask_kinds(mask: int) -> tuple[int, ...]:
    """The kinds of a 30-bit wait mask.

    >>> mask_kinds(0b101)
    (0, 2)
    """
    return tuple(k for k in range(N_KINDS) if (int(mask) >> k) & 1)


def complete_many(hands, rules: Any = None) -> np.ndarray:
    """Whether each hand is 1 pair + k melds; boolean array.

    A hand has 3k+2 cards after the draw (complete or not) or 3k+1 at rest (never
    complete); any other size (an empty hand, 3 cards, more than 23) is an
    InvalidHandError (:func:`check_hand_sizes`).

    >>> complete_many(["11w", "12w", "1w"]).tolist()
    [True, False, False]
    """
    a = counts_array(hands)
    check_hand_sizes(a.sum(axis=1, dtype=np.int64))
    out = np.zeros(a.shape[0], dtype=np.uint8)
    _eval.complete_batch(a, _hs(rules), out)
    return out.astype(bool)


def is_complete(hand, rules: Any = None) -> bool:
    """Whether the concealed hand is 1 pair + k melds (23 cards: 1 pair + 7 melds).

    A 3k+1-card hand (at rest) is not complete; a hand of 3k cards or of more than 23 is
    refused (InvalidHandError).

    >>> is_complete("111222333w 99t"), is_complete("qz bh hh 11w"), is_complete("qz bh hh 11w", {"honour_sequence": True})
    (True, False, True)
    """
    return bool(complete_many(hand_counts(hand)[None, :], rules)[0])


def waits_many(hands, rules: Any = None) -> np.ndarray:
    """Wait masks (bit k = kind k completes the hand) of 3k+1-card hands; uint32 array.

    A hand of another size (empty, 3 cards, 23 cards after the draw) is an
    InvalidHandError (:func:`check_hand_sizes`).

    >>> [mask_kinds(m) for m in waits_many(["1w", "23w 55t"])]
    [(0,), (0, 3)]
    """
    a = counts_array(hands)
    check_hand_sizes(a.sum(axis=1, dtype=np.int64), "rest", "waits are defined for")
    out = np.zeros(a.shape[0], dtype=np.uint32)
    _eval.waits_batch(a, _hs(rules), out)
    return out


def waits(hand, rules: Any = None) -> tuple[int, ...]:
    """The kinds that complete a 3k+1-card hand (a 5th copy is never a wait).

    >>> waits("1112w")
    (1, 2)
    """
    return mask_kinds(int(waits_many(hand_counts(hand)[None, :], rules)[0]))


def live_outs(hand, seen=None, rules: Any = None, caps: Sequence[int] | np.ndarray | None = None) -> tuple[tuple[int, ...], int]:
    """Waits of a 3k+1-card hand and the live outs: unseen copies of the waits.

    Parameters
    ----------
    hand : notation, kinds or counts
    seen : notation, kinds or counts, optional
        Cards known to be out of reach (turned 將, discards, others' exposed sets).
    caps : 30 ints, optional
        Copies of each kind in the deck (4).

    >>> live_outs("23w 55t", seen="1w 1w 1w")
    ((0, 3), 5)
    """
    h = hand_counts(hand)[None, :]
    check_hand_sizes(h.sum(axis=1, dtype=np.int64), "rest", "waits are defined for")
    s = np.zeros((1, N_KINDS), np.uint8) if seen is None else hand_counts(seen)[None, :]
    cp = _caps(caps)
    over = np.nonzero(h[0].astype(int) + s[0] > cp)[0]
    if over.size:
        k = int(over[0])
        raise TooManyCopiesError(
            f"card {format_card(k)!r} used {int(h[0, k]) + int(s[0, k])} times in hand + seen; the deck has {int(cp[k])}"
        )
    w = np.zeros(1, np.uint32)
    o = np.zeros(1, np.int32)
    _eval.live_outs_batch(np.ascontiguousarray(h), np.ascontiguousarray(s), cp, _hs(rules), w, o)
    return mask_kinds(int(w[0])), int(o[0])


def _caps(caps: Sequence[int] | np.ndarray | None) -> np.ndarray:
    """``caps`` (30 counts from 0 to 4, None: 4 each) as a uint8 array of 30."""
    if caps is None:
        return np.full(N_KINDS, 4, np.uint8)
    items = as_items(caps, "caps")
    if not all(isinstance(c, Integral) and not isinstance(c, (bool, np.bool_)) and 0 <= int(c) <= 4 for c in items):
        raise InvalidHandError(f"caps must be 30 counts from 0 to 4, got {quote_token(items)}")
    cp = np.ascontiguousarray(items, dtype=np.uint8)
    if cp.shape != (N_KINDS,):
        raise InvalidHandError(f"caps must be 30 counts, got shape {cp.shape}")
    return cp


_NO_TARGET = 1000  # a cost no target reaches: no complete hand fits the caps


def _distance_capped(a: np.ndarray, hs: int, caps: np.ndarray) -> np.ndarray:
    """Distances from ready of the hands (rows of ``a``) whose targets hold at most ``caps[k]``
    copies of kind k: the dynamic programme of :func:`kaptai.nantong.reference.distance_dp`
    (the target T built kind by kind: sequences starting here, a triplet, the pair; the cost
    ``max(T[k] - H[k], 0)``), every hand of the batch at once (numpy, a few ms for 20 hands)."""
    n = a.shape[0]
    sizes = a.sum(axis=1, dtype=np.int64)
    ks = np.where(sizes % 3 == 1, (sizes - 1) // 3, (sizes - 2) // 3)
    kmax = int(ks.max()) if n else 0
    h = a.astype(np.int32)
    # state (sequences started one kind back, two kinds back) -> costs (hand, melds, pair)
    start = np.full((n, kmax + 1, 2), _NO_TARGET, np.int32)
    start[:, 0, 0] = 0
    state: dict[tuple[int, int], np.ndarray] = {(0, 0): start}
    for k in range(N_KINDS):
        can_start = (k < 27 and k % 9 <= 6) or (bool(hs) and k == 27)
        cap = int(caps[k])
        cost = [np.maximum(t - h[:, k], 0)[:, None] for t in range(5)]
        new: dict[tuple[int, int], np.ndarray] = {}
        for (s1, s2), arr in state.items():
            for s in range(5 if can_start else 1):
                for t in (0, 1):
                    dm = s + t
                    if dm > kmax:
                        break
                    for q in (0, 1):
                        tk = s + s1 + s2 + 3 * t + 2 * q
                        if tk > cap:
                            break
                        key = (s, s1)
                        cur = new.get(key)
                        if cur is None:
                            cur = new[key] = np.full((n, kmax + 1, 2), _NO_TARGET, np.int32)
                        if q:
                            np.minimum(cur[:, dm:, 1], arr[:, :kmax + 1 - dm, 0] + cost[tk], out=cur[:, dm:, 1])
                        else:
                            np.minimum(cur[:, dm:, :], arr[:, :kmax + 1 - dm, :] + cost[tk][:, :, None],
                                       out=cur[:, dm:, :])
        state = new
    best = state[(0, 0)][np.arange(n), ks, 1] if (0, 0) in state else np.full(n, _NO_TARGET)
    if (best >= _NO_TARGET).any():
        i = int(np.flatnonzero(best >= _NO_TARGET)[0])
        raise InvalidHandError(f"no complete hand of {int(sizes[i]) + (sizes[i] % 3 == 1)} cards fits the caps "
                               f"{quote_token(caps.tolist())}")
    return (best - 1).astype(np.int8)


def distance_many(hands, rules: Any = None, caps: Sequence[int] | np.ndarray | None = None) -> np.ndarray:
    """Distances from ready (int8 array) of 3k+1 / 3k+2-card hands (k <= 7).

    ``caps`` (30 counts, optional): the copies of each kind the player can still hold, 4 less
    those out of its reach for good (its own exposed sets, the turned cards); a target hand
    holds at most ``caps[k]`` copies of kind k, so a kind with no copy left is no wait and no
    way to ready.  Default: the deck's 4 of each (the compiled tables).  With a cap below 4 the
    distance is computed by a dynamic programme over the kinds (numpy, every hand at once).

    >>> distance_many(["19w 5t qz", "11w 234w"]).tolist()
    [2, -1]
    >>> caps = [4] * 30
    >>> caps[0] = caps[3] = 0                            # 1w and 4w: every copy in exposed kongs
    >>> distance_many(["23w 55t", "23w 5t 9t"]).tolist(), distance_many(["23w 55t", "23w 5t 9t"], caps=caps).tolist()
    ([0, 1], [1, 2])
    """
    a = counts_array(hands)
    check_hand_sizes(a.sum(axis=1, dtype=np.int64), "any", "the distance is defined for")
    if caps is not None:
        cp = _caps(caps)
        over = np.argwhere(a > cp[None, :])
        if over.size:
            i, k = (int(x) for x in over[0])
            who = "the hand" if a.shape[0] == 1 else f"hand {i + 1}"
            raise TooManyCopiesError(f"card {format_card(k)!r}: {who} holds {int(a[i, k])} copies; "
                                     f"caps allow {int(cp[k])}")
        if (cp < 4).any():
            return _distance_capped(a, _hs(rules), cp)
    out = np.zeros(a.shape[0], dtype=np.int8)
    _eval.distance_batch(a, _hs(rules), out)
    return out


def distance(hand, rules: Any = None, caps: Sequence[int] | np.ndarray | None = None) -> int:
    """Exact distance from ready (shanten number) of one hand: the fewest cards to exchange
    to be one card from 1 pair + k melds (0 = ready, -1 = complete); ``caps`` as in
    :func:`distance_many`.

    >>> distance("147w 258t 369b qz bh hh 5w")
    7
    """
    return int(distance_many(hand_counts(hand)[None, :], rules, caps)[0])


def analyze_hand(hand, rules: Any = None):
    """One hand's analysis as a one-row table (``kaptai evaluate nantong``).

    Columns (:data:`ANALYSIS_COLUMNS`): ``cards`` (int64); ``status`` (text: ``complete``,
    ``ready``, or ``N exchanges from ready``); ``complete`` (bool: 1 pair + k melds);
    ``distance`` (nullable Int64: the distance from ready, null for a complete hand --
    not -1); ``decompositions`` (int64: distinct 1 pair + melds decompositions, 0 unless
    complete).

    Raises
    ------
    InvalidHandError
        A hand of a size no Nantong hand has (empty, 3 cards, more than 23: see
        :func:`check_hand_sizes`), or a bad card.

    Examples
    --------
    >>> from kaptai.nantong.evaluate import analyze_hand
    >>> analyze_hand("123b 234w 678t 333w qzx3 789t 9w bhx3 9w")
       cards    status  complete  distance  decompositions
    0     23  complete      True      <NA>               1
    >>> analyze_hand("19w 5t qz").loc[0, "status"]
    '2 exchanges from ready'
    >>> analyze_hand("123w")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: the hand has 3 cards: a Nantong hand has 3k+1 cards at rest (22, 19, ..., 1) or 3k+2 after the draw (23, 20, ..., 2): 22 or 23 less 3 per exposed set
    """
    import pandas as pd

    from kaptai.nantong.reference import decompositions

    r = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    h = hand_counts(hand)
    complete = is_complete(h, r)  # checks the size first
    d = None if complete else distance(h, r)
    if complete:
        status = "complete"
    elif d == 0:
        status = "ready"
    else:
        status = f"{d} exchange{'s' if d != 1 else ''} from ready"
    df = pd.DataFrame({
        "cards": pd.Series([int(h.sum())], dtype="int64"),
        "status": pd.Series([status], dtype=object),
        "complete": pd.Series([bool(complete)], dtype=bool),
        "distance": pd.Series([d], dtype="Int64"),
        "decompositions": pd.Series([len(decompositions(h, r.honour_sequence))], dtype="int64"),
    }, columns=list(ANALYSIS_COLUMNS))
    from kaptai.core.tables import standard_attrs

    df.attrs.update({"game": "nantong", "rules": r.to_dict()})
    df.attrs.update(standard_attrs(df))
    return df


def suit_code(counts: Sequence[int]) -> int:
    """Base-5 code of one suit's 9 counts (the table index).

    >>> suit_code([1, 0, 0, 0, 0, 0, 0, 0, 2])
    781251
    """
    return int(sum(int(c) * 5**r for r, c in enumerate(counts)))


# ----------------------------------------------------------------------------- scoring


def score_options(rules: Any = None) -> np.ndarray:
    """Integer option codes of the compiled scorer (never strings in Cython).

    >>> score_options().tolist()
    [0, 1, 1, 0, 0, 1, 0, 0]
    """
    r = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    return np.array(
        [
            int(r.honour_sequence),
            int(r.discard_triplet == "exposed"),
            int(r.decomposition == "max"),
            int(r.wenqian == "cumulative"),
            int(r.potou == "always_up"),
            int(r.double_before_round),
            int(r.tiancheng_double),
            int(r.yazhuang_double),
        ],
        dtype=np.int32,
    )


def levels(turned: Sequence[int], rules: Any = None) -> np.ndarray:
    """底胡 level (row 0-3) of every kind under the turned cards (int8, length 30).

    >>> levels((27, 27)).tolist()[27], levels((4, 5)).tolist()[4], levels((4, 5)).tolist()[0]
    (3, 1, 0)
    """
    from kaptai.nantong.scoring import level

    r = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    return np.array([level(k, tuple(turned), r) for k in range(N_KINDS)], dtype=np.int8)


_WIN_KIND = {"self": 0, "discard": 1, "tiancheng": 2}
_TYPES = ("tahe", "hunhe", "qinghe")


def best_score(record: str | ScoreRecord, rules: Any = None) -> dict[str, Any]:
    """The compiled scorer on one record: total, raw, components and the decomposition.

    The record is checked by :func:`kaptai.nantong.scoring.check_record` first.  A
    non-completer is scored by :func:`kaptai.nantong.scoring.score` (no decomposition).

    >>> d = best_score("jiang=5w,7b win=self:9w hand=123b 234w 678t 333w qz qz qz 789t 99w melds=pong:bh")
    >>> d["total"], d["raw"], d["win_type"], d["pair"]
    (80, 76, 'tahe', 8)
    """
    from kaptai.nantong import scoring

    r = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    rec = scoring.check_record(record, r)
    if not rec.completer:
        s = scoring.score(rec, r)
        return {"total": s.total, "raw": s.raw, "chenghu": 0, "dihu": s.dihu, "other": s.other,
                "win_type": None, "pair": None, "groups": ()}
    meld_dihu = 0
    meld_trips = 0
    for m in rec.melds:
        meld_dihu += scoring.set_value(scoring._MELD_COLUMN[m.type], m.kind, rec.jiang, r)
        meld_trips += int(scoring._counts_as_meld(m.type, m.kind, rec, r))
    h = hand_counts(list(rec.hand))[None, :]
    lev = levels(rec.jiang, r)[None, :]
    res = np.zeros((1, 6), np.int32)
    grp = np.zeros((1, 18), np.int32)
    one = lambda v: np.array([v], dtype=np.int32)  # noqa: E731
    _eval.best_scores(np.ascontiguousarray(h), np.ascontiguousarray(lev),
                      one(-1 if rec.win_card is None else rec.win_card), one(_WIN_KIND[rec.win]),
                      one(meld_dihu), one(meld_trips), one(int(rec.yazhuang)), score_options(r), res, grp)
    t = res[0].tolist()
    g = grp[0].tolist()
    groups = tuple(("s" if g[2 + 2 * j] == 0 else "t", g[3 + 2 * j]) for j in range(g[1]))
    return {"total": t[0], "raw": t[1], "chenghu": t[2], "dihu": t[3], "other": t[4],
            "win_type": _TYPES[t[5]], "pair": g[0], "groups": tuple(sorted(groups))}
