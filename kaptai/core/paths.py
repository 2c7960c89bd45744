"""Output paths checked before any work.

A run that takes an hour must not fail at its end because the figure's folder is
missing or the report's file cannot be written.  :func:`check_output_path` and
:func:`check_checkpoint_dir` check a path at once (the folder exists, a file can be
created in it, the suffix is one the writer knows) and raise a :class:`PathError`
naming the path and what is wrong.

One rule for every output file (``--out``, ``--plot``): its folder must exist (kaptai
does not create folders for a file; ``create_parent=True`` is for a default path such as
``reports/<game>.html``).  A checkpoint is a directory that kaptai creates if missing.

Examples
--------
>>> import tempfile, os
>>> from kaptai.core.paths import check_output_path
>>> d = tempfile.mkdtemp()
>>> check_output_path(os.path.join(d, "r.html"), kinds=("html", "md")).name
'r.html'
>>> check_output_path(os.path.join(d, "r.txt"), kinds=("html", "md"), what="--out")
Traceback (most recent call last):
...
kaptai.core.paths.PathError: --out ...r.txt: a .txt file cannot be written here: expected a file ending in .html or .md
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kaptai.errors import KaptaiError, quote_token

__all__ = [
    "PathError",
    "FORMATS",
    "table_format",
    "check_table_out",
    "FIGURE_KINDS",
    "TABLE_KINDS",
    "REPORT_KINDS",
    "check_output_path",
    "check_checkpoint_dir",
    "kind_of",
    "check_arg_paths",
    "check_path_names",
    "shown_path",
]

#: Figure formats matplotlib writes (``savefig`` picks the format from the suffix).
FIGURE_KINDS: tuple[str, ...] = ("png", "svg", "pdf", "jpg", "jpeg", "eps", "ps", "tif", "tiff", "webp", "svgz")
#: Table formats (``--format`` with ``--out``).
TABLE_KINDS: tuple[str, ...] = ("csv", "json", "parquet", "txt")
#: Output formats of the table commands.
FORMATS: tuple[str, ...] = ("table", "csv", "json", "parquet")
#: Report formats.
REPORT_KINDS: tuple[str, ...] = ("html", "md")
_ALIASES = {"htm": "html", "markdown": "md", "pq": "parquet", "jpeg": "jpg", "tif": "tiff"}


class PathError(KaptaiError):
    """An output path that cannot be written (missing folder, not writable, unknown suffix)."""


#: Longest file name (one path component, in bytes) when the file system does not say.
NAME_MAX: int = 255
#: Longest whole path (bytes) when the file system does not say.
PATH_MAX: int = 4096


def umask_mode(fd_or_path: int | str | os.PathLike) -> None:
    """Give a file made by :func:`tempfile.mkstemp` (mode 0600) the mode an ordinary new file
    gets, ``0666`` less the process's umask, before it replaces the output: a record, report or
    checkpoint written through a temporary file reads like any other file the user makes."""
    mask = os.umask(0)
    os.umask(mask)
    mode = 0o666 & ~mask
    if isinstance(fd_or_path, int):
        os.fchmod(fd_or_path, mode)
    else:
        os.chmod(fd_or_path, mode)


def shown_path(path: object, limit: int = 40) -> str:
    """A path as quoted in messages: whole when short, else its last ``limit`` characters
    (the file name is what tells paths apart) and the length.

    >>> from kaptai.core.paths import shown_path
    >>> shown_path("out/r.csv")
    "'out/r.csv'"
    >>> shown_path("d/" + "x" * 300 + ".csv")
    "'…xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.csv' (306 characters)"
    """
    if not isinstance(path, (str, os.PathLike)):
        return quote_token(path, limit)
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = os.fsdecode(text)
    if len(text) <= limit:
        return quote_token(text, limit)
    tail = quote_token(text[-(limit - 2):], limit)
    return tail[0] + "…" + tail[1:] + f" ({len(text)} characters)"


def _limit(folder: Path, name: str, default: int) -> int:
    try:
        return int(os.pathconf(folder, name))
    except (OSError, ValueError):
        return default


def check_path_names(path: str | os.PathLike, what: str = "path") -> Path:
    """``path`` as a :class:`~pathlib.Path` if the file system can hold its name, else PathError.

    Every component must fit the file system's longest file name (``NAME_MAX``, 255 bytes on
    most), the whole path its longest path, and no component may hold a NUL character: without
    this check such a path fails deep inside a run with ``OSError: [Errno 36] File name too
    long`` (or ``ValueError: embedded null byte``).

    Examples
    --------
    >>> from kaptai.core.paths import check_path_names
    >>> check_path_names("/tmp/" + "x" * 300 + ".csv", what="--out")
    Traceback (most recent call last):
    ...
    kaptai.core.paths.PathError: --out '…xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.csv' (309 characters): the name 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (304 characters) is 304 bytes long: the file system allows at most 255
    """
    if not isinstance(path, (str, os.PathLike)):
        raise PathError(f"{what}: expected a path (str or os.PathLike), got {type(path).__name__} {quote_token(path)}")
    try:
        text = os.fspath(path)
    except TypeError as exc:
        raise PathError(f"{what}: expected a path, got {type(path).__name__} ({exc})") from None
    if isinstance(text, bytes):
        try:
            text = os.fsdecode(text)
        except UnicodeDecodeError:
            raise PathError(f"{what} {quote_token(text)}: cannot be decoded as a file name") from None
    shown = f"{what} {shown_path(text)}"
    if "\x00" in text:
        raise PathError(f"{shown}: a file name cannot hold a NUL character")
    p = Path(text).expanduser()
    try:
        encoded = os.fsencode(p)
    except UnicodeEncodeError:
        raise PathError(f"{shown}: cannot be encoded as a file name on this system") from None
    probe = p if p.is_absolute() else Path.cwd() / p
    while True:  # the nearest folder that exists (its file system sets the limits)
        try:
            if probe.is_dir() or probe == probe.parent:
                break
        except OSError:
            pass
        probe = probe.parent
    name_max = _limit(probe, "PC_NAME_MAX", NAME_MAX)
    for part in p.parts:
        n = len(os.fsencode(part))
        if n > name_max and part != p.anchor:
            raise PathError(f"{shown}: the name {quote_token(part)} is {n:,} bytes long: the file system allows "
                            f"at most {name_max}")
    path_max = _limit(probe, "PC_PATH_MAX", PATH_MAX)
    if len(encoded) >= path_max:
        raise PathError(f"{shown}: the path is {len(encoded):,} bytes long: the file system allows at most "
                        f"{path_max - 1}")
    return p


def kind_of(path: str | os.PathLike) -> str:
    """The kind of file a path names, from its suffix (lower case, aliases folded).

    >>> from kaptai.core.paths import kind_of
    >>> kind_of("a/b.HTM"), kind_of("t.pq"), kind_of("noext")
    ('html', 'parquet', '')
    """
    suffix = Path(os.fspath(path)).suffix.lower().lstrip(".")
    return _ALIASES.get(suffix, suffix)


def _probe(folder: Path, shown: str) -> None:
    """Create and remove a file in ``folder``: the only test that also holds for root and
    for special file systems (``/proc``), where permission bits say nothing."""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".kaptai-write-test.", dir=folder)
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        raise PathError(f"{shown}: cannot write in the folder {shown_path(str(folder))} ({exc.strerror or exc})") from None


def check_output_path(
    path: str | os.PathLike,
    kinds: Iterable[str] | None = None,
    *,
    what: str = "output file",
    create_parent: bool = False,
) -> Path:
    """Check that ``path`` can be written, before any work; return it as a :class:`~pathlib.Path`.

    Parameters
    ----------
    path : str or path
        The file to be written.
    kinds : iterable of str, optional
        Allowed kinds (suffixes without the dot: ``("html", "md")``); None: any.
    what : str
        How the path is named in messages (``'--out'``, ``'--plot'``).
    create_parent : bool
        Create a missing folder (for default paths); else a missing folder is an error.

    Raises
    ------
    PathError
        Empty path, a directory, a suffix not in ``kinds``, a missing folder, a folder or
        file that cannot be written.

    Examples
    --------
    >>> from kaptai.core.paths import check_output_path
    >>> check_output_path("/nonexistent-kaptai/dir/x.png", ("png",), what="--plot")
    Traceback (most recent call last):
    ...
    kaptai.core.paths.PathError: --plot '/nonexistent-kaptai/dir/x.png': the folder '/nonexistent-kaptai/dir' does not exist (create it first)
    """
    if not isinstance(path, (str, os.PathLike)) or not str(os.fspath(path)).strip():
        raise PathError(f"{what}: expected a file name, got {quote_token(path)}")
    p = check_path_names(path, what)
    shown = f"{what} {shown_path(path)}"
    if kinds is not None:
        allowed = tuple(dict.fromkeys(_ALIASES.get(k, k) for k in kinds))
        kind = kind_of(p)
        if kind not in allowed:
            expected = " or ".join(f".{k}" for k in allowed)
            got = f"a .{p.suffix.lstrip('.')} file" if p.suffix else "a file without a suffix"
            raise PathError(f"{what} {shown_path(path)[1:-1] if len(os.fspath(path)) <= 40 else shown_path(path)}: {got} "
                          f"cannot be written here: expected a file ending in {expected}")
    if p.is_dir():
        raise PathError(f"{shown} is a folder: expected a file name")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        if not create_parent:
            raise PathError(f"{shown}: the folder {shown_path(str(parent))} does not exist (create it first)")
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PathError(f"{shown}: cannot create the folder {shown_path(str(parent))} ({exc.strerror or exc})") from None
    if not parent.is_dir():
        raise PathError(f"{shown}: {shown_path(str(parent))} is not a folder")
    _probe(parent, shown)
    if p.exists() and not os.access(p, os.W_OK):
        raise PathError(f"{shown}: the file exists and cannot be overwritten")
    return p


def check_checkpoint_dir(path: str | os.PathLike, *, what: str = "--checkpoint", parent: bool = False) -> Path:
    """Check that ``path`` can serve as a checkpoint directory, before any work.

    An existing directory must be writable; a missing one is created later by the run
    (:mod:`kaptai.core.runner`), so its nearest existing ancestor must be a writable
    folder; with ``parent`` (a path typed on the command line) that ancestor must be its
    parent, as for ``--out``: a typo in a folder of the path is refused, not made.  Nothing is
    created here.

    Raises
    ------
    PathError
        An existing file, or a place where the directory cannot be made.

    Examples
    --------
    >>> import tempfile
    >>> from kaptai.core.paths import check_checkpoint_dir
    >>> check_checkpoint_dir(tempfile.mkdtemp() + "/new/ck").name
    'ck'
    >>> check_checkpoint_dir("/proc/kaptai-ck")
    Traceback (most recent call last):
    ...
    kaptai.core.paths.PathError: --checkpoint '/proc/kaptai-ck': cannot write in the folder '/proc' (No such file or directory)
    """
    if not isinstance(path, (str, os.PathLike)) or not str(os.fspath(path)).strip():
        raise PathError(f"{what}: expected a directory, got {type(path).__name__} {quote_token(path)}")
    p = check_path_names(path, what)
    shown = f"{what} {shown_path(path)}"
    if p.exists() and not p.is_dir():
        raise PathError(f"{shown} is a file: expected a directory")
    probe = p
    while not probe.exists():
        probe = probe.parent
    if parent and not p.exists() and probe != p.parent and probe.is_dir():
        raise PathError(f"{shown}: the folder {shown_path(str(p.parent))} does not exist (create it first; "
                        "the run makes the checkpoint folder itself)")
    if not probe.is_dir():
        raise PathError(f"{shown}: {shown_path(str(probe))} is a file, so the directory cannot be made")
    _probe(probe, shown)
    return p


def table_format(fmt: str | None, out: str | os.PathLike | None) -> str:
    """The output format: ``fmt`` if given, else from the suffix of ``out``, else ``'table'``.

    >>> from kaptai.core.paths import table_format
    >>> table_format(None, "t.parquet"), table_format("json", None), table_format(None, None)
    ('parquet', 'json', 'table')
    """
    if fmt is not None:
        if fmt not in FORMATS:
            raise PathError(f"format {quote_token(fmt)}: expected one of {', '.join(FORMATS)}")
        return fmt
    if out is not None:
        kind = kind_of(out)
        if kind in ("csv", "json", "parquet"):
            return kind
        return "table"
    return "table"


def check_table_out(out: str | os.PathLike | None, fmt: str, inferred: bool = False) -> Path | None:
    """Check ``--out`` for a table format before any work (None: standard output); with
    ``inferred`` (no ``--format``: the suffix chooses it) every table suffix is allowed.

    Raises
    ------
    PathError
        parquet without ``--out``, a suffix that does not match the format, an unwritable
        place.
    """
    if out is None:
        if fmt == "parquet":
            raise PathError("--format parquet writes a file: give --out FILE.parquet")
        return None
    kinds = ("txt", "csv", "json", "parquet") if inferred else \
        {"table": ("txt",), "csv": ("csv",), "json": ("json",), "parquet": ("parquet",)}[fmt]
    return check_output_path(out, kinds, what="--out")


def check_arg_paths(args: Any) -> None:
    """Check every path of a parsed command line before any work: ``--out`` (a report:
    ``.html``/``.md`` agreeing with ``--format``; a table: the suffix of its format),
    ``--plot`` (a figure format), ``--plot-dir`` and ``--checkpoint`` (folders).

    Reads the attributes ``command``, ``out``, ``format``, ``plot`` and ``checkpoint``
    when present (an ``argparse.Namespace``); a report's default ``--out`` folder is
    created, any other missing folder is an error.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> from kaptai.core.paths import check_arg_paths
    >>> check_arg_paths(SimpleNamespace(command="report", out="/tmp/r.txt", format="html"))
    Traceback (most recent call last):
    ...
    kaptai.core.paths.PathError: --out /tmp/r.txt: a .txt file cannot be written here: expected a file ending in .html
    """
    out = getattr(args, "out", None)
    fmt = getattr(args, "format", None)
    # every path that can be refused first: a refused command line creates no folder
    plot = getattr(args, "plot", None)
    if plot is not None:
        check_output_path(plot, FIGURE_KINDS, what="--plot")
    plot_dir = getattr(args, "plot_dir", None)
    if plot_dir is not None:
        check_checkpoint_dir(plot_dir, what="--plot-dir")
    checkpoint = getattr(args, "checkpoint", None)
    if checkpoint is not None:
        check_checkpoint_dir(checkpoint, parent=True)
    if getattr(args, "command", None) == "report":
        if out is not None:
            kinds = (fmt,) if fmt in REPORT_KINDS else REPORT_KINDS
            check_output_path(out, kinds, what="--out")
        else:
            default = f"reports/{getattr(args, 'game', 'report')}.{fmt or 'html'}"
            check_output_path(default, REPORT_KINDS, what="--out (default)", create_parent=True)
    elif out is not None or fmt == "parquet":
        check_table_out(out, table_format(fmt, out), inferred=fmt is None)
