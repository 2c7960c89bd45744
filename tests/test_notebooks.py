"""Every notebook in notebooks/ runs top to bottom without error.

Notebooks are stored without outputs, with a cell tagged ``parameters`` whose
defaults are small; at ``KAPTAI_SLOW_SCALE=1`` they run as they are.  Below 1 (the
default, see tests/conftest.py) the sample sizes among those parameters (``SIZES``) are
scaled down, papermill-style, by a cell inserted after the parameters cell.
"""
import pathlib
import re

import pytest

from .conftest import SLOW_SCALE

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

# sample-size parameters of the notebooks and the least each is scaled down to
SIZES = {"hands": 100, "HANDS": 100, "games": 100, "MATCHES": 4, "sessions": 20, "strong_hands": 16}

NOTEBOOKS = sorted((pathlib.Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    assert any("parameters" in c.metadata.get("tags", []) for c in nb.cells), "no tagged parameters cell"
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "store notebooks without outputs"
    _scale_sizes(nb)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()


def _scale_sizes(nb) -> None:
    """Below KAPTAI_SLOW_SCALE=1, insert after the parameters cell one that scales the
    sample sizes it sets (never below ``SIZES``, never above the notebook's own value)."""
    if SLOW_SCALE >= 1:
        return
    i = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    names = [n for n in SIZES if re.search(rf"^{n}\s*=", nb.cells[i].source, re.M)]
    if names:
        source = "\n".join(f"{n} = min({n}, max({SIZES[n]}, int({n} * {SLOW_SCALE!r})))" for n in names)
        nb.cells.insert(i + 1, nbformat.v4.new_code_cell(source, metadata={"tags": ["injected-parameters"]}))
