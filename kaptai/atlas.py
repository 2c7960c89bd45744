"""The fairness atlas: every game kaptai models, side by side, on one scale.

For each game of the registry that has an atlas feed (:attr:`kaptai.games.GameSpec.atlas`)
and each of its main variants, the atlas plays

* a **default table**: every seat the game's default policy, ``hands`` hands;
* for the value of skill, the **pair tables** of :data:`kaptai.core.atlas.PAIRS`, like for
  like in every game: the default policy against ``random``, and the strongest built-in
  policy (the ``search`` player where there is one) against the default, the two players
  at one table with the field (the default policy) in the other seats, one table per
  ordered pair of active seats, ``hands`` hands in all per pair;

and turns every hand into the feature row of :mod:`kaptai.core.atlas`, where each measure
is defined once for every game (house edge under the game's own cut and under a common 5%
rake, seat advantage with simultaneous intervals, the luck of the seat from each role the
game assigns and how much of it a rotation cancels, value of skill and the hands until it
shows, swing, drawn-hand rate, mean length, instant wins, and the exact probability that
the deal is already decisive).  Nothing here knows a game: the feeds do.

The variants of a game that deal the same way (a *deal group*, :func:`deal_groups`) are
played on the same deals (common random numbers: one seed per chunk for every variant of the
group, the deal fingerprints checked hand by hand), and their joint moments give the paired
interval of every difference between them (:func:`pairwise`).  :func:`ranking` ranks every
game and variant by each unit-free measure from the interval of each pairwise difference
(paired where the deals were shared, independent otherwise), and :func:`verdict` reads that
ranking in one paragraph.  A role won in an auction (Heaven Eleven's declarer) has its seat
luck measured on a seat table where every seat bids with a bidder that adapts to the scoring
(:attr:`kaptai.core.atlas.AtlasFeed.adaptive_bidding`).  Every row has a ``label`` saying
which pair, which role and which unit it is (:func:`label_of`).

Every table is one job of the shared runner (:mod:`kaptai.core.runner`): the whole atlas
is one run, so ``workers``, ``scheduler`` (Dask) and ``checkpoint`` work as in every Monte
Carlo command and an interrupted atlas resumes from its finished chunks.  Each job has its
own seed, derived from ``(seed, game, variant or deal group, table, seat)``, so a row does not
change when games are added or removed.

Examples
--------
>>> from kaptai.atlas import atlas
>>> df = atlas(games=["nine-ten"], hands=2_000, seed=1, skill=False, progress=False)
>>> sorted(set(df.measure))[:4]
['decisive_deal', 'drawn_rate', 'exchanged', 'house_edge']
>>> bool((df[df.measure == "house_edge"].value == 0).all())     # nine-ten has no house cut
True
"""

from __future__ import annotations

import math
import os
import zlib
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.atlas import (PAIRS, ROLE_KEY, AtlasFeed, AtlasJob, AtlasVariant, block_sizes, independent_difference,
                               joint_row, pair_measures, paired_differences, principal_role, split_joint,
                               table_measures)
from kaptai.core.options import check_count, check_seed
from kaptai.core.output import _fixed, sig3
from kaptai.core.runner import TaskSizes, plan_chunks, run_chunks
from kaptai.core.stats import rank_with_ties, z_value
from kaptai.errors import RulesError, quote_token
from kaptai.games import GAMES, game as game_spec, load_entry

__all__ = ["ATLAS_COLUMNS", "MEASURES", "RANKED", "RANKING_COLUMNS", "PAIRWISE_COLUMNS", "atlas", "atlas_games",
           "feed_of", "atlas_refusal", "plan", "mark_infinite", "INFINITE_COLUMN", "strong_of", "ranking", "verdict", "pairwise", "label_of", "deal_groups", "PairwiseRecords",
           "plot_measure", "plot_map", "atlas_figures"]

#: Columns of :func:`atlas`.
ATLAS_COLUMNS: list[str] = [
    "game", "variant", "players", "measure", "seat", "relative_to", "level", "value", "ci_low", "ci_high",
    "exact", "unit", "hands", "method", "label", "bidders",
]

#: Every measure and what it is (one definition for every game: :mod:`kaptai.core.atlas`).
MEASURES: dict[str, str] = {
    "exchanged": "money that changes hands per hand: what the losers pay the winners, before any cut",
    "house_edge": "house's take per hand / money that changes hands, under the variant's own cut",
    "house_edge_common": "a common 5% rake on winnings / money that changes hands: 5% by construction",
    "house_edge_staked": "house's take per hand / money staked per hand (per ante staked in a pot game)",
    "seat_ev": "expected result per hand of each seat, in the game's stake unit",
    "seat_advantage": "EV of the seat minus EV of the reference seat (simultaneous intervals)",
    "seat_spread": "max - min of the seat EVs (simultaneous interval)",
    "swing": "SD of one seat's result per hand (stake unit)",
    "swing_normalised": "swing / mean absolute result of a seat per hand",
    "seat_spread_swing_share": "seat_spread / swing: the luck of the seat in SDs of one hand (unit-free)",
    "seat_spread_exchange_share": "seat_spread / money that changes hands per hand (unit-free)",
    "value_of_skill": "EV(X) - EV(Y) per hand at one table with the default field, for the pair in level "
                      "(default - random, or strong - default: the strongest built-in policy over the default)",
    "value_of_skill_swing_share": "value_of_skill / swing of the default table (unit-free)",
    "value_of_skill_exchange_share": "value_of_skill / money that changes hands per hand (unit-free)",
    "skill_effect_size": "value_of_skill / SD of the per-hand difference of the two players",
    "hands_until_skill_shows": "smallest N with P(the stronger ahead after N hands) >= 95%, by exact convolution",
    "drawn_rate": "P(the hand is drawn: no winner)",
    "natural_rate": "P(the hand is won on the deal: a natural, a dragon, an instant win)",
    "mean_length": "mean hand length (the game's turns)",
    "decisive_deal": "exact P(the deal is already decisive)",
    "role_ev": "expected result per hand of the seat k places after the role's holder (relative_to = the role)",
    "role_spread": "max - min of the role EVs over the offsets that play (simultaneous interval)",
    "role_spread_swing_share": "role_spread / swing (unit-free)",
    "role_luck_share": "SD of the role EVs over the offsets / swing: the luck of seat a player carries per hand",
    "role_luck_variance_share": "role_luck_share squared: the share of one hand's variance the luck of the role carries",
    "role_luck_after_rotation": "SD of a player's expected total over a rotation of P hands (over the role's "
                                "chance) / SD of the total: 0 exactly for a role that rotates",
}

#: The measures of :func:`ranking` (unit-free, one figure per game and variant, or per skill pair)
#: and whether lower is better.
RANKED: dict[str, bool] = {
    "role_luck_share": True,
    "role_luck_variance_share": True,
    "role_luck_after_rotation": True,
    "role_spread_swing_share": True,
    "seat_spread_swing_share": True,
    "seat_spread_exchange_share": True,
    "house_edge": True,
    "house_edge_staked": True,
    "natural_rate": True,
    "value_of_skill_swing_share": False,
    "value_of_skill_exchange_share": False,
    "skill_effect_size": False,
    "hands_until_skill_shows": True,
}
#: Columns of :func:`ranking`.
RANKING_COLUMNS: list[str] = ["game", "variant", "measure", "level", "value", "ci_low", "ci_high", "better",
                              "rank", "tied_with", "label", "unit", "basis", "variance_share", "note", "infinite"]
#: Columns of :func:`pairwise`.
PAIRWISE_COLUMNS: list[str] = ["game", "variant_a", "variant_b", "measure", "level", "relative_to", "bidders", "label",
                               "unit", "diff", "ci_low", "ci_high", "hands", "shared_deals", "method", "note"]
_PROB = {"house_edge", "house_edge_common", "drawn_rate", "natural_rate", "decisive_deal"}
#: The level of the rows of the adaptive seat table (:attr:`kaptai.core.atlas.AtlasFeed.adaptive_bidding`).
ADAPTIVE_LEVEL = "search bidders"
_SEAT_LUCK = ("role_ev", "role_spread", "role_spread_swing_share", "role_luck_share", "role_luck_variance_share",
              "role_luck_after_rotation", "seat_ev", "seat_advantage", "seat_spread", "seat_spread_swing_share",
              "seat_spread_exchange_share", "swing")


def atlas_games() -> tuple[str, ...]:
    """Ids of the registered games that have an atlas feed (registry order)."""
    return tuple(name for name, g in GAMES.items() if g.atlas)


def atlas_refusal(name: str) -> str | None:
    """Why ``name`` is not a game of the atlas (naming only the games it accepts), or None if it is one.

    >>> atlas_refusal("big-two") is None
    True
    >>> print(atlas_refusal("kap-shap"))
    kap-shap has no atlas feed: the atlas covers kap-tai-shap, big-two, nine-ten, nantong, heaven-eleven (kap-shap is in it as kap-tai-shap's variant kap_shap)
    """
    covered = ", ".join(atlas_games())
    try:
        spec = game_spec(name)
    except RulesError:
        return f"unknown game {quote_token(name)}: expected some of {covered}"
    if spec.atlas:
        return None
    inside = ""
    key = spec.name.replace("-", "_")
    for g in atlas_games():
        try:
            feed = feed_of(g)
        except Exception:  # pragma: no cover - a registry mistake
            continue
        hit = next((v.name for v in feed.variants if v.name == key), None)
        if hit is not None:
            inside = f" ({spec.name} is in it as {g}'s variant {hit})"
            break
    return f"{spec.name} has no atlas feed: the atlas covers {covered}{inside}"


def feed_of(name: str) -> AtlasFeed:
    """The :class:`~kaptai.core.atlas.AtlasFeed` of a game id or alias (a RulesError naming the games
    the atlas covers for any other name)."""
    why = atlas_refusal(name)
    entry = game_spec(name).atlas if why is None else None
    if entry is None:
        raise RulesError(why or f"{name} has no atlas feed")
    feed = load_entry(entry)
    if not isinstance(feed, AtlasFeed):  # pragma: no cover - a registry mistake
        raise TypeError(f"{entry} is not an AtlasFeed")
    return feed


@dataclass(frozen=True)
class _Job:
    index: int
    feed: str                      # 'module:FEED' entry (loaded in the worker)
    job: AtlasJob
    role: str                      # 'default' or 'pair'
    seat: int | None               # unused (kept for the fingerprint's shape)
    hands: int
    entropy: int
    pair: str | None = None        # a label of kaptai.core.atlas.PAIRS
    seats: tuple[int, int] | None = None   # (seat of X, seat of Y) of a pair table
    heavy: bool = False            # the pair has the strong policy (its chunk size and cap)
    group: tuple[AtlasVariant, ...] | None = None   # a deal group: these variants on the same deals
    bidding: str | None = None     # every seat's bidder (the adaptive seat table)


def _job_entropy(entropy: int, game: str, variant: str, role: str, seat: Any) -> int:
    tag = zlib.crc32(f"{game}|{variant}|{role}|{seat}".encode())
    state = np.random.SeedSequence([entropy & (2**128 - 1), tag]).generate_state(4, np.uint32)
    return int.from_bytes(state.tobytes(), "little")


class _Tasks(Sequence):
    """The chunks of every job, one after the other, built when read (flat memory)."""

    def __init__(self, jobs: list[_Job], chunk_sizes: list[int]):
        self.jobs = jobs
        self.plans = [plan_chunks(j.hands, c, j.entropy) for j, c in zip(jobs, chunk_sizes)]
        self.starts = np.cumsum([0] + [len(p) for p in self.plans])

    def __len__(self) -> int:
        return int(self.starts[-1])

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        j = int(np.searchsorted(self.starts, i, side="right") - 1)
        job = self.jobs[j]
        chunk = self.plans[j][i - int(self.starts[j])]
        if job.group is not None:
            return (job.index, job.feed, job.job, chunk, job.seats, job.group)
        return (job.index, job.feed, job.job, chunk, job.seats)

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def _play(task) -> dict[str, np.ndarray]:
    """One chunk of one job (module level: pickled to worker processes).

    A default table gives its moments; a pair table (``seats`` = (a, b)) gives each hand's
    ``net_a - net_b`` as ``j<index>_diff`` (the per-hand distribution behind "hands until
    skill shows")."""
    index, entry, job, chunk, seats = task[:5]
    feed = load_entry(entry)
    if len(task) > 5 and task[5] is not None:           # a deal group: every variant on the chunk's deals
        return _play_group(index, feed, job, chunk, task[5])
    if seats is not None:
        if feed.rows is None:  # pragma: no cover - a feed mistake (test_atlas checks every feed)
            raise RulesError(f"{job.game}'s atlas feed has no per-hand rows: it cannot seat a skill pair")
        r = feed.rows(job, chunk)
        net = np.asarray(r["net"], dtype=np.float64)
        out = {f"j{index}_diff": net[:, seats[0]] - net[:, seats[1]]}
        if "deal" in r:                      # which deal each hand was (pairs of a deal group are paired by it)
            out[f"j{index}_deal"] = np.asarray(r["deal"], dtype=np.int64)
        return out
    out = feed.play(job, chunk)
    return {f"j{index}_{k}": np.asarray(v) for k, v in out.items()}


def _play_group(index: int, feed: AtlasFeed, job: AtlasJob, chunk: Any,
                group: Sequence[AtlasVariant]) -> dict[str, np.ndarray]:
    """One chunk of a deal group: the chunk's hands under every variant of ``group`` from the same
    chunk seed (so hand ``k`` is one deal under each), summed as joint moments, and how many hands'
    deal fingerprints agree in every variant (``deal_same``) of those that have one (``deal_seen``)."""
    if feed.rows is None:  # pragma: no cover - a feed mistake (test_atlas checks every feed)
        raise RulesError(f"{job.game}'s atlas feed has no per-hand rows: it cannot play a deal group")
    parts, deals = [], []
    for v in group:
        r = feed.rows(AtlasJob(job.game, v, tuple([job.policies[0]] * v.players), job.bidding), chunk)
        parts.append(joint_row(r, feed.roles))
        deals.append(np.asarray(r["deal"]) if "deal" in r else None)
    z = np.concatenate(parts, axis=1)
    n = z.shape[0]
    if all(d is not None for d in deals):
        same = np.ones(n, dtype=bool)
        for d in deals[1:]:
            same &= d == deals[0]
        seen = n
    else:
        same, seen = np.zeros(n, dtype=bool), 0
    return {f"j{index}_n": np.array([n], dtype=np.int64), f"j{index}_z1": z.sum(axis=0), f"j{index}_z2": z.T @ z,
            f"j{index}_deal_same": np.array([int(same.sum())], dtype=np.int64),
            f"j{index}_deal_seen": np.array([seen], dtype=np.int64)}


def _merge(total: dict[str, np.ndarray], part: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    out = dict(total)
    for k, v in part.items():
        if k not in out:
            out[k] = np.array(v, copy=True)
        elif k.endswith(("_diff", "_deal")):    # per-hand values: kept in chunk order
            out[k] = np.concatenate([out[k], v])
        else:
            out[k] = out[k] + v
    return out


def _games(games: Any) -> list[str]:
    if games is None:
        return list(atlas_games())
    if isinstance(games, str):
        games = [g for g in games.split(",") if g.strip()]
    if not isinstance(games, Iterable):
        raise RulesError(f"games={quote_token(games)}: expected game ids, e.g. ['big-two', 'nine-ten']")
    names: list[str] = []
    for g in games:
        if not isinstance(g, str):
            raise RulesError(f"games: {quote_token(g)} is not a game id")
        name = feed_of(g.strip()).game
        if name not in names:
            names.append(name)
    if not names:
        raise RulesError("games: no game given")
    return names


def _variants(feed: AtlasFeed, variants: str) -> tuple[AtlasVariant, ...]:
    if variants == "main":
        return feed.variants
    if variants == "default":
        return feed.variants[:1]
    raise RulesError(f"variants={quote_token(variants)}: expected 'main' (every main variant) or 'default'")


def _groups(feed: AtlasFeed, variants: Sequence[AtlasVariant], shared: bool = True) -> list[tuple[AtlasVariant, ...]]:
    """The deal groups of ``variants`` (:attr:`~kaptai.core.atlas.AtlasFeed.deal_key`), in order of
    their first variant; every variant alone without a key (or with ``shared=False``)."""
    if not shared or feed.deal_key is None:
        return [(v,) for v in variants]
    groups: dict[Any, list[AtlasVariant]] = {}
    for v in variants:
        groups.setdefault(feed.deal_key(v), []).append(v)
    return [tuple(g) for g in groups.values()]


def deal_groups(game: str, variants: str = "main") -> list[tuple[str, ...]]:
    """The variants of ``game`` the atlas plays on the same deals, as lists of variant names.

    >>> deal_groups("kap-tai-shap")
    [('traditional', 'advanced'), ('kap_shap',)]
    """
    feed = feed_of(game)
    return [tuple(v.name for v in g) for g in _groups(feed, _variants(feed, variants))]


def plan(games: Any = None, hands: int = 100_000, *, skill: bool = True, variants: str = "main",
         seed: int = 0, strong_hands: int | None = None, shared: bool = True, adaptive: bool = True) -> list[_Job]:
    """The jobs of an atlas run, in run order (what :func:`atlas` would play).

    Per game: one job per deal group (``role='group'``: the default tables of its variants on
    the same deals; a variant alone is a ``'default'`` job), the skill pairs of each variant
    (``'pair'``; the variants of a group use the same seeds per arrangement), and with
    ``adaptive`` the seat tables with adaptive bidders (``'seat'``, one job per deal group)."""
    entropy = check_seed(seed)
    cap = None if strong_hands is None else check_count("strong_hands", strong_hands, 1)
    jobs: list[_Job] = []
    for name in _games(games):
        spec = game_spec(name)
        feed = feed_of(name)
        entry = spec.atlas or ""
        groups = _groups(feed, _variants(feed, variants), shared)
        for grp in groups:
            v = grp[0]
            default = tuple([feed.default_policy] * v.players)
            if len(grp) == 1:
                jobs.append(_Job(len(jobs), entry, AtlasJob(name, v, default), "default", None, hands,
                                 _job_entropy(entropy, name, v.name, "default", None)))
            else:
                tag = "+".join(x.name for x in grp)
                jobs.append(_Job(len(jobs), entry, AtlasJob(name, v, default), "group", None, hands,
                                 _job_entropy(entropy, name, tag, "deals", None), group=grp))
        if skill:
            for grp in groups:
                key = grp[0].name if len(grp) == 1 else "+".join(x.name for x in grp)
                for v in grp:
                    P = v.players
                    default = tuple([feed.default_policy] * P)
                    sitting = set(feed.sitting_out(v)) if feed.sitting_out is not None else set()
                    active = [s for s in range(P) if s not in sitting]
                    arrangements = [(a, b) for a in active for b in active if a != b]
                    roles = {"default": feed.default_policy, "strong": strong_of(feed, v),
                             "random": feed.random_policy}
                    for label, rx, ry in PAIRS:
                        x, y = roles[rx], roles[ry]
                        if x == y:            # the game's strongest policy is its default: nothing to measure
                            continue
                        heavy = "strong" in (rx, ry)
                        n = hands
                        if heavy:
                            n = min([n] + [c for c in (feed.strong_hands, cap) if c is not None])
                        per = -(-n // len(arrangements))
                        for a, b in arrangements:
                            pol = list(default)
                            pol[a], pol[b] = x, y
                            jobs.append(_Job(len(jobs), entry, AtlasJob(name, v, tuple(pol)), "pair", None, per,
                                             _job_entropy(entropy, name, key, f"pair {label}", f"{a},{b}"),
                                             pair=label, seats=(a, b), heavy=heavy))
        if adaptive and feed.adaptive_bidding:
            bid = feed.adaptive_bidding
            n = min([hands, feed.adaptive_hands or hands] + ([cap] if cap is not None else []))
            for grp in groups:
                v = grp[0]
                tag = "+".join(x.name for x in grp)
                jobs.append(_Job(len(jobs), entry, AtlasJob(name, v, tuple([feed.default_policy] * v.players), bid),
                                 "seat", None, n, _job_entropy(entropy, name, tag, f"seat {bid}", None),
                                 group=grp, bidding=bid))
    return jobs


def atlas(
    games: Any = None,
    hands: int = 100_000,
    seed: int | None = 0,
    workers: int = 1,
    *,
    skill: bool = True,
    variants: str = "main",
    confidence: float = 0.95,
    progress: bool = True,
    executor: Executor | None = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    strong_hands: int | None = None,
    shared: bool = True,
    adaptive: bool = True,
) -> pd.DataFrame:
    """Measure every game (and its main variants) on the atlas's common scale.

    Parameters
    ----------
    games : sequence of str or str, optional
        Game ids or aliases (a comma-separated string works too); default every game
        with an atlas feed (:func:`atlas_games`).
    hands : int
        Hands of each default table, and of each skill pair (split over its seat
        arrangements; a feed may cap the tables of its strong policy:
        :attr:`~kaptai.core.atlas.AtlasFeed.strong_hands`).
    seed : int
        Seed of the whole atlas (each table's seed is derived from it).
    workers : int
        Local worker processes.
    skill : bool
        Play the pair tables (value of skill, hands until skill shows).
    variants : {'main', 'default'}
        Every main variant of each game, or only its default ruleset.
    confidence : float
        Two-sided level of every interval.
    progress : bool
        Progress bar on stderr.
    executor, scheduler, checkpoint
        As :func:`kaptai.core.runner.run_chunks`: any executor, a Dask scheduler address or
        ``'local'``, a folder of finished chunks (rerunning the same atlas resumes).
    strong_hands : int, optional
        A cap on the hands of every pair with the strong policy (``strong - default``) and of
        every seat table with adaptive bidders, on top of each feed's own caps (the search
        players play 10-100 hands a second, the search bidders about a hundred).
    shared : bool
        Play the variants of each deal group on the same deals (common random numbers:
        :func:`deal_groups`); False plays every variant on its own deals.
    adaptive : bool
        Play the seat tables with adaptive bidders for a game whose reference role is won in an
        auction (:attr:`~kaptai.core.atlas.AtlasFeed.adaptive_bidding`); without them its seat luck
        is left out of the ranking and shown apart.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`ATLAS_COLUMNS`, one row per (game, variant, measure, seat): ``value``
        with its interval ``ci_low``/``ci_high``, ``method`` ``'monte_carlo'`` or ``'exact'``
        (the decisive deal, with ``exact`` as ``'p/q'``; a rotating role's luck after a
        rotation), ``unit``, ``hands`` behind the row, ``relative_to`` the game's reference
        seat, or for the role measures (``role_*``) the role they are measured from, ``level``
        the decisive event's name or the skill pair.
        ``attrs``: standard provenance (``game`` is ``'atlas of ...'``, ``samples`` the hands of
        a default table), plus ``games``, ``variant_descriptions``, ``atlas_policies``
        (default / strong / random per game), ``units``, ``reference_seats``, ``roles`` (name,
        assigned, description per game), ``principal_roles`` (each game's role that varies,
        :func:`kaptai.core.atlas.principal_role`) and ``notes`` (each game's definitions of
        staked money, cut and length).  :func:`ranking` and :func:`verdict` read the table.

    Raises
    ------
    RulesError
        An unknown game, a game without a feed, bad ``hands``, ``seed``, ``variants``.
    """
    hands = check_count("hands", hands, 1)
    if not isinstance(confidence, float) or not 0.0 < confidence < 1.0:
        raise RulesError(f"confidence={quote_token(confidence)}: expected a float strictly between 0 and 1")
    z_value(confidence)
    entropy = check_seed(seed)
    jobs = plan(games, hands, skill=skill, variants=variants, seed=entropy, strong_hands=strong_hands,
                shared=bool(shared), adaptive=bool(adaptive))
    feeds = {j.job.game: feed_of(j.job.game) for j in jobs}
    tasks = _Tasks(jobs, [_chunk_hands(feeds[j.job.game], j.heavy, j.bidding) for j in jobs])
    fingerprint = {
        "kind": "kaptai.atlas", "version": __version__, "seed": entropy, "hands": hands, "skill": bool(skill),
        "variants": variants,
        # the built-in players' version of each game that has one, as the league's checkpoints record
        # it: chunks played by other players are refused, not mixed in
        "players_version": {g: f.players_version for g, f in sorted(feeds.items()) if f.players_version is not None},
        "jobs": [[j.job.game, j.job.variant.name, j.role, j.pair, list(j.seats or ()), j.hands, list(j.job.policies)]
                 + ([[v.name for v in j.group], j.bidding] if j.group is not None else [])
                 for j in jobs],
    }
    counts = run_chunks(_play, tasks, merge=_merge, workers=workers, executor=executor, scheduler=scheduler,
                        checkpoint=checkpoint, fingerprint=fingerprint, progress=progress, desc="atlas",
                        sizes=TaskSizes(*tasks.plans))
    return _table(jobs, feeds, counts, confidence, entropy, hands)


def strong_of(feed: AtlasFeed, variant: AtlasVariant) -> str:
    """The strong policy of a variant's value of skill (the variant's own, else the feed's)."""
    return variant.strong_policy or feed.strong_policy


def _chunk_hands(feed: AtlasFeed, heavy: bool, bidding: str | None = None) -> int:
    if bidding is not None:
        return feed.adaptive_chunk_hands or feed.chunk_hands
    return feed.strong_chunk_hands or feed.chunk_hands if heavy else feed.chunk_hands


def _moments(counts: Mapping[str, np.ndarray], j: _Job) -> dict[str, np.ndarray]:
    pre = f"j{j.index}_"
    out = {k: counts[pre + k] for k in ("n", "z1", "z2")}
    out.update({k[len(pre):]: v for k, v in counts.items() if k.startswith(pre + ROLE_KEY)})
    return out


def _unit(measure: str, feed: AtlasFeed, variant: AtlasVariant | None = None) -> str:
    if measure in _PROB:
        return "probability"
    if measure in ("swing_normalised", "skill_effect_size"):
        return "ratio"
    if measure.endswith("_swing_share") or measure in ("role_luck_share", "role_luck_after_rotation"):
        return "share of swing"
    if measure == "role_luck_variance_share":
        return "share of variance"
    if measure == "house_edge_staked":
        return "share of stakes"
    if measure.endswith("_exchange_share"):
        return "share of money exchanged"
    if measure == "hands_until_skill_shows":
        return "hands"
    if measure == "mean_length":
        return feed.length_unit
    return (variant.unit if variant is not None and variant.unit else None) or feed.unit


_WORDS = {
    "exchanged": "money exchanged", "house_edge": "house take",
    "house_edge_common": "a common 5% rake", "house_edge_staked": "house take per money staked",
    "seat_ev": "expected result of the seat", "seat_advantage": "seat's advantage over the reference seat",
    "seat_spread": "seat spread", "swing": "swing (SD of a seat's result)", "swing_normalised": "swing / mean |result|",
    "seat_spread_swing_share": "seat spread", "seat_spread_exchange_share": "seat spread",
    "value_of_skill": "value of skill", "value_of_skill_swing_share": "value of skill",
    "value_of_skill_exchange_share": "value of skill", "skill_effect_size": "skill effect size",
    "hands_until_skill_shows": "hands until skill shows", "drawn_rate": "drawn hands",
    "natural_rate": "instant wins", "mean_length": "hand length", "decisive_deal": "decisive deal (exact)",
    "role_ev": "expected result", "role_spread": "spread", "role_spread_swing_share": "spread",
    "role_luck_share": "luck of the seat", "role_luck_variance_share": "luck of the seat",
    "role_luck_after_rotation": "luck of the seat left after whole rotations",
}
_UNIT_WORDS = {"probability": "probability", "ratio": "ratio", "share of swing": "share of a hand's SD",
               "share of variance": "share of a hand's variance", "share of stakes": "share of the money staked",
               "share of money exchanged": "share of the money exchanged", "hands": "hands"}


def label_of(row: Any, feed: AtlasFeed | None = None) -> str:
    """What a row of :func:`atlas` (or :func:`ranking`, :func:`pairwise`) is, in words: the measure,
    **which pair** (the skill measures: ``strongest − default (search − greedy)``), **which role**
    (the seat and role measures: the role and what assigns it; the bidders where the role is won
    in an auction) and **which unit**.

    >>> label_of({"game": "kap-tai-shap", "variant": "traditional", "measure": "value_of_skill",
    ...           "level": "strong - default", "unit": "ante", "relative_to": "dealer"})
    'value of skill, strongest − default (search − greedy), ante per hand'
    >>> label_of({"game": "big-two", "variant": "hong_kong", "measure": "role_luck_variance_share",
    ...           "level": None, "unit": "share of variance", "relative_to": "leader"})
    "luck of the seat from the leader (cards), share of a hand's variance"
    """
    get = row.get if isinstance(row, Mapping) else (lambda k, d=None: getattr(row, k, d))
    m = str(get("measure"))
    feed = feed or feed_of(str(get("game")))
    unit = get("unit") or ""
    level = get("level")
    level = None if level is None or (isinstance(level, float) and np.isnan(level)) else str(level)
    text = _WORDS.get(m, m.replace("_", " "))
    if m.startswith("role_") or m.startswith("seat_"):
        name = get("relative_to") if m.startswith("role_") else feed.reference_seat
        role = next((r for r in feed.roles if r.name == name), None)
        how = f" ({role.assigned})" if role is not None else ""
        text += (" from the " if m.startswith("role_") else ", seats counted from the ") \
            + f"{str(name).replace('_', ' ')}{how}"
        bidders = get("bidders")
        if isinstance(bidders, str) and bidders:
            text += f", {bidders} bidders"
    if level is not None and m in ("value_of_skill", "value_of_skill_swing_share", "value_of_skill_exchange_share",
                                   "skill_effect_size", "hands_until_skill_shows"):
        variant = next((v for v in feed.variants if v.name == get("variant")), None)
        pol = {"default": feed.default_policy, "random": feed.random_policy,
               "strong": strong_of(feed, variant) if variant is not None else feed.strong_policy}
        who = {"default - random": ("default − random", "default", "random"),
               "strong - default": ("strongest − default", "strong", "default")}.get(level)
        text += f", {who[0]} ({pol[who[1]]} − {pol[who[2]]})" if who else f", {level}"
    elif level is not None and m != "decisive_deal" and level != ADAPTIVE_LEVEL:
        text += f", {level}"
    if m in ("house_edge", "house_edge_common"):
        text += ", share of the money exchanged"
    elif m == "house_edge_staked":
        text = "house take, share of the money staked (per ante staked in a pot game)"
    elif unit in _UNIT_WORDS:
        text += f", {_UNIT_WORDS[unit]}"
    elif m == "mean_length":
        text += f", {unit}"
    elif unit:
        text += f", {unit} per hand"
    return text


def _table(jobs: list[_Job], feeds: Mapping[str, AtlasFeed], counts: Mapping[str, np.ndarray],
           confidence: float, entropy: int, hands: int) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    variants: dict[tuple[str, str], AtlasVariant] = {}
    default_of: dict[tuple[str, str], tuple[dict[str, np.ndarray], int]] = {}
    seat_of: dict[tuple[str, str], tuple[dict[str, np.ndarray], int, str]] = {}
    pairs_of: dict[tuple[str, str], dict[str, list[_Job]]] = {}
    joints: list[dict[str, Any]] = []              # the joint moments of each deal group's tables
    for j in jobs:
        game = j.job.game
        feed = feeds[game]
        if j.role in ("group", "seat"):
            grp = j.group or (j.job.variant,)
            pre = f"j{j.index}_"
            joint = {k: counts[pre + k] for k in ("n", "z1", "z2")}
            sizes = [block_sizes(v.players, feed.roles) for v in grp]
            n = int(np.asarray(joint["n"]).reshape(-1)[0])
            for k, v in enumerate(grp):
                variants[(game, v.name)] = v
                mom = split_joint(joint, sizes, k)
                if j.role == "group":
                    default_of[(game, v.name)] = (mom, n)
                else:
                    seat_of[(game, v.name)] = (mom, n, j.bidding or "")
            joints.append({"game": game, "group": grp, "joint": joint, "sizes": sizes, "n": n, "role": j.role,
                           "bidding": j.bidding, "same": int(np.asarray(counts.get(pre + "deal_same", [0]))[0]),
                           "seen": int(np.asarray(counts.get(pre + "deal_seen", [0]))[0])})
        elif j.role == "default":
            variants[(game, j.job.variant.name)] = j.job.variant
            mom = _moments(counts, j)
            default_of[(game, j.job.variant.name)] = (mom, int(mom["n"][0]))
        else:
            variants.setdefault((game, j.job.variant.name), j.job.variant)
            pairs_of.setdefault((game, j.job.variant.name), {}).setdefault(j.pair or "", []).append(j)
    descriptions: dict[str, dict[str, str]] = {}
    for (name, vname), v in variants.items():
        feed = feeds[name]
        descriptions.setdefault(name, {})[vname] = v.description
        base = dict(game=name, variant=vname, players=v.players, relative_to=feed.reference_seat)

        def add(measure: str, value: float, lo: float, hi: float, n: int, seat: Any = None, level: Any = None,
                method: str = "monte_carlo", exact: str | None = None, bidders: str | None = None) -> None:
            rows.append({**base, "measure": measure, "seat": seat, "level": level, "value": value,
                         "ci_low": lo, "ci_high": hi, "exact": exact, "unit": _unit(measure, feed, v),
                         "hands": n, "method": method, "bidders": bidders})

        fixed = "expected" if feed.adaptive_bidding else None        # the feed's own (fixed) bidders
        mom, n = default_of[(name, vname)]
        sitting = tuple(feed.sitting_out(v)) if feed.sitting_out is not None else ()
        cut = feed.pot_cut(v) if feed.pot_cut is not None else None
        base_rows = table_measures(mom, confidence, sitting_out=sitting, roles=feed.roles, pot_cut=cut)
        for r in base_rows:
            add(r["measure"], r["value"], r["ci_low"], r["ci_high"], n, seat=r["seat"],
                method=r.get("method", "monte_carlo"), bidders=fixed)
            if "relative_to" in r:
                rows[-1]["relative_to"] = r["relative_to"]
        base_rows = [r for r in base_rows if "relative_to" not in r]
        scale = {r["measure"]: (r["value"], r["ci_low"], r["ci_high"]) for r in base_rows if r["seat"] is None}
        if (name, vname) in seat_of:
            smom, sn, bid = seat_of[(name, vname)]
            for r in table_measures(smom, confidence, sitting_out=sitting, roles=feed.roles, pot_cut=cut):
                if r["measure"] in _SEAT_LUCK:
                    add(r["measure"], r["value"], r["ci_low"], r["ci_high"], sn, seat=r["seat"], level=ADAPTIVE_LEVEL,
                        method=r.get("method", "monte_carlo"), bidders=bid)
                    if "relative_to" in r:
                        rows[-1]["relative_to"] = r["relative_to"]
        for label, pjobs in pairs_of.get((name, vname), {}).items():
            diffs = [counts[f"j{j.index}_diff"] for j in pjobs]
            n_pair = int(sum(x.size for x in diffs))
            for r in pair_measures(diffs, swing=scale["swing"], exchanged=scale["exchanged"], confidence=confidence):
                add(r["measure"], r["value"], r["ci_low"], r["ci_high"], n_pair, level=label,
                    method=r.get("method", "monte_carlo"))
        if feed.decisive is not None:
            got = feed.decisive(v)
            if got is not None:
                label, p = got
                p = Fraction(p)
                add("decisive_deal", float(p), float(p), float(p), 0, level=label, method="exact",
                    exact=f"{p.numerator}/{p.denominator}")
    df = pd.DataFrame(rows, columns=[c for c in ATLAS_COLUMNS if c != "label"])
    df["seat"] = df["seat"].astype("Int64")
    df["hands"] = df["hands"].astype(np.int64)
    df["players"] = df["players"].astype(np.int64)
    df["level"] = df["level"].astype(object).where(df["level"].notna(), None)
    df["exact"] = df["exact"].astype(object).where(df["exact"].notna(), None)
    df["bidders"] = df["bidders"].astype(object).where(df["bidders"].notna(), None)
    df["label"] = [label_of(r, feeds[r["game"]]) for r in df.to_dict("records")]
    df = df[ATLAS_COLUMNS]
    policies = {name: {"default": feeds[name].default_policy,
                       "strong": {vn: strong_of(feeds[name], v) for (gn, vn), v in variants.items() if gn == name},
                       "random": feeds[name].random_policy} for name in feeds}
    groups = {name: [[v.name for v in g["group"]] for g in joints if g["game"] == name and g["role"] == "group"]
              + [[vn] for (gn, vn) in default_of if gn == name
                 and not any(vn in [v.name for v in g["group"]] for g in joints if g["game"] == name
                             and g["role"] == "group")]
              for name in feeds}
    df.attrs.update({
        "game": "atlas of " + ", ".join(feeds), "rules": None, "players": sorted({int(p) for p in df.players}),
        "seed_entropy": entropy, "policies": None, "samples": hands, "version": __version__,
        "games": list(feeds), "confidence": confidence, "atlas_policies": policies,
        "variant_descriptions": descriptions, "notes": {name: f.notes for name, f in feeds.items()},
        "units": {name: f.unit for name, f in feeds.items()},
        "reference_seats": {name: f.reference_seat for name, f in feeds.items()},
        "roles": {name: [{"name": r.name, "assigned": r.assigned, "description": r.description} for r in f.roles]
                  for name, f in feeds.items()},
        "principal_roles": {name: principal_role(f.roles).name for name, f in feeds.items() if f.roles},
        "measures": MEASURES,
        "deal_groups": groups,
        "adaptive_bidding": {name: f.adaptive_bidding for name, f in feeds.items() if f.adaptive_bidding},
    })
    df.attrs["pairwise"] = PairwiseRecords(_pairwise_records(df, feeds, joints, pairs_of, counts, confidence))
    return df


class PairwiseRecords(tuple):
    """The records of :func:`pairwise` as kept in ``df.attrs['pairwise']``: an immutable tuple of
    dicts that pandas does not deep-copy (pandas deep-copies ``attrs`` on every operation of a
    frame; hundreds of records would cost tens of milliseconds a filter).

    >>> r = PairwiseRecords([{"diff": 1.0}])
    >>> import copy
    >>> copy.deepcopy(r) is r, list(r)
    (True, [{'diff': 1.0}])
    """

    __slots__ = ()

    def __deepcopy__(self, memo: Any) -> PairwiseRecords:
        return self

    def __copy__(self) -> PairwiseRecords:
        return self


def _pairwise_records(df: pd.DataFrame, feeds: Mapping[str, AtlasFeed], joints: list[dict[str, Any]],
                      pairs_of: Mapping[tuple[str, str], Mapping[str, list[_Job]]], counts: Mapping[str, np.ndarray],
                      confidence: float) -> list[dict[str, Any]]:
    """The records of :func:`pairwise` (see there)."""
    paired: dict[tuple, dict[str, Any]] = {}
    for g in joints:
        feed = feeds[g["game"]]
        grp = g["group"]
        if len(grp) < 2:
            continue
        shared = g["seen"] == g["n"] and g["same"] == g["n"] and g["n"] > 0
        differ = g["n"] - g["same"] if g["seen"] == g["n"] else g["n"]
        if g["role"] == "seat":
            # the adaptive seat table is played one deal per seed (AtlasFeed.adaptive_bidding): hand i of
            # every variant starts from deal i, so the pairs are independent from hand to hand and paired
            # by deal even where a pass-out under one scoring (and not the other) dealt again
            shared = g["n"] > 0
        sitting = [tuple(feed.sitting_out(v)) if feed.sitting_out is not None else () for v in grp]
        level = ADAPTIVE_LEVEL if g["role"] == "seat" else None
        cuts = [feed.pot_cut(v) if feed.pot_cut is not None else None for v in grp]
        for r in paired_differences(g["joint"], g["sizes"], feed.roles, sitting, confidence, cuts):
            if g["role"] == "seat" and r["measure"] not in _SEAT_LUCK:
                continue
            rel = r["relative_to"] or feed.reference_seat
            key = (g["game"], grp[r["a"]].name, grp[r["b"]].name, r["measure"], level, rel)
            if not shared:
                note = (f"the deal fingerprints differ in {differ} of {g['n']} hands: the interval treats the "
                        "variants as independent")
            elif differ:
                note = (f"paired by deal: every variant starts from the same deal; in {differ} of {g['n']} hands the "
                        "adaptive bidders passed out under one scoring and not the other, and the redeal differs")
            else:
                note = ""
            if r["method"] == "independent":
                # the house's take per stake of a pot game: its interval is not the delta method's, so the
                # difference is taken from the two intervals (kaptai.core.atlas.paired_differences)
                paired[key] = {**r, "shared": False, "n": g["n"],
                               "note": "played on the same deals, but the house's take per stake of a pot game has "
                                       "a Clopper–Pearson interval, not a delta one: the interval of the difference "
                                       "is taken from the two intervals"}
                continue
            paired[key] = {**r, "shared": shared, "n": g["n"], "note": note}
    # value_of_skill of two variants of a deal group: the pair tables of one arrangement have one seed
    for (game, va), pa in pairs_of.items():
        for (game_b, vb), pb in pairs_of.items():
            if game_b != game or va == vb:
                continue
            for level, ja in pa.items():
                jb = pb.get(level)
                if not jb or len(ja) != len(jb):
                    continue
                if any(f"j{j.index}_deal" not in counts for j in ja + jb):
                    continue
                deals_a = [np.asarray(counts[f"j{j.index}_deal"]) for j in ja]
                deals_b = [np.asarray(counts[f"j{j.index}_deal"]) for j in jb]
                if not all(x.size == y.size and bool(np.array_equal(x, y)) for x, y in zip(deals_a, deals_b)):
                    continue
                d = [np.asarray(counts[f"j{x.index}_diff"]) - np.asarray(counts[f"j{y.index}_diff"])
                     for x, y in zip(ja, jb)]
                k = len(d)
                est = float(np.mean([x.mean() for x in d]))
                var = sum(float(x.var(ddof=1)) / x.size if x.size > 1 else math.nan for x in d) / (k * k)
                half = z_value(confidence) * math.sqrt(var) if math.isfinite(var) else math.nan
                paired[(game, va, vb, "value_of_skill", level, feeds[game].reference_seat)] = {
                    "diff": est, "ci_low": est - half, "ci_high": est + half, "method": "paired_hands", "shared": True,
                    "n": int(sum(x.size for x in d)), "note": ""}
    out: list[dict[str, Any]] = []
    scalar = df[df.seat.isna() & (df.measure != "decisive_deal")]
    for game, part in scalar.groupby("game", sort=False):
        feed = feeds[str(game)]
        names = [v.name for v in feed.variants if v.name in set(part.variant)]
        group_of = {v: i for i, g in enumerate(df.attrs.get("deal_groups", {}).get(game, [])) for v in g}
        for ia, va in enumerate(names):
            for vb in names[ia + 1:]:
                A = part[part.variant == va]
                B = part[part.variant == vb]
                keyed = {(r.measure, r.level, r.relative_to): r for r in B.itertuples()}
                for ra in A.itertuples():
                    rb = keyed.get((ra.measure, ra.level, ra.relative_to))
                    if rb is None:
                        continue
                    hit = paired.get((game, va, vb, ra.measure, ra.level, ra.relative_to))
                    if hit is not None and hit["shared"]:
                        diff, lo, hi = hit["diff"], hit["ci_low"], hit["ci_high"]
                        if hit["method"] == "exact" and abs(diff) < 1e-12:
                            diff = lo = hi = 0.0
                        method, shared, n, note = hit["method"], True, hit["n"], hit["note"]
                    else:
                        e = independent_difference((ra.value, ra.ci_low, ra.ci_high), (rb.value, rb.ci_low, rb.ci_high))
                        diff, lo, hi = e
                        if ra.method == rb.method == "exact" and abs(ra.value - rb.value) < 1e-12:
                            diff, lo, hi = 0.0, 0.0, 0.0
                        method, shared, n = "independent", False, int(min(ra.hands, rb.hands))
                        if hit is not None:
                            note = hit["note"]
                        elif group_of.get(va) is None or group_of.get(va) != group_of.get(vb):
                            note = ("not the same deals: the variants deal differently "
                                    f"({_deal_reason(feed, va, vb)})")
                        elif ra.level is not None and ra.level != ADAPTIVE_LEVEL:
                            note = "skill pairs: only the value of skill is paired by deal; this measure is not"
                        else:
                            note = "separate runs"
                        if not all(np.isfinite(x) for x in (ra.value, ra.ci_low, ra.ci_high, rb.value, rb.ci_low,
                                                            rb.ci_high)):
                            extra = ("an infinite estimate or interval end: the interval is that of the two "
                                     "intervals, [low A − high B, high A − low B], apart only where they do not overlap")
                            note = f"{note}; {extra}" if note else extra
                    out.append({"game": game, "variant_a": va, "variant_b": vb, "measure": ra.measure,
                                "level": ra.level, "relative_to": ra.relative_to, "bidders": ra.bidders,
                                "label": ra.label, "unit": ra.unit if ra.unit == rb.unit else f"{ra.unit} / {rb.unit}",
                                "diff": float(diff), "ci_low": float(lo), "ci_high": float(hi), "hands": int(n),
                                "shared_deals": bool(shared), "method": method, "note": note})
    return out


def _deal_reason(feed: AtlasFeed, va: str, vb: str) -> str:
    v = {x.name: x for x in feed.variants}
    a, b = v.get(va), v.get(vb)
    if a is None or b is None:
        return "unknown variant"
    if a.players != b.players:
        return f"{a.players} against {b.players} players"
    if feed.deal_key is None:
        return "the feed declares no shared deal"
    return f"deal {feed.deal_key(a)!r} against {feed.deal_key(b)!r}"


#: The column :func:`mark_infinite` adds: JSON has no infinity (``kaptai atlas --format json`` writes
#: ∞ as null, like a missing value), so this text column names every infinite figure of the row.
INFINITE_COLUMN = "infinite"


def mark_infinite(df: pd.DataFrame, columns: Sequence[str] = ("value", "ci_low", "ci_high")) -> pd.DataFrame:
    """``df`` with a text column :data:`INFINITE_COLUMN` naming each of ``columns`` that is infinite,
    with its sign (``'value=+inf, ci_high=+inf'``; ``''`` where none is): skill that never shows is
    ∞, not missing, in every output format (JSON writes ∞ as null).

    >>> import pandas as pd
    >>> d = mark_infinite(pd.DataFrame({"value": [float("inf"), 2.0], "ci_low": [165.0, 1.0],
    ...                                 "ci_high": [float("inf"), float("nan")]}))
    >>> d.infinite.tolist()
    ['value=+inf, ci_high=+inf', '']
    """
    cols = [c for c in columns if c in df.columns]
    marks = []
    for vals in zip(*(df[c].to_numpy(dtype=float) for c in cols)) if cols else [() for _ in range(len(df))]:
        marks.append(", ".join(f"{c}={'+' if v > 0 else '-'}inf" for c, v in zip(cols, vals) if math.isinf(v)))
    out = df.assign(**{INFINITE_COLUMN: marks})
    out.attrs = dict(df.attrs)
    return out


def pairwise(df: pd.DataFrame) -> pd.DataFrame:
    """The difference of every measure between each two variants of a game, with its interval.

    One row per game, pair of variants (``variant_a`` before ``variant_b`` in the feed's order)
    and measure without a seat (``level``: the skill pair or the adaptive seat table;
    ``relative_to``: the role): ``diff`` = value(A) − value(B).  ``shared_deals`` True: the two
    were played on the same deals (one deal group, every deal fingerprint equal; for the value
    of skill, the pair tables of each arrangement) and the interval is paired, clustered by deal
    (``method`` ``'paired_delta'``: the delta method on the joint moments; ``'paired_hands'``:
    the per-hand differences of the value of skill; ``'exact'``).  False: the interval of the
    difference of two independent estimates (``'independent'``, MOVER,
    :func:`kaptai.core.atlas.independent_difference`), ``note`` says why the deals are not shared.
    ``hands``: the hands behind the difference.

    Parameters
    ----------
    df : pandas.DataFrame
        A table of :func:`atlas` (the records are in ``df.attrs['pairwise']``).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`PAIRWISE_COLUMNS`.

    Examples
    --------
    >>> from kaptai.atlas import atlas, pairwise
    >>> df = atlas(games=["nantong"], hands=600, seed=1, skill=False, progress=False)
    >>> p = pairwise(df)
    >>> row = p[(p.variant_a == "rank_only") & (p.variant_b == "winner_collects") & (p.measure == "mean_length")]
    >>> row[["diff", "ci_low", "ci_high", "shared_deals"]].values.tolist()   # the same deals, the same play
    [[0.0, 0.0, 0.0, True]]
    >>> bool(p[p.variant_b == "four_players"].shared_deals.any())           # 4 players deal differently
    False
    """
    recs = df.attrs.get("pairwise")
    if recs is None:
        raise RulesError("pairwise: the table has no pairwise differences (a table of kaptai.atlas.atlas has them)")
    out = pd.DataFrame(list(recs), columns=PAIRWISE_COLUMNS)
    for c in ("level", "bidders"):
        out[c] = out[c].astype(object).where(out[c].notna(), None)
    return out


# --------------------------------------------------------------------------------------
# The verdict: a ranking with ties, and its reading
# --------------------------------------------------------------------------------------


def _principal(df: pd.DataFrame) -> dict[str, str]:
    """Each game's principal role (:func:`kaptai.core.atlas.principal_role`): from ``attrs``, else
    read from the table (the first role whose luck after a rotation is not exact, else the first)."""
    got = dict(df.attrs.get("principal_roles") or {})
    after = df[df.measure == "role_luck_after_rotation"]
    for game, part in after.groupby("game", sort=False):
        if game not in got:
            chance = part[part.method != "exact"]
            got[str(game)] = str((chance if len(chance) else part).relative_to.iloc[0])
    return got


def _item(r: Any) -> str:
    return f"{r.game}/{r.variant}"


def _auction_games(df: pd.DataFrame, principal: Mapping[str, str]) -> dict[str, tuple[bool, bool]]:
    """Per game: (its principal role is won in an auction, its reference role is)."""
    roles = df.attrs.get("roles") or {}
    out: dict[str, tuple[bool, bool]] = {}
    for game in dict.fromkeys(df.game):
        rs = roles.get(game)
        if rs is None:
            try:
                rs = [{"name": r.name, "assigned": r.assigned} for r in feed_of(str(game)).roles]
            except RulesError:
                rs = []
        by = {r["name"]: r["assigned"] for r in rs}
        ref = rs[0]["name"] if rs else None
        out[str(game)] = (by.get(principal.get(str(game), ""), "") == "auction", by.get(ref or "", "") == "auction")
    return out


def _pair_lookup(df: pd.DataFrame) -> dict[tuple, dict[str, Any]]:
    out: dict[tuple, dict[str, Any]] = {}
    for r in df.attrs.get("pairwise") or []:
        lev = r.get("level")
        lev = None if lev is None or (isinstance(lev, float) and np.isnan(lev)) else lev
        out[(r["game"], r["variant_a"], r["variant_b"], r["measure"], lev, r.get("relative_to"))] = r
    return out


def _difference(ra: Any, rb: Any, pairs: Mapping[tuple, Mapping[str, Any]]) -> tuple[float, float, float, bool]:
    """``(diff, lo, hi, paired)`` of item ``ra`` minus item ``rb`` of a ranking group: the paired
    interval of :func:`pairwise` where the two were played on the same deals, else the independent
    (MOVER) interval of :func:`kaptai.core.atlas.independent_difference`."""
    if ra.game == rb.game:
        lev = None if ra.level is None or (isinstance(ra.level, float) and np.isnan(ra.level)) else ra.level
        for a, b, sign in ((ra, rb, 1.0), (rb, ra, -1.0)):
            hit = pairs.get((ra.game, a.variant, b.variant, ra.measure, lev, ra.relative_to))
            if hit is not None and hit.get("shared_deals"):
                d, lo, hi = float(hit["diff"]), float(hit["ci_low"]), float(hit["ci_high"])
                return (d, lo, hi, True) if sign > 0 else (-d, -hi, -lo, True)
    e = independent_difference((ra.value, ra.ci_low, ra.ci_high), (rb.value, rb.ci_low, rb.ci_high))
    if ra.method == rb.method == "exact" and abs(ra.value - rb.value) < 1e-12:
        return 0.0, 0.0, 0.0, False
    return e[0], e[1], e[2], False


def ranking(df: pd.DataFrame) -> pd.DataFrame:
    """Every game and variant ranked by each unit-free measure, from the interval of each pairwise difference.

    For each measure of :data:`RANKED` (and each ``level``: the skill pair; the seat-luck
    measures of each game's principal role, the role that varies:
    :func:`kaptai.core.atlas.principal_role`, in one group), item ``i`` is *clearly better*
    than ``j`` when the interval of the difference ``i - j`` lies wholly on the better side of
    0: the paired interval of :func:`pairwise` for two variants played on the same deals, the
    interval of two independent estimates otherwise (two games, two deal groups:
    :func:`kaptai.core.atlas.independent_difference`).  Where a value is infinite (skill that
    never shows) two items are told apart only by intervals that do not overlap.  The rank is
    1 + the number of items clearly better, so every item that no other is clearly better than
    ranks 1.  The seat luck of a role won in an auction comes from the seat table with adaptive
    bidders (``level`` ``'search bidders'``) where the atlas played it; without it that game's
    seat luck is left out (``rank`` NaN) and shown apart (``note``).

    Parameters
    ----------
    df : pandas.DataFrame
        A table of :func:`atlas`.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RANKING_COLUMNS`: ``better`` ``'lower'`` or ``'higher'``; ``rank`` (NaN
        without an interval, or shown apart); ``tied_with`` the items (``game/variant``) whose
        difference with this one has an interval containing 0, comma-separated; ``label``,
        ``unit`` (from the table); ``basis`` how the item was compared with the other variants
        of its game (``'paired differences'``, ``'independent differences'`` or ``'mixed'``);
        ``variance_share`` (the seat-luck share squared: the share of a hand's variance);
        ``note``; ``infinite`` (:func:`mark_infinite`: which of value, ci_low, ci_high is
        infinite, as JSON writes ∞ as null).  Sorted by measure, level and rank; ``attrs`` those
        of ``df``.

    Examples
    --------
    >>> from kaptai.atlas import atlas, ranking
    >>> df = atlas(games=["nine-ten"], hands=2_000, seed=1, skill=False, progress=False)
    >>> r = ranking(df)
    >>> after = r[r.measure == "role_luck_after_rotation"]
    >>> sorted(set(after.level)), after["rank"].tolist(), set(after.value)    # the dealer rotates: 0, tied
    (['dealer'], [1.0, 1.0, 1.0, 1.0], {0.0})
    >>> sorted(set(r[r.variant == "six_players"].basis))      # 6 players deal differently: not paired
    ['independent differences']
    """
    principal = _principal(df)
    auction = _auction_games(df, principal)
    chance = {str(g): {r["name"]: r["assigned"] != "rotation" for r in rs}
              for g, rs in (df.attrs.get("roles") or {}).items()}
    pairs = _pair_lookup(df)
    has_bidders = "bidders" in df.columns
    out: list[dict[str, Any]] = []
    for measure, lower in RANKED.items():
        sub = df[(df.measure == measure) & df.seat.isna()]
        seat_luck = measure.startswith("role_") or measure.startswith("seat_spread")
        notes: dict[Any, str] = {}
        apart: set[Any] = set()
        if seat_luck:
            if measure.startswith("role_"):
                sub = sub[sub.relative_to == sub.game.map(principal)]
            keep = []
            for game, part in sub.groupby("game", sort=False):
                is_auction = auction.get(str(game), (False, False))[0 if measure.startswith("role_") else 1]
                adaptive = part[part.level == ADAPTIVE_LEVEL]
                fixed = part[part.level.isna() | (part.level != ADAPTIVE_LEVEL)]
                if is_auction and len(adaptive):
                    bid = adaptive.bidders.iloc[0] if has_bidders else "adaptive"
                    for i in adaptive.index:
                        notes[i] = (f"the {str(adaptive.relative_to.iloc[0]).replace('_', ' ')} is won in an auction: "
                                    f"measured with {bid} bidders, which adapt to the scoring in force "
                                    f"({int(adaptive.hands.iloc[0]):,} hands a variant)")
                    keep += list(adaptive.index)
                else:
                    keep += list(fixed.index)
                    if is_auction:
                        bid = fixed.bidders.iloc[0] if has_bidders and len(fixed) else None
                        for i in fixed.index:
                            apart.add(i)
                            notes[i] = ("shown apart, not ranked: the role is won in an auction and these bidders "
                                        f"({bid or 'the fixed table'}) bid the same whatever the scoring")
            sub = sub.loc[keep]
            groups = pd.Series("", index=sub.index)
            names = sub.relative_to if measure.startswith("role_") else pd.Series(None, index=sub.index, dtype=object)
        else:                                    # one group per skill pair
            groups = names = sub.level.astype(object).where(sub.level.notna(), "")
        for lev in dict.fromkeys(groups):
            part = sub[groups == lev]
            items = list(part.itertuples())
            k = len(items)
            ok = [np.isfinite(r.value) or np.isinf(r.value) for r in items]
            ok = [ok[i] and not (np.isnan(items[i].ci_low) or np.isnan(items[i].ci_high) or np.isnan(items[i].value))
                  and items[i].Index not in apart for i in range(k)]
            better = np.zeros((k, k), dtype=bool)            # better[i, j]: i clearly better than j
            tied = np.zeros((k, k), dtype=bool)
            paired = np.zeros((k, k), dtype=bool)
            same_game = np.zeros((k, k), dtype=bool)
            for i in range(k):
                for j in range(k):
                    if i == j or not (ok[i] and ok[j]):
                        continue
                    ri, rj = items[i], items[j]
                    same_game[i, j] = ri.game == rj.game
                    if not (np.isfinite(ri.value) and np.isfinite(rj.value)):
                        # an infinite value: apart only when the intervals do not overlap
                        lo_d, hi_d = ri.ci_low - rj.ci_high, ri.ci_high - rj.ci_low
                    else:
                        _, lo_d, hi_d, paired[i, j] = _difference(ri, rj, pairs)
                    if np.isnan(lo_d) or np.isnan(hi_d):
                        continue
                    better[i, j] = hi_d < 0 if lower else lo_d > 0
                    tied[i, j] = not (hi_d < 0 or lo_d > 0)
            labels = [_item(r) for r in items]
            for i, r in enumerate(items):
                rank = float(1 + better[:, i].sum()) if ok[i] else math.nan
                mates = same_game[i]
                basis = ("" if not mates.any() else "paired differences" if paired[i][mates].all()
                         else "independent differences" if not paired[i][mates].any() else "mixed")
                note = notes.get(r.Index, "")
                vshare = None
                if measure == "role_luck_share":
                    vshare = float(r.value) ** 2
                    extra = f"{_fixed(100 * vshare, 2)}% of a hand's variance"
                    if chance.get(str(r.game), {}).get(str(r.relative_to)):
                        extra += ("; chance gives the role to every player alike, so it is equal for every player "
                                  "in expectation")
                    note = f"{note}; {extra}" if note else extra
                elif measure == "role_luck_variance_share":
                    vshare = float(r.value)
                out.append({"game": r.game, "variant": r.variant, "measure": measure,
                            "level": names[r.Index] if names[r.Index] else None,
                            "value": float(r.value), "ci_low": float(r.ci_low), "ci_high": float(r.ci_high),
                            "better": "lower" if lower else "higher", "rank": rank,
                            "tied_with": ", ".join(labels[j] for j in range(k) if tied[i, j]),
                            "label": getattr(r, "label", None), "unit": r.unit, "basis": basis,
                            "variance_share": vshare, "note": note})
    res = pd.DataFrame(out, columns=[c for c in RANKING_COLUMNS if c != INFINITE_COLUMN])
    res = mark_infinite(res)[RANKING_COLUMNS]
    if len(res):
        order = {m: i for i, m in enumerate(RANKED)}
        key = res.value.where(res.better == "lower", -res.value)
        group = res.level.where(~res.measure.str.startswith("role_"), "").fillna("")
        res = (res.assign(_m=res.measure.map(order), _g=group, _k=key, _r=res["rank"].fillna(np.inf))
               .sort_values(["_m", "_g", "_r", "_k"], kind="stable")
               .drop(columns=["_m", "_g", "_k", "_r"]).reset_index(drop=True))
    res["level"] = res["level"].astype(object).where(res["level"].notna(), None)
    res.attrs.update(df.attrs)
    return res


def _fmt(v: float, measure: str) -> str:
    if not np.isfinite(v):
        return "∞" if v > 0 else "n/a"
    if measure in ("house_edge", "natural_rate", "house_edge_staked"):
        return f"{100 * v:.2g}%" if v != 0 and abs(v) < 1e-4 else f"{100 * v:.2f}%"
    if measure == "hands_until_skill_shows":
        return f"{v:,.0f}"
    return sig3(v)


def _est(r: Any, unit: str = "") -> str:
    m = r.measure
    if r.ci_low == r.value == r.ci_high:
        return _fmt(r.value, m) + unit
    return f"{_fmt(r.value, m)}{unit} [{_fmt(r.ci_low, m)}, {_fmt(r.ci_high, m)}]"


def _names(part: pd.DataFrame, values: bool = True, unit: str = "") -> str:
    items = [f"{_item(r)} ({_est(r, unit)})" if values else _item(r) for r in part.itertuples()]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _top(part: pd.DataFrame, unit: str = "") -> str:
    """The best item with its figure, and those that share its rank 1."""
    best = part[part["rank"] == 1]
    first = best.iloc[:1]
    text = _names(first, unit=unit)
    rest = best.iloc[1:]
    if len(rest):
        text += (f" ({len(rest)} more rank first with it, no paired or independent difference telling them "
                 f"apart: {_names(rest, values=False)})")
    return text


def verdict(table: pd.DataFrame) -> str:
    """A one-paragraph reading of :func:`ranking` (or of an atlas table, ranked first).

    Which game and variant carries the least luck of the seat per hand and after a full
    rotation, where skill is worth most and shows soonest, and the house edge; every name
    and number is read from the ranking (items tied at the top are named together).

    Examples
    --------
    >>> from kaptai.atlas import atlas, verdict
    >>> df = atlas(games=["nine-ten"], hands=2_000, seed=1, skill=False, progress=False)
    >>> "cancels it exactly" in verdict(df)
    True
    """
    r = table if "rank" in table.columns else ranking(table)
    if r.empty:
        return ""
    out: list[str] = []

    def part(measure: str, level: str | None = None) -> pd.DataFrame:
        sub = r[r.measure == measure]
        if level is not None:
            sub = sub[sub.level == level]
        return sub[sub["rank"].notna()]

    luck = part("role_luck_share")
    if len(luck):
        worst = luck.loc[[luck.value.idxmax()]]
        roles = ", ".join(f"{g}: the {role.replace('_', ' ')}" for g, role in
                          dict(zip(luck.game, luck.level)).items())
        text = (f"Per hand, the luck of the seat — the SD of a player's expected result over the offsets from "
                f"the role that varies ({roles}), in SDs of one hand — is least in {_top(luck)}")
        if worst.index[0] != luck.index[0]:
            text += f"; most in {_names(worst)}"
        w = float(worst.value.iloc[0])
        text += (f" (an SD of {w:.3g} of a hand's is {_fixed(100 * w * w, 2)}% of its variance: the luck of the seat is "
                 "read with its share of the variance, not beside far larger effects)")
        adaptive = luck[luck.note.astype(str).str.contains("adapt")] if "note" in luck.columns else luck.iloc[:0]
        if len(adaptive):
            text += (f"; {', '.join(dict.fromkeys(adaptive.game))}'s role is won in an auction, so it is measured "
                     "with bidders that adapt to the scoring in force")
        out.append(text + ".")
    if "note" in r.columns:
        apart = r[(r.measure == "role_luck_share") & r.note.astype(str).str.startswith("shown apart")]
        if len(apart):
            out.append(f"Shown apart, not ranked: the luck of the seat in {_names(apart)}, whose role is won in an "
                       "auction by bidders that do not adapt to the scoring.")
    after = part("role_luck_after_rotation")
    if len(after):
        zero = after[(after.value == 0) & (after.ci_high == 0)]
        left = after.drop(zero.index).sort_values("value", ascending=False)
        bits: list[str] = []
        if len(zero):
            bits.append(f"a full rotation of the deal cancels it exactly in {_names(zero, values=False)}, "
                        "where the role rotates")
        if len(left):
            bits.append(f"where chance assigns the role it stays, in the same share of the result's SD over any "
                        f"number of rotations: most in {_names(left.iloc[:1])}, least in {_names(left.iloc[-1:])}"
                        if len(left) > 1 else f"where chance assigns the role it stays: {_names(left)}")
        joined = "; ".join(bits)
        out.append(joined[:1].upper() + joined[1:] + ".")
    for level, who in (("default - random", "default − random: the default policy over a random player"),
                       ("strong - default", "strongest − default: the strongest policy over the default")):
        worth, soon = part("value_of_skill_swing_share", level), part("hands_until_skill_shows", level)
        if not len(worth):
            continue
        text = f"Skill ({who}) is worth most, in SDs of one hand, in {_top(worth)}"
        if len(soon):
            text += f"; it shows soonest (95% sure to be ahead at one table) in {_top(soon, ' hands')}"
        unclear = worth[~(worth.ci_low > 0)]
        if len(unclear):
            text += f"; not measurably ahead in {_names(unclear, values=False)}"
        out.append(text + ".")
    edge = part("house_edge")
    if len(edge):
        free = edge[(edge.value == 0) & (edge.ci_high == 0)]
        top = edge.loc[[edge.value.idxmax()]]
        house: list[str] = []
        taking = edge.drop(free.index)
        if len(free) and len(taking) and len(free) > len(taking):
            house.append(f"a house takes a share only in {_names(taking, values=False)}")
        elif len(free):
            house.append(f"no house takes anything in {_names(free, values=False)}")
        if top.value.iloc[0] > 0:
            house.append(f"the house keeps most of the money that changes hands in {_names(top)}")
            staked = part("house_edge_staked")
            hit = staked[(staked.game == top.game.iloc[0]) & (staked.variant == top.variant.iloc[0])]
            if len(hit):
                house.append(f"there that is {_est(next(hit.itertuples()))} of the money staked (per ante "
                             "staked in a pot game)")
        if house:
            joined = "; ".join(house)
            out.append(joined[:1].upper() + joined[1:] + ".")
    return " ".join(out)


# --------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------


def _label(row) -> str:
    role = f" ({row['relative_to']})" if str(row["measure"]).startswith("role_") else ""
    return f"{row['game']} · {row['variant']}{role}"


def plot_measure(df: pd.DataFrame, measure: str, ax=None, seat: int | None = None):
    """One measure for every game and variant side by side, with its intervals.

    Seat measures (``seat_ev``, ``seat_advantage``) show one point per seat; the skill measures
    one colour per pair (``level``), with a legend.  A measure in the games' own stake units is
    drawn one panel per unit (antes, points and 胡數 never share an axis).  An infinite interval
    end (skill that never shows) is drawn as an arrow to the edge of the axis.  Returns the
    matplotlib Axes (the first panel's when there are several and ``ax`` is None).

    Examples
    --------
    >>> import pandas as pd
    >>> from kaptai.atlas import ATLAS_COLUMNS, plot_measure
    >>> rows = [dict(game="g", variant=v, players=4, measure="hands_until_skill_shows", seat=None,
    ...              relative_to="dealer", level=lev, value=x, ci_low=x / 2, ci_high=float("inf"), exact=None,
    ...              unit="hands", hands=100, method="monte_carlo", label=None, bidders=None)
    ...         for v, lev, x in (("a", "default - random", 12.0), ("a", "strong - default", 300.0))]
    >>> ax = plot_measure(pd.DataFrame(rows, columns=ATLAS_COLUMNS), "hands_until_skill_shows")
    >>> sorted(t.get_text() for t in ax.get_legend().get_texts())
    ['default - random', 'strong - default']
    """
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import with_cjk_font

    sub = df[df.measure == measure]
    if seat is not None:
        sub = sub[sub.seat == seat]
    if sub.empty:
        raise RulesError(f"measure {quote_token(measure)} is not in the table: it has {', '.join(sorted(set(df.measure)))}")
    units = list(dict.fromkeys(str(u) for u in sub.unit))

    def series(part: pd.DataFrame) -> list[tuple[str | None, pd.DataFrame]]:
        if part.seat.notna().any():
            return [(f"seat {int(s)}", part[part.seat == s]) for s in sorted({int(x) for x in part.seat.dropna()})]
        levels = [x for x in dict.fromkeys(part.level) if x is not None and not (isinstance(x, float) and np.isnan(x))]
        if levels and measure != "decisive_deal":
            out: list[tuple[str | None, pd.DataFrame]] = [(str(lv), part[part.level == lv]) for lv in levels]
            rest = part[part.level.isna()]
            return ([("", rest)] if len(rest) else []) + out
        return [(None, part)]

    @with_cjk_font
    def draw(ax):
        if ax is None:
            heights = [0.42 * len(dict.fromkeys(_label(r) for _, r in sub[sub.unit == u].iterrows())) + 1.6
                       for u in units]
            fig, axes = plt.subplots(len(units), 1, figsize=(7.5, sum(heights)), squeeze=False,
                                     gridspec_kw={"height_ratios": heights})
            axes = list(axes[:, 0])
        else:
            axes = [ax] * len(units)
        for panel, unit in zip(axes, units):
            part = sub[sub.unit == unit]
            labels = list(dict.fromkeys(_label(r) for _, r in part.iterrows()))
            ypos = {lab: i for i, lab in enumerate(labels)}
            groups = series(part)
            log = measure == "hands_until_skill_shows"
            finite = part[["value", "ci_low", "ci_high"]].to_numpy(float)
            finite = finite[np.isfinite(finite)]
            edge_hi = float(finite.max()) if finite.size else 1.0
            edge_lo = float(finite.min()) if finite.size else 0.0
            reach_hi = edge_hi * 4 if log else edge_hi + 0.15 * max(edge_hi - edge_lo, 1e-9)
            reach_lo = edge_lo / 4 if log else edge_lo - 0.15 * max(edge_hi - edge_lo, 1e-9)
            for k, (name, g) in enumerate(groups):
                g = g[np.isfinite(g.value.to_numpy(float))]      # an infinite value has no point to draw
                off = 0.0 if len(groups) == 1 else (k - (len(groups) - 1) / 2) * 0.8 / max(len(groups), 1)
                y = np.array([ypos[_label(r)] + off for _, r in g.iterrows()])
                v = g.value.to_numpy(float)
                lo_v, hi_v = g.ci_low.to_numpy(float), g.ci_high.to_numpy(float)
                lo = np.where(np.isfinite(lo_v), v - lo_v, np.where(np.isinf(lo_v), v - reach_lo, 0.0))
                hi = np.where(np.isfinite(hi_v), hi_v - v, np.where(np.isinf(hi_v), reach_hi - v, 0.0))
                bars = panel.errorbar(v, y, xerr=[np.maximum(lo, 0), np.maximum(hi, 0)], fmt="o", ms=4, capsize=3,
                                      label=name or None)
                colour = bars.lines[0].get_color()
                for yy, end in zip(y, hi_v):
                    if np.isinf(end) and end > 0:
                        panel.annotate("", xy=(reach_hi, yy), xytext=(reach_hi * (0.8 if log else 1) - (
                            0 if log else 0.04 * (edge_hi - edge_lo)), yy),
                            arrowprops={"arrowstyle": "->", "color": colour, "lw": 1.0})
            panel.set_yticks(range(len(labels)))
            panel.set_yticklabels(labels)
            panel.invert_yaxis()
            if measure in ("seat_advantage", "seat_ev", "role_ev", "value_of_skill") or (part.value < 0).any():
                panel.axvline(0.0, color="grey", lw=0.8)
            if len(units) > 1:
                panel.set_title(f"in {unit}", fontsize=8, loc="left")
            panel.set_xlabel(f"{measure} ({unit})")
            if log:
                panel.set_xscale("log")
            if any(name for name, _ in groups):
                panel.legend(fontsize=7, loc="best")
            panel.grid(axis="x", alpha=0.3)
        import textwrap

        fig = axes[0].figure
        if ax is None:
            fig.suptitle(textwrap.fill(MEASURES.get(measure, measure), 90), fontsize=9)
            fig.tight_layout()
        else:
            ax.set_title(textwrap.fill(MEASURES.get(measure, measure), 90), fontsize=9)
        return fig

    fig = draw(ax)
    return fig.axes[0] if ax is None else ax


def plot_map(df: pd.DataFrame, ax=None):
    """The map of the games: skill effect size per hand (x) against the house edge (y).

    Both axes are unit-free, so every game and variant sits on one chart; error bars are
    the 95% intervals.  Returns the Axes."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import with_cjk_font

    x = df[(df.measure == "skill_effect_size") & (df.level == "default - random")].set_index(["game", "variant"])
    y = df[df.measure == "house_edge"].set_index(["game", "variant"])
    keys = [k for k in x.index if k in y.index]
    if not keys:
        raise RulesError("the map needs the value of skill: run the atlas with skill=True")

    @with_cjk_font
    def draw(ax):
        if ax is None:
            _, ax = plt.subplots(figsize=(7.5, 5.2))
        games = list(dict.fromkeys(k[0] for k in keys))
        colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        # labels of points at (nearly) the same height are staggered so that they stay legible
        order = sorted(keys, key=lambda k: (round(float(y.loc[k].value), 3), float(x.loc[k].value)))
        level: dict[float, int] = {}
        for k in order:
            xv, yv = x.loc[k], y.loc[k]
            c = colours[games.index(k[0]) % len(colours)]
            ax.errorbar(xv.value, yv.value,
                        xerr=[[xv.value - xv.ci_low], [xv.ci_high - xv.value]],
                        yerr=[[max(yv.value - yv.ci_low, 0)], [max(yv.ci_high - yv.value, 0)]],
                        fmt="o", color=c, capsize=3, ms=5,
                        label=k[0] if k == next(q for q in order if q[0] == k[0]) else None)
            row = level.setdefault(round(float(yv.value), 3), 0)
            level[round(float(yv.value), 3)] = row + 1
            ax.annotate(k[1], (xv.value, yv.value), textcoords="offset points",
                        xytext=(4, 6 + 9 * (row % 8)), fontsize=6.5, color=c,
                        arrowprops={"arrowstyle": "-", "color": c, "lw": 0.4} if row % 8 else None)
        ax.legend(fontsize=7, loc="upper left")
        ax.margins(y=0.25)
        ax.axvline(0.0, color="grey", lw=0.8)
        ax.set_xlabel("default policy over random at one table, per hand / SD of the difference (effect size)")
        ax.set_ylabel("house edge (share of the money that changes hands)")
        ax.set_title("The map of the games: skill against house edge", fontsize=10)
        ax.grid(alpha=0.3)
        return ax.figure

    return draw(ax).axes[0] if ax is None else (draw(ax), ax)[1]


_NO_FIGURE = ("seat_ev", "role_ev", "decisive_deal", "house_edge_common", "role_spread")


def atlas_figures(df: pd.DataFrame) -> dict[str, Any]:
    """Every figure of the atlas: ``{name: matplotlib Figure}`` (the map first).

    One per measure but the per-seat and per-offset EVs, the exact decisive deal, the common
    rake (5% in every game by construction) and the role spread in the games' own units (its
    unit-free share has a figure)."""
    import matplotlib.pyplot as plt

    figs: dict[str, Any] = {}
    with plt.rc_context({"figure.max_open_warning": 0}):     # every figure is returned open, by design
        if (df.measure == "skill_effect_size").any():
            figs["map"] = plot_map(df).figure
        for m in MEASURES:
            if m in _NO_FIGURE or not (df.measure == m).any():
                continue
            figs[m] = plot_measure(df, m).figure
    return figs
