"""Monte Carlo odds of Big Two (鋤大D): whole games played by policies, scored every way.

Exact enumeration (:mod:`kaptai.bigtwo.odds`) answers questions about the deal; who wins,
how many cards the losers are left with and what each seat pays come from playing games
with the engine (:mod:`kaptai.bigtwo.engine`, specified in ``docs/big-two-engine.md``) and
counting.  How a game is played does not depend on the scoring options (``scoring``,
``chao``, ``points_chao``, ``winner_bonus``, ``settlement``, ``stake``), so one simulation
scores the same games under several scoring variants at once: their differences carry no
Monte Carlo noise of their own (common random numbers).

Games are played in chunks of :data:`CHUNK_HANDS`; chunk ``i`` reads
``PCG64(SeedSequence(seed).spawn(n)[i])``, so a seed gives the same table for any number of
workers, and the first games of a longer run are the games of a shorter one.  Under
``first_lead='previous_winner'`` each chunk is one match: its first game is led by the
lowest card, the others by the previous winner.  The chunks run through
:func:`kaptai.core.runner.run_chunks` (worker processes, Dask, checkpoints).

Seats are reported two ways: ``relative_to='seat'`` (the seat number, 0..N-1 in play
order) and ``relative_to='leader'`` (0 = the seat that led the game, 1 = the next seat …).
A *finish position* orders the seats of a game by the winner first, then by fewest cards
left, ties by play order from the winner (``relative_to='finish'``).

Examples
--------
>>> from kaptai.bigtwo.simulate import simulate
>>> df = simulate(4, games=2000, seed=1, progress=False)
>>> win = df[(df.metric == "win") & (df.relative_to == "leader")]
>>> win.seat.tolist(), bool(abs(win.value.sum() - 1) < 1e-12)
([0, 1, 2, 3], True)
>>> net = df[(df.metric == "net_mean") & (df.relative_to == "seat")]
>>> bool(abs(net.value.sum()) < 1e-9)
True
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from kaptai._version import __version__
from kaptai.core.runner import add_counts_keep_log as _merge
from kaptai.core.options import check_seed as _entropy
from kaptai.core.options import check_count as _count
from kaptai.core.options import policy_label as _label
from kaptai.bigtwo import scoring
from kaptai.bigtwo.config import ACTIONS, LOG_COLUMNS, EngineConfig, make_config
from kaptai.bigtwo.policies import check_policies
from kaptai.bigtwo.engine import run_hands
from kaptai.bigtwo.rules import RuleSet, resolve_rules
from kaptai.core.runner import LazyTasks, plan_chunks, resume_seed, run_chunks
from kaptai.core.sampling import bit_generator
from kaptai.core.stats import mean_interval, sd_interval, wilson_interval
from kaptai.core.tables import MONTE_CARLO_COLUMNS, standard_attrs
from kaptai.errors import RulesError, quote_token

__all__ = [
    "CHUNK_HANDS",
    "CONFIDENCE",
    "METRICS",
    "FRAME_COLUMNS",
    "SCORING_OPTIONS",
    "simulate",
    "simulate_log",
    "run_tallies",
    "tallies_frame",
    "scoring_frame",
]

#: Games per chunk (one random stream each).  Part of what a seed means.
CHUNK_HANDS: int = 4096
#: Confidence level of every interval.
CONFIDENCE: float = 0.95
#: The rule options that change only how a finished game is scored (not how it is played).
#: ``bankroll`` is among them but the per-game tables settle every game without bankrolls:
#: graduation (畢業) only exists over a session of games (:func:`kaptai.bigtwo.scoring.run_bankrolls`).
SCORING_OPTIONS: tuple[str, ...] = ("scoring", "chao", "points_chao", "winner_bonus", "settlement", "stake", "bankroll")
#: Columns of :func:`simulate`'s table (the Kap Tai Shap ``simulate`` columns).
FRAME_COLUMNS: tuple[str, ...] = MONTE_CARLO_COLUMNS
#: Metric names of :func:`simulate` (money in units of ``stake``-weighted points).
METRICS: dict[str, str] = {
    "win": "P(the seat wins the game)",
    "cards_left": "distribution of the cards the seat holds when the game ends (level = cards; 0 = won)",
    "cards_left_mean": "mean cards the seat holds at the end (0 for the winner)",
    "penalty_mean": "mean penalty p of the seat (§5; the winner's is -winner_bonus)",
    "net_mean": "mean net result of the seat per game (settlement x stake)",
    "net_sd": "standard deviation of the seat's net in one game",
    "net_positive": "P(the seat's net > 0)",
    "nonwinner_positive": "P(some seat other than the winner ends the game with net > 0)",
    "nonwinner_positive_seat": "P(net > 0 | the seat did not win)",
    "liability_rate": "P(包牌: a 頂大 violator is liable)",
    "liability_cost_mean": "mean extra amount the liable seat pays because of 包牌, given 包牌",
    "violation_rate": "P(the game has at least one 頂大 violation; top_rule='liability')",
    "instant_win_rate": "P(an instant win; level 1 = dragon, 2 = four twos)",
    "redeal_rate": "P(the first deal of a game is redealt)",
    "redeals_mean": "mean number of redeals per game",
    "swap_rate": "P(the ♦3 holder swaps | a Malaysian swap decision was made)",
    "swap_win": "P(the deciding seat wins | it swapped (level 1) or kept (level 0)); first_lead='lowest_card'",
    "plays_mean": "mean number of plays in a game (passes not counted)",
    "turns_mean": "mean number of turns in a game (passes counted)",
}

_GAME = "big-two"


# --------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------





def scoring_variants(rules: RuleSet, scorings: Any = None) -> list[tuple[str, RuleSet]]:
    """``(label, RuleSet)`` pairs: ``rules`` with each scoring variant applied.

    Parameters
    ----------
    rules : RuleSet
        The table's rules (the play options).
    scorings : None, mapping or sequence
        None: only ``rules`` itself.  A mapping label -> dict of scoring options, or a
        sequence of such dicts (labelled by their options).  Only :data:`SCORING_OPTIONS`
        may appear.

    Examples
    --------
    >>> from kaptai.bigtwo.rules import RuleSet, resolve_rules
    >>> from kaptai.bigtwo.simulate import scoring_variants
    >>> [name for name, _ in scoring_variants(RuleSet(), [{}, {"chao": "eight"}])]
    ['hong_kong', 'chao=eight']
    """
    if scorings is None:
        return [(rules.name, rules)]
    if isinstance(scorings, Mapping):
        items = list(scorings.items())
    else:
        items = []
        for spec in scorings:
            if not isinstance(spec, Mapping):
                raise RulesError(f"a scoring variant must be a dict of options, got {spec!r}")
            label = ", ".join(f"{k}={v}" for k, v in spec.items()) or rules.name
            items.append((label, spec))
    out = []
    for label, spec in items:
        bad = sorted(set(spec) - set(SCORING_OPTIONS))
        if bad:
            raise RulesError(
                f"scoring variant {label!r} sets {', '.join(bad)}: only scoring options "
                f"({', '.join(SCORING_OPTIONS)}) can share one simulation"
            )
        out.append((str(label), rules.replace(**dict(spec))))
    return out


# --------------------------------------------------------------------------------------
# Tallies of one chunk
# --------------------------------------------------------------------------------------


def finish_order(cards_left: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Seat at each finish position: the winner, then fewest cards left, ties in play order.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.bigtwo.simulate import finish_order
    >>> finish_order(np.array([[5, 0, 5, 2]]), np.array([1])).tolist()
    [[1, 3, 2, 0]]
    """
    cards_left = np.asarray(cards_left)
    n, N = cards_left.shape
    seats = np.arange(N)
    offset = (seats[None, :] - np.asarray(winner)[:, None]) % N
    c = cards_left.astype(np.int64).copy()
    c[np.arange(n), winner] = -1
    return np.argsort(c * N + offset, axis=1, kind="stable")


def _empty_tallies(N: int, maxc: int, n_var: int) -> dict[str, np.ndarray]:
    z = lambda *s: np.zeros(s, dtype=np.int64)  # noqa: E731
    f = lambda *s: np.zeros(s, dtype=np.float64)  # noqa: E731
    t = {
        "games": z(1),
        "win_seat": z(N),
        "win_leader": z(N),
        "cards_seat": z(N, maxc + 1),
        "cards_leader": z(N, maxc + 1),
        "instant": z(3),
        "redeals": z(3),  # games redealt at least once, total redeals, sum of squares
        "swap": z(2, 2),  # [kept, swapped] x [games, decider won]
        "liable": z(1),
        "violation": z(1),
        "length": f(4),  # plays sum, plays sq, turns sum, turns sq
    }
    for rel in ("seat", "leader", "finish"):
        t[f"pen_{rel}"] = f(n_var, 2, N)
        t[f"net_{rel}"] = f(n_var, 4, N)  # power sums 1..4 (means, SDs and their intervals)
        t[f"pos_{rel}"] = z(n_var, N)
    t["nonwin_pos"] = z(n_var)
    t["nonwin_pos_n"] = z(n_var, 2, N)  # per seat (relative_to leader): [positive, non-winner games]
    t["liable_cost"] = f(n_var, 2)
    return t


def tally_outcomes(out: Mapping[str, np.ndarray], cfg: EngineConfig, variants: Sequence[RuleSet]) -> dict[str, np.ndarray]:
    """Counts and sums of one batch of games (what a chunk returns; merged by summing).

    Parameters
    ----------
    out : mapping
        Outcome arrays of :func:`kaptai.bigtwo.engine.run_hands`.
    cfg : EngineConfig
    variants : sequence of RuleSet
        Scoring variants to settle every game under.
    """
    N = cfg.players
    maxc = cfg.hand_size + cfg.leftover
    n = len(out["winner"])
    t = _empty_tallies(N, maxc, len(variants))
    if n == 0:
        return t
    winner = out["winner"].astype(np.int64)
    leader = out["leader"].astype(np.int64)
    cards = out["cards_left"].astype(np.int64)
    rows = np.arange(n)
    seats = np.arange(N)
    lead_perm = (leader[:, None] + seats[None, :]) % N  # seat at leader offset j
    fin_perm = finish_order(cards, winner)
    t["games"][0] = n
    t["win_seat"] += np.bincount(winner, minlength=N)
    t["win_leader"] += np.bincount((winner - leader) % N, minlength=N)
    for s in range(N):
        t["cards_seat"][s] += np.bincount(cards[:, s], minlength=maxc + 1)
        t["cards_leader"][s] += np.bincount(cards[rows, lead_perm[:, s]], minlength=maxc + 1)
    t["instant"] += np.bincount(out["instant"].astype(np.int64), minlength=3)
    rd = out["redeals"].astype(np.int64)
    t["redeals"] += [int((rd > 0).sum()), int(rd.sum()), int((rd * rd).sum())]
    sw = out["swapped"].astype(np.int64)
    for k in (0, 1):
        m = sw == k
        t["swap"][k] += [int(m.sum()), int((m & (winner == leader)).sum())]
    liable = out["liable"].astype(np.int64)
    has_liable = liable >= 0
    t["liable"][0] = int(has_liable.sum())
    t["violation"][0] = int((out["violations"] > 0).sum())
    plays = out["plays"].astype(np.float64)
    turns = out["turns"].astype(np.float64)
    t["length"] += [plays.sum(), (plays * plays).sum(), turns.sum(), (turns * turns).sum()]
    not_winner = np.ones((n, N), dtype=bool)
    not_winner[rows, winner] = False
    for i, rules in enumerate(variants):
        # one game settles without bankrolls: graduation is a property of sessions (scoring.run_bankrolls)
        rules = rules.replace(bankroll="off")
        p = scoring.penalties(out["cards_left"], rules, points_left=out["points_left"], winner=out["winner"],
                              instant=out["instant"])
        net = scoring.settle_many(p, rules, winner=out["winner"], liable=out["liable"])
        for rel, perm in (("seat", None), ("leader", lead_perm), ("finish", fin_perm)):
            pp = p if perm is None else p[rows[:, None], perm]
            nn = net if perm is None else net[rows[:, None], perm]
            t[f"pen_{rel}"][i] += [pp.sum(axis=0), (pp * pp).sum(axis=0)]
            n2 = nn * nn
            t[f"net_{rel}"][i] += [nn.sum(axis=0), n2.sum(axis=0), (n2 * nn).sum(axis=0), (n2 * n2).sum(axis=0)]
            t[f"pos_{rel}"][i] += (nn > 0).sum(axis=0)
        pos_nw = (net > 0) & not_winner
        t["nonwin_pos"][i] += int(pos_nw.any(axis=1).sum())
        t["nonwin_pos_n"][i, 0] += pos_nw[rows[:, None], lead_perm].sum(axis=0)
        t["nonwin_pos_n"][i, 1] += not_winner[rows[:, None], lead_perm].sum(axis=0)
        if has_liable.any():
            idx = np.nonzero(has_liable)[0]
            free = scoring.settle_many(p[idx], rules, winner=out["winner"][idx], liable=np.full(len(idx), -1))
            cost = free[np.arange(len(idx)), liable[idx]] - net[idx, liable[idx]]
            t["liable_cost"][i] += [cost.sum(), (cost * cost).sum()]
    return t


def _play_chunk(task) -> dict[str, np.ndarray]:
    cfg, pols, child, start, size, record, variants = task
    out, log = run_hands(cfg, pols, bit_generator(child), size, record=record)
    t = tally_outcomes(out, cfg, variants)
    if len(log):
        log = log.copy()
        log[:, 0] += start  # game numbers of the run, not of the chunk
    t["log"] = log
    return t



def run_tallies(
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    games: int = 10_000,
    seed: int | None = None,
    *,
    policies: Any = "greedy",
    scorings: Any = None,
    malaysian_swap: str = "policy",
    workers: int = 1,
    record: int = 0,
    progress: bool = True,
    scheduler: str | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike | None = None,
) -> tuple[dict[str, np.ndarray], np.ndarray, dict[str, Any]]:
    """Play the games and return the merged tallies, the log and run metadata.

    Parameters are those of :func:`simulate`.  The metadata holds ``seed_entropy``,
    ``config``, ``policies``, ``variants`` (list of (label, RuleSet)), ``engine`` and
    ``chunk_games``.
    """
    cfg = make_config(players, rules, malaysian_swap=malaysian_swap)
    check_malaysian_swap(cfg.players, cfg.rules, malaysian_swap)
    games = _count("games", games, 1)
    workers = _count("workers", workers, 1)
    record = _count("record", record, 0)
    pols = check_policies(policies, cfg.players)
    variants = scoring_variants(cfg.rules, scorings)
    seed = resume_seed(seed, checkpoint)
    entropy = _entropy(seed)
    rulesets = [r for _, r in variants]
    tasks = LazyTasks(  # made chunk by chunk: flat memory for any number of games
        lambda c: (cfg, pols, c.seed, c.start, c.size, max(0, min(record - c.start, c.size)), rulesets),
        plan_chunks(games, CHUNK_HANDS, entropy),
    )
    labels = [_label(p) for p in pols]
    fingerprint = {
        "game": _GAME,
        **cfg.fingerprint(),
        "games": games,
        "seed_entropy": entropy,
        "policies": labels,
        "variants": [[name, r.to_dict()] for name, r in variants],
        "chunk_games": CHUNK_HANDS,
        "record": record,
        "version": __version__,
    }
    merged = run_chunks(
        _play_chunk, tasks, merge=_merge, workers=workers, executor=executor, scheduler=scheduler,
        checkpoint=checkpoint, fingerprint=fingerprint, progress=progress, desc="big-two", unit="games",
    )
    log = merged.pop("log")
    meta = {
        "seed_entropy": entropy,
        "config": cfg,
        "policies": labels,
        "variants": variants,
        "engine": "compiled" if all(isinstance(p, str) for p in pols) else "reference",
        "chunk_games": CHUNK_HANDS,
    }
    return merged, log, meta


# --------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------


class _Rows:
    def __init__(self, confidence: float):
        self.rows: list[tuple] = []
        self.confidence = confidence

    def add(self, metric, seat, rel, level, value, lo=math.nan, hi=math.nan, samples=0, **extra):
        self.rows.append((extra, metric, seat, rel, level, float(value), float(lo), float(hi), int(samples)))

    def prop(self, metric, seat, rel, level, k, n, **extra):
        k, n = float(k), float(n)
        lo, hi = wilson_interval(k, n, self.confidence)
        self.add(metric, seat, rel, level, k / n if n else math.nan, float(lo), float(hi), n, **extra)

    def mean(self, metric, seat, rel, s, s2, n, **extra):
        m, lo, hi = mean_interval(s, s2, n, self.confidence)
        self.add(metric, seat, rel, None, float(m), float(lo), float(hi), n, **extra)

    def sd(self, metric, seat, rel, sums, n, **extra):
        sd, lo, hi = sd_interval(*sums, n, self.confidence)
        self.add(metric, seat, rel, None, float(sd), float(lo), float(hi), n, **extra)


def _game_rows(R: _Rows, t: Mapping[str, np.ndarray], cfg: EngineConfig) -> None:
    N = cfg.players
    G = int(t["games"][0])
    for rel, key in (("seat", "win_seat"), ("leader", "win_leader")):
        for s in range(N):
            R.prop("win", s, rel, None, t[key][s], G)
    for rel, key in (("seat", "cards_seat"), ("leader", "cards_leader")):
        hist = t[key]
        levels = np.arange(hist.shape[1], dtype=np.float64)
        for s in range(N):
            h = hist[s].astype(np.float64)
            R.mean("cards_left_mean", s, rel, (h * levels).sum(), (h * levels * levels).sum(), G)
        for s in range(N):
            for c in np.nonzero(hist[s])[0]:
                R.prop("cards_left", s, rel, int(c), hist[s, c], G)
    for level in (1, 2):
        if cfg.rules.instant_dragon or cfg.rules.instant_four_twos:
            R.prop("instant_win_rate", None, None, level, t["instant"][level], G)
    if cfg.rules.redeal != "off":
        R.prop("redeal_rate", None, None, None, t["redeals"][0], G)
        R.mean("redeals_mean", None, None, float(t["redeals"][1]), float(t["redeals"][2]), G)
    decided = int(t["swap"][0, 0] + t["swap"][1, 0])
    if decided:
        R.prop("swap_rate", None, None, None, t["swap"][1, 0], decided)
        if cfg.rules.first_lead == "lowest_card":
            for k in (0, 1):
                if t["swap"][k, 0]:
                    R.prop("swap_win", None, None, k, t["swap"][k, 1], t["swap"][k, 0])
    if cfg.rules.top_rule == "liability":
        R.prop("violation_rate", None, None, None, t["violation"][0], G)
    if cfg.rules.top_rule != "off":
        R.prop("liability_rate", None, None, None, t["liable"][0], G)
    L = t["length"]
    R.mean("plays_mean", None, None, L[0], L[1], G)
    R.mean("turns_mean", None, None, L[2], L[3], G)


def _scoring_rows(R: _Rows, t: Mapping[str, np.ndarray], cfg: EngineConfig, i: int, rules: RuleSet, **extra) -> None:
    N = cfg.players
    G = int(t["games"][0])
    for rel in ("seat", "leader", "finish"):
        pen, net, pos = t[f"pen_{rel}"][i], t[f"net_{rel}"][i], t[f"pos_{rel}"][i]
        for s in range(N):
            R.mean("penalty_mean", s, rel, pen[0, s], pen[1, s], G, **extra)
        for s in range(N):
            R.mean("net_mean", s, rel, net[0, s], net[1, s], G, **extra)
        for s in range(N):
            R.sd("net_sd", s, rel, net[:, s], G, **extra)
        for s in range(N):
            R.prop("net_positive", s, rel, None, pos[s], G, **extra)
    R.prop("nonwinner_positive", None, None, None, t["nonwin_pos"][i], G, **extra)
    for s in range(N):
        R.prop("nonwinner_positive_seat", s, "leader", None, t["nonwin_pos_n"][i, 0, s], t["nonwin_pos_n"][i, 1, s],
               **extra)
    n_liable = int(t["liable"][0])
    if n_liable:
        R.mean("liability_cost_mean", None, None, t["liable_cost"][i, 0], t["liable_cost"][i, 1], n_liable, **extra)


def tallies_frame(t: Mapping[str, np.ndarray], cfg: EngineConfig, variants, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """The table of :func:`simulate` from merged tallies (the first scoring variant's money rows)."""
    R = _Rows(confidence)
    _game_rows(R, t, cfg)
    _scoring_rows(R, t, cfg, 0, variants[0][1])
    return _frame(R.rows, cfg, cfg.rules.name)


def _frame(rows, cfg: EngineConfig, rules_name: str) -> pd.DataFrame:
    df = pd.DataFrame(
        [r[1:] for r in rows],
        columns=["metric", "seat", "relative_to", "level", "value", "ci_low", "ci_high", "samples"],
    )
    df.insert(0, "game", _GAME)
    df.insert(1, "rules", rules_name)
    df.insert(2, "players", cfg.players)
    df["method"] = "monte_carlo"
    df = df.astype({"seat": "Int64", "level": "Int64", "samples": "int64", "players": "int64"})
    df["relative_to"] = df["relative_to"].astype(object).where(df["relative_to"].notna(), None)
    return df[list(FRAME_COLUMNS)]


def scoring_frame(t: Mapping[str, np.ndarray], cfg: EngineConfig, variants, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Money metrics of every scoring variant: columns ``variant`` + :data:`FRAME_COLUMNS`."""
    parts = []
    for i, (label, rules) in enumerate(variants):
        R = _Rows(confidence)
        _scoring_rows(R, t, cfg, i, rules)
        df = _frame(R.rows, cfg, rules.name)
        df.insert(0, "variant", label)
        df["settlement"] = rules.settlement
        df["scoring"] = rules.scoring
        parts.append(df)
    return pd.concat(parts, ignore_index=True)


def check_malaysian_swap(players: Any, rules: Any, malaysian_swap: Any) -> None:
    """Refuse a Malaysian swap choice where no swap happens (RulesError).

    The swap (§2) exists only at 3 players with ``malaysian_3p=True``; ``'always'`` or
    ``'never'`` anywhere else would be silently ignored.

    Examples
    --------
    >>> from kaptai.bigtwo.simulate import check_malaysian_swap
    >>> check_malaysian_swap(3, {"players": 3, "malaysian_3p": True}, "always")
    >>> check_malaysian_swap(4, None, "always")
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: malaysian_swap='always' does not apply: the Malaysian swap is played only with 3 players and malaysian_3p=True (got 4 players, malaysian_3p=False)
    """
    if malaysian_swap == "policy":
        return
    r = resolve_rules(rules)
    if not (players == 3 and r.malaysian_3p):
        raise RulesError(
            f"malaysian_swap={quote_token(malaysian_swap)} does not apply: the Malaysian swap is played only with 3 "
            f"players and malaysian_3p=True (got {players} players, malaysian_3p={r.malaysian_3p})"
        )


def _attrs(meta: dict, t: Mapping[str, np.ndarray]) -> dict[str, Any]:
    cfg = meta["config"]
    return {
        "game": _GAME,
        "seed_entropy": meta["seed_entropy"],
        "version": __version__,
        "rules": cfg.rules.to_dict(),
        "malaysian_swap": cfg.malaysian_swap,
        "policies": meta["policies"],
        "games": int(t["games"][0]),
        "chunk_games": meta["chunk_games"],
        "engine": meta["engine"],
        "confidence": CONFIDENCE,
    }


def simulate(
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    games: int = 10_000,
    seed: int | None = None,
    *,
    policies: Any = "greedy",
    malaysian_swap: str = "policy",
    workers: int = 1,
    record: int = 0,
    progress: bool = True,
    scheduler: str | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike | None = None,
    hands: int | None = None,
) -> pd.DataFrame:
    """Play ``games`` games and estimate the odds and money per seat, with 95% intervals.

    Parameters
    ----------
    players : int, optional
        2-52 (default: the ruleset's, 4).
    rules : RuleSet, str, mapping or None
        Every option of ``docs/rules/big-two.md``; the scoring options price the games.
    games : int
        Number of games, at least 1 (``hands=`` is accepted as an alias, as in the
        Kap Tai Shap API).
    seed : int or None
        Seed of the run (None: fresh entropy, recorded in ``df.attrs['seed_entropy']``).
    policies : str, Policy or sequence
        ``'random'``, ``'greedy'`` or ``'heuristic'`` (compiled), a
        :class:`kaptai.bigtwo.policies.Policy` (pure Python, much slower), or one per seat.
    malaysian_swap : {'policy', 'always', 'never'}
        Who decides the swap under ``malaysian_3p``.
    workers, scheduler, executor, checkpoint
        Where the chunks run and where finished chunks are kept (see
        :mod:`kaptai.core.runner`); the table does not depend on them.
    record : int
        Keep the log of the first ``record`` games in ``df.attrs['log']`` (dict of columns
        :data:`kaptai.bigtwo.config.LOG_COLUMNS`, with an ``action_name`` column).
    progress : bool
        Progress bar on stderr.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`FRAME_COLUMNS`; metrics :data:`METRICS`; ``relative_to`` is
        ``'seat'``, ``'leader'``, ``'finish'`` or None.  Proportions have Wilson intervals,
        means normal ones; ``samples`` is the denominator.  ``df.attrs``: ``seed_entropy``,
        ``version``, ``rules``, ``policies``, ``games``, ``chunk_games``, ``engine``,
        ``confidence``, ``malaysian_swap``.

    Raises
    ------
    RulesError
        Bad players, rules, policies, games, workers, record or seed (named in the message).

    Examples
    --------
    >>> from kaptai.bigtwo.simulate import simulate
    >>> df = simulate(3, {"malaysian_3p": True}, games=500, seed=2, policies="greedy", progress=False)
    >>> float(df[df.metric == "swap_rate"].value.iloc[0])
    1.0
    >>> simulate(4, games=0)
    Traceback (most recent call last):
    ...
    kaptai.errors.RulesError: games=0 is not allowed: expected an integer >= 1
    """
    if hands is not None:
        games = hands
    t, log, meta = run_tallies(
        players, rules, games, seed, policies=policies, malaysian_swap=malaysian_swap, workers=workers,
        record=record, progress=progress, scheduler=scheduler, executor=executor, checkpoint=checkpoint,
    )
    df = tallies_frame(t, meta["config"], meta["variants"])
    df.attrs.update(_attrs(meta, t))
    df.attrs.update(standard_attrs(df))  # players, samples: the key names of every table
    if record:
        df.attrs["log"] = {k: v.tolist() for k, v in log_frame(log).items()}
    return df


def log_frame(log: np.ndarray) -> pd.DataFrame:
    """The engine log as a table with card text: columns :data:`LOG_COLUMNS` + ``action_name``, ``cards_text``.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.bigtwo.simulate import log_frame
    >>> log_frame(np.array([[0, 0, 1, 5, 1, 1]])).iloc[0][["action_name", "cards_text"]].tolist()
    ['lead', '3D']
    """
    from kaptai.bigtwo.cards import format_cards, mask_to_cards

    log = np.asarray(log, dtype=np.int64).reshape(-1, len(LOG_COLUMNS))
    df = pd.DataFrame(log, columns=list(LOG_COLUMNS))
    df["action_name"] = [ACTIONS[a] for a in df["action"]]
    df["cards_text"] = [format_cards(mask_to_cards(int(m) & ((1 << 52) - 1))) if m > 0 else "" for m in df["cards"]]
    return df


def simulate_log(
    players: int | None = None,
    rules: RuleSet | str | Mapping[str, Any] | None = None,
    games: int = 1,
    seed: int | None = None,
    *,
    policies: Any = "greedy",
    malaysian_swap: str = "policy",
) -> pd.DataFrame:
    """The full move list of the first ``games`` games of the run with this seed.

    Examples
    --------
    >>> from kaptai.bigtwo.simulate import simulate_log
    >>> log = simulate_log(4, games=1, seed=1)
    >>> log.action_name.iloc[0], log.action_name.iloc[-1]
    ('deal', 'win')
    """
    games = _count("games", games, 1)
    _, log, _ = run_tallies(players, rules, games, seed, policies=policies, malaysian_swap=malaysian_swap,
                            record=games, progress=False)
    return log_frame(log)
