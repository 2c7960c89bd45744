"""Every sampling advisor (Big Two, nine-ten, Nantong, Heaven Eleven) takes the same bounds of samples,
seed and budget, in the API and on the command line; stops as its header says; and stops at Ctrl-C."""

import os
import signal
import subprocess
import tempfile
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
                          "--samples", "100000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=tempfile.gettempdir())  # the installed package, not the uncompiled source tree
    try:
        time.sleep(3.0)
        assert p.poll() is None
        t0 = time.perf_counter()
        os.kill(p.pid, signal.SIGINT)
        p.wait(timeout=10)
        assert time.perf_counter() - t0 < 2.5 and p.returncode != 0  # a batch takes ms; the rest: exit under load
    finally:
        if p.poll() is None:
            p.kill()


def _api_cases():
    from kaptai.bigtwo.advisor import advise as bigtwo
    from kaptai.heaven11.advisor import advise as heaven11
    from kaptai.kts.advisor import advise as kts
    from kaptai.nantong.advisor import advise as nantong
    from kaptai.nineten.advisor import advise as nineten

    h11 = ("AS KS QS JS TS 9S AH KH 2D 3D 4C 5C 6C",)
    return [
        ("big-two", bigtwo, ("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C",), {"to_beat": "3D"},
         ["played", "to_beat", "by", "cards_left", "players", "rules", "seed", "budget_ms"]),
        ("nine-ten", nineten, ("RKx2 RA YAx2 GE WC WP GK GA",), {}, ["seen", "offered", "players", "rules", "seed",
                                                                     "engine", "budget_ms"]),
        ("heaven-eleven bid", heaven11, h11, {}, ["seat", "dealer", "auction", "rules", "seed", "budget_ms",
                                                  "declarer", "plays"]),
        ("heaven-eleven play", heaven11, h11, {"contract": "4S"}, ["seat", "dealer", "auction", "plays", "contract"]),
        ("nantong", nantong, ("123b 234w 678t 333w qzx3 789t 99w bhx2 hh",), {}, ["seen", "rules", "melds", "jiang",
                                                                                  "players", "seed", "budget_ms"]),
        ("kap-tai-shap", kts, ("16 16 12 33 13 15 22 66 45 55",), {}, ["rules", "seen", "draws", "players", "sets",
                                                                         "offered", "model", "claims", "objective"]),
    ]


@pytest.mark.parametrize("case", range(6))
def test_every_api_argument_refuses_bad_values_with_a_short_kaptai_error(case):
    name, fn, args, kw, params = _api_cases()[case]
    for p in params:
        for bad in (1.5, "x" * 4000, [1.5, 2], object(), -(10**30)):
            k = {**kw, p: bad}
            if name != "kap-tai-shap":
                k.setdefault("samples", 4)
            try:
                fn(*args, **k)
            except KaptaiError as e:
                assert len(str(e)) < 450, (name, p, str(e)[:80])
            # a value that is accepted is fine (e.g. a list of cards); a traceback is not
