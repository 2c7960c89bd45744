"""Monte Carlo odds of Kap Tai Shap (夾大十) and Kap Shap (夾十): whole hands, played.

Exact enumeration (:mod:`kaptai.kts.odds`) answers questions about the deal; everything
after it -- who wins, how soon, how often the wall runs out -- comes from playing hands
with the compiled engine (:mod:`kaptai.kts._engine`; event order in ``docs/kap-tai-shap-engine.md``) and
counting.

Every hand is independent: seat 0 is the dealer (莊家), the dice pick the first hand
(先手), and there is no dealer streak (連莊).  Hands are played in chunks of
:data:`CHUNK_HANDS`; chunk ``i`` reads ``PCG64(SeedSequence(seed).spawn(n)[i])``, so the
same seed gives the same table whatever the number of worker processes, and the first
hands of a longer run are the hands of a shorter one.  The chunks run through
:func:`kaptai.core.runner.run_chunks`: in this process, in local processes
(``workers=``), on a Dask cluster (``scheduler=``) or any executor (``executor=``), with
the same table on each; ``checkpoint=`` makes a long run resumable.

Functions
---------
:func:`simulate`
    Tidy table of estimates with 95% confidence intervals.
:func:`simulate_log`
    The full move list of the first hands of the same run (what ``record=`` keeps).
:func:`play_wall`
    One hand on a constructed wall, optionally with scripted decisions (tests, examples).

Examples
--------
>>> from kaptai.kts.simulate import simulate
>>> df = simulate(4, "traditional", 2000, seed=1, progress=False)
>>> win = df[(df.metric == "win") & (df.relative_to == "first_hand")]
>>> win.seat.tolist()
[0, 1, 2, 3]
>>> bool(win.value.sum() + df[df.metric == "drawn_hand"].value.iloc[0] == 1.0)
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from numbers import Integral
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.runner import add_counts_keep_log as _merge_chunk
from kaptai.core.options import check_seed as _entropy
from kaptai.core.options import check_count as _count
from kaptai.core.options import policy_label as _policy_label
from kaptai.core.runner import LazyTasks, plan_chunks, resume_seed, run_chunks
from kaptai.core.sampling import bit_generator
from kaptai.core.stats import mean_interval, wilson_interval
from kaptai.core.tables import MONTE_CARLO_COLUMNS, standard_attrs
from kaptai.errors import RulesError, quote_token
from kaptai.kts.engine import log_rows_to_array, run_hands
from kaptai.kts.config import ACTIONS, SCRIPT_CODE, EngineConfig, make_config, new_outcomes
from kaptai.kts.policies import (
    Policy,
    ScriptedPolicy,
    policy_codes,
    policy_objects,
    resolve_policies,
)
from kaptai.kts.rules import RuleSet, game_name
from kaptai.kts.tiles import TILES, parse_hand

__all__ = [
    "CHUNK_HANDS",
    "CONFIDENCE",
    "METRICS",
    "LOG_COLUMNS",
    "simulate",
    "simulate_log",
    "play_wall",
    "run_tallies",
    "tallies_frame",
]

#: Hands per chunk (one random stream each).  Part of what a seed means: changing it
#: changes the hands a seed produces.
CHUNK_HANDS: int = 2048
#: Confidence level of every interval.
CONFIDENCE: float = 0.95
#: Columns of the hand log.
LOG_COLUMNS: tuple[str, ...] = ("hand", "step", "turn", "seat", "action", "tile", "tile_name", "value")
#: Metric names of :func:`simulate` and what they are.
METRICS: dict[str, str] = {
    "win": "P(the seat wins the hand)",
    "win_natural": "P(the seat wins with its dealt hand; only the first hand can)",
    "win_claimed": "P(the seat wins on a claimed discard)",
    "win_self_drawn": "P(the seat wins on a tile drawn from the wall)",
    "drawn_hand": "P(the wall runs out, 流局; turn-limit hands included)",
    "turn_limit": "P(the hand hits the turn limit; only with turn='claim-or-draw')",
    "first_hand": "P(the seat is the first hand, 先手), relative to the dealer",
    "hand_length": "distribution of the turn in which the hand ends (level = turn)",
    "hand_length_mean": "mean turn in which the hand ends",
    "ready": "P(ready, 聽牌: some waiting tile has a copy outside the hand, after the seat's "
    "own turn `level` | hand still running); level 0 is the dealt hand (not for the first hand)",
    "score_mean": "mean winning score given a win (advanced settlement; seat None: any seat)",
    "score": "distribution of the winning score given a win (advanced settlement)",
}

_FRAME_COLUMNS = MONTE_CARLO_COLUMNS


# --------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------





# --------------------------------------------------------------------------------------
# Running chunks
# --------------------------------------------------------------------------------------


def _run_chunk(cfg: EngineConfig, pols, child, size: int, start: int, record: int):
    """Play one chunk (in this or a worker process); return (tallies, log rows array)."""
    return run_hands(cfg, pols, bit_generator(child), size, hand_offset=start, record=record)


def _play_chunk(task) -> dict[str, np.ndarray]:
    """Runner chunk function: the chunk's tallies plus its log rows under ``'log'``."""
    stats, log = _run_chunk(*task)
    return {**stats, "log": log}



def run_tallies(
    players: int,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    hands: int = 10_000,
    seed: int | None = None,
    *,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    workers: int = 1,
    record: int = 0,
    progress: bool = True,
    scheduler: str | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike | None = None,
) -> tuple[dict[str, np.ndarray], np.ndarray, dict[str, Any]]:
    """Play the hands and return the merged raw tallies (what :func:`simulate` tabulates).

    Parameters are those of :func:`simulate`.  The chunks run through
    :func:`kaptai.core.runner.run_chunks`.

    Returns
    -------
    (dict, numpy.ndarray, dict)
        Tallies (keys of :func:`kaptai.kts.config.new_outcomes`), the log rows of the
        first ``record`` hands as an int32 array ``(hand, step, turn, seat, action code,
        tile, value)``, and run metadata (``seed_entropy``, ``config``, ``policies``,
        ``engine``, ``chunk_hands``).
    """
    cfg = make_config(players, rules)
    hands = _count("hands", hands, 1)
    workers = _count("workers", workers, 1)
    record = _count("record", record, 0)
    resolved = resolve_policies(policies, cfg.players)
    seed = resume_seed(seed, checkpoint)
    entropy = _entropy(seed)
    tasks = LazyTasks(  # made chunk by chunk: flat memory for any number of hands
        lambda c: (cfg, resolved, c.seed, c.size, c.start, max(0, min(record - c.start, c.size))),
        plan_chunks(hands, CHUNK_HANDS, entropy),
    )
    labels = [_policy_label(p) for p in resolved]
    fingerprint = {
        "game": game_name(cfg.players),
        "players": cfg.players,
        "rules": cfg.rules.to_dict(),
        "hands": hands,
        "seed_entropy": entropy,
        "policies": labels,
        "chunk_hands": CHUNK_HANDS,
        "record": record,
        "version": __version__,
    }
    merged = run_chunks(
        _play_chunk, tasks, merge=_merge_chunk, workers=workers, executor=executor,
        scheduler=scheduler, checkpoint=checkpoint, fingerprint=fingerprint,
        progress=progress, desc="simulate",
    )
    log = merged.pop("log")
    total = new_outcomes(cfg.players)
    for key, arr in merged.items():
        total[key] += arr
    meta = {
        "seed_entropy": entropy,
        "config": cfg,
        "policies": labels,
        "engine": "compiled" if policy_codes(resolved) is not None else "reference",
        "chunk_hands": CHUNK_HANDS,
    }
    return total, log, meta


# --------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------


def _log_frame(log: np.ndarray) -> pd.DataFrame:
    names = np.array(ACTIONS, dtype=object)
    tile_names = np.array([str(t) for t in TILES] + [""], dtype=object)
    tiles = log[:, 5].astype(np.int64)
    df = pd.DataFrame(
        {
            "hand": log[:, 0].astype(np.int64),
            "step": log[:, 1].astype(np.int64),
            "turn": log[:, 2].astype(np.int64),
            "seat": log[:, 3].astype(np.int64),
            "action": names[log[:, 4]] if len(log) else np.array([], dtype=object),
            "tile": tiles,
            "tile_name": tile_names[tiles] if len(log) else np.array([], dtype=object),
            "value": log[:, 6].astype(np.int64),
        },
        columns=list(LOG_COLUMNS),
    )
    return df


def tallies_frame(
    stats: dict[str, np.ndarray], cfg: EngineConfig, confidence: float = CONFIDENCE
) -> pd.DataFrame:
    """Turn raw tallies into the tidy table of :func:`simulate` (without attrs).

    Parameters
    ----------
    stats : dict
        Merged tallies (:func:`run_tallies`).
    cfg : EngineConfig
        The table they were played on.
    confidence : float
        Level of the intervals.

    Returns
    -------
    pandas.DataFrame
    """
    P = cfg.players
    N = int(stats["hands"][0])
    rows: list[tuple] = []

    def prop(metric, seat, rel, level, k, n):
        k = np.asarray(k, dtype=np.float64)
        n = np.asarray(n, dtype=np.float64)
        lo, hi = wilson_interval(k, n, confidence)
        value = np.where(n > 0, k / np.where(n > 0, n, 1), np.nan)
        for i in range(value.size):
            rows.append(
                (
                    metric,
                    None if seat is None else seat[i],
                    rel,
                    None if level is None else level[i],
                    float(value.flat[i]),
                    float(lo.flat[i]),
                    float(hi.flat[i]),
                    int(n.flat[i]),
                )
            )

    def mean(metric, seat, rel, counts_by_level):
        """Mean of `level` weighted by counts, normal interval; one row."""
        levels = np.arange(counts_by_level.shape[-1], dtype=np.float64)
        n = counts_by_level.sum()
        s = (counts_by_level * levels).sum()
        s2 = (counts_by_level * levels * levels).sum()
        m, lo, hi = mean_interval(s, s2, n, confidence)
        rows.append((metric, seat, rel, None, float(m), float(lo), float(hi), int(n)))

    seats = list(range(P))
    for rel, key in (("first_hand", "first"), ("dealer", "dealer")):
        wins = stats[f"wins_{key}"]
        prop("win", seats, rel, None, wins.sum(axis=0), np.full(P, N))
        for k, name in enumerate(("win_natural", "win_claimed", "win_self_drawn")):
            prop(name, seats, rel, None, wins[k], np.full(P, N))
    prop("drawn_hand", None, None, None, [stats["ends"][0]], [N])
    if cfg.turn == "claim-or-draw":
        prop("turn_limit", None, None, None, [stats["ends"][1]], [N])
    prop("first_hand", seats, "dealer", None, stats["first_hand"], np.full(P, N))

    length = stats["length"]
    last = int(np.nonzero(length)[0].max()) if length.any() else 0
    levels = list(range(1, last + 1))
    prop("hand_length", None, None, levels, length[1 : last + 1], np.full(len(levels), N))
    mean("hand_length_mean", None, None, length)

    for rel, key in (("first_hand", "first"), ("dealer", "dealer")):
        ready, alive = stats[f"ready_{key}"], stats[f"alive_{key}"]
        for seat in seats:
            lv = np.nonzero(alive[seat])[0]
            prop("ready", [seat] * len(lv), rel, lv.tolist(), ready[seat, lv], alive[seat, lv])

    if cfg.rules.settlement == "advanced":
        for rel, key in (("first_hand", "first"), ("dealer", "dealer")):
            hist = stats[f"score_{key}"]
            for seat in seats:
                mean("score_mean", seat, rel, hist[seat])
            for seat in seats:
                lv = np.nonzero(hist[seat])[0]
                n = int(hist[seat].sum())
                prop("score", [seat] * len(lv), rel, lv.tolist(), hist[seat, lv], np.full(len(lv), n))
        overall = stats["score_first"].sum(axis=0)
        mean("score_mean", None, None, overall)
        lv = np.nonzero(overall)[0]
        prop("score", None, None, lv.tolist(), overall[lv], np.full(len(lv), int(overall.sum())))

    df = pd.DataFrame(
        rows,
        columns=["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high", "samples"],
    )
    df.insert(0, "game", game_name(P))
    df.insert(1, "rules", cfg.rules.name)
    df.insert(2, "players", P)
    df["method"] = "monte_carlo"
    df = df.astype({"seat": "Int64", "level": "Int64", "samples": "int64", "players": "int64"})
    df["relative_to"] = df["relative_to"].astype(object).where(df["relative_to"].notna(), None)
    return df[list(_FRAME_COLUMNS)]


def simulate(
    players: int,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    hands: int = 10_000,
    seed: int | None = None,
    *,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    workers: int = 1,
    record: int = 0,
    progress: bool = True,
    scheduler: str | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike | None = None,
) -> pd.DataFrame:
    """Play ``hands`` independent hands and estimate the odds, with confidence intervals.

    Parameters
    ----------
    players : int
        2-22 (2 is Kap Shap, 夾十).
    rules : RuleSet, str, mapping or None
        Rules (:func:`kaptai.kts.rules.resolve_rules`); every option of the rules page
        works, including ``claim``, ``turn``, ``keep_drawn`` and ``dice``.
    hands : int
        Number of hands, at least 1.
    seed : int or None
        Seed of the run (None: fresh entropy, recorded in ``df.attrs['seed_entropy']``).
    policies : str, Policy or sequence
        ``'random'``, ``'greedy'`` or ``'score'`` (compiled), a
        :class:`kaptai.kts.policies.Policy` (pure Python, ~100x slower), or one per seat,
        seat 0 being the dealer.  See :mod:`kaptai.kts.policies`.
    workers : int
        Worker processes (``concurrent.futures.ProcessPoolExecutor`` over chunks), or the
        size of the Dask ``LocalCluster`` with ``scheduler='local'``.  The result does not
        depend on it.
    record : int
        Keep the full move list of the first ``record`` hands in ``df.attrs['log']`` as a
        dict of columns (``pandas.DataFrame(df.attrs['log'])`` is the table
        :func:`simulate_log` returns; a dict keeps the attrs JSON- and parquet-friendly).
    progress : bool
        Show a ``tqdm`` progress bar on stderr (chunks of :data:`CHUNK_HANDS` hands done,
        rate and ETA).
    scheduler : str, optional
        Run the chunks on a Dask cluster: ``'tcp://host:port'`` (an existing scheduler,
        5 s to connect) or ``'local'`` (a ``LocalCluster`` of ``workers`` processes, closed
        afterwards).  Needs ``pip install kaptai[distributed]``.  Same table as locally.
    executor : concurrent.futures.Executor, optional
        Run the chunks on this executor (or a ``distributed.Client``); not shut down.
    checkpoint : str or path, optional
        Directory where every finished chunk is written at once; rerunning the same call
        resumes from it and returns the same table.  A checkpoint of other parameters is
        refused.  With ``seed=None`` a rerun reuses the checkpoint's recorded entropy.
        See :mod:`kaptai.core.runner`.

    Returns
    -------
    pandas.DataFrame
        One row per estimate, columns ``game, rules, players, metric, seat, relative_to,
        level, value, ci_low, ci_high, samples, method``.  ``seat`` is relative to the first
        hand (``relative_to='first_hand'``, 0 = the first hand) or to the dealer
        (``'dealer'``, 0 = the dealer), None for whole-hand metrics; ``level`` indexes
        distributions.  Proportions have Wilson 95% intervals, means normal ones;
        ``samples`` is the denominator.  The metrics are listed in :data:`METRICS`.
        ``df.attrs`` holds ``seed_entropy``, ``version``, ``rules`` (dict), ``policies``
        (by dealer seat), ``hands``, ``chunk_hands``, ``engine``, ``confidence``.

    Raises
    ------
    RulesError
        For bad players, rules, policies, hands, workers, record or seed; the message names
        the value.
    kaptai.core.runner.CheckpointError
        A checkpoint made with other parameters (the message names them), or a directory
        that cannot be written; raised before any hand is played.
    kaptai.core.runner.SchedulerError
        Dask missing or the scheduler unreachable; raised before any hand is played.
    kaptai.core.runner.ChunkError
        A chunk that kept failing after two retries (names the chunk).

    Examples
    --------
    >>> from kaptai.kts.simulate import simulate
    >>> df = simulate(2, "advanced", 500, seed=3, policies="score", progress=False)
    >>> sorted(set(df.metric))[:4]
    ['drawn_hand', 'first_hand', 'hand_length', 'hand_length_mean']
    >>> df.attrs["seed_entropy"], df.attrs["policies"]
    (3, ['score', 'score'])
    >>> simulate(4, hands=0)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: hands=0 is not allowed: expected an integer >= 1
    """
    stats, log, meta = run_tallies(
        players, rules, hands, seed, policies=policies, workers=workers, record=record,
        progress=progress, scheduler=scheduler, executor=executor, checkpoint=checkpoint,
    )
    cfg = meta["config"]
    df = tallies_frame(stats, cfg)
    df.attrs.update(
        {
            "seed_entropy": meta["seed_entropy"],
            "version": __version__,
            "rules": cfg.rules.to_dict(),
            "policies": meta["policies"],
            "hands": int(stats["hands"][0]),
            "chunk_hands": meta["chunk_hands"],
            "engine": meta["engine"],
            "confidence": CONFIDENCE,
        }
    )
    df.attrs.update(standard_attrs(df))  # game, players, samples: the key names of every table
    if record:
        df.attrs["log"] = {k: v.tolist() for k, v in _log_frame(log).items()}
    return df


def simulate_log(
    players: int,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    hands: int = 1,
    seed: int | None = None,
    *,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
) -> pd.DataFrame:
    """Full move list of the first ``hands`` hands of a run (same seed, same hands).

    Parameters
    ----------
    players, rules, seed, policies
        As for :func:`simulate`.
    hands : int
        Hands to play and log.

    Returns
    -------
    pandas.DataFrame
        One row per event, columns :data:`LOG_COLUMNS`: ``hand``, ``step`` (event number
        within the hand), ``turn`` (0 for the dice and the deal, 1 for the first hand's
        opening turn), ``seat`` (0 = dealer), ``action`` (``dice, deal, natural, claim,
        decline, claim_win, draw, self_drawn_win, discard, drawn_hand, turn_limit``),
        ``tile`` (id, -1 if none), ``tile_name`` (pips such as ``'6-6'``) and ``value``
        (dice total for ``dice``, score for a win, else -1).  The event order is documented
        in ``docs/kap-tai-shap-engine.md``.  ``df.attrs`` as for :func:`simulate`.

    Examples
    --------
    >>> from kaptai.kts.simulate import simulate_log
    >>> log = simulate_log(4, "traditional", 2, seed=1)
    >>> log.action.iloc[0], int((log.action == "deal").sum())
    ('dice', 74)
    >>> bool(log.groupby("hand").action.last().isin(
    ...     ["natural", "claim_win", "self_drawn_win", "drawn_hand"]).all())
    True
    """
    stats, log, meta = run_tallies(
        players, rules, hands, seed, policies=policies, record=hands, progress=False
    )
    df = _log_frame(log)
    df.attrs.update(
        {
            "seed_entropy": meta["seed_entropy"],
            "version": __version__,
            "rules": meta["config"].rules.to_dict(),
            "policies": meta["policies"],
            "hands": int(stats["hands"][0]),
        }
    )
    return df


def play_wall(
    players: int,
    rules: RuleSet | str | Mapping[str, Any] | None,
    wall: str | Sequence[int | str],
    first_hand: int,
    *,
    policies: str | Policy | Sequence[str | Policy] = "greedy",
    scripts: Mapping[int, Sequence[int]] | None = None,
    engine: str = "compiled",
    seed: int = 0,
) -> pd.DataFrame:
    """Play one hand on a constructed wall and return its log.

    Parameters
    ----------
    players : int
        Player count.
    rules : RuleSet, str, mapping or None
        Rules.
    wall : str or sequence
        Every tile of the sets in play, in dealing-then-drawing order (tile ids or tokens,
        see :func:`kaptai.kts.tiles.parse_hand`): the first hand's 10 (8) tiles, the next
        seat's 9 (7), ..., then the wall.
    first_hand : int
        Seat of the first hand (no dice are thrown; the dice event has value -1).
    policies : str, Policy or sequence
        As for :func:`simulate`.
    scripts : mapping of seat to sequence of int, optional
        Seats that play scripted decisions (:class:`kaptai.kts.policies.ScriptedPolicy`):
        at each decision of the seat, the next entry (claim: tile id or -1 to decline;
        discard: tile id); greedy once the script is used up.
    engine : {'compiled', 'reference'}
        Which engine plays.
    seed : int
        Seed of the random stream (used by ``'random'`` policies only).

    Returns
    -------
    pandas.DataFrame
        The hand log (columns :data:`LOG_COLUMNS`, ``hand`` = 0).

    Raises
    ------
    RulesError
        For a wall that is not exactly the tiles of the sets, a bad seat or engine.
    ValueError
        When a scripted decision is not legal.
    """
    cfg = make_config(players, rules)
    ids = list(parse_hand(wall))
    full = sorted(t for t in range(len(cfg.copies)) for _ in range(cfg.copies[t]))
    if sorted(ids) != full:
        raise RulesError(
            f"the wall has {len(ids)} tiles but must hold exactly the {cfg.n_tiles} tiles of "
            f"{cfg.sets} set(s), each once"
        )
    if isinstance(first_hand, bool) or not isinstance(first_hand, Integral) or not 0 <= first_hand < players:
        raise RulesError(f"first_hand={quote_token(first_hand)}: expected a seat 0-{players - 1}")
    if engine not in ("compiled", "reference"):
        raise RulesError(f"engine={quote_token(engine)}: expected 'compiled' or 'reference'")
    resolved = list(resolve_policies(policies, cfg.players))
    scripts = dict(scripts or {})
    for seat in scripts:
        if not 0 <= seat < players:
            raise RulesError(f"scripts has seat {quote_token(seat)}: expected seats 0-{players - 1}")
    bg = np.random.PCG64(_entropy(seed))
    if engine == "compiled":
        codes = policy_codes(resolved)
        if codes is None:
            raise RulesError("custom Python policies need engine='reference'")
        codes = [SCRIPT_CODE if s in scripts else c for s, c in enumerate(codes)]
        script_list = [list(scripts.get(s, ())) for s in range(players)]
        from kaptai.kts import _engine

        _, log = _engine.run_hands(
            cfg, codes, bg, 1, 0, 1, wall=np.asarray(ids), first_hand=int(first_hand),
            scripts=script_list,
        )
    else:
        objs = policy_objects(resolved)
        for s, script in scripts.items():
            objs[s] = ScriptedPolicy(script)
        from kaptai.kts import engine_reference

        rows: list[tuple] = []
        engine_reference.play_hand(
            cfg, objs, engine_reference.RandomStream(bg), log=rows, wall=ids,
            first_hand=int(first_hand),
        )
        log = log_rows_to_array(rows)
    return _log_frame(log)
