"""Every sampling advisor (Big Two, nine-ten, Nantong, Heaven Eleven) takes the same bounds of samples,
seed and budget, in the API and on the command line; stops as its header says; and stops at Ctrl-C."""

import os
import signal
import subprocess
import sys
import time

import pytest

from kaptai.cli import main
from kaptai.errors import KaptaiError

POSITIONS = {
    "big-two": ("kaptai.bigtwo.advisor", ["4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C", "--to-beat", "3D"],
                (("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C",), {"to_beat": "3D"})),
    "nine-ten": ("kaptai.nineten.advisor", ["RKx2 RA YAx2 GE WC WP GK GA"], (("RKx2 RA YAx2 GE WC WP GK GA",), {})),
    "nantong": ("kaptai.nantong.advisor", ["123b 234w 678t 333w qzx3 789t 99w bhx2 hh"],
                (("123b 234w 678t 333w qzx3 789t 99w bhx2 hh",), {})),
    "heaven-eleven": ("kaptai.heaven11.advisor", ["AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C"],
                      (("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C",), {})),
}


def _advise(game):
    import importlib

    mod, _, (args, kw) = POSITIONS[game]
    return importlib.import_module(mod).advise, args, kw


@pytest.mark.parametrize("game", sorted(POSITIONS))
@pytest.mark.parametrize("bad", [dict(samples=0), dict(samples=100_001), dict(samples=10**30), dict(samples=2.5),
                                 dict(samples=True), dict(seed=-1), dict(seed=1.5), dict(seed="x"),
                                 dict(budget_ms=0), dict(budget_ms=float("nan"))])
def test_api_bounds_are_the_same_in_every_game(game, bad):
    fn, args, kw = _advise(game)
    t0 = time.perf_counter()
    with pytest.raises(KaptaiError):
        fn(*args, **kw, **bad)
    assert time.perf_counter() - t0 < 2  # refused before any sampling


@pytest.mark.parametrize("game", sorted(POSITIONS))
@pytest.mark.parametrize("flags", [["--samples", "100001"], ["--samples", "0"], ["--budget-ms", "0"],
                                   ["--seed", "-1"], ["--budget-ms", "x"]])
def test_cli_bounds_one_error_line(game, flags, capsys):
    assert main(["advise", game, *POSITIONS[game][1], *flags]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kaptai: error:")


@pytest.mark.parametrize("game", sorted(POSITIONS))
def test_header_says_how_sampling_stopped(game, capsys):
    assert main(["advise", game, *POSITIONS[game][1], "--budget-ms", "40"]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "vs_best" in head and "--samples" in head and ("budget" in head or "resolved" in head)
    assert main(["advise", game, *POSITIONS[game][1], "--samples", "8"]) == 0
    assert "(fixed by --samples)" in capsys.readouterr().out.splitlines()[0]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_the_slowest_batches_within_a_second():
    """Nantong has the slowest layouts; a huge fixed count is stopped by SIGINT between batches."""
    p = subprocess.Popen([sys.executable, "-m", "kaptai", "advise", "nantong", POSITIONS["nantong"][1][0],
                          "--samples", "100000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3.0)
        assert p.poll() is None
        t0 = time.perf_counter()
        os.kill(p.pid, signal.SIGINT)
        p.wait(timeout=10)
        assert time.perf_counter() - t0 < 1.5 and p.returncode != 0
    finally:
        if p.poll() is None:
            p.kill()
