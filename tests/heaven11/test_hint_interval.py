"""The hint at a Heaven Eleven play gives, after every option but the best, the 95% interval of
its difference to the best (paired on the same layouts), so a person can tell a gap the sampling
resolves from one it does not; the difference of the printed values lies inside it."""
from __future__ import annotations

import re

import pytest

from tests.heaven11.test_play_hint import HINT, Script, _play

ROW = re.compile(r"(\d+)\. (.+?)  score ([+-]\d+\.\d\d) points(?: \(vs 1\.: ([+-]\d+\.\d\d) to ([+-]\d+\.\d\d)\))?")


@pytest.mark.timeout(300)
def test_every_row_after_the_first_has_its_interval(monkeypatch):
    script = Script()
    _df, text = _play(monkeypatch, script, seed=5)
    hints = HINT.findall(text)
    assert hints, text[-2000:]
    checked = 0
    for hint in hints:
        rows = ROW.findall(hint)
        assert rows and rows[0][3] == "" and rows[0][4] == ""  # the best has no interval to itself
        best = float(rows[0][2])
        for _r, _lab, v, lo, hi in rows[1:]:
            assert lo and hi, hint
            lo_f, hi_f = float(lo), float(hi)
            assert lo_f <= hi_f
            # the printed values are rounded to 0.01 each
            assert lo_f - 0.02 <= float(v) - best <= hi_f + 0.02, hint
            checked += 1
    assert checked > 0
