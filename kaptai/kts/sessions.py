"""Sessions of consecutive Kap Tai Shap (夾大十) hands: bankrolls, streaks, carried pots.

Hands are independent given who deals, so a session resamples dealer-relative outcomes
from the simulated distribution (:func:`kaptai.kts.fairness.outcome_table`) and settles
them in order with :func:`kaptai.core.settlement.settle_rounds`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.options import check_count as _positive
from kaptai.core.options import check_seed as _entropy
from kaptai.core.settlement import first_passage, gini, settle_rounds, validate_bankroll, weighted_moments
from kaptai.core.stats import wilson_interval
from kaptai.kts.config import make_config
from kaptai.kts.fairness import _frame, _play_key, outcome_table, resolve_variants
from kaptai.kts.rules import RuleSet, resolve_rules
from kaptai.kts.simulate import CONFIDENCE, run_tallies

__all__ = ["SessionResult", "simulate_sessions", "session_summary", "compare_sessions"]


# --------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SessionResult:
    """Bankroll paths of simulated sessions (see :func:`simulate_sessions`).

    Attributes
    ----------
    bankrolls : numpy.ndarray
        (sessions, hands + 1, players): every player's bankroll before hand 1 and after
        each hand; seats are absolute, seat 0 deals the first hand.
    house : numpy.ndarray
        (sessions, hands + 1): the house's cumulative take.
    pot : numpy.ndarray
        (sessions, hands + 1): the pot on the table (carried drawn hands).
    dealer : numpy.ndarray
        (sessions, hands): who dealt each hand.
    kinds_share : numpy.ndarray
        Shares of natural / claimed / self-drawn wins in the tallies resampled.
    """

    variant: str
    players: int
    rules: RuleSet
    bankroll: float
    bankrolls: np.ndarray
    house: np.ndarray
    pot: np.ndarray
    dealer: np.ndarray
    kinds_share: np.ndarray
    seed_entropy: int




def simulate_sessions(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] = "traditional",
    sessions: int = 1000,
    hands: int = 100,
    *,
    bankroll: float = 20.0,
    seed: int | None = 0,
    tally_hands: int = 100_000,
    policies: Any = "greedy",
    progress: bool = True,
    stats: Mapping[str, np.ndarray] | None = None,
    variant: str | None = None,
) -> SessionResult:
    """Play sessions of consecutive hands: rotating or kept deal, streaks, carried pots.

    Hands are independent given who deals, so a session is a sequence of independent
    dealer-relative outcomes (winner seat, score): they are drawn from the outcome
    distribution of ``tally_hands`` simulated hands (:func:`run_tallies`; or pass
    ``stats``), then settled in order.  The deal passes to the next seat unless the dealer
    wins and ``dealer_keeps_on_win``; a dealer winning with streak ``k >= 1`` scores
    ``+2k`` under advanced settlement (連莊, §5.6); with ``drawn_hand='carry'`` the pot rolls
    into the next hand.  Bankrolls may go below zero (play continues); ruin is the first
    time a bankroll is at or below 0.  Every hand is checked: players' nets + house take +
    change of the pot = 0.

    Parameters
    ----------
    players : int
        Player count.
    rules : RuleSet, str or mapping
        Ruleset (its settlement options are used).
    sessions : int
        Number of sessions.
    hands : int
        Hands per session.
    bankroll : float
        Starting bankroll of every player (antes / points), >= 0.
    seed : int or None
        Seed of the tallies and of the resampling.
    tally_hands : int
        Hands simulated to estimate the outcome distribution (ignored with ``stats``).
    policies, progress
        As for :func:`kaptai.kts.simulate.simulate`.
    stats : mapping, optional
        Tallies to resample instead of simulating.
    variant : str, optional
        Label.

    Returns
    -------
    SessionResult

    Examples
    --------
    >>> from kaptai.kts.sessions import simulate_sessions
    >>> r = simulate_sessions(4, "advanced", 50, 20, bankroll=30, tally_hands=500, seed=1, progress=False)
    >>> r.bankrolls.shape, bool(abs(r.bankrolls[:, -1].sum(axis=1) + r.house[:, -1] + r.pot[:, -1] - 120).max() < 1e-9)
    ((50, 21, 4), True)
    """
    rules = resolve_rules(rules)
    cfg = make_config(players, rules)
    P = cfg.players
    S = _positive("sessions", sessions)
    H = _positive("hands", hands)
    b0 = validate_bankroll(bankroll)
    entropy = _entropy(seed)
    if stats is None:
        tally_hands = _positive("tally_hands", tally_hands)
        stats, _, _ = run_tallies(P, rules, tally_hands, entropy, policies=policies, progress=progress)
    winner_rel, score, count = outcome_table(stats, "dealer")
    prob = count / count.sum()
    # a child index no chunk of the tallies uses (chunks are children 0, 1, ...)
    rng = np.random.default_rng(np.random.SeedSequence(entropy, spawn_key=(1 << 20,)))
    pick = rng.choice(len(prob), size=(S, H), p=prob)
    c = rules.house_cut
    keeps = rules.dealer_keeps_on_win

    bank = np.empty((S, H + 1, P))
    bank[:, 0] = b0
    house = np.zeros((S, H + 1))
    pot = np.zeros((S, H + 1))
    dealers = np.empty((S, H), dtype=np.int64)
    d = np.zeros(S, dtype=np.int64)
    k = np.zeros(S, dtype=np.int64)
    for t in range(H):
        o = pick[:, t]
        wr = winner_rel[o]
        won = wr >= 0
        w = np.where(won, (d + wr) % P, -1)
        dealer_win = won & (w == d)
        sc = score[o] + np.where(dealer_win & keeps, 2 * k, 0)
        nets, take, pot_out = settle_rounds(rules.settlement, P, w, sc, cut=c, pot_in=pot[:, t],
                                            drawn_hand=rules.drawn_hand)
        bank[:, t + 1] = bank[:, t] + nets
        house[:, t + 1] = house[:, t] + take
        pot[:, t + 1] = pot_out
        dealers[:, t] = d
        dealer_win = won & (w == d)
        stay = dealer_win & keeps
        k = np.where(stay, k + 1, 0)
        d = np.where(stay, d, (d + 1) % P)
    kinds = np.asarray(stats["wins_dealer"]).sum(axis=1).astype(np.float64)
    share = kinds / kinds.sum() if kinds.sum() else np.full(3, np.nan)
    return SessionResult(
        variant or rules.name, P, rules, b0, bank, house, pot, dealers, share, entropy
    )


def session_summary(result: SessionResult, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Tidy summary of sessions: P(ahead), risk of ruin, house take, Gini of final bankrolls.

    Metrics (seats absolute, seat 0 dealt first; ``relative_to`` None):
    ``final_bankroll_mean`` (per seat, normal interval), ``p_ahead`` (per seat: final >
    start, Wilson), ``risk_of_ruin`` (per seat: bankroll <= 0 at some point, Wilson),
    ``house_take_session``, ``house_half_hands`` (median hand after which the house holds
    half the money brought to the table, among sessions where it happens),
    ``house_half_reached`` (share of sessions where it happens), ``gini_final`` (mean Gini
    of the final bankrolls, negative ones counted as 0), ``win_share_*``.

    Examples
    --------
    >>> from kaptai.kts.sessions import simulate_sessions, session_summary
    >>> r = simulate_sessions(4, "traditional", 40, 30, bankroll=10, tally_hands=500, seed=1, progress=False)
    >>> s = session_summary(r)
    >>> sorted(set(s.metric))[:3]
    ['final_bankroll_mean', 'gini_final', 'house_half_hands']
    """
    r = result
    S, H1, P = r.bankrolls.shape
    rows: list[tuple] = []

    def add(metric, seat, value, lo=math.nan, hi=math.nan, samples=S):
        rows.append(
            (r.variant, P, r.rules.settlement, r.rules.house_cut, metric,
             None if seat is None else int(seat), None, float(value), float(lo), float(hi),
             int(samples), "monte_carlo")
        )

    final = r.bankrolls[:, -1]
    e = weighted_moments(final, np.ones(S), confidence)
    for s in range(P):
        add("final_bankroll_mean", s, e.mean[s], e.ci_low[s], e.ci_high[s])
    ahead = (final > r.bankroll).sum(axis=0)
    lo, hi = wilson_interval(ahead, np.full(P, S), confidence)
    for s in range(P):
        add("p_ahead", s, ahead[s] / S, lo[s], hi[s])
    ruined = (first_passage(r.bankrolls, 0.0, axis=1) >= 0).sum(axis=0)
    lo, hi = wilson_interval(ruined, np.full(P, S), confidence)
    for s in range(P):
        add("risk_of_ruin", s, ruined[s] / S, lo[s], hi[s])
    e = weighted_moments(r.house[:, -1], np.ones(S), confidence)
    add("house_take_session", None, e.mean, e.ci_low, e.ci_high)
    money = P * r.bankroll
    if money > 0:
        idx = first_passage(-r.house, -0.5 * money, axis=1)
        reached = idx >= 0
        lo, hi = wilson_interval(reached.sum(), S, confidence)
        add("house_half_reached", None, reached.mean(), lo, hi)
        add("house_half_hands", None, float(np.median(idx[reached])) if reached.any() else math.nan,
            samples=int(reached.sum()))
    g = gini(np.maximum(final, 0.0))
    g = np.asarray(g, dtype=np.float64)
    ok = ~np.isnan(g)
    e = weighted_moments(g[ok], np.ones(int(ok.sum())), confidence)
    add("gini_final", None, e.mean, e.ci_low, e.ci_high, int(ok.sum()))
    for i, name in enumerate(("natural", "claimed", "self_drawn")):
        add(f"win_share_{name}", None, r.kinds_share[i])
    df = _frame(rows)
    df.attrs.update(
        {"sessions": S, "hands": H1 - 1, "bankroll": r.bankroll, "seed_entropy": r.seed_entropy,
         "version": __version__, "rules": r.rules.to_dict()}
    )
    return df


def compare_sessions(
    variants: Any = "presets",
    players: int = 4,
    sessions: int = 1000,
    hands: int = 100,
    *,
    bankroll: float = 20.0,
    seed: int | None = 0,
    tally_hands: int = 100_000,
    cut: float | None = None,
    policies: Any = "greedy",
    progress: bool = True,
) -> pd.DataFrame:
    """:func:`session_summary` of several variants in one table (same seed for each).

    Examples
    --------
    >>> from kaptai.kts.sessions import compare_sessions
    >>> df = compare_sessions("presets", sessions=20, hands=10, tally_hands=300, progress=False)
    >>> sorted(set(df.variant))
    ['advanced', 'traditional']
    """
    resolved = resolve_variants(variants, players, cut)
    validate_bankroll(bankroll)
    _positive("sessions", sessions)
    _positive("hands", hands)
    tally_hands = _positive("tally_hands", tally_hands)
    seed = _entropy(seed)
    cache: dict[tuple, Mapping[str, np.ndarray]] = {}
    frames = []
    for v in resolved:
        key = _play_key(v)
        if key not in cache:
            cache[key] = run_tallies(
                v.players, key[1], tally_hands, seed,
                policies=policies, progress=progress,
            )[0]
        r = simulate_sessions(
            v.players, v.rules, sessions, hands, bankroll=bankroll, seed=seed, stats=cache[key],
            variant=v.name, progress=progress,
        )
        frames.append(session_summary(r))
    df = pd.concat(frames, ignore_index=True)
    df.attrs.update(frames[0].attrs)
    df.attrs.pop("rules", None)
    df.attrs["variants"] = {v.name: {"players": v.players, "rules": v.rules.to_dict()} for v in resolved}
    return df
