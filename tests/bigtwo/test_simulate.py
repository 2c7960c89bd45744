"""Monte Carlo layer of Big Two: tallies, tables, seeds, runner, exact-vs-Monte-Carlo agreement."""

import json
import math

import numpy as np
import pandas as pd
import pytest

from kaptai.bigtwo import scoring
from kaptai.bigtwo.config import make_config
from kaptai.bigtwo.engine import run_hands
from kaptai.bigtwo.fairness import VARIANT_SETS, compare_variants, fairness, resolve_variants
from kaptai.bigtwo.odds import deal_odds
from kaptai.bigtwo.simulate import (
    FRAME_COLUMNS,
    METRICS,
    finish_order,
    run_tallies,
    scoring_variants,
    simulate,
    simulate_log,
    tally_outcomes,
)
from kaptai.bigtwo.rules import RuleSet
from kaptai.cli import main
from kaptai.errors import RulesError

from ..conftest import SLOW_SCALE as SCALE  # KAPTAI_SLOW_SCALE, default in tests/conftest.py


def _metric(df, metric, rel=None, seat=None, level=None):
    sub = df[df.metric == metric]
    if rel is not None:
        sub = sub[sub.relative_to == rel]
    if seat is not None:
        sub = sub[sub.seat == seat]
    if level is not None:
        sub = sub[sub.level == level]
    return sub


@pytest.mark.parametrize("policy", ["greedy", "heuristic", "random"])
def test_table_shape_and_invariants(policy):
    df = simulate(4, games=3000, seed=5, policies=policy, progress=False)
    assert list(df.columns) == list(FRAME_COLUMNS)
    assert set(df.metric) <= set(METRICS)
    for rel in ("seat", "leader"):
        win = _metric(df, "win", rel)
        assert win.seat.tolist() == [0, 1, 2, 3]
        assert abs(win.value.sum() - 1) < 1e-12
    for rel in ("seat", "leader", "finish"):
        net = _metric(df, "net_mean", rel)
        assert abs(net.value.sum()) < 1e-8  # no house: nets sum to 0 in every game
    # the finish order is monotone: the winner nets most, the last seat least
    fin = _metric(df, "net_mean", "finish").sort_values("seat").value.to_numpy()
    assert (np.diff(fin) <= 1e-12).all()
    # intervals contain their estimates
    ok = df.ci_low.isna() | ((df.ci_low <= df.value + 1e-12) & (df.value <= df.ci_high + 1e-12))
    assert ok.all()
    assert df.attrs["policies"] == [policy] * 4 and df.attrs["games"] == 3000


def test_same_seed_same_table_any_workers_and_prefix_property():
    a = simulate(4, games=5000, seed=11, progress=False)
    b = simulate(4, games=5000, seed=11, progress=False, workers=2)
    pd.testing.assert_frame_equal(a, b)
    t1, _, _ = run_tallies(4, None, 4096, 11, progress=False)
    t2, _, _ = run_tallies(4, None, 8192, 11, progress=False)
    assert int(t1["games"][0]) == 4096 and int(t2["games"][0]) == 8192
    c = simulate(4, games=5000, seed=12, progress=False)
    assert not a.value.equals(c.value)


def test_tallies_match_scalar_scoring_per_game():
    cfg = make_config(4, {"scoring": "points", "winner_bonus": 5, "settlement": "winner_takes_all"})
    out, _ = run_hands(cfg, "greedy", np.random.PCG64(3), 300)
    t = tally_outcomes(out, cfg, [cfg.rules])
    nets = np.zeros(4)
    for g in range(300):
        p = scoring.penalties(out["cards_left"][g : g + 1], cfg.rules, points_left=out["points_left"][g : g + 1],
                              winner=out["winner"][g : g + 1], instant=out["instant"][g : g + 1])
        nets += scoring.settle_many(p, cfg.rules, winner=out["winner"][g : g + 1], liable=out["liable"][g : g + 1])[0]
    assert np.allclose(t["net_seat"][0, 0], nets)


def test_finish_order_ties_in_play_order_from_winner():
    order = finish_order(np.array([[3, 3, 0, 3], [0, 1, 1, 2]]), np.array([2, 0]))
    assert order.tolist() == [[2, 3, 0, 1], [0, 1, 2, 3]]


def test_record_log_numbers_games_across_chunks():
    _, log, _ = run_tallies(4, None, 4100, 1, record=4100, progress=False)
    games = np.unique(log[:, 0])
    assert games[0] == 0 and games[-1] == 4099 and len(games) == 4100
    lg = simulate_log(4, games=2, seed=1)
    assert set(lg.game) == {0, 1} and lg.action_name.iloc[-1] == "win"


def test_bad_input_is_named():
    with pytest.raises(RulesError, match="games=0"):
        simulate(4, games=0)
    with pytest.raises(RulesError, match="unknown policy 'smart'"):
        simulate(4, games=10, policies="smart")
    with pytest.raises(RulesError, match="only scoring options"):
        scoring_variants(RuleSet(), {"x": {"top_rule": "off"}})
    with pytest.raises(RulesError, match="malaysian_swap"):
        simulate(3, {"malaysian_3p": True}, games=10, malaysian_swap="maybe")
    with pytest.raises(RulesError, match="seed"):
        simulate(4, games=10, seed=-1)


def test_redeal_rate_agrees_with_exact_table_probability():
    """P(the first deal is redealt) = P(some seat may redeal), computed exactly (inclusion-exclusion)."""
    games = int(40_000 * SCALE) + 4000
    for players, rule in ((4, "points_lt_3"), (5, "points_lt_3"), (6, "hk_max10")):
        df = simulate(players, {"redeal": rule}, games=games, seed=21, progress=False)
        row = _metric(df, "redeal_rate").iloc[0]
        exact = deal_odds(players).set_index("metric").value[f"table_redeal_{rule}"]
        se = math.sqrt(exact * (1 - exact) / games)
        assert abs(row.value - exact) < 4.5 * se + 1e-12, (players, rule, row.value, exact)


def test_malaysian_swap_always_never_and_policy():
    base = {"malaysian_3p": True}
    always = simulate(3, base, games=800, seed=4, malaysian_swap="always", progress=False)
    never = simulate(3, base, games=800, seed=4, malaysian_swap="never", progress=False)
    assert _metric(always, "swap_rate").value.iloc[0] == 1.0
    assert _metric(never, "swap_rate").value.iloc[0] == 0.0
    rnd = simulate(3, base, games=4000, seed=4, policies="random", progress=False)
    r = _metric(rnd, "swap_rate").iloc[0]
    assert r.ci_low < 0.5 < r.ci_high


def test_fairness_variants_share_games_and_sum_to_zero():
    df = compare_variants("scoring_settlement", games=1500, seed=3, progress=False)
    assert df.attrs["simulations"] == 1
    assert list(dict.fromkeys(df.variant)) == list(VARIANT_SETS["scoring_settlement"])
    ev = df[(df.metric == "ev_per_hand") & (df.relative_to == "seat")]
    assert (ev.groupby("variant").value.sum().abs() < 1e-8).all()
    # same games: win rates are identical across scoring variants
    win = df[(df.metric == "win") & (df.relative_to == "seat")].pivot(index="seat", columns="variant", values="value")
    assert (win.nunique(axis=1) == 1).all()
    mixed = compare_variants("top_rule", games=500, seed=3, progress=False)
    assert mixed.attrs["simulations"] == 3
    assert set(mixed.house_cut) == {0.0}


def test_fairness_winner_takes_all_has_no_positive_non_winner():
    df = fairness(4, 2000, 2, variants="settlement", progress=False)
    nw = df[df.metric == "nonwinner_positive"].set_index("variant").value
    assert nw["winner takes all"] == 0.0
    assert nw["place"] > 0.0


def test_resolve_variants_errors():
    with pytest.raises(RulesError, match="unknown variant set"):
        resolve_variants("nope")
    with pytest.raises(RulesError, match="malaysian_swap"):
        resolve_variants({"x": {"players": 3, "malaysian_3p": True, "malaysian_swap": "maybe"}})


def test_cli_simulate_and_fairness_json(capsys):
    assert main(["simulate", "big-two", "--hands", "300", "--seed", "1", "--no-progress", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"metric", "value", "seat", "relative_to", "ci_low", "ci_high"} <= set(rows[0])
    assert any(r["metric"] == "win" for r in rows)
    assert main(["simulate", "big-two", "--hands", "200", "--seed", "1", "--no-progress", "--policy", "heuristic",
                 "-o", "top_rule=mandatory", "--format", "csv"]) == 0
    assert "net_mean" in capsys.readouterr().out
    assert main(["fairness", "big-two", "--hands", "300", "--seed", "1", "--no-progress", "--format", "json",
                 "--variants", "winner_bonus"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["variant"] for r in rows} == {"bonus 0", "bonus 5", "bonus 10"}
    assert main(["simulate", "big-two", "--hands", "10", "--policy", "clever", "--no-progress"]) == 2
    assert "clever" in capsys.readouterr().err
    assert main(["fairness", "big-two", "--hands", "10", "--cut", "0.05", "--no-progress"]) == 2


def test_engine_deals_agree_with_exact_leftover_receiver_odds():
    """The engine's dealing procedure (leftovers to the lowest card) gives the exact receiver's hand distribution."""
    games = int(30_000 * SCALE) + 3000
    cfg = make_config(3, {"redeal": "off"})
    _, log = run_hands(cfg, "greedy", np.random.PCG64(8), games, record=games)
    deal = log[log[:, 3] == 0]
    receiver = deal[deal[:, 5] == 18][:, 4].astype(np.uint64)
    assert len(receiver) == games
    ranks = np.array([[(int(m) >> (4 * r)) & 15 for r in range(13)] for m in receiver], dtype=np.uint64)
    counts = np.array([[bin(int(x)).count("1") for x in row] for row in ranks])
    exact = deal_odds(3, {"redeal": "off"}, hand="leftover_receiver").set_index("metric").value
    observed = {
        "four_of_a_kind": (counts == 4).any(axis=1).mean(),
        "triple": (counts >= 3).any(axis=1).mean(),
        "four_twos": (counts[:, 12] == 4).mean(),
        "dragon": (counts >= 1).all(axis=1).mean(),
    }
    for metric, value in observed.items():
        p = float(exact[metric])
        se = math.sqrt(p * (1 - p) / games)
        assert abs(value - p) < 4.5 * se + 1e-12, (metric, value, p)


def test_checkpoint_resume_and_foreign_checkpoint(tmp_path):
    from kaptai.core.runner import CheckpointError

    ck = tmp_path / "ck"
    a = simulate(4, games=9000, seed=5, progress=False, checkpoint=ck)
    assert len(list(ck.glob("chunk-*.npz"))) == 3  # 9000 games = 3 chunks of 4096
    b = simulate(4, games=9000, seed=5, progress=False, checkpoint=ck)  # every chunk read back
    pd.testing.assert_frame_equal(a, b)
    with pytest.raises(CheckpointError):
        simulate(4, {"top_rule": "off"}, games=9000, seed=5, progress=False, checkpoint=ck)


def test_user_policy_runs_on_the_reference_engine():
    from kaptai.bigtwo.policies import GreedyPolicy, Policy

    class PassWhenAllowed(Policy):
        name = "passer"

        def choose(self, view):
            if view.can_pass:
                return None
            return view.options[0]

    df = simulate(4, games=60, seed=2, policies=[PassWhenAllowed(), GreedyPolicy(), "greedy", "greedy"], progress=False)
    assert df.attrs["engine"] == "reference"
    assert df.attrs["policies"][0] == "passer"
    win = _metric(df, "win", "seat")
    assert abs(win.value.sum() - 1) < 1e-12
    assert win[win.seat == 0].value.iloc[0] < 0.25  # passing whenever allowed rarely wins


def test_bankroll_sessions_conserve_coins_and_graduate_the_poor():
    from kaptai.bigtwo.sessions import simulate_sessions

    coins = [10000, 2100, 5000, 2500]
    df = simulate_sessions(4, {"chao": "8/11/13", "stake": 20}, sessions=600, games=120, coins=coins, seed=3,
                           progress=False)
    final = df[df.metric == "final_coins_mean"].value
    assert abs(final.sum() - sum(coins)) < 1e-6  # coins move between players, none are created
    grad = df[df.metric == "graduation_rate"].set_index("seat").value
    assert grad[1] > grad[0]  # the poorest seat (2100) leaves more often than the richest (10000)
    assert df.attrs["rules"]["bankroll"] == "capped"
    with pytest.raises(RulesError, match="coins"):
        simulate_sessions(4, sessions=10, games=10, coins=[100, 0, 100, 100], progress=False)
    with pytest.raises(RulesError, match="sessions=0"):
        simulate_sessions(4, sessions=0, progress=False)


def test_policies_are_ordered_by_strength():
    """One heuristic seat among greedy seats wins more than its share; one random seat less."""
    games = 20_000
    h = simulate(4, games=games, seed=9, policies=["heuristic", "greedy", "greedy", "greedy"], progress=False)
    r = simulate(4, games=games, seed=9, policies=["random", "greedy", "greedy", "greedy"], progress=False)
    hw = _metric(h, "win", "seat", 0).iloc[0]
    rw = _metric(r, "win", "seat", 0).iloc[0]
    assert hw.ci_low > 0.30  # measured about 0.38
    assert rw.ci_high < 0.25


def test_sessions_with_a_user_policy_resume_from_their_checkpoint(tmp_path):
    """The checkpoint fingerprint labels a Policy object by its name, not by a memory address."""
    from kaptai.bigtwo.sessions import simulate_sessions
    from kaptai.bigtwo.policies import Policy

    class Mine(Policy):  # a user policy: no __repr__ of its own
        name = "mine"

        def choose(self, view):
            return view.options[0] if not view.can_pass else None

        def __repr__(self):
            return object.__repr__(self)  # carries the memory address

    args = dict(sessions=4, games=5, coins=200, seed=1, progress=False, checkpoint=tmp_path / "ck")
    a = simulate_sessions(4, None, policies=[Mine(), "greedy", "greedy", "greedy"], **args)
    b = simulate_sessions(4, None, policies=[Mine(), "greedy", "greedy", "greedy"], **args)
    pd.testing.assert_frame_equal(a, b)
    assert a.attrs["policies"][0] == "mine"
