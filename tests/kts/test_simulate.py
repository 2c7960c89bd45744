"""Monte Carlo front end: tables, reproducibility, exact-vs-Monte-Carlo agreement, seat
symmetry and bad input."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chisquare

from kaptai.errors import RulesError
from kaptai.kts import _eval
from kaptai.kts.dice import first_hand_distribution
from kaptai.kts.config import make_config
from kaptai.kts.policies import GreedyPolicy, Policy
from kaptai.kts.simulate import CHUNK_HANDS, METRICS, simulate, simulate_log

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py
FORMS_MASK = {"traditional": 1, "advanced": 31}


def rows(df, metric, relative_to=None):
    sel = df[df.metric == metric]
    if relative_to is not None:
        sel = sel[sel.relative_to == relative_to]
    return sel


def wilson99(k, n):
    from kaptai.core.stats import wilson_interval

    lo, hi = wilson_interval(k, n, 0.99)
    return float(lo), float(hi)


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------


def test_table_shape_and_attrs():
    df = simulate(4, "advanced", 500, seed=11, progress=False)
    assert list(df.columns) == [
        "game", "rules", "players", "metric", "seat", "relative_to", "level",
        "value", "ci_low", "ci_high", "samples", "method",
    ]
    assert set(df.metric) <= set(METRICS)
    assert {"win", "win_natural", "win_claimed", "win_self_drawn", "drawn_hand", "hand_length",
            "ready", "score", "score_mean", "first_hand"} <= set(df.metric)
    assert (df.method == "monte_carlo").all() and (df.game == "kap-tai-shap").all()
    assert (df.rules == "advanced").all() and (df.players == 4).all()
    assert set(df.relative_to.dropna()) == {"first_hand", "dealer"}
    ok = df.value.notna()
    assert ((df.ci_low[ok] <= df.value[ok] + 1e-12) & (df.value[ok] <= df.ci_high[ok] + 1e-12)).all()
    drawn = rows(df, "drawn_hand")
    assert len(drawn) == 1 and pd.isna(drawn.seat.iloc[0]) and drawn.relative_to.iloc[0] is None
    for rel in ("first_hand", "dealer"):
        win = rows(df, "win", rel)
        assert win.seat.tolist() == [0, 1, 2, 3]
        parts = sum(rows(df, m, rel).value.to_numpy() for m in ("win_natural", "win_claimed", "win_self_drawn"))
        np.testing.assert_allclose(parts, win.value.to_numpy())
        assert win.value.sum() + drawn.value.iloc[0] == pytest.approx(1.0)
    length = rows(df, "hand_length")
    assert length.value.sum() == pytest.approx(1.0)
    score = df[(df.metric == "score") & df.seat.isna()]
    assert score.value.sum() == pytest.approx(1.0) and score.level.min() >= 2
    attrs = df.attrs
    assert attrs["seed_entropy"] == 11 and attrs["hands"] == 500
    assert attrs["rules"]["name"] == "advanced" and attrs["policies"] == ["greedy"] * 4
    assert attrs["engine"] == "compiled" and "version" in attrs
    json.dumps(attrs)  # metadata stays JSON-friendly (parquet keeps attrs as JSON)


def test_no_score_rows_under_pot_settlement():
    df = simulate(4, "traditional", 200, seed=1, progress=False)
    assert not df.metric.isin(["score", "score_mean"]).any()
    assert "turn_limit" not in set(df.metric)
    df = simulate(4, {"turn": "claim-or-draw"}, 200, seed=1, progress=False)
    assert "turn_limit" in set(df.metric)


def test_same_seed_same_table_and_workers_do_not_matter():
    hands = 2 * CHUNK_HANDS + 77
    one = simulate(4, "advanced", hands, seed=5, policies="random", progress=False)
    two = simulate(4, "advanced", hands, seed=5, policies="random", workers=2, progress=False)
    three = simulate(4, "advanced", hands, seed=5, policies="random", workers=3, progress=False)
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, three)
    assert one.attrs == two.attrs
    other = simulate(4, "advanced", hands, seed=6, policies="random", progress=False)
    assert not one.value.equals(other.value)


def test_unseeded_run_records_its_entropy():
    df = simulate(3, None, 50, progress=False)
    again = simulate(3, None, 50, seed=df.attrs["seed_entropy"], progress=False)
    pd.testing.assert_frame_equal(df, again)


def test_record_keeps_the_first_hands_and_matches_simulate_log():
    df = simulate(4, "traditional", 300, seed=9, record=3, progress=False)
    log = pd.DataFrame(df.attrs["log"])
    assert sorted(set(log.hand)) == [0, 1, 2]
    direct = simulate_log(4, "traditional", 3, seed=9)
    pd.testing.assert_frame_equal(log, direct, check_dtype=False)
    ends = direct.groupby("hand").action.last()
    assert ends.isin(["natural", "claim_win", "self_drawn_win", "drawn_hand"]).all()
    assert list(direct.columns) == ["hand", "step", "turn", "seat", "action", "tile", "tile_name", "value"]


def test_progress_bar_goes_to_stderr(capsys):
    simulate(2, None, 20, seed=1, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "simulate" in err
    simulate(2, None, 20, seed=1, progress=False)
    assert capsys.readouterr().err == ""


class AlwaysDraw(Policy):
    name = "always-draw"

    def claim(self, view, candidates):
        return None

    def discard(self, view, legal):
        return view.drawn if view.drawn is not None else legal[-1]


def test_custom_python_policies_run_in_the_reference_engine():
    df = simulate(4, "traditional", 20, seed=2, policies=["greedy", AlwaysDraw(), "random", "score"], progress=False)
    assert df.attrs["engine"] == "reference"
    assert df.attrs["policies"] == ["greedy", "always-draw", "random", "score"]
    # the Python twin of a built-in gives the built-in's table
    py = simulate(4, "advanced", 30, seed=3, policies=[GreedyPolicy() for _ in range(4)], progress=False)
    c = simulate(4, "advanced", 30, seed=3, policies="greedy", progress=False)
    pd.testing.assert_frame_equal(py, c)


def test_exhausted_wall_is_a_drawn_hand():
    df = simulate(2, {"forms": "run8"}, 200, seed=1, policies="greedy", progress=False)
    assert rows(df, "drawn_hand").value.iloc[0] == 1.0
    assert rows(df, "win").value.sum() == 0.0
    # every hand lasts until the 17 wall tiles are gone: 1 + 17 draws, one per turn
    length = rows(df, "hand_length")
    assert length[length.value > 0].level.tolist() == [19]


# --------------------------------------------------------------------------------------
# Exact against Monte Carlo
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,preset", [(4, "traditional"), (4, "advanced"), (2, "traditional"), (6, "advanced")]
)
def test_natural_rate_agrees_with_exact_enumeration(players, preset):
    cfg = make_config(players, preset)
    exact = _eval._deal_tables(list(cfg.copies), cfg.n_first, FORMS_MASK[preset], 0, 6, cfg.n, False)
    p = exact["win"] / exact["total"]
    hands = 20_000
    df = simulate(players, preset, hands, seed=21, policies="random", progress=False)
    nat = rows(df, "win_natural", "first_hand")
    k = int(round(nat.value.iloc[0] * hands))
    lo, hi = wilson99(k, hands)
    assert lo <= p <= hi, (p, lo, hi)
    # only the first hand can win with its dealt tiles
    assert (nat.value.iloc[1:] == 0).all()


@pytest.mark.parametrize("players,rules", [(4, {}), (4, {"dice": 4}), (9, {}), (2, {"dice": 4})])
def test_first_hand_seat_follows_the_dice(players, rules):
    hands = 20_000
    df = simulate(players, rules, hands, seed=4, policies="random", progress=False)
    got = rows(df, "first_hand", "dealer")
    exact = first_hand_distribution(players, rules)
    observed = np.rint(got.value.to_numpy() * hands)
    expected = np.array([float(exact[s]) for s in got.seat]) * hands
    seen = expected > 0
    assert (observed[~seen] == 0).all()
    # one goodness-of-fit test per table (not one interval per seat: 9 seats, 9 chances)
    assert chisquare(observed[seen], expected[seen]).pvalue > 0.01


# --------------------------------------------------------------------------------------
# Seat symmetry
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,preset", [(4, "traditional"), (7, "traditional"), (4, "advanced")])
def test_win_rates_follow_the_turn_order(players, preset):
    hands = 10_000 if preset == "advanced" else 20_000
    df = simulate(players, preset, hands, seed=8, policies="greedy", progress=False)
    win = rows(df, "win", "first_hand")
    nat = rows(df, "win_natural", "first_hand")
    assert (nat.value.iloc[1:] == 0).all() and nat.value.iloc[0] > 0
    # after the first hand, the earlier a seat draws the more often it wins
    later = win.iloc[1:]
    assert (later.ci_high.to_numpy()[1:] < later.ci_low.to_numpy()[:-1]).all(), later.value.tolist()


def test_dealer_relative_rates_are_symmetric_when_the_dice_are():
    # three players, three dice: the first hand is uniform over the seats (1/3 each)
    df = simulate(3, "traditional", 20_000, seed=12, policies="greedy", progress=False)
    win = rows(df, "win", "dealer")
    assert win.ci_low.max() < win.ci_high.min()
    ready = rows(df, "ready", "dealer")
    t0 = ready[ready.level == 1]
    assert t0.ci_low.max() < t0.ci_high.min()


def test_score_policy_scores_more_than_greedy():
    kw = dict(players=4, rules="advanced", hands=8_000, seed=13, progress=False)
    greedy = simulate(policies="greedy", **kw)
    score = simulate(policies="score", **kw)
    g = greedy[(greedy.metric == "score_mean") & greedy.seat.isna()].iloc[0]
    s = score[(score.metric == "score_mean") & score.seat.isna()].iloc[0]
    assert s.ci_low > g.ci_high


@pytest.mark.slow
def test_workers_do_not_matter_at_scale():
    hands = int(20 * CHUNK_HANDS * SCALE) + 1
    a = simulate(5, "advanced", hands, seed=99, progress=False)
    b = simulate(5, "advanced", hands, seed=99, workers=2, progress=False)
    pd.testing.assert_frame_equal(a, b)


# --------------------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(players=1), "players=1"),
        (dict(players=23), "players=23"),
        (dict(players=4, hands=0), "hands=0"),
        (dict(players=4, hands=-3), "hands=-3"),
        (dict(players=4, hands=2.5), "hands=2.5"),
        (dict(players=4, hands=True), "hands=True"),
        (dict(players=4, policies="smart"), "'smart'"),
        (dict(players=4, policies=["greedy", "random"]), "2 entries for 4 players"),
        (dict(players=4, policies=[1, 2, 3, 4]), "1"),
        (dict(players=4, rules={"clam": "any"}), "'clam'"),
        (dict(players=4, rules={"claim": "sometimes"}), "'sometimes'"),
        (dict(players=4, rules="fast"), "'fast'"),
        (dict(players=4, rules={"sets": 1}), "37 tiles"),
        (dict(players=4, workers=0), "workers=0"),
        (dict(players=4, record=-1), "record=-1"),
        (dict(players=4, seed=-1), "seed=-1"),
    ],
)
def test_bad_input_raises_rules_error_naming_the_value(kwargs, match):
    kwargs.setdefault("hands", 5)
    with pytest.raises(RulesError, match=match):
        simulate(progress=False, **kwargs)
