"""``kaptai league <game>`` in text reads at 100 columns and names its unit; the JSON keeps its
keys; Nantong's unit is the one in force; the header says the hands played; the bad
``--challenger`` / ``--challenger-seats 2`` are refused as argument errors."""

from __future__ import annotations

import json

import pytest

from kaptai.cli import main
from kaptai.core.league import CROSS_COLUMNS

KTS = ["league", "kap-tai-shap", "--policies", "greedy,score,random", "--hands", "200", "--seed", "7",
       "--no-progress", "--workers", "1"]


def _text(capsys, monkeypatch, *argv: str) -> str:
    monkeypatch.setenv("COLUMNS", "100")
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _header(text: str) -> str:
    """The header: the ``#`` lines before the table, joined."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("# "))
    return " ".join(lines)


@pytest.mark.parametrize("extra", [(), ("--diff",), ("--cross",)])
def test_kap_tai_shap_text_names_each_rulesets_unit_within_100_columns(extra, capsys, monkeypatch):
    out = _text(capsys, monkeypatch, *KTS, *extra)
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "EV per hand (ante under traditional, point under advanced)" in _header(out)
    table = [line.split() for line in out.splitlines() if not line.startswith("#")]
    assert table[0][-1] == "unit" and {"ante", "point"} <= {row[-1] for row in table[1:]}
    if not extra:  # the metric legend, as the other games print it
        assert "# vs_best_other: ev_per_hand(policy) - the highest ev_per_hand" in out


@pytest.mark.parametrize("game,extra", [
    ("nine-ten", ("--cross",)), ("nine-ten", ()), ("big-two", ("--diff",)),
    ("nantong", ("--cross", "--policies", "max_melds,chase_qing,chase_hun,random")),  # the search: 40 s more
])
def test_league_text_reads_at_100_columns(game, extra, capsys, monkeypatch):
    cap = () if "--policies" in extra else ("--strong-hands", "8")  # refused where no search plays
    out = _text(capsys, monkeypatch, "league", game, "--hands", "40", *cap, "--seed", "1",
                "--no-progress", "--workers", "1", *extra)
    assert max(len(line) for line in out.splitlines()) <= 100, out
    assert "EV per hand (" in _header(out)


def test_cross_json_keeps_its_columns(capsys):
    assert main([*KTS, "--cross", "--format", "json", "--rules-list", "traditional"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert set(rows[0]) == set(CROSS_COLUMNS)
    assert isinstance(rows[0]["ev_ci_low"], float)


@pytest.mark.parametrize("options,unit", [((), "share of the hand win"),
                                          (("-o", "settlement=winner_collects"), "points")])
def test_nantong_unit_is_the_one_in_force(options, unit, capsys, monkeypatch):
    assert main(["league", "nantong", "--hands", "90", "--seed", "1", "--policies", "max_melds,random",
                 "--format", "json", "--no-progress", *options]) == 0
    rows = json.loads(capsys.readouterr().out)
    money = {r["unit"] for r in rows if r["metric"] in ("ev_per_hand", "value_of_play", "vs_best_other")}
    assert money == {unit}
    out = _text(capsys, monkeypatch, "league", "nantong", "--hands", "90", "--seed", "1", "--policies",
                "max_melds,random", "--no-progress", "--diff", *options)
    assert f"EV per hand ({unit})" in _header(out)


def test_header_says_the_hands_played_and_the_cap(capsys, monkeypatch):
    out = _text(capsys, monkeypatch, "league", "nantong", "--hands", "100", "--strong-hands", "10", "--seed", "1",
                "--policies", "max_melds,search", "--no-progress", "--workers", "1")
    head = _header(out)
    assert "102 hands a policy (34 deals x 3 seats); search capped at 12 (4 deals)" in head
    assert "200 hands per policy" not in head


def test_two_against_two_is_refused_at_a_table_not_four_seat(capsys):
    assert main(["league", "nine-ten", "--players", "5", "--cross", "--challenger-seats", "2", "--policies",
                 "colour_cut,random", "--hands", "100", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "argument --challenger-seats: 2 (two against two) is played only at four-seat tables" in err
    assert "(see kaptai league nine-ten --help)" in err


def test_bad_challenger_is_an_argument_error(capsys):
    assert main(["league", "nine-ten", "--cross", "--challenger", "nope", "--policies", "colour_cut,random",
                 "--hands", "20", "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "argument --challenger: 'nope' is not one of the policies played" in err
    assert err.rstrip().endswith("(see kaptai league nine-ten --help)")
