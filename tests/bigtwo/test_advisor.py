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
    assert "'contest'" in c.attrs["method"]


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


# ---------------------------------------------------------------- the hand's history (--history)

class _Recorder:
    """A built-in policy that, at every decision with a history, derives the position from the typed
    history (the advisor's replay) and keeps it beside the reference engine's own view."""

    name = "recorder"

    def __init__(self, inner, out):
        self.inner, self.out = inner, out

    def swap(self, view):
        return self.inner.swap(view)

    def choose(self, view):
        if view.history:
            self.out.append(view)
        return self.inner.choose(view)


@pytest.mark.parametrize("players, options", [
    (4, {}),
    (4, {"pass_locks_out": True}),
    (3, {}),                                  # one leftover card, to the holder of the lowest card
    (5, {"settlement": "winner_takes_all"}),  # two leftovers
    (4, {"straight_order": "sequential", "four_card_play": "quad_or_two_pair", "top_rule": "off", "redeal": "off"}),
    (4, {"first_lead": "previous_winner"}),    # the opening is taken as free (see below)
])
def test_history_derives_the_engines_own_position(players, options):
    """The reference engine plays whole games; at every decision the typed history (plays and passes,
    no seats) gives the same cards played, play to beat, maker, counts, locks and search history rows
    as the engine's own view of the deciding seat."""
    from kaptai.bigtwo.advisor import _history_items, _history_position, typed_history
    from kaptai.bigtwo.engine_reference import Game
    from kaptai.bigtwo.policies import resolve_policies
    from kaptai.core.sampling import RandomStream

    cfg = make_config(players, options)
    views: list = []
    for game in range(6):
        names = ["greedy", "heuristic", "random"] * 3
        pols = [_Recorder(resolve_policies([names[(game + s) % 3]], 1, None, cfg)[0], views) for s in range(players)]
        g = Game(cfg, pols, RandomStream(np.random.PCG64([game, players])), record=False)
        g.history = []
        g.play()
    assert len(views) > 50
    N = players
    for v in views:
        s = v.seat
        pos = _history_position(cfg, tuple(v.hand), _history_items(typed_history(v)), None)
        tm = 0 if v.leading else v.trick_mask
        assert pos.tm == tm and pos.pm == v.played | tm
        assert pos.left == tuple(v.cards_left[(s + j) % N] for j in range(N))
        if tm:
            assert pos.b == (v.trick_seat - s) % N and pos.passes == v.passes
        rows = tuple(((q - s) % N, t, m, p, c) for q, t, m, p, c in v.history)
        if cfg.rules.first_lead == "previous_winner":
            # whether the hand is a match's first (whose opening must hold the lowest card) is not in
            # the history: the advisor takes the opening as free
            rows = tuple((q, t, 0 if i == 0 else m, p, c) for i, (q, t, m, p, c) in enumerate(rows))
        assert pos.history == rows
        if cfg.rules.pass_locks_out and tm:
            assert pos.locked == tuple(bool(v.locked[(s + j) % N]) for j in range(N))


def test_history_answers_as_the_search_with_its_inference():
    """With a history the advisor's values are the compiled search's on one resampled layout per
    draw, the history passed (rows counted from the player), the same streams."""
    from kaptai.bigtwo.advisor import _history_items, _history_position

    hist = "3D, 8D, pass, KD, pass, pass, pass"   # seat 1 led 3D, seat 2 8D, seat 3 passed, you KD: you lead
    hand = "4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D"
    df = advise(hand, history=hist, samples=16, seed=3)
    assert df.attrs["to_beat"] is None and df.attrs["cards_left"] == [12, 12, 12, 13]
    assert sorted(parse_cards(df.attrs["played"])) == sorted(parse_cards("3D 8D KD"))
    pos = _history_position(make_config(4), tuple(parse_cards(hand)), _history_items(hist), None)
    assert [r[0] for r in pos.history] == [1, 2, 3, 0, 1, 2, 3]
    assert [r[4] != 0 for r in pos.history] == [True, True, False, True, False, False, False]
    bg = batch_stream(3, 0)   # the advisor's first batch: one search call a layout, the same generator
    cfg = make_config(4)
    vals = []
    for _ in range(16):
        cands, sums, _, _ = _engine.search_position(cfg, 0, pos.left, pos.hm, played=pos.pm, bit_generator=bg,
                                                    samples=1, history=list(pos.history))
        vals.append(dict(zip((int(c) for c in cands), (int(x) for x in sums))))
    for r in df.itertuples():
        m = cards_to_mask(parse_cards(r.play))
        assert r.ev == pytest.approx(sum(v[m] for v in vals) / 16)


@pytest.mark.parametrize("kwargs, error, match", [
    ({"history": "3D, pass, 3D"}, InvalidHandError, r'history item 3 \("3D"\): card "3D" was already played'),
    ({"history": "3D, 3X"}, KaptaiError, r'history item 2.*"3X"'),
    ({"history": "3D, 4C"}, InvalidHandError, r'card "4C" is in your hand'),
    ({"history": "3D, 5D 6D"}, InvalidHandError, r'history item 2: "5D 6D" is not a legal combination'),
    ({"history": "3D, 8S 8D"}, InvalidHandError, r'"8D 8S" does not beat "3D"'),
    ({"history": "3D,, 8S"}, KaptaiError, r"history item 2 is empty"),
    ({"history": "5D"}, RulesError, r'opening play must contain "3D"'),
    ({"history": "3D, pass, pass, pass, pass"}, RulesError, r"history item 5 is a pass, but that seat leads"),
    ({"history": "3D", "played": "5D"}, RulesError, r"history is given with played"),
    ({"history": "3D", "by": 2}, RulesError, r"history is given with by"),
    ({"history": 7}, RulesError, r"history=7: expected the hand's actions in order"),
])
def test_bad_histories(kwargs, error, match):
    with pytest.raises(error, match=match):
        advise(HAND, samples=4, **kwargs)


def test_history_counts_and_leftovers():
    # you hold 13 cards but the history has you playing: the counts cannot add up
    with pytest.raises(RulesError, match=r"you hold 13 cards and played 1 in the history: 14, but you were dealt 13"):
        advise(HAND, history="3D, 8D, pass, pass, 9H", samples=4)
    # Malaysian three-player rules: who holds the face-down card is not in the history
    with pytest.raises(RulesError, match=r"give cards_left"):
        advise("4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D 2C 8C 8H 7S 6D", history="3D 3C",
               rules={"players": 3, "malaysian_3p": True}, samples=4)


def test_cli_history_json(capsys):
    main(["advise", "big-two", "4C 5H 6S 7D 9D 9C TS JS QS KH AH 2D", "--history", "3D, 8D, pass, KD, pass, pass, "
          "pass", "--samples", "8", "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    rows = out["rows"] if isinstance(out, dict) and "rows" in out else out
    assert rows and all(r["samples"] == 8 for r in rows)
    assert main(["advise", "big-two", HAND, "--history", "3D, 3X"]) != 0
    assert 'history item 2' in capsys.readouterr().err


def test_view_advice_uses_the_history_as_typed():
    """``kaptai play``'s hints (the view's history typed) and the review's arrays (the view's rows
    passed as they are) give the same numbers; with ``history=False`` the review prices the
    position from the cards played alone, as before the history was used."""
    from kaptai.bigtwo import advisor
    from kaptai.bigtwo.engine_reference import Game
    from kaptai.bigtwo.play import advice
    from kaptai.bigtwo.policies import resolve_policies
    from kaptai.core.sampling import RandomStream

    cfg = make_config(4)
    views: list = []
    pols = [_Recorder(resolve_policies(["heuristic"], 1, None, cfg)[0], views) for _ in range(4)]
    g = Game(cfg, pols, RandomStream(np.random.PCG64(11)), record=False)
    g.history = []
    g.play()
    views = [v for v in views if len(v.options) + int(v.can_pass) >= 2][:8]
    assert len(views) >= 5
    differs = 0
    for k, v in enumerate(views):
        a = advisor.advise_view(v, samples=24, seed=k)
        df = advice(v, samples=24, seed=k)
        assert a["labels"] == list(df.play) and np.allclose(a["ev"], df.ev.to_numpy())
        assert df.attrs["history"] == len(v.history)
        b = advisor.advise_view(v, samples=24, seed=k, history=False)
        differs += not np.allclose(a["ev"], b["ev"])
    assert differs > 0
