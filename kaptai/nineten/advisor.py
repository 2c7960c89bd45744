"""The nine-ten (九支十仔) advisor: claim or not, then every discard, by the search player's rollouts.

From a position a player can type -- the hand, the cards seen and the card just offered, if
any -- :func:`advise` values every move the rules leave open with the layouts and rollouts
of the ``search`` policy (``docs/nine-ten-engine.md``, "search"): layouts of the
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
* A hand of ten cards in five pairs is complete (the dealer's natural, §6.5): the answer is the
  win row alone (action ``win``), scored as a self-draw paid by every other player, the bonus
  flip at its expectation (0 under ``natural='redeal'``).
* ``vs_best`` is each option's paired difference to the best (the same layouts), with its 95%
  interval; equal values share a rank (competition ranking, "1224").

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

import time
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.advise import DEFAULT_BUDGET_MS, check_budget_ms, check_samples, paired_budget
from kaptai.core.stats import wilson_interval, z_value
from kaptai.errors import InvalidHandError, RulesError, UsageError, quote_token
from kaptai.nineten.cards import N_KINDS, format_card, parse_cards, parse_hand
from kaptai.nineten.config import SEARCH_ROLLOUT, SEARCH_Z, make_config
from kaptai.nineten.rules import RuleSet, resolve_rules
from kaptai.nineten.scoring import score_components

__all__ = ["ADVICE_COLUMNS", "ADVISE_SAMPLES", "USE_HISTORY", "advise", "advise_view", "uses_history", "view_state"]

#: Whether ``kaptai play``'s hints and ``kaptai review`` value a discard by the view's whole public
#: position and the hand's record (:func:`advise_view`: every seat's face-up and dead cards, the
#: search's inference on the discards made), rather than by the hand and the cards seen as a typed
#: position (:func:`advise`).
USE_HISTORY: bool = True
#: The fixed layout count the engine benchmarks time (the advisor's default is the time budget).
ADVISE_SAMPLES = 1000
#: Columns of :func:`advise`.
ADVICE_COLUMNS = ["rank", "action", "discard", "ev", "ev_low", "ev_high", "vs_best", "vs_best_low", "vs_best_high",
                  "p_win", "p_win_low", "p_win_high", "forced", "pick", "samples"]
#: Layouts per batch of the sampling budget (:mod:`kaptai.core.advise`).
BATCH = 64


def _counts(text: Any, what: str) -> np.ndarray:
    try:
        return parse_hand(text).astype(np.int64)
    except InvalidHandError as e:
        raise InvalidHandError(f"{what}: {e}") from None


def _kaizhao_count(rules: RuleSet, held: np.ndarray, kz4: np.ndarray, kz_wait: bool) -> int:
    """The +1 開招 of a winning hand (§7): each four completed by a claim onto three (``kz4``),
    but the final wait's, which scores +5 instead; with ``dealt_four_is_kaizhao`` each other four
    held (dealt) too, as the engines count them."""
    kz = int(kz4.sum()) - (1 if kz_wait else 0)
    if rules.dealt_four_is_kaizhao:
        kz += int(((held == 4) & (kz4 == 0)).sum())
    return kz


def _win_now(rules: RuleSet, held: np.ndarray, kz_wait: bool, kz4: np.ndarray) -> int:
    """頭 of a hand completed on a discard (the discarder pays): colours, 開招 and the 開招 wait."""
    colours = len({k // 7 for k in range(N_KINDS) if held[k] >= 2})
    kz = _kaizhao_count(rules, held, kz4, kz_wait)
    return int(sum(score_components(rules, colours, "discard", 0, kz, kz_wait).values()))


def _natural_row(rules: RuleSet, held: np.ndarray, seen: np.ndarray, players: int) -> dict[str, Any]:
    """The complete ten-card hand (five pairs: the dealer's natural, §6.5) as a win row.

    Scored as a self-draw paid by every other player; the bonus flip (``natural='self_draw'``,
    not with four colours) is counted at its expectation: each of the five bonus cards is uniform
    over the unseen cards (cards 1-4 score 1, card 5 scores 2 when it is one of the pairs' cards).
    ``natural='redeal'``: the hand is redealt, worth 0."""
    colours = len({k // 7 for k in range(N_KINDS) if held[k] >= 2})
    if rules.natural == "redeal":
        tou = 0.0
    else:
        unseen = 4 - held - seen
        p = float(unseen[held >= 2].sum()) / float(unseen.sum())
        bonus = 6.0 * p if (rules.natural == "self_draw" and colours < 4) else 0.0
        kz = _kaizhao_count(rules, held, np.zeros_like(held), False)  # a natural's fours were dealt
        parts = score_components(rules, colours, "natural", 0, kz, False)
        tou = float(sum(parts.values())) + bonus
    ev = tou * (players - 1)
    return {"action": "win", "discard": None, "ev": ev, "ev_low": ev, "ev_high": ev, "p_win": 1.0,
            "p_win_low": 1.0, "p_win_high": 1.0, "forced": True, "pick": True, "samples": 0}


def _exposed_rows(exposed: Any, players: int, parsed: Any) -> np.ndarray:
    """Every seat's face-up cards as ``(players, 28)`` counts, yours (seat 0) first."""
    rows = np.zeros((players, N_KINDS), dtype=np.int64)
    if exposed is None:
        return rows
    if isinstance(exposed, str) and not exposed.strip():
        return rows
    groups = exposed.split(";") if isinstance(exposed, str) else list(exposed)
    if len(groups) > players:
        raise InvalidHandError(f"exposed: {len(groups)} seats given for {players} players (separate the seats "
                               f"with ';', yours first, then the next player's)")
    for i, g in enumerate(groups):
        what = ("exposed (yours)" if i == 0 else
                f"exposed (seat {i}, {'the next player' if i == 1 else f'{i} after you'})")
        rows[i] = parsed(g if g is not None else "", what)
        if int(rows[i].sum()) > 9:
            raise InvalidHandError(f"{what}: {int(rows[i].sum())} face-up cards, but a seat holds 9")
    return rows


def _spelled(counts: Any) -> str:
    """A count vector as its cards, each copy written out (``"RK RK WP"``)."""
    return " ".join(format_card(k) for k in range(N_KINDS) for _ in range(int(counts[k])))


def _check_seed_engine(seed: Any, engine: Any) -> None:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise RulesError(f"seed={quote_token(seed)}: expected a whole number from 0 to 2^63-1")
    if engine not in ("compiled", "reference"):
        raise RulesError(f"engine={quote_token(engine)}: expected 'compiled' or 'reference'")


def _stand_ins(held: np.ndarray, face_up: np.ndarray, seat: int, concealed: Any, unseen: Any) -> None:
    """Fill the other seats' rows of ``held``: each its face-up cards and ``concealed[t]``
    stand-ins for its hidden cards, the ``unseen`` cards in kind order (the engines read only the
    count: each layout draws them afresh)."""
    pool = np.repeat(np.arange(N_KINDS), np.asarray(unseen, dtype=np.int64).clip(0))
    at = 0
    for t in range(held.shape[0]):
        if t != seat:
            n = int(concealed[t])
            held[t] = face_up[t] + np.bincount(pool[at:at + n], minlength=N_KINDS)
            at += n


def _engine_module(engine: str) -> Any:
    if engine == "compiled":
        from kaptai.nineten import _engine as eng
    else:
        from kaptai.nineten import engine_reference as eng  # type: ignore[no-redef]
    return eng


def _colour_cut_index(opts: list[int], held: np.ndarray, unseen: np.ndarray) -> int:
    """The index in ``opts`` of colour_cut's discard: the single of the colour held fewest of
    (face-up cards counted), then the fewest unseen copies, then the lowest kind."""
    colours = [int(held[7 * c:7 * c + 7].sum()) for c in range(4)]
    return min(range(len(opts)), key=lambda i: (colours[opts[i] // 7], int(unseen[opts[i]]), opts[i]))


def _pick(res: Any, ref: int, z: float = SEARCH_Z) -> int:
    """The search player's rule on the advisor's layouts: option ``ref`` (colour_cut's) unless
    another's mean leads it by more than ``z`` standard errors of their paired difference, then
    the best mean of those."""
    m = res.means(0)
    best = ref
    for i in range(len(m)):
        if i != ref and res.diff(i, ref, z)[1] > 0 and (best == ref or m[i] > m[best]):
            best = i
    return best


def _searched(rows: list[dict[str, Any]], cfg: Any, state: dict[str, Any], seat: int, opts: list[int],
              offer_from: int, action: str, forced: bool, ref: int, *, seed: int,
              samples: int | None, budget_ms: float, engine: str, start: float) -> Any:
    """Rows of ``opts`` valued by the search's layouts and rollouts at ``state`` (appended to
    ``rows``; ``forced``: letting the offered card pass, the only option, no discard named;
    ``ref``: the index of colour_cut's option, from which :func:`_pick` marks the pick);
    returns the paired budget's result."""
    eng = _engine_module(engine)

    def evaluate(bg: np.random.PCG64, n: int) -> np.ndarray:
        vals, wins, _ = eng.search_values(cfg, state, seat, opts, n, bg, offer_from)
        return np.stack([np.asarray(vals, dtype=np.float64), np.asarray(wins, dtype=np.float64)])

    res = paired_budget(evaluate, len(opts), seed=int(seed), samples=samples, budget_ms=budget_ms, batch=BATCH,
                        start=start)
    z = z_value(0.95)
    S = res.samples
    lo_w, hi_w = wilson_interval(res.sums[1], S, 0.95)
    mean = res.means(0)
    lo, hi = res.interval(0, z)
    d, dlo, dhi = res.vs_best(z)
    pick = _pick(res, ref)
    for i, k in enumerate(opts):
        rows.append({"action": action, "discard": None if forced else format_card(k), "ev": float(mean[i]),
                     "ev_low": float(lo[i]), "ev_high": float(hi[i]), "vs_best": float(d[i]),
                     "vs_best_low": float(dlo[i]), "vs_best_high": float(dhi[i]),
                     "p_win": float(res.sums[1][i] / S),
                     "p_win_low": float(np.atleast_1d(lo_w)[i]), "p_win_high": float(np.atleast_1d(hi_w)[i]),
                     "forced": forced or len(opts) == 1, "pick": i == pick, "samples": S})
    return res


def _pick_label(df: pd.DataFrame) -> str:
    """The pick row's discard (or its action where no discard is named)."""
    row = df[df.pick].iloc[0]
    return str(row.discard) if row.discard is not None else str(row.action)


def _table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The advice table: best first, exact rows' differences to the best, competition ranks."""
    rows.sort(key=lambda r: -r["ev"])  # stable: ties keep kind order
    best = rows[0]["ev"]
    for r in rows:  # a win now is certain: its difference to the best is exact
        if "vs_best" not in r or r["samples"] == 0:
            r.update(vs_best=r["ev"] - best, vs_best_low=r["ev"] - best, vs_best_high=r["ev"] - best)
    rank = 0
    for pos, r in enumerate(rows):
        if pos == 0 or r["ev"] != rows[pos - 1]["ev"]:
            rank = pos + 1
        r["rank"] = rank
    df = pd.DataFrame(rows, columns=ADVICE_COLUMNS)
    df = df.astype({"rank": np.int64, "samples": np.int64, "forced": bool, "pick": bool})
    return df


def advise(hand: Any, seen: Any = "", offered: Any = None, *, exposed: Any = None, players: int = 4,
           rules: RuleSet | str | None = None, samples: int | None = None, seed: int = 0,
           engine: str = "compiled", budget_ms: float = DEFAULT_BUDGET_MS) -> pd.DataFrame:
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
    exposed : str or sequence, optional
        Every seat's face-up cards (claimed pairs and dead cards), yours first, then seat by seat
        in turn order: a string with ``;`` between the seats (``"RKx2; YCx2; ; GAx2 YE"``: you
        show a pair of RK, the next player a pair of YC, the one after nothing, the previous player
        a pair of GA and a dead YE), or a sequence of one card string per seat; seats left out show
        nothing.  Your face-up cards are among your ``hand``'s; a kind a seat shows an odd number
        of times is its dead card (yours must be discarded first).  Each other seat holds 9 cards
        counting its face-up ones; without ``exposed`` nothing is face up (give the face-up cards
        here, not in ``seen``, or the stock is counted short).
    players : int
        4-7 (the 10/9 deal).
    rules : RuleSet or preset name
    samples : int, optional
        A fixed number of layouts (1 to 100,000); default None: layouts are drawn in batches until
        the best option's lead over the second is resolved (paired 95% interval) or ``budget_ms``
        is spent (:mod:`kaptai.core.advise`; ``samples=N`` reproduces a budgeted answer of N).
    seed : int
        Seed of the layouts (the same seed gives the same table).
    engine : {'compiled', 'reference'}
        The reference engine gives the same numbers, slowly (tests).
    budget_ms : float
        The time budget without ``samples`` (default 150 ms).

    Returns
    -------
    pandas.DataFrame
        One row per option, best first (``rank`` 1; ties share a rank): ``action`` (``discard``,
        ``claim`` (the claim itself, when it wins or leaves nothing open), ``claim+discard``,
        ``pass``), ``discard`` (the card thrown, ASCII), ``ev`` (mean net 頭 of the player) with
        its normal 95% interval ``ev_low``/``ev_high``, ``p_win`` with its Wilson interval,
        ``forced`` (the rules leave no choice), ``pick`` (True on the one row the ``search``
        player's rule plays: colour_cut's discard -- the single of the colour held fewest of, then
        the fewest unseen copies, then the lowest kind -- unless another option's mean leads it by
        more than 2.5 standard errors of their paired difference, then the best mean of those; a
        stronger player than the top mean, whose lead is often the noise and bias of the layouts:
        ``docs/nine-ten.md``), ``samples``.  ``attrs``: the position, rules, players, seed, stock,
        the pick, the model.

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
    0  claim+discard      WP   False
    1  claim+discard      GK   False
    >>> advise("RKx2 RAx2 YAx2 GEx2 WCx2")[["rank", "action", "ev", "p_win"]]   # five pairs: complete
       rank action   ev  p_win
    0     1    win  3.0    1.0
    >>> advise("RKx2 RA YAx2 GE WC WP GK GA", seen="RX")
    Traceback (most recent call last):
    ...
    kaptai.nineten.cards.InvalidCardError: seen: unknown card token 'RX' (item 1)
    """
    start = time.perf_counter()
    rules = resolve_rules(rules)
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 4 <= players <= 7:
        raise RulesError(f"players={quote_token(players)}: the advisor plays the 10/9 deal of 4-7 players")
    samples = check_samples(samples)
    budget_ms = check_budget_ms(budget_ms)
    cfg = make_config(int(players), rules)
    _check_seed_engine(seed, engine)
    from kaptai.nineten.cards import InvalidCardError

    def parsed(text: Any, what: str) -> np.ndarray:
        try:
            ks = parse_cards(text)
        except InvalidCardError as e:
            raise InvalidCardError(f"{what}: {e}") from None
        return np.bincount(np.array(ks, dtype=np.int64), minlength=N_KINDS) if ks else np.zeros(N_KINDS, np.int64)

    held = parsed(hand, "hand")
    seen_c = parsed(seen if seen is not None else "", "seen")
    shown = _exposed_rows(exposed, int(players), parsed)
    mine, shown = shown[0], shown[1:]
    others_up = shown.sum(axis=0)  # the other seats' face-up cards
    off = None
    if offered is not None and str(offered).strip():
        oc = parsed(offered, "offered")
        if int(oc.sum()) != 1:
            raise InvalidHandError(f"offered: give one card, got {int(oc.sum())}")
        off = int(np.flatnonzero(oc)[0])
    total = held + seen_c + others_up + (np.eye(N_KINDS, dtype=np.int64)[off] if off is not None else 0)
    bad = np.flatnonzero(total > 4)
    if bad.size:
        k = int(bad[0])
        raise InvalidHandError(f"card {format_card(k)!r} ({format_card(k, 'trad')}) appears {int(total[k])} times "
                               f"over the hand, seen, exposed and offered; the deck has 4")
    over = np.flatnonzero(mine > held)
    if over.size:
        k = int(over[0])
        raise InvalidHandError(f"exposed (yours): {format_card(k)!r} shown {int(mine[k])} times but held "
                               f"{int(held[k])}: your face-up cards are part of your hand")
    own_dead = [int(k) for k in np.flatnonzero(mine & 1)]
    if len(own_dead) > 1 and rules.dead_card_order == "oldest":
        raise InvalidHandError(f"exposed (yours): dead cards {', '.join(format_card(k) for k in own_dead)}: under "
                               f"dead_card_order='oldest' the oldest goes first, a forced discard; nothing to advise")
    n_hand = int(held.sum())
    want = 9 if off is not None else 10
    if n_hand != want:
        if off is None and n_hand == 9:
            raise InvalidHandError("hand has 9 cards: give the card just offered (--offered), or the hand of 10 "
                                   "after a claim")
        raise InvalidHandError(f"hand has {n_hand} cards, expected {want}" +
                               (" with an offered card" if off is not None else " (a turn to discard)"))
    natural = off is None and not (held & 1).any()  # ten cards in five pairs: complete (the dealer's natural)
    if natural and mine.any():
        raise InvalidHandError("five pairs with cards face up: the hand was won at the claim")
    N = cfg.players
    out_of_play = int(seen_c.sum()) + (1 if off is not None else 0)
    stock = 112 - n_hand - 9 * (N - 1) - out_of_play
    if stock < cfg.reserve:
        raise RulesError(f"{int(seen_c.sum())} cards seen leave {stock} in the stock with {N} players, fewer than "
                         f"the reserve of {cfg.reserve}")

    rows: list[dict[str, Any]] = []
    # the state of seat 0 after the offer (or now)
    p_held = held.copy()
    p_exposed = mine.copy()
    p_dead = mine & 1
    kz4 = ((held == 4) & (mine == 2)).astype(np.int64)  # four held, two face up: the 4th claimed onto three
    waste = seen_c.copy()
    offered_kinds = set(np.flatnonzero(seen_c + mine + others_up).tolist())  # a face-up kind was offered
    mode_pass = False
    forced_claim = False
    res = None
    if natural:
        rows.append(_natural_row(rules, held, seen_c + others_up, N))
    elif off is not None:
        offered_kinds.add(off)
        if held[off] & 1 and (rules.dead_cards_claimable or not p_dead[off]):  # the claim is mandatory
            forced_claim = True
            was3 = held[off] == 3
            p_held[off] += 1
            p_exposed[off] += 1 if p_dead[off] else 2
            p_dead[off] = 0
            if was3:
                kz4[off] = 1
            if int(sum(x // 2 for x in p_held)) == 5:
                tou = _win_now(rules, p_held, bool(was3), kz4)
                win = tou * ((N - 1) if rules.discard_payer_covers_all else 1)
                rows.append({"action": "claim", "discard": None, "ev": float(win), "ev_low": float(win),
                             "ev_high": float(win), "p_win": 1.0, "p_win_low": 1.0, "p_win_high": 1.0,
                             "forced": True, "pick": True, "samples": 0})
        else:
            mode_pass = True
    if not rows:
        full_held = np.zeros((N, N_KINDS), dtype=np.int64)
        face_up = np.zeros((N, N_KINDS), dtype=np.int64)
        full_held[0] = p_held
        face_up[0] = p_exposed
        face_up[1:] = shown
        dead = face_up & 1  # an odd count shown by a seat: its dead card
        dead[0] = p_dead
        dead_seq = np.zeros((N, N_KINDS), np.int64)
        where = np.flatnonzero(dead.ravel())
        dead_seq.ravel()[where] = np.arange(where.size)  # laid face up in seat and kind order
        unseen = 4 - p_held - waste - others_up
        # the other seats: 9 cards each, counting their face-up ones
        _stand_ins(full_held, face_up, 0, 9 - face_up.sum(axis=1),
                   unseen - (np.eye(N_KINDS, dtype=np.int64)[off] if mode_pass else 0))
        state = {"held": full_held, "exposed": face_up, "dead": dead, "dead_seq": dead_seq, "kz4": kz4,
                 "waste": waste, "offered": sorted(offered_kinds), "top": 112 - stock, "dealer": 0,
                 "counter": int(where.size)}
        opts: list[int]
        if mode_pass and off is not None:
            opts, action, offer_from = [off], "pass", N - 1
        else:
            opts = [int(k) for k in np.flatnonzero(p_dead if p_dead.any() else p_held & 1)]
            action, offer_from = ("claim+discard" if forced_claim else "discard"), -1
        ref = 0 if mode_pass else _colour_cut_index(opts, p_held, unseen)
        res = _searched(rows, cfg, state, 0, opts, offer_from, action, mode_pass, ref,
                        seed=seed, samples=samples, budget_ms=budget_ms, engine=engine, start=start)
    df = _table(rows)
    df.attrs.update({
        "game": "nine-ten", "rules": rules.to_dict(), "players": N, "seed": int(seed),
        "pick": _pick_label(df),
        **(res.attrs() if res is not None else {"samples": 0, "stop": "exact", "batch": BATCH, "budget_ms": None,
                                                "elapsed_ms": 0.0}),
        "natural": natural,
        "hand": _spelled(held), "seen": _spelled(seen_c),
        "offered": None if off is None else format_card(off),
        "exposed": [_spelled(row) for row in np.vstack([mine[None, :], shown])], "stock": stock, "unit": "tou",
        "claim": (("forced" if forced_claim else "not possible (your single of it is a dead card)"
                   if held[off] & 1 else "not possible (no single of it)") if off is not None else None),
        "model": (f"layouts of the unseen cards (other hands of 9 counting their face-up cards, even counts "
                  f"of every offered kind; the "
                  f"stock), each option played on every layout, then the hand to its end by {SEARCH_ROLLOUT} at "
                  f"every seat; mean net 頭 of the player with normal 95% intervals, P(win) with Wilson intervals"),
    })
    return df


def uses_history(view: Any, history: bool | None = None) -> bool:
    """Whether a view is valued by :func:`advise_view`: ``history`` (default :data:`USE_HISTORY`)
    on and the view carries its public position (:attr:`PlayerView.public`)."""
    return bool((USE_HISTORY if history is None else history) and getattr(view, "public", None) is not None)


def view_state(view: Any, history: bool = True) -> dict[str, Any]:
    """The search's state of a view's public position (the form ``search_values`` takes).

    The other seats' concealed cards are not known: each gets its count of stand-ins, the seat's
    unseen cards in kind order (the engines read only the count, each layout drawing them afresh).
    ``history``: the hand's record of discards (``events``, ``cum``), which turns the search's
    inference on; False leaves it out (uniform layouts).

    >>> from kaptai.nineten.engine_reference import Hand
    >>> from kaptai.nineten.config import make_config
    >>> h = Hand(make_config(4), list(range(112)), 0)
    >>> st = view_state(h.view(0, [0], False))
    >>> [int(x) for x in st["held"].sum(axis=1)], len(st["events"])
    ([10, 9, 9, 9], 0)
    """
    pub = view.public
    if pub is None:
        raise UsageError("this view carries no public position (a view made by the reference engine does)")
    exposed = np.asarray(pub["exposed"], dtype=np.int64)
    N = exposed.shape[0]
    held = np.zeros((N, N_KINDS), dtype=np.int64)
    held[view.seat] = np.asarray(view.hand, dtype=np.int64)
    _stand_ins(held, exposed, view.seat, pub["concealed"], view.unseen())
    state = {"held": held, "exposed": exposed, "dead": np.asarray(pub["dead"], dtype=np.int64),
             "dead_seq": np.asarray(pub["dead_seq"], dtype=np.int64), "kz4": np.asarray(pub["kz4"], dtype=np.int64),
             "waste": np.asarray(pub["waste"], dtype=np.int64), "offered": list(pub["offered"]), "top": int(pub["top"]),
             "dealer": int(pub["dealer"]), "counter": int(pub["counter"])}
    if history:
        state.update(events=list(pub["events"]), cum=np.asarray(pub["cum"], dtype=np.int64))
    return state


def advise_view(view: Any, rules: RuleSet | str | None = None, *, samples: int | None = None, seed: int = 0,
                budget_ms: float = DEFAULT_BUDGET_MS, history: bool = True, engine: str = "compiled") -> pd.DataFrame:
    """Every legal discard of a :class:`kaptai.nineten.policies.PlayerView`, valued on its whole
    public position: :func:`advise`'s table, its layouts drawn as the ``search`` player draws its
    own (every seat's face-up and dead cards where they are, each other seat hiding its true count,
    and with ``history`` the layouts weighed by how likely each seat's recorded discards are under
    the search's opponent model, resampled: its inference).

    ``kaptai play``'s hints and ``kaptai review`` use it (:data:`USE_HISTORY`); a typed position
    (:func:`advise`) knows the hand, the cards seen and every seat's face-up cards, but not the
    record of discards (its layouts are uniform), the dealer, nor the order of a seat's dead cards.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.nineten.config import make_config
    >>> from kaptai.nineten.engine import run_hands
    >>> from kaptai.nineten.policies import Policy
    >>> seen = []
    >>> class Keep(Policy):
    ...     def discard(self, view):
    ...         if len(view.options) > 1 and view.public["events"] and not seen:
    ...             seen.append(view)
    ...         return view.options[0]
    >>> _ = run_hands(make_config(4), 1, np.random.PCG64(3), Keep())
    >>> df = advise_view(seen[0], samples=64, seed=1)
    >>> list(df.columns[:4]), bool(df.ev.is_monotonic_decreasing), df.attrs["history"]
    (['rank', 'action', 'discard', 'ev'], True, True)
    """
    start = time.perf_counter()
    rules = resolve_rules(rules)
    samples = check_samples(samples)
    budget_ms = check_budget_ms(budget_ms)
    _check_seed_engine(seed, engine)
    state = view_state(view, bool(history))
    N = int(state["held"].shape[0])
    cfg = make_config(N, rules)
    opts = [int(k) for k in view.options]
    if not opts:
        raise UsageError("the view has no discard to value (it is not a turn to discard)")
    rows: list[dict[str, Any]] = []
    ref = _colour_cut_index(opts, np.asarray(view.hand), np.asarray(view.unseen()))
    res = _searched(rows, cfg, state, int(view.seat), opts, -1, "discard", False, ref, seed=seed, samples=samples,
                    budget_ms=budget_ms, engine=engine, start=start)
    df = _table(rows)
    df.attrs.update({
        "game": "nine-ten", "rules": rules.to_dict(), "players": N, "seed": int(seed), **res.attrs(),
        "seat": int(view.seat), "dealer": int(view.dealer), "pick": _pick_label(df),
        "hand": _spelled(view.hand),
        "stock": int(view.stock_left), "unit": "tou", "history": bool(history),
        "model": (f"layouts of the cards the seat has not seen (each other seat hiding its count, every face-up "
                  f"and dead card where it is{', weighed by the recorded discards and resampled' if history else ''}"
                  f"), each option played on every layout, then the hand to its end by {SEARCH_ROLLOUT} at every "
                  f"seat; mean net 頭 with normal 95% intervals, P(win) with Wilson intervals"),
    })
    return df
