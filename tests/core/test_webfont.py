"""The HTML pages carry the glyphs of their Chinese text (kaptai.core.webfont)."""

import base64
import io
import re

import pytest

from kaptai.core.webfont import CJK_WEB_FAMILY, cjk_characters, cjk_font_css, embed_cjk_font
from kaptai.report.render import Section, to_html

fontTools = pytest.importorskip("fontTools.ttLib")


def _embedded_cmap(page: str) -> set[int]:
    m = re.search(r"url\(data:font/otf;base64,([A-Za-z0-9+/=]+)\)", page)
    assert m, "no embedded font"
    font = fontTools.TTFont(io.BytesIO(base64.b64decode(m.group(1))))
    return set(font.getBestCmap())


def test_a_report_page_embeds_every_chinese_character_it_shows():
    page = to_html("Big Two (鋤大D)", [Section("頭 and 胡數", [("p", "炒 ♦3 ×2 — 九支十仔")])])
    chars = cjk_characters(page)
    assert set(chars) == set("鋤大頭胡數炒九支十仔")
    assert {ord(c) for c in chars} <= _embedded_cmap(page)
    ranges = re.search(r"unicode-range:([^;]*);", page).group(1).split(",")
    assert sorted(int(r[2:], 16) for r in ranges) == sorted(ord(c) for c in chars)
    # first in the body's font list (after Arial, Chromium drew boxes on a machine without CJK fonts)
    assert page.split("body {", 1)[1].split("}", 1)[0].strip().startswith(f'font-family: "{CJK_WEB_FAMILY}",')
    assert page.count("@font-face") == 1


def test_a_page_without_chinese_is_unchanged():
    page = to_html("Odds", [Section("S", [("p", "♦3 and ♠A only")])])
    assert "@font-face" not in page
    assert cjk_font_css("plain") == "" and embed_cjk_font("<style></style>x") == "<style></style>x"


def test_a_page_without_a_style_element_gets_one_in_its_head():
    page = embed_cjk_font("<html><head><title>t</title></head><body>天牌</body></html>")
    assert page.index("<style>@font-face") < page.index("</head>")
    assert {ord("天"), ord("牌")} <= _embedded_cmap(page)
