"""The rule-design search: rule variants compared on the same deals, the front of what a designer wants.

A game gives a :class:`DesignGame`: the rule options to explore (``space``, each with the values
to try, the default first), the measures (:class:`DesignMeasure`: a mean of a per-deal column,
a ratio of two, or a column per swing) and ``rows(variant, chunk)``, which plays the chunk's
deals under one variant and returns one row per deal.  Deal ``i`` of a chunk is the same deal
under every variant wherever the deal does not depend on the variant (common random numbers:
the game says where it cannot be shared, :attr:`DesignGame.notes`), so every variant's measure
is compared with the default variant's as the interval of the **paired difference** over the
same deals.

Search (:func:`design`):

* ``'grid'``: every variant of the space on ``hands`` deals;
* ``'halving'`` (successive halving, as hyper-parameter searches do): every variant on
  ``start_hands`` deals; the better half (by Pareto layer of the front measures, then by the
  mean rank over them) is kept and played on the same deals **and** as many new ones; and so on
  until ``hands`` deals.  The default variant is always kept besides them (it is the reference
  of the differences), so the last round has at least one other variant.

Intervals are 95% normal intervals of the mean over deals (the deal is the unit, so a deal's
hands are one observation), through the influence function of the measure (delta method for a
ratio or a share of the swing); a difference to the default is the interval of the mean of the
paired per-deal differences of the influence values.  They are marginal (one measure, one
variant at a time), not simultaneous.

The front (:func:`pareto_front`) is the set of variants of the last round that no other one
beats on every front measure (``goal``: ``'zero'`` = the nearer 0 the better, ``'min'``,
``'max'``), by point estimate; each row says whether its interval contains 0.

Examples
--------
>>> import numpy as np
>>> from kaptai.core.design import DesignVariant, measure_estimates, DesignMeasure
>>> rows = {"x": np.array([1.0, 2.0, 3.0, 2.0]), "sq": np.array([4.0, 4.0, 4.0, 4.0])}
>>> est = measure_estimates(DesignMeasure("x_share", "per_swing", ("x", "sq")), rows)
>>> round(est[0], 3)
1.0
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kaptai.errors import RulesError, UsageError, first_repeat, quote_token

__all__ = [
    "GOALS", "KINDS", "SEARCHES", "DesignMeasure", "DesignVariant", "DesignGame", "grid_variants",
    "measure_estimates", "influence", "pareto_front", "halving_schedule", "design", "DESIGN_COLUMNS",
]

#: What a front measure wants: the nearer 0 the better, the smaller, the larger; ``report``: not
#: in the front.
GOALS: tuple[str, ...] = ("zero", "min", "max", "report")
#: How a measure is computed from the per-deal columns.
KINDS: tuple[str, ...] = ("mean", "ratio", "per_swing", "root_mean")
#: The search strategies.
SEARCHES: tuple[str, ...] = ("halving", "grid")
#: Columns of :func:`design`'s table.
DESIGN_COLUMNS: tuple[str, ...] = (
    "game", "variant", "round", "deals", "measure", "value", "ci_low", "ci_high", "diff", "diff_low", "diff_high",
    "unit", "goal", "front", "zero_in_ci",
)
_Z = 1.959963984540054


@dataclass(frozen=True)
class DesignMeasure:
    """One measure of a variant, from its per-deal rows.

    Attributes
    ----------
    name : str
    kind : {'mean', 'ratio', 'per_swing', 'root_mean'}
        ``mean``: the mean of column ``cols[0]``; ``root_mean``: its square root (the swing,
        from the mean square result); ``ratio``: ``sum(cols[0]) / sum(cols[1])``;
        ``per_swing``: ``mean(cols[0]) / sqrt(mean(cols[1]))`` (``cols[1]`` the per-deal mean
        square result of a seat, so the denominator is the swing, the SD of one seat's result
        about 0).
    cols : tuple of str
    goal : {'zero', 'min', 'max', 'report'}
    unit : str
    description : str
    """

    name: str
    kind: str
    cols: tuple[str, ...]
    goal: str = "report"
    unit: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise RulesError(f"design measure {self.name!r}: kind {quote_token(self.kind)} is not one of {KINDS}")
        if self.goal not in GOALS:
            raise RulesError(f"design measure {self.name!r}: goal {quote_token(self.goal)} is not one of {GOALS}")
        want = 1 if self.kind in ("mean", "root_mean") else 2
        if len(self.cols) != want:
            raise RulesError(f"design measure {self.name!r}: {self.kind} takes {want} column(s), got {self.cols!r}")


@dataclass(frozen=True)
class DesignVariant:
    """A rule variant: the options that differ from the game's base rules, as sorted pairs
    (hashable and picklable); the empty tuple is the default variant.

    >>> DesignVariant((("b", 2), ("a", 1))).name
    'a=1,b=2'
    >>> DesignVariant(()).name
    'default'
    """

    options: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(sorted(self.options)))

    @property
    def name(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.options) or "default"

    def as_dict(self) -> dict[str, Any]:
        return dict(self.options)


@dataclass(frozen=True)
class DesignGame:
    """What a game gives the rule-design search.

    Attributes
    ----------
    game : str
        Registry id.
    space : mapping option -> tuple of values
        The options explored by default and their values, the rules' default first.
    options : mapping option -> tuple of values
        Every option the search may explore (``--options`` picks among them), the default first.
    measures : tuple of DesignMeasure
    rows : callable
        ``rows(variant, chunk) -> dict`` of per-deal arrays (one entry per deal of the chunk,
        deal ``i`` the same deal under every variant wherever the deal does not depend on it).
        A module-level function (pickled to worker processes).
    chunk_hands : int
        Deals per chunk (the unit of progress, checkpoints and halving rounds).
    notes : str
        How the deals are shared, where they cannot be, what is played (for the table's attrs
        and the docs).
    valid : callable, optional
        ``valid(options) -> bool``: variants of the grid to skip (contradictory options).
    """

    game: str
    space: Mapping[str, tuple]
    options: Mapping[str, tuple]
    measures: tuple[DesignMeasure, ...]
    rows: Callable[[DesignVariant, Any], Mapping[str, np.ndarray]]
    chunk_hands: int = 50
    notes: str = ""
    valid: Callable[[Mapping[str, Any]], bool] | None = field(default=None, compare=False)

    def measure(self, name: str) -> DesignMeasure:
        for m in self.measures:
            if m.name == name:
                return m
        raise RulesError(f"{self.game}: no design measure {name!r}")


def grid_variants(game: DesignGame, options: Sequence[str] | None = None) -> list[DesignVariant]:
    """Every combination of the explored options' values, the default variant first.

    >>> g = DesignGame("toy", {"a": (0, 1), "b": ("x", "y", "z")}, {"a": (0, 1), "b": ("x", "y", "z")}, (),
    ...                rows=lambda v, c: {})
    >>> [v.name for v in grid_variants(g)][:3], len(grid_variants(g))
    (['default', 'b=y', 'b=z'], 6)
    """
    names = list(game.space) if options is None else list(options)
    twice = first_repeat(names)
    if twice is not None:
        raise UsageError(f"{game.game}: the option {quote_token(twice)} is given twice: give each option once")
    for n in names:
        if n not in game.options:
            raise UsageError(f"{game.game}: {quote_token(n)} is not an option the design search explores: "
                             f"expected some of {', '.join(game.options)}")
    out: list[DesignVariant] = []
    for values in itertools.product(*(game.options[n] for n in names)):
        opts = {n: v for n, v in zip(names, values) if v != game.options[n][0]}
        if game.valid is not None and not game.valid(opts):
            continue
        out.append(DesignVariant(tuple(opts.items())))
    return out


def influence(measure: DesignMeasure, rows: Mapping[str, np.ndarray]) -> tuple[float, np.ndarray]:
    """The measure's value and its per-deal influence values (their mean is 0; their SD over
    sqrt(n) is the measure's standard error, delta method for a ratio or share).

    >>> v, u = influence(DesignMeasure("r", "ratio", ("a", "b")), {"a": np.array([1.0, 3.0]), "b": np.array([2.0, 2.0])})
    >>> v, u.tolist()
    (1.0, [-0.5, 0.5])
    """
    a = np.asarray(rows[measure.cols[0]], dtype=np.float64)
    if measure.kind == "mean":
        v = float(a.mean()) if len(a) else float("nan")
        return v, a - v
    if measure.kind == "root_mean":
        ma = float(a.mean()) if len(a) else float("nan")
        if not ma > 0:
            return float("nan"), np.full(len(a), np.nan)
        return math.sqrt(ma), (a - ma) / (2 * math.sqrt(ma))
    b = np.asarray(rows[measure.cols[1]], dtype=np.float64)
    ma, mb = float(a.mean()), float(b.mean())
    if measure.kind == "ratio":
        if mb == 0:
            return float("nan"), np.full(len(a), np.nan)
        v = ma / mb
        return v, (a - v * b) / mb
    if mb <= 0:
        return float("nan"), np.full(len(a), np.nan)
    s = math.sqrt(mb)
    v = ma / s
    return v, (a - ma) / s - ma * (b - mb) / (2 * mb * s)


def _interval(v: float, u: np.ndarray) -> tuple[float, float]:
    n = len(u)
    if n < 2 or not np.isfinite(v):
        return float("nan"), float("nan")
    se = float(np.std(u, ddof=1)) / math.sqrt(n)
    return v - _Z * se, v + _Z * se


def measure_estimates(measure: DesignMeasure, rows: Mapping[str, np.ndarray],
                      reference: Mapping[str, np.ndarray] | None = None) -> tuple[float, ...]:
    """``(value, lo, hi)``, and with ``reference`` (the default variant's rows on the same deals)
    also ``(diff, diff_lo, diff_hi)``: the paired difference variant - reference.

    >>> m = DesignMeasure("x", "mean", ("x",))
    >>> a, b = {"x": np.array([1.0, 2.0, 3.0])}, {"x": np.array([0.0, 1.0, 2.5])}
    >>> [round(x, 3) for x in measure_estimates(m, a, b)]
    [2.0, 0.868, 3.132, 0.833, 0.507, 1.16]
    """
    v, u = influence(measure, rows)
    lo, hi = _interval(v, u)
    if reference is None:
        return v, lo, hi
    n = len(u)
    w, ur = influence(measure, {k: np.asarray(x)[:n] for k, x in reference.items()})
    d = v - w
    dlo, dhi = _interval(d, u - ur)
    return v, lo, hi, d, dlo, dhi


def _score(measure: DesignMeasure, value: float) -> float:
    """Smaller is better."""
    if not np.isfinite(value):
        return math.inf
    return abs(value) if measure.goal == "zero" else (value if measure.goal == "min" else -value)


def pareto_front(scores: np.ndarray) -> np.ndarray:
    """Boolean mask of the rows no other row dominates (every score <=, one <; smaller is better).

    >>> pareto_front(np.array([[1, 2], [2, 1], [2, 2], [0, 3]])).tolist()
    [True, True, False, True]
    """
    s = np.asarray(scores, dtype=np.float64)
    n = len(s)
    keep = np.ones(n, dtype=bool)
    for i in range(n):
        dom = np.all(s <= s[i], axis=1) & np.any(s < s[i], axis=1)
        keep[i] = not dom.any()
    return keep


def _layers(scores: np.ndarray) -> np.ndarray:
    """Pareto layer of each row (0 = the front)."""
    layer = np.full(len(scores), -1)
    left = np.arange(len(scores))
    k = 0
    while len(left):
        f = pareto_front(scores[left])
        layer[left[f]] = k
        left = left[~f]
        k += 1
    return layer


def halving_schedule(variants: int, start: int, hands: int, chunk: int) -> list[tuple[int, int]]:
    """``(variants, deals)`` of each round: deals double (whole chunks) up to ``hands``, the
    variants halve (at least 1) until the last round, which plays ``hands`` deals.

    >>> halving_schedule(24, 200, 1600, 50)
    [(24, 200), (12, 400), (6, 800), (3, 1600)]
    >>> halving_schedule(5, 100, 100, 50)
    [(5, 100)]
    """
    def whole(x: int) -> int:
        return max(chunk, -(-x // chunk) * chunk) if x < hands else hands

    out = []
    v, d = variants, whole(min(start, hands))
    while True:
        out.append((v, d))
        if d >= hands:
            return out
        v, d = max(1, -(-v // 2)), whole(2 * d)


def _merge(total: dict[str, np.ndarray], part: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    out = dict(total)
    for k, v in part.items():
        out[k] = np.concatenate([out[k], v]) if k in out else np.asarray(v)
    return out


def _task(task: tuple) -> dict[str, np.ndarray]:
    rows, index, variant, chunk = task
    got = rows(variant, chunk)
    return {f"{index}|{k}": np.asarray(v, dtype=np.float64) for k, v in got.items()}


def _rank(game: DesignGame, names: Sequence[int], data: Mapping[int, Mapping[str, np.ndarray]]) -> list[int]:
    """Variant indices, best first: Pareto layer on the front measures, then mean rank."""
    front = [m for m in game.measures if m.goal != "report"]
    sc = np.array([[_score(m, influence(m, data[i])[0]) for m in front] for i in names], dtype=np.float64)
    if not len(front):
        return list(names)
    layers = _layers(np.where(np.isfinite(sc), sc, 1e300))
    ranks = np.mean([np.argsort(np.argsort(sc[:, j], kind="stable"), kind="stable") for j in range(sc.shape[1])],
                    axis=0)
    order = sorted(range(len(names)), key=lambda i: (layers[i], ranks[i], i))
    return [names[i] for i in order]


def design(game: DesignGame, *, hands: int = 1600, start_hands: int | None = None, search: str = "halving",
           options: Sequence[str] | None = None, seed: int | None = 0, workers: int = 1,
           progress: bool | str = False, checkpoint: str | None = None, executor: Any = None,
           scheduler: str | None = None) -> Any:
    """Run the rule-design search of ``game``; a tidy table, one row per variant and measure.

    Parameters
    ----------
    game : DesignGame
    hands : int
        Deals of the last round (every variant under ``'grid'``).
    start_hands : int, optional
        Deals of the first round of ``'halving'`` (default ``hands // 8``, at least one chunk).
    search : {'halving', 'grid'}
    options : sequence of str, optional
        The options to explore (default :attr:`DesignGame.space`).
    seed : int or None
        Same seed, same deals and same table, for any number of workers.
    workers, progress, checkpoint, executor, scheduler
        As :func:`kaptai.core.runner.run_chunks` (each round checkpoints in its own
        sub-directory ``round-<r>`` of ``checkpoint``).

    Returns
    -------
    pandas.DataFrame
        :data:`DESIGN_COLUMNS`; ``round`` is the last round a variant played (0-based),
        ``deals`` its deals; ``diff*`` the paired difference to the default variant on the
        same deals; ``front`` whether the variant is on the front of the last round;
        ``zero_in_ci`` whether the measure's interval contains 0.  ``df.attrs``: the game,
        search, seed, schedule, notes.

    Examples
    --------
    >>> import numpy as np
    >>> from kaptai.core.design import DesignGame, DesignMeasure, design
    >>> def rows(variant, chunk):   # a toy game: option 'bias' shifts a seat's edge, deals shared
    ...     rng = np.random.default_rng(chunk.seed)
    ...     x = rng.normal(size=chunk.size)
    ...     return {"edge": x + variant.as_dict().get("bias", 1), "sq": x * x + 1}
    >>> toy = DesignGame("toy", {"bias": (1, 0, 2)}, {"bias": (1, 0, 2)},
    ...                  (DesignMeasure("edge", "mean", ("edge",), "zero"),), rows=rows, chunk_hands=20)
    >>> df = design(toy, hands=80, start_hands=20)
    >>> df[df.front].variant.tolist(), int(df[df.variant == "bias=0"].deals.iloc[0])
    (['bias=0'], 80)
    """
    import pandas as pd

    from kaptai.core.runner import plan_chunks, run_chunks
    from kaptai.core.sampling import seed_entropy

    if search not in SEARCHES:
        raise UsageError(f"search={quote_token(search)} is not allowed: expected one of {', '.join(SEARCHES)}")
    for name, given in (("hands", hands), ("start_hands", start_hands)):
        if given is not None and (isinstance(given, bool) or not isinstance(given, (int, np.integer)) or given < 1):
            raise UsageError(f"{name}={quote_token(given)} is not allowed: expected an integer >= 1")
    if start_hands is not None and search == "halving" and start_hands > hands:
        raise UsageError(f"start_hands={quote_token(start_hands)} is more than hands={quote_token(hands)}: the first "
                         "round cannot play more deals than the last")
    variants = grid_variants(game, options)
    if len(variants) < 2:
        raise UsageError(f"{game.game}: the options {', '.join(options or game.space)} give one variant only")
    entropy = seed_entropy(seed)
    chunk = int(game.chunk_hands)
    plan = plan_chunks(int(hands), chunk, entropy)
    if search == "grid":
        schedule = [(len(variants), int(hands))]
    else:
        start = start_hands if start_hands is not None else max(chunk, int(hands) // 8)
        schedule = halving_schedule(len(variants), int(start), int(hands), chunk)
    data: dict[int, dict[str, np.ndarray]] = {i: {} for i in range(len(variants))}
    last_round = {i: 0 for i in range(len(variants))}
    alive = list(range(len(variants)))
    for r, (keep, deals) in enumerate(schedule):
        if r > 0:
            ranked = _rank(game, alive, data)
            alive = sorted({0, *[i for i in ranked if i != 0][:keep]})
        n_chunks = -(-deals // chunk)
        tasks = []
        for i in alive:
            done = len(next(iter(data[i].values()))) if data[i] else 0
            for c in range(done // chunk, n_chunks):
                tasks.append((game.rows, i, variants[i], plan[c]))
        sizes = [t[3].size for t in tasks]
        got = run_chunks(_task, tasks, merge=_merge, workers=workers, executor=executor, scheduler=scheduler,
                         checkpoint=None if checkpoint is None else f"{checkpoint}/round-{r}",
                         progress=progress, desc=f"design {game.game} round {r + 1}/{len(schedule)} "
                                                 f"({len(alive)} variants)", sizes=sizes, unit="deals")
        for key, arr in got.items():
            i_s, col = key.split("|", 1)
            i = int(i_s)
            data[i][col] = np.concatenate([data[i][col], arr]) if col in data[i] else arr
        for i in alive:
            last_round[i] = r
    final = alive
    front_measures = [m for m in game.measures if m.goal != "report"]
    n_final = min(len(next(iter(data[i].values()))) for i in final)
    fin = {i: {k: v[:n_final] for k, v in data[i].items()} for i in final}
    on_front = set()
    if front_measures:
        sc = np.array([[_score(m, influence(m, fin[i])[0]) for m in front_measures] for i in final])
        mask = pareto_front(np.where(np.isfinite(sc), sc, 1e300))
        on_front = {i for i, f in zip(final, mask) if f}
    rows_out = []
    for i, v in enumerate(variants):
        d = data[i]
        n = len(next(iter(d.values())))
        ref = {k: x[:n] for k, x in data[0].items()}
        for m in game.measures:
            val, lo, hi, dv, dlo, dhi = measure_estimates(m, d, ref)
            if i == 0:
                dv, dlo, dhi = 0.0, 0.0, 0.0
            rows_out.append((game.game, v.name, last_round[i], n, m.name, val, lo, hi, dv, dlo, dhi, m.unit, m.goal,
                             i in on_front, bool(lo <= 0 <= hi) if np.isfinite(lo) else False))
    df = pd.DataFrame(rows_out, columns=list(DESIGN_COLUMNS))
    df.attrs.update({"game": game.game, "search": search, "seed": entropy, "seed_entropy": entropy,
                     "samples": int(hands), "hands": int(hands),
                     "schedule": [list(s) for s in schedule], "options": list(options or game.space),
                     "variants": len(variants), "notes": game.notes,
                     "measures": {m.name: m.description for m in game.measures}})
    return df
