"""The discard advisor of Nantong long cards (南通長牌): every discard, rolled out by the search.

A player holds a hand after the draw and sees some cards face up.  :func:`advise` answers
"which card should I discard": for every kind it holds, the chance of winning the hand, the
expected result and 胡數, the distance from ready and the live outs of what is left.

Model
-----
*Position.*  The player is engine seat 0 (the order of play only decides who claims first),
about to discard: its concealed hand plus its exposed sets make 23 units (a kong counting 3,
和子 0).  The two other active seats hold 22 concealed cards each and no sets.  ``seen`` is every
other card face up (discards, the other seats' sets); ``jiang`` the turned cards (翻將), if
known.  Every other card is *unseen*: the other hands, the stock and, when ``jiang`` is not
given, the turned cards; the stock is whatever is left of them.

*Values.*  Layouts of the unseen cards are dealt uniformly at random (the search's
sampling, docs/nantong-engine.md, *Search*); for every layout and every discard the hand is
played to its end by the compiled engine with ``max_melds`` at every seat (the same layouts for
every discard: common random numbers).  Each option's figures are means over the layouts with
95% intervals: ``value`` is the player's net under the rules' settlement (under ``rank_only``
1 point to the hand winner, so it equals ``p_win``), ``p_win`` the chance of being the hand
winner (此局勝利者, a tie shared; Wilson interval), ``expected_hu`` the player's 胡數 total after
破頭 at the end (completed or not), ``p_complete`` the chance of completing (胡).

*Budget.*  Layouts are drawn in batches of :data:`BATCH` until the best option's lead over the
second is resolved (the paired 95% interval of the difference of values excludes 0) or the time
budget (150 ms) is spent, or exactly ``samples`` (:mod:`kaptai.core.advise`); ``vs_best`` is each
option's paired difference to the best.  The sampling cannot separate discards whose values
differ by a few hundredths at a budget of ~50 layouts, so the options it cannot tell from the best
are ranked by the exact distance from ready first (a ready hand first), then the live outs, then
the value (see *Returns*).

*A complete hand* is a win (自摸): its row ``win`` gives the self-drawn win now, with its 胡數
(the best reading of the drawn card) and its value and P(hand winner) on sampled hands of the
other seats (their 胡數 as non-completers; the turned cards sampled when not given).

*Exact columns.*  ``distance`` is the exact distance from ready of the 22 cards left, ``waits``
the kinds that complete them when ready, ``live_outs`` the unseen copies of the waits.  The first
two count the copies the player can still hold: 4 of a kind less its own exposed sets' copies and
the turned cards (a kind all of whose copies are in the hand, those sets or turned is no wait and
no way to ready); the cards seen elsewhere (discards, the other seats' sets) count only in
``live_outs`` (a wait whose last copies are there shows 0 live outs).

Examples
--------
>>> from kaptai.nantong.advisor import advise
>>> df = advise("123b 234w 678t 333w qzx3 789t 99w bhx2 hh", samples=16, seed=1)
>>> hh = df[df.discard == "hh"].iloc[0]
>>> int(hh.distance), hh.waits, int(hh.live_outs), len(df)
(0, '9w bh', 4, 14)
>>> bool(df.loc[0, "value"] >= df.loc[len(df) - 1, "value"])
True
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.advise import DEFAULT_BUDGET_MS, check_budget_ms, check_samples, paired_budget
from kaptai.core.options import check_seed
from kaptai.core.stats import wilson_interval, z_value
from kaptai.errors import RulesError, quote_token
from kaptai.nantong.cards import (
    MELD_TYPES,
    HandSizeError,
    Meld,
    MeldError,
    TooManyCopiesError,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from kaptai.nantong.config import NET_SCALE, make_config
from kaptai.nantong.evaluate import distance_many, hand_counts, is_complete, live_outs
from kaptai.nantong.rules import RuleSet, resolve_rules
from kaptai.nantong.scoring import meld_units

__all__ = ["ADVICE_COLUMNS", "BATCH", "DEFAULT_ADVISE_SAMPLES", "advise"]

#: The fixed layout count ``benchmarks/bench_nantong.py`` times (the advisor's default is the time budget).
DEFAULT_ADVISE_SAMPLES = 100
#: Layouts per batch of the sampling budget (:mod:`kaptai.core.advise`; a batch takes ~10-40 ms).
BATCH = 4
#: Columns of :func:`advise`.
ADVICE_COLUMNS = ["rank", "discard", "value", "value_low", "value_high", "vs_best", "vs_best_low", "vs_best_high",
                  "p_win", "p_win_low", "p_win_high", "expected_hu", "hu_low", "hu_high", "p_complete", "distance",
                  "waits", "live_outs", "samples"]

_MELD_CODE = {"pong": 0, "mkong": 1, "ckong": 2, "qishou": 3, "hezi": 4}


def _melds(text: str, jiang: tuple[int, ...]) -> list[tuple[str, int, int]]:
    """(type, kind, cards out) of each ``TYPE:CARD`` token of ``text``."""
    out = []
    double = len(jiang) == 2 and jiang[0] == jiang[1]
    for i, tok in enumerate(text.split(), 1):
        mtype, sep, card = tok.partition(":")
        mtype = mtype.lower()
        if not sep or not card:
            raise MeldError(f"meld {quote_token(tok)} (meld {i}): expected TYPE:CARD, e.g. pong:5w")
        if mtype not in MELD_TYPES:
            raise MeldError(f"unknown meld type {quote_token(mtype)} in {quote_token(tok)} (meld {i}): expected one of {', '.join(MELD_TYPES)}")
        k = parse_card(card)
        if mtype in ("qishou", "hezi") and not jiang:
            raise MeldError(f"meld {quote_token(tok)}: a {mtype} depends on the turned cards; give them with jiang")
        is_jiang = k in jiang
        if mtype == "hezi":
            if not (double and is_jiang):
                raise MeldError(f"meld {quote_token(tok)}: hezi is the 2 remaining copies of the 雙將 card")
            n = 2
        elif mtype == "qishou":
            if is_jiang and double:
                raise MeldError(f"meld {quote_token(tok)}: qishou:{format_card(k)} is a 雙將 card: use hezi:{format_card(k)}")
            n = 3 if is_jiang else 4
        elif is_jiang:
            left = 2 if double else 3
            need = 3 if mtype == "pong" else 4
            if need > left:
                raise MeldError(f"meld {quote_token(tok)}: {mtype}:{format_card(k)} needs {need} copies but only {left} remain")
            n = need
        else:
            n = 3 if mtype == "pong" else 4
        out.append((mtype, k, n))
    return out


def _others(text: str, jiang: tuple[int, ...], active: int) -> list[list[tuple[str, int, int]]]:
    """The other active seats' sets of ``others`` (``;`` between seats, turn order from the next
    seat), one list per other seat (empty text: no sets anywhere)."""
    parts = text.split(";")
    if len(parts) > active - 1:
        raise MeldError(f"others: {len(parts)} seats given ({quote_token(text)}); there are {active - 1} other "
                        f"active seats (';' between seats, the next seat first)")
    out = []
    for i, part in enumerate(parts, 1):
        try:
            out.append(_melds(part, jiang) if part.strip() else [])
        except MeldError as exc:
            raise MeldError(f"others, seat {i} after you: {exc}") from None
    return out + [[] for _ in range(active - 1 - len(out))]


def _text_arg(name: str, value: Any, *, seq: bool = True) -> None:
    """``value`` must be notation (a string), or with ``seq`` a sequence of kinds / counts."""
    ok = isinstance(value, str) or (seq and isinstance(value, (list, tuple, np.ndarray)))
    if not ok:
        raise RulesError(f"{name}={quote_token(value)} is not allowed: expected "
                         + ("card notation such as '123b qzx3' or a sequence of kinds" if seq else
                            "TYPE:CARD tokens such as 'pong:5w ckong:6w'"))


def _win_score(hand: tuple[int, ...], ms: list[tuple[str, int, int]], jiang: tuple[int, ...], r: RuleSet,
               order: list[int]) -> tuple[int, int]:
    """(胡數 total, raw) of the complete hand won by self-draw: the best reading of the winning card
    (the card just drawn is not typed).  Every kind held is tried the first time (``order`` empty;
    it is then filled with the kinds, best first); afterwards, for other turned cards, the three
    best kinds of that first reading."""
    from kaptai.nantong.cards import ScoreRecord
    from kaptai.nantong.scoring import score

    melds = tuple(Meld(t, k) for t, k, _ in ms)
    kinds = order[:3] if order else sorted(set(hand))
    scored = []
    for wc in kinds:
        sc = score(ScoreRecord(jiang=jiang, win="self", win_card=wc, hand=hand, melds=melds), r)
        scored.append((sc.total, sc.raw, wc))
    if not order:
        order.extend(wc for _, _, wc in sorted(scored, key=lambda x: (-x[0], -x[1])))
    total, raw, _ = max(scored)
    return int(total), int(raw)


def advise(hand: Any, seen: Any = "", rules: RuleSet | str | None = None, *, melds: str = "", jiang: Any = "",
           others: str = "", players: int = 3, samples: int | None = None, seed: int | None = 0,
           budget_ms: float = DEFAULT_BUDGET_MS) -> pd.DataFrame:
    """Every discard of ``hand`` with its value, P(win), expected 胡數, distance and live outs;
    a complete hand first gets the row ``win`` (自摸, the self-drawn win now).

    Parameters
    ----------
    hand : str or sequence of kinds
        The concealed hand after the draw (notation of docs/nantong.md, e.g. ``"123b qzx3"``);
        with ``melds`` it makes 23 units.
    seen : str, optional
        Every other card face up: the discards, and the other seats' exposed sets unless they are
        given in ``others``.
    rules : RuleSet or str, optional
        The rules (the settlement decides ``value``; default the preset ``nantong``).
    melds : str, optional
        The player's own exposed sets, ``TYPE:CARD`` tokens (``pong:5w ckong:6w``; ``qishou``
        and ``hezi`` need ``jiang``).
    jiang : str, optional
        The turned cards (翻將), e.g. ``"5w 7b"``; empty: unknown, sampled with the unseen cards.
    others : str, optional
        The other active seats' exposed sets, seat by seat in turn order from the next seat, ``;``
        between seats, each as ``melds`` (``"pong:5w; mkong:9t pong:qz"``: the next seat shows a
        pong of 5w, the one after a kong and a pong).  Their cards count as face up (leave them
        out of ``seen``), and each of those seats holds 22 concealed cards less 3 a set (a kong
        counting 3, 和子 0) and plays and scores with its sets.  Empty (the default): each other
        seat holds 22 concealed cards and no sets, and any sets it shows belong in ``seen``.
    players : int
        3 or 4 (4 seats a sitter; 3 active seats play either way).
    samples : int, optional
        A fixed number of layouts of the unseen cards (1-100,000); default None: layouts are drawn
        in batches of :data:`BATCH` until the best option's lead over the second is resolved
        (paired 95% interval of the value) or ``budget_ms`` is spent (:mod:`kaptai.core.advise`).
    seed : int or None
        Seed of the layouts (0 by default: the same answer every time; a budgeted answer that used
        N layouts is reproduced by ``samples=N``).
    budget_ms : float
        The time budget without ``samples``.

    Returns
    -------
    pandas.DataFrame
        :data:`ADVICE_COLUMNS`, one row per kind held (and ``win`` for a complete hand), best
        first: the options whose value the sampling cannot tell from the best one's (the paired
        95% interval of ``vs_best`` reaches 0) come first, ranked among themselves by the exact
        ``distance`` from ready (a ready hand first), then ``live_outs``, then ``value``; the
        others follow by ``value``.  Equal keys share a rank (competition ranking, "1224").  ``value`` is the net under the settlement (points;
        under ``rank_only`` the win share, the same quantity as ``p_win`` with the same Wilson
        interval), ``vs_best`` its paired difference to the best option.  ``attrs``: ``rules``,
        ``settlement``, ``samples``, ``stop``, ``seed``, ``unseen``, ``stock``, ``model``.

    Raises
    ------
    InvalidCardError, TooManyCopiesError, HandSizeError, MeldError, RulesError
        A token that is not a card (named), more copies than the deck holds in hand + melds +
        seen + jiang, a hand that is not 23 units, a bad meld, a position with no stock left,
        an argument of the wrong type, samples/seed/budget out of bounds.

    Examples
    --------
    >>> df = advise("11w 234w 567w 789w 11t 234t 567t 9t qz bh 5b", samples=10)
    >>> sorted(df.discard)[:3], len(df)
    (['1t', '1w', '2t'], 20)
    >>> w = advise("123w 456w 789w 123t 456t 789t 123b 55b", jiang="5w 7b", samples=16)
    >>> r = w.iloc[0]
    >>> int(r["rank"]), r.discard, float(r.expected_hu), float(r.p_complete), float(r.p_win)
    (1, 'win', 180.0, 1.0, 1.0)
    >>> advise("11w 234w 10w", samples=10)
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.InvalidCardError: unknown card token '10w' (item 3)
    """
    from kaptai.nantong import _engine

    start = time.perf_counter()
    r = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    samples = check_samples(samples)
    budget_ms = check_budget_ms(budget_ms)
    entropy = check_seed(seed)
    cfg = make_config(players, r)
    _text_arg("hand", hand)
    seen = "" if seen is None else seen
    jiang = "" if jiang is None else jiang
    melds = "" if melds is None else melds
    _text_arg("seen", seen)
    _text_arg("jiang", jiang)
    _text_arg("melds", melds, seq=False)
    others = "" if others is None else others
    _text_arg("others", others, seq=False)
    h = hand_counts(hand).astype(np.int64)
    s = hand_counts(seen).astype(np.int64) if (not isinstance(seen, str) or seen.strip()) else np.zeros(30, np.int64)
    jt = tuple(parse_cards(jiang)) if (not isinstance(jiang, str) or jiang.strip()) else ()
    nt = 1 if r.single_turn else 2
    if jt and len(jt) != nt:
        raise RulesError(f"jiang={quote_token(format_cards(jt))}: expected {nt} turned card{'s' if nt > 1 else ''}")
    ms = _melds(melds, jt) if melds.strip() else []
    oms = _others(others, jt, cfg.active)
    shown = ms + [m for om in oms for m in om]  # every seat's sets: (type, kind, cards)
    used = h + s
    for k in jt:
        used[k] += 1
    for _, k, n in shown:
        used[k] += n
    over = np.nonzero(used > 4)[0]
    if over.size:
        k = int(over[0])
        raise TooManyCopiesError(f"card {format_card(k)!r} used {int(used[k])} times in hand + melds + others + seen "
                                 f"+ jiang; the deck has 4")

    def units(sets: list[tuple[str, int, int]]) -> int:
        return sum(meld_units(t, k, jt, r) for t, k, _ in sets)

    held = int(h.sum()) + units(ms)
    if held != 23:
        raise HandSizeError(f"hand + melds = {held} units (kong = 3, hezi = 0); expected 23: the hand after the draw, "
                            f"before the discard")
    pub = s.copy()
    for _, k, n in shown:
        pub[k] += n
    sizes = [22 - units(om) for om in oms]  # 22 each without others
    for i, (om, size) in enumerate(zip(oms, sizes), 1):
        if size < 1:
            raise MeldError(f"others: seat {i} after you shows {len(om)} sets, {units(om)} units; a seat "
                            f"holds 22 units between turns and at least one concealed card")
    unseen = int(120 - h.sum() - pub.sum() - len(jt))
    stock = unseen - (0 if jt else nt) - sum(sizes)
    if stock < cfg.reserve:  # stock == reserve: the last discard of the hand (only claims can follow)
        if others.strip():
            up = int(s.sum()) + sum(n for om in oms for _, _, n in om)
            raise RulesError(f"{up} cards seen and shown by the other seats leave no stock: the other hands hold "
                             f"{' and '.join(map(str, sizes))} concealed cards and {unseen} cards are unseen")
        raise RulesError(f"{int(s.sum())} seen cards leave no stock: the other hands hold 22 cards each and "
                         f"{unseen} cards are unseen")
    complete = bool(is_complete(h.astype(np.uint8), r))
    hand_t = tuple(k for k in range(30) for _ in range(int(h[k])))
    pool = np.repeat(np.arange(30), np.maximum(4 - used, 0))
    win_cache: dict[tuple[int, ...], tuple[int, int]] = {}
    win_order: list[int] = []
    meld_arg = [(_MELD_CODE[t], k) for t, k, _ in ms]
    others_arg = [(size, [(_MELD_CODE[t], k) for t, k, _ in om]) for size, om in zip(sizes, oms)]
    omelds = [tuple(Meld(t, k) for t, k, _ in om) for om in oms]
    h8, pub64 = h.astype(np.uint8), pub.astype(np.int64)
    cand_box: list[list[int]] = []

    def win_values(bg: np.random.PCG64, n: int) -> np.ndarray:
        """(4, n): the self-drawn win now on n layouts of the other hands (and the turned cards)."""
        from kaptai.nantong.cards import ScoreRecord
        from kaptai.nantong.scoring import hand_winners, score, settle

        rng = np.random.Generator(bg)
        out = np.zeros((4, n))
        others = cfg.active - 1
        for t in range(n):
            perm = rng.permutation(pool)
            turned = jt if jt else tuple(int(x) for x in perm[:nt])
            rest = perm[0 if jt else nt:]
            if turned not in win_cache:
                win_cache[turned] = _win_score(hand_t, ms, turned, r, win_order)
            totals, raws = [win_cache[turned][0]], [win_cache[turned][1]]
            at = 0
            for q in range(others):
                oh = tuple(sorted(int(x) for x in rest[at: at + sizes[q]]))
                at += sizes[q]
                sc = score(ScoreRecord(jiang=turned, win="none", win_card=None, hand=oh, melds=omelds[q]), r)
                totals.append(sc.total)
                raws.append(sc.raw)
            winners = hand_winners(totals, [True] + [False] * others, r, raws=raws)
            net = float(settle(totals, winners, r)[0]) if r.settlement != "rank_only" else 0.0
            share = 1.0 / len(winners) if 0 in winners else 0.0
            out[:, t] = (share if r.settlement == "rank_only" else net, share, totals[0], 1.0)
        return out

    def evaluate(bg: np.random.PCG64, n: int) -> np.ndarray:
        rows = []
        for _t in range(n):  # one layout per call: per-layout values for the paired differences
            cand, res = _engine.advise_position(cfg, 0, h8, meld_arg, pub64, list(jt), 1, bg,  # the engine adds jt
                                                others_arg)
            cand_box[:] = [list(cand)]
            rows.append(res[:, [0, 2, 4, 3]].astype(np.float64) / (NET_SCALE, NET_SCALE, 1, 1))
        v = np.stack(rows, axis=2).transpose(1, 0, 2)  # (quantities, options, n)
        if r.settlement == "rank_only":
            v[0] = v[1]
        if complete:
            v = np.concatenate([win_values(bg, n)[:, None, :], v], axis=1)
        return v

    n_cand = int((h > 0).sum())
    # distance and waits count the copies the player can still hold: 4 less its own exposed sets'
    # copies and the turned cards (a kind all of whose copies are there is no wait and no way to
    # ready); the cards seen elsewhere (discards, the others' sets) only reduce the live outs
    caps = np.full(30, 4, np.int64)
    for _, k, n in ms:
        caps[k] -= n
    for k in jt:
        caps[k] -= 1
    seen_before = used - h - (4 - caps)  # seen + the other seats' sets
    exact: dict[int, tuple[int, str, int]] = {-1: (-1, "", 0)}  # per kind: distance, waits, live outs (before
    kinds = [int(x) for x in np.flatnonzero(h)]                   # the sampling: the budget covers them)
    rests = np.repeat(h[None, :], len(kinds), axis=0)
    rests[np.arange(len(kinds)), kinds] -= 1
    dists = distance_many(rests, rules=r, caps=caps)
    for i, kind in enumerate(kinds):
        seen = seen_before.copy()
        seen[kind] += 1  # the card thrown is face up: not a live out
        wk, outs = live_outs(rests[i].astype(np.uint8), seen=seen.astype(np.uint8), rules=r, caps=caps)
        exact[kind] = (int(dists[i]), " ".join(format_card(x) for x in wk), int(outs))
    res = paired_budget(evaluate, n_cand + complete, seed=entropy, samples=samples, budget_ms=budget_ms,
                        batch=BATCH, min_samples=2 * BATCH, start=start)
    n = res.samples
    z = z_value(0.95)
    keys = ([-1] if complete else []) + cand_box[0]
    mean = res.means(0)
    vlo, vhi = res.interval(0, z)
    hlo, hhi = res.interval(2, z)
    plo, phi = wilson_interval(res.sums[1], n, 0.95)
    if r.settlement == "rank_only":  # value is the win share: the same quantity, the same interval
        vlo, vhi = np.asarray(plo, dtype=np.float64), np.asarray(phi, dtype=np.float64)
    d, dlo, dhi = res.vs_best(z)
    rows = []
    for i, k in enumerate(keys):
        dist, ws, outs = exact[int(k)]
        rows.append({"discard": "win" if k < 0 else format_card(k), "value": float(mean[i]),
                     "value_low": float(vlo[i]) if n > 1 else math.nan, "value_high": float(vhi[i]) if n > 1 else math.nan,
                     "vs_best": float(d[i]), "vs_best_low": float(dlo[i]), "vs_best_high": float(dhi[i]),
                     "p_win": float(res.sums[1][i] / n), "p_win_low": float(plo[i]), "p_win_high": float(phi[i]),
                     "expected_hu": float(res.means(2)[i]), "hu_low": float(hlo[i]), "hu_high": float(hhi[i]),
                     "p_complete": float(res.means(3)[i]), "distance": int(dist), "waits": ws, "live_outs": int(outs),
                     "samples": n, "_order": i})
    df = pd.DataFrame(rows)
    # the options the sampling cannot tell from the best (paired 95% interval of the difference
    # reaching 0) are ranked among themselves by the exact distance from ready, then the live
    # outs, then the value; the others follow by value
    top = ~(df["vs_best_high"] < 0)
    df["_g"] = np.where(top, 0, 1)
    df["_d"] = np.where(top, df["distance"], 0)
    df["_o"] = np.where(top, -df["live_outs"], 0)
    df = df.sort_values(["_g", "_d", "_o", "value", "distance", "_order"],
                        ascending=[True, True, True, False, True, True], kind="mergesort").reset_index(drop=True)
    key = list(zip(df["_g"], df["_d"], df["_o"], -df["value"]))
    df.insert(0, "rank", [1 + sum(1 for other in key if other < mine) for mine in key])
    df = df[ADVICE_COLUMNS]
    df.attrs.update(rules=r.to_dict(), settlement=r.settlement, seed=entropy, unseen=unseen, stock=stock,
                    complete=complete, unit="points (net under the settlement)" if r.settlement != "rank_only"
                    else "win share", **res.attrs(),
                    model="determinized rollouts: max_melds at every seat (kaptai.nantong.advisor)")
    return df
