"""Combinations and plays of Heaven Eleven (天牌十一): the Python front of the compiled evaluator.

Validates once (cards, suits, rules) and hands clean integer arrays to :mod:`kaptai.heaven11._eval`.
A combination is 1-3 cards of one suit (§3); :func:`classify` gives its class, value v and key
(larger key = stronger, among combinations of the same size); :func:`trick_winner` resolves a
play of four (§4.4) with trumps, mixed discards and ``short_follow``.

Examples
--------
>>> from kaptai.heaven11.evaluate import classify, compare, trick_winner
>>> classify("KH AH").cls, classify("5S 6S TS").cls, classify("9S 8S").value
('heaven_eleven', 'eleven', 7)
>>> compare("6S 7S", "2C 8C"), compare("5S 7S 9S", "2C 3C 6C")
(1, 1)
>>> trick_winner(["KH AH", "2S 4S", "5S 6S", "2H 3H"],
...              hands=["KH AH 2D", "2S 4S 3C", "5S 6S 4C", "2H 3H 5D"], trump="S")
2
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Sequence

import numpy as np

from kaptai.heaven11 import _eval
from kaptai.heaven11.cards import (
    InvalidCombinationError,
    InvalidHandError,
    NT,
    STRAINS,
    format_cards,
    parse_cards,
    parse_combination,
)
from kaptai.heaven11.rules import RuleSet, resolve_rules
from kaptai.errors import KaptaiError, as_items, quote_token

__all__ = [
    "CLASS_NAMES",
    "CLASS_ORDER",
    "Combination",
    "IllegalFollowError",
    "classify",
    "compare",
    "key_tables",
    "combination_counts",
    "parse_strain",
    "play_kind",
    "legal_follows",
    "legal_leads",
    "check_follow",
    "trick_winner",
    "trick_winners",
]

#: Class names by compiled class code (``_eval.pxd``).
CLASS_NAMES: tuple[str, ...] = (
    "single", "for_sum", "consecutive", "eleven", "big_continuing", "hole_in_the_middle",
    "explosive_continuing", "heaven_eleven",
)
#: Classes of each size, low -> high.
CLASS_ORDER: dict[int, tuple[str, ...]] = {
    1: ("single",),
    2: ("for_sum", "consecutive", "eleven", "big_continuing", "heaven_eleven"),
    3: ("for_sum", "consecutive", "eleven", "hole_in_the_middle", "explosive_continuing", "heaven_eleven"),
}


class IllegalFollowError(KaptaiError):
    """A follow the rules do not allow (§4.3); the message names the play and the rule."""


@dataclass(frozen=True)
class Combination:
    """A classified combination: its cards, class, value v and key (larger = stronger)."""

    cards: tuple[int, ...]
    cls: str
    value: int
    key: int

    def __str__(self) -> str:
        return f"{format_cards(self.cards)} ({self.cls}, {self.value})"


def _rules_args(rules: RuleSet) -> tuple[bytes, int, str]:
    return (rules.rank_points().astype(np.int64).tobytes(), int(rules.reduction == "once"), rules.point_scheme)


@lru_cache(maxsize=32)
def _tables_cached(points: bytes, once: int):
    v, c, k = _eval.tables(np.frombuffer(points, dtype=np.int64).copy(), once)
    for a in (v, c, k):
        a.setflags(write=False)
    return v, c, k


def key_tables(rules: RuleSet | str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(value, class code, key)`` int32 arrays indexed by a 13-bit rank set (-1: not 1-3 ranks).

    >>> v, c, k = key_tables()
    >>> int(v[0b11 << 11]), CLASS_NAMES[int(c[0b11 << 11])]
    (11, 'heaven_eleven')
    """
    rules = resolve_rules(rules)
    pts, once, _ = _rules_args(rules)
    return _tables_cached(pts, once)


def classify(cards: Any, rules: RuleSet | str | None = None) -> Combination:
    """Class, value and key of a combination (1-3 cards of one suit).

    Raises
    ------
    InvalidCardError, InvalidCombinationError

    Examples
    --------
    >>> classify("9S JS KS").value, classify("9S JS KS", {"reduction": "once"}).value
    (9, 19)
    >>> classify("KS AS", {"point_scheme": "rank"})
    Combination(cards=(50, 51), cls='heaven_eleven', value=7, key=4096)
    """
    ids = parse_combination(cards)
    v, c, k = key_tables(rules)
    ranks = 0
    for x in ids:
        ranks |= 1 << (x % 13)
    return Combination(ids, CLASS_NAMES[int(c[ranks])], int(v[ranks]), int(k[ranks]))


def compare(a: Any, b: Any, rules: RuleSet | str | None = None) -> int:
    """+1 if ``a`` beats ``b``, -1 if ``b`` beats ``a``, 0 if they tie (same size).

    >>> compare("TS AS", "QH KH"), compare("KS AS", "5S 6S"), compare("QD KD AD", "6S 7S 8S")
    (1, 1, 1)
    """
    ca, cb = classify(a, rules), classify(b, rules)
    if len(ca.cards) != len(cb.cards):
        raise InvalidCombinationError(
            f'cannot compare "{format_cards(ca.cards)}" ({len(ca.cards)} cards) with '
            f'"{format_cards(cb.cards)}" ({len(cb.cards)} cards)')
    return (ca.key > cb.key) - (ca.key < cb.key)


def combination_counts(rules: RuleSet | str | None = None) -> dict[int, dict[str, int]]:
    """Number of combinations of each class in one suit, by size (§3 table).

    >>> combination_counts()[2]
    {'for_sum': 60, 'consecutive': 10, 'eleven': 6, 'big_continuing': 1, 'heaven_eleven': 1}
    """
    _, c, _ = key_tables(rules)
    out: dict[int, dict[str, int]] = {}
    for n in (1, 2, 3):
        counts = {name: 0 for name in CLASS_ORDER[n]}
        for ranks in combinations(range(13), n):
            m = sum(1 << r for r in ranks)
            counts[CLASS_NAMES[int(c[m])]] += 1
        out[n] = counts
    return out


def parse_strain(strain: Any) -> int:
    """A trump strain: 0-4, or ``'C' 'D' 'H' 'S' 'NT'``/a suit symbol/None (NT).

    >>> parse_strain("s"), parse_strain("NT"), parse_strain(None), parse_strain("♥")
    (3, 4, 4, 2)
    """
    if strain is None:
        return NT
    if isinstance(strain, (int, np.integer)) and not isinstance(strain, bool) and 0 <= strain <= 4:
        return int(strain)
    if isinstance(strain, str):
        s = strain.strip().upper()
        sym = {"♣": 0, "♦": 1, "♥": 2, "♠": 3}
        if s in STRAINS:
            return STRAINS.index(s)
        if s in sym:
            return sym[s]
    raise KaptaiError(f'invalid strain {quote_token(strain, quote=chr(34))}: expected C, D, H, S or NT')


def _cards(x: Any) -> tuple[int, ...]:
    return parse_cards(x)


def play_kind(play: Any, hand: Any, led_suit: int, trump: Any) -> str:
    """``'led'``, ``'trump'`` (n trumps by a player void in the led suit) or ``'mixed'``.

    >>> play_kind("2S 4S", "2S 4S 3C", 2, "S"), play_kind("9D 2C 3C", "9D 2C 3C", 1, "S")
    ('trump', 'mixed')
    """
    p, h, t = _cards(play), _cards(hand), parse_strain(trump)
    if all(c // 13 == led_suit for c in p):
        return "led"
    void = not any(c // 13 == led_suit for c in h)
    if void and t != NT and t != led_suit and all(c // 13 == t for c in p):
        return "trump"
    return "mixed"


def legal_leads(hand: Any) -> list[tuple[int, ...]]:
    """Every legal lead of a hand (1-3 cards of one suit), ascending tuples, sorted.

    >>> len(legal_leads("2C 3C 4C 5D"))
    8
    """
    h = sorted(_cards(hand))
    out = []
    for n in (1, 2, 3):
        out += [p for p in combinations(h, n) if len({c // 13 for c in p}) == 1]
    return sorted(out)


def legal_follows(hand: Any, lead: Any, trump: Any = None, rules: RuleSet | str | None = None) -> list[tuple[int, ...]]:
    """Every legal follow (§4.3) of ``hand`` to ``lead``, ascending tuples, sorted.

    >>> [format_cards(p) for p in legal_follows("9D 2C 3C 4S", "3D 4D 5D")]
    ['2C 3C 9D', '2C 9D 4S', '3C 9D 4S']
    """
    rules = resolve_rules(rules)
    h = sorted(_cards(hand))
    ld = parse_combination(lead)
    n, led_suit, t = len(ld), ld[0] // 13, parse_strain(trump)
    if len(h) < n:
        raise InvalidHandError(f"hand has {len(h)} cards, cannot follow a lead of {n}")
    led = [c for c in h if c // 13 == led_suit]
    others = [c for c in h if c // 13 != led_suit]
    if len(led) >= n:
        return [p for p in combinations(led, n)]
    if led and rules.short_follow == "all_led":
        return sorted(tuple(sorted(led + list(p))) for p in combinations(others, n - len(led)))
    if not led and rules.must_trump and t != NT and t != led_suit:
        trumps = [c for c in h if c // 13 == t]
        if len(trumps) >= n:
            return [p for p in combinations(trumps, n)]
    return [p for p in combinations(h, n)]


def check_follow(play: Any, hand: Any, lead: Any, trump: Any = None, rules: RuleSet | str | None = None) -> tuple[int, ...]:
    """``play`` as sorted ids if it is a legal follow, else :class:`IllegalFollowError` naming it.

    >>> check_follow("2C 3C 4S", "9D 2C 3C 4S", "3D 4D 5D")
    Traceback (most recent call last):
    ...
    kaptai.heaven11.evaluate.IllegalFollowError: illegal follow "2C 3C 4S": the hand holds 1 card of the led suit and must play it (short_follow='all_led')
    """
    rules = resolve_rules(rules)
    p = tuple(sorted(_cards(play)))
    if p in legal_follows(hand, lead, trump, rules):
        return p
    h = _cards(hand)
    ld = parse_combination(lead)
    n, led_suit = len(ld), ld[0] // 13
    text = format_cards(_cards(play))
    led = [c for c in h if c // 13 == led_suit]
    if any(c not in h for c in p):
        why = "it holds a card that is not in the hand"
    elif len(p) != n:
        why = f"it has {len(p)} cards, the lead has {n}"
    elif len(led) >= n:
        why = f"the hand holds {len(led)} cards of the led suit and must play {n} of them"
    elif led:
        why = f"the hand holds {len(led)} card{'s' if len(led) > 1 else ''} of the led suit and must play {'them all' if len(led) > 1 else 'it'} (short_follow='all_led')"
    else:
        why = f"the hand is void and holds {n} trumps: must_trump=True requires a trump combination"
    raise IllegalFollowError(f'illegal follow "{text}": {why}')


def trick_winner(plays: Sequence[Any], hands: Sequence[Any] | None = None, trump: Any = None,
                 rules: RuleSet | str | None = None, *, check: bool = True) -> int:
    """Index (0 = the leader) of the winner of one play.

    Parameters
    ----------
    plays : sequence of 4 card sets
        The lead first, then the followers in play order.
    hands : sequence of 4 card sets, optional
        Each player's hand before the play: needed to tell a trump combination from a mixed
        discard (void or not) and to check every follow.  Without hands a follow of n
        trumps counts as a trump combination (true under ``short_follow='all_led'``).
    trump : strain (None or 'NT' = no trump)

    Examples
    --------
    >>> trick_winner(["3D 4D 5D", "9D 2C 3C", "6D 7D 8D", "2D TD QD"])
    2
    >>> trick_winner(["KH AH", "2S 4S", "5S 6S", "2H 3H"], trump="NT")
    0
    """
    rules = resolve_rules(rules)
    t = parse_strain(trump)
    plays = as_items(plays, "plays")
    if len(plays) != 4:
        raise InvalidHandError(f"plays: expected the lead and the three follows (4 plays), got {len(plays)}")
    if hands is not None:
        hands = as_items(hands, "hands")
        if len(hands) != len(plays):
            raise InvalidHandError(f"hands: expected one hand per play ({len(plays)}), got {len(hands)}")
    lead = parse_combination(plays[0])
    n, led_suit = len(lead), lead[0] // 13
    masks = np.zeros((1, len(plays)), dtype=np.int64)
    void = np.zeros((1, len(plays)), dtype=np.uint8)
    seen = set(lead)
    for j, p in enumerate(plays):
        ids = _cards(p)
        if len(ids) != n:
            raise IllegalFollowError(f'illegal follow "{format_cards(ids)}": it has {len(ids)} cards, the lead has {n}')
        if seen.intersection(ids) and j:
            raise InvalidHandError(f'card "{format_cards(sorted(seen.intersection(ids))[:1])}" is played twice')
        seen.update(ids)
        if hands is not None:
            h = _cards(hands[j])
            if j and check:
                check_follow(ids, h, lead, t, rules)
            void[0, j] = not any(c // 13 == led_suit for c in h)
        else:
            void[0, j] = not any(c // 13 == led_suit for c in ids)
        masks[0, j] = sum(1 << c for c in ids)
    pts = rules.rank_points().astype(np.int64)
    return int(_eval.trick_winners(masks, void, np.array([t], dtype=np.int64), pts, int(rules.reduction == "once"))[0])


def trick_winners(plays: np.ndarray, void: np.ndarray, trump: np.ndarray, rules: RuleSet | str | None = None) -> np.ndarray:
    """Batch: winners of many plays given as card masks ``(m, 4)``, void flags ``(m, 4)`` and
    trump strains ``(m,)`` (trusted arrays; see :func:`kaptai.heaven11._eval.trick_winners`)."""
    rules = resolve_rules(rules)
    return _eval.trick_winners(np.ascontiguousarray(plays, dtype=np.int64), np.ascontiguousarray(void, dtype=np.uint8),
                               np.ascontiguousarray(trump, dtype=np.int64), rules.rank_points().astype(np.int64),
                               int(rules.reduction == "once"))
