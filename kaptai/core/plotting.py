"""Figures with Chinese text: a CJK fallback font for matplotlib (every game's plots).

matplotlib draws CJK glyphs only with a font that has them; Debian's ``fonts-noto-cjk``
provides Noto Sans CJK.  :func:`with_cjk_font` runs a plotting function with the default
sans-serif font followed by that font, so Latin text keeps its usual look.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

__all__ = ["cjk_font_family", "with_cjk_font"]


@functools.lru_cache(maxsize=1)
def cjk_font_family() -> tuple[str, ...]:
    """matplotlib's default sans-serif font, then a CJK font for the Chinese glyphs (if any is installed)."""
    from matplotlib import font_manager as fm
    from matplotlib import rcParams

    base = tuple(rcParams["font.sans-serif"][:1]) or ("DejaVu Sans",)
    wanted = ("Noto Sans CJK TC", "Noto Sans CJK HK", "Noto Sans CJK SC", "Noto Sans CJK JP")
    names = {f.name for f in fm.fontManager.ttflist}
    if not names.intersection(wanted):  # a font cache built before the CJK fonts were installed
        for fname in fm.findSystemFonts():
            if "NotoSansCJK" in os.path.basename(fname) and "Bold" not in fname:
                try:
                    fm.fontManager.addfont(fname)
                except Exception:  # pragma: no cover - an unreadable font file
                    continue
        names = {f.name for f in fm.fontManager.ttflist}
    return base + tuple(n for n in wanted if n in names)[:1]


def with_cjk_font(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Run a plotting function with the CJK fallback font; the figure is drawn once inside it so
    that every text (tick labels included) keeps that font."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        import matplotlib.pyplot as plt

        with plt.rc_context({"font.family": list(cjk_font_family())}):
            fig = fn(*args, **kwargs)
            fig.canvas.draw()
        return fig

    return run
