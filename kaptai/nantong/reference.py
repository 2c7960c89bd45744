"""Slow, obviously-correct hand analysis of Nantong long cards: the oracle of the tests.

Plain recursive search over count vectors (length 30, see :mod:`kaptai.nantong.cards`):

* :func:`decompositions` — every way a concealed hand splits into 1 pair + melds
  (sequences 順子 of three consecutive ranks of one suit, no wrap; triplets 刻子; honours
  千字/白花/紅花 pair and triplet only, unless ``honour_sequence``);
* :func:`is_complete` — a 3k+2-card hand is 1 pair + k melds (23 cards: 1 pair + 7 melds);
* :func:`waits` — the kinds that complete a 3k+1-card hand (a copy must remain: count < cap);
* :func:`distance` — the exact distance from ready by brute force over every complete target
  hand (small hands only): ``min |T - H| - 1`` over complete hands ``T`` of ``3k+2`` cards
  (k = (n-1)//3 for an n-card hand, counts <= cap), i.e. the fewest exchanges to be ready
  (0 = ready; -1 = complete, for a 3k+2-card hand);
* :func:`distance_dp` — the same number for any hand by a plain dynamic programme over the
  kinds that builds the target T kind by kind (how many sequences start here, a triplet, the
  pair), paying ``max(T[k] - H[k], 0)`` at each kind (slow, but independent of any table).

Examples
--------
>>> from kaptai.nantong.cards import counts_of, parse_cards
>>> from kaptai.nantong.reference import decompositions, is_complete, waits, distance
>>> h = counts_of(parse_cards("111222333w 99t"))
>>> len(decompositions(h)), is_complete(h)
(2, True)
>>> waits(counts_of(parse_cards("23w 55t")))
(0, 3)
>>> distance(counts_of(parse_cards("19w 5t qz")))
2
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations_with_replacement

import numpy as np

from kaptai.nantong.cards import N_KINDS

__all__ = ["Decomposition", "groups_list", "decompositions", "is_complete", "waits", "distance", "distance_dp"]

#: A decomposition: ``(pair_kind, groups)`` with groups a sorted tuple of ``('s', k)``
#: (sequence k, k+1, k+2) and ``('t', k)`` (triplet of k).
Decomposition = tuple


def _can_start_sequence(k: int, honour_sequence: bool) -> bool:
    return (k < 27 and k % 9 <= 6) or (honour_sequence and k == 27)


def groups_list(honour_sequence: bool = False) -> list[tuple[str, int]]:
    """Every meld kind: the sequences, then the triplets.

    >>> len(groups_list()), len(groups_list(True))
    (51, 52)
    """
    seqs = [("s", k) for k in range(N_KINDS) if _can_start_sequence(k, honour_sequence)]
    return seqs + [("t", k) for k in range(N_KINDS)]


def _decomp(c: list[int], need_pair: bool, honour_sequence: bool, acc: list, out: set, pair: int) -> None:
    k = next((i for i in range(N_KINDS) if c[i]), None)
    if k is None:
        if not need_pair:
            out.add((pair, tuple(sorted(acc))))
        return
    if need_pair and c[k] >= 2:
        c[k] -= 2
        _decomp(c, False, honour_sequence, acc, out, k)
        c[k] += 2
    if c[k] >= 3:
        c[k] -= 3
        acc.append(("t", k))
        _decomp(c, need_pair, honour_sequence, acc, out, pair)
        acc.pop()
        c[k] += 3
    if _can_start_sequence(k, honour_sequence) and c[k + 1] and c[k + 2]:
        c[k] -= 1
        c[k + 1] -= 1
        c[k + 2] -= 1
        acc.append(("s", k))
        _decomp(c, need_pair, honour_sequence, acc, out, pair)
        acc.pop()
        c[k] += 1
        c[k + 1] += 1
        c[k + 2] += 1


def decompositions(counts: Sequence[int] | np.ndarray, honour_sequence: bool = False) -> list[Decomposition]:
    """All distinct decompositions of a concealed hand into exactly 1 pair + melds.

    Parameters
    ----------
    counts : sequence of 30 ints
    honour_sequence : bool
        千字-白花-紅花 counts as a sequence.

    Returns
    -------
    list of (pair_kind, groups), sorted; empty if the hand is not 1 pair + melds.

    Examples
    --------
    >>> from kaptai.nantong.cards import counts_of, parse_cards
    >>> decompositions(counts_of(parse_cards("11123w")))
    [(0, (('s', 0),))]
    """
    c = [int(x) for x in counts[:N_KINDS]]
    if sum(c) % 3 != 2:
        return []
    out: set = set()
    _decomp(c, True, honour_sequence, [], out, -1)
    return sorted(out)


def _complete(c: list[int], need_pair: bool, honour_sequence: bool) -> bool:
    k = next((i for i in range(N_KINDS) if c[i]), None)
    if k is None:
        return not need_pair
    ok = False
    if need_pair and c[k] >= 2:
        c[k] -= 2
        ok = _complete(c, False, honour_sequence)
        c[k] += 2
    if not ok and c[k] >= 3:
        c[k] -= 3
        ok = _complete(c, need_pair, honour_sequence)
        c[k] += 3
    if not ok and _can_start_sequence(k, honour_sequence) and c[k + 1] and c[k + 2]:
        c[k] -= 1
        c[k + 1] -= 1
        c[k + 2] -= 1
        ok = _complete(c, need_pair, honour_sequence)
        c[k] += 1
        c[k + 1] += 1
        c[k + 2] += 1
    return ok


def is_complete(counts: Sequence[int], honour_sequence: bool = False) -> bool:
    """True if the hand (3k+2 cards) is exactly 1 pair + k melds.

    >>> from kaptai.nantong.cards import counts_of, parse_cards
    >>> is_complete(counts_of(parse_cards("123b 234w 678t 333w qzx3 789t 9w")))
    False
    >>> is_complete(counts_of(parse_cards("123b 234w 678t 333w qzx3 789t 99w bhx3")))
    True
    """
    c = [int(x) for x in counts[:N_KINDS]]
    if sum(c) % 3 != 2:
        return False
    return _complete(c, True, honour_sequence)


def waits(counts: Sequence[int], honour_sequence: bool = False, caps: Sequence[int] | None = None) -> tuple[int, ...]:
    """Kinds w (with ``counts[w] < caps[w]``) such that the hand + w is complete.

    >>> from kaptai.nantong.cards import counts_of, parse_cards
    >>> waits(counts_of(parse_cards("1112w")))
    (1, 2)
    """
    caps = [4] * N_KINDS if caps is None else list(caps)
    c = [int(x) for x in counts[:N_KINDS]]
    out = []
    for w in range(N_KINDS):
        if c[w] >= caps[w]:
            continue
        c[w] += 1
        if sum(c) % 3 == 2 and _complete(c, True, honour_sequence):
            out.append(w)
        c[w] -= 1
    return tuple(out)


def distance(counts: Sequence[int], honour_sequence: bool = False, caps: Sequence[int] | None = None) -> int:
    """Exact distance from ready by brute force over all complete targets (small hands).

    For an n-card hand (n = 3k+1 or 3k+2) the targets are the complete hands T of 3k+2
    cards (1 pair + k melds, ``T[i] <= caps[i]``); the result is ``min |T - H| - 1`` with
    ``|T - H| = sum(max(T[i] - H[i], 0))``: the fewest cards to exchange to be ready
    (0 = ready, -1 = complete).  Exponential in k: meant for k <= 3.

    >>> from kaptai.nantong.cards import counts_of, parse_cards
    >>> distance(counts_of(parse_cards("11w 23w"))), distance(counts_of(parse_cards("11w 234w")))
    (0, -1)
    """
    caps = [4] * N_KINDS if caps is None else list(caps)
    h = [int(x) for x in counts[:N_KINDS]]
    n = sum(h)
    if n % 3 == 0:
        raise ValueError("distance is defined for 3k+1 and 3k+2 cards")
    k = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    groups = groups_list(honour_sequence)
    best = None
    for combo in combinations_with_replacement(range(len(groups)), k):
        t = [0] * N_KINDS
        ok = True
        for gi in combo:
            typ, g = groups[gi]
            if typ == "t":
                t[g] += 3
            else:
                t[g] += 1
                t[g + 1] += 1
                t[g + 2] += 1
        if any(t[i] > caps[i] for i in range(N_KINDS)):
            continue
        base = sum(max(t[i] - h[i], 0) for i in range(N_KINDS))
        if best is not None and base >= best:
            continue
        for p in range(N_KINDS):
            if t[p] + 2 > caps[p]:
                continue
            cost = base - max(t[p] - h[p], 0) + max(t[p] + 2 - h[p], 0)
            if best is None or cost < best:
                best = cost
    if best is None:
        raise ValueError("no complete target hand fits the caps")
    return best - 1


def distance_dp(counts: Sequence[int], honour_sequence: bool = False, caps: Sequence[int] | None = None) -> int:
    """Exact distance from ready by a dynamic programme that builds the target hand T.

    Walks the 30 kinds in order; at kind k the target holds ``s[k] + s[k-1] + s[k-2] + 3 t
    + 2 q`` cards (``s`` sequences starting at k, ``t`` a triplet, ``q`` the pair), at most
    ``caps[k]``; the cost is ``max(T[k] - H[k], 0)``.  State: (melds, pair used, sequences
    started one and two kinds back).  Result ``min cost - 1`` at k melds + the pair.

    >>> from kaptai.nantong.cards import counts_of, parse_cards
    >>> distance_dp(counts_of(parse_cards("19w 5t qz"))), distance_dp(counts_of(parse_cards("11w 234w")))
    (2, -1)
    """
    caps = [4] * N_KINDS if caps is None else list(caps)
    h = [int(x) for x in counts[:N_KINDS]]
    n = sum(h)
    if n % 3 == 0:
        raise ValueError("distance is defined for 3k+1 and 3k+2 cards")
    K = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    # state (melds, pair, s1 = sequences started at k-1, s2 = started at k-2) -> min cost
    state = {(0, 0, 0, 0): 0}
    for k in range(N_KINDS):
        can_start = _can_start_sequence(k, honour_sequence)
        new: dict = {}
        for (m, p, s1, s2), cost in state.items():
            for s in range(0, 5 if can_start else 1):
                if m + s > K:
                    break
                for t in (0, 1):
                    if m + s + t > K:
                        break
                    for q in ((0, 1) if not p else (0,)):
                        tk = s + s1 + s2 + 3 * t + 2 * q
                        if tk > caps[k]:
                            continue
                        key = (m + s + t, p | q, s, s1)
                        c = cost + max(tk - h[k], 0)
                        if c < new.get(key, 1 << 30):
                            new[key] = c
        state = new
    best = min((c for (m, p, s1, s2), c in state.items() if m == K and p == 1 and s1 == 0 and s2 == 0), default=None)
    if best is None:
        raise ValueError("no complete target hand fits the caps")
    return best - 1
