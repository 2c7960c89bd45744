"""Report builder: self-contained HTML (figures embedded) or Markdown.

>>> from kaptai.report import REPORT_GAMES
>>> REPORT_GAMES
('kap-tai-shap', 'big-two')
"""

from __future__ import annotations

import os
import pathlib
import tempfile
from typing import Sequence

from kaptai.errors import RulesError
from kaptai.report.render import Section, to_html, to_markdown

__all__ = ["build_report", "REPORT_GAMES", "Section"]

REPORT_GAMES = ("kap-tai-shap", "big-two")


def build_report(
    game: str = "kap-tai-shap",
    *,
    players: Sequence[int] = (3, 4, 5, 6, 8, 10),
    hands: int = 20_000,
    seed: int = 1,
    out: str | os.PathLike | None = None,
    fmt: str | None = None,
    workers: int = 1,
    progress: bool = True,
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
) -> tuple[str, dict]:
    """Build the report of ``game`` and write it to ``out`` (atomically).

    Parameters
    ----------
    game : str
        'kap-tai-shap' or 'big-two'.
    players : sequence of int
        Player counts to cover (Kap Tai Shap 2-22; Big Two 2-52, for the exact deal odds —
        its simulations are of 4 players, 3 for the Malaysian variant).
    hands : int
        Hands (games) per Monte Carlo configuration.
    seed : int
    out : path, optional
        Output file; its suffix picks the format unless ``fmt`` is given.
    fmt : {'html', 'md'}, optional
    workers : int
        Worker processes for the simulations.
    progress : bool
        Print progress lines on stderr.
    scheduler, checkpoint
        Passed to the runner (:mod:`kaptai.core.runner`): a Dask scheduler
        address or 'local', and a folder where every simulation of the report
        checkpoints its finished chunks (one sub-folder each), so an
        interrupted build resumes.

    Returns
    -------
    (str, dict)
        The document text and the computed tables.
    """
    if game not in REPORT_GAMES:
        raise RulesError(f"no report for game {game!r}: expected one of {', '.join(REPORT_GAMES)}")
    if fmt is None:
        fmt = "md" if out is not None and str(out).endswith(".md") else "html"
    if fmt not in ("html", "md"):
        raise RulesError(f"report format {fmt!r}: expected 'html' or 'md'")
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise RulesError(f"hands={hands!r} is not allowed: expected an integer >= 1")
    top = 22 if game == "kap-tai-shap" else 52
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int) or not 2 <= p <= top:
            raise RulesError(f"players={p!r} is not supported: expected integers from 2 to {top}")
    if game == "kap-tai-shap":
        from kaptai.report import kts as builder
    else:
        from kaptai.report import bigtwo as builder

    title, sections, meta, results = builder.build_sections(players, hands, seed, workers=workers, progress=progress,
                                                            scheduler=scheduler, checkpoint=checkpoint)
    text = to_html(title, sections, meta) if fmt == "html" else to_markdown(title, sections, meta)
    if out is not None:
        path = pathlib.Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    return text, results
