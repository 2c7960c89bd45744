"""Game records of every game: read, replay and write (``docs/records.md``).

A record is JSON Lines (a header, then per hand ``deal`` ... ``settle``); each game's part is
``kaptai.<package>.records`` (its event vocabulary, :func:`record_hands` and its replay in the
reference engine).  This module finds a game's part through the registry, by the game's name
or alias, or by the header of the record itself.

Examples
--------
>>> import os, tempfile
>>> from kaptai.records import record_hands, replay, read_record
>>> path = os.path.join(tempfile.mkdtemp(), "b2.jsonl")
>>> _ = record_hands("big-two", path, hands=2, seed=1)
>>> read_record(path).header["game"], replay(path).hands
('big-two', 2)
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from kaptai.core.records import (  # noqa: F401  (the command-line helpers are re-exported)
    RECORD_VERSION, Record, RecordError, RecordFormat, ReplaySummary, league_record, read_record as _read_record,
    record_option, record_schema, replay_command, replay_record,
)

__all__ = ["RECORD_VERSION", "RecordError", "record_format", "record_module", "read_record", "replay", "record_hands",
           "schema", "replay_command", "record_option", "RECORD_GAMES", "schema_text", "write_schemas",
           "league_record"]


def record_module(game: str) -> Any:
    """The ``kaptai.<package>.records`` module of a game (name or alias).

    >>> record_module("big-two").GAME
    'big-two'
    """
    from kaptai.games import game as lookup

    spec = lookup(game)
    return importlib.import_module(f"{spec.package}.records")


def record_format(game: str) -> RecordFormat:
    """The :class:`kaptai.core.records.RecordFormat` of a game (name or alias).

    >>> record_format("big-two").game
    'big-two'
    """
    from kaptai.games import game as lookup

    spec = lookup(game)
    mod = importlib.import_module(f"{spec.package}.records")
    formats = getattr(mod, "FORMATS", None)
    return formats[spec.name] if formats is not None else mod.FORMAT


def schema(game: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one line of a game's record.

    >>> schema("big-two")["$defs"]["play"]["required"]
    ['type', 'seat', 'cards', 'lead']
    """
    return record_schema(record_format(game))


def _lookup(game: str, line: int) -> RecordFormat:
    from kaptai.errors import KaptaiError

    try:
        return record_format(game)
    except KaptaiError as exc:
        raise RecordError(str(exc), line=line, field="game") from None


def read_record(path: str | os.PathLike, game: str | None = None) -> Record:
    """Parse a record and check every line against its game's schema.

    Parameters
    ----------
    path : str or path
    game : str, optional
        The game the record must be of (default: the one its header names).

    Raises
    ------
    kaptai.core.records.RecordError
        Naming the line and the field.
    """
    return _read_record(path, record_format(game) if game is not None else _lookup)


def replay(path: str | os.PathLike, game: str | None = None) -> ReplaySummary:
    """Replay a record in its game's reference engine: every event must be legal and the
    settlement must match; :class:`RecordError` names the first line (and field) that does not.

    Returns
    -------
    kaptai.core.records.ReplaySummary
        Hands, events and each seat's total (``.frame()`` as a table).

    Examples
    --------
    >>> import json, os, tempfile
    >>> p = record_hands("heaven-eleven", os.path.join(tempfile.mkdtemp(), "h.jsonl"), hands=2, seed=1)
    >>> replay(p).frame()[["game", "hands", "result"]].to_dict("records")
    [{'game': 'heaven-eleven', 'hands': 2, 'result': 'ok'}]
    >>> lines = open(p).read().splitlines()
    >>> e = json.loads(lines[-1]); e["result"][0] += 1; lines[-1] = json.dumps(e)
    >>> _ = open(p, "w").write("\\n".join(lines) + "\\n")
    >>> replay(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kaptai.core.records.RecordError: ...h.jsonl line ..., field result[0]: the replay gives ..., the record has ...
    """
    rec = read_record(path, game)
    return replay_record(rec, record_format(rec.header["game"]))


def record_hands(game: str, path: str | os.PathLike, players: int | None = None, rules: Any = None,
                 **kwargs: Any) -> Path:
    """Play hands of ``game`` and write their record to ``path`` (atomically).

    Parameters
    ----------
    game : str
        A game's name or alias (the registry's).
    path : str or path
        The ``.jsonl`` file to write; its folder must exist.
    players : int, optional
        Players (default: the game's).
    rules : RuleSet, preset name, mapping or None
    **kwargs
        ``policies=`` (a name or one per seat), ``hands=``, ``seed=`` and the game's own table
        settings (Big Two ``malaysian_swap``, Heaven Eleven ``bidding`` and ``samples``, ...):
        the game's ``kaptai.<package>.records.record_hands``.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile
    >>> p = record_hands("nine-ten", os.path.join(tempfile.mkdtemp(), "n.jsonl"), 4, hands=2, seed=5)
    >>> replay(p).hands
    2
    """
    from kaptai.core.records import _record_game
    from kaptai.games import game as lookup

    return _record_game(lookup(game), path, players, rules, **kwargs)


#: The games whose records the package writes (registry names).
RECORD_GAMES: tuple[str, ...] = ("kap-tai-shap", "kap-shap", "big-two", "nine-ten", "nantong", "heaven-eleven")


def schema_text(game: str) -> str:
    """The text of ``docs/records/<game>.schema.json`` (:func:`schema`, indented, UTF-8)."""
    import json

    return json.dumps(schema(game), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: str | os.PathLike) -> list[Path]:
    """Write every game's ``<game>.schema.json`` into ``folder`` (the docs' copies; a test
    checks they are current).

    >>> import tempfile
    >>> [p.name for p in write_schemas(tempfile.mkdtemp())][:2]
    ['kap-tai-shap.schema.json', 'kap-shap.schema.json']
    """
    out = []
    for g in RECORD_GAMES:
        p = Path(os.fspath(folder)) / f"{g}.schema.json"
        p.write_text(schema_text(g), encoding="utf-8")
        out.append(p)
    return out
