"""``kaptai league``: options that would have no effect, or name a thing twice, are refused before
any work (one line, exit 2), as the command line refuses them elsewhere."""
from __future__ import annotations

import pytest

from kaptai.cli import main


@pytest.mark.parametrize("argv,words", [
    (["league", "nine-ten", "--policies", "colour_cut,random", "--strong-hands", "100", "--hands", "8"],
     "--strong-hands 100 sets the hands of search, which --policies does not play"),
    (["league", "nine-ten", "--cross", "--challenger", "random,random", "--hands", "8"],
     "'random' is named twice"),
    (["league", "big-two", "--cross", "--challenger-seats", "1,1", "--hands", "8"], "'1' is named twice"),
    (["league", "big-two", "-o", "players=3", "--hands", "8"], "-o players=3 does not match --players 4"),
])
def test_refused(argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kaptai: error: ") and "\n" not in err and words in err, err
