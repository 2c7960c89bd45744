"""Shared test settings.

The tests exercise the *installed* kaptai (its compiled extensions are built by
``pip install .``); a source checkout whose extensions were built in place
(``python setup.py build_ext --inplace`` or ``pip install -e .``) works too.

``KAPTAI_SLOW_SCALE`` (default 1) scales the tests marked ``slow``: 1 is the
full size (200,000+ hands per preset compared with the reference evaluator,
exhaustive enumerations); CI runs them at a reduced size.
"""
import os
import sys

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _import_kaptai() -> None:
    """Prefer an installed kaptai over the source tree when the tree has no
    compiled extensions (a fresh clone after ``pip install .``).

    The source folder then stays off ``sys.path`` (pytest runs with
    ``--import-mode=importlib``, so it does not put it back): worker processes
    started by the tests (Dask's spawn, notebook kernels) inherit ``sys.path``
    and must import the installed package too."""
    saved = list(sys.path)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _ROOT]
    try:
        import kaptai.kts._eval  # noqa: F401
    except ImportError:
        for name in [m for m in sys.modules if m == "kaptai" or m.startswith("kaptai.")]:
            del sys.modules[name]
        sys.path[:] = saved
        import kaptai.kts._eval  # noqa: F401  (in-place build: the source tree is the package)


_import_kaptai()

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

SLOW_SCALE = float(os.environ.get("KAPTAI_SLOW_SCALE", "1"))

settings.register_profile("kaptai", deadline=None, print_blob=True)
settings.load_profile("kaptai")


def scaled(n: int, minimum: int = 1) -> int:
    """``n`` scaled by KAPTAI_SLOW_SCALE, at least ``minimum``."""
    return max(minimum, int(n * SLOW_SCALE))


@pytest.fixture
def slow_scale() -> float:
    return SLOW_SCALE
