"""Every exact number the README quotes comes out of the command beside it.

Each claim is found in the README's own text (a change to the README or to the code fails
here): the command quoted beside the number is parsed and run in-process, exactly as the
shell would run it, and the number is compared with the row of its table, printed the way the
table prints it (``--percent``: four significant digits and a ``%``; an exact fraction as the
``exact`` column gives it).  The README's ``evaluate`` example runs as a doctest.  The costly
Monte Carlo numbers (leagues, the strength table) are not rerun; the README names the commit
and date each was measured at, which the last test checks.
"""

from __future__ import annotations

import doctest
import re
import shlex
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from kaptai.cli import build_parser, run_command
from kaptai.core.output import _cell

README = Path(__file__).resolve().parents[1] / "README.md"


def _text() -> str:
    """The README with its line breaks folded (a claim may wrap over lines)."""
    return re.sub(r"\s*\n\s*", " ", README.read_text(encoding="utf-8"))


def _find(pattern: str) -> re.Match:
    m = re.search(pattern, _text())
    assert m, f"the README no longer says: {pattern}"
    return m


def _run(command: str) -> tuple[pd.DataFrame, bool]:
    """The table of a README command (``kaptai ...``), run in-process, and its ``--percent``."""
    argv = shlex.split(command)
    assert argv[0] == "kaptai", command
    args = build_parser(argv[1:]).parse_args(argv[1:])
    out = run_command(args)
    assert out.table is not None, command
    return out.table, bool(getattr(args, "percent", False))


def _row(df: pd.DataFrame, **where: str) -> pd.Series:
    q = df
    for k, v in where.items():
        q = q[q[k].astype(str) == v]
    assert len(q) == 1, (where, len(q))
    return q.iloc[0]


def _shown(value: float, percent: bool) -> str:
    """A value as the table format prints it."""
    return _cell(float(value), percent=percent)


def test_kap_tai_shap_naturals():
    m = _find(r"complete \(a natural\) (\S+) of the time under the traditional rules and (\S+) under the "
              r"advanced ones \(`(kaptai odds kap-tai-shap [^`]+)`, and the same with `(--rules advanced)`; "
              r"row `(natural)`\)")
    traditional, advanced, command, extra, metric = m.groups()
    for quoted, cmd in ((traditional, command), (advanced, f"{command} {extra}")):
        df, percent = _run(cmd)
        assert percent, "the README quotes percentages: the command must print them"
        assert quoted == _shown(_row(df, metric=metric).value, percent), cmd


def test_big_two_best_five_card_hand():
    m = _find(r"a full house (\S+) of the time and a straight flush (\S+) \(`(kaptai odds big-two [^`]+)`, rows "
              r"`best_five`\)")
    full_house, straight_flush, command = m.groups()
    df, percent = _run(command)
    best = df[(df.metric == "best_five") & df.breakdown.isna()]
    for quoted, level in ((full_house, "full_house"), (straight_flush, "straight_flush")):
        assert quoted == _shown(_row(best, level=level).value, percent), level


def _one_in(fraction: str) -> str:
    f = Fraction(fraction)
    return f"{round(1 / f):,}"


def test_nine_ten_ready_and_natural():
    m = _find(r"a non-dealer is ready at the deal with probability (\d+/\d+) \(1 in ([\d,]+)\); the dealer holds a "
              r"natural with probability (\d+/\d+) \(1 in ([\d,]+)\) \(`(kaptai odds nine-ten [^`]+)`, rows "
              r"`ready` and `natural`\)")
    ready, ready_one_in, natural, natural_one_in, command = m.groups()
    df, _ = _run(command)
    assert _row(df, metric="ready", hand="other").exact == ready
    assert _row(df, metric="natural", hand="dealer").exact == natural
    assert _one_in(ready) == ready_one_in and _one_in(natural) == natural_one_in


def test_nantong_double_jiang():
    m = _find(r"the two turned cards are the same \(雙將\) with probability (\d+/\d+) \(`(kaptai odds nantong[^`]*)`, "
              r"row `(double_jiang)`\)")
    quoted, command, metric = m.groups()
    df, _ = _run(command)
    assert _row(df, metric=metric, breakdown="unconditional").exact == quoted


def test_heaven_eleven_king_ace():
    m = _find(r"a dealt hand holds K-A of one suit (\S+) of the time \(`(kaptai odds heaven-eleven [^`]+)`, row "
              r"`(heaven_eleven_2)`\)")
    quoted, command, metric = m.groups()
    df, percent = _run(command)
    assert quoted == _shown(_row(df, metric=metric).value, percent)


def test_the_evaluate_example_runs():
    block = re.search(r"```python\n(>>> from kaptai\.kts import evaluate\n.*?)```", README.read_text(encoding="utf-8"),
                      re.S)
    assert block, "the README's evaluate example is gone"
    test = doctest.DocTestParser().get_doctest(block.group(1), {}, "README", str(README), 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_two_commands_are_the_ones_the_readme_gives():
    text = README.read_text(encoding="utf-8")
    assert "pip install . && kaptai odds kap-tai-shap --players 4\n" in text
    assert "pip install -r requirements-test.txt && python -m pytest\n" in text


@pytest.mark.parametrize("game", ["Big Two", "Heaven Eleven", "Nantong", "nine-ten", "Kap Tai Shap"])
def test_every_strength_row_names_its_command_commit_and_date(game):
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.startswith(f"| {game} |")]
    assert rows, game
    for i, line in enumerate(rows):
        last = line.rstrip(" |").rsplit("|", 1)[1]
        if "the same run" in last:
            assert i > 0, line
            continue
        # a league, or a duel script shipped in benchmarks/ (which must exist), seeded and sized
        m = re.search(r"`(kaptai league \S+|python (benchmarks/\S+\.py)) [^`]*--hands \d+[^`]*--seed \d+[^`]*`"
                      r"[^;]*; [0-9a-f]{7}, 2026-\d\d-\d\d$", last.strip())
        assert m, line
        if m.group(2):
            assert (README.parent / m.group(2)).is_file(), m.group(2)
