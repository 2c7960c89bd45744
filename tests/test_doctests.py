"""Run every docstring example of the installed package (numpydoc Examples)."""
import doctest
import importlib
import pkgutil

import pytest

import kaptai


def _modules():
    names = ["kaptai"]
    for info in pkgutil.walk_packages(kaptai.__path__, "kaptai."):
        if info.name.endswith("__main__"):
            continue
        names.append(info.name)
    return names


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"
