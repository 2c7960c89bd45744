"""A fresh clone stands on its own: every relative link of the README and the docs resolves
to a file of the repository, nothing points outside it (``../shared``), every game's
``rules_page`` is a page of ``docs/rules/``, and each rules page lists every option of the
game's ``RuleSet`` with its default."""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest

from kaptai.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").rglob("*.md"))
MARKDOWN = [ROOT / "README.md", *DOCS]

#: ``[text](target)`` (not an image); the target stops at whitespace or ``)``.
_LINK = re.compile(r"""(?<!!)\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)""")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)
_CODE = re.compile(r"`[^`\n]*`")


def _links(text: str) -> list[str]:
    """The link targets of a Markdown text, outside code blocks and code spans."""
    text = _CODE.sub("", _FENCE.sub("", text))
    return _LINK.findall(text)


def test_the_link_finder_sees_links_and_skips_code() -> None:
    text = "see [a](docs/a.md) and [b](b.md#x 'B'), not `[c](c.md)`\n```\n[d](d.md)\n```\n![img](i.png)"
    assert _links(text) == ["docs/a.md", "b.md#x"]


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_clone(page: Path) -> None:
    bad = []
    for target in _links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue  # a URL (http:, mailto:) or an anchor of the same page
        path = target.split("#", 1)[0]
        resolved = (page.parent / path).resolve()
        if not resolved.exists() or ROOT not in (resolved, *resolved.parents):
            bad.append(target)
    assert not bad, f"{page.relative_to(ROOT)}: links that do not resolve in the clone: {bad}"


def _text_files() -> list[Path]:
    files = [ROOT / "README.md", *DOCS]
    for ext in ("py", "pyx", "pxd", "md", "txt"):
        files += (ROOT / "kaptai").rglob(f"*.{ext}")
    return sorted(set(files))


def test_nothing_points_outside_the_clone() -> None:
    bad = []
    for f in _text_files():
        text = f.read_text(encoding="utf-8")
        for needle in ("../shared", "shared/rules", "shared/sources"):
            if needle in text:
                bad.append(f"{f.relative_to(ROOT)}: {needle}")
    assert not bad, "files that point outside the clone:\n" + "\n".join(bad)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_games_rules_page_is_in_the_docs(name: str) -> None:
    spec = GAMES[name]
    assert spec.rules_page.startswith("docs/rules/"), spec.rules_page
    assert (ROOT / spec.rules_page).is_file(), spec.rules_page
    assert f"({spec.rules_page})" in (ROOT / "README.md").read_text(encoding="utf-8")


def _shown(value: object) -> str:
    """A RuleSet default as the rules pages write it (as ``-o`` takes it)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, frozenset):
        return ",".join(sorted(value))
    return str(value)


def _option_table(page: Path) -> dict[str, str]:
    """``option -> default`` from the page's table whose header starts ``| option |``."""
    lines = page.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == "option":
            col = next(j for j, c in enumerate(cells) if c.startswith("default"))
            out = {}
            for row in lines[i + 2:]:
                if not row.startswith("|"):
                    break
                r = [c.strip() for c in row.strip().strip("|").split("|")]
                m = re.fullmatch(r"`([a-z_0-9]+)`", r[0])
                d = re.match(r"`([^`]*)`", r[col])
                assert m and d, row
                out[m.group(1)] = d.group(1)
            return out
    raise AssertionError(f"{page}: no table starting with '| option |'")


@pytest.mark.parametrize("name", sorted({g.rules_page: n for n, g in GAMES.items()}.values()))
def test_each_rules_page_lists_every_option_with_its_default(name: str) -> None:
    spec = GAMES[name]
    rules = importlib.import_module(f"{spec.package}.rules")
    default = rules.resolve_rules(None)
    table = _option_table(ROOT / spec.rules_page)
    fields = [f.name for f in dataclasses.fields(default) if f.name != "name"]
    assert sorted(table) == sorted(fields)
    for f in fields:
        value = getattr(default, f)
        if isinstance(value, frozenset):  # forms: the page gives them in the rules' own order
            assert set(table[f].split(",")) == set(value), f
        else:
            assert table[f] == _shown(value), (f, table[f], value)
