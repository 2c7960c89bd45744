"""``kaptai advise big-two`` and :func:`kaptai.bigtwo.advisor.advise`."""

from __future__ import annotations

import json

import numpy as np

from kaptai.core.advise import batch_stream
import pytest

from kaptai.bigtwo import _engine
from kaptai.bigtwo.advisor import (
    ADVICE_COLUMNS,
    advise,
    default_cards_left,
)
from kaptai.bigtwo.cards import cards_to_mask, format_cards, parse_cards
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.engine_reference import make_view
from kaptai.cli import main
from kaptai.errors import InvalidHandError, KaptaiError, RulesError

HAND = "4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C"


def test_every_legal_option_is_listed_with_intervals():
    df = advise(HAND, to_beat="3D", by=3, samples=60)
    view = make_view(HAND, trick="3D", cards_left=(13, 13, 13, 12))
    want = {str(p) for p in view.options} | {"PASS"}
    assert set(df.play) == want and len(df) == len(want)
    assert list(df.columns) == ADVICE_COLUMNS
    assert (df.ev_low <= df.ev).all() and (df.ev <= df.ev_high).all()
    assert (df.p_win_low <= df.p_win).all() and (df.p_win <= df.p_win_high).all()
    assert df.ev.is_monotonic_decreasing and df["rank"].iloc[0] == 1
    assert df["rank"].tolist() == [1 + int((df.ev > v).sum()) for v in df.ev]  # equal values share a rank
    assert df.attrs["cards_left"] == [13, 13, 13, 13 - 1] and df.attrs["by"] == 3


def test_matches_the_search_evaluation():
    """The advisor's numbers are the compiled search's sums over the same layouts (one batch: the
    stream of batch 0 of the seed)."""
    df = advise(HAND, to_beat="3D", by=3, samples=32, seed=4)
    cfg = make_config(4)
    hand = cards_to_mask(parse_cards(HAND))
    cands, sums, _, wins = _engine.search_position(cfg, 0, (13, 13, 13, 12), hand, played=1, trick=1, trick_seat=3,
                                                   passes=0, bit_generator=batch_stream(4, 0), samples=32)
    info = {("PASS" if c == 0 else format_cards([i for i in range(52) if int(c) >> i & 1], sort=True)): (s, w)
            for c, s, w in zip(cands, sums, wins)}
    for r in df.itertuples():
        key = r.play if r.play == "PASS" else format_cards(parse_cards(r.play), sort=True)
        s, w = info[key]
        assert r.ev == pytest.approx(s / 32) and r.p_win == pytest.approx(w / 32)


def test_reproducible_and_seeded():
    a = advise(HAND, to_beat="3D", samples=40, seed=1)
    b = advise(HAND, to_beat="3D", samples=40, seed=1)
    c = advise(HAND, to_beat="3D", samples=40, seed=2)
    assert a.equals(b) and not a.equals(c)


def test_opening_lead_contains_the_lowest_card():
    df = advise("3D 4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D", samples=20)
    assert all("3D" in p.split() for p in df.play) and "PASS" not in set(df.play)


def test_scoring_in_force_and_stake():
    """Stake scales the values; the rollout policy is named in the method text."""
    a = advise(HAND, to_beat="3D", samples=30)
    b = advise(HAND, to_beat="3D", samples=30, rules={"stake": 10})
    assert np.allclose(b.ev.to_numpy(), 10 * a.ev.to_numpy())
    c = advise(HAND, to_beat="3D", samples=30, rules={"settlement": "winner_takes_all"})
    assert "'greedy'" in c.attrs["method"]


def test_default_counts():
    assert default_cards_left(39, 4) == (13, 13, 13)
    assert default_cards_left(10, 3) == (5, 5)
    assert default_cards_left(7, 4) == (3, 2, 2)


@pytest.mark.parametrize("kwargs,error,match", [
    ({"hand": "3D 3X"}, KaptaiError, 'hand: invalid card "3X" \\(token 2\\)'),
    ({"hand": "3D 4D", "played": "5C 5Q"}, KaptaiError, 'played: invalid card "5Q" \\(token 2\\)'),
    ({"hand": "3D 4D 3D"}, InvalidHandError, 'duplicate card "3D"'),
    ({"hand": "3D 4D", "played": "4D"}, InvalidHandError, '"4D" is both in the hand and in the played'),
    ({"hand": "3D 4D", "to_beat": "5C 6H"}, InvalidHandError, '"5C 6H" is not a legal combination'),
    ({"hand": "3D 4D", "to_beat": "4D"}, InvalidHandError, "both in the hand and in the play to beat"),
    ({"hand": "5D 6D", "to_beat": "3C", "by": 4}, RulesError, "by=4"),
    ({"hand": "5D 6D", "by": 2}, RulesError, "without a play to beat"),
    ({"hand": "5D 6D", "to_beat": "3C", "cards_left": (13, 13)}, RulesError, "expected 3"),
    ({"hand": "5D 6D", "to_beat": "3C", "cards_left": (13, 13, 13)}, RulesError, "49 cards are unseen"),
    ({"hand": "5D 6D", "to_beat": "3C", "cards_left": (0, 25, 24)}, RulesError, "seat 1 is 0"),
    ({"hand": "5D 6D", "samples": 0}, RulesError, "samples=0"),
    ({"hand": ""}, InvalidHandError, "hand is empty"),
])
def test_bad_positions(kwargs, error, match):
    with pytest.raises(error, match=match):
        advise(**kwargs)


def test_command_line_json(capsys):
    code = main(["advise", "big-two", HAND, "--to-beat", "3D", "--by", "3", "--samples", "30", "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rows = json.loads(out)
    assert {r["play"] for r in rows} >= {"PASS", "4C", "2C"}
    for r in rows:
        assert r["ev_low"] <= r["ev"] <= r["ev_high"] and 0 <= r["p_win_low"] <= r["p_win"] <= r["p_win_high"] <= 1
    code = main(["advise", "big-two", "3D 3X"])
    _, err = capsys.readouterr()
    assert code != 0 and '"3X"' in err


def test_declared_budget_is_the_library_default():
    from kaptai.bigtwo.commands import SPEC
    from kaptai.core.advise import DEFAULT_BUDGET_MS, MAX_SAMPLES

    opts = {o.name: o for o in SPEC.commands["advise"].options}
    assert opts["--samples"].default is None and opts["--samples"].hi == MAX_SAMPLES
    assert opts["--budget-ms"].default == DEFAULT_BUDGET_MS


@pytest.mark.parametrize("kwargs,match", [
    ({"hand": "4C 5D"}, "cannot occur: you hold 2 cards and 0 are played"),
    ({"hand": "4C 5D", "played": "3D"}, "cannot occur"),
    ({"hand": "4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C"}, "you do not hold 3D: the first lead"),
    ({"hand": HAND, "to_beat": "3D", "by": 1.5}, "by=1.5"),
    ({"hand": HAND, "to_beat": "3D", "by": True}, "by=True"),
    ({"hand": HAND, "to_beat": "3D", "samples": 100_001}, "samples=100001"),
    ({"hand": HAND, "to_beat": "3D", "samples": 10**30}, "samples="),
    ({"hand": HAND, "to_beat": "3D", "seed": -1}, "seed=-1"),
    ({"hand": HAND, "to_beat": "3D", "seed": 1.5}, "seed=1.5"),
    ({"hand": HAND, "to_beat": "3D", "budget_ms": 0}, "budget_ms=0"),
    ({"hand": HAND, "to_beat": "3D", "cards_left": (13.5, 13, 12)}, "13.5 is not a whole number"),
    ({"hand": HAND, "to_beat": "3D", "cards_left": 38}, "cards_left=38"),
    ({"hand": HAND, "to_beat": "3D", "cards_left": "x" * 4000}, "4000 characters"),
])
def test_positions_that_cannot_occur_and_bad_arguments(kwargs, match):
    with pytest.raises(KaptaiError, match=match):
        advise(**kwargs)


def test_first_lead_with_the_lowest_card_and_the_other_rule():
    df = advise("3D 4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D", samples=8)  # holds 3D: every lead contains it
    assert df.play.str.contains("3D").all()
    # under first_lead=previous_winner a hand may open without 3D
    assert len(advise("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C", rules={"first_lead": "previous_winner"},
                      samples=8)) > 0


def test_cli_impossible_counts_one_line(capsys):
    assert main(["advise", "big-two", "4C 5D"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("kaptai: error: this position cannot occur")


def test_budget_stops_and_reproduces():
    df = advise(HAND, to_beat="3D", seed=7)
    assert df.attrs["stop"] in ("resolved", "budget", "max")
    again = advise(HAND, to_beat="3D", seed=7, samples=df.attrs["samples"])
    cols = ["rank", "play", "ev", "ev_low", "vs_best", "vs_best_low", "vs_best_high", "p_win"]
    assert again[cols].equals(df[cols]) and again.attrs["stop"] == "fixed"
