"""Report builder: self-contained HTML (figures embedded) or Markdown.

A game has a report when its :class:`kaptai.games.GameSpec` names a section builder
(``report_sections``); the builder finds it through the registry.
"""

from __future__ import annotations

import os
from typing import Sequence

import argparse

from kaptai.errors import RulesError, quote_token
from kaptai.games import GAMES, GameSpec, Output, game as game_spec, load_entry
from kaptai.report.render import Section, report_format, to_html, to_markdown, write_atomic

__all__ = ["build_report", "report_command", "REPORT_GAMES", "Section"]

#: Games with a report, in registry order.
REPORT_GAMES: tuple[str, ...] = tuple(name for name, g in GAMES.items() if g.report_sections)


def build_report(
    game: str,
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
        A game id of :data:`REPORT_GAMES`.
    players : sequence of int
        Player counts to cover, within the game's range (:attr:`kaptai.games.GameSpec.players`).
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
    try:
        spec: GameSpec | None = game_spec(game)
    except RulesError:
        spec = None
    if spec is None or not spec.report_sections:
        raise RulesError(f"no report for game {game!r}: expected one of {', '.join(REPORT_GAMES)}")
    fmt = report_format(out, fmt, checkpoint)
    if isinstance(hands, bool) or not isinstance(hands, int) or hands < 1:
        raise RulesError(f"hands={quote_token(hands)} is not allowed: expected an integer >= 1")
    lo, top = spec.players
    for p in players:
        if isinstance(p, bool) or not isinstance(p, int) or not 2 <= p <= top:
            raise RulesError(f"players={quote_token(p)} is not supported: expected integers from 2 to {top}")
    build_sections = load_entry(spec.report_sections)
    title, sections, meta, results = build_sections(players, hands, seed, workers=workers, progress=progress,
                                                    scheduler=scheduler, checkpoint=checkpoint)
    text = to_html(title, sections, meta) if fmt == "html" else to_markdown(title, sections, meta)
    if out is not None:
        write_atomic(out, text)
    return text, results


def report_command(args: argparse.Namespace, game: GameSpec) -> Output:
    """``kaptai report <game>``: build the report and write it (the registry's entry point)."""
    out = args.out if args.out is not None else f"reports/{game.name}.html"
    fmt = report_format(out, args.format)
    build_report(game.name, players=args.players, hands=args.hands, seed=args.seed, out=out, fmt=fmt,
                 workers=args.workers, progress=args.progress, scheduler=args.scheduler,
                 checkpoint=args.checkpoint)
    return Output(None, text=f"wrote {out}")
