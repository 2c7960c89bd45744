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

*Values.*  ``samples`` layouts of the unseen cards are dealt uniformly at random (the search's
sampling, docs/nantong-engine.md, *Search*); for every layout and every discard the hand is
played to its end by the compiled engine with ``max_melds`` at every seat (the same layouts for
every discard: common random numbers).  Each option's figures are means over the layouts with
95% intervals: ``value`` is the player's net under the rules' settlement (under ``rank_only``
1 point to the hand winner, so it equals ``p_win``), ``p_win`` the chance of being the hand
winner (此局勝利者, a tie shared; Wilson interval), ``expected_hu`` the player's 胡數 total after
破頭 at the end (completed or not), ``p_complete`` the chance of completing (胡).

*Exact columns.*  ``distance`` is the exact distance from ready of the 22 cards left, ``waits``
the kinds that complete them when ready, ``live_outs`` the unseen copies of the waits.

Examples
--------
>>> from kaptai.nantong.advisor import advise
>>> df = advise("123b 234w 678t 333w qzx3 789t 99w bhx2 hh", samples=20, seed=1)
>>> hh = df[df.discard == "hh"].iloc[0]
>>> int(hh.distance), hh.waits, int(hh.live_outs), len(df)
(0, '9w bh', 4, 14)
>>> bool(df.loc[0, "value"] >= df.loc[len(df) - 1, "value"])
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.options import check_count, check_seed
from kaptai.core.stats import wilson_interval, z_value
from kaptai.errors import RulesError
from kaptai.nantong.cards import (
    MELD_TYPES,
    HandSizeError,
    MeldError,
    TooManyCopiesError,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from kaptai.nantong.config import NET_SCALE, make_config
from kaptai.nantong.evaluate import hand_counts, live_outs
from kaptai.nantong.policies import table_distance
from kaptai.nantong.rules import RuleSet, resolve_rules

__all__ = ["ADVICE_COLUMNS", "DEFAULT_ADVISE_SAMPLES", "advise"]

#: Layouts of the unseen cards per call (the default budget: a median answer well within 200 ms).
DEFAULT_ADVISE_SAMPLES = 100
#: Columns of :func:`advise`.
ADVICE_COLUMNS = ["rank", "discard", "value", "value_low", "value_high", "p_win", "p_win_low", "p_win_high",
                  "expected_hu", "hu_low", "hu_high", "p_complete", "distance", "waits", "live_outs", "samples"]

_MELD_CODE = {"pong": 0, "mkong": 1, "ckong": 2, "qishou": 3, "hezi": 4}


def _melds(text: str, jiang: tuple[int, ...]) -> list[tuple[str, int, int]]:
    """(type, kind, cards out) of each ``TYPE:CARD`` token of ``text``."""
    out = []
    double = len(jiang) == 2 and jiang[0] == jiang[1]
    for i, tok in enumerate(text.split(), 1):
        mtype, sep, card = tok.partition(":")
        mtype = mtype.lower()
        if not sep or not card:
            raise MeldError(f"meld {tok!r} (meld {i}): expected TYPE:CARD, e.g. pong:5w")
        if mtype not in MELD_TYPES:
            raise MeldError(f"unknown meld type {mtype!r} in {tok!r} (meld {i}): expected one of {', '.join(MELD_TYPES)}")
        k = parse_card(card)
        if mtype in ("qishou", "hezi") and not jiang:
            raise MeldError(f"meld {tok!r}: a {mtype} depends on the turned cards; give them with jiang")
        is_jiang = k in jiang
        if mtype == "hezi":
            if not (double and is_jiang):
                raise MeldError(f"meld {tok!r}: hezi is the 2 remaining copies of the 雙將 card")
            n = 2
        elif mtype == "qishou":
            if is_jiang and double:
                raise MeldError(f"meld {tok!r}: qishou:{format_card(k)} is a 雙將 card: use hezi:{format_card(k)}")
            n = 3 if is_jiang else 4
        elif is_jiang:
            left = 2 if double else 3
            need = 3 if mtype == "pong" else 4
            if need > left:
                raise MeldError(f"meld {tok!r}: {mtype}:{format_card(k)} needs {need} copies but only {left} remain")
            n = need
        else:
            n = 3 if mtype == "pong" else 4
        out.append((mtype, k, n))
    return out


def _mean_ci(s1: float, s2: float, n: int, z: float) -> tuple[float, float, float]:
    mean = s1 / n
    if n < 2:
        return mean, math.nan, math.nan
    var = max(s2 - s1 * s1 / n, 0.0) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def advise(hand: Any, seen: Any = "", rules: RuleSet | str | None = None, *, melds: str = "", jiang: Any = "",
           players: int = 3, samples: int = DEFAULT_ADVISE_SAMPLES, seed: int | None = 0) -> pd.DataFrame:
    """Every discard of ``hand`` with its value, P(win), expected 胡數, distance and live outs.

    Parameters
    ----------
    hand : str or sequence of kinds
        The concealed hand after the draw (notation of docs/nantong.md, e.g. ``"123b qzx3"``);
        with ``melds`` it makes 23 units.
    seen : str, optional
        Every other card face up: discards, the other seats' exposed sets.
    rules : RuleSet or str, optional
        The rules (the settlement decides ``value``; default the preset ``nantong``).
    melds : str, optional
        The player's own exposed sets, ``TYPE:CARD`` tokens (``pong:5w ckong:6w``; ``qishou``
        and ``hezi`` need ``jiang``).
    jiang : str, optional
        The turned cards (翻將), e.g. ``"5w 7b"``; empty: unknown, sampled with the unseen cards.
    players : int
        3 or 4 (4 seats a sitter; 3 active seats play either way).
    samples : int
        Layouts of the unseen cards (the budget).
    seed : int or None
        Seed of the layouts (0 by default: the same answer every time).

    Returns
    -------
    pandas.DataFrame
        :data:`ADVICE_COLUMNS`, one row per kind held, best ``value`` first (ties: the smaller
        distance, then the higher kind).  ``attrs``: ``rules``, ``settlement``, ``samples``,
        ``seed``, ``unseen``, ``stock``, ``model``.

    Raises
    ------
    InvalidCardError, TooManyCopiesError, HandSizeError, MeldError, RulesError
        A token that is not a card (named), more copies than the deck holds in hand + melds +
        seen + jiang, a hand that is not 23 units, a bad meld, a position with no stock left.

    Examples
    --------
    >>> df = advise("11w 234w 567w 789w 11t 234t 567t 9t qz bh 5b", samples=10)
    >>> sorted(df.discard)[:3], len(df)
    (['1t', '1w', '2t'], 20)
    >>> advise("11w 234w 10w", samples=10)
    Traceback (most recent call last):
    ...
    kaptai.nantong.cards.InvalidCardError: unknown card token '10w' (item 3)
    """
    from kaptai.nantong import _engine

    r = rules if isinstance(rules, RuleSet) else resolve_rules(rules)
    samples = check_count("samples", samples, 1)
    entropy = check_seed(seed)
    cfg = make_config(players, r)
    h = hand_counts(hand).astype(np.int64)
    s = hand_counts(seen).astype(np.int64) if (not isinstance(seen, str) or seen.strip()) else np.zeros(30, np.int64)
    jt = tuple(parse_cards(jiang)) if (not isinstance(jiang, str) or jiang.strip()) else ()
    nt = 1 if r.single_turn else 2
    if jt and len(jt) != nt:
        raise RulesError(f"jiang={format_cards(jt)!r}: expected {nt} turned card{'s' if nt > 1 else ''}")
    ms = _melds(melds, jt) if melds and melds.strip() else []
    used = h + s
    for k in jt:
        used[k] += 1
    for _, k, n in ms:
        used[k] += n
    over = np.nonzero(used > 4)[0]
    if over.size:
        k = int(over[0])
        raise TooManyCopiesError(f"card {format_card(k)!r} used {int(used[k])} times in hand + melds + seen + jiang; "
                                 f"the deck has 4")
    counted = sum(1 for t, k, _ in ms if not (t == "hezi" or (t == "qishou" and k in jt and cfg.jiang_set_replacement == 3)))
    units = int(h.sum()) + 3 * counted
    if units != 23:
        raise HandSizeError(f"hand + melds = {units} units (kong = 3, hezi = 0); expected 23: the hand after the draw, "
                            f"before the discard")
    pub = s.copy()
    for _, k, n in ms:
        pub[k] += n
    unseen = int(120 - h.sum() - pub.sum() - len(jt))
    stock = unseen - (0 if jt else nt) - 22 * (cfg.active - 1)
    if stock < 1 + cfg.reserve:
        raise RulesError(f"{int(s.sum())} seen cards leave no stock: the other hands hold 22 cards each and "
                         f"{unseen} cards are unseen")
    bitgen = np.random.PCG64(np.random.SeedSequence(entropy))
    cand, res = _engine.advise_position(cfg, 0, h.astype(np.uint8), [(_MELD_CODE[t], k) for t, k, _ in ms],
                                        pub.astype(np.int64), list(jt), samples, bitgen)  # the engine adds jt
    z = z_value(0.95)
    rows = []
    for i, k in enumerate(cand):
        s1, s2, w, comp, hu1, hu2 = (float(x) for x in res[i])
        v, vlo, vhi = _mean_ci(s1 / NET_SCALE, s2 / NET_SCALE ** 2, samples, z)
        p = w / NET_SCALE / samples
        plo, phi = wilson_interval(w / NET_SCALE, samples)
        hu, hlo, hhi = _mean_ci(hu1, hu2, samples, z)
        rest = h.copy()
        rest[k] -= 1
        ws, outs = live_outs(rest.astype(np.uint8), seen=np.minimum(used - h, 4).astype(np.uint8), rules=r)
        rows.append({"discard": format_card(k), "value": v, "value_low": vlo, "value_high": vhi, "p_win": p,
                     "p_win_low": float(plo), "p_win_high": float(phi), "expected_hu": hu, "hu_low": hlo,
                     "hu_high": hhi, "p_complete": comp / samples,
                     "distance": table_distance([int(x) for x in rest], int(r.honour_sequence)),
                     "waits": " ".join(format_card(x) for x in ws), "live_outs": int(outs), "samples": samples,
                     "_order": i})
    df = pd.DataFrame(rows)
    df = df.sort_values(["value", "_order"], ascending=[False, True], kind="mergesort").reset_index(drop=True)
    df.insert(0, "rank", np.arange(1, len(df) + 1))
    df = df[ADVICE_COLUMNS]
    df.attrs.update(rules=r.to_dict(), settlement=r.settlement, samples=samples, seed=entropy, unseen=unseen,
                    stock=stock, model="determinized rollouts: max_melds at every seat (kaptai.nantong.advisor)")
    return df
