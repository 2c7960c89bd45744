"""The QA review of issue 30 (a new user's command lines and API calls, generated from the
registry): each class of defect that the review found gets its regression here.

Every case is refused before any work (in-process, milliseconds), with one ``kaptai: error:``
line, exit status 2 and no traceback (CLI), or a :class:`~kaptai.errors.KaptaiError` (API).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError
from kaptai.games import GAMES


def _commands() -> Iterator[tuple[str, str, Any]]:
    for spec in GAMES.values():
        for name, cmd in spec.commands.items():
            yield spec.name, name, cmd


def _base(command: str, game: str, cmd: Any) -> list[str]:
    return [command, game] + [o.example_value() for o in cmd.options if o.positional]


def _refused(capsys, argv: list[str]) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("kaptai: error: "), f"{argv!r:.300}: {code} {err[:300]!r}"
    assert len(lines[0]) < 400, lines[0]
    return lines[0]


def _numbers() -> Iterator[Any]:
    for game, command, cmd in _commands():
        for opt in cmd.options:
            if opt.kind in ("int", "float") and not opt.positional:
                yield pytest.param(game, command, opt, id=f"{game}-{command}-{opt.name.lstrip('-')}")


@pytest.mark.parametrize("game, command, opt", list(_numbers()))
def test_numbers_in_other_scripts_and_options_given_twice_are_refused(game, command, opt, capsys, tmp_path, monkeypatch):
    """int('١') is 1 and float('٠') 0.0 in Python: an option took Arabic-Indic digits as a
    number; and argparse kept the last of ``--hands 20 --hands 21`` without a word."""
    monkeypatch.chdir(tmp_path)
    cmd = GAMES[game].commands[command]
    base = _base(command, game, cmd)
    for digits in ("١", "１"):
        line = _refused(capsys, base + [opt.name, digits])
        assert opt.name in line
    if opt.lo is not None and opt.lo == opt.hi:
        return  # one value only (kap-shap's --players)
    good = opt.example_value() or str(int(opt.lo if opt.lo is not None else 0))
    value = opt.parse(good)
    other = value + 1 if opt.hi is None or value + 1 <= opt.hi else value - 1
    other_text = str(other) if opt.kind == "int" else repr(float(other))
    line = _refused(capsys, base + [opt.name, good, opt.flags[-1], other_text])
    assert ("given twice with two values" in line or "has no effect here" in line) and opt.name in line
    assert not list(tmp_path.iterdir())


def test_a_switch_given_both_ways_is_refused(capsys):
    for game, command, cmd in _commands():
        if cmd.option("progress") is not None:
            line = _refused(capsys, _base(command, game, cmd) + ["--progress", "--no-progress"])
            assert "--progress and --no-progress contradict" in line


def test_kts_advise_a_complete_hand_checks_its_horizon_first():
    """A complete hand skipped the horizon check: draws=10**30 raised OverflowError."""
    from kaptai.kts.advisor import advise

    for draws in (10**30, 2**63, 5):
        with pytest.raises(KaptaiError, match="draws"):
            advise("66 66 44 44 14 14 55 55 46 46", draws=draws)
    assert advise("66 66 44 44 14 14 55 55 46 46", draws=3)["action"].iloc[0] == "win"
