"""The obviously-correct pure-Python evaluator of Heaven Eleven (天牌十一): the tests' oracle.

It follows ``docs/rules/heaven-eleven.md`` §3-§4 literally, on lists of card ids, with no
tables and no bit tricks: the value of a combination, its class by the first matching row
of the §3 table, the comparison of two combinations of the same size, and the winner of a
play (trumps, led suit, mixed sets) with the legality of every follow.

Examples
--------
>>> from kaptai.heaven11.cards import parse_cards
>>> from kaptai.heaven11.rules import RuleSet
>>> from kaptai.heaven11.reference import classify, compare
>>> classify(parse_cards("KH AH"), RuleSet())
('heaven_eleven', 11)
>>> classify(parse_cards("9H JH KH"), RuleSet(reduction="once"))
('for_sum', 19)
>>> compare(parse_cards("2C 8C"), parse_cards("3D 7D"), RuleSet())
1
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from kaptai.heaven11.cards import InvalidCombinationError, format_cards
from kaptai.heaven11.rules import RuleSet

__all__ = ["CLASS_ORDER", "value", "classify", "strength", "compare", "play_kind", "legal_follows",
           "legal_leads", "trick_winner"]

#: Classes of each size, low -> high (§3 "Ranking").
CLASS_ORDER: dict[int, tuple[str, ...]] = {
    1: ("single",),
    2: ("for_sum", "consecutive", "eleven", "big_continuing", "heaven_eleven"),
    3: ("for_sum", "consecutive", "eleven", "hole_in_the_middle", "explosive_continuing", "heaven_eleven"),
}

_R5, _R6, _R7, _R8, _R9, _RQ, _RK, _RA = 3, 4, 5, 6, 7, 10, 11, 12   # rank indices (2 = 0)


def _points(rank: int, rules: RuleSet) -> int:
    if rules.point_scheme == "rank":
        return rank + 2
    if rank == 12:
        return rules.ace_points
    return min(rank + 2, 10)


def _check(cards: Sequence[int]) -> list[int]:
    cards = [int(c) for c in cards]
    if not 1 <= len(cards) <= 3 or len(set(cards)) != len(cards):
        raise InvalidCombinationError(f"combination {cards!r} is not 1-3 distinct cards")
    if len({c // 13 for c in cards}) != 1:
        raise InvalidCombinationError(f'combination "{format_cards(cards)}" is not one suit')
    return cards


def value(cards: Sequence[int], rules: RuleSet) -> int:
    """The value v of a combination: the point sum, reduced by 10 while > 11 (or once).

    >>> from kaptai.heaven11.cards import parse_cards
    >>> value(parse_cards("9S 8S"), RuleSet()), value(parse_cards("5S 6S TS"), RuleSet())
    (7, 11)
    """
    s = sum(_points(c % 13, rules) for c in _check(cards))
    if rules.reduction == "once":
        return s - 10 if s > 11 else s
    while s > 11:
        s -= 10
    return s


def classify(cards: Sequence[int], rules: RuleSet) -> tuple[str, int]:
    """(class name, value) by the first matching row of the §3 table."""
    cards = _check(cards)
    v = value(cards, rules)
    ranks = sorted(c % 13 for c in cards)
    if len(ranks) == 1:
        return "single", v
    consecutive = all(b == a + 1 for a, b in zip(ranks, ranks[1:]))
    if len(ranks) == 2:
        if ranks == [_RK, _RA]:
            return "heaven_eleven", v
        if ranks == [_R5, _R6]:
            return "big_continuing", v
    else:
        if ranks == [_RQ, _RK, _RA]:
            return "heaven_eleven", v
        if ranks == [_R6, _R7, _R8]:
            return "explosive_continuing", v
        if ranks == [_R5, _R7, _R9]:
            return "hole_in_the_middle", v
    if v == 11:
        return "eleven", v
    if consecutive:
        return "consecutive", v
    return "for_sum", v


def strength(cards: Sequence[int], rules: RuleSet) -> tuple:
    """A sort key: larger is stronger among combinations of the same size.

    (class position, closeness to 11 for for-sum sets (``-|v - 11|``), highest rank).
    """
    name, v = classify(cards, rules)
    pos = CLASS_ORDER[len(cards)].index(name)
    hi = max(c % 13 for c in cards)
    if name in ("single", "eleven", "consecutive"):
        return (pos, 0, hi)
    if name == "for_sum":
        return (pos, -abs(v - 11), hi)
    return (pos, 0, 0)   # the specials are unique


def compare(a: Sequence[int], b: Sequence[int], rules: RuleSet) -> int:
    """+1 if ``a`` beats ``b``, -1 if ``b`` beats ``a``, 0 if neither (same size only)."""
    if len(a) != len(b):
        raise InvalidCombinationError(f"cannot compare a {len(a)}-card and a {len(b)}-card combination")
    ka, kb = strength(a, rules), strength(b, rules)
    return (ka > kb) - (ka < kb)


def play_kind(play: Sequence[int], hand: Sequence[int], led_suit: int, trump: int, n: int) -> str:
    """``'led'`` (n cards of the led suit), ``'trump'`` (n trumps by a player void in the led
    suit, trump != led suit, not NT) or ``'mixed'``; ``hand`` is the follower's hand before the play."""
    suits = [c // 13 for c in play]
    if all(s == led_suit for s in suits):
        return "led"
    void = not any(c // 13 == led_suit for c in hand)
    if void and trump < 4 and trump != led_suit and all(s == trump for s in suits):
        return "trump"
    return "mixed"


def legal_follows(hand: Sequence[int], led_suit: int, n: int, trump: int, rules: RuleSet) -> list[tuple[int, ...]]:
    """Every legal follow (sorted tuples of card ids, ascending) of a hand to a lead of n cards (§4.3)."""
    hand = sorted(int(c) for c in hand)
    led = [c for c in hand if c // 13 == led_suit]
    others = [c for c in hand if c // 13 != led_suit]
    if len(led) >= n:
        return [tuple(p) for p in combinations(led, n)]
    if led and rules.short_follow == "all_led":
        return [tuple(sorted(led + list(p))) for p in combinations(others, n - len(led))]
    out = [tuple(p) for p in combinations(hand, n)]
    if not led and rules.must_trump and trump < 4 and trump != led_suit:
        trumps = [c for c in hand if c // 13 == trump]
        if len(trumps) >= n:
            out = [tuple(p) for p in combinations(trumps, n)]
    return sorted(out)


def legal_leads(hand: Sequence[int]) -> list[tuple[int, ...]]:
    """Every legal lead: 1-3 cards of one suit."""
    hand = sorted(int(c) for c in hand)
    out = []
    for n in (1, 2, 3):
        out += [tuple(p) for p in combinations(hand, n) if len({c // 13 for c in p}) == 1]
    return sorted(out)


def trick_winner(plays: Sequence[Sequence[int]], hands: Sequence[Sequence[int]], trump: int,
                 rules: RuleSet) -> int:
    """Index (0 = the leader) of the winner of a play (§4.4).

    ``plays[i]`` is what the i-th player in play order played, ``hands[i]`` that player's
    hand before the play.  The best trump combination wins; else the best combination of
    the led suit; mixed sets never win.
    """
    lead = list(plays[0])
    n = len(lead)
    led_suit = lead[0] // 13
    best, best_key, best_trump = 0, strength(lead, rules), False
    for i in range(1, len(plays)):
        kind = play_kind(plays[i], hands[i], led_suit, trump, n)
        if kind == "mixed":
            continue
        k = strength(plays[i], rules)
        if kind == "trump":
            if not best_trump or k > best_key:
                best, best_key, best_trump = i, k, True
        elif not best_trump and k > best_key:
            best, best_key = i, k
    return best
