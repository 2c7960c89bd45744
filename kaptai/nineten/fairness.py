"""Variant fairness of nine-ten (§7.5, §7.6): the §6 option readings and the discard policies.

Each variant is a table (players, rule options, one policy per seat) played with the same
seed (the deals of the first hand of every chunk are common; play diverges afterwards as the
variants' moves differ).  The table reports per seat (relative to the dealer and by seat
number) the mean net money per hand with its 95% interval, its standard deviation, the
dealer advantage, the mean transfer (money changing hands per hand), the win rate and the
mean 頭 of a win, before and after a house cut on winnings.

Examples
--------
>>> from kaptai.nineten.fairness import compare_variants
>>> df = compare_variants("payer", players=4, hands=2000, seed=1, progress=False)
>>> sorted(set(df.variant))
['all pay (default)', 'discarder covers all', 'flipper pays']
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import pandas as pd

from kaptai.core.options import check_count, check_seed
from kaptai.core.runner import resume_seed, run_jobs
from kaptai.core.settlement import validate_cut
from kaptai.core.stats import mean_interval
from kaptai.core.tables import FAIRNESS_COLUMNS
from kaptai.nineten.config import make_config
from kaptai.nineten.rules import resolve_rules
from kaptai.nineten.simulate import tallies_frame, tallies_job
from kaptai.errors import RulesError, quote_token

__all__ = ["VARIANT_SETS", "Variant", "resolve_variants", "compare_variants", "fairness"]


def _sets() -> dict[str, dict[str, Any]]:
    return {
        # §6.5, 6.7-6.11, 6.13 readings, one at a time against the defaults
        "options": {
            "defaults": {},
            "natural no_bonus": {"natural": "no_bonus"},
            "natural redeal": {"natural": "redeal"},
            "flip next_player_first": {"flip_priority": "next_player_first"},
            "flip_win_payer flipper": {"flip_win_payer": "flipper"},
            "discard_payer_covers_all": {"discard_payer_covers_all": True},
            "four_colour_flip_win bonus_flip": {"four_colour_flip_win": "bonus_flip"},
            "four_colour_kaizhao_counts": {"four_colour_kaizhao_counts": True},
            "kaizhao_wait_also_plus1": {"kaizhao_wait_also_plus1": True},
            "reserve 5": {"reserve": 5},
            "reserve 15": {"reserve": 15},
            "dead cards not claimable": {"dead_cards_claimable": False},
        },
        "payer": {
            "all pay (default)": {},
            "flipper pays": {"flip_win_payer": "flipper"},
            "discarder covers all": {"discard_payer_covers_all": True},
        },
        "policies": {
            "all colour_cut": {"policies": "colour_cut"},
            "all live_first": {"policies": "live_first"},
            "all random": {"policies": "random"},
            "seat 0 colour_cut vs random": {"policies": ["colour_cut"] + ["random"] * 14},
            "seat 0 colour_cut vs live_first": {"policies": ["colour_cut"] + ["live_first"] * 14},
            "seat 0 live_first vs colour_cut": {"policies": ["live_first"] + ["colour_cut"] * 14},
            "seat 0 random vs colour_cut": {"policies": ["random"] + ["colour_cut"] * 14},
        },
        "players": {f"{p} players": {"players": p} for p in (4, 5, 6, 7)},
    }


#: Ready-made comparisons (set name -> variant label -> options; ``players`` and
#: ``policies`` may appear next to the rule options; a policy list is cut to the table).
VARIANT_SETS: dict[str, dict[str, Any]] = _sets()


@dataclass(frozen=True)
class Variant:
    """One table to compare: label, players, rules and policies."""

    name: str
    players: int
    rules: Any
    policies: Any


def _variant(name: str, spec: Any, players: int) -> Variant:
    if not isinstance(spec, Mapping):
        raise RulesError(f"variant {name!r}: expected a dict of options, got {spec!r}")
    spec = dict(spec)
    p = spec.pop("players", players)
    pols = spec.pop("policies", "colour_cut")
    rules = resolve_rules(None, **{**spec, "name": str(name)})
    cfg = make_config(p, rules)
    if not isinstance(pols, str):
        pols = list(pols)[: cfg.players]
    return Variant(str(name), cfg.players, rules, pols)


def resolve_variants(variants: Any = "options", players: int = 4) -> list[Variant]:
    """Variants from a set name (comma-separated names allowed) or a mapping label -> options.

    >>> from kaptai.nineten.fairness import resolve_variants
    >>> [v.name for v in resolve_variants("payer")]
    ['all pay (default)', 'flipper pays', 'discarder covers all']
    >>> resolve_variants("fancy")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: unknown variant set 'fancy': sets are options, payer, policies, players
    """
    if isinstance(variants, str):
        out: list[Variant] = []
        for part in (p.strip() for p in variants.split(",")):
            if part not in VARIANT_SETS:
                raise RulesError(f"unknown variant set {quote_token(part)}: sets are {', '.join(VARIANT_SETS)}")
            out += [_variant(k, v, players) for k, v in VARIANT_SETS[part].items()]
        return out
    if isinstance(variants, Mapping) and variants:
        return [_variant(str(k), v, players) for k, v in variants.items()]
    raise RulesError(f"variants must be a set name or a non-empty mapping label -> options, got {quote_token(variants)}")


def compare_variants(variants: Any = "options", players: int = 4, hands: int = 20_000, seed: int | None = 0, *,
                     house_cut: float = 0.0, workers: int = 1, progress: bool = True, scheduler: str | None = None,
                     executor: Executor | None = None, checkpoint: str | os.PathLike | None = None) -> pd.DataFrame:
    """Play every variant and compare money per seat (columns :data:`FAIRNESS_COLUMNS`).

    Metrics: ``net_mean`` (per seat, ``relative_to`` ``'dealer'`` and ``'seat'``), ``net_sd``,
    ``dealer_advantage``, ``mean_transfer`` (mean of the winner's gain per hand),
    ``win`` (P(the seat wins)), ``tou_mean``; with a house cut, ``net_mean_after_cut``.
    ``settlement`` is ``'per_hand'``.

    Every variant plays ``hands`` hands from the same seed (``seed`` None: one fresh entropy
    for all, in ``df.attrs['seed_entropy']``), all in one run of the shared runner: ``workers``,
    ``scheduler``, ``executor`` and ``checkpoint`` (one directory for the whole comparison) as
    in :func:`kaptai.nineten.simulate.simulate`; the table does not depend on them.
    """
    cut = validate_cut(house_cut)
    workers = check_count("workers", workers, 1)
    chosen = resolve_variants(variants, players)
    seed = resume_seed(seed, checkpoint)
    entropy = check_seed(seed)
    built = [tallies_job(v.players, v.rules, hands, entropy, policies=v.policies) for v in chosen]
    counts = run_jobs([job for job, _ in built], workers=workers, executor=executor, scheduler=scheduler,
                      checkpoint=checkpoint, progress=progress, desc="nine-ten fairness",
                      fingerprint={"game": "nine-ten", "kind": "fairness", "variants": [v.name for v in chosen],
                                   "seed_entropy": entropy})
    rows = []
    for v, (_, meta), t in zip(chosen, built, counts):
        t = {k: a for k, a in t.items() if k != "log"}
        cfg = meta["config"]
        df = tallies_frame(t, cfg, meta["policies"], cut)
        keep = df[df.metric.isin(["net_mean", "net_sd", "dealer_advantage", "net_mean_after_cut", "tou_mean"])
                  | ((df.metric == "win") & (df.level == "any"))]
        for r in keep.itertuples():
            rows.append({"variant": v.name, "players": v.players, "settlement": "per_hand", "house_cut": cut,
                         "metric": r.metric, "seat": r.seat, "relative_to": r.relative_to, "value": r.value,
                         "ci_low": r.ci_low, "ci_high": r.ci_high, "samples": r.samples, "method": "monte_carlo"})
        n = float(t["hands"][0])
        stake = cfg.rules.stake_per_tou
        gain = t["pos_rel"].sum()
        # the winner's gain per hand: sum of positive nets; its second moment needs per-hand data,
        # so the interval uses the winner seat sums (one positive net per hand)
        m, lo, hi = mean_interval(gain, t["pos_rel_sq"].sum(), n)
        rows.append({"variant": v.name, "players": v.players, "settlement": "per_hand", "house_cut": cut,
                     "metric": "mean_transfer", "seat": None, "relative_to": None, "value": float(m) * stake,
                     "ci_low": float(lo) * stake, "ci_high": float(hi) * stake, "samples": int(n),
                     "method": "monte_carlo"})
    out = pd.DataFrame(rows, columns=list(FAIRNESS_COLUMNS))
    out["seat"] = out["seat"].astype("Int64")
    out.attrs.update({"game": "nine-ten", "hands": hands, "seed": seed, "seed_entropy": entropy, "house_cut": cut})
    return out


def fairness(players: int = 4, hands: int = 20_000, seed: int | None = 0, *, variants: Any = "options",
             house_cut: float = 0.0, **kwargs: Any) -> pd.DataFrame:
    """The fairness table of a variant set (see :func:`compare_variants`).

    >>> from kaptai.nineten.fairness import fairness
    >>> df = fairness(4, hands=1000, variants="players", progress=False)
    >>> sorted(set(df.players))
    [4, 5, 6, 7]
    """
    return compare_variants(variants, players, hands, seed, house_cut=house_cut, **kwargs)
