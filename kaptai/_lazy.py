"""Lazy re-exports for the games' packages: ``import kaptai.bigtwo`` costs nothing until a name is used.

A game's ``__init__`` lists its public names (``__all__``) and the module each comes from;
:func:`lazy_exports` makes the package resolve a name on first use (PEP 562) and keeps it.
So the command line can import a game's ``commands.py`` (the registry) without loading its
compiled engine, numpy or pandas, and ``from kaptai.bigtwo import simulate`` still gives the
function.

A name that is also a submodule's (``kaptai.bigtwo.simulate`` is the function, and the module
``kaptai/bigtwo/simulate.py``) stays the function when the submodule is imported later: the
import system's ``setattr(package, 'simulate', <module>)`` is not allowed to replace it (the
module is in ``sys.modules``, as ever).  Any other submodule is an attribute once imported, as
in a package that imports it eagerly.

Examples
--------
>>> import sys
>>> import kaptai.bigtwo
>>> callable(kaptai.bigtwo.run_hands)
True
>>> import kaptai.bigtwo.simulate
>>> callable(kaptai.bigtwo.simulate), type(sys.modules["kaptai.bigtwo.simulate"]).__name__
(True, 'module')
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


class _LazyPackage(types.ModuleType):
    """A package module whose re-exported names are not replaced by same-named submodules."""

    def __setattr__(self, name: str, value: Any) -> None:
        exports: Mapping[str, str] = self.__dict__.get("_LAZY_EXPORTS", {})
        if (name in exports and isinstance(value, types.ModuleType)
                and value.__name__ == f"{self.__name__}.{name}"):
            return  # the re-exported object of that name wins over its module
        super().__setattr__(name, value)


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the package ``package`` that re-exports each name of
    ``exports`` (name -> module) on first use; the package's class becomes one that keeps those
    names when a same-named submodule is imported."""
    module = sys.modules[package]
    module.__dict__["_LAZY_EXPORTS"] = dict(exports)
    module.__class__ = _LazyPackage

    def __getattr__(name: str) -> Any:
        if name in exports:
            value = getattr(importlib.import_module(exports[name]), name)
            module.__dict__[name] = value  # found once, then an ordinary attribute
            return value
        if not name.startswith("__"):
            try:  # a submodule by attribute, as an eager package would have it
                return importlib.import_module(f"{package}.{name}")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.{name}":
                    raise
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(module.__dict__) | set(exports))

    return __getattr__, __dir__
