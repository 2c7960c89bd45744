"""Game records: JSON Lines, one event a line, the same vocabulary in every game.

A record is a header line, then for each hand a ``deal`` event, the hand's events in the order
they happened (``draw``, ``discard``, ``claim``, ``play``, ``pass``, ``bid`` ... each with its
``seat`` and its cards in the game's own notation) and a ``settle`` event (each seat's result
in the game's unit).  The format is described in ``docs/records.md``; each game's events are a
JSON Schema (draft 2020-12) written by :func:`record_schema` from the game's own event
definitions and shipped as ``docs/records/<game>.schema.json``.

This module holds what every game shares and knows no game:

* :class:`RecordWriter` -- writes a record atomically (a temporary file in the same folder,
  renamed over the target only when the record is complete: nothing half-written on Ctrl-C);
* :func:`read_record` -- parses and checks a record line by line against a game's schema
  (:class:`RecordFormat`), grouping its events into hands;
* :class:`HandCursor` -- walks a hand's recorded events while an engine replays them;
* :class:`RecordError` -- a malformed or illegal record, naming the line and the field.

The games' own parts (``kaptai.<game>.records``) give a :class:`RecordFormat`: the event
definitions, how to read the table from the header, and how to replay one hand in the
pure-Python reference engine.  :mod:`kaptai.records` finds them through the registry.

Examples
--------
>>> import json, os, tempfile
>>> from kaptai.core.records import RecordWriter, read_lines
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "x.jsonl")
>>> with RecordWriter(path) as w:
...     w.write({"type": "record", "version": 1})
...     w.write({"type": "deal", "hand": 0})
>>> [(n, e["type"]) for n, e in read_lines(path)]
[(1, 'record'), (2, 'deal')]
"""

from __future__ import annotations

import json
import math
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from kaptai.core.paths import umask_mode
from kaptai.errors import KaptaiError, quote_token, same_value

__all__ = [
    "RECORD_VERSION",
    "RECORD_SUFFIXES",
    "EVENT_TYPES",
    "RecordError",
    "record_setup",
    "record_unit",
    "RecordWriter",
    "RecordFormat",
    "Record",
    "HandRecord",
    "HandCursor",
    "ReplaySummary",
    "make_header",
    "record_schema",
    "check_event",
    "read_lines",
    "read_record",
    "replay_record",
    "write_record",
    "seat_schema",
    "cards_schema",
    "batch_streams",
    "event_schema",
    "settle_schema",
    "game_records",
    "game_format",
    "replay_command",
    "record_option",
    "league_record",
]

#: The version of the record format written by this package (the header's ``version``).
RECORD_VERSION: int = 1
#: File suffixes a record may have.
RECORD_SUFFIXES: tuple[str, ...] = ("jsonl",)
#: The shared event vocabulary (a game uses the ones it has, and may add its own).
EVENT_TYPES: tuple[str, ...] = ("record", "deal", "draw", "discard", "claim", "play", "pass", "bid", "settle")


class RecordError(KaptaiError):
    """A malformed or illegal record: the message names the file, the line and the field.

    Attributes
    ----------
    line : int or None
        1-based line number (None: the file as a whole).
    field : str or None
        The field of that line's event (``'cards'``, ``'hands[2]'``), None for the line.

    Examples
    --------
    >>> str(RecordError("bad", line=3, field="seat", path="r.jsonl"))
    'r.jsonl line 3, field seat: bad'
    """

    def __init__(self, reason: str, *, line: int | None = None, field: str | None = None,
                 path: str | os.PathLike | None = None):
        self.reason, self.line, self.field = reason, line, field
        self.path = None if path is None else os.fspath(path)
        where = []
        if self.path is not None:
            where.append(_shown(self.path))
        if line is not None:
            where.append(f"line {line}")
        head = " ".join(where)
        if field is not None:
            head += (", " if head else "") + f"field {field}"
        super().__init__(f"{head}: {reason}" if head else reason)


def _shown(path: str) -> str:
    """A path in a message: at most 40 characters, its end kept (the file's name)."""
    return path if len(path) <= 40 else "…" + path[-39:]


# --------------------------------------------------------------------------------------
# Schemas: the games' event definitions, checked here by a small validator (a subset of
# JSON Schema draft 2020-12, the one the schema files use) and by jsonschema in the tests
# --------------------------------------------------------------------------------------


def seat_schema(players: int | None = None, *, none: bool = False) -> dict[str, Any]:
    """Schema of a seat number (0 = the first seat), ``-1`` allowed with ``none``.

    >>> seat_schema(4)
    {'type': 'integer', 'minimum': 0, 'maximum': 3}
    """
    s: dict[str, Any] = {"type": "integer", "minimum": -1 if none else 0}
    if players is not None:
        s["maximum"] = players - 1
    return s


def cards_schema(description: str, pattern: str | None = None) -> dict[str, Any]:
    """Schema of a card (tile) string in the game's notation.

    >>> cards_schema("the cards played")["type"]
    'string'
    """
    s: dict[str, Any] = {"type": "string", "maxLength": 2000, "description": description}
    if pattern is not None:
        s["pattern"] = pattern
    return s


def _header_schema(game: str, extra: Mapping[str, Any]) -> dict[str, Any]:
    props: dict[str, Any] = {
        "type": {"const": "record"},
        "version": {"const": RECORD_VERSION, "description": "format version"},
        "game": {"const": game},
        "rules": {"type": "object", "description": "the full RuleSet, option -> value"},
        "players": {"type": "integer", "minimum": 1, "maximum": 100},
        "policies": {"type": "array", "items": {"type": "string", "maxLength": 200}, "minItems": 1,
                     "description": "each seat's policy when the record was written"},
        "unit": {"type": "string", "description": "the unit of the settle event's results"},
        "stake": {"type": "number", "description": "money a unit of the result is worth"},
        "seed": {"type": ["integer", "null"], "description": "seed entropy of the deals (null: not seeded)"},
        "hands": {"type": "integer", "minimum": 0, "description": "hands in the record"},
        "kaptai": {"type": "string", "description": "version of kaptai that wrote the record"},
    }
    props.update(extra)
    return {"type": "object", "required": ["type", "version", "game", "rules", "players", "policies", "unit", "kaptai"],
            "properties": props, "additionalProperties": False}


def record_schema(fmt: RecordFormat) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one line of a game's record.

    A line is an object whose ``type`` selects its definition in ``$defs`` (``record`` for
    the header).

    >>> fmt = RecordFormat("demo", "points", {"deal": {"type": "object", "required": ["type"],
    ...     "properties": {"type": {"const": "deal"}}, "additionalProperties": False}})
    >>> s = record_schema(fmt)
    >>> sorted(s["$defs"]), s["properties"]["type"]["enum"]
    (['deal', 'record'], ['record', 'deal'])
    """
    defs = {"record": _header_schema(fmt.game, fmt.header_extra), **fmt.events}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://kaptai.invalid/records/{fmt.game}.schema.json",
        "title": f"kaptai game record, {fmt.game}, version {RECORD_VERSION}: one line (JSON Lines)",
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": list(defs)}},
        "$defs": defs,
        "allOf": [{"if": {"properties": {"type": {"const": k}}, "required": ["type"]},
                   "then": {"$ref": f"#/$defs/{k}"}} for k in defs],
    }


_JSON_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def _check(schema: Mapping[str, Any], v: Any, where: str) -> tuple[str, str] | None:
    """The first violation of ``schema`` by ``v`` as ``(field, reason)``, or None."""
    t = schema.get("type")
    if t is not None:
        types = [t] if isinstance(t, str) else list(t)
        if not any(_JSON_TYPES[x](v) for x in types):
            return where, f"{quote_token(v)} is not {' or '.join(types)}"
    if "const" in schema and (v != schema["const"] or type(v) is not type(schema["const"])):
        return where, f"{quote_token(v)}: expected {schema['const']!r}"
    if "enum" in schema and v not in schema["enum"]:
        allowed = ", ".join(repr(x) for x in schema["enum"][:12])
        return where, f"{quote_token(v)} is not one of {allowed}"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in schema and v < schema["minimum"]:
            return where, f"{quote_token(v)} is below {schema['minimum']}"
        if "maximum" in schema and v > schema["maximum"]:
            return where, f"{quote_token(v)} is above {schema['maximum']}"
    if isinstance(v, str):
        if len(v) > schema.get("maxLength", 1 << 30):
            return where, f"{quote_token(v)} is longer than {schema['maxLength']} characters"
        if "pattern" in schema and not re.search(schema["pattern"], v):
            return where, f"{quote_token(v)} is not in the expected form"
    if isinstance(v, list):
        if len(v) < schema.get("minItems", 0):
            return where, f"{len(v)} item(s), expected at least {schema['minItems']}"
        if len(v) > schema.get("maxItems", 1 << 30):
            return where, f"{len(v)} item(s), expected at most {schema['maxItems']}"
        items = schema.get("items")
        if items is not None:
            for i, x in enumerate(v):
                bad = _check(items, x, f"{where}[{i}]")
                if bad:
                    return bad
    if isinstance(v, dict):
        props = schema.get("properties", {})
        for k in schema.get("required", ()):
            if k not in v:
                return (f"{where}.{k}" if where else k), "missing"
        if schema.get("additionalProperties") is False:
            for k in v:
                if k not in props:
                    return (f"{where}.{k}" if where else str(k)), "not a field of this event"
        for k, sub in props.items():
            if k in v:
                bad = _check(sub, v[k], f"{where}.{k}" if where else k)
                if bad:
                    return bad
    return None


def check_event(fmt: RecordFormat, event: Any, line: int, path: str | os.PathLike | None = None) -> None:
    """Check one parsed line against the game's schema; :class:`RecordError` naming the field.

    >>> fmt = RecordFormat("demo", "points", {"pass": {"type": "object", "required": ["type", "seat"],
    ...     "properties": {"type": {"const": "pass"}, "seat": seat_schema(4)}, "additionalProperties": False}})
    >>> check_event(fmt, {"type": "pass", "seat": 7}, 5)
    Traceback (most recent call last):
    ...
    kaptai.core.records.RecordError: line 5, field seat: 7 is above 3
    """
    if not isinstance(event, dict):
        raise RecordError(f"expected a JSON object, got {quote_token(event)}", line=line, path=path)
    typ = event.get("type")
    if "type" not in event:
        raise RecordError("missing", line=line, field="type", path=path)
    schema = fmt.header if typ == "record" else fmt.events.get(typ) if isinstance(typ, str) else None
    if schema is None:
        known = ", ".join(["record", *fmt.events])
        raise RecordError(f"{quote_token(typ)} is not an event of {fmt.game} (expected one of {known})",
                          line=line, field="type", path=path)
    bad = _check(schema, event, "")
    if bad is not None:
        raise RecordError(bad[1], line=line, field=bad[0] or None, path=path)


# --------------------------------------------------------------------------------------
# The game's part
# --------------------------------------------------------------------------------------


@dataclass
class RecordFormat:
    """What one game supplies to write, read and replay its records.

    Parameters
    ----------
    game : str
        The registry name (``'big-two'``).
    unit : str
        The unit of the ``settle`` results (``'points'``, ``'chips'``).
    events : dict
        Event type -> JSON Schema of that event (``deal``, ``settle`` and the game's moves).
    header_extra : dict
        Schemas of header fields the game adds.
    setup : callable, optional
        ``setup(header) -> context``: the table of the header (raises a KaptaiError for bad
        rules or players; :func:`replay_record` names the header's line).
    replay_hand : callable, optional
        ``replay_hand(context, cursor, carry) -> carry``: replays one hand in the reference
        engine, comparing every event it produces with the record through the
        :class:`HandCursor`; ``carry`` is what passes from one hand to the next (a dealer, a
        previous winner), None before the first.
    unit_of : callable, optional
        ``unit_of(context) -> str``: the unit the table of ``setup`` settles in, where it depends
        on the rules (Kap Tai Shap: antes or points; Nantong: a share of the hand win or points).
        A header naming another unit is refused (line 1, field ``unit``) unless the pair
        ``(written, meant)`` is in ``legacy_units`` (labels an older kaptai wrote); either way a
        replay's totals and a review are in ``unit_of``'s unit.
    legacy_units : tuple of (str, str)
        See ``unit_of``.
    """

    game: str
    unit: str
    events: dict[str, dict[str, Any]]
    header_extra: dict[str, Any] = field(default_factory=dict)
    setup: Callable[[dict[str, Any]], Any] | None = None
    replay_hand: Callable[[Any, HandCursor, Any], Any] | None = None
    unit_of: Callable[[Any], str] | None = None
    legacy_units: tuple[tuple[str, str], ...] = ()

    @property
    def header(self) -> dict[str, Any]:
        """The schema of the header line."""
        return _header_schema(self.game, self.header_extra)


def make_header(game: str, rules: Mapping[str, Any], players: int, policies: Sequence[str], unit: str, *,
                seed: int | None, hands: int | None = None, stake: float | None = None,
                **extra: Any) -> dict[str, Any]:
    """The header line of a record (``type: 'record'``, ``version``, the table, the seed).

    >>> h = make_header("big-two", {"players": 4}, 4, ["greedy"] * 4, "points", seed=1)
    >>> h["type"], h["version"], h["game"], h["seed"]
    ('record', 1, 'big-two', 1)
    """
    from kaptai._version import __version__

    h: dict[str, Any] = {"type": "record", "version": RECORD_VERSION, "game": game, "rules": dict(rules),
                         "players": int(players), "policies": [str(p) for p in policies], "unit": unit}
    if stake is not None:
        h["stake"] = stake
    h["seed"] = None if seed is None else int(seed)
    if hands is not None:
        h["hands"] = int(hands)
    h.update(extra)
    h["kaptai"] = __version__
    return h


# --------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------


def _dumps(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "), allow_nan=False)


class RecordWriter:
    """Writes a record atomically: to a temporary file beside ``path``, renamed over ``path``
    when the ``with`` block ends normally; on an exception (Ctrl-C included) the temporary file
    is removed and ``path`` is left as it was.

    Parameters
    ----------
    path : str or path
        The record to write (its folder must exist).

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "r.jsonl")
    >>> try:
    ...     with RecordWriter(p) as w:
    ...         w.write({"type": "record"})
    ...         raise KeyboardInterrupt
    ... except KeyboardInterrupt:
    ...     pass
    >>> os.path.exists(p), os.listdir(d)
    (False, [])
    """

    def __init__(self, path: str | os.PathLike):
        self.path = Path(os.fspath(path))
        self._fh: TextIO | None = None
        self._tmp: str | None = None
        self.lines = 0

    def __enter__(self) -> RecordWriter:
        folder = self.path.parent if str(self.path.parent) else Path(".")
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".part", dir=folder)
        umask_mode(fd)
        self._fh = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        return self

    def write(self, event: Mapping[str, Any]) -> None:
        """Write one event as one line."""
        assert self._fh is not None, "use RecordWriter in a with block"
        self._fh.write(_dumps(event) + "\n")
        self.lines += 1

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        assert self._fh is not None and self._tmp is not None
        if exc_type is None:
            try:
                self._fh.flush()
                os.fsync(self._fh.fileno())
                self._fh.close()
                os.replace(self._tmp, self.path)
                return
            except BaseException:
                self._discard()
                raise
        self._discard()

    def _discard(self) -> None:
        assert self._fh is not None and self._tmp is not None
        try:
            self._fh.close()
        finally:
            try:
                os.unlink(self._tmp)
            except FileNotFoundError:
                pass


def write_record(path: str | os.PathLike, header: Mapping[str, Any],
                 hands: Iterable[Sequence[Mapping[str, Any]]]) -> int:
    """Write a header and the hands' events (an iterable of event lists) atomically.

    Returns the number of hands written.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "r.jsonl")
    >>> write_record(p, {"type": "record"}, [[{"type": "deal"}, {"type": "settle"}]])
    1
    >>> sum(1 for _ in open(p))
    3
    """
    n = 0
    with RecordWriter(path) as w:
        w.write(header)
        for events in hands:
            for e in events:
                w.write(e)
            n += 1
    return n


# --------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------


def read_lines(path: str | os.PathLike) -> Iterator[tuple[int, Any]]:
    """``(line number, parsed JSON)`` of each line of a record; :class:`RecordError` for a line
    that is not JSON (a truncated last line included) or a blank line.

    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "r.jsonl")
    >>> _ = open(p, "w").write('{"type": "record"}\\n{"type": "de')
    >>> list(read_lines(p))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    kaptai.core.records.RecordError: ... line 2: truncated: the last line is not complete JSON (the file ends without a newline)
    """
    if not isinstance(path, (str, os.PathLike)) or not str(os.fspath(path)).strip():
        from kaptai.core.paths import PathError

        raise PathError(f"record: expected a file name, got {quote_token(path)}")
    p = os.fspath(path)
    try:
        fh = open(p, encoding="utf-8", newline="")
    except FileNotFoundError:
        raise RecordError("no such file", path=p) from None
    except IsADirectoryError:
        raise RecordError("is a folder, not a record file", path=p) from None
    except OSError as exc:
        raise RecordError(f"cannot be read ({exc.strerror or exc})", path=p) from None
    with fh:
        n = 0
        try:
            for n, raw in enumerate(fh, 1):
                text = raw.rstrip("\r\n")
                if not text.strip():
                    raise RecordError("blank line: expected one JSON event per line", line=n, path=p)
                try:
                    yield n, json.loads(text)
                except (json.JSONDecodeError, RecursionError) as exc:
                    if not raw.endswith("\n"):
                        raise RecordError("truncated: the last line is not complete JSON (the file ends "
                                          "without a newline)", line=n, path=p) from None
                    raise RecordError(f"not JSON ({getattr(exc, 'msg', 'nested too deeply')}): "
                                      f"{quote_token(text)}", line=n, path=p) from None
        except UnicodeDecodeError:
            raise RecordError("not UTF-8 text", line=n + 1, path=p) from None
        if n == 0:
            raise RecordError("empty file: expected a header line", path=p)


@dataclass
class HandRecord:
    """One hand of a record: its events with their line numbers.

    Attributes
    ----------
    index : int
        0-based hand index in the record.
    lines : list of int
    events : list of dict
    """

    index: int
    lines: list[int]
    events: list[dict[str, Any]]

    @property
    def deal(self) -> dict[str, Any]:
        """The hand's first event (a ``deal``)."""
        return self.events[0]

    @property
    def settle(self) -> dict[str, Any]:
        """The hand's last event (a ``settle``)."""
        return self.events[-1]


@dataclass
class Record:
    """A parsed record: the header and the hands.

    Attributes
    ----------
    path : str
    header : dict
    hands : list of HandRecord
    """

    path: str
    header: dict[str, Any]
    hands: list[HandRecord]

    @property
    def events(self) -> int:
        """Lines of the record after the header."""
        return sum(len(h.events) for h in self.hands)


def read_record(path: str | os.PathLike, fmt: RecordFormat | Callable[[str, int], RecordFormat]) -> Record:
    """Parse a record and check every line against the game's schema.

    Parameters
    ----------
    path : str or path
    fmt : RecordFormat, or a callable ``(game, line) -> RecordFormat``
        The game's format; a callable is given the header's ``game`` (to look it up).

    Returns
    -------
    Record

    Raises
    ------
    RecordError
        A line that is not JSON or breaks the schema (naming its line and field), a hand
        that does not start with ``deal`` or end with ``settle``, a record cut short.
    """
    lines = read_lines(path)
    n, header = next(lines)  # a path that is no file name is refused here
    p = os.fspath(path)
    if not isinstance(header, dict) or header.get("type") != "record":
        raise RecordError("the first line must be the header (type 'record')", line=n,
                          field="type" if isinstance(header, dict) else None, path=p)
    if "version" not in header:
        raise RecordError("missing", line=n, field="version", path=p)
    if header["version"] != RECORD_VERSION or isinstance(header["version"], bool):
        raise RecordError(f"{quote_token(header['version'])}: this kaptai reads version {RECORD_VERSION}",
                          line=n, field="version", path=p)
    if not callable(fmt) or isinstance(fmt, RecordFormat):
        f = fmt
        if header.get("game") != f.game:
            raise RecordError(f"{quote_token(header.get('game'))}: expected {f.game!r}", line=n, field="game", path=p)
    else:
        if not isinstance(header.get("game"), str):
            raise RecordError("missing" if "game" not in header else f"{quote_token(header['game'])} is not a game",
                              line=n, field="game", path=p)
        try:
            f = fmt(header["game"], n)
        except RecordError as exc:
            if exc.path is not None:
                raise
            raise RecordError(exc.reason, line=exc.line, field=exc.field, path=p) from None
    check_event(f, header, n, p)
    hands: list[HandRecord] = []
    cur: HandRecord | None = None
    for n, ev in lines:
        check_event(f, ev, n, p)
        typ = ev["type"]
        if typ == "record":
            raise RecordError("a second header: a record has one header, on its first line", line=n, field="type", path=p)
        if cur is None:
            if typ != "deal":
                raise RecordError(f"{typ!r}: a hand starts with a 'deal' event", line=n, field="type", path=p)
            cur = HandRecord(len(hands), [], [])
        elif typ == "deal" and ev.get("hand", cur.index) != cur.index:
            # a redeal stays in its hand; a deal of the next hand means this hand never settled
            raise RecordError(f"a deal of hand {quote_token(ev['hand'])} inside hand {cur.index} (started at line "
                              f"{cur.lines[0]}): hand {cur.index}'s 'settle' event is missing", line=n,
                              field="hand", path=p)
        cur.lines.append(n)
        cur.events.append(ev)
        if typ == "settle":
            hands.append(cur)
            cur = None
    if cur is not None:
        raise RecordError(f"the record ends inside hand {cur.index} (started at line {cur.lines[0]}): "
                          "its 'settle' event is missing (a truncated record?)", line=cur.lines[-1], path=p)
    if "hands" in header and header["hands"] != len(hands):
        raise RecordError(f"the header says {header['hands']} hand(s), the record holds {len(hands)}",
                          line=1, field="hands", path=p)
    return Record(p, header, hands)


# --------------------------------------------------------------------------------------
# Replaying
# --------------------------------------------------------------------------------------


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b) and type(a) is type(b)


def _first_difference(want: Any, got: Any, where: str) -> tuple[str, Any, Any] | None:
    if isinstance(want, dict) and isinstance(got, dict):
        for k in [*want, *(k for k in got if k not in want)]:
            sub = f"{where}.{k}" if where else str(k)
            if k not in got:
                return sub, want[k], "<missing>"
            if k not in want:
                return sub, "<no such field>", got[k]
            d = _first_difference(want[k], got[k], sub)
            if d:
                return d
        return None
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        for i, (x, y) in enumerate(zip(want, got)):
            d = _first_difference(x, y, f"{where}[{i}]")
            if d:
                return d
        return None
    return None if _same(want, got) else (where, want, got)


class HandCursor:
    """A hand's recorded events, walked in order while the engine replays the hand.

    The replay calls :meth:`peek` to read the next recorded move (a decision the engine then
    plays), :meth:`expect` with each event the engine produced (compared field by field with
    the recorded one at the same place), and :meth:`finish` at the end of the hand.

    Examples
    --------
    >>> hand = HandRecord(0, [2, 3], [{"type": "deal"}, {"type": "pass", "seat": 1}])
    >>> c = HandCursor(hand, "r.jsonl")
    >>> c.expect({"type": "deal"})
    >>> c.expect({"type": "pass", "seat": 2})
    Traceback (most recent call last):
    ...
    kaptai.core.records.RecordError: r.jsonl line 3, field seat: the replay gives 2, the record has 1
    """

    def __init__(self, hand: HandRecord, path: str | None = None):
        self.hand = hand
        self.path = path
        self.pos = 0

    @property
    def line(self) -> int:
        """Line of the next recorded event (the last line once every event is read)."""
        return self.hand.lines[min(self.pos, len(self.hand.lines) - 1)]

    def error(self, field: str | None, reason: str, line: int | None = None) -> RecordError:
        """A :class:`RecordError` at the next event (or at ``line``)."""
        return RecordError(reason, line=self.line if line is None else line, field=field, path=self.path)

    def peek(self) -> dict[str, Any]:
        """The next recorded event (the record must have one)."""
        if self.pos >= len(self.hand.events):
            raise self.error(None, "the hand's events end here, but the game goes on")
        return self.hand.events[self.pos]

    def expect(self, event: Mapping[str, Any]) -> None:
        """Compare ``event`` (made by the replay) with the next recorded event, and step past it."""
        if self.pos >= len(self.hand.events):
            raise self.error(None, f"the hand's events end here, but the replay has a {event.get('type')!r} event next")
        got = self.hand.events[self.pos]
        if got.get("type") != event.get("type"):
            raise self.error("type", f"the replay has a {event.get('type')!r} event here, the record {got.get('type')!r}")
        d = _first_difference(dict(event), got, "")
        if d is not None:
            where, want, have = d
            raise self.error(where or None, f"the replay gives {quote_token(want)}, the record has {quote_token(have)}")
        self.pos += 1

    def expect_all(self, events: Iterable[Mapping[str, Any]]) -> None:
        """:meth:`expect` each of ``events`` in turn."""
        for e in events:
            self.expect(e)

    def seats_named_throughout(self, carry: Any) -> None:
        """A record whose deal rotates says the table's seats (``seats``) in every hand's ``deal``, or
        none does: refused otherwise.  ``carry``: what the replay of the hand before carried, ``()``
        where its deal named no seats, None where it is not known (the first hand, a review)."""
        named = self.hand.deal.get("seats") is not None
        if carry is not None and (carry == ()) == named:
            raise self.error("seats", "a record says the table's seats in every hand's deal or in none"
                             + (f" (hand {self.hand.index - 1}'s deal says them)" if carry != () else ""))

    def finish(self) -> None:
        """The hand is over: every recorded event must have been replayed."""
        if self.pos < len(self.hand.events):
            raise self.error("type", f"the hand is over, but the record has a {self.hand.events[self.pos].get('type')!r} "
                                     "event here")


@dataclass
class ReplaySummary:
    """What :func:`replay_record` checked.

    Attributes
    ----------
    path, game : str
    hands, events : int
        Hands and events (lines after the header) replayed.
    totals : list of float
        Each seat's summed result over the record, in ``unit``.
    unit : str
    """

    path: str
    game: str
    hands: int
    events: int
    totals: list[float]
    unit: str

    def frame(self) -> Any:
        """A one-row table: ``game, hands, events, result`` and each seat's total."""
        import pandas as pd

        row: dict[str, Any] = {"game": self.game, "hands": self.hands, "events": self.events, "result": "ok"}
        for s, t in enumerate(self.totals):
            row[f"total_seat_{s}"] = t
        df = pd.DataFrame([row])
        df.attrs.update({"game": self.game, "record": self.path, "unit": self.unit})
        return df


def record_setup(record: Record, fmt: RecordFormat) -> Any:
    """``fmt.setup(record.header)`` (the table a record was played at), its refusals as a
    :class:`RecordError` naming the record's file, the header's line and the field (``rules``
    unless the game names another, such as Kap Tai Shap's ``unit``)."""
    if fmt.setup is None:
        raise KaptaiError(f"{fmt.game}: records of this game cannot be replayed")
    rules = record.header.get("rules")
    if isinstance(rules, Mapping):
        for key in ("players", "stake"):
            if key in record.header and key in rules and not same_value(record.header[key], rules[key]):
                raise RecordError(f"{key} {quote_token(record.header[key])} contradicts the rules' {key} "
                                  f"{quote_token(rules[key])}", line=1, field=key, path=record.path)
    try:
        ctx = fmt.setup(record.header)
    except RecordError as exc:
        if exc.path is not None:
            raise
        raise RecordError(exc.reason, line=exc.line, field=exc.field, path=record.path) from None
    except KaptaiError as exc:
        raise RecordError(str(exc), line=1, field="rules", path=record.path) from None
    if fmt.unit_of is not None:
        want, got = fmt.unit_of(ctx), record.header.get("unit")
        if got != want and (got, want) not in fmt.legacy_units:
            raise RecordError(f"unit {quote_token(got)}: the rules of this record settle in {want!r}", line=1,
                              field="unit", path=record.path)
    return ctx


def record_unit(record: Record, fmt: RecordFormat, ctx: Any) -> str:
    """The unit of a record's results: ``fmt.unit_of(ctx)`` where the game's unit depends on the
    rules (``ctx`` from :func:`record_setup`), else the header's ``unit``, else ``fmt.unit``."""
    if fmt.unit_of is not None:
        return fmt.unit_of(ctx)
    unit = record.header.get("unit")
    return unit if isinstance(unit, str) and unit else fmt.unit


def replay_record(record: Record, fmt: RecordFormat) -> ReplaySummary:
    """Replay every hand of a parsed record with the game's ``replay_hand``.

    Raises :class:`RecordError` at the first event that the engine does not reproduce (an
    illegal move, a wrong seat, a deal that is not a deck, a settlement that does not match).
    """
    if fmt.setup is None or fmt.replay_hand is None:
        raise KaptaiError(f"{fmt.game}: records of this game cannot be replayed")
    ctx = record_setup(record, fmt)
    carry: Any = None
    totals: list[float] = [0.0] * int(record.header["players"])
    for hand in record.hands:
        cursor = HandCursor(hand, record.path)
        carry = fmt.replay_hand(ctx, cursor, carry)
        cursor.finish()
        res = hand.settle.get("result")
        if isinstance(res, list):
            for s, v in enumerate(res[: len(totals)]):
                totals[s] += float(v)
    # results are written to 10 decimals (a third as 0.3333333333): so is their sum, so that it
    # reads as the total it is (2.3333333333, not 2.3333333332999997)
    totals = [round(t, 10) for t in totals]
    return ReplaySummary(record.path, fmt.game, len(record.hands), record.events, totals, record_unit(record, fmt, ctx))


def batch_streams(seed: int | None, batch: int) -> tuple[Any, Any]:
    """The two generators of batch ``batch`` of a record's hands: ``(deals, policies)``.

    Deals (the decks or walls) come from ``numpy.random.Generator`` on the child
    ``(batch, 0)`` of ``SeedSequence(seed)``; the policies' own draws from a fresh ``PCG64``
    on the child ``(batch, 1)``.  The same seed writes the same record.

    >>> deals, pols = batch_streams(1, 0)
    >>> int(deals.integers(100)) == int(batch_streams(1, 0)[0].integers(100))
    True
    """
    import numpy as np

    def child(k: int) -> Any:
        return np.random.SeedSequence(seed, spawn_key=(int(batch), k))

    return np.random.Generator(np.random.PCG64(child(0))), np.random.PCG64(child(1))


class DeckCursor:
    """The decks of one engine run and how many of them its hands' events have dealt so far (a
    redeal or a passed-out deal takes one more).

    >>> import numpy as np
    >>> c = DeckCursor(np.arange(6).reshape(3, 2))
    >>> c.take().tolist(), c.take().tolist(), c.used
    ([0, 1], [2, 3], 2)
    """

    def __init__(self, decks: Any):
        self.decks = decks
        self.used = 0

    def take(self) -> Any:
        """The next deck (and count it dealt)."""
        deck = self.decks[self.used]
        self.used += 1
        return deck


def spare_deck_hands(seed: int | None, batch: int, n: int, cards: int, extra: int, run: Callable[..., Any],
                     events: Callable[..., list[dict[str, Any]]],
                     on_hand: Callable[[int, list[dict[str, Any]]], None] | None = None,
                     errors: tuple[type[BaseException], ...] = (KaptaiError, ValueError),
                     ) -> Iterator[list[dict[str, Any]]]:
    """Play ``n`` hands in one engine run on decks of batch ``batch`` of ``seed``
    (:func:`batch_streams`: ``n + extra`` decks of ``cards``), four times as many spare decks and the
    same run again while it runs out of them (the first decks stay the same), and yield each hand's
    events.

    ``run(decks, policy_bit_generator, hand_over)`` plays the run and returns ``(out, log)`` (log rows
    with the hand in column 0); ``hand_over`` is None, or, with ``on_hand``, the engine's per-hand
    callback ``(g, out_row, log_rows)``.  ``events(g, out, j, rows, cursor)`` gives hand ``g``'s events
    from its log rows and row ``j`` of ``out``, dealing its decks from ``cursor``
    (:class:`DeckCursor`).  With ``on_hand``, ``on_hand(g, events)`` gets each hand as soon as it is
    over (a hand played again after drawing more spare decks comes again).
    """
    import numpy as np

    over: list[list[dict[str, Any]]] = []
    cur = DeckCursor(None)

    def hand_over(g: int, out: Any, rows: Any) -> None:
        over.append(events(g, out, 0, rows, cur))
        assert on_hand is not None
        on_hand(g, over[-1])

    while True:
        deals, policy_bg = batch_streams(seed, batch)
        cur.decks, cur.used = np.stack([deals.permutation(cards) for _ in range(n + extra)]).astype(np.int64), 0
        over.clear()
        try:
            out, log = run(cur.decks, policy_bg, None if on_hand is None else hand_over)
            break
        except errors as exc:  # more redeals than spare decks: draw more
            if "deck" not in str(exc) or extra > 100 * n + 1000:
                raise
            extra *= 4
    if on_hand is not None:
        yield from over
        return
    starts = np.searchsorted(log[:, 0], np.arange(n + 1)) if len(log) else np.zeros(n + 1, dtype=np.int64)
    for g in range(n):
        yield events(g, out, g, log[starts[g]:starts[g + 1]], cur)


def event_schema(typ: str, required: Sequence[str], props: Mapping[str, Any], description: str) -> dict[str, Any]:
    """The schema of one event type: an object with ``type`` = ``typ``, the ``required`` fields
    and no field beyond ``props``.

    >>> event_schema("pass", ["seat"], {"seat": seat_schema(4)}, "a pass")["required"]
    ['type', 'seat']
    """
    return {"type": "object", "description": description, "required": ["type", *required],
            "properties": {"type": {"const": typ}, **props}, "additionalProperties": False}


def settle_schema(fields: Mapping[str, Any], unit: str) -> dict[str, Any]:
    """The ``settle`` event: ``result`` (each seat's result in ``unit``) and the game's ``fields``
    (all required)."""
    props = {**fields, "result": {"type": "array", "items": {"type": "number"},
                                  "description": f"each seat's result ({unit})"}}
    return event_schema("settle", [*fields, "result"], props, f"the end of the hand: each seat's result in {unit}")


# --------------------------------------------------------------------------------------
# The command line (the game's spec is injected: this module imports no game)
# --------------------------------------------------------------------------------------


def game_records(game: Any) -> Any:
    """The ``<package>.records`` module of a :class:`kaptai.spec.GameSpec`."""
    import importlib

    return importlib.import_module(f"{game.package}.records")


def game_format(game: Any) -> RecordFormat:
    """The :class:`RecordFormat` of a :class:`kaptai.spec.GameSpec` (its ``FORMATS`` entry when
    one package holds several games)."""
    mod = game_records(game)
    formats = getattr(mod, "FORMATS", None)
    return formats[game.name] if formats is not None else mod.FORMAT


def _record_game(game: Any, path: str | os.PathLike, players: Any, rules: Any, **kwargs: Any) -> Path:
    from kaptai.core.options import check_count, check_seed

    if kwargs.get("seed") is not None:  # None: fresh entropy, recorded in the header
        check_seed(kwargs["seed"])
    if "hands" in kwargs:
        check_count("hands", kwargs["hands"], 1)
    mod = game_records(game)
    fn = getattr(mod, "record_hands_for", None)
    if fn is not None:
        return fn(game.name, path, players, rules, **kwargs)
    if players is None:  # the game's own default
        return mod.record_hands(path, rules=rules, **kwargs)
    return mod.record_hands(path, players, rules, **kwargs)


def replay_command(args: Any, game: Any) -> Any:
    """``kaptai replay <game> FILE``: replay a record and print hands, events and the result."""
    from kaptai.spec import Output

    fmt = game_format(game)
    summary = replay_record(read_record(args.record, fmt), fmt)
    df = summary.frame()
    title = (f"replay of {summary.path}: every event legal and every settlement matched "
             f"(totals in {summary.unit})")
    return Output(df, title, list(df.columns))


def record_option(args: Any, game: Any, players: Any = None, rules: Any = None, **table: Any) -> Path | None:
    """Write the ``--record`` file of a command (``--record-hands`` hands from ``--seed``) at the
    table ``players``, ``rules`` and ``table`` (``policies`` and the game's own settings); None
    when ``--record`` is not given."""
    path = getattr(args, "record", None)
    if not path:
        return None
    return _record_game(game, path, players, rules, hands=int(args.record_hands), seed=args.seed, **table)


def league_record(args: Any, game: Any, rules: Any, players: int | None = None, active: int | None = None,
                  **table: Any) -> Path | None:
    """Write the ``--record`` file of ``kaptai league``: ``--record-hands`` hands from ``--seed`` at
    the league's first table (``players``, ``rules``), seat ``s`` playing the ``s``-th policy of
    ``--policies`` (cycling when there are fewer policies than seats); None without ``--record``."""
    path = getattr(args, "record", None)
    if not path:
        return None
    names = [p.strip() for p in str(args.policies).split(",") if p.strip()]
    seats = active if active is not None else (players if players is not None else 4)
    policies = [names[s % len(names)] for s in range(seats)]
    return _record_game(game, path, players, rules, policies=policies, hands=int(args.record_hands),
                        seed=args.seed, **table)
