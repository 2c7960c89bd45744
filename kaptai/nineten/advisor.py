"""The nine-ten (九支十仔) advisor: claim or not, then every discard, by the search player's rollouts.

From a position a player can type -- the hand, the cards seen and the card just offered, if
any -- :func:`advise` values every move the rules leave open with the layouts and rollouts
of the ``search`` policy (``docs/nine-ten-engine.md``, "search"): ``samples`` layouts of the
cards the player has not seen, consistent with what it has seen, each option played on every
layout (the same layouts for every option) and the rest of the hand played by ``colour_cut``
at every seat; the value of an option is the mean net result of the player in 頭 under the
rules' settlement, with its P(win), both with 95% intervals.

Model of a typed position
-------------------------
* The player is seat 0 of ``players`` and holds ``hand`` concealed (no dead card: a dead card
  would be a forced discard, nothing to advise).
* ``seen`` are cards out of play face up (discards left unclaimed, flips, other players' dead
  cards and claimed pairs): the rollouts take them out of play.  Every seen kind has been
  offered, so every other hand holds an even number of it (the parity rule of the layouts).
* Every other seat holds 9 cards concealed; the stock is what remains (it must keep at least
  the reserve, 9 cards by default).
* ``offered`` is the card the previous player (seat ``players - 1``) has just discarded.  A
  player holding a single of it must claim it (it is first in turn; not claiming is a foul,
  §4.6), so the advice is the claim -- a win if it completes five pairs -- and then every
  discard; a player without a single of it cannot claim, and the advice gives the value of
  letting it pass.

Examples
--------
>>> from kaptai.nineten.advisor import advise
>>> df = advise("RKx2 RA YAx2 GE WC WP GK GA", seen="RE YE", samples=200, seed=1)
>>> list(df.columns[:4]), len(df)
(['rank', 'action', 'discard', 'ev'], 6)
>>> bool(df.ev.is_monotonic_decreasing), int(df.attrs["samples"])
(True, 200)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.stats import wilson_interval, z_value
from kaptai.errors import InvalidHandError, RulesError
from kaptai.nineten.cards import N_KINDS, format_card, parse_cards, parse_hand
from kaptai.nineten.config import SEARCH_ROLLOUT, make_config
from kaptai.nineten.rules import RuleSet, resolve_rules
from kaptai.nineten.scoring import score_components

__all__ = ["ADVICE_COLUMNS", "ADVISE_SAMPLES", "advise"]

#: Default layouts per advice (the median answer stays within 200 ms on one core).
ADVISE_SAMPLES = 1000
#: Columns of :func:`advise`.
ADVICE_COLUMNS = ["rank", "action", "discard", "ev", "ev_low", "ev_high", "p_win", "p_win_low", "p_win_high",
                  "forced", "samples"]


def _counts(text: Any, what: str) -> np.ndarray:
    try:
        return parse_hand(text).astype(np.int64)
    except InvalidHandError as e:
        raise InvalidHandError(f"{what}: {e}") from None


def _win_now(rules: RuleSet, held: np.ndarray, kz_wait: bool) -> int:
    """頭 of a hand completed on a discard (the discarder pays): colours and the 開招 wait."""
    colours = len({k // 7 for k in range(N_KINDS) if held[k] >= 2})
    return int(sum(score_components(rules, colours, "discard", 0, 0, kz_wait).values()))


def advise(hand: Any, seen: Any = "", offered: Any = None, *, players: int = 4,
           rules: RuleSet | str | None = None, samples: int = ADVISE_SAMPLES, seed: int = 0,
           engine: str = "compiled") -> pd.DataFrame:
    """Every open move of a typed position, valued by the search's layouts and rollouts.

    Parameters
    ----------
    hand : str or iterable
        10 cards (a turn to discard) or 9 with ``offered``; any notation of
        :func:`kaptai.nineten.cards.parse_cards`.
    seen : str or iterable
        Cards seen face up outside the hand (out of play).
    offered : str, optional
        The card the previous player has just discarded.
    players : int
        4-7 (the 10/9 deal).
    rules : RuleSet or preset name
    samples : int
        Layouts (the budget), 1 to 100,000.
    seed : int
        Seed of the layouts (the same seed gives the same table).
    engine : {'compiled', 'reference'}
        The reference engine gives the same numbers, slowly (tests).

    Returns
    -------
    pandas.DataFrame
        One row per option, best first (``rank`` 1; ties share a rank): ``action`` (``discard``,
        ``claim`` (the claim itself, when it wins or leaves nothing open), ``claim+discard``,
        ``pass``), ``discard`` (the card thrown, ASCII), ``ev`` (mean net 頭 of the player) with
        its normal 95% interval ``ev_low``/``ev_high``, ``p_win`` with its Wilson interval,
        ``forced`` (the rules leave no choice), ``samples``.  ``attrs``: the position, rules,
        players, seed, stock, the model.

    Raises
    ------
    InvalidCardError
        A token that is not a card (named).
    InvalidHandError
        A wrong hand size, five pairs already, more than 4 copies of a card over the hand,
        ``seen`` and ``offered``.
    RulesError
        A bad player count, ruleset, ``samples`` or ``seed``, or so many cards seen that the
        stock would be under the reserve.

    Examples
    --------
    >>> from kaptai.nineten.advisor import advise
    >>> advise("RKx2 RA YAx2 GE WC WP GK", offered="RA", samples=100)[["action", "discard", "forced"]].head(2)
              action discard  forced
    0  claim+discard      WC   False
    1  claim+discard      WP   False
    >>> advise("RKx2 RA YAx2 GE WC WP GK GA", seen="RX")
    Traceback (most recent call last):
    ...
    kaptai.nineten.cards.InvalidCardError: seen: unknown card token 'RX' (item 1)
    """
    rules = resolve_rules(rules)
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 4 <= players <= 7:
        raise RulesError(f"players={players!r}: the advisor plays the 10/9 deal of 4-7 players")
    cfg = make_config(int(players), rules, samples=samples)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise RulesError(f"seed={seed!r}: expected a whole number from 0 to 2^63-1")
    if engine not in ("compiled", "reference"):
        raise RulesError(f"engine={engine!r}: expected 'compiled' or 'reference'")
    from kaptai.nineten.cards import InvalidCardError

    def parsed(text: Any, what: str) -> np.ndarray:
        try:
            ks = parse_cards(text)
        except InvalidCardError as e:
            raise InvalidCardError(f"{what}: {e}") from None
        return np.bincount(np.array(ks, dtype=np.int64), minlength=N_KINDS) if ks else np.zeros(N_KINDS, np.int64)

    held = parsed(hand, "hand")
    seen_c = parsed(seen if seen is not None else "", "seen")
    off = None
    if offered is not None and str(offered).strip():
        oc = parsed(offered, "offered")
        if int(oc.sum()) != 1:
            raise InvalidHandError(f"offered: give one card, got {int(oc.sum())}")
        off = int(np.flatnonzero(oc)[0])
    total = held + seen_c + (np.eye(N_KINDS, dtype=np.int64)[off] if off is not None else 0)
    bad = np.flatnonzero(total > 4)
    if bad.size:
        k = int(bad[0])
        raise InvalidHandError(f"card {format_card(k)!r} ({format_card(k, 'trad')}) appears {int(total[k])} times "
                               f"over the hand, seen and offered; the deck has 4")
    n_hand = int(held.sum())
    want = 9 if off is not None else 10
    if n_hand != want:
        if off is None and n_hand == 9:
            raise InvalidHandError("hand has 9 cards: give the card just offered (--offered), or the hand of 10 "
                                   "after a claim")
        raise InvalidHandError(f"hand has {n_hand} cards, expected {want}" +
                               (" with an offered card" if off is not None else " (a turn to discard)"))
    if off is None and not (held & 1).any():
        raise InvalidHandError("hand is already five pairs: nothing to discard")
    N = cfg.players
    out_of_play = int(seen_c.sum()) + (1 if off is not None else 0)
    stock = 112 - n_hand - 9 * (N - 1) - out_of_play
    if stock < cfg.reserve:
        raise RulesError(f"{int(seen_c.sum())} cards seen leave {stock} in the stock with {N} players, fewer than "
                         f"the reserve of {cfg.reserve}")

    z = z_value(0.95)
    rows: list[dict[str, Any]] = []
    # the state of seat 0 after the offer (or now)
    p_held = held.copy()
    p_exposed = np.zeros(N_KINDS, dtype=np.int64)
    kz4 = np.zeros(N_KINDS, dtype=np.int64)
    waste = seen_c.copy()
    offered_kinds = set(np.flatnonzero(seen_c).tolist())
    mode_pass = False
    forced_claim = False
    if off is not None:
        offered_kinds.add(off)
        if held[off] & 1:  # a single of it: the claim is mandatory
            forced_claim = True
            was3 = held[off] == 3
            p_held[off] += 1
            p_exposed[off] += 2
            if was3:
                kz4[off] = 1
            if int(sum(x // 2 for x in p_held)) == 5:
                tou = _win_now(rules, p_held, bool(was3))
                win = tou * ((N - 1) if rules.discard_payer_covers_all else 1)
                rows.append({"action": "claim", "discard": None, "ev": float(win), "ev_low": float(win),
                             "ev_high": float(win), "p_win": 1.0, "p_win_low": 1.0, "p_win_high": 1.0,
                             "forced": True, "samples": 0})
        else:
            mode_pass = True
    if not rows:
        full_held = np.zeros((N, N_KINDS), dtype=np.int64)
        exposed = np.zeros((N, N_KINDS), dtype=np.int64)
        full_held[0] = p_held
        exposed[0] = p_exposed
        # the other seats: 9 hidden cards each (their contents are sampled; the counts only size them)
        pool = np.repeat(np.arange(N_KINDS), (4 - p_held - waste - (np.eye(N_KINDS, dtype=np.int64)[off]
                                                                    if mode_pass else 0)).clip(0))
        for t in range(1, N):
            full_held[t] = np.bincount(pool[9 * (t - 1): 9 * t], minlength=N_KINDS)
        state = {"held": full_held, "exposed": exposed, "dead": np.zeros((N, N_KINDS), np.int64),
                 "dead_seq": np.zeros((N, N_KINDS), np.int64), "kz4": kz4,
                 "waste": waste, "offered": sorted(offered_kinds), "top": 112 - stock, "dealer": 0, "counter": 0}
        opts: list[int]
        if mode_pass and off is not None:
            opts, action, offer_from = [off], "pass", N - 1
        else:
            opts = [int(k) for k in np.flatnonzero(p_held & 1)]
            action, offer_from = ("claim+discard" if forced_claim else "discard"), -1
        bg = np.random.PCG64(np.random.SeedSequence(int(seed)))
        if engine == "compiled":
            from kaptai.nineten import _engine

            vals, wins, _ = _engine.search_values(cfg, state, 0, opts, int(samples), bg, offer_from)
        else:
            from kaptai.nineten import engine_reference

            vals, wins, _ = engine_reference.search_values(cfg, state, 0, opts, int(samples), bg, offer_from)
        S = int(samples)
        lo_w, hi_w = wilson_interval(wins.sum(axis=1), S, 0.95)
        for i, k in enumerate(opts):
            v = vals[i].astype(np.float64)
            mean = float(v.mean())
            half = z * float(v.std(ddof=1)) / np.sqrt(S) if S > 1 else float("nan")
            rows.append({"action": action, "discard": None if mode_pass else format_card(k), "ev": mean,
                         "ev_low": mean - half, "ev_high": mean + half, "p_win": float(wins[i].mean()),
                         "p_win_low": float(np.atleast_1d(lo_w)[i]), "p_win_high": float(np.atleast_1d(hi_w)[i]),
                         "forced": mode_pass or len(opts) == 1, "samples": S})
    rows.sort(key=lambda r: -r["ev"])  # stable: ties keep kind order
    rank = 0
    for pos, r in enumerate(rows):
        if pos == 0 or r["ev"] != rows[pos - 1]["ev"]:
            rank = pos + 1
        r["rank"] = rank
    df = pd.DataFrame(rows, columns=ADVICE_COLUMNS)
    df = df.astype({"rank": np.int64, "samples": np.int64, "forced": bool})
    df.attrs.update({
        "game": "nine-ten", "rules": rules.to_dict(), "players": N, "seed": int(seed), "samples": int(samples),
        "hand": " ".join(format_card(k) for k in range(N_KINDS) for _ in range(int(held[k]))),
        "seen": " ".join(format_card(k) for k in range(N_KINDS) for _ in range(int(seen_c[k]))),
        "offered": None if off is None else format_card(off), "stock": stock, "unit": "tou",
        "claim": ("forced" if forced_claim else "not possible (no single of it)") if off is not None else None,
        "model": (f"{samples} layouts of the unseen cards (other hands of 9, even counts of every seen kind; the "
                  f"stock), each option played on every layout, then the hand to its end by {SEARCH_ROLLOUT} at "
                  f"every seat; mean net 頭 of the player with normal 95% intervals, P(win) with Wilson intervals"),
    })
    return df
