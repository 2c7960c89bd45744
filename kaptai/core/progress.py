"""Progress of a long run on stderr: a bar on a terminal, plain lines in a log, or nothing.

:class:`Progress` counts *trials* (hands, matches, sessions), not chunks: ``update(n)`` adds the
trials of a finished chunk.  What it shows depends on ``mode``:

=============  ============================================================================
``False``      nothing
``True``       a ``tqdm`` bar when the stream is a terminal (or a Jupyter notebook's
               output: a widget), else plain lines
``"bar"``      a ``tqdm`` bar (even into a file)
``"lines"``    a plain line every ``interval`` seconds (default :data:`INTERVAL`) and one at
               the end, for logs and CI: ``simulate: 120,000/1,000,000 hands (12%), 3.1 s,
               eta 22 s``
=============  ============================================================================

A command-line front end decides whether progress is wanted (on a terminal by default, or
when asked with ``--progress``, see :func:`kaptai.core.output.want_progress`) and passes
``progress=True``; the library then picks bar or lines from the stream.

Examples
--------
>>> import io
>>> from kaptai.core.progress import Progress
>>> out, now = io.StringIO(), [0.0]
>>> p = Progress(1_000_000, desc="simulate", mode="lines", file=out, clock=lambda: now[0])
>>> now[0] = 3.1; p.update(120_000)   # less than 5 s since the start: no line yet
>>> now[0] = 6.2; p.update(120_000)
>>> now[0] = 25.0; p.update(760_000); p.close()
>>> print(out.getvalue(), end="")
simulate: 240,000/1,000,000 hands (24%), 6.2 s, eta 19.6 s
simulate: 1,000,000/1,000,000 hands (100%), 25.0 s, done
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any

from kaptai.errors import quote_token

__all__ = ["INTERVAL", "MODES", "Progress", "is_terminal", "check_mode", "format_seconds"]

#: Seconds between two plain progress lines.
INTERVAL: float = 5.0
#: The values of ``progress=``.
MODES: tuple[Any, ...] = (False, True, "bar", "lines")


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is an interactive terminal (False for files, pipes, closed streams).

    >>> import io
    >>> from kaptai.core.progress import is_terminal
    >>> is_terminal(io.StringIO())
    False
    """
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _is_notebook(stream: Any) -> bool:
    """Whether ``stream`` is a Jupyter kernel's output (tqdm.auto draws a widget there)."""
    return type(stream).__module__.split(".")[0] == "ipykernel"


def check_mode(mode: Any) -> bool | str:
    """``mode`` as one of :data:`MODES` (None means False); ValueError (a RunnerError in the
    runner) otherwise.

    >>> from kaptai.core.progress import check_mode
    >>> check_mode(None), check_mode(1), check_mode("lines")
    (False, True, 'lines')
    """
    if mode is None:
        return False
    if isinstance(mode, str):
        if mode in ("bar", "lines"):
            return mode
        raise ValueError(f"progress={quote_token(mode)}: expected True, False, 'bar' or 'lines'")
    if mode in (True, False):  # bool, 0, 1, numpy bools
        return bool(mode)
    raise ValueError(f"progress={quote_token(mode)}: expected True, False, 'bar' or 'lines'")


def format_seconds(seconds: float) -> str:
    """``3.1 s``, ``2 min 05 s``, ``3 h 07 min``.

    >>> from kaptai.core.progress import format_seconds
    >>> format_seconds(3.14), format_seconds(125), format_seconds(11220)
    ('3.1 s', '2 min 05 s', '3 h 07 min')
    """
    if seconds != seconds or seconds < 0:  # nan
        return "?"
    if seconds < 59.95:
        return f"{seconds:.1f} s"
    s = int(round(seconds))
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """Progress of one run (see the module's docstring).

    Parameters
    ----------
    total : int or None
        Trials in the run (None: unknown, no percentage or ETA).
    initial : int
        Trials already done (resumed from a checkpoint); not counted in the rate.
    desc : str
        Label at the start of the bar or line.
    unit : str
        What is counted: ``'hands'``, ``'matches'``, ...
    mode : bool or str
        One of :data:`MODES`.
    interval : float, optional
        Seconds between plain lines (default :data:`INTERVAL`).
    file : text stream, optional
        Default ``sys.stderr`` (read when the object is made).
    clock : callable, optional
        Seconds (default ``time.monotonic``); for tests.
    """

    def __init__(self, total: int | None, *, initial: int = 0, desc: str = "", unit: str = "hands",
                 mode: Any = True, interval: float | None = None, file: IO[str] | None = None,
                 clock: Callable[[], float] | None = None):
        self.total = None if total is None else int(total)
        self.initial = self.n = int(initial)
        self.desc, self.unit = str(desc), str(unit)
        self.file = sys.stderr if file is None else file
        self.interval = INTERVAL if interval is None else float(interval)
        if not self.interval > 0:
            raise ValueError(f"interval={quote_token(interval)}: expected a positive number of seconds")
        self._clock = time.monotonic if clock is None else clock
        self.notes: dict[str, Any] = {}
        mode = check_mode(mode)
        if mode is True:
            mode = "bar" if is_terminal(self.file) or _is_notebook(self.file) else "lines"
        self.mode = mode or None
        self._bar: Any = None
        self._closed = False
        self._t0 = self._clock() if self.mode else 0.0
        self._next_line = self._t0 + self.interval
        if self.mode == "bar":
            from tqdm.auto import tqdm

            # 1.23M/2.00M for big counts; small ones as they are (no "0.00/3.00")
            scale = self.total is None or self.total >= 10_000
            self._bar = tqdm(total=self.total, initial=self.n, desc=self.desc, unit=f" {self.unit}",
                             unit_scale=scale, file=self.file, dynamic_ncols=True, mininterval=0.5)

    @property
    def enabled(self) -> bool:
        return self.mode is not None

    def update(self, n: int) -> None:
        """Add ``n`` finished trials (negative: a resumed chunk that must be run again)."""
        n = int(n)
        self.n += n
        if n < 0 and self.n < self.initial:
            self.initial = self.n
        if self._bar is not None:
            self._bar.update(n)
        elif self.mode == "lines":
            self.tick()

    def note(self, **notes: Any) -> None:
        """Extra facts shown after the count (``resumed=3``, ``retried=1``); falsy ones are hidden."""
        self.notes.update(notes)
        if self._bar is not None:
            shown = {k: v for k, v in self.notes.items() if v}
            if shown:
                self._bar.set_postfix(shown, refresh=False)

    def tick(self) -> None:
        """Write a plain line if ``interval`` has passed since the last one (call it often)."""
        if self.mode != "lines" or self._closed:
            return
        if self.total is not None and self.n >= self.total:
            return  # the last line comes with close()
        now = self._clock()
        if now >= self._next_line:
            self._write(now, final=None)
            self._next_line = now + self.interval

    def line(self) -> None:
        """Write a plain line now (``'lines'`` mode)."""
        if self.mode == "lines" and not self._closed:
            now = self._clock()
            self._write(now, final=None)
            self._next_line = now + self.interval

    def close(self, finished: bool = True) -> None:
        """End the bar, or write the last line (``done`` if ``finished``, else ``stopped``)."""
        if self._closed:
            return
        self._closed = True
        if self._bar is not None:
            self._bar.close()
        elif self.mode == "lines":
            self._write(self._clock(), final=finished)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close(finished=exc_type is None)

    def text(self, now: float, final: bool | None = None) -> str:
        """The plain line at time ``now``."""
        elapsed = max(now - self._t0, 0.0)
        parts = [f"{self.n:,}" + (f"/{self.total:,}" if self.total is not None else "") + f" {self.unit}"]
        if self.total:
            parts[0] += f" ({100.0 * self.n / self.total:.0f}%)"
        parts.append(format_seconds(elapsed))
        if final is None and self.total is not None:
            done_now = self.n - self.initial
            if done_now > 0 and elapsed > 0:
                parts.append("eta " + format_seconds((self.total - self.n) * elapsed / done_now))
            else:
                parts.append("eta ?")
        shown = [f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in self.notes.items() if v]
        parts += shown
        if final is not None:
            parts.append("done" if final else "stopped")
        return (f"{self.desc}: " if self.desc else "") + ", ".join(parts)

    def _write(self, now: float, final: bool | None) -> None:
        try:
            print(self.text(now, final), file=self.file, flush=True)
        except (OSError, ValueError):  # a closed or broken stream must not stop the run
            self.mode = None
