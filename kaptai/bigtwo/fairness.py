"""Fairness of Big Two (鋤大D) scoring and rule variants: who wins and loses what, per game.

Which scoring is fairest — 獨贏 (winner takes all) or Place (四人互算), count with which 炒
table, or points — how much does leading first help, what does 頂大 liability (包牌) cost, is
the Malaysian swap worth taking, does the Taiwan suit order change anything?  Every variant's
games are played by :func:`kaptai.bigtwo.simulate.run_tallies`; variants that differ only in
scoring options (:data:`kaptai.bigtwo.simulate.SCORING_OPTIONS`) share one simulation (same
games, common random numbers).  With no house, the seats' nets sum to 0 in every game.

Examples
--------
>>> from kaptai.bigtwo.fairness import compare_variants
>>> df = compare_variants("settlement", players=4, games=2000, seed=1, progress=False)
>>> sorted(set(df.variant))
['place', 'winner takes all']
>>> ev = df[(df.metric == "ev_per_hand") & (df.relative_to == "seat")]
>>> bool(abs(ev.groupby("variant").value.sum()).max() < 1e-9)
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.bigtwo.config import MALAYSIAN_SWAP
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.bigtwo.simulate import CONFIDENCE, SCORING_OPTIONS, _entropy, _count, run_tallies
from kaptai.core.stats import mean_interval, sd_interval, spread_interval, wilson_interval
from kaptai.core.tables import FAIRNESS_COLUMNS
from kaptai.errors import RulesError, quote_token

__all__ = [
    "FRAME_COLUMNS",
    "FAIRNESS_METRICS",
    "VARIANT_SETS",
    "Variant",
    "resolve_variants",
    "compare_variants",
    "fairness",
]

_GAME = "big-two"

#: Columns of every fairness table (the Kap Tai Shap fairness columns; Big Two has no house,
#: so ``house_cut`` is 0).
FRAME_COLUMNS: tuple[str, ...] = FAIRNESS_COLUMNS

#: Metrics of :func:`compare_variants` (money in points x ``stake``).
FAIRNESS_METRICS: dict[str, str] = {
    "ev_per_hand": "expected net of the seat per game",
    "sd_per_hand": "standard deviation of the seat's net in one game",
    "win": "P(the seat wins the game)",
    "penalty_mean": "mean penalty p of the seat (§5)",
    "cards_left_mean": "mean cards left in the seat's hand at the end",
    "net_positive": "P(the seat ends the game with net > 0)",
    "ev_spread": "max - min of the seats' EVs (relative_to 'seat' or 'leader'; seat None; simultaneous "
                 "Bonferroni interval)",
    "leader_advantage": "EV of the leader minus the mean EV of the other seats",
    "sd_hand_result": "mean over seats of the SD of a seat's net in one game (simultaneous interval)",
    "nonwinner_positive": "P(some seat other than the winner ends with net > 0)",
    "liability_rate": "P(包牌) per game",
    "liability_cost_mean": "mean extra payment of the liable seat, given 包牌",
    "swap_rate": "P(the ♦3 holder swaps), Malaysian three-player game",
    "plays_mean": "mean plays per game",
}

_PLAY_NEUTRAL = {"scoring": "count", "chao": "standard", "points_chao": False, "winner_bonus": 0,
                 "settlement": "place", "stake": 1.0, "bankroll": "off", "name": "play"}


def _sets() -> dict[str, dict[str, Any]]:
    return {
        "scoring": {
            "count standard": {},
            "count eight": {"chao": "eight"},
            "count 8/11/13": {"chao": "8/11/13"},
            "points": {"scoring": "points"},
            "points with chao": {"scoring": "points", "points_chao": True},
        },
        "settlement": {"place": {}, "winner takes all": {"settlement": "winner_takes_all"}},
        "scoring_settlement": {
            f"{s}, {t}": {"scoring": s, "settlement": t}
            for s in ("count", "points") for t in ("place", "winner_takes_all")
        },
        "winner_bonus": {f"bonus {b}": {"winner_bonus": b} for b in (0, 5, 10)},
        "top_rule": {f"top_rule {v}": {"top_rule": v} for v in ("liability", "mandatory", "off")},
        "suit_order": {"hk suits": {}, "taiwan suits": {"suit_order": "taiwan"}},
        "first_lead": {"lowest card leads": {}, "previous winner leads": {"first_lead": "previous_winner"}},
        "passing": {
            "free passing": {},
            "pass only if unable": {"pass_only_if_unable": True},
            "pass locks out": {"pass_locks_out": True},
        },
        "malaysian": {
            "3 players, leftover to ♦3": {"players": 3},
            "Malaysian, always swap": {"players": 3, "malaysian_3p": True, "malaysian_swap": "always"},
            "Malaysian, never swap": {"players": 3, "malaysian_3p": True, "malaysian_swap": "never"},
        },
        "straight_order": {f"straights {v}": {"straight_order": v}
                           for v in ("hk", "sequential", "poker", "wheel_top", "broadway_top")},
        "players": {f"{p} players": {"players": p} for p in range(2, 9)},
    }


#: Ready-made comparisons (name -> variants label -> options).  A variant's options are
#: rule options plus ``players``, ``preset`` and ``malaysian_swap``.
VARIANT_SETS: dict[str, dict[str, Any]] = _sets()


@dataclass(frozen=True)
class Variant:
    """One variant: a label, the table size, the rules and the Malaysian swap setting."""

    name: str
    players: int
    rules: RuleSet
    malaysian_swap: str = "policy"

    def play_key(self) -> tuple:
        """Variants with equal keys play the same games (scoring options do not matter)."""
        return (self.players, self.rules.replace(**_PLAY_NEUTRAL), self.malaysian_swap)

    def scoring(self) -> dict[str, Any]:
        return {k: getattr(self.rules, k) for k in SCORING_OPTIONS}


def _variant(name: str, spec: Any, players: int) -> Variant:
    if isinstance(spec, RuleSet):
        return Variant(name, spec.players if players is None else players, spec.replace(players=players))
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, Mapping):
        raise RulesError(f"variant {name!r}: expected a preset name, a RuleSet or a dict of options, got {spec!r}")
    spec = dict(spec)
    swap = spec.pop("malaysian_swap", "policy")
    if swap not in MALAYSIAN_SWAP:
        raise RulesError(f"variant {quote_token(name)}: malaysian_swap={quote_token(swap)}, expected one of {', '.join(map(repr, MALAYSIAN_SWAP))}")
    preset = spec.pop("preset", None)
    p = spec.pop("players", players)
    rules = resolve_rules(preset, **{**spec, "players": p, "name": str(name)})
    return Variant(str(name), rules.players, rules, swap)


def resolve_variants(variants: Any = "scoring", players: int = 4) -> list[Variant]:
    """Variants from a set name, a mapping label -> spec, or a sequence of specs.

    A spec is a preset name (``'hong_kong'``), a :class:`RuleSet` or a dict of rule
    options (plus ``players``, ``preset``, ``malaysian_swap``).  A comma-separated string of
    set names or presets is split.

    Examples
    --------
    >>> from kaptai.bigtwo.fairness import resolve_variants
    >>> [v.name for v in resolve_variants("winner_bonus")]
    ['bonus 0', 'bonus 5', 'bonus 10']
    >>> resolve_variants("fancy")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown variant set or preset 'fancy': sets are scoring, settlement, scoring_settlement, winner_bonus, top_rule, suit_order, first_lead, passing, malaysian, straight_order, players; the preset is 'hong_kong'
    """
    if isinstance(variants, str):
        out: list[Variant] = []
        for part in (p.strip() for p in variants.split(",")):
            if part in VARIANT_SETS:
                out += [_variant(k, v, players) for k, v in VARIANT_SETS[part].items()]
            elif part == "hong_kong":
                out.append(_variant(part, part, players))
            else:
                raise RulesError(
                    f"unknown variant set or preset {quote_token(part)}: sets are {', '.join(VARIANT_SETS)}; "
                    f"the preset is 'hong_kong'"
                )
        return out
    if isinstance(variants, Mapping):
        if not variants:
            raise RulesError("variants is empty: give at least one variant (a set name, a mapping or a sequence)")
        return [_variant(str(k), v, players) for k, v in variants.items()]
    if isinstance(variants, Sequence):
        out = []
        for i, spec in enumerate(variants):
            name = spec if isinstance(spec, str) else getattr(spec, "name", None) or f"variant {i}"
            out.append(_variant(str(name), spec, players))
        if not out:
            raise RulesError("variants is empty: give at least one variant (a set name, a mapping or a sequence)")
        return out
    raise RulesError(f"variants must be a set name, a mapping or a sequence, got {quote_token(variants)}")


def _rows_for(v: Variant, t: Mapping[str, np.ndarray], i: int, confidence: float) -> list[tuple]:
    rows: list[tuple] = []
    N = v.players
    G = int(t["games"][0])

    def add(metric, seat, rel, value, lo=math.nan, hi=math.nan, samples=G):
        rows.append((v.name, N, v.rules.settlement, 0.0, metric, None if seat is None else int(seat), rel,
                     float(value), float(lo), float(hi), int(samples), "monte_carlo"))

    for rel in ("seat", "leader", "finish"):
        net = t[f"net_{rel}"][i]
        means, lo, hi = mean_interval(net[0], net[1], G, confidence)
        for s in range(N):
            add("ev_per_hand", s, rel, means[s], lo[s], hi[s])
        sds, slo, shi = sd_interval(net[0], net[1], net[2], net[3], G, confidence)
        for s in range(N):
            add("sd_per_hand", s, rel, sds[s], slo[s], shi[s])
        # joint (Bonferroni) intervals of the N seats, for the spread and the mean SD
        joint = 1 - (1 - confidence) / N
        _, jlo, jhi = mean_interval(net[0], net[1], G, joint)
        _, jslo, jshi = sd_interval(net[0], net[1], net[2], net[3], G, joint)
        if rel != "finish":
            key = "win_seat" if rel == "seat" else "win_leader"
            lo, hi = wilson_interval(t[key].astype(float), np.full(N, float(G)), confidence)
            for s in range(N):
                add("win", s, rel, t[key][s] / G, lo[s], hi[s])
            ckey = "cards_seat" if rel == "seat" else "cards_leader"
            levels = np.arange(t[ckey].shape[1], dtype=np.float64)
            for s in range(N):
                h = t[ckey][s].astype(np.float64)
                m, lo, hi = mean_interval((h * levels).sum(), (h * levels ** 2).sum(), G, confidence)
                add("cards_left_mean", s, rel, m, lo, hi)
            pen = t[f"pen_{rel}"][i]
            for s in range(N):
                m, lo, hi = mean_interval(pen[0, s], pen[1, s], G, confidence)
                add("penalty_mean", s, rel, m, lo, hi)
            pos = t[f"pos_{rel}"][i].astype(float)
            lo, hi = wilson_interval(pos, np.full(N, float(G)), confidence)
            for s in range(N):
                add("net_positive", s, rel, pos[s] / G, lo[s], hi[s])
            add("ev_spread", None, rel, means.max() - means.min(), *spread_interval(jlo, jhi))
        if rel == "leader":
            # nets sum to 0, so EV(leader) - mean(others) = EV(leader) * N / (N - 1)
            m, lo, hi = mean_interval(net[0, 0], net[1, 0], G, confidence)
            f = N / (N - 1)
            add("leader_advantage", 0, rel, m * f, lo * f, hi * f)
        if rel == "seat":
            add("sd_hand_result", None, None, float(np.mean(sds)), float(np.mean(jslo)), float(np.mean(jshi)))
    k = float(t["nonwin_pos"][i])
    lo, hi = wilson_interval(k, float(G), confidence)
    add("nonwinner_positive", None, None, k / G, lo, hi)
    n_liable = int(t["liable"][0])
    lo, hi = wilson_interval(float(n_liable), float(G), confidence)
    add("liability_rate", None, None, n_liable / G, lo, hi)
    if n_liable:
        m, lo, hi = mean_interval(t["liable_cost"][i, 0], t["liable_cost"][i, 1], n_liable, confidence)
        add("liability_cost_mean", None, None, m, lo, hi, n_liable)
    decided = int(t["swap"][0, 0] + t["swap"][1, 0])
    if decided:
        lo, hi = wilson_interval(float(t["swap"][1, 0]), float(decided), confidence)
        add("swap_rate", None, None, t["swap"][1, 0] / decided, lo, hi, decided)
    L = t["length"]
    m, lo, hi = mean_interval(L[0], L[1], G, confidence)
    add("plays_mean", None, None, m, lo, hi)
    return rows


def compare_variants(
    variants: Any = "scoring",
    players: int = 4,
    games: int = 100_000,
    seed: int | None = 0,
    policies: Any = "greedy",
    progress: bool = True,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    confidence: float = CONFIDENCE,
) -> pd.DataFrame:
    """One tidy table of per-game EV, win rates and fairness metrics for several variants.

    Parameters
    ----------
    variants : str, mapping or sequence
        See :func:`resolve_variants`; ready-made sets in :data:`VARIANT_SETS`.
    players : int
        Player count of variants that do not set their own.
    games : int
        Games per simulation (every variant plays the same seed).
    seed : int or None
        Seed (None: fresh entropy, in ``df.attrs['seed_entropy']``).
    policies : str, Policy or sequence
        As for :func:`kaptai.bigtwo.simulate.simulate`.
    progress : bool
    workers, scheduler, checkpoint
        Runner options; each simulation checkpoints in its own sub-folder of ``checkpoint``.
    confidence : float

    Returns
    -------
    pandas.DataFrame
        Columns :data:`FRAME_COLUMNS`, metrics :data:`FAIRNESS_METRICS`; ``relative_to`` is
        ``'seat'``, ``'leader'`` (0 = the seat that led), ``'finish'`` (0 = the winner, then
        by fewest cards left) or None.  ``df.attrs``: ``seed_entropy``, ``games``,
        ``policies``, ``version``, ``confidence``, ``simulations``, ``variants``.

    Raises
    ------
    RulesError
        For bad variants, players, games, seed or policies, before anything runs.
    """
    resolved = resolve_variants(variants, players)
    games = _count("games", games, 1)
    entropy = _entropy(seed)
    from kaptai.core.runner import check_checkpoint_arg

    checkpoint = check_checkpoint_arg(checkpoint)
    groups: dict[tuple, list[Variant]] = {}
    for v in resolved:
        groups.setdefault(v.play_key(), []).append(v)
    rows: list[tuple] = []
    meta: dict[str, Any] = {}
    order = {id(v): k for k, v in enumerate(resolved)}
    keyed: list[tuple[int, list[tuple]]] = []
    for g, (key, members) in enumerate(groups.items()):
        sub = None if checkpoint is None else os.path.join(os.fspath(checkpoint), f"sim{g:03d}")
        scorings = {v.name: v.scoring() for v in members}
        t, _, meta = run_tallies(
            key[0], key[1].replace(name=members[0].rules.name), games, entropy, policies=policies,
            scorings=scorings, malaysian_swap=key[2], workers=workers, progress=progress,
            scheduler=scheduler, checkpoint=sub,
        )
        for i, v in enumerate(members):
            keyed.append((order[id(v)], _rows_for(v, t, i, confidence)))
    for _, r in sorted(keyed, key=lambda x: x[0]):
        rows.extend(r)
    df = pd.DataFrame(rows, columns=list(FRAME_COLUMNS))
    df = df.astype({"seat": "Int64", "players": "int64", "samples": "int64"})
    df["relative_to"] = df["relative_to"].astype(object).where(df["relative_to"].notna(), None)
    df.attrs.update(
        {
            "game": _GAME,
            "seed_entropy": entropy,
            "games": games,
            "policies": meta.get("policies"),
            "engine": meta.get("engine"),
            "version": __version__,
            "confidence": confidence,
            "simulations": len(groups),
            "variants": {v.name: {"players": v.players, "rules": v.rules.to_dict(),
                                  "malaysian_swap": v.malaysian_swap} for v in resolved},
        }
    )
    return df


def fairness(
    players: int = 4,
    games: int = 100_000,
    seed: int | None = 0,
    *,
    variants: Any = "scoring_settlement",
    policies: Any = "greedy",
    progress: bool = True,
    workers: int = 1,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    hands: int | None = None,
) -> pd.DataFrame:
    """The table behind ``kaptai fairness big-two`` (see :func:`compare_variants`).

    ``hands=`` is accepted as an alias of ``games`` (the Kap Tai Shap name).

    Examples
    --------
    >>> from kaptai.bigtwo.fairness import fairness
    >>> df = fairness(4, 1000, 1, progress=False)
    >>> sorted(set(df.variant))
    ['count, place', 'count, winner_takes_all', 'points, place', 'points, winner_takes_all']
    """
    if hands is not None:
        games = hands
    return compare_variants(variants, players, games, seed, policies, progress, workers=workers,
                            scheduler=scheduler, checkpoint=checkpoint)
