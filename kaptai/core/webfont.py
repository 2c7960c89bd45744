"""Chinese text in kaptai's HTML pages on a machine without a CJK font.

A page names the games and their terms in Chinese (鋤大D, 頭, 胡數 …), and a browser draws those
characters as empty boxes when no installed font has them.  kaptai's figures use the Noto Sans
CJK collection that the dependency ``noto-cjk-sans-otc`` ships (:mod:`kaptai.core.plotting`); an
HTML page gets the same font: :func:`cjk_font_css` cuts from its Traditional Chinese face the
glyphs of just the characters the page uses (``fontTools``, which matplotlib already requires)
and embeds them as one ``@font-face`` rule (a few kB), named :data:`CJK_WEB_FAMILY`, limited by
``unicode-range`` to those characters.  :func:`embed_cjk_font` adds the rule to a page's first
``<style>`` element.  Nothing is downloaded; without the font package, or without a CJK character
on the page, the page is returned unchanged.

Examples
--------
>>> css = cjk_font_css("Big Two (鋤大D)")
>>> css.startswith("@font-face{font-family:'kaptai CJK'") and "U+92E4" in css
True
>>> cjk_font_css("no Chinese here")
''
>>> page = embed_cjk_font("<html><head><style>p{}</style></head><body>頭</body></html>")
>>> page.count("@font-face")
1
"""

from __future__ import annotations

import base64
import functools
import io
import re

__all__ = ["CJK_WEB_FAMILY", "cjk_characters", "cjk_font_css", "embed_cjk_font"]

#: The family name of the embedded font in the pages' CSS.
CJK_WEB_FAMILY = "kaptai CJK"
_FACE = "Noto Sans CJK TC"

#: The code point blocks counted as CJK: radicals to Yi (2E80-A4CF: punctuation, kana, ideographs),
#: compatibility ideographs, vertical/compatibility forms, half- and full-width forms, and the
#: supplementary ideograph planes.
_RANGES = ((0x2E80, 0xA4CF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF), (0x20000, 0x3FFFF))


_CJK = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _RANGES) + "]")


def cjk_characters(text: str) -> str:
    """The distinct CJK characters of ``text``, in code point order.

    >>> cjk_characters("鋤大D: 大 and 頭")
    '大鋤頭'
    """
    return "".join(sorted(set(_CJK.findall(text))))


@functools.lru_cache(maxsize=16)
def _subset(chars: str) -> bytes | None:
    """The OpenType (CFF) subset of the packaged TC face holding ``chars`` (None without it)."""
    from kaptai.core.plotting import packaged_font_file

    path = packaged_font_file()
    if path is None:
        return None
    from fontTools import subset  # type: ignore[import-untyped]
    from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]

    names = [f["name"].getDebugName(1) for f in TTCollection(path, lazy=True).fonts]
    if _FACE not in names:  # pragma: no cover - another build of the collection
        return None
    font = TTFont(path, fontNumber=names.index(_FACE), lazy=True)
    opts = subset.Options()
    opts.hinting = False
    opts.desubroutinize = True
    opts.layout_features = []
    opts.name_IDs = [1, 2]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(text=chars)
    sub.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    return buf.getvalue()


def cjk_font_css(text: str) -> str:
    """An ``@font-face`` rule embedding the glyphs of the CJK characters of ``text`` (or '')."""
    chars = cjk_characters(text)
    data = _subset(chars) if chars else None
    if not data:
        return ""
    ranges = ",".join(f"U+{ord(c):04X}" for c in chars)
    return (f"@font-face{{font-family:'{CJK_WEB_FAMILY}';"
            f"src:url(data:font/otf;base64,{base64.b64encode(data).decode('ascii')}) format('opentype');"
            f"unicode-range:{ranges};}}\n")


def embed_cjk_font(page: str) -> str:
    """``page`` with :func:`cjk_font_css` of its text at the start of its first ``<style>``.

    The page's CSS should list :data:`CJK_WEB_FAMILY` first in its ``font-family``: the rule's
    ``unicode-range`` keeps it to the CJK characters, and listed after a Latin family (Arial),
    Chromium drew the characters as boxes on a machine without a CJK font."""
    css = cjk_font_css(page)
    if not css:
        return page
    i = page.find("<style>")
    if i < 0:
        i = page.find("</head>")
        return page if i < 0 else page[:i] + f"<style>{css}</style>" + page[i:]
    i += len("<style>")
    return page[:i] + css + page[i:]
