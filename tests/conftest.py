"""Shared test settings.

The tests exercise the *installed* kaptai (its compiled extensions are built by
``pip install .``); a source checkout whose extensions were built in place
(``python setup.py build_ext --inplace`` or ``pip install -e .``) works too.

Size: ``KAPTAI_SLOW_SCALE`` scales the tests marked ``slow`` (and the other
randomised cross-checks and the notebooks' sample sizes).  Unset, it is
``DEFAULT_SLOW_SCALE`` (0.1), a reduced size: on the 2-core development machine
the whole suite then took 11 min 13 s with two pytest-xdist workers
(``-n 2 --dist loadfile``, a clean-clone ``.ci/run``, 2026-12-05), no test
process above 1.6 GB.  ``KAPTAI_SLOW_SCALE=1`` is the exhaustive size (200,000+ hands per preset
compared with the reference evaluator, every five- and six-card set, the
full-size deal tables; over half an hour in one process).  CI sets its own value
in ``.ci/run``.  The value in force is printed in pytest's header and exported to
the environment of the test processes.

Memory: after each test module the functools caches of kaptai and of the test
modules are emptied and the freed heap is handed back to the system, so one
pytest process does not hold every module's tables at once.
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


def _allow_ctrl_c() -> None:
    """A suite started in the background by a shell without job control (``cmd &``, ``nohup``)
    inherits SIGINT ignored, and so does every process it starts: the tests of what Ctrl-C does
    would see nothing.  Such a process gets Python's own handler back (a handler, unlike an
    ignored signal, is reset at exec, so the processes the tests start get theirs too)."""
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


_allow_ctrl_c()

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

DEFAULT_SLOW_SCALE = 0.1


def _slow_scale() -> float:
    text = os.environ.get("KAPTAI_SLOW_SCALE", "").strip()
    if not text:
        return DEFAULT_SLOW_SCALE
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise pytest.UsageError(f"KAPTAI_SLOW_SCALE must be a positive number (1 = full size), not {text[:40]!r}")
    return value


_SCALE_GIVEN = bool(os.environ.get("KAPTAI_SLOW_SCALE", "").strip())
SLOW_SCALE = _slow_scale()
# the test modules, and the processes the tests start, read the same value
os.environ["KAPTAI_SLOW_SCALE"] = repr(SLOW_SCALE)

settings.register_profile("kaptai", deadline=None, print_blob=True)
settings.load_profile("kaptai")


def scaled(n: int, minimum: int = 1) -> int:
    """``n`` scaled by KAPTAI_SLOW_SCALE, at least ``minimum``."""
    return max(minimum, int(n * SLOW_SCALE))


@pytest.fixture
def slow_scale() -> float:
    return SLOW_SCALE


def pytest_report_header(config):
    default = "" if _SCALE_GIVEN else " (the default; KAPTAI_SLOW_SCALE=1 is the full size)"
    return f"kaptai: KAPTAI_SLOW_SCALE={SLOW_SCALE:g}{default}"


def _release_memory() -> None:
    """Empty the functools caches of kaptai's modules and of the test modules, collect,
    and give the freed heap back to the system (glibc's ``malloc_trim``)."""
    import functools
    import gc

    for name, module in list(sys.modules.items()):
        if module is None:
            continue
        path = getattr(module, "__file__", None) or ""
        if not (name == "kaptai" or name.startswith("kaptai.") or os.path.abspath(path).startswith(_ROOT + os.sep)):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper):  # functools.cache / lru_cache only
                value.cache_clear()
    gc.collect()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):  # not glibc
            pass


@pytest.fixture(autouse=True, scope="module")
def _module_memory():
    """One test module's caches do not outlive it (see the module docstring)."""
    yield
    _release_memory()
