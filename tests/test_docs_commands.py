"""Every ``kaptai`` command line shown in a code block of the README, the docs and the reports'
README (its inline commands too) and the rules pages parses under the options its game declares (a renamed or removed option would
otherwise leave the documentation telling users to type something kaptai refuses)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from kaptai.cli import _check_target, build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "reports" / "README.md", ROOT / "benchmarks" / "README.md",
         *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "rules").glob("*.md"))]
#: Commands that take a hand or a record: named alone inline they are a mention, not a command line.
_NEEDS_INPUT = ("score", "evaluate", "waits", "advise", "draw-odds")
#: Pages whose inline commands (`` `kaptai odds ...` `` beside a number) are checked too.
_INLINE = (ROOT / "README.md", *sorted((ROOT / "docs" / "rules").glob("*.md")))
_FENCE = re.compile(r"```[^\n]*\n(.*?)```", re.S)


def _command_lines():
    for page in PAGES:
        if not page.exists():
            continue
        text = page.read_text(encoding="utf-8")
        blocks = _FENCE.findall(text)
        # the reports' README gives its commands in a table: `kaptai report ...`
        inline = re.findall(r"`(kaptai (?:report|atlas)[^`]*)`", text) if page.parent.name == "reports" else []
        if page in _INLINE:  # a whole command line in backticks, possibly wrapped over two lines
            inline += [" ".join(c.split()) for c in re.findall(r"`(kaptai [a-z][^`]*)`", text)
                       if "<" not in c and "…" not in c and "..." not in c and len(c.split()) > 2
                       and not (len(c.split()) == 3 and c.split()[1] in _NEEDS_INPUT)]  # a mention, not a line
        for block in blocks:
            for line in block.splitlines():
                line = line.strip()
                if line.startswith("pip install . && kaptai "):
                    line = line.split("&& ", 1)[1]
                if line.startswith("kaptai "):
                    yield pytest.param(line, id=f"{page.name}:{line[:60]}")
        for line in inline:
            yield pytest.param(line, id=f"{page.name}:{line[:60]}")


LINES = list(_command_lines())


def test_the_pages_show_commands():
    assert len(LINES) > 20


@pytest.mark.parametrize("line", LINES)
def test_a_documented_command_line_parses(line):
    words = shlex.split(line.split(" #")[0])[1:]
    if "--help" in words or "-h" in words or words[:1] == ["benchmarks"]:
        return
    # a usage pattern (``[--format table|json]``, ``--variants a|b``) shows choices, not one line
    kept: list[str] = []
    for w in words:
        if w.startswith("[") or w.endswith("]") or ("|" in w and " " not in w):
            if kept and kept[-1].startswith("--") and not w.startswith("["):
                kept.pop()  # the flag whose choices the pattern lists
            continue
        kept.append(w)
    words = kept
    _check_target(words)
    args, extra = build_parser(words).parse_known_args(words)
    assert not extra, (line, extra)
