"""Duplicate policy league and cross-play of any game: how much is playing well worth, per hand?

One league for every game (Kap Tai Shap included): a game gives its atlas feed
(:class:`kaptai.core.atlas.AtlasFeed`) with :attr:`~kaptai.core.atlas.AtlasFeed.deal_rows`, which
plays a chunk of *deals* once under each of several seat arrangements; the shared runner
(:func:`kaptai.core.runner.run_jobs`) runs the chunks (workers, Dask, checkpoint, progress).
Nothing here knows a game or the registry: the caller passes the game in (a
:class:`LeagueGame`, or a registry spec and its feed: :meth:`LeagueGame.of`).

Duplicate deals
---------------
*The field.*  Each policy ``X`` sits at one seat of a table whose other seats all play the
game's default policy (:attr:`AtlasFeed.default_policy`, the *baseline*).

*Arrangements.*  A deal is played once per *arrangement*: ``X`` at physical seat ``s`` and
the baseline elsewhere, for ``s = 0 .. P-1`` and every policy ``X``, and once with the
baseline at every seat.  The game's engine deals the same cards (hands, wall, dice, first
dealer) in every arrangement of a deal -- from a per-deal seed drawn before any policy acts,
or from decks drawn once per chunk (``decks=``): each feed says how -- while the policies'
own random draws (``random``, sampled layouts of ``search``) do not change the deal.  Over
the ``P`` arrangements of a deal ``X`` holds every seat once, so its mean is the seat average
(the dealer, leader or declarer included) on the same cards as every other policy.

*Per-deal values and intervals.*  For deal ``i`` ``y_X(i)`` is ``X``'s net result averaged over
its ``P`` arrangements (for the baseline: the seat average of the all-baseline table).
``ev_per_hand`` is the mean of ``y_X`` over the deals; its interval is the normal interval of
that mean with the deals as clusters (``var(y_X) / n``).  Every difference between two
policies is the mean of the per-deal differences ``y_X(i) - y_Y(i)`` with its own paired
interval (``var(y_X - y_Y) / n``): exactly the difference of the two means, with a far
smaller variance when the deal decides much of the result.  ``win`` is the same with the
seat's win share; its interval is clipped to what a per-deal value can be (at most 1 for a
rotated policy, ``max_winners / P`` for the seat average of the all-baseline table, so the
baseline's ``win_share`` of a game with one winner a hand never reads above 1).

*Hands and caps.*  ``hands`` per policy and player count gives ``ceil(hands / P)`` deals;
each policy plays every deal ``P`` times, so the ``hands`` column is ``P x deals``.  A feed's
slow policy (:attr:`AtlasFeed.strong_policy` with :attr:`AtlasFeed.strong_hands`, Kap Tai
Shap's advisor) plays only the first ``ceil(cap / P)`` deals; its differences are paired
over those deals.

*Seeds.*  The deals are seeded from ``(seed, game, rules, players)`` -- not from the
policies -- with :class:`numpy.random.SeedSequence`, so adding a policy adds arrangements on
the same deals and the same seed gives the same table whatever runs it (``workers``,
``scheduler``, a resumed checkpoint).

Cross-play (:func:`cross_play`)
-------------------------------
Every policy ``X`` against a field of every other policy ``F``: ``X`` at one seat (rotated
over the ``P`` seats), ``F`` elsewhere; at four-seat tables also two against two (``X`` at
seats ``s`` and ``s + 2``, partners in a partnership game, ``s = 0, 1``).  Per deal ``X``'s
result is its mean net over its seats and arrangements, the field's the mean over the
``F`` seats; ``diff_vs_field`` is their per-deal difference with its paired interval.

Metrics (:data:`LEAGUE_METRICS`; per hand, one seat's view, in the game's unit)
--------------------------------------------------------------------------------
``ev_per_hand``, ``win``, ``win_share`` (``players x win``; 1 is the fair share where a hand
has one winner), ``value_of_play`` (minus ``random``, paired), ``vs_best_other`` (minus the
other policy with the highest EV on the deals it played, among those that played them all --
a policy capped to the first deals is no comparison for one that played every deal --
paired).  The pairwise table (:func:`league_differences`)
has every pair with ``variance_ratio``: the variance of the difference were every table
dealt its own deals (the old design: each policy and seat its own deals), over its variance
under duplicate deals -- how many times fewer hands duplicate deals need for the same
interval width.

Examples
--------
>>> from kaptai.core.league import LeagueGame, policy_league
>>> from kaptai.nineten.atlas import FEED
>>> from kaptai.nineten.rules import resolve_rules
>>> g = LeagueGame("nine-ten", FEED, (2, 4), 4, ("colour_cut", "random"), resolve_rules)
>>> df = policy_league(g, hands=400, seed=1, policies=("random", "colour_cut"), progress=False)
>>> sorted(set(df.metric))
['ev_per_hand', 'value_of_play', 'vs_best_other', 'win', 'win_share']
>>> base = df[(df.policy == "colour_cut") & (df.metric == "ev_per_hand")].iloc[0]
>>> bool(base.value == base.ci_low == base.ci_high == 0.0)    # zero-sum: the field against itself
True
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import zlib
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.atlas import AtlasFeed, AtlasVariant
from kaptai.core.options import as_tuple as _as_tuple
from kaptai.core.options import check_count, check_seed
from kaptai.core.runner import Chunk, Job, LazyTasks, plan_chunks, run_jobs
from kaptai.core.stats import z_value
from kaptai.errors import RulesError, UsageError, first_repeat, quote_token

__all__ = ["CONFIDENCE", "CROSS_COLUMNS", "DIFF_COLUMNS", "LEAGUE_COLUMNS", "LEAGUE_METRICS", "LeagueGame",
           "cross_play", "league_command", "league_differences", "name_unit", "plot_cross", "policies_option",
           "policy_league"]

#: Columns of :func:`policy_league`: the game, the table, the metric, its value and interval, the unit.
LEAGUE_COLUMNS: list[str] = [
    "game", "rules", "players", "policy", "opponents", "metric",
    "value", "ci_low", "ci_high", "hands", "method", "unit",
]
#: Metrics of :func:`policy_league` and what they are (per hand, one seat's view).
LEAGUE_METRICS: dict[str, str] = {
    "win": "P(the policy's seat wins the hand, as the game defines a win), averaged over the seats",
    "win_share": "players x win: 1 is the fair share 1/players where a hand has one winner",
    "ev_per_hand": "expected net result per hand in the game's unit, averaged over the seats",
    "value_of_play": "ev_per_hand(policy) - ev_per_hand('random') on the same deals, paired interval",
    "vs_best_other": "ev_per_hand(policy) - the highest ev_per_hand of the other policies that played every deal "
                     "the policy played (any other, if none did), on those deals, paired",
}
#: Columns of :func:`league_differences` (every pair of policies, paired over the deals).
DIFF_COLUMNS: list[str] = ["game", "rules", "players", "policy", "other", "value", "ci_low", "ci_high", "hands",
                           "variance_ratio", "unit"]
#: Columns of :func:`cross_play`.
CROSS_COLUMNS: list[str] = ["game", "rules", "players", "policy", "field", "seats", "ev_per_hand", "ev_ci_low",
                            "ev_ci_high", "diff_vs_field", "diff_ci_low", "diff_ci_high", "vs_replaced",
                            "replaced_ci_low", "replaced_ci_high", "hands", "unit"]
CONFIDENCE = 0.95
#: What the cross-play table's differences are (the command's legend).
CROSS_LEGEND = ("diff_vs_field: the policy's net per hand minus a field seat's in the same games (paired interval); "
                "vs_replaced: the policy's net per hand minus the field policy's own at the same seats of the same "
                "deals when the field plays alone -- the policy in its place, everything else the same (paired "
                "interval)")


@dataclass(frozen=True)
class LeagueGame:
    """What a league needs of a game (the registry's spec gives it: :meth:`of`).

    Attributes
    ----------
    name : str
        The game's id (the ``game`` column).
    feed : AtlasFeed
        Its atlas feed, with :attr:`~kaptai.core.atlas.AtlasFeed.deal_rows`.
    players : (int, int)
        The player counts it allows.
    default_players : int
    policies : tuple of str
        The built-in policies a league may play (and plays by default).
    resolve_rules : callable
        ``resolve_rules(rules) -> RuleSet`` (a preset name, a RuleSet or None).
    """

    name: str
    feed: AtlasFeed
    players: tuple[int, int]
    default_players: int
    policies: tuple[str, ...]
    resolve_rules: Callable[..., Any]

    @classmethod
    def of(cls, spec: Any, feed: AtlasFeed | None = None) -> LeagueGame:
        """From a registry :class:`~kaptai.spec.GameSpec` (its feed loaded from ``spec.atlas``)."""
        if feed is None:
            from kaptai.spec import load_entry

            if not getattr(spec, "atlas", None):
                raise RulesError(f"{spec.name} has no atlas feed, so no league")
            feed = load_entry(spec.atlas)
        if not isinstance(feed, AtlasFeed) or feed.deal_rows is None:
            raise RulesError(f"{spec.name}: its atlas feed replays no deals, so no league")
        return cls(spec.name, feed, tuple(spec.players), spec.default_players, tuple(spec.policies),
                   spec.resolve_rules)


def _game_of(game: Any) -> LeagueGame:
    if isinstance(game, LeagueGame):
        return game
    if isinstance(game, str):
        raise RulesError(f"game={game!r}: kaptai.core.league takes the game itself (a LeagueGame or a registry "
                         "spec); by name: kaptai.league.policy_league")
    return LeagueGame.of(game)


# --------------------------------------------------------------------------------------
# One chunk of deals under every arrangement (module level: pickled to worker processes)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Make:
    """Builds the task of one chunk of deals: the feed's deal function, the table, the arrangements."""

    deal_rows: Callable[..., Any]
    variant: AtlasVariant
    arrangements: tuple[tuple[str, ...], ...]

    def __call__(self, chunk):
        return (self.deal_rows, self.variant, self.arrangements, chunk)


def _deal_chunk(task) -> dict[str, np.ndarray]:
    """``y``: ``(deals, arrangements, 2 P)``, each arrangement's ``[net_0..net_{P-1}, win_0..win_{P-1}]``
    per deal (physical seats)."""
    deal_rows, variant, arrangements, chunk = task
    outs = deal_rows(variant, arrangements, chunk)
    y = np.stack([np.concatenate([np.asarray(o["net"], dtype=np.float64), np.asarray(o["win"], dtype=np.float64)],
                                 axis=1) for o in outs], axis=1)
    if y.shape[0] != int(chunk.size):  # pragma: no cover - a feed's contract
        raise AssertionError(f"deal_rows gave {y.shape[0]} deals for a chunk of {chunk.size}")
    return {"y": y}


def _concat(total: Mapping[str, np.ndarray], part: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Merge of the chunks of deals: the deals one after the other (run order is chunk order)."""
    return {"y": np.concatenate([np.asarray(total["y"]), np.asarray(part["y"])], axis=0)}


def _label(game: LeagueGame, rules: Any) -> str:
    """The preset name plus every option that differs from it (the player count aside)."""
    try:
        base = game.resolve_rules(rules.name).to_dict()
    except (RulesError, TypeError, ValueError):
        return str(rules.name)
    d = rules.to_dict()
    changed = [f"{k}={d[k]}" for k in d if k not in ("name", "players") and d[k] != base.get(k)]
    return str(rules.name) + (" + " + ", ".join(changed) if changed else "")


#: How the league seeds and lays out its deals (in its checkpoint manifest): 2 since deal ``i``'s seed
#: is a function of the seed, the table and ``i`` alone (before, of the chunk and the part of the
#: table a capped policy cut, so the deals changed with the policies played); a checkpoint of the
#: older layout is refused, not merged.
DEAL_LAYOUT = 2


def _table_seed(entropy: int, game: str, rules: Mapping[str, Any], players: int) -> np.random.SeedSequence:
    """The seed of one table's deals (not of its policies, nor of run order): deal ``i`` is its
    child ``(0, i)`` (:func:`deal_seeds`)."""
    key = zlib.crc32(json.dumps({"game": game, "rules": rules}, sort_keys=True, default=str).encode())
    return np.random.SeedSequence([entropy & (2**128 - 1), key], spawn_key=(players, 0xDEA1))


def deal_grid(feed: AtlasFeed, players: int) -> int:
    """Deals per chunk of a table's deal grid: a multiple of ``players`` fixed by the feed and the
    player count alone (never by the policies played, their caps or the workers).  Chunk ``k`` of
    the grid holds deals ``k G .. (k + 1) G - 1``; the feeds whose engine reads one stream per
    chunk (Big Two's redeal decks and policy draws) read it per grid chunk, so deal ``i`` and
    every arrangement's play of it are the same whatever else the league plays.  Sized so that
    one arrangement of the slowest policy (the feed's strong one) makes a chunk of about its
    chunk size; the faster arrangements share a chunk's deals, as many a task as fit theirs.

    >>> from kaptai.nineten.atlas import FEED
    >>> deal_grid(FEED, 4), deal_grid(FEED, 3)
    (500, 498)
    """
    fast = int(feed.chunk_hands)
    slow = int(feed.strong_chunk_hands or fast)
    return players * max(1, min(fast, slow) // players)


@dataclass(frozen=True)
class DealChunk(Chunk):
    """A piece of a league table's deals: deals ``start .. start + size - 1`` of the table, in
    chunk ``index`` of its :func:`deal_grid`.  ``deals`` is the table's seed (deal ``i`` is its
    child ``(0, i)``); ``span`` is the piece's nominal length (what :func:`chunk_decks` draws, so
    a piece cut short by a cap reads the same decks as the whole piece); ``seed`` is the piece's
    own stream (child ``(3, start)`` of ``deals``)."""

    deals: np.random.SeedSequence
    span: int


class _Pieces(Sequence):
    """The pieces of deals ``0 .. cap - 1`` of a table: each grid chunk of ``grid`` deals cut in
    pieces of ``piece`` deals (built when read: flat memory for any run)."""

    def __init__(self, deals: np.random.SeedSequence, grid: int, piece: int, cap: int):
        self.deals, self.grid, self.piece, self.cap = deals, int(grid), int(piece), int(cap)
        self.per = -(-self.grid // self.piece)
        full, rest = divmod(self.cap, self.grid)
        self.n = full * self.per + -(-rest // self.piece)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.n))]
        i = int(index) + (self.n if int(index) < 0 else 0)
        if not 0 <= i < self.n:
            raise IndexError(f"piece {index} of {self.n}")
        k, j = divmod(i, self.per)
        lo = k * self.grid + j * self.piece
        end = min(lo + self.piece, (k + 1) * self.grid)
        return DealChunk(k, lo, min(end, self.cap) - lo, child_seed(self.deals, 3, lo), self.deals, end - lo)

    def __iter__(self):
        return (self[i] for i in range(self.n))


class _PieceSizes(Sequence):
    """The hands of each task: a piece's deals times the arrangements played on it."""

    def __init__(self, pieces: _Pieces, arrangements: int):
        self.pieces, self.arrangements = pieces, int(arrangements)

    def __len__(self) -> int:
        return len(self.pieces)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return int(self.pieces[index].size) * self.arrangements

    def __iter__(self):
        return (self[i] for i in range(len(self)))


@dataclass
class _Plan:
    """The arrangements of one table and what caps them."""

    P: int
    variant: AtlasVariant
    arrangements: list[tuple[str, ...]]
    deals: int
    caps: dict[str, int]  # policy -> the deals it plays (the first ones)
    chunk_hands: dict[str, int]


def _refuse_old_layout(checkpoint: Any, kind: str) -> None:
    """A checkpoint a league of the older deal layout wrote is refused, saying so (not merged,
    not reported as a list of differing parameters)."""
    if checkpoint is None:
        return
    from kaptai.core.runner import CheckpointError, read_manifest

    manifest = read_manifest(checkpoint)
    if manifest is None:
        return
    fp = manifest["fingerprint"]
    if fp.get("kind") == kind and fp.get("deal_layout") != DEAL_LAYOUT:
        raise CheckpointError(
            f"checkpoint {os.fspath(checkpoint)} was written by an older kaptai league, whose deals were seeded "
            f"per chunk (deal layout {fp.get('deal_layout', 1)}; this kaptai seeds deal i from the seed, the table "
            f"and i alone, layout {DEAL_LAYOUT}): its chunks cannot be resumed. Use another directory (or rerun "
            "the old version to finish it).")


def _play(game: LeagueGame, plans: Sequence[_Plan], entropy: int, rules_dict: Mapping[str, Any], *, kind: str,
          hands: int, workers: int, executor, scheduler, checkpoint, progress, desc: str) -> list[np.ndarray]:
    """Play every table's deals under its arrangements; per table the ``(deals, A, 2P)`` array (NaN
    where a capped policy's arrangement was not played).

    Deal ``i`` of a table is seeded from ``(seed, game, rules, players, i)`` alone
    (:func:`deal_seeds` of a :class:`DealChunk`), and laid out on the table's fixed
    :func:`deal_grid`: an arrangement plays the first ``cap`` deals of that one sequence (every
    deal when not capped), in pieces of the grid (smaller for an arrangement whose slowest
    policy asks for smaller chunks), with as many arrangements a task as fit the chunk sizes.
    So the deals, and each arrangement's play of them, do not depend on the other policies, the
    caps, the workers or a resumed checkpoint."""
    feed = game.feed
    assert feed.deal_rows is not None  # LeagueGame.of refuses a feed without it
    _refuse_old_layout(checkpoint, kind)
    jobs, where = [], []
    for t, pl in enumerate(plans):
        G = deal_grid(feed, pl.P)
        deals_ss = _table_seed(entropy, game.name, rules_dict, pl.P)
        groups: dict[tuple[int, int], list[int]] = {}
        speed: list[int] = []
        for a, arr in enumerate(pl.arrangements):
            cap = min([pl.caps.get(p, pl.deals) for p in arr] + [pl.deals])
            c = max(1, min(pl.chunk_hands.get(p, feed.chunk_hands) for p in arr))  # hands a chunk, slowest policy
            speed.append(c)
            piece = G if c >= G else max(pl.P, c // pl.P * pl.P)
            groups.setdefault((piece, cap), []).append(a)
        for (piece, cap), members in groups.items():
            batches: list[list[int]] = []
            load = math.inf
            for a in members:  # as many arrangements a task as fit one chunk's hands
                cost = piece / speed[a]
                if batches and load + cost <= 1.0:
                    batches[-1].append(a)
                    load += cost
                else:
                    batches.append([a])
                    load = cost
            pieces = _Pieces(deals_ss, G, piece, cap)
            for idx in batches:
                arrs = tuple(pl.arrangements[a] for a in idx)
                fp = {"kind": kind, "game": game.name, "players": pl.P, "deals": cap, "grid": G, "piece": piece,
                      "arrangements": [list(a) for a in arrs]}
                if feed.players_version is not None:  # a deal_rows that changed what it plays
                    fp["deal_rows_version"] = feed.players_version
                jobs.append(Job(_deal_chunk, LazyTasks(_Make(feed.deal_rows, pl.variant, arrs), pieces),
                                merge=_concat, fingerprint=fp, sizes=_PieceSizes(pieces, len(arrs))))
                where.append((t, cap, idx))
    fingerprint = {"kind": kind, "version": __version__, "game": game.name, "rules": rules_dict, "seed": entropy,
                   "hands": hands, "deal_layout": DEAL_LAYOUT}
    results = run_jobs(jobs, workers=workers, executor=executor, scheduler=scheduler, checkpoint=checkpoint,
                       fingerprint=fingerprint, progress=progress, desc=desc)
    out = [np.full((pl.deals, len(pl.arrangements), 2 * pl.P), np.nan) for pl in plans]
    for (t, cap, idx), res in zip(where, results):
        if cap > 0:
            out[t][:cap, idx, :] = np.asarray(res["y"])
    return out


# --------------------------------------------------------------------------------------
# Per-deal statistics
# --------------------------------------------------------------------------------------


def _mean_var(v: np.ndarray) -> tuple[float, float, int]:
    """Mean of the finite per-deal values, the variance of that mean (deals as clusters), n."""
    v = v[np.isfinite(v)]
    n = v.size
    if n == 0:
        return math.nan, math.nan, 0
    m = float(v.mean())
    if n < 2:
        return m, math.nan, n
    d = v - m
    return m, float(d @ d) / (n - 1) / n, n


def _interval(v: float, var: float, z: float, lo: float = -math.inf, hi: float = math.inf) -> tuple[float, float]:
    """The normal interval ``v -+ z sqrt(var)`` clipped to ``[lo, hi]`` and always holding ``v``
    (a value one rounding step past its clip -- the seat average of a mean of thirds -- widens its
    interval to itself, never the other way round); NaN ends where there is no variance."""
    half = z * math.sqrt(var) if math.isfinite(var) else math.nan
    if not math.isfinite(half) or not math.isfinite(v):
        return math.nan, math.nan
    return min(max(v - half, lo), v), max(min(v + half, hi), v)


def _paired(x: np.ndarray, y: np.ndarray) -> tuple[float, float, int]:
    """The mean per-deal difference over the deals both played, the variance of that mean, n."""
    both = np.isfinite(x) & np.isfinite(y)
    return _mean_var(x[both] - y[both])


def _mean_on(y: np.ndarray, x: np.ndarray) -> float:
    """The mean of ``y`` over the deals both ``x`` and ``y`` played (-inf if none)."""
    both = np.isfinite(x) & np.isfinite(y)
    return float(y[both].mean()) if both.any() else -math.inf


@dataclass
class _Series:
    """One policy's per-deal values at one table (its seats' columns too, for the independent variance)."""

    ev: np.ndarray        # (deals,)
    win: np.ndarray       # (deals,)
    seats: np.ndarray     # (deals, P): the net at each seat's arrangement
    win_hi: float         # the largest a per-deal win value can be
    field: bool = False   # the all-baseline table (its seats share each deal)

    def independent_var(self, mask: np.ndarray) -> float:
        """Var of the mean under independent deals at the same number of hands: each seat's table
        its own ``n`` deals, ``sum_s var(net_s) / (P^2 n)``; the all-baseline table, ``P n`` hands of
        its seat average, ``var(mean_s net_s) / (P n)`` (the design before duplicate deals)."""
        s = self.seats[mask]
        n, P = s.shape
        if n < 2:
            return math.nan
        if self.field:
            return float(s.mean(axis=1).var(ddof=1)) / (P * n)
        return float(s.var(axis=0, ddof=1).sum()) / P**2 / n


def _series_rotated(Y: np.ndarray, arr_index: Mapping[tuple[str, ...], int], pol: str, base: str, P: int) -> _Series:
    cols = [arr_index[tuple(pol if j == s else base for j in range(P))] for s in range(P)]
    seats = np.stack([Y[:, cols[s], s] for s in range(P)], axis=1)
    win = np.stack([Y[:, cols[s], P + s] for s in range(P)], axis=1)
    return _Series(seats.mean(axis=1), win.mean(axis=1), seats, 1.0)


def _series_field(Y: np.ndarray, a: int, P: int, max_winners: int) -> _Series:
    seats = Y[:, a, :P]
    return _Series(seats.mean(axis=1), Y[:, a, P:].mean(axis=1), seats, min(1.0, max_winners / P), True)


# --------------------------------------------------------------------------------------
# The league
# --------------------------------------------------------------------------------------


def _setup(game: Any, players, rules, hands, workers, seed, policies, baseline):
    g = _game_of(game)
    feed = g.feed
    if players is None:
        players = g.default_players
    given = _as_tuple(players, (int, np.integer))
    if any(isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)) for p in given):
        raise RulesError(f"players={str(players)[:40]!r}: expected a whole player count or a sequence of them")
    counts = tuple(int(p) for p in given)
    twice = first_repeat(counts)
    if twice is not None:
        raise RulesError(f"players: {twice} is given twice: give each player count once")
    if not counts:
        raise RulesError("players is empty: give at least one player count")
    lo, hi = g.players
    for p in counts:
        if not lo <= p <= hi:
            raise RulesError(f"players={p} is not supported: expected an integer from {lo} to {hi}")
    r = g.resolve_rules(rules)
    hands = check_count("hands", hands, 1)
    workers = check_count("workers", workers, 1)
    entropy = check_seed(seed)
    known = tuple(g.policies)

    def name_of(p: object, what: str) -> str:
        if isinstance(p, str) and p.strip() in known:
            return p.strip()
        raise RulesError(f"unknown {what} {str(p)[:40]!r}: expected one of {', '.join(map(repr, known))}")

    base = name_of(baseline if baseline is not None else feed.default_policy, "baseline policy")
    pols: list[str] = []
    for p in _as_tuple(policies if policies is not None else known, (str,)):
        name = name_of(p, "policy")
        if name in pols:
            raise RulesError(f"policies: {name!r} is given twice: give each policy once")
        pols.append(name)
    if not pols:
        raise RulesError("policies is empty: give at least one built-in policy")
    return g, counts, r, hands, workers, entropy, base, pols


def _caps(feed: AtlasFeed, P: int, deals: int, extra: Mapping[str, int] | None) -> tuple[dict[str, int], dict[str, int]]:
    caps: dict[str, int] = {}
    chunks: dict[str, int] = {}
    if feed.strong_hands:
        caps[feed.strong_policy] = min(deals, -(-feed.strong_hands // P))
    if feed.strong_chunk_hands:
        chunks[feed.strong_policy] = feed.strong_chunk_hands
    for name, n in (extra or {}).items():
        caps[name] = min(deals, -(-int(n) // P))
    return caps, chunks


def policy_league(
    game: Any,
    players: int | Sequence[int] | None = None,
    rules: Any = None,
    hands: int = 20_000,
    seed: int | None = 0,
    policies: str | Sequence[str] | None = None,
    workers: int = 1,
    progress: bool | str = True,
    *,
    baseline: str | None = None,
    executor: Executor | None = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    caps: Mapping[str, int] | None = None,
    chunk_hands: Mapping[str, int] | None = None,
) -> pd.DataFrame:
    """Duplicate league of a game's built-in policies: win rate and EV per hand, paired differences.

    For every player count, each policy plays every deal once at each seat against a field
    of ``baseline`` (the module docstring gives the design and the intervals).

    Parameters
    ----------
    game : LeagueGame or registry spec
        The game (by name: :func:`kaptai.league.policy_league`).
    players : int or sequence of int, optional
        Player counts (default the game's default).
    rules : RuleSet, str or None
        The ruleset (anything the game's ``resolve_rules`` takes; default its default preset).
    hands : int
        Hands per policy and player count, at least 1: ``ceil(hands / P)`` deals, each played
        at every seat; the ``hands`` column gives the hands behind each row.
    seed : int or None
        League seed (None: fresh entropy, recorded in ``attrs['seed_entropy']``).
    policies : str or sequence of str, optional
        Built-in policies of the game (default all of them).  ``'random'`` is always played,
        as the reference of ``value_of_play``; its rows appear only if listed.
    workers, progress, executor, scheduler, checkpoint
        As :func:`kaptai.core.runner.run_jobs`; the table does not depend on them.
    baseline : str, optional
        The field's policy (default the feed's :attr:`~kaptai.core.atlas.AtlasFeed.default_policy`).
    caps : mapping, optional
        Hands of a slow policy (played on the first deals only), besides the feed's strong cap.
    chunk_hands : mapping, optional
        Hands per chunk of a slow policy's arrangements.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`LEAGUE_COLUMNS`; metrics :data:`LEAGUE_METRICS` in that order per
        policy (``value_of_play`` for every policy but ``'random'``, ``vs_best_other`` when the
        table has another policy).  ``attrs``: ``game``, ``rules`` (a dict), ``players``,
        ``seed_entropy``, ``version``, ``settings``, ``runs``, ``confidence``, ``metrics``,
        ``unit``, ``reference_seat``, ``win_definition``, ``ev_method``, ``differences`` (the
        rows of :func:`league_differences`), ``seat_differences`` (each pair's difference at one
        physical seat, as the feed's ``deal_rows`` numbers the seats: the policy at that seat
        against the other policy at that seat, same deals, paired; ``hands`` = the deals).

    Raises
    ------
    RulesError
        A bad player count, ruleset, policy or baseline, ``hands`` or ``workers`` < 1, a bad seed.
    """
    g, counts, r, hands, workers, entropy, base, pols = _setup(game, players, rules, hands, workers, seed, policies,
                                                               baseline)
    feed = g.feed
    label = _label(g, r)
    ref = feed.random_policy
    played = pols + ([ref] if ref not in pols and ref in g.policies else [])
    rules_dict = r.to_dict()
    plans: list[_Plan] = []
    for P in counts:
        deals = -(-hands // P)
        arrs = [tuple([base] * P)]
        for name in played:
            if name != base:
                arrs.extend(tuple(name if j == s else base for j in range(P)) for s in range(P))
        cap, chunks = _caps(feed, P, deals, caps)
        chunks.update(chunk_hands or {})
        plans.append(_Plan(P, AtlasVariant(label, r, P), arrs, deals, cap, chunks))
    for pl in plans:  # a table the game refuses (players, rules) fails here, before any work
        _check_table(g, pl)
    Ys = _play(g, plans, entropy, rules_dict, kind="kaptai.league", hands=hands, workers=workers, executor=executor,
               scheduler=scheduler, checkpoint=checkpoint, progress=progress, desc=f"league {g.name}")

    z = z_value(CONFIDENCE)
    out: list[dict[str, Any]] = []
    diffs: list[dict[str, Any]] = []
    seat_diffs: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    for pl, Y in zip(plans, Ys):
        P = pl.P
        arr_index = {a: i for i, a in enumerate(pl.arrangements)}
        ser: dict[str, _Series] = {}
        for name in played:
            ser[name] = (_series_field(Y, 0, P, feed.max_winners) if name == base
                         else _series_rotated(Y, arr_index, name, base, P))
        for name in played:
            n = int(np.isfinite(ser[name].ev).sum())
            runs.append({"players": P, "policy": name, "deals": n, "hands": n * P,
                         "arrangements": 1 if name == base else P})
        for name in pols:
            e = ser[name]
            ev, var, n = _mean_var(e.ev)
            win, wvar, _ = _mean_var(e.win)
            row = {"game": g.name, "rules": label, "players": P, "policy": name, "opponents": base,
                   "hands": n * P, "method": "monte_carlo"}
            money = {**row, "unit": feed.unit}
            wlo, whi = _interval(win, wvar, z, 0.0, e.win_hi)
            out.append({**row, "unit": "probability", "metric": "win", "value": win, "ci_low": wlo, "ci_high": whi})
            out.append({**row, "unit": "share", "metric": "win_share", "value": win * P, "ci_low": wlo * P,
                        "ci_high": whi * P})
            lo_, hi_ = _interval(ev, var, z)
            out.append({**money, "metric": "ev_per_hand", "value": ev, "ci_low": lo_, "ci_high": hi_})
            if name != ref and ref in ser:
                d, dv, dn = _paired(e.ev, ser[ref].ev)
                lo_, hi_ = _interval(d, dv, z)
                out.append({**money, "metric": "value_of_play", "value": d, "ci_low": lo_, "ci_high": hi_,
                            "hands": dn * P})
            others = [o for o in pols if o != name]
            if others:
                # the best other on the deals this policy played, among the others that played
                # every one of them (a capped policy, on the first deals only, is no comparison
                # for a policy that played them all: its few deals would decide the difference)
                mine = np.isfinite(e.ev)
                full = [o for o in others if np.isfinite(ser[o].ev)[mine].all()] or others
                best = max(full, key=lambda o: (_mean_on(ser[o].ev, e.ev), -pols.index(o)))
                d, dv, dn = _paired(e.ev, ser[best].ev)
                lo_, hi_ = _interval(d, dv, z)
                out.append({**money, "metric": "vs_best_other", "value": d, "ci_low": lo_, "ci_high": hi_,
                            "hands": dn * P})
            for other in pols:
                if other == name:
                    continue
                f = ser[other]
                d, dv, dn = _paired(e.ev, f.ev)
                both = np.isfinite(e.ev) & np.isfinite(f.ev)
                iv = e.independent_var(both) + f.independent_var(both)
                lo_, hi_ = _interval(d, dv, z)
                diffs.append({"game": g.name, "rules": label, "players": P, "policy": name, "other": other,
                              "value": d, "ci_low": lo_, "ci_high": hi_, "hands": dn * P,
                              "variance_ratio": iv / dv if dv > 0 else math.nan, "unit": feed.unit})
                for seat in range(P):  # the same difference at one physical seat (deal_rows' numbering)
                    d, dv, dn = _paired(e.seats[:, seat], f.seats[:, seat])
                    lo_, hi_ = _interval(d, dv, z)
                    seat_diffs.append({"game": g.name, "rules": label, "players": P, "policy": name, "other": other,
                                       "seat": seat, "value": d, "ci_low": lo_, "ci_high": hi_, "hands": dn,
                                       "unit": feed.unit})
    df = pd.DataFrame(out, columns=LEAGUE_COLUMNS)
    df = df.astype({"players": "int64", "hands": "int64"})
    df.attrs.update({
        "game": g.name,
        "rules": rules_dict,
        "players": counts[0] if len(counts) == 1 else list(counts),
        "seed_entropy": entropy,
        "version": __version__,
        "settings": {"players": list(counts), "rules": [rules_dict], "hands": hands, "policies": pols,
                     "baseline": base, "design": "duplicate"},
        "runs": runs,
        "confidence": CONFIDENCE,
        "metrics": dict(LEAGUE_METRICS),
        "unit": feed.unit,
        "reference_seat": feed.reference_seat,
        "win_definition": feed.win,
        "differences": diffs,
        "seat_differences": seat_diffs,
        "ev_method": (
            "duplicate deals: every deal played once per arrangement (each policy at each seat against the "
            "field, and the field alone); EV = the mean over the deals of the policy's net averaged over its "
            "seats; normal intervals with the deals as clusters; every difference from the per-deal "
            "differences (paired); win: the same with the seat's win share, clipped to its possible range"
        ),
    })
    return df


def _check_table(g: LeagueGame, pl: _Plan) -> None:
    """Play one deal of the table's first arrangement (a refused table fails before any work)."""
    assert g.feed.deal_rows is not None
    g.feed.deal_rows(pl.variant, (pl.arrangements[0],), plan_chunks(1, 1, 0)[0])


def league_differences(df: pd.DataFrame) -> pd.DataFrame:
    """Every pair of policies of a league (:func:`policy_league`): the mean difference per hand
    on the same deals with its paired 95% interval, and ``variance_ratio`` (the variance under
    independent deals over that under duplicate deals).  Columns :data:`DIFF_COLUMNS`."""
    out = pd.DataFrame(df.attrs.get("differences") or [], columns=DIFF_COLUMNS)
    out.attrs.update({k: v for k, v in df.attrs.items() if k != "differences"})
    return out


# --------------------------------------------------------------------------------------
# Cross-play
# --------------------------------------------------------------------------------------


def _cross_arrangements(P: int, x: str, f: str, k: int) -> list[tuple[str, ...]]:
    if k == 1:
        return [tuple(x if j == s else f for j in range(P)) for s in range(P)]
    return [tuple(x if j in (s, s + 2) else f for j in range(P)) for s in range(2)]


def cross_play(
    game: Any,
    players: int | Sequence[int] | None = None,
    rules: Any = None,
    hands: int = 20_000,
    seed: int | None = 0,
    policies: str | Sequence[str] | None = None,
    workers: int = 1,
    progress: bool | str = True,
    *,
    executor: Executor | None = None,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    caps: Mapping[str, int] | None = None,
    chunk_hands: Mapping[str, int] | None = None,
    challengers: str | Sequence[str] | None = None,
    seats: int | Sequence[int] | None = None,
) -> pd.DataFrame:
    """Cross-play: every policy at one seat against a field of each other policy (and two
    against two at four-seat tables), seats rotated, on duplicate deals.

    Parameters are those of :func:`policy_league` (``hands``: per cell and player count, as
    ``ceil(hands / P)`` deals), and ``challengers``: the policies whose rows are played (default
    every policy of ``policies``; e.g. ``"search"`` plays only one ``search`` against a field of
    each other policy, not the fields of ``search``, the costly cells), and ``seats``: how many
    seats the policy of a row holds, 1 and/or 2 (default both at four-seat tables, 1 otherwise;
    2 is only played at four seats).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`CROSS_COLUMNS`, one row per (players, policy, field, seats): ``ev_per_hand``
        of the policy's seats, ``diff_vs_field`` = its result minus a field seat's in the same
        games (paired interval), ``vs_replaced`` = its result minus the field policy's own at the
        same seats of the same deals when the field plays alone (the duplicate-bridge comparison:
        the policy in the field policy's place, everything else the same; paired interval), and
        ``hands`` = the hands the policy played in the cell.

    Examples
    --------
    >>> from kaptai.core.league import LeagueGame, cross_play
    >>> from kaptai.nineten.atlas import FEED
    >>> from kaptai.nineten.rules import resolve_rules
    >>> g = LeagueGame("nine-ten", FEED, (2, 4), 4, ("colour_cut", "random"), resolve_rules)
    >>> t = cross_play(g, hands=200, seed=1, progress=False)
    >>> t[["policy", "field", "seats"]].values.tolist()
    [['colour_cut', 'random', 1], ['colour_cut', 'random', 2], ['random', 'colour_cut', 1], ['random', 'colour_cut', 2]]
    """
    g, counts, r, hands, workers, entropy, _, pols = _setup(game, players, rules, hands, workers, seed, policies,
                                                            None)
    if len(pols) < 2:
        raise RulesError("cross-play needs at least two policies")
    rows = pols
    if challengers is not None:
        rows = []
        for c in _as_tuple(challengers, (str,)):
            if not isinstance(c, str) or c.strip() not in pols:
                raise RulesError(f"challenger {str(c)[:40]!r} is not one of the policies played: "
                                 f"{', '.join(map(repr, pols))}")
            if c.strip() not in rows:
                rows.append(c.strip())
        if not rows:
            raise RulesError("challengers is empty: give at least one of the policies played")
    held = (1, 2)
    if seats is not None:
        held = tuple(dict.fromkeys(_as_tuple(seats, (int, np.integer))))
        bad = [k for k in held if k not in (1, 2)]
        if bad or not held:
            raise RulesError(f"seats={str(seats)[:40]}: expected 1 and/or 2 (seats the row's policy holds)")
    feed = g.feed
    label = _label(g, r)
    rules_dict = r.to_dict()
    plans = []
    cells: list[list[tuple[str, str, int]]] = []
    for P in counts:
        deals = -(-hands // P)
        arrs: list[tuple[str, ...]] = []
        cell = []
        for x in rows:
            for f in pols:
                if f == x:
                    continue
                for k in [k for k in held if k == 1 or P == 4] or [1]:
                    cell.append((x, f, k))
                    for a in _cross_arrangements(P, x, f, k) + [(f,) * P]:  # and the field alone
                        if a not in arrs:
                            arrs.append(a)
        cap, chunks = _caps(feed, P, deals, caps)
        chunks.update(chunk_hands or {})
        plans.append(_Plan(P, AtlasVariant(label, r, P), arrs, deals, cap, chunks))
        cells.append(cell)
    for pl in plans:
        _check_table(g, pl)
    Ys = _play(g, plans, entropy, rules_dict, kind="kaptai.cross", hands=hands, workers=workers, executor=executor,
               scheduler=scheduler, checkpoint=checkpoint, progress=progress, desc=f"cross-play {g.name}")
    z = z_value(CONFIDENCE)
    out = []
    for pl, Y, cell in zip(plans, Ys, cells):
        P = pl.P
        idx = {a: i for i, a in enumerate(pl.arrangements)}
        for x, f, k in cell:
            arrs = _cross_arrangements(P, x, f, k)
            mine = np.stack([Y[:, idx[a], [j for j in range(P) if a[j] == x]].mean(axis=1) for a in arrs], 1).mean(1)
            field = np.stack([Y[:, idx[a], [j for j in range(P) if a[j] != x]].mean(axis=1) for a in arrs],
                             1).mean(1)
            alone = idx[(f,) * P]
            replaced = np.stack([Y[:, alone, [j for j in range(P) if a[j] == x]].mean(axis=1) for a in arrs],
                                1).mean(1)
            ev, var, n = _mean_var(mine)
            d, dv, _ = _paired(mine, field)
            r, rv, _ = _paired(mine, replaced)
            elo, ehi = _interval(ev, var, z)
            dlo, dhi = _interval(d, dv, z)
            rlo, rhi = _interval(r, rv, z)
            out.append({"game": g.name, "rules": label, "players": P, "policy": x, "field": f, "seats": k,
                        "ev_per_hand": ev, "ev_ci_low": elo, "ev_ci_high": ehi, "diff_vs_field": d,
                        "diff_ci_low": dlo, "diff_ci_high": dhi, "vs_replaced": r, "replaced_ci_low": rlo,
                        "replaced_ci_high": rhi, "hands": n * len(arrs) * k, "unit": feed.unit})
    df = pd.DataFrame(out, columns=CROSS_COLUMNS)
    df = df.astype({"players": "int64", "seats": "int64", "hands": "int64"})
    df.attrs.update({
        "game": g.name, "rules": rules_dict, "players": counts[0] if len(counts) == 1 else list(counts),
        "seed_entropy": entropy, "version": __version__, "confidence": CONFIDENCE, "unit": feed.unit,
        "settings": {"players": list(counts), "rules": [rules_dict], "hands": hands, "policies": pols,
                     "challengers": rows, "design": "duplicate cross-play"},
        "ev_method": (
            "duplicate deals: the policy at one seat (or two opposite seats at a four-seat table) against a field "
            "of the other policy, seats rotated, every arrangement on the same deals, and the field alone on them; "
            "diff_vs_field = the policy's mean net minus a field seat's in the same games, vs_replaced = the "
            "policy's mean net minus the field policy's at the same seats when the field plays alone, per deal "
            "(paired), normal intervals with the deals as clusters"
        ),
    })
    return df


def plot_cross(df: pd.DataFrame, path: Any = None, *, value: str = "auto"):
    """Heat map of who beats whom: a cross-play table (:func:`cross_play`; ``diff_vs_field``) or
    a league's pairwise differences (:func:`league_differences`; ``value``), one panel per
    ruleset, player count and seat count (a row of panels per ruleset, each ruleset with its own
    colour scale and unit), each cell annotated with its value and, under it, its 95% interval.
    Only the policies with cells are drawn (``challengers``: their rows alone); the figure's
    title names the game and what is shown, each panel's title the rules, table and unit.

    Returns the matplotlib Figure (saved to ``path`` when given).

    Examples
    --------
    >>> import pandas as pd
    >>> from kaptai.core.league import plot_cross
    >>> t = pd.DataFrame({"players": [2, 2], "policy": ["a", "b"], "field": ["b", "a"], "seats": [1, 1],
    ...                   "diff_vs_field": [0.5, -0.5], "diff_ci_low": [0.1, -0.9], "diff_ci_high": [0.9, -0.1]})
    >>> len(plot_cross(t).axes)
    2
    """
    from kaptai.core.plotting import cjk_font_context, save_figure

    with cjk_font_context():  # the text is measured with the font it is drawn in
        fig = _cross_figure(df)
    return save_figure(fig, path, close=path is not None)


def _wrap_to(text: Any, width: float, renderer: Any) -> None:
    """Re-wrap the words of a matplotlib Text (its own line breaks kept) until it is at most
    ``width`` pixels wide (or its words are each on a line)."""
    import textwrap

    paragraphs = str(getattr(text, "_kaptai_text", None) or text.get_text()).split("\n")
    text._kaptai_text = "\n".join(paragraphs)
    text.set_text("\n".join(paragraphs))
    chars = max(len(p) for p in paragraphs)
    while text.get_window_extent(renderer).width > width and chars > 8:
        chars = int(chars * 0.9)
        text.set_text("\n".join(textwrap.fill(p, chars, break_on_hyphens=False) or p for p in paragraphs))


def _cross_figure(df: pd.DataFrame):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from kaptai.core.lookup import find_game

    cross = "field" in df.columns
    if cross:
        t = df.rename(columns={"diff_vs_field": "v", "diff_ci_low": "lo", "diff_ci_high": "hi", "field": "col"})
        what = "cross-play: the row policy's result minus a field seat's in the same games, per hand"
        short = "policy minus a field seat"
    else:
        t = df.rename(columns={"value": "v", "ci_low": "lo", "ci_high": "hi", "other": "col"})
        t = t.assign(seats=1)
        what = "every pair of policies on the same deals: row policy minus column policy, per hand"
        short = "row policy minus column policy"
    if t.empty:
        raise RulesError("the table has no rows to plot")
    if "rules" not in t.columns:
        t = t.assign(rules=None)
    t = t.assign(rules=t.rules.astype(object).where(t.rules.notna(), None))
    rulesets = list(dict.fromkeys(t.rules))
    keys = list(dict.fromkeys(zip(t.players, t.seats)))
    order = list(dict.fromkeys(list(t.policy) + list(t.col)))

    def axis_names(part: pd.DataFrame) -> tuple[list[str], list[str]]:
        rows, cols = set(part.policy), set(part.col)
        return [n for n in order if n in rows], [n for n in order if n in cols]

    panels: dict[tuple[int, int], tuple[pd.DataFrame, list[str], list[str]]] = {}
    for i, r in enumerate(rulesets):
        for j, (P, k) in enumerate(keys):
            part = t[(t.rules.map(lambda x, r=r: x == r)) & (t.players == P) & (t.seats == k)]
            if not part.empty:
                panels[i, j] = (part, *axis_names(part))
    ncols = [max((len(panels[i, j][2]) for i in range(len(rulesets)) if (i, j) in panels), default=1)
             for j in range(len(keys))]
    nrows = [max((len(panels[i, j][1]) for j in range(len(keys)) if (i, j) in panels), default=1)
             for i in range(len(rulesets))]

    games = list(dict.fromkeys(str(g) for g in t.game)) if "game" in t.columns else (
        [str(df.attrs["game"])] if df.attrs.get("game") else [])
    titles = [getattr(find_game(g), "title", None) or g for g in games]
    head = (", ".join(titles) + " — " if titles else "") + what
    head += "\nbold: 95% interval clear of 0; grey: no cell (a policy against itself, or not played)"

    def unit_of(part: pd.DataFrame) -> str | None:
        if "unit" in part.columns:
            units = [str(u) for u in dict.fromkeys(part.unit.dropna())]
            if units:
                return " / ".join(units)
        return str(df.attrs["unit"]) if df.attrs.get("unit") else None

    fig = Figure(layout="constrained")
    canvas = FigureCanvasAgg(fig)
    axes = fig.subplots(len(rulesets), len(keys), squeeze=False,
                        gridspec_kw={"width_ratios": ncols, "height_ratios": nrows})
    fs = 8
    cell_texts: list[Any] = []
    wrapped: list[tuple[Any, Any]] = []  # a text and the axes it may be as wide as (None: the figure)
    bars = []
    for i, r in enumerate(rulesets):
        rows_of = t[t.rules.map(lambda x, r=r: x == r)]
        bound = np.abs(rows_of[["v", "lo", "hi"]].to_numpy(dtype=float))
        lim = float(np.nanmax(np.abs(rows_of.v.to_numpy(dtype=float)))) if rows_of.v.notna().any() else 0.0
        lim = lim if math.isfinite(lim) and lim > 0 else 1.0
        top = float(np.nanmax(bound)) if np.isfinite(bound).any() else 0.0
        dec = 2 if top < 10 else 1 if top < 100 else 0
        unit = unit_of(rows_of)
        per = f"{unit} per hand" if unit else "per hand"
        im = None
        shown = []
        for j, (P, k) in enumerate(keys):
            ax = axes[i, j]
            if (i, j) not in panels:
                ax.set_visible(False)
                continue
            part, rows, cols = panels[i, j]
            M = np.full((len(rows), len(cols)), np.nan)
            for row in part.itertuples():
                a, b = rows.index(row.policy), cols.index(row.col)
                v, lo, hi = float(row.v), float(row.lo), float(row.hi)
                M[a, b] = v
                if not math.isfinite(v):
                    label = "n/a"
                elif math.isfinite(lo) and math.isfinite(hi):
                    label = f"{v:+.{dec}f}\n[{lo:+.{dec}f}, {hi:+.{dec}f}]"
                else:
                    label = f"{v:+.{dec}f}"
                sure = lo > 0 or hi < 0
                cell_texts.append(ax.text(b, a, label, ha="center", va="center", fontsize=fs, linespacing=1.3,
                                          fontweight="bold" if sure else "normal",
                                          color="white" if abs(v) > 0.6 * lim else "black"))
            im = ax.imshow(M, cmap="RdBu", vmin=-lim, vmax=lim, aspect="auto")
            ax.set_facecolor("0.9")
            ax.set_xticks(range(len(cols)), cols)
            ax.set_yticks(range(len(rows)), rows)
            ax.set_xlabel("field" if cross else "other policy")
            ax.set_ylabel("policy")
            where = f", the policy at {k} seat{'s' if k > 1 else ''}" if cross else ""
            name = f"{r} rules, " if r is not None else ""
            ax.set_title(f"{name}{P} players{where}\n{per}", fontsize=10)
            wrapped.append((ax.title, [ax]))
            shown.append(ax)
        assert im is not None
        bar = fig.colorbar(im, ax=shown, location="bottom", shrink=0.9, aspect=40)
        bar.set_label(f"{short} ({per})" + (f", {r} rules" if r is not None and len(rulesets) > 1 else ""))
        wrapped.append((bar.ax.xaxis.label, shown))
        bars.append(bar)
    sup = fig.suptitle(head, fontsize=10)
    wrapped.append((sup, None))

    # Size the cells to their labels and the column names (never rotated): lay out, wrap the
    # titles to their panels, measure, grow, again.
    dpi = fig.dpi
    W = sum(ncols) * 1.0 + 1.4 * len(keys) + 0.4
    H = sum(nrows) * 0.45 + 1.6 * len(rulesets) + 0.8
    for _ in range(8):
        fig.set_size_inches(W, H)
        fig.draw_without_rendering()
        renderer = canvas.get_renderer()
        for tx, over in wrapped:
            span = [a.get_window_extent(renderer) for a in over or ()]
            _wrap_to(tx, max(b.x1 for b in span) - min(b.x0 for b in span) if span else fig.bbox.width - 10,
                     renderer)
        fig.draw_without_rendering()
        ext = [tx.get_window_extent(renderer) for tx in cell_texts]
        need_w = max((e.width for e in ext), default=0.0)
        need_h = max((e.height for e in ext), default=0.0) + 0.10 * dpi
        grow_w = grow_h = 0.0
        for (i, j), (_, rows, cols) in panels.items():
            ax = axes[i, j]
            names = max(lab.get_window_extent(renderer).width for lab in ax.get_xticklabels())
            box = ax.get_window_extent(renderer)
            grow_w = max(grow_w, max(need_w, names) + 0.12 * dpi - box.width / len(cols))
            grow_h = max(grow_h, need_h - box.height / len(rows))
        if grow_w <= 0.5 and grow_h <= 0.5:
            break
        W += max(grow_w, 0.0) * max(sum(ncols), 1) / dpi * 1.05
        H += max(grow_h, 0.0) * max(sum(nrows), 1) / dpi * 1.05
    return fig


# --------------------------------------------------------------------------------------
# The command line: ``kaptai league <game>`` (declared in each game's commands.py)
# --------------------------------------------------------------------------------------


def policies_option(names: Sequence[str], default: Sequence[str] | None = None):
    """``--policies A,B,...``: built-in policies of the game, comma-separated (default all)."""
    from kaptai.core.cli_options import policies

    return policies(names, default)


def scope_args(args: Any, cross: bool) -> tuple[str, ...] | None:
    """``--challenger`` of ``kaptai league`` as a tuple of names (None: every policy's row),
    refused without ``--cross``, naming a policy not played (``--policies``), or, with
    ``--challenger-seats 2``, at a table that is not four-seat (two against two is played only
    there)."""
    for flag in ("challenger_seats", "challenger"):
        if getattr(args, flag, None) is not None and not cross:
            raise UsageError(f"--{flag.replace('_', '-')} chooses the rows of a cross-play: give it with --cross")
    if getattr(args, "percent", False) and (cross or getattr(args, "diff", False)):
        table = "cross-play (--cross)" if cross else "pairwise (--diff)"
        raise UsageError(f"--percent shows probabilities as percentages, and the {table} table has none (its values "
                         "are differences per hand in the game's unit): give it without --percent, or --percent "
                         "without " + ("--cross" if cross else "--diff"))
    see = f" (see kaptai {getattr(args, 'command', None) or 'league'} {getattr(args, 'game', None) or ''}".rstrip() \
        + " --help)"
    held = getattr(args, "challenger_seats", None)
    players = getattr(args, "players", None)
    counts = [int(p) for p in (players if isinstance(players, (list, tuple)) else [players]) if p is not None]
    other = sorted({p for p in counts if p != 4})
    if held is not None and "2" in str(held).split(",") and other:
        raise UsageError(f"argument --challenger-seats: 2 (two against two) is played only at four-seat tables, "
                         f"and --players gives {', '.join(map(str, other))}: give --challenger-seats 1 or "
                         f"--players 4" + see)
    text = getattr(args, "challenger", None)
    if text is None:
        return None
    names = tuple(t.strip() for t in str(text).split(",") if t.strip())
    played = [t.strip() for t in str(getattr(args, "policies", "") or "").split(",") if t.strip()]
    if (getattr(args, "advisor_hands", 0) or 0) > 0:
        played.append("advisor")
    for c in names:
        if played and c not in played:
            raise UsageError(f"argument --challenger: {quote_token(c)} is not one of the policies played "
                             f"(--policies): {', '.join(map(quote_token, played))}" + see)
    if not names:
        raise UsageError("argument --challenger: empty: give at least one of the policies played" + see)
    twice = first_repeat(names)
    if twice is not None:
        raise UsageError(f"argument --challenger: {quote_token(twice)} is named twice" + see)
    return names


#: Width the league's text output is laid out for (its header and legend wrapped, its tables narrow).
TEXT_WIDTH = 100


def text_width() -> int:
    """The width of the league's text: the terminal's (``COLUMNS``), at most :data:`TEXT_WIDTH`."""
    import shutil

    return max(60, min(TEXT_WIDTH, shutil.get_terminal_size((TEXT_WIDTH, 24)).columns))


def wrap_legend(lines: Sequence[str], width: int | None = None) -> str:
    """Legend lines wrapped to the text width (the command line prefixes each with ``# ``)."""
    from kaptai.core.output import wrap_comment

    out = wrap_comment("\n".join(lines), width or text_width())
    return "\n".join(line[2:] for line in out.splitlines())


_MONEY_UNITS_SKIP = ("probability", "share")


def units_text(df: pd.DataFrame) -> str:
    """The unit of a league table's money values, as a title says it: the one unit, or each
    ruleset's (``ante under traditional, point under advanced``)."""
    rows = df[~df["unit"].astype(str).isin(_MONEY_UNITS_SKIP)] if "unit" in df.columns else df.iloc[:0]
    units = list(dict.fromkeys(str(u) for u in rows["unit"])) if len(rows) else []
    if not units:
        return str(df.attrs.get("unit") or "the game's unit")
    if len(units) == 1 or "rules" not in rows.columns:
        return " / ".join(units)
    by_rules = {str(r): " / ".join(dict.fromkeys(str(u) for u in part["unit"]))
                for r, part in rows.groupby("rules", sort=False)}
    return ", ".join(f"{u} under {r}" for r, u in by_rules.items())


#: The cross-play's text columns and what they are (the legend of ``--cross`` in text).
CROSS_TEXT_LEGEND = (
    "EV: the policy's net per hand; vs field: it minus a field seat's in the same games; vs replaced: it minus "
    "the field policy's own at the same seats of the same deals when the field plays alone (the policy in its "
    "place, everything else the same); both paired",
)
#: What every text table's ``±`` is.
INTERVAL_LEGEND = "±: half the width of the 95% interval ([low, high] where the interval is not symmetric)"
#: The legend line of a table with a value that has no interval (one deal: no variance).
NO_INTERVAL_LEGEND = ("±n/a: no interval (a value from a single deal has no variance to estimate): an estimate, not "
                      "an exact value")


def text_view(df: pd.DataFrame, kind: str) -> tuple[pd.DataFrame, list[str]]:
    """The league table ``df`` as a person reads it at :data:`TEXT_WIDTH` columns (``--format
    table`` only; the JSON, CSV and parquet keep every column): each estimate and its interval in
    one cell (:func:`kaptai.core.output.interval_cell`), short column names, ``rules`` and
    ``players`` only where they vary, ``unit`` where the money units do.  ``kind``: ``'league'``,
    ``'diff'`` or ``'cross'``.  Returns the view (its header wrapped too) and its columns."""
    from kaptai.core.output import (
        HANDS_TEXT_ATTR,
        PERCENT_CELLS_ATTR,
        TEXT_WIDTH_ATTR,
        interval_cell,
        league_hands_text,
        sig3,
    )

    def cells(v: str, lo: str, hi: str) -> list[str]:
        return [interval_cell(a, b, c) for a, b, c in zip(df[v], df[lo], df[hi])]

    out: dict[str, Any] = {}
    for c in ("rules", "players"):
        if c in df.columns and df[c].nunique() > 1:
            out[c] = df[c].tolist()
    if kind == "cross":
        out.update(policy=df.policy.tolist(), field=df.field.tolist(), seats=df.seats.tolist(),
                   EV=cells("ev_per_hand", "ev_ci_low", "ev_ci_high"),
                   **{"vs field": cells("diff_vs_field", "diff_ci_low", "diff_ci_high"),
                      "vs replaced": cells("vs_replaced", "replaced_ci_low", "replaced_ci_high")})
    elif kind == "diff":
        out.update(policy=df.policy.tolist(), other=df.other.tolist(),
                   difference=cells("value", "ci_low", "ci_high"),
                   variance_ratio=["" if not math.isfinite(float(x)) else sig3(float(x)) for x in df.variance_ratio])
    else:
        out.update(policy=df.policy.tolist(), metric=df.metric.tolist(), value=cells("value", "ci_low", "ci_high"))
    out["hands"] = df.hands.tolist()
    if "unit" in df.columns:
        money = ~df["unit"].astype(str).isin(_MONEY_UNITS_SKIP)
        if df["unit"][money].nunique() > 1:
            out["unit"] = [str(u) if m else "" for u, m in zip(df["unit"], money)]
    view = pd.DataFrame(out)
    view.attrs = {**df.attrs, TEXT_WIDTH_ATTR: text_width()}
    if kind == "league" and "unit" in df.columns:  # --percent: the probabilities (win) as percentages
        prob = df["unit"].astype(str) == "probability"
        view.attrs[PERCENT_CELLS_ATTR] = {"value": [
            interval_cell(a, b, c, percent=bool(p)) if p else t
            for a, b, c, p, t in zip(df["value"], df["ci_low"], df["ci_high"], prob, out["value"])]}
    hands_text = league_hands_text(df)
    if hands_text:
        view.attrs[HANDS_TEXT_ATTR] = hands_text
    if "game" in df.columns and "game" not in view.attrs and df["game"].nunique() == 1:
        view.attrs["game"] = df["game"].iloc[0]
    return view, list(view.columns)


def for_text(args: Any) -> bool:
    """Whether the command prints (or writes) its table as text (``--format table``)."""
    from kaptai.core.output import table_format

    return table_format(getattr(args, "format", None), getattr(args, "out", None)) == "table"


#: The ``--diff`` table's legend line.
DIFF_LEGEND = ("variance_ratio: the variance of the difference under independent deals over that under duplicate "
               "deals (how many times fewer hands duplicate deals need)")


def league_output(df: pd.DataFrame, kind: str, cols: Sequence[str], *, text: bool, who: str = "each policy",
                  game_name: str = ""):
    """A league table (``kind``: ``'league'``, ``'diff'`` or ``'cross'``) as the command's
    :class:`~kaptai.spec.Output`: its title naming the unit(s) in force (:func:`units_text`), its
    legend, and in text (``text``) the :func:`text_view` laid out for :data:`TEXT_WIDTH` columns;
    otherwise the table's columns ``cols``.  ``who``: the cross-play's rows; ``game_name``: the
    game a league's win definition is of."""
    from kaptai.spec import Output

    units = units_text(df)
    if kind == "cross":
        title = (f"cross-play, duplicate deals, seats rotated: {who} against a field of each other policy, EV per "
                 f"hand ({units}) and its difference from a field seat, 95% intervals")
        legend, plain = list(CROSS_TEXT_LEGEND), CROSS_LEGEND
    elif kind == "diff":
        title = f"every pair of policies on the same deals: difference in EV per hand ({units}), paired 95% intervals"
        legend, plain = [DIFF_LEGEND], DIFF_LEGEND
    else:
        title = (f"duplicate policy league against a field of {df.attrs['settings']['baseline']}, seats rotated: win "
                 f"rate, EV per hand ({units}), value of play and the difference from the best other policy, 95% "
                 "intervals")
        legend = ([f"{k}: {v}" for k, v in LEAGUE_METRICS.items()]
                  + [f"a win in {game_name}: {df.attrs.get('win_definition')}"])
        plain = "\n".join(legend)
    if text:
        view, shown = text_view(df, kind)
        notes = [INTERVAL_LEGEND]
        if any("±n/a" in str(x) for c in view.columns for x in view[c]):
            notes.append(NO_INTERVAL_LEGEND)
        return Output(view, title, shown, legend=wrap_legend([*legend, *notes]))
    return Output(df, title, list(cols), legend=plain)


def name_unit(df: pd.DataFrame, generic: str, unit: str) -> pd.DataFrame:
    """``df`` with the feed's unit ``generic`` (a game's unit of several settlements) replaced by
    the one in force, in its rows and in its ``attrs`` (the differences' rows too)."""
    if unit == generic:
        return df
    if "unit" in df.columns:
        df["unit"] = df["unit"].where(df["unit"] != generic, unit)
    for k, v in list(df.attrs.items()):
        if v == generic:
            df.attrs[k] = unit
        elif isinstance(v, list) and v and all(isinstance(d, dict) for d in v):
            df.attrs[k] = [{**d, "unit": unit} if d.get("unit") == generic else d for d in v]
    return df


def league_command(args: Any, game: Any, *, caps: Mapping[str, int] | None = None,
                   unit: Callable[[Any], str] | None = None):
    """``kaptai league <game>``: :func:`policy_league` (or :func:`cross_play` with ``--cross``,
    the pairwise differences with ``--diff``) from the parsed options, as an
    :class:`~kaptai.spec.Output` (every game's ``league`` entry calls this with its spec).
    ``unit(rules)``: the unit of the money rows under the rules in force, where the feed's
    :attr:`~kaptai.core.atlas.AtlasFeed.unit` names several (Nantong's).  In text the tables are
    :func:`text_view` tables, laid out for :data:`TEXT_WIDTH` columns."""
    from kaptai.spec import Output

    g = _game_of(game)
    options = dict(getattr(args, "option", None) or [])
    players = getattr(args, "players", None)
    if "players" in options:  # the same table size twice passes, as elsewhere; the sizes are --players
        n = options.pop("players")
        if not players or [int(x) for x in players] != [int(n)]:
            raise RulesError(f"-o players={n} does not match --players {','.join(map(str, players or []))}: a "
                             "league's table sizes are --players (one or several); give them there")
    rules = g.resolve_rules(getattr(args, "rules", None), **options)
    cross, diff, plot = getattr(args, "cross", False), getattr(args, "diff", False), getattr(args, "plot", None)
    if cross and diff:
        raise RulesError("--cross and --diff are two different tables: give one of them")
    challengers = scope_args(args, cross)
    held = getattr(args, "challenger_seats", None)
    strong = getattr(args, "strong_hands", None)
    if strong is not None:
        played = [t.strip() for t in str(args.policies).split(",")]
        if g.feed.strong_policy not in played:
            raise UsageError(f"--strong-hands {strong} sets the hands of {g.feed.strong_policy}, which --policies does "
                             f"not play ({', '.join(played)}): give it with {g.feed.strong_policy} in --policies, or "
                             "leave it out")
        caps = {**(caps or {}), g.feed.strong_policy: int(strong)}
    kw = dict(players=tuple(players) if isinstance(players, (list, tuple)) else players, rules=rules,
              hands=args.hands, seed=args.seed, policies=tuple(args.policies.split(",")), workers=args.workers,
              progress=args.progress, scheduler=args.scheduler, checkpoint=args.checkpoint, caps=caps)
    in_force = g.feed.unit if unit is None else unit(rules)
    text = for_text(args)
    if cross:
        df = name_unit(cross_play(g, **kw, challengers=challengers,
                                   seats=None if held is None else tuple(int(t) for t in held.split(","))),
                        g.feed.unit, in_force)
        if plot:
            plot_cross(df, plot)
        who = "each policy" if challengers is None else ", ".join(df.attrs["settings"]["challengers"])
        return league_output(df, "cross", ["players", "policy", "field", "seats", "ev_per_hand", "ev_ci_low",
                                           "ev_ci_high", "diff_vs_field", "diff_ci_low", "diff_ci_high", "vs_replaced",
                                           "replaced_ci_low", "replaced_ci_high", "hands"], text=text, who=who)
    df = name_unit(policy_league(g, **kw), g.feed.unit, in_force)
    if diff or plot:
        d = league_differences(df)
        if plot:
            plot_cross(d, plot)
        if diff:
            return league_output(d, "diff", ["players", "policy", "other", "value", "ci_low", "ci_high", "hands",
                                              "variance_ratio"], text=text)
    return league_output(df, "league", ["rules", "players", "policy", "metric", "value", "ci_low", "ci_high", "hands"],
                         text=text, game_name=g.name)


# --------------------------------------------------------------------------------------
# For the feeds: the streams of a chunk of deals
# --------------------------------------------------------------------------------------


def child_seed(ss: np.random.SeedSequence, *key: int) -> np.random.SeedSequence:
    """The child ``key`` of ``ss`` (its spawn key extended by ``key``), without spawning from it:
    the same stream whoever asks, in whatever order.

    >>> child_seed(np.random.SeedSequence(5), 0, 2).spawn_key
    (0, 2)
    """
    return np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + tuple(key))


def deal_seeds(chunk: Any) -> list[np.random.SeedSequence]:
    """One :class:`numpy.random.SeedSequence` per deal of a chunk: for a league's
    :class:`DealChunk`, deal ``i`` of the table is child ``(0, i)`` of the table's seed (a
    function of the league's seed, the table and ``i`` alone: the same deal whatever the
    chunk); for any other chunk, child ``(0, j)`` of the chunk's seed for its ``j``-th deal
    (not spawned from).  A feed whose engine draws the whole deal before any policy acts plays
    each deal on ``PCG64`` of its seed, the same cards in every arrangement.

    >>> from kaptai.core.runner import plan_chunks
    >>> c = plan_chunks(3, 3, 5)[0]
    >>> [s.spawn_key[-2:] for s in deal_seeds(c)] == [(0, 0), (0, 1), (0, 2)], deal_seeds(c)[1].entropy == 5
    (True, True)
    >>> t = np.random.SeedSequence(5)
    >>> [s.spawn_key for s in deal_seeds(DealChunk(0, 7, 2, child_seed(t, 3, 7), t, 4))]
    [(0, 7), (0, 8)]
    """
    if isinstance(chunk, DealChunk):
        return [child_seed(chunk.deals, 0, int(chunk.start) + i) for i in range(int(chunk.size))]
    return [child_seed(chunk.seed, 0, i) for i in range(int(chunk.size))]


def policy_stream(chunk: Any) -> np.random.BitGenerator:
    """A fresh ``PCG64`` for the policies' own draws in one arrangement of a chunk (child ``(1,)``
    of the chunk's seed; of a league's :class:`DealChunk`, child ``(1, start)`` of the table's
    seed, so a piece's stream depends on where it starts alone): the same for every
    arrangement, never the deals' stream."""
    if isinstance(chunk, DealChunk):
        return np.random.PCG64(child_seed(chunk.deals, 1, int(chunk.start)))
    return np.random.PCG64(child_seed(chunk.seed, 1))


def chunk_decks(chunk: Any, cards: int, extra: int = 0) -> np.ndarray:
    """Decks for a chunk's deals, then ``extra`` spares (redeals): deck ``i`` a uniform permutation
    drawn from :func:`deal_seeds` ``[i]``, the spares from the chunk's child ``(2,)``.  Of a
    league's :class:`DealChunk`, the decks of its whole ``span`` (a piece cut short by a cap
    reads the same decks, spares after them, as the whole piece), the spares from child
    ``(2, start)`` of the table's seed: ``(span + extra, cards)``; else ``(chunk.size + extra, cards)``.

    >>> from kaptai.core.runner import plan_chunks
    >>> d = chunk_decks(plan_chunks(4, 4, 1)[0], 52, extra=2)
    >>> d.shape, sorted(d[5].tolist()) == list(range(52))
    ((6, 52), True)
    """
    if isinstance(chunk, DealChunk):
        chunk, spare = dataclasses.replace(chunk, size=int(chunk.span)), child_seed(chunk.deals, 2, int(chunk.start))
    else:
        spare = child_seed(chunk.seed, 2)
    rows = [np.random.Generator(np.random.PCG64(s)).permutation(cards) for s in deal_seeds(chunk)]
    if extra:
        rng = np.random.Generator(np.random.PCG64(spare))
        rows.extend(rng.permutation(cards) for _ in range(extra))
    return np.array(rows, dtype=np.int64).reshape(-1, cards)
