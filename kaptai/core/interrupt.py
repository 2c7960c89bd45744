"""The line printed on Ctrl-C, in a module that imports nothing heavy: the command line
imports it only when interrupted, and that must not cost the second that importing pandas
takes (Ctrl-C is answered within a second).

Examples
--------
>>> from kaptai.core.interrupt import interrupted_message
>>> interrupted_message(KeyboardInterrupt())
'kaptai: interrupted'
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["interrupted_message"]

_MANIFEST = "kaptai-checkpoint.json"  # kaptai.core.runner.MANIFEST (not imported: numpy)


def interrupted_message(exc: BaseException | None = None, checkpoint: str | os.PathLike | None = None) -> str:
    """The line printed on Ctrl-C: ``kaptai: interrupted``, and what was saved.

    ``checkpoint`` is the directory the command was given (``--checkpoint``): a command that
    runs several jobs, each in a sub-folder of it (a league of several rulesets, a report), is
    interrupted in one of them, so the line counts every chunk file under the whole directory,
    as it is on disk.

    >>> from kaptai.core.runner import RunInterrupted
    >>> from kaptai.core.interrupt import interrupted_message
    >>> interrupted_message(RunInterrupted("3 of 9 chunk(s) are saved in the checkpoint ck"))
    'kaptai: interrupted: 3 of 9 chunk(s) are saved in the checkpoint ck'
    """
    detail = str(exc) if exc is not None else ""
    if checkpoint is not None:
        try:
            root = Path(os.fspath(checkpoint)).expanduser()
            run_dir = getattr(exc, "checkpoint", None)
            if root.is_dir() and (run_dir is None or Path(run_dir).resolve() != root.resolve()):
                files = [p for p in root.rglob("chunk-*.npz") if (p.parent / _MANIFEST).is_file()]
                runs = len({p.parent for p in files})
                detail = (f"{len(files)} chunk(s) of {runs} run(s) are saved under the checkpoint {root}: run the "
                          "same command again to resume")
        except (OSError, TypeError, ValueError):  # an unreadable folder: keep the run's own count
            pass
    return "kaptai: interrupted" + (f": {detail}" if detail else "")
