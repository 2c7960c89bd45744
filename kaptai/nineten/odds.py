"""Exact deal odds of nine-ten (九支十仔; ``docs/rules/nine-ten.md``).

Everything is exact integer combinatorics, divided once at the end.  A hand of ``h`` cards
is a count vector ``c`` over the 28 cards (4 copies each) of weight ``prod comb(4, c_i)``
out of ``comb(112, h)``; its pairs are ``p = sum floor(c_i / 2)``, singles ``s = h - 2p``.

Symmetry: the 28 cards are interchangeable except for their colour, so vectors are never
listed.  Per colour the seven ranks give a generating function in (cards, pairs) (a DP over
the 7 ranks, 35 states); the four colours are combined by a DP whose state is (cards,
pairs, colours present, colours among the pairs).  Two seats jointly: a DP over the 28
seat's hand enumerated by profile (how many cards it holds 0-4 times), the other's from
one generating function per class of cards with 4, 3, 2, 1 copies left.

The whole table (:func:`table_joint`): seats are dealt one after the other from a deck
described by how many cards have 4, 3, 2, 1, 0 copies left; exact up to
:data:`EXACT_TABLE_MAX` = 4 seats (about 0.5 s).  Beyond that the joint distribution of claims
over the table is estimated from uniformly random deals (``method='monte_carlo'``, fixed seed,
the number of deals in ``breakdown``); every other row is exact.

Examples
--------
>>> from kaptai.nineten.odds import deal_odds
>>> df = deal_odds(4)
>>> p = df[df.method == "exact"].set_index(["metric", "hand"]).value
>>> round(float(p["ready", "other"]), 5), float(p["natural", "dealer"]) < 2e-5
(0.00048, True)
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping

import numpy as np
import pandas as pd

from kaptai.core.tables import tidy_frame
from kaptai.nineten.cards import COPIES, N_KINDS, parse_cards, parse_hand
from kaptai.nineten.rules import RuleSet, deal_sizes, resolve_rules, validate_players
from kaptai.errors import InvalidHandError, RulesError, quote_token

__all__ = [
    "EXACT_TABLE_MAX",
    "table_joint",
    "ODDS_COLUMNS",
    "MC_DEALS",
    "hand_distribution",
    "pair_joint",
    "deal_odds",
    "bonus_flip_distribution",
    "bonus_flip_odds",
    "sample_pairs",
]

ODDS_COLUMNS = ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value", "exact", "method"]
#: Deals sampled for the whole-table joint distribution of claims (3+ seats).
MC_DEALS: int = 40_000
_GAME = "nine-ten"
_DECK = N_KINDS * COPIES


@lru_cache(maxsize=None)
def _colour_gf(h: int) -> dict[tuple[int, int], int]:
    """One colour (7 ranks x 4 copies): {(cards, pairs): ways} with cards <= h."""
    st = {(0, 0): 1}
    for _ in range(7):
        nxt: dict[tuple[int, int], int] = {}
        for (c, p), w in st.items():
            for a in range(5):
                if c + a > h:
                    break
                key = (c + a, p + a // 2)
                nxt[key] = nxt.get(key, 0) + w * math.comb(4, a)
        st = nxt
    return st


@lru_cache(maxsize=None)
def hand_distribution(h: int) -> dict[tuple[int, int, int], int]:
    """Hands of ``h`` cards by (pairs, colours present, colours among the pairs).

    Returns
    -------
    dict
        ``{(pairs, colours, pair_colours): number of h-card hands}``; the numbers add up
        to ``comb(112, h)``.

    Examples
    --------
    >>> import math
    >>> from kaptai.nineten.odds import hand_distribution
    >>> d = hand_distribution(10)
    >>> sum(d.values()) == math.comb(112, 10), d[(5, 1, 1)]
    (True, 776664)
    """
    gf = _colour_gf(h)
    st = {(0, 0, 0, 0): 1}
    for _ in range(4):
        nxt: dict[tuple[int, int, int, int], int] = {}
        for (c, p, k, kp), w in st.items():
            for (a, q), v in gf.items():
                if c + a > h:
                    continue
                key = (c + a, p + q, k + (a > 0), kp + (q > 0))
                nxt[key] = nxt.get(key, 0) + w * v
        st = nxt
    out: dict[tuple[int, int, int], int] = {}
    for (c, p, k, kp), w in st.items():
        if c == h:
            out[(p, k, kp)] = out.get((p, k, kp), 0) + w
    return out


@lru_cache(maxsize=None)
def _class_gf(copies: int, kinds: int, hmax: int) -> dict[tuple[int, int], int]:
    """``kinds`` cards with ``copies`` copies each: {(cards drawn, pairs): ways}, cards <= hmax."""
    if kinds == 0:
        return {(0, 0): 1}
    prev = _class_gf(copies, kinds - 1, hmax)
    out: dict[tuple[int, int], int] = {}
    for (c, p), w in prev.items():
        for a in range(min(copies, hmax - c) + 1):
            key = (c + a, p + a // 2)
            out[key] = out.get(key, 0) + w * math.comb(copies, a)
    return out


@lru_cache(maxsize=None)
def _profiles(h: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """How many of the 28 cards a hand of ``h`` holds 0, 1, 2, 3, 4 times."""
    out = []
    for n4 in range(h // 4 + 1):
        for n3 in range((h - 4 * n4) // 3 + 1):
            for n2 in range((h - 4 * n4 - 3 * n3) // 2 + 1):
                n1 = h - 4 * n4 - 3 * n3 - 2 * n2
                n0 = N_KINDS - n1 - n2 - n3 - n4
                if n0 >= 0:
                    out.append((n0, n1, n2, n3, n4))
    return tuple(out)


@lru_cache(maxsize=None)
def pair_joint(h1: int, h2: int) -> dict[tuple[int, int], int]:
    """Two seats dealt ``h1`` and ``h2`` cards from one deck: {(pairs 1, pairs 2): deals}.

    Seat 1's hand is enumerated by its *profile* (how many cards it holds 0-4 times, with
    ``multinomial(28; n0..n4) * prod comb(4, k)^n_k`` hands each); the rest of the deck
    then has ``n_k`` cards with ``4 - k`` copies, and seat 2 is a product of one
    generating function per copy class.  The numbers add up to
    ``comb(112, h1) * comb(112 - h1, h2)``.

    Examples
    --------
    >>> import math
    >>> from kaptai.nineten.odds import pair_joint
    >>> j = pair_joint(10, 9)
    >>> sum(j.values()) == math.comb(112, 10) * math.comb(102, 9)
    True
    """
    out: dict[tuple[int, int], int] = {}
    for prof in _profiles(h1):
        n0, n1, n2, n3, n4 = prof
        ways = math.factorial(N_KINDS)
        for x in prof:
            ways //= math.factorial(x)
        ways *= 4 ** n1 * 6 ** n2 * 4 ** n3
        p1 = n2 + n3 + 2 * n4
        acc = {(0, 0): 1}
        for copies, kinds in ((4, n0), (3, n1), (2, n2), (1, n3)):
            g = _class_gf(copies, kinds, h2)
            nxt: dict[tuple[int, int], int] = {}
            for (c, p), w in acc.items():
                for (a, q), v in g.items():
                    if c + a <= h2:
                        nxt[(c + a, p + q)] = nxt.get((c + a, p + q), 0) + w * v
            acc = nxt
        for (c, p), w in acc.items():
            if c == h2:
                out[(p1, p)] = out.get((p1, p), 0) + ways * w
    return dict(sorted(out.items()))


@lru_cache(maxsize=None)
def _class_draws(copies: int, kinds: int, hmax: int) -> tuple[tuple[int, int, tuple[int, ...], int], ...]:
    """How ``kinds`` cards with ``copies`` copies left give a seat at most ``hmax`` cards:
    ``(cards, pairs, (b_1 … b_copies), ways)``, ``b_a`` = cards of the class that give ``a`` copies."""
    out: list[tuple[int, int, tuple[int, ...], int]] = []

    def rec(a: int, left: int, cards: int, pairs: int, bs: list[int], w: int) -> None:
        if a > copies:
            out.append((cards, pairs, tuple(bs), w))
            return
        for b in range(left + 1):
            c = cards + a * b
            if c > hmax:
                break
            rec(a + 1, left - b, c, pairs + (a // 2) * b, bs + [b], w * math.comb(left, b) * math.comb(copies, a) ** b)

    rec(1, kinds, 0, 0, [], 1)
    return tuple(out)


@lru_cache(maxsize=None)
def _seat_draws(state: tuple[int, ...], h: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Every way one seat draws ``h`` cards from a deck whose ``state[r]`` cards have ``r`` copies
    left: ``(new state, pairs, ways)``."""
    acc: dict[tuple[tuple[int, ...], int, int], int] = {((0,) * 5, 0, 0): 1}
    for r in range(1, 5):
        if not state[r]:
            continue
        nxt: dict[tuple[tuple[int, ...], int, int], int] = {}
        for (mv, c, p), w in acc.items():
            for cc, pp, bs, ww in _class_draws(r, state[r], h - c):
                mv2 = list(mv)
                for a, b in enumerate(bs, 1):
                    mv2[r - a] += b
                    mv2[r] -= b
                key = (tuple(mv2), c + cc, p + pp)
                nxt[key] = nxt.get(key, 0) + w * ww
        acc = nxt
    out: dict[tuple[tuple[int, ...], int], int] = {}
    for (mv, c, p), w in acc.items():
        if c == h:
            key2 = (tuple(state[i] + mv[i] for i in range(5)), p)
            out[key2] = out.get(key2, 0) + w
    return tuple((st, p, w) for (st, p), w in out.items())


@lru_cache(maxsize=None)
def _class_poly(copies: int, kinds: int, h: int) -> np.ndarray:
    """int64 ``(h + 1, h // 2 + 1)``: ways ``kinds`` cards with ``copies`` copies give c cards, q pairs
    (every entry is at most comb(112, h), far below 2**63 for h <= 10)."""
    P = np.zeros((h + 1, h // 2 + 1), dtype=np.int64)
    P[0, 0] = 1
    for _ in range(kinds):
        new = P.copy()
        for a in range(1, min(copies, h) + 1):
            new[a:, a // 2:] += P[: h + 1 - a, : h // 2 + 1 - a // 2] * math.comb(copies, a)
        P = new
    return P


@lru_cache(maxsize=None)
def _last_seat(state: tuple[int, ...], h: int) -> tuple[int, ...]:
    """Ways the last seat draws ``h`` cards from ``state``, by pairs (the rest of the deck is the stock)."""
    P = np.zeros((h + 1, h // 2 + 1), dtype=np.int64)
    P[0, 0] = 1
    for r in range(1, 5):
        if not state[r]:
            continue
        Q = _class_poly(r, state[r], h)
        new = np.zeros_like(P)
        for c, q in zip(*np.nonzero(P)):
            new[c:, q:] += P[c, q] * Q[: h + 1 - c, : h // 2 + 1 - q]
        P = new
    return tuple(int(x) for x in P[h])


@lru_cache(maxsize=None)
def table_joint(sizes: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """Exact joint distribution of the pairs of every seat: {(pairs of seat 1, …): deals}.

    Seats are dealt one after the other from a deck described only by how many cards have
    4, 3, 2, 1, 0 copies left (the cards are interchangeable); each seat's draw is enumerated
    per copy class, the last seat by a product of generating functions.  The numbers add up
    to the multinomial number of deals.  Fast up to four seats (about 0.5 s for 10/9/9/9).

    Examples
    --------
    >>> import math
    >>> from kaptai.nineten.odds import table_joint
    >>> j = table_joint((10, 9, 9))
    >>> sum(j.values()) == math.comb(112, 10) * math.comb(102, 9) * math.comb(93, 9)
    True
    """
    states: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {((0, 0, 0, 0, N_KINDS), ()): 1}
    for h in sizes[:-1]:
        nxt: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        for (st, pairs), w in states.items():
            for st2, p, ww in _seat_draws(st, h):
                key = (st2, pairs + (p,))
                nxt[key] = nxt.get(key, 0) + w * ww
        states = nxt
    out: dict[tuple[int, ...], int] = {}
    for (st, pairs), w in states.items():
        for p, ww in enumerate(_last_seat(st, sizes[-1])):
            if ww:
                key3 = pairs + (p,)
                out[key3] = out.get(key3, 0) + w * ww
    return dict(sorted(out.items()))


#: Whole tables up to this many seats get the exact joint distribution of claims.
EXACT_TABLE_MAX: int = 4


def sample_pairs(players: int, sizes: tuple[int, int], deals: int, seed: int = 0) -> np.ndarray:
    """Pairs of every seat in ``deals`` uniformly random deals (seat 0 the dealer).

    Returns
    -------
    numpy.ndarray
        int8 ``(deals, players)``.

    Examples
    --------
    >>> from kaptai.nineten.odds import sample_pairs
    >>> sample_pairs(4, (10, 9), 3, seed=1).shape
    (3, 4)
    """
    rng = np.random.default_rng(seed)
    hd, ho = sizes
    dealt = hd + ho * (players - 1)
    out = np.empty((deals, players), dtype=np.int8)
    block = 8192
    seat_of = np.repeat(np.arange(players), [hd] + [ho] * (players - 1)) * N_KINDS
    kinds = (np.arange(_DECK) // COPIES).astype(np.int64)
    for start in range(0, deals, block):
        m = min(block, deals - start)
        perm = rng.permuted(np.broadcast_to(kinds, (m, _DECK)), axis=1)[:, :dealt]  # kinds dealt, in deal order
        idx = (np.arange(m)[:, None] * (players * N_KINDS) + seat_of[None, :] + perm).ravel()
        cnt = np.bincount(idx, minlength=m * players * N_KINDS).reshape(m, players, N_KINDS)
        out[start:start + m] = (cnt // 2).sum(axis=2)
    return out


def _row(rules: RuleSet, players: int, hand: str, metric: str, frac: Fraction | float, breakdown=None, level=None,
         method: str = "exact") -> dict[str, Any]:
    return {
        "game": _GAME, "rules": rules.name, "players": players, "hand": hand, "metric": metric,
        "breakdown": breakdown, "level": None if level is None else str(level),  # level is text in every table
        "value": float(frac),
        "exact": f"{frac.numerator}/{frac.denominator}" if isinstance(frac, Fraction) else None,
        "method": method,
    }


def deal_odds(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    monte_carlo_deals: int = MC_DEALS,
    seed: int = 0,
    table: str = "auto",
) -> pd.DataFrame:
    """Exact odds of the opening hands (§7.1) and of the claims each seat needs (§7.2).

    Parameters
    ----------
    players : int
        4-15 (2-3 with ``allow_small_table``); 8+ use the dealer-5/others-4 deal unless
        ``large_table='ten_nine'`` (deal statistics only under ``'deal_only'``).
    rules : RuleSet, str, mapping or None
    monte_carlo_deals : int
        Deals sampled for the whole-table joint claims (5+ seats; 0 to leave them out).
    seed : int
        Seed of those deals.
    table : {'auto', 'exact', 'monte_carlo'}
        The whole-table joint distribution of claims: ``'auto'`` exact up to
        :data:`EXACT_TABLE_MAX` seats, sampled beyond; ``'exact'`` always exact (5 players
        take about 9 s, more players much longer); ``'monte_carlo'`` always sampled.

    Returns
    -------
    pandas.DataFrame
        Tidy rows ``game, rules, players, hand, metric, breakdown, level, value, exact,
        method``; ``hand`` is ``'dealer'``, ``'other'`` (a non-dealer), ``'dealer,other'``,
        ``'other,other'`` (two seats jointly) or ``'table'``.  Metrics:

        * ``pairs_distribution`` (level = pairs), ``singles_distribution`` (level =
          singles), ``claims_distribution`` (level = 5 − pairs, the claims the seat needs
          by the §4 lemma), ``colours_distribution`` (level = colours present),
          ``pair_colours_distribution`` (level = colours among the pairs), for the dealer
          and for another seat;
        * ``ready`` (hand ``other``: 4 pairs + 1 single at the deal), ``natural`` (hand
          ``dealer``: five pairs), ``mean_claims`` (both) -- 10/9 deals only;
        * ``claims_joint`` exact for two seats (level ``'a,b'`` claims of the two seats) and
          for the table (level ``'d,o1,…'`` in seat order from the dealer; exact up to four
          players, ``method='monte_carlo'`` for five or more, ``breakdown`` giving the
          number of deals); ``table_min_claims`` (fewest claims over the seats) likewise.

    Examples
    --------
    >>> from kaptai.nineten.odds import deal_odds
    >>> df = deal_odds(5, monte_carlo_deals=0)
    >>> pd_ = df.query("metric == 'pairs_distribution' and hand == 'dealer'")
    >>> pd_.level.tolist(), round(float(pd_.value.sum()), 12)
    (['0', '1', '2', '3', '4', '5'], 1.0)
    """
    rules = resolve_rules(rules)
    n = validate_players(players, rules)
    if not isinstance(table, str) or table not in ("auto", "exact", "monte_carlo"):
        raise RulesError(f"table={quote_token(table)} is not allowed: expected 'auto', 'exact' or 'monte_carlo'")
    from kaptai.core.options import check_count, check_seed

    monte_carlo_deals = check_count("monte_carlo_deals", monte_carlo_deals, 0)
    check_seed(seed)
    hd, ho, stock = deal_sizes(n, rules)
    rows: list[Mapping[str, Any]] = []
    playable = hd == 10
    for hand, h in (("dealer", hd), ("other", ho)):
        dist = hand_distribution(h)
        total = math.comb(_DECK, h)
        by: dict[str, dict[int, int]] = {"pairs": {}, "colours": {}, "pair_colours": {}}
        for (p, k, kp), w in dist.items():
            by["pairs"][p] = by["pairs"].get(p, 0) + w
            by["colours"][k] = by["colours"].get(k, 0) + w
            by["pair_colours"][kp] = by["pair_colours"].get(kp, 0) + w
        for p in range(h // 2 + 1):
            rows.append(_row(rules, n, hand, "pairs_distribution", Fraction(by["pairs"].get(p, 0), total), "pairs", p))
        for p in range(h // 2, -1, -1):
            rows.append(_row(rules, n, hand, "singles_distribution", Fraction(by["pairs"].get(p, 0), total), "singles",
                             h - 2 * p))
        if playable:
            for p in range(5, -1, -1):
                rows.append(_row(rules, n, hand, "claims_distribution", Fraction(by["pairs"].get(p, 0), total), "claims",
                                 5 - p))
            mean = sum(Fraction((5 - p) * w, total) for p, w in by["pairs"].items())
            rows.append(_row(rules, n, hand, "mean_claims", mean))
        for k in range(1, 5):
            rows.append(_row(rules, n, hand, "colours_distribution", Fraction(by["colours"].get(k, 0), total),
                             "colours", k))
        for k in range(0, 5):
            rows.append(_row(rules, n, hand, "pair_colours_distribution",
                             Fraction(by["pair_colours"].get(k, 0), total), "pair_colours", k))
        if playable and hand == "other":
            rows.append(_row(rules, n, hand, "ready", Fraction(by["pairs"].get(4, 0), total)))
        if playable and hand == "dealer":
            rows.append(_row(rules, n, hand, "natural", Fraction(by["pairs"].get(5, 0), total)))
    if playable:
        for hand, (h1, h2) in (("dealer,other", (hd, ho)), ("other,other", (ho, ho))):
            j = pair_joint(h1, h2)
            tot = math.comb(_DECK, h1) * math.comb(_DECK - h1, h2)
            for (p, q), w in sorted(j.items(), key=lambda t: (5 - t[0][0], 5 - t[0][1])):
                rows.append(_row(rules, n, hand, "claims_joint", Fraction(w, tot), "claims", f"{5 - p},{5 - q}"))
        if table == "exact" or (table == "auto" and n <= EXACT_TABLE_MAX):
            jt = table_joint((hd,) + (ho,) * (n - 1))
            tot = 1
            left = _DECK
            for h in (hd,) + (ho,) * (n - 1):
                tot *= math.comb(left, h)
                left -= h
            mins: dict[int, int] = {}
            for pairs, w in sorted(jt.items(), key=lambda t: tuple(5 - x for x in t[0])):
                rows.append(_row(rules, n, "table", "claims_joint", Fraction(w, tot), "claims",
                                 ",".join(str(5 - x) for x in pairs)))
                m = 5 - max(pairs)
                mins[m] = mins.get(m, 0) + w
            for m in range(6):
                rows.append(_row(rules, n, "table", "table_min_claims", Fraction(mins.get(m, 0), tot), "claims", m))
        elif monte_carlo_deals:
            sampled = sample_pairs(n, (hd, ho), int(monte_carlo_deals), seed)
            claims = 5 - sampled.astype(np.int64)
            code = np.zeros(len(claims), dtype=np.int64)
            for s in range(n):
                code = code * 6 + claims[:, s]
            vals, cnts = np.unique(code, return_counts=True)
            label = f"monte_carlo deals={int(monte_carlo_deals)} seed={seed}"
            for v, c in zip(vals.tolist(), cnts.tolist()):
                digits = []
                for _ in range(n):
                    digits.append(v % 6)
                    v //= 6
                rows.append(_row(rules, n, "table", "claims_joint", c / len(claims), label,
                                 ",".join(str(d) for d in reversed(digits)), method="monte_carlo"))
            mn = claims.min(axis=1)
            for m in range(6):
                rows.append(_row(rules, n, "table", "table_min_claims", float((mn == m).mean()), label, m,
                                 method="monte_carlo"))
    return tidy_frame(rows, ODDS_COLUMNS, {"rules": rules.to_dict(), "players": n, "deal": (hd, ho, stock)})


def bonus_flip_distribution(stock: int, matches: int) -> dict[int, Fraction]:
    """Exact distribution of the bonus-flip points (§7.4) from a stock of ``stock`` cards of
    which ``matches`` are the same card as one of the winner's pairs.

    The five cards are the top of a uniformly shuffled stock: ``j`` matches among them with
    ``H(j) = C(M, j) C(S - M, 5 - j) / C(S, 5)``; the tail (card 5) is a match with
    probability ``j / 5``; points = matches among cards 1-4 + 2 × tail.  The mean is
    ``6 M / S``.

    Returns
    -------
    dict
        ``{points: probability}`` for points 0-6.

    Examples
    --------
    >>> from kaptai.nineten.odds import bonus_flip_distribution
    >>> d = bonus_flip_distribution(40, 10)
    >>> sum(p * v for p, v in d.items())
    Fraction(3, 2)
    """
    for name, v in (("stock", stock), ("matches", matches)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise RulesError(f"{name}={quote_token(v)}: expected a whole number of cards")
    S, M = int(stock), int(matches)
    if S < 5 or not 0 <= M <= S:
        raise RulesError(f"bonus flip needs a stock of at least 5 cards and 0 <= matches <= stock, got stock={S}, "
                         f"matches={M}")
    tot = math.comb(S, 5)
    out = {v: Fraction(0) for v in range(7)}
    for j in range(6):
        H = Fraction(math.comb(M, j) * math.comb(S - M, 5 - j), tot)
        if not H:
            continue
        if j:
            out[j - 1 + 2] += H * Fraction(j, 5)
        if j < 5:
            out[j] += H * Fraction(5 - j, 5)
    return out


def bonus_flip_odds(hand: Any, stock: Any, rules: RuleSet | str | Mapping[str, Any] | None = None, *,
                    pool: str = "stock") -> pd.DataFrame:
    """Bonus-flip distribution and mean for a winning hand and the cards left in the stock.

    Parameters
    ----------
    hand : str or count vector
        The winner's five pairs.
    stock : str or iterable
        ``pool='stock'``: every card left in the stock (the reserve included), e.g.
        ``'RKx2 GC …'`` -- the result is exact.  ``pool='unseen'``: the cards the winner has
        not seen (stock + the others' concealed cards); the same formula with ``U`` and
        ``M_U`` is then the approximation of §7.4 (play is informative), reported with
        ``breakdown`` starting ``'unseen approximation'``.

    Examples
    --------
    >>> from kaptai.nineten.odds import bonus_flip_odds
    >>> df = bonus_flip_odds("RAx2 RRx2 YKx2 YAx2 WEx2", "RAx2 GCx3 WE GP GK")
    >>> df.query("metric == 'bonus_flip_mean'").exact.item()
    '9/4'
    """
    rules = resolve_rules(rules)
    if pool not in ("stock", "unseen"):
        raise RulesError(f"pool={quote_token(pool)} is not allowed: expected 'stock' or 'unseen'")
    h = parse_hand(hand) if isinstance(hand, str) else np.asarray(hand)
    s = np.zeros(N_KINDS, dtype=np.int64)
    for k in parse_cards(stock):
        s[k] += 1
    if np.any(h.astype(np.int64) + s > COPIES):
        k = int(np.nonzero(h.astype(np.int64) + s > COPIES)[0][0])
        from kaptai.nineten.cards import format_card

        raise InvalidHandError(f"card {format_card(k)!r} ({format_card(k, 'trad')}) appears "
                               f"{int(h[k] + s[k])} times; the deck has 4")
    S = int(s.sum())
    M = int(s[h >= 2].sum())
    dist = bonus_flip_distribution(S, M)
    label = "points" if pool == "stock" else "unseen approximation: points"
    rows: list[Mapping[str, Any]] = [_row(rules, 0, "winner", "bonus_flip", p, label, v) for v, p in dist.items()]
    mean = sum(v * p for v, p in dist.items())
    rows.append(_row(rules, 0, "winner", "bonus_flip_mean", mean,
                     f"stock={S} matches={M}" if pool == "stock" else f"unseen approximation: unseen={S} matches={M}"))
    return tidy_frame(rows, ODDS_COLUMNS, {"stock": S, "matches": M, "pool": pool})
