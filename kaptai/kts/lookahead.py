"""Exact look-ahead advice for Kap Tai Shap (夾大十) and Kap Shap (夾十): which tile to throw.

The one-tile model of :mod:`kaptai.kts.advisor` keeps the hand and throws every drawn tile
that does not win, so a hand that is not yet ready scores 0 for every discard.  This
module plays the next few looks optimally, changing the hand on the way.

Model
-----
The player holds H (2n+1 tiles) and has seen S.  The unseen pool U = the sets' copies − H − S.
Each of the next k looks is one tile drawn uniformly at random from the current pool, without
replacement.  If H + tile is a win, the player wins; otherwise the player keeps the best 2n+1 of
the 2n+2 tiles and the discard leaves play.  Optimal play: V_0 = 0 and
V_j(H, pool) = Σ_t pool[t]/|pool| · (1 if H+t wins, else max over x in H+t of
V_{j−1}(H+t−x, pool−t)).  For a hand G of 2n+2 tiles after a draw, the value of discarding x is
V_k(G − x, caps − G − S).  With claims (``claims=True``), each turn has two looks, the offered
discard then the draw, each a uniform draw from the pool; a claimed tile is exchanged, an
unclaimed one leaves play.  An option maximises the expected score instead of P(win)
(``objective="score"``; the self-draw point is included, as in the one-tile model: a win on
an own draw scores ``score_hands`` + 1, a win on a claimed discard ``score_hands``).

Both figures of the chosen policy are reported: with ``objective="win"`` the policy
maximises P(win) and, among the discards that do, the expected score; with
``objective="score"`` the other way round.  Values are exact: the compiled recursion
(:mod:`kaptai.kts._lookahead`) works on integer numerators over ``u (u-1) ... (u-k+1)``
(u the pool size), returned here as :class:`fractions.Fraction`.

Exact limit: at most :data:`MAX_DRAWS` draws without claims, :data:`MAX_CLAIM_TURNS` turns
(four looks) with claims; longer horizons are refused (use the one-tile model of
:func:`kaptai.kts.advisor.draw_odds`).

Examples
--------
>>> from kaptai.kts.lookahead import lookahead
>>> df = lookahead("16 16 12 33 13 15 22 66 45 55", draws=2)
>>> df[["rank", "discard", "exact", "optimal"]].head(3)
   rank discard     exact  optimal
0     1     4-5  199/2862     True
1     2     5-5  157/2862    False
2     3     1-2     8/159    False
>>> df.attrs["model"]
'look-ahead: 2 looks drawn uniformly from the unseen pool, optimal discards (exact)'
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core.tables import tidy_frame
from kaptai.errors import RulesError, quote_token
from kaptai.kts import _lookahead
from kaptai.kts.tiles import N_TILE_TYPES, format_tile

__all__ = ["lookahead", "LOOKAHEAD_COLUMNS", "MAX_DRAWS", "MAX_CLAIM_TURNS", "OBJECTIVES"]

#: Largest exact horizon: own draws without claims, turns (two looks each) with claims.
MAX_DRAWS = 4
MAX_CLAIM_TURNS = 2
#: The two objectives.
OBJECTIVES = ("win", "score")
#: Columns of :func:`lookahead`.
LOOKAHEAD_COLUMNS = ["rank", "action", "discard", "value", "exact", "optimal", "p_win", "p_win_exact",
                     "expected_score", "score_exact"]


def check_objective(objective: Any) -> str:
    if not isinstance(objective, str) or objective not in OBJECTIVES:
        raise RulesError(f"objective={quote_token(objective)} is not allowed: expected 'win' or 'score'")
    return objective


def check_claims(claims: Any) -> bool:
    if not isinstance(claims, (bool, np.bool_)):
        raise RulesError(f"claims={quote_token(claims)} is not allowed: expected True or False")
    return bool(claims)


def check_limit(draws: int, claims: bool) -> None:
    """Refuse a horizon beyond the exact limit, naming it."""
    limit = MAX_CLAIM_TURNS if claims else MAX_DRAWS
    if draws > limit:
        what = f"{MAX_CLAIM_TURNS} turns with claims (four looks)" if claims else f"{MAX_DRAWS} draws"
        raise RulesError(
            f"draws={draws} is beyond the exact look-ahead limit of {what}; "
            f"use draws <= {limit} or the one-tile model (model='one_tile')"
        )


def look_bonus(draws: int, claims: bool, after_offer: bool = False) -> list[int]:
    """Self-draw point of each look: 1 for an own draw, 0 for a claimed discard.

    Without claims every look is an own draw.  With claims a turn is (offered discard, own
    draw); ``after_offer``: the first turn's offered discard was already decided."""
    if not claims:
        return [1] * draws
    looks = [0, 1] * draws
    return looks[1:] if after_offer else looks


def model_text(looks: int, claims: bool) -> str:
    return (f"look-ahead: {looks} looks drawn uniformly from the unseen pool, optimal discards"
            + (" and claims" if claims else "") + " (exact)")


def solve_values(ctx, hands: list[np.ndarray], pool: np.ndarray, avail: np.ndarray, bonus: list[int],
                 objective: str) -> tuple[list[Fraction], list[Fraction], dict]:
    """Exact (P(win), E[score]) of each 2n+1 hand in ``hands``, all drawing from ``pool``.

    ``ctx`` is the advisor's validated context (rules and ``n``); ``avail`` bounds hand +
    pool over the horizon (for the overlap bound)."""
    out = _lookahead._solve(
        np.asarray(hands, dtype=np.int64).reshape(-1, N_TILE_TYPES), [int(v) for v in pool],
        [int(v) for v in avail], len(bonus), bonus, OBJECTIVES.index(objective), ctx.mask, ctx.base_sum,
        ctx.gj, ctx.n,
    )
    d = out["denominator"]
    return [Fraction(v, d) for v in out["p"]], [Fraction(v, d) for v in out["s"]], out


def _fmt(x: Fraction | None) -> str | None:
    return None if x is None else f"{x.numerator}/{x.denominator}"


def lookahead(
    hand: Any,
    rules: Any = "traditional",
    *,
    seen: Any = (),
    draws: int = 3,
    players: int = 4,
    sets: int | None = None,
    claims: bool = False,
    objective: str = "win",
) -> pd.DataFrame:
    """Exact value of every distinct discard under optimal play of the next looks.

    The model (stated in the module docstring and ``docs/kts-lookahead.md``): every look is
    a tile drawn uniformly from the unseen pool without replacement; a tile that completes
    the hand wins, otherwise the player keeps the best 2n+1 of the 2n+2 tiles.  The value of
    discarding x from the 2n+2 hand G is ``V_k(G - x, caps - G - S)``.

    Parameters
    ----------
    hand : str or iterable
        10 tiles (8 in Kap Shap): one row per distinct discard; or 9 (7): one ``draw`` row,
        the value of the hand as it stands.  Any notation :func:`kaptai.kts.parse_hand` reads.
    rules : RuleSet or preset name
    seen : str or iterable, optional
        S: tiles seen outside the hand.
    draws : int
        k: own draws (turns of two looks with ``claims``), 1..4 (1..2 with claims).
    players : int
        2 (Kap Shap) to 22.
    sets : int, optional
        Sets in play (default: the ruleset's, else the §2 table).
    claims : bool
        Each turn is two looks: the offered discard (claim it and throw a tile, or let it
        go: no self-draw point on a claimed win), then the own draw.
    objective : {'win', 'score'}
        Maximise P(win within the horizon) or the expected score (0 without a win).

    Returns
    -------
    pandas.DataFrame
        Best first; columns ``rank`` (equal values share a rank), ``action`` (``discard``;
        ``draw`` for a 2n+1 hand; ``win`` for a 2n+2 hand that is already a win: value 1, or
        its self-drawn score), ``discard`` (pip notation or None), ``value`` and ``exact``
        (the objective's value, float and ``'p/q'``), ``optimal`` (value equals the best),
        ``p_win``/``p_win_exact`` and ``expected_score``/``score_exact`` (P(win) and the
        unconditional expected score of the policy, one of them being ``value``).
        ``attrs``: rules, players, sets, hand, seen, unseen, draws, looks, claims,
        objective, model, method and the search counters (``search_states``, ``search_hands``).

    Raises
    ------
    InvalidTileError, InvalidHandError
        As :func:`kaptai.kts.advisor.advise`.
    RulesError
        As ``advise``; also ``draws`` beyond the exact limit (named in the message), more
        looks than unseen tiles, a bad ``objective`` or ``claims``.

    Examples
    --------
    >>> from kaptai.kts.lookahead import lookahead
    >>> lookahead("16 16 16 12 33 13 15 22 66 56", draws=1)[["discard", "exact"]].head(2)
      discard exact
    0     5-6  4/27
    1     6-6  2/27
    >>> s = lookahead("66 66 14 14 23 23 55 55 46 36", "advanced", draws=1, objective="score")
    >>> s.iloc[0][["discard", "score_exact", "p_win_exact"]].tolist()
    ['3-6', '19/27', '5/54']
    """
    from kaptai.kts.position import check_horizon as _check_horizon
    from kaptai.kts.position import is_win as _is_win
    from kaptai.kts.position import position as _context
    from kaptai.kts.position import position_attrs as _attrs

    ctx = _context(hand, rules, seen, players, sets, draws)
    claims = check_claims(claims)
    objective = check_objective(objective)
    big = len(ctx.hand) == 2 * ctx.n + 2
    counts = np.bincount(np.asarray(ctx.hand, dtype=np.int64), minlength=N_TILE_TYPES)
    pool = ctx.copies - ctx.seen - counts
    u = int(pool.sum())
    bonus = look_bonus(ctx.draws, claims)
    rows: list[dict[str, Any]] = []
    stats: dict[str, Any] = {}
    if big and (s := _is_win(ctx, ctx.hand)) >= 0:
        pw, sc = Fraction(1), Fraction(s + 1)
        rows.append({"action": "win", "discard": None, "p": pw, "s": sc})
    else:
        _check_horizon(ctx, u, claims)
        check_limit(ctx.draws, claims)
        xs: list[int | None]
        if big:
            xs = [t for t in range(N_TILE_TYPES) if counts[t]]
            hands = [counts - np.eye(N_TILE_TYPES, dtype=np.int64)[x] for x in xs]
        else:
            xs, hands = [None], [counts]
        ps, ss, stats = solve_values(ctx, hands, pool, counts + pool, bonus, objective)
        for x, p, s_ in zip(xs, ps, ss):
            rows.append({"action": "discard" if big else "draw", "discard": None if x is None else format_tile(x),
                         "p": p, "s": s_})
    key = (lambda r: (r["p"], r["s"])) if objective == "win" else (lambda r: (r["s"], r["p"]))
    order = sorted(range(len(rows)), key=lambda i: key(rows[i]), reverse=True)  # stable: tile order on ties
    best = key(rows[order[0]])[0]
    out: list[dict[str, Any]] = []
    ranks: list[int] = []
    for pos, i in enumerate(order):
        tie = pos > 0 and key(rows[i]) == key(rows[order[pos - 1]])
        ranks.append(ranks[-1] if tie else pos + 1)
        r = rows[i]
        v = r["p"] if objective == "win" else r["s"]
        out.append({"rank": ranks[-1], "action": r["action"], "discard": r["discard"], "value": float(v),
                    "exact": _fmt(v), "optimal": v == best, "p_win": float(r["p"]), "p_win_exact": _fmt(r["p"]),
                    "expected_score": float(r["s"]), "score_exact": _fmt(r["s"])})
    attrs = _attrs(ctx, u, claims)
    attrs.update({"claims": claims, "objective": objective, "looks": len(bonus),
                  "model": model_text(len(bonus), claims),
                  "search_states": int(stats.get("states", 0)), "search_hands": int(stats.get("hands", 0))})
    # build the columns with their dtypes first, attrs last (pandas deep-copies attrs on
    # every later operation)
    cols: dict[str, Any] = {c: [r[c] for r in out] for c in LOOKAHEAD_COLUMNS}
    cols["rank"] = np.asarray(cols["rank"], dtype=np.int64)
    cols["optimal"] = np.asarray(cols["optimal"], dtype=bool)
    cols["discard"] = np.asarray(cols["discard"], dtype=object)
    df = pd.DataFrame(cols, columns=LOOKAHEAD_COLUMNS)
    df["discard"] = df["discard"].astype(object).where(df["discard"].notna(), None)
    df.attrs.update(tidy_frame([], [], attrs).attrs)
    return df
