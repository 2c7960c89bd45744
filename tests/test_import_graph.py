"""The import graph of the package has no circle, and the ground floor names no game.

The graph is read from the source with :mod:`ast`: every ``import`` and ``from ... import``
of every module of ``kaptai`` (recursively), at module level or inside a function, and every
``importlib.import_module("<literal>")``; imports under ``if TYPE_CHECKING:`` are left out
(they never run), and so are docstrings (doctest examples are text, not imports).  An edge
goes to the module imported: ``from kaptai.bigtwo import reference`` is an edge to
``kaptai.bigtwo.reference`` (a submodule), ``from kaptai.bigtwo import parse_cards`` one to the
package ``kaptai.bigtwo`` (its ``__init__``).  The parent packages a submodule import runs
implicitly are not edges (otherwise every package ``__init__`` that re-exports a submodule
would be a circle with it).

Examples
--------
>>> g = import_graph()
>>> "kaptai.spec" in g["kaptai.games"]
True
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator

import pytest

import kaptai

PACKAGE_DIR = os.path.dirname(os.path.abspath(kaptai.__file__))

#: What the ground floor (``kaptai.core``) must not import: the registry, the command line and
#: the games (a module of ``kaptai.core`` is given everything game-specific by its caller).
FORBIDDEN_IN_CORE = ("kaptai.games", "kaptai.cli", "kaptai.commands", "kaptai.kts", "kaptai.bigtwo",
                     "kaptai.nineten", "kaptai.nantong", "kaptai.heaven11")


def module_files() -> dict[str, str]:
    """Every module of the package: dotted name -> path of its ``.py`` file (or, for a compiled
    module, of its ``.pyx`` source)."""
    out: dict[str, str] = {}
    root = os.path.dirname(PACKAGE_DIR)
    for folder, dirs, files in os.walk(PACKAGE_DIR):
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
        for f in sorted(files):
            if not f.endswith((".py", ".pyx")):
                continue
            rel = os.path.relpath(os.path.join(folder, f), root).rsplit(".", 1)[0].split(os.sep)
            if rel[-1] == "__init__":
                rel = rel[:-1]
            out[".".join(rel)] = os.path.join(folder, f)
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node`` except the bodies of ``if TYPE_CHECKING:`` (their ``else``
    runs, so it is kept)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for sub in child.orelse:
                yield sub
                yield from _walk(sub)
            continue
        yield child
        yield from _walk(child)


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute name of a relative import (``from . import x`` inside ``module``)."""
    if level == 0:
        return name or ""
    parts = module.split(".")
    base = parts if is_package else parts[:-1]
    base = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join(base + ([name] if name else []))


_PYX_FROM = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+\(?([^)#\n]*)", re.M)
_PYX_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^#\n]*)", re.M)


def _pyx_imports(text: str) -> Iterator[tuple[str, list[str]]]:
    """The Python-level imports of a Cython source, ``(module, names)`` (``cimport`` is a C-level
    declaration, not an import that runs): ast cannot read Cython, so a line scan."""
    for m in _PYX_FROM.finditer(text):
        yield m.group(1), [n.split(" as ")[0].strip() for n in m.group(2).split(",") if n.strip()]
    for m in _PYX_IMPORT.finditer(text):
        for n in m.group(1).split(","):
            yield n.split(" as ")[0].strip(), []


def imports_of(module: str, path: str, modules: set[str]) -> set[str]:
    """The modules of the package that ``module`` (its file ``path``) imports anywhere."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    is_package = os.path.basename(path) == "__init__.py"
    found: set[str] = set()

    def add(name: str) -> None:
        # the deepest module of the package that the dotted name reaches
        parts = name.split(".")
        while parts and ".".join(parts) not in modules:
            parts.pop()
        if parts:
            found.add(".".join(parts))

    if path.endswith(".pyx"):
        for base, names in _pyx_imports(text):
            for name in names or [None]:
                add(f"{base}.{name}" if name and f"{base}.{name}" in modules else base)
        found.discard(module)
        return found
    for node in _walk(ast.parse(text, filename=path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, is_package, node.level, node.module)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                add(sub if sub in modules else base)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            add(node.args[0].value)
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (module level and inside functions)."""
    files = module_files()
    names = set(files)
    return {m: imports_of(m, p, names) for m, p in files.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan,
    iterative), each sorted, the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        comp.append(top)
                        if top == node:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return sorted(out)


def a_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """One circle through the first module of ``component`` (for the failure message)."""
    members = set(component)
    start = component[0]
    # breadth-first from start back to start, inside the component
    prev: dict[str, str] = {}
    frontier = [start]
    seen = {start}
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(graph[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return [*reversed(path), start]
                if child not in seen:
                    seen.add(child)
                    prev[child] = node
                    nxt.append(child)
        frontier = nxt
    return component


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_the_graph_is_read_from_every_module(graph):
    assert {"kaptai", "kaptai.cli", "kaptai.core.league", "kaptai.bigtwo.policies", "kaptai.report"} <= set(graph)
    # a function-level import is an edge (league_command is imported inside each game's league entry)
    assert "kaptai.core.league" in graph["kaptai.nineten.commands"]
    # a TYPE_CHECKING import is not
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import kaptai.games\n"
                     "else:\n    import kaptai.spec\n")
    names = {n.module if isinstance(n, ast.ImportFrom) else n.names[0].name
             for n in _walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))}
    assert names == {"typing", "kaptai.spec"}
    # a compiled module is a node, with its Python-level imports (not its cimports)
    assert "kaptai.nineten.config" in graph["kaptai.nineten._engine"]
    assert "kaptai.nantong._eval" in graph["kaptai.nantong._engine"]


def test_the_cycle_finder_finds_a_cycle():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert strongly_connected(g) == [["a", "b", "c"]]
    assert a_cycle(g, ["a", "b", "c"]) == ["a", "b", "c", "a"]


def test_no_import_circle(graph):
    cycles = strongly_connected(graph)
    assert not cycles, "import circles (function-level imports included):\n" + "\n".join(
        " -> ".join(a_cycle(graph, c)) + f"   [component of {len(c)}: {', '.join(c)}]" for c in cycles)


def test_the_ground_floor_names_no_game_nor_registry(graph):
    bad = {m: sorted(t for t in targets if any(t == f or t.startswith(f + ".") for f in FORBIDDEN_IN_CORE))
           for m, targets in graph.items() if m == "kaptai.core" or m.startswith("kaptai.core.")}
    bad = {m: t for m, t in bad.items() if t}
    assert not bad, f"kaptai.core imports the registry, the command line or a game: {bad}"
