"""Big Two (鋤大D) combinations: classify plays, compare them, list the plays that beat one.

This is the public layer over the compiled evaluator :mod:`kaptai.bigtwo._eval`: it
validates input once, turns the rule options into the small arrays the kernels use, and
returns Python objects only at the edges.

A play has a *trick* class (the card count followers must match: 1, 2, 3, 4 or 5 — a bare
quad under ``quad_kicker='optional'`` is in class 5, the five-card four of a kind), a
:class:`Category` and an integer *key*: within one trick class a play beats another iff its
key is larger (§3: "same count, strictly higher"); equal keys tie and do not beat.

Examples
--------
>>> from kaptai.bigtwo.evaluate import classify, beats, legal_plays
>>> p = classify("3S 3H 3D 9C 9D")
>>> p.category, p.trick
(<Category.FULL_HOUSE: 'full_house'>, 5)
>>> beats("4S 4H 4D 4C 3C", "3S 3H 3D 3C KD")
True
>>> [str(q) for q in legal_plays("5D 5C 6S 2D", beat="5S")]
['6S', '2D']
"""

from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from kaptai.bigtwo import _eval
from kaptai.bigtwo.cards import N_CARDS, format_cards, mask_to_cards, parse_cards
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.errors import InvalidHandError

__all__ = [
    "Category",
    "CATEGORIES",
    "Play",
    "straight_windows",
    "classify",
    "classify_masks",
    "compare",
    "beats",
    "legal_plays",
    "all_five_card_sets",
    "five_card_ranking",
    "golden_hash",
]


class Category(str, enum.Enum):
    """Kinds of play, weakest first within each card count (§3).

    ``TWO_PAIR`` and ``QUAD`` are the four-card trick types of ``four_card_play``;
    ``TWO_PAIR_PLUS_ONE`` is the five-card two pairs + 1 of ``two_pair_five``.
    """

    SINGLE = "single"
    PAIR = "pair"  # 對/啤
    TRIPLE = "triple"  # 三條
    TWO_PAIR = "two_pair"
    QUAD = "quad"
    TWO_PAIR_PLUS_ONE = "two_pair_plus_one"
    STRAIGHT = "straight"  # 蛇/順
    FLUSH = "flush"  # 花
    FULL_HOUSE = "full_house"  # 夫佬/葫蘆
    FOUR_OF_A_KIND = "four_of_a_kind"  # 四條/金剛
    STRAIGHT_FLUSH = "straight_flush"  # 同花順

    def __str__(self) -> str:
        return self.value


#: Categories by compiled category code.
CATEGORIES: tuple[Category, ...] = tuple(Category(n) for n in _eval.CATEGORY_NAMES)

# ranks in the cyclic face sequence A 2 3 … K A 2, as natural rank indices (3 = 0 … 2 = 12)
_FACE_SEQUENCE = (11, 12) + tuple(range(11)) + (11, 12)
# the eleven five-rank runs of that sequence: 0 = A2345, 1 = 23456, 2 = 34567 … 9 = TJQKA, 10 = JQKA2
_RUNS = tuple(_FACE_SEQUENCE[i : i + 5] for i in range(11))
_ORDERS = {
    "hk": list(range(2, 10)) + [1, 0],
    "sequential": list(range(2, 11)),
    "poker": list(range(0, 10)),
    "wheel_top": [1] + list(range(2, 10)) + [0],
    "broadway_top": [1] + list(range(2, 9)) + [0, 9],
}


def straight_windows(rules: RuleSet | str | None = None) -> tuple[tuple[int, int, int], ...]:
    """The straights of ``straight_order`` as ``(rank mask, position, tie-card rank)``.

    The rank mask has bit ``r`` for natural rank ``r`` (3 = 0 … 2 = 12); position 0 is the
    lowest straight; the tie card is the card whose suit breaks ties (``straight_suit_card``:
    the strongest single of the run under ``top_rank``, or the top of the written sequence).

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import straight_windows
    >>> from kaptai.bigtwo.cards import RANKS
    >>> w = straight_windows()
    >>> [''.join(RANKS[r] for r in range(13) if m >> r & 1) for m, _, _ in w[-2:]]
    ['34562', '345A2']
    >>> [RANKS[c] for _, _, c in w[-2:]], [RANKS[c] for _, _, c in straight_windows({"straight_suit_card": "sequence_top"})[-2:]]
    (['2', '2'], ['6', '5'])
    """
    rules = resolve_rules(rules)
    rs = rules.rank_strength()
    out = []
    for pos, i in enumerate(_ORDERS[rules.straight_order]):
        run = _RUNS[i]
        mask = sum(1 << r for r in run)
        if rules.straight_suit_card == "sequence_top":
            tie = run[-1]
        else:
            tie = max(run, key=lambda r: rs[r])
        out.append((mask, pos, tie))
    return tuple(out)


@lru_cache(maxsize=64)
def _params(rules: RuleSet) -> tuple:
    return (
        tuple(int(x) for x in rules.rank_strength()),
        tuple(int(x) for x in rules.suit_strength()),
        straight_windows(rules),
        int(rules.flush_compare == "suit_first"),
        int(rules.two_pair_five),
        int(rules.quad_kicker == "optional"),
        {"none": 0, "quad": 1, "quad_or_two_pair": 2}[rules.four_card_play],
    )


@dataclass(frozen=True)
class Play:
    """A classified legal play.

    Attributes
    ----------
    cards : tuple of int
        Card ids, ascending by single-card strength.
    trick : int
        Card count class followers must match (1-5).
    category : Category
    key : int or tuple of int
        Strength within the trick class (larger beats smaller; equal ties): an int from
        :func:`classify`, the :func:`kaptai.bigtwo.reference.classify` tuple in the plays
        of :class:`kaptai.bigtwo.policies.RulesInfo`.

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import classify
    >>> str(classify("2s ad kd qd jd", {"straight_order": "sequential"}))
    'JD QD KD AD 2S'
    """

    cards: tuple[int, ...]
    trick: int
    category: Category
    key: Any  # int or tuple of int: compared only with keys of the same source

    def __str__(self) -> str:
        return format_cards(self.cards)


def _mask(cards: Any) -> tuple[int, tuple[int, ...]]:
    if isinstance(cards, Play):
        ids = cards.cards
    else:
        ids = parse_cards(cards)
    m = 0
    for c in ids:
        m |= 1 << c
    return m, ids


def classify_masks(masks: Any, rules: RuleSet | str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classify many card sets given as 52-bit masks (the batch, nogil kernel).

    Parameters
    ----------
    masks : array_like of int
        Card masks (bit ``id`` set for each card), any shape.
    rules : RuleSet, str, mapping or None

    Returns
    -------
    trick, category, key : numpy.ndarray
        int8 trick class (0 = not a legal play), int8 category code (index into
        :data:`CATEGORIES`, -1 if illegal) and int64 key, each of the input's shape.

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import classify_masks
    >>> t, c, k = classify_masks([0b1, 0b11, 0b10001])
    >>> t.tolist(), c.tolist()
    ([1, 2, 0], [0, 1, -1])
    """
    rules = resolve_rules(rules)
    try:
        arr = np.asarray(masks)
    except (ValueError, TypeError) as exc:  # ragged nesting, objects numpy cannot hold
        raise InvalidHandError(f"card masks must be an array of integers: {exc}") from None
    if arr.dtype.kind not in "ui":
        raise InvalidHandError(f"card masks must be integers, got dtype {arr.dtype}")
    if arr.size and (arr.dtype.kind == "i" and (arr < 0).any()):
        raise InvalidHandError("card masks must be non-negative")
    flat = np.ascontiguousarray(arr.reshape(-1), dtype=np.uint64)
    if flat.size and (flat >> np.uint64(N_CARDS)).any():
        raise InvalidHandError("card mask out of range: expected 0 <= mask < 2**52")
    t, c, k = _eval._classify_batch(flat, *_params(rules))
    return t.reshape(arr.shape), c.reshape(arr.shape), k.reshape(arr.shape)


def classify(cards: Any, rules: RuleSet | str | None = None) -> Play:
    """Classify one play of 1-5 cards.

    Parameters
    ----------
    cards : str, iterable of int/str, or Play
    rules : RuleSet, str, mapping or None

    Returns
    -------
    Play

    Raises
    ------
    InvalidHandError
        ``"3D 4D" is not a legal combination`` (or a bad/duplicate card).

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import classify
    >>> classify("AS 2D 3S 4S 5S").category.value
    'straight'
    >>> classify("AS 2D 3S 4S 5S", {"straight_order": "sequential"})
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: "AS 2D 3S 4S 5S" is not a legal combination
    >>> classify("3D 4D")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: "3D 4D" is not a legal combination
    """
    rules = resolve_rules(rules)
    m, ids = _mask(cards)
    t, c, k = _eval._classify_batch(np.array([m], dtype=np.uint64), *_params(rules))
    if t[0] == 0:
        raise InvalidHandError(f'"{format_cards(ids)}" is not a legal combination')
    strength = rules.card_strength()
    return Play(
        cards=tuple(sorted(ids, key=lambda x: strength[x])),
        trick=int(t[0]),
        category=CATEGORIES[int(c[0])],
        key=int(k[0]),
    )


def compare(a: Any, b: Any, rules: RuleSet | str | None = None) -> int:
    """Compare two plays of the same trick class: 1 if ``a`` is higher, -1 if lower, 0 if equal.

    Raises
    ------
    InvalidHandError
        If either is not a legal combination, or they are of different trick classes
        (a follower must play the same count, §3).

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import compare
    >>> compare("KS KD", "KH KC"), compare("2S 4S 5S 6S 8S", "AH KH QH TH 8H")
    (1, 1)
    >>> compare("AD 6D 5D 4D 3D", "KS QS JS TS 8S"), compare("AD 6D 5D 4D 3D", "KS QS JS TS 8S", {"flush_compare": "suit_first"})
    (1, -1)
    >>> compare("3D", "3D 3C")
    Traceback (most recent call last):
    ...
    kaptai.errors.InvalidHandError: "3D" (1 card) and "3D 3C" (2 cards) cannot be compared: a follower plays the same count
    """
    rules = resolve_rules(rules)
    pa, pb = classify(a, rules), classify(b, rules)
    if pa.trick != pb.trick:
        def desc(p: Play) -> str:
            n = p.trick
            return f"{n} card" + ("s" if n != 1 else "")

        raise InvalidHandError(
            f'"{pa}" ({desc(pa)}) and "{pb}" ({desc(pb)}) cannot be compared: a follower plays the same count'
        )
    return (pa.key > pb.key) - (pa.key < pb.key)


def beats(a: Any, b: Any, rules: RuleSet | str | None = None) -> bool:
    """Whether play ``a`` may follow play ``b``: same trick class and strictly higher.

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import beats
    >>> beats("2S", "2H"), beats("2H", "2S"), beats("3D 3C", "2S")
    (True, False, False)
    """
    rules = resolve_rules(rules)
    pa, pb = classify(a, rules), classify(b, rules)
    return pa.trick == pb.trick and pa.key > pb.key


def legal_plays(hand: Any, rules: RuleSet | str | None = None, beat: Any = None) -> list[Play]:
    """Every legal play from ``hand``, or every one that beats ``beat``, weakest first.

    Parameters
    ----------
    hand : str or iterable
        The cards held.
    rules : RuleSet, str, mapping or None
    beat : cards, Play or None
        The play to beat; None lists every legal lead.

    Returns
    -------
    list of Play
        Sorted by trick class, then strength.

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import legal_plays
    >>> [str(p) for p in legal_plays("3D 3C 4S")]
    ['3D', '3C', '4S', '3D 3C']
    >>> [str(p) for p in legal_plays("3D 3C 4S 4H", beat="3S 3H")]
    ['4H 4S']
    """
    rules = resolve_rules(rules)
    hm, _ = _mask(hand)
    bm = 0
    if beat is not None:
        bm = _mask(classify(beat, rules))[0]
    masks = _eval._plays_beating(hm, bm, *_params(rules))
    t, c, k = _eval._classify_batch(np.ascontiguousarray(masks), *_params(rules))
    strength = rules.card_strength()
    return [
        Play(tuple(sorted(mask_to_cards(int(m)), key=lambda x: strength[x])), int(tt), CATEGORIES[int(cc)], int(kk))
        for m, tt, cc, kk in zip(masks, t, c, k)
    ]


@lru_cache(maxsize=1)
def _five_sets() -> np.ndarray:
    a = _eval._combinations(N_CARDS, 5)
    a.setflags(write=False)
    return a


def all_five_card_sets() -> np.ndarray:
    """All C(52, 5) = 2,598,960 five-card sets in lexicographic order of card ids (int8, read-only).

    >>> all_five_card_sets().shape
    (2598960, 5)
    """
    return _five_sets()


@lru_cache(maxsize=1)
def _five_masks() -> np.ndarray:
    return _eval._masks_of(_five_sets())


def five_card_ranking(rules: RuleSet | str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Category code and dense strength rank of every five-card set (order of :func:`all_five_card_sets`).

    Dense rank 0 is the weakest legal five-card play; equal plays share a rank; sets that
    are not a legal five-card play get category -1 and rank -1.

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import five_card_ranking
    >>> cat, rank = five_card_ranking()
    >>> int((cat == -1).sum()), int(rank.max()) + 1
    (2579244, 5214)
    """
    rules = resolve_rules(rules)
    t, c, k = _eval._classify_batch(_five_masks(), *_params(rules))
    legal = t == 5
    rank = np.full(k.shape, -1, dtype=np.int32)
    _, inv = np.unique(k[legal], return_inverse=True)
    rank[legal] = inv
    return c.astype(np.int8), rank


def golden_hash(rules: RuleSet | str | None = None) -> str:
    """sha256 of the ranking of all five-card sets under ``rules``.

    The hashed bytes are, for every set in lexicographic order, its category name's index in
    ``Category`` (int8, -1 if illegal) and then its dense rank (little-endian int32).  The
    reference evaluator computes the same quantity independently
    (:func:`kaptai.bigtwo.reference.golden_hash`).

    Examples
    --------
    >>> from kaptai.bigtwo.evaluate import golden_hash
    >>> len(golden_hash())
    64
    """
    cat, rank = five_card_ranking(rules)
    h = hashlib.sha256()
    h.update(cat.astype("<i1").tobytes())
    h.update(rank.astype("<i4").tobytes())
    return h.hexdigest()
