"""Expected value, house cut and the fairness of scoring variants of Kap Tai Shap (夾大十).

What does each seat win or lose per hand, how much does the house take, is the dealer (莊家)
or the first hand (先手) favoured, and which variant is fairest or most decisive?

Method
------
Hands are played by :func:`kaptai.kts.simulate.run_tallies`.  Its tallies hold the joint
distribution of the winning seat and the winning score (``score_dealer`` / ``score_first``,
the score with the self-draw point, no streak) and the number of drawn hands (流局).  A
hand's settlement (:mod:`kaptai.core.settlement`) depends on nothing else, so every seat's
net per hand is a function of those counts: its mean and variance are computed *exactly*
from them (no second sampling), and the 95% interval is the normal one, ``mean +- 1.96
sqrt(var / n)``.  Seats are numbered from the dealer (``relative_to='dealer'``, seat 0 =
the dealer) or from the first hand (``'first_hand'``).

* ``settlement='pot'``: every player antes 1, the house takes ``house_cut`` of the pot, the
  winner the rest.  Drawn hands are refunded; with ``drawn_hand='carry'`` the pot rolls on
  and the table reports the long-run rate per hand (``EV_s = P p_s (1-c)/(1-d) - 1``,
  estimated over the decided hands), the per-hand SD being that of the stationary pot.
* ``settlement='advanced'``: every non-winner pays the winner the score, the house takes
  ``house_cut`` of the winner's gross receipts; drawn hands settle nothing.

Settlement options (``settlement``, ``house_cut``, ``drawn_hand``, ``dealer_keeps_on_win``)
do not change how independent hands are played, so variants that differ only there share
one simulation (same seed, same hands): their differences are free of Monte Carlo noise.
The dealer streak (連莊) only exists across hands; see :func:`simulate_sessions`.

Examples
--------
>>> from kaptai.kts.fairness import compare_variants
>>> df = compare_variants(["traditional", "advanced"], players=4, hands=2000, seed=1, progress=False)
>>> ev = df[(df.metric == "ev_per_hand") & (df.relative_to == "dealer") & (df.variant == "traditional")]
>>> house = df[(df.metric == "house_take_per_hand") & (df.variant == "traditional")].value.iloc[0]
>>> bool(abs(ev.value.sum() + house) < 1e-9)
True
"""

from __future__ import annotations

import os

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.options import check_count as _positive
from kaptai.core.options import check_seed as _entropy
from kaptai.core.settlement import (
    break_even_cut,
    break_even_cut_interval,
    first_passage,
    gini,
    settle_outcomes,
    validate_bankroll,
    validate_cut,
    weighted_moments,
)
from kaptai.core.stats import sd_interval, spread_interval, wilson_interval
from kaptai.core.tables import FAIRNESS_COLUMNS
from kaptai.errors import RulesError
from kaptai.kts.engine_reference import make_config
from kaptai.kts.rules import PRESETS, RuleSet, resolve_rules
from kaptai.kts.simulate import CONFIDENCE, run_tallies

__all__ = [
    "FAIRNESS_METRICS",
    "FRAME_COLUMNS",
    "VARIANT_SETS",
    "Variant",
    "resolve_variants",
    "outcome_table",
    "hand_ev",
    "fairness_frame",
    "compare_variants",
    "fairness",
    "cut_curve",
    "plot_seat_ev",
    "plot_cut_curve",
    "plot_fairness",
    "plot_win_modes",
    "SessionResult",
    "simulate_sessions",
    "session_summary",
    "compare_sessions",
    "plot_bankroll_fan",
]

_GAME = "kap-tai-shap"

#: Columns of every fairness table.
FRAME_COLUMNS: tuple[str, ...] = FAIRNESS_COLUMNS

#: Metric names of :func:`compare_variants` and what they are (units: one ante, or one
#: point under advanced settlement).
FAIRNESS_METRICS: dict[str, str] = {
    "ev_per_hand": "expected net result of the seat per hand",
    "sd_per_hand": "standard deviation of the seat's result in one hand",
    "win": "P(the seat wins the hand)",
    "house_take_per_hand": "expected take of the house per hand (no seat)",
    "ev_spread": "max - min of the seats' EVs (seat None)",
    "dealer_advantage": "EV of the dealer minus the mean EV of the other seats",
    "first_hand_advantage": "EV of the first hand minus the mean EV of the other seats",
    "sd_hand_result": "mean over seats of the SD of a seat's result in one hand",
    "drawn_hand_rate": "P(no winner, 流局)",
    "decisive_rate": "P(the hand has a winner) = 1 - drawn_hand_rate",
    "hand_length_mean": "mean turn in which the hand ends",
    "score_mean": "mean winning score, self-draw point included (no streak)",
    "break_even_cut": "smallest house cut at which no seat has a positive EV",
    "win_share_natural": "share of wins that are naturals (dealt 10 tiles)",
    "win_share_claimed": "share of wins on a claimed discard",
    "win_share_self_drawn": "share of wins on a tile drawn from the wall",
}

_SETTLEMENT_OPTIONS = ("settlement", "house_cut", "drawn_hand", "dealer_keeps_on_win", "name")

_POT_WITH_FORMS = {
    "preset": "advanced", "settlement": "pot", "house_cut": 0.05, "dealer_keeps_on_win": False,
}

#: Ready-made comparisons for :func:`compare_variants` (name -> variants).  Override dicts
#: start from ``preset`` (default ``'traditional'``); ``players`` sets the table size.
VARIANT_SETS: dict[str, dict[str, Any]] = {
    "presets": {"traditional": "traditional", "advanced": "advanced"},
    "forms_settlement": {
        "basic form, pot": {"preset": "traditional"},
        "all forms, pot": dict(_POT_WITH_FORMS),
        "basic form, advanced": {"preset": "advanced", "forms": ["basic"]},
        "all forms, advanced": {"preset": "advanced"},
    },
    "base_combination": {
        "advanced, base max": {"preset": "advanced"},
        "advanced, base sum": {"preset": "advanced", "base_combination": "sum"},
    },
    "drawn_hand": {
        "pot, refund": {"preset": "traditional"},
        "pot, carry": {"preset": "traditional", "drawn_hand": "carry"},
    },
    "claim_turn": {
        "claim previous": {"preset": "traditional"},
        "claim any": {"preset": "traditional", "claim": "any"},
        "claim none": {"preset": "traditional", "claim": "none"},
        "claim or draw": {"preset": "traditional", "turn": "claim-or-draw"},
        "discard drawn tile": {"preset": "traditional", "keep_drawn": False},
    },
    "house_cut": {f"cut {c}%": {"preset": "traditional", "house_cut": c / 100} for c in range(11)},
    "players": {f"{p} players": {"preset": "traditional", "players": p} for p in range(3, 11)},
}


# --------------------------------------------------------------------------------------
# Variants
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One row group of a comparison: a label, a player count and a RuleSet."""

    name: str
    players: int
    rules: RuleSet


def _variant(name: str, spec: Any, players: int, cut: float | None) -> Variant:
    if not isinstance(name, str) or not name.strip():
        raise RulesError(f"variant name {name!r}: expected a non-empty string")
    p = players
    if isinstance(spec, RuleSet):
        rules = spec
    elif isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError(
                f"unknown variant {spec!r}: expected a preset ({', '.join(map(repr, PRESETS))}), "
                f"a RuleSet, a dict of rule options, or a set of VARIANT_SETS "
                f"({', '.join(map(repr, VARIANT_SETS))})"
            )
        rules = PRESETS[spec]
    elif isinstance(spec, Mapping):
        opts = dict(spec)
        base = opts.pop("preset", "traditional")
        if "players" in opts:
            p = opts.pop("players")
        opts.pop("name", None)
        rules = resolve_rules(base, **opts)
    else:
        raise RulesError(
            f"variant {name!r} has spec {spec!r}: expected a preset name, a RuleSet or a dict "
            f"of rule options"
        )
    if cut is not None:
        rules = rules.replace(house_cut=cut)
    make_config(p, rules)  # validates players and the deal
    return Variant(name, int(p), rules)


def resolve_variants(
    variants: Any, players: int = 4, cut: float | None = None
) -> list[Variant]:
    """Turn what a user passed as ``variants`` into a list of :class:`Variant`.

    Parameters
    ----------
    variants : str, mapping or sequence
        A name of :data:`VARIANT_SETS`; a comma-separated string of preset names; a mapping
        name -> spec; or a sequence of specs.  A spec is a preset name, a
        :class:`~kaptai.kts.rules.RuleSet` (labelled by its ``name``), a dict of rule
        options (with optional ``preset`` -- the base, default ``'traditional'`` -- and
        ``players``; ``name`` labels it in a sequence) or a ``(name, spec)`` pair.
    players : int
        Player count of the variants that do not set one.
    cut : float or None
        House cut applied to every variant (None: each ruleset's own ``house_cut``).

    Returns
    -------
    list of Variant

    Raises
    ------
    RulesError
        For an unknown variant, option, value or player count, a cut outside [0, 1], or
        duplicate labels.

    Examples
    --------
    >>> from kaptai.kts.fairness import resolve_variants
    >>> [(v.name, v.rules.settlement) for v in resolve_variants("traditional,advanced")]
    [('traditional', 'pot'), ('advanced', 'advanced')]
    >>> [v.players for v in resolve_variants("players")][:3]
    [3, 4, 5]
    >>> resolve_variants("classic")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown variant 'classic': expected a preset ('traditional', 'advanced'), a RuleSet, a dict of rule options, or a set of VARIANT_SETS ('presets', 'forms_settlement', 'base_combination', 'drawn_hand', 'claim_turn', 'house_cut', 'players')
    """
    if cut is not None:
        cut = validate_cut(cut, "cut")
    if isinstance(players, (bool, np.bool_)) or not isinstance(players, Integral):
        raise RulesError(f"players={players!r} is not supported: expected an integer from 2 to 22")
    if isinstance(variants, str):
        if variants in VARIANT_SETS:
            variants = VARIANT_SETS[variants]
        else:
            variants = [v.strip() for v in variants.split(",") if v.strip()]
    items: list[tuple[str, Any]] = []
    if isinstance(variants, Mapping):
        items = list(variants.items())
    elif isinstance(variants, Sequence) or isinstance(variants, (set, frozenset)):
        for spec in variants:
            if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
                items.append(spec)
            elif isinstance(spec, RuleSet):
                items.append((spec.name, spec))
            elif isinstance(spec, str):
                items.append((spec, spec))
            elif isinstance(spec, Mapping):
                label = spec.get("name")
                if label is None:
                    label = ", ".join(f"{k}={v}" for k, v in spec.items()) or "traditional"
                items.append((str(label), spec))
            else:
                items.append((repr(spec), spec))
    else:
        raise RulesError(f"variants={variants!r}: expected a name, a mapping or a sequence")
    if not items:
        raise RulesError("variants is empty: expected at least one variant")
    out = [_variant(name, spec, players, cut) for name, spec in items]
    names = [v.name for v in out]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RulesError(f"duplicate variant label(s) {', '.join(map(repr, dupes))}: give each a name")
    return out


def _play_key(v: Variant) -> tuple:
    """Variants with equal keys play identical hands (settlement options do not matter)."""
    neutral = v.rules.replace(
        name="play", settlement="pot", house_cut=0.0, drawn_hand="refund", dealer_keeps_on_win=False
    )
    return (v.players, neutral)


# --------------------------------------------------------------------------------------
# Per-hand EV from tallies
# --------------------------------------------------------------------------------------


def outcome_table(stats: Mapping[str, np.ndarray], relative_to: str = "dealer"):
    """Outcomes of the hands in ``stats``: (winner seat, score, count) arrays.

    Parameters
    ----------
    stats : mapping
        Tallies of :func:`kaptai.kts.simulate.run_tallies`.
    relative_to : {'dealer', 'first_hand'}
        Seat numbering of ``winner``.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray, numpy.ndarray)
        ``winner`` (-1: drawn hand), ``score`` (0 for drawn hands) and ``count``; the counts
        add up to the number of hands.

    Examples
    --------
    >>> from kaptai.kts.simulate import run_tallies
    >>> from kaptai.kts.fairness import outcome_table
    >>> stats, _, _ = run_tallies(4, "traditional", 200, 1, progress=False)
    >>> w, s, c = outcome_table(stats)
    >>> int(c.sum()), int(w.min()) >= -1
    (200, True)
    """
    key = {"dealer": "score_dealer", "first_hand": "score_first"}.get(relative_to)
    if key is None:
        raise RulesError(f"relative_to={relative_to!r}: expected 'dealer' or 'first_hand'")
    hist = np.asarray(stats[key])
    seats, scores = np.nonzero(hist)
    counts = hist[seats, scores]
    drawn = int(stats["ends"][0])
    winner = np.append(seats, -1).astype(np.int64)
    score = np.append(scores, 0).astype(np.int64)
    count = np.append(counts, drawn).astype(np.int64)
    if int(count.sum()) != int(stats["hands"][0]):
        raise AssertionError("tallies are inconsistent: wins + drawn hands != hands")
    return winner, score, count


@dataclass(frozen=True)
class HandEV:
    """Per-hand results of one ruleset, one seat numbering (see :func:`hand_ev`)."""

    ev: Any  # Estimate over seats
    house: Any  # Estimate
    gross: np.ndarray  # expected gross receipts per seat (the EV's slope in the cut)
    house_gross: float  # expected total gross per hand (the house take's slope)
    win: np.ndarray  # P(win) per seat
    sd: np.ndarray  # SD of one hand's result per seat
    advantage: Any  # Estimate: seat 0 minus the mean of the others
    n: int  # hands behind the estimates of ev (decided hands under carry)
    hands: int
    drawn: int
    sd_low: np.ndarray = None  # interval of sd per seat (delta method; NaN under carry)
    sd_high: np.ndarray = None
    spread_ci: tuple = (math.nan, math.nan)  # simultaneous interval of max - min EV
    sd_mean_ci: tuple = (math.nan, math.nan)  # simultaneous interval of the seats' mean SD
    break_even_ci: tuple = (math.nan, math.nan)  # simultaneous interval of the break-even cut


def hand_ev(
    stats: Mapping[str, np.ndarray],
    players: int,
    rules: RuleSet | str | Mapping[str, Any],
    relative_to: str = "dealer",
    confidence: float = CONFIDENCE,
) -> HandEV:
    """Exact per-hand EV and variance of every seat and the house, from tallies.

    Parameters
    ----------
    stats : mapping
        Tallies of :func:`kaptai.kts.simulate.run_tallies` (any settlement options: they do
        not change play).
    players : int
        Player count of the tallies.
    rules : RuleSet, str or mapping
        Settlement options come from here: ``settlement``, ``house_cut``, ``drawn_hand``.
    relative_to : {'dealer', 'first_hand'}
        Seat numbering.
    confidence : float
        Level of the intervals.

    Returns
    -------
    HandEV

    Examples
    --------
    >>> from kaptai.kts.simulate import run_tallies
    >>> from kaptai.kts.fairness import hand_ev
    >>> stats, _, _ = run_tallies(4, "traditional", 500, 2, progress=False)
    >>> r = hand_ev(stats, 4, "traditional")
    >>> bool(abs(r.ev.mean.sum() + r.house.mean) < 1e-12)
    True
    """
    rules = resolve_rules(rules)
    P = int(players)
    winner, score, count = outcome_table(stats, relative_to)
    nets, house, gross = settle_outcomes(rules.settlement, P, winner, score, cut=rules.house_cut)
    hands = int(count.sum())
    drawn = int(count[winner < 0].sum())
    carry = rules.settlement == "pot" and rules.drawn_hand == "carry"
    wins = np.bincount(winner[winner >= 0], weights=count[winner >= 0], minlength=P)[:P]
    win = wins / hands if hands else np.full(P, np.nan)
    contrast = np.full(P, -1.0 / (P - 1))  # seat 0 minus the mean of the others
    contrast[0] = 1.0
    if carry:
        # long-run rate: the refund settlement of a decided hand, averaged over decided hands
        keep = winner >= 0
        use = count * keep
        ev = weighted_moments(nets, use, confidence)
        hs = weighted_moments(house, use, confidence)
        adv = weighted_moments(nets @ contrast, use, confidence)
        n_dec = int(use.sum())
        g = (gross * use[:, None]).sum(axis=0) / max(n_dec, 1)
        d = drawn / hands if hands else math.nan
        c = rules.house_cut
        eg = 1.0 / (1.0 - d) if d < 1 else math.inf
        eg2 = (1.0 + d) / (1.0 - d) ** 2 if d < 1 else math.inf
        second = 1.0 - 2 * (1 - c) * P * win * eg + ((1 - c) * P) ** 2 * win * eg2
        sd = np.sqrt(np.maximum(second - ev.mean**2, 0.0))
        house_gross = float(P)
        n = n_dec
    else:
        ev = weighted_moments(nets, count, confidence)
        hs = weighted_moments(house, count, confidence)
        adv = weighted_moments(nets @ contrast, count, confidence)
        g = (gross * count[:, None]).sum(axis=0) / max(hands, 1)
        sd = ev.sd
        house_gross = float(g.sum())
        n = hands
        # power sums of each seat's net over the outcome table: intervals for the SDs, and
        # joint (Bonferroni over the seats) intervals for the EV spread and the mean SD
        w = count.astype(np.float64)[:, None]
        sums = [(w * nets**k).sum(axis=0) for k in (1, 2, 3, 4)]
        _, sd_lo, sd_hi = sd_interval(*sums, hands, confidence)
        joint = 1 - (1 - confidence) / P
        j = weighted_moments(nets, count, joint)
        _, jlo, jhi = sd_interval(*sums, hands, joint)
        be = break_even_cut_interval(nets + rules.house_cut * gross, gross, count, confidence)
        return HandEV(ev, hs, g, house_gross, win, sd, adv, n, hands, drawn, sd_lo, sd_hi,
                      spread_interval(j.ci_low, j.ci_high), (float(np.mean(jlo)), float(np.mean(jhi))), be)
    nan = np.full(P, np.nan)
    return HandEV(ev, hs, g, house_gross, win, sd, adv, n, hands, drawn, nan, nan)


def _rows_for(v: Variant, stats: Mapping[str, np.ndarray], confidence: float) -> list[tuple]:
    rows: list[tuple] = []
    P, rules = v.players, v.rules
    N = int(stats["hands"][0])

    def add(metric, seat, rel, value, lo=math.nan, hi=math.nan, samples=N):
        rows.append(
            (
                v.name, P, rules.settlement, rules.house_cut, metric,
                None if seat is None else int(seat), rel,
                float(value), float(lo), float(hi), int(samples), "monte_carlo",
            )
        )

    for rel in ("dealer", "first_hand"):
        r = hand_ev(stats, P, rules, rel, confidence)
        wins = r.win * r.hands
        wlo, whi = wilson_interval(wins, np.full(P, r.hands), confidence)
        for s in range(P):
            add("ev_per_hand", s, rel, r.ev.mean[s], r.ev.ci_low[s], r.ev.ci_high[s], r.n)
        for s in range(P):
            add("sd_per_hand", s, rel, r.sd[s], r.sd_low[s], r.sd_high[s], samples=r.n)
        for s in range(P):
            add("win", s, rel, r.win[s], wlo[s], whi[s])
        add("ev_spread", None, rel, np.max(r.ev.mean) - np.min(r.ev.mean), *r.spread_ci, samples=r.n)
        name = "dealer_advantage" if rel == "dealer" else "first_hand_advantage"
        add(name, 0, rel, r.advantage.mean, r.advantage.ci_low, r.advantage.ci_high, r.n)
        if rel == "dealer":
            add("house_take_per_hand", None, None, r.house.mean, r.house.ci_low, r.house.ci_high, r.n)
            add("sd_hand_result", None, None, float(np.mean(r.sd)), *r.sd_mean_ci, samples=r.n)
            ev0 = r.ev.mean + rules.house_cut * r.gross
            add("break_even_cut", None, None, break_even_cut(ev0, r.gross), *r.break_even_ci, samples=r.n)

    drawn = int(stats["ends"][0])
    lo, hi = wilson_interval(drawn, N, confidence)
    add("drawn_hand_rate", None, None, drawn / N, lo, hi)
    lo, hi = wilson_interval(N - drawn, N, confidence)
    add("decisive_rate", None, None, (N - drawn) / N, lo, hi)

    length = np.asarray(stats["length"], dtype=np.float64)
    e = weighted_moments(np.arange(length.size, dtype=np.float64), length, confidence)
    add("hand_length_mean", None, None, e.mean, e.ci_low, e.ci_high)
    hist = np.asarray(stats["score_dealer"]).sum(axis=0)
    if hist.sum():
        e = weighted_moments(np.arange(hist.size, dtype=np.float64), hist, confidence)
        add("score_mean", None, None, e.mean, e.ci_low, e.ci_high, int(hist.sum()))
    kinds = np.asarray(stats["wins_dealer"]).sum(axis=1)
    total = int(kinds.sum())
    if total:
        lo, hi = wilson_interval(kinds, np.full(3, total), confidence)
        for k, name in enumerate(("natural", "claimed", "self_drawn")):
            add(f"win_share_{name}", None, None, kinds[k] / total, lo[k], hi[k], total)
    return rows


def fairness_frame(
    stats: Mapping[str, np.ndarray],
    players: int,
    rules: RuleSet | str | Mapping[str, Any],
    variant: str | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """The fairness table of one ruleset from existing tallies (no simulation).

    Parameters
    ----------
    stats : mapping
        Tallies of :func:`kaptai.kts.simulate.run_tallies`.
    players : int
        Their player count.
    rules : RuleSet, str or mapping
        Settlement options to apply.
    variant : str, optional
        Label (default: the ruleset's name).
    confidence : float
        Level of the intervals.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`FRAME_COLUMNS`, metrics :data:`FAIRNESS_METRICS`.
    """
    rules = resolve_rules(rules)
    v = Variant(variant or rules.name, int(players), rules)
    return _frame(_rows_for(v, stats, confidence))


def _frame(rows: list[tuple]) -> pd.DataFrame:
    df = pd.DataFrame(rows, columns=list(FRAME_COLUMNS))
    df = df.astype({"seat": "Int64", "players": "int64", "samples": "int64"})
    df["relative_to"] = df["relative_to"].astype(object).where(df["relative_to"].notna(), None)
    return df


# --------------------------------------------------------------------------------------
# Comparisons
# --------------------------------------------------------------------------------------


def compare_variants(
    variants: Any = "presets",
    players: int = 4,
    hands: int = 100_000,
    seed: int | None = 0,
    cut: float | None = None,
    policies: Any = "greedy",
    progress: bool = True,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """One tidy table of per-hand EV, house take and fairness metrics for several variants.

    Every variant plays ``hands`` hands with the same ``seed`` (common random numbers);
    variants differing only in settlement options share one simulation.

    Parameters
    ----------
    variants : str, mapping or sequence
        See :func:`resolve_variants`; ready-made sets in :data:`VARIANT_SETS`.
    players : int
        Player count of variants that do not set their own.
    hands : int
        Hands per simulation.
    seed : int or None
        Seed (None: fresh entropy, recorded in ``df.attrs['seed_entropy']``).
    cut : float or None
        House cut for every variant (None: each ruleset's ``house_cut``).
    policies : str, Policy or sequence
        As for :func:`kaptai.kts.simulate.simulate`.
    progress : bool
        Progress bars on stderr.
    workers : int
        Worker processes per simulation (results do not depend on it).
    confidence : float
        Level of the intervals.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`FRAME_COLUMNS`: ``variant, players, settlement, house_cut, metric,
        seat, relative_to ('dealer' | 'first_hand' | None), value, ci_low, ci_high,
        samples, method``; metrics :data:`FAIRNESS_METRICS`.  ``ev_per_hand`` is in units
        of one ante (pot) or one point (advanced).  ``df.attrs``: ``seed_entropy``,
        ``hands``, ``policies``, ``version``, ``confidence``, ``variants`` (label ->
        players and rules dict).

    Raises
    ------
    RulesError
        For bad variants, cut, players, hands, seed or policies -- before anything runs.

    Examples
    --------
    >>> from kaptai.kts.fairness import compare_variants
    >>> df = compare_variants("house_cut", hands=1000, seed=2, progress=False)
    >>> h = df[df.metric == "house_take_per_hand"]
    >>> h.variant.iloc[0], float(h.value.iloc[0]), bool(h.value.is_monotonic_increasing)
    ('cut 0%', 0.0, True)
    """
    resolved = resolve_variants(variants, players, cut)
    # validate the run parameters once, before any simulation
    hands = _positive("hands", hands)
    entropy = _entropy(seed)
    cache: dict[tuple, tuple] = {}
    rows: list[tuple] = []
    meta: dict[str, Any] = {}
    for v in resolved:
        key = _play_key(v)
        if key not in cache:
            # one checkpoint sub-folder per simulation, so an interrupted comparison resumes
            sub = None if checkpoint is None else os.path.join(os.fspath(checkpoint), f"sim{len(cache):03d}")
            stats, _, meta = run_tallies(
                v.players, key[1], hands, entropy, policies=policies, workers=workers,
                progress=progress, scheduler=scheduler, checkpoint=sub,
            )
            cache[key] = (stats, meta)
        rows.extend(_rows_for(v, cache[key][0], confidence))
    df = _frame(rows)
    df.attrs.update(
        {
            "game": _GAME,
            "seed_entropy": entropy,
            "hands": hands,
            "policies": meta.get("policies"),
            "engine": meta.get("engine"),
            "version": __version__,
            "confidence": confidence,
            "simulations": len(cache),
            "variants": {v.name: {"players": v.players, "rules": v.rules.to_dict()} for v in resolved},
        }
    )
    return df


def fairness(
    players: int = 4,
    hands: int = 100_000,
    seed: int | None = 0,
    *,
    cut: float | None = None,
    variants: Any = ("traditional", "advanced"),
    policies: Any = "greedy",
    progress: bool = True,
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
) -> pd.DataFrame:
    """The table behind ``kaptai fairness kap-tai-shap`` (see :func:`compare_variants`).

    ``workers``, ``scheduler`` and ``checkpoint`` go to the runner
    (:mod:`kaptai.core.runner`); each simulation checkpoints in its own
    sub-folder of ``checkpoint``.

    Examples
    --------
    >>> from kaptai.kts.fairness import fairness
    >>> df = fairness(4, 1000, 1, cut=0.05, progress=False)
    >>> sorted(set(df.variant)), sorted(set(df.house_cut))
    (['advanced', 'traditional'], [0.05])
    """
    return compare_variants(variants, players, hands, seed, cut, policies, progress, workers=workers,
                            scheduler=scheduler, checkpoint=checkpoint)


def cut_curve(
    players: int = 4,
    rules: RuleSet | str | Mapping[str, Any] = "traditional",
    hands: int = 100_000,
    seed: int | None = 0,
    cuts: Sequence[float] | None = None,
    *,
    policies: Any = "greedy",
    progress: bool = True,
    **runner: Any,
) -> pd.DataFrame:
    """Fairness table of one ruleset at several house cuts (one simulation).

    ``runner`` keywords (``workers``, ``scheduler``, ``checkpoint``) go to
    :func:`compare_variants`.

    Parameters
    ----------
    cuts : sequence of float, optional
        Cuts to tabulate (default 0, 0.01, ..., 0.10).
    players, rules, hands, seed, policies, progress
        As for :func:`compare_variants`.

    Returns
    -------
    pandas.DataFrame
        As :func:`compare_variants`, one variant per cut (labelled ``'cut 0.05'``...).

    Examples
    --------
    >>> from kaptai.kts.fairness import cut_curve
    >>> df = cut_curve(4, "traditional", 500, 1, cuts=[0, 0.5, 1], progress=False)
    >>> df[df.metric == "house_take_per_hand"].value.round(6).tolist()[0]
    0.0
    """
    base = resolve_rules(rules)
    if cuts is None:
        cuts = [c / 100 for c in range(11)]
    cuts = [validate_cut(c, "cut") for c in cuts]
    variants = {f"cut {c:g}": base.replace(house_cut=c) for c in cuts}
    return compare_variants(variants, players, hands, seed, None, policies, progress, **runner)


# --------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------


def _figure(**kw):
    from matplotlib.figure import Figure

    return Figure(**kw)


def _save(fig, path):
    if path is not None:
        fig.savefig(path, bbox_inches="tight", dpi=120)
    return fig


def plot_seat_ev(df: pd.DataFrame, relative_to: str = "dealer", ax=None, path=None):
    """Bars of every seat's EV per hand with their confidence intervals, one group per variant.

    Parameters
    ----------
    df : pandas.DataFrame
        A table of :func:`compare_variants`.
    relative_to : {'dealer', 'first_hand'}
        Seat numbering.
    ax : matplotlib.axes.Axes, optional
        Axes to draw in (default: a new Figure).
    path : str or path, optional
        Save the figure there.

    Returns
    -------
    matplotlib.figure.Figure
    """
    sub = df[(df.metric == "ev_per_hand") & (df.relative_to == relative_to)]
    if sub.empty:
        raise RulesError("the table has no ev_per_hand rows to plot")
    fig = ax.figure if ax is not None else _figure(figsize=(8, 4.5))
    ax = ax if ax is not None else fig.subplots()
    names = list(dict.fromkeys(sub.variant))
    seats = sorted(int(s) for s in sub.seat.dropna().unique())
    width = 0.8 / max(len(names), 1)
    for i, name in enumerate(names):
        d = sub[sub.variant == name].sort_values("seat")
        x = d.seat.astype(int).to_numpy() + (i - (len(names) - 1) / 2) * width
        err = np.vstack([d.value - d.ci_low, d.ci_high - d.value])
        house = df[(df.variant == name) & (df.metric == "house_take_per_hand")].value
        label = name if house.empty else f"{name} (house {house.iloc[0]:.3f}/hand)"
        ax.bar(x, d.value, width, yerr=err, capsize=3, label=label)
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xticks(seats)
    who = "dealer" if relative_to == "dealer" else "first hand"
    ax.set_xticklabels([f"{who}" if s == 0 else f"+{s}" for s in seats])
    ax.set_xlabel(f"seat (relative to the {who})")
    ax.set_ylabel("EV per hand (antes / points)")
    ax.set_title("Expected result per hand, 95% intervals")
    ax.legend(fontsize=8)
    return _save(fig, path)


def plot_cut_curve(df: pd.DataFrame, relative_to: str = "dealer", ax=None, path=None):
    """Seat EVs and the house's take per hand against the house cut.

    ``df`` holds several variants differing in ``house_cut`` (:func:`cut_curve`, or
    ``compare_variants('house_cut')``).

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = ax.figure if ax is not None else _figure(figsize=(7, 4.5))
    ax = ax if ax is not None else fig.subplots()
    ev = df[(df.metric == "ev_per_hand") & (df.relative_to == relative_to)].sort_values("house_cut")
    for seat, d in ev.groupby("seat"):
        ax.plot(d.house_cut, d.value, marker="o", ms=3, label=f"seat {seat} EV")
        ax.fill_between(d.house_cut, d.ci_low, d.ci_high, alpha=0.15)
    h = df[df.metric == "house_take_per_hand"].sort_values("house_cut")
    ax.plot(h.house_cut, h.value, color="black", lw=2, label="house take")
    ax.axhline(0, color="grey", lw=0.8)
    be = df[df.metric == "break_even_cut"].value
    if len(be):
        ax.axvline(float(be.iloc[0]), color="red", ls="--", lw=1, label=f"break-even cut {be.iloc[0]:.3f}")
    ax.set_xlabel("house cut")
    ax.set_ylabel("per hand (antes / points)")
    ax.set_title("EV and house take against the cut")
    ax.legend(fontsize=8)
    return _save(fig, path)


def plot_fairness(df: pd.DataFrame, path=None):
    """The figure of ``kaptai fairness --plot``: seat EVs per variant and the house take.

    Left: seat EVs relative to the dealer with 95% bars; right: the house's take per hand
    per variant (with intervals).  When the table holds several cuts of one settlement, the
    right panel is the EV-against-cut curve instead.

    Returns
    -------
    matplotlib.figure.Figure
    """
    fig = _figure(figsize=(12, 4.5), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=[2, 1])
    plot_seat_ev(df, "dealer", ax=left)
    cuts = df.drop_duplicates("variant")
    if cuts.house_cut.nunique() > 2 and cuts.settlement.nunique() == 1:
        plot_cut_curve(df, ax=right)
    else:
        h = df[df.metric == "house_take_per_hand"]
        err = np.vstack([h.value - h.ci_low, h.ci_high - h.value])
        right.bar(range(len(h)), h.value, yerr=err, capsize=3, color="grey")
        right.set_xticks(range(len(h)))
        from kaptai.core.output import wrap_label

        right.set_xticklabels([wrap_label(v, 12) for v in h.variant], fontsize=8)
        right.set_ylabel("house take per hand")
        right.set_title("House take")
    return _save(fig, path)


# --------------------------------------------------------------------------------------
# Sessions
def plot_win_modes(df: pd.DataFrame, ax=None, path=None):
    """Stacked shares of natural / claimed / self-drawn wins per variant.

    Parameters
    ----------
    df : DataFrame
        A table of :func:`compare_variants` (metrics ``win_share_*``).
    ax : matplotlib Axes, optional
    path : str or path, optional
        Save the figure there too.

    Returns
    -------
    matplotlib.figure.Figure
    """
    import matplotlib.pyplot as plt

    modes = ["natural", "claimed", "self_drawn"]
    q = df[df.metric.isin([f"win_share_{m}" for m in modes])]
    if q.empty:
        raise RulesError("plot_win_modes needs the win_share_* metrics of compare_variants()")
    table = q.pivot_table(index="variant", columns="metric", values="value", sort=False)
    if ax is None:
        fig, ax = plt.subplots(figsize=(max(5, 1.2 * len(table) + 2), 3.5))
    else:
        fig = ax.figure
    bottom = np.zeros(len(table))
    for m in modes:
        vals = table[f"win_share_{m}"].to_numpy()
        ax.bar(range(len(table)), vals, bottom=bottom, label=m.replace("_", "-"))
        bottom += vals
    ax.set_ylabel("share of wins")
    ax.set_ylim(0, 1)
    ax.set_title("How hands are won")
    ax.legend(loc="upper right", fontsize=8)
    from kaptai.core.output import wrap_label

    ax.set_xticks(range(len(table)), [wrap_label(v, 12) for v in table.index.astype(str)], fontsize=8)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=110, bbox_inches="tight")
    return fig


# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
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
    >>> from kaptai.kts.fairness import simulate_sessions
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
    pot_system = rules.settlement == "pot"
    carry = pot_system and rules.drawn_hand == "carry"
    keeps = rules.dealer_keeps_on_win

    bank = np.empty((S, H + 1, P))
    bank[:, 0] = b0
    house = np.zeros((S, H + 1))
    pot = np.zeros((S, H + 1))
    dealers = np.empty((S, H), dtype=np.int64)
    d = np.zeros(S, dtype=np.int64)
    k = np.zeros(S, dtype=np.int64)
    rows = np.arange(S)
    for t in range(H):
        o = pick[:, t]
        wr = winner_rel[o]
        won = wr >= 0
        w = np.where(won, (d + wr) % P, -1)
        nets = np.zeros((S, P))
        take = np.zeros(S)
        pot_in = pot[:, t]
        pot_out = pot_in.copy()
        if pot_system:
            nets -= 1.0
            total = pot_in + P
            take = np.where(won, c * total, 0.0)
            nets[rows[won], w[won]] += (total - take)[won]
            if carry:
                pot_out = np.where(won, 0.0, total)
            else:
                nets[~won] += 1.0
        else:
            dealer_win = won & (w == d)
            sc = score[o] + np.where(dealer_win & keeps, 2 * k, 0)
            gross = (P - 1) * sc
            take = np.where(won, c * gross, 0.0)
            nets[won] -= sc[won, None]
            nets[rows[won], w[won]] = (gross - take)[won]
        balance = nets.sum(axis=1) + take + pot_out - pot_in
        if np.abs(balance).max() > 1e-9 * max(1.0, float(np.abs(pot_in).max()) + P * 64):
            raise AssertionError("session settlement does not balance")
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
    >>> from kaptai.kts.fairness import simulate_sessions, session_summary
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
    >>> from kaptai.kts.fairness import compare_sessions
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


def plot_bankroll_fan(result: SessionResult, seats: Sequence[int] | None = None, ax=None, path=None):
    """Fan chart of bankroll paths: median and 5-95% / 25-75% bands per seat, house take.

    Returns
    -------
    matplotlib.figure.Figure
    """
    r = result
    fig = ax.figure if ax is not None else _figure(figsize=(8, 4.5))
    ax = ax if ax is not None else fig.subplots()
    t = np.arange(r.bankrolls.shape[1])
    for s in seats if seats is not None else range(r.players):
        q = np.quantile(r.bankrolls[:, :, s], [0.05, 0.25, 0.5, 0.75, 0.95], axis=0)
        (line,) = ax.plot(t, q[2], label=f"seat {s} median")
        ax.fill_between(t, q[0], q[4], color=line.get_color(), alpha=0.1)
        ax.fill_between(t, q[1], q[3], color=line.get_color(), alpha=0.2)
    ax.plot(t, np.median(r.house, axis=0), color="black", ls="--", label="house take (median)")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("hand")
    ax.set_ylabel("bankroll")
    ax.set_title(f"{r.variant}: bankrolls over {t[-1]} hands ({r.bankrolls.shape[0]} sessions)")
    ax.legend(fontsize=8)
    return _save(fig, path)
