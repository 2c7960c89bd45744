"""Packaging: the test requirements file is the ``test`` extra of pyproject.toml.

The README's test command installs the test tools with ``pip install -r
requirements-test.txt`` (``pip install ".[test]"`` would build kaptai's compiled
extensions a second time), so the two lists must not drift apart."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]


def _key(spec: str) -> tuple:
    """A requirement as a comparable value: normalised name, extras, version bounds, marker."""
    r = Requirement(spec)
    name = r.name.lower().replace("_", "-").replace(".", "-")
    return name, frozenset(e.lower() for e in r.extras), frozenset(map(str, r.specifier)), str(r.marker or "")


def _requirements_file(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            assert not line.startswith("-"), f"{path.name}: only plain requirements, not {line!r}"
            out.append(line)
    return out


def test_requirements_test_file_is_the_test_extra():
    pyproject = ROOT / "pyproject.toml"
    reqs = ROOT / "requirements-test.txt"
    if not pyproject.exists():
        pytest.skip("not a source checkout")
    extra = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["optional-dependencies"]["test"]
    listed = _requirements_file(reqs)
    assert len(listed) == len({_key(s) for s in listed}), "requirements-test.txt lists a requirement twice"
    want, got = {_key(s) for s in extra}, {_key(s) for s in listed}
    assert got == want, (
        f"only in pyproject.toml's test extra: {sorted(map(str, want - got))}; "
        f"only in requirements-test.txt: {sorted(map(str, got - want))}"
    )
