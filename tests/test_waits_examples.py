"""Every game's ``kaptai waits`` example (its ``--help``'s last line) shows what the command is
for: a hand with at least one wait.  Nantong's was a far hand (distance 3, no rows)."""
from __future__ import annotations

import shlex

import pytest

from kaptai.cli import main
from kaptai.games import GAMES

CASES = [(g.name, cmd.example) for g in GAMES.values() for name, cmd in g.commands.items()
         if name == "waits" and cmd.example]


def test_there_are_waits_examples():
    assert {"nantong", "kap-tai-shap"} <= {g for g, _ in CASES}


@pytest.mark.parametrize("game,example", CASES, ids=[c[0] for c in CASES])
def test_waits_example_lists_a_wait(game, example, capsys):
    argv = shlex.split(example)
    assert argv[:2] == ["kaptai", "waits"]
    assert main(argv[1:] + ["--format", "csv"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x and not x.startswith("#")]
    assert len(lines) >= 2, lines  # a header and one wait at least
