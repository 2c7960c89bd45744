"""Exact deal odds of Nantong long cards (南通長牌) (``docs/rules/nantong.md``).

Everything is integer arithmetic (weights are products of binomials), divided once at the
end into a :class:`fractions.Fraction` (the ``exact`` column).

**Turned cards and 起手** (§7.1-§7.4).  By exchangeability the ordered pair of turned cards
is uniform on the deck and the hand uniform on the 118 other cards (the same law as the
page's "hand first, turned pair uniform on the 120 - h cards outside it").  For each ordered
turned pair ``(a, b)`` every kind has ``r`` copies left (4, 3 for a 將, 2 under 雙將) and
a level (老將, 將牌, 雙將); a dynamic programme over the 30 kinds with state (cards, 胡,
起手 flags) gives, per hand size, P(a dealt kong), P(any 起手: a kong, all 3 remaining
copies of a 將, 和子) and the opening 胡數 (per kind: 3 copies -> 暗刻 4/8, 4 -> 起手 kong
16/32, 3 remaining 將 -> 32/64, 和子 -> 64/128; times 2 for each further level as in the
底胡 table).  Turned pairs with the same multiset of kind types share one programme.

**Natural, ready and the distance** (§7.5).  Exact enumeration of count vectors on the
compiled per-suit tables of :mod:`kaptai.nantong._eval`: the 1,953,125 count vectors of a
suit fall into 346 classes of (cards, distance profile) (the profile is the distance to
m melds + p pairs for every m <= 7, p <= 1); each class carries the hypergeometric weight
``sum prod comb(4, c_r)`` of its vectors.  Suits are combined by min-plus convolution of
the profiles, the class weights multiplied, and the hand's distance from ready read at
(7 melds, 1 pair).  ``natural`` (the dealer's 23 dealt cards are 1 pair + 7 melds) is the
mass at distance -1 of 23 cards, ``ready`` (a non-dealer's 22 cards are one card from such a
hand; a copy of that card is necessarily outside the hand) the mass at distance 0 of 22.
Both are also computed directly from the exact-decomposition / wait flags of the tables and
must agree (the tests check it).

Examples
--------
>>> from kaptai.nantong.odds import deal_odds
>>> df = deal_odds(3, metrics=("double_jiang", "hezi"))
>>> p = df.set_index(["metric", "hand", "breakdown"]).exact
>>> p["double_jiang", "table", "unconditional"], p["hezi", "dealer", "given_double_jiang"]
('3/119', '253/6903')
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from kaptai.core.tables import tidy_frame
from kaptai.errors import RulesError, as_items, quote_token
from kaptai.nantong.rules import RuleSet, resolve_rules, validate_players

__all__ = [
    "ODDS_COLUMNS",
    "METRICS",
    "deal_odds",
    "turned_odds",
    "opening_tables",
    "natural_probability",
    "ready_probability",
    "distance_distribution",
    "suit_classes",
]

ODDS_COLUMNS = ["game", "rules", "players", "hand", "metric", "breakdown", "level", "value", "exact", "method"]

#: Metrics of :func:`deal_odds`.
METRICS: tuple[str, ...] = (
    "double_jiang", "laojiang_turned", "double_jiang_laojiang", "hezi", "kong", "qishou",
    "opening_hu", "opening_hu_mean", "natural", "ready", "distance",
)

DEALER_CARDS = 23
OTHER_CARDS = 22
_INF = 255


def _rules(rules: Any) -> RuleSet:
    return rules if isinstance(rules, RuleSet) else resolve_rules(rules)


def _kinds(rules: RuleSet) -> list[tuple[int, bool]]:
    """(copies, 老將) per kind of the deck in use."""
    from kaptai.nantong.scoring import laojiang_kinds

    lao = laojiang_kinds(rules)
    out = [(4, k in lao) for k in range(30)]
    if rules.deck == 125:
        out += [(1, False)] * 5
    return out


# ----------------------------------------------------------------------------- turned cards


def turned_odds(rules: Any = None) -> dict[str, Fraction]:
    """P(雙將), P(at least one turned card is a 老將), P(雙將 on a 老將).

    >>> t = turned_odds()
    >>> t["double_jiang"], t["laojiang_turned"], t["double_jiang_laojiang"]
    (Fraction(3, 119), Fraction(446, 1785), Fraction(2, 595))
    """
    r = _rules(rules)
    kinds = _kinds(r)
    N = sum(c for c, _ in kinds)
    lao = sum(c for c, l in kinds if l)
    if r.single_turn:
        return {"double_jiang": Fraction(0), "laojiang_turned": Fraction(lao, N), "double_jiang_laojiang": Fraction(0)}
    dbl = sum(c * (c - 1) for c, _ in kinds)
    dbl_lao = sum(c * (c - 1) for c, l in kinds if l)
    return {
        "double_jiang": Fraction(dbl, N * (N - 1)),
        "laojiang_turned": 1 - Fraction(math.comb(N - lao, 2), math.comb(N, 2)),
        "double_jiang_laojiang": Fraction(dbl_lao, N * (N - 1)),
    }


def hezi_odds(hand_sizes: Sequence[int], rules: Any = None) -> dict[tuple[str, Any], Fraction]:
    """P(a given hand holds both remaining copies of the 雙將 kind | 雙將) per hand size,
    for 'any' hand, and unconditionally.

    >>> h = hezi_odds([23, 22, 22])
    >>> h["given", 23], h["given", "any"]
    (Fraction(253, 6903), Fraction(55, 531))
    """
    r = _rules(rules)
    N = sum(c for c, _ in _kinds(r))
    pool = N - 2
    p_double = turned_odds(r)["double_jiang"]
    out: dict[tuple[str, Any], Fraction] = {}
    for h in sorted(set(hand_sizes)):
        out["given", h] = Fraction(math.comb(h, 2), math.comb(pool, 2))
        out["unconditional", h] = out["given", h] * p_double
    out["given", "any"] = sum((Fraction(math.comb(h, 2), math.comb(pool, 2)) for h in hand_sizes), Fraction(0))
    out["unconditional", "any"] = out["given", "any"] * p_double
    return out


def _kind_type(copies: int, remaining: int, lev: int, rules: RuleSet) -> tuple:
    """(remaining copies, ((c, weight, 胡, flags) for each c)) of one kind after 翻將.

    flags: 1 = a dealt kong, 2 = another 起手 (3 remaining 將 or 和子)."""
    expose = rules.qishou != "never"
    opts = []
    for c in range(remaining + 1):
        hu, fl = 0, 0
        if copies == 4:
            if remaining == 4:
                if c == 3:
                    hu = 4 << lev
                elif c == 4:
                    hu, fl = (16 << lev, 1) if expose else (4 << lev, 0)
            elif remaining == 3:
                if c == 3:
                    hu, fl = (16 << lev, 2) if expose else (4 << lev, 0)
            elif remaining == 2:
                if c == 2 and expose:
                    hu, fl = 16 << lev, 2
        opts.append((c, math.comb(remaining, c), hu, fl))
    return (remaining, tuple(opts))


def _turn_signatures(rules: RuleSet) -> dict[tuple, int]:
    """Multiset signature of kind types -> total weight of the ordered turned pairs giving it."""
    from kaptai.nantong.scoring import level

    kinds = _kinds(rules)
    n = len(kinds)
    sigs: dict[tuple, int] = defaultdict(int)
    pairs: list[tuple[tuple[int, ...], int]] = []
    if rules.single_turn:
        pairs = [((a,), kinds[a][0]) for a in range(n)]
    else:
        for a in range(n):
            for b in range(n):
                w = kinds[a][0] * (kinds[b][0] - (1 if a == b else 0))
                if w:
                    pairs.append(((a, b), w))
    for turned, w in pairs:
        types = []
        for k, (copies, _) in enumerate(kinds):
            rem = copies - sum(1 for t in turned if t == k)
            lev = level(k, turned, rules) if k < 30 else 0
            types.append(_kind_type(copies, rem, lev, rules))
        sigs[tuple(sorted(types))] += w
    return dict(sigs)


@lru_cache(maxsize=32)
def _opening_dp(sig: tuple, hmax: int) -> dict[int, dict[tuple[int, int], int]]:
    """For every hand size n <= hmax: {(胡, flags): weight} over hands from the pool."""
    # state: dict (n, hu, flags) -> weight, grouped by identical kind types
    state: dict[tuple[int, int, int], int] = {(0, 0, 0): 1}
    for typ in sig:
        _, opts = typ
        new: dict[tuple[int, int, int], int] = defaultdict(int)
        for (n, hu, fl), w in state.items():
            for c, cw, h, f in opts:
                if n + c > hmax:
                    break
                new[n + c, hu + h, fl | f] += w * cw
        state = new
    out: dict[int, dict[tuple[int, int], int]] = defaultdict(dict)
    for (n, hu, fl), w in state.items():
        out[n][hu, fl] = w
    return dict(out)


def opening_tables(hand_size: int, rules: Any = None) -> dict[str, Any]:
    """Exact 起手 odds and the opening 胡數 distribution of one hand of ``hand_size`` cards.

    Returns a dict: ``kong`` (P(a dealt kong)), ``qishou`` (P(any 起手)), ``hu`` (dict
    胡 -> probability), ``mean`` (expected opening 胡).

    >>> t = opening_tables(23)
    >>> round(float(t["kong"]), 4), round(float(t["qishou"]), 4), round(float(t["mean"]), 3)
    (0.0321, 0.0456, 3.908)
    >>> sum(t["hu"].values())
    Fraction(1, 1)
    """
    r = _rules(rules)
    sigs = _turn_signatures(r)
    total_turn = sum(sigs.values())
    N = sum(c for c, _ in _kinds(r))
    pool = N - (1 if r.single_turn else 2)
    denom = total_turn * math.comb(pool, hand_size)
    kong = qishou = 0
    hu: dict[int, int] = defaultdict(int)
    for sig, tw in sigs.items():
        dist = _opening_dp(sig, hand_size).get(hand_size, {})
        for (h, fl), w in dist.items():
            ww = tw * w
            hu[h] += ww
            if fl & 1:
                kong += ww
            if fl:
                qishou += ww
    assert sum(hu.values()) == denom
    probs = {h: Fraction(w, denom) for h, w in sorted(hu.items())}
    return {"kong": Fraction(kong, denom), "qishou": Fraction(qishou, denom), "hu": probs,
            "mean": sum((h * p for h, p in probs.items()), Fraction(0))}


# ----------------------------------------------------------------------------- count-vector tables


@lru_cache(maxsize=1)
def _suit_data():
    from kaptai.nantong import _eval

    ew, d, sm = _eval.suit_tables()
    codes = np.arange(5**9, dtype=np.int64)
    w = np.ones(5**9, dtype=np.int64)
    comb4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)
    x = codes.copy()
    for _ in range(9):
        w *= comb4[x % 5]
        x //= 5
    return ew, d, sm, w


def _honour_data(honour_sequence: bool):
    from kaptai.nantong import _eval

    ew, d, sm = _eval.honour_tables(int(honour_sequence))
    codes = np.arange(125)
    comb4 = np.array([1, 4, 6, 4, 1], dtype=np.int64)
    w = comb4[codes % 5] * comb4[(codes // 5) % 5] * comb4[codes // 25]
    return ew, d, sm, w


def suit_classes(kind: str = "suit", honour_sequence: bool = False, hmax: int = 23):
    """Classes of count vectors of one suit (``'suit'``) or the honours (``'honour'``):
    arrays ``sizes`` (cards), ``profiles`` (n, 16) distances (255 = impossible) and integer
    ``weights`` (number of card sets).

    >>> sizes, profiles, weights = suit_classes()
    >>> len(sizes), int(weights.sum()) == 2 ** 36 - sum(__import__("math").comb(36, n) for n in range(24, 37))
    (346, True)
    """
    ew, d, sm, w = _suit_data() if kind == "suit" else _honour_data(honour_sequence)
    mask = sm <= hmax
    dm = d[mask].astype(np.int64)
    if kind == "suit":
        # the profile is d(0,0) = 0, increments d(m+1,p) - d(m,p) in 0..3 and
        # d(m,1) - d(m,0) in 0..2: 2 bits each, an exact integer key
        inc = dm[:, 2::2] - dm[:, 0:-2:2]
        pinc = dm[:, 1::2] - dm[:, 0::2]
        assert (dm[:, 0] == 0).all() and inc.min() >= 0 and inc.max() <= 3 and pinc.min() >= 0 and pinc.max() <= 3
        key = sm[mask].astype(np.int64)
        for j in range(inc.shape[1]):
            key = (key << 2) | inc[:, j]
        for j in range(pinc.shape[1]):
            key = (key << 2) | pinc[:, j]
        u, first, inv = np.unique(key, return_index=True, return_inverse=True)
        sizes = sm[mask][first].astype(np.int64)
        profiles = dm[first]
    else:
        keyrows = np.concatenate([sm[mask, None].astype(np.int64), dm], axis=1)
        u, first, inv = np.unique(keyrows, axis=0, return_index=True, return_inverse=True)
        sizes = keyrows[first, 0].copy()
        profiles = keyrows[first, 1:].copy()
    weights = np.zeros(len(first), dtype=np.int64)
    np.add.at(weights, inv.ravel(), w[mask])
    return sizes, profiles, weights


def _flag_classes(kind: str, honour_sequence: bool, hmax: int = 23) -> dict[tuple[int, int, int], int]:
    """(cards, exact, wait) -> weight of one suit's count vectors."""
    ew, d, sm, w = _suit_data() if kind == "suit" else _honour_data(honour_sequence)
    mask = sm <= hmax
    e = (ew[mask] >> 15).astype(np.int64)
    wt = ((ew[mask] & 0x1FF) != 0).astype(np.int64)
    key = sm[mask].astype(np.int64) * 4 + e * 2 + wt
    tot = np.bincount(key, minlength=4 * (hmax + 1))
    out = {}
    # exact integer sums (bincount with weights is float): np.add.at on int64
    acc = np.zeros(4 * (hmax + 1), dtype=np.int64)
    np.add.at(acc, key, w[mask])
    for k in np.nonzero(tot)[0]:
        out[int(k) // 4, (int(k) >> 1) & 1, int(k) & 1] = int(acc[k])
    return out


def _wild_flag_classes(rules: RuleSet) -> dict[tuple[int, int, int], int]:
    """The wild cards of the 125-card deck as a 'suit': any wild makes the hand non-exact."""
    if rules.deck != 125:
        return {(0, 1, 0): 1}
    return {(k, int(k == 0), 0): math.comb(5, k) for k in range(6)}


def natural_probability(rules: Any = None, hand_size: int = DEALER_CARDS) -> Fraction:
    """P(a uniformly random ``hand_size``-card hand, as dealt, is 1 pair + k melds).

    >>> round(float(natural_probability()) * 1e6, 3)
    2.22
    """
    r = _rules(rules)
    parts = [_flag_classes("suit", False)] * 3 + [_flag_classes("honour", r.honour_sequence), _wild_flag_classes(r)]
    # state: (cards, pairs) -> weight, exact suits only
    state = {(0, 0): 1}
    for part in parts:
        new: dict = defaultdict(int)
        for (n, p), w in state.items():
            for (m, e, _), ww in part.items():
                if e and n + m <= hand_size:
                    new[n + m, p + (m % 3 == 2)] += w * ww
        state = new
    total = sum(c for c, _ in _kinds(r))
    return Fraction(state.get((hand_size, 1), 0), math.comb(total, hand_size))


def ready_probability(rules: Any = None, hand_size: int = OTHER_CARDS) -> Fraction:
    """P(a uniformly random ``hand_size``-card hand is one card from 1 pair + k melds, that
    card having a copy outside the hand).

    >>> round(float(ready_probability()) * 1e3, 4)
    0.0424
    """
    r = _rules(rules)
    parts = [_flag_classes("suit", False)] * 3 + [_flag_classes("honour", r.honour_sequence), _wild_flag_classes(r)]
    # state: (cards, exact pair-suits, any exact pair-suit with a wait, non-exact info)
    # non-exact info: 0 none, 1 one non-exact suit with a wait and residue 1, 2 same with
    # residue 2, 3 dead (a non-exact suit without a wait, or two non-exact suits)
    state = {(0, 0, 0, 0): 1}
    for part in parts:
        new: dict = defaultdict(int)
        for (n, pe, pw, ne), w in state.items():
            for (m, e, wt), ww in part.items():
                if n + m > hand_size:
                    continue
                if e:
                    key = (n + m, pe + (m % 3 == 2), pw | int(m % 3 == 2 and wt), ne)
                else:
                    if ne != 0 or not wt:
                        nne = 3
                    else:
                        nne = 1 if m % 3 == 1 else 2
                    key = (n + m, pe, pw, nne)
                new[key] += w * ww
        state = new
    good = 0
    for (n, pe, pw, ne), w in state.items():
        if n != hand_size:
            continue
        if (ne == 0 and pe == 2 and pw) or (ne == 1 and pe == 0) or (ne == 2 and pe == 1):
            good += w
    total = sum(c for c, _ in _kinds(r))
    return Fraction(good, math.comb(total, hand_size))


def _minplus(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Min-plus convolution of profiles p (a, 16) and q (b, 16) -> (a, b, 16)."""
    a, b = p.shape[0], q.shape[0]
    out = np.full((a, b, 16), 10_000, dtype=np.int64)
    for m in range(8):
        for pp in range(2):
            j = 2 * m + pp
            for m1 in range(m + 1):
                for p1 in range(pp + 1):
                    v = p[:, None, 2 * m1 + p1] + q[None, :, 2 * (m - m1) + (pp - p1)]
                    np.minimum(out[:, :, j], v, out=out[:, :, j])
    return np.minimum(out, _INF)


def _combine(A, B, hmax: int):
    """Combine two class sets (sizes, profiles, weights as Python ints) by min-plus."""
    sa, pa, wa = A
    sb, pb, wb = B
    prof = _minplus(pa.astype(np.int64), pb.astype(np.int64))
    sizes = sa[:, None] + sb[None, :]
    ok = sizes <= hmax
    ia, ib = np.nonzero(ok)
    keys = np.concatenate([sizes[ia, ib][:, None], prof[ia, ib]], axis=1)
    u, inv = np.unique(keys, axis=0, return_inverse=True)
    weights = [0] * len(u)
    wa_l = [int(x) for x in wa]
    wb_l = [int(x) for x in wb]
    for idx, i, j in zip(inv.ravel().tolist(), ia.tolist(), ib.tolist()):
        weights[idx] += wa_l[i] * wb_l[j]
    return u[:, 0].copy(), u[:, 1:].copy(), weights


@lru_cache(maxsize=4)
def _halves(honour_sequence: bool, deck: int):
    """The class sets of 萬+條 (A) and 餅+honours(+wilds) (B), up to 23 cards."""
    suit = suit_classes("suit", hmax=DEALER_CARDS)
    hon = suit_classes("honour", honour_sequence, hmax=DEALER_CARDS)
    A = _combine(suit, suit, DEALER_CARDS)
    B = _combine(suit, hon, DEALER_CARDS)
    if deck == 125:
        wild_prof = np.full((6, 16), _INF, dtype=np.int64)
        wild_prof[:, 0] = 0
        B = _combine(B, (np.arange(6), wild_prof, [math.comb(5, k) for k in range(6)]), DEALER_CARDS)
    return A, B


@lru_cache(maxsize=8)
def _distance_counts(hand_size: int, honour_sequence: bool, deck: int) -> dict[int, int]:
    (sa, pa, wa), (sb, pb, wb) = _halves(honour_sequence, deck)
    wb = np.array(wb, dtype=np.int64)  # each < comb(53, 23) < 2**63
    k = (hand_size - 1) // 3 if hand_size % 3 == 1 else (hand_size - 2) // 3
    counts: dict[int, int] = defaultdict(int)
    for n in range(hand_size + 1):
        ia = np.nonzero(sa == n)[0]
        ib = np.nonzero(sb == hand_size - n)[0]
        if not len(ia) or not len(ib):
            continue
        P = pa[ia].astype(np.int64)
        Q = pb[ib].astype(np.int64)
        best = np.full((len(ia), len(ib)), 10_000, dtype=np.int64)
        for m in range(k + 1):
            for p in range(2):
                np.minimum(best, P[:, None, 2 * m + p] + Q[None, :, 2 * (k - m) + (1 - p)], out=best)
        best -= 1
        lo = int(best.min())
        nd = int(best.max()) - lo + 1
        # H[a, d] = sum of the B weights at distance d from class a (fits int64)
        H = np.zeros((len(ia), nd), dtype=np.int64)
        rows = np.repeat(np.arange(len(ia)), len(ib))
        np.add.at(H, (rows, (best - lo).ravel()), np.tile(wb[ib], len(ia)))
        for j in range(nd):
            col = H[:, j].tolist()
            tot = sum(int(wa[ia[i]]) * col[i] for i in range(len(ia)) if col[i])
            if tot:
                counts[lo + j] += tot
    return dict(counts)


def distance_distribution(hand_size: int, rules: Any = None) -> dict[int, Fraction]:
    """Exact distribution of the distance from ready of a uniformly random hand.

    >>> d = distance_distribution(22)
    >>> sum(d.values()), min(d), round(float(d[0]), 6) == round(float(ready_probability()), 6)
    (Fraction(1, 1), 0, True)
    """
    r = _rules(rules)
    counts = _distance_counts(int(hand_size), bool(r.honour_sequence), int(r.deck))
    total = math.comb(sum(c for c, _ in _kinds(r)), hand_size)
    assert sum(counts.values()) == total, (sum(counts.values()), total)
    return {d: Fraction(w, total) for d, w in sorted(counts.items())}


# ----------------------------------------------------------------------------- the table


def deal_odds(players: int = 3, rules: RuleSet | str | Mapping[str, Any] | None = None, *,
              metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Exact deal odds of a Nantong long-card hand (§7.1-§7.5).

    Parameters
    ----------
    players : {3, 4}
        With 4 players one sits out (no cards): the active hands are the same (dealer 23,
        two others 22) unless ``four_active``.
    rules : RuleSet, str, mapping or None
    metrics : sequence of str, optional
        A subset of :data:`METRICS` (default all).

    Returns
    -------
    pandas.DataFrame
        Columns ``game, rules, players, hand, metric, breakdown, level, value, exact,
        method``.  ``hand`` is ``'table'`` (turned cards), ``'dealer'`` (23 cards),
        ``'other'`` (22 cards) or ``'any'`` (some active hand).  Metrics:

        * ``double_jiang`` P(雙將), ``laojiang_turned`` P(at least one turned card is a
          老將), ``double_jiang_laojiang`` P(雙將 on a 老將) — hand ``'table'``;
        * ``hezi`` P(the hand holds both remaining copies of the 雙將 kind), breakdown
          ``'given_double_jiang'`` or ``'unconditional'``, per hand and ``'any'``;
        * ``kong`` P(a dealt kong), ``qishou`` P(any 起手 at the deal: a kong, the 3
          remaining copies of a 將, 和子), per hand (before replacements);
        * ``opening_hu`` the distribution of the opening 胡數 (``breakdown='hu'``, level =
          the 胡), ``opening_hu_mean`` its mean;
        * ``natural`` (dealer): the 23 dealt cards (before 翻將 and 起手) are 1 pair + 7
          melds; ``ready`` (other): the 22 dealt cards are one card from it;
        * ``distance`` the distance from ready at the deal (``breakdown='distance'``,
          level = -1 complete, 0 ready, 1, ...), dealer and other.

    Examples
    --------
    >>> df = deal_odds(3, metrics=("natural", "ready"))
    >>> df[["hand", "metric", "value"]].round(6).values.tolist()
    [['dealer', 'natural', 2e-06], ['other', 'ready', 4.2e-05]]
    """
    players = validate_players(players)
    r = _rules(rules)
    wanted = METRICS if metrics is None else tuple(as_items(metrics, "metrics", RulesError))
    bad = [m for m in wanted if not isinstance(m, str) or m not in METRICS]
    if bad:
        raise RulesError(f"unknown deal_odds metric {quote_token(bad[0])}: expected one of {', '.join(METRICS)}")
    active = r.active_players(players)
    sizes = [DEALER_CARDS] + [OTHER_CARDS] * (active - 1)
    rows: list[dict] = []

    def add(hand, metric, value: Fraction, breakdown=None, level=None):
        rows.append({"game": "nantong", "rules": r.name, "players": players, "hand": hand, "metric": metric,
                     "breakdown": breakdown, "level": level, "value": float(value),
                     "exact": f"{value.numerator}/{value.denominator}", "method": "exact"})

    t = turned_odds(r)
    for m in ("double_jiang", "laojiang_turned", "double_jiang_laojiang"):
        if m in wanted:
            add("table", m, t[m], "unconditional")
    if "hezi" in wanted:
        h = hezi_odds(sizes, r) if not r.single_turn else None
        for cond, label in (("given", "given_double_jiang"), ("unconditional", "unconditional")):
            for hand, size in (("dealer", DEALER_CARDS), ("other", OTHER_CARDS), ("any", "any")):
                add(hand, "hezi", Fraction(0) if h is None else h[cond, size], label)
    if any(m in wanted for m in ("kong", "qishou", "opening_hu", "opening_hu_mean")):
        for hand, size in (("dealer", DEALER_CARDS), ("other", OTHER_CARDS)):
            o = opening_tables(size, r)
            if "kong" in wanted:
                add(hand, "kong", o["kong"])
            if "qishou" in wanted:
                add(hand, "qishou", o["qishou"])
            if "opening_hu" in wanted:
                for hu, p in o["hu"].items():
                    add(hand, "opening_hu", p, "hu", str(hu))
            if "opening_hu_mean" in wanted:
                add(hand, "opening_hu_mean", o["mean"])
    if "natural" in wanted:
        add("dealer", "natural", natural_probability(r))
    if "ready" in wanted:
        add("other", "ready", ready_probability(r))
    if "distance" in wanted:
        for hand, size in (("dealer", DEALER_CARDS), ("other", OTHER_CARDS)):
            for d, p in distance_distribution(size, r).items():
                add(hand, "distance", p, "distance", str(d))
    return tidy_frame(rows, ODDS_COLUMNS, {"game": "nantong", "rules": r.to_dict(), "players": players})
