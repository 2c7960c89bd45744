"""Review of a game record, decision by decision: ``kaptai review <game> FILE`` (no game names here).

A game's ``kaptai.<package>.play`` module (the *adapter*) supplies two functions:

* ``decisions(record, hands)`` -- replays the chosen hands of a parsed record in the game's
  reference engine and yields a :class:`Decision` for every choice with two or more legal
  options, with the view of the deciding seat and the move it made;
* ``evaluate(decision, samples=, seed=)`` -- the game's advisor on that position: each option's
  label, value, paired difference to the best option (``vs_best``) with its 95% interval, and
  P(win) where the advisor gives it; a sampling advisor also hands over the paired sums behind
  its table (``paired``, a :class:`kaptai.core.advise.PairedResult`) and each label's option in
  them (``index``, :func:`match_options`).

This module turns them into one row per decision (the move made, the advisor's best move, the
*loss* of the move made with a paired 95% interval, P(win) before = under the best move and
after = under the move made), and summaries per hand and per record: decisions, the share that
matched the best move, the mean loss a decision with an interval, the largest mistakes.

*Cross-fitting* (the default where the advisor samples): the advisor is asked twice about each
decision, on two independent sets of ``samples`` layouts.  The first set (A) chooses the best
option; the second (B) measures: loss = V_B(best_A) - V_B(made), with the paired interval of
that difference on B's layouts, and P(win) from B.  Choosing and measuring on the same layouts
(``cross_fit=False``: loss = minus the made move's ``vs_best``) makes every loss at least 0 and
biases the mean loss of a player as good as the advisor upward (the maximum of noisy values is
above the value of the option it picks); cross-fitted, that player's expected loss is 0 and a
single loss can be negative.  An exact advisor (no ``paired`` in its answer: Kap Tai Shap's
``--advisor exact``) is asked once, as without cross-fitting.

The interval of a mean loss is the mean of the decisions' interval bounds (conservative: it
treats the decisions' sampling errors as fully dependent, and so is never narrower than the
interval under independence).  Every decision's layouts come from its own seed, derived from
``seed``, the hand and the decision's index, so a review is the same with any ``workers``.
"""

from __future__ import annotations

import html
import math
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kaptai.errors import KaptaiError, UsageError, quote_token

if TYPE_CHECKING:  # numpy is imported where it is used: the registry imports this module at start-up
    import numpy as np

__all__ = ["Decision", "REVIEW_COLUMNS", "SUMMARY_COLUMNS", "decision_seed", "paired_answer", "review_rows", "review",
           "summarize", "write_html", "carry_before", "match_options"]

#: Columns of the per-decision table.
REVIEW_COLUMNS: list[str] = ["hand", "seat", "decision", "kind", "options", "made", "best", "matched", "loss",
                             "loss_low", "loss_high", "p_win_before", "p_win_after", "samples"]
#: Columns of the summary table.
SUMMARY_COLUMNS: list[str] = ["level", "hand", "seat", "decisions", "matched_share", "mean_loss", "mean_loss_low",
                              "mean_loss_high", "total_loss", "worst_loss", "worst_decision"]


@dataclass
class Decision:
    """One decision of a record.

    Attributes
    ----------
    hand, seat, index : int
        The hand (0-based in the record), the deciding seat, the decision's index in the hand.
    kind : str
        What was decided (``'play'``, ``'discard'``, ``'claim'``, ``'bid'``).
    view : object
        The game's view of the deciding seat (what it knew).
    made : str
        The move made, as the advisor labels its options.
    options : int
        Legal options.
    hand_text, table : str
        The seat's hand and the table, for the report.
    extra : dict
        What the game's ``evaluate`` needs beyond the view.
    """

    hand: int
    seat: int
    index: int
    kind: str
    view: Any
    made: str
    options: int
    hand_text: str = ""
    table: str = ""
    extra: dict = field(default_factory=dict)


def decision_seed(seed: int, hand: int, index: int, part: int | None = None) -> int:
    """The advisor's seed for one decision (independent of the workers and the chunking).

    ``part``: None for the layouts that choose the best option (the only ones without
    cross-fitting), 1 for the independent layouts of a cross-fitted review that measure the loss.

    >>> decision_seed(0, 3, 1) == decision_seed(0, 3, 1) != decision_seed(0, 3, 2)
    True
    >>> decision_seed(0, 3, 1, part=1) != decision_seed(0, 3, 1)
    True
    """
    import numpy as np

    key = (int(hand), int(index)) if part is None else (int(hand), int(index), int(part))
    ss = np.random.SeedSequence(int(seed), spawn_key=key)
    return int(ss.generate_state(2, np.uint64)[0] >> np.uint64(1))


def carry_before(record: Any, i: int, kind: str) -> Any:
    """What the replay of hand ``i`` carries from the hand before it, read from the record.

    ``kind``: ``'winner'`` (the previous hand's winner, -1 before the first), ``'dealer_winner'``
    (its dealer and winner), ``'dealer'`` (this hand's own dealer), ``'seats'`` (the table's
    seats its deal names, ``()`` if it names none), ``'none'``.
    """
    if kind == "none":
        return None
    if kind == "seats":
        return tuple(int(x) for x in record.hands[i - 1].deal.get("seats") or ()) if i > 0 else None
    if kind == "dealer":
        return int(record.hands[i].deal["dealer"]) if i > 0 else None
    if i == 0:
        return None
    prev = record.hands[i - 1]
    if kind == "winner":
        return int(prev.settle["winner"])
    if kind == "dealer_winner":
        return int(prev.deal["dealer"]), int(prev.settle["winner"])
    raise KaptaiError(f"unknown carry {quote_token(kind)}")


def match_options(res: Any, stats: dict[int, Any], candidates: Sequence[int] | None = None) -> list[int]:
    """Each row of an advisor's table as an option of the paired sums ``res`` behind it.

    ``stats[q]`` holds every row's mean of quantity ``q`` (as the advisor computed it from
    ``res``: the same floats); a row is the option among ``candidates`` (default all) whose means
    equal the row's, and rows of equal means take those options in their order (the tables sort
    stably; options equal in every mean the table shows cannot be told apart by it).

    >>> import numpy as np
    >>> from kaptai.core.advise import PairedResult
    >>> res = PairedResult(2, np.array([[2.0, 6.0, 2.0]]), np.ones((1, 3)), np.eye(3), "fixed", 1, 0.0, 2, None)
    >>> match_options(res, {0: [3.0, 1.0, 1.0]})
    [1, 0, 2]
    """
    import numpy as np

    k = res.sums.shape[1]
    pool = list(range(k)) if candidates is None else [int(i) for i in candidates]
    means = {q: res.sums[q] / res.samples for q in stats}
    rows = len(next(iter(stats.values())))
    out: list[int] = []
    for r in range(rows):
        hit = next((i for i in pool if all(means[q][i] == float(np.asarray(stats[q])[r]) for q in stats)), None)
        if hit is None:
            raise KaptaiError(f"row {r} of the advisor's table matches none of its {k} sampled options")
        pool.remove(hit)
        out.append(hit)
    return out


def paired_answer(labels: list[str], v: Any, win: Any = None) -> dict[str, Any]:
    """An evaluation from per-layout values ``v``, ``(options, layouts)`` (the same layouts for
    every option): labels best first (the highest mean; the first of equal ones in option
    order), each option's mean value, its paired difference to the best with a 95% interval,
    P(win) (the share of layouts in which ``win``, default ``v``, is positive), and the paired
    sums (``paired``) with each label's option in them (``index``): what :func:`review_rows`
    reads from an adapter's ``evaluate``.

    >>> import numpy as np
    >>> v = np.array([[1.0, 3.0, 2.0], [0.0, 0.0, 0.0], [0.0, 4.0, 8.0]])
    >>> ev = paired_answer(["p", "q", "r"], v)
    >>> ev["labels"], ev["index"], [float(x) for x in ev["vs_best"]], [round(float(x), 3) for x in ev["p_win"]]
    (['r', 'p', 'q'], [2, 0, 1], [0.0, -2.0, -4.0], [0.667, 1.0, 0.0])
    """
    import numpy as np

    from kaptai.core.advise import PairedResult

    v = np.asarray(v, dtype=np.float64)
    w = v if win is None else np.asarray(win)
    _m, s = v.shape
    res = PairedResult(s, v.sum(axis=1)[None, :], (v * v).sum(axis=1)[None, :], v @ v.T, "fixed", 1, 0.0, s, None)
    order = [int(i) for i in np.argsort(-res.means(0), kind="stable")]
    vs, lo, hi = (x[order] for x in res.vs_best())
    return {"labels": [labels[i] for i in order], "value": res.means(0)[order], "vs_best": vs, "vs_low": lo,
            "vs_high": hi, "p_win": (w > 0).mean(axis=1)[order], "samples": s, "paired": res, "index": order}


def _made_index(d: Decision, labels: list[str]) -> int:
    if d.made not in labels:
        raise KaptaiError(f"hand {d.hand}, seat {d.seat}: the move made {quote_token(d.made)} is not among the "
                          f"advisor's options ({', '.join(labels[:8])}{' ...' if len(labels) > 8 else ''})")
    return labels.index(d.made)


def _cross_row(d: Decision, ev_a: dict[str, Any], ev_b: dict[str, Any]) -> dict[str, Any]:
    """The row of a cross-fitted decision: the best chosen on A's layouts, measured on B's."""
    import numpy as np

    labels_a = list(ev_a["labels"])
    ja = _made_index(d, labels_a)
    best = labels_a[0]
    va = np.asarray(ev_a["value"], dtype=np.float64)
    labels_b = list(ev_b["labels"])
    jb = _made_index(d, labels_b)
    if best not in labels_b:
        raise KaptaiError(f"hand {d.hand}, seat {d.seat}: the advisor's best move {quote_token(best)} is not "
                          "among its options on the second set of layouts")
    kb = labels_b.index(best)
    res, idx = ev_b["paired"], list(ev_b["index"])
    if idx[kb] == idx[jb]:
        loss = lo = hi = 0.0
    else:
        loss, lo, hi = res.diff(idx[kb], idx[jb])
    pw = ev_b.get("p_win")
    return {
        "hand": d.hand, "seat": d.seat, "decision": d.index, "kind": d.kind, "options": d.options,
        "made": d.made, "best": best, "matched": bool(ja == 0 or va[ja] == va[0]),
        "loss": float(loss) + 0.0, "loss_low": float(lo) + 0.0, "loss_high": float(hi) + 0.0,
        "p_win_before": float(pw[kb]) if pw is not None else math.nan,
        "p_win_after": float(pw[jb]) if pw is not None else math.nan,
        "samples": int(ev_b.get("samples", 0)),
        "hand_text": d.hand_text, "table": d.table,
    }


def _row(d: Decision, ev: dict[str, Any]) -> dict[str, Any]:
    import numpy as np

    labels = list(ev["labels"])
    j = _made_index(d, labels)
    vs, lo, hi = (np.asarray(ev[k], dtype=np.float64) for k in ("vs_best", "vs_low", "vs_high"))
    pw = ev.get("p_win")
    best = labels[0]
    loss = float(-vs[j])
    return {
        "hand": d.hand, "seat": d.seat, "decision": d.index, "kind": d.kind, "options": d.options,
        "made": d.made, "best": best, "matched": bool(j == 0 or vs[j] == 0.0),
        "loss": loss + 0.0, "loss_low": float(-hi[j]) + 0.0, "loss_high": float(-lo[j]) + 0.0,
        "p_win_before": float(pw[0]) if pw is not None else math.nan,
        "p_win_after": float(pw[j]) if pw is not None else math.nan,
        "samples": int(ev.get("samples", 0)),
        "hand_text": d.hand_text, "table": d.table,
    }


def review_rows(adapter: Any, record: Any, hands: Sequence[int], seats: Sequence[int] | None, *, seed: int,
                samples: int, tick: Callable[[int], None] | None = None,
                skipped: list | None = None, cross_fit: bool = True,
                crossed: list | None = None) -> list[dict[str, Any]]:
    """One row per decision of ``seats`` (all if None) in ``hands`` of a parsed record; a
    decision whose position the game's advisor refuses (a ``KaptaiError``) is left out and
    appended to ``skipped``.  ``cross_fit``: a sampling advisor chooses the best option on one
    set of ``samples`` layouts and measures the loss on another (the module's docstring); each
    decision so reviewed is appended to ``crossed``."""
    rows: list[dict[str, Any]] = []
    want = None if seats is None else set(int(s) for s in seats)
    last = None
    for d in adapter.decisions(record, list(hands)):
        if tick is not None and last is not None and d.hand != last:
            tick(1)
        last = d.hand
        if want is not None and d.seat not in want:
            continue
        try:
            ev = adapter.evaluate(d, samples=samples, seed=decision_seed(seed, d.hand, d.index))
            ev_b = None
            if cross_fit and ev.get("paired") is not None:  # a sampling advisor: measure on other layouts
                ev_b = adapter.evaluate(d, samples=samples, seed=decision_seed(seed, d.hand, d.index, part=1))
        except KaptaiError:  # a position the advisor cannot price (counted in the summary as skipped)
            if skipped is not None:
                skipped.append((d.hand, d.seat, d.index))
            continue
        if ev_b is not None and ev_b.get("paired") is not None:
            rows.append(_cross_row(d, ev, ev_b))
            if crossed is not None:
                crossed.append((d.hand, d.seat, d.index))
        else:
            rows.append(_row(d, ev))
    return rows


#: The record last parsed in this process (a worker reviews many chunks of one record).
_PARSED: dict[tuple, Any] = {}


def _chunk(task: tuple) -> dict[str, np.ndarray]:
    """One chunk of a review in a worker: the rows of a range of hands (as an object array)."""
    import numpy as np

    import importlib

    module, path, game, lo, hi, seats, seed, samples, cross_fit = task
    adapter = importlib.import_module(module)
    st = os.stat(path)
    key = (module, path, game, st.st_mtime_ns, st.st_size)
    record = _PARSED.get(key)
    if record is None:  # a worker parses the record once for all its chunks
        record = adapter.read(path, game)
        _PARSED.clear()
        _PARSED[key] = record
    skipped: list = []
    crossed: list = []
    rows = review_rows(adapter, record, range(lo, hi), seats, seed=seed, samples=samples, skipped=skipped,
                       cross_fit=cross_fit, crossed=crossed)
    out: dict[str, np.ndarray] = {"hands": np.asarray([hi - lo], dtype=np.int64),
                                  "skipped": np.asarray([len(skipped)], dtype=np.int64),
                                  "crossed": np.asarray([len(crossed)], dtype=np.int64)}
    for c in _COLUMNS:
        vals = [r[c] for r in rows]
        if c in _TEXT:
            out[c] = np.asarray(vals, dtype=str) if vals else np.zeros(0, dtype="U1")
        else:
            out[c] = np.asarray(vals, dtype=np.float64)
    return out


#: Every column of a row, and the ones that are text (the runner merges numpy arrays only).
_COLUMNS = [*REVIEW_COLUMNS, "hand_text", "table"]
_TEXT = {"kind", "made", "best", "hand_text", "table"}
_INTS = {"hand", "seat", "decision", "options", "samples"}


def _merge(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    import numpy as np

    return {k: a[k] + b[k] if k in ("hands", "skipped", "crossed") else np.concatenate([a[k], b[k]]) for k in a}


def review(adapter: Any, path: str | os.PathLike, game: str, *, seats: Sequence[int] | None = None,
           seed: int = 0, samples: int = 32, workers: int = 1, progress: bool | str = False,
           hands: int | None = None, chunk_hands: int = 25, cross_fit: bool = True) -> Any:
    """Review a record: one row per decision (:data:`REVIEW_COLUMNS`).

    Parameters
    ----------
    adapter : module
        The game's ``kaptai.<package>.play`` (``read``, ``decisions``, ``evaluate``).
    path : str or path
        The record (``.jsonl``).
    game : str
        The game it must be of.
    seats : sequence of int, optional
        The seats reviewed (default all).
    seed : int
        Seed of the advisor's layouts (the same seed, the same review).
    samples : int
        Layouts of the advisor per decision (per set of layouts when cross-fitted).
    workers : int
        Processes (chunks of ``chunk_hands`` hands; the result does not depend on it).
    hands : int, optional
        Review only the first ``hands`` hands.
    cross_fit : bool
        Where the advisor samples, choose the best option on one set of ``samples`` layouts and
        measure the loss on another (default; the module's docstring); False: both on the same
        layouts (every loss at least 0, biased upward).  No effect with an exact advisor.

    Returns
    -------
    pandas.DataFrame
        With ``attrs``: game, record, seats, seed, samples, unit, hands, policies, skipped,
        ``cross_fit`` (whether the losses are cross-fitted: asked for, and the advisor samples)
        and ``cross_fitted`` (the decisions that were).
    """
    import numpy as np

    import pandas as pd

    from kaptai.core.runner import run_chunks

    record = adapter.read(path, game)
    n = len(record.hands) if hands is None else int(hands)
    if n > len(record.hands):
        raise UsageError(f"--hands {n}: the record has {len(record.hands)} hand(s)")
    players = int(record.header["players"])
    if seats is not None:
        for s in seats:
            if not 0 <= int(s) < players:
                raise UsageError(f"--seat {s}: the record has {players} seats (0 to {players - 1})")
    module = adapter.__name__
    step = max(1, int(chunk_hands))
    tasks = [(module, os.fspath(path), game, lo, min(n, lo + step), None if seats is None else tuple(seats),
              int(seed), int(samples), bool(cross_fit)) for lo in range(0, n, step)]
    rows: dict[str, Any] = {c: [] for c in _COLUMNS}
    skipped = crossed = 0
    if tasks:
        total = run_chunks(_chunk, tasks, merge=_merge, workers=workers, progress=progress, desc="review",
                           sizes=[t[4] - t[3] for t in tasks], unit="hands")
        rows = {c: total[c] for c in _COLUMNS}
        skipped = int(total["skipped"][0])
        crossed = int(total["crossed"][0])
    df = pd.DataFrame(rows, columns=_COLUMNS)
    for c in _INTS:
        df[c] = df[c].astype(np.int64)
    df["matched"] = df["matched"].astype(bool)
    for c in _TEXT:
        df[c] = df[c].astype(object)
    df.attrs.update({"game": game, "record": os.fspath(path), "seats": "all" if seats is None else list(seats),
                     "seed": int(seed),
                     # an advisor that samples nothing (Kap Tai Shap's exact look-ahead): 0, as in the rows
                     "samples": int(samples) if len(df) == 0 or bool((df["samples"] > 0).any()) else 0,
                     "unit": review_unit(adapter, record.header),
                     "hands": n, "policies": list(record.header.get("policies", [])), "skipped": skipped,
                     "cross_fit": bool(cross_fit) and (crossed > 0 or len(df) == 0), "cross_fitted": crossed})
    return df


def review_unit(adapter: Any, header: Mapping[str, Any]) -> str:
    """The unit of a review's values: the adapter's ``loss_unit(header)`` where it depends on the
    record's rules (Kap Tai Shap's search: antes or points by the settlement), else its
    ``LOSS_UNIT``, else the record's own ``unit``.

    >>> import types
    >>> review_unit(types.SimpleNamespace(LOSS_UNIT="chips"), {"unit": "points"})
    'chips'
    >>> review_unit(types.SimpleNamespace(), {"unit": "points"})
    'points'
    """
    by_rules = getattr(adapter, "loss_unit", None)
    if callable(by_rules):
        return str(by_rules(header))
    return str(getattr(adapter, "LOSS_UNIT", None) or header.get("unit", ""))


def _summary_row(level: str, hand: Any, seat: Any, g: Any) -> dict[str, Any]:
    n = len(g)
    if n == 0:
        return {"level": level, "hand": hand, "seat": seat, "decisions": 0, "matched_share": math.nan,
                "mean_loss": math.nan, "mean_loss_low": math.nan, "mean_loss_high": math.nan, "total_loss": 0.0,
                "worst_loss": math.nan, "worst_decision": ""}
    w = g.loss.to_numpy().argmax()
    wr = g.iloc[int(w)]
    return {"level": level, "hand": hand, "seat": seat, "decisions": n,
            "matched_share": float(g.matched.mean()), "mean_loss": float(g.loss.mean()),
            "mean_loss_low": float(g.loss_low.mean()), "mean_loss_high": float(g.loss_high.mean()),
            "total_loss": float(g.loss.sum()), "worst_loss": float(wr.loss),
            "worst_decision": f"hand {int(wr.hand)} decision {int(wr.decision)}: {wr.made} (best {wr.best})"}


def summarize(df: Any, per_hand: bool = True) -> Any:
    """Summary of a review: per hand and seat (``level='hand'``), then per seat over the record
    (``level='record'``), then every reviewed seat together (``seat='all'``).

    Columns :data:`SUMMARY_COLUMNS`: decisions, the share whose move matched the advisor's best,
    the mean loss a decision with its interval (the mean of the decisions' bounds), the total
    loss, the largest loss and where it was.
    """
    import pandas as pd

    out = []
    if per_hand:
        for (h, s), g in df.groupby(["hand", "seat"], sort=True):
            out.append(_summary_row("hand", int(h), int(s), g))
    for s, g in df.groupby("seat", sort=True):
        out.append(_summary_row("record", "all", int(s), g))
    if df.seat.nunique() > 1 or len(df) == 0:
        out.append(_summary_row("record", "all", "all", df))
    res = pd.DataFrame(out, columns=SUMMARY_COLUMNS)
    res.attrs.update(df.attrs)
    return res


def largest(df: Any, k: int = 10) -> Any:
    """The ``k`` decisions with the largest loss."""
    return df.sort_values(["loss", "hand", "decision"], ascending=[False, True, True], kind="stable").head(k)


def write_html(df: Any, path: str | os.PathLike, *, flag: float | None = None, title: str = "review") -> str:
    """An HTML report: the summary, then every flagged decision with the seat's hand and the
    table (flagged: a loss above ``flag``, default: the loss interval is above 0).

    Returns the path written.
    """
    summ = summarize(df)
    a = df.attrs
    if flag is None:
        flagged = df[df.loss_low > 0]
    else:
        flagged = df[df.loss > flag]
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(title)}</title>",
        "<style>body{font-family:'kaptai CJK',sans-serif;max-width:70em;margin:1em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}td.t{text-align:left}"
        ".bad{background:#fdd}</style></head><body>",
        f"<h1>{e(title)}</h1>",
        f"<p>record <code>{e(str(a.get('record', '')))}</code>, game {e(str(a.get('game', '')))}, policies "
        f"{e(', '.join(map(str, a.get('policies', []))))}; seats {e(str(a.get('seats', '')))}; "
        f"{e(_layouts_text(a))}; loss in {e(str(a.get('unit', '')))} ({e(_loss_text(a))}).</p>",
        "<h2>Summary</h2>",
        summ[summ.level == "record"].to_html(index=False, float_format=lambda x: f"{x:.3f}", na_rep=""),
        f"<h2>Flagged decisions ({len(flagged)})</h2>",
    ]
    if len(flagged) == 0:
        parts.append("<p>none</p>")
    else:
        parts.append("<table><tr><th>hand</th><th>seat</th><th>decision</th><th>hand held</th><th>table</th><th>made</th>"
                     "<th>best</th><th>loss</th><th>interval</th><th>P(win) before</th><th>after</th></tr>")
        for r in flagged.itertuples(index=False):
            pw = "" if math.isnan(r.p_win_before) else f"{r.p_win_before:.2f}"
            pa = "" if math.isnan(r.p_win_after) else f"{r.p_win_after:.2f}"
            parts.append(
                f"<tr class='bad'><td>{r.hand}</td><td>{r.seat}</td><td>{r.decision}</td>"
                f"<td class='t'>{e(str(r.hand_text))}</td><td class='t'>{e(str(r.table))}</td>"
                f"<td class='t'>{e(str(r.made))}</td><td class='t'>{e(str(r.best))}</td><td>{r.loss:.3f}</td>"
                f"<td>[{r.loss_low:.3f}, {r.loss_high:.3f}]</td><td>{pw}</td><td>{pa}</td></tr>")
        parts.append("</table>")
    parts.append("<h2>Every hand</h2>")
    parts.append(summ[summ.level == "hand"].to_html(index=False, float_format=lambda x: f"{x:.3f}", na_rep=""))
    parts.append("</body></html>")
    p = os.fspath(path)
    tmp = p + ".part"
    with open(tmp, "w", encoding="utf-8") as fh:
        from kaptai.core.webfont import embed_cjk_font

        fh.write(embed_cjk_font("\n".join(parts)))  # Chinese card names on a machine without a CJK font
    os.replace(tmp, p)
    return p


def iter_hands(n: int, step: int) -> Iterator[range]:
    """Ranges of ``step`` hands covering ``n``."""
    for lo in range(0, n, step):
        yield range(lo, min(n, lo + step))


def _sampling_advisor(flag: str) -> Any:
    """``Opt.applies`` of an option only a sampling advisor reads (refused with ``--advisor exact``)."""
    def applies(args: Any) -> str | None:
        if getattr(args, "advisor", None) == "exact":
            return f"the exact advisor samples nothing, so {flag} would change nothing"
        return None

    return applies


def review_options(default_samples: int = 32) -> tuple:
    """The declared options of ``kaptai review <game> FILE``."""
    from kaptai.core import cli_options as o
    from kaptai.core.play import _file_check
    from kaptai.spec import Opt

    return (
        o.record_file(),
        Opt("--seat", "int", default=None, lo=0, hi=99, unit="seat",
            help="the seat whose decisions are reviewed (default: every seat)"),
        Opt("--samples", "int", default=default_samples, lo=1, hi=100_000, unit="layouts",
            help=f"the advisor's layouts a decision, per set of layouts when cross-fitted (default "
                 f"{default_samples}; a fixed count, so the review is the same for the same --seed)",
            applies=_sampling_advisor("--samples")),
        Opt("--cross-fit", "switch", default=True,
            help="choose the advisor's best move on one set of --samples layouts and measure the loss on "
                 "another, independent one (default: on), so that a player as good as the advisor loses 0 on "
                 "average (a loss can then be below 0); --no-cross-fit chooses and measures on the same "
                 "layouts (half the work; every loss at least 0, biased upward). No effect with an exact "
                 "advisor (Kap Tai Shap's exact look-ahead), which is asked once: refused with it",
            applies=_sampling_advisor("--cross-fit")),
        o.seed(),
        Opt("--hands", "int", default=None, lo=1, hi=o.MAX_HANDS, unit="hands",
            help="review only the first N hands of the record (default all; at most the hands it holds)"),
        Opt("--summary", "flag", help="print the summary per hand and per record instead of every decision"),
        Opt("--html", "str", default=None, metavar="FILE", check=_file_check("--html", ("html",)),
            sample="review.html", help="also write an HTML report: the summary and the hand at each flagged "
                                       "decision (a loss whose interval is above 0)"),
        *o.runner(distributed=False),
        *o.output(percent=False),
    )


def pick_adapter(advisor: str, adapters: Mapping[str, Any]) -> Any:
    """The review adapter (module) of an ``--advisor`` value, from a game's ``{name: adapter}``.

    >>> pick_adapter("best", {"search": 1, "exact": 2})
    Traceback (most recent call last):
    ...
    kaptai.errors.UsageError: --advisor 'best': expected one of search, exact
    """
    if advisor in adapters:
        return adapters[advisor]
    raise UsageError(f"--advisor {quote_token(str(advisor))}: expected one of {', '.join(adapters)}")


def advised_review_command(args: Any, game: Any, adapters: Mapping[str, Any]) -> Any:
    """``kaptai review <game> FILE --advisor A`` of a game with several advisors (the first of
    ``adapters`` is the default; ``search`` sums pairs of layouts, so it needs 2 or more)."""
    name = getattr(args, "advisor", None) or next(iter(adapters))
    adapter = pick_adapter(name, adapters)
    if name == "search" and args.samples < 2:
        raise UsageError(f"--samples {args.samples}: the search advisor needs at least 2 layouts (the paired interval)")
    return review_command(args, game, adapter)


def review_command(args: Any, game: Any, adapter: Any) -> Any:
    """``kaptai review <game> FILE``: the table of every decision (or ``--summary``)."""
    from kaptai.core.output import want_progress
    from kaptai.spec import Output

    seats = None if args.seat is None else [int(args.seat)]
    cross = True if getattr(args, "cross_fit", None) is None else bool(args.cross_fit)
    df = review(adapter, args.record, game.name, seats=seats, seed=args.seed, samples=args.samples,
                workers=args.workers, progress=want_progress(progress=args.progress), hands=args.hands,
                cross_fit=cross)
    if args.html:
        write_html(df, args.html, title=f"kaptai review {game.name} {os.path.basename(os.fspath(args.record))}")
    summ = summarize(df)
    rec = summ[summ.level == "record"]
    lines = []
    for r in rec.itertuples(index=False):
        if not r.decisions:
            lines.append(f"{'every seat' if args.seat is None else f'seat {args.seat}'}: no decision to review")
            continue
        lines.append(f"seat {r.seat}: {r.decisions} decisions, {r.matched_share:.0%} matched the advisor's best, "
                     f"mean loss {r.mean_loss:.3f} [{r.mean_loss_low:.3f}, {r.mean_loss_high:.3f}] "
                     f"{df.attrs['unit']} a decision; largest: {r.worst_decision}")
    if df.attrs.get("skipped"):
        lines.append(f"{df.attrs['skipped']} decision(s) left out: positions the advisor cannot price")
    shows_p_win = not args.summary and len(df) and bool(df["p_win_before"].notna().any())
    legend = "\n".join(lines + [_loss_text(df.attrs)
                                + ("; p_win before/after = under the best move / the move made" if shows_p_win else "")
                                + (f"; HTML report: {args.html}" if args.html else "")])
    how = _layouts_text(df.attrs)
    if args.summary:
        return Output(summ, f"review of {args.record}: summary per hand and per record ({how})", SUMMARY_COLUMNS,
                      legend=legend)
    return Output(df.drop(columns=["hand_text", "table"]), f"review of {args.record}: every decision ({how})",
                  REVIEW_COLUMNS, legend=legend)


def _layouts_text(a: Any) -> str:
    """The layouts of a review, for its header (``attrs`` of :func:`review`)."""
    if a.get("samples") == 0:
        return "an exact advisor, no layouts"
    if a.get("cross_fit"):
        return (f"cross-fitted: the best chosen on {a.get('samples', '')} layouts, the loss measured on "
                f"{a.get('samples', '')} others, seed {a.get('seed', '')}")
    return f"{a.get('samples', '')} layouts a decision, seed {a.get('seed', '')}"


def _loss_text(a: Any) -> str:
    if a.get("cross_fit"):
        return ("loss = the advisor's best option (chosen on the first set of layouts) minus the move made, "
                "valued on the second set (their paired difference, 95% interval; below 0 when the move made "
                "did better there)")
    return "loss = the advisor's best option minus the move made (its paired difference, 95% interval)"


#: Held while a replay's scripted policy is watched: :class:`observe_script` replaces a module
#: attribute, so two reviews in one process (threads) take turns instead of watching each
#: other's replays (re-entrant: a review may nest them).
_WATCH_LOCK = threading.RLock()


class swapped_class:
    """While active, ``module.<attr>`` (a class) is ``make(base)`` -- a subclass that watches it
    -- under the process-wide lock :data:`_WATCH_LOCK`, and ``base`` again after.

    >>> import types
    >>> mod = types.SimpleNamespace(K=int)
    >>> with swapped_class(mod, "K", lambda base: type("W", (base,), {})) as base:
    ...     mod.K.__name__, base is int
    ('W', True)
    >>> mod.K is int
    True
    """

    def __init__(self, module: Any, attr: str, make: Callable[[Any], Any]):
        self.module, self.attr, self.make = module, attr, make
        self.base: Any = None

    def __enter__(self) -> Any:
        _WATCH_LOCK.acquire()
        try:
            self.base = getattr(self.module, self.attr)
            setattr(self.module, self.attr, self.make(self.base))
            return self.base
        except BaseException:
            _WATCH_LOCK.release()
            raise

    def __exit__(self, *exc: Any) -> None:
        try:
            setattr(self.module, self.attr, self.base)
        finally:
            _WATCH_LOCK.release()


class observe_script:
    """While active, the record replay's scripted policy (``module.<attr>``, a class whose
    decision methods read the recorded move from the hand's cursor) reports every decision to
    ``sink`` as ``(method, view, args, move, cursor position)``: a thin adapter around the
    games' record replays, which stay as they are.

    It swaps the module attribute for a watching subclass while the block runs, under a
    process-wide lock (:data:`_WATCH_LOCK`): reviews in several threads of one process take
    turns at each hand's replay and never see each other's decisions.  A plain replay of the
    same game in another thread at that moment plays the watching subclass, which makes the
    same moves (it only reports them to the sink of the review).

    >>> import types
    >>> class Script:
    ...     def __init__(self, cur): self.cur = cur
    ...     def discard(self, view): return view + 1
    >>> mod = types.SimpleNamespace(_Script=Script)
    >>> sink = []
    >>> with observe_script(mod, "_Script", ("discard",), sink):
    ...     mod._Script(types.SimpleNamespace(pos=4)).discard(1)
    2
    >>> sink, mod._Script is Script
    ([('discard', 1, (), 2, 4)], True)
    """

    def __init__(self, module: Any, attr: str, methods: Sequence[str], sink: list):
        self.methods, self.sink = tuple(methods), sink
        self.swap = swapped_class(module, attr, self._watched)

    def _watched(self, base: Any) -> Any:
        sink = self.sink

        def wrap(name: str) -> Callable[..., Any]:
            orig = getattr(base, name)

            def method(self: Any, view: Any, *args: Any) -> Any:
                pos = getattr(self.cur, "pos", -1)
                move = orig(self, view, *args)
                sink.append((name, view, args, move, pos))
                return move

            return method

        return type(base.__name__, (base,), {m: wrap(m) for m in self.methods})

    def __enter__(self) -> list:
        self.swap.__enter__()
        return self.sink

    def __exit__(self, *exc: Any) -> None:
        self.swap.__exit__(*exc)
