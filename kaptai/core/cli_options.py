"""Ready-made option declarations (:class:`kaptai.spec.Opt`) that many commands share.

A game's ``commands.py`` lists the options of each of its commands, taking these where the
meaning is the same (``--hands``, ``--seed``, ``--workers`` ...) so that every game checks a
value the same way; what only one game has, it declares itself.  Nothing here knows a game:
the constructors take the game's own names (presets, policies, player range).

Examples
--------
>>> from kaptai.core.cli_options import players, policy
>>> players((2, 22), 4).parse("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a whole number from 2 to 22 (players), got '0'
>>> policy(("greedy", "random")).parse("0=random")
'0=random'
>>> policy(("greedy", "random")).parse("max_melds")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: unknown policy 'max_melds': expected greedy, random, or SEAT=POLICY,... of them
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from kaptai.core.paths import FORMATS
from kaptai.errors import KaptaiError, first_repeat, quote_token
from kaptai.spec import Opt

__all__ = [
    "MAX_HANDS", "MAX_SEED", "MAX_WORKERS", "players", "player_counts", "hands", "seed", "per_seat", "policy", "rules", "option",
    "output", "report_output", "runner", "policies", "names_list", "advice_budget", "progress", "plot", "variants", "cut", "hand", "seen", "sets", "table_formats",
    "samples", "record", "record_file",
]

#: The most hands (games) one run may ask for: a trillion, months of one core's work.
MAX_HANDS = 10**12
#: Seeds are whole numbers from 0 to 2**63 - 1 (numpy's SeedSequence takes any of them).
MAX_SEED = 2**63 - 1
MAX_WORKERS = 256


def players(span: tuple[int, int], default: int | None) -> Opt:
    """``--players N`` within the game's range (a fixed-size game declares its one count)."""
    lo, hi = span
    return Opt("--players", "int", default=default, lo=lo, hi=hi, unit="players",
               help="player count" if lo != hi else f"the {lo}-player game", sample=str(default or lo))


def _player_list(span: tuple[int, int]):
    def check(text: str) -> list[int]:
        from kaptai.core.options import parse_player_range

        counts = parse_player_range(text)
        bad = [p for p in counts if not span[0] <= p <= span[1]]
        if bad:
            raise ValueError(f"{bad[0]} players is out of range: expected counts from {span[0]} to {span[1]}, "
                             f"got {quote_token(text)}")
        return counts

    return check


def player_counts(span: tuple[int, int], default: str) -> Opt:
    """``--players 3-10`` or ``3,4,6``: several counts (reports, leagues)."""
    return Opt("--players", "str", default=default, check=_player_list(span), metavar="COUNTS",
               help=(f"player counts, a range like 3-10 or a list like 3,4,6 (each {span[0]}-{span[1]})"
                     if span[0] < span[1] else f"player count: {span[0]} (the only one the game has)"),
               sample=default)


def hands(default: int, help: str = "hands (games) to play", lo: int = 1, games_alias: bool = True) -> Opt:
    """``--hands N`` (also ``--games``): from ``lo`` to :data:`MAX_HANDS`."""
    return Opt("--hands", "int", default=default, lo=lo, hi=MAX_HANDS, unit="hands", help=help,
               aliases=("--games",) if games_alias else (), sample="100")


def seed(default: int = 0) -> Opt:
    """``--seed N``: the same seed gives the same table, for any number of workers."""
    return Opt("--seed", "int", default=default, lo=0, hi=MAX_SEED,
               help="seed of the run (same seed, same numbers, whatever --workers)")


def names_list(allowed: Sequence[str], what: str):
    """A check of comma-separated names, each one of ``allowed`` and none twice (``--policies``,
    ``--rules-list``): returns the names joined by commas."""
    names = tuple(allowed)

    def check(text: str) -> str:
        items = [t.strip() for t in text.split(",")]
        for t in items:
            if t not in names:
                raise ValueError(f"unknown {what} {quote_token(t)}: expected {', '.join(names)} (comma-separated)")
        if len(set(items)) < len(items):
            raise ValueError(f"a {what} is given twice in {quote_token(text)}")
        return ",".join(items)

    return check


def policies(names: Sequence[str], default: Sequence[str] | None = None) -> Opt:
    """``--policies A,B,...`` of a league: built-in policies of the game, comma-separated, none
    twice (default all of them)."""
    allowed = tuple(names)
    return Opt("--policies", "str", default=",".join(default or allowed), metavar="POLICIES",
               check=names_list(allowed, "policy"), help="policies, comma-separated: " + " | ".join(allowed))


def per_seat(flag: str, names: Sequence[str], what: str, help: str, sample: str | None = None) -> Opt:
    """``FLAG NAME`` (every seat) or ``SEAT=NAME,...`` with names from ``names`` (the first is the
    default); the seats themselves are checked by the command, which knows the player count."""
    allowed = tuple(names)

    def check(text: str) -> str:
        items = [text] if "=" not in text else [part.partition("=")[2] for part in text.split(",")]
        if "=" in text:
            seats = [part.partition("=")[0].strip() for part in text.split(",")]
            twice = first_repeat(seats)
            if twice is not None:
                raise ValueError(f"seat {quote_token(twice)} is given twice in {quote_token(text)}")
        for item in items:
            if item.strip() not in allowed:
                raise ValueError(f"unknown {what} {quote_token(item.strip())}: expected "
                                 f"{', '.join(allowed)}, or SEAT={what.upper()},... of them")
        return text.strip() if "=" not in text else text

    return Opt(flag, "str", default=allowed[0], check=check, metavar=what.upper(), help=help,
               sample=sample or allowed[-1])


def policy(names: Sequence[str], help: str | None = None) -> Opt:
    """``--policy NAME`` or ``SEAT=NAME,...`` with the game's own policy names."""
    return per_seat("--policy", names, "policy", help or (
        "one policy for every seat, or SEAT=POLICY,... (other seats the default): " + " | ".join(names)))


def rules(presets: Sequence[str]) -> tuple[Opt, Opt]:
    """``--rules PRESET`` and ``-o KEY=VALUE`` (rule options on top of the preset)."""
    return (Opt("--rules", "choice", default=presets[0], choices=tuple(presets), help="rules preset"),
            option())


def option() -> Opt:
    """``-o KEY=VALUE`` (repeatable); ``kaptai <command> <game> --help`` lists the game's rule
    options with their values in the default preset (the command line adds them to this help)."""
    return Opt("--option", "keyvalue", short="-o",
               help="set a rule option on top of the preset (repeatable), e.g. -o KEY=VALUE; "
                    "the options are on the game's rules page and in its docs")


def table_formats(formats: Sequence[str] = FORMATS, out: bool = True) -> Opt:
    return Opt("--format", "choice", default=None, choices=tuple(formats),
               help="output format (default: " + (f"{formats[0]}, or from the --out suffix)" if out else "table)"))


def _path(what: str):
    def check(text: str) -> str:
        if text != text.strip() or "\x00" in text:
            raise ValueError(f"{what}: {quote_token(text)} is not a usable path")
        return text

    return check


def output(percent: bool = True, formats: Sequence[str] = FORMATS) -> tuple[Opt, ...]:
    """``--format``, ``--out FILE`` and (for tables of probabilities) ``--percent``."""
    out: tuple[Opt, ...] = (table_formats(formats, out="csv" in formats),)
    if "csv" in formats:
        out += (Opt("--out", "str", default=None, metavar="FILE", check=_path("--out"),
                    help="write the table to FILE (.csv, .json, .parquet, .txt); parquet needs it"),)
    if percent:
        out += (Opt("--percent", "flag", help="probabilities as percentages (table format)",
                    applies=_percent_applies),)
    return out


def _percent_applies(args: Any) -> str | None:
    """``--percent`` changes the table format only: refused with another format (or an
    ``--out`` whose suffix selects one)."""
    from kaptai.core.paths import kind_of

    fmt = getattr(args, "format", None)
    out = getattr(args, "out", None)
    if fmt is None and out is not None and kind_of(out) in ("csv", "json", "parquet"):
        return (f"--out {quote_token(out)} writes {kind_of(out)}, whose probabilities are numbers; --percent "
                "is for the table format")
    if fmt not in (None, "table", "txt"):
        return f"--format {fmt} writes probabilities as numbers; --percent is for the table format"
    return None


def report_output() -> tuple[Opt, ...]:
    """``--out`` and ``--format`` of a report (self-contained HTML or Markdown)."""
    return (Opt("--out", "str", default=None, metavar="FILE", check=_path("--out"),
                help="output file (default reports/<game>.html)"),
            table_formats(("html", "md")))


def progress() -> Opt:
    return Opt("--progress", "switch", default=None,
               help="progress on stderr (default: a bar on a terminal, nothing otherwise; "
                    "--progress off a terminal prints a line every few seconds)")


_SCHEDULER = re.compile(r"(tcp|tls|inproc|ucx)://[^\s/]+(:\d{1,5})?/?|[A-Za-z0-9_.-]+:\d{1,5}")


def _scheduler(text: str) -> str:
    if text != "local" and not _SCHEDULER.fullmatch(text):
        raise ValueError(f"expected 'local' or a scheduler address like tcp://host:8786, got {quote_token(text)}")
    return text


def runner(workers: bool = True, distributed: bool = True) -> tuple[Opt, ...]:
    """``--workers``, ``--scheduler``, ``--checkpoint`` and ``--progress`` of the shared runner."""
    out: tuple[Opt, ...] = ()
    if workers:
        out += (Opt("--workers", "int", default=1, lo=1, hi=MAX_WORKERS, unit="processes",
                    help="worker processes (same seed, same table for any number)"),)
    if distributed:
        out += (Opt("--scheduler", "str", default=None, check=_scheduler, metavar="ADDRESS",
                    help="run on a Dask cluster: tcp://host:port, or 'local' for a LocalCluster (needs "
                         "Dask: pip install 'dask[distributed]', or pip install '.[distributed]' in the clone)"),
                Opt("--checkpoint", "str", default=None, metavar="DIR", check=_path("--checkpoint"),
                    help="write each finished chunk to DIR; the same command again resumes from there"))
    return out + (progress(),)


def plot(help: str = "save the figure to this file (.png, .svg, .pdf)") -> Opt:
    return Opt("--plot", "str", default=None, metavar="FILE", check=_path("--plot"), help=help)


def variants(names: Sequence[str], default: str, multi: Sequence[str] = ()) -> Opt:
    """``--variants``: a ready-made set name, or presets (``multi``) comma-separated."""
    allowed, parts = tuple(names), tuple(multi)

    def check(text: str) -> str:
        if text in allowed:
            return text
        items = [t.strip() for t in text.split(",")]
        if parts and all(items) and all(t in parts for t in items):
            twice = first_repeat(items)
            if twice is not None:
                raise ValueError(f"{quote_token(twice)} is given twice in {quote_token(text)}")
            return ",".join(items)
        raise ValueError(f"unknown variants {quote_token(text)}: expected one of {', '.join(allowed)}"
                         + (f", or presets comma-separated ({', '.join(parts)})" if parts else ""))

    return Opt("--variants", "str", default=default, check=check, metavar="VARIANTS",
               help="what to compare: " + " | ".join(allowed) + (" | PRESET,PRESET,..." if parts else ""),
               sample=default)


def cut() -> Opt:
    return Opt("--cut", "float", default=None, lo=0.0, hi=1.0, unit="share of the pot",
               help="house cut for every variant (default: each ruleset's)")


def hand(help: str, sample: str) -> Opt:
    return Opt("hand", "str", help=help, sample=sample, metavar="HAND")


def seen(sample: str | None = None) -> Opt:
    return Opt("--seen", "str", default="", empty_ok=True, metavar="TILES", sample=sample,
               help="what is already visible (discards, exposed cards); default: nothing")


def sets(hi: int = 8) -> Opt:
    return Opt("--sets", "int", default=None, lo=1, hi=hi, unit="sets",
               help="sets in play (default: as many as the player count needs)")


#: Most layouts an advisor draws, the default and the largest time budget of an advice (ms): the
#: values of :mod:`kaptai.core.advise` (a test checks them), declared here so that a game's
#: commands.py declares ``advise`` without importing numpy (tests/test_startup.py).
ADVICE_MAX_SAMPLES, ADVICE_BUDGET_MS, ADVICE_MAX_BUDGET_MS = 100_000, 150, 60_000


def advice_budget(what: str = "answer") -> tuple[Opt, Opt]:
    """``--samples`` (default none: the time budget decides) and ``--budget-ms`` of an ``advise``
    command (:func:`kaptai.core.advise.paired_budget`)."""
    return (
        Opt("--samples", "int", default=None, lo=1, hi=ADVICE_MAX_SAMPLES, unit="layouts",
            help=f"a fixed number of layouts of the unseen cards per {what} (no time budget; default: sample "
                 "until the best option's lead over the second is resolved or --budget-ms is spent)"),
        Opt("--budget-ms", "int", default=ADVICE_BUDGET_MS, lo=1, hi=ADVICE_MAX_BUDGET_MS, unit="ms",
            help=f"time budget of the sampling without --samples (default {ADVICE_BUDGET_MS} ms)",
            applies=_budget_applies),
    )


def _budget_applies(args: Any) -> str | None:
    """``--budget-ms`` bounds the sampling only when ``--samples`` does not fix it."""
    samples = getattr(args, "samples", None)
    if samples is not None:
        return f"--samples {samples} fixes the number of layouts, so no time budget applies: give one of them"
    return None


def samples(default: int, hi: int = 100_000, what: str = "decision") -> Opt:
    """``--samples``: the search budget, layouts of the unseen cards sampled per ``what``."""
    return Opt("--samples", "int", default=default, lo=1, hi=hi, unit="layouts",
               help=f"layouts of the unseen cards sampled per {what} (the search budget)")


def league_tables() -> tuple[Opt, ...]:
    """``--cross``, ``--diff`` and ``--plot FILE`` of ``kaptai league`` (the duplicate league's
    other tables and its heat map of who beats whom)."""
    return (
        Opt("--cross", "flag", help="cross-play: every policy at one seat (and two against two at four seats) "
                                     "against a field of each other policy, seats rotated, duplicate deals"),
        Opt("--diff", "flag", help="every pair of policies: the difference per hand on the same deals with its "
                                    "paired 95% interval and the variance ratio against independent deals"),
        plot("save a heat map of who beats whom, with intervals (.png, .svg, .pdf)"),
    )


def _seats_held(text: str) -> str:
    parts = [t.strip() for t in str(text).split(",")]
    for t in parts:
        if t not in ("1", "2"):
            raise ValueError(f"{quote_token(t)} is not 1 or 2 (comma-separated)")
    twice = first_repeat(parts)
    if twice is not None:
        raise ValueError(f"{quote_token(twice)} is named twice")
    return ",".join(parts)


def league_scope() -> tuple[Opt, ...]:
    """``--challenger POLICIES`` and ``--strong-hands N`` of ``kaptai league``: which rows a
    cross-play plays, and the cap of the slow strong player's hands."""
    return (
        Opt("--challenger", "str", default=None, metavar="POLICIES",
            help="with --cross: play only these policies' rows (comma-separated), each at one seat (and two "
                 "against two) against a field of each other policy; e.g. --challenger search (default: every "
                 "policy's row)"),
        Opt("--challenger-seats", "str", default=None, metavar="K", check=_seats_held,
            help="with --cross: the seats a row's policy holds, 1 (one against the field) and/or 2 (two against "
                 "two, four-seat tables); default 1,2"),
        Opt("--strong-hands", "int", default=None, lo=1, hi=MAX_HANDS, unit="hands",
            help="hands of the search player per table or cell (default: the game's own cap, as the command's "
                 "output says; the search is slow, so it plays fewer hands than --hands unless this says more)"),
    )


def _record_path(text: str) -> str:
    """A ``--record`` path: a writable ``.jsonl`` file, checked before any work."""
    from kaptai.core.paths import check_output_path

    _path("--record")(text)
    try:
        check_output_path(text, ("jsonl",), what="--record")
    except KaptaiError as exc:
        raise ValueError(str(exc).removeprefix("--record ")) from None
    return text


def record(default_hands: int = 1_000) -> tuple[Opt, Opt]:
    """``--record FILE`` and ``--record-hands N``: also write a game record (docs/records.md)."""
    return (
        Opt("--record", "str", default=None, metavar="FILE", check=_record_path, sample="games.jsonl",
            help="also play --record-hands hands at the same table from --seed and write them as a game "
                 "record to FILE (.jsonl, docs/records.md; kaptai replay checks it)"),
        Opt("--record-hands", "int", default=default_hands, lo=1, hi=MAX_HANDS, unit="hands",
            help=f"hands in the --record file (default {default_hands:,})",
            applies=lambda a: None if getattr(a, "record", None) else "it sets the size of --record, which is not given"),
    )


def record_file(sample: str = "games.jsonl") -> Opt:
    """The positional record file of ``kaptai replay``."""
    return Opt("record", "str", metavar="FILE", check=_path("FILE"), sample=sample,
               help="a game record (.jsonl, docs/records.md)")
