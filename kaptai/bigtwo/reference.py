"""Slow, obviously-correct Big Two (鋤大D) combination rules, written straight from the page.

This module is the oracle for the compiled evaluator (:mod:`kaptai.bigtwo.evaluate` over
``_eval.pyx``) and shares no evaluation code with it: ranks and suits are ordered by
rotating the written strings, straights are the page's written sequences, and keys are
Python tuples (:func:`classify`) or base-13 integers (:func:`classify_five`, a vectorised
numpy version for the exhaustive test, itself checked against :func:`classify`).

Examples
--------
>>> from kaptai.bigtwo.reference import classify
>>> from kaptai.bigtwo.cards import parse_cards
>>> classify(parse_cards("4S 4H 4D 4C 3C"))[:2], classify(parse_cards("3S 3H 3D 3C KD"))[:2]
((5, 'four_of_a_kind'), (5, 'four_of_a_kind'))
>>> classify(parse_cards("4S 4H 4D 4C 3C"))[2] > classify(parse_cards("3S 3H 3D 3C KD"))[2]
True
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from functools import lru_cache

import numpy as np

from kaptai.bigtwo.rules import RuleSet, resolve_rules

__all__ = ["CATEGORY_ORDER", "STRAIGHTS", "classify", "classify_five", "five_card_ranking", "golden_hash"]

#: Category names in the order used by the golden hash (weakest first within each count).
CATEGORY_ORDER = (
    "single", "pair", "triple", "two_pair", "quad", "two_pair_plus_one",
    "straight", "flush", "full_house", "four_of_a_kind", "straight_flush",
)

_NATURAL = "3456789TJQKA2"
_SUIT_LETTERS = "DCHS"  # card id = 4 * natural rank + this index

_MID = ["34567", "45678", "56789", "6789T", "789TJ", "89TJQ", "9TJQK"]
#: The straights of each ``straight_order``, lowest first, exactly as the page's table writes them.
STRAIGHTS = {
    "hk": _MID + ["TJQKA", "23456", "A2345"],
    "sequential": _MID + ["TJQKA", "JQKA2"],
    "poker": ["A2345", "23456"] + _MID + ["TJQKA"],
    "wheel_top": ["23456"] + _MID + ["TJQKA", "A2345"],
    "broadway_top": ["23456"] + _MID + ["A2345", "TJQKA"],
}

_FIVE_ORDER = ["two_pair_plus_one", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush"]


def _orders(rules: RuleSet) -> tuple[str, str]:
    i = _NATURAL.index(rules.top_rank)
    ranks_low_to_high = _NATURAL[i + 1 :] + _NATURAL[: i + 1]
    suits_low_to_high = "DCHS" if rules.suit_order == "hk" else "CDHS"
    return ranks_low_to_high, suits_low_to_high


def classify(cards, rules: RuleSet | str | None = None):
    """Classify a set of distinct card ids: ``(trick, category, key)`` or None if illegal.

    ``key`` is a tuple; within one trick a larger key beats a smaller one.

    Examples
    --------
    >>> from kaptai.bigtwo.reference import classify
    >>> classify([0, 4]) is None, classify([0, 1])[:2]
    (True, (2, 'pair'))
    """
    rules = resolve_rules(rules)
    rank_order, suit_order = _orders(rules)
    rank = lambda c: _NATURAL[c // 4]  # noqa: E731
    suit = lambda c: _SUIT_LETTERS[c % 4]  # noqa: E731
    rv = lambda c: rank_order.index(rank(c))  # noqa: E731
    sv = lambda c: suit_order.index(suit(c))  # noqa: E731
    cards = list(cards)
    n = len(cards)
    counts = Counter(rank(c) for c in cards)
    shape = sorted(counts.values(), reverse=True)

    def best_of_rank(r: str) -> int:
        return max(sv(c) for c in cards if rank(c) == r)

    def higher_pair() -> tuple:
        pairs = [r for r, k in counts.items() if k == 2]
        top = max(pairs, key=rank_order.index)
        return (rank_order.index(top), best_of_rank(top))

    if n == 1:
        return (1, "single", (0, rv(cards[0]), sv(cards[0])))
    if n == 2:
        return (2, "pair", (0, rv(cards[0]), max(sv(c) for c in cards))) if shape == [2] else None
    if n == 3:
        return (3, "triple", (0, rv(cards[0]))) if shape == [3] else None
    if n == 4:
        if shape == [4]:
            if rules.four_card_play in ("quad", "quad_or_two_pair"):
                return (4, "quad", (1, rv(cards[0])))
            if rules.quad_kicker == "optional":
                return (5, "four_of_a_kind", (_FIVE_ORDER.index("four_of_a_kind"), rv(cards[0])))
            return None
        if shape == [2, 2] and rules.four_card_play == "quad_or_two_pair":
            return (4, "two_pair", (0,) + higher_pair())
        return None
    if n != 5:
        return None
    one_suit = len({suit(c) for c in cards}) == 1
    written = None
    for pos, seq in enumerate(STRAIGHTS[rules.straight_order]):
        if sorted(seq) == sorted(rank(c) for c in cards):
            written = (pos, seq)
    if written is not None:
        pos, seq = written
        if rules.straight_suit_card == "sequence_top":
            tie_rank = seq[-1]
        else:
            tie_rank = max(seq, key=rank_order.index)
        cat = "straight_flush" if one_suit else "straight"
        return (5, cat, (_FIVE_ORDER.index(cat), pos, best_of_rank(tie_rank)))
    if one_suit:
        ranks_desc = tuple(sorted((rv(c) for c in cards), reverse=True))
        s = sv(cards[0])
        tb = (s,) + ranks_desc if rules.flush_compare == "suit_first" else ranks_desc + (s,)
        return (5, "flush", (_FIVE_ORDER.index("flush"),) + tb)
    if shape == [3, 2]:
        triple = next(r for r, k in counts.items() if k == 3)
        return (5, "full_house", (_FIVE_ORDER.index("full_house"), rank_order.index(triple)))
    if shape == [4, 1]:
        quad = next(r for r, k in counts.items() if k == 4)
        return (5, "four_of_a_kind", (_FIVE_ORDER.index("four_of_a_kind"), rank_order.index(quad)))
    if shape == [2, 2, 1] and rules.two_pair_five:
        return (5, "two_pair_plus_one", (_FIVE_ORDER.index("two_pair_plus_one"),) + higher_pair())
    return None


def classify_five(cards: np.ndarray, rules: RuleSet | str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Vectorised :func:`classify` for five-card sets: ``(category index, int64 key)``.

    Parameters
    ----------
    cards : numpy.ndarray
        ``(n, 5)`` distinct card ids per row.

    Returns
    -------
    category : numpy.ndarray
        Index into :data:`CATEGORY_ORDER` (int8), -1 if the set is not a five-card play.
    key : numpy.ndarray
        int64, larger beats smaller; 0 where illegal.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.bigtwo.reference import classify_five, CATEGORY_ORDER
    >>> from kaptai.bigtwo.cards import parse_cards
    >>> cat, key = classify_five(np.array([parse_cards("3S 3H 3D 9C 9D"), parse_cards("3S 4H 5D 6C 8D")]))
    >>> [CATEGORY_ORDER[c] if c >= 0 else None for c in cat]
    ['full_house', None]
    """
    rules = resolve_rules(rules)
    rank_order, suit_order = _orders(rules)
    c = np.asarray(cards, dtype=np.int64)
    nat = c // 4
    rv = np.array([rank_order.index(r) for r in _NATURAL])[nat]
    sv = np.array([suit_order.index(s) for s in _SUIT_LETTERS])[c % 4]
    same = rv[:, :, None] == rv[:, None, :]
    cnt = same.sum(axis=2)  # copies of each card's rank in the set
    mx = cnt.max(axis=1)
    n_pairs_cards = (cnt == 2).sum(axis=1)
    one_suit = (sv == sv[:, :1]).all(axis=1)
    distinct = mx == 1

    # straights: a 13-bit set of natural ranks -> (position, tie rank) per the written list
    pos_of = np.full(1 << 13, -1, dtype=np.int64)
    tie_of = np.zeros(1 << 13, dtype=np.int64)
    for pos, seq in enumerate(STRAIGHTS[rules.straight_order]):
        m = sum(1 << _NATURAL.index(ch) for ch in seq)
        pos_of[m] = pos
        tie = seq[-1] if rules.straight_suit_card == "sequence_top" else max(seq, key=rank_order.index)
        tie_of[m] = _NATURAL.index(tie)
    rmask = np.bitwise_or.reduce(np.left_shift(1, nat), axis=1)
    spos = np.where(distinct, pos_of[rmask], -1)
    straight = spos >= 0
    tie_suit = np.where(nat == tie_of[rmask][:, None], sv, -1).max(axis=1)

    cat = np.full(len(c), -1, dtype=np.int64)
    key = np.zeros(len(c), dtype=np.int64)
    B = 13 ** 6  # room below a category

    def put(mask, name, tb):
        cat[mask] = CATEGORY_ORDER.index(name)
        key[mask] = (_FIVE_ORDER.index(name) * B + tb)[mask]

    # straight / straight flush: position, then suit of the tie card
    put(straight & ~one_suit, "straight", spos * 4 + tie_suit)
    put(straight & one_suit, "straight_flush", spos * 4 + tie_suit)
    # flush
    desc = -np.sort(-rv, axis=1)
    poly = ((((desc[:, 0] * 13 + desc[:, 1]) * 13 + desc[:, 2]) * 13 + desc[:, 3]) * 13 + desc[:, 4])
    suit = sv[:, 0]
    tb = suit * 13**5 + poly if rules.flush_compare == "suit_first" else poly * 4 + suit
    put(one_suit & ~straight, "flush", tb)
    # full house / four of a kind: rank of the triple / quad
    group_rank = np.where(cnt >= 3, rv, -1).max(axis=1)
    put((mx == 3) & (n_pairs_cards == 2), "full_house", group_rank)
    put(mx == 4, "four_of_a_kind", group_rank)
    # two pairs + 1: the higher pair, by pair rules
    if rules.two_pair_five:
        tp = (mx == 2) & (n_pairs_cards == 4)
        hi = np.where(cnt == 2, rv, -1).max(axis=1)
        hs = np.where((cnt == 2) & (rv == hi[:, None]), sv, -1).max(axis=1)
        put(tp, "two_pair_plus_one", hi * 4 + hs)
    return cat.astype(np.int8), key


@lru_cache(maxsize=1)
def _all_five() -> np.ndarray:
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52), 5)), dtype=np.int8)
    return flat.reshape(-1, 5)


_RANKING_SLICE = 1 << 18  # five-card sets classified at once by five_card_ranking


def five_card_ranking(rules: RuleSet | str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Category index and dense rank of every five-card set in lexicographic order (-1 if illegal).

    Examples
    --------
    >>> from kaptai.bigtwo.reference import five_card_ranking
    >>> cat, rank = five_card_ranking()
    >>> int((cat >= 0).sum())
    19716
    """
    # classify_five is row by row; in slices its temporaries stay near 100 MB instead of
    # about 1.2 GB for the 2,598,960 sets at once
    sets = _all_five()
    parts = [classify_five(sets[s : s + _RANKING_SLICE], rules) for s in range(0, len(sets), _RANKING_SLICE)]
    cat = np.concatenate([p[0] for p in parts])
    key = np.concatenate([p[1] for p in parts])
    del parts
    rank = np.full(len(cat), -1, dtype=np.int32)
    legal = cat >= 0
    rank[legal] = np.unique(key[legal], return_inverse=True)[1]
    return cat, rank


def golden_hash(rules: RuleSet | str | None = None) -> str:
    """sha256 over (category index as int8, then dense rank as little-endian int32) of every five-card set.

    >>> from kaptai.bigtwo.reference import golden_hash
    >>> len(golden_hash())
    64
    """
    cat, rank = five_card_ranking(rules)
    h = hashlib.sha256()
    h.update(cat.astype("<i1").tobytes())
    h.update(rank.astype("<i4").tobytes())
    return h.hexdigest()
