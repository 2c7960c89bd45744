"""Figures with Chinese text: a CJK fallback font for matplotlib (every game's plots).

matplotlib draws CJK glyphs only with a font that has them, and a fresh machine often has none.
kaptai depends on the PyPI package ``noto-cjk-sans-otc``, which ships Google's Noto Sans CJK
(OFL-1.1) as one font collection file: :func:`packaged_cjk_font` registers it with matplotlib's
font manager once, on first use, and nothing is downloaded at run time.

:func:`cjk_font_family` is the font list of every kaptai figure: matplotlib's default sans-serif
font (DejaVu Sans) for Latin text, then the packaged Noto Sans CJK TC for the Chinese glyphs, then
one system CJK font if any is installed.  :func:`with_cjk_font` runs a plotting function with that
list, :func:`cjk_font_context` is the same as a ``with`` block, and :func:`save_figure` saves a
figure with it; a figure that a function made only to save it is then closed (released from
pyplot), so a command that saves figures leaves none open.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from kaptai.core.plotting import cjk_font_family
>>> family = cjk_font_family()
>>> family[0], family[1].startswith("Noto Sans CJK")
('DejaVu Sans', True)
"""

from __future__ import annotations

import contextlib
import functools
import importlib.resources
import os
import sys
import weakref
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["cjk_font_family", "with_cjk_font", "cjk_font_context", "save_figure", "packaged_cjk_font",
           "packaged_font_file", "PACKAGED_FONT_PACKAGE"]

#: Import name of the package that ships the font (PyPI: noto-cjk-sans-otc, a dependency of kaptai).
PACKAGED_FONT_PACKAGE = "noto_cjk_sans_otc"
_PACKAGED_FONT_FILE = "NotoSansCJK-Regular.ttc"

#: CJK families in the order kaptai prefers them: Traditional Chinese glyph forms first (the games'
#: own terms are written in Traditional characters), then Hong Kong, Simplified, Japanese, Korean.
_CJK_FAMILIES = ("Noto Sans CJK TC", "Noto Sans CJK HK", "Noto Sans CJK SC", "Noto Sans CJK JP",
                 "Noto Sans CJK KR", "Source Han Sans TC", "Source Han Sans HK", "Source Han Sans SC",
                 "WenQuanYi Zen Hei", "WenQuanYi Micro Hei", "AR PL UMing TW", "AR PL UKai TW")


def packaged_font_file() -> str | None:
    """Path of the Noto Sans CJK collection file of ``noto-cjk-sans-otc`` (None when that package
    is not installed, or installed in a form without the file); no matplotlib (the HTML pages
    cut their glyphs from it too: :mod:`kaptai.core.webfont`)."""
    try:
        root = importlib.resources.files(PACKAGED_FONT_PACKAGE)
    except ModuleNotFoundError:
        return None
    path = str(root.joinpath(_PACKAGED_FONT_FILE))
    return path if os.path.isfile(path) else None  # a broken or zipped install: None


@functools.lru_cache(maxsize=1)
def packaged_cjk_font() -> str | None:
    """Path of the Noto Sans CJK collection shipped by ``noto-cjk-sans-otc``, registered with
    matplotlib's font manager (done once; None when that package is not installed).

    The collection's faces (Noto Sans CJK TC, HK, SC, JP, KR) are put first in the font
    manager's list, so that they win over a system copy of a font with the same name."""
    path = packaged_font_file()
    if path is None:
        return None
    from matplotlib import font_manager as fm

    manager = fm.fontManager
    if not any(os.path.realpath(f.fname) == os.path.realpath(path) for f in manager.ttflist):
        before = len(manager.ttflist)
        manager.addfont(path)  # also clears findfont's cache
        added = manager.ttflist[before:]
        del manager.ttflist[before:]
        manager.ttflist[:0] = added  # ties go to the first font listed: the packaged one
    return path


def _family_names(path: str) -> set[str]:
    from matplotlib import font_manager as fm

    real = os.path.realpath(path)
    return {f.name for f in fm.fontManager.ttflist if os.path.realpath(f.fname) == real}


@functools.lru_cache(maxsize=1)
def cjk_font_family() -> tuple[str, ...]:
    """The font list of kaptai's figures: matplotlib's default sans-serif font (Latin text), the
    packaged Noto Sans CJK (TC faces first), then one system CJK font if one is installed.

    matplotlib takes each glyph from the first font of the list that has it."""
    from matplotlib import font_manager as fm
    from matplotlib import rcParams

    base = tuple(rcParams["font.sans-serif"][:1]) or ("DejaVu Sans",)
    packaged: tuple[str, ...] = ()
    path = packaged_cjk_font()
    if path is not None:
        mine = _family_names(path)
        packaged = tuple(n for n in _CJK_FAMILIES if n in mine)[:1] or tuple(sorted(mine))[:1]
    real = None if path is None else os.path.realpath(path)
    names = {f.name for f in fm.fontManager.ttflist if os.path.realpath(f.fname) != real}
    if not packaged and not names.intersection(_CJK_FAMILIES):
        # no packaged font, and a font cache built before the system CJK fonts were installed
        for fname in fm.findSystemFonts():
            if "NotoSansCJK" in os.path.basename(fname) and "Bold" not in fname:
                try:
                    fm.fontManager.addfont(fname)
                except Exception:  # pragma: no cover - an unreadable font file
                    continue
        names = {f.name for f in fm.fontManager.ttflist}
    system = tuple(n for n in _CJK_FAMILIES if n in names and n not in packaged)[:1]
    return base + packaged + system


@contextlib.contextmanager
def cjk_font_context() -> Iterator[None]:
    """A ``with`` block in which new matplotlib text uses :func:`cjk_font_family`.

    A text takes its font when it is made: make the figure inside the block (an Axes' title and
    tick labels are made with it, or when it is first drawn)."""
    import matplotlib

    with matplotlib.rc_context({"font.family": list(cjk_font_family())}):
        yield


#: Figures that :func:`save_figure` drew with the CJK font: :func:`with_cjk_font` need not draw them again.
_SAVED: weakref.WeakSet[Any] = weakref.WeakSet()


def _figure_of(obj: Any) -> Any:
    from matplotlib.figure import Figure

    if isinstance(obj, Figure):
        return obj
    fig = getattr(obj, "figure", None)  # an Axes or a SubFigure
    root = getattr(fig, "figure", fig)
    return root if isinstance(root, Figure) else None


def with_cjk_font(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a plotting function with the CJK fallback font.

    The figure the function returns (or the figure of the Axes it returns) is drawn once inside,
    so that every text made at drawing time (tick labels included) keeps that font.  A function
    returning something else (a report section holding figures) just runs inside the font."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with cjk_font_context():
            out = fn(*args, **kwargs)
            fig = _figure_of(out)
            if fig is not None and fig not in _SAVED:
                fig.draw_without_rendering()
        return out

    return run


def check_figure_path(path: Any, what: str = "path") -> None:
    """A figure's file (a name matplotlib writes, in a folder that exists and can be written, its
    names short enough for the file system) or a binary file object; else
    :class:`~kaptai.core.paths.PathError` naming it.

    >>> from kaptai.core.plotting import check_figure_path
    >>> check_figure_path(123)
    Traceback (most recent call last):
    ...
    kaptai.core.paths.PathError: path: expected a file name or a binary file, got int 123
    """
    from kaptai.core.paths import FIGURE_KINDS, PathError, check_output_path, kind_of

    if isinstance(path, (str, os.PathLike)):
        check_output_path(path, FIGURE_KINDS if kind_of(path) else None, what=what)
    elif not callable(getattr(path, "write", None)):
        from kaptai.errors import quote_token

        raise PathError(f"{what}: expected a file name or a binary file, got {type(path).__name__} {quote_token(path)}")


def save_figure(fig: Any, path: Any, *, close: bool = True, **savefig_kw: Any) -> Any:
    """Save ``fig`` to ``path`` (a file name or a binary file; nothing when None) with the CJK font
    and return it.

    ``close`` (default): the figure was made only to be saved, so it is then closed, i.e.
    released from pyplot (a ``matplotlib.figure.Figure`` not made by pyplot is not affected); the
    returned figure can still be saved or shown in a notebook.  Pass ``close=False`` for a
    figure drawn on the caller's Axes.  ``savefig_kw`` go to ``Figure.savefig`` (default
    ``dpi=110, bbox_inches='tight'``)."""
    if path is None:
        return fig
    check_figure_path(path)
    kw = {"dpi": 110, "bbox_inches": "tight", **savefig_kw}
    with cjk_font_context():
        fig.savefig(path, **kw)
    _SAVED.add(fig)
    if close and "matplotlib.pyplot" in sys.modules:  # a pyplot figure implies pyplot is imported
        sys.modules["matplotlib.pyplot"].close(fig)
    return fig
