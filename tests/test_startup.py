"""What a command line imports: ``kaptai --version`` and every ``--help`` load no numpy, no
pandas, no matplotlib, no scipy and no Dask, and no module of a game but its ``commands.py``
(the help of ``-o`` lists the rule options read from the source of the game's rules, not from
the imported RuleSet); ``kaptai advise <game>`` loads what its advisor needs (numpy and
pandas, the table) and never matplotlib, scipy, Dask or another game's engine.

These tests hold the *set of modules* (issue 30 item 5); the speed itself is measured by
``benchmarks/bench_startup.py`` (whole process, median of 20), not here: a timed test would
fail on a loaded machine and pass on a fast one for the wrong reasons.

Each command line runs in a fresh process: one helper process imports nothing of kaptai
and forks a child per command line, which runs :func:`kaptai.cli.main` and reports the names
in its ``sys.modules``.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import textwrap

import pytest

from kaptai.commands import EXTRA_TARGETS, TOOLS
from kaptai.games import GAMES

#: Never imported to print a version or a help text.
HEAVY = ("pandas", "matplotlib", "scipy", "dask", "distributed", "pyarrow", "tqdm", "numpy")
#: Never imported by ``advise``: the advisors need numpy and pandas (their table), nothing else heavy.
NOT_FOR_ADVICE = ("matplotlib", "scipy", "dask", "distributed", "tqdm")
#: The heavy packages the advisors do import: numpy (the engines) and pandas (the advice table;
#: pandas imports pyarrow itself when it is installed).
ADVICE_NEEDS = ("numpy", "pandas")

#: The game packages: ``advise <game>`` imports no other game's modules beyond its commands.py.
GAME_PACKAGES = ("kaptai.kts", "kaptai.bigtwo", "kaptai.nineten", "kaptai.nantong", "kaptai.heaven11")

_CHILD = textwrap.dedent("""
    import io, json, os, sys
    cases = json.loads(sys.argv[1])
    out = []
    for argv in cases:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: run the command line, report its modules
            os.close(r)
            sys.stdout = sys.stderr = io.StringIO()
            rc = 0
            try:
                from kaptai.cli import main
                rc = main(argv)
            except SystemExit as exc:  # --help and --version exit through argparse
                rc = exc.code or 0
            with os.fdopen(w, "w") as fh:
                json.dump({"rc": rc, "modules": sorted(sys.modules), "out": sys.stdout.getvalue()[-2000:]}, fh)
            os._exit(0)
        os.close(w)
        with os.fdopen(r) as fh:
            data = fh.read()
        os.waitpid(pid, 0)
        out.append(json.loads(data))
    print(json.dumps(out))
""")


#: The helper processes run outside the source tree: ``python -c`` puts the working directory
#: first on ``sys.path``, and from a clone's root that is the uncompiled source, not the
#: installed package (``pip install .`` builds the extensions elsewhere).
_OUTSIDE = __import__("tempfile").gettempdir()


def _env() -> dict[str, str]:
    """The environment of the helper process: bytecode cached (in a folder of its own, not the
    source tree), so that each forked child does not compile every module again."""
    import tempfile

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "kaptai-test-startup-pycache"))
    return env


def imported(cases: list[list[str]]) -> list[dict]:
    """For each command line (``argv`` without ``kaptai``): its exit status and the modules
    imported by the time it ended, each run in a fresh process."""
    assert all(isinstance(a, list) for a in cases)
    if not hasattr(os, "fork"):  # pragma: no cover - the tests run on Linux and macOS
        pytest.skip("needs os.fork")
    r = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(cases)], capture_output=True, text=True,
                       timeout=600, env=_env(), cwd=_OUTSIDE)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def heavy_in(modules: list[str], names: tuple[str, ...]) -> list[str]:
    return sorted({m.split(".")[0] for m in modules} & set(names))


def help_lines() -> list[list[str]]:
    """``--version``, ``--help``, and ``--help`` of every command and every command of every game."""
    lines = [["--version"], ["--help"]]
    for name in TOOLS:
        lines.append([name, "--help"])
    commands = sorted({c for g in GAMES.values() for c in g.commands} | set(EXTRA_TARGETS))
    for command in commands:
        lines.append([command, "--help"])
        for spec in GAMES.values():
            if command in spec.commands:
                lines.append([command, spec.name, "--help"])
        for target in EXTRA_TARGETS.get(command, {}):
            lines.append([command, target, "--help"])
    return lines


def advise_line(name: str) -> list[str]:
    """The example of ``kaptai advise <game>`` (a valid position), as an argv."""
    example = GAMES[name].commands["advise"].example
    assert example is not None
    words = shlex.split(example)
    assert words[:3] == ["kaptai", "advise", name]
    return words[1:]


def test_version_and_help_import_nothing_heavy():
    lines = help_lines()
    assert len(lines) > 40  # every command of every game
    results = imported(lines)
    bad = {}
    for argv, res in zip(lines, results):
        assert res["rc"] == 0, (argv, res["out"])
        heavy = heavy_in(res["modules"], HEAVY)
        engines = [m for m in res["modules"] if m.startswith(GAME_PACKAGES) and not m.endswith(".commands")
                   and m not in GAME_PACKAGES]
        if heavy or engines:
            bad[" ".join(argv)] = heavy + engines
    assert not bad, f"command lines that import heavy modules or a game's engine: {bad}"
    # the version really is printed, and --help lists the games
    assert results[0]["out"].startswith("kaptai ")
    assert all(g in results[1]["out"] for g in GAMES)
    # the help of -o lists the rule options (read without importing the rules)
    helps = {" ".join(a): r["out"] for a, r in zip(lines, results)}
    assert "-o KEY=VALUE. The options this command reads, as in the preset" in " ".join(helps["odds big-two --help"].split())


def test_the_registry_and_the_packages_load_light():
    # importing a game's package or the registry loads no engine (lazy re-exports)
    code = ("import sys, kaptai, kaptai.games, kaptai.kts, kaptai.bigtwo, kaptai.nineten, kaptai.nantong, "
            "kaptai.heaven11; kaptai.games.GAMES['big-two']; import json; print(json.dumps(sorted(sys.modules)))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=_env(), cwd=_OUTSIDE)
    assert r.returncode == 0, r.stderr
    assert heavy_in(json.loads(r.stdout), HEAVY) == []


@pytest.mark.parametrize("name", [g for g in GAMES if "advise" in GAMES[g].commands])
def test_advise_imports_only_what_its_advisor_needs(name):
    (res,) = imported([advise_line(name)])
    assert res["rc"] == 0, res["out"]
    modules = res["modules"]
    assert heavy_in(modules, NOT_FOR_ADVICE) == []
    assert set(heavy_in(modules, HEAVY)) <= set(ADVICE_NEEDS) | {"pyarrow"}
    own = GAMES[name].package
    others = [m for m in modules if m.startswith(GAME_PACKAGES) and not m.startswith(own + ".")
              and m != own and not m.endswith(".commands") and m not in GAME_PACKAGES]
    assert others == [], f"advise {name} imports other games' modules: {others}"


def test_the_lazy_packages_keep_their_public_api():
    import importlib

    for pkg in GAME_PACKAGES:
        mod = importlib.import_module(pkg)
        for attr in mod.__all__:
            assert getattr(mod, attr) is not None, (pkg, attr)
        assert set(mod.__all__) <= set(dir(mod))
    # a name that is also a submodule's stays the function once the submodule is imported
    import kaptai.bigtwo
    import kaptai.bigtwo.simulate  # noqa: F401
    import kaptai.kts
    import kaptai.kts.evaluate  # noqa: F401

    assert callable(kaptai.bigtwo.simulate) and callable(kaptai.kts.evaluate)
    from kaptai.nantong import fairness

    assert callable(fairness)
    with pytest.raises(AttributeError):
        kaptai.bigtwo.no_such_name  # noqa: B018
