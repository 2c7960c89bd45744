"""Policy league of any game with an atlas feed: how much is playing well worth, per hand?

The same table as Kap Tai Shap's league (:mod:`kaptai.kts.league`), for every game whose
atlas feed (:class:`kaptai.core.atlas.AtlasFeed`, reached through the registry) gives its
per-hand rows (:attr:`~kaptai.core.atlas.AtlasFeed.rows`).  Nothing here knows a game: the
feed plays the hands (compiled engine, the game's own settlement), the shared runner
(:func:`kaptai.core.runner.run_jobs`) runs them (workers, Dask, checkpoint, progress).

Design of the head-to-head
--------------------------
*The field.*  Each built-in policy ``X`` sits at a table whose other seats all play the
game's default policy (:attr:`AtlasFeed.default_policy`, the *baseline*).

*Seat rotation.*  Seats are not alike (dealer, leader, declarer), so a policy ``X`` other
than the baseline plays ``players`` tables, one with ``X`` at each seat ``s`` relative to
the game's reference seat (:attr:`AtlasFeed.reference_seat`) and the baseline everywhere
else, ``ceil(hands / players)`` hands each.  Its figures are the averages over ``s``: the
seat of a player who takes every seat equally often (at a Nantong table of 4 that includes
the sitter's seat, where a player scores 0 or shares the dealer's result, as in a match).
The baseline itself is measured from one all-baseline table of ``players x ceil(hands /
players)`` hands, averaging its seats; so in a zero-sum game its EV is 0 by construction,
and where every hand has exactly one winner its win rate is ``1 / players``.

*Seeds.*  Every table gets its own seed, derived from ``(seed, game, ruleset, players,
policy, seat)`` with :class:`numpy.random.SeedSequence`: tables are independent (their
variances add), a row does not change when other policies are added, and the same seed
gives the same table whatever runs it (``workers``, ``scheduler``).

Metrics (:data:`LEAGUE_METRICS`; per hand, one seat's view, in the game's unit)
--------------------------------------------------------------------------------
``ev_per_hand``
    the seat's mean net result under the game's settlement (the feed's ``net``), averaged
    over the seats; a normal interval with the exact variance of the mean (the rotated
    tables are independent, so their variances add over the square of their number).
``win``
    P(the seat wins the hand), a win as the game defines it (:attr:`AtlasFeed.win`: ties
    share one win); Wilson interval of the pooled wins of the rotated tables (as Kap Tai
    Shap's league), and for the baseline the normal interval of the per-hand average over
    its seats (zero width where a hand has exactly one winner).
``win_share``
    ``players x win``: 1 is the fair share.
``value_of_play``
    ``ev_per_hand(X) - ev_per_hand('random')`` in the same seats against the same field
    (``random`` is always played for it; its rows are shown only if asked for).
``vs_best_other``
    ``ev_per_hand(X) - max ev_per_hand(Y)`` over the other policies ``Y`` of the table (the
    best other by its point estimate); the interval adds the two independent variances, so
    it is conditional on which policy is the best other.  A table of one policy has none.

Examples
--------
>>> from kaptai.core.league import policy_league
>>> df = policy_league("nine-ten", hands=400, seed=1, policies=("random", "colour_cut"), progress=False)
>>> sorted(set(df.metric))
['ev_per_hand', 'value_of_play', 'vs_best_other', 'win', 'win_share']
>>> base = df[(df.policy == "colour_cut") & (df.metric == "ev_per_hand")].iloc[0]
>>> bool(base.value == base.ci_low == base.ci_high == 0.0)    # zero-sum: the field against itself
True
"""

from __future__ import annotations

import json
import math
import os
import zlib
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.atlas import AtlasFeed, AtlasJob, AtlasVariant
from kaptai.core.options import as_tuple as _as_tuple
from kaptai.core.options import check_count, check_seed
from kaptai.core.runner import Job, LazyTasks, plan_chunks, run_jobs
from kaptai.core.stats import wilson_interval, z_value
from kaptai.errors import RulesError
from kaptai.spec import load_entry

__all__ = ["CONFIDENCE", "LEAGUE_COLUMNS", "LEAGUE_METRICS", "league_command", "league_feed", "league_policies", "policies_option",
           "policy_league"]

#: Columns of :func:`policy_league`: Kap Tai Shap's league columns, then the unit of the money metrics.
LEAGUE_COLUMNS: list[str] = [
    "game", "rules", "players", "policy", "opponents", "metric",
    "value", "ci_low", "ci_high", "hands", "method", "unit",
]
#: Metrics of :func:`policy_league` and what they are (per hand, one seat's view).
LEAGUE_METRICS: dict[str, str] = {
    "win": "P(the policy's seat wins the hand, as the game defines a win), averaged over the seats",
    "win_share": "players x win: 1 is the fair share 1/players",
    "ev_per_hand": "expected net result per hand in the game's unit, averaged over the seats",
    "value_of_play": "ev_per_hand(policy) - ev_per_hand('random'), same seats and field",
    "vs_best_other": "ev_per_hand(policy) - the highest ev_per_hand of the other policies in the table",
}
CONFIDENCE = 0.95


def league_feed(game: str) -> tuple[Any, AtlasFeed]:
    """The registry's :class:`~kaptai.spec.GameSpec` of ``game`` and its atlas feed, which must give rows."""
    from kaptai.games import game as game_spec

    spec = game_spec(game)
    if not spec.atlas:
        raise RulesError(f"{spec.name} has no atlas feed, so no league")
    feed = load_entry(spec.atlas)
    if not isinstance(feed, AtlasFeed) or feed.rows is None:
        raise RulesError(f"{spec.name}: its atlas feed gives no per-hand rows, so no league")
    return spec, feed


def league_policies(game: str) -> tuple[str, ...]:
    """The policies a league of ``game`` plays by default: every built-in policy of the game."""
    from kaptai.games import game as game_spec

    return tuple(game_spec(game).policies)


# --------------------------------------------------------------------------------------
# One chunk of one table (module level: pickled to worker processes)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Make:
    """Builds the task of one chunk of one table (the feed by its registry entry)."""

    entry: str
    job: AtlasJob

    def __call__(self, chunk):
        return (self.entry, self.job, chunk)


def _league_chunk(task) -> dict[str, np.ndarray]:
    """Moments of ``[net_0..net_{P-1}, win_0..win_{P-1}]`` over the chunk's hands."""
    entry, job, chunk = task
    rows = load_entry(entry).rows(job, chunk)
    z = np.concatenate([np.asarray(rows["net"], dtype=np.float64), np.asarray(rows["win"], dtype=np.float64)],
                       axis=1)
    return {"n": np.array([z.shape[0]], dtype=np.int64), "z1": z.sum(axis=0), "z2": z.T @ z}


@dataclass
class _Table:
    """One table's sums of ``z = [net, win]`` per hand (``n``, ``z1 = sum z``, ``z2 = sum z z'``)."""

    n: int
    z1: np.ndarray
    z2: np.ndarray

    @classmethod
    def of(cls, counts: Mapping[str, np.ndarray]) -> _Table:
        return cls(int(np.asarray(counts["n"]).reshape(-1)[0]), np.asarray(counts["z1"], dtype=np.float64),
                   np.asarray(counts["z2"], dtype=np.float64))

    def linear(self, g: np.ndarray) -> tuple[float, float]:
        """The mean of ``g . z`` per hand and the variance of that mean (from the sums, so a
        combination that is the same in every hand, a zero-sum game's seat total, is exact)."""
        s1 = float(g @ self.z1)
        mean = s1 / self.n
        if self.n < 2:
            return mean, math.nan
        ss = float(g @ self.z2 @ g) - s1 * s1 / self.n
        return mean, max(ss, 0.0) / (self.n - 1) / self.n


@dataclass
class _Result:
    ev: float
    var: float
    win: float
    win_lo: float
    win_hi: float
    hands: int


# --------------------------------------------------------------------------------------
# The league
# --------------------------------------------------------------------------------------




def _label(spec, rules) -> str:
    """The preset name plus every option that differs from it (the player count aside)."""
    try:
        base = spec.resolve_rules(rules.name).to_dict()
    except (RulesError, TypeError, ValueError):
        return str(rules.name)
    d = rules.to_dict()
    changed = [f"{k}={d[k]}" for k in d if k not in ("name", "players") and d[k] != base.get(k)]
    return str(rules.name) + (" + " + ", ".join(changed) if changed else "")


def _seed_of(entropy: int, game: str, rules: Mapping[str, Any], players: int, policy: str, seat: int | None) -> int:
    """Seed of one table, from the league seed and what the table is (not from run order)."""
    key = zlib.crc32(json.dumps({"game": game, "rules": rules}, sort_keys=True, default=str).encode())
    ss = np.random.SeedSequence(
        [entropy & (2**128 - 1), key],
        spawn_key=(players, zlib.crc32(policy.encode()), players if seat is None else seat),
    )
    return int.from_bytes(ss.generate_state(4, np.uint32).tobytes(), "little")


def _interval(v: float, var: float, z: float) -> tuple[float, float]:
    half = z * math.sqrt(var) if math.isfinite(var) else math.nan
    return v - half, v + half


def policy_league(
    game: str,
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
) -> pd.DataFrame:
    """Head-to-head league of a game's built-in policies: win rate and EV per hand, with CIs.

    For every player count, each policy plays against a field of ``baseline`` at every seat
    in turn (the module docstring gives the design and the interval methods).

    Parameters
    ----------
    game : str
        Game id or alias of the registry (its atlas feed plays the hands).
    players : int or sequence of int, optional
        Player counts (default the game's default).
    rules : RuleSet, str or None
        The ruleset (anything the game's ``resolve_rules`` takes; default its default preset).
    hands : int
        Hands per policy and player count, at least 1, rounded up to a multiple of the player
        count (one equal share per seat); the ``hands`` column gives the hands behind each row.
    seed : int or None
        League seed (None: fresh entropy, recorded in ``attrs['seed_entropy']``).
    policies : str or sequence of str, optional
        Built-in policies of the game (default all of them).  ``'random'`` is always played,
        as the reference of ``value_of_play``; its rows appear only if listed.
    workers, progress, executor, scheduler, checkpoint
        As :func:`kaptai.core.runner.run_chunks`; the table does not depend on them.
    baseline : str, optional
        The field's policy (default the feed's :attr:`~kaptai.core.atlas.AtlasFeed.default_policy`).

    Returns
    -------
    pandas.DataFrame
        Columns :data:`LEAGUE_COLUMNS`; metrics :data:`LEAGUE_METRICS` in that order per
        policy (``value_of_play`` for every policy but ``'random'``, ``vs_best_other`` when the
        table has another policy).  ``attrs``: ``game``, ``rules`` (a dict), ``players``,
        ``seed_entropy``, ``version``, ``settings``, ``runs`` (every table: players, policy,
        seat (None: all seats baseline), seed, hands), ``confidence``, ``metrics``, ``unit``,
        ``reference_seat``, ``win_definition``, ``ev_method``.

    Raises
    ------
    RulesError
        An unknown game or one without rows, a bad player count, ruleset, policy or
        baseline, ``hands`` or ``workers`` < 1, a bad seed.
    """
    spec, feed = league_feed(game)
    if players is None:
        players = spec.default_players
    try:
        counts = tuple(dict.fromkeys(int(p) for p in _as_tuple(players, (int, np.integer))))
    except (TypeError, ValueError):
        raise RulesError(f"players={players!r}: expected a player count or a sequence of them") from None
    if not counts:
        raise RulesError("players is empty: give at least one player count")
    lo, hi = spec.players
    for p in counts:
        if not lo <= p <= hi:
            raise RulesError(f"players={p} is not supported: expected an integer from {lo} to {hi}")
    r = spec.resolve_rules(rules)
    label = _label(spec, r)
    hands = check_count("hands", hands, 1)
    workers = check_count("workers", workers, 1)
    entropy = check_seed(seed)
    known = tuple(spec.policies)

    def name_of(p: object, what: str) -> str:
        if isinstance(p, str) and p.strip() in known:
            return p.strip()
        raise RulesError(f"unknown {what} {p!r}: expected one of {', '.join(map(repr, known))}")

    base = name_of(baseline if baseline is not None else feed.default_policy, "baseline policy")
    pols: list[str] = []
    for p in _as_tuple(policies if policies is not None else known, (str,)):
        name = name_of(p, "policy")
        if name not in pols:
            pols.append(name)
    if not pols:
        raise RulesError("policies is empty: give at least one built-in policy")
    play_rows = feed.rows
    assert play_rows is not None  # league_feed refuses a feed without rows
    for P in counts:  # a table the game refuses (players, rules) fails here, before any work
        play_rows(AtlasJob(spec.name, AtlasVariant(label, r, P), tuple([base] * P)), plan_chunks(1, 1, 0)[0])
    ref = feed.random_policy
    played = pols + ([ref] if ref not in pols and ref in known else [])
    rules_dict = r.to_dict()

    # every table is one job of one run: one pool, one checkpoint, one progress count
    tables: list[tuple[int, str, int | None, int]] = []  # players, policy, seat, hands
    for P in counts:
        n_seat = -(-hands // P)
        for name in played:
            if name == base:
                tables.append((P, name, None, n_seat * P))
            else:
                tables.extend((P, name, s, n_seat) for s in range(P))
    jobs, runs = [], []
    for P, name, seat, n in tables:
        variant = AtlasVariant(label, r, P)
        pol = tuple([base] * P)
        if seat is not None:
            pol = pol[:seat] + (name,) + pol[seat + 1:]
        s = _seed_of(entropy, spec.name, rules_dict, P, name, seat)
        size = feed.strong_chunk_hands if (name == feed.strong_policy and feed.strong_chunk_hands) else feed.chunk_hands
        plan = plan_chunks(n, size, s)
        fp = {"kind": "kaptai.league", "game": spec.name, "players": P, "policy": name, "seat": seat, "hands": n,
              "seed": s, "chunk_hands": size}
        jobs.append(Job(_league_chunk, LazyTasks(_Make(spec.atlas, AtlasJob(spec.name, variant, pol)), plan),
                        fingerprint=fp, sizes=plan))
        runs.append({"players": P, "policy": name, "seat": seat, "seed": s, "hands": n})
    fingerprint = {"kind": "kaptai.league", "version": __version__, "game": spec.name, "rules": rules_dict,
                   "seed": entropy, "hands": hands}
    results = run_jobs(jobs, workers=workers, executor=executor, scheduler=scheduler, checkpoint=checkpoint,
                       fingerprint=fingerprint, progress=progress, desc=f"league {spec.name}")

    z = z_value(CONFIDENCE)
    out: list[dict[str, Any]] = []
    k = 0
    for P in counts:
        res: dict[str, _Result] = {}
        for name in played:
            if name == base:
                t = _Table.of(results[k])
                k += 1
                # the seat average: sum the seats (integer weights: a zero-sum game's sum is exactly 0), / P
                one, none = np.ones(P), np.zeros(P)
                ev, var = t.linear(np.concatenate([one, none]))
                win, wvar = t.linear(np.concatenate([none, one]))
                ev, var, win, wvar = ev / P, var / P**2, win / P, wvar / P**2
                wlo, whi = _interval(win, wvar, z)
                res[name] = _Result(ev, var, win, max(wlo, 0.0), min(whi, 1.0), t.n)
            else:
                ev = var = wins = 0.0
                trials = 0
                for s in range(P):
                    t = _Table.of(results[k])
                    k += 1
                    g = np.zeros(2 * P)
                    g[s] = 1.0
                    e_s, v_s = t.linear(g)
                    ev += e_s / P
                    var += v_s / P**2
                    wins += float(t.z1[P + s])
                    trials += t.n
                wlo, whi = wilson_interval(wins, trials, CONFIDENCE)
                res[name] = _Result(ev, var, wins / trials, float(wlo), float(whi), trials)
        for name in pols:
            e = res[name]
            row = {"game": spec.name, "rules": label, "players": P, "policy": name, "opponents": base,
                   "hands": e.hands, "method": "monte_carlo"}
            money = {**row, "unit": feed.unit}
            prob = {**row, "unit": "probability"}
            out.append({**prob, "metric": "win", "value": e.win, "ci_low": e.win_lo, "ci_high": e.win_hi})
            out.append({**row, "unit": "share", "metric": "win_share", "value": e.win * P, "ci_low": e.win_lo * P,
                        "ci_high": e.win_hi * P})
            lo_, hi_ = _interval(e.ev, e.var, z)
            out.append({**money, "metric": "ev_per_hand", "value": e.ev, "ci_low": lo_, "ci_high": hi_})
            if name != ref and ref in res:
                d = e.ev - res[ref].ev
                lo_, hi_ = _interval(d, e.var + res[ref].var, z)
                out.append({**money, "metric": "value_of_play", "value": d, "ci_low": lo_, "ci_high": hi_})
            others = [o for o in pols if o != name]
            if others:
                best = max(others, key=lambda o: (res[o].ev, -pols.index(o)))
                d = e.ev - res[best].ev
                lo_, hi_ = _interval(d, e.var + res[best].var, z)
                out.append({**money, "metric": "vs_best_other", "value": d, "ci_low": lo_, "ci_high": hi_,
                            "opponents": base})
    df = pd.DataFrame(out, columns=LEAGUE_COLUMNS)
    df = df.astype({"players": "int64", "hands": "int64"})
    df.attrs.update({
        "game": spec.name,
        "rules": rules_dict,
        "players": counts[0] if len(counts) == 1 else list(counts),
        "seed_entropy": entropy,
        "version": __version__,
        "settings": {"players": list(counts), "rules": [rules_dict], "hands": hands, "policies": pols,
                     "baseline": base},
        "runs": runs,
        "confidence": CONFIDENCE,
        "metrics": dict(LEAGUE_METRICS),
        "unit": feed.unit,
        "reference_seat": feed.reference_seat,
        "win_definition": feed.win,
        "ev_method": (
            "EV = the seat's mean net result per hand (the game's settlement, from its atlas feed), averaged over "
            "the rotated seats; normal intervals with the exact variance of the mean, independent tables' variances "
            "added; the baseline from one all-baseline table averaging its seats; win: Wilson interval of the "
            "pooled wins (baseline: normal interval of its seat average)"
        ),
    })
    return df


# --------------------------------------------------------------------------------------
# The command line: ``kaptai league <game>`` (declared in each game's commands.py)
# --------------------------------------------------------------------------------------


def policies_option(names: Sequence[str], default: Sequence[str] | None = None):
    """``--policies A,B,...``: built-in policies of the game, comma-separated (default all)."""
    from kaptai.spec import Opt

    from kaptai.core.cli_options import names_list

    allowed = tuple(names)
    check = names_list(allowed, "policy")

    return Opt("--policies", "str", default=",".join(default or allowed), metavar="POLICIES", check=check,
               help="policies, comma-separated: " + " | ".join(allowed))


def league_command(args: Any, game: Any):
    """``kaptai league <game>``: :func:`policy_league` from the parsed options, as an
    :class:`~kaptai.spec.Output` (every game's ``league`` entry calls this)."""
    from kaptai.spec import Output

    options = dict(getattr(args, "option", None) or [])
    if "players" in options:
        raise RulesError("-o players=... does not apply to a league: give the player counts with --players")
    rules = game.resolve_rules(getattr(args, "rules", None), **options)
    players = getattr(args, "players", None)
    df = policy_league(
        game.name, players=tuple(players) if isinstance(players, (list, tuple)) else players, rules=rules,
        hands=args.hands, seed=args.seed, policies=tuple(args.policies.split(",")), workers=args.workers,
        progress=args.progress, scheduler=args.scheduler, checkpoint=args.checkpoint,
    )
    unit = df.attrs.get("unit")
    title = (f"policy league against a field of {df.attrs['settings']['baseline']}, seats rotated: win rate, "
             f"EV per hand ({unit}), value of play and the difference from the best other policy, 95% intervals")
    return Output(df, title, ["rules", "players", "policy", "metric", "value", "ci_low", "ci_high", "hands"],
                  legend="\n".join([f"{k}: {v}" for k, v in LEAGUE_METRICS.items()]
                                   + [f"a win in {game.name}: {df.attrs.get('win_definition')}"]))
