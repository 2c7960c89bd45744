"""Render a report (a list of sections of blocks) to self-contained HTML or Markdown.

A block is one of ``("p", text)``, ``("table", DataFrame, caption)``,
``("figure", matplotlib Figure, caption)`` or ``("link", href, text)`` (a file beside the
report, e.g. the full table as CSV).  Every table sits in a scroll box (``div.scroll``,
``overflow-x: auto``), so a wide table scrolls inside the page's column instead of being cut
off.  Figures are embedded as base64 PNG data URIs, so the HTML needs no network and no side
files; :func:`to_markdown` can instead write each figure as a PNG beside the Markdown
(``figure_dir``), which keeps the Markdown small.

Examples
--------
>>> import pandas as pd
>>> from kaptai.report.render import Section, to_markdown
>>> md = to_markdown("T", [Section("S", [("p", "hello"), ("table", pd.DataFrame({"a": [1]}), "one")])])
>>> "## S" in md and "| a |" in md
True
>>> from kaptai.report.render import to_html
>>> '<div class="scroll"><table>' in to_html("T", [Section("S", [("table", pd.DataFrame({"a": [1]}), "one")])])
True
"""

from __future__ import annotations

import base64
import html
import io
import os
import re
import sys
from dataclasses import dataclass, field
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["Section", "league_caption", "to_html", "to_markdown", "figure_png", "report_step", "checkpoint_subdir",
           "write_atomic", "report_format"]


def report_format(out, fmt: str | None, checkpoint=None) -> str:
    """``fmt``, or the format of ``out``'s suffix (``.md``: Markdown, else HTML); checked, and
    ``out`` and ``checkpoint`` with it (their types and names, before any work)."""
    from kaptai.core.paths import check_path_names
    from kaptai.core.runner import check_checkpoint_arg
    from kaptai.errors import RulesError, quote_token

    if out is not None:
        check_path_names(out, "out")
    check_checkpoint_arg(checkpoint)
    if fmt is None:
        fmt = "md" if out is not None and str(out).endswith(".md") else "html"
    if fmt not in ("html", "md"):
        raise RulesError(f"report format {quote_token(fmt)}: expected 'html' or 'md'")
    return fmt


def write_atomic(out, text: str) -> None:
    """Write ``text`` to ``out`` through a temporary file and ``os.replace`` (never half a file)."""
    import pathlib
    import tempfile

    path = pathlib.Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    from kaptai.core.paths import umask_mode

    umask_mode(tmp)
    os.replace(tmp, path)


def report_step(progress: bool, text: str) -> None:
    """Print one progress line ``[report] text`` on stderr (if ``progress``)."""
    if progress:
        print(f"[report] {text}", file=sys.stderr, flush=True)


def checkpoint_subdir(run: dict, name: str):
    """Checkpoint sub-folder of one simulation of a report (None without ``--checkpoint``)."""
    return None if run.get("checkpoint") is None else os.path.join(os.fspath(run["checkpoint"]), name)


def league_caption(hands: int) -> str:
    """The head of a report's league table caption: the hands asked for a policy, which the
    league rounds up to whole deals (the table's ``hands`` column).

    >>> league_caption(8000)
    'The league (kaptai league, seats rotated, 8,000 hands a policy asked for, rounded up to whole deals: the hands column)'
    """
    return (f"The league (kaptai league, seats rotated, {hands:,} hands a policy asked for, rounded up to whole "
            "deals: the hands column)")


def league_skill_table(lg: pd.DataFrame, metrics: tuple[str, ...], digits: int) -> pd.DataFrame:
    """The rows of a league (:func:`kaptai.core.league.policy_league`) a report shows: each
    policy other than its field, for ``metrics``, its estimate and 95% interval as text (``win``
    in percent, the others to ``digits`` places) and the hands behind it."""
    from kaptai.core.output import format_estimate

    keep = lg[lg.metric.isin(list(metrics)) & (lg.policy != lg.opponents)]
    return pd.DataFrame([{
        "policy": r.policy, "field": r.opponents, "metric": r.metric,
        "value": format_estimate(r.value, r.ci_low, r.ci_high, 100 if r.metric == "win" else 1),
        "95% CI": (f"{100 * r.ci_low:.1f}–{100 * r.ci_high:.1f}%" if r.metric == "win"
                   else f"{r.ci_low:.{digits}f} to {r.ci_high:.{digits}f}"),
        "hands": int(r.hands)} for r in keep.itertuples()])


def skill_differences(lg: pd.DataFrame, policy: str = "search") -> list[dict[str, Any]]:
    """``policy`` minus its field, paired over duplicate deals, from one league played against a
    field (:func:`kaptai.core.league.policy_league` with ``baseline=field`` and the field among
    its policies).  Read from the league's ``attrs['differences']``: call it on each league before
    concatenating them (a concatenation drops the attrs).

    Each deal is played with ``policy`` at every seat in turn (the field elsewhere) and with the
    field alone, on the same cards; per deal the policy's net averaged over its seats minus the
    field's net averaged over the same seats of the all-field table; the mean over the deals with
    its 95% interval, the deals as clusters.  One dict per (rules, players): ``rules, players,
    policy, field, value, ci_low, ci_high, deals, hands`` (the policy's hands, ``players x
    deals``), ``variance_ratio`` (the variance of the difference were every table dealt its own
    deals, over its variance here) and ``unit``.

    Examples
    --------
    >>> import pandas as pd
    >>> lg = pd.DataFrame()
    >>> lg.attrs.update(settings={"baseline": "greedy"}, differences=[
    ...     {"rules": "r", "players": 4, "policy": "search", "other": "greedy", "value": 0.5, "ci_low": 0.1,
    ...      "ci_high": 0.9, "hands": 400, "variance_ratio": 3.0, "unit": "point"},
    ...     {"rules": "r", "players": 4, "policy": "greedy", "other": "search", "value": -0.5, "ci_low": -0.9,
    ...      "ci_high": -0.1, "hands": 400, "variance_ratio": 3.0, "unit": "point"}])
    >>> [(d["field"], d["value"], d["deals"]) for d in skill_differences(lg)]
    [('greedy', 0.5, 100)]
    """
    field = lg.attrs["settings"]["baseline"]
    out = []
    for d in lg.attrs.get("differences") or []:
        if d["policy"] == policy and d["other"] == field:
            out.append({"rules": d["rules"], "players": int(d["players"]), "policy": policy, "field": field,
                        "value": float(d["value"]), "ci_low": float(d["ci_low"]), "ci_high": float(d["ci_high"]),
                        "deals": int(d["hands"]) // int(d["players"]), "hands": int(d["hands"]),
                        "variance_ratio": float(d["variance_ratio"]), "unit": d["unit"]})
    if not out:
        raise ValueError(f"the league has no difference of {policy!r} from its field {field!r}")
    return out


def skill_seat_differences(lg: pd.DataFrame, policy: str = "search") -> list[dict[str, Any]]:
    """:func:`skill_differences` at each physical seat of the league's tables (the league's
    ``attrs['seat_differences']``): the deals on which ``policy`` sat at seat ``s``, its net there
    minus the field's net at seat ``s`` of the all-field table, paired over the deals.  A seat
    from the dealer only where the game's ``deal_rows`` has seat 0 deal every deal (Kap Tai
    Shap, Nantong).  One dict per (rules, players, seat): ``rules, players, seat, policy, field,
    value, ci_low, ci_high, deals, unit``.

    >>> import pandas as pd
    >>> lg = pd.DataFrame()
    >>> lg.attrs.update(settings={"baseline": "greedy"}, seat_differences=[
    ...     {"rules": "r", "players": 2, "policy": "search", "other": "greedy", "seat": s, "value": 0.1 * s,
    ...      "ci_low": -1.0, "ci_high": 1.0, "hands": 50, "unit": "point"} for s in range(2)])
    >>> [(d["seat"], d["value"], d["deals"]) for d in skill_seat_differences(lg)]
    [(0, 0.0, 50), (1, 0.1, 50)]
    """
    field = lg.attrs["settings"]["baseline"]
    out = [{"rules": d["rules"], "players": int(d["players"]), "seat": int(d["seat"]), "policy": policy,
            "field": field, "value": float(d["value"]), "ci_low": float(d["ci_low"]), "ci_high": float(d["ci_high"]),
            "deals": int(d["hands"]), "unit": d["unit"]}
           for d in lg.attrs.get("seat_differences") or [] if d["policy"] == policy and d["other"] == field]
    if not out:
        raise ValueError(f"the league has no per-seat difference of {policy!r} from its field {field!r}")
    return out


def skill_seat_table(rows: list[dict[str, Any]], digits: int, seat_names: Any, rules: bool = False) -> pd.DataFrame:
    """The rows of :func:`skill_seat_differences` as a report shows them: one row per (rules,)
    field and seat (``seat_names[s]``), ``search − field`` with its paired 95% interval, deals.

    >>> r = [{"rules": "r", "players": 3, "seat": 0, "policy": "search", "field": "max_melds", "value": 0.05,
    ...       "ci_low": -0.01, "ci_high": 0.11, "deals": 100, "unit": "point"}]
    >>> [str(v) for v in skill_seat_table(r, 3, ["dealer"]).iloc[0]]
    ['max_melds', 'dealer', '+0.050', '-0.010 to 0.110', '100']
    """
    return pd.DataFrame([{
        **({"rules": d["rules"]} if rules else {}),
        "field": d["field"], "seat": seat_names[d["seat"]],
        f"{d['policy']} − field": _signed_estimate(d),
        "paired 95% CI": f"{d['ci_low']:.{digits}f} to {d['ci_high']:.{digits}f}", "deals": d["deals"],
    } for d in rows])


def _signed_estimate(d: Mapping[str, Any]) -> str:
    """A difference as the skill tables show it: its sign, then :func:`format_estimate`'s digits."""
    from kaptai.core.output import format_estimate

    return ("+" if d["value"] > 0 else "") + format_estimate(d["value"], d["ci_low"], d["ci_high"])


def _unit_of(unit: str | Mapping[str, str], d: Mapping[str, Any]) -> str:
    return unit if isinstance(unit, str) else unit[d["rules"]]


def skill_difference_table(diffs: list[dict[str, Any]], digits: int, unit: str | Mapping[str, str],
                           rules: bool = False, per: str = "hand") -> pd.DataFrame:
    """The rows of :func:`skill_differences` as a report shows them: the field, ``search − field``
    per hand with its paired 95% interval, the deals, the policy's hands and the variance ratio
    (``rules`` adds the ruleset column).  ``unit``: one name, or one per ruleset (then the
    table has a ``unit`` column); ``per``: what one result is of (a hand, a game).

    >>> d = [{"rules": "r", "players": 4, "policy": "search", "field": "greedy", "value": 0.512, "ci_low": 0.1,
    ...       "ci_high": 0.9, "deals": 100, "hands": 400, "variance_ratio": 3.04, "unit": "point"}]
    >>> [str(v) for v in skill_difference_table(d, 2, "points").iloc[0]]
    ['greedy', '+0.51', '0.10 to 0.90', '100', '400', '3.0']
    """
    head = f" ({unit} a {per})" if isinstance(unit, str) else f" (a {per})"
    return pd.DataFrame([{
        **({"rules": d["rules"]} if rules else {}),
        "field": d["field"],
        **({} if isinstance(unit, str) else {"unit": _unit_of(unit, d)}),
        f"{d['policy']} − field{head}": _signed_estimate(d),
        "paired 95% CI": f"{d['ci_low']:.{digits}f} to {d['ci_high']:.{digits}f}",
        "deals": d["deals"], f"{d['policy']}'s hands": d["hands"],
        "variance ratio": round(d["variance_ratio"], 1) if np.isfinite(d["variance_ratio"]) else float("nan"),
    } for d in diffs])


def skill_difference_text(diffs: list[dict[str, Any]], digits: int, unit: str | Mapping[str, str],
                          per: str = "hand") -> str:
    """One sentence per row of :func:`skill_differences`, true whatever the run gave: the
    difference and its interval, and whether the policy measurably beats the field, loses to it,
    or neither at this size (then the largest edge the interval leaves).  ``unit``: one name, or
    one per ruleset; ``per``: what one result is of (a hand, a game).

    >>> d = [{"rules": "r", "players": 4, "policy": "search", "field": "greedy", "value": 0.02, "ci_low": -0.01,
    ...       "ci_high": 0.05, "deals": 100, "hands": 400, "variance_ratio": 3.04, "unit": "point"}]
    >>> print(skill_difference_text(d, 3, "points"))
    Against a field of greedy (r): search − greedy = +0.020 points a hand (-0.010 to +0.050, 100 deals): the interval includes 0, so no difference is measurable at this size; an edge above +0.050 is ruled out at 95%. Duplicate deals made the variance of this difference 3.0 times smaller than independent deals would.
    """
    out = []
    for d in diffs:
        v, lo, hi = d["value"], d["ci_low"], d["ci_high"]
        p, f = d["policy"], d["field"]
        if lo > 0:
            verdict = f"{p} measurably beats {f}"
        elif hi < 0:
            verdict = f"{f} measurably beats {p}"
        else:
            verdict = (f"the interval includes 0, so no difference is measurable at this size; an edge above "
                       f"{hi:+.{digits}f} is ruled out at 95%")
        s = (f"Against a field of {f} ({d['rules']}): {p} − {f} = {v:+.{digits}f} {_unit_of(unit, d)} a {per} "
             f"({lo:+.{digits}f} to {hi:+.{digits}f}, {d['deals']:,} deals): {verdict}.")
        r = d["variance_ratio"]
        if np.isfinite(r) and r > 0:
            s += (" Duplicate deals left the variance of this difference about as large as independent deals "
                  "would." if 0.95 <= r < 1.05 else
                  f" Duplicate deals made the variance of this difference {r if r >= 1 else 1 / r:.1f} times "
                  f"{'smaller' if r >= 1 else 'larger'} than independent deals would.")
        out.append(s)
    return " ".join(out)


@dataclass
class Section:
    """A titled part of a report."""

    title: str
    blocks: list[tuple[Any, ...]] = field(default_factory=list)


def figure_png(fig) -> str:
    """A matplotlib figure as a base64 PNG string, drawn with the packaged CJK font (the figure is closed)."""
    import matplotlib.pyplot as plt

    from kaptai.core.plotting import save_figure

    buf = io.BytesIO()
    save_figure(fig, buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        if value != value:  # NaN
            return ""
        if value == 0 or 1e-3 <= abs(value) < 1e6:
            return f"{value:.4f}".rstrip("0").rstrip(".") if abs(value) < 100 else f"{value:,.1f}"
        return f"{value:.3g}"
    return "" if value is None or value is pd.NA else str(value)


_CSS = """
body { font-family: "kaptai CJK", "Noto Sans", "Helvetica Neue", Arial, "Noto Sans CJK TC", sans-serif; max-width: 1000px;
       margin: 2em auto; padding: 0 1em; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #8b0000; padding-bottom: .2em; }
h2 { color: #8b0000; margin-top: 1.8em; }
table { border-collapse: collapse; margin: .8em 0 1.2em; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; }
td.num { text-align: right; font-variant-numeric: tabular-nums; } td.txt { text-align: left; }
td.nw { white-space: nowrap; text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f3ecec; }
caption { caption-side: top; text-align: left; font-weight: 600; padding-bottom: .3em; }
figure { margin: 1em 0; } figcaption { font-size: .9em; color: #555; }
img { max-width: 100%; }
div.scroll { overflow-x: auto; max-width: 100%; margin: .8em 0 1.2em; }
div.scroll > table { margin: 0; }
.verdict { background: #faf6f0; border-left: 4px solid #8b0000; padding: .5em 1em; }
.meta { color: #555; font-size: .9em; }
"""


def to_html(title: str, sections: list[Section], meta: str = "") -> str:
    """One self-contained HTML page."""
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
    ]
    if meta:
        out.append(f'<p class="meta">{html.escape(meta)}</p>')
    for sec in sections:
        out.append(f"<h2>{html.escape(sec.title)}</h2>")
        for block in sec.blocks:
            kind = block[0]
            if kind == "p":
                out.append(f"<p>{html.escape(block[1])}</p>")
            elif kind == "verdict":
                out.append(f'<p class="verdict">{html.escape(block[1])}</p>')
            elif kind == "link":
                out.append(f'<p><a href="{html.escape(block[1])}">{html.escape(block[2])}</a></p>')
            elif kind == "table":
                df, caption = block[1], block[2]
                head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
                rows = "".join(
                    "<tr>" + "".join(
                        f'<td class="{_cell_class(v)}">{html.escape(_fmt(v))}</td>'
                        for v in row
                    ) + "</tr>"
                    for row in df.itertuples(index=False)
                )
                out.append(f'<div class="scroll"><table><caption>{html.escape(caption)}</caption>'
                           f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>")
            elif kind == "figure":
                png = figure_png(block[1])
                out.append(f'<figure><img alt="{html.escape(block[2])}" src="data:image/png;base64,{png}">'
                           f"<figcaption>{html.escape(block[2])}</figcaption></figure>")
            else:  # pragma: no cover
                raise ValueError(f"unknown block kind {kind!r}")
    out.append("</body></html>")
    from kaptai.core.webfont import embed_cjk_font

    return embed_cjk_font("\n".join(out))  # Chinese text drawn on a machine without a CJK font


def to_markdown(title: str, sections: list[Section], meta: str = "", figure_dir: str | os.PathLike | None = None,
                figure_prefix: str = "figure") -> str:
    """The same report as Markdown: figures as embedded data URIs, or, with ``figure_dir``,
    written there as ``<figure_prefix>-<k>.png`` and linked by that name (relative: put the
    Markdown in ``figure_dir``)."""
    out = [f"# {title}", ""]
    k = 0
    if meta:
        out += [f"_{meta}_", ""]
    for sec in sections:
        out += [f"## {sec.title}", ""]
        for block in sec.blocks:
            kind = block[0]
            if kind in ("p", "verdict"):
                out += [block[1], ""]
            elif kind == "link":
                out += [f"[{block[2]}]({block[1]})", ""]
            elif kind == "table":
                df, caption = block[1], block[2]
                out += [f"**{caption}**", "", "| " + " | ".join(str(c) for c in df.columns) + " |",
                        "|" + "---|" * len(df.columns)]
                out += ["| " + " | ".join(_fmt(v) for v in row) + " |" for row in df.itertuples(index=False)]
                out.append("")
            elif kind == "figure":
                if figure_dir is None:
                    out += [f"![{block[2]}](data:image/png;base64,{figure_png(block[1])})", "", f"_{block[2]}_", ""]
                else:
                    k += 1
                    name = f"{figure_prefix}-{k}.png"
                    os.makedirs(figure_dir, exist_ok=True)
                    with open(os.path.join(figure_dir, name), "wb") as fh:
                        fh.write(base64.b64decode(figure_png(block[1])))
                    out += [f"![{block[2]}]({name})", "", f"_{block[2]}_", ""]
    return "\n".join(out)


#: A text cell made of numbers only (an interval "28.4–34.1", "+0.13 [0.04, 0.22]"): kept on one line.
_NUMERIC_TEXT = re.compile(r"^[\s\d.,+\-−–—\[\]()%e×∞]+$")


def _cell_class(v: Any) -> str:
    """The CSS class of a table cell: a number right-aligned, a text of numbers unbroken."""
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return "num"
    if isinstance(v, str) and any(ch.isdigit() for ch in v) and _NUMERIC_TEXT.match(v):
        return "nw"
    return "txt"
