"""Exact draw odds and the hand advisor for Kap Tai Shap (夾大十) and Kap Shap (夾十).

A player holds a hand and sees the discards.  :func:`draw_odds` answers "what are my
chances now"; :func:`advise` answers "which tile should I throw" and "should I take that
discard (搶牌)".  Every probability is exact (integers and :class:`fractions.Fraction`).

Model
-----
*Unseen tiles.*  The unseen pool is what the sets hold minus the player's own hand minus
every tile seen face up (discards, exposed tiles, a tile just discarded or offered).  Each
unseen copy is equally likely to be the next tile the player meets.

*Standing on the waits (聽牌)* -- the one-tile model of :func:`draw_odds` and of
``advise(model='one_tile')``; ``advise`` uses the exact look-ahead of
:mod:`kaptai.kts.lookahead` by default, where the hand may change on every look.
The player keeps the hand and throws every drawn tile
that does not complete it.  The other players' draws between two of the player's own
draws are removals the player does not see, so by exchangeability the player's own j-th
draw is uniform over the unseen pool and ``k`` own draws are a uniform random
``k``-subset of it.  With ``u`` unseen tiles and ``W`` live outs (unseen copies of the
tiles that complete the hand)::

    P(win within k draws) = 1 - C(u - W, k) / C(u, k),        P(win next) = W / u.

*Score.*  Given a win, the winning tile is ``t`` with probability ``live(t) / W``
(whichever draw wins, by symmetry); the win scores ``score_hands`` of the completed hand
(advanced table: base + general eyes) plus 1 for a self-drawn win (自摸, §4).  The dealer
streak bonus is not counted.  ``expected_score`` is the mean score *given* a win within
the horizon.

*Claims.*  With ``claims=True`` the previous player's discard is one more look before
each own draw, also a uniform unseen tile, so ``k`` turns are ``2k`` looks alternating
claim, draw; a win on a claimed discard gets no self-draw point.  The first successful
look ``j`` has the negative-hypergeometric law
``P(j) = C(u - W, j - 1) / C(u, j - 1) * W / (u - j + 1)``, and the expected score adds
the self-draw point with probability ``P(first success is a draw | win within 2k looks)``.

The end of the wall (流局) is not modelled beyond requiring ``draws`` (``2 * draws`` with
claims) to be at most the number of unseen tiles.

*Exact, not sampled.*  Every figure here is exact, so the sampling budget that the other games'
advisors share (:mod:`kaptai.core.advise`: paired layouts until the best option is resolved or
150 ms are spent) has nothing to do: there is no ``samples``, ``seed`` or ``budget_ms``.  A hand
that is already a win gives the row ``win`` (``claim_win`` for a claimed discard) first, with its
score.  Ranks: options equal on the whole ranking key share a rank and the next rank skips
(competition ranking, "1224", as every advise table of kaptai); the key goes on after the first
figure (P(win), then the expected score, the live outs and the distance), so two options of equal
P(win) but different expected scores rank apart.

Examples
--------
>>> from kaptai.kts.advisor import advise, draw_odds
>>> df = draw_odds("16 16 16 12 33 13 15 22 66", seen="44 44", draws=2)
>>> df.query("metric == 'p_win_within'")[["draws", "exact"]].to_dict("records")
[{'draws': 1, 'exact': '6/53'}, {'draws': 2, 'exact': '297/1378'}]
>>> advise("16 16 33 13 15 22 55 46 66 56", seen="45 45 36")[["rank", "discard", "waits", "live_outs"]].head(3)
   rank discard        waits  live_outs
0     1     5-6  4-4 2-6 3-5          8
1     2     6-6      4-5 3-6          1
2     3     3-3                       0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.tables import tidy_frame
from kaptai.errors import InvalidHandError, RulesError, quote_token
from kaptai.kts import _eval
from kaptai.kts.evaluate import score_hands, waits_hands
from kaptai.kts.rules import RuleSet
from kaptai.kts.tiles import N_TILE_TYPES, format_tile
from kaptai.kts.position import Position as _Context
from kaptai.kts.position import check_horizon as _check_horizon
from kaptai.kts.position import is_win as _is_win
from kaptai.kts.position import position as _context
from kaptai.kts.position import position_attrs as _attrs

__all__ = ["draw_odds", "advise", "DRAW_ODDS_COLUMNS", "ADVICE_COLUMNS"]

#: Columns of :func:`draw_odds`.
DRAW_ODDS_COLUMNS = ["discard", "metric", "draws", "value", "exact", "tiles"]
#: Columns of :func:`advise`.
ADVICE_COLUMNS = ["rank", "action", "discard", "p_win_within", "expected_score", "waits", "live_outs",
                  "distance", "exact"]


# ---------------------------------------------------------------------------------------
# Input validation
# ---------------------------------------------------------------------------------------
# ---------------------------------------------------------------------------------------
# Exact probabilities
# ---------------------------------------------------------------------------------------
def _p_within(u: int, w: int, looks: int) -> Fraction:
    """P(at least one of ``w`` marked tiles among ``looks`` drawn from ``u``)."""
    return 1 - Fraction(math.comb(u - w, looks), math.comb(u, looks))


def _first_success(u: int, w: int, looks: int) -> list[Fraction]:
    """``f[j-1]`` = P(the first marked tile is look ``j``), j = 1..looks (negative hypergeometric)."""
    out = []
    none_yet = Fraction(1)
    for j in range(1, looks + 1):
        left = u - j + 1
        out.append(none_yet * Fraction(w, left))
        none_yet *= Fraction(left - w, left)
    return out


def _fmt(x: Fraction | None) -> str | None:
    return None if x is None else f"{x.numerator}/{x.denominator}"


# ---------------------------------------------------------------------------------------
# Options: the 2n+1-tile hands the player may stand on
# ---------------------------------------------------------------------------------------
@dataclass
class _Option:
    action: str
    discard: int | None
    waits: tuple[int, ...]
    live: int  # W: live outs
    score_sum: int  # sum over waits of live copies x score (no self-draw point)
    distance: int | None

    def mean_score(self) -> Fraction | None:
        return Fraction(self.score_sum, self.live) if self.live else None


def _options(ctx: _Context, cands: list[tuple[int, ...]], gone: list[np.ndarray], discards: list[int | None],
             actions: list[str], distance: bool) -> tuple[list[_Option], int]:
    """Evaluate every candidate hand in one ``waits_hands`` and one ``score_hands`` call.

    ``gone[i]`` counts the tiles out of play face up for candidate ``i`` (seen tiles plus
    the tile just thrown or passed).  Returns the options and the unseen-pool size.
    """
    m = len(cands)
    arr = np.array(cands, dtype=np.int8).reshape(m, 2 * ctx.n + 1)
    counts = np.zeros((m, N_TILE_TYPES), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(m), arr.shape[1]), arr.ravel().astype(np.int64)), 1)
    gone_arr = np.array(gone, dtype=np.int64).reshape(m, N_TILE_TYPES)
    avail = ctx.copies[None, :] - gone_arr
    pool = avail - counts
    u = int(pool[0].sum())
    w = waits_hands(arr, ctx.rules)
    live = np.where(w, pool, 0)
    ii, tt = np.nonzero(w)
    score_sum = np.zeros(m, dtype=np.int64)
    if ii.size:
        completed = np.concatenate([arr[ii], tt[:, None].astype(np.int8)], axis=1)
        scores = score_hands(completed, ctx.rules).astype(np.int64)
        if (scores < 0).any():  # pragma: no cover - waits_hands and score_hands must agree
            raise RuntimeError("a waiting tile does not complete the hand")
        np.add.at(score_sum, ii, live[ii, tt] * scores)
    out = []
    for i in range(m):
        dist = None
        if distance:
            ov = _eval._max_overlap_counts(counts[i].tolist(), avail[i].tolist(), ctx.mask, ctx.base_sum, ctx.gj,
                                           ctx.n)
            dist = 2 * ctx.n + 1 - int(ov)
        out.append(_Option(actions[i], discards[i], tuple(int(t) for t in np.flatnonzero(w[i])),
                           int(live[i].sum()), int(score_sum[i]), dist))
    return out, u


def _discard_options(ctx: _Context, hand10: tuple[int, ...], gone: np.ndarray, action: str,
                     distance: bool) -> tuple[list[_Option], int]:
    """Every distinct discard from a 2n+2-tile hand (in tile-id order)."""
    cands, gones, discards = [], [], []
    for d in sorted(set(hand10)):
        rest = list(hand10)
        rest.remove(d)
        g = gone.copy()
        g[d] += 1
        cands.append(tuple(rest))
        gones.append(g)
        discards.append(d)
    return _options(ctx, cands, gones, list[int | None](discards), [action] * len(cands), distance)


def _stats(opt: _Option, u: int, draws: int, claims: bool) -> dict[str, list]:
    """p_within, expected score (given a win) and p_by_claim for horizons 1..draws."""
    w, mean = opt.live, opt.mean_score()
    p, e, by_claim = [], [], []
    if claims:
        f = _first_success(u, w, 2 * draws)
        for k in range(1, draws + 1):
            total = sum(f[: 2 * k], Fraction(0))
            claimed = sum(f[0: 2 * k: 2], Fraction(0))
            p.append(total)
            by_claim.append(claimed)
            e.append(None if mean is None or total == 0 else mean + (total - claimed) / total)
    else:
        for k in range(1, draws + 1):
            p.append(_p_within(u, w, k))
            e.append(None if mean is None else mean + 1)
    return {"p": p, "e": e, "by_claim": by_claim}


# ---------------------------------------------------------------------------------------
# draw_odds
# ---------------------------------------------------------------------------------------
def draw_odds(
    hand: Any,
    rules: RuleSet | str | None = "traditional",
    *,
    seen: Any = (),
    draws: int = 3,
    players: int = 4,
    sets: int | None = None,
    claims: bool = False,
) -> pd.DataFrame:
    """Exact odds of completing a hand by drawing, standing on its current waits.

    Model: every unseen tile (the copies the sets hold minus the hand minus ``seen``) is
    equally likely to come next.  The player keeps the hand and throws every drawn tile
    that does not win; the other players' draws in between are unseen removals, so by
    exchangeability the player's ``k`` own draws are a uniform random ``k``-subset of the
    ``u`` unseen tiles and ``P(win within k) = 1 - C(u - W, k) / C(u, k)``, ``W`` being the
    live outs (unseen copies of the waiting tiles).  The winning tile is ``t`` with
    probability ``live(t) / W``; it scores ``score_hands`` of the completed hand plus the
    self-draw point (自摸).  With ``claims=True`` each turn is two looks, first the
    previous player's discard (a uniform unseen tile; a claimed win (搶牌) gets no
    self-draw point), then the own draw; the first winning look follows the negative
    hypergeometric law.  The dealer streak and the end of the wall are not modelled.

    Parameters
    ----------
    hand : str or iterable
        9 tiles (7 in Kap Shap), or 10 (8) before a discard: then every distinct discard
        is evaluated.  Any notation :func:`kaptai.kts.parse_hand` reads.
    rules : RuleSet or preset name
        Forms and scoring; ``sets`` is used unless ``sets=`` is given.
    seen : str or iterable, optional
        Tiles seen outside the hand (discards, exposed tiles).
    draws : int
        Horizon ``k``: own draws (turns, with ``claims``); rows are given for 1..k.
    players : int
        2 (Kap Shap, hands of 7/8) to 22; sets the default number of sets (§2).
    sets : int, optional
        Sets in play (default: the ruleset's, else the §2 table for ``players``).
    claims : bool
        Also count a claimable discard before each own draw.

    Returns
    -------
    pandas.DataFrame
        Tidy, columns ``discard, metric, draws, value, exact, tiles``: ``discard`` is the
        tile thrown (pip notation; None for a 9-tile hand), ``value`` a float, ``exact`` the
        same as ``'p/q'``, ``draws`` the horizon (``<NA>`` where none applies).  Metrics:

        - ``p_win_next``: P(the next tile met wins) = W / u;
        - ``p_win_within`` (draws = 1..k): P(win within that many own draws / turns);
        - ``p_win_by_claim`` (``claims=True`` only): P(the win within the horizon comes from
          a claimed discard);
        - ``expected_score`` (draws = 1..k): mean score given a win within the horizon
          (NaN when no live out);
        - ``live_outs``: W;
        - ``waits``: number of tiles that complete the hand, listed in ``tiles`` (a wait
          with every copy in sight still counts here, with no live out).

        A 10-tile hand that is already a win gives one ``complete`` row (value 1) and its
        ``expected_score`` as a self-drawn win.  ``attrs`` holds the rules, sets, the hand,
        the seen tiles, ``unseen`` (u) and the model.

    Raises
    ------
    InvalidTileError
        For a token that is not a tile (in the hand or ``seen``).
    InvalidHandError
        For a hand of the wrong size, or more copies of a tile in the hand and ``seen``
        together than the sets hold.
    RulesError
        For a bad ruleset, ``players`` or ``sets``, a deal that does not fit in the sets,
        ``draws`` not a whole number >= 1, or more draws (looks) than unseen tiles.

    Examples
    --------
    >>> from kaptai.kts.advisor import draw_odds
    >>> df = draw_odds("16 16 16 12 33 13 15 22 66", seen="44 44 26", draws=2)
    >>> df[["metric", "draws", "exact", "tiles"]]
               metric  draws     exact        tiles
    0      p_win_next      1      5/52         None
    1    p_win_within      1      5/52         None
    2    p_win_within      2  245/1326         None
    3  expected_score      1       3/1         None
    4  expected_score      2       3/1         None
    5       live_outs   <NA>       5/1         None
    6           waits   <NA>       3/1  4-4 2-6 3-5
    >>> df.attrs["unseen"]
    52
    >>> c = draw_odds("16 16 16 12 33 13 15 22 66", seen="44 44 26", draws=1, claims=True)
    >>> c.query("metric in ['p_win_within', 'p_win_by_claim', 'expected_score']")[["metric", "exact"]]
               metric     exact
    1    p_win_within  245/1326
    2  p_win_by_claim      5/52
    3  expected_score    243/98
    """
    ctx = _context(hand, rules, seen, players, sets, draws)
    claims = bool(claims)
    big = len(ctx.hand) == 2 * ctx.n + 2
    rows: list[dict[str, Any]] = []

    def add(discard, metric, frac, k=None, tiles=None):
        rows.append({"discard": discard, "metric": metric, "draws": k,
                     "value": float("nan") if frac is None else float(frac), "exact": _fmt(frac), "tiles": tiles})

    u = int((ctx.copies - ctx.seen).sum()) - len(ctx.hand)
    if big and (s := _is_win(ctx, ctx.hand)) >= 0:
        add(None, "complete", Fraction(1))
        add(None, "expected_score", Fraction(s + 1))
    else:
        if big:
            opts, u = _discard_options(ctx, ctx.hand, ctx.seen, "discard", distance=False)
        else:
            opts, u = _options(ctx, [ctx.hand], [ctx.seen], [None], ["draw"], distance=False)
        _check_horizon(ctx, u, claims)
        for opt in opts:
            d = None if opt.discard is None else format_tile(opt.discard)
            st = _stats(opt, u, ctx.draws, claims)
            add(d, "p_win_next", Fraction(opt.live, u), 1)
            for k in range(ctx.draws):
                add(d, "p_win_within", st["p"][k], k + 1)
            for k in range(len(st["by_claim"])):
                add(d, "p_win_by_claim", st["by_claim"][k], k + 1)
            for k in range(ctx.draws):
                add(d, "expected_score", st["e"][k], k + 1)
            add(d, "live_outs", Fraction(opt.live))
            add(d, "waits", Fraction(len(opt.waits)), tiles=" ".join(format_tile(t) for t in opt.waits))
    df = _nones(tidy_frame(rows, DRAW_ODDS_COLUMNS, _attrs(ctx, u, claims)), ("discard", "exact", "tiles"))
    df["draws"] = df["draws"].astype("Int64")
    return df


def _nones(df: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """Missing text cells as None (pandas may have turned them into NaN)."""
    for col in columns:
        df[col] = df[col].astype(object).where(df[col].notna(), None)
    return df


# ---------------------------------------------------------------------------------------
# advise
# ---------------------------------------------------------------------------------------
def advise(
    hand: Any,
    rules: RuleSet | str | None = "traditional",
    *,
    seen: Any = (),
    draws: int = 3,
    players: int = 4,
    sets: int | None = None,
    offered: Any = None,
    model: str = "lookahead",
    claims: bool = False,
    objective: str = "win",
) -> pd.DataFrame:
    """Rank the choices of a hand: which tile to throw, whether to claim a discard (搶牌).

    Two models (``model=``):

    - ``'lookahead'`` (default): the exact look-ahead of :mod:`kaptai.kts.lookahead` --
      each of the next ``draws`` looks is a uniform unseen tile, a tile that completes the
      hand wins, otherwise the player keeps the best 2n+1 of the 2n+2 tiles (optimal
      play, hand changes included).  ``p_win_within`` is P(win within the horizon) of the
      optimal policy and ``expected_score`` its mean score given a win.  Options are
      ranked by the objective (``'win'``: P(win), then the expected score;
      ``'score'``: the expected score counting no win as 0, then P(win)), then the live
      outs (descending) and the distance (ascending).  At most 4 draws (2 turns with
      ``claims``: each turn is the previous player's discard, then the own draw; after an
      ``offered`` decision the first turn has only the draw left).
    - ``'one_tile'``: every option leaves a hand of 9 (7) tiles that the player then stands
      on (the model of :func:`draw_odds`, own draws only).  Options are ranked by P(win
      within ``draws`` own draws), then the expected score of that win, then the live
      outs (all descending), then the distance from ready (ascending).

    In both, the distance from ready is the fewest tiles to exchange to be ready,
    ``(2n + 1) - max overlap`` with a winning hand that the tiles not in sight (the copies
    minus ``seen`` minus the tile just thrown) can still make; 0 = ready with a live out;
    ``waits`` and ``live_outs`` are those of the 9 (7) tiles kept.

    - 10 tiles (8 in Kap Shap): one row per distinct discard (``action='discard'``); a hand
      that is already a win gives one row ``action='win'`` (p 1, self-drawn score,
      distance -1).
    - 9 tiles (7) with ``offered`` (the previous player's discard): a row ``no_claim``
      (stand on the hand; the offered tile is then dead) and one row ``claim`` per discard
      after taking it, each a tile of the hand held before the claim (the exchange: the
      claimed tile goes back only as a second copy held before); the offered tile is no
      longer unseen either way, so both sides use the same pool; if the hand plus the offered tile is a win, the first row is
      ``claim_win`` (p 1, score without the self-draw point, distance -1).  Ties go to not
      claiming.
    - 9 tiles (7) without ``offered``: InvalidHandError -- there is no decision to rank
      (one short of a turn): give the offered tile, or the hand after the draw
      (:func:`draw_odds` gives the odds of standing on a 9-tile hand).

    Parameters
    ----------
    hand : str or iterable
        The player's tiles, any notation :func:`kaptai.kts.parse_hand` reads.
    rules : RuleSet or preset name
    seen : str or iterable, optional
        Tiles seen outside the hand (not the offered tile).
    draws : int
        Own draws in the horizon, at least 1 (at most 4 for the look-ahead, 2 turns with
        claims).
    players : int
        2 (Kap Shap) to 22.
    sets : int, optional
        Sets in play (default: the ruleset's, else the §2 table).
    offered : str or int, optional
        The tile the previous player just discarded, for a 9-tile hand.
    model : {'lookahead', 'one_tile'}
    claims : bool
        Look-ahead only: a claimable discard before each own draw.
    objective : {'win', 'score'}
        Look-ahead only: what the ranking maximises.

    Returns
    -------
    pandas.DataFrame
        Best first, columns ``rank`` (1 = best; equal options share a rank), ``action``,
        ``discard`` (pip notation or None), ``p_win_within``, ``expected_score`` (given a
        win; NaN if no win is possible), ``waits`` (pip notation, space-separated),
        ``live_outs``, ``distance`` and ``exact`` (``p_win_within`` as ``'p/q'``).
        ``attrs['model']`` names the model.

    Raises
    ------
    InvalidTileError, InvalidHandError, RulesError
        As :func:`draw_odds`; also ``offered`` with a 10-tile hand or a 9-tile hand
        without ``offered`` (InvalidHandError), or an offered tile of which the hand and
        ``seen`` already hold every copy; a bad
        ``model``, ``claims`` or ``objective`` (or ``claims``/``objective`` with the
        one-tile model), ``draws`` beyond the look-ahead's exact limit (RulesError).

    Examples
    --------
    >>> from kaptai.kts.advisor import advise
    >>> advise("16 16 16 12 33 13 15 22 66", offered="44")[["rank", "action", "p_win_within", "expected_score"]]
       rank     action  p_win_within  expected_score
    0     1  claim_win      1.000000             2.0
    1     2   no_claim      0.346275             3.0
    >>> a = advise("16 16 33 13 15 22 66 56 24", offered="44", draws=2, model="one_tile")
    >>> a[["rank", "action", "discard", "waits", "live_outs", "distance"]].head(4)
       rank    action discard        waits  live_outs  distance
    0     1     claim     5-6  1-6 2-5 3-4          6         0
    1     2     claim     2-4      4-5 3-6          4         0
    2     3     claim     1-6          5-6          3         0
    3     4  no_claim    None                       0         1
    >>> b = advise("16 16 12 33 13 15 22 66 45 55", draws=3)
    >>> b[["rank", "discard", "exact"]].head(3)
       rank discard         exact
    0     1     4-5    8471/49608
    1     2     5-5  21715/148824
    2     3     6-6  19975/148824
    >>> b.attrs["model"]
    'look-ahead: 3 looks drawn uniformly from the unseen pool, optimal discards (exact)'
    """
    if not isinstance(model, str) or model not in ("lookahead", "one_tile"):
        raise RulesError(f"model={quote_token(model)} is not allowed: expected 'lookahead' or 'one_tile'")
    ctx = _context(hand, rules, seen, players, sets, draws, offered)
    look = model == "lookahead"
    if look:
        from kaptai.kts import lookahead as la

        claims = la.check_claims(claims)
        objective = la.check_objective(objective)
    else:
        if claims is not False or objective != "win":
            raise RulesError(
                f"claims={quote_token(claims)}, objective={quote_token(objective)}: the one-tile model has no claims and "
                "ranks by P(win); use model='lookahead'"
            )
    small = 2 * ctx.n + 1
    rows: list[dict[str, Any]] = []
    hand_counts = np.bincount(np.asarray(ctx.hand, dtype=np.int64), minlength=N_TILE_TYPES)

    def row(action, p, e, discard=None, waits="", live=0, distance=-1, kept=None):
        rows.append({"action": action, "discard": discard, "p": p, "e": e, "waits": waits,
                     "live_outs": live, "distance": distance, "kept": kept})

    def kept_of(base: np.ndarray, discard: int | None) -> np.ndarray:
        k = base.copy()
        if discard is not None:
            k[discard] -= 1
        return k

    def from_opt(opt: _Option, u: int, base: np.ndarray) -> None:
        if look:
            p = e = None  # filled in by the look-ahead below
        else:
            st = _stats(opt, u, ctx.draws, claims=False)
            p, e = st["p"][-1], st["e"][-1]
        row(opt.action, p, e, None if opt.discard is None else format_tile(opt.discard),
            " ".join(format_tile(t) for t in opt.waits), opt.live, opt.distance, kept_of(base, opt.discard))

    def check(u: int) -> None:
        _check_horizon(ctx, u, claims if look else False)
        if look:
            la.check_limit(ctx.draws, claims)

    u = int((ctx.copies - ctx.seen).sum()) - len(ctx.hand) - (ctx.offered is not None)
    forced_first = False
    after_offer = False
    pool = ctx.copies - ctx.seen - hand_counts
    if len(ctx.hand) == small + 1:
        if ctx.offered is not None:
            raise InvalidHandError(
                f"offered applies to a hand of {small} tiles (the claim decision); a hand of "
                f"{small + 1} must discard first"
            )
        check(u)  # a bad horizon is said first, a complete hand too (draws=10**30 overflowed)
        s = _is_win(ctx, ctx.hand)
        if s >= 0:
            row("win", Fraction(1), Fraction(s + 1))
        else:
            opts, u = _discard_options(ctx, ctx.hand, ctx.seen, "discard", distance=True)
            for opt in opts:
                from_opt(opt, u, hand_counts)
    elif ctx.offered is None:
        check(u)  # a bad horizon is said first, as for every hand
        raise InvalidHandError(
            f"a hand of {small} tiles is one short of a turn: give the offered tile with --offered "
            f"(offered= in the API), or the hand after the draw ({small + 1} tiles)"
        )
    else:
        after_offer = True
        gone = ctx.seen.copy()
        gone[ctx.offered] += 1
        pool = pool.copy()
        pool[ctx.offered] -= 1
        claimed = ctx.hand + (ctx.offered,)
        s = _is_win(ctx, claimed)
        if s >= 0:
            row("claim_win", Fraction(1), Fraction(s))
            forced_first = True
        check(u)
        stay, u = _options(ctx, [ctx.hand], [gone], [None], ["no_claim"], distance=True)
        from_opt(stay[0], u, hand_counts)
        if s < 0:
            opts, _ = _discard_options(ctx, claimed, ctx.seen, "claim", distance=True)
            # the exchange discard comes from the hand held before the claim (以手牌交換): the
            # claimed tile itself goes back only as a second copy held before
            opts = [o for o in opts if o.discard in ctx.hand]
            with_offer = hand_counts.copy()
            with_offer[ctx.offered] += 1
            for opt in opts:
                from_opt(opt, u, with_offer)

    order_s: dict[int, Fraction] = {}
    if look:
        todo = [i for i, r in enumerate(rows) if r["kept"] is not None]
        if todo:
            bonus = la.look_bonus(ctx.draws, claims, after_offer=after_offer)
            avail = pool + hand_counts + (0 if ctx.offered is None else np.eye(N_TILE_TYPES, dtype=np.int64)[ctx.offered])
            ps, ss, _ = la.solve_values(ctx, [rows[i]["kept"] for i in todo], pool, avail, bonus, objective)
            for i, p, sc in zip(todo, ps, ss):
                rows[i]["p"] = p
                rows[i]["e"] = sc / p if p else None
                order_s[i] = sc
        for i, r in enumerate(rows):
            if i not in order_s:  # a win now: the score is certain
                order_s[i] = r["e"]

    def key_of(i: int):
        r = rows[i]
        if look:
            first = (r["p"], order_s[i]) if objective == "win" else (order_s[i], r["p"])
            return (*first, r["live_outs"], -r["distance"])
        return (r["p"], Fraction(-1) if r["e"] is None else r["e"], r["live_outs"], -r["distance"])

    keys = [key_of(i) for i in range(len(rows))]
    order = list(range(len(rows)))
    if not forced_first:
        order.sort(key=lambda i: keys[i], reverse=True)  # stable: ties keep no_claim / tile order
    ranks: list[int] = []
    for pos, i in enumerate(order):  # competition ranking: equal options share a rank
        tie = pos > 0 and not forced_first and keys[i] == keys[order[pos - 1]]
        ranks.append(ranks[-1] if tie else pos + 1)
    out = [
        {"rank": rank, "action": rows[i]["action"], "discard": rows[i]["discard"],
         "p_win_within": float(rows[i]["p"]),
         "expected_score": float("nan") if rows[i]["e"] is None else float(rows[i]["e"]),
         "waits": rows[i]["waits"], "live_outs": rows[i]["live_outs"], "distance": rows[i]["distance"],
         "exact": _fmt(rows[i]["p"])}
        for rank, i in zip(ranks, order)
    ]
    attrs = _attrs(ctx, u, claims if look else False)
    if look:
        looks = len(la.look_bonus(ctx.draws, claims, after_offer=after_offer))
        attrs.update({"model": la.model_text(looks, claims), "model_name": "lookahead", "claims": claims,
                      "objective": objective, "looks": looks})
    else:
        attrs["model_name"] = "one_tile"
    df = _nones(tidy_frame(out, ADVICE_COLUMNS, {}), ("discard", "exact"))
    df = df.astype({"rank": np.int64, "live_outs": np.int64, "distance": np.int64})
    df.attrs.update(tidy_frame([], [], attrs).attrs)  # last: pandas deep-copies attrs on every operation
    return df
