"""The nantong command-line entry points, through the registry."""
import json

import pytest

import kaptai.games as games
from kaptai.nantong.commands import SPEC


@pytest.fixture
def cli():
    assert games.game("nantong") is SPEC  # registered in kaptai/games.py
    from kaptai.cli import main

    return main


N2 = "jiang=5t,5t win=self:3b hand=888b 999t 33b melds=hezi:5t qishou:hh pong:2w ckong:6w pong:bh pong:4t"


def test_score_json(cli, capsys):
    assert cli(["score", "nantong", N2, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 250 and out["raw"] == 248 and out["win_type"] == "qinghe"
    assert cli(["score", "nantong", N2]) == 0
    assert "250" in capsys.readouterr().out


def test_score_error(cli, capsys):
    rec = "jiang=5w,5w win=none hand=147w 369w 147t 258t 369b 147b 2b melds=pong:5w"
    assert cli(["score", "nantong", rec]) == 2
    assert "pong:5w needs 3 copies but only 2 remain under 雙將" in capsys.readouterr().err


def test_odds_json(cli, capsys):
    assert cli(["odds", "nantong", "--players", "3", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by = {(r["metric"], r["hand"], r["breakdown"]): r for r in rows if r["metric"] == "double_jiang"}
    assert by["double_jiang", "table", "unconditional"]["exact"] == "3/119"


def test_simulate_fairness_waits(cli, capsys):
    assert cli(["simulate", "nantong", "--hands", "200", "--seed", "1", "--no-progress", "--format", "csv"]) == 0
    assert "hand_win" in capsys.readouterr().out
    assert cli(["fairness", "nantong", "--matches", "10", "--no-progress", "--format", "csv"]) == 0
    assert "match_mean" in capsys.readouterr().out
    assert cli(["waits", "nantong", "1112w", "--seen", "3w"]) == 0
    out = capsys.readouterr().out
    assert "2w" in out and "3w" in out
    assert cli(["score", "nantong", "jiang=5w,7b win=self:9w hand=10w"]) == 2
    assert "unknown card token '10w' (item 1)" in capsys.readouterr().err


def test_report_markdown(cli, tmp_path, capsys, monkeypatch):
    from ..conftest import SLOW_SCALE
    from .helpers import small_search

    small_search(monkeypatch, SLOW_SCALE)
    out = tmp_path / "nantong.md"
    assert cli(["report", "nantong", "--players", "3", "--hands", "300", "--out", str(out), "--no-progress"]) == 0
    text = out.read_text()
    assert "Exact deal odds" in text and "Fairness of the 8-round match" in text


def test_fairness_plot(cli, tmp_path, capsys):
    import matplotlib

    matplotlib.use("Agg")
    png = tmp_path / "fair.png"
    assert cli(["fairness", "nantong", "--matches", "10", "--variants", "tie", "--no-progress", "--plot", str(png),
                "--format", "csv"]) == 0
    assert png.stat().st_size > 0


@pytest.mark.parametrize("command", ["simulate", "fairness"])
def test_policy_seat_of_a_four_player_table_says_who_plays_a_hand(cli, capsys, command):
    """With 4 players 3 play each hand; --policy's seats are the hand's (0 deals): seat 3 is
    refused saying so, not as if the table had 3 players."""
    assert cli([command, "nantong", "--players", "4", "--policy", "3=random", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert ("--policy: seat 3 does not exist with 4 players: 3 play each hand, as seats 0-2 (seat 0 deals, then "
            "the seats after it in turn order); the 4th sits out") in err
    assert cli([command, "nantong", "--players", "3", "--policy", "3=random", "--no-progress"]) == 2
    assert "seat 3 does not exist with 3 players (seats 0-2)" in capsys.readouterr().err
