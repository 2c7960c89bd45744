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
    settle_outcomes,
    validate_cut,
    weighted_moments,
)
from kaptai.core.stats import sd_interval, spread_interval, wilson_interval
from kaptai.core.tables import FAIRNESS_COLUMNS
from kaptai.errors import RulesError, quote_token
from kaptai.kts.config import make_config
from kaptai.kts.rules import PRESETS, RuleSet, game_name, resolve_rules
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
]


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
        raise RulesError(f"variant name {quote_token(name)}: expected a non-empty string")
    p = players
    if isinstance(spec, RuleSet):
        rules = spec
    elif isinstance(spec, str):
        if spec not in PRESETS:
            raise RulesError(
                f"unknown variant {quote_token(spec)}: expected a preset ({', '.join(map(repr, PRESETS))}), "
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
            f"variant {quote_token(name)} has spec {quote_token(spec)}: expected a preset name, a RuleSet or a dict "
            f"of rule options"
        )
    if cut is not None:
        if isinstance(spec, Mapping) and "house_cut" in spec and float(spec["house_cut"]) != cut:
            raise RulesError(
                f"cut={quote_token(cut)} conflicts with variant {quote_token(name)}, which sets its own "
                f"house_cut={quote_token(spec['house_cut'])}: give the cut in one place (the 'house_cut' "
                f"variants sweep the cut themselves)"
            )
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
        raise RulesError(f"players={quote_token(players)} is not supported: expected an integer from 2 to 22")
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
        raise RulesError(f"variants={quote_token(variants)}: expected a name, a mapping or a sequence")
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
        raise RulesError(f"relative_to={quote_token(relative_to)}: expected 'dealer' or 'first_hand'")
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


@dataclass(frozen=True, eq=False)
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
    sd_low: np.ndarray | None = None  # interval of sd per seat (delta method; NaN under carry)
    sd_high: np.ndarray | None = None
    spread_ci: tuple[float, float] = (math.nan, math.nan)  # simultaneous interval of max - min EV
    sd_mean_ci: tuple[float, float] = (math.nan, math.nan)  # simultaneous interval of the seats' mean SD
    break_even_ci: tuple[float, float] = (math.nan, math.nan)  # simultaneous interval of the break-even cut


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
        s1, s2, s3, s4 = [(w * nets**k).sum(axis=0) for k in (1, 2, 3, 4)]
        _, sd_lo, sd_hi = sd_interval(s1, s2, s3, s4, hands, confidence)
        joint = 1 - (1 - confidence) / P
        j = weighted_moments(nets, count, joint)
        _, jlo, jhi = sd_interval(s1, s2, s3, s4, hands, joint)
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
        assert r.sd_low is not None and r.sd_high is not None  # hand_ev always sets them
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
    from kaptai.core.runner import check_checkpoint_arg

    checkpoint = check_checkpoint_arg(checkpoint)
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
            "game": game_name(players),
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
