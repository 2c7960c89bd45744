"""Playing policies of Nantong long cards (南通長牌): the built-ins and the user ``Policy``.

The built-in policies (``docs/nantong-engine.md``) are played by both engines; their decisions
are written here once in Python (the reference engine calls these functions; the compiled
engine has the same rules in C):

* ``max_melds`` — the discard leaving the smallest exact distance from ready; pong when it does
  not increase the distance; always kong and win;
* ``chase_qing`` — keep pairs and triplets (清和): discard from the kind with the fewest copies;
  always pong, kong and win;
* ``chase_hun`` — chase sequences (葷和): discard honours first, never pong or kong;
* ``random`` — uniformly random legal moves (always win).

A user policy subclasses :class:`Policy` and answers with one of the offered options; anything
else raises :class:`kaptai.nantong.config.IllegalMoveError` naming the move.

Examples
--------
>>> from kaptai.nantong.policies import best_discard
>>> from kaptai.nantong.evaluate import hand_counts
>>> kind, d = best_discard(hand_counts("123b 234w 678t 333w qzx3 789t 99w bhx2 hh"))
>>> kind, d
(29, 0)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from kaptai.errors import RulesError, as_items, quote_token
from kaptai.nantong.config import POLICY_NAMES, IllegalMoveError
from kaptai.nantong.cards import format_card

__all__ = [
    "POLICY_NAMES",
    "PlayerView",
    "Policy",
    "check_policies",
    "table_distance",
    "table_complete",
    "table_waits",
    "best_discard",
    "builtin_discard",
    "builtin_claim",
    "builtin_self_kong",
]


# ----------------------------------------------------------------------------- table lookups in Python
# The reference engine reads the per-suit tables (built by kaptai.nantong._eval) and does the
# combination in Python, independently of the compiled engine's C code.

_TABLES: dict = {}


def _tables():
    if not _TABLES:
        from kaptai.nantong import _eval

        ew, d, _ = _eval.suit_tables()
        _TABLES["ew"], _TABLES["d"] = ew, d
        for hs in (0, 1):
            hew, hd, _ = _eval.honour_tables(hs)
            _TABLES["hew", hs], _TABLES["hd", hs] = hew, hd
    return _TABLES


def _codes(c: Sequence[int]) -> tuple[list[int], list[int]]:
    codes, sizes = [], []
    for s in range(3):
        code = 0
        for r in range(8, -1, -1):
            code = code * 5 + int(c[9 * s + r])
        codes.append(code)
        sizes.append(sum(int(x) for x in c[9 * s:9 * s + 9]))
    codes.append(int(c[27]) + 5 * int(c[28]) + 25 * int(c[29]))
    sizes.append(int(c[27]) + int(c[28]) + int(c[29]))
    return codes, sizes


def _ew(t, s, code, hs):
    return int(t["ew"][code]) if s < 3 else int(t["hew", hs][code])


def table_complete(c: Sequence[int], hs: int = 0) -> bool:
    """1 pair + k melds, from the exact flags of the suit tables.

    >>> from kaptai.nantong.evaluate import hand_counts
    >>> table_complete(hand_counts("111w 22t"))
    True
    """
    t = _tables()
    codes, sizes = _codes(c)
    pairs = 0
    for s in range(4):
        if not _ew(t, s, codes[s], hs) >> 15:
            return False
        pairs += sizes[s] % 3 == 2
    return pairs == 1


def table_waits(c: Sequence[int], hs: int = 0) -> int:
    """Wait mask (bit = kind) of a 3k+1-card hand, from the wait bits of the suit tables.

    >>> from kaptai.nantong.evaluate import hand_counts, mask_kinds
    >>> mask_kinds(table_waits(hand_counts("1112w")))
    (1, 2)
    """
    t = _tables()
    codes, sizes = _codes(c)
    ew = [_ew(t, s, codes[s], hs) for s in range(4)]
    if sum(1 for e in ew if not e >> 15) > 1:
        return 0
    out = 0
    for s in range(4):
        if not ew[s] & 0x1FF:
            continue
        others = [u for u in range(4) if u != s]
        if not all(ew[u] >> 15 for u in others):
            continue
        r2 = sum(1 for u in others if sizes[u] % 3 == 2)
        res = (sizes[s] + 1) % 3
        if (res == 2 and r2 == 0) or (res == 0 and r2 == 1):
            out |= (ew[s] & 0x1FF) << (9 * s)
    return out


def table_distance(c: Sequence[int], hs: int = 0) -> int:
    """Exact distance from ready by min-plus convolution of the four suit profiles.

    >>> from kaptai.nantong.evaluate import hand_counts
    >>> table_distance(hand_counts("19w 5t qz"))
    2
    """
    codes, sizes = _codes(c)
    return _distance_of(tuple(codes), sum(sizes), int(hs))


@functools.lru_cache(maxsize=1 << 18)
def _distance_of(codes: tuple, n: int, hs: int) -> int:
    """:func:`table_distance` of the hand with these suit codes and size (memoised: the search
    player's rollouts meet the same hands again and again)."""
    t = _tables()
    k = (n - 1) // 3 if n % 3 == 1 else (n - 2) // 3
    profs = [t["d"][codes[s]].tolist() for s in range(3)] + [t["hd", hs][codes[3]].tolist()]
    acc = profs[0]
    for q in profs[1:3]:
        acc = [min(acc[2 * m1 + p1] + q[2 * (m - m1) + (p - p1)] for m1 in range(m + 1) for p1 in range(p + 1))
               for m in range(k + 1) for p in range(2)]
    h = profs[3]
    return min(acc[2 * m1 + p1] + h[2 * (k - m1) + (1 - p1)] for m1 in range(k + 1) for p1 in range(2)) - 1


def _minplus(a: list[int], b: list[int], k: int) -> list[int]:
    """Min-plus product of two (melds, pair) profiles up to ``k`` melds."""
    return [min(a[2 * m1 + p1] + b[2 * (m - m1) + (p - p1)] for m1 in range(m + 1) for p1 in range(p + 1))
            for m in range(k + 1) for p in range(2)]


def best_discard(c: np.ndarray | list, hs: int = 0) -> tuple[int, int]:
    """The ``max_melds`` discard: (kind, distance after it); ties go to the highest kind.

    The distance after each discard is :func:`table_distance` of the hand without that card;
    the profiles of the three suits a candidate does not touch are combined once per suit.

    >>> from kaptai.nantong.evaluate import hand_counts
    >>> best_discard(hand_counts("11w 23w qz"))
    (27, 0)
    """
    c = [int(x) for x in c]
    n = sum(c)
    if n % 3 != 2:
        best_k, best_d = -1, 1000
        for k in range(30):
            if c[k]:
                c[k] -= 1
                d = table_distance(c, hs)
                c[k] += 1
                if d <= best_d:
                    best_k, best_d = k, d
        return best_k, best_d
    t = _tables()
    codes, _ = _codes(c)
    kk = (n - 2) // 3

    def prof(s: int, code: int) -> list[int]:
        return (t["d"][code] if s < 3 else t["hd", hs][code]).tolist()

    profs = [prof(s, codes[s]) for s in range(4)]
    best_k, best_d = -1, 1000
    for s in range(4):
        others = [profs[u] for u in range(4) if u != s]
        acc = _minplus(_minplus(others[0], others[1], kk), others[2], kk)
        for kind in (range(9 * s, 9 * s + 9) if s < 3 else range(27, 30)):
            if not c[kind]:
                continue
            q = prof(s, codes[s] - 5 ** (kind - 9 * s if s < 3 else kind - 27))
            d = min(acc[2 * m1 + p1] + q[2 * (kk - m1) + (1 - p1)] for m1 in range(kk + 1) for p1 in range(2)) - 1
            if d <= best_d:
                best_k, best_d = kind, d
    return best_k, best_d


# ----------------------------------------------------------------------------- built-in decisions


def builtin_discard(code: int, c: list[int], hs: int, stream: Any) -> int:
    """The kind a built-in policy (by code) discards from concealed counts ``c``."""
    if code == 0:
        return best_discard(c, hs)[0]
    if code == 1:
        best_k, best_n = -1, 99
        for k in range(30):
            if c[k] and c[k] <= best_n:
                best_k, best_n = k, c[k]
        return best_k
    if code == 2:
        for k in (29, 28, 27):
            if c[k]:
                return k
        return best_discard(c, hs)[0]
    n = sum(c)
    i = stream.bounded(n)
    for k in range(30):
        if i < c[k]:
            return k
        i -= c[k]
    raise AssertionError("unreachable")


def builtin_claim(code: int, c: list[int], kind: int, options: Sequence[str], hs: int, stream: Any) -> str:
    """The claim a built-in policy makes on a discard of ``kind`` (options include 'pass')."""
    if "win" in options:
        return "win"
    if code == 0:
        if "kong" in options:
            return "kong"
        if "pong" in options:
            before = table_distance(c, hs)
            c2 = list(c)
            c2[kind] -= 2
            after = best_discard(c2, hs)[1]
            return "pong" if after <= before else "pass"
        return "pass"
    if code == 1:
        return "kong" if "kong" in options else ("pong" if "pong" in options else "pass")
    if code == 2:
        return "pass"
    opts = [o for o in ("pass", "pong", "kong") if o in options]
    return opts[stream.bounded(len(opts))] if len(opts) > 1 else opts[0]


def builtin_self_kong(code: int, options: Sequence[tuple[str, int]], stream: Any):
    """The kong a built-in policy declares at AFTER_DRAW (an option or None)."""
    if not options or code == 2:
        return None
    if code in (0, 1):
        return options[0]
    return options[0] if stream.bounded(2) == 1 else None


# ----------------------------------------------------------------------------- user policies


@dataclass(frozen=True)
class PlayerView:
    """What a policy sees when asked.

    Attributes
    ----------
    seat : int
        0 = the dealer of the hand.
    hand : tuple of 30 ints
        Its concealed counts.
    melds : tuple of tuple of (type, kind), one per seat
        Every seat's exposed sets (``ckong`` included: a declared 暗槓 is shown).
    discards : tuple of kinds
        The discards so far, in order.
    turned : tuple of kinds
        The turned cards (將).
    stock_left : int
    """

    seat: int
    hand: tuple
    melds: tuple
    discards: tuple
    turned: tuple
    stock_left: int
    last_drawn: int | None = None
    extra: dict = field(default_factory=dict)


class Policy:
    """Base class of a user playing policy (played by the reference engine).

    Override any of the methods; the defaults play like ``max_melds``.

    Examples
    --------
    >>> class Discarder(Policy):
    ...     name = "highest_card"
    ...     def discard(self, view):
    ...         return max(k for k in range(30) if view.hand[k])
    >>> Discarder().name
    'highest_card'
    """

    name = "policy"

    def discard(self, view: PlayerView) -> int:
        """The kind to discard (must be in ``view.hand``)."""
        return best_discard(list(view.hand), int(view.extra.get("honour_sequence", 0)))[0]

    def claim(self, view: PlayerView, kind: int, options: tuple[str, ...]) -> str:
        """One of ``options`` ('win', 'kong', 'pong', 'pass') on a discard of ``kind``."""
        return builtin_claim(0, list(view.hand), kind, options, int(view.extra.get("honour_sequence", 0)), None)

    def self_win(self, view: PlayerView) -> bool:
        """Declare the self-drawn win (or 天成)?"""
        return True

    def self_kong(self, view: PlayerView, options: tuple[tuple[str, int], ...]):
        """One of ``options`` (``('ckong', k)`` / ``('mkong', k)``) or None."""
        return options[0] if options else None

    def qishou(self, view: PlayerView, meld: tuple[str, int]) -> bool:
        """Expose this 起手 set (asked only under ``qishou='policy'``)?"""
        return True


def _move_text(move: Any, kind: bool = False) -> str:
    """A move as a person reads it: a kind (``kind``: a discard) or ``(what, kind)`` with the kind
    written as a card."""
    if isinstance(move, tuple) and len(move) == 2 and isinstance(move[1], int):
        return f"{move[0]}:{format_card(move[1])}" if 0 <= move[1] < 30 else repr(move)
    if kind and isinstance(move, (int, np.integer)) and not isinstance(move, bool) and 0 <= move < 30:
        return format_card(int(move))
    return repr(move)


def check_move(policy: Any, what: str, move: Any, options: Sequence) -> Any:
    """``move`` if it is one of ``options``, else IllegalMoveError naming it."""
    if move in options:
        return move
    label = getattr(policy, "name", type(policy).__name__)
    kind = what == "discard"
    allowed = ", ".join(_move_text(o, kind) for o in options)
    raise IllegalMoveError(f"policy {label!r} made the illegal move {what} {_move_text(move, kind)}: "
                           f"expected one of {allowed}")


def check_policies(policies: Any, active: int) -> list:
    """One policy per seat: built-in names (validated) or :class:`Policy` objects.

    >>> check_policies("random", 3)
    ['random', 'random', 'random']
    >>> check_policies("greedy", 3)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown policy 'greedy': expected one of 'max_melds', 'chase_qing', 'chase_hun', 'random', 'search' or a Policy object
    """
    if isinstance(policies, (str, Policy)):
        policies = [policies] * active
    pols = as_items(policies, "policies", RulesError)
    if len(pols) != active:
        raise RulesError(f"{len(pols)} policies given for {active} active seats")
    for p in pols:
        if isinstance(p, str):
            if p not in POLICY_NAMES:
                raise RulesError(
                    f"unknown policy {quote_token(p)}: expected one of {', '.join(repr(n) for n in POLICY_NAMES)} or a Policy object"
                )
        elif not isinstance(p, Policy):
            raise RulesError(f"a policy must be a built-in name or a Policy object, got {type(p).__name__}")
    return pols
