"""Policy league for Kap Tai Shap (夾大十): how much is playing well worth, per hand?

The league itself is the one duplicate league of every game (:mod:`kaptai.core.league`:
every deal replayed with the policies rotated through the seats, intervals clustered by
deal, paired differences); this module keeps Kap Tai Shap's own entry points on top of it:
several rulesets in one table, the advisor-driven policy (:class:`AdvisorPolicy`), the
settlement helpers :func:`expected_value` and :func:`seat_ev`, and :func:`plot_league`.

Each playing policy -- the compiled built-ins (:mod:`kaptai.kts.policies`) and, on request,
the advisor-driven :class:`AdvisorPolicy` -- sits at each seat in turn of a table whose other
seats play one fixed *baseline* policy (``'greedy'`` by default), on the same deals: the
Kap Tai Shap feed (:func:`kaptai.kts.atlas.deal_rows`) plays deal ``i`` on ``PCG64`` of its
own seed, which draws the wall and the dice before any policy acts, so every arrangement
plays the same wall.  The advisor (pure Python, tens of hands a second) plays the first
``ceil(advisor_hands / players)`` deals; its differences are paired over those.

Money
-----
All values are in units of one ante (pot game) or one scoring point (advanced game; a
point is one unit) per hand, from the point of view of one seat, settled hand by hand
(:func:`kaptai.core.settlement.settle_outcomes`; the dealer streak (連莊) is not modelled).
With ``w_j`` = P(seat ``j`` wins), ``d`` = P(drawn hand, 流局), ``m_j`` = E[score | ``j``
wins], ``P`` players and house cut ``c``:

- pot, ``drawn_hand='refund'``: ``EV_s = w_s * P * (1 - c) - (1 - d)``;
- pot, ``drawn_hand='carry'``: ``EV_s = w_s * P * (1 - c) / (1 - d) - 1`` in the long run
  (:func:`expected_value`; a league refuses it: a carried pot makes a hand's result depend
  on earlier hands);
- advanced: ``EV_s = w_s * (P - 1) * m_s * (1 - c) - sum_{j != s} w_j * m_j``.

Examples
--------
>>> from kaptai.kts.league import policy_league
>>> df = policy_league(players=(3,), rules=("traditional",), hands=300, seed=1,
...                    policies=("random", "greedy"), progress=False)
>>> df[["policy", "metric"]].drop_duplicates().shape
(9, 2)
>>> sorted(set(df.metric))
['ev_per_hand', 'value_of_play', 'vs_best_other', 'win', 'win_share']
>>> df.groupby("policy").hands.first().to_dict()
{'greedy': 300, 'random': 300}
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from numbers import Integral
from typing import Any

import numpy as np
import pandas as pd

from kaptai.core import league as _core
from kaptai.core.options import as_tuple as _as_tuple
from kaptai.core.options import check_count as _count
from kaptai.core.plotting import save_figure, with_cjk_font
from kaptai.core.settlement import pot_ev
from kaptai.core.stats import z_value
from kaptai.errors import RulesError, quote_token
from kaptai.kts.advisor import advise
from kaptai.kts.policies import BUILTIN_POLICIES, Policy, PlayerView
from kaptai.kts.rules import PRESETS, RuleSet, game_name, resolve_rules, settlement_unit
from kaptai.kts.simulate import CONFIDENCE
from kaptai.kts.tiles import N_TILE_TYPES, format_tile

__all__ = [
    "LEAGUE_COLUMNS",
    "LEAGUE_METRICS",
    "LEAGUE_POLICIES",
    "AdvisorPolicy",
    "expected_value",
    "seat_ev",
    "policy_league",
    "plot_league",
    "league_tables_command",
]

#: Columns of :func:`policy_league` (those of every game's league, :mod:`kaptai.core.league`).
LEAGUE_COLUMNS: list[str] = list(_core.LEAGUE_COLUMNS)
#: Metrics of :func:`policy_league` and what they are (per hand, one seat's view).
LEAGUE_METRICS: dict[str, str] = dict(_core.LEAGUE_METRICS)
#: The built-in policies a league plays by default (every compiled one but `lookahead_score`,
#: which is asked for by name: `--policies ...,lookahead_score`).
LEAGUE_POLICIES: tuple[str, ...] = ("random", "greedy", "score", "lookahead", "lookahead_score", "search")
_ADVISOR = "advisor"
_TILE_ID = {format_tile(t): t for t in range(N_TILE_TYPES)}


# --------------------------------------------------------------------------------------
# The advisor-driven policy
# --------------------------------------------------------------------------------------


def _ids(counts: Sequence[int]) -> list[int]:
    return [t for t in range(N_TILE_TYPES) for _ in range(int(counts[t]))]


class AdvisorPolicy(Policy):
    """Play what :func:`kaptai.kts.advisor.advise` ranks first (``'advisor'``).

    - **discard**: ``advise`` on the seat's ``2n + 2`` tiles with ``seen`` = every tile
      face up on the table (:attr:`PlayerView.table`); the first-ranked discard that is
      legal is thrown (after a claim the claimed tile may not be thrown straight back;
      that option ranks as not claiming at all).
    - **claim** (搶牌): for each candidate ``c``, ``advise(hand, offered=c)`` with ``seen``
      = the table less that copy of ``c``; the candidate is claimable when the first row
      is ``claim_win`` or ``claim`` (ties go to not claiming).  Among claimable
      candidates (several only under ``claim='any'``) a winning claim of the highest
      score comes first, then the best first row by (P(win within ``draws``), expected
      score, live outs, -distance), then the lowest tile id.  Under
      ``turn='claim-or-draw'`` declining means drawing.

    The policy is deterministic (it never reads ``view.rng``).  It is a Python policy, so
    :func:`~kaptai.kts.simulate.simulate` plays its tables in the pure-Python reference
    engine (:mod:`kaptai.kts.engine_reference`, the other seats included): tens of hands
    per second at 4 players, against tens of thousands for the compiled built-ins.
    Budget a few hundred hands.

    Parameters
    ----------
    draws : int
        Horizon of ``advise`` (own draws), at least 1.

    Examples
    --------
    >>> from kaptai.kts.league import AdvisorPolicy
    >>> from kaptai.kts.policies import PlayerView
    >>> from kaptai.kts.rules import resolve_rules
    >>> from kaptai.kts.tiles import parse_hand, tile_counts, format_tile
    >>> hand = tile_counts(parse_hand("16 16 33 13 15 22 55 46 66 56"))
    >>> table = tile_counts(parse_hand("45 45 36"))
    >>> view = PlayerView(seat=1, players=4, n=4, rules=resolve_rules("traditional"),
    ...                 copies=(4,) * 11 + (2,) * 10, hand=tuple(hand), table=tuple(table),
    ...                 wall_remaining=20, turn=3, first_hand=0, rng=None)
    >>> legal = tuple(t for t in range(21) if hand[t])
    >>> format_tile(AdvisorPolicy().discard(view, legal))    # advise() ranks 5-6 first
    '5-6'
    """

    name = _ADVISOR

    def __init__(self, draws: int = 3):
        if isinstance(draws, bool) or not isinstance(draws, Integral) or draws < 1:
            raise RulesError(f"draws={quote_token(draws)} is not allowed: expected an integer >= 1")
        self.draws: int = int(draws)

    def _advise(self, view: PlayerView, hand: Sequence[int], seen: Sequence[int], offered=None):
        return advise(
            _ids(hand), view.rules, seen=_ids(seen), draws=self.draws, players=view.players,
            sets=view.rules.sets, offered=offered,
        )

    def discard(self, view: PlayerView, legal: tuple[int, ...]) -> int:
        ranked = self._advise(view, view.hand, view.table)
        for d in ranked["discard"]:
            t = _TILE_ID.get(d) if d is not None else None
            if t is not None and t in legal:
                return t
        return legal[0]  # pragma: no cover - a winning hand is never asked to discard

    def claim(self, view: PlayerView, candidates: tuple[int, ...]) -> int | None:
        best_key, choice = None, None
        for c in candidates:
            seen = list(view.table)
            seen[c] -= 1
            top = self._advise(view, view.hand, seen, offered=c).iloc[0]
            if top["action"] not in ("claim_win", "claim"):
                continue
            # a winning claim first (by score), then the advisor's own ordering
            key = (
                top["action"] == "claim_win",
                top["expected_score"] if top["action"] == "claim_win" else 0.0,
                Fraction(top["exact"]),
                -1.0 if math.isnan(top["expected_score"]) else top["expected_score"],
                int(top["live_outs"]),
                -int(top["distance"]),
            )
            if best_key is None or key > best_key:  # strict: ties keep the lowest tile id
                best_key, choice = key, c
        return choice


# --------------------------------------------------------------------------------------
# Settlement: expected value from outcome frequencies
# --------------------------------------------------------------------------------------


def expected_value(
    win: Sequence[float],
    drawn: float,
    rules: RuleSet | str | Mapping[str, Any] | None = "traditional",
    *,
    score_mean: Sequence[float] | None = None,
) -> np.ndarray:
    """Expected net gain per hand of every seat, from win rates (and mean winning scores).

    Parameters
    ----------
    win : sequence of float
        P(seat ``j`` wins the hand), one entry per seat; ``len(win)`` is the player count.
    drawn : float
        P(the hand is drawn, 流局); ``sum(win) + drawn`` should be 1.
    rules : RuleSet, str, mapping or None
        Settlement, ``house_cut`` and ``drawn_hand`` are read from it.
    score_mean : sequence of float, optional
        E[score | seat ``j`` wins]; required for advanced settlement (NaN is allowed for
        a seat that never wins).

    Returns
    -------
    numpy.ndarray
        EV per seat, in antes (pot) or points (advanced):

        - pot, refund: ``w_s * P * (1 - cut) - (1 - drawn)``;
        - pot, carry: ``w_s * P * (1 - cut) / (1 - drawn) - 1``;
        - advanced: ``w_s * (P - 1) * m_s * (1 - cut) - sum_{j != s} w_j * m_j``.

    Raises
    ------
    RulesError
        For bad rules, or advanced settlement without ``score_mean`` of the right length.

    Examples
    --------
    >>> from kaptai.kts.league import expected_value
    >>> expected_value([0.3, 0.2, 0.25, 0.15], 0.1, "traditional").round(4).tolist()
    [0.24, -0.14, 0.05, -0.33]
    >>> expected_value([0.3, 0.2, 0.25, 0.15], 0.1, "advanced",
    ...                score_mean=[3, 4, 2, 5]).round(4).tolist()
    [0.65, 0.25, -0.95, 0.05]
    """
    r = resolve_rules(rules)
    w = np.asarray(win, dtype=np.float64)
    P = w.size
    cut = r.house_cut
    if r.settlement == "pot":
        if r.drawn_hand == "carry" and drawn >= 1:  # the pot is never won: no finite EV
            return np.full(P, np.nan)
        return pot_ev(w, drawn, P, cut, r.drawn_hand)[0]
    if score_mean is None or len(score_mean) != P:
        raise RulesError(
            f"advanced settlement needs score_mean, one mean winning score per seat ({P})"
        )
    a = w * np.nan_to_num(np.asarray(score_mean, dtype=np.float64))  # E[score; j wins]
    return (P - 1) * (1.0 - cut) * a - (a.sum() - a)


@dataclass(frozen=True, eq=False)
class _Cells:
    """Multinomial outcome cells of one run: who wins (-1 drawn), the score, P(cell)."""

    players: int
    hands: int
    winner: np.ndarray
    score: np.ndarray
    p: np.ndarray

    @property
    def drawn(self) -> float:
        return float(self.p[self.winner < 0].sum())


def _cells(sim: pd.DataFrame, rules: RuleSet) -> _Cells:
    """Outcome cells of a :func:`simulate` table (dealer-relative seats)."""
    P = int(sim["players"].iloc[0])
    drawn_row = sim[sim.metric == "drawn_hand"]
    N = int(drawn_row.samples.iloc[0])
    win = sim[(sim.metric == "win") & (sim.relative_to == "dealer")].sort_values("seat")
    w = win.value.to_numpy(dtype=np.float64)
    winner, score, p = [-1], [0.0], [float(drawn_row.value.iloc[0])]
    if rules.settlement == "pot":
        winner += list(range(P))
        score += [0.0] * P
        p += w.tolist()
    else:
        dist = sim[(sim.metric == "score") & (sim.relative_to == "dealer")]
        for seat, q, level in zip(dist.seat, dist.value, dist.level):
            winner.append(int(seat))
            score.append(float(level))
            p.append(float(w[int(seat)] * q))
    return _Cells(P, N, np.array(winner), np.array(score), np.array(p))


def _ev_and_var(cells: _Cells, weights: np.ndarray, rules: RuleSet) -> tuple[float, float]:
    """EV of the seat mix ``weights`` and the delta-method variance of its estimate."""
    P, cut = cells.players, rules.house_cut
    won = cells.winner >= 0
    w_of_winner = np.where(won, weights[np.maximum(cells.winner, 0)], 0.0)
    if rules.settlement == "pot":
        gross = P * (1.0 - cut) * w_of_winner  # what the mix receives in the cell
        if rules.drawn_hand == "carry":
            d = cells.drawn
            if d >= 1.0:
                return float("nan"), float("nan")
            A = float((cells.p * gross).sum())
            ev = A / (1.0 - d) - 1.0
            grad = np.where(won, gross / (1.0 - d), A / (1.0 - d) ** 2)
        else:
            grad = np.where(won, gross - 1.0, 0.0)
            ev = float((cells.p * grad).sum())
    else:
        # the mix receives (P-1) x score x (1-cut) when it wins, pays the score otherwise
        grad = np.where(
            won, cells.score * ((P - 1) * (1.0 - cut) * w_of_winner - (1.0 - w_of_winner)), 0.0
        )
        ev = float((cells.p * grad).sum())
    mean_g = float((cells.p * grad).sum())
    var = max(float((cells.p * grad * grad).sum()) - mean_g * mean_g, 0.0) / cells.hands
    return ev, var


def seat_ev(
    sim: pd.DataFrame,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    *,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """EV per hand of every dealer-relative seat of a :func:`simulate` table, with CIs.

    Parameters
    ----------
    sim : pandas.DataFrame
        A table of :func:`kaptai.kts.simulate.simulate` (its ``win`` rows relative to the
        dealer, ``drawn_hand`` and, for advanced settlement, the ``score`` distribution).
    rules : RuleSet, str, mapping or None
        The rules it was played under; default ``sim.attrs['rules']``.
    confidence : float
        Level of the intervals (delta method, see the module docstring).

    Returns
    -------
    pandas.DataFrame
        Columns ``seat`` (0 = dealer), ``value`` (EV in antes or points per hand),
        ``ci_low``, ``ci_high``, ``sd`` (standard error), ``hands``.

    Examples
    --------
    >>> from kaptai.kts.simulate import simulate
    >>> from kaptai.kts.league import seat_ev
    >>> sim = simulate(4, "traditional", 2000, seed=1, progress=False)
    >>> ev = seat_ev(sim)
    >>> drawn = sim[sim.metric == "drawn_hand"].value.iloc[0]
    >>> bool(abs(ev.value.sum() + 0.05 * 4 * (1 - drawn)) < 1e-12)   # the house's take
    True
    """
    if rules is None:
        if "rules" not in sim.attrs:
            raise RulesError("seat_ev needs rules= when the table has no attrs['rules']")
        rules = sim.attrs["rules"]
    r = resolve_rules(rules)
    cells = _cells(sim, r)
    z = z_value(confidence)
    rows = []
    for s in range(cells.players):
        weights = np.zeros(cells.players)
        weights[s] = 1.0
        ev, var = _ev_and_var(cells, weights, r)
        sd = math.sqrt(var)
        rows.append((s, ev, ev - z * sd, ev + z * sd, sd, cells.hands))
    return pd.DataFrame(rows, columns=["seat", "value", "ci_low", "ci_high", "sd", "hands"])


# --------------------------------------------------------------------------------------
# The league (the shared duplicate league, kaptai.core.league)
# --------------------------------------------------------------------------------------


def _make_policy(name: str) -> Policy:
    if name == _ADVISOR:
        return AdvisorPolicy()
    raise RulesError(f"unknown policy {quote_token(name)}")  # pragma: no cover - names are checked first


def _deal_rows(variant: Any, arrangements: Any, chunk: Any) -> list[dict[str, np.ndarray]]:
    """The feed's duplicate deals, the advisor played by :class:`AdvisorPolicy` (reference engine)."""
    from kaptai.kts.atlas import deal_rows

    return deal_rows(variant, arrangements, chunk, make_policy=_make_policy)


def _game() -> _core.LeagueGame:
    from kaptai.kts.atlas import FEED

    return _core.LeagueGame("kap-tai-shap", dataclasses.replace(FEED, deal_rows=_deal_rows), (2, 22), 4,
                            tuple(BUILTIN_POLICIES) + (_ADVISOR,), resolve_rules)


def _policy_name(p: object, what: str) -> str:
    if isinstance(p, str) and p.strip().lower() in BUILTIN_POLICIES:
        return p.strip().lower()
    raise RulesError(
        f"unknown {what} {str(p)[:40]!r}: expected one of {', '.join(repr(b) for b in BUILTIN_POLICIES)} "
        "(the advisor policy is added with include_advisor=True)"
    )


def _rule_sets(rules: Any) -> list[RuleSet]:
    out: list[RuleSet] = []
    for r in _as_tuple(rules, (str, RuleSet, Mapping)):
        out.append(resolve_rules(r))
    if not out:
        raise RulesError("rules is empty: give at least one ruleset")
    names = [r.name for r in out]
    if len(set(names)) != len(names):
        raise RulesError(
            f"rulesets with the same name {quote_token(names)}: give each a distinct name= to label the rows (and no "
            "ruleset twice)"
        )
    return out


def _each_ruleset(fn: Any, players: Any, rules: Any, hands: int, seed: Any, pols: list[str],
                  include_advisor: bool, advisor_hands: int, checkpoint: Any, strong_hands: int | None = None,
                  **kw: Any) -> list[pd.DataFrame]:
    rule_sets = _rule_sets(rules)
    try:
        counts = tuple(dict.fromkeys(_as_tuple(players, (int, np.integer))))
    except TypeError:
        raise RulesError(f"players={str(players)[:40]!r}: expected a player count or a sequence of them") from None
    if not counts:
        raise RulesError("players is empty: give at least one player count")
    from kaptai.kts.config import make_config

    for p in counts:
        for r in rule_sets:
            make_config(p, r)  # validates players, rules and the deal
    from kaptai.core.runner import check_checkpoint_arg

    checkpoint = check_checkpoint_arg(checkpoint)  # a wrong type or too long a name: before any work
    g = _game()
    names = pols + ([_ADVISOR] if include_advisor else [])
    caps = {_ADVISOR: advisor_hands} if include_advisor else {}
    if strong_hands is not None:
        caps[g.feed.strong_policy] = _count("strong_hands", strong_hands, 1)
    out = []
    for i, r in enumerate(rule_sets):
        sub = None if checkpoint is None else os.path.join(os.fspath(checkpoint), f"rules-{i}-{r.name}")
        part = fn(g, tuple(counts), r, hands, seed, tuple(names), checkpoint=sub,
                  caps=caps or None,
                  chunk_hands={_ADVISOR: 8}, **kw)
        out.append(_core.name_unit(part, g.feed.unit, settlement_unit(r.settlement, singular=True)))
    return out


def _every_ruleset_in_attrs(df: pd.DataFrame, parts: list[pd.DataFrame]) -> None:
    """``df.attrs``: the first ruleset's, with the settings naming every ruleset of ``parts`` (the
    header of a table over several rulesets names them all)."""
    df.attrs.update(parts[0].attrs)
    if len(parts) > 1:
        df.attrs["settings"] = {**parts[0].attrs.get("settings", {}), "rules": [p.attrs["rules"] for p in parts]}
        df.attrs["unit"] = " / ".join(dict.fromkeys(str(p.attrs.get("unit")) for p in parts))


def policy_league(
    players: int | Sequence[int] = (3, 4, 6, 10),
    rules: RuleSet | str | Mapping[str, Any] | Sequence[RuleSet | str | Mapping[str, Any]] = (
        "traditional", "advanced",
    ),
    hands: int = 20_000,
    seed: int | None = 0,
    policies: str | Sequence[str] = LEAGUE_POLICIES,
    include_advisor: bool = False,
    advisor_hands: int = 200,
    workers: int = 1,
    progress: bool = True,
    *,
    baseline: str = "greedy",
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    strong_hands: int | None = None,
) -> pd.DataFrame:
    """Duplicate league of playing policies: win rate and EV per hand, paired differences, with CIs.

    For every ruleset and player count, each policy plays every deal at each seat in turn
    against a field of ``baseline`` (:func:`kaptai.core.league.policy_league`; the rows are
    its rows, one ruleset after the other).

    Parameters
    ----------
    players : int or sequence of int
        Player counts (2 to 22, as the ruleset allows).
    rules : RuleSet, str, mapping or a sequence of them
        Rulesets, each with its own name (the ``rules`` column).
    hands : int
        Hands per policy, ruleset and player count (``ceil(hands / players)`` deals, each played
        at every seat).
    seed : int or None
        League seed (the same seed gives the same table).
    policies : str or sequence of str
        Built-in policies; ``'random'`` is always played as the reference of ``value_of_play``.
    include_advisor : bool
        Also play :class:`AdvisorPolicy` (``'advisor'``) on the first ``advisor_hands`` hands'
        deals (pure Python: budget a few hundred hands).
    advisor_hands : int
        Hands of the advisor per ruleset and player count.
    workers, progress, scheduler, checkpoint
        As :func:`kaptai.core.runner.run_jobs` (one checkpoint folder per ruleset inside
        ``checkpoint``).
    baseline : str
        Built-in policy of the field (every other seat).
    strong_hands : int, optional
        Hands of ``search`` per ruleset and player count (default: its cap of 6,000, the search
        being slow; at most ``hands``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`LEAGUE_COLUMNS`; metrics :data:`LEAGUE_METRICS` (``value_of_play`` for every
        policy but ``'random'``, ``vs_best_other`` when the table has two policies or more).  Values
        are per hand in antes (pot settlement) or points (advanced), one seat's view.  ``attrs``:
        ``seed_entropy``, ``version``, ``settings`` (every argument, the rules as dicts),
        ``runs``, ``confidence``, ``metrics``, ``ev_method``, ``differences`` (every pair of
        policies, :func:`kaptai.core.league.league_differences`).

    Raises
    ------
    RulesError
        For an unknown policy or baseline, a bad player count or ruleset, a ruleset name given
        twice, ``drawn_hand='carry'``, ``hands``/``advisor_hands``/``workers`` < 1 or a bad seed.

    Examples
    --------
    >>> from kaptai.kts.league import policy_league
    >>> df = policy_league(players=4, rules="traditional", hands=400, seed=2,
    ...                    policies=("random", "greedy"), progress=False)
    >>> df[df.metric == "ev_per_hand"][["policy", "value"]].round(3).values.tolist()
    [['random', -0.816], ['greedy', -0.05]]
    >>> policy_league(players=1, hands=10)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: players=1 is not supported: expected an integer from 2 to 22
    """
    hands = _count("hands", hands, 1)
    advisor_hands = _count("advisor_hands", advisor_hands, 1)
    baseline = _policy_name(baseline, "baseline policy")
    pols: list[str] = []
    for p in _as_tuple(policies, (str,)):
        name = _policy_name(p, "policy")
        if name not in pols:
            pols.append(name)
    if not pols and not include_advisor:
        raise RulesError("policies is empty: give at least one built-in policy")
    parts = _each_ruleset(_core.policy_league, players, rules, hands, seed, pols, include_advisor, advisor_hands,
                          checkpoint, strong_hands=strong_hands, workers=workers, progress=progress,
                          baseline=baseline, scheduler=scheduler)
    df = pd.concat(parts, ignore_index=True)
    first = parts[0].attrs
    df.attrs.update({
        **first,
        "settings": {
            "players": list(first["settings"]["players"]),
            "rules": [p.attrs["rules"] for p in parts],
            "hands": hands, "policies": pols, "baseline": baseline, "include_advisor": bool(include_advisor),
            "advisor_hands": advisor_hands, "design": "duplicate",
        },
        "runs": [dict(r, rules=p.attrs["rules"]["name"]) for p in parts for r in p.attrs["runs"]],
        "unit": " / ".join(dict.fromkeys(str(p.attrs.get("unit")) for p in parts)),
        "differences": [d for p in parts for d in p.attrs["differences"]],
        "seat_differences": [d for p in parts for d in p.attrs.get("seat_differences", [])],
    })
    _name_the_game(df)
    return df


def _name_the_game(df: pd.DataFrame) -> None:
    """The ``game`` of the rows and attrs: Kap Shap (夾十) at 2 players, Kap Tai Shap otherwise."""
    df["game"] = [game_name(int(p)) for p in df.players]
    names = set(df.game)
    if len(names) == 1:
        df.attrs["game"] = names.pop()
    else:
        df.attrs.pop("game", None)


def league_tables_command(args: Any, game: Any):
    """``kaptai league kap-tai-shap --cross`` / ``--diff``: the cross-play table or the pairwise
    differences of every ruleset of ``--rules-list`` and player count (``--plot``: the heat map)."""
    if args.cross and args.diff:
        raise RulesError("--cross and --diff are two different tables: give one of them")
    pols = [_policy_name(p, "policy") for p in args.policies.split(",")]
    adv = args.advisor_hands > 0
    kw: dict[str, Any] = dict(workers=args.workers, progress=args.progress, scheduler=args.scheduler,
                              strong_hands=getattr(args, "strong_hands", None))
    challengers = _core.scope_args(args, args.cross)
    if args.cross:
        kw["challengers"] = challengers
        held = getattr(args, "challenger_seats", None)
        kw["seats"] = None if held is None else tuple(int(t) for t in held.split(","))
        parts = _each_ruleset(_core.cross_play, tuple(args.players), tuple(args.rules_list.split(",")), args.hands,
                              args.seed, pols, adv, max(args.advisor_hands, 1), args.checkpoint, **kw)
        df = pd.concat(parts, ignore_index=True)
        _every_ruleset_in_attrs(df, parts)
        cols = ["rules", "players", "policy", "field", "seats", "ev_per_hand", "ev_ci_low", "ev_ci_high",
                "diff_vs_field", "diff_ci_low", "diff_ci_high", "vs_replaced", "replaced_ci_low", "replaced_ci_high",
                "hands"]
        who = "each policy" if challengers is None else ", ".join(df.attrs["settings"]["challengers"])
    else:
        parts = _each_ruleset(_core.policy_league, tuple(args.players), tuple(args.rules_list.split(",")),
                              args.hands, args.seed, pols, adv, max(args.advisor_hands, 1), args.checkpoint, **kw)
        df = pd.concat([_core.league_differences(p) for p in parts], ignore_index=True)
        _every_ruleset_in_attrs(df, parts)
        df.attrs.pop("differences", None)
        cols = ["rules", "players", "policy", "other", "value", "ci_low", "ci_high", "hands", "variance_ratio"]
        who = "each policy"  # (a cross-play's rows: not in a --diff title)
    _name_the_game(df)
    if args.plot:
        _core.plot_cross(df, args.plot)
    return _core.league_output(df, "cross" if args.cross else "diff", cols, text=_core.for_text(args), who=who)


def league_output(args: Any, df: pd.DataFrame):
    """``kaptai league kap-tai-shap``'s :func:`policy_league` table as an :class:`~kaptai.spec.Output`
    (:func:`kaptai.core.league.league_output`: the title naming each ruleset's unit, antes or
    points, the metrics' legend, and in text the table laid out for 100 columns)."""
    return _core.league_output(df, "league", ["rules", "players", "policy", "metric", "value", "ci_low", "ci_high",
                                              "hands"], text=_core.for_text(args),
                               game_name="Kap Tai Shap (Kap Shap at 2 players)")


# --------------------------------------------------------------------------------------
# Plot
# --------------------------------------------------------------------------------------

_AXIS_LABELS = {
    "ev_per_hand": "EV per hand (antes)",
    "value_of_play": "value of play vs random (antes per hand)",
    "win": "P(win) per hand",
    "win_share": "win share (1 = fair share, 1/players)",
}
_REFERENCE_LINE = {"ev_per_hand": 0.0, "value_of_play": 0.0, "win_share": 1.0}


def _money_units(df: pd.DataFrame) -> dict[str, str]:
    """Unit of the money metrics per ruleset name (:func:`kaptai.kts.rules.settlement_unit`):
    points under advanced settlement, else antes; by the rulesets in the settings, else by the
    preset of that name (a name that is none: the pot's antes)."""
    out: dict[str, str] = {}
    for r in (df.attrs.get("settings") or {}).get("rules", []) or []:
        if isinstance(r, dict) and "name" in r:
            out[r["name"]] = settlement_unit(r.get("settlement"))
    for name in set(df.get("rules", pd.Series(dtype=object)).dropna()):
        preset = PRESETS.get(name)
        out.setdefault(name, settlement_unit(preset.settlement if preset is not None else None))
    return out


@with_cjk_font
def plot_league(df: pd.DataFrame, metric: str = "ev_per_hand", ax=None, path=None):
    """Plot one metric of :func:`policy_league`: points with CI error bars per policy.

    Parameters
    ----------
    df : pandas.DataFrame
        A league table.
    metric : {'ev_per_hand', 'value_of_play', 'win', 'win_share'}
        What to plot.
    ax : matplotlib.axes.Axes, optional
        Draw everything in this axes (rulesets told apart by marker and line style).
        By default a new figure has one panel per ruleset.
    path : str or path, optional
        Also save the figure there (with the packaged CJK font, :mod:`kaptai.core.plotting`).

    Returns
    -------
    matplotlib.figure.Figure
        x = players, one colour per policy (dodged), error bars = the confidence
        intervals; y is in antes (points, under advanced settlement) per hand for the
        money metrics.

    Raises
    ------
    RulesError
        For an unknown metric or a table without its rows.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from kaptai.kts.league import policy_league, plot_league
    >>> df = policy_league(players=(3, 4), rules="traditional", hands=200, seed=0,
    ...                    policies=("random", "greedy"), progress=False)
    >>> fig = plot_league(df)
    >>> fig.axes[0].get_ylabel(), fig.axes[0].get_xlabel()
    ('EV per hand (antes)', 'players')
    """
    if metric not in LEAGUE_METRICS:
        raise RulesError(f"unknown metric {quote_token(metric)}: expected one of {', '.join(map(repr, LEAGUE_METRICS))}")
    sel = df[df.metric == metric]
    if sel.empty:
        raise RulesError(f"the table has no {quote_token(metric)} rows")
    from matplotlib.figure import Figure

    rulesets = list(dict.fromkeys(sel.rules))
    everyone = list(dict.fromkeys(df.policy))  # colours stay the same across metrics
    policies = [p for p in everyone if p in set(sel.policy)]
    counts = sorted(set(int(p) for p in sel.players))
    xpos = {p: i for i, p in enumerate(counts)}
    colours = {p: f"C{i}" for i, p in enumerate(everyone)}
    width = 0.7
    step = width / max(len(policies), 1)
    if ax is None:
        fig = Figure(figsize=(4.2 * len(rulesets) + 1.0, 3.8), layout="constrained")
        axes = fig.subplots(1, len(rulesets), squeeze=False)[0]
        panel = {r: axes[i] for i, r in enumerate(rulesets)}
        styles = {r: ("o", "-") for r in rulesets}
    else:
        fig = ax.figure
        axes = [ax]
        panel = {r: ax for r in rulesets}
        styles = {r: (m, ls) for r, m, ls in zip(rulesets, "osD^v<>", ["-", "--", ":", "-."] * 2)}
    for r in rulesets:
        a = panel[r]
        marker, line = styles[r]
        for j, pol in enumerate(policies):
            part = sel[(sel.rules == r) & (sel.policy == pol)].sort_values("players")
            if part.empty:
                continue
            x = np.array([xpos[int(p)] for p in part.players]) + (j - (len(policies) - 1) / 2) * step
            y = part.value.to_numpy(dtype=float)
            err = np.vstack([y - part.ci_low.to_numpy(dtype=float), part.ci_high.to_numpy(dtype=float) - y])
            opp = part.opponents.iloc[0]
            label = f"{pol} (vs {opp})" if ax is None or len(rulesets) == 1 else f"{pol}, {r}"
            a.errorbar(x, y, yerr=np.clip(err, 0, None), fmt=marker, linestyle=line, linewidth=0.8,
                       color=colours[pol], capsize=3, markersize=5, label=label)
    units = _money_units(df)
    for a in axes:
        a.set_xticks(range(len(counts)), [str(p) for p in counts])
        a.set_xlabel("players")
        shown = [r for r in rulesets if panel[r] is a]
        unit = {units.get(r, "antes") for r in shown}
        label = _AXIS_LABELS[metric]
        if "antes" in label and unit != {"antes"}:  # advanced settlement pays points, not antes
            label = label.replace("antes", "points" if unit == {"points"} else "antes or points")
        a.set_ylabel(label)
        if metric in _REFERENCE_LINE:
            a.axhline(_REFERENCE_LINE[metric], color="0.6", linewidth=0.8, zorder=0)
        a.grid(axis="y", alpha=0.3)
        a.legend(fontsize="small")
    if ax is None:
        for r in rulesets:
            panel[r].set_title(f"{r} rules")
    return save_figure(fig, path, close=ax is None)
