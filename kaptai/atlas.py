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
the deal is already decisive).  Nothing here knows a game: the feeds do.  :func:`ranking`
ranks every game and variant by each unit-free measure, with ties where the intervals
overlap, and :func:`verdict` reads that ranking in one paragraph.

Every table is one job of the shared runner (:mod:`kaptai.core.runner`): the whole atlas
is one run, so ``workers``, ``scheduler`` (Dask) and ``checkpoint`` work as in every Monte
Carlo command and an interrupted atlas resumes from its finished chunks.  Each job has its
own seed, derived from ``(seed, game, variant, table, seat)``, so a row does not change
when games are added or removed.

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
from kaptai.core.atlas import (PAIRS, ROLE_KEY, AtlasFeed, AtlasJob, AtlasVariant, pair_measures, principal_role,
                               table_measures)
from kaptai.core.options import check_count, check_seed
from kaptai.core.runner import TaskSizes, plan_chunks, run_chunks
from kaptai.core.stats import rank_with_ties, z_value
from kaptai.errors import RulesError, quote_token
from kaptai.games import GAMES, game as game_spec, load_entry

__all__ = ["ATLAS_COLUMNS", "MEASURES", "RANKED", "RANKING_COLUMNS", "atlas", "atlas_games", "feed_of", "plan",
           "strong_of", "ranking", "verdict", "plot_measure", "plot_map", "atlas_figures"]

#: Columns of :func:`atlas`.
ATLAS_COLUMNS: list[str] = [
    "game", "variant", "players", "measure", "seat", "relative_to", "level", "value", "ci_low", "ci_high",
    "exact", "unit", "hands", "method",
]

#: Every measure and what it is (one definition for every game: :mod:`kaptai.core.atlas`).
MEASURES: dict[str, str] = {
    "exchanged": "money that changes hands per hand: what the losers pay the winners, before any cut",
    "house_edge": "house's take per hand / money that changes hands, under the variant's own cut",
    "house_edge_common": "a common 5% rake on winnings / money that changes hands: 5% by construction",
    "seat_ev": "expected result per hand of each seat, in the game's stake unit",
    "seat_advantage": "EV of the seat minus EV of the reference seat (simultaneous intervals)",
    "seat_spread": "max - min of the seat EVs (simultaneous interval)",
    "swing": "SD of one seat's result per hand (stake unit)",
    "swing_normalised": "swing / mean absolute result of a seat per hand",
    "seat_spread_swing_share": "seat_spread / swing: the luck of the seat in SDs of one hand (unit-free)",
    "seat_spread_exchange_share": "seat_spread / money that changes hands per hand (unit-free)",
    "value_of_skill": "EV(strongest built-in policy) - EV(random), each against the default field",
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
    "role_luck_after_rotation": "SD of a player's expected total over a rotation of P hands (over the role's "
                                "chance) / SD of the total: 0 exactly for a role that rotates",
}

#: The measures of :func:`ranking` (unit-free, one figure per game and variant, or per skill pair)
#: and whether lower is better.
RANKED: dict[str, bool] = {
    "role_luck_share": True,
    "role_luck_after_rotation": True,
    "role_spread_swing_share": True,
    "seat_spread_swing_share": True,
    "seat_spread_exchange_share": True,
    "house_edge": True,
    "natural_rate": True,
    "value_of_skill_swing_share": False,
    "value_of_skill_exchange_share": False,
    "skill_effect_size": False,
    "hands_until_skill_shows": True,
}
#: Columns of :func:`ranking`.
RANKING_COLUMNS: list[str] = ["game", "variant", "measure", "level", "value", "ci_low", "ci_high", "better",
                              "rank", "tied_with"]
_PROB = {"house_edge", "house_edge_common", "drawn_rate", "natural_rate", "decisive_deal"}


def atlas_games() -> tuple[str, ...]:
    """Ids of the registered games that have an atlas feed (registry order)."""
    return tuple(name for name, g in GAMES.items() if g.atlas)


def feed_of(name: str) -> AtlasFeed:
    """The :class:`~kaptai.core.atlas.AtlasFeed` of a game id or alias."""
    spec = game_spec(name)
    if not spec.atlas:
        raise RulesError(f"{spec.name} has no atlas feed: the atlas covers {', '.join(atlas_games())}")
    feed = load_entry(spec.atlas)
    if not isinstance(feed, AtlasFeed):  # pragma: no cover - a registry mistake
        raise TypeError(f"{spec.atlas} is not an AtlasFeed")
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
        return (job.index, job.feed, job.job, self.plans[j][i - int(self.starts[j])], job.seats)

    def __iter__(self):
        return (self[i] for i in range(len(self)))


def _play(task) -> dict[str, np.ndarray]:
    """One chunk of one job (module level: pickled to worker processes).

    A default table gives its moments; a pair table (``seats`` = (a, b)) gives each hand's
    ``net_a - net_b`` as ``j<index>_diff`` (the per-hand distribution behind "hands until
    skill shows")."""
    index, entry, job, chunk, seats = task
    feed = load_entry(entry)
    if seats is not None:
        if feed.rows is None:  # pragma: no cover - a feed mistake (test_atlas checks every feed)
            raise RulesError(f"{job.game}'s atlas feed has no per-hand rows: it cannot seat a skill pair")
        net = np.asarray(feed.rows(job, chunk)["net"], dtype=np.float64)
        return {f"j{index}_diff": net[:, seats[0]] - net[:, seats[1]]}
    out = feed.play(job, chunk)
    return {f"j{index}_{k}": np.asarray(v) for k, v in out.items()}


def _merge(total: dict[str, np.ndarray], part: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    out = dict(total)
    for k, v in part.items():
        if k not in out:
            out[k] = np.array(v, copy=True)
        elif k.endswith("_diff"):           # per-hand values: kept in chunk order
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


def plan(games: Any = None, hands: int = 100_000, *, skill: bool = True, variants: str = "main",
         seed: int = 0, strong_hands: int | None = None) -> list[_Job]:
    """The jobs of an atlas run, in run order (what :func:`atlas` would play)."""
    entropy = check_seed(seed)
    cap = None if strong_hands is None else check_count("strong_hands", strong_hands, 1)
    jobs: list[_Job] = []
    for name in _games(games):
        spec = game_spec(name)
        feed = feed_of(name)
        for v in _variants(feed, variants):
            P = v.players
            default = tuple([feed.default_policy] * P)

            def add(role: str, policies: tuple[str, ...], seat: int | None, n: int) -> None:
                jobs.append(_Job(len(jobs), spec.atlas or "", AtlasJob(name, v, policies), role, seat, n,
                                 _job_entropy(entropy, name, v.name, role, seat)))

            add("default", default, None, hands)
            if skill:
                sitting = set(feed.sitting_out(v)) if feed.sitting_out is not None else set()
                active = [s for s in range(P) if s not in sitting]
                arrangements = [(a, b) for a in active for b in active if a != b]
                roles = {"default": feed.default_policy, "strong": strong_of(feed, v), "random": feed.random_policy}
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
                        jobs.append(_Job(len(jobs), spec.atlas or "", AtlasJob(name, v, tuple(pol)), "pair", None, per,
                                         _job_entropy(entropy, name, v.name, f"pair {label}", f"{a},{b}"),
                                         pair=label, seats=(a, b), heavy=heavy))
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
        A cap on the hands of every pair with the strong policy (``strong - default``), on top
        of each feed's own cap (the search players play 10-100 hands a second).

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
    jobs = plan(games, hands, skill=skill, variants=variants, seed=entropy, strong_hands=strong_hands)
    feeds = {j.job.game: feed_of(j.job.game) for j in jobs}
    tasks = _Tasks(jobs, [_chunk_hands(feeds[j.job.game], j.heavy) for j in jobs])
    fingerprint = {
        "kind": "kaptai.atlas", "version": __version__, "seed": entropy, "hands": hands, "skill": bool(skill),
        "variants": variants,
        "jobs": [[j.job.game, j.job.variant.name, j.role, j.pair, list(j.seats or ()), j.hands, list(j.job.policies)]
                 for j in jobs],
    }
    counts = run_chunks(_play, tasks, merge=_merge, workers=workers, executor=executor, scheduler=scheduler,
                        checkpoint=checkpoint, fingerprint=fingerprint, progress=progress, desc="atlas",
                        sizes=TaskSizes(*tasks.plans))
    return _table(jobs, feeds, counts, confidence, entropy, hands)


def strong_of(feed: AtlasFeed, variant: AtlasVariant) -> str:
    """The strong policy of a variant's value of skill (the variant's own, else the feed's)."""
    return variant.strong_policy or feed.strong_policy


def _chunk_hands(feed: AtlasFeed, heavy: bool) -> int:
    return feed.strong_chunk_hands or feed.chunk_hands if heavy else feed.chunk_hands


def _moments(counts: Mapping[str, np.ndarray], j: _Job) -> dict[str, np.ndarray]:
    pre = f"j{j.index}_"
    out = {k: counts[pre + k] for k in ("n", "z1", "z2")}
    out.update({k[len(pre):]: v for k, v in counts.items() if k.startswith(pre + ROLE_KEY)})
    return out


def _unit(measure: str, feed: AtlasFeed) -> str:
    if measure in _PROB:
        return "probability"
    if measure in ("swing_normalised", "skill_effect_size"):
        return "ratio"
    if measure.endswith("_swing_share") or measure in ("role_luck_share", "role_luck_after_rotation"):
        return "share of swing"
    if measure.endswith("_exchange_share"):
        return "share of money exchanged"
    if measure == "hands_until_skill_shows":
        return "hands"
    if measure == "mean_length":
        return feed.length_unit
    return feed.unit


def _table(jobs: list[_Job], feeds: Mapping[str, AtlasFeed], counts: Mapping[str, np.ndarray],
           confidence: float, entropy: int, hands: int) -> pd.DataFrame:
    rows: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    for j in jobs:
        g = groups.setdefault((j.job.game, j.job.variant.name), {"variant": j.job.variant, "default": None,
                                                                "pairs": {}})
        if j.role == "default":
            g["default"] = j
        else:
            g["pairs"].setdefault(j.pair, []).append(j)
    descriptions: dict[str, dict[str, str]] = {}
    for (name, vname), g in groups.items():
        feed = feeds[name]
        v: AtlasVariant = g["variant"]
        descriptions.setdefault(name, {})[vname] = v.description
        base = dict(game=name, variant=vname, players=v.players, relative_to=feed.reference_seat)

        def add(measure: str, value: float, lo: float, hi: float, n: int, seat: Any = None, level: Any = None,
                method: str = "monte_carlo", exact: str | None = None) -> None:
            rows.append({**base, "measure": measure, "seat": seat, "level": level, "value": value,
                         "ci_low": lo, "ci_high": hi, "exact": exact, "unit": _unit(measure, feed),
                         "hands": n, "method": method})

        d = g["default"]
        mom = _moments(counts, d)
        n = int(mom["n"][0])
        sitting = tuple(feed.sitting_out(v)) if feed.sitting_out is not None else ()
        base_rows = table_measures(mom, confidence, sitting_out=sitting, roles=feed.roles)
        for r in base_rows:
            add(r["measure"], r["value"], r["ci_low"], r["ci_high"], n, seat=r["seat"],
                method=r.get("method", "monte_carlo"))
            if "relative_to" in r:
                rows[-1]["relative_to"] = r["relative_to"]
        base_rows = [r for r in base_rows if "relative_to" not in r]
        scale = {r["measure"]: (r["value"], r["ci_low"], r["ci_high"]) for r in base_rows if r["seat"] is None}
        for label, pjobs in g["pairs"].items():
            diffs = [counts[f"j{j.index}_diff"] for j in pjobs]
            n_pair = int(sum(x.size for x in diffs))
            for r in pair_measures(diffs, swing=scale["swing"], exchanged=scale["exchanged"], confidence=confidence):
                add(r["measure"], r["value"], r["ci_low"], r["ci_high"], n_pair, level=label)
        if feed.decisive is not None:
            got = feed.decisive(v)
            if got is not None:
                label, p = got
                p = Fraction(p)
                add("decisive_deal", float(p), float(p), float(p), 0, level=label, method="exact",
                    exact=f"{p.numerator}/{p.denominator}")
    df = pd.DataFrame(rows, columns=ATLAS_COLUMNS)
    df["seat"] = df["seat"].astype("Int64")
    df["hands"] = df["hands"].astype(np.int64)
    df["players"] = df["players"].astype(np.int64)
    df["level"] = df["level"].astype(object).where(df["level"].notna(), None)
    df["exact"] = df["exact"].astype(object).where(df["exact"].notna(), None)
    policies = {name: {"default": feeds[name].default_policy,
                       "strong": {vn: strong_of(feeds[name], g["variant"]) for (gn, vn), g in groups.items()
                                  if gn == name},
                       "random": feeds[name].random_policy} for name in feeds}
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
    })
    return df


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


def ranking(df: pd.DataFrame) -> pd.DataFrame:
    """Every game and variant ranked by each unit-free measure, with ties where intervals overlap.

    For each measure of :data:`RANKED` (and each ``level``: the skill pair, or for the role
    measures the game's principal role, the role that varies:
    :func:`kaptai.core.atlas.principal_role`), the items are ranked by
    :func:`kaptai.core.stats.rank_with_ties`: the rank is 1 + the number of items *clearly*
    better (intervals apart), so items whose intervals overlap the best all rank 1.

    Parameters
    ----------
    df : pandas.DataFrame
        A table of :func:`atlas`.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`RANKING_COLUMNS`: ``better`` ``'lower'`` or ``'higher'``; ``rank`` (NaN
        without an interval); ``tied_with`` the items (``game/variant``) whose intervals overlap
        this one's, comma-separated.  Sorted by measure, level and rank; ``attrs`` those of
        ``df``.

    Examples
    --------
    >>> from kaptai.atlas import atlas, ranking
    >>> df = atlas(games=["nine-ten"], hands=2_000, seed=1, skill=False, progress=False)
    >>> r = ranking(df)
    >>> after = r[r.measure == "role_luck_after_rotation"]
    >>> sorted(set(after.level)), after["rank"].tolist(), set(after.value)    # the dealer rotates: 0, tied
    (['dealer'], [1.0, 1.0, 1.0, 1.0], {0.0})
    """
    principal = _principal(df)
    out: list[dict[str, Any]] = []
    for measure, lower in RANKED.items():
        sub = df[(df.measure == measure) & df.seat.isna()]
        if measure.startswith("role_"):          # one group: each game's role that varies, its name the level
            sub = sub[sub.relative_to == sub.game.map(principal)]
            groups = pd.Series("", index=sub.index)
            names = sub.relative_to
        else:                                    # one group per skill pair
            groups = names = sub.level.astype(object).where(sub.level.notna(), "")
        for lev in dict.fromkeys(groups):
            part = sub[groups == lev]
            v, lo, hi = (part[c].to_numpy(np.float64) for c in ("value", "ci_low", "ci_high"))
            ranks = rank_with_ties(v, lo, hi, lower_is_better=lower)
            labels = [_item(r) for r in part.itertuples()]
            for i, r in enumerate(part.itertuples()):
                tied = [labels[j] for j in range(len(labels)) if j != i and not np.isnan(ranks[i])
                        and not np.isnan(ranks[j]) and not (hi[i] < lo[j] or hi[j] < lo[i])]
                out.append({"game": r.game, "variant": r.variant, "measure": measure, "level": names[r.Index] or None,
                            "value": float(v[i]), "ci_low": float(lo[i]), "ci_high": float(hi[i]),
                            "better": "lower" if lower else "higher", "rank": float(ranks[i]),
                            "tied_with": ", ".join(tied)})
    res = pd.DataFrame(out, columns=RANKING_COLUMNS)
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
    if measure in ("house_edge", "natural_rate"):
        return f"{100 * v:.2g}%" if v != 0 and abs(v) < 1e-4 else f"{100 * v:.2f}%"
    if measure == "hands_until_skill_shows":
        return f"{v:,.0f}"
    return f"{v:.3g}"


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
        text += (f" ({len(rest)} more rank first with it, no interval lying wholly on the better side of theirs: "
                 f"{_names(rest, values=False)})")
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
        out.append(text + ".")
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
    for level, who in (("default - random", "the default policy over a random player"),
                       ("strong - default", "the strongest policy over the default")):
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

    Seat measures (``seat_ev``, ``seat_advantage``) show one point per seat.  Returns the
    matplotlib Axes."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import with_cjk_font

    sub = df[df.measure == measure]
    if seat is not None:
        sub = sub[sub.seat == seat]
    if sub.empty:
        raise RulesError(f"measure {quote_token(measure)} is not in the table: it has {', '.join(sorted(set(df.measure)))}")
    labels = list(dict.fromkeys(_label(r) for _, r in sub.iterrows()))

    @with_cjk_font
    def draw(ax):
        if ax is None:
            _, ax = plt.subplots(figsize=(7.5, 0.42 * len(labels) + 1.4))
        ypos = {lab: i for i, lab in enumerate(labels)}
        seats = sorted({int(s) for s in sub.seat.dropna()}) if sub.seat.notna().any() else [None]
        for k, s in enumerate(seats):
            part = sub if s is None else sub[sub.seat == s]
            part = part[np.isfinite(part.value.to_numpy(float))]     # an infinite value has no point to draw
            off = 0.0 if len(seats) == 1 else (k - (len(seats) - 1) / 2) * 0.8 / max(len(seats), 1)
            y = [ypos[_label(r)] + off for _, r in part.iterrows()]
            v = part.value.to_numpy(float)
            lo = np.where(np.isfinite(part.ci_low), v - part.ci_low, 0.0)
            hi = np.where(np.isfinite(part.ci_high), part.ci_high - v, 0.0)
            ax.errorbar(v, y, xerr=[lo, hi], fmt="o", ms=4, capsize=3,
                        label=None if s is None else f"seat {s}")
        ax.set_yticks(range(len(labels)))
        ax.set_yticklabels(labels)
        ax.invert_yaxis()
        if measure in ("seat_advantage", "seat_ev", "role_ev", "value_of_skill") or (sub.value < 0).any():
            ax.axvline(0.0, color="grey", lw=0.8)
        unit = sub.unit.iloc[0] if sub.unit.nunique() == 1 else "each game's stake unit"
        ax.set_xlabel(f"{measure} ({unit})")
        ax.set_title(MEASURES.get(measure, measure), fontsize=9)
        if measure == "hands_until_skill_shows":
            ax.set_xscale("log")
        if len(seats) > 1:
            ax.legend(fontsize=7, loc="best")
        ax.grid(axis="x", alpha=0.3)
        return ax.figure

    return draw(ax).axes[0] if ax is None else (draw(ax), ax)[1]


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
